/*
 * ixdb_lob.c: smart large objects (BLOB, CLOB) in the Python module, on
 * libixdb's LOB API (the LOB block of ixdb.h).
 *
 *   - fetch: a BLOB column gives bytes, a CLOB column str, read in one
 *     piece straight into the new object (open, size, read, close); with
 *     Cursor.lob_locators an ixdb.Locator instead, read later;
 *   - bind: an ixdb.Locator or an ixdb.LobStream binds its handle; any other
 *     object with .read is copied into a new LO in pieces of LOB_PIECE bytes
 *     (never whole) and its handle bound;
 *   - streams: Cursor.lob_open, Connection.lob_open and Connection.lob_create
 *     give an ixdb.LobStream (python/ixdb/_lob.py, an io.RawIOBase) around a
 *     _LobHandle, the ix_lob object defined here.
 *
 * Every call that talks to the server runs with the connection entered
 * (conn_enter) and without the GIL. A connection keeps a list of its open
 * handles and closes them before it closes (ixpy_lob_close_all).
 */
#include <string.h>

#include "ixdb_module.h"

#define NOGIL(stmt)                                                                                \
    do {                                                                                           \
        Py_BEGIN_ALLOW_THREADS stmt;                                                               \
        Py_END_ALLOW_THREADS                                                                       \
    } while (0)

/* Bytes (or, for text streams, characters) one read of a bound file-like
 * object asks for: libixdb's SQ_LODATA piece. */
#define LOB_PIECE (1 << 20)

/* ---- ixdb.Locator ------------------------------------------------------------------ */

typedef struct {
    PyObject_HEAD ix_locator loc;
    int type; /* IX_T_BLOB / IX_T_CLOB */
} LocatorObject;

PyTypeObject LocatorType;

static PyObject *locator_new_value(const ix_locator *loc, int type) {
    LocatorObject *l = PyObject_New(LocatorObject, &LocatorType);
    if (!l) return NULL;
    l->loc = *loc;
    l->type = type;
    return (PyObject *)l;
}

static int check_type(int type) {
    if (type == IX_T_BLOB || type == IX_T_CLOB) return 0;
    PyErr_Format(ProgrammingError, "a smart-LOB type is ixdb.BLOB (%d) or ixdb.CLOB (%d), not %d",
                 IX_T_BLOB, IX_T_CLOB, type);
    return -1;
}

static PyObject *Locator_new(PyTypeObject *t, PyObject *args, PyObject *kw) {
    (void)t;
    static char *kwlist[] = {"data", "type", NULL};
    Py_buffer b;
    int type;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "y*i:Locator", kwlist, &b, &type)) return NULL;
    PyObject *r = NULL;
    if (b.len != IX_LOCATOR_LEN)
        PyErr_Format(ProgrammingError, "a locator is %d bytes, not %zd", IX_LOCATOR_LEN, b.len);
    else if (check_type(type) == 0) {
        ix_locator loc;
        memcpy(loc.bytes, b.buf, IX_LOCATOR_LEN);
        r = locator_new_value(&loc, type);
    }
    PyBuffer_Release(&b);
    return r;
}

static PyObject *Locator_bytes(LocatorObject *l, PyObject *unused) {
    (void)unused;
    return PyBytes_FromStringAndSize((const char *)l->loc.bytes, IX_LOCATOR_LEN);
}

static PyObject *Locator_reduce(LocatorObject *l, PyObject *unused) {
    (void)unused;
    return Py_BuildValue("(O(y#i))", (PyObject *)Py_TYPE(l), (const char *)l->loc.bytes,
                         (Py_ssize_t)IX_LOCATOR_LEN, l->type);
}

static PyObject *Locator_repr(LocatorObject *l) {
    return PyUnicode_FromFormat("<ixdb.Locator %s>", l->type == IX_T_CLOB ? "CLOB" : "BLOB");
}

static Py_hash_t Locator_hash(LocatorObject *l) {
    Py_hash_t h = (Py_hash_t)l->type;
    for (int k = 0; k < IX_LOCATOR_LEN; k++)
        h = h * 1000003 ^ l->loc.bytes[k];
    return h == -1 ? -2 : h;
}

