/*
 * ixo_interval.c: INTERVAL columns as ODBC's interval types (docs/odbc.md
 * "INTERVAL"): the SQL_INTERVAL_* type of a qualifier and its sizes, the
 * Informix text of a value, and values to and from SQL_INTERVAL_STRUCT and
 * the exact numeric C types. No handle, no I/O.
 *
 * A value (IXO_V_IV) is an ix_interval_t with its qualifier. Conversions
 * work on its total in the unit of its class (months for year-month,
 * 10-microsecond units for day-time) split again at the target's fields.
 */
#include <stdio.h>
#include <string.h>

#include "ixo_conv.h"

/* SQL_INTERVAL_* by [first unit / 2][last unit / 2], units YEAR .. SECOND */
#define NUNITS 6
static const SQLSMALLINT IVTYPE[NUNITS][NUNITS] = {
    [0] = {[0] = SQL_INTERVAL_YEAR, [1] = SQL_INTERVAL_YEAR_TO_MONTH},
    [1] = {[1] = SQL_INTERVAL_MONTH},
    [2] = {[2] = SQL_INTERVAL_DAY,
           [3] = SQL_INTERVAL_DAY_TO_HOUR,
           [4] = SQL_INTERVAL_DAY_TO_MINUTE,
           [5] = SQL_INTERVAL_DAY_TO_SECOND},
    [3] = {[3] = SQL_INTERVAL_HOUR,
           [4] = SQL_INTERVAL_HOUR_TO_MINUTE,
           [5] = SQL_INTERVAL_HOUR_TO_SECOND},
    [4] = {[4] = SQL_INTERVAL_MINUTE, [5] = SQL_INTERVAL_MINUTE_TO_SECOND},
    [5] = {[5] = SQL_INTERVAL_SECOND},
};
/* SQL_INTERVAL_x is SQL_CODE_x plus this (sqlext.h) */
#define CODE_OFFSET (SQL_INTERVAL_YEAR - SQL_CODE_YEAR)

/* a unit's size in its class's unit: months, or 10-microsecond units */
#define UNITS_PER_SECOND 100000LL
static const int64_t UNIT_SIZE[NUNITS] = {12,
                                          1,
                                          86400 * UNITS_PER_SECOND,
                                          3600 * UNITS_PER_SECOND,
                                          60 * UNITS_PER_SECOND,
                                          UNITS_PER_SECOND};
/* microseconds (IXO_IV_C_FRAC_DIGITS) per 10-microsecond unit (IXO_IV_FRAC_DIGITS) */
#define C_UNITS_PER_UNIT 10
_Static_assert(C_UNITS_PER_UNIT *UNITS_PER_SECOND == 1000000 &&
                   IXO_IV_C_FRAC_DIGITS == IXO_IV_FRAC_DIGITS + 1,
               "microseconds");
/* the largest leading field: IXO_IV_MAX_PREC digits */
#define LEAD_MAX 999999999LL

/* the shape of an INTERVAL qualifier: first and last unit (YEAR..SECOND;
 * FRACTION TO FRACTION starts at SECOND), fraction digits, leading
 * precision. 0 for a qualifier that is not one. */
typedef struct shape {
    int start, last, frac, prec;
} shape;

static int qual_shape(unsigned q, shape *sh) {
    int start = IXO_QUAL_START(q), end = IXO_QUAL_END(q);
    if (!ix_qualifier_check(q, 1)) return 0;
    sh->frac = end > IX_UNIT_SECOND ? end - IX_UNIT_SECOND : 0;
    sh->last = end > IX_UNIT_SECOND ? IX_UNIT_SECOND : end;
    if (start > IX_UNIT_SECOND) {
        sh->start = IX_UNIT_SECOND;
        sh->prec = IXO_IV_FRAC_PREC;
    } else {
        sh->start = start;
        sh->prec = (int)IXO_QUAL_DIGITS(q) - (sh->last - start) - sh->frac;
    }
    return sh->prec >= 1 && sh->prec <= IXO_IV_MAX_PREC;
}

int ixo_iv_units(SQLSMALLINT type, int *start, int *end) {
    for (int a = 0; a < NUNITS; a++)
        for (int b = a; b < NUNITS; b++)
            if (IVTYPE[a][b] == type) {
                *start = a * 2;
                *end = b * 2;
                return 1;
            }
    return 0;
}

unsigned ixo_iv_param_qual(SQLSMALLINT sqltype, int frac) {
    int start, end;
    if (!ixo_iv_units(sqltype, &start, &end)) return 0;
    if (end == IX_UNIT_SECOND && frac > 0)
        end = IX_UNIT_FRAC(frac > IXO_IV_FRAC_DIGITS ? IXO_IV_FRAC_DIGITS : frac);
    return ix_qualifier_iv(IXO_IV_MAX_PREC, start, end);
}

