/*
 * ix_fastpath.c: SQ_GETROUTINE, SQ_EXFPROUTINE and SQ_FPROUTINE in both
 * roles (layouts in ix_fastpath.h). Every length read from the wire is
 * checked against the bytes left and against the limits before use.
 */
#include "proto/ix_fastpath.h"

#include <string.h>

#include "ix_msg_int.h"
#include "proto/ix_print.h"
#include "types/ix_types.h"

/* Reads the pad byte after an item of odd length n and fails r when it is
 * not 0 (a pad of another value would not encode back to its bytes). */
static void rd_zero_pad(ixb_rbuf *r, size_t n) {
    if (!(n & 1)) return;
    size_t at = r->pos;
    uint8_t b = ixb_get_u8(r);
    if (!r->st && b) ixb_rbuf_fail(r, IX_EMALFORMED, at, "pad byte not 0");
}

/* Reads a CHAR item of at most max bytes with a zero pad into *out
 * (ixp_rd_char, then the pad checked). Returns 1 on success (r's status
 * says why not). */
static int rd_char0(ixb_rbuf *r, uint32_t max, ixp_bytes *out) {
    if (!ixp_rd_char(r, max, out)) return 0;
    if ((out->n & 1) && r->p[r->pos - 1] != 0) {
        ixb_rbuf_fail(r, IX_EMALFORMED, r->pos - 1, "pad byte not 0");
        return 0;
    }
    return 1;
}

/* Reads an i16 that must be 0 (the fparam flag); fails r otherwise. */
static void rd_zero_i16(ixb_rbuf *r, const char *why) {
    size_t at = r->pos;
    int16_t v = ixb_get_i16(r);
    if (!r->st && v) ixb_rbuf_fail(r, IX_EMALFORMED, at, why);
}

/* 1 when a value of type word `type` carries the owner and name CHARs. */
static int has_names(int type) {
    int code = type & IXP_FP_TYPE_MASK;
    return (type & IXP_FP_DISTINCT) ||
           (code >= IX_T_SERIAL8 && code != IX_T_BIGINT && code != IX_T_BIGSERIAL);
}

/* 1 when the type code is a UDT whose data is i32 length, bytes, pad. */
static int is_udt(int code) {
    return code == IX_T_UDTVAR || code == IX_T_UDTFIXED || code == IXP_FP_T_SENDRECV;
}

/* Reads the data of a non-NULL value of type code `code` into *v.
 * max_value bounds a UDT's length. */
static void rd_value_data(ixb_rbuf *r, int code, uint32_t max_value, ixp_fpvalue *v) {
    if (code == IX_T_INTEGER || code == IX_T_SERIAL) {
        v->i32 = ixb_get_i32(r);
        return;
    }
    if (code == IX_T_SMALLINT) {
        v->i32 = ixb_get_i16(r);
        return;
    }
    size_t at = r->pos;
    int32_t n = ixb_get_i32(r);
    if (r->st) return;
    if (n < 0) return ixb_rbuf_fail(r, IX_EMALFORMED, at, "negative fast-path UDT length");
    if ((uint32_t)n > max_value)
        return ixb_rbuf_fail(r, IX_ELIMIT, at, "fast-path UDT length exceeds limit");
    v->data.p = ixb_get_bytes(r, (size_t)n);
    v->data.n = (size_t)n;
    rd_zero_pad(r, (size_t)n);
}

/* Reads one value record into *v (fields borrow r's bytes); r's status
 * is set when it is malformed or cut short. */
static void rd_value(ixb_rbuf *r, uint32_t max_value, ixp_fpvalue *v) {
    memset(v, 0, sizeof *v);
    size_t at = r->pos;
    v->type = ixb_get_i16(r);
    if (r->st) return;
    int code = v->type & IXP_FP_TYPE_MASK;
    if ((v->type & ~(IXP_FP_TYPE_MASK | IXP_FP_DISTINCT)) ||
        !(code == IX_T_SMALLINT || code == IX_T_INTEGER || code == IX_T_SERIAL || is_udt(code)))
        return ixb_rbuf_fail(r, IX_EMALFORMED, at, "unsupported fast-path value type");
    if (has_names(v->type) &&
        (!rd_char0(r, IXP_FP_NAME_MAX, &v->owner) || !rd_char0(r, IXP_FP_NAME_MAX, &v->name)))
        return;
    size_t iat = r->pos;
    int ind = ixb_get_i16(r);
    if (r->st) return;
    if (ind != IXP_IND_VALUE && ind != IXP_IND_NULL)
        return ixb_rbuf_fail(r, IX_EMALFORMED, iat, "fast-path indicator neither 0 nor -1");
    v->is_null = ind == IXP_IND_NULL;
    if (v->is_null) return;
    v->prec = ixb_get_i16(r);
    rd_value_data(r, code, max_value, v);
}

/* Reads an i16 count (0..IXP_FP_VALUES_MAX) and that many records; *recs
 * gets their bytes. Returns the count (r's status set on failure). */
