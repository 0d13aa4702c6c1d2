/* test_sqlscan.c: the shared SQL tokenizer (src/base/ix_sqlscan.h): token
 * kinds and extents, the three comment forms, strings with doubled quotes,
 * open strings and comments at the end, dotted words, ixb_sql_words. */
#include <string.h>

#include "base/ix_sqlscan.h"
#include "tap.h"

/* The tokens of s as "kind:text" joined by blanks (strings and words as
 * they are), into out. */
static const char *kinds(const char *s, int flags, char *out, size_t cap) {
    static const char code[] = "EWNSP.";
    size_t i = 0, k = 0, n = strlen(s);
    ixb_tok t;
    out[0] = 0;
    while (ixb_sql_next(s, n, &i, flags, &t) != IXB_TOK_END && k + t.n + 4 < cap) {
        if (k) out[k++] = ' ';
        out[k++] = code[t.kind];
        out[k++] = t.open ? '!' : ':';
        memcpy(out + k, t.p, t.n);
        k += t.n;
        out[k] = 0;
    }
    return out;
}

static void expect(const char *sql, int flags, const char *want) {
    char got[512];
    kinds(sql, flags, got, sizeof got);
    CHECK(strcmp(got, want) == 0, "[%s] -> [%s], want [%s]", sql, got, want);
}

int main(void) {
    expect("", 0, "");
    expect("  \t\n", 0, "");
    expect("select a, b2 from t where x = ?", 0,
           "W:select W:a .:, W:b2 W:from W:t W:where W:x .:= P:?");
    expect("-- c ? \nselect {? x} 1 /* ? */ ?", 0, "W:select N:1 P:?");
    expect("'it''s ?' \"a\"\"b\" ?", 0, "S:'it''s ?' S:\"a\"\"b\" P:?");
    expect("select 'open", 0, "W:select S!'open");
    expect("select /* open", 0, "W:select");
    expect("x -- to the end", 0, "W:x");
    expect("$v _x \xc3\xa9t\xc3\xa9 10ab", 0, "W:$v W:_x W:\xc3\xa9t\xc3\xa9 N:10ab");
    expect("own.tab.col .x", 0, "W:own .:. W:tab .:. W:col .:. W:x");
    expect("own.tab.col .x", IXB_SCAN_DOTTED, "W:own.tab.col W:.x");
    expect("a;b", 0, "W:a .:; W:b");

    /* the open flag on END: a comment that does not close */
    size_t i = 0;
    ixb_tok t;
    const char *s = "a { b";
    ixb_sql_next(s, strlen(s), &i, 0, &t);
    CHECK(ixb_sql_next(s, strlen(s), &i, 0, &t) == IXB_TOK_END && t.open == 1, "open brace");
    s = "a -- b";
    i = 0;
    ixb_sql_next(s, strlen(s), &i, 0, &t);
    CHECK(ixb_sql_next(s, strlen(s), &i, 0, &t) == IXB_TOK_END && t.open == 0,
          "a line comment ends with the text");

    ixb_tok w[3];
    s = "/* x */ Rollback work TO savepoint";
    CHECK(ixb_sql_words(s, strlen(s), w, 3) == 3 && ixb_tok_is(&w[0], "ROLLBACK") &&
              ixb_tok_is(&w[1], "work") && ixb_tok_is(&w[2], "to"),
          "three words, case ignored");
    s = "create database x";
    CHECK(ixb_sql_words(s, strlen(s), w, 2) == 2 && ixb_tok_is(&w[1], "DATABASE"), "two words");
    s = "(select 1)";
    CHECK(ixb_sql_words(s, strlen(s), w, 2) == 0 && w[0].kind == IXB_TOK_END &&
              w[1].kind == IXB_TOK_END,
          "no leading word: none, the rest END");
    s = "set x";
    CHECK(ixb_sql_words(s, strlen(s), w, 3) == 2 && w[2].kind == IXB_TOK_END, "fewer words");
    CHECK(!ixb_tok_is(&w[0], "SE") && !ixb_tok_is(&w[0], "SETX"), "whole words only");
    return tap_done();
}
