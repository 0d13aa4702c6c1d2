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
#include "proto/ix_msg.h"

int ixd_fast_binds = 1;

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
    RK_DATETIME,   /* DATETIME: its TEXT parsed and packed (put_datetime) */
    RK_DT_Y2S,     /* DATETIME YEAR TO SECOND: packed straight from its text */
    RK_DT_Y2F5,    /* DATETIME YEAR TO FRACTION(5): likewise (dt_direct) */
};

/* The two DATETIME qualifiers packed in put_direct, their text lengths
 * ("YYYY-MM-DD HH:MI:SS[.FFFFF]") and their tuple form's head (§4.5: a
 * positive value, 7 base-100 pairs before the point). */
#define DT_Y2S_Q    IXT_QUAL(14, IXT_TU_YEAR, IXT_TU_SECOND)
#define DT_Y2F5_Q   IXT_QUAL(19, IXT_TU_YEAR, IXT_TU_F(5))
#define DT_Y2S_TXT  19
#define DT_Y2F5_TXT 25
#define DT_HEAD     0xC7

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
    case IX_T_DATETIME:
        *width = (uint32_t)ixt_qual_width(t.len);
        return t.len == DT_Y2S_Q ? RK_DT_Y2S : t.len == DT_Y2F5_Q ? RK_DT_Y2F5 : RK_DATETIME;
    default: *width = 0; return RK_GENERIC;
    }
}

int ixd_row_plan(ixd_stmt *s) {
    free(s->rplan);
    s->rplan = calloc((size_t)s->x.ncols + 1, sizeof *s->rplan);
    if (!s->rplan) return IXV_E_NOMEM;
    for (int i = 0; i < s->x.ncols; i++) {
        ixd_rcol *c = &s->rplan[i];
        c->kind = plan_col(s->x.cols[i].t, &c->width);
        if (c->width == 0) c->kind = RK_GENERIC; /* a text of no width: general */
    }
    for (int i = s->x.ncols; i-- > 0;)
        s->rplan[i].rest =
            s->rplan[i + 1].rest + s->rplan[i].width + (s->rplan[i].kind == RK_VARCHAR);
    return 0;
}

/* Two digits of s at i, or -1. */
static int two_digits(const char *s, size_t i) {
    unsigned a = (unsigned)(s[i] - '0'), b = (unsigned)(s[i + 1] - '0');
    return a < 10 && b < 10 ? (int)(a * 10 + b) : -1;
}

/* A DATETIME YEAR TO SECOND (w 8) or YEAR TO FRACTION(5) (w 11) text of n
 * bytes at p, in the canonical form ixd stores ("YYYY-MM-DD HH:MI:SS",
 * ".FFFFF" for the fraction) with a year from 100 and a valid date and
 * time, packed at d as the general path packs it (ixt_dt_parse,
 * ixt_dt_encode: C7, the year's two pairs, month, day, hour, minute,
 * second, the fraction's digits in pairs, the last one's low digit 0).
 * 0 for any other text: the general path then gives its result. */
static int dt_direct(const char *p, size_t n, uint32_t w, uint8_t *d) {
    if (n != (w == 8 ? DT_Y2S_TXT : DT_Y2F5_TXT) || p[4] != '-' || p[7] != '-' || p[10] != ' ' ||
        p[13] != ':' || p[16] != ':')
        return 0;
    int y1 = two_digits(p, 0), y2 = two_digits(p, 2), mo = two_digits(p, 5), dd = two_digits(p, 8),
        hh = two_digits(p, 11), mi = two_digits(p, 14), ss = two_digits(p, 17);
    if (y1 < 1 || y2 < 0 || mo < 1 || mo > 12 || dd < 1 || hh < 0 || hh > 23 || mi < 0 || mi > 59 ||
        ss < 0 || ss > 59 || dd > ixt_days_in_month(y1 * 100 + y2, mo))
        return 0;
    if (w == 11) {
        int f1 = two_digits(p, 20), f2 = two_digits(p, 22);
        unsigned f3 = (unsigned)(p[24] - '0');
        if (p[19] != '.' || f1 < 0 || f2 < 0 || f3 > 9) return 0;
        d[8] = (uint8_t)f1;
        d[9] = (uint8_t)f2;
        d[10] = (uint8_t)(f3 * 10);
    }
    d[0] = DT_HEAD;
    d[1] = (uint8_t)y1;
    d[2] = (uint8_t)y2;
    d[3] = (uint8_t)mo;
    d[4] = (uint8_t)dd;
    d[5] = (uint8_t)hh;
    d[6] = (uint8_t)mi;
    d[7] = (uint8_t)ss;
    return 1;
}