static PyObject *Locator_richcompare(PyObject *a, PyObject *b, int op) {
    if (!PyObject_TypeCheck(b, &LocatorType) || (op != Py_EQ && op != Py_NE))
        Py_RETURN_NOTIMPLEMENTED;
    const LocatorObject *x = (LocatorObject *)a, *y = (LocatorObject *)b;
    int eq = x->type == y->type && !memcmp(x->loc.bytes, y->loc.bytes, IX_LOCATOR_LEN);
    return PyBool_FromLong(op == Py_EQ ? eq : !eq);
}

static PyObject *Locator_get_type(LocatorObject *l, void *c) {
    (void)c;
    return PyLong_FromLong(l->type);
}

static PyMethodDef Locator_methods[] = {
    {"__bytes__", (PyCFunction)Locator_bytes, METH_NOARGS,
     "__bytes__($self, /)\n--\n\nThe 72 bytes of the handle."},
    {"__reduce__", (PyCFunction)Locator_reduce, METH_NOARGS, "__reduce__($self, /)\n--\n\n"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Locator_getset[] = {
    {"type", (getter)Locator_get_type, NULL, "ixdb.BLOB or ixdb.CLOB", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject LocatorType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ixdb.Locator",
    .tp_basicsize = sizeof(LocatorObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Locator(data, type)\n--\n\n"
              "The handle of a smart LOB (BLOB or CLOB): bind it, or open it with "
              "Connection.lob_open on the connection it came from.",
    .tp_new = Locator_new,
    .tp_repr = (reprfunc)Locator_repr,
    .tp_hash = (hashfunc)Locator_hash,
    .tp_richcompare = Locator_richcompare,
    .tp_methods = Locator_methods,
    .tp_getset = Locator_getset,
};

/* ---- _LobHandle: an open ix_lob ----------------------------------------------------- */

typedef struct ixpy_lob {
    PyObject_HEAD ConnectionObject *conn; /* strong reference */
    ix_lob *lob;                          /* NULL once closed */
    int flags;                            /* IX_LO_* as opened */
    struct ixpy_lob *prev, *next;         /* the connection's open handles */
} LobObject;

PyTypeObject LobType;

static void lob_unlink(LobObject *h) {
    if (h->prev)
        h->prev->next = h->next;
    else if (h->conn->lobs == h)
        h->conn->lobs = h->next;
    if (h->next) h->next->prev = h->prev;
    h->prev = h->next = NULL;
}

/* A handle owning b (opened with flags) on co. Closes b when it fails. */
static PyObject *lob_handle(ConnectionObject *co, ix_lob *b, int flags) {
    LobObject *h = PyObject_New(LobObject, &LobType);
    if (!h) {
        NOGIL(ix_lob_close(b));
        return NULL;
    }
    h->conn = (ConnectionObject *)Py_NewRef((PyObject *)co);
    h->lob = b;
    h->flags = flags;
    h->prev = NULL;
    h->next = co->lobs;
    if (co->lobs) co->lobs->prev = h;
    co->lobs = h;
    return (PyObject *)h;
}

void ixpy_lob_close_all(ConnectionObject *co) {
    while (co->lobs) {
        LobObject *h = co->lobs;
        ix_lob *b = h->lob;
        h->lob = NULL;
        lob_unlink(h);
        NOGIL(ix_lob_close(b));
    }
}

static void Lob_dealloc(LobObject *h) {
    if (h->lob) { /* a stream dropped unclosed: close it now if the connection is free */
        ix_lob *b = h->lob;
        h->lob = NULL;
        lob_unlink(h);
        if (!h->conn->busy && h->conn->conn) {
            h->conn->busy = 1;
            NOGIL(ix_lob_close(b));
            h->conn->busy = 0;
        }
    }
    Py_XDECREF(h->conn);
    PyObject_Free(h);
}

/* Checks h is open and enters its connection. Returns 0 or -1. */
static int lob_enter(LobObject *h) {
    if (!h->lob) {
        PyErr_SetString(PyExc_ValueError, "I/O operation on a closed LOB stream");
        return -1;
    }
    return conn_enter(h->conn);
}

static PyObject *lob_done(LobObject *h, int rc, PyObject *ok) {
    conn_leave(h->conn);
    if (rc == IX_OK) return ok;
    Py_XDECREF(ok);
    return raise_conn(h->conn->conn, rc);
}

static PyObject *Lob_readinto(LobObject *h, PyObject *arg) {
    Py_buffer v;
    if (PyObject_GetBuffer(arg, &v, PyBUF_WRITABLE) < 0) return NULL;
    if (lob_enter(h) < 0) {
        PyBuffer_Release(&v);
        return NULL;
    }
    size_t got = 0;
    int rc;
    NOGIL(rc = ix_lob_read(h->lob, v.buf, (size_t)v.len, &got));
    PyBuffer_Release(&v);
    return lob_done(h, rc, rc == IX_OK ? PyLong_FromSize_t(got) : NULL);
}

/* read(n): up to n bytes straight into a new bytes object. */
static PyObject *Lob_read(LobObject *h, PyObject *arg) {
    Py_ssize_t n = PyLong_AsSsize_t(arg);
    if (n == -1 && PyErr_Occurred()) return NULL;
    if (n < 0) return raise_simple(ProgrammingError, "read(n) needs n >= 0");
    PyObject *b = PyBytes_FromStringAndSize(NULL, n);
    if (!b) return NULL;
    if (lob_enter(h) < 0) {
        Py_DECREF(b);
        return NULL;
    }
    size_t got = 0;
    int rc;
    char *p = PyBytes_AS_STRING(b);
    NOGIL(rc = ix_lob_read(h->lob, p, (size_t)n, &got));
    b = lob_done(h, rc, b);
    if (b && (Py_ssize_t)got < n && _PyBytes_Resize(&b, (Py_ssize_t)got) < 0) return NULL;
    return b;
}

static PyObject *Lob_write(LobObject *h, PyObject *arg) {
    Py_buffer v;
    if (PyObject_GetBuffer(arg, &v, PyBUF_SIMPLE) < 0) return NULL;
    if (lob_enter(h) < 0) {
        PyBuffer_Release(&v);
        return NULL;
    }
    int rc;
    NOGIL(rc = ix_lob_write(h->lob, v.buf, (size_t)v.len));
    Py_ssize_t n = v.len;
    PyBuffer_Release(&v);
    return lob_done(h, rc, rc == IX_OK ? PyLong_FromSsize_t(n) : NULL);
}

static PyObject *Lob_seek(LobObject *h, PyObject *args) {
    long long off;
    int whence = 0;
    if (!PyArg_ParseTuple(args, "L|i:seek", &off, &whence)) return NULL;
    static const int origin[] = {IX_LO_SEEK_SET, IX_LO_SEEK_CUR, IX_LO_SEEK_END};
    if (whence < 0 || whence > 2) {
        PyErr_Format(PyExc_ValueError, "invalid whence (%d, should be 0, 1 or 2)", whence);
        return NULL;
    }
    if (whence == 0 && off < 0) {
        PyErr_Format(PyExc_ValueError, "negative seek position %lld", off);
        return NULL;
    }
    if (lob_enter(h) < 0) return NULL;
    int64_t pos = 0;
    int rc;
    NOGIL(rc = ix_lob_seek(h->lob, off, origin[whence], &pos));
    if (rc == IX_EINVAL) {
        conn_leave(h->conn);
        PyErr_SetString(PyExc_ValueError, "seek before the start of the LOB");
        return NULL;
    }
    return lob_done(h, rc, rc == IX_OK ? PyLong_FromLongLong(pos) : NULL);
}

static PyObject *Lob_tell(LobObject *h, PyObject *unused) {
    (void)unused;
    if (lob_enter(h) < 0) return NULL;
    int64_t pos = 0;
    int rc = ix_lob_seek(h->lob, 0, IX_LO_SEEK_CUR, &pos); /* local: no round trip */
    return lob_done(h, rc, rc == IX_OK ? PyLong_FromLongLong(pos) : NULL);
}

static PyObject *Lob_size(LobObject *h, PyObject *unused) {
    (void)unused;
    if (lob_enter(h) < 0) return NULL;
    int64_t n = 0;
    int rc;
    NOGIL(rc = ix_lob_size(h->lob, &n));
    return lob_done(h, rc, rc == IX_OK ? PyLong_FromLongLong(n) : NULL);
}

static PyObject *Lob_close(LobObject *h, PyObject *unused) {
    (void)unused;
    if (!h->lob) Py_RETURN_NONE;
    if (conn_enter(h->conn) < 0) return NULL;
    ix_lob *b = h->lob;
    h->lob = NULL;
    lob_unlink(h);
    int rc;
    NOGIL(rc = ix_lob_close(b));
    return lob_done(h, rc, rc == IX_OK ? Py_NewRef(Py_None) : NULL);
}

static PyObject *Lob_get_closed(LobObject *h, void *c) {
    (void)c;
    return PyBool_FromLong(h->lob == NULL);
}

static PyObject *Lob_get_flags(LobObject *h, void *c) {
    (void)c;
    return PyLong_FromLong(h->flags);
}

static PyObject *Lob_get_locator(LobObject *h, void *c) {
    (void)c;
    if (!h->lob) {
        PyErr_SetString(PyExc_ValueError, "I/O operation on a closed LOB stream");
        return NULL;
    }
    ix_locator loc;
    ix_lob_locator(h->lob, &loc);
    return locator_new_value(&loc, ix_lob_type(h->lob));
}

static PyMethodDef Lob_methods[] = {
    {"readinto", (PyCFunction)Lob_readinto, METH_O, "readinto($self, buffer, /)\n--\n\n"},
    {"read", (PyCFunction)Lob_read, METH_O, "read($self, n, /)\n--\n\n"},
    {"write", (PyCFunction)Lob_write, METH_O, "write($self, data, /)\n--\n\n"},
    {"seek", (PyCFunction)Lob_seek, METH_VARARGS, "seek($self, offset, whence=0, /)\n--\n\n"},
    {"tell", (PyCFunction)Lob_tell, METH_NOARGS, "tell($self, /)\n--\n\n"},
    {"size", (PyCFunction)Lob_size, METH_NOARGS, "size($self, /)\n--\n\n"},
    {"close", (PyCFunction)Lob_close, METH_NOARGS, "close($self, /)\n--\n\n"},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Lob_getset[] = {
    {"closed", (getter)Lob_get_closed, NULL, "True once closed", NULL},
    {"flags", (getter)Lob_get_flags, NULL, "the IX_LO_* open flags", NULL},
    {"locator", (getter)Lob_get_locator, NULL, "the ixdb.Locator of the LO", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject LobType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ixdb._ixdb._LobHandle",
    .tp_basicsize = sizeof(LobObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "An open smart LOB (wrapped by ixdb.LobStream)",
    .tp_dealloc = (destructor)Lob_dealloc,
    .tp_methods = Lob_methods,
    .tp_getset = Lob_getset,
};

/* ---- opening: modes and the Python wrapper ---------------------------------------- */

/* Python's open() modes as IX_LO_* flags: r, w, a with + and b / t. */
static int mode_flags(const char *mode, int *flags, int *text) {
    int base = 0, plus = 0, b = 0, t = 0;
    for (const char *p = mode; *p; p++) {
        if (*p == 'r' || *p == 'w' || *p == 'a') {
            if (base)
                base = -1;
            else
                base = *p;
        } else if (*p == '+' && !plus) {
            plus = 1;
        } else if (*p == 'b' && !b) {
            b = 1;
        } else if (*p == 't' && !t) {
            t = 1;
        } else {
            base = -1;
        }
    }
    if (base <= 0 || (b && t)) {
        PyErr_Format(PyExc_ValueError, "invalid LOB mode '%s' (r, w or a, with + and b or t)",
                     mode);
        return -1;
    }
    *flags = plus ? IX_LO_RDWR : base == 'r' ? IX_LO_RDONLY : IX_LO_WRONLY;
    if (base == 'a') *flags |= IX_LO_APPEND;
    *text = !b;
    return 0;
}

static PyObject *lob_module_attr(const char *name) {
    PyObject *m = PyImport_ImportModule("ixdb._lob");
    if (!m) return NULL;
    PyObject *r = PyObject_GetAttrString(m, name);
    Py_DECREF(m);
    return r;
}

/* The ixdb.LobStream of handle h (a new reference, h stolen), in a text
 * wrapper for a text mode. */
static PyObject *lob_wrap(ConnectionObject *co, PyObject *h, const char *mode, int text) {
    if (!h) return NULL;
    PyObject *wrap = lob_module_attr("_wrap");
    PyObject *r = wrap ? PyObject_CallFunction(wrap, "Nssi", h, mode,
                                               co->encoding ? co->encoding : "utf-8", text)
                       : NULL;
    if (!wrap) Py_DECREF(h);
    Py_XDECREF(wrap);
    return r;
}

/* Opens the LO with flags through open(co, ud, flags, &b); begins the
 * implicit transaction first for a writing mode. */
static PyObject *lob_open_with(ConnectionObject *co, const char *mode,
                               int (*open)(void *ud, int flags, ix_lob **out), void *ud) {
    int flags, text;
    if (mode_flags(mode, &flags, &text) < 0) return NULL;
    if (conn_enter(co) < 0) return NULL;
    if (flags != IX_LO_RDONLY && conn_maybe_begin(co, -1) < 0) {
        conn_leave(co);
        return NULL;
    }
    ix_lob *b = NULL;
    int rc;
    NOGIL(rc = open(ud, flags, &b));
    conn_leave(co);
    if (rc == IX_NULL_VALUE) return raise_simple(DataError, "the LOB value is NULL");
    if (rc != IX_OK) return raise_conn(co->conn, rc);
    return lob_wrap(co, lob_handle(co, b, flags), mode, text);
}

typedef struct {
    ix_stmt *s;
    int col;
} col_ref;

static int open_column(void *ud, int flags, ix_lob **out) {
    const col_ref *r = ud;
    return ix_lob_open_column(r->s, r->col, flags, out);
}

/* ---- Cursor methods ------------------------------------------------------------------- */

/* The 0-based index of column (an int or a name) of cu's result set, with a
 * current row. Returns -1 with an exception. */
static int cursor_column(CursorObject *cu, PyObject *column) {
    if (cursor_check(cu) < 0) return -1;
    if (!cu->stmt || !cu->description || cu->description == Py_None) {
        raise_simple(ProgrammingError, "no result set: execute a query first");
        return -1;
    }
    if (!cu->has_rows || cu->rownumber <= 0 || cu->pending) {
        raise_simple(ProgrammingError, "no current row: fetchone() a row first");
        return -1;
    }
    if (PyLong_Check(column)) {
        long i = PyLong_AsLong(column);
        if (i == -1 && PyErr_Occurred()) return -1;
        if (i < 0 || i >= cu->ncols) {
            PyErr_Format(PyExc_IndexError, "column %ld out of range (0..%d)", i, cu->ncols - 1);
            return -1;
        }
        return (int)i;
    }
    if (PyUnicode_Check(column)) {
        for (int i = 0; i < cu->ncols; i++) {
            PyObject *name = PyTuple_GET_ITEM(PyTuple_GET_ITEM(cu->description, i), 0);
            int eq = PyObject_RichCompareBool(name, column, Py_EQ);
            if (eq) return eq < 0 ? -1 : i;
        }
        PyErr_Format(PyExc_KeyError, "no column %R in the result set", column);
        return -1;
    }
    PyErr_SetString(PyExc_TypeError, "a column is an index (int) or a name (str)");
    return -1;
}

PyObject *Cursor_lob_open(CursorObject *cu, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"column", "mode", NULL};
    PyObject *column;
    const char *mode = "rb";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O|s:lob_open", kwlist, &column, &mode)) return NULL;
    int i = cursor_column(cu, column);
    if (i < 0) return NULL;
    col_ref r = {cu->stmt, i};
    return lob_open_with(cu->conn, mode, open_column, &r);
}

PyObject *Cursor_fetch_locator(CursorObject *cu, PyObject *column) {
    int i = cursor_column(cu, column);
    if (i < 0) return NULL;
    return ixpy_lob_value(cu->stmt, i, K_LOCATOR, NULL);
}

PyObject *Cursor_get_lob_locators(CursorObject *cu, void *c) {
    (void)c;
    return PyBool_FromLong(cu->lob_locators);
}

int Cursor_set_lob_locators(CursorObject *cu, PyObject *v, void *c) {
    (void)c;
    int on = v ? PyObject_IsTrue(v) : 0;
    if (on < 0) return -1;
    cu->lob_locators = on;
    for (int i = 0; i < cu->ncols && cu->cols; i++)
        colinfo_set_kind(&cu->cols[i], ixpy_lob_kind(cu, cu->cols[i].type, cu->cols[i].kind));
    return 0;
}

int ixpy_lob_kind(const CursorObject *cu, int type, int kind) {
    if (type != IX_T_BLOB && type != IX_T_CLOB) return kind;
    return cu->lob_locators ? K_LOCATOR : type == IX_T_BLOB ? K_BLOB : K_CLOB;
}

int ixpy_lob_coltype(ix_stmt *s, int i) {
    const char *d = ix_column_decltype(s, i);
    if (d && !strcmp(d, "BLOB")) return IX_T_BLOB;
    if (d && !strcmp(d, "CLOB")) return IX_T_CLOB;
    return IX_T_UDTFIXED;
}

/* ---- Connection methods ------------------------------------------------------------- */

typedef struct {
    ix_conn *c;
    const ix_locator *loc;
} loc_ref;

static int open_loc(void *ud, int flags, ix_lob **out) {
    const loc_ref *r = ud;
    return ix_lob_open(r->c, r->loc, flags, out);
}

PyObject *Connection_lob_open(ConnectionObject *co, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"locator", "mode", NULL};
    PyObject *l;
    const char *mode = "rb";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "O!|s:lob_open", kwlist, &LocatorType, &l, &mode))
        return NULL;
    if (!co->conn) return raise_simple(InterfaceError, "the connection is closed");
    loc_ref r = {co->conn, &((LocatorObject *)l)->loc};
    return lob_open_with(co, mode, open_loc, &r);
}

/* kind: ixdb.BLOB / ixdb.CLOB, or "BLOB" / "CLOB". */
static int kind_arg(PyObject *kind) {
    if (PyUnicode_Check(kind)) {
        if (!PyUnicode_CompareWithASCIIString(kind, "BLOB") ||
            !PyUnicode_CompareWithASCIIString(kind, "blob"))
            return IX_T_BLOB;
        if (!PyUnicode_CompareWithASCIIString(kind, "CLOB") ||
            !PyUnicode_CompareWithASCIIString(kind, "clob"))
            return IX_T_CLOB;
    } else if (PyLong_Check(kind)) {
        long t = PyLong_AsLong(kind);
        if (t == IX_T_BLOB || t == IX_T_CLOB) return (int)t;
    }
    PyErr_Format(ProgrammingError, "a smart-LOB kind is ixdb.BLOB or ixdb.CLOB, not %R", kind);
    return -1;
}

static int create_lob(void *ud, int flags, ix_lob **out) {
    (void)flags;
    const loc_ref *r = ud;
    return ix_lob_create(r->c, (int)(intptr_t)r->loc, out);
}

PyObject *Connection_lob_create(ConnectionObject *co, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {"kind", "mode", NULL};
    PyObject *kind = NULL;
    const char *mode = "w+b";
    if (!PyArg_ParseTupleAndKeywords(args, kw, "|Os:lob_create", kwlist, &kind, &mode)) return NULL;
    int t = kind ? kind_arg(kind) : IX_T_BLOB;
    if (t < 0) return NULL;
    if (!co->conn) return raise_simple(InterfaceError, "the connection is closed");
    int flags, text;
    if (mode_flags(mode, &flags, &text) < 0) return NULL;
    if (flags != IX_LO_RDWR)
        return raise_simple(ProgrammingError, "a new LOB opens for reading and writing: 'w+b' "
                                              "(or 'w+' for text)");
    loc_ref r = {co->conn, (const ix_locator *)(intptr_t)t};
    return lob_open_with(co, mode, create_lob, &r);
}

/* ---- fetching ------------------------------------------------------------------------- */

/* bytes (K_BLOB) or str decoded with enc (NULL: UTF-8) of p[0..n). */
static PyObject *lob_bytes_value(const char *p, size_t n, int kind, const char *enc) {
    if (kind == K_BLOB) return PyBytes_FromStringAndSize(p, (Py_ssize_t)n);
    return PyUnicode_Decode(p, (Py_ssize_t)n, enc ? enc : "utf-8", "surrogateescape");
}

/* Column i as ixpy_lob_value gives it, read without the LO's size (a
 * server other than ixd has no ifx_lo_size: ix_column_lob reads in growing
 * pieces); one copy from libixdb's buffer. */
static PyObject *lob_value_unsized(ix_stmt *s, int i, int kind, const char *enc) {
    void *p = NULL;
    size_t n = 0;
    int rc;
    NOGIL(rc = ix_column_lob(s, i, &p, &n));
    if (rc == IX_NULL_VALUE) Py_RETURN_NONE;
    if (rc != IX_OK) return raise_conn(ix_stmt_conn(s), rc);
    PyObject *v = n <= PY_SSIZE_T_MAX ? lob_bytes_value(p, n, kind, enc) : PyErr_NoMemory();
    ix_lob_free(p);
    return v;
}

/* Column i of the current row (a BLOB or CLOB) as bytes, str (decoded with
 * enc, NULL: UTF-8) or an ixdb.Locator (kind K_LOCATOR). */
PyObject *ixpy_lob_value(ix_stmt *s, int i, int kind, const char *enc) {
    ix_conn *c = ix_stmt_conn(s);
    if (kind == K_LOCATOR) {
        ix_locator loc;
        int rc = ix_column_locator(s, i, &loc);
        if (rc == IX_NULL_VALUE) Py_RETURN_NONE;
        if (rc != IX_OK) return raise_conn(c, rc);
        return locator_new_value(&loc, ix_column_lob_type(s, i));
    }
    if (strcmp(ix_conn_compat(c), "fast") != 0) return lob_value_unsized(s, i, kind, enc);
    ix_lob *b = NULL;
    int64_t size = 0;
    int rc;
    NOGIL(rc = ix_lob_open_column(s, i, IX_LO_RDONLY, &b);
          if (rc == IX_OK) rc = ix_lob_size(b, &size));
    if (rc == IX_NULL_VALUE) Py_RETURN_NONE;
    if (rc != IX_OK) {
        if (b) NOGIL(ix_lob_close(b));
        return raise_conn(c, rc);
    }
    PyObject *v = size <= PY_SSIZE_T_MAX ? PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size) : NULL;
    if (!v && !PyErr_Occurred()) PyErr_NoMemory();
    size_t got = 0;
    char *p = v ? PyBytes_AS_STRING(v) : NULL;
    NOGIL(if (p) rc = ix_lob_read(b, p, (size_t)size, &got); int crc = ix_lob_close(b);
          if (rc == IX_OK) rc = crc);
    if (!v) return NULL;
    if (rc != IX_OK) {
        Py_DECREF(v);
        return raise_conn(c, rc);
    }
    if ((int64_t)got < size && _PyBytes_Resize(&v, (Py_ssize_t)got) < 0) return NULL;
    if (kind == K_BLOB) return v;
    PyObject *str = PyUnicode_Decode(PyBytes_AS_STRING(v), PyBytes_GET_SIZE(v), enc ? enc : "utf-8",
                                     "surrogateescape");
    Py_DECREF(v);
    return str;
}

/* ---- binding ---------------------------------------------------------------------------- */

/* Copies o (a file-like object) into a new LO, LOB_PIECE at a time: bytes
 * from readinto / read, or str (a text stream) encoded in the connection's
 * code set (then a CLOB). */
static int stream_into_lob(ConnectionObject *co, PyObject *o, ix_locator *loc, int *type) {
    PyObject *textio = lob_module_attr("_is_text");
    if (!textio) return -1;
    PyObject *t = PyObject_CallOneArg(textio, o);
    Py_DECREF(textio);
    if (!t) return -1;
    int is_text = PyObject_IsTrue(t);
    Py_DECREF(t);
    if (is_text < 0 || conn_maybe_begin(co, -1) < 0) return -1;
    *type = is_text ? IX_T_CLOB : IX_T_BLOB;
    ix_lob *b = NULL;
    int rc;
    NOGIL(rc = ix_lob_create(co->conn, *type, &b));
    if (rc != IX_OK) {
        raise_conn(co->conn, rc);
        return -1;
    }
    const char *enc = co->encoding ? co->encoding : "utf-8";
    for (;;) {
        PyObject *chunk = PyObject_CallMethod(o, "read", "i", LOB_PIECE);
        if (chunk && PyUnicode_Check(chunk)) {
            Py_SETREF(chunk, PyUnicode_AsEncodedString(chunk, enc, "surrogateescape"));
        }
        Py_buffer v;
        if (!chunk || PyObject_GetBuffer(chunk, &v, PyBUF_SIMPLE) < 0) {
            Py_XDECREF(chunk);
            NOGIL(ix_lob_close(b));
            return -1;
        }
        if (v.len > 0) NOGIL(rc = ix_lob_write(b, v.buf, (size_t)v.len));
        Py_ssize_t n = v.len;
        PyBuffer_Release(&v);
        Py_DECREF(chunk);
        if (rc != IX_OK || n == 0) break;
    }
    ix_lob_locator(b, loc);
    int crc;
    NOGIL(crc = ix_lob_close(b));
    if (rc == IX_OK) rc = crc;
    if (rc != IX_OK) {
        raise_conn(co->conn, rc);
        return -1;
    }
    return 0;
}

int ixpy_lob_param(ConnectionObject *co, PyObject *o, ix_locator *loc, int *type) {
    if (PyObject_TypeCheck(o, &LocatorType)) {
        *loc = ((LocatorObject *)o)->loc;
        *type = ((LocatorObject *)o)->type;
        return 1;
    }
    PyObject *cls = lob_module_attr("LobStream");
    if (!cls) return -1;
    int is = PyObject_IsInstance(o, cls);
    Py_DECREF(cls);
    if (is < 0) return -1;
    if (is) {
        PyObject *l = PyObject_GetAttrString(o, "locator");
        if (!l) return -1;
        int r = ixpy_lob_param(co, l, loc, type);
        Py_DECREF(l);
        return r;
    }
    int has_read = PyObject_HasAttrString(o, "read");
    if (!has_read) return 0;
    return stream_into_lob(co, o, loc, type) < 0 ? -1 : 1;
}

/* ---- module ------------------------------------------------------------------------------ */

int ixpy_lob_init(PyObject *m) {
    if (PyType_Ready(&LocatorType) < 0 || PyType_Ready(&LobType) < 0) return -1;
    if (PyModule_AddObjectRef(m, "Locator", (PyObject *)&LocatorType) < 0 ||
        PyModule_AddObjectRef(m, "_LobHandle", (PyObject *)&LobType) < 0 ||
        PyModule_AddIntConstant(m, "BLOB", IX_T_BLOB) < 0 ||
        PyModule_AddIntConstant(m, "CLOB", IX_T_CLOB) < 0 ||
        PyModule_AddIntConstant(m, "LO_RDONLY", IX_LO_RDONLY) < 0 ||
        PyModule_AddIntConstant(m, "LO_WRONLY", IX_LO_WRONLY) < 0 ||
        PyModule_AddIntConstant(m, "LO_RDWR", IX_LO_RDWR) < 0 ||
        PyModule_AddIntConstant(m, "LO_APPEND", IX_LO_APPEND) < 0)
        return -1;
    return 0;
}
