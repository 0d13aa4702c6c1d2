/* test_desc.c: descriptors and cursor names through unixODBC's driver
 * manager against a real ixd. The IRD of a table of many types answers as
 * SQLColAttribute and SQLDescribeCol do; columns bound through the ARD's
 * fields (SQLSetDescField, SQLSetDescRec) fetch a rowset with the same
 * bytes as SQLBindCol; SQLBindCol shows in the ARD; parameters bound
 * through the APD and IPD insert what SQLBindParameter inserts; an
 * explicitly allocated ARD shared by two statements; SQLCopyDesc; the
 * errors (07009, HY091, HY016, HY021, HY024, HY017) and their records read
 * with SQLGetDiagRec on the descriptor handle; cursor names (defaults,
 * set/get, 01004, 3C000, 34000, 24000) and a positioned UPDATE / DELETE
 * ... WHERE CURRENT OF through a second statement. */
#include <sql.h>
#include <sqlext.h>
#include <sqlucode.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "odbc_test.h"
#include "tap.h"

#define NROWS   7
#define ROWSET  3
#define VC_LEN  21
#define NO_SUCH 9999 /* no descriptor field, no C type */

static SQLHENV env;
static SQLHDBC dbc;

/* call fails with SQLSTATE want on descriptor (or statement) handle h */
#define FAILS(call, type, h, want)                                                                 \
    do {                                                                                           \
        SQLRETURN rc_ = (call);                                                                    \
        const char *st_ = odbc_state(type, h, NULL, NULL, 0);                                      \
        CHECK(rc_ == SQL_ERROR && strcmp(st_, want) == 0, "%s: %d %s (want %s)", #call, rc_, st_,  \
              want);                                                                               \
    } while (0)

static SQLHSTMT new_stmt(void) {
    SQLHSTMT st = SQL_NULL_HSTMT;
    OK(SQLAllocHandle(SQL_HANDLE_STMT, dbc, &st), SQL_HANDLE_DBC, dbc);
    return st;
}

static SQLHDESC desc_of(SQLHSTMT st, SQLINTEGER attr) {
    SQLHDESC d = SQL_NULL_HDESC;
    OK(SQLGetStmtAttr(st, attr, &d, 0, NULL), SQL_HANDLE_STMT, st);
    return d;
}

/* a numeric descriptor field as a SQLLEN, whatever its C type's size */
typedef enum { SMALL, INT, LEN } fsize;

static SQLLEN num_field(SQLHDESC d, SQLSMALLINT rec, SQLSMALLINT f, fsize z, SQLRETURN *rc) {
    union {
        SQLLEN len;
        SQLINTEGER i;
        SQLSMALLINT s;
    } v = {0};
    *rc = SQLGetDescField(d, rec, f, &v, sizeof v, NULL);
    return z == SMALL ? v.s : z == INT ? v.i : v.len;
}

static SQLLEN field(SQLHDESC d, SQLSMALLINT rec, SQLSMALLINT f, fsize z) {
    SQLRETURN rc;
    SQLLEN v = num_field(d, rec, f, z, &rc);
    CHECK(rc == SQL_SUCCESS, "SQLGetDescField(%d, %d): %d %s", rec, f, rc,
          odbc_state(SQL_HANDLE_DESC, d, NULL, NULL, 0));
    return v;
}

static void *ptr_field(SQLHDESC d, SQLSMALLINT rec, SQLSMALLINT f) {
    void *p = NULL;
    OK(SQLGetDescField(d, rec, f, &p, sizeof p, NULL), SQL_HANDLE_DESC, d);
    return p;
}

static void setup(SQLHSTMT st) {
    odbc_exec(st,
              "CREATE TABLE t (id INTEGER NOT NULL, s SMALLINT, b BIGINT, r SMALLFLOAT, f FLOAT, "
              "d DECIMAL(10,3), m MONEY(8,2), dt DATE, ts DATETIME YEAR TO FRACTION(3), "
              "tm DATETIME HOUR TO SECOND, iv INTERVAL DAY(3) TO SECOND, c CHAR(10), "
              "vc VARCHAR(20), lv LVARCHAR(100), bo BOOLEAN, tx TEXT, sr SERIAL)");
    for (int i = 1; i <= NROWS; i++) {
        char sql[400];
        snprintf(sql, sizeof sql,
                 "INSERT INTO t VALUES (%d, %d, %d000000000, %d.5, %d.25, %d.125, %d.5, "
                 "'2024-01-%02d', '2024-02-03 04:05:%02d.123', '10:11:%02d', '%d 01:02:03', "
                 "'c%d', 'name %d', 'long %d', 't', 'text %d', 0)",
                 i, i, i, i, i, i, i, i, i, i, i, i, i, i, i);
        odbc_exec(st, sql);
    }
}

/* ---- the IRD against SQLColAttribute and SQLDescribeCol ---- */

static const struct {
    SQLSMALLINT f;
    fsize z;
} IRD_NUM[] = {
    {SQL_DESC_TYPE, SMALL},
    {SQL_DESC_CONCISE_TYPE, SMALL},
    {SQL_DESC_DATETIME_INTERVAL_CODE, SMALL},
    {SQL_DESC_DATETIME_INTERVAL_PRECISION, INT},
    {SQL_DESC_LENGTH, LEN},
    {SQL_DESC_OCTET_LENGTH, LEN},
    {SQL_DESC_PRECISION, SMALL},
    {SQL_DESC_SCALE, SMALL},
    {SQL_DESC_NULLABLE, SMALL},
    {SQL_DESC_UNNAMED, SMALL},
    {SQL_DESC_DISPLAY_SIZE, LEN},
    {SQL_DESC_NUM_PREC_RADIX, INT},
    {SQL_DESC_UNSIGNED, SMALL},
    {SQL_DESC_FIXED_PREC_SCALE, SMALL},
    {SQL_DESC_AUTO_UNIQUE_VALUE, INT},
    {SQL_DESC_CASE_SENSITIVE, SMALL},
    {SQL_DESC_SEARCHABLE, SMALL},
    {SQL_DESC_UPDATABLE, SMALL},
};
static const SQLSMALLINT IRD_STR[] = {SQL_DESC_NAME,           SQL_DESC_TYPE_NAME,
                                      SQL_DESC_LABEL,          SQL_DESC_BASE_COLUMN_NAME,
                                      SQL_DESC_LITERAL_PREFIX, SQL_DESC_LOCAL_TYPE_NAME};

static void ird_column(SQLHSTMT st, SQLHDESC ird, SQLSMALLINT col) {
    for (size_t k = 0; k < sizeof IRD_NUM / sizeof *IRD_NUM; k++) {
        SQLLEN want = -1;
        OK(SQLColAttribute(st, col, IRD_NUM[k].f, NULL, 0, NULL, &want), SQL_HANDLE_STMT, st);
        SQLLEN got = field(ird, col, IRD_NUM[k].f, IRD_NUM[k].z);
        CHECK(got == want, "IRD column %d field %d: %ld, SQLColAttribute %ld", col, IRD_NUM[k].f,
              (long)got, (long)want);
    }
    for (size_t k = 0; k < sizeof IRD_STR / sizeof *IRD_STR; k++) {
        char want[128] = "?", got[128] = "!";
        OK(SQLColAttribute(st, col, IRD_STR[k], want, sizeof want, NULL, NULL), SQL_HANDLE_STMT,
           st);
        OK(SQLGetDescField(ird, col, IRD_STR[k], got, sizeof got, NULL), SQL_HANDLE_DESC, ird);
        CHECK(strcmp(got, want) == 0, "IRD column %d field %d: '%s', SQLColAttribute '%s'", col,
              IRD_STR[k], got, want);
    }
    SQLCHAR name[64], dname[64];
    SQLSMALLINT type, sub, prec, scale, nullable, dtype, ddigits, dnull;
    SQLLEN len;
    SQLULEN dsize;
    OK(SQLGetDescRec(ird, col, name, sizeof name, NULL, &type, &sub, &len, &prec, &scale,
                     &nullable),
       SQL_HANDLE_DESC, ird);
    OK(SQLDescribeCol(st, col, dname, sizeof dname, NULL, &dtype, &dsize, &ddigits, &dnull),
       SQL_HANDLE_STMT, st);
    CHECK(strcmp((char *)name, (char *)dname) == 0 && nullable == dnull &&
              type == field(ird, col, SQL_DESC_TYPE, SMALL) &&
              sub == field(ird, col, SQL_DESC_DATETIME_INTERVAL_CODE, SMALL) &&
              len == field(ird, col, SQL_DESC_OCTET_LENGTH, LEN),
          "SQLGetDescRec(IRD, %d): %s %d %d %ld / SQLDescribeCol %s %d", col, name, type, sub,
          (long)len, dname, dtype);
}