/* The direct stores of one row. Every column is read with one
 * sqlite3_column_value and its storage class; a value the column's kind
 * stores directly is written at d, anything else (NULL, another storage
 * class, a value out of range) returns the column's index so that the
 * caller takes the general path for it. The plan was made once per
 * statement (ixd_row_plan); nothing here allocates or calls through a
 * pointer. Returns ncols when every column was stored, with *end the
 * first byte after the row. */
static int put_direct(sqlite3_stmt *st, const ixd_rcol *plan, int from, int ncols, uint8_t *d,
                      uint8_t **end) {
    int i;
    for (i = from; i < ncols; i++) {
        const ixd_rcol *c = &plan[i];
        sqlite3_value *x = sqlite3_column_value(st, i);
        int k = sqlite3_value_type(x);
        int64_t v;
        double f;
        switch (c->kind) {
        case RK_I32: /* not INT32_MIN, INTEGER's NULL form */
            if (k != SQLITE_INTEGER) goto general;
            v = sqlite3_value_int64(x);
            if (v <= INT32_MIN || v > INT32_MAX) goto general;
            ixb_st32(d, (uint32_t)v);
            d += 4;
            continue;
        case RK_DATE:
            if (k != SQLITE_INTEGER) goto general;
            v = sqlite3_value_int64(x);
            if (v < IXT_DATE_MIN || v > IXT_DATE_MAX) goto general;
            ixb_st32(d, (uint32_t)v);
            d += 4;
            continue;
        case RK_I16:
            if (k != SQLITE_INTEGER) goto general;
            v = sqlite3_value_int64(x);
            if (v <= INT16_MIN || v > INT16_MAX) goto general;
            ixb_st16(d, (uint16_t)v);
            d += 2;
            continue;
        case RK_I64:
            if (k != SQLITE_INTEGER) goto general;
            v = sqlite3_value_int64(x);
            if (v == INT64_MIN) goto general;
            ixb_st64(d, (uint64_t)v);
            d += 8;
            continue;
        case RK_INT8: {
            if (k != SQLITE_INTEGER) goto general;
            v = sqlite3_value_int64(x);
            if (v == INT64_MIN) goto general;
            uint64_t mag = v < 0 ? (uint64_t)(-v) : (uint64_t)v;
            ixb_st16(d, (uint16_t)(v < 0 ? -1 : 1));
            ixb_st32(d + 2, (uint32_t)mag);
            ixb_st32(d + 6, (uint32_t)(mag >> 32));
            d += 10;
            continue;
        }
        case RK_FLOAT:
        case RK_SMALLFLOAT:
            if (k == SQLITE_FLOAT)
                f = sqlite3_value_double(x);
            else if (k == SQLITE_INTEGER)
                f = (double)sqlite3_value_int64(x);
            else
                goto general;
            if (isnan(f)) goto general;
            if (c->kind == RK_FLOAT) {
                uint64_t u;
                memcpy(&u, &f, 8);
                ixb_st64(d, u);
                d += 8;
            } else {
                float g = (float)f;
                if (isinf(g) && isfinite(f)) goto general;
                uint32_t u;
                memcpy(&u, &g, 4);
                ixb_st32(d, u);
                d += 4;
            }
            continue;
        case RK_VARCHAR:
        case RK_CHAR: {
            if (k != SQLITE_TEXT) goto general;
            const unsigned char *p = sqlite3_value_text(x);
            if (!p) goto general;
            size_t n = (size_t)sqlite3_value_bytes(x);
            if (n > c->width) n = c->width;
            if (c->kind == RK_VARCHAR) {
                *d++ = (uint8_t)n;
                memcpy(d, p, n);
                d += n;
            } else {
                memcpy(d, p, n);
                memset(d + n, ' ', c->width - n);
                d += c->width;
            }
            continue;
        }
        case RK_DT_Y2S:
        case RK_DT_Y2F5: {
            if (k != SQLITE_TEXT) goto general;
            size_t n = (size_t)sqlite3_value_bytes(x);
            const char *p = sqlite3_value_blob(x); /* as put_datetime reads it */
            if (!p || !dt_direct(p, n, c->width, d)) goto general;
            d += c->width;
            continue;
        }
        default: goto general;
        }
    }
general:
    *end = d;
    return i;
}

