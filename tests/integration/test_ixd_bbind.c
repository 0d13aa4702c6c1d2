/*
 * Integration tests: BYTE/TEXT values in the form a real server takes
 * (src/proto/ix_blob.h): descriptors in SQ_BIND, SQ_BBIND, SQ_BLOB chunks
 * with a zero-length end, then EXECUTE; read back through SQ_FETCHBLOB.
 * Against normal ixd and ixd --strict: sizes 0, 1, 1023, 1024, 1025 and
 * 100000, NULLs as NULL items and as flagged descriptors, two values in one
 * statement, and a cursor OPEN with a descriptor. Refusals: a count that
 * differs (-254), SQ_BLOB without SQ_BBIND and values over the limit (-605),
 * EXECUTE before the data (-609), a chunk over 32767 bytes (framing: the
 * session ends); the session goes on after each SQ_ERR. The inline form
 * (i32 length) still works on normal ixd; strict ixd refuses it (-609).
 */
#include "harness.h"
#include "proto/ix_blob.h"
#include "tap.h"

static const char *U = "informix", *P = "in4mix";

enum {
    E_HOST_VARS = -254,    /* too many or too few host variables given */
    E_BLOB_WRITE = -605,   /* cannot write blob */
    E_BLOB_HOSTVAR = -609, /* illegal attempt to use a Text/Byte host variable */
    NSIZES = 6,
    LIMIT = 4096, /* --max-message in test_limit */
};

static const size_t SIZES[NSIZES] = {0, 1, 1023, 1024, 1025, 100000};

static void ok(tconn *c, const char *sql) {
    treply r = {0};
    tconn_command(c, sql, &r);
    CHECK(r.sqlcode == 0, "%s (%d %s)", sql, r.sqlcode, r.errtext);
    ixb_wbuf_free(&r.tuples);
}

/* A value's bytes: i * 13 + seed. The caller frees it. */
static uint8_t *pattern(size_t n, int seed) {
    uint8_t *p = malloc(n + 1);
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)(i * 13 + (size_t)seed);
    return p;
}

/* Appends ID, BIND (INTEGER id, then a descriptor per value; NULL for a
 * NULL pointer) and, when `stream`, SQ_BBIND and the values' chunks. */
static void put_insert(tconn *c, int stmt, int id, const uint8_t *const *v, const size_t *n, int nv,
                       int stream) {
    uint8_t idb[4], desc[4][IXP_BLOBDESC_LEN];
    ixb_st32(idb, (uint32_t)id);
    ixp_bindval bv[5] = {{.type = IX_T_INTEGER, .value = {idb, 4}}};
    int count = 0;
    for (int k = 0; k < nv; k++) {
        int type = k % 2 ? IX_T_TEXT : IX_T_BYTE;
        if (!v[k]) {
            bv[k + 1] = (ixp_bindval){.type = (int16_t)type, .indicator = IXP_IND_NULL};
            continue;
        }
        ixp_blobdesc_put(desc[k], (uint32_t)n[k]);
        bv[k + 1] = (ixp_bindval){
            .type = (int16_t)type, .slot = IXP_BLOBDESC_LEN, .value = {desc[k], IXP_BLOBDESC_LEN}};
        count++;
    }
    ixp_enc_id(&c->out, stmt);
    ixp_enc_bind(&c->out, bv, nv + 1);
    if (!stream) return;
    ixp_enc_bbind(&c->out, count);
    for (int k = 0; k < nv; k++)
        if (v[k]) ixp_enc_blob_stream(&c->out, v[k], n[k]);
}

/* Sends what is queued with EXECUTE and EOT; the reply in *r. */
static void execute(tconn *c, treply *r) {
    ixp_enc_tag(&c->out, IXP_SQ_EXECUTE);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    tconn_flush(c);
    tconn_reply(c, r);
}

/* Reads the value a descriptor names (FETCHBLOB on the open cursor id). */
static void fetchblob(tconn *c, int id, const uint8_t *desc, ixb_wbuf *got) {
    ixp_enc_id(&c->out, id);
    ixp_enc_fetchblob(&c->out, desc, IXP_BLOBDESC_LEN);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    tconn_flush(c);
    ixp_msg m;
    while (tconn_next(c, &m) == IX_OK && m.tag != IXP_SQ_EOT)
        if (m.tag == IXP_SQ_BLOB) ixb_put_bytes(got, m.u.blob.p, m.u.blob.n);
}

