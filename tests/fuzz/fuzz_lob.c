/*
 * libFuzzer target: the smart-LOB decoders (src/proto/ix_lob.c). Byte 0
 * picks what the rest is: bit 0 the role of an SQ_LODATA message (the tag is
 * prepended), bit 1 a tuple value instead, bit 2 a bind value, bit 3 an
 * SQ_FILE message instead of SQ_LODATA, bit 4 a fast-path message instead
 * (bits 5-6 pick 101, 102 or 103; 3 is 101 again). A decoded
 * message must re-encode to the same bytes; a decoded handle must encode
 * back to the bytes it came from.
 */
#include <stdlib.h>
#include <string.h>

#include "proto/ix_fastpath.h"
#include "proto/ix_lob.h"
#include "proto/ix_msg.h"

static void lodata(const uint8_t *p, size_t n, ixp_role role, int tag) {
    ixb_wbuf in, out;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&out, NULL);
    ixb_put_i16(&in, tag);
    ixb_put_bytes(&in, p, n);
    ixp_caps caps = {0};
    ixp_msg m;
    if (ixp_msg_decode(in.data, in.len, role, &caps, NULL, &m, NULL, NULL) == IX_OK) {
        if (m.tag != tag || m.len > in.len) abort();
        int names = tag == IXP_SQ_FILE && role == IXP_FROM_SERVER &&
                    m.u.file.op <= IXP_FILE_OPEN_WRITE; /* the data is a name, not chunks */
        size_t pos = 0, total = 0;
        ixp_bytes c;
        while (!names && ixp_lodata_chunk(&m.u.lodata, &pos, &c)) {
            if (c.p + c.n > in.data + in.len) abort();
            total += c.n;
        }
        /* a read reply's chunks may stop short of its size (ix_lob.h) */
        int reply = tag == IXP_SQ_LODATA && role == IXP_FROM_SERVER;
        if (!names && m.u.lodata.data.n &&
            (reply ? total > (size_t)m.u.lodata.length : total != (size_t)m.u.lodata.length))
            abort();
        if (names && m.u.file.data.n != (size_t)m.u.file.length + (m.u.file.length & 1)) abort();
        if (ixp_msg_encode(&out, role, &caps, &m) != IX_OK) abort();
        if (out.len != m.len || memcmp(out.data, in.data, m.len) != 0) abort();
    }
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&out);
}

static void tuple(const uint8_t *p, size_t n) {
    int is_null = 0;
    ixp_locator l;
    size_t used = 0;
    if (ixp_lob_tuple_decode(p, n, &is_null, &l, &used) != IX_OK) return;
    if (used > n) abort();
    ixb_wbuf out;
    ixb_wbuf_init(&out, NULL);
    ixp_lob_tuple_encode(&out, is_null ? NULL : &l);
    if (out.len != used || memcmp(out.data, p, used) != 0) abort(); /* one form per handle */
    ixb_wbuf_free(&out);
}

/* Walks the value records of a decoded fast-path message: each must lie
 * inside the input and there must be exactly `count` of them. */
static void fp_walk(const ixp_bytes *recs, int count, const ixb_wbuf *in) {
    size_t pos = 0;
    ixp_fpvalue v;
    int k = 0;
    while (ixp_fp_value_next(recs, &pos, &v)) {
        if (v.data.n && (v.data.p < in->data || v.data.p + v.data.n > in->data + in->len)) abort();
        k++;
    }
    if (k != count || pos != recs->n) abort();
}

/* Decodes p[0..n) behind the fast-path tag `tag` as `role` sent it; a
 * decoded message must walk cleanly and re-encode to its own bytes. */
static void fastpath(const uint8_t *p, size_t n, ixp_role role, int tag) {
    ixb_wbuf in, out;
    ixb_wbuf_init(&in, NULL);
    ixb_wbuf_init(&out, NULL);
    ixb_put_i16(&in, tag);
    ixb_put_bytes(&in, p, n);
    ixp_caps caps = {0};
    ixp_limits lim = {.max_value = 1 << 16};
    ixp_msg m;
    if (ixp_msg_decode(in.data, in.len, role, &caps, &lim, &m, NULL, NULL) == IX_OK) {
        if (m.tag != tag || m.len > in.len) abort();
        if (tag == IXP_SQ_EXFPROUTINE) fp_walk(&m.u.exfp.args, m.u.exfp.nargs, &in);
        if (tag == IXP_SQ_FPROUTINE) fp_walk(&m.u.fpresult.vals, m.u.fpresult.count, &in);
        if (ixp_msg_encode(&out, role, &caps, &m) != IX_OK) abort();
        if (out.len != m.len || memcmp(out.data, in.data, m.len) != 0) abort();
    }
    ixb_wbuf_free(&in);
    ixb_wbuf_free(&out);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    uint8_t sel = data[0];
    static const int fp_tags[] = {IXP_SQ_GETROUTINE, IXP_SQ_EXFPROUTINE, IXP_SQ_FPROUTINE,
                                  IXP_SQ_GETROUTINE};
    if (sel & 16)
        fastpath(data + 1, size - 1, (sel & 1) ? IXP_FROM_SERVER : IXP_FROM_CLIENT,
                 fp_tags[(sel >> 5) & 3]);
    else if (sel & 2)
        tuple(data + 1, size - 1);
    else
        lodata(data + 1, size - 1, (sel & 1) ? IXP_FROM_SERVER : IXP_FROM_CLIENT,
               (sel & 8) ? IXP_SQ_FILE : IXP_SQ_LODATA);
    return 0;
}
