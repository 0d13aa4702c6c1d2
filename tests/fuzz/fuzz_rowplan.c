/* fuzz_rowplan.c: libFuzzer target for the client's row plan
 * (src/client/ix_rowplan.[ch]): a server's SQ_TUPLE walked against a
 * statement's columns and stored as a record.
 *
 * Input layout:
 *   byte 0        bits 0-3: column count - 1 (1 to 16); bit 4: f70
 *   next c bytes  each column's type selector (index into kinds[], high bits
 *                 choose the declared length)
 *   rest          the tuple
 *
 * Properties (abort() on violation):
 *   - ixc_rowplan_take never reads outside the tuple nor writes outside the
 *     record's ixc_rowplan_rec_size bytes (ASan: both are exact allocations);
 *   - when it accepts: the record walks as its size; the columns' values,
 *     read back with ixc_rowplan_value, lie inside the stored row, follow
 *     each other and together are the tuple, byte for byte; a variable value
 *     is followed by its NUL; the NULL test runs on each;
 *   - when it refuses: ixc_rowplan_locate gives the same verdict.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "client/ix_rowplan.h"
#include "types/ix_datetime.h"
#include "types/ix_types.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const int kinds[] = {
    IX_T_CHAR,     IX_T_SMALLINT, IX_T_INTEGER, IX_T_FLOAT,    IX_T_SMALLFLOAT, IX_T_DECIMAL,
    IX_T_SERIAL,   IX_T_DATE,     IX_T_MONEY,   IX_T_DATETIME, IX_T_BYTE,       IX_T_TEXT,
    IX_T_VARCHAR,  IX_T_INTERVAL, IX_T_NCHAR,   IX_T_NVARCHAR, IX_T_INT8,       IX_T_SERIAL8,
    IX_T_LVARCHAR, IX_T_BOOLEAN,  IX_T_BIGINT,  IX_T_UDTVAR,   IX_T_UDTFIXED,   IX_T_SET,
};
#define NKINDS (sizeof kinds / sizeof kinds[0])

static ixt_vtype pick(uint8_t b) {
    ixt_vtype t = {kinds[b % NKINDS], 0};
    unsigned len = b / NKINDS; /* 0 .. 10 */
    switch (t.code) {
    case IX_T_CHAR:
    case IX_T_NCHAR: t.enclen = 1 + len * 3; break;
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR: t.enclen = len * 25; break;
    case IX_T_LVARCHAR: t.enclen = len * 100; break;
    case IX_T_DECIMAL:
    case IX_T_MONEY: t.enclen = (1 + len * 3) << 8 | 2; break;
    case IX_T_DATETIME: t.enclen = ixt_dt_qual(IXT_TU_YEAR, IXT_TU_SECOND); break;
    case IX_T_INTERVAL: t.enclen = ixt_iv_qual(2 + len % 5, IXT_TU_DAY, IXT_TU_SECOND); break;
    case IX_T_SMALLINT: t.enclen = 2; break;
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE:
    case IX_T_SMALLFLOAT: t.enclen = 4; break;
    case IX_T_FLOAT:
    case IX_T_BIGINT: t.enclen = 8; break;
    case IX_T_INT8:
    case IX_T_SERIAL8: t.enclen = 10; break;
    case IX_T_BOOLEAN: t.enclen = 1; break;
    default: t.enclen = len; break;
    }
    return t;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    int ncols = 1 + (data[0] & 0x0f), f70 = (data[0] >> 4) & 1;
    if (size < 1 + (size_t)ncols) return 0;
    ixt_vtype vt[16];
    for (int i = 0; i < ncols; i++)
        vt[i] = pick(data[1 + i]);
    size_t n = size - 1 - (size_t)ncols;
    uint8_t *t = malloc(n ? n : 1); /* exact: a read past the tuple is caught */
    if (!t) return 0;
    memcpy(t, data + 1 + ncols, n);
    ixc_rowplan p;
    if (ixc_rowplan_build(&p, vt, ncols, f70) != IX_OK) {
        free(t);
        return 0;
    }
    size_t need = ixc_rowplan_rec_size(&p, n);
    uint8_t *rec = malloc(need);
    if (!rec) abort();
    int col = -1, col2 = -1;
    int rc = ixc_rowplan_take(&p, t, n, rec, &col);
    if (rc != IX_OK) {
        if (ixc_rowplan_locate(&p, t, n, &col2) != rc || col2 != col) abort();
    } else {
        if (ixc_rowplan_rec_len(&p, rec) != need) abort();
        const uint8_t *row = rec + ixc_rowplan_head(&p), *end = rec + need;
        size_t at = 0; /* where the next value starts in the tuple */
        for (int i = 0; i < ncols; i++) {
            size_t vn;
            const uint8_t *v = ixc_rowplan_value(&p, rec, i, &vn);
            if (v < row || v + vn > end || at + vn > n || (vn && memcmp(v, t + at, vn) != 0))
                abort();
            if (p.at[i].pad && (v + vn >= end || v[vn] != 0)) abort();
            (void)ixc_rowplan_is_null(&p.col[i], v, vn);
            at += vn;
        }
        if (at != n) abort();
    }
    free(rec);
    ixc_rowplan_free(&p);
    free(t);
    return 0;
}
