/* test_sess_bindgroup.c: a session's one-step SQ_ID, SQ_BIND, SQ_EXECUTE,
 * SQ_EOT group (ixd_sess_fast_groups) and its fetch replies made in one
 * engine call (ixd_sess_fetch_batch) against the same input handled
 * message by message and row by row: the replies must be the same bytes, and so must the
 * rows the table holds afterwards (read back through the same session), in
 * normal and strict mode, fed at once and a byte at a time. The input
 * covers every bind type ixd_bind_wire takes, NULLs, values it leaves to
 * the general path (out of range, too long, DECIMAL), a wrong value count,
 * a duplicate key, an unknown id, a cursor's id, groups inside a
 * transaction and an error that follows a BEGIN; the rows are read back
 * in replies of every size (one row each, a few, all). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/ix_caps.h"
#include "proto/ix_login.h"
#include "proto/ix_reader.h"
#include "engine_run.h"
#include "server/session/ixd_server.h"
#include "tap.h"
#include "types/ix_types.h"

static ixp_caps caps;
/* where the login groups end in the input: strict mode reads a login group
 * sent before the previous one's answer as a pipelining client's */
static size_t login_end[2];

static void put_val(ixb_wbuf *b, int type, int ind, const void *v, size_t n) {
    ixb_put_i16(b, type);
    ixb_put_i16(b, ind);
    ixb_put_i16(b, 0);
    if (ind == IXP_IND_VALUE) {
        ixb_put_bytes(b, v, n);
        ixb_put_pad(b, n);
    }
}

static void put_int(ixb_wbuf *b, int type, int w, uint64_t x) {
    uint8_t v[8];
    for (int i = w; i-- > 0; x >>= 8)
        v[i] = (uint8_t)x;
    put_val(b, type, IXP_IND_VALUE, v, (size_t)w);
}

static void put_str(ixb_wbuf *b, int type, const char *s) {
    size_t n = strlen(s);
    uint8_t v[300] = {(uint8_t)(n >> 8), (uint8_t)n};
    memcpy(v + 2, s, n);
    put_val(b, type, IXP_IND_VALUE, v, n + 2);
}

static void put_float(ixb_wbuf *b, double d) {
    uint64_t u;
    memcpy(&u, &d, 8);
    put_int(b, IX_T_FLOAT, 8, u);
}

/* ID id, BIND of count values (vals), EXECUTE, EOT. */
static void group(ixb_wbuf *in, int id, int count, const ixb_wbuf *vals) {
    ixp_enc_id(in, id);
    ixb_put_i16(in, IXP_SQ_BIND);
    ixb_put_i16(in, count);
    ixb_put_bytes(in, vals->data, vals->len);
    ixp_enc_tag(in, IXP_SQ_EXECUTE);
    ixp_enc_tag(in, IXP_SQ_EOT);
}

static void prepare(ixb_wbuf *in, const char *sql) {
    ixp_enc_prepare(in, &caps, 0, sql, strlen(sql));
    ixp_enc_tag(in, IXP_SQ_EOT);
}

