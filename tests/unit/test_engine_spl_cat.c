/* test_engine_spl_cat.c: a database file made when routines were unique by
 * name and parameter count (the unique index _ixd_procsig) gets the plain
 * (name, numargs) index when opened, so that routines overload by their
 * parameters' types there too; routines made before keep working. */
#include "server/engine/ixd_int.h" /* ixd_db's SQLite handle, to store the old index */
#include "test_engine_util.h"

/* 1 when sqlite_master holds an object of that name. */
static int has_object(const char *name) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(D->x.h, "SELECT 1 FROM sqlite_master WHERE name = ?", -1, &st, NULL) !=
        SQLITE_OK)
        return -1;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
    int found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

static void old_unique_index(void) {
    CHECK_RUN("create function old_f(x integer) returning integer; return x + 1; end function", 0);
    /* the file as the earlier version left it */
    CHECK(sqlite3_exec(D->x.h,
                       "DROP INDEX _ixd_procsig2; CREATE UNIQUE INDEX _ixd_procsig ON "
                       "sysprocedures(procname, numargs)",
                       NULL, NULL, NULL) == SQLITE_OK,
          "old index stored: %s", sqlite3_errmsg(D->x.h));
    CHECK(has_object("_ixd_procsig") == 1, "old index there");
    CHECK_RUN("close database", 0);
    CHECK_RUN("database splcat", 0);
    CHECK(has_object("_ixd_procsig") == 0, "old unique index dropped when opened");
    CHECK(has_object("_ixd_procsig2") == 1, "plain index made when opened");
    CHECK_RUN("create function old_f(x varchar(10)) returning integer; return 100; end function",
              0);
    CHECK_RUN("create function old_f(x integer) returning integer; return 0; end function", -673);
    CHECK_Q("execute function old_f(1)", "2");
    CHECK_Q("execute function old_f('a')", "100");
}

int main(void) {
    eu_setup("splcat");
    CHECK_RUN("create database splcat with log", 0);
    old_unique_index();
    eu_teardown();
    return tap_done();
}
