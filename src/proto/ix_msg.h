/*
 * ix_msg.h: the SQLI post-login messages, for both roles (sans-I/O).
 *
 * After the login exchange every message is an i16 tag followed by a
 * tag-specific body; there is no length prefix, so a decoder must know every
 * tag it may meet (sqli-protocol.md §1). ixp_msg_decode turns bytes into one
 * typed ixp_msg; the ixp_enc_* functions turn values into bytes. Neither ever
 * touches a socket.
 *
 * Ownership: a decoded ixp_msg borrows the input bytes (every ixp_bytes points
 * into them); it is valid as long as those bytes are. Decoding allocates
 * nothing. Encoders append to an ixb_wbuf, whose sticky error reports
 * IX_ENOMEM / IX_ELIMIT once, at the end.
 */
#ifndef IXP_MSG_H
#define IXP_MSG_H

#include <stdint.h>

#include "base/ix_buf.h"
#include "ix_caps.h"
#include "types/ix_types.h"

/* Message tags (§1.1). */
enum {
    IXP_SQ_COMMAND = 1,
    IXP_SQ_PREPARE = 2,
    IXP_SQ_CURNAME = 3,
    IXP_SQ_ID = 4,
    IXP_SQ_BIND = 5,
    IXP_SQ_OPEN = 6,
    IXP_SQ_EXECUTE = 7,
    IXP_SQ_DESCRIBE = 8,
    IXP_SQ_NFETCH = 9,
    IXP_SQ_CLOSE = 10,
    IXP_SQ_RELEASE = 11,
    IXP_SQ_EOT = 12,
    IXP_SQ_ERR = 13,
    IXP_SQ_TUPLE = 14,
    IXP_SQ_DONE = 15,
    IXP_SQ_CMMTWORK = 19,
    IXP_SQ_RBWORK = 20,
    IXP_SQ_NDESCRIBE = 22,
    IXP_SQ_SFETCH = 23,
    IXP_SQ_SCROLL = 24,
    IXP_SQ_TUPID = 25,
    IXP_SQ_DBLIST = 26,
    IXP_SQ_BEGIN = 35,
    IXP_SQ_DBOPEN = 36,
    IXP_SQ_DBCLOSE = 37,
    IXP_SQ_FETCHBLOB = 38,
    IXP_SQ_BLOB = 39,  /* both roles; the insert form: src/proto/ix_blob.h */
    IXP_SQ_BBIND = 41, /* client: BYTE/TEXT values follow (ix_blob.h) */
    IXP_SQ_HOLD = 43,
    IXP_SQ_WANTDONE = 49,
    IXP_SQ_COST = 55,
    IXP_SQ_EXIT = 56,
    IXP_SQ_INFO = 81,
    IXP_SQ_INSERTDONE = 94,
    IXP_SQ_LODATA = 97, /* smart-LOB data, src/proto/ix_lob.h */
    IXP_SQ_FILE = 98,   /* client files of FILETOBLOB/LOTOFILE, src/proto/ix_lob.h */
    IXP_SQ_XACTSTAT = 99,
    IXP_SQ_RET_TYPE = 100,
    IXP_SQ_GETROUTINE = 101,  /* fast path: routine look-up, src/proto/ix_fastpath.h */
    IXP_SQ_EXFPROUTINE = 102, /* fast path: call by handle */
    IXP_SQ_FPROUTINE = 103,   /* fast path: the call's result */
    IXP_SQ_AUTOFREE = 108,
    IXP_SQ_PROTOCOLS = 126,
    IXP_SQ_ACCEPT = 127,
    IXP_SQ_ACK = 128,
    IXP_SQ_CHALLENGE = 129,
    IXP_SQ_RESPONSE = 130,
    IXP_SQ_GENKEYS = 134,
    IXP_SQ_GENKEYS_REPLY = 136,
    IXP_SQ_SVPOINT = 137,
    IXP_SQ_RELSVPOINT = 138,
    IXP_SQ_RBSVPOINT = 139,
    IXP_SQ_BATCH_START = 141,
    IXP_SQ_BATCH_END = 142,
    /* Not a wire tag: a whole SL-framed login packet (see ixp_reader). */
    IXP_MSG_LOGIN = 0x10000,
};

/* Statement types in SQ_DESCRIBE: ix_stmttype (include/ixdb.h). */

/* SQ_SFETCH directions (§3.13; 1 is single source; 2, 3, 5 and 7 follow
 * ESQL/C's fetch orientations, unresolved). */
