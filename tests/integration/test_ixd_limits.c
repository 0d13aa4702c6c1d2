/*
 * Integration tests of ixd's resource limits, each against a real ixd:
 * the login deadline (silent, slow-drip and truncated logins), login
 * packets refused at once, the idle timeout of a session (its transaction
 * rolls back), the connection cap (CONREJ -25571), accept() running out of
 * descriptors (pause, no spinning, recovery), the login throttle per peer
 * address and one code for unknown user and wrong password, the reply-size
 * cap of NFETCH/SFETCH, and output backpressure on a client that pipelines
 * without reading.
 */
#define _GNU_SOURCE /* prlimit */
#include <pthread.h>
#include <sys/resource.h>

#include "harness.h"
#include "tap.h"

static const char *U = "informix", *P = "in4mix";

enum { IXD_THROTTLE_FREE_N = 5 }; /* failed logins not held back (docs/server.md) */

/* ---- helpers ------------------------------------------------------------- */

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void sleep_ms(int ms) {
    nanosleep(&(struct timespec){ms / 1000, (long)(ms % 1000) * 1000000L}, NULL);
}

/* A TCP connection to the port, from source address src (NULL: any). */
static int raw_connect(int port, const char *src) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return -1;
    if (src) {
        struct sockaddr_in s = {.sin_family = AF_INET};
        inet_pton(AF_INET, src, &s.sin_addr);
        if (bind(fd, (struct sockaddr *)&s, sizeof s) != 0) {
            close(fd);
            return -1;
        }
    }
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

/* Waits up to ms for the server to close fd (EOF or reset), discarding what
 * it sends. Returns the seconds waited, or -1 if fd is still open. */
static double wait_closed(int fd, int ms) {
    double t0 = now_s();
    for (;;) {
        int left = ms - (int)((now_s() - t0) * 1000);
        if (left <= 0) return -1;
        struct pollfd pf = {fd, POLLIN, 0};
        if (poll(&pf, 1, left) <= 0) continue;
        char b[4096];
        ssize_t n = recv(fd, b, sizeof b, 0);
        if (n <= 0) return now_s() - t0;
    }
}

static void send_all(int fd, const void *p, size_t n) {
    const uint8_t *b = p;
    while (n > 0) {
        ssize_t w = send(fd, b, n, MSG_NOSIGNAL);
        if (w <= 0) return;
        b += w;
        n -= (size_t)w;
    }
}

/* The CONREQ packet a client sends. */
static void make_conreq(ixb_wbuf *w, const char *user, const char *pw) {
    ixp_conreq req;
    ixp_conreq_defaults(&req, user, pw, "ixd");
    ixb_wbuf_init(w, NULL);
    ixp_conreq_encode(&req, w);
}

/* Logs in from source address src and returns the svc_error (0 accepted),
 * or -9999 when no answer came. *secs: how long the answer took. With
 * half_close, the client shuts its sending side after the CONREQ. */
static int login_hc(int port, const char *src, const char *user, const char *pw, double *secs,
                    int half_close) {
    double t0 = now_s();
    int fd = raw_connect(port, src);
    if (fd < 0) return -9999;
    ixb_wbuf w;
    make_conreq(&w, user, pw);
    send_all(fd, w.data, w.len);
    ixb_wbuf_free(&w);
    if (half_close) shutdown(fd, SHUT_WR);
    ixp_reader rd;
    ixp_reader_init(&rd, IXP_FROM_SERVER, NULL);
    int svc = -9999;
    for (;;) {
        ixp_msg m;
        if (ixp_reader_next(&rd, &m) == IX_OK) {
            ixp_conacc acc;
            if (m.tag == IXP_MSG_LOGIN && ixp_conacc_decode(m.u.login.packet.p, m.u.login.packet.n,
                                                            NULL, &acc, NULL, NULL, NULL) == IX_OK)
                svc = acc.svc_error;
            break;
        }
        struct pollfd pf = {fd, POLLIN, 0};
        uint8_t b[4096];
        ssize_t n = poll(&pf, 1, 40000) > 0 ? recv(fd, b, sizeof b, 0) : 0;
        if (n <= 0) break;
        ixp_reader_feed(&rd, b, (size_t)n);
    }
    if (secs) *secs = now_s() - t0;
    ixp_reader_free(&rd);
    close(fd);
    return svc;
}