/* 1 when b has room for n more bytes (grown if need be); 0 when n would
 * pass b's limit (the general path then writes what really fits) or on
 * out of memory (b's sticky error set). */
static int room_for(ixb_wbuf *b, size_t n) {
    if (b->cap - b->len >= n) return 1;
    if (b->max && (b->len > b->max || n > b->max - b->len)) return 0;
    return ixb_wbuf_reserve(b, n) == IX_OK;
}

/* A DATETIME of qualifier q stored as TEXT (ixd's form), appended to out
 * by the same parse and pack the general path makes of it (ixv_sval_to_tuple:
 * ixt_dt_parse, ixt_dt_encode) without the value's conversion to an sval.
 * 1 when appended; 0 for anything else (NULL, another storage class, a
 * text that does not parse or pack), out as it was: the general path then
 * gives its result. */
static int put_datetime(uint32_t q, sqlite3_value *x, ixb_wbuf *out) {
    if (sqlite3_value_type(x) != SQLITE_TEXT) return 0;
    /* the text's bytes as stored: sqlite3_value_text would first copy a
     * text a virtual table gave without its NUL (a TimeSeries row's) to
     * add one; the bytes are the same in a UTF-8 database, and any other
     * encoding's do not parse (the general path then reads the text) */
    size_t n = (size_t)sqlite3_value_bytes(x);
    const char *p = sqlite3_value_blob(x);
    if (!p) return 0;
    ixt_datetime dt;
    if (ixt_dt_parse(q, p, n, &dt) != IX_OK) return 0;
    size_t len = out->len;
    if (ixt_dt_encode(q, &dt, out) == IX_OK) return 1;
    if (!out->err) out->len = len;
    return 0;
}

