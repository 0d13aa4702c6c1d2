/*
 * Deep and wide statements against a real ixd, each session on its own
 * thread with ixd's bounded stack: generated SQL of the sizes ORMs and
 * report tools send works (OR chains and IN lists of 10,000 terms, 1,000
 * CASE arms, 200 nested parentheses, sums of 2,500 terms), and past the
 * limits of docs/server-sql.md ("Limits") a statement gets its SQLCODE and a
 * text naming the limit. After every statement ixd must still be running
 * and answer the next one: before the limits existed a sum of 2,500 terms
 * overflowed the session thread's stack and killed the server.
 */
#include "harness.h"
#include "tap.h"

static const char *U = "informix", *P = "in4mix";

enum {
    E_COMPLEX = -208,   /* the statement passes a nesting or size limit */
    E_STMT_LONG = -460, /* Statement length exceeds maximum. */
    E_SPL_DEPTH = -722, /* Out of stack space (routine calls nested too deep) */
};

/* The generated statements are built in the codec's growable buffer
 * (ixb_wbuf, libc allocator); the text returned is its NUL-terminated data,
 * which the caller frees with free(), or NULL when out of memory. */
static void add(ixb_wbuf *g, const char *t) {
    ixb_put_bytes(g, t, strlen(t));
}

static char *text_of(ixb_wbuf *g) {
    ixb_put_u8(g, 0);
    if (!g->err) return (char *)g->data;
    ixb_wbuf_free(g);
    return NULL;
}

/* "select <head> <n terms of fmt joined by sep> <tail>" */
static char *chain(const char *head, const char *fmt, const char *sep, long n, const char *tail) {
    ixb_wbuf g;
    ixb_wbuf_init(&g, NULL);
    add(&g, head);
    for (long i = 0; i < n; i++) {
        if (i) add(&g, sep);
        char b[64];
        snprintf(b, sizeof b, fmt, i);
        add(&g, b);
    }
    add(&g, tail);
    return text_of(&g);
}

static char *nested(const char *open, const char *core, const char *close, int n, const char *head,
                    const char *tail) {
    ixb_wbuf g;
    ixb_wbuf_init(&g, NULL);
    add(&g, head);
    for (int i = 0; i < n; i++)
        add(&g, open);
    add(&g, core);
    for (int i = 0; i < n; i++)
        add(&g, close);
    add(&g, tail);
    return text_of(&g);
}

static int alive(ixd_proc *p) {
    int st;
    return waitpid(p->pid, &st, WNOHANG) == 0;
}

/* Runs sql as a query on c; checks its SQLCODE (want) and, on success, the
 * first value (val); then that ixd still runs and answers on c. */
static void shape(ixd_proc *p, tconn *c, const char *name, char *sql, int want, const char *val) {
    if (!sql) {
        CHECK(0, "%s: out of memory building the statement", name);
        return;
    }
    treply r = {0};
    int rc = tconn_select(c, sql, 32000, &r, NULL);
    char buf[128] = "";
    if (rc == 0 && r.ntuples > 0) treply_value(&r, 0, 0, buf, sizeof buf);
    int ok = want ? r.sqlcode == want : rc == 0 && (!val || !strcmp(buf, val));
    CHECK(ok, "%s: sqlcode %d (want %d), value '%s' (want '%s') %s", name, r.sqlcode, want, buf,
          val ? val : "", r.errtext);
    if (want) CHECK(r.errtext[0] != 0, "%s: the error names its limit: %s", name, r.errtext);
    CHECK(alive(p), "%s: ixd still runs", name);
    treply q = {0};
    rc = tconn_select(c, "select 41 + 1 from sysmaster:sysdual", 32000, &q, NULL);
    CHECK(rc == 0 && q.ntuples == 1, "%s: the session answers the next statement", name);
    ixb_wbuf_free(&r.tuples);
    ixb_wbuf_free(&q.tuples);
    free(sql);
}