static int login_from(int port, const char *src, const char *user, const char *pw, double *secs) {
    return login_hc(port, src, user, pw, secs, 0);
}

/* A field of /proc/PID/status in kB (VmRSS, VmHWM). */
static long proc_kb(pid_t pid, const char *field) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kb = -1;
    size_t fl = strlen(field);
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, field, fl) == 0 && line[fl] == ':') kb = atol(line + fl + 1);
    if (f) fclose(f);
    return kb;
}

/* User + system CPU seconds of a process (/proc/PID/stat fields 14, 15). */
static double proc_cpu(pid_t pid) {
    char path[64], buf[2048];
    snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
    FILE *f = fopen(path, "r");
    if (!f) return -1;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')'); /* the command name may hold spaces */
    unsigned long ut = 0, st = 0;
    if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u %lu %lu", &ut, &st) != 2)
        return -1;
    return (double)(ut + st) / (double)sysconf(_SC_CLK_TCK);
}

static int open_fds(pid_t pid) {
    char cmd[96];
    snprintf(cmd, sizeof cmd, "ls /proc/%d/fd | wc -l", (int)pid);
    FILE *f = popen(cmd, "r");
    int n = -1;
    if (f && fscanf(f, "%d", &n) != 1) n = -1;
    if (f) pclose(f);
    return n;
}

/* Occurrences of needle in the server's log. */
static int log_count(const ixd_proc *p, const char *needle) {
    FILE *f = fopen(p->log, "r");
    int n = 0;
    char line[4096];
    while (f && fgets(line, sizeof line, f))
        if (strstr(line, needle)) n++;
    if (f) fclose(f);
    return n;
}

static void exec_ok(tconn *c, const char *sql) {
    treply r = {0};
    int rc = tconn_command(c, sql, &r);
    CHECK(rc == 0 && r.sqlcode == 0, "%s -> %d %s", sql, r.sqlcode, r.errtext);
    ixb_wbuf_free(&r.tuples);
}

static int start(ixd_proc *p, const char *const *args) {
    int rc = ixd_start_args(p, NULL, args);
    CHECK(rc == 0, "ixd starts (%s ...)", args && args[0] ? args[0] : "defaults");
    return rc;
}

static void stop(ixd_proc *p) {
    ixd_stop(p, SIGTERM);
    if (!tap_fail)
        ixd_rmdir(p);
    else
        fprintf(stderr, "data and log kept in %s\n", p->dir);
}

/* ---- 1, 2: login deadline and idle timeout --------------------------------- */

/* Sends a whole CONREQ one byte every 100 ms until the server closes. */
static void *slow_drip(void *arg) {
    int fd = *(int *)arg;
    ixb_wbuf w;
    make_conreq(&w, U, P);
    for (size_t i = 0; i < w.len; i++) {
        if (send(fd, w.data + i, 1, MSG_NOSIGNAL) != 1) break;
        sleep_ms(100);
    }
    ixb_wbuf_free(&w);
    return NULL;
}

