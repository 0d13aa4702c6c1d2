/* test_kw.c: the SQL lexer's keyword table (src/server/sql/ixs_kw.c) agrees
 * with its codes (ixs_kw.h): sorted, every code found by its text in any
 * case, and words that are no keyword give IXK_NONE. */
#include <ctype.h>
#include <string.h>

#include "server/sql/ixs_kw.h"
#include "tap.h"

int main(void) {
    const char *prev = "";
    for (int k = IXK_NONE + 1; k < IXK_COUNT; k++) {
        const char *w = ixs_kw_name(k);
        CHECK(w && strcmp(prev, w) < 0, "code %d (%s) after %s: not in order", k, w ? w : "?",
              prev);
        if (!w) continue;
        CHECK(ixs_kw_code(w, strlen(w)) == k, "%s -> %d, want %d", w, ixs_kw_code(w, strlen(w)), k);
        char up[32];
        size_t n = strlen(w);
        for (size_t i = 0; i < n && i < sizeof up; i++)
            up[i] = (char)toupper((unsigned char)w[i]);
        CHECK(n < sizeof up && ixs_kw_code(up, n) == k, "%.*s (upper case) not found", (int)n, up);
        CHECK(ixs_kw_code(w, n - 1) != k, "a prefix of %s matched it", w);
        prev = w;
    }
    CHECK(ixs_kw_code("selectx", 7) == IXK_NONE, "selectx");
    CHECK(ixs_kw_code("customer", 8) == IXK_NONE, "customer");
    CHECK(ixs_kw_code("", 0) == IXK_NONE, "empty");
    CHECK(ixs_kw_code("SELECT", 6) == IXK_SELECT, "SELECT");
    CHECK(ixs_kw_name(IXK_NONE) == NULL && ixs_kw_name(IXK_COUNT) == NULL, "out of range");
    return tap_done();
}
