/*
 * ix_login.h: the SL-framed login packets of SQLI (sqli-protocol.md §2.2-2.4).
 *
 * Only the first two packets of a session carry the 6-byte SL header: the
 * client's CONREQ and the server's CONACC (or CONREJ / REDIRECT). This module
 * decodes and encodes both, byte for byte: for every packet that decodes,
 * encoding the decoded struct gives back exactly the consumed bytes.
 *
 * Decoders
 *   - never read past p[0..n), never allocate, never print;
 *   - return IX_NEED_MORE while n is shorter than the SL total length (the
 *     caller keeps the bytes, reads more and calls again with the longer
 *     buffer: decoding restarts at offset 0, there is no hidden state);
 *   - return IX_EMALFORMED with the byte offset of the offending field and a
 *     static English reason, or IX_ELIMIT when a count or the total length
 *     exceeds ixp_login_limits;
 *   - must consume exactly the SL total length: a body that ends before it
 *     or after it is malformed;
 *   - fill *out with borrowed pointers into p: every ixp_ascstr / ixp_login_bytes
 *     in a decoded struct is valid as long as the caller keeps p's bytes.
 *
 * Encoders append one whole packet to an ixb_wbuf and compute the SL total.
 * They read the struct and never keep pointers to it.
 */
#ifndef IXP_LOGIN_H
#define IXP_LOGIN_H

#include <stddef.h>
#include <stdint.h>

#include "base/ix_buf.h"

/* ---- SL header (§2.2) ---------------------------------------------------- */

#define IXP_SL_CONREQ   1  /* client -> server */
#define IXP_SL_CONACC   2  /* server -> client, accepted */
#define IXP_SL_CONREJ   3  /* server -> client, rejected */
#define IXP_SL_REDIRECT 13 /* server -> client, go elsewhere */
#define IXP_SL_PROTO    60 /* SQLI 6.00 */
#define IXP_SL_HDR_LEN  6

/*
 * Flags a server puts in the SL header of its reply. Both known accepts
 * (GBase 8s 9.56 capture, DBX live trace of IDS 15) carry 0x1000; its meaning
 * is unknown (single choice, sqli-protocol.md §2.2). Clients must not require
 * any value; decoders keep whatever was received.
 */
#define IXP_SL_SERVER_FLAGS 0x1000

/*
 * SL type a server uses to refuse a login (bad user/password, no connect
 * permission). Unresolved (sqli-protocol.md §8 #6): NMAP never checks the SL
 * type, libsqli saw type-3 replies with an ASC body from 14.10, DBX fails a
 * login on both a type-3 packet and a type-2 body with non-zero svc_error.
 * We send type 3; readers should treat both forms as a failed login.
 */
#define IXP_SL_AUTHFAIL_TYPE IXP_SL_CONREJ

typedef struct ixp_sl_hdr {
    uint16_t total; /* whole packet length, including these 6 bytes */
    uint8_t type;   /* IXP_SL_* */
    uint8_t proto;  /* IXP_SL_PROTO */
    uint16_t flags; /* clients 0, servers IXP_SL_SERVER_FLAGS */
} ixp_sl_hdr;

/*
 * Reads the SL header at p[0..n).
 * Returns IX_OK when the whole packet (out->total bytes) is in p[0..n);
 * IX_NEED_MORE when n < 6 or n < total (out is filled as far as known, so
 * out->total tells how many bytes to wait for once n >= 2); IX_EMALFORMED
 * when the bytes present already show total < 6, a type outside
 * {1, 2, 3, 13} or a protocol other than 60. out may be NULL.
 */
int ixp_sl_peek(const uint8_t *p, size_t n, ixp_sl_hdr *out);

/*
 * Cheap guess, for tools that see a raw stream: 1 when p[0..n) starts like a
 * login packet (n >= 4, total >= 6, type in {1, 2, 3, 13}, protocol 60),
 * else 0. A post-login message starts with an i16 tag whose second byte pair
 * is never "type, 60" for the known tags, but this is only a heuristic.
 */
