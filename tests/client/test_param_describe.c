/*
 * ix_param_describe against a real ixd: the target columns of INSERT ...
 * VALUES (?, ...) with and without a column list (INTEGER NOT NULL,
 * DECIMAL(10,2), VARCHAR(20), DATE, DATETIME YEAR TO SECOND, BOOLEAN,
 * LVARCHAR, TEXT, BYTE), a deferred INSERT described before its first
 * execution (one PREPARE on the wire, none again at the execution), and
 * the statements whose describe places no parameter (a literal among the
 * values, UPDATE, INSERT ... SELECT): IX_UNDESCRIBED with nothing recorded.
 * Also after a schema change (the statement cache prepares anew) and the
 * misuse answers.
 */
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

/* Counts the PREPAREs the client sends. */
static void on_trace(void *ud, const char *line) {
    int *n = ud;
    if (strncmp(line, "C->S ", 5) == 0 && strstr(line, "SQ_PREPARE")) (*n)++;
}

typedef struct want {
    int type, enclen, notnull;
} want;

/* Checks parameters 1..n of sql against w. */
static void check_insert(ix_conn *c, const char *sql, const want *w, int n) {
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, sql, IX_NTS, &s) == IX_OK, "prepare %s: %s", sql, ix_errmsg(c));
    if (!s) return;
    for (int i = 0; i < n; i++) {
        ix_param_desc d;
        int rc = ix_param_describe(s, i + 1, &d);
        CHECK(rc == IX_OK && d.type == w[i].type && d.enclen == w[i].enclen &&
                  d.notnull == w[i].notnull && d.lob_type == 0,
              "%s: parameter %d: rc %d type %d enclen %d notnull %d (want %d %d %d)", sql, i + 1,
              rc, d.type, d.enclen, d.notnull, w[i].type, w[i].enclen, w[i].notnull);
    }
    ix_finalize(s);
}

/* Every parameter of sql is IX_UNDESCRIBED, with no error recorded. */
static void check_undescribed(ix_conn *c, const char *sql) {
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, sql, IX_NTS, &s) == IX_OK, "prepare %s: %s", sql, ix_errmsg(c));
    if (!s) return;
    int n = ix_bind_parameter_count(s);
    for (int i = 1; i <= n; i++) {
        ix_param_desc d;
        d.type = 99;
        int rc = ix_param_describe(s, i, &d);
        CHECK(rc == IX_UNDESCRIBED && ix_errcode(c) == IX_OK && d.type == 0,
              "%s: parameter %d: rc %d (%s), errcode %d", sql, i, rc, ix_rc_str(rc), ix_errcode(c));
    }
    ix_finalize(s);
}

static void table_types(ix_conn *c) {
    CHECK(ix_exec(c, "CREATE TABLE pd (i INTEGER NOT NULL, d DECIMAL(10,2), v VARCHAR(20), "
                     "dt DATE, ts DATETIME YEAR TO SECOND, b BOOLEAN, lv LVARCHAR(500), "
                     "tx TEXT, by BYTE)") == IX_OK,
          "create: %s", ix_errmsg(c));
    int ts = (int)ix_qualifier_dt(IX_UNIT_YEAR, IX_UNIT_SECOND);
    want all[9] = {{IX_T_INTEGER, 4, 1},    {IX_T_DECIMAL, 10 << 8 | 2, 0},
                   {IX_T_VARCHAR, 20, 0},   {IX_T_DATE, 4, 0},
                   {IX_T_DATETIME, ts, 0},  {IX_T_BOOLEAN, 1, 0},
                   {IX_T_LVARCHAR, 500, 0}, {IX_T_TEXT, 56, 0},
                   {IX_T_BYTE, 56, 0}};
    check_insert(c, "INSERT INTO pd VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", all, 9);
    want listed[3] = {{IX_T_VARCHAR, 20, 0}, {IX_T_DATETIME, ts, 0}, {IX_T_INTEGER, 4, 1}};
    check_insert(c, "insert into pd (v, ts, i) values (?,?,?);", listed, 3);
    check_undescribed(c, "INSERT INTO pd (i, v, d) VALUES (?, 'x', ?)");
    check_undescribed(c, "INSERT INTO pd (i, d) VALUES (?, ? + 1)");
    check_undescribed(c, "UPDATE pd SET v = ? WHERE i = ?");
    check_undescribed(c, "DELETE FROM pd WHERE i = ?");
    check_undescribed(c, "INSERT INTO pd (i) SELECT i + ? FROM pd");
    check_undescribed(c, "SELECT v FROM pd WHERE i = ?");
}

