/*
 * ixd_fastpath.c: the fast-path routine calls a client makes without SQL
 * (docs/protocol.md "SQ_GETROUTINE (101)", "SQ_EXFPROUTINE (102)",
 * "SQ_FPROUTINE (103)"): SQ_GETROUTINE looks a routine up by its signature
 * in a fixed table and answers the current database and a routine handle;
 * SQ_EXFPROUTINE calls the routine of a handle with its arguments and
 * answers SQ_FPROUTINE with the results. The routines are the smart-LOB
 * ones a real server is reached through this way: ifx_lo_create (the
 * three-argument form) and ifx_lo_close. They run on the same store and
 * descriptors as the SQL routines (src/server/sql/ixs_lob.c).
 */
#include <string.h>
#include <strings.h>

#include "ixd_int.h"
#include "proto/ix_fastpath.h"
#include "proto/ix_lob.h"
#include "server/sql/ixs_lob.h"

enum {
    IXD_E_FP_UNRESOLVED = IXV_E_ROUTINE_UNRESOLVED, /* Routine (%s) can not be resolved. */
    IXD_E_FP_NO_DB = IXV_E_NO_DB_SELECTED,          /* Database not selected yet. */
};

#define SIG_TEXT_MAX 200 /* signature bytes quoted in an error's text */

/* The routines, by handle (the index + 1). */
typedef enum fp_routine {
    FP_LO_CREATE_BLOB = 1,
    FP_LO_CREATE_CLOB = 2,
    FP_LO_CLOSE = 3,
} fp_routine;

static const char *const signatures[] = {
    [FP_LO_CREATE_BLOB] = IXP_FP_LO_CREATE_BLOB,
    [FP_LO_CREATE_CLOB] = IXP_FP_LO_CREATE_CLOB,
    [FP_LO_CLOSE] = IXP_FP_LO_CLOSE,
};
#define FP_COUNT ((int)(sizeof signatures / sizeof signatures[0]))

