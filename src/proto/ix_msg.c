/*
 * ix_msg.c: decode and encode the SQLI post-login messages (both roles).
 *
 * Every body layout below is from sqli-protocol.md; the section is named
 * above each case. Integers are big-endian. "CHAR" is u16 length, bytes, one
 * 00 pad byte when the length is odd. "SQLTEXT" is a CHAR whose length is
 * i32 when f62 was granted and i16 otherwise.
 */
#include "ix_msg.h"

#include <string.h>

#include "ix_msg_int.h"
#include "types/ix_value.h"

void ix_limits_default(ix_limits *l) {
    if (!l->max_sql) l->max_sql = 16u << 20;
    if (!l->max_tuple) l->max_tuple = 64u << 20;
    if (!l->max_string) l->max_string = 64u << 10;
    if (!l->max_columns) l->max_columns = 32767;
    if (!l->max_value) l->max_value = 64u << 20;
    if (!l->max_items) l->max_items = 1024;
}

static const struct {
    int tag;
    const char *name;
    unsigned dirs; /* bit 0: client may send it, bit 1: server may send it */
} tags[] = {
    /* the messages of a pipelined statement first: tag_index scans */
    {IX_SQ_BIND, "SQ_BIND", 1},
    {IX_SQ_EXECUTE, "SQ_EXECUTE", 1},
    {IX_SQ_EOT, "SQ_EOT", 3},
    {IX_SQ_ID, "SQ_ID", 1},
    {IX_SQ_COMMAND, "SQ_COMMAND", 1},
    {IX_SQ_PREPARE, "SQ_PREPARE", 1},
    {IX_SQ_CURNAME, "SQ_CURNAME", 1},
    {IX_SQ_OPEN, "SQ_OPEN", 1},
    {IX_SQ_DESCRIBE, "SQ_DESCRIBE", 2},
    {IX_SQ_NFETCH, "SQ_NFETCH", 1},
    {IX_SQ_CLOSE, "SQ_CLOSE", 3},
    {IX_SQ_RELEASE, "SQ_RELEASE", 1},
    {IX_SQ_ERR, "SQ_ERR", 2},
    {IX_SQ_TUPLE, "SQ_TUPLE", 2},
    {IX_SQ_DONE, "SQ_DONE", 2},
    {IX_SQ_CMMTWORK, "SQ_CMMTWORK", 1},
    {IX_SQ_RBWORK, "SQ_RBWORK", 1},
    {IX_SQ_NDESCRIBE, "SQ_NDESCRIBE", 1},
    {IX_SQ_SFETCH, "SQ_SFETCH", 1},
    {IX_SQ_SCROLL, "SQ_SCROLL", 1},
    {IX_SQ_TUPID, "SQ_TUPID", 2},
    {IX_SQ_DBLIST, "SQ_DBLIST", 3},
    {IX_SQ_BEGIN, "SQ_BEGIN", 1},
    {IX_SQ_DBOPEN, "SQ_DBOPEN", 1},
    {IX_SQ_DBCLOSE, "SQ_DBCLOSE", 1},
    {IX_SQ_FETCHBLOB, "SQ_FETCHBLOB", 1},
    {IX_SQ_BLOB, "SQ_BLOB", 2},
    {IX_SQ_HOLD, "SQ_HOLD", 1},
    {IX_SQ_WANTDONE, "SQ_WANTDONE", 1},
    {IX_SQ_COST, "SQ_COST", 2},
    {IX_SQ_EXIT, "SQ_EXIT", 3},
    {IX_SQ_INFO, "SQ_INFO", 1},
    {IX_SQ_INSERTDONE, "SQ_INSERTDONE", 2},
    {IX_SQ_XACTSTAT, "SQ_XACTSTAT", 2},
    {IX_SQ_RET_TYPE, "SQ_RET_TYPE", 1},
    {IX_SQ_AUTOFREE, "SQ_AUTOFREE", 1},
    {IX_SQ_PROTOCOLS, "SQ_PROTOCOLS", 3},
    {IX_SQ_ACCEPT, "SQ_ACCEPT", 2},
    {IX_SQ_ACK, "SQ_ACK", 1},
    {IX_SQ_CHALLENGE, "SQ_CHALLENGE", 2},
    {IX_SQ_RESPONSE, "SQ_RESPONSE", 1},
    {IX_SQ_GENKEYS, "SQ_GENKEYS", 1},
    {IX_SQ_GENKEYS_REPLY, "SQ_GENKEYS_REPLY", 2},
    {IX_SQ_SVPOINT, "SQ_SVPOINT", 1},
    {IX_SQ_RELSVPOINT, "SQ_RELSVPOINT", 1},
    {IX_SQ_RBSVPOINT, "SQ_RBSVPOINT", 1},
    {IX_SQ_BATCH_START, "SQ_BATCH_START", 1},
    {IX_SQ_BATCH_END, "SQ_BATCH_END", 1},
};

