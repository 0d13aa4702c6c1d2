#define _DEFAULT_SOURCE /* realpath */
/*
 * ixs_lob_fn.c: the SQL side of smart LOBs (ixs_lob.h): the functions users
 * call (FILETOBLOB, FILETOCLOB, LOTOFILE, LOCOPY, length() of a LOB), and
 * the routines ifx_lo_create/open/close/release/seek/size that clients use
 * to stream a LOB through SQ_LODATA, as one SQLite function ixd_lo(...,
 * which) and the translator's emitters that call it. Server files are
 * confined to the --lob-dir directory; client files travel through SQ_FILE
 * (src/proto/ix_lob.h): the session asks its client to open, read or write
 * and close the file while the statement runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "proto/ix_lob.h"
#include "server/sql/ixs_func.h"
#include "server/sql/ixs_lob_int.h"
#include "server/sql/ixs_lob.h"

int ixs_lob_write_at(ixs_conn *db, int64_t id, int64_t off, const uint8_t *p, size_t n,
                     ixv_err *err);
int64_t ixs_lob_read_at(ixs_conn *db, int64_t id, int64_t off, uint8_t *p, size_t n, ixv_err *err);

static char *lob_dir; /* realpath of --lob-dir, or NULL */

void ixs_lob_set_dir(const char *dir) {
    free(lob_dir);
    lob_dir = dir ? realpath(dir, NULL) : NULL;
}

/* ---- server files ------------------------------------------------------------------------ */

/* 1 when real (a resolved path) is dir or inside it. */
static int inside(const char *real, const char *dir) {
    size_t dl = strlen(dir);
    return !strncmp(real, dir, dl) && (real[dl] == '/' || real[dl] == 0 || dl == 1);
}

/* The file a server-location path names, confined to the LOB directory: a
 * relative path is taken from that directory; for writing, the directory
 * the file goes into must resolve inside it. 0 with out filled, or -1. */
static int confine(const char *path, int for_write, char *out, size_t cap, ixv_err *err) {
    if (!lob_dir)
        return ixv_seterr(err, IXS_E_LO, 0, 0,
                          "server files are disabled: ixd runs without --lob-dir (%.200s)", path);
    char full[PATH_MAX];
    int fl = path[0] == '/' ? snprintf(full, sizeof full, "%s", path)
                            : snprintf(full, sizeof full, "%s/%s", lob_dir, path);
    if (!*path || fl < 0 || fl >= (int)sizeof full)
        return ixv_seterr(err, IXS_E_LO, 0, 0, "bad file name '%.200s'", path);
    char *slash = strrchr(full, '/');
    char *real;
    if (for_write) {
        *slash = 0;
        real = realpath(*full ? full : "/", NULL);
        *slash = '/';
    } else {
        real = realpath(full, NULL);
    }
    if (!real)
        return ixv_seterr(err, IXS_E_LO, 0, 0, "cannot open '%.200s': %s", path, strerror(errno));
    int ok = inside(real, lob_dir);
    int n =
        for_write ? snprintf(out, cap, "%s/%s", real, slash + 1) : snprintf(out, cap, "%s", real);
    free(real);
    if (!ok)
        return ixv_seterr(err, IXS_E_LO, 0, 0, "'%.200s' is outside the LOB directory (--lob-dir)",
                          path);
    if (n < 0 || (size_t)n >= cap || (for_write && !slash[1]))
        return ixv_seterr(err, IXS_E_LO, 0, 0, "bad file name '%.200s'", path);
    return 0;
}

/* The location argument: 0 for 'server', 1 for 'client', -1 for anything else. */
static int location(const char *where, ixv_err *err) {
    if (where && !strcasecmp(where, "server")) return 0;
    if (where && !strcasecmp(where, "client")) return 1;
    return ixv_seterr(err, IXS_E_LO, 0, 0, "file location must be 'server' or 'client' (%.40s)",
                      where ? where : "NULL");
}

/* ---- client files (SQ_FILE) ------------------------------------------------------------- */

#define CLIENT_PIECE (256 * 1024) /* bytes one SQ_FILE read or write moves */

/* One SQ_FILE exchange: req (with op) to the client, its answer in *ans.
 * The status (>= 0), or -1 with err set: no client, no answer, a wrong
 * answer, or the client's error. */
