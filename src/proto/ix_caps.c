/* ix_caps.c: SQLI capability bits. */
#include "ix_caps.h"

#include <stdlib.h>
#include <string.h>

const ixp_caps ixp_caps_ixd = {.f54 = 1, .f62 = 1, .f63 = 1};

const uint8_t ixp_caps_jdbc_offer[9] = {0xff, 0xfc, 0x7f, 0xfc, 0x3c, 0x8c, 0xaa, 0x97, 0x06};

int ixp_caps_bit(const uint8_t *bits, size_t n, int f) {
    size_t byte = (size_t)f / 8;
    return byte < n && (bits[byte] & (0x80 >> (f % 8))) != 0;
}

ixp_caps ixp_caps_from_bits(const uint8_t *bits, size_t n) {
    ixp_caps c;
    c.f44 = (uint8_t)ixp_caps_bit(bits, n, 44);
    c.f54 = (uint8_t)ixp_caps_bit(bits, n, 54);
    c.f62 = (uint8_t)ixp_caps_bit(bits, n, 62);
    c.f63 = (uint8_t)ixp_caps_bit(bits, n, 63);
    c.f69 = (uint8_t)ixp_caps_bit(bits, n, 69);
    c.f70 = (uint8_t)ixp_caps_bit(bits, n, 70);
    return c;
}

static void set_bit(uint8_t *bits, int f) {
    bits[f / 8] |= (uint8_t)(0x80 >> (f % 8));
}

ixp_caps ixp_caps_answer(const uint8_t *offer, size_t n, ixp_caps impl,
                         uint8_t out[IXP_CAPS_ANSWER_LEN]) {
    memset(out, 0, IXP_CAPS_ANSWER_LEN);
    for (size_t i = 0; i < 5 && i < n; i++)
        out[i] = offer[i];
    ixp_caps off = ixp_caps_from_bits(offer, n), g;
    g.f44 = impl.f44 && off.f44;
    g.f54 = impl.f54 && off.f54;
    g.f62 = impl.f62 && off.f62;
    g.f63 = impl.f63 && off.f63;
    g.f69 = impl.f69 && off.f69;
    g.f70 = impl.f70 && off.f70;
    if (g.f44) set_bit(out, 44);
    if (g.f54) set_bit(out, 54);
    if (g.f62) set_bit(out, 62);
    if (g.f63) set_bit(out, 63);
    if (g.f69) set_bit(out, 69);
    if (g.f70) set_bit(out, 70);
    return g;
}

int ixp_caps_parse_list(const char *s, ixp_caps *out) {
    memset(out, 0, sizeof *out);
    if (!s || !*s || strcmp(s, "none") == 0) return 0;
    if (strcmp(s, "all") == 0) {
        out->f44 = out->f54 = out->f62 = out->f63 = out->f69 = out->f70 = 1;
        return 0;
    }
    while (*s) {
        while (*s == ',' || *s == ' ')
            s++;
        if (!*s) break;
        if (*s == 'f' || *s == 'F') s++;
        char *end;
        long f = strtol(s, &end, 10);
        if (end == s) return -1;
        switch (f) {
        case 44: out->f44 = 1; break;
        case 54: out->f54 = 1; break;
        case 62: out->f62 = 1; break;
        case 63: out->f63 = 1; break;
        case 69: out->f69 = 1; break;
        case 70: out->f70 = 1; break;
        default: return -1;
        }
        s = end;
    }
    return 0;
}
