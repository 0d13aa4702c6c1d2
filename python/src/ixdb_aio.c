/*
 * ixdb_aio.c: the C half of ixdb.aio (python/ixdb/aio.py), on libixdb's
 * non-blocking calls (include/ixdb.h, "non-blocking"). Nothing here waits
 * for the network: every function does what the connection allows now and
 * tells the Python half what to wait for, which it does with the event
 * loop's add_reader / add_writer on ix_socket. Connections and cursors are
 * the module's own objects (ConnectionObject, CursorObject) on a connection
 * in non-blocking mode.
 *
 * Wait codes returned to Python:
 *   AIO_DONE   0  the step is complete (its outcome is on the cursor)
 *   AIO_READ   1  wait until the socket is readable, call _aio_consume, then
 *                 call the step again
 *   AIO_WRITE  2  wait until the socket is writable, then call the step
 *                 again (it writes what is queued first)
 *   AIO_TIMER  3  (_aio_connect_poll only) no socket to wait on: call
 *                 again after the timeout of _aio_wait
 *   AIO_YIELD  4  (_aio_fetch only) more rows are ready but a slice has been
 *                 built: let the loop run other tasks, then call again
 * Whatever the code, waiting at most the timeout _aio_wait gives and then
 * calling _aio_consume and the step again is right (that is how the read
 * timeout expires).
 *
 * Steps of a statement (aio.py drives them):
 *   _aio_prepare(cu, sql)        queues the PREPARE (0: the cursor's
 *                                statement is reused, nothing to wait for)
 *   _aio_prepare_poll(cu)        its reply
 *   _aio_need_begin(cu)          autocommit off: BEGIN WORK must run first
 *   _aio_execute(cu, params)     binds and queues the OPEN / EXECUTE
 *   _aio_execute_poll(cu)        its reply (rowcount, lastrowid; the first
 *                                row of a query, kept for the fetch)
 *   _aio_fetch(cu, max)          rows that have arrived: (list, code)
 *   _aio_batch(cu, rows)         executemany: queues one slice of rows
 *   _aio_batch_poll(cu, n)       its replies: a code, or (changes, errors,
 *                                first error or None)
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <ixdb.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ixdb_module.h"

enum { AIO_DONE = 0, AIO_READ = 1, AIO_WRITE = 2, AIO_TIMER = 3, AIO_YIELD = 4 };

/* Statements kept prepared per connection (as ixdb.connect does). */
#define AIO_STMT_CACHE 32

/* Rows one _aio_fetch call builds at most before it lets the loop run. */
#define AIO_FETCH_SLICE 4096

/* Completion calls in a row that may answer IX_WANT_WRITE with the output
 * all written before the step is treated as waiting for the socket. */
#define AIO_ROUNDS 4

/* ---- argument checks ----------------------------------------------------------- */

static ConnectionObject *aio_conn(PyObject *o) {
    if (!PyObject_TypeCheck(o, &ConnectionType)) {
        PyErr_SetString(PyExc_TypeError, "an ixdb.Connection is required");
        return NULL;
    }
    ConnectionObject *co = (ConnectionObject *)o;
    if (!co->conn) {
        raise_simple(InterfaceError, "the connection is closed");
        return NULL;
    }
    if (!ix_is_nonblocking(co->conn)) {
        raise_simple(InterfaceError, "not a connection of ixdb.aio");
        return NULL;
    }
    return co;
}

static CursorObject *aio_cursor(PyObject *o) {
    if (!PyObject_TypeCheck(o, &CursorType)) {
        PyErr_SetString(PyExc_TypeError, "an ixdb.Cursor is required");
        return NULL;
    }
    CursorObject *cu = (CursorObject *)o;
    if (cursor_check(cu) < 0 || !aio_conn((PyObject *)cu->conn)) return NULL;
    return cu;
}

/* ---- waiting -------------------------------------------------------------------- */

/* Keeps the first connection failure met by ix_flush / ix_consume_input. */
static void aio_note(ConnectionObject *co, int rc) {
    if (rc != IX_OK && rc != IX_WANT_WRITE && !co->aio_err) co->aio_err = rc;
}

