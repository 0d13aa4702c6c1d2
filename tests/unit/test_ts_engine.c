/* test_ts_engine.c: the TimeSeries routines through the engine (SQL in,
 * rows out): every metric type and NULL, regular and irregular series,
 * duplicates, late writes, delete and retention, JSON paging at the byte
 * limit, aggregates against the rows, transactions, and the errors of bad
 * input (each leaves nothing written). */
#include <math.h>
#include <sys/stat.h>

#include "server/ts/ts_int.h"
#include <sqlite3.h>

#include "test_engine_util.h"

static char BIG[1 << 20];

/* The value of the first row as an integer (-999999 on error). */
static long long qint(const char *sql) {
    const char *r = q(sql);
    if (!strncmp(r, "ERR", 3)) return -999999;
    return atoll(r);
}

static long long count_rows(const char *key, const char *from, const char *to) {
    char sql[512];
    snprintf(sql, sizeof sql,
             "SELECT count(*) FROM TABLE(oni_ts_read_rows('dev','s',%s,%s,%s)::MULTISET(all_t))",
             key, from, to);
    return qint(sql);
}

static long long elements(const char *tab, const char *col, const char *key) {
    char sql[512];
    snprintf(sql, sizeof sql, "EXECUTE FUNCTION oni_ts_info('%s','%s',%s)", tab, col, key);
    const char *r = q(sql);
    const char *p = strstr(r, "\"elements\":");
    return p ? atoll(p + 11) : -1;
}

static void setup_schema(void) {
    CHECK_RUN("create database tsdb with log", 0);
    CHECK_RUN("create row type all_t (ts datetime year to fraction(5), a smallint, b integer, "
              "c int8, d bigint, e smallfloat, f float, g decimal(10,2), h decimal(16))",
              0);
    CHECK_RUN("create row type all_t (ts datetime year to fraction(5), a smallint)", -9631);
    /* any row type can be made; a TIMESERIES column checks its own */
    CHECK_RUN("create row type bad_t (a integer, b float)", 0);
    CHECK_RUN("create table badk (id int primary key, s timeseries(bad_t))", -746);
    CHECK_RUN("create row type bad2_t (ts datetime year to fraction(5), b char(10))", 0);
    CHECK_RUN("create table badk (id int primary key, s timeseries(bad2_t))", -746);
    CHECK_RUN("drop row type bad_t restrict", 0);
    CHECK_RUN("drop row type bad2_t restrict", 0);
    CHECK_RUN("create table dev (id int primary key, name varchar(20), s timeseries(all_t))", 0);
    CHECK_RUN("create table nokey (id int, s timeseries(all_t))", -746);
    CHECK_RUN("create table badt (id int primary key, s timeseries(nosuch_t))", -746);
    CHECK_Q("execute function oni_ts_create('dev','s',1,'2026-01-01 00:00','1 minute')", "1");
    CHECK_Q("execute function oni_ts_create('DEV','S',1,'2026-01-01 00:00','ts_1min')", "0");
    CHECK_Q("execute function oni_ts_create('dev','s',1,'2026-01-01 00:00','1 hour')", "ERR -746");
    CHECK_Q("execute function oni_ts_create('dev','s',2,'2026-01-01 00:00',NULL)", "1");
    CHECK_Q("select id, s from dev order by id",
            "1|origin(2026-01-01 00:00:00.00000), interval(1 minute), regular\n"
            "2|origin(2026-01-01 00:00:00.00000), irregular");
    CHECK_Q("execute function oni_ts_create('dev','name',3,'2026-01-01',NULL)", "ERR -746");
    CHECK_Q("execute function oni_ts_create('nosuch','s',3,'2026-01-01',NULL)", "ERR -746");
}

