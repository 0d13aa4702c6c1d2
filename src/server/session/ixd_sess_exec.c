/*
 * ixd_sess_exec.c: a session's statements at work: binds (and the BYTE/TEXT
 * values that follow them), EXECUTE, OPEN, NFETCH and SFETCH with the
 * read-ahead, FETCHBLOB, CLOSE and RELEASE, savepoints and transactions.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ixd_server.h"
#include "proto/ix_blob.h"
#include "proto/ix_reader.h"
#include "types/ix_types.h"
#include "ixd_session_int.h"

/* ---- BYTE/TEXT values after the BIND (proto/ix_blob.h) ----------------------
 * A descriptor in the BIND marks its value pending; SQ_BBIND must announce
 * as many values as are pending; each value's SQ_BLOB chunks are appended to
 * t->binds in the LVARCHAR tuple form (00, i32 length, bytes), as ixdb's
 * inline form is; a zero-length SQ_BLOB ends it. EXECUTE / OPEN refuse while
 * a value is pending. Every refusal is an SQ_ERR; the session then skips the
 * rest of the group. */

#define BLOBIN_HEAD 5 /* a value's tuple head: 00, i32 length */

/* Resets the state for a new BIND. */
static void blobin_reset(sess_stmt *t) {
    t->blobin = (struct blobin){.announced = -1, .at = -1};
}

/* A descriptor value r: NULL when its flag says so, else pending. Returns 1. */
static int blobin_expect(sess_stmt *t, const ixp_bindval *v, struct bindref *r) {
    uint32_t size;
    int is_null;
    (void)ixp_blobdesc_get(v->value.p, v->value.n, &size, &is_null); /* validated */
    r->null = is_null;
    r->t = (ixt_vtype){IX_T_LVARCHAR, 0};
    if (is_null) return 1;
    r->pending = 1;
    t->blobin.waiting++;
    return 1;
}

/* Ends the statement's kept binds after a refused step: sends sqlcode. */
void ixd_sess_blobin_fail(ixd_sess *s, sess_stmt *t, int sqlcode, const char *why) {
    t->nbinds = 0;
    t->wire_bound = 0;
    blobin_reset(t);
    ixd_sess_send_errcode(s, sqlcode, 0, why);
}

/* SQ_BBIND: the count must be the number of pending values. */
void ixd_sess_do_bbind(ixd_sess *s, const ixp_msg *m) {
    sess_stmt *t = ixd_sess_use_stmt(s);
    if (!t) return;
    if (t->blobin.announced >= 0)
        return ixd_sess_blobin_fail(s, t, E_BLOB_WRITE, "a second SQ_BBIND for one SQ_BIND");
    if (m->u.bbind != t->blobin.waiting)
        return ixd_sess_blobin_fail(s, t, E_HOST_VARS,
                                    "SQ_BBIND count differs from the descriptors bound");
    t->blobin.announced = m->u.bbind;
}

/* The index of the next pending value, or -1. Values fill in order, so
 * the search goes on where the last one ended (one pass per BIND). */
static int blobin_next(sess_stmt *t) {
    for (int i = t->blobin.scan; i < t->nbinds; i++)
        if (t->bindv[i].pending) {
            t->blobin.scan = i + 1;
            return i;
        }
    return -1;
}

/* Starts value i: its tuple head, the length patched when it ends. */
static void blobin_start(sess_stmt *t, int i) {
    struct bindref *r = &t->bindv[i];
    r->off = t->binds.len;
    ixb_put_u8(&t->binds, 0);
    ixb_put_i32(&t->binds, 0);
    t->blobin.at = i;
}

/* Ends the value being filled: length patched, no longer pending. */
static void blobin_end(sess_stmt *t) {
    struct bindref *r = &t->bindv[t->blobin.at];
    r->len = t->binds.len - r->off;
    r->t.enclen = (uint32_t)(r->len - BLOBIN_HEAD);
    ixb_patch_i32(&t->binds, r->off + 1, (int64_t)r->t.enclen);
    r->pending = 0;
    t->blobin.at = -1;
    t->blobin.announced--;
    t->blobin.waiting--;
}