static void ird(SQLHSTMT st) {
    OK(SQLPrepare(st, (SQLCHAR *)"SELECT * FROM t", SQL_NTS), SQL_HANDLE_STMT, st);
    SQLHDESC d = desc_of(st, SQL_ATTR_IMP_ROW_DESC);
    SQLSMALLINT n = 0;
    OK(SQLNumResultCols(st, &n), SQL_HANDLE_STMT, st);
    CHECK(n == 17 && field(d, 0, SQL_DESC_COUNT, SMALL) == n, "IRD count %ld, %d columns",
          (long)field(d, 0, SQL_DESC_COUNT, SMALL), n);
    for (SQLSMALLINT c = 1; c <= n; c++)
        ird_column(st, d, c);
    /* a few values a broken view would not give */
    CHECK(field(d, 11, SQL_DESC_CONCISE_TYPE, SMALL) == SQL_INTERVAL_DAY_TO_SECOND &&
              field(d, 11, SQL_DESC_TYPE, SMALL) == SQL_INTERVAL &&
              field(d, 11, SQL_DESC_DATETIME_INTERVAL_PRECISION, INT) == 3,
          "IRD: INTERVAL DAY(3) TO SECOND");
    CHECK(field(d, 9, SQL_DESC_TYPE, SMALL) == SQL_DATETIME &&
              field(d, 9, SQL_DESC_DATETIME_INTERVAL_CODE, SMALL) == SQL_CODE_TIMESTAMP &&
              field(d, 9, SQL_DESC_PRECISION, SMALL) == 3,
          "IRD: DATETIME YEAR TO FRACTION(3)");
    CHECK(field(d, 6, SQL_DESC_PRECISION, SMALL) == 10 && field(d, 6, SQL_DESC_SCALE, SMALL) == 3,
          "IRD: DECIMAL(10,3)");
    CHECK(field(d, 1, SQL_DESC_NULLABLE, SMALL) == SQL_NO_NULLS &&
              field(d, 2, SQL_DESC_NULLABLE, SMALL) == SQL_NULLABLE,
          "IRD: NOT NULL");
    char name[32];
    OK(SQLGetDescField(d, 13, SQL_DESC_NAME, name, sizeof name, NULL), SQL_HANDLE_DESC, d);
    CHECK(strcmp(name, "vc") == 0, "IRD name of column 13: %s", name);
    SQLINTEGER nlen = 0;
    CHECK(SQLGetDescField(d, 13, SQL_DESC_NAME, name, 2, &nlen) == SQL_SUCCESS_WITH_INFO &&
              strcmp(name, "v") == 0 && nlen == 2 &&
              strcmp(odbc_state(SQL_HANDLE_DESC, d, NULL, NULL, 0), "01004") == 0,
          "IRD name cut: %s %d", name, (int)nlen);
    FAILS(SQLSetDescField(d, 0, SQL_DESC_ALLOC_TYPE, (SQLPOINTER)SQL_DESC_ALLOC_USER, 0),
          SQL_HANDLE_DESC, d, "HY016");
    /* errors */
    SQLSMALLINT v;
    CHECK(SQLGetDescField(d, 18, SQL_DESC_TYPE, &v, sizeof v, NULL) == SQL_NO_DATA,
          "IRD record past the count: SQL_NO_DATA");
    FAILS(SQLGetDescField(d, 0, SQL_DESC_TYPE, &v, sizeof v, NULL), SQL_HANDLE_DESC, d, "07009");
    FAILS(SQLGetDescField(d, 1, NO_SUCH, &v, sizeof v, NULL), SQL_HANDLE_DESC, d, "HY091");
    FAILS(SQLSetDescField(d, 1, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)SQL_C_CHAR, 0), SQL_HANDLE_DESC,
          d, "HY016");
    FAILS(SQLSetDescField(d, 0, SQL_DESC_COUNT, (SQLPOINTER)3, 0), SQL_HANDLE_DESC, d, "HY016");
    /* the IRD's settable header fields are the row status and rows fetched */
    SQLUSMALLINT status[ROWSET];
    SQLULEN fetched = 0;
    OK(SQLSetDescField(d, 0, SQL_DESC_ARRAY_STATUS_PTR, status, 0), SQL_HANDLE_DESC, d);
    OK(SQLSetDescField(d, 0, SQL_DESC_ROWS_PROCESSED_PTR, &fetched, 0), SQL_HANDLE_DESC, d);
    void *p = NULL, *q = NULL;
    SQLGetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, &p, 0, NULL);
    SQLGetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &q, 0, NULL);
    CHECK(p == status && q == &fetched, "IRD header = row status / rows fetched attributes");
    OK(SQLExecute(st), SQL_HANDLE_STMT, st);
    OK(SQLFetch(st), SQL_HANDLE_STMT, st);
    CHECK(fetched == 1 && status[0] == SQL_ROW_SUCCESS, "rows processed through the IRD: %lu",
          (unsigned long)fetched);
    SQLFreeStmt(st, SQL_CLOSE);
    SQLSetDescField(d, 0, SQL_DESC_ARRAY_STATUS_PTR, NULL, 0);
    SQLSetDescField(d, 0, SQL_DESC_ROWS_PROCESSED_PTR, NULL, 0);
}

/* ---- columns bound through the ARD, against SQLBindCol ---- */

typedef struct rowset {
    SQLINTEGER id[ROWSET];
    SQLLEN id_ind[ROWSET];
    SQLCHAR vc[ROWSET][VC_LEN];
    SQLLEN vc_ind[ROWSET];
    double f[ROWSET];
    SQLLEN f_ind[ROWSET];
    SQL_DATE_STRUCT dt[ROWSET];
    SQLLEN dt_ind[ROWSET];
    SQL_NUMERIC_STRUCT d[ROWSET];
    SQLLEN d_ind[ROWSET];
    SQLULEN fetched;
    SQLUSMALLINT status[ROWSET];
} rowset;

#define ROWSET_SQL "SELECT id, vc, f, dt, d FROM t ORDER BY id"

static void bind_col(SQLHSTMT st, rowset *r) {
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)ROWSET, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROWS_FETCHED_PTR, &r->fetched, 0);
    SQLSetStmtAttr(st, SQL_ATTR_ROW_STATUS_PTR, r->status, 0);
    OK(SQLBindCol(st, 1, SQL_C_SLONG, r->id, 0, r->id_ind), SQL_HANDLE_STMT, st);
    OK(SQLBindCol(st, 2, SQL_C_CHAR, r->vc, VC_LEN, r->vc_ind), SQL_HANDLE_STMT, st);
    OK(SQLBindCol(st, 3, SQL_C_DOUBLE, r->f, 0, r->f_ind), SQL_HANDLE_STMT, st);
    OK(SQLBindCol(st, 4, SQL_C_TYPE_DATE, r->dt, 0, r->dt_ind), SQL_HANDLE_STMT, st);
    OK(SQLBindCol(st, 5, SQL_C_NUMERIC, r->d, 0, r->d_ind), SQL_HANDLE_STMT, st);
}

