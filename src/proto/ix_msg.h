/*
 * ix_msg.h: the SQLI post-login messages, for both roles (sans-I/O).
 *
 * After the login exchange every message is an i16 tag followed by a
 * tag-specific body; there is no length prefix, so a decoder must know every
 * tag it may meet (sqli-protocol.md §1). ix_msg_decode turns bytes into one
 * typed ix_msg; the ix_enc_* functions turn values into bytes. Neither ever
 * touches a socket.
 *
 * Ownership: a decoded ix_msg borrows the input bytes (every ix_bytes points
 * into them); it is valid as long as those bytes are. Decoding allocates
 * nothing. Encoders append to an ix_wbuf, whose sticky error reports
 * IX_ENOMEM / IX_ELIMIT once, at the end.
 */
#ifndef IX_MSG_H
#define IX_MSG_H

#include <stdint.h>

#include "base/ix_buf.h"
#include "ix_caps.h"
#include "types/ix_types.h"

/* Message tags (§1.1). */
enum {
    IX_SQ_COMMAND = 1,
    IX_SQ_PREPARE = 2,
    IX_SQ_CURNAME = 3,
    IX_SQ_ID = 4,
    IX_SQ_BIND = 5,
    IX_SQ_OPEN = 6,
    IX_SQ_EXECUTE = 7,
    IX_SQ_DESCRIBE = 8,
    IX_SQ_NFETCH = 9,
    IX_SQ_CLOSE = 10,
    IX_SQ_RELEASE = 11,
    IX_SQ_EOT = 12,
    IX_SQ_ERR = 13,
    IX_SQ_TUPLE = 14,
    IX_SQ_DONE = 15,
    IX_SQ_CMMTWORK = 19,
    IX_SQ_RBWORK = 20,
    IX_SQ_NDESCRIBE = 22,
    IX_SQ_SFETCH = 23,
    IX_SQ_SCROLL = 24,
    IX_SQ_TUPID = 25,
    IX_SQ_DBLIST = 26,
    IX_SQ_BEGIN = 35,
    IX_SQ_DBOPEN = 36,
    IX_SQ_DBCLOSE = 37,
    IX_SQ_FETCHBLOB = 38,
    IX_SQ_BLOB = 39,
    IX_SQ_HOLD = 43,
    IX_SQ_WANTDONE = 49,
    IX_SQ_COST = 55,
    IX_SQ_EXIT = 56,
    IX_SQ_INFO = 81,
    IX_SQ_INSERTDONE = 94,
    IX_SQ_XACTSTAT = 99,
    IX_SQ_RET_TYPE = 100,
    IX_SQ_AUTOFREE = 108,
    IX_SQ_PROTOCOLS = 126,
    IX_SQ_ACCEPT = 127,
    IX_SQ_ACK = 128,
    IX_SQ_CHALLENGE = 129,
    IX_SQ_RESPONSE = 130,
    IX_SQ_GENKEYS = 134,
    IX_SQ_GENKEYS_REPLY = 136,
    IX_SQ_SVPOINT = 137,
    IX_SQ_RELSVPOINT = 138,
    IX_SQ_RBSVPOINT = 139,
    IX_SQ_BATCH_START = 141,
    IX_SQ_BATCH_END = 142,
    /* Not a wire tag: a whole SL-framed login packet (see ix_reader). */
    IX_MSG_LOGIN = 0x10000,
};

/* Statement types in SQ_DESCRIBE: ix_stmttype (include/ixdb.h). */

/* SQ_SFETCH directions (§3.13; 1 is single source; 2, 3, 5 and 7 follow
 * ESQL/C's fetch orientations, unresolved). */
enum {
    IX_FETCH_NEXT = 1,
    IX_FETCH_PRIOR = 2,
    IX_FETCH_FIRST = 3,
    IX_FETCH_LAST = 4,
    IX_FETCH_CURRENT = 5,
    IX_FETCH_ABSOLUTE = 6,
    IX_FETCH_RELATIVE = 7
};

/* BIND indicators (§3.4). */
enum { IX_IND_VALUE = 0, IX_IND_NULL = -1, IX_IND_DEFAULT = -2 };

typedef enum ix_role { IX_FROM_CLIENT = 0, IX_FROM_SERVER = 1 } ix_role;