static int rd_values(ixb_rbuf *r, const ixp_limits *lim, ixp_bytes *recs) {
    size_t at = r->pos;
    int count = ixb_get_i16(r);
    if (r->st) return 0;
    if (count < 0 || count > IXP_FP_VALUES_MAX) {
        ixb_rbuf_fail(r, IX_ELIMIT, at, "fast-path value count out of range");
        return 0;
    }
    size_t start = r->pos;
    ixp_fpvalue v;
    for (int i = 0; i < count && r->st == IX_OK; i++)
        rd_value(r, lim->max_value, &v);
    recs->p = r->p + start;
    recs->n = r->pos - start;
    return count;
}

int ixp_fp_value_next(const ixp_bytes *recs, size_t *pos, ixp_fpvalue *v) {
    if (!recs->p || *pos >= recs->n) return 0;
    ixb_rbuf r;
    ixb_rbuf_init(&r, recs->p, recs->n);
    r.pos = *pos;
    rd_value(&r, UINT32_MAX, v);
    if (r.st != IX_OK) return 0;
    *pos = r.pos;
    return 1;
}

/* ---- decoders ---------------------------------------------------------------------------- */

/* The request: u8 flag 0, i32 n, signature, pad, i16 0. */
static void rd_getroutine_req(ixb_rbuf *r, ixp_getroutine *g) {
    size_t at = r->pos;
    uint8_t flag = ixb_get_u8(r);
    if (!r->st && flag) return ixb_rbuf_fail(r, IX_EMALFORMED, at, "SQ_GETROUTINE flag not 0");
    at = r->pos;
    int32_t n = ixb_get_i32(r);
    if (r->st) return;
    if (n < 1 || n > IXP_FP_SIG_MAX)
        return ixb_rbuf_fail(r, IX_EMALFORMED, at, "SQ_GETROUTINE signature length out of range");
    g->sig.p = ixb_get_bytes(r, (size_t)n);
    g->sig.n = (size_t)n;
    rd_zero_pad(r, (size_t)n);
    rd_zero_i16(r, "SQ_GETROUTINE fparam flag not 0");
}

void ixp_rd_getroutine(ixb_rbuf *r, ixp_role role, const ixp_limits *lim, ixp_getroutine *g) {
    memset(g, 0, sizeof *g);
    if (role == IXP_FROM_CLIENT) return rd_getroutine_req(r, g);
    if (!rd_char0(r, lim->max_string, &g->db)) return;
    size_t at = r->pos;
    g->handle = ixb_get_i32(r);
    if (!r->st && g->handle <= 0)
        ixb_rbuf_fail(r, IX_EMALFORMED, at, "SQ_GETROUTINE handle not positive");
}

void ixp_rd_exfp(ixb_rbuf *r, const ixp_limits *lim, ixp_exfp *e) {
    memset(e, 0, sizeof *e);
    if (!rd_char0(r, lim->max_string, &e->db)) return;
    e->handle = ixb_get_i32(r);
    size_t at = r->pos;
    e->nparams = ixb_get_i16(r);
    if (r->st) return;
    if (e->nparams < 0 || e->nparams > IXP_FP_VALUES_MAX)
        return ixb_rbuf_fail(r, IX_ELIMIT, at, "SQ_EXFPROUTINE parameter count out of range");
    rd_zero_i16(r, "SQ_EXFPROUTINE fparam flag not 0");
    at = r->pos;
    int bind = ixb_get_i16(r);
    if (r->st) return;
    if (bind != IXP_SQ_BIND)
        return ixb_rbuf_fail(r, IX_EMALFORMED, at, "SQ_EXFPROUTINE arguments not an SQ_BIND");
    e->nargs = rd_values(r, lim, &e->args);
}

void ixp_rd_fpresult(ixb_rbuf *r, const ixp_limits *lim, ixp_fpresult *f) {
    memset(f, 0, sizeof *f);
    f->count = rd_values(r, lim, &f->vals);
}

/* ---- encoders ---------------------------------------------------------------------------- */

void ixp_enc_getroutine(ixb_wbuf *out, const char *sig, size_t n) {
    ixb_put_i16(out, IXP_SQ_GETROUTINE);
    ixb_put_u8(out, 0);
    ixb_put_i32(out, (int64_t)n);
    ixb_put_bytes(out, sig, n);
    ixb_put_pad(out, n);
    ixb_put_i16(out, 0);
}

void ixp_enc_getroutine_reply(ixb_wbuf *out, const char *db, size_t dbn, int32_t handle) {
    ixb_put_i16(out, IXP_SQ_GETROUTINE);
    ixp_enc_char(out, db, dbn);
    ixb_put_i32(out, handle);
}

/* The 102 header with separate parameter and argument counts (re-encode
 * keeps both as they came). */
static void put_exfp(ixb_wbuf *out, const ixp_bytes *db, int32_t handle, int nparams, int nargs) {
    ixb_put_i16(out, IXP_SQ_EXFPROUTINE);
    ixp_enc_char(out, db->p, db->n);
    ixb_put_i32(out, handle);
    ixb_put_i16(out, nparams);
    ixb_put_i16(out, 0);
    ixb_put_i16(out, IXP_SQ_BIND);
    ixb_put_i16(out, nargs);
}