static void test_deadlines(void) {
    ixd_proc p;
    const char *args[] = {"--login-timeout", "1", "--idle-timeout", "1", NULL};
    if (start(&p, args)) return;
    /* A session in a transaction that goes idle, and one that stays busy. */
    tconn idle, busy;
    CHECK(tconn_login(&idle, p.port, U, P, NULL) == 0, "idle session logs in");
    exec_ok(&idle, "CREATE DATABASE lim WITH LOG");
    exec_ok(&idle, "DATABASE lim");
    exec_ok(&idle, "CREATE TABLE t (id INTEGER)");
    exec_ok(&idle, "BEGIN WORK");
    exec_ok(&idle, "INSERT INTO t VALUES (1)");
    CHECK(tconn_login(&busy, p.port, U, P, "lim") == 0, "busy session logs in");
    /* Three logins that never complete: silent, a slow drip, a packet cut
     * short of the length its header declares. */
    int silent = raw_connect(p.port, NULL), drip = raw_connect(p.port, NULL),
        cut = raw_connect(p.port, NULL);
    pthread_t th;
    pthread_create(&th, NULL, slow_drip, &drip);
    ixb_wbuf w;
    make_conreq(&w, U, P);
    send_all(cut, w.data, w.len - 10);
    ixb_wbuf_free(&w);
    double t0 = now_s();
    int busy_ok = 1;
    while (now_s() - t0 < 2.5) { /* the busy session asks every 300 ms */
        treply r = {0};
        busy_ok &= tconn_select(&busy, "SELECT id FROM t", 4096, &r, NULL) == 0;
        ixb_wbuf_free(&r.tuples);
        sleep_ms(300);
    }
    CHECK(busy_ok, "a session that keeps asking is never idle");
    double ts = wait_closed(silent, 1500), td = wait_closed(drip, 100), tc = wait_closed(cut, 100);
    CHECK(ts >= 0 && td >= 0 && tc >= 0,
          "silent, slow-drip and truncated logins are closed after the 1 s login deadline "
          "(%.2f %.2f %.2f)",
          ts, td, tc);
    shutdown(drip, SHUT_RDWR); /* ends the drip if the server did not */
    pthread_join(th, NULL);
    close(silent), close(drip), close(cut);
    CHECK(log_count(&p, "session ends: login timeout") == 3, "three login timeouts logged (%d)",
          log_count(&p, "session ends: login timeout"));
    CHECK(wait_closed(idle.fd, 1500) >= 0, "the idle session has been ended");
    CHECK(log_count(&p, "session ends: idle timeout") == 1 &&
              log_count(&p, "open transaction rolled back") == 1,
          "idle timeout logged, its transaction rolled back");
    treply r = {0};
    CHECK(tconn_select(&busy, "SELECT id FROM t", 4096, &r, NULL) == 0 && r.ntuples == 0,
          "the idle session's insert was rolled back (%d rows)", r.ntuples);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&idle);
    tconn_close(&busy);
    stop(&p);
}

/* ---- 4: login packets refused at once -------------------------------------- */

static void test_bad_login_header(void) {
    ixd_proc p;
    if (start(&p, NULL)) return; /* the default 10 s login deadline */
    static const struct {
        const char *what;
        uint8_t b[4];
        size_t n;
    } cases[] = {
        {"00 38 (an SQ_EXIT before login)", {0x00, 0x38}, 2},
        {"declared length 103, one short of the smallest CONREQ", {0x00, 0x67}, 2},
        {"declared length 0xFFFF", {0xff, 0xff}, 2},
        {"SL type 2 (CONACC) from a client", {0x01, 0x00, 0x02, 0x3c}, 4},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int fd = raw_connect(p.port, NULL);
        send_all(fd, cases[i].b, cases[i].n);
        double t = wait_closed(fd, 5000);
        CHECK(t >= 0 && t < 3.0, "%s: closed at once, not at the 10 s deadline (%.2f s)",
              cases[i].what, t);
        close(fd);
    }
    CHECK(log_count(&p, "login refused") == 4, "each refusal logged (%d)",
          log_count(&p, "login refused"));
    tconn c;
    CHECK(tconn_login(&c, p.port, U, P, NULL) == 0, "a real login is still accepted");
    tconn_close(&c);
    stop(&p);
}

/* ---- 3: connection cap ----------------------------------------------------- */

static void test_max_connections(void) {
    ixd_proc p;
    const char *args[] = {"--max-connections", "2", NULL};
    if (start(&p, args)) return;
    tconn a, b, c;
    CHECK(tconn_login(&a, p.port, U, P, NULL) == 0, "first session");
    CHECK(tconn_login(&b, p.port, U, P, NULL) == 0, "second session");
    int rc = tconn_login(&c, p.port, U, P, NULL);
    CHECK(rc == -25571, "third gets -25571 (%d)", rc);
    CHECK(wait_closed(c.fd, 2000) >= 0, "and is closed");
    tconn_close(&c);
    rc = tconn_login(&c, p.port, U, P, NULL);
    CHECK(rc == -25571, "so is a fourth (%d)", rc);
    tconn_close(&c);
    tconn_close(&a);
    rc = -1;
    for (int i = 0; i < 100 && rc != 0; i++) { /* the server notices a's close */
        tconn_close(&c);
        rc = tconn_login(&c, p.port, U, P, NULL);
        if (rc) sleep_ms(20);
    }
    CHECK(rc == 0, "a slot freed is taken again (%d)", rc);
    tconn_close(&b);
    tconn_close(&c);
    CHECK(log_count(&p, "connection limit (2) reached") == 1, "the limit is logged once");
    stop(&p);
}

