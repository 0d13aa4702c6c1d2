/* test_complete.c: ix_complete, the library's "is this statement
 * complete?" that ixsql splits its input with. */
#include <string.h>

#include "ixdb.h"
#include "tap.h"

static int complete(const char *s) {
    return ix_complete(s, strlen(s));
}

int main(void) {
    static const struct {
        const char *sql;
        int want;
    } cases[] = {
        {"", 0},
        {";", 1},
        {"select 1", 0},
        {"select 1;", 1},
        {"select 1 from t;   ", 1},
        {"select 1; select 2", 1},
        {"select\n1\nfrom t\n;\n", 1},
        /* strings */
        {"select ';' from t", 0},
        {"select ';' from t;", 1},
        {"select 'it''s;' from t", 0},
        {"select 'it''s' from t;", 1},
        {"select 'a''", 0},
        {"select 'a'';'", 0},
        {"select \"x;y\" from t", 0},
        {"select \"x\"\";\" from t", 0},
        {"select \"x\" from t;", 1},
        {"select '\"' from t;", 1},
        {"select \"'\" from t;", 1},
        {"select '--' from t;", 1},
        {"select '{' from t;", 1},
        {"select '/*' from t;", 1},
        /* comments */
        {"-- a comment;", 0},
        {"-- a comment;\nselect 1", 0},
        {"-- a comment;\nselect 1;", 1},
        {"select 1 -- not yet;", 0},
        {"select 1 -- not yet;\n;", 1},
        {"{ braces; }", 0},
        {"{ braces; } select 1;", 1},
        {"{ unterminated; ", 0},
        {"{ a 'quote; } ;", 1},
        {"/* c; */ select 1", 0},
        {"/* c; */ select 1;", 1},
        {"/* c; * / ; */", 0},
        {"/* unterminated;", 0},
        {"/* a */ ; ", 1},
        {"select 1 - 1;", 1},
        {"select 1 -;", 1},
        {"select 6 / 2;", 1},
        {"select a -- x\n - 1 -- y;\n", 0},
        /* routines: one statement up to END PROCEDURE|FUNCTION */
        {"create procedure p() define i int; let i = 1;", 0},
        {"create procedure p() define i int; let i = 1; end procedure", 0},
        {"create procedure p() define i int; let i = 1; end procedure;", 1},
        {"CREATE DBA FUNCTION f() RETURNING int; RETURN 1; END FUNCTION;", 1},
        {"create dba function f() returning int; return 1;", 0},
        {"create function f() returning int; if 1 = 1 then return 1; end if;", 0},
        {"create procedure p() insert into t values (';'); end procedure\n"
         "document 'a;b';",
         1},
        {"create procedure p() -- end procedure;\n", 0},
        {"create table procedure (a int);", 1},
        {"create view v as select 1 from t;", 1},
        {"execute procedure p(); end procedure;", 1},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int got = complete(cases[i].sql);
        CHECK(got == cases[i].want, "ix_complete(\"%s\") = %d, want %d", cases[i].sql, got,
              cases[i].want);
    }
    /* n bounds the text: the ';' after n does not count. */
    CHECK(ix_complete("select 1;", 8) == 0, "n excludes the ';'");
    CHECK(ix_complete("select 1;", 9) == 1, "n includes the ';'");
    CHECK(ix_complete("--\n;", 3) == 0, "n inside");
    CHECK(ix_complete("-", 1) == 0, "a lone '-'");
    CHECK(ix_complete("/", 1) == 0, "a lone '/'");
    CHECK(ix_complete(NULL, 5) == 0, "NULL");
    CHECK(ix_complete("x;", 0) == 0, "n = 0");
    /* Embedded NUL bytes are ordinary bytes. */
    CHECK(ix_complete("a\0;", 3) == 1, "NUL inside the text");
    /* The first complete prefix is where a shell cuts the statement. */
    const char *two = "select ';' from t; select 2;";
    size_t cut = 0;
    for (size_t k = 1; k <= strlen(two); k++)
        if (ix_complete(two, k)) {
            cut = k;
            break;
        }
    CHECK(cut == 18, "first statement ends at byte 18, got %zu", cut);
    return tap_done();
}