/* The whole input after the login. */
static void input(ixb_wbuf *in) {
    ixp_conreq req;
    ixp_conreq_defaults(&req, "informix", "in4mix", "ixd");
    ixp_conreq_encode(&req, in);
    ixp_enc_protocols(in, ixp_caps_jdbc_offer, sizeof ixp_caps_jdbc_offer);
    ixp_enc_tag(in, IXP_SQ_EOT);
    login_end[0] = in->len;
    ixp_enc_dbopen(in, "bg", 2, 0);
    ixp_enc_tag(in, IXP_SQ_EOT);
    login_end[1] = in->len;
    prepare(in, "INSERT INTO t (id, s, i, b, f, sf, d, v, nv) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)");
    prepare(in, "SELECT * FROM t ORDER BY id"); /* id 1, a cursor */
    prepare(in, "INSERT INTO u VALUES (?, ?)"); /* id 2: DECIMAL */
    ixb_wbuf v;
    ixb_wbuf_init(&v, NULL);
    for (int row = 0; row < 40; row++) {
        ixb_wbuf_reset(&v);
        int key = row % 17 == 16 ? 3 : row; /* a duplicate now and then */
        put_int(&v, IX_T_INTEGER, 4, (uint32_t)key);
        if (row % 5 == 1)
            put_val(&v, IX_T_SMALLINT, IXP_IND_NULL, NULL, 0);
        else
            put_int(&v, row % 7 == 3 ? IX_T_INTEGER : IX_T_SMALLINT, row % 7 == 3 ? 4 : 2,
                    row % 7 == 3 ? 70000u : (uint16_t)(row * 3 - 20)); /* 70000: no SMALLINT */
        put_int(&v, row % 3 ? IX_T_INTEGER : IX_T_SERIAL, 4, (uint32_t)(row * 1000));
        put_int(&v, row % 2 ? IX_T_BIGINT : IX_T_BIGSERIAL, 8, (uint64_t)row << 35);
        if (row % 6 == 2)
            put_val(&v, IX_T_FLOAT, IXP_IND_NULL, NULL, 0);
        else
            put_float(&v, row * 1.25);
        if (row % 4 == 1) {
            uint8_t big[4] = {0x7f, 0x7f, 0xff, 0xff}; /* SMALLFLOAT's largest */
            put_val(&v, IX_T_SMALLFLOAT, IXP_IND_VALUE, big, 4);
        } else {
            put_int(&v, row % 4 == 2 ? IX_T_INTEGER : IX_T_SMALLFLOAT, 4,
                    row % 4 == 2 ? (uint32_t)row : 0x3fc00000u);
        }
        put_int(&v, IX_T_DATE, 4, (uint32_t)(45000 + row));
        if (row % 9 == 4)
            put_val(&v, IX_T_VARCHAR, IXP_IND_NULL, NULL, 0);
        else
            put_str(&v, IX_T_VARCHAR, row % 8 == 5 ? "a string longer than twenty" : "abc");
        put_str(&v, IX_T_NVARCHAR, row % 2 ? "" : "nv");
        int count = row == 12 ? 8 : 9;                           /* one with too few values */
        if (row == 12) v.len -= 2 + 6 + 2;                       /* drop the NVARCHAR "nv" */
        group(in, row == 20 ? 9 : row == 21 ? 1 : 0, count, &v); /* unknown id, a cursor */
        if (row == 25) { /* a transaction: groups inside, an error inside */
            ixp_enc_tag(in, IXP_SQ_BEGIN);
            ixp_enc_tag(in, IXP_SQ_EOT);
        }
        if (row == 30) {
            ixp_enc_tag(in, IXP_SQ_CMMTWORK);
            ixp_enc_tag(in, IXP_SQ_EOT);
        }
    }
    /* DECIMAL binds: the general path inside the group */
    for (int row = 0; row < 3; row++) {
        ixb_wbuf_reset(&v);
        put_int(&v, IX_T_INTEGER, 4, (uint32_t)row);
        uint8_t dec[4] = {0, 3, 0xc1, (uint8_t)(10 + row)};
        put_val(&v, IX_T_DECIMAL, IXP_IND_VALUE, dec, 4);
        group(in, 2, 2, &v);
    }
    ixb_wbuf_free(&v);
    /* the rows back (id 1 keeps the binds sent to it above), in replies of
     * every size: one row each (a buffer of 1 byte), a few, all */
    prepare(in, "SELECT * FROM t ORDER BY id");
    static const int32_t sizes[] = {32000, 1, 60, 200, 1000};
    for (size_t k = 0; k < sizeof sizes / sizeof *sizes; k++) {
        ixp_enc_id(in, 3);
        ixp_enc_curname(in, "c1", 2);
        ixp_enc_tag(in, IXP_SQ_OPEN);
        ixp_enc_tag(in, IXP_SQ_EOT);
        for (int f = 0; f < (sizes[k] < 1000 ? 45 : 3); f++) {
            ixp_enc_id(in, 3);
            ixp_enc_nfetch(in, &caps, sizes[k]);
            ixp_enc_tag(in, IXP_SQ_EOT);
        }
        ixp_enc_id(in, 3);
        ixp_enc_tag(in, IXP_SQ_CLOSE);
        ixp_enc_tag(in, IXP_SQ_EOT);
    }
    ixp_enc_id(in, 3);
    ixp_enc_curname(in, "c1", 2);
    ixp_enc_tag(in, IXP_SQ_OPEN);
    ixp_enc_nfetch(in, &caps, 32000);
    ixp_enc_tag(in, IXP_SQ_EOT);
    prepare(in, "SELECT * FROM u ORDER BY a");
    ixp_enc_id(in, 4);
    ixp_enc_curname(in, "c2", 2);
    ixp_enc_tag(in, IXP_SQ_OPEN);
    ixp_enc_nfetch(in, &caps, 32000);
    ixp_enc_tag(in, IXP_SQ_EOT);
    ixp_enc_tag(in, IXP_SQ_EXIT);
}

/* The replies of a fresh database to the input, fed in chunks of `chunk`
 * bytes (0: at once). */
