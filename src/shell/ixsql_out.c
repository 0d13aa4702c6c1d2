/*
 * ixsql_out.c: running one statement and printing its result the way
 * dbaccess does: rows in a horizontal table when a row fits in 80 columns,
 * else one "name  value" line per column; confirmations ("Table created.",
 * "3 row(s) inserted."); errors as "  201: A syntax error has occurred."
 * with the ISAM line and the line / character position.
 */
#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ix_sqlscan.h"
#include "ixsql.h"
#include "ixsql_lob.h"

#define IXSQL_LINE_WIDTH 80

void ixsql_message(const char *fmt, ...) {
    va_list ap;
    if (ixsql_opt.quiet) return;
    fflush(stdout);
    fputc('\n', stderr);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputs("\n\n", stderr);
}

const char *ixsql_skip_trivia(const char *p, const char *end) {
    size_t i = 0;
    ixb_tok t;
    ixb_sql_next(p, (size_t)(end - p), &i, 0, &t);
    return t.p;
}

/* ---- errors ----------------------------------------------------------------- */

/* ix_errmsg appends " [isam: text]" when there is an ISAM code; dbaccess
 * prints the ISAM text on a line of its own, so take the suffix off. */
static size_t sql_text_len(const char *msg, int isam) {
    size_t n = strlen(msg);
    if (!isam) return n;
    char suffix[300];
    const char *it = ix_isam_errtext(isam);
    if (it)
        snprintf(suffix, sizeof suffix, " [%d: %s]", isam, it);
    else
        snprintf(suffix, sizeof suffix, " [ISAM error %d]", isam);
    size_t k = strlen(suffix);
    if (n >= k && memcmp(msg + n - k, suffix, k) == 0) return n - k;
    return n;
}

void ixsql_print_error(ix_conn *conn, const char *sql, size_t len, ixsql_pos at) {
    int code = ix_sqlcode(conn), isam = ix_isamcode(conn), off = ix_erroffset(conn);
    const char *msg = ix_errmsg(conn);
    fflush(stdout);
    if (code == 0) { /* not from the server: connection or client error */
        fprintf(stderr, "\nixsql: %s\n", msg[0] ? msg : ix_rc_str(ix_errcode(conn)));
        return;
    }
    fprintf(stderr, "\n%5d: %.*s\n", -code, (int)sql_text_len(msg, isam), msg);
    if (isam) {
        const char *it = ix_isam_errtext(isam);
        if (it && strncmp(it, "ISAM error: ", 12) == 0 && it[12] != ' ')
            /* dbaccess's message file has two blanks after the colon */
            fprintf(stderr, "\n%5d: ISAM error:  %s\n", -isam, it + 12);
        else if (it)
            fprintf(stderr, "\n%5d: %s\n", -isam, it);
        else
            fprintf(stderr, "\n%5d: ISAM error %d.\n", -isam, isam);
    }
    /* The offset is a 0-based byte offset into the text sent; 0 means "none"
     * except for a syntax error, which always has a position. */
    if (sql && (off > 0 || code == -201) && (size_t)off <= len) {
        int line = at.line, col = at.col;
        for (int i = 0; i < off; i++) {
            if (sql[i] == '\n') {
                line++;
                col = 1;
            } else {
                col++;
            }
        }
        fprintf(stderr, "Error in line %d\nNear character position %d\n", line, col);
    }
    /* -m: the SQLSTATE and the message as the library composed it (with
     * the ISAM text in brackets) */
    if (ixsql_opt.all_errors) fprintf(stderr, "SQLSTATE %s: %s\n", ix_sqlstate(conn), msg);
}

/* ---- widths -------------------------------------------------------------------- */

/* Characters of a DATETIME / INTERVAL qualifier's text: its digits plus one
 * separator between fields (YEAR, MONTH, DAY, HOUR, MINUTE, SECOND, FRACTION). */
