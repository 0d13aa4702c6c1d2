/* test_engine_seq.c: sequences between sessions (a NEXTVAL inside another
 * session's read snapshot and write transaction, two threads drawing values at
 * once: never the same value twice), and the row counts of DML through an
 * updatable view and of MERGE. */
#include <pthread.h>

#include "test_engine_util.h"

#define NTHREAD 2
#define NDRAW   150

/* Runs sql on db (no result), returns its SQLCODE; rows when not NULL. */
static int run_on(ixd_db *db, const char *sql, int64_t *rows) {
    ixv_err e;
    ixd_stmt *s;
    if (ixd_prepare(db, sql, strlen(sql), &s, &e)) return e.sqlcode;
    int rc = ixd_execute(s, rows, NULL, NULL, &e);
    ixd_stmt_free(s);
    return rc ? e.sqlcode : 0;
}

/* One NEXTVAL of s on db: the value, or a negative SQLCODE. */
static int64_t next_on(ixd_db *db) {
    ixv_err e;
    ixd_stmt *s;
    const char *sql = "select s.nextval from systables where tabid = 1";
    if (ixd_prepare(db, sql, strlen(sql), &s, &e)) return e.sqlcode;
    int64_t v = -1;
    if (ixd_open(s, 0, &e) == 0) {
        ixb_wbuf b;
        ixb_wbuf_init(&b, NULL);
        char txt[64] = "";
        if (ixd_fetch(s, &b, &e) == 1 && fmt_row(s, b.data, b.len, txt, sizeof txt) == 0)
            v = strtoll(txt, NULL, 10);
        else
            v = e.sqlcode ? e.sqlcode : -2;
        ixb_wbuf_free(&b);
    } else
        v = e.sqlcode;
    ixd_stmt_free(s);
    return v;
}

typedef struct drawer {
    int64_t got[NDRAW];
    int bad;
} drawer;

static void *draw(void *ap) {
    drawer *d = ap;
    ixd_db *db;
    ixv_err e;
    int fl;
    if (ixd_db_open(E, "sq", "other", &db, &fl, &e)) {
        d->bad = 1;
        return NULL;
    }
    for (int i = 0; i < NDRAW; i++)
        if ((d->got[i] = next_on(db)) <= 0) d->bad++;
    ixd_db_close(db);
    return NULL;
}

static int cmp64(const void *a, const void *b) {
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static void two_sessions(void) {
    ixd_db *b;
    ixv_err e;
    int fl;
    CHECK(ixd_db_open(E, "sq", "other", &b, &fl, &e) == 0, "second session");
    CHECK(next_on(D) == 1, "first value");
    /* b reads in a transaction (a snapshot), then D draws, then b draws */
    CHECK_RUN("begin work", 0);
    CHECK(run_on(b, "begin work", NULL) == 0, "b begins");
    CHECK(next_on(b) == 2, "b in its snapshot");
    CHECK(next_on(D) == 3, "D after b");
    CHECK(next_on(b) == 4, "b again, after D's value");
    /* D holds the write lock of the database: b still draws at once */
    CHECK_RUN("insert into t values (1)", 0);
    CHECK(next_on(b) == 5, "b while D writes");
    CHECK(run_on(b, "rollback work", NULL) == 0, "b rolls back");
    CHECK_RUN("rollback work", 0);
    CHECK(next_on(D) == 6, "values are not given back by ROLLBACK");
    ixd_db_close(b);

    drawer d[NTHREAD];
    pthread_t th[NTHREAD];
    memset(d, 0, sizeof d);
    for (int i = 0; i < NTHREAD; i++)
        pthread_create(&th[i], NULL, draw, &d[i]);
    for (int i = 0; i < NTHREAD; i++)
        pthread_join(th[i], NULL);
    int64_t all[NTHREAD * NDRAW];
    int bad = 0, dup = 0;
    for (int i = 0; i < NTHREAD; i++) {
        bad += d[i].bad;
        memcpy(all + i * NDRAW, d[i].got, sizeof d[i].got);
    }
    qsort(all, NTHREAD * NDRAW, sizeof all[0], cmp64);
    for (int i = 1; i < NTHREAD * NDRAW; i++)
        dup += all[i] == all[i - 1];
    CHECK(bad == 0 && dup == 0 && all[0] == 7 && all[NTHREAD * NDRAW - 1] == 6 + NTHREAD * NDRAW,
          "threads: %d failed, %d duplicates, %lld..%lld", bad, dup, (long long)all[0],
          (long long)all[NTHREAD * NDRAW - 1]);
}

static void row_counts(void) {
    CHECK_RUN("create table e (id integer, dept integer)", 0);
    CHECK_RUN("insert into e values (1, 1)", 0);
    CHECK_RUN("insert into e values (2, 1)", 0);
    CHECK_RUN("insert into e values (3, 2)", 0);
    CHECK_RUN("create view v1 as select id, dept from e where dept = 1", 0);
    CHECK_RUN("update v1 set id = id + 10", 0);
    CHECK(ROWS == 2, "UPDATE through a view: %lld rows", (long long)ROWS);
    CHECK_RUN("insert into v1 values (4, 1)", 0);
    CHECK(ROWS == 1, "INSERT through a view: %lld rows", (long long)ROWS);
    CHECK_RUN("delete from v1 where id > 11", 0);
    CHECK(ROWS == 1, "DELETE through a view: %lld rows", (long long)ROWS);
    CHECK_RUN("create table n (id integer, dept integer)", 0);
    CHECK_RUN("insert into n values (11, 5)", 0);
    CHECK_RUN("insert into n values (20, 6)", 0);
    CHECK_RUN("merge into e using n on e.id = n.id when matched then update set dept = n.dept "
              "when not matched then insert values (n.id, n.dept)",
              0);
    CHECK(ROWS == 2, "MERGE: %lld rows (1 updated + 1 inserted)", (long long)ROWS);
    CHECK_Q("select id, dept from e order by id", "3|2\n4|1\n11|5\n20|6");
}

int main(void) {
    eu_setup("seq");
    CHECK_RUN("create database sq with log", 0);
    CHECK_RUN("create table t (a integer)", 0);
    CHECK_RUN("create sequence s", 0);
    two_sessions();
    row_counts();
    eu_teardown();
    return tap_done();
}