enum {
    IXP_FETCH_NEXT = 1,
    IXP_FETCH_PRIOR = 2,
    IXP_FETCH_FIRST = 3,
    IXP_FETCH_LAST = 4,
    IXP_FETCH_CURRENT = 5,
    IXP_FETCH_ABSOLUTE = 6,
    IXP_FETCH_RELATIVE = 7
};

/* BIND indicators (§3.4). */
enum { IXP_IND_VALUE = 0, IXP_IND_NULL = -1, IXP_IND_DEFAULT = -2 };

typedef enum ixp_role { IXP_FROM_CLIENT = 0, IXP_FROM_SERVER = 1 } ixp_role;

/* Limits checked before any length from the wire is used. Zero fields take
 * the defaults of ixp_limits_default(). */
typedef struct ixp_limits {
    uint32_t max_sql;     /* SQLTEXT bytes (default 16 MiB) */
    uint32_t max_tuple;   /* SQ_TUPLE payload bytes (default 64 MiB) */
    uint32_t max_string;  /* CHAR items, names, messages (default 64 KiB) */
    uint32_t max_columns; /* DESCRIBE / RET_TYPE columns, BIND values (default 32767) */
    uint32_t max_value;   /* one BIND value (default 64 MiB) */
    uint32_t max_items;   /* SQ_INFO pairs, SQ_DBLIST names (default 1024) */
    /* bytes of chunks an SQ_LODATA read reply may carry: a client sets it to
     * what its read asked for (default max_value; src/proto/ix_lob.h) */
    uint32_t max_lo_read;
} ixp_limits;

/* Fills the defaults into every zero field of *l. */
void ixp_limits_default(ixp_limits *l);

/* Borrowed bytes: p points into the decoded input (or caller memory). */
typedef struct ixp_bytes {
    const uint8_t *p;
    size_t n;
} ixp_bytes;

/* A decoded SQ_LODATA (layout and walkers: src/proto/ix_lob.h). */
typedef struct ixp_lodata {
    int16_t op;
    int16_t fd;      /* request only */
    int32_t length;  /* request: bytes to read or write; reply: size */
    int16_t bufsize; /* request only */
    int64_t offset;  /* op 1 request only */
    int16_t whence;  /* op 1 request only */
    ixp_bytes data;  /* the chunks as on the wire: walk with ixp_lodata_chunk */
} ixp_lodata;

/* Decoded fast-path messages (layouts and walkers: src/proto/ix_fastpath.h). */
typedef struct ixp_getroutine {
    ixp_bytes sig;  /* request (client -> server): the routine signature */
    ixp_bytes db;   /* reply (server -> client): the current database */
    int32_t handle; /* reply: the routine handle (> 0) */
} ixp_getroutine;

typedef struct ixp_exfp {
    ixp_bytes db;
    int32_t handle;
    int nparams;    /* the parameter count word */
    int nargs;      /* the count of the SQ_BIND that carries the arguments */
    ixp_bytes args; /* the value records: walk with ixp_fp_value_next */
} ixp_exfp;

typedef struct ixp_fpresult {
    int count;
    ixp_bytes vals; /* the value records: walk with ixp_fp_value_next */
} ixp_fpresult;

