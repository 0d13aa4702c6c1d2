/*
 * ix_complete.c: "does this text hold a complete statement?" for shells
 * (the counterpart of sqlite3_complete). A small state machine over the
 * bytes: a ';' counts only outside '...' and "..." strings (a doubled quote
 * stays inside the string) and outside comments: -- to the end of the line,
 * Informix { ... } braces and C-style slash-star ... star-slash. A statement
 * that begins CREATE [DBA] PROCEDURE|FUNCTION is one statement up to END
 * PROCEDURE|FUNCTION: the ';' inside its body do not count (as in dbaccess).
 */
#include <stddef.h>
#include <strings.h>

#include "ixdb.h"

/* Words of the statement outside strings and comments: the first ones say
 * whether it is a routine (CREATE [DBA] PROCEDURE|FUNCTION), and in a
 * routine END PROCEDURE|FUNCTION ends its body. */
typedef struct words {
    int n;       /* words seen */
    int routine; /* 1 routine, 2 routine whose END has been seen */
    int prev_end;
} words;

static int word_is(const char *w, size_t n, const char *kw) {
    size_t l = 0;
    while (kw[l])
        l++;
    return n == l && strncasecmp(w, kw, n) == 0;
}

static void word(words *st, const char *w, size_t n) {
    int proc = word_is(w, n, "procedure") || word_is(w, n, "function");
    if (st->n == 0 && !word_is(w, n, "create")) st->n = 99; /* not a routine */
    if ((st->n == 1 || (st->n == 2 && st->routine == 0)) && proc) st->routine = 1;
    if (st->n == 1 && !proc && !word_is(w, n, "dba")) st->n = 99;
    if (st->routine == 1 && st->prev_end && proc) st->routine = 2;
    st->prev_end = word_is(w, n, "end");
    if (st->n < 99) st->n++;
}

static int is_wordc(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '$' || (unsigned char)c >= 0x80;
}

enum { S_NORMAL, S_SQUOTE, S_DQUOTE, S_LINE, S_BRACE, S_BLOCK };

int ix_complete(const char *sql, size_t n) {
    if (!sql) return 0;
    int st = S_NORMAL;
    words w = {0, 0, 0};
    for (size_t i = 0; i < n; i++) {
        char c = sql[i];
        switch (st) {
        case S_NORMAL:
            if (is_wordc(c)) {
                size_t b = i;
                while (i + 1 < n && is_wordc(sql[i + 1]))
                    i++;
                word(&w, sql + b, i + 1 - b);
                break;
            }
            if (c == ';' && w.routine != 1) return 1;
            if (c == '\'')
                st = S_SQUOTE;
            else if (c == '"')
                st = S_DQUOTE;
            else if (c == '{')
                st = S_BRACE;
            else if (c == '-' && i + 1 < n && sql[i + 1] == '-')
                st = S_LINE, i++;
            else if (c == '/' && i + 1 < n && sql[i + 1] == '*')
                st = S_BLOCK, i++;
            break;
        case S_SQUOTE:
        case S_DQUOTE:
            /* A doubled quote ('' or "") is an escaped quote: the second one
             * reopens the string at once, so "end, then start again" is the
             * same as staying inside. */
            if (c == (st == S_SQUOTE ? '\'' : '"')) st = S_NORMAL;
            break;
        case S_LINE:
            if (c == '\n') st = S_NORMAL;
            break;
        case S_BRACE:
            if (c == '}') st = S_NORMAL;
            break;
        case S_BLOCK:
            if (c == '*' && i + 1 < n && sql[i + 1] == '/') st = S_NORMAL, i++;
            break;
        }
    }
    return 0;
}