static void types_and_nulls(void) {
    CHECK_Q("execute function oni_ts_write('dev','s',1,'2026-01-01 00:00:00.00000|-32767|"
            "2147483647|-9223372036854775807|9223372036854775807|1.5|0.1|12345678.91|"
            "-123456789012.3456')",
            "1");
    CHECK_Q("execute function oni_ts_write('dev','s',1,'2026-01-01 00:01|||||||||')", "1");
    CHECK_Q("execute function oni_ts_write('dev','s',1,'2026-01-01 00:02|0|0|0|0|-0|-0|0|0|')",
            "1");
    CHECK_Q("execute function oni_ts_write('dev','s',1,'2026-01-01 00:03|1|1|1|1|inf|-inf|1|1')",
            "1");
    CHECK_Q("execute function oni_ts_write('dev','s',1,'2026-01-01 00:04|1|1|1|1|nan|nan|1|1')",
            "1");
    CHECK_Q("select * from table(oni_ts_read_rows('dev','s',1,NULL,NULL)::multiset(all_t))",
            "2026-01-01 00:00:00.00000|-32767|2147483647|-9223372036854775807|"
            "9223372036854775807|1.500000|0.100000000000000|12345678.91|-123456789012.3456\n"
            "2026-01-01 00:01:00.00000|NULL|NULL|NULL|NULL|NULL|NULL|NULL|NULL\n"
            "2026-01-01 00:02:00.00000|0|0|0|0|-0.000000|-0.00000000000000|0.00|0\n"
            "2026-01-01 00:03:00.00000|1|1|1|1|Infinity|-Infinity|1.00|1\n"
            /* NaN is kept in storage and JSON; FLOAT's tuple NULL is a NaN
             * pattern, so rows show it as NULL (docs/timeseries.md) */
            "2026-01-01 00:04:00.00000|1|1|1|1|NULL|NULL|1.00|1");
    CHECK_Q("execute function oni_ts_last('dev','s',1)",
            "2026-01-01 00:04:00.00000|1|1|1|1|nan|nan|1.00|1");
    const char *j = q("execute function oni_ts_read('dev','s',1,'2026-01-01 00:01',"
                      "'2026-01-01 00:03')");
    CHECK(!strcmp(j, "{\"n\":3,\"start\":\"2026-01-01 00:01:00.00000\",\"step\":60000000,"
                     "\"a\":[null,0,1],\"b\":[null,0,1],\"c\":[null,0,1],\"d\":[null,0,1],"
                     "\"e\":[null,-0,\"Infinity\"],\"f\":[null,-0,\"-Infinity\"],"
                     "\"g\":[null,0.00,1.00],\"h\":[null,0,1],\"next\":null}"),
          "JSON of NULL, -0 and infinities: %s", j);
    /* out of range and malformed values: an error, nothing written */
    CHECK_Q("execute function oni_ts_write('dev','s',1,'2026-01-01 00:05|32768|1|1|1|1|1|1|1')",
            "ERR -746");
    CHECK_Q("execute function oni_ts_write('dev','s',1,'2026-01-01 00:05|1|x|1|1|1|1|1|1')",
            "ERR -746");
    CHECK_Q(
        "execute function oni_ts_write('dev','s',1,'2026-01-01 00:05|1|1|1|1|1|1|123456789.1|1')",
        "ERR -746");
    CHECK_Q("execute function oni_ts_write('dev','s',1,'2026-13-01 00:05|1|1|1|1|1|1|1|1')",
            "ERR -746");
    CHECK_Q("execute function oni_ts_write('dev','s',1,'2026-01-01 00:05|1|1')", "ERR -746");
    CHECK_Q("execute function oni_ts_write('dev','s',1,'2026-01-01 00:05|1|1|1|1|1|1|1|1|1|1')",
            "ERR -746");
    CHECK_Q("execute function oni_ts_write('dev','s',1,'2025-12-31 23:59|1|1|1|1|1|1|1|1')",
            "ERR -746");
    CHECK(strstr(ERR.text, "before the origin") != NULL, "before origin: %s", ERR.text);
    CHECK_Q("execute function oni_ts_write('dev','s',99,'2026-01-01 00:05|1|1|1|1|1|1|1|1')",
            "ERR -746");
    CHECK(elements("dev", "s", "1") == 5, "nothing written by the failed calls");
    CHECK_Q("execute function oni_ts_write_many('dev','s',1,'2026-01-01 00:06|1|1|1|1|1|1|1|1\n"
            "2026-01-01 00:07|1|1|1|1|1|zz|1|1')",
            "ERR -746");
    CHECK(strstr(ERR.text, "line 2") != NULL, "bad line named: %s", ERR.text);
    CHECK(elements("dev", "s", "1") == 5, "a batch with a bad line writes nothing");
}

/* n elements of series key from minute m0, one per minute, written in
 * batches of 400 (a string literal holds 32,767 bytes); b is the element
 * number, f a walk in 0.01 steps. */
static void write_walk(int key, int m0, int n) {
    long long w = 2000;
    for (int k0 = 0; k0 < n; k0 += 400) {
        size_t o = 0;
        int nb = n - k0 < 400 ? n - k0 : 400;
        for (int k = k0; k < k0 + nb; k++) {
            int m = m0 + k;
            w += (k * 7919 % 3) - 1;
            o += (size_t)snprintf(
                BIG + o, sizeof BIG - o,
                "2026-01-%02d %02d:%02d:00|%d|%d|%d|%d|%d.5|%lld.%02lld|%d.25|%d\n", 1 + m / 1440,
                m / 60 % 24, m % 60, k % 100, k, k, k, k % 7, w / 100, w % 100, k % 1000, k);
        }
        char sql[40000];
        snprintf(sql, sizeof sql, "execute procedure oni_ts_write_many('dev','s',%d,'%.*s')", key,
                 (int)o, BIG);
        CHECK_RUN(sql, 0);
        CHECK(ROWS == nb, "write_many wrote %lld of %d", (long long)ROWS, nb);
    }
}