/* ---- 5: accept() out of descriptors ---------------------------------------- */

static void test_emfile(void) {
    ixd_proc p;
    const char *args[] = {"--max-connections", "1000", "--login-timeout", "30", NULL};
    if (start(&p, args)) return;
    int have = open_fds(p.pid);
    struct rlimit rl = {(rlim_t)have + 6, (rlim_t)have + 6};
    CHECK(have > 0 && prlimit(p.pid, RLIMIT_NOFILE, &rl, NULL) == 0,
          "descriptor limit of ixd lowered to %d", have + 6);
    enum { N = 40 };
    int fds[N];
    for (int i = 0; i < N; i++)
        fds[i] = raw_connect(p.port, NULL);
    sleep_ms(300); /* ixd runs out of descriptors */
    double cpu0 = proc_cpu(p.pid), t0 = now_s();
    sleep_ms(1500);
    double cpu = proc_cpu(p.pid) - cpu0, wall = now_s() - t0;
    CHECK(cpu >= 0 && cpu < 0.25 * wall,
          "no spinning while out of descriptors (%.2f s CPU in %.2f s)", cpu, wall);
    CHECK(log_count(&p, "cannot accept connections") == 1, "logged once per episode (%d)",
          log_count(&p, "cannot accept connections"));
    for (int i = 0; i < N; i++)
        close(fds[i]);
    int rc = -1;
    for (int i = 0; i < 60 && rc != 0; i++) {
        tconn c;
        rc = tconn_login(&c, p.port, U, P, NULL);
        tconn_close(&c);
        if (rc) sleep_ms(50);
    }
    CHECK(rc == 0, "it serves again once the descriptors are back (%d)", rc);
    CHECK(log_count(&p, "accepting connections again") >= 1, "recovery logged");
    stop(&p);
}

/* ---- 6: login throttle and login codes ---------------------------------------- */

typedef struct bg_login {
    int port, svc, done;
    double secs;
} bg_login;

static void *bg_right_login(void *arg) {
    bg_login *b = arg;
    b->svc = login_from(b->port, "127.0.0.1", U, P, &b->secs);
    __atomic_store_n(&b->done, 1, __ATOMIC_SEQ_CST);
    return NULL;
}

/* Lower bounds are the server's own delays; upper bounds leave a loaded
 * machine room (a login takes milliseconds). */
static void test_throttle(void) {
    ixd_proc p;
    if (start(&p, NULL)) return;
    double t, t0 = now_s();
    int unknown = login_from(p.port, "127.0.0.1", "nobody", P, &t);
    int wrong = login_from(p.port, "127.0.0.1", U, "wrong", &t);
    CHECK(unknown == -951 && wrong == -951, "unknown user and wrong password both get -951 (%d %d)",
          unknown, wrong);
    int all = 1;
    for (int i = 0; i < 3; i++) /* failures 3, 4, 5 */
        all &= login_from(p.port, "127.0.0.1", U, "wrong", &t) == -951;
    t = now_s() - t0;
    CHECK(all && t < 1.0, "the first five failures are answered at once (%.3f s)", t);
    int svc = login_from(p.port, "127.0.0.1", U, "wrong", &t);
    CHECK(svc == -951 && t >= 0.24, "the sixth attempt is held back 250 ms (%.3f s)", t);
    svc = login_from(p.port, "127.0.0.1", U, "wrong", &t);
    CHECK(svc == -951 && t >= 0.49, "the seventh 500 ms (%.3f s)", t);
    bg_login b = {.port = p.port};
    pthread_t th;
    pthread_create(&th, NULL, bg_right_login, &b);
    sleep_ms(100); /* b's answer is being held back now */
    svc = login_from(p.port, "127.0.0.2", U, P, &t);
    CHECK(svc == 0 && !__atomic_load_n(&b.done, __ATOMIC_SEQ_CST),
          "another address logs in meanwhile, unaffected (%d, %.3f s)", svc, t);
    pthread_join(th, NULL);
    CHECK(b.svc == 0 && b.secs >= 0.99, "a right password waits its turn too, 1 s (%d, %.3f s)",
          b.svc, b.secs);
    svc = login_from(p.port, "127.0.0.1", U, "wrong", &t);
    CHECK(svc == -951 && t < 0.8, "the success reset the address: not held back 1 s (%.3f s)", t);
    /* Hanging up early does not fetch a held-back answer sooner. */
    for (int i = 0; i < IXD_THROTTLE_FREE_N; i++)
        login_from(p.port, "127.0.0.3", U, "wrong", &t);
    svc = login_hc(p.port, "127.0.0.3", U, "wrong", &t, 1);
    CHECK(svc == -9999, "a client that half-closes while held back gets no answer (%d)", svc);
    CHECK(log_count(&p, "ms (failed logins)") == 4, "four held-back logins logged (%d)",
          log_count(&p, "ms (failed logins)"));
    stop(&p);
}

