/*
 * ix_batch.c: pipelined batches (ix_batch_*, ix_send_batch): per-row ID,
 * BIND, EXECUTE, EOT groups, at most BATCH_ROWS in flight.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/ix_sqlscan.h"
#include "ix_client_int.h"
#include "proto/ix_blob.h"
#include "types/ix_datetime.h"
#include "types/ix_decimal.h"

#include "ix_stmt_int.h"

/* ---- pipelined batches ---------------------------------------------------------- */

#define BATCH_AHEAD (256 * 1024) /* bytes of requests kept written ahead of replies */
#define BATCH_ROWS  4096         /* rows sent and not yet answered, at most */

/* Marks rows [from, to) of sqlcodes (may be NULL) with code. */
static void batch_mark(int *sqlcodes, int64_t from, int64_t to, int code) {
    for (int64_t r = from; sqlcodes && r < to; r++)
        sqlcodes[r] = code;
}

/* Encodes row `row`'s request group in the request buffer (ixc_out); < 0
 * stops the batch (nothing encoded). */
typedef int (*batch_enc_fn)(ix_stmt *s, int64_t row, void *ud);

static int batch_run(ix_stmt *s, int64_t nrows, batch_enc_fn enc, void *ud, int *sqlcodes,
                     int64_t *nfailed) {
    if (nfailed) *nfailed = 0;
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (ixc_dead(c)) return IX_ECONN;
    ixc_clear_err(c);
    if ((rc = ixc_ensure_prepared(s)) != IX_OK) return rc;
    if (s->is_cursor)
        return ixc_fail(c, IX_EMISUSE, "ix_batch_execute needs a statement without rows");
    if (nrows < 0) return ixc_fail(c, IX_EMISUSE, "bad batch arguments");
    s->replied = 0;
    s->changes = 0;
    if ((rc = ixc_drain(c)) != IX_OK) return rc;
    if ((rc = ixc_auto_begin(c, s->sql, s->sql_len)) != IX_OK) return rc;
    int64_t written = 0, failed = 0, first_err = -1;
    int stop = 0;
    /* A failure that ends the batch's transaction stops the rows not yet
     * sent: they would run in autocommit, one by one. */
    int in_txn = ixc_in_txn(c), txn_lost = 0;
    ixc_reply first;
    memset(&first, 0, sizeof first);
    while (s->replied < written || (!stop && !txn_lost && first_err < 0 && written < nrows)) {
        /* Write ahead while the unsent output is small and few rows are in
         * flight; nothing more after the first refused row. */
        while (!stop && !txn_lost && first_err < 0 && written < nrows &&
               ixc_unsent(c) < BATCH_AHEAD && written - s->replied < BATCH_ROWS) {
            size_t mark = ixc_mark(c);
            int u = enc(s, written, ud);
            if (u < 0) {
                stop = u;
                break;
            }
            ixc_queued(c, mark);
            if (ixc_out(c)->err)
                return ixc_kill(c, ixc_out(c)->err, "cannot encode the batch: %s",
                                ix_rc_str(ixc_out(c)->err));
            written++;
        }
        if (s->replied == written) {
            if (ixc_unsent(c) > 0 && (rc = ixc_flush(c)) != IX_OK) return rc;
            continue;
        }
        /* Reading one reply also writes pending output (ixc_io polls both). */
        ixc_reply r;
        ixc_reply_clear(&r);
        rc = ixc_read_reply(c, &r);
        if (rc != IX_OK) { /* the rows in flight may or may not have run */
            batch_mark(sqlcodes, s->replied, written, IX_BATCH_UNKNOWN);
            batch_mark(sqlcodes, written, nrows, IX_BATCH_NOT_SENT);
            return rc;
        }
        int64_t row = s->replied++;
        if (in_txn && !ixc_in_txn(c)) txn_lost = 1;
        if (r.sqlcode) {
            failed++;
            if (first_err < 0) {
                first_err = row;
                first = r;
            }
            if (sqlcodes) sqlcodes[row] = r.sqlcode;
        } else {
            if (sqlcodes) sqlcodes[row] = 0;
            s->changes += r.rows;
            if (r.serial || r.serial8 || r.bigserial) { /* this INSERT's values, 0 the other */
                ixc_set_serial(c, r.serial);
                ixc_set_serial8(c, r.serial8 ? r.serial8 : r.bigserial);
            }
        }
    }
    ixc_set_changes(c, s->changes);
    if (nfailed) *nfailed = failed;
    batch_mark(sqlcodes, written, nrows, IX_BATCH_NOT_SENT);
    if (first_err >= 0) {
        ixc_fail_sql(c, first.sqlcode, first.isamcode, first.offset, first.msg);
        ixc_err_append(c, " (batch row %lld; %lld rows failed)", (long long)first_err,
                       (long long)failed);
        return stop ? stop : IX_ESQL;
    }
    return stop ? stop : IX_OK;
}

