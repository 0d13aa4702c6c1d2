/*
 * test_api_coverage.c: the public functions no other client test exercised,
 * the misuse contract of every function (NULL handles give IX_EMISUSE or the
 * documented NULL/0 answer, destroying NULL is a no-op, calls on a dead
 * connection give IX_ECONN), DATETIME/INTERVAL binds and reads through
 * structs, autocommit on and off (logged and unlogged databases),
 * isolation levels and lock waits between two connections.
 *
 * Which test covers each public function of include/ixdb.h (tests/client/):
 *   ix_rc_str                        test_api_coverage (test_misc)
 *   ix_connect, ix_close             test_client (test_connect), test_env, here
 *   ix_conn_is_dead                  test_kill, here (test_dead)
 *   ix_locale_codeset                test_env
 *   ix_set_fetch_buffer              test_fetch_auto, here (test_misuse)
 *   ix_set_readahead                 here (test_misc)
 *   ix_set_read_timeout              test_kill, here (test_misuse)
 *   ix_server_name, ix_server_version  test_env, test_replay, test_client
 *   ix_errcode, ix_sqlcode, ix_errmsg, ix_sqlstate  test_client, test_replay
 *   ix_isamcode                      test_replay, here (test_lock_wait)
 *   ix_erroffset                     test_client, test_server
 *   ix_errtext, ix_isam_errtext      test_replay, here (test_misc)
 *   ix_prepare, ix_step, ix_reset, ix_finalize  test_client, test_server, here
 *   ix_stmt_conn, ix_bind_parameter_count  test_client, here
 *   ix_param_describe                test_param_describe
 *   ix_bind_null, ix_bind_blob       here (test_misc)
 *   ix_bind_int, ix_bind_int64, ix_bind_double, ix_bind_bool, ix_bind_text,
 *   ix_bind_decimal_text, ix_bind_date, ix_bind_date_ymd,
 *   ix_bind_datetime_text, ix_bind_interval_text, ix_clear_bindings  test_client
 *   ix_bind_datetime, ix_bind_interval  here (test_temporal)
 *   ix_qualifier_dt, ix_qualifier_iv  test_client, here
 *   ix_qualifier_check               here (test_temporal)
 *   ix_stmt_set_fetch_buffer, ix_stmt_set_readahead  test_client, test_fetch_auto
 *   ix_stmt_set_cursor_name          test_curname
 *   ix_stmt_fetch_count, _roundtrips, _bytes, _size  test_fetch_auto, test_server
 *   ix_column_count, _name, _type, _enclen  test_client, test_server
 *   ix_column_notnull, ix_stmt_type  here (test_misc), test_server
 *   ix_column_is_null, _text, _text_len, _raw, _bytes, _blob, _int64, _int,
 *   _double, ix_column_get_int64     test_client, test_env
 *   ix_column_get_double             here (test_misc)
 *   ix_column_datetime, ix_column_interval, ix_column_date_ymd  here (test_temporal)
 *   ix_changes, ix_conn_changes, ix_last_serial, ix_last_serial8  test_client, test_server
 *   ix_exec                          everywhere
 *   ix_begin, ix_commit, ix_rollback  test_client, test_server, here
 *   ix_set_autocommit, ix_autocommit  here (test_autocommit), test_client
 *   ix_set_isolation, ix_set_lock_wait  here (test_isolation, test_lock_wait)
 *   ix_batch_execute, ix_batch_execute_arrays, ix_batch_replied  test_client, test_kill
 *   ix_set_trace                     test_client, here (test_autocommit)
 *   ix_complete                      here (test_misc)
 *   ix_ts_writer_*, ix_ts_reader_*, ix_ts_rows_open  test_ts_client (misuse there too)
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#define USER "informix"
#define PASS "in4mix"

static ixd_proc P;

static ix_conn *connect_to(int port, const char *db) {
    char dsn[512];
    snprintf(dsn, sizeof dsn,
             "host=127.0.0.1 port=%d user=" USER " password=" PASS
             " server=ixd read_timeout=30%s%s",
             port, db ? " database=" : "", db ? db : "");
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

static int64_t count_rows(ix_conn *c, const char *table) {
    char sql[256];
    snprintf(sql, sizeof sql, "select count(*) from %s", table);
    ix_stmt *s = NULL;
    int64_t n = -1;
    if (ix_prepare(c, sql, -1, &s) == IX_OK && ix_step(s) == IX_ROW) n = ix_column_int64(s, 0);
    ix_finalize(s);
    return n;
}

static double now_s(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- DATETIME / INTERVAL through structs ------------------------------------------ */

