/*
 * ixsql_conn.c: the connections of the shell and the statements that
 * manage them, run by the shell itself (as ESQL/C's library does for an
 * application):
 *
 *   CONNECT TO { 'db[@server]' | '@server' | DEFAULT } [AS 'name']
 *       [USER 'user' USING 'password'] [WITH CONCURRENT TRANSACTION]
 *   DISCONNECT { 'name' | CURRENT | ALL | DEFAULT }
 *   SET CONNECTION { 'name' | DEFAULT } [DORMANT] | SET CONNECTION CURRENT DORMANT
 *
 * and the tracking of DATABASE db [EXCLUSIVE], CREATE DATABASE db and
 * CLOSE DATABASE (sent to the server as any statement) for the prompt and
 * ixsql_sess.database. The connection ixsql opens from its command line is
 * the default connection (as the implicit connection of a DATABASE
 * statement is for an ESQL/C program).
 *
 * A new connection takes its settings (host, port, user, password,
 * locales, TLS, sqlhosts, ...) from the command line's DSN, with:
 *   the database of the string (none for '@server' and DEFAULT);
 *   for '@server' naming another server than the command line's (its
 *     server= key, or the name the first server gave in its login): no host
 *     and port, and server=NAME, so that libixdb looks the server up in
 *     the sqlhosts file ($INFORMIXSQLHOSTS, the DSN's sqlhosts=, or
 *     $INFORMIXDIR/etc/sqlhosts), as dbaccess does;
 *   USER / USING in place of the DSN's user and password.
 * The rules and the errors are described in docs/ixsql.md ("Connections").
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ixsql.h"

/* Informix's connection errors (the texts of IBM's message file). */
enum {
    SQLCODE_TXN_STATE = -1800,   /* Invalid transaction state. */
    SQLCODE_NAME_IN_USE = -1802, /* Connection name is in use. */
    SQLCODE_NO_CONN = -1803,     /* Connection does not exist. */
    SQLCODE_IMPLICIT = -1811,    /* Implicit connection not allowed after an explicit connection. */
    SQLCODE_DORMANT = -1813,     /* Only the current connection can be made dormant. */
};
static const struct {
    int code;
    const char *text;
} conn_errors[] = {
    {SQLCODE_TXN_STATE, "Invalid transaction state."},
    {SQLCODE_NAME_IN_USE, "Connection name is in use."},
    {SQLCODE_NO_CONN, "Connection does not exist."},
    {SQLCODE_IMPLICIT, "Implicit connection not allowed after an explicit connection."},
    {SQLCODE_DORMANT, "Only the current connection can be made dormant."},
};

enum {
    MAX_CONNS = 32, /* connections open at once */
    MAX_PAIRS = 64, /* key=value settings of the command line's DSN */
    NAME_MAX_BYTES = 128,
};

typedef struct slot {
    char *name;     /* the connection name; NULL: the default connection */
    ix_conn *conn;  /* NULL: the slot is free */
    char *database; /* malloc'd, or NULL */
    int concurrent; /* WITH CONCURRENT TRANSACTION */
} slot;

static slot slots[MAX_CONNS];
static int current = -1; /* the current connection's slot, -1: none */

typedef struct pair {
    char *k, *v;
} pair;
static pair base[MAX_PAIRS];
static int nbase;

