/*
 * ix_rowplan.h: a statement's row plan, compiled once from its DESCRIBE.
 *
 * For every column the plan records how its value is laid out in a tuple
 * (sqli-protocol.md §4.2), how its NULL form is recognised and how the typed
 * accessors read it, so that a fetched row is walked once, when it arrives
 * (ixc_rowplan_check), and read afterwards with no per-call type dispatch:
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
 * Offsets: the columns before the first variable one (all of them when the
 * layout is fixed) sit at offsets fixed by the plan; a later column sits at a
 * fixed distance from the end of the variable value before it. So per row
 * only the ends of the variable values are noted (ixc_rowplan_segments, from
 * a tuple that ixc_rowplan_check accepted, so with no bounds checks), and a
 * column's offset is segat[base] + rel (ixc_rowplan_at).
 */
#ifndef IXC_ROWPLAN_H
#define IXC_ROWPLAN_H

#include <stddef.h>
#include <stdint.h>

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
 * directly; RG_OTHER goes through the general conversions. */
enum { RG_I16 = 0, RG_I32, RG_I64, RG_F32, RG_F64, RG_OTHER };

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

/* Where column i starts in a row: segat[base] + rel, segat being the
 * per-row array ixc_rowplan_segments fills (segat[0] = 0; segat[k] = the
 * end of the k-th variable column's value). Entry ncols gives the end of
 * the row. The accessors' get kind rides along. */
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

/* The walk of t[0..n) one column at a time, for the error report of
 * ixc_rowplan_check: its result, with *col the column it fails in. */
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

/* Checks that t[0..n) is exactly one row of the plan. Returns IX_OK, or
 * IX_NEED_MORE (the row ends inside column *col), IX_EMALFORMED (a bad
 * envelope flag or length in column *col), IX_ELIMIT (bytes after the last
 * column; *col = ncols) or IX_EINVAL (column *col has a type whose layout is
 * not known). */
static inline int ixc_rowplan_check(const ixc_rowplan *p, const uint8_t *t, size_t n, int *col) {
    size_t pos = p->prefix_len;
    if (n < pos) return ixc_rowplan_locate(p, t, n, col);
    for (int k = 0; k < p->nseg; k++) {
        const ixc_rpseg *g = &p->seg[k];
        size_t used = ixc_rowplan_var_len(g->layout, t, pos, n);
        if (used > n - pos || g->tail > n - pos - used) return ixc_rowplan_locate(p, t, n, col);
        pos += used + g->tail;
    }
    return pos == n ? IX_OK : ixc_rowplan_locate(p, t, n, col);
}

/* Fills segat[1 .. nseg] for a row ixc_rowplan_check accepted (segat[0] is
 * always 0: the caller sets it once). */
static inline void ixc_rowplan_segments(const ixc_rowplan *p, const uint8_t *t, uint32_t *segat) {
    uint32_t pos = p->prefix_len;
    for (int k = 0; k < p->nseg; k++) {
        const ixc_rpseg *g = &p->seg[k];
        pos += g->layout == RP_VAR1 ? 1 + (uint32_t)t[pos] : 5 + ixb_be32(t + pos + 1);
        segat[k + 1] = pos;
        pos += g->tail;
    }
}

/* The offset of column i (0 .. ncols: ncols gives the row's end). */
static inline uint32_t ixc_rowplan_at(const ixc_rowplan *p, const uint32_t *segat, int i) {
    return segat[p->at[i].base] + p->at[i].rel;
}

/* Fills off[0 .. ncols] for a row ixc_rowplan_check accepted (segat: room
 * for nseg + 1). */
void ixc_rowplan_offsets(const ixc_rowplan *p, const uint8_t *t, uint32_t *segat, uint32_t *off);

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