/* SQ_BLOB from the client: a chunk of the next pending value. */
void ixd_sess_do_blob_chunk(ixd_sess *s, const ixp_msg *m) {
    sess_stmt *t = ixd_sess_use_stmt(s);
    if (!t) return;
    if (t->blobin.announced <= 0)
        return ixd_sess_blobin_fail(s, t, E_BLOB_WRITE,
                                    "SQ_BLOB without a value announced by SQ_BBIND");
    if (t->blobin.at < 0) {
        int i = blobin_next(t);
        if (i < 0) return ixd_sess_blobin_fail(s, t, E_BLOB_WRITE, "no BYTE/TEXT value is waiting");
        blobin_start(t, i);
    }
    ixp_limits lim = s->rd.lim;
    ixp_limits_default(&lim);
    t->blobin.total += m->u.blob.n;
    if (t->blobin.total > lim.max_value)
        return ixd_sess_blobin_fail(s, t, E_BLOB_WRITE,
                                    "BYTE/TEXT values exceed the server's limit");
    ixb_put_bytes(&t->binds, m->u.blob.p, m->u.blob.n);
    if (t->binds.err) return ixd_sess_blobin_fail(s, t, E_NOMEM, NULL);
    if (m->u.blob.n == 0) blobin_end(t);
}

/* 1 (E_BLOB_HOSTVAR sent) when a value's bytes have not come, else 0. */
static int blobin_missing(ixd_sess *s, sess_stmt *t) {
    if (t->blobin.waiting == 0) return 0;
    ixd_sess_blobin_fail(s, t, E_BLOB_HOSTVAR, "BYTE/TEXT data did not follow the SQ_BIND");
    return 1;
}

/* One bind value of any type through the decoder's walker; 0 when the
 * value cannot be converted (-1213 sent). */
static int bind_general(ixd_sess *s, sess_stmt *t, const ixp_bindval *v, struct bindref *r) {
    r->t = ixp_bind_vtype(v);
    r->null = v->indicator != IXP_IND_VALUE;
    int kind;
    kind = IXP_LO_XID_BLOB;
    if ((v->type & 0xff) == IX_T_UDTFIXED &&
        (v->has_names ? ixp_lob_xname(v->xname.p, v->xname.n, &kind) : 1)) {
        /* a smart-LOB handle (type 41, with the names blob/clob or
         * without names): handed over in its tuple form (ix_lob.h) */
        ixp_locator l;
        r->t = (ixt_vtype){ixv_lob_code(kind), IXP_LOCATOR_LEN};
        if (r->null) return 1;
        if (ixp_lob_bind_value(v, &l) != IX_OK) {
            t->nbinds = 0;
            ixd_sess_send_errcode(s, IXD_E_LO, 0, "not a smart-LOB handle of this server");
            return 0;
        }
        ixp_lob_tuple_encode(&t->binds, &l);
    } else if (ixp_bind_is_blobdesc(v)) {
        return blobin_expect(t, v, r);
    } else if (!r->null && (r->t.code == IX_T_BYTE || r->t.code == IX_T_TEXT)) {
        if (ixd_sess_strict_inline_blob_refused(s, t)) return 0;
        /* ixdb's own BYTE/TEXT bind (i32 length, bytes): handed to the
         * engine as an LVARCHAR tuple value, which it stores as is. */
        uint32_t n = v->value.n >= 4 ? ixb_be32(v->value.p) : 0;
        r->t = (ixt_vtype){IX_T_LVARCHAR, n};
        ixb_put_u8(&t->binds, 0);
        ixb_put_bytes(&t->binds, v->value.p, v->value.n);
    } else if (!r->null) {
        /* Passed in the bind's own type; the engine converts it to the
         * parameter's type where Informix would. */
        if (ixt_value_from_bind(r->t, v->value.p, v->value.n, &t->binds) != IX_OK) {
            t->nbinds = 0;
            ixd_sess_send_errcode(s, IXV_E_CONVERT, 0, NULL);
            return 0;
        }
    }
    return 1;
}

/* SQ_BIND: converts every value to its tuple form and keeps it for the
 * next EXECUTE or OPEN. */
void ixd_sess_do_bind(ixd_sess *s, const ixp_msg *m) {
    sess_stmt *t = ixd_sess_use_stmt(s);
    if (t) ixd_sess_bind_stmt(s, t, m);
}

