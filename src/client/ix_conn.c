/*
 * ix_conn.c: connections. DSN parsing, the login sequence (sqli-protocol.md
 * §2.10), the I/O pump over the transport, the queue of replies still
 * expected (pipelining), the error record, tracing, one-shot execution and
 * transactions.
 *
 * I/O model: requests are encoded into c->out (whole groups ending in EOT)
 * and sent by ixc_io, which always also reads whatever the server has sent
 * into the push parser c->rd, so neither side can block the other. Every
 * reply group the connection still expects but has not read is an entry of
 * the FIFO c->pend (read-ahead fetches, CLOSE/RELEASE replies); a caller
 * that wants its own reply first drains the FIFO (ixc_drain), then reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "base/ix_sqlscan.h"
#include "ix_client_int.h"

/* ---- options and DSN parsing --------------------------------------------- */

typedef struct dsn_opts {
    char *host, *port, *server, *database, *user, *password;
    char *client_locale, *db_locale, *dbdate, *tls_ca, *sqlhosts;
    int addr_given;       /* host or port came from the DSN */
    int32_t fetch_buffer; /* bytes, or IX_FETCH_AUTO */
    int readahead;
    int connect_timeout_ms, read_timeout_ms;
    int keepalive_s;
    int tls, tls_verify;
    int deferred_prepare, optofc, pipeline_login;
    int compat;              /* IXC_COMPAT_* */
    int watchdog_ms;         /* DSN key watchdog */
    int contime_s, conretry; /* INFORMIXCONTIME / INFORMIXCONRETRY; -1: not set */
} dsn_opts;

static void opts_free(dsn_opts *o) {
    char **s[] = {&o->host,   &o->port,     &o->server,        &o->database,
                  &o->user,   &o->password, &o->client_locale, &o->db_locale,
                  &o->dbdate, &o->tls_ca,   &o->sqlhosts};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        ixc_free(*s[i]);
        *s[i] = NULL;
    }
}

static int set_str(char **dst, const char *v, size_t n) {
    char *s = ixc_malloc(n + 1);
    if (!s) return IX_ENOMEM;
    memcpy(s, v, n);
    s[n] = 0;
    ixc_free(*dst);
    *dst = s;
    return IX_OK;
}

static int parse_long(const char *v, long lo, long hi, long *out) {
    char *end;
    errno = 0;
    long x = strtol(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

static int parse_secs(const char *v, int *ms) {
    char *end;
    errno = 0;
    double x = strtod(v, &end);
    if (errno || end == v || *end || !(x >= 0) || x > 86400.0 * 365) return -1;
    *ms = (int)(x * 1000 + 0.5);
    if (x > 0 && *ms == 0) *ms = 1;
    return 0;
}

/* Sets one option from a NUL-terminated value. Returns IX_OK, IX_EINVAL
 * (unknown key or bad value) or IX_ENOMEM. */
static int set_opt(dsn_opts *o, const char *k, const char *v) {
    struct {
        const char *key;
        char **dst;
    } strs[] = {{"host", &o->host},           {"port", &o->port},
                {"server", &o->server},       {"database", &o->database},
                {"db", &o->database},         {"user", &o->user},
                {"password", &o->password},   {"client_locale", &o->client_locale},
                {"db_locale", &o->db_locale}, {"dbdate", &o->dbdate},
                {"tls_ca", &o->tls_ca},       {"sqlhosts", &o->sqlhosts}};
    for (size_t i = 0; i < sizeof strs / sizeof strs[0]; i++)
        if (strcasecmp(k, strs[i].key) == 0) return set_str(strs[i].dst, v, strlen(v));
    long x;
    if (strcasecmp(k, "fetch_buffer") == 0 || strcasecmp(k, "fet_buf_size") == 0) {
        if (strcasecmp(v, "auto") == 0) {
            o->fetch_buffer = IX_FETCH_AUTO;
            return IX_OK;
        }
        if (parse_long(v, 1, INT32_MAX, &x)) return IX_EINVAL;
        o->fetch_buffer = (int32_t)x;
        return IX_OK;
    }
    if (strcasecmp(k, "readahead") == 0) {
        if (parse_long(v, 0, 64, &x)) return IX_EINVAL;
        o->readahead = (int)x;
        return IX_OK;
    }
    static const char *const flags[] = {"deferred_prepare", "optofc", "pipeline_login"};
    int *flag_dst[] = {&o->deferred_prepare, &o->optofc, &o->pipeline_login};
    for (size_t i = 0; i < sizeof flags / sizeof flags[0]; i++) {
        if (strcasecmp(k, flags[i]) != 0) continue;
        if (parse_long(v, 0, 1, &x)) return IX_EINVAL;
        *flag_dst[i] = (int)x;
        return IX_OK;
    }
    if (strcasecmp(k, "tls") == 0 || strcasecmp(k, "tls_verify") == 0) {
        if (parse_long(v, 0, 1, &x)) return IX_EINVAL;
        *(strcasecmp(k, "tls") == 0 ? &o->tls : &o->tls_verify) = (int)x;
        return IX_OK;
    }
    if (strcasecmp(k, "compat") == 0) {
        static const char *const modes[] = {"auto", "conservative", "fast"};
        for (int i = 0; i < 3; i++)
            if (strcasecmp(v, modes[i]) == 0) return o->compat = i, IX_OK;
        return IX_EINVAL;
    }
    if (strcasecmp(k, "watchdog") == 0) return parse_secs(v, &o->watchdog_ms) ? IX_EINVAL : IX_OK;
    if (strcasecmp(k, "connect_timeout") == 0)
        return parse_secs(v, &o->connect_timeout_ms) ? IX_EINVAL : IX_OK;
    if (strcasecmp(k, "read_timeout") == 0)
        return parse_secs(v, &o->read_timeout_ms) ? IX_EINVAL : IX_OK;
    if (strcasecmp(k, "contime") == 0 || strcasecmp(k, "conretry") == 0) {
        if (parse_long(v, 0, 86400, &x)) return IX_EINVAL;
        *(strcasecmp(k, "contime") == 0 ? &o->contime_s : &o->conretry) = (int)x;
        return IX_OK;
    }
    if (strcasecmp(k, "keepalive") == 0) {
        if (parse_long(v, 0, 86400, &x)) return IX_EINVAL;
        o->keepalive_s = (int)x;
        return IX_OK;
    }
    return IX_EINVAL;
}

static int hexval(int ch) {
    if (ch >= '0' && ch <= '9') return ch - '0';
    if (ch >= 'a' && ch <= 'f') return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F') return ch - 'A' + 10;
    return -1;
}

/* %-decodes s[0..n) into a new string (also '+' stays '+'). NULL on a bad
 * escape or no memory (*rc says which). */
static char *pct_decode(const char *s, size_t n, int *rc) {
    char *d = ixc_malloc(n + 1);
    if (!d) {
        *rc = IX_ENOMEM;
        return NULL;
    }
    size_t j = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '%') {
            if (i + 2 >= n) {
                ixc_free(d);
                *rc = IX_EINVAL;
                return NULL;
            }
            int h = hexval(s[i + 1]), l = hexval(s[i + 2]);
            if (h < 0 || l < 0) {
                ixc_free(d);
                *rc = IX_EINVAL;
                return NULL;
            }
            d[j++] = (char)(h << 4 | l);
            i += 2;
        } else {
            d[j++] = s[i];
        }
    }
    d[j] = 0;
    return d;
}

static int set_opt_n(dsn_opts *o, const char *k, size_t kn, const char *v, size_t vn, int pct,
                     char *err, size_t errlen) {
    char key[64];
    if (kn == 0 || kn >= sizeof key) {
        snprintf(err, errlen, "bad connection option name");
        return IX_EINVAL;
    }
    memcpy(key, k, kn);
    key[kn] = 0;
    int rc = IX_OK;
    char *val = pct ? pct_decode(v, vn, &rc) : NULL;
    if (!pct) {
        val = ixc_malloc(vn + 1);
        if (!val) return IX_ENOMEM;
        memcpy(val, v, vn);
        val[vn] = 0;
    }
    if (!val) {
        if (rc == IX_ENOMEM)
            snprintf(err, errlen, "out of memory");
        else
            snprintf(err, errlen, "bad %%-escape in the value of \"%s\"", key);
        return rc;
    }
    rc = set_opt(o, key, val);
    if (rc == IX_EINVAL)
        snprintf(err, errlen, "unknown connection option or bad value: %s=%s", key,
                 strcasecmp(key, "password") == 0 ? "***" : val);
    ixc_free(val);
    return rc;
}

static int parse_url(dsn_opts *o, const char *s, char *err, size_t errlen) {
    const char *p = strstr(s, "://") + 3;
    const char *end = p + strcspn(p, "/?");
    const char *at = NULL;
    for (const char *q = p; q < end; q++)
        if (*q == '@') at = q;
    int rc;
    if (at) {
        const char *colon = memchr(p, ':', (size_t)(at - p));
        size_t un = colon ? (size_t)(colon - p) : (size_t)(at - p);
        if (un && (rc = set_opt_n(o, "user", 4, p, un, 1, err, errlen))) return rc;
        if (colon &&
            (rc = set_opt_n(o, "password", 8, colon + 1, (size_t)(at - colon - 1), 1, err, errlen)))
            return rc;
        p = at + 1;
    }
    const char *hend = end, *port = NULL;
    if (*p == '[') {
        const char *rb = memchr(p, ']', (size_t)(end - p));
        if (!rb) return snprintf(err, errlen, "bad IPv6 address in URL"), IX_EINVAL;
        if ((rc = set_opt_n(o, "host", 4, p + 1, (size_t)(rb - p - 1), 0, err, errlen))) return rc;
        if (rb + 1 < end && rb[1] == ':') port = rb + 2;
    } else {
        const char *colon = memchr(p, ':', (size_t)(end - p));
        if (colon) {
            hend = colon;
            port = colon + 1;
        }
        if (hend > p && (rc = set_opt_n(o, "host", 4, p, (size_t)(hend - p), 1, err, errlen)))
            return rc;
    }
    if (port && end > port &&
        (rc = set_opt_n(o, "port", 4, port, (size_t)(end - port), 0, err, errlen)))
        return rc;
    p = end;
    if (*p == '/') {
        p++;
        size_t dn = strcspn(p, "?");
        if (dn && (rc = set_opt_n(o, "database", 8, p, dn, 1, err, errlen))) return rc;
        p += dn;
    }
    if (*p == '?') {
        p++;
        while (*p) {
            size_t n = strcspn(p, "&");
            const char *eq = memchr(p, '=', n);
            if (!eq)
                return snprintf(err, errlen, "URL option without '=': %.*s", (int)n, p), IX_EINVAL;
            if ((rc = set_opt_n(o, p, (size_t)(eq - p), eq + 1, n - (size_t)(eq - p) - 1, 1, err,
                                errlen)))
                return rc;
            p += n;
            if (*p == '&') p++;
        }
    }
    return IX_OK;
}

static int parse_keywords(dsn_opts *o, const char *s, char *err, size_t errlen) {
    const char *p = s;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == ';')
            p++;
        if (!*p) return IX_OK;
        const char *k = p;
        while (*p && *p != '=' && *p != ' ' && *p != '\t')
            p++;
        size_t kn = (size_t)(p - k);
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != '=') return snprintf(err, errlen, "expected key=value in \"%s\"", k), IX_EINVAL;
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        char val[1024];
        size_t vn = 0;
        if (*p == '\'') {
            p++;
            while (*p && *p != '\'') {
                if (*p == '\\' && p[1]) p++;
                if (vn + 1 >= sizeof val) return snprintf(err, errlen, "value too long"), IX_EINVAL;
                val[vn++] = *p++;
            }
            if (*p != '\'') return snprintf(err, errlen, "unterminated quoted value"), IX_EINVAL;
            p++;
        } else {
            while (*p && *p != ' ' && *p != '\t' && *p != '\n' && *p != ';') {
                if (vn + 1 >= sizeof val) return snprintf(err, errlen, "value too long"), IX_EINVAL;
                val[vn++] = *p++;
            }
        }
        int rc = set_opt_n(o, k, kn, val, vn, 0, err, errlen);
        if (rc) return rc;
    }
}