/* ix_send_batch: every row encoded and queued now; ixc_batch_op_reply decodes
 * the replies, one group per row. */
static int batch_send(ix_stmt *s, int64_t nrows, batch_enc_fn enc, void *ud) {
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    ix_conn *c = s->conn;
    if (ixc_dead(c)) return IX_ECONN;
    if (!ixc_nb_mode(c)) return ixc_fail(c, IX_EMISUSE, "ix_send_batch needs non-blocking mode");
    if ((s->op && s->op != IXC_OP_PREPARE) || s->exec_queued)
        return ixc_fail(c, IX_EMISUSE, "a request of the statement is outstanding");
    ixc_clear_err(c);
    if ((rc = ixc_ensure_prepared(s)) != IX_OK) return rc;
    if (s->op_done && s->op_last == IXC_OP_PREPARE && (rc = ixc_op_take(s)) != IX_OK) return rc;
    if (s->is_cursor)
        return ixc_fail(c, IX_EMISUSE, "ix_send_batch needs a statement without rows");
    if (nrows < 0) return ixc_fail(c, IX_EMISUSE, "bad batch arguments");
    if ((rc = ixc_begin_for(s)) != IX_OK) return rc;
    ixc_free(s->b_codes);
    s->b_codes = nrows > 0 ? ixc_malloc((size_t)nrows * sizeof *s->b_codes) : NULL;
    if (nrows > 0 && !s->b_codes) return ixc_fail(c, IX_ENOMEM, "out of memory");
    s->replied = s->changes = s->b_failed = 0;
    s->b_first_row = -1;
    s->b_stop = 0;
    int64_t written = 0;
    while (written < nrows) {
        size_t mark = ixc_mark(c);
        int u = enc(s, written, ud);
        if (u < 0) {
            s->b_stop = u;
            break;
        }
        ixc_queued(c, mark);
        if (ixc_out(c)->err) return ixc_kill(c, ixc_out(c)->err, "cannot encode the batch");
        written++;
    }
    s->b_rows = written;
    if (written == 0) { /* nothing to wait for */
        s->op_done = 1;
        s->op_last = IXC_OP_BATCH;
        s->op_rc = s->b_stop ? s->b_stop : IX_OK;
        s->op_err.err = 0;
        return s->op_rc;
    }
    if ((rc = ixc_push_op(s, IXC_OP_BATCH, written)) != IX_OK) return rc;
    ixc_set_nb_step(c, 1);
    rc = ixc_flush(c);
    ixc_set_nb_step(c, 0);
    return rc != IX_OK ? rc : s->b_stop ? s->b_stop : IX_OK;
}

/* One row's reply of a non-blocking batch; after the last, the batch's
 * outcome as ix_batch_execute's. */
int ixc_batch_op_reply(ix_stmt *s, int last) {
    ix_conn *c = s->conn;
    ixc_reply r;
    memset(&r, 0, sizeof r);
    int rc = ixc_read_reply(c, &r);
    if (rc != IX_OK) return rc;
    int64_t row = s->replied++;
    if (r.sqlcode) {
        s->b_failed++;
        if (s->b_first_row < 0) {
            s->b_first_row = row;
            s->b_first_code = r.sqlcode;
            s->b_first_isam = r.isamcode;
            s->b_first_off = r.offset;
            memcpy(s->b_first_msg, r.msg, sizeof s->b_first_msg);
        }
        if (s->b_codes) s->b_codes[row] = r.sqlcode;
    } else {
        if (s->b_codes) s->b_codes[row] = 0;
        s->changes += r.rows;
        if (r.serial) ixc_set_serial(c, r.serial);
        if (r.has_insertdone && (r.serial8 || r.bigserial))
            ixc_set_serial8(c, r.serial8 ? r.serial8 : r.bigserial);
    }
    if (!last) return IX_OK;
    ixc_set_changes(c, s->changes);
    if (s->b_first_row >= 0) {
        ixc_fail_sql(c, s->b_first_code, s->b_first_isam, s->b_first_off, s->b_first_msg);
        ixc_err_append(c, " (batch row %lld; %lld rows failed)", (long long)s->b_first_row,
                       (long long)s->b_failed);
        return s->b_stop ? s->b_stop : IX_ESQL;
    }
    return s->b_stop ? s->b_stop : IX_OK;
}