static void bulk_and_pages(void) {
    CHECK_Q("execute function oni_ts_create('dev','s',10,'2026-01-01 00:00','1 minute')", "1");
    write_walk(10, 0, 3 * 1440); /* three days: three day-aligned chunks */
    CHECK(elements("dev", "s", "10") == 3 * 1440, "elements %lld", elements("dev", "s", "10"));
    const char *info = q("execute function oni_ts_info('dev','s',10)");
    /* batches of 400 fill each day's chunk (a chunk never spans two days) */
    CHECK(strstr(info, "\"head\":0") != NULL && atoll(strstr(info, "\"chunks\":") + 9) <= 6,
          "sealed in few chunks: %s", info);
    CHECK(count_rows("10", "'2026-01-01 12:00'", "'2026-01-02 12:00'") == 1441, "rows window");
    /* pages: concatenated they are the window; each within its limit, full */
    char from[64] = "NULL";
    long long total = 0;
    int pages = 0, tight = 1;
    for (;;) {
        char sql[256];
        snprintf(sql, sizeof sql, "execute function oni_ts_read('dev','s',10,%s,NULL,'max=2000')",
                 from);
        const char *r = q(sql);
        size_t len = strlen(r);
        long long n = atoll(strstr(r, "\"n\":") + 4);
        CHECK(len <= 2000, "page %d is %zu bytes", pages, len);
        total += n;
        pages++;
        const char *nx = strstr(r, "\"next\":");
        if (!nx || !strncmp(nx + 7, "null", 4)) break;
        /* one more element would not have fitted in this page */
        snprintf(sql, sizeof sql, "execute function oni_ts_read('dev','s',10,%s,NULL,'limit=%lld')",
                 from, n + 1);
        snprintf(from, sizeof from, "'%.25s'", nx + 8);
        if (strlen(q(sql)) <= 2000) tight = 0;
        if (pages > 1000) break;
    }
    CHECK(total == 3 * 1440, "pages hold %lld elements", total);
    CHECK(pages > 10 && tight, "%d pages, split at the limit: %d", pages, tight);
}

/* The JSON writer prints the values of a sealed decimal-scaled chunk from
 * their scaled integers (put_scaled) and those of head elements from the
 * doubles (ixts_val_text): the same elements give byte-identical pages, at
 * every scale 0..9, negative, and with NULLs. */
static void page_fast_vs_general(void) {
    static const char *v1[] = {"0.05",      "0.123",   "19.9",      "1000.01",    "-0.5",
                               "0.0123",    "-20",     "99.99",     "1.10",       "0.1",
                               "123456.78", "-0.001",  "7",         "0.00000001", "2.000000005",
                               "-3.25",     "1000000", "0.0000001", "42.4242",    "0"};
    static const char *v2[] = {"20.01", "20.1", "-20.09", "19.99", "0.01", "100", "", "5.5"};
    char got[2][40000];
    for (int sid = 3; sid <= 4; sid++) {
        char sql[200];
        snprintf(sql, sizeof sql,
                 "execute function oni_ts_create('meters','readings',%d,'2026-01-01',"
                 "'1 minute')",
                 sid);
        CHECK_Q(sql, "1");
        /* 300 in one call seal into a chunk; 200 stay in the head */
        int n = sid == 3 ? 300 : 200;
        size_t o = (size_t)snprintf(
            BIG, sizeof BIG, "execute procedure oni_ts_write_many('meters','readings',%d,'", sid);
        for (int k = 0; k < n; k++)
            o += (size_t)snprintf(BIG + o, sizeof BIG - o, "2026-01-01 %02d:%02d|%s|%s|%s|\n",
                                  k / 60, k % 60, v1[k % 20], v2[k % 8], k % 7 ? "1.5" : "");
        snprintf(BIG + o, sizeof BIG - o, "')");
        CHECK_RUN(BIG, 0);
        snprintf(sql, sizeof sql, "execute function oni_ts_info('meters','readings',%d)", sid);
        q(sql);
        CHECK(strstr(OUT, sid == 3 ? "\"head\":0" : "\"head\":200") != NULL, "series %d: %s", sid,
              OUT);
        snprintf(sql, sizeof sql,
                 "execute function oni_ts_read('meters','readings',%d,NULL,NULL,'limit=200')", sid);
        snprintf(got[sid - 3], sizeof got[0], "%s", q(sql));
    }
    /* the pages differ only in "next" (the sealed series has more) */
    char *nx = strstr(got[0], ",\"next\":");
    if (nx) snprintf(nx, sizeof got[0] - (size_t)(nx - got[0]), ",\"next\":null}");
    CHECK(!strcmp(got[0], got[1]), "sealed page\n%s\nhead page\n%s", got[0], got[1]);
}

/* A file written before the chunk summaries had their own table (each
 * chunk's summary in _ixd_ts_chunk.summ) reads, aggregates and takes writes
 * as it is. The test makes one: a database written now, then turned into
 * the old layout by hand (summaries moved back, their table and triggers
 * dropped). */
static void old_layout_write(int day0, int days) {
    for (int d = day0; d < day0 + days; d++)
        for (int h = 0; h < 24; h += 6) { /* batches of 360: the day seals */
            size_t o = (size_t)snprintf(BIG, sizeof BIG,
                                        "execute procedure oni_ts_write_many('m','r',1,'");
            for (int k = 0; k < 360; k++)
                o += (size_t)snprintf(BIG + o, sizeof BIG - o, "2026-02-%02d %02d:%02d|%d.%02d|\n",
                                      d, h + k / 60, k % 60, d * 10 + k % 7, (k * 13 + h) % 100);
            snprintf(BIG + o, sizeof BIG - o, "')");
            CHECK_RUN(BIG, 0);
        }
}

/* An integer the file's own SQLite answers (the storage tables are not
 * visible through ixd's SQL). */
static int raw_int(const char *sql) {
    char path[400];
    snprintf(path, sizeof path, "%s/oldts.db", DIR_);
    sqlite3 *h;
    sqlite3_stmt *st;
    int v = -1;
    if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
        sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK) {
        if (sqlite3_step(st) == SQLITE_ROW) v = sqlite3_column_int(st, 0);
        sqlite3_finalize(st);
    }
    sqlite3_close(h);
    return v;
}
#define CHECK_RAW(sql, want) CHECK(raw_int(sql) == (want), "%s: %d", sql, raw_int(sql))

