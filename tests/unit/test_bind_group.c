/* test_bind_group.c: ixp_reader_bind_group, the server's one-step decoder of
 * an SQ_ID, SQ_BIND, SQ_EXECUTE, SQ_EOT group, against the general decoder
 * (ixp_reader_next, message by message) on the same bytes: valid groups of
 * every bind type ixd_bind_wire takes and of the others, NULL and default
 * indicators, every truncation, every byte corrupted, malformed lengths and
 * counts. Whenever the fast entry takes a group, the general decoder must
 * decode the same four messages (tags, lengths, id, count, the very value
 * bytes) and stop at the same place; whenever it does not, it must have
 * consumed nothing. */
#include <stdio.h>
#include <string.h>

#include "proto/ix_msg.h"
#include "proto/ix_reader.h"
#include "tap.h"
#include "types/ix_types.h"

static int ncompared, ntaken;

/* One value of the BIND: type, indicator, slot, then its wire bytes. */
static void put_val(ixb_wbuf *b, int type, int ind, int slot, const void *v, size_t n) {
    ixb_put_i16(b, type);
    ixb_put_i16(b, ind);
    ixb_put_i16(b, slot);
    if (ind == IXP_IND_VALUE) {
        ixb_put_bytes(b, v, n);
        ixb_put_pad(b, n);
    }
}

static void put_str(ixb_wbuf *b, int type, const char *s) {
    size_t n = strlen(s);
    uint8_t v[300];
    v[0] = (uint8_t)(n >> 8);
    v[1] = (uint8_t)n;
    memcpy(v + 2, s, n);
    put_val(b, type, IXP_IND_VALUE, 0, v, n + 2);
}

/* The group: ID id, BIND count + vals, EXECUTE, EOT. */
static void group(ixb_wbuf *b, int id, int count, const ixb_wbuf *vals) {
    ixp_enc_id(b, id);
    ixb_put_i16(b, IXP_SQ_BIND);
    ixb_put_i16(b, count);
    ixb_put_bytes(b, vals->data, vals->len);
    ixp_enc_tag(b, IXP_SQ_EXECUTE);
    ixp_enc_tag(b, IXP_SQ_EOT);
}

static void reader(ixp_reader *r, const uint8_t *p, size_t n) {
    ixp_reader_init(r, IXP_FROM_CLIENT, NULL);
    r->expect_login = 0;
    ixp_reader_feed(r, p, n);
}

/* Compares the fast entry with the general decoder on p[0..n). Returns 1
 * when the fast entry took the group. */
static int compare(const uint8_t *p, size_t n, const char *what) {
    ixp_reader a, b;
    reader(&a, p, n);
    reader(&b, p, n);
    ixp_bind_group g;
    memset(&g, 0, sizeof g);
    int took = ixp_reader_bind_group(&a, &g);
    ncompared++;
    if (!took) {
        if (ixp_reader_pending(&a) != n) {
            CHECK(0, "%s: refused but consumed bytes", what);
        }
        ixp_reader_free(&a);
        ixp_reader_free(&b);
        return 0;
    }
    ntaken++;
    static const int tags[4] = {IXP_SQ_ID, IXP_SQ_BIND, IXP_SQ_EXECUTE, IXP_SQ_EOT};
    int ok = 1;
    for (int i = 0; i < 4 && ok; i++) {
        ixp_msg m;
        if (ixp_reader_next(&b, &m) != IX_OK || m.tag != tags[i]) {
            ok = 0;
            break;
        }
        if (i == 0) ok = m.u.id == g.id && m.len == g.id_len;
        if (i == 1)
            ok = m.u.bind.count == g.count && m.len == g.bind_len && m.u.bind.raw.n == g.raw.n &&
                 m.u.bind.raw.p - (b.buf + 0) == g.raw.p - (a.buf + 0) &&
                 memcmp(m.u.bind.raw.p, g.raw.p, g.raw.n) == 0;
        if (i >= 2) ok = m.len == IXP_EOT_LEN;
    }
    ok = ok && ixp_reader_pending(&a) == ixp_reader_pending(&b);
    CHECK(ok, "%s: the fast entry took a group the general decoder reads otherwise", what);
    ixp_reader_free(&a);
    ixp_reader_free(&b);
    return 1;
}

/* Every truncation and every corrupted byte of a group. */
static void mangle(const ixb_wbuf *grp, const char *what) {
    char w[160];
    for (size_t k = 0; k < grp->len; k++) {
        snprintf(w, sizeof w, "%s cut at %zu", what, k);
        CHECK(!compare(grp->data, k, w), "%s: a truncated group is not taken", w);
    }
    static const uint8_t subst[] = {0x00, 0x01, 0x7f, 0x80, 0xff};
    uint8_t buf[2048];
    if (grp->len > sizeof buf) return;
    for (size_t k = 0; k < grp->len; k++)
        for (size_t j = 0; j < sizeof subst; j++) {
            memcpy(buf, grp->data, grp->len);
            buf[k] = subst[j];
            snprintf(w, sizeof w, "%s byte %zu = %02x", what, k, subst[j]);
            compare(buf, grp->len, w);
            buf[k] = (uint8_t)(grp->data[k] + 1);
            compare(buf, grp->len, w);
        }
}