/* ---- the command line's DSN as key=value pairs ------------------------------------ */

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    c = (char)tolower((unsigned char)c);
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* Adds key=value (value %-decoded when pct); a bad escape is kept as is
 * (ix_connect has refused the command line's DSN then: no CONNECT runs). */
static void add_pair(const char *k, size_t kn, const char *v, size_t vn, int pct) {
    if (nbase == MAX_PAIRS) return;
    char *key = strndup(k, kn), *val = malloc(vn + 1);
    if (!key || !val) {
        free(key);
        free(val);
        return;
    }
    size_t j = 0;
    for (size_t i = 0; i < vn; i++) {
        int h, l;
        if (pct && v[i] == '%' && i + 2 < vn && (h = hexval(v[i + 1])) >= 0 &&
            (l = hexval(v[i + 2])) >= 0) {
            val[j++] = (char)(h << 4 | l);
            i += 2;
        } else {
            val[j++] = v[i];
        }
    }
    val[j] = 0;
    base[nbase].k = key;
    base[nbase++].v = val;
}

/* informix://user:password@host:port/database?key=value&... (as libixdb
 * reads it). */
static void parse_url(const char *s) {
    const char *p = strstr(s, "://") + 3;
    const char *end = p + strcspn(p, "/?"), *at = NULL;
    for (const char *q = p; q < end; q++)
        if (*q == '@') at = q;
    if (at) {
        const char *colon = memchr(p, ':', (size_t)(at - p));
        size_t un = colon ? (size_t)(colon - p) : (size_t)(at - p);
        if (un) add_pair("user", 4, p, un, 1);
        if (colon) add_pair("password", 8, colon + 1, (size_t)(at - colon - 1), 1);
        p = at + 1;
    }
    const char *hend = end, *port = NULL;
    if (*p == '[') {
        const char *rb = memchr(p, ']', (size_t)(end - p));
        if (rb) {
            add_pair("host", 4, p + 1, (size_t)(rb - p - 1), 0);
            if (rb + 1 < end && rb[1] == ':') port = rb + 2;
        }
    } else {
        const char *colon = memchr(p, ':', (size_t)(end - p));
        if (colon) hend = colon, port = colon + 1;
        if (hend > p) add_pair("host", 4, p, (size_t)(hend - p), 1);
    }
    if (port && end > port) add_pair("port", 4, port, (size_t)(end - port), 0);
    p = end;
    if (*p == '/') {
        size_t dn = strcspn(++p, "?");
        if (dn) add_pair("database", 8, p, dn, 1);
        p += dn;
    }
    while (*p == '?' || *p == '&') {
        size_t n = strcspn(++p, "&");
        const char *eq = memchr(p, '=', n);
        if (eq) add_pair(p, (size_t)(eq - p), eq + 1, n - (size_t)(eq - p) - 1, 1);
        p += n;
    }
}

/* key=value key='quoted \' value' ... (as libixdb reads it). */
static void parse_keywords(const char *p) {
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == ';')
            p++;
        if (!*p) return;
        const char *k = p;
        while (*p && *p != '=' && *p != ' ' && *p != '\t')
            p++;
        size_t kn = (size_t)(p - k);
        while (*p == ' ' || *p == '\t')
            p++;
        if (*p != '=') return; /* ix_connect has already refused it */
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        char val[1024];
        size_t vn = 0;
        if (*p == '\'') {
            for (p++; *p && *p != '\''; p++) {
                if (*p == '\\' && p[1]) p++;
                if (vn + 1 < sizeof val) val[vn++] = *p;
            }
            if (*p) p++;
        } else {
            for (; *p && *p != ' ' && *p != '\t' && *p != '\n' && *p != ';'; p++)
                if (vn + 1 < sizeof val) val[vn++] = *p;
        }
        add_pair(k, kn, val, vn, 0);
    }
}

/* The value of key in the command line's DSN (the last one wins), or NULL. */
static const char *base_value(const char *key) {
    const char *v = NULL;
    for (int i = 0; i < nbase; i++)
        if (strcasecmp(base[i].k, key) == 0) v = base[i].v;
    return v;
}

/* Appends " key='value'" to the growing string *s. Returns -1 when out of
 * memory (*s freed). */
static int put_pair(char **s, size_t *len, const char *k, const char *v) {
    size_t need = *len + strlen(k) + 2 * strlen(v) + 5;
    char *b = realloc(*s, need);
    if (!b) {
        free(*s);
        *s = NULL;
        return -1;
    }
    *s = b;
    *len += (size_t)sprintf(b + *len, "%s%s='", *len ? " " : "", k);
    for (const char *c = v; *c; c++) {
        if (*c == '\'' || *c == '\\') b[(*len)++] = '\\';
        b[(*len)++] = *c;
    }
    b[(*len)++] = '\'';
    b[*len] = 0;
    return 0;
}