/* One decoded message. `u` holds the body named by `tag`. */
typedef struct ixp_msg {
    int tag;
    size_t len; /* bytes this message occupied in the input, tag included */
    union {
        struct {
            int16_t nparams; /* SQ_PREPARE: number of ?; SQ_COMMAND: the i16 0 */
            ixp_bytes sql;
        } stmt;         /* SQ_COMMAND, SQ_PREPARE */
        ixp_bytes name; /* SQ_CURNAME, SQ_RELSVPOINT, SQ_RBSVPOINT */
        int16_t id;     /* SQ_ID */
        struct {
            int16_t count;
            ixp_bytes raw; /* the values, walk with ixp_bind_next */
        } bind;
        struct {
            int32_t bufsize;
            int16_t arraysize;
        } nfetch;
        struct {
            int16_t direction;
            int32_t position;
            int32_t bufsize;
        } sfetch;
        struct {
            int16_t one;
            int16_t ncols;
            ixp_bytes raw; /* walk with ixp_ret_type_next */
        } ret_type;
        struct {
            ixp_bytes name;
            int16_t flags;
        } dbopen;
        struct {
            int16_t subtype, total, max_key, max_value;
            int16_t npairs;
            ixp_bytes raw; /* the CHAR pairs, walk with ixp_info_next */
        } info;
        ixp_bytes protocols; /* SQ_PROTOCOLS capability bytes */
        ixp_bytes blobdesc;  /* SQ_FETCHBLOB descriptor (56 or 68 bytes) */
        struct {
            ixp_bytes name;
            int16_t unique;
        } svpoint; /* SQ_SVPOINT */
        struct {
            int has_flag; /* an i16 0 followed the tag (libsqli form) */
        } rbwork;
        ixp_bytes response; /* SQ_RESPONSE (PAM) data */
        int16_t genkeys;    /* SQ_GENKEYS request word */
        struct {
            int16_t stmt_type, stmt_id;
            int32_t est_rows;
            int32_t tuple_size;
            int16_t ncols;
            int32_t names_len;
            int extended;    /* 1: extended layout (f63), 0: old layout */
            ixp_bytes cols;  /* column records, walk with ixp_describe_next */
            ixp_bytes names; /* the name table (names_len bytes) */
        } describe;
        struct {
            int16_t warnings;
            ixp_bytes data;
        } tuple;
        struct {
            int16_t warnings;
            int64_t rows;
            int64_t rowid;
            int32_t serial;
        } done;
        struct {
            int32_t est_rows, est_cost;
        } cost;
        struct {
            int16_t event, new_level, old_level;
        } xactstat;
        struct {
            int64_t serial8;
            int has_bigserial;
            int64_t bigserial;
        } insertdone;
        struct {
            int16_t sqlcode, isamcode;
            int32_t offset;
            int has_msg; /* 0 for sqlcode -368, which has no message field */
            ixp_bytes msg;
        } err;
        ixp_bytes blob;            /* SQ_BLOB chunk */
        int16_t bbind;             /* SQ_BBIND: BYTE/TEXT values that follow */
        ixp_lodata lodata;         /* SQ_LODATA */
        ixp_lodata file;           /* SQ_FILE: op, length (reply: status), data (ix_lob.h) */
        ixp_getroutine getroutine; /* SQ_GETROUTINE, both roles */
        ixp_exfp exfp;             /* SQ_EXFPROUTINE */
        ixp_fpresult fpresult;     /* SQ_FPROUTINE */
        int32_t tupid;             /* SQ_TUPID row position */
        struct {
            int16_t style;
            ixp_bytes prompt;
        } challenge;
        ixp_bytes genkey; /* SQ_GENKEYS_REPLY bytes */
        struct {
            int count;     /* names in the list */
            ixp_bytes raw; /* the entries without the final u16 0, walk with ixp_dblist_next */
        } dblist;          /* SQ_DBLIST from the server (the client's request has no body) */
        struct {
            int sl_type;
            ixp_bytes packet; /* the whole SL packet, decode with ix_login.h */
        } login;
    } u;
} ixp_msg;

/* Decodes one message that `role` sent, from p[0..n).
 * Returns IX_OK (filled *m, m->len bytes used), IX_NEED_MORE (the input ends
 * inside the message: call again with more bytes from the same start), or
 * IX_EMALFORMED / IX_ELIMIT with *err_at set to the offending offset and
 * *why to a static reason (either pointer may be NULL). An unknown tag is
 * malformed: without lengths on the wire the stream cannot be resynchronised.
 * Messages sent under the SL framing are not decoded here (ix_login.h). */
int ixp_msg_decode(const uint8_t *p, size_t n, ixp_role role, const ixp_caps *caps,
                   const ixp_limits *lim, ixp_msg *m, size_t *err_at, const char **why);

/* Re-encodes a decoded (or hand-filled) message byte for byte. Composite
 * bodies (BIND, RET_TYPE, DESCRIBE, SQ_INFO) are written from their raw
 * bytes; build new ones with the ixp_enc_* builders below. Returns IX_OK,
 * IX_EINVAL for an unknown tag, or the buffer's sticky error. */
int ixp_msg_encode(ixb_wbuf *out, ixp_role role, const ixp_caps *caps, const ixp_msg *m);

/* Static name of a tag ("SQ_PREPARE"), or NULL if the tag is unknown. */
const char *ixp_tag_name(int tag);

/* ---- composite items ----------------------------------------------------- */

/* One BIND value (§3.4). `value` holds the value bytes exactly as on the wire
 * without the trailing pad: the inner length word included for strings,
 * DECIMAL, DATETIME and INTERVAL. */
