/*
 * ixd_session.c: one client connection's SQLI protocol state machine.
 *
 * Sans-I/O: bytes in (ixd_sess_input), reply bytes out. Messages are handled
 * in order as they are decoded; the replies of a request group are collected
 * and the group's EOT closes them, so a client may pipeline many groups and
 * gets their answers in order (sqli-protocol.md §5, rules 1-9).
 *
 * After an SQ_ERR the rest of the group up to its EOT is read and discarded
 * (§3.10).
 *
 * Binds, execution, fetching, CLOSE and RELEASE are in ixd_sess_exec.c;
 * what the two share is in ixd_session_int.h.
 *
 * --strict (docs/server.md "Strict mode") keeps each of its refusals in one
 * function of the "strict mode" section below (strict_*); the interrupt's
 * part is in ixd_listen.c (conn_watches_urgent).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/ix_sqlscan.h"
#include "ixd_server.h"
#include "ixd_session_int.h"
#include "proto/ix_blob.h"
#include "proto/ix_interrupt.h"
#include "proto/ix_login.h"
#include "proto/ix_reader.h"
#include "types/ix_types.h"

/* The interrupt check the session's statements get: intr_fn, remembering
 * an IXD_INTR_END. */
static int sess_interrupted(void *ud) {
    ixd_sess *s = ud;
    int r = s->intr_fn(s->intr_ud);
    if (r == IXD_INTR_END) s->ended = 1;
    return r != 0;
}

void ixd_sess_set_interrupt_check(ixd_sess *s, int (*fn)(void *ud), void *ud) {
    s->intr_fn = fn;
    s->intr_ud = ud;
}

void ixd_sess_set_input_probe(ixd_sess *s, int (*fn)(void *ud), void *ud) {
    s->input_fn = fn;
    s->input_ud = ud;
}

void ixd_sess_set_client_channel(ixd_sess *s,
                                 int (*fn)(void *ud, const uint8_t *req, size_t n, ixp_msg *ans),
                                 void *ud) {
    s->ask_fn = fn;
    s->ask_ud = ud;
}

/* ---- replies ------------------------------------------------------------- */

void ixd_sess_send_err(ixd_sess *s, const ixv_err *e) {
    ixp_enc_err(&s->reply, &s->caps, e->sqlcode, e->isamcode, e->offset, e->text, strlen(e->text));
    s->skipping = 1;
    char msg[512];
    ixd_msg_fill(msg, sizeof msg, ixv_errtext(e->sqlcode), e->text);
    ixd_logl(s->srv, IXD_LOG_ERROR, s->id, "error %d (isam %d): %s", e->sqlcode, e->isamcode, msg);
}

void ixd_sess_send_errcode(ixd_sess *s, int sqlcode, int isam, const char *text) {
    ixv_err e;
    ixv_seterr(&e, sqlcode, isam, 0, "%s", text ? text : "");
    ixd_sess_send_err(s, &e);
}

/* COST with an estimate libsqli cannot mistake for a tag (§3.9): 1. */
void ixd_sess_send_done(ixd_sess *s, int warnings, int64_t rows, int32_t serial) {
    ixp_enc_done(&s->reply, &s->caps, warnings, rows, 0, serial);
    ixp_enc_cost(&s->reply, 1, 1);
    s->done_sent = 1;
}

/* XACTSTAT event and levels are unresolved (§8 #17). ixd sends event 2 (the
 * only value libsqli stays in step with), new/old level 1 inside a
 * transaction and 0 outside. */
static void send_xactstat(ixd_sess *s, int was_in) {
    ixp_enc_xactstat(&s->reply, 2, s->db && ixd_in_transaction(s->db) ? 1 : 0, was_in ? 1 : 0);
}

/* ---- statements ----------------------------------------------------------- */

void ixd_sess_stmt_free(sess_stmt *t) {
    if (!t) return;
    ixd_stmt_free(t->st);
    free(t->session_sql);
    ixb_wbuf_free(&t->ahead);
    ixb_wbuf_free(&t->binds);
    free(t->bindv);
    free(t);
}

/* Frees the session's statements and closes its database: an open
 * transaction rolls back, the LOs it left are released. Returns nothing. */
static void sess_close_db(ixd_sess *s) {
    for (int i = 0; i < MAX_STMTS; i++) {
        ixd_sess_stmt_free(s->stmts[i]);
        s->stmts[i] = NULL;
    }
    s->rolled |= s->db && ixd_in_transaction(s->db);
    ixd_db_close(s->db);
    s->db = NULL;
}

sess_stmt *ixd_sess_cur_stmt(ixd_sess *s) {
    if (s->cur < 0 || s->cur >= MAX_STMTS) return NULL;
    return s->stmts[s->cur];
}

/* The statement the current id names, for a message that uses it; NULL
 * with the error sent when there is none (IXD_E_NO_STMT), or when its
 * database has been closed since it was prepared: IXD_E_NO_DB while no
 * database is open, else IXD_E_NO_STMT. */
sess_stmt *ixd_sess_use_stmt(ixd_sess *s) {
    sess_stmt *t = ixd_sess_cur_stmt(s);
    if (t && (t->orphan || (t->st && ixd_stmt_orphaned(t->st)))) {
        ixd_sess_send_errcode(s, s->db ? IXD_E_NO_STMT : IXD_E_NO_DB, 0, NULL);
        return NULL;
    }
    if (!t) ixd_sess_send_errcode(s, IXD_E_NO_STMT, 0, NULL);
    return t;
}

/* After the database closed or changed (DBOPEN, DBCLOSE, DATABASE, CLOSE
 * DATABASE, CREATE DATABASE): the statements and cursors prepared on the old
 * one are released. Their ids stay taken until the client frees them, so
 * that a RELEASE of an old id cannot free a newer statement. */
static void drop_orphans(ixd_sess *s) {
    for (int i = 0; i < MAX_STMTS; i++) {
        sess_stmt *t = s->stmts[i];
        if (!t || !t->st || !ixd_stmt_orphaned(t->st)) continue;
        ixd_stmt_free(t->st);
        t->st = NULL;
        t->orphan = 1;
        t->open = t->has_ahead = t->exhausted = 0;
        t->nbinds = 0;
        t->wire_bound = 0;
    }
}

/* Session statements run by ixd_session_exec, not ixd_prepare: the first
 * words DATABASE, CLOSE DATABASE, CREATE DATABASE, DROP DATABASE. Returns
 * their ix_stmttype, or 0. */
