/*
 * ixd's fast-path routine calls over the wire (src/server/ixd_fastpath.c),
 * with and without --strict: SQ_GETROUTINE for the ifx_lo_create and
 * ifx_lo_close signatures (case and blanks ignored), SQ_EXFPROUTINE creating
 * an LO (the new handle and an open descriptor come back in SQ_FPROUTINE),
 * SQ_LODATA writing and reading on that descriptor, the close; the errors
 * (unknown signature -674, unknown handle or database -674, a bad
 * ifx_lo_spec -9810, no database -349); the SQL open of an LO named by the
 * 144 hex digits of its handle cast to BLOB / CLOB; malformed messages
 * dropping the connection while the server goes on.
 */
#include "harness.h"
#include "proto/ix_fastpath.h"
#include "proto/ix_lob.h"
#include "tap.h"

#define E_UNRESOLVED (-674)
#define E_NO_DB      (-349)
#define E_LO         (-9810)
#define E_NO_CAST    (-9634)
#define TEXT         "bytes written through a descriptor from the fast path"

/* What one answer group held: its tags, the error, the 101 answer, the
 * values of a 103 (integers, and the first UDT's bytes) and a LODATA's. */
typedef struct fpans {
    int ntags;
    int tags[32];
    int sqlcode;
    char errtext[256];
    char db[130];
    int32_t handle;
    int count;
    int32_t ints[8];
    int nints;
    int udt_type;
    char udt_name[32];
    uint8_t udt[IXP_LOCATOR_LEN];
    size_t udt_n;
    int32_t lo_size;
    char lo_data[256];
} fpans;

/* Copies a 103's values into a. */
static void take_values(const ixp_msg *m, fpans *a) {
    size_t pos = 0;
    ixp_fpvalue v;
    a->count = m->u.fpresult.count;
    while (ixp_fp_value_next(&m->u.fpresult.vals, &pos, &v)) {
        if (v.data.n) {
            a->udt_type = v.type;
            snprintf(a->udt_name, sizeof a->udt_name, "%.*s", (int)v.name.n,
                     (const char *)v.name.p);
            a->udt_n = v.data.n < sizeof a->udt ? v.data.n : sizeof a->udt;
            memcpy(a->udt, v.data.p, a->udt_n);
        } else if (a->nints < 8) {
            a->ints[a->nints++] = v.i32;
        }
    }
}

/* Copies the bytes of a LODATA reply into a (as text). */
static void take_lodata(const ixp_msg *m, fpans *a) {
    a->lo_size = m->u.lodata.length;
    size_t pos = 0, off = 0;
    ixp_bytes ch;
    while (ixp_lodata_chunk(&m->u.lodata, &pos, &ch) && off + ch.n < sizeof a->lo_data) {
        memcpy(a->lo_data + off, ch.p, ch.n);
        off += ch.n;
    }
    a->lo_data[off] = 0;
}

/* Sends what is in c->out and reads the answer up to its EOT into *a.
 * Returns 0, or -1 when the connection failed. */
static int fp_exchange(tconn *c, fpans *a) {
    memset(a, 0, sizeof *a);
    if (tconn_flush(c)) return -1;
    ixp_msg m;
    while (tconn_next(c, &m) == IX_OK) {
        if (a->ntags < 32) a->tags[a->ntags++] = m.tag;
        if (m.tag == IXP_SQ_ERR) {
            a->sqlcode = m.u.err.sqlcode;
            snprintf(a->errtext, sizeof a->errtext, "%.*s", (int)m.u.err.msg.n,
                     (const char *)m.u.err.msg.p);
        } else if (m.tag == IXP_SQ_GETROUTINE) {
            snprintf(a->db, sizeof a->db, "%.*s", (int)m.u.getroutine.db.n,
                     (const char *)m.u.getroutine.db.p);
            a->handle = m.u.getroutine.handle;
        } else if (m.tag == IXP_SQ_FPROUTINE) {
            take_values(&m, a);
        } else if (m.tag == IXP_SQ_LODATA) {
            take_lodata(&m, a);
        }
        if (m.tag == IXP_SQ_EOT) return 0;
    }
    return -1;
}

/* 1 when a's tags are exactly the n given. */
static int tags_are(const fpans *a, const int *want, int n) {
    if (a->ntags != n) return 0;
    for (int i = 0; i < n; i++)
        if (a->tags[i] != want[i]) return 0;
    return 1;
}

