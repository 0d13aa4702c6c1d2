/* test_client.c: libixdb against a real ixd started here: connecting (URL,
 * keywords, environment defaults), login and DBOPEN errors, DDL, binds of
 * every type round-tripped through typed and text accessors, NULLs, errors
 * with offsets, rows affected and serials, cursors with tiny fetch buffers
 * and read-ahead on/off, a pipelined batch with duplicate keys, transactions,
 * tracing. (test_kill.c covers a server killed mid-fetch and mid-batch.) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/ix_client_int.h"
#include "client/ix_conn_int.h" /* white-box: the connection's fields */
#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#define USER "informix"
#define PASS "in4mix"

static ixd_proc P;
static char kw_base[256];

static ix_conn *connect_db(const char *db) {
    char dsn[512];
    snprintf(dsn, sizeof dsn, "%s%s%s", kw_base, db ? " database=" : "", db ? db : "");
    ix_conn *c = NULL;
    int rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "connect %s: rc=%d %s", dsn, rc, ix_errmsg(c));
    return c;
}

#define EXEC_OK(c, sql)                                                                            \
    do {                                                                                           \
        int rc_ = ix_exec((c), (sql));                                                             \
        CHECK(rc_ == IX_OK, "%s: rc=%d sqlcode=%d %s", (sql), rc_, ix_sqlcode(c), ix_errmsg(c));   \
    } while (0)

/* Text of column 0 of the first row of sql ("NULL" for NULL, "" if none). */
static const char *query1(ix_conn *c, const char *sql, char *buf, size_t cap) {
    ix_stmt *s = NULL;
    snprintf(buf, cap, "<error>");
    if (ix_prepare(c, sql, -1, &s) != IX_OK) {
        snprintf(buf, cap, "<error %d: %s>", ix_sqlcode(c), ix_errmsg(c));
        return buf;
    }
    int rc = ix_step(s);
    if (rc == IX_ROW) {
        const char *t = ix_column_text(s, 0);
        snprintf(buf, cap, "%s", t ? t : "NULL");
    } else if (rc == IX_DONE) {
        buf[0] = 0;
    } else {
        snprintf(buf, cap, "<step %d: %s>", rc, ix_errmsg(c));
    }
    ix_finalize(s);
    return buf;
}

static int64_t count_rows(ix_conn *c, const char *table) {
    char sql[256], buf[128];
    snprintf(sql, sizeof sql, "select count(*) from %s", table);
    query1(c, sql, buf, sizeof buf);
    return strtoll(buf, NULL, 10);
}

/* ---- connecting ---------------------------------------------------------------- */

static void test_connect(void) {
    ix_conn *c = NULL;
    char dsn[512];
    snprintf(dsn, sizeof dsn, "informix://" USER ":" PASS "@127.0.0.1:%d?server=ixd", P.port);
    int rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK && !ix_conn_is_dead(c), "URL connect: rc=%d %s", rc, ix_errmsg(c));
    CHECK(ix_server_version(c)[0] != 0, "a server banner: \"%s\"", ix_server_version(c));
    ix_close(c);

    snprintf(dsn, sizeof dsn, "host=127.0.0.1 port=%d user=%s password='%s' server=ixd", P.port,
             USER, PASS);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "keyword connect: rc=%d %s", rc, ix_errmsg(c));
    ix_close(c);

    /* Environment defaults: INFORMIXSERVER, FET_BUF_SIZE, USER. */
    setenv("INFORMIXSERVER", "ixd", 1);
    setenv("FET_BUF_SIZE", "100", 1);
    setenv("USER", USER, 1);
    snprintf(dsn, sizeof dsn, "host=127.0.0.1 port=%d password=" PASS, P.port);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_OK, "env defaults: rc=%d %s", rc, ix_errmsg(c));
    ix_close(c);
    unsetenv("FET_BUF_SIZE");

    snprintf(dsn, sizeof dsn, "host=127.0.0.1 port=%d user=" USER " password=wrong", P.port);
    rc = ix_connect(&c, dsn);
    /* ixd, like Informix, answers a wrong password as an unknown user. */
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -951, "wrong password: rc=%d sqlcode=%d", rc,
          ix_sqlcode(c));
    CHECK(strcmp(ix_errmsg(c),
                 "Incorrect password or user " USER " is not known on the database server.") == 0,
          "text: %s", ix_errmsg(c));
    CHECK(ix_conn_is_dead(c) && strcmp(ix_sqlstate(c), "28000") == 0, "dead, 28000");
    ix_close(c);

    snprintf(dsn, sizeof dsn, "host=127.0.0.1 port=%d user=nobody password=x", P.port);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -951, "unknown user: sqlcode=%d %s", ix_sqlcode(c),
          ix_errmsg(c));
    ix_close(c);

    snprintf(dsn, sizeof dsn, "%s database=nosuchdb", kw_base);
    rc = ix_connect(&c, dsn);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -329, "unknown db: rc=%d sqlcode=%d", rc,
          ix_sqlcode(c));
    CHECK(strncmp(ix_errmsg(c), "Database not found", 18) == 0, "text: %s", ix_errmsg(c));
    ix_close(c);
}