static int key_is(const char *k, const char *const *set) {
    for (; *set; set++)
        if (strcasecmp(k, *set) == 0) return 1;
    return 0;
}

/* The DSN of a new connection (see the top of the file); malloc'd or NULL. */
static char *build_dsn(const char *database, const char *server, const char *user,
                       const char *password) {
    static const char *const db_keys[] = {"database", "db", NULL};
    static const char *const where_keys[] = {"host", "port", "server", NULL};
    static const char *const who_keys[] = {"user", "password", NULL};
    char *s = calloc(1, 1);
    size_t len = 0;
    for (int i = 0; s && i < nbase; i++) {
        const char *k = base[i].k;
        if (key_is(k, db_keys) || (server && key_is(k, where_keys)) ||
            (user && key_is(k, who_keys)))
            continue;
        put_pair(&s, &len, k, base[i].v);
    }
    if (s && database) put_pair(&s, &len, "database", database);
    if (s && server) put_pair(&s, &len, "server", server);
    if (s && user) put_pair(&s, &len, "user", user);
    if (s && user && password) put_pair(&s, &len, "password", password);
    return s;
}

static void wipe(char *s) {
    if (s) {
        memset(s, 0, strlen(s));
        free(s);
    }
}

/* ---- the session ------------------------------------------------------------------ */

/* ixsql_sess and the prompt follow the current connection. */
static void sync_session(void) {
    free(ixsql_sess.database);
    ixsql_sess.database = NULL;
    ixsql_sess.conn = current >= 0 ? slots[current].conn : NULL;
    if (current >= 0 && slots[current].database)
        ixsql_sess.database = strdup(slots[current].database);
    ixsql_tty_prompt(ixsql_sess.database);
}

void ixsql_conn_init(const char *dsn) {
    if (dsn && strstr(dsn, "://"))
        parse_url(dsn);
    else if (dsn)
        parse_keywords(dsn);
    if (ixsql_sess.conn) {
        slots[0].conn = ixsql_sess.conn;
        slots[0].database = ixsql_sess.database ? strdup(ixsql_sess.database) : NULL;
        current = 0;
    }
}

static void close_slot(int i) {
    ix_close(slots[i].conn);
    free(slots[i].name);
    free(slots[i].database);
    memset(&slots[i], 0, sizeof slots[i]);
}

void ixsql_conn_close_all(void) {
    for (int i = 0; i < MAX_CONNS; i++)
        if (slots[i].conn) close_slot(i);
    for (int i = 0; i < nbase; i++) {
        free(base[i].k);
        wipe(base[i].v); /* the password is one of them */
    }
    nbase = 0;
    current = -1;
    ixsql_sess.conn = NULL;
}

/* The slot of the connection named name (NULL: the default connection), or -1. */
static int find_slot(const char *name) {
    for (int i = 0; i < MAX_CONNS; i++) {
        if (!slots[i].conn) continue;
        if (name ? slots[i].name && strcmp(slots[i].name, name) == 0 : !slots[i].name) return i;
    }
    return -1;
}

static int open_count(void) {
    int n = 0;
    for (int i = 0; i < MAX_CONNS; i++)
        n += slots[i].conn != NULL;
    return n;
}

/* Whether leaving the current connection would leave a transaction behind
 * that it may not keep (not opened WITH CONCURRENT TRANSACTION). A
 * transaction counts as open when statements do not commit by themselves
 * (BEGIN WORK, or an ANSI-mode database). */
static int txn_blocks_switch(void) {
    return current >= 0 && !slots[current].concurrent && ix_autocommit(slots[current].conn) == 0;
}

static int conn_error(int code) {
    const char *text = "";
    for (size_t i = 0; i < sizeof conn_errors / sizeof conn_errors[0]; i++)
        if (conn_errors[i].code == code) text = conn_errors[i].text;
    fflush(stdout);
    fprintf(stderr, "\n%5d: %s\n", -code, text);
    return IXSQL_FAILED;
}

