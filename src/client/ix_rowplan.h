/*
 * ix_rowplan.h: a statement's row plan, compiled once from its DESCRIBE.
 *
 * For every column the plan records how its value is laid out in a tuple
 * (sqli-protocol.md §4.2), how its NULL form is recognised and how the typed
 * accessors read it, so that a fetched row is walked once, when it arrives
 * (ixc_rowplan_take), and read afterwards with no per-call type dispatch:
 *
 *   | layout     | types                                   | value bytes              |
 *   |------------|-----------------------------------------|--------------------------|
 *   | RP_FIXED   | integers, floats, DATE, DECIMAL, MONEY, | width bytes              |
 *   |            | DATETIME, INTERVAL, CHAR, BYTE/TEXT     | (BYTE/TEXT: 56, 68 f70)  |
 *   | RP_VAR1    | VARCHAR, NVARCHAR                       | u8 len, len bytes        |
 *   | RP_ENV     | LVARCHAR, BOOLEAN, UDTVAR, UDTFIXED     | u8 flag 0/1, i32 len,    |
 *   |            |                                         | len bytes                |
 *   | RP_BAD     | a type whose layout is not known        | (a row cannot be walked) |
 *
 * Records: a tuple is checked once, when it arrives, and stored in its
 * batch as a record (ixc_rowplan_take), 4-byte aligned:
 *
 *   [u32 segat[0 .. nseg]] [u32 record bytes] [the row, stored] [0 to 3 zero bytes]
 *
 * The stored row is the tuple with one NUL byte after every variable value
 * (RP_VAR1, RP_ENV), so that a VARCHAR's or LVARCHAR's characters are a C
 * string where they lie. segat[0] is 0; segat[k] is where the k-th variable
 * value ends in the stored row (its NUL). The columns before the first
 * variable one sit at offsets fixed by the plan; a later column sits at a
 * fixed distance from the end of the variable value before it. So a
 * column's value starts at segat[at.base] + at.rel (ixc_rowplan_at) and has
 * the bytes up to the next column's start less at.pad (the NUL). segat is
 * read with native loads: the record's words are in this machine's order.
 */
#ifndef IXC_ROWPLAN_H
#define IXC_ROWPLAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "base/ix_buf.h"
#include "ixdb.h"
#include "types/ix_types.h"
#include "types/ix_value.h"

enum { RP_FIXED = 0, RP_VAR1, RP_ENV, RP_BAD };

/* NULL tests (the NULL forms of ix_value.h). */
enum {
    RN_I16 = 0, /* i16 0x8000 */
    RN_I32,     /* i32 0x80000000 */
    RN_I64,     /* i64 1 << 63 */
    RN_INT8,    /* sign word 0 */
    RN_ALLFF,   /* every byte ff (FLOAT, SMALLFLOAT) */
    RN_ALL00,   /* every byte 00 (DECIMAL, MONEY, DATETIME, INTERVAL) */
    RN_VAR1,    /* length 1, byte 00 */
    RN_CHAR,    /* CHAR, NCHAR: ixt_char_is_null (ix_value.h) */
    RN_CALL,    /* ixt_value_is_null: the other forms that rest on a choice
                 * made in ix_value.c (the envelopes, the BYTE/TEXT descriptor) */
    RN_NONE     /* RP_BAD: never NULL (never read) */
};

/* How ix_column_get_int64 / ix_column_get_double read a non-NULL value
 * directly (RG_DATE: a DATE's day number, read as RG_I32, and by
 * ix_column_date_ymd in place; RG_INT8: INT8's sign word and two 32-bit
 * halves); RG_OTHER goes through the general conversions. */
enum { RG_I16 = 0, RG_I32, RG_I64, RG_F32, RG_F64, RG_DATE, RG_INT8, RG_OTHER };

/* How ix_column_text reads a character value without formatting:
 * RT_OTHER formats (ixt_value_format). */
enum { RT_RAW = 0, RT_VAR1, RT_ENV, RT_OTHER };

typedef struct ixc_rpcol {
    uint8_t layout, null_kind, get_kind, text_kind;
    uint32_t width;   /* RP_FIXED: bytes */
    uint32_t rel;     /* RP_FIXED after a variable column: offset from its end */
    uint32_t max_len; /* RT_VAR1 / RT_ENV: the declared maximum (0: none) */
    ixt_vtype vt;     /* the column's type (RN_CALL, the general conversions) */
} ixc_rpcol;

