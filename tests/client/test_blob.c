/*
 * BYTE and TEXT through libixdb: values of 0, 1, 300, 1023, 1024, 1025,
 * 32767, 32768, 100000 and 200000 bytes and NULLs bound with ix_bind_blob /
 * ix_bind_text into BYTE and TEXT columns by a prepared INSERT, by
 * ix_batch_execute and by ix_batch_execute_arrays, then fetched with
 * ix_column_blob (one SQ_FETCHBLOB round trip each, also with read-ahead
 * on) and compared byte for byte.
 *
 * Against ixd the values go inline in the BIND (VARCHAR up to 32767 bytes,
 * ixdb's BYTE/TEXT form beyond); against ixd --strict (IXDB_TEST_STRICT=1,
 * a conservative connection) every value for a BYTE/TEXT column goes as a
 * real server takes it, a descriptor then SQ_BBIND and SQ_BLOB chunks, which
 * the trace shows (strict ixd refuses the inline BYTE/TEXT form).
 */
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#define NSIZES    10
#define BATCH_ID  100 /* ids of the rows ix_batch_execute inserts */
#define ARRAY_ID  200 /* ids of the rows ix_batch_execute_arrays inserts */
#define NULL_ID   99
#define ARRAY_BIG 40000 /* a TEXT value through the arrays' general path */

static const size_t SIZES[NSIZES] = {0, 1, 300, 1023, 1024, 1025, 32767, 32768, 100000, 200000};
static uint8_t *BYTES[NSIZES];
static char *TEXTS[NSIZES];

/* Counts the trace lines that name SQ_BBIND and BYTE/TEXT descriptors. */
typedef struct wire_count {
    int bbind, desc;
} wire_count;

static void on_trace(void *ud, const char *line) {
    wire_count *w = ud;
    if (strncmp(line, "C->S ", 5) != 0) return;
    if (strstr(line, "SQ_BBIND")) w->bbind++;
    for (const char *p = line; (p = strstr(p, "<descriptor: ")) != NULL; p++)
        w->desc++;
}

/* Values: bytes i * 31 + k, text letters from 'a' + k (NUL-terminated). */
static void make_values(void) {
    for (int k = 0; k < NSIZES; k++) {
        BYTES[k] = malloc(SIZES[k] + 1);
        TEXTS[k] = malloc(SIZES[k] + 1);
        for (size_t j = 0; j < SIZES[k]; j++) {
            BYTES[k][j] = (uint8_t)(j * 31 + (size_t)k);
            TEXTS[k][j] = (char)('a' + (j + (size_t)k) % 26);
        }
        TEXTS[k][SIZES[k]] = 0;
    }
}

/* Binds row k's values (k < 0: NULLs) after id. */
static int bind_row(ix_stmt *s, int id, int k) {
    int rc = ix_bind_int(s, 1, id);
    if (rc == IX_OK)
        rc = k < 0 ? ix_bind_null(s, 2) : ix_bind_blob(s, 2, BYTES[k], SIZES[k], IX_STATIC);
    if (rc == IX_OK)
        rc = k < 0 ? ix_bind_null(s, 3) : ix_bind_text(s, 3, TEXTS[k], SIZES[k], IX_STATIC);
    return rc;
}

static int batch_row(ix_stmt *s, int64_t row, void *ud) {
    (void)ud;
    return bind_row(s, BATCH_ID + (int)row, (int)row);
}

/* The prepared INSERT, row by row, and the NULL row. */
static void insert_rows(ix_conn *c) {
    ix_stmt *ins;
    CHECK(ix_prepare(c, "INSERT INTO b VALUES (?, ?, ?)", -1, &ins) == IX_OK, "prepare: %s",
          ix_errmsg(c));
    for (int k = 0; k < NSIZES; k++) {
        CHECK(bind_row(ins, k, k) == IX_OK, "bind %zu bytes: %s", SIZES[k], ix_errmsg(c));
        CHECK(ix_step(ins) == IX_DONE, "insert %zu bytes: %s", SIZES[k], ix_errmsg(c));
        ix_reset(ins);
    }
    bind_row(ins, NULL_ID, -1);
    CHECK(ix_step(ins) == IX_DONE, "insert NULLs: %s", ix_errmsg(c));
    int codes[NSIZES];
    int64_t failed = -1;
    CHECK(ix_batch_execute(ins, NSIZES, batch_row, NULL, codes, &failed) == IX_OK && failed == 0,
          "ix_batch_execute of every size: %s", ix_errmsg(c));
    ix_finalize(ins);
}