typedef struct ixp_bindval {
    int16_t type;    /* type code, may carry flag bits */
    int has_names;   /* extended owner/name CHARs present */
    ixp_bytes owner; /* extended type owner (has_names) */
    ixp_bytes xname; /* extended type name (has_names) */
    int16_t indicator;
    int16_t slot; /* length/precision slot */
    ixp_bytes value;
} ixp_bindval;

/* Iterates the values of a decoded SQ_BIND (validated by ixp_msg_decode, so
 * this cannot fail on them). *pos starts at 0. Returns 1 and fills *v, or 0
 * after the last value. */
int ixp_bind_next(const ixp_msg *m, size_t *pos, ixp_bindval *v);
/* The bytes of count SQ_BIND values at p[0..n) (the message after its
 * count), when every value is of a common fixed or string type that
 * ixp_msg_decode reads in its fast form (SMALLINT, INTEGER, SERIAL, DATE,
 * SMALLFLOAT, FLOAT, BIGINT, BIGSERIAL, CHAR, VARCHAR, NCHAR, NVARCHAR,
 * DECIMAL, MONEY, DATETIME, INTERVAL; values, NULL and default
 * indicators) and valid as it would find it, value lengths within
 * max_value. 0 when any value is not (ixp_msg_decode then decodes or
 * refuses it), or when count is 0. */
size_t ixp_bind_values_span(const uint8_t *p, size_t n, int count, uint32_t max_value);

/* The value type of a bind value, for ixt_value_from_bind: the type code
 * (40/41 resolved by the extended name), and an encoded length taken from
 * the slot where it carries one (DATETIME/INTERVAL qualifier; DECIMAL/MONEY
 * scale, with precision 32), from the value's own length for strings, and
 * the fixed width otherwise. */
ixt_vtype ixp_bind_vtype(const ixp_bindval *v);

/* Appends SQ_BIND with n values. Returns the buffer's sticky error. */
int ixp_enc_bind(ixb_wbuf *out, const ixp_bindval *v, int n);

/* One RET_TYPE column (§3.6). */
typedef struct ixp_rtcol {
    int16_t type;
    int has_names;
    ixp_bytes owner, xname;
    int32_t length;
} ixp_rtcol;

int ixp_ret_type_next(const ixp_msg *m, size_t *pos, ixp_rtcol *c);
int ixp_enc_ret_type(ixb_wbuf *out, const ixp_rtcol *c, int n);

/* One SQ_INFO pair (§2.7). */
int ixp_info_next(const ixp_msg *m, size_t *pos, ixp_bytes *key, ixp_bytes *value);
/* Appends SQ_INFO (subtype 6) with n pairs, computing total and maxima the
 * JDBC way (total = 6 + sum(4 + even(key) + even(value))). */
int ixp_enc_info(ixb_wbuf *out, const ixp_bytes *keys, const ixp_bytes *values, int n);

/* One database name of a server's SQ_DBLIST reply (validated by
 * ixp_msg_decode). *pos starts at 0. Returns 1 and fills *name, or 0 after the
 * last one. */
int ixp_dblist_next(const ixp_msg *m, size_t *pos, ixp_bytes *name);
/* Server side: appends the SQ_DBLIST reply listing n database names (NMAP):
 * { u16 length, name, pad } per name, then u16 0. Returns IX_OK, IX_EINVAL
 * (nothing appended) for an empty name or one longer than 65535 bytes, or
 * the buffer's sticky error. The client's request is ixp_enc_tag(out,
 * IXP_SQ_DBLIST). */
int ixp_enc_dblist(ixb_wbuf *out, const ixp_bytes *names, int n);

/* One SQ_DESCRIBE column (§3.2). */
typedef struct ixp_column {
    ixp_bytes name;    /* from the name table, without its NUL */
    int32_t name_off;  /* offset of the name in the name table */
    int32_t start;     /* start position in the fixed-width tuple layout */
    int16_t type;      /* low byte type code, high byte flags (0x100 NOT NULL) */
    int32_t xid;       /* extended type id (1 lvarchar, 5 boolean, ...) */
    ixp_bytes xowner;  /* extended owner ("informix") or empty */
    ixp_bytes xname;   /* extended name ("lvarchar", "boolean") or empty */
    int16_t reference; /* meaning unknown; 0 */
    int16_t alignment; /* meaning unknown; 0 */
    int32_t source_type;
    int32_t enclen; /* encoded length, §3.2.1 */
} ixp_column;

int ixp_describe_next(const ixp_msg *m, size_t *pos, ixp_column *c);

