/*
 * ixdb_module.c: the C part of the Python DB-API 2.0 driver (module
 * ixdb._ixdb), written on libixdb's public API (include/ixdb.h) only.
 *
 * Objects: Connection, Cursor, Months (YEAR TO MONTH intervals) and the
 * PEP 249 exception classes. Rows are built here, column by column, from the
 * statement's current row; the GIL is released around every call that may
 * wait for the network. See docs/python.md.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <datetime.h>
#include <structmember.h>

#include <ixdb.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ixdb_module.h"

/* Day number of 1970-01-01 (day 0 is 1899-12-31). */

/* ---- module state (single-phase init: one interpreter) -------------------- */

PyObject *Warning_, *Error, *InterfaceError, *DatabaseError, *DataError, *OperationalError,
    *IntegrityError, *InternalError, *ProgrammingError, *NotSupportedError;
PyObject *DecimalType; /* decimal.Decimal */

/* ---- Months ---------------------------------------------------------------- */

typedef struct {
    PyObject_HEAD long long months;
} MonthsObject;

static PyObject *months_new_value(long long m) {
    MonthsObject *o = PyObject_New(MonthsObject, &MonthsType);
    if (o) o->months = m;
    return (PyObject *)o;
}

static PyObject *Months_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"months", "years", NULL};
    long long months = 0, years = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|LL:Months", kwlist, &months, &years)) return NULL;
    if (years > 999999999 || years < -999999999 || months > 11999999999LL ||
        months < -11999999999LL) {
        PyErr_SetString(PyExc_OverflowError, "Months out of range");
        return NULL;
    }
    MonthsObject *o = (MonthsObject *)type->tp_alloc(type, 0);
    if (o) o->months = years * 12 + months;
    return (PyObject *)o;
}

static PyObject *Months_repr(PyObject *self) {
    return PyUnicode_FromFormat("ixdb.Months(%lld)", ((MonthsObject *)self)->months);
}

static PyObject *Months_str(PyObject *self) {
    long long m = ((MonthsObject *)self)->months;
    unsigned long long a = m < 0 ? (unsigned long long)-m : (unsigned long long)m;
    return PyUnicode_FromFormat("%s%llu-%02llu", m < 0 ? "-" : "", a / 12, a % 12);
}

static Py_hash_t Months_hash(PyObject *self) {
    Py_hash_t h = (Py_hash_t)((MonthsObject *)self)->months * 1000003 + 0x4d6f;
    return h == -1 ? -2 : h;
}

static PyObject *Months_richcompare(PyObject *a, PyObject *b, int op) {
    if (!PyObject_TypeCheck(a, &MonthsType) || !PyObject_TypeCheck(b, &MonthsType))
        Py_RETURN_NOTIMPLEMENTED;
    long long x = ((MonthsObject *)a)->months, y = ((MonthsObject *)b)->months;
    Py_RETURN_RICHCOMPARE(x, y, op);
}

static PyObject *Months_int(PyObject *self) {
    return PyLong_FromLongLong(((MonthsObject *)self)->months);
}

static PyObject *Months_neg(PyObject *self) {
    return months_new_value(-((MonthsObject *)self)->months);
}

static PyObject *Months_add(PyObject *a, PyObject *b) {
    if (!PyObject_TypeCheck(a, &MonthsType) || !PyObject_TypeCheck(b, &MonthsType))
        Py_RETURN_NOTIMPLEMENTED;
    return months_new_value(((MonthsObject *)a)->months + ((MonthsObject *)b)->months);
}

static PyObject *Months_sub(PyObject *a, PyObject *b) {
    if (!PyObject_TypeCheck(a, &MonthsType) || !PyObject_TypeCheck(b, &MonthsType))
        Py_RETURN_NOTIMPLEMENTED;
    return months_new_value(((MonthsObject *)a)->months - ((MonthsObject *)b)->months);
}

static PyObject *Months_years(PyObject *self, void *closure) {
    (void)closure;
    return PyLong_FromLongLong(((MonthsObject *)self)->months / 12);
}

static PyObject *Months_reduce(PyObject *self, PyObject *unused) {
    (void)unused;
    return Py_BuildValue("O(L)", Py_TYPE(self), ((MonthsObject *)self)->months);
}

static PyMemberDef Months_members[] = {
    {"months", T_LONGLONG, offsetof(MonthsObject, months), READONLY, "the signed number of months"},
    {NULL, 0, 0, 0, NULL},
};

