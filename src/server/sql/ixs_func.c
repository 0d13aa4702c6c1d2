/* ixs_func.c: the built-in functions of Informix SQL as one table.
 *
 * A call `name(args)` in an expression is looked up by name in `builtins`
 * (sorted, binary search). A row gives the arity, the rule for the result
 * type and the emitter that writes the SQLite SQL. Most rows take their
 * arguments as a list of expressions, parsed and emitted by the expression
 * stages (`emit`, ixs_func_emit); a few have their own syntax inside the
 * parentheses (aggregates, CAST, EXTEND, SUBSTRING, TRIM: `kind`), parsed
 * into their own nodes (ixs_ex_parse.c) and emitted by ixs_func_agg ...
 * ixs_func_trim. A name not in the table is a routine (ixs_func_emit, the
 * one place where routines that are not built-ins are resolved). The
 * values are computed by SQLite's own functions or by the ixd_* functions of
 * ixd_store_fn.c and ixs_func_impl.c. Result types: docs/server-sql.md. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/sql/ixs_func.h"
#include "server/sql/ixs_lob.h"
#include "server/sql/ixs_parse.h"
#include "server/sql/ixs_priv.h"
#include "server/sql/ixs_spl.h"

#define MAXARGS IXS_FN_MAXARGS

enum {
    IXS_E_ROUTINE = IXV_E_ROUTINE_UNRESOLVED, /* Routine (%s) can not be resolved. */
    IXS_E_DBINFO = IXV_E_DBINFO,              /* Unknown first argument of dbinfo(%s). */
    IXS_E_NOT_NUMERIC = IXV_E_CONVERT, /* A character to numeric conversion process failed. */
    IXS_E_NOT_DATE = IXV_E_NOT_DATE,   /* String to date conversion error. */
};

/* The rule for the type of a call's result, applied after the emitter. */
enum {
    RT_EMIT,   /* the emitter sets it */
    RT_INT,    /* INTEGER */
    RT_SMALL,  /* SMALLINT */
    RT_FLOAT,  /* FLOAT */
    RT_DATE,   /* DATE */
    RT_ARG0,   /* the first argument's type */
    RT_VCHAR0, /* VARCHAR of the first argument's length (<= 255) */
    RT_DEC0,   /* DECIMAL(32,0) */
    RT_DECF,   /* DECIMAL(32) floating */
    RT_DT5,    /* DATETIME YEAR TO FRACTION(5) */
    RT_VC128,  /* VARCHAR(128) */
    RT_CHAR1,  /* CHAR(1) */
    RT_NVC,    /* NVARCHAR(255) (TO_CHAR) */
    RT_HEX,    /* VARCHAR(18): "0x" and up to 16 digits */
};

typedef struct fdef fdef;
/* An emitter: the call of f with its na arguments a (read and settled) into
 * out->s; 0 or -1 with p failed. */
typedef int (*femit)(px *p, const fdef *f, xv *a, int na, xv *out);

struct fdef {
    const char *name;
    int min, max;    /* number of arguments (emit only) */
    int rt;          /* RT_* */
    femit emit;      /* or */
    int kind;        /* IXS_FN_*: a function with its own syntax */
    const char *sql; /* the SQLite function the emitter writes */
    int k;           /* a parameter of the emitter */
};

#define XS(v) ixs_xs(v)

/* ---- argument helpers ------------------------------------------------------------------------ */

static void to_int(px *p, xv *v) {
    ixs_to_type(p, v, ixv_t(IX_T_INTEGER, 4));
}

static void to_float(px *p, xv *v) {
    ixs_make_num(p, v);
    ixs_to_type(p, v, ixv_t(IX_T_FLOAT, 8));
}

/* A DATE or DATETIME argument (a string or parameter becomes a DATE);
 * -1218 for other types. */
static int date_arg(px *p, xv *v) {
    if (v->k == XK_PARAM || ixv_is_char(v->t.code)) ixs_to_type(p, v, ixv_t(IX_T_DATE, 4));
    if (p->failed) return -1;
    if (v->k == XK_NULL) {
        v->t = ixv_t(IX_T_DATE, 4);
        return 0;
    }
    if (v->t.code != IX_T_DATE && v->t.code != IX_T_DATETIME)
        return ixs_px_failc(p, IXS_E_NOT_DATE, NULL);
    return 0;
}

/* "sql,code,len" of a DATE/DATETIME argument for the ixd_* date functions */
static void date_sql(sb *s, const xv *v) {
    ixv_sb_printf(s, "%s,%d,%u", XS(v), v->t.code, v->t.len);
}

/* A string literal argument (formats, DBINFO keys): its text or NULL. */
static const char *lit_str(const xv *v) {
    return v->k == XK_STR ? v->lit : NULL;
}

/* ---- emitters: text ---------------------------------------------------------------------- */

/* sql(a0, a1, ...) with every argument as text */
static int e_text(px *p, const fdef *f, xv *a, int na, xv *out) {
    ixv_sb_printf(&out->s, "%s(", f->sql);
    for (int i = 0; i < na; i++) {
        ixs_as_text(p, &a[i]);
        ixv_sb_printf(&out->s, "%s%s", i ? "," : "", XS(&a[i]));
    }
    ixv_sb_addc(&out->s, ')');
    return 0;
}

/* LENGTH family: characters (k 0) or bytes (k 1), without trailing blanks */
static int e_length(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)na;
    if (ixv_lob_is(a[0].t.code)) { /* the size of a BLOB or CLOB, in bytes */
        ixs_lob_emit_length(p, &a[0], out);
        return 0;
    }
    ixs_as_text(p, &a[0]);
    if (f->k)
        ixv_sb_printf(&out->s, "length(CAST(rtrim(%s,' ') AS BLOB))", XS(&a[0]));
    else
        ixv_sb_printf(&out->s, "length(rtrim(%s,' '))", XS(&a[0]));
    return 0;
}

/* CARDINALITY(collection): its number of elements (NULL for NULL); an
 * argument that is not a collection leaves the routine unresolved (-674). */
static int e_cardinality(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)na;
    if (a[0].k != XK_NULL && !ixs_coll_is(a[0].t.code))
        return ixs_px_failc(p, IXV_E_ROUTINE_UNRESOLVED, "%s", f->name);
    ixv_sb_printf(&out->s, "%s(%s)", f->sql, XS(&a[0]));
    return 0;
}

