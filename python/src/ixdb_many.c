/*
 * ixdb_many.c: executemany's fast path. Rows (tuples or lists) are read with
 * the C API straight into one array per parameter and sent with
 * ix_batch_execute_arrays, with no pval, no arena copy and no per-value call
 * into Python that can be avoided:
 *
 *   Python value (exact type)   column kind   array (ix_array_kind)
 *   int that fits 64 bits       M_INT         IX_ARRAY_INT64
 *   float                       M_DOUBLE      IX_ARRAY_DOUBLE
 *   str                         M_TEXT        IX_ARRAY_TEXTN (the str's own UTF-8
 *                                             and its length: no scan)
 *   datetime.date               M_DATE        IX_ARRAY_DATE (day numbers)
 *   None                        any           its NULL flag
 *
 * A column's kind is set by its first value that is not None, once. A row
 * that does not fit (another type in a column, a bool, a subclass, an int
 * beyond 64 bits, a str that is not UTF-8 or is the one character NUL, a
 * mapping, the wrong length) ends the fast path: the rows of the chunk read
 * so far are kept (references held), and the caller converts them again,
 * from the first, through the general path (convert_row), so that the chunk
 * behaves exactly as if the fast path had never been tried (a conversion
 * error still sends none of the chunk's rows). The wire bytes are those of the general path
 * (ix_batch_execute_arrays encodes as ix_bind_*); python/tests/
 * test_executemany_fast.py compares the two. A connection with a code set
 * to convert text into (CLIENT_LOCALE / DB_LOCALE) takes the general path.
 */
#include "ixdb_module.h"

#include <datetime.h>
#include <stdlib.h>
#include <string.h>

enum { M_UNSET, M_INT, M_DOUBLE, M_TEXT, M_DATE };

/* Bytes of one row's value in a column array: the largest of the kinds. */
#define VALUE_SIZE (sizeof(ix_text) > 8 ? sizeof(ix_text) : 8)

/* Informix DATE 0 is 1899-12-31: days from 1970-01-01 to it, negated. */
#define DAY0_FROM_1970 25568

/* 0: executemany takes the general path only (ixdb._ixdb._executemany_fast). */
static int fast_enabled = 1;
/* Rows sent through the fast path by this process (ixdb._ixdb._executemany_fast_rows). */
static long long fast_rows;

typedef struct {
    int kind;
    int item;             /* the column's value is row[item] */
    void *values;         /* int64_t / double / ix_text / int32_t per row */
    unsigned char *nulls; /* 1 at a NULL */
    PyObject **refs;      /* M_TEXT: the str of each row (held; NULL for None) */
    int month;            /* M_DATE: year * 16 + month of the last date (0: none) */
    int32_t month_day0;   /* M_DATE: its day number of day 0 of that month */
} many_col;

struct many_fast {
    int np, top;      /* parameters; values a row must give */
    int64_t cap, n;   /* rows the arrays hold; rows filled */
    PyObject **rows;  /* the chunk's rows (held) */
    Py_ssize_t nrows; /* rows held (n, plus the row that did not fit) */
    many_col *cols;
    ix_array *arrays;
};

int many_init(void) {
    PyDateTime_IMPORT;
    return PyDateTimeAPI ? 0 : -1;
}

PyObject *mod_executemany_fast(PyObject *self, PyObject *args) {
    (void)self;
    int on = -1, was = fast_enabled;
    if (!PyArg_ParseTuple(args, "|p:_executemany_fast", &on)) return NULL;
    if (on >= 0) fast_enabled = on;
    return PyBool_FromLong(was);
}

PyObject *mod_executemany_fast_rows(PyObject *self, PyObject *noarg) {
    (void)self;
    (void)noarg;
    return PyLong_FromLongLong(fast_rows);
}

static void drop_refs(many_fast *mf);

/* Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's
 * days_from_civil). */
