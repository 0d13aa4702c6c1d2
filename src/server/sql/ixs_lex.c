/* ixs_lex.c: the Informix SQL tokenizer and token helpers. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/sql/ixs_parse.h"

static int is_idstart(unsigned char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}
static int is_idchar(unsigned char c) {
    return is_idstart(c) || (c >= '0' && c <= '9') || c == '$';
}
static int is_digit(unsigned char c) {
    return c >= '0' && c <= '9';
}

/* 1 when the last token is SET, MULTISET or LIST: a '{' after it opens a
 * collection literal (SET{1, 2}), not a comment. */
static int coll_open(const px *p) {
    if (p->nt == 0 || p->t[p->nt - 1].k != T_ID) return 0;
    const tok *t = &p->t[p->nt - 1];
    static const char *const kw[] = {"set", "multiset", "list"};
    for (size_t k = 0; k < sizeof kw / sizeof kw[0]; k++)
        if ((size_t)t->len == strlen(kw[k]) && !strncasecmp(p->sql + t->pos, kw[k], strlen(kw[k])))
            return 1;
    return 0;
}

/* The tokenizer's position in the text and its counters. */
typedef struct {
    const char *s;
    size_t n, i;
    int cap, np, coll; /* coll: open collection braces */
} lexst;

/* Skips blanks and comments (-- line, { ... } unless a collection, / * ... * /). */
static int lex_blank(px *p, lexst *L) {
    const char *s = L->s;
    size_t n = L->n;
    for (;;) {
        while (L->i < n && (s[L->i] == ' ' || s[L->i] == '\t' || s[L->i] == '\n' ||
                            s[L->i] == '\r' || s[L->i] == '\f' || s[L->i] == '\v'))
            L->i++;
        size_t i = L->i;
        if (i + 1 < n && s[i] == '-' && s[i + 1] == '-') {
            while (L->i < n && s[L->i] != '\n')
                L->i++;
            continue;
        }
        if (i < n && s[i] == '{' && !coll_open(p)) {
            while (L->i < n && s[L->i] != '}')
                L->i++;
            if (L->i >= n) return ixv_seterr(p->err, IXV_E_SYNTAX, 0, (int)i, NULL);
            L->i++;
            continue;
        }
        if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
            L->i += 2;
            while (L->i + 1 < n && !(s[L->i] == '*' && s[L->i + 1] == '/'))
                L->i++;
            if (L->i + 1 >= n) return ixv_seterr(p->err, IXV_E_SYNTAX, 0, (int)i, NULL);
            L->i += 2;
            continue;
        }
        return 0;
    }
}

/* Makes room for one more token (and the EOF token after it). */
static int lex_grow(px *p, lexst *L) {
    if (p->nt + 1 < L->cap) return 0;
    if (L->cap >= IXS_MAX_TOKENS)
        return ixv_seterr(p->err, IXS_E_STMT_LONG, 0, (int)L->i, "more than %d tokens",
                          IXS_MAX_TOKENS);
    int nc = L->cap ? L->cap * 2 : 64;
    tok *nt = realloc(p->t, sizeof(tok) * (size_t)nc);
    if (!nt) return ixv_seterr(p->err, IXV_E_NOMEM, 0, 0, NULL);
    p->t = nt;
    L->cap = nc;
    return 0;
}

/* number = digits [ "." digits ] [ ("e"|"E") ["+"|"-"] digits ] | "." digits */
static void lex_number(lexst *L, tok *t) {
    const char *s = L->s;
    size_t n = L->n, i = L->i;
    int isnum = 0;
    while (i < n && is_digit((unsigned char)s[i]))
        i++;
    if (i < n && s[i] == '.') {
        isnum = 1;
        i++;
        while (i < n && is_digit((unsigned char)s[i]))
            i++;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < n && (s[j] == '+' || s[j] == '-')) j++;
        if (j < n && is_digit((unsigned char)s[j])) {
            isnum = 1;
            i = j;
            while (i < n && is_digit((unsigned char)s[i]))
                i++;
        }
    }
    L->i = i;
    t->k = isnum ? T_NUM : T_INT;
}

/* string = q { char | q q } q, q being ' or " */
static int lex_string(px *p, lexst *L, tok *t) {
    const char *s = L->s;
    size_t n = L->n, i = L->i;
    char q = s[i];
    i++;
    for (;;) {
        if (i >= n) return ixv_seterr(p->err, IXV_E_SYNTAX, 0, t->pos, NULL);
        if (s[i] == q) {
            if (i + 1 < n && s[i + 1] == q) {
                i += 2;
                continue;
            }
            i++;
            break;
        }
        i++;
    }
    L->i = i;
    t->k = T_STR;
    return 0;
}

/* A delimited identifier (DELIMIDENT): "name" with "" for a quote inside,
 * a T_ID that is no keyword; "" (no name) is -201 at it. */
