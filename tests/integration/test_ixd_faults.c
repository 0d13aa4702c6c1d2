/*
 * Integration tests, part 3: what the wire shows of the engine's faults and
 * names, against a real ixd.
 *
 * - A full disk: the running ixd's file-size limit set to 0 from outside
 *   (prlimit), so that its writes really fail (EFBIG; ixd ignores SIGXFSZ):
 *   SQ_ERR carries the statement's SQLCODE with ISAM -131, a failed COMMIT
 *   (message and statement) ends the transaction, and writes resume when the
 *   limit is lifted.
 * - DBOPEN of a name over 128 bytes, or with a NUL in it: -354.
 * - Savepoint messages (137/138/139) with names that need quoting.
 * - DROP DATABASE while another connection has the database open: -425, and
 *   that connection's rows stay.
 */
#define _GNU_SOURCE
#include <sys/resource.h>

#include "harness.h"
#include "tap.h"

static const char *U = "informix", *P = "in4mix";

static void ok(tconn *c, const char *sql) {
    treply r = {0};
    int code = tconn_exec(c, sql, &r);
    CHECK(code == 0, "%s -> %d %s", sql, code, r.errtext);
    ixb_wbuf_free(&r.tuples);
}

static void fails(tconn *c, const char *sql, int sqlcode, int isam) {
    treply r = {0};
    int code = tconn_exec(c, sql, &r);
    CHECK(code == sqlcode && r.isamcode == isam, "%s -> %d/%d, want %d/%d", sql, code, r.isamcode,
          sqlcode, isam);
    ixb_wbuf_free(&r.tuples);
}

/* One message (SQ_BEGIN, SQ_CMMTWORK, a savepoint message) and its EOT. */
static int message(tconn *c, int tag, const char *name, treply *r) {
    if (name)
        ixp_enc_svpoint(&c->out, tag, name, strlen(name), 0);
    else
        ixp_enc_tag(&c->out, tag);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    if (tconn_flush(c) || tconn_reply(c, r)) return TCONN_FAILED;
    return r->sqlcode;
}

static int set_fsize(pid_t pid, rlim_t cur) {
    struct rlimit rl;
    if (prlimit(pid, RLIMIT_FSIZE, NULL, &rl)) return -1;
    rl.rlim_cur = cur < rl.rlim_max ? cur : rl.rlim_max;
    return prlimit(pid, RLIMIT_FSIZE, &rl, NULL);
}