int ixo_iv_describe(unsigned q, ixo_typeinfo *o) {
    shape sh;
    if (!qual_shape(q, &sh)) return 0;
    memset(o, 0, sizeof *o);
    o->type_name = "INTERVAL";
    o->sql_type = IVTYPE[sh.start / 2][sh.last / 2];
    /* ODBC's "Column Size": the leading precision, 3 for each further
     * field (a separator and 2 digits), 1 + the seconds precision */
    o->column_size =
        (SQLULEN)(sh.prec + 3 * ((sh.last - sh.start) / 2) + (sh.frac ? sh.frac + 1 : 0));
    o->digits = (SQLSMALLINT)sh.frac;
    o->octet_length = sizeof(SQL_INTERVAL_STRUCT);
    o->display_size = (SQLLEN)o->column_size + 1; /* and a sign */
    o->c_default = o->sql_type;                   /* SQL_C_INTERVAL_x == SQL_INTERVAL_x */
    o->desc_type = SQL_INTERVAL;
    o->dt_code = (SQLSMALLINT)(o->sql_type - CODE_OFFSET);
    o->iv_prec = sh.prec;
    return 1;
}

/* ---- values ------------------------------------------------------------------ */

/* the value's total in its class's unit (the fields as they are) */
static int64_t total_of(const ix_interval_t *iv, int ym) {
    if (ym) return iv->years * 12 + iv->months;
    return iv->days * UNIT_SIZE[2] + iv->hours * UNIT_SIZE[3] + iv->minutes * UNIT_SIZE[4] +
           iv->seconds * UNIT_SIZE[5] + iv->fraction;
}

/* total split into the fields start..last (f[unit / 2]), the leading one
 * taking the rest; what is below last is returned */
static int64_t split(int64_t total, int start, int last, int64_t f[NUNITS]) {
    memset(f, 0, NUNITS * sizeof f[0]);
    for (int u = start; u <= last; u += 2) {
        f[u / 2] = total / UNIT_SIZE[u / 2];
        total %= UNIT_SIZE[u / 2];
    }
    return total;
}

size_t ixo_iv_text(const ixo_val *v, char *out, size_t cap) {
    static const char sep[NUNITS] = {0, '-', 0, ' ', ':', ':'};
    shape sh;
    int64_t f[NUNITS];
    size_t n = 0;
    if (cap < IXO_IV_TEXT_MAX || !qual_shape(v->qual, &sh)) return 0;
    int ym = sh.start <= IX_UNIT_MONTH;
    int64_t total = total_of(&v->iv, ym);
    int neg = v->iv.sign < 0 && total != 0;
    int64_t rest = split(total, sh.start, sh.last, f);
    if (IXO_QUAL_START(v->qual) > IX_UNIT_SECOND) { /* FRACTION TO FRACTION */
        rest += f[IX_UNIT_SECOND / 2] * UNITS_PER_SECOND;
        if (neg) out[n++] = '-';
    } else {
        char lead[24];
        int len = snprintf(lead, sizeof lead, "%s%lld", neg ? "-" : "", (long long)f[sh.start / 2]);
        for (int k = len; k < sh.prec; k++)
            out[n++] = ' ';
        memcpy(out + n, lead, (size_t)len);
        n += (size_t)len;
        for (int u = sh.start + 2; u <= sh.last; u += 2)
            n += (size_t)snprintf(out + n, cap - n, "%c%02lld", sep[u / 2], (long long)f[u / 2]);
    }
    if (sh.frac) {
        char fr[16];
        snprintf(fr, sizeof fr, "%05lld", (long long)(rest % UNITS_PER_SECOND));
        n += (size_t)snprintf(out + n, cap - n, ".%.*s", sh.frac, fr);
    }
    out[n] = 0;
    return n;
}

/* into an SQL_INTERVAL_STRUCT of C type ctype (fields cs..ce) */
static ixo_cv get_struct(const ixo_val *v, const shape *sh, SQLSMALLINT ctype, void *buf,
                         SQLLEN *ind) {
    int cs = 0, ce = 0;
    int64_t f[NUNITS];
    ixo_iv_units(ctype, &cs, &ce);
    int ym = sh->start <= IX_UNIT_MONTH;
    if (ym != (cs <= IX_UNIT_MONTH)) return IXO_CV_BADTYPE;
    int64_t total = total_of(&v->iv, ym);
    int64_t rest = split(total, cs, ce, f);
    if (f[cs / 2] > LEAD_MAX) return IXO_CV_IVFIELD;
    SQL_INTERVAL_STRUCT is;
    memset(&is, 0, sizeof is);
    is.interval_type = (SQLINTERVAL)(ctype - CODE_OFFSET);
    is.interval_sign = v->iv.sign < 0 && total != 0 ? SQL_TRUE : SQL_FALSE;
    ixo_cv cv = IXO_CV_OK;
    if (ym) {
        is.intval.year_month.year = (SQLUINTEGER)f[0];
        is.intval.year_month.month = (SQLUINTEGER)f[1];
        if (rest) cv = IXO_CV_FRACTION;
    } else {
        SQL_DAY_SECOND_STRUCT *d = &is.intval.day_second;
        d->day = (SQLUINTEGER)f[2], d->hour = (SQLUINTEGER)f[3];
        d->minute = (SQLUINTEGER)f[4], d->second = (SQLUINTEGER)f[5];
        if (ce == IX_UNIT_SECOND) /* microseconds from 10-microsecond units */
            d->fraction = (SQLUINTEGER)(rest * C_UNITS_PER_UNIT);
        else if (rest)
            cv = IXO_CV_FRACTION;
    }
    if (buf) memcpy(buf, &is, sizeof is);
    if (ind) *ind = sizeof is;
    return cv;
}

