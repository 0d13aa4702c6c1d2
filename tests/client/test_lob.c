/*
 * Smart large objects through libixdb against a real ixd: BLOB and CLOB
 * values of 0 B, 1 B, 32 KiB and 2 MiB bound from memory, from a callback
 * and as plain bytes, read as a whole and as streams (seek, size, short
 * reads at the end, writes in place and appended), NULL against empty, a
 * handle fetched and read later in the same transaction, ROLLBACK removing
 * the LOs it made, committed LOs surviving kill -9, and FILETOBLOB /
 * LOTOFILE inside --lob-dir while a path outside it is refused.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "client/ix_client_int.h"
#include "client/ix_conn_int.h" /* white-box: the connection's fields */
#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

static const size_t sizes[] = {0, 1, 32768, 2u << 20};
#define NSIZES ((int)(sizeof sizes / sizeof sizes[0]))

static uint8_t *pattern(size_t n, int seed) {
    uint8_t *p = malloc(n + 1);
    for (size_t j = 0; j < n; j++)
        p[j] = (uint8_t)(j * 131 + (j >> 9) + seed);
    return p;
}

/* The callback source: the bytes of a pattern, in pieces of 1000. */
typedef struct src {
    const uint8_t *p;
    size_t n, at;
} src;

static long long from_src(void *ud, void *buf, size_t cap) {
    src *s = ud;
    size_t k = s->n - s->at < 1000 ? s->n - s->at : 1000;
    if (k > cap) k = cap;
    memcpy(buf, s->p + s->at, k);
    s->at += k;
    return (long long)k;
}

/* Bytes bound as plain bytes into a BLOB: a conservative connection sends
 * at most 32767 (values above need ixd's BYTE form). */
static size_t plain_n(void) {
    return ixd_test_strict() ? 30000 : sizes[2];
}

static int exec(ix_conn *c, const char *sql) {
    int rc = ix_exec(c, sql);
    CHECK(rc == IX_OK, "%s: %s", sql, ix_errmsg(c));
    return rc;
}

static void insert_values(ix_conn *c, uint8_t **data) {
    ix_stmt *ins;
    CHECK(ix_prepare(c, "INSERT INTO t VALUES (?, ?, ?)", (size_t)-1, &ins) == IX_OK, "prepare: %s",
          ix_errmsg(c));
    for (int k = 0; k < NSIZES; k++) {
        ix_bind_int(ins, 1, k);
        src s = {data[k], sizes[k], 0};
        CHECK(ix_bind_lob(ins, 2, IX_T_BLOB, data[k], sizes[k]) == IX_OK, "bind BLOB %zu: %s",
              sizes[k], ix_errmsg(c));
        CHECK(ix_bind_lob_stream(ins, 3, IX_T_CLOB, from_src, &s) == IX_OK, "bind CLOB %zu: %s",
              sizes[k], ix_errmsg(c));
        CHECK(ix_step(ins) == IX_DONE, "insert %zu: %s", sizes[k], ix_errmsg(c));
        ix_reset(ins);
    }
    /* NULL handles, and plain bytes that the server turns into a new LO */
    ix_bind_int(ins, 1, 90);
    CHECK(ix_bind_locator(ins, 2, IX_T_BLOB, NULL) == IX_OK, "bind NULL BLOB");
    CHECK(ix_bind_locator(ins, 3, IX_T_CLOB, NULL) == IX_OK, "bind NULL CLOB");
    CHECK(ix_step(ins) == IX_DONE, "insert NULLs: %s", ix_errmsg(c));
    ix_reset(ins);
    ix_bind_int(ins, 1, 91);
    ix_bind_blob(ins, 2, data[2], plain_n(), IX_STATIC);
    ix_bind_text(ins, 3, "plain text", (size_t)-1, IX_STATIC);
    CHECK(ix_step(ins) == IX_DONE, "insert bytes: %s", ix_errmsg(c));
    ix_finalize(ins);
}

