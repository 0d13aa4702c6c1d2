/*
 * ix_print.h: one decoded line per SQLI message, the protocol trace format
 * shared by ixwire, ixd --verbose and libixdb's trace hook.
 *
 * The printer remembers the last SQ_DESCRIBE it printed, so that later
 * SQ_TUPLE lines show their values as dbaccess prints them.
 */
#ifndef IXP_PRINT_H
#define IXP_PRINT_H

#include "ix_msg.h"
#include "types/ix_value.h"

typedef struct ixp_printer {
    ixp_caps caps; /* granted capabilities (for BYTE/TEXT descriptor width) */
    ixt_fmt fmt;   /* value text format (DBDATE, DBMONEY) */
    /* private: the columns of the last DESCRIBE */
    ixb_wbuf cols; /* array of ixt_vtype */
    int ncols;
} ixp_printer;

/* Initialises p; alloc may be NULL. */
void ixp_printer_init(ixp_printer *p, const ixb_alloc *alloc);
void ixp_printer_free(ixp_printer *p);

/* Appends one line (no newline) describing m, which `role` sent. Returns the
 * buffer's sticky error. */
int ixp_print_msg(ixp_printer *p, ixp_role role, const ixp_msg *m, ixb_wbuf *out);

/* Appends s[0..n) as a double-quoted string, escaping quotes, backslashes
 * and non-printable bytes as \xNN. */
void ixp_print_quoted(ixb_wbuf *out, const void *s, size_t n);

/* Appends printf-formatted text. */
void ixp_printf(ixb_wbuf *out, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#endif
