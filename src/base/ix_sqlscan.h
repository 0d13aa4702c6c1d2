/* ix_sqlscan.h: the one SQL tokenizer below every layer. It splits Informix
 * SQL text into words, numbers, strings, '?' markers and punctuation,
 * skipping blanks and the three comment forms (-- to the end of the line,
 * { ... } and slash-star ... star-slash). The client (statement kinds,
 * parameter counts, transaction words, ix_complete), the shell (completion,
 * confirmations) and ixd's session classifier all read SQL through it. It
 * allocates nothing; tokens point into the caller's text. */
#ifndef IXB_SQLSCAN_H
#define IXB_SQLSCAN_H

#include <stddef.h>

typedef enum ixb_tok_kind {
    IXB_TOK_END = 0, /* no more tokens (an open comment ends the text) */
    IXB_TOK_WORD,    /* letter, '_', '$' or a byte >= 0x80, then those and digits */
    IXB_TOK_NUMBER,  /* a digit, then word characters */
    IXB_TOK_STRING,  /* '...' or "..." (a doubled quote stays inside) */
    IXB_TOK_PARAM,   /* ? */
    IXB_TOK_PUNCT    /* any other byte, one at a time */
} ixb_tok_kind;

/* Flags of ixb_sql_next. */
enum {
    IXB_SCAN_DOTTED = 1 /* '.' is a word character, first too (owner.table.column as one word) */
};

typedef struct ixb_tok {
    ixb_tok_kind kind;
    const char *p; /* the token's first byte (a string's opening quote) */
    size_t n;      /* its length (a string's quotes included) */
    int open;      /* a string, or the comment that ended the text, is not closed */
} ixb_tok;

/* The token at s[*i..n) after blanks and comments, into *t; *i moves past
 * it. Returns t->kind (IXB_TOK_END at the end of the text). */
ixb_tok_kind ixb_sql_next(const char *s, size_t n, size_t *i, int flags, ixb_tok *t);

/* 1 when t is a word equal to kw, ignoring ASCII case. */
int ixb_tok_is(const ixb_tok *t, const char *kw);

/* The first k tokens of s[0..n) that are words, up to the first token that
 * is not one: fills w[0..k) (the rest as IXB_TOK_END) and returns how many
 * words there were. */
int ixb_sql_words(const char *s, size_t n, ixb_tok *w, int k);

#endif