void ixp_enc_exfp(ixb_wbuf *out, const char *db, size_t dbn, int32_t handle, int nargs) {
    ixp_bytes d = {(const uint8_t *)db, dbn};
    put_exfp(out, &d, handle, nargs, nargs);
}

void ixp_enc_fpresult(ixb_wbuf *out, int count) {
    ixb_put_i16(out, IXP_SQ_FPROUTINE);
    ixb_put_i16(out, count);
}

void ixp_enc_fp_int(ixb_wbuf *out, int32_t v) {
    ixb_put_i16(out, IX_T_INTEGER);
    ixb_put_i16(out, IXP_IND_VALUE);
    ixb_put_i16(out, 0);
    ixb_put_i32(out, v);
}

void ixp_enc_fp_udt(ixb_wbuf *out, int type, const char *owner, const char *name, const void *p,
                    size_t n) {
    ixb_put_i16(out, type);
    if (has_names(type)) {
        ixp_enc_char(out, owner, owner ? strlen(owner) : 0);
        ixp_enc_char(out, name, name ? strlen(name) : 0);
    }
    ixb_put_i16(out, p ? IXP_IND_VALUE : IXP_IND_NULL);
    if (!p) return;
    ixb_put_i16(out, 0);
    ixb_put_i32(out, (int64_t)n);
    ixb_put_bytes(out, p, n);
    ixb_put_pad(out, n);
}

void ixp_wr_getroutine(ixb_wbuf *out, ixp_role role, const ixp_getroutine *g) {
    if (role == IXP_FROM_CLIENT)
        ixp_enc_getroutine(out, (const char *)g->sig.p, g->sig.n);
    else
        ixp_enc_getroutine_reply(out, (const char *)g->db.p, g->db.n, g->handle);
}

void ixp_wr_exfp(ixb_wbuf *out, const ixp_exfp *e) {
    put_exfp(out, &e->db, e->handle, e->nparams, e->nargs);
    ixb_put_bytes(out, e->args.p, e->args.n);
}

void ixp_wr_fpresult(ixb_wbuf *out, const ixp_fpresult *f) {
    ixp_enc_fpresult(out, f->count);
    ixb_put_bytes(out, f->vals.p, f->vals.n);
}

/* ---- printer ----------------------------------------------------------------------------- */

/* Appends one value: `INTEGER 7`, `informix.blob(41) 72 bytes`, `SMALLINT NULL`. */
static void print_value(const ixp_fpvalue *v, ixb_wbuf *out) {
    int code = v->type & IXP_FP_TYPE_MASK;
    if (v->name.n) {
        ixb_put_bytes(out, v->owner.p, v->owner.n);
        if (v->owner.n) ixb_put_u8(out, '.');
        ixb_put_bytes(out, v->name.p, v->name.n);
        ixp_printf(out, "(%d)", code);
    } else {
        const char *tn = ixt_type_name(code);
        ixp_printf(out, "%s", tn ? tn : "type");
        if (!tn) ixp_printf(out, "%d", code);
    }
    if (v->type & IXP_FP_DISTINCT) ixp_printf(out, " distinct");
    if (v->is_null)
        ixp_printf(out, " NULL");
    else if (is_udt(code))
        ixp_printf(out, " %zu bytes", v->data.n);
    else
        ixp_printf(out, " %d", v->i32);
}

/* Appends ` [v1, v2, ...]` for the records, nothing when there are none. */
static void print_values(const ixp_bytes *recs, ixb_wbuf *out) {
    size_t pos = 0;
    ixp_fpvalue v;
    int i = 0;
    while (ixp_fp_value_next(recs, &pos, &v)) {
        ixp_printf(out, "%s", i++ ? ", " : " [");
        print_value(&v, out);
    }
    if (i) ixb_put_u8(out, ']');
}

void ixp_fastpath_print(const ixp_msg *m, ixp_role role, ixb_wbuf *out) {
    if (m->tag == IXP_SQ_GETROUTINE && role == IXP_FROM_CLIENT) {
        ixp_printf(out, " sig=");
        ixp_print_quoted(out, m->u.getroutine.sig.p, m->u.getroutine.sig.n);
    } else if (m->tag == IXP_SQ_GETROUTINE) {
        ixp_printf(out, " db=");
        ixp_print_quoted(out, m->u.getroutine.db.p, m->u.getroutine.db.n);
        ixp_printf(out, " handle=%d", m->u.getroutine.handle);
    } else if (m->tag == IXP_SQ_EXFPROUTINE) {
        ixp_printf(out, " db=");
        ixp_print_quoted(out, m->u.exfp.db.p, m->u.exfp.db.n);
        ixp_printf(out, " handle=%d nparams=%d count=%d", m->u.exfp.handle, m->u.exfp.nparams,
                   m->u.exfp.nargs);
        print_values(&m->u.exfp.args, out);
    } else if (m->tag == IXP_SQ_FPROUTINE) {
        ixp_printf(out, " count=%d", m->u.fpresult.count);
        print_values(&m->u.fpresult.vals, out);
    }
}