/* ---- DDL and every type ------------------------------------------------------------- */

static void test_types(void) {
    ix_conn *c = connect_db(NULL);
    EXEC_OK(c, "create database clientdb with log");
    ix_close(c);
    c = connect_db("clientdb");
    EXEC_OK(c, "create table ty (id serial, i integer, si smallint, bi bigint, i8 int8, "
               "f float, sf smallfloat, d decimal(10,2), m money(8,2), dt date, "
               "ts datetime year to second, tf datetime year to fraction(3), "
               "iv interval day(3) to second, ym interval year(4) to month, c char(5), "
               "vc varchar(20), lv lvarchar(100), b boolean)");
    ix_stmt *s = NULL;
    int rc =
        ix_prepare(c,
                   "insert into ty (i, si, bi, i8, f, sf, d, m, dt, ts, tf, iv, ym, c, vc, lv, "
                   "b) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   -1, &s);
    CHECK(rc == IX_OK && ix_bind_parameter_count(s) == 17, "prepare insert: %s", ix_errmsg(c));
    CHECK(ix_column_count(s) == 0, "an INSERT has no result columns");
    ix_bind_int(s, 1, -123456);
    ix_bind_int(s, 2, 321);
    ix_bind_int64(s, 3, INT64_C(9000000000123));
    ix_bind_int64(s, 4, INT64_C(-9000000000456));
    ix_bind_double(s, 5, 3.25);
    ix_bind_double(s, 6, -1.5);
    CHECK(ix_bind_decimal_text(s, 7, "-12345.67", -1) == IX_OK, "decimal bind");
    ix_bind_decimal_text(s, 8, "98.76", -1);
    CHECK(ix_bind_date_ymd(s, 9, 2026, 6, 20) == IX_OK, "date bind");
    CHECK(ix_bind_datetime_text(s, 10, "2026-06-20 12:34:56", -1, 0) == IX_OK, "datetime: %s",
          ix_errmsg(c));
    CHECK(ix_bind_datetime_text(s, 11, "2026-07-19 12:34:56.125", -1,
                                ix_qualifier_dt(IX_UNIT_YEAR, IX_UNIT_FRAC(3))) == IX_OK,
          "datetime fraction: %s", ix_errmsg(c));
    CHECK(ix_bind_interval_text(s, 12, "3 03:27:01", -1, 0) == IX_OK, "interval: %s", ix_errmsg(c));
    CHECK(ix_bind_interval_text(s, 13, "12-06", -1,
                                ix_qualifier_iv(4, IX_UNIT_YEAR, IX_UNIT_MONTH)) == IX_OK,
          "interval y-m: %s", ix_errmsg(c));
    ix_bind_text(s, 14, "ab", -1, IX_STATIC);
    char vc[] = "hello, world";
    ix_bind_text(s, 15, vc, -1, IX_TRANSIENT);
    memset(vc, 'x', sizeof vc - 1); /* the library copied it */
    ix_bind_text(s, 16, "a longer lvarchar value", -1, IX_STATIC);
    ix_bind_bool(s, 17, 1);
    CHECK(ix_bind_int(s, 18, 1) == IX_ERANGE, "index 18 out of range");
    CHECK(ix_bind_int(s, 0, 1) == IX_ERANGE, "index 0 out of range");
    rc = ix_step(s);
    CHECK(rc == IX_DONE, "insert step: rc=%d sqlcode=%d %s", rc, ix_sqlcode(c), ix_errmsg(c));
    CHECK(ix_changes(s) == 1 && ix_conn_changes(c) == 1, "1 row inserted");
    CHECK(ix_last_serial(c) == 1, "SERIAL 1 (%lld)", (long long)ix_last_serial(c));
    CHECK(ix_step(s) == IX_DONE, "a second step does not run it again");
    ix_reset(s);
    ix_clear_bindings(s);
    rc = ix_step(s); /* every parameter NULL */
    CHECK(rc == IX_DONE, "all-NULL insert: rc=%d %s", rc, ix_errmsg(c));
    CHECK(ix_last_serial(c) == 2, "SERIAL 2 (%lld)", (long long)ix_last_serial(c));
    ix_finalize(s);

    rc = ix_prepare(c,
                    "select id, i, si, bi, i8, f, sf, d, m, dt, ts, tf, iv, ym, c, vc, lv, b "
                    "from ty order by id",
                    -1, &s);
    CHECK(rc == IX_OK && ix_column_count(s) == 18, "select: %d columns, %s", ix_column_count(s),
          ix_errmsg(c));
    static const int types[] = {6, 2, 1, 52, 17, 3, 4, 5, 8, 7, 10, 10, 14, 14, 0, 13, 43, 45};
    static const char *names[] = {"id", "i",  "si", "bi", "i8", "f", "sf", "d",  "m",
                                  "dt", "ts", "tf", "iv", "ym", "c", "vc", "lv", "b"};
    for (int k = 0; k < 18 && k < ix_column_count(s); k++) {
        CHECK(ix_column_type(s, k) == types[k], "column %d type %d, want %d", k,
              ix_column_type(s, k), types[k]);
        CHECK(strcmp(ix_column_name(s, k), names[k]) == 0, "column %d name %s", k,
              ix_column_name(s, k));
    }
    CHECK(ix_column_enclen(s, 7) == (10 << 8 | 2), "DECIMAL(10,2) enclen %x",
          ix_column_enclen(s, 7));
    rc = ix_step(s);
    CHECK(rc == IX_ROW, "row 1: rc=%d %s", rc, ix_errmsg(c));
    if (rc == IX_ROW) {
        static const char *want[] = {"1",
                                     "-123456",
                                     "321",
                                     "9000000000123",
                                     "-9000000000456",
                                     "3.25000000000000",
                                     "-1.500000",
                                     "-12345.67",
                                     "$98.76",
                                     "06/20/2026",
                                     "2026-06-20 12:34:56",
                                     "2026-07-19 12:34:56.125",
                                     "  3 03:27:01",
                                     "  12-06",
                                     "ab   ",
                                     "hello, world",
                                     "a longer lvarchar value",
                                     "t"};
        for (int k = 0; k < 18; k++) {
            const char *t = ix_column_text(s, k);
            CHECK(t && strcmp(t, want[k]) == 0, "column %s text \"%s\", want \"%s\"", names[k],
                  t ? t : "(null)", want[k]);
            CHECK(!ix_column_is_null(s, k), "column %s not NULL", names[k]);
        }
        CHECK(ix_column_int(s, 1) == -123456 && ix_column_int64(s, 3) == INT64_C(9000000000123) &&
                  ix_column_int64(s, 4) == INT64_C(-9000000000456) && ix_column_int(s, 2) == 321,
              "typed integers");
        CHECK(ix_column_double(s, 5) == 3.25 && ix_column_double(s, 6) == -1.5, "typed floats");
        CHECK(ix_column_double(s, 7) == -12345.67 && ix_column_int64(s, 7) == -12345,
              "decimal as double / truncated integer");
        int32_t d0 = 0;
        (void)d0;
        CHECK(ix_column_int64(s, 9) == 46192, "DATE as day number (%lld)",
              (long long)ix_column_int64(s, 9));
        CHECK(ix_column_int(s, 17) == 1, "BOOLEAN as 1");
        size_t n = 0;
        const char *b = ix_column_blob(s, 15, &n);
        CHECK(b && n == 12 && memcmp(b, "hello, world", 12) == 0, "VARCHAR bytes");
        CHECK(ix_column_bytes(s, 15) == 13 && ((const uint8_t *)ix_column_raw(s, 15))[0] == 12,
              "raw VARCHAR keeps its length byte");
        CHECK(ix_column_bytes(s, 1) == 4, "raw INTEGER is 4 bytes");
        int64_t v;
        CHECK(ix_column_get_int64(s, 15, &v) == IX_EINVAL, "text that is not a number");
        CHECK(ix_column_text(s, 99) == NULL && ix_errcode(c) == IX_EMISUSE, "column out of range");
    }
    rc = ix_step(s);
    CHECK(rc == IX_ROW, "row 2 (NULLs): rc=%d", rc);
    if (rc == IX_ROW) {
        for (int k = 1; k < 18; k++) {
            CHECK(ix_column_is_null(s, k) && ix_column_text(s, k) == NULL, "column %s NULL",
                  names[k]);
        }
        int64_t v = 7;
        CHECK(ix_column_get_int64(s, 1, &v) == IX_NULL_VALUE && v == 0, "NULL typed access");
    }
    CHECK(ix_step(s) == IX_DONE, "end of rows");
    CHECK(ix_step(s) == IX_DONE, "stays done");
    ix_finalize(s);

    /* Parameters in a WHERE clause, reusing a statement with reset. */
    rc = ix_prepare(c, "select vc from ty where i = ? and dt = ?", -1, &s);
    CHECK(rc == IX_OK && ix_bind_parameter_count(s) == 2, "param select");
    ix_bind_int(s, 1, -123456);
    ix_bind_date(s, 2, 46192);
    rc = ix_step(s);
    CHECK(rc == IX_ROW && strcmp(ix_column_text(s, 0), "hello, world") == 0, "bound select: %d %s",
          rc, ix_errmsg(c));
    ix_reset(s);
    ix_bind_int(s, 1, 5);
    CHECK(ix_step(s) == IX_DONE, "no row for other values");
    ix_finalize(s);

    /* '?' inside quotes and comments is not a parameter. */
    rc = ix_prepare(c, "select count(*) from ty where vc <> 'a?b' -- what?\n and i > ?", -1, &s);
    CHECK(rc == IX_OK && ix_bind_parameter_count(s) == 1, "one real parameter (%d)",
          ix_bind_parameter_count(s));
    ix_finalize(s);
    ix_close(c);
}

/* ---- errors, rows affected, serials --------------------------------------------------- */

static void test_errors(void) {
    char dsn[512];
    snprintf(dsn, sizeof dsn, "%s database=clientdb deferred_prepare=0", kw_base);
    ix_conn *c = NULL;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect without deferred PREPARE: %s", ix_errmsg(c));
    ix_stmt *s = (ix_stmt *)1;
    int rc = ix_prepare(c, "select * from nosuchtable", -1, &s);
    CHECK(rc == IX_ESQL && s == NULL && ix_sqlcode(c) == -206, "unknown table: rc=%d %d", rc,
          ix_sqlcode(c));
    CHECK(strcmp(ix_errmsg(c), "The specified table (nosuchtable) is not in the database.") == 0,
          "text: %s", ix_errmsg(c));
    CHECK(strcmp(ix_sqlstate(c), "42S02") == 0, "sqlstate %s", ix_sqlstate(c));
    rc = ix_prepare(c, "select nosuchcol from ty", -1, &s);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -217 && strstr(ix_errmsg(c), "(nosuchcol)"),
          "unknown column: %d %s", ix_sqlcode(c), ix_errmsg(c));
    rc = ix_prepare(c, "select i from ty where", -1, &s);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -201, "syntax error: %d", ix_sqlcode(c));
    CHECK(ix_erroffset(c) > 0, "with an offset (%d)", ix_erroffset(c));
    CHECK(strcmp(ix_sqlstate(c), "42000") == 0, "sqlstate 42000");
    rc = ix_exec(c, "selec 1 from ty");
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -201, "syntax error via ix_exec");
    CHECK(!ix_conn_is_dead(c), "errors keep the connection");

    EXEC_OK(c, "create table ser (id serial, id8 bigserial, v varchar(10))");
    EXEC_OK(c, "insert into ser (v) values ('a')");
    CHECK(ix_last_serial(c) == 1 && ix_conn_changes(c) == 1, "serial 1 via ix_exec (%lld)",
          (long long)ix_last_serial(c));
    CHECK(ix_last_serial8(c) == 1, "bigserial 1 (%lld)", (long long)ix_last_serial8(c));
    EXEC_OK(c, "insert into ser (v) values ('b')");
    EXEC_OK(c, "insert into ser (v) values ('c')");
    CHECK(ix_last_serial(c) == 3 && ix_last_serial8(c) == 3, "serial 3");
    /* each INSERT reports its own values: a table with one kind gives 0 for the other */
    EXEC_OK(c, "create table ser4 (id serial, v int)");
    EXEC_OK(c, "create table ser8 (id bigserial(50), v int)");
    EXEC_OK(c, "insert into ser8 (v) values (1)");
    CHECK(ix_last_serial8(c) == 50 && ix_last_serial(c) == 0, "bigserial only: %lld %lld",
          (long long)ix_last_serial8(c), (long long)ix_last_serial(c));
    EXEC_OK(c, "insert into ser4 (v) values (1)");
    CHECK(ix_last_serial(c) == 1 && ix_last_serial8(c) == 0, "serial only: %lld %lld",
          (long long)ix_last_serial(c), (long long)ix_last_serial8(c));
    ix_stmt *ps = NULL;
    CHECK(ix_prepare(c, "insert into ser8 (v) values (2)", -1, &ps) == IX_OK &&
              ix_step(ps) == IX_DONE && ix_last_serial8(c) == 51 && ix_last_serial(c) == 0,
          "prepared bigserial insert: %lld %lld", (long long)ix_last_serial8(c),
          (long long)ix_last_serial(c));
    ix_finalize(ps);
    EXEC_OK(c, "update ser set v = 'x' where id >= 2");
    CHECK(ix_conn_changes(c) == 2, "2 rows updated (%lld)", (long long)ix_conn_changes(c));
    EXEC_OK(c, "delete from ser where id = 99");
    CHECK(ix_conn_changes(c) == 0, "0 rows deleted");

    EXEC_OK(c, "create table uq (k integer primary key, v varchar(10))");
    EXEC_OK(c, "insert into uq values (1, 'a')");
    rc = ix_exec(c, "insert into uq values (1, 'b')");
    CHECK(rc == IX_ESQL && (ix_sqlcode(c) == -268 || ix_sqlcode(c) == -239), "duplicate: %d %s",
          ix_sqlcode(c), ix_errmsg(c));
    CHECK(strcmp(ix_sqlstate(c), "23000") == 0, "integrity sqlstate");
    ix_close(c);
}