static void check_whole(ix_conn *c, uint8_t **data) {
    ix_stmt *q;
    CHECK(ix_prepare(c, "SELECT id, b, c, length(b) FROM t ORDER BY id", (size_t)-1, &q) == IX_OK,
          "select: %s", ix_errmsg(c));
    int rows = 0;
    while (ix_step(q) == IX_ROW) {
        int id = ix_column_int(q, 0);
        void *v = NULL;
        size_t n = 9;
        rows++;
        if (id == 90) {
            CHECK(ix_column_lob(q, 1, &v, &n) == IX_NULL_VALUE && !v && n == 0, "NULL BLOB");
            CHECK(ix_column_lob_type(q, 1) == 0 && ix_column_is_null(q, 2), "NULL CLOB");
            continue;
        }
        if (id == 91) {
            CHECK(ix_column_lob(q, 1, &v, &n) == IX_OK && n == plain_n() && !memcmp(v, data[2], n),
                  "bytes bound into a BLOB: %s", ix_errmsg(c));
            ix_lob_free(v);
            CHECK(ix_column_lob(q, 2, &v, &n) == IX_OK && n == 10 && !strcmp(v, "plain text"),
                  "text bound into a CLOB");
            ix_lob_free(v);
            continue;
        }
        CHECK(ix_column_type(q, 1) == IX_T_UDTFIXED && ix_column_lob_type(q, 1) == IX_T_BLOB &&
                  ix_column_lob_type(q, 2) == IX_T_CLOB,
              "types of row %d", id);
        const char *d1 = ix_column_decltype(q, 1), *d2 = ix_column_decltype(q, 2);
        CHECK(d1 && d2 && !strcmp(d1, "BLOB") && !strcmp(d2, "CLOB"), "declared types %s, %s",
              d1 ? d1 : "NULL", d2 ? d2 : "NULL");
        CHECK(ix_column_int64(q, 3) == (int64_t)sizes[id], "length(b) %zu", sizes[id]);
        for (int col = 1; col <= 2; col++) {
            CHECK(ix_column_lob(q, col, &v, &n) == IX_OK && n == sizes[id] &&
                      (!n || !memcmp(v, data[id], n)) && ((char *)v)[n] == 0,
                  "%s of %zu bytes round trip (got %zu): %s", col == 1 ? "BLOB" : "CLOB", sizes[id],
                  n, ix_errmsg(c));
            ix_lob_free(v);
        }
    }
    CHECK(rows == NSIZES + 2, "rows (%d)", rows);
    ix_finalize(q);
}

/* Opens column 1 (b) of row id for flags. */
static ix_lob *open_row(ix_conn *c, int id, int flags) {
    char sql[80];
    snprintf(sql, sizeof sql, "SELECT b FROM t WHERE id = %d", id);
    ix_stmt *q;
    ix_lob *b = NULL;
    if (ix_prepare(c, sql, (size_t)-1, &q) != IX_OK) return NULL;
    if (ix_step(q) == IX_ROW) ix_lob_open_column(q, 0, flags, &b);
    ix_finalize(q);
    return b;
}

/* Against ixd --strict (a server that is not ixd): the calls that need
 * ifx_lo_size / ifx_lo_seek are refused before anything is sent. */
static void check_unsourced(ix_conn *c, ix_lob *b) {
    int64_t r0 = c->roundtrips, size = 0, pos = 0;
    CHECK(ix_lob_size(b, &size) == IX_ENOTSUP && ix_errcode(c) == IX_ENOTSUP,
          "size: IX_ENOTSUP (%s)", ix_errmsg(c));
    CHECK(ix_lob_seek(b, -100, IX_LO_SEEK_END, &pos) == IX_ENOTSUP,
          "seek from the end: IX_ENOTSUP");
    CHECK(c->roundtrips == r0 && !ix_conn_is_dead(c), "nothing was sent");
}