static PyGetSetDef Months_getset[] = {
    {"years", Months_years, NULL, "whole years (truncated toward zero)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Months_methods[] = {
    {"__reduce__", Months_reduce, METH_NOARGS, "__reduce__($self, /)\n--\n\n"},
    {NULL, NULL, 0, NULL},
};

static PyNumberMethods Months_as_number = {
    .nb_add = Months_add,
    .nb_subtract = Months_sub,
    .nb_negative = Months_neg,
    .nb_int = Months_int,
    .nb_index = Months_int,
};

PyTypeObject MonthsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ixdb.Months",
    .tp_basicsize = sizeof(MonthsObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Months(months=0, years=0)\n--\n\nAn INTERVAL YEAR TO MONTH value.",
    .tp_new = Months_new,
    .tp_repr = Months_repr,
    .tp_str = Months_str,
    .tp_hash = Months_hash,
    .tp_richcompare = Months_richcompare,
    .tp_members = Months_members,
    .tp_getset = Months_getset,
    .tp_methods = Months_methods,
    .tp_as_number = &Months_as_number,
};

/* ---- connection helpers ---------------------------------------------------------- */

static void conn_flush_zombies(ConnectionObject *co) {
    for (size_t i = 0; i < co->nzombies; i++)
        ix_finalize(co->zombies[i]);
    co->nzombies = 0;
}

/* Finalizes a statement now, or later if another thread is using the
 * connection (a cursor collected while its connection is busy). */
void conn_release_stmt(ConnectionObject *co, ix_stmt *s) {
    if (!s) return;
    if (!co || !co->busy || !co->conn) {
        ix_finalize(s);
        return;
    }
    if (co->nzombies == co->capzombies) {
        size_t cap = co->capzombies ? co->capzombies * 2 : 8;
        ix_stmt **z = realloc(co->zombies, cap * sizeof *z);
        if (!z) return; /* leak rather than race */
        co->zombies = z;
        co->capzombies = cap;
    }
    co->zombies[co->nzombies++] = s;
}

/* Checks the connection is open and free; marks it busy. Returns 0 or -1. */
int conn_enter(ConnectionObject *co) {
    if (!co->conn) {
        raise_simple(InterfaceError, "the connection is closed");
        return -1;
    }
    if (co->busy) {
        raise_simple(ProgrammingError, "the connection is in use by another thread");
        return -1;
    }
    co->busy = 1;
    if (co->nzombies) conn_flush_zombies(co);
    return 0;
}

void conn_leave(ConnectionObject *co) {
    co->busy = 0;
}

/* Begins the implicit transaction of autocommit-off mode when none is open.
 * Called with the connection entered. Returns 0 or -1 (exception set). */
int stmt_opens_txn(int stmt_type) {
    switch (stmt_type) {
    case IX_STMTTYPE_DATABASE:
    case IX_STMTTYPE_CREATE_DB:
    case IX_STMTTYPE_DROP_DB:
    case IX_STMTTYPE_CLOSE_DB:
    case IX_STMTTYPE_START_DB:
    case IX_STMTTYPE_BEGIN_WORK:
    case IX_STMTTYPE_COMMIT_WORK:
    case IX_STMTTYPE_ROLLBACK_WORK: return 0;
    }
    return 1;
}

int conn_maybe_begin(ConnectionObject *co, int stmt_type) {
    if (co->autocommit || co->nolog || !stmt_opens_txn(stmt_type)) return 0;
    if (ix_autocommit(co->conn) != 1) return 0;
    int rc;
    NOGIL(rc = ix_begin(co->conn));
    if (rc == IX_OK) return 0;
    if (rc == IX_ESQL && ix_sqlcode(co->conn) == -256) {
        co->nolog = 1; /* unlogged database: statements commit one by one */
        return 0;
    }
    if (rc == IX_ESQL && ix_sqlcode(co->conn) == -349) return 0; /* no database yet */
    raise_conn(co->conn, rc);
    return -1;
}

/* ---- dates and times --------------------------------------------------------------- */

/* A DATE column as datetime.date: the calendar is libixdb's
 * (ix_column_date_ymd); a NULL gives None. */
static PyObject *date_value(ix_stmt *s, int i);

/* Microseconds per FRACTION unit (ix_datetime_t / ix_interval_t count
 * 10 us units). */
#define US_PER_FRACTION      10
#define FRACTIONS_PER_SECOND 100000

/* A DATETIME (struct from ix_column_datetime) as datetime.datetime, or as
 * datetime.time when the qualifier starts at HOUR or later (as_time);
 * date fields the qualifier lacks are taken from 2000-01-01 (YEAR TO YEAR
 * is January 1st of the year). */
static PyObject *datetime_from_struct(const ix_datetime_t *v, unsigned q, int as_time) {
    int start = (int)((q >> 4) & 0xf), end = (int)(q & 0xf);
    int year = start > IX_UNIT_YEAR ? 2000 : v->year;
    int month = start > IX_UNIT_MONTH || end < IX_UNIT_MONTH ? 1 : v->month;
    int day = start > IX_UNIT_DAY || end < IX_UNIT_DAY ? 1 : v->day;
    int us = v->fraction * US_PER_FRACTION;
    PyObject *r =
        as_time ? PyTime_FromTime(v->hour, v->minute, v->second, us)
                : PyDateTime_FromDateAndTime(year, month, day, v->hour, v->minute, v->second, us);
    if (!r && PyErr_ExceptionMatches(PyExc_ValueError)) {
        PyErr_Clear();
        return raise_simple(DataError, "DATETIME value outside Python's datetime range");
    }
    return r;
}

/* A day-time INTERVAL (struct from ix_column_interval; the leading field
 * may exceed its usual range) as datetime.timedelta. */
static PyObject *timedelta_from_struct(const ix_interval_t *v) {
    int64_t fr = v->fraction;
    int64_t secs = v->hours * 3600 + v->minutes * 60 + v->seconds + fr / FRACTIONS_PER_SECOND;
    int64_t days = v->days + secs / 86400;
    int sign = v->sign < 0 ? -1 : 1;
    secs %= 86400;
    if (days > 999999999) return raise_simple(DataError, "INTERVAL outside timedelta's range");
    int us = (int)(fr % FRACTIONS_PER_SECOND) * US_PER_FRACTION;
    return PyDelta_FromDSU(sign * (int)days, sign * (int)secs, sign * us);
}

/* ---- DECIMAL / MONEY ------------------------------------------------------------- */

/* A DECIMAL / MONEY column as decimal.Decimal, exact: libixdb splits the
 * value (ix_column_get_decimal) and writes its text (ix_decimal_text), at
 * the column's scale, or with the fewest fraction digits for a floating
 * DECIMAL(p). */
static PyObject *decimal_value(ix_stmt *s, int i);

/* ---- fetching ------------------------------------------------------------------- */

/* The converter of a column (the K_* kinds above); encoded: the connection
 * has a code set other than UTF-8. */
int kind_of(int type, int enclen, int encoded) {
    switch (type) {
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_INT8:
    case IX_T_SERIAL8:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL: return K_INT;
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT: return K_FLOAT;
    case IX_T_DECIMAL:
    case IX_T_MONEY: return K_DEC;
    case IX_T_DATE: return K_DATE;
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR: return encoded ? K_STR_ENC : K_VSTR;
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_LVARCHAR: return encoded ? K_STR_ENC : K_STR;
    case IX_T_BOOLEAN: return K_BOOL;
    case IX_T_DATETIME: return ((enclen >> 4) & 0xf) >= IX_UNIT_HOUR ? K_TIME : K_DT;
    case IX_T_INTERVAL: return ((enclen >> 4) & 0xf) <= IX_UNIT_MONTH ? K_IV_YM : K_IV_DS;
    case IX_T_BYTE: return K_BYTES;
    case IX_T_TEXT: return K_TEXT;
    case IX_T_BLOB: return K_BLOB;
    case IX_T_CLOB: return K_CLOB;
    default: return K_TEXTISH;
    }
}

/* 1 if the values of kind k are objects the cyclic GC does not track (a
 * tuple of them can never be part of a reference cycle). */
int kind_is_atomic(int k) {
    return k != K_DEC || !PyType_IS_GC((PyTypeObject *)DecimalType);
}

static PyObject *col_error(ix_stmt *s, int rc) {
    ix_conn *c = ix_stmt_conn(s);
    if (c) return raise_conn(c, rc);
    return raise_simple(DataError, ix_rc_str(rc));
}

/* The failure an accessor recorded on the connection (IX_EINVAL if none). */
static PyObject *col_last_error(ix_stmt *s) {
    ix_conn *c = ix_stmt_conn(s);
    int rc = c ? ix_errcode(c) : IX_EINVAL;
    return col_error(s, rc != IX_OK ? rc : IX_EINVAL);
}

/* 1 if t[0..n) is ASCII (no byte with its high bit set), 8 bytes a step. */
static int is_ascii(const char *t, size_t n) {
    const uint64_t high = 0x8080808080808080ull;
    uint64_t acc = 0, w;
    size_t k = 0;
    for (; k + 8 <= n; k += 8) {
        memcpy(&w, t + k, 8);
        acc |= w;
    }
    for (; k < n; k++)
        acc |= (unsigned char)t[k];
    return !(acc & high);
}

/* The str of UTF-8 text t[0..n), as PyUnicode_DecodeUTF8 with
 * surrogateescape makes it: ASCII text (beyond one character, which
 * CPython answers from its cache) is copied into a new compact ASCII str
 * at once, without the decoder's scan. */
static PyObject *str_from_utf8(const char *t, size_t n) {
    if (n > 1 && n <= PY_SSIZE_T_MAX && is_ascii(t, n)) {
        PyObject *u = PyUnicode_New((Py_ssize_t)n, 127);
        if (u) memcpy(PyUnicode_DATA(u), t, n);
        return u;
    }
    return PyUnicode_DecodeUTF8(t, (Py_ssize_t)n, "surrogateescape");
}

/* The str of a character column: the bytes as they came (UTF-8 code set),
 * or ix_column_text in the client code set (enc). */
static PyObject *str_value(ix_stmt *s, int i, const char *enc) {
    size_t n;
    const char *b;
    if (!enc) {
        b = ix_column_blob(s, i, &n);
        if (b) return PyUnicode_DecodeUTF8(b, (Py_ssize_t)n, "surrogateescape");
    } else {
        b = ix_column_text(s, i);
        if (b)
            return PyUnicode_Decode(b, (Py_ssize_t)ix_column_text_len(s, i), enc,
                                    "surrogateescape");
    }
    if (ix_column_is_null(s, i)) Py_RETURN_NONE;
    return col_error(s, IX_EINVAL);
}

/* DATETIME and INTERVAL values through the typed accessors. */
static PyObject *temporal_value(ix_stmt *s, int i, const colinfo *ci) {
    int rc;
    if (ci->kind == K_DT || ci->kind == K_TIME) {
        ix_datetime_t v;
        rc = ix_column_datetime(s, i, &v);
        if (rc == IX_OK) return datetime_from_struct(&v, (unsigned)ci->enclen, ci->kind == K_TIME);
    } else {
        ix_interval_t v;
        rc = ix_column_interval(s, i, &v);
        if (rc == IX_OK && ci->kind == K_IV_YM) {
            long long m = (long long)(v.years * 12 + v.months);
            return months_new_value(v.sign < 0 ? -m : m);
        }
        if (rc == IX_OK) return timedelta_from_struct(&v);
    }
    if (rc == IX_NULL_VALUE) Py_RETURN_NONE;
    return col_error(s, rc);
}

/* A BYTE (bytes) or TEXT (str) value: libixdb fetches the value the
 * descriptor names (one round trip, SQ_FETCHBLOB), without the GIL. */
static PyObject *blob_value(ix_stmt *s, int i, int text) {
    if (ix_column_is_null(s, i)) Py_RETURN_NONE;
    size_t n = 0;
    const char *b;
    NOGIL(b = ix_column_blob(s, i, &n));
    if (!b) return col_last_error(s);
    if (text) return PyUnicode_DecodeUTF8(b, (Py_ssize_t)n, "surrogateescape");
    return PyBytes_FromStringAndSize(b, (Py_ssize_t)n);
}

static PyObject *date_value(ix_stmt *s, int i) {
    int y, m, d;
    int rc = ix_column_date_ymd(s, i, &y, &m, &d);
    if (rc == IX_NULL_VALUE) Py_RETURN_NONE;
    if (rc != IX_OK) return col_error(s, rc);
    if (y < 1 || y > 9999) return raise_simple(DataError, "DATE outside datetime.date's range");
    return PyDate_FromDate(y, m, d);
}

/* Any other type: the str of ix_column_text. */
static PyObject *textish_value(ix_stmt *s, int i) {
    if (ix_column_is_null(s, i)) Py_RETURN_NONE;
    const char *t = ix_column_text(s, i);
    if (!t) return col_last_error(s);
    return PyUnicode_DecodeUTF8(t, (Py_ssize_t)ix_column_text_len(s, i), "surrogateescape");
}

static PyObject *decimal_value(ix_stmt *s, int i) {
    ix_decimal_t d;
    char text[IX_DECIMAL_TEXT_SIZE];
    int rc = ix_column_get_decimal(s, i, &d);
    if (rc == IX_NULL_VALUE) Py_RETURN_NONE;
    if (rc != IX_OK) return col_error(s, rc);
    int n = ix_decimal_text(&d, text, sizeof text);
    if (n < 0 || (size_t)n >= sizeof text) return col_error(s, IX_EMALFORMED);
    PyObject *str = PyUnicode_FromStringAndSize(text, n);
    if (!str) return NULL;
    PyObject *r = PyObject_CallOneArg(DecimalType, str);
    Py_DECREF(str);
    return r;
}

/* Column i of the current row as a new reference (None for NULL), by the
 * general accessors: the converters of the module before the per-column
 * ones below, kept as their reference (_ixdb._fetch_general). */
static PyObject *fetch_value_general(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    int64_t iv;
    double dv;
    int rc;
    switch (ci->kind) {
    case K_INT:
        if ((rc = ix_column_get_int64(s, i, &iv)) == IX_OK) return PyLong_FromLongLong(iv);
        break;
    case K_FLOAT:
        if ((rc = ix_column_get_double(s, i, &dv)) == IX_OK) return PyFloat_FromDouble(dv);
        break;
    case K_DATE: return date_value(s, i);
    case K_STR:
    case K_VSTR: return str_value(s, i, NULL);
    case K_STR_ENC: return str_value(s, i, enc);
    case K_BOOL:
        if ((rc = ix_column_get_int64(s, i, &iv)) == IX_OK) return PyBool_FromLong(iv != 0);
        break;
    case K_DEC: return decimal_value(s, i);
    case K_DT:
    case K_TIME:
    case K_IV_DS:
    case K_IV_YM: return temporal_value(s, i, ci);
    case K_BYTES:
    case K_TEXT: return blob_value(s, i, ci->kind == K_TEXT);
    case K_BLOB:
    case K_CLOB:
    case K_LOCATOR: return ixpy_lob_value(s, i, ci->kind, enc);
    default: return textish_value(s, i);
    }
    if (rc == IX_NULL_VALUE) Py_RETURN_NONE;
    return col_error(s, rc);
}

/* ---- per-column converters ------------------------------------------------------ */

/* One function per kind, chosen when the result set is described
 * (colinfo_set_kind): a value costs one indirect call and its accessor. */

static PyObject *v_int(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    (void)ci, (void)enc;
    int64_t v;
    int rc = ix_column_get_int64(s, i, &v);
    if (rc == IX_OK) return PyLong_FromLongLong(v);
    if (rc == IX_NULL_VALUE) Py_RETURN_NONE;
    return col_error(s, rc);
}

static PyObject *v_float(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    (void)ci, (void)enc;
    double v;
    int rc = ix_column_get_double(s, i, &v);
    if (rc == IX_OK) return PyFloat_FromDouble(v);
    if (rc == IX_NULL_VALUE) Py_RETURN_NONE;
    return col_error(s, rc);
}

static PyObject *v_bool(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    (void)ci, (void)enc;
    int64_t v;
    int rc = ix_column_get_int64(s, i, &v);
    if (rc == IX_OK) return PyBool_FromLong(v != 0);
    if (rc == IX_NULL_VALUE) Py_RETURN_NONE;
    return col_error(s, rc);
}

/* A VARCHAR without a locale: ix_column_text gives the characters where
 * they lie in the row (no conversion without a locale, so they are the
 * bytes ix_column_blob gives); NULL (SQL NULL or a value it cannot read in
 * place) goes the general way. */
static PyObject *v_vstr(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    (void)ci, (void)enc;
    const char *t = ix_column_text(s, i);
    if (t) return str_from_utf8(t, ix_column_text_len(s, i));
    return str_value(s, i, NULL);
}

/* CHAR, NCHAR, LVARCHAR without a locale: their bytes (str_value's). */
static PyObject *v_str(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    (void)ci, (void)enc;
    size_t n;
    const char *b = ix_column_blob(s, i, &n);
    if (b) return str_from_utf8(b, n);
    return str_value(s, i, NULL);
}

static PyObject *v_str_enc(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    (void)ci;
    return str_value(s, i, enc);
}

static PyObject *v_date(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    (void)ci, (void)enc;
    return date_value(s, i);
}

static PyObject *v_dec(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    (void)ci, (void)enc;
    return decimal_value(s, i);
}

/* DATETIME from YEAR, MONTH or DAY (K_DT): the struct's fields straight
 * into datetime.datetime (the C API's constructor). */
static PyObject *v_dt(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    (void)enc;
    ix_datetime_t v;
    int rc = ix_column_datetime(s, i, &v);
    if (rc == IX_OK) return datetime_from_struct(&v, (unsigned)ci->enclen, 0);
    if (rc == IX_NULL_VALUE) Py_RETURN_NONE;
    return col_error(s, rc);
}

static PyObject *v_temporal(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    (void)enc;
    return temporal_value(s, i, ci);
}

static PyObject *v_blob(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    (void)enc;
    return blob_value(s, i, ci->kind == K_TEXT);
}

static PyObject *v_lob(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    return ixpy_lob_value(s, i, ci->kind, enc);
}

static PyObject *v_textish(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    (void)ci, (void)enc;
    return textish_value(s, i);
}

void colinfo_set_kind(colinfo *ci, int kind) {
    ci->kind = kind;
    switch (kind) {
    case K_INT: ci->value = v_int; break;
    case K_FLOAT: ci->value = v_float; break;
    case K_DEC: ci->value = v_dec; break;
    case K_DATE: ci->value = v_date; break;
    case K_STR: ci->value = v_str; break;
    case K_VSTR: ci->value = v_vstr; break;
    case K_STR_ENC: ci->value = v_str_enc; break;
    case K_BOOL: ci->value = v_bool; break;
    case K_DT: ci->value = v_dt; break;
    case K_TIME:
    case K_IV_DS:
    case K_IV_YM: ci->value = v_temporal; break;
    case K_BYTES:
    case K_TEXT: ci->value = v_blob; break;
    case K_BLOB:
    case K_CLOB:
    case K_LOCATOR: ci->value = v_lob; break;
    default: ci->value = v_textish; break;
    }
}

/* 1: rows are built by fetch_value_general (_ixdb._fetch_general, for the
 * tests that compare the two). */
static int fetch_general;

PyObject *mod_fetch_general(PyObject *self, PyObject *args) {
    (void)self;
    int on = -1, was = fetch_general;
    if (!PyArg_ParseTuple(args, "|p:_fetch_general", &on)) return NULL;
    if (on >= 0) fetch_general = on;
    return PyBool_FromLong(was);
}

/* Column i of the current row as a new reference (None for NULL). */
PyObject *fetch_value(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
    if (fetch_general) return fetch_value_general(s, i, ci, enc);
    return ci->value(s, i, ci, enc);
}

/* The current row as a tuple. A tuple of atomic values is untracked at once
 * (CPython would untrack it at its first collection): the rows of a large
 * fetch then cost the collector nothing. */
PyObject *build_row(CursorObject *cu) {
    ix_stmt *s = cu->stmt;
    const colinfo *cols = cu->cols;
    const char *enc = cu->conn->encoding;
    const int n = cu->ncols;
    PyObject *row = PyTuple_New(n);
    if (!row) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = fetch_value(s, i, &cols[i], enc);
        if (!v) {
            Py_DECREF(row);
            return NULL;
        }
        PyTuple_SET_ITEM(row, i, v);
    }
    if (cu->untrack) PyObject_GC_UnTrack(row);
    return row;
}

