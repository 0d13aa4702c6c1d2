/* test_engine_spl_direct.c: EXECUTE FUNCTION of a routine that is not an
 * iterator runs it outside SQLite and encodes its rows itself
 * (ixs_spl_direct); TABLE(FUNCTION f(...)) runs the same routine inside
 * SQLite through the table _ixd_spl, its rows encoded from the columns. The
 * tuples of the two must be the same bytes, for every returned type and
 * for NULL, on a sequential and on a scroll cursor. */
#include "test_engine_util.h"

#define MAXROWS 4

typedef struct rows {
    int n;
    ixb_wbuf b[MAXROWS];
} rows;

/* The tuples of sql into r: 0, or the SQLCODE. */
static int tuples(const char *sql, int scroll, rows *r) {
    ixd_stmt *s;
    memset(&ERR, 0, sizeof ERR);
    r->n = 0;
    if (ixd_prepare(D, sql, strlen(sql), &s, &ERR)) return ERR.sqlcode;
    if (ixd_open(s, scroll, &ERR)) {
        ixd_stmt_free(s);
        return ERR.sqlcode;
    }
    int rc = 0;
    while (r->n < MAXROWS) {
        ixb_wbuf_init(&r->b[r->n], NULL);
        int f = ixd_fetch(s, &r->b[r->n], &ERR);
        if (f <= 0) {
            ixb_wbuf_free(&r->b[r->n]);
            rc = f < 0 ? ERR.sqlcode : 0;
            break;
        }
        r->n++;
    }
    ixd_stmt_free(s);
    return rc;
}

static void rows_free(rows *r) {
    for (int k = 0; k < r->n; k++)
        ixb_wbuf_free(&r->b[k]);
}

static void same_bytes(const char *arg) {
    char a[256], b[256];
    snprintf(a, sizeof a, "execute function alltypes(%s)", arg);
    snprintf(b, sizeof b, "select * from table(function alltypes(%s))", arg);
    for (int scroll = 0; scroll < 2; scroll++) {
        rows x, y;
        int ra = tuples(a, scroll, &x), rb = tuples(b, scroll, &y);
        CHECK(ra == 0 && rb == 0, "%s: both run (%d, %d)", arg, ra, rb);
        CHECK(x.n == 1 && y.n == 1, "%s: one row each (%d, %d)", arg, x.n, y.n);
        for (int k = 0; k < x.n && k < y.n; k++)
            CHECK(x.b[k].len == y.b[k].len && !memcmp(x.b[k].data, y.b[k].data, x.b[k].len),
                  "%s scroll %d: the same tuple bytes (%zu, %zu)", arg, scroll, x.b[k].len,
                  y.b[k].len);
        rows_free(&x);
        rows_free(&y);
    }
}

int main(void) {
    eu_setup("spldirect");
    CHECK_RUN("create database spldirect with log", 0);
    CHECK_RUN("create function alltypes(n int) returning smallint, integer, bigint, int8, "
              "decimal(10,3), decimal(16), money(8,2), float, smallfloat, char(5), varchar(10), "
              "lvarchar(40), nchar(3), nvarchar(6), date, datetime year to second, datetime hour "
              "to fraction(3), interval day to minute, interval year to month, boolean; "
              "if n is null then return null, null, null, null, null, null, null, null, null, "
              "null, null, null, null, null, null, null, null, null, null, null; end if; "
              "return n, n * 1000, n + 3000000000, -n, n / 7, n * 1.25, n * 1.5, n / 3.0, "
              "n / 4.0, 'ab' || n, 'v' || n, 'lv' || n, 'n', 'nv' || n, mdy(1, abs(n) + 1, 2024), "
              "datetime(2024-02-03 04:05:06) year to second, datetime(10:11:12.345) hour to "
              "fraction(3), interval(3 04:05) day to minute, interval(2-06) year to month, "
              "n > 2; end function",
              0);
    same_bytes("3");
    same_bytes("-7");
    same_bytes("0");
    same_bytes("null");
    eu_teardown();
    return tap_done();
}