/* 1 when c is a blank the signature comparison skips. */
static int blank(int c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static int lower(int c) {
    return c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c;
}

/* 1 when the signature p[0..n) is want with case and blanks ignored. */
static int sig_equal(const uint8_t *p, size_t n, const char *want) {
    size_t i = 0;
    for (;; want++) {
        while (i < n && blank(p[i]))
            i++;
        while (*want && blank((unsigned char)*want))
            want++;
        if (!*want || i == n) return !*want && i == n;
        if (lower(p[i]) != lower((unsigned char)*want)) return 0;
        i++;
    }
}

/* The handle of the routine whose signature is p[0..n), or 0. */
static int find_routine(const uint8_t *p, size_t n) {
    for (int h = 1; h < FP_COUNT; h++)
        if (signatures[h] && sig_equal(p, n, signatures[h])) return h;
    return 0;
}

/* Fills err with -674 naming the signature (printable bytes only); -1. */
static int unresolved(const uint8_t *p, size_t n, ixv_err *err) {
    char sig[SIG_TEXT_MAX + 1];
    size_t k = n < SIG_TEXT_MAX ? n : SIG_TEXT_MAX;
    for (size_t i = 0; i < k; i++)
        sig[i] = p[i] >= 0x20 && p[i] < 0x7f ? (char)p[i] : '?';
    sig[k] = 0;
    return ixv_seterr(err, IXD_E_FP_UNRESOLVED, 0, 0, "%s", sig);
}

int ixd_fp_getroutine(ixd_db *db, const ixp_getroutine *g, ixb_wbuf *reply, ixv_err *err) {
    if (!db) return ixv_seterr(err, IXD_E_FP_NO_DB, 0, 0, NULL);
    int h = find_routine(g->sig.p, g->sig.n);
    if (!h) return unresolved(g->sig.p, g->sig.n, err);
    ixp_enc_getroutine_reply(reply, db->x.name, strlen(db->x.name), h);
    return 0;
}

/* ---- the routines ------------------------------------------------------------------------ */

/* Reads the nargs argument records of e into v (at most max). Returns the
 * count read. */
static int read_args(const ixp_exfp *e, ixp_fpvalue *v, int max) {
    size_t pos = 0;
    int k = 0;
    while (k < max && ixp_fp_value_next(&e->args, &pos, &v[k]))
        k++;
    return k;
}

/* 1 when v is a non-NULL integer argument. */
static int int_arg(const ixp_fpvalue *v) {
    int code = v->type & IXP_FP_TYPE_MASK;
    return !v->is_null && (code == IX_T_INTEGER || code == IX_T_SMALLINT || code == IX_T_SERIAL);
}

/* 1 when v is a UDT argument (NULL or not). */
static int udt_arg(const ixp_fpvalue *v) {
    int code = v->type & IXP_FP_TYPE_MASK;
    return code == IX_T_UDTVAR || code == IX_T_UDTFIXED || code == IXP_FP_T_SENDRECV;
}

/* The ifx_lo_spec argument: 596 bytes starting with the magic da da fe ed
 * (docs/protocol.md "Smart-LOB routines"). 0, or -1 with err set. */
static int check_spec(const ixp_fpvalue *v, ixv_err *err) {
    if (v->is_null || v->data.n != IXP_LO_SPEC_LEN || ixb_be32(v->data.p) != IXP_LO_SPEC_MAGIC)
        return ixv_seterr(err, IXS_E_LO, 0, 0, "bad ifx_lo_spec (%d bytes starting da da fe ed)",
                          IXP_LO_SPEC_LEN);
    return 0;
}

/* Makes a new LO of type code and opens it with mode, under one savepoint,
 * so that a failed open (a bad mode, no descriptor left) leaves no LO.
 * Returns the descriptor with *id set, or -1 with err set. */
static int create_open(ixd_db *db, int code, int mode, int64_t *id, ixv_err *err) {
    int sp = sqlite3_exec(db->x.h, "SAVEPOINT ixd_fp_create", NULL, NULL, NULL) == SQLITE_OK;
    int fd = ixs_lob_create(&db->x, code, id, err) ? -1 : ixs_lob_open(&db->x, *id, mode, err);
    if (sp)
        sqlite3_exec(db->x.h,
                     fd < 0 ? "ROLLBACK TO ixd_fp_create; RELEASE ixd_fp_create"
                            : "RELEASE ixd_fp_create",
                     NULL, NULL, NULL);
    return fd;
}

/* ifx_lo_create(ifx_lo_spec, integer, blob|clob): a new LO of type code,
 * opened with the mode; answers its handle and the descriptor. */
static int lo_create(ixd_db *db, int code, const ixp_exfp *e, ixb_wbuf *reply, ixv_err *err) {
    ixp_fpvalue v[3];
    if (e->nargs != 3 || read_args(e, v, 3) != 3 || !udt_arg(&v[0]) || !int_arg(&v[1]) ||
        !udt_arg(&v[2]))
        return ixv_seterr(err, IXD_E_FP_UNRESOLVED, 0, 0, "ifx_lo_create");
    if (check_spec(&v[0], err)) return -1;
    int64_t id = 0;
    int fd = create_open(db, code, v[1].i32, &id, err);
    if (fd < 0) return -1;
    ixp_locator l = {ixv_lob_xid(code), id};
    uint8_t h[IXP_LOCATOR_LEN];
    ixp_locator_encode(&l, h);
    ixp_enc_fpresult(reply, 2);
    ixp_enc_fp_udt(reply, IX_T_UDTFIXED, "informix", code == IX_T_CLOB ? "clob" : "blob", h,
                   sizeof h);
    ixp_enc_fp_int(reply, fd);
    return 0;
}

/* ifx_lo_close(integer): closes the descriptor; answers 0. */
static int lo_close(ixd_db *db, const ixp_exfp *e, ixb_wbuf *reply, ixv_err *err) {
    ixp_fpvalue v;
    if (e->nargs != 1 || read_args(e, &v, 1) != 1 || !int_arg(&v))
        return ixv_seterr(err, IXD_E_FP_UNRESOLVED, 0, 0, "ifx_lo_close");
    if (ixs_lob_close_fd(&db->x, v.i32, err)) return -1;
    ixs_lob_stmt_end(&db->x); /* as after the SQL routine: an LO let go may go */
    ixp_enc_fpresult(reply, 1);
    ixp_enc_fp_int(reply, 0);
    return 0;
}

int ixd_fp_call(ixd_db *db, const ixp_exfp *e, ixb_wbuf *reply, ixv_err *err) {
    if (!db) return ixv_seterr(err, IXD_E_FP_NO_DB, 0, 0, NULL);
    size_t dn = strlen(db->x.name);
    if (e->db.n != dn || strncasecmp((const char *)e->db.p, db->x.name, dn))
        return ixv_seterr(err, IXD_E_FP_UNRESOLVED, 0, 0, "routine handle %d of another database",
                          (int)e->handle);
    switch (e->handle) {
    case FP_LO_CREATE_BLOB: return lo_create(db, IX_T_BLOB, e, reply, err);
    case FP_LO_CREATE_CLOB: return lo_create(db, IX_T_CLOB, e, reply, err);
    case FP_LO_CLOSE: return lo_close(db, e, reply, err);
    default: return ixv_seterr(err, IXD_E_FP_UNRESOLVED, 0, 0, "routine handle %d", (int)e->handle);
    }
}
