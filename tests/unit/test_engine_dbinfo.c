/* Engine: DBINFO('version', part) comes from the engine's banner (the one the
 * login accept carries) as ixd_engine_set_banner sets it, cut into the
 * parts IBM documents; SQ_DBLIST's list of databases. The default banner's
 * parts and the forms refused are in tests/sql/engine_dbinfo.test. */
#include "test_engine_util.h"

static void check_parts(const char *const want[6]) {
    static const char *const parts[6] = {"full", "server-type", "major", "minor", "os", "level"};
    for (int i = 0; i < 6; i++) {
        char sql[200];
        snprintf(sql, sizeof sql, "select dbinfo('version', '%s') from systables where tabid = 1",
                 parts[i]);
        CHECK_Q(sql, want[i]);
    }
}

int main(void) {
    eu_setup("dbinfo");
    CHECK_RUN("create database v with log", 0);
    CHECK(strcmp(ixd_engine_banner(E), "IBM Informix Dynamic Server Version 14.10.FC10") == 0,
          "default banner");
    /* IBM's own example string. */
    CHECK(ixd_engine_set_banner(E, "Informix Version 11.50.UC6") == 0, "set banner");
    static const char *const v11[6] = {
        "Informix Version 11.50.UC6", "Informix", "11", "50", "U", "C6"};
    check_parts(v11);
    CHECK(ixd_engine_set_banner(E, "odd banner") == 0, "set banner");
    static const char *const odd[6] = {"odd banner", "odd banner", "", "", "", ""};
    check_parts(odd);

    /* The databases of the data directory, in name order. */
    CHECK_RUN("create database alpha", 0);
    char **names = NULL;
    int n = ixd_db_list(E, &names, &ERR);
    CHECK(n == 3 && !strcmp(names[0], "alpha") && !strcmp(names[1], "sysmaster") &&
              !strcmp(names[2], "v"),
          "ixd_db_list: %d databases", n);
    free(names);
    FILE *f = NULL;
    char path[400];
    snprintf(path, sizeof path, "%s/notadb.db", DIR_);
    f = fopen(path, "w");
    if (f) {
        fputs("not sqlite", f);
        fclose(f);
    }
    snprintf(path, sizeof path, "%s/Upper.db", DIR_);
    f = fopen(path, "w");
    if (f) fclose(f);
    n = ixd_db_list(E, &names, &ERR);
    CHECK(n == 3, "files that are not databases are left out (%d)", n);
    free(names);
    eu_teardown();
    return tap_done();
}