static int session_stmt_type(const char *sql, size_t n) {
    ixb_tok w[2];
    int nw = ixb_sql_words(sql, n, w, 2);
    if (nw >= 1 && ixb_tok_is(&w[0], "DATABASE")) return IX_STMTTYPE_DATABASE;
    if (nw >= 2 && ixb_tok_is(&w[1], "DATABASE")) {
        if (ixb_tok_is(&w[0], "CLOSE")) return IX_STMTTYPE_CLOSE_DB;
        if (ixb_tok_is(&w[0], "CREATE")) return IX_STMTTYPE_CREATE_DB;
        if (ixb_tok_is(&w[0], "DROP")) return IX_STMTTYPE_DROP_DB;
    }
    return 0;
}

/* PREPARE / COMMAND: makes statement id `id` (the lowest free one).
 *
 * The SQL text may end in one NUL that its length counts: NMAP's library
 * appends one to every even-length text (and IDS 11.50 accepted it), JDD
 * writes one into SQ_COMMAND's length (sqli-protocol.md §3.1, §3.3). One
 * such NUL is dropped before the text is parsed; a second one is text (a
 * syntax error). Error offsets are unchanged: only the last byte goes. */
static int do_prepare(ixd_sess *s, const uint8_t *sql, size_t n) {
    if (n > 0 && sql[n - 1] == 0) n--;
    int id = -1;
    for (int i = 0; i < MAX_STMTS; i++)
        if (!s->stmts[i]) {
            id = i;
            break;
        }
    if (id < 0) {
        ixd_sess_send_errcode(s, IXV_E_TOO_MANY_STMTS, 0, NULL); /* too many statements */
        return -1;
    }
    sess_stmt *t = calloc(1, sizeof *t);
    if (!t) {
        ixd_sess_send_errcode(s, IXV_E_NOMEM, 0, NULL);
        return -1;
    }
    ixb_wbuf_init(&t->ahead, NULL);
    ixb_wbuf_init(&t->binds, NULL);
    int st = session_stmt_type((const char *)sql, n);
    if (st) {
        t->stmt_type = st;
        t->session_sql = malloc(n + 1);
        if (!t->session_sql) {
            ixd_sess_stmt_free(t);
            ixd_sess_send_errcode(s, IXV_E_NOMEM, 0, NULL);
            return -1;
        }
        memcpy(t->session_sql, sql, n);
        t->session_sql[n] = 0;
    } else {
        if (!s->db) {
            ixd_sess_stmt_free(t);
            ixd_sess_send_errcode(s, IXV_E_NO_DB_SELECTED, 0, NULL); /* database not selected yet */
            return -1;
        }
        ixv_err e = {0};
        if (ixd_prepare(s->db, (const char *)sql, n, &t->st, &e) != 0) {
            ixd_sess_stmt_free(t);
            ixd_sess_send_err(s, &e);
            return -1;
        }
        t->stmt_type = ixd_stmt_type(t->st);
        t->is_cursor = ixd_stmt_is_cursor(t->st);
    }
    s->stmts[id] = t;
    s->cur = id;
    s->done_sent = 0;
    return id;
}

static void do_describe(ixd_sess *s) {
    sess_stmt *t = ixd_sess_use_stmt(s);
    if (!t) return;
    int n = t->st ? ixd_stmt_ncols(t->st) : 0;
    ixp_column *cols = n ? calloc((size_t)n, sizeof *cols) : NULL;
    if (n && !cols) return ixd_sess_send_errcode(s, IXV_E_NOMEM, 0, NULL);
    for (int i = 0; i < n; i++) {
        ixd_col c;
        ixd_stmt_col(t->st, i, &c);
        cols[i].name = (ixp_bytes){(const uint8_t *)c.name, strlen(c.name)};
        cols[i].type = (int16_t)c.type;
        cols[i].enclen = (int32_t)c.enclen;
        if (c.xname) {
            cols[i].xowner = (ixp_bytes){(const uint8_t *)"informix", 8};
            cols[i].xname = (ixp_bytes){(const uint8_t *)c.xname, strlen(c.xname)};
            cols[i].xid = strcmp(c.xname, "lvarchar") == 0  ? 1
                          : strcmp(c.xname, "boolean") == 0 ? 5
                          : strcmp(c.xname, "blob") == 0    ? IXP_LO_XID_BLOB
                          : strcmp(c.xname, "clob") == 0    ? IXP_LO_XID_CLOB
                                                            : 0;
        }
    }
    ixp_describe d = {
        .stmt_type = (int16_t)t->stmt_type, .stmt_id = (int16_t)s->cur, .est_rows = 1};
    if (ixp_enc_describe(&s->reply, &s->caps, &d, cols, n) == IX_ERANGE)
        ixd_sess_send_errcode(s, IXV_E_ROW_TOO_WIDE, 0, NULL); /* row too wide to describe */
    free(cols);
    /* A real server follows an INSERT's describe with INSERTDONE (§3.1). */
    if (t->stmt_type == IX_STMTTYPE_INSERT) ixp_enc_insertdone(&s->reply, &s->caps, 0, 0);
}

/*
 * One bind value of a common type, read straight from the SQ_BIND bytes the
 * decoder validated (layout: the table above rd_bindval in
 * src/proto/ix_msg_items.c): i16 type, i16 indicator, i16 slot, then for a
 * value its bytes padded to even. The types: SMALLINT, INTEGER, SERIAL,
 * DATE, BIGINT, BIGSERIAL, FLOAT, SMALLFLOAT (fixed width, the tuple form's
 * bytes), VARCHAR and NVARCHAR (i16 length, bytes; the tuple form has a u8
 * length). Appends the tuple form to t->binds, which has room for it (the
 * tuple form is never longer than the bind form: do_bind reserves the whole
 * message once), and returns the bytes read, or 0 when the value takes the
 * general path (another type, NULL forms and values ixt_value_from_bind
 * refuses or rewrites: those give its result).
 */