static int64_t ask(ixs_conn *db, ixb_wbuf *req, int op, const char *name, ixp_msg *ans,
                   ixv_err *err) {
    if (req->err) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    if (!db->ask_fn)
        return ixv_seterr(err, IXS_E_LO, 0, 0, "%s", "'client' files need a client connection");
    if (db->ask_fn(db->ask_ud, req->data, req->len, ans))
        return ixv_seterr(err, IXS_E_LO, 0, 0,
                          "the client did not answer the request for file '%.200s'", name);
    if (ans->tag != IXP_SQ_FILE || ans->u.file.op != op)
        return ixv_seterr(err, IXS_E_LO, 0, 0, "bad answer from the client for file '%.200s'",
                          name);
    int32_t st = ans->u.file.length;
    switch (st) {
    case IXP_FILE_EREFUSED:
        return ixv_seterr(err, IXS_E_LO, 0, 0,
                          "the client refused file '%.200s' (client files not enabled)", name);
    case IXP_FILE_EOUTSIDE:
        return ixv_seterr(err, IXS_E_LO, 0, 0,
                          "client file '%.200s' is outside the client's allowed directory", name);
    case IXP_FILE_ENOENT:
        return ixv_seterr(err, IXS_E_LO, 0, 0, "client file '%.200s' does not exist", name);
    default:
        if (st < 0) return ixv_seterr(err, IXS_E_LO, 0, 0, "client file '%.200s': I/O error", name);
    }
    return st;
}

static int64_t ask_op(ixs_conn *db, int op, const void *p, size_t n, const char *name, ixp_msg *ans,
                      ixv_err *err) {
    ixb_wbuf req;
    ixb_wbuf_init(&req, NULL);
    ixp_enc_file_req(&req, op, p, n);
    int64_t r = ask(db, &req, op, name, ans, err);
    ixb_wbuf_free(&req);
    return r;
}

/* Opens name on the client (op: IXP_FILE_OPEN_READ or _WRITE). 0 or -1. */
static int client_open(ixs_conn *db, int op, const char *name, ixv_err *err) {
    size_t n = strlen(name);
    if (n < 1 || n > IXP_FILE_NAME_MAX)
        return ixv_seterr(err, IXS_E_LO, 0, 0, "bad file name '%.200s'", name);
    ixp_msg ans;
    return ask_op(db, op, name, n, name, &ans, err) < 0 ? -1 : 0;
}

/* Closes the client's file; rc is what the transfer gave (a failed close
 * after a good transfer fails the call). */
static int client_close(ixs_conn *db, const char *name, int rc, ixv_err *err) {
    ixp_msg ans;
    ixv_err e2 = {0};
    if (ask_op(db, IXP_FILE_CLOSE, NULL, 0, name, &ans, rc ? &e2 : err) < 0) return -1;
    return rc;
}

static int from_client(ixs_conn *db, const char *path, int code, int64_t *id, ixv_err *err) {
    if (client_open(db, IXP_FILE_OPEN_READ, path, err)) return -1;
    int rc = ixs_lob_create(db, code, id, err);
    for (int64_t off = 0; !rc;) {
        ixp_msg ans;
        int64_t k = ask_op(db, IXP_FILE_READ, NULL, CLIENT_PIECE, path, &ans, err);
        if (k < 0) rc = -1;
        if (k <= 0) break;
        size_t pos = 0;
        ixp_bytes ch;
        while (!rc && ixp_lodata_chunk(&ans.u.file, &pos, &ch)) {
            rc = ixs_lob_write_at(db, *id, off, ch.p, ch.n, err);
            off += (int64_t)ch.n;
        }
    }
    return client_close(db, path, rc, err);
}

static int to_client(ixs_conn *db, int64_t id, const char *name, ixv_err *err) {
    int64_t size = ixs_lob_size(db, id, err);
    if (size < 0 || client_open(db, IXP_FILE_OPEN_WRITE, name, err)) return -1;
    uint8_t *buf = malloc(CLIENT_PIECE);
    int rc = buf ? 0 : ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    for (int64_t off = 0; !rc && off < size;) {
        int64_t k = ixs_lob_read_at(db, id, off, buf, CLIENT_PIECE, err);
        ixp_msg ans;
        if (k <= 0 || ask_op(db, IXP_FILE_WRITE, buf, (size_t)k, name, &ans, err) != k) {
            if (k > 0 && !err->sqlcode)
                ixv_seterr(err, IXS_E_LO, 0, 0, "client file '%.200s': short write", name);
            rc = -1;
        }
        off += k;
    }
    free(buf);
    return client_close(db, name, rc, err);
}

