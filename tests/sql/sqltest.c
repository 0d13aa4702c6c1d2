/* sqltest.c: runs SQL test files (tests/sql/NAME.test) through ixd's engine, in
 * the style of sqllogictest. Each file runs on a fresh data directory.
 *
 * A file is records separated by blank lines; '#' starts a comment line.
 *
 *   statement ok            the statement succeeds
 *   <sql, one or more lines>
 *
 *   statement error -268    the statement fails with this SQLCODE
 *   <sql>
 *
 *   Either header may go on with what else the statement must give:
 *     statement ok 3                 3 rows processed (a bare number)
 *     statement ok serial 101        the SERIAL value the insert gave
 *     statement ok serial8 5         the SERIAL8/BIGSERIAL value it gave
 *     statement error -239 isam -100 the ISAM code of the error
 *     statement error -201 offset 16 the error's position in the text
 *     statement error -391 text n    the error's insertion text (the rest
 *                                    of the line, may hold blanks)
 *     statement ok params 7|ab|NULL  prepared with `?` parameters bound to
 *                                    these values (VARCHAR text, NULL for
 *                                    NULL; the rest of the line), then run
 *
 *   query                   the rows, one a line, values joined by '|'
 *   <sql>                   (NULL as NULL, values as the engine formats
 *   ----                    them for dbaccess-style output)
 *   <expected rows>
 *
 *   stmttype 30             the statement prepares with this statement
 *   <sql>                   type (ixd_stmt_type) and then runs without error
 *
 *   env DBMONEY DM,         the client's environment variable as the
 *                           session passes it (ixd_set_env; no SQL, the
 *                           value is the rest of the line, may be empty)
 *
 *   describe 1              result column 1 (0-based) as described:
 *   <sql>                   its name, type and encoded length (hex)
 *   ----
 *   (sum) 0x5 0x2002
 *
 * Statements that CREATE, DROP or open a DATABASE run as a session does.
 * Prints "file:line: ..." for every record that fails (a record with a
 * header it cannot read too) and goes on to the next; exit 1 if any did. */
#include "test_engine_util.h"

#define MAX_SQL (1 << 20)

/* What a statement record checks besides its SQLCODE (bits of `has`). */
enum {
    EXP_ROWS = 1,
    EXP_SERIAL = 2,
    EXP_SERIAL8 = 4,
    EXP_ISAM = 8,
    EXP_OFFSET = 16,
    EXP_TEXT = 32,
    EXP_PARAMS = 64,
};

typedef struct expect {
    int has;
    int64_t rows, serial, serial8;
    int isam, offset;
    char text[256];
    char params[256];
} expect;

typedef struct record {
    int kind; /* 0 ok, 1 error, 2 query, 3 describe (code: the column), 4 stmttype, 5 env */
    int code;
    int line;
    expect x;
    char *sql;
    size_t sqln;
    char *want;
    size_t wantn;
} record;

static char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    char *b = malloc(MAX_SQL + 1);
    *n = b ? fread(b, 1, MAX_SQL, f) : 0;
    fclose(f);
    if (b) b[*n] = 0;
    return b;
}

/* The next line of text at *p (its end cut at '\n'); NULL at the end. */
static char *next_line(char **p) {
    if (!**p) return NULL;
    char *l = *p, *e = strchr(l, '\n');
    if (e) {
        *e = 0;
        *p = e + 1;
    } else
        *p = l + strlen(l);
    return l;
}

static void append(char **buf, size_t *n, const char *line) {
    size_t l = strlen(line);
    *buf = realloc(*buf, *n + l + 2);
    if (*n) (*buf)[(*n)++] = '\n';
    memcpy(*buf + *n, line, l + 1);
    *n += l;
}

/* "name 0xTYPE 0xENCLEN" of result column i of sql into out. */
static void describe(const char *sql, int i, char *out, size_t n) {
    ixd_stmt *s;
    if (ixd_prepare(D, sql, strlen(sql), &s, &ERR)) {
        snprintf(out, n, "ERR %d", ERR.sqlcode);
        return;
    }
    ixd_col c;
    memset(&c, 0, sizeof c);
    if (i >= ixd_stmt_ncols(s))
        snprintf(out, n, "no column %d", i);
    else {
        ixd_stmt_col(s, i, &c);
        snprintf(out, n, "%s 0x%x 0x%x", c.name ? c.name : "?", (unsigned)c.type,
                 (unsigned)c.enclen);
    }
    ixd_stmt_free(s);
}

/* The rest of a statement header after its SQLCODE: a bare row count, or
 * "serial N", "serial8 N", "isam N", "offset N", "text REST-OF-LINE".
 * Returns 0, or -1 for a word it does not know. */
