/*
 * ix_conn.c: connections: the login sequence (sqli-protocol.md §2.10), the
 * error record, and the connection's accessors. The DSN is parsed in
 * ix_dsn.c, replies are read in ix_reply.c, clusters in ix_cluster.c,
 * transactions in ix_txn.c; what they share is in ix_conn_int.h.
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
#include "ix_conn_int.h"

/* ---- error record ----------------------------------------------------------- */

int ixc_fail(ix_conn *c, int rc, const char *fmt, ...) {
    if (!c) return rc;
    c->st.err = rc;
    c->st.sqlcode = c->st.isamcode = 0;
    c->st.erroffset = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->st.errmsg, sizeof c->st.errmsg, fmt, ap);
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
    c->st.err = IX_ESQL;
    c->st.sqlcode = sqlcode;
    c->st.isamcode = isamcode;
    c->st.erroffset = offset;
    fmt_sql_text(c->st.errmsg, sizeof c->st.errmsg, sqlcode, ins);
    if (isamcode) {
        size_t l = strlen(c->st.errmsg);
        const char *it = ix_isam_errtext(isamcode);
        if (it)
            snprintf(c->st.errmsg + l, sizeof c->st.errmsg - l, " [%d: %s]", isamcode, it);
        else
            snprintf(c->st.errmsg + l, sizeof c->st.errmsg - l, " [ISAM error %d]", isamcode);
    }
    return IX_ESQL;
}

int ixc_kill(ix_conn *c, int rc, const char *fmt, ...) {
    c->st.err = rc;
    c->st.sqlcode = c->st.isamcode = 0;
    c->st.erroffset = 0;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->st.errmsg, sizeof c->st.errmsg, fmt, ap);
    va_end(ap);
    if (atomic_load(&c->cancel_closed)) { /* the I/O error is ix_cancel's doing */
        c->st.err = rc = IX_ECONN;
        snprintf(c->st.errmsg, sizeof c->st.errmsg,
                 "cancelled: ix_cancel closed the connection (the server is not known to take "
                 "an interrupt)");
    }
    c->st.dead = 1;
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
    if (c->st.dead) return IX_ECONN;
    return IX_OK;
}

/* Returns IX_ECONN for a dead connection and records it (so that every call
 * on a dead connection says so at once). */
int ixc_dead_rc(ix_conn *c) {
    if (c->st.err != IX_ECONN) {
        c->st.err = IX_ECONN;
        c->st.sqlcode = c->st.isamcode = 0;
        if (!c->st.errmsg[0]) snprintf(c->st.errmsg, sizeof c->st.errmsg, "the connection is dead");
    }
    return IX_ECONN;
}

/* ---- tracing ------------------------------------------------------------------ */

