/* fuzz_ts_elem.c: libFuzzer target for the TimeSeries element text, the
 * packed head element, timestamps and intervals (src/server/ts/ts_elem.c,
 * ts_time.c).
 *
 * Input layout:
 *   byte 0   row type selector (index into rowtypes[])
 *   rest     element text ("ts|v1|v2|...") and also packed element bytes,
 *            timestamp text and interval text
 *
 * Properties (abort() on violation):
 *   - nothing reads outside the input (ASan);
 *   - an element that parses formats as element text that parses again to
 *     the same values (doubles bit for bit, NaN as NaN);
 *   - an element packs and unpacks to the same values;
 *   - a timestamp that parses formats with 6 fraction digits to text that
 *     parses to the same microseconds.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/ts/ts_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define F5 ((uint32_t)(19 << 8 | IXT_TU_YEAR << 4 | IXT_TU_F(5)))

static const ts_rowtype rowtypes[] = {
    {"r3",
     4,
     {{"ts", IX_T_DATETIME, F5},
      {"m1", IX_T_FLOAT, 8},
      {"m2", IX_T_FLOAT, 8},
      {"m3", IX_T_FLOAT, 8}}},
    {"ints",
     5,
     {{"ts", IX_T_DATETIME, F5},
      {"a", IX_T_SMALLINT, 2},
      {"b", IX_T_INTEGER, 4},
      {"c", IX_T_INT8, 10},
      {"d", IX_T_BIGINT, 8}}},
    {"dec",
     4,
     {{"ts", IX_T_DATETIME, F5},
      {"g", IX_T_DECIMAL, 10 << 8 | 2},
      {"h", IX_T_DECIMAL, 16 << 8 | 0xff},
      {"e", IX_T_SMALLFLOAT, 4}}},
};

static int same_val(const ts_field *f, const ts_val *a, const ts_val *b) {
    if (a->null != b->null) return 0;
    if (a->null) return 1;
    int k = ixts_field_kind(f);
    if (k == TS_K_F64 || k == TS_K_F32) {
        if (isnan(a->d)) return isnan(b->d);
        return memcmp(&a->d, &b->d, sizeof a->d) == 0;
    }
    if (k == TS_K_DEC) {
        /* the same number; the text form keeps the scale */
        return a->i == b->i && a->scale == b->scale;
    }
    return a->i == b->i;
}

static void check_elem(const ts_rowtype *rt, const char *s, size_t n) {
    ts_elem el, el2, el3;
    ixv_err e;
    if (ixts_elem_parse(rt, s, n, &el, &e)) return;
    sb t = {0};
    ixts_elem_text(rt, &el, &t);
    if (t.oom) abort();
    if (ixts_elem_parse(rt, t.p, t.n, &el2, &e)) abort();
    if (el2.t != el.t) abort();
    for (int m = 1; m < rt->nf; m++)
        if (!same_val(&rt->f[m], &el.v[m - 1], &el2.v[m - 1])) abort();
    ixv_sb_free(&t);
    uint8_t buf[TS_PACK_MAX];
    size_t pn = ixts_elem_pack(rt, &el, buf);
    if (ixts_elem_unpack(rt, buf, pn, &el3)) abort();
    for (int m = 1; m < rt->nf; m++)
        if (!same_val(&rt->f[m], &el.v[m - 1], &el3.v[m - 1])) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const ts_rowtype *rt = &rowtypes[data[0] % (sizeof rowtypes / sizeof rowtypes[0])];
    const char *s = (const char *)data + 1;
    size_t n = size - 1;
    check_elem(rt, s, n);
    /* arbitrary bytes as a packed element */
    ts_elem el;
    ixts_elem_unpack(rt, data + 1, n, &el);
    /* timestamps and intervals */
    int64_t us, iv;
    ixv_err e;
    if (ixts_time_parse(s, n, &us, &e) == 0) {
        char b[TS_TIME_TEXT];
        size_t bl = ixts_time_format(us, 6, b);
        int64_t us2;
        if (ixts_time_parse(b, bl, &us2, &e) || us2 != us) abort();
    }
    if (ixts_interval_parse(s, n, &iv, &e) == 0) {
        if (iv <= 0) abort();
        char b[64];
        ixts_interval_format(iv, b, sizeof b);
        int64_t iv2;
        if (ixts_interval_parse(b, strlen(b), &iv2, &e) || iv2 != iv) abort();
    }
    return 0;
}
