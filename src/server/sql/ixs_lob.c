/*
 * ixs_lob.c: the smart-LOB store (ixs_lob.h): the two tables, pages read
 * and written with SQLite's incremental blob I/O, the descriptors a session
 * opens, and the value conversions of BLOB and CLOB.
 */
#include "server/sql/ixs_lob.h"

#include <stdlib.h>
#include <string.h>

#include "proto/ix_lob.h"
#include "server/sql/ixs_lob_int.h"

#define PAGE_SHIFT 20 /* page number bits of a page's row key */
#define MAX_ID     ((int64_t)1 << 42)
#define MAX_SIZE   ((int64_t)IXS_LO_PAGE << PAGE_SHIFT) /* 32 GiB */

static int lo_err(ixv_err *err, const char *what, long long v) {
    return ixv_seterr(err, IXS_E_LO, 0, 0, what, v);
}

struct ixs_lobsess *ixs_lob_sess(ixs_conn *db) {
    if (!db->lob) db->lob = calloc(1, sizeof *db->lob);
    return db->lob;
}
#define sess ixs_lob_sess

void ixs_lob_free_sess(ixs_conn *db) {
    if (db->lob) free(db->lob->made);
    free(db->lob);
    db->lob = NULL;
}

/* ---- the tables -------------------------------------------------------------------------- */

static int exec(ixs_conn *db, const char *sql, ixv_err *err) {
    int rc = sqlite3_exec(db->h, sql, NULL, NULL, NULL);
    return rc == SQLITE_OK ? 0 : ixs_sqlite_err(db, rc, 0, NULL, err);
}

/* 1 when the database has the LO table _ixd_lo (made with its first LO). */
static int lo_table_exists(ixs_conn *db) {
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h,
                           "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = '_ixd_lo'",
                           -1, &st, NULL) != SQLITE_OK)
        return 0;
    int r = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return r;
}

/* Made with the first LO or LOB column of a database, inside the caller's
 * transaction. refs counts the rows that hold the LO (NULL: none ever did;
 * ixs_lob_gc.c); a store made before it existed gains the column. */
int ixs_lob_ensure_tables(ixs_conn *db, ixv_err *err) {
    sqlite3_stmt *st = NULL;
    if (sqlite3_prepare_v2(db->h, "SELECT refs FROM _ixd_lo", -1, &st, NULL) == SQLITE_OK) {
        sqlite3_finalize(st);
        return 0;
    }
    int old = lo_table_exists(db); /* then it lacks the column */
    int rc =
        exec(db,
             old ? "ALTER TABLE _ixd_lo ADD COLUMN refs INTEGER;"
                   "CREATE INDEX IF NOT EXISTS _ixd_lo_refs ON _ixd_lo(refs);"
                 : "CREATE TABLE IF NOT EXISTS _ixd_lo(id INTEGER PRIMARY KEY, kind INTEGER NOT "
                   "NULL, size INTEGER NOT NULL, refs INTEGER);"
                   "CREATE INDEX IF NOT EXISTS _ixd_lo_refs ON _ixd_lo(refs);"
                   "CREATE TABLE IF NOT EXISTS _ixd_lo_data(k INTEGER PRIMARY KEY, data BLOB "
                   "NOT NULL);",
             err);
    return rc ? rc : ixs_lob_upgrade(db, err);
}
#define ensure_tables ixs_lob_ensure_tables

/* Remembers an LO the session made, for its end. */
static int remember(ixs_conn *db, int64_t id, ixv_err *err) {
    struct ixs_lobsess *ls = sess(db);
    if (ls && ls->nmade == ls->capmade) {
        size_t cap = ls->capmade ? 2 * ls->capmade : 16;
        int64_t *m = realloc(ls->made, cap * sizeof *m);
        if (m) ls->made = m, ls->capmade = cap;
    }
    if (!ls || ls->nmade == ls->capmade) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    ls->made[ls->nmade++] = id;
    return 0;
}

/* One statement with int64 parameters; returns the first column of its
 * first row in *out (when out), 1 when a row came, 0 when none, -1 on error. */
static int q(ixs_conn *db, const char *sql, int np, const int64_t *a, int64_t *out, ixv_err *err) {
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(db->h, sql, -1, &st, NULL);
    if (rc != SQLITE_OK) {
        if ((rc & 0xff) == SQLITE_ERROR && !lo_table_exists(db))
            return 0; /* no LO was ever made in this database */
        return ixs_sqlite_err(db, rc, 0, NULL, err);
    }
    for (int i = 0; i < np; i++)
        sqlite3_bind_int64(st, i + 1, a[i]);
    rc = sqlite3_step(st);
    int r = rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -1;
    if (r == 1 && out) *out = sqlite3_column_int64(st, 0);
    if (r < 0) ixs_sqlite_err(db, rc, 0, NULL, err);
    sqlite3_finalize(st);
    return r;
}