static int opts_load(dsn_opts *o, const char *dsn, char *err, size_t errlen) {
    memset(o, 0, sizeof *o);
    o->fetch_buffer = IX_FETCH_AUTO;
    o->readahead = IXC_READAHEAD_AUTO;
    o->connect_timeout_ms = 30000;
    o->keepalive_s = 60;
    o->tls_verify = 1;
    o->deferred_prepare = o->optofc = o->pipeline_login = 1;
    o->compat = IXC_COMPAT_AUTO;
    o->watchdog_ms = IXC_WATCHDOG_DEFAULT_MS;
    const char *e;
    long x;
    int rc = IX_OK;
    if ((e = getenv("FET_BUF_SIZE")) && strcasecmp(e, "auto") == 0)
        o->fetch_buffer = IX_FETCH_AUTO;
    else if (e && parse_long(e, 1, INT32_MAX, &x) == 0)
        o->fetch_buffer = (int32_t)x;
    if ((e = getenv("INFORMIXSQLHOSTS")) && *e) rc |= set_str(&o->sqlhosts, e, strlen(e));
    if ((e = getenv("INFORMIXSERVER")) && *e) rc |= set_str(&o->server, e, strlen(e));
    if ((e = getenv("CLIENT_LOCALE")) && *e) rc |= set_str(&o->client_locale, e, strlen(e));
    if ((e = getenv("DB_LOCALE")) && *e) rc |= set_str(&o->db_locale, e, strlen(e));
    if ((e = getenv("DBDATE")) && *e) rc |= set_str(&o->dbdate, e, strlen(e));
    if ((e = getenv("USER")) && *e) rc |= set_str(&o->user, e, strlen(e));
    o->contime_s = o->conretry = -1;
    if ((e = getenv("INFORMIXCONTIME")) && parse_long(e, 0, 86400, &x) == 0) o->contime_s = (int)x;
    if ((e = getenv("INFORMIXCONRETRY")) && parse_long(e, 0, 86400, &x) == 0) o->conretry = (int)x;
    if (rc) return IX_ENOMEM;
    if (dsn && *dsn) {
        rc = strstr(dsn, "://") ? parse_url(o, dsn, err, errlen)
                                : parse_keywords(o, dsn, err, errlen);
        if (rc) return rc;
        if (strstr(dsn, "://") && strncasecmp(dsn, "informix://", 11) != 0 &&
            strncasecmp(dsn, "ixdb://", 7) != 0)
            return snprintf(err, errlen, "URL scheme must be informix://"), IX_EINVAL;
    }
    o->addr_given = o->host || o->port;
    if (!o->host && set_str(&o->host, "localhost", 9)) return IX_ENOMEM;
    if (!o->port && set_str(&o->port, "9088", 4)) return IX_ENOMEM;
    return IX_OK;
}

/* ---- error record ----------------------------------------------------------- */

int ixc_fail(ix_conn *c, int rc, const char *fmt, ...) {
    if (!c) return rc;
    c->err = rc;
    c->sqlcode = c->isamcode = 0;
    c->erroffset = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->errmsg, sizeof c->errmsg, fmt, ap);
    va_end(ap);
    return rc;
}

/* 1 for the codes whose text has no %s but whose insertion text says what
 * went wrong: ixd names there the limit a statement passed (-208 "Memory
 * allocation failed during query processing.", -460 "Statement length
 * exceeds maximum."). Other codes show their text as dbaccess does. */
static int shows_insertion(int sqlcode) {
    return sqlcode == IX_SQLCODE_TOO_COMPLEX || sqlcode == IX_SQLCODE_STMT_LONG;
}

/* The catalogue text for sqlcode with %s replaced by ins (after it in
 * parentheses for the codes of shows_insertion). */
static void fmt_sql_text(char *out, size_t cap, int sqlcode, const char *ins) {
    const char *t = ix_errtext(sqlcode);
    size_t j = 0;
    if (t && ins && *ins && shows_insertion(sqlcode)) {
        snprintf(out, cap, "%s (%s)", t, ins);
        return;
    }
    if (!t) {
        if (ins && *ins)
            snprintf(out, cap, "SQL error %d: %s", sqlcode, ins);
        else
            snprintf(out, cap, "SQL error %d.", sqlcode);
        return;
    }
    for (const char *p = t; *p && j + 1 < cap; p++) {
        if (p[0] == '%' && p[1] == 's') {
            for (const char *q = ins ? ins : ""; *q && j + 1 < cap; q++)
                out[j++] = *q;
            p++;
        } else {
            out[j++] = *p;
        }
    }
    out[j] = 0;
}

int ixc_fail_sql(ix_conn *c, int sqlcode, int isamcode, int32_t offset, const char *ins) {
    c->err = IX_ESQL;
    c->sqlcode = sqlcode;
    c->isamcode = isamcode;
    c->erroffset = offset;
    fmt_sql_text(c->errmsg, sizeof c->errmsg, sqlcode, ins);
    if (isamcode) {
        size_t l = strlen(c->errmsg);
        const char *it = ix_isam_errtext(isamcode);
        if (it)
            snprintf(c->errmsg + l, sizeof c->errmsg - l, " [%d: %s]", isamcode, it);
        else
            snprintf(c->errmsg + l, sizeof c->errmsg - l, " [ISAM error %d]", isamcode);
    }
    return IX_ESQL;
}

int ixc_kill(ix_conn *c, int rc, const char *fmt, ...) {
    c->err = rc;
    c->sqlcode = c->isamcode = 0;
    c->erroffset = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->errmsg, sizeof c->errmsg, fmt, ap);
    va_end(ap);
    if (atomic_load(&c->cancel_closed)) { /* the I/O error is ix_cancel's doing */
        c->err = rc = IX_ECONN;
        snprintf(c->errmsg, sizeof c->errmsg,
                 "cancelled: ix_cancel closed the connection (the server is not known to take "
                 "an interrupt)");
    }
    c->dead = 1;
    c->in_txn = 0; /* the server rolls back a session that ends */
    atomic_store(&c->cancel_fd, -1);
    if (c->tr) {
        c->tr->vt->close(c->tr);
        c->tr = NULL;
    }
    return rc;
}

int ixc_check(const ix_conn *c) {
    if (!c) return IX_EMISUSE;
    if (c->dead) return IX_ECONN;
    return IX_OK;
}

/* Returns IX_ECONN for a dead connection and records it (so that every call
 * on a dead connection says so at once). */
static int dead_rc(ix_conn *c) {
    if (c->err != IX_ECONN) {
        c->err = IX_ECONN;
        c->sqlcode = c->isamcode = 0;
        if (!c->errmsg[0]) snprintf(c->errmsg, sizeof c->errmsg, "the connection is dead");
    }
    return IX_ECONN;
}

/* ---- tracing ------------------------------------------------------------------ */

static void emit_line(ix_conn *c, const char *dir) {
    if (c->line.err) {
        ixb_wbuf_reset(&c->line);
        return;
    }
    ixb_put_u8(&c->line, 0);
    if (c->line.err) return;
    if (c->trace) {
        char pre[512];
        snprintf(pre, sizeof pre, "%s %s", dir, (const char *)c->line.data);
        if (c->line.len < 500) {
            c->trace(c->trace_ud, pre);
        } else {
            ixb_wbuf w;
            ixb_wbuf_init(&w, ixc_mem());
            ixb_put_bytes(&w, dir, strlen(dir));
            ixb_put_u8(&w, ' ');
            ixb_put_bytes(&w, c->line.data, c->line.len);
            if (!w.err) c->trace(c->trace_ud, (const char *)w.data);
            ixb_wbuf_free(&w);
        }
    } else if (c->trace_fd >= 0) {
        c->line.data[c->line.len - 1] = '\n';
        size_t off = 0;
        ssize_t k;
        while (off < strlen(dir) && (k = write(c->trace_fd, dir + off, strlen(dir) - off)) > 0)
            off += (size_t)k;
        if (write(c->trace_fd, " ", 1) != 1) return;
        off = 0;
        while (off < c->line.len &&
               (k = write(c->trace_fd, c->line.data + off, c->line.len - off)) > 0)
            off += (size_t)k;
    }
    ixb_wbuf_reset(&c->line);
}

static int tracing(const ix_conn *c) {
    return c->trace || c->trace_fd >= 0;
}

static int64_t now_ms(void);

size_t ixc_mark(ix_conn *c) {
    return c->out.len;
}

/* A request group was encoded at out[from..len): counts it as in flight
 * (after the login) and traces its messages. */
void ixc_queued(ix_conn *c, size_t from) {
    if (c->logged_in) atomic_fetch_add(&c->inflight, 1);
    if (c->nb || c->csm) c->io_at_ms = now_ms();
    if (!tracing(c) || c->out.err) return;
    const uint8_t *p = c->out.data + from;
    size_t n = c->out.len - from;
    if (!c->logged_in && n >= 6 && ixp_sl_looks_like(p, n)) {
        ixp_login_print(p, n, &c->line);
        emit_line(c, "C->S");
        return;
    }
    while (n > 0) {
        ixp_msg m;
        size_t at = 0;
        const char *why = NULL;
        int rc = ixp_msg_decode(p, n, IXP_FROM_CLIENT, &c->caps, NULL, &m, &at, &why);
        if (rc != IX_OK) {
            ixp_printf(&c->line, "<%zu bytes not decodable: %s>", n, why ? why : ix_rc_str(rc));
            emit_line(c, "C->S");
            return;
        }
        ixp_print_msg(&c->pr_out, IXP_FROM_CLIENT, &m, &c->line);
        emit_line(c, "C->S");
        p += m.len;
        n -= m.len;
    }
}

int ix_set_trace(ix_conn *conn, ix_trace_fn fn, void *userdata) {
    if (!conn) return IX_EMISUSE;
    conn->trace = fn;
    conn->trace_ud = userdata;
    if (fn && conn->trace_fd >= 0) {
        close(conn->trace_fd);
        conn->trace_fd = -1;
    }
    return IX_OK;
}

/* ---- I/O ------------------------------------------------------------------ */

int64_t ixc_now_ms(void) {
    return now_ms();
}

int64_t ixc_now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static int64_t now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#define RECV_CHUNK 65536 /* bytes asked of one recv */

static ixc_wire_tap_fn wire_tap;
static void *wire_tap_ud;

/* Sets or removes the process-wide wire tap (ix_client_int.h). Returns
 * nothing. */
void ixc_set_wire_tap(ixc_wire_tap_fn fn, void *ud) {
    wire_tap = fn;
    wire_tap_ud = ud;
}

/* Reads what the transport has straight into the reader's buffer (the only
 * copy before a fetched row is stored in its batch). */
static int do_recv(ix_conn *c) {
    int rc;
    size_t room = RECV_CHUNK;
    uint8_t *buf = ixp_reader_space(&c->rd, &room, &rc);
    if (!buf)
        return ixc_kill(c, rc == IX_ENOMEM ? IX_ENOMEM : IX_EPROTO,
                        "cannot buffer the server's reply: %s", ix_rc_str(rc));
    long k = c->tr->vt->recv(c->tr, buf, room);
    if (k > 0) {
        if (wire_tap) wire_tap(wire_tap_ud, c, 1, buf, (size_t)k);
        ixp_reader_commit(&c->rd, (size_t)k);
        if (c->nb || c->csm) c->io_at_ms = now_ms();
        return IX_OK;
    }
    if (k == 0 && c->nb_step) { /* what is buffered is still decoded first */
        c->peer_eof = 1;
        return IX_OK;
    }
    if (k == 0) return ixc_kill(c, IX_ECONN, "the server closed the connection");
    if (k == IXC_IOERR) return ixc_kill(c, IX_ECONN, "%s", c->tr->err);
    return IX_OK; /* would block */
}

static int do_send(ix_conn *c) {
    if (c->sent >= c->out.len) return IX_OK;
    long k = c->tr->vt->send(c->tr, c->out.data + c->sent, c->out.len - c->sent);
    if (k > 0) {
        if (wire_tap) wire_tap(wire_tap_ud, c, 0, c->out.data + c->sent, (size_t)k);
        c->sent += (size_t)k;
        c->sent_since_read = 1;
        if (c->sent == c->out.len) {
            ixb_wbuf_reset(&c->out);
            c->sent = 0;
        } else if (c->sent >= 65536 && c->sent * 2 >= c->out.len) {
            /* A pipelined batch never empties the buffer: drop the sent part. */
            memmove(c->out.data, c->out.data + c->sent, c->out.len - c->sent);
            c->out.len -= c->sent;
            c->sent = 0;
        }
        return IX_OK;
    }
    if (k == IXC_IOERR) return ixc_kill(c, IX_ECONN, "%s", c->tr->err);
    return IX_OK;
}

/* Whether the oldest reply still expected is one of a request that runs no
 * user statement: a CLOSE or RELEASE, or a PREPARE sent on its own. */
static int ctl_pending(const ix_conn *c) {
    if (c->pend_len == 0) return 0;
    const ixc_pend *e = &c->pend[c->pend_head];
    return e->kind == PEND_DISCARD ||
           (e->kind == PEND_OP && e->owner && e->owner->op == IXC_OP_PREPARE);
}

