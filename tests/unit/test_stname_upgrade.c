/* test_stname_upgrade.c: a database file made before storage names kept a
 * quoted mixed-case name ("MyTab", "Col", "MyIdx") under that name in SQLite
 * too. Opened now, its tables, columns and indexes take their storage names
 * (ixv_stname): the table is found, its CHECK still names its column, the
 * index can be dropped, and a lower-case table keeps its name. */
#include <sqlite3.h>

#include "test_engine_util.h"

static void sql_exec(sqlite3 *h, const char *sql) {
    char *msg = NULL;
    CHECK(sqlite3_exec(h, sql, NULL, NULL, &msg) == SQLITE_OK, "%s: %s", sql, msg ? msg : "");
    sqlite3_free(msg);
}

static const char *master(sqlite3 *h, const char *type) {
    static char out[1024];
    char sql[400];
    snprintf(sql, sizeof sql,
             "SELECT group_concat(name, ',') FROM (SELECT name FROM sqlite_master WHERE type = "
             "'%s' AND name NOT LIKE 'sqlite\\_%%' ESCAPE '\\' AND name NOT LIKE '\\_ixd\\_%%' "
             "ESCAPE '\\' AND name NOT LIKE 'sys%%' ORDER BY name)",
             type);
    sqlite3_stmt *st;
    out[0] = 0;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) == SQLITE_OK && sqlite3_step(st) == SQLITE_ROW &&
        sqlite3_column_text(st, 0))
        snprintf(out, sizeof out, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    return out;
}

/* Makes the objects under storage names, then gives them back the names an
 * older ixd stored them under. */
static void make_old_file(void) {
    CHECK(run("create database old with log") == 0, "create database: %d", ERR.sqlcode);
    ixd_set_env(D, "DELIMIDENT", "y");
    CHECK_RUN("create table \"MyTab\" (\"Col\" int, b int, check (\"Col\" > 0))", 0);
    CHECK_RUN("create index \"MyIdx\" on \"MyTab\" (\"Col\")", 0);
    CHECK_RUN("create table low (\"Up\" int, v int)", 0);
    CHECK_RUN("insert into \"MyTab\" values (1, 2)", 0);
    CHECK_RUN("insert into low values (3, 4)", 0);
    ixd_db_close(D);
    D = NULL;
    char path[400];
    snprintf(path, sizeof path, "%s/old.db", DIR_);
    sqlite3 *h;
    CHECK(sqlite3_open(path, &h) == SQLITE_OK, "open %s", path);
    /* sysdatabases reads a virtual table of ixd's: away while SQLite renames */
    sqlite3_stmt *st;
    char view[2048] = "";
    if (sqlite3_prepare_v2(h, "SELECT sql FROM sqlite_master WHERE name = 'sysdatabases'", -1, &st,
                           NULL) == SQLITE_OK &&
        sqlite3_step(st) == SQLITE_ROW)
        snprintf(view, sizeof view, "%s", (const char *)sqlite3_column_text(st, 0));
    sqlite3_finalize(st);
    CHECK(view[0], "sysdatabases view");
    sql_exec(h, "BEGIN; DROP VIEW sysdatabases;"
                "ALTER TABLE \"^my^tab\" RENAME COLUMN \"^col\" TO \"Col\";"
                "ALTER TABLE low RENAME COLUMN \"^up\" TO \"Up\";"
                "ALTER TABLE \"^my^tab\" RENAME TO \"MyTab\"; DROP INDEX \"^my^idx\";"
                "CREATE INDEX \"MyIdx\" ON \"MyTab\"(\"Col\");"
                "UPDATE _ixd_constraints SET checktext = replace(checktext, '\"^col\"', "
                "'\"Col\"'); DELETE FROM _ixd_meta WHERE k = 'stnames';");
    sql_exec(h, view);
    sql_exec(h, "COMMIT");
    CHECK(!strcmp(master(h, "table"), "MyTab,low"), "old tables: %s", master(h, "table"));
    CHECK(!strcmp(master(h, "index"), "MyIdx"), "old indexes: %s", master(h, "index"));
    sqlite3_close(h);
}

int main(void) {
    eu_setup("stnup");
    make_old_file();
    CHECK(run("database old") == 0, "database old: %d", ERR.sqlcode);
    ixd_set_env(D, "DELIMIDENT", "y");
    CHECK_Q("select \"Col\", b from \"MyTab\"", "1|2");
    CHECK_Q("select \"Up\", v from low", "3|4");
    CHECK_RUN("insert into \"MyTab\" values (0, 1)", -530);
    CHECK_RUN("insert into \"MyTab\" values (5, 6)", 0);
    CHECK_RUN("drop index \"MyIdx\"", 0);
    CHECK_RUN("alter table \"MyTab\" drop (\"Col\")", 0);
    char path[400];
    snprintf(path, sizeof path, "%s/old.db", DIR_);
    sqlite3 *h;
    CHECK(sqlite3_open(path, &h) == SQLITE_OK, "open %s", path);
    CHECK(!strcmp(master(h, "table"), "^my^tab,low"), "tables now: %s", master(h, "table"));
    CHECK(!strcmp(master(h, "index"), ""), "indexes now: %s", master(h, "index"));
    sqlite3_close(h);
    eu_teardown();
    return tap_done();
}
