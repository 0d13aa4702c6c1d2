/* test_fetch_auto.c: the automatic fetch buffer against a real ixd. A ~4.5 MB
 * result over loopback needs far fewer round trips with IX_FETCH_AUTO than
 * with 4096 bytes, returns the same rows, and a small result comes back in
 * one reply; FIRST n / LIMIT n size the first NFETCH; auto is the default; the
 * per-statement counters (round trips, bytes); fetch_buffer=auto and
 * FET_BUF_SIZE=auto. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#define USER "informix"
#define PASS "in4mix"

static ixd_proc P;
static char base[300];

typedef struct {
    int64_t rows, sum, roundtrips, bytes, fetches;
    int32_t last_size;
} result;

static result fetch_all(ix_conn *c, const char *sql, int32_t buf, int readahead) {
    result r;
    memset(&r, 0, sizeof r);
    ix_stmt *s = NULL;
    if (ix_prepare(c, sql, -1, &s) != IX_OK) {
        CHECK(0, "prepare %s: %s", sql, ix_errmsg(c));
        return r;
    }
    if (buf) ix_stmt_set_fetch_buffer(s, buf);
    if (readahead >= 0) ix_stmt_set_readahead(s, readahead);
    int rc;
    while ((rc = ix_step(s)) == IX_ROW) {
        r.rows++;
        r.sum += ix_column_int64(s, 0) * 1000 + ix_column_int64(s, 1);
    }
    CHECK(rc == IX_DONE, "fetch ends: rc=%d %s", rc, ix_errmsg(c));
    r.roundtrips = ix_stmt_fetch_roundtrips(s);
    r.bytes = ix_stmt_fetch_bytes(s);
    r.fetches = ix_stmt_fetch_count(s);
    r.last_size = ix_stmt_fetch_size(s);
    ix_finalize(s);
    return r;
}

static int bind_row(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    char name[65];
    memset(name, 'a' + (int)(row % 26), 60);
    name[60] = 0;
    ix_bind_int64(s, 1, row);
    ix_bind_text(s, 2, name, 60, IX_TRANSIENT);
    return 0;
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    unsetenv("FET_BUF_SIZE");
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    snprintf(base, sizeof base,
             "host=127.0.0.1 port=%d user=" USER " password=" PASS " server=ixd read_timeout=60",
             P.port);
    ix_conn *c = NULL;
    int rc = ix_connect(&c, base);
    CHECK(rc == IX_OK, "connect: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "create database fa") == IX_OK, "create database: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "create table t (id int, name varchar(64))") == IX_OK, "create: %s",
          ix_errmsg(c));
    ix_stmt *ins = NULL;
    ix_prepare(c, "insert into t values (?, ?)", -1, &ins);
    rc = ix_batch_execute(ins, 256, bind_row, NULL, NULL, NULL);
    CHECK(rc == IX_OK, "256 rows: %s", ix_errmsg(c));
    ix_finalize(ins);

    /* 65536 rows of (int, int, varchar 60): about 4.5 MB of tuples. */
    const char *big = "select a.id, b.id, a.name from t a, t b";
    /* A server without f62 (ixd --strict) caps every NFETCH at 32767, 8
     * times 4096: auto then saves less than on ixd, where it grows to 1 MiB. */
    int strict = ixd_test_strict(), gain = strict ? 5 : 10;
    int32_t first_ask = strict ? 32767 : 256 * 1024;
    result fixed = fetch_all(c, big, 4096, 1);
    result autor = fetch_all(c, big, IX_FETCH_AUTO, 1);
    printf("# 4096: %lld rows, %lld round trips, %lld bytes; auto: %lld round trips, %lld bytes, "
           "last NFETCH %d\n",
           (long long)fixed.rows, (long long)fixed.roundtrips, (long long)fixed.bytes,
           (long long)autor.roundtrips, (long long)autor.bytes, autor.last_size);
    CHECK(fixed.rows == 65536 && autor.rows == 65536 && fixed.sum == autor.sum,
          "same rows either way: %lld / %lld", (long long)fixed.rows, (long long)autor.rows);
    CHECK(fixed.bytes > 4000000, "a 4 MB result: %lld bytes", (long long)fixed.bytes);
    CHECK(fixed.roundtrips > 1000, "4096 bytes: %lld round trips", (long long)fixed.roundtrips);
    CHECK(autor.roundtrips * gain < fixed.roundtrips, "auto: far fewer round trips (%lld vs %lld)",
          (long long)autor.roundtrips, (long long)fixed.roundtrips);
    CHECK(autor.last_size > 4096 && autor.last_size <= IX_FETCH_AUTO_MAX,
          "auto grew: last NFETCH %d", autor.last_size);
    CHECK(autor.fetches == autor.roundtrips, "every NFETCH answered (%lld / %lld)",
          (long long)autor.fetches, (long long)autor.roundtrips);
    result noahead = fetch_all(c, big, IX_FETCH_AUTO, 0);
    CHECK(noahead.rows == 65536 && noahead.roundtrips * gain < fixed.roundtrips,
          "auto without read-ahead: %lld round trips", (long long)noahead.roundtrips);
    result deep = fetch_all(c, big, IX_FETCH_AUTO, 4);
    CHECK(deep.rows == 65536 && deep.sum == fixed.sum, "auto with read-ahead 4: same rows");

    /* A small result comes back in the first reply (256 KiB asked). */
    result small = fetch_all(c, "select id, id from t where id < 10", IX_FETCH_AUTO, 1);
    CHECK(small.rows == 10 && small.roundtrips == 1 && small.last_size == first_ask,
          "small result: %lld round trip(s), NFETCH %d", (long long)small.roundtrips,
          small.last_size);
    /* FIRST n sizes the first NFETCH for n rows (at least IX_FETCH_AUTO_MIN). */
    result first = fetch_all(c, "select first 10 id, id from t", IX_FETCH_AUTO, 1);
    CHECK(first.rows == 10 && first.roundtrips == 1 && first.last_size == IX_FETCH_AUTO_MIN,
          "FIRST 10: %lld round trip(s), NFETCH %d", (long long)first.roundtrips, first.last_size);
    result first2 =
        fetch_all(c, "SELECT SKIP 2 LIMIT 3000 a.id, b.id from t a, t b", IX_FETCH_AUTO, 1);
    CHECK(first2.rows == 3000 && first2.last_size > IX_FETCH_AUTO_MIN &&
              first2.last_size <= first_ask,
          "SKIP 2 LIMIT 3000: %lld rows, NFETCH %d", (long long)first2.rows, first2.last_size);
    /* The default is automatic, with an adaptive read-ahead; a static size
     * is kept exactly. */
    result def = fetch_all(c, big, 0, -1);
    CHECK(def.rows == 65536 && def.roundtrips * gain < fixed.roundtrips &&
              def.last_size <= IX_FETCH_AUTO_MAX,
          "default: auto (%lld round trips, last NFETCH %d)", (long long)def.roundtrips,
          def.last_size);
    CHECK(fixed.last_size == 4096 && fixed.fetches == fixed.roundtrips,
          "a static 4096 is asked as it is (%d)", fixed.last_size);
    CHECK(ix_set_fetch_buffer(c, IX_FETCH_AUTO) == IX_OK, "ix_set_fetch_buffer(AUTO)");
    CHECK(ix_set_fetch_buffer(c, 0) == IX_EINVAL, "0 is not a size");
    ix_close(c);

    /* fetch_buffer=auto in the DSN and FET_BUF_SIZE=auto. */
    char dsn[400];
    snprintf(dsn, sizeof dsn, "%s database=fa fetch_buffer=auto", base);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "fetch_buffer=auto: %s", ix_errmsg(c));
    result r1 = fetch_all(c, big, 0, 1);
    CHECK(r1.rows == 65536 && r1.roundtrips * gain < fixed.roundtrips, "DSN auto: %lld round trips",
          (long long)r1.roundtrips);
    ix_close(c);
    setenv("FET_BUF_SIZE", "auto", 1);
    snprintf(dsn, sizeof dsn, "%s database=fa", base);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "FET_BUF_SIZE=auto: %s", ix_errmsg(c));
    r1 = fetch_all(c, big, 0, 1);
    CHECK(r1.rows == 65536 && r1.roundtrips * gain < fixed.roundtrips,
          "FET_BUF_SIZE auto: %lld round trips", (long long)r1.roundtrips);
    ix_close(c);
    unsetenv("FET_BUF_SIZE");
    snprintf(dsn, sizeof dsn, "%s fetch_buffer=autox", base);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_EINVAL, "fetch_buffer=autox refused");
    ix_close(c);

    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