/* ---- 7a: reply-size cap ------------------------------------------------------ */

static void test_max_reply(void) {
    ixd_proc p;
    const char *args[] = {"--max-reply", "4096", NULL};
    if (start(&p, args)) return;
    tconn c;
    CHECK(tconn_login(&c, p.port, U, P, NULL) == 0, "login");
    exec_ok(&c, "CREATE DATABASE rc WITH LOG");
    exec_ok(&c, "DATABASE rc");
    exec_ok(&c, "CREATE TABLE t10 (n INTEGER)");
    for (int i = 0; i < 10; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "INSERT INTO t10 VALUES (%d)", i);
        exec_ok(&c, sql);
    }
    exec_ok(&c, "CREATE TABLE w (pad CHAR(200), big CHAR(5000))");
    exec_ok(&c, "INSERT INTO w VALUES ('x', 'y')");
    /* 100 rows of 200 bytes, asked with a 2^31-1 byte buffer. */
    const char *sql = "SELECT p.pad FROM t10 a, t10 b, w p";
    treply r = {0};
    int id = tconn_prepare(&c, sql, 0, &r);
    ixp_enc_id(&c.out, id);
    ixp_enc_curname(&c.out, "cur1", 4);
    ixp_enc_tag(&c.out, IXP_SQ_OPEN);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    tconn_reply(&c, &r);
    ixp_enc_id(&c.out, id);
    ixp_enc_nfetch(&c.out, &c.caps, INT32_MAX);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    CHECK(tconn_reply(&c, &r) == 0 && r.sqlcode == 0, "NFETCH answered");
    size_t bytes = r.tuples.len - 4 * (size_t)r.ntuples;
    CHECK(r.ntuples >= 1 && r.ntuples <= 20 && bytes <= 4096,
          "NFETCH of 2^31-1 bytes gets at most 4096 tuple bytes (%d tuples, %zu bytes)", r.ntuples,
          bytes);
    ixp_enc_id(&c.out, id);
    ixp_enc_tag(&c.out, IXP_SQ_CLOSE);
    ixp_enc_tag(&c.out, IXP_SQ_RELEASE);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    tconn_reply(&c, &r);
    int trips = 0;
    CHECK(tconn_select(&c, sql, INT32_MAX, &r, &trips) == 0 && r.ntuples == 100 && trips >= 5,
          "fetching again gets all 100 rows (%d in %d trips)", r.ntuples, trips);
    CHECK(tconn_select(&c, "SELECT big FROM t10, w", INT32_MAX, &r, &trips) == 0 &&
              r.ntuples == 10 && trips >= 10,
          "a row larger than the cap still comes, one per reply (%d in %d trips)", r.ntuples,
          trips);
    /* SFETCH NEXT on a scroll cursor. */
    id = tconn_prepare(&c, sql, 0, &r);
    ixp_enc_id(&c.out, id);
    ixp_enc_curname(&c.out, "cur2", 4);
    ixp_enc_tag(&c.out, IXP_SQ_SCROLL);
    ixp_enc_tag(&c.out, IXP_SQ_OPEN);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    tconn_reply(&c, &r);
    ixp_enc_id(&c.out, id);
    ixp_enc_sfetch(&c.out, &c.caps, IXP_FETCH_NEXT, 0, INT32_MAX);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    CHECK(tconn_reply(&c, &r) == 0 && r.sqlcode == 0 && r.ntuples >= 1 && r.ntuples <= 20,
          "SFETCH NEXT of 2^31-1 bytes gets at most 4096 tuple bytes (%d tuples)", r.ntuples);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
    stop(&p);
}

/* ---- 7b: output backpressure ------------------------------------------------- */

enum { GROUPS = 20000, ROWS_PER_FETCH = 8 };