int ixp_sl_looks_like(const uint8_t *p, size_t n);

/* ---- shared field types --------------------------------------------------- */

/*
 * A handshake string (ascstr, §1): u16 len, then len bytes of which the last
 * is NUL, no padding. Borrowed: p points into the decoded input (or, for a
 * struct filled by the caller, at the caller's characters).
 *   form 0: length 0 on the wire (absent); n must be 0.
 *   form 1: length n + 1 on the wire: the n characters at p, then a NUL.
 *           n <= 65534. When decoded, p[n] is that NUL, so p is a C string
 *           unless the characters themselves contain a NUL.
 * A decoded ascstr whose last byte is not NUL is rejected as malformed (no
 * source shows one, and accepting it would break the exact round trip).
 */
typedef struct ixp_ascstr {
    const char *p;
    uint16_t n;
    uint8_t form;
} ixp_ascstr;

/* form 0 for s == NULL, else form 1 with n = strlen(s). A string longer than
 * 65534 bytes gets n = 65535, which every encoder refuses with IX_EINVAL. */
ixp_ascstr ixp_ascstr_of(const char *s);

/* Raw bytes with a length prefix (n4/n5, block 110, the CHAR text of a
 * message entry). Borrowed like ixp_ascstr. n <= 32767 (lengths are i16). */
typedef struct ixp_login_bytes {
    const uint8_t *p;
    uint16_t n;
} ixp_login_bytes;

/* Item 107 SQ_ASCPINFO: i32, i32, i32, ascstr, i16, ascstr. In a CONREQ the
 * i32s are 0, pid, thread id; the GBase CONACC sends 0, 12, 0 in them. */
typedef struct ixp_login_pinfo {
    int32_t head; /* 0 in every capture */
    int32_t pid;
    int32_t tid;
    ixp_ascstr host;
    int16_t mid; /* 0 in every capture */
    ixp_ascstr cwd;
} ixp_login_pinfo;

/* Item 116 SQ_ASCMISC_60: i16 block length, i32, i32, ascstr. The block
 * length is kept as received and is never checked against the ascstr (JDD
 * sends one that is a byte short, §8 #26); ixp_login_misc_len gives the value
 * well-formed senders use. */
typedef struct ixp_login_misc {
    uint16_t block_len;
    int32_t a; /* 0 (CONREQ), 1000 (GBase CONACC) */
    int32_t b; /* 0 */
    ixp_ascstr text;
} ixp_login_misc;

/* 10 + the ascstr's wire length field: the number of bytes after the block
 * length (i32 + i32 + u16 + characters + NUL). */
uint16_t ixp_login_misc_len(const ixp_ascstr *text);

/* ---- limits ------------------------------------------------------------- */

#define IXP_LOGIN_MAXENV 64 /* capacity of ixp_conreq.env */
#define IXP_LOGIN_MAXMSG 16 /* capacity of ixp_conacc.msg */

typedef struct ixp_login_limits {
    size_t max_packet; /* largest SL total accepted; default 65535 (u16) */
    size_t max_env;    /* most env pairs; default and cap IXP_LOGIN_MAXENV */
    size_t max_msg;    /* most 102 message entries; default and cap IXP_LOGIN_MAXMSG */
} ixp_login_limits;

/* Fills the defaults. Decoders take lim == NULL to mean these. */
void ixp_login_limits_default(ixp_login_limits *lim);

/* ---- CONREQ (§2.3) -------------------------------------------------------- */

typedef struct ixp_login_env {
    ixp_ascstr name;
    ixp_ascstr value;
} ixp_login_env;