/* ---- CONNECT ------------------------------------------------------------------------ */

typedef struct connect_stmt {
    char *env;  /* 'db@server' as written; NULL for DEFAULT */
    char *name; /* AS 'name', or NULL */
    char *user, *password;
    size_t pw_from, pw_to; /* the bytes of USING's string (pw_to 0: none) */
    int concurrent;
} connect_stmt;

static void free_connect(connect_stmt *c) {
    free(c->env);
    free(c->name);
    free(c->user);
    wipe(c->password);
}

/* Parses CONNECT TO ... (lx just after CONNECT); NULL, or where the syntax
 * error is. */
static const char *parse_connect(ixsql_lexer *lx, connect_stmt *c) {
    memset(c, 0, sizeof *c);
    if (!ixsql_lex_keyword(lx, "TO")) return lx->p;
    if (!ixsql_lex_keyword(lx, "DEFAULT")) {
        if (!(c->env = ixsql_lex_string(lx))) return lx->p;
        if (ixsql_lex_keyword(lx, "AS") && !(c->name = ixsql_lex_string(lx))) return lx->p;
    }
    if (ixsql_lex_keyword(lx, "USER")) {
        if (!(c->user = ixsql_lex_string(lx)) || !ixsql_lex_keyword(lx, "USING")) return lx->p;
        c->pw_from = (size_t)(ixsql_skip_trivia(lx->p, lx->end) - lx->start);
        if (!(c->password = ixsql_lex_string(lx))) return lx->p;
        c->pw_to = (size_t)(lx->p - lx->start);
    }
    if (ixsql_lex_keyword(lx, "WITH")) {
        if (!ixsql_lex_keyword(lx, "CONCURRENT") || !ixsql_lex_keyword(lx, "TRANSACTION"))
            return lx->p;
        c->concurrent = 1;
    }
    lx->p = ixsql_skip_trivia(lx->p, lx->end);
    return lx->p == lx->end ? NULL : lx->p;
}

/* Whether @server names the server of the command line's DSN. */
static int same_server(const char *server) {
    const char *mine = base_value("server");
    if (mine && strcasecmp(mine, server) == 0) return 1;
    int d = find_slot(NULL);
    const char *reported = d >= 0 ? ix_server_name(slots[d].conn) : NULL;
    return reported && strcasecmp(reported, server) == 0;
}

/* Opens a connection to database db (NULL: none) on server (NULL: the
 * command line's) into a free slot; returns the slot or -1 (error printed). */
static int open_slot(const char *db, const char *server, const char *user, const char *password) {
    int i = 0;
    while (i < MAX_CONNS && slots[i].conn)
        i++;
    if (i == MAX_CONNS) {
        fflush(stdout);
        fprintf(stderr, "\nixsql: too many connections (at most %d)\n", MAX_CONNS);
        return -1;
    }
    if (server && same_server(server)) server = NULL;
    char *dsn = build_dsn(db, server, user, password);
    ix_conn *c = NULL;
    int rc = dsn ? ix_connect(&c, dsn) : IX_ENOMEM;
    if (rc == IX_OK && ixsql_opt.client_files) rc = ix_set_client_files(c, ixsql_opt.client_files);
    wipe(dsn);
    if (rc != IX_OK) {
        if (c)
            ixsql_print_error(c, NULL, 0, (ixsql_pos){0, 0});
        else
            fprintf(stderr, "\nixsql: out of memory\n");
        ix_close(c);
        return -1;
    }
    slots[i].conn = c;
    slots[i].database = db ? strdup(db) : NULL;
    return i;
}

int ixsql_conn_reopen(void) {
    if (current < 0 || slots[current].name || !ix_conn_is_dead(slots[current].conn)) return -1;
    char *db = slots[current].database ? strdup(slots[current].database) : NULL;
    int was = current;
    close_slot(was);
    int i = open_slot(db, NULL, NULL, NULL);
    free(db);
    current = i;
    sync_session();
    return i < 0 ? -1 : 0;
}

