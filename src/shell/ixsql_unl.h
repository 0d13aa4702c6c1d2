/*
 * ixsql_unl.h: the Informix UNL format of LOAD / UNLOAD (ixsql_unl.c), a
 * codec without I/O of its own beyond reading records from a FILE.
 *
 * A record is one row: every field is followed by the delimiter (the last
 * one too), then a newline. In a field, a backslash makes the next byte
 * literal: "\|" is the delimiter, "\\" a backslash, "\" + newline a newline
 * in the value. An empty field is NULL; the empty string is "\ " (backslash,
 * blank). BYTE values are hexadecimal digits. With hex escapes (dbaccess -X)
 * the other control bytes are written "\xNN" and read back.
 */
#ifndef IXSQL_UNL_H
#define IXSQL_UNL_H

#include <stddef.h>
#include <stdio.h>

/* A growing byte buffer. */
typedef struct ixsql_buf {
    char *p;
    size_t len, cap;
} ixsql_buf;

/* Appends n bytes; 0 or -1 (out of memory). */
int ixsql_buf_add(ixsql_buf *b, const void *s, size_t n);
void ixsql_buf_free(ixsql_buf *b);

/* The hex-escape setting (dbaccess -X): off unless the command line turns
 * it on with ixsql_unl_set_hex. */
void ixsql_unl_set_hex(int on);
int ixsql_unl_hex(void);

/* The default delimiter: the first byte of $DBDELIMITER when it is a valid
 * delimiter, else '|'. */
char ixsql_unl_default_delim(void);
/* 1 if c may be a delimiter: not NUL, newline, backslash, a hex digit or a
 * byte >= 0x80. */
int ixsql_unl_valid_delim(int c);

/* Appends the field for a text value of n bytes (escaped; "\ " when n is
 * 0), followed by the delimiter. */
int ixsql_unl_put_text(ixsql_buf *b, const char *s, size_t n, char delim, int hex);
/* Appends n bytes as lowercase hexadecimal digits, then the delimiter. */
int ixsql_unl_put_hex(ixsql_buf *b, const void *p, size_t n, char delim);
/* Appends an empty field (NULL): only the delimiter. */
int ixsql_unl_put_null(ixsql_buf *b, char delim);

/* One record read from a file: its raw bytes (without the final newline)
 * and where each field starts and ends in them. */
typedef struct ixsql_unl_rec {
    ixsql_buf raw;
    size_t *start, *end; /* field k is raw.p[start[k], end[k]) */
    int nfields, cap;
    long line; /* file line of its first byte (1-based) */
} ixsql_unl_rec;

/* Reads the next record from f; *lineno counts the file's lines (updated).
 * Returns 1 (a record), 0 (end of file), -1 (out of memory or read
 * error). Blank lines are records with one empty field. A "\r" after the
 * last delimiter (CRLF files) is dropped; a last field without its
 * delimiter is accepted. */
int ixsql_unl_read(FILE *f, ixsql_unl_rec *r, long *lineno, char delim);
void ixsql_unl_rec_free(ixsql_unl_rec *r);

/* Field values. ixsql_unl_is_null: 1 for an empty field. ixsql_unl_decode
 * appends field k's value (escapes undone; "\ " is the empty string) to
 * out, with a NUL after it that len does not count. ixsql_unl_unhex
 * appends the bytes of a hexadecimal field; -2 for a field that is not an
 * even number of hex digits. Both return 0 or -1 (out of memory). */
int ixsql_unl_is_null(const ixsql_unl_rec *r, int k);
int ixsql_unl_decode(const ixsql_unl_rec *r, int k, int hex, ixsql_buf *out);
int ixsql_unl_unhex(const ixsql_unl_rec *r, int k, ixsql_buf *out);

#endif