/* ---- cursors -------------------------------------------------------------------------- */

static int bind_big(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    char t[64];
    snprintf(t, sizeof t, "row %05lld", (long long)row);
    ix_bind_int64(s, 1, row);
    ix_bind_text(s, 2, t, -1, IX_TRANSIENT);
    return 0;
}

/* Reads all of "select k, t from big order by k" and checks it. */
static int64_t read_big(ix_conn *c, int32_t buf, int ra, int64_t *fetches) {
    ix_stmt *s = NULL;
    if (ix_prepare(c, "select k, t from big order by k", -1, &s) != IX_OK) return -1;
    if (buf) ix_stmt_set_fetch_buffer(s, buf);
    ix_stmt_set_readahead(s, ra);
    int64_t n = 0;
    int rc, bad = 0;
    while ((rc = ix_step(s)) == IX_ROW) {
        char want[64];
        snprintf(want, sizeof want, "row %05lld", (long long)n);
        if (ix_column_int64(s, 0) != n || strcmp(ix_column_text(s, 1), want) != 0) bad++;
        n++;
    }
    CHECK(rc == IX_DONE && bad == 0, "buffer %d readahead %d: rc=%d bad=%d %s", buf, ra, rc, bad,
          ix_errmsg(c));
    *fetches = ix_stmt_fetch_count(s);
    ix_finalize(s);
    return n;
}