/* A new LO of type code holding the file's bytes, read a page at a time. */
static int from_file(ixs_conn *db, const char *path, int code, int64_t *id, ixv_err *err) {
    char real[PATH_MAX];
    if (confine(path, 0, real, sizeof real, err)) return -1;
    int fd = open(real, O_RDONLY | O_NOFOLLOW);
    if (fd < 0)
        return ixv_seterr(err, IXS_E_LO, 0, 0, "cannot open '%.200s': %s", path, strerror(errno));
    uint8_t *buf = malloc(IXS_LO_PAGE);
    int rc = buf ? ixs_lob_create(db, code, id, err) : ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    int64_t off = 0;
    while (!rc) {
        ssize_t k = read(fd, buf, IXS_LO_PAGE);
        if (k < 0 && errno == EINTR) continue;
        if (k < 0) rc = ixv_seterr(err, IXS_E_LO, 0, 0, "cannot read '%.200s'", path);
        if (k <= 0) break;
        rc = ixs_lob_write_at(db, *id, off, buf, (size_t)k, err);
        off += k;
    }
    free(buf);
    close(fd);
    return rc;
}

/* LOTOFILE's file name: path, then "." and the LO id in hexadecimal (as
 * Informix names it), unless path ends with "!" (then path without it). */
static int file_name(const char *path, int64_t id, char *out, size_t cap) {
    size_t n = strlen(path);
    int k = n && path[n - 1] == '!' ? snprintf(out, cap, "%.*s", (int)(n - 1), path)
                                    : snprintf(out, cap, "%s.%llx", path, (unsigned long long)id);
    return k > 0 && (size_t)k < cap ? 0 : -1;
}

static int to_file(ixs_conn *db, int64_t id, const char *name, ixv_err *err) {
    char real[PATH_MAX];
    if (confine(name, 1, real, sizeof real, err)) return -1;
    int64_t size = ixs_lob_size(db, id, err);
    if (size < 0) return -1;
    int fd = open(real, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW, 0644);
    if (fd < 0)
        return ixv_seterr(err, IXS_E_LO, 0, 0, "cannot create '%.200s': %s", name, strerror(errno));
    uint8_t *buf = malloc(IXS_LO_PAGE);
    int rc = buf ? 0 : ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    for (int64_t off = 0; !rc && off < size;) {
        int64_t k = ixs_lob_read_at(db, id, off, buf, IXS_LO_PAGE, err);
        if (k <= 0) {
            rc = -1;
            break;
        }
        for (int64_t w = 0; !rc && w < k;) {
            ssize_t x = write(fd, buf + w, (size_t)(k - w));
            if (x < 0 && errno == EINTR) continue;
            if (x <= 0) rc = ixv_seterr(err, IXS_E_LO, 0, 0, "cannot write '%.200s'", name);
            w += x > 0 ? x : 0;
        }
        off += k;
    }
    free(buf);
    if (close(fd) && !rc) rc = ixv_seterr(err, IXS_E_LO, 0, 0, "cannot write '%.200s'", name);
    return rc;
}

/* LOCOPY: a new LO of the same type with the same bytes. */
static int copy_lo(ixs_conn *db, int64_t id, int64_t *out, ixv_err *err) {
    int64_t size = ixs_lob_size(db, id, err), kind = IXP_LO_XID_BLOB;
    if (size < 0) return -1;
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db->h, "SELECT kind FROM _ixd_lo WHERE id = ?1", -1, &st, NULL) ==
        SQLITE_OK) {
        sqlite3_bind_int64(st, 1, id);
        if (sqlite3_step(st) == SQLITE_ROW) kind = sqlite3_column_int64(st, 0);
        sqlite3_finalize(st);
    }
    uint8_t *buf = malloc(IXS_LO_PAGE);
    int rc = buf ? ixs_lob_create(db, ixv_lob_code((int)kind), out, err)
                 : ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    for (int64_t off = 0; !rc && off < size;) {
        int64_t k = ixs_lob_read_at(db, id, off, buf, IXS_LO_PAGE, err);
        rc = k <= 0 ? -1 : ixs_lob_write_at(db, *out, off, buf, (size_t)k, err);
        off += k;
    }
    free(buf);
    return rc;
}

/* ---- the SQLite function ----------------------------------------------------------------- */

/* Which routine an ixd_lo(...) call is: its last argument. */
enum {
    F_OPEN,
    F_CLOSE,
    F_RELEASE,
    F_CREATE,
    F_SEEK,
    F_SIZE,
    F_LENGTH,
    F_FROMFILE,
    F_TOFILE,
    F_COPY,
    F_COUNT
};

static void fail(sqlite3_context *ctx, const ixv_err *e) {
    ixv_fn_err(ctx, e->sqlcode ? e->sqlcode : IXS_E_LO, e->text);
}

static const char *txt(sqlite3_value *v) {
    return (const char *)sqlite3_value_text(v);
}

