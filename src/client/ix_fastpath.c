/*
 * ix_fastpath.c: fast-path routine calls in libixdb (messages 101, 102 and
 * 103; layouts in docs/protocol.md "Fast-path calls, LOB data and client
 * files on a real server", codec in src/proto/ix_fastpath.h).
 *
 * A call looks its routine up once by signature (SQ_GETROUTINE: the server
 * answers the current database's name and a routine handle), keeps the pair
 * on the connection, and calls the routine by handle (SQ_EXFPROUTINE with
 * the arguments in an SQ_BIND); the values come back in SQ_FPROUTINE. The
 * kept pairs are dropped when the current database changes and on ix_close,
 * and a pair is dropped when a call through it fails (the next call looks
 * the routine up again).
 */
#include <stdio.h>
#include <string.h>

#include "ix_client_int.h"
#include "ix_conn_int.h"
#include "proto/ix_fastpath.h"

#define FP_TYPE_CODE(t) ((t)&IXP_FP_TYPE_MASK)

/* ---- the cache ----------------------------------------------------------------------------- */

void ixc_fp_forget(ix_conn *c) {
    for (int i = 0; i < c->fp_len; i++) {
        ixc_free(c->fp_cache[i].sig);
        ixc_free(c->fp_cache[i].db);
    }
    memset(c->fp_cache, 0, sizeof c->fp_cache);
    c->fp_len = 0;
}

/* The kept entry of signature sig, or NULL. */
static ixc_fproutine *fp_find(ix_conn *c, const char *sig) {
    for (int i = 0; i < c->fp_len; i++)
        if (!strcmp(c->fp_cache[i].sig, sig)) return &c->fp_cache[i];
    return NULL;
}

/* Drops the kept entry e (a call through it failed). */
static void fp_drop(ix_conn *c, ixc_fproutine *e) {
    ixc_free(e->sig);
    ixc_free(e->db);
    *e = c->fp_cache[--c->fp_len];
    memset(&c->fp_cache[c->fp_len], 0, sizeof c->fp_cache[0]);
}

/* Keeps (sig, db[0..dbn), handle): the new entry, or NULL (IX_ENOMEM
 * recorded). A full cache is emptied first. The entry owns its copies. */
static ixc_fproutine *fp_keep(ix_conn *c, const char *sig, const uint8_t *db, size_t dbn,
                              int32_t handle) {
    if (c->fp_len == IXC_FP_CACHE_MAX) ixc_fp_forget(c);
    ixc_fproutine *e = &c->fp_cache[c->fp_len];
    e->sig = ixc_strdup(sig);
    e->db = ixc_malloc(dbn + 1); /* the name as it came, NUL bytes and all */
    if (e->db && dbn) memcpy(e->db, db, dbn);
    if (!e->sig || !e->db) {
        ixc_free(e->sig);
        ixc_free(e->db);
        memset(e, 0, sizeof *e);
        ixc_fail(c, IX_ENOMEM, "out of memory");
        return NULL;
    }
    e->dbn = dbn;
    e->handle = handle;
    c->fp_len++;
    return e;
}

/* ---- replies ------------------------------------------------------------------------------- */

int ixc_reply_extra(ix_conn *c, const ixp_msg *m) {
    if (m->tag == IXP_SQ_XACTSTAT) {
        c->in_txn = m->u.xactstat.new_level != 0;
        return 1;
    }
    return m->tag == IXP_SQ_DONE || m->tag == IXP_SQ_COST;
}

/* What one group's answer said besides its message of interest. */
typedef struct fp_answer {
    int sqlcode, isamcode;
    int32_t offset;
    char msg[256];
    int got; /* the message of interest arrived */
} fp_answer;

/* Records an SQ_ERR in a (the first one counts). */
static void note_err(fp_answer *a, const ixp_msg *m) {
    if (a->sqlcode) return;
    a->sqlcode = m->u.err.sqlcode ? m->u.err.sqlcode : -1;
    a->isamcode = m->u.err.isamcode;
    a->offset = m->u.err.offset;
    snprintf(a->msg, sizeof a->msg, "%.*s", (int)m->u.err.msg.n, (const char *)m->u.err.msg.p);
}

/* Sends the group queued at c->st.out[mark..] (its EOT appended here).
 * IX_OK or the connection's error. */
static int send_group(ix_conn *c, size_t mark) {
    ixp_enc_tag(&c->st.out, IXP_SQ_EOT);
    if (c->st.out.err) return ixc_fail(c, IX_ENOMEM, "out of memory");
    ixc_queued(c, mark);
    return ixc_flush(c);
}

/* After a group's EOT: IX_OK when the message of interest came, the SQL
 * error as IX_ESQL, or IX_EPROTO (the connection dropped) when neither. */
static int answer_rc(ix_conn *c, const fp_answer *a, const char *what) {
    if (a->sqlcode) return ixc_fail_sql(c, a->sqlcode, a->isamcode, a->offset, a->msg);
    if (!a->got) return ixc_kill(c, IX_EPROTO, "no %s in a fast-path reply", what);
    return IX_OK;
}

/* Kills c for a message no fast-path reply may hold. */
static int unexpected(ix_conn *c, int tag) {
    return ixc_kill(c, IX_EPROTO, "unexpected %s in a fast-path reply",
                    ixp_tag_name(tag) ? ixp_tag_name(tag) : "message");
}

/* ---- SQ_GETROUTINE ------------------------------------------------------------------------- */

/* Looks sig up (one round trip) and keeps the answer: the new entry in
 * *out, or the failure recorded on c (IX_ESQL for the server's refusal). */