/* UPPER, LOWER, INITCAP: the argument's type */
static int e_case(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)na;
    ixs_as_text(p, &a[0]);
    ixv_sb_printf(&out->s, "%s(%s)", f->sql, XS(&a[0]));
    out->t = a[0].t.code < 0 ? ixv_t(IX_T_VARCHAR, 255) : a[0].t;
    return 0;
}

static int e_substr(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)f;
    ixs_as_text(p, &a[0]);
    to_int(p, &a[1]);
    if (na == 3) to_int(p, &a[2]);
    if (na == 3)
        ixv_sb_printf(&out->s, "substr(%s,%s,%s)", XS(&a[0]), XS(&a[1]), XS(&a[2]));
    else
        ixv_sb_printf(&out->s, "substr(%s,%s)", XS(&a[0]), XS(&a[1]));
    return 0;
}

/* The type of a string result of up to n characters from source type t:
 * LVARCHAR when t is or n is beyond 255, else VARCHAR(n). */
static ityp str_result(ityp t, uint32_t n) {
    if (t.code == IX_T_LVARCHAR || t.code == IX_T_TEXT || n > 255)
        return ixv_t(IX_T_LVARCHAR, n > 32739 ? 32739 : n);
    return ixv_t(IX_T_VARCHAR, n ? n : 1);
}

/* REPLACE(s, old [, new]): without new, occurrences of old are removed */
static int e_replace(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)f;
    for (int i = 0; i < na; i++)
        ixs_as_text(p, &a[i]);
    ixv_sb_printf(&out->s, "replace(%s,%s,%s)", XS(&a[0]), XS(&a[1]), na == 3 ? XS(&a[2]) : "''");
    out->t = str_result(a[0].t, 255);
    return 0;
}

/* LTRIM/RTRIM(s [, set]): the characters of set removed at that end */
static int e_trimset(px *p, const fdef *f, xv *a, int na, xv *out) {
    for (int i = 0; i < na; i++)
        ixs_as_text(p, &a[i]);
    ixv_sb_printf(&out->s, "%s(%s,%s)", f->sql, XS(&a[0]), na == 2 ? XS(&a[1]) : "' '");
    out->t = str_result(a[0].t, ixs_char_len(a[0].t) > 255 ? 255 : ixs_char_len(a[0].t));
    return 0;
}

/* LPAD/RPAD(s, n [, pad]) as ixd_pad(s, n, pad, left, width): a CHAR(w)
 * source keeps its trailing blanks (width w) */
static int e_pad(px *p, const fdef *f, xv *a, int na, xv *out) {
    ityp t0 = a[0].t;
    ixs_as_text(p, &a[0]);
    to_int(p, &a[1]);
    if (na == 3) ixs_as_text(p, &a[2]);
    uint32_t w = t0.code == IX_T_CHAR || t0.code == IX_T_NCHAR ? t0.len : 0;
    ixv_sb_printf(&out->s, "ixd_pad(%s,%s,%s,%d,%u)", XS(&a[0]), XS(&a[1]),
                  na == 3 ? XS(&a[2]) : "' '", f->k, w);
    uint32_t n = 255;
    if (a[1].k == XK_EXPR && a[1].lit) n = (uint32_t)strtoul(a[1].lit, NULL, 10);
    if (a[1].lit && n == 0) n = 1;
    out->t = str_result(t0, n > 32739 ? 32739 : n);
    return 0;
}

/* CONCAT(a, b): as a || b */
static int e_concat(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)f;
    (void)na;
    ixs_as_text(p, &a[0]);
    ixs_as_text(p, &a[1]);
    ixv_sb_printf(&out->s, "(%s || %s)", XS(&a[0]), XS(&a[1]));
    uint32_t n = ixs_char_len(ixs_lit_type(&a[0])) + ixs_char_len(ixs_lit_type(&a[1]));
    if (a[0].t.code == IX_T_CHAR && a[1].t.code == IX_T_CHAR && n <= 32767)
        out->t = ixv_t(IX_T_CHAR, n);
    else
        out->t = str_result(ixv_t(IX_T_VARCHAR, 0), n);
    return 0;
}

/* sql(a0) with a0 as an integer (CHR, HEX) */
static int e_int1(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)na;
    ixs_make_num(p, &a[0]);
    if (!ixv_is_int(a[0].t.code)) ixs_to_type(p, &a[0], ixv_t(IX_T_BIGINT, 8));
    ixv_sb_printf(&out->s, "%s(%s)", f->sql, XS(&a[0]));
    return 0;
}

/* ---- emitters: choices ----------------------------------------------------------------------- */

static ityp known(const xv *v) {
    return v->k == XK_NULL || v->k == XK_PARAM ? ixv_t(-1, 0) : v->t;
}

/* NVL(a, b), COALESCE(a, b, ...), GREATEST/LEAST(a, b, ...): every argument
 * in the type holding them all */
static int e_merge(px *p, const fdef *f, xv *a, int na, xv *out) {
    ityp rt = ixv_t(-1, 0);
    for (int i = 0; i < na; i++)
        rt = ixs_merge_type(rt, known(&a[i]));
    if (rt.code < 0) rt = ixv_t(IX_T_CHAR, 1);
    ixv_sb_printf(&out->s, "%s(", f->sql);
    for (int i = 0; i < na; i++) {
        ixs_to_type(p, &a[i], rt);
        ixv_sb_printf(&out->s, "%s%s", i ? "," : "", XS(&a[i]));
    }
    ixv_sb_addc(&out->s, ')');
    out->t = rt;
    return 0;
}

/* NULLIF(a, b): NULL when a = b, else a */
static int e_nullif(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)f;
    (void)na;
    ixs_cmp_coerce(p, &a[0], &a[1]);
    if (a[1].k != XK_COL) ixs_blanks_collate(&a[0]);
    ixv_sb_printf(&out->s, "nullif(%s,%s)", XS(&a[0]), XS(&a[1]));
    out->t = a[0].t.code < 0 ? (a[1].t.code < 0 ? ixv_t(IX_T_CHAR, 1) : a[1].t) : a[0].t;
    return 0;
}