typedef struct rowfn_ctx {
    ix_batch_row_fn fn;
    void *ud;
} rowfn_ctx;

/* ix_batch_execute's rows: the callback binds, the bindings are encoded. */
static int enc_bound_row(ix_stmt *s, int64_t row, void *ud) {
    const rowfn_ctx *r = ud;
    int u = r->fn(s, row, r->ud);
    if (u < 0) return u;
    ixc_encode_exec(s);
    return 0;
}

int ix_batch_execute(ix_stmt *s, int64_t nrows, ix_batch_row_fn row_fn, void *ud, int *sqlcodes,
                     int64_t *nfailed) {
    if (nfailed) *nfailed = 0;
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    if (!row_fn) return ixc_fail(s->conn, IX_EMISUSE, "bad batch arguments");
    rowfn_ctx r = {row_fn, ud};
    return batch_run(s, nrows, enc_bound_row, &r, sqlcodes, nfailed);
}

typedef struct arrays_ctx {
    const ix_array *cols;
    int ncols;
    int general;    /* every row through ix_bind_* (text to convert, a bad kind) */
    size_t fixed;   /* the most bytes the fixed-width columns' items take */
    ixb_wbuf extra; /* the items of the parameters past the arrays (as bound) */
    size_t *lens;   /* per text column: the length in the row being encoded */
    int *texts;     /* the text columns' indexes (ntext of them) */
    int ntext;
} arrays_ctx;

/* Row `row`'s value of a text column: its bytes, with *n set; NULL for
 * NULL. */
static inline const char *text_at(const ix_array *col, int64_t row, size_t *n) {
    if (col->kind == IX_ARRAY_TEXTN) {
        const ix_text *t = &((const ix_text *)col->values)[row];
        *n = t->p ? t->n : 0;
        return t->p;
    }
    const char *t = ((const char *const *)col->values)[row];
    *n = t ? strlen(t) : 0;
    return t;
}

/* The general path of one row: ix_bind_* for every array, then the bound
 * parameters are encoded (conversions, range errors, long values). */
static int bind_arrays_row(ix_stmt *s, int64_t row, const arrays_ctx *a) {
    for (int k = 0; k < a->ncols; k++) {
        const ix_array *col = &a->cols[k];
        int rc;
        if (col->is_null && col->is_null[row]) {
            rc = ix_bind_null(s, k + 1);
        } else {
            switch (col->kind) {
            case IX_ARRAY_INT64:
                rc = ix_bind_int64(s, k + 1, ((const int64_t *)col->values)[row]);
                break;
            case IX_ARRAY_INT32:
                rc = ix_bind_int64(s, k + 1, ((const int32_t *)col->values)[row]);
                break;
            case IX_ARRAY_DATE:
                rc = ix_bind_date(s, k + 1, ((const int32_t *)col->values)[row]);
                break;
            case IX_ARRAY_DOUBLE:
                rc = ix_bind_double(s, k + 1, ((const double *)col->values)[row]);
                break;
            case IX_ARRAY_TEXT:
            case IX_ARRAY_TEXTN: {
                size_t n;
                const char *t = text_at(col, row, &n);
                rc = t ? ix_bind_text(s, k + 1, t, n, IX_STATIC) : ix_bind_null(s, k + 1);
                break;
            }
            default: rc = ixc_fail(s->conn, IX_EINVAL, "bad array kind for parameter %d", k + 1);
            }
        }
        if (rc != IX_OK) return rc;
    }
    ixc_encode_exec(s);
    return 0;
}

static uint8_t *put_head(uint8_t *o, int type, int slot) {
    ixb_st16(o, (uint16_t)type);
    ixb_st16(o + 2, (uint16_t)IXP_IND_VALUE);
    ixb_st16(o + 4, (uint16_t)slot);
    return o + ITEM_HEAD;
}

