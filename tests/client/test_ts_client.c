/*
 * The TimeSeries helpers of libixdb against a real ixd: the buffered writer
 * (flushes at N elements and at the 32,739-byte limit, exactly; several
 * keys; counts; a bad element fails with its key and writes nothing of its
 * batch row; dup=error; formatted values read back bit for bit), the JSON
 * page reader (pages concatenated == the whole window; pages cut at the
 * byte limit), the rows reader, and writes rolled back with the
 * transaction.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

static ix_conn *c;

/* Elements of key's series in [from, to] (NULL: unbounded), through the
 * rows reader; -1 on failure. */
static long count_rows(const char *key, const char *from, const char *to) {
    ix_stmt *s;
    if (ix_ts_rows_open(c, "meters", "readings", key, from, to, &s) != IX_OK) return -1;
    long n = 0;
    int rc;
    while ((rc = ix_step(s)) == IX_ROW)
        n++;
    ix_finalize(s);
    return rc == IX_DONE ? n : -1;
}

static void make_series(const char *key) {
    char sql[200];
    snprintf(sql, sizeof sql,
             "EXECUTE FUNCTION oni_ts_create('meters', 'readings', %s, '2026-01-01 00:00', "
             "'1 minute')",
             key);
    ix_stmt *s;
    int rc = ix_prepare(c, sql, -1, &s);
    if (rc == IX_OK) {
        rc = ix_step(s);
        rc = rc == IX_ROW || rc == IX_DONE ? IX_OK : rc;
        ix_finalize(s);
    }
    CHECK(rc == IX_OK, "oni_ts_create %s: %s", key, ix_errmsg(c));
}

/* "2026-01-01 HH:MM:SS" of minute m (m < 1440). */
static void minute_ts(char *out, int m) {
    snprintf(out, 20, "2026-01-01 %02d:%02d:00", m / 60, m % 60);
}

/* flush=N: a buffer goes when it has N elements, with every buffer at least
 * half full; explicit flush sends the rest. */
static void test_flush_at_n(void) {
    ix_ts_writer *w;
    CHECK(ix_ts_writer_open(c, "meters", "readings", "flush=10", &w) == IX_OK, "open: %s",
          ix_errmsg(c));
    char e[64], ts[20];
    for (int i = 0; i < 9; i++) {
        minute_ts(ts, i);
        snprintf(e, sizeof e, "%s|%d|%d|%d", ts, i, i * 2, i * 3);
        CHECK(ix_ts_writer_add(w, "1", e, -1) == IX_OK, "add: %s", ix_errmsg(c));
    }
    CHECK(ix_ts_writer_written(w) == 0 && ix_ts_writer_pending(w) == 9, "9 buffered");
    for (int i = 0; i < 9; i++) { /* key 2: 9 (half full), key 3: 4 (not) */
        minute_ts(ts, i);
        snprintf(e, sizeof e, "%s|%d|||", ts, i);
        CHECK(ix_ts_writer_add(w, "2", e, -1) == IX_OK, "add 2: %s", ix_errmsg(c));
        if (i < 4) CHECK(ix_ts_writer_add(w, "3", e, -1) == IX_OK, "add 3: %s", ix_errmsg(c));
    }
    CHECK(count_rows("1", NULL, NULL) == 0, "nothing sent before N");
    CHECK(ix_ts_writer_add(w, "1", "2026-01-01 00:09|9|18|27", -1) == IX_OK, "10th: %s",
          ix_errmsg(c));
    CHECK(ix_ts_writer_written(w) == 19, "key 1 (10) and key 2 (9) flushed together: %lld",
          (long long)ix_ts_writer_written(w));
    CHECK(ix_ts_writer_pending(w) == 4, "key 3 still buffered: %lld",
          (long long)ix_ts_writer_pending(w));
    CHECK(count_rows("1", NULL, NULL) == 10 && count_rows("2", NULL, NULL) == 9 &&
              count_rows("3", NULL, NULL) == 0,
          "server has 10, 9, 0");
    CHECK(ix_ts_writer_flush(w) == IX_OK, "flush: %s", ix_errmsg(c));
    CHECK(ix_ts_writer_written(w) == 23 && ix_ts_writer_pending(w) == 0, "all written");
    CHECK(count_rows("3", NULL, NULL) == 4, "key 3 after flush");
    CHECK(ix_ts_writer_flush(w) == IX_OK && ix_ts_writer_written(w) == 23, "empty flush");
    CHECK(ix_ts_writer_close(w) == IX_OK, "close");
}

