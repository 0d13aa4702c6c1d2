/*
 * ixsql.h: the pieces of ixsql, the dbaccess-style shell of ixdb. ixsql is
 * a client of the public API (include/ixdb.h) and nothing else.
 */
#ifndef IXSQL_H
#define IXSQL_H

#include <stddef.h>

#include "ixdb.h"

/* Where a statement came from, for "Error in line N / Near character
 * position P": the line (1-based) and column (1-based) of its first byte. */
typedef struct ixsql_pos {
    int line;
    int col;
} ixsql_pos;

/* Status of running one statement. */
enum {
    IXSQL_OK = 0,     /* the statement worked */
    IXSQL_FAILED = 1, /* it failed (error printed); go on with the next one */
    IXSQL_FATAL = 2,  /* the connection is dead (error printed); stop */
};

/* Output (ixsql_out.c). Rows go to stdout; messages (confirmations, row
 * counts, errors) go to stderr, as dbaccess does; stdout is flushed before
 * each message so that 2>&1 keeps the order. */

/* "\n<text>\n\n" on stderr. */
void ixsql_message(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The last error on conn in dbaccess's layout; sql/len/at locate the
 * statement for the line and position (sql NULL: no position). */
void ixsql_print_error(ix_conn *conn, const char *sql, size_t len, ixsql_pos at);
/* Display width of a column for the horizontal layout (type and encoded
 * length as ix_column_type / ix_column_enclen give them); *numeric set to 1
 * for right-aligned types. */
int ixsql_display_width(int type, int enclen, int *numeric);
/* Steps a prepared statement that returns rows and prints them. */
int ixsql_print_rows(ix_stmt *stmt, const char *sql, size_t len, ixsql_pos at);
/* The confirmation dbaccess prints for a statement without rows ("Table
 * created.", "3 row(s) inserted.", ...), or NULL when it prints none. buf
 * receives counted messages. */
const char *ixsql_confirmation(int stmt_type, const char *sql, size_t len, long long changes,
                               char *buf, size_t cap);

/* The first byte at or after p (before end) that is not blank and not inside
 * a comment (-- to the end of the line, { ... }, slash-star ... star-slash);
 * end if there is none. */
const char *ixsql_skip_trivia(const char *p, const char *end);

/* LOAD SERIES FROM 'file' INTO table(column) [DELIMITER 'c'] (ixsql_ts.c):
 * ixsql_is_load_series says whether sql starts with LOAD SERIES;
 * ixsql_load_series runs it and prints its result. */
int ixsql_is_load_series(const char *sql, size_t len);
int ixsql_load_series(ix_conn *conn, const char *sql, size_t len, ixsql_pos at);

/* LOAD FROM 'file' [DELIMITER 'c'] INSERT INTO t [(cols)] and UNLOAD TO
 * 'file' [DELIMITER 'c'] SELECT ... (ixsql_load.c, UNL format in
 * ixsql_unl.h): the tests and the statements. */
int ixsql_is_load(const char *sql, size_t len);
int ixsql_is_unload(const char *sql, size_t len);
int ixsql_load(ix_conn *conn, const char *sql, size_t len, ixsql_pos at);
int ixsql_unload(ix_conn *conn, const char *sql, size_t len, ixsql_pos at);

/* Runs one statement (len bytes, no trailing ';') and prints its result. */
int ixsql_run(ix_conn *conn, const char *sql, size_t len, ixsql_pos at);

#endif
