/*
 * ixsql_ts.c: the client-side statement
 *
 *   LOAD SERIES FROM 'file' INTO table(column) [DELIMITER 'c']
 *
 * reads a client file of Informix TimeSeries loader lines
 * (key|timestamp|v1|v2|...|, one element per line, blank lines skipped)
 * and writes them through libixdb's series writer (ix_ts_writer), then
 * prints "N elements loaded." as dbaccess prints row counts. Outside a
 * transaction the load is one transaction of its own (all or nothing). An
 * error names the file line: the line of the element the server blamed
 * (the writer tells which key and which of its elements), else the line
 * being read.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ixsql.h"

enum { NAME_MAX_LEN = 256 };

typedef struct load_stmt {
    char *file;
    char table[NAME_MAX_LEN], column[NAME_MAX_LEN];
    char delim;
} load_stmt;

typedef ixsql_lexer lexer;

static void skip(lexer *lx) {
    lx->p = ixsql_skip_trivia(lx->p, lx->end);
}

static int punct(lexer *lx, char ch) {
    skip(lx);
    if (lx->p < lx->end && *lx->p == ch) {
        lx->p++;
        return 1;
    }
    return 0;
}

/* A name: letters, digits, '_', '$', '.' (owner.table, database:table). */
static int name(lexer *lx, char *out) {
    skip(lx);
    size_t n = 0;
    while (lx->p < lx->end && (isalnum((unsigned char)*lx->p) || strchr("_$.:", *lx->p)) &&
           n + 1 < NAME_MAX_LEN)
        out[n++] = *lx->p++;
    out[n] = 0;
    return n > 0 && !isdigit((unsigned char)out[0]);
}

int ixsql_is_load_series(const char *sql, size_t len) {
    lexer lx = {sql, sql + len, sql};
    return ixsql_lex_keyword(&lx, "LOAD") && ixsql_lex_keyword(&lx, "SERIES");
}

/* Parses the statement; on a syntax error returns -1 with *err_at the
 * offset of the first byte not understood. */
static int parse(const char *sql, size_t len, load_stmt *st, size_t *err_at) {
    lexer lx = {sql, sql + len, sql};
    memset(st, 0, sizeof *st);
    st->delim = '|';
    char *d = NULL;
    if (!ixsql_lex_keyword(&lx, "LOAD") || !ixsql_lex_keyword(&lx, "SERIES") ||
        !ixsql_lex_keyword(&lx, "FROM"))
        goto bad;
    if (!(st->file = ixsql_lex_string(&lx))) goto bad;
    if (!ixsql_lex_keyword(&lx, "INTO") || !name(&lx, st->table) || !punct(&lx, '(') ||
        !name(&lx, st->column) || !punct(&lx, ')'))
        goto bad;
    if (ixsql_lex_keyword(&lx, "DELIMITER")) {
        if (!(d = ixsql_lex_string(&lx)) || strlen(d) != 1 || d[0] == '\n' || d[0] == '\\')
            goto bad;
        st->delim = d[0];
        free(d);
        d = NULL;
    }
    skip(&lx);
    if (lx.p != lx.end) goto bad;
    return 0;
bad:
    skip(&lx);
    *err_at = (size_t)(lx.p - sql);
    free(d);
    free(st->file);
    st->file = NULL;
    return -1;
}

/* The file line (1-based) of key's element number `element` (0-based, in
 * file order), found by reading the file again; 0 if not found. */
static long line_of_element(const load_stmt *st, const char *key, int64_t element) {
    FILE *f = fopen(st->file, "r");
    if (!f) return 0;
    char *line = NULL;
    size_t cap = 0, klen = strlen(key);
    long no = 0, found = 0;
    int64_t seen = 0;
    while (!found && getline(&line, &cap, f) >= 0) {
        no++;
        if (strncmp(line, key, klen) == 0 && line[klen] == st->delim && seen++ == element)
            found = no;
    }
    free(line);
    fclose(f);
    return found;
}

/* Splits one file line into key and element text (delimiters made '|'),
 * in place. Returns 1 (ok), 0 (blank line), -1 (not a loader line). */