static int run_connect(ixsql_lexer *lx, ixsql_pos at) {
    connect_stmt c;
    const char *bad = parse_connect(lx, &c);
    if (bad) {
        free_connect(&c);
        return ixsql_syntax_error(lx->start, (size_t)(bad - lx->start), at);
    }
    const char *name = c.name ? c.name : c.env; /* DEFAULT: NULL, the default connection */
    int rc = IXSQL_FAILED, i = -1;
    if (find_slot(name) >= 0) {
        rc = conn_error(SQLCODE_NAME_IN_USE);
    } else if (txn_blocks_switch()) {
        rc = conn_error(SQLCODE_TXN_STATE);
    } else {
        char *at_sign = c.env ? strchr(c.env, '@') : NULL;
        char *db =
            c.env ? strndup(c.env, at_sign ? (size_t)(at_sign - c.env) : strlen(c.env)) : NULL;
        i = open_slot(db && *db ? db : NULL, at_sign && at_sign[1] ? at_sign + 1 : NULL, c.user,
                      c.password);
        free(db);
    }
    if (i >= 0) {
        slots[i].name = name ? strdup(name) : NULL;
        slots[i].concurrent = c.concurrent;
        current = i;
        sync_session();
        ixsql_message("Connected.");
        rc = IXSQL_OK;
    }
    free_connect(&c);
    return rc;
}

/* ---- DISCONNECT, SET CONNECTION ------------------------------------------------------ */

/* 'name' | DEFAULT | CURRENT into *which (0 name, 1 DEFAULT, 2 CURRENT) and
 * *name; 0 when there is none of them. */
enum { WHICH_NAME, WHICH_DEFAULT, WHICH_CURRENT };
static int conn_ref(ixsql_lexer *lx, int *which, char **name) {
    *name = NULL;
    if (ixsql_lex_keyword(lx, "DEFAULT")) return *which = WHICH_DEFAULT, 1;
    if (ixsql_lex_keyword(lx, "CURRENT")) return *which = WHICH_CURRENT, 1;
    *which = WHICH_NAME;
    return (*name = ixsql_lex_string(lx)) != NULL;
}

static int at_end(ixsql_lexer *lx) {
    lx->p = ixsql_skip_trivia(lx->p, lx->end);
    return lx->p == lx->end;
}

static int run_disconnect(ixsql_lexer *lx, ixsql_pos at) {
    int which, all = ixsql_lex_keyword(lx, "ALL"), i = -1;
    char *name = NULL;
    if (!all && !conn_ref(lx, &which, &name))
        return ixsql_syntax_error(lx->start, (size_t)(lx->p - lx->start), at);
    if (!at_end(lx)) {
        free(name);
        return ixsql_syntax_error(lx->start, (size_t)(lx->p - lx->start), at);
    }
    if (all) {
        int n = open_count();
        for (int k = 0; k < MAX_CONNS; k++)
            if (slots[k].conn) close_slot(k);
        current = -1;
        sync_session();
        if (n == 0) return conn_error(SQLCODE_NO_CONN);
        ixsql_message("Disconnected.");
        return IXSQL_OK;
    }
    i = which == WHICH_CURRENT ? current : find_slot(which == WHICH_DEFAULT ? NULL : name);
    free(name);
    if (i < 0) return conn_error(SQLCODE_NO_CONN);
    close_slot(i); /* an open transaction is rolled back by the server */
    if (i == current) current = -1;
    sync_session();
    ixsql_message("Disconnected.");
    return IXSQL_OK;
}

