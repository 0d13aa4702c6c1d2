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

int ixs_lex(px *p) {
    const char *s = p->sql;
    size_t n = p->n, i = 0;
    int cap = 0, np = 0, coll = 0; /* coll: open collection braces */
    for (;;) {
        /* blanks and comments */
        for (;;) {
            while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '\n' || s[i] == '\r' ||
                             s[i] == '\f' || s[i] == '\v'))
                i++;
            if (i + 1 < n && s[i] == '-' && s[i + 1] == '-') {
                while (i < n && s[i] != '\n')
                    i++;
                continue;
            }
            if (i < n && s[i] == '{' && !coll_open(p)) {
                size_t st = i;
                while (i < n && s[i] != '}')
                    i++;
                if (i >= n) return ixd_seterr(p->err, -201, 0, (int)st, NULL);
                i++;
                continue;
            }
            if (i + 1 < n && s[i] == '/' && s[i + 1] == '*') {
                size_t st = i;
                i += 2;
                while (i + 1 < n && !(s[i] == '*' && s[i + 1] == '/'))
                    i++;
                if (i + 1 >= n) return ixd_seterr(p->err, -201, 0, (int)st, NULL);
                i += 2;
                continue;
            }
            break;
        }
        if (p->nt + 1 >= cap) {
            if (cap >= IXS_MAX_TOKENS) return ixd_seterr(p->err, -201, 0, (int)i, NULL);
            int nc = cap ? cap * 2 : 64;
            tok *nt = realloc(p->t, sizeof(tok) * (size_t)nc);
            if (!nt) return ixd_seterr(p->err, -208, 0, 0, NULL);
            p->t = nt;
            cap = nc;
        }
        tok *t = &p->t[p->nt];
        memset(t, 0, sizeof *t);
        t->pos = (int)i;
        if (i >= n) {
            t->k = T_EOF;
            return 0;
        }
        unsigned char c = (unsigned char)s[i];
        if (c == 0) return ixd_seterr(p->err, -201, 0, (int)i, NULL);
        if (is_idstart(c)) {
            while (i < n && is_idchar((unsigned char)s[i]))
                i++;
            t->k = T_ID;
            t->kw = ixs_kw_code(s + t->pos, i - (size_t)t->pos);
        } else if (is_digit(c) || (c == '.' && i + 1 < n && is_digit((unsigned char)s[i + 1]))) {
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
            t->k = isnum ? T_NUM : T_INT;
        } else if (c == '\'' || c == '"') {
            char q = (char)c;
            i++;
            for (;;) {
                if (i >= n) return ixd_seterr(p->err, -201, 0, t->pos, NULL);
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
            t->k = T_STR;
        } else if (c == '?') {
            i++;
            t->k = T_PARAM;
            t->pidx = np++;
            if (np > IXS_MAX_PARAMS) return ixd_seterr(p->err, -201, 0, t->pos, NULL);
        } else {
            static const char *ops2[] = {"||", "<=", ">=", "<>", "!=", "==", "::"};
            t->k = T_OP;
            int done = 0;
            if (i + 1 < n)
                for (size_t k = 0; k < sizeof ops2 / sizeof ops2[0]; k++)
                    if (s[i] == ops2[k][0] && s[i + 1] == ops2[k][1]) {
                        i += 2;
                        done = 1;
                        break;
                    }
            if (!done && (c == '{' || (c == '}' && coll > 0))) {
                coll += c == '{' ? 1 : -1;
                i++;
                done = 1;
            }
            if (!done) {
                if (!strchr("(),.;*+-/=<>:[]@", c))
                    return ixd_seterr(p->err, -201, 0, (int)i, NULL);
                i++;
            }
        }
        t->len = (int)i - t->pos;
        p->nt++;
    }
}

