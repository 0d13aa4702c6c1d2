/*
 * ixo_routine.c: what SQLProcedureColumns reads of an SPL routine's CREATE
 * text (sysprocbody): its parameter list and RETURNING / RETURNS clause, and
 * the Informix type of a type name as Informix writes it ("decimal(10,2)",
 * "datetime year to second", "interval day(3) to fraction(5)").
 */
#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "ixo_routine.h"

/* ---- type names ("decimal(10,2)", "datetime year to second") ---- */

static const struct {
    const char *name;
    int ixtype, enclen; /* enclen: the length without "(n)" */
} TYPE_NAMES[] = {
    {"char", IX_T_CHAR, 1},
    {"character", IX_T_CHAR, 1},
    {"varchar", IX_T_VARCHAR, 1},
    {"nchar", IX_T_NCHAR, 1},
    {"nvarchar", IX_T_NVARCHAR, 1},
    {"lvarchar", IX_T_LVARCHAR, 2048},
    {"smallint", IX_T_SMALLINT, 2},
    {"integer", IX_T_INTEGER, 4},
    {"int", IX_T_INTEGER, 4},
    {"serial", IX_T_SERIAL, 4},
    {"int8", IX_T_INT8, 10},
    {"serial8", IX_T_SERIAL8, 10},
    {"bigint", IX_T_BIGINT, 8},
    {"bigserial", IX_T_BIGSERIAL, 8},
    {"float", IX_T_FLOAT, 8},
    {"double precision", IX_T_FLOAT, 8},
    {"smallfloat", IX_T_SMALLFLOAT, 4},
    {"real", IX_T_SMALLFLOAT, 4},
    {"decimal", IX_T_DECIMAL, 16 << 8 | 0xff},
    {"dec", IX_T_DECIMAL, 16 << 8 | 0xff},
    {"numeric", IX_T_DECIMAL, 16 << 8 | 0xff},
    {"money", IX_T_MONEY, 16 << 8 | 2},
    {"date", IX_T_DATE, 4},
    {"boolean", IX_T_BOOLEAN, 1},
    {"text", IX_T_TEXT, 56},
    {"byte", IX_T_BYTE, 56},
    {"datetime", IX_T_DATETIME, 0},
    {"interval", IX_T_INTERVAL, 0},
    {"blob", IX_T_BLOB, 72},
    {"clob", IX_T_CLOB, 72},
};

/* the largest number a type name's "(n)" gives (an LVARCHAR's length is
 * below it): a bigger one, server text, is cut to it */
#define TYPE_NUMBER_MAX 65535

/* the decimal number at p (server text), 0..TYPE_NUMBER_MAX */
static int type_number(const char *p) {
    long v = 0;
    while (*p == ' ')
        p++;
    for (; isdigit((unsigned char)*p) && v <= TYPE_NUMBER_MAX; p++)
        v = v * 10 + (*p - '0');
    return v > TYPE_NUMBER_MAX ? TYPE_NUMBER_MAX : (int)v;
}

static const char *const UNITS[] = {"year", "", "month",  "", "day",   "",
                                    "hour", "", "minute", "", "second"};

/* a DATETIME / INTERVAL unit at *p ("fraction(3)", "day(4)"): IX_UNIT_*,
 * -1 when none; *prec gets a "(n)" that follows, else 0 */
static int unit(const char **p, int *prec) {
    while (**p == ' ')
        (*p)++;
    int u = -1;
    size_t n = 0;
    for (int k = 0; k < (int)(sizeof UNITS / sizeof UNITS[0]) && u < 0; k++)
        if (UNITS[k][0] && strncmp(*p, UNITS[k], n = strlen(UNITS[k])) == 0) u = k;
    if (u < 0 && strncmp(*p, "fraction", n = strlen("fraction")) == 0) u = IX_UNIT_FRACTION;
    if (u < 0) return -1;
    *p += n;
    *prec = 0;
    if (**p == '(') *prec = type_number(*p + 1);
    while (**p && **p != ' ')
        (*p)++;
    return u;
}

#define IV_YEAR_PREC  4
#define IV_FIELD_PREC 2