static int tag_index(int tag) {
    for (size_t i = 0; i < sizeof tags / sizeof tags[0]; i++)
        if (tags[i].tag == tag) return (int)i;
    return -1;
}

const char *ix_tag_name(int tag) {
    if (tag == IX_MSG_LOGIN) return "LOGIN";
    int i = tag_index(tag);
    return i < 0 ? NULL : tags[i].name;
}

/* ---- field readers -------------------------------------------------------- */

int ix_rd_char(ix_rbuf *r, uint32_t max, ix_bytes *out) {
    size_t at = r->pos;
    uint16_t n = ix_get_u16(r);
    if (r->st) return 0;
    if (n > max) {
        ix_rbuf_fail(r, IX_ELIMIT, at, "CHAR length exceeds limit");
        return 0;
    }
    out->p = ix_get_bytes(r, n);
    out->n = n;
    ix_get_pad(r, n);
    return r->st == IX_OK;
}

/* SQLTEXT: i32 length with f62, i16 without; then bytes, pad. */
static void rd_sqltext(ix_rbuf *r, const ix_caps *caps, const ix_limits *lim, ix_bytes *out) {
    size_t at = r->pos;
    int64_t n = caps->f62 ? ix_get_i32(r) : ix_get_i16(r);
    if (r->st) return;
    if (n < 0) return ix_rbuf_fail(r, IX_EMALFORMED, at, "negative SQL text length");
    if ((uint64_t)n > lim->max_sql) return ix_rbuf_fail(r, IX_ELIMIT, at, "SQL text exceeds limit");
    out->p = ix_get_bytes(r, (size_t)n);
    out->n = (size_t)n;
    ix_get_pad(r, (size_t)n);
}

static void wr_sqltext(ix_wbuf *out, const ix_caps *caps, const void *p, size_t n) {
    if (caps->f62)
        ix_put_i32(out, (int64_t)n);
    else
        ix_put_i16(out, (int)n);
    ix_put_bytes(out, p, n);
    ix_put_pad(out, n);
}

/*
 * Width of the NFETCH / SFETCH buffer-size field. This is the one place
 * that decides it.
 *
 * Evidence: clients that were granted (or at least offered) f62 send an
 * i32: IBM JDBC 4.50.11 through JDD (offer ff fc 7f fc 3c 8c aa 97, NFETCH
 * 00 09 00 00 10 00 00 00), DBX's live trace and libsqli. The NMAP library,
 * tested against IDS 11.50 with the 7-byte offer ff fc 7f fc 3c 8c 8a (no
 * bit past 55), sends an i16: 00 09 10 00 00 00. IFXDB reports that IBM JDBC
 * chooses the width from what it knows of the server, and that a modern
 * server hung on an SFETCH whose size was an i16. So the width follows the
 * protocol level the two sides agreed on, and bit 62 ("remove 64K limit",
 * which already widens SQLTEXT lengths and the SQ_ERR offset from i16 to
 * i32) is the natural switch.
 *
 * UNRESOLVED: which bit governs it is SINGLE SOURCE for the i16 side (NMAP)
 * and inferred, not observed: no capture shows a server that grants f63
 * without f62 or the reverse (NMAP's offer has neither, JDD's both), so f63
 * could be the switch as well. Without f62 (no SQ_PROTOCOLS at all, or an
 * NMAP-era offer) the field is an i16; with it, an i32. SFETCH has no old-
 * client source at all; its buffer size follows the same rule (its position
 * stays an i32). sqli-protocol.md §8 #5.
 */
static int fetch_size_is_i32(const ix_caps *caps) {
    return caps && caps->f62;
}