static int parse_expect(const char *p, expect *x) {
    for (;;) {
        while (*p == ' ')
            p++;
        if (!*p) return 0;
        char *end;
        if ((*p >= '0' && *p <= '9') || *p == '-') {
            x->rows = strtoll(p, &end, 10);
            x->has |= EXP_ROWS;
        } else if (!strncmp(p, "serial ", 7)) {
            x->serial = strtoll(p + 7, &end, 10);
            x->has |= EXP_SERIAL;
        } else if (!strncmp(p, "serial8 ", 8)) {
            x->serial8 = strtoll(p + 8, &end, 10);
            x->has |= EXP_SERIAL8;
        } else if (!strncmp(p, "isam ", 5)) {
            x->isam = (int)strtol(p + 5, &end, 10);
            x->has |= EXP_ISAM;
        } else if (!strncmp(p, "offset ", 7)) {
            x->offset = (int)strtol(p + 7, &end, 10);
            x->has |= EXP_OFFSET;
        } else if (!strncmp(p, "text ", 5)) {
            snprintf(x->text, sizeof x->text, "%s", p + 5);
            x->has |= EXP_TEXT;
            return 0;
        } else if (!strncmp(p, "params ", 7)) {
            snprintf(x->params, sizeof x->params, "%s", p + 7);
            x->has |= EXP_PARAMS;
            return 0;
        } else
            return -1;
        if (end == p || (*end && *end != ' ')) return -1;
        p = end;
    }
}

/* The row count, serial values and error details the last run() gave
 * against what record r expects; 1 (and a message) if any differ. */
static int check_expect(const char *file, const record *r) {
    const expect *x = &r->x;
    char got[400] = "", want[400] = "";
    size_t g = 0, w = 0;
#define EXP_CMP(bit, fmt, have, exp)                                                               \
    if ((x->has & (bit)) && (have) != (exp)) {                                                     \
        g += (size_t)snprintf(got + g, sizeof got - g, fmt, (long long)(have));                    \
        w += (size_t)snprintf(want + w, sizeof want - w, fmt, (long long)(exp));                   \
    }
    EXP_CMP(EXP_ROWS, " rows %lld", ROWS, x->rows)
    EXP_CMP(EXP_SERIAL, " serial %lld", SERIAL, x->serial)
    EXP_CMP(EXP_SERIAL8, " serial8 %lld", SERIAL8, x->serial8)
    EXP_CMP(EXP_ISAM, " isam %lld", ERR.isamcode, x->isam)
    EXP_CMP(EXP_OFFSET, " offset %lld", ERR.offset, x->offset)
#undef EXP_CMP
    if ((x->has & EXP_TEXT) && strcmp(ERR.text, x->text)) {
        snprintf(got + g, sizeof got - g, " text '%s'", ERR.text);
        snprintf(want + w, sizeof want - w, " text '%s'", x->text);
    }
    if (!got[0]) return 0;
    printf("%s:%d: %s\n  got: %s\n  want:%s\n", file, r->line, r->sql, got, want);
    return 1;
}

/* Reads a record header line into r; -1 if it is not one. */
static int parse_header(const char *l, record *r) {
    char *end;
    if (!strncmp(l, "statement ok", 12) && (!l[12] || l[12] == ' ')) {
        r->kind = 0;
        return parse_expect(l + 12, &r->x);
    }
    if (!strncmp(l, "statement error ", 16)) {
        r->kind = 1;
        r->code = (int)strtol(l + 16, &end, 10);
        if (end == l + 16) return -1;
        return parse_expect(end, &r->x);
    }
    if (!strcmp(l, "query")) {
        r->kind = 2;
        return 0;
    }
    if (!strncmp(l, "stmttype ", 9)) {
        r->kind = 4;
        r->code = atoi(l + 9);
        return 0;
    }
    if (!strncmp(l, "env ", 4)) {
        r->kind = 5;
        const char *v = strchr(l + 4, ' ');
        size_t n = v ? (size_t)(v - (l + 4)) : strlen(l + 4);
        if (n == 0 || n >= sizeof r->x.text) return -1;
        memcpy(r->x.text, l + 4, n);
        snprintf(r->x.params, sizeof r->x.params, "%s", v ? v + 1 : "");
        return 0;
    }
    if (!strncmp(l, "describe ", 9)) {
        r->kind = 3;
        r->code = atoi(l + 9);
        return 0;
    }
    return -1;
}

/* A stmttype record: prepare sql, compare its statement type, execute it. */
static int run_stmttype(const char *file, const record *r) {
    ixd_stmt *s;
    memset(&ERR, 0, sizeof ERR);
    if (ixd_prepare(D, r->sql, strlen(r->sql), &s, &ERR)) {
        printf("%s:%d: %s: prepare gave %d\n", file, r->line, r->sql, ERR.sqlcode);
        return 1;
    }
    int t = ixd_stmt_type(s), rc = ixd_execute(s, &ROWS, &SERIAL, &SERIAL8, &ERR);
    ixd_stmt_free(s);
    if (t != r->code || rc) {
        printf("%s:%d: %s: type %d (want %d), execute %d\n", file, r->line, r->sql, t, r->code,
               rc ? ERR.sqlcode : 0);
        return 1;
    }
    return 0;
}