static void old_layout_make(void) {
    ixd_db_close(D);
    D = NULL;
    char path[400];
    snprintf(path, sizeof path, "%s/oldts.db", DIR_);
    sqlite3 *h;
    CHECK(sqlite3_open(path, &h) == SQLITE_OK, "open %s", path);
    char *msg = NULL;
    CHECK(sqlite3_exec(h,
                       "UPDATE _ixd_ts_chunk SET summ = (SELECT s.summ FROM _ixd_ts_summ s WHERE "
                       "s.sid = _ixd_ts_chunk.sid AND s.t0 = _ixd_ts_chunk.t0);"
                       "DROP TRIGGER _ixd_ts_chunk_del; DROP TRIGGER _ixd_ts_chunk_t0;"
                       "DROP TABLE _ixd_ts_summ;",
                       NULL, NULL, &msg) == SQLITE_OK,
          "old layout: %s", msg ? msg : "");
    sqlite3_free(msg);
    sqlite3_stmt *st;
    sqlite3_prepare_v2(h, "SELECT count(*) FROM _ixd_ts_chunk WHERE summ IS NOT NULL", -1, &st,
                       NULL);
    CHECK(sqlite3_step(st) == SQLITE_ROW && sqlite3_column_int(st, 0) == 3,
          "three old chunks with their summaries: %d", sqlite3_column_int(st, 0));
    sqlite3_finalize(st);
    sqlite3_close(h);
    CHECK_RUN("database oldts", 0);
}

/* The day counts and sums from the summaries against those of the rows. */
static void old_layout_check_days(const char *what) {
    char agg[4096];
    snprintf(agg, sizeof agg, "%s",
             q("execute function oni_ts_aggregate('m','r',1,NULL,NULL,'1 day','count,sum')"));
    int nd = 0;
    for (const char *a = agg; *a; nd++) {
        char day[11], sql[300];
        long long ca, cr;
        double sa, sr;
        CHECK(sscanf(a, "%10s %*[^|]|%lld|%lf", day, &ca, &sa) == 3, "%s: %s", what, a);
        snprintf(sql, sizeof sql,
                 "select count(v), sum(v) from table(oni_ts_read_rows('m','r',1,'%s 00:00',"
                 "'%s 23:59')::multiset(old_t))",
                 day, day);
        CHECK(sscanf(q(sql), "%lld|%lf", &cr, &sr) == 2 && ca == cr &&
                  fabs(sa - sr) <= 1e-9 * fabs(sr),
              "%s: day %s: %lld %.17g against %s", what, day, ca, sa, OUT);
        a = strchr(a, '\n') ? strchr(a, '\n') + 1 : "";
    }
    CHECK(nd > 0, "%s: days %s", what, agg);
}

static void old_layout(void) {
    CHECK_RUN("create database oldts with log", 0);
    CHECK_RUN("create row type old_t (ts datetime year to fraction(5), v float)", 0);
    CHECK_RUN("create table m (id int primary key, r timeseries(old_t))", 0);
    CHECK_Q("execute function oni_ts_create('m','r',1,'2026-02-01','1 minute')", "1");
    old_layout_write(1, 3);
    char page[40000], agg[4096];
    snprintf(page, sizeof page, "%s", q("execute function oni_ts_read('m','r',1,NULL,NULL)"));
    snprintf(agg, sizeof agg, "%s",
             q("execute function oni_ts_aggregate('m','r',1,NULL,NULL,'1 day','avg,min,max')"));
    /* the layout of now: the summaries in their own table */
    CHECK_RAW("select count(*) from _ixd_ts_summ", 3);
    CHECK_RAW("select count(*) from _ixd_ts_chunk where summ is null", 3);
    old_layout_make();
    /* read as it is */
    CHECK(!strcmp(q("execute function oni_ts_read('m','r',1,NULL,NULL)"), page), "page: %.200s",
          OUT);
    CHECK(!strcmp(q("execute function oni_ts_aggregate('m','r',1,NULL,NULL,'1 day',"
                    "'avg,min,max')"),
                  agg),
          "summaries of the chunks: %s against %s", OUT, agg);
    q("execute function oni_ts_info('m','r',1)");
    CHECK(strstr(OUT, "\"elements\":4320,\"chunks\":3,") != NULL, "info: %s", OUT);
    old_layout_check_days("old layout");
    /* writes: a late element rewrites an old chunk, a new day seals a new
     * one (the summaries' table comes with it) */
    CHECK_RUN("execute procedure oni_ts_write('m','r',1,'2026-02-02 12:00:30|99.5')", 0);
    CHECK_Q("select count(*) from m", "1");
    old_layout_write(4, 1);
    CHECK_RAW("select count(*) from _ixd_ts_summ", 2);
    CHECK_RAW("select count(*) from _ixd_ts_chunk where summ is not null", 2);
    old_layout_check_days("after writes");
    /* a delete across an old chunk and the new one; retention drops one */
    CHECK_Q("execute function oni_ts_delete('m','r',1,'2026-02-03 23:00','2026-02-04 01:00')",
            "121");
    old_layout_check_days("after delete");
    CHECK_Q("execute function oni_ts_retain('m','r',1,'2026-02-02 00:00')", "1440");
    old_layout_check_days("after retention");
    CHECK_RAW("select count(*) from _ixd_ts_chunk", 3);
    CHECK_RAW("select count(*) from _ixd_ts_summ s where not exists (select 1 from _ixd_ts_chunk c "
              "where c.sid = s.sid and c.t0 = s.t0)",
              0);
    CHECK_RUN("drop table m", 0);
    CHECK_RAW("select count(*) from _ixd_ts_summ", 0);
}

