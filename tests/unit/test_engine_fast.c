/* test_engine_fast.c: the per-row fast paths of ixd give what the general
 * paths give. Fetch: every type ixd_row_encode stores directly, against
 * every SQLite storage class and the edge values of each, byte for byte
 * against ixv_sval_to_tuple (NULLs, out of range values and their errors
 * included), also in multi-column rows mixed with general-path columns and
 * in a buffer with a limit. Bind: every tuple type ixd_bind_fast takes into
 * every parameter type, against ixv_tuple_to_sval + ixv_convert; and
 * ixd_bind_wire (one pass from the SQ_BIND bytes) against the session's
 * ixt_value_from_bind followed by the same, NULLs included. Statement
 * reuse: a freed statement comes back for the same text, and not after a
 * change of the catalog by the same or another connection. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/engine/ixd_int.h"
#include "test_engine_util.h"

/* ---- fetch ---------------------------------------------------------------- */

static int general(ixd_stmt *s, int i, sqlite3_value *x, ixb_wbuf *out) {
    sval v;
    ixv_sval_from_sqlite(&v, x);
    return ixv_sval_to_tuple(s->x.cols[i].t, &v, out);
}

static const ityp FETCH_TYPES[] = {
    {IX_T_SMALLINT, 2},     {IX_T_INTEGER, 4},    {IX_T_SERIAL, 4},   {IX_T_DATE, 4},
    {IX_T_BIGINT, 8},       {IX_T_BIGSERIAL, 8},  {IX_T_INT8, 10},    {IX_T_SERIAL8, 10},
    {IX_T_FLOAT, 8},        {IX_T_SMALLFLOAT, 4}, {IX_T_VARCHAR, 10}, {IX_T_VARCHAR, 0},
    {IX_T_NVARCHAR, 3},     {IX_T_CHAR, 6},       {IX_T_NCHAR, 1},    {IX_T_CHAR, 0},
    {IX_T_DECIMAL, 0x0a02}, {IX_T_LVARCHAR, 0},   {IX_T_BOOLEAN, 1},
};
#define NFT ((int)(sizeof FETCH_TYPES / sizeof FETCH_TYPES[0]))

static const char *const VALUES[] = {
    "NULL",
    "0",
    "1",
    "-1",
    "32767",
    "-32767",
    "-32768",
    "2147483647",
    "-2147483647",
    "-2147483648",
    "9223372036854775807",
    "-9223372036854775807",
    "-9223372036854775807 - 1",
    "-693594",
    "-693595",
    "2958464",
    "2958465",
    "1.5",
    "-0.0",
    "1e300",
    "3.5e38",
    "-3.5e38",
    "'abc'",
    "''",
    "'  padded  '",
    "'a string longer than ten bytes'",
    "'12'",
    "x'00ff41'",
    "x''",
    "'" /* a 300-byte string, filled in below */,
};
#define NV ((int)(sizeof VALUES / sizeof VALUES[0]))

static char long_lit[400];

static sqlite3_stmt *select_values(sqlite3 *h, const char *const *lits, int n) {
    char sql[2048] = "SELECT ";
    for (int i = 0; i < n; i++) {
        if (i) strcat(sql, ", ");
        strcat(sql, lits[i]);
    }
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK || sqlite3_step(st) != SQLITE_ROW) {
        printf("cannot run %s: %s\n", sql, sqlite3_errmsg(h));
        sqlite3_finalize(st);
        return NULL;
    }
    return st;
}

/* Encodes the row of st with columns of types ts both ways; 1 if the same
 * result (rc and bytes). max: the output buffer's limit (0 none). */
static int same_row(sqlite3_stmt *st, const ityp *ts, int n, size_t max, char *why, size_t cap) {
    ocol cols[8];
    memset(cols, 0, sizeof cols);
    for (int i = 0; i < n; i++)
        cols[i].t = ts[i];
    ixd_stmt s;
    memset(&s, 0, sizeof s);
    s.x.ncols = n;
    s.x.cols = cols;
    s.x.st = st;
    if (ixd_row_plan(&s)) return 0;
    ixb_wbuf a, b;
    ixb_wbuf_init(&a, NULL);
    ixb_wbuf_init(&b, NULL);
    a.max = b.max = max;
    ixb_put_u8(&a, 0x5a); /* something already in the buffer */
    ixb_put_u8(&b, 0x5a);
    int ra = ixd_row_encode(&s, &a, general);
    int rb = 0;
    for (int i = 0; i < n && !rb; i++)
        rb = general(&s, i, sqlite3_column_value(st, i), &b);
    if (!rb && b.err) rb = -208;
    if (rb) b.len = 1;
    /* a row over the buffer's limit fails both ways, the buffer as it was
     * (which error names it differs: the general path reports the column
     * whose store failed; ixd's reply buffers have no limit) */
    int same = ra == rb && a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
    if (max && ra && rb && a.len == 1 && a.data[0] == 0x5a) same = 1;
    if (!same)
        snprintf(why, cap, "fast rc %d len %zu, general rc %d len %zu", ra, a.len, rb, b.len);
    free(s.rplan);
    ixb_wbuf_free(&a);
    ixb_wbuf_free(&b);
    return same;
}

