/* test_rowtype_upgrade.c: a database file made before the catalogue of row
 * types (its row types in the TimeSeries table _ixd_rowtypes) keeps them:
 * they move into sysxtdtypes / sysattrtypes when the file is opened, and a
 * TIMESERIES column can still use them. */
#include <sqlite3.h>

#include "test_engine_util.h"
#include "types/ix_datetime.h"

static void make_old_file(void) {
    CHECK(run("create database old with log") == 0, "create database: %d", ERR.sqlcode);
    ixd_db_close(D);
    D = NULL;
    char path[400], sql[1024];
    snprintf(path, sizeof path, "%s/old.db", DIR_);
    sqlite3 *h;
    CHECK(sqlite3_open(path, &h) == SQLITE_OK, "open %s", path);
    snprintf(sql, sizeof sql,
             "DROP VIEW _ixd_rowtypes; DROP TABLE _ixd_attrtypes; DROP TABLE _ixd_xtdtypes;"
             "CREATE TABLE _ixd_rowtypes(name TEXT PRIMARY KEY, owner TEXT, fields TEXT NOT NULL);"
             "INSERT INTO _ixd_rowtypes VALUES('reading_t', 'tester', 'ts %d %u;m1 %d 8');",
             IX_T_DATETIME, ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(5)), IX_T_FLOAT);
    char *msg = NULL;
    CHECK(sqlite3_exec(h, sql, NULL, NULL, &msg) == SQLITE_OK, "old catalogue: %s", msg ? msg : "");
    sqlite3_free(msg);
    sqlite3_close(h);
}

int main(void) {
    eu_setup("rtup");
    make_old_file();
    CHECK(run("database old") == 0, "database old: %d", ERR.sqlcode);
    const char *r = q("select name, mode, type from sysxtdtypes");
    CHECK(!strcmp(r, "reading_t|R|4118"), "sysxtdtypes: %s", r);
    r = q("select fieldname, fieldno from sysattrtypes order by fieldno");
    CHECK(!strcmp(r, "ts|1\nm1|2"), "sysattrtypes: %s", r);
    CHECK(run("create table meter (id int primary key, r timeseries(reading_t))") == 0,
          "TIMESERIES of the old row type: %d %s", ERR.sqlcode, ERR.text);
    r = q("execute function oni_ts_create('meter', 'r', 1, '2026-03-01 00:00', '1 minute')");
    CHECK(!strcmp(r, "1"), "oni_ts_create: %s", r);
    CHECK(run("drop row type reading_t restrict") == -746, "in use: %d", ERR.sqlcode);
    eu_teardown();
    return tap_done();
}