/* The byte limit: a buffer of exactly 32,739 bytes stays, the next element
 * sends it; the server takes it whole. */
static void test_flush_at_bytes(void) {
    ix_ts_writer *w;
    CHECK(ix_ts_writer_open(c, "meters", "readings", "flush=100000", &w) == IX_OK, "open");
    char e[64], ts[20];
    size_t total = 0;
    int i;
    for (i = 0; i < 962; i++) { /* 33-byte lines: 962 * 34 - 1 = 32707 bytes */
        minute_ts(ts, i);
        int n = snprintf(e, sizeof e, "%s|%lld|||", ts, 1000000000LL + i);
        CHECK(n == 33, "line length %d", n);
        if (ix_ts_writer_add(w, "4", e, n) != IX_OK) break;
        total += (size_t)n + (i > 0);
    }
    minute_ts(ts, i++);
    int n = snprintf(e, sizeof e, "%s|%d|||", ts, 10000000); /* 31 bytes */
    total += (size_t)n + 1;
    CHECK(total == IX_TS_MAX_TEXT, "exactly %d bytes (%zu)", IX_TS_MAX_TEXT, total);
    CHECK(ix_ts_writer_add(w, "4", e, n) == IX_OK, "add: %s", ix_errmsg(c));
    CHECK(ix_ts_writer_written(w) == 0 && ix_ts_writer_pending(w) == 963,
          "a full 32,739-byte buffer is not sent yet");
    minute_ts(ts, i++);
    n = snprintf(e, sizeof e, "%s|1|||", ts);
    CHECK(ix_ts_writer_add(w, "4", e, n) == IX_OK, "add past the limit: %s", ix_errmsg(c));
    CHECK(ix_ts_writer_written(w) == 963 && ix_ts_writer_pending(w) == 1,
          "the 32,739-byte buffer went as one call: written %lld",
          (long long)ix_ts_writer_written(w));
    CHECK(count_rows("4", NULL, NULL) == 963, "server has 963");
    CHECK(ix_ts_writer_close(w) == IX_OK && count_rows("4", NULL, NULL) == 964,
          "close flushes the last one");
    /* an element that can never fit */
    CHECK(ix_ts_writer_open(c, "meters", "readings", NULL, &w) == IX_OK, "open");
    char *big = malloc(IX_TS_MAX_TEXT + 2);
    memset(big, '1', IX_TS_MAX_TEXT + 1);
    memcpy(big, "2026-01-02 00:00|", 17);
    big[IX_TS_MAX_TEXT + 1] = 0;
    CHECK(ix_ts_writer_add(w, "4", big, -1) == IX_EINVAL, "element over the limit refused");
    CHECK(ix_ts_writer_add(w, "4", "2026-01-02 00:00|1\n2026-01-02 00:01|2", -1) == IX_EINVAL,
          "newline refused");
    CHECK(ix_ts_writer_add(w, "", "2026-01-02 00:00|1", -1) == IX_EINVAL, "empty key refused");
    free(big);
    CHECK(ix_ts_writer_close(w) == IX_OK && ix_ts_writer_pending(NULL) == 0, "close");
}

/* A bad element: the flush fails with the server's error naming the key,
 * nothing of that batch row is written, the other rows are, and the
 * writer stays failed. */
