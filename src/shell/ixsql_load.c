/*
 * ixsql_load.c: the client-side statements
 *
 *   LOAD FROM 'file' [DELIMITER 'c'] INSERT INTO table [(columns)]
 *   UNLOAD TO 'file' [DELIMITER 'c'] SELECT ...
 *
 * in the UNL format (ixsql_unl.c). UNLOAD streams the rows of its SELECT
 * to the file as they are fetched. LOAD reads the file in batches of
 * records and inserts each batch with one pipelined ix_batch_execute; on a
 * terminal it shows a progress line (rows, rows/s). Outside a transaction
 * the load is one transaction of its own (all or nothing).
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "ixsql.h"
#include "ixsql_lob.h"
#include "ixsql_unl.h"

/* Informix's own codes for LOAD errors (dbaccess's message file). */
enum {
    SQLCODE_LOAD_COUNT = -846, /* Number of values in load file is not equal to ... */
    SQLCODE_LOAD_LINE = -847,  /* Error in load file line N. */
    SQLCODE_NUMERIC = -1213,   /* A character to numeric conversion process failed. */
    SQLCODE_INT_RANGE = -1215, /* Value exceeds limit of INTEGER precision. */
    SQLCODE_DATE = -1218,      /* String to date conversion error. */
};
enum { BATCH_ROWS = 1000, BATCH_BYTES = 4 << 20, TEXT_BIND_MAX = 32767 };

typedef ixsql_lexer lexer;

typedef struct unl_stmt {
    char *file;
    char delim;
    const char *rest; /* the SELECT, or the INSERT INTO ... text */
} unl_stmt;

/* "LOAD FROM" / "UNLOAD TO" 'file' [DELIMITER 'c'], then rest. */
static int parse_head(const char *sql, size_t len, const char *kw1, const char *kw2, unl_stmt *st,
                      size_t *err_at) {
    lexer lx = {sql, sql + len, sql};
    char *d = NULL;
    st->delim = ixsql_unl_default_delim();
    st->file = NULL;
    if (!ixsql_lex_keyword(&lx, kw1) || !ixsql_lex_keyword(&lx, kw2) ||
        !(st->file = ixsql_lex_string(&lx)))
        goto bad;
    if (ixsql_lex_keyword(&lx, "DELIMITER")) {
        const char *at_delim = ixsql_skip_trivia(lx.p, lx.end);
        if (!(d = ixsql_lex_string(&lx)) || strlen(d) != 1 ||
            !ixsql_unl_valid_delim((unsigned char)d[0])) {
            lx.p = at_delim;
            goto bad;
        }
        st->delim = d[0];
        free(d);
    }
    st->rest = ixsql_skip_trivia(lx.p, lx.end);
    return 0;
bad:
    *err_at = (size_t)(ixsql_skip_trivia(lx.p, lx.end) - sql);
    free(d);
    free(st->file);
    st->file = NULL;
    return -1;
}

int ixsql_is_load(const char *sql, size_t len) {
    lexer lx = {sql, sql + len, sql};
    return ixsql_lex_keyword(&lx, "LOAD") && ixsql_lex_keyword(&lx, "FROM");
}

int ixsql_is_unload(const char *sql, size_t len) {
    lexer lx = {sql, sql + len, sql};
    return ixsql_lex_keyword(&lx, "UNLOAD") && ixsql_lex_keyword(&lx, "TO");
}

static int conn_failed(ix_conn *conn) {
    ixsql_print_error(conn, NULL, 0, (ixsql_pos){0, 0});
    return ix_conn_is_dead(conn) ? IXSQL_FATAL : IXSQL_FAILED;
}

static int oom(void) {
    fflush(stdout);
    fprintf(stderr, "\nixsql: out of memory\n");
    return IXSQL_FATAL;
}

/* ---- UNLOAD ---------------------------------------------------------------- */

