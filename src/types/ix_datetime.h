/*
 * ix_datetime.h: DATE, DATETIME and INTERVAL (sqli-protocol.md §3.2.1, §4.4,
 * §4.5), their qualifiers, tuple and bind forms, text forms and arithmetic.
 *
 * A qualifier is the describe encoded_length `digits << 8 | start << 4 | end`
 * with the time-unit codes below; FRACTION(n) ends at 10 + n (n = 1..5) and a
 * FRACTION start is 12 (so FRACTION TO FRACTION(1) has start 12 > end 11).
 */
#ifndef IXT_DATETIME_H
#define IXT_DATETIME_H

#include <stddef.h>
#include <stdint.h>

#include "base/ix_buf.h"

enum ixt_time_unit {
    IXT_TU_YEAR = 0,
    IXT_TU_MONTH = 2,
    IXT_TU_DAY = 4,
    IXT_TU_HOUR = 6,
    IXT_TU_MINUTE = 8,
    IXT_TU_SECOND = 10,
    IXT_TU_FRACTION = 12, /* as a start unit */
};
#define IXT_TU_F(n)          (10 + (n)) /* FRACTION(n) as an end unit, n = 1..5 */
#define IXT_QUAL(d, s, e)    ((uint32_t)(d) << 8 | (uint32_t)(s) << 4 | (uint32_t)(e))
#define IXT_QUAL_DIGITS(q)   ((int)(((q) >> 8) & 0xff))
#define IXT_QUAL_START(q)    ((int)(((q) >> 4) & 0xf))
#define IXT_QUAL_END(q)      ((int)((q)&0xf))
#define IXT_DT_NQUALS        56     /* legal DATETIME qualifiers */
#define IXT_IV_NQUALS        302    /* legal INTERVAL qualifiers */
#define IXT_UNITS_PER_SECOND 100000 /* fractions are kept in 10 µs units (FRACTION(5)) */

/* ---- DATE ---------------------------------------------------------------- */

#define IXT_DATE_NULL       INT32_MIN /* tuple NULL 80 00 00 00 */
#define IXT_DATE_UNIX_EPOCH 25568     /* 1970-01-01 as a day number */
#define IXT_DATE_MIN        (-693594) /* 0001-01-01 */
#define IXT_DATE_MAX        2958464   /* 9999-12-31 */

/* 1 if y is a Gregorian leap year. */
int ixt_is_leap(int y);
/* Days in month m (1..12) of year y; 0 for a bad month. */
int ixt_days_in_month(int y, int m);
/* 1 if y-m-d is a valid date with 1 <= y <= 9999. */
int ixt_date_valid(int y, int m, int d);
/* Day count of y-m-d (day 0 = 1899-12-31, proleptic Gregorian). Returns
 * IX_OK or IX_ERANGE (invalid date or year outside 1..9999). */
int ixt_date_from_ymd(int y, int m, int d, int32_t *days);
/* Days since 1970-01-01 to the proleptic Gregorian calendar, with Neri and
 * Schneider's Euclidean affine functions ("Euclidean affine functions and
 * their application to calendar algorithms", 2022): unsigned 32-bit
 * arithmetic only, every division by a constant. The day is shifted by
 * IXT_CIVIL_SHIFT 400-year cycles so that it is not negative; valid for the
 * whole DATE range (years 1 to 9999) and far beyond. */
#define IXT_CIVIL_SHIFT 82
static inline void ixt_civil_from_days(int64_t z, int *y, int *m, int *d) {
    const uint32_t k = 719468 + 146097 * IXT_CIVIL_SHIFT, l = 400 * IXT_CIVIL_SHIFT;
    uint32_t n = (uint32_t)z + k;
    uint32_t n1 = 4 * n + 3;
    uint32_t c = n1 / 146097;      /* centuries since the shifted epoch */
    uint32_t nc = n1 % 146097 / 4; /* day of the century */
    uint64_t p2 = (uint64_t)2939745 * (4 * nc + 3);
    uint32_t yc = (uint32_t)(p2 >> 32);       /* year of the century */
    uint32_t ny = (uint32_t)p2 / 2939745 / 4; /* day of the year, from March 1 */
    uint32_t n3 = 2141 * ny + 197913;
    uint32_t mm = n3 >> 16, dd = (n3 & 0xffff) / 2141;
    uint32_t jan = ny >= 306; /* January or February: the next year */
    *y = (int)(100 * c + yc - l + jan);
    *m = (int)(jan ? mm - 12 : mm);
    *d = (int)(dd + 1);
}

/* Splits a day count into year, month, day (any int32 except the NULL
 * sentinel; years may then fall outside 1..9999). Inline: the accessors
 * call it once per value. */
