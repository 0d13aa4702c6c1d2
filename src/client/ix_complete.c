/*
 * ix_complete.c: "does this text hold a complete statement?" for shells
 * (the counterpart of sqlite3_complete), over the tokens of the SQL
 * tokenizer (src/base/ix_sqlscan.h): a ';' counts only outside strings and
 * comments. A statement that begins CREATE [DBA] PROCEDURE|FUNCTION is one
 * statement up to END PROCEDURE|FUNCTION: the ';' inside its body do not
 * count (as in dbaccess).
 */
#include <stddef.h>

#include "base/ix_sqlscan.h"
#include "ixdb.h"

/* Words of the statement outside strings and comments: the first ones say
 * whether it is a routine (CREATE [DBA] PROCEDURE|FUNCTION), and in a
 * routine END PROCEDURE|FUNCTION ends its body. */
typedef struct words {
    int n;       /* words seen */
    int routine; /* 1 routine, 2 routine whose END has been seen */
    int prev_end;
} words;

static void word(words *st, const ixb_tok *t) {
    int proc = ixb_tok_is(t, "procedure") || ixb_tok_is(t, "function");
    if (st->n == 0 && !ixb_tok_is(t, "create")) st->n = 99; /* not a routine */
    if ((st->n == 1 || (st->n == 2 && st->routine == 0)) && proc) st->routine = 1;
    if (st->n == 1 && !proc && !ixb_tok_is(t, "dba")) st->n = 99;
    if (st->routine == 1 && st->prev_end && proc) st->routine = 2;
    st->prev_end = ixb_tok_is(t, "end");
    if (st->n < 99) st->n++;
}

int ix_complete(const char *sql, size_t n) {
    if (!sql) return 0;
    words w = {0, 0, 0};
    size_t i = 0;
    ixb_tok t;
    while (ixb_sql_next(sql, n, &i, 0, &t) != IXB_TOK_END) {
        if (t.kind == IXB_TOK_WORD || t.kind == IXB_TOK_NUMBER)
            word(&w, &t);
        else if (t.kind == IXB_TOK_PUNCT && t.p[0] == ';' && w.routine != 1)
            return 1;
    }
    return 0;
}