static int fp_lookup(ix_conn *c, const char *sig, ixc_fproutine **out) {
    size_t mark = ixc_mark(c);
    ixp_enc_getroutine(&c->st.out, sig, strlen(sig));
    int rc = send_group(c, mark), oom = 0;
    if (rc != IX_OK) return rc;
    fp_answer a = {0};
    ixp_msg m;
    *out = NULL;
    while ((rc = ixc_next_msg(c, &m)) == IX_OK && m.tag != IXP_SQ_EOT) {
        if (m.tag == IXP_SQ_GETROUTINE && !a.got) {
            a.got = 1;
            const ixp_getroutine *g = &m.u.getroutine;
            if (g->handle <= 0)
                return ixc_kill(c, IX_EPROTO, "routine handle %d in SQ_GETROUTINE", (int)g->handle);
            *out = fp_keep(c, sig, g->db.p, g->db.n, g->handle);
            oom = !*out; /* the answer is still read to its end */
        } else if (m.tag == IXP_SQ_ERR) {
            note_err(&a, &m);
        } else if (!ixc_reply_extra(c, &m)) {
            return unexpected(c, m.tag);
        }
    }
    if (rc != IX_OK) return rc;
    if (oom) return IX_ENOMEM; /* recorded by fp_keep */
    if (a.sqlcode && *out) {
        fp_drop(c, *out);
        *out = NULL;
    }
    return answer_rc(c, &a, "SQ_GETROUTINE");
}

/* ---- SQ_EXFPROUTINE / SQ_FPROUTINE ---------------------------------------------------------- */

/* Appends one argument's value record. */
static void put_arg(ixb_wbuf *out, const ixc_fparg *a) {
    if (a->kind == IXC_FP_INT)
        ixp_enc_fp_int(out, a->i32);
    else
        ixp_enc_fp_udt(out, IXP_FP_T_SENDRECV, "", a->type_name, a->p, a->n);
}

/* Takes one result value v into r after checking its type and length:
 * IX_OK, or IX_EPROTO with the connection dropped. */
static int take_value(ix_conn *c, const ixp_fpvalue *v, ixc_fpres *r, int k) {
    int code = FP_TYPE_CODE(v->type);
    if (v->is_null) return ixc_kill(c, IX_EPROTO, "fast-path result %d is NULL", k + 1);
    if (r->kind == IXC_FP_INT) {
        if (code != IX_T_INTEGER && code != IX_T_SERIAL && code != IX_T_SMALLINT)
            return ixc_kill(c, IX_EPROTO, "fast-path result %d: type %d where an integer was due",
                            k + 1, v->type);
        r->i32 = v->i32;
        return IX_OK;
    }
    if (code != IX_T_UDTVAR && code != IX_T_UDTFIXED && code != IXP_FP_T_SENDRECV)
        return ixc_kill(c, IX_EPROTO, "fast-path result %d: type %d where %s was due", k + 1,
                        v->type, r->type_name);
    if (v->data.n != r->cap)
        return ixc_kill(c, IX_EPROTO, "fast-path result %d: %zu bytes where %s has %zu", k + 1,
                        v->data.n, r->type_name, r->cap);
    memcpy(r->buf, v->data.p, v->data.n);
    return IX_OK;
}

/* Takes the values of an SQ_FPROUTINE: exactly nres, each as res[] says. */
static int take_results(ix_conn *c, const ixp_msg *m, ixc_fpres *res, int nres) {
    if (m->u.fpresult.count != nres)
        return ixc_kill(c, IX_EPROTO, "the fast-path call returned %d values, not %d",
                        m->u.fpresult.count, nres);
    size_t pos = 0;
    ixp_fpvalue v;
    for (int k = 0; k < nres; k++) {
        if (!ixp_fp_value_next(&m->u.fpresult.vals, &pos, &v))
            return ixc_kill(c, IX_EPROTO, "fast-path result %d missing", k + 1);
        int rc = take_value(c, &v, &res[k], k);
        if (rc != IX_OK) return rc;
    }
    return IX_OK;
}

/* Calls the routine of entry e with the arguments and reads its values. */
static int fp_exec(ix_conn *c, const ixc_fproutine *e, const ixc_fparg *args, int nargs,
                   ixc_fpres *res, int nres) {
    size_t mark = ixc_mark(c);
    ixp_enc_exfp(&c->st.out, e->db, e->dbn, e->handle, nargs);
    for (int k = 0; k < nargs; k++)
        put_arg(&c->st.out, &args[k]);
    int rc = send_group(c, mark);
    if (rc != IX_OK) return rc;
    fp_answer a = {0};
    ixp_msg m;
    while ((rc = ixc_next_msg(c, &m)) == IX_OK && m.tag != IXP_SQ_EOT) {
        if (m.tag == IXP_SQ_FPROUTINE && !a.got) {
            a.got = 1;
            if ((rc = take_results(c, &m, res, nres)) != IX_OK) return rc;
        } else if (m.tag == IXP_SQ_ERR) {
            note_err(&a, &m);
        } else if (!ixc_reply_extra(c, &m)) {
            return unexpected(c, m.tag);
        }
    }
    return rc != IX_OK ? rc : answer_rc(c, &a, "SQ_FPROUTINE");
}

int ixc_fp_call(ix_conn *c, const char *sig, const ixc_fparg *args, int nargs, ixc_fpres *res,
                int nres) {
    int rc = ixc_check(c);
    if (rc == IX_OK) rc = ixc_drain(c); /* the next EOT read must be this call's */
    if (rc != IX_OK) return rc;
    ixc_fproutine *e = fp_find(c, sig);
    if (!e && (rc = fp_lookup(c, sig, &e)) != IX_OK) return rc;
    rc = fp_exec(c, e, args, nargs, res, nres);
    if (rc == IX_ESQL) fp_drop(c, e); /* a stale handle: look it up again next time */
    return rc;
}