/* Checks row `id` of table bb (BYTE b, TEXT t) against want (NULL: a NULL). */
static void check_row(tconn *c, int id, const uint8_t *wb, size_t nb, const uint8_t *wt, size_t nt,
                      const char *what) {
    char sql[96];
    snprintf(sql, sizeof sql, "SELECT b, t FROM bb WHERE id = %d", id);
    treply r = {0};
    int st = tconn_prepare(c, sql, 0, &r);
    ixp_enc_id(&c->out, st);
    ixp_enc_curname(&c->out, "cbb", 3);
    ixp_enc_tag(&c->out, IXP_SQ_OPEN);
    ixp_enc_id(&c->out, st);
    ixp_enc_nfetch(&c->out, &c->caps, 4096);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    tconn_flush(c);
    tconn_reply(c, &r);
    CHECK(r.ntuples == 1 && r.tuples.len == 4 + 112, "%s: one row", what);
    const uint8_t *want[2] = {wb, wt};
    size_t wn[2] = {nb, nt};
    for (int k = 0; k < 2 && r.ntuples == 1; k++) {
        const uint8_t *d = r.tuples.data + 4 + k * IXP_BLOBDESC_LEN;
        int is_null = ixt_value_is_null((ixt_vtype){IX_T_BYTE, 56}, d, 56);
        if (!want[k]) {
            CHECK(is_null == 1, "%s: column %d NULL", what, k);
            continue;
        }
        ixb_wbuf got;
        ixb_wbuf_init(&got, NULL);
        fetchblob(c, st, d, &got);
        CHECK(is_null == 0 && got.len == wn[k] &&
                  (wn[k] == 0 || memcmp(got.data, want[k], wn[k]) == 0),
              "%s: column %d, %zu bytes back byte for byte (%zu)", what, k, wn[k], got.len);
        ixb_wbuf_free(&got);
    }
    tconn_on_id(c, st, IXP_SQ_CLOSE, &r);
    tconn_on_id(c, st, IXP_SQ_RELEASE, &r);
    ixb_wbuf_free(&r.tuples);
}

/* Every size as BYTE and TEXT, NULLs both ways, and the statement reused. */
static void test_sizes(tconn *c, int ins) {
    treply r = {0};
    for (int k = 0; k < NSIZES; k++) {
        uint8_t *b = pattern(SIZES[k], k), *t = pattern(SIZES[k], k + 100);
        const uint8_t *v[2] = {b, t};
        size_t n[2] = {SIZES[k], SIZES[k]};
        put_insert(c, ins, k, v, n, 2, 1);
        execute(c, &r);
        CHECK(r.sqlcode == 0 && r.rows == 1, "insert %zu bytes (%d %s)", SIZES[k], r.sqlcode,
              r.errtext);
        char what[40];
        snprintf(what, sizeof what, "%zu bytes", SIZES[k]);
        check_row(c, k, b, SIZES[k], t, SIZES[k], what);
        free(b);
        free(t);
    }
    const uint8_t *v[2] = {NULL, NULL};
    size_t n[2] = {0, 0};
    put_insert(c, ins, 50, v, n, 2, 1);
    execute(c, &r);
    CHECK(r.sqlcode == 0 && r.rows == 1, "NULL items, SQ_BBIND 0 (%d %s)", r.sqlcode, r.errtext);
    check_row(c, 50, NULL, 0, NULL, 0, "NULL items");
    /* a descriptor with the NULL flag: NULL, no data */
    uint8_t idb[4] = {0, 0, 0, 51}, d[IXP_BLOBDESC_LEN];
    ixp_blobdesc_put(d, 0);
    d[IXP_BLOBDESC_NULL_AT] = IXP_BLOBDESC_NULL_FLAG;
    ixp_bindval bv[3] = {{.type = IX_T_INTEGER, .value = {idb, 4}},
                         {.type = IX_T_BYTE, .slot = IXP_BLOBDESC_LEN, .value = {d, 56}},
                         {.type = IX_T_TEXT, .slot = IXP_BLOBDESC_LEN, .value = {d, 56}}};
    ixp_enc_id(&c->out, ins);
    ixp_enc_bind(&c->out, bv, 3);
    execute(c, &r);
    CHECK(r.sqlcode == 0 && r.rows == 1, "flagged NULL descriptors without SQ_BBIND (%d %s)",
          r.sqlcode, r.errtext);
    check_row(c, 51, NULL, 0, NULL, 0, "flagged NULL descriptors");
    ixb_wbuf_free(&r.tuples);
}