int32_t ix_fetch_bufsize_max(const ix_caps *caps) {
    return fetch_size_is_i32(caps) ? INT32_MAX : INT16_MAX;
}

static int32_t rd_fetch_size(ix_rbuf *r, const ix_caps *caps) {
    return fetch_size_is_i32(caps) ? ix_get_i32(r) : ix_get_i16(r);
}

static void wr_fetch_size(ix_wbuf *out, const ix_caps *caps, int32_t n) {
    if (fetch_size_is_i32(caps))
        ix_put_i32(out, n);
    else
        ix_put_i16(out, n > INT16_MAX ? INT16_MAX : n < INT16_MIN ? INT16_MIN : n);
}

void ix_enc_char(ix_wbuf *out, const void *p, size_t n) {
    ix_put_i16(out, (int)n);
    ix_put_bytes(out, p, n);
    ix_put_pad(out, n);
}

/* ---- decode ---------------------------------------------------------------- */

static void decode_client(ix_rbuf *r, int tag, const ix_caps *caps, const ix_limits *lim,
                          ix_msg *m) {
    switch (tag) {
    /* §3.3 COMMAND: i16 0, SQLTEXT.  §3.1 PREPARE: i16 nparams, SQLTEXT. */
    case IX_SQ_COMMAND:
    case IX_SQ_PREPARE:
        m->u.stmt.nparams = ix_get_i16(r);
        rd_sqltext(r, caps, lim, &m->u.stmt.sql);
        break;
    /* §3.6 CURNAME: CHAR name.  §3.12 release/rollback-to savepoint: CHAR. */
    case IX_SQ_CURNAME:
    case IX_SQ_RELSVPOINT:
    case IX_SQ_RBSVPOINT: ix_rd_char(r, lim->max_string, &m->u.name); break;
    /* §3.5 ID: i16 statement id. */
    case IX_SQ_ID: m->u.id = ix_get_i16(r); break;
    case IX_SQ_BIND: ix_rd_bind(r, lim, m); break;
    /* §3.6 NFETCH: buffer size (i32 with f62, i16 without: fetch_size_is_i32),
     * i16 fetch array size (0). */
    case IX_SQ_NFETCH:
        m->u.nfetch.bufsize = rd_fetch_size(r, caps);
        m->u.nfetch.arraysize = ix_get_i16(r);
        break;
    /* §3.12 RBWORK: optional i16 0 flag word (libsqli, single source). */
    case IX_SQ_RBWORK: {
        const uint8_t *p = r->p + r->pos;
        if (!ix_need(r, 2)) break;
        if (p[0] == 0 && p[1] == 0) {
            m->u.rbwork.has_flag = 1;
            r->pos += 2;
        }
        break;
    }
    /* §3.13 SFETCH: i16 direction, i32 position, buffer size (as NFETCH's). */
    case IX_SQ_SFETCH:
        m->u.sfetch.direction = ix_get_i16(r);
        m->u.sfetch.position = ix_get_i32(r);
        m->u.sfetch.bufsize = rd_fetch_size(r, caps);
        break;
    /* §2.8 DBOPEN: CHAR name, i16 flags. */
    case IX_SQ_DBOPEN:
        ix_rd_char(r, lim->max_string, &m->u.dbopen.name);
        m->u.dbopen.flags = ix_get_i16(r);
        break;
    /* §3.14 FETCHBLOB: the BYTE/TEXT descriptor (56 bytes, 68 with f70). */
    case IX_SQ_FETCHBLOB: {
        size_t n = caps->f70 ? 68 : 56;
        m->u.blobdesc.p = ix_get_bytes(r, n);
        m->u.blobdesc.n = n;
        break;
    }
    case IX_SQ_INFO: ix_rd_info(r, lim, m); break;
    case IX_SQ_RET_TYPE: ix_rd_ret_type(r, lim, m); break;
    /* §2.5 PROTOCOLS: u16 n, n bytes, pad. */
    case IX_SQ_PROTOCOLS: ix_rd_char(r, 256, &m->u.protocols); break;
    /* §2.6 RESPONSE: i16 length, bytes, pad. */
    case IX_SQ_RESPONSE: ix_rd_char(r, lim->max_string, &m->u.response); break;
    /* §1.1 generated-keys request: i16 (1). Single source (JDD). */
    case IX_SQ_GENKEYS: m->u.genkeys = ix_get_i16(r); break;
    /* §3.12 savepoint: CHAR name, i16 unique. Single source (libsqli). */
    case IX_SQ_SVPOINT:
        ix_rd_char(r, lim->max_string, &m->u.svpoint.name);
        m->u.svpoint.unique = ix_get_i16(r);
        break;
    default: /* body-less: OPEN, EXECUTE, CLOSE, RELEASE, EOT, ... */ break;
    }
}