static void test_temporal(void) {
    ix_conn *c = connect_to(P.port, "cov");
    EXEC_OK(c, "create table tm (k integer, dt datetime year to fraction(5), "
               "hm datetime hour to minute, d date, ym interval year(4) to month, "
               "ds interval day(3) to fraction(5), hi interval hour(3) to minute)");
    unsigned q_dt = ix_qualifier_dt(IX_UNIT_YEAR, IX_UNIT_FRAC(5));
    unsigned q_hm = ix_qualifier_dt(IX_UNIT_HOUR, IX_UNIT_MINUTE);
    unsigned q_ym = ix_qualifier_iv(4, IX_UNIT_YEAR, IX_UNIT_MONTH);
    unsigned q_ds = ix_qualifier_iv(3, IX_UNIT_DAY, IX_UNIT_FRAC(5));
    unsigned q_hi = ix_qualifier_iv(3, IX_UNIT_HOUR, IX_UNIT_MINUTE);
    CHECK(ix_qualifier_check(q_dt, 0) == 1 && ix_qualifier_check(q_ym, 1) == 1 &&
              ix_qualifier_check(q_dt, 1) == 0 && ix_qualifier_check(0x1234, 0) == 0,
          "ix_qualifier_check tells legal DATETIME and INTERVAL qualifiers");
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "insert into tm values (?, ?, ?, ?, ?, ?, ?)", -1, &s) == IX_OK, "prepare");
    ix_datetime_t dt = {2026, 6, 20, 12, 34, 56, 12345};
    ix_datetime_t hm = {0, 0, 0, 23, 59, 0, 0};
    ix_interval_t ym = {.sign = -1, .years = 3, .months = 14}; /* -4-02 */
    ix_interval_t ds = {
        .sign = 1, .days = 2, .hours = 30, .minutes = 1, .seconds = 2, .fraction = 5};
    ix_interval_t hi = {.sign = 1, .hours = 123, .minutes = 45};
    CHECK(ix_bind_int(s, 1, 1) == IX_OK, "bind k");
    CHECK(ix_bind_datetime(s, 2, q_dt, &dt) == IX_OK, "bind datetime: %s", ix_errmsg(c));
    CHECK(ix_bind_datetime(s, 3, q_hm, &hm) == IX_OK, "bind hour to minute: %s", ix_errmsg(c));
    CHECK(ix_bind_date_ymd(s, 4, 1815, 12, 10) == IX_OK, "bind date");
    CHECK(ix_bind_interval(s, 5, q_ym, &ym) == IX_OK, "bind year-month interval: %s", ix_errmsg(c));
    CHECK(ix_bind_interval(s, 6, q_ds, &ds) == IX_OK, "bind day-time interval: %s", ix_errmsg(c));
    CHECK(ix_bind_interval(s, 7, q_hi, &hi) == IX_OK, "bind hour-minute interval: %s",
          ix_errmsg(c));
    CHECK(ix_step(s) == IX_DONE && ix_changes(s) == 1, "insert: %s", ix_errmsg(c));
    /* Qualifier 0: YEAR TO FRACTION(5) and the inferred interval classes. */
    ix_reset(s);
    ix_clear_bindings(s);
    ix_bind_int(s, 1, 2);
    ix_interval_t ym0 = {.sign = 1, .years = 1, .months = 6};
    ix_interval_t ds0 = {.sign = 1, .days = 1, .fraction = 50000};
    CHECK(ix_bind_datetime(s, 2, 0, &dt) == IX_OK && ix_bind_interval(s, 5, 0, &ym0) == IX_OK &&
              ix_bind_interval(s, 6, 0, &ds0) == IX_OK,
          "qualifier 0 binds: %s", ix_errmsg(c));
    CHECK(ix_step(s) == IX_DONE, "insert with inferred qualifiers: %s", ix_errmsg(c));
    /* Misuse and range errors. */
    ix_datetime_t bad = {2026, 13, 1, 0, 0, 0, 0};
    CHECK(ix_bind_datetime(s, 2, q_dt, &bad) == IX_ERANGE && ix_errcode(c) == IX_ERANGE,
          "month 13 is IX_ERANGE");
    bad = (ix_datetime_t){2025, 2, 29, 0, 0, 0, 0};
    CHECK(ix_bind_datetime(s, 2, q_dt, &bad) == IX_ERANGE, "2025-02-29 is IX_ERANGE");
    CHECK(ix_bind_datetime(s, 2, 0x1234, &dt) == IX_EINVAL, "bad DATETIME qualifier");
    CHECK(ix_bind_datetime(s, 2, q_dt, NULL) == IX_EMISUSE, "NULL datetime value");
    CHECK(ix_bind_datetime(NULL, 2, q_dt, &dt) == IX_EMISUSE, "NULL stmt (datetime)");
    CHECK(ix_bind_datetime(s, 9, q_dt, &dt) == IX_ERANGE, "index out of range (datetime)");
    CHECK(ix_bind_interval(s, 5, q_ds, &ym) == IX_EINVAL, "year-month value, day-time qualifier");
    CHECK(ix_bind_interval(s, 5, q_ym, &ds) == IX_EINVAL, "day-time value, year-month qualifier");
    ix_interval_t secs = {.sign = 1, .hours = 1, .seconds = 30};
    CHECK(ix_bind_interval(s, 7, q_hi, &secs) == IX_ERANGE, "30 s does not fit HOUR TO MINUTE");
    ix_interval_t big = {.sign = 1, .hours = 1000};
    CHECK(ix_bind_interval(s, 7, q_hi, &big) == IX_ERANGE, "1000 hours exceeds HOUR(3)");
    ix_interval_t neg = {.sign = 1, .days = -1};
    CHECK(ix_bind_interval(s, 6, q_ds, &neg) == IX_ERANGE, "negative field is IX_ERANGE");
    CHECK(ix_bind_interval(s, 6, 0xffff, &ds) == IX_EINVAL, "bad INTERVAL qualifier");
    CHECK(ix_bind_interval(s, 6, q_ds, NULL) == IX_EMISUSE, "NULL interval value");
    CHECK(ix_bind_interval(NULL, 6, q_ds, &ds) == IX_EMISUSE, "NULL stmt (interval)");
    ix_finalize(s);
    EXEC_OK(c, "insert into tm (k) values (3)");

    CHECK(ix_prepare(c, "select * from tm order by k", -1, &s) == IX_OK, "select");
    CHECK(ix_step(s) == IX_ROW, "row 1");
    ix_datetime_t got;
    CHECK(ix_column_datetime(s, 1, &got) == IX_OK && got.year == 2026 && got.month == 6 &&
              got.day == 20 && got.hour == 12 && got.minute == 34 && got.second == 56 &&
              got.fraction == 12345,
          "datetime read back: %d-%d-%d %d:%d:%d.%d", got.year, got.month, got.day, got.hour,
          got.minute, got.second, got.fraction);
    CHECK(strcmp(ix_column_text(s, 1), "2026-06-20 12:34:56.12345") == 0, "datetime text %s",
          ix_column_text(s, 1));
    CHECK(ix_column_datetime(s, 2, &got) == IX_OK && got.year == 0 && got.hour == 23 &&
              got.minute == 59,
          "hour to minute read back");
    CHECK(ix_column_datetime(s, 3, &got) == IX_OK && got.year == 1815 && got.month == 12 &&
              got.day == 10 && got.hour == 0,
          "DATE read as a datetime");
    int y, m, d;
    CHECK(ix_column_date_ymd(s, 3, &y, &m, &d) == IX_OK && y == 1815 && m == 12 && d == 10,
          "ix_column_date_ymd of a DATE");
    CHECK(ix_column_date_ymd(s, 1, &y, &m, &d) == IX_OK && y == 2026 && m == 6 && d == 20,
          "ix_column_date_ymd of a DATETIME YEAR TO FRACTION");
    CHECK(ix_column_date_ymd(s, 2, &y, &m, &d) == IX_EINVAL && y == 0,
          "ix_column_date_ymd of HOUR TO MINUTE is IX_EINVAL");
    CHECK(ix_column_date_ymd(s, 0, NULL, NULL, NULL) == IX_EINVAL, "INTEGER is not a date");
    ix_interval_t iv;
    CHECK(ix_column_interval(s, 4, &iv) == IX_OK && iv.sign == -1 && iv.years == 4 &&
              iv.months == 2 && iv.days == 0,
          "year-month interval read back: %d %lld-%lld", iv.sign, (long long)iv.years,
          (long long)iv.months);
    CHECK(strcmp(ix_column_text(s, 4), "  -4-02") == 0, "interval text \"%s\"",
          ix_column_text(s, 4));
    CHECK(ix_column_interval(s, 5, &iv) == IX_OK && iv.sign == 1 && iv.days == 3 && iv.hours == 6 &&
              iv.minutes == 1 && iv.seconds == 2 && iv.fraction == 5,
          "day-time interval normalised: %lld %lld:%lld:%lld.%lld", (long long)iv.days,
          (long long)iv.hours, (long long)iv.minutes, (long long)iv.seconds,
          (long long)iv.fraction);
    CHECK(ix_column_interval(s, 6, &iv) == IX_OK && iv.days == 0 && iv.hours == 123 &&
              iv.minutes == 45,
          "leading HOUR keeps 123 hours (%lld %lld)", (long long)iv.days, (long long)iv.hours);
    CHECK(ix_column_interval(s, 1, &iv) == IX_EINVAL, "a DATETIME is not an INTERVAL");
    CHECK(ix_column_datetime(s, 4, &got) == IX_EINVAL, "an INTERVAL is not a DATETIME");
    CHECK(ix_column_datetime(s, 1, NULL) == IX_EMISUSE, "NULL output struct");
    CHECK(ix_column_datetime(s, 99, &got) == IX_EMISUSE && ix_errcode(c) == IX_EMISUSE,
          "column out of range");
    CHECK(ix_step(s) == IX_ROW, "row 2");
    CHECK(ix_column_datetime(s, 1, &got) == IX_OK && got.fraction == 12345,
          "qualifier 0 datetime round trip");
    CHECK(ix_column_interval(s, 4, &iv) == IX_OK && iv.years == 1 && iv.months == 6,
          "qualifier 0 year-month interval");
    CHECK(ix_column_interval(s, 5, &iv) == IX_OK && iv.days == 1 && iv.fraction == 50000,
          "qualifier 0 day-time interval");
    CHECK(ix_step(s) == IX_ROW, "row 3");
    CHECK(ix_column_datetime(s, 1, &got) == IX_NULL_VALUE && got.year == 0, "NULL datetime");
    CHECK(ix_column_interval(s, 5, &iv) == IX_NULL_VALUE, "NULL interval");
    CHECK(ix_column_date_ymd(s, 3, &y, &m, &d) == IX_NULL_VALUE, "NULL date");
    CHECK(ix_step(s) == IX_DONE, "done");
    CHECK(ix_column_datetime(s, 1, &got) == IX_EMISUSE, "no current row");
    CHECK(ix_column_interval(NULL, 1, &iv) == IX_EMISUSE &&
              ix_column_date_ymd(NULL, 1, &y, &m, &d) == IX_EMISUSE &&
              ix_column_datetime(NULL, 1, &got) == IX_EMISUSE,
          "NULL stmt (column accessors)");
    ix_finalize(s);
    ix_close(c);
}