/* TEXT through ix_batch_execute_arrays: short, NULL and long values. */
static void insert_arrays(ix_conn *c) {
    static char big[ARRAY_BIG + 1];
    memset(big, 'q', ARRAY_BIG);
    int32_t ids[4] = {ARRAY_ID, ARRAY_ID + 1, ARRAY_ID + 2, ARRAY_ID + 3};
    const char *texts[4] = {"", "arrays", NULL, big};
    unsigned char nulls[4] = {0, 0, 1, 0};
    ix_array cols[2] = {{IX_ARRAY_INT32, ids, NULL}, {IX_ARRAY_TEXT, texts, nulls}};
    ix_stmt *ins;
    CHECK(ix_prepare(c, "INSERT INTO a VALUES (?, ?)", -1, &ins) == IX_OK, "prepare arrays");
    int64_t failed = -1;
    CHECK(ix_batch_execute_arrays(ins, 4, cols, 2, NULL, &failed) == IX_OK && failed == 0,
          "ix_batch_execute_arrays into TEXT: %s", ix_errmsg(c));
    ix_finalize(ins);
    ix_stmt *q;
    ix_prepare(c, "SELECT id, tt FROM a ORDER BY id", -1, &q);
    int rows = 0;
    while (ix_step(q) == IX_ROW) {
        int k = ix_column_int(q, 0) - ARRAY_ID;
        size_t len = 0;
        const uint8_t *v = ix_column_blob(q, 1, &len);
        if (k >= 0 && k < 4 && !texts[k])
            CHECK(ix_column_is_null(q, 1), "arrays row %d NULL", k);
        else if (k >= 0 && k < 4)
            CHECK(v && len == strlen(texts[k]) && memcmp(v, texts[k], len) == 0,
                  "arrays row %d: %zu bytes back", k, len);
        rows++;
    }
    CHECK(rows == 4, "four array rows (%d)", rows);
    ix_finalize(q);
}

/* Compares one fetched row with what was bound. */
static void check_row(ix_conn *c, ix_stmt *q, int ra) {
    int id = ix_column_int(q, 0);
    CHECK(ix_column_type(q, 1) == 11 && ix_column_type(q, 2) == 12, "types BYTE, TEXT");
    if (id == NULL_ID) {
        CHECK(ix_column_is_null(q, 1) && ix_column_is_null(q, 2), "NULL BYTE/TEXT");
        CHECK(ix_column_blob(q, 1, NULL) == NULL, "NULL blob gives NULL");
        return;
    }
    int k = id >= BATCH_ID ? id - BATCH_ID : id;
    size_t len = 0;
    const uint8_t *v = ix_column_blob(q, 1, &len);
    CHECK(v && len == SIZES[k] && memcmp(v, BYTES[k], len) == 0,
          "row %d: BYTE of %zu bytes byte for byte (got %zu, readahead %d): %s", id, SIZES[k], len,
          ra, ix_errmsg(c));
    v = ix_column_blob(q, 2, &len);
    CHECK(v && len == SIZES[k] && memcmp(v, TEXTS[k], len) == 0,
          "row %d: TEXT of %zu bytes byte for byte (got %zu)", id, SIZES[k], len);
}

static void read_back(ix_conn *c) {
    for (int ra = 0; ra <= 2; ra += 2) {
        ix_stmt *q;
        CHECK(ix_prepare(c, "SELECT id, bb, tt FROM b ORDER BY id", -1, &q) == IX_OK, "select");
        ix_stmt_set_readahead(q, ra);
        ix_stmt_set_fetch_buffer(q, 200); /* several batches */
        int rows = 0;
        while (ix_step(q) == IX_ROW) {
            check_row(c, q, ra);
            rows++;
        }
        CHECK(rows == 2 * NSIZES + 1, "all rows (%d)", rows);
        ix_finalize(q);
    }
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, NULL) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    make_values();
    char dsn[200];
    snprintf(dsn, sizeof dsn, "informix://informix:in4mix@127.0.0.1:%d/sysmaster", p.port);
    ix_conn *c;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "CREATE DATABASE blobs WITH LOG") == IX_OK, "create db: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "CREATE TABLE b (id INTEGER, bb BYTE, tt TEXT)") == IX_OK, "create: %s",
          ix_errmsg(c));
    CHECK(ix_exec(c, "CREATE TABLE a (id INTEGER, tt TEXT)") == IX_OK, "create a: %s",
          ix_errmsg(c));
    wire_count w = {0, 0};
    ix_set_trace(c, on_trace, &w);
    insert_rows(c);
    int strict = ixd_test_strict();
    /* conservative: one SQ_BBIND per row with a value (2 x NSIZES), two
     * descriptors each; ixd: none */
    CHECK(strict ? w.bbind == 2 * NSIZES && w.desc == 4 * NSIZES : w.bbind == 0 && w.desc == 0,
          "%s: %d SQ_BBIND, %d descriptors sent", strict ? "real form" : "inline form", w.bbind,
          w.desc);
    insert_arrays(c);
    ix_set_trace(c, NULL, NULL);
    read_back(c);
    CHECK(!ix_conn_is_dead(c), "connection still aligned");
    ix_close(c);
    for (int k = 0; k < NSIZES; k++) {
        free(BYTES[k]);
        free(TEXTS[k]);
    }
    ixd_stop(&p, SIGTERM);
    if (!tap_fail) ixd_rmdir(&p);
    return tap_done();
}