/* the same through the ARD's fields, each column its own way */
static void bind_desc(SQLHSTMT st, rowset *r) {
    SQLHDESC ard = desc_of(st, SQL_ATTR_APP_ROW_DESC), ird = desc_of(st, SQL_ATTR_IMP_ROW_DESC);
    OK(SQLSetDescField(ard, 0, SQL_DESC_ARRAY_SIZE, (SQLPOINTER)ROWSET, 0), SQL_HANDLE_DESC, ard);
    OK(SQLSetDescField(ird, 0, SQL_DESC_ROWS_PROCESSED_PTR, &r->fetched, 0), SQL_HANDLE_DESC, ird);
    OK(SQLSetDescField(ird, 0, SQL_DESC_ARRAY_STATUS_PTR, r->status, 0), SQL_HANDLE_DESC, ird);
    /* 1: field by field, the data pointer last */
    OK(SQLSetDescField(ard, 1, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)SQL_C_SLONG, 0), SQL_HANDLE_DESC,
       ard);
    OK(SQLSetDescField(ard, 1, SQL_DESC_INDICATOR_PTR, r->id_ind, 0), SQL_HANDLE_DESC, ard);
    OK(SQLSetDescField(ard, 1, SQL_DESC_OCTET_LENGTH_PTR, r->id_ind, 0), SQL_HANDLE_DESC, ard);
    OK(SQLSetDescField(ard, 1, SQL_DESC_DATA_PTR, r->id, 0), SQL_HANDLE_DESC, ard);
    /* 2: SQLSetDescRec */
    OK(SQLSetDescRec(ard, 2, SQL_C_CHAR, 0, VC_LEN, 0, 0, r->vc, r->vc_ind, r->vc_ind),
       SQL_HANDLE_DESC, ard);
    /* 3: the type, then the octet length */
    OK(SQLSetDescField(ard, 3, SQL_DESC_TYPE, (SQLPOINTER)SQL_C_DOUBLE, 0), SQL_HANDLE_DESC, ard);
    OK(SQLSetDescField(ard, 3, SQL_DESC_OCTET_LENGTH, (SQLPOINTER)sizeof(double), 0),
       SQL_HANDLE_DESC, ard);
    OK(SQLSetDescField(ard, 3, SQL_DESC_INDICATOR_PTR, r->f_ind, 0), SQL_HANDLE_DESC, ard);
    OK(SQLSetDescField(ard, 3, SQL_DESC_DATA_PTR, r->f, 0), SQL_HANDLE_DESC, ard);
    /* 4: the verbose type and the interval code */
    OK(SQLSetDescField(ard, 4, SQL_DESC_TYPE, (SQLPOINTER)SQL_DATETIME, 0), SQL_HANDLE_DESC, ard);
    OK(SQLSetDescField(ard, 4, SQL_DESC_DATETIME_INTERVAL_CODE, (SQLPOINTER)SQL_CODE_DATE, 0),
       SQL_HANDLE_DESC, ard);
    OK(SQLSetDescField(ard, 4, SQL_DESC_INDICATOR_PTR, r->dt_ind, 0), SQL_HANDLE_DESC, ard);
    OK(SQLSetDescField(ard, 4, SQL_DESC_DATA_PTR, r->dt, 0), SQL_HANDLE_DESC, ard);
    CHECK(field(ard, 4, SQL_DESC_CONCISE_TYPE, SMALL) == SQL_C_TYPE_DATE,
          "TYPE SQL_DATETIME + code SQL_CODE_DATE: SQL_C_TYPE_DATE");
    /* 5: SQL_C_NUMERIC with precision and scale */
    OK(SQLSetDescRec(ard, 5, SQL_C_NUMERIC, 0, sizeof(SQL_NUMERIC_STRUCT), 10, 3, r->d, r->d_ind,
                     r->d_ind),
       SQL_HANDLE_DESC, ard);
    CHECK(field(ard, 0, SQL_DESC_COUNT, SMALL) == 5, "ARD count 5");
    SQLULEN size = 0;
    SQLGetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, &size, 0, NULL);
    CHECK(size == ROWSET, "SQL_DESC_ARRAY_SIZE is SQL_ATTR_ROW_ARRAY_SIZE: %lu",
          (unsigned long)size);
}

static void fetch_compare(void) {
    SQLHSTMT a = new_stmt(), b = new_stmt();
    rowset *ra = calloc(1, sizeof *ra), *rb = calloc(1, sizeof *rb);
    bind_col(a, ra);
    bind_desc(b, rb);
    OK(SQLExecDirect(a, (SQLCHAR *)ROWSET_SQL, SQL_NTS), SQL_HANDLE_STMT, a);
    OK(SQLExecDirect(b, (SQLCHAR *)ROWSET_SQL, SQL_NTS), SQL_HANDLE_STMT, b);
    int sets = 0;
    SQLULEN last = 0;
    for (;;) {
        SQLRETURN x = SQLFetch(a), y = SQLFetch(b);
        CHECK(x == y, "rowset %d: SQLFetch %d and %d", sets, x, y);
        if (x != SQL_SUCCESS || x != y) break;
        last = rb->fetched;
        CHECK(memcmp(ra, rb, sizeof *ra) == 0, "rowset %d: the same bytes", sets);
        CHECK(rb->id[0] == sets * ROWSET + 1, "rowset %d: id %d", sets, (int)rb->id[0]);
        sets++;
    }
    CHECK(sets == (NROWS + ROWSET - 1) / ROWSET && last == NROWS % ROWSET && rb->fetched == 0,
          "%d rowsets, the last of %lu rows", sets, (unsigned long)last);
    CHECK(strcmp((char *)rb->vc[0], "name 7") == 0 && rb->dt[0].day == 7 && rb->d[0].scale == 3,
          "the last rowset's values: %s %d", rb->vc[0], rb->dt[0].day);
    SQLFreeHandle(SQL_HANDLE_STMT, a);
    SQLFreeHandle(SQL_HANDLE_STMT, b);
    free(ra);
    free(rb);
}

/* SQLBindCol seen in the ARD; COUNT unbinds; the consistency check */
/* the ARD's errors, and their records on the descriptor handle */
static void ard_errors(SQLHDESC ard) {
    SQLINTEGER id = 0;
    SQLLEN len = 0;
    SQLSMALLINT prec = 0;
    FAILS(SQLSetDescField(ard, 1, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)NO_SUCH, 0) == SQL_SUCCESS
              ? SQLSetDescField(ard, 1, SQL_DESC_DATA_PTR, &id, 0)
              : SQL_SUCCESS,
          SQL_HANDLE_DESC, ard, "HY021");
    CHECK(ptr_field(ard, 1, SQL_DESC_DATA_PTR) == NULL, "an inconsistent record stays unbound");
    OK(SQLSetDescField(ard, 1, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)SQL_C_NUMERIC, 0),
       SQL_HANDLE_DESC, ard);
    OK(SQLSetDescField(ard, 1, SQL_DESC_PRECISION, (SQLPOINTER)50, 0), SQL_HANDLE_DESC, ard);
    FAILS(SQLSetDescField(ard, 1, SQL_DESC_DATA_PTR, &id, 0), SQL_HANDLE_DESC, ard, "HY021");
    OK(SQLSetDescField(ard, 1, SQL_DESC_TYPE, (SQLPOINTER)SQL_DATETIME, 0), SQL_HANDLE_DESC, ard);
    FAILS(SQLSetDescField(ard, 1, SQL_DESC_DATA_PTR, &id, 0), SQL_HANDLE_DESC, ard, "HY021");
    FAILS(SQLSetDescField(ard, 0, SQL_DESC_ARRAY_SIZE, (SQLPOINTER)0, 0), SQL_HANDLE_DESC, ard,
          "HY024");
    FAILS(SQLSetDescField(ard, 0, SQL_DESC_TYPE, (SQLPOINTER)SQL_C_CHAR, 0), SQL_HANDLE_DESC, ard,
          "07009");
    FAILS(SQLSetDescField(ard, 1, NO_SUCH, (SQLPOINTER)1, 0), SQL_HANDLE_DESC, ard, "HY091");
    FAILS(SQLSetDescField(ard, 0, SQL_DESC_ROWS_PROCESSED_PTR, &len, 0), SQL_HANDLE_DESC, ard,
          "HY091");
    FAILS(SQLGetDescField(ard, 0, SQL_DESC_PRECISION, &prec, sizeof prec, NULL), SQL_HANDLE_DESC,
          ard, "07009");
    /* the message of the record, on the descriptor handle */
    SQLCHAR state[6], msg[256];
    SQLINTEGER native;
    SQLSMALLINT mlen;
    SQLSetDescField(ard, 1, NO_SUCH, (SQLPOINTER)1, 0);
    CHECK(SQLGetDiagRec(SQL_HANDLE_DESC, ard, 1, state, &native, msg, sizeof msg, &mlen) ==
                  SQL_SUCCESS &&
              strcmp((char *)state, "HY091") == 0 && strstr((char *)msg, "[libixodbc]"),
          "SQLGetDiagRec on the ARD: %s %s", state, msg);
    SQLINTEGER nrec = 0;
    CHECK(SQLGetDiagField(SQL_HANDLE_DESC, ard, 0, SQL_DIAG_NUMBER, &nrec, 0, NULL) ==
                  SQL_SUCCESS &&
              nrec == 1,
          "SQL_DIAG_NUMBER on the ARD: %d", (int)nrec);
}