/* ---- autocommit -------------------------------------------------------------------- */

static int begins;
static void count_begins(void *ud, const char *line) {
    (void)ud;
    if (strncmp(line, "C->S", 4) == 0 && strstr(line, "SQ_BEGIN")) begins++;
}

static void test_autocommit(void) {
    ix_conn *c = connect_to(P.port, "cov"), *o = connect_to(P.port, "cov");
    EXEC_OK(c, "create table ac (k integer)");
    ix_set_trace(c, count_begins, NULL);
    CHECK(ix_autocommit(c) == 1, "autocommit is on after connecting");
    CHECK(ix_set_autocommit(c, 1) == IX_OK && ix_autocommit(c) == 1 && begins == 0,
          "turning it on while on sends nothing");
    CHECK(ix_set_autocommit(c, 0) == IX_OK && ix_autocommit(c) == 0 && begins == 1,
          "off: SQ_BEGIN at once (%d): %s", begins, ix_errmsg(c));
    EXEC_OK(c, "insert into ac values (1)");
    CHECK(count_rows(o, "ac") == 0, "the other session does not see the uncommitted row");
    CHECK(ix_rollback(c) == IX_OK && count_rows(c, "ac") == 0, "rollback undoes it: %s",
          ix_errmsg(c));
    CHECK(begins == 2, "the SELECT after ROLLBACK started a transaction (%d)", begins);
    EXEC_OK(c, "insert into ac values (2)");
    CHECK(ix_begin(c) == IX_ESQL && ix_sqlcode(c) == -535, "ix_begin inside: -535 (%d)",
          ix_sqlcode(c));
    CHECK(ix_commit(c) == IX_OK && count_rows(o, "ac") == 1, "commit makes it visible");
    /* A batch after COMMIT starts a transaction too. */
    ix_stmt *s = NULL;
    ix_prepare(c, "insert into ac values (?)", -1, &s);
    int64_t vals[3] = {3, 4, 5};
    ix_array col = {IX_ARRAY_INT64, vals, NULL};
    int nb = begins;
    CHECK(ix_batch_execute_arrays(s, 3, &col, 1, NULL, NULL) == IX_OK && begins == nb + 1,
          "batch began a transaction: %s", ix_errmsg(c));
    ix_finalize(s);
    CHECK(count_rows(o, "ac") == 1, "batch rows not yet visible");
    EXEC_OK(c, "commit work");
    CHECK(count_rows(o, "ac") == 4 && ix_autocommit(c) == 0, "COMMIT WORK through SQL commits");
    nb = begins;
    EXEC_OK(c, "set lock mode to wait 2");
    CHECK(begins == nb, "SET statements start no transaction");
    EXEC_OK(c, "insert into ac values (6)");
    /* Turning it on commits. */
    CHECK(ix_set_autocommit(c, 1) == IX_OK && ix_autocommit(c) == 1, "on: %s", ix_errmsg(c));
    CHECK(count_rows(o, "ac") == 5, "turning autocommit on committed the open transaction");
    nb = begins;
    EXEC_OK(c, "insert into ac values (7)");
    CHECK(begins == nb && count_rows(o, "ac") == 6, "autocommit again: each statement commits");
    /* An open transaction is lost with the connection. */
    CHECK(ix_set_autocommit(c, 0) == IX_OK, "off again");
    EXEC_OK(c, "insert into ac values (8)");
    ix_close(c);
    CHECK(count_rows(o, "ac") == 6, "the uncommitted row went with the connection");
    /* Unlogged database: -256, and autocommit stays on. */
    EXEC_OK(o, "create database covnl");
    c = connect_to(P.port, "covnl");
    int rc = ix_set_autocommit(c, 0);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -256 && ix_autocommit(c) == 1,
          "unlogged database: rc=%d sqlcode=%d", rc, ix_sqlcode(c));
    EXEC_OK(c, "create table nl (k integer)");
    EXEC_OK(c, "insert into nl values (1)");
    ix_close(c);
    /* DATABASE turns autocommit back on. */
    c = connect_to(P.port, "cov");
    CHECK(ix_set_autocommit(c, 0) == IX_OK, "off");
    rc = ix_exec(c, "database covnl");
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -377 && ix_autocommit(c) == 0,
          "DATABASE inside the transaction: -377 (%d)", ix_sqlcode(c));
    CHECK(ix_commit(c) == IX_OK, "commit");
    EXEC_OK(c, "database covnl");
    CHECK(ix_autocommit(c) == 1, "DATABASE turned autocommit back on");
    EXEC_OK(c, "insert into nl values (2)");
    CHECK(ix_set_autocommit(NULL, 0) == IX_EMISUSE && ix_autocommit(NULL) == -1, "NULL conn");
    ix_close(c);
    ix_close(o);
}