/*
 * Calls fn(ud), a completion call, until it answers or must wait for the
 * socket. When it wants the socket, the queued output is written and what
 * has arrived is decoded (ix_flush does both), then fn is asked again. Returns AIO_WRITE while the
 * socket does not take all the output, AIO_READ when everything is written and the reply is
 * awaited, or AIO_DONE with *rc the final status (a connection failure of ix_flush counts as one:
 * the step never waits on a dead socket).
 */
static int aio_complete(ConnectionObject *co, int (*fn)(void *), void *ud, int *rc) {
    for (int round = 0; round < AIO_ROUNDS; round++) {
        *rc = fn(ud);
        if (*rc != IX_WANT_READ && *rc != IX_WANT_WRITE) return AIO_DONE;
        int f = ix_flush(co->conn);
        aio_note(co, f);
        *rc = fn(ud);
        if (*rc != IX_WANT_READ && *rc != IX_WANT_WRITE) return AIO_DONE;
        if (co->aio_err) {
            *rc = co->aio_err;
            return AIO_DONE;
        }
        if (f == IX_WANT_WRITE) return AIO_WRITE;
        if (*rc == IX_WANT_READ) return AIO_READ;
    }
    return AIO_WRITE; /* IX_WANT_WRITE with nothing left to write: look again */
}

static int fn_prepare(void *s) {
    return ix_prepare_result(s);
}
static int fn_execute(void *s) {
    return ix_execute_result(s);
}
static int fn_step(void *s) {
    return ix_step(s);
}
/* The execution's reply and then, for a cursor, its first row: IX_ROW,
 * IX_DONE (no row, or a statement without rows has run), or a failure. */
static int fn_first_row(void *s) {
    int rc = ix_execute_result(s);
    return rc == IX_OK ? ix_step(s) : rc;
}

typedef struct {
    ix_stmt *stmt;
    int *codes;
    int64_t nfailed;
} batch_wait;

static int fn_batch(void *ud) {
    batch_wait *b = ud;
    return ix_batch_result(b->stmt, b->codes, &b->nfailed);
}

/* ---- connection ------------------------------------------------------------------ */

/* _aio_connect_start(dsn, autocommit, encoding, tz): a Connection whose
 * login _aio_connect_poll drives (the arguments as ixdb._connect's). */
static PyObject *aio_connect_start(PyObject *mod, PyObject *args) {
    (void)mod;
    const char *dsn, *encoding = NULL;
    int autocommit = 0;
    PyObject *tz = Py_None;
    if (!PyArg_ParseTuple(args, "sp|zO:_aio_connect_start", &dsn, &autocommit, &encoding, &tz))
        return NULL;
    ix_conn *c = NULL;
    int rc = ix_connect_start(dsn, &c);
    if (!c) return PyErr_NoMemory();
    if (rc != IX_OK) {
        if (rc == IX_EINVAL) /* a bad DSN: as ixdb.connect raises it */
            raise_simple(ProgrammingError, ix_errmsg(c));
        else
            raise_connect(c, rc, ix_conn_server(c));
        ix_close(c);
        return NULL;
    }
    return connection_wrap(c, autocommit, encoding, tz);
}

/* _aio_connect_poll(conn): one step of the login; a wait code, or raises
 * the failure ix_connect would have raised (close the connection then). */
static PyObject *aio_connect_poll(PyObject *mod, PyObject *arg) {
    (void)mod;
    ConnectionObject *co = aio_conn(arg);
    if (!co) return NULL;
    int rc = ix_connect_poll(co->conn);
    switch (rc) {
    case IX_WANT_READ: return PyLong_FromLong(AIO_READ);
    case IX_WANT_WRITE: return PyLong_FromLong(AIO_WRITE);
    case IX_WANT_TIMER: return PyLong_FromLong(AIO_TIMER);
    case IX_OK: ix_set_stmt_cache(co->conn, AIO_STMT_CACHE); return PyLong_FromLong(AIO_DONE);
    default: return raise_connect(co->conn, rc, ix_conn_server(co->conn));
    }
}

/* _aio_wait(conn): (descriptor or -1, timeout in seconds or None). */
static PyObject *aio_wait(PyObject *mod, PyObject *arg) {
    (void)mod;
    ConnectionObject *co = aio_conn(arg);
    if (!co) return NULL;
    int ms = ix_timeout_ms(co->conn);
    if (ms < 0) return Py_BuildValue("(iO)", ix_socket(co->conn), Py_None);
    return Py_BuildValue("(id)", ix_socket(co->conn), ms / 1000.0);
}