/* The shortest text of a double that reads back to the same value. */
static void put_double(char *out, size_t cap, double v, int is_float) {
    for (int prec = is_float ? 6 : 15; prec <= 17; prec++) {
        snprintf(out, cap, "%.*g", prec, v);
        if (is_float ? (float)strtod(out, NULL) == (float)v : strtod(out, NULL) == v) return;
    }
}

/* MONEY without its currency symbol (wherever DBMONEY puts it). */
static int put_money(ixsql_buf *b, const char *t, size_t n, char delim, int hex) {
    char num[64];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 1 < sizeof num; i++)
        if (isdigit((unsigned char)t[i]) || t[i] == '-' || t[i] == '.') num[k++] = t[i];
    return ixsql_unl_put_text(b, num, k, delim, hex);
}

/* Appends column i of the current row in UNL form (a smart LOB: its
 * value to its column's file in lobs, the reference to b). -1 out of
 * memory, -2 the connection failed, -3 a file error (printed). */
static int put_value(ix_stmt *s, int i, ixsql_buf *b, char delim, int hex, ixsql_lob_unl *lobs) {
    if (ix_column_is_null(s, i)) return ixsql_unl_put_null(b, delim);
    int type = ix_column_type(s, i);
    if (ixsql_lob_column(s, i) && ix_column_lob_type(s, i))
        return ixsql_lob_put(lobs, s, i, b, delim, hex);
    size_t n;
    if (type == IX_T_BYTE) {
        const void *p = ix_column_blob(s, i, &n);
        return p ? ixsql_unl_put_hex(b, p, n, delim) : -2;
    }
    if (type == IX_T_FLOAT || type == IX_T_SMALLFLOAT) {
        char num[64];
        put_double(num, sizeof num, ix_column_double(s, i), type == IX_T_SMALLFLOAT);
        return ixsql_unl_put_text(b, num, strlen(num), delim, hex);
    }
    const char *t = ix_column_text(s, i);
    if (!t) return -2;
    n = ix_column_text_len(s, i);
    int is_text = type == IX_T_CHAR || type == IX_T_NCHAR || type == IX_T_VARCHAR ||
                  type == IX_T_NVARCHAR || type == IX_T_LVARCHAR || type == IX_T_TEXT;
    if (type == IX_T_CHAR || type == IX_T_NCHAR) {
        while (n > 0 && t[n - 1] == ' ') /* CHAR loses its trailing blanks */
            n--;
    } else if (!is_text) {
        while (n > 0 && t[0] == ' ') /* numbers and intervals: no leading blanks */
            t++, n--;
        if (type == IX_T_MONEY) return put_money(b, t, n, delim, hex);
    }
    return ixsql_unl_put_text(b, t, n, delim, hex);
}

static int unload_rows(ix_conn *conn, ix_stmt *s, FILE *f, char delim, ixsql_lob_unl *lobs,
                       long long *rows) {
    ixsql_buf b = {0};
    int hex = ixsql_unl_hex(), rc, ncols = ix_column_count(s);
    while ((rc = ix_step(s)) == IX_ROW) {
        b.len = 0;
        for (int i = 0; i < ncols; i++) {
            int r = put_value(s, i, &b, delim, hex, lobs);
            if (r == -3) {
                ixsql_buf_free(&b);
                return IXSQL_FAILED;
            }
            if (r == -1) {
                ixsql_buf_free(&b);
                return oom();
            }
            if (r == -2) {
                ixsql_buf_free(&b);
                return conn_failed(conn);
            }
        }
        if (ixsql_buf_add(&b, "\n", 1) != 0) {
            ixsql_buf_free(&b);
            return oom();
        }
        if (fwrite(b.p, 1, b.len, f) != b.len) {
            ixsql_buf_free(&b);
            fflush(stdout);
            fprintf(stderr, "\nixsql: write error\n");
            return IXSQL_FAILED;
        }
        (*rows)++;
    }
    ixsql_buf_free(&b);
    return rc == IX_DONE ? IXSQL_OK : conn_failed(conn);
}