static int run_set_connection(ixsql_lexer *lx, ixsql_pos at) {
    int which;
    char *name;
    if (!conn_ref(lx, &which, &name))
        return ixsql_syntax_error(lx->start, (size_t)(lx->p - lx->start), at);
    int dormant = ixsql_lex_keyword(lx, "DORMANT");
    if (!at_end(lx) || (which == WHICH_CURRENT && !dormant)) {
        free(name);
        return ixsql_syntax_error(lx->start, (size_t)(lx->p - lx->start), at);
    }
    int i = which == WHICH_CURRENT ? current : find_slot(which == WHICH_DEFAULT ? NULL : name);
    free(name);
    if (i < 0) return conn_error(SQLCODE_NO_CONN);
    if (dormant && i != current) return conn_error(SQLCODE_DORMANT);
    if (i != current && txn_blocks_switch()) return conn_error(SQLCODE_TXN_STATE);
    if (dormant && txn_blocks_switch()) return conn_error(SQLCODE_TXN_STATE);
    current = dormant ? -1 : i;
    sync_session();
    return IXSQL_OK;
}

/* ---- DATABASE, CREATE DATABASE, CLOSE DATABASE ------------------------------------ */

/* The database name at lx (a "quoted" or 'quoted' name as written, else
 * lower-cased; without its @server), malloc'd, or NULL. */
static char *database_name(ixsql_lexer *lx) {
    lx->p = ixsql_skip_trivia(lx->p, lx->end);
    char *s = ixsql_lex_string(lx);
    if (!s) {
        const char *b = lx->p;
        while (lx->p < lx->end && (isalnum((unsigned char)*lx->p) || *lx->p == '_' ||
                                   *lx->p == '$' || (unsigned char)*lx->p >= 0x80))
            lx->p++;
        if (lx->p == b || !(s = strndup(b, (size_t)(lx->p - b)))) return NULL;
        for (char *c = s; *c; c++)
            *c = (char)tolower((unsigned char)*c);
    }
    s[strcspn(s, "@")] = 0;
    if (!*s) {
        free(s);
        return NULL;
    }
    return s;
}

/* What a statement does to the current database: 1 selects *db (DATABASE,
 * CREATE DATABASE), 2 closes it, 0 neither. */
static int database_effect(const char *sql, size_t len, char **db) {
    ixsql_lexer lx = {sql, sql + len, sql};
    *db = NULL;
    if (ixsql_lex_keyword(&lx, "DATABASE")) return (*db = database_name(&lx)) != NULL;
    if (ixsql_lex_keyword(&lx, "CREATE") && ixsql_lex_keyword(&lx, "DATABASE"))
        return (*db = database_name(&lx)) != NULL;
    lx.p = sql;
    if (ixsql_lex_keyword(&lx, "CLOSE") && ixsql_lex_keyword(&lx, "DATABASE") && at_end(&lx))
        return 2;
    return 0;
}

/* A statement for the server on the current connection; DATABASE without
 * one opens the default connection (as an ESQL/C program's first DATABASE
 * does), unless other connections are open (-1811). */
static int run_on_server(const char *sql, size_t len, ixsql_pos at) {
    char *db = NULL;
    int effect = database_effect(sql, len, &db);
    if (current < 0) {
        int i = -1;
        if (effect != 1)
            conn_error(SQLCODE_NO_CONN);
        else if (open_count() > 0)
            conn_error(SQLCODE_IMPLICIT);
        else
            i = open_slot(NULL, NULL, NULL, NULL);
        if (i < 0) {
            free(db);
            return IXSQL_FAILED;
        }
        current = i;
        sync_session();
    }
    int rc = ixsql_run(ixsql_sess.conn, sql, len, at);
    if (rc == IXSQL_OK && effect) {
        free(slots[current].database);
        slots[current].database = db; /* NULL for CLOSE DATABASE */
        db = NULL;
        sync_session();
    }
    free(db);
    return rc;
}

int ixsql_conn_run(const char *sql, size_t len, ixsql_pos at) {
    ixsql_lexer lx = {sql, sql + len, sql};
    if (ixsql_lex_keyword(&lx, "CONNECT")) return run_connect(&lx, at);
    if (ixsql_lex_keyword(&lx, "DISCONNECT")) return run_disconnect(&lx, at);
    if (ixsql_lex_keyword(&lx, "SET")) {
        if (ixsql_lex_keyword(&lx, "CONNECTION")) return run_set_connection(&lx, at);
    }
    return run_on_server(sql, len, at);
}