static int e_decode(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)f;
    ityp rt = ixv_t(-1, 0);
    int i;
    for (i = 2; i < na; i += 2)
        rt = ixs_merge_type(rt, known(&a[i]));
    if (na % 2 == 0) rt = ixs_merge_type(rt, known(&a[na - 1]));
    if (rt.code < 0) rt = ixv_t(IX_T_CHAR, 1);
    for (i = 1; i + 1 < na; i += 2) /* x and the search values, then x's SQL */
        ixs_cmp_coerce(p, &a[0], &a[i]);
    ixs_blanks_collate(&a[0]); /* the search values compare ignoring trailing blanks */
    ixv_sb_printf(&out->s, "CASE %s", XS(&a[0]));
    for (i = 1; i + 1 < na; i += 2) {
        ixs_to_type(p, &a[i + 1], rt);
        ixv_sb_printf(&out->s, " WHEN %s THEN %s", XS(&a[i]), XS(&a[i + 1]));
    }
    if (i < na) {
        ixs_to_type(p, &a[i], rt);
        ixv_sb_printf(&out->s, " ELSE %s", XS(&a[i]));
    }
    ixv_sb_add(&out->s, " END");
    out->t = rt;
    return 0;
}

/* ---- emitters: numbers ----------------------------------------------------------------------- */

static int e_abs(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)f;
    (void)na;
    ixs_make_num(p, &a[0]);
    if (ixv_is_dec(a[0].t.code))
        ixv_sb_printf(&out->s, "(CASE WHEN %s < X'80' THEN ixd_dsub(X'80',%s) ELSE %s END)",
                      XS(&a[0]), XS(&a[0]), XS(&a[0]));
    else
        ixv_sb_printf(&out->s, "abs(%s)", XS(&a[0]));
    out->t = a[0].t;
    return 0;
}

static int e_mod(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)f;
    (void)na;
    ixs_to_type(p, &a[0], ixv_t(IX_T_BIGINT, 8));
    ixs_to_type(p, &a[1], ixv_t(IX_T_BIGINT, 8));
    ixv_sb_printf(&out->s, "(%s - ixd_idiv(%s,%s) * %s)", XS(&a[0]), XS(&a[0]), XS(&a[1]),
                  XS(&a[1]));
    out->t = ixv_t(IX_T_INTEGER, 4);
    return 0;
}

/* ROUND/TRUNC(date [, 'unit']) (k 0 round, 1 trunc) as ixd_dround */
static int date_round(px *p, const fdef *f, xv *a, int na, xv *out) {
    const char *u = na == 2 ? lit_str(&a[1]) : "dd";
    if (!u) return ixs_px_fail(p);
    ixv_sb_add(&out->s, "ixd_dround(");
    date_sql(&out->s, &a[0]);
    ixv_sb_addc(&out->s, ',');
    ixv_sb_strlit(&out->s, u, strlen(u));
    ixv_sb_printf(&out->s, ",%d)", f->k);
    out->t = a[0].t;
    return 0;
}

/* ROUND/TRUNC(x [, n]) (k 0 round, 1 trunc); of DATE/DATETIME: date_round */
static int e_round(px *p, const fdef *f, xv *a, int na, xv *out) {
    if (a[0].t.code == IX_T_DATE || a[0].t.code == IX_T_DATETIME)
        return date_round(p, f, a, na, out);
    int64_t nd = 0;
    if (na == 2) {
        if (a[1].k != XK_INT) return ixs_px_fail(p);
        nd = strtoll(a[1].lit, NULL, 10);
    }
    if (nd < 0 || nd > 32) nd = 0;
    ixs_make_num(p, &a[0]);
    if (ixv_is_float(a[0].t.code)) {
        if (!f->k)
            ixv_sb_printf(&out->s, "round(%s,%d)", XS(&a[0]), (int)nd);
        else
            ixv_sb_printf(&out->s, "(CAST(%s * 1e%d AS INTEGER) / 1e%d)", XS(&a[0]), (int)nd,
                          (int)nd);
        out->t = a[0].t;
    } else if (ixv_is_int(a[0].t.code)) {
        ixv_sb_printf(&out->s, "(%s)", XS(&a[0]));
        out->t = a[0].t;
    } else {
        ityp dt = ixs_dec_of(a[0].t);
        ityp r = ixv_t(IX_T_DECIMAL, 32u << 8 | (uint32_t)nd);
        if (!f->k)
            ixv_sb_printf(&out->s, "ixd_cvt(%s,%d,%u,%d,%u)", XS(&a[0]), dt.code, dt.len, r.code,
                          r.len);
        else
            ixv_sb_printf(&out->s, "ixd_cvt(ixd_dtrunc(%s,%d),5,%u,5,%u)", XS(&a[0]), (int)nd,
                          32u << 8 | 0xff, r.len);
        out->t = r;
    }
    return 0;
}

/* CEIL/FLOOR(x) (k +1 / -1): DECIMAL(32,0) */
static int e_ceil(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)na;
    ixs_make_num(p, &a[0]);
    if (!ixv_is_numeric(a[0].t.code)) return ixs_px_failc(p, IXS_E_NOT_NUMERIC, NULL);
    ixv_sb_printf(&out->s, "ixd_ceil(%s,%d)", XS(&a[0]), f->k);
    return 0;
}

/* SQRT, EXP, LOG10, LOGN, POW: FLOAT arguments, sql(a0 [, a1]) */
static int e_math(px *p, const fdef *f, xv *a, int na, xv *out) {
    ixv_sb_printf(&out->s, "%s(", f->sql);
    for (int i = 0; i < na; i++) {
        to_float(p, &a[i]);
        ixv_sb_printf(&out->s, "%s%s", i ? "," : "", XS(&a[i]));
    }
    ixv_sb_addc(&out->s, ')');
    return 0;
}

/* ---- emitters: dates ------------------------------------------------------------------------- */

static int e_mdy(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)f;
    (void)na;
    for (int i = 0; i < 3; i++)
        to_int(p, &a[i]);
    ixv_sb_printf(&out->s, "ixd_mdy(%s,%s,%s)", XS(&a[0]), XS(&a[1]), XS(&a[2]));
    return 0;
}

