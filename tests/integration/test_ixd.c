/*
 * Integration tests: a real ixd on a free loopback port with a temporary
 * data directory, driven over TCP through the codec.
 *
 * The SQL-level checks here (login errors, CREATE DATABASE, describe,
 * errors, fetch buffers, pipelined inserts, transactions, the catalog,
 * kill -9 and SIGTERM) are also made through libixdb in
 * tests/client/test_server.c. This file stays for what only the wire shows:
 * message tags (ERR then EOT, INSERTDONE after an INSERT's describe,
 * XACTSTAT after SQ_BEGIN), the granted capability bits, SQ_EXIT answered
 * and the socket closed, -260 for EXECUTE of a SELECT, garbage before the
 * login, unknown tags, and a client vanishing mid-statement.
 */
#include "harness.h"
#include "tap.h"

static const char *U = "informix", *P = "in4mix";

static int has_tag(const treply *r, int tag) {
    for (int i = 0; i < r->ntags; i++)
        if (r->tags[i] == tag) return 1;
    return 0;
}

static void exec_ok(tconn *c, const char *sql) {
    treply r = {0};
    int rc = tconn_command(c, sql, &r);
    CHECK(rc == 0 && r.sqlcode == 0, "%s -> %d %s", sql, r.sqlcode, r.errtext);
    ixb_wbuf_free(&r.tuples);
}

static void exec_err(tconn *c, const char *sql, int want, const char *what) {
    treply r = {0};
    int rc = tconn_command(c, sql, &r);
    CHECK(rc == 0 && r.sqlcode == want, "%s: %s -> %d (isam %d, \"%s\"), want %d", what, sql,
          r.sqlcode, r.isamcode, r.errtext, want);
    CHECK(has_tag(&r, IXP_SQ_ERR) && r.tags[r.ntags - 1] == IXP_SQ_EOT, "%s: ERR then EOT", what);
    ixb_wbuf_free(&r.tuples);
}

/* SELECT returning one value as text. */
static const char *one(tconn *c, const char *sql, char *buf, size_t cap) {
    treply r = {0};
    snprintf(buf, cap, "<error>");
    if (tconn_select(c, sql, 4096, &r, NULL) == 0 && r.ntuples >= 1)
        treply_value(&r, 0, 0, buf, cap);
    else if (r.sqlcode)
        snprintf(buf, cap, "<error %d>", r.sqlcode);
    ixb_wbuf_free(&r.tuples);
    return buf;
}