/* _aio_consume(conn): reads what the socket has. A failure is kept on the
 * connection and reported by the step waiting for it. */
static PyObject *aio_consume(PyObject *mod, PyObject *arg) {
    (void)mod;
    ConnectionObject *co = aio_conn(arg);
    if (!co) return NULL;
    aio_note(co, ix_consume_input(co->conn));
    Py_RETURN_NONE;
}

/* _aio_cancel(conn): ix_cancel when a reply is awaited; True if sent. */
static PyObject *aio_cancel(PyObject *mod, PyObject *arg) {
    (void)mod;
    ConnectionObject *co = aio_conn(arg);
    if (!co) return NULL;
    if (!ix_is_busy(co->conn)) Py_RETURN_FALSE;
    int rc = ix_cancel(co->conn);
    if (rc != IX_OK) return raise_conn(co->conn, rc);
    Py_RETURN_TRUE;
}

static int fn_idle(void *c) {
    return ix_is_busy(c) ? IX_WANT_READ : IX_OK;
}

/* _aio_drain(conn): AIO_DONE once no reply is awaited (after a cancel),
 * else what to wait for; raises on a dead connection. */
static PyObject *aio_drain(PyObject *mod, PyObject *arg) {
    (void)mod;
    ConnectionObject *co = aio_conn(arg);
    if (!co) return NULL;
    int rc, w = aio_complete(co, fn_idle, co->conn, &rc);
    if (w) return PyLong_FromLong(w);
    if (rc != IX_OK) return raise_conn(co->conn, rc);
    return PyLong_FromLong(AIO_DONE);
}

/* _aio_set_autocommit(conn, on) and _aio_set_nolog(conn): the Python half
 * commits first where needed. */
static PyObject *aio_set_autocommit(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *o;
    int on;
    if (!PyArg_ParseTuple(args, "Op:_aio_set_autocommit", &o, &on)) return NULL;
    ConnectionObject *co = aio_conn(o);
    if (!co) return NULL;
    co->autocommit = on;
    Py_RETURN_NONE;
}

static PyObject *aio_set_nolog(PyObject *mod, PyObject *arg) {
    (void)mod;
    ConnectionObject *co = aio_conn(arg);
    if (!co) return NULL;
    co->nolog = 1;
    Py_RETURN_NONE;
}

/* ---- statements ------------------------------------------------------------------- */

static void aio_drop_stmt(CursorObject *cu) {
    if (cu->stmt) ix_finalize(cu->stmt); /* non-blocking: queues the RELEASE */
    cu->stmt = NULL;
    cu->stmt_type = -1;
    Py_CLEAR(cu->sql);
    free(cu->pmap);
    cu->pmap = NULL;
    cu->npmap = cu->pmap_top = 0;
}

static void aio_clear(CursorObject *cu) {
    cursor_clear_result(cu);
    cu->rowcount = -1;
    Py_CLEAR(cu->errors);
    Py_XSETREF(cu->lastrowid, Py_NewRef(Py_None));
}

/* Queues the PREPARE of sql in the connection's code set, in the cursor's
 * parameter style (":N" markers become "?", as ixdb.connect's cursors do),
 * with " WHERE 1=1" appended when where_all (trailing blanks and ';' cut
 * first). Returns 0 or -1. */
