/*
 * ixo_conn.c: environment and connection handles. SQLConnect takes a DSN
 * (its keys from odbc.ini), SQLDriverConnect a connection string; the
 * keywords (ixo_keys.c) become a libixdb DSN. Connection attributes and
 * SQLEndTran.
 */
#define _DEFAULT_SOURCE /* getservbyname_r */
#include <arpa/inet.h>
#include <ctype.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ixo_int.h"
#include "ixo_keys.h"

#define IXO_NETTYPE_LEN 8 /* onsoctcp: a product prefix of 2, then the protocol */

/* Informix's "Database not selected yet", which ix_set_autocommit(0)
 * answers without a database */
#define IXO_SQLCODE_NO_DATABASE (-349)

/* Autocommit on or off. Off needs a transaction, which a session without a
 * database or with an unlogged one cannot open: there every statement
 * commits by itself, so autocommit stays on with 01S02 rather than failing
 * the connection (pyodbc turns it off at every connect by default). */
static SQLRETURN set_autocommit(ixo_dbc *d, int on) {
    if (ix_set_autocommit(d->conn, on) == IX_OK) {
        d->autocommit = on;
        return SQL_SUCCESS;
    }
    int code = ix_sqlcode(d->conn);
    if (!on && ix_errcode(d->conn) == IX_ESQL &&
        (code == IX_SQLCODE_TXN_UNAVAILABLE || code == IXO_SQLCODE_NO_DATABASE)) {
        d->autocommit = 1;
        return ixo_warn(&d->h, "01S02", "Option value changed: %s Autocommit stays on.",
                        ix_errmsg(d->conn));
    }
    return ixo_err_conn(&d->h, d->conn);
}

/* 1 when an sqlhosts nettype names TLS: a product prefix (on, ol, dr, ...)
 * and "socssl", as libixdb reads sqlhosts (onsocssl, olsocssl, drsocssl) */
static int protocol_is_tls(const char *p) {
    return strlen(p) == IXO_NETTYPE_LEN && strcasecmp(p + 2, "socssl") == 0;
}

/* A failed ix_connect as a record. An answer of the server (a refused
 * login: 28000 -951, ...) keeps its state and SQLCODE; a server not
 * reached (libixdb records no SQLCODE then) is 08001, ODBC's "client unable
 * to establish connection" (also for a TLS failure, libixdb's 08000), with
 * the SQLCODE IBM's clients give as the native error and libixdb's reason
 * as the text. */
static SQLRETURN connect_failed(ixo_dbc *d, ix_conn *c) {
    if (!c) return ixo_err(&d->h, "HY001", 0, "Memory allocation error");
    int code = ix_unreached_sqlcode(c);
    if (code == 0) return ixo_err_conn(&d->h, c);
    const char *why = ix_errmsg(c);
    if (!why || !*why) why = ix_rc_str(ix_errcode(c));
    return ixo_err(&d->h, "08001", code, "%s", why);
}