static inline void ixt_date_to_ymd(int32_t days, int *y, int *m, int *d) {
    ixt_civil_from_days((int64_t)days - IXT_DATE_UNIX_EPOCH, y, m, d);
}
/* Weekday of a day count: 0 = Sunday .. 6 = Saturday (1899-12-31 was a
 * Sunday). */
int ixt_date_weekday(int32_t days);
/* *out = days + n. Returns IX_OK or IX_ERANGE outside 0001-01-01..9999-12-31. */
int ixt_date_add_days(int32_t days, int64_t n, int32_t *out);

/* DBDATE (default "MDY4/"): the order of D, M and Y2/Y4 (a lone Y means Y4)
 * followed by a separator character ('0' = none; missing = '/').
 * Appends the date text ("01/01/1970"). Returns IX_OK, IX_EINVAL (bad DBDATE),
 * IX_ERANGE (year outside 1..9999) or out's sticky error. dbdate may be NULL. */
int ixt_date_format(int32_t days, const char *dbdate, ixb_wbuf *out);
/* Parses a date in the DBDATE form, or else ISO yyyy-mm-dd, with optional
 * surrounding blanks. Y2 years are 1900 + yy. Returns IX_OK, IX_EINVAL
 * (syntax or bad DBDATE) or IX_ERANGE (no such date). */
int ixt_date_parse(const char *s, size_t n, const char *dbdate, int32_t *days);

/* ---- qualifiers ------------------------------------------------------------ */

/* Qualifier of DATETIME start TO end, or 0 if that pair is not legal. */
uint32_t ixt_dt_qual(int start, int end);
/* Qualifier of INTERVAL start(prec) TO end (prec = leading precision 1..9,
 * ignored for FRACTION TO FRACTION(n)), or 0 if not legal. */
uint32_t ixt_iv_qual(int prec, int start, int end);
/* 1 if q is one of the 56 legal DATETIME / 302 legal INTERVAL qualifiers
 * (digits must agree with start, end and the leading precision). */
int ixt_dt_qual_valid(uint32_t q);
int ixt_iv_qual_valid(uint32_t q);
/* Leading-field precision of an INTERVAL qualifier (the digits of its first
 * field; n for FRACTION TO FRACTION(n)). */
int ixt_iv_qual_prec(uint32_t q);
/* Tuple width (digits + (q & 1) + 3) / 2; 0 when digits is 0. */
size_t ixt_qual_width(uint32_t q);
/* Fills arr (may be NULL) with every legal DATETIME / INTERVAL qualifier in
 * ascending (start, end, prec) order and returns the count (56 / 302). */
int ixt_dt_qual_list(uint32_t *arr);
int ixt_iv_qual_list(uint32_t *arr);

/* ---- DATETIME -------------------------------------------------------------- */

/* A DATETIME value. Fields outside the qualifier are 0 after a decode and are
 * ignored by the encoder. fraction is in 10 µs units (0..99999). */
typedef struct ixt_datetime {
    int year, month, day, hour, minute, second;
    int32_t fraction;
} ixt_datetime;

/* Checks the fields that q covers: year 1..9999, month 1..12, day within the
 * month (leap years; Feb 29 allowed when the year is absent; 31 when the
 * month is absent), hour 0..23, minute/second 0..59, fraction 0..99999
 * (digits below FRACTION(n) are allowed here; the encoder truncates them).
 * Returns IX_OK, IX_EINVAL (bad qualifier) or IX_ERANGE. */
int ixt_dt_check(uint32_t q, const ixt_datetime *dt);

/*
 * DATETIME/INTERVAL tuple form (§4.5), ixt_qual_width(q) bytes: the decimal
 * number formed by the fields, aligned so that the point falls after SECOND,
 * in the §4.3 container (ix_decimal.h):
 *
 *   | base-100 weight | 100^6 100^5 | 100^4 | 100^3 | 100^2 | 100^1 | 100^0 | 100^-1..-3  |
 *   | field           | YEAR (4 d.) | MONTH | DAY   | HOUR  | MINUTE| SECOND| FRACTION(n) |
 *
 * An INTERVAL's leading field of precision p takes ceil(p/2) pairs upward from
 * its own weight (DAY(3): 100^4 100^3). Fields below the end count as zero
 * (HOUR TO MINUTE 23:59 is 235900 -> c3 17 3b, the zero SS pair cut off by
 * the width). byte 0 = 0x80 | (exp + 64), or for a negative INTERVAL
 * (exp + 64) ^ 0x7f with complemented pairs; zero = 80 00..; NULL = all 00.
 */

/* Decodes n tuple bytes (n must equal ixt_qual_width(q)). Returns IX_OK,
 * IX_NULL_VALUE, IX_EINVAL (bad qualifier) or IX_EMALFORMED (bad container,
 * negative, digits outside the qualifier, a field out of range). */
