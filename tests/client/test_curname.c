/*
 * ix_stmt_set_cursor_name against a real ixd: a SELECT ... FOR UPDATE
 * whose cursor is named by the application, then UPDATE and DELETE ...
 * WHERE CURRENT OF that name on another statement of the connection reach
 * the row fetched last; the name holds across ix_reset (the next OPEN sends
 * it again); a name that is no identifier, too long, or set while the
 * cursor is open is refused; without a name WHERE CURRENT OF the name
 * finds no cursor (-507).
 */
#include <signal.h>
#include <stdio.h>
#include <string.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#define SQLCODE_NO_CURSOR (-507)

/* the value of column v in the row of t with id k, or -1 */
static int value_of(ix_conn *c, int k) {
    ix_stmt *s = NULL;
    int v = -1;
    if (ix_prepare(c, "SELECT v FROM t WHERE id = ?", IX_NTS, &s) != IX_OK) return -1;
    ix_bind_int(s, 1, k);
    if (ix_step(s) == IX_ROW) v = ix_column_int(s, 0);
    ix_finalize(s);
    return v;
}

static void positioned(ix_conn *c) {
    ix_stmt *q = NULL;
    CHECK(ix_prepare(c, "SELECT id, v FROM t WHERE id >= 2 FOR UPDATE", IX_NTS, &q) == IX_OK,
          "prepare: %s", ix_errmsg(c));
    if (!q) return;
    CHECK(ix_stmt_set_cursor_name(q, "upd_cur", IX_NTS) == IX_OK, "set name: %s", ix_errmsg(c));
    CHECK(ix_step(q) == IX_ROW, "first row: %s", ix_errmsg(c));
    int id = ix_column_int(q, 0);
    CHECK(ix_stmt_set_cursor_name(q, "other", IX_NTS) == IX_EMISUSE, "no rename while open");
    CHECK(ix_exec(c, "UPDATE t SET v = 100 WHERE CURRENT OF upd_cur") == IX_OK,
          "UPDATE ... WHERE CURRENT OF: %s", ix_errmsg(c));
    CHECK(ix_step(q) == IX_ROW, "second row: %s", ix_errmsg(c));
    int id2 = ix_column_int(q, 0);
    CHECK(ix_exec(c, "DELETE FROM t WHERE CURRENT OF UPD_CUR") == IX_OK,
          "DELETE ... WHERE CURRENT OF (another case): %s", ix_errmsg(c));
    ix_reset(q);
    CHECK(value_of(c, id) == 100, "row %d updated: %d", id, value_of(c, id));
    CHECK(value_of(c, id2) == -1, "row %d deleted", id2);
    /* the name holds at the next OPEN */
    CHECK(ix_step(q) == IX_ROW, "reopened: %s", ix_errmsg(c));
    id = ix_column_int(q, 0);
    CHECK(ix_exec(c, "UPDATE t SET v = 200 WHERE CURRENT OF upd_cur") == IX_OK,
          "after ix_reset: %s", ix_errmsg(c));
    ix_finalize(q);
    CHECK(value_of(c, id) == 200, "row %d updated again: %d", id, value_of(c, id));
}

static void unnamed(ix_conn *c) {
    ix_stmt *q = NULL;
    CHECK(ix_prepare(c, "SELECT id FROM t FOR UPDATE", IX_NTS, &q) == IX_OK, "prepare: %s",
          ix_errmsg(c));
    if (!q) return;
    CHECK(ix_step(q) == IX_ROW, "row: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "UPDATE t SET v = 1 WHERE CURRENT OF upd_cur") != IX_OK &&
              ix_sqlcode(c) == SQLCODE_NO_CURSOR,
          "no cursor of that name: %d", ix_sqlcode(c));
    ix_finalize(q);
}

static void misuse(ix_conn *c) {
    ix_stmt *q = NULL;
    char big[IX_CURSOR_NAME_MAX + 2];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = 0;
    CHECK(ix_prepare(c, "SELECT id FROM t", IX_NTS, &q) == IX_OK, "prepare");
    CHECK(ix_stmt_set_cursor_name(q, "1abc", IX_NTS) == IX_EINVAL, "a digit first");
    CHECK(ix_stmt_set_cursor_name(q, "a b", IX_NTS) == IX_EINVAL, "a blank");
    CHECK(ix_stmt_set_cursor_name(q, "", IX_NTS) == IX_EINVAL, "empty");
    CHECK(ix_stmt_set_cursor_name(q, NULL, IX_NTS) == IX_EINVAL, "NULL name");
    CHECK(ix_stmt_set_cursor_name(q, big, IX_NTS) == IX_EINVAL, "129 bytes");
    CHECK(ix_stmt_set_cursor_name(q, big, IX_CURSOR_NAME_MAX) == IX_OK, "128 bytes");
    CHECK(ix_stmt_set_cursor_name(q, "abcdef", 3) == IX_OK, "a length");
    CHECK(ix_stmt_set_cursor_name(NULL, "a", IX_NTS) == IX_EMISUSE, "NULL stmt");
    CHECK(ix_step(q) == IX_ROW, "the 128-byte name opens: %s", ix_errmsg(c));
    ix_finalize(q);
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
    CHECK(ix_exec(c, "CREATE DATABASE curname WITH LOG") == IX_OK, "create db: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "CREATE TABLE t (id INT, v INT)") == IX_OK, "create: %s", ix_errmsg(c));
    for (int i = 1; i <= 6; i++) {
        char sql[80];
        snprintf(sql, sizeof sql, "INSERT INTO t VALUES (%d, %d)", i, i * 10);
        ix_exec(c, sql);
    }
    positioned(c);
    unnamed(c);
    misuse(c);
    CHECK(!ix_conn_is_dead(c), "connection still aligned");
    ix_close(c);
    ixd_stop(&p, SIGTERM);
    if (!tap_fail) ixd_rmdir(&p);
    return tap_done();
}