/* ixts_time_format (digit pairs) against the same text made with
 * snprintf, at every fraction width, before and after 1970. */
static void time_format_text(void) {
    static const int64_t base[] = {0,
                                   -1,
                                   1,
                                   86399999999LL,
                                   -86400000000LL,
                                   1767225600000000LL,
                                   1767225659123456LL,
                                   -2208988800000000LL,
                                   253402300799999999LL,
                                   -62135596800000000LL};
    int bad = 0;
    for (size_t b = 0; b < sizeof base / sizeof base[0]; b++)
        for (int64_t k = 0; k < 2000; k++) {
            int64_t us = base[b] + k * 7919 * 1013 + (k % 7) * 86400000000LL;
            if (us > 253402300799999999LL || us < -62135596800000000LL) continue;
            int64_t days = us / 86400000000LL, rem = us % 86400000000LL;
            if (rem < 0) rem += 86400000000LL, days--;
            int y, m, d;
            ixt_date_to_ymd((int32_t)(days + IXT_DATE_UNIX_EPOCH), &y, &m, &d);
            for (int f = 0; f <= 6; f++) {
                char want[64], got[TS_TIME_TEXT], fr[16];
                snprintf(fr, sizeof fr, ".%06lld", (long long)(rem % 1000000));
                fr[f ? f + 1 : 0] = 0;
                snprintf(want, sizeof want, "%04d-%02d-%02d %02d:%02d:%02d%s", y, m, d,
                         (int)(rem / 3600000000LL), (int)(rem / 60000000 % 60),
                         (int)(rem / 1000000 % 60), fr);
                size_t n = ixts_time_format(us, f, got);
                if (n != strlen(want) || strcmp(got, want)) {
                    if (!bad++)
                        CHECK(0, "time %lld fdig %d: %s, want %s", (long long)us, f, got, want);
                }
            }
        }
    CHECK(bad == 0, "time texts: %d differ", bad);
}

/* The benchmark's shape: three FLOAT walks in 0.01 steps, one a minute. A
 * default page (32,739 bytes) holds at least 1,200 of them. */
static void page_capacity(void) {
    CHECK_RUN("create row type reading_t (ts datetime year to fraction(5), m1 float, m2 float, "
              "m3 float)",
              0);
    CHECK_RUN("create table meters (id int primary key, readings timeseries(reading_t))", 0);
    CHECK_Q("execute function oni_ts_create('meters','readings',1,'2026-01-01','1 minute')", "1");
    long long w[3] = {2001, 5010, 100000};
    for (int k0 = 0; k0 < 2000; k0 += 400) {
        size_t o = 0;
        for (int k = k0; k < k0 + 400; k++) {
            for (int m = 0; m < 3; m++)
                w[m] += (k * 31 + m * 17) % 3 - 1;
            o += (size_t)snprintf(BIG + o, sizeof BIG - o,
                                  "2026-01-%02d %02d:%02d|%lld.%02lld|%lld.%02lld|%lld.%02lld\n",
                                  1 + k / 1440, k / 60 % 24, k % 60, w[0] / 100, w[0] % 100,
                                  w[1] / 100, w[1] % 100, w[2] / 100, w[2] % 100);
        }
        char sql[40000];
        snprintf(sql, sizeof sql,
                 "execute procedure oni_ts_write_many('meters','readings',1,'%.*s')", (int)o, BIG);
        CHECK_RUN(sql, 0);
    }
    const char *r = q("execute function oni_ts_read('meters','readings',1,NULL,NULL)");
    long long n = atoll(strstr(r, "\"n\":") + 4);
    CHECK(strlen(r) <= 32739 && n >= 1200, "default page: %zu bytes, %lld elements", strlen(r), n);
    /* decimal-scaled values print as written (a sealed chunk of 300) */
    static const char *vals[] = {"0.05",     "0.123", "19.9",  "1000.01", "-0.5", "0.0123",
                                 "123456.7", "-20",   "99.99", "5e-3",    "1.10", "4294967296.25"};
    static const char *want[] = {"0.05",     "0.123", "19.9",  "1000.01", "-0.5", "0.0123",
                                 "123456.7", "-20",   "99.99", "0.005",   "1.1",  "4294967296.25"};
    CHECK_Q("execute function oni_ts_create('meters','readings',2,'2026-01-01','1 minute')", "1");
    size_t o = (size_t)snprintf(BIG, sizeof BIG,
                                "execute procedure oni_ts_write_many('meters','readings',2,'");
    for (int k = 0; k < 300; k++)
        o += (size_t)snprintf(BIG + o, sizeof BIG - o, "2026-01-01 %02d:%02d|%s|%s|1\n", k / 60,
                              k % 60, vals[k % 12], vals[(k + 5) % 12]);
    snprintf(BIG + o, sizeof BIG - o, "')");
    CHECK_RUN(BIG, 0);
    q("execute function oni_ts_info('meters','readings',2)");
    CHECK(strstr(OUT, "\"head\":0") && strstr(OUT, "\"name\":\"m1\"") &&
              !strstr(strstr(OUT, "\"name\":\"m1\""), "xor"),
          "sealed and decimal-scaled (not XOR): %s", OUT);
    r = q("execute function oni_ts_read('meters','readings',2,NULL,NULL,'limit=12')");
    char m1[512] = "\"m1\":[";
    for (int k = 0; k < 12; k++)
        snprintf(m1 + strlen(m1), sizeof m1 - strlen(m1), "%s%s", k ? "," : "", want[k]);
    CHECK(strstr(r, m1) != NULL, "scaled values %s in %s", m1, r);
    page_fast_vs_general();
}

