/*
 * ixdb_arrays.c: Cursor.fetch_arrays(n=None, numpy=None), the rest of the
 * result (or n rows) as one array per column (docs/python.md
 * "fetch_arrays").
 *
 * The values go from the statement's current row straight into one buffer
 * per column, with no row tuple and, for the typed columns, no Python
 * object per value:
 *
 *   kind (ixdb_module.h)   NumPy dtype         C buffer (one per column)
 *   K_INT                  int64               int64_t
 *   K_FLOAT                float64             double
 *   K_BOOL                 bool                uint8_t (0 / 1)
 *   K_DATE                 datetime64[D]       int64_t days since 1970-01-01
 *   K_DT                   datetime64[us]      int64_t us since 1970-01-01
 *   K_IV_DS                timedelta64[us]     int64_t us (signed)
 *   any other kind         object              a list of what fetchall gives
 *
 * A typed column with a NULL becomes a numpy.ma.MaskedArray (mask True at
 * the NULLs, data 0 there), so the dtype stays; object columns hold None.
 * Without NumPy (or numpy=False) every column is a list of the values
 * fetchall would give (None for NULL).
 */
#include "ixdb_module.h"

#include <stdlib.h>
#include <string.h>

enum { A_OBJ, A_I64, A_F64, A_BOOL, A_DAY, A_US, A_TD };

static const char *const dtype_of[] = {"object",        "int64",          "float64",        "bool",
                                       "datetime64[D]", "datetime64[us]", "timedelta64[us]"};

typedef struct {
    int mode;
    size_t width;  /* bytes per value of a typed column */
    char *data;    /* typed: the values */
    uint8_t *mask; /* typed: 1 at a NULL */
    size_t n, cap;
    int has_null;
    PyObject *list; /* A_OBJ */
} colbuf;

#define US_PER_DAY     86400000000LL
#define US_PER_FRACT   10          /* ix_datetime_t / ix_interval_t fractions are 10 us */
#define DAYS_TO_1970   719468      /* days from 0000-03-01 to 1970-01-01 (civil) */
#define MAX_IV_DAYS_US 106751991LL /* days that fit int64 microseconds */

/* Days since 1970-01-01 of a proleptic Gregorian date. */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d) {
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    unsigned yoe = (unsigned)(y - era * 400);
    unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + (int64_t)doe - DAYS_TO_1970;
}

static int mode_of(int kind, int use_numpy) {
    if (!use_numpy) return A_OBJ;
    switch (kind) {
    case K_INT: return A_I64;
    case K_FLOAT: return A_F64;
    case K_BOOL: return A_BOOL;
    case K_DATE: return A_DAY;
    case K_DT: return A_US;
    case K_IV_DS: return A_TD;
    default: return A_OBJ;
    }
}

static int buf_grow(colbuf *b) {
    size_t cap = b->cap ? b->cap * 2 : 1024;
    char *d = realloc(b->data, cap * b->width);
    if (!d) return -1;
    b->data = d;
    uint8_t *m = realloc(b->mask, cap);
    if (!m) return -1;
    b->mask = m;
    b->cap = cap;
    return 0;
}

/* The value of a DATETIME (from YEAR, MONTH or DAY) in microseconds since
 * 1970, with the fields the qualifier lacks as fetchall takes them. */
static int64_t dt_us(const ix_datetime_t *v, unsigned q) {
    int start = (int)((q >> 4) & 0xf), end = (int)(q & 0xf);
    int year = start > IX_UNIT_YEAR ? 2000 : v->year;
    int month = start > IX_UNIT_MONTH || end < IX_UNIT_MONTH ? 1 : v->month;
    int day = start > IX_UNIT_DAY || end < IX_UNIT_DAY ? 1 : v->day;
    int64_t secs = v->hour * 3600 + v->minute * 60 + v->second;
    return days_from_civil(year, (unsigned)month, (unsigned)day) * US_PER_DAY + secs * 1000000 +
           (int64_t)v->fraction * US_PER_FRACT;
}

/* A day-time INTERVAL in microseconds; -1 when it does not fit. */
static int iv_us(const ix_interval_t *v, int64_t *out) {
    int64_t secs = v->hours * 3600 + v->minutes * 60 + v->seconds;
    int64_t days = v->days + secs / 86400;
    if (days >= MAX_IV_DAYS_US) return -1;
    int64_t us = days * US_PER_DAY + (secs % 86400) * 1000000 + v->fraction * US_PER_FRACT;
    *out = v->sign < 0 ? -us : us;
    return 0;
}