/* Starts the GIL predictor for a new result set. */
void cursor_predict_reset(CursorObject *cu) {
    cu->last_rt = cu->last_bytes = cu->rows_done = 0;
    cu->since = cu->batch_est = cu->window = cu->next_probe = 0;
    cu->released = cu->missed = 0;
}

/* How far (in rows) the end of a batch of est predicted rows may be from
 * the prediction: the error of a byte-based estimate grows about as the
 * square root of the rows; bounded by est/32 for small batches. Each row
 * in the window is stepped without the GIL, and with other threads
 * running each release can hand them the GIL, so the window is narrow. */
static long predict_window(long est) {
    long r = 0;
    while ((r + 1) * (r + 1) <= est)
        r++;
    return (est / 32 < r ? est / 32 : r) + 2;
}

/* At the step that began a batch (k rows were read from the one before):
 * its rows are predicted from its bytes (ix_stmt_fetch_bytes) at the
 * bytes per row of the batches before it. */
static void cursor_predict_batch(CursorObject *cu, int64_t rt, long k) {
    int64_t bytes = ix_stmt_fetch_bytes(cu->stmt);
    cu->rows_done += k;
    long est = 0;
    if (cu->rows_done > 0 && cu->last_bytes > 0 && bytes > cu->last_bytes)
        est = (long)((double)(bytes - cu->last_bytes) * (double)cu->rows_done /
                     (double)cu->last_bytes);
    cu->batch_est = est;
    cu->last_rt = rt;
    cu->last_bytes = bytes;
    cu->since = 1;
    cu->window = predict_window(est);
    cu->next_probe = est > 0 ? est + cu->window + 1 : 1;
}

