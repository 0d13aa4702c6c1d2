/*
 * ix_fastpath.h: the fast-path routine messages in the codec, both roles:
 * SQ_GETROUTINE (101, look a routine up by signature), SQ_EXFPROUTINE (102,
 * call it by handle) and SQ_FPROUTINE (103, its result). Evidence:
 * docs/protocol.md, "Fast-path calls, LOB data and client files on a real
 * server" (the outline from two sources, the field widths from one).
 *
 * SQ_GETROUTINE request (client -> server), after the tag:
 * | u8 flag 0 | i32 n (1..4095) | n bytes signature | pad when n is odd | i16 fparam flag 0 |
 * The one-byte flag makes the message odd-sized: nothing here assumes the
 * stream stays even. The group's EOT follows as a message of its own.
 * SQ_GETROUTINE reply (server -> client), after the tag:
 * | CHAR database name | i32 routine handle (> 0) |
 * SQ_EXFPROUTINE (client -> server), after the tag:
 * | CHAR database name | i32 handle | i16 parameter count | i16 fparam flag 0 |
 * | i16 5 (SQ_BIND) | i16 count (0..64) | count value records |
 * SQ_FPROUTINE (server -> client), after the tag:
 * | i16 count (0..64) | count value records |
 * Value record (arguments and results alike):
 * | i16 type: low byte the type code, IXP_FP_DISTINCT the distinct flag           |
 * | CHAR owner, CHAR name: only when the code is >= 18 and not 52/53, or distinct |
 * | i16 indicator: 0, or -1 for NULL (then nothing more follows)                  |
 * | i16 precision                                                                 |
 * | data: UDT 40/41/44: i32 length, bytes, pad; INTEGER/SERIAL: i32; SMALLINT: i16 |
 * Any other type code is malformed (no source gives its data form here).
 * Pad bytes must be 0, and so must both flags, so that a decoded message
 * encodes back to its own bytes.
 */
#ifndef IXP_FASTPATH_H
#define IXP_FASTPATH_H

#include <stddef.h>
#include <stdint.h>

#include "base/ix_buf.h"
#include "proto/ix_msg.h"

#define IXP_FP_SIG_MAX    4095 /* longest signature taken in SQ_GETROUTINE */
#define IXP_FP_VALUES_MAX 64   /* most arguments or results in one message */
#define IXP_FP_NAME_MAX   128  /* longest type owner or type name (an identifier) */
#define IXP_LO_SPEC_LEN   596  /* the ifx_lo_spec argument of ifx_lo_create */

/* The type word of a value record: the code in the low byte, and the flag
 * of a distinct type. IXP_FP_T_SENDRECV (44) is how a UDT argument travels. */
enum {
    IXP_FP_TYPE_MASK = 0xff,
    IXP_FP_DISTINCT = 0x800,
    IXP_FP_T_SENDRECV = 44,
};

/* The signatures ixd answers and libixdb sends (the create for BLOB is
 * the exact string a public client sends; CLOB's is derived from it). */
#define IXP_FP_LO_CREATE_BLOB "function informix.ifx_lo_create( ifx_lo_spec,integer,blob)"
#define IXP_FP_LO_CREATE_CLOB "function informix.ifx_lo_create( ifx_lo_spec,integer,clob)"
#define IXP_FP_LO_CLOSE       "function informix.ifx_lo_close(integer)"

/* The magic at the start of an ifx_lo_spec (da da fe ed). */
#define IXP_LO_SPEC_MAGIC 0xdadafeedu

/* One value record, borrowing the bytes it was read from. */
typedef struct ixp_fpvalue {
    int type;              /* the i16 as sent (with IXP_FP_DISTINCT if distinct) */
    ixp_bytes owner, name; /* empty when not present */
    int is_null;
    int prec;
    int32_t i32;    /* INTEGER / SERIAL / SMALLINT value */
    ixp_bytes data; /* UDT bytes */
} ixp_fpvalue;

/* Returns 1 with *v filled from the record at *pos of recs (and *pos moved
 * past it), 0 at the end or on a record that does not parse. Records of a
 * decoded message were validated by the decoder, so there a 0 means the
 * end. *v borrows recs' bytes. */
int ixp_fp_value_next(const ixp_bytes *recs, size_t *pos, ixp_fpvalue *v);

/* Encoders; each appends to out and reports through its sticky error.
 * ixp_enc_getroutine: the request (no EOT). ixp_enc_getroutine_reply: the
 * server's answer. ixp_enc_exfp: the 102 header and the SQ_BIND header for
 * nargs values (the caller appends nargs records, then EOT).
 * ixp_enc_fpresult: the 103 header (the caller appends count records).
 * ixp_enc_fp_int: an INTEGER record. ixp_enc_fp_udt: a UDT record of type
 * `type` with the given owner and name (NULL: empty), p == NULL for NULL. */
void ixp_enc_getroutine(ixb_wbuf *out, const char *sig, size_t n);
void ixp_enc_getroutine_reply(ixb_wbuf *out, const char *db, size_t dbn, int32_t handle);
void ixp_enc_exfp(ixb_wbuf *out, const char *db, size_t dbn, int32_t handle, int nargs);
void ixp_enc_fpresult(ixb_wbuf *out, int count);
void ixp_enc_fp_int(ixb_wbuf *out, int32_t v);
void ixp_enc_fp_udt(ixb_wbuf *out, int type, const char *owner, const char *name, const void *p,
                    size_t n);

/* Decoders used by ixp_msg_decode (the body after the tag; r's status set
 * on failure: IX_EMALFORMED, IX_ELIMIT for a length above a limit,
 * IX_NEED_MORE when the input ends early). The results borrow r's bytes. */
void ixp_rd_getroutine(ixb_rbuf *r, ixp_role role, const ixp_limits *lim, ixp_getroutine *g);
void ixp_rd_exfp(ixb_rbuf *r, const ixp_limits *lim, ixp_exfp *e);
void ixp_rd_fpresult(ixb_rbuf *r, const ixp_limits *lim, ixp_fpresult *f);

/* Re-encoders used by ixp_msg_encode (the records are copied as they are). */
void ixp_wr_getroutine(ixb_wbuf *out, ixp_role role, const ixp_getroutine *g);
void ixp_wr_exfp(ixb_wbuf *out, const ixp_exfp *e);
void ixp_wr_fpresult(ixb_wbuf *out, const ixp_fpresult *f);

/* Printed forms for ixp_print_msg (appended to out):
 * 101 request ` sig="..."`, reply ` db="..." handle=N`;
 * 102 ` db="..." handle=N nparams=N count=N [values]`; 103 ` count=N [values]`. */
void ixp_fastpath_print(const ixp_msg *m, ixp_role role, ixb_wbuf *out);

#endif /* IXP_FASTPATH_H */