int ixt_dt_decode(uint32_t q, const uint8_t *p, size_t n, ixt_datetime *dt);
/* Appends the tuple form; a NULL dt pointer writes the NULL form. Digits
 * below FRACTION(n) are truncated. Returns IX_OK, IX_EINVAL, IX_ERANGE (a
 * field out of range) or out's sticky error. */
int ixt_dt_encode(uint32_t q, const ixt_datetime *dt, ixb_wbuf *out);
/* Text "YYYY-MM-DD hh:mm:ss.fffff" restricted to q ("23:59", "0001",
 * ".00001"). Returns IX_OK, IX_EINVAL or out's sticky error. */
int ixt_dt_format(uint32_t q, const ixt_datetime *dt, ixb_wbuf *out);
/* Parses that text form (optional surrounding blanks; fields may have fewer
 * digits; at most n fraction digits). Returns IX_OK, IX_EINVAL (syntax) or
 * IX_ERANGE (field out of range, too many digits). */
int ixt_dt_parse(uint32_t q, const char *s, size_t n, ixt_datetime *dt);

/*
 * Bind form (§3.4) of DATETIME and INTERVAL, value bytes only (no pad):
 *
 *   | field  | type | value                                               |
 *   |--------|------|-----------------------------------------------------|
 *   | length | u16  | 1 + pairs up to the last non-zero one                |
 *   | bytes  |      | the tuple bytes with trailing zero pairs dropped      |
 *
 * (the slot carries the full qualifier; that is the message codec's job).
 */
int ixt_dt_encode_bind(uint32_t q, const ixt_datetime *dt, ixb_wbuf *out);
/* Decodes a bind form; *used = 2 + length. Returns IX_OK, IX_NEED_MORE,
 * IX_EMALFORMED (length 0 or above the width, bad value). */
int ixt_dt_decode_bind(uint32_t q, const uint8_t *p, size_t avail, ixt_datetime *dt, size_t *used);

/* Converts between a full datetime (year..fraction all meaningful) and a
 * count of 10 µs units since 1899-12-31 00:00:00. to_stamp returns IX_OK or
 * IX_ERANGE (invalid fields); from_stamp returns IX_OK or IX_ERANGE. */
int ixt_dt_to_stamp(const ixt_datetime *dt, int64_t *stamp);
int ixt_dt_from_stamp(int64_t stamp, ixt_datetime *dt);

/* ---- INTERVAL -------------------------------------------------------------- */

/* An INTERVAL value: a year-month interval uses months, a day-time interval
 * units (10 µs); the other is 0. Magnitudes are non-negative; sign is +1 or
 * -1 (zero is +1). */
typedef struct ixt_interval {
    int sign;
    int64_t months;
    int64_t units;
} ixt_interval;

/* Decodes an INTERVAL tuple; results and errors as ixt_dt_decode (negative
 * values allowed). */
int ixt_iv_decode(uint32_t q, const uint8_t *p, size_t n, ixt_interval *iv);
/* Appends the tuple form (NULL iv pointer = NULL form). Returns IX_OK,
 * IX_EINVAL, IX_ERANGE (leading field above its precision, a value not
 * exact at the end unit, wrong class) or out's sticky error. */
int ixt_iv_encode(uint32_t q, const ixt_interval *iv, ixb_wbuf *out);
/* Text with the leading field right-aligned in blanks to its precision and
 * the sign before its first digit: "  3 03:27:01.12345", " 1-06",
 * "-999.99", "-.00001". Returns IX_OK, IX_EINVAL, IX_ERANGE. */
int ixt_iv_format(uint32_t q, const ixt_interval *iv, ixb_wbuf *out);
/* Parses that text ([blanks][+|-]fields[blanks]). Returns IX_OK, IX_EINVAL
 * (syntax) or IX_ERANGE. */
int ixt_iv_parse(uint32_t q, const char *s, size_t n, ixt_interval *iv);
/* Bind form as for DATETIME. */
int ixt_iv_encode_bind(uint32_t q, const ixt_interval *iv, ixb_wbuf *out);
int ixt_iv_decode_bind(uint32_t q, const uint8_t *p, size_t avail, ixt_interval *iv, size_t *used);
/* Compares two intervals of the same class: <0, 0, >0. */
int ixt_iv_cmp(const ixt_interval *a, const ixt_interval *b);

/* ---- arithmetic ------------------------------------------------------------ */

/* *out = a - b as a day-time interval (full datetimes). IX_OK or IX_ERANGE. */
int ixt_dt_diff(const ixt_datetime *a, const ixt_datetime *b, ixt_interval *out);
/* *out = dt + iv (full datetime): months first (IX_ERANGE if that gives an
 * invalid day, as Informix does), then the day-time part. */
int ixt_dt_add(const ixt_datetime *dt, const ixt_interval *iv, ixt_datetime *out);

#endif /* IXT_DATETIME_H */
