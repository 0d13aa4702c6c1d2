/*
 * test_ixd_cursor.c: UPDATE / DELETE ... WHERE CURRENT OF a client cursor
 * (named with SQ_CURNAME) declared FOR UPDATE, over the wire: the current
 * row is the row the last NFETCH sent (an update cursor gets one row a
 * reply), and the Informix errors of a cursor that is not found (-507), not
 * open (-259), not FOR UPDATE (-290), has no current row (-266) or is on
 * another table (-277).
 */
#include "harness.h"
#include "tap.h"

static tconn C;

static int run(const char *sql) {
    treply r = {0};
    tconn_command(&C, sql, &r);
    ixb_wbuf_free(&r.tuples);
    return r.sqlcode;
}

static void exec_ok(const char *sql) {
    int code = run(sql);
    CHECK(code == 0, "%s: %d", sql, code);
}

/* Prepares sql and opens it as cursor name; returns the statement id. */
static int open_cursor(const char *sql, const char *name) {
    treply r = {0};
    int id = tconn_prepare(&C, sql, 0, &r);
    CHECK(id >= 0, "prepare %s: %d", sql, r.sqlcode);
    ixp_enc_id(&C.out, id);
    ixp_enc_curname(&C.out, name, strlen(name));
    ixp_enc_tag(&C.out, IXP_SQ_OPEN);
    ixp_enc_tag(&C.out, IXP_SQ_EOT);
    tconn_flush(&C);
    tconn_reply(&C, &r);
    CHECK(r.sqlcode == 0, "open %s: %d", name, r.sqlcode);
    ixb_wbuf_free(&r.tuples);
    return id;
}

/* One NFETCH with a large buffer: the number of rows it brings (-1 error),
 * the first one's column 0 into v. */
static int fetch(int id, char *v, size_t n) {
    treply r = {0};
    ixp_enc_id(&C.out, id);
    ixp_enc_nfetch(&C.out, &C.caps, 65536);
    ixp_enc_tag(&C.out, IXP_SQ_EOT);
    tconn_flush(&C);
    int rc = tconn_reply(&C, &r) || r.sqlcode ? -1 : r.ntuples;
    /* the tuples: u32 length, payload (one INTEGER) */
    if (rc > 0) snprintf(v, n, "%d", (int)ixb_be32(r.tuples.data + 4));
    ixb_wbuf_free(&r.tuples);
    return rc;
}

static void close_cursor(int id, int release) {
    treply r = {0};
    ixp_enc_id(&C.out, id);
    ixp_enc_tag(&C.out, IXP_SQ_CLOSE);
    if (release) ixp_enc_tag(&C.out, IXP_SQ_RELEASE);
    ixp_enc_tag(&C.out, IXP_SQ_EOT);
    tconn_flush(&C);
    tconn_reply(&C, &r);
    ixb_wbuf_free(&r.tuples);
}

static int count(const char *sql) {
    treply r = {0};
    int trips;
    if (tconn_select(&C, sql, 65536, &r, &trips)) return -1;
    char buf[32];
    int v = r.ntuples == 1 ? atoi(treply_value(&r, 0, 0, buf, sizeof buf)) : -1;
    ixb_wbuf_free(&r.tuples);
    return v;
}

static void test_update_delete(void) {
    exec_ok("BEGIN WORK");
    int id = open_cursor("SELECT k FROM t WHERE k > 0 ORDER BY k FOR UPDATE", "cu");
    CHECK(run("UPDATE t SET v = 1 WHERE CURRENT OF cu") == -266, "before the first fetch: -266");
    char v[32];
    CHECK(fetch(id, v, sizeof v) == 1 && !strcmp(v, "1"), "one row a fetch (%s)", v);
    exec_ok("UPDATE t SET v = 100 WHERE CURRENT OF cu");
    CHECK(fetch(id, v, sizeof v) == 1 && !strcmp(v, "2"), "then row 2 (%s)", v);
    exec_ok("DELETE FROM t WHERE CURRENT OF cu");
    CHECK(run("DELETE FROM t WHERE CURRENT OF cu") == -266, "deleted: no current row, -266");
    CHECK(run("DELETE FROM u WHERE CURRENT OF cu") == -277, "another table: -277");
    CHECK(fetch(id, v, sizeof v) == 1 && !strcmp(v, "3"), "then row 3 (%s)", v);
    exec_ok("UPDATE t SET v = 300 WHERE CURRENT OF cu");
    CHECK(fetch(id, v, sizeof v) == 1 && !strcmp(v, "4"), "then row 4 (%s)", v);
    CHECK(fetch(id, v, sizeof v) == 0, "the end");
    CHECK(run("UPDATE t SET v = 0 WHERE CURRENT OF cu") == -266, "after the end: -266");
    close_cursor(id, 0);
    CHECK(run("UPDATE t SET v = 0 WHERE CURRENT OF cu") == -259, "closed: -259");
    close_cursor(id, 1);
    CHECK(run("UPDATE t SET v = 0 WHERE CURRENT OF cu") == -507, "released: -507");
    exec_ok("COMMIT WORK");
    CHECK(count("SELECT count(*) FROM t WHERE v = 100 AND k = 1") == 1, "row 1 updated");
    CHECK(count("SELECT count(*) FROM t WHERE k = 2") == 0, "row 2 deleted");
    CHECK(count("SELECT count(*) FROM t WHERE v = 300 AND k = 3") == 1, "row 3 updated");
    CHECK(count("SELECT count(*) FROM t WHERE v = 0") == 1, "row 4 untouched");
}

static void test_not_for_update(void) {
    int id = open_cursor("SELECT k FROM t", "plain");
    char v[32];
    CHECK(fetch(id, v, sizeof v) >= 1, "a plain cursor fetches");
    CHECK(run("UPDATE t SET v = 0 WHERE CURRENT OF plain") == -290, "not FOR UPDATE: -290");
    close_cursor(id, 1);
    CHECK(run("UPDATE t SET v = 0 WHERE CURRENT OF nosuch") == -507, "unknown cursor: -507");
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, NULL) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    CHECK(tconn_login(&C, p.port, "informix", "in4mix", NULL) == 0, "login");
    exec_ok("CREATE DATABASE cur WITH LOG");
    exec_ok("DATABASE cur");
    exec_ok("CREATE TABLE t (k INTEGER, v INTEGER)");
    exec_ok("CREATE TABLE u (k INTEGER)");
    for (int i = 1; i <= 4; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "INSERT INTO t VALUES (%d, 0)", i);
        exec_ok(sql);
    }
    test_update_delete();
    test_not_for_update();
    tconn_close(&C);
    ixd_stop(&p, SIGTERM);
    if (!tap_fail)
        ixd_rmdir(&p);
    else
        fprintf(stderr, "data and log kept in %s\n", p.dir);
    return tap_done();
}
