/* ix_types.c: type names and codes. */
#include "types/ix_types.h"

#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "types/ix_datetime.h"
#include "types/ix_decimal.h"

static const struct {
    int code;
    const char *name;
} type_names[] = {
    {IX_T_CHAR, "CHAR"},
    {IX_T_SMALLINT, "SMALLINT"},
    {IX_T_INTEGER, "INTEGER"},
    {IX_T_FLOAT, "FLOAT"},
    {IX_T_SMALLFLOAT, "SMALLFLOAT"},
    {IX_T_DECIMAL, "DECIMAL"},
    {IX_T_SERIAL, "SERIAL"},
    {IX_T_DATE, "DATE"},
    {IX_T_MONEY, "MONEY"},
    {IX_T_NULL, "NULL"},
    {IX_T_DATETIME, "DATETIME"},
    {IX_T_BYTE, "BYTE"},
    {IX_T_TEXT, "TEXT"},
    {IX_T_VARCHAR, "VARCHAR"},
    {IX_T_INTERVAL, "INTERVAL"},
    {IX_T_NCHAR, "NCHAR"},
    {IX_T_NVARCHAR, "NVARCHAR"},
    {IX_T_INT8, "INT8"},
    {IX_T_SERIAL8, "SERIAL8"},
    {IX_T_SET, "SET"},
    {IX_T_MULTISET, "MULTISET"},
    {IX_T_LIST, "LIST"},
    {IX_T_ROW, "ROW"},
    {IX_T_UDTVAR, "UDTVAR"},
    {IX_T_UDTFIXED, "UDTFIXED"},
    {IX_T_LVARCHAR, "LVARCHAR"},
    {IX_T_BOOLEAN, "BOOLEAN"},
    {IX_T_CLOB, "CLOB"},
    {IX_T_BLOB, "BLOB"},
    {IX_T_BIGINT, "BIGINT"},
    {IX_T_BIGSERIAL, "BIGSERIAL"},
};

/* Extra SQL spellings accepted by ixt_type_from_name. */
static const struct {
    const char *name;
    int code;
} type_aliases[] = {
    {"INT", IX_T_INTEGER},     {"NUMERIC", IX_T_DECIMAL},           {"DEC", IX_T_DECIMAL},
    {"REAL", IX_T_SMALLFLOAT}, {"DOUBLE PRECISION", IX_T_FLOAT},    {"DOUBLE", IX_T_FLOAT},
    {"CHARACTER", IX_T_CHAR},  {"CHARACTER VARYING", IX_T_VARCHAR},
};

const char *ixt_type_name(int code) {
    int base = IXT_T_BASE(code);
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (type_names[i].code == base) return type_names[i].name;
    return "UNKNOWN";
}

/* Compares a (blank-trimmed, internal blanks collapsed) name to an upper-case
 * key, ignoring case. */
static int name_eq(const char *s, size_t n, const char *key) {
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c == ' ' || c == '\t') {
            if (i > 0 && (s[i - 1] == ' ' || s[i - 1] == '\t')) continue;
            c = ' ';
        }
        if (key[k] == 0 || toupper(c) != (unsigned char)key[k]) return 0;
        k++;
    }
    return key[k] == 0;
}

int ixt_type_from_name(const char *name) {
    if (!name) return -1;
    while (*name == ' ' || *name == '\t')
        name++;
    size_t n = strlen(name);
    while (n > 0 && (name[n - 1] == ' ' || name[n - 1] == '\t'))
        n--;
    if (n == 0) return -1;
    for (size_t i = 0; i < sizeof type_names / sizeof type_names[0]; i++)
        if (name_eq(name, n, type_names[i].name)) return type_names[i].code;
    for (size_t i = 0; i < sizeof type_aliases / sizeof type_aliases[0]; i++)
        if (name_eq(name, n, type_aliases[i].name)) return type_aliases[i].code;
    return -1;
}

