/*
 * replay_script.h: what the client tests fed with scripted server bytes
 * share (test_replay.c, test_lob_replay.c): a memory transport that hands
 * out its input in chunks and keeps what the client sends, and the
 * recorded GBase login accept of messages.tsv (the caller loads T and sets
 * c_msg / c_hex). One translation unit per test program includes it.
 */
#ifndef IX_CLIENT_REPLAY_SCRIPT_H
#define IX_CLIENT_REPLAY_SCRIPT_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ix_buf.h"
#include "base/ix_hex.h"
#include "client/ix_client_int.h"
#include "tsv.h"

/* ---- a memory transport ---------------------------------------------------- */

typedef struct mem_tr {
    ixc_transport base;
    const uint8_t *in;
    size_t in_len, in_pos, chunk;
    ixb_wbuf *sent; /* owned by the test, outlives the transport */
} mem_tr;

static long mem_send(ixc_transport *t, const void *p, size_t n) {
    mem_tr *m = (mem_tr *)t;
    ixb_put_bytes(m->sent, p, n);
    return (long)n;
}

static long mem_recv(ixc_transport *t, void *p, size_t n) {
    mem_tr *m = (mem_tr *)t;
    size_t k = m->in_len - m->in_pos;
    if (k > m->chunk) k = m->chunk;
    if (k > n) k = n;
    memcpy(p, m->in + m->in_pos, k);
    m->in_pos += k;
    return (long)k; /* 0 at the end: the peer closed */
}

static size_t mem_pending(ixc_transport *t) {
    (void)t;
    return 0;
}

static void mem_close(ixc_transport *t) {
    free(t);
}

static const ixc_transport_vt mem_vt = {mem_send, mem_recv, mem_pending, mem_close};

static ixc_transport *mem_new(const ixb_wbuf *in, size_t chunk, ixb_wbuf *sent) {
    mem_tr *m = calloc(1, sizeof *m);
    m->base.vt = &mem_vt;
    m->base.fd = -1;
    m->in = in->data;
    m->in_len = in->len;
    m->chunk = chunk;
    m->sent = sent;
    return &m->base;
}

/* ---- the recorded accept ------------------------------------------------------ */

static tsv_file T;
static int c_msg, c_hex;

static int load_hex(ixb_wbuf *w, const char *name) {
    for (int i = 0; i < T.nrows; i++) {
        tsv_row *r = &T.rows[i];
        if (r->ncols <= c_hex || strcmp(r->col[c_msg], name) != 0) continue;
        return ixb_hex_decode(r->col[c_hex], strlen(r->col[c_hex]), w, NULL) == IX_OK ? 0 : -1;
    }
    return -1;
}

static void filler_asc(ixb_wbuf *w, size_t total, const char *stem) {
    size_t chars = total - 3, k = strlen(stem);
    ixb_put_i16(w, (int)(chars + 1));
    for (size_t i = 0; i < chars; i++)
        ixb_put_u8(w, (uint8_t)stem[i % k]);
    ixb_put_u8(w, 0);
}

/* The GBase CONACC: segments 1-4 with the left-out personal fields filled
 * in as test_login.c does (same lengths as the capture). */
static int assemble_conacc(ixb_wbuf *w) {
    char name[64];
    int rc = 0;
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "CONACC (SL type 2) segment %d", i + 1);
        rc |= load_hex(w, name);
        if (i == 0) filler_asc(w, 16, "gbase_srv_000");
        if (i == 1) {
            filler_asc(w, 15, "server-host");
            ixb_put_i16(w, 0);
            filler_asc(w, 4, "/");
        }
        if (i == 2) filler_asc(w, 26, "/opt/gbase/bin/oninit");
    }
    return rc || w->err ? -1 : 0;
}

static const uint8_t answer[] = {0x00, 0x7e, 0x00, 0x0a, 0xff, 0xfc, 0x7f, 0xfc,
                                 0x3c, 0x00, 0x02, 0x03, 0x00, 0x00, 0x00, 0x0c};

#endif