/*
 * SQ_DBLIST reply (NMAP's reader against IDS 11.50, single source), after
 * the tag:
 * | per database: u16 length (> 0) | name bytes | pad to even |
 * | u16 0 (end of the list)                                   |
 * The group's EOT follows as a message of its own. The client's request is
 * the bare tag (00 1a, then EOT).
 */
static void rd_dblist(ix_rbuf *r, const ix_limits *lim, ix_msg *m) {
    size_t start = r->pos;
    for (;;) {
        size_t at = r->pos;
        ix_bytes name;
        if (!ix_rd_char(r, lim->max_string, &name)) return;
        if (name.n == 0) break;
        if ((uint32_t)++m->u.dblist.count > lim->max_items)
            return ix_rbuf_fail(r, IX_ELIMIT, at, "too many SQ_DBLIST names");
    }
    m->u.dblist.raw.p = r->p + start;
    m->u.dblist.raw.n = r->pos - start - 2;
}

int ix_dblist_next(const ix_msg *m, size_t *pos, ix_bytes *name) {
    if (*pos >= m->u.dblist.raw.n) return 0;
    ix_rbuf r;
    ix_rbuf_init(&r, m->u.dblist.raw.p, m->u.dblist.raw.n);
    r.pos = *pos;
    if (!ix_rd_char(&r, UINT32_MAX, name) || name->n == 0) return 0;
    *pos = r.pos;
    return 1;
}

int ix_enc_dblist(ix_wbuf *out, const ix_bytes *names, int n) {
    for (int i = 0; i < n; i++)
        if (names[i].n == 0 || names[i].n > UINT16_MAX) return IX_EINVAL;
    ix_put_i16(out, IX_SQ_DBLIST);
    for (int i = 0; i < n; i++)
        ix_enc_char(out, names[i].p, names[i].n);
    ix_put_i16(out, 0);
    return out->err;
}