/* Limits checked before any length from the wire is used. Zero fields take
 * the defaults of ix_limits_default(). */
typedef struct ix_limits {
    uint32_t max_sql;     /* SQLTEXT bytes (default 16 MiB) */
    uint32_t max_tuple;   /* SQ_TUPLE payload bytes (default 64 MiB) */
    uint32_t max_string;  /* CHAR items, names, messages (default 64 KiB) */
    uint32_t max_columns; /* DESCRIBE / RET_TYPE columns, BIND values (default 32767) */
    uint32_t max_value;   /* one BIND value (default 64 MiB) */
    uint32_t max_items;   /* SQ_INFO pairs, SQ_DBLIST names (default 1024) */
} ix_limits;

/* Fills the defaults into every zero field of *l. */
void ix_limits_default(ix_limits *l);

/* Borrowed bytes: p points into the decoded input (or caller memory). */
typedef struct ix_bytes {
    const uint8_t *p;
    size_t n;
} ix_bytes;

/* One decoded message. `u` holds the body named by `tag`. */
typedef struct ix_msg {
    int tag;
    size_t len; /* bytes this message occupied in the input, tag included */
    union {
        struct {
            int16_t nparams; /* SQ_PREPARE: number of ?; SQ_COMMAND: the i16 0 */
            ix_bytes sql;
        } stmt;        /* SQ_COMMAND, SQ_PREPARE */
        ix_bytes name; /* SQ_CURNAME, SQ_RELSVPOINT, SQ_RBSVPOINT */
        int16_t id;    /* SQ_ID */
        struct {
            int16_t count;
            ix_bytes raw; /* the values, walk with ix_bind_next */
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
            ix_bytes raw; /* walk with ix_ret_type_next */
        } ret_type;
        struct {
            ix_bytes name;
            int16_t flags;
        } dbopen;
        struct {
            int16_t subtype, total, max_key, max_value;
            int16_t npairs;
            ix_bytes raw; /* the CHAR pairs, walk with ix_info_next */
        } info;
        ix_bytes protocols; /* SQ_PROTOCOLS capability bytes */
        ix_bytes blobdesc;  /* SQ_FETCHBLOB descriptor (56 or 68 bytes) */
        struct {
            ix_bytes name;
            int16_t unique;
        } svpoint; /* SQ_SVPOINT */
        struct {
            int has_flag; /* an i16 0 followed the tag (libsqli form) */
        } rbwork;
        ix_bytes response; /* SQ_RESPONSE (PAM) data */
        int16_t genkeys;   /* SQ_GENKEYS request word */
        struct {
            int16_t stmt_type, stmt_id;
            int32_t est_rows;
            int32_t tuple_size;
            int16_t ncols;
            int32_t names_len;
            int extended;   /* 1: extended layout (f63), 0: old layout */
            ix_bytes cols;  /* column records, walk with ix_describe_next */
            ix_bytes names; /* the name table (names_len bytes) */
        } describe;
        struct {
            int16_t warnings;
            ix_bytes data;
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
            ix_bytes msg;
        } err;
        ix_bytes blob; /* SQ_BLOB chunk */
        int32_t tupid; /* SQ_TUPID row position */
        struct {
            int16_t style;
            ix_bytes prompt;
        } challenge;
        ix_bytes genkey; /* SQ_GENKEYS_REPLY bytes */
        struct {
            int count;    /* names in the list */
            ix_bytes raw; /* the entries without the final u16 0, walk with ix_dblist_next */
        } dblist;         /* SQ_DBLIST from the server (the client's request has no body) */
        struct {
            int sl_type;
            ix_bytes packet; /* the whole SL packet, decode with ix_login.h */
        } login;
    } u;
} ix_msg;

/* Decodes one message that `role` sent, from p[0..n).
 * Returns IX_OK (filled *m, m->len bytes used), IX_NEED_MORE (the input ends
 * inside the message: call again with more bytes from the same start), or
 * IX_EMALFORMED / IX_ELIMIT with *err_at set to the offending offset and
 * *why to a static reason (either pointer may be NULL). An unknown tag is
 * malformed: without lengths on the wire the stream cannot be resynchronised.
 * Messages sent under the SL framing are not decoded here (ix_login.h). */
int ix_msg_decode(const uint8_t *p, size_t n, ix_role role, const ix_caps *caps,
                  const ix_limits *lim, ix_msg *m, size_t *err_at, const char **why);