static void replies(int fast, int strict, size_t chunk, const ixb_wbuf *in, ixb_wbuf *out) {
    char dir[80], cmd[128];
    snprintf(dir, sizeof dir, "/tmp/ixd_test_bindgroup_%d_%d%d", (int)getpid(), fast, strict);
    ixd_engine *E = NULL;
    ixd_db *D = NULL;
    ixv_err e = {0};
    if (ixd_engine_open(&E, dir, &e)) {
        CHECK(0, "engine opens in %s (%d)", dir, e.sqlcode);
        return;
    }
    int bad = engine_run(E, &D, "CREATE DATABASE bg WITH LOG") ||
              engine_run(E, &D,
                         "CREATE TABLE t (id INTEGER PRIMARY KEY, s SMALLINT, i INTEGER, b BIGINT, "
                         "f FLOAT, sf SMALLFLOAT, d DATE, v VARCHAR(20), nv NVARCHAR(10))") ||
              engine_run(E, &D, "CREATE TABLE u (a INTEGER, m DECIMAL(8,2))");
    CHECK(!bad, "set up");
    ixd_db_close(D);
    ixd_server srv = {.data_dir = dir, .server_name = "ixd", .banner = "test", .engine = E};
    srv.strict = strict;
    pthread_mutex_init(&srv.log_lock, NULL);
    char err[128];
    ixd_users_load(&srv.users, NULL, err, sizeof err);
    ixd_sess_fast_groups = fast;
    ixd_sess_fetch_batch = fast != IXD_GROUPS_OFF;
    ixd_sess *s = ixd_sess_new(&srv, 1, "127.0.0.1:1");
    size_t step = chunk ? chunk : in->len;
    for (size_t off = 0; off < in->len;) {
        size_t k = in->len - off < step ? in->len - off : step;
        for (int i = 0; i < 2; i++) /* each login group by itself */
            if (off < login_end[i] && off + k > login_end[i]) k = login_end[i] - off;
        int rc = ixd_sess_input(s, in->data + off, k, out);
        while (rc == IXD_SESS_MORE)
            rc = ixd_sess_input(s, NULL, 0, out);
        off += k;
        if (rc) break;
    }
    ixd_sess_free(s, "done");
    ixd_sess_fast_groups = IXD_GROUPS_FAST;
    ixd_sess_fetch_batch = 1;
    ixd_users_free(srv.users);
    ixd_engine_close(E);
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0) printf("cannot remove %s\n", dir);
}

/* Counts the messages of tag in a reply stream. */
static int count_tag(const ixb_wbuf *out, int tag) {
    ixp_reader rd;
    ixp_reader_init(&rd, IXP_FROM_SERVER, NULL);
    ixp_reader_feed(&rd, out->data, out->len);
    ixp_msg m;
    int n = 0;
    while (ixp_reader_next(&rd, &m) == IX_OK) {
        if (m.tag == IXP_MSG_LOGIN) rd.caps = caps;
        n += m.tag == tag;
        if (getenv("BG_DEBUG") && m.tag == IXP_SQ_ERR) printf("# err %d\n", m.u.err.sqlcode);
    }
    ixp_reader_free(&rd);
    return n;
}

int main(void) {
    if (!getenv("BG_DEBUG") && !freopen("/dev/null", "w", stderr)) return 1; /* the session logs */
    for (int strict = 0; strict < 2; strict++) {
        /* the capabilities ixd grants (strict mode without f62) */
        ixp_caps impl = ixp_caps_ixd;
        if (strict) impl.f62 = 0;
        uint8_t ans[IXP_CAPS_ANSWER_LEN];
        caps = ixp_caps_answer(ixp_caps_jdbc_offer, sizeof ixp_caps_jdbc_offer, impl, ans);
        ixb_wbuf in;
        ixb_wbuf_init(&in, NULL);
        input(&in);
        for (int c = 0; c < 2; c++) {
            size_t chunk = c ? 1 : 0;
            ixb_wbuf a, b, d;
            ixb_wbuf_init(&a, NULL);
            ixb_wbuf_init(&b, NULL);
            ixb_wbuf_init(&d, NULL);
            replies(IXD_GROUPS_FAST, strict, chunk, &in, &a);
            replies(IXD_GROUPS_OFF, strict, chunk, &in, &b);
            replies(IXD_GROUPS_DECODE, strict, chunk, &in, &d);
            CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0,
                  "strict %d, chunk %zu: the same reply bytes (%zu and %zu)", strict, chunk, a.len,
                  b.len);
            CHECK(d.len == b.len && memcmp(d.data, b.data, d.len) == 0,
                  "strict %d, chunk %zu: decoded in one step, dispatched by message: the same "
                  "reply bytes (%zu and %zu)",
                  strict, chunk, d.len, b.len);
            ixb_wbuf_free(&d);
            int tuples = count_tag(&a, IXP_SQ_TUPLE), errs = count_tag(&a, IXP_SQ_ERR);
            CHECK(tuples > 20 && errs >= 5, "strict %d, chunk %zu: %d rows back, %d errors", strict,
                  chunk, tuples, errs);
            ixb_wbuf_free(&a);
            ixb_wbuf_free(&b);
        }
        ixb_wbuf_free(&in);
    }
    return tap_done();
}