/* ---- isolation and lock waits -------------------------------------------------------- */

static void test_isolation(void) {
    ix_conn *c = connect_to(P.port, "cov");
    int levels[] = {IX_ISO_DIRTY_READ, IX_ISO_COMMITTED_READ, IX_ISO_CURSOR_STABILITY,
                    IX_ISO_REPEATABLE_READ};
    for (size_t k = 0; k < 4; k++)
        CHECK(ix_set_isolation(c, levels[k]) == IX_OK, "isolation %d: %s", levels[k], ix_errmsg(c));
    CHECK(ix_set_isolation(c, 0) == IX_EINVAL && ix_set_isolation(c, 5) == IX_EINVAL,
          "unknown levels are IX_EINVAL");
    CHECK(ix_set_isolation(NULL, 1) == IX_EMISUSE, "NULL conn");
    CHECK(ix_set_lock_wait(c, -2) == IX_EINVAL && ix_set_lock_wait(NULL, 1) == IX_EMISUSE,
          "lock wait misuse");
    ix_close(c);
    /* No database: the server refuses (-349). */
    c = connect_to(P.port, NULL);
    CHECK(ix_set_isolation(c, IX_ISO_DIRTY_READ) == IX_ESQL && ix_sqlcode(c) == -349,
          "isolation without a database: -349 (%d %s)", ix_sqlcode(c), ix_errmsg(c));
    CHECK(ix_set_autocommit(c, 0) == IX_ESQL && ix_sqlcode(c) == -349 && ix_autocommit(c) == 1,
          "autocommit off without a database: -349 (%d)", ix_sqlcode(c));
    ix_close(c);
}

