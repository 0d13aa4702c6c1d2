/*
 * ix_value.h: the per-type tuple value codec (sqli-protocol.md §4.2) used by
 * the message codec, the server and the shell: extent of one value in a
 * tuple payload, NULL forms, the text dbaccess prints, text -> tuple bytes,
 * and tuple <-> bind (§3.4) value bytes.
 *
 * Nothing here allocates except through the caller's ixb_wbuf; every read is
 * bounded by the length passed in. On failure a function appends nothing
 * (the output length is restored), except for out's own sticky error.
 *
 * Tuple forms (§4.2):
 *
 *   | type                     | width        | encoding                         | NULL form |
 *   |--------------------------|--------------|----------------------------------|------------------------|
 *   | SMALLINT                 | 2            | i16                              | 80 00 | |
 * INTEGER, SERIAL          | 4            | i32                              | 80 00 00 00 | |
 * BIGINT, BIGSERIAL        | 8            | i64                              | 80 00 .. 00 | |
 * INT8, SERIAL8            | 10           | i16 sign 1/-1, u32 low, u32 high | sign 0 (+ zeros) |
 *   | SMALLFLOAT / FLOAT       | 4 / 8        | IEEE-754 binary32 / binary64     | all ff | |
 * DECIMAL(p,s), MONEY(p,s) | (p+(s&1)+3)/2| base-100 (ix_decimal.h)          | all 00 | | DATE | 4
 * | i32 days since 1899-12-31        | 80 00 00 00            | | DATETIME, INTERVAL       | qual
 * width   | base-100 (ix_datetime.h)         | all 00                 | | CHAR(n), NCHAR(n) | n |
 * bytes, blank padded              | first byte 00 (choice) | | VARCHAR, NVARCHAR        | 1 + len
 * | u8 len, bytes                    | 01 00                  | | LVARCHAR                 | 5 +
 * len      | u8 flag 0, i32 len, bytes        | 01 00 00 00 00         | | BOOLEAN | 6            |
 * u8 flag 0, i32 1, 01/00 (choice) | 01 00 00 00 00         | | BYTE, TEXT               | 56 (68
 * f70)  | blob descriptor                  | flag bit (choice)      |
 */
#ifndef IXT_VALUE_H
#define IXT_VALUE_H

#include <stddef.h>
#include <stdint.h>

#include "base/ix_buf.h"
#include "types/ix_types.h"

/* Text-form settings; a NULL pointer or NULL field means the default:
 * dbdate "MDY4/" (ixt_date_format), dbmoney "$." (front symbol, decimal
 * separator '.' or ',', back symbol). */
typedef struct ixt_fmt {
    const char *dbdate;
    const char *dbmoney;
} ixt_fmt;

/* Flags for the _ex functions. */
#define IXT_VF_F70 1u /* capability f70 granted: BYTE/TEXT descriptors are 68 bytes */

#define IXT_BLOB_DESC_LEN     56
#define IXT_BLOB_DESC_LEN_F70 68

/* Returns IX_OK if t is a type this codec knows with a legal encoded_length
 * (CHAR n 1..32767, DECIMAL p 1..32 with s <= p or 0xff, a legal DATETIME or
 * INTERVAL qualifier, ...), else IX_EINVAL. Types whose tuple layout is not
 * known (NULL, SET/MULTISET/LIST/ROW) give IX_EINVAL; generic UDTVAR/UDTFIXED
 * are accepted for extent and NULL tests only. */
int ixt_vtype_check(ixt_vtype t);

/* Fixed tuple width of t in bytes, or 0 for a variable-length or invalid
 * type (VARCHAR, NVARCHAR, LVARCHAR, BOOLEAN envelope, UDTs). BYTE/TEXT give
 * 56 (the non-f70 descriptor). */
size_t ixt_value_fixed_width(ixt_vtype t);

/* The longest VARCHAR / NVARCHAR value (bytes) a column of this encoded
 * length holds (sqli-protocol.md §8 #16: the low byte, 0 meaning 255). */
size_t ixt_value_varchar_max(uint32_t enclen);

