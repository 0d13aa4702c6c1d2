/* ix_rowplan.c: a statement's row plan (ix_rowplan.h). */
#include "client/ix_rowplan.h"

#include <stdlib.h>

#include "base/ix_buf.h"
#include "types/ix_value.h"

static void plan_fixed(ixc_rpcol *c, ix_vtype t, int f70) {
    c->layout = RP_FIXED;
    c->null_kind = RN_CALL;
    c->get_kind = RG_OTHER;
    c->text_kind = RT_OTHER;
    c->width = (uint32_t)ix_value_fixed_width(t);
    switch (t.code) {
    case IX_T_SMALLINT: c->null_kind = RN_I16, c->get_kind = RG_I16; break;
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE: c->null_kind = RN_I32, c->get_kind = RG_I32; break;
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: c->null_kind = RN_I64, c->get_kind = RG_I64; break;
    case IX_T_INT8:
    case IX_T_SERIAL8: c->null_kind = RN_INT8; break;
    case IX_T_FLOAT: c->null_kind = RN_ALLFF, c->get_kind = RG_F64; break;
    case IX_T_SMALLFLOAT: c->null_kind = RN_ALLFF, c->get_kind = RG_F32; break;
    case IX_T_DECIMAL:
    case IX_T_MONEY:
    case IX_T_DATETIME:
    case IX_T_INTERVAL: c->null_kind = RN_ALL00; break;
    case IX_T_CHAR:
    case IX_T_NCHAR: c->text_kind = RT_RAW; break;
    case IX_T_BYTE:
    case IX_T_TEXT: c->width = f70 ? IX_BLOB_DESC_LEN_F70 : IX_BLOB_DESC_LEN; break;
    default: break;
    }
}

static void plan_col(ixc_rpcol *c, ix_vtype t, int f70) {
    c->vt = t;
    c->max_len = 0;
    if (ix_vtype_check(t) != IX_OK) {
        *c = (ixc_rpcol){RP_BAD, RN_NONE, RG_OTHER, RT_OTHER, 0, 0, 0, t};
        return;
    }
    switch (t.code) {
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
        *c = (ixc_rpcol){
            RP_VAR1, RN_VAR1, RG_OTHER, RT_VAR1, 0, 0, (uint32_t)ix_value_varchar_max(t.enclen), t};
        return;
    case IX_T_LVARCHAR:
        *c = (ixc_rpcol){RP_ENV, RN_CALL, RG_OTHER, RT_ENV, 0, 0, t.enclen, t};
        return;
    case IX_T_BOOLEAN:
    case IX_T_UDTVAR:
    case IX_T_UDTFIXED: *c = (ixc_rpcol){RP_ENV, RN_CALL, RG_OTHER, RT_OTHER, 0, 0, 0, t}; return;
    default: plan_fixed(c, t, f70); return;
    }
}

int ixc_rowplan_build(ixc_rowplan *p, const ix_vtype *vt, int ncols, int f70) {
    p->ncols = ncols;
    p->col = calloc(ncols > 0 ? (size_t)ncols : 1, sizeof *p->col);
    p->off0 = calloc((size_t)ncols + 1, sizeof *p->off0);
    p->seg = calloc(ncols > 0 ? (size_t)ncols : 1, sizeof *p->seg);
    p->rel = calloc(ncols > 0 ? (size_t)ncols : 1, sizeof *p->rel);
    p->nseg = 0;
    if (!p->col || !p->off0 || !p->seg || !p->rel) {
        ixc_rowplan_free(p);
        return IX_ENOMEM;
    }
    p->first_var = ncols;
    p->bad = -1;
    uint32_t pos = 0;
    for (int i = 0; i < ncols; i++) {
        plan_col(&p->col[i], vt[i], f70);
        if (p->col[i].layout == RP_BAD && p->bad < 0) p->bad = i;
        if (p->col[i].layout != RP_FIXED && p->first_var == ncols) p->first_var = i;
        if (p->first_var == ncols) {
            p->off0[i] = pos;
            pos += p->col[i].width;
        }
    }
    p->off0[p->first_var] = pos;
    p->prefix_len = pos;
    for (int i = p->first_var; i < ncols; i++) {
        ixc_rpcol *c = &p->col[i];
        if (c->layout != RP_FIXED) {
            p->seg[p->nseg++] = (ixc_rpseg){i, 0, c->layout, 0};
            continue;
        }
        ixc_rpseg *g = &p->seg[p->nseg - 1];
        c->rel = p->rel[i] = g->tail;
        g->tail += c->width;
        g->nfixed++;
    }
    return IX_OK;
}