static void decode_server(ix_rbuf *r, int tag, const ix_caps *caps, const ix_limits *lim,
                          ix_msg *m) {
    switch (tag) {
    case IX_SQ_DESCRIBE: ix_rd_describe(r, caps, lim, m); break;
    /* §3.10 ERR: i16 sqlcode, i16 isamcode, offset (i16; i32 with f62), CHAR
     * message. sqlcode -368 has no message field; whether it still carries
     * the offset is unresolved (§8 #3): this follows DBX (offset present).
     * libsqli's special forms for 0/100/-937/-619 are not decoded (a server
     * must not send them). */
    case IX_SQ_ERR: {
        m->u.err.sqlcode = ix_get_i16(r);
        m->u.err.isamcode = ix_get_i16(r);
        m->u.err.offset = caps->f62 ? ix_get_i32(r) : ix_get_i16(r);
        m->u.err.has_msg = m->u.err.sqlcode != -368;
        if (m->u.err.has_msg) ix_rd_char(r, lim->max_string, &m->u.err.msg);
        break;
    }
    /* §3.7 TUPLE: i16 warnings, i32 length, payload, pad. */
    case IX_SQ_TUPLE: {
        m->u.tuple.warnings = ix_get_i16(r);
        size_t at = r->pos;
        int32_t n = ix_get_i32(r);
        if (r->st) break;
        if (n < 0) return ix_rbuf_fail(r, IX_EMALFORMED, at, "negative tuple length");
        if ((uint32_t)n > lim->max_tuple)
            return ix_rbuf_fail(r, IX_ELIMIT, at, "tuple length exceeds limit");
        m->u.tuple.data.p = ix_get_bytes(r, (size_t)n);
        m->u.tuple.data.n = (size_t)n;
        ix_get_pad(r, (size_t)n);
        break;
    }
    /* §3.8 DONE: i16 warnings, rows i32 (i64 with f70), rowid i32 (i64 with
     * f70), i32 serial. */
    case IX_SQ_DONE:
        m->u.done.warnings = ix_get_i16(r);
        m->u.done.rows = caps->f70 ? ix_get_i64(r) : ix_get_i32(r);
        m->u.done.rowid = caps->f70 ? ix_get_i64(r) : ix_get_i32(r);
        m->u.done.serial = ix_get_i32(r);
        break;
    /* §3.13 TUPID: 1-based row position. Width unresolved (single source,
     * IFXDB gives none); i32 chosen here. */
    case IX_SQ_TUPID: m->u.tupid = ix_get_i32(r); break;
    /* §3.14 BLOB chunk: i16 length, bytes, pad. */
    case IX_SQ_BLOB: ix_rd_char(r, 32767, &m->u.blob); break;
    /* §3.9 COST: i32 estimated rows, i32 estimated cost. */
    case IX_SQ_COST:
        m->u.cost.est_rows = ix_get_i32(r);
        m->u.cost.est_cost = ix_get_i32(r);
        break;
    /* §3.9 INSERTDONE: 10-byte INT8 serial8 value, then i64 bigserial if f54. */
    case IX_SQ_INSERTDONE: {
        size_t at = r->pos;
        const uint8_t *p = ix_get_bytes(r, 10);
        if (p && ix_int8_decode(p, &m->u.insertdone.serial8) == IX_EMALFORMED)
            return ix_rbuf_fail(r, IX_EMALFORMED, at, "bad INT8 in SQ_INSERTDONE");
        m->u.insertdone.has_bigserial = caps->f54;
        if (caps->f54) m->u.insertdone.bigserial = ix_get_i64(r);
        break;
    }
    /* §3.9 XACTSTAT: i16 event, i16 new level, i16 old level (values unresolved). */
    case IX_SQ_XACTSTAT:
        m->u.xactstat.event = ix_get_i16(r);
        m->u.xactstat.new_level = ix_get_i16(r);
        m->u.xactstat.old_level = ix_get_i16(r);
        break;
    case IX_SQ_PROTOCOLS: ix_rd_char(r, 256, &m->u.protocols); break;
    /* §2.6 CHALLENGE: i16 style, i16 length, bytes, pad. Layout disputed
     * (§8 #7): this is DBX's live-validated form; libsqli reads three i16. */
    case IX_SQ_CHALLENGE:
        m->u.challenge.style = ix_get_i16(r);
        ix_rd_char(r, lim->max_string, &m->u.challenge.prompt);
        break;
    /* §1.1 generated-keys reply: u16 length (4), bytes. Single source (JDD). */
    case IX_SQ_GENKEYS_REPLY: ix_rd_char(r, 64, &m->u.genkey); break;
    case IX_SQ_DBLIST: rd_dblist(r, lim, m); break;
    default: /* body-less: EOT, CLOSE, EXIT, ACCEPT */ break;
    }
}

int ix_msg_decode(const uint8_t *p, size_t n, ix_role role, const ix_caps *caps,
                  const ix_limits *lim_in, ix_msg *m, size_t *err_at, const char **why) {
    ix_limits lim = lim_in ? *lim_in : (ix_limits){0};
    ix_limits_default(&lim);
    static const ix_caps nocaps;
    if (!caps) caps = &nocaps;
    ix_rbuf r;
    ix_rbuf_init(&r, p, n);
    memset(m, 0, sizeof *m);
    int tag = 0;
    if (ix_need(&r, 2)) { /* the i16 tag, a direct load */
        tag = (int16_t)ix_be16(p);
        r.pos = 2;
        int i = tag_index(tag);
        unsigned dir = role == IX_FROM_CLIENT ? 1u : 2u;
        if (i < 0)
            ix_rbuf_fail(&r, IX_EMALFORMED, 0, "unknown message tag");
        else if (!(tags[i].dirs & dir))
            ix_rbuf_fail(&r, IX_EMALFORMED, 0,
                         role == IX_FROM_CLIENT ? "server message tag sent by client"
                                                : "client message tag sent by server");
        else if (role == IX_FROM_CLIENT)
            decode_client(&r, tag, caps, &lim, m);
        else
            decode_server(&r, tag, caps, &lim, m);
    }
    if (r.st != IX_OK) {
        if (err_at) *err_at = r.err_at;
        if (why) *why = r.why;
        return r.st;
    }
    m->tag = tag;
    m->len = r.pos;
    return IX_OK;
}

