/* test_engine_misc.c: parameter binding and conversion errors, scroll
 * cursors, describe of INSERT/UPDATE (statement type, parameter types),
 * time limits and interrupts, concurrent sessions. DECIMAL arithmetic, DDL
 * edge cases, TEMP tables and MATCHES are in tests/sql/engine_types.test,
 * engine_ddl.test and engine_dml.test. */
#include <pthread.h>
#include <time.h>

#include "test_engine_util.h"

static int bind_exec(const char *sql, ixt_vtype t, const char *text) {
    ixd_stmt *s;
    memset(&ERR, 0, sizeof ERR);
    if (ixd_prepare(D, sql, strlen(sql), &s, &ERR)) return ERR.sqlcode;
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    int rc = 0;
    if (text && ixt_value_parse(t, text, strlen(text), NULL, &b) != IX_OK) rc = -9999;
    if (!rc) rc = ixd_bind(s, 0, t, text ? b.data : NULL, b.len, &ERR) ? ERR.sqlcode : 0;
    if (!rc) rc = ixd_execute(s, &ROWS, &SERIAL, &SERIAL8, &ERR) ? ERR.sqlcode : 0;
    ixb_wbuf_free(&b);
    ixd_stmt_free(s);
    return rc;
}

static void *interrupter(void *arg) {
    (void)arg;
    struct timespec ts = {0, 150 * 1000 * 1000};
    nanosleep(&ts, NULL);
    ixd_interrupt(D);
    return NULL;
}

static void *session_thread(void *arg) {
    int k = (int)(intptr_t)arg;
    ixd_db *db;
    ixv_err e;
    int fl;
    if (ixd_db_open(E, "misc", "t", &db, &fl, &e)) return (void *)1;
    char set[] = "set lock mode to wait 10";
    ixd_stmt *s;
    ixd_prepare(db, set, strlen(set), &s, &e);
    ixd_execute(s, NULL, NULL, NULL, &e);
    ixd_stmt_free(s);
    intptr_t bad = 0;
    for (int i = 0; i < 50; i++) {
        char sql[100];
        snprintf(sql, sizeof sql, "insert into conc values (%d, %d)", k, i);
        if (ixd_prepare(db, sql, strlen(sql), &s, &e)) {
            bad++;
            continue;
        }
        if (ixd_execute(s, NULL, NULL, NULL, &e)) bad++;
        ixd_stmt_free(s);
    }
    ixd_db_close(db);
    return (void *)bad;
}