/* Sends what it can of out[*off..len) without blocking; returns 1 if any. */
static int send_some(int fd, const ixb_wbuf *out, size_t *off) {
    ssize_t n = send(fd, out->data + *off, out->len - *off, MSG_NOSIGNAL | MSG_DONTWAIT);
    if (n <= 0) return 0;
    *off += (size_t)n;
    return 1;
}

/* Checks one NFETCH reply: ROWS_PER_FETCH tuples whose first column counts
 * on from *next. d: the cursor's describe. */
static int reply_in_order(treply *r, const treply *d, int *next) {
    if (r->sqlcode || r->ntuples != ROWS_PER_FETCH) return 0;
    r->ncols = d->ncols;
    memcpy(r->cols, d->cols, sizeof d->cols);
    for (int i = 0; i < r->ntuples; i++) {
        char buf[64];
        if (atol(treply_value(r, i, 0, buf, sizeof buf)) != (*next)++) return 0;
    }
    return 1;
}

static void test_backpressure(void) {
    ixd_proc p;
    if (start(&p, NULL)) return;
    tconn c;
    CHECK(tconn_login(&c, p.port, U, P, NULL) == 0, "login");
    exec_ok(&c, "CREATE DATABASE bp WITH LOG");
    exec_ok(&c, "DATABASE bp");
    exec_ok(&c, "CREATE TABLE t10 (n INTEGER)");
    for (int i = 0; i < 10; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "INSERT INTO t10 VALUES (%d)", i);
        exec_ok(&c, sql);
    }
    exec_ok(&c, "CREATE TABLE padt (pad CHAR(500))");
    exec_ok(&c, "INSERT INTO padt VALUES ('x')");
    /* 10^6 numbered rows of 504 bytes; 8 fit a 4096-byte fetch buffer. */
    treply r = {0};
    int id = tconn_prepare(&c,
                           "SELECT a.n * 100000 + b.n * 10000 + c.n * 1000 + d.n * 100 + e.n * 10 "
                           "+ f.n, x.pad FROM t10 a, t10 b, t10 c, t10 d, t10 e, t10 f, padt x",
                           0, &r);
    treply d = r;
    ixp_enc_id(&c.out, id);
    ixp_enc_curname(&c.out, "bp1", 3);
    ixp_enc_tag(&c.out, IXP_SQ_OPEN);
    ixp_enc_tag(&c.out, IXP_SQ_EOT);
    tconn_flush(&c);
    CHECK(tconn_reply(&c, &r) == 0 && r.sqlcode == 0, "cursor opens");
    long rss0 = proc_kb(p.pid, "VmRSS");
    for (int i = 0; i < GROUPS; i++) {
        ixp_enc_id(&c.out, id);
        ixp_enc_nfetch(&c.out, &c.caps, 4096);
        ixp_enc_tag(&c.out, IXP_SQ_EOT);
    }
    /* Send without reading, as far as the sockets take it. */
    size_t off = 0;
    double last = now_s();
    while (off < c.out.len && now_s() - last < 0.5) {
        if (send_some(c.fd, &c.out, &off))
            last = now_s();
        else
            sleep_ms(10);
    }
    long grow = 0;
    for (int i = 0; i < 10; i++) { /* the server works on what it got */
        sleep_ms(100);
        long g = proc_kb(p.pid, "VmRSS") - rss0;
        if (g > grow) grow = g;
    }
    CHECK(rss0 > 0 && grow < 8 * 1024,
          "ixd's memory stays bounded while %d pipelined fetches go unread (+%ld kB)", GROUPS,
          grow);
    /* Now read every reply, sending the rest as it goes. */
    int next = 0, good = 0;
    for (int i = 0; i < GROUPS; i++) {
        while (off < c.out.len && send_some(c.fd, &c.out, &off)) {
        }
        if (tconn_reply(&c, &r) != 0) break;
        good += reply_in_order(&r, &d, &next);
    }
    CHECK(off == c.out.len && good == GROUPS, "all %d replies arrive, in order (%d good)", GROUPS,
          good);
    ixb_wbuf_reset(&c.out);
    ixb_wbuf_free(&r.tuples);
    tconn_close(&c);
    stop(&p);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    test_bad_login_header();
    test_deadlines();
    test_max_connections();
    test_emfile();
    test_throttle();
    test_max_reply();
    test_backpressure();
    return tap_done();
}
