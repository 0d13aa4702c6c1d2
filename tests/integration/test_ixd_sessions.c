/*
 * Integration tests, part 2: scroll cursors, SERIAL8/BIGSERIAL, concurrent
 * sessions with lock waits, a users file, TLS, and --verbose tracing.
 *
 * SERIAL8, lock waits, -535 and concurrent sessions are also checked through
 * libixdb in tests/client/test_server.c. This file stays for what only the
 * wire shows: scroll cursors (SFETCH, TUPID; libixdb has no scroll cursor),
 * BYTE/TEXT through FETCHBLOB and lone EOTs, message-size limits, and the
 * server's TLS listener, users file and --verbose log.
 */
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <pthread.h>

#include "harness.h"
#include "tap.h"

static const char *U = "informix", *P = "in4mix";

static int has_blob(const treply *r) {
    for (int i = 0; i < r->ntags; i++)
        if (r->tags[i] == IXP_SQ_BLOB) return 1;
    return 0;
}

static void ok(tconn *c, const char *sql) {
    treply r = {0};
    int code = tconn_exec(c, sql, &r);
    CHECK(code == 0, "%s -> %d %s", sql, code, r.errtext);
    ixb_wbuf_free(&r.tuples);
}

static void test_scroll_and_serials(ixd_proc *p) {
    tconn c;
    CHECK(tconn_login(&c, p->port, U, P, NULL) == 0, "login");
    ok(&c, "CREATE DATABASE s2 WITH LOG");
    ok(&c, "DATABASE s2");
    ok(&c, "CREATE TABLE n (id SERIAL8, v INTEGER)");
    treply r = {0};
    tconn_exec(&c, "INSERT INTO n (v) VALUES (7)", &r);
    CHECK(r.sqlcode == 0 && r.serial8 == 1, "SERIAL8 reported in INSERTDONE (%lld)",
          (long long)r.serial8);
    tconn_exec(&c, "INSERT INTO n (id, v) VALUES (100, 8)", &r);
    CHECK(r.serial8 == 100, "explicit SERIAL8 reported (%lld)", (long long)r.serial8);
    for (int i = 0; i < 8; i++)
        tconn_exec(&c, "INSERT INTO n (v) VALUES (9)", &r);
    /* Scroll cursor over 10 rows. */
    int id = tconn_prepare(&c, "SELECT v, id FROM n ORDER BY id", 0, &r);
    treply d = r;
    ixp_enc_id(&c.out, id);
    ixp_enc_curname(&c.out, "sc1", 3);
    ixp_enc_tag(&c.out, IXP_SQ_SCROLL);
    ixp_enc_tag(&c.out, IXP_SQ_OPEN);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    tconn_reply(&c, &r);
    CHECK(r.sqlcode == 0, "scroll cursor opens (%d)", r.sqlcode);
    struct {
        int dir, pos, want_rows;
        const char *want_id;
    } steps[] = {{IXP_FETCH_LAST, 0, 1, "108"},     {IXP_FETCH_ABSOLUTE, 2, 1, "100"},
                 {IXP_FETCH_ABSOLUTE, 1, 1, "1"},   {IXP_FETCH_NEXT, 0, 9, "100"},
                 {IXP_FETCH_ABSOLUTE, 11, 0, NULL}, {IXP_FETCH_ABSOLUTE, 0, 0, NULL}};
    for (size_t i = 0; i < sizeof steps / sizeof steps[0]; i++) {
        ixp_enc_id(&c.out, id);
        ixp_enc_sfetch(&c.out, &c.caps, steps[i].dir, steps[i].pos, 4096);
        ixp_enc_tag(&c.out, IXP_SQ_EOT);
        tconn_flush(&c);
        tconn_reply(&c, &r);
        int tupids = 0;
        for (int k = 0; k < r.ntags; k++)
            tupids += r.tags[k] == IXP_SQ_TUPID;
        CHECK(r.sqlcode == 0 && r.ntuples == steps[i].want_rows && tupids == r.ntuples,
              "SFETCH step %zu: %d rows (want %d), %d TUPIDs", i, r.ntuples, steps[i].want_rows,
              tupids);
        if (steps[i].want_id && r.ntuples) {
            r.ncols = d.ncols;
            memcpy(r.cols, d.cols, sizeof d.cols);
            char buf[32];
            treply_value(&r, 0, 1, buf, sizeof buf);
            CHECK(strcmp(buf, steps[i].want_id) == 0, "SFETCH step %zu first id %s (want %s)", i,
                  buf, steps[i].want_id);
        }
        if (!steps[i].want_rows) CHECK(r.tags[0] == IXP_SQ_DONE, "out of range ends the data");
    }
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

/* Session B blocks on session A's write lock, waits per its lock mode, then
 * gets the Informix lock error. */
static void test_locks(ixd_proc *p) {
    tconn a, b;
    CHECK(tconn_login(&a, p->port, U, P, "s2") == 0, "login A");
    CHECK(tconn_login(&b, p->port, U, P, "s2") == 0, "login B");
    ok(&a, "CREATE TABLE lk (id INTEGER)");
    ok(&a, "BEGIN WORK");
    ok(&a, "INSERT INTO lk VALUES (1)");
    ok(&b, "SET LOCK MODE TO WAIT 1");
    treply r = {0};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int code = tconn_exec(&b, "INSERT INTO lk VALUES (2)", &r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double waited = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    CHECK((code == -244 || code == -243 || code == -271 || code == -107) &&
              (r.isamcode == -154 || r.isamcode == -107),
          "blocked writer gets a lock error (%d, isam %d)", code, r.isamcode);
    CHECK(waited >= 0.8 && waited < 5, "it waited about its 1 s lock wait (%.2f s)", waited);
    ok(&b, "SET LOCK MODE TO NOT WAIT");
    clock_gettime(CLOCK_MONOTONIC, &t0);
    code = tconn_exec(&b, "INSERT INTO lk VALUES (3)", &r);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    waited = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
    CHECK(code < 0 && waited < 0.5, "NOT WAIT fails at once (%d, %.2f s)", code, waited);
    ok(&a, "COMMIT WORK");
    ok(&b, "SET LOCK MODE TO WAIT 5");
    ok(&b, "INSERT INTO lk VALUES (4)");
    tconn_exec(&a, "BEGIN WORK", &r);
    CHECK(tconn_exec(&a, "BEGIN WORK", &r) == -535, "BEGIN inside a transaction is -535 (%d)",
          r.sqlcode);
    ok(&a, "ROLLBACK WORK");
    ixb_wbuf_free(&r.tuples);
    tconn_close(&a);
    tconn_close(&b);
}

/* Many sessions at once, each inserting and reading back. */
static int g_port;
static void *worker(void *arg) {
    long k = (long)arg;
    tconn c;
    if (tconn_login(&c, g_port, U, P, "s2")) return (void *)1;
    long bad = 0;
    treply w = {0};
    /* Informix's default is NOT WAIT: concurrent writers must ask to wait. */
    if (tconn_exec(&c, "SET LOCK MODE TO WAIT 30", &w) != 0) bad++;
    ixb_wbuf_free(&w.tuples);
    for (int i = 0; i < 20; i++) {
        char sql[96];
        snprintf(sql, sizeof sql, "INSERT INTO many VALUES (%ld, %d)", k, i);
        treply r = {0};
        if (tconn_exec(&c, sql, &r) != 0) bad++;
        ixb_wbuf_free(&r.tuples);
    }
    tconn_close(&c);
    return (void *)bad;
}

static void test_many(ixd_proc *p) {
    tconn c;
    tconn_login(&c, p->port, U, P, "s2");
    ok(&c, "CREATE TABLE many (k INTEGER, i INTEGER)");
    g_port = p->port;
    pthread_t th[8];
    for (long k = 0; k < 8; k++)
        pthread_create(&th[k], NULL, worker, (void *)k);
    long bad = 0;
    for (int k = 0; k < 8; k++) {
        void *rv;
        pthread_join(th[k], &rv);
        bad += (long)rv;
    }
    CHECK(bad == 0, "8 concurrent sessions x 20 inserts, %ld failed", bad);
    treply r = {0};
    tconn_select(&c, "SELECT COUNT(*) FROM many", 4096, &r, NULL);
    char buf[32];
    CHECK(strcmp(treply_value(&r, 0, 0, buf, sizeof buf), "160") == 0, "160 rows (%s)", buf);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

static int run(const char *cmd) {
    int rc = system(cmd);
    return WIFEXITED(rc) ? WEXITSTATUS(rc) : -1;
}

/* A users file with a salted hash: its user logs in, the default does not. */
static void test_users(void) {
    ixd_proc p;
    snprintf(p.dir, sizeof p.dir, "/tmp/ixdusers.XXXXXX");
    if (!mkdtemp(p.dir)) return;
    char cmd[600];
    snprintf(cmd, sizeof cmd, "echo 'S3cret!' | %s --make-user alice > %s/users", IXD_BIN, p.dir);
    CHECK(run(cmd) == 0, "ixd --make-user writes a users line");
    snprintf(cmd, sizeof cmd, "grep -q 'S3cret' %s/users", p.dir);
    CHECK(run(cmd) != 0, "the password is not stored in clear");
    char users[300];
    snprintf(users, sizeof users, "%s/users", p.dir);
    const char *extra[] = {"--users", users, NULL};
    CHECK(ixd_start_args(&p, p.dir, extra) == 0, "ixd --users starts");
    tconn c;
    CHECK(p.port && tconn_login(&c, p.port, "alice", "S3cret!", "sysmaster") == 0,
          "users-file user logs in");
    tconn_close(&c);
    CHECK(tconn_login(&c, p.port, "alice", "wrong", NULL) == -951, "wrong password -951");
    tconn_close(&c);
    CHECK(tconn_login(&c, p.port, U, P, NULL) == -951, "default user gone with a users file");
    tconn_close(&c);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
}

/* TLS from the first byte: a self-signed certificate made with openssl. */
static void test_tls(void) {
    ixd_proc p;
    snprintf(p.dir, sizeof p.dir, "/tmp/ixdtls.XXXXXX");
    if (!mkdtemp(p.dir)) return;
    char cmd[800];
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost "
             "-keyout %s/key.pem -out %s/cert.pem >/dev/null 2>&1",
             p.dir, p.dir);
    CHECK(run(cmd) == 0, "openssl makes a test certificate");
    char cert[300], key[300];
    snprintf(cert, sizeof cert, "%s/cert.pem", p.dir);
    snprintf(key, sizeof key, "%s/key.pem", p.dir);
    const char *extra[] = {"--tls-cert", cert, "--tls-key", key, NULL};
    p.port = 0;
    ixd_start_args(&p, p.dir, extra);
    CHECK(p.port > 0, "ixd with TLS starts");
    /* A TLS client that verifies the server against the test certificate. */
    SSL_CTX *ctx = SSL_CTX_new(TLS_client_method());
    char ca[300];
    snprintf(ca, sizeof ca, "%s/cert.pem", p.dir);
    SSL_CTX_load_verify_locations(ctx, ca, NULL);
    SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER, NULL);
    tconn c;
    tconn_open(&c, p.port);
    SSL *ssl = SSL_new(ctx);
    SSL_set_fd(ssl, c.fd);
    SSL_set1_host(ssl, "localhost");
    CHECK(SSL_connect(ssl) == 1, "TLS handshake with certificate verification");
    ixp_conreq req;
    ixp_conreq_defaults(&req, U, P, "ixd");
    ixp_conreq_encode(&req, &c.out);
    SSL_write(ssl, c.out.data, (int)c.out.len);
    ixb_wbuf_reset(&c.out);
    uint8_t buf[4096];
    int n = SSL_read(ssl, buf, sizeof buf);
    ixp_sl_hdr h;
    CHECK(n > 0 && ixp_sl_peek(buf, (size_t)n, &h) == IX_OK && h.type == IXP_SL_CONACC,
          "login accepted over TLS");
    SSL_shutdown(ssl);
    SSL_free(ssl);
    SSL_CTX_free(ctx);
    tconn_close(&c);
    /* A plain client on the TLS port does not get in. */
    CHECK(tconn_login(&c, p.port, U, P, NULL) != 0, "plain SQLI on a TLS listener fails");
    tconn_close(&c);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
}

static void test_verbose(void) {
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, "--verbose") == 0, "ixd --verbose starts");
    tconn c;
    tconn_login(&c, p.port, U, P, "sysmaster");
    treply r = {0};
    tconn_select(&c, "SELECT FIRST 2 tabname FROM systables", 4096, &r, NULL);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
    ixd_stop(&p, SIGTERM);
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "grep -q '< SQ_PREPARE' %s/.ixd.log && grep -q '> SQ_DESCRIBE' %s/.ixd.log && "
             "grep -q '> SQ_TUPLE.*systables' %s/.ixd.log",
             p.dir, p.dir, p.dir);
    CHECK(run(cmd) == 0, "--verbose logs each message both ways with decoded values");
    ixd_rmdir(&p);
}

