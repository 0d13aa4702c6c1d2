/*
 * ix_decimal.h: exact base-100 DECIMAL/MONEY (sqli-protocol.md §4.3, §3.4).
 *
 * An ixt_decimal is sign * 0.d[0] d[1] ... (base 100) * 100^exp, i.e. pair i
 * has weight 100^(exp-1-i). It is kept canonical: no leading or trailing zero
 * pair, zero is ndig = 0 with sign +1 and exp 0. Arithmetic never passes
 * through a double except in ixt_dec_from_double / ixt_dec_to_double.
 */
#ifndef IXT_DECIMAL_H
#define IXT_DECIMAL_H

#include <stddef.h>
#include <stdint.h>

#include "base/ix_buf.h"

#define IXT_DEC_MAXPAIRS  17 /* DECIMAL(32) with an odd alignment needs 17 */
#define IXT_DEC_MAXDIGITS 32
#define IXT_DEC_MINEXP    (-64) /* base-100 exponent range of the wire form */
#define IXT_DEC_MAXEXP    63
#define IXT_DEC_FLOAT     0xff /* scale byte of a floating-scale DECIMAL(p) */

typedef struct ixt_decimal {
    int8_t sign;     /* +1 or -1 (zero is +1) */
    uint8_t is_null; /* 1 = SQL NULL; the other fields are then zero */
    uint8_t ndig;    /* number of base-100 pairs in dig (0 = zero) */
    int16_t exp;     /* base-100 exponent: dig[0] has weight 100^(exp-1) */
    uint8_t dig[IXT_DEC_MAXPAIRS];
} ixt_decimal;

/* Set d to zero / to NULL. */
void ixt_dec_zero(ixt_decimal *d);
void ixt_dec_null(ixt_decimal *d);

/* Parses text: [blanks][+|-]digits[.digits][(e|E)[+|-]digits][blanks] (a
 * leading or trailing '.' is allowed when there is at least one digit).
 * Returns IX_OK, IX_EINVAL (syntax) or IX_ERANGE (more than 32 significant
 * digits, or magnitude outside 1E-130 .. <1E126). Reads at most n bytes. */
int ixt_dec_from_text(ixt_decimal *d, const char *s, size_t n);

/* Appends the text form. scale 0..32 (or more): exactly that many fraction
 * digits, rounded half away from zero ("123.4500", "0.0010", "-5").
 * scale < 0 or IXT_DEC_FLOAT: the significant digits without trailing zeros
 * in plain notation when that needs at most 32 digits (not counting sign and
 * point), else scientific "d.ddde+XX" with at least two exponent digits
 * ("1e+125", "1e-130"). NULL appends nothing and returns IX_NULL_VALUE.
 * Returns IX_OK or out's sticky error. */
int ixt_dec_to_text(const ixt_decimal *d, int scale, ixb_wbuf *out);

/* Width in bytes of DECIMAL(p,s)/MONEY(p,s): (p + (s & 1) + 3) / 2, scale
 * 0xff counting as odd. Returns 0 if p is not 1..32 or s is neither <= p nor
 * 0xff. */
size_t ixt_dec_width(int prec, int scale);

/* Rounds d (half away from zero) to `scale` fraction digits, or, with
 * IXT_DEC_FLOAT, leaves it alone. Returns IX_OK. */
int ixt_dec_round(ixt_decimal *d, int scale);
/* Rounds d to at most `digits` significant decimal digits. Returns IX_OK or
 * IX_ERANGE if rounding carries past the largest exponent. */
int ixt_dec_round_sig(ixt_decimal *d, int digits);

/*
 * Tuple form, n bytes (the column width):
 *
 *   | byte  | positive          | negative                            | zero | NULL |
 *   |-------|-------------------|-------------------------------------|------|------|
 *   | 0     | 0x80 | (exp+64)   | (exp+64) ^ 0x7f                     | 0x80 | 0x00 |
 *   | 1..k  | pairs 0..99, msb  | base-100 complement of the pairs    | 00   | 00   |
 *   | k+1.. | 00 padding        | 00 padding                          | 00   | 00   |
 *
 * Complement (§4.3): from the least significant end, zero pairs stay zero,
 * the first non-zero pair p becomes 100 - p, every pair above it 99 - p.
 */

/* Decodes n (1..18) tuple bytes. Returns IX_OK, IX_NULL_VALUE (all bytes 00;
 * d is set to NULL) or IX_EMALFORMED (a pair > 99, a negative zero, more
 * than 32 significant digits, n out of range, or an exponent that
 * normalises outside -64..63). Leading zero pairs are accepted and
 * normalised. */
int ixt_dec_decode(ixt_decimal *d, const uint8_t *p, size_t n);