void ixd_sess_bind_stmt(ixd_sess *s, sess_stmt *t, const ixp_msg *m) {
    ixb_wbuf_reset(&t->binds);
    t->nbinds = 0;
    t->wire_bound = 0;
    blobin_reset(t);
    /* a statement without a cursor, every value of a common type: straight
     * into the engine's parameters, in one pass */
    if (t->st && !t->is_cursor &&
        ixd_bind_wire(t->st, m->u.bind.raw.p, m->u.bind.raw.n, m->u.bind.count) == 0) {
        t->wire_bound = 1;
        return;
    }
    if (m->u.bind.count > t->bindcap) {
        struct bindref *b = realloc(t->bindv, (size_t)m->u.bind.count * sizeof *b);
        if (!b) return ixd_sess_send_errcode(s, IXV_E_NOMEM, 0, NULL);
        t->bindv = b;
        t->bindcap = m->u.bind.count;
    }
    const uint8_t *raw = m->u.bind.raw.p;
    size_t pos = 0, n = m->u.bind.raw.n;
    int room = ixb_wbuf_reserve(&t->binds, n) == IX_OK;
    while (pos < n && t->nbinds < m->u.bind.count) {
        struct bindref *r = &t->bindv[t->nbinds];
        r->off = t->binds.len;
        r->null = 0;
        r->pending = 0;
        /* the general path may use the room the message reserved */
        size_t used = room && t->binds.cap - t->binds.len >= n - pos
                          ? ixd_sess_bind_fast(t, raw + pos, n - pos, r)
                          : 0;
        if (used) {
            pos += used;
        } else {
            ixp_bindval v;
            t->binds.len = r->off;
            if (!ixp_bind_next(m, &pos, &v)) break;
            if (!bind_general(s, t, &v, r)) return;
        }
        r->len = t->binds.len - r->off;
        t->nbinds++;
    }
}

/* Hands the kept binds to the engine. One error record for all of them:
 * the engine fills it only on the error that ends the loop. */
static int apply_binds(ixd_sess *s, sess_stmt *t) {
    if (!t->st) return 0;
    if (t->wire_bound) return 0; /* bound at the BIND, count checked there */
    if (blobin_missing(s, t)) return -1;
    ixv_err e = {0};
    int want = ixd_stmt_nparams(t->st);
    if (t->nbinds != want && !(t->nbinds == 0 && want == 0)) {
        ixv_seterr(&e, E_HOST_VARS, 0, 0, NULL);
        ixd_sess_send_err(s, &e);
        return -1;
    }
    for (int i = 0; i < t->nbinds; i++) {
        struct bindref *r = &t->bindv[i];
        if (ixd_bind(t->st, i, r->t, r->null ? NULL : t->binds.data + r->off, r->len, &e) != 0) {
            ixd_sess_send_err(s, &e);
            return -1;
        }
    }
    return 0;
}

/* The statement of the cursor named name (SQ_CURNAME), for WHERE CURRENT OF
 * (ixd_set_cursor_lookup). */
static ixd_stmt *sess_cursor(void *ud, const char *name) {
    ixd_sess *s = ud;
    for (int i = 0; i < MAX_STMTS; i++) {
        sess_stmt *t = s->stmts[i];
        if (t && t->st && t->cursor[0] && !strcasecmp(t->cursor, name)) return t->st;
    }
    return NULL;
}

void ixd_sess_do_execute(ixd_sess *s) {
    sess_stmt *t = ixd_sess_use_stmt(s);
    if (t) ixd_sess_exec_stmt(s, t);
}

void ixd_sess_exec_stmt(ixd_sess *s, sess_stmt *t) {
    ixv_err e = {0};
    if (t->session_sql) {
        int r = ixd_session_exec(s->srv->engine, s->user, t->session_sql, strlen(t->session_sql),
                                 &s->db, &s->dbflags, &e);
        if (r < 0) return ixd_sess_send_err(s, &e);
        ixd_sess_db_env(s); /* DATABASE, CREATE DATABASE may have opened one */
        return ixd_sess_send_done(s, t->stmt_type == IX_STMTTYPE_DATABASE ? s->dbflags : 0, 0, 0);
    }
    if (t->is_cursor) return ixd_sess_send_errcode(s, IXV_E_SELECT_NEEDS_CUR, 0, NULL);
    if (apply_binds(s, t)) return;
    ixd_set_cursor_lookup(s->db, sess_cursor, s);
    int64_t rows = 0, serial8 = 0;
    int32_t serial = 0;
    if (ixd_execute(t->st, &rows, &serial, &serial8, &e) != 0) return ixd_sess_send_err(s, &e);
    if (serial8) ixp_enc_insertdone(&s->reply, &s->caps, serial8, s->caps.f54 ? serial8 : 0);
    ixd_sess_send_done(s, 0, rows, serial);
}