static void test_lock_wait(void) {
    ix_conn *a = connect_to(P.port, "cov"), *b = connect_to(P.port, "cov");
    EXEC_OK(a, "create table lk (id integer)");
    CHECK(ix_begin(a) == IX_OK, "A begins");
    EXEC_OK(a, "insert into lk values (1)");
    CHECK(ix_set_lock_wait(b, 1) == IX_OK, "B waits 1 s: %s", ix_errmsg(b));
    double t0 = now_s();
    int rc = ix_exec(b, "insert into lk values (2)");
    double waited = now_s() - t0;
    int code = ix_sqlcode(b);
    CHECK(rc == IX_ESQL &&
              (code == -244 || code == -243 || code == -271 || code == -346 || code == -240) &&
              ix_isamcode(b) == -154,
          "blocked writer gets a lock error (%d, isam %d: %s)", code, ix_isamcode(b), ix_errmsg(b));
    CHECK(strcmp(ix_sqlstate(b), "40001") == 0 || strcmp(ix_sqlstate(b), "IX000") == 0,
          "lock error SQLSTATE %s", ix_sqlstate(b));
    CHECK(waited >= 0.8 && waited < 5, "it waited about 1 s (%.2f s)", waited);
    CHECK(ix_set_lock_wait(b, 0) == IX_OK, "B: NOT WAIT");
    t0 = now_s();
    rc = ix_exec(b, "insert into lk values (3)");
    waited = now_s() - t0;
    CHECK(rc == IX_ESQL && ix_isamcode(b) == -107 && waited < 0.5,
          "NOT WAIT fails at once (%d, isam %d, %.2f s)", ix_sqlcode(b), ix_isamcode(b), waited);
    CHECK(ix_set_lock_wait(b, -1) == IX_OK, "B: wait forever");
    CHECK(ix_commit(a) == IX_OK, "A commits");
    EXEC_OK(b, "insert into lk values (4)");
    CHECK(count_rows(a, "lk") == 2, "both committed rows are there");
    ix_close(a);
    ix_close(b);
}

