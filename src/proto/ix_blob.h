/*
 * ix_blob.h: BYTE and TEXT values on their way into the server, the form a
 * real server takes (docs/protocol.md "BYTE and TEXT values: the insert
 * path"):
 *
 *   SQ_BIND  ... | i16 11/12 | i16 0 | i16 56 | 56-byte descriptor | ...
 *   SQ_BBIND | i16 count of the values that follow |
 *   per value: SQ_BLOB chunks | i16 n (<= 1024) | n bytes | pad |,
 *              then a zero-length SQ_BLOB (00 27 00 00)
 *   SQ_EXECUTE (or SQ_OPEN), SQ_EOT
 *
 * The descriptor is zero except for the value's size (i32 at bytes 16..19);
 * a NULL goes as an ordinary NULL item (indicator -1, slot 0, no bytes) and
 * is not counted by SQ_BBIND. The decoder also takes a descriptor with the
 * NULL flag (byte 39, bit 0x01) as a NULL that has no data.
 *
 * Sizes and direct stores only: every function here writes into memory its
 * caller reserved (the sizes come from the _size functions) or into an
 * ixb_wbuf, and allocates nothing itself.
 */
#ifndef IXP_BLOB_H
#define IXP_BLOB_H

#include <stddef.h>
#include <stdint.h>

#include "base/ix_buf.h"
#include "proto/ix_msg.h"

#define IXP_BLOBDESC_LEN       56    /* the descriptor in SQ_BIND (and its slot value) */
#define IXP_BLOBDESC_SIZE_AT   16    /* i32 size of the value */
#define IXP_BLOBDESC_NULL_AT   39    /* NULL flag byte */
#define IXP_BLOBDESC_NULL_FLAG 0x01  /* the NULL bit of that byte */
#define IXP_BLOB_CHUNK         1024  /* largest SQ_BLOB chunk a client sends */
#define IXP_BLOB_CHUNK_MAX     32767 /* largest SQ_BLOB chunk the decoder takes */
#define IXP_BBIND_LEN          4     /* SQ_BBIND: tag, i16 count */
#define IXP_BLOB_HEAD          4     /* SQ_BLOB: tag, i16 length */

/* Writes the 56 descriptor bytes for a value of `size` bytes (NULL flag
 * clear) at o. Returns o + IXP_BLOBDESC_LEN. */
uint8_t *ixp_blobdesc_put(uint8_t *o, uint32_t size);

/* Reads a descriptor from p[0..n). Returns IX_OK with *size and *is_null
 * set, or IX_EMALFORMED when n is not IXP_BLOBDESC_LEN or the size is
 * negative. */
int ixp_blobdesc_get(const uint8_t *p, size_t n, uint32_t *size, int *is_null);

/* Bytes ixp_blob_stream_put writes for a value of n bytes: its chunks of at
 * most IXP_BLOB_CHUNK bytes, each padded to even, and the zero-length end. */
size_t ixp_blob_stream_size(size_t n);

/* Writes the SQ_BLOB chunks of p[0..n) and the zero-length end at o, which
 * has ixp_blob_stream_size(n) bytes of room. Returns the end of what it
 * wrote. */
uint8_t *ixp_blob_stream_put(uint8_t *o, const uint8_t *p, size_t n);

/* Writes SQ_BBIND with `count` values at o (IXP_BBIND_LEN bytes of room).
 * Returns o + IXP_BBIND_LEN. */
uint8_t *ixp_bbind_put(uint8_t *o, int count);

/* SQ_BBIND and a value's SQ_BLOB stream as appends to an ixb_wbuf. Each
 * returns the buffer's sticky error (IX_OK, IX_ENOMEM, IX_ELIMIT). A BIND
 * item carrying a descriptor is an ixp_bindval with slot IXP_BLOBDESC_LEN
 * and the descriptor as its value (ixp_enc_bind). */
int ixp_enc_bbind(ixb_wbuf *out, int count);
int ixp_enc_blob_stream(ixb_wbuf *out, const uint8_t *p, size_t n);

/* 1 when a BIND value is a BYTE/TEXT descriptor (type 11/12, indicator 0,
 * slot IXP_BLOBDESC_LEN; validated by the decoder), else 0. */
int ixp_bind_is_blobdesc(const ixp_bindval *v);

#endif