/* LOTOFILE(lob, path, location): the name of the file written. */
static void f_tofile(sqlite3_context *ctx, ixs_conn *db, sqlite3_value **argv) {
    ixv_err e = {0};
    char name[PATH_MAX];
    int64_t id = sqlite3_value_int64(argv[0]);
    int where = location(txt(argv[2]), &e);
    if (where < 0) return fail(ctx, &e);
    if (file_name(txt(argv[1]), id, name, sizeof name)) {
        ixv_seterr(&e, IXS_E_LO, 0, 0, "bad file name '%.200s'", txt(argv[1]));
        return fail(ctx, &e);
    }
    if (where ? to_client(db, id, name, &e) : to_file(db, id, name, &e)) return fail(ctx, &e);
    sqlite3_result_text(ctx, name, -1, SQLITE_TRANSIENT);
}

static void f_lo(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    ixs_conn *db = sqlite3_user_data(ctx);
    if (argc < 1) return;
    int which = sqlite3_value_int(argv[--argc]);
    for (int i = 0; i < argc; i++)
        if (sqlite3_value_type(argv[i]) == SQLITE_NULL) return sqlite3_result_null(ctx);
    ixv_err e = {0};
    int64_t a0 = argc ? sqlite3_value_int64(argv[0]) : 0, r = -1;
    switch (which) {
    case F_OPEN: r = ixs_lob_open(db, a0, sqlite3_value_int(argv[1]), &e); break;
    case F_CLOSE: r = ixs_lob_close_fd(db, (int)a0, &e); break;
    case F_RELEASE: r = ixs_lob_size(db, a0, &e) < 0 ? -1 : 0; break;
    case F_CREATE: r = ixs_lob_create(db, ixv_lob_code((int)a0), &a0, &e) ? -1 : a0; break;
    case F_SEEK:
        r = ixs_lob_seek(db, (int)a0, sqlite3_value_int64(argv[1]), sqlite3_value_int(argv[2]), &e);
        break;
    case F_SIZE: r = ixs_lob_fd_size(db, (int)a0, &e); break;
    case F_LENGTH: r = ixs_lob_size(db, a0, &e); break;
    case F_FROMFILE: {
        int where = location(txt(argv[1]), &e), code = ixv_lob_code(sqlite3_value_int(argv[2]));
        if (where >= 0 && !(where ? from_client(db, txt(argv[0]), code, &a0, &e)
                                  : from_file(db, txt(argv[0]), code, &a0, &e)))
            r = a0;
        break;
    }
    case F_TOFILE: return f_tofile(ctx, db, argv);
    case F_COPY: r = copy_lo(db, a0, &a0, &e) ? -1 : a0; break;
    case F_COUNT: r = ixs_lob_count(db); break;
    default: return;
    }
    if (r < 0) return fail(ctx, &e);
    sqlite3_result_int64(ctx, r);
}

/* ixd_lo_gone(): the LO triggers (ixs_lob_gc.c) say a row let go of an LO. */
static void f_gone(sqlite3_context *ctx, int argc, sqlite3_value **argv) {
    (void)argc, (void)argv;
    ixs_conn *db = sqlite3_user_data(ctx);
    if (ixs_lob_sess(db)) db->lob->gone = 1;
}

int ixs_lob_register(sqlite3 *h, ixs_conn *db) {
    return sqlite3_create_function(h, "ixd_lo", -1, SQLITE_UTF8, db, f_lo, NULL, NULL) ||
                   sqlite3_create_function(h, "ixd_lo_gone", 0, SQLITE_UTF8, db, f_gone, NULL, NULL)
               ? -1
               : 0;
}

/* ---- the translator ---------------------------------------------------------------------- */

typedef struct lofn {
    const char *name;
    int min, max, which;
} lofn;

static const lofn fns[] = {
    {"filetoblob", 2, 4, F_FROMFILE}, {"filetoclob", 2, 4, F_FROMFILE},
    {"ifx_lo_close", 1, 1, F_CLOSE},  {"ifx_lo_create", 1, 1, F_CREATE},
    {"ifx_lo_open", 2, 2, F_OPEN},    {"ifx_lo_release", 1, 1, F_RELEASE},
    {"ifx_lo_seek", 3, 3, F_SEEK},    {"ifx_lo_size", 1, 1, F_SIZE},
    {"locopy", 1, 3, F_COPY},         {"lotofile", 3, 3, F_TOFILE},
    {"ixd_lo_count", 0, 0, F_COUNT}, /* ixd's own: the LOs of the database */
};

static const lofn *find(const char *fn) {
    for (size_t i = 0; i < sizeof fns / sizeof fns[0]; i++)
        if (!strcmp(fn, fns[i].name)) return &fns[i];
    return NULL;
}

