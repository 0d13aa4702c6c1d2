/*
 * ixdb_pool.c: ixdb._ixdb._Pool, the C side of ixdb.pool.Pool
 * (docs/python.md "Connection pool"), on libixdb's ix_pool.
 *
 * acquire() takes a connection out of the ix_pool (the GIL released while
 * it waits or connects) and wraps it in an ordinary ixdb.Connection whose
 * `pool` link points back here. Connection.close() (and the collection of
 * a connection never closed) gives it back instead of closing it: the
 * statements of the cursors made on it are finalized first (statements the
 * connection's statement cache keeps stay prepared), then ix_pool_release
 * rolls back an open transaction and restores the session; the Connection
 * object is closed for good (InterfaceError on use), while its ix_conn
 * serves the next checkout.
 *
 * The ix_pool is destroyed once the pool is closed and no connection is
 * out and no acquire is under way (ix_pool_destroy needs all of them
 * back); the state below is only touched with the GIL held.
 */
#include "ixdb_module.h"

#include <stdlib.h>
#include <string.h>

/* The pool link of a pooled connection (ConnectionObject.pool): the pool
 * object it came from (a reference) and the cursors made on it (borrowed:
 * each cursor removes itself when collected). */
struct ixpool_link {
    PyObject *pool;
    CursorObject **cursors;
    size_t ncursors, capcursors;
};

typedef struct {
    PyObject_HEAD ix_pool *pool; /* NULL once destroyed */
    int closed;
    int autocommit;
    long out;      /* connections checked out */
    long pending;  /* acquires under way (GIL released) */
    PyObject *dsn; /* str */
    PyObject *encoding;
    PyObject *timeout_error; /* exception class of an acquire timeout */
    int min_size, max_size;
} PoolObject;

static PyTypeObject PoolType;

/* Destroys the ix_pool when nothing needs it any more. */
static void pool_maybe_destroy(PoolObject *po) {
    if (po->pool && po->closed && po->out == 0 && po->pending == 0) {
        ix_pool *p = po->pool;
        po->pool = NULL;
        Py_BEGIN_ALLOW_THREADS ix_pool_destroy(p);
        Py_END_ALLOW_THREADS
    }
}

static PyObject *pool_error(PoolObject *po, PyObject *cls, int rc) {
    char msg[512] = "";
    if (po->pool) ix_pool_errmsg(po->pool, msg, sizeof msg);
    PyErr_Format(cls, "%s (%s)", *msg ? msg : "the pool cannot hand out a connection",
                 ix_rc_str(rc));
    return NULL;
}

/* _Pool(dsn, min_size, max_size, timeout_ms, idle_check_ms, max_idle_ms,
 *       max_lifetime_ms, autocommit, encoding, timeout_error) */
