/*
 * harness.h: starts a real ixd on a free loopback port with a temporary data
 * directory, and talks to it over TCP through the codec (a minimal
 * synchronous client; libixdb replaces it in the client-library tests).
 */
#ifndef IX_HARNESS_H
#define IX_HARNESS_H

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proto/ix_login.h"
#include "proto/ix_msg.h"
#include "proto/ix_reader.h"
#include "types/ix_types.h"
#include "types/ix_value.h"

#include "ixd_proc.h" /* starting and stopping ixd (shared with the client tests) */

static inline int ixd_start2(ixd_proc *p, const char *dir, const char *a1, const char *a2) {
    const char *extra[3] = {a1, a2, NULL};
    return ixd_start_args(p, dir, extra);
}

/* A client connection. */
typedef struct tconn {
    int fd;
    ixp_caps caps;
    ixp_reader rd;
    ixb_wbuf out;
    int closed;
} tconn;

static inline int tconn_open(tconn *c, int port) {
    memset(c, 0, sizeof *c);
    c->fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(c->fd, (struct sockaddr *)&a, sizeof a) != 0) return -1;
    int one = 1;
    setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    ixp_reader_init(&c->rd, IXP_FROM_SERVER, NULL);
    ixb_wbuf_init(&c->out, NULL);
    return 0;
}

static inline void tconn_close(tconn *c) {
    if (c->fd >= 0) close(c->fd);
    c->fd = -1;
    ixp_reader_free(&c->rd);
    ixb_wbuf_free(&c->out);
}

/* Sends what is in c->out and empties it. */
static inline int tconn_flush(tconn *c) {
    size_t off = 0;
    while (off < c->out.len) {
        ssize_t n = send(c->fd, c->out.data + off, c->out.len - off, MSG_NOSIGNAL);
        if (n <= 0) return -1;
        off += (size_t)n;
    }
    ixb_wbuf_reset(&c->out);
    return 0;
}

/* Reads the next message (waiting up to 5 s). Returns IX_OK, or -1 on a
 * timeout, a closed socket or a decoding error. The message is valid until
 * the next call. */
static inline int tconn_next(tconn *c, ixp_msg *m) {
    for (;;) {
        int rc = ixp_reader_next(&c->rd, m);
        if (rc == IX_OK) {
            if (m->tag == IXP_SQ_PROTOCOLS)
                c->rd.caps = c->caps = ixp_caps_from_bits(m->u.protocols.p, m->u.protocols.n);
            return IX_OK;
        }
        if (rc != IX_NEED_MORE) return -1;
        struct pollfd pf = {c->fd, POLLIN, 0};
        if (poll(&pf, 1, 5000) <= 0) return -1;
        uint8_t buf[65536];
        ssize_t n = recv(c->fd, buf, sizeof buf, 0);
        if (n <= 0) {
            c->closed = 1;
            return -1;
        }
        ixp_reader_feed(&c->rd, buf, (size_t)n);
    }
}

/* The result of one request group. */
typedef struct treply {
    int ntags;
    int tags[4096];
    int sqlcode, isamcode, offset;
    char errtext[256];
    int64_t rows;
    int32_t serial;
    int64_t serial8;
    int done_warnings;
    int ntuples;
    ixb_wbuf tuples; /* tuple payloads, each preceded by a u32 length */
    int stmt_id;     /* from DESCRIBE */
    int ncols;
    ixt_vtype cols[64];
    char names[64][64];
    int coltypes[64];
} treply;

/* Reads messages up to and including the group's EOT (or EXIT). Returns 0,
 * or -1 if the connection failed first. */