int ixsql_unload(ix_conn *conn, const char *sql, size_t len, ixsql_pos at) {
    unl_stmt st;
    size_t err_at;
    if (parse_head(sql, len, "UNLOAD", "TO", &st, &err_at) != 0) {
        ixsql_syntax_error(sql, err_at, at);
        return IXSQL_FAILED;
    }
    ix_stmt *s = NULL;
    size_t off = (size_t)(st.rest - sql);
    if (ix_prepare(conn, st.rest, (int)(len - off), &s) != IX_OK) {
        free(st.file);
        ixsql_print_error(conn, st.rest, len - off, ixsql_pos_at(sql, off, at));
        return ix_conn_is_dead(conn) ? IXSQL_FATAL : IXSQL_FAILED;
    }
    if (ix_column_count(s) == 0) {
        ix_finalize(s);
        free(st.file);
        ixsql_syntax_error(sql, off, at); /* UNLOAD takes a SELECT */
        return IXSQL_FAILED;
    }
    FILE *f = fopen(st.file, "w");
    if (!f) {
        int e = errno;
        fflush(stdout);
        fprintf(stderr, "\nixsql: cannot open %s: %s\n", st.file, strerror(e));
        ix_finalize(s);
        free(st.file);
        return IXSQL_FAILED;
    }
    long long rows = 0;
    ixsql_lob_unl *lobs = ixsql_lob_unl_new(st.file, ix_column_count(s));
    int rc = lobs ? unload_rows(conn, s, f, st.delim, lobs, &rows) : oom();
    if (ixsql_lob_unl_close(lobs) != 0 && rc == IXSQL_OK) rc = IXSQL_FAILED;
    ix_finalize(s);
    if (fclose(f) != 0 && rc == IXSQL_OK) {
        fflush(stdout);
        fprintf(stderr, "\nixsql: write error on %s\n", st.file);
        rc = IXSQL_FAILED;
    }
    free(st.file);
    if (rc == IXSQL_OK) ixsql_message("%lld row(s) unloaded.", rows);
    return rc;
}

/* ---- LOAD ------------------------------------------------------------------ */

/* A DATE in $DBDATE form (default MDY4/): the order of M, D and Y2/Y4 and
 * the separator ('0': none, fixed widths). Returns 0 or -1. */
static int parse_date(const char *s, int *y, int *m, int *d) {
    const char *fmt = getenv("DBDATE");
    if (!fmt || !*fmt) fmt = "MDY4/";
    int val[3] = {0, 0, 0}, k = 0, ylen = 4;
    char order[3];
    for (const char *f = fmt; *f && k < 3; f++) {
        char c = (char)toupper((unsigned char)*f);
        if (c == 'Y') {
            ylen = f[1] == '2' ? 2 : 4;
            order[k++] = 'Y';
        } else if (c == 'M' || c == 'D') {
            order[k++] = c;
        }
    }
    if (k != 3) return -1;
    int nosep = fmt[strlen(fmt) - 1] == '0';
    const char *p = s;
    for (int i = 0; i < 3; i++) {
        int width = order[i] == 'Y' ? ylen : 2, n = 0;
        if (i > 0 && !nosep) {
            if (!*p || isdigit((unsigned char)*p)) return -1;
            p++;
        }
        while (isdigit((unsigned char)*p) && (!nosep || n < width))
            val[i] = val[i] * 10 + (*p++ - '0'), n++;
        if (n == 0 || n > 4) return -1;
        if (order[i] == 'Y') *y = n <= 2 ? val[i] + (val[i] < 50 ? 2000 : 1900) : val[i];
        if (order[i] == 'M') *m = val[i];
        if (order[i] == 'D') *d = val[i];
    }
    return *p ? -1 : 0;
}

typedef struct load_job {
    ix_conn *conn;
    int ncols;
    int *types, *enclens;
    int *lobkind;     /* IX_T_BLOB / IX_T_CLOB for a smart-LOB column, else 0 */
    ix_locator *locs; /* the batch's new LOs: row * ncols + column */
    ixsql_unl_rec *recs;
    ixsql_buf val;
    int hex;
    /* a value the shell could not convert */
    int bad_code;
    int64_t bad_row;
    int bad_col;
} load_job;