static void check_streams(ix_conn *c, uint8_t **data) {
    ix_lob *b = open_row(c, 3, IX_LO_RDONLY);
    CHECK(b != NULL, "open the 2 MiB BLOB: %s", ix_errmsg(c));
    if (!b) return;
    int64_t size = (int64_t)sizes[3], pos = 0;
    if (ixd_test_strict())
        check_unsourced(c, b);
    else
        CHECK(ix_lob_size(b, &size) == IX_OK && size == (int64_t)sizes[3], "size %lld",
              (long long)size);
    uint8_t buf[5000];
    size_t got = 0;
    CHECK(ix_lob_seek(b, 1000000, IX_LO_SEEK_SET, &pos) == IX_OK && pos == 1000000, "seek");
    CHECK(ix_lob_read(b, buf, sizeof buf, &got) == IX_OK && got == sizeof buf &&
              !memcmp(buf, data[3] + 1000000, got),
          "read after a seek");
    CHECK(ix_lob_seek(b, 10, IX_LO_SEEK_SET, &pos) == IX_OK &&
              ix_lob_read(b, buf, 20, &got) == IX_OK && got == 20 && !memcmp(buf, data[3] + 10, 20),
          "read after a seek back");
    if (ixd_test_strict())
        CHECK(ix_lob_seek(b, size - 100, IX_LO_SEEK_SET, &pos) == IX_OK, "seek near the end");
    else
        CHECK(ix_lob_seek(b, -100, IX_LO_SEEK_END, &pos) == IX_OK && pos == size - 100, "seek end");
    CHECK(ix_lob_read(b, buf, sizeof buf, &got) == IX_OK && got == 100 &&
              !memcmp(buf, data[3] + size - 100, 100),
          "short read at the end (%zu)", got);
    CHECK(ix_lob_read(b, buf, sizeof buf, &got) == IX_OK && got == 0, "read at the end");
    CHECK(ix_lob_write(b, "x", 1) == IX_ESQL && ix_sqlcode(c) == -9810,
          "a write on a read-only LO fails: %s", ix_errmsg(c));
    CHECK(ix_lob_close(b) == IX_OK, "close");

    /* writes in place, past the end (a zero-filled gap) and appended */
    b = open_row(c, 1, IX_LO_RDWR);
    CHECK(b != NULL, "open the 1-byte BLOB: %s", ix_errmsg(c));
    if (!b) return;
    CHECK(ix_lob_write(b, "AB", 2) == IX_OK, "write over and past: %s", ix_errmsg(c));
    if (ixd_test_strict()) { /* a write away from the server's position needs ifx_lo_seek */
        CHECK(ix_lob_seek(b, 5, IX_LO_SEEK_SET, NULL) == IX_OK &&
                  ix_lob_write(b, "Z", 1) == IX_ENOTSUP,
              "write after a gap: IX_ENOTSUP (%s)", ix_errmsg(c));
        CHECK(ix_lob_seek(b, 2, IX_LO_SEEK_SET, NULL) == IX_OK &&
                  ix_lob_write(b, "\0\0\0Z", 4) == IX_OK,
              "the gap written: %s", ix_errmsg(c));
    } else {
        CHECK(ix_lob_seek(b, 5, IX_LO_SEEK_SET, NULL) == IX_OK && ix_lob_write(b, "Z", 1) == IX_OK,
              "write after a gap: %s", ix_errmsg(c));
    }
    ix_lob_close(b);
    b = open_row(c, 1, IX_LO_APPEND | IX_LO_WRONLY);
    CHECK(b && ix_lob_write(b, "++", 2) == IX_OK, "append: %s", ix_errmsg(c));
    ix_lob_close(b);
    b = open_row(c, 1, IX_LO_RDONLY);
    got = 0;
    CHECK(b && ix_lob_read(b, buf, sizeof buf, &got) == IX_OK && got == 8 &&
              !memcmp(buf, "AB\0\0\0Z++", 8),
          "in place, gap, append (%zu bytes)", got);
    ix_lob_close(b);
}