/*
 * ix_step with the GIL released when the step is likely to wait for the
 * network, not on every row. A step waits when the rows that have arrived
 * are used up; ix_stmt_fetch_roundtrips shows where a batch (or several
 * read-ahead batches) began. The GIL is released on the first step;
 * around the predicted end of the batch (cursor_predict_batch; the rows
 * within predict_window of it); and, when no prediction is known (the first
 * batch) or the batch outgrows it, at probes spaced 1.5 times further apart
 * each time. Called with the connection entered.
 */
int cursor_step(CursorObject *cu) {
    int rc;
    ix_stmt *s = cu->stmt;
    long k = cu->since, est = cu->batch_est, w = cu->window;
    int probe = k >= cu->next_probe;
    int nogil = probe || (est > 0 && k >= est - w && k <= est + w);
    if (nogil) {
        NOGIL(rc = ix_step(s));
        cu->released++;
    } else {
        rc = ix_step(s);
    }
    int64_t rt = ix_stmt_fetch_roundtrips(s);
    if (rt != cu->last_rt) {
        cu->missed += !nogil;
        cursor_predict_batch(cu, rt, k);
        return rc;
    }
    if (probe) cu->next_probe = k + 1 + k / 2;
    cu->since = k + 1;
    return rc;
}

/* ---- binding ---------------------------------------------------------------------- */

static int arena_put(arena *a, const char *s, size_t n, size_t *off) {
    if (a->len + n + 1 > a->cap) {
        size_t cap = a->cap ? a->cap : 4096;
        while (cap < a->len + n + 1)
            cap *= 2;
        char *d = realloc(a->data, cap);
        if (!d) {
            PyErr_NoMemory();
            return -1;
        }
        a->data = d;
        a->cap = cap;
    }
    memcpy(a->data + a->len, s, n);
    a->data[a->len + n] = 0;
    *off = a->len;
    a->len += n + 1;
    return 0;
}

static int text_val(pval *v, arena *a, int kind, const char *s, size_t n) {
    /* bytes and str of any size bind (libixdb sends those beyond a VARCHAR
     * bind as BYTE / TEXT); the text of other values is short */
    if (n > INT_MAX || (n > 32767 && kind != P_BLOB && kind != P_TEXT)) {
        raise_simple(DataError, "a bound value is too long");
        return -1;
    }
    v->kind = kind;
    v->n = (int)n;
    return arena_put(a, s, n, &v->u.off);
}

/* 1 if o (a datetime or time) has a time zone that gives an offset. */
static int is_aware(PyObject *o) {
    if (!((_PyDateTime_BaseTZInfo *)o)->hastzinfo) return 0;
    PyObject *off = PyObject_CallMethod(o, "utcoffset", NULL);
    if (!off) return -1;
    int aware = off != Py_None;
    Py_DECREF(off);
    return aware;
}

/* An aware datetime in the session's time zone (co->tz, None: the local
 * zone of the process), as a naive datetime: Informix DATETIME has no
 * zone. New reference. */
static PyObject *to_session_zone(ConnectionObject *co, PyObject *o) {
    PyObject *local = co->tz && co->tz != Py_None
                          ? PyObject_CallMethod(o, "astimezone", "O", co->tz)
                          : PyObject_CallMethod(o, "astimezone", NULL);
    if (!local) return NULL;
    PyObject *kw = Py_BuildValue("{sO}", "tzinfo", Py_None), *noarg = PyTuple_New(0), *r = NULL;
    PyObject *replace = PyObject_GetAttrString(local, "replace");
    if (kw && noarg && replace) r = PyObject_Call(replace, noarg, kw);
    Py_XDECREF(replace);
    Py_XDECREF(noarg);
    Py_XDECREF(kw);
    Py_DECREF(local);
    return r;
}

static int convert_datetime(ConnectionObject *co, PyObject *o, pval *v, arena *a);