static void aggregates(void) {
    /* from summaries (day buckets on day chunks) and by decoding (hours) */
    char agg[4096];
    snprintf(agg, sizeof agg, "%s",
             q("execute function oni_ts_aggregate('dev','s',10,NULL,NULL,'1 day',"
               "'count,min,max,sum')"));
    char want[1024];
    snprintf(want, sizeof want, "%s",
             q("select count(a), min(a), max(a), sum(a) from table(oni_ts_read_rows('dev','s',10,"
               "'2026-01-02 00:00','2026-01-02 23:59')::multiset(all_t))"));
    CHECK(strstr(agg, "2026-01-02 00:00:00.00000|1440|") != NULL, "day buckets: %s", agg);
    char line[256];
    long long c, mn, mx;
    double sm;
    CHECK(sscanf(want, "%lld|%lld|%lld|%lf", &c, &mn, &mx, &sm) == 4, "rows agg %s", want);
    snprintf(line, sizeof line, "2026-01-02 00:00:00.00000|%lld|%lld|%lld|", c, mn, mx);
    CHECK(strstr(agg, line) != NULL, "summary aggregate %s in %s", line, agg);
    const char *h = q("execute function oni_ts_aggregate('dev','s',10,'2026-01-01 00:30',"
                      "'2026-01-01 02:59','1 hour','count,first,last')");
    CHECK(!strncmp(h, "2026-01-01 00:00:00.00000|30|", 29), "partial first hour: %s", h);
    CHECK_Q("select count(*) from table(oni_ts_aggregate('dev','s',10,NULL,NULL,'1 hour','avg')"
            ")",
            "72");
    CHECK_Q("execute function oni_ts_aggregate('dev','s',10,NULL,NULL,'1 hour','median')",
            "ERR -746");
}

static void duplicates_and_late(void) {
    long long before = elements("dev", "s", "10");
    /* a duplicate in a sealed chunk replaces the element; a JSON page read
     * before (its chunk kept decoded for the next page) sees the new value */
    const char *j0 = q("execute function oni_ts_read('dev','s',10,'2026-01-02 10:00',"
                       "'2026-01-02 10:00')");
    CHECK(strstr(j0, "\"b\":[2040]") != NULL, "before: %s", j0);
    CHECK_Q("execute function oni_ts_write('dev','s',10,'2026-01-02 10:00|1|-5|1|1|1|1|1|1')", "1");
    j0 = q("execute function oni_ts_read('dev','s',10,'2026-01-02 10:00','2026-01-02 10:00')");
    CHECK(strstr(j0, "\"b\":[-5]") != NULL, "after: %s", j0);
    CHECK(elements("dev", "s", "10") == before, "replace keeps the count");
    CHECK_Q("select b from table(oni_ts_read_rows('dev','s',10,'2026-01-02 10:00',"
            "'2026-01-02 10:00')::multiset(all_t))",
            "-5");
    CHECK_Q("execute function oni_ts_write('dev','s',10,'2026-01-02 10:00|1|-6|1|1|1|1|1|1',"
            "'dup=error')",
            "ERR -268");
    CHECK_Q("execute function oni_ts_write('dev','s',10,'2026-01-02 10:00|1|-6|1|1|1|1|1|1',"
            "'dup=maybe')",
            "ERR -746");
    /* a gap, then a late write into it */
    CHECK_Q("execute function oni_ts_delete('dev','s',10,'2026-01-02 00:00','2026-01-02 23:59')",
            "1440");
    CHECK(elements("dev", "s", "10") == before - 1440, "delete count");
    const char *j = q("execute function oni_ts_read('dev','s',10,'2026-01-01 23:58',"
                      "'2026-01-03 00:01','limit=3')");
    CHECK(strstr(j, "\"i\":[0,1,1442]") != NULL, "a gap gives slot offsets: %s", j);
    CHECK_Q("execute function oni_ts_write('dev','s',10,'2026-01-02 12:00|1|77|1|1|1|1|1|1')", "1");
    CHECK(count_rows("10", "'2026-01-02 00:00'", "'2026-01-02 23:59'") == 1, "late write");
    CHECK_Q("select b from table(oni_ts_read_rows('dev','s',10,'2026-01-02 00:00',"
            "'2026-01-02 23:59')::multiset(all_t))",
            "77");
    /* retention: whole chunks before the cut-off */
    CHECK_Q("execute function oni_ts_retain('dev','s',10,'2026-01-02 00:00')", "1440");
    CHECK(count_rows("10", "NULL", "'2026-01-01 23:59'") == 0, "retained");
    CHECK(elements("dev", "s", "10") == 1441, "after retention %lld", elements("dev", "s", "10"));
}