/* A variable column and the fixed ones that follow it up to the next
 * variable one (tail: their bytes). */
typedef struct ixc_rpseg {
    int col, nfixed;
    uint8_t layout;
    uint32_t tail;
} ixc_rpseg;

/* Where column i starts in a stored row: segat[base] + rel (see "Records"
 * above); pad: 1 when a NUL follows the value (a variable one), else 0.
 * Entry ncols gives the end of the stored row. The accessors' get kind
 * rides along. */
typedef struct ixc_rpat {
    uint32_t rel;
    uint16_t base;
    uint8_t get_kind, pad;
} ixc_rpat;

typedef struct ixc_rowplan {
    int ncols;
    ixc_rpcol *col;
    int first_var;       /* index of the first non-RP_FIXED column, ncols if none */
    int bad;             /* index of the first RP_BAD column, -1 if none */
    uint32_t prefix_len; /* bytes of the columns before first_var */
    uint32_t *off0;      /* ncols + 1 offsets; [0 .. first_var] are fixed */
    ixc_rpat *at;        /* ncols + 1 */
    int nseg;            /* segments from first_var on */
    ixc_rpseg *seg;
} ixc_rowplan;

/* Compiles the plan for ncols columns of the given types (vt[i]); f70: the
 * BYTE/TEXT descriptors are 68 bytes. Returns IX_OK, IX_ENOMEM or IX_ELIMIT
 * (more than 65535 columns). */
int ixc_rowplan_build(ixc_rowplan *p, const ixt_vtype *vt, int ncols, int f70);
void ixc_rowplan_free(ixc_rowplan *p);
/* The client converts character values to its code set: no column's text
 * is read in place (text kind RT_OTHER). Returns nothing. */
void ixc_rowplan_converted(ixc_rowplan *p);

/* The walk of t[0..n) one column at a time, for the error report of
 * ixc_rowplan_take: its result, with *col the column it fails in. */
int ixc_rowplan_locate(const ixc_rowplan *p, const uint8_t *t, size_t n, int *col);

/* The bytes of the variable value at t[pos..n) (layout RP_VAR1 / RP_ENV),
 * or SIZE_MAX when it does not fit or is malformed (or the layout is not
 * known). */
static inline size_t ixc_rowplan_var_len(uint8_t layout, const uint8_t *t, size_t pos, size_t n) {
    size_t avail = n - pos;
    if (layout == RP_VAR1) return avail >= 1 ? 1 + (size_t)t[pos] : SIZE_MAX;
    if (layout != RP_ENV || avail < 5 || t[pos] > 1) return SIZE_MAX;
    uint32_t l = ixb_be32(t + pos + 1);
    return l > INT32_MAX ? SIZE_MAX : 5 + (size_t)l;
}

/* The bytes of a record's head (segat[0 .. nseg] and the record's bytes). */
static inline size_t ixc_rowplan_head(const ixc_rowplan *p) {
    return 4 * ((size_t)p->nseg + 2);
}

/* The bytes of the record of a tuple of n bytes (n <= UINT32_MAX - 8 -
 * 5 * nseg). */
static inline size_t ixc_rowplan_rec_size(const ixc_rowplan *p, size_t n) {
    return ixc_rowplan_head(p) + ((n + (size_t)p->nseg + 3) & ~(size_t)3);
}

static inline void ixc_rowplan_put_word(uint8_t *at, uint32_t v) {
    memcpy(at, &v, 4);
}

static inline uint32_t ixc_rowplan_word(const uint8_t *at) {
    uint32_t v;
    memcpy(&v, at, 4);
    return v;
}

/* Copies t[0..n) to o; short pieces (the common ones) with no call. */
static inline void ixc_rowplan_copy(uint8_t *o, const uint8_t *t, size_t n) {
    uint64_t a, b, c, d;
    uint32_t x, y;
    if (n > 32) {
        memcpy(o, t, n);
    } else if (n >= 16) {
        memcpy(&a, t, 8), memcpy(&b, t + 8, 8), memcpy(&c, t + n - 16, 8), memcpy(&d, t + n - 8, 8);
        memcpy(o, &a, 8), memcpy(o + 8, &b, 8), memcpy(o + n - 16, &c, 8), memcpy(o + n - 8, &d, 8);
    } else if (n >= 8) {
        memcpy(&a, t, 8), memcpy(&b, t + n - 8, 8);
        memcpy(o, &a, 8), memcpy(o + n - 8, &b, 8);
    } else if (n >= 4) {
        memcpy(&x, t, 4), memcpy(&y, t + n - 4, 4);
        memcpy(o, &x, 4), memcpy(o + n - 4, &y, 4);
    } else {
        for (size_t i = 0; i < n; i++)
            o[i] = t[i];
    }
}