/* Header of a DESCRIBE to encode. name_off, start and tuple_size are
 * computed by ixp_enc_describe unless `keep_positions` is set. */
typedef struct ixp_describe {
    int16_t stmt_type, stmt_id;
    int32_t est_rows;
    int32_t tuple_size; /* used only with keep_positions */
    int keep_positions;
} ixp_describe;

/* Appends SQ_DESCRIBE in the layout the caps select (extended with f63).
 * Returns IX_OK, IX_ERANGE if a width overflows its field, or the buffer's
 * sticky error. */
int ixp_enc_describe(ixb_wbuf *out, const ixp_caps *caps, const ixp_describe *d,
                     const ixp_column *cols, int ncols);

/* Maximum width a column occupies in the fixed tuple layout (start
 * positions, tuple size; §3.2): VARCHAR(n) n+1, CHAR(n) n, fixed types their
 * width, LVARCHAR/BOOLEAN their encoded length (unresolved, §8 #16). */
uint32_t ixp_column_max_width(int type, int32_t enclen, const ixp_caps *caps);

/* ---- simple encoders ------------------------------------------------------ */

/* Client side. Each appends one message (tag and body, no EOT). */
void ixp_enc_tag(ixb_wbuf *out, int tag); /* body-less messages: EOT, OPEN, ... */
void ixp_enc_command(ixb_wbuf *out, const ixp_caps *caps, const char *sql, size_t n);
void ixp_enc_prepare(ixb_wbuf *out, const ixp_caps *caps, int nparams, const char *sql, size_t n);
void ixp_enc_id(ixb_wbuf *out, int id);
void ixp_enc_curname(ixb_wbuf *out, const char *name, size_t n);
/* NFETCH / SFETCH: the buffer size is an i32 or an i16 as the granted
 * capabilities say (ixp_fetch_bufsize_max); a larger size is sent as that
 * maximum. */
void ixp_enc_nfetch(ixb_wbuf *out, const ixp_caps *caps, int32_t bufsize);
void ixp_enc_sfetch(ixb_wbuf *out, const ixp_caps *caps, int direction, int32_t position,
                    int32_t bufsize);
/* The largest buffer size NFETCH/SFETCH can carry under caps: INT32_MAX when
 * the field is an i32, INT16_MAX when it is an i16 (see fetch_size_is_i32 in
 * ix_msg.c for which capability decides). */
int32_t ixp_fetch_bufsize_max(const ixp_caps *caps);
void ixp_enc_dbopen(ixb_wbuf *out, const char *name, size_t n, int flags);
void ixp_enc_protocols(ixb_wbuf *out, const uint8_t *bits, size_t n);
void ixp_enc_fetchblob(ixb_wbuf *out, const uint8_t *desc, size_t n);
void ixp_enc_svpoint(ixb_wbuf *out, int tag, const char *name, size_t n, int unique);
void ixp_enc_response(ixb_wbuf *out, const uint8_t *p, size_t n);
/* Appends a CHAR item: u16 length, bytes, pad to even. */
void ixp_enc_char(ixb_wbuf *out, const void *p, size_t n);

/* Bytes of the fixed-size server messages (§3.9), tag included: EOT; COST;
 * DONE, whose rows and rowid are i64 with f70. */
#define IXP_EOT_LEN      2
#define IXP_COST_LEN     10
#define IXP_DONE_LEN     16
#define IXP_DONE_LEN_F70 24

/* Server side. */
void ixp_enc_tuple(ixb_wbuf *out, int warnings, const uint8_t *p, size_t n);
void ixp_enc_done(ixb_wbuf *out, const ixp_caps *caps, int warnings, int64_t rows, int64_t rowid,
                  int32_t serial);
void ixp_enc_cost(ixb_wbuf *out, int32_t est_rows, int32_t est_cost);
void ixp_enc_xactstat(ixb_wbuf *out, int event, int new_level, int old_level);
void ixp_enc_insertdone(ixb_wbuf *out, const ixp_caps *caps, int64_t serial8, int64_t bigserial);
void ixp_enc_err(ixb_wbuf *out, const ixp_caps *caps, int sqlcode, int isamcode, int32_t offset,
                 const char *msg, size_t n);
void ixp_enc_blob(ixb_wbuf *out, const uint8_t *p, size_t n);
void ixp_enc_tupid(ixb_wbuf *out, int32_t pos);
void ixp_enc_challenge(ixb_wbuf *out, int style, const char *prompt, size_t n);

#endif