/* An integer field as parameter p: -1213 for text that is not an integer,
 * -1215 for one past INT8's range (strtoll would give its limit instead);
 * the server checks the column's own range. */
static int bind_int_field(ix_stmt *s, int p, const char *v) {
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (end == v || *end) return SQLCODE_NUMERIC;
    if (errno == ERANGE || x == LLONG_MIN) return SQLCODE_INT_RANGE;
    return ix_bind_int64(s, p, x);
}

/* Binds field k of rec as parameter k + 1. Returns IX_OK, an IX_E* code,
 * or an SQLCODE (< -200) for a value that does not convert. */
static int bind_field(load_job *j, ix_stmt *s, int64_t row, int k) {
    const ixsql_unl_rec *rec = &j->recs[row];
    int type = j->types[k], p = k + 1;
    if (j->lobkind[k])
        return ix_bind_locator(s, p, j->lobkind[k],
                               ixsql_unl_is_null(rec, k) ? NULL : &j->locs[row * j->ncols + k]);
    if (ixsql_unl_is_null(rec, k)) return ix_bind_null(s, p);
    j->val.len = 0;
    if (type == IX_T_BYTE) {
        int r = ixsql_unl_unhex(rec, k, &j->val);
        if (r == -2) return SQLCODE_NUMERIC;
        if (r != 0) return IX_ENOMEM;
        return ix_bind_blob(s, p, j->val.p, (int)j->val.len, IX_TRANSIENT);
    }
    if (ixsql_unl_decode(rec, k, j->hex, &j->val) != 0) return IX_ENOMEM;
    const char *v = j->val.p;
    char *end;
    int n = (int)j->val.len;
    switch (type) {
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_INT8:
    case IX_T_SERIAL8:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: return bind_int_field(s, p, v);
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT: {
        double x = strtod(v, &end);
        if (end == v || *end) return SQLCODE_NUMERIC;
        return ix_bind_double(s, p, x);
    }
    case IX_T_DECIMAL:
    case IX_T_MONEY: return ix_bind_decimal_text(s, p, v, n);
    case IX_T_DATE: {
        int y = 0, m = 0, d = 0;
        if (parse_date(v, &y, &m, &d) != 0) return SQLCODE_DATE;
        return ix_bind_date_ymd(s, p, y, m, d);
    }
    case IX_T_DATETIME: return ix_bind_datetime_text(s, p, v, n, (unsigned)j->enclens[k]);
    case IX_T_INTERVAL: return ix_bind_interval_text(s, p, v, n, (unsigned)j->enclens[k]);
    case IX_T_BOOLEAN:
        if (n == 1 && strchr("tT1", v[0])) return ix_bind_bool(s, p, 1);
        if (n == 1 && strchr("fF0", v[0])) return ix_bind_bool(s, p, 0);
        return SQLCODE_NUMERIC;
    default:
        if (n > TEXT_BIND_MAX) return ix_bind_blob(s, p, v, n, IX_TRANSIENT);
        return ix_bind_text(s, p, v, n, IX_TRANSIENT);
    }
}

static int bind_row(ix_stmt *s, int64_t row, void *ud) {
    load_job *j = ud;
    for (int k = 0; k < j->ncols; k++) {
        int rc = bind_field(j, s, row, k);
        if (rc == IX_OK) continue;
        j->bad_code = rc;
        j->bad_row = row;
        j->bad_col = k;
        return -1;
    }
    return 0;
}

/* The failing record: its file line, the error, and its text. */
static void print_bad_line(const ixsql_unl_rec *r, long long rowno) {
    fprintf(stderr, "%5d: Error in load file line %ld.\n", -SQLCODE_LOAD_LINE, r->line);
    fprintf(stderr, "Row %lld: %.*s\n", rowno, (int)r->raw.len, r->raw.p);
}

