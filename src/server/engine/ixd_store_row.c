/*
 * ixd_store_row.c: the per-row fast paths of ixd. A fetched row is encoded
 * straight from SQLite's values into the reply buffer with direct stores,
 * one capacity check per row; a bound value of a common type becomes the
 * parameter's storage value without the general conversion and without an
 * allocation. Anything else (and every unusual value: NULL forms, values
 * out of range, another storage class) takes the general path of
 * value/ixv_value.c, which stays the single definition of every conversion; the
 * fast paths give the same bytes for the values they take.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_int.h"

enum {
    RK_GENERIC,
    RK_I16,        /* SMALLINT */
    RK_I32,        /* INTEGER, SERIAL */
    RK_DATE,       /* DATE: INTEGER in IXT_DATE_MIN..IXT_DATE_MAX */
    RK_I64,        /* BIGINT, BIGSERIAL */
    RK_INT8,       /* INT8, SERIAL8: i16 sign, u32 low, u32 high magnitude */
    RK_FLOAT,      /* FLOAT: 8-byte IEEE, big-endian */
    RK_SMALLFLOAT, /* SMALLFLOAT: 4-byte IEEE, big-endian */
    RK_VARCHAR,    /* VARCHAR, NVARCHAR: u8 length, bytes (at most width) */
    RK_CHAR,       /* CHAR, NCHAR: width bytes, blank padded */
};

/* Kind and most bytes of a column of type t. */
static int plan_col(ityp t, uint32_t *width) {
    switch (t.code) {
    case IX_T_SMALLINT: *width = 2; return RK_I16;
    case IX_T_INTEGER:
    case IX_T_SERIAL: *width = 4; return RK_I32;
    case IX_T_DATE: *width = 4; return RK_DATE;
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: *width = 8; return RK_I64;
    case IX_T_INT8:
    case IX_T_SERIAL8: *width = 10; return RK_INT8;
    case IX_T_FLOAT: *width = 8; return RK_FLOAT;
    case IX_T_SMALLFLOAT: *width = 4; return RK_SMALLFLOAT;
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR: *width = (uint32_t)ixv_text_width(t); return RK_VARCHAR;
    case IX_T_CHAR:
    case IX_T_NCHAR: *width = (uint32_t)ixv_text_width(t); return RK_CHAR;
    default: *width = 0; return RK_GENERIC;
    }
}

int ixd_row_plan(ixd_stmt *s) {
    free(s->rplan);
    s->rplan = calloc((size_t)s->x.ncols + 1, sizeof *s->rplan);
    if (!s->rplan) return IXV_E_NOMEM;
    for (int i = 0; i < s->x.ncols; i++)
        s->rplan[i].kind = plan_col(s->x.cols[i].t, &s->rplan[i].width);
    for (int i = s->x.ncols; i-- > 0;)
        s->rplan[i].rest =
            s->rplan[i + 1].rest + s->rplan[i].width + (s->rplan[i].kind == RK_VARCHAR);
    return 0;
}

/* An integer column's value; 0 when it takes the general path. */
static inline int fast_int(const ixd_rcol *c, sqlite3_value *x, int64_t *v) {
    if (sqlite3_value_type(x) != SQLITE_INTEGER) return 0;
    *v = sqlite3_value_int64(x);
    switch (c->kind) {
    case RK_I16: return *v > INT16_MIN && *v <= INT16_MAX;
    case RK_I32: return *v > INT32_MIN && *v <= INT32_MAX;
    case RK_DATE: return *v >= IXT_DATE_MIN && *v <= IXT_DATE_MAX;
    default: return *v != INT64_MIN;
    }
}