static void be(uint8_t *d, uint64_t v, int n) {
    for (int i = n; i-- > 0; v >>= 8)
        d[i] = (uint8_t)v;
}

/* The types ixd_bind_wire takes, each alone and all together, with values,
 * NULL and default indicators. */
static void test_types(void) {
    uint8_t v[16];
    ixb_wbuf vals, grp;
    ixb_wbuf_init(&vals, NULL);
    ixb_wbuf_init(&grp, NULL);
    struct {
        int type, w;
        uint64_t x;
    } fixed[] = {
        {IX_T_SMALLINT, 2, 0x1234},
        {IX_T_SMALLINT, 2, 0x8000},
        {IX_T_INTEGER, 4, 7},
        {IX_T_INTEGER, 4, 0x80000000u},
        {IX_T_SERIAL, 4, 9},
        {IX_T_DATE, 4, 45000},
        {IX_T_BIGINT, 8, 1ull << 40},
        {IX_T_BIGSERIAL, 8, 3},
        {IX_T_FLOAT, 8, 0x400921fb54442d18ull},
        {IX_T_FLOAT, 8, ~0ull},
        {IX_T_SMALLFLOAT, 4, 0x40490fdbu},
        {IX_T_SMALLFLOAT, 4, 0x7fc00000u},
    };
    int nfixed = (int)(sizeof fixed / sizeof *fixed);
    for (int i = 0; i < nfixed; i++)
        for (int ind = 0; ind < 3; ind++) {
            int indicator = ind == 0 ? IXP_IND_VALUE : ind == 1 ? IXP_IND_NULL : IXP_IND_DEFAULT;
            ixb_wbuf_reset(&vals);
            ixb_wbuf_reset(&grp);
            be(v, fixed[i].x, fixed[i].w);
            put_val(&vals, fixed[i].type, indicator, 0, v, (size_t)fixed[i].w);
            group(&grp, 3, 1, &vals);
            char w[80];
            snprintf(w, sizeof w, "type %d indicator %d", fixed[i].type, indicator);
            CHECK(compare(grp.data, grp.len, w), "%s: taken", w);
            mangle(&grp, w);
        }
    const char *strs[] = {"", "a", "ab", "hello world", "\x01"};
    for (int t = 0; t < 2; t++)
        for (size_t i = 0; i < sizeof strs / sizeof *strs; i++) {
            int type = t ? IX_T_NVARCHAR : IX_T_VARCHAR;
            ixb_wbuf_reset(&vals);
            ixb_wbuf_reset(&grp);
            put_str(&vals, type, strs[i]);
            group(&grp, 0, 1, &vals);
            char w[80];
            snprintf(w, sizeof w, "type %d string %zu", type, strlen(strs[i]));
            CHECK(compare(grp.data, grp.len, w), "%s: taken", w);
            mangle(&grp, w);
        }
    /* the bench's row: INTEGER, VARCHAR, INTEGER, FLOAT, DATE; and all the
     * fixed ones together */
    ixb_wbuf_reset(&vals);
    ixb_wbuf_reset(&grp);
    be(v, 42, 4);
    put_val(&vals, IX_T_INTEGER, IXP_IND_VALUE, 0, v, 4);
    put_str(&vals, IX_T_VARCHAR, "name_000042");
    put_val(&vals, IX_T_INTEGER, IXP_IND_VALUE, 0, v, 4);
    be(v, 0x3ff0000000000000ull, 8);
    put_val(&vals, IX_T_FLOAT, IXP_IND_VALUE, 0, v, 8);
    be(v, 45000, 4);
    put_val(&vals, IX_T_DATE, IXP_IND_VALUE, 0, v, 4);
    group(&grp, 1, 5, &vals);
    CHECK(compare(grp.data, grp.len, "row"), "the bench's row is taken");
    mangle(&grp, "row");
    /* two groups back to back, and a group followed by another message */
    ixb_wbuf two;
    ixb_wbuf_init(&two, NULL);
    ixb_put_bytes(&two, grp.data, grp.len);
    ixb_put_bytes(&two, grp.data, grp.len);
    CHECK(compare(two.data, two.len, "two groups"), "the first of two groups is taken");
    ixb_wbuf_reset(&two);
    ixb_put_bytes(&two, grp.data, grp.len - 2);
    ixp_enc_tag(&two, IXP_SQ_EXECUTE);
    ixp_enc_tag(&two, IXP_SQ_EOT);
    CHECK(!compare(two.data, two.len, "EXECUTE twice"), "a group with two EXECUTEs is not taken");
    ixb_wbuf_free(&two);
    ixb_wbuf_free(&vals);
    ixb_wbuf_free(&grp);
}

/* Values the fast form leaves to the general decoder, counts out of range,
 * lengths past the message, an unknown indicator. */