static void ard_view(void) {
    SQLHSTMT st = new_stmt();
    SQLHDESC ard = desc_of(st, SQL_ATTR_APP_ROW_DESC);
    SQLCHAR buf[VC_LEN] = "unchanged";
    SQLLEN ind = 0;
    SQLINTEGER id = 0;
    CHECK(field(ard, 0, SQL_DESC_COUNT, SMALL) == 0 &&
              field(ard, 0, SQL_DESC_ALLOC_TYPE, SMALL) == SQL_DESC_ALLOC_AUTO,
          "a new ARD: no record, allocated by the driver");
    OK(SQLBindCol(st, 2, SQL_C_CHAR, buf, sizeof buf, &ind), SQL_HANDLE_STMT, st);
    CHECK(field(ard, 0, SQL_DESC_COUNT, SMALL) == 2, "SQLBindCol(2): count 2");
    CHECK(ptr_field(ard, 2, SQL_DESC_DATA_PTR) == buf &&
              ptr_field(ard, 2, SQL_DESC_INDICATOR_PTR) == &ind &&
              ptr_field(ard, 2, SQL_DESC_OCTET_LENGTH_PTR) == &ind &&
              field(ard, 2, SQL_DESC_OCTET_LENGTH, LEN) == sizeof buf &&
              field(ard, 2, SQL_DESC_CONCISE_TYPE, SMALL) == SQL_C_CHAR,
          "SQLBindCol's record in the ARD");
    SQLSMALLINT type = 0, sub = -1, prec, scale, nullable;
    SQLLEN len = 0;
    SQLCHAR name[8];
    OK(SQLGetDescRec(ard, 2, name, sizeof name, NULL, &type, &sub, &len, &prec, &scale, &nullable),
       SQL_HANDLE_DESC, ard);
    CHECK(type == SQL_C_CHAR && sub == 0 && len == sizeof buf, "SQLGetDescRec(ARD, 2): %d %ld",
          type, (long)len);
    OK(SQLBindCol(st, 1, SQL_C_SLONG, &id, 0, NULL), SQL_HANDLE_STMT, st);
    OK(SQLBindCol(st, 2, SQL_C_CHAR, NULL, 0, NULL), SQL_HANDLE_STMT, st);
    CHECK(field(ard, 0, SQL_DESC_COUNT, SMALL) == 1, "column 2 unbound: count 1");
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)2, 0);
    CHECK(field(ard, 0, SQL_DESC_ARRAY_SIZE, LEN) == 2, "SQL_ATTR_ROW_ARRAY_SIZE in the ARD");
    SQLSetStmtAttr(st, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)1, 0);
    /* COUNT 0 unbinds every column: the fetch writes nothing */
    OK(SQLSetDescField(ard, 0, SQL_DESC_COUNT, (SQLPOINTER)0, 0), SQL_HANDLE_DESC, ard);
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT id FROM t WHERE id = 4", SQL_NTS), SQL_HANDLE_STMT, st);
    OK(SQLFetch(st), SQL_HANDLE_STMT, st);
    CHECK(id == 0, "count 0: nothing bound (%d)", (int)id);
    SQLFreeStmt(st, SQL_CLOSE);
    OK(SQLSetDescField(ard, 1, SQL_DESC_DATA_PTR, &id, 0), SQL_HANDLE_DESC, ard);
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT id FROM t WHERE id = 4", SQL_NTS), SQL_HANDLE_STMT, st);
    OK(SQLFetch(st), SQL_HANDLE_STMT, st);
    CHECK(id == 4, "the record bound again by its data pointer: %d", (int)id);
    SQLFreeStmt(st, SQL_CLOSE);
    /* setting a field other than the pointers unbinds the record */
    OK(SQLSetDescField(ard, 1, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)SQL_C_SLONG, 0), SQL_HANDLE_DESC,
       ard);
    CHECK(ptr_field(ard, 1, SQL_DESC_DATA_PTR) == NULL, "CONCISE_TYPE unbinds the record");
    ard_errors(ard);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

/* ---- parameters bound through the APD and IPD ---- */

typedef struct params {
    SQLINTEGER id[2];
    SQLCHAR vc[2][VC_LEN];
    SQLLEN vc_ind[2];
    SQLCHAR d[2][16];
    SQLLEN d_ind[2];
    SQL_DATE_STRUCT dt[2];
    SQLUSMALLINT status[2];
    SQLULEN processed;
} params;

#define INSERT_SQL "INSERT INTO p VALUES (?, ?, ?, ?)"

static void fill_params(params *p, int base) {
    for (int i = 0; i < 2; i++) {
        p->id[i] = base + i;
        snprintf((char *)p->vc[i], VC_LEN, "row %d", i);
        p->vc_ind[i] = SQL_NTS;
        snprintf((char *)p->d[i], sizeof p->d[i], "%d.25", 100 + i);
        p->d_ind[i] = i ? SQL_NULL_DATA : SQL_NTS;
        p->dt[i] = (SQL_DATE_STRUCT){2023, 5, (SQLUSMALLINT)(10 + i)};
    }
}