static void test_fetch_types(sqlite3 *h) {
    int bad = 0, runs = 0;
    char why[128], first[256] = "";
    for (int v = 0; v < NV; v++) {
        const char *lit = v == NV - 1 ? long_lit : VALUES[v];
        sqlite3_stmt *st = select_values(h, &lit, 1);
        if (!st) {
            bad++;
            continue;
        }
        for (int t = 0; t < NFT; t++) {
            runs++;
            if (!same_row(st, &FETCH_TYPES[t], 1, 0, why, sizeof why)) {
                if (!bad++)
                    snprintf(first, sizeof first, "type %d len %u value %.40s: %s",
                             FETCH_TYPES[t].code, FETCH_TYPES[t].len, lit, why);
            }
        }
        sqlite3_finalize(st);
    }
    CHECK(bad == 0, "%d of %d type x value fetches differ from the general path; first: %s", bad,
          runs, first);
}

static void test_fetch_rows(sqlite3 *h) {
    /* direct, general (DECIMAL, LVARCHAR), NULL and direct columns mixed */
    const char *lits[] = {"7", "'name'", "12.5", "NULL", "'x'", "2.25", "45000", "'lv'"};
    const ityp ts[] = {{IX_T_INTEGER, 4}, {IX_T_VARCHAR, 64}, {IX_T_DECIMAL, 0x0a02},
                       {IX_T_INTEGER, 4}, {IX_T_CHAR, 3},     {IX_T_FLOAT, 8},
                       {IX_T_DATE, 4},    {IX_T_LVARCHAR, 0}};
    sqlite3_stmt *st = select_values(h, lits, 8);
    char why[128] = "";
    CHECK(st && same_row(st, ts, 8, 0, why, sizeof why), "mixed row: %s", why);
    /* a buffer limit the largest possible row passes but the real one fits,
     * and one the real row does not fit */
    CHECK(st && same_row(st, ts, 8, 90, why, sizeof why), "mixed row, limit 90: %s", why);
    CHECK(st && same_row(st, ts, 8, 20, why, sizeof why), "mixed row, limit 20: %s", why);
    sqlite3_finalize(st);
}

/* DATETIME columns (RK_DATETIME: their TEXT parsed and packed without the
 * sval) against the general path: every qualifier from YEAR, the two the
 * types layer parses fastest among them, valid and invalid texts, other
 * storage classes, NULL; alone and in a row with direct columns. */