static PyObject *arrays_col_error(ix_stmt *s, int rc) {
    ix_conn *c = ix_stmt_conn(s);
    return c ? raise_conn(c, rc) : raise_simple(DataError, ix_rc_str(rc));
}

/* Appends column i of the current row to b. 0 or -1 (exception set). */
static int put_typed(ix_stmt *s, int i, const colinfo *ci, colbuf *b) {
    if (b->n == b->cap && buf_grow(b) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    char *slot = b->data + b->n * b->width;
    int64_t iv = 0;
    double dv = 0;
    int rc;
    switch (b->mode) {
    case A_I64:
    case A_BOOL: rc = ix_column_get_int64(s, i, &iv); break;
    case A_F64: rc = ix_column_get_double(s, i, &dv); break;
    case A_DAY: {
        int y, m, d;
        rc = ix_column_date_ymd(s, i, &y, &m, &d);
        if (rc == IX_OK) iv = days_from_civil(y, (unsigned)m, (unsigned)d);
        break;
    }
    case A_US: {
        ix_datetime_t v;
        rc = ix_column_datetime(s, i, &v);
        if (rc == IX_OK) iv = dt_us(&v, (unsigned)ci->enclen);
        break;
    }
    default: {
        ix_interval_t v;
        rc = ix_column_interval(s, i, &v);
        if (rc == IX_OK && iv_us(&v, &iv) < 0) {
            raise_simple(DataError, "INTERVAL outside timedelta64[us]'s range");
            return -1;
        }
        break;
    }
    }
    b->mask[b->n] = rc == IX_NULL_VALUE;
    if (rc == IX_NULL_VALUE) {
        b->has_null = 1;
        iv = 0;
        dv = 0;
    } else if (rc != IX_OK) {
        arrays_col_error(s, rc);
        return -1;
    }
    if (b->mode == A_BOOL)
        *(uint8_t *)slot = iv != 0;
    else if (b->mode == A_F64)
        memcpy(slot, &dv, sizeof dv);
    else
        memcpy(slot, &iv, sizeof iv);
    b->n++;
    return 0;
}

static int put_row(CursorObject *cu, colbuf *bufs) {
    for (int i = 0; i < cu->ncols; i++) {
        colbuf *b = &bufs[i];
        if (b->mode != A_OBJ) {
            if (put_typed(cu->stmt, i, &cu->cols[i], b) < 0) return -1;
            continue;
        }
        PyObject *v = fetch_value(cu->stmt, i, &cu->cols[i], cu->conn->encoding);
        if (!v) return -1;
        int bad = PyList_Append(b->list, v);
        Py_DECREF(v);
        if (bad < 0) return -1;
    }
    return 0;
}

/* Steps through up to max rows (max < 0: all) into bufs. 0 or -1. */
static int fill(CursorObject *cu, colbuf *bufs, Py_ssize_t max) {
    ConnectionObject *co = cu->conn;
    if (conn_enter(co) < 0) return -1;
    int ret = 0;
    for (Py_ssize_t got = 0; cu->has_rows && (max < 0 || got < max); got++) {
        int rc = cursor_advance(cu);
        if (rc != IX_ROW) {
            cu->has_rows = 0;
            if (rc != IX_DONE) {
                raise_conn(co->conn, rc);
                ret = -1;
            }
            break;
        }
        if (put_row(cu, bufs) < 0) {
            ret = -1;
            break;
        }
    }
    conn_leave(co);
    return ret;
}

/* A NumPy array from a typed buffer (masked when it has NULLs). */
static PyObject *typed_array(PyObject *np, const colbuf *b) {
    const char *dt = dtype_of[b->mode];
    if (b->n == 0) return PyObject_CallMethod(np, "empty", "(is)", 0, dt);
    PyObject *raw = PyByteArray_FromStringAndSize(b->data, (Py_ssize_t)(b->n * b->width));
    if (!raw) return NULL;
    PyObject *a = PyObject_CallMethod(np, "frombuffer", "(Os)", raw, dt);
    Py_DECREF(raw);
    if (!a || !b->has_null) return a;
    PyObject *mraw = PyByteArray_FromStringAndSize((const char *)b->mask, (Py_ssize_t)b->n);
    PyObject *mask = mraw ? PyObject_CallMethod(np, "frombuffer", "(Os)", mraw, "bool") : NULL;
    Py_XDECREF(mraw);
    PyObject *ma = mask ? PyObject_GetAttrString(np, "ma") : NULL;
    PyObject *r = NULL;
    if (ma) {
        PyObject *kw = Py_BuildValue("{s:O}", "mask", mask);
        PyObject *cls = kw ? PyObject_GetAttrString(ma, "MaskedArray") : NULL;
        PyObject *args = cls ? PyTuple_Pack(1, a) : NULL;
        if (args) r = PyObject_Call(cls, args, kw);
        Py_XDECREF(args);
        Py_XDECREF(cls);
        Py_XDECREF(kw);
        Py_DECREF(ma);
    }
    Py_XDECREF(mask);
    Py_DECREF(a);
    return r;
}

/* An object array holding the list's items. */
static PyObject *object_array(PyObject *np, PyObject *list) {
    PyObject *a = PyObject_CallMethod(np, "empty", "(ns)", PyList_GET_SIZE(list), "object");
    if (!a) return NULL;
    PyObject *all = PySlice_New(NULL, NULL, NULL);
    int bad = !all || PyObject_SetItem(a, all, list) < 0;
    Py_XDECREF(all);
    if (bad) Py_CLEAR(a);
    return a;
}

static PyObject *build_result(CursorObject *cu, colbuf *bufs, PyObject *np) {
    PyObject *out = PyList_New(cu->ncols);
    if (!out) return NULL;
    for (int i = 0; i < cu->ncols; i++) {
        colbuf *b = &bufs[i];
        PyObject *v = !np                ? Py_NewRef(b->list)
                      : b->mode == A_OBJ ? object_array(np, b->list)
                                         : typed_array(np, b);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

/* numpy (a new reference) when wanted (want: 1 yes, 0 no, -1 when it
 * imports); NULL with no exception when not used. */
static PyObject *numpy_module(int want) {
    if (want == 0) return NULL;
    PyObject *np = PyImport_ImportModule("numpy");
    if (!np && want < 0 && PyErr_ExceptionMatches(PyExc_ImportError)) PyErr_Clear();
    return np;
}

PyObject *Cursor_fetch_arrays(CursorObject *cu, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"n", "numpy", NULL};
    PyObject *nobj = Py_None, *npobj = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|OO:fetch_arrays", kwlist, &nobj, &npobj))
        return NULL;
    Py_ssize_t max = -1;
    if (nobj != Py_None) {
        max = PyNumber_AsSsize_t(nobj, PyExc_OverflowError);
        if (max == -1 && PyErr_Occurred()) return NULL;
        if (max < 0) max = 0;
    }
    int want = npobj == Py_None ? -1 : PyObject_IsTrue(npobj);
    if (want == -1 && npobj != Py_None) return NULL;
    if (cursor_check(cu) < 0) return NULL;
    if (!cu->stmt || !cu->description || cu->description == Py_None)
        return raise_simple(ProgrammingError, "no result set: execute a query first");
    PyObject *np = numpy_module(want);
    if (!np && PyErr_Occurred()) return NULL;
    colbuf *bufs = calloc((size_t)(cu->ncols ? cu->ncols : 1), sizeof *bufs);
    PyObject *out = NULL;
    if (!bufs) {
        PyErr_NoMemory();
        goto done;
    }
    for (int i = 0; i < cu->ncols; i++) {
        bufs[i].mode = mode_of(cu->cols[i].kind, np != NULL);
        bufs[i].width = bufs[i].mode == A_BOOL ? 1 : 8;
        if (bufs[i].mode == A_OBJ && !(bufs[i].list = PyList_New(0))) goto done;
    }
    if (fill(cu, bufs, max) == 0) out = build_result(cu, bufs, np);
done:
    if (bufs)
        for (int i = 0; i < cu->ncols; i++) {
            free(bufs[i].data);
            free(bufs[i].mask);
            Py_XDECREF(bufs[i].list);
        }
    free(bufs);
    Py_XDECREF(np);
    return out;
}