/* Re-encodes a decoded (or hand-filled) message byte for byte. Composite
 * bodies (BIND, RET_TYPE, DESCRIBE, SQ_INFO) are written from their raw
 * bytes; build new ones with the ix_enc_* builders below. Returns IX_OK,
 * IX_EINVAL for an unknown tag, or the buffer's sticky error. */
int ix_msg_encode(ix_wbuf *out, ix_role role, const ix_caps *caps, const ix_msg *m);

/* Static name of a tag ("SQ_PREPARE"), or NULL if the tag is unknown. */
const char *ix_tag_name(int tag);

/* ---- composite items ----------------------------------------------------- */

/* One BIND value (§3.4). `value` holds the value bytes exactly as on the wire
 * without the trailing pad: the inner length word included for strings,
 * DECIMAL, DATETIME and INTERVAL. */
typedef struct ix_bindval {
    int16_t type;   /* type code, may carry flag bits */
    int has_names;  /* extended owner/name CHARs present */
    ix_bytes owner; /* extended type owner (has_names) */
    ix_bytes xname; /* extended type name (has_names) */
    int16_t indicator;
    int16_t slot; /* length/precision slot */
    ix_bytes value;
} ix_bindval;

/* Iterates the values of a decoded SQ_BIND (validated by ix_msg_decode, so
 * this cannot fail on them). *pos starts at 0. Returns 1 and fills *v, or 0
 * after the last value. */
int ix_bind_next(const ix_msg *m, size_t *pos, ix_bindval *v);

/* The value type of a bind value, for ix_value_from_bind: the type code
 * (40/41 resolved by the extended name), and an encoded length taken from
 * the slot where it carries one (DATETIME/INTERVAL qualifier; DECIMAL/MONEY
 * scale, with precision 32), from the value's own length for strings, and
 * the fixed width otherwise. */
ix_vtype ix_bind_vtype(const ix_bindval *v);

/* Appends SQ_BIND with n values. Returns the buffer's sticky error. */
int ix_enc_bind(ix_wbuf *out, const ix_bindval *v, int n);

/* One RET_TYPE column (§3.6). */
typedef struct ix_rtcol {
    int16_t type;
    int has_names;
    ix_bytes owner, xname;
    int32_t length;
} ix_rtcol;

int ix_ret_type_next(const ix_msg *m, size_t *pos, ix_rtcol *c);
int ix_enc_ret_type(ix_wbuf *out, const ix_rtcol *c, int n);

/* One SQ_INFO pair (§2.7). */
int ix_info_next(const ix_msg *m, size_t *pos, ix_bytes *key, ix_bytes *value);
/* Appends SQ_INFO (subtype 6) with n pairs, computing total and maxima the
 * JDBC way (total = 6 + sum(4 + even(key) + even(value))). */
int ix_enc_info(ix_wbuf *out, const ix_bytes *keys, const ix_bytes *values, int n);

/* One database name of a server's SQ_DBLIST reply (validated by
 * ix_msg_decode). *pos starts at 0. Returns 1 and fills *name, or 0 after the
 * last one. */
int ix_dblist_next(const ix_msg *m, size_t *pos, ix_bytes *name);
/* Server side: appends the SQ_DBLIST reply listing n database names (NMAP):
 * { u16 length, name, pad } per name, then u16 0. Returns IX_OK, IX_EINVAL
 * (nothing appended) for an empty name or one longer than 65535 bytes, or
 * the buffer's sticky error. The client's request is ix_enc_tag(out,
 * IX_SQ_DBLIST). */
int ix_enc_dblist(ix_wbuf *out, const ix_bytes *names, int n);

/* One SQ_DESCRIBE column (§3.2). */
typedef struct ix_column {
    ix_bytes name;     /* from the name table, without its NUL */
    int32_t name_off;  /* offset of the name in the name table */
    int32_t start;     /* start position in the fixed-width tuple layout */
    int16_t type;      /* low byte type code, high byte flags (0x100 NOT NULL) */
    int32_t xid;       /* extended type id (1 lvarchar, 5 boolean, ...) */
    ix_bytes xowner;   /* extended owner ("informix") or empty */
    ix_bytes xname;    /* extended name ("lvarchar", "boolean") or empty */
    int16_t reference; /* meaning unknown; 0 */
    int16_t alignment; /* meaning unknown; 0 */
    int32_t source_type;
    int32_t enclen; /* encoded length, §3.2.1 */
} ix_column;

