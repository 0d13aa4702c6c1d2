/*
 * ixsql_width.c: widths in terminal cells for the aligned, vertical and
 * markdown layouts. Text is taken as UTF-8 (what ixd and a UTF-8 client
 * locale give); a character counts the cells wcwidth gives it when the
 * locale (LC_CTYPE, set from the environment in main) is UTF-8, else one.
 * A byte that does not start a valid UTF-8 sequence (a cut character, as
 * name[1,12] returns when byte 12 is inside one, or text in another
 * encoding) is printed as the four characters \xNN, so that the server's
 * bytes stay visible and the terminal never receives a lone lead byte;
 * it counts four cells. Control characters are printed as they are and
 * count no cell.
 */
#undef _POSIX_C_SOURCE
#define _XOPEN_SOURCE 700 /* wcwidth */
#include <langinfo.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <wchar.h>

#include "ixsql.h"

/* Cells of a byte printed as \xNN. */
enum { ESCAPE_CELLS = 4 };

/* Decodes the valid UTF-8 sequence at s (n > 0 bytes): its length, and its
 * code point in *cp; 0 when the bytes are not valid UTF-8 (overlong forms,
 * surrogates, code points above U+10FFFF, a sequence cut short). */
size_t ixsql_utf8_decode(const unsigned char *s, size_t n, unsigned *cp) {
    unsigned char c = s[0], lo = 0x80, hi = 0xBF;
    size_t k;
    if (c < 0x80) {
        *cp = c;
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        k = 2;
        *cp = c & 0x1Fu;
    } else if (c >= 0xE0 && c <= 0xEF) {
        k = 3;
        *cp = c & 0x0Fu;
        if (c == 0xE0) lo = 0xA0;
        if (c == 0xED) hi = 0x9F;
    } else if (c >= 0xF0 && c <= 0xF4) {
        k = 4;
        *cp = c & 0x07u;
        if (c == 0xF0) lo = 0x90;
        if (c == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    if (n < k || s[1] < lo || s[1] > hi) return 0;
    for (size_t i = 1; i < k; i++) {
        if ((s[i] & 0xC0) != 0x80) return 0;
        *cp = (*cp << 6) | (s[i] & 0x3Fu);
    }
    return k;
}

static int locale_is_utf8(void) {
    static int known = -1;
    if (known < 0) {
        const char *cs = nl_langinfo(CODESET);
        known = cs && (strcasecmp(cs, "UTF-8") == 0 || strcasecmp(cs, "utf8") == 0);
    }
    return known;
}

/* Cells of code point cp. */
static int char_cells(unsigned cp) {
    if (cp < 0x20 || cp == 0x7F) return 0;
    if (cp < 0x7F) return 1;
    if (!locale_is_utf8()) return 1;
    int w = wcwidth((wchar_t)cp);
    if (w < 0) return cp >= 0x80 && cp < 0xA0 ? 0 : 1; /* C1 controls; unassigned */
    return w;
}

/* The next unit of text at s: a character (its length, *cells) or a byte
 * to escape (length 1, *cells ESCAPE_CELLS, *bad set). */
static size_t next_unit(const unsigned char *s, size_t n, int *cells, int *bad) {
    unsigned cp;
    size_t k = ixsql_utf8_decode(s, n, &cp);
    *bad = k == 0;
    if (k == 0) {
        *cells = ESCAPE_CELLS;
        return 1;
    }
    *cells = char_cells(cp);
    return k;
}

int ixsql_text_width(const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    int total = 0, cells, bad;
    for (size_t i = 0; i < n;) {
        i += next_unit(p + i, n - i, &cells, &bad);
        total += cells;
    }
    return total;
}

size_t ixsql_text_fit(const char *s, size_t n, int cols, int *used) {
    const unsigned char *p = (const unsigned char *)s;
    int total = 0, cells, bad;
    size_t i = 0;
    while (i < n) {
        size_t k = next_unit(p + i, n - i, &cells, &bad);
        if (total + cells > cols) break;
        total += cells;
        i += k;
    }
    if (used) *used = total;
    return i;
}

void ixsql_put_text(const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    int cells, bad;
    size_t i = 0, run = 0; /* bytes [run, i) are valid and not yet written */
    while (i < n) {
        size_t k = next_unit(p + i, n - i, &cells, &bad);
        if (bad) {
            fwrite(s + run, 1, i - run, stdout);
            printf("\\x%02X", p[i]);
            run = i + 1;
        }
        i += k;
    }
    fwrite(s + run, 1, n - run, stdout);
}
