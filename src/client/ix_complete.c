/*
 * ix_complete.c: "does this text hold a complete statement?" for shells
 * (the counterpart of sqlite3_complete). A small state machine over the
 * bytes: a ';' counts only outside '...' and "..." strings (a doubled quote
 * stays inside the string) and outside comments: -- to the end of the line,
 * Informix { ... } braces and C-style slash-star ... star-slash.
 */
#include <stddef.h>

#include "ixdb.h"

enum { S_NORMAL, S_SQUOTE, S_DQUOTE, S_LINE, S_BRACE, S_BLOCK };

int ix_complete(const char *sql, size_t n) {
    if (!sql) return 0;
    int st = S_NORMAL;
    for (size_t i = 0; i < n; i++) {
        char c = sql[i];
        switch (st) {
        case S_NORMAL:
            if (c == ';') return 1;
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