size_t ixd_sess_bind_fast(sess_stmt *t, const uint8_t *p, size_t n, struct bindref *r) {
    if (n < 6) return 0;
    int code = ixb_be16(p) & 0xff;
    int16_t ind = (int16_t)ixb_be16(p + 2);
    size_t w;
    switch (code) {
    case IX_T_SMALLINT: w = 2; break;
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_DATE:
    case IX_T_SMALLFLOAT: w = 4; break;
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
    case IX_T_FLOAT: w = 8; break;
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR: w = 0; break;
    default: return 0;
    }
    if (ind != IXP_IND_VALUE) return 0;
    const uint8_t *v = p + 6;
    size_t left = n - 6;
    if (w == 0) { /* VARCHAR: at most 255 bytes, not the 01 00 NULL form */
        if (left < 2) return 0;
        size_t len = ixb_be16(v);
        if (len > 255 || left - 2 < len || (len == 1 && v[2] == 0)) return 0;
        r->t = (ixt_vtype){code, (uint32_t)len};
        t->binds.data[t->binds.len] = (uint8_t)len;
        memcpy(t->binds.data + t->binds.len + 1, v + 2, len);
        t->binds.len += len + 1;
        return 6 + 2 + len + (len & 1);
    }
    if (left < w) return 0;
    uint64_t u = w == 2 ? ixb_be16(v) : w == 4 ? ixb_be32(v) : ixb_be64(v);
    uint64_t nullform = (uint64_t)1 << (8 * w - 1);
    if (code == IX_T_FLOAT || code == IX_T_SMALLFLOAT) {
        /* NaN is rewritten by the general path */
        uint64_t exp = w == 8 ? 0x7ff0000000000000ull : 0x7f800000u;
        uint64_t frac = w == 8 ? 0x000fffffffffffffull : 0x007fffffu;
        if ((u & exp) == exp && (u & frac)) return 0;
    } else if (u == nullform) {
        return 0;
    } else if (code == IX_T_DATE && ((int32_t)u < IXT_DATE_MIN || (int32_t)u > IXT_DATE_MAX)) {
        return 0;
    }
    r->t = (ixt_vtype){code, (uint32_t)w};
    memcpy(t->binds.data + t->binds.len, v, w);
    t->binds.len += w;
    return 6 + w;
}

/* SQ_DBLIST (NMAP, single source): the names of every database in the data
 * directory, whether or not one is open. */
static void do_dblist(ixd_sess *s) {
    char **names = NULL;
    ixv_err e = {0};
    int n = ixd_db_list(s->srv->engine, &names, &e);
    if (n < 0) return ixd_sess_send_err(s, &e);
    ixp_bytes *v = n ? calloc((size_t)n, sizeof *v) : NULL;
    if (n && !v) {
        free(names);
        return ixd_sess_send_errcode(s, IXV_E_NOMEM, 0, NULL);
    }
    for (int i = 0; i < n; i++)
        v[i] = (ixp_bytes){(const uint8_t *)names[i], strlen(names[i])};
    ixp_enc_dblist(&s->reply, v, n);
    free(v);
    free(names);
}

static void do_transaction(ixd_sess *s, int tag) {
    if (!s->db) return ixd_sess_send_errcode(s, IXV_E_NO_DB_SELECTED, 0, NULL);
    ixv_err e = {0};
    int r = tag == IXP_SQ_BEGIN      ? ixd_begin(s->db, &e)
            : tag == IXP_SQ_CMMTWORK ? ixd_commit(s->db, &e)
                                     : ixd_rollback(s->db, &e);
    if (r != 0) ixd_sess_send_err(s, &e); /* handle() sends the XACTSTAT */
}

/* Savepoint messages (single source, libsqli): run as SQL. The name travels
 * as a delimited identifier ("name", quotes doubled), so that any name the
 * message carries, a keyword or one with blanks or quotes, reaches the engine
 * as it is and names the same savepoint as SAVEPOINT "name" in SQL text. */
static void do_savepoint(ixd_sess *s, const ixp_msg *m) {
    if (!s->db) return ixd_sess_send_errcode(s, IXV_E_NO_DB_SELECTED, 0, NULL);
    const ixp_bytes *name = m->tag == IXP_SQ_SVPOINT ? &m->u.svpoint.name : &m->u.name;
    char sql[32 + 2 * 128 + 3];
    const char *verb = m->tag == IXP_SQ_SVPOINT      ? "SAVEPOINT"
                       : m->tag == IXP_SQ_RELSVPOINT ? "RELEASE SAVEPOINT"
                                                     : "ROLLBACK WORK TO SAVEPOINT";
    if (name->n > 128) return ixd_sess_send_errcode(s, IXV_E_SYNTAX, 0, NULL);
    size_t k = (size_t)snprintf(sql, sizeof sql, "%s \"", verb);
    for (size_t i = 0; i < name->n; i++) {
        if (name->p[i] == '"') sql[k++] = '"';
        sql[k++] = (char)name->p[i];
    }
    sql[k++] = '"';
    sql[k] = 0;
    ixd_stmt *st = NULL;
    ixv_err e = {0};
    int64_t rows, s8;
    int32_t ser;
    if (ixd_prepare(s->db, sql, k, &st, &e) != 0 || ixd_execute(st, &rows, &ser, &s8, &e) != 0) {
        ixd_stmt_free(st);
        return ixd_sess_send_err(s, &e);
    }
    ixd_stmt_free(st);
}

/* ---- login ------------------------------------------------------------------- */

static void ascstr_copy(char *dst, size_t cap, const ixp_ascstr *a) {
    size_t n = a->n < cap - 1 ? a->n : cap - 1;
    if (n) memcpy(dst, a->p, n);
    dst[n] = 0;
}

/* The peer's address without its port ("1.2.3.4:5" -> "1.2.3.4"). */
static void peer_addr(const ixd_sess *s, char *buf, size_t cap) {
    const char *colon = strrchr(s->peer, ':');
    size_t n = colon ? (size_t)(colon - s->peer) : strlen(s->peer);
    snprintf(buf, cap, "%.*s", (int)n, s->peer);
}

/* Checks user/password through the login throttle. Returns 0 or the
 * svc_error, the same (IXD_ELOGIN) for an unknown user and a wrong password
 * (Informix does the same); *detail says which in the server's log. Sets
 * s->login_wait_ms. */
static int check_user(ixd_sess *s, const char *user, const char *pass, const char **detail) {
    char addr[64];
    peer_addr(s, addr, sizeof addr);
    long wait = ixd_throttle_begin(s->srv->throttle, addr, ixd_now_ms());
    if (wait < 0) {
        *detail = " (too many failed logins from this address; password not checked)";
        return IXD_ELOGIN;
    }
    s->login_wait_ms = wait;
    int ok = ixd_users_check(s->srv->users, user, pass);
    ixd_throttle_end(s->srv->throttle, addr, ok == 1, ixd_now_ms());
    if (wait) ixd_log(s->srv, s->id, "login from %s held back %ld ms (failed logins)", addr, wait);
    *detail = ok == 0 ? " (unknown user)" : ok < 0 ? " (wrong password)" : "";
    return ok == 1 ? 0 : IXD_ELOGIN;
}

