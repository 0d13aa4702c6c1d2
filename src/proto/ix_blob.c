/*
 * ix_blob.c: the BYTE/TEXT insert form (layout and sources: ix_blob.h and
 * docs/protocol.md "BYTE and TEXT values: the insert path").
 */
#include "proto/ix_blob.h"

#include <string.h>

#include "types/ix_types.h"

/* Writes the descriptor at o; returns the byte after it. */
uint8_t *ixp_blobdesc_put(uint8_t *o, uint32_t size) {
    memset(o, 0, IXP_BLOBDESC_LEN);
    ixb_st32(o + IXP_BLOBDESC_SIZE_AT, size);
    return o + IXP_BLOBDESC_LEN;
}

/* IX_OK with the size and NULL flag, or IX_EMALFORMED (see ix_blob.h). */
int ixp_blobdesc_get(const uint8_t *p, size_t n, uint32_t *size, int *is_null) {
    if (n != IXP_BLOBDESC_LEN) return IX_EMALFORMED;
    uint32_t v = ixb_be32(p + IXP_BLOBDESC_SIZE_AT);
    if (v > INT32_MAX) return IX_EMALFORMED;
    *size = v;
    *is_null = (p[IXP_BLOBDESC_NULL_AT] & IXP_BLOBDESC_NULL_FLAG) != 0;
    return IX_OK;
}

/* Chunk heads, the bytes, one pad byte for an odd last chunk, the end. */
size_t ixp_blob_stream_size(size_t n) {
    size_t chunks = (n + IXP_BLOB_CHUNK - 1) / IXP_BLOB_CHUNK;
    return chunks * IXP_BLOB_HEAD + n + (n & 1) + IXP_BLOB_HEAD;
}

/* Writes one chunk (head, bytes, pad); returns the byte after it. */
static uint8_t *chunk_put(uint8_t *o, const uint8_t *p, size_t n) {
    ixb_st16(o, IXP_SQ_BLOB);
    ixb_st16(o + 2, (uint16_t)n);
    o += IXP_BLOB_HEAD;
    if (n) memcpy(o, p, n);
    o += n;
    if (n & 1) *o++ = 0;
    return o;
}

/* Writes the chunks and the zero-length end; returns the end. */
uint8_t *ixp_blob_stream_put(uint8_t *o, const uint8_t *p, size_t n) {
    for (size_t at = 0; at < n; at += IXP_BLOB_CHUNK) {
        size_t k = n - at < IXP_BLOB_CHUNK ? n - at : IXP_BLOB_CHUNK;
        o = chunk_put(o, p + at, k);
    }
    return chunk_put(o, NULL, 0);
}

/* Writes SQ_BBIND, count; returns the byte after it. */
uint8_t *ixp_bbind_put(uint8_t *o, int count) {
    ixb_st16(o, IXP_SQ_BBIND);
    ixb_st16(o + 2, (uint16_t)count);
    return o + IXP_BBIND_LEN;
}

/* Appends SQ_BBIND; returns the buffer's sticky error. */
int ixp_enc_bbind(ixb_wbuf *out, int count) {
    ixb_put_i16(out, IXP_SQ_BBIND);
    ixb_put_i16(out, count);
    return out->err;
}

/* Appends a value's chunks and end; returns the buffer's sticky error. */
int ixp_enc_blob_stream(ixb_wbuf *out, const uint8_t *p, size_t n) {
    size_t need = ixp_blob_stream_size(n);
    if (ixb_wbuf_reserve(out, need) != IX_OK) return out->err;
    uint8_t *o = ixp_blob_stream_put(out->data + out->len, p, n);
    out->len = (size_t)(o - out->data);
    return out->err;
}

/* 1 for a descriptor item (see ix_blob.h), else 0. */
int ixp_bind_is_blobdesc(const ixp_bindval *v) {
    int code = v->type & 0xff;
    return (code == IX_T_BYTE || code == IX_T_TEXT) && v->indicator == IXP_IND_VALUE &&
           v->slot == IXP_BLOBDESC_LEN && v->value.n == IXP_BLOBDESC_LEN;
}