static int aio_send_prepare(CursorObject *cu, PyObject *sql, int where_all) {
    ConnectionObject *co = cu->conn;
    PyObject *b = PyUnicode_AsEncodedString(sql, co->encoding ? co->encoding : "utf-8",
                                            co->encoding ? "strict" : "surrogateescape");
    if (!b) return -1;
    const char *text = PyBytes_AS_STRING(b);
    size_t n = (size_t)PyBytes_GET_SIZE(b);
    numeric_sql ns;
    if (cursor_numeric(cu, text, n, &ns) < 0) {
        Py_DECREF(b);
        return -1;
    }
    if (ns.text) {
        text = ns.text;
        n = ns.len;
    }
    char *t2 = NULL;
    if (where_all) {
        while (n > 0 && text[n - 1] && strchr(" \t\r\n;", text[n - 1]))
            n--;
        t2 = malloc(n + sizeof " WHERE 1=1");
        if (t2) {
            memcpy(t2, text, n);
            memcpy(t2 + n, " WHERE 1=1", sizeof " WHERE 1=1");
            text = t2;
            n += sizeof " WHERE 1=1" - 1;
        }
    }
    ix_stmt *s = NULL;
    int rc = where_all && !t2 ? IX_ENOMEM : ix_send_prepare(co->conn, text, n, 0, &s);
    free(t2);
    ixpy_numeric_free(&ns);
    Py_DECREF(b);
    if (rc != IX_OK) {
        if (s) ix_finalize(s);
        if (rc == IX_ENOMEM)
            PyErr_NoMemory();
        else
            raise_conn(co->conn, rc);
        return -1;
    }
    cu->stmt = s;
    cu->stmt_type = -1;
    Py_XSETREF(cu->sql, Py_NewRef(sql));
    return 0;
}

/* _aio_prepare(cu, sql): AIO_READ when a PREPARE was queued (poll it with
 * _aio_prepare_poll), AIO_DONE when the cursor's statement is reused. */
static PyObject *aio_prepare(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *o, *sql;
    if (!PyArg_ParseTuple(args, "OU:_aio_prepare", &o, &sql)) return NULL;
    CursorObject *cu = aio_cursor(o);
    if (!cu) return NULL;
    aio_clear(cu);
    if (cu->stmt && cu->sql && cu->stmt_type >= 0 && PyUnicode_Compare(cu->sql, sql) == 0) {
        int rc = ix_reset(cu->stmt);
        if (rc == IX_OK) return PyLong_FromLong(AIO_DONE);
    }
    aio_drop_stmt(cu);
    if (aio_send_prepare(cu, sql, 0) < 0) return NULL;
    return PyLong_FromLong(AIO_READ);
}

/* _aio_prepare_poll(cu): a wait code; raises the PREPARE's error. */
static PyObject *aio_prepare_poll(PyObject *mod, PyObject *arg) {
    (void)mod;
    CursorObject *cu = aio_cursor(arg);
    if (!cu) return NULL;
    if (!cu->stmt) return raise_simple(ProgrammingError, "no statement is being prepared");
    int rc, w = aio_complete(cu->conn, fn_prepare, cu->stmt, &rc);
    if (w) return PyLong_FromLong(w);
    if (rc != IX_OK) {
        aio_drop_stmt(cu);
        return raise_conn(cu->conn->conn, rc);
    }
    int t = ix_stmt_type(cu->stmt);
    if (t == IX_STMTTYPE_UPDATE_ALL && ix_column_count(cu->stmt) > 0) {
        /* As ixdb.connect: ixd describes an UPDATE without WHERE with its
         * SET columns (-481 on execute); prepared again with WHERE 1=1
         * (then an UPDATE: no second round). */
        PyObject *sql = Py_NewRef(cu->sql);
        aio_drop_stmt(cu);
        int r = aio_send_prepare(cu, sql, 1);
        Py_DECREF(sql);
        if (r < 0) return NULL;
        return PyLong_FromLong(AIO_READ);
    }
    cu->stmt_type = t;
    return PyLong_FromLong(AIO_DONE);
}

/* _aio_need_begin(cu): True when autocommit is off and no transaction is
 * open, so BEGIN WORK must run before the statement (as ixdb.connect's
 * cursors do; not before the statements that manage databases and
 * transactions themselves). */
static PyObject *aio_need_begin(PyObject *mod, PyObject *arg) {
    (void)mod;
    CursorObject *cu = aio_cursor(arg);
    if (!cu) return NULL;
    ConnectionObject *co = cu->conn;
    if (co->autocommit || co->nolog || ix_autocommit(co->conn) != 1) Py_RETURN_FALSE;
    return PyBool_FromLong(stmt_opens_txn(cu->stmt_type));
}

/* _aio_execute(cu, params): binds and queues the execution of the prepared
 * statement: AIO_READ (poll it with _aio_execute_poll) or AIO_DONE (a
 * DATABASE-class statement, run at once with ix_exec: docs/python.md). */