/* ---- functions no other test calls, and NULL handles ------------------------------- */

static void test_misc(void) {
    ix_conn *c = connect_to(P.port, "cov");
    EXEC_OK(c, "create table mx (k integer not null, v varchar(20), f float)");
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "insert into mx values (?, ?, ?)", -1, &s) == IX_OK &&
              ix_stmt_type(s) == IX_STMTTYPE_INSERT,
          "INSERT statement type %d", ix_stmt_type(s));
    CHECK(ix_bind_int(s, 1, 1) == IX_OK && ix_bind_blob(s, 2, "ab\0c", 4, IX_TRANSIENT) == IX_OK &&
              ix_bind_null(s, 3) == IX_OK,
          "bind blob and null");
    CHECK(ix_bind_null(s, 0) == IX_ERANGE && ix_bind_null(NULL, 1) == IX_EMISUSE &&
              ix_bind_blob(NULL, 1, "x", 1, IX_STATIC) == IX_EMISUSE,
          "bind misuse");
    CHECK(ix_step(s) == IX_DONE, "insert: %s", ix_errmsg(c));
    ix_finalize(s);
    CHECK(ix_prepare(c, "select k, v, f from mx", -1, &s) == IX_OK &&
              ix_stmt_type(s) == IX_STMTTYPE_SELECT,
          "SELECT statement type");
    CHECK(ix_column_notnull(s, 0) == 1 && ix_column_notnull(s, 1) == 0 &&
              ix_column_notnull(s, 7) == 0 && ix_column_notnull(NULL, 0) == 0,
          "ix_column_notnull");
    CHECK(ix_step(s) == IX_ROW, "row");
    size_t n = 0;
    const char *b = ix_column_blob(s, 1, &n);
    CHECK(b && n == 4 && memcmp(b, "ab\0c", 4) == 0, "blob bytes kept their NUL (%zu)", n);
    double dv = 1;
    CHECK(ix_column_get_double(s, 2, &dv) == IX_NULL_VALUE && dv == 0, "get_double NULL");
    CHECK(ix_column_get_double(s, 0, &dv) == IX_OK && dv == 1.0, "get_double of INTEGER");
    CHECK(ix_column_get_double(s, 9, &dv) == IX_EMISUSE, "get_double out of range");
    ix_finalize(s);
    CHECK(ix_set_readahead(c, 3) == IX_OK && ix_set_readahead(c, 65) == IX_EINVAL &&
              ix_set_readahead(c, -1) == IX_EINVAL && ix_set_readahead(NULL, 1) == IX_EMISUSE,
          "ix_set_readahead");
    CHECK(count_rows(c, "mx") == 1, "works with read-ahead 3");
    CHECK(ix_complete("select 1;", 9) == 1 && ix_complete("select ';'", 10) == 0 &&
              ix_complete("-- ;\nselect 1", 13) == 0 && ix_complete(NULL, 0) == 0 &&
              ix_complete("{;} x;", 6) == 1,
          "ix_complete");
    CHECK(strcmp(ix_rc_str(IX_OK), "unknown status") != 0 &&
              strcmp(ix_rc_str(12345), "unknown status") == 0 && ix_rc_str(IX_ECONN)[0],
          "ix_rc_str");
    CHECK(ix_errtext(-206) && strstr(ix_errtext(-206), "%s") && ix_errtext(1) == NULL,
          "ix_errtext");
    CHECK(ix_isam_errtext(-154) != NULL && ix_isam_errtext(12345) == NULL, "ix_isam_errtext");
    ix_close(c);
}