/* Encodes d for DECIMAL/MONEY(prec, scale): rounds half away from zero to
 * the scale (or to prec significant digits for floating scale 0xff) and
 * appends exactly ixt_dec_width(prec, scale) bytes. A NULL d writes the NULL
 * form. Returns IX_OK, IX_EINVAL (bad prec/scale), IX_ERANGE (more than
 * p - s integer digits, or exponent out of range) or out's sticky error;
 * nothing is appended on failure. */
int ixt_dec_encode(const ixt_decimal *d, int prec, int scale, ixb_wbuf *out);

/* Low level: writes d (not rounded) into exactly `width` bytes at out[].
 * Returns IX_OK, or IX_ERANGE if d needs more than width-1 pairs or its
 * exponent is out of range. NULL writes zeros. */
int ixt_dec_pack(const ixt_decimal *d, size_t width, uint8_t *out);

/*
 * Bind form (§3.4), value bytes only, no pad written or consumed:
 *
 *   | field  | type | value                                              |
 *   |--------|------|----------------------------------------------------|
 *   | length | u16  | 1 + number of pairs up to the last non-zero one     |
 *   | bytes  |      | byte 0 and pairs exactly as in the tuple form,      |
 *   |        |      | trailing zero pairs dropped (zero is the single 80) |
 */

/* Appends the bind form of d. Returns IX_OK, IX_EINVAL for a NULL d (NULL is
 * sent as indicator -1, not as bytes), IX_ERANGE or out's sticky error. */
int ixt_dec_encode_bind(const ixt_decimal *d, ixb_wbuf *out);

/* Decodes a bind form from p[0..avail). On IX_OK *used is 2 + length (the
 * pad is the caller's). Returns IX_OK, IX_NEED_MORE, IX_EMALFORMED (length 0
 * or > 18, bad bytes) — an all-zero body is reported as IX_EMALFORMED too. */
int ixt_dec_decode_bind(ixt_decimal *d, const uint8_t *p, size_t avail, size_t *used);

/* Compares a and b: returns <0, 0, >0. NULL sorts before every value and
 * equals NULL. */
int ixt_dec_cmp(const ixt_decimal *a, const ixt_decimal *b);

/* Exact conversion from an integer. Always IX_OK. */
int ixt_dec_from_i64(ixt_decimal *d, int64_t v);
/* Truncates toward zero into *v. Returns IX_OK, IX_NULL_VALUE or IX_ERANGE. */
int ixt_dec_to_i64(const ixt_decimal *d, int64_t *v);

/* Convenience: from a double via its 17-significant-digit text. Returns
 * IX_OK, or IX_ERANGE for NaN, infinities and magnitudes outside the DECIMAL
 * range. */
int ixt_dec_from_double(ixt_decimal *d, double v);
/* Convenience: to the nearest double via text. Returns IX_OK or
 * IX_NULL_VALUE. */
int ixt_dec_to_double(const ixt_decimal *d, double *v);

/* Number of significant decimal digits of d (0 for zero), and the decimal
 * exponent: d = 0.ddd... * 10^(*pt). */
int ixt_dec_digits(const ixt_decimal *d, int *pt);

/* Splits d into decimal digits: d = *sign * digits * 10^-(*out_scale).
 * With scale 0..32 d is first rounded (half away from zero) to that many
 * fraction digits and *out_scale is scale; with scale < 0 or IXT_DEC_FLOAT
 * the significant digits are kept as they are and *out_scale is the count
 * of fraction digits they need (negative for trailing integer zeros: 1E+5
 * is "1", -5). digits receives ASCII digits without leading zeros ("0" for
 * zero, sign +1), NUL-terminated, in at most cap bytes. Returns the number
 * of digits, IX_NULL_VALUE (NULL d; outputs untouched) or IX_ERANGE (they
 * do not fit cap). */
int ixt_dec_split(const ixt_decimal *d, int scale, int *sign, char *digits, size_t cap,
                  int *out_scale);

/* Exact arithmetic, rounded to 32 significant digits: *r = x + y (x - y
 * with sub), x * y, x / y. Returns IX_OK, IX_NULL_VALUE when an operand is
 * NULL (*r is NULL), IX_ERANGE when the result's exponent is out of
 * DECIMAL's range, IX_EINVAL for a division by zero. */
int ixt_dec_add(const ixt_decimal *x, const ixt_decimal *y, int sub, ixt_decimal *r);
int ixt_dec_mul(const ixt_decimal *x, const ixt_decimal *y, ixt_decimal *r);
int ixt_dec_div(const ixt_decimal *x, const ixt_decimal *y, ixt_decimal *r);

#endif /* IXT_DECIMAL_H */
