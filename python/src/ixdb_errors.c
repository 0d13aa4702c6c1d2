/*
 * ixdb_errors.c: the PEP 249 exception classes, the error raised for a
 * libixdb failure (sqlcode, SQLSTATE, message), and the messages list (PEP
 * 249 extension).
 */
#include <Python.h>
#include <structmember.h>

#include <ixdb.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ixdb_module.h"

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

PyObject *class_for_rc(int rc, int sqlcode) {
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
PyObject *raise_full_tail(PyObject *cls, const char *msg, const char *tail, int errcode,
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

PyObject *raise_full(PyObject *cls, const char *msg, int errcode, int sqlcode, int isam,
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

/* Raises a failed login. Reaching no server gets the code IBM's clients
 * give (ix_unreached_sqlcode), so that code testing sqlcode works: -930
 * when the host name cannot be resolved, -25596 for a server name sqlhosts
 * does not list, -908 for every other way of not reaching it (refused,
 * unreachable, timed out, TLS); the message is Informix's text naming the
 * server, then libixdb's reason. A server's own answer (-951, -761, -329
 * ...) is raised as it is. */
PyObject *raise_connect(ix_conn *c, int rc, const char *server) {
    int code = ix_unreached_sqlcode(c);
    if (sig_type || code == 0) return raise_conn(c, rc);
    const char *why = ix_errmsg(c);
    const char *text = ix_errtext(code), *ins = text ? strstr(text, "(%s)") : NULL;
    char msg[512];
    if (ins) /* "(%s)" names the server, or goes when it is not known */
        snprintf(msg, sizeof msg, "%.*s%s%s%s%s (%s)", (int)(ins - text - (*server ? 0 : 1)), text,
                 *server ? "(" : "", server, *server ? ")" : "", ins + 4, why);
    else
        snprintf(msg, sizeof msg, "%s (%s)", text ? text : "", why);
    return raise_full(OperationalError, msg, rc, code, 0, "08001", 0);
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
PyObject *note_error(PyObject *messages) {
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
void clear_messages(PyObject *messages) {
    if (messages && PyList_GET_SIZE(messages) > 0 &&
        PyList_SetSlice(messages, 0, PyList_GET_SIZE(messages), NULL) < 0)
        PyErr_Clear();
}

/* r, after noting the pending exception in messages when r is NULL. */
PyObject *noted(PyObject *messages, PyObject *r) {
    return r ? r : note_error(messages);
}