/* YEAR, MONTH, DAY, WEEKDAY (k 0..3): SMALLINT; DATE (k 4): DATE */
static int e_datepart(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)na;
    xv *v = &a[0];
    if (v->k == XK_PARAM || ixv_is_char(v->t.code)) ixs_to_type(p, v, ixv_t(IX_T_DATE, 4));
    if (f->k == 4 && ixv_is_int(v->t.code))
        ixv_sb_printf(&out->s, "(%s)", XS(v));
    else if (v->t.code != IX_T_DATE && v->t.code != IX_T_DATETIME && !ixv_is_int(v->t.code))
        return ixs_px_failc(p, IXS_E_NOT_DATE, NULL);
    else
        ixv_sb_printf(&out->s, "ixd_part(%s,%d,%u,%d)", XS(v),
                      ixv_is_int(v->t.code) ? IX_T_DATE : v->t.code, v->t.len, f->k);
    out->t = f->k == 4 ? ixv_t(IX_T_DATE, 4) : ixv_t(IX_T_SMALLINT, 2);
    return 0;
}

/* ADD_MONTHS(d, n): the type of d */
static int e_add_months(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)f;
    (void)na;
    if (date_arg(p, &a[0])) return -1;
    to_int(p, &a[1]);
    ixv_sb_add(&out->s, "ixd_add_months(");
    date_sql(&out->s, &a[0]);
    ixv_sb_printf(&out->s, ",%s)", XS(&a[1]));
    out->t = a[0].t;
    return 0;
}

/* sql(date args...): LAST_DAY (DATE), MONTHS_BETWEEN (DECIMAL) */
static int e_dates(px *p, const fdef *f, xv *a, int na, xv *out) {
    ixv_sb_printf(&out->s, "%s(", f->sql);
    for (int i = 0; i < na; i++) {
        if (date_arg(p, &a[i])) return -1;
        if (i) ixv_sb_addc(&out->s, ',');
        date_sql(&out->s, &a[i]);
    }
    ixv_sb_addc(&out->s, ')');
    return 0;
}

/* TO_CHAR(x [, format]): DATE/DATETIME with GL_DATETIME directives, or a
 * number with a numeric format (ixs_func_impl.c) */
static int e_to_char(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)f;
    xv *v = &a[0];
    if (na == 2) ixs_as_text(p, &a[1]);
    const char *fmt = na == 2 ? XS(&a[1]) : "NULL";
    if (v->t.code == IX_T_DATE || v->t.code == IX_T_DATETIME) {
        ixv_sb_add(&out->s, "ixd_to_char_dt(");
        date_sql(&out->s, v);
        ixv_sb_printf(&out->s, ",%s)", fmt);
    } else if (ixv_is_numeric(v->t.code) || v->k == XK_PARAM) {
        ixs_make_num(p, v);
        ixv_sb_printf(&out->s, "ixd_to_char_num(%s,%s)", XS(v), fmt);
    } else if (v->k == XK_NULL) {
        ixv_sb_add(&out->s, "NULL");
    } else {
        ixs_as_text(p, v);
        ixv_sb_printf(&out->s, "(%s)", XS(v));
    }
    return 0;
}

/* TO_DATE(s [, format]): DATETIME YEAR TO FRACTION(5) */
static int e_to_date(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)f;
    ixs_as_text(p, &a[0]);
    if (na == 2) ixs_as_text(p, &a[1]);
    ixv_sb_printf(&out->s, "ixd_to_date(%s,%s)", XS(&a[0]), na == 2 ? XS(&a[1]) : "NULL");
    return 0;
}

/* ---- DBINFO ---------------------------------------------------------------------------------- */

/*
 * DBINFO(key [, parameter]) as ixd_dbinfo(key [, parameter]). Keys and
 * their types: 'sqlca.sqlerrd1' and 'sqlca.sqlerrd2' INTEGER, 'serial8'
 * INT8, 'bigserial' BIGINT, 'sessionid' INTEGER, 'dbname' and 'dbhostname'
 * VARCHAR(128), 'get_tz' VARCHAR(128), 'utc_current' INTEGER,
 * 'utc_to_datetime' with a number DATETIME YEAR TO SECOND, and 'version'
 * with one of the parameters IBM documents ('server-type', 'major', 'minor',
 * 'os', 'level', 'full'), VARCHAR(128): the parts of the server's banner
 * (f_dbinfo). Any other key, a 'version' without a known parameter, or a
 * parameter after another key is -728.
 */
static const struct dbinfo_key {
    const char *key;
    int code;
    uint32_t len;
    int nargs; /* 1 or 2 (the second a value, for 'version' a part name) */
} dbinfo_keys[] = {
    {"bigserial", IX_T_BIGINT, 8, 1},       {"dbhostname", IX_T_VARCHAR, 128, 1},
    {"dbname", IX_T_VARCHAR, 128, 1},       {"get_tz", IX_T_VARCHAR, 128, 1},
    {"serial8", IX_T_INT8, 10, 1},          {"sessionid", IX_T_INTEGER, 4, 1},
    {"sqlca.sqlerrd1", IX_T_INTEGER, 4, 1}, {"sqlca.sqlerrd2", IX_T_INTEGER, 4, 1},
    {"utc_current", IX_T_INTEGER, 4, 1},    {"utc_to_datetime", IX_T_DATETIME, 0, 2},
    {"version", IX_T_VARCHAR, 128, 2},
};

static int e_dbinfo(px *p, const fdef *f, xv *a, int na, xv *out) {
    (void)f;
    static const char *const parts[] = {"server-type", "major", "minor", "os", "level", "full"};
    const char *k = lit_str(&a[0]);
    if (!k) return ixs_px_failc(p, IXS_E_DBINFO, "%s", "");
    const struct dbinfo_key *d = NULL;
    for (size_t i = 0; i < sizeof dbinfo_keys / sizeof dbinfo_keys[0]; i++)
        if (!strcasecmp(k, dbinfo_keys[i].key)) d = &dbinfo_keys[i];
    if (!d || na != d->nargs) return ixs_px_failc(p, IXS_E_DBINFO, "%s", k);
    out->t = ixv_t(d->code, d->len);
    ixv_sb_add(&out->s, "ixd_dbinfo(");
    ixv_sb_strlit(&out->s, d->key, strlen(d->key));
    if (d->code == IX_T_DATETIME) { /* 'utc_to_datetime', seconds */
        ixs_make_num(p, &a[1]);
        ixs_to_type(p, &a[1], ixv_t(IX_T_FLOAT, 8));
        ixv_sb_printf(&out->s, ",%s", XS(&a[1]));
        out->t = ixv_t(IX_T_DATETIME, ixt_dt_qual(IXT_TU_YEAR, IXT_TU_SECOND));
    } else if (na == 2) { /* 'version', part */
        const char *part = lit_str(&a[1]);
        int ok = 0;
        for (size_t i = 0; part && i < sizeof parts / sizeof parts[0]; i++)
            if (!strcasecmp(part, parts[i])) ok = 1;
        if (!ok) return ixs_px_failc(p, IXS_E_DBINFO, "%s", k);
        ixv_sb_addc(&out->s, ',');
        ixv_sb_strlit(&out->s, part, strlen(part));
    }
    ixv_sb_addc(&out->s, ')');
    return 0;
}