void ixc_emit_line(ix_conn *c, const char *dir) {
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

size_t ixc_mark(ix_conn *c) {
    return c->st.out.len;
}

/* A request group was encoded at out[from..len): counts it as in flight
 * (after the login) and traces its messages. */
void ixc_queued(ix_conn *c, size_t from) {
    if (c->logged_in) atomic_fetch_add(&c->inflight, 1);
    if (c->st.nb || c->csm) c->io_at_ms = ixc_now_ms();
    if (!ixc_tracing(c) || c->st.out.err) return;
    const uint8_t *p = c->st.out.data + from;
    size_t n = c->st.out.len - from;
    if (!c->logged_in && n >= 6 && ixp_sl_looks_like(p, n)) {
        ixp_login_print(p, n, &c->line);
        ixc_emit_line(c, "C->S");
        return;
    }
    while (n > 0) {
        ixp_msg m;
        size_t at = 0;
        const char *why = NULL;
        int rc = ixp_msg_decode(p, n, IXP_FROM_CLIENT, &c->caps, NULL, &m, &at, &why);
        if (rc != IX_OK) {
            ixp_printf(&c->line, "<%zu bytes not decodable: %s>", n, why ? why : ix_rc_str(rc));
            ixc_emit_line(c, "C->S");
            return;
        }
        ixp_print_msg(&c->pr_out, IXP_FROM_CLIENT, &m, &c->line);
        ixc_emit_line(c, "C->S");
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

/* ---- connecting ------------------------------------------------------------ */

ix_conn *ixc_conn_new(void) {
    ix_conn *c = ixc_calloc(1, sizeof *c);
    if (!c) return NULL;
    ixp_reader_init(&c->rd, IXP_FROM_SERVER, ixc_mem());
    ixp_limits_default(&c->rd.lim); /* set once: the row fast path reads max_tuple */
    ixb_wbuf_init(&c->st.out, ixc_mem());
    ixb_wbuf_init(&c->line, ixc_mem());
    ixp_printer_init(&c->pr_in, ixc_mem());
    ixp_printer_init(&c->pr_out, ixc_mem());
    c->trace_fd = -1;
    c->st.cv_to_db = c->st.cv_from_db = (iconv_t)-1;
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

char *ixc_dupstr(const char *s, size_t n) {
    char *d = ixc_malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

/* Sends a group already encoded in c->st.out (from `mark`) after tracing it. */
int ixc_send_group(ix_conn *c, size_t mark) {
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
void ixc_queue_info(ix_conn *c) {
    size_t mark = ixc_mark(c);
    ixp_bytes keys[2] = {{(const uint8_t *)"DBTEMP", 6}, {(const uint8_t *)"SUBQCACHESZ", 11}};
    ixp_bytes vals[2] = {{(const uint8_t *)"/tmp", 4}, {(const uint8_t *)"10", 2}};
    ixp_enc_info(&c->st.out, keys, vals, 2);
    ixp_enc_tag(&c->st.out, IXP_SQ_EOT);
    ixc_queued(c, mark);
}

/* Queues SQ_DBOPEN (§2.8) when the DSN names a database, its own group. */
void ixc_queue_dbopen(ix_conn *c, const dsn_opts *o) {
    if (!(o->database && *o->database)) return;
    size_t mark = ixc_mark(c);
    ixp_enc_dbopen(&c->st.out, o->database, strlen(o->database), 0);
    ixp_enc_tag(&c->st.out, IXP_SQ_EOT);
    ixc_queued(c, mark);
}

/* login's answer when the server redirected the connection (*redir says
 * where); the connect machine's when a login succeeded. */

/* Sends the login request (CONREQ) of o: the user, the session variables
 * and this process's name and host. */
int ixc_send_conreq(ix_conn *c, const dsn_opts *o) {
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
    int rc = ixp_conreq_encode(q, &c->st.out);
    ixc_free(q);
    if (rc != IX_OK)
        return ixc_fail(c, rc == IX_ENOMEM ? IX_ENOMEM : IX_EINVAL,
                        "cannot encode the login request: %s", ix_rc_str(rc));
    return ixc_send_group(c, mark);
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
void ixc_name_forms(ix_conn *c) {
    snprintf(c->forms, sizeof c->forms, "%s%s%s%s%s", c->pipeline_login ? "pipeline_login," : "",
             c->deferred_prepare ? "deferred_prepare," : "", c->st.fast ? "urgent_cancel," : "",
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
    c->st.fast = o->compat == IXC_COMPAT_FAST || (o->compat == IXC_COMPAT_AUTO && c->is_ixd);
    c->deferred_prepare = c->st.fast && o->deferred_prepare;
    c->pipeline_login = c->st.fast && o->pipeline_login;
    c->optofc = o->optofc;
    c->fetch_max = c->st.fast                                ? INT32_MAX
                   : ixc_banner_big_fetch(c->server_version) ? IXC_FETCH_MAX_NEW
                                                             : IXC_FETCH_MAX_OLD;
    ixc_name_forms(c);
    if (!ixc_tracing(c)) return;
    static const char *const asked[] = {"auto", "conservative", "fast"};
    ixp_printf(&c->line, "request forms: %s (compat=%s, %s): %s", ix_conn_compat(c),
               asked[c->compat], c->is_ixd ? "the server is ixd" : "not ixd", c->forms);
    ixc_emit_line(c, "--");
}

/* Reads the server's answer to the login: IX_OK when accepted (the server's
 * name and version kept), IXC_REDIRECTED with *redir filled, or an error. */
int ixc_read_conacc(ix_conn *c, const dsn_opts *o, ixp_redirect_target *redir) {
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
    c->server_name = ixc_dupstr(a->server_name.p ? a->server_name.p : "", a->server_name.n);
    c->server_version = ixc_dupstr(a->version.p ? a->version.p : "", a->version.n);
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
void ixc_open_session_send(ix_conn *c, const dsn_opts *o) {
    size_t mark = ixc_mark(c);
    ixp_enc_protocols(&c->st.out, ixp_caps_jdbc_offer, sizeof ixp_caps_jdbc_offer);
    ixp_enc_tag(&c->st.out, IXP_SQ_EOT);
    ixc_queued(c, mark);
    if (c->pipeline_login) {
        ixc_queue_info(c);
        ixc_queue_dbopen(c, o);
    }
}

/* ---- error accessors ------------------------------------------------------------ */

int ix_errcode(const ix_conn *c) {
    return c ? c->st.err : IX_ENOMEM;
}
int ix_sqlcode(const ix_conn *c) {
    return c ? c->st.sqlcode : 0;
}
int ix_isamcode(const ix_conn *c) {
    return c ? c->st.isamcode : 0;
}
int ix_erroffset(const ix_conn *c) {
    return c ? (int)c->st.erroffset : 0;
}
const char *ix_sqlstate(const ix_conn *c) {
    if (!c) return "HY001";
    return ixc_sqlstate_for(c->st.err, c->st.sqlcode, c->logged_in);
}
int ix_unreached_sqlcode(const ix_conn *c) {
    if (!c || c->logged_in || c->st.sqlcode != 0) return 0;
    int e = c->st.err;
    if (e != IX_ECONN && e != IX_ETIMEOUT && e != IX_ETLS) return 0;
    if (strstr(c->st.errmsg, IXC_MSG_NO_HOST)) return IX_SQLCODE_NO_HOST;
    if (strstr(c->st.errmsg, IXC_MSG_NOT_IN_SQLHOSTS)) return IX_SQLCODE_NOT_IN_SQLHOSTS;
    return IX_SQLCODE_CONNECT_FAILED;
}
const char *ix_errmsg(const ix_conn *c) {
    if (!c) return "out of memory";
    return c->st.errmsg;
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

/* ---- a connection, as the other parts reach it (ix_client_int.h) ------------ */

const ixp_caps *ixc_caps(const ix_conn *c) {
    return &c->caps;
}

void ixc_err_save(const ix_conn *c, ixc_errrec *e) {
    e->err = c->st.err;
    e->sqlcode = c->st.sqlcode;
    e->isamcode = c->st.isamcode;
    e->erroffset = c->st.erroffset;
    memcpy(e->errmsg, c->st.errmsg, sizeof e->errmsg);
}

void ixc_err_restore(ix_conn *c, const ixc_errrec *e) {
    c->st.err = e->err;
    c->st.sqlcode = e->sqlcode;
    c->st.isamcode = e->isamcode;
    c->st.erroffset = e->erroffset;
    memcpy(c->st.errmsg, e->errmsg, sizeof c->st.errmsg);
}

void ixc_err_append(ix_conn *c, const char *fmt, ...) {
    size_t l = strlen(c->st.errmsg);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(c->st.errmsg + l, sizeof c->st.errmsg - l, fmt, ap);
    va_end(ap);
}

void ixc_set_changes(ix_conn *c, int64_t changes) {
    c->changes = changes;
}

void ixc_set_serial(ix_conn *c, int32_t serial) {
    c->serial = serial;
}

void ixc_set_serial8(ix_conn *c, int64_t serial8) {
    c->serial8 = serial8;
}

ix_stmt **ixc_stmt_list(ix_conn *c) {
    return &c->stmts;
}

unsigned ixc_schema_gen(const ix_conn *c) {
    return c->schema_gen;
}

unsigned ixc_next_cursor_seq(ix_conn *c) {
    return ++c->cursor_seq;
}

void ixc_fetch_defaults(const ix_conn *c, int32_t *fetch_buffer, int *readahead) {
    *fetch_buffer = c->fetch_buffer;
    *readahead = c->readahead;
}

int ixc_form_deferred_prepare(const ix_conn *c) {
    return c->deferred_prepare;
}

int ixc_form_optofc(const ix_conn *c) {
    return c->optofc;
}

int ixc_db_ansi(const ix_conn *c) {
    return c->db_ansi;
}
