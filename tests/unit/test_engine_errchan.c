/* test_engine_errchan.c: ixd's one error channel. An SQL function's error
 * (a WITH CHECK OPTION trigger's -530, an SPL routine's exception with its
 * ISAM code) reaches the caller through the error record with its text; a
 * view-check trigger of an earlier version (RAISE(ABORT, 'ixd:-530:...'),
 * stored in the user's database file) still gives -530; a raised error does
 * not outlive its statement; a missing savepoint is -83. */
#include "server/engine/ixd_int.h" /* ixd_db's SQLite handle, to store an old trigger */
#include "test_engine_util.h"

/* Rewrites the view-check triggers of the database as earlier versions
 * stored them: RAISE(ABORT, 'ixd:-530:<owner>.<view>'). Returns how many. */
static int make_legacy_triggers(void) {
    sqlite3_stmt *st;
    char names[8][128], sqls[8][2048];
    int n = 0;
    if (sqlite3_prepare_v2(D->x.h,
                           "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND sql "
                           "LIKE '%ixd_raise(%'",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    while (n < 8 && sqlite3_step(st) == SQLITE_ROW) {
        snprintf(names[n], sizeof names[n], "%.100s", (const char *)sqlite3_column_text(st, 0));
        snprintf(sqls[n], sizeof sqls[n], "%s", (const char *)sqlite3_column_text(st, 1));
        n++;
    }
    sqlite3_finalize(st);
    for (int i = 0; i < n; i++) {
        static const char from[] = "ixd_raise(-530, '", to[] = "RAISE(ABORT, 'ixd:-530:";
        char *p = strstr(sqls[i], from), out[2200], drop[160];
        if (!p) return -1;
        snprintf(out, sizeof out, "%.*s%s%s", (int)(p - sqls[i]), sqls[i], to, p + strlen(from));
        snprintf(drop, sizeof drop, "DROP TRIGGER \"%.100s\"", names[i]);
        if (sqlite3_exec(D->x.h, drop, NULL, NULL, NULL) != SQLITE_OK ||
            sqlite3_exec(D->x.h, out, NULL, NULL, NULL) != SQLITE_OK)
            return -1;
    }
    return n;
}

static void view_check(void) {
    CHECK_RUN("create table t (a integer not null, b integer)", 0);
    CHECK_RUN("create view v (a, b) as select a, b from t where a > 0 with check option", 0);
    CHECK_RUN("insert into v values (1, 1)", 0);
    CHECK_RUN("insert into v values (-1, 1)", -530);
    CHECK(strcmp(ERR.text, "tester.v") == 0, "-530 text '%s'", ERR.text);
    int n = make_legacy_triggers();
    CHECK(n > 0, "legacy view-check triggers stored: %d", n);
    CHECK_RUN("insert into v values (-2, 1)", -530);
    CHECK(strcmp(ERR.text, "tester.v") == 0, "legacy -530 text '%s'", ERR.text);
    CHECK_RUN("update v set a = -5 where a = 1", -530);
    CHECK_Q("select a from t order by a", "1");
}

static void raised_then_sqlite(void) {
    /* a function's error, then SQLite's own failure: each its own code */
    CHECK_RUN("create function f_boom() returning integer; "
              "raise exception -746, -107, 'boom here'; return 1; end function",
              0);
    CHECK_Q("select f_boom() from systables where tabid = 1", "ERR -746");
    CHECK(ERR.isamcode == -107 && strcmp(ERR.text, "boom here") == 0,
          "raised record: isam %d text '%s'", ERR.isamcode, ERR.text);
    CHECK_Q("select a from t where a = f_boom()", "ERR -746"); /* the function in WHERE */
    CHECK_RUN("insert into t values (null, 2)", -391);
    CHECK_Q("execute function f_boom()", "ERR -746"); /* the routine's table function */
    CHECK(ERR.isamcode == -107 && strcmp(ERR.text, "boom here") == 0,
          "raised record (table function): isam %d text '%s'", ERR.isamcode, ERR.text);
    CHECK_RUN("insert into t values (null, 2)", -391);
    CHECK(strcmp(ERR.text, "a") == 0, "-391 text '%s'", ERR.text);
    CHECK_RUN("insert into v values (-3, 1)", -530);
    CHECK_RUN("insert into t values (null, 3)", -391);
}

static void savepoints(void) {
    CHECK_RUN("begin work", 0);
    CHECK_RUN("savepoint s1", 0);
    CHECK_RUN("rollback to savepoint nosuch", -83);
    CHECK_RUN("release savepoint nosuch", -83);
    CHECK_RUN("release savepoint s1", 0);
    CHECK_RUN("rollback work", 0);
}

int main(void) {
    eu_setup("errchan");
    CHECK_RUN("create database ec with log", 0);
    view_check();
    raised_then_sqlite();
    savepoints();
    eu_teardown();
    return tap_done();
}