static int convert_param(ConnectionObject *co, PyObject *o, pval *v, arena *a) {
    char buf[64];
    v->qual = 0;
    if (o == Py_None) {
        v->kind = P_NULL;
        return 0;
    }
    if (PyBool_Check(o)) {
        v->kind = P_BOOL;
        v->u.i = o == Py_True;
        return 0;
    }
    if (PyLong_Check(o)) {
        int overflow;
        long long x = PyLong_AsLongLongAndOverflow(o, &overflow);
        if (x == -1 && PyErr_Occurred()) return -1;
        if (!overflow) {
            v->kind = P_INT;
            v->u.i = x;
            return 0;
        }
        PyObject *s = PyObject_Str(o);
        if (!s) return -1;
        Py_ssize_t n;
        const char *t = PyUnicode_AsUTF8AndSize(s, &n);
        int r = t ? text_val(v, a, P_DEC, t, (size_t)n) : -1;
        Py_DECREF(s);
        return r;
    }
    if (PyFloat_Check(o)) {
        v->kind = P_DOUBLE;
        v->u.d = PyFloat_AS_DOUBLE(o);
        return 0;
    }
    if (PyUnicode_Check(o)) {
        if (!co->encoding) {
            Py_ssize_t n;
            const char *t = PyUnicode_AsUTF8AndSize(o, &n);
            if (t) return text_val(v, a, P_TEXT, t, (size_t)n);
            PyErr_Clear();
        }
        PyObject *b =
            PyUnicode_AsEncodedString(o, co->encoding ? co->encoding : "utf-8", "surrogateescape");
        if (!b) return -1;
        int r = text_val(v, a, P_TEXT, PyBytes_AS_STRING(b), (size_t)PyBytes_GET_SIZE(b));
        Py_DECREF(b);
        return r;
    }
    if (PyBytes_Check(o))
        return text_val(v, a, P_BLOB, PyBytes_AS_STRING(o), (size_t)PyBytes_GET_SIZE(o));
    if (PyByteArray_Check(o) || PyMemoryView_Check(o)) {
        Py_buffer view;
        if (PyObject_GetBuffer(o, &view, PyBUF_SIMPLE) < 0) return -1;
        int r = text_val(v, a, P_BLOB, view.buf, (size_t)view.len);
        PyBuffer_Release(&view);
        return r;
    }
    if (PyDateTime_Check(o)) {
        int aware = is_aware(o);
        if (aware <= 0) return aware < 0 ? -1 : convert_datetime(co, o, v, a);
        PyObject *naive = to_session_zone(co, o);
        if (!naive) return -1;
        int r = convert_datetime(co, naive, v, a);
        Py_DECREF(naive);
        return r;
    }
    if (PyDate_Check(o)) {
        v->kind = P_DATE;
        /* year, month, day packed as yyyymmdd; ix_bind_date_ymd turns
         * them into the day number */
        v->u.i = (int64_t)PyDateTime_GET_YEAR(o) * 10000 + PyDateTime_GET_MONTH(o) * 100 +
                 PyDateTime_GET_DAY(o);
        return 0;
    }
    if (PyTime_Check(o)) {
        int aware = is_aware(o);
        if (aware) {
            if (aware > 0)
                raise_simple(DataError, "an aware time has no date to convert it to the "
                                        "session's time zone with: pass a datetime");
            return -1;
        }
        int us = PyDateTime_TIME_GET_MICROSECOND(o);
        int n = snprintf(buf, sizeof buf, "%02d:%02d:%02d", PyDateTime_TIME_GET_HOUR(o),
                         PyDateTime_TIME_GET_MINUTE(o), PyDateTime_TIME_GET_SECOND(o));
        if (us) n += snprintf(buf + n, sizeof buf - (size_t)n, ".%05d", us / 10);
        if (text_val(v, a, P_DT, buf, (size_t)n) < 0) return -1;
        v->qual = ix_qualifier_dt(IX_UNIT_HOUR, us ? IX_UNIT_FRAC(5) : IX_UNIT_SECOND);
        return 0;
    }
    if (PyDelta_Check(o)) {
        long long days = PyDateTime_DELTA_GET_DAYS(o);
        long long secs = PyDateTime_DELTA_GET_SECONDS(o);
        long long us = PyDateTime_DELTA_GET_MICROSECONDS(o);
        int neg = days < 0;
        if (neg) { /* negate: -(d, s, us) normalised to non-negative fields */
            long long tot_s = -(days * 86400 + secs);
            long long tot_us = -us;
            if (tot_us < 0) {
                tot_us += 1000000;
                tot_s -= 1;
            }
            days = tot_s / 86400;
            secs = tot_s % 86400;
            us = tot_us;
        }
        int n = snprintf(buf, sizeof buf, "%s%lld %02lld:%02lld:%02lld", neg ? "-" : "", days,
                         secs / 3600, secs / 60 % 60, secs % 60);
        if (us) n += snprintf(buf + n, sizeof buf - (size_t)n, ".%05lld", us / 10);
        if (text_val(v, a, P_IV, buf, (size_t)n) < 0) return -1;
        v->qual = ix_qualifier_iv(9, IX_UNIT_DAY, us ? IX_UNIT_FRAC(5) : IX_UNIT_SECOND);
        return 0;
    }
    if (PyObject_TypeCheck(o, &MonthsType)) {
        long long m = ((MonthsObject *)o)->months;
        unsigned long long am = m < 0 ? (unsigned long long)-m : (unsigned long long)m;
        int n = snprintf(buf, sizeof buf, "%s%llu-%02llu", m < 0 ? "-" : "", am / 12, am % 12);
        if (text_val(v, a, P_IV, buf, (size_t)n) < 0) return -1;
        v->qual = ix_qualifier_iv(9, IX_UNIT_YEAR, IX_UNIT_MONTH);
        return 0;
    }
    int isdec = PyObject_IsInstance(o, DecimalType);
    if (isdec < 0) return -1;
    if (isdec) {
        PyObject *fin = PyObject_CallMethod(o, "is_finite", NULL);
        if (!fin) return -1;
        int ok = PyObject_IsTrue(fin);
        Py_DECREF(fin);
        if (!ok) {
            raise_simple(DataError, "DECIMAL cannot hold NaN or Infinity");
            return -1;
        }
        PyObject *s = PyObject_Str(o);
        if (!s) return -1;
        Py_ssize_t n;
        const char *t = PyUnicode_AsUTF8AndSize(s, &n);
        int r = t ? text_val(v, a, P_DEC, t, (size_t)n) : -1;
        Py_DECREF(s);
        return r;
    }
    ix_locator loc;
    int lt, lr = ixpy_lob_param(co, o, &loc, &lt); /* ixdb.Locator, LobStream, file-like */
    if (lr < 0 || (lr > 0 && text_val(v, a, P_LOC, (const char *)loc.bytes, IX_LOCATOR_LEN) < 0))
        return -1;
    v->qual = (unsigned)lt;
    if (lr > 0) return 0;
    PyErr_Format(ProgrammingError, "cannot bind a value of type %.100s", Py_TYPE(o)->tp_name);
    return -1;
}

/* A naive datetime as DATETIME YEAR TO SECOND (or FRACTION(5)). */
static int convert_datetime(ConnectionObject *co, PyObject *o, pval *v, arena *a) {
    (void)co;
    char buf[64];
    int us = PyDateTime_DATE_GET_MICROSECOND(o);
    int n = snprintf(buf, sizeof buf, "%04d-%02d-%02d %02d:%02d:%02d", PyDateTime_GET_YEAR(o),
                     PyDateTime_GET_MONTH(o), PyDateTime_GET_DAY(o), PyDateTime_DATE_GET_HOUR(o),
                     PyDateTime_DATE_GET_MINUTE(o), PyDateTime_DATE_GET_SECOND(o));
    if (us) n += snprintf(buf + n, sizeof buf - (size_t)n, ".%05d", us / 10);
    if (text_val(v, a, P_DT, buf, (size_t)n) < 0) return -1;
    v->qual = ix_qualifier_dt(IX_UNIT_YEAR, us ? IX_UNIT_FRAC(5) : IX_UNIT_SECOND);
    return 0;
}

/* Binds one converted value (no Python calls: safe without the GIL). */
int bind_pval(ix_stmt *s, int i, const pval *v, const char *base, ix_destructor life) {
    switch (v->kind) {
    case P_NULL: return ix_bind_null(s, i);
    case P_INT: return ix_bind_int64(s, i, v->u.i);
    case P_DOUBLE: return ix_bind_double(s, i, v->u.d);
    case P_BOOL: return ix_bind_bool(s, i, (int)v->u.i);
    case P_DATE:
        return ix_bind_date_ymd(s, i, (int)(v->u.i / 10000), (int)(v->u.i / 100 % 100),
                                (int)(v->u.i % 100));
    case P_TEXT: return ix_bind_text(s, i, base + v->u.off, v->n, life);
    case P_BLOB: return ix_bind_blob(s, i, base + v->u.off, v->n, life);
    case P_DEC: return ix_bind_decimal_text(s, i, base + v->u.off, v->n);
    case P_DT: return ix_bind_datetime_text(s, i, base + v->u.off, v->n, v->qual);
    case P_IV: return ix_bind_interval_text(s, i, base + v->u.off, v->n, v->qual);
    case P_LOC: return ix_bind_locator(s, i, (int)v->qual, (const ix_locator *)(base + v->u.off));
    }
    return IX_EINVAL;
}

/* 1 if params is a mapping (named parameters), not a sequence. */
int is_mapping(PyObject *params) {
    if (PyDict_Check(params)) return 1;
    if (PyTuple_Check(params) || PyList_Check(params) || PyUnicode_Check(params)) return 0;
    return PyMapping_Check(params) && PyObject_HasAttrString(params, "keys");
}

/* Raises the error for named parameters. Returns -1. */
int named_params_error(void) {
    PyErr_SetString(ProgrammingError,
                    "ixdb's paramstyle is 'qmark': give the values as a sequence for the ? "
                    "markers (or use the numeric style :1, :2 with a sequence); named "
                    "parameters (a mapping) are not supported");
    return -1;
}

/* Converts params (a sequence) into n values: value k is params[k], or
 * params[pmap[k] - 1] for a numeric-style text (pmap not NULL; top: the
 * highest :N). Returns 0 or -1. */
