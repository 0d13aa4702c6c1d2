/*
 * poll_many.c: 100 queries on 10 connections from one thread, with poll().
 *
 *   poll_many DSN     (a keyword DSN without database: "host=... port=...
 *                      user=... password=...")
 *
 * The program creates database poll_many (if missing) with a table of the
 * numbers 1..110, then opens 10 connections to it. Every connection is opened with ix_connect_start
 * / ix_connect_poll and then runs 10 queries, one after the other, each sent with ix_send_prepare
 * + ix_send_execute and read with ix_step; the single poll() loop waits on
 * all ten sockets at once. Query k asks the server for the sum 1 + ... + k
 * over a generated table of its own ("select sum(n) from ... where n <= k"),
 * and every answer is checked. Prints "100 queries, 0 wrong" and exits 0
 * when all answers are right.
 */
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>

#include "ixdb.h"

#define NCONN    10
#define NQUERIES 10 /* per connection */

typedef struct job {
    ix_conn *c;
    ix_stmt *s;
    int state; /* 0 connecting, 1 query running, 2 finished */
    int done;  /* queries answered */
    int want;  /* IX_WANT_READ / IX_WANT_WRITE: what to poll for */
} job;

static int wrong, failed;

/* Sends the next query of job j (connection id): the sum and count of the
 * numbers up to id x 10 + k. */
static int start_query(job *j, int id) {
    int k = j->done + 1;
    char sql[200];
    snprintf(sql, sizeof sql, "select sum(n), count(*) from nums where n <= %d", id * 10 + k);
    int rc = ix_send_prepare(j->c, sql, IX_NTS, 0, &j->s);
    if (rc == IX_OK) rc = ix_send_execute(j->s);
    return rc;
}

/* Advances job j after its socket was ready (or at the start). Returns 0
 * to go on, -1 when it failed. */
static int step(job *j, int id) {
    int rc;
    if (j->state == 0) {
        rc = ix_connect_poll(j->c);
        if (rc == IX_WANT_READ || rc == IX_WANT_WRITE) return j->want = rc, 0;
        if (rc != IX_OK) return -1;
        j->state = 1;
        if (start_query(j, id) != IX_OK) return -1;
    }
    while (j->state == 1) {
        if ((rc = ix_consume_input(j->c)) != IX_OK) return -1;
        rc = ix_step(j->s);
        if (rc == IX_WANT_READ || rc == IX_WANT_WRITE) return j->want = rc, 0;
        if (rc != IX_ROW) return -1;
        long long n = id * 10 + j->done + 1;
        if (ix_column_int64(j->s, 0) != n * (n + 1) / 2 || ix_column_int64(j->s, 1) != n) wrong++;
        ix_finalize(j->s);
        j->s = NULL;
        if (++j->done == NQUERIES) {
            j->state = 2;
            break;
        }
        if (start_query(j, id) != IX_OK) return -1;
    }
    return 0;
}

static int setup(const char *dsn) {
    ix_conn *c = NULL;
    int rc = ix_connect(&c, dsn);
    if (rc == IX_OK && ix_exec(c, "create database poll_many with log") != IX_OK)
        rc = ix_exec(c, "database poll_many"); /* it exists */
    if (rc == IX_OK) ix_exec(c, "drop table nums");
    if (rc == IX_OK) rc = ix_exec(c, "create table nums (n integer)");
    ix_stmt *s = NULL;
    if (rc == IX_OK) rc = ix_prepare(c, "insert into nums values (?)", IX_NTS, &s);
    for (int n = 1; rc == IX_OK && n <= NCONN * 10 + NQUERIES; n++) {
        rc = ix_bind_int(s, 1, n);
        if (rc == IX_OK) rc = ix_step(s) == IX_DONE ? ix_reset(s) : -1;
    }
    if (rc != IX_OK) fprintf(stderr, "setup: %s\n", ix_errmsg(c));
    ix_finalize(s);
    ix_close(c);
    return rc;
}

int main(int argc, char **argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: poll_many DSN\n");
        return 2;
    }
    if (setup(argv[1]) != IX_OK) return 1;
    char dsn[1024];
    snprintf(dsn, sizeof dsn, "%s database=poll_many", argv[1]);
    job jobs[NCONN] = {0};
    for (int i = 0; i < NCONN; i++) {
        if (ix_connect_start(dsn, &jobs[i].c) != IX_OK || step(&jobs[i], i) != 0) {
            fprintf(stderr, "connection %d: %s\n", i, ix_errmsg(jobs[i].c));
            failed++;
            jobs[i].state = 2;
        }
    }
    for (;;) {
        struct pollfd pf[NCONN];
        int map[NCONN], n = 0;
        for (int i = 0; i < NCONN; i++) {
            if (jobs[i].state == 2) continue;
            short ev = jobs[i].want == IX_WANT_WRITE ? POLLIN | POLLOUT : POLLIN;
            pf[n] = (struct pollfd){ix_socket(jobs[i].c), ev, 0};
            map[n++] = i;
        }
        if (n == 0) break;
        if (poll(pf, (nfds_t)n, 10000) <= 0) {
            fprintf(stderr, "no progress in 10 s\n");
            return 1;
        }
        for (int k = 0; k < n; k++) {
            if (!pf[k].revents) continue;
            job *j = &jobs[map[k]];
            if (step(j, map[k]) != 0) {
                fprintf(stderr, "connection %d: %s\n", map[k], ix_errmsg(j->c));
                failed++;
                j->state = 2;
            }
        }
    }
    int answered = 0;
    for (int i = 0; i < NCONN; i++) {
        answered += jobs[i].done;
        ix_finalize(jobs[i].s);
        ix_close(jobs[i].c);
    }
    printf("%d queries, %d wrong\n", answered, wrong);
    return answered == NCONN * NQUERIES && wrong == 0 && failed == 0 ? 0 : 1;
}
