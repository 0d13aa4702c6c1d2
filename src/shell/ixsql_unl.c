/*
 * ixsql_unl.c: the UNL codec of LOAD / UNLOAD (rules in ixsql_unl.h and
 * docs/ixsql.md "LOAD and UNLOAD").
 */
#include "ixsql_unl.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

enum { ESC = '\\', EMPTY_MARK = ' ' };

static int hex_setting; /* -X */

void ixsql_unl_set_hex(int on) {
    hex_setting = on != 0;
}

int ixsql_unl_hex(void) {
    return hex_setting;
}

int ixsql_unl_valid_delim(int c) {
    return c > 0 && c < 0x80 && c != '\n' && c != ESC && !isxdigit(c);
}

char ixsql_unl_default_delim(void) {
    const char *e = getenv("DBDELIMITER");
    if (e && ixsql_unl_valid_delim((unsigned char)e[0])) return e[0];
    return '|';
}

int ixsql_buf_add(ixsql_buf *b, const void *s, size_t n) {
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->p, cap);
        if (!p) return -1;
        b->p = p;
        b->cap = cap;
    }
    if (n) memcpy(b->p + b->len, s, n);
    b->len += n;
    b->p[b->len] = 0;
    return 0;
}

void ixsql_buf_free(ixsql_buf *b) {
    free(b->p);
    b->p = NULL;
    b->len = b->cap = 0;
}

static int add_byte(ixsql_buf *b, char c) {
    return ixsql_buf_add(b, &c, 1);
}

static const char HEXDIGITS[] = "0123456789abcdef";

/* A control byte written as \xNN in hex-escape mode (newline keeps its
 * backslash form; the delimiter is escaped as itself). */
static int hex_worthy(unsigned char c) {
    return (c < 0x20 && c != '\n') || c == 0x7f;
}

int ixsql_unl_put_text(ixsql_buf *b, const char *s, size_t n, char delim, int hex) {
    if (n == 0) {
        char e[3] = {ESC, EMPTY_MARK, delim};
        return ixsql_buf_add(b, e, 3);
    }
    size_t run = 0; /* bytes copied as they are, in one go */
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        int esc = c == (unsigned char)delim || c == ESC || c == '\n';
        int hx = !esc && hex && hex_worthy(c);
        if (!esc && !hx) continue;
        if (ixsql_buf_add(b, s + run, i - run) != 0) return -1;
        run = i + 1;
        if (hx) {
            char e[4] = {ESC, 'x', HEXDIGITS[c >> 4], HEXDIGITS[c & 15]};
            if (ixsql_buf_add(b, e, 4) != 0) return -1;
        } else {
            char e[2] = {ESC, (char)c};
            if (ixsql_buf_add(b, e, 2) != 0) return -1;
        }
    }
    if (ixsql_buf_add(b, s + run, n - run) != 0) return -1;
    return add_byte(b, delim);
}

int ixsql_unl_put_hex(ixsql_buf *b, const void *p, size_t n, char delim) {
    const unsigned char *u = p;
    char chunk[256];
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        chunk[k++] = HEXDIGITS[u[i] >> 4];
        chunk[k++] = HEXDIGITS[u[i] & 15];
        if (k == sizeof chunk) {
            if (ixsql_buf_add(b, chunk, k) != 0) return -1;
            k = 0;
        }
    }
    if (ixsql_buf_add(b, chunk, k) != 0) return -1;
    return add_byte(b, delim);
}

int ixsql_unl_put_null(ixsql_buf *b, char delim) {
    return add_byte(b, delim);
}

/* 1 if the line (n bytes, ending in '\n') ends in an escaped newline: an
 * odd number of backslashes before it. */
static int newline_escaped(const char *s, size_t n) {
    size_t k = 0;
    while (k + 1 < n && s[n - 2 - k] == ESC)
        k++;
    return k % 2 == 1;
}

