/* test_scroll.c: static (scroll) cursors of libixodbc through unixODBC's
 * driver manager against a real ixd. Every rowset SQLFetchScroll gives
 * (SQL_FETCH_NEXT, FIRST, LAST, PRIOR, ABSOLUTE, RELATIVE; row array sizes
 * 1, 5, 10 and one larger than the result) is compared value for value with
 * the rows a forward-only cursor gave, and its position, rows fetched, row
 * status and return code with ODBC 3's table of cursor positions (written
 * out here from the specification); SQL_NO_DATA before the first and after
 * the last row, 01S06 for a rowset overlapping the start; SQL_ATTR_ROW_NUMBER;
 * SQLGetData on a scrolled row; KEYSET and DYNAMIC give 01S02 and STATIC;
 * a forward-only cursor refuses SQL_FETCH_FIRST (HY106); a result the driver
 * makes (SQLGetTypeInfo) scrolls; SQLGetInfo. */
#include <sql.h>
#include <sqlext.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "odbc_test.h"
#include "tap.h"

#define NROWS    57 /* rows of the table: not a multiple of any rowset size */
#define MAXSET   100
#define NAME_LEN 24
#define AMT_LEN  24

static SQLHENV env;
static SQLHDBC dbc;

/* the rows as a forward-only cursor gave them */
static struct ref_row {
    SQLINTEGER id;
    char name[NAME_LEN], amount[AMT_LEN];
    SQLLEN name_ind, amount_ind;
} ref[NROWS];

/* the bound rowset (column-wise) */
static SQLINTEGER ids[MAXSET];
static char names[MAXSET][NAME_LEN], amounts[MAXSET][AMT_LEN];
static SQLLEN id_ind[MAXSET], name_ind[MAXSET], amount_ind[MAXSET];
static SQLUSMALLINT status[MAXSET];
static SQLULEN fetched;

static void bind_rowset(SQLHSTMT st, SQLULEN size) {
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)size, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, status, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &fetched, 0);
    SQLBindCol(st, 1, SQL_C_SLONG, ids, 0, id_ind);
    SQLBindCol(st, 2, SQL_C_CHAR, names, NAME_LEN, name_ind);
    SQLBindCol(st, 3, SQL_C_CHAR, amounts, AMT_LEN, amount_ind);
}

static void unbind(SQLHSTMT st) {
    SQLFreeStmt(st, SQL_CLOSE);
    SQLFreeStmt(st, SQL_UNBIND);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, NULL, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, NULL, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)1, 0);
}

static void setup(SQLHSTMT st) {
    odbc_exec(st, "CREATE TABLE ts (id INTEGER, name VARCHAR(20), amount DECIMAL(10,2))");
    for (int i = 1; i <= NROWS; i++) {
        char sql[160];
        if (i % 7 == 3)
            snprintf(sql, sizeof sql, "INSERT INTO ts VALUES (%d, NULL, %d.%02d)", i, i * 3, i);
        else if (i % 11 == 5)
            snprintf(sql, sizeof sql, "INSERT INTO ts VALUES (%d, 'n%d', NULL)", i, i * i);
        else
            snprintf(sql, sizeof sql, "INSERT INTO ts VALUES (%d, 'name %d', -%d.5)", i, i, i);
        odbc_exec(st, sql);
    }
}

static const char *QUERY = "SELECT id, name, amount FROM ts ORDER BY id";