int ixs_lob_create(ixs_conn *db, int code, int64_t *id, ixv_err *err) {
    if (ensure_tables(db, err)) return -1;
    int64_t a[1] = {ixv_lob_xid(code)};
    int64_t next = 0;
    if (q(db, "SELECT coalesce(max(id), 0) + 1 FROM _ixd_lo", 0, NULL, &next, err) < 0) return -1;
    if (next >= MAX_ID) return lo_err(err, "no LO id left (%lld)", (long long)next);
    int64_t b[2] = {next, a[0]};
    if (q(db, "INSERT INTO _ixd_lo(id, kind, size) VALUES(?1, ?2, 0)", 2, b, NULL, err) < 0 ||
        remember(db, next, err))
        return -1;
    *id = next;
    return 0;
}

int64_t ixs_lob_size(ixs_conn *db, int64_t id, ixv_err *err) {
    int64_t size = 0;
    int r = q(db, "SELECT size FROM _ixd_lo WHERE id = ?1", 1, &id, &size, err);
    if (r < 0) return -1;
    if (r == 0) return lo_err(err, "LO %lld does not exist", (long long)id);
    return size;
}

static int set_size(ixs_conn *db, int64_t id, int64_t size, ixv_err *err) {
    int64_t a[2] = {size, id};
    return q(db, "UPDATE _ixd_lo SET size = ?1 WHERE id = ?2", 2, a, NULL, err) < 0 ? -1 : 0;
}

/* ---- pages ------------------------------------------------------------------------------- */

static int64_t page_key(int64_t id, int64_t n) {
    return id << PAGE_SHIFT | n;
}

/* Bytes [off, off + n) of page pno, all inside it, through a blob handle. */
static int page_io(ixs_conn *db, int64_t id, int64_t pno, int write, uint8_t *p, size_t n,
                   size_t off, ixv_err *err) {
    sqlite3_blob *b;
    int rc = sqlite3_blob_open(db->h, "main", "_ixd_lo_data", "data", page_key(id, pno), write, &b);
    if (rc != SQLITE_OK) return ixs_sqlite_err(db, rc, 0, NULL, err);
    if ((size_t)sqlite3_blob_bytes(b) < off + n) {
        sqlite3_blob_close(b);
        return lo_err(err, "page of LO %lld is short", (long long)id);
    }
    rc = write ? sqlite3_blob_write(b, p, (int)n, (int)off)
               : sqlite3_blob_read(b, p, (int)n, (int)off);
    int rc2 = sqlite3_blob_close(b);
    if (rc == SQLITE_OK) rc = rc2;
    return rc == SQLITE_OK ? 0 : ixs_sqlite_err(db, rc, 0, NULL, err);
}

/* Stores a whole page of len bytes (a new page, or one that grows). */
static int page_put(ixs_conn *db, int64_t id, int64_t pno, const uint8_t *p, size_t len,
                    ixv_err *err) {
    sqlite3_stmt *st;
    int rc = sqlite3_prepare_v2(
        db->h, "INSERT OR REPLACE INTO _ixd_lo_data(k, data) VALUES(?1, ?2)", -1, &st, NULL);
    if (rc == SQLITE_OK) {
        sqlite3_bind_int64(st, 1, page_key(id, pno));
        sqlite3_bind_blob(st, 2, p, (int)len, SQLITE_STATIC);
        rc = sqlite3_step(st);
        sqlite3_finalize(st);
    }
    return rc == SQLITE_DONE || rc == SQLITE_OK ? 0 : ixs_sqlite_err(db, rc, 0, NULL, err);
}

static size_t page_len(int64_t size, int64_t pno) {
    int64_t left = size - pno * IXS_LO_PAGE;
    return left <= 0 ? 0 : left > IXS_LO_PAGE ? IXS_LO_PAGE : (size_t)left;
}

/* Writes p[0..n) at off into LO id of size *size (p NULL: zeros), page by
 * page; a page that grows is read, patched and stored again. */