int ixc_wait_limit_ms(const ix_conn *c) {
    int rt = c->read_timeout_ms, wd = c->watchdog_ms;
    if (wd <= 0 || !(c->ctl_wait || ctl_pending(c))) return rt;
    return rt > 0 && rt < wd ? rt : wd;
}

int ixc_timed_out(ix_conn *c, int limit) {
    if (limit != c->read_timeout_ms)
        return ixc_kill(c, IX_ETIMEOUT,
                        "the server did not answer a request that runs no statement (CLOSE, "
                        "RELEASE or PREPARE) within %d ms (the watchdog; DSN key watchdog)",
                        limit);
    return ixc_kill(c, IX_ETIMEOUT, "timed out after %d ms waiting for the server", limit);
}

/* One round: waits (up to the read timeout) until the socket is readable,
 * or writable when want_write and output is pending, and moves bytes. */
static int nb_io(ix_conn *c, int wr);

int ixc_io(ix_conn *c, int want_write) {
    if (c->dead) return dead_rc(c);
    if (c->out.err)
        return ixc_kill(c, c->out.err, "cannot encode the request: %s", ix_rc_str(c->out.err));
    int wr = want_write && c->sent < c->out.len;
    if (c->peer_eof && !wr) return ixc_kill(c, IX_ECONN, "the server closed the connection");
    if (c->nb_step) return nb_io(c, wr);
    if (c->tr->vt->pending(c->tr) > 0) return do_recv(c);
    if (c->tr->fd < 0) { /* memory transport: always ready */
        return wr ? do_send(c) : do_recv(c);
    }
    int limit = ixc_wait_limit_ms(c);
    int64_t deadline = limit > 0 ? now_ms() + limit : 0;
    for (;;) {
        struct pollfd pf = {c->tr->fd, (short)((c->peer_eof ? 0 : POLLIN) | (wr ? POLLOUT : 0)), 0};
        int ms = -1;
        if (deadline) {
            int64_t left = deadline - now_ms();
            ms = left > 0 ? (int)left : 0;
        }
        int k = poll(&pf, 1, ms);
        if (k < 0) {
            if (errno == EINTR) {
                if (c->on_signal && c->on_signal(c->on_signal_ud)) ix_cancel(c);
                continue;
            }
            return ixc_kill(c, IX_ECONN, "poll: %s", strerror(errno));
        }
        if (k == 0) return ixc_timed_out(c, limit);
        int rc = IX_OK;
        if (!c->peer_eof && (pf.revents & (POLLIN | POLLERR | POLLHUP))) rc = do_recv(c);
        if (rc == IX_OK && !c->dead && (pf.revents & POLLOUT)) rc = do_send(c);
        return rc;
    }
}

/* Non-blocking mode's round: moves what the socket takes and has, without
 * waiting. IX_OK when bytes moved, else IX_WANT_WRITE (output is pending)
 * or IX_WANT_READ; or a connection error. */
static int nb_io(ix_conn *c, int wr) {
    size_t left = c->out.len - c->sent, have = ixp_reader_pending(&c->rd);
    int rc = wr ? do_send(c) : IX_OK;
    if (rc == IX_OK && !c->dead && !c->peer_eof) rc = do_recv(c);
    if (rc != IX_OK) return rc;
    if (c->out.len - c->sent != left || ixp_reader_pending(&c->rd) != have) return IX_OK;
    return c->sent < c->out.len ? IX_WANT_WRITE : IX_WANT_READ;
}

/* Writes without waiting while the socket takes bytes. */
static int nb_write(ix_conn *c) {
    while (!c->dead && c->sent < c->out.len) {
        size_t left = c->out.len - c->sent;
        int rc = do_send(c);
        if (rc != IX_OK) return rc;
        if (c->out.len - c->sent == left) break;
    }
    return c->dead ? dead_rc(c) : IX_OK;
}

/* Reads without waiting (at most a few chunks per call). IX_OK or a
 * connection error. */
static int nb_read(ix_conn *c) {
    for (int i = 0; i < 16 && !c->dead && !c->peer_eof; i++) {
        size_t have = ixp_reader_pending(&c->rd);
        int rc = do_recv(c);
        if (rc != IX_OK) return rc;
        if (ixp_reader_pending(&c->rd) == have && c->tr->vt->pending(c->tr) == 0) break;
    }
    return IX_OK;
}

int ixc_nb_want(const ix_conn *c) {
    return c->sent < c->out.len ? IX_WANT_WRITE : IX_WANT_READ;
}

/* Non-blocking I/O for ix_nb.c: writes and reads what the socket allows. */
int ixc_nb_io(ix_conn *c) {
    if (c->dead) return dead_rc(c);
    if (!c->tr) return ixc_kill(c, IX_ECONN, "not connected");
    if (c->out.err)
        return ixc_kill(c, c->out.err, "cannot encode the request: %s", ix_rc_str(c->out.err));
    int rc = nb_write(c);
    if (rc == IX_OK) rc = nb_read(c);
    if (rc == IX_OK) rc = nb_write(c);
    return rc;
}

int ixc_flush(ix_conn *c) {
    if (c->nb_step || c->nb_decoding) return c->dead ? dead_rc(c) : nb_write(c);
    while (!c->dead && c->sent < c->out.len) {
        int rc = ixc_io(c, 1);
        if (rc != IX_OK) return rc;
    }
    return c->dead ? dead_rc(c) : IX_OK;
}

/* An EOT ended the answer to the oldest group in flight. */
static void group_answered(ix_conn *c) {
    ixc_nb_group_read(c);
    if (atomic_load(&c->inflight) > 0) atomic_fetch_sub(&c->inflight, 1);
    int w = atomic_load(&c->cancel_wait);
    /* only ix_cancel raises it, and only from 0: no lost update */
    if (w > 0) atomic_compare_exchange_strong(&c->cancel_wait, &w, w - 1);
}

int ixc_next_msg(ix_conn *c, ixp_msg *m) {
    for (;;) {
        /* Replies already received are still read after the connection
         * died (a batch reports every row that got its answer). */
        int rc = ixp_reader_pending(&c->rd) > 0 ? ixp_reader_next(&c->rd, m) : IX_NEED_MORE;
        if (rc == IX_OK && m->tag == IXP_SQ_EOT) group_answered(c);
        if (rc == IX_OK && m->tag == IXP_MSG_LOGIN) ixc_nb_group_read(c);
        if (rc == IX_OK && c->sent_since_read) {
            /* the first reply message read since a request went out */
            c->roundtrips++;
            c->sent_since_read = 0;
        }
        if (rc == IX_OK && m->tag == IXP_SQ_FILE) { /* a request inside a reply: answer it */
            if (!c->is_ixd) /* IBM's SQ_FILE is only partly published (docs/protocol.md) */
                return ixc_kill(c, IX_ENOTSUP,
                                "the server asked for a client file (SQ_FILE, LOTOFILE or "
                                "FILETOBLOB with 'client'); libixdb speaks that exchange with "
                                "ixd only");
            if (tracing(c)) {
                ixp_print_msg(&c->pr_in, IXP_FROM_SERVER, m, &c->line);
                emit_line(c, "S->C");
            }
            if ((rc = ixc_file_answer(c, m)) != IX_OK) return rc;
            continue;
        }
        if (rc == IX_OK) {
            if (tracing(c)) {
                if (m->tag == IXP_MSG_LOGIN)
                    ixp_login_print(m->u.login.packet.p, m->u.login.packet.n, &c->line);
                else
                    ixp_print_msg(&c->pr_in, IXP_FROM_SERVER, m, &c->line);
                emit_line(c, "S->C");
            }
            return IX_OK;
        }
        if (rc == IX_NEED_MORE && c->dead) return dead_rc(c);
        if (rc != IX_NEED_MORE) {
            const char *why = ixp_reader_why(&c->rd);
            return ixc_kill(c, IX_EPROTO, "lost sync with the server at byte %llu: %s",
                            (unsigned long long)ixp_reader_offset(&c->rd),
                            why ? why : ix_rc_str(rc));
        }
        rc = ixc_io(c, 1);
        if (rc != IX_OK) return rc;
    }
}

void ixc_batch_free(ixc_batch *b) {
    while (b) {
        ixc_batch *n = b->next;
        ixb_wbuf_free(&b->data);
        ixc_free(b);
        b = n;
    }
}

static void cols_free(ixc_col *cols, int n) {
    if (!cols) return;
    for (int i = 0; i < n; i++) {
        ixc_free(cols[i].name);
        ixb_wbuf_free(&cols[i].text);
    }
    ixc_free(cols);
}

void ixc_reply_free(ixc_reply *r) {
    cols_free(r->cols, r->ncols);
    r->cols = NULL;
    r->ncols = 0;
}

static void set_caps(ix_conn *c, const ixp_caps *caps) {
    c->scan_off = 0; /* bytes after this message decode with the new caps: scan again */
    c->scan_groups = 0;
    c->scan_bad = 0;
    c->caps = *caps;
    c->rd.caps = *caps;
    c->pr_in.caps = *caps;
    c->pr_out.caps = *caps;
}

static int copy_describe(ix_conn *c, const ixp_msg *m, ixc_reply *r) {
    r->stmt_type = m->u.describe.stmt_type;
    r->stmt_id = m->u.describe.stmt_id;
    r->tuple_size = m->u.describe.tuple_size;
    r->has_describe = 1;
    if (!r->want_describe) return IX_OK;
    int n = m->u.describe.ncols;
    cols_free(r->cols, r->ncols);
    r->ncols = 0;
    r->cols = n > 0 ? ixc_calloc((size_t)n, sizeof *r->cols) : NULL;
    if (n > 0 && !r->cols) return ixc_kill(c, IX_ENOMEM, "out of memory");
    size_t pos = 0;
    ixp_column col;
    while (r->ncols < n && ixp_describe_next(m, &pos, &col)) {
        ixc_col *d = &r->cols[r->ncols++];
        char xn[64] = "";
        if (col.xname.n < sizeof xn) memcpy(xn, col.xname.p, col.xname.n);
        d->vt.code = ixt_vtype_resolve(col.type & 0xff, xn);
        d->lob_type = ixc_lob_type_of(col.type, xn);
        d->vt.enclen = (uint32_t)col.enclen;
        d->type = col.type;
        d->name = ixc_malloc(col.name.n + 1);
        if (!d->name) return ixc_kill(c, IX_ENOMEM, "out of memory");
        memcpy(d->name, col.name.p, col.name.n);
        d->name[col.name.n] = 0;
        ixb_wbuf_init(&d->text, ixc_mem());
    }
    return IX_OK;
}

/*
 * What a reply says about the server's transaction moves c->in_txn, on
 * every path (one-shot, statements, pipelined batches, fetches):
 *   SQ_XACTSTAT       new level 0: no transaction; otherwise one is open.
 *                     (Event and level values are unresolved for real
 *                     servers, sqli-protocol.md §8 #17; ixd sends event 2
 *                     and level 1 inside a transaction, 0 outside.)
 *   SQ_ERR -255 / -256 / -458: no transaction (none open, none possible,
 *                     or the server rolled it back).
 *   SQ_ERR -535       a transaction is open.
 */
static void txn_from_err(ix_conn *c, int sqlcode) {
    switch (sqlcode) {
    case IX_SQLCODE_NOT_IN_TXN:
    case IX_SQLCODE_TXN_UNAVAILABLE:
    case IX_SQLCODE_LONG_TXN_ABORTED: ixc_txn_ended(c); break;
    case IX_SQLCODE_ALREADY_IN_TXN: c->in_txn = 1; break;
    }
}

/* A tuple that is not one row of the statement's plan: the stream cannot be
 * trusted any more (as for any protocol error, the connection is closed). */
static __attribute__((noinline)) int bad_tuple(ix_conn *c, const ixc_rowplan *p, int rc, int col,
                                               size_t n) {
    if (rc == IX_ELIMIT)
        return ixc_kill(c, IX_EPROTO,
                        "malformed row from the server: bytes after column %d (%zu bytes)",
                        p->ncols, n);
    const char *tn = ixt_type_name(p->col[col].vt.code);
    if (rc == IX_EINVAL)
        return ixc_kill(c, IX_EPROTO, "cannot walk column %d (%s) of a row: unknown layout",
                        col + 1, tn ? tn : "unknown type");
    return ixc_kill(
        c, IX_EPROTO, "malformed row from the server: %s in column %d (%s), row of %zu bytes",
        rc == IX_NEED_MORE ? "the row ends" : "bad length", col + 1, tn ? tn : "unknown type", n);
}

/* Appends one SQ_TUPLE's payload t[0..n) to r->tuples as a [u32 n][bytes]
 * record (one copy), after checking it once against r->plan. */
