/* fuzz_odbc.c: libFuzzer target for the ODBC driver's parsers and
 * conversions (src/odbc): the connection string (ixo_keys_parse) and the
 * libixdb DSN made of it (ixo_dsn_add), an application's value of any C
 * type read as a parameter (ixo_put: text, wide text, numbers, structs,
 * SQL_NUMERIC_STRUCT, interval structs) and then converted into every C type
 * with buffers of every size, in pieces (ixo_get), date/time text
 * (ixo_parse_dt), UTF-8 <-> UTF-16, and an SPL routine's CREATE text as
 * SQLProcedureColumns reads it (ixo_routine_parse, ixo_type_of).
 *
 * Input: byte 0 selects the part; the rest is its data (below).
 * Properties (abort() on violation; ASan sees every write past a buffer,
 * each allocated to its exact size):
 *   - every keyword's value is NUL-terminated within IXO_KEY_MAX, the DSN
 *     within its buffer;
 *   - ixo_get never writes past buflen (or the C type's size), and a loop
 *     of pieces ends;
 *   - a UTF-8 text that converts to UTF-16 converts back to the same bytes;
 *   - a routine's items are NUL-terminated within IXO_NAME_MAX, at most
 *     IXO_ROUTINE_MAX of them.
 */
#include <sqlext.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ixo_conv.h"
#include "ixo_keys.h"
#include "ixo_routine.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const SQLSMALLINT CTYPES[] = {
    SQL_C_CHAR,
    SQL_C_WCHAR,
    SQL_C_BINARY,
    SQL_C_BIT,
    SQL_C_STINYINT,
    SQL_C_UTINYINT,
    SQL_C_SSHORT,
    SQL_C_USHORT,
    SQL_C_SLONG,
    SQL_C_ULONG,
    SQL_C_SBIGINT,
    SQL_C_UBIGINT,
    SQL_C_FLOAT,
    SQL_C_DOUBLE,
    SQL_C_NUMERIC,
    SQL_C_TYPE_DATE,
    SQL_C_TYPE_TIME,
    SQL_C_TYPE_TIMESTAMP,
    SQL_C_INTERVAL_YEAR,
    SQL_C_INTERVAL_YEAR_TO_MONTH,
    SQL_C_INTERVAL_DAY,
    SQL_C_INTERVAL_DAY_TO_SECOND,
    SQL_C_INTERVAL_HOUR_TO_MINUTE,
    SQL_C_INTERVAL_SECOND,
    SQL_C_DEFAULT,
};
#define NCTYPES    (sizeof CTYPES / sizeof CTYPES[0])
#define MAX_PIECES 4096 /* more pieces than bytes a value of this input has */
#define PIECE_MIN  8    /* bytes that hold a character (UTF-16 pair too) and a NUL */

/* ixo_keys is IXO_KEY_MAX-byte values one after another */
static void keys(const uint8_t *d, size_t n) {
    ixo_keys k;
    memset(&k, 0, sizeof k);
    if (!ixo_keys_parse(&k, (const char *)d, n)) return;
    const char *f = (const char *)&k;
    char dsn[2048] = "";
    for (size_t at = 0; at < sizeof k; at += IXO_KEY_MAX) {
        if (strnlen(f + at, IXO_KEY_MAX) >= IXO_KEY_MAX) abort();
        ixo_dsn_add(dsn, sizeof dsn, "key", f + at);
    }
    if (strnlen(dsn, sizeof dsn) >= sizeof dsn) abort();
}

/* v into C type ct with a buffer of exactly cap bytes, in pieces */
static void get_all(const ixo_val *v, SQLSMALLINT ct, SQLLEN cap, ixo_scratch *s) {
    size_t fixed = ixo_ctype_size(ct == SQL_C_DEFAULT ? SQL_C_CHAR : ct);
    size_t room = fixed > (size_t)cap ? fixed : (size_t)cap;
    char *buf = malloc(room ? room : 1);
    if (!buf) return;
    size_t off = 0;
    SQLLEN ind = 0;
    /* a place of fewer than PIECE_MIN bytes may hold no character but the
     * NUL (a length query): one call; else every piece moves on */
    for (int i = 0; i < MAX_PIECES; i++) {
        size_t before = off;
        ixo_cv cv = ixo_get(v, ct, SQL_C_CHAR, buf, cap, &ind, &off, s);
        if (cv != IXO_CV_TRUNC || cap < PIECE_MIN) break;
        if (off <= before || i == MAX_PIECES - 1) abort(); /* no progress */
    }
    free(buf);
}