static void test_fetch_datetime(sqlite3 *h) {
    static const char *const dts[] = {
        "NULL",
        "'2026-01-01 00:00:00'",
        "'2026-12-31 23:59:59'",
        "'2024-02-29 12:34:56'",
        "'2023-02-29 12:34:56'",
        "'2026-13-01 00:00:00'",
        "'2026-01-01 24:00:00'",
        "'2026-01-01 00:60:00'",
        "'0001-01-01 00:00:00'",
        "'0099-12-31 23:59:59'",
        "'0100-01-01 00:00:00'",
        "'1900-02-29 00:00:00'",
        "'2000-02-29 00:00:00'",
        "'2026-04-31 00:00:00'",
        "'2026-00-10 00:00:00'",
        "'2026-01-00 00:00:00'",
        "'2026-01-01 00:00:60'",
        "'2026-02-28 23:59:59.99999'",
        "'2026-01-01 00:00:00.1234a'",
        "'2026-01-01 00:00:00,12345'",
        "'2026/01/01 00:00:00'",
        "'-026-01-01 00:00:00'",
        "'9999-12-31 23:59:59'",
        "'2026-01-01 00:00:00.12345'",
        "'2026-01-01 00:00:00.1'",
        "'2026-01-01 00:00:00.123'",
        "'2026-01-01 00:00:00.1234567'",
        "'2026-01-01 00:00'",
        "'2026-01-01'",
        "'2026-01-01T00:00:00'",
        "'2026-1-1 0:0:0'",
        "' 2026-01-01 00:00:00'",
        "'2026-01-01 00:00:0x'",
        "'abc'",
        "''",
        "20260101",
        "1.5",
        "x'323032362d30312d3031'",
    };
    int nd = (int)(sizeof dts / sizeof *dts);
    static const int ends[] = {IXT_TU_SECOND, IXT_TU_F(5),   IXT_TU_F(3), IXT_TU_F(1),
                               IXT_TU_DAY,    IXT_TU_MINUTE, IXT_TU_YEAR};
    int bad = 0, runs = 0;
    char why[128], first[256] = "";
    for (int v = 0; v < nd; v++) {
        sqlite3_stmt *st = select_values(h, &dts[v], 1);
        if (!st) {
            bad++;
            continue;
        }
        for (size_t e = 0; e < sizeof ends / sizeof *ends; e++) {
            ityp t = {IX_T_DATETIME, ixt_dt_qual(IXT_TU_YEAR, ends[e])};
            runs++;
            if (!same_row(st, &t, 1, 0, why, sizeof why) && !bad++)
                snprintf(first, sizeof first, "qualifier %#x value %s: %s", t.len, dts[v], why);
        }
        sqlite3_finalize(st);
    }
    CHECK(bad == 0, "%d of %d DATETIME fetches differ from the general path; first: %s", bad, runs,
          first);
    const char *lits[] = {
        "7", "'2026-03-04 05:06:07.89012'", "1.5", "'2026-03-04 05:06:07'", "'bad'", "NULL", "'x'"};
    const ityp ts[] = {{IX_T_INTEGER, 4}, {IX_T_DATETIME, ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(5))},
                       {IX_T_FLOAT, 8},   {IX_T_DATETIME, ixt_dt_qual(IXT_TU_YEAR, IXT_TU_SECOND)},
                       {IX_T_VARCHAR, 8}, {IX_T_DATETIME, ixt_dt_qual(IXT_TU_YEAR, IXT_TU_SECOND)},
                       {IX_T_CHAR, 2}};
    sqlite3_stmt *st = select_values(h, lits, 7);
    CHECK(st && same_row(st, ts, 7, 0, why, sizeof why), "row with DATETIMEs: %s", why);
    CHECK(st && same_row(st, ts, 7, 30, why, sizeof why), "row with DATETIMEs, limit 30: %s", why);
    sqlite3_finalize(st);
    lits[4] = "'2026-03-04 05:06:07'"; /* every DATETIME valid */
    ityp ts2[7];
    memcpy(ts2, ts, sizeof ts2);
    ts2[4] = (ityp){IX_T_DATETIME, ixt_dt_qual(IXT_TU_YEAR, IXT_TU_SECOND)};
    st = select_values(h, lits, 7);
    CHECK(st && same_row(st, ts2, 7, 0, why, sizeof why), "row of valid DATETIMEs: %s", why);
    sqlite3_finalize(st);
}

/* ---- bind ----------------------------------------------------------------- */

typedef struct tval {
    ityp t;
    uint8_t b[300];
    size_t n;
} tval;

static int tval_make(tval *v, int code, uint32_t len, const char *text) {
    memset(v, 0, sizeof *v);
    v->t = ixv_t(code, len);
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixt_vtype vt = {code, len};
    int rc = text ? ixt_value_parse(vt, text, strlen(text), NULL, &b) : ixt_value_put_null(vt, &b);
    if (rc == IX_OK && b.len <= sizeof v->b) {
        memcpy(v->b, b.data, b.len);
        v->n = b.len;
    }
    ixb_wbuf_free(&b);
    return rc == IX_OK ? 0 : -1;
}

static int sval_same(const sval *a, const sval *b) {
    if (a->kind != b->kind) return 0;
    switch (a->kind) {
    case SQLITE_INTEGER: return a->i == b->i;
    case SQLITE_FLOAT: return memcmp(&a->d, &b->d, sizeof a->d) == 0;
    case SQLITE_TEXT:
    case SQLITE_BLOB: return a->n == b->n && memcmp(a->p, b->p, a->n) == 0;
    default: return 1;
    }
}