static int lex_delim(px *p, lexst *L, tok *t) {
    if (lex_string(p, L, t)) return -1;
    if (L->i - (size_t)t->pos == 2) return ixv_seterr(p->err, IXV_E_SYNTAX, 0, t->pos, NULL);
    t->k = T_ID;
    t->kw = IXK_NONE;
    t->delim = 1;
    return 0;
}

/* An operator: || <= >= <> != == ::, a collection brace or one of ( ) , . ; * + - / = < > : [ ] @
 */
static int lex_op(px *p, lexst *L, tok *t) {
    static const char *ops2[] = {"||", "<=", ">=", "<>", "!=", "==", "::"};
    const char *s = L->s;
    unsigned char c = (unsigned char)s[L->i];
    t->k = T_OP;
    if (L->i + 1 < L->n)
        for (size_t k = 0; k < sizeof ops2 / sizeof ops2[0]; k++)
            if (s[L->i] == ops2[k][0] && s[L->i + 1] == ops2[k][1]) {
                L->i += 2;
                return 0;
            }
    if (c == '{' || (c == '}' && L->coll > 0)) {
        L->coll += c == '{' ? 1 : -1;
        L->i++;
        return 0;
    }
    if (!strchr("(),.;*+-/=<>:[]@", c)) return ixv_seterr(p->err, IXV_E_SYNTAX, 0, (int)L->i, NULL);
    L->i++;
    return 0;
}

/* One token at L->i: identifier or keyword, number, string, "?" or operator. */
static int lex_token(px *p, lexst *L, tok *t) {
    const char *s = L->s;
    unsigned char c = (unsigned char)s[L->i];
    if (c == 0) return ixv_seterr(p->err, IXV_E_SYNTAX, 0, (int)L->i, NULL);
    if (is_idstart(c)) {
        while (L->i < L->n && is_idchar((unsigned char)s[L->i]))
            L->i++;
        t->k = T_ID;
        t->kw = ixs_kw_code(s + t->pos, L->i - (size_t)t->pos);
        return 0;
    }
    if (is_digit(c) || (c == '.' && L->i + 1 < L->n && is_digit((unsigned char)s[L->i + 1]))) {
        lex_number(L, t);
        return 0;
    }
    if (c == '"' && p->db && p->db->delimident) return lex_delim(p, L, t);
    if (c == '\'' || c == '"') return lex_string(p, L, t);
    if (c == '?') {
        L->i++;
        t->k = T_PARAM;
        t->pidx = L->np++;
        if (L->np > IXS_MAX_PARAMS) return ixv_seterr(p->err, IXV_E_SYNTAX, 0, t->pos, NULL);
        return 0;
    }
    return lex_op(p, L, t);
}

/* Splits p->sql into p->t (ending with a T_EOF token); parameters are numbered in order. */
int ixs_lex(px *p) {
    lexst L = {.s = p->sql, .n = p->n};
    for (;;) {
        int r = lex_blank(p, &L);
        if (!r) r = lex_grow(p, &L);
        if (r) return r;
        tok *t = &p->t[p->nt];
        memset(t, 0, sizeof *t);
        t->pos = (int)L.i;
        if (L.i >= L.n) {
            t->k = T_EOF;
            return 0;
        }
        r = lex_token(p, &L, t);
        if (r) return r;
        t->len = (int)L.i - t->pos;
        p->nt++;
    }
}

int ixs_px_kw(px *p, int i, int kw) {
    return i < p->nt && p->t[i].k == T_ID && p->t[i].kw == kw;
}
int ixs_px_kw_str(px *p, int i, const char *kw) {
    if (i >= p->nt) return 0;
    const tok *t = &p->t[i];
    if (t->k != T_ID) return 0;
    size_t l = strlen(kw);
    return (size_t)t->len == l && strncasecmp(p->sql + t->pos, kw, l) == 0;
}
int ixs_px_acc_str(px *p, const char *kw) {
    if (ixs_px_kw_str(p, p->i, kw)) {
        p->i++;
        return 1;
    }
    return 0;
}
int ixs_px_is_clause_kw(px *p, int i) {
    /* words that start or join the clauses of a statement: never a column */
    static const char *const kw[] = {"select", "from", "where",     "group",  "order", "having",
                                     "union",  "into", "intersect", "except", "minus", "values",
                                     "join",   "on",   "by",        "and",    "or",    "then",
                                     "else",   "when", "as",        NULL};
    for (int k = 0; kw[k]; k++)
        if (ixs_px_kw_str(p, i, kw[k])) return 1;
    return 0;
}
int ixs_px_acc(px *p, int kw) {
    if (ixs_px_kw(p, p->i, kw)) {
        p->i++;
        return 1;
    }
    return 0;
}
int ixs_px_op(px *p, int i, const char *op) {
    if (i >= p->nt) return 0;
    const tok *t = &p->t[i];
    size_t l = strlen(op);
    return t->k == T_OP && (size_t)t->len == l && memcmp(p->sql + t->pos, op, l) == 0;
}
int ixs_px_acc_op(px *p, const char *op) {
    if (ixs_px_op(p, p->i, op)) {
        p->i++;
        return 1;
    }
    return 0;
}
int ixs_px_err_pos(const px *p) {
    int i = p->at ? p->at - 1 : p->i;
    return i < p->nt ? p->t[i].pos : (int)p->n;
}
void ixs_px_at(px *p, int at) {
    p->at = at + 1;
}
void ixs_px_at_cursor(px *p) {
    p->at = 0;
}
int ixs_px_fail(px *p) {
    if (p->failed) return -1;
    p->failed = 1;
    return ixv_seterr(p->err, IXV_E_SYNTAX, 0, ixs_px_err_pos(p), NULL);
}
int ixs_px_fail_at(px *p, int at) {
    ixs_px_at(p, at);
    return ixs_px_fail(p);
}
int ixs_px_failc(px *p, int code, const char *fmt, ...) {
    if (p->failed) return -1;
    p->failed = 1;
    va_list ap;
    va_start(ap, fmt);
    ixv_vseterr(p->err, code, 0, 0, fmt, ap);
    va_end(ap);
    return -1;
}
int ixs_px_expect(px *p, int kw) {
    if (ixs_px_acc(p, kw)) return 0;
    return ixs_px_fail(p);
}
int ixs_px_expect_op(px *p, const char *op) {
    if (ixs_px_acc_op(p, op)) return 0;
    return ixs_px_fail(p);
}
int ixs_px_is_ident(px *p, int i) {
    return i < p->nt && p->t[i].k == T_ID;
}
/* The name token i holds into buf of n bytes: an identifier lower-cased, a
 * delimited one as written. 0, or -1 (nothing set) when it is longer than a
 * name or than buf, or holds a NUL. */