static int qualifier_width(int enclen) {
    int digits = (enclen >> 8) & 0xff, start = (enclen >> 4) & 0xf, end = enclen & 0xf;
    int fields = 0;
    for (int u = IX_UNIT_YEAR; u <= IX_UNIT_SECOND; u += 2)
        if (u >= start && u <= end) fields++;
    if (end > IX_UNIT_SECOND) fields++;
    return fields > 0 ? digits + fields - 1 : digits;
}

int ixsql_display_width(int type, int enclen, int *numeric) {
    int p = (enclen >> 8) & 0xff, s = enclen & 0xff;
    *numeric = 1;
    switch (type) {
    case IX_T_SMALLINT: return 6;
    case IX_T_INTEGER:
    case IX_T_SERIAL: return 11;
    case IX_T_INT8:
    case IX_T_SERIAL8:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: return 20;
    case IX_T_SMALLFLOAT: return 14;
    case IX_T_FLOAT: return 17;
    case IX_T_DECIMAL: /* sign and point; floating: and a 0 */
        return s == IX_SCALE_FLOATING ? p + 3 : p + 2;
    case IX_T_MONEY: return p + 3; /* and the currency symbol */
    default: break;
    }
    *numeric = 0;
    switch (type) {
    case IX_T_DATE: return 10;
    case IX_T_DATETIME:
    case IX_T_INTERVAL: return qualifier_width(enclen);
    case IX_T_BOOLEAN: return 1;
    case IX_T_BYTE: return 12;                   /* "<BYTE value>" */
    case IX_T_TEXT: return 2 * IXSQL_LINE_WIDTH; /* always vertical */
    case IX_T_UDTFIXED:                          /* a smart LOB: "<SBlob value>" */
        if (enclen != IX_LOCATOR_LEN) return enclen > 0 ? enclen : 1;
        return ixsql_lob_show == IXSQL_LOB_PLACEHOLDER ? 13
               : ixsql_lob_show == IXSQL_LOB_SIZE      ? 30
                                                       : 2 * IXSQL_LINE_WIDTH; /* CLOB text */
    case IX_T_CHAR:
    case IX_T_VARCHAR:
    case IX_T_NCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR:
    default: return enclen > 0 ? enclen : 1;
    }
}

/* ---- rows ------------------------------------------------------------------------ */

static void pad(int n) {
    for (; n > 0; n--)
        putchar(' ');
}

/* One field: left- or right-aligned in width terminal cells (never cut). */
static void field(const char *s, int width, int right) {
    size_t len = strlen(s);
    int n = ixsql_text_width(s, len);
    if (right) pad(width - n);
    ixsql_put_text(s, len);
    if (!right) pad(width - n);
}

/* aligned_rows's status when its own allocation failed (not ix_step's). */
enum { ROWS_NO_MEMORY = -1000 };

/* dbaccess's layout: steps stmt and prints its rows; *rows receives their
 * count. Returns ix_step's last status, or ROWS_NO_MEMORY. */
static int aligned_rows(ix_stmt *stmt, long long *rows) {
    int ncols = ix_column_count(stmt);
    int *width = calloc((size_t)ncols, sizeof *width);
    int *numeric = calloc((size_t)ncols, sizeof *numeric);
    if (!width || !numeric) {
        free(width);
        free(numeric);
        return ROWS_NO_MEMORY;
    }
    int total = 0, namew = 0;
    for (int i = 0; i < ncols; i++) {
        const char *name = ix_column_name(stmt, i);
        int nw = name ? ixsql_text_width(name, strlen(name)) : 0;
        width[i] =
            ixsql_display_width(ix_column_type(stmt, i), ix_column_enclen(stmt, i), &numeric[i]);
        if (nw > width[i]) width[i] = nw;
        if (nw > namew) namew = nw;
        total += width[i] + (i > 0);
    }
    int vertical =
        total > IXSQL_LINE_WIDTH || ixsql_opt.expanded || ixsql_opt.format == IXSQL_FMT_VERTICAL;
    int names = !ixsql_without_headings;
    int rc;
    *rows = 0;
    while ((rc = ix_step(stmt)) == IX_ROW) {
        if (*rows == 0) {
            putchar('\n');
            if (!vertical && names) {
                for (int i = 0; i < ncols; i++) {
                    if (i) putchar(' ');
                    field(ix_column_name(stmt, i), width[i], numeric[i]);
                }
                putchar('\n');
                putchar('\n');
            }
        } else if (vertical) {
            putchar('\n');
        }
        for (int i = 0; i < ncols; i++) {
            size_t vn;
            const char *v = ixsql_col_text(stmt, i, &vn);
            if (!v) v = ixsql_fmt_null(), vn = strlen(v); /* as nothing unless \pset null */
            if (vertical) {
                if (names) {
                    field(ix_column_name(stmt, i), namew, 0);
                    fputs("  ", stdout);
                }
                ixsql_put_text(v, vn);
                putchar('\n');
            } else {
                if (i) putchar(' ');
                field(v, width[i], numeric[i]);
            }
        }
        if (!vertical) putchar('\n');
        ++*rows;
    }
    ixsql_lob_end();
    free(width);
    free(numeric);
    return rc;
}