/* SQ_GETROUTINE for sig + EOT; the handle, or 0 (a has the answer). */
static int32_t get_routine(tconn *c, const char *sig, fpans *a) {
    ixp_enc_getroutine(&c->out, sig, strlen(sig));
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    if (fp_exchange(c, a)) return 0;
    return a->handle;
}

/* The 596-byte ifx_lo_spec as LSQ fills it: the magic, then defaults. */
static void make_spec(uint8_t spec[IXP_LO_SPEC_LEN]) {
    memset(spec, 0, IXP_LO_SPEC_LEN);
    ixb_st32(spec, IXP_LO_SPEC_MAGIC);
    memset(spec + 168 + 404, 0xff, 8);
}

/* SQ_EXFPROUTINE of a create (handle h, database db) with mode and spec. */
static int call_create(tconn *c, const char *db, int32_t h, int mode, const uint8_t *spec,
                       fpans *a) {
    static const uint8_t zero[IXP_LOCATOR_LEN];
    ixp_enc_exfp(&c->out, db, strlen(db), h, 3);
    ixp_enc_fp_udt(&c->out, IXP_FP_T_SENDRECV, "", "ifx_lo_spec", spec, IXP_LO_SPEC_LEN);
    ixp_enc_fp_int(&c->out, mode);
    ixp_enc_fp_udt(&c->out, IXP_FP_T_SENDRECV, "", "blob", zero, sizeof zero);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    return fp_exchange(c, a);
}

/* SQ_EXFPROUTINE of a close (handle h) of fd. */
static int call_close(tconn *c, const char *db, int32_t h, int fd, fpans *a) {
    ixp_enc_exfp(&c->out, db, strlen(db), h, 1);
    ixp_enc_fp_int(&c->out, fd);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    return fp_exchange(c, a);
}

/* The 144 lowercase hex digits of a handle into out (145 bytes). */
static void hex_of(const uint8_t *h, char *out) {
    for (size_t i = 0; i < IXP_LOCATOR_LEN; i++)
        snprintf(out + 2 * i, 3, "%02x", h[i]);
}

/* Opens the LO of handle h through SQL in LSQ's form; the fd or -1. */
static int sql_open(tconn *c, const uint8_t *h, const char *type, int *sqlcode) {
    char hex[2 * IXP_LOCATOR_LEN + 1], sql[400], buf[64];
    hex_of(h, hex);
    snprintf(sql, sizeof sql, "SELECT ifx_lo_open('%s'::%s, 4) FROM sysmaster:sysdual", hex, type);
    treply r = {0};
    int rc = tconn_select(c, sql, 4096, &r, NULL);
    *sqlcode = r.sqlcode;
    int fd = rc == 0 && r.ntuples == 1 ? atoi(treply_value(&r, 0, 0, buf, sizeof buf)) : -1;
    ixb_wbuf_free(&r.tuples);
    return fd;
}

/* The create, write, read back and close of one LO of type `type`
 * (signature sig, "blob" or "clob" in its handle). */