static void test_full_disk(ixd_proc *p) {
    tconn c;
    char v[64];
    CHECK(tconn_login(&c, p->port, U, P, NULL) == 0, "login");
    ok(&c, "CREATE DATABASE full WITH LOG");
    ok(&c, "CREATE TABLE t (id INTEGER, pad VARCHAR(100))");
    ok(&c, "INSERT INTO t VALUES (1, 'before')");
    CHECK(set_fsize(p->pid, 0) == 0, "ixd's file-size limit set to 0");
    fails(&c, "INSERT INTO t VALUES (2, 'full')", -271, -131);
    fails(&c, "UPDATE t SET pad = 'full'", -346, -131);
    fails(&c, "DELETE FROM t", -240, -131);
    fails(&c, "CREATE TABLE u (a INTEGER)", -261, -131);
    fails(&c, "CREATE INDEX ti ON t (id)", -212, -131);
    treply r = {0};
    CHECK(message(&c, IXP_SQ_BEGIN, NULL, &r) == 0, "SQ_BEGIN");
    ok(&c, "INSERT INTO t VALUES (3, 'in a transaction')");
    CHECK(message(&c, IXP_SQ_CMMTWORK, NULL, &r) == -942 && r.isamcode == -131,
          "SQ_CMMTWORK -> %d/%d", r.sqlcode, r.isamcode);
    fails(&c, "COMMIT WORK", -255, 0); /* the failed COMMIT ended it */
    ok(&c, "BEGIN WORK");
    ok(&c, "INSERT INTO t VALUES (4, 'in a transaction')");
    fails(&c, "COMMIT WORK", -942, -131);
    CHECK(message(&c, IXP_SQ_CMMTWORK, NULL, &r) == -255, "then not in transaction (%d)",
          r.sqlcode);
    CHECK(!strcmp(tconn_value(&c, "SELECT count(*) FROM t", v, sizeof v), "1"), "one row (%s)", v);
    CHECK(set_fsize(p->pid, RLIM_INFINITY) == 0, "limit lifted");
    ok(&c, "INSERT INTO t VALUES (5, 'after')");
    ok(&c, "BEGIN WORK");
    ok(&c, "INSERT INTO t VALUES (6, 'after')");
    ok(&c, "COMMIT WORK");
    ok(&c, "CREATE INDEX ti ON t (id)");
    CHECK(!strcmp(tconn_value(&c, "SELECT sum(id) FROM t", v, sizeof v), "12"), "rows 1, 5, 6 (%s)",
          v);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

static void test_dbopen_names(ixd_proc *p) {
    tconn c;
    CHECK(tconn_login(&c, p->port, U, P, NULL) == 0, "login");
    char name[200];
    memset(name, 'n', 129);
    treply r = {0};
    struct {
        size_t n;
        int want;
    } cases[] = {{129, -354}, {128, -329}, {5, -329}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        ixp_enc_dbopen(&c.out, name, cases[i].n, 0);
        ixp_enc_tag(&c.out, IXP_SQ_EOT);
        tconn_flush(&c);
        CHECK(tconn_reply(&c, &r) == 0 && r.sqlcode == cases[i].want, "DBOPEN of %zu bytes -> %d",
              cases[i].n, r.sqlcode);
    }
    ixp_enc_dbopen(&c.out, "full\0x", 6, 0); /* not "full" */
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    CHECK(tconn_reply(&c, &r) == 0 && r.sqlcode == -354, "DBOPEN with a NUL -> %d", r.sqlcode);
    name[129] = 0;
    char sql[300];
    snprintf(sql, sizeof sql, "DATABASE %s", name);
    fails(&c, sql, -354, 0);
    ixp_enc_dbopen(&c.out, "full", 4, 0);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    CHECK(tconn_reply(&c, &r) == 0 && r.sqlcode == 0, "DBOPEN full -> %d", r.sqlcode);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

static void test_savepoint_messages(ixd_proc *p) {
    tconn c;
    char v[64];
    CHECK(tconn_login(&c, p->port, U, P, "full") == 0, "login");
    ok(&c, "CREATE TABLE sp (a INTEGER)");
    treply r = {0};
    CHECK(message(&c, IXP_SQ_BEGIN, NULL, &r) == 0, "SQ_BEGIN");
    static const char *const names[] = {"my savepoint", "a\"b", "select", "Mixed", "p1", NULL};
    for (int i = 0; names[i]; i++) {
        CHECK(message(&c, IXP_SQ_SVPOINT, names[i], &r) == 0, "SVPOINT [%s] -> %d", names[i],
              r.sqlcode);
        ok(&c, "INSERT INTO sp VALUES (1)");
        CHECK(message(&c, IXP_SQ_RBSVPOINT, names[i], &r) == 0, "RBSVPOINT [%s] -> %d", names[i],
              r.sqlcode);
        CHECK(!strcmp(tconn_value(&c, "SELECT count(*) FROM sp", v, sizeof v), "0"),
              "rolled back (%s)", v);
        CHECK(message(&c, IXP_SQ_RELSVPOINT, names[i], &r) == 0, "RELSVPOINT [%s] -> %d", names[i],
              r.sqlcode);
        CHECK(message(&c, IXP_SQ_RELSVPOINT, names[i], &r) == -83, "released [%s] -> %d", names[i],
              r.sqlcode);
    }
    /* the message and SQL text name the same savepoint */
    CHECK(message(&c, IXP_SQ_SVPOINT, "my savepoint", &r) == 0, "SVPOINT again");
    ok(&c, "INSERT INTO sp VALUES (2)");
    ok(&c, "ROLLBACK WORK TO SAVEPOINT \"my savepoint\"");
    ok(&c, "RELEASE SAVEPOINT \"my savepoint\"");
    ok(&c, "SAVEPOINT \"Quoted\"");
    CHECK(message(&c, IXP_SQ_RBSVPOINT, "Quoted", &r) == 0, "RBSVPOINT Quoted -> %d", r.sqlcode);
    CHECK(message(&c, IXP_SQ_CMMTWORK, NULL, &r) == 0, "SQ_CMMTWORK");
    CHECK(!strcmp(tconn_value(&c, "SELECT count(*) FROM sp", v, sizeof v), "0"),
          "nothing kept (%s)", v);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

static void test_drop_in_use(ixd_proc *p) {
    tconn a, b;
    char v[64];
    CHECK(tconn_login(&a, p->port, U, P, NULL) == 0, "login A");
    ok(&a, "CREATE DATABASE shared WITH LOG");
    ok(&a, "CREATE TABLE t (a INTEGER)");
    CHECK(tconn_login(&b, p->port, U, P, "shared") == 0, "login B on shared");
    ok(&a, "CLOSE DATABASE");
    fails(&a, "DROP DATABASE shared", -425, 0);
    ok(&b, "INSERT INTO t VALUES (1)");
    fails(&a, "DROP DATABASE shared", -425, 0);
    ok(&b, "INSERT INTO t VALUES (2)");
    CHECK(!strcmp(tconn_value(&b, "SELECT count(*) FROM t", v, sizeof v), "2"), "B's rows (%s)", v);
    tconn_close(&b);
    /* B's session ends asynchronously: wait for the drop to be allowed */
    int code = -425;
    for (int i = 0; i < 200 && code == -425; i++) {
        treply r = {0};
        code = tconn_exec(&a, "DROP DATABASE shared", &r);
        ixb_wbuf_free(&r.tuples);
        if (code == -425) nanosleep(&(struct timespec){0, 10000000}, NULL);
    }
    CHECK(code == 0, "DROP DATABASE once B is gone -> %d", code);
    fails(&a, "DATABASE shared", -329, 0);
    tconn_close(&a);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, NULL) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    test_full_disk(&p);
    test_dbopen_names(&p);
    test_savepoint_messages(&p);
    test_drop_in_use(&p);
    int st = ixd_stop(&p, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "ixd ends cleanly (status %d)", st);
    if (!tap_fail)
        ixd_rmdir(&p);
    else
        fprintf(stderr, "data and log kept in %s\n", p.dir);
    return tap_done();
}
