/* test_role_upgrade.c: a database file of catalogue version 4 (before
 * roles: _ixd_users without defrole, no _ixd_roleauth, sysroleauth empty)
 * gains them when it is opened, keeps its users, and takes roles. */
#include <sqlite3.h>

#include "test_engine_util.h"

static void make_old_file(void) {
    CHECK(run("create database old with log") == 0, "create database: %d", ERR.sqlcode);
    CHECK(run("grant resource to alice") == 0, "grant: %d", ERR.sqlcode);
    ixd_db_close(D);
    D = NULL;
    char path[400];
    snprintf(path, sizeof path, "%s/old.db", DIR_);
    sqlite3 *h;
    CHECK(sqlite3_open(path, &h) == SQLITE_OK, "open %s", path);
    const char *sql =
        "DROP VIEW sysusers; DROP VIEW sysroleauth; DROP TABLE _ixd_roleauth;"
        "CREATE TABLE _ixd_users4 AS SELECT username, usertype FROM _ixd_users;"
        "DROP TABLE _ixd_users;"
        "CREATE TABLE _ixd_users(username TEXT PRIMARY KEY, usertype TEXT);"
        "INSERT INTO _ixd_users SELECT * FROM _ixd_users4; DROP TABLE _ixd_users4;"
        "CREATE VIEW sysusers AS SELECT username, usertype, 0 AS priority, NULL AS password,"
        " NULL AS defrole FROM _ixd_users;"
        "CREATE VIEW sysroleauth AS SELECT NULL AS rolename, NULL AS grantee,"
        " NULL AS is_grantable WHERE 0;"
        "UPDATE _ixd_meta SET v = 4 WHERE k = 'catversion';";
    char *msg = NULL;
    CHECK(sqlite3_exec(h, sql, NULL, NULL, &msg) == SQLITE_OK, "old catalogue: %s", msg ? msg : "");
    sqlite3_free(msg);
    sqlite3_close(h);
}

int main(void) {
    eu_setup("roleup");
    make_old_file();
    CHECK(run("database old") == 0, "database old: %d", ERR.sqlcode);
    const char *r = q("select usertype from sysusers where username = 'alice'");
    CHECK(!strcmp(r, "R"), "alice kept: %s", r);
    CHECK(run("create role clerk") == 0, "create role: %d %s", ERR.sqlcode, ERR.text);
    CHECK(run("grant default role clerk to alice") == 0, "default role: %d %s", ERR.sqlcode,
          ERR.text);
    r = q("select trim(username), usertype, trim(defrole) from sysusers where username in "
          "('alice', 'clerk') order by 1");
    CHECK(!strcmp(r, "alice|R|clerk\nclerk|G|NULL"), "sysusers: %s", r);
    r = q("select trim(rolename), trim(grantee), is_grantable from sysroleauth");
    CHECK(!strcmp(r, "clerk|alice|n"), "sysroleauth: %s", r);
    r = q("select count(*) from sysroleauth");
    CHECK(!strcmp(r, "1"), "sysroleauth count: %s", r);
    eu_teardown();
    return tap_done();
}