static void test_misuse(void) {
    ix_close(NULL);
    CHECK(ix_finalize(NULL) == IX_OK, "ix_finalize(NULL) is a no-op");
    ix_stmt *s = (ix_stmt *)1;
    CHECK(ix_prepare(NULL, "select 1", -1, &s) == IX_EMISUSE && s == NULL, "prepare NULL conn");
    CHECK(ix_exec(NULL, "x") == IX_EMISUSE && ix_begin(NULL) == IX_EMISUSE &&
              ix_commit(NULL) == IX_EMISUSE && ix_rollback(NULL) == IX_EMISUSE,
          "conn calls on NULL");
    CHECK(ix_set_fetch_buffer(NULL, 1) == IX_EMISUSE &&
              ix_set_read_timeout(NULL, 1) == IX_EMISUSE &&
              ix_set_trace(NULL, NULL, NULL) == IX_EMISUSE,
          "setters on NULL");
    CHECK(ix_conn_is_dead(NULL) == 1 && ix_errcode(NULL) == IX_ENOMEM && ix_sqlcode(NULL) == 0 &&
              ix_isamcode(NULL) == 0 && ix_erroffset(NULL) == 0 && ix_errmsg(NULL) != NULL &&
              ix_sqlstate(NULL) != NULL && ix_server_name(NULL)[0] == 0 &&
              ix_server_version(NULL)[0] == 0 && ix_conn_changes(NULL) == 0 &&
              ix_last_serial(NULL) == 0 && ix_last_serial8(NULL) == 0,
          "conn accessors on NULL");
    CHECK(ix_step(NULL) == IX_EMISUSE && ix_reset(NULL) == IX_EMISUSE &&
              ix_clear_bindings(NULL) == IX_EMISUSE &&
              ix_stmt_set_fetch_buffer(NULL, 1) == IX_EMISUSE &&
              ix_stmt_set_readahead(NULL, 1) == IX_EMISUSE,
          "stmt calls on NULL");
    CHECK(ix_bind_int(NULL, 1, 1) == IX_EMISUSE && ix_bind_int64(NULL, 1, 1) == IX_EMISUSE &&
              ix_bind_double(NULL, 1, 1) == IX_EMISUSE && ix_bind_bool(NULL, 1, 1) == IX_EMISUSE &&
              ix_bind_text(NULL, 1, "x", 1, IX_STATIC) == IX_EMISUSE &&
              ix_bind_decimal_text(NULL, 1, "1", 1) == IX_EMISUSE &&
              ix_bind_date(NULL, 1, 1) == IX_EMISUSE &&
              ix_bind_date_ymd(NULL, 1, 2000, 1, 1) == IX_EMISUSE &&
              ix_bind_datetime_text(NULL, 1, "2000-01-01", -1, 0) == IX_EMISUSE &&
              ix_bind_interval_text(NULL, 1, "1", -1, 0) == IX_EMISUSE,
          "binds on NULL");
    int64_t i64 = 1;
    double d = 1;
    size_t n = 1;
    CHECK(ix_stmt_conn(NULL) == NULL && ix_bind_parameter_count(NULL) == 0 &&
              ix_column_count(NULL) == 0 && ix_column_name(NULL, 0) == NULL &&
              ix_column_type(NULL, 0) == -1 && ix_column_enclen(NULL, 0) == -1 &&
              ix_stmt_type(NULL) == -1 && ix_changes(NULL) == 0 && ix_batch_replied(NULL) == 0 &&
              ix_stmt_fetch_count(NULL) == 0 && ix_stmt_fetch_roundtrips(NULL) == 0 &&
              ix_stmt_fetch_bytes(NULL) == 0 && ix_stmt_fetch_size(NULL) == 0,
          "stmt accessors on NULL");
    CHECK(ix_column_is_null(NULL, 0) == 0 && ix_column_text(NULL, 0) == NULL &&
              ix_column_text_len(NULL, 0) == 0 && ix_column_raw(NULL, 0) == NULL &&
              ix_column_bytes(NULL, 0) == 0 && ix_column_blob(NULL, 0, &n) == NULL && n == 0 &&
              ix_column_int64(NULL, 0) == 0 && ix_column_int(NULL, 0) == 0 &&
              ix_column_double(NULL, 0) == 0 && ix_column_get_int64(NULL, 0, &i64) == IX_EMISUSE &&
              ix_column_get_double(NULL, 0, &d) == IX_EMISUSE,
          "column values on NULL");
    int64_t nf = 7;
    CHECK(ix_batch_execute(NULL, 1, NULL, NULL, NULL, &nf) == IX_EMISUSE && nf == 0 &&
              ix_batch_execute_arrays(NULL, 1, NULL, 0, NULL, NULL) == IX_EMISUSE,
          "batches on NULL");
    ix_conn *c = NULL;
    CHECK(ix_connect(&c, "bogus_key=1") == IX_EINVAL && c != NULL && ix_conn_is_dead(c),
          "bad DSN gives IX_EINVAL and a handle: %s", ix_errmsg(c));
    ix_close(c);
}