int main(void) {
    eu_setup("misc");
    CHECK_RUN("create database misc with log", 0);
    /* binds: CHAR text converted to the column's type */
    CHECK_RUN("create table b (i int, d date, dc decimal(6,2), ts datetime year to minute, bo "
              "boolean)",
              0);
    ixt_vtype vc = {IX_T_VARCHAR, 40};
    ixt_vtype ch = {IX_T_CHAR, 12};
    CHECK(bind_exec("insert into b (i) values (?)", vc, "42") == 0, "bind varchar->int");
    CHECK(bind_exec("insert into b (i) values (?)", vc, "4x2") == -1213, "bind bad int %d",
          ERR.sqlcode);
    CHECK(bind_exec("insert into b (i) values (?)", vc, "99999999999") == -1215, "int overflow");
    CHECK(bind_exec("insert into b (d) values (?)", ch, "12/25/2023") == 0, "bind char->date");
    CHECK(bind_exec("insert into b (d) values (?)", ch, "2023-12-26") == 0, "bind iso date");
    CHECK(bind_exec("insert into b (d) values (?)", ch, "99/99/2023") != 0, "bad date");
    CHECK(bind_exec("insert into b (dc) values (?)", vc, "1234.567") == 0, "bind dec");
    CHECK(bind_exec("insert into b (dc) values (?)", vc, "123456.7") == -1226, "dec overflow");
    CHECK(bind_exec("insert into b (ts) values (?)", vc, "2024-05-06 07:08") == 0, "bind dt");
    CHECK(bind_exec("insert into b (ts) values (?)", vc, "2024-05-06 xx:08") == -1262, "bad dt");
    CHECK(bind_exec("insert into b (bo) values (?)", vc, "t") == 0, "bind bool");
    ixt_vtype it = {IX_T_INTEGER, 4};
    CHECK(bind_exec("insert into b (i) values (?)", it, NULL) == 0, "bind null");
    CHECK(bind_exec("delete from b where i = ?", it, "42") == 0 && ROWS == 1, "delete by param");
    CHECK_Q("select d from b where d is not null order by d", "12/25/2023\n12/26/2023");
    CHECK_Q("select dc, ts, bo from b where dc is not null or bo is not null or ts is not null "
            "order by 1",
            "NULL|2024-05-06 07:08|NULL\nNULL|NULL|t\n1234.57|NULL|NULL");

    /* describe of INSERT / UPDATE, parameter types */
    {
        ixd_stmt *s;
        const char *sql = "update b set dc = ?, i = ? where d = ?";
        CHECK(ixd_prepare(D, sql, strlen(sql), &s, &ERR) == 0, "prep update");
        CHECK(ixd_stmt_ncols(s) == 2 && ixd_stmt_nparams(s) == 3, "update cols %d params %d",
              ixd_stmt_ncols(s), ixd_stmt_nparams(s));
        CHECK(ixd_stmt_type(s) == 4, "type");
        ixt_vtype p0 = ixd_stmt_param_type(s, 0), p2 = ixd_stmt_param_type(s, 2);
        CHECK(p0.code == IX_T_DECIMAL && p0.enclen == 0x0602, "p0 %d %#x", p0.code, p0.enclen);
        CHECK(p2.code == IX_T_DATE, "p2 %d", p2.code);
        ixd_stmt_free(s);
        sql = "insert into b (i, ts) values (?, ?)";
        CHECK(ixd_prepare(D, sql, strlen(sql), &s, &ERR) == 0, "prep insert");
        ixd_col c;
        ixd_stmt_col(s, 1, &c);
        CHECK(ixd_stmt_ncols(s) == 2 && c.type == IX_T_DATETIME && c.enclen == 0x0c08,
              "insert cols %d %d %#x", ixd_stmt_ncols(s), c.type, c.enclen);
        CHECK(ixd_stmt_type(s) == 6, "insert type");
        ixd_stmt_free(s);
    }

    /* scroll cursor */
    CHECK_RUN("create table sc (n int)", 0);
    for (int i = 1; i <= 5; i++) {
        char sql[64];
        snprintf(sql, sizeof sql, "insert into sc values (%d)", i * 10);
        CHECK_RUN(sql, 0);
    }
    {
        ixd_stmt *s;
        const char *sql = "select n from sc order by n";
        ixd_prepare(D, sql, strlen(sql), &s, &ERR);
        CHECK(ixd_open(s, 1, &ERR) == 0, "open scroll");
        CHECK(ixd_row_count(s) == 5, "row count");
        ixb_wbuf b;
        ixb_wbuf_init(&b, NULL);
        CHECK(ixd_fetch_at(s, 3, &b, &ERR) == 1 && b.len == 4 && b.data[3] == 30, "row 3");
        ixb_wbuf_reset(&b);
        CHECK(ixd_fetch(s, &b, &ERR) == 1 && b.data[3] == 40, "next after 3");
        CHECK(ixd_fetch_at(s, 9, &b, &ERR) == 0, "past end");
        ixd_close(s);
        CHECK(ixd_open(s, 0, &ERR) == 0, "reopen");
        ixb_wbuf_reset(&b);
        CHECK(ixd_fetch(s, &b, &ERR) == 1 && b.data[3] == 10, "first row again");
        ixb_wbuf_free(&b);
        ixd_stmt_free(s);
    }

    /* statements can be time-limited, and interrupted */
    ixd_set_timeout(D, 200);
    CHECK_Q("select count(*) from sc a, sc b, sc c, sc d, sc e, sc f, sc g, sc h, sc i, sc j, "
            "sc k, sc l",
            "ERR -213");
    ixd_set_timeout(D, 0);
    {
        pthread_t irq;
        pthread_create(&irq, NULL, interrupter, NULL);
        CHECK_Q("select count(*) from sc a, sc b, sc c, sc d, sc e, sc f, sc g, sc h, sc i, sc j, "
                "sc k, sc l",
                "ERR -213");
        pthread_join(irq, NULL);
        CHECK_Q("select count(*) from sc", "5");
    }
    CHECK(!strcmp(ixv_errtext(-213), "Statement interrupted by user."), "errtext");

    /* many sessions on threads */
    CHECK_RUN("create table conc (k int, i int)", 0);
    pthread_t th[4];
    for (int i = 0; i < 4; i++)
        pthread_create(&th[i], NULL, session_thread, (void *)(intptr_t)i);
    intptr_t bad = 0;
    for (int i = 0; i < 4; i++) {
        void *r;
        pthread_join(th[i], &r);
        bad += (intptr_t)r;
    }
    CHECK(bad == 0, "%ld failed inserts", (long)bad);
    CHECK_Q("select count(*), count(distinct k) from conc", "200|4");
    eu_teardown();
    return tap_done();
}