int ixs_lob_fn(const char *fn) {
    return find(fn) != NULL;
}

/* A LOB argument: a parameter becomes a BLOB (a bound handle of either type
 * or bound bytes fit it); other values must be a BLOB or CLOB. */
static int lob_arg(px *p, xv *v) {
    if (v->k == XK_PARAM) ixs_to_type(p, v, ixv_t(IX_T_BLOB, IXP_LOCATOR_LEN));
    if (v->k == XK_NULL || ixv_lob_is(v->t.code)) return 0;
    return ixs_px_failc(p, IXV_E_NO_CAST, "%s", "that type to BLOB or CLOB");
}

static void int_arg(px *p, xv *v) {
    ixs_to_type(p, v, ixv_t(IX_T_BIGINT, 8));
}

/* ifx_lo_create's argument: the literal 'blob' or 'clob'. */
static int create_kind(px *p, const xv *v) {
    if (v->k == XK_STR && v->lit && !strcasecmp(v->lit, "clob")) return IX_T_CLOB;
    if (v->k == XK_STR && v->lit && !strcasecmp(v->lit, "blob")) return IX_T_BLOB;
    return ixs_px_failc(p, IXS_E_LO, "%s", "ifx_lo_create takes 'blob' or 'clob'");
}

/* ixd_lo(a0, ..., which) with every argument as emitted */
static void call(xv *a, int na, int which, xv *out) {
    ixv_sb_add(&out->s, "ixd_lo(");
    for (int i = 0; i < na; i++)
        ixv_sb_printf(&out->s, "%s,", ixs_xs(&a[i]));
    ixv_sb_printf(&out->s, "%d)", which);
}

int ixs_lob_emit(px *p, const char *fn, xv *a, int na, xv *out) {
    const lofn *f = find(fn);
    if (!f) return -1;
    if (na < f->min || na > f->max) return ixs_px_failc(p, IXV_E_ROUTINE_UNRESOLVED, "%s", fn);
    out->lk = LB_EXPR;
    int code = IX_T_BLOB;
    switch (f->which) {
    case F_FROMFILE: /* path, location [, table, column]: the last two name a column whose
                        storage options Informix would use; ixd has none */
        code = fn[6] == 'c' ? IX_T_CLOB : IX_T_BLOB;
        ixs_as_text(p, &a[0]);
        ixs_as_text(p, &a[1]);
        ixv_sb_printf(&out->s, "ixd_lo(%s,%s,%d,%d)", ixs_xs(&a[0]), ixs_xs(&a[1]),
                      ixv_lob_xid(code), f->which);
        out->t = ixv_t(code, IXP_LOCATOR_LEN);
        break;
    case F_TOFILE:
        if (lob_arg(p, &a[0])) return -1;
        ixs_as_text(p, &a[1]);
        ixs_as_text(p, &a[2]);
        call(a, 3, f->which, out);
        out->t = ixv_t(IX_T_LVARCHAR, 2048);
        break;
    case F_COPY: /* lob [, table, column]: as FILETOBLOB's */
    case F_RELEASE:
        if (lob_arg(p, &a[0])) return -1;
        call(a, 1, f->which, out);
        out->t = f->which == F_COPY ? a[0].t : ixv_t(IX_T_INTEGER, 4);
        break;
    case F_OPEN:
        if (lob_arg(p, &a[0])) return -1;
        int_arg(p, &a[1]);
        call(a, 2, f->which, out);
        out->t = ixv_t(IX_T_INTEGER, 4);
        break;
    case F_CREATE:
        if ((code = create_kind(p, &a[0])) < 0) return -1;
        ixv_sb_printf(&out->s, "ixd_lo(%d,%d)", ixv_lob_xid(code), f->which);
        out->t = ixv_t(code, IXP_LOCATOR_LEN);
        break;
    case F_COUNT:
        ixv_sb_printf(&out->s, "ixd_lo(%d)", f->which);
        out->t = ixv_t(IX_T_BIGINT, 8);
        break;
    default: /* F_CLOSE, F_SEEK, F_SIZE: integer arguments */
        for (int i = 0; i < na; i++)
            int_arg(p, &a[i]);
        call(a, na, f->which, out);
        out->t = f->which == F_CLOSE ? ixv_t(IX_T_INTEGER, 4) : ixv_t(IX_T_BIGINT, 8);
        break;
    }
    return p->failed ? -1 : 0;
}

void ixs_lob_emit_length(px *p, xv *a, xv *out) {
    (void)p;
    ixv_sb_printf(&out->s, "ixd_lo(%s,%d)", ixs_xs(a), F_LENGTH);
}