void ixd_sess_do_open(ixd_sess *s) {
    sess_stmt *t = ixd_sess_use_stmt(s);
    if (!t) return;
    if (!t->st || !t->is_cursor) return ixd_sess_send_errcode(s, IXV_E_NO_STMT_NAME, 0, NULL);
    if (t->open) ixd_close(t->st);
    t->open = 0; /* until this OPEN succeeds */
    if (apply_binds(s, t)) return;
    ixv_err e = {0};
    if (ixd_open(t->st, t->scroll, &e) != 0) return ixd_sess_send_err(s, &e);
    t->open = 1;
    t->exhausted = 0;
    t->fetched = 0;
    t->scroll_pos = 0;
    t->has_ahead = 0;
    ixb_wbuf_reset(&t->ahead);
}

/* Appends the next row to the reply as an SQ_TUPLE (i16 tag, i16
 * warnings, i32 length, payload padded to even; ixp_enc_tuple's layout), the
 * payload written there by the engine: a row kept in t->ahead from the last
 * reply first. Returns 1 with *n its payload length and *at where the
 * message starts, 0 at the end, -1 on error (sent). */
static int read_ahead(ixd_sess *s, sess_stmt *t, size_t *at, size_t *n, ixv_err *e) {
    ixb_wbuf *o = &s->reply;
    *at = o->len;
    if (t->has_ahead) {
        ixp_enc_tuple(o, 0, t->ahead.data, t->ahead.len);
        *n = t->ahead.len;
        t->has_ahead = 0;
        return 1;
    }
    if (o->cap - o->len >= 8 || ixb_wbuf_reserve(o, 8) == IX_OK) {
        ixb_st16(o->data + o->len, IXP_SQ_TUPLE);
        memset(o->data + o->len + 2, 0, 6);
        o->len += 8;
    }
    int r = o->err ? 1 : ixd_fetch(t->st, o, e);
    if (r <= 0 || o->err) {
        if (!o->err) o->len = *at;
        if (r < 0) ixd_sess_send_err(s, e);
        if (r > 0) ixd_sess_send_errcode(s, IXV_E_NOMEM, 0, NULL);
        return r > 0 ? -1 : r;
    }
    *n = o->len - *at - 8;
    ixb_st32(o->data + *at + 4, (uint32_t)*n);
    if (*n & 1) { /* the even-length pad */
        if (o->len < o->cap)
            o->data[o->len++] = 0;
        else
            ixb_put_u8(o, 0);
    }
    if (o->err) {
        ixd_sess_send_errcode(s, IXV_E_NOMEM, 0, NULL);
        return -1;
    }
    return 1;
}

/* Takes the tuple at `at` (payload n bytes) back out of the reply and keeps
 * it in t->ahead for the next one. Returns 0, or -1 (sent) out of memory. */
static int keep_ahead(ixd_sess *s, sess_stmt *t, size_t at, size_t n) {
    ixb_wbuf_reset(&t->ahead);
    ixb_put_bytes(&t->ahead, s->reply.data + at + 8, n);
    s->reply.len = at;
    if (t->ahead.err) {
        ixd_sess_send_errcode(s, IXV_E_NOMEM, 0, NULL);
        return -1;
    }
    t->has_ahead = 1;
    return 0;
}

/* The tuple bytes a fetch reply may carry: the client's buffer size, at
 * most the server's max_reply (a client asking more simply fetches again). */
static size_t reply_cap(const ixd_sess *s, int32_t bufsize) {
    size_t max = s->srv->max_reply ? s->srv->max_reply : IXD_MAX_REPLY;
    size_t want = bufsize > 0 ? (size_t)bufsize : 0;
    return want < max ? want : max;
}

/* Sizes the reply for a fetch of up to cap tuple bytes (half as much
 * again for the tuples' heads), so that the rows are encoded in place
 * without the buffer growing, and copying, as they come. An empty reply
 * takes a fresh buffer, not a realloc: nothing in it needs keeping. Best
 * effort: without the memory the reply grows as before. */