/* BYTE and TEXT: inserted through ixdb's bind form, fetched as descriptors,
 * and read back with SQ_FETCHBLOB in SQ_BLOB chunks. */
static void test_blobs(ixd_proc *p) {
    tconn c;
    CHECK(tconn_login(&c, p->port, U, P, "s2") == 0, "login");
    ok(&c, "CREATE TABLE bt (id INTEGER, b BYTE, t TEXT)");
    treply r = {0};
    int id = tconn_prepare(&c, "INSERT INTO bt VALUES (?, ?, ?)", 3, &r);
    size_t big = 70000;
    uint8_t *blob = malloc(4 + big), *txt = malloc(4 + 11);
    ixb_st32(blob, (uint32_t)big);
    for (size_t i = 0; i < big; i++)
        blob[4 + i] = (uint8_t)(i * 7);
    ixb_st32(txt, 11);
    memcpy(txt + 4, "hello, TEXT", 11);
    uint8_t one[4] = {0, 0, 0, 1};
    ixp_bindval v[3] = {{.type = IX_T_INTEGER, .value = {one, 4}},
                        {.type = IX_T_BYTE, .value = {blob, 4 + big}},
                        {.type = IX_T_TEXT, .value = {txt, 4 + 11}}};
    ixp_enc_id(&c.out, id);
    ixp_enc_bind(&c.out, v, 3);
    ixp_enc_tag(&c.out, IXP_SQ_EXECUTE);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    tconn_reply(&c, &r);
    CHECK(r.sqlcode == 0 && r.rows == 1, "BYTE/TEXT insert (%d %s)", r.sqlcode, r.errtext);
    ok(&c, "INSERT INTO bt (id) VALUES (2)");
    /* Open a cursor, fetch the rows, then the blobs by their descriptors. */
    id = tconn_prepare(&c, "SELECT b, t FROM bt ORDER BY id", 0, &r);
    CHECK(r.ncols == 2 && r.cols[0].code == IX_T_BYTE && r.cols[1].code == IX_T_TEXT,
          "described as BYTE and TEXT");
    ixp_enc_id(&c.out, id);
    ixp_enc_curname(&c.out, "cb", 2);
    ixp_enc_tag(&c.out, IXP_SQ_OPEN);
    ixp_enc_id(&c.out, id);
    ixp_enc_nfetch(&c.out, &c.caps, 4096);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    tconn_reply(&c, &r);
    CHECK(r.ntuples == 2, "two rows (%d)", r.ntuples);
    uint8_t desc[4][56];
    for (int row = 0; row < 2 && r.tuples.len >= 2 * (4 + 112); row++) {
        const uint8_t *t = r.tuples.data + row * (4 + 112) + 4;
        memcpy(desc[row * 2], t, 56);
        memcpy(desc[row * 2 + 1], t + 56, 56);
    }
    CHECK(ixb_be32(desc[0] + 8) == big && ixb_be32(desc[1] + 8) == 11, "descriptors carry sizes");
    CHECK(ixt_value_is_null((ixt_vtype){IX_T_BYTE, 56}, desc[2], 56) == 1 &&
              ixt_value_is_null((ixt_vtype){IX_T_BYTE, 56}, desc[0], 56) == 0,
          "NULL and non-NULL descriptors");
    for (int k = 0; k < 2; k++) {
        ixp_enc_id(&c.out, id);
        ixp_enc_fetchblob(&c.out, desc[k], 56);
        tconn_flush(&c); /* no EOT, as libsqli sends it */
        ixb_wbuf got;
        ixb_wbuf_init(&got, NULL);
        ixp_msg m;
        int chunks = 0, done = 0, ended = 0, after_end = 0;
        while (tconn_next(&c, &m) == IX_OK && m.tag != IXP_SQ_EOT) {
            if (m.tag == IXP_SQ_BLOB) {
                after_end |= ended;
                ended |= m.u.blob.n == 0;
                ixb_put_bytes(&got, m.u.blob.p, m.u.blob.n);
                chunks++;
            }
            done |= m.tag == IXP_SQ_DONE && ended;
        }
        const uint8_t *want = k == 0 ? blob + 4 : txt + 4;
        size_t wn = k == 0 ? big : 11;
        CHECK(done && got.len == wn && memcmp(got.data, want, wn) == 0,
              "FETCHBLOB %d returns the value (%zu bytes in %d chunks)", k, got.len, chunks);
        CHECK(ended && !after_end,
              "FETCHBLOB %d: a zero-length SQ_BLOB ends the value, before "
              "the DONE",
              k);
        ixb_wbuf_free(&got);
    }
    /* With an EOT after it (JDBC style): the EOT is swallowed, nothing extra. */
    ixp_enc_id(&c.out, id);
    ixp_enc_fetchblob(&c.out, desc[1], 56);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    tconn_reply(&c, &r);
    CHECK(has_blob(&r), "FETCHBLOB + EOT answered once");
    tconn_reply(&c, &r);
    CHECK(r.ntags == 1 && r.tags[0] == IXP_SQ_EOT, "a following lone EOT gets a lone EOT");
    free(blob);
    free(txt);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
}