static PyObject *Pool_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
    static char *kwlist[] = {
        "dsn",         "min_size",        "max_size",   "timeout_ms", "idle_check_ms",
        "max_idle_ms", "max_lifetime_ms", "autocommit", "encoding",   "timeout_error",
        NULL};
    PyObject *dsn, *encoding = Py_None, *terr = NULL;
    ix_pool_config cfg;
    ix_pool_config_init(&cfg);
    int autocommit = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "Uiiiiii|pOO:_Pool", kwlist, &dsn, &cfg.min_size,
                                     &cfg.max_size, &cfg.acquire_timeout_ms, &cfg.idle_check_ms,
                                     &cfg.max_idle_ms, &cfg.max_lifetime_ms, &autocommit, &encoding,
                                     &terr))
        return NULL;
    if (encoding != Py_None && !PyUnicode_Check(encoding)) {
        PyErr_SetString(PyExc_TypeError, "encoding must be a str or None");
        return NULL;
    }
    cfg.dsn = PyUnicode_AsUTF8(dsn);
    if (!cfg.dsn) return NULL;
    ix_pool *p = NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS rc = ix_pool_create(&p, &cfg);
    Py_END_ALLOW_THREADS if (rc == IX_EINVAL || rc == IX_EMISUSE) return raise_simple(
        ProgrammingError, "bad pool configuration (0 <= min_size <= max_size, max_size >= 1, "
                          "max_idle >= 0)");
    if (rc != IX_OK) {
        /* the pool is gone with its error text: connect once for the reason */
        ix_conn *c = NULL;
        int crc;
        Py_BEGIN_ALLOW_THREADS crc = ix_connect(&c, cfg.dsn);
        Py_END_ALLOW_THREADS if (crc != IX_OK && c) raise_conn(c, crc);
        else PyErr_Format(OperationalError, "the pool cannot open min_size connections (%s)",
                          ix_rc_str(rc));
        ix_close(c);
        return NULL;
    }
    PoolObject *po = (PoolObject *)type->tp_alloc(type, 0);
    if (!po) {
        ix_pool_destroy(p);
        return NULL;
    }
    po->pool = p;
    po->autocommit = autocommit;
    po->dsn = Py_NewRef(dsn);
    po->encoding = Py_NewRef(encoding);
    po->timeout_error = Py_NewRef(terr ? terr : OperationalError);
    po->min_size = cfg.min_size;
    po->max_size = cfg.max_size;
    return (PyObject *)po;
}

/* A Python connection around a checked-out ix_conn (as ixdb.connect makes
 * them, plus the pool link). */
static PyObject *pool_wrap(PoolObject *po, ix_conn *c) {
    struct ixpool_link *link = calloc(1, sizeof *link);
    if (!link) return PyErr_NoMemory();
    const char *enc = po->encoding != Py_None ? PyUnicode_AsUTF8(po->encoding) : NULL;
    ConnectionObject *co =
        (po->encoding == Py_None || enc) ? connection_new(c, po->autocommit, enc, Py_None) : NULL;
    if (!co) {
        free(link);
        return NULL;
    }
    link->pool = Py_NewRef((PyObject *)po);
    co->pool = link;
    return (PyObject *)co;
}

static PyObject *Pool_acquire(PoolObject *po, PyObject *unused) {
    (void)unused;
    if (po->closed || !po->pool) return raise_simple(InterfaceError, "the pool is closed");
    ix_conn *c = NULL;
    int rc;
    po->pending++;
    Py_INCREF(po);
    Py_BEGIN_ALLOW_THREADS rc = ix_pool_acquire(po->pool, &c);
    Py_END_ALLOW_THREADS po->pending--;
    PyObject *ret = NULL;
    if (rc == IX_OK) {
        po->out++;
        ret = pool_wrap(po, c);
        if (!ret) { /* give it straight back */
            po->out--;
            ix_pool_release(po->pool, c);
        }
    } else {
        pool_error(po, rc == IX_ETIMEOUT ? po->timeout_error : OperationalError, rc);
    }
    if (po->closed && ret) { /* closed while we waited */
        PyObject *r = PyObject_CallMethod(ret, "close", NULL);
        Py_XDECREF(r);
        Py_CLEAR(ret);
        if (!PyErr_Occurred()) raise_simple(InterfaceError, "the pool is closed");
    }
    pool_maybe_destroy(po);
    Py_DECREF(po);
    return ret;
}

/* Finalizes the statement of every cursor made on the connection. */
static void link_drop_cursors(struct ixpool_link *link) {
    for (size_t i = 0; i < link->ncursors; i++) {
        CursorObject *cu = link->cursors[i];
        if (cu->stmt) ix_finalize(cu->stmt);
        cu->stmt = NULL;
        cu->has_rows = 0;
        Py_CLEAR(cu->sql);
    }
    link->ncursors = 0;
}

void pool_giveback(ConnectionObject *co) {
    struct ixpool_link *link = co->pool;
    if (!link) return;
    co->pool = NULL;
    PoolObject *po = (PoolObject *)link->pool;
    if (co->conn) {
        link_drop_cursors(link);
        ix_conn *c = co->conn;
        co->conn = NULL;
        ix_set_signal_handler(c, NULL, NULL);
        Py_BEGIN_ALLOW_THREADS ix_pool_release(po->pool, c);
        Py_END_ALLOW_THREADS po->out--;
        pool_maybe_destroy(po);
    }
    free(link->cursors);
    Py_DECREF(link->pool);
    free(link);
}

