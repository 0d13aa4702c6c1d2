/* fuzz_value.c: libFuzzer target for the value codec (src/types).
 *
 * Input layout:
 *   byte 0     type selector (index into kinds[])
 *   bytes 1-2  encoded_length selector (mapped onto a legal value per type)
 *   byte 3     bit 0: IXT_VF_F70; bits 1-2: DBDATE choice; bit 3: DBMONEY
 *   rest       payload: tuple bytes, and also bind bytes and text
 *
 * Properties (abort() on violation):
 *   - extent, is_null, format never read outside the value (ASan);
 *   - a value that formats must re-parse, and the re-parsed bytes must
 *     format to the same text;
 *   - a value that converts to bind bytes must convert back to a tuple that
 *     formats to the same text;
 *   - whatever ixt_value_parse / ixt_value_from_bind accept must format.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "types/ix_datetime.h"
#include "types/ix_decimal.h"
#include "types/ix_types.h"
#include "types/ix_value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int kinds[] = {
    IX_T_CHAR,     IX_T_SMALLINT, IX_T_INTEGER, IX_T_FLOAT,     IX_T_SMALLFLOAT, IX_T_DECIMAL,
    IX_T_SERIAL,   IX_T_DATE,     IX_T_MONEY,   IX_T_DATETIME,  IX_T_BYTE,       IX_T_TEXT,
    IX_T_VARCHAR,  IX_T_INTERVAL, IX_T_NCHAR,   IX_T_NVARCHAR,  IX_T_INT8,       IX_T_SERIAL8,
    IX_T_LVARCHAR, IX_T_BOOLEAN,  IX_T_BIGINT,  IX_T_BIGSERIAL, IX_T_UDTVAR,     IX_T_UDTFIXED,
    IX_T_SET,      IX_T_NULL,
};

static uint32_t dt_quals[IXT_DT_NQUALS], iv_quals[IXT_IV_NQUALS];

static ixt_vtype pick_type(const uint8_t *d) {
    ixt_vtype t;
    unsigned sel = (unsigned)d[1] << 8 | d[2];
    t.code = kinds[d[0] % (sizeof kinds / sizeof kinds[0])];
    t.enclen = sel;
    switch (t.code) {
    case IX_T_DATETIME: t.enclen = dt_quals[sel % IXT_DT_NQUALS]; break;
    case IX_T_INTERVAL: t.enclen = iv_quals[sel % IXT_IV_NQUALS]; break;
    case IX_T_DECIMAL:
    case IX_T_MONEY: {
        unsigned p = 1 + d[1] % 32, s = d[2] == 0xff ? 0xff : d[2] % (p + 1);
        t.enclen = p << 8 | s;
        break;
    }
    case IX_T_CHAR:
    case IX_T_NCHAR: t.enclen = 1 + sel % 40; break;
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR: t.enclen = sel & 0xff; break;
    case IX_T_LVARCHAR: t.enclen = sel % 300; break;
    default: break;
    }
    return t;
}

static int text_eq(const ixb_wbuf *a, const ixb_wbuf *b) {
    return a->len == b->len && (a->len == 0 || memcmp(a->data, b->data, a->len) == 0);
}

/* Formats value bytes from an exact-size heap copy (so ASan sees any
 * over-read). */
static int format_copy(ixt_vtype t, const uint8_t *p, size_t n, const ixt_fmt *f, ixb_wbuf *out) {
    uint8_t *c = malloc(n ? n : 1);
    if (!c) abort();
    if (n) memcpy(c, p, n);
    int rc = ixt_value_format(t, c, n, f, out);
    free(c);
    return rc;
}