/* Splits a --redirect value "[NAME@]HOST:PORT" ("[V6]:PORT" too) into *t;
 * NAME defaults to fallback. 0, or -1 when it is not one. */
static int redirect_split(const char *v, const char *fallback, ixp_redirect_target *t) {
    memset(t, 0, sizeof *t);
    const char *at = strchr(v, '@');
    const char *hp = at ? at + 1 : v;
    const char *name = at ? v : fallback;
    size_t nl = at ? (size_t)(at - v) : strlen(fallback ? fallback : "");
    const char *colon = strrchr(hp, ':');
    if (!colon || nl == 0 || nl > IXP_REDIRECT_NAME_MAX) return -1;
    size_t hl = (size_t)(colon - hp);
    if (hl >= 2 && hp[0] == '[' && hp[hl - 1] == ']') hp++, hl -= 2;
    if (hl == 0 || hl > IXP_REDIRECT_HOST_MAX) return -1;
    memcpy(t->server, name, nl);
    memcpy(t->host, hp, hl);
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (end == colon + 1 || *end || port < 1 || port > 65535) return -1;
    t->port = (int)port;
    return strpbrk(t->server, "|") || strpbrk(t->host, "|") ? -1 : 0;
}

int ixd_redirect_valid(const char *v) {
    ixp_redirect_target t;
    return redirect_split(v, "x", &t) == 0;
}

/* --redirect: answers the login with a redirect and ends the session. The
 * password is not checked (Connection Manager does not know it either); the
 * server name sent on is NAME, else the one the client asked for, else ours. */
static int send_redirect(ixd_sess *s, const char *asked, ixb_wbuf *out) {
    ixp_redirect_target t;
    const char *name = asked[0] ? asked : s->srv->server_name;
    char detail[IXP_REDIRECT_DETAIL_MAX];
    ixp_conacc acc;
    if (redirect_split(s->srv->redirect, name, &t) != 0 ||
        ixp_redirect_defaults(&acc, s->srv->banner, &t, detail, sizeof detail) != IX_OK) {
        ixd_log(s->srv, s->id, "cannot redirect to \"%s\"", s->srv->redirect);
        return -1;
    }
    ixp_conacc_encode(&acc, out);
    ixd_log(s->srv, s->id, "login from %s redirected to %s@%s:%d", s->peer, t.server, t.host,
            t.port);
    return 1;
}

void ixd_sess_db_env(ixd_sess *s) {
    if (s->db && s->dbmoney[0] && ixd_set_env(s->db, "DBMONEY", s->dbmoney) < 0)
        ixd_log(s->srv, s->id, "DBMONEY \"%s\" not taken: the default $. applies", s->dbmoney);
    if (s->db && s->delimident_set) ixd_set_env(s->db, "DELIMIDENT", s->delimident);
}

/* CONREQ -> CONACC, or CONREJ with svc_error and the end of the session. */
static int do_login(ixd_sess *s, const ixp_msg *m, ixb_wbuf *out) {
    ixp_conreq req;
    size_t used = 0, at = 0;
    const char *why = NULL;
    int rc =
        ixp_conreq_decode(m->u.login.packet.p, m->u.login.packet.n, NULL, &req, &used, &at, &why);
    if (rc != IX_OK || m->u.login.sl_type != IXP_SL_CONREQ) {
        ixd_log(s->srv, s->id, "bad login packet at offset %zu: %s", at,
                why ? why : "not a connection request");
        return -1;
    }
    char user[64], pass[256], server[129];
    ascstr_copy(user, sizeof user, &req.user);
    ascstr_copy(pass, sizeof pass, &req.password);
    ascstr_copy(server, sizeof server, &req.server);
    if (s->srv->redirect) {
        memset(pass, 0, sizeof pass);
        return send_redirect(s, server, out);
    }
    int svc = 0;
    const char *detail = "";
    if (server[0] && strcmp(server, s->srv->server_name) != 0 &&
        !ixd_engine_is_server(s->srv->engine, server)) { /* nor an alias */
        svc = IXV_E_SERVER_NAME; /* INFORMIXSERVER does not match DBSERVERNAME */
    } else {
        svc = check_user(s, user, pass, &detail);
    }
    memset(pass, 0, sizeof pass);
    ixp_conacc acc;
    if (svc) {
        ixp_conrej_defaults(&acc, s->srv->server_name, s->srv->banner, svc);
        ixp_conacc_encode(&acc, out);
        char msg[256];
        ixd_msg_fill(msg, sizeof msg, ixv_errtext(svc), svc == IXV_E_SERVER_NAME ? server : user);
        ixd_log(s->srv, s->id, "login rejected for user \"%s\" from %s: %d %s%s", user, s->peer,
                svc, msg, detail);
        return 1;
    }
    ixp_conacc_defaults(&acc, s->srv->server_name, s->srv->banner);
    /* ixd names itself (IXP_IXD_SERIAL), so that the client may use the
     * forms only ixd takes; --strict keeps a real server's serial */
    if (!s->srv->strict) acc.serial = ixp_ascstr_of(IXP_IXD_SERIAL);
    ixp_conacc_encode(&acc, out);
    snprintf(s->user, sizeof s->user, "%s", user);
    for (int k = 0; k < req.nenv; k++) { /* what the engine reads of the client's environment */
        char name[16];
        ascstr_copy(name, sizeof name, &req.env[k].name);
        if (strcmp(name, "DBMONEY") == 0)
            ascstr_copy(s->dbmoney, sizeof s->dbmoney, &req.env[k].value);
        if (strcmp(name, "DELIMIDENT") == 0) {
            ascstr_copy(s->delimident, sizeof s->delimident, &req.env[k].value);
            s->delimident_set = 1;
        }
    }
    s->logged_in = 1;
    if (s->srv->strict) s->login_groups = STRICT_LOGIN_GROUPS;
    ixd_log(s->srv, s->id, "login user \"%s\" from %s", user, s->peer);
    return 0;
}

/* ---- strict mode (docs/server.md "Strict mode") -----------------------------
 * ixd --strict plays a conservative real Informix server for the client's
 * tests: it refuses the request forms only ixd has ever answered. Each rule
 * is one function here; each does nothing without --strict. */

/* (d) The capabilities ixd grants: strict mode drops f62, so that SQLTEXT
 * lengths, SQ_ERR offsets and NFETCH/SFETCH buffer sizes stay i16 (at most
 * 32767), as with a server that does not know the bit. */
static ixp_caps granted_caps(const ixd_sess *s) {
    ixp_caps impl = ixp_caps_ixd;
    if (s->srv->strict) impl.f62 = 0;
    return impl;
}