static void reply_room(ixd_sess *s, size_t cap) {
    ixb_wbuf *o = &s->reply;
    size_t want = cap + cap / 2 + 64;
    if (o->err || o->cap - o->len >= want) return;
    if (o->len == 0) {
        const ixb_alloc *a = o->alloc;
        size_t max = o->max;
        ixb_wbuf_free(o);
        ixb_wbuf_init(o, a);
        o->max = max;
    }
    if (ixb_wbuf_reserve(o, want) != IX_OK)
        o->err = IX_OK; /* the reply as it was: a failed reserve changes nothing else */
}

int ixd_sess_fetch_batch = 1;

/*
 * NFETCH (§3.6): as many whole tuples as fit in the client's buffer (at
 * least one), counted by their payload bytes. When the data ends inside this
 * reply, DONE (row id 0) + COST follow the tuples; a fetch on an exhausted
 * cursor gets DONE with rows 0. The rows count of the final DONE is
 * unresolved (§8 #4); ixd reports the rows fetched in this reply.
 */
void ixd_sess_do_nfetch(ixd_sess *s, int32_t bufsize) {
    sess_stmt *t = ixd_sess_use_stmt(s);
    if (!t) return;
    if (!t->open)
        return ixd_sess_send_errcode(s, IXD_E_NOT_AVAILABLE, 0, NULL); /* cursor not open */
    if (t->exhausted) return ixd_sess_send_done(s, 0, 0, 0);
    size_t cap = reply_cap(s, bufsize), used = 0;
    int64_t sent = 0;
    ixv_err e = {0}; /* one record for the reply's rows: filled only by the error that ends it */
    reply_room(s, cap);
    /* the rows after a kept one in one engine call (ixd_fetch_tuples), each
     * as the loop below would send it, unless the cursor takes them one by
     * one (an update cursor, or the engine says so once) */
    int one_row = ixd_stmt_for_update(t->st), batch = !one_row && ixd_sess_fetch_batch;
    for (;;) {
        if (!t->has_ahead && batch) {
            ixd_batch f = {.sent = sent, .used = used};
            int r = ixd_fetch_tuples(t->st, &s->reply, cap, &f, &e);
            if (r != IXD_BATCH_NO) {
                t->fetched += f.sent - sent;
                if (r < 0) return ixd_sess_send_err(s, &e);
                if (r == IXD_BATCH_FULL) {
                    keep_ahead(s, t, f.last_at, f.last_n);
                    return;
                }
                t->exhausted = 1;
                return ixd_sess_send_done(s, 0, f.sent, 0);
            }
            batch = 0;
        }
        size_t at, n;
        int r = read_ahead(s, t, &at, &n, &e);
        if (r < 0) return;
        if (r == 0) {
            t->exhausted = 1;
            return ixd_sess_send_done(s, 0, sent, 0);
        }
        if (sent > 0 && used + n > cap) {
            keep_ahead(s, t, at, n);
            return;
        }
        used += n;
        sent++;
        t->fetched++;
        if (one_row) return; /* an update cursor: its current row */
    }
}

/*
 * SFETCH (§3.13) on a scroll cursor: directions 1 NEXT, 4 LAST, 6 ABSOLUTE
 * are from two sources; 2 PRIOR, 3 FIRST, 5 CURRENT and 7 RELATIVE follow
 * ESQL/C's fetch orientations (unresolved). Each row is sent as SQ_TUPID
 * (i32, 1-based position) + SQ_TUPLE; NEXT sends as many as fit the buffer,
 * the others one. A position outside the result ends the data (DONE rows 0).
 */
void ixd_sess_do_sfetch(ixd_sess *s, const ixp_msg *m) {
    sess_stmt *t = ixd_sess_use_stmt(s);
    if (!t) return;
    if (!t->open) return ixd_sess_send_errcode(s, IXD_E_NOT_AVAILABLE, 0, NULL);
    if (!t->scroll)
        return ixd_sess_send_errcode(s, IXV_E_NOT_SCROLL, 0, NULL); /* not a scroll cursor */
    int64_t n = ixd_row_count(t->st);
    int64_t pos;
    switch (m->u.sfetch.direction) {
    case 1: pos = t->scroll_pos + 1; break;
    case 2: pos = t->scroll_pos - 1; break;
    case 3: pos = 1; break;
    case 4: pos = n; break;
    case 5: pos = t->scroll_pos; break;
    case 6: pos = m->u.sfetch.position; break;
    case 7: pos = t->scroll_pos + m->u.sfetch.position; break;
    default: return ixd_sess_send_errcode(s, IXV_E_SYNTAX, 0, NULL);
    }
    size_t cap = reply_cap(s, m->u.sfetch.bufsize), used = 0;
    int sent = 0;
    while (pos >= 1 && pos <= n) {
        ixb_wbuf_reset(&s->tmp);
        ixv_err e = {0};
        if (ixd_fetch_at(t->st, pos, &s->tmp, &e) != 1) {
            if (e.sqlcode) return ixd_sess_send_err(s, &e);
            break;
        }
        if (sent && used + s->tmp.len > cap) break;
        ixp_enc_tupid(&s->reply, (int32_t)pos);
        ixp_enc_tuple(&s->reply, 0, s->tmp.data, s->tmp.len);
        used += s->tmp.len;
        sent++;
        t->scroll_pos = pos;
        if (m->u.sfetch.direction != 1) break;
        pos++;
    }
    if (!sent) {
        if (pos < 1) t->scroll_pos = 0;
        if (pos > n) t->scroll_pos = n + 1;
        ixd_sess_send_done(s, 0, 0, 0);
    }
}

