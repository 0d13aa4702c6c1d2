/* fuzz_engine.h: the in-process ixd engine the SQL fuzz targets drive
 * (fuzz_sql.c, fuzz_sql_shapes.c): a data directory of its own, one logged
 * database, removed at exit. */
#ifndef FUZZ_ENGINE_H
#define FUZZ_ENGINE_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/engine/ixd_engine.h"

static ixd_engine *eng;
static ixd_db *db;
static char dir[128];

static void fuzz_engine_cleanup(void) {
    ixd_db_close(db);
    ixd_engine_close(eng);
    char cmd[200];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd)) {
    }
}

/* Runs one setup statement (its failure is the fuzz target's to notice). */
static void exec1(const char *sql) {
    ixd_stmt *s;
    ixv_err e;
    if (ixd_prepare(db, sql, strlen(sql), &s, &e) == 0) {
        ixd_execute(s, NULL, NULL, NULL, &e);
        ixd_stmt_free(s);
    }
}

/* Opens the engine on /tmp/ixd_<tag>_<pid> with database f current: 0 or -1. */
static int fuzz_engine_open(const char *tag) {
    snprintf(dir, sizeof dir, "/tmp/ixd_%s_%d", tag, (int)getpid());
    ixv_err e;
    if (ixd_engine_open(&eng, dir, &e)) return -1;
    int fl;
    const char *c = "create database f with log";
    if (ixd_session_exec(eng, "fuzz", c, strlen(c), &db, &fl, &e) != 1) return -1;
    atexit(fuzz_engine_cleanup);
    return 0;
}

#endif