/* A descriptor in the BIND of a cursor: the data before OPEN. */
static void test_open(tconn *c) {
    treply r = {0};
    int st = tconn_prepare(c, "SELECT count(*) FROM bb WHERE id = ? AND ? IS NOT NULL", 2, &r);
    uint8_t idb[4] = {0, 0, 0, 1}, d[IXP_BLOBDESC_LEN];
    ixp_blobdesc_put(d, 3);
    ixp_bindval bv[2] = {{.type = IX_T_INTEGER, .value = {idb, 4}},
                         {.type = IX_T_TEXT, .slot = IXP_BLOBDESC_LEN, .value = {d, 56}}};
    ixp_enc_id(&c->out, st);
    ixp_enc_curname(&c->out, "cop", 3);
    ixp_enc_bind(&c->out, bv, 2);
    ixp_enc_bbind(&c->out, 1);
    ixp_enc_blob_stream(&c->out, (const uint8_t *)"abc", 3);
    ixp_enc_tag(&c->out, IXP_SQ_OPEN);
    ixp_enc_id(&c->out, st);
    ixp_enc_nfetch(&c->out, &c->caps, 4096);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    tconn_flush(c);
    treply dsc = r; /* keep the describe */
    tconn_reply(c, &r);
    r.ncols = dsc.ncols;
    memcpy(r.cols, dsc.cols, sizeof r.cols);
    char buf[32];
    CHECK(r.sqlcode == 0 && r.ntuples == 1 &&
              strcmp(treply_value(&r, 0, 0, buf, sizeof buf), "1") == 0,
          "OPEN with a TEXT value from SQ_BLOB (%d %s)", r.sqlcode, r.errtext);
    tconn_on_id(c, st, IXP_SQ_CLOSE, &r);
    tconn_on_id(c, st, IXP_SQ_RELEASE, &r);
    ixb_wbuf_free(&r.tuples);
}

/* Sequences that are refused with an SQ_ERR; the session goes on. */
static void test_refusals(tconn *c, int ins) {
    treply r = {0};
    const uint8_t *v[2] = {(const uint8_t *)"xy", (const uint8_t *)"z"};
    size_t n[2] = {2, 1};
    put_insert(c, ins, 60, v, n, 2, 0);
    ixp_enc_bbind(&c->out, 1);
    ixp_enc_blob_stream(&c->out, v[0], 2);
    execute(c, &r);
    CHECK(r.sqlcode == E_HOST_VARS, "SQ_BBIND 1 for two descriptors: -254 (%d)", r.sqlcode);
    put_insert(c, ins, 61, v, n, 2, 0);
    ixp_enc_blob_stream(&c->out, v[0], 2);
    execute(c, &r);
    CHECK(r.sqlcode == E_BLOB_WRITE, "SQ_BLOB without SQ_BBIND: -605 (%d)", r.sqlcode);
    put_insert(c, ins, 62, v, n, 2, 0);
    execute(c, &r);
    CHECK(r.sqlcode == E_BLOB_HOSTVAR, "EXECUTE before the data: -609 (%d)", r.sqlcode);
    put_insert(c, ins, 63, v, n, 2, 0);
    ixp_enc_bbind(&c->out, 2);
    ixp_enc_blob_stream(&c->out, v[0], 2);
    execute(c, &r);
    CHECK(r.sqlcode == E_BLOB_HOSTVAR, "EXECUTE after one of two values: -609 (%d)", r.sqlcode);
    put_insert(c, ins, 64, v, n, 2, 1);
    ixp_enc_blob_stream(&c->out, v[0], 2);
    execute(c, &r);
    CHECK(r.sqlcode == E_BLOB_WRITE, "a value more than announced: -605 (%d)", r.sqlcode);
    put_insert(c, ins, 65, v, n, 2, 1);
    execute(c, &r);
    CHECK(r.sqlcode == 0 && r.rows == 1, "the session goes on (%d %s)", r.sqlcode, r.errtext);
    check_row(c, 65, v[0], 2, v[1], 1, "after the refusals");
    treply q = {0};
    tconn_command(c, "SELECT count(*) FROM bb WHERE id BETWEEN 60 AND 64", &q);
    ixb_wbuf_free(&q.tuples);
    ixb_wbuf_free(&r.tuples);
}