/* d: [C type][indicator mode][buffer length byte][value bytes] */
static void put_get(const uint8_t *d, size_t n) {
    if (n < 3) return;
    SQLSMALLINT ct = CTYPES[d[0] % NCTYPES];
    if (ct == SQL_C_DEFAULT) ct = SQL_C_CHAR;
    int mode = d[1] % 4; /* 0: length, 1: SQL_NTS, 2: no indicator, 3: NULL */
    SQLLEN cap = d[2];
    d += 3, n -= 3;
    size_t fixed = ixo_ctype_size(ct);
    if (fixed && n < fixed) return;
    /* the value, NUL-terminated for the SQL_NTS forms: a zero UTF-16 unit
     * at an even place whatever n is */
    uint8_t *val = malloc(n + 4);
    if (!val) return;
    memcpy(val, d, n);
    memset(val + n, 0, 4);
    SQLLEN len = mode == 0 ? (SQLLEN)n : mode == 3 ? SQL_NULL_DATA : SQL_NTS;
    ixo_scratch s = {0}, s2 = {0};
    ixo_val v;
    ixo_cv cv = ixo_put(ct, val, (SQLLEN)n, len, mode != 2, &v, &s);
    if (cv == IXO_CV_OK || cv == IXO_CV_FRACTION)
        for (size_t i = 0; i < NCTYPES; i++)
            get_all(&v, CTYPES[i], cap, &s2);
    ixo_scratch_free(&s);
    ixo_scratch_free(&s2);
    free(val);
}

static void datetime(const uint8_t *d, size_t n) {
    ixo_val v;
    memset(&v, 0, sizeof v);
    if (!ixo_parse_dt((const char *)d, n, &v)) return;
    ixo_scratch s = {0};
    get_all(&v, SQL_C_CHAR, 32, &s);
    get_all(&v, SQL_C_TYPE_TIMESTAMP, 0, &s);
    ixo_scratch_free(&s);
}

static void utf(const uint8_t *d, size_t n) {
    SQLWCHAR *w = malloc((n ? n : 1) * sizeof *w);
    char *back = malloc(3 * n + 1);
    if (w && back) {
        long k = ixo_utf8_to_utf16((const char *)d, n, w, n);
        if (k > (long)n) abort();
        if (k >= 0) {
            long m = ixo_utf16_to_utf8(w, (size_t)k, back, 3 * n);
            if (m != (long)n || memcmp(back, d, n) != 0) abort();
        }
        /* the same bytes read as UTF-16 units */
        size_t units = n / sizeof(SQLWCHAR);
        memcpy(w, d, units * sizeof *w);
        if (ixo_utf16_to_utf8(w, units, back, 3 * n) > (long)(3 * n)) abort();
    }
    free(w);
    free(back);
}

static void routine_items(char (*items)[IXO_NAME_MAX], int n) {
    if (n < 0 || n > IXO_ROUTINE_MAX) abort();
    for (int k = 0; k < n; k++) {
        if (strnlen(items[k], IXO_NAME_MAX) >= IXO_NAME_MAX) abort();
        int ixtype, enclen;
        const char *type = strchr(items[k], ' '); /* "name type" */
        ixo_type_of(items[k], &ixtype, &enclen);
        if (type) ixo_type_of(type + 1, &ixtype, &enclen);
    }
}

static void routine(const uint8_t *d, size_t n) {
    char *text = malloc(n + 1);
    ixo_routine *rt = malloc(sizeof *rt);
    if (text && rt) {
        memcpy(text, d, n);
        text[n] = 0;
        ixo_routine_parse(text, rt);
        routine_items(rt->params, rt->nparams);
        routine_items(rt->rets, rt->nrets);
    }
    free(text);
    free(rt);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    const uint8_t *d = data + 1;
    size_t n = size - 1;
    switch (data[0] % 5) {
    case 0: keys(d, n); break;
    case 1: put_get(d, n); break;
    case 2: datetime(d, n); break;
    case 3: utf(d, n); break;
    default: routine(d, n); break;
    }
    return 0;
}