static void test_errors(void) {
    ix_ts_writer *w;
    CHECK(ix_ts_writer_open(c, "meters", "readings", "flush=0", &w) == IX_EINVAL &&
              strstr(ix_errmsg(c), "flush=0"),
          "bad flush option: %s", ix_errmsg(c));
    ix_ts_writer *w2;
    CHECK(ix_ts_writer_open(c, "meters", "readings", "bogus=1", &w2) == IX_EINVAL && !w2,
          "unknown option");
    CHECK(ix_ts_writer_open(c, "meters", "readings", "flush=50", &w) == IX_OK, "open");
    ix_ts_writer_add(w, "6", "2026-01-03 00:00|1|2|3", -1);
    ix_ts_writer_add(w, "6", "2026-01-03 00:01|1|2|3", -1);
    ix_ts_writer_add(w, "6", "2026-01-03 00:02|1|zz|3", -1);
    ix_ts_writer_add(w, "6", "2026-01-03 00:03|1|2|3", -1);
    ix_ts_writer_add(w, "7", "2026-01-03 00:00|1|2|3", -1);
    int rc = ix_ts_writer_flush(w);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -746, "bad element: rc %d sqlcode %d", rc,
          ix_sqlcode(c));
    CHECK(strncmp(ix_errmsg(c), "series 6: ", 10) == 0, "message names the key: %s", ix_errmsg(c));
    const char *key;
    int64_t elem;
    CHECK(ix_ts_writer_failure(w, &key, &elem) == 1 && strcmp(key, "6") == 0,
          "failure names key 6");
    CHECK(elem == 2, "the third element is blamed (%lld): %s", (long long)elem, ix_errmsg(c));
    CHECK(count_rows("6", "2026-01-03 00:00", "2026-01-03 23:59") == 0,
          "nothing of the failed row written");
    CHECK(count_rows("7", "2026-01-03 00:00", "2026-01-03 23:59") == 1, "the other row stands");
    CHECK(ix_ts_writer_written(w) == 1, "written counts it: %lld",
          (long long)ix_ts_writer_written(w));
    ix_exec(c, "SELECT 1 FROM systables WHERE tabid = 1"); /* clears the error record */
    CHECK(ix_ts_writer_add(w, "7", "2026-01-03 00:01|1|2|3", -1) == IX_ESQL &&
              ix_sqlcode(c) == -746 && strncmp(ix_errmsg(c), "series 6: ", 10) == 0,
          "the writer stays failed: %s", ix_errmsg(c));
    CHECK(ix_ts_writer_close(w) == IX_ESQL, "close returns the failure");
    CHECK(count_rows("7", "2026-01-03 00:00", "2026-01-03 23:59") == 1, "nothing sent after");
    /* dup=error */
    CHECK(ix_ts_writer_open(c, "meters", "readings", "dup=error,flush=2", &w) == IX_OK,
          "open dup=error: %s", ix_errmsg(c));
    ix_ts_writer_add(w, "7", "2026-01-03 00:00|9|9|9", -1);
    rc = ix_ts_writer_flush(w);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -268, "dup=error: rc %d %d %s", rc, ix_sqlcode(c),
          ix_errmsg(c));
    ix_ts_writer_close(w);
    CHECK(ix_ts_writer_open(c, "meters", "readings", "dup=replace", &w) == IX_OK, "dup=replace");
    ix_ts_writer_add(w, "7", "2026-01-03 00:00|9|9|9", -1);
    CHECK(ix_ts_writer_close(w) == IX_OK &&
              count_rows("7", "2026-01-03 00:00", "2026-01-03 23:59") == 1,
          "replaced: %s", ix_errmsg(c));
}

/* add_values: timestamps from microseconds and doubles as text read back
 * bit for bit through the rows reader. */