/* ---- encode ---------------------------------------------------------------- */

void ix_enc_tag(ix_wbuf *out, int tag) {
    ix_put_i16(out, tag);
}

void ix_enc_command(ix_wbuf *out, const ix_caps *caps, const char *sql, size_t n) {
    ix_put_i16(out, IX_SQ_COMMAND);
    ix_put_i16(out, 0);
    wr_sqltext(out, caps, sql, n);
}

void ix_enc_prepare(ix_wbuf *out, const ix_caps *caps, int nparams, const char *sql, size_t n) {
    ix_put_i16(out, IX_SQ_PREPARE);
    ix_put_i16(out, nparams);
    wr_sqltext(out, caps, sql, n);
}

void ix_enc_id(ix_wbuf *out, int id) {
    ix_put_i16(out, IX_SQ_ID);
    ix_put_i16(out, id);
}

void ix_enc_curname(ix_wbuf *out, const char *name, size_t n) {
    ix_put_i16(out, IX_SQ_CURNAME);
    ix_enc_char(out, name, n);
}

void ix_enc_nfetch(ix_wbuf *out, const ix_caps *caps, int32_t bufsize) {
    ix_put_i16(out, IX_SQ_NFETCH);
    wr_fetch_size(out, caps, bufsize);
    ix_put_i16(out, 0);
}

void ix_enc_sfetch(ix_wbuf *out, const ix_caps *caps, int direction, int32_t position,
                   int32_t bufsize) {
    ix_put_i16(out, IX_SQ_SFETCH);
    ix_put_i16(out, direction);
    ix_put_i32(out, position);
    wr_fetch_size(out, caps, bufsize);
}

void ix_enc_dbopen(ix_wbuf *out, const char *name, size_t n, int flags) {
    ix_put_i16(out, IX_SQ_DBOPEN);
    ix_enc_char(out, name, n);
    ix_put_i16(out, flags);
}

void ix_enc_protocols(ix_wbuf *out, const uint8_t *bits, size_t n) {
    ix_put_i16(out, IX_SQ_PROTOCOLS);
    ix_enc_char(out, bits, n);
}

void ix_enc_fetchblob(ix_wbuf *out, const uint8_t *desc, size_t n) {
    ix_put_i16(out, IX_SQ_FETCHBLOB);
    ix_put_bytes(out, desc, n);
    ix_put_pad(out, n);
}

void ix_enc_svpoint(ix_wbuf *out, int tag, const char *name, size_t n, int unique) {
    ix_put_i16(out, tag);
    ix_enc_char(out, name, n);
    if (tag == IX_SQ_SVPOINT) ix_put_i16(out, unique);
}

void ix_enc_response(ix_wbuf *out, const uint8_t *p, size_t n) {
    ix_put_i16(out, IX_SQ_RESPONSE);
    ix_enc_char(out, p, n);
}

void ix_enc_tuple(ix_wbuf *out, int warnings, const uint8_t *p, size_t n) {
    ix_put_i16(out, IX_SQ_TUPLE);
    ix_put_i16(out, warnings);
    ix_put_i32(out, (int64_t)n);
    ix_put_bytes(out, p, n);
    ix_put_pad(out, n);
}

/*
 * SQ_DONE, written with one reservation (nothing written when it fails):
 * | i16 SQ_DONE | i16 warnings | rows | rowid | i32 serial |
 * rows and rowid are i64 with f70, i32 without.
 */
void ix_enc_done(ix_wbuf *out, const ix_caps *caps, int warnings, int64_t rows, int64_t rowid,
                 int32_t serial) {
    size_t w = caps->f70 ? 8 : 4, n = 8 + 2 * w;
    if (ix_wbuf_reserve(out, n) != IX_OK) return;
    uint8_t *p = out->data + out->len;
    ix_st16(p, IX_SQ_DONE);
    ix_st16(p + 2, (uint16_t)warnings);
    if (w == 8) {
        ix_st64(p + 4, (uint64_t)rows);
        ix_st64(p + 12, (uint64_t)rowid);
    } else {
        ix_st32(p + 4, (uint32_t)rows);
        ix_st32(p + 8, (uint32_t)rowid);
    }
    ix_st32(p + 4 + 2 * w, (uint32_t)serial);
    out->len += n;
}