static void test_refused(void) {
    uint8_t v[32] = {0};
    ixb_wbuf vals, grp;
    ixb_wbuf_init(&vals, NULL);
    ixb_wbuf_init(&grp, NULL);
    struct {
        int type, ind;
        size_t n;
        const char *what;
    } other[] = {
        {IX_T_INT8, IXP_IND_VALUE, 10, "INT8"},       {IX_T_SERIAL8, IXP_IND_VALUE, 10, "SERIAL8"},
        {IX_T_BYTE, IXP_IND_VALUE, 4, "BYTE inline"}, {IX_T_INTEGER, 5, 0, "unknown indicator"},
        {IX_T_BOOLEAN, IXP_IND_VALUE, 1, "BOOLEAN"},
    };
    for (size_t i = 0; i < sizeof other / sizeof *other; i++) {
        ixb_wbuf_reset(&vals);
        ixb_wbuf_reset(&grp);
        put_val(&vals, other[i].type, other[i].ind, 0, v, other[i].n);
        group(&grp, 0, 1, &vals);
        CHECK(!compare(grp.data, grp.len, other[i].what), "%s: left to the general decoder",
              other[i].what);
        mangle(&grp, other[i].what);
    }
    /* CHAR, DECIMAL and DATETIME have a fast form in the decoder: taken */
    ixb_wbuf_reset(&vals);
    ixb_wbuf_reset(&grp);
    put_str(&vals, IX_T_CHAR, "abc");
    uint8_t dec[6] = {0, 4, 0xc1, 12, 34, 0};
    put_val(&vals, IX_T_DECIMAL, IXP_IND_VALUE, 0x1002, dec, 5);
    put_val(&vals, IX_T_DATETIME, IXP_IND_VALUE, 0x0d0a, dec, 5);
    group(&grp, 0, 3, &vals);
    CHECK(compare(grp.data, grp.len, "CHAR, DECIMAL, DATETIME"), "CHAR, DECIMAL, DATETIME taken");
    mangle(&grp, "CHAR, DECIMAL, DATETIME");
    /* counts: 0, more than given, negative, past max_columns */
    int counts[] = {0, 2, -1, 32767, 40000};
    be(v, 5, 4);
    for (size_t i = 0; i < sizeof counts / sizeof *counts; i++) {
        ixb_wbuf_reset(&vals);
        ixb_wbuf_reset(&grp);
        put_val(&vals, IX_T_INTEGER, IXP_IND_VALUE, 0, v, 4);
        group(&grp, 0, counts[i], &vals);
        char w[64];
        snprintf(w, sizeof w, "count %d", counts[i]);
        CHECK(!compare(grp.data, grp.len, w), "%s: not taken", w);
    }
    /* a VARCHAR length past the message, a negative one, one past max_value */
    uint16_t lens[] = {200, 0x8001, 0xffff};
    for (size_t i = 0; i < sizeof lens / sizeof *lens; i++) {
        ixb_wbuf_reset(&vals);
        ixb_wbuf_reset(&grp);
        uint8_t s[6] = {(uint8_t)(lens[i] >> 8), (uint8_t)lens[i], 'a', 'b', 'c', 'd'};
        put_val(&vals, IX_T_VARCHAR, IXP_IND_VALUE, 0, s, 6);
        group(&grp, 0, 1, &vals);
        char w[64];
        snprintf(w, sizeof w, "VARCHAR length %u", lens[i]);
        CHECK(!compare(grp.data, grp.len, w), "%s: not taken", w);
    }
    /* a reader's own limits: max_value below a value's length */
    ixb_wbuf_reset(&vals);
    ixb_wbuf_reset(&grp);
    put_str(&vals, IX_T_VARCHAR, "abcdefgh");
    group(&grp, 0, 1, &vals);
    ixp_reader r;
    reader(&r, grp.data, grp.len);
    r.lim.max_value = 4;
    ixp_bind_group g;
    CHECK(!ixp_reader_bind_group(&r, &g), "a value past the reader's max_value is not taken");
    ixp_msg m;
    ixp_reader_next(&r, &m);
    CHECK(ixp_reader_next(&r, &m) != IX_OK, "and the general decoder refuses it");
    ixp_reader_free(&r);
    /* the client's role, a login expected, a sticky error: never */
    reader(&r, grp.data, grp.len);
    r.role = IXP_FROM_SERVER;
    CHECK(!ixp_reader_bind_group(&r, &g), "not for messages a server sends");
    r.role = IXP_FROM_CLIENT;
    r.expect_login = 1;
    CHECK(!ixp_reader_bind_group(&r, &g), "not before the login");
    ixp_reader_free(&r);
    ixb_wbuf_free(&vals);
    ixb_wbuf_free(&grp);
}

int main(void) {
    test_types();
    test_refused();
    printf("# %d byte strings compared, %d taken by the fast entry\n", ncompared, ntaken);
    CHECK(ntaken > 50 && ncompared > 5000, "the comparison ran");
    return tap_done();
}