/*
 * SQ_FETCHBLOB (§3.14): the value a descriptor names, as SQ_BLOB chunks of at
 * most 32000 bytes ended by a zero-length SQ_BLOB (informix-db's reading of
 * IBM JDBC, docs/protocol.md "BYTE/TEXT"; a single source), then DONE + COST.
 * libsqli sends FETCHBLOB without an EOT and JDBC ends every group with one,
 * so ixd answers at once with the EOT and swallows an EOT that directly
 * follows.
 */
void ixd_sess_do_fetchblob(ixd_sess *s, const ixp_msg *m, ixb_wbuf *out) {
    sess_stmt *t = ixd_sess_use_stmt(s);
    if (t && !t->st) ixd_sess_send_errcode(s, IXD_E_NO_STMT, 0, NULL);
    if (t && t->st) {
        const uint8_t *data;
        size_t len;
        ixv_err e = {0};
        if (ixd_fetch_blob(t->st, m->u.blobdesc.p, m->u.blobdesc.n, &data, &len, &e) != 0) {
            ixd_sess_send_err(s, &e);
        } else {
            for (size_t off = 0; off < len; off += 32000)
                ixp_enc_blob(&s->reply, data + off, len - off < 32000 ? len - off : 32000);
            ixp_enc_blob(&s->reply, (const uint8_t *)"", 0); /* the end of the value */
            ixd_sess_send_done(s, 0, 0, 0);
        }
    }
    ixb_put_bytes(out, s->reply.data, s->reply.len);
    ixb_wbuf_reset(&s->reply);
    ixp_enc_tag(out, IXP_SQ_EOT);
    s->skipping = 0;
    s->done_sent = 0;
}

/* CLOSE of an id that is not (or no longer) prepared is answered like any
 * CLOSE, with nothing but the group's EOT (see ixd_sess_do_release); so is CLOSE of
 * a cursor that is not open, but in strict mode in an ANSI database. */
void ixd_sess_do_close(ixd_sess *s) {
    sess_stmt *t = ixd_sess_cur_stmt(s);
    if (ixd_sess_strict_close_refused(s, t)) return;
    if (!t) return;
    if (t->st && t->open) ixd_close(t->st);
    t->open = 0;
    t->has_ahead = 0;
    if (t->autofree) {
        ixd_sess_stmt_free(t);
        s->stmts[s->cur] = NULL;
    }
}

/*
 * RELEASE (§3.11): `00 04 id 00 0b 00 0c` is answered with a bare EOT, also
 * when id is not (or no longer) prepared (§3.11 knows no error reply to it):
 * clients free statements the server may already have freed (AUTOFREE at
 * CLOSE, a second close of the same JDBC Statement). CLOSE is treated the
 * same way: §3.11 gives CLOSE and RELEASE the same exchange, and IBM's CLOSE
 * statement takes no action on a cursor that is not open (non-ANSI
 * databases).
 * Every other use of an unknown id (DESCRIBE, BIND, EXECUTE, CURNAME, OPEN,
 * NFETCH, SFETCH, FETCHBLOB, ...) is -410.
 */
void ixd_sess_do_release(ixd_sess *s) {
    sess_stmt *t = ixd_sess_cur_stmt(s);
    if (!t) return;
    if (t->st && t->open) ixd_close(t->st);
    ixd_sess_stmt_free(t);
    s->stmts[s->cur] = NULL;
}