static void test_values(void) {
    static const double vals[] = {0.1,     -2.0,   20.01,   1e300,    -1e-300, 123456.789,
                                  1.0 / 3, 5e-324, 9.5e15,  -0.0,     3.0e-5,  2.5,
                                  1e21,    0.3,    1234567, 1.0 / 7.0};
    int nv = (int)(sizeof vals / sizeof vals[0]);
    ix_ts_writer *w;
    CHECK(ix_ts_writer_open(c, "meters", "readings", NULL, &w) == IX_OK, "open");
    int64_t day4 = 1767225600LL * 1000000 + 3 * 86400LL * 1000000; /* 2026-01-04 */
    for (int i = 0; i < nv; i++) {
        double v[3] = {vals[i], -vals[i], (double)i};
        unsigned char nul[3] = {0, 0, i % 3 == 0};
        CHECK(ix_ts_writer_add_values(w, "8", NULL, day4 + i * 60000000LL, v, nul, 3) == IX_OK,
              "add_values: %s", ix_errmsg(c));
    }
    double nanv[3] = {NAN, INFINITY, -INFINITY};
    CHECK(ix_ts_writer_add_values(w, "8", "2026-01-04 12:00", 0, nanv, NULL, 3) == IX_OK,
          "non-finite");
    CHECK(ix_ts_writer_add_values(w, "8", NULL, -62135596800000000LL - 1, nanv, NULL, 3) ==
              IX_EINVAL,
          "year 0 refused");
    CHECK(ix_ts_writer_add_values(w, "8", NULL, 0, nanv, NULL, 65) == IX_EINVAL, "65 values");
    CHECK(ix_ts_writer_close(w) == IX_OK, "close: %s", ix_errmsg(c));
    ix_stmt *s;
    CHECK(ix_ts_rows_open(c, "meters", "readings", "8", "2026-01-04", "2026-01-04 23:59", &s) ==
              IX_OK,
          "rows open: %s", ix_errmsg(c));
    int i = 0;
    while (ix_step(s) == IX_ROW) {
        ix_datetime_t dt;
        ix_column_datetime(s, 0, &dt);
        if (i < nv) {
            CHECK(dt.day == 4 && dt.hour == 0 && dt.minute == i, "timestamp of element %d", i);
            double a = ix_column_double(s, 1), b = ix_column_double(s, 2);
            CHECK(memcmp(&a, &vals[i], 8) == 0 && b == -vals[i] && signbit(b) != signbit(a),
                  "value %d: %.17g read back as %.17g, %.17g", i, vals[i], a, b);
            CHECK(ix_column_is_null(s, 3) == (i % 3 == 0), "NULL flag %d", i);
        } else {
            /* (NaN is checked through JSON: ixd's row reads give NULL for it) */
            CHECK(dt.hour == 12 && ix_column_double(s, 2) == INFINITY &&
                      ix_column_double(s, 3) == -INFINITY,
                  "inf, -inf: %d %s %s", dt.hour, ix_column_text(s, 2), ix_column_text(s, 3));
        }
        i++;
    }
    CHECK(i == nv + 1, "%d rows", i);
    ix_finalize(s);
    ix_ts_reader *r;
    const char *json = NULL;
    CHECK(ix_ts_reader_open(c, "meters", "readings", "8", "2026-01-04 12:00", "2026-01-04 12:00",
                            NULL, &r) == IX_OK &&
              ix_ts_reader_next(r, &json, NULL) == IX_ROW,
          "read the non-finite element: %s", ix_errmsg(c));
    CHECK(json && strstr(json, "\"m1\":[\"NaN\"],\"m2\":[\"Infinity\"],\"m3\":[\"-Infinity\"]"),
          "nan, inf, -inf: %s", json ? json : "(none)");
    ix_ts_reader_close(r);
}

/* Timestamps from microseconds with 0, 5 and 6 fraction digits, in an
 * irregular series (interval NULL): the JSON "t" offsets are exact. */