/* ---- a dead connection ---------------------------------------------------------------- */

static int row_one(ix_stmt *s, int64_t r, void *ud) {
    (void)ud;
    return ix_bind_int64(s, 1, r);
}

static void test_dead(void) {
    ixd_proc q;
    CHECK(ixd_start(&q, NULL, NULL) == 0, "second ixd starts");
    ix_conn *c = connect_to(q.port, NULL);
    EXEC_OK(c, "create database dd with log");
    EXEC_OK(c, "database dd");
    EXEC_OK(c, "create table t (k integer)");
    ix_stmt *ins = NULL, *sel = NULL;
    ix_prepare(c, "insert into t values (?)", -1, &ins);
    ix_prepare(c, "select * from t", -1, &sel);
    ixd_stop(&q, SIGKILL);
    int rc = ix_exec(c, "insert into t values (1)");
    CHECK(rc == IX_ECONN && ix_conn_is_dead(c) == 1, "the first call notices: %d", rc);
    CHECK(ix_exec(c, "select 1") == IX_ECONN && ix_errcode(c) == IX_ECONN, "ix_exec");
    ix_stmt *s = (ix_stmt *)1;
    CHECK(ix_prepare(c, "select 1", -1, &s) == IX_ECONN && s == NULL, "ix_prepare");
    CHECK(ix_step(ins) == IX_ECONN && ix_step(sel) == IX_ECONN, "ix_step");
    CHECK(ix_batch_execute(ins, 2, row_one, NULL, NULL, NULL) == IX_ECONN, "ix_batch_execute");
    CHECK(ix_begin(c) == IX_ECONN && ix_commit(c) == IX_ECONN && ix_rollback(c) == IX_ECONN,
          "transactions");
    CHECK(ix_set_autocommit(c, 0) == IX_ECONN && ix_set_isolation(c, 1) == IX_ECONN &&
              ix_set_lock_wait(c, 1) == IX_ECONN,
          "session settings");
    CHECK(strncmp(ix_sqlstate(c), "08", 2) == 0, "SQLSTATE class 08 (%s)", ix_sqlstate(c));
    CHECK(ix_finalize(ins) == IX_OK || 1, "finalize on a dead connection frees");
    ix_finalize(sel);
    ix_close(c);
    ixd_rmdir(&q);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    if (ixd_start(&P, NULL, NULL) != 0) {
        CHECK(0, "ixd does not start (%s)", IXD_BIN);
        return tap_done();
    }
    ix_conn *c = connect_to(P.port, NULL);
    EXEC_OK(c, "create database cov with log");
    ix_close(c);
    test_temporal();
    test_autocommit();
    test_isolation();
    test_lock_wait();
    test_misc();
    test_misuse();
    test_dead();
    ixd_stop(&P, SIGTERM);
    if (!tap_fail)
        ixd_rmdir(&P);
    else
        fprintf(stderr, "data and log kept in %s\n", P.dir);
    return tap_done();
}