static inline int take_tuple(ix_conn *c, ixc_reply *r, const uint8_t *t, size_t n) {
    int col = 0;
    int rc = ixc_rowplan_check(r->plan, t, n, &col);
    if (rc != IX_OK) return bad_tuple(c, r->plan, rc, col, n);
    ixb_wbuf *w = &r->tuples->data;
    if (w->cap - w->len < 4 + n && (n > UINT32_MAX - 4 || ixb_wbuf_reserve(w, 4 + n) != IX_OK))
        return ixc_kill(c, IX_ENOMEM, "out of memory for a fetched row");
    uint32_t l = (uint32_t)n;
    memcpy(w->data + w->len, &l, 4);
    memcpy(w->data + w->len + 4, t, n);
    w->len += 4 + n;
    r->tuples->ntuples++;
    return IX_OK;
}

/* Reads one reply group (up to its EOT) into *r. Returns IX_OK (a server
 * error is in r->sqlcode, not in the return value), or a connection error. */
int ixc_read_reply(ix_conn *c, ixc_reply *r) {
    ixp_msg m;
    int fast = r->tuples && !tracing(c);
    for (;;) {
        const uint8_t *t;
        size_t tn;
        int rc;
        while (fast && ixp_reader_next_tuple(&c->rd, &t, &tn)) { /* rows: no general decode */
            if (!r->first_us) r->first_us = ixc_now_us();
            if ((rc = take_tuple(c, r, t, tn)) != IX_OK) return rc;
        }
        rc = ixc_next_msg(c, &m);
        if (rc != IX_OK) return rc;
        if (!r->first_us) r->first_us = ixc_now_us();
        switch (m.tag) {
        case IXP_SQ_EOT:
            r->end_us = ixc_now_us();
            r->at_eot = 1;
            return IX_OK;
        case IXP_SQ_ERR:
            txn_from_err(c, m.u.err.sqlcode);
            if (!r->sqlcode) {
                r->sqlcode = m.u.err.sqlcode ? m.u.err.sqlcode : -1;
                r->isamcode = m.u.err.isamcode;
                r->offset = m.u.err.offset;
                size_t n = m.u.err.msg.n < sizeof r->msg - 1 ? m.u.err.msg.n : sizeof r->msg - 1;
                memcpy(r->msg, m.u.err.msg.p, n);
                r->msg[n] = 0;
            }
            break;
        case IXP_SQ_DONE:
            r->has_done = 1;
            r->rows = m.u.done.rows;
            r->rowid = m.u.done.rowid;
            r->serial = m.u.done.serial;
            r->done_warnings = m.u.done.warnings;
            if (r->stop_at_done) return IX_OK;
            break;
        case IXP_SQ_INSERTDONE:
            r->has_insertdone = 1;
            r->serial8 = m.u.insertdone.serial8;
            r->bigserial = m.u.insertdone.has_bigserial ? m.u.insertdone.bigserial : 0;
            break;
        case IXP_SQ_DESCRIBE:
            if ((rc = copy_describe(c, &m, r)) != IX_OK) return rc;
            break;
        case IXP_SQ_TUPLE:
            if (r->tuples && (rc = take_tuple(c, r, m.u.tuple.data.p, m.u.tuple.data.n)) != IX_OK)
                return rc;
            break;
        case IXP_SQ_XACTSTAT:
            r->has_xact = 1;
            c->in_txn = m.u.xactstat.new_level != 0;
            break;
        case IXP_SQ_PROTOCOLS: {
            ixp_caps caps = ixp_caps_from_bits(m.u.protocols.p, m.u.protocols.n);
            set_caps(c, &caps);
            break;
        }
        case IXP_SQ_EXIT: return ixc_kill(c, IX_ECONN, "the server ended the session");
        case IXP_SQ_CLOSE: /* server auto-closed the cursor: end of data */ r->has_done = 1; break;
        case IXP_SQ_TUPID: /* a scroll fetch: the position of its first row */
            if (!r->has_tupid) r->tupid = m.u.tupid;
            r->has_tupid = 1;
            break;
        case IXP_SQ_COST:
        case IXP_SQ_GENKEYS_REPLY: break;
        default:
            return ixc_kill(c, IX_EPROTO, "unexpected %s in a reply",
                            ixp_tag_name(m.tag) ? ixp_tag_name(m.tag) : "message");
        }
    }
}

/* ---- the queue of expected replies ------------------------------------------- */

int ixc_push_pend(ix_conn *c, int kind, ix_stmt *owner) {
    return ixc_push_pend_at(c, kind, owner, ixc_now_us());
}

int ixc_push_pend_at(ix_conn *c, int kind, ix_stmt *owner, int64_t sent_us) {
    if (c->pend_len == c->pend_cap) {
        size_t cap = c->pend_cap ? c->pend_cap * 2 : 16;
        ixc_pend *p = ixc_malloc(cap * sizeof *p);
        if (!p) return ixc_kill(c, IX_ENOMEM, "out of memory");
        for (size_t i = 0; i < c->pend_len; i++)
            p[i] = c->pend[(c->pend_head + i) % c->pend_cap];
        ixc_free(c->pend);
        c->pend = p;
        c->pend_cap = cap;
        c->pend_head = 0;
    }
    c->pend[(c->pend_head + c->pend_len) % c->pend_cap] = (ixc_pend){kind, owner, sent_us, 0, 0};
    c->pend_len++;
    return IX_OK;
}

int ixc_push_pend_front(ix_conn *c, int kind, ix_stmt *owner) {
    int rc = ixc_push_pend(c, kind, owner); /* makes room, appended */
    if (rc != IX_OK) return rc;
    ixc_pend e = c->pend[(c->pend_head + c->pend_len - 1) % c->pend_cap];
    for (size_t i = c->pend_len - 1; i > 0; i--)
        c->pend[(c->pend_head + i) % c->pend_cap] = c->pend[(c->pend_head + i - 1) % c->pend_cap];
    c->pend[c->pend_head] = e;
    return IX_OK;
}

/* A statement's request (PEND_OP): its op handler decodes one reply group
 * (the entry stays until every group it expects has been read). */
static int pend_op(ix_conn *c) {
    ixc_pend *f = &c->pend[c->pend_head];
    ix_stmt *s = f->owner;
    int last = --f->groups <= 0;
    if (last) {
        c->pend_head = (c->pend_head + 1) % c->pend_cap;
        c->pend_len--;
    }
    if (s) return ixc_stmt_op_reply(s, last);
    ixc_reply r;
    memset(&r, 0, sizeof r);
    return ixc_read_reply(c, &r);
}

/* Reads the reply for the oldest pending entry (c->ctl_wait says meanwhile
 * whether the watchdog applies). */
static int pend_one(ix_conn *c);

int ixc_pend_one(ix_conn *c) {
    int save = c->ctl_wait;
    c->ctl_wait = ctl_pending(c);
    int rc = pend_one(c);
    c->ctl_wait = save;
    return rc;
}

static int pend_one(ix_conn *c) {
    if (c->pend[c->pend_head].kind == PEND_OP) return pend_op(c);
    ixc_pend e = c->pend[c->pend_head];
    c->pend_head = (c->pend_head + 1) % c->pend_cap;
    c->pend_len--;
    ixc_reply r;
    memset(&r, 0, sizeof r);
    ixc_batch *b = NULL;
    if (e.kind == PEND_FETCH && e.owner) {
        b = ixc_calloc(1, sizeof *b);
        if (!b) return ixc_kill(c, IX_ENOMEM, "out of memory");
        ixb_wbuf_init(&b->data, ixc_mem());
        /* Room for the reply asked for, up to RECV_CHUNK (fewer reallocs). */
        ixb_wbuf_reserve(&b->data,
                         e.asked > 0 && e.asked < RECV_CHUNK ? (size_t)e.asked : RECV_CHUNK);
        r.tuples = b;
        r.plan = ixc_stmt_plan(e.owner);
    }
    uint64_t at = ixp_reader_offset(&c->rd);
    int rc = b && !r.plan ? ixc_kill(c, IX_ENOMEM, "out of memory") : ixc_read_reply(c, &r);
    if (e.kind == PEND_FETCH && e.owner) {
        ix_stmt *s = e.owner;
        s->inflight--;
        if (rc != IX_OK) {
            ixc_batch_free(b);
            return rc;
        }
        s->roundtrips++;
        s->bytes_in += (int64_t)(ixp_reader_offset(&c->rd) - at);
        ixc_fetch_feedback(s, e.asked, r.first_us - e.sent_us, r.end_us - r.first_us,
                           r.has_done || r.sqlcode != 0);
        b->done = r.has_done || r.sqlcode != 0;
        b->sqlcode = r.sqlcode;
        b->isamcode = r.isamcode;
        b->offset = r.offset;
        memcpy(b->msg, r.msg, sizeof b->msg);
        if (s->queue_tail)
            s->queue_tail->next = b;
        else
            s->queue = b;
        s->queue_tail = b;
    }
    return rc;
}

/* In non-blocking mode: the oldest pending reply when it has arrived
 * whole, else IX_WANT_READ / IX_WANT_WRITE. */
static __attribute__((noinline)) int pend_one_nb(ix_conn *c) {
    int want = IX_WANT_READ;
    int k = ixc_nb_ready(c, &want);
    if (k <= 0) return k < 0 ? k : want;
    c->nb_step = 0; /* the reply is buffered: nothing waits (but rare second round trips) */
    c->nb_decoding++;
    int rc = ixc_pend_one(c);
    c->nb_decoding--;
    c->nb_step = 1;
    return rc;
}

int ixc_pend_step(ix_conn *c) {
    int rc = c->sent < c->out.len ? ixc_flush(c) : IX_OK;
    if (rc == IX_OK) rc = c->nb_step ? pend_one_nb(c) : ixc_pend_one(c);
    return rc;
}

int ixc_drain(ix_conn *c) {
    while (c->pend_len > 0) {
        int rc = ixc_flush(c);
        if (rc == IX_OK) rc = c->nb_step ? pend_one_nb(c) : ixc_pend_one(c);
        if (rc != IX_OK) return rc;
    }
    return IX_OK;
}

/* Drains until stmt has a read-ahead batch (or nothing is pending). */
int ixc_drain_for(ix_conn *c, ix_stmt *s) {
    while (c->pend_len > 0 && !s->queue) {
        int rc = ixc_flush(c);
        if (rc == IX_OK) rc = c->nb_step ? pend_one_nb(c) : ixc_pend_one(c);
        if (rc != IX_OK) return rc;
    }
    return IX_OK;
}

/* ---- connecting ------------------------------------------------------------ */

