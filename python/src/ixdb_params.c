/*
 * ixdb_params.c: the numeric parameter style (":1", ":2", ... as
 * informix-driver takes them) rewritten into the qmark style libixdb binds
 * ("?"). The text is scanned with libixdb's rules for placeholders: quoted
 * strings and names ('...', "...", doubled quotes inside), comments
 * (-- to the end of the line, { ... }, / * ... * /) are copied unchanged.
 *
 * A marker is ':' followed by decimal digits, where the character before
 * the ':' cannot end a word or a number (so DATETIME (12:30) HOUR TO
 * MINUTE, INTERVAL (1:30) HOUR TO MINUTE, db:table and x::INT keep their
 * colons) and no letter or '_' follows the digits. Each marker becomes one
 * '?'; the number of the n-th marker is map[n], so ":1 ... :1" binds the
 * first value twice.
 */
#include <stdlib.h>
#include <string.h>

#include "ixdb_module.h"

/* The highest marker number accepted (far above any real statement). */
#define NUMERIC_MAX 32767

static int word_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || c == '@' || c == '.' || c == ':' || c == ')' || (unsigned char)c >= 0x80;
}

static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

/* Length of the quoted string, name or comment starting at s[i] (0 if none). */
static size_t skip_quoted(const char *s, size_t n, size_t i) {
    size_t j = i;
    char ch = s[i];
    if (ch == '\'' || ch == '"') {
        for (j++; j < n; j++)
            if (s[j] == ch) {
                if (j + 1 < n && s[j + 1] == ch)
                    j++;
                else
                    return j + 1 - i;
            }
        return n - i;
    }
    if (ch == '-' && i + 1 < n && s[i + 1] == '-') {
        while (j < n && s[j] != '\n')
            j++;
        return j - i;
    }
    if (ch == '{') {
        while (j < n && s[j] != '}')
            j++;
        return (j < n ? j + 1 : n) - i;
    }
    if (ch == '/' && i + 1 < n && s[i + 1] == '*') {
        for (j += 2; j + 1 < n && !(s[j] == '*' && s[j + 1] == '/'); j++) {
        }
        return (j + 1 < n ? j + 2 : n) - i;
    }
    return 0;
}

/* The marker at s[i] (a ':'): its number and length (0: not a marker). */
static size_t marker_at(const char *s, size_t n, size_t i, int *num) {
    if (i > 0 && word_char(s[i - 1])) return 0;
    size_t j = i + 1;
    long v = 0;
    while (j < n && is_digit(s[j])) {
        v = v * 10 + (s[j] - '0');
        if (v > NUMERIC_MAX) return 0;
        j++;
    }
    if (j == i + 1) return 0;
    if (j < n && (word_char(s[j]) && !(s[j] == ')' || s[j] == '.' || s[j] == ':'))) return 0;
    *num = (int)v;
    return j - i;
}

int ixpy_numeric_rewrite(const char *sql, size_t n, numeric_sql *out) {
    memset(out, 0, sizeof *out);
    if (!memchr(sql, ':', n)) return 0;
    char *text = malloc(n + 1);
    int *map = malloc(sizeof *map * (n / 2 + 1));
    if (!text || !map) {
        free(text);
        free(map);
        return -1;
    }
    size_t o = 0;
    int count = 0, qmarks = 0, top = 0;
    for (size_t i = 0; i < n;) {
        size_t q = skip_quoted(sql, n, i);
        int num;
        size_t m;
        if (q) {
            memcpy(text + o, sql + i, q);
            o += q;
            i += q;
        } else if (sql[i] == ':' && (m = marker_at(sql, n, i, &num)) > 0) {
            text[o++] = '?';
            map[count++] = num;
            if (num > top) top = num;
            i += m;
        } else {
            qmarks += sql[i] == '?';
            text[o++] = sql[i++];
        }
    }
    text[o] = 0;
    if (count == 0) {
        free(text);
        free(map);
        return 0;
    }
    out->text = text;
    out->len = o;
    out->map = map;
    out->count = count;
    out->top = top;
    out->qmarks = qmarks;
    return count;
}

void ixpy_numeric_free(numeric_sql *ns) {
    free(ns->text);
    free(ns->map);
    memset(ns, 0, sizeof *ns);
}