int ixt_vtype_resolve(int code, const char *ext_name) {
    int base = IXT_T_BASE(code);
    if (ext_name) {
        size_t n = strlen(ext_name);
        if (base == IX_T_UDTVAR && name_eq(ext_name, n, "LVARCHAR")) return IX_T_LVARCHAR;
        if (base == IX_T_UDTFIXED && name_eq(ext_name, n, "BOOLEAN")) return IX_T_BOOLEAN;
    }
    return base;
}

/* The name of a qualifier unit (IXT_TU_*), "FRACTION" for the fraction
 * start, NULL for a code that is no unit. */
const char *ixt_tu_name(int u) {
    switch (u) {
    case IXT_TU_YEAR: return "YEAR";
    case IXT_TU_MONTH: return "MONTH";
    case IXT_TU_DAY: return "DAY";
    case IXT_TU_HOUR: return "HOUR";
    case IXT_TU_MINUTE: return "MINUTE";
    case IXT_TU_SECOND: return "SECOND";
    case IXT_TU_FRACTION: return "FRACTION";
    default: return NULL;
    }
}

/* "DATETIME YEAR TO FRACTION(3)", "INTERVAL DAY(3) TO SECOND". */
static int temporal_decl(int code, uint32_t q, char *buf, size_t cap) {
    int iv = code == IX_T_INTERVAL;
    if (!(iv ? ixt_iv_qual_valid(q) : ixt_dt_qual_valid(q))) return -1;
    int start = IXT_QUAL_START(q), end = IXT_QUAL_END(q);
    char first[24], last[16];
    snprintf(first, sizeof first, "%s", ixt_tu_name(start));
    if (end > IXT_TU_SECOND)
        snprintf(last, sizeof last, "FRACTION(%d)", end - IXT_TU_SECOND);
    else
        snprintf(last, sizeof last, "%s", ixt_tu_name(end));
    if (iv && start <= IXT_TU_SECOND) {
        /* digits = leading precision + 2 per later field + the fraction's */
        int other = 0;
        for (int u = start + 2; u <= end && u <= IXT_TU_SECOND; u += 2)
            other += 2;
        if (end > IXT_TU_SECOND) other += end - IXT_TU_SECOND;
        int lead = IXT_QUAL_DIGITS(q) - other, deflead = start == IXT_TU_YEAR ? 4 : 2;
        if (lead != deflead) snprintf(first, sizeof first, "%s(%d)", ixt_tu_name(start), lead);
    }
    return snprintf(buf, cap, "%s %s TO %s", ixt_type_name(code), first, last);
}

int ixt_type_decl(int code, uint32_t enclen, char *buf, size_t cap) {
    int base = IXT_T_BASE(code);
    const char *name = ixt_type_name(base);
    switch (base) {
    case IX_T_CHAR:
    case IX_T_NCHAR: return snprintf(buf, cap, "%s(%u)", name, (unsigned)(enclen & 0xffff));
    case IX_T_LVARCHAR: return snprintf(buf, cap, "%s(%u)", name, (unsigned)enclen);
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR: {
        unsigned max = enclen & 0xff, min = (enclen >> 8) & 0xff;
        if (min) return snprintf(buf, cap, "%s(%u,%u)", name, max, min);
        return snprintf(buf, cap, "%s(%u)", name, max);
    }
    case IX_T_DECIMAL:
    case IX_T_MONEY: {
        unsigned p = (enclen >> 8) & 0xff, s = enclen & 0xff;
        if (s == IXT_DEC_FLOAT) return snprintf(buf, cap, "%s(%u)", name, p);
        return snprintf(buf, cap, "%s(%u,%u)", name, p, s);
    }
    case IX_T_DATETIME:
    case IX_T_INTERVAL: return temporal_decl(base, enclen, buf, cap);
    default: return snprintf(buf, cap, "%s", name);
    }
}
