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

#define IXP_LOCATOR_LEN  72    /* the LO handle in a tuple (§3.15) */
#define IXP_LO_BUFSIZE   32000 /* the transfer buffer the request names (§3.15) */
#define IXP_LO_CHUNK     32000 /* largest chunk sent: the buffer size the request names */
#define IXP_LO_CHUNK_MAX 32766 /* largest chunk accepted: an i16 length, even */

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
/* The envelope alone, the handle's 72 bytes left unread (a server other
 * than ixd fills them its own way): the same results as
 * ixp_lob_tuple_decode, with *h pointing at the handle inside p (not
 * NULL). */
int ixp_lob_tuple_split(const uint8_t *p, size_t n, int *is_null, const uint8_t **h, size_t *used);

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
 * | i16 op | i16 fd | i32 length | i16 bufsize | op 1: offset, i16 whence |
 * | op 2: chunks { i16 n (1..32000 sent, ..32766 taken), n bytes, pad } whose n add up to length |
 * The op 1 offset is a JDBC "long int", 10 bytes: i16 sign (1, or -1 for a
 * negative offset), u32 low word, u32 high word of the magnitude (the INT8
 * form; docs/protocol.md "SQ_LODATA (97)": the width from two sources, the
 * order from one).
 * Reply (server -> client), after the tag:
 * | i16 op | i32 size | op 0/1: chunks as above adding up to at most size |
 * (op 2: size is the number of bytes written, no chunks.) A real server may
 * state more in a read reply's size than it sends (the LO's size, LSQ), so
 * the decoder takes chunks up to min(size, lim->max_lo_read) -- a client
 * sets max_lo_read to what its read asked for -- or up to a zero-length
 * chunk, which ends the data (and stays in it); a chunk past that amount is
 * malformed. The size itself is not held to max_value there. */
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

/* ---- SQ_FILE (98): the client files of FILETOBLOB / FILETOCLOB / LOTOFILE -------------
 * Evidence: unresolved. The code 98 is named SQ_FILE in public message
 * tables (libsqli's name list); no public source shows its bytes, so this is
 * ixdb's own layout (docs/protocol.md, "Client files"). While such a call
 * runs, the server sends a request and waits for the client's reply; each is
 * one message with no EOT of its own.
 * Request (server -> client), after the tag:
 * | i16 op | i32 length | op OPEN_READ/OPEN_WRITE: the name, length bytes (1..4095), pad |
 * | op READ: length = bytes wanted (1..max_value) | op WRITE: chunks as SQ_LODATA's        |
 * | op CLOSE: length 0                                                                  |
 * Reply (client -> server), after the tag:
 * | i16 op (the request's) | i32 status | op READ with status > 0: chunks adding up to it |
 * status >= 0: done (READ: bytes sent, 0 at end of file; WRITE: bytes
 * written); < 0: one of IXP_FILE_E*, and the request failed. */
enum {
    IXP_FILE_OPEN_READ = 0,
    IXP_FILE_OPEN_WRITE = 1, /* create or truncate */
    IXP_FILE_READ = 2,
    IXP_FILE_WRITE = 3,
    IXP_FILE_CLOSE = 4,
};
enum {
    IXP_FILE_EREFUSED = -1, /* the application allows no client files (ix_set_client_files) */
    IXP_FILE_EOUTSIDE = -2, /* the name leaves the allowed directory */
    IXP_FILE_ENOENT = -3,   /* no such file */
    IXP_FILE_EIO = -4,      /* any other failure of the file */
    IXP_FILE_ESTATE = -5,   /* no file open, or one open already */
};
#define IXP_FILE_NAME_MAX 4095

/* Decoder for tag 98 (ixp_msg_decode); role IXP_FROM_SERVER reads a request,
 * IXP_FROM_CLIENT a reply. d->data holds the name (open: its first
 * d->length bytes, then the pad) or the chunks (walk them with
 * ixp_lodata_chunk). Unknown ops, lengths out of range and chunks
 * that do not add up are IX_EMALFORMED; a length above lim->max_value
 * IX_ELIMIT. */
void ixp_rd_file(ixb_rbuf *r, ixp_role role, const ixp_limits *lim, ixp_lodata *d);
void ixp_wr_file(ixb_wbuf *out, ixp_role role, const ixp_lodata *d);
/* Encoders: a request (name/p: the name for the opens, the bytes for
 * WRITE; n their length, or the bytes wanted for READ); a reply (p[0..n)
 * for a READ that succeeded, else status alone). IX_EINVAL on bad
 * arguments, else the buffer's sticky error. */
int ixp_enc_file_req(ixb_wbuf *out, int op, const void *p, size_t n);
int ixp_enc_file_reply(ixb_wbuf *out, int op, int32_t status, const void *p, size_t n);
void ixp_file_print(const ixp_lodata *d, ixp_role role, ixb_wbuf *out);

#endif /* IXP_LOB_H */