typedef struct ixp_conreq {
    uint16_t sl_flags;     /* 0 */
    int32_t pf_protocol;   /* after 100, 101: 61 */
    ixp_ascstr float_fmt;  /* "IEEEM" */
    uint8_t product[12];   /* after tag 108: "sqlexec" + 5 NUL */
    ixp_ascstr version;    /* "9.280" */
    ixp_ascstr rds_id;     /* "RDS#R000000" */
    ixp_ascstr app_id;     /* "sqli" */
    int32_t cap[3];        /* 316, 0, 0 */
    int16_t user_type;     /* 1 */
    ixp_ascstr user;       /* user name */
    ixp_ascstr password;   /* plaintext (IBM) or 8x01 + base64 (GBase); never log it */
    uint8_t proto_name[8]; /* "ol" + 6 NUL */
    int32_t proto_version; /* 61 */
    uint8_t transport[8];  /* "tlitcp" + 2 NUL, or "ipcstr" */
    int32_t net_level;     /* 1 */
    int16_t opt_len;       /* after tag 104: 11 */
    int32_t opt_flags;     /* 3 */
    ixp_ascstr server;     /* INFORMIXSERVER */
    int16_t db_slot;       /* 0; see ixp_conreq_decode */
    int16_t reserved[4];   /* 0 */
    uint16_t nenv;         /* after tag 106: pairs in env[0..nenv) */
    ixp_login_env env[IXP_LOGIN_MAXENV];
    int has_pinfo; /* item 107 present */
    ixp_login_pinfo pinfo;
    int has_misc; /* item 116 present */
    ixp_login_misc misc;
} ixp_conreq;

/*
 * Decodes one CONREQ from p[0..n).
 * lim: NULL for the defaults. err_at, why, used: may be NULL.
 * Returns IX_OK with *out filled (borrowing from p) and *used = SL total;
 * IX_NEED_MORE (*err_at = n) while n < 6 or n < the SL total: only the
 * header bytes already present are checked, the body is walked once it is
 * complete; IX_EMALFORMED / IX_ELIMIT with *err_at = offset of the bad
 * field and *why = static reason (an SL type of the other direction is
 * reported at offset 2 as soon as that byte is present; a total above
 * lim->max_packet as IX_ELIMIT at offset 0 as soon as 2 bytes are). *used is
 * 0 unless IX_OK. *out is unspecified on failure.
 */
int ixp_conreq_decode(const uint8_t *p, size_t n, const ixp_login_limits *lim, ixp_conreq *out,
                      size_t *used, size_t *err_at, const char **why);

/*
 * Appends the CONREQ packet for *in to out, computing the SL total.
 * Returns IX_OK; IX_EINVAL for an ascstr with a bad form or n, nenv >
 * IXP_LOGIN_MAXENV; IX_ELIMIT if the packet would exceed 65535 bytes (out is
 * left as it was in both cases); or out's sticky error (IX_ENOMEM, IX_ELIMIT).
 */
int ixp_conreq_encode(const ixp_conreq *in, ixb_wbuf *out);

/*
 * Fills *r with what IBM JDBC sends: 61, IEEEM, sqlexec, 9.280, RDS#R000000,
 * sqli, caps 316/0/0, user type 1, ol/61/tlitcp/1, options 104/11/3, db slot
 * 0, env DBPATH=. CLNT_PAM_CAPABLE=1 IFX_UPDDESC=1 NODEFDAC=no, PINFO (pid 0,
 * thread 1, empty host and cwd) and MISC with a JDBC-like diagnostic string
 * and block length 10 + n. user, password and server are borrowed (they must
 * outlive *r); NULL user/server give empty strings (length 1), a NULL or ""
 * password gives IXP_LOGIN_EMPTY_PASSWORD_FORM. Callers may change any field
 * afterwards (e.g. pinfo.host, extra env pairs).
 */
void ixp_conreq_defaults(ixp_conreq *r, const char *user, const char *password, const char *server);

/*
 * How an empty password is sent (single choice, §2.3 #12): 0 = length 0
 * (DBX's reading of IBM JDBC), 1 = length 1, the NUL alone (libsqli, JDD).
 * Servers must accept both, and ixp_conreq_decode does.
 */
#define IXP_LOGIN_EMPTY_PASSWORD_FORM 0

/* ---- CONACC / CONREJ / REDIRECT (§2.4) ------------------------------------ */

#define IXP_ASC_INITRESP 102 /* result item: normal reply */
#define IXP_ASC_DBLIST   103 /* result item: redirect */
#define IXP_ASC_EOT      127