static int split_line(char *line, char delim, char **key, char **elem) {
    size_t n = strlen(line);
    while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = 0;
    size_t k = 0;
    while (k < n && isspace((unsigned char)line[k]))
        k++;
    if (k == n) return 0;
    char *sep = strchr(line, delim);
    if (!sep || sep == line) return -1;
    *sep = 0;
    *key = line;
    *elem = sep + 1;
    if (delim != '|') {
        for (char *p = *elem; *p; p++) {
            if (*p == '|') return -1;
            if (*p == delim) *p = '|';
        }
    }
    return **elem ? 1 : -1;
}

static void print_load_error(ix_conn *conn, long lineno) {
    ixsql_print_error(conn, NULL, 0, (ixsql_pos){0, 0});
    fprintf(stderr, "Error in load file line %ld.\n", lineno);
}

/* Reads the file into the writer. Returns IXSQL_OK or the failure (printed). */
static int load_file(ix_conn *conn, const load_stmt *st, FILE *f, ix_ts_writer *w) {
    char *line = NULL;
    size_t cap = 0;
    long no = 0;
    int rc = IX_OK;
    while (getline(&line, &cap, f) >= 0) {
        no++;
        char *key, *elem;
        int s = split_line(line, st->delim, &key, &elem);
        if (s == 0) continue;
        if (s < 0) {
            free(line);
            fflush(stdout);
            fprintf(stderr, "\nixsql: not a series loader line (key%ctimestamp%cvalues...)\n",
                    st->delim, st->delim);
            fprintf(stderr, "Error in load file line %ld.\n", no);
            return IXSQL_FAILED;
        }
        if ((rc = ix_ts_writer_add(w, key, elem, -1)) != IX_OK) break;
    }
    free(line);
    if (rc == IX_OK) rc = ix_ts_writer_flush(w);
    if (rc == IX_OK) return IXSQL_OK;
    const char *key;
    int64_t element;
    long at = no;
    if (ix_ts_writer_failure(w, &key, &element) && element >= 0) {
        long l = line_of_element(st, key, element);
        if (l > 0) at = l;
    }
    print_load_error(conn, at);
    return ix_conn_is_dead(conn) ? IXSQL_FATAL : IXSQL_FAILED;
}

int ixsql_load_series(ix_conn *conn, const char *sql, size_t len, ixsql_pos at) {
    load_stmt st;
    size_t err_at;
    if (parse(sql, len, &st, &err_at) != 0) {
        ixsql_syntax_error(sql, err_at, at);
        return IXSQL_FAILED;
    }
    FILE *f = fopen(st.file, "r");
    if (!f) {
        int e = errno;
        fflush(stdout);
        fprintf(stderr, "\nixsql: cannot open %s: %s\n", st.file, strerror(e));
        free(st.file);
        return IXSQL_FAILED;
    }
    /* Outside a transaction the load is one (when the database has logs). */
    int own_txn = ix_autocommit(conn) == 1 && ix_begin(conn) == IX_OK;
    ix_ts_writer *w = NULL;
    int rc = ix_ts_writer_open(conn, st.table, st.column, NULL, &w);
    if (rc != IX_OK) {
        ixsql_print_error(conn, NULL, 0, (ixsql_pos){0, 0});
        rc = ix_conn_is_dead(conn) ? IXSQL_FATAL : IXSQL_FAILED;
    } else {
        rc = load_file(conn, &st, f, w);
    }
    long long written = (long long)ix_ts_writer_written(w);
    if (w) ix_ts_writer_close(w); /* after a failure it sends nothing */
    fclose(f);
    free(st.file);
    if (own_txn && !ix_conn_is_dead(conn)) {
        if (rc == IXSQL_OK && ix_commit(conn) != IX_OK) {
            ixsql_print_error(conn, NULL, 0, (ixsql_pos){0, 0});
            return IXSQL_FAILED;
        }
        if (rc != IXSQL_OK) ix_rollback(conn);
    }
    if (rc == IXSQL_OK) ixsql_message("%lld element%s loaded.", written, written == 1 ? "" : "s");
    return rc;
}