/* the forward-only rows, in rowsets of 10 */
static void forward_rows(SQLHSTMT st) {
    bind_rowset(st, 10);
    OK(SQLExecDirect(st, (SQLCHAR *)QUERY, SQL_NTS), SQL_HANDLE_STMT, st);
    int n = 0;
    SQLRETURN rc;
    int numbered = 1;
    while ((rc = SQLFetch(st)) == SQL_SUCCESS) {
        SQLULEN rn = 0;
        SQLGetStmtAttr(st, SQL_ATTR_ROW_NUMBER, &rn, 0, NULL);
        numbered &= rn == (SQLULEN)n + 1;
        for (SQLULEN r = 0; r < fetched && n < NROWS; r++, n++) {
            ref[n].id = ids[r];
            memcpy(ref[n].name, names[r], NAME_LEN);
            memcpy(ref[n].amount, amounts[r], AMT_LEN);
            ref[n].name_ind = name_ind[r];
            ref[n].amount_ind = amount_ind[r];
        }
    }
    CHECK(rc == SQL_NO_DATA && n == NROWS, "forward-only: %d rows, rc %d", n, rc);
    CHECK(numbered, "forward-only: SQL_ATTR_ROW_NUMBER is the rowset's first row");
    CHECK(SQLFetchScroll(st, SQL_FETCH_FIRST, 0) == SQL_ERROR &&
              strcmp(odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0), "HY106") == 0,
          "forward-only cursor refuses SQL_FETCH_FIRST with HY106");
    unbind(st);
}

/* ---- ODBC 3's table of SQLFetchScroll's cursor positions ---- */

#define BEFORE 0
#define AFTER  (-1)

typedef struct model {
    long start;    /* rowset start, BEFORE or AFTER */
    long prevsize; /* rowset size of the previous call (0: none) */
} model;

typedef struct expect {
    long start; /* the new rowset start (BEFORE, AFTER, row) */
    int warn;   /* 01S06 */
} expect;

static expect pos_absolute(long off, long size) {
    if (off < 0 && -off <= NROWS) return (expect){NROWS + off + 1, 0};
    if (off < 0 && -off > size) return (expect){BEFORE, 0};
    if (off < 0) return (expect){1, 0};
    if (off == 0) return (expect){BEFORE, 0};
    if (off <= NROWS) return (expect){off, 0};
    return (expect){AFTER, 0};
}

static expect pos_of(const model *m, SQLSMALLINT o, long off, long size) {
    long cur = m->start, prev = m->prevsize ? m->prevsize : size;
    switch (o) {
    case SQL_FETCH_NEXT:
        if (cur == BEFORE) return (expect){NROWS >= 1 ? 1 : AFTER, 0};
        if (cur == AFTER || cur + prev > NROWS) return (expect){AFTER, 0};
        return (expect){cur + prev, 0};
    case SQL_FETCH_PRIOR:
        if (cur == BEFORE || cur == 1) return (expect){BEFORE, 0};
        if (cur == AFTER) return (expect){NROWS >= size ? NROWS - size + 1 : 1, 0};
        if (cur - size < 1) return (expect){1, 1};
        return (expect){cur - size, 0};
    case SQL_FETCH_RELATIVE:
        if ((cur == BEFORE && off > 0) || (cur == AFTER && off < 0)) return pos_absolute(off, size);
        if (cur == BEFORE) return (expect){BEFORE, 0};
        if (cur == AFTER) return (expect){AFTER, 0};
        if (cur == 1 && off < 0) return (expect){BEFORE, 0};
        if (cur + off < 1 && -off > size) return (expect){BEFORE, 0};
        if (cur + off < 1) return (expect){1, 1};
        if (cur + off > NROWS) return (expect){AFTER, 0};
        return (expect){cur + off, 0};
    case SQL_FETCH_ABSOLUTE: return pos_absolute(off, size);
    case SQL_FETCH_FIRST: return (expect){1, 0};
    default: return (expect){NROWS >= size ? NROWS - size + 1 : 1, 0};
    }
}

static const char *oname(SQLSMALLINT o) {
    static const char *n[] = {"?", "NEXT", "FIRST", "LAST", "PRIOR", "ABSOLUTE", "RELATIVE"};
    return o >= 1 && o <= 6 ? n[o] : "?";
}

/* one SQLFetchScroll, checked against the model and the forward rows;
 * 1 when all agreed */