/* Lengths over the configured limit end the session; others go on. */
static void test_limits(void) {
    ixd_proc p;
    CHECK(ixd_start2(&p, NULL, "--max-message", "4096") == 0, "ixd --max-message 4096 starts");
    tconn c, d;
    CHECK(tconn_login(&c, p.port, U, P, "sysmaster") == 0, "login");
    CHECK(tconn_login(&d, p.port, U, P, "sysmaster") == 0, "second login");
    char *sql = malloc(10000);
    memset(sql, ' ', 9999);
    memcpy(sql, "SELECT", 6);
    sql[9999] = 0;
    ixp_enc_prepare(&c.out, &c.caps, 0, sql, strlen(sql));
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    ixp_msg m;
    CHECK(tconn_next(&c, &m) != IX_OK && c.closed, "oversized SQL text ends the session");
    free(sql);
    treply r = {0};
    tconn_select(&d, "SELECT FIRST 1 tabname FROM systables", 4096, &r, NULL);
    CHECK(r.sqlcode == 0 && r.ntuples == 1, "the other session is untouched");
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
    tconn_close(&d);
    ixd_stop(&p, SIGTERM);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "grep -q 'exceeds limit' %s/.ixd.log", p.dir);
    CHECK(run(cmd) == 0, "the reason is logged");
    ixd_rmdir(&p);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, NULL) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    test_scroll_and_serials(&p);
    test_locks(&p);
    test_many(&p);
    test_blobs(&p);
    ixd_stop(&p, SIGTERM);
    if (!tap_fail)
        ixd_rmdir(&p);
    else
        fprintf(stderr, "data and log kept in %s\n", p.dir);
    test_users();
    test_tls();
    test_verbose();
    test_limits();
    return tap_done();
}