static void below_limits(ixd_proc *p, tconn *c) {
    const char *from = " from sysmaster:sysdual";
    shape(p, c, "sum of 2,500 terms", chain("select ", "1", "+", 2500, from), 0, "2500");
    shape(p, c, "sum of 99 terms", chain("select ", "1", "+", 99, from), 0, "99");
    shape(p, c, "|| of 99 terms", chain("select length(", "'a'", "||", 99, ")"), 0, "99");
    shape(p, c, "DECIMAL sum of 3,000 terms", chain("select ", "0.5", "+", 3000, from), 0,
          "1500.0");
    shape(p, c, "alternating +/- of 1,001 terms", chain("select 0", " + %ld - 1", "", 1000, from),
          0, "498500");
    shape(p, c, "OR chain of 10,000 terms",
          chain("select count(*) from sysmaster:sysdual where ", "1 = %ld", " or ", 10000, ""), 0,
          "1");
    shape(p, c, "OR chain of 90 terms",
          chain("select count(*) from sysmaster:sysdual where ", "2 = %ld", " or ", 90, ""), 0,
          "1");
    shape(p, c, "IN list of 10,000 terms",
          chain("select count(*) from sysmaster:sysdual where 9999 in (", "%ld", ",", 10000, ")"),
          0, "1");
    shape(p, c, "AND chain of 2,000 terms on a table",
          chain("select count(*) from t where ", "k <> %ld + 5000", " and ", 2000, ""), 0, "3");
    shape(p, c, "CASE of 1,000 arms",
          chain("select case ", "when 1 = %ld + 1 then 'x'", " ", 1000,
                " else 'y' end"
                " from sysmaster:sysdual"),
          0, "x");
    shape(p, c, "200 nested parentheses", nested("(", "7", ")", 200, "select ", from), 0, "7");
    shape(p, c, "200 nested parenthesized sums", nested("(1 + ", "1", ")", 200, "select ", from), 0,
          "201");
    shape(p, c, "200 nested parenthesized conditions",
          nested("(", "1 = 1", ")", 200, "select count(*) from sysmaster:sysdual where ", ""), 0,
          "1");
}

static char *text(const char *s) {
    return strdup(s);
}

static void past_limits(ixd_proc *p, tconn *c) {
    const char *from = " from sysmaster:sysdual";
    shape(p, c, "SPL recursion 30 deep", text("select depth(30) from sysmaster:sysdual"), 0, "30");
    shape(p, c, "SPL recursion 1,000 deep", text("select depth(1000) from sysmaster:sysdual"),
          E_SPL_DEPTH, NULL);
    shape(p, c, "300 nested parentheses", nested("(", "7", ")", 300, "select ", from), E_COMPLEX,
          NULL);
    shape(p, c, "1,000 nested calls", nested("abs(", "7", ")", 1000, "select ", from), E_COMPLEX,
          NULL);
    shape(p, c, "200 nested calls", nested("abs(", "7", ")", 200, "select ", from), E_COMPLEX,
          NULL);
    shape(p, c, "100 nested subqueries",
          nested("(select ", "1", " from sysmaster:sysdual)", 100, "select ", from), E_COMPLEX,
          NULL);
    shape(p, c, "CASE of 20,000 arms",
          chain("select case ", "when 1 = %ld then 1", " ", 20000, " end from sysmaster:sysdual"),
          E_COMPLEX, NULL);
    shape(p, c, "product of 5,000 mixed * and / terms",
          chain("select 1", " * 1 / 1", "", 2500, from), E_COMPLEX, NULL);
    shape(p, c, "statement of 1.2 MB",
          chain("select count(*) from sysmaster:sysdual where ", "1 = %ld", " or ", 120000, ""),
          E_STMT_LONG, NULL);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    if (ixd_start_args(&p, NULL, NULL)) {
        CHECK(0, "ixd starts");
        return tap_done();
    }
    tconn c;
    CHECK(tconn_login(&c, p.port, U, P, NULL) == 0, "login");
    const char *setup[] = {"create database shapes with log",
                           "create table t (k int)",
                           "insert into t values (1)",
                           "insert into t values (2)",
                           "insert into t values (3)",
                           ("create function depth(n int) returning int; if n <= 0 then return 0; "
                            "end if; return depth(n - 1) + 1; end function")};
    for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++) {
        treply r = {0};
        CHECK(tconn_command(&c, setup[i], &r) == 0 && r.sqlcode == 0, "%s: %d", setup[i],
              r.sqlcode);
        ixb_wbuf_free(&r.tuples);
    }
    below_limits(&p, &c);
    past_limits(&p, &c);
    tconn_close(&c);
    CHECK(alive(&p), "ixd still runs at the end");
    ixd_stop(&p, SIGTERM);
    if (!tap_fail) ixd_rmdir(&p);
    return tap_done();
}