static void irregular(void) {
    CHECK_Q("execute function oni_ts_write_many('dev','s',2,"
            "'2026-03-01 00:00:05.000007|1|1|1|1|1|1|1|1\n"
            "2026-03-01 00:00:01|2|2|2|2|2|2|2|2\n"
            "2026-03-01 00:00:03.5|3|3|3|3|3|3|3|3')",
            "3");
    CHECK_Q("select a from table(oni_ts_read_rows('dev','s',2,NULL,NULL)::multiset(all_t))",
            "2\n3\n1");
    const char *j = q("execute function oni_ts_read('dev','s',2,NULL,NULL)");
    CHECK(strstr(j, "\"start\":\"2026-03-01 00:00:01.00000\",\"t\":[0,2500000,4000007]") != NULL,
          "irregular JSON: %s", j);
    CHECK_Q("execute function oni_ts_last('dev','s',2)",
            "2026-03-01 00:00:05.000007|1|1|1|1|1|1|1.00|1");
}

static void transactions(void) {
    long long before = elements("dev", "s", "1");
    CHECK_RUN("begin work", 0);
    CHECK_Q("execute function oni_ts_write('dev','s',1,'2026-01-01 00:10|1|1|1|1|1|1|1|1')", "1");
    CHECK(elements("dev", "s", "1") == before + 1, "visible in the transaction");
    CHECK_RUN("rollback work", 0);
    CHECK(elements("dev", "s", "1") == before, "ROLLBACK removes the element");
    CHECK_RUN("begin work", 0);
    CHECK_Q("execute function oni_ts_write('dev','s',1,'2026-01-01 00:10|1|1|1|1|1|1|1|1')", "1");
    CHECK_RUN("commit work", 0);
    CHECK(elements("dev", "s", "1") == before + 1, "COMMIT keeps it");
    /* one element per call in a transaction: COMMIT seals a head of 256 or
     * more (fewer stay staged) */
    CHECK_Q("execute function oni_ts_create('dev','s',20,'2026-05-01 00:00','1 second')", "1");
    for (int round = 0; round < 2; round++) {
        int n = round ? 300 : 100;
        CHECK_RUN("begin work", 0);
        for (int k = 0; k < n; k++) {
            char sql[200];
            int t = round * 1000 + k;
            snprintf(
                sql, sizeof sql,
                "execute procedure oni_ts_write('dev','s',20,'2026-05-01 00:%02d:%02d|%d|1|1|1|"
                "1|1|1|1')",
                t / 60, t % 60, k % 100);
            CHECK_RUN(sql, 0);
        }
        CHECK_RUN("commit work", 0);
        const char *i = q("execute function oni_ts_info('dev','s',20)");
        CHECK(strstr(i, round ? "\"head\":0" : "\"head\":100") != NULL, "after %d writes: %s", n,
              i);
    }
    CHECK(elements("dev", "s", "20") == 400, "all 400 kept");
    CHECK(count_rows("20", "NULL", "NULL") == 400, "and read back");
}

/* The value of a one-row query on another connection d2. */
static long long qint2(ixd_db *d2, const char *sql) {
    ixd_db *save = D;
    D = d2;
    long long v = qint(sql);
    D = save;
    return v;
}

/* A series a call kept for the next one is not used once the data changed
 * under it: a write by another connection, the row deleted by SQL, a
 * ROLLBACK. */
static void series_cache(void) {
    ixd_db *d2 = NULL;
    int fl;
    CHECK(ixd_db_open(E, "tsdb", "other", &d2, &fl, &ERR) == 0, "second connection");
    if (!d2) return;
    CHECK_Q("execute function oni_ts_create('dev','s',30,'2026-01-01',NULL)", "1");
    CHECK_Q("execute function oni_ts_write('dev','s',30,'2026-01-01 00:00|1|1|1|1|1|1|1|1')", "1");
    /* a read keeps the series; another connection writes; the next read sees it */
    CHECK_Q("execute function oni_ts_last('dev','s',30)",
            "2026-01-01 00:00:00.00000|1|1|1|1|1|1|1.00|1");
    CHECK(qint2(d2, "execute function oni_ts_write('dev','s',30,'2026-01-01 00:01|2|2|2|2|2|2|2|"
                    "2')") == 1,
          "written by the other connection");
    CHECK(elements("dev", "s", "30") == 2, "the other connection's element seen: %lld",
          elements("dev", "s", "30"));
    CHECK_Q("execute function oni_ts_last('dev','s',30)",
            "2026-01-01 00:01:00.00000|2|2|2|2|2|2|2.00|2");
    /* in a transaction: writes reuse the series, a ROLLBACK drops it */
    CHECK_RUN("begin work", 0);
    CHECK_Q("execute function oni_ts_write('dev','s',30,'2026-01-01 00:03|4|4|4|4|4|4|4|4')", "1");
    CHECK_Q("execute function oni_ts_write('dev','s',30,'2026-01-01 00:04|5|5|5|5|5|5|5|5')", "1");
    CHECK(elements("dev", "s", "30") == 4, "two more: %lld", elements("dev", "s", "30"));
    CHECK_RUN("rollback work", 0);
    CHECK(elements("dev", "s", "30") == 2, "after the rollback: %lld", elements("dev", "s", "30"));
    /* the row deleted by SQL in the transaction: the series is gone at once */
    CHECK_RUN("begin work", 0);
    CHECK_Q("execute function oni_ts_write('dev','s',30,'2026-01-01 00:05|6|6|6|6|6|6|6|6')", "1");
    CHECK_RUN("delete from dev where id = 30", 0);
    CHECK_Q("execute function oni_ts_write('dev','s',30,'2026-01-01 00:06|7|7|7|7|7|7|7|7')",
            "ERR -746");
    CHECK_RUN("rollback work", 0);
    CHECK(elements("dev", "s", "30") == 2, "all rolled back: %lld", elements("dev", "s", "30"));
    CHECK_RUN("delete from dev where id = 30", 0);
    ixd_db_close(d2);
}

