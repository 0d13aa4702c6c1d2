/*
 * ix_coldetail.c: column details beyond the value accessors: declared
 * types (ix_column_decltype), exact DECIMAL values (ix_column_get_decimal,
 * ix_decimal_text), the statement's SQL text (ix_stmt_sql) and the
 * columns its parameters go into (ix_param_describe). The type
 * and DECIMAL code itself is src/types' (ixt_type_decl, ixt_dec_split), shared
 * with the Python module.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/ix_client_int.h"
#include "client/ix_stmt_int.h"
#include "types/ix_decimal.h"

const char *ix_column_decltype(ix_stmt *s, int i) {
    if (ix_column_count(s) <= i || i < 0) return NULL; /* also sends a deferred PREPARE */
    ixc_col *col = &s->cols[i];
    if (col->decl) return col->decl;
    char buf[64];
    int n = col->lob_type ? snprintf(buf, sizeof buf, col->lob_type == IX_T_BLOB ? "BLOB" : "CLOB")
                          : ixt_type_decl(col->vt.code, col->vt.enclen, buf, sizeof buf);
    if (n < 0) n = snprintf(buf, sizeof buf, "%s", ixt_type_name(col->vt.code));
    if ((size_t)n >= sizeof buf) n = (int)sizeof buf - 1;
    col->decl = ixc_malloc((size_t)n + 1);
    if (!col->decl) {
        ixc_fail(s->conn, IX_ENOMEM, "out of memory");
        return NULL;
    }
    memcpy(col->decl, buf, (size_t)n);
    col->decl[n] = 0;
    return col->decl;
}

int ix_column_get_decimal(ix_stmt *s, int i, ix_decimal_t *out) {
    if (out) memset(out, 0, sizeof *out);
    const uint8_t *p = ix_column_raw(s, i); /* records misuse */
    if (!p) return IX_EMISUSE;
    if (!out) return ixc_fail(s->conn, IX_EMISUSE, "NULL argument to ix_column_get_decimal");
    if (ix_column_is_null(s, i)) return IX_NULL_VALUE;
    const ixc_col *col = &s->cols[i];
    if (col->vt.code != IX_T_DECIMAL && col->vt.code != IX_T_MONEY) return IX_EINVAL;
    ixt_decimal d;
    int rc = ixt_dec_decode(&d, p, ix_column_bytes(s, i));
    if (rc != IX_OK) return rc == IX_NULL_VALUE ? rc : IX_EMALFORMED;
    int scale = (int)(col->vt.enclen & 0xff), sign, sc;
    int n = ixt_dec_split(&d, scale, &sign, out->digits, sizeof out->digits, &sc);
    if (n < 0) {
        memset(out, 0, sizeof *out);
        return IX_ERANGE;
    }
    out->sign = sign;
    out->ndigits = n;
    out->scale = sc;
    return IX_OK;
}

/* 1 if d holds ndigits ASCII digits without a leading zero (or the single
 * "0"), a sign of +1 / -1 and a scale a DECIMAL can have. */
static int decimal_ok(const ix_decimal_t *d) {
    if (!d || (d->sign != 1 && d->sign != -1)) return 0;
    if (d->ndigits < 1 || d->ndigits > IX_DECIMAL_DIGITS) return 0;
    if (d->digits[d->ndigits] != 0) return 0;
    for (int k = 0; k < d->ndigits; k++)
        if (d->digits[k] < '0' || d->digits[k] > '9') return 0;
    if (d->ndigits > 1 && d->digits[0] == '0') return 0;
    /* |value| below 1E+126 and down to 1E-130 with 32 significant digits */
    return d->scale >= -(126 - d->ndigits) && d->scale <= 130 + IX_DECIMAL_DIGITS - 1;
}

/* Appends c to buf[0..cap) at *at (counting what does not fit). */
static void put(char *buf, size_t cap, size_t *at, char c) {
    if (*at + 1 < cap) buf[*at] = c;
    (*at)++;
}

int ix_decimal_text(const ix_decimal_t *d, char *buf, size_t cap) {
    if (!decimal_ok(d)) return IX_EINVAL;
    size_t at = 0;
    int n = d->ndigits, sc = d->scale;
    int zero = n == 1 && d->digits[0] == '0';
    if (d->sign < 0 && !zero) put(buf, cap, &at, '-');
    int intdigits = n - sc; /* digits before the point (may be <= 0) */
    if (intdigits <= 0) {
        put(buf, cap, &at, '0');
    } else {
        for (int k = 0; k < intdigits; k++)
            put(buf, cap, &at, k < n ? d->digits[k] : '0');
    }
    if (sc > 0) {
        put(buf, cap, &at, '.');
        for (int k = intdigits; k < n; k++)
            put(buf, cap, &at, k < 0 ? '0' : d->digits[k]);
    }
    if (cap) buf[at < cap ? at : cap - 1] = 0;
    return (int)at;
}

int ix_param_describe(ix_stmt *s, int i, ix_param_desc *out) {
    if (out) memset(out, 0, sizeof *out);
    int rc = ixc_stmt_check(s);
    if (rc != IX_OK) return rc;
    if (!out) return ixc_fail(s->conn, IX_EMISUSE, "NULL argument to ix_param_describe");
    if (i < 1 || i > s->nparams)
        return ixc_fail(s->conn, IX_ERANGE, "parameter index %d out of range", i);
    if (!s->prepared && (rc = ixc_ensure_prepared(s)) != IX_OK) return rc;
    if (!s->pcols) return IX_UNDESCRIBED;
    const ixc_col *col = &s->pcols[i - 1];
    out->type = col->vt.code;
    out->enclen = (int)col->vt.enclen;
    out->notnull = (col->type & IXT_TF_NOTNULL) != 0;
    out->lob_type = col->lob_type;
    return IX_OK;
}

const char *ix_stmt_sql(const ix_stmt *s) {
    return s ? s->sql : NULL;
}