/* the encoded length of a DATETIME / INTERVAL qualifier ("year to second") */
static int qualifier(const char *p, int interval) {
    int prec = 0, eprec = 0;
    int start = unit(&p, &prec);
    while (*p == ' ')
        p++;
    int end = strncmp(p, "to ", 3) == 0 ? (p += 3, unit(&p, &eprec)) : start;
    if (start < 0 || end < 0) return 0; /* YEAR TO FRACTION(5) */
    if (start == IX_UNIT_FRACTION) start = IX_UNIT_FRAC(prec ? prec : 3);
    if (end == IX_UNIT_FRACTION) end = IX_UNIT_FRAC(eprec ? eprec : 3);
    /* Informix's default leading precision: 4 digits of YEAR, 2 of the others */
    int lead = prec ? prec : start == IX_UNIT_YEAR ? IV_YEAR_PREC : IV_FIELD_PREC;
    return interval ? (int)ix_qualifier_iv(lead, start, end) : (int)ix_qualifier_dt(start, end);
}

/* the Informix type of a lower-case type name; 0 when unknown */
int ixo_type_of(const char *name, int *ixtype, int *enclen) {
    for (size_t k = 0; k < sizeof TYPE_NAMES / sizeof TYPE_NAMES[0]; k++) {
        size_t n = strlen(TYPE_NAMES[k].name);
        const char *rest = name + n;
        if (strncmp(name, TYPE_NAMES[k].name, n) != 0 || (*rest && *rest != '(' && *rest != ' '))
            continue;
        *ixtype = TYPE_NAMES[k].ixtype;
        *enclen = TYPE_NAMES[k].enclen;
        if (*ixtype == IX_T_DATETIME || *ixtype == IX_T_INTERVAL) {
            *enclen = qualifier(rest, *ixtype == IX_T_INTERVAL);
        } else if (*rest == '(') {
            int a = type_number(rest + 1), b = 0;
            const char *comma = strchr(rest, ',');
            if (comma) b = type_number(comma + 1);
            if (*ixtype == IX_T_DECIMAL || *ixtype == IX_T_MONEY)
                *enclen = a << 8 | (comma ? b : *ixtype == IX_T_MONEY ? 2 : 0xff);
            else
                *enclen = a;
        }
        return 1;
    }
    return 0;
}

/* ---- the CREATE statement's text ---- */

/* the items of a list at depth 0 from p (after its opening '(' when paren),
 * each copied lower-case into items[k] (at most max); ends at the closing
 * ')' or, without paren, at ';' or a keyword SPECIFIC / WITH / END. The
 * number of items; *end gets where it stopped. */
int ixo_split_list(const char *p, int paren, char (*items)[IXO_NAME_MAX], int max,
                   const char **end) {
    int depth = 0, n = 0;
    size_t len = 0;
    while (*p) {
        char c = *p;
        int word_start = p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\t' || p[-1] == ',';
        if (depth == 0 && ((paren && c == ')') || (!paren && c == ';'))) break;
        if (depth == 0 && !paren && word_start &&
            (strncasecmp(p, "specific ", 9) == 0 || strncasecmp(p, "with ", 5) == 0 ||
             strncasecmp(p, "with(", 5) == 0 || strncasecmp(p, "end ", 4) == 0))
            break;
        if (c == '(') depth++;
        if (c == ')') depth--;
        if (depth == 0 && c == ',') {
            if (n < max) n++;
            len = 0;
        } else if (n < max && len + 1 < IXO_NAME_MAX) {
            if (c == '\n' || c == '\t' || c == '\r') c = ' ';
            if (!(c == ' ' && (len == 0 || items[n][len - 1] == ' '))) {
                items[n][len++] = (char)tolower((unsigned char)c);
                items[n][len] = 0;
            }
        }
        p++;
    }
    *end = p;
    for (int k = 0; k <= n && k < max; k++) {
        size_t m = strlen(items[k]);
        while (m && items[k][m - 1] == ' ')
            items[k][--m] = 0;
    }
    return n < max && items[n][0] ? n + 1 : n;
}

/* the parameter list and RETURNING clause of the CREATE text */
void ixo_routine_parse(const char *text, ixo_routine *rt) {
    memset(rt, 0, sizeof *rt);
    const char *p = strchr(text, '(');
    if (!p) return;
    rt->nparams = ixo_split_list(p + 1, 1, rt->params, IXO_ROUTINE_MAX, &p);
    if (*p != ')') return;
    p++;
    while (isspace((unsigned char)*p))
        p++;
    size_t kw = strncasecmp(p, "returning", 9) == 0 ? 9 : strncasecmp(p, "returns", 7) == 0 ? 7 : 0;
    if (kw && isspace((unsigned char)p[kw]))
        rt->nrets = ixo_split_list(p + kw, 0, rt->rets, IXO_ROUTINE_MAX, &p);
}