int pool_track_cursor(ConnectionObject *co, CursorObject *cu) {
    struct ixpool_link *link = co->pool;
    if (link->ncursors == link->capcursors) {
        size_t cap = link->capcursors ? link->capcursors * 2 : 8;
        CursorObject **n = realloc(link->cursors, cap * sizeof *n);
        if (!n) {
            PyErr_NoMemory();
            return -1;
        }
        link->cursors = n;
        link->capcursors = cap;
    }
    link->cursors[link->ncursors++] = cu;
    return 0;
}

void pool_forget_cursor(CursorObject *cu) {
    struct ixpool_link *link = cu->conn ? cu->conn->pool : NULL;
    if (!link) return;
    for (size_t i = 0; i < link->ncursors; i++)
        if (link->cursors[i] == cu) {
            link->cursors[i] = link->cursors[--link->ncursors];
            return;
        }
}

static PyObject *Pool_close(PoolObject *po, PyObject *unused) {
    (void)unused;
    po->closed = 1;
    pool_maybe_destroy(po);
    Py_RETURN_NONE;
}

static PyObject *Pool_stats(PoolObject *po, PyObject *unused) {
    (void)unused;
    ix_pool_stats st;
    memset(&st, 0, sizeof st);
    if (po->pool) ix_pool_get_stats(po->pool, &st);
    return Py_BuildValue("{s:i,s:i,s:l,s:L,s:L,s:L,s:L,s:L,s:i,s:i}", "open", st.open, "idle",
                         st.idle, "checked_out", po->out, "created", (long long)st.created,
                         "discarded", (long long)st.discarded, "checks", (long long)st.checks,
                         "waits", (long long)st.waits, "timeouts", (long long)st.timeouts,
                         "min_size", po->min_size, "max_size", po->max_size);
}

static PyObject *Pool_get_closed(PoolObject *po, void *c) {
    (void)c;
    return PyBool_FromLong(po->closed);
}

static void Pool_dealloc(PoolObject *po) {
    /* no connection is out (each holds a reference) and no acquire runs */
    if (po->pool) ix_pool_destroy(po->pool);
    Py_CLEAR(po->dsn);
    Py_CLEAR(po->encoding);
    Py_CLEAR(po->timeout_error);
    Py_TYPE(po)->tp_free((PyObject *)po);
}

static PyMethodDef Pool_methods[] = {
    {"acquire", (PyCFunction)Pool_acquire, METH_NOARGS,
     "acquire($self, /)\n--\n\nA connection from the pool (waits up to the timeout)."},
    {"close", (PyCFunction)Pool_close, METH_NOARGS,
     "close($self, /)\n--\n\nNo more checkouts; idle connections are closed."},
    {"stats", (PyCFunction)Pool_stats, METH_NOARGS,
     "stats($self, /)\n--\n\nThe pool's counters as a dict."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef Pool_getset[] = {
    {"closed", (getter)Pool_get_closed, NULL, "True once closed", NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

static PyTypeObject PoolType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "ixdb._ixdb._Pool",
    .tp_basicsize = sizeof(PoolObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "libixdb's connection pool (use ixdb.pool.Pool)",
    .tp_new = Pool_new,
    .tp_dealloc = (destructor)Pool_dealloc,
    .tp_methods = Pool_methods,
    .tp_getset = Pool_getset,
};

PyObject *mod_pool_type(PyObject *mod, PyObject *unused) {
    (void)mod;
    (void)unused;
    if (!(PoolType.tp_flags & Py_TPFLAGS_READY) && PyType_Ready(&PoolType) < 0) return NULL;
    return Py_NewRef((PyObject *)&PoolType);
}