/* dbaccess's text for SQLCODE_LOAD_COUNT (not a server message). */
static const char LOAD_COUNT_TEXT[] =
    "Number of values in load file is not equal to number of columns.";

static void print_sqlcode(int code) {
    const char *t = code == SQLCODE_LOAD_COUNT ? LOAD_COUNT_TEXT : ix_errtext(code);
    fflush(stdout);
    fprintf(stderr, "\n%5d: %s\n", -code, t ? t : "");
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Where the load stands, for the progress line and the error report. */
typedef struct load_run {
    FILE *f;
    char delim;
    long lineno;
    long long done; /* rows inserted */
    double t0;
    int tty;
} load_run;

/* Reads up to BATCH_ROWS records into j->recs. *bad: a record with the
 * wrong field count was read (it is recs[n], not counted). Returns n, or
 * -1 (out of memory / read error). */
static int64_t read_batch(load_job *j, load_run *lr, int *bad) {
    int64_t n = 0;
    size_t bytes = 0;
    *bad = 0;
    while (n < BATCH_ROWS && bytes < BATCH_BYTES) {
        int r = ixsql_unl_read(lr->f, &j->recs[n], &lr->lineno, lr->delim);
        if (r < 0) return -1;
        if (r == 0) break;
        if (j->recs[n].nfields != j->ncols) {
            *bad = 1;
            break;
        }
        bytes += j->recs[n].raw.len;
        n++;
    }
    return n;
}

/* Runs one batch of n rows; prints a failure. */
static int run_batch(load_job *j, load_run *lr, ix_stmt *ins, int64_t n, int *codes) {
    int64_t nfailed = 0;
    j->bad_code = 0;
    int rc = ix_batch_execute(ins, n, bind_row, j, codes, &nfailed);
    if (rc == IX_OK) {
        lr->done += n;
        return IXSQL_OK;
    }
    if (lr->tty) fputs("\r\033[K", stderr);
    if (j->bad_code != 0) { /* a value the shell did not convert */
        if (j->bad_code < -200)
            print_sqlcode(j->bad_code);
        else
            ixsql_print_error(j->conn, NULL, 0, (ixsql_pos){0, 0});
        fprintf(stderr, "Column %d.\n", j->bad_col + 1);
        print_bad_line(&j->recs[j->bad_row], lr->done + j->bad_row + 1);
        return IXSQL_FAILED;
    }
    ixsql_print_error(j->conn, NULL, 0, (ixsql_pos){0, 0});
    int64_t replied = ix_batch_replied(ins), r = 0;
    while (rc == IX_ESQL && r < replied && codes[r] == 0)
        r++;
    if (r < n) print_bad_line(&j->recs[r], lr->done + r + 1);
    return ix_conn_is_dead(j->conn) ? IXSQL_FATAL : IXSQL_FAILED;
}

/* The LOs the batch's LOB fields name, made before the batch runs (the
 * batch's binds only take their handles). */
static int make_lobs(load_job *j, load_run *lr, int64_t n) {
    for (int64_t r = 0; r < n; r++)
        for (int k = 0; k < j->ncols; k++) {
            if (!j->lobkind[k] || ixsql_unl_is_null(&j->recs[r], k)) continue;
            j->val.len = 0;
            if (ixsql_unl_decode(&j->recs[r], k, j->hex, &j->val) != 0) return oom();
            int rc = ixsql_lob_load(j->conn, j->lobkind[k], j->val.p, j->val.len,
                                    &j->locs[r * j->ncols + k]);
            if (rc == 0) continue;
            if (rc == -1) return oom();
            if (lr->tty) fputs("\r\033[K", stderr);
            if (rc == -2) ixsql_print_error(j->conn, NULL, 0, (ixsql_pos){0, 0});
            fprintf(stderr, "Column %d.\n", k + 1);
            print_bad_line(&j->recs[r], lr->done + r + 1);
            return ix_conn_is_dead(j->conn) ? IXSQL_FATAL : IXSQL_FAILED;
        }
    return IXSQL_OK;
}

static void progress(const load_run *lr) {
    if (!lr->tty) return;
    double dt = now_s() - lr->t0;
    fprintf(stderr, "\r%lld rows, %.0f rows/s", lr->done, dt > 0 ? (double)lr->done / dt : 0.0);
    fflush(stderr);
}

static int load_loop(load_job *j, load_run *lr, ix_stmt *ins) {
    int *codes = calloc(BATCH_ROWS, sizeof *codes);
    if (!codes) return oom();
    int rc = IXSQL_OK, bad = 0;
    while (rc == IXSQL_OK && !bad) {
        int64_t n = read_batch(j, lr, &bad);
        if (n < 0) {
            rc = oom();
            break;
        }
        if (n > 0) rc = make_lobs(j, lr, n);
        if (n > 0 && rc == IXSQL_OK) rc = run_batch(j, lr, ins, n, codes);
        if (rc == IXSQL_OK && bad) {
            if (lr->tty) fputs("\r\033[K", stderr);
            print_sqlcode(SQLCODE_LOAD_COUNT);
            print_bad_line(&j->recs[n], lr->done + 1);
            rc = IXSQL_FAILED;
        }
        if (n == 0) break;
        progress(lr);
    }
    if (lr->tty && rc == IXSQL_OK) fputs("\r\033[K", stderr);
    free(codes);
    return rc;
}

/* "INSERT INTO table [(columns)]": the table and the column list's text
 * (without parentheses; "*" when there is none). Returns 0 or -1 with
 * *err_at. */
static int parse_insert(const char *sql, const char *rest, const char *end, ixsql_buf *table,
                        ixsql_buf *cols, size_t *err_at) {
    lexer lx = {rest, end, rest};
    if (!ixsql_lex_keyword(&lx, "INSERT") || !ixsql_lex_keyword(&lx, "INTO")) goto bad;
    lx.p = ixsql_skip_trivia(lx.p, lx.end);
    const char *t = lx.p;
    while (lx.p < lx.end && (isalnum((unsigned char)*lx.p) || strchr("_$.:@\"", *lx.p) ||
                             (unsigned char)*lx.p >= 0x80))
        lx.p++;
    if (lx.p == t || ixsql_buf_add(table, t, (size_t)(lx.p - t)) != 0) goto bad;
    lx.p = ixsql_skip_trivia(lx.p, lx.end);
    if (lx.p < lx.end && *lx.p == '(') {
        const char *c = ++lx.p;
        while (lx.p < lx.end && *lx.p != ')')
            lx.p++;
        if (lx.p == lx.end || ixsql_buf_add(cols, c, (size_t)(lx.p - c)) != 0) goto bad;
        lx.p = ixsql_skip_trivia(lx.p + 1, lx.end);
    } else if (ixsql_buf_add(cols, "*", 1) != 0) {
        goto bad;
    }
    if (lx.p != lx.end) goto bad;
    return 0;
bad:
    *err_at = (size_t)(ixsql_skip_trivia(lx.p, lx.end) - sql);
    return -1;
}

/* The target columns' types (a SELECT of them that fetches nothing) and
 * the INSERT with one ? per column. */
static int prepare_load(ix_conn *conn, load_job *j, const ixsql_buf *table, const ixsql_buf *cols,
                        const char *rest, size_t rest_len, ix_stmt **ins) {
    ixsql_buf q = {0};
    ix_stmt *d = NULL;
    int rc = -1;
    if (ixsql_buf_add(&q, "SELECT ", 7) || ixsql_buf_add(&q, cols->p, cols->len) ||
        ixsql_buf_add(&q, " FROM ", 6) || ixsql_buf_add(&q, table->p, table->len) ||
        ixsql_buf_add(&q, " WHERE 1=0", 10))
        goto done;
    rc = -2;
    if (ix_prepare(conn, q.p, (int)q.len, &d) != IX_OK || (j->ncols = ix_column_count(d)) <= 0)
        goto done;
    rc = -1;
    j->types = calloc((size_t)j->ncols, sizeof *j->types);
    j->enclens = calloc((size_t)j->ncols, sizeof *j->enclens);
    j->lobkind = calloc((size_t)j->ncols, sizeof *j->lobkind);
    if (!j->types || !j->enclens || !j->lobkind) goto done;
    for (int k = 0; k < j->ncols; k++) {
        j->types[k] = ix_column_type(d, k);
        j->enclens[k] = ix_column_enclen(d, k);
        if (!ixsql_lob_column(d, k)) continue;
        j->lobkind[k] = ixsql_lob_kind(conn, table->p, table->len, ix_column_name(d, k));
        if (!j->locs &&
            !(j->locs = calloc((size_t)(BATCH_ROWS + 1) * (size_t)j->ncols, sizeof *j->locs)))
            goto done;
    }
    q.len = 0;
    if (ixsql_buf_add(&q, rest, rest_len) || ixsql_buf_add(&q, " VALUES (?", 10)) goto done;
    for (int k = 1; k < j->ncols; k++)
        if (ixsql_buf_add(&q, ", ?", 3)) goto done;
    if (ixsql_buf_add(&q, ")", 1)) goto done;
    rc = -2;
    if (ix_prepare(conn, q.p, (int)q.len, ins) != IX_OK) goto done;
    rc = 0;
done:
    ix_finalize(d);
    ixsql_buf_free(&q);
    return rc;
}

static int load_file(ix_conn *conn, load_job *j, load_run *lr, ix_stmt *ins) {
    j->recs = calloc(BATCH_ROWS + 1, sizeof *j->recs);
    if (!j->recs) return oom();
    int own_txn = ix_autocommit(conn) == 1 && ix_begin(conn) == IX_OK;
    lr->t0 = now_s();
    int rc = load_loop(j, lr, ins);
    for (int i = 0; i <= BATCH_ROWS; i++)
        ixsql_unl_rec_free(&j->recs[i]);
    free(j->recs);
    if (own_txn && !ix_conn_is_dead(conn)) {
        if (rc == IXSQL_OK && ix_commit(conn) != IX_OK) return conn_failed(conn);
        if (rc != IXSQL_OK) ix_rollback(conn);
    }
    return rc;
}

int ixsql_load(ix_conn *conn, const char *sql, size_t len, ixsql_pos at) {
    unl_stmt st;
    size_t err_at;
    ixsql_buf table = {0}, cols = {0};
    if (parse_head(sql, len, "LOAD", "FROM", &st, &err_at) != 0 ||
        (parse_insert(sql, st.rest, sql + len, &table, &cols, &err_at) != 0 &&
         (free(st.file), 1))) {
        ixsql_buf_free(&table);
        ixsql_buf_free(&cols);
        ixsql_syntax_error(sql, err_at, at);
        return IXSQL_FAILED;
    }
    load_job j = {.conn = conn, .hex = ixsql_unl_hex()};
    load_run lr = {.delim = st.delim, .tty = isatty(2)};
    ix_stmt *ins = NULL;
    int rc;
    if (!(lr.f = fopen(st.file, "r"))) {
        int e = errno;
        fflush(stdout);
        fprintf(stderr, "\nixsql: cannot open %s: %s\n", st.file, strerror(e));
        rc = IXSQL_FAILED;
    } else {
        int p = prepare_load(conn, &j, &table, &cols, st.rest, len - (size_t)(st.rest - sql), &ins);
        if (p == -1)
            rc = oom();
        else if (p == -2)
            rc = conn_failed(conn);
        else
            rc = load_file(conn, &j, &lr, ins);
        fclose(lr.f);
    }
    ix_finalize(ins);
    free(j.types);
    free(j.enclens);
    free(j.lobkind);
    free(j.locs);
    ixsql_buf_free(&j.val);
    ixsql_buf_free(&table);
    ixsql_buf_free(&cols);
    free(st.file);
    if (rc == IXSQL_OK) ixsql_message("%lld row(s) loaded.", lr.done);
    return rc;
}