static int32_t days_from_civil(int y, int m, int d) {
    y -= m <= 2;
    int era = (y >= 0 ? y : y - 399) / 400;
    int yoe = y - era * 400;
    int doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

void many_free(many_fast *mf) {
    if (!mf) return;
    drop_refs(mf);
    for (int c = 0; c < mf->np && mf->cols; c++) {
        free(mf->cols[c].values);
        free(mf->cols[c].nulls);
        free(mf->cols[c].refs);
    }
    free(mf->cols);
    free(mf->arrays);
    free(mf->rows);
    free(mf);
}

many_fast *many_new(const ConnectionObject *co, int np, const int *pmap, int top, int64_t cap) {
    if (!fast_enabled || co->encoding || np <= 0 || cap <= 0) return NULL;
    many_fast *mf = calloc(1, sizeof *mf);
    if (!mf) return NULL; /* the general path needs no more memory */
    mf->np = np;
    mf->top = pmap ? top : np;
    mf->cap = cap;
    mf->cols = calloc((size_t)np, sizeof *mf->cols);
    mf->arrays = calloc((size_t)np, sizeof *mf->arrays);
    mf->rows = malloc(sizeof *mf->rows * (size_t)cap);
    int ok = mf->cols && mf->arrays && mf->rows;
    for (int c = 0; c < np && ok; c++) {
        mf->cols[c].values = malloc(VALUE_SIZE * (size_t)cap);
        mf->cols[c].nulls = malloc((size_t)cap);
        mf->cols[c].refs = malloc(sizeof(PyObject *) * (size_t)cap);
        mf->cols[c].item = pmap ? pmap[c] - 1 : c;
        ok = mf->cols[c].values && mf->cols[c].nulls && mf->cols[c].refs;
    }
    if (!ok) {
        many_free(mf);
        return NULL;
    }
    return mf;
}

/* The UTF-8 of str o (its own buffer, valid while o lives) and its length;
 * NULL when it cannot go through the fast path (no exception left). A NUL
 * inside goes with the rest, as the general path binds it (ix_bind_text
 * with the length); the one byte 00 alone is left to the general path:
 * ix_bind_text sends it as TEXT (as a VARCHAR it would be the NULL form),
 * which the arrays' VARCHAR items do not. */
static const char *str_utf8(PyObject *o, Py_ssize_t *n) {
    const char *t;
    if (PyUnicode_IS_COMPACT_ASCII(o)) {
        t = PyUnicode_DATA(o);
        *n = PyUnicode_GET_LENGTH(o);
    } else if (!(t = PyUnicode_AsUTF8AndSize(o, n))) {
        PyErr_Clear(); /* lone surrogates: the general path's surrogateescape */
        return NULL;
    }
    if (*n > INT_MAX || (*n == 1 && !t[0])) return NULL;
    return t;
}

/* 1 with *v set when int o is held in one digit (|o| < 2^30, most
 * values): read without a call; else 0 (PyLong_AsLongLongAndOverflow). */
static inline int int_compact(PyObject *o, int64_t *v) {
#if PY_VERSION_HEX >= 0x030C0000
    if (!PyUnstable_Long_IsCompact((PyLongObject *)o)) return 0;
    *v = PyUnstable_Long_CompactValue((PyLongObject *)o);
    return 1;
#else
    Py_ssize_t size = Py_SIZE(o);
    if (size < -1 || size > 1) return 0;
    *v = size ? (int64_t)size * (int64_t)((PyLongObject *)o)->ob_digit[0] : 0;
    return 1;
#endif
}

/* The kind a value takes (M_UNSET: none). */
static int kind_of_value(PyObject *o) {
    if (PyLong_CheckExact(o)) return M_INT;
    if (PyFloat_CheckExact(o)) return M_DOUBLE;
    if (PyUnicode_CheckExact(o)) return M_TEXT;
    if (PyDate_CheckExact(o)) return M_DATE;
    return M_UNSET;
}

/* The DATE day number of date o (its month's start kept for the next). */
static int32_t date_day(many_col *col, PyObject *o) {
    int y = PyDateTime_GET_YEAR(o), m = PyDateTime_GET_MONTH(o);
    if (y * 16 + m != col->month) {
        col->month = y * 16 + m;
        col->month_day0 = days_from_civil(y, m, 1) - 1 + DAY0_FROM_1970;
    }
    return col->month_day0 + PyDateTime_GET_DAY(o);
}

/* Stores value o of column col at row r: 0, or -1 when it does not fit. */
static int put_value(many_col *col, int64_t r, PyObject *o) {
    if (o == Py_None) {
        col->nulls[r] = 1;
        col->refs[r] = NULL; /* the value slot is not read: the NULL flag is */
        return 0;
    }
    col->nulls[r] = 0;
    switch (col->kind) {
    case M_UNSET: /* the column's first value: its kind, once */
        if ((col->kind = kind_of_value(o)) == M_UNSET) return -1;
        return put_value(col, r, o);
    case M_INT: {
        if (!PyLong_CheckExact(o)) return -1;
        if (int_compact(o, &((int64_t *)col->values)[r])) return 0;
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (overflow) return -1;
        ((int64_t *)col->values)[r] = x;
        return 0;
    }
    case M_DOUBLE:
        if (!PyFloat_CheckExact(o)) return -1;
        ((double *)col->values)[r] = PyFloat_AS_DOUBLE(o);
        return 0;
    case M_TEXT: {
        Py_ssize_t n;
        const char *t = PyUnicode_CheckExact(o) ? str_utf8(o, &n) : NULL;
        if (!t) return -1;
        ((ix_text *)col->values)[r] = (ix_text){t, (size_t)n};
        col->refs[r] = Py_NewRef(o);
        return 0;
    }
    default: /* M_DATE */
        if (!PyDate_CheckExact(o)) return -1;
        ((int32_t *)col->values)[r] = date_day(col, o);
        return 0;
    }
}

/* Releases the text values of row r's columns [0, ncols). */
static void release_row(many_fast *mf, int64_t r, int ncols) {
    for (int c = 0; c < ncols; c++)
        if (mf->cols[c].kind == M_TEXT) Py_CLEAR(mf->cols[c].refs[r]);
}

/* Reads row o into row mf->n of the arrays: 0, or -1 when it does not fit
 * (nothing of it kept). */
static int put_row(many_fast *mf, PyObject *o) {
    PyObject **items;
    Py_ssize_t len;
    if (PyTuple_CheckExact(o)) {
        items = &PyTuple_GET_ITEM(o, 0);
        len = PyTuple_GET_SIZE(o);
    } else if (PyList_CheckExact(o)) {
        items = PySequence_Fast_ITEMS(o);
        len = PyList_GET_SIZE(o);
    } else {
        return -1;
    }
    if (len != mf->top) return -1;
    for (int c = 0; c < mf->np; c++) {
        if (put_value(&mf->cols[c], mf->n, items[mf->cols[c].item]) < 0) {
            release_row(mf, mf->n, c);
            return -1;
        }
    }
    return 0;
}

int many_fill(many_fast *mf, PyObject *it) {
    PyObject *item;
    while (mf->n < mf->cap && (item = PyIter_Next(it))) {
        mf->rows[mf->nrows++] = item;
        if (put_row(mf, item) < 0) return 1;
        mf->n++;
    }
    return PyErr_Occurred() ? -1 : 0;
}

int64_t many_count(const many_fast *mf) {
    return mf->n;
}

PyObject *const *many_rows(const many_fast *mf, Py_ssize_t *n) {
    *n = mf->nrows;
    return mf->rows;
}

int many_run(many_fast *mf, ix_stmt *s, int *codes, int64_t *nfailed) {
    static const ix_array_kind array_kind[] = {
        [M_UNSET] = IX_ARRAY_INT64, [M_INT] = IX_ARRAY_INT64, [M_DOUBLE] = IX_ARRAY_DOUBLE,
        [M_TEXT] = IX_ARRAY_TEXTN,  [M_DATE] = IX_ARRAY_DATE,
    };
    for (int c = 0; c < mf->np; c++) {
        mf->arrays[c].kind = array_kind[mf->cols[c].kind];
        mf->arrays[c].values = mf->cols[c].values;
        mf->arrays[c].is_null = mf->cols[c].nulls;
    }
    return ix_batch_execute_arrays(s, mf->n, mf->arrays, mf->np, codes, nfailed);
}

/* Drops the references of the chunk's rows and values. */
static void drop_refs(many_fast *mf) {
    for (int c = 0; c < mf->np && mf->n; c++)
        if (mf->cols[c].kind == M_TEXT)
            for (int64_t r = 0; r < mf->n; r++)
                Py_XDECREF(mf->cols[c].refs[r]);
    for (Py_ssize_t i = 0; i < mf->nrows; i++)
        Py_DECREF(mf->rows[i]);
    mf->n = 0;
    mf->nrows = 0;
}

void many_release(many_fast *mf) {
    fast_rows += mf->n;
    drop_refs(mf);
}