/* The parameter types the bind tests bind into (-1: none described). */
static const ityp BIND_TARGETS[] = {
    {-1, 0},
    {IX_T_SMALLINT, 2},
    {IX_T_INTEGER, 4},
    {IX_T_SERIAL, 4},
    {IX_T_BIGINT, 8},
    {IX_T_INT8, 10},
    {IX_T_FLOAT, 8},
    {IX_T_SMALLFLOAT, 4},
    {IX_T_DECIMAL, 0x0a02},
    {IX_T_DATE, 4},
    {IX_T_VARCHAR, 2},
    {IX_T_VARCHAR, 10},
    {IX_T_VARCHAR, 0},
    {IX_T_NVARCHAR, 5},
    {IX_T_CHAR, 4},
    {IX_T_LVARCHAR, 0},
    {IX_T_DATETIME, 0x1a2},
    {IX_T_BOOLEAN, 1},
};
#define NBIND_TARGETS ((int)(sizeof BIND_TARGETS / sizeof BIND_TARGETS[0]))

static void test_bind_types(void) {
    static const struct {
        int code;
        uint32_t len;
        const char *text;
    } from[] = {
        {IX_T_SMALLINT, 2, "0"},
        {IX_T_SMALLINT, 2, "-32767"},
        {IX_T_SMALLINT, 2, NULL},
        {IX_T_INTEGER, 4, "7"},
        {IX_T_INTEGER, 4, "2147483647"},
        {IX_T_INTEGER, 4, "-2147483647"},
        {IX_T_INTEGER, 4, "40000"},
        {IX_T_INTEGER, 4, NULL},
        {IX_T_SERIAL, 4, "3"},
        {IX_T_BIGINT, 8, "1099511627776"},
        {IX_T_BIGINT, 8, NULL},
        {IX_T_BIGSERIAL, 8, "-5"},
        {IX_T_DATE, 4, "01/02/2020"},
        {IX_T_DATE, 4, NULL},
        {IX_T_FLOAT, 8, "1.25"},
        {IX_T_FLOAT, 8, "-1e300"},
        {IX_T_FLOAT, 8, NULL},
        {IX_T_SMALLFLOAT, 4, "2.5"},
        {IX_T_VARCHAR, 3, "abc"},
        {IX_T_VARCHAR, 0, ""},
        {IX_T_VARCHAR, 12, "123456789012"},
        {IX_T_VARCHAR, 2, "12"},
        {IX_T_VARCHAR, 0, NULL},
        {IX_T_NVARCHAR, 4, "x  y"},
        {IX_T_CHAR, 4, "ab"},
    };
    const ityp *to = BIND_TARGETS;
    int nf = (int)(sizeof from / sizeof from[0]), nt = NBIND_TARGETS;
    int bad = 0, fast = 0, runs = 0;
    char first[200] = "";
    for (int f = 0; f < nf; f++) {
        tval v;
        if (tval_make(&v, from[f].code, from[f].len, from[f].text)) {
            bad++;
            snprintf(first, sizeof first, "cannot make value %d '%s'", from[f].code,
                     from[f].text ? from[f].text : "NULL");
            continue;
        }
        for (int k = 0; k < nt; k++) {
            ixd_stmt s;
            memset(&s, 0, sizeof s);
            ityp pt = to[k];
            sval pv = {0}, ref = {0};
            int pset = 0;
            uint8_t *pbuf = NULL;
            size_t pcap = 0;
            s.x.nparams = 1;
            s.x.ptypes = &pt;
            s.x.pvals = &pv;
            s.x.pset = &pset;
            s.pbuf = &pbuf;
            s.pcap = &pcap;
            runs++;
            int rc = ixd_bind_fast(&s, 0, v.t, v.b, v.n);
            if (rc == 0) {
                fast++;
                sval tmp;
                int r = ixv_tuple_to_sval(v.t, v.b, v.n, &tmp);
                if (r == 0 && (pt.code < 0 || tmp.kind == SQLITE_NULL)) {
                    ref = tmp;
                } else if (r == 0) {
                    r = ixv_convert(v.t, &tmp, pt, &ref);
                    ixv_sval_free(&tmp);
                }
                if (r != 0 || !sval_same(&pv, &ref)) {
                    if (!bad++)
                        snprintf(first, sizeof first,
                                 "from %d '%s' to %d/%u: fast kind %d, general rc %d kind %d",
                                 from[f].code, from[f].text ? from[f].text : "NULL", pt.code,
                                 pt.len, pv.kind, r, ref.kind);
                }
            }
            ixv_sval_free(&ref);
            ixv_sval_free(&pv);
            free(pbuf);
        }
    }
    CHECK(bad == 0, "%d of %d binds differ from the general path; first: %s", bad, runs, first);
    CHECK(fast > 20, "the direct path takes the common binds (%d of %d)", fast, runs);
}