/* INTEGER when the value fits 32 bits, else BIGINT (as ix_bind_int64);
 * NULL for -2^63 (an error the general path reports). */
static uint8_t *put_int(uint8_t *o, int64_t v) {
    if (v > INT32_MIN && v <= INT32_MAX) {
        ixb_st32(put_head(o, IX_T_INTEGER, SLOT_INTEGER), (uint32_t)v);
        return o + ITEM_HEAD + 4;
    }
    if (v == INT64_MIN) return NULL;
    ixb_st64(put_head(o, IX_T_BIGINT, SLOT_BIGINT), (uint64_t)v);
    return o + ITEM_HEAD + 8;
}

/* Column k's item of row `row` at o (room reserved: a->fixed for the fixed
 * widths, lens[k] for text); NULL when the value needs the general path (out
 * of range). The bytes are those ix_bind_* + encode_exec write. */
static uint8_t *put_array_item(uint8_t *o, const arrays_ctx *a, int k, int64_t row) {
    const ix_array *col = &a->cols[k];
    if (col->is_null && col->is_null[row])
        return ixc_put_item(o, IX_T_VARCHAR, IXP_IND_NULL, 0, NULL, 0);
    switch (col->kind) {
    case IX_ARRAY_INT64: return put_int(o, ((const int64_t *)col->values)[row]);
    case IX_ARRAY_INT32: return put_int(o, ((const int32_t *)col->values)[row]);
    case IX_ARRAY_DOUBLE:
        ixb_st64(put_head(o, IX_T_FLOAT, 0), ixc_float_bits(((const double *)col->values)[row]));
        return o + ITEM_HEAD + 8;
    case IX_ARRAY_DATE: {
        int32_t d = ((const int32_t *)col->values)[row];
        if (d < IXT_DATE_MIN || d > IXT_DATE_MAX) return NULL;
        ixb_st32(put_head(o, IX_T_DATE, 0), (uint32_t)d);
        return o + ITEM_HEAD + 4;
    }
    default: { /* IX_ARRAY_TEXT(N): one VARCHAR value, | i16 length | bytes | */
        size_t n;
        const char *t = col->kind == IX_ARRAY_TEXTN ? ((const ix_text *)col->values)[row].p
                                                    : ((const char *const *)col->values)[row];
        if (!t) return ixc_put_item(o, IX_T_VARCHAR, IXP_IND_NULL, 0, NULL, 0);
        n = a->lens[k];
        ixb_st16(put_head(o, IX_T_VARCHAR, 0), (uint16_t)n);
        memcpy(o + ITEM_HEAD + 2, t, n);
        o += ITEM_HEAD + 2 + n;
        if (n & 1) *o++ = 0;
        return o;
    }
    }
}

/* ix_batch_execute_arrays's rows: encoded straight from the arrays into
 * the room reserved for the row, the parameters past the arrays copied as
 * bound; a row with a value that needs more goes through ix_bind_* (the
 * room is then given up). */
static int enc_arrays_row(ix_stmt *s, int64_t row, void *ud) {
    arrays_ctx *a = ud;
    if (a->general) return bind_arrays_row(s, row, a);
    size_t body = a->fixed + a->extra.len;
    for (int j = 0; j < a->ntext; j++) {
        int k = a->texts[j];
        const ix_array *col = &a->cols[k];
        if (col->is_null && col->is_null[row]) continue;
        size_t n;
        const char *t = text_at(col, row, &n);
        /* too long for a VARCHAR, or the one byte 00 (VARCHAR's NULL form):
         * ix_bind_text sends them as TEXT */
        if (n > IXC_BIND_VARCHAR_MAX || (n == 1 && !t[0])) return bind_arrays_row(s, row, a);
        a->lens[k] = n;
        body += ITEM_HEAD + 2 + n + (n & 1); /* ixc_item_size of its VARCHAR */
    }
    uint8_t *o = ixc_group_begin(s, body);
    if (!o) return 0; /* ixc_out(c)->err: the batch ends */
    for (int k = 0; k < a->ncols && o; k++)
        o = put_array_item(o, a, k, row);
    if (!o) return bind_arrays_row(s, row, a);
    if (a->extra.len) memcpy(o, a->extra.data, a->extra.len);
    ixc_group_end(s, o + a->extra.len);
    return 0;
}