static int scroll_once(SQLHSTMT st, model *m, SQLSMALLINT o, long off, long size) {
    expect e = pos_of(m, o, off, size);
    memset(ids, 0, sizeof ids);
    SQLRETURN rc = SQLFetchScroll(st, o, off);
    m->prevsize = size;
    m->start = e.start;
    char what[96];
    snprintf(what, sizeof what, "%s %ld (rowset %ld) -> %ld", oname(o), off, size, e.start);
    if (e.start <= 0) {
        int ok = rc == SQL_NO_DATA && fetched == 0;
        for (long r = 0; ok && r < size; r++)
            ok = status[r] == SQL_ROW_NOROW;
        if (!ok) CHECK(0, "%s: rc %d fetched %lu", what, rc, fetched);
        return ok;
    }
    long want = NROWS - e.start + 1 < size ? NROWS - e.start + 1 : size;
    SQLRETURN want_rc = e.warn ? SQL_SUCCESS_WITH_INFO : SQL_SUCCESS;
    int ok = rc == want_rc && (long)fetched == want;
    if (ok && e.warn) ok = strcmp(odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0), "01S06") == 0;
    for (long r = 0; ok && r < size; r++) {
        if (r >= want) {
            ok = status[r] == SQL_ROW_NOROW;
            continue;
        }
        const struct ref_row *x = &ref[e.start - 1 + r];
        ok = status[r] == SQL_ROW_SUCCESS && ids[r] == x->id && name_ind[r] == x->name_ind &&
             amount_ind[r] == x->amount_ind &&
             (x->name_ind < 0 || strcmp(names[r], x->name) == 0) &&
             (x->amount_ind < 0 || strcmp(amounts[r], x->amount) == 0);
    }
    SQLULEN rn = 0;
    OK(SQLGetStmtAttr(st, SQL_ATTR_ROW_NUMBER, &rn, 0, NULL), SQL_HANDLE_STMT, st);
    ok = ok && (long)rn == e.start;
    if (!ok)
        CHECK(0, "%s: rc %d (want %d) fetched %lu (want %ld) id[0] %d row number %lu", what, rc,
              want_rc, fetched, want, (int)ids[0], rn);
    return ok;
}

/* the fixed walks: to the end and back, the edges of each orientation */
static void walks(SQLHSTMT st, long size) {
    model m = {BEFORE, 0};
    int ok = 1;
    bind_rowset(st, (SQLULEN)size);
    OK(SQLExecDirect(st, (SQLCHAR *)QUERY, SQL_NTS), SQL_HANDLE_STMT, st);
    for (int i = 0; i < NROWS / size + 2; i++)
        ok &= scroll_once(st, &m, SQL_FETCH_NEXT, 0, size);
    for (int i = 0; i < NROWS / size + 3; i++)
        ok &= scroll_once(st, &m, SQL_FETCH_PRIOR, 0, size);
    ok &= scroll_once(st, &m, SQL_FETCH_NEXT, 0, size);
    ok &= scroll_once(st, &m, SQL_FETCH_LAST, 0, size);
    ok &= scroll_once(st, &m, SQL_FETCH_NEXT, 0, size);
    ok &= scroll_once(st, &m, SQL_FETCH_PRIOR, 0, size);
    ok &= scroll_once(st, &m, SQL_FETCH_FIRST, 0, size);
    ok &= scroll_once(st, &m, SQL_FETCH_RELATIVE, 3, size);
    ok &= scroll_once(st, &m, SQL_FETCH_RELATIVE, -2, size); /* 01S06 for size > 2 */
    ok &= scroll_once(st, &m, SQL_FETCH_RELATIVE, 0, size);
    ok &= scroll_once(st, &m, SQL_FETCH_RELATIVE, -1, size);    /* before the start */
    ok &= scroll_once(st, &m, SQL_FETCH_RELATIVE, 4, size);     /* from before: row 4 */
    ok &= scroll_once(st, &m, SQL_FETCH_RELATIVE, NROWS, size); /* after the end */
    ok &= scroll_once(st, &m, SQL_FETCH_RELATIVE, -3, size);    /* from after: row N-2 */
    long offs[] = {1, NROWS, NROWS + 1, -1, -NROWS, -NROWS - 1, -NROWS - 7, 0, 30, -30};
    for (size_t i = 0; i < sizeof offs / sizeof *offs; i++)
        ok &= scroll_once(st, &m, SQL_FETCH_ABSOLUTE, offs[i], size);
    CHECK(ok, "static cursor walks, rowset %ld", size);
    unbind(st);
}