/* A handle fetched and opened later in the same transaction; a ROLLBACK
 * takes the LOs it made. */
static void check_txn(ix_conn *c, uint8_t **data) {
    exec(c, "BEGIN WORK");
    ix_stmt *q;
    ix_locator loc;
    CHECK(ix_prepare(c, "SELECT c FROM t WHERE id = 2", (size_t)-1, &q) == IX_OK &&
              ix_step(q) == IX_ROW && ix_column_locator(q, 0, &loc) == IX_OK,
          "fetch a handle: %s", ix_errmsg(c));
    ix_finalize(q);
    ix_lob *b = NULL;
    uint8_t *buf = malloc(sizes[2]);
    size_t got = 0;
    CHECK(ix_lob_open(c, &loc, IX_LO_RDONLY, &b) == IX_OK &&
              ix_lob_read(b, buf, sizes[2], &got) == IX_OK && got == sizes[2] &&
              !memcmp(buf, data[2], got) && ix_lob_type(b) == IX_T_CLOB,
          "read it later: %s", ix_errmsg(c));
    ix_lob_close(b);
    free(buf);
    CHECK(ix_lob_create(c, IX_T_BLOB, &b) == IX_OK && ix_lob_write(b, "gone", 4) == IX_OK,
          "create in a transaction: %s", ix_errmsg(c));
    ix_locator made;
    ix_lob_locator(b, &made);
    ix_lob_close(b);
    ix_stmt *ins;
    CHECK(ix_prepare(c, "INSERT INTO t (id, b) VALUES (100, ?)", (size_t)-1, &ins) == IX_OK &&
              ix_bind_locator(ins, 1, IX_T_BLOB, &made) == IX_OK && ix_step(ins) == IX_DONE,
          "insert the handle: %s", ix_errmsg(c));
    ix_finalize(ins);
    exec(c, "ROLLBACK WORK");
    CHECK(ix_lob_open(c, &made, IX_LO_RDONLY, &b) == IX_ESQL && ix_sqlcode(c) == -9810 && !b,
          "the rolled-back LO is gone: %s", ix_errmsg(c));
}

static void write_file(const char *path, const uint8_t *p, size_t n) {
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(p, 1, n, f);
        fclose(f);
    }
}

static void check_files(ix_conn *c, const char *lobdir, uint8_t **data) {
    char path[400], sql[600];
    snprintf(path, sizeof path, "%s/in.bin", lobdir);
    write_file(path, data[3], sizes[3]);
    exec(c, "INSERT INTO t (id, b) VALUES (200, FILETOBLOB('in.bin', 'server'))");
    snprintf(sql, sizeof sql, "SELECT LOTOFILE(b, '%s/out.bin!', 'server') FROM t WHERE id = 200",
             lobdir);
    ix_stmt *q;
    CHECK(ix_prepare(c, sql, (size_t)-1, &q) == IX_OK && ix_step(q) == IX_ROW, "LOTOFILE: %s",
          ix_errmsg(c));
    snprintf(path, sizeof path, "%s/out.bin", lobdir);
    const char *name = ix_column_text(q, 0);
    CHECK(name && !strcmp(name, path), "LOTOFILE names the file (%s)", name ? name : "NULL");
    ix_finalize(q);
    FILE *f = fopen(path, "rb");
    uint8_t *back = malloc(sizes[3] + 1);
    size_t n = f ? fread(back, 1, sizes[3] + 1, f) : 0;
    if (f) fclose(f);
    CHECK(n == sizes[3] && !memcmp(back, data[3], n), "file round trip (%zu bytes)", n);
    free(back);
    int rc = ix_exec(c, "INSERT INTO t (id, b) VALUES (201, FILETOBLOB('/etc/passwd', 'server'))");
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -9810 &&
              strstr(ix_errmsg(c), "'/etc/passwd' is outside the LOB directory"),
          "a path outside --lob-dir is refused: %s", ix_errmsg(c));
    rc = ix_exec(c, "INSERT INTO t (id, b) VALUES (201, FILETOBLOB('../x', 'server'))");
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -9810, "'..' out of --lob-dir: %s", ix_errmsg(c));
}