/* ---- aggregates ------------------------------------------------------------------------------ */

/* SUM/AVG of an exact number: DECIMAL sums (ixd_dsum, ixd_davg). SUM of
 * DECIMAL(p,s)/MONEY(p,s) is DECIMAL(32,s)/MONEY(32,s), of integers
 * DECIMAL(32,0); AVG is DECIMAL(32) floating, but of MONEY(p,s) MONEY(32,s)
 * (rounded: MONEY has no floating form). */
static void agg_exact(const char *fn, const char *d, const xv *a, xv *out) {
    int avg = !strcmp(fn, "avg");
    int sc = (int)(a->t.len & 0xff);
    if (avg && a->t.code == IX_T_MONEY && sc != 0xff) {
        ityp r = ixv_t(IX_T_MONEY, 32u << 8 | (uint32_t)sc);
        ixv_sb_printf(&out->s, "ixd_cvt(ixd_davg(%s%s),%d,%u,%d,%u)", d, XS(a), IX_T_DECIMAL,
                      32u << 8 | 0xff, r.code, r.len);
        out->t = r;
        return;
    }
    ixv_sb_printf(&out->s, "ixd_d%s(%s%s)", avg ? "avg" : "sum", d, XS(a));
    if (avg)
        out->t = ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff);
    else if (ixv_is_dec(a->t.code))
        out->t = ixv_t(a->t.code, 32u << 8 | (uint32_t)sc);
    else
        out->t = ixv_t(IX_T_DECIMAL, 32u << 8);
}

/* RANGE(x): MAX(x) - MIN(x), of numbers only; the type of x (integers
 * widened to INTEGER, DECIMAL/MONEY(p,s) to (32,s)) */
static int agg_range(px *p, const char *d, xv *a, xv *out) {
    ixs_make_num(p, a);
    int c = a->t.code;
    if (!ixv_is_numeric(c)) return ixs_px_failc(p, IXS_E_NOT_NUMERIC, NULL);
    if (ixv_is_dec(c)) {
        ixv_sb_printf(&out->s, "ixd_dsub(max(%s%s),min(%s%s))", d, XS(a), d, XS(a));
        out->t = ixv_t(c, 32u << 8 | (a->t.len & 0xff));
        return 0;
    }
    ixv_sb_printf(&out->s, "(max(%s%s) - min(%s%s))", d, XS(a), d, XS(a));
    out->t = ixv_is_float(c)                                               ? ixv_t(IX_T_FLOAT, 8)
             : c == IX_T_SMALLINT || c == IX_T_INTEGER || c == IX_T_SERIAL ? ixv_t(IX_T_INTEGER, 4)
             : c == IX_T_BIGINT || c == IX_T_BIGSERIAL                     ? ixv_t(IX_T_BIGINT, 8)
                                                                           : ixv_t(IX_T_INT8, 10);
    return 0;
}

/* The aggregate fn over a (settled), DISTINCT when d is "DISTINCT ". */
static int agg_emit(px *p, const char *fn, const char *d, xv *a, xv *out) {
    if (!strcmp(fn, "count")) {
        ixv_sb_printf(&out->s, "count(%s%s)", d, XS(a));
        out->t = ixv_t(IX_T_INTEGER, 4);
        return 0;
    }
    if (!strcmp(fn, "min") || !strcmp(fn, "max")) {
        ixv_sb_printf(&out->s, "%s(%s%s)", fn, d, XS(a));
        out->t = a->t.code < 0 ? ixv_t(IX_T_VARCHAR, 255) : a->t;
        if (out->t.code == IX_T_SERIAL) out->t = ixv_t(IX_T_INTEGER, 4);
        if (out->t.code == IX_T_SERIAL8) out->t = ixv_t(IX_T_INT8, 10);
        if (out->t.code == IX_T_BIGSERIAL) out->t = ixv_t(IX_T_BIGINT, 8);
        return 0;
    }
    if (!strcmp(fn, "range")) return agg_range(p, d, a, out);
    ixs_make_num(p, a);
    if (!strcmp(fn, "stdev") || !strcmp(fn, "variance")) {
        if (!ixv_is_numeric(a->t.code)) return ixs_px_failc(p, IXS_E_NOT_NUMERIC, NULL);
        ixs_to_type(p, a, ixv_t(IX_T_FLOAT, 8));
        ixv_sb_printf(&out->s, "ixd_%s(%s%s)", fn, d, XS(a));
        out->t = ixv_t(IX_T_FLOAT, 8);
        return 0;
    }
    if (ixv_is_float(a->t.code)) {
        ixv_sb_printf(&out->s, "%s(%s%s)", fn, d, XS(a));
        out->t = ixv_t(IX_T_FLOAT, 8);
    } else if (a->t.code == IX_T_INTERVAL) {
        ixv_sb_printf(&out->s, "CAST(%s(%s%s) AS INTEGER)", !strcmp(fn, "sum") ? "sum" : "avg", d,
                      XS(a));
        out->t = a->t;
    } else if (!ixv_is_numeric(a->t.code)) {
        return ixs_px_failc(p, IXS_E_NOT_NUMERIC, NULL);
    } else {
        agg_exact(fn, d, a, out);
    }
    return 0;
}

/* RANGE of a number of type a: its type, integers widened to INTEGER or
 * BIGINT (INT8), DECIMAL/MONEY(p,s) to (32,s). */