/* a long pseudo-random walk over every orientation, prepared statement,
 * SQL_ATTR_CURSOR_SCROLLABLE; the rowset size changes between calls */
static void random_walk(SQLHSTMT st) {
    model m = {BEFORE, 0};
    int ok = 1;
    unsigned seed = 12345;
    static const long sizes[] = {1, 3, 5, 10};
    SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_FORWARD_ONLY, 0);
    OK(SQLSetStmtAttr(st, SQL_ATTR_CURSOR_SCROLLABLE, (SQLPOINTER)SQL_SCROLLABLE, 0),
       SQL_HANDLE_STMT, st);
    SQLULEN ct = 0;
    SQLGetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, &ct, 0, NULL);
    CHECK(ct == SQL_CURSOR_STATIC, "SQL_SCROLLABLE makes the cursor static (%lu)", ct);
    bind_rowset(st, 5);
    OK(SQLPrepare(st, (SQLCHAR *)QUERY, SQL_NTS), SQL_HANDLE_STMT, st);
    for (int round = 0; round < 2; round++) {
        OK(SQLExecute(st), SQL_HANDLE_STMT, st);
        m = (model){BEFORE, 0};
        for (int i = 0; i < 300 && ok; i++) {
            seed = seed * 1103515245u + 12345u;
            long size = sizes[(seed >> 8) % 4];
            SQLSMALLINT o = (SQLSMALLINT)(1 + (seed >> 12) % 6);
            long off = (long)((seed >> 16) % (2 * NROWS + 20)) - NROWS - 10;
            SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)size, 0);
            ok &= scroll_once(st, &m, o, off, size);
        }
        SQLCloseCursor(st);
    }
    CHECK(ok, "random walk of 2 x 300 scroll fetches (prepared, SQL_SCROLLABLE)");
    unbind(st);
    SQLSetStmtAttr(st, SQL_ATTR_CURSOR_SCROLLABLE, (SQLPOINTER)SQL_NONSCROLLABLE, 0);
}

/* SQLGetData on the rows a scroll fetch made current (rowset size 1) */
static void getdata_scrolled(SQLHSTMT st) {
    SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0);
    OK(SQLExecDirect(st, (SQLCHAR *)QUERY, SQL_NTS), SQL_HANDLE_STMT, st);
    static const struct {
        SQLSMALLINT o;
        long off, row;
    } steps[] = {{SQL_FETCH_LAST, 0, NROWS},
                 {SQL_FETCH_PRIOR, 0, NROWS - 1},
                 {SQL_FETCH_ABSOLUTE, 3, 3},
                 {SQL_FETCH_RELATIVE, 2, 5},
                 {SQL_FETCH_FIRST, 0, 1},
                 {SQL_FETCH_NEXT, 0, 2},
                 {SQL_FETCH_ABSOLUTE, -5, NROWS - 4}};
    int ok = 1;
    for (size_t i = 0; i < sizeof steps / sizeof *steps; i++) {
        SQLRETURN rc = SQLFetchScroll(st, steps[i].o, steps[i].off);
        SQLINTEGER id = 0;
        char name[NAME_LEN] = "", amount[AMT_LEN] = "";
        SQLLEN ni = 0, ai = 0;
        SQLGetData(st, 1, SQL_C_SLONG, &id, 0, NULL);
        SQLGetData(st, 2, SQL_C_CHAR, name, NAME_LEN, &ni);
        SQLGetData(st, 3, SQL_C_CHAR, amount, AMT_LEN, &ai);
        const struct ref_row *x = &ref[steps[i].row - 1];
        int same = rc == SQL_SUCCESS && id == x->id && ni == x->name_ind && ai == x->amount_ind &&
                   (ni < 0 || strcmp(name, x->name) == 0) &&
                   (ai < 0 || strcmp(amount, x->amount) == 0);
        if (!same)
            CHECK(0, "SQLGetData after %s %ld: rc %d id %d", oname(steps[i].o), steps[i].off, rc,
                  (int)id);
        ok &= same;
    }
    CHECK(ok, "SQLGetData on scrolled rows gives the forward-only values");
    SQLFreeStmt(st, SQL_CLOSE);
    /* an empty result: no rows anywhere */
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT id FROM ts WHERE id < 0", SQL_NTS), SQL_HANDLE_STMT,
       st);
    CHECK(SQLFetchScroll(st, SQL_FETCH_LAST, 0) == SQL_NO_DATA &&
              SQLFetchScroll(st, SQL_FETCH_FIRST, 0) == SQL_NO_DATA &&
              SQLFetchScroll(st, SQL_FETCH_ABSOLUTE, -1) == SQL_NO_DATA &&
              SQLFetchScroll(st, SQL_FETCH_PRIOR, 0) == SQL_NO_DATA,
          "empty result: LAST, FIRST, ABSOLUTE -1, PRIOR give SQL_NO_DATA");
    SQLFreeStmt(st, SQL_CLOSE);
    /* a statement that returns no rows runs as before on a static cursor */
    odbc_exec(st, "UPDATE ts SET amount = amount WHERE id = 1");
    SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_FORWARD_ONLY, 0);
}