/* SQ_COST, one reservation: | i16 SQ_COST | i32 estimated rows | i32 estimated cost | */
void ix_enc_cost(ix_wbuf *out, int32_t est_rows, int32_t est_cost) {
    if (ix_wbuf_reserve(out, 10) != IX_OK) return;
    uint8_t *p = out->data + out->len;
    ix_st16(p, IX_SQ_COST);
    ix_st32(p + 2, (uint32_t)est_rows);
    ix_st32(p + 6, (uint32_t)est_cost);
    out->len += 10;
}

void ix_enc_xactstat(ix_wbuf *out, int event, int new_level, int old_level) {
    ix_put_i16(out, IX_SQ_XACTSTAT);
    ix_put_i16(out, event);
    ix_put_i16(out, new_level);
    ix_put_i16(out, old_level);
}

void ix_enc_insertdone(ix_wbuf *out, const ix_caps *caps, int64_t serial8, int64_t bigserial) {
    ix_put_i16(out, IX_SQ_INSERTDONE);
    if (ix_int8_encode(serial8, out) != IX_OK && !out->err) out->err = IX_ERANGE;
    if (caps->f54) ix_put_i64(out, bigserial);
}

void ix_enc_err(ix_wbuf *out, const ix_caps *caps, int sqlcode, int isamcode, int32_t offset,
                const char *msg, size_t n) {
    ix_put_i16(out, IX_SQ_ERR);
    ix_put_i16(out, sqlcode);
    ix_put_i16(out, isamcode);
    if (caps->f62)
        ix_put_i32(out, offset);
    else
        ix_put_i16(out, offset);
    if (sqlcode != -368) ix_enc_char(out, msg, n);
}

void ix_enc_blob(ix_wbuf *out, const uint8_t *p, size_t n) {
    ix_put_i16(out, IX_SQ_BLOB);
    ix_enc_char(out, p, n);
}

void ix_enc_tupid(ix_wbuf *out, int32_t pos) {
    ix_put_i16(out, IX_SQ_TUPID);
    ix_put_i32(out, pos);
}

void ix_enc_challenge(ix_wbuf *out, int style, const char *prompt, size_t n) {
    ix_put_i16(out, IX_SQ_CHALLENGE);
    ix_put_i16(out, style);
    ix_enc_char(out, prompt, n);
}