/* ---- binds from the SQ_BIND bytes (ixd_bind_wire) ---------------------------- */

/* One value in the bind form: i16 type, i16 indicator, i16 slot, the value
 * (VARCHAR: i16 length, bytes) padded to even. */
static size_t wire_put(uint8_t *w, int code, int ind, const uint8_t *v, size_t n) {
    ixb_st16(w, (uint16_t)code);
    ixb_st16(w + 2, (uint16_t)ind);
    ixb_st16(w + 4, 0);
    memcpy(w + 6, v, n);
    if (n & 1) w[6 + n++] = 0;
    return 6 + n;
}

/* The general path of one bind value: the session's ixt_value_from_bind,
 * then the engine's ixv_tuple_to_sval and ixv_convert. 0 or an error. */
static int wire_general(int code, const uint8_t *v, size_t n, ityp to, sval *out) {
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    ixt_vtype vt = {code, code == IX_T_VARCHAR || code == IX_T_NVARCHAR ? (uint32_t)(n - 2)
                                                                        : (uint32_t)n};
    int r = ixt_value_from_bind(vt, v, n, &b);
    ityp from = ixv_t(code, vt.enclen);
    sval tmp;
    if (r == IX_OK) r = ixv_tuple_to_sval(from, b.data, b.len, &tmp);
    ixb_wbuf_free(&b);
    if (r) return r ? r : -1;
    if (to.code < 0 || tmp.kind == SQLITE_NULL) {
        *out = tmp;
        return 0;
    }
    r = ixv_convert(from, &tmp, to, out);
    ixv_sval_free(&tmp);
    return r;
}

/* 1 when SQLite's parameter 1 of st (reset) holds v, as bind_all would
 * bind it (ixv_sval_bind_static): read back through "select ?1". */
static int bound_same(sqlite3_stmt *st, const sval *v) {
    if (sqlite3_step(st) != SQLITE_ROW) return 0;
    sval got;
    ixv_sval_from_sqlite(&got, sqlite3_column_value(st, 0));
    int same = sval_same(&got, v);
    sqlite3_reset(st);
    return same;
}

