/*
 * The body shared by the message-decoder fuzz targets (one per role).
 * Input: byte 0 selects the granted capabilities and whether a login packet
 * comes first; the rest is the stream, fed to ixp_reader in chunks whose
 * sizes come from byte 1. Every decoded message is printed (which walks
 * DESCRIBE columns and formats TUPLE values with the value codecs) and
 * re-encoded; the re-encoding must decode to the same length and encode to
 * the same bytes again, or the target aborts.
 */
#include <stdlib.h>
#include <string.h>

#include "proto/ix_msg.h"
#include "proto/ix_print.h"
#include "proto/ix_reader.h"

static void check_reencode(const ixp_msg *m, ixp_role role, const ixp_caps *caps) {
    if (m->tag == IXP_MSG_LOGIN) return;
    ixb_wbuf a, b;
    ixb_wbuf_init(&a, NULL);
    ixb_wbuf_init(&b, NULL);
    if (ixp_msg_encode(&a, role, caps, m) != IX_OK) abort();
    if (a.len != m->len) abort();
    /* A trailing EOT, because a message may end with an optional word that
     * is only known to be absent once the next tag is seen (SQ_RBWORK). */
    ixb_put_i16(&a, IXP_SQ_EOT);
    ixp_msg m2;
    if (ixp_msg_decode(a.data, a.len, role, caps, NULL, &m2, NULL, NULL) != IX_OK) abort();
    a.len -= 2;
    if (m2.len != a.len || m2.tag != m->tag) abort();
    ixp_msg_encode(&b, role, caps, &m2);
    if (b.len != a.len || memcmp(a.data, b.data, a.len) != 0) abort();
    ixb_wbuf_free(&a);
    ixb_wbuf_free(&b);
}

/* The server's one-step decoder of an SQ_ID, SQ_BIND, SQ_EXECUTE, SQ_EOT
 * group (ixp_reader_bind_group) against the general decoder on the same
 * buffered bytes: when it takes a group, ixp_reader_next must decode the
 * same four messages and stop at the same place, or the target aborts.
 * Works on copies of the reader (neither entry reallocates its buffer). */
static void check_bind_group(const ixp_reader *r) {
    ixp_reader fast = *r, gen = *r;
    ixp_bind_group g;
    if (!ixp_reader_bind_group(&fast, &g)) {
        if (fast.start != r->start) abort();
        return;
    }
    static const int tags[4] = {IXP_SQ_ID, IXP_SQ_BIND, IXP_SQ_EXECUTE, IXP_SQ_EOT};
    for (int i = 0; i < 4; i++) {
        ixp_msg m;
        if (ixp_reader_next(&gen, &m) != IX_OK || m.tag != tags[i]) abort();
        if (i == 0 && (m.u.id != g.id || m.len != g.id_len)) abort();
        if (i == 1 && (m.u.bind.count != g.count || m.len != g.bind_len ||
                       m.u.bind.raw.p != g.raw.p || m.u.bind.raw.n != g.raw.n))
            abort();
    }
    if (gen.start != fast.start) abort();
}

static int fuzz_stream(const uint8_t *data, size_t size, ixp_role role) {
    if (size < 2) return 0;
    uint8_t sel = data[0], chunk = data[1];
    data += 2;
    size -= 2;
    ixp_caps caps = {.f54 = sel & 1,
                     .f62 = (sel >> 1) & 1,
                     .f63 = (sel >> 2) & 1,
                     .f69 = (sel >> 3) & 1,
                     .f70 = (sel >> 4) & 1};
    ixp_reader r;
    ixp_reader_init(&r, role, NULL);
    r.caps = caps;
    r.expect_login = (sel >> 5) & 1;
    r.lim.max_tuple = 1 << 16;
    r.lim.max_sql = 1 << 16;
    r.lim.max_value = 1 << 16;
    ixp_printer pr;
    ixp_printer_init(&pr, NULL);
    pr.caps = caps;
    ixb_wbuf line;
    ixb_wbuf_init(&line, NULL);
    size_t off = 0, step = chunk ? chunk : size;
    while (off < size) {
        size_t k = size - off < step ? size - off : step;
        if (ixp_reader_feed(&r, data + off, k) != IX_OK) break;
        off += k;
        ixp_msg m;
        int rc;
        for (;;) {
            if (role == IXP_FROM_CLIENT) check_bind_group(&r);
            if ((rc = ixp_reader_next(&r, &m)) != IX_OK) break;
            ixb_wbuf_reset(&line);
            ixp_print_msg(&pr, role, &m, &line);
            check_reencode(&m, role, &caps);
        }
        if (rc != IX_NEED_MORE) break;
    }
    ixb_wbuf_free(&line);
    ixp_printer_free(&pr);
    ixp_reader_free(&r);
    return 0;
}
