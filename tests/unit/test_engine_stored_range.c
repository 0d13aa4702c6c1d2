/* test_engine_stored_range.c: a database file that already holds values out
 * of their columns' range (written by SQLite directly, as files made before
 * ixd refused such values at store could) stays readable: the FETCH of such
 * a row gives the SQLCODE of its value (-1215, -1214, -1206, -1226, -1263)
 * and the rows after it still read, with a sequential cursor and with a
 * scroll cursor; a cast to a wider type reads the value as stored, and an
 * UPDATE can set it right (docs/server-sql.md, "Values out of range"). */
#include <sqlite3.h>

#include "test_engine_util.h"

#define T_COLS                                                                                     \
    "k int, i int, s smallint, b int8, d date, f smallfloat, iv interval day(2) to day, v "        \
    "varchar(3)"

/* Rows 2..7 each get one value its column cannot hold. */
static const char *const BAD_SQL =
    "UPDATE t SET i = 2147483657 WHERE k = 2; UPDATE t SET s = 40000 WHERE k = 3;"
    "UPDATE t SET b = 9.3e18 WHERE k = 4; UPDATE t SET d = 3000000 WHERE k = 5;"
    "UPDATE t SET f = 1e40 WHERE k = 6; UPDATE t SET iv = 86400000000000 WHERE k = 7;"
    "UPDATE t SET v = 'abcdef' WHERE k = 8;";

static const char *const ALL_ROWS = "1|1|1|1|01/01/2000|1.000000| 1|a\n"
                                    "ERR -1215\n"
                                    "ERR -1214\n"
                                    "ERR -1215\n"
                                    "ERR -1206\n"
                                    "ERR -1226\n"
                                    "ERR -1263\n"
                                    "8|1|1|1|01/01/2000|1.000000| 1|abc";

static void make_file(void) {
    CHECK(run("create database old with log") == 0, "create database: %d", ERR.sqlcode);
    CHECK(run("create table t (" T_COLS ")") == 0, "create table: %d", ERR.sqlcode);
    for (int k = 1; k <= 8; k++) {
        char sql[200];
        snprintf(sql, sizeof sql,
                 "insert into t values (%d, 1, 1, 1, '01/01/2000', 1, interval(1) day to day, 'a')",
                 k);
        CHECK(run(sql) == 0, "%s: %d", sql, ERR.sqlcode);
    }
    ixd_db_close(D);
    D = NULL;
    char path[400];
    snprintf(path, sizeof path, "%s/old.db", DIR_);
    sqlite3 *h;
    CHECK(sqlite3_open(path, &h) == SQLITE_OK, "open %s", path);
    char *msg = NULL;
    CHECK(sqlite3_exec(h, BAD_SQL, NULL, NULL, &msg) == SQLITE_OK, "bad values: %s",
          msg ? msg : "");
    sqlite3_free(msg);
    sqlite3_close(h);
    CHECK(run("database old") == 0, "database old: %d", ERR.sqlcode);
}

/* Appends "ERR code" or row i of a scroll cursor / the next row to OUT;
 * returns 0 at the end. */
static int fetch_one(ixd_stmt *s, int scroll, int64_t i, ixb_wbuf *b) {
    ixb_wbuf_reset(b);
    int r = scroll ? ixd_fetch_at(s, i, b, &ERR) : ixd_fetch(s, b, &ERR);
    if (r == 0) return 0;
    size_t o = strlen(OUT);
    if (o && o + 1 < sizeof OUT) strcat(OUT, "\n");
    if (r < 0)
        snprintf(OUT + strlen(OUT), sizeof OUT - strlen(OUT), "ERR %d", ERR.sqlcode);
    else if (fmt_row(s, b->data, b->len, OUT, sizeof OUT))
        snprintf(OUT, sizeof OUT, "BADROW");
    return 1;
}

/* Every row of sql, going on after a row's error, into OUT. */
static const char *q_each(const char *sql, int scroll) {
    OUT[0] = 0;
    ixd_stmt *s;
    if (ixd_prepare(D, sql, strlen(sql), &s, &ERR) || ixd_open(s, scroll, &ERR)) {
        snprintf(OUT, sizeof OUT, "ERR %d", ERR.sqlcode);
        return OUT;
    }
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    for (int64_t i = 1; i < 100 && fetch_one(s, scroll, i, &b); i++) {
    }
    ixb_wbuf_free(&b);
    ixd_stmt_free(s);
    return OUT;
}

static void check_reads(void) {
    const char *sql = "select * from t order by k";
    const char *r = q_each(sql, 0);
    CHECK(!strcmp(r, ALL_ROWS), "sequential cursor:\n%s", r);
    r = q_each(sql, 1);
    CHECK(!strcmp(r, ALL_ROWS), "scroll cursor:\n%s", r);
    r = q_each("select count(*), max(k) from t", 0);
    CHECK(!strcmp(r, "8|8"), "count: %s", r);
    r = q_each("select i::int8, s::int, b::decimal(20,0), f::float from t where k between 2 and 6 "
               "order by k",
               0);
    CHECK(!strcmp(r, "2147483657|1|1|1.00000000000000\n1|40000|1|1.00000000000000\n"
                     "1|1|9300000000000000000|1.00000000000000\n1|1|1|1.00000000000000\n"
                     "1|1|1|1.00000000000000e+40"),
          "as stored through casts:\n%s", r);
}

static void check_repair(void) {
    CHECK_RUN("update t set i = i + 0 where k = 2", -1215);
    CHECK_RUN("update t set i = null where i::int8 > 2147483647", 0);
    CHECK(ROWS == 1, "rows repaired: %lld", (long long)ROWS);
    CHECK_RUN("update t set s = 32767 where k = 3", 0);
    CHECK_RUN("update t set b = 0, d = null, f = 0, iv = null where k between 4 and 7", 0);
    const char *r = q_each("select k, i, s from t where k < 4 order by k", 0);
    CHECK(!strcmp(r, "1|1|1\n2|NULL|1\n3|1|32767"), "repaired:\n%s", r);
}

int main(void) {
    eu_setup("strange");
    make_file();
    check_reads();
    check_repair();
    eu_teardown();
    return tap_done();
}