static SQLRETURN dbc_connect(ixo_dbc *d, ixo_keys *k) {
    char dsn[2048] = "";
    if (d->conn) return ixo_err(&d->h, "08002", 0, "Connection name in use");
    if (k->dsn[0]) ixo_keys_from_ini(k);
    if (!k->host[0] && !k->service[0] && !k->server[0])
        return ixo_err(&d->h, "IM002", 0, "Data source name not found and no Host given");
    if (k->service[0] && strspn(k->service, "0123456789") != strlen(k->service)) {
        /* a service name, as IBM's sqlhosts and DSNs often give it */
        struct servent se, *res = NULL;
        char buf[1024];
        if (getservbyname_r(k->service, "tcp", &se, buf, sizeof buf, &res) != 0 || !res)
            return ixo_err(&d->h, "08001", 0, "Service %s is not in the services database",
                           k->service);
        snprintf(k->service, IXO_KEY_MAX, "%d", ntohs((uint16_t)res->s_port));
    }
    ixo_dsn_add(dsn, sizeof dsn, "host", k->host);
    ixo_dsn_add(dsn, sizeof dsn, "port", k->service);
    ixo_dsn_add(dsn, sizeof dsn, "server", k->server);
    ixo_dsn_add(dsn, sizeof dsn, "database", d->database[0] ? d->database : k->database);
    ixo_dsn_add(dsn, sizeof dsn, "user", k->uid);
    ixo_dsn_add(dsn, sizeof dsn, "password", k->pwd);
    ixo_dsn_add(dsn, sizeof dsn, "client_locale", k->client_locale);
    ixo_dsn_add(dsn, sizeof dsn, "db_locale", k->db_locale);
    if (protocol_is_tls(k->protocol) && !k->tls[0]) snprintf(k->tls, IXO_KEY_MAX, "1");
    ixo_dsn_add(dsn, sizeof dsn, "tls", k->tls);
    ixo_dsn_add(dsn, sizeof dsn, "tls_verify", k->tls_verify);
    ixo_dsn_add(dsn, sizeof dsn, "tls_ca", k->tls_ca);
    ixo_dsn_add(dsn, sizeof dsn, "sqlhosts", k->sqlhosts);
    if (d->login_timeout) {
        char t[16];
        snprintf(t, sizeof t, "%u", (unsigned)d->login_timeout);
        ixo_dsn_add(dsn, sizeof dsn, "connect_timeout", t);
    }
    ix_conn *c = NULL;
    int rc = ix_connect(&c, dsn);
    if (rc != IX_OK) {
        SQLRETURN r = connect_failed(d, c);
        if (rc == IX_ETIMEOUT && d->login_timeout) ixo_diag_timeout(&d->h); /* ODBC's HYT00 */
        ix_close(c);
        return r;
    }
    d->conn = c;
    snprintf(d->dsn, sizeof d->dsn, "%s", k->dsn);
    SQLRETURN r = d->autocommit ? SQL_SUCCESS : set_autocommit(d, 0);
    if (SQL_SUCCEEDED(r) && d->txn_isolation) {
        int lvl = d->txn_isolation == SQL_TXN_READ_UNCOMMITTED ? IX_ISO_DIRTY_READ
                  : d->txn_isolation == SQL_TXN_READ_COMMITTED ? IX_ISO_COMMITTED_READ
                                                               : IX_ISO_REPEATABLE_READ;
        if (ix_set_isolation(c, lvl) != IX_OK) r = ixo_err_conn(&d->h, c);
    }
    if (r == SQL_ERROR) {
        ix_close(c);
        d->conn = NULL;
    }
    return r;
}

/* ---- handles ---- */

