/*
 * ixdb_cursor.c: the Cursor type: execute, executemany, fetches,
 * description, scroll cursors and nextset (PEP 249 extensions).
 */
#include <Python.h>
#include <structmember.h>

#include <ixdb.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ixdb_module.h"

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
        colinfo_set_kind(&cu->cols[i],
                         ixpy_lob_kind(cu, t, kind_of(t, len, cu->conn->encoding != NULL)));
        if (!kind_is_atomic(cu->cols[i].kind)) cu->untrack = 0;
        const char *nm = ix_column_name(cu->stmt, i);
        PyObject *name =
            PyUnicode_DecodeUTF8(nm ? nm : "", nm ? (Py_ssize_t)strlen(nm) : 0, "replace");
        PyObject *dsize = Py_NewRef(Py_None), *isize = Py_NewRef(Py_None),
                 *prec = Py_NewRef(Py_None), *scale = Py_NewRef(Py_None);
        if (cu->cols[i].kind == K_STR || cu->cols[i].kind == K_VSTR ||
            cu->cols[i].kind == K_STR_ENC) {
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

/* Values given for a text that has %s or %(name)s and no ? (the format
 * and pyformat styles of other drivers): raises ProgrammingError saying
 * which styles ixdb takes, before the text goes to the server (which would
 * only say -201). Returns -1 then, else 0. */
static int refuse_format_markers(PyObject *sql, PyObject *params) {
    if (!params || params == Py_None) return 0;
    Py_ssize_t n = PyObject_Length(params); /* -1 for an iterator: values may come */
    if (n < 0) PyErr_Clear();
    if (n == 0) return 0;
    const char *t = PyUnicode_AsUTF8(sql);
    if (!t) return -1;
    if (strchr(t, '?') || (!strstr(t, "%s") && !strstr(t, "%("))) return 0;
    PyErr_SetString(ProgrammingError,
                    "the statement has no ? marker: ixdb's paramstyle is 'qmark' (write ? where "
                    "the text has %s) or numeric (:1, :2); the format and pyformat styles (%s, "
                    "%(name)s) are not supported");
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
    if (refuse_format_markers(sql, params) < 0) return NULL;
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

/* convert_row for row `index` of an executemany; its error carries the
 * index (rowindex). */
static int convert_at(CursorObject *cu, PyObject *row, int np, pval *out, arena *a, int64_t index) {
    if (convert_row(cu->conn, row, np, out, a, cu->pmap, cu->pmap_top) == 0) return 0;
    PyObject *et, *ev, *tb;
    PyErr_Fetch(&et, &ev, &tb);
    PyErr_NormalizeException(&et, &ev, &tb);
    if (ev) {
        PyObject *ri = PyLong_FromLongLong(index);
        if (ri) PyObject_SetAttrString(ev, "rowindex", ri);
        Py_XDECREF(ri);
    }
    PyErr_Restore(et, ev, tb);
    return -1;
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
    if (refuse_format_markers(sql, seq_of_params) < 0) return NULL;
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
    many_fast *mf = NULL;
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
    mf = many_new(co, np, cu->pmap, cu->pmap_top, BATCH_ROWS);
    for (;;) {
        int64_t n = 0;
        a.len = 0;
        int fast = mf != NULL;
        if (fast) {
            int r = many_fill(mf, it);
            if (r < 0) goto out;
            if (r > 0) { /* a row did not fit: the whole chunk again, general path */
                Py_ssize_t nr;
                PyObject *const *rows = many_rows(mf, &nr);
                for (; n < nr; n++)
                    if (convert_at(cu, rows[n], np, vals + (size_t)n * rowsz, &a, total + n) < 0)
                        goto out;
                many_free(mf);
                mf = NULL;
                fast = 0;
            } else {
                n = many_count(mf);
            }
        }
        PyObject *item;
        while (!fast && n < BATCH_ROWS && (item = PyIter_Next(it))) {
            int r = convert_at(cu, item, np, vals + (size_t)n * rowsz, &a, total + n);
            Py_DECREF(item);
            if (r < 0) goto out;
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
        many_fast *fm = fast ? mf : NULL;
        NOGIL(rc = fm ? many_run(fm, s, codes, &nf) : run_chunk(s, cv, base, np, n, codes, &nf));
        if (fm) many_release(fm);
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
    many_free(mf);
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

/* repr: the cursor's state and its statement's first 60 characters:
 * <ixdb.Cursor rows open: 'select * from t' at 0x...>. */
static PyObject *Cursor_repr(CursorObject *cu) {
    const char *state = cu->closed ? "closed" : cu->has_rows ? "rows open" : "idle";
    if (!cu->sql) return PyUnicode_FromFormat("<ixdb.Cursor %s at %p>", state, cu);
    PyObject *head = PyUnicode_GetLength(cu->sql) > 60 ? PyUnicode_Substring(cu->sql, 0, 57) : NULL;
    PyObject *r = PyUnicode_FromFormat("<ixdb.Cursor %s: %R%s at %p>", state, head ? head : cu->sql,
                                       head ? "..." : "", cu);
    Py_XDECREF(head);
    return r;
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
int set_row_factory(PyObject **slot, PyObject *v) {
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
    .tp_repr = (reprfunc)Cursor_repr,
    .tp_traverse = (traverseproc)Cursor_traverse,
    .tp_clear = (inquiry)Cursor_clear,
    .tp_iter = Cursor_iter,
    .tp_iternext = (iternextfunc)Cursor_iternext,
    .tp_methods = Cursor_methods,
    .tp_members = Cursor_members,
    .tp_getset = Cursor_getset,
};
