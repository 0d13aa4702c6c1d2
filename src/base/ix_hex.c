/* ix_hex.c: hexadecimal text <-> bytes. */
#include "ix_hex.h"

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int ixb_hex_decode(const char *s, size_t n, ixb_wbuf *out, size_t *bad_at) {
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r'))
        i++;
    if (i + 1 < n && s[i] == '0' && (s[i + 1] == 'x' || s[i + 1] == 'X')) i += 2;
    int hi = -1;
    for (; i < n; i++) {
        int c = (unsigned char)s[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == ':' || c == '_') {
            if (hi >= 0) goto bad;
            continue;
        }
        int v = hexval(c);
        if (v < 0) goto bad;
        if (hi < 0) {
            hi = v;
        } else {
            ixb_put_u8(out, (uint8_t)(hi << 4 | v));
            hi = -1;
        }
    }
    if (hi >= 0) goto bad;
    return out->err;
bad:
    if (bad_at) *bad_at = i;
    return IX_EINVAL;
}

void ixb_hex_encode(const uint8_t *p, size_t n, ixb_wbuf *out) {
    static const char digits[] = "0123456789abcdef";
    if (ixb_wbuf_reserve(out, 2 * n)) return;
    for (size_t i = 0; i < n; i++) {
        out->data[out->len++] = (uint8_t)digits[p[i] >> 4];
        out->data[out->len++] = (uint8_t)digits[p[i] & 15];
    }
}