static inline int put_text(const ixd_rcol *c, sqlite3_value *x, uint8_t *dst) {
    if (sqlite3_value_type(x) != SQLITE_TEXT) return -1;
    const unsigned char *p = sqlite3_value_text(x);
    if (!p) return -1;
    size_t n = (size_t)sqlite3_value_bytes(x);
    if (n > c->width) n = c->width;
    if (c->kind == RK_VARCHAR) {
        dst[0] = (uint8_t)n;
        memcpy(dst + 1, p, n);
        return (int)n + 1;
    }
    memcpy(dst, p, n);
    memset(dst + n, ' ', c->width - n);
    return (int)c->width;
}

static inline int fast_put(const ixd_rcol *c, sqlite3_value *x, uint8_t *dst) {
    int64_t v;
    switch (c->kind) {
    case RK_I16:
        if (!fast_int(c, x, &v)) return -1;
        ixb_st16(dst, (uint16_t)v);
        return 2;
    case RK_I32:
    case RK_DATE:
        if (!fast_int(c, x, &v)) return -1;
        ixb_st32(dst, (uint32_t)v);
        return 4;
    case RK_I64:
        if (!fast_int(c, x, &v)) return -1;
        ixb_st64(dst, (uint64_t)v);
        return 8;
    case RK_INT8: {
        if (!fast_int(c, x, &v)) return -1;
        uint64_t mag = v < 0 ? (uint64_t)(-v) : (uint64_t)v;
        ixb_st16(dst, (uint16_t)(v < 0 ? -1 : 1));
        ixb_st32(dst + 2, (uint32_t)mag);
        ixb_st32(dst + 6, (uint32_t)(mag >> 32));
        return 10;
    }
    case RK_FLOAT:
    case RK_SMALLFLOAT: {
        int k = sqlite3_value_type(x);
        if (k != SQLITE_FLOAT && k != SQLITE_INTEGER) return -1;
        double d = k == SQLITE_FLOAT ? sqlite3_value_double(x) : (double)sqlite3_value_int64(x);
        if (isnan(d)) return -1;
        if (c->kind == RK_FLOAT) {
            uint64_t u;
            memcpy(&u, &d, 8);
            ixb_st64(dst, u);
            return 8;
        }
        float f = (float)d;
        if (isinf(f) && isfinite(d)) return -1;
        uint32_t u;
        memcpy(&u, &f, 4);
        ixb_st32(dst, u);
        return 4;
    }
    case RK_VARCHAR:
    case RK_CHAR: return put_text(c, x, dst);
    default: return -1;
    }
}

/* 1 when b has room for n more bytes (grown if need be); 0 when n would
 * pass b's limit (the general path then writes what really fits) or on
 * out of memory (b's sticky error set). */
static int room_for(ixb_wbuf *b, size_t n) {
    if (b->cap - b->len >= n) return 1;
    if (b->max && (b->len > b->max || n > b->max - b->len)) return 0;
    return ixb_wbuf_reserve(b, n) == IX_OK;
}

int ixd_row_encode(ixd_stmt *s, ixb_wbuf *out, ixd_put_fn general) {
    size_t start = out->len;
    const ixd_rcol *plan = s->rplan;
    int room = room_for(out, plan[0].rest);
    for (int i = 0; i < s->x.ncols; i++) {
        sqlite3_value *x = sqlite3_column_value(s->x.st, i);
        int w = room && plan[i].width ? fast_put(&plan[i], x, out->data + out->len) : -1;
        if (w >= 0) {
            out->len += (size_t)w;
            continue;
        }
        int rc = general(s, i, x, out);
        if (rc) {
            out->len = start;
            return rc;
        }
        room = room_for(out, plan[i + 1].rest);
    }
    if (out->err) {
        out->len = start;
        return IXV_E_NOMEM;
    }
    return 0;
}

/* ---- binds ------------------------------------------------------------------ */

