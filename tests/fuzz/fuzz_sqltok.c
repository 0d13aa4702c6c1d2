/* fuzz_sqltok.c: libFuzzer target for the shared SQL tokenizer
 * (src/base/ix_sqlscan.h). The first byte picks the flags; the rest is SQL.
 *
 * Properties: every token lies inside the text, after the one before it,
 * and is not empty (END excepted); the scan always ends; a string token
 * starts with its quote and, when closed, ends with it; ixb_sql_words
 * agrees with the scan. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/ix_sqlscan.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(int ok) {
    if (!ok) abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    int flags = data[0] & IXB_SCAN_DOTTED;
    const char *s = (const char *)data + 1;
    size_t n = size - 1, i = 0, prev_end = 0, steps = 0;
    int words = 0, leading = 1;
    ixb_tok t;
    while (ixb_sql_next(s, n, &i, flags, &t) != IXB_TOK_END) {
        check(t.p >= s + prev_end && t.n > 0 && t.p + t.n <= s + n && i == (size_t)(t.p - s) + t.n);
        if (t.kind == IXB_TOK_STRING) {
            check(t.p[0] == '\'' || t.p[0] == '"');
            check(t.open || (t.n >= 2 && t.p[t.n - 1] == t.p[0]));
        }
        if (leading && t.kind == IXB_TOK_WORD && words < 3)
            words++;
        else
            leading = 0;
        prev_end = i;
        check(++steps <= n);
    }
    check(i == n && t.n == 0);
    if (!flags) {
        ixb_tok w[3];
        check(ixb_sql_words(s, n, w, 3) == words);
    }
    return 0;
}
