/* fuzz_sql_shapes.c: libFuzzer target for deep and wide SQL statements. The
 * input drives a generator of statement shapes (nesting of parentheses,
 * subqueries, function calls, CASE in CASE; long chains of + - * / || OR
 * AND; long IN lists, many CASE arms, many columns, many UNION arms; long
 * identifiers and literals) whose size goes up to IX_SHAPES_MAX_TERMS terms.
 * The statement is prepared and run (in a transaction rolled back) on a
 * thread with the stack of ixd's session threads (SHAPES_STACK, 1 MiB), so
 * running out of stack is a crash (AddressSanitizer: stack-overflow).
 *
 * Input layout:
 *   byte 0     shape (shapes[] below)
 *   bytes 1-2  size: big-endian, clamped to 1 .. IX_SHAPES_MAX_TERMS
 *   rest       choices, read in turn and again from the start when used up
 *              (operators, which nesting, literals)
 *
 * Properties: no crash, no leak, no hang; every failure is an ixv_err with
 * a negative SQLCODE.
 *
 * IX_SHAPES_MAX_TERMS (tests/CMakeLists.txt) reaches past the sizes that
 * must work (10,000-term chains and lists) and past every nesting limit.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_engine.h"

#ifndef IX_SHAPES_MAX_TERMS
#define IX_SHAPES_MAX_TERMS 12000
#endif
#define SHAPES_STACK   (1u << 20) /* ixd_listen.c's CONN_STACK */
#define IDENT_PER_TERM 8          /* identifier characters per term */
#define LIT_PER_TERM   64         /* literal characters per term */
#define FETCH_ROWS     10
#define TIMEOUT_MS     1000

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ---- input ----------------------------------------------------------------- */

typedef struct input {
    const uint8_t *p;
    size_t n, at;
} input;

static unsigned next(input *in) {
    if (!in->n) return 0;
    if (in->at >= in->n) in->at = 0;
    return in->p[in->at++];
}

/* ---- output ---------------------------------------------------------------- */

/* The statement is built in the codec's growable buffer; running out of
 * memory ends the run (a fuzzer cannot go on without its input). */
typedef ixb_wbuf text;

static void put(text *t, const char *s) {
    ixb_put_bytes(t, s, strlen(s));
    if (t->err) abort();
}

static void put_int(text *t, unsigned v) {
    char b[16];
    snprintf(b, sizeof b, "%u", v);
    put(t, b);
}

#define PICK(arr, in) ((arr)[next(in) % (sizeof(arr) / sizeof((arr)[0]))])

/* ---- shapes ---------------------------------------------------------------- */

typedef struct pair {
    const char *open, *close;
} pair;

/* What one level of nesting wraps around the level inside it. */
static const pair nestings[] = {
    {"(", ")"},
    {"abs(", ")"},
    {"nvl(", ", 0)"},
    {"round(", ", 2)"},
    {"coalesce(", ", 1)"},
    {"-(", ")"},
    {"1 + (", ")"},
    {"(select ", " from t)"},
    {"case when a = 1 then ", " else 0 end"},
    {"case ", " when 1 then 2 else 3 end"},
    {"(select max(", ") from t)"},
    {"length(", " || 'x')"},
};
static const pair paren_only[] = {{"(", ")"}};
static const pair calls[] = {{"abs(", ")"}, {"nvl(", ", 0)"}, {"round(", ", 2)"}};
static const pair subqueries[] = {{"(select ", " from t)"}, {"(select max(", ") from t)"}};
static const pair cases[] = {{"case when a = 1 then ", " else 0 end"},
                             {"case when a > 0 then 1 else ", " end"}};

static const char *const arith_ops[] = {" + ", " - ", " * ", " / "};
static const char *const logic_ops[] = {" or ", " and "};
static const char *const terms[] = {"1", "a", "c", "2.5", "-1", "(a)", "abs(a)"};
static const char *const conds[] = {"a = 1", "b = 'x'", "c > 0", "a in (1, 2)", "b is null"};

typedef void (*shape_fn)(text *t, input *in, unsigned n);

static void nest(text *t, input *in, unsigned n, const pair *ps, size_t nps) {
    const pair **used = malloc(n * sizeof *used);
    if (!used) abort();
    put(t, "select ");
    for (unsigned i = 0; i < n; i++) {
        used[i] = &ps[next(in) % nps];
        put(t, used[i]->open);
    }
    put(t, "a");
    for (unsigned i = n; i-- > 0;)
        put(t, used[i]->close);
    put(t, " from t");
    free(used);
}

#define NEST(name, table)                                                                          \
    static void name(text *t, input *in, unsigned n) {                                             \
        nest(t, in, n, table, sizeof table / sizeof table[0]);                                     \
    }
NEST(nest_mixed, nestings)
NEST(nest_parens, paren_only)
NEST(nest_calls, calls)
NEST(nest_subqueries, subqueries)
NEST(nest_cases, cases)

static void chain_arith(text *t, input *in, unsigned n) {
    put(t, "select 1");
    for (unsigned i = 1; i < n; i++) {
        put(t, PICK(arith_ops, in));
        put(t, PICK(terms, in));
    }
    put(t, " from t");
}