int ix_describe_next(const ix_msg *m, size_t *pos, ix_column *c);

/* Header of a DESCRIBE to encode. name_off, start and tuple_size are
 * computed by ix_enc_describe unless `keep_positions` is set. */
typedef struct ix_describe {
    int16_t stmt_type, stmt_id;
    int32_t est_rows;
    int32_t tuple_size; /* used only with keep_positions */
    int keep_positions;
} ix_describe;

/* Appends SQ_DESCRIBE in the layout the caps select (extended with f63).
 * Returns IX_OK, IX_ERANGE if a width overflows its field, or the buffer's
 * sticky error. */
int ix_enc_describe(ix_wbuf *out, const ix_caps *caps, const ix_describe *d, const ix_column *cols,
                    int ncols);

/* Maximum width a column occupies in the fixed tuple layout (start
 * positions, tuple size; §3.2): VARCHAR(n) n+1, CHAR(n) n, fixed types their
 * width, LVARCHAR/BOOLEAN their encoded length (unresolved, §8 #16). */
uint32_t ix_column_max_width(int type, int32_t enclen, const ix_caps *caps);

/* ---- simple encoders ------------------------------------------------------ */

/* Client side. Each appends one message (tag and body, no EOT). */
void ix_enc_tag(ix_wbuf *out, int tag); /* body-less messages: EOT, OPEN, ... */
void ix_enc_command(ix_wbuf *out, const ix_caps *caps, const char *sql, size_t n);
void ix_enc_prepare(ix_wbuf *out, const ix_caps *caps, int nparams, const char *sql, size_t n);
void ix_enc_id(ix_wbuf *out, int id);
void ix_enc_curname(ix_wbuf *out, const char *name, size_t n);
/* NFETCH / SFETCH: the buffer size is an i32 or an i16 as the granted
 * capabilities say (ix_fetch_bufsize_max); a larger size is sent as that
 * maximum. */
void ix_enc_nfetch(ix_wbuf *out, const ix_caps *caps, int32_t bufsize);
void ix_enc_sfetch(ix_wbuf *out, const ix_caps *caps, int direction, int32_t position,
                   int32_t bufsize);
/* The largest buffer size NFETCH/SFETCH can carry under caps: INT32_MAX when
 * the field is an i32, INT16_MAX when it is an i16 (see fetch_size_is_i32 in
 * ix_msg.c for which capability decides). */
int32_t ix_fetch_bufsize_max(const ix_caps *caps);
void ix_enc_dbopen(ix_wbuf *out, const char *name, size_t n, int flags);
void ix_enc_protocols(ix_wbuf *out, const uint8_t *bits, size_t n);
void ix_enc_fetchblob(ix_wbuf *out, const uint8_t *desc, size_t n);
void ix_enc_svpoint(ix_wbuf *out, int tag, const char *name, size_t n, int unique);
void ix_enc_response(ix_wbuf *out, const uint8_t *p, size_t n);
/* Appends a CHAR item: u16 length, bytes, pad to even. */
void ix_enc_char(ix_wbuf *out, const void *p, size_t n);

/* Server side. */
void ix_enc_tuple(ix_wbuf *out, int warnings, const uint8_t *p, size_t n);
void ix_enc_done(ix_wbuf *out, const ix_caps *caps, int warnings, int64_t rows, int64_t rowid,
                 int32_t serial);
void ix_enc_cost(ix_wbuf *out, int32_t est_rows, int32_t est_cost);
void ix_enc_xactstat(ix_wbuf *out, int event, int new_level, int old_level);
void ix_enc_insertdone(ix_wbuf *out, const ix_caps *caps, int64_t serial8, int64_t bigserial);
void ix_enc_err(ix_wbuf *out, const ix_caps *caps, int sqlcode, int isamcode, int32_t offset,
                const char *msg, size_t n);
void ix_enc_blob(ix_wbuf *out, const uint8_t *p, size_t n);
void ix_enc_tupid(ix_wbuf *out, int32_t pos);
void ix_enc_challenge(ix_wbuf *out, int style, const char *prompt, size_t n);

#endif