static PyObject *aio_execute(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *o, *params = Py_None;
    if (!PyArg_ParseTuple(args, "O|O:_aio_execute", &o, &params)) return NULL;
    CursorObject *cu = aio_cursor(o);
    if (!cu) return NULL;
    ConnectionObject *co = cu->conn;
    if (!cu->stmt || cu->stmt_type < 0)
        return raise_simple(ProgrammingError, "no prepared statement on the cursor");
    if (bind_params(cu, cu->stmt, params) < 0) return NULL;
    int rc;
    if (is_db_statement(cu->stmt_type) && ix_bind_parameter_count(cu->stmt) == 0) {
        PyObject *b = PyUnicode_AsEncodedString(cu->sql, "utf-8", "surrogateescape");
        if (!b) return NULL;
        rc = ix_exec(co->conn, PyBytes_AS_STRING(b));
        Py_DECREF(b);
        if (rc != IX_OK) return raise_conn(co->conn, rc);
        cu->changes = ix_conn_changes(co->conn);
        return PyLong_FromLong(AIO_DONE);
    }
    if (ix_column_count(cu->stmt) > 0 && cursor_describe(cu) < 0) return NULL;
    rc = ix_send_execute(cu->stmt);
    if (rc != IX_OK) {
        cursor_clear_result(cu);
        return raise_conn(co->conn, rc);
    }
    return PyLong_FromLong(AIO_READ);
}

/* _aio_execute_poll(cu): a wait code until the statement has run; for a
 * statement with rows that is when its first row (or its end) has arrived:
 * the row is kept as the next one fetched (pending). Raises the
 * statement's error (the result cleared). */
static PyObject *aio_execute_poll(PyObject *mod, PyObject *arg) {
    (void)mod;
    CursorObject *cu = aio_cursor(arg);
    if (!cu) return NULL;
    if (!cu->stmt) return raise_simple(ProgrammingError, "no statement is executing");
    int rows = cu->ncols > 0;
    int rc, w = aio_complete(cu->conn, rows ? fn_first_row : fn_execute, cu->stmt, &rc);
    if (w) return PyLong_FromLong(w);
    if (rows && (rc == IX_ROW || rc == IX_DONE)) {
        cu->has_rows = cu->pending = rc == IX_ROW;
        cu->rownumber = 0;
        return PyLong_FromLong(AIO_DONE);
    }
    if (!rows && (rc == IX_DONE || rc == IX_OK)) {
        cursor_set_counts(cu, ix_changes(cu->stmt));
        return PyLong_FromLong(AIO_DONE);
    }
    cursor_clear_result(cu);
    return raise_conn(cu->conn->conn, rc);
}

/* _aio_fetch(cu, max): (rows, code): up to max rows (max < 0: no limit) of
 * those that have arrived; code AIO_DONE when max rows were built or the
 * result set ended, else what to wait for (AIO_YIELD: a slice is built). */
static PyObject *aio_fetch(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *o;
    Py_ssize_t max;
    if (!PyArg_ParseTuple(args, "On:_aio_fetch", &o, &max)) return NULL;
    CursorObject *cu = aio_cursor(o);
    if (!cu) return NULL;
    if (!cu->stmt || !cu->description || cu->description == Py_None)
        return raise_simple(ProgrammingError, "no result set: execute a query first");
    PyObject *list = PyList_New(0);
    if (!list) return NULL;
    int want = AIO_DONE;
    Py_ssize_t got = 0;
    while (cu->has_rows && (max < 0 || got < max)) {
        if (got >= AIO_FETCH_SLICE) {
            want = AIO_YIELD;
            break;
        }
        int rc = IX_ROW;
        if (cu->pending) /* the first row, read by _aio_execute_poll */
            cu->pending = 0;
        else if ((want = aio_complete(cu->conn, fn_step, cu->stmt, &rc)) != AIO_DONE)
            break;
        if (rc == IX_ROW) {
            PyObject *row = build_row(cu);
            int bad = !row || PyList_Append(list, row) < 0;
            Py_XDECREF(row);
            if (bad) goto fail;
            got++;
            continue;
        }
        cu->has_rows = 0;
        if (rc != IX_DONE) {
            raise_conn(cu->conn->conn, rc);
            goto fail;
        }
    }
    return Py_BuildValue("(Ni)", list, want);
fail:
    Py_DECREF(list);
    return NULL;
}