static int write_at(ixs_conn *db, int64_t id, int64_t off, const uint8_t *p, size_t n,
                    int64_t *size, ixv_err *err) {
    struct ixs_lobsess *ls = sess(db);
    if (!ls) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    if (off + (int64_t)n > MAX_SIZE) return lo_err(err, "LO larger than %lld bytes", MAX_SIZE);
    while (n > 0) {
        int64_t pno = off / IXS_LO_PAGE;
        size_t po = (size_t)(off % IXS_LO_PAGE), k = IXS_LO_PAGE - po;
        if (k > n) k = n;
        size_t old = page_len(*size, pno);
        if (po + k <= old) {
            if (p) {
                if (page_io(db, id, pno, 1, (uint8_t *)p, k, po, err)) return -1;
            } else {
                memset(ls->page, 0, k);
                if (page_io(db, id, pno, 1, ls->page, k, po, err)) return -1;
            }
        } else {
            if (old && page_io(db, id, pno, 0, ls->page, old, 0, err)) return -1;
            if (po > old) memset(ls->page + old, 0, po - old);
            if (p)
                memcpy(ls->page + po, p, k);
            else
                memset(ls->page + po, 0, k);
            if (page_put(db, id, pno, ls->page, po + k, err)) return -1;
        }
        off += (int64_t)k;
        n -= k;
        if (p) p += k;
        if (off > *size) *size = off;
    }
    return 0;
}

/* Reads up to n bytes at off of an LO of size size; the count. */
static int64_t read_at(ixs_conn *db, int64_t id, int64_t off, uint8_t *p, size_t n, int64_t size,
                       ixv_err *err) {
    if (off >= size) return 0;
    if ((int64_t)n > size - off) n = (size_t)(size - off);
    size_t done = 0;
    while (done < n) {
        int64_t pno = off / IXS_LO_PAGE;
        size_t po = (size_t)(off % IXS_LO_PAGE), k = IXS_LO_PAGE - po;
        if (k > n - done) k = n - done;
        if (page_io(db, id, pno, 0, p + done, k, po, err)) return -1;
        done += k;
        off += (int64_t)k;
    }
    return (int64_t)done;
}

/* A savepoint around one SQ_LODATA write, so that a write is atomic and
 * costs one commit outside a transaction. Not used from SQL functions: the
 * statement that calls them is atomic already. */