/* pa's arrays with SQLBindParameter, checked in the APD and IPD */
static void bind_parameters(SQLHSTMT a, params *p) {
    SQLSetStmtAttr(a, SQL_ATTR_PARAMSET_SIZE, (SQLPOINTER)2, 0);
    OK(SQLBindParameter(a, 1, SQL_PARAM_INPUT, SQL_C_SLONG, SQL_INTEGER, 0, 0, p->id, 0, NULL),
       SQL_HANDLE_STMT, a);
    OK(SQLBindParameter(a, 2, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_VARCHAR, 20, 0, p->vc, VC_LEN,
                        p->vc_ind),
       SQL_HANDLE_STMT, a);
    OK(SQLBindParameter(a, 3, SQL_PARAM_INPUT, SQL_C_CHAR, SQL_DECIMAL, 10, 2, p->d, 16, p->d_ind),
       SQL_HANDLE_STMT, a);
    OK(SQLBindParameter(a, 4, SQL_PARAM_INPUT, SQL_C_TYPE_DATE, SQL_TYPE_DATE, 10, 0, p->dt, 0,
                        NULL),
       SQL_HANDLE_STMT, a);
    /* SQLBindParameter's records in the APD and IPD */
    SQLHDESC apd = desc_of(a, SQL_ATTR_APP_PARAM_DESC), ipd = desc_of(a, SQL_ATTR_IMP_PARAM_DESC);
    CHECK(field(apd, 0, SQL_DESC_COUNT, SMALL) == 4 &&
              field(apd, 0, SQL_DESC_ARRAY_SIZE, LEN) == 2 &&
              field(apd, 3, SQL_DESC_CONCISE_TYPE, SMALL) == SQL_C_CHAR &&
              ptr_field(apd, 3, SQL_DESC_DATA_PTR) == p->d &&
              field(apd, 3, SQL_DESC_OCTET_LENGTH, LEN) == 16,
          "SQLBindParameter in the APD");
    CHECK(field(ipd, 3, SQL_DESC_CONCISE_TYPE, SMALL) == SQL_DECIMAL &&
              field(ipd, 3, SQL_DESC_PRECISION, SMALL) == 10 &&
              field(ipd, 3, SQL_DESC_SCALE, SMALL) == 2 &&
              field(ipd, 2, SQL_DESC_LENGTH, LEN) == 20 &&
              field(ipd, 4, SQL_DESC_TYPE, SMALL) == SQL_DATETIME &&
              field(ipd, 1, SQL_DESC_PARAMETER_TYPE, SMALL) == SQL_PARAM_INPUT,
          "SQLBindParameter in the IPD");
}

/* the same as bind_parameters through b's APD and IPD, then executed; the
 * IPD's errors */
static void bind_params_desc(SQLHSTMT b, params *p) {
    SQLHDESC apd = desc_of(b, SQL_ATTR_APP_PARAM_DESC), ipd = desc_of(b, SQL_ATTR_IMP_PARAM_DESC);
    OK(SQLSetDescField(apd, 0, SQL_DESC_ARRAY_SIZE, (SQLPOINTER)2, 0), SQL_HANDLE_DESC, apd);
    OK(SQLSetDescField(ipd, 0, SQL_DESC_ARRAY_STATUS_PTR, p->status, 0), SQL_HANDLE_DESC, ipd);
    OK(SQLSetDescField(ipd, 0, SQL_DESC_ROWS_PROCESSED_PTR, &p->processed, 0), SQL_HANDLE_DESC,
       ipd);
    OK(SQLSetDescField(ipd, 1, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)SQL_INTEGER, 0), SQL_HANDLE_DESC,
       ipd);
    OK(SQLSetDescField(apd, 1, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)SQL_C_SLONG, 0), SQL_HANDLE_DESC,
       apd);
    OK(SQLSetDescField(apd, 1, SQL_DESC_DATA_PTR, p->id, 0), SQL_HANDLE_DESC, apd);
    OK(SQLSetDescRec(ipd, 2, SQL_VARCHAR, 0, 20, 0, 0, NULL, NULL, NULL), SQL_HANDLE_DESC, ipd);
    OK(SQLSetDescRec(apd, 2, SQL_C_CHAR, 0, VC_LEN, 0, 0, p->vc, p->vc_ind, p->vc_ind),
       SQL_HANDLE_DESC, apd);
    OK(SQLSetDescField(ipd, 3, SQL_DESC_TYPE, (SQLPOINTER)SQL_DECIMAL, 0), SQL_HANDLE_DESC, ipd);
    OK(SQLSetDescField(ipd, 3, SQL_DESC_PRECISION, (SQLPOINTER)10, 0), SQL_HANDLE_DESC, ipd);
    OK(SQLSetDescField(ipd, 3, SQL_DESC_SCALE, (SQLPOINTER)2, 0), SQL_HANDLE_DESC, ipd);
    OK(SQLSetDescField(ipd, 3, SQL_DESC_DATA_PTR, p->d, 0), SQL_HANDLE_DESC, ipd); /* a check */
    OK(SQLSetDescRec(apd, 3, SQL_C_CHAR, 0, 16, 0, 0, p->d, p->d_ind, p->d_ind), SQL_HANDLE_DESC,
       apd);
    OK(SQLSetDescField(ipd, 4, SQL_DESC_TYPE, (SQLPOINTER)SQL_DATETIME, 0), SQL_HANDLE_DESC, ipd);
    OK(SQLSetDescField(ipd, 4, SQL_DESC_DATETIME_INTERVAL_CODE, (SQLPOINTER)SQL_CODE_DATE, 0),
       SQL_HANDLE_DESC, ipd);
    OK(SQLSetDescRec(apd, 4, SQL_DATETIME, SQL_CODE_DATE, 0, 0, 0, p->dt, NULL, NULL),
       SQL_HANDLE_DESC, apd);
    SQLULEN n = 0;
    SQLGetStmtAttr(b, SQL_ATTR_PARAMSET_SIZE, &n, 0, NULL);
    CHECK(n == 2, "APD SQL_DESC_ARRAY_SIZE is SQL_ATTR_PARAMSET_SIZE: %lu", (unsigned long)n);
    OK(SQLExecute(b), SQL_HANDLE_STMT, b);
    CHECK(p->processed == 2 && p->status[0] == SQL_PARAM_SUCCESS &&
              p->status[1] == SQL_PARAM_SUCCESS,
          "IPD rows processed %lu, status %d %d", (unsigned long)p->processed, p->status[0],
          p->status[1]);
    /* IPD errors */
    FAILS(SQLSetDescField(ipd, 1, SQL_DESC_PARAMETER_TYPE, (SQLPOINTER)SQL_PARAM_OUTPUT, 0),
          SQL_HANDLE_DESC, ipd, "HYC00");
    OK(SQLSetDescField(ipd, 5, SQL_DESC_CONCISE_TYPE, (SQLPOINTER)SQL_DECIMAL, 0), SQL_HANDLE_DESC,
       ipd);
    OK(SQLSetDescField(ipd, 5, SQL_DESC_SCALE, (SQLPOINTER)40, 0), SQL_HANDLE_DESC, ipd);
    FAILS(SQLSetDescField(ipd, 5, SQL_DESC_DATA_PTR, p->d, 0), SQL_HANDLE_DESC, ipd, "HY021");
}

static void params_compare(void) {
    SQLHSTMT a = new_stmt(), b = new_stmt();
    odbc_exec(a, "CREATE TABLE p (id INTEGER, vc VARCHAR(20), d DECIMAL(10,2), dt DATE)");
    params pa, pb;
    fill_params(&pa, 1);
    fill_params(&pb, 11);
    bind_parameters(a, &pa);
    OK(SQLExecDirect(a, (SQLCHAR *)INSERT_SQL, SQL_NTS), SQL_HANDLE_STMT, a);
    OK(SQLPrepare(b, (SQLCHAR *)INSERT_SQL, SQL_NTS), SQL_HANDLE_STMT, b);
    bind_params_desc(b, &pb);
    /* the rows of a and b differ only in the id */
    OK(SQLExecDirect(a,
                     (SQLCHAR *)"SELECT a.vc, a.d, a.dt, b.vc, b.d, b.dt FROM p a, p b "
                                "WHERE b.id = a.id + 10 ORDER BY a.id",
                     SQL_NTS),
       SQL_HANDLE_STMT, a);
    int rows = 0;
    while (SQLFetch(a) == SQL_SUCCESS) {
        char x[6][32];
        SQLLEN ind[6];
        for (int c = 0; c < 6; c++)
            SQLGetData(a, (SQLUSMALLINT)(c + 1), SQL_C_CHAR, x[c], sizeof x[c], &ind[c]);
        for (int c = 0; c < 3; c++)
            CHECK(ind[c] == ind[c + 3] && (ind[c] == SQL_NULL_DATA || strcmp(x[c], x[c + 3]) == 0),
                  "row %d column %d: '%s' and '%s'", rows, c, x[c], x[c + 3]);
        rows++;
    }
    CHECK(rows == 2, "%d rows inserted through the descriptors", rows);
    SQLFreeHandle(SQL_HANDLE_STMT, a);
    SQLFreeHandle(SQL_HANDLE_STMT, b);
}