static void write_file(void) {
    char dir[300], path[400], cmd[900];
    snprintf(dir, sizeof dir, "%s_load", DIR_);
    mkdir(dir, 0700);
    CHECK_Q("execute function oni_ts_write_file('dev','s','x.unl')", "ERR -746");
    CHECK(strstr(ERR.text, "--load-dir") != NULL, "disabled without a load dir: %s", ERR.text);
    ixts_set_load_dir(dir);
    snprintf(path, sizeof path, "%s/x.unl", dir);
    FILE *f = fopen(path, "w");
    fprintf(f, "1|2026-01-01 01:00|5|5|5|5|5|5|5|5|\n2|2026-04-01 00:00|6|6|6|6|6|6|6|6|\n"
               "1|2026-01-01 01:01|7|7|7|7|7|7|7|7|\n");
    fclose(f);
    long long e1 = elements("dev", "s", "1"), e2 = elements("dev", "s", "2");
    CHECK_Q("execute function oni_ts_write_file('dev','s','x.unl')", "3");
    CHECK(elements("dev", "s", "1") == e1 + 2 && elements("dev", "s", "2") == e2 + 1, "loaded");
    f = fopen(path, "w");
    fprintf(f, "1|2026-01-01 02:00|5|5|5|5|5|5|5|5|\n42|2026-01-01 02:00|5|5|5|5|5|5|5|5|\n");
    fclose(f);
    CHECK_Q("execute function oni_ts_write_file('dev','s','x.unl')", "ERR -746");
    CHECK(strstr(ERR.text, "line 2") != NULL, "missing series named: %s", ERR.text);
    CHECK(elements("dev", "s", "1") == e1 + 2, "a failed load writes nothing");
    CHECK_Q("execute function oni_ts_write_file('dev','s','../x.unl')", "ERR -746");
    CHECK_Q("execute function oni_ts_write_file('dev','s','/etc/passwd')", "ERR -746");
    snprintf(cmd, sizeof cmd, "ln -sf /etc/passwd %s/link.unl", dir);
    CHECK(system(cmd) == 0, "symlink");
    CHECK_Q("execute function oni_ts_write_file('dev','s','link.unl')", "ERR -746");
    CHECK(strstr(ERR.text, "outside") != NULL, "symlink out refused: %s", ERR.text);
    ixts_set_load_dir(NULL);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    CHECK(system(cmd) == 0, "cleanup");
}

static void drops(void) {
    CHECK_RUN("drop row type all_t restrict", -746);
    /* ALTER TABLE rebuilds the table: the series stay, a row's delete still
     * deletes its series, a TIMESERIES column can be added and dropped */
    CHECK_RUN("alter table dev add (note varchar(10))", 0);
    CHECK(elements("dev", "s", "2") > 0, "series kept by ALTER");
    CHECK_RUN("alter table dev add (s2 timeseries(all_t))", 0);
    CHECK_Q("execute function oni_ts_create('dev','s2',2,'2026-01-01',NULL)", "1");
    CHECK_Q("execute function oni_ts_write('dev','s2',2,'2026-01-01|1|1|1|1|1|1|1|1')", "1");
    CHECK_RUN("alter table dev drop (s2)", 0);
    CHECK_Q("execute function oni_ts_info('dev','s2',2)", "ERR -746");
    CHECK(elements("dev", "s", "2") > 0, "the other column's series kept");
    CHECK_RUN("delete from dev where id = 2", 0);
    CHECK_Q("execute function oni_ts_info('dev','s',2)", "ERR -746");
    CHECK_Q("select count(*) from _ixd_ts_series", "ERR -206");
    CHECK_RUN("drop table dev", 0);
    CHECK_RUN("drop row type all_t", 0);
    CHECK_RUN("drop row type all_t", -9628);
    CHECK_RUN("drop row type if exists all_t", 0);
}

int main(void) {
    eu_setup("ts");
    setup_schema();
    types_and_nulls();
    bulk_and_pages();
    page_capacity();
    aggregates();
    duplicates_and_late();
    irregular();
    transactions();
    series_cache();
    write_file();
    drops();
    old_layout();
    time_format_text();
    eu_teardown();
    return tap_done();
}