static inline int tconn_reply(tconn *c, treply *r) {
    ixb_wbuf keep = r->tuples;
    memset(r, 0, sizeof *r);
    r->tuples = keep;
    if (!r->tuples.data) ixb_wbuf_init(&r->tuples, NULL);
    ixb_wbuf_reset(&r->tuples);
    r->stmt_id = -1;
    ixp_msg m;
    while (tconn_next(c, &m) == IX_OK) {
        if (r->ntags < 4096) r->tags[r->ntags++] = m.tag;
        switch (m.tag) {
        case IXP_SQ_ERR:
            r->sqlcode = m.u.err.sqlcode;
            r->isamcode = m.u.err.isamcode;
            r->offset = m.u.err.offset;
            snprintf(r->errtext, sizeof r->errtext, "%.*s", (int)m.u.err.msg.n,
                     (const char *)m.u.err.msg.p);
            break;
        case IXP_SQ_DONE:
            r->rows = m.u.done.rows;
            r->serial = m.u.done.serial;
            r->done_warnings = m.u.done.warnings;
            break;
        case IXP_SQ_INSERTDONE: r->serial8 = m.u.insertdone.serial8; break;
        case IXP_SQ_TUPLE: {
            uint8_t l[4];
            ixb_st32(l, (uint32_t)m.u.tuple.data.n);
            ixb_put_bytes(&r->tuples, l, 4);
            ixb_put_bytes(&r->tuples, m.u.tuple.data.p, m.u.tuple.data.n);
            r->ntuples++;
            break;
        }
        case IXP_SQ_DESCRIBE: {
            r->stmt_id = m.u.describe.stmt_id;
            size_t pos = 0;
            ixp_column col;
            while (r->ncols < 64 && ixp_describe_next(&m, &pos, &col)) {
                char xn[32] = {0};
                if (col.xname.n < sizeof xn) memcpy(xn, col.xname.p, col.xname.n);
                r->cols[r->ncols] =
                    (ixt_vtype){ixt_vtype_resolve(col.type & 0xff, xn), (uint32_t)col.enclen};
                r->coltypes[r->ncols] = col.type;
                snprintf(r->names[r->ncols], 64, "%.*s", (int)col.name.n, (const char *)col.name.p);
                r->ncols++;
            }
            break;
        }
        default: break;
        }
        if (m.tag == IXP_SQ_EOT || m.tag == IXP_SQ_EXIT) return 0;
    }
    return -1;
}

/* Full connect: login, SQ_PROTOCOLS, SQ_INFO, and DBOPEN when db != NULL,
 * each group sent once the previous one is answered (as a real server
 * needs: ixd --strict answers no login group that arrives early). Returns
 * 0, the svc_error of a rejected login, or the sqlcode of DBOPEN. */
static inline int tconn_login(tconn *c, int port, const char *user, const char *pw,
                              const char *db) {
    if (tconn_open(c, port)) return -9999;
    ixp_conreq req;
    ixp_conreq_defaults(&req, user, pw, "ixd");
    ixp_conreq_encode(&req, &c->out);
    tconn_flush(c);
    ixp_msg m;
    if (tconn_next(c, &m) != IX_OK || m.tag != IXP_MSG_LOGIN) return -9998;
    ixp_conacc acc;
    if (ixp_conacc_decode(m.u.login.packet.p, m.u.login.packet.n, NULL, &acc, NULL, NULL, NULL) !=
        IX_OK)
        return -9997;
    if (acc.svc_error) return acc.svc_error;
    ixp_enc_protocols(&c->out, ixp_caps_jdbc_offer, sizeof ixp_caps_jdbc_offer);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    tconn_flush(c);
    treply r = {0};
    if (tconn_reply(c, &r)) return -9996;
    ixp_bytes k = {(const uint8_t *)"DBTEMP", 6}, v = {(const uint8_t *)"/tmp", 4};
    ixp_enc_info(&c->out, &k, &v, 1);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    tconn_flush(c);
    if (tconn_reply(c, &r)) return -9996;
    if (db) {
        ixp_enc_dbopen(&c->out, db, strlen(db), 0);
        ixp_enc_tag(&c->out, IXP_SQ_EOT);
        tconn_flush(c);
        if (tconn_reply(c, &r)) return -9995;
        if (r.sqlcode) {
            ixb_wbuf_free(&r.tuples);
            return r.sqlcode;
        }
    }
    ixb_wbuf_free(&r.tuples);
    return 0;
}

/* COMMAND (execute immediately). */
static inline int tconn_command(tconn *c, const char *sql, treply *r) {
    ixp_enc_command(&c->out, &c->caps, sql, strlen(sql));
    ixp_enc_tag(&c->out, IXP_SQ_NDESCRIBE);
    ixp_enc_tag(&c->out, IXP_SQ_EXECUTE);
    ixp_enc_tag(&c->out, IXP_SQ_RELEASE);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    if (tconn_flush(c)) return -1;
    return tconn_reply(c, r);
}

/* PREPARE + NDESCRIBE + WANTDONE; returns the statement id or -1 (r has the
 * error). */
static inline int tconn_prepare(tconn *c, const char *sql, int nparams, treply *r) {
    ixp_enc_prepare(&c->out, &c->caps, nparams, sql, strlen(sql));
    ixp_enc_tag(&c->out, IXP_SQ_NDESCRIBE);
    ixp_enc_tag(&c->out, IXP_SQ_WANTDONE);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    if (tconn_flush(c) || tconn_reply(c, r)) return -1;
    return r->sqlcode ? -1 : r->stmt_id;
}