static void test_cursors(void) {
    ix_conn *c = connect_db("clientdb");
    EXEC_OK(c, "create table big (k integer, t varchar(40))");
    ix_stmt *s = NULL;
    ix_prepare(c, "insert into big values (?, ?)", -1, &s);
    int64_t nfailed = -1;
    int rc = ix_batch_execute(s, 2000, bind_big, NULL, NULL, &nfailed);
    CHECK(rc == IX_OK && nfailed == 0 && ix_changes(s) == 2000, "2000 rows: rc=%d %s", rc,
          ix_errmsg(c));
    ix_finalize(s);

    int64_t f0 = 0, f1 = 0, f3 = 0, fbig = 0;
    CHECK(read_big(c, 64, 0, &f0) == 2000, "tiny buffer, no read-ahead");
    CHECK(read_big(c, 64, 1, &f1) == 2000, "tiny buffer, read-ahead 1");
    CHECK(read_big(c, 100, 3, &f3) == 2000, "read-ahead 3");
    CHECK(read_big(c, 0, 1, &fbig) == 2000, "default buffer");
    CHECK(f0 >= 400 && f1 >= 400, "many batches (%lld, %lld)", (long long)f0, (long long)f1);
    CHECK(fbig < f0, "a bigger buffer makes fewer trips (%lld < %lld)", (long long)fbig,
          (long long)f0);

    /* Two cursors interleaved on one connection, with read-ahead. */
    ix_stmt *a = NULL, *b = NULL;
    ix_prepare(c, "select k from big where k < 500 order by k", -1, &a);
    ix_prepare(c, "select k from big where k >= 1000 order by k", -1, &b);
    ix_stmt_set_fetch_buffer(a, 50);
    ix_stmt_set_fetch_buffer(b, 70);
    ix_stmt_set_readahead(a, 2);
    int64_t ka = 0, kb = 1000;
    int bad = 0, ra, rb;
    for (;;) {
        ra = ix_step(a);
        if (ra == IX_ROW && ix_column_int64(a, 0) != ka++) bad++;
        rb = ix_step(b);
        if (rb == IX_ROW && ix_column_int64(b, 0) != kb++) bad++;
        if (ra != IX_ROW && rb != IX_ROW) break;
        /* statements in between do not disturb the cursors */
        if (ka == 100) EXEC_OK(c, "update big set t = t where k = -1");
    }
    CHECK(bad == 0 && ra == IX_DONE && rb == IX_DONE && ka == 500 && kb == 2000,
          "interleaved: bad=%d ka=%lld kb=%lld", bad, (long long)ka, (long long)kb);

    /* reset in the middle, then run again */
    ix_reset(a);
    int n = 0;
    while (ix_step(a) == IX_ROW && n < 10)
        n++;
    ix_reset(a);
    n = 0;
    while (ix_step(a) == IX_ROW)
        n++;
    CHECK(n == 500, "after reset mid-cursor: %d rows", n);
    ix_finalize(a);
    ix_finalize(b);

    /* finalize with fetches still in flight, then the connection goes on */
    ix_prepare(c, "select k from big", -1, &a);
    ix_stmt_set_fetch_buffer(a, 20);
    ix_stmt_set_readahead(a, 5);
    ix_step(a);
    ix_step(a);
    ix_finalize(a);
    char buf[64];
    CHECK(strcmp(query1(c, "select count(*) from big", buf, sizeof buf), "2000") == 0,
          "aligned after finalize mid-cursor: %s", buf);

    /* statements outlive ix_close in a detached state */
    ix_prepare(c, "select k from big order by k", -1, &a);
    ix_step(a);
    ix_close(c);
    CHECK(ix_column_int64(a, 0) == 0, "the current row stays readable");
    CHECK(ix_step(a) == IX_EMISUSE && ix_stmt_conn(a) == NULL, "detached");
    ix_finalize(a);
}