/* Sets parameter i to TEXT bytes p[0..n), kept in its reused buffer. */
static int bind_text(ixd_stmt *s, int i, const uint8_t *p, size_t n) {
    if (n + 1 > s->pcap[i]) {
        size_t cap = n + 1 < 64 ? 64 : n + 1;
        uint8_t *b = realloc(s->pbuf[i], cap);
        if (!b) return IXV_E_NOMEM;
        s->pbuf[i] = b;
        s->pcap[i] = cap;
    }
    memcpy(s->pbuf[i], p, n);
    s->pbuf[i][n] = 0;
    sval *v = &s->x.pvals[i];
    if (v->own) ixv_sval_free(v);
    *v = (sval){.kind = SQLITE_TEXT, .p = s->pbuf[i], .n = n};
    return 0;
}

/* A tuple integer of type code (n bytes); 0 when it takes the general path
 * (its NULL form, a width that does not match). */
static int tuple_int(int code, const uint8_t *p, size_t n, int64_t *v) {
    switch (code) {
    case IX_T_SMALLINT:
        if (n != 2 || ixb_be16(p) == 0x8000u) return 0;
        *v = (int16_t)ixb_be16(p);
        return 1;
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE:
        if (n != 4 || ixb_be32(p) == 0x80000000u) return 0;
        *v = (int32_t)ixb_be32(p);
        return 1;
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
        if (n != 8 || ixb_be64(p) == (uint64_t)1 << 63) return 0;
        *v = (int64_t)ixb_be64(p);
        return 1;
    default: return 0;
    }
}

/* A tuple FLOAT/SMALLFLOAT; 0 for its NULL form or a bad width. */
static int tuple_double(int code, const uint8_t *p, size_t n, double *d) {
    if (code == IX_T_FLOAT && n == 8 && ixb_be64(p) != UINT64_MAX) {
        uint64_t u = ixb_be64(p);
        memcpy(d, &u, 8);
        return 1;
    }
    if (code == IX_T_SMALLFLOAT && n == 4 && ixb_be32(p) != UINT32_MAX) {
        uint32_t u = ixb_be32(p);
        float f;
        memcpy(&f, &u, 4);
        *d = f;
        return 1;
    }
    return 0;
}

/* The fast values replace the parameter's value in place (ixv_sval_free only
 * when it owns bytes). */
static int set_int(ixd_stmt *s, int i, int64_t x) {
    if (s->x.pvals[i].own) ixv_sval_free(&s->x.pvals[i]);
    s->x.pvals[i] = (sval){.kind = SQLITE_INTEGER, .i = x};
    return 0;
}

static int set_double(ixd_stmt *s, int i, double d) {
    if (s->x.pvals[i].own) ixv_sval_free(&s->x.pvals[i]);
    s->x.pvals[i] = (sval){.kind = SQLITE_FLOAT, .d = d};
    return 0;
}

int ixd_bind_fast(ixd_stmt *s, int i, ityp from, const uint8_t *p, size_t n) {
    ityp to = s->x.ptypes[i];
    int64_t x;
    double d;
    if (tuple_int(from.code, p, n, &x)) {
        if (from.code == IX_T_DATE)
            return to.code < 0 || to.code == IX_T_DATE ? set_int(s, i, x) : 1;
        if (to.code < 0 || (ixv_is_int(to.code) && ixv_int_fits(to.code, x)))
            return set_int(s, i, x);
        if (ixv_is_float(to.code)) return set_double(s, i, (double)x);
        return 1;
    }
    if (tuple_double(from.code, p, n, &d)) {
        if (to.code == IX_T_SMALLFLOAT && isfinite(d) && isinf((float)d))
            return 1; /* out of SMALLFLOAT range: the general path's -1226 */
        return to.code < 0 || ixv_is_float(to.code) ? set_double(s, i, d) : 1;
    }
    if ((from.code == IX_T_VARCHAR || from.code == IX_T_NVARCHAR) && n >= 1 &&
        n == 1 + (size_t)p[0] && !(n == 2 && p[1] == 0)) {
        size_t len = p[0];
        if (to.code == from.code) {
            size_t w = to.len & 0xff;
            if (w && len > w) len = w;
        } else if (to.code >= 0) {
            return 1;
        }
        return bind_text(s, i, p + 1, len);
    }
    return 1;
}