static ityp range_type(ityp a) {
    int c = a.code;
    if (ixv_is_dec(c)) return ixv_t(c, 32u << 8 | (a.len & 0xff));
    if (ixv_is_float(c)) return ixv_t(IX_T_FLOAT, 8);
    if (c == IX_T_SMALLINT || c == IX_T_INTEGER || c == IX_T_SERIAL) return ixv_t(IX_T_INTEGER, 4);
    if (c == IX_T_BIGINT || c == IX_T_BIGSERIAL) return ixv_t(IX_T_BIGINT, 8);
    return ixv_t(IX_T_INT8, 10);
}

/* SUM/AVG of a number of type a (see agg_exact). */
static ityp sum_type(int avg, ityp a) {
    uint32_t sc = a.len & 0xff;
    if (ixv_is_float(a.code)) return ixv_t(IX_T_FLOAT, 8);
    if (avg && a.code == IX_T_MONEY && sc != 0xff) return ixv_t(IX_T_MONEY, 32u << 8 | sc);
    if (avg) return ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff);
    if (ixv_is_dec(a.code)) return ixv_t(a.code, 32u << 8 | sc);
    return ixv_t(IX_T_DECIMAL, 32u << 8);
}

ityp ixs_func_agg_type(const char *fn, const ityp *a) {
    if (!strcmp(fn, "count")) return ixv_t(IX_T_INTEGER, 4);
    if (!a || a->code < 0) return ixv_t(-1, 0);
    if (!strcmp(fn, "min") || !strcmp(fn, "max")) {
        if (a->code == IX_T_SERIAL) return ixv_t(IX_T_INTEGER, 4);
        if (a->code == IX_T_SERIAL8) return ixv_t(IX_T_INT8, 10);
        if (a->code == IX_T_BIGSERIAL) return ixv_t(IX_T_BIGINT, 8);
        return *a;
    }
    if (ixv_is_char(a->code)) return ixv_t(-1, 0); /* made a number where it is met */
    if (!strcmp(fn, "sum") || !strcmp(fn, "avg")) {
        if (a->code == IX_T_INTERVAL) return *a;
        return ixv_is_numeric(a->code) ? sum_type(!strcmp(fn, "avg"), *a) : ixv_t(-1, 0);
    }
    if (!ixv_is_numeric(a->code)) return ixv_t(-1, 0);
    return !strcmp(fn, "range") ? range_type(*a) : ixv_t(IX_T_FLOAT, 8);
}

/* ---- functions with their own syntax --------------------------------------------------------- */

int ixs_func_agg(px *p, const char *fn, int distinct, xv *a, xv *out) {
    out->lk = LB_AGG;
    out->agg = 1;
    if (!a) {
        ixv_sb_add(&out->s, "count(*)");
        out->t = ixv_t(IX_T_INTEGER, 4);
        snprintf(out->label, sizeof out->label, "(count(*))");
        return 0;
    }
    ixs_settle(p, a);
    ixs_blanks_collate(a); /* COUNT(DISTINCT), MIN and MAX ignore trailing blanks */
    snprintf(out->label, sizeof out->label, "(%s)", fn);
    return agg_emit(p, fn, distinct ? "DISTINCT " : "", a, out);
}

int ixs_func_extend(px *p, xv *a, const uint32_t *q, xv *out) {
    ixs_settle(p, a);
    uint32_t qq = q                            ? *q
                  : a->t.code == IX_T_DATETIME ? a->t.len
                                               : ixt_dt_qual(IXT_TU_YEAR, IXT_TU_DAY);
    if (ixv_is_char(a->t.code) || a->k == XK_PARAM)
        ixs_to_type(p, a, ixv_t(IX_T_DATETIME, ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(5))));
    ixv_sb_printf(&out->s, "ixd_extend(%s,%d,%u,%u)", XS(a), a->t.code, a->t.len, qq);
    out->t = ixv_t(IX_T_DATETIME, qq);
    out->lk = LB_EXPR;
    return p->failed ? -1 : 0;
}

int ixs_func_substring(px *p, xv *a, int n, xv *out) {
    for (int i = 0; i < n; i++)
        ixs_settle(p, &a[i]);
    int rc = e_substr(p, NULL, a, n, out);
    out->t = ixv_t(IX_T_VARCHAR, ixs_char_len(a[0].t) > 255 ? 255 : ixs_char_len(a[0].t));
    out->lk = LB_EXPR;
    return rc || p->failed ? -1 : 0;
}

int ixs_func_trim(px *p, int how, xv *a, xv *c, xv *out) {
    static const char *const fn[] = {"trim", "ltrim", "rtrim"};
    ixs_as_text(p, a);
    if (c) ixs_as_text(p, c);
    ixv_sb_printf(&out->s, "%s(%s,%s)", fn[how], XS(a), c ? XS(c) : "' '");
    out->t = ixv_t(IX_T_VARCHAR, ixs_char_len(a->t) > 255 ? 255 : ixs_char_len(a->t));
    out->lk = LB_EXPR;
    return p->failed ? -1 : 0;
}

int ixs_func_cast(px *p, xv *a, ityp t, xv *out) {
    ixs_settle(p, a);
    ixs_to_type(p, a, t);
    out->s = a->s;
    memset(&a->s, 0, sizeof a->s);
    out->t = t;
    out->lk = LB_EXPR;
    return p->failed ? -1 : 0;
}

/* ---- the table (sorted by name) -------------------------------------------------------------- */

#define RAW(n, kind)                                                                               \
    { n, 0, 0, RT_EMIT, NULL, kind, NULL, 0 }
#define FN(n, lo, hi, rt, e, s, k)                                                                 \
    { n, lo, hi, rt, e, IXS_FN_EMIT, s, k }