int convert_row(ConnectionObject *co, PyObject *params, int nparams, pval *out, arena *a,
                const int *pmap, int top) {
    if (is_mapping(params)) return named_params_error();
    PyObject *seq = PySequence_Fast(params, "parameters must be a sequence");
    if (!seq) {
        PyErr_Clear();
        PyErr_SetString(ProgrammingError, "parameters must be a sequence (tuple or list)");
        return -1;
    }
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != (pmap ? top : nparams)) {
        Py_DECREF(seq);
        if (pmap)
            PyErr_Format(ProgrammingError,
                         "the statement's markers go up to :%d but %zd value(s) were given", top,
                         n);
        else
            PyErr_Format(ProgrammingError,
                         "the statement has %d parameter(s) but %zd value(s) were given", nparams,
                         n);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    for (Py_ssize_t i = 0; i < nparams; i++)
        if (convert_param(co, items[pmap ? pmap[i] - 1 : i], &out[i], a) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    return 0;
}

/* Binds params (a sequence; NULL or None: none) to every parameter of cu's
 * statement s (in cu's parameter style), the values copied. Returns 0 or
 * -1 (exception set). */
int bind_params(CursorObject *cu, ix_stmt *s, PyObject *params) {
    ConnectionObject *co = cu->conn;
    int np = ix_bind_parameter_count(s);
    if (!params || params == Py_None) {
        if (np == 0) return 0;
        PyErr_Format(ProgrammingError, "the statement has %d parameter(s) but none were given", np);
        return -1;
    }
    pval small[16], *vals = np > 16 ? malloc(sizeof(pval) * (size_t)np) : small;
    arena a = {NULL, 0, 0};
    int r = vals ? convert_row(co, params, np, vals, &a, cu->pmap, cu->pmap_top)
                 : (PyErr_NoMemory(), -1);
    for (int i = 0; r == 0 && i < np; i++) {
        int rc = bind_pval(s, i + 1, &vals[i], a.data, IX_TRANSIENT);
        if (rc != IX_OK) r = (raise_conn(co->conn, rc), -1);
    }
    if (vals != small) free(vals);
    free(a.data);
    return r;
}

/* ---- connection ---------------------------------------------------------------------- */

static PyObject *connection_cursor_impl(ConnectionObject *co, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"scrollable", "withhold", NULL};
    int scrollable = 0, withhold = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|pp:cursor", kwlist, &scrollable, &withhold))
        return NULL;
    if (!co->conn) return raise_simple(InterfaceError, "the connection is closed");
    PyObject *messages = PyList_New(0);
    if (!messages) return NULL;
    CursorObject *cu = PyObject_GC_New(CursorObject, &CursorType);
    if (!cu) {
        Py_DECREF(messages);
        return NULL;
    }
    cu->messages = messages;
    cu->row_factory = Py_XNewRef(co->row_factory);
    cu->rownumber = -1;
    cu->prep_flags = (scrollable ? IX_PREPARE_SCROLL : 0u) | (withhold ? IX_PREPARE_WITH_HOLD : 0u);
    cu->pending = 0;
    cu->pmap = NULL;
    cu->npmap = cu->pmap_top = 0;
    cu->lob_locators = 0;
    cu->conn = (ConnectionObject *)Py_NewRef((PyObject *)co);
    cu->stmt = NULL;
    cu->sql = NULL;
    cu->stmt_type = -1;
    cu->ncols = 0;
    cu->cols = NULL;
    cu->untrack = 0;
    cu->has_rows = 0;
    cu->closed = 0;
    cu->description = Py_NewRef(Py_None);
    cu->typenames = Py_NewRef(Py_None);
    cu->errors = NULL;
    cu->lastrowid = Py_NewRef(Py_None);
    cu->rowcount = -1;
    cu->changes = 0;
    cu->arraysize = 1;
    cursor_predict_reset(cu);
    PyObject_GC_Track(cu);
    if (co->pool && pool_track_cursor(co, cu) < 0) Py_CLEAR(cu);
    return (PyObject *)cu;
}

static PyObject *Connection_cursor(ConnectionObject *co, PyObject *args, PyObject *kw) {
    clear_messages(co->messages);
    return noted(co->messages, connection_cursor_impl(co, args, kw));
}

/* execute(sql, parameters=None): a new cursor that has run sql (sqlite3's
 * and psycopg 3's shortcut). A new reference, or NULL with the cursor's
 * exception. */
static PyObject *Connection_execute(ConnectionObject *co, PyObject *args) {
    PyObject *sql, *params = Py_None;
    if (!PyArg_ParseTuple(args, "U|O:execute", &sql, &params)) return NULL;
    PyObject *none = PyTuple_New(0);
    PyObject *cu = none ? Connection_cursor(co, none, NULL) : NULL;
    Py_XDECREF(none);
    if (!cu) return NULL;
    PyObject *r = PyObject_CallMethod(cu, "execute", "OO", sql, params);
    if (!r) {
        Py_DECREF(cu);
        return NULL;
    }
    Py_DECREF(r);
    return cu;
}

/* repr: what the connection is, never its credentials:
 * <ixdb.Connection ixd@127.0.0.1:9088 database 'stores' open, in a transaction>. */
static PyObject *Connection_repr(ConnectionObject *co) {
    if (!co->conn) return PyUnicode_FromFormat("<ixdb.Connection closed at %p>", co);
    const char *db = ix_conn_database(co->conn);
    return PyUnicode_FromFormat("<ixdb.Connection %s%s%s%s open%s%s at %p>",
                                ix_conn_server(co->conn), *db ? " database '" : ", no database", db,
                                *db ? "'" : "", co->autocommit ? ", autocommit" : "",
                                ix_autocommit(co->conn) == 0 ? ", in a transaction" : "", co);
}

static PyObject *conn_txn(ConnectionObject *co, int commit) {
    if (conn_enter(co) < 0) return NULL;
    int rc = IX_OK;
    if (ix_autocommit(co->conn) == 0) {
        if (commit)
            NOGIL(rc = ix_commit(co->conn));
        else
            NOGIL(rc = ix_rollback(co->conn));
    }
    conn_leave(co);
    if (rc != IX_OK) return raise_conn(co->conn, rc);
    Py_RETURN_NONE;
}

static PyObject *Connection_commit(ConnectionObject *co, PyObject *unused) {
    (void)unused;
    clear_messages(co->messages);
    return noted(co->messages, conn_txn(co, 1));
}

static PyObject *Connection_rollback(ConnectionObject *co, PyObject *unused) {
    (void)unused;
    clear_messages(co->messages);
    return noted(co->messages, conn_txn(co, 0));
}

/* _set_client_files(dir or None): ix_set_client_files (connect's client_files). */
static PyObject *Connection_set_client_files(ConnectionObject *co, PyObject *arg) {
    const char *dir = arg == Py_None ? NULL : PyUnicode_AsUTF8(arg);
    if (arg != Py_None && !dir) return NULL;
    if (!co->conn) return raise_simple(InterfaceError, "the connection is closed");
    int rc = ix_set_client_files(co->conn, dir);
    if (rc == IX_EINVAL) return raise_simple(ProgrammingError, "client_files: not a directory");
    if (rc != IX_OK) return raise_conn(co->conn, rc);
    Py_RETURN_NONE;
}

static PyObject *Connection_close(ConnectionObject *co, PyObject *unused) {
    (void)unused;
    clear_messages(co->messages);
    if (!co->conn) Py_RETURN_NONE;
    if (co->busy) return raise_simple(ProgrammingError, "the connection is in use");
    conn_flush_zombies(co);
    ixpy_lob_close_all(co);
    if (co->pool) { /* back to its ixdb.pool.Pool */
        pool_giveback(co);
        Py_RETURN_NONE;
    }
    ix_conn *c = co->conn;
    co->conn = NULL;
    NOGIL(ix_close(c));
    Py_RETURN_NONE;
}

static PyObject *Connection_enter(ConnectionObject *co, PyObject *unused) {
    (void)unused;
    return Py_NewRef((PyObject *)co);
}

/* Leaving the block commits (or rolls back on an exception) and closes. */
static PyObject *Connection_exit(ConnectionObject *co, PyObject *args) {
    PyObject *et = Py_None, *ev = Py_None, *tb = Py_None;
    if (!PyArg_ParseTuple(args, "|OOO", &et, &ev, &tb)) return NULL;
    if (co->conn) {
        PyObject *r = et == Py_None ? Connection_commit(co, NULL) : Connection_rollback(co, NULL);
        if (!r) {
            if (et != Py_None)
                PyErr_Clear();
            else {
                PyObject *x, *y, *z;
                PyErr_Fetch(&x, &y, &z);
                PyObject *c = Connection_close(co, NULL);
                Py_XDECREF(c);
                PyErr_Restore(x, y, z);
                return NULL;
            }
        }
        Py_XDECREF(r);
        PyObject *c = Connection_close(co, NULL);
        if (!c) return NULL;
        Py_DECREF(c);
    }
    Py_RETURN_FALSE;
}

static PyObject *Connection_get_autocommit(ConnectionObject *co, void *c) {
    (void)c;
    return PyBool_FromLong(co->autocommit);
}

static int Connection_set_autocommit(ConnectionObject *co, PyObject *v, void *c) {
    (void)c;
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete autocommit");
        return -1;
    }
    int on = PyObject_IsTrue(v);
    if (on < 0) return -1;
    if (on && !co->autocommit && co->conn && ix_autocommit(co->conn) == 0 && !co->nolog) {
        PyObject *r = conn_txn(co, 1); /* switching on commits the open transaction */
        if (!r) return -1;
        Py_DECREF(r);
    }
    co->autocommit = on;
    return 0;
}

