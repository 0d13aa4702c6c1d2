/*
 * ixo_conv.h: the driver's values and their conversions, with no handle and
 * no I/O (unit-tested alone: tests/odbc/test_conv.c).
 *
 *   ixo_val      one value of a result column or a parameter, borrowed
 *                (text and bytes point into the row or the caller's buffer)
 *   ixo_typeinfo the ODBC description of an Informix column type
 *   ixo_get      a value into an application buffer of a C type (SQLGetData,
 *                SQLBindCol), in pieces for character and binary targets
 *   ixo_put      an application buffer of a C type into a value (parameters)
 */
#ifndef IXO_CONV_H
#define IXO_CONV_H

#include <sql.h>
#include <sqlext.h>

#include "ixdb.h"

typedef enum ixo_kind {
    IXO_V_NULL = 0,
    IXO_V_INT,    /* i */
    IXO_V_DOUBLE, /* d; is_real: a SMALLFLOAT (7 digits) */
    IXO_V_DEC,    /* dec (exact) */
    IXO_V_DT,     /* dt with has_date / has_time, fdigits fraction digits */
    IXO_V_TEXT,   /* p, n: characters (UTF-8, the client code set) */
    IXO_V_BIN,    /* p, n: bytes */
    IXO_V_BOOL,   /* i 0/1 */
    IXO_V_IV,     /* iv with qualifier qual (an INTERVAL; ixo_interval.c) */
} ixo_kind;

typedef struct ixo_val {
    ixo_kind kind;
    int is_real;
    int has_date, has_time, fdigits;
    int64_t i;
    double d;
    const char *p;
    size_t n;
    ix_datetime_t dt;
    ix_decimal_t dec;
    ix_interval_t iv;
    unsigned qual;
} ixo_val;

/* The ODBC description of a column type. */
typedef struct ixo_typeinfo {
    SQLSMALLINT sql_type;  /* SQL_INTEGER, SQL_TYPE_TIMESTAMP, ... */
    SQLULEN column_size;   /* characters, digits or bytes */
    SQLSMALLINT digits;    /* scale, or fraction digits */
    SQLLEN octet_length;   /* bytes a C buffer needs (character: bytes) */
    SQLLEN display_size;   /* characters to show any value */
    SQLSMALLINT c_default; /* SQL_C_* of SQL_C_DEFAULT */
    int radix;             /* 10 for exact and approximate numbers, else 0 */
    int unsigned_;         /* 1 for non-numeric types */
    const char *type_name; /* the Informix name, "INTEGER", "DATETIME" */
    SQLSMALLINT desc_type; /* SQL_DESC_TYPE: SQL_DATETIME, SQL_INTERVAL or sql_type */
    SQLSMALLINT dt_code;   /* SQL_DESC_DATETIME_INTERVAL_CODE (SQL_CODE_*), else 0 */
    SQLINTEGER iv_prec;    /* SQL_DESC_DATETIME_INTERVAL_PRECISION: the leading precision */
} ixo_typeinfo;

/* The description of an Informix column (ix_column_type, ix_column_enclen;
 * lob: ix_column_lob_type's answer, 0 for none). */
void ixo_type_describe(int ixtype, int enclen, int lob, ixo_typeinfo *out);

/* DATETIME qualifiers: the first and last unit (IX_UNIT_*, the fraction
 * IX_UNIT_FRAC(n)). */
#define IXO_QUAL_START(q) (((q) >> 4) & 0xf)
#define IXO_QUAL_END(q)   ((q)&0xf)
/* the digits of a qualifier (every field's, the leading one's included) */
#define IXO_QUAL_DIGITS(q) (((q) >> 8) & 0xff)

/* ---- INTERVAL (ixo_interval.c) ---- */
/* the leading precision ODBC is told for FRACTION TO FRACTION(n) */
#define IXO_IV_FRAC_PREC 1
/* the largest leading precision: of an Informix INTERVAL, and of the
 * leading field of an SQL_INTERVAL_STRUCT the driver fills */
#define IXO_IV_MAX_PREC 9
/* the fraction digits of Informix (FRACTION(5), 10-microsecond units) */
#define IXO_IV_FRAC_DIGITS 5
/* the fraction digits of SQL_INTERVAL_STRUCT's day_second.fraction (ODBC's
 * default seconds precision: microseconds) */
#define IXO_IV_C_FRAC_DIGITS 6
/* An INTERVAL qualifier's description (SQL_INTERVAL_*, sizes, precisions)
 * into out: 1, or 0 (out untouched) for a qualifier that is not one. */
int ixo_iv_describe(unsigned qual, ixo_typeinfo *out);
/* The first and last unit (IX_UNIT_*; SECOND for the _SECOND types) of an
 * SQL_INTERVAL_* or SQL_C_INTERVAL_* type: 1, or 0 for another type. */
int ixo_iv_units(SQLSMALLINT type, int *start, int *end);
/* The qualifier a parameter of SQL type sqltype (SQL_INTERVAL_*) is bound
 * with: leading precision IXO_IV_MAX_PREC, a _SECOND type ending in
 * FRACTION(frac) when frac > 0 (at most 5), else SECOND. 0 for another type. */
unsigned ixo_iv_param_qual(SQLSMALLINT sqltype, int frac);
/* The Informix text of an interval value (leading field blank-padded to the
 * leading precision, "  3 03:27:01.12345") into out (cap bytes, at least
 * IXO_IV_TEXT_MAX); its length. */
#define IXO_IV_TEXT_MAX 64
size_t ixo_iv_text(const ixo_val *v, char *out, size_t cap);