/* ---- -e and the history: no password ------------------------------------------------ */

static const char hidden[] = "'********'";

char *ixsql_conn_shown(const char *sql, size_t len, size_t *n) {
    ixsql_lexer lx = {sql, sql + len, sql};
    connect_stmt c = {0};
    if (ixsql_lex_keyword(&lx, "CONNECT")) parse_connect(&lx, &c);
    size_t from = c.pw_to ? c.pw_from : len, to = c.pw_to ? c.pw_to : len;
    const char *mid = c.pw_to ? hidden : "";
    free_connect(&c);
    *n = from + strlen(mid) + (len - to);
    char *s = malloc(*n + 1);
    if (!s) return NULL;
    memcpy(s, sql, from);
    memcpy(s + from, mid, strlen(mid));
    memcpy(s + from + strlen(mid), sql + to, len - to);
    s[*n] = 0;
    return s;
}

int ixsql_conn_secret(const char *line) {
    for (const char *p = line; *p; p++) {
        if (strncasecmp(p, "using", 5) != 0) continue;
        if (p > line && (isalnum((unsigned char)p[-1]) || p[-1] == '_')) continue;
        const char *q = p + 5;
        while (*q == ' ' || *q == '\t')
            q++;
        if (*q == '\'' || *q == '"' || *q == 0 || *q == '\n') return 1;
    }
    return 0;
}

/* ---- \c, \l, \d ---------------------------------------------------------------------- */

/* Runs "prefix arg" as a statement (the shell's own or the server's). */
static int run_built(const char *prefix, const char *arg, size_t an, int info) {
    size_t pn = strlen(prefix);
    char *sql = malloc(pn + an + 1);
    if (!sql) return IXSQL_FATAL;
    memcpy(sql, prefix, pn);
    memcpy(sql + pn, arg, an);
    sql[pn + an] = 0;
    ixsql_pos at = {1, 1};
    int rc;
    if (!info)
        rc = ixsql_conn_run(sql, pn + an, at);
    else if (!ixsql_sess.conn)
        rc = conn_error(SQLCODE_NO_CONN);
    else
        rc = ixsql_info(ixsql_sess.conn, sql, pn + an, at);
    free(sql);
    return rc;
}

static int is_describe(const char *cmd, size_t w) {
    return strncmp(cmd, "\\d", 2) == 0 && (w == 2 || (w == 3 && (cmd[2] == 't' || cmd[2] == '+')));
}

int ixsql_conn_backslash(const char *line, size_t len, int *rc) {
    size_t w = 0;
    while (w < len && !isspace((unsigned char)line[w]))
        w++;
    const char *arg = line + w, *end = line + len;
    while (arg < end && isspace((unsigned char)*arg))
        arg++;
    while (end > arg && isspace((unsigned char)end[-1]))
        end--;
    size_t an = (size_t)(end - arg);
    if (w == 2 && strncmp(line, "\\c", 2) == 0 && an) {
        *rc = run_built("DATABASE ", arg, an, 0);
    } else if (w == 2 && strncmp(line, "\\l", 2) == 0 && !an) {
        static const char q[] =
            "SELECT name, owner, is_logging, is_ansi FROM sysmaster:sysdatabases"
            " ORDER BY name";
        *rc = ixsql_sess.conn ? ixsql_run(ixsql_sess.conn, q, sizeof q - 1, (ixsql_pos){1, 1})
                              : conn_error(SQLCODE_NO_CONN);
    } else if (is_describe(line, w)) { /* \d, psql's \dt and \d+ (with the indexes) */
        *rc = an ? run_built("INFO COLUMNS FOR ", arg, an, 1) : run_built("INFO TABLES", "", 0, 1);
        if (an && *rc == IXSQL_OK && line[2] == '+')
            *rc = run_built("INFO INDEXES FOR ", arg, an, 1);
    } else {
        return 0;
    }
    return 1;
}