/* closed: True once close() ran, and also when the session is lost (libixdb
 * marked it dead: a network failure, a read timeout, or an ix_cancel that
 * had to end the wait by closing the socket); close() then frees it. */
static PyObject *Connection_get_closed(ConnectionObject *co, void *c) {
    (void)c;
    return PyBool_FromLong(co->conn == NULL || ix_conn_is_dead(co->conn));
}

static PyObject *Connection_get_stmt_cache(ConnectionObject *co, void *c) {
    (void)c;
    if (!co->conn) return raise_simple(InterfaceError, "the connection is closed");
    return PyLong_FromLong(ix_stmt_cache_size(co->conn));
}

static PyObject *Connection_get_server(ConnectionObject *co, void *c) {
    if (!co->conn) return raise_simple(InterfaceError, "the connection is closed");
    return PyUnicode_FromString(c ? ix_server_version(co->conn) : ix_server_name(co->conn));
}

/* compat: the request forms' mode in use, "fast" or "conservative"
 * (libixdb's ix_conn_compat, chosen at login from the DSN key compat=). A
 * new str; InterfaceError once the connection is closed. */
static PyObject *Connection_get_compat(ConnectionObject *co, void *c) {
    (void)c;
    if (!co->conn) return raise_simple(InterfaceError, "the connection is closed");
    return PyUnicode_FromString(ix_conn_compat(co->conn));
}

/* forms: the optional request forms the connection uses (ix_conn_forms,
 * e.g. "pipeline_login,deferred_prepare,...") as a new tuple of str, ()
 * when none; InterfaceError once the connection is closed. */
static PyObject *Connection_get_forms(ConnectionObject *co, void *c) {
    (void)c;
    if (!co->conn) return raise_simple(InterfaceError, "the connection is closed");
    const char *forms = ix_conn_forms(co->conn);
    if (!forms || !*forms) return PyTuple_New(0);
    PyObject *text = PyUnicode_FromString(forms);
    PyObject *sep = text ? PyUnicode_FromString(",") : NULL;
    PyObject *list = sep ? PyUnicode_Split(text, sep, -1) : NULL;
    PyObject *tuple = list ? PyList_AsTuple(list) : NULL;
    Py_XDECREF(list);
    Py_XDECREF(sep);
    Py_XDECREF(text);
    return tuple;
}

static PyObject *Connection_get_in_transaction(ConnectionObject *co, void *c) {
    (void)c;
    if (!co->conn) Py_RETURN_FALSE;
    return PyBool_FromLong(ix_autocommit(co->conn) == 0);
}

static PyObject *Connection_get_messages(ConnectionObject *co, void *c) {
    (void)c;
    if (!co->messages && !(co->messages = PyList_New(0))) return NULL;
    return Py_NewRef(co->messages);
}

static PyObject *Connection_get_row_factory(ConnectionObject *co, void *c) {
    (void)c;
    return Py_NewRef(co->row_factory ? co->row_factory : Py_None);
}

static int Connection_set_row_factory(ConnectionObject *co, PyObject *v, void *c) {
    (void)c;
    return set_row_factory(&co->row_factory, v);
}

static PyObject *Connection_get_timezone(ConnectionObject *co, void *c) {
    (void)c;
    return Py_NewRef(co->tz ? co->tz : Py_None);
}