/* Results of ixo_get and ixo_put (each maps to one SQLSTATE). */
typedef enum ixo_cv {
    IXO_CV_OK = 0,
    IXO_CV_TRUNC,      /* 01004: string data right-truncated (the length is whole) */
    IXO_CV_FRACTION,   /* 01S07: fractional truncation */
    IXO_CV_NODATA,     /* SQLGetData: every piece was returned (SQL_NO_DATA) */
    IXO_CV_BADTYPE,    /* 07006: restricted data type attribute violation */
    IXO_CV_RANGE,      /* 22003: numeric value out of range */
    IXO_CV_BADCHAR,    /* 22018: invalid character value for cast */
    IXO_CV_BADDT,      /* 22007: invalid datetime format */
    IXO_CV_NULLNOIND,  /* 22002: NULL with no indicator */
    IXO_CV_NOMEM,      /* HY001 */
    IXO_CV_IVFIELD,    /* 22015: interval field overflow */
    IXO_CV_UNSUPPORTED /* HYC00: a C type the driver does not take */
} ixo_cv;

/* The SQLSTATE of a result (NULL for IXO_CV_OK and IXO_CV_NODATA). */
const char *ixo_cv_state(ixo_cv cv);

/* A growable scratch buffer the conversions write into (one per statement:
 * no allocation per row once it is big enough). */
typedef struct ixo_scratch {
    char *p;
    size_t cap;
} ixo_scratch;
void ixo_scratch_free(ixo_scratch *s);

/*
 * v into buf (buflen bytes; SQL_C_CHAR / SQL_C_WCHAR / SQL_C_BINARY may be
 * read in pieces: *offset is the bytes already returned, advanced here;
 * offset NULL: one piece). *ind receives the length in bytes of what was
 * left before this piece (the whole length the first time), or
 * SQL_NULL_DATA. ctype SQL_C_DEFAULT means def_ctype.
 */
ixo_cv ixo_get(const ixo_val *v, SQLSMALLINT ctype, SQLSMALLINT def_ctype, void *buf, SQLLEN buflen,
               SQLLEN *ind, size_t *offset, ixo_scratch *s);
/* ixo_get without its shortcuts for the pairs a block fetch meets most
 * (integers into SQL_C_SLONG / SQL_C_SBIGINT, FLOAT into SQL_C_DOUBLE, text
 * that fits into SQL_C_CHAR, DATE into SQL_C_TYPE_DATE): the reference the
 * unit tests compare ixo_get with, byte for byte. */
ixo_cv ixo_get_general(const ixo_val *v, SQLSMALLINT ctype, SQLSMALLINT def_ctype, void *buf,
                       SQLLEN buflen, SQLLEN *ind, size_t *offset, ixo_scratch *s);

/*
 * The value of one parameter: ctype's value at buf (buflen bytes; len is the
 * indicator's value: SQL_NTS, SQL_NULL_DATA or a length; ind_given 0 when
 * the application passed no indicator). Text made here (from SQL_C_WCHAR,
 * SQL_C_NUMERIC) lives in *s until the next call with it.
 */
ixo_cv ixo_put(SQLSMALLINT ctype, const void *buf, SQLLEN buflen, SQLLEN len, int ind_given,
               ixo_val *out, ixo_scratch *s);

/* Parses "YYYY-MM-DD", "hh:mm:ss[.f]" or "YYYY-MM-DD hh:mm:ss[.f]" (an
 * ODBC escape {d '...'} / {ts '...'} is not taken here). 1 if it parsed. */
int ixo_parse_dt(const char *p, size_t n, ixo_val *out);

/* An interval value into an interval C struct (ctype SQL_C_INTERVAL_*) or
 * an exact numeric C type (a single-field interval); other C types are
 * 07006. ixo_get calls it for every C type but the character and binary
 * ones, which take the value's text (ixo_iv_text). */
ixo_cv ixo_iv_get(const ixo_val *v, SQLSMALLINT ctype, void *buf, SQLLEN buflen, SQLLEN *ind,
                  ixo_scratch *s);
/* An SQL_INTERVAL_STRUCT of C type ctype into out (IXO_V_IV, qualifier of
 * the C type's fields, leading precision IXO_IV_MAX_PREC); 01S07 when its
 * fraction has digits below 10 microseconds, 22015 for a field too big. */
ixo_cv ixo_iv_put(SQLSMALLINT ctype, const SQL_INTERVAL_STRUCT *in, ixo_val *out);

/* UTF-8 <-> UTF-16 (host order, as SQLWCHAR). They return the number of
 * units written in full (the output is cut at cap units), or -1 on bytes
 * that are not UTF-8 / UTF-16. */
long ixo_utf8_to_utf16(const char *p, size_t n, SQLWCHAR *out, size_t cap);
long ixo_utf16_to_utf8(const SQLWCHAR *p, size_t n, char *out, size_t cap);

/* 1 for the character and binary SQL types (narrow, wide and long), else 0 */
int ixo_sql_is_chars(SQLSMALLINT t);
/* 1 for the integer C types (SQL_C_[SU]TINYINT to SQL_C_[SU]BIGINT and the
 * plain TINYINT, SHORT, LONG; not SQL_C_BIT), else 0 */
int ixo_ctype_is_integer(SQLSMALLINT ctype);
/* the size of a fixed-size C type, 0 for character and binary ones */
size_t ixo_ctype_size(SQLSMALLINT ctype);
/* the C type SQL_C_DEFAULT stands for with an SQL type */
SQLSMALLINT ixo_default_ctype(SQLSMALLINT sqltype);

#endif
