/* ixsql_lex.c: the word and string scanner of the statements ixsql runs
 * itself (LOAD SERIES, LOAD, UNLOAD, INFO). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ixsql.h"

int ixsql_lex_keyword(ixsql_lexer *lx, const char *kw) {
    lx->p = ixsql_skip_trivia(lx->p, lx->end);
    size_t n = strlen(kw);
    if ((size_t)(lx->end - lx->p) < n || strncasecmp(lx->p, kw, n) != 0) return 0;
    if (lx->p + n < lx->end && (isalnum((unsigned char)lx->p[n]) || lx->p[n] == '_')) return 0;
    lx->p += n;
    return 1;
}

char *ixsql_lex_string(ixsql_lexer *lx) {
    lx->p = ixsql_skip_trivia(lx->p, lx->end);
    if (lx->p >= lx->end || (*lx->p != '\'' && *lx->p != '"')) return NULL;
    char q = *lx->p++;
    char *s = malloc((size_t)(lx->end - lx->p) + 1);
    size_t n = 0;
    if (!s) return NULL;
    while (lx->p < lx->end) {
        if (*lx->p == q) {
            if (lx->p + 1 < lx->end && lx->p[1] == q) {
                s[n++] = q;
                lx->p += 2;
                continue;
            }
            lx->p++;
            s[n] = 0;
            return s;
        }
        s[n++] = *lx->p++;
    }
    free(s);
    return NULL;
}

ixsql_pos ixsql_pos_at(const char *sql, size_t off, ixsql_pos at) {
    for (size_t i = 0; i < off; i++) {
        if (sql[i] == '\n') {
            at.line++;
            at.col = 1;
        } else {
            at.col++;
        }
    }
    return at;
}

int ixsql_syntax_error(const char *sql, size_t off, ixsql_pos at) {
    enum { SQLCODE_SYNTAX = -201 };
    ixsql_pos p = ixsql_pos_at(sql, off, at);
    fflush(stdout);
    fprintf(stderr, "\n%5d: %s\nError in line %d\nNear character position %d\n", -SQLCODE_SYNTAX,
            ix_errtext(SQLCODE_SYNTAX), p.line, p.col);
    return IXSQL_FAILED;
}