/* The inline form (i32 length, bytes): taken by normal ixd, not by strict. */
static void test_inline(tconn *c, int ins, int strict) {
    uint8_t idb[4] = {0, 0, 0, 70}, val[4 + 3] = {0, 0, 0, 3, 'a', 'b', 'c'};
    ixp_bindval bv[3] = {{.type = IX_T_INTEGER, .value = {idb, 4}},
                         {.type = IX_T_BYTE, .value = {val, 7}},
                         {.type = IX_T_TEXT, .indicator = IXP_IND_NULL}};
    ixp_enc_id(&c->out, ins);
    ixp_enc_bind(&c->out, bv, 3);
    treply r = {0};
    execute(c, &r);
    if (strict) {
        CHECK(r.sqlcode == E_BLOB_HOSTVAR, "strict: inline BYTE refused with -609 (%d)", r.sqlcode);
    } else {
        CHECK(r.sqlcode == 0 && r.rows == 1, "inline BYTE taken (%d %s)", r.sqlcode, r.errtext);
        check_row(c, 70, val + 4, 3, NULL, 0, "inline BYTE");
    }
    ixb_wbuf_free(&r.tuples);
}

/* A chunk length over 32767 is a framing error: the session ends. */
static void test_framing(tconn *c, int ins) {
    const uint8_t *v[2] = {(const uint8_t *)"q", NULL};
    size_t n[2] = {1, 0};
    put_insert(c, ins, 80, v, n, 2, 0);
    ixp_enc_bbind(&c->out, 1);
    static const uint8_t big[] = {0x00, 0x27, 0x80, 0x00};
    ixb_put_bytes(&c->out, big, sizeof big);
    tconn_flush(c);
    ixp_msg m;
    int n_msgs = 0;
    while (tconn_next(c, &m) == IX_OK)
        n_msgs++;
    CHECK(c->closed, "chunk length 32768: the session ends (%d messages first)", n_msgs);
}

static void run(int strict) {
    ixd_proc p;
    CHECK(ixd_start2(&p, NULL, strict ? "--strict" : NULL, NULL) == 0, "ixd%s starts",
          strict ? " --strict" : "");
    if (tap_fail) return;
    tconn c;
    CHECK(tconn_login(&c, p.port, U, P, "sysmaster") == 0, "login");
    ok(&c, "CREATE DATABASE bbdb WITH LOG");
    ok(&c, "CREATE TABLE bb (id INTEGER, b BYTE, t TEXT)");
    treply r = {0};
    int ins = tconn_prepare(&c, "INSERT INTO bb VALUES (?, ?, ?)", 3, &r);
    CHECK(ins >= 0, "prepare the INSERT");
    test_sizes(&c, ins);
    test_open(&c);
    test_refusals(&c, ins);
    test_inline(&c, ins, strict);
    test_framing(&c, ins);
    tconn_close(&c);
    ixb_wbuf_free(&r.tuples);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
}

/* The total of one BIND's values is bounded by the value limit. */
static void test_limit(void) {
    ixd_proc p;
    CHECK(ixd_start2(&p, NULL, "--max-message", "4096") == 0, "ixd --max-message 4096 starts");
    tconn c;
    CHECK(tconn_login(&c, p.port, U, P, "sysmaster") == 0, "login");
    ok(&c, "CREATE DATABASE bbl WITH LOG");
    ok(&c, "CREATE TABLE bb (id INTEGER, b BYTE, t TEXT)");
    treply r = {0};
    int ins = tconn_prepare(&c, "INSERT INTO bb VALUES (?, ?, ?)", 3, &r);
    uint8_t *b = pattern(LIMIT, 1);
    const uint8_t *v[2] = {b, b};
    size_t n[2] = {LIMIT / 2, LIMIT / 2 + 1};
    put_insert(&c, ins, 1, v, n, 2, 1);
    execute(&c, &r);
    CHECK(r.sqlcode == E_BLOB_WRITE, "values adding up to more than the limit: -605 (%d)",
          r.sqlcode);
    n[1] = LIMIT / 2;
    put_insert(&c, ins, 2, v, n, 2, 1);
    execute(&c, &r);
    CHECK(r.sqlcode == 0 && r.rows == 1, "exactly the limit in 1024-byte chunks (%d %s)", r.sqlcode,
          r.errtext);
    free(b);
    tconn_close(&c);
    ixb_wbuf_free(&r.tuples);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    run(0);
    run(1);
    test_limit();
    return tap_done();
}