int ixd_row_encode(ixd_stmt *s, ixb_wbuf *out, ixd_put_fn general) {
    size_t start = out->len;
    const ixd_rcol *plan = s->rplan;
    int n = s->x.ncols;
    int i = 0;
    while (i < n) {
        if (plan[i].kind != RK_GENERIC && plan[i].kind != RK_DATETIME &&
            room_for(out, plan[i].rest)) {
            uint8_t *end;
            i = put_direct(s->x.st, plan, i, n, out->data + out->len, &end);
            out->len = (size_t)(end - out->data);
            if (i == n) break;
        }
        sqlite3_value *x = sqlite3_column_value(s->x.st, i);
        if (plan[i].kind >= RK_DATETIME && put_datetime(s->x.cols[i].t.len, x, out)) {
            i++;
            continue;
        }
        int rc = general(s, i, x, out);
        if (rc) {
            out->len = start;
            return rc;
        }
        i++;
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

/* Sets parameter i to a VARCHAR/NVARCHAR (code) of len bytes at p: as is
 * into a parameter of no type, cut to the width of one of the same type;
 * 1 (the general path) for a parameter of another type. */
static int bind_varchar(ixd_stmt *s, int i, int code, const uint8_t *p, size_t len) {
    ityp to = s->x.ptypes[i];
    if (to.code == code) {
        size_t w = to.len & 0xff;
        if (w && len > w) len = w;
    } else if (to.code >= 0) {
        return 1;
    }
    return bind_text(s, i, p, len);
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
        n == 1 + (size_t)p[0] && !(n == 2 && p[1] == 0))
        return bind_varchar(s, i, from.code, p + 1, p[0]);
    return 1;
}

/* ---- binds straight from the SQ_BIND message ------------------------------------ */

/* What a parameter takes directly (its class in ixd_stmt.wplan, decided
 * once per statement): the cases of ixd_bind_fast by the parameter's type. */
enum {
    PC_OTHER,      /* the general path */
    PC_ANY,        /* no type: every value as it comes */
    PC_INT,        /* an integer type: integers in lo..hi (ixv_int_fits) */
    PC_FLOAT,      /* FLOAT */
    PC_SMALLFLOAT, /* SMALLFLOAT: integers, floats in its range */
    PC_DATE,       /* DATE: DATE values only */
    PC_VARCHAR,    /* VARCHAR / NVARCHAR (code): the same type, cut to width */
};

static ixd_wparam plan_param(ityp to) {
    ixd_wparam w = {PC_OTHER, to.code, 0, 0, 0};
    if (to.code < 0) {
        w.cls = PC_ANY;
    } else if (ixv_is_int(to.code)) {
        w.cls = PC_INT;
        w.lo = to.code == IX_T_SMALLINT                            ? -32767
               : to.code == IX_T_INTEGER || to.code == IX_T_SERIAL ? INT32_MIN + 1
                                                                   : INT64_MIN + 1;
        w.hi = to.code == IX_T_SMALLINT                            ? 32767
               : to.code == IX_T_INTEGER || to.code == IX_T_SERIAL ? INT32_MAX
                                                                   : INT64_MAX;
    } else if (to.code == IX_T_FLOAT) {
        w.cls = PC_FLOAT;
    } else if (to.code == IX_T_SMALLFLOAT) {
        w.cls = PC_SMALLFLOAT;
    } else if (to.code == IX_T_DATE) {
        w.cls = PC_DATE;
    } else if (to.code == IX_T_VARCHAR || to.code == IX_T_NVARCHAR) {
        w.cls = PC_VARCHAR;
        w.width = to.len & 0xff;
    }
    return w;
}

/* The statement's parameter plan, made at its first wire bind. 0, or 1
 * out of memory (the general path). */
static int wplan_make(ixd_stmt *s) {
    if (s->wplan) return 0;
    s->wplan = malloc(sizeof *s->wplan * (size_t)(s->x.nparams ? s->x.nparams : 1));
    if (!s->wplan) return 1;
    for (int i = 0; i < s->x.nparams; i++)
        s->wplan[i] = plan_param(s->x.ptypes[i]);
    return 0;
}

/* Parameter i (1-based in SQLite) set to integer x / double d: the
 * statement's value and SQLite's binding. 0, or 1 when SQLite refuses. */
static int wire_int(ixd_stmt *s, int i, int64_t x) {
    set_int(s, i, x);
    return sqlite3_bind_int64(s->x.st, i + 1, x) != SQLITE_OK;
}

static int wire_double(ixd_stmt *s, int i, double d) {
    set_double(s, i, d);
    return sqlite3_bind_double(s->x.st, i + 1, d) != SQLITE_OK;
}

/* An integer of the bind (not its NULL form) into parameter i: 0 set,
 * 1 general path, 2 set but not bound in SQLite. */
static int wire_intval(ixd_stmt *s, int i, const ixd_wparam *w, int64_t x) {
    switch (w->cls) {
    case PC_ANY: return wire_int(s, i, x) ? 2 : 0;
    case PC_INT: return x >= w->lo && x <= w->hi ? (wire_int(s, i, x) ? 2 : 0) : 1;
    case PC_FLOAT:
    case PC_SMALLFLOAT: return wire_double(s, i, (double)x) ? 2 : 0;
    default: return 1;
    }
}

/* A FLOAT/SMALLFLOAT of the bind (not NaN) into parameter i: as
 * wire_intval. */
static int wire_floatval(ixd_stmt *s, int i, const ixd_wparam *w, double d) {
    if (w->cls == PC_SMALLFLOAT && isfinite(d) && isinf((float)d))
        return 1; /* out of SMALLFLOAT range: the general path's -1226 */
    if (w->cls != PC_ANY && w->cls != PC_FLOAT && w->cls != PC_SMALLFLOAT) return 1;
    return wire_double(s, i, d) ? 2 : 0;
}

/* A VARCHAR/NVARCHAR (code) of len bytes at p into parameter i: as
 * wire_intval (out of memory: 1, the general path). */
static int wire_text(ixd_stmt *s, int i, const ixd_wparam *w, int code, const uint8_t *p,
                     size_t len) {
    if (w->cls == PC_VARCHAR && w->code == code) {
        if (w->width && len > w->width) len = w->width;
    } else if (w->cls != PC_ANY) {
        return 1;
    }
    if (bind_text(s, i, p, len)) return 1;
    return sqlite3_bind_text(s->x.st, i + 1, (const char *)s->pbuf[i], (int)len, SQLITE_STATIC) !=
                   SQLITE_OK
               ? 2
               : 0;
}

/* One value of the SQ_BIND bytes p[0..n) (i16 type, i16 indicator, i16
 * slot, then the value padded to even: the layout ixd_sess_bind_fast reads)
 * into parameter i, when it is of a type ixd_sess_bind_fast takes and
 * ixd_bind_fast would set directly: the same value ixd_bind would set from
 * its tuple form, bound in SQLite too. Returns the bytes read, or 0 for the
 * general path; *unbound set when SQLite refused the binding. */
static size_t bind_wire1(ixd_stmt *s, int i, const uint8_t *p, size_t n, int *unbound) {
    if (n < 6 || (int16_t)ixb_be16(p + 2) != IXP_IND_VALUE) return 0;
    int code = ixb_be16(p) & 0xff;
    const uint8_t *v = p + 6;
    size_t left = n - 6, used;
    const ixd_wparam *w = &s->wplan[i];
    int r;
    switch (code) {
    case IX_T_SMALLINT:
        if (left < 2 || ixb_be16(v) == 0x8000u) return 0;
        r = wire_intval(s, i, w, (int16_t)ixb_be16(v));
        used = 2;
        break;
    case IX_T_INTEGER:
    case IX_T_SERIAL:
        if (left < 4 || ixb_be32(v) == 0x80000000u) return 0;
        r = wire_intval(s, i, w, (int32_t)ixb_be32(v));
        used = 4;
        break;
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
        if (left < 8 || ixb_be64(v) == (uint64_t)1 << 63) return 0;
        r = wire_intval(s, i, w, (int64_t)ixb_be64(v));
        used = 8;
        break;
    case IX_T_DATE: {
        if (left < 4) return 0;
        int32_t x = (int32_t)ixb_be32(v); /* its NULL form is out of range */
        if (x < IXT_DATE_MIN || x > IXT_DATE_MAX) return 0;
        if (w->cls != PC_ANY && w->cls != PC_DATE) return 0;
        r = wire_int(s, i, x) ? 2 : 0;
        used = 4;
        break;
    }
    case IX_T_FLOAT: {
        if (left < 8) return 0;
        uint64_t u = ixb_be64(v);
        double d;
        memcpy(&d, &u, 8);
        if (isnan(d)) return 0; /* NaN (and the NULL form) as the general path says */
        r = wire_floatval(s, i, w, d);
        used = 8;
        break;
    }
    case IX_T_SMALLFLOAT: {
        if (left < 4) return 0;
        uint32_t u = ixb_be32(v);
        float f;
        memcpy(&f, &u, 4);
        if (isnan(f)) return 0;
        r = wire_floatval(s, i, w, f);
        used = 4;
        break;
    }
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR: {
        /* at most 255 bytes, not the 01 00 NULL form */
        if (left < 2) return 0;
        size_t len = ixb_be16(v);
        if (len > 255 || left - 2 < len + (len & 1) || (len == 1 && v[2] == 0)) return 0;
        r = wire_text(s, i, w, code, v + 2, len);
        used = 2 + len + (len & 1);
        break;
    }
    default: return 0;
    }
    if (r == 1) return 0;
    if (r == 2) *unbound = 1;
    return 6 + used;
}

int ixd_bind_wire(ixd_stmt *s, const uint8_t *p, size_t n, int count) {
    if (!s || !s->x.db || !s->x.st || s->x.kind != SK_DML || count != s->x.nparams ||
        !ixd_fast_binds || sqlite3_stmt_busy(s->x.st) || wplan_make(s))
        return 1;
    s->wired = 0;
    size_t pos = 0;
    int unbound = 0;
    for (int i = 0; i < count; i++) {
        size_t used = bind_wire1(s, i, p + pos, n - pos, &unbound);
        if (!used) return 1;
        s->x.pset[i] = 1;
        pos += used;
    }
    if (pos != n) return 1;
    /* SQLite's parameters hold the values: bind_all has nothing to do */
    s->wired = !unbound;
    return 0;
}