/* Checks that t[0..n) is exactly one row of the plan and writes its record
 * (ixc_rowplan_rec_size(p, n) bytes) at rec, in the same pass. Returns
 * IX_OK, or IX_NEED_MORE (the row ends inside column *col), IX_EMALFORMED
 * (a bad envelope flag or length in column *col), IX_ELIMIT (bytes after the
 * last column; *col = ncols) or IX_EINVAL (column *col has a type whose
 * layout is not known); on a failure rec holds no record. */
static inline __attribute__((always_inline)) int
ixc_rowplan_take(const ixc_rowplan *p, const uint8_t *t, size_t n, uint8_t *rec, int *col) {
    const int nseg = p->nseg; /* in locals: the stores below may alias p */
    const ixc_rpseg *seg = p->seg;
    size_t pos = p->prefix_len, from = 0, head = ixc_rowplan_head(p);
    size_t size = ixc_rowplan_rec_size(p, n);
    if (n < pos) return ixc_rowplan_locate(p, t, n, col);
    uint8_t *row = rec + head, *o = row;
    ixc_rowplan_put_word(rec + size - 4, 0); /* the padding, if any */
    ixc_rowplan_put_word(rec, 0);
    for (int k = 0; k < nseg; k++) {
        size_t used = ixc_rowplan_var_len(seg[k].layout, t, pos, n), tail = seg[k].tail;
        if (used > n - pos || tail > n - pos - used) return ixc_rowplan_locate(p, t, n, col);
        size_t end = pos + used;
        ixc_rowplan_copy(o, t + from, end - from);
        o += end - from;
        ixc_rowplan_put_word(rec + 4 * ((size_t)k + 1), (uint32_t)(o - row));
        *o++ = 0;
        from = end;
        pos = end + tail;
    }
    if (pos != n) return ixc_rowplan_locate(p, t, n, col);
    ixc_rowplan_copy(o, t + from, n - from);
    ixc_rowplan_put_word(rec + head - 4, (uint32_t)size);
    return IX_OK;
}

/* The offset of column i in the stored row of the record rec (0 .. ncols:
 * ncols gives the stored row's end). */
static inline uint32_t ixc_rowplan_at(const ixc_rowplan *p, const uint8_t *rec, int i) {
    return ixc_rowplan_word(rec + 4 * (size_t)p->at[i].base) + p->at[i].rel;
}

/* Column i's value in the record rec (its bytes as they came in the tuple),
 * with *n set to their count. */
static inline const uint8_t *ixc_rowplan_value(const ixc_rowplan *p, const uint8_t *rec, int i,
                                               size_t *n) {
    uint32_t a = ixc_rowplan_at(p, rec, i);
    *n = ixc_rowplan_at(p, rec, i + 1) - a - p->at[i].pad;
    return rec + ixc_rowplan_head(p) + a;
}

/* The bytes of the record rec, head and padding included. */
static inline size_t ixc_rowplan_rec_len(const ixc_rowplan *p, const uint8_t *rec) {
    return ixc_rowplan_word(rec + ixc_rowplan_head(p) - 4);
}

int ixc_rowplan_is_null_general(const ixc_rpcol *c, const uint8_t *v, size_t n);

/* 1 if the value v[0..n) of a column planned as c is NULL, else 0. */
static inline int ixc_rowplan_is_null(const ixc_rpcol *c, const uint8_t *v, size_t n) {
    switch (c->null_kind) {
    case RN_I16: return ixb_be16(v) == 0x8000;
    case RN_I32: return ixb_be32(v) == 0x80000000u;
    case RN_I64: return ixb_be64(v) == (uint64_t)1 << 63;
    case RN_INT8: return ixb_be16(v) == 0;
    case RN_VAR1: return n == 2 && v[0] == 1 && v[1] == 0;
    case RN_CHAR: return ixt_char_is_null(v, n);
    default: return ixc_rowplan_is_null_general(c, v, n);
    }
}

#endif /* IXC_ROWPLAN_H */