static void create_write_read(tconn *c, const char *sig, const char *type, int kind) {
    fpans a;
    static const int look_tags[] = {IXP_SQ_GETROUTINE, IXP_SQ_DONE, IXP_SQ_EOT};
    int32_t h = get_routine(c, sig, &a);
    CHECK(h > 0 && !strcmp(a.db, "fp") && tags_are(&a, look_tags, 3),
          "%s: 101 answers database, handle %d, then DONE and EOT (%d tags, %d %s)", type, h,
          a.ntags, a.sqlcode, a.errtext);
    uint8_t spec[IXP_LO_SPEC_LEN];
    make_spec(spec);
    static const int call_tags[] = {IXP_SQ_FPROUTINE, IXP_SQ_DONE, IXP_SQ_COST, IXP_SQ_EOT};
    CHECK(call_create(c, "fp", h, IXP_LO_RDWR, spec, &a) == 0 && tags_are(&a, call_tags, 4) &&
              a.count == 2 && a.nints == 1 && a.udt_n == IXP_LOCATOR_LEN &&
              (a.udt_type & IXP_FP_TYPE_MASK) == IX_T_UDTFIXED && !strcmp(a.udt_name, type),
          "%s: 102 answers 103 (handle, fd), DONE, COST, EOT (%d %s)", type, a.sqlcode, a.errtext);
    ixp_locator l = {0};
    CHECK(ixp_locator_decode(a.udt, a.udt_n, &l) == IX_OK && l.kind == kind, "%s: a handle", type);
    uint8_t handle[IXP_LOCATOR_LEN];
    memcpy(handle, a.udt, sizeof handle);
    int fd = a.ints[0];
    CHECK(fd >= 0, "%s: an fd (%d)", type, fd);
    ixp_enc_lo_write(&c->out, fd, TEXT, strlen(TEXT));
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    CHECK(fp_exchange(c, &a) == 0 && a.sqlcode == 0 && a.lo_size == (int32_t)strlen(TEXT),
          "%s: SQ_LODATA write on the fd (%d %s)", type, a.sqlcode, a.errtext);
    ixp_enc_lo_readseek(&c->out, fd, 1000, 0, IXP_LO_SEEK_SET);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    CHECK(fp_exchange(c, &a) == 0 && !strcmp(a.lo_data, TEXT),
          "%s: SQ_LODATA read after a seek gives the bytes back (%d %s)", type, a.sqlcode,
          a.errtext);
    int32_t hc = get_routine(c, "FUNCTION Informix.IFX_LO_CLOSE ( INTEGER )", &a);
    CHECK(hc > 0 && hc != h, "close: its own handle (%d)", hc);
    CHECK(call_close(c, "fp", hc, fd, &a) == 0 && a.count == 1 && a.nints == 1 && a.ints[0] == 0,
          "%s: close answers 0 (%d %s)", type, a.sqlcode, a.errtext);
    CHECK(call_close(c, "fp", hc, fd, &a) == 0 && a.sqlcode == E_LO,
          "%s: closing it again: -9810 (%d)", type, a.sqlcode);
    /* the SQL open of the handle as hex, then a read on that fd */
    int code = 0;
    int fd2 = sql_open(c, handle, type, &code);
    CHECK(fd2 >= 0, "%s: SQL open of the hex handle (%d)", type, code);
    ixp_enc_lo_read(&c->out, fd2, 1000);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    CHECK(fp_exchange(c, &a) == 0 && !strcmp(a.lo_data, TEXT), "%s: read through it (%d %s)", type,
          a.sqlcode, a.errtext);
    CHECK(call_close(c, "fp", hc, fd2, &a) == 0 && a.sqlcode == 0, "%s: fast-path close of it",
          type);
}

/* The errors a call can get; the session goes on after each. */
static void errors(tconn *c) {
    fpans a;
    static const int err_tags[] = {IXP_SQ_ERR, IXP_SQ_EOT};
    CHECK(get_routine(c, "function informix.no_such(integer)", &a) == 0 &&
              a.sqlcode == E_UNRESOLVED && tags_are(&a, err_tags, 2) &&
              strstr(a.errtext, "no_such"),
          "unknown signature: -674 (%d %s)", a.sqlcode, a.errtext);
    CHECK(get_routine(c, "function informix.ifx_lo_close(integer, integer)", &a) == 0 &&
              a.sqlcode == E_UNRESOLVED,
          "another argument list: -674 (%d)", a.sqlcode);
    CHECK(call_close(c, "fp", 999, 0, &a) == 0 && a.sqlcode == E_UNRESOLVED,
          "unknown handle: -674 (%d)", a.sqlcode);
    int32_t hc = get_routine(c, IXP_FP_LO_CLOSE, &a);
    CHECK(call_close(c, "otherdb", hc, 0, &a) == 0 && a.sqlcode == E_UNRESOLVED,
          "another database: -674 (%d)", a.sqlcode);
    int32_t h = get_routine(c, IXP_FP_LO_CREATE_BLOB, &a);
    uint8_t spec[IXP_LO_SPEC_LEN];
    make_spec(spec);
    spec[3] = 0xee;
    CHECK(call_create(c, "fp", h, IXP_LO_RDWR, spec, &a) == 0 && a.sqlcode == E_LO,
          "spec without its magic: -9810 (%d %s)", a.sqlcode, a.errtext);
    CHECK(call_close(c, "fp", h, 0, &a) == 0 && a.sqlcode == E_UNRESOLVED,
          "create with one argument: -674 (%d)", a.sqlcode);
    char before[32], after[32];
    tconn_value(c, "SELECT ixd_lo_count() FROM sysmaster:sysdual", before, sizeof before);
    make_spec(spec);
    CHECK(call_create(c, "fp", h, IXP_LO_RDONLY | IXP_LO_WRONLY, spec, &a) == 0 &&
              a.sqlcode == E_LO && strstr(a.errtext, "conflicting"),
          "create with conflicting open flags: -9810 (%d %s)", a.sqlcode, a.errtext);
    tconn_value(c, "SELECT ixd_lo_count() FROM sysmaster:sysdual", after, sizeof after);
    CHECK(strcmp(before, "ERR") && !strcmp(before, after), "and leaves no LO (%s, %s)", before,
          after);
    int code = 0;
    uint8_t bad[IXP_LOCATOR_LEN] = {1, 2, 3};
    CHECK(sql_open(c, bad, "blob", &code) < 0 && code == E_NO_CAST,
          "SQL open of a string that is no handle: -9634 (%d)", code);
    treply r = {0};
    CHECK(tconn_exec(c, "SELECT ifx_lo_open('abc'::BLOB, 4) FROM sysmaster:sysdual", &r) ==
                  E_NO_CAST &&
              strstr(r.errtext, "144 hex digits"),
          "a short string: -9634 naming the form (%s)", r.errtext);
    ixb_wbuf_free(&r.tuples);
    CHECK(get_routine(c, IXP_FP_LO_CLOSE, &a) > 0, "the session goes on");
}

