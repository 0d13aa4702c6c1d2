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

/* ---- errors ------------------------------------------------------------------ */

static PyObject *class_for_sqlcode(int sqlcode) {
    switch (sqlcode) {
    case -239:
    case -268:
    case -371:
    case -391:
    case -530:
    case -691:
    case -692:
    case -703: return IntegrityError;
    case -201:
    case -202:
    case -206:
    case -217:
    case -236:
    case -254:
    case -255:
    case -260:
    case -273:
    case -310:
    case -316:
    case -319:
    case -324:
    case -328:
    case -330:
    case -349:
    case -354:
    case -404:
    case -410:
    case -425:
    case -481:
    case -482:
    case -535:
    case -623:
    case -674:
    case -728:
    case -83: return ProgrammingError;
    case -284: return DataError;
    case -999: return NotSupportedError;
    case -208: return InternalError;
    case -107:
    case -143:
    case -154:
    case -213:
    case -240:
    case -243:
    case -244:
    case -256:
    case -271:
    case -329:
    case -346:
    case -377:
    case -387:
    case -408:
    case -761:
    case -908:
    case -951:
    case -952:
    case -25580: return OperationalError;
    default:
        if (sqlcode <= -1200 && sqlcode >= -1299) return DataError;
        return DatabaseError;
    }
}

static PyObject *class_for_rc(int rc, int sqlcode) {
    switch (rc) {
    case IX_ESQL: return class_for_sqlcode(sqlcode);
    case IX_ECONN:
    case IX_ETIMEOUT:
    case IX_ETLS:
    case IX_EPROTO: return OperationalError;
    case IX_EINVAL:
    case IX_ERANGE:
    case IX_EMALFORMED: return DataError;
    case IX_EMISUSE: return InterfaceError;
    case IX_ENOTSUP: return NotSupportedError;
    case IX_ENOMEM: return InternalError;
    default: return sqlcode ? class_for_sqlcode(sqlcode) : DatabaseError;
    }
}

/*
 * The text of a server error as str(e) shows it: the SQLCODE first, then
 * the message, then the ISAM code and its text when there is one, then
 * tail: "-268: Unique constraint (informix.u100_1) violated. (ISAM -100:
 * ISAM error: duplicate value for a record with unique key.)". msg is
 * ix_errmsg's text, whose bracketed ISAM part is replaced.
 */
static void format_sql_error(char *out, size_t cap, const char *msg, int sqlcode, int isam,
                             const char *tail) {
    if (!sqlcode) {
        snprintf(out, cap, "%s%s", msg, tail);
        return;
    }
    size_t len = strlen(msg);
    if (isam) {
        char pat[40];
        snprintf(pat, sizeof pat, " [%d: ", isam);
        const char *cut = strstr(msg, pat);
        if (!cut) {
            snprintf(pat, sizeof pat, " [ISAM error %d]", isam);
            cut = strstr(msg, pat);
        }
        if (cut) len = (size_t)(cut - msg);
    }
    int n = snprintf(out, cap, "%d: %.*s", sqlcode, (int)len, msg);
    if (n < 0 || (size_t)n >= cap) return;
    const char *it = isam ? ix_isam_errtext(isam) : NULL;
    if (isam && it)
        snprintf(out + n, cap - (size_t)n, " (ISAM %d: %s)%s", isam, it, tail);
    else if (isam)
        snprintf(out + n, cap - (size_t)n, " (ISAM %d)%s", isam, tail);
    else
        snprintf(out + n, cap - (size_t)n, "%s", tail);
}

/* Raises cls(text) with the attributes of a libixdb failure; the text is
 * format_sql_error's of msg and tail. Returns NULL. */
static PyObject *raise_full_tail(PyObject *cls, const char *msg, const char *tail, int errcode,
                                 int sqlcode, int isam, const char *sqlstate, int offset) {
    char text[1200];
    format_sql_error(text, sizeof text, msg, sqlcode, isam, tail);
    PyObject *m = PyUnicode_DecodeUTF8(text, (Py_ssize_t)strlen(text), "replace");
    if (!m) return NULL;
    PyObject *e = PyObject_CallOneArg(cls, m);
    Py_DECREF(m);
    if (!e) return NULL;
    PyObject *v;
    if ((v = PyLong_FromLong(sqlcode)) && !PyObject_SetAttrString(e, "sqlcode", v)) {
        Py_DECREF(v);
        v = PyLong_FromLong(isam);
        if (v && !PyObject_SetAttrString(e, "isamcode", v)) {
            Py_DECREF(v);
            v = PyUnicode_FromString(sqlstate);
            if (v && !PyObject_SetAttrString(e, "sqlstate", v)) {
                Py_DECREF(v);
                v = PyLong_FromLong(offset);
                if (v && !PyObject_SetAttrString(e, "offset", v)) {
                    Py_DECREF(v);
                    v = PyLong_FromLong(errcode);
                    if (v && !PyObject_SetAttrString(e, "errcode", v)) {
                        Py_DECREF(v);
                        PyErr_SetObject(cls, e);
                        Py_DECREF(e);
                        return NULL;
                    }
                }
            }
        }
    }
    Py_XDECREF(v);
    Py_DECREF(e);
    return NULL;
}

static PyObject *raise_full(PyObject *cls, const char *msg, int errcode, int sqlcode, int isam,
                            const char *sqlstate, int offset) {
    return raise_full_tail(cls, msg, "", errcode, sqlcode, isam, sqlstate, offset);
}

/*
 * Signals while a call waits for the server (ix_set_signal_handler): the
 * thread takes the GIL and runs Python's signal handlers. If one raises
 * (KeyboardInterrupt for Ctrl-C), the statement is cancelled (ix_cancel):
 * the call returns soon, with -213 when the server takes the interrupt
 * (the connection stays usable), or with IX_ECONN when libixdb had to end
 * the wait by closing the connection (Connection.closed then reads True).
 * A KeyboardInterrupt is given back to Python as a pending SIGINT, so it is
 * raised as the call returns whatever its outcome (raise_conn raises it in
 * place of the call's error); any other exception from a handler is kept
 * and raised in place of the call's error. Returns 1 to cancel, 0 to wait
 * on.
 */
static PyObject *sig_type, *sig_value, *sig_tb; /* the kept exception (GIL held) */

int on_wait_signal(void *ud) {
    (void)ud;
    PyGILState_STATE g = PyGILState_Ensure();
    int stop = PyErr_CheckSignals() < 0;
    if (stop) {
        if (PyErr_ExceptionMatches(PyExc_KeyboardInterrupt)) {
            PyErr_Clear();
            PyErr_SetInterrupt(); /* raised again when the call returns */
        } else if (!sig_type) {
            PyErr_Fetch(&sig_type, &sig_value, &sig_tb);
        } else {
            PyErr_Clear();
        }
    }
    PyGILState_Release(g);
    return stop;
}

/* Raises the failure recorded on c (rc is the failing call's status). */
PyObject *raise_conn(ix_conn *c, int rc) {
    if (sig_type) { /* a signal handler's exception comes first */
        PyErr_Restore(sig_type, sig_value, sig_tb);
        sig_type = sig_value = sig_tb = NULL;
        return NULL;
    }
    if (PyErr_CheckSignals() < 0) return NULL; /* KeyboardInterrupt */
    int sqlcode = ix_sqlcode(c);
    const char *msg = ix_errmsg(c);
    char buf[96];
    if (!msg || !*msg) {
        snprintf(buf, sizeof buf, "%s", ix_rc_str(rc));
        msg = buf;
    }
    return raise_full(class_for_rc(rc, sqlcode), msg, rc, sqlcode, ix_isamcode(c), ix_sqlstate(c),
                      ix_erroffset(c));
}

PyObject *raise_simple(PyObject *cls, const char *msg) {
    return raise_full(cls, msg, 0, 0, 0, cls == InterfaceError ? "HY000" : "HY000", 0);
}

/* ---- messages (PEP 249 extension) -------------------------------------------- */

/* A copy of exception v (its class, arguments and attributes) that was never
 * raised: it carries no traceback, so a messages list holding it keeps no
 * frame (and no connection) alive. NULL with an exception on failure. */