static int add_field(ixsql_unl_rec *r, size_t start, size_t end) {
    if (r->nfields == r->cap) {
        int cap = r->cap ? r->cap * 2 : 16;
        size_t *s = realloc(r->start, (size_t)cap * sizeof *s);
        if (!s) return -1;
        r->start = s;
        size_t *e = realloc(r->end, (size_t)cap * sizeof *e);
        if (!e) return -1;
        r->end = e;
        r->cap = cap;
    }
    r->start[r->nfields] = start;
    r->end[r->nfields++] = end;
    return 0;
}

/* Splits r->raw into fields at the delimiters that are not escaped. */
static int split(ixsql_unl_rec *r, char delim) {
    const char *p = r->raw.p;
    size_t n = r->raw.len, from = 0;
    r->nfields = 0;
    for (size_t i = 0; i < n; i++) {
        if (p[i] == ESC && i + 1 < n) {
            i++;
        } else if (p[i] == delim) {
            if (add_field(r, from, i) != 0) return -1;
            from = i + 1;
        }
    }
    /* What follows the last delimiter: nothing (or a CR) ends the record;
     * otherwise it is a last field without its delimiter. */
    int rest = n > from && !(n - from == 1 && p[from] == '\r');
    if (rest || r->nfields == 0) return add_field(r, from, n);
    return 0;
}

int ixsql_unl_read(FILE *f, ixsql_unl_rec *r, long *lineno, char delim) {
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int got = 0;
    r->raw.len = 0;
    r->line = *lineno + 1;
    while ((n = getline(&line, &cap, f)) > 0) {
        (*lineno)++;
        got = 1;
        size_t len = (size_t)n;
        int more = line[len - 1] == '\n' && newline_escaped(line, len);
        if (!more && line[len - 1] == '\n') len--;
        if (ixsql_buf_add(&r->raw, line, len) != 0) {
            free(line);
            return -1;
        }
        if (!more) break;
    }
    int err = ferror(f);
    free(line);
    if (err) return -1;
    if (!got) return 0;
    if (!r->raw.p && ixsql_buf_add(&r->raw, "", 0) != 0) return -1;
    return split(r, delim) == 0 ? 1 : -1;
}

void ixsql_unl_rec_free(ixsql_unl_rec *r) {
    ixsql_buf_free(&r->raw);
    free(r->start);
    free(r->end);
    memset(r, 0, sizeof *r);
}

int ixsql_unl_is_null(const ixsql_unl_rec *r, int k) {
    return r->start[k] == r->end[k];
}

static int hexval(int c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

int ixsql_unl_decode(const ixsql_unl_rec *r, int k, int hex, ixsql_buf *out) {
    const char *p = r->raw.p + r->start[k], *end = r->raw.p + r->end[k];
    if (end - p == 2 && p[0] == ESC && p[1] == EMPTY_MARK) return ixsql_buf_add(out, "", 0);
    const char *run = p;
    if (ixsql_buf_add(out, "", 0) != 0) return -1;
    while (p < end) {
        if (*p != ESC || p + 1 == end) {
            p++;
            continue;
        }
        if (ixsql_buf_add(out, run, (size_t)(p - run)) != 0) return -1;
        int hi, lo;
        if (hex && p[1] == 'x' && end - p >= 4 && (hi = hexval(p[2])) >= 0 &&
            (lo = hexval(p[3])) >= 0) {
            if (add_byte(out, (char)(hi << 4 | lo)) != 0) return -1;
            p += 4;
        } else {
            if (add_byte(out, p[1]) != 0) return -1;
            p += 2;
        }
        run = p;
    }
    return ixsql_buf_add(out, run, (size_t)(end - run));
}

int ixsql_unl_unhex(const ixsql_unl_rec *r, int k, ixsql_buf *out) {
    const char *p = r->raw.p + r->start[k];
    size_t n = r->end[k] - r->start[k];
    if (n % 2) return -2;
    if (ixsql_buf_add(out, "", 0) != 0) return -1;
    for (size_t i = 0; i < n; i += 2) {
        int hi = hexval(p[i]), lo = hexval(p[i + 1]);
        if (hi < 0 || lo < 0) return -2;
        if (add_byte(out, (char)(hi << 4 | lo)) != 0) return -1;
    }
    return 0;
}