int px_kw(px *p, int i, int kw) {
    return i < p->nt && p->t[i].k == T_ID && p->t[i].kw == kw;
}
int px_kw_str(px *p, int i, const char *kw) {
    if (i >= p->nt) return 0;
    const tok *t = &p->t[i];
    if (t->k != T_ID) return 0;
    size_t l = strlen(kw);
    return (size_t)t->len == l && strncasecmp(p->sql + t->pos, kw, l) == 0;
}
int px_acc_str(px *p, const char *kw) {
    if (px_kw_str(p, p->i, kw)) {
        p->i++;
        return 1;
    }
    return 0;
}
int px_is_clause_kw(px *p, int i) {
    /* words that start or join the clauses of a statement: never a column */
    static const char *const kw[] = {"select", "from", "where",     "group",  "order", "having",
                                     "union",  "into", "intersect", "except", "minus", "values",
                                     "join",   "on",   "by",        "and",    "or",    "then",
                                     "else",   "when", "as",        NULL};
    for (int k = 0; kw[k]; k++)
        if (px_kw_str(p, i, kw[k])) return 1;
    return 0;
}
int px_acc(px *p, int kw) {
    if (px_kw(p, p->i, kw)) {
        p->i++;
        return 1;
    }
    return 0;
}
int px_op(px *p, int i, const char *op) {
    if (i >= p->nt) return 0;
    const tok *t = &p->t[i];
    size_t l = strlen(op);
    return t->k == T_OP && (size_t)t->len == l && memcmp(p->sql + t->pos, op, l) == 0;
}
int px_acc_op(px *p, const char *op) {
    if (px_op(p, p->i, op)) {
        p->i++;
        return 1;
    }
    return 0;
}
int px_fail(px *p) {
    if (p->failed) return -1;
    p->failed = 1;
    int pos = p->i < p->nt ? p->t[p->i].pos : (int)p->n;
    return ixd_seterr(p->err, -201, 0, pos, NULL);
}
int px_failc(px *p, int code, const char *fmt, ...) {
    if (p->failed) return -1;
    p->failed = 1;
    p->err->sqlcode = code;
    p->err->isamcode = 0;
    p->err->offset = 0;
    p->err->text[0] = 0;
    if (fmt) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(p->err->text, sizeof p->err->text, fmt, ap);
        va_end(ap);
    }
    return -1;
}
int px_expect(px *p, int kw) {
    if (px_acc(p, kw)) return 0;
    return px_fail(p);
}
int px_expect_op(px *p, const char *op) {
    if (px_acc_op(p, op)) return 0;
    return px_fail(p);
}
int px_is_ident(px *p, int i) {
    return i < p->nt && p->t[i].k == T_ID;
}
int px_is_name(px *p, int i) {
    return px_is_ident(p, i) || (i < p->nt && p->t[i].k == T_STR && p->sql[p->t[i].pos] == '"');
}
int px_newname(px *p, char *buf, size_t n) {
    if (px_ident(p, buf, n)) return -1;
    if (ixs_internal_name(buf)) return px_failc(p, IXS_E_CATALOG_MODIFY, "%s", buf);
    return 0;
}
int px_ident(px *p, char *buf, size_t n) {
    if (!px_is_ident(p, p->i)) {
        /* "quoted" identifiers are strings in Informix without DELIMIDENT;
         * accept them as names too */
        if (p->i < p->nt && p->t[p->i].k == T_STR && p->sql[p->t[p->i].pos] == '"') {
            sb b = {0};
            px_tokstr(p, p->i, &b);
            if (b.oom || b.n == 0 || b.n > IXS_NAME_MAX) {
                sb_free(&b);
                return px_fail(p);
            }
            snprintf(buf, n, "%s", b.p);
            sb_free(&b);
            p->i++;
            return 0;
        }
        return px_fail(p);
    }
    const tok *t = &p->t[p->i];
    if ((size_t)t->len >= n || t->len > IXS_NAME_MAX) return px_fail(p);
    for (int k = 0; k < t->len; k++) {
        char c = p->sql[t->pos + k];
        buf[k] = (char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
    }
    buf[t->len] = 0;
    p->i++;
    return 0;
}
void px_tokstr(px *p, int i, sb *out) {
    const tok *t = &p->t[i];
    const char *s = p->sql + t->pos;
    char q = s[0];
    for (int k = 1; k < t->len - 1; k++) {
        if (s[k] == q && k + 1 < t->len - 1 && s[k + 1] == q) k++;
        sb_addc(out, s[k]);
    }
    if (!out->p) sb_addn(out, "", 0);
}
int px_int(px *p, int64_t *v) {
    int neg = 0;
    if (px_acc_op(p, "-"))
        neg = 1;
    else
        px_acc_op(p, "+");
    if (p->i >= p->nt || p->t[p->i].k != T_INT) return px_fail(p);
    const tok *t = &p->t[p->i];
    int64_t x = 0;
    for (int k = 0; k < t->len; k++) {
        int d = p->sql[t->pos + k] - '0';
        if (x > (INT64_MAX - d) / 10) return px_fail(p);
        x = x * 10 + d;
    }
    p->i++;
    *v = neg ? -x : x;
    return 0;
}