int ix_msg_encode(ix_wbuf *out, ix_role role, const ix_caps *caps, const ix_msg *m) {
    static const ix_caps nocaps;
    if (!caps) caps = &nocaps;
    int i = tag_index(m->tag);
    if (i < 0 || !(tags[i].dirs & (role == IX_FROM_CLIENT ? 1u : 2u))) return IX_EINVAL;
    switch (m->tag) {
    case IX_SQ_COMMAND:
    case IX_SQ_PREPARE:
        ix_put_i16(out, m->tag);
        ix_put_i16(out, m->u.stmt.nparams);
        wr_sqltext(out, caps, m->u.stmt.sql.p, m->u.stmt.sql.n);
        break;
    case IX_SQ_CURNAME:
    case IX_SQ_RELSVPOINT:
    case IX_SQ_RBSVPOINT:
        ix_put_i16(out, m->tag);
        ix_enc_char(out, m->u.name.p, m->u.name.n);
        break;
    case IX_SQ_ID: ix_enc_id(out, m->u.id); break;
    case IX_SQ_BIND:
        ix_put_i16(out, IX_SQ_BIND);
        ix_put_i16(out, m->u.bind.count);
        ix_put_bytes(out, m->u.bind.raw.p, m->u.bind.raw.n);
        break;
    case IX_SQ_NFETCH:
        ix_put_i16(out, IX_SQ_NFETCH);
        wr_fetch_size(out, caps, m->u.nfetch.bufsize);
        ix_put_i16(out, m->u.nfetch.arraysize);
        break;
    case IX_SQ_RBWORK:
        ix_put_i16(out, IX_SQ_RBWORK);
        if (m->u.rbwork.has_flag) ix_put_i16(out, 0);
        break;
    case IX_SQ_SFETCH:
        ix_enc_sfetch(out, caps, m->u.sfetch.direction, m->u.sfetch.position, m->u.sfetch.bufsize);
        break;
    case IX_SQ_DBOPEN:
        ix_put_i16(out, IX_SQ_DBOPEN);
        ix_enc_char(out, m->u.dbopen.name.p, m->u.dbopen.name.n);
        ix_put_i16(out, m->u.dbopen.flags);
        break;
    case IX_SQ_FETCHBLOB: ix_enc_fetchblob(out, m->u.blobdesc.p, m->u.blobdesc.n); break;
    case IX_SQ_INFO:
        ix_put_i16(out, IX_SQ_INFO);
        ix_put_i16(out, m->u.info.subtype);
        ix_put_i16(out, m->u.info.total);
        ix_put_i16(out, m->u.info.max_key);
        ix_put_i16(out, m->u.info.max_value);
        ix_put_bytes(out, m->u.info.raw.p, m->u.info.raw.n);
        break;
    case IX_SQ_RET_TYPE:
        ix_put_i16(out, IX_SQ_RET_TYPE);
        ix_put_i16(out, m->u.ret_type.one);
        ix_put_i16(out, m->u.ret_type.ncols);
        ix_put_bytes(out, m->u.ret_type.raw.p, m->u.ret_type.raw.n);
        break;
    case IX_SQ_PROTOCOLS: ix_enc_protocols(out, m->u.protocols.p, m->u.protocols.n); break;
    case IX_SQ_RESPONSE: ix_enc_response(out, m->u.response.p, m->u.response.n); break;
    case IX_SQ_GENKEYS:
        ix_put_i16(out, IX_SQ_GENKEYS);
        ix_put_i16(out, m->u.genkeys);
        break;
    case IX_SQ_SVPOINT:
        ix_enc_svpoint(out, IX_SQ_SVPOINT, (const char *)m->u.svpoint.name.p, m->u.svpoint.name.n,
                       m->u.svpoint.unique);
        break;
    case IX_SQ_DESCRIBE: ix_wr_describe_raw(out, caps, m); break;
    case IX_SQ_ERR:
        ix_enc_err(out, caps, m->u.err.sqlcode, m->u.err.isamcode, m->u.err.offset,
                   (const char *)m->u.err.msg.p, m->u.err.msg.n);
        break;
    case IX_SQ_TUPLE:
        ix_enc_tuple(out, m->u.tuple.warnings, m->u.tuple.data.p, m->u.tuple.data.n);
        break;
    case IX_SQ_DONE:
        ix_enc_done(out, caps, m->u.done.warnings, m->u.done.rows, m->u.done.rowid,
                    m->u.done.serial);
        break;
    case IX_SQ_TUPID: ix_enc_tupid(out, m->u.tupid); break;
    case IX_SQ_BLOB: ix_enc_blob(out, m->u.blob.p, m->u.blob.n); break;
    case IX_SQ_COST: ix_enc_cost(out, m->u.cost.est_rows, m->u.cost.est_cost); break;
    case IX_SQ_INSERTDONE:
        ix_enc_insertdone(out, caps, m->u.insertdone.serial8, m->u.insertdone.bigserial);
        break;
    case IX_SQ_XACTSTAT:
        ix_enc_xactstat(out, m->u.xactstat.event, m->u.xactstat.new_level, m->u.xactstat.old_level);
        break;
    case IX_SQ_CHALLENGE:
        ix_enc_challenge(out, m->u.challenge.style, (const char *)m->u.challenge.prompt.p,
                         m->u.challenge.prompt.n);
        break;
    case IX_SQ_GENKEYS_REPLY:
        ix_put_i16(out, IX_SQ_GENKEYS_REPLY);
        ix_enc_char(out, m->u.genkey.p, m->u.genkey.n);
        break;
    case IX_SQ_DBLIST:
        ix_put_i16(out, IX_SQ_DBLIST);
        if (role == IX_FROM_SERVER) {
            ix_put_bytes(out, m->u.dblist.raw.p, m->u.dblist.raw.n);
            ix_put_i16(out, 0);
        }
        break;
    default: ix_put_i16(out, m->tag); break;
    }
    return out->err;
}