/* A malformed message drops the connection; the server goes on. */
static void malformed(int port, const uint8_t *p, size_t n, const char *label) {
    tconn c;
    CHECK(tconn_login(&c, port, "informix", "in4mix", "fp") == 0, "%s: login", label);
    ixb_put_bytes(&c.out, p, n);
    fpans a;
    CHECK(fp_exchange(&c, &a) != 0 && c.closed, "%s: connection dropped", label);
    tconn_close(&c);
    CHECK(tconn_login(&c, port, "informix", "in4mix", "fp") == 0 &&
              get_routine(&c, IXP_FP_LO_CLOSE, &a) > 0,
          "%s: ixd answers the next client", label);
    tconn_close(&c);
}

static void malformed_all(int port) {
    /* 101 with its one-byte flag set */
    static const uint8_t flag[] = {0x00, 0x65, 0x01, 0x00, 0x00, 0x00, 0x01,
                                   'f',  0x00, 0x00, 0x00, 0x00, 0x0c};
    malformed(port, flag, sizeof flag, "101 flag 1");
    /* 101 with a signature of 0 bytes */
    static const uint8_t empty[] = {0x00, 0x65, 0x00, 0x00, 0x00, 0x00,
                                    0x00, 0x00, 0x00, 0x00, 0x0c};
    malformed(port, empty, sizeof empty, "101 empty signature");
    /* 102 with an indicator of 5 */
    static const uint8_t ind[] = {0x00, 0x66, 0x00, 0x02, 'f',  'p',  0x00, 0x00, 0x00, 0x01,
                                  0x00, 0x01, 0x00, 0x00, 0x00, 0x05, 0x00, 0x01, 0x00, 0x02,
                                  0x00, 0x05, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0c};
    malformed(port, ind, sizeof ind, "102 indicator 5");
    /* 102 with a FLOAT argument */
    uint8_t flt[sizeof ind];
    memcpy(flt, ind, sizeof ind);
    flt[19] = IX_T_FLOAT;
    flt[21] = 0;
    malformed(port, flt, sizeof flt, "102 FLOAT argument");
    /* 103 is the server's */
    static const uint8_t res[] = {0x00, 0x67, 0x00, 0x00, 0x00, 0x0c};
    malformed(port, res, sizeof res, "103 from a client");
}

static void run(const char *mode) {
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, mode) == 0, "ixd starts (%s)", mode ? mode : "normal");
    if (tap_fail) return;
    tconn c;
    fpans a;
    CHECK(tconn_login(&c, p.port, "informix", "in4mix", NULL) == 0, "login");
    CHECK(get_routine(&c, IXP_FP_LO_CREATE_BLOB, &a) == 0 && a.sqlcode == E_NO_DB,
          "no database: -349 (%d)", a.sqlcode);
    treply r = {0};
    CHECK(tconn_exec(&c, "CREATE DATABASE fp WITH LOG", &r) == 0, "create database (%d %s)",
          r.sqlcode, r.errtext);
    ixb_wbuf_free(&r.tuples);
    create_write_read(&c, IXP_FP_LO_CREATE_BLOB, "blob", IXP_LO_XID_BLOB);
    create_write_read(&c, "function informix.ifx_lo_create(ifx_lo_spec, integer, CLOB)", "clob",
                      IXP_LO_XID_CLOB);
    errors(&c);
    tconn_close(&c);
    malformed_all(p.port);
    int st = ixd_stop(&p, SIGTERM);
    CHECK(WIFEXITED(st) && WEXITSTATUS(st) == 0, "ixd ends cleanly (status %d)", st);
    if (!tap_fail)
        ixd_rmdir(&p);
    else
        fprintf(stderr, "data and log kept in %s\n", p.dir);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    run(NULL);
    run("--strict");
    return tap_done();
}
