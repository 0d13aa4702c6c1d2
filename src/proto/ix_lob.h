/*
 * ix_lob.h: smart large objects (BLOB, CLOB) in the codec: the LO handle
 * ("locator") inside tuples and binds, and SQ_LODATA (97), the message that
 * moves a smart LOB's bytes, in both roles. Evidence and choices:
 * docs/protocol.md, "Smart large objects".
 */
#ifndef IXP_LOB_H
#define IXP_LOB_H

#include <stddef.h>
#include <stdint.h>

#include "base/ix_buf.h"
#include "proto/ix_msg.h"

/* LO open flags (IBMH locator.h; the same values in infxcli.h). */
enum {
    IXP_LO_APPEND = 0x1,
    IXP_LO_WRONLY = 0x2,
    IXP_LO_RDONLY = 0x4,
    IXP_LO_RDWR = 0x8,
};

/* Seek origins (IBMH: LO_SEEK_SET / CUR / END). */
enum { IXP_LO_SEEK_SET = 0, IXP_LO_SEEK_CUR = 1, IXP_LO_SEEK_END = 2 };

/* SQ_LODATA operations (§3.15, single restricted source). */
enum { IXP_LO_OP_READ = 0, IXP_LO_OP_READSEEK = 1, IXP_LO_OP_WRITE = 2 };

/* Extended type ids of the two smart-LOB types (IBMH; sysxtdtypes). */
enum { IXP_LO_XID_BLOB = 10, IXP_LO_XID_CLOB = 11 };

#define IXP_LOCATOR_LEN 72    /* the LO handle in a tuple (§3.15) */
#define IXP_LO_BUFSIZE  32000 /* the transfer buffer the request names (§3.15) */
#define IXP_LO_CHUNK    32766 /* largest chunk: an i16 length, even */

/* The LO handle as ixd fills it. The 72 bytes are opaque to every client
 * (IBM: "ifx_lo_t is an opaque structure"); this is ixd's content. */
typedef struct ixp_locator {
    int kind;   /* IXP_LO_XID_BLOB or IXP_LO_XID_CLOB */
    int64_t id; /* the LO's number in its database (> 0) */
} ixp_locator;

/* Writes the 72 handle bytes of *l into out. */
void ixp_locator_encode(const ixp_locator *l, uint8_t out[IXP_LOCATOR_LEN]);
/* Reads a handle from p[0..n): IX_OK, or IX_EMALFORMED when n is not 72, the
 * format word is not ixd's, the kind is neither BLOB nor CLOB, or the id is
 * not positive. */
int ixp_locator_decode(const uint8_t *p, size_t n, ixp_locator *l);

/* A BLOB/CLOB value in a tuple (the UDT envelope around the handle):
 * value `00, i32 72, handle`; NULL `01 00 00 00 00`. ixp_lob_tuple_encode
 * appends one (l NULL: the NULL form). ixp_lob_tuple_decode reads one at the
 * start of p[0..n): IX_OK with *is_null and (when not NULL) *l set and *used
 * the bytes it took, IX_NEED_MORE when n is too short, IX_EMALFORMED for
 * anything else. */
void ixp_lob_tuple_encode(ixb_wbuf *out, const ixp_locator *l);
int ixp_lob_tuple_decode(const uint8_t *p, size_t n, int *is_null, ixp_locator *l, size_t *used);

/* A BLOB/CLOB bind value (the bytes after indicator and slot): i16 72, the
 * handle. kind picks the extended name written before the indicator
 * ("blob"/"clob"). Appends the whole BIND item for one value (type 41,
 * owner "informix", name, indicator, slot 72, value, pad); l NULL binds NULL.
 * ixp_lob_bind_value reads the handle of a decoded bind value. */
void ixp_lob_bind_item(ixb_wbuf *out, int kind, const ixp_locator *l);
int ixp_lob_bind_value(const ixp_bindval *v, ixp_locator *l);
/* 1 when an extended type name (not NUL-terminated) is blob or clob (any
 * case); *kind gets its extended id. */
int ixp_lob_xname(const uint8_t *p, size_t n, int *kind);

/* ---- SQ_LODATA --------------------------------------------------------------
 * Request (client -> server), after the tag:
 * | i16 op | i16 fd | i32 length | i16 bufsize | op 1: i64 offset, i16 whence |
 * | op 2: chunks { i16 n (1..32766), n bytes, pad } whose n add up to length |
 * Reply (server -> client), after the tag:
 * | i16 op | i32 size | op 0/1: chunks as above adding up to size |
 * (op 2: size is the number of bytes written, no chunks.) */
/* ixp_lodata (the decoded message) is in ix_msg.h: a member of ixp_msg. */

/* Decoders used by ixp_msg_decode for tag 97 (body after the tag; r's
 * status set on failure). A length above lim->max_value is IX_ELIMIT. */
void ixp_rd_lodata(ixb_rbuf *r, ixp_role role, const ixp_limits *lim, ixp_lodata *d);
/* Walks the chunks of a decoded message: *pos starts at 0; returns 1 with the
 * next chunk's bytes, 0 after the last. */
int ixp_lodata_chunk(const ixp_lodata *d, size_t *pos, ixp_bytes *chunk);

/* Encoders. A request to read n bytes (op 0), or to read n bytes after a seek
 * (op 1); a write request carrying p[0..n) in chunks; the server's reply with
 * p[0..n) (read ops) or the written count (op 2, p NULL). IX_EINVAL for n
 * above INT32_MAX or a negative fd, else the buffer's sticky error. */
int ixp_enc_lo_read(ixb_wbuf *out, int fd, int32_t n);
int ixp_enc_lo_readseek(ixb_wbuf *out, int fd, int32_t n, int64_t offset, int whence);
int ixp_enc_lo_write(ixb_wbuf *out, int fd, const void *p, size_t n);
int ixp_enc_lo_reply(ixb_wbuf *out, int op, const void *p, size_t n);
/* Re-encodes a decoded message (ixp_msg_encode). */
void ixp_wr_lodata(ixb_wbuf *out, ixp_role role, const ixp_lodata *d);

/* Appends the printed form of a decoded SQ_LODATA (ixp_print_msg, ixwire):
 * " op=read fd=3 length=100 bufsize=32000 [offset=.. whence=..] [data=N bytes in K chunks]". */
void ixp_lob_print(const ixp_lodata *d, ixp_role role, ixb_wbuf *out);

#endif /* IXP_LOB_H */