/* The messages that act on a statement (the current one, after SQ_ID or
 * SQ_PREPARE). NDESCRIBE and WANTDONE belong to the PREPARE group (§3.1). */
static int acts_on_stmt(int tag) {
    switch (tag) {
    case IXP_SQ_CURNAME:
    case IXP_SQ_SCROLL:
    case IXP_SQ_HOLD:
    case IXP_SQ_AUTOFREE:
    case IXP_SQ_BIND:
    case IXP_SQ_OPEN:
    case IXP_SQ_EXECUTE:
    case IXP_SQ_NFETCH:
    case IXP_SQ_SFETCH:
    case IXP_SQ_CLOSE:
    case IXP_SQ_RELEASE: return 1;
    }
    return 0;
}

/* (a) Deferred groups without SQ_ID: after an SQ_PREPARE, a message acting on
 * the statement with no SQ_ID between them in the same group answers -404
 * and the rest of the group is skipped (the PREPARE's answer has gone out
 * before it; the statement stays prepared). No public capture shows a real
 * server taking the form; COMMAND, NDESCRIBE, EXECUTE, RELEASE without SQ_ID
 * is a verified one and stays (only SQ_PREPARE starts the rule). Returns 1
 * when m was refused. */
static int strict_unnamed_refused(ixd_sess *s, const ixp_msg *m) {
    if (!s->srv->strict) return 0;
    if (m->tag == IXP_SQ_PREPARE || m->tag == IXP_SQ_ID || m->tag == IXP_SQ_EOT ||
        m->tag == IXP_SQ_FETCHBLOB) { /* FETCHBLOB ends its group */
        s->prepared_no_id = m->tag == IXP_SQ_PREPARE;
        return 0;
    }
    if (s->skipping || !s->prepared_no_id || !acts_on_stmt(m->tag)) return 0;
    ixd_logl(s->srv, IXD_LOG_WARN, s->id, "strict: %s after SQ_PREPARE without SQ_ID",
             ixp_tag_name(m->tag));
    ixd_sess_send_errcode(s, IXD_E_NOT_AVAILABLE, 0, NULL);
    return 1;
}

static int is_login_tag(int tag) {
    return tag == IXP_SQ_PROTOCOLS || tag == IXP_SQ_INFO || tag == IXP_SQ_DBOPEN;
}

/* (b) The first message of a group: a group that does not begin like a
 * login group ends the login (no more groups are checked). */
static void strict_group_begins(ixd_sess *s, const ixp_msg *m) {
    if (s->login_groups && !is_login_tag(m->tag)) s->login_groups = 0;
}

/* 1 when the client has sent bytes the session has not handled yet: in the
 * reader, or readable on the connection (the listener's probe). */
static int client_sent_more(ixd_sess *s) {
    return ixp_reader_pending(&s->rd) > 0 || (s->input_fn && s->input_fn(s->input_ud));
}

/* (b) The login flight: at the EOT of one of the login groups, before its
 * answer goes out, the next group must not be there yet (a client waits for
 * each answer). If it is, this group is answered and nothing after it ever
 * is: the session discards all input until the client closes, so a client
 * that pipelines its login waits until its own timeout. */
static void strict_group_ends(ixd_sess *s) {
    if (!s->login_groups) return;
    s->login_groups--;
    if (!client_sent_more(s)) return;
    s->login_groups = 0;
    s->discarding = 1;
    ixd_logl(s->srv, IXD_LOG_WARN, s->id,
             "strict: login group sent before the previous one was answered; "
             "input discarded until the client closes");
}

/* (f) BYTE/TEXT values: a real server takes them only as descriptors with
 * SQ_BBIND and SQ_BLOB (proto/ix_blob.h); strict mode refuses ixdb's inline
 * form (i32 length, bytes in the BIND). Returns 1 when refused (sent). */
int ixd_sess_strict_inline_blob_refused(ixd_sess *s, sess_stmt *t) {
    if (!s->srv->strict) return 0;
    ixd_sess_blobin_fail(s, t, E_BLOB_HOSTVAR, "strict: BYTE/TEXT value inline in SQ_BIND");
    return 1;
}

/* (c) For the log of malformed input: 1 when, in strict mode, the message
 * that failed begins with the interrupt's byte, which strict mode leaves in
 * the stream (SO_OOBINLINE, ixd_listen.c conn_watches_urgent). */
static int strict_urgent_inline(const ixd_sess *s) {
    size_t n = ixp_reader_pending(&s->rd);
    return s->srv->strict && n > 0 && s->rd.buf[s->rd.start] == IXP_INTERRUPT_BYTE;
}

/* (e) In an ANSI database, CLOSE of a cursor that is not open (never opened,
 * closed, its OPEN failed, closed by the end of the transaction) is an error
 * (IBM, CLOSE statement: "the database server returns an error"; the code is
 * not given, -404 is ixd's choice). An id that names no cursor (unknown, or a
 * statement without one) keeps the bare EOT of §3.11. Returns 1 when refused. */
int ixd_sess_strict_close_refused(ixd_sess *s, const sess_stmt *t) {
    if (!s->srv->strict || !(s->dbflags & DBFLAG_ANSI) || !t || !t->is_cursor || t->open) return 0;
    ixd_sess_send_errcode(s, IXD_E_NOT_AVAILABLE, 0, NULL);
    return 1;
}

/* (e) The end of a transaction (COMMIT or ROLLBACK, as a message or as SQL)
 * closes every open cursor not declared WITH HOLD, as Informix does. Normal
 * ixd leaves them open (docs/server.md "Strict mode"). */
static void strict_txn_ended(ixd_sess *s) {
    if (!s->srv->strict) return;
    for (int i = 0; i < MAX_STMTS; i++) {
        sess_stmt *t = s->stmts[i];
        if (!t || !t->st || !t->open || t->hold) continue;
        ixd_close(t->st);
        t->open = t->has_ahead = t->exhausted = 0;
    }
}

/* ---- dispatch ---------------------------------------------------------------- */

static int handle_msg(ixd_sess *s, const ixp_msg *m, ixb_wbuf *out);

static int is_txn_tag(int tag) {
    return tag == IXP_SQ_BEGIN || tag == IXP_SQ_CMMTWORK || tag == IXP_SQ_RBWORK;
}

/*
 * Handles one post-login message. Returns 0, or 1 when the session ends.
 * SQ_XACTSTAT tells the client of every change of the transaction state:
 * the answer to a BEGIN / COMMIT / ROLLBACK message that succeeded, and any
 * other message that opened or ended a transaction (BEGIN WORK as SQL, a
 * COMMIT that failed and so ended it, an error after which SQLite rolled
 * back by itself: the engine follows SQLite's state, ixd_txn_sync).
 */