static PyGetSetDef Connection_getset[] = {
    {"messages", (getter)Connection_get_messages, NULL,
     "(class, value) of the errors of the connection's last calls (PEP 249)", NULL},
    {"row_factory", (getter)Connection_get_row_factory, (setter)Connection_set_row_factory,
     "the row_factory new cursors start with", NULL},
    {"timezone", (getter)Connection_get_timezone, NULL,
     "tzinfo aware datetimes are converted to (None: the local zone)", NULL},
    {"autocommit", (getter)Connection_get_autocommit, (setter)Connection_set_autocommit,
     "True: every statement commits by itself", NULL},
    {"closed", (getter)Connection_get_closed, NULL, NULL, NULL},
    {"server_name", (getter)Connection_get_server, NULL, "DBSERVERNAME from the login", NULL},
    {"server_version", (getter)Connection_get_server, NULL, "server version banner", "v"},
    {"in_transaction", (getter)Connection_get_in_transaction, NULL,
     "True while a transaction is open", NULL},
    {"compat", (getter)Connection_get_compat, NULL,
     "request forms in use: 'fast' or 'conservative' (connect's compat=)", NULL},
    {"forms", (getter)Connection_get_forms, NULL,
     "tuple of the optional request forms the connection uses", NULL},
    {"stmt_cache", (getter)Connection_get_stmt_cache, NULL,
     "statements kept prepared for reuse (libixdb's statement cache)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMethodDef Connection_methods[] = {
    {"cursor", (PyCFunction)(void (*)(void))Connection_cursor, METH_VARARGS | METH_KEYWORDS,
     "cursor($self, /, scrollable=False, withhold=False)\n--\n\n"
     "A new cursor; scrollable: a SCROLL cursor (scroll() back, fetch_first ...); "
     "withhold: a cursor WITH HOLD (stays open across commit())."},
    {"execute", (PyCFunction)Connection_execute, METH_VARARGS,
     "execute($self, operation, parameters=None, /)\n--\n\nA new cursor that has run operation "
     "with "
     "parameters (sqlite3's shortcut); read its rows from it."},
    {"_set_client_files", (PyCFunction)Connection_set_client_files, METH_O,
     "_set_client_files($self, dir, /)\n--\n\nAnswers the server's client-file requests "
     "inside dir (None: refuses them)."},
    {"commit", (PyCFunction)Connection_commit, METH_NOARGS,
     "commit($self, /)\n--\n\nCommits the open transaction."},
    {"rollback", (PyCFunction)Connection_rollback, METH_NOARGS,
     "rollback($self, /)\n--\n\nRolls back the open transaction."},
    {"lob_open", (PyCFunction)(void (*)(void))Connection_lob_open, METH_VARARGS | METH_KEYWORDS,
     "lob_open($self, /, locator, mode='rb')\n--\n\nA file-like ixdb.LobStream on the smart "
     "LOB an ixdb.Locator names."},
    {"lob_create", (PyCFunction)(void (*)(void))Connection_lob_create, METH_VARARGS | METH_KEYWORDS,
     "lob_create($self, /, kind='BLOB', mode='w+b')\n--\n\nA new, empty BLOB or CLOB open for "
     "reading and writing; bind it (or its locator) to keep it."},
    {"close", (PyCFunction)Connection_close, METH_NOARGS,
     "close($self, /)\n--\n\nCloses the connection (an open transaction is rolled back)."},
    {"__enter__", (PyCFunction)Connection_enter, METH_NOARGS, "__enter__($self, /)\n--\n\n"},
    {"__exit__", (PyCFunction)Connection_exit, METH_VARARGS,
     "__exit__($self, exc_type=None, exc_value=None, traceback=None, /)\n--\n\n"
     "Commits (rolls back on an exception) and closes."},
    {NULL, NULL, 0, NULL},
};

static void Connection_dealloc(ConnectionObject *co) {
    conn_flush_zombies(co);
    free(co->zombies);
    Py_CLEAR(co->row_factory);
    Py_CLEAR(co->messages);
    Py_CLEAR(co->tz);
    pool_giveback(co);
    if (co->conn) ix_close(co->conn);
    Py_TYPE(co)->tp_free((PyObject *)co);
}

PyTypeObject ConnectionType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ixdb.Connection",
    .tp_basicsize = sizeof(ConnectionObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A DB-API 2.0 connection (create with ixdb.connect())",
    .tp_dealloc = (destructor)Connection_dealloc,
    .tp_repr = (reprfunc)Connection_repr,
    .tp_methods = Connection_methods,
    .tp_getset = Connection_getset,
};

/* Statements kept prepared per connection (ix_set_stmt_cache). */
#define PY_STMT_CACHE 32

/* _connect(dsn, autocommit, encoding, timezone): the keyword handling is
 * in Python. A DSN libixdb refuses (an unknown key, a bad value: IX_EINVAL)
 * is the program's mistake: ProgrammingError. */
static PyObject *mod_connect(PyObject *mod, PyObject *args) {
    (void)mod;
    const char *dsn, *encoding = NULL;
    int autocommit = 0;
    PyObject *tz = Py_None;
    if (!PyArg_ParseTuple(args, "sp|zO:_connect", &dsn, &autocommit, &encoding, &tz)) return NULL;
    ix_conn *c = NULL;
    int rc;
    NOGIL(rc = ix_connect(&c, dsn));
    if (!c) return PyErr_NoMemory();
    if (rc != IX_OK) {
        if (rc == IX_EINVAL)
            raise_full(ProgrammingError, ix_errmsg(c), rc, 0, 0, "HY000", 0);
        else
            raise_connect(c, rc, ix_conn_server(c));
        ix_close(c);
        return NULL;
    }
    return connection_wrap(c, autocommit, encoding, tz);
}

PyObject *connection_wrap(ix_conn *c, int autocommit, const char *encoding, PyObject *tz) {
    ConnectionObject *co = connection_new(c, autocommit, encoding, tz);
    if (!co) ix_close(c);
    return (PyObject *)co;
}

ConnectionObject *connection_new(ix_conn *c, int autocommit, const char *encoding, PyObject *tz) {
    PyObject *messages = PyList_New(0);
    ConnectionObject *co = messages ? PyObject_New(ConnectionObject, &ConnectionType) : NULL;
    if (!co) {
        Py_XDECREF(messages);
        return NULL;
    }
    co->messages = messages;
    co->row_factory = NULL;
    co->tz = tz && tz != Py_None ? Py_NewRef(tz) : NULL;
    co->conn = c;
    ix_set_signal_handler(c, on_wait_signal, NULL);
    /* Python programs run the same few texts again and again: keep them
     * prepared (libixdb's statement cache, docs/python.md). */
    ix_set_stmt_cache(c, PY_STMT_CACHE);
    co->autocommit = autocommit;
    co->nolog = 0;
    co->busy = 0;
    co->zombies = NULL;
    co->nzombies = co->capzombies = 0;
    co->pool = NULL;
    co->lobs = NULL;
    co->aio_err = 0;
    co->encoding = NULL;
    if (encoding && *encoding) {
        snprintf(co->encbuf, sizeof co->encbuf, "%s", encoding);
        co->encoding = co->encbuf;
    }
    return co;
}

static PyObject *mod_locale_codeset(PyObject *mod, PyObject *args) {
    (void)mod;
    const char *loc;
    if (!PyArg_ParseTuple(args, "s", &loc)) return NULL;
    const char *cs = ix_locale_codeset(loc);
    if (!cs) Py_RETURN_NONE;
    return PyUnicode_FromString(cs);
}

static PyMethodDef module_methods[] = {
    {"_connect", mod_connect, METH_VARARGS,
     "_connect(dsn, autocommit, encoding=None, timezone=None, /)\n--\n\n"},
    {"_locale_codeset", mod_locale_codeset, METH_VARARGS, "_locale_codeset(locale, /)\n--\n\n"},
    {"_pool_type", mod_pool_type, METH_NOARGS, "_pool_type($module, /)\n--\n\n"},
    {"_executemany_fast", mod_executemany_fast, METH_VARARGS,
     "_executemany_fast(on=None, /)\n--\n\nWhether executemany may take its fast path (the "
     "previous setting); on=False: the general path only (for tests)."},
    {"_fetch_general", mod_fetch_general, METH_VARARGS,
     "_fetch_general(on=None, /)\n--\n\nWhether rows are built by the general converters (the "
     "reference the tests compare the per-column ones with); returns the previous setting."},
    {"_executemany_fast_rows", mod_executemany_fast_rows, METH_NOARGS,
     "_executemany_fast_rows($module, /)\n--\n\nRows executemany has sent through its fast "
     "path so far."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT,
    "ixdb._ixdb",
    "C core of the ixdb DB-API driver",
    -1,
    module_methods,
    NULL,
    NULL,
    NULL,
    NULL,
};

/* A PEP 249 exception class; its doc starts with a text signature
 * ("Error(*args)\n--\n\n...") so that inspect.signature works on it. */
static PyObject *new_exc(PyObject *m, const char *name, PyObject *base, const char *doc) {
    char full[64], text[256];
    snprintf(full, sizeof full, "ixdb.%s", name);
    snprintf(text, sizeof text, "%s(*args)\n--\n\n%s", name, doc);
    PyObject *e = PyErr_NewExceptionWithDoc(full, text, base, NULL);
    if (!e) return NULL;
    if (PyModule_AddObjectRef(m, name, e) < 0) {
        Py_DECREF(e);
        return NULL;
    }
    return e;
}

PyMODINIT_FUNC PyInit__ixdb(void);

PyMODINIT_FUNC PyInit__ixdb(void) {
    PyDateTime_IMPORT;
    if (!PyDateTimeAPI || many_init() < 0) return NULL;
    PyObject *decmod = PyImport_ImportModule("decimal");
    if (!decmod) return NULL;
    DecimalType = PyObject_GetAttrString(decmod, "Decimal");
    Py_DECREF(decmod);
    if (!DecimalType) return NULL;
    if (PyType_Ready(&MonthsType) < 0 || PyType_Ready(&ConnectionType) < 0 ||
        PyType_Ready(&CursorType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&moduledef);
    if (!m) return NULL;
    if (!(Warning_ = new_exc(m, "Warning", PyExc_Exception, "important warnings")) ||
        !(Error = new_exc(m, "Error", PyExc_Exception, "base class of the ixdb errors")) ||
        !(InterfaceError = new_exc(m, "InterfaceError", Error, "errors of the driver")) ||
        !(DatabaseError = new_exc(m, "DatabaseError", Error, "errors of the database")) ||
        !(DataError = new_exc(m, "DataError", DatabaseError, "bad data")) ||
        !(OperationalError = new_exc(m, "OperationalError", DatabaseError, "operation")) ||
        !(IntegrityError = new_exc(m, "IntegrityError", DatabaseError, "integrity")) ||
        !(InternalError = new_exc(m, "InternalError", DatabaseError, "internal")) ||
        !(ProgrammingError = new_exc(m, "ProgrammingError", DatabaseError, "programming")) ||
        !(NotSupportedError = new_exc(m, "NotSupportedError", DatabaseError, "not supported")))
        goto fail;
    /* Defaults of the error attributes (instances raised here override them). */
    PyObject *zero = PyLong_FromLong(0), *st = PyUnicode_FromString("HY000");
    if (!zero || !st) goto fail;
    int bad = PyObject_SetAttrString(Error, "sqlcode", zero) ||
              PyObject_SetAttrString(Error, "isamcode", zero) ||
              PyObject_SetAttrString(Error, "offset", zero) ||
              PyObject_SetAttrString(Error, "errcode", zero) ||
              PyObject_SetAttrString(Error, "sqlstate", st) ||
              PyObject_SetAttrString(Error, "rowindex", Py_None) ||
              PyObject_SetAttrString(Error, "errors", Py_None);
    Py_DECREF(zero);
    Py_DECREF(st);
    if (bad) goto fail;
    /* PEP 249 extension: the exception classes as Connection attributes */
    PyObject *const classes[] = {
        Warning_,         Error,          InterfaceError, DatabaseError,    DataError,
        OperationalError, IntegrityError, InternalError,  ProgrammingError, NotSupportedError};
    static const char *const class_names[] = {"Warning",          "Error",
                                              "InterfaceError",   "DatabaseError",
                                              "DataError",        "OperationalError",
                                              "IntegrityError",   "InternalError",
                                              "ProgrammingError", "NotSupportedError"};
    for (size_t i = 0; i < sizeof classes / sizeof classes[0]; i++)
        if (PyDict_SetItemString(ConnectionType.tp_dict, class_names[i], classes[i]) < 0) goto fail;
    PyType_Modified(&ConnectionType);
    if (PyModule_AddObjectRef(m, "Months", (PyObject *)&MonthsType) < 0 ||
        PyModule_AddObjectRef(m, "Connection", (PyObject *)&ConnectionType) < 0 ||
        PyModule_AddObjectRef(m, "Cursor", (PyObject *)&CursorType) < 0 ||
        PyModule_AddStringConstant(m, "libixdb_version", IXDB_VERSION_STRING) < 0 ||
        aio_add_functions(m) < 0 || ixpy_lob_init(m) < 0)
        goto fail;
    return m;
fail:
    Py_DECREF(m);
    return NULL;
}