static void test_irregular(void) {
    ix_stmt *s;
    int rc = ix_prepare(c,
                        "EXECUTE FUNCTION oni_ts_create('meters', 'readings', 10, "
                        "'2026-01-01 00:00', NULL)",
                        -1, &s);
    if (rc == IX_OK) rc = ix_step(s) == IX_ROW ? IX_OK : IX_ESQL;
    ix_finalize(s);
    CHECK(rc == IX_OK, "irregular series: %s", ix_errmsg(c));
    ix_ts_writer *w;
    CHECK(ix_ts_writer_open(c, "meters", "readings", NULL, &w) == IX_OK, "open");
    int64_t day6 = 1767225600LL * 1000000 + 5 * 86400LL * 1000000; /* 2026-01-06 */
    static const int64_t offs[] = {0, 1, 10, 123450, 1500000, 86399999999LL};
    for (int i = 0; i < 6; i++) {
        double v[3] = {i, 0, 0};
        static const unsigned char nul[3] = {0, 1, 1};
        CHECK(ix_ts_writer_add_values(w, "10", NULL, day6 + offs[i], v, nul, 3) == IX_OK, "add: %s",
              ix_errmsg(c));
    }
    CHECK(ix_ts_writer_close(w) == IX_OK, "close: %s", ix_errmsg(c));
    ix_ts_reader *r;
    const char *json = NULL;
    CHECK(ix_ts_reader_open(c, "meters", "readings", "10", NULL, NULL, NULL, &r) == IX_OK &&
              ix_ts_reader_next(r, &json, NULL) == IX_ROW,
          "read: %s", ix_errmsg(c));
    CHECK(json && strstr(json, "\"start\":\"2026-01-06 00:00:00.00000\"") &&
              strstr(json, "\"t\":[0,1,10,123450,1500000,86399999999]"),
          "microseconds kept: %s", json ? json : "(none)");
    ix_ts_reader_close(r);
}

/* The numbers of the array `"name":[...]` of a page, appended to out. */
static int page_array(const char *json, const char *name, double *out, int at, int cap) {
    char pat[40];
    snprintf(pat, sizeof pat, "\"%s\":[", name);
    const char *p = strstr(json, pat);
    if (!p) return -1;
    p += strlen(pat);
    while (*p && *p != ']') {
        char *end;
        double v = strtod(p, &end);
        if (end == p) return -1;
        if (at < cap) out[at] = v;
        at++;
        p = *end == ',' ? end + 1 : end;
    }
    return at;
}

/* The JSON reader: every page below the limit, pages cut full at max=B,
 * their arrays together == the window; an empty window. */