/* text -> bytes -> text must be stable. */
static void check_reparse(ixt_vtype t, const ixb_wbuf *text, const ixt_fmt *f) {
    ixb_wbuf b, t2;
    ixb_wbuf_init(&b, NULL);
    ixb_wbuf_init(&t2, NULL);
    int rc = ixt_value_parse(t, (const char *)text->data, text->len, f, &b);
    if (rc != IX_OK) abort();
    rc = format_copy(t, b.data, b.len, f, &t2);
    if (rc != IX_OK) abort();
    if (!text_eq(text, &t2)) abort();
    ixb_wbuf_free(&b);
    ixb_wbuf_free(&t2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    static int init;
    if (!init) {
        ixt_dt_qual_list(dt_quals);
        ixt_iv_qual_list(iv_quals);
        init = 1;
    }
    if (size < 4) return 0;
    static const char *const dbdates[] = {NULL, "Y4MD-", "DMY4.", "MDY40"};
    ixt_fmt fmt = {dbdates[(data[3] >> 1) & 3], (data[3] & 8) ? "DM," : NULL};
    unsigned flags = data[3] & 1 ? IXT_VF_F70 : 0;
    ixt_vtype t = pick_type(data);
    const uint8_t *p = data + 4;
    size_t n = size - 4;
    ixb_wbuf text, bind, back, t2;
    ixb_wbuf_init(&text, NULL);
    ixb_wbuf_init(&bind, NULL);
    ixb_wbuf_init(&back, NULL);
    ixb_wbuf_init(&t2, NULL);

    /* 1. The payload as tuple bytes. */
    size_t used = 0;
    int rc = ixt_value_extent(t, p, n, 4096, flags, &used);
    if (rc == IX_OK) {
        if (used > n) abort();
        (void)ixt_value_is_null(t, p, used);
        rc = format_copy(t, p, used, &fmt, &text);
        if (rc == IX_OK && t.code != IX_T_BYTE && t.code != IX_T_TEXT) {
            check_reparse(t, &text, &fmt);
            /* tuple -> bind -> tuple keeps the value */
            if (ixt_value_to_bind(t, p, used, &bind) == IX_OK) {
                if (ixt_value_from_bind(t, bind.data, bind.len, &back) != IX_OK) abort();
                if (format_copy(t, back.data, back.len, &fmt, &t2) != IX_OK) abort();
                if (!text_eq(&text, &t2)) abort();
            }
        } else if (rc == IX_NULL_VALUE) {
            if (text.len) abort();
            if (ixt_value_to_bind(t, p, used, &bind) != IX_NULL_VALUE) abort();
        }
    }

    /* 2. The payload as bind bytes: whatever is accepted must format. */
    ixb_wbuf_reset(&back);
    ixb_wbuf_reset(&t2);
    if (ixt_value_from_bind(t, p, n, &back) == IX_OK) {
        rc = format_copy(t, back.data, back.len, &fmt, &t2);
        if (rc != IX_OK) abort();
    }

    /* 3. The payload as text: whatever is accepted must format and be
     * stable from then on. */
    ixb_wbuf_reset(&back);
    ixb_wbuf_reset(&t2);
    if (ixt_value_parse(t, (const char *)p, n, &fmt, &back) == IX_OK) {
        rc = format_copy(t, back.data, back.len, &fmt, &t2);
        if (rc != IX_OK) abort();
        check_reparse(t, &t2, &fmt);
    }

    /* 4. The low-level decoders directly. */
    ixt_decimal d;
    ixt_datetime dt;
    ixt_interval iv;
    size_t k = n < IXT_DEC_MAXPAIRS + 1 ? n : IXT_DEC_MAXPAIRS + 1;
    if (ixt_dec_decode(&d, p, k) == IX_OK) {
        ixb_wbuf_reset(&t2);
        if (ixt_dec_to_text(&d, -1, &t2) != IX_OK) abort();
        ixt_decimal d2;
        if (ixt_dec_from_text(&d2, (const char *)t2.data, t2.len) != IX_OK) abort();
        if (ixt_dec_cmp(&d, &d2) != 0) abort();
        ixb_wbuf_reset(&bind);
        if (ixt_dec_encode_bind(&d, &bind) != IX_OK) abort();
        if (ixt_dec_decode_bind(&d2, bind.data, bind.len, &used) != IX_OK || used != bind.len)
            abort();
        if (ixt_dec_cmp(&d, &d2) != 0) abort();
    }
    (void)ixt_dec_decode_bind(&d, p, n, &used);
    uint32_t q = dt_quals[data[1] % IXT_DT_NQUALS];
    k = ixt_qual_width(q);
    if (n >= k && ixt_dt_decode(q, p, k, &dt) == IX_OK) {
        ixb_wbuf_reset(&t2);
        if (ixt_dt_encode(q, &dt, &t2) != IX_OK) abort();
    }
    q = iv_quals[((unsigned)data[1] << 8 | data[2]) % IXT_IV_NQUALS];
    k = ixt_qual_width(q);
    if (n >= k && ixt_iv_decode(q, p, k, &iv) == IX_OK) {
        ixb_wbuf_reset(&t2);
        if (ixt_iv_encode(q, &iv, &t2) != IX_OK) abort();
    }
    (void)ixt_iv_decode_bind(q, p, n, &iv, &used);

    ixb_wbuf_free(&text);
    ixb_wbuf_free(&bind);
    ixb_wbuf_free(&back);
    ixb_wbuf_free(&t2);
    return 0;
}
