/* test_stname.c: the SQLite storage names of Informix names
 * (src/server/value/ixv_value.c): a name with no upper-case letter and no
 * '^' is its own; any other is escaped so that names differing only by case
 * get names SQLite (which ignores ASCII case) tells apart, every storage name
 * reads back as written (ixv_sb_unstname), and ixv_sb_ident quotes the
 * storage name. */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "server/value/ixv.h"
#include "tap.h"

static const char *const names[] = {
    "test",  "TEST", "Test",    "tEST",    "a^b",  "A^B",
    "^",     "^^",   "^t",      "T",       "q\"x", "My Orders",
    "Größe", "x_1$", "_ixd_lo", "sel ect", "^T^e", "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
};
#define NNAMES (sizeof names / sizeof names[0])

int main(void) {
    char st[NNAMES][IXV_STNAME_MAX + 1];
    for (size_t i = 0; i < NNAMES; i++) {
        const char *n = names[i];
        const char *s = ixv_stname(n, st[i], sizeof st[i]);
        if (s != st[i]) snprintf(st[i], sizeof st[i], "%s", s);
        int plain = !ixv_name_escaped(n);
        CHECK(plain == !strpbrk(n, "ABCDEFGHIJKLMNOPQRSTUVWXYZ^"), "%s: escaped %d", n, !plain);
        CHECK(!plain || (s == n && !strcmp(st[i], n)), "%s: plain name changed to %s", n, st[i]);
        CHECK(!strpbrk(st[i], "ABCDEFGHIJKLMNOPQRSTUVWXYZ"), "%s -> %s: upper case left", n, st[i]);
        sb back = {0};
        ixv_sb_unstname(&back, st[i]);
        CHECK(back.p && !strcmp(back.p, n), "%s -> %s -> %s", n, st[i], back.p ? back.p : "");
        ixv_sb_free(&back);
        sb q = {0}, want = {0};
        ixv_sb_ident(&q, n);
        ixv_sb_addc(&want, '"');
        for (const char *c = st[i]; *c; c++) {
            if (*c == '"') ixv_sb_addc(&want, '"');
            ixv_sb_addc(&want, *c);
        }
        ixv_sb_addc(&want, '"');
        CHECK(q.p && want.p && !strcmp(q.p, want.p), "ident %s: %s, want %s", n, q.p ? q.p : "",
              want.p ? want.p : "");
        ixv_sb_free(&q);
        ixv_sb_free(&want);
    }
    /* distinct names, distinct to SQLite (no two equal ignoring ASCII case) */
    for (size_t i = 0; i < NNAMES; i++)
        for (size_t j = i + 1; j < NNAMES; j++)
            CHECK(strcasecmp(st[i], st[j]) != 0, "%s and %s share storage name %s", names[i],
                  names[j], st[i]);
    CHECK(!strcmp(st[1], "^t^e^s^t") && !strcmp(st[2], "^test") && !strcmp(st[4], "a^^b"),
          "the documented forms: %s %s %s", st[1], st[2], st[4]);
    /* a message naming storage names reads back as written */
    sb m = {0};
    ixv_sb_unstname(&m, "^my ^orders.^id, ^my ^orders.a^^b");
    CHECK(m.p && !strcmp(m.p, "My Orders.Id, My Orders.a^b"), "message: %s", m.p ? m.p : "");
    ixv_sb_free(&m);
    /* a buffer too short cuts, never overruns */
    char small[5];
    const char *s = ixv_stname("ABCDEF", small, sizeof small);
    CHECK(s == small && strlen(small) < sizeof small, "cut: %s", small);
    return tap_done();
}
