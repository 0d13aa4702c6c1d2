/* test_ixd_limits_unit.c: ixd's login guards and output backpressure,
 * in-process: one key derivation for known and unknown users, the login
 * throttle on a made-up clock, the first check of a login packet (and the
 * smallest CONREQ), ixd_sess_input stopping at IXD_OUT_HIGH and
 * resuming, and strict mode's login check through the input probe. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "proto/ix_caps.h"
#include "proto/ix_login.h"
#include "proto/ix_reader.h"
#include "engine_run.h"
#include "server/session/ixd_server.h"
#include "tap.h"

/* ---- users ------------------------------------------------------------------ */

/* This thread's CPU time: a busy machine delays a check but does not make
 * it cost more CPU. */
static double secs(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int cmp_d(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static void test_users(void) {
    ixd_users *u;
    char err[128];
    CHECK(ixd_users_load(&u, NULL, err, sizeof err) == 0, "default users load");
    CHECK(ixd_users_check(u, "informix", "in4mix") == 1, "right password");
    CHECK(ixd_users_check(u, "informix", "nope") == -1, "wrong password");
    CHECK(ixd_users_check(u, "nobody", "in4mix") == 0, "unknown user");
    /* Medians of the CPU time of interleaved tries. An unknown user without
     * the key derivation takes microseconds, a known one milliseconds; a
     * factor of 4 either way still tells them apart. */
    enum { N = 9 };
    double unknown[N], wrong[N];
    for (int i = 0; i < N; i++) {
        double t0 = secs();
        ixd_users_check(u, "nobody", "guess");
        double t1 = secs();
        ixd_users_check(u, "informix", "guess");
        double t2 = secs();
        unknown[i] = t1 - t0;
        wrong[i] = t2 - t1;
    }
    qsort(unknown, N, sizeof *unknown, cmp_d);
    qsort(wrong, N, sizeof *wrong, cmp_d);
    double mu = unknown[N / 2], mw = wrong[N / 2];
    CHECK(mu * 4 > mw && mw * 4 > mu,
          "unknown user and wrong password cost the same (medians %.3f ms, %.3f ms)", mu * 1e3,
          mw * 1e3);
    /* A verified login is cached: the same user and password again skip the
     * derivation; a wrong password (also one that extends the right one)
     * still pays it in full, and still fails. */
    double right[N], miss[N];
    for (int i = 0; i < N; i++) {
        double t0 = secs();
        int ok = ixd_users_check(u, "informix", "in4mix");
        double t1 = secs();
        int bad = ixd_users_check(u, "informix", "in4mixx");
        double t2 = secs();
        right[i] = ok == 1 ? t1 - t0 : 1e9;
        miss[i] = bad == -1 ? t2 - t1 : 0;
    }
    qsort(right, N, sizeof *right, cmp_d);
    qsort(miss, N, sizeof *miss, cmp_d);
    CHECK(right[N / 2] * 20 < miss[N / 2],
          "a repeated right login skips the key derivation (medians %.3f ms, wrong %.3f ms)",
          right[N / 2] * 1e3, miss[N / 2] * 1e3);
    CHECK(miss[N / 2] * 4 > mw, "a wrong password after a cached one costs the full derivation");
    CHECK(ixd_users_check(u, "nobody", "in4mix") == 0, "unknown user after the cache");
    CHECK(ixd_users_check(u, "informix", "") == -1, "empty password after the cache");
    ixd_users_free(u);
}

/* The cache is bounded: more distinct verified logins than it holds
 * evict the oldest, and every one of them still checks. */
static void test_users_cache_bound(void) {
    char path[] = "/tmp/ixd_users_XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    CHECK(f != NULL, "temp users file");
    if (!f) return;
    enum { USERS = 70 };
    for (int i = 0; i < USERS; i++) {
        char name[16], pw[16], line[256];
        snprintf(name, sizeof name, "u%d", i);
        snprintf(pw, sizeof pw, "p%d", i);
        if (ixd_users_make_line(name, pw, line, sizeof line) == 0) fprintf(f, "%s\n", line);
    }
    fclose(f);
    ixd_users *u;
    char err[128];
    CHECK(ixd_users_load(&u, path, err, sizeof err) == 0, "users file loads");
    unlink(path);
    int all = 1;
    for (int round = 0; round < 2; round++)
        for (int i = 0; i < USERS; i++) {
            char name[16], pw[16];
            snprintf(name, sizeof name, "u%d", i);
            snprintf(pw, sizeof pw, "p%d", i);
            all &= ixd_users_check(u, name, pw) == 1;
            all &= ixd_users_check(u, name, "p") == -1;
        }
    CHECK(all, "%d users, each right and wrong, twice: every answer right", USERS);
    ixd_users_free(u);
}

/* ---- throttle ------------------------------------------------------------------ */

/* One failed attempt at time now; returns its wait. */
static long fail_at(ixd_throttle *t, const char *addr, int64_t now) {
    long w = ixd_throttle_begin(t, addr, now);
    if (w >= 0) ixd_throttle_end(t, addr, 0, now);
    return w;
}

static void test_throttle(void) {
    ixd_throttle *t = ixd_throttle_new();
    int64_t now = 1000000;
    int free_ok = 1;
    for (int i = 0; i < IXD_THROTTLE_FREE; i++)
        free_ok &= fail_at(t, "10.0.0.1", now++) == 0;
    CHECK(free_ok, "the first %d failures are not held back", IXD_THROTTLE_FREE);
    CHECK(fail_at(t, "10.0.0.1", now) == IXD_THROTTLE_BASE_MS, "then %d ms", IXD_THROTTLE_BASE_MS);
    now += 10000;
    CHECK(fail_at(t, "10.0.0.1", now) == 2 * IXD_THROTTLE_BASE_MS, "then twice that");
    CHECK(ixd_throttle_begin(t, "10.0.0.2", now) == 0, "another address is not held back");
    /* Parallel attempts queue: each waits for the slot after the last. */
    now += 10000;
    long a = ixd_throttle_begin(t, "10.0.0.1", now), b = ixd_throttle_begin(t, "10.0.0.1", now);
    CHECK(a == 4 * IXD_THROTTLE_BASE_MS && b == 8 * IXD_THROTTLE_BASE_MS,
          "parallel attempts queue (%ld, %ld)", a, b);
    ixd_throttle_end(t, "10.0.0.1", 0, now);
    ixd_throttle_end(t, "10.0.0.1", 0, now);
    now += 60000;
    long w = 0;
    int grew = 1, capped = 0;
    for (int i = 0; i < 12 && w >= 0; i++, now += 60000) {
        long nw = fail_at(t, "10.0.0.1", now);
        grew &= nw >= w || nw < 0;
        capped |= nw == IXD_THROTTLE_CAP_MS;
        w = nw;
    }
    CHECK(grew && capped, "the delay grows up to %d ms", IXD_THROTTLE_CAP_MS);
    /* Queued attempts past IXD_THROTTLE_MAX_WAIT_MS are refused outright. */
    int refused = 0;
    for (int i = 0; i < 4; i++)
        refused |= ixd_throttle_begin(t, "10.0.0.1", now) < 0;
    CHECK(refused, "a queue longer than %d ms is refused", IXD_THROTTLE_MAX_WAIT_MS);
    now += 60000;
    CHECK(ixd_throttle_begin(t, "10.0.0.1", now) > 0, "still held back");
    ixd_throttle_end(t, "10.0.0.1", 1, now);
    CHECK(ixd_throttle_begin(t, "10.0.0.1", now) == 0, "a success forgets the address");
    for (int i = 0; i < 8; i++)
        fail_at(t, "10.0.0.3", now);
    now += IXD_THROTTLE_WINDOW_MS;
    CHECK(ixd_throttle_begin(t, "10.0.0.3", now) == 0, "failures expire after the window");
    /* A full table forgets the stalest address, never grows. */
    char addr[32];
    for (int i = 0; i < IXD_THROTTLE_SLOTS + 10; i++) {
        snprintf(addr, sizeof addr, "10.1.%d.%d", i / 256, i % 256);
        fail_at(t, addr, now + i);
    }
    for (int i = 0; i < IXD_THROTTLE_FREE; i++)
        fail_at(t, addr, now + 100000);
    CHECK(ixd_throttle_begin(t, addr, now + 100000) > 0, "the table still works when full");
    CHECK(ixd_throttle_begin(NULL, addr, now) == 0, "no throttle: no wait");
    ixd_throttle_free(t);
}

/* ---- login header ------------------------------------------------------------ */

static void test_login_header(void) {
    ixp_conreq r;
    memset(&r, 0, sizeof r); /* every string empty, no environment, no 107/116 */
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    CHECK(ixp_conreq_encode(&r, &w) == IX_OK && w.len == IXD_LOGIN_MIN_LEN,
          "the smallest CONREQ is %d bytes (%zu)", IXD_LOGIN_MIN_LEN, w.len);
    ixp_conreq back;
    CHECK(ixp_conreq_decode(w.data, w.len, NULL, &back, NULL, NULL, NULL) == IX_OK, "and decodes");
    CHECK(ixd_login_header_why(w.data, w.len) == NULL, "and passes the header check");
    for (size_t n = 0; n <= 4; n++)
        CHECK(ixd_login_header_why(w.data, n) == NULL, "its first %zu bytes pass", n);
    uint8_t b[4];
    ixb_st16(b, IXD_LOGIN_MIN_LEN - 1);
    CHECK(ixd_login_header_why(b, 2) != NULL, "one byte less is refused on 2 bytes");
    ixb_st16(b, IXD_LOGIN_MAX_LEN + 1);
    CHECK(ixd_login_header_why(b, 2) != NULL, "over the limit is refused on 2 bytes");
    static const uint8_t exit_tag[2] = {0x00, 0x38}, conacc[3] = {0x01, 0x00, IXP_SL_CONACC};
    CHECK(ixd_login_header_why(exit_tag, 2) != NULL, "00 38 is refused");
    CHECK(ixd_login_header_why(conacc, 3) != NULL, "a CONACC from a client is refused");
    ixb_wbuf_reset(&w);
    ixp_conreq_defaults(&r, "informix", "in4mix", "ixd");
    for (int i = 0; i < IXP_LOGIN_MAXENV - 4; i++) /* a full environment */
        r.env[r.nenv++] = (ixp_login_env){ixp_ascstr_of("IFX_SOME_LONG_VARIABLE_NAME"),
                                          ixp_ascstr_of("/some/long/value/of/a/path/that/is/long")};
    CHECK(ixp_conreq_encode(&r, &w) == IX_OK && ixd_login_header_why(w.data, w.len) == NULL,
          "a CONREQ with %d environment pairs passes (%zu bytes)", r.nenv, w.len);
    ixb_wbuf_free(&w);
}

/* ---- backpressure --------------------------------------------------------------- */

enum { FETCHES = 1000, ROWS_PER_FETCH = 8 };

/* Feeds `in` to a session and then resumes while it says IXD_SESS_MORE;
 * counts the tuples and EOTs of the whole output. Returns the last rc. */
static int drive(ixd_sess *s, const ixb_wbuf *in, size_t *largest, int *more, int *tuples,
                 int *eots, const ixp_caps *caps) {
    ixp_reader rd;
    ixp_reader_init(&rd, IXP_FROM_SERVER, NULL);
    rd.expect_login = 1;
    ixb_wbuf out;
    ixb_wbuf_init(&out, NULL);
    int rc = ixd_sess_input(s, in->data, in->len, &out);
    for (;;) {
        if (out.len > *largest) *largest = out.len;
        ixp_reader_feed(&rd, out.data, out.len);
        ixp_msg m;
        while (ixp_reader_next(&rd, &m) == IX_OK) {
            if (m.tag == IXP_MSG_LOGIN) rd.caps = *caps;
            *tuples += m.tag == IXP_SQ_TUPLE;
            *eots += m.tag == IXP_SQ_EOT;
        }
        if (rc != IXD_SESS_MORE) break;
        (*more)++;
        ixb_wbuf_reset(&out);
        rc = ixd_sess_input(s, NULL, 0, &out);
    }
    ixb_wbuf_free(&out);
    ixp_reader_free(&rd);
    return rc;
}

/* The login packet and the SQ_PROTOCOLS group (the JDBC offer). */
static void login_bytes(ixb_wbuf *in) {
    ixp_conreq req;
    ixp_conreq_defaults(&req, "informix", "in4mix", "ixd");
    ixp_conreq_encode(&req, in);
    ixp_enc_protocols(in, ixp_caps_jdbc_offer, sizeof ixp_caps_jdbc_offer);
    ixp_enc_tag(in, IXP_SQ_EOT);
}

static void test_backpressure(void) {
    char dir[64], cmd[128];
    snprintf(dir, sizeof dir, "/tmp/ixd_test_limits_%d", (int)getpid());
    ixd_engine *E = NULL;
    ixd_db *D = NULL;
    ixv_err e = {0};
    if (ixd_engine_open(&E, dir, &e)) {
        CHECK(0, "engine opens in %s (%d)", dir, e.sqlcode);
        return;
    }
    int bad = engine_run(E, &D, "CREATE DATABASE bp WITH LOG") ||
              engine_run(E, &D, "CREATE TABLE t10 (n INTEGER)") ||
              engine_run(E, &D, "CREATE TABLE padt (pad CHAR(500))") ||
              engine_run(E, &D, "INSERT INTO padt VALUES ('x')");
    for (int i = 0; i < 25 && !bad; i++) /* 25^3 rows below */
        bad = engine_run(E, &D, "INSERT INTO t10 VALUES (1)");
    CHECK(!bad, "set up");
    ixd_db_close(D);
    ixd_server srv = {.data_dir = dir, .server_name = "ixd", .banner = "test", .engine = E};
    pthread_mutex_init(&srv.log_lock, NULL);
    char err[128];
    ixd_users_load(&srv.users, NULL, err, sizeof err);
    if (!freopen("/dev/null", "w", stderr)) return; /* the session logs */
    uint8_t ans[IXP_CAPS_ANSWER_LEN];
    ixp_caps caps =
        ixp_caps_answer(ixp_caps_jdbc_offer, sizeof ixp_caps_jdbc_offer, ixp_caps_ixd, ans);
    for (int grouped = 0; grouped < 2; grouped++) {
        ixb_wbuf in;
        ixb_wbuf_init(&in, NULL);
        login_bytes(&in);
        ixp_enc_dbopen(&in, "bp", 2, 0);
        ixp_enc_tag(&in, IXP_SQ_EOT);
        /* 25^3 rows of 500 bytes; 8 fit a 4096-byte buffer */
        const char *sql = "SELECT p.pad FROM t10 a, t10 b, t10 c, padt p";
        ixp_enc_prepare(&in, &caps, 0, sql, strlen(sql));
        ixp_enc_tag(&in, IXP_SQ_EOT);
        ixp_enc_id(&in, 0);
        ixp_enc_curname(&in, "c1", 2);
        ixp_enc_tag(&in, IXP_SQ_OPEN);
        ixp_enc_tag(&in, IXP_SQ_EOT);
        for (int i = 0; i < FETCHES; i++) { /* grouped: one group of FETCHES NFETCHes */
            ixp_enc_id(&in, 0);
            ixp_enc_nfetch(&in, &caps, 4096);
            if (!grouped || i == FETCHES - 1) ixp_enc_tag(&in, IXP_SQ_EOT);
        }
        ixd_sess *s = ixd_sess_new(&srv, 1, "127.0.0.1:1");
        size_t largest = 0;
        int more = 0, tuples = 0, eots = 0;
        int rc = drive(s, &in, &largest, &more, &tuples, &eots, &caps);
        int want_eots = 4 + (grouped ? 1 : FETCHES);
        CHECK(rc == 0 && more > 0 && largest < IXD_OUT_HIGH + 8192,
              "%s: input stops at IXD_OUT_HIGH and resumes (rc %d, %d stops, largest out %zu)",
              grouped ? "one group" : "groups", rc, more, largest);
        CHECK(tuples == FETCHES * ROWS_PER_FETCH && eots == want_eots,
              "%s: every reply comes (%d tuples, %d EOTs)", grouped ? "one group" : "groups",
              tuples, eots);
        ixd_sess_free(s, "done");
        ixb_wbuf_free(&in);
    }
    ixd_users_free(srv.users);
    ixd_engine_close(E);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) printf("cannot remove %s\n", dir);
}

/* The input probe strict mode's login check asks (ixd_sess_set_input_probe):
 * *ud says whether the client has more bytes on its socket. */
static int probe(void *ud) {
    return *(int *)ud;
}

/* Feeds in[0..n) to s; the number of messages of the reply (after a login
 * answer, when login is set), -1 when ixd_sess_input fails. */
static int replies(ixd_sess *s, const ixb_wbuf *in, int login) {
    ixb_wbuf out;
    ixb_wbuf_init(&out, NULL);
    int rc = ixd_sess_input(s, in->data, in->len, &out), n = 0;
    ixp_reader rd;
    ixp_reader_init(&rd, IXP_FROM_SERVER, NULL);
    rd.expect_login = login;
    ixp_reader_feed(&rd, out.data, out.len);
    ixp_msg m;
    while (ixp_reader_next(&rd, &m) == IX_OK)
        n++;
    ixp_reader_free(&rd);
    ixb_wbuf_free(&out);
    return rc == 0 ? n : -1;
}

/* Strict mode's login flight, through the listener's probe: the bytes of
 * the next login group are on the socket (not yet read) when the SQ_PROTOCOLS
 * group has been read. It is answered; the SQ_INFO group that follows is
 * not (nor is anything after it). Without the probe saying so, or without
 * --strict, SQ_INFO is answered (its EOT). */
static void test_strict_probe(void) {
    ixd_server srv = {.server_name = "ixd", .banner = "test"};
    pthread_mutex_init(&srv.log_lock, NULL);
    char err[128];
    ixd_users_load(&srv.users, NULL, err, sizeof err);
    for (int k = 0; k < 3; k++) {
        int strict = k > 0, waiting = k < 2; /* strict+waiting, strict, waiting */
        srv.strict = strict;
        ixd_sess *s = ixd_sess_new(&srv, 1, "127.0.0.1:1");
        ixd_sess_set_input_probe(s, probe, &waiting);
        ixb_wbuf in;
        ixb_wbuf_init(&in, NULL);
        login_bytes(&in);
        int n = replies(s, &in, 1);
        CHECK(n == 3, "strict %d, bytes waiting %d: login and PROTOCOLS answered (%d messages)",
              strict, waiting, n);
        ixb_wbuf_reset(&in);
        ixp_bytes key = {(const uint8_t *)"DBTEMP", 6}, val = {(const uint8_t *)"/tmp", 4};
        ixp_enc_info(&in, &key, &val, 1);
        ixp_enc_tag(&in, IXP_SQ_EOT);
        int want = strict && waiting ? 0 : 1;
        n = replies(s, &in, 0);
        CHECK(n == want, "strict %d, bytes waiting %d: INFO answered with %d messages (want %d)",
              strict, waiting, n, want);
        n = replies(s, &in, 0);
        CHECK(n == want, "strict %d, bytes waiting %d: a second INFO: %d messages (want %d)",
              strict, waiting, n, want);
        ixd_sess_free(s, "done");
        ixb_wbuf_free(&in);
    }
    ixd_users_free(srv.users);
}

int main(void) {
    test_users();
    test_users_cache_bound();
    test_throttle();
    test_login_header();
    test_backpressure();
    test_strict_probe();
    return tap_done();
}