/* Prepares sql, binds its parameters to the '|'-separated values of vals
 * (as VARCHAR; NULL is NULL) and executes it: 0 or the SQLCODE. */
static int run_params(const char *sql, const char *vals) {
    ixd_stmt *s;
    memset(&ERR, 0, sizeof ERR);
    ROWS = SERIAL = SERIAL8 = 0;
    if (ixd_prepare(D, sql, strlen(sql), &s, &ERR)) return ERR.sqlcode;
    ixt_vtype t = {IX_T_VARCHAR, 255};
    int rc = 0;
    for (int i = 0; !rc && *vals; i++) {
        const char *e = strchr(vals, '|');
        size_t n = e ? (size_t)(e - vals) : strlen(vals);
        ixb_wbuf b;
        ixb_wbuf_init(&b, NULL);
        int null = n == 4 && !strncmp(vals, "NULL", 4);
        if (!null && ixt_value_parse(t, vals, n, NULL, &b) != IX_OK) rc = -9999;
        if (!rc && ixd_bind(s, i, t, null ? NULL : b.data, b.len, &ERR)) rc = ERR.sqlcode;
        ixb_wbuf_free(&b);
        vals += n + (e ? 1 : 0);
    }
    if (!rc && ixd_execute(s, &ROWS, &SERIAL, &SERIAL8, &ERR)) rc = ERR.sqlcode;
    ixd_stmt_free(s);
    return rc;
}

static int run_record(const char *file, const record *r) {
    if (r->kind == 4) return run_stmttype(file, r);
    if (r->kind == 3) {
        char got[300];
        describe(r->sql, r->code, got, sizeof got);
        if (strcmp(got, r->want ? r->want : "")) {
            printf("%s:%d: describe %d\n%s\n  got:  %s\n  want: %s\n", file, r->line, r->code,
                   r->sql, got, r->want ? r->want : "");
            return 1;
        }
        return 0;
    }
    if (r->kind == 2) {
        const char *got = q(r->sql);
        if (strcmp(got, r->want ? r->want : "")) {
            printf("%s:%d: query\n%s\n  got:\n%s\n  want:\n%s\n", file, r->line, r->sql, got,
                   r->want ? r->want : "");
            return 1;
        }
        return 0;
    }
    int rc = (r->x.has & EXP_PARAMS) ? run_params(r->sql, r->x.params) : run(r->sql);
    int want = r->kind == 0 ? 0 : r->code;
    if (rc != want) {
        printf("%s:%d: %s gave %d (%s) at offset %d, want %d\n", file, r->line, r->sql, rc,
               ERR.text, ERR.offset, want);
        return 1;
    }
    return check_expect(file, r);
}

static int run_file(const char *path) {
    size_t n;
    char *text = slurp(path, &n);
    if (!text) {
        printf("%s: cannot read\n", path);
        return 1;
    }
    eu_setup("sqltest");
    int failures = 0, records = 0, lineno = 0;
    char *p = text, *l;
    while ((l = next_line(&p)) != NULL) {
        lineno++;
        if (!*l || *l == '#') continue;
        record r = {0};
        r.line = lineno;
        int bad = parse_header(l, &r);
        if (bad) {
            printf("%s:%d: expected a record header, got '%s'\n", path, lineno, l);
            failures++;
        }
        int in_want = 0;
        while ((l = next_line(&p)) != NULL) {
            lineno++;
            if (!*l) break;
            if (r.kind >= 2 && !in_want && !strcmp(l, "----")) {
                in_want = 1;
                r.want = calloc(1, 1);
                continue;
            }
            if (in_want)
                append(&r.want, &r.wantn, l);
            else
                append(&r.sql, &r.sqln, l);
        }
        if (r.kind == 5 && !bad) {
            if (ixd_set_env(D, r.x.text, r.x.params) != 0) {
                printf("%s:%d: env %s %s refused\n", path, r.line, r.x.text, r.x.params);
                failures++;
            }
            records++;
        } else if (r.sql && !bad) {
            failures += run_record(path, &r);
            records++;
        }
        free(r.sql);
        free(r.want);
    }
    eu_teardown();
    D = NULL;
    E = NULL;
    free(text);
    printf("%s: %d records, %d failed\n", path, records, failures);
    return failures;
}

int main(int argc, char **argv) {
    int failures = 0;
    for (int i = 1; i < argc; i++)
        failures += run_file(argv[i]);
    return failures ? 1 : 0;
}