/* ---- an explicit ARD shared by two statements; SQLCopyDesc ---- */

static SQLINTEGER fetch_id(SQLHSTMT st, int id) {
    char sql[80];
    snprintf(sql, sizeof sql, "SELECT id FROM t WHERE id = %d", id);
    OK(SQLExecDirect(st, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, st);
    OK(SQLFetch(st), SQL_HANDLE_STMT, st);
    SQLFreeStmt(st, SQL_CLOSE);
    return id;
}

static void explicit_ard(void) {
    SQLHSTMT s1 = new_stmt(), s2 = new_stmt();
    SQLHDESC d = SQL_NULL_HDESC;
    OK(SQLAllocHandle(SQL_HANDLE_DESC, dbc, &d), SQL_HANDLE_DBC, dbc);
    SQLINTEGER v1 = 0, v2 = 0, own = 0;
    SQLLEN ind = 0;
    OK(SQLBindCol(s1, 1, SQL_C_SLONG, &own, 0, NULL), SQL_HANDLE_STMT, s1); /* the implicit ARD */
    CHECK(field(d, 0, SQL_DESC_ALLOC_TYPE, SMALL) == SQL_DESC_ALLOC_USER, "ALLOC_USER");
    OK(SQLSetDescRec(d, 1, SQL_C_SLONG, 0, 0, 0, 0, &v1, NULL, &ind), SQL_HANDLE_DESC, d);
    OK(SQLSetStmtAttr(s1, SQL_ATTR_APP_ROW_DESC, d, 0), SQL_HANDLE_STMT, s1);
    OK(SQLSetStmtAttr(s2, SQL_ATTR_APP_ROW_DESC, d, 0), SQL_HANDLE_STMT, s2);
    CHECK(desc_of(s1, SQL_ATTR_APP_ROW_DESC) == d && desc_of(s2, SQL_ATTR_APP_ROW_DESC) == d,
          "both statements use the explicit ARD");
    fetch_id(s1, 2);
    CHECK(v1 == 2 && own == 0, "s1 fetched into the explicit ARD's buffer: %d", (int)v1);
    fetch_id(s2, 3);
    CHECK(v1 == 3, "s2 too: %d", (int)v1);
    /* SQLBindCol on s1 changes the shared descriptor, seen by s2 */
    OK(SQLBindCol(s1, 1, SQL_C_SLONG, &v2, 0, &ind), SQL_HANDLE_STMT, s1);
    CHECK(ptr_field(d, 1, SQL_DESC_DATA_PTR) == &v2, "SQLBindCol(s1) in the explicit ARD");
    fetch_id(s2, 4);
    CHECK(v2 == 4 && v1 == 3, "s2 fetched into s1's new binding: %d", (int)v2);
    SQLSetStmtAttr(s1, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)2, 0);
    SQLULEN size = 0;
    SQLGetStmtAttr(s2, SQL_ATTR_ROW_ARRAY_SIZE, &size, 0, NULL);
    CHECK(field(d, 0, SQL_DESC_ARRAY_SIZE, LEN) == 2 && size == 2,
          "s1's row array size is the shared ARD's: s2 has %lu", (unsigned long)size);
    SQLSetStmtAttr(s1, SQL_ATTR_ROW_ARRAY_SIZE, (SQLPOINTER)1, 0);
    /* back to the implicit ARD: its own binding again */
    OK(SQLSetStmtAttr(s1, SQL_ATTR_APP_ROW_DESC, SQL_NULL_HDESC, 0), SQL_HANDLE_STMT, s1);
    /* (unixODBC 2.3.11 keeps answering SQLGetStmtAttr with the handle it saw last: the
     * fetch below shows the driver's ARD) */
    fetch_id(s1, 5);
    CHECK(own == 5 && v2 == 4, "s1 fetched into its own binding: %d", (int)own);
    /* an implicit descriptor is no explicit one */
    FAILS(SQLSetStmtAttr(s1, SQL_ATTR_APP_ROW_DESC, desc_of(s2, SQL_ATTR_IMP_ROW_DESC), 0),
          SQL_HANDLE_STMT, s1, "HY017");
    /* freed: s2 goes back to its implicit ARD (nothing bound) */
    OK(SQLFreeHandle(SQL_HANDLE_DESC, d), SQL_HANDLE_DBC, dbc);
    SQLHDESC imp = desc_of(s2, SQL_ATTR_APP_ROW_DESC);
    CHECK(imp != d && imp != SQL_NULL_HDESC && field(imp, 0, SQL_DESC_COUNT, SMALL) == 0,
          "after SQLFreeHandle: s2's implicit ARD");
    v2 = 0;
    fetch_id(s2, 6);
    CHECK(v2 == 0, "s2 bound nothing after the free");
    SQLFreeHandle(SQL_HANDLE_STMT, s1);
    SQLFreeHandle(SQL_HANDLE_STMT, s2);
}