/* Sets up a: the fast path's fixed room, the extra parameters' items. */
static int arrays_prepare(ix_stmt *s, arrays_ctx *a) {
    for (int k = 0; k < a->ncols; k++) {
        switch (a->cols[k].kind) {
        case IX_ARRAY_INT64:
        case IX_ARRAY_INT32:
        case IX_ARRAY_DOUBLE:
        case IX_ARRAY_DATE: a->fixed += ITEM_HEAD + 8; break;
        case IX_ARRAY_TEXT:
        case IX_ARRAY_TEXTN:
            a->texts[a->ntext++] = k;
            if (ixc_cv_to_db(s->conn) != (iconv_t)-1) a->general = 1;
            break;
        default: a->general = 1;
        }
    }
    /* BYTE/TEXT values in the real form are written by encode_exec */
    for (int k = 0; k < s->nparams; k++)
        if (ixc_blob_form_type(s, k)) a->general = 1;
    size_t body = 0;
    for (int k = a->ncols; k < s->nparams; k++)
        body += ixc_param_size(&s->params[k]);
    if (ixb_wbuf_reserve(&a->extra, body)) return IX_ENOMEM;
    uint8_t *o = a->extra.data;
    for (int k = a->ncols; k < s->nparams; k++)
        o = ixc_put_param(o, &s->params[k]);
    a->extra.len = body;
    return IX_OK;
}

static int arrays_run(ix_stmt *s, int64_t nrows, const ix_array *cols, int ncols, int *sqlcodes,
                      int64_t *nfailed, int send) {
    if (nfailed) *nfailed = 0;
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    if ((!cols && ncols > 0) || ncols < 0 || ncols > s->nparams)
        return ixc_fail(s->conn, IX_EMISUSE, "ix_batch_execute_arrays: %d arrays for %d parameters",
                        ncols, s->nparams);
    size_t local[16];
    int tlocal[16];
    arrays_ctx a = {cols, ncols, 0, 0, {0}, NULL, NULL, 0};
    ixb_wbuf_init(&a.extra, ixc_mem());
    a.lens = ncols <= 16 ? local : ixc_malloc((size_t)ncols * sizeof(size_t));
    a.texts = ncols <= 16 ? tlocal : ixc_malloc((size_t)ncols * sizeof(int));
    if (!a.lens || !a.texts || arrays_prepare(s, &a) != IX_OK) {
        if (a.lens != local) ixc_free(a.lens);
        if (a.texts != tlocal) ixc_free(a.texts);
        ixb_wbuf_free(&a.extra);
        return ixc_fail(s->conn, IX_ENOMEM, "out of memory");
    }

    rc = send ? batch_send(s, nrows, enc_arrays_row, &a)
              : batch_run(s, nrows, enc_arrays_row, &a, sqlcodes, nfailed);
    if (a.lens != local) ixc_free(a.lens);
    if (a.texts != tlocal) ixc_free(a.texts);
    ixb_wbuf_free(&a.extra);
    /* The arrays' parameters are left unbound (rows may or may not have
     * gone through ix_bind_*): the same state whatever the values were. */
    for (int k = 0; k < ncols; k++) {
        s->params[k].set = 0;
        s->params[k].nfix = 0;
        ixb_wbuf_reset(&s->params[k].val);
    }
    return rc;
}

int ix_batch_execute_arrays(ix_stmt *s, int64_t nrows, const ix_array *cols, int ncols,
                            int *sqlcodes, int64_t *nfailed) {
    return arrays_run(s, nrows, cols, ncols, sqlcodes, nfailed, 0);
}

int64_t ix_batch_replied(const ix_stmt *s) {
    return s ? s->replied : 0;
}

int ix_send_batch(ix_stmt *s, int64_t nrows, ix_batch_row_fn row_fn, void *ud) {
    int rc = ixc_stmt_check(s);
    if (rc) return rc;
    if (!row_fn) return ixc_fail(s->conn, IX_EMISUSE, "bad batch arguments");
    rowfn_ctx r = {row_fn, ud};
    return batch_send(s, nrows, enc_bound_row, &r);
}

int ix_send_batch_arrays(ix_stmt *s, int64_t nrows, const ix_array *cols, int ncols) {
    return arrays_run(s, nrows, cols, ncols, NULL, NULL, 1);
}