static ix_conn *conn_new(void) {
    ix_conn *c = ixc_calloc(1, sizeof *c);
    if (!c) return NULL;
    ixp_reader_init(&c->rd, IXP_FROM_SERVER, ixc_mem());
    ixp_limits_default(&c->rd.lim); /* set once: the row fast path reads max_tuple */
    ixb_wbuf_init(&c->out, ixc_mem());
    ixb_wbuf_init(&c->line, ixc_mem());
    ixp_printer_init(&c->pr_in, ixc_mem());
    ixp_printer_init(&c->pr_out, ixc_mem());
    c->trace_fd = -1;
    c->cv_to_db = c->cv_from_db = (iconv_t)-1;
    ixb_wbuf_init(&c->conv, ixc_mem());
    c->fetch_buffer = IX_FETCH_AUTO;
    c->readahead = IXC_READAHEAD_AUTO;
    atomic_init(&c->cancel_fd, -1);
    atomic_init(&c->inflight, 0);
    atomic_init(&c->cancel_wait, 0);
    const char *tf = getenv("IXDB_TRACE");
    if (tf && *tf) c->trace_fd = open(tf, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
    return c;
}

static char *dupstr(const char *s, size_t n) {
    char *d = ixc_malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* Sends a group already encoded in c->out (from `mark`) after tracing it. */
static int send_group(ix_conn *c, size_t mark) {
    ixc_queued(c, mark);
    return ixc_flush(c);
}

/* Session variables sent in the login environment when they are set in the
 * process environment (besides CLIENT_LOCALE, DB_LOCALE and DBDATE, which
 * also have DSN keys). IFX_AUTOFREE and IFX_DEFERRED_PREPARE are not among
 * them: they tell the server how the client sends its requests, and
 * libixdb does not send what they announce (docs/protocol.md "Evidence"). */
static const char *const session_vars[] = {
    "DBCENTURY",   "DBTIME",      "DBMONEY",      "DBLANG",      "GL_DATE",         "GL_DATETIME",
    "DBTEMP",      "DBSPACETEMP", "OPTCOMPIND",   "PDQPRIORITY", "DELIMIDENT",      "NODEFDAC",
    "IFX_UPDDESC", "OPT_GOAL",    "PSORT_NPROCS", "DBNLS",       "IFX_LOB_XFERSIZE"};

/* Queues SQ_INFO (§2.7), its own group. */
static void queue_info(ix_conn *c) {
    size_t mark = ixc_mark(c);
    ixp_bytes keys[2] = {{(const uint8_t *)"DBTEMP", 6}, {(const uint8_t *)"SUBQCACHESZ", 11}};
    ixp_bytes vals[2] = {{(const uint8_t *)"/tmp", 4}, {(const uint8_t *)"10", 2}};
    ixp_enc_info(&c->out, keys, vals, 2);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    ixc_queued(c, mark);
}

/* Queues SQ_DBOPEN (§2.8) when the DSN names a database, its own group. */
static void queue_dbopen(ix_conn *c, const dsn_opts *o) {
    if (!(o->database && *o->database)) return;
    size_t mark = ixc_mark(c);
    ixp_enc_dbopen(&c->out, o->database, strlen(o->database), 0);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    ixc_queued(c, mark);
}

/* login's answer when the server redirected the connection (*redir says
 * where); the connect machine's when a login succeeded. */
#define IXC_REDIRECTED 1000
#define IXC_CONNECTED  1001

/* Sends the login request (CONREQ) of o: the user, the session variables
 * and this process's name and host. */
static int send_conreq(ix_conn *c, const dsn_opts *o) {
    ixp_conreq *q = ixc_calloc(1, sizeof *q); /* large: kept off the stack */
    if (!q) return ixc_fail(c, IX_ENOMEM, "out of memory");
    ixp_conreq_defaults(q, o->user ? o->user : "", o->password, o->server ? o->server : "");
    const char *names[] = {"CLIENT_LOCALE", "DB_LOCALE", "DBDATE"};
    const char *vals[] = {o->client_locale, o->db_locale, o->dbdate};
    for (int i = 0; i < 3; i++) {
        if (!vals[i] || q->nenv >= IXP_LOGIN_MAXENV) continue;
        q->env[q->nenv].name = ixp_ascstr_of(names[i]);
        q->env[q->nenv].value = ixp_ascstr_of(vals[i]);
        q->nenv++;
    }
    /* The other session variables, from the environment when set. */
    for (size_t i = 0; i < sizeof session_vars / sizeof session_vars[0]; i++) {
        const char *v = getenv(session_vars[i]);
        if (!v || !*v || q->nenv >= IXP_LOGIN_MAXENV) continue;
        q->env[q->nenv].name = ixp_ascstr_of(session_vars[i]);
        q->env[q->nenv].value = ixp_ascstr_of(v);
        q->nenv++;
    }
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    q->pinfo.pid = (int32_t)getpid();
    q->pinfo.host = ixp_ascstr_of(host);
    size_t mark = ixc_mark(c);
    int rc = ixp_conreq_encode(q, &c->out);
    ixc_free(q);
    if (rc != IX_OK)
        return ixc_fail(c, rc == IX_ENOMEM ? IX_ENOMEM : IX_EINVAL,
                        "cannot encode the login request: %s", ix_rc_str(rc));
    return send_group(c, mark);
}

/* A rejected login (CONREJ, or an accept carrying a service error) as the
 * SQLCODE Informix gives, with its insertion text. */
static int login_rejected(ix_conn *c, const dsn_opts *o, const ixp_conacc *a) {
    int code = a->result == IXP_ASC_INITRESP && a->svc_error ? a->svc_error : -908;
    char ins[256];
    if (a->result == IXP_ASC_INITRESP && a->nmsg > 0)
        snprintf(ins, sizeof ins, "%.*s", (int)a->msg[0].text.n, (const char *)a->msg[0].text.p);
    else if (code == -908)
        snprintf(ins, sizeof ins, "%s", o->server ? o->server : "");
    else
        snprintf(ins, sizeof ins, "%s", o->user ? o->user : "");
    ixc_kill(c, IX_ESQL, "login rejected");
    return ixc_fail_sql(c, code, 0, 0, ins);
}

int ixc_banner_big_fetch(const char *banner) {
    const char *v = banner ? strstr(banner, "Version ") : NULL;
    int major, minor, fix;
    char train, kind;
    if (!v || sscanf(v + 8, "%d.%d.%c%c%d", &major, &minor, &train, &kind, &fix) != 5) return 0;
    if (major != 11) return major > 11;
    return minor > 70 || (minor == 70 && fix >= 5);
}

int32_t ixc_fetch_max(const ix_conn *c) {
    int32_t max = ixp_fetch_bufsize_max(&c->caps);
    return c->fetch_max > 0 && c->fetch_max < max ? c->fetch_max : max;
}

/* c->forms (ix_conn_forms) from the forms chosen and, once the server has
 * answered SQ_PROTOCOLS, the NFETCH size its capabilities allow. */
static void name_forms(ix_conn *c) {
    snprintf(c->forms, sizeof c->forms, "%s%s%s%s%s", c->pipeline_login ? "pipeline_login," : "",
             c->deferred_prepare ? "deferred_prepare," : "", c->fast ? "urgent_cancel," : "",
             c->optofc ? "open_fetch," : "",
             ixc_fetch_max(c) > IXC_FETCH_MAX_OLD ? "fetch_1m," : "");
    size_t n = strlen(c->forms);
    if (n) c->forms[n - 1] = 0;
}

/* Chooses the request forms of c once its login is accepted (c->is_ixd
 * known): every optional form against ixd with compat=auto, or always with
 * compat=fast; otherwise only the verified forms (docs/protocol.md
 * "Evidence"). The DSN keys deferred_prepare, optofc and pipeline_login can
 * turn a form off in every mode. */
static void choose_forms(ix_conn *c, const dsn_opts *o) {
    c->compat = o->compat;
    c->fast = o->compat == IXC_COMPAT_FAST || (o->compat == IXC_COMPAT_AUTO && c->is_ixd);
    c->deferred_prepare = c->fast && o->deferred_prepare;
    c->pipeline_login = c->fast && o->pipeline_login;
    c->optofc = o->optofc;
    c->fetch_max = c->fast                                   ? INT32_MAX
                   : ixc_banner_big_fetch(c->server_version) ? IXC_FETCH_MAX_NEW
                                                             : IXC_FETCH_MAX_OLD;
    name_forms(c);
    if (!tracing(c)) return;
    static const char *const asked[] = {"auto", "conservative", "fast"};
    ixp_printf(&c->line, "request forms: %s (compat=%s, %s): %s", ix_conn_compat(c),
               asked[c->compat], c->is_ixd ? "the server is ixd" : "not ixd", c->forms);
    emit_line(c, "--");
}

/* Reads the server's answer to the login: IX_OK when accepted (the server's
 * name and version kept), IXC_REDIRECTED with *redir filled, or an error. */
static int read_conacc(ix_conn *c, const dsn_opts *o, ixp_redirect_target *redir) {
    ixp_msg m;
    int rc = ixc_next_msg(c, &m);
    if (rc != IX_OK) return rc;
    if (m.tag != IXP_MSG_LOGIN)
        return ixc_kill(c, IX_EPROTO, "the server did not answer the login");
    ixp_conacc *a = ixc_calloc(1, sizeof *a);
    if (!a) return ixc_kill(c, IX_ENOMEM, "out of memory");
    size_t at = 0;
    const char *why = NULL;
    rc = ixp_conacc_decode(m.u.login.packet.p, m.u.login.packet.n, NULL, a, NULL, &at, &why);
    if (rc != IX_OK) {
        ixc_free(a);
        return ixc_kill(c, IX_EPROTO, "bad login reply at byte %zu: %s", at,
                        why ? why : ix_rc_str(rc));
    }
    if (a->sl_type == IXP_SL_REDIRECT) {
        rc = a->result == IXP_ASC_DBLIST
                 ? ixp_redirect_parse(a->redirect.p, a->redirect.n, redir, &why)
                 : (why = "no SQ_ASCDBLIST item", IX_EMALFORMED);
        ixc_free(a);
        if (rc != IX_OK) return ixc_kill(c, IX_EPROTO, "bad redirect from the server: %s", why);
        return IXC_REDIRECTED;
    }
    if (a->sl_type == IXP_SL_CONREJ || (a->result == IXP_ASC_INITRESP && a->svc_error != 0)) {
        rc = login_rejected(c, o, a);
        ixc_free(a);
        return rc;
    }
    c->server_name = dupstr(a->server_name.p ? a->server_name.p : "", a->server_name.n);
    c->server_version = dupstr(a->version.p ? a->version.p : "", a->version.n);
    size_t idn = strlen(IXP_IXD_SERIAL);
    c->is_ixd = a->serial.n >= idn && memcmp(a->serial.p, IXP_IXD_SERIAL, idn) == 0;
    ixc_free(a);
    if (!c->server_name || !c->server_version) return ixc_kill(c, IX_ENOMEM, "out of memory");
    c->logged_in = 1;
    choose_forms(c, o);
    return IX_OK;
}

/* SQ_PROTOCOLS, SQ_INFO and SQ_DBOPEN after an accepted login: one flight
 * when pipeline_login (neither SQ_INFO nor SQ_DBOPEN depends on the granted
 * capabilities, and their replies are decoded after the answer has set
 * them); else SQ_PROTOCOLS alone first, and the connect machine sends each
 * of the others after the answer to the one before (the verified order). */
static void open_session_send(ix_conn *c, const dsn_opts *o) {
    size_t mark = ixc_mark(c);
    ixp_enc_protocols(&c->out, ixp_caps_jdbc_offer, sizeof ixp_caps_jdbc_offer);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    ixc_queued(c, mark);
    if (c->pipeline_login) {
        queue_info(c);
        queue_dbopen(c, o);
    }
}

/* ---- clusters: candidates, retries, redirects (docs/c-api.md "Clusters") --- */

#define IXC_REDIRECT_MAX      4  /* redirects followed in one connection attempt */
#define IXC_CONTIME_DEFAULT   60 /* seconds; INFORMIXCONTIME=0 means this too (IBM) */
#define IXC_CONRETRY_DEFAULT  1  /* additional attempts per server (IBM) */
#define IXC_KEEPALIVE_DEFAULT 60 /* idle seconds when sqlhosts k=1 meets keepalive=0 */

/* Where and how long to try. deadline 0: INFORMIXCONTIME/CONRETRY not set,
 * one attempt per candidate, each bounded by connect_timeout. */
typedef struct connect_plan {
    ixc_hostent *ents;
    int n;
    int group; /* the candidates are the members of sqlhosts group o->server */
    char name[128];
    int64_t start, deadline;
    int retries, interval_ms, contime_s;
} connect_plan;

static unsigned pick_random(unsigned n) {
    static atomic_uint seq;
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    uint64_t x = (uint64_t)ts.tv_nsec ^ ((uint64_t)getpid() << 20) ^
                 ((uint64_t)atomic_fetch_add(&seq, 1) * 0x9E3779B97F4A7C15u);
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9u;
    x ^= x >> 32;
    return (unsigned)(x % n);
}

/* The candidates: host:port from the DSN (or a given transport), or the
 * sqlhosts entry of o->server (a group: its members; c=1: rotated to start
 * at a random one). Returns IX_OK or an error with err set. */
static int plan_candidates(const dsn_opts *o, int given, connect_plan *p, char *err,
                           size_t errlen) {
    p->ents = ixc_calloc(IXC_SQLHOSTS_MAX, sizeof *p->ents);
    if (!p->ents) return snprintf(err, errlen, "out of memory"), IX_ENOMEM;
    ixc_hostent *e = &p->ents[0];
    snprintf(e->server, sizeof e->server, "%s", o->server ? o->server : "");
    snprintf(e->host, sizeof e->host, "%s", o->host);
    snprintf(e->port, sizeof e->port, "%s", o->port);
    e->tls = o->tls;
    e->keepalive = -1;
    p->n = 1;
    if (given || o->addr_given || !o->server || !*o->server) return IX_OK;
    char def[512];
    const char *path = o->sqlhosts;
    if (!path) {
        const char *dir = getenv("INFORMIXDIR");
        snprintf(def, sizeof def, "%s/etc/sqlhosts", dir && *dir ? dir : "/opt/IBM/informix");
        path = def;
    }
    int n = ixc_sqlhosts_lookup(path, o->server, p->ents, IXC_SQLHOSTS_MAX, err, errlen);
    if (n == -1 && !o->sqlhosts) return IX_OK; /* no default file: defaults */
    if (n <= 0) return n == -2 ? IX_EINVAL : IX_ECONN;
    p->n = n;
    p->group = n > 1 || strcmp(p->ents[0].server, o->server) != 0;
    if (p->ents[0].random_start && n > 1) {
        unsigned r = pick_random((unsigned)n);
        ixc_hostent tmp[IXC_SQLHOSTS_MAX];
        for (int i = 0; i < n; i++)
            tmp[i] = p->ents[((unsigned)i + r) % (unsigned)n];
        memcpy(p->ents, tmp, (size_t)n * sizeof *tmp);
    }
    return IX_OK;
}

/* IBM's rules: INFORMIXCONTIME seconds in all (0: 60), each server tried
 * once and then INFORMIXCONRETRY more times, the rounds starting
 * CONTIME / CONRETRY apart. Neither set: one round, no overall bound. */
static void plan_timing(const dsn_opts *o, connect_plan *p) {
    p->start = now_ms();
    if (o->contime_s < 0 && o->conretry < 0) return;
    p->contime_s = o->contime_s > 0 ? o->contime_s : IXC_CONTIME_DEFAULT;
    p->retries = o->conretry >= 0 ? o->conretry : IXC_CONRETRY_DEFAULT;
    p->deadline = p->start + (int64_t)p->contime_s * 1000;
    p->interval_ms = p->retries > 0 ? p->contime_s * 1000 / p->retries : 0;
}

/* Milliseconds one attempt may take: connect_timeout, and what is left. */
static int attempt_ms(const dsn_opts *o, const connect_plan *p) {
    int ms = o->connect_timeout_ms;
    if (p->deadline) {
        int64_t left = p->deadline - now_ms();
        if (left < 1) left = 1;
        if (ms == 0 || left < ms) ms = (int)left;
    }
    return ms;
}

/* Back to the state of a connection never connected (between attempts). */
static void conn_reset(ix_conn *c) {
    if (c->tr) c->tr->vt->close(c->tr);
    c->tr = NULL;
    ixp_reader_free(&c->rd);
    ixp_reader_init(&c->rd, IXP_FROM_SERVER, ixc_mem());
    ixp_limits_default(&c->rd.lim);
    ixb_wbuf_reset(&c->out);
    c->sent = 0;
    memset(&c->caps, 0, sizeof c->caps);
    c->dead = c->logged_in = c->db_open = c->db_logged = c->db_ansi = 0;
    ixc_fp_forget(c);
    atomic_store(&c->inflight, 0);
    atomic_store(&c->cancel_wait, 0);
    c->pend_head = c->pend_len = 0;
    c->roundtrips = c->sent_since_read = 0;
    c->peer_eof = c->scan_bad = 0;
    c->scan_off = 0;
    c->scan_groups = 0;
    ixc_free(c->server_name);
    ixc_free(c->server_version);
    ixc_free(c->member);
    c->server_name = c->server_version = c->member = NULL;
}

/* Records "NAME@HOST:PORT" of the server that accepted. */
static int note_member(ix_conn *c, const ixc_hostent *e) {
    const char *name = e->server[0] ? e->server : c->server_name ? c->server_name : "";
    int v6 = strchr(e->host, ':') != NULL;
    size_t cap = strlen(name) + strlen(e->host) + strlen(e->port) + 8;
    if (!(c->member = ixc_malloc(cap))) return ixc_kill(c, IX_ENOMEM, "out of memory");
    snprintf(c->member, cap, "%s%s%s%s%s:%s", name, *name ? "@" : "", v6 ? "[" : "", e->host,
             v6 ? "]" : "", e->port);
    return IX_OK;
}

/*
 * The connect state machine (ix_connect_poll; ix_connect loops over it).
 * One attempt is a transport to one candidate and the login on it:
 *
 *   CS_TCP      the transport connects (TCP, TLS handshake)
 *   CS_CONACC   the login request went out; its answer is awaited
 *   CS_PROTO    SQ_PROTOCOLS (and, pipelined, SQ_INFO / SQ_DBOPEN) went out
 *   CS_INFO     SQ_INFO's reply is awaited
 *   CS_DBOPEN   SQ_DBOPEN's reply is awaited
 *   CS_WAIT     between INFORMIXCONTIME rounds (no socket: IX_WANT_TIMER)
 *
 * An attempt ends with IX_OK (connected), IXC_REDIRECTED (the next attempt
 * goes to the target: try_member's hops), or an error, after which the
 * next candidate, the next round, or the end comes (connect_plan_run's
 * rules). Each step decodes only replies that have arrived whole.
 */
enum { CS_TCP = 1, CS_CONACC, CS_PROTO, CS_INFO, CS_DBOPEN, CS_WAIT };

struct ixc_connsm {
    dsn_opts o;
    connect_plan p;
    ixc_transport *given; /* the test seam's transport, for the first attempt */
    int phase;
    int round, idx, hop, fatal, attempts;
    ixc_hostent e; /* the server being tried (a candidate, or a redirect's target) */
    char path[IXC_REDIRECT_MAX + 1][300];
    int64_t attempt_deadline, due;
    int attempt_ms, rt_saved;
    char last[1024];
};

/* The wait for the server during the login: each is bounded by the read
 * timeout (from the request or the last bytes), as every wait of a
 * session, and all of them by the attempt's time. */
static int64_t login_wait_deadline(const ix_conn *c, const struct ixc_connsm *m) {
    int64_t d = m->attempt_deadline;
    int rt = m->rt_saved;
    if (m->phase == CS_TCP || rt <= 0) return d;
    int64_t w = c->io_at_ms + rt;
    return d == 0 || w < d ? w : d;
}

int64_t ixc_connsm_deadline(const ix_conn *c);
int64_t ixc_connsm_deadline(const ix_conn *c) {
    const struct ixc_connsm *m = c->csm;
    if (!m) return 0;
    if (m->phase == CS_WAIT) return m->due;
    return login_wait_deadline(c, m);
}

/* Starts an attempt on m->e: a fresh transport (or the given one). */
static int attempt_start(ix_conn *c, struct ixc_connsm *m) {
    dsn_opts *o = &m->o;
    conn_reset(c);
    int ms = attempt_ms(o, &m->p);
    m->attempt_ms = ms;
    m->attempt_deadline = ms > 0 ? now_ms() + ms : 0;
    ixc_transport *tr = m->given;
    m->given = NULL;
    int rc = set_str(&o->server, m->e.server, strlen(m->e.server));
    if (rc != IX_OK) {
        if (tr) tr->vt->close(tr);
        c->dead = 1;
        return ixc_fail(c, IX_ENOMEM, "out of memory");
    }
    m->phase = CS_TCP;
    if (!tr) {
        const ixc_hostent *e = &m->e;
        int ka = e->keepalive == 0   ? 0
                 : e->keepalive == 1 ? (o->keepalive_s ? o->keepalive_s : IXC_KEEPALIVE_DEFAULT)
                                     : o->keepalive_s;
        ixc_tcp_opts t = {e->host, e->port, ms, e->tls || o->tls, o->tls_verify, o->tls_ca, ka};
        char err[300];
        rc = ixc_transport_start(&t, &tr, err, sizeof err);
        if (rc != IX_OK) {
            c->dead = 1;
            return ixc_fail(c, rc, "%s", err);
        }
        c->tr = tr;
        return IX_OK;
    }
    c->tr = tr;
    m->phase = CS_CONACC;
    return send_conreq(c, o);
}

/* The attempt's time ran out in its current phase. */
static int attempt_expired(ix_conn *c, struct ixc_connsm *m) {
    if (m->phase == CS_TCP) {
        c->dead = 1;
        return ixc_fail(c, IX_ETIMEOUT, "%s: timed out (%s port %s)", ixc_transport_phase(c->tr),
                        m->e.host, m->e.port);
    }
    int ms = m->attempt_ms;
    if (m->rt_saved > 0 && (ms == 0 || m->rt_saved < ms)) ms = m->rt_saved;
    return ixc_kill(c, IX_ETIMEOUT, "timed out after %d ms waiting for the server", ms);
}

/* Reads the session replies once they are whole; IXC_WANT_* while not. */
static int attempt_session(ix_conn *c, struct ixc_connsm *m) {
    dsn_opts *o = &m->o;
    ixc_reply r;
    memset(&r, 0, sizeof r);
    int rc = ixc_read_reply(c, &r);
    if (rc != IX_OK) return rc;
    switch (m->phase) {
    case CS_PROTO:
        if (r.sqlcode)
            return ixc_kill(c, IX_EPROTO, "the server refused the protocol offer (%d)", r.sqlcode);
        if (c->caps.f44)
            return ixc_kill(c, IX_EPROTO, "the server asks for a PAM conversation (not supported)");
        name_forms(c); /* the granted capabilities bound the NFETCH size */
        if (!c->pipeline_login) {
            queue_info(c);
            if ((rc = ixc_flush(c)) != IX_OK) return rc;
        }
        m->phase = CS_INFO;
        return IXC_WANT_READ;
    case CS_INFO:
        if (!(o->database && *o->database)) return IX_OK;
        if (!c->pipeline_login) {
            queue_dbopen(c, o);
            if ((rc = ixc_flush(c)) != IX_OK) return rc;
        }
        m->phase = CS_DBOPEN;
        return IXC_WANT_READ;
    default: /* CS_DBOPEN */
        if (r.sqlcode)
            return ixc_fail_sql(c, r.sqlcode, r.isamcode, 0, r.msg[0] ? r.msg : o->database);
        c->db_open = 1;
        c->db_logged = r.done_warnings & 1;
        c->db_ansi = (r.done_warnings & 2) != 0;
        return IX_OK;
    }
}

/* One step of the attempt: IX_OK (logged in), IXC_REDIRECTED, IXC_WANT_*
 * (wait), or the attempt's error. */
static int attempt_step(ix_conn *c, struct ixc_connsm *m) {
    int rc;
    if (m->phase == CS_TCP) {
        char err[300] = "";
        rc = ixc_transport_poll(c->tr, err, sizeof err);
        if (rc == IXC_WANT_READ || rc == IXC_WANT_WRITE) return rc;
        if (rc != IX_OK) {
            c->dead = 1;
            return ixc_fail(c, rc, "%s", err);
        }
        m->phase = CS_CONACC;
        if ((rc = send_conreq(c, &m->o)) != IX_OK) return rc;
    }
    for (;;) {
        int want = IX_WANT_READ;
        int k = ixc_nb_ready(c, &want);
        if (k < 0) return k;
        if (k == 0) return want == IX_WANT_WRITE ? IXC_WANT_WRITE : IXC_WANT_READ;
        c->nb_step = 0; /* the reply is buffered */
        c->nb_decoding++;
        if (m->phase == CS_CONACC) {
            ixp_redirect_target redir;
            rc = read_conacc(c, &m->o, &redir);
            if (rc == IXC_REDIRECTED) {
                snprintf(m->e.server, sizeof m->e.server, "%.127s", redir.server);
                snprintf(m->e.host, sizeof m->e.host, "%s", redir.host);
                snprintf(m->e.port, sizeof m->e.port, "%d", redir.port);
            }
            if (rc == IX_OK) {
                open_session_send(c, &m->o);
                m->phase = CS_PROTO;
                rc = ixc_flush(c);
                if (rc == IX_OK) rc = IXC_WANT_READ;
            }
        } else {
            rc = attempt_session(c, m);
        }
        c->nb_decoding--;
        c->nb_step = 1;
        if (rc != IXC_WANT_READ) return rc;
    }
}

static int next_candidate(ix_conn *c, struct ixc_connsm *m);

/* The attempt on m->e ended with rc: redirects, then the next candidate or
 * round. Returns IX_OK to go on (a new attempt has started or a round is
 * awaited), or the connection's final result. */
static int attempt_done(ix_conn *c, struct ixc_connsm *m, int rc) {
    connect_plan *p = &m->p;
    if (rc == IXC_REDIRECTED) {
        char to[300];
        snprintf(to, sizeof to, "%s:%s", m->e.host, m->e.port);
        for (int i = 0; i <= m->hop; i++)
            if (strcmp(m->path[i], to) == 0) {
                rc = ixc_kill(c, IX_ECONN, "redirect loop: %s redirected back to %s (%d hops)",
                              m->path[m->hop], to, m->hop + 1);
                goto fatal;
            }
        if (m->hop == IXC_REDIRECT_MAX) {
            rc = ixc_kill(c, IX_ECONN, "more than %d redirects (the last from %s to %s)",
                          IXC_REDIRECT_MAX, m->path[m->hop], to);
            goto fatal;
        }
        m->hop++;
        snprintf(m->path[m->hop], sizeof m->path[m->hop], "%s", to);
        return attempt_start(c, m) == IX_OK ? IX_OK : attempt_done(c, m, c->err);
    }
    if (c->logged_in && !c->dead) { /* also when only the database failed */
        int mrc = note_member(c, &m->e);
        if (mrc != IX_OK) rc = mrc;
    }
    if (rc == IX_OK) return IXC_CONNECTED;
    if (m->hop > 0 || (rc != IX_ECONN && rc != IX_ETIMEOUT)) goto fatal;
    m->attempts++;
    snprintf(m->last, sizeof m->last, "%s@%s:%s: %s", p->ents[m->idx].server, p->ents[m->idx].host,
             p->ents[m->idx].port, c->errmsg);
    m->idx++;
    if (m->idx < p->n && !(p->deadline && now_ms() >= p->deadline)) return next_candidate(c, m);
    m->idx = 0;
    m->round++;
    if (m->round <= p->retries) {
        int64_t due = p->start + (int64_t)m->round * p->interval_ms;
        if (!(now_ms() > due && now_ms() > p->deadline)) {
            m->due = p->deadline && due > p->deadline ? p->deadline : due;
            m->phase = CS_WAIT;
            if (c->tr) c->tr->vt->close(c->tr);
            c->tr = NULL;
            return IX_OK;
        }
    }
    /* every candidate and round spent */
    if (!p->deadline && !p->group) return rc;
    c->dead = 1;
    int expired = p->deadline && now_ms() >= p->deadline;
    if (expired) rc = IX_ETIMEOUT;
    char head[200];
    if (p->group)
        snprintf(head, sizeof head, "no member of group %.127s accepted the connection", p->name);
    else
        snprintf(head, sizeof head, "the server did not accept the connection");
    return ixc_fail(c, rc, "%s%s (%d attempts; last: %s)", head,
                    expired ? " within INFORMIXCONTIME" : "", m->attempts, m->last);
fatal:
    /* A fatal error may leave the session open (a database that cannot be
     * opened); c's error record says what happened. */
    return rc;
}

/* Starts the attempt on candidate m->idx. */
static int next_candidate(ix_conn *c, struct ixc_connsm *m) {
    m->e = m->p.ents[m->idx];
    m->hop = 0;
    snprintf(m->path[0], sizeof m->path[0], "%s:%s", m->e.host, m->e.port);
    int rc = attempt_start(c, m);
    return rc == IX_OK ? IX_OK : attempt_done(c, m, rc);
}

static void connsm_free(ix_conn *c) {
    struct ixc_connsm *m = c->csm;
    if (!m) return;
    if (m->given) m->given->vt->close(m->given);
    ixc_free(m->p.ents);
    opts_free(&m->o);
    ixc_free(m);
    c->csm = NULL;
}

/* The end of the login: the machine is freed; IX_OK or the error. */
static int connsm_end(ix_conn *c, int rc) {
    struct ixc_connsm *m = c->csm;
    c->read_timeout_ms = m->rt_saved;
    connsm_free(c);
    c->nb_step = 0;
    if (rc == IXC_CONNECTED) rc = IX_OK;
    if (rc == IX_OK) {
        atomic_store(&c->cancel_fd, c->tr->fd);
        ixc_clear_err(c);
    }
    return rc;
}

int ix_connect_poll(ix_conn *c) {
    if (!c) return IX_EMISUSE;
    struct ixc_connsm *m = c->csm;
    if (!m) return c->dead ? ixc_check(c) : IX_OK;
    c->nb_step = 1;
    int rc = IX_OK;
    for (;;) {
        if (m->phase == CS_WAIT) {
            if (now_ms() < m->due) {
                c->nb_step = 0;
                return IX_WANT_TIMER;
            }
            rc = next_candidate(c, m);
        } else {
            rc = attempt_step(c, m);
            if (rc != IXC_WANT_READ && rc != IXC_WANT_WRITE) {
                rc = attempt_done(c, m, rc);
            } else if (login_wait_deadline(c, m) && now_ms() >= login_wait_deadline(c, m)) {
                rc = attempt_done(c, m, attempt_expired(c, m));
            } else {
                c->nb_step = 0;
                return rc == IXC_WANT_READ ? IX_WANT_READ : IX_WANT_WRITE;
            }
        }
        if (rc != IX_OK) return connsm_end(c, rc);
        /* a new attempt (or a round to wait for): step it at once */
    }
}

static int connect_begin(ix_conn **out, const char *dsn, ixc_transport *tr) {
    ix_conn *c = conn_new();
    *out = c;
    if (!c) {
        if (tr) tr->vt->close(tr);
        return IX_ENOMEM;
    }
    struct ixc_connsm *m = ixc_calloc(1, sizeof *m);
    if (!m) {
        if (tr) tr->vt->close(tr);
        c->dead = 1;
        return ixc_fail(c, IX_ENOMEM, "out of memory");
    }
    c->csm = m;
    m->given = tr;
    dsn_opts *o = &m->o;
    char err[300] = "";
    int rc = opts_load(o, dsn, err, sizeof err);
    if (rc != IX_OK) {
        connsm_free(c);
        c->dead = 1;
        return ixc_fail(c, rc, "%s", err[0] ? err : "out of memory");
    }
    c->fetch_buffer = o->fetch_buffer;
    c->readahead = o->readahead;
    c->deferred_prepare = o->deferred_prepare;
    c->optofc = o->optofc;
    c->watchdog_ms = o->watchdog_ms;
    c->read_timeout_ms = o->read_timeout_ms;
    m->rt_saved = o->read_timeout_ms;
    if (o->dbdate && !(c->dbdate = dupstr(o->dbdate, strlen(o->dbdate)))) rc = IX_ENOMEM;
    if (rc == IX_OK) rc = ixc_locale_setup(c, o->client_locale, o->db_locale, err, sizeof err);
    if (rc == IX_OK) {
        snprintf(m->p.name, sizeof m->p.name, "%s", o->server ? o->server : "");
        rc = plan_candidates(o, tr != NULL, &m->p, err, sizeof err);
    }
    if (rc != IX_OK) {
        connsm_free(c);
        c->dead = 1;
        return ixc_fail(c, rc, "%s", rc == IX_ENOMEM && !err[0] ? "out of memory" : err);
    }
    plan_timing(o, &m->p);
    c->nb_step = 1;
    rc = next_candidate(c, m);
    c->nb_step = 0;
    if (rc != IX_OK) return connsm_end(c, rc);
    return IX_OK;
}

int ix_connect_start(const char *dsn, ix_conn **out) {
    if (!out) return IX_EMISUSE;
    int rc = connect_begin(out, dsn, NULL);
    if (*out) (*out)->nb = 1;
    return rc;
}

/* Waits for what ix_connect_poll asked for (blocking ix_connect). */
static void connect_wait(ix_conn *c, int want) {
    int fd = ix_socket(c), ms = ix_timeout_ms(c);
    if (want == IX_WANT_TIMER || fd < 0) {
        if (want == IX_WANT_TIMER && ms > 0) poll(NULL, 0, ms);
        return;
    }
    struct pollfd pf = {fd, (short)(want == IX_WANT_WRITE ? POLLOUT : POLLIN), 0};
    if (c->tr->vt->pending(c->tr) > 0) return;
    poll(&pf, 1, ms); /* EINTR or expiry: ix_connect_poll looks again */
}

static int connect_common(ix_conn **out, const char *dsn, ixc_transport *tr) {
    int rc = connect_begin(out, dsn, tr);
    ix_conn *c = *out;
    if (!c) return rc;
    while (rc == IX_OK && c->csm) {
        rc = ix_connect_poll(c);
        if (rc == IX_WANT_READ || rc == IX_WANT_WRITE || rc == IX_WANT_TIMER) {
            connect_wait(c, rc);
            rc = IX_OK;
        }
    }
    return rc;
}

int ix_connect(ix_conn **out, const char *dsn) {
    if (!out) return IX_EMISUSE;
    return connect_common(out, dsn, NULL);
}

int ixc_connect_transport(ix_conn **out, const char *dsn, ixc_transport *tr) {
    return connect_common(out, dsn, tr);
}

static void connsm_free(ix_conn *c);

void ix_close(ix_conn *c) {
    if (!c) return;
    ixc_cache_free(c);
    if (c->csm) { /* a login in progress: nothing to say goodbye to */
        connsm_free(c);
        c->dead = 1;
    }
    if (!c->dead && c->tr) {
        /* Pending CLOSE/RELEASE replies need not be read: SQ_EXIT ends all. */
        size_t mark = ixc_mark(c);
        ixp_enc_tag(&c->out, IXP_SQ_EXIT);
        ixc_queued(c, mark);
        int save = c->read_timeout_ms;
        if (save == 0 || save > 2000) c->read_timeout_ms = 2000;
        if (ixc_flush(c) == IX_OK) {
            /* Wait for the server's SQ_EXIT (or the close) so that the
             * session ends cleanly; other replies still queued are skipped. */
            ixp_msg m;
            while (ixc_next_msg(c, &m) == IX_OK && m.tag != IXP_SQ_EXIT) {
            }
        }
        c->read_timeout_ms = save;
    }
    ixc_stmt_detach_all(c);
    ixc_file_free(c);
    ixc_fp_forget(c);
    atomic_store(&c->cancel_fd, -1);
    if (c->tr) c->tr->vt->close(c->tr);
    if (c->trace_fd >= 0) close(c->trace_fd);
    ixp_reader_free(&c->rd);
    ixb_wbuf_free(&c->out);
    ixb_wbuf_free(&c->line);
    ixp_printer_free(&c->pr_in);
    ixp_printer_free(&c->pr_out);
    ixc_free(c->pend);
    ixc_free(c->server_name);
    ixc_free(c->server_version);
    ixc_free(c->member);
    ixc_free(c->dbdate);
    ixc_locale_free(c);
    ixb_wbuf_free(&c->conv);
    ixc_free(c);
}

int ix_conn_is_dead(const ix_conn *c) {
    return !c || c->dead;
}

int ix_set_fetch_buffer(ix_conn *c, int32_t bytes) {
    if (!c) return IX_EMISUSE;
    if (bytes < 1 && bytes != IX_FETCH_AUTO)
        return ixc_fail(c, IX_EINVAL, "fetch buffer must be at least 1 byte (or IX_FETCH_AUTO)");
    c->fetch_buffer = bytes;
    return IX_OK;
}

int ix_set_readahead(ix_conn *c, int depth) {
    if (!c) return IX_EMISUSE;
    if (depth < 0 || depth > 64) return ixc_fail(c, IX_EINVAL, "read-ahead depth must be 0..64");
    c->readahead = depth;
    return IX_OK;
}

int ix_cancel(ix_conn *c) {
    if (!c) return IX_EMISUSE;
    int fd = atomic_load(&c->cancel_fd);
    if (fd < 0) return IX_ECONN;
    int inflight = atomic_load(&c->inflight);
    if (inflight <= 0) return IX_OK; /* idle: nothing to interrupt */
    if (!c->fast) {                  /* no interrupt the server is known to take: end the wait */
        atomic_store(&c->cancel_closed, 1);
        return ixc_shutdown_socket(fd) == 0 ? IX_OK : IX_ECONN;
    }
    int zero = 0;
    if (!atomic_compare_exchange_strong(&c->cancel_wait, &zero, inflight))
        return IX_OK; /* the last interrupt has not been read yet */
    return ixc_send_interrupt(fd) == 0 ? IX_OK : IX_ECONN;
}

int ix_set_signal_handler(ix_conn *c, ix_signal_fn fn, void *ud) {
    if (!c) return IX_EMISUSE;
    c->on_signal = fn;
    c->on_signal_ud = ud;
    return IX_OK;
}

int ix_set_read_timeout(ix_conn *c, int millis) {
    if (!c) return IX_EMISUSE;
    if (millis < 0) return ixc_fail(c, IX_EINVAL, "timeout must be >= 0");
    c->read_timeout_ms = millis;
    return IX_OK;
}

const char *ix_server_name(const ix_conn *c) {
    return c && c->server_name ? c->server_name : "";
}

const char *ix_conn_server(const ix_conn *c) {
    return c && c->member ? c->member : "";
}

const char *ix_server_version(const ix_conn *c) {
    return c && c->server_version ? c->server_version : "";
}

const char *ix_conn_compat(const ix_conn *c) {
    if (!c || !c->logged_in) return "";
    return c->fast ? "fast" : "conservative";
}

const char *ix_conn_forms(const ix_conn *c) {
    return c && c->logged_in ? c->forms : "";
}

/* ---- error accessors ------------------------------------------------------------ */

int ix_errcode(const ix_conn *c) {
    return c ? c->err : IX_ENOMEM;
}
int ix_sqlcode(const ix_conn *c) {
    return c ? c->sqlcode : 0;
}
int ix_isamcode(const ix_conn *c) {
    return c ? c->isamcode : 0;
}
int ix_erroffset(const ix_conn *c) {
    return c ? (int)c->erroffset : 0;
}
const char *ix_sqlstate(const ix_conn *c) {
    if (!c) return "HY001";
    return ixc_sqlstate_for(c->err, c->sqlcode, c->logged_in);
}
const char *ix_errmsg(const ix_conn *c) {
    if (!c) return "out of memory";
    return c->errmsg;
}

/* ---- results ------------------------------------------------------------------ */

int64_t ix_conn_changes(const ix_conn *c) {
    return c ? c->changes : 0;
}
int64_t ix_last_serial(const ix_conn *c) {
    return c ? c->serial : 0;
}
int64_t ix_last_serial8(const ix_conn *c) {
    return c ? c->serial8 : 0;
}

/* ---- transaction tracking ---------------------------------------------------- */

/* Called after a statement succeeded: BEGIN [WORK] opens a transaction,
 * COMMIT / ROLLBACK [WORK] (not ROLLBACK TO SAVEPOINT) close it. */
void ixc_note_txn_sql(ix_conn *c, const char *sql, size_t len) {
    ixb_tok t[3];
    ixb_sql_words(sql, len, t, 3);
    const ixb_tok *w = &t[0], *w2 = ixb_tok_is(&t[1], "WORK") ? &t[2] : &t[1];
    if (ixb_tok_is(w, "BEGIN"))
        c->in_txn = 1;
    else if (ixb_tok_is(w, "COMMIT"))
        ixc_txn_ended(c);
    else if (ixb_tok_is(w, "ROLLBACK") && !ixb_tok_is(w2, "TO"))
        ixc_txn_ended(c);
    else if (ixb_tok_is(w, "DATABASE") ||
             ((ixb_tok_is(w, "CLOSE") || ixb_tok_is(w, "CREATE") || ixb_tok_is(w, "DROP")) &&
              ixb_tok_is(w2, "DATABASE"))) {
        /* A new (or no) current database: autocommit is back on. */
        ixc_txn_ended(c);
        c->manual_commit = 0;
        ixc_cache_schema_changed(c);
        ixc_fp_forget(c); /* routine handles are the old database's */
    } else if (ixb_tok_is(w, "CREATE") || ixb_tok_is(w, "ALTER") || ixb_tok_is(w, "DROP") ||
               ixb_tok_is(w, "RENAME")) {
        ixc_cache_schema_changed(c); /* kept statements may describe what changed */
    } else if (ixb_tok_is(w, "SET") && (ixb_tok_is(w2, "ISOLATION") || ixb_tok_is(w2, "LOCK"))) {
        c->session_set = 1;
    }
}

static int txn_resync(ix_conn *c);

/* A COMMIT (message or SQL) failed with reply r: unless the reply already
 * settled the state (XACTSTAT, or an error that txn_from_err acted on), ask
 * the server. IX_OK or a connection error. */
static int after_failed_commit(ix_conn *c, const ixc_reply *r) {
    return c->in_txn && !r->has_xact ? txn_resync(c) : IX_OK;
}

int ixc_note_txn_failure(ix_conn *c, const char *sql, size_t len, const ixc_reply *r) {
    ixb_tok w;
    ixb_sql_words(sql, len, &w, 1);
    return ixb_tok_is(&w, "COMMIT") ? after_failed_commit(c, r) : IX_OK;
}

/* 1 if sql needs no transaction of its own: BEGIN, COMMIT, ROLLBACK,
 * SAVEPOINT, RELEASE SAVEPOINT, SET ..., DATABASE, CLOSE/CREATE/DROP
 * DATABASE. */
static int txn_neutral(const char *sql, size_t len) {
    ixb_tok t[2];
    ixb_sql_words(sql, len, t, 2);
    const ixb_tok *w = &t[0], *w2 = &t[1];
    static const char *const first[] = {"BEGIN", "COMMIT",   "ROLLBACK", "SAVEPOINT",
                                        "SET",   "DATABASE", "RELEASE"};
    for (size_t k = 0; k < sizeof first / sizeof first[0]; k++)
        if (ixb_tok_is(w, first[k])) return 1;
    return (ixb_tok_is(w, "CLOSE") || ixb_tok_is(w, "CREATE") || ixb_tok_is(w, "DROP")) &&
           ixb_tok_is(w2, "DATABASE");
}

static int txn_op(ix_conn *c, int tag, int opens);

int ixc_auto_begin(ix_conn *c, const char *sql, size_t n) {
    if (!c->manual_commit || c->in_txn || c->db_ansi) return IX_OK;
    if (sql && txn_neutral(sql, n)) return IX_OK;
    int rc = txn_op(c, IXP_SQ_BEGIN, 1);
    if (rc == IX_ESQL && c->sqlcode == IX_SQLCODE_ALREADY_IN_TXN) {
        ixc_clear_err(c); /* the server's transaction is the one wanted */
        return IX_OK;
    }
    return rc;
}

/* ---- one-shot execution and transactions ------------------------------------- */

static int simple_request(ix_conn *c, size_t mark, ixc_reply *r) {
    int rc = send_group(c, mark);
    if (rc == IX_OK) rc = ixc_drain(c);
    if (rc == IX_OK) rc = ixc_read_reply(c, r);
    return rc;
}

/* ix_exec; auto_begin 0 never starts a transaction (ix_set_isolation ...). */
static int exec_sql(ix_conn *c, const char *sql, int auto_begin) {
    if (!c || !sql) return c ? ixc_fail(c, IX_EMISUSE, "NULL SQL text") : IX_EMISUSE;
    if (c->dead) return dead_rc(c);
    ixc_clear_err(c);
    size_t n = strlen(sql);
    int rc;
    if (auto_begin && (rc = ixc_auto_begin(c, sql, n)) != IX_OK) return rc;
    size_t mark = ixc_mark(c);
    const char *wire = sql;
    size_t wn = n;
    rc = ixc_sql_to_db(c, sql, n, &wire, &wn);
    if (rc != IX_OK) return rc;
    ixp_enc_command(&c->out, &c->caps, wire, wn);
    ixp_enc_tag(&c->out, IXP_SQ_NDESCRIBE);
    ixp_enc_tag(&c->out, IXP_SQ_EXECUTE);
    ixp_enc_tag(&c->out, IXP_SQ_RELEASE);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    ixc_reply r;
    memset(&r, 0, sizeof r);
    rc = simple_request(c, mark, &r);
    if (rc == IX_OK && r.sqlcode) rc = ixc_note_txn_failure(c, sql, n, &r);
    if (rc != IX_OK) return rc;
    if (r.sqlcode) return ixc_fail_sql(c, r.sqlcode, r.isamcode, r.offset, r.msg);
    c->changes = r.rows;
    if (r.serial || r.serial8 || r.bigserial) { /* this INSERT's values, 0 the other */
        c->serial = r.serial;
        c->serial8 = r.serial8 ? r.serial8 : r.bigserial;
    }
    ixc_note_txn_sql(c, sql, n);
    if (r.has_describe &&
        (r.stmt_type == IX_STMTTYPE_DATABASE || r.stmt_type == IX_STMTTYPE_CREATE_DB ||
         r.stmt_type == IX_STMTTYPE_START_DB)) {
        c->db_open = 1;
        /* The DONE of DATABASE carries the database's flags (1 logged,
         * 2 ANSI), as SQ_DBOPEN's does. */
        c->db_logged = r.done_warnings & 1;
        c->db_ansi = (r.done_warnings & 2) != 0;
    }
    return IX_OK;
}

int ix_exec(ix_conn *c, const char *sql) {
    return exec_sql(c, sql, 1);
}

/* Sends one BEGIN / COMMIT / ROLLBACK message and reads its reply. */
static int txn_send(ix_conn *c, int tag, ixc_reply *r) {
    size_t mark = ixc_mark(c);
    ixp_enc_tag(&c->out, tag);
    ixp_enc_tag(&c->out, IXP_SQ_EOT);
    memset(r, 0, sizeof *r);
    return simple_request(c, mark, r);
}

/*
 * After a COMMIT failed without the server saying (no XACTSTAT, no code
 * above) whether its transaction survived, asks it: a BEGIN either opens
 * one (there was none: the server ended it) or fails with -535 (it is
 * still open). In autocommit mode the probe's own transaction is committed
 * at once (it is empty); in manual-commit mode it is kept, as the library
 * keeps one open there anyway. The connection's error record is untouched.
 */
static int txn_resync(ix_conn *c) {
    ixc_reply r;
    int rc = txn_send(c, IXP_SQ_BEGIN, &r);
    if (rc != IX_OK || r.sqlcode || c->manual_commit) return rc;
    c->in_txn = 1;
    rc = txn_send(c, IXP_SQ_CMMTWORK, &r);
    if (rc == IX_OK && !r.sqlcode) ixc_txn_ended(c);
    return rc;
}

static int txn_op(ix_conn *c, int tag, int opens) {
    if (!c) return IX_EMISUSE;
    if (c->dead) return dead_rc(c);
    ixc_clear_err(c);
    ixc_reply r;
    int rc = txn_send(c, tag, &r);
    if (rc != IX_OK) return rc;
    if (r.sqlcode) {
        if (tag == IXP_SQ_RBWORK) ixc_txn_ended(c); /* a failed ROLLBACK leaves none open */
        if (tag == IXP_SQ_CMMTWORK && (rc = after_failed_commit(c, &r)) != IX_OK) return rc;
        return ixc_fail_sql(c, r.sqlcode, r.isamcode, r.offset, r.msg);
    }
    /* what the message did is known, whatever XACTSTAT's levels mean */
    if (opens)
        c->in_txn = 1;
    else
        ixc_txn_ended(c);
    return IX_OK;
}

int ix_begin(ix_conn *c) {
    return txn_op(c, IXP_SQ_BEGIN, 1);
}
int ix_commit(ix_conn *c) {
    return txn_op(c, IXP_SQ_CMMTWORK, 0);
}
/* SQ_RBWORK has one public source (libsqli): a server not known to take it
 * gets ROLLBACK WORK as SQL text (SQ_COMMAND, a verified form). */
int ix_rollback(ix_conn *c) {
    if (c && c->logged_in && !c->fast) {
        int rc = ix_exec(c, "rollback work");
        if (rc == IX_ESQL) ixc_txn_ended(c); /* a failed ROLLBACK leaves none open */
        return rc;
    }
    return txn_op(c, IXP_SQ_RBWORK, 0);
}

int ix_set_autocommit(ix_conn *c, int on) {
    if (!c) return IX_EMISUSE;
    if (c->dead) return dead_rc(c);
    ixc_clear_err(c);
    if (c->db_ansi) {
        if (on) return ixc_fail(c, IX_EINVAL, "an ANSI-mode database has no autocommit");
        return IX_OK;
    }
    if (on) {
        if (!c->manual_commit) return IX_OK;
        if (c->in_txn) {
            int rc = txn_op(c, IXP_SQ_CMMTWORK, 0);
            if (rc != IX_OK) return rc;
        }
        c->manual_commit = 0;
        return IX_OK;
    }
    if (c->manual_commit) return IX_OK;
    if (!c->in_txn) {
        int rc = txn_op(c, IXP_SQ_BEGIN, 1);
        if (rc != IX_OK) return rc;
    }
    c->manual_commit = 1;
    return IX_OK;
}

int ix_autocommit(const ix_conn *c) {
    if (!c) return -1;
    if (c->db_ansi || c->in_txn || c->manual_commit) return 0;
    return 1;
}

int ix_set_isolation(ix_conn *c, int level) {
    static const char *const sql[] = {
        NULL,
        "SET ISOLATION TO DIRTY READ",
        "SET ISOLATION TO COMMITTED READ",
        "SET ISOLATION TO CURSOR STABILITY",
        "SET ISOLATION TO REPEATABLE READ",
    };
    if (!c) return IX_EMISUSE;
    if (c->dead) return dead_rc(c);
    if (level < IX_ISO_DIRTY_READ || level > IX_ISO_REPEATABLE_READ)
        return ixc_fail(c, IX_EINVAL, "unknown isolation level %d", level);
    return exec_sql(c, sql[level], 0);
}

int ix_set_lock_wait(ix_conn *c, int seconds) {
    if (!c) return IX_EMISUSE;
    if (c->dead) return dead_rc(c);
    if (seconds < -1)
        return ixc_fail(c, IX_EINVAL, "lock wait must be -1, 0 or a number of seconds");
    char sql[64];
    if (seconds < 0)
        snprintf(sql, sizeof sql, "SET LOCK MODE TO WAIT");
    else if (seconds == 0)
        snprintf(sql, sizeof sql, "SET LOCK MODE TO NOT WAIT");
    else
        snprintf(sql, sizeof sql, "SET LOCK MODE TO WAIT %d", seconds);
    return exec_sql(c, sql, 0);
}