/* Binds the rows of an executemany slice (row_fn of ix_send_batch). */
typedef struct {
    CursorObject *cu;
    PyObject *rows; /* a list */
    int64_t reached;
} batch_rows;

static int aio_bind_row(ix_stmt *s, int64_t row, void *ud) {
    batch_rows *b = ud;
    b->reached = row;
    if (bind_params(b->cu, s, PyList_GET_ITEM(b->rows, (Py_ssize_t)row)) < 0) return IX_EINVAL;
    return 0;
}

/* Takes the pending exception as an object (NULL if none). */
static PyObject *take_exception(void) {
    PyObject *t, *v, *tb;
    PyErr_Fetch(&t, &v, &tb);
    if (!t) return NULL;
    PyErr_NormalizeException(&t, &v, &tb);
    if (tb && v) PyException_SetTraceback(v, tb);
    Py_XDECREF(t);
    Py_XDECREF(tb);
    return v;
}

/* _aio_batch(cu, rows): queues rows (a list of parameter sequences) as one
 * pipelined batch of the prepared statement. Returns (queued, error):
 * queued rows to poll with _aio_batch_poll, and None or the exception a
 * row's values raised (its rowindex set; the rows before it are queued). */
static PyObject *aio_batch(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *o, *rows;
    if (!PyArg_ParseTuple(args, "OO!:_aio_batch", &o, &PyList_Type, &rows)) return NULL;
    CursorObject *cu = aio_cursor(o);
    if (!cu) return NULL;
    if (!cu->stmt || cu->stmt_type < 0)
        return raise_simple(ProgrammingError, "no prepared statement on the cursor");
    if (ix_column_count(cu->stmt) > 0)
        return raise_simple(ProgrammingError,
                            "executemany() cannot run a statement that returns rows");
    batch_rows b = {cu, rows, 0};
    Py_ssize_t n = PyList_GET_SIZE(rows);
    int rc = ix_send_batch(cu->stmt, (int64_t)n, aio_bind_row, &b);
    if (rc == IX_OK) return Py_BuildValue("(nO)", n, Py_None);
    if (!PyErr_Occurred()) return raise_conn(cu->conn->conn, rc);
    PyObject *e = take_exception();
    if (!e) return NULL;
    PyObject *ri = PyLong_FromLongLong(b.reached);
    if (ri) PyObject_SetAttrString(e, "rowindex", ri);
    Py_XDECREF(ri);
    PyErr_Clear();
    return Py_BuildValue("(LN)", (long long)b.reached, e);
}

/* The per-row failures of a batch: a new list of (row, sqlcode) (rows the
 * batch did not send after its first refused one are left out). */
static PyObject *batch_errors(const int *codes, Py_ssize_t n) {
    PyObject *errors = PyList_New(0);
    for (Py_ssize_t r = 0; errors && r < n; r++) {
        if (!codes[r] || codes[r] == IX_BATCH_NOT_SENT) continue;
        PyObject *e = Py_BuildValue("(ni)", r, codes[r]);
        if (!e || PyList_Append(errors, e) < 0) Py_CLEAR(errors);
        Py_XDECREF(e);
    }
    return errors;
}

/* _aio_batch_poll(cu, n): a wait code while rows are unanswered, then
 * (changes, errors, first) with errors the (row, sqlcode) of the failed
 * rows and first the exception of the first failure (or None); raises a
 * connection failure (rowindex: the first row without a reply). */
