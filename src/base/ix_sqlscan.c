/* ix_sqlscan.c: the SQL tokenizer (ix_sqlscan.h). */
#include "ix_sqlscan.h"

#include <string.h>
#include <strings.h>

static int is_blank(char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

static int is_digit(char c) {
    return c >= '0' && c <= '9';
}

static int word_start(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == '$' ||
           (unsigned char)c >= 0x80;
}

static int dotted(char c, int flags) {
    return c == '.' && (flags & IXB_SCAN_DOTTED);
}

static int word_char(char c, int flags) {
    return word_start(c) || is_digit(c) || dotted(c, flags);
}

/* Past the comment that starts at s[i] (the caller checked it does), or n
 * with *open set when it is not closed. */
static size_t skip_comment(const char *s, size_t n, size_t i, int *open) {
    if (s[i] == '-') {
        while (i < n && s[i] != '\n')
            i++;
        return i; /* a line comment is closed by the end of the text too */
    }
    if (s[i] == '{') {
        const char *e = memchr(s + i, '}', n - i);
        if (e) return (size_t)(e - s) + 1;
    } else {
        for (i += 2; i + 1 < n; i++)
            if (s[i] == '*' && s[i + 1] == '/') return i + 2;
    }
    *open = 1;
    return n;
}

static int comment_at(const char *s, size_t n, size_t i) {
    return s[i] == '{' ||
           (i + 1 < n && ((s[i] == '-' && s[i + 1] == '-') || (s[i] == '/' && s[i + 1] == '*')));
}

/* Past the string that opens at s[i]: a doubled quote stays inside. */
static size_t skip_string(const char *s, size_t n, size_t i, int *open) {
    char q = s[i];
    for (i++; i < n; i++) {
        if (s[i] != q) continue;
        if (i + 1 < n && s[i + 1] == q) {
            i++;
            continue;
        }
        return i + 1;
    }
    *open = 1;
    return n;
}

ixb_tok_kind ixb_sql_next(const char *s, size_t n, size_t *i, int flags, ixb_tok *t) {
    size_t k = *i;
    t->open = 0;
    while (k < n && (is_blank(s[k]) || comment_at(s, n, k)))
        k = is_blank(s[k]) ? k + 1 : skip_comment(s, n, k, &t->open);
    t->p = s + k;
    if (k >= n) {
        t->kind = IXB_TOK_END;
        t->n = 0;
        *i = n;
        return t->kind;
    }
    size_t b = k;
    char c = s[k];
    if (c == '\'' || c == '"') {
        t->kind = IXB_TOK_STRING;
        k = skip_string(s, n, k, &t->open);
    } else if (word_start(c) || is_digit(c) || dotted(c, flags)) {
        t->kind = is_digit(c) ? IXB_TOK_NUMBER : IXB_TOK_WORD;
        while (k < n && word_char(s[k], flags))
            k++;
    } else {
        t->kind = c == '?' ? IXB_TOK_PARAM : IXB_TOK_PUNCT;
        k++;
    }
    t->n = k - b;
    *i = k;
    return t->kind;
}

int ixb_tok_is(const ixb_tok *t, const char *kw) {
    return t->kind == IXB_TOK_WORD && t->n == strlen(kw) && strncasecmp(t->p, kw, t->n) == 0;
}

int ixb_sql_words(const char *s, size_t n, ixb_tok *w, int k) {
    size_t i = 0;
    int got = 0;
    while (got < k && ixb_sql_next(s, n, &i, 0, &w[got]) == IXB_TOK_WORD)
        got++;
    for (int j = got; j < k; j++)
        w[j] = (ixb_tok){IXB_TOK_END, s + n, 0, 0};
    return got;
}