/* ---- pipelined batch with errors ----------------------------------------------------- */

static int bind_dup(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    ix_bind_int64(s, 1, row);
    ix_bind_text(s, 2, "batch", -1, IX_STATIC);
    return 0;
}

static void test_batch(void) {
    ix_conn *c = connect_db("clientdb");
    EXEC_OK(c, "create table bt (k integer, v varchar(10))");
    EXEC_OK(c, "create unique index bt_k on bt (k)");
    EXEC_OK(c, "insert into bt values (0, 'pre')");
    EXEC_OK(c, "insert into bt values (99, 'pre')");
    EXEC_OK(c, "insert into bt values (500, 'pre')");
    ix_stmt *s = NULL;
    ix_prepare(c, "insert into bt values (?, ?)", -1, &s);
    static int codes[1000];
    for (int i = 0; i < 1000; i++)
        codes[i] = 12345;
    int64_t nfailed = 0;
    int rc = ix_batch_execute(s, 1000, bind_dup, NULL, codes, &nfailed);
    CHECK(rc == IX_ESQL && nfailed == 3, "batch: rc=%d failed=%lld", rc, (long long)nfailed);
    CHECK(ix_sqlcode(c) == -239 || ix_sqlcode(c) == -268, "first error %d: %s", ix_sqlcode(c),
          ix_errmsg(c));
    CHECK(strstr(ix_errmsg(c), "batch row 0") != NULL, "names row 0: %s", ix_errmsg(c));
    int wrong = 0;
    for (int i = 0; i < 1000; i++) {
        int want_err = i == 0 || i == 99 || i == 500;
        if (want_err ? codes[i] >= 0 : codes[i] != 0) wrong++;
    }
    CHECK(wrong == 0, "errors at exactly rows 0, 99, 500 (%d wrong)", wrong);
    CHECK(ix_batch_replied(s) == 1000 && ix_changes(s) == 997, "997 rows inserted (%lld)",
          (long long)ix_changes(s));
    CHECK(count_rows(c, "bt") == 1000, "table has 1000 rows");
    CHECK(!ix_conn_is_dead(c), "connection still usable");
    ix_finalize(s);

    /* arrays, with NULLs */
    EXEC_OK(c, "create table ba (a integer, b float, t varchar(10))");
    ix_prepare(c, "insert into ba values (?, ?, ?)", -1, &s);
    int64_t av[5] = {1, 2, 3, 4, 5};
    double bv[5] = {0.5, 1.5, 2.5, 3.5, 4.5};
    const char *tv[5] = {"a", "b", NULL, "d", "e"};
    unsigned char an[5] = {0, 1, 0, 0, 0};
    ix_array cols[3] = {
        {IX_ARRAY_INT64, av, an}, {IX_ARRAY_DOUBLE, bv, NULL}, {IX_ARRAY_TEXT, tv, NULL}};
    rc = ix_batch_execute_arrays(s, 5, cols, 3, NULL, &nfailed);
    CHECK(rc == IX_OK && ix_changes(s) == 5, "arrays: rc=%d %s", rc, ix_errmsg(c));
    ix_finalize(s);
    char buf[64];
    CHECK(strcmp(query1(c, "select count(*) from ba where a is null or t is null", buf, sizeof buf),
                 "2") == 0,
          "NULLs from arrays: %s", buf);

    /* a large batch that fills the socket buffers both ways */
    EXEC_OK(c, "create table bl (k integer, t varchar(40))");
    ix_prepare(c, "insert into bl values (?, ?)", -1, &s);
    rc = ix_batch_execute(s, 20000, bind_big, NULL, NULL, &nfailed);
    CHECK(rc == IX_OK && ix_changes(s) == 20000, "20000-row batch: rc=%d %s", rc, ix_errmsg(c));
    ix_finalize(s);
    ix_prepare(c, "select k from bl", -1, &s);
    CHECK(ix_batch_execute(s, 1, bind_big, NULL, NULL, NULL) == IX_EMISUSE, "no batch of a SELECT");
    ix_finalize(s);
    ix_close(c);
}