/* Runs a SELECT through a cursor and fetches everything with buffer
 * `bufsize`. Counts the NFETCH round trips in *trips. */
static inline int tconn_select(tconn *c, const char *sql, int32_t bufsize, treply *r, int *trips) {
    int id = tconn_prepare(c, sql, 0, r);
    if (id < 0) return -1;
    treply d = *r; /* keep the describe */
    ixp_enc_id(&c->out, id);
    ixp_enc_curname(&c->out, "_ifxc0000000000001", 18);
    ixp_enc_tag(&c->out, IXP_SQ_OPEN);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    tconn_flush(c);
    if (tconn_reply(c, r) || r->sqlcode) return -1;
    ixb_wbuf all;
    ixb_wbuf_init(&all, NULL);
    int n = 0, t = 0;
    for (;;) {
        ixp_enc_id(&c->out, id);
        ixp_enc_nfetch(&c->out, &c->caps, bufsize);
        ixp_enc_tag(&c->out, IXP_SQ_EOT);
        tconn_flush(c);
        t++;
        if (tconn_reply(c, r) || r->sqlcode) break;
        ixb_put_bytes(&all, r->tuples.data, r->tuples.len);
        n += r->ntuples;
        int done = 0;
        for (int i = 0; i < r->ntags; i++)
            done |= r->tags[i] == IXP_SQ_DONE;
        if (done) break;
    }
    int err = r->sqlcode;
    ixp_enc_id(&c->out, id);
    ixp_enc_tag(&c->out, IXP_SQ_CLOSE);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    ixp_enc_id(&c->out, id);
    ixp_enc_tag(&c->out, IXP_SQ_RELEASE);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    tconn_flush(c);
    ixb_wbuf tk = r->tuples;
    *r = d;
    r->tuples = tk;
    treply tmp = {0};
    tconn_reply(c, &tmp);
    tconn_reply(c, &tmp);
    ixb_wbuf_free(&tmp.tuples);
    ixb_wbuf_reset(&r->tuples);
    ixb_put_bytes(&r->tuples, all.data, all.len);
    ixb_wbuf_free(&all);
    r->ntuples = n;
    r->sqlcode = err;
    if (trips) *trips = t;
    return err ? -1 : 0;
}

/* Formats column `col` of tuple number `row` of r as text ("NULL" for NULL)
 * into buf. Returns buf. */
static inline const char *treply_value(const treply *r, int row, int col, char *buf, size_t cap) {
    const uint8_t *p = r->tuples.data;
    size_t off = 0;
    snprintf(buf, cap, "?");
    for (int i = 0; i <= row && off + 4 <= r->tuples.len; i++) {
        uint32_t n = ixb_be32(p + off);
        if (i < row) {
            off += 4 + n;
            continue;
        }
        const uint8_t *t = p + off + 4;
        size_t pos = 0;
        for (int k = 0; k < r->ncols; k++) {
            size_t used = 0;
            if (ixt_value_extent(r->cols[k], t + pos, n - pos, n, 0, &used) != IX_OK) return buf;
            if (k == col) {
                ixb_wbuf w;
                ixb_wbuf_init(&w, NULL);
                int rc = ixt_value_format(r->cols[k], t + pos, used, NULL, &w);
                if (rc == IX_NULL_VALUE)
                    snprintf(buf, cap, "NULL");
                else if (rc == IX_OK)
                    snprintf(buf, cap, "%.*s", (int)w.len, (const char *)w.data);
                ixb_wbuf_free(&w);
                return buf;
            }
            pos += used;
        }
    }
    return buf;
}

/* COMMAND sql: its SQLCODE, or TCONN_FAILED when the connection failed. */
#define TCONN_FAILED (-99999)
static inline int tconn_exec(tconn *c, const char *sql, treply *r) {
    return tconn_command(c, sql, r) ? TCONN_FAILED : r->sqlcode;
}

/* The first column of the first row of query sql as text into buf ("ERR"
 * when it fails or gives no row). Returns buf. */
static inline const char *tconn_value(tconn *c, const char *sql, char *buf, size_t cap) {
    treply r = {0};
    snprintf(buf, cap, "ERR");
    if (tconn_select(c, sql, 4096, &r, NULL) == 0 && r.ntuples > 0)
        treply_value(&r, 0, 0, buf, cap);
    ixb_wbuf_free(&r.tuples);
    return buf;
}

#endif