/* an explicit APD: the parameter values come from its records */
static void explicit_apd(void) {
    SQLHSTMT st = new_stmt();
    SQLHDESC d = SQL_NULL_HDESC;
    OK(SQLAllocHandle(SQL_HANDLE_DESC, dbc, &d), SQL_HANDLE_DBC, dbc);
    SQLINTEGER id = 42;
    SQLCHAR vc[VC_LEN] = "explicit";
    SQLLEN ind = SQL_NTS;
    OK(SQLSetDescRec(d, 1, SQL_C_SLONG, 0, 0, 0, 0, &id, NULL, NULL), SQL_HANDLE_DESC, d);
    OK(SQLSetDescRec(d, 2, SQL_C_CHAR, 0, VC_LEN, 0, 0, vc, &ind, &ind), SQL_HANDLE_DESC, d);
    OK(SQLSetStmtAttr(st, SQL_ATTR_APP_PARAM_DESC, d, 0), SQL_HANDLE_STMT, st);
    OK(SQLExecDirect(st, (SQLCHAR *)"INSERT INTO p (id, vc) VALUES (?, ?)", SQL_NTS),
       SQL_HANDLE_STMT, st);
    SQLFreeHandle(SQL_HANDLE_DESC, d);
    char got[VC_LEN] = "";
    OK(SQLExecDirect(st, (SQLCHAR *)"SELECT vc FROM p WHERE id = 42", SQL_NTS), SQL_HANDLE_STMT,
       st);
    OK(SQLFetch(st), SQL_HANDLE_STMT, st);
    SQLGetData(st, 1, SQL_C_CHAR, got, sizeof got, NULL);
    CHECK(strcmp(got, "explicit") == 0, "inserted through an explicit APD: '%s'", got);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

static void copy_desc(void) {
    SQLHSTMT a = new_stmt(), b = new_stmt();
    SQLINTEGER id = 0;
    SQLCHAR vc[VC_LEN] = "";
    SQLLEN ind[2];
    OK(SQLBindCol(a, 1, SQL_C_SLONG, &id, 0, &ind[0]), SQL_HANDLE_STMT, a);
    OK(SQLBindCol(a, 2, SQL_C_CHAR, vc, sizeof vc, &ind[1]), SQL_HANDLE_STMT, a);
    SQLHDESC ard_a = desc_of(a, SQL_ATTR_APP_ROW_DESC), ard_b = desc_of(b, SQL_ATTR_APP_ROW_DESC);
    OK(SQLCopyDesc(ard_a, ard_b), SQL_HANDLE_DESC, ard_b);
    CHECK(field(ard_b, 0, SQL_DESC_COUNT, SMALL) == 2 &&
              ptr_field(ard_b, 2, SQL_DESC_DATA_PTR) == vc &&
              field(ard_b, 2, SQL_DESC_OCTET_LENGTH, LEN) == sizeof vc &&
              ptr_field(ard_b, 1, SQL_DESC_INDICATOR_PTR) == &ind[0],
          "the copied ARD");
    OK(SQLExecDirect(b, (SQLCHAR *)"SELECT id, vc FROM t WHERE id = 5", SQL_NTS), SQL_HANDLE_STMT,
       b);
    OK(SQLFetch(b), SQL_HANDLE_STMT, b);
    CHECK(id == 5 && strcmp((char *)vc, "name 5") == 0 && ind[1] == 6,
          "b fetched through the copy: %d %s", (int)id, vc);
    SQLFreeStmt(b, SQL_CLOSE);
    SQLHDESC ird_b = desc_of(b, SQL_ATTR_IMP_ROW_DESC);
    FAILS(SQLCopyDesc(ard_a, ird_b), SQL_HANDLE_DESC, ird_b, "HY016");
    /* from an IRD into an explicit descriptor: the columns' types */
    OK(SQLPrepare(b, (SQLCHAR *)"SELECT id, vc FROM t", SQL_NTS), SQL_HANDLE_STMT, b);
    SQLHDESC d = SQL_NULL_HDESC;
    OK(SQLAllocHandle(SQL_HANDLE_DESC, dbc, &d), SQL_HANDLE_DBC, dbc);
    OK(SQLCopyDesc(ird_b, d), SQL_HANDLE_DESC, d);
    CHECK(field(d, 0, SQL_DESC_COUNT, SMALL) == 2 &&
              field(d, 2, SQL_DESC_CONCISE_TYPE, SMALL) == SQL_VARCHAR,
          "IRD copied into an explicit descriptor");
    SQLFreeHandle(SQL_HANDLE_DESC, d);
    SQLFreeHandle(SQL_HANDLE_STMT, a);
    SQLFreeHandle(SQL_HANDLE_STMT, b);
}

/* ---- cursor names ---- */

/* UPDATE and DELETE ... WHERE CURRENT OF a's cursor (upd_cur) through c */
static void positioned(SQLHSTMT a, SQLHSTMT c) {
    /* a positioned UPDATE and DELETE through another statement */
    OK(SQLExecDirect(a, (SQLCHAR *)"SELECT id, vc FROM t WHERE id >= 5 FOR UPDATE", SQL_NTS),
       SQL_HANDLE_STMT, a);
    FAILS(SQLSetCursorName(a, (SQLCHAR *)"late", SQL_NTS), SQL_HANDLE_STMT, a, "24000");
    SQLINTEGER id = 0, id2 = 0;
    OK(SQLFetch(a), SQL_HANDLE_STMT, a);
    SQLGetData(a, 1, SQL_C_SLONG, &id, 0, NULL);
    OK(SQLExecDirect(c, (SQLCHAR *)"UPDATE t SET vc = 'positioned' WHERE CURRENT OF upd_cur",
                     SQL_NTS),
       SQL_HANDLE_STMT, c);
    SQLLEN count = 0;
    SQLRowCount(c, &count);
    CHECK(count == 1, "positioned UPDATE: %ld row", (long)count);
    OK(SQLFetch(a), SQL_HANDLE_STMT, a);
    SQLGetData(a, 1, SQL_C_SLONG, &id2, 0, NULL);
    OK(SQLExecDirect(c, (SQLCHAR *)"DELETE FROM t WHERE CURRENT OF upd_cur", SQL_NTS),
       SQL_HANDLE_STMT, c);
    SQLFreeStmt(a, SQL_CLOSE);
    char sql[80], vc[VC_LEN] = "";
    snprintf(sql, sizeof sql, "SELECT vc FROM t WHERE id = %d", (int)id);
    OK(SQLExecDirect(c, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, c);
    OK(SQLFetch(c), SQL_HANDLE_STMT, c);
    SQLGetData(c, 1, SQL_C_CHAR, vc, sizeof vc, NULL);
    SQLFreeStmt(c, SQL_CLOSE);
    CHECK(strcmp(vc, "positioned") == 0, "row %d updated where current: %s", (int)id, vc);
    snprintf(sql, sizeof sql, "SELECT COUNT(*) FROM t WHERE id = %d", (int)id2);
    SQLINTEGER n = -1;
    OK(SQLExecDirect(c, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, c);
    OK(SQLFetch(c), SQL_HANDLE_STMT, c);
    SQLGetData(c, 1, SQL_C_SLONG, &n, 0, NULL);
    SQLFreeStmt(c, SQL_CLOSE);
    CHECK(id2 != id && n == 0, "row %d deleted where current: %d left", (int)id2, (int)n);
}

/* WHERE CURRENT OF a default name, also one made while the cursor is open */
static void default_names(SQLHSTMT c) {
    char sql[80];
    SQLINTEGER n = 0;
    /* the default name works as well */
    SQLHSTMT d = new_stmt();
    SQLCHAR nd[32];
    OK(SQLGetCursorName(d, nd, sizeof nd, NULL), SQL_HANDLE_STMT, d);
    OK(SQLExecDirect(d, (SQLCHAR *)"SELECT id FROM t WHERE id = 1 FOR UPDATE", SQL_NTS),
       SQL_HANDLE_STMT, d);
    OK(SQLFetch(d), SQL_HANDLE_STMT, d);
    snprintf(sql, sizeof sql, "UPDATE t SET s = -1 WHERE CURRENT OF %s", nd);
    OK(SQLExecDirect(c, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, c);
    SQLFreeStmt(d, SQL_CLOSE);
    n = 0;
    OK(SQLExecDirect(c, (SQLCHAR *)"SELECT s FROM t WHERE id = 1", SQL_NTS), SQL_HANDLE_STMT, c);
    OK(SQLFetch(c), SQL_HANDLE_STMT, c);
    SQLGetData(c, 1, SQL_C_SLONG, &n, 0, NULL);
    SQLFreeStmt(c, SQL_CLOSE);
    CHECK(n == -1, "positioned UPDATE through the default name %s: %d", nd, (int)n);
    /* a name made while the cursor is open reaches the server at the next SQLExecute */
    OK(SQLPrepare(d, (SQLCHAR *)"SELECT id FROM t WHERE id = 2 FOR UPDATE", SQL_NTS),
       SQL_HANDLE_STMT, d);
    SQLHSTMT e = new_stmt();
    OK(SQLPrepare(e, (SQLCHAR *)"SELECT id FROM t WHERE id = 3 FOR UPDATE", SQL_NTS),
       SQL_HANDLE_STMT, e);
    OK(SQLExecute(e), SQL_HANDLE_STMT, e);
    OK(SQLFetch(e), SQL_HANDLE_STMT, e);
    OK(SQLGetCursorName(e, nd, sizeof nd, NULL), SQL_HANDLE_STMT, e);
    SQLFreeStmt(e, SQL_CLOSE);
    OK(SQLExecute(e), SQL_HANDLE_STMT, e);
    OK(SQLFetch(e), SQL_HANDLE_STMT, e);
    snprintf(sql, sizeof sql, "UPDATE t SET s = -3 WHERE CURRENT OF %s", nd);
    OK(SQLExecDirect(c, (SQLCHAR *)sql, SQL_NTS), SQL_HANDLE_STMT, c);
    SQLFreeStmt(e, SQL_CLOSE);
    SQLFreeHandle(SQL_HANDLE_STMT, e);
    SQLFreeHandle(SQL_HANDLE_STMT, d);
}

static void cursor_names(void) {
    SQLHSTMT a = new_stmt(), b = new_stmt(), c = new_stmt();
    SQLCHAR na[32] = "", nb[32] = "", small[4];
    SQLSMALLINT len = 0;
    OK(SQLGetCursorName(a, na, sizeof na, &len), SQL_HANDLE_STMT, a);
    OK(SQLGetCursorName(b, nb, sizeof nb, NULL), SQL_HANDLE_STMT, b);
    CHECK(strncmp((char *)na, "SQL_CUR", 7) == 0 && strncmp((char *)nb, "SQL_CUR", 7) == 0 &&
              strcmp((char *)na, (char *)nb) != 0 && len == (SQLSMALLINT)strlen((char *)na),
          "default names %s %s", na, nb);
    OK(SQLSetCursorName(a, (SQLCHAR *)"upd_cur", SQL_NTS), SQL_HANDLE_STMT, a);
    OK(SQLGetCursorName(a, na, sizeof na, &len), SQL_HANDLE_STMT, a);
    CHECK(strcmp((char *)na, "upd_cur") == 0 && len == 7, "set and get: %s", na);
    CHECK(SQLGetCursorName(a, small, sizeof small, &len) == SQL_SUCCESS_WITH_INFO &&
              strcmp((char *)small, "upd") == 0 && len == 7 &&
              strcmp(odbc_state(SQL_HANDLE_STMT, a, NULL, NULL, 0), "01004") == 0,
          "cut: %s %d", small, len);
    FAILS(SQLSetCursorName(b, (SQLCHAR *)"UPD_CUR", SQL_NTS), SQL_HANDLE_STMT, b, "3C000");
    FAILS(SQLSetCursorName(b, (SQLCHAR *)"SQL_CURx", SQL_NTS), SQL_HANDLE_STMT, b, "34000");
    FAILS(SQLSetCursorName(b, (SQLCHAR *)"SQLCUR1", SQL_NTS), SQL_HANDLE_STMT, b, "34000");
    FAILS(SQLSetCursorName(b, (SQLCHAR *)"bad name", SQL_NTS), SQL_HANDLE_STMT, b, "34000");
    OK(SQLSetCursorName(b, (SQLCHAR *)"other_cur_and_more", 9), SQL_HANDLE_STMT, b);
    OK(SQLGetCursorName(b, nb, sizeof nb, NULL), SQL_HANDLE_STMT, b);
    CHECK(strcmp((char *)nb, "other_cur") == 0, "a name with a length: %s", nb);
    positioned(a, c);
    default_names(c);
    SQLFreeHandle(SQL_HANDLE_STMT, a);
    SQLFreeHandle(SQL_HANDLE_STMT, b);
    SQLFreeHandle(SQL_HANDLE_STMT, c);
}

static void functions(void) {
    SQLUSMALLINT f[SQL_API_ODBC3_ALL_FUNCTIONS_SIZE];
    OK(SQLGetFunctions(dbc, SQL_API_ODBC3_ALL_FUNCTIONS, f), SQL_HANDLE_DBC, dbc);
    const SQLUSMALLINT want[] = {SQL_API_SQLGETDESCFIELD, SQL_API_SQLSETDESCFIELD,
                                 SQL_API_SQLGETDESCREC,   SQL_API_SQLSETDESCREC,
                                 SQL_API_SQLCOPYDESC,     SQL_API_SQLGETCURSORNAME,
                                 SQL_API_SQLSETCURSORNAME};
    for (size_t i = 0; i < sizeof want / sizeof *want; i++)
        CHECK(SQL_FUNC_EXISTS(f, want[i]), "SQLGetFunctions lists %d", want[i]);
    SQLUINTEGER ps = 0;
    OK(SQLGetInfo(dbc, SQL_POSITIONED_STATEMENTS, &ps, sizeof ps, NULL), SQL_HANDLE_DBC, dbc);
    CHECK(ps == (SQL_PS_POSITIONED_DELETE | SQL_PS_POSITIONED_UPDATE | SQL_PS_SELECT_FOR_UPDATE),
          "SQL_POSITIONED_STATEMENTS %u", (unsigned)ps);
}

/* text as UTF-16 into w (ASCII) */
static SQLWCHAR *wide(SQLWCHAR *w, const char *text) {
    size_t i = 0;
    for (; text[i]; i++)
        w[i] = (SQLWCHAR)text[i];
    w[i] = 0;
    return w;
}

static int wide_is(const SQLWCHAR *w, const char *text) {
    size_t i = 0;
    for (; text[i]; i++)
        if (w[i] != (SQLWCHAR)text[i]) return 0;
    return w[i] == 0;
}

/* the wide functions: cursor names in characters, descriptor strings in
 * bytes */
static void wide_functions(void) {
    SQLHSTMT st = new_stmt();
    SQLWCHAR w[64], out[64];
    SQLSMALLINT len = 0;
    OK(SQLSetCursorNameW(st, wide(w, "wide_cur"), SQL_NTS), SQL_HANDLE_STMT, st);
    OK(SQLGetCursorNameW(st, out, 64, &len), SQL_HANDLE_STMT, st);
    CHECK(wide_is(out, "wide_cur") && len == 8, "SQLGetCursorNameW: %d characters", len);
    CHECK(SQLGetCursorNameW(st, out, 5, &len) == SQL_SUCCESS_WITH_INFO && wide_is(out, "wide") &&
              len == 8,
          "SQLGetCursorNameW cut: 01004");
    SQLCHAR narrow[16];
    OK(SQLGetCursorName(st, narrow, sizeof narrow, NULL), SQL_HANDLE_STMT, st);
    CHECK(strcmp((char *)narrow, "wide_cur") == 0, "narrow: %s", narrow);
    OK(SQLPrepare(st, (SQLCHAR *)"SELECT id, vc FROM t", SQL_NTS), SQL_HANDLE_STMT, st);
    SQLHDESC ird = desc_of(st, SQL_ATTR_IMP_ROW_DESC);
    SQLINTEGER bytes = 0;
    OK(SQLGetDescFieldW(ird, 2, SQL_DESC_NAME, out, sizeof out, &bytes), SQL_HANDLE_DESC, ird);
    CHECK(wide_is(out, "vc") && bytes == 2 * (SQLINTEGER)sizeof(SQLWCHAR),
          "SQLGetDescFieldW(NAME): %d bytes", (int)bytes);
    SQLSMALLINT type = 0;
    OK(SQLGetDescFieldW(ird, 2, SQL_DESC_CONCISE_TYPE, &type, sizeof type, NULL), SQL_HANDLE_DESC,
       ird);
    CHECK(type == SQL_VARCHAR, "SQLGetDescFieldW(CONCISE_TYPE): %d", type);
    SQLSMALLINT sub, prec, scale, nullable;
    SQLLEN length;
    OK(SQLGetDescRecW(ird, 1, out, 64, &len, &type, &sub, &length, &prec, &scale, &nullable),
       SQL_HANDLE_DESC, ird);
    CHECK(wide_is(out, "id") && len == 2 && type == SQL_INTEGER && nullable == SQL_NO_NULLS,
          "SQLGetDescRecW: %d characters, type %d", len, type);
    SQLHDESC ipd = desc_of(st, SQL_ATTR_IMP_PARAM_DESC);
    FAILS(SQLSetDescFieldW(ipd, 1, SQL_DESC_NAME, wide(w, "p1"), SQL_NTS), SQL_HANDLE_DESC, ipd,
          "HYC00");
    SQLFreeHandle(SQL_HANDLE_STMT, st);
}

int main(void) {
    ixd_proc p;
    if (odbc_test_start(&p, "t", "odbcdesc") != 0) return 1;
    env = odbc_test_env();
    dbc = odbc_test_connect(env, p.port);
    SQLHSTMT st = new_stmt();
    odbc_exec(st, "CREATE DATABASE odbcdesc WITH LOG");
    setup(st);
    ird(st);
    SQLFreeHandle(SQL_HANDLE_STMT, st);
    fetch_compare();
    ard_view();
    params_compare();
    explicit_ard();
    explicit_apd();
    copy_desc();
    cursor_names();
    functions();
    wide_functions();
    SQLDisconnect(dbc);
    SQLFreeHandle(SQL_HANDLE_DBC, dbc);
    SQLFreeHandle(SQL_HANDLE_ENV, env);
    ixd_stop(&p, SIGTERM);
    if (!tap_fail) ixd_rmdir(&p);
    return tap_done();
}
