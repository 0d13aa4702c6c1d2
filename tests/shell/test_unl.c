/* test_unl.c: the UNL codec of ixsql's LOAD / UNLOAD (src/shell/ixsql_unl.c)
 * without a server: escapes, NULL against the empty string, BYTE as hex,
 * hex escapes, records over several lines, CRLF, DBDELIMITER. */
#include <stdlib.h>
#include <string.h>

#include "ixsql_unl.h"
#include "tap.h"

/* The field text of s (n bytes). */
static int put_is(const char *s, size_t n, char delim, int hex, const char *want) {
    ixsql_buf b = {0};
    int ok = ixsql_unl_put_text(&b, s, n, delim, hex) == 0 && b.len == strlen(want) &&
             memcmp(b.p, want, b.len) == 0;
    if (!ok) printf("# got [%.*s]\n", (int)b.len, b.p ? b.p : "");
    ixsql_buf_free(&b);
    return ok;
}

/* Reads the records of text; returns the count, with the fields of the
 * first two joined by '^' (NULL as "<null>") in out. */
static int read_all(const char *text, char delim, int hex, char *out, size_t cap) {
    FILE *f = fmemopen((void *)text, strlen(text), "r");
    ixsql_unl_rec r = {0};
    long line = 0;
    int n = 0;
    out[0] = 0;
    while (ixsql_unl_read(f, &r, &line, delim) == 1) {
        for (int k = 0; k < r.nfields && n < 2; k++) {
            ixsql_buf v = {0};
            if (ixsql_unl_is_null(&r, k))
                strncat(out, "<null>", cap - strlen(out) - 1);
            else if (ixsql_unl_decode(&r, k, hex, &v) == 0)
                strncat(out, v.p, cap - strlen(out) - 1);
            strncat(out, "^", cap - strlen(out) - 1);
            ixsql_buf_free(&v);
        }
        if (n < 2) strncat(out, "/", cap - strlen(out) - 1);
        n++;
    }
    ixsql_unl_rec_free(&r);
    fclose(f);
    return n;
}

