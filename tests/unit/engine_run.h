/* engine_run.h: one statement run on an engine as a session runs it, for
 * the unit tests that drive an engine of their own (test_engine_util.h has
 * the same for its shared engine). */
#ifndef ENGINE_RUN_H
#define ENGINE_RUN_H

#include <string.h>

#include "server/engine/ixd_engine.h"

/* Runs sql as "informix" on e (a DATABASE statement sets *db); returns its
 * SQLCODE, 0 when it ran. */
static inline int engine_run(ixd_engine *e, ixd_db **db, const char *sql) {
    ixv_err err = {0};
    int flags = 0;
    int h = ixd_session_exec(e, "informix", sql, strlen(sql), db, &flags, &err);
    if (h == 1) return 0;
    if (h < 0) return err.sqlcode ? err.sqlcode : -201;
    ixd_stmt *st;
    if (ixd_prepare(*db, sql, strlen(sql), &st, &err)) return err.sqlcode;
    int64_t rows, s8;
    int32_t ser;
    int rc = ixd_execute(st, &rows, &ser, &s8, &err);
    ixd_stmt_free(st);
    return rc ? err.sqlcode : 0;
}

#endif /* ENGINE_RUN_H */