/* One entry of the 102 message list: i16, then CHAR (u16 len, bytes, pad). */
typedef struct ixp_login_msg {
    int16_t kind;
    ixp_login_bytes text;
} ixp_login_msg;

typedef struct ixp_conacc {
    uint8_t sl_type;        /* IXP_SL_CONACC, IXP_SL_CONREJ or IXP_SL_REDIRECT */
    uint16_t sl_flags;      /* IXP_SL_SERVER_FLAGS */
    int32_t pf_protocol;    /* 61 */
    ixp_ascstr float_fmt;   /* "IEEEI" */
    uint8_t product[12];    /* "srvinfx" + 5 NUL */
    ixp_ascstr version;     /* server banner */
    ixp_ascstr serial;      /* "Software Serial Number ..." */
    ixp_ascstr server_name; /* DBSERVERNAME */
    int32_t cap[3];         /* 316, 0, 0 */
    int16_t reserved;       /* 0 */
    ixp_login_bytes n4;     /* i16 length + bytes, no pad; empty */
    ixp_login_bytes n5;     /* i16 length + bytes, no pad; empty */
    uint8_t proto_name[8];  /* "on" + 6 NUL */
    int32_t proto_version;  /* 61 */
    uint8_t transport[8];   /* "soctcp" + 2 NUL */
    int32_t net_level;      /* 0 */
    int16_t result;         /* IXP_ASC_INITRESP, IXP_ASC_DBLIST or IXP_ASC_EOT */
    uint16_t result_at;     /* decode only: offset of the result tag in the packet */
    /* result == 102 */
    uint8_t init_head[6]; /* zeros */
    int16_t svc_error;    /* SQLCODE; 0 = accepted (at result tag + 8) */
    int16_t os_error;     /* errno */
    uint16_t warnings;    /* 0x0014 in the capture */
    uint16_t nmsg;        /* entries in msg[0..nmsg) */
    ixp_login_msg msg[IXP_LOGIN_MAXMSG];
    /* result == 103 */
    int16_t redirect_head;    /* ignored by JDBC */
    ixp_login_bytes redirect; /* CHAR "<label>=<server>|<host>|<port>" */
    /* optional blocks after 102/103, in this order */
    int has_pinfo; /* item 107 */
    ixp_login_pinfo pinfo;
    int has_blk110; /* item 110: i16 len + bytes (meaning unknown) */
    ixp_login_bytes blk110;
    int has_misc; /* item 116 */
    ixp_login_misc misc;
} ixp_conacc;

/* Like ixp_conreq_decode, for SL types 2, 3 and 13. */
int ixp_conacc_decode(const uint8_t *p, size_t n, const ixp_login_limits *lim, ixp_conacc *out,
                      size_t *used, size_t *err_at, const char **why);

/* Like ixp_conreq_encode. IX_EINVAL also for an SL type outside {2, 3, 13},
 * a result item outside {102, 103, 127}, nmsg > IXP_LOGIN_MAXMSG or a
 * byte string longer than 32767. */
int ixp_conacc_encode(const ixp_conacc *in, ixb_wbuf *out);

/*
 * Fills *a with an accept a server should send: SL type 2, flags 0x1000,
 * 61, IEEEI, srvinfx, version_banner (NULL: IXP_LOGIN_DEFAULT_BANNER), serial
 * "Software Serial Number AAA#B000000", server_name (NULL: empty), caps
 * 316/0/0, reserved 0/0/0, on/61/soctcp/0, item 102 with svc_error 0,
 * os_error 0, warnings 0 and no messages, no optional blocks, 127. Strings
 * are borrowed.
 */
void ixp_conacc_defaults(ixp_conacc *a, const char *server_name, const char *version_banner);

/* Banner used when none is given. Which string IBM JDBC's version checks
 * want is unresolved (§2.4 #5, §8 #18); this is a plausible IDS 14.10 one. */
#define IXP_LOGIN_DEFAULT_BANNER "IBM Informix Dynamic Server Version 14.10.FC10"

