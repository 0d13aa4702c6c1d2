/*
 * ix_print.h: one decoded line per SQLI message, the protocol trace format
 * shared by ixwire, ixd --verbose and libixdb's trace hook.
 *
 * The printer remembers the last SQ_DESCRIBE it printed, so that later
 * SQ_TUPLE lines show their values as dbaccess prints them.
 */
#ifndef IX_PRINT_H
#define IX_PRINT_H

#include "ix_msg.h"
#include "types/ix_value.h"

typedef struct ix_printer {
    ix_caps caps; /* granted capabilities (for BYTE/TEXT descriptor width) */
    ix_fmt fmt;   /* value text format (DBDATE, DBMONEY) */
    /* private: the columns of the last DESCRIBE */
    ix_wbuf cols; /* array of ix_vtype */
    int ncols;
} ix_printer;

/* Initialises p; alloc may be NULL. */
void ix_printer_init(ix_printer *p, const ix_alloc *alloc);
void ix_printer_free(ix_printer *p);

/* Appends one line (no newline) describing m, which `role` sent. Returns the
 * buffer's sticky error. */
int ix_print_msg(ix_printer *p, ix_role role, const ix_msg *m, ix_wbuf *out);

/* Appends s[0..n) as a double-quoted string, escaping quotes, backslashes
 * and non-printable bytes as \xNN. */
void ix_print_quoted(ix_wbuf *out, const void *s, size_t n);

/* Appends printf-formatted text. */
void ix_printf(ix_wbuf *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