void ixc_rowplan_free(ixc_rowplan *p) {
    free(p->col);
    free(p->off0);
    free(p->seg);
    free(p->rel);
    p->rel = NULL;
    p->col = NULL;
    p->off0 = NULL;
    p->seg = NULL;
    p->ncols = 0;
}

/* The extent of the value of column c at t[pos..n), or IX_NEED_MORE /
 * IX_EMALFORMED. */
static int extent(const ixc_rpcol *c, const uint8_t *t, size_t pos, size_t n, size_t *used) {
    size_t avail = n - pos;
    switch (c->layout) {
    case RP_FIXED: *used = c->width; break;
    case RP_VAR1:
        if (avail < 1) return IX_NEED_MORE;
        *used = 1 + (size_t)t[pos];
        break;
    case RP_ENV: {
        if (avail < 5) return IX_NEED_MORE;
        if (t[pos] > 1) return IX_EMALFORMED;
        uint32_t l = ix_be32(t + pos + 1);
        if (l > INT32_MAX) return IX_EMALFORMED;
        *used = 5 + (size_t)l;
        break;
    }
    default: return IX_EINVAL;
    }
    return *used > avail ? IX_NEED_MORE : IX_OK;
}

int ixc_rowplan_locate(const ixc_rowplan *p, const uint8_t *t, size_t n, int *col) {
    if (n < p->prefix_len) {
        int i = 0;
        while (i + 1 < p->first_var && p->off0[i + 1] <= n)
            i++;
        return *col = i, IX_NEED_MORE;
    }
    size_t pos = p->prefix_len;
    for (int i = p->first_var; i < p->ncols; i++) {
        size_t used = 0;
        int rc = extent(&p->col[i], t, pos, n, &used);
        if (rc != IX_OK) return *col = i, rc;
        pos += used;
    }
    return *col = p->ncols, pos == n ? IX_OK : IX_ELIMIT;
}

void ixc_rowplan_offsets(const ixc_rowplan *restrict p, const uint8_t *restrict t, size_t n,
                         uint32_t *restrict off) {
    uint32_t pos = p->prefix_len;
    const uint32_t *rel = p->rel;
    for (const ixc_rpseg *g = p->seg, *end = p->seg + p->nseg; g < end; g++) {
        uint32_t *o = off + g->col;
        const uint32_t *r = rel + g->col + 1;
        o[0] = pos;
        pos += g->layout == RP_VAR1 ? 1 + (uint32_t)t[pos] : 5 + ix_be32(t + pos + 1);
        for (int j = 0, k = g->nfixed; j < k; j++)
            o[1 + j] = pos + r[j];
        pos += g->tail;
    }
    off[p->ncols] = (uint32_t)n;
}

static int all_bytes(const uint8_t *v, size_t n, uint8_t b) {
    for (size_t i = 0; i < n; i++)
        if (v[i] != b) return 0;
    return 1;
}

int ixc_rowplan_is_null_general(const ixc_rpcol *c, const uint8_t *v, size_t n) {
    switch (c->null_kind) {
    case RN_ALLFF: return all_bytes(v, n, 0xff);
    case RN_ALL00: return all_bytes(v, n, 0x00);
    case RN_CALL: return ix_value_is_null(c->vt, v, n) == 1;
    default: return 0;
    }
}