int ixsql_print_rows(ix_stmt *stmt, const char *sql, size_t len, ixsql_pos at) {
    ix_conn *conn = ix_stmt_conn(stmt);
    long long rows;
    int f = ixsql_opt.format;
    ixsql_pager pg;
    ixsql_pager_begin(&pg);
    int rc = f == IXSQL_FMT_ALIGNED || f == IXSQL_FMT_VERTICAL ? aligned_rows(stmt, &rows)
                                                               : ixsql_fmt_rows(stmt, &rows);
    ixsql_pager_end(&pg);
    if (rc == ROWS_NO_MEMORY) {
        fflush(stdout);
        fprintf(stderr, "\nixsql: out of memory\n");
        return IXSQL_FATAL;
    }
    if (rc != IX_DONE) {
        ixsql_print_error(conn, sql, len, at);
        return ix_conn_is_dead(conn) ? IXSQL_FATAL : IXSQL_FAILED;
    }
    if (rows == 0)
        ixsql_message("No rows found.");
    else
        ixsql_message("%lld row(s) retrieved.", rows);
    return IXSQL_OK;
}

/* ---- confirmations ----------------------------------------------------------------- */

/* The first words of the statement, upper-cased and blank-separated, into
 * out (at most three words). */
static void first_words(const char *sql, size_t len, char *out, size_t cap) {
    ixb_tok w[3];
    int nw = ixb_sql_words(sql, len, w, 3);
    size_t k = 0;
    for (int i = 0; i < nw; i++) {
        if (i && k + 1 < cap) out[k++] = ' ';
        for (size_t j = 0; j < w[i].n && k + 1 < cap; j++)
            out[k++] = (char)toupper((unsigned char)w[i].p[j]);
    }
    out[k] = 0;
}

static int starts(const char *words, const char *prefix) {
    return strncmp(words, prefix, strlen(prefix)) == 0;
}