/* a result the driver makes (SQLGetTypeInfo) scrolls on a static cursor */
static void driver_result(SQLHSTMT st) {
    char fwd[64][64];
    int n = 0;
    OK(SQLGetTypeInfo(st, SQL_ALL_TYPES), SQL_HANDLE_STMT, st);
    while (n < 64 && SQLFetch(st) == SQL_SUCCESS) {
        SQLLEN ind;
        SQLGetData(st, 1, SQL_C_CHAR, fwd[n], sizeof fwd[n], &ind);
        n++;
    }
    SQLFreeStmt(st, SQL_CLOSE);
    SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0);
    OK(SQLGetTypeInfo(st, SQL_ALL_TYPES), SQL_HANDLE_STMT, st);
    static const struct {
        SQLSMALLINT o;
        long off;
    } steps[] = {{SQL_FETCH_LAST, 0},  {SQL_FETCH_PRIOR, 0},    {SQL_FETCH_ABSOLUTE, 2},
                 {SQL_FETCH_FIRST, 0}, {SQL_FETCH_RELATIVE, 3}, {SQL_FETCH_ABSOLUTE, -2}};
    long rows[] = {n, n - 1, 2, 1, 4, n - 1};
    int ok = n > 4;
    for (size_t i = 0; ok && i < sizeof steps / sizeof *steps; i++) {
        char name[64] = "";
        SQLLEN ind;
        SQLULEN rn = 0;
        ok = SQLFetchScroll(st, steps[i].o, steps[i].off) == SQL_SUCCESS &&
             SQL_SUCCEEDED(SQLGetData(st, 1, SQL_C_CHAR, name, sizeof name, &ind)) &&
             SQL_SUCCEEDED(SQLGetStmtAttr(st, SQL_ATTR_ROW_NUMBER, &rn, 0, NULL)) &&
             (long)rn == rows[i] && strcmp(name, fwd[rows[i] - 1]) == 0;
    }
    ok = ok && SQLFetchScroll(st, SQL_FETCH_ABSOLUTE, n + 1) == SQL_NO_DATA;
    CHECK(ok, "SQLGetTypeInfo's %d rows scroll on a static cursor", n);
    SQLFreeStmt(st, SQL_CLOSE);
    SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_FORWARD_ONLY, 0);
}