static void test_bind_wire(sqlite3 *h) {
    sqlite3_stmt *q = NULL;
    CHECK(sqlite3_prepare_v2(h, "select ?1, ?2", -1, &q, NULL) == SQLITE_OK, "select ?1, ?2");
    static const struct {
        int code;
        const char *hex; /* the value's bind bytes */
    } from[] = {
        {IX_T_SMALLINT, "0000"},
        {IX_T_SMALLINT, "8001"},
        {IX_T_SMALLINT, "8000"},
        {IX_T_INTEGER, "00000007"},
        {IX_T_INTEGER, "7fffffff"},
        {IX_T_INTEGER, "80000001"},
        {IX_T_INTEGER, "80000000"},
        {IX_T_INTEGER, "00009c40"},
        {IX_T_SERIAL, "00000003"},
        {IX_T_DATE, "0000b5f1"},
        {IX_T_DATE, "80000000"},
        {IX_T_DATE, "7ffffff0"},
        {IX_T_DATE, "fff56a25"},
        {IX_T_BIGINT, "0000010000000000"},
        {IX_T_BIGINT, "8000000000000000"},
        {IX_T_BIGSERIAL, "fffffffffffffffb"},
        {IX_T_FLOAT, "3ff4000000000000"},
        {IX_T_FLOAT, "fff8000000000001"},
        {IX_T_FLOAT, "ffffffffffffffff"},
        {IX_T_FLOAT, "7ff0000000000000"},
        {IX_T_FLOAT, "8000000000000000"},
        {IX_T_SMALLFLOAT, "40200000"},
        {IX_T_SMALLFLOAT, "7fc00000"},
        {IX_T_SMALLFLOAT, "ffffffff"},
        {IX_T_VARCHAR, "0003616263"},
        {IX_T_VARCHAR, "0000"},
        {IX_T_VARCHAR, "000100"},
        {IX_T_VARCHAR, "00020000"},
        {IX_T_VARCHAR, "000c313233343536373839303132"},
        {IX_T_NVARCHAR, "000478202079"},
        {IX_T_CHAR, "0002616220"},
    };
    const ityp *to = BIND_TARGETS;
    int nf = (int)(sizeof from / sizeof from[0]), nt = NBIND_TARGETS;
    int bad = 0, fast = 0, runs = 0;
    char first[200] = "";
    for (int f = 0; f < nf; f++) {
        uint8_t v[64], w[80];
        size_t n = strlen(from[f].hex) / 2;
        for (size_t j = 0; j < n; j++)
            sscanf(from[f].hex + 2 * j, "%2hhx", &v[j]);
        for (int k = 0; k < nt; k++)
            for (int ind = 0; ind >= -1 && to[k].code != IX_T_DATETIME; ind--) {
                /* the value, and its NULL indicator (DATETIME: the bind test above) */
                ixd_stmt s;
                memset(&s, 0, sizeof s);
                ityp pt[2] = {to[k], to[k]};
                sval pv[2] = {{0}}, ref = {0};
                int pset[2] = {0};
                uint8_t *pbuf[2] = {NULL};
                size_t pcap[2] = {0};
                s.x.db = (ixs_conn *)&s; /* not orphaned; never used */
                s.x.st = q;
                s.x.kind = SK_DML;
                s.x.nparams = 1;
                s.x.ptypes = pt;
                s.x.pvals = pv;
                s.x.pset = pset;
                s.pbuf = pbuf;
                s.pcap = pcap;
                size_t wn = wire_put(w, from[f].code, ind, v, n);
                runs++;
                if (ixd_bind_wire(&s, w, wn, 1) == 0) {
                    fast++;
                    int r = ind ? -1 : wire_general(from[f].code, v, n, pt[0], &ref);
                    if (r != 0 || !sval_same(&pv[0], &ref) || !pset[0] || !s.wired ||
                        !bound_same(q, &pv[0])) {
                        if (!bad++)
                            snprintf(first, sizeof first,
                                     "from %d %s (ind %d) to %d/%u: wire kind %d, general rc %d "
                                     "kind %d",
                                     from[f].code, from[f].hex, ind, pt[0].code, pt[0].len,
                                     pv[0].kind, r, ref.kind);
                    }
                }
                /* two values in one message: both, or neither */
                uint8_t w2[160];
                size_t n2 = wire_put(w2, from[f].code, ind, v, n);
                n2 += wire_put(w2 + n2, IX_T_INTEGER, 0, (const uint8_t *)"\0\0\0\5", 4);
                s.x.nparams = 2;
                pt[1] = (ityp){IX_T_INTEGER, 4};
                free(s.wplan); /* a statement of two parameters */
                s.wplan = NULL;
                int r2 = ixd_bind_wire(&s, w2, n2, 2);
                if (r2 == 0 && (pv[1].kind != SQLITE_INTEGER || pv[1].i != 5 || !pset[1])) bad++;
                if (ixd_bind_wire(&s, w2, n2, 1) == 0) bad++; /* not the statement's count */
                free(s.wplan);
                ixv_sval_free(&ref);
                for (int j = 0; j < 2; j++) {
                    ixv_sval_free(&pv[j]);
                    free(pbuf[j]);
                }
            }
    }
    CHECK(bad == 0, "%d of %d wire binds differ from the general path; first: %s", bad, runs,
          first);
    CHECK(fast > 20, "the one-pass path takes the common binds (%d of %d)", fast, runs);
    /* off: every BIND takes the general path */
    ixd_fast_binds = 0;
    uint8_t w[16];
    size_t wn = wire_put(w, IX_T_INTEGER, 0, (const uint8_t *)"\0\0\0\5", 4);
    ixd_stmt s;
    memset(&s, 0, sizeof s);
    s.x.db = (ixs_conn *)&s;
    s.x.st = q;
    s.x.kind = SK_DML;
    s.x.nparams = 1;
    CHECK(ixd_bind_wire(&s, w, wn, 1) == 1, "ixd_fast_binds 0 turns it off");
    ixd_fast_binds = 1;
    sqlite3_finalize(q);
}

/* ---- statement reuse -------------------------------------------------------- */

static ixd_stmt *prep(ixd_db *db, const char *sql) {
    ixd_stmt *s = NULL;
    memset(&ERR, 0, sizeof ERR);
    if (ixd_prepare(db, sql, strlen(sql), &s, &ERR)) return NULL;
    return s;
}