/* ---- transactions --------------------------------------------------------------------- */

static void test_transactions(void) {
    ix_conn *c = connect_db("clientdb");
    EXEC_OK(c, "create table tx (k integer)");
    CHECK(ix_autocommit(c) == 1, "autocommit outside a transaction");
    CHECK(ix_begin(c) == IX_OK && ix_autocommit(c) == 0, "begin: %s", ix_errmsg(c));
    EXEC_OK(c, "insert into tx values (1)");
    CHECK(ix_rollback(c) == IX_OK && ix_autocommit(c) == 1, "rollback: %s", ix_errmsg(c));
    CHECK(count_rows(c, "tx") == 0, "rolled back");
    CHECK(ix_begin(c) == IX_OK, "begin");
    int rc = ix_begin(c);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -535, "begin twice: %d", ix_sqlcode(c));
    EXEC_OK(c, "insert into tx values (2)");
    CHECK(ix_commit(c) == IX_OK, "commit: %s", ix_errmsg(c));
    CHECK(count_rows(c, "tx") == 1, "committed");
    rc = ix_commit(c);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -255, "commit outside: %d %s", ix_sqlcode(c),
          ix_errmsg(c));
    /* SQL-level transactions and savepoints */
    EXEC_OK(c, "begin work");
    CHECK(ix_autocommit(c) == 0, "BEGIN WORK through SQL is tracked");
    EXEC_OK(c, "insert into tx values (3)");
    EXEC_OK(c, "savepoint s1");
    EXEC_OK(c, "insert into tx values (4)");
    EXEC_OK(c, "rollback work to savepoint s1");
    CHECK(ix_autocommit(c) == 0, "still in the transaction");
    EXEC_OK(c, "commit work");
    CHECK(ix_autocommit(c) == 1 && count_rows(c, "tx") == 2, "savepoint rolled back one row");
    ix_close(c);
}

