/* ix_rowplan.c: a statement's row plan (ix_rowplan.h). */
#include "client/ix_rowplan.h"
#include "client/ix_client_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/ix_buf.h"
#include "types/ix_value.h"

static void plan_fixed(ixc_rpcol *c, ixt_vtype t, int f70) {
    c->layout = RP_FIXED;
    c->null_kind = RN_CALL;
    c->get_kind = RG_OTHER;
    c->text_kind = RT_OTHER;
    c->width = (uint32_t)ixt_value_fixed_width(t);
    switch (t.code) {
    case IX_T_SMALLINT: c->null_kind = RN_I16, c->get_kind = RG_I16; break;
    case IX_T_INTEGER:
    case IX_T_SERIAL: c->null_kind = RN_I32, c->get_kind = RG_I32; break;
    case IX_T_DATE: c->null_kind = RN_I32, c->get_kind = RG_DATE; break;
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: c->null_kind = RN_I64, c->get_kind = RG_I64; break;
    case IX_T_INT8:
    case IX_T_SERIAL8: c->null_kind = RN_INT8, c->get_kind = RG_INT8; break;
    case IX_T_FLOAT: c->null_kind = RN_ALLFF, c->get_kind = RG_F64; break;
    case IX_T_SMALLFLOAT: c->null_kind = RN_ALLFF, c->get_kind = RG_F32; break;
    case IX_T_DECIMAL:
    case IX_T_MONEY:
    case IX_T_DATETIME:
    case IX_T_INTERVAL: c->null_kind = RN_ALL00; break;
    case IX_T_CHAR:
    case IX_T_NCHAR: c->null_kind = RN_CHAR, c->text_kind = RT_RAW; break;
    case IX_T_BYTE:
    case IX_T_TEXT: c->width = f70 ? IXT_BLOB_DESC_LEN_F70 : IXT_BLOB_DESC_LEN; break;
    default: break;
    }
}

static void plan_col(ixc_rpcol *c, ixt_vtype t, int f70) {
    c->vt = t;
    c->max_len = 0;
    if (ixt_vtype_check(t) != IX_OK) {
        *c = (ixc_rpcol){RP_BAD, RN_NONE, RG_OTHER, RT_OTHER, 0, 0, 0, t};
        return;
    }
    switch (t.code) {
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
        *c = (ixc_rpcol){
            RP_VAR1, RN_VAR1, RG_OTHER, RT_VAR1, 0, 0, (uint32_t)ixt_value_varchar_max(t.enclen),
            t};
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

/* Fills p->at from the columns and segments (ix_rowplan.h, ixc_rpat): in
 * the stored row a NUL follows each variable value, so what follows it sits
 * one byte further from segat[k]. */
static void plan_at(ixc_rowplan *p) {
    for (int i = 0; i < p->first_var; i++)
        p->at[i] = (ixc_rpat){p->off0[i], 0, p->col[i].get_kind, 0};
    for (int k = 0; k < p->nseg; k++) {
        const ixc_rpseg *g = &p->seg[k];
        uint32_t start = k == 0 ? p->prefix_len : p->seg[k - 1].tail + 1;
        p->at[g->col] = (ixc_rpat){start, (uint16_t)k, p->col[g->col].get_kind, 1};
        for (int j = g->col + 1; j <= g->col + g->nfixed; j++)
            p->at[j] = (ixc_rpat){p->col[j].rel + 1, (uint16_t)(k + 1), p->col[j].get_kind, 0};
    }
    p->at[p->ncols] =
        p->nseg == 0 ? (ixc_rpat){p->prefix_len, 0, RG_OTHER, 0}
                     : (ixc_rpat){p->seg[p->nseg - 1].tail + 1, (uint16_t)p->nseg, RG_OTHER, 0};
}

int ixc_rowplan_build(ixc_rowplan *p, const ixt_vtype *vt, int ncols, int f70) {
    if (ncols > UINT16_MAX) {
        memset(p, 0, sizeof *p);
        return IX_ELIMIT;
    }
    p->ncols = ncols;
    p->col = ixc_calloc(ncols > 0 ? (size_t)ncols : 1, sizeof *p->col);
    p->off0 = ixc_calloc((size_t)ncols + 1, sizeof *p->off0);
    p->seg = ixc_calloc(ncols > 0 ? (size_t)ncols : 1, sizeof *p->seg);
    p->at = ixc_calloc((size_t)ncols + 1, sizeof *p->at);
    p->nseg = 0;
    if (!p->col || !p->off0 || !p->seg || !p->at) {
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
        c->rel = g->tail;
        g->tail += c->width;
        g->nfixed++;
    }
    plan_at(p);
    return IX_OK;
}

void ixc_rowplan_converted(ixc_rowplan *p) {
    for (int i = 0; i < p->ncols; i++)
        p->col[i].text_kind = RT_OTHER;
}

void ixc_rowplan_free(ixc_rowplan *p) {
    ixc_free(p->col);
    ixc_free(p->off0);
    ixc_free(p->seg);
    ixc_free(p->at);
    p->at = NULL;
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
        uint32_t l = ixb_be32(t + pos + 1);
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

static int all_bytes(const uint8_t *v, size_t n, uint8_t b) {
    for (size_t i = 0; i < n; i++)
        if (v[i] != b) return 0;
    return 1;
}

int ixc_rowplan_is_null_general(const ixc_rpcol *c, const uint8_t *v, size_t n) {
    switch (c->null_kind) {
    case RN_ALLFF: return all_bytes(v, n, 0xff);
    case RN_ALL00: return all_bytes(v, n, 0x00);
    case RN_CALL: return ixt_value_is_null(c->vt, v, n) == 1;
    default: return 0;
    }
}