static uint32_t col0_enclen(ixd_db *db, const char *sql) {
    ixd_stmt *s = prep(db, sql);
    if (!s) return 0;
    ixd_col c;
    ixd_stmt_col(s, 0, &c);
    uint32_t n = c.enclen;
    ixd_stmt_free(s);
    return n;
}

static void test_reuse(void) {
    CHECK_RUN("create database fastdb with log", 0);
    CHECK_RUN("create table t (a char(5), b int)", 0);
    CHECK_RUN("insert into t values ('x', 1)", 0);
    CHECK_Q("select a, b from t", "x    |1");
    const char *sql = "select a, b from t where b = ?";
    ixd_stmt *s1 = prep(D, sql);
    CHECK(s1 != NULL, "prepare (%d)", ERR.sqlcode);
    if (!s1) return;
    int32_t one = 1;
    uint8_t p[4];
    ixb_st32(p, (uint32_t)one);
    ixt_vtype it = {IX_T_INTEGER, 4};
    CHECK(ixd_bind(s1, 0, it, p, 4, &ERR) == 0 && ixd_open(s1, 0, &ERR) == 0, "bind and open");
    ixd_stmt_free(s1); /* freed with its cursor open */
    ixd_stmt *s2 = prep(D, sql);
    CHECK(s2 == s1, "the freed statement is reused for the same text");
    CHECK(s2 && ixd_fetch(s2, &(ixb_wbuf){0}, &ERR) < 0 && ERR.sqlcode == -404,
          "it comes back with no cursor open");
    ixb_wbuf b;
    ixb_wbuf_init(&b, NULL);
    CHECK(s2 && ixd_open(s2, 0, &ERR) == 0 && ixd_fetch(s2, &b, &ERR) == 0,
          "and no parameter bound (NULL: no row)");
    ixb_wbuf_free(&b);
    ixd_stmt_free(s2);

    /* the same connection changes the table: translated afresh */
    CHECK(col0_enclen(D, "select a from t") == 5, "char(5)");
    CHECK_RUN("alter table t modify (a char(9))", 0);
    CHECK(col0_enclen(D, "select a from t") == 9, "after ALTER on this connection: char(9)");

    /* another connection changes it */
    ixd_db *d2 = NULL;
    int fl = 0;
    CHECK(ixd_db_open(E, "fastdb", "tester", &d2, &fl, &ERR) == 0, "second connection");
    CHECK(col0_enclen(d2, "select a from t") == 9, "seen there");
    CHECK(col0_enclen(D, "select a from t") == 9, "kept here");
    ixd_stmt *x = prep(d2, "alter table t modify (a char(12))");
    int64_t rows;
    int32_t ser;
    int64_t ser8;
    CHECK(x && ixd_execute(x, &rows, &ser, &ser8, &ERR) == 0, "ALTER on the other connection");
    ixd_stmt_free(x);
    CHECK(col0_enclen(D, "select a from t") == 12, "after ALTER by another connection: char(12)");

    /* in a transaction (no commit between): the change, then its rollback */
    CHECK(ixd_begin(D, &ERR) == 0, "begin");
    CHECK_RUN("alter table t modify (a char(15))", 0);
    CHECK(col0_enclen(D, "select a from t") == 15, "ALTER in a transaction: char(15)");
    CHECK(ixd_rollback(D, &ERR) == 0, "rollback");
    CHECK(col0_enclen(D, "select a from t") == 12, "after its rollback: char(12) again");

    /* a statement freed after its connection closed */
    ixd_stmt *late = prep(d2, "select b from t");
    ixd_db_close(d2);
    ixd_stmt_free(late); /* ASan: nothing of the closed connection is touched */
    CHECK(late != NULL, "a statement freed after its connection closed");
}

int main(void) {
    memset(long_lit, 0, sizeof long_lit);
    long_lit[0] = '\'';
    memset(long_lit + 1, 'q', 300);
    long_lit[301] = '\'';
    sqlite3 *h = NULL;
    sqlite3_open(":memory:", &h);
    test_fetch_types(h);
    test_fetch_rows(h);
    test_fetch_datetime(h);
    test_bind_types();
    test_bind_wire(h);
    sqlite3_close(h);
    eu_setup("fast");
    test_reuse();
    eu_teardown();
    return tap_done();
}