static PyObject *exc_copy(PyObject *t, PyObject *v) {
    PyObject *args = PyObject_GetAttrString(v, "args");
    if (!args) return NULL;
    PyObject *copy = PyObject_Call(t, args, NULL);
    Py_DECREF(args);
    if (!copy) return NULL;
    PyObject *src = PyObject_GetAttrString(v, "__dict__"), *dst = NULL;
    if (src) dst = PyObject_GetAttrString(copy, "__dict__");
    if (!src || !dst || PyDict_Update(dst, src) < 0) Py_CLEAR(copy);
    Py_XDECREF(src);
    Py_XDECREF(dst);
    return copy;
}

/* Appends the pending exception to messages as (class, value); the
 * exception stays pending. Returns NULL. */
static PyObject *note_error(PyObject *messages) {
    if (!messages || !PyErr_Occurred()) return NULL;
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    PyErr_NormalizeException(&t, &v, &tb);
    PyObject *copy = v ? exc_copy(t, v) : NULL;
    PyObject *pair = copy ? PyTuple_Pack(2, t, copy) : NULL;
    if (!pair || PyList_Append(messages, pair) < 0) PyErr_Clear();
    Py_XDECREF(pair);
    Py_XDECREF(copy);
    if (tb) PyException_SetTraceback(v, tb);
    PyErr_Restore(t, v, tb);
    return NULL;
}

/* Empties a messages list (PEP 249: every method but fetch* starts so). */
static void clear_messages(PyObject *messages) {
    if (messages && PyList_GET_SIZE(messages) > 0 &&
        PyList_SetSlice(messages, 0, PyList_GET_SIZE(messages), NULL) < 0)
        PyErr_Clear();
}

/* r, after noting the pending exception in messages when r is NULL. */
static PyObject *noted(PyObject *messages, PyObject *r) {
    return r ? r : note_error(messages);
}

/* ---- connection helpers ---------------------------------------------------------- */

static void conn_flush_zombies(ConnectionObject *co) {
    for (size_t i = 0; i < co->nzombies; i++)
        ix_finalize(co->zombies[i]);
    co->nzombies = 0;
}

/* Finalizes a statement now, or later if another thread is using the
 * connection (a cursor collected while its connection is busy). */