int main(void) {
    /* writing */
    CHECK(put_is("abc", 3, '|', 0, "abc|"), "plain");
    CHECK(put_is("", 0, '|', 0, "\\ |"), "empty string is backslash blank");
    CHECK(put_is(" ", 1, '|', 0, " |"), "a blank stays a blank");
    CHECK(put_is("a|b\\c\nd", 7, '|', 0, "a\\|b\\\\c\\\nd|"), "delimiter, backslash, newline");
    CHECK(put_is("a|b,c", 5, ',', 0, "a|b\\,c,"), "DELIMITER ','");
    CHECK(put_is("a\tb\x01", 4, '|', 1, "a\\x09b\\x01|"), "hex escapes");
    CHECK(put_is("a\tb", 3, '\t', 1, "a\\\tb\t"), "the delimiter before hex");
    CHECK(put_is("a\tb", 3, '|', 0, "a\tb|"), "no hex escapes without -X");
    CHECK(put_is("\xc3\xa9", 2, '|', 1, "\xc3\xa9|"), "UTF-8 untouched");
    ixsql_buf b = {0};
    CHECK(ixsql_unl_put_hex(&b, "\x00\xff\x41", 3, '|') == 0 && strcmp(b.p, "00ff41|") == 0,
          "BYTE hex");
    b.len = 0;
    CHECK(ixsql_unl_put_null(&b, '|') == 0 && strcmp(b.p, "|") == 0, "NULL");
    ixsql_buf_free(&b);

    /* reading */
    char out[512];
    CHECK(read_all("1|\\ ||a\\|b|\n2| |x|y|\n", '|', 0, out, sizeof out) == 2 &&
              strcmp(out, "1^^<null>^a|b^/2^ ^x^y^/") == 0,
          "empty, NULL, escaped delimiter: %s", out);
    CHECK(read_all("1|a\\\nb\\\\|\n2|c|\n", '|', 0, out, sizeof out) == 2 &&
              strcmp(out, "1^a\nb\\^/2^c^/") == 0,
          "a record over two lines: %s", out);
    CHECK(read_all("1|a|\r\n2|b\r\n", '|', 0, out, sizeof out) == 2 &&
              strcmp(out, "1^a^/2^b\r^/") == 0,
          "CRLF after the last delimiter; no last delimiter: %s", out);
    CHECK(read_all("a\\x41\\x4|\n", '|', 1, out, sizeof out) == 1 && strcmp(out, "aAx4^/") == 0,
          "hex escapes read back: %s", out);
    CHECK(read_all("a\\x41|\n", '|', 0, out, sizeof out) == 1 && strcmp(out, "ax41^/") == 0,
          "without -X \\x is x: %s", out);
    CHECK(read_all("\n", '|', 0, out, sizeof out) == 1 && strcmp(out, "<null>^/") == 0,
          "a blank line is one NULL field: %s", out);

    /* round trip of awkward text */
    const char *awk = "x|y\\z\n\t\x7f\xc3\xa9 ";
    ixsql_buf rec = {0};
    ixsql_unl_put_text(&rec, awk, strlen(awk), '|', 1);
    ixsql_unl_put_text(&rec, "", 0, '|', 1);
    ixsql_unl_put_null(&rec, '|');
    ixsql_buf_add(&rec, "\n", 1);
    FILE *f = fmemopen(rec.p, rec.len, "r");
    ixsql_unl_rec r = {0};
    long line = 0;
    ixsql_buf v = {0};
    CHECK(ixsql_unl_read(f, &r, &line, '|') == 1 && r.nfields == 3 && line == 2, "one record");
    CHECK(ixsql_unl_decode(&r, 0, 1, &v) == 0 && strcmp(v.p, awk) == 0, "awkward text back");
    v.len = 0;
    CHECK(ixsql_unl_decode(&r, 1, 1, &v) == 0 && v.len == 0 && !ixsql_unl_is_null(&r, 1),
          "empty string back");
    CHECK(ixsql_unl_is_null(&r, 2), "NULL back");
    CHECK(ixsql_unl_read(f, &r, &line, '|') == 0, "end");
    fclose(f);
    ixsql_buf_free(&rec);

    /* hex fields */
    f = fmemopen("00fF41|0g|abc|\n", 15, "r");
    CHECK(ixsql_unl_read(f, &r, &line, '|') == 1, "hex record");
    v.len = 0;
    CHECK(ixsql_unl_unhex(&r, 0, &v) == 0 && v.len == 3 && memcmp(v.p, "\x00\xff\x41", 3) == 0,
          "unhex");
    CHECK(ixsql_unl_unhex(&r, 1, &v) == -2 && ixsql_unl_unhex(&r, 2, &v) == -2, "bad hex");
    fclose(f);
    ixsql_unl_rec_free(&r);
    ixsql_buf_free(&v);

    /* delimiters */
    CHECK(ixsql_unl_valid_delim('|') && ixsql_unl_valid_delim('\t') && ixsql_unl_valid_delim(' '),
          "valid delimiters");
    CHECK(!ixsql_unl_valid_delim('\\') && !ixsql_unl_valid_delim('\n') &&
              !ixsql_unl_valid_delim('a') && !ixsql_unl_valid_delim('7') &&
              !ixsql_unl_valid_delim(0xc3),
          "invalid delimiters");
    setenv("DBDELIMITER", ";", 1);
    CHECK(ixsql_unl_default_delim() == ';', "DBDELIMITER");
    setenv("DBDELIMITER", "a", 1);
    CHECK(ixsql_unl_default_delim() == '|', "bad DBDELIMITER ignored");
    unsetenv("DBDELIMITER");
    CHECK(ixsql_unl_default_delim() == '|', "default |");
    CHECK(ixsql_unl_hex() == 0, "hex escapes off by default");
    ixsql_unl_set_hex(1);
    CHECK(ixsql_unl_hex() == 1, "ixsql_unl_set_hex(1)");
    ixsql_unl_set_hex(0);
    CHECK(ixsql_unl_hex() == 0, "ixsql_unl_set_hex");
    return tap_done();
}