const char *ixsql_confirmation(int stmt_type, const char *sql, size_t len, long long changes,
                               char *buf, size_t cap) {
    char w[64];
    first_words(sql, len, w, sizeof w);
    switch (stmt_type) {
    case IX_STMTTYPE_DATABASE: return "Database selected.";
    case IX_STMTTYPE_SELECT_INTO_TEMP:
        snprintf(buf, cap, "%lld row(s) retrieved into temp table.", changes);
        return buf;
    case IX_STMTTYPE_UPDATE:
    case IX_STMTTYPE_UPDATE_ALL: snprintf(buf, cap, "%lld row(s) updated.", changes); return buf;
    case IX_STMTTYPE_DELETE:
    case IX_STMTTYPE_DELETE_ALL: snprintf(buf, cap, "%lld row(s) deleted.", changes); return buf;
    case IX_STMTTYPE_INSERT: snprintf(buf, cap, "%lld row(s) inserted.", changes); return buf;
    case IX_STMTTYPE_LOCK_TABLE: return "Table locked.";
    case IX_STMTTYPE_UNLOCK_TABLE: return "Table unlocked.";
    case IX_STMTTYPE_CREATE_DB: return "Database created.";
    case IX_STMTTYPE_DROP_DB: return "Database dropped.";
    case IX_STMTTYPE_CREATE_TABLE:
    case IX_STMTTYPE_CREATE_TEMP_TABLE: return "Table created.";
    case IX_STMTTYPE_DROP_TABLE: return "Table dropped.";
    case IX_STMTTYPE_CREATE_INDEX: return "Index created.";
    case IX_STMTTYPE_DROP_INDEX: return "Index dropped.";
    case IX_STMTTYPE_GRANT: return "Permission granted.";
    case IX_STMTTYPE_REVOKE: return "Permission revoked.";
    case IX_STMTTYPE_RENAME_TABLE: return "Table renamed.";
    case IX_STMTTYPE_RENAME_COLUMN: return "Column renamed.";
    case IX_STMTTYPE_ALTER_TABLE: return "Table altered.";
    case IX_STMTTYPE_UPDATE_STATISTICS: return "Statistics updated.";
    case IX_STMTTYPE_CLOSE_DB: return "Database closed.";
    case IX_STMTTYPE_BEGIN_WORK: return "Started transaction.";
    case IX_STMTTYPE_COMMIT_WORK: return "Data committed.";
    case IX_STMTTYPE_ROLLBACK_WORK: return "Data rolled back.";
    case IX_STMTTYPE_SAVEPOINT:
        if (starts(w, "RELEASE")) return "Savepoint released.";
        if (starts(w, "ROLLBACK")) return "Data rolled back.";
        return "Savepoint set.";
    case IX_STMTTYPE_CREATE_VIEW: return "View created.";
    case IX_STMTTYPE_DROP_VIEW: return "View dropped.";
    case IX_STMTTYPE_CREATE_SYNONYM: return "Synonym created.";
    case IX_STMTTYPE_DROP_SYNONYM: return "Synonym dropped.";
    case IX_STMTTYPE_SET_LOCK_MODE: return "Lock mode set.";
    case IX_STMTTYPE_ALTER_INDEX: return "Index altered.";
    case IX_STMTTYPE_SET_ISOLATION: return "Isolation level set.";
    case IX_STMTTYPE_SET_LOG: return "Log set.";
    case IX_STMTTYPE_SET_EXPLAIN: return "Explain set.";
    case IX_STMTTYPE_SET_OPTIMIZATION: return "Optimization set.";
    case IX_STMTTYPE_CREATE_PROC: return "Routine created.";
    case IX_STMTTYPE_DROP_PROC: return "Routine dropped.";
    case IX_STMTTYPE_SET_CONSTRAINTS: return "Constraint mode set.";
    case IX_STMTTYPE_CREATE_TRIGGER: return "Trigger created.";
    case IX_STMTTYPE_DROP_TRIGGER: return "Trigger dropped.";
    case IX_STMTTYPE_CREATE_ROLE: return "Role created.";
    case IX_STMTTYPE_DROP_ROLE: return "Role dropped.";
    case IX_STMTTYPE_SET_ROLE: return "Role set.";
    case IX_STMTTYPE_CREATE_SEQUENCE: return "Sequence created.";
    case IX_STMTTYPE_DROP_SEQUENCE: return "Sequence dropped.";
    case IX_STMTTYPE_ALTER_SEQUENCE: return "Sequence altered.";
    case IX_STMTTYPE_RENAME_SEQUENCE: return "Sequence renamed.";
    case IX_STMTTYPE_TRUNCATE: return "Table truncated.";
    case IX_STMTTYPE_MERGE: snprintf(buf, cap, "%lld row(s) merged.", changes); return buf;
    case IX_STMTTYPE_CREATE_ROWTYPE: return "Row type created.";
    case IX_STMTTYPE_DROP_ROWTYPE: return "Row type dropped.";
    case IX_STMTTYPE_CREATE_SCHEMA: return "Schema created.";
    default: break;
    }
    /* Types a server reports differently (ixd gives DROP DATABASE 9) or as 0. */
    if (starts(w, "DROP DATABASE")) return "Database dropped.";
    if (starts(w, "SET ENVIRONMENT")) return "Environment set.";
    if (starts(w, "SET PDQPRIORITY")) return "PDQ priority set.";
    if (starts(w, "SET ROLE")) return "Role set.";
    if (starts(w, "CREATE ROLE")) return "Role created.";
    if (starts(w, "DROP ROLE")) return "Role dropped.";
    if (starts(w, "CREATE ROW TYPE")) return "Row type created.";
    if (starts(w, "CREATE DISTINCT TYPE")) return "Type created.";
    return NULL;
}