static void test_reader(void) {
    enum { N = 3000 };
    ix_ts_writer *w;
    CHECK(ix_ts_writer_open(c, "meters", "readings", NULL, &w) == IX_OK, "open");
    int64_t day5 = 1767225600LL * 1000000 + 4 * 86400LL * 1000000; /* 2026-01-05 */
    for (int i = 0; i < N; i++) {
        double v[3] = {20 + i * 0.01, 50 + (i % 7) * 0.1, 1000 + i};
        ix_ts_writer_add_values(w, "9", NULL, day5 + i * 60000000LL, v, NULL, 3);
    }
    CHECK(ix_ts_writer_close(w) == IX_OK && ix_ts_writer_written(NULL) == 0, "write %d", N);
    static const char *opts[] = {NULL, "max=4000", "max=256"};
    for (int o = 0; o < 3; o++) {
        ix_ts_reader *r;
        CHECK(ix_ts_reader_open(c, "meters", "readings", "9", "2026-01-05", NULL, opts[o], &r) ==
                  IX_OK,
              "reader open");
        static double m1[N + 10], m3[N + 10];
        int got1 = 0, got3 = 0, rc, pages = 0, bad = 0;
        const char *json;
        size_t len;
        size_t limit = o == 0 ? IX_TS_MAX_TEXT : o == 1 ? 4000 : 256;
        while ((rc = ix_ts_reader_next(r, &json, &len)) == IX_ROW) {
            pages++;
            int last = strstr(json, "\"next\":null") != NULL;
            if (len > limit || (!last && len + 80 < limit)) bad++;
            got1 = page_array(json, "m1", m1, got1, N + 10);
            got3 = page_array(json, "m3", m3, got3, N + 10);
            if (got1 < 0 || got3 < 0) break;
        }
        CHECK(rc == IX_DONE, "reader ends with IX_DONE (%d: %s)", rc, ix_errmsg(c));
        CHECK(bad == 0, "%d of %d pages not cut full at %zu bytes", bad, pages, limit);
        CHECK(pages > 1 && ix_ts_reader_pages(r) == pages, "%d pages", pages);
        CHECK(got1 == N && got3 == N, "every element once: %d %d", got1, got3);
        int same = 1;
        for (int i = 0; i < N && got1 == N && got3 == N; i++)
            if (m1[i] != 20 + i * 0.01 || m3[i] != 1000 + i) same = 0;
        CHECK(same, "pages together are the window, in order");
        CHECK(ix_ts_reader_next(r, &json, &len) == IX_DONE && !json, "done stays done");
        ix_ts_reader_close(r);
    }
    ix_ts_reader *r;
    const char *json;
    CHECK(ix_ts_reader_open(c, "meters", "readings", "9", "2030-01-01", "2030-01-02", NULL, &r) ==
              IX_OK,
          "open empty");
    CHECK(ix_ts_reader_next(r, &json, NULL) == IX_ROW && strstr(json, "\"n\":0"),
          "empty window: one page");
    CHECK(ix_ts_reader_next(r, &json, NULL) == IX_DONE, "then done");
    ix_ts_reader_close(r);
    CHECK(count_rows("9", "2026-01-05 00:10", "2026-01-05 00:20") == 11, "window is inclusive");
    CHECK(ix_ts_reader_open(c, "meters", "readings", "9", NULL, NULL, "bogus=1", &r) == IX_OK,
          "open with a bad option");
    CHECK(ix_ts_reader_next(r, &json, NULL) == IX_ESQL && ix_sqlcode(c) == -746,
          "the server's error: %s", ix_errmsg(c));
    ix_ts_reader_close(r);
    ix_ts_reader_close(NULL);
}

/* Writes inside a transaction go with its ROLLBACK. */
static void test_rollback(void) {
    CHECK(ix_begin(c) == IX_OK, "begin");
    ix_ts_writer *w;
    CHECK(ix_ts_writer_open(c, "meters", "readings", "flush=20", &w) == IX_OK, "open");
    char ts[20], e[64];
    for (int i = 0; i < 50; i++) {
        minute_ts(ts, i);
        snprintf(e, sizeof e, "%s|%d|1|1", ts, i);
        ix_ts_writer_add(w, "5", e, -1);
    }
    CHECK(ix_ts_writer_close(w) == IX_OK, "close");
    CHECK(count_rows("5", NULL, NULL) == 50, "50 inside the transaction");
    CHECK(ix_rollback(c) == IX_OK, "rollback");
    CHECK(count_rows("5", NULL, NULL) == 0, "none after ROLLBACK");
}

/* NULL handles and arguments: IX_EMISUSE or the documented answer. */
/* oni_ts_write_many with a batch larger than an LVARCHAR, bound as BYTE
 * (ix_bind_blob): 4,000 elements (about 150 KB) in one call, twice. (A text
 * bind stops at 32,767 bytes in libixdb today.) */
static void test_big_batch(void) {
    static char buf[300000];
    for (int pass = 0; pass < 2; pass++) {
        size_t o = 0;
        for (int m = 0; m < 4000; m++) {
            int d = 10 + pass * 5 + m / 1440, mm = m % 1440;
            o += (size_t)snprintf(buf + o, sizeof buf - o,
                                  "2026-01-%02d %02d:%02d|%d.5|1234.25|-0.125\n", d, mm / 60,
                                  mm % 60, m);
        }
        CHECK(o > 32739, "the batch is %zu bytes", o);
        ix_stmt *s;
        int rc =
            ix_prepare(c, "EXECUTE PROCEDURE oni_ts_write_many('meters','readings',9,?)", -1, &s);
        if (rc == IX_OK) rc = ix_bind_blob(s, 1, buf, (int)o, IX_STATIC);
        if (rc == IX_OK) rc = ix_step(s);
        CHECK(rc == IX_DONE && ix_changes(s) == 4000, "batch of %zu bytes: rc %d, %lld written: %s",
              o, rc, (long long)ix_changes(s), ix_errmsg(c));
        ix_finalize(s);
    }
}