static int handle(ixd_sess *s, const ixp_msg *m, ixb_wbuf *out) {
    ixd_db *db = s->db;
    ixd_set_interrupt_check(db, s->intr_fn ? sess_interrupted : NULL, s);
    ixd_set_client_channel(db, s->ask_fn, s->ask_ud);
    /* SQ_ID, SQ_BIND, SQ_BBIND and SQ_BLOB only pick a statement and keep
     * values (a cursor they close keeps the transaction), SQ_EOT only sends
     * the group's replies: no transaction change to tell */
    if (m->tag == IXP_SQ_BIND || m->tag == IXP_SQ_ID || m->tag == IXP_SQ_BBIND ||
        m->tag == IXP_SQ_BLOB || m->tag == IXP_SQ_EOT)
        return handle_msg(s, m, out);
    int was = ixd_in_transaction(db);
    int end = handle_msg(s, m, out);
    if (s->db != db) drop_orphans(s);
    if (end || s->db != db || !db) return end;
    if (was && !ixd_in_transaction(db)) strict_txn_ended(s);
    int ok = is_txn_tag(m->tag) && !s->skipping;
    if (ok || ixd_in_transaction(db) != was) send_xactstat(s, was);
    return 0;
}

/* SQ_GETROUTINE and SQ_EXFPROUTINE (ixd_fastpath.c): the answer, then
 * SQ_DONE (after a look-up without SQ_COST, as the sources show it; after a
 * call with it, as after a statement), or SQ_ERR. */
static void do_fastpath(ixd_sess *s, const ixp_msg *m) {
    ixv_err e = {0};
    int rc = m->tag == IXP_SQ_GETROUTINE ? ixd_fp_getroutine(s->db, &m->u.getroutine, &s->reply, &e)
                                         : ixd_fp_call(s->db, &m->u.exfp, &s->reply, &e);
    if (rc) return ixd_sess_send_err(s, &e);
    if (m->tag == IXP_SQ_EXFPROUTINE) return ixd_sess_send_done(s, 0, 0, 0);
    ixp_enc_done(&s->reply, &s->caps, 0, 0, 0, 0);
    s->done_sent = 1;
}

/* Moves the group's replies to out: when out is empty (the usual case) the
 * two buffers trade their memory instead of copying the bytes (both use the
 * C library's allocator and have no limit, so either serves as the other). */
static void reply_to_out(ixd_sess *s, ixb_wbuf *out) {
    if (out->len == 0 && !out->err && out->alloc == s->reply.alloc && out->max == s->reply.max) {
        ixb_wbuf t = *out;
        *out = s->reply;
        s->reply = t;
    } else {
        ixb_put_bytes(out, s->reply.data, s->reply.len);
    }
    ixb_wbuf_reset(&s->reply);
}

static int handle_msg(ixd_sess *s, const ixp_msg *m, ixb_wbuf *out) {
    int after_blob = s->after_blob;
    s->after_blob = 0;
    if (m->tag != IXP_SQ_EOT && !s->in_group) strict_group_begins(s, m);
    /* FETCHBLOB's answer ends its group (ixd_sess_do_fetchblob) */
    s->in_group = m->tag != IXP_SQ_EOT && m->tag != IXP_SQ_FETCHBLOB;
    if (strict_unnamed_refused(s, m)) return 0;
    if (m->tag == IXP_SQ_EOT && after_blob && s->reply.len == 0) return 0;
    if (m->tag == IXP_SQ_FETCHBLOB) {
        ixd_sess_do_fetchblob(s, m, out);
        s->after_blob = 1;
        return 0;
    }
    if (m->tag == IXP_SQ_EOT) {
        strict_group_ends(s);
        reply_to_out(s, out);
        ixp_enc_tag(out, IXP_SQ_EOT);
        s->skipping = 0;
        s->done_sent = 0;
        return 0;
    }
    if (m->tag == IXP_SQ_EXIT) {
        /* §2.9: act at once; an open transaction rolls back. The session's
         * database is closed before the answer, so that nothing of this
         * session (a lock, an LO being released) is left when the client
         * goes on after ix_close. */
        ixb_put_bytes(out, s->reply.data, s->reply.len);
        ixb_wbuf_reset(&s->reply);
        sess_close_db(s);
        ixp_enc_tag(out, IXP_SQ_EXIT);
        return 1;
    }
    if (s->skipping) return 0;
    switch (m->tag) {
    case IXP_SQ_PROTOCOLS: {
        uint8_t ans[IXP_CAPS_ANSWER_LEN];
        s->caps = ixp_caps_answer(m->u.protocols.p, m->u.protocols.n, granted_caps(s), ans);
        s->rd.caps = s->caps;
        s->pr.caps = s->caps;
        ixp_enc_protocols(&s->reply, ans, sizeof ans);
        break;
    }
    case IXP_SQ_INFO: break; /* environment: accepted, nothing to answer */
    case IXP_SQ_DBOPEN: {
        /* a name that does not fit (or holds a NUL) is malformed, not missing */
        char name[IXD_DBNAME_MAX + 1];
        size_t n = m->u.dbopen.name.n;
        if (n > IXD_DBNAME_MAX || (n && memchr(m->u.dbopen.name.p, 0, n))) {
            snprintf(name, sizeof name, "%.*s", (int)(n < IXD_DBNAME_MAX ? n : IXD_DBNAME_MAX),
                     (const char *)m->u.dbopen.name.p);
            ixd_sess_send_errcode(s, IXV_E_DB_NAME, 0, name); /* incorrect database name format */
            break;
        }
        memcpy(name, m->u.dbopen.name.p, n);
        name[n] = 0;
        ixd_db *db = NULL;
        int flags = 0;
        ixv_err e = {0};
        if (ixd_db_open(s->srv->engine, name, s->user, &db, &flags, &e) != 0) {
            ixd_sess_send_err(s, &e);
            break;
        }
        ixd_db_close(s->db);
        s->db = db;
        s->dbflags = flags;
        ixd_sess_db_env(s);
        snprintf(s->dbname, sizeof s->dbname, "%s", name);
        ixd_sess_send_done(s, flags, 0, 0);
        break;
    }
    case IXP_SQ_DBCLOSE:
        ixd_db_close(s->db);
        s->db = NULL;
        break;
    case IXP_SQ_DBLIST: do_dblist(s); break;
    case IXP_SQ_PREPARE:
    case IXP_SQ_COMMAND: do_prepare(s, m->u.stmt.sql.p, m->u.stmt.sql.n); break;
    case IXP_SQ_NDESCRIBE: do_describe(s); break;
    case IXP_SQ_WANTDONE:
        if (!s->done_sent) ixd_sess_send_done(s, 0, 0, 0);
        break;
    case IXP_SQ_ID:
        /* An unknown id is not an error by itself: the message that uses it
         * answers -410, except CLOSE and RELEASE (ixd_sess_do_release). */
        s->cur = m->u.id;
        s->done_sent = 0;
        break;
    case IXP_SQ_BIND: ixd_sess_do_bind(s, m); break;
    case IXP_SQ_BBIND: ixd_sess_do_bbind(s, m); break;
    case IXP_SQ_BLOB: ixd_sess_do_blob_chunk(s, m); break;
    case IXP_SQ_EXECUTE: ixd_sess_do_execute(s); break;
    case IXP_SQ_CURNAME: {
        sess_stmt *t = ixd_sess_use_stmt(s);
        if (!t) break;
        size_t n = m->u.name.n < sizeof t->cursor - 1 ? m->u.name.n : sizeof t->cursor - 1;
        memcpy(t->cursor, m->u.name.p, n);
        t->cursor[n] = 0;
        t->scroll = t->autofree = t->hold = 0;
        break;
    }
    case IXP_SQ_SCROLL:
    case IXP_SQ_HOLD:
    case IXP_SQ_AUTOFREE: {
        sess_stmt *t = ixd_sess_use_stmt(s);
        if (!t) break;
        if (m->tag == IXP_SQ_SCROLL) t->scroll = 1;
        if (m->tag == IXP_SQ_AUTOFREE) t->autofree = 1;
        if (m->tag == IXP_SQ_HOLD) t->hold = 1;
        break;
    }
    case IXP_SQ_OPEN: ixd_sess_do_open(s); break;
    case IXP_SQ_NFETCH: ixd_sess_do_nfetch(s, m->u.nfetch.bufsize); break;
    case IXP_SQ_SFETCH: ixd_sess_do_sfetch(s, m); break;
    case IXP_SQ_RET_TYPE: break; /* the described types are kept (§8 #25) */
    case IXP_SQ_CLOSE: ixd_sess_do_close(s); break;
    case IXP_SQ_RELEASE: ixd_sess_do_release(s); break;
    case IXP_SQ_BEGIN:
    case IXP_SQ_CMMTWORK:
    case IXP_SQ_RBWORK: do_transaction(s, m->tag); break;
    case IXP_SQ_SVPOINT:
    case IXP_SQ_RELSVPOINT:
    case IXP_SQ_RBSVPOINT: do_savepoint(s, m); break;
    case IXP_SQ_LODATA: {
        ixv_err e = {0};
        if (ixd_lob_message(s->db, &m->u.lodata, &s->reply, &e)) ixd_sess_send_err(s, &e);
        break;
    }
    case IXP_SQ_GETROUTINE:
    case IXP_SQ_EXFPROUTINE: do_fastpath(s, m); break;
    case IXP_SQ_GENKEYS:
    case IXP_SQ_BATCH_START:
    case IXP_SQ_BATCH_END: break; /* accepted; nothing to do */
    default:
        /* PAM messages and the like: ixd never grants PAM. */
        ixd_log(s->srv, s->id, "unexpected %s", ixp_tag_name(m->tag));
        ixd_sess_send_errcode(s, IXV_E_BAD_MESSAGE, 0, NULL);
        break;
    }
    return 0;
}