/* ---- one statement ------------------------------------------------------------------- */

static int failed(ix_conn *conn, const char *sql, size_t len, ixsql_pos at) {
    ixsql_print_error(conn, sql, len, at);
    return ix_conn_is_dead(conn) ? IXSQL_FATAL : IXSQL_FAILED;
}

/* Statement types that never return rows. */
static int is_dml(int t) {
    return t == IX_STMTTYPE_UPDATE || t == IX_STMTTYPE_DELETE || t == IX_STMTTYPE_INSERT ||
           t == IX_STMTTYPE_DELETE_ALL || t == IX_STMTTYPE_UPDATE_ALL;
}

int ixsql_run(ix_conn *conn, const char *sql, size_t len, ixsql_pos at) {
    ix_stmt *s = NULL;
    char buf[96];
    int rc;
    if (len > 0x7fffffff) len = 0x7fffffff;
    if (ixsql_output_hook(conn, sql, len, at, &rc)) return rc;
    if (ixsql_is_load_series(sql, len)) return ixsql_load_series(conn, sql, len, at);
    if (ixsql_is_load(sql, len)) return ixsql_load(conn, sql, len, at);
    if (ixsql_is_unload(sql, len)) return ixsql_unload(conn, sql, len, at);
    if (ixsql_is_info(sql, len)) return ixsql_info(conn, sql, len, at);
    if (ix_prepare(conn, sql, (int)len, &s) != IX_OK) return failed(conn, sql, len, at);
    if (ix_bind_parameter_count(s) > 0) { /* nothing can be bound here: refused as dbaccess does */
        enum { SQLCODE_HOST_VARS = -254 };
        ix_finalize(s);
        fflush(stdout);
        fprintf(stderr, "\n%5d: %s\n", -SQLCODE_HOST_VARS, ix_errtext(SQLCODE_HOST_VARS));
        return IXSQL_FAILED;
    }
    int type = ix_stmt_type(s);
    if (ix_column_count(s) > 0 && !is_dml(type)) {
        rc = ixsql_print_rows(s, sql, len, at);
        ix_finalize(s);
        return rc;
    }
    if (ix_column_count(s) > 0) {
        /* Work-around: libixdb opens a cursor for a DML statement that was
         * described with columns (ixd describes UPDATE without WHERE, type
         * 33, with its SET columns), which fails with -481. Run it as a
         * one-shot command instead. */
        ix_finalize(s);
        char *text = malloc(len + 1);
        if (!text) {
            fflush(stdout);
            fprintf(stderr, "\nixsql: out of memory\n");
            return IXSQL_FATAL;
        }
        memcpy(text, sql, len);
        text[len] = 0;
        rc = ix_exec(conn, text);
        free(text);
        if (rc != IX_OK) return failed(conn, sql, len, at);
        const char *m =
            ixsql_confirmation(type, sql, len, (long long)ix_conn_changes(conn), buf, sizeof buf);
        if (m) ixsql_message("%s", m);
        return IXSQL_OK;
    }
    rc = ix_step(s);
    if (rc != IX_DONE) {
        rc = failed(conn, sql, len, at); /* before ix_finalize clears the error */
        ix_finalize(s);
        return rc;
    }
    const char *m = ixsql_confirmation(type, sql, len, (long long)ix_changes(s), buf, sizeof buf);
    ix_finalize(s);
    if (m) ixsql_message("%s", m);
    return IXSQL_OK;
}