/* Committed LOs survive kill -9; one being written in a transaction when
 * the server dies is gone after the restart. */
static ix_conn *check_kill(ixd_proc *p, ix_conn *c, const char *const *args, uint8_t **data) {
    exec(c, "BEGIN WORK");
    ix_lob *b = NULL;
    ix_locator loc;
    CHECK(ix_lob_create(c, IX_T_BLOB, &b) == IX_OK && ix_lob_write(b, data[3], sizes[3]) == IX_OK,
          "a write in a transaction: %s", ix_errmsg(c));
    ix_lob_locator(b, &loc);
    ix_stmt *ins;
    CHECK(ix_prepare(c, "INSERT INTO t (id, b) VALUES (300, ?)", (size_t)-1, &ins) == IX_OK &&
              ix_bind_locator(ins, 1, IX_T_BLOB, &loc) == IX_OK && ix_step(ins) == IX_DONE,
          "insert it: %s", ix_errmsg(c));
    ix_finalize(ins);
    ixd_stop(p, SIGKILL); /* mid-transaction, the LO open */
    CHECK(ix_lob_close(b) != IX_OK, "closing on a dead server fails (and frees)");
    ix_close(c);
    CHECK(ixd_start_args(p, p->dir, args) == 0, "ixd restarts");
    char dsn[300];
    ixd_dsn(p, 30, dsn, sizeof dsn);
    strncat(dsn, " database=lobs", sizeof dsn - strlen(dsn) - 1);
    CHECK(ix_connect(&c, dsn) == IX_OK, "reconnect: %s", ix_errmsg(c));
    ix_stmt *q;
    void *v = NULL;
    size_t n = 0;
    CHECK(ix_prepare(c, "SELECT b FROM t WHERE id = 3", (size_t)-1, &q) == IX_OK &&
              ix_step(q) == IX_ROW && ix_column_lob(q, 0, &v, &n) == IX_OK && n == sizes[3] &&
              !memcmp(v, data[3], n),
          "the 2 MiB BLOB after kill -9: %s", ix_errmsg(c));
    ix_lob_free(v);
    ix_finalize(q);
    int64_t n300 = -1;
    CHECK(ix_prepare(c, "SELECT count(*) FROM t WHERE id = 300", (size_t)-1, &q) == IX_OK &&
              ix_step(q) == IX_ROW && ix_column_get_int64(q, 0, &n300) == IX_OK && n300 == 0,
          "the uncommitted row is gone (%lld)", (long long)n300);
    ix_finalize(q);
    b = NULL;
    CHECK(ix_lob_open(c, &loc, IX_LO_RDONLY, &b) == IX_ESQL && ix_sqlcode(c) == -9810,
          "the LO being written is gone: %s", ix_errmsg(c));
    return c;
}

/* ---- a conservative connection: a real server's forms --------------------------------- */

static const size_t csizes[] = {0, 1, 32000, 32001, 100000};
#define NCSIZES ((int)(sizeof csizes / sizeof csizes[0]))

/* Counts the SQ_GETROUTINE requests for ifx_lo_create in the trace. */
static void count_lookups(void *ud, const char *line) {
    if (!strncmp(line, "C->S", 4) && strstr(line, "SQ_GETROUTINE") && strstr(line, "ifx_lo_create"))
        ++*(int *)ud;
}

/* Reads row id's column col through a stream opened on the column: the
 * whole value in pieces of 7000 bytes, then a read at the end. */