/* Length in bytes of the one value starting at p (avail bytes available):
 * VARCHAR u8 len + bytes; LVARCHAR/BOOLEAN/UDTVAR/UDTFIXED u8 flag (0 or 1),
 * i32 length, bytes; fixed types their width; BYTE/TEXT 56, or 68 with
 * IXT_VF_F70 in flags (any non-zero flags value counts as f70). max_len bounds the variable length
 * (0 = no bound). Returns IX_OK (*used set), IX_NEED_MORE, IX_EMALFORMED (bad flag, negative
 * length), IX_ELIMIT (length > max_len) or IX_EINVAL (bad type). */
int ixt_value_extent(ixt_vtype t, const uint8_t *p, size_t avail, size_t max_len, unsigned flags,
                     size_t *used);

/* 1 if the n bytes at p (one whole value, as measured by ixt_value_extent)
 * are t's NULL form, 0 if not, IX_EMALFORMED if n is not a possible length,
 * IX_EINVAL for a bad type. BYTE/TEXT: n selects the 56/68 layout. */
int ixt_value_is_null(ixt_vtype t, const uint8_t *p, size_t n);

/* 1 if the n bytes at p are a CHAR/NCHAR NULL, else 0. The choice (no
 * source, sqli-protocol.md §8 #14): a CHAR value whose first byte is 00 is
 * NULL, as ESQL/C's risnull takes CHARTYPE; ixt_value_is_null answers the
 * same. Inline for the per-row paths. */
static inline int ixt_char_is_null(const uint8_t *p, size_t n) {
    return n > 0 && p[0] == 0;
}

/* Appends t's NULL form. Returns IX_OK, IX_EINVAL or out's sticky error.
 * _ex: IXT_VF_F70 selects the 68-byte BYTE/TEXT descriptor. */
int ixt_value_put_null(ixt_vtype t, ixb_wbuf *out);
int ixt_value_put_null_ex(ixt_vtype t, unsigned flags, ixb_wbuf *out);

/* Appends the text dbaccess prints for the value p[0..n) (n = its extent):
 * integers plain; FLOAT "%#.15g", SMALLFLOAT "%#.7g", "Infinity",
 * "-Infinity", "NaN"; DECIMAL(p,s) with exactly s fraction digits; floating
 * DECIMAL(p) see ixt_dec_to_text; MONEY with DBMONEY ("$123.45",
 * "-$98765.43"); DATE per DBDATE; DATETIME/INTERVAL per ixt_dt_format /
 * ixt_iv_format; CHAR as stored; VARCHAR/LVARCHAR bytes; BOOLEAN "t"/"f";
 * BYTE/TEXT "<BYTE value>"/"<TEXT value>". Returns IX_OK; IX_NULL_VALUE
 * (nothing appended) for the NULL form; IX_EMALFORMED for bytes no value has
 * (including values that do not fit the declared type, e.g. more than p - s
 * integer digits); IX_EINVAL for a bad type or bad DBDATE. */
int ixt_value_format(ixt_vtype t, const uint8_t *p, size_t n, const ixt_fmt *fmt, ixb_wbuf *out);

/* Converts text s[0..n) to t's tuple bytes and appends them. Exact for
 * DECIMAL (rounded half away from zero to the column's scale), DATETIME and
 * INTERVAL; DATE accepts the DBDATE form and ISO yyyy-mm-dd; MONEY accepts
 * the DBMONEY symbols; BOOLEAN t/f/true/false/1/0; numbers and temporal
 * values may have surrounding blanks; CHAR is blank-padded to n. The text
 * "NULL" is not special. Returns IX_OK, IX_EINVAL (syntax, bad type),
 * IX_ERANGE (does not fit, or equals a NULL sentinel such as -32768 for
 * SMALLINT) or out's sticky error. */
int ixt_value_parse(ixt_vtype t, const char *s, size_t n, const ixt_fmt *fmt, ixb_wbuf *out);

/* The number in a MONEY text s[0..n) as DBMONEY dbmoney writes it (NULL or
 * "" the default "$."): its sign, the front symbol, the digits with the
 * decimal separator made '.', the back symbol, blanks around, into
 * buf[0..*len) (not terminated) as plain decimal text for ixt_dec_from_text.
 * Each symbol is optional; what is left is not checked here. Returns IX_OK
 * or IX_ERANGE (longer than cap). */
int ixt_money_plain(const char *dbmoney, const char *s, size_t n, char *buf, size_t cap,
                    size_t *len);