static void test_login(ixd_proc *p) {
    tconn c;
    CHECK(tconn_login(&c, p->port, U, "wrong", NULL) == -951, "wrong password gets -951");
    tconn_close(&c);
    CHECK(tconn_login(&c, p->port, "nobody", P, NULL) == -951, "unknown user gets -951");
    tconn_close(&c);
    CHECK(tconn_login(&c, p->port, U, P, "nosuchdb") == -329, "unknown database gets -329");
    tconn_close(&c);
    CHECK(tconn_login(&c, p->port, U, P, "sysmaster") == 0, "sysmaster always exists");
    CHECK(c.caps.f62 && c.caps.f63 && c.caps.f54 && !c.caps.f69 && !c.caps.f70,
          "ixd grants f54 f62 f63 to the JDBC offer");
    /* EXIT: the server answers SQ_EXIT and closes. */
    ixp_enc_tag(&c.out, IXP_SQ_EXIT);
    tconn_flush(&c);
    treply r = {0};
    CHECK(tconn_reply(&c, &r) == 0 && r.tags[r.ntags - 1] == IXP_SQ_EXIT, "EXIT answered");
    ixp_msg m;
    CHECK(tconn_next(&c, &m) != IX_OK && c.closed, "socket closed after EXIT");
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

static void test_sql(ixd_proc *p) {
    tconn c;
    CHECK(tconn_login(&c, p->port, U, P, NULL) == 0, "login without a database");
    exec_ok(&c, "CREATE DATABASE demo WITH LOG");
    exec_err(&c, "CREATE DATABASE demo WITH LOG", -330, "database exists");
    exec_ok(&c, "DATABASE demo");
    exec_ok(&c, "CREATE TABLE item (id SERIAL PRIMARY KEY, name VARCHAR(40) NOT NULL, "
                "price DECIMAL(8,2), day DATE, at DATETIME YEAR TO SECOND, ok BOOLEAN)");
    treply r = {0};
    tconn_command(&c,
                  "INSERT INTO item (name, price, day, at, ok) VALUES ('Ada', 123.45, "
                  "MDY(12,10,1815), DATETIME(2026-06-20 12:34:56) YEAR TO SECOND, 't')",
                  &r);
    CHECK(r.sqlcode == 0 && r.rows == 1 && r.serial == 1, "INSERT: 1 row, serial 1 (%d %lld %d)",
          r.sqlcode, (long long)r.rows, r.serial);
    /* PREPARE + BIND + EXECUTE. */
    int id = tconn_prepare(&c, "INSERT INTO item (name, price) VALUES (?, ?)", 2, &r);
    CHECK(id >= 0 && r.ncols == 2, "prepared INSERT describes its 2 target columns (%d)", r.ncols);
    CHECK(has_tag(&r, IXP_SQ_INSERTDONE), "INSERT describe is followed by INSERTDONE");
    for (int i = 0; i < 3; i++) {
        char name[16];
        snprintf(name, sizeof name, "row%d", i);
        uint8_t sv[32];
        size_t sn = strlen(name);
        ixb_st16(sv, (uint16_t)sn);
        memcpy(sv + 2, name, sn);
        uint8_t dv[] = {0, 3, 0xc1, (uint8_t)(10 + i), 50}; /* 10.50, 11.50, 12.50 */
        ixp_bindval v[2] = {{.type = IX_T_VARCHAR, .value = {sv, 2 + sn}},
                            {.type = IX_T_DECIMAL, .slot = 0x02, .value = {dv, 5}}};
        ixp_enc_id(&c.out, id);
        ixp_enc_bind(&c.out, v, 2);
        ixp_enc_tag(&c.out, IXP_SQ_EXECUTE);
        ixp_enc_tag(&c.out, IXP_SQ_EOT);
        tconn_flush(&c);
        tconn_reply(&c, &r);
        CHECK(r.sqlcode == 0 && r.rows == 1 && r.serial == 2 + i, "bound INSERT %d -> serial %d", i,
              r.serial);
    }
    char buf[128];
    CHECK(strcmp(one(&c, "SELECT COUNT(*) FROM item", buf, sizeof buf), "4") == 0,
          "count is 4 (%s)", buf);
    CHECK(strcmp(one(&c, "SELECT price FROM item WHERE name = 'row1'", buf, sizeof buf), "11.50") ==
              0,
          "decimal round trip (%s)", buf);
    CHECK(strcmp(one(&c, "SELECT day FROM item WHERE id = 1", buf, sizeof buf), "12/10/1815") == 0,
          "date round trip (%s)", buf);
    CHECK(strcmp(one(&c, "SELECT at FROM item WHERE id = 1", buf, sizeof buf),
                 "2026-06-20 12:34:56") == 0,
          "datetime round trip (%s)", buf);
    /* Describe types. */
    tconn_prepare(&c, "SELECT id, name, price, day, at, ok FROM item", 0, &r);
    CHECK(r.ncols == 6 && r.coltypes[0] == (IX_T_SERIAL | 0x100) &&
              r.coltypes[1] == (IX_T_VARCHAR | 0x100) && r.cols[1].enclen == 40 &&
              r.coltypes[2] == IX_T_DECIMAL && r.cols[2].enclen == 0x0802 &&
              r.coltypes[3] == IX_T_DATE && r.cols[4].enclen == 0x0e0a &&
              r.cols[5].code == IX_T_BOOLEAN,
          "describe gives Informix types and encoded lengths");
    CHECK(strcmp(r.names[1], "name") == 0, "describe gives column names");
    /* Errors. */
    exec_err(&c, "SELEC * FROM item", -201, "syntax");
    exec_err(&c, "SELECT * FROM nosuch", -206, "no such table");
    exec_err(&c, "SELECT nosuch FROM item", -217, "no such column");
    exec_err(&c, "INSERT INTO item (id, name) VALUES (1, 'dup')", -268, "duplicate primary key");
    exec_err(&c, "INSERT INTO item (name) VALUES (NULL)", -391, "NULL into NOT NULL");
    /* A SELECT through EXECUTE is -260. */
    id = tconn_prepare(&c, "SELECT * FROM item", 0, &r);
    ixp_enc_id(&c.out, id);
    ixp_enc_tag(&c.out, IXP_SQ_EXECUTE);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    tconn_reply(&c, &r);
    CHECK(r.sqlcode == -260, "EXECUTE of a SELECT is -260 (%d)", r.sqlcode);
    /* NFETCH honours the buffer size: 500 rows, 1 KB buffer. */
    exec_ok(&c, "CREATE TABLE big (id INTEGER, name VARCHAR(64), counter INTEGER, value FLOAT, "
                "created DATE)");
    exec_ok(&c, "BEGIN WORK");
    id =
        tconn_prepare(&c, "INSERT INTO big VALUES (?, 'some name of a row', ?, 1.5, TODAY)", 2, &r);
    for (int i = 0; i < 500; i++) { /* pipelined: all sent before reading */
        uint8_t a[4], b[4];
        ixb_st32(a, (uint32_t)i);
        ixb_st32(b, (uint32_t)(i * 2));
        ixp_bindval v[2] = {{.type = IX_T_INTEGER, .value = {a, 4}},
                            {.type = IX_T_INTEGER, .value = {b, 4}}};
        ixp_enc_id(&c.out, id);
        ixp_enc_bind(&c.out, v, 2);
        ixp_enc_tag(&c.out, IXP_SQ_EXECUTE);
        ixp_enc_tag(&c.out, IXP_SQ_EOT);
    }
    tconn_flush(&c);
    int good = 0;
    for (int i = 0; i < 500; i++)
        if (tconn_reply(&c, &r) == 0 && r.sqlcode == 0 && r.rows == 1) good++;
    CHECK(good == 500, "500 pipelined inserts answered in order (%d)", good);
    exec_ok(&c, "COMMIT WORK");
    int trips = 0;
    CHECK(tconn_select(&c, "SELECT * FROM big", 1024, &r, &trips) == 0 && r.ntuples == 500,
          "500 rows fetched (%d)", r.ntuples);
    CHECK(trips >= 500 * 30 / 1024 && trips <= 500, "1 KB buffer takes many round trips (%d)",
          trips);
    int trips_big = 0;
    tconn_select(&c, "SELECT * FROM big", 1 << 20, &r, &trips_big);
    CHECK(trips_big == 1 && r.ntuples == 500, "1 MB buffer takes one round trip (%d)", trips_big);
    tconn_select(&c, "SELECT * FROM big WHERE id < 0", 4096, &r, &trips);
    CHECK(r.ntuples == 0 && trips == 1, "empty result: DONE on the first fetch");
    /* Transactions. */
    exec_err(&c, "COMMIT WORK", -255, "commit outside a transaction");
    ixp_enc_tag(&c.out, IXP_SQ_BEGIN);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    tconn_reply(&c, &r);
    CHECK(r.sqlcode == 0 && has_tag(&r, IXP_SQ_XACTSTAT), "SQ_BEGIN answered with XACTSTAT");
    exec_ok(&c, "DELETE FROM big");
    ixp_enc_tag(&c.out, IXP_SQ_RBWORK);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    tconn_reply(&c, &r);
    CHECK(r.sqlcode == 0, "SQ_RBWORK");
    CHECK(strcmp(one(&c, "SELECT COUNT(*) FROM big", buf, sizeof buf), "500") == 0,
          "rollback undid the delete (%s)", buf);
    exec_ok(&c, "CREATE DATABASE nolog");
    exec_ok(&c, "DATABASE nolog");
    exec_err(&c, "BEGIN WORK", -256, "BEGIN on an unlogged database");
    exec_ok(&c, "DATABASE demo");
    /* Catalog. */
    tconn_select(&c, "SELECT FIRST 10 * FROM systables", 32767, &r, NULL);
    CHECK(r.ntuples == 10, "SELECT FIRST 10 * FROM systables (%d rows)", r.ntuples);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

static void test_bad_input(ixd_proc *p) {
    /* Garbage before login: dropped, and the server still serves. */
    tconn c;
    tconn_open(&c, p->port);
    ixb_put_bytes(&c.out, "GET / HTTP/1.0\r\n\r\n", 18);
    tconn_flush(&c);
    ixp_msg m;
    CHECK(tconn_next(&c, &m) != IX_OK && c.closed, "garbage before login closes the socket");
    tconn_close(&c);
    /* An unknown tag after login. */
    CHECK(tconn_login(&c, p->port, U, P, "sysmaster") == 0, "login");
    static const uint8_t bad[] = {0x12, 0x34, 0, 12};
    ixb_put_bytes(&c.out, bad, 4);
    tconn_flush(&c);
    CHECK(tconn_next(&c, &m) != IX_OK && c.closed, "unknown tag closes the session");
    tconn_close(&c);
    /* A client that vanishes mid-statement. */
    CHECK(tconn_login(&c, p->port, U, P, "sysmaster") == 0, "login");
    ixp_enc_prepare(&c.out, &c.caps, 0, "SELECT * FROM systables", 23);
    tconn_flush(&c);
    tconn_close(&c);
    tconn c2;
    CHECK(tconn_login(&c2, p->port, U, P, "sysmaster") == 0, "others are untouched");
    tconn_close(&c2);
}

static void test_crash(ixd_proc *p) {
    tconn c;
    CHECK(tconn_login(&c, p->port, U, P, NULL) == 0, "login");
    exec_ok(&c, "CREATE DATABASE crash WITH LOG");
    exec_ok(&c, "DATABASE crash");
    exec_ok(&c, "CREATE TABLE t (id INTEGER PRIMARY KEY)");
    int acked = 0;
    for (int i = 0; i < 200; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "INSERT INTO t VALUES (%d)", i);
        treply r = {0};
        if (tconn_command(&c, sql, &r) == 0 && r.sqlcode == 0) acked++;
        ixb_wbuf_free(&r.tuples);
    }
    /* An open transaction that must not survive. */
    exec_ok(&c, "BEGIN WORK");
    exec_ok(&c, "INSERT INTO t VALUES (100000)");
    ixd_stop(p, SIGKILL);
    tconn_close(&c);
    CHECK(ixd_start(p, p->dir, NULL) == 0, "restart after kill -9");
    CHECK(tconn_login(&c, p->port, U, P, "crash") == 0, "reopen");
    char buf[64];
    CHECK(strcmp(one(&c, "SELECT COUNT(*) FROM t", buf, sizeof buf), "200") == 0 && acked == 200,
          "every acknowledged row survived kill -9, the open transaction did not (%s)", buf);
    /* SIGTERM: an open transaction rolls back, the server exits 0. */
    exec_ok(&c, "BEGIN WORK");
    exec_ok(&c, "DELETE FROM t");
    int st = ixd_stop(p, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "clean exit on SIGTERM");
    tconn_close(&c);
    CHECK(ixd_start(p, p->dir, NULL) == 0, "restart after SIGTERM");
    CHECK(tconn_login(&c, p->port, U, P, "crash") == 0, "reopen");
    CHECK(strcmp(one(&c, "SELECT COUNT(*) FROM t", buf, sizeof buf), "200") == 0,
          "the open transaction rolled back at shutdown (%s)", buf);
    tconn_close(&c);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, NULL) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    test_login(&p);
    test_sql(&p);
    test_bad_input(&p);
    test_crash(&p);
    ixd_stop(&p, SIGTERM);
    if (!tap_fail)
        ixd_rmdir(&p);
    else
        fprintf(stderr, "data and log kept in %s\n", p.dir);
    return tap_done();
}
