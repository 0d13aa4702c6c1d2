/* ixv_lob.c: the values of BLOB and CLOB columns (ixv.h): the type
 * helpers, a tuple or bind value (the UDT envelope around the 72-byte
 * handle) to its SQLite value (the LO id) and back, LOB to LOB, and a
 * string of hex digits naming a handle. */
#include <string.h>

#include "proto/ix_lob.h"
#include "server/value/ixv.h"

int ixv_lob_is(int code) {
    return code == IX_T_BLOB || code == IX_T_CLOB;
}
int ixv_lob_xid(int code) {
    return code == IX_T_CLOB ? IXP_LO_XID_CLOB : IXP_LO_XID_BLOB;
}
int ixv_lob_code(int xid) {
    return xid == IXP_LO_XID_CLOB ? IX_T_CLOB : IX_T_BLOB;
}

int ixv_lob_tuple_to_sval(ityp t, const uint8_t *p, size_t n, sval *out) {
    (void)t;
    memset(out, 0, sizeof *out);
    int is_null = 0;
    ixp_locator l;
    size_t used = 0;
    if (ixp_lob_tuple_decode(p, n, &is_null, &l, &used) != IX_OK || used != n) return IXV_E_CONVERT;
    out->kind = is_null ? SQLITE_NULL : SQLITE_INTEGER;
    out->i = is_null ? 0 : l.id;
    return 0;
}

int ixv_lob_sval_to_tuple(ityp t, const sval *v, ixb_wbuf *out) {
    if (v->kind == SQLITE_NULL) {
        ixp_lob_tuple_encode(out, NULL);
        return 0;
    }
    if (v->kind != SQLITE_INTEGER || v->i <= 0) return IXV_E_NO_CAST;
    ixp_locator l = {ixv_lob_xid(t.code), v->i};
    ixp_lob_tuple_encode(out, &l);
    return 0;
}

int ixv_lob_convert(ityp from, const sval *v, ityp to, sval *out) {
    memset(out, 0, sizeof *out);
    if (v->kind == SQLITE_NULL) return 0;
    if (!ixv_lob_is(from.code) || !ixv_lob_is(to.code) || v->kind != SQLITE_INTEGER)
        return IXV_E_NO_CAST;
    *out = *v;
    out->own = NULL;
    return 0;
}

/* The value of hex digit c, or -1. */
static int hex_digit(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int ixv_lob_text_to_sval(ityp t, const char *s, size_t n, sval *out) {
    (void)t;
    memset(out, 0, sizeof *out);
    if (n != IXV_LO_HEX_LEN) return IXV_E_NO_CAST;
    uint8_t h[IXP_LOCATOR_LEN];
    for (size_t i = 0; i < IXP_LOCATOR_LEN; i++) {
        int hi = hex_digit((unsigned char)s[2 * i]), lo = hex_digit((unsigned char)s[2 * i + 1]);
        if (hi < 0 || lo < 0) return IXV_E_NO_CAST;
        h[i] = (uint8_t)(hi << 4 | lo);
    }
    ixp_locator l;
    if (ixp_locator_decode(h, sizeof h, &l) != IX_OK) return IXV_E_NO_CAST;
    out->kind = SQLITE_INTEGER;
    out->i = l.id;
    return 0;
}