/* Converts one tuple value to the §3.4 bind value bytes (no type, indicator
 * or slot; no pad): CHAR/VARCHAR/LVARCHAR i16 length + bytes; DECIMAL/MONEY/
 * DATETIME/INTERVAL u16 length + base-100 bytes without trailing zero pairs;
 * SMALLINT i16; INTEGER/SERIAL/DATE i32; BIGINT/BIGSERIAL i64; INT8/SERIAL8
 * the 10-byte form; FLOAT 8 bytes; SMALLFLOAT 4; BOOLEAN 1 byte 01/00.
 * Returns IX_OK, IX_NULL_VALUE (nothing appended; send indicator -1),
 * IX_EMALFORMED, IX_ERANGE (string longer than 32767) or IX_EINVAL
 * (BYTE/TEXT, bad type). */
int ixt_value_to_bind(ixt_vtype t, const uint8_t *tuple, size_t n, ixb_wbuf *out);

/* The reverse: reads the bind value p[0..n) (exactly the value bytes as on
 * the wire, inner length word included, pad excluded) and appends the tuple
 * bytes for column type t
 * (DECIMAL rounded to the column's scale; CHAR blank-padded). A BOOLEAN byte
 * may be 00/01 or 'f'/'t'. Returns IX_OK, IX_NEED_MORE, IX_EMALFORMED,
 * IX_ERANGE (does not fit t, or equals a NULL sentinel) or IX_EINVAL;
 * ixt_value_from_bind also gives IX_EMALFORMED when bytes follow the value. */
int ixt_value_from_bind(ixt_vtype t, const uint8_t *p, size_t n, ixb_wbuf *out);
/* As ixt_value_from_bind for a value that starts at p and may be followed by
 * more bytes: reads one value from p[0..avail) and sets *used (pad not
 * included). */
int ixt_value_from_bind_prefix(ixt_vtype t, const uint8_t *p, size_t avail, size_t *used,
                               ixb_wbuf *out);

/* Typed access to decoded tuple values. Each returns IX_OK, IX_NULL_VALUE,
 * IX_EMALFORMED or IX_EINVAL (wrong type).
 *   get_int: SMALLINT, INTEGER, SERIAL, BIGINT, BIGSERIAL, INT8, SERIAL8,
 *            DATE (the day count);
 *   get_double: FLOAT, SMALLFLOAT;  get_bool: BOOLEAN (1/0);
 *   get_bytes: CHAR/NCHAR (as stored), VARCHAR/NVARCHAR, LVARCHAR — *data
 *            points into p (borrowed). */
int ixt_value_get_int(ixt_vtype t, const uint8_t *p, size_t n, int64_t *v);
int ixt_value_get_double(ixt_vtype t, const uint8_t *p, size_t n, double *v);
int ixt_value_get_bool(ixt_vtype t, const uint8_t *p, size_t n, int *v);
int ixt_value_get_bytes(ixt_vtype t, const uint8_t *p, size_t n, const uint8_t **data, size_t *len);

/* Typed encoders: append the tuple form of v for t. put_int returns IX_ERANGE
 * when v does not fit or is the NULL sentinel; put_double canonicalises NaN
 * (never the all-ff NULL form) and gives IX_ERANGE when a finite v overflows
 * SMALLFLOAT; put_bool writes the envelope with payload 01/00. */
int ixt_value_put_int(ixt_vtype t, int64_t v, ixb_wbuf *out);
int ixt_value_put_double(ixt_vtype t, double v, ixb_wbuf *out);
int ixt_value_put_bool(ixt_vtype t, int v, ixb_wbuf *out);

/*
 * INT8/SERIAL8 10-byte form (§4.2):
 *
 *   | offset | type | field                                   |
 *   |--------|------|-----------------------------------------|
 *   | 0      | i16  | sign: 1, -1; 0 = NULL                   |
 *   | 2      | u32  | low 32 bits of the magnitude            |
 *   | 6      | u32  | high 32 bits of the magnitude           |
 *
 * ixt_int8_decode returns IX_OK, IX_NULL_VALUE (sign 0, whatever follows) or
 * IX_EMALFORMED (other sign, magnitude > 2^63 - 1). ixt_int8_encode writes v
 * (zero with sign 1); IX_ERANGE for INT64_MIN.
 */
int ixt_int8_decode(const uint8_t *p, int64_t *v);
int ixt_int8_encode(int64_t v, ixb_wbuf *out);

#endif /* IXT_VALUE_H */