static const fdef builtins[] = {
    FN("abs", 1, 1, RT_EMIT, e_abs, NULL, 0),
    FN("add_months", 2, 2, RT_EMIT, e_add_months, NULL, 0),
    FN("ascii", 1, 1, RT_INT, e_text, "ixd_ascii", 0),
    RAW("avg", IXS_FN_AGG),
    FN("cardinality", 1, 1, RT_INT, e_cardinality, "ixd_coll_count", 0),
    RAW("cast", IXS_FN_CAST),
    FN("ceil", 1, 1, RT_DEC0, e_ceil, NULL, 1),
    FN("char_length", 1, 1, RT_INT, e_length, NULL, 0),
    FN("character_length", 1, 1, RT_INT, e_length, NULL, 0),
    FN("chr", 1, 1, RT_CHAR1, e_int1, "ixd_chr", 0),
    FN("coalesce", 2, MAXARGS, RT_EMIT, e_merge, "coalesce", 0),
    FN("concat", 2, 2, RT_EMIT, e_concat, NULL, 0),
    RAW("count", IXS_FN_AGG),
    FN("date", 1, 1, RT_EMIT, e_datepart, NULL, 4),
    FN("day", 1, 1, RT_EMIT, e_datepart, NULL, 2),
    FN("dbinfo", 1, 2, RT_EMIT, e_dbinfo, NULL, 0),
    FN("decode", 3, MAXARGS - 1, RT_EMIT, e_decode, NULL, 0),
    FN("exp", 1, 1, RT_FLOAT, e_math, "exp", 0),
    RAW("extend", IXS_FN_EXTEND),
    FN("floor", 1, 1, RT_DEC0, e_ceil, NULL, -1),
    FN("greatest", 2, MAXARGS, RT_EMIT, e_merge, "max", 0),
    FN("hex", 1, 1, RT_HEX, e_int1, "ixd_hex", 0),
    FN("initcap", 1, 1, RT_EMIT, e_case, "ixd_initcap", 0),
    FN("last_day", 1, 1, RT_DATE, e_dates, "ixd_last_day", 0),
    FN("least", 2, MAXARGS, RT_EMIT, e_merge, "min", 0),
    FN("len", 1, 1, RT_INT, e_length, NULL, 0),
    FN("length", 1, 1, RT_INT, e_length, NULL, 0),
    FN("log10", 1, 1, RT_FLOAT, e_math, "log10", 0),
    FN("logn", 1, 1, RT_FLOAT, e_math, "ln", 0),
    FN("lower", 1, 1, RT_EMIT, e_case, "lower", 0),
    FN("lpad", 2, 3, RT_EMIT, e_pad, NULL, 1),
    FN("ltrim", 1, 2, RT_EMIT, e_trimset, "ltrim", 0),
    RAW("max", IXS_FN_AGG),
    FN("mdy", 3, 3, RT_DATE, e_mdy, NULL, 0),
    RAW("min", IXS_FN_AGG),
    FN("mod", 2, 2, RT_EMIT, e_mod, NULL, 0),
    FN("month", 1, 1, RT_EMIT, e_datepart, NULL, 1),
    FN("months_between", 2, 2, RT_DECF, e_dates, "ixd_months_between", 0),
    FN("nullif", 2, 2, RT_EMIT, e_nullif, NULL, 0),
    FN("nvl", 2, 2, RT_EMIT, e_merge, "ifnull", 0),
    FN("octet_length", 1, 1, RT_INT, e_length, NULL, 1),
    FN("pow", 2, 2, RT_FLOAT, e_math, "pow", 0),
    FN("power", 2, 2, RT_FLOAT, e_math, "pow", 0),
    RAW("range", IXS_FN_AGG),
    FN("replace", 2, 3, RT_EMIT, e_replace, NULL, 0),
    FN("round", 1, 2, RT_EMIT, e_round, NULL, 0),
    FN("rpad", 2, 3, RT_EMIT, e_pad, NULL, 0),
    FN("rtrim", 1, 2, RT_EMIT, e_trimset, "rtrim", 0),
    FN("sqrt", 1, 1, RT_FLOAT, e_math, "sqrt", 0),
    RAW("stdev", IXS_FN_AGG),
    FN("substr", 2, 3, RT_VCHAR0, e_substr, NULL, 0),
    RAW("substring", IXS_FN_SUBSTRING),
    RAW("sum", IXS_FN_AGG),
    FN("to_char", 1, 2, RT_NVC, e_to_char, NULL, 0),
    FN("to_date", 1, 2, RT_DT5, e_to_date, NULL, 0),
    RAW("trim", IXS_FN_TRIM),
    FN("trunc", 1, 2, RT_EMIT, e_round, NULL, 1),
    FN("upper", 1, 1, RT_EMIT, e_case, "upper", 0),
    RAW("variance", IXS_FN_AGG),
    FN("weekday", 1, 1, RT_EMIT, e_datepart, NULL, 3),
    FN("year", 1, 1, RT_EMIT, e_datepart, NULL, 0),
};

static int fdef_cmp(const void *key, const void *el) {
    return strcmp(key, ((const fdef *)el)->name);
}

static const fdef *lookup(const char *name) {
    return bsearch(name, builtins, sizeof builtins / sizeof builtins[0], sizeof builtins[0],
                   fdef_cmp);
}

/* The result type of rule rt that does not depend on the arguments; code -1
 * for RT_EMIT, RT_ARG0 and RT_VCHAR0. */
static ityp fixed_rt(int rt) {
    switch (rt) {
    case RT_INT: return ixv_t(IX_T_INTEGER, 4);
    case RT_SMALL: return ixv_t(IX_T_SMALLINT, 2);
    case RT_FLOAT: return ixv_t(IX_T_FLOAT, 8);
    case RT_DATE: return ixv_t(IX_T_DATE, 4);
    case RT_DEC0: return ixv_t(IX_T_DECIMAL, 32u << 8);
    case RT_DECF: return ixv_t(IX_T_DECIMAL, 32u << 8 | 0xff);
    case RT_DT5: return ixv_t(IX_T_DATETIME, ixt_dt_qual(IXT_TU_YEAR, IXT_TU_F(5)));
    case RT_VC128: return ixv_t(IX_T_VARCHAR, 128);
    case RT_CHAR1: return ixv_t(IX_T_CHAR, 1);
    case RT_NVC: return ixv_t(IX_T_NVARCHAR, 255);
    case RT_HEX: return ixv_t(IX_T_VARCHAR, 18);
    default: return ixv_t(-1, 0);
    }
}

/* The result type of rule rt for a call with first argument a0 (emitted). */
static void apply_rt(int rt, const xv *a0, xv *out) {
    if (rt == RT_ARG0) {
        out->t = a0->t;
    } else if (rt == RT_VCHAR0) {
        uint32_t n = ixs_char_len(a0->t);
        out->t = ixv_t(IX_T_VARCHAR, n > 255 ? 255 : n);
    } else if (rt != RT_EMIT) {
        out->t = fixed_rt(rt);
    }
}