ixd_sess *ixd_sess_new(ixd_server *srv, unsigned long id, const char *peer) {
    ixd_sess *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->srv = srv;
    s->id = id;
    snprintf(s->peer, sizeof s->peer, "%s", peer ? peer : "?");
    ixp_reader_init(&s->rd, IXP_FROM_CLIENT, NULL);
    s->rd.lim = srv->limits;
    ixp_limits_default(&s->rd.lim); /* what a zero field means, once */
    s->rd.max_buffer = srv->max_buffer;
    ixp_printer_init(&s->pr, NULL);
    ixp_reader_init(&s->vrd, IXP_FROM_SERVER, NULL);
    ixp_printer_init(&s->vpr, NULL);
    ixb_wbuf_init(&s->reply, NULL);
    ixb_wbuf_init(&s->tmp, NULL);
    s->cur = -1;
    return s;
}

/* --verbose: prints the reply messages appended to out since `from`. */
static void log_replies(ixd_sess *s, const ixb_wbuf *out, size_t from) {
    if (!s->srv->verbose || out->len <= from) return;
    s->vrd.caps = s->caps;
    s->vpr.caps = s->caps;
    if (ixp_reader_feed(&s->vrd, out->data + from, out->len - from) != IX_OK) return;
    ixp_msg m;
    while (ixp_reader_next(&s->vrd, &m) == IX_OK) {
        ixb_wbuf_reset(&s->tmp);
        ixp_print_msg(&s->vpr, IXP_FROM_SERVER, &m, &s->tmp);
        ixd_logl(s->srv, IXD_LOG_DEBUG, s->id, "> %.*s", (int)s->tmp.len,
                 (const char *)s->tmp.data);
    }
}

static int sess_input(ixd_sess *s, const uint8_t *p, size_t n, ixb_wbuf *out);

int ixd_sess_input(ixd_sess *s, const uint8_t *p, size_t n, ixb_wbuf *out) {
    size_t from = out->len;
    int rc = sess_input(s, p, n, out);
    log_replies(s, out, from);
    return rc;
}

int ixd_sess_logged_in(const ixd_sess *s) {
    return s->logged_in;
}

long ixd_sess_take_login_wait(ixd_sess *s) {
    long w = s->login_wait_ms;
    s->login_wait_ms = 0;
    return w;
}

/* Before the login: refuses at once input that cannot begin a CONREQ,
 * instead of waiting for the length its header declares. */
static int login_header_ok(ixd_sess *s) {
    size_t n = ixp_reader_pending(&s->rd);
    if (s->logged_in || !s->rd.expect_login || n == 0) return 1;
    const uint8_t *b = s->rd.buf + s->rd.start;
    const char *why = ixd_login_header_why(b, n);
    if (!why) return 1;
    ixd_log(s->srv, s->id, "login refused from %s: %s (first bytes %02x %02x)", s->peer, why,
            n > 0 ? b[0] : 0, n > 1 ? b[1] : 0);
    return 0;
}