/* A deferred INSERT: the describe sends its PREPARE on its own, once; the
 * execution that follows sends none, and runs. Against ixd --strict (a
 * conservative connection, which does not defer) the PREPARE goes at
 * ix_prepare, and the unknown table's error comes from there. */
static void deferred(ix_conn *c) {
    int strict = ixd_test_strict();
    int prepares = 0;
    ix_set_trace(c, on_trace, &prepares);
    ix_stmt *s = NULL;
    CHECK(ix_prepare(c, "INSERT INTO pd (i, v) VALUES (?, ?)", IX_NTS, &s) == IX_OK, "prepare: %s",
          ix_errmsg(c));
    CHECK(prepares == strict, "deferred: nothing sent at ix_prepare (%d)", prepares);
    ix_param_desc d;
    CHECK(ix_param_describe(s, 2, &d) == IX_OK && d.type == IX_T_VARCHAR && prepares == 1,
          "describe of the deferred INSERT: type %d, %d PREPAREs", d.type, prepares);
    ix_bind_int(s, 1, 7);
    ix_bind_text(s, 2, "seven", IX_NTS, IX_STATIC);
    CHECK(ix_step(s) == IX_DONE && ix_changes(s) == 1 && prepares == 1,
          "execution after the describe: %s, %d PREPAREs", ix_errmsg(c), prepares);
    CHECK(ix_param_describe(s, 1, &d) == IX_OK && d.type == IX_T_INTEGER && d.notnull == 1,
          "describe after the execution: %d", d.type);
    ix_finalize(s);
    ix_set_trace(c, NULL, NULL);
    /* a deferred statement whose PREPARE fails: the failure, recorded */
    int rc = ix_prepare(c, "INSERT INTO nosuch VALUES (?)", IX_NTS, &s);
    if (!strict) rc = ix_param_describe(s, 1, &d);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -206, "unknown table: sqlcode %d", ix_sqlcode(c));
    ix_finalize(s);
}

/* A cached statement prepared before a schema change is prepared anew:
 * the describe follows the new column type. */
static void schema_change(ix_conn *c) {
    ix_set_stmt_cache(c, 8);
    const char *sql = "INSERT INTO sc VALUES (?)";
    CHECK(ix_exec(c, "CREATE TABLE sc (a INTEGER)") == IX_OK, "create sc: %s", ix_errmsg(c));
    ix_stmt *s = NULL;
    ix_param_desc d;
    ix_prepare(c, sql, IX_NTS, &s);
    CHECK(ix_param_describe(s, 1, &d) == IX_OK && d.type == IX_T_INTEGER, "before: %d", d.type);
    ix_finalize(s); /* kept in the cache */
    CHECK(ix_exec(c, "DROP TABLE sc") == IX_OK && ix_exec(c, "CREATE TABLE sc (a DATE)") == IX_OK,
          "recreate sc: %s", ix_errmsg(c));
    ix_prepare(c, sql, IX_NTS, &s);
    CHECK(ix_param_describe(s, 1, &d) == IX_OK && d.type == IX_T_DATE, "after: %d", d.type);
    ix_finalize(s);
    ix_set_stmt_cache(c, 0);
}

static void misuse(ix_conn *c) {
    ix_param_desc d;
    ix_stmt *s = NULL;
    CHECK(ix_param_describe(NULL, 1, &d) == IX_EMISUSE, "NULL statement");
    ix_prepare(c, "INSERT INTO pd (i) VALUES (?)", IX_NTS, &s);
    CHECK(ix_param_describe(s, 0, &d) == IX_ERANGE && ix_param_describe(s, 2, &d) == IX_ERANGE,
          "index out of range");
    CHECK(ix_param_describe(s, 1, NULL) == IX_EMISUSE, "NULL out");
    CHECK(strcmp(ix_rc_str(IX_UNDESCRIBED), "not described") == 0, "ix_rc_str");
    ix_finalize(s);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, NULL) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    char dsn[200];
    snprintf(dsn, sizeof dsn, "informix://informix:in4mix@127.0.0.1:%d/sysmaster", p.port);
    ix_conn *c;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "CREATE DATABASE pdesc WITH LOG") == IX_OK, "create db: %s", ix_errmsg(c));
    table_types(c);
    deferred(c);
    schema_change(c);
    misuse(c);
    CHECK(!ix_conn_is_dead(c), "connection still aligned");
    ix_close(c);
    ixd_stop(&p, SIGTERM);
    if (!tap_fail) ixd_rmdir(&p);
    return tap_done();
}