int ixs_func_kind(const char *fn) {
    if (!strncmp(fn, "oni_ts_", 7)) return IXS_FN_TS;
    const fdef *f = lookup(fn);
    return f ? f->kind : IXS_FN_ROUTINE;
}

int ixs_func_resolve(px *p, const char *fn, int na, const fdef **def, ityp *t) {
    const fdef *f = lookup(fn);
    *def = f;
    *t = ixv_t(-1, 0);
    if (!f) return 0;
    if (na < f->min || na > f->max) return ixs_px_failc(p, IXS_E_ROUTINE, "%s", fn);
    *t = fixed_rt(f->rt);
    return 1;
}

/* The type of a string result of a typed source t whose text the emitter
 * takes as it is (a string; NULL when t is no string). */
static const ityp *str_src(const ityp *t) {
    return t->code >= 0 && ixv_is_char(t->code) ? t : NULL;
}

/* The merged type of arguments at[from], at[from + step] ... (and at[last]
 * when last >= 0), NULLs and parameters (code -1) aside, CHAR(1) if none. */
static ityp merge_args(const ityp *at, int na, int from, int step, int last) {
    ityp rt = ixv_t(-1, 0);
    for (int i = from; i < na; i += step)
        rt = ixs_merge_type(rt, at[i]);
    if (last >= 0) rt = ixs_merge_type(rt, at[last]);
    return rt.code < 0 ? ixv_t(IX_T_CHAR, 1) : rt;
}

/* ROUND/TRUNC(x [, nd]) of a typed x that is no string. */
static ityp round_type(ityp a0, int64_t nd) {
    if (a0.code == IX_T_DATE || a0.code == IX_T_DATETIME) return a0;
    if (!ixv_is_numeric(a0.code) || ixv_is_float(a0.code) || ixv_is_int(a0.code))
        return ixv_is_numeric(a0.code) ? a0 : ixv_t(-1, 0);
    if (nd < 0 || nd > 32) nd = 0;
    return ixv_t(IX_T_DECIMAL, 32u << 8 | (uint32_t)nd);
}

/* The rules of the emitters that give a type from the arguments' (the
 * choices first, then strings, numbers, dates). */
static ityp args_type(const fdef *f, const ityp *at, int na, int64_t nd) {
    const ityp *s0 = str_src(&at[0]);
    uint32_t n0 = s0 ? ixs_char_len(*s0) : 0;
    if (f->emit == e_merge) return merge_args(at, na, 0, 1, -1);
    if (f->emit == e_decode) return merge_args(at, na, 2, 2, na % 2 == 0 ? na - 1 : -1);
    if (f->emit == e_datepart) return f->k == 4 ? ixv_t(IX_T_DATE, 4) : ixv_t(IX_T_SMALLINT, 2);
    if (f->emit == e_mod) return ixv_t(IX_T_INTEGER, 4);
    if (f->rt == RT_VCHAR0 && s0) return ixv_t(IX_T_VARCHAR, n0 > 255 ? 255 : n0);
    if (f->emit == e_case && s0) return *s0;
    if (f->emit == e_replace && s0) return str_result(*s0, 255);
    if (f->emit == e_trimset && s0) return str_result(*s0, n0 > 255 ? 255 : n0);
    if (at[0].code < 0 || ixv_is_char(at[0].code)) return ixv_t(-1, 0);
    if (f->emit == e_abs && ixv_is_numeric(at[0].code)) return at[0];
    if (f->emit == e_round && (na == 1 || nd != INT64_MIN)) return round_type(at[0], nd);
    if (f->emit == e_add_months && (at[0].code == IX_T_DATE || at[0].code == IX_T_DATETIME))
        return at[0];
    return ixv_t(-1, 0);
}

ityp ixs_func_type(const fdef *f, const ityp *at, int na, int64_t nd) {
    if (!f || f->kind != IXS_FN_EMIT) return ixv_t(-1, 0);
    ityp t = fixed_rt(f->rt);
    return t.code >= 0 ? t : args_type(f, at, na, nd);
}

int ixs_func_emit(px *p, const fdef *f, const char *fn, xv *args, int na, xv *out) {
    for (int i = 0; i < na; i++)
        ixs_settle(p, &args[i]);
    if (!f && ixs_lob_fn(fn)) return ixs_lob_emit(p, fn, args, na, out); /* ixs_lob_fn.c */
    if (!f) return ixs_spl_call(p, fn, args, na, out); /* a user routine, else -674 */
    out->lk = LB_EXPR;
    int rc = f->emit(p, f, args, na, out);
    if (!rc) apply_rt(f->rt, &args[0], out);
    return rc || p->failed ? -1 : 0;
}

/* ---- built-ins without parentheses ------------------------------------------------------------
 */

/* The niladic built-ins: DBSERVERNAME, SITENAME, CURRENT_USER, and the
 * roles' CURRENT_ROLE and DEFAULT_ROLE (ixs_role.c: read when the statement
 * runs, as SET ROLE changes them). */
enum { NL_SERVER, NL_SITE, NL_USER, NL_CURRENT_ROLE, NL_DEFAULT_ROLE, NL_COUNT };

int ixs_func_niladic_at(px *p) {
    static const char *const names[NL_COUNT] = {"dbservername", "sitename", "current_user",
                                                "current_role", "default_role"};
    int which = -1;
    for (int k = 0; k < NL_COUNT; k++)
        if (ixs_px_kw_str(p, p->i, names[k]) && !ixs_px_op(p, p->i + 1, "(") &&
            !ixs_px_op(p, p->i + 1, "."))
            which = k;
    return which;
}

ityp ixs_func_niladic_type(int which) {
    return which >= NL_USER ? ixv_t(IX_T_VARCHAR, 32) : ixv_t(IX_T_VARCHAR, 128);
}

void ixs_func_niladic_emit(px *p, int which, xv *out) {
    if (which == NL_CURRENT_ROLE || which == NL_DEFAULT_ROLE) {
        ixv_sb_printf(&out->s, IXS_ROLE_FN "(%d)", which == NL_DEFAULT_ROLE);
    } else if (which == NL_USER) {
        ixv_sb_strlit(&out->s, p->db->user, strlen(p->db->user));
    } else {
        const char *s = ixs_server_name(p->db);
        ixv_sb_strlit(&out->s, s, strlen(s));
    }
    out->t = ixs_func_niladic_type(which);
    out->lk = LB_EXPR;
}