static void read_stream(ix_stmt *q, int col, const uint8_t *want, size_t n) {
    ix_lob *b = NULL;
    ix_conn *c = ix_stmt_conn(q);
    CHECK(ix_lob_open_column(q, col, IX_LO_RDONLY, &b) == IX_OK, "open column %d: %s", col,
          ix_errmsg(c));
    if (!b) return;
    uint8_t *buf = malloc(n + 7000);
    size_t at = 0, got = 1;
    while (got && ix_lob_read(b, buf + at, 7000, &got) == IX_OK)
        at += got;
    CHECK(at == n && (!n || !memcmp(buf, want, n)), "stream of %zu bytes (got %zu): %s", n, at,
          ix_errmsg(c));
    CHECK(ix_lob_close(b) == IX_OK, "close: %s", ix_errmsg(c));
    free(buf);
}

/* Inserts a BLOB and a CLOB of every size in csizes, each made by
 * ix_bind_lob (a create, writes and a close over a real server's forms). */
static void insert_conservative(ix_conn *c, uint8_t **data) {
    ix_stmt *ins;
    CHECK(ix_prepare(c, "INSERT INTO tc VALUES (?, ?, ?)", (size_t)-1, &ins) == IX_OK,
          "prepare: %s", ix_errmsg(c));
    for (int k = 0; k < NCSIZES; k++) {
        ix_bind_int(ins, 1, k);
        CHECK(ix_bind_lob(ins, 2, IX_T_BLOB, data[k], csizes[k]) == IX_OK &&
                  ix_bind_lob(ins, 3, IX_T_CLOB, data[k], csizes[k]) == IX_OK,
              "bind %zu bytes: %s", csizes[k], ix_errmsg(c));
        CHECK(ix_step(ins) == IX_DONE, "insert %zu: %s", csizes[k], ix_errmsg(c));
        ix_reset(ins);
    }
    ix_finalize(ins);
}

/* Reads every row back, whole (ix_column_lob) and as streams. */
static void select_conservative(ix_conn *c, uint8_t **data) {
    ix_stmt *q;
    CHECK(ix_prepare(c, "SELECT id, b, c FROM tc ORDER BY id", (size_t)-1, &q) == IX_OK,
          "select: %s", ix_errmsg(c));
    int rows = 0;
    while (ix_step(q) == IX_ROW) {
        int id = ix_column_int(q, 0);
        size_t want = csizes[id];
        rows++;
        for (int col = 1; col <= 2; col++) {
            void *v = NULL;
            size_t n = 0;
            CHECK(ix_column_lob(q, col, &v, &n) == IX_OK && n == want &&
                      (!n || !memcmp(v, data[id], n)),
                  "column %d of %zu bytes whole (got %zu): %s", col, want, n, ix_errmsg(c));
            ix_lob_free(v);
            read_stream(q, col, data[id], want);
        }
    }
    CHECK(rows == NCSIZES, "rows (%d)", rows);
    ix_finalize(q);
}

/* compat=conservative against plain ixd: LOBs over the forms a real server
 * takes (fast-path create and close, the literal SQL open, reads relative
 * to the server's position), the size-less calls refused, and one
 * SQ_GETROUTINE per signature until the database changes. */
static void check_conservative(ixd_proc *p) {
    char dsn[400];
    ixd_dsn(p, 30, dsn, sizeof dsn);
    strncat(dsn, " database=lobs compat=conservative", sizeof dsn - strlen(dsn) - 1);
    ix_conn *c;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect conservative: %s", ix_errmsg(c));
    int lookups = 0;
    ix_set_trace(c, count_lookups, &lookups);
    exec(c, "CREATE TABLE tc (id INTEGER, b BLOB, c CLOB)");
    uint8_t *data[NCSIZES];
    for (int k = 0; k < NCSIZES; k++)
        data[k] = pattern(csizes[k], 40 + k);
    insert_conservative(c, data);
    CHECK(lookups == 2, "one look-up for each create signature (%d)", lookups);
    select_conservative(c, data);
    ix_lob *b = NULL;
    CHECK(ix_lob_create(c, IX_T_BLOB, &b) == IX_OK, "create: %s", ix_errmsg(c));
    if (b) check_unsourced(c, b);
    ix_lob_close(b);
    CHECK(lookups == 2, "the kept handle serves later creates (%d)", lookups);
    exec(c, "DATABASE lobs");
    CHECK(ix_lob_create(c, IX_T_BLOB, &b) == IX_OK && ix_lob_close(b) == IX_OK,
          "create after DATABASE: %s", ix_errmsg(c));
    CHECK(lookups == 3, "a new database looks the routine up again (%d)", lookups);
    CHECK(!ix_conn_is_dead(c), "connection still aligned");
    ix_close(c);
    for (int k = 0; k < NCSIZES; k++)
        free(data[k]);
}