static SQLRETURN alloc_dbc(ixo_env *env, SQLHANDLE *out) {
    ixo_dbc *d = calloc(1, sizeof *d);
    if (!d) return ixo_err(&env->h, "HY001", 0, "Memory allocation error");
    ixo_head_init(&d->h, SQL_HANDLE_DBC);
    d->env = env;
    d->autocommit = 1;
    *out = d;
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLAllocHandle(SQLSMALLINT HandleType, SQLHANDLE InputHandle,
                                 SQLHANDLE *OutputHandle) {
    if (!OutputHandle) return SQL_ERROR;
    *OutputHandle = SQL_NULL_HANDLE;
    if (HandleType == SQL_HANDLE_ENV) {
        ixo_env *e = calloc(1, sizeof *e);
        if (!e) return SQL_ERROR;
        ixo_head_init(&e->h, SQL_HANDLE_ENV);
        e->odbc_version = SQL_OV_ODBC3;
        *OutputHandle = e;
        return SQL_SUCCESS;
    }
    if (HandleType == SQL_HANDLE_DBC) {
        ixo_head *h = ixo_enter(InputHandle, SQL_HANDLE_ENV);
        if (!h) return SQL_INVALID_HANDLE;
        return ixo_leave(h, alloc_dbc((ixo_env *)h, OutputHandle));
    }
    if (HandleType == SQL_HANDLE_STMT) {
        ixo_head *h = ixo_enter(InputHandle, SQL_HANDLE_DBC);
        if (!h) return SQL_INVALID_HANDLE;
        ixo_dbc *d = (ixo_dbc *)h;
        if (!d->conn) return ixo_leave(h, ixo_err(h, "08003", 0, "Connection not open"));
        ixo_stmt *s = ixo_stmt_new(d);
        if (!s) return ixo_leave(h, ixo_err(h, "HY001", 0, "Memory allocation error"));
        *OutputHandle = s;
        return ixo_leave(h, SQL_SUCCESS);
    }
    if (HandleType == SQL_HANDLE_DESC) {
        ixo_head *h = ixo_enter(InputHandle, SQL_HANDLE_DBC);
        if (!h) return SQL_INVALID_HANDLE;
        ixo_dbc *d = (ixo_dbc *)h;
        if (!d->conn) return ixo_leave(h, ixo_err(h, "08003", 0, "Connection not open"));
        return ixo_leave(h, ixo_desc_alloc(d, OutputHandle));
    }
    return SQL_ERROR;
}

static void dbc_drop_stmts(ixo_dbc *d) {
    while (d->stmts)
        ixo_stmt_free(d->stmts);
}

SQLRETURN SQL_API SQLFreeHandle(SQLSMALLINT HandleType, SQLHANDLE Handle) {
    ixo_head *h = ixo_enter(Handle, HandleType);
    if (!h) return SQL_INVALID_HANDLE;
    switch (HandleType) {
    case SQL_HANDLE_ENV:
        pthread_mutex_unlock(h->lk);
        ixo_head_free(h);
        free(h);
        return SQL_SUCCESS;
    case SQL_HANDLE_DBC: {
        ixo_dbc *d = (ixo_dbc *)h;
        if (d->conn) return ixo_leave(h, ixo_err(h, "HY010", 0, "Function sequence error"));
        dbc_drop_stmts(d);
        while (d->descs) /* kept over SQLDisconnect: the driver manager may free them after */
            ixo_desc_free(d->descs);
        ixo_timer_stop(d);
        pthread_mutex_unlock(h->lk);
        ixo_head_free(h);
        free(d);
        return SQL_SUCCESS;
    }
    case SQL_HANDLE_STMT: {
        pthread_mutex_t *lk = h->lk;
        atomic_store(h->busy, NULL);
        ixo_stmt_free((ixo_stmt *)h);
        pthread_mutex_unlock(lk);
        return SQL_SUCCESS;
    }
    case SQL_HANDLE_DESC: {
        pthread_mutex_t *lk = h->lk;
        SQLRETURN rc = ixo_desc_free((ixo_desc *)h);
        if (rc == SQL_SUCCESS) {
            pthread_mutex_unlock(lk);
            return rc;
        }
        return ixo_leave(h, rc);
    }
    default: return ixo_leave(h, SQL_ERROR);
    }
}

/* ---- environment attributes ---- */

SQLRETURN SQL_API SQLSetEnvAttr(SQLHENV EnvironmentHandle, SQLINTEGER Attribute, SQLPOINTER Value,
                                SQLINTEGER StringLength) {
    (void)StringLength;
    ixo_head *h = ixo_enter(EnvironmentHandle, SQL_HANDLE_ENV);
    if (!h) return SQL_INVALID_HANDLE;
    ixo_env *e = (ixo_env *)h;
    switch (Attribute) {
    case SQL_ATTR_ODBC_VERSION: e->odbc_version = (SQLINTEGER)(SQLLEN)Value; break;
    case SQL_ATTR_OUTPUT_NTS:
        if ((SQLLEN)Value != SQL_TRUE)
            return ixo_leave(h, ixo_err(h, "HYC00", 0, "Only NUL-terminated output"));
        break;
    case SQL_ATTR_CONNECTION_POOLING:
    case SQL_ATTR_CP_MATCH: break; /* the driver manager's business */
    default: return ixo_leave(h, ixo_err(h, "HY092", 0, "Invalid attribute %d", (int)Attribute));
    }
    return ixo_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLGetEnvAttr(SQLHENV EnvironmentHandle, SQLINTEGER Attribute, SQLPOINTER Value,
                                SQLINTEGER BufferLength, SQLINTEGER *StringLength) {
    (void)BufferLength;
    (void)StringLength;
    ixo_head *h = ixo_enter(EnvironmentHandle, SQL_HANDLE_ENV);
    if (!h) return SQL_INVALID_HANDLE;
    SQLINTEGER v;
    switch (Attribute) {
    case SQL_ATTR_ODBC_VERSION: v = ((ixo_env *)h)->odbc_version; break;
    case SQL_ATTR_OUTPUT_NTS: v = SQL_TRUE; break;
    case SQL_ATTR_CONNECTION_POOLING: v = SQL_CP_OFF; break;
    case SQL_ATTR_CP_MATCH: v = SQL_CP_STRICT_MATCH; break;
    default: return ixo_leave(h, ixo_err(h, "HY092", 0, "Invalid attribute %d", (int)Attribute));
    }
    if (Value) *(SQLINTEGER *)Value = v;
    return ixo_leave(h, SQL_SUCCESS);
}

/* ---- connecting ---- */

SQLRETURN SQL_API SQLConnect(SQLHDBC ConnectionHandle, SQLCHAR *ServerName, SQLSMALLINT NameLength1,
                             SQLCHAR *UserName, SQLSMALLINT NameLength2, SQLCHAR *Authentication,
                             SQLSMALLINT NameLength3) {
    ixo_head *h = ixo_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (!h) return SQL_INVALID_HANDLE;
    ixo_keys *k = calloc(1, sizeof *k);
    if (!k) return ixo_leave(h, ixo_err(h, "HY001", 0, "Memory allocation error"));
#define KEY_IN(f, s, n)                                                                            \
    if (s)                                                                                         \
    snprintf(k->f, IXO_KEY_MAX, "%.*s",                                                            \
             (int)((n) == SQL_NTS || (n) < 0 ? (int)strlen((const char *)(s)) : (n)),              \
             (const char *)(s))
    KEY_IN(dsn, ServerName, NameLength1);
    KEY_IN(uid, UserName, NameLength2);
    KEY_IN(pwd, Authentication, NameLength3);
#undef KEY_IN
    SQLRETURN rc = dbc_connect((ixo_dbc *)h, k);
    free(k);
    return ixo_leave(h, rc);
}

SQLRETURN SQL_API SQLDriverConnect(SQLHDBC hdbc, SQLHWND hwnd, SQLCHAR *szConnStrIn,
                                   SQLSMALLINT cbConnStrIn, SQLCHAR *szConnStrOut,
                                   SQLSMALLINT cbConnStrOutMax, SQLSMALLINT *pcbConnStrOut,
                                   SQLUSMALLINT fDriverCompletion) {
    (void)hwnd;
    (void)fDriverCompletion; /* no dialog: what is missing stays missing */
    ixo_head *h = ixo_enter(hdbc, SQL_HANDLE_DBC);
    if (!h) return SQL_INVALID_HANDLE;
    if (!szConnStrIn) return ixo_leave(h, ixo_err(h, "HY009", 0, "Invalid use of null pointer"));
    size_t n = cbConnStrIn == SQL_NTS || cbConnStrIn < 0 ? strlen((const char *)szConnStrIn)
                                                         : (size_t)cbConnStrIn;
    ixo_keys *k = calloc(1, sizeof *k);
    if (!k) return ixo_leave(h, ixo_err(h, "HY001", 0, "Memory allocation error"));
    SQLRETURN rc;
    if (!ixo_keys_parse(k, (const char *)szConnStrIn, n))
        rc = ixo_err(h, "HY000", 0, "Malformed connection string");
    else
        rc = dbc_connect((ixo_dbc *)h, k);
    free(k);
    if (SQL_SUCCEEDED(rc)) {
        char *in = malloc(n + 1);
        if (in) {
            memcpy(in, szConnStrIn, n);
            in[n] = 0;
            if (ixo_str_out(in, szConnStrOut, cbConnStrOutMax, pcbConnStrOut, NULL) && szConnStrOut)
                rc = ixo_warn(h, "01004", "String data, right truncated");
            free(in);
        }
    }
    return ixo_leave(h, rc);
}

SQLRETURN SQL_API SQLDisconnect(SQLHDBC ConnectionHandle) {
    ixo_head *h = ixo_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (!h) return SQL_INVALID_HANDLE;
    ixo_dbc *d = (ixo_dbc *)h;
    if (!d->conn) return ixo_leave(h, ixo_err(h, "08003", 0, "Connection not open"));
    dbc_drop_stmts(d);
    ixo_timer_stop(d);
    ix_close(d->conn);
    d->conn = NULL;
    return ixo_leave(h, SQL_SUCCESS);
}

/* ---- transactions ---- */

static SQLRETURN end_tran(ixo_dbc *d, SQLSMALLINT op) {
    if (!d->conn) return ixo_err(&d->h, "08003", 0, "Connection not open");
    if (ix_autocommit(d->conn) == 1) return SQL_SUCCESS; /* nothing open */
    int rc = op == SQL_COMMIT ? ix_commit(d->conn) : ix_rollback(d->conn);
    if (rc != IX_OK) return ixo_err_conn(&d->h, d->conn);
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLEndTran(SQLSMALLINT HandleType, SQLHANDLE Handle, SQLSMALLINT CompletionType) {
    if (HandleType == SQL_HANDLE_ENV)
        return ixo_enter(Handle, HandleType) ? ixo_leave(Handle, SQL_SUCCESS) : SQL_INVALID_HANDLE;
    ixo_head *h = ixo_enter(Handle, SQL_HANDLE_DBC);
    if (!h || HandleType != SQL_HANDLE_DBC) return h ? ixo_leave(h, SQL_ERROR) : SQL_INVALID_HANDLE;
    if (CompletionType != SQL_COMMIT && CompletionType != SQL_ROLLBACK)
        return ixo_leave(h, ixo_err(h, "HY012", 0, "Invalid transaction operation code"));
    return ixo_leave(h, end_tran((ixo_dbc *)h, CompletionType));
}

/* ---- connection attributes ---- */

static SQLRETURN set_catalog(ixo_dbc *d, const char *name) {
    if (!d->conn) {
        snprintf(d->database, sizeof d->database, "%s", name);
        return SQL_SUCCESS;
    }
    char sql[IXO_NAME_MAX + 16];
    for (const char *p = name; *p; p++)
        if (!isalnum((unsigned char)*p) && *p != '_' && *p != '@')
            return ixo_err(&d->h, "HY024", 0, "Invalid database name %s", name);
    snprintf(sql, sizeof sql, "DATABASE %s", name);
    if (ix_exec(d->conn, sql) != IX_OK) return ixo_err_conn(&d->h, d->conn);
    d->autocommit = 1; /* a database change turns autocommit back on */
    return SQL_SUCCESS;
}

static SQLRETURN set_attr(ixo_dbc *d, SQLINTEGER attr, SQLPOINTER v, SQLINTEGER len) {
    SQLULEN u = (SQLULEN)v;
    switch (attr) {
    case SQL_ATTR_AUTOCOMMIT:
        if (d->conn) return set_autocommit(d, u == SQL_AUTOCOMMIT_ON);
        d->autocommit = u == SQL_AUTOCOMMIT_ON;
        return SQL_SUCCESS;
    case SQL_ATTR_LOGIN_TIMEOUT: d->login_timeout = (SQLUINTEGER)u; return SQL_SUCCESS;
    case SQL_ATTR_QUERY_TIMEOUT: d->query_timeout = u; return SQL_SUCCESS; /* new statements' */
    case SQL_ATTR_CONNECTION_TIMEOUT:
    case SQL_ATTR_ACCESS_MODE:
    case SQL_ATTR_PACKET_SIZE:
    case SQL_ATTR_QUIET_MODE:
    case SQL_ATTR_METADATA_ID: return SQL_SUCCESS;
    case SQL_ATTR_TXN_ISOLATION:
        if (d->conn) {
            int lvl = u == SQL_TXN_READ_UNCOMMITTED ? IX_ISO_DIRTY_READ
                      : u == SQL_TXN_READ_COMMITTED ? IX_ISO_COMMITTED_READ
                                                    : IX_ISO_REPEATABLE_READ;
            if (ix_set_isolation(d->conn, lvl) != IX_OK) return ixo_err_conn(&d->h, d->conn);
        }
        d->txn_isolation = (SQLUINTEGER)u;
        return SQL_SUCCESS;
    case SQL_ATTR_CURRENT_CATALOG: {
        int oom;
        char *name = ixo_strdup_in(v, len, &oom);
        if (!name) return ixo_err(&d->h, oom ? "HY001" : "HY009", 0, "Invalid catalog");
        SQLRETURN rc = set_catalog(d, name);
        free(name);
        return rc;
    }
    case SQL_ATTR_ASYNC_ENABLE:
        if (u != SQL_ASYNC_ENABLE_OFF)
            return ixo_err(&d->h, "HYC00", 0, "Asynchronous calls are not implemented");
        return SQL_SUCCESS;
    default: return ixo_err(&d->h, "HY092", 0, "Invalid connection attribute %d", (int)attr);
    }
}

SQLRETURN SQL_API SQLSetConnectAttr(SQLHDBC ConnectionHandle, SQLINTEGER Attribute,
                                    SQLPOINTER Value, SQLINTEGER StringLength) {
    ixo_head *h = ixo_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (!h) return SQL_INVALID_HANDLE;
    return ixo_leave(h, set_attr((ixo_dbc *)h, Attribute, Value, StringLength));
}

SQLRETURN SQL_API SQLGetConnectAttr(SQLHDBC ConnectionHandle, SQLINTEGER Attribute,
                                    SQLPOINTER Value, SQLINTEGER BufferLength,
                                    SQLINTEGER *StringLength) {
    ixo_head *h = ixo_enter(ConnectionHandle, SQL_HANDLE_DBC);
    if (!h) return SQL_INVALID_HANDLE;
    ixo_dbc *d = (ixo_dbc *)h;
    SQLUINTEGER v;
    switch (Attribute) {
    case SQL_ATTR_AUTOCOMMIT: v = d->autocommit ? SQL_AUTOCOMMIT_ON : SQL_AUTOCOMMIT_OFF; break;
    case SQL_ATTR_LOGIN_TIMEOUT: v = d->login_timeout; break;
    case SQL_ATTR_QUERY_TIMEOUT: /* an SQLULEN, as the statement attribute */
        if (Value) *(SQLULEN *)Value = d->query_timeout;
        if (StringLength) *StringLength = sizeof(SQLULEN);
        return ixo_leave(h, SQL_SUCCESS);
    case SQL_ATTR_CONNECTION_TIMEOUT: v = 0; break;
    case SQL_ATTR_ACCESS_MODE: v = SQL_MODE_READ_WRITE; break;
    case SQL_ATTR_ASYNC_ENABLE: v = SQL_ASYNC_ENABLE_OFF; break;
    case SQL_ATTR_TXN_ISOLATION:
        v = d->txn_isolation ? d->txn_isolation : SQL_TXN_READ_COMMITTED;
        break;
    case SQL_ATTR_CONNECTION_DEAD:
        v = !d->conn || ix_conn_is_dead(d->conn) ? SQL_CD_TRUE : SQL_CD_FALSE;
        break;
    case SQL_ATTR_CURRENT_CATALOG: {
        const char *db = d->conn ? ix_conn_database(d->conn) : d->database;
        SQLRETURN rc = ixo_str_out(db, Value, BufferLength, NULL, StringLength) && Value
                           ? ixo_warn(h, "01004", "String data, right truncated")
                           : SQL_SUCCESS;
        return ixo_leave(h, rc);
    }
    default:
        return ixo_leave(h,
                         ixo_err(h, "HY092", 0, "Invalid connection attribute %d", (int)Attribute));
    }
    if (Value) *(SQLUINTEGER *)Value = v;
    if (StringLength) *StringLength = sizeof v;
    return ixo_leave(h, SQL_SUCCESS);
}

SQLRETURN SQL_API SQLNativeSql(SQLHDBC hdbc, SQLCHAR *szSqlStrIn, SQLINTEGER cbSqlStrIn,
                               SQLCHAR *szSqlStr, SQLINTEGER cbSqlStrMax, SQLINTEGER *pcbSqlStr) {
    ixo_head *h = ixo_enter(hdbc, SQL_HANDLE_DBC);
    if (!h) return SQL_INVALID_HANDLE;
    int oom;
    char *in = ixo_strdup_in(szSqlStrIn, cbSqlStrIn, &oom);
    if (!in) return ixo_leave(h, ixo_err(h, oom ? "HY001" : "HY009", 0, "Invalid SQL text"));
    SQLRETURN rc = ixo_str_out(in, szSqlStr, cbSqlStrMax, NULL, pcbSqlStr) && szSqlStr
                       ? ixo_warn(h, "01004", "String data, right truncated")
                       : SQL_SUCCESS;
    free(in);
    return ixo_leave(h, rc);
}