/* ---- tracing -------------------------------------------------------------------------- */

typedef struct trace_seen {
    int lines, prepare, describe, in, out, nfetch;
} trace_seen;

static void on_trace(void *ud, const char *line) {
    trace_seen *t = ud;
    t->lines++;
    if (strstr(line, "SQ_PREPARE")) t->prepare++;
    if (strstr(line, "SQ_DESCRIBE")) t->describe++;
    if (strncmp(line, "S->C ", 5) == 0) t->in++;
    if (strncmp(line, "C->S ", 5) == 0) t->out++;
    if (strncmp(line, "C->S SQ_NFETCH", 14) == 0) t->nfetch++;
}

/* NFETCH requests sent by the time the first row is handed out. */
static int nfetch_before_first_row(ix_conn *c, int depth) {
    trace_seen t = {0};
    ix_set_trace(c, on_trace, &t);
    ix_stmt *s = NULL;
    ix_prepare(c, "select k from big order by k", -1, &s);
    ix_stmt_set_fetch_buffer(s, 64);
    ix_stmt_set_readahead(s, depth);
    int rc = ix_step(s);
    int n = t.nfetch;
    CHECK(rc == IX_ROW, "first row");
    ix_finalize(s);
    ix_set_trace(c, NULL, NULL);
    return n;
}

static void test_trace(void) {
    ix_conn *c = connect_db("clientdb");
    trace_seen t = {0};
    ix_set_trace(c, on_trace, &t);
    char buf[64];
    query1(c, "select count(*) from tx", buf, sizeof buf);
    CHECK(t.prepare == 1 && t.describe == 1 && t.in > 3 && t.out > 3, "trace: %d lines", t.lines);
    ix_set_trace(c, NULL, NULL);
    int n0 = nfetch_before_first_row(c, 0), n1 = nfetch_before_first_row(c, 1),
        n3 = nfetch_before_first_row(c, 3);
    CHECK(n0 == 1 && n1 == 2 && n3 == 4,
          "read-ahead sends the next NFETCHes before the batch is read (%d %d %d)", n0, n1, n3);
    int before = t.lines;
    query1(c, "select count(*) from tx", buf, sizeof buf);
    CHECK(t.lines == before, "trace off");
    ix_close(c);

    char path[300];
    snprintf(path, sizeof path, "%s/trace.txt", P.dir);
    setenv("IXDB_TRACE", path, 1);
    c = connect_db("clientdb");
    query1(c, "select count(*) from tx", buf, sizeof buf);
    ix_close(c);
    unsetenv("IXDB_TRACE");
    FILE *f = fopen(path, "r");
    int lines = 0, pw = 0;
    char line[4096];
    while (f && fgets(line, sizeof line, f)) {
        lines++;
        if (strstr(line, PASS)) pw++;
    }
    if (f) fclose(f);
    CHECK(lines > 10 && pw == 0, "IXDB_TRACE file: %d lines, password never printed", lines);
}