/* A connection that made LOs it never stored ends with ix_close; at once
 * another session writes in a transaction (lock mode NOT WAIT): ixd has
 * released the closed session's LOs before it answered the SQ_EXIT, so no
 * lock of that session is left (-107 otherwise). */
static void check_close_releases(ixd_proc *p, ix_conn *c) {
    char dsn[400];
    ixd_dsn(p, 30, dsn, sizeof dsn);
    strncat(dsn, " database=lobs", sizeof dsn - strlen(dsn) - 1);
    static uint8_t big[64 * 1024];
    int bad = 0;
    for (int k = 0; k < 20 && !bad; k++) {
        ix_conn *a = NULL;
        int rc = ix_connect(&a, dsn);
        for (int j = 0; j < 3 && rc == IX_OK; j++) {
            ix_lob *b = NULL;
            rc = ix_lob_create(a, IX_T_BLOB, &b);
            for (int w = 0; w < 8 && rc == IX_OK; w++)
                rc = ix_lob_write(b, big, sizeof big);
            if (b) ix_lob_close(b);
        }
        CHECK(rc == IX_OK, "LOs made and left: %s", ix_errmsg(a));
        ix_close(a);
        rc = ix_exec(c, "BEGIN WORK");
        if (rc == IX_OK) rc = ix_exec(c, "INSERT INTO t (id) VALUES (200)");
        if (rc == IX_OK) rc = ix_exec(c, "COMMIT WORK");
        if (rc != IX_OK) {
            bad = 1;
            CHECK(0, "a write right after another session's ix_close (round %d): %s", k,
                  ix_errmsg(c));
            ix_exec(c, "ROLLBACK WORK");
        }
    }
    CHECK(!bad, "20 writes right after a close that left LOs");
    exec(c, "DELETE FROM t WHERE id = 200");
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    char lobdir[] = "/tmp/ixdlob.XXXXXX";
    CHECK(mkdtemp(lobdir) != NULL, "lob dir");
    const char *args[] = {"--lob-dir", lobdir, NULL};
    ixd_proc p;
    CHECK(ixd_start_args(&p, NULL, args) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    char dsn[300];
    ixd_dsn(&p, 30, dsn, sizeof dsn);
    ix_conn *c;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect: %s", ix_errmsg(c));
    exec(c, "CREATE DATABASE lobs WITH LOG");
    exec(c, "CREATE TABLE t (id INTEGER, b BLOB, c CLOB)");
    uint8_t *data[NSIZES];
    for (int k = 0; k < NSIZES; k++)
        data[k] = pattern(sizes[k], k);
    insert_values(c, data);
    check_whole(c, data);
    check_streams(c, data);
    check_txn(c, data);
    check_files(c, lobdir, data);
    c = check_kill(&p, c, args, data);
    check_close_releases(&p, c);
    check_conservative(&p);
    CHECK(!ix_conn_is_dead(c), "connection still aligned");
    ix_close(c);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
    char cmd[100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", lobdir);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", lobdir);
    for (int k = 0; k < NSIZES; k++)
        free(data[k]);
    return tap_done();
}