static void conn_release_stmt(ConnectionObject *co, ix_stmt *s) {
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

#define NOGIL(stmt)                                                                                \
    do {                                                                                           \
        Py_BEGIN_ALLOW_THREADS stmt;                                                               \
        Py_END_ALLOW_THREADS                                                                       \
    } while (0)

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
static int kind_of(int type, int enclen, int encoded) {
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
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
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
static int kind_is_atomic(int k) {
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

/* Column i of the current row as a new reference (None for NULL). */
PyObject *fetch_value(ix_stmt *s, int i, const colinfo *ci, const char *enc) {
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
    case K_STR: return str_value(s, i, NULL);
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
    default: {
        if (ix_column_is_null(s, i)) Py_RETURN_NONE;
        const char *t = ix_column_text(s, i);
        if (!t) return col_last_error(s);
        return PyUnicode_DecodeUTF8(t, (Py_ssize_t)ix_column_text_len(s, i), "surrogateescape");
    }
    }
    if (rc == IX_NULL_VALUE) Py_RETURN_NONE;
    return col_error(s, rc);
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
static void cursor_predict_reset(CursorObject *cu) {
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

enum { P_NULL, P_INT, P_DOUBLE, P_BOOL, P_TEXT, P_BLOB, P_DEC, P_DATE, P_DT, P_IV, P_LOC };

typedef struct {
    int kind;
    int n;         /* byte length of text kinds */
    unsigned qual; /* P_DT / P_IV */
    union {
        int64_t i;
        double d;
        size_t off; /* text kinds: offset in the arena */
    } u;
} pval;

typedef struct {
    char *data;
    size_t len, cap;
} arena;

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
static int bind_pval(ix_stmt *s, int i, const pval *v, const char *base, ix_destructor life) {
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
static int is_mapping(PyObject *params) {
    if (PyDict_Check(params)) return 1;
    if (PyTuple_Check(params) || PyList_Check(params) || PyUnicode_Check(params)) return 0;
    return PyMapping_Check(params) && PyObject_HasAttrString(params, "keys");
}

/* Raises the error for named parameters. Returns -1. */
static int named_params_error(void) {
    PyErr_SetString(ProgrammingError,
                    "ixdb's paramstyle is 'qmark': give the values as a sequence for the ? "
                    "markers (or use the numeric style :1, :2 with a sequence); named "
                    "parameters (a mapping) are not supported");
    return -1;
}

/* Converts params (a sequence) into n values: value k is params[k], or
 * params[pmap[k] - 1] for a numeric-style text (pmap not NULL; top: the
 * highest :N). Returns 0 or -1. */
static int convert_row(ConnectionObject *co, PyObject *params, int nparams, pval *out, arena *a,
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

/* ---- cursor ------------------------------------------------------------------------- */

void cursor_clear_result(CursorObject *cu) {
    cu->has_rows = 0;
    cu->pending = 0;
    cu->rownumber = -1;
    free(cu->cols);
    cu->cols = NULL;
    cu->ncols = 0;
    Py_CLEAR(cu->description);
    Py_CLEAR(cu->typenames);
    cu->description = Py_NewRef(Py_None);
    cu->typenames = Py_NewRef(Py_None);
}

static void cursor_drop_stmt(CursorObject *cu) {
    if (cu->stmt) {
        conn_release_stmt(cu->conn, cu->stmt);
        cu->stmt = NULL;
    }
    Py_CLEAR(cu->sql);
    free(cu->pmap);
    cu->pmap = NULL;
    cu->npmap = cu->pmap_top = 0;
}

/* The numeric style: when text has :N markers, ns holds it rewritten and
 * the cursor their map. Returns 0 or -1 (mixed styles, :0, no memory). */
int cursor_numeric(CursorObject *cu, const char *text, size_t n, numeric_sql *ns) {
    int k = ixpy_numeric_rewrite(text, n, ns);
    if (k < 0) {
        PyErr_NoMemory();
        return -1;
    }
    if (k == 0) return 0;
    const char *bad = ns->qmarks ? "the statement mixes ? and :N parameter markers" : NULL;
    for (int i = 0; i < ns->count && !bad; i++)
        if (ns->map[i] < 1) bad = "numeric parameter markers start at :1";
    if (bad) {
        ixpy_numeric_free(ns);
        raise_simple(ProgrammingError, bad);
        return -1;
    }
    cu->pmap = ns->map;
    ns->map = NULL;
    cu->npmap = ns->count;
    cu->pmap_top = ns->top;
    return 0;
}

int cursor_check(CursorObject *cu) {
    if (cu->closed) {
        raise_simple(InterfaceError, "the cursor is closed");
        return -1;
    }
    if (!cu->conn->conn) {
        raise_simple(InterfaceError, "the connection is closed");
        return -1;
    }
    return 0;
}

/* Builds cols, description and typenames for a statement with rows. */
int cursor_describe(CursorObject *cu) {
    int n = ix_column_count(cu->stmt);
    cu->ncols = n;
    cu->untrack = 1;
    cu->cols = calloc((size_t)(n ? n : 1), sizeof *cu->cols);
    if (!cu->cols) {
        PyErr_NoMemory();
        return -1;
    }
    PyObject *desc = PyTuple_New(n), *names = PyList_New(n);
    if (!desc || !names) goto fail;
    for (int i = 0; i < n; i++) {
        int t = ix_column_type(cu->stmt, i), len = ix_column_enclen(cu->stmt, i);
        if (t == IX_T_UDTFIXED) t = ixpy_lob_coltype(cu->stmt, i); /* BLOB / CLOB */
        cu->cols[i].type = t;
        cu->cols[i].enclen = len;
        cu->cols[i].kind = ixpy_lob_kind(cu, t, kind_of(t, len, cu->conn->encoding != NULL));
        if (!kind_is_atomic(cu->cols[i].kind)) cu->untrack = 0;
        const char *nm = ix_column_name(cu->stmt, i);
        PyObject *name =
            PyUnicode_DecodeUTF8(nm ? nm : "", nm ? (Py_ssize_t)strlen(nm) : 0, "replace");
        PyObject *dsize = Py_NewRef(Py_None), *isize = Py_NewRef(Py_None),
                 *prec = Py_NewRef(Py_None), *scale = Py_NewRef(Py_None);
        if (cu->cols[i].kind == K_STR || cu->cols[i].kind == K_STR_ENC) {
            Py_SETREF(dsize, PyLong_FromLong(t == IX_T_LVARCHAR ? len : len & 0xffff));
            Py_SETREF(isize, Py_NewRef(dsize));
        } else if (cu->cols[i].kind == K_DEC) {
            Py_SETREF(prec, PyLong_FromLong((len >> 8) & 0xff));
            if ((len & 0xff) != IX_SCALE_FLOATING) Py_SETREF(scale, PyLong_FromLong(len & 0xff));
        } else if (cu->cols[i].kind == K_INT || cu->cols[i].kind == K_FLOAT) {
            int p = t == IX_T_SMALLINT                        ? 5
                    : (t == IX_T_INTEGER || t == IX_T_SERIAL) ? 10
                    : t == IX_T_FLOAT                         ? 53
                    : t == IX_T_SMALLFLOAT                    ? 24
                                                              : 19;
            Py_SETREF(prec, PyLong_FromLong(p));
        }
        PyObject *tup = Py_BuildValue("(NiNNNNO)", name, t, dsize, isize, prec, scale,
                                      ix_column_notnull(cu->stmt, i) ? Py_False : Py_True);
        if (!tup) goto fail;
        PyTuple_SET_ITEM(desc, i, tup);
        const char *decl = ix_column_decltype(cu->stmt, i);
        PyObject *tn = PyUnicode_FromString(decl ? decl : "UNKNOWN");
        if (!tn) goto fail;
        PyList_SET_ITEM(names, i, tn);
    }
    Py_XSETREF(cu->description, desc);
    Py_XSETREF(cu->typenames, names);
    return 0;
fail:
    Py_XDECREF(desc);
    Py_XDECREF(names);
    return -1;
}

/* Prepares sql on the cursor (reusing the statement when the text is the
 * same). Called with the connection entered. Returns 0 or -1. */
static int cursor_prepare(CursorObject *cu, PyObject *sql) {
    ConnectionObject *co = cu->conn;
    if (cu->stmt && cu->sql && PyUnicode_Compare(cu->sql, sql) == 0) {
        int rc = ix_reset(cu->stmt);
        if (rc == IX_OK) return 0;
        raise_conn(co->conn, rc);
        return -1;
    }
    cursor_drop_stmt(cu);
    Py_ssize_t n;
    const char *text = PyUnicode_AsUTF8AndSize(sql, &n);
    PyObject *encoded = NULL;
    if (!text) return -1;
    if (co->encoding) {
        encoded = PyUnicode_AsEncodedString(sql, co->encoding, "strict");
        if (!encoded) return -1;
        text = PyBytes_AS_STRING(encoded);
        n = PyBytes_GET_SIZE(encoded);
    }
    if (n > 0x7fffffff) {
        Py_XDECREF(encoded);
        raise_simple(ProgrammingError, "SQL text too long");
        return -1;
    }
    numeric_sql ns;
    if (cursor_numeric(cu, text, (size_t)n, &ns) < 0) {
        Py_XDECREF(encoded);
        return -1;
    }
    if (ns.text) {
        text = ns.text;
        n = (Py_ssize_t)ns.len;
    }
    ix_stmt *s = NULL;
    int rc;
    unsigned flags = cu->prep_flags;
    NOGIL(rc = ix_prepare_v2(co->conn, text, (size_t)n, flags, &s));
    if (rc == IX_OK && ix_stmt_type(s) == IX_STMTTYPE_UPDATE_ALL && ix_column_count(s) > 0) {
        /* Work-around: libixdb opens a cursor for an UPDATE without WHERE
         * that ixd described with its SET columns (-481 on execute). */
        ix_finalize(s);
        s = NULL;
        while (n > 0 && (text[n - 1] == ' ' || text[n - 1] == '\n' || text[n - 1] == '\t' ||
                         text[n - 1] == ';' || text[n - 1] == '\r'))
            n--;
        char *t2 = malloc((size_t)n + 16);
        if (!t2) {
            Py_XDECREF(encoded);
            ixpy_numeric_free(&ns);
            PyErr_NoMemory();
            return -1;
        }
        memcpy(t2, text, (size_t)n);
        memcpy(t2 + n, " WHERE 1=1", 11);
        NOGIL(rc = ix_prepare(co->conn, t2, -1, &s));
        free(t2);
    }
    Py_XDECREF(encoded);
    ixpy_numeric_free(&ns);
    if (rc != IX_OK) {
        raise_conn(co->conn, rc);
        free(cu->pmap);
        cu->pmap = NULL;
        cu->npmap = cu->pmap_top = 0;
        return -1;
    }
    cu->stmt = s;
    cu->sql = Py_NewRef(sql);
    cu->stmt_type = ix_stmt_type(s);
    return 0;
}

/* Statement kinds that are run as one-shot commands (database changes). */
int is_db_statement(int t) {
    return t == IX_STMTTYPE_DATABASE || t == IX_STMTTYPE_CREATE_DB || t == IX_STMTTYPE_DROP_DB ||
           t == IX_STMTTYPE_CLOSE_DB || t == IX_STMTTYPE_START_DB;
}

void set_lastrowid(CursorObject *cu) {
    int64_t v = 0;
    if (cu->stmt_type == IX_STMTTYPE_INSERT) {
        v = ix_last_serial8(cu->conn->conn);
        if (!v) v = ix_last_serial(cu->conn->conn);
    }
    Py_XSETREF(cu->lastrowid, v ? PyLong_FromLongLong(v) : Py_NewRef(Py_None));
    if (!cu->lastrowid) {
        PyErr_Clear();
        cu->lastrowid = Py_NewRef(Py_None);
    }
}

/* PEP 249's rowcount for a statement kind: changes, or -1 for the kinds
 * without a row count (ixdb_module.h). */
long long rowcount_of(int stmt_type, int64_t changes) {
    switch (stmt_type) {
    case IX_STMTTYPE_INSERT:
    case IX_STMTTYPE_UPDATE:
    case IX_STMTTYPE_UPDATE_ALL:
    case IX_STMTTYPE_DELETE:
    case IX_STMTTYPE_DELETE_ALL:
    case IX_STMTTYPE_MERGE:
    case IX_STMTTYPE_SELECT_INTO_TEMP: return changes;
    default: return -1;
    }
}

/* Sets changes, rowcount and lastrowid after a statement ran (the
 * cursor's own fields; lastrowid a new reference it owns). */
void cursor_set_counts(CursorObject *cu, int64_t changes) {
    cu->changes = changes;
    cu->rowcount = rowcount_of(cu->stmt_type, changes);
    set_lastrowid(cu);
}

/*
 * Runs a described statement that returns rows up to the server's first
 * reply: the first step (PREPARE when deferred, OPEN and the first NFETCH in
 * one flight) runs the query or routine and makes its first row current,
 * kept as the next row the fetch methods return (pending). An error of the
 * statement is raised here, not at the first fetch. Called with the
 * connection entered. Returns 0, or -1 with the exception set and the
 * result cleared.
 */
static int cursor_first_row(CursorObject *cu) {
    cu->has_rows = 1;
    cu->rownumber = 0;
    cursor_predict_reset(cu);
    int rc = cursor_step(cu);
    if (rc == IX_ROW) {
        cu->pending = 1;
        return 0;
    }
    if (rc == IX_DONE) {
        cu->has_rows = 0;
        return 0;
    }
    cursor_clear_result(cu);
    raise_conn(cu->conn->conn, rc);
    return -1;
}

static PyObject *cursor_execute_impl(CursorObject *cu, PyObject *sql, PyObject *params) {
    if (cursor_check(cu) < 0) return NULL;
    if (!PyUnicode_Check(sql)) {
        PyErr_SetString(ProgrammingError, "the SQL text must be a str");
        return NULL;
    }
    if (params && params != Py_None && is_mapping(params)) {
        named_params_error();
        return NULL;
    }
    ConnectionObject *co = cu->conn;
    if (conn_enter(co) < 0) return NULL;
    cursor_clear_result(cu);
    cu->rowcount = -1;
    cu->changes = 0;
    Py_CLEAR(cu->errors);
    Py_XSETREF(cu->lastrowid, Py_NewRef(Py_None));
    pval small[16], *vals = small;
    arena a = {NULL, 0, 0};
    PyObject *ret = NULL;
    if (cursor_prepare(cu, sql) < 0) goto out;
    int np = ix_bind_parameter_count(cu->stmt);
    if (params == Py_None || params == NULL) {
        if (np > 0) {
            PyErr_Format(ProgrammingError, "the statement has %d parameter(s) but none were given",
                         np);
            goto out;
        }
    } else {
        if (np > 16 && !(vals = malloc(sizeof(pval) * (size_t)np))) {
            PyErr_NoMemory();
            goto out;
        }
        if (convert_row(co, params, np, vals, &a, cu->pmap, cu->pmap_top) < 0) goto out;
        for (int i = 0; i < np; i++) {
            int rc = bind_pval(cu->stmt, i + 1, &vals[i], a.data, IX_TRANSIENT);
            if (rc != IX_OK) {
                raise_conn(co->conn, rc);
                goto out;
            }
        }
    }
    int rc;
    if (is_db_statement(cu->stmt_type) && np == 0) {
        /* DATABASE / CREATE DATABASE ...: a one-shot command. */
        Py_ssize_t n;
        const char *text = PyUnicode_AsUTF8AndSize(sql, &n);
        if (!text) goto out;
        NOGIL(rc = ix_exec(co->conn, text));
        if (rc != IX_OK) {
            raise_conn(co->conn, rc);
            goto out;
        }
        cu->changes = ix_conn_changes(co->conn);
        ret = Py_NewRef((PyObject *)cu);
        goto out;
    }
    if (conn_maybe_begin(co, cu->stmt_type) < 0) goto out;
    if (ix_column_count(cu->stmt) > 0) {
        if (cursor_describe(cu) < 0 || cursor_first_row(cu) < 0) goto out;
        ret = Py_NewRef((PyObject *)cu);
        goto out;
    }
    NOGIL(rc = ix_step(cu->stmt));
    if (rc != IX_DONE && rc != IX_ROW) {
        raise_conn(co->conn, rc);
        goto out;
    }
    cursor_set_counts(cu, ix_changes(cu->stmt));
    ret = Py_NewRef((PyObject *)cu);
out:
    conn_leave(co);
    if (vals != small) free(vals);
    free(a.data);
    return ret;
}

static PyObject *Cursor_execute(CursorObject *cu, PyObject *args) {
    PyObject *sql, *params = NULL;
    clear_messages(cu->messages);
    if (!PyArg_ParseTuple(args, "U|O:execute", &sql, &params)) return note_error(cu->messages);
    return noted(cu->messages, cursor_execute_impl(cu, sql, params));
}

/* executemany: rows are converted under the GIL into C values, then sent in
 * pipelined batches with the GIL released. */
typedef struct {
    const pval *vals;
    const char *base;
    int np;
    int64_t first;
} batch_ctx;

static int batch_bind_row(ix_stmt *s, int64_t row, void *ud) {
    const batch_ctx *b = ud;
    const pval *v = b->vals + (size_t)row * (size_t)b->np;
    for (int i = 0; i < b->np; i++) {
        int rc = bind_pval(s, i + 1, &v[i], b->base, IX_STATIC);
        if (rc != IX_OK) return rc;
    }
    return 0;
}

#define BATCH_ROWS 8192

/* Runs rows [0, nrows) of the converted chunk; fills codes. Uses
 * ix_batch_execute_arrays when every column is INT64 / DOUBLE / TEXT (with
 * NULLs), else ix_batch_execute with a binding callback. */
static int run_chunk(ix_stmt *s, const pval *vals, const char *base, int np, int64_t nrows,
                     int *codes, int64_t *nfailed) {
    int use_arrays = np > 0;
    int *kinds = calloc((size_t)(np ? np : 1), sizeof *kinds);
    if (!kinds) return IX_ENOMEM;
    for (int c = 0; c < np && use_arrays; c++) {
        int k = P_NULL;
        for (int64_t r = 0; r < nrows; r++) {
            const pval *v = &vals[(size_t)r * (size_t)np + (size_t)c];
            if (v->kind == P_NULL) continue;
            int vk = v->kind;
            if (vk == P_TEXT && (int)strlen(base + v->u.off) != v->n) vk = -1; /* NUL inside */
            if (vk != P_INT && vk != P_DOUBLE && vk != P_TEXT) {
                use_arrays = 0;
                break;
            }
            if (k == P_NULL) k = vk;
            if (k != vk) {
                use_arrays = 0;
                break;
            }
        }
        kinds[c] = k == P_NULL ? P_INT : k;
    }
    int rc;
    if (!use_arrays) {
        batch_ctx b = {vals, base, np, 0};
        free(kinds);
        return ix_batch_execute(s, nrows, batch_bind_row, &b, codes, nfailed);
    }
    ix_array *cols = calloc((size_t)np, sizeof *cols);
    void **bufs = calloc((size_t)np, sizeof *bufs);
    unsigned char **nulls = calloc((size_t)np, sizeof *nulls);
    rc = cols && bufs && nulls ? IX_OK : IX_ENOMEM;
    for (int c = 0; c < np && rc == IX_OK; c++) {
        size_t esz = kinds[c] == P_TEXT ? sizeof(char *) : 8;
        bufs[c] = malloc(esz * (size_t)(nrows ? nrows : 1));
        nulls[c] = malloc((size_t)(nrows ? nrows : 1));
        if (!bufs[c] || !nulls[c]) {
            rc = IX_ENOMEM;
            break;
        }
        for (int64_t r = 0; r < nrows; r++) {
            const pval *v = &vals[(size_t)r * (size_t)np + (size_t)c];
            nulls[c][r] = v->kind == P_NULL;
            if (kinds[c] == P_INT)
                ((int64_t *)bufs[c])[r] = v->kind == P_NULL ? 0 : v->u.i;
            else if (kinds[c] == P_DOUBLE)
                ((double *)bufs[c])[r] = v->kind == P_NULL ? 0 : v->u.d;
            else
                ((const char **)bufs[c])[r] = v->kind == P_NULL ? NULL : base + v->u.off;
        }
        cols[c].kind = kinds[c] == P_INT      ? IX_ARRAY_INT64
                       : kinds[c] == P_DOUBLE ? IX_ARRAY_DOUBLE
                                              : IX_ARRAY_TEXT;
        cols[c].values = bufs[c];
        cols[c].is_null = nulls[c];
    }
    if (rc == IX_OK) rc = ix_batch_execute_arrays(s, nrows, cols, np, codes, nfailed);
    for (int c = 0; c < np && bufs && nulls; c++) {
        free(bufs[c]);
        free(nulls[c]);
    }
    free(bufs);
    free(nulls);
    free(cols);
    free(kinds);
    return rc;
}

static PyObject *cursor_executemany_impl(CursorObject *cu, PyObject *sql, PyObject *seq_of_params);

static PyObject *Cursor_executemany(CursorObject *cu, PyObject *args) {
    PyObject *sql, *seq_of_params;
    clear_messages(cu->messages);
    if (!PyArg_ParseTuple(args, "UO:executemany", &sql, &seq_of_params))
        return note_error(cu->messages);
    return noted(cu->messages, cursor_executemany_impl(cu, sql, seq_of_params));
}

static PyObject *cursor_executemany_impl(CursorObject *cu, PyObject *sql, PyObject *seq_of_params) {
    if (cursor_check(cu) < 0) return NULL;
    /* named parameters are refused before the text goes to the server */
    if ((PyList_Check(seq_of_params) || PyTuple_Check(seq_of_params)) &&
        PySequence_Size(seq_of_params) > 0 && is_mapping(PySequence_Fast_ITEMS(seq_of_params)[0])) {
        named_params_error();
        return NULL;
    }
    ConnectionObject *co = cu->conn;
    PyObject *it = PyObject_GetIter(seq_of_params);
    if (!it) return NULL;
    if (conn_enter(co) < 0) {
        Py_DECREF(it);
        return NULL;
    }
    cursor_clear_result(cu);
    cu->rowcount = -1;
    cu->changes = 0;
    Py_CLEAR(cu->errors);
    Py_XSETREF(cu->lastrowid, Py_NewRef(Py_None));
    PyObject *ret = NULL, *errors = NULL;
    pval *vals = NULL;
    int *codes = NULL;
    arena a = {NULL, 0, 0};
    int64_t total = 0, changes = 0, nfailed_all = 0;
    int first_code = 0, first_isam = 0, first_off = 0, first_rc = IX_OK;
    int64_t first_row = -1;
    char first_msg[600] = "", first_state[8] = "";
    if (cursor_prepare(cu, sql) < 0) goto out;
    if (ix_column_count(cu->stmt) > 0) {
        raise_simple(ProgrammingError, "executemany() cannot run a statement that returns rows");
        goto out;
    }
    if (conn_maybe_begin(co, cu->stmt_type) < 0) goto out;
    int np = ix_bind_parameter_count(cu->stmt);
    size_t rowsz = (size_t)(np ? np : 1);
    vals = malloc(sizeof(pval) * rowsz * BATCH_ROWS);
    codes = malloc(sizeof(int) * BATCH_ROWS);
    errors = PyList_New(0);
    if (!vals || !codes || !errors) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto out;
    }
    for (;;) {
        int64_t n = 0;
        a.len = 0;
        PyObject *item;
        while (n < BATCH_ROWS && (item = PyIter_Next(it))) {
            int r = convert_row(co, item, np, vals + (size_t)n * rowsz, &a, cu->pmap, cu->pmap_top);
            Py_DECREF(item);
            if (r < 0) {
                PyObject *et, *ev, *tb;
                PyErr_Fetch(&et, &ev, &tb);
                PyErr_NormalizeException(&et, &ev, &tb);
                if (ev) {
                    PyObject *ri = PyLong_FromLongLong(total + n);
                    if (ri) PyObject_SetAttrString(ev, "rowindex", ri);
                    Py_XDECREF(ri);
                }
                PyErr_Restore(et, ev, tb);
                goto out;
            }
            n++;
        }
        if (PyErr_Occurred()) goto out;
        if (n == 0) break;
        int64_t nf = 0;
        int rc;
        for (int64_t r = 0; r < n; r++)
            codes[r] = 0;
        const pval *cv = vals;
        const char *base = a.data;
        ix_stmt *s = cu->stmt;
        NOGIL(rc = run_chunk(s, cv, base, np, n, codes, &nf));
        changes += ix_changes(s);
        if (rc == IX_ESQL) {
            if (first_row < 0) {
                first_rc = rc;
                first_code = ix_sqlcode(co->conn);
                first_isam = ix_isamcode(co->conn);
                first_off = ix_erroffset(co->conn);
                snprintf(first_msg, sizeof first_msg, "%s", ix_errmsg(co->conn));
                snprintf(first_state, sizeof first_state, "%s", ix_sqlstate(co->conn));
            }
            for (int64_t r = 0; r < n; r++)
                if (codes[r] && codes[r] != IX_BATCH_NOT_SENT) {
                    if (first_row < 0) first_row = total + r;
                    PyObject *e = Py_BuildValue("(Li)", (long long)(total + r), codes[r]);
                    if (!e || PyList_Append(errors, e) < 0) {
                        Py_XDECREF(e);
                        goto out;
                    }
                    Py_DECREF(e);
                }
            nfailed_all += nf;
            total += n;
            break; /* the batch stops at its first refused row (ix_batch_execute) */
        } else if (rc != IX_OK) {
            /* connection error: rows from ix_batch_replied on got no reply */
            int64_t replied = ix_batch_replied(s);
            raise_conn(co->conn, rc);
            PyObject *et, *ev, *tb;
            PyErr_Fetch(&et, &ev, &tb);
            PyErr_NormalizeException(&et, &ev, &tb);
            if (ev) {
                PyObject *ri = PyLong_FromLongLong(total + replied);
                if (ri) PyObject_SetAttrString(ev, "rowindex", ri);
                Py_XDECREF(ri);
                PyObject_SetAttrString(ev, "errors", errors);
            }
            PyErr_Restore(et, ev, tb);
            cursor_set_counts(cu, changes);
            cu->errors = Py_NewRef(errors);
            goto out;
        }
        total += n;
    }
    cursor_set_counts(cu, changes);
    cu->errors = Py_NewRef(errors);
    if (first_row >= 0) {
        char tail[160];
        char *cut = strstr(first_msg, " (batch row "); /* chunk-relative: replaced */
        if (cut) *cut = 0;
        snprintf(tail, sizeof tail, " (executemany: %lld of %lld rows failed, first row %lld)",
                 (long long)nfailed_all, (long long)total, (long long)first_row);
        raise_full_tail(class_for_rc(first_rc, first_code), first_msg, tail, first_rc, first_code,
                        first_isam, first_state, first_off);
        PyObject *et, *ev, *tb;
        PyErr_Fetch(&et, &ev, &tb);
        PyErr_NormalizeException(&et, &ev, &tb);
        if (ev) {
            PyObject *ri = PyLong_FromLongLong(first_row);
            if (ri) PyObject_SetAttrString(ev, "rowindex", ri);
            Py_XDECREF(ri);
            PyObject_SetAttrString(ev, "errors", errors);
        }
        PyErr_Restore(et, ev, tb);
        goto out;
    }
    ret = Py_NewRef((PyObject *)cu);
out:
    conn_leave(co);
    Py_DECREF(it);
    Py_XDECREF(errors);
    free(vals);
    free(codes);
    free(a.data);
    return ret;
}

/* Rows a fetchmany list is preallocated for at most (more are appended). */
#define PREALLOC_ROWS 65536

/* Steps to the next row and builds it: 1 with *row set, 0 at the end of
 * the result set, -1 with an exception. Called with the connection
 * entered. */
static int cursor_next_row(CursorObject *cu, PyObject **row) {
    int rc = cursor_advance(cu);
    if (rc == IX_ROW) {
        *row = build_row(cu);
        if (!*row) return -1;
        if (cu->rownumber >= 0) cu->rownumber++;
        if (cu->row_factory) {
            PyObject *r = PyObject_CallFunctionObjArgs(cu->row_factory, (PyObject *)cu, *row, NULL);
            Py_SETREF(*row, r);
            if (!r) return -1;
        }
        return 1;
    }
    cu->has_rows = 0;
    if (rc == IX_DONE) return 0;
    raise_conn(cu->conn->conn, rc);
    return -1;
}

/* Fills list with up to max rows (max < 0: all); the first npre slots of
 * list are preallocated (NULL), the rest are appended. On success the
 * unused slots are removed. Returns 0 or -1. */
static int cursor_fill(CursorObject *cu, PyObject *list, Py_ssize_t max, Py_ssize_t npre) {
    Py_ssize_t got = 0;
    int r = 1;
    while (cu->has_rows && (max < 0 || got < max)) {
        PyObject *row;
        if ((r = cursor_next_row(cu, &row)) <= 0) break;
        if (got < npre) {
            PyList_SET_ITEM(list, got, row); /* steals row */
        } else {
            int bad = PyList_Append(list, row);
            Py_DECREF(row);
            if (bad < 0) return -1;
        }
        got++;
    }
    if (r < 0) return -1;
    return got < npre ? PyList_SetSlice(list, got, npre, NULL) : 0;
}

/* Fetches up to max rows (max < 0: all) into a list, or one row (as_one). */
static PyObject *cursor_fetch(CursorObject *cu, Py_ssize_t max, int as_one) {
    if (cursor_check(cu) < 0) return NULL;
    if (!cu->stmt || cu->description == Py_None || !cu->description) {
        raise_simple(ProgrammingError, "no result set: execute a query first");
        return NULL;
    }
    if (!cu->has_rows) return as_one ? Py_NewRef(Py_None) : PyList_New(0);
    Py_ssize_t npre = max < 0 || as_one ? 0 : max < PREALLOC_ROWS ? max : PREALLOC_ROWS;
    PyObject *list = NULL;
    if (!as_one && !(list = PyList_New(npre))) return NULL;
    /* Not visible to gc.get_objects() while it has NULL slots (the GIL is
     * released while the rows arrive). */
    if (npre) PyObject_GC_UnTrack(list);
    ConnectionObject *co = cu->conn;
    if (conn_enter(co) < 0) {
        Py_XDECREF(list);
        return NULL;
    }
    PyObject *ret = NULL;
    if (as_one) {
        int r = cursor_next_row(cu, &ret);
        if (r == 0) ret = Py_NewRef(Py_None);
    } else if (cursor_fill(cu, list, max, npre) == 0) {
        ret = Py_NewRef(list);
    }
    conn_leave(co);
    if (npre) PyObject_GC_Track(list);
    Py_XDECREF(list);
    return ret;
}

static PyObject *Cursor_fetchone(CursorObject *cu, PyObject *unused) {
    (void)unused;
    return noted(cu->messages, cursor_fetch(cu, 1, 1));
}

static PyObject *Cursor_fetchmany(CursorObject *cu, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"size", NULL};
    PyObject *osize = Py_None;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|O:fetchmany", kwlist, &osize)) return NULL;
    Py_ssize_t size = cu->arraysize;
    if (osize != Py_None && (size = PyNumber_AsSsize_t(osize, PyExc_OverflowError)) == -1 &&
        PyErr_Occurred())
        return NULL;
    if (size < 0) size = 0;
    return noted(cu->messages, cursor_fetch(cu, size, 0));
}

static PyObject *Cursor_fetchall(CursorObject *cu, PyObject *unused) {
    (void)unused;
    return noted(cu->messages, cursor_fetch(cu, -1, 0));
}

static PyObject *Cursor_iternext(CursorObject *cu) {
    PyObject *r = noted(cu->messages, cursor_fetch(cu, 1, 1));
    if (r == Py_None) {
        Py_DECREF(r);
        return NULL; /* StopIteration */
    }
    return r;
}

static PyObject *Cursor_close(CursorObject *cu, PyObject *unused) {
    (void)unused;
    clear_messages(cu->messages);
    if (cu->closed) Py_RETURN_NONE;
    if (cu->conn->busy) return raise_simple(ProgrammingError, "the connection is in use");
    cu->closed = 1;
    cursor_drop_stmt(cu);
    cursor_clear_result(cu);
    cu->rownumber = -1;
    Py_RETURN_NONE;
}

static PyObject *cursor_callproc_impl(CursorObject *cu, PyObject *args);

static PyObject *Cursor_callproc(CursorObject *cu, PyObject *args) {
    clear_messages(cu->messages);
    return noted(cu->messages, cursor_callproc_impl(cu, args));
}

static PyObject *cursor_callproc_impl(CursorObject *cu, PyObject *args) {
    PyObject *name, *params = NULL;
    if (!PyArg_ParseTuple(args, "U|O:callproc", &name, &params)) return NULL;
    Py_ssize_t n = 0;
    if (params && params != Py_None) {
        n = PySequence_Size(params);
        if (n < 0) return NULL;
    }
    PyObject *marks = PyUnicode_FromString("");
    for (Py_ssize_t i = 0; marks && i < n; i++)
        Py_SETREF(marks, PyUnicode_FromFormat("%U%s?", marks, i ? ", " : ""));
    if (!marks) return NULL;
    PyObject *sql = PyUnicode_FromFormat("EXECUTE PROCEDURE %U(%U)", name, marks);
    Py_DECREF(marks);
    if (!sql) return NULL;
    PyObject *r = cursor_execute_impl(cu, sql, n ? params : NULL);
    Py_DECREF(sql);
    if (!r) return NULL;
    Py_DECREF(r);
    if (!params || params == Py_None) Py_RETURN_NONE;
    return PySequence_Tuple(params);
}

static PyObject *Cursor_noop(CursorObject *cu, PyObject *args) {
    (void)cu;
    (void)args;
    Py_RETURN_NONE;
}

static PyObject *Cursor_enter(CursorObject *cu, PyObject *unused) {
    (void)unused;
    return Py_NewRef((PyObject *)cu);
}

static PyObject *Cursor_exit(CursorObject *cu, PyObject *args) {
    (void)args;
    PyObject *r = Cursor_close(cu, NULL);
    if (!r) return NULL;
    Py_DECREF(r);
    Py_RETURN_FALSE;
}

static PyObject *Cursor_iter(PyObject *self) {
    return Py_NewRef(self);
}

static void Cursor_dealloc(CursorObject *cu) {
    PyObject_GC_UnTrack(cu);
    pool_forget_cursor(cu);
    if (cu->stmt) conn_release_stmt(cu->conn, cu->stmt);
    cu->stmt = NULL;
    free(cu->cols);
    Py_CLEAR(cu->sql);
    Py_CLEAR(cu->description);
    Py_CLEAR(cu->typenames);
    Py_CLEAR(cu->errors);
    Py_CLEAR(cu->lastrowid);
    Py_CLEAR(cu->row_factory);
    Py_CLEAR(cu->messages);
    free(cu->pmap);
    Py_CLEAR(cu->conn);
    Py_TYPE(cu)->tp_free((PyObject *)cu);
}

static int Cursor_traverse(CursorObject *cu, visitproc visit, void *arg) {
    Py_VISIT(cu->conn);
    Py_VISIT(cu->errors);
    Py_VISIT(cu->row_factory);
    Py_VISIT(cu->messages);
    return 0;
}

static int Cursor_clear(CursorObject *cu) {
    Py_CLEAR(cu->row_factory);
    Py_CLEAR(cu->errors);
    if (cu->messages) clear_messages(cu->messages);
    return 0;
}

/* ---- scroll cursors, nextset (PEP 249 extensions) ---------------------------- */

/* Checks the cursor has a result set. Returns 0 or -1. */
static int cursor_check_result(CursorObject *cu) {
    if (cursor_check(cu) < 0) return -1;
    if (!cu->stmt || !cu->description || cu->description == Py_None) {
        raise_simple(ProgrammingError, "no result set: execute a query first");
        return -1;
    }
    return 0;
}

enum { SC_ABSOLUTE, SC_RELATIVE, SC_FIRST, SC_LAST, SC_PRIOR };

/* One ix_fetch_* call on a scroll cursor (connection entered, no GIL). */
static int scroll_fetch(ix_stmt *s, int op, int64_t n) {
    switch (op) {
    case SC_FIRST: return ix_fetch_first(s);
    case SC_LAST: return ix_fetch_last(s);
    case SC_PRIOR: return ix_fetch_prior(s);
    case SC_RELATIVE: return ix_fetch_relative(s, n);
    default: return ix_fetch_absolute(s, n);
    }
}

/* Moves a scroll cursor with one ix_fetch_* call: the row it makes current
 * is the next one fetched (pending), and rownumber becomes rownum (-2:
 * not known). Returns 1 (on a row), 0 (outside the result) or -1. */
static int cursor_scroll_to(CursorObject *cu, int op, int64_t n, long long rownum) {
    ConnectionObject *co = cu->conn;
    if (conn_enter(co) < 0) return -1;
    ix_stmt *s = cu->stmt;
    int rc;
    NOGIL(rc = scroll_fetch(s, op, n));
    conn_leave(co);
    cu->pending = 0;
    if (rc == IX_ROW) {
        cu->pending = 1;
        cu->has_rows = 1;
        cu->rownumber = rownum;
        cursor_predict_reset(cu);
        return 1;
    }
    if (rc == IX_DONE) {
        cu->has_rows = 0;
        return 0;
    }
    raise_conn(co->conn, rc);
    return -1;
}

/* A cursor that is not scrollable goes forward by reading rows. */
static PyObject *cursor_skip(CursorObject *cu, long long target) {
    if (target < cu->rownumber)
        return raise_simple(NotSupportedError,
                            "this cursor only goes forward: scrolling back needs "
                            "Connection.cursor(scrollable=True)");
    ConnectionObject *co = cu->conn;
    if (conn_enter(co) < 0) return NULL;
    int rc = IX_ROW;
    while (cu->rownumber < target && cu->has_rows) {
        rc = cursor_advance(cu);
        if (rc != IX_ROW) break;
        cu->rownumber++;
    }
    conn_leave(co);
    if (rc != IX_ROW && rc != IX_DONE) return raise_conn(co->conn, rc);
    if (rc == IX_DONE) cu->has_rows = 0;
    if (cu->rownumber < target) {
        PyErr_SetString(PyExc_IndexError, "scroll() would leave the result set");
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *cursor_scroll_impl(CursorObject *cu, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"value", "mode", NULL};
    long long value;
    const char *mode = "relative";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "L|s:scroll", kwlist, &value, &mode)) return NULL;
    int relative = strcmp(mode, "relative") == 0;
    if (!relative && strcmp(mode, "absolute") != 0)
        return raise_simple(ProgrammingError, "scroll() mode must be 'relative' or 'absolute'");
    if (cursor_check_result(cu) < 0) return NULL;
    int scrollable = (cu->prep_flags & IX_PREPARE_SCROLL) != 0;
    if (relative && cu->rownumber < 0 && scrollable) {
        /* after fetch_last (position not known): relative to the current row */
        int r = cursor_scroll_to(cu, SC_RELATIVE, value + (cu->pending ? 0 : 1), -2);
        if (r < 0) return NULL;
        if (r == 0) goto outside;
        Py_RETURN_NONE;
    }
    long long target = relative ? cu->rownumber + value : value;
    if (target < 0) goto outside;
    if (!scrollable) return cursor_skip(cu, target);
    int r = cursor_scroll_to(cu, SC_ABSOLUTE, target + 1, target);
    if (r < 0) return NULL;
    if (r > 0) Py_RETURN_NONE;
outside:
    PyErr_SetString(PyExc_IndexError, "scroll() would leave the result set");
    return NULL;
}

static PyObject *Cursor_scroll(CursorObject *cu, PyObject *args, PyObject *kw) {
    clear_messages(cu->messages);
    return noted(cu->messages, cursor_scroll_impl(cu, args, kw));
}

/* fetch_first() ... fetch_relative(n): the row the move lands on, or None
 * outside the result (the cursor then stays before the first or after the
 * last row). Scroll cursors only. */
static PyObject *cursor_fetch_at(CursorObject *cu, int op, int64_t n) {
    if (cursor_check_result(cu) < 0) return NULL;
    if (!(cu->prep_flags & IX_PREPARE_SCROLL))
        return raise_simple(NotSupportedError, "fetch_first/last/prior/absolute/relative need "
                                               "Connection.cursor(scrollable=True)");
    /* libixdb's current row is the last one returned, or, after a scroll
     * (pending), the next one: moves relative to the last one returned
     * are made relative to libixdb's */
    long long next = cu->rownumber, cur = cu->pending ? next : next - 1;
    if (op == SC_PRIOR && cu->pending) {
        op = SC_RELATIVE;
        n = -1;
    }
    if (op == SC_RELATIVE && cu->pending) n -= 1;
    long long landed = -2;
    if (op == SC_FIRST) landed = 0;
    if (op == SC_ABSOLUTE && n > 0) landed = n - 1;
    if (op == SC_RELATIVE && next >= 0) landed = cur + n;
    if (op == SC_PRIOR && next >= 0) landed = cur - 1;
    if (landed < -2) landed = -2;
    int r = cursor_scroll_to(cu, op, n, landed);
    if (r <= 0) return r < 0 ? NULL : Py_NewRef(Py_None);
    PyObject *row = NULL;
    ConnectionObject *co = cu->conn;
    if (conn_enter(co) < 0) return NULL;
    r = cursor_next_row(cu, &row);
    conn_leave(co);
    return r < 0 ? NULL : row;
}

static PyObject *Cursor_fetch_first(CursorObject *cu, PyObject *unused) {
    (void)unused;
    return noted(cu->messages, cursor_fetch_at(cu, SC_FIRST, 0));
}
static PyObject *Cursor_fetch_last(CursorObject *cu, PyObject *unused) {
    (void)unused;
    return noted(cu->messages, cursor_fetch_at(cu, SC_LAST, 0));
}
static PyObject *Cursor_fetch_prior(CursorObject *cu, PyObject *unused) {
    (void)unused;
    return noted(cu->messages, cursor_fetch_at(cu, SC_PRIOR, 0));
}
static PyObject *Cursor_fetch_absolute(CursorObject *cu, PyObject *arg) {
    long long n = PyLong_AsLongLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    return noted(cu->messages, cursor_fetch_at(cu, SC_ABSOLUTE, n));
}
static PyObject *Cursor_fetch_relative(CursorObject *cu, PyObject *arg) {
    long long n = PyLong_AsLongLong(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    return noted(cu->messages, cursor_fetch_at(cu, SC_RELATIVE, n));
}

/* Informix statements give one result set: there is never a next one. */
static PyObject *Cursor_nextset(CursorObject *cu, PyObject *unused) {
    (void)unused;
    clear_messages(cu->messages);
    if (cursor_check(cu) < 0) return note_error(cu->messages);
    Py_RETURN_NONE;
}

static PyObject *Cursor_get_rownumber(CursorObject *cu, void *c) {
    (void)c;
    if (cu->rownumber < 0) Py_RETURN_NONE;
    return PyLong_FromLongLong(cu->rownumber);
}

static PyObject *Cursor_get_messages(CursorObject *cu, void *c) {
    (void)c;
    return Py_NewRef(cu->messages);
}

static PyObject *Cursor_get_row_factory(CursorObject *cu, void *c) {
    (void)c;
    return Py_NewRef(cu->row_factory ? cu->row_factory : Py_None);
}

/* None or a callable; *slot holds NULL for None (the tuple fast path). */
static int set_row_factory(PyObject **slot, PyObject *v) {
    if (!v) {
        PyErr_SetString(PyExc_AttributeError, "cannot delete row_factory");
        return -1;
    }
    if (v != Py_None && !PyCallable_Check(v)) {
        PyErr_SetString(PyExc_TypeError, "row_factory must be None or a callable(cursor, row)");
        return -1;
    }
    Py_XSETREF(*slot, v == Py_None ? NULL : Py_NewRef(v));
    return 0;
}

static int Cursor_set_row_factory(CursorObject *cu, PyObject *v, void *c) {
    (void)c;
    return set_row_factory(&cu->row_factory, v);
}

static PyObject *Cursor_get_scrollable(CursorObject *cu, void *c) {
    return PyBool_FromLong((cu->prep_flags & (unsigned)(uintptr_t)c) != 0);
}

static PyObject *Cursor_get_description(CursorObject *cu, void *c) {
    (void)c;
    return Py_NewRef(cu->description ? cu->description : Py_None);
}
static PyObject *Cursor_get_typenames(CursorObject *cu, void *c) {
    (void)c;
    return Py_NewRef(cu->typenames ? cu->typenames : Py_None);
}
static PyObject *Cursor_get_rowcount(CursorObject *cu, void *c) {
    (void)c;
    return PyLong_FromLongLong(cu->rowcount);
}
/* _changes: the rows libixdb reports for the last execute / executemany
 * (ix_changes) whatever the statement, also where rowcount is -1 (the
 * elements a routine such as oni_ts_write_many wrote). */
static PyObject *Cursor_get_changes(CursorObject *cu, void *c) {
    (void)c;
    return PyLong_FromLongLong(cu->changes);
}

static PyObject *Cursor_get_lastrowid(CursorObject *cu, void *c) {
    (void)c;
    return Py_NewRef(cu->lastrowid ? cu->lastrowid : Py_None);
}
static PyObject *Cursor_get_errors(CursorObject *cu, void *c) {
    (void)c;
    if (!cu->errors) return PyList_New(0);
    return Py_NewRef(cu->errors);
}
static PyObject *Cursor_get_connection(CursorObject *cu, void *c) {
    (void)c;
    return Py_NewRef((PyObject *)cu->conn);
}
static PyObject *Cursor_get_closed(CursorObject *cu, void *c) {
    (void)c;
    return PyBool_FromLong(cu->closed || !cu->conn->conn);
}
static PyObject *Cursor_get_fetch_stats(CursorObject *cu, void *c) {
    (void)c;
    if (!cu->stmt) Py_RETURN_NONE;
    return Py_BuildValue("{sLsLsLsisLsL}", "requests", (long long)ix_stmt_fetch_count(cu->stmt),
                         "roundtrips", (long long)ix_stmt_fetch_roundtrips(cu->stmt), "bytes",
                         (long long)ix_stmt_fetch_bytes(cu->stmt), "buffer",
                         (int)ix_stmt_fetch_size(cu->stmt), "gil_releases", (long long)cu->released,
                         "gil_missed", (long long)cu->missed);
}

static PyGetSetDef Cursor_getset[] = {
    {"description", (getter)Cursor_get_description, NULL, "PEP 249 column descriptions", NULL},
    {"typenames", (getter)Cursor_get_typenames, NULL, "Informix type names of the columns", NULL},
    {"rowcount", (getter)Cursor_get_rowcount, NULL,
     "rows affected by the last INSERT / UPDATE / DELETE / MERGE; -1 for other statements", NULL},
    {"_changes", (getter)Cursor_get_changes, NULL,
     "rows libixdb reports for the last execute, whatever the statement", NULL},
    {"lastrowid", (getter)Cursor_get_lastrowid, NULL, "SERIAL/SERIAL8/BIGSERIAL of the INSERT",
     NULL},
    {"errors", (getter)Cursor_get_errors, NULL, "(row, sqlcode) of the last executemany", NULL},
    {"connection", (getter)Cursor_get_connection, NULL, "the cursor's connection", NULL},
    {"closed", (getter)Cursor_get_closed, NULL, "True once closed", NULL},
    {"fetch_stats", (getter)Cursor_get_fetch_stats, NULL, "NFETCH counters of the cursor", NULL},
    {"rownumber", (getter)Cursor_get_rownumber, NULL,
     "0-based index of the next row of the result set (None: no result set or not known)", NULL},
    {"messages", (getter)Cursor_get_messages, NULL,
     "(class, value) of the errors of the cursor's last calls (PEP 249)", NULL},
    {"row_factory", (getter)Cursor_get_row_factory, (setter)Cursor_set_row_factory,
     "None (rows are tuples) or callable(cursor, row) building each row", NULL},
    {"scrollable", (getter)Cursor_get_scrollable, NULL, "True for a scroll cursor",
     (void *)(uintptr_t)IX_PREPARE_SCROLL},
    {"withhold", (getter)Cursor_get_scrollable, NULL, "True for a WITH HOLD cursor",
     (void *)(uintptr_t)IX_PREPARE_WITH_HOLD},
    {"lob_locators", (getter)Cursor_get_lob_locators, (setter)Cursor_set_lob_locators,
     "True: BLOB and CLOB columns fetch as ixdb.Locator (read later with lob_open)", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyMemberDef Cursor_members[] = {
    {"arraysize", T_PYSSIZET, offsetof(CursorObject, arraysize), 0, "rows per fetchmany()"},
    {NULL, 0, 0, 0, NULL},
};

static PyMethodDef Cursor_methods[] = {
    {"execute", (PyCFunction)Cursor_execute, METH_VARARGS,
     "execute($self, operation, parameters=None, /)\n--\n\n"
     "Prepares and runs operation with the sequence of values parameters for its ? "
     "(or :1, :2) markers. Returns the cursor."},
    {"executemany", (PyCFunction)Cursor_executemany, METH_VARARGS,
     "executemany($self, operation, seq_of_parameters, /)\n--\n\n"
     "Runs operation once per sequence of values, pipelined in batches."},
    {"fetchone", (PyCFunction)Cursor_fetchone, METH_NOARGS,
     "fetchone($self, /)\n--\n\nThe next row, or None at the end."},
    {"fetchmany", (PyCFunction)(void (*)(void))Cursor_fetchmany, METH_VARARGS | METH_KEYWORDS,
     "fetchmany($self, /, size=None)\n--\n\nUp to size rows (default arraysize) as a list."},
    {"fetchall", (PyCFunction)Cursor_fetchall, METH_NOARGS,
     "fetchall($self, /)\n--\n\nThe remaining rows as a list."},
    {"fetch_arrays", (PyCFunction)(void (*)(void))Cursor_fetch_arrays, METH_VARARGS | METH_KEYWORDS,
     "fetch_arrays($self, /, n=None, numpy=None)\n--\n\nThe rest of the result (or n rows), one "
     "array per column."},
    {"close", (PyCFunction)Cursor_close, METH_NOARGS,
     "close($self, /)\n--\n\nCloses the cursor and releases its statement."},
    {"callproc", (PyCFunction)Cursor_callproc, METH_VARARGS,
     "callproc($self, procname, parameters=None, /)\n--\n\n"
     "Runs EXECUTE PROCEDURE procname(...). Returns the parameters as a tuple."},
    {"nextset", (PyCFunction)Cursor_nextset, METH_NOARGS,
     "nextset($self, /)\n--\n\nReturns None: an Informix statement gives one result set."},
    {"scroll", (PyCFunction)(void (*)(void))Cursor_scroll, METH_VARARGS | METH_KEYWORDS,
     "scroll($self, /, value, mode='relative')\n--\n\n"
     "Moves to row value of the result set (mode 'absolute', 0-based) or value rows "
     "from the next one ('relative'). IndexError outside the result set."},
    {"fetch_first", (PyCFunction)Cursor_fetch_first, METH_NOARGS,
     "fetch_first($self, /)\n--\n\nThe first row (scroll cursors), or None."},
    {"fetch_last", (PyCFunction)Cursor_fetch_last, METH_NOARGS,
     "fetch_last($self, /)\n--\n\nThe last row (scroll cursors), or None."},
    {"fetch_prior", (PyCFunction)Cursor_fetch_prior, METH_NOARGS,
     "fetch_prior($self, /)\n--\n\nThe row before the last one returned, or None."},
    {"fetch_absolute", (PyCFunction)Cursor_fetch_absolute, METH_O,
     "fetch_absolute($self, n, /)\n--\n\nRow n (1-based, as FETCH ABSOLUTE), or None."},
    {"fetch_relative", (PyCFunction)Cursor_fetch_relative, METH_O,
     "fetch_relative($self, n, /)\n--\n\nThe row n after the last one returned, or None."},
    {"lob_open", (PyCFunction)(void (*)(void))Cursor_lob_open, METH_VARARGS | METH_KEYWORDS,
     "lob_open($self, /, column, mode='rb')\n--\n\nA file-like ixdb.LobStream on the BLOB or "
     "CLOB column (index or name) of the current row."},
    {"fetch_locator", (PyCFunction)Cursor_fetch_locator, METH_O,
     "fetch_locator($self, column, /)\n--\n\nThe ixdb.Locator of a BLOB or CLOB column of "
     "the current row (None for NULL)."},
    {"setinputsizes", (PyCFunction)Cursor_noop, METH_VARARGS,
     "setinputsizes($self, sizes, /)\n--\n\nDoes nothing (PEP 249 allows it)."},
    {"setoutputsize", (PyCFunction)Cursor_noop, METH_VARARGS,
     "setoutputsize($self, size, column=None, /)\n--\n\nDoes nothing (PEP 249 allows it)."},
    {"__enter__", (PyCFunction)Cursor_enter, METH_NOARGS, "__enter__($self, /)\n--\n\n"},
    {"__exit__", (PyCFunction)Cursor_exit, METH_VARARGS,
     "__exit__($self, exc_type=None, exc_value=None, traceback=None, /)\n--\n\nCloses the "
     "cursor."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject CursorType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ixdb.Cursor",
    .tp_basicsize = sizeof(CursorObject),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A DB-API 2.0 cursor (create with Connection.cursor())",
    .tp_dealloc = (destructor)Cursor_dealloc,
    .tp_traverse = (traverseproc)Cursor_traverse,
    .tp_clear = (inquiry)Cursor_clear,
    .tp_iter = Cursor_iter,
    .tp_iternext = (iternextfunc)Cursor_iternext,
    .tp_methods = Cursor_methods,
    .tp_members = Cursor_members,
    .tp_getset = Cursor_getset,
};

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
            raise_conn(c, rc);
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
    if (!PyDateTimeAPI) return NULL;
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