static PyObject *aio_batch_poll(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *o;
    Py_ssize_t n;
    if (!PyArg_ParseTuple(args, "On:_aio_batch_poll", &o, &n)) return NULL;
    CursorObject *cu = aio_cursor(o);
    if (!cu) return NULL;
    if (!cu->stmt || n < 0) return raise_simple(ProgrammingError, "no batch is running");
    batch_wait b = {cu->stmt, calloc((size_t)(n ? n : 1), sizeof(int)), 0};
    if (!b.codes) return PyErr_NoMemory();
    int rc, w = aio_complete(cu->conn, fn_batch, &b, &rc);
    PyObject *ret = NULL;
    if (w) {
        ret = PyLong_FromLong(w);
    } else if (rc == IX_OK || rc == IX_ESQL) {
        PyObject *errors = batch_errors(b.codes, n), *first = NULL;
        if (errors && rc == IX_ESQL) {
            raise_conn(cu->conn->conn, rc);
            first = take_exception();
        }
        set_lastrowid(cu);
        if (errors && (rc == IX_OK || first))
            ret = Py_BuildValue("(LNN)", (long long)ix_changes(cu->stmt), errors,
                                first ? first : Py_NewRef(Py_None));
        else
            Py_XDECREF(errors);
    } else {
        int64_t replied = ix_batch_replied(cu->stmt);
        raise_conn(cu->conn->conn, rc);
        PyObject *e = take_exception();
        if (e) {
            PyObject *ri = PyLong_FromLongLong(replied);
            if (ri) PyObject_SetAttrString(e, "rowindex", ri);
            Py_XDECREF(ri);
            PyErr_SetObject((PyObject *)Py_TYPE(e), e);
            Py_DECREF(e);
        }
    }
    free(b.codes);
    return ret;
}

/* _aio_batch_done(cu, changes, errors): the totals of an executemany
 * (Cursor.rowcount, by the statement's kind; Cursor._changes; Cursor.errors). */
static PyObject *aio_batch_done(PyObject *mod, PyObject *args) {
    (void)mod;
    PyObject *o, *errors;
    long long changes;
    if (!PyArg_ParseTuple(args, "OLO!:_aio_batch_done", &o, &changes, &PyList_Type, &errors))
        return NULL;
    CursorObject *cu = aio_cursor(o);
    if (!cu) return NULL;
    cu->changes = changes;
    cu->rowcount = rowcount_of(cu->stmt_type, changes);
    Py_XSETREF(cu->errors, Py_NewRef(errors));
    Py_RETURN_NONE;
}

/* _aio_abandon(cu): after a cancelled step, the statement is dropped (its
 * RELEASE queued) and the result cleared; the next execute prepares again
 * (from the statement cache). */
static PyObject *aio_abandon(PyObject *mod, PyObject *arg) {
    (void)mod;
    if (!PyObject_TypeCheck(arg, &CursorType)) {
        PyErr_SetString(PyExc_TypeError, "an ixdb.Cursor is required");
        return NULL;
    }
    CursorObject *cu = (CursorObject *)arg;
    if (cu->conn->conn) aio_drop_stmt(cu);
    aio_clear(cu);
    Py_RETURN_NONE;
}

static PyMethodDef aio_methods[] = {
    {"_aio_connect_start", aio_connect_start, METH_VARARGS,
     "_aio_connect_start(dsn, autocommit, encoding=None, timezone=None, /)\n--\n\n"},
    {"_aio_connect_poll", aio_connect_poll, METH_O, NULL},
    {"_aio_wait", aio_wait, METH_O, NULL},
    {"_aio_consume", aio_consume, METH_O, NULL},
    {"_aio_cancel", aio_cancel, METH_O, NULL},
    {"_aio_drain", aio_drain, METH_O, NULL},
    {"_aio_set_autocommit", aio_set_autocommit, METH_VARARGS, NULL},
    {"_aio_set_nolog", aio_set_nolog, METH_O, NULL},
    {"_aio_prepare", aio_prepare, METH_VARARGS, NULL},
    {"_aio_prepare_poll", aio_prepare_poll, METH_O, NULL},
    {"_aio_need_begin", aio_need_begin, METH_O, NULL},
    {"_aio_execute", aio_execute, METH_VARARGS, NULL},
    {"_aio_execute_poll", aio_execute_poll, METH_O, NULL},
    {"_aio_fetch", aio_fetch, METH_VARARGS, NULL},
    {"_aio_batch", aio_batch, METH_VARARGS, NULL},
    {"_aio_batch_poll", aio_batch_poll, METH_VARARGS, NULL},
    {"_aio_batch_done", aio_batch_done, METH_VARARGS, NULL},
    {"_aio_abandon", aio_abandon, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

int aio_add_functions(PyObject *module) {
    return PyModule_AddFunctions(module, aio_methods);
}
