/* test_tls.c: libixdb over TLS (onsocssl) against ixd with a self-signed
 * certificate made here with the openssl command: verification on by
 * default (fails without the CA), tls_ca, tls_verify=0, host-name checks,
 * and the statement paths (cursor, pipelined batch) through TLS. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

static ixd_proc P;
static char certdir[256], cert[300], key[300];

static int make_cert(void) {
    snprintf(certdir, sizeof certdir, "/tmp/ixdbtls.XXXXXX");
    if (!mkdtemp(certdir)) return -1;
    snprintf(cert, sizeof cert, "%s/cert.pem", certdir);
    snprintf(key, sizeof key, "%s/key.pem", certdir);
    char cmd[1200];
    snprintf(cmd, sizeof cmd,
             "openssl req -x509 -newkey rsa:2048 -nodes -days 2 -subj /CN=localhost "
             "-addext subjectAltName=DNS:localhost,IP:127.0.0.1 -keyout %s -out %s "
             ">/dev/null 2>&1",
             key, cert);
    return system(cmd) == 0 ? 0 : -1;
}

static int bind_row(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    ix_bind_int64(s, 1, row);
    ix_bind_text(s, 2, "through TLS", -1, IX_STATIC);
    return 0;
}

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static ix_conn *alarm_conn;
static void on_alarm(int sig) {
    (void)sig;
    ix_cancel(alarm_conn);
}

/* The interrupt's urgent byte travels beside the TLS records: the statement
 * stops with -213 and the TLS stream stays intact. */
static void cancel_through_tls(ix_conn *c) {
    alarm_conn = c;
    signal(SIGALRM, on_alarm);
    alarm(1);
    ix_stmt *s = NULL;
    double t0 = now_s();
    int rc = ix_prepare(c, "select count(*) from t a, t b, t c", -1, &s);
    if (rc == IX_OK) rc = ix_step(s);
    double t = now_s() - t0;
    ix_finalize(s);
    if (ixd_test_strict()) { /* no interrupt: the cancel shuts the TLS connection down */
        CHECK(rc == IX_ECONN && strstr(ix_errmsg(c), "cancelled") && t < 2.5,
              "cancel through TLS closes: rc=%d %s after %.2f s", rc, ix_errmsg(c), t);
        alarm(0);
        signal(SIGALRM, SIG_DFL);
        return;
    }
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == IX_SQLCODE_INTERRUPTED && t < 2.5,
          "interrupt through TLS: rc=%d sqlcode %d after %.2f s", rc, ix_sqlcode(c), t);
    rc = ix_prepare(c, "select count(*) from t", -1, &s);
    if (rc == IX_OK) rc = ix_step(s);
    CHECK(rc == IX_ROW && ix_column_int64(s, 0) == 5000, "TLS stream intact after it: %s",
          ix_errmsg(c));
    ix_finalize(s);
    alarm(0);
    signal(SIGALRM, SIG_DFL);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    if (make_cert() != 0) {
        printf("# openssl cannot make a certificate; skipped\n");
        CHECK(1, "skipped");
        return tap_done();
    }
    const char *args[] = {"--tls-cert", cert, "--tls-key", key, NULL};
    if (ixd_start_args(&P, NULL, args) != 0) {
        CHECK(0, "ixd with TLS does not start (%s)", IXD_BIN);
        return tap_done();
    }
    char base[400], dsn[800];
    snprintf(base, sizeof base,
             "port=%d user=informix password=in4mix server=ixd read_timeout=20 connect_timeout=5",
             P.port);
    ix_conn *c = NULL;

    snprintf(dsn, sizeof dsn, "%s host=localhost tls=1", base);
    int rc = ix_connect(&c, dsn);
    CHECK(rc == IX_ETLS && ix_conn_is_dead(c) && strstr(ix_errmsg(c), "verif"),
          "self-signed without a CA: rc=%d %s", rc, ix_errmsg(c));
    CHECK(strcmp(ix_sqlstate(c), "08000") == 0, "sqlstate %s", ix_sqlstate(c));
    ix_close(c);

    snprintf(dsn, sizeof dsn, "%s host=localhost tls=1 tls_ca=%s", base, cert);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "with tls_ca: rc=%d %s", rc, ix_errmsg(c));
    ix_close(c);

    snprintf(dsn, sizeof dsn, "%s host=127.0.0.1 tls=1 tls_ca=%s", base, cert);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "IP address in the certificate: rc=%d %s", rc, ix_errmsg(c));
    ix_close(c);

    snprintf(dsn, sizeof dsn, "%s host=127.0.0.1 tls=1 tls_verify=0", base);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "tls_verify=0: rc=%d %s", rc, ix_errmsg(c));
    if (rc == IX_OK) {
        rc = ix_exec(c, "create database tlsdb with log");
        CHECK(rc == IX_OK, "create database: %s", ix_errmsg(c));
        ix_close(c);
        snprintf(dsn, sizeof dsn, "%s host=127.0.0.1 tls=1 tls_verify=0 database=tlsdb", base);
        rc = ix_connect(&c, dsn);
        CHECK(rc == IX_OK, "reconnect: %s", ix_errmsg(c));
        ix_exec(c, "create table t (k integer, v varchar(20))");
        ix_stmt *s = NULL;
        ix_prepare(c, "insert into t values (?, ?)", -1, &s);
        int64_t failed = -1;
        rc = ix_batch_execute(s, 5000, bind_row, NULL, NULL, &failed);
        CHECK(rc == IX_OK && ix_changes(s) == 5000, "batch through TLS: rc=%d %s", rc,
              ix_errmsg(c));
        ix_finalize(s);
        ix_prepare(c, "select k, v from t order by k", -1, &s);
        ix_stmt_set_fetch_buffer(s, 64);
        int64_t n = 0, bad = 0;
        while ((rc = ix_step(s)) == IX_ROW) {
            if (ix_column_int64(s, 0) != n || strcmp(ix_column_text(s, 1), "through TLS") != 0)
                bad++;
            n++;
        }
        CHECK(rc == IX_DONE && n == 5000 && bad == 0, "cursor through TLS: %lld rows, rc=%d %s",
              (long long)n, rc, ix_errmsg(c));
        ix_finalize(s);
        cancel_through_tls(c);
    }
    ix_close(c);

    /* Plain SQLI to a TLS listener fails quickly, without hanging. */
    snprintf(dsn, sizeof dsn, "%s host=127.0.0.1", base);
    double t0 = now_s();
    rc = ix_connect(&c, dsn);
    CHECK(rc < 0 && ix_conn_is_dead(c) && now_s() - t0 < 6, "plain to TLS: rc=%d %s", rc,
          ix_errmsg(c));
    ix_close(c);

    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", certdir);
    if (system(cmd) != 0) printf("# cannot remove %s\n", certdir);
    return tap_done();
}