static void test_misuse(void) {
    ix_ts_writer *w = (ix_ts_writer *)1;
    CHECK(ix_ts_writer_open(NULL, "t", "c", NULL, &w) == IX_EMISUSE && w == NULL, "open NULL");
    w = (ix_ts_writer *)1;
    CHECK(ix_ts_writer_open(c, NULL, "c", NULL, &w) == IX_EMISUSE && w == NULL, "NULL table");
    CHECK(ix_ts_writer_add(NULL, "1", "x", -1) == IX_EMISUSE &&
              ix_ts_writer_add_values(NULL, "1", NULL, 0, NULL, NULL, 0) == IX_EMISUSE &&
              ix_ts_writer_flush(NULL) == IX_EMISUSE && ix_ts_writer_close(NULL) == IX_OK,
          "writer calls on NULL");
    const char *k = "x";
    int64_t e = 5;
    CHECK(ix_ts_writer_written(NULL) == 0 && ix_ts_writer_pending(NULL) == 0 &&
              ix_ts_writer_failure(NULL, &k, &e) == 0 && k == NULL && e == -1,
          "writer accessors on NULL");
    ix_ts_reader *r = (ix_ts_reader *)1;
    const char *json = "x";
    CHECK(ix_ts_reader_open(NULL, "t", "c", "1", NULL, NULL, NULL, &r) == IX_EMISUSE && !r,
          "reader open NULL");
    r = (ix_ts_reader *)1;
    CHECK(ix_ts_reader_open(c, "t", "c", NULL, NULL, NULL, NULL, &r) == IX_EMISUSE && !r,
          "reader NULL key");
    CHECK(ix_ts_reader_next(NULL, &json, NULL) == IX_EMISUSE && !json &&
              ix_ts_reader_pages(NULL) == 0,
          "reader calls on NULL");
    ix_stmt *s = (ix_stmt *)1;
    CHECK(ix_ts_rows_open(NULL, "t", "c", "1", NULL, NULL, &s) == IX_EMISUSE && !s,
          "rows open NULL");
    s = (ix_stmt *)1;
    CHECK(ix_ts_rows_open(c, "t", NULL, "1", NULL, NULL, &s) == IX_EMISUSE && !s,
          "rows NULL column");
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, NULL) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    char dsn[200];
    snprintf(dsn, sizeof dsn, "informix://informix:in4mix@127.0.0.1:%d/sysmaster", p.port);
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect: %s", ix_errmsg(c));
    test_misuse();
    CHECK(ix_exec(c, "CREATE DATABASE tsdb WITH LOG") == IX_OK, "create db: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "CREATE ROW TYPE reading_t (ts DATETIME YEAR TO FRACTION(5), m1 FLOAT, "
                     "m2 FLOAT, m3 FLOAT)") == IX_OK,
          "row type: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "CREATE TABLE meters (id INT PRIMARY KEY, readings TIMESERIES(reading_t))") ==
              IX_OK,
          "table: %s", ix_errmsg(c));
    static const char *keys[] = {"1", "2", "3", "4", "5", "6", "7", "8", "9"};
    for (int k = 0; k < 9; k++)
        make_series(keys[k]);
    if (!tap_fail) {
        test_flush_at_n();
        test_flush_at_bytes();
        test_errors();
        test_values();
        test_irregular();
        test_reader();
        test_rollback();
        test_big_batch();
    }
    CHECK(!ix_conn_is_dead(c), "connection still aligned");
    ix_close(c);
    ixd_stop(&p, SIGTERM);
    if (!tap_fail) ixd_rmdir(&p);
    return tap_done();
}