static void chain_logic(text *t, input *in, unsigned n) {
    put(t, "select a from t where ");
    put(t, PICK(conds, in));
    for (unsigned i = 1; i < n; i++) {
        put(t, PICK(logic_ops, in));
        put(t, PICK(conds, in));
    }
}

static void chain_concat(text *t, input *in, unsigned n) {
    put(t, "select 'x'");
    for (unsigned i = 1; i < n; i++)
        put(t, next(in) & 1 ? " || b" : " || 'y'");
    put(t, " from t");
}

static void in_list(text *t, input *in, unsigned n) {
    put(t, "select a from t where a ");
    put(t, next(in) & 1 ? "not in (" : "in (");
    for (unsigned i = 0; i < n; i++) {
        if (i) put(t, ", ");
        put_int(t, i * (next(in) + 1u));
    }
    put(t, ")");
}

static void case_arms(text *t, input *in, unsigned n) {
    int simple = next(in) & 1; /* CASE a WHEN 1 ..., or CASE WHEN a = 1 ... */
    put(t, simple ? "select case a" : "select case");
    for (unsigned i = 0; i < n; i++) {
        put(t, simple ? " when " : " when a = ");
        put_int(t, i);
        put(t, " then ");
        put(t, PICK(terms, in));
    }
    put(t, " else 0 end from t");
}

static void many_columns(text *t, input *in, unsigned n) {
    put(t, "select ");
    for (unsigned i = 0; i < n; i++) {
        if (i) put(t, ", ");
        put(t, PICK(terms, in));
    }
    put(t, " from t");
}

static void union_arms(text *t, input *in, unsigned n) {
    for (unsigned i = 0; i < n; i++) {
        if (i) put(t, next(in) & 1 ? " union all " : " union ");
        put(t, "select a + ");
        put_int(t, i);
        put(t, " from t");
    }
}

static void long_ident(text *t, input *in, unsigned n) {
    put(t, "select a as c");
    for (unsigned i = 0; i < n * IDENT_PER_TERM; i++) {
        char c[2] = {(char)('a' + next(in) % 26), 0};
        put(t, c);
    }
    put(t, " from t");
}

static void long_literal(text *t, input *in, unsigned n) {
    int number = next(in) & 1;
    put(t, number ? "select 1" : "select '");
    for (unsigned i = 0; i < n * LIT_PER_TERM; i++) {
        char c[2] = {(char)(number ? '0' + next(in) % 10 : 'a' + next(in) % 26), 0};
        put(t, c);
    }
    put(t, number ? " from t" : "' from t");
}

static const shape_fn shapes[] = {
    nest_mixed,   nest_parens, nest_calls, nest_subqueries, nest_cases, chain_arith, chain_logic,
    chain_concat, in_list,     case_arms,  many_columns,    union_arms, long_ident,  long_literal,
};

/* ---- the engine ------------------------------------------------------------- */

static int setup(void) {
    if (fuzz_engine_open("fuzz_shapes")) return -1;
    exec1("create table t (a int, b varchar(20), c float)");
    exec1("insert into t values (1, 'x', 1.5)");
    exec1("insert into t values (2, NULL, -2)");
    ixd_set_timeout(db, TIMEOUT_MS);
    return 0;
}

static void fetch_some(ixd_stmt *s, ixv_err *e) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    if (ixd_open(s, 0, e) == 0) {
        for (int n = 0; n < FETCH_ROWS; n++) {
            int r = ixd_fetch(s, &b, e);
            if (r < 0 && e->sqlcode >= 0) abort();
            if (r != 1) break;
        }
        ixd_close(s);
    } else if (e->sqlcode >= 0) {
        abort();
    }
    ixb_wbuf_free(&b);
}

/* Prepares and runs sql; on the bounded stack. */
static void *run(void *arg) {
    const text *sql = arg;
    ixv_err e;
    memset(&e, 0, sizeof e);
    ixd_begin(db, &e);
    ixd_stmt *s;
    if (ixd_prepare(db, (const char *)sql->data, sql->len, &s, &e) == 0) {
        if (ixd_stmt_is_cursor(s)) {
            fetch_some(s, &e);
        } else if (ixd_execute(s, NULL, NULL, NULL, &e) && e.sqlcode >= 0) {
            abort();
        }
        ixd_stmt_free(s);
    } else if (e.sqlcode >= 0) {
        abort();
    }
    if (ixd_in_transaction(db)) ixd_rollback(db, &e);
    return NULL;
}

static void run_bounded(text *sql) {
    pthread_attr_t attr;
    pthread_t th;
    if (pthread_attr_init(&attr) || pthread_attr_setstacksize(&attr, SHAPES_STACK)) abort();
    if (pthread_create(&th, &attr, run, sql) || pthread_join(th, NULL)) abort();
    pthread_attr_destroy(&attr);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!eng && setup()) abort();
    if (size < 3) return 0;
    unsigned n = (unsigned)data[1] << 8 | data[2];
    if (n < 1) n = 1;
    if (n > IX_SHAPES_MAX_TERMS) n = IX_SHAPES_MAX_TERMS;
    input in = {data + 3, size - 3, 0};
    text sql;
    ixb_wbuf_init(&sql, NULL);
    shapes[data[0] % (sizeof shapes / sizeof shapes[0])](&sql, &in, n);
    run_bounded(&sql);
    ixb_wbuf_free(&sql);
    return 0;
}