int ixs_px_ident_peek(px *p, int i, char *buf, size_t n) {
    const tok *t = &p->t[i];
    buf[0] = 0;
    if (t->delim) {
        sb b = {0};
        ixs_px_tokstr(p, i, &b);
        int bad = b.oom || b.n == 0 || b.n > IXS_NAME_MAX || b.n >= n || strlen(b.p) != b.n;
        if (!bad) memcpy(buf, b.p, b.n + 1);
        ixv_sb_free(&b);
        return bad ? -1 : 0;
    }
    if ((size_t)t->len >= n || t->len > IXS_NAME_MAX) return -1;
    for (int k = 0; k < t->len; k++) {
        char c = p->sql[t->pos + k];
        buf[k] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    buf[t->len] = 0;
    return 0;
}
int ixs_px_is_name(px *p, int i) {
    return ixs_px_is_ident(p, i) || (i < p->nt && p->t[i].k == T_STR && p->sql[p->t[i].pos] == '"');
}
int ixs_px_newname(px *p, char *buf, size_t n) {
    if (ixs_px_ident(p, buf, n)) return -1;
    if (ixv_internal_name(buf)) return ixs_px_failc(p, IXS_E_CATALOG_MODIFY, "%s", buf);
    return 0;
}
int ixs_px_ident(px *p, char *buf, size_t n) {
    if (!ixs_px_is_ident(p, p->i)) {
        /* "quoted" identifiers are strings in Informix without DELIMIDENT;
         * accept them as names too */
        if (p->i < p->nt && p->t[p->i].k == T_STR && p->sql[p->t[p->i].pos] == '"') {
            sb b = {0};
            ixs_px_tokstr(p, p->i, &b);
            if (b.oom || b.n == 0 || b.n > IXS_NAME_MAX) {
                ixv_sb_free(&b);
                return ixs_px_fail(p);
            }
            snprintf(buf, n, "%s", b.p);
            ixv_sb_free(&b);
            p->i++;
            return 0;
        }
        return ixs_px_fail(p);
    }
    if (ixs_px_ident_peek(p, p->i, buf, n)) return ixs_px_fail(p);
    p->i++;
    return 0;
}
int ixs_px_ident_at(px *p, int i, char *buf, size_t n) {
    if (ixs_px_ident_peek(p, i, buf, n)) return ixs_px_fail_at(p, i);
    return 0;
}
void ixs_px_tokstr(px *p, int i, sb *out) {
    const tok *t = &p->t[i];
    const char *s = p->sql + t->pos;
    char q = s[0];
    for (int k = 1; k < t->len - 1; k++) {
        if (s[k] == q && k + 1 < t->len - 1 && s[k + 1] == q) k++;
        ixv_sb_addc(out, s[k]);
    }
    if (!out->p) ixv_sb_addn(out, "", 0);
}
int ixs_px_int(px *p, int64_t *v) {
    int neg = 0;
    if (ixs_px_acc_op(p, "-"))
        neg = 1;
    else
        ixs_px_acc_op(p, "+");
    if (p->i >= p->nt || p->t[p->i].k != T_INT) return ixs_px_fail(p);
    const tok *t = &p->t[p->i];
    int64_t x = 0;
    for (int k = 0; k < t->len; k++) {
        int d = p->sql[t->pos + k] - '0';
        if (x > (INT64_MAX - d) / 10) return ixs_px_fail(p);
        x = x * 10 + d;
    }
    p->i++;
    *v = neg ? -x : x;
    return 0;
}