/* ---- request sequences against ixd: round trips per operation ------------------------- */

/* The fast forms (ixd, compat=auto). */
static void test_roundtrips_fast(void) {
    ix_conn *c = connect_db("clientdb");
    CHECK(c && c->roundtrips == 2, "connect: 2 round trips (%lld)", (long long)c->roundtrips);
    EXEC_OK(c, "create table rt (a int, b varchar(10))");
    int64_t r0 = c->roundtrips;
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "insert into rt values (?, ?)", -1, &s) == IX_OK, "prepare insert");
    ix_bind_int(s, 1, 1);
    ix_bind_text(s, 2, "one", -1, IX_STATIC);
    CHECK(ix_step(s) == IX_DONE && ix_changes(s) == 1 && c->roundtrips - r0 == 1,
          "prepared INSERT, first execution: 1 round trip (%lld) %s",
          (long long)(c->roundtrips - r0), ix_errmsg(c));
    ix_finalize(s);
    for (int k = 0; k < 2; k++) { /* the second carries the first's CLOSE and RELEASE */
        r0 = c->roundtrips;
        CHECK(ix_prepare(c, "select a, b from rt where a = ?", -1, &s) == IX_OK, "prepare");
        ix_bind_int(s, 1, 1);
        CHECK(ix_step(s) == IX_ROW && ix_column_int(s, 0) == 1 &&
                  strcmp(ix_column_text(s, 1), "one") == 0 && ix_step(s) == IX_DONE,
              "SELECT %d: %s", k, ix_errmsg(c));
        CHECK(c->roundtrips - r0 == 1, "SELECT of one row: 1 round trip (%lld)",
              (long long)(c->roundtrips - r0));
        ix_finalize(s);
    }
    /* a PREPARE error in the flight: the rest is skipped, the connection stays in step */
    r0 = c->roundtrips;
    CHECK(ix_prepare(c, "select nosuchcol from rt", -1, &s) == IX_OK && ix_step(s) == IX_ESQL &&
              ix_sqlcode(c) == -217 && c->roundtrips - r0 == 1,
          "deferred PREPARE error at the first step: %d", ix_sqlcode(c));
    ix_finalize(s);
    CHECK(ix_prepare(c, "insert into rt values (1, 'a', 'too many')", -1, &s) == IX_OK &&
              ix_step(s) == IX_ESQL && ix_sqlcode(c) < 0,
          "deferred INSERT error: %d", ix_sqlcode(c));
    ix_finalize(s);
    /* the description before the first step sends the PREPARE on its own */
    r0 = c->roundtrips;
    CHECK(ix_prepare(c, "select a from rt", -1, &s) == IX_OK && ix_column_count(s) == 1 &&
              c->roundtrips - r0 == 1 && ix_step(s) == IX_ROW && c->roundtrips - r0 == 2,
          "ix_column_count before the step: PREPARE first (%lld)", (long long)(c->roundtrips - r0));
    ix_finalize(s);
    ix_close(c);
}

/* The verified forms: asked for with the DSN keys on ixd, chosen by
 * compat=auto on ixd --strict. */
static void test_roundtrips_verified(void) {
    char dsn[512];
    snprintf(dsn, sizeof dsn, "%s database=clientdb%s", kw_base,
             ixd_test_strict() ? "" : " pipeline_login=0 deferred_prepare=0");
    ix_conn *c = NULL;
    ix_stmt *s = NULL;
    int64_t r0;
    CHECK(ix_connect(&c, dsn) == IX_OK && c->roundtrips == 4,
          "pipeline_login=0: 4, each login group awaited (%lld)",
          (long long)(c ? c->roundtrips : -1));
    r0 = c->roundtrips;
    CHECK(ix_prepare(c, "select a from rt", -1, &s) == IX_OK && ix_step(s) == IX_ROW &&
              c->roundtrips - r0 == 2,
          "deferred_prepare=0: SELECT in 2 round trips (%lld)", (long long)(c->roundtrips - r0));
    ix_finalize(s);
    ix_close(c);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    snprintf(kw_base, sizeof kw_base,
             "host=127.0.0.1 port=%d user=" USER " password=" PASS " server=ixd read_timeout=30",
             P.port);
    test_connect();
    test_types();
    test_errors();
    if (ixd_test_strict()) { /* the table test_roundtrips_fast makes */
        ix_conn *c = connect_db("clientdb");
        EXEC_OK(c, "create table rt (a int, b varchar(10))");
        EXEC_OK(c, "insert into rt values (1, 'one')");
        ix_close(c);
    } else {
        test_roundtrips_fast();
    }
    test_roundtrips_verified();
    test_cursors();
    test_batch();
    test_transactions();
    test_trace();
    ixd_stop(&P, SIGTERM);
    ixd_rmdir(&P);
    return tap_done();
}