static int sp(ixs_conn *db, const char *sql) {
    return sqlite3_exec(db->h, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/* ---- descriptors ------------------------------------------------------------------------- */

static lofd *get_fd(ixs_conn *db, int fd, ixv_err *err) {
    if (!db->lob || fd < 0 || fd >= IXS_LO_MAXFD || !db->lob->fd[fd].used) {
        lo_err(err, "LO descriptor %lld is not open", (long long)fd);
        return NULL;
    }
    return &db->lob->fd[fd];
}

int ixs_lob_open(ixs_conn *db, int64_t id, int flags, ixv_err *err) {
    struct ixs_lobsess *ls = sess(db);
    if (!ls) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    int mode = flags & (IXP_LO_RDONLY | IXP_LO_WRONLY | IXP_LO_RDWR);
    if (mode && mode != IXP_LO_RDONLY && mode != IXP_LO_WRONLY && mode != IXP_LO_RDWR)
        return lo_err(err, "conflicting LO open flags 0x%llx", (long long)flags);
    if (!mode) flags |= (flags & IXP_LO_APPEND) ? IXP_LO_WRONLY : IXP_LO_RDONLY;
    if (ixs_lob_size(db, id, err) < 0) return -1;
    for (int i = 0; i < IXS_LO_MAXFD; i++)
        if (!ls->fd[i].used) {
            ls->fd[i] = (lofd){1, flags, id, 0};
            return i;
        }
    return lo_err(err, "too many open LOs (%lld)", (long long)IXS_LO_MAXFD);
}

int ixs_lob_close_fd(ixs_conn *db, int fd, ixv_err *err) {
    lofd *f = get_fd(db, fd, err);
    if (!f) return -1;
    f->used = 0;
    db->lob->gone = 1; /* an LO no row holds may be free to go now */
    return 0;
}

int64_t ixs_lob_read(ixs_conn *db, int fd, uint8_t *buf, size_t n, ixv_err *err) {
    lofd *f = get_fd(db, fd, err);
    if (!f) return -1;
    if (!(f->flags & (IXP_LO_RDONLY | IXP_LO_RDWR)))
        return lo_err(err, "LO descriptor %lld is not open for reading", (long long)fd);
    int64_t size = ixs_lob_size(db, f->id, err);
    if (size < 0) return -1;
    int64_t got = read_at(db, f->id, f->pos, buf, n, size, err);
    if (got > 0) f->pos += got;
    return got;
}

int ixs_lob_write(ixs_conn *db, int fd, const uint8_t *p, size_t n, ixv_err *err) {
    lofd *f = get_fd(db, fd, err);
    if (!f) return -1;
    if (!(f->flags & (IXP_LO_WRONLY | IXP_LO_RDWR)))
        return lo_err(err, "LO descriptor %lld is not open for writing", (long long)fd);
    int64_t size = ixs_lob_size(db, f->id, err);
    if (size < 0) return -1;
    int64_t start = (f->flags & IXP_LO_APPEND) ? size : f->pos;
    int outer = sp(db, "SAVEPOINT ixd_lo_write") == 0;
    int64_t end = size;
    int rc = start > size ? write_at(db, f->id, size, NULL, (size_t)(start - size), &end, err) : 0;
    if (!rc) rc = write_at(db, f->id, start, p, n, &end, err);
    if (!rc && end != size) rc = set_size(db, f->id, end, err);
    if (outer)
        sp(db, rc ? "ROLLBACK TO ixd_lo_write; RELEASE ixd_lo_write" : "RELEASE ixd_lo_write");
    if (rc) return -1;
    f->pos = start + (int64_t)n;
    return 0;
}

int64_t ixs_lob_fd_size(ixs_conn *db, int fd, ixv_err *err) {
    lofd *f = get_fd(db, fd, err);
    return f ? ixs_lob_size(db, f->id, err) : -1;
}

int64_t ixs_lob_seek(ixs_conn *db, int fd, int64_t off, int whence, ixv_err *err) {
    lofd *f = get_fd(db, fd, err);
    if (!f) return -1;
    int64_t base = whence == IXP_LO_SEEK_SET ? 0 : f->pos;
    if (whence == IXP_LO_SEEK_END && (base = ixs_lob_size(db, f->id, err)) < 0) return -1;
    if (whence < IXP_LO_SEEK_SET || whence > IXP_LO_SEEK_END)
        return lo_err(err, "unknown seek origin %lld", (long long)whence);
    if ((off < 0 && base + off < 0) || (off > 0 && off > MAX_SIZE - base))
        return lo_err(err, "seek to an offset out of range (%lld)", (long long)off);
    f->pos = base + off;
    return f->pos;
}

/* ---- values ------------------------------------------------------------------------------ */

int ixs_lob_bind(ixs_conn *db, ityp from, const sval *v, ityp to, sval *out, ixv_err *err) {
    memset(out, 0, sizeof *out);
    if (v->kind == SQLITE_NULL) return 0;
    if (ixv_lob_is(from.code)) {
        int rc = ixv_lob_convert(from, v, to, out);
        return rc ? ixv_seterr(err, rc, 0, 0, "%s", "bound value") : 0;
    }
    if (v->kind != SQLITE_TEXT && v->kind != SQLITE_BLOB)
        return ixv_seterr(err, IXV_E_NO_CAST, 0, 0, "%s", "a number to a LOB");
    int64_t id, size = 0;
    if (ixs_lob_create(db, to.code, &id, err)) return -1;
    if (write_at(db, id, 0, v->p, v->n, &size, err) || set_size(db, id, size, err)) return -1;
    out->kind = SQLITE_INTEGER;
    out->i = id;
    return 0;
}

/* ---- helpers for the SQL functions (ixs_lob_fn.c) ---------------------------------------- */

int ixs_lob_write_at(ixs_conn *db, int64_t id, int64_t off, const uint8_t *p, size_t n,
                     ixv_err *err);
int ixs_lob_write_at(ixs_conn *db, int64_t id, int64_t off, const uint8_t *p, size_t n,
                     ixv_err *err) {
    int64_t size = ixs_lob_size(db, id, err);
    if (size < 0) return -1;
    int64_t end = size;
    if (write_at(db, id, off, p, n, &end, err)) return -1;
    return end != size ? set_size(db, id, end, err) : 0;
}

int64_t ixs_lob_read_at(ixs_conn *db, int64_t id, int64_t off, uint8_t *p, size_t n, ixv_err *err);
int64_t ixs_lob_read_at(ixs_conn *db, int64_t id, int64_t off, uint8_t *p, size_t n, ixv_err *err) {
    int64_t size = ixs_lob_size(db, id, err);
    return size < 0 ? -1 : read_at(db, id, off, p, n, size, err);
}