/* a single-field interval as a number ("-12", "3.25") into an exact
 * numeric C type */
static ixo_cv get_number(const ixo_val *v, const shape *sh, SQLSMALLINT ctype, void *buf,
                         SQLLEN buflen, SQLLEN *ind, ixo_scratch *s) {
    int64_t f[NUNITS];
    char text[IXO_IV_TEXT_MAX];
    if (sh->start != sh->last) return IXO_CV_BADTYPE;
    int ym = sh->start <= IX_UNIT_MONTH;
    int64_t total = total_of(&v->iv, ym);
    int64_t rest = split(total, sh->start, sh->last, f);
    const char *sign = v->iv.sign < 0 && total != 0 ? "-" : "";
    int n = sh->frac ? snprintf(text, sizeof text, "%s%lld.%05lld", sign,
                                (long long)f[sh->start / 2], (long long)rest)
                     : snprintf(text, sizeof text, "%s%lld", sign, (long long)f[sh->start / 2]);
    ixo_val t = {.kind = IXO_V_TEXT, .p = text, .n = (size_t)n};
    return ixo_get_general(&t, ctype, ctype, buf, buflen, ind, NULL, s);
}

ixo_cv ixo_iv_get(const ixo_val *v, SQLSMALLINT ctype, void *buf, SQLLEN buflen, SQLLEN *ind,
                  ixo_scratch *s) {
    shape sh;
    int cs = 0, ce = 0;
    if (!qual_shape(v->qual, &sh)) return IXO_CV_BADCHAR;
    if (ixo_iv_units(ctype, &cs, &ce)) return get_struct(v, &sh, ctype, buf, ind);
    if (ixo_ctype_is_integer(ctype) || ctype == SQL_C_NUMERIC)
        return get_number(v, &sh, ctype, buf, buflen, ind, s);
    return IXO_CV_BADTYPE;
}

ixo_cv ixo_iv_put(SQLSMALLINT ctype, const SQL_INTERVAL_STRUCT *in, ixo_val *out) {
    int cs = 0, ce = 0;
    if (!ixo_iv_units(ctype, &cs, &ce)) return IXO_CV_UNSUPPORTED;
    SQLUINTEGER fields[NUNITS] = {0};
    SQLUINTEGER fraction = 0;
    if (cs <= IX_UNIT_MONTH) {
        fields[0] = in->intval.year_month.year;
        fields[1] = in->intval.year_month.month;
    } else {
        const SQL_DAY_SECOND_STRUCT *d = &in->intval.day_second;
        fields[2] = d->day, fields[3] = d->hour, fields[4] = d->minute, fields[5] = d->second;
        fraction = ce == IX_UNIT_SECOND ? d->fraction : 0;
    }
    memset(out, 0, sizeof *out);
    out->kind = IXO_V_IV;
    out->iv.sign = in->interval_sign == SQL_TRUE ? -1 : 1;
    int64_t *dst[NUNITS] = {&out->iv.years, &out->iv.months,  &out->iv.days,
                            &out->iv.hours, &out->iv.minutes, &out->iv.seconds};
    for (int u = cs; u <= ce; u += 2) { /* the C type's fields only */
        if (fields[u / 2] > LEAD_MAX) return IXO_CV_IVFIELD;
        *dst[u / 2] = fields[u / 2];
    }
    if (fraction >= C_UNITS_PER_UNIT * UNITS_PER_SECOND) return IXO_CV_IVFIELD;
    out->iv.fraction = fraction / C_UNITS_PER_UNIT;
    out->qual = ix_qualifier_iv(IXO_IV_MAX_PREC, cs,
                                ce == IX_UNIT_SECOND ? IX_UNIT_FRAC(IXO_IV_FRAC_DIGITS) : ce);
    return fraction % C_UNITS_PER_UNIT ? IXO_CV_FRACTION : IXO_CV_OK;
}