static void attributes(SQLHSTMT st) {
    SQLULEN ct = 0;
    SQLRETURN rc =
        SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_KEYSET_DRIVEN, 0);
    char state[6];
    snprintf(state, sizeof state, "%s", odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0));
    SQLGetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, &ct, 0, NULL);
    CHECK(rc == SQL_SUCCESS_WITH_INFO && strcmp(state, "01S02") == 0 && ct == SQL_CURSOR_STATIC,
          "KEYSET: 01S02, cursor type %lu (rc %d, %s)", ct, rc, state);
    rc = SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_DYNAMIC, 0);
    SQLGetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, &ct, 0, NULL);
    CHECK(rc == SQL_SUCCESS_WITH_INFO && ct == SQL_CURSOR_STATIC, "DYNAMIC: 01S02 and static");
    SQLULEN sc = 0;
    SQLGetStmtAttr(st, SQL_ATTR_CURSOR_SCROLLABLE, &sc, 0, NULL);
    CHECK(sc == SQL_SCROLLABLE, "a static cursor is scrollable");
    rc = SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_FORWARD_ONLY, 0);
    SQLGetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, &ct, 0, NULL);
    CHECK(rc == SQL_SUCCESS && ct == SQL_CURSOR_FORWARD_ONLY, "back to forward-only");
    /* the cursor type is the one in force at the prepare: changing it
     * afterwards is HY011 (ODBC 3), and the prepared cursor stays as it was */
    OK(SQLPrepare(st, (SQLCHAR *)"SELECT name FROM ts ORDER BY id", SQL_NTS), SQL_HANDLE_STMT, st);
    rc = SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0);
    snprintf(state, sizeof state, "%s", odbc_state(SQL_HANDLE_STMT, st, NULL, NULL, 0));
    SQLGetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, &ct, 0, NULL);
    CHECK(rc == SQL_ERROR && strcmp(state, "HY011") == 0 && ct == SQL_CURSOR_FORWARD_ONLY,
          "cursor type after SQLPrepare: HY011 (rc %d, %s, type %lu)", rc, state, ct);
    rc = SQLSetStmtAttr(st, SQL_ATTR_CONCURRENCY, (SQLPOINTER)SQL_CONCUR_READ_ONLY, 0);
    CHECK(rc == SQL_ERROR, "concurrency after SQLPrepare: HY011 (rc %d)", rc);
    SQLFreeStmt(st, SQL_CLOSE);
    SQLUINTEGER so = 0, ca1 = 0;
    OK(SQLGetInfo(dbc, SQL_SCROLL_OPTIONS, &so, sizeof so, NULL), SQL_HANDLE_DBC, dbc);
    OK(SQLGetInfo(dbc, SQL_STATIC_CURSOR_ATTRIBUTES1, &ca1, sizeof ca1, NULL), SQL_HANDLE_DBC, dbc);
    CHECK(so == (SQL_SO_FORWARD_ONLY | SQL_SO_STATIC) &&
              ca1 == (SQL_CA1_NEXT | SQL_CA1_ABSOLUTE | SQL_CA1_RELATIVE),
          "SQLGetInfo: scroll options %#x, static attributes1 %#x", so, ca1);
}

int main(void) {
    ixd_proc p;
    if (odbc_test_start(&p, "t", "odbcscroll") != 0) return 1;
    env = odbc_test_env();
    dbc = odbc_test_connect(env, p.port);
    SQLHSTMT st;
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    odbc_exec(st, "CREATE DATABASE odbcscroll WITH LOG");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    OK(SQLConnect(dbc, (SQLCHAR *)"t", SQL_NTS, NULL, 0, NULL, 0), SQL_HANDLE_DBC, dbc);
    SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st);
    setup(st);
    forward_rows(st);
    attributes(st);
    driver_result(st);
    long sizes[] = {1, 5, 10, MAXSET};
    SQLSetStmtAttr(st, SQL_ATTR_CURSOR_TYPE, (SQLPOINTER)SQL_CURSOR_STATIC, 0);
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        walks(st, sizes[i]);
    random_walk(st);
    getdata_scrolled(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
    return tap_done();
}