/* Output backpressure: true when the replies waiting (in out, and those of
 * the current group) reach IXD_OUT_HIGH and more input is buffered. The
 * replies of an unfinished group then move to out, so that writing out makes
 * room: the client reads them after its EOT just the same. */
static int out_full(ixd_sess *s, ixb_wbuf *out) {
    if (out->len + s->reply.len < IXD_OUT_HIGH || ixp_reader_pending(&s->rd) == 0) return 0;
    reply_to_out(s, out);
    return 1;
}

int ixd_sess_fast_groups = IXD_GROUPS_FAST;

/* The prepared statement without a cursor a group's SQ_ID names, when the
 * group meets the session in the state where handle() would do nothing for
 * its messages but pick the statement, bind and execute it and send the
 * replies: not skipping, no group begun, no FETCHBLOB answered before, no
 * login group still checked (strict mode), a database open and the
 * statement prepared on it. NULL otherwise. */
static sess_stmt *group_stmt(ixd_sess *s, int id) {
    if (ixd_sess_fast_groups != IXD_GROUPS_FAST) return NULL;
    if (s->skipping || s->in_group || s->after_blob || s->login_groups || !s->db || id < 0 ||
        id >= MAX_STMTS)
        return NULL;
    sess_stmt *t = s->stmts[id];
    if (!t || !t->st || t->orphan || t->is_cursor || t->session_sql || ixd_stmt_orphaned(t->st))
        return NULL;
    return t;
}

/* A pipelined statement run (ixp_reader_bind_group) without decoding its
 * four messages one by one. For a statement group_stmt gives: what
 * handle() does for them, without its checks that cannot apply (the id's
 * statement is known, the database cannot change), the interrupt check,
 * client channel and transaction state read once. Otherwise each message
 * goes through handle() as ixp_reader_next would have filled it for its
 * handler. Stops after the EXECUTE when the session ends or a reply ran
 * out of memory, as sess_input does after a message. Not with --verbose
 * (which logs every message). */
static void run_group(ixd_sess *s, const ixp_bind_group *g, ixb_wbuf *out) {
    ixd_db *db = s->db;
    sess_stmt *t = group_stmt(s, g->id);
    ixp_msg m;
    m.tag = IXP_SQ_BIND;
    m.len = g->bind_len;
    m.u.bind.count = g->count;
    m.u.bind.raw = g->raw;
    if (t) {
        ixd_set_interrupt_check(db, s->intr_fn ? sess_interrupted : NULL, s);
        ixd_set_client_channel(db, s->ask_fn, s->ask_ud);
        s->prepared_no_id = 0; /* strict_unnamed_refused at the SQ_ID */
        s->in_group = 1;
        s->cur = g->id;
        s->done_sent = 0;
        ixd_sess_bind_stmt(s, t, &m);
        if (s->reply.err || s->ended) return;
        int was = ixd_in_transaction(db);
        if (!s->skipping) ixd_sess_exec_stmt(s, t);
        int now = ixd_in_transaction(db);
        if (was && !now) strict_txn_ended(s);
        if (now != was) send_xactstat(s, was);
    } else {
        ixp_msg id = {.tag = IXP_SQ_ID, .len = g->id_len, .u.id = g->id};
        handle(s, &id, out);
        handle(s, &m, out);
        if (s->reply.err || s->ended) return;
        m.tag = IXP_SQ_EXECUTE;
        m.len = IXP_EOT_LEN; /* a bare tag */
        handle(s, &m, out);
    }
    if (s->reply.err || out->err || s->ended) return;
    m.tag = IXP_SQ_EOT;
    handle_msg(s, &m, out);
}

static int sess_input(ixd_sess *s, const uint8_t *p, size_t n, ixb_wbuf *out) {
    if (s->discarding) return 0; /* strict_group_ends */
    int rc = ixp_reader_feed(&s->rd, p, n);
    if (rc != IX_OK) {
        ixd_log(s->srv, s->id, "input refused: %s (%zu bytes waiting)", ix_rc_str(rc),
                ixp_reader_pending(&s->rd));
        return -1;
    }
    if (!login_header_ok(s)) return -1;
    for (;;) {
        if (out_full(s, out)) return IXD_SESS_MORE;
        ixp_bind_group g;
        if (s->logged_in && ixd_sess_fast_groups != IXD_GROUPS_OFF && !s->srv->verbose &&
            ixp_reader_bind_group(&s->rd, &g)) {
            run_group(s, &g, out);
            if (s->reply.err || out->err) {
                ixd_log(s->srv, s->id, "out of memory building a reply");
                return -1;
            }
            if (s->ended) return -1;
            continue;
        }
        ixp_msg m;
        rc = ixp_reader_next(&s->rd, &m);
        if (rc == IX_NEED_MORE) return 0;
        if (rc != IX_OK) {
            ixd_log(s->srv, s->id, "malformed input at stream offset %llu: %s%s",
                    (unsigned long long)ixp_reader_offset(&s->rd),
                    ixp_reader_why(&s->rd) ? ixp_reader_why(&s->rd) : ix_rc_str(rc),
                    strict_urgent_inline(s) ? " (an interrupt? strict mode reads its urgent "
                                              "byte as data)"
                                            : "");
            return -1;
        }
        if (s->srv->verbose) {
            ixb_wbuf_reset(&s->tmp);
            ixp_print_msg(&s->pr, IXP_FROM_CLIENT, &m, &s->tmp);
            ixd_logl(s->srv, IXD_LOG_DEBUG, s->id, "< %.*s", (int)s->tmp.len,
                     (const char *)s->tmp.data);
        }
        int end;
        if (m.tag == IXP_MSG_LOGIN)
            end = do_login(s, &m, out);
        else if (!s->logged_in)
            end = -1;
        else
            end = handle(s, &m, out);
        if (s->reply.err || out->err) {
            ixd_log(s->srv, s->id, "out of memory building a reply");
            return -1;
        }
        if (s->ended) return -1; /* the client is gone (logged by the listener) */
        if (end) return end;
        if (s->discarding) return 0; /* strict_group_ends: the answer is in out */
    }
}

void ixd_sess_free(ixd_sess *s, const char *reason) {
    if (!s) return;
    sess_close_db(s);
    ixd_log(s->srv, s->id, "session ends: %s%s", reason ? reason : "closed",
            s->rolled ? " (open transaction rolled back)" : "");
    ixp_reader_free(&s->rd);
    ixp_printer_free(&s->pr);
    ixp_reader_free(&s->vrd);
    ixp_printer_free(&s->vpr);
    ixb_wbuf_free(&s->reply);
    ixb_wbuf_free(&s->tmp);
    free(s);
}