/* The serial-number field of the login accept by which ixd says who it is
 * (a real server sends "Software Serial Number ..."; no IBM server begins
 * it with this). libixdb uses forms only ixd is known to take (compat=auto,
 * docs/protocol.md "Evidence") only when the accept's serial begins with it;
 * `ixd --strict` sends a real server's serial instead. */
#define IXP_IXD_SERIAL "ixd: Informix-compatible server on SQLite"

/*
 * Fills *a with a rejection: ixp_conacc_defaults, then SL type
 * IXP_SL_AUTHFAIL_TYPE (3) and svc_error (e.g. -951), which the encoder puts
 * 8 bytes after the start of the 102 tag (see ix_login.c, put_initresp).
 */
void ixp_conrej_defaults(ixp_conacc *a, const char *server_name, const char *version_banner,
                         int16_t svc_error);

/*
 * REDIRECT (SL type 13, result item 103 SQ_ASCDBLIST): "go to that server
 * instead", as Connection Manager answers a login for an SLA. Evidence:
 * single restricted source (JDBC's decoder, read by others). What is known:
 * the body is an accept's with item 103, an i16 (ignored) and a CHAR detail
 * "<label>=<server>|<host>|<port>", which JDBC splits on the characters
 * ":=|" after dropping the first token. Not known: what a real server puts
 * in <label> (we send IXP_REDIRECT_LABEL), whether <port> may be a service
 * name (we require a number), and whether optional blocks follow 103 (we
 * send none and skip any, like an accept's). Because JDBC also splits on
 * ':', an IPv6 host is not portable; ixp_redirect_parse takes the label up to
 * the first '=' and splits the rest on '|' only, so it accepts one.
 */
#define IXP_REDIRECT_LABEL    "redirect"
#define IXP_REDIRECT_NAME_MAX 128 /* server name bytes kept (dbservername limit) */
#define IXP_REDIRECT_HOST_MAX 255

typedef struct ixp_redirect_target {
    char server[IXP_REDIRECT_NAME_MAX + 1];
    char host[IXP_REDIRECT_HOST_MAX + 1];
    int port; /* 1..65535 */
} ixp_redirect_target;

/* Fills *a with a redirect to the server, host and port of *t: ixp_conacc_
 * defaults, then SL type 13 and result item 103 whose detail is built in
 * buf (cap bytes; IXP_REDIRECT_DETAIL_MAX is always enough) and borrowed by
 * *a. Returns IX_OK, or IX_EINVAL when a field is empty or does not fit
 * (or holds '|'), or the port is outside 1..65535. */
#define IXP_REDIRECT_DETAIL_MAX                                                                    \
    (sizeof IXP_REDIRECT_LABEL + IXP_REDIRECT_NAME_MAX + IXP_REDIRECT_HOST_MAX + 16)
int ixp_redirect_defaults(ixp_conacc *a, const char *version_banner, const ixp_redirect_target *t,
                          char *buf, size_t cap);

/* Parses a redirect detail p[0..n) ("<label>=<server>|<host>|<port>"; the
 * label and its '=' may be absent) into *out. Returns IX_OK, or
 * IX_EMALFORMED (not three non-empty fields, a NUL, a port that is not a
 * number in 1..65535) or IX_ELIMIT (a field longer than its buffer), with
 * *why set. */
int ixp_redirect_parse(const uint8_t *p, size_t n, ixp_redirect_target *out, const char **why);

/* ---- printing ------------------------------------------------------------ */

/*
 * Appends one line (no newline) describing the login packet at pkt[0..n) to
 * out, e.g. `CONREQ len=489 user="u" password=<32 bytes> ...` or
 * `CONACC len=267 flags=0x1000 version="..." svc_error=0 ...`. The password
 * text is never printed, only its length. Malformed input gives
 * `MALFORMED at offset N: reason`, a short one `INCOMPLETE ...`, a limit
 * violation `LIMIT at offset N: reason`.
 */
void ixp_login_print(const uint8_t *pkt, size_t n, ixb_wbuf *out);

#endif /* IXP_LOGIN_H */
