/* test_engine_util.h: helpers shared by the test_engine_*.c unit tests: a
 * fresh data directory, statement runners and a text form of result rows. */
#ifndef TEST_ENGINE_UTIL_H
#define TEST_ENGINE_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "server/engine/ixd_engine.h"
#include "tap.h"
#include "types/ix_types.h"
#include "types/ix_value.h"

static ixd_engine *E;
static ixd_db *D;
static char DIR_[256];
static ixv_err ERR;
static int64_t ROWS;
static int32_t SERIAL;
static int64_t SERIAL8;
static char OUT[65536];

static void eu_setup(const char *tag) {
    snprintf(DIR_, sizeof DIR_, "/tmp/ixd_test_%s_%d", tag, (int)getpid());
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", DIR_);
    if (system(cmd)) {
    }
    if (ixd_engine_open(&E, DIR_, &ERR)) {
        printf("engine open failed %d\n", ERR.sqlcode);
        exit(1);
    }
}

static void eu_teardown(void) {
    ixd_db_close(D);
    D = NULL;
    ixd_engine_close(E);
    char cmd[400];
    snprintf(cmd, sizeof cmd, "rm -rf %s", DIR_);
    if (system(cmd)) {
    }
}

/* Runs one statement; returns its SQLCODE (0 = ok). */
static int run(const char *sql) {
    memset(&ERR, 0, sizeof ERR);
    ROWS = 0;
    SERIAL = 0;
    SERIAL8 = 0;
    int dbf = 0;
    int h = ixd_session_exec(E, "tester", sql, strlen(sql), &D, &dbf, &ERR);
    if (h == 1) return 0;
    if (h < 0) return ERR.sqlcode ? ERR.sqlcode : -201;
    ixd_stmt *s;
    if (ixd_prepare(D, sql, strlen(sql), &s, &ERR)) return ERR.sqlcode;
    int rc = ixd_execute(s, &ROWS, &SERIAL, &SERIAL8, &ERR);
    ixd_stmt_free(s);
    return rc ? ERR.sqlcode : 0;
}

static ixt_vtype col_vtype(const ixd_col *c) {
    ixt_vtype t;
    t.code = ixt_vtype_resolve(c->type & 0xff, c->xname);
    t.enclen = c->enclen;
    return t;
}

/* Appends the text of one tuple; returns bytes used or -1. */
static int fmt_row(ixd_stmt *s, const uint8_t *p, size_t n, char *out, size_t cap) {
    size_t off = 0, o = strlen(out);
    int nc = ixd_stmt_ncols(s);
    for (int i = 0; i < nc; i++) {
        ixd_col c;
        ixd_stmt_col(s, i, &c);
        ixt_vtype t = col_vtype(&c);
        size_t used;
        if (ixt_value_extent(t, p + off, n - off, 0, 0, &used) != IX_OK) return -1;
        ixb_wbuf b;
        ixb_wbuf_init(&b, NULL);
        int rc = ixt_value_format(t, p + off, used, NULL, &b);
        if (i && o + 1 < cap) out[o++] = '|';
        if (rc == IX_NULL_VALUE) {
            o += (size_t)snprintf(out + o, cap - o, "NULL");
        } else if (rc == IX_OK) {
            o += (size_t)snprintf(out + o, cap - o, "%.*s", (int)b.len, (const char *)b.data);
        } else {
            o += (size_t)snprintf(out + o, cap - o, "<bad %d>", rc);
        }
        ixb_wbuf_free(&b);
        off += used;
        if (o >= cap) return -1;
    }
    if (off != n) return -1;
    return 0;
}

/* Runs a query; returns the rows as "a|b\n..." in OUT, or "ERR <code>". */
static inline const char *q(const char *sql) {
    memset(&ERR, 0, sizeof ERR);
    OUT[0] = 0;
    ixd_stmt *s;
    if (ixd_prepare(D, sql, strlen(sql), &s, &ERR)) {
        snprintf(OUT, sizeof OUT, "ERR %d", ERR.sqlcode);
        return OUT;
    }
    if (ixd_open(s, 0, &ERR)) {
        snprintf(OUT, sizeof OUT, "ERR %d", ERR.sqlcode);
        ixd_stmt_free(s);
        return OUT;
    }
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    int first = 1;
    for (;;) {
        ixb_wbuf_reset(&b);
        int r = ixd_fetch(s, &b, &ERR);
        if (r < 0) {
            snprintf(OUT, sizeof OUT, "ERR %d", ERR.sqlcode);
            break;
        }
        if (r == 0) break;
        size_t o = strlen(OUT);
        if (!first && o + 1 < sizeof OUT) {
            OUT[o] = '\n';
            OUT[o + 1] = 0;
        }
        first = 0;
        if (fmt_row(s, b.data, b.len, OUT, sizeof OUT)) {
            snprintf(OUT, sizeof OUT, "BADROW");
            break;
        }
    }
    ixb_wbuf_free(&b);
    ixd_stmt_free(s);
    return OUT;
}

#define CHECK_Q(sql, want)                                                                         \
    do {                                                                                           \
        const char *got_ = q(sql);                                                                 \
        CHECK(strcmp(got_, want) == 0, "%s\n  got:  [%s]\n  want: [%s] (%d %s)", sql, got_, want,  \
              ERR.sqlcode, ERR.text);                                                              \
    } while (0)
#define CHECK_RUN(sql, code)                                                                       \
    do {                                                                                           \
        int rc_ = run(sql);                                                                        \
        CHECK(rc_ == (code), "%s -> %d (isam %d, text '%s'), want %d", sql, rc_, ERR.isamcode,     \
              ERR.text, code);                                                                     \
    } while (0)

#endif
