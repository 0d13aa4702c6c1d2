/*
 * ixsql_complete.c: Tab completion at the interactive prompt (readline).
 *
 * What the word under the cursor completes to depends on the statement so
 * far (the open statement's earlier lines and the line being typed):
 *   - the first word of a line starting with '\': the backslash commands;
 *   - after FROM, JOIN, INTO, UPDATE, TABLE, FOR (INFO ... FOR), and after a
 *     ',' in a FROM list: table names;
 *   - after INFO: the INFO forms (TABLES, COLUMNS, ...);
 *   - a word holding '.': "alias.column" or "table.column", the alias found
 *     in the statement ("FROM customer c", "customer AS c");
 *   - anywhere else: SQL keywords, table names, and the columns of the tables
 *     the statement names (anywhere on the line, also after the cursor; of
 *     every user table while it names none).
 * Keywords come in the case of what was typed (lower case when the word
 * starts with a lower-case letter, else upper case); names as the catalogue
 * has them, matched without regard to case.
 *
 * Tables and columns come from systables and syscolumns of the current
 * connection, read at the first Tab that needs them and kept per database
 * (the connection and the database of ixsql_sess); CREATE, DROP, ALTER,
 * RENAME, DATABASE, CLOSE, CONNECT, DISCONNECT and SET CONNECTION forget
 * them, and so does a change of ixsql_sess. A failed catalogue query gives
 * no names (and prints nothing).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <readline/readline.h>

#include "base/ix_sqlscan.h"
#include "ixsql.h"

/* ---- the catalogue cache ------------------------------------------------------ */

enum { FIRST_USER_TABID = 100 }; /* below: the system catalogue */

typedef struct table {
    int tabid;
    char *name;
    char **cols;
    size_t ncols, cap;
} table;

static struct {
    int loaded;
    ix_conn *conn;
    char *db;
    table *t;
    size_t n, cap;
} cache;

static void forget(void) {
    for (size_t i = 0; i < cache.n; i++) {
        for (size_t k = 0; k < cache.t[i].ncols; k++)
            free(cache.t[i].cols[k]);
        free(cache.t[i].cols);
        free(cache.t[i].name);
    }
    free(cache.t);
    free(cache.db);
    memset(&cache, 0, sizeof cache);
}

static int add_table(int tabid, const char *name) {
    if (cache.n == cache.cap) {
        size_t cap = cache.cap ? cache.cap * 2 : 64;
        table *nt = realloc(cache.t, cap * sizeof *nt);
        if (!nt) return -1;
        cache.t = nt;
        cache.cap = cap;
    }
    table *t = &cache.t[cache.n];
    memset(t, 0, sizeof *t);
    t->tabid = tabid;
    if (!(t->name = strdup(name))) return -1;
    cache.n++;
    return 0;
}

static table *by_tabid(int tabid) { /* tables are read in tabid order */
    size_t lo = 0, hi = cache.n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (cache.t[mid].tabid == tabid) return &cache.t[mid];
        if (cache.t[mid].tabid < tabid)
            lo = mid + 1;
        else
            hi = mid;
    }
    return NULL;
}

static int add_column(table *t, const char *name) {
    if (t->ncols == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 8;
        char **nc = realloc(t->cols, cap * sizeof *nc);
        if (!nc) return -1;
        t->cols = nc;
        t->cap = cap;
    }
    if (!(t->cols[t->ncols] = strdup(name))) return -1;
    t->ncols++;
    return 0;
}

/* Runs a catalogue query whose rows are (tabid, name); 0 or -1. */
static int read_rows(ix_conn *conn, const char *q, int columns) {
    ix_stmt *s = NULL;
    int rc;
    if (ix_prepare(conn, q, -1, &s) != IX_OK) return -1;
    while ((rc = ix_step(s)) == IX_ROW) {
        const char *name = ix_column_text(s, 1);
        int tabid = ix_column_int(s, 0);
        if (!name || ix_column_is_null(s, 1)) continue;
        char trimmed[256];
        snprintf(trimmed, sizeof trimmed, "%s", name);
        size_t n = strlen(trimmed);
        while (n && trimmed[n - 1] == ' ') /* CHAR columns of older catalogues */
            trimmed[--n] = 0;
        table *t = columns ? by_tabid(tabid) : NULL;
        if (columns ? t && add_column(t, trimmed) != 0 : add_table(tabid, trimmed) != 0) {
            rc = -1;
            break;
        }
    }
    ix_finalize(s);
    return rc == IX_DONE ? 0 : -1;
}

static int same_db(const char *a, const char *b) {
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

/* The cache for the current session, read now if needed. */
static void load(void) {
    ix_conn *conn = ixsql_sess.conn;
    if (cache.loaded && cache.conn == conn && same_db(cache.db, ixsql_sess.database)) return;
    forget();
    cache.loaded = 1;
    cache.conn = conn;
    cache.db = ixsql_sess.database ? strdup(ixsql_sess.database) : NULL;
    if (!conn || ix_conn_is_dead(conn)) return;
    if (read_rows(conn, "SELECT tabid, tabname FROM systables ORDER BY tabid", 0) != 0 ||
        read_rows(conn, "SELECT tabid, colname FROM syscolumns ORDER BY tabid, colno", 1) != 0) {
        ix_conn *keep = cache.conn;
        forget(); /* no names, and no new query at every Tab */
        cache.loaded = 1;
        cache.conn = keep;
        cache.db = ixsql_sess.database ? strdup(ixsql_sess.database) : NULL;
    }
}

static table *find_table(const char *name, size_t n) {
    for (size_t i = 0; i < cache.n; i++)
        if (strlen(cache.t[i].name) == n && strncasecmp(cache.t[i].name, name, n) == 0)
            return &cache.t[i];
    return NULL;
}

void ixsql_complete_after(const char *sql, size_t len) {
    static const char *const ddl[] = {"create",  "drop",       "alter",
                                      "rename",  "database",   "close",
                                      "connect", "disconnect", "set connection"};
    ixsql_lexer lx = {sql, sql + len, sql};
    for (size_t i = 0; i < sizeof ddl / sizeof *ddl; i++) {
        lx.p = sql;
        const char *kw = ddl[i], *sp = strchr(kw, ' ');
        if (!sp) {
            if (ixsql_lex_keyword(&lx, kw)) forget();
            continue;
        }
        char first[16];
        snprintf(first, sizeof first, "%.*s", (int)(sp - kw), kw);
        if (ixsql_lex_keyword(&lx, first) && ixsql_lex_keyword(&lx, sp + 1)) forget();
    }
}

/* ---- the statement so far ------------------------------------------------------ */

static char *open_text; /* the open statement's earlier lines (malloc'd) */

void ixsql_complete_context(const char *open, size_t len) {
    free(open_text);
    open_text = malloc(len + 1);
    if (!open_text) return;
    memcpy(open_text, open, len);
    open_text[len] = 0;
}

void ixsql_complete_free(void) {
    forget();
    free(open_text);
    open_text = NULL;
}

enum { MAX_TOKENS = 512, MAX_TOKEN = 128 };

/* A word (letters, digits, '_', '$', '.') or one punctuation byte; strings
 * and comments are skipped. */
typedef struct token {
    char text[MAX_TOKEN];
    int word;
} token;

typedef struct scan {
    token tok[MAX_TOKENS];
    int n;      /* tokens in all */
    int before; /* tokens that end before the word being completed */
} scan;

static void tokenize(scan *sc, const char *s, size_t cursor) {
    size_t i = 0, n = strlen(s);
    ixb_tok t;
    sc->n = sc->before = 0;
    while (sc->n < MAX_TOKENS && ixb_sql_next(s, n, &i, IXB_SCAN_DOTTED, &t) != IXB_TOK_END) {
        if (t.kind == IXB_TOK_STRING) continue;
        if ((size_t)(t.p - s) < cursor) sc->before = sc->n + 1;
        token *tk = &sc->tok[sc->n++];
        size_t k = t.n < MAX_TOKEN ? t.n : MAX_TOKEN - 1;
        memcpy(tk->text, t.p, k);
        tk->text[k] = 0;
        tk->word = t.kind == IXB_TOK_WORD || t.kind == IXB_TOK_NUMBER;
    }
}

static int is(const token *t, const char *kw) {
    return strcasecmp(t->text, kw) == 0;
}

static const char *const keywords[] = {
    "ADD",      "ALL",     "ALTER",      "AND",         "ANY",        "AS",
    "ASC",      "BEGIN",   "BETWEEN",    "BIGINT",      "BIGSERIAL",  "BOOLEAN",
    "BY",       "BYTE",    "CASE",       "CHAR",        "CHECK",      "CLOSE",
    "COLUMNS",  "COMMIT",  "CONNECT",    "CONNECTION",  "CONSTRAINT", "COUNT",
    "CREATE",   "CROSS",   "CURRENT",    "DATABASE",    "DATE",       "DATETIME",
    "DECIMAL",  "DEFAULT", "DELETE",     "DELIMITER",   "DESC",       "DISCONNECT",
    "DISTINCT", "DROP",    "ELSE",       "END",         "EXECUTE",    "EXISTS",
    "EXPLAIN",  "FIRST",   "FLOAT",      "FOR",         "FOREIGN",    "FRACTION",
    "FROM",     "FULL",    "FUNCTION",   "GRANT",       "GROUP",      "HAVING",
    "IN",       "INDEX",   "INDEXES",    "INFO",        "INNER",      "INSERT",
    "INT8",     "INTEGER", "INTERVAL",   "INTO",        "IS",         "JOIN",
    "KEY",      "LEFT",    "LIKE",       "LIMIT",       "LOAD",       "LOCK",
    "LVARCHAR", "MATCHES", "MODE",       "MONEY",       "NOT",        "NULL",
    "NVARCHAR", "OF",      "ON",         "OR",          "ORDER",      "OUTER",
    "OUTPUT",   "PRIMARY", "PRIVILEGES", "PROCEDURE",   "REFERENCES", "RENAME",
    "REVOKE",   "RIGHT",   "ROLLBACK",   "ROW",         "SELECT",     "SERIAL",
    "SERIAL8",  "SET",     "SKIP",       "SMALLFLOAT",  "SMALLINT",   "STATISTICS",
    "STATUS",   "SYNONYM", "TABLE",      "TABLES",      "TEMP",       "TEXT",
    "THEN",     "TO",      "TODAY",      "TRANSACTION", "TRIGGER",    "UNION",
    "UNIQUE",   "UNLOAD",  "UPDATE",     "USER",        "USING",      "VALUES",
    "VARCHAR",  "VIEW",    "WHEN",       "WHERE",       "WITH",       "WITHOUT",
    "WORK",
};

static const char *const info_forms[] = {"TABLES", "COLUMNS", "INDEXES",   "PRIVILEGES",
                                         "ACCESS", "STATUS",  "REFERENCES"};

static const char *const backslash_cmds[] = {"\\?",       "\\c",      "\\d",     "\\e",    "\\i",
                                             "\\include", "\\l",      "\\o",     "\\pset", "\\q",
                                             "\\set",     "\\timing", "\\unset", "\\x"};

/* ---- the matches ------------------------------------------------------------------ */

typedef struct matches {
    char **m;
    size_t n, cap;
} matches;

static void add(matches *ms, const char *prefix, size_t pn, const char *s, int lower) {
    if (pn && strncasecmp(s, prefix, pn) != 0) return;
    for (size_t i = 0; i < ms->n; i++)
        if (strcasecmp(ms->m[i], s) == 0 && strlen(ms->m[i]) == strlen(s)) return;
    if (ms->n + 3 > ms->cap) { /* room for the common prefix and the NULL */
        size_t cap = ms->cap ? ms->cap * 2 : 32;
        char **nm = realloc(ms->m, cap * sizeof *nm);
        if (!nm) return;
        ms->m = nm;
        ms->cap = cap;
    }
    char *c = strdup(s);
    if (!c) return;
    for (char *q = c; lower && *q; q++)
        *q = (char)tolower((unsigned char)*q);
    ms->m[ms->n++] = c;
}

static void add_tables(matches *ms, const char *w, size_t wn) {
    for (size_t i = 0; i < cache.n; i++)
        add(ms, w, wn, cache.t[i].name, 0);
}

/* The columns of qualifier (a table of the statement, or an alias for one
 * there) as "qualifier.column". */
static void add_qualified(matches *ms, const scan *sc, const char *w, size_t dot) {
    table *t = find_table(w, dot);
    for (int i = 1; !t && i < sc->n; i++) {
        int as = is(&sc->tok[i], "as");
        const token *a = as && i + 1 < sc->n ? &sc->tok[i + 1] : &sc->tok[i];
        if (strlen(a->text) == dot && strncasecmp(a->text, w, dot) == 0)
            t = find_table(sc->tok[i - 1].text, strlen(sc->tok[i - 1].text));
    }
    for (size_t k = 0; t && k < t->ncols; k++) {
        char full[2 * MAX_TOKEN + 2];
        snprintf(full, sizeof full, "%.*s.%s", (int)dot, w, t->cols[k]);
        add(ms, w, strlen(w), full, 0);
    }
}

/* Where only a table name may stand: right after one of these, or after a
 * ',' of a FROM list. */
static int table_position(const scan *sc) {
    static const char *const kws[] = {"from", "join", "into", "update", "table", "for"};
    if (sc->before == 0) return 0;
    const token *prev = &sc->tok[sc->before - 1];
    for (size_t i = 0; i < sizeof kws / sizeof *kws; i++)
        if (is(prev, kws[i])) return 1;
    if (strcmp(prev->text, ",") != 0) return 0;
    for (int i = sc->before - 2; i >= 0; i--) {
        if (is(&sc->tok[i], "from")) return 1;
        if (is(&sc->tok[i], "select") || is(&sc->tok[i], "where") || is(&sc->tok[i], "(") ||
            is(&sc->tok[i], "set") || is(&sc->tok[i], "by"))
            return 0;
    }
    return 0;
}

static void candidates(matches *ms, const scan *sc, const char *w) {
    size_t wn = strlen(w);
    const char *dot = strrchr(w, '.');
    int lower = islower((unsigned char)w[0]);
    if (w[0] == '\\') {
        if (sc->before == 0)
            for (size_t i = 0; i < sizeof backslash_cmds / sizeof *backslash_cmds; i++)
                add(ms, w, wn, backslash_cmds[i], 0);
        return;
    }
    if (sc->before > 0 && is(&sc->tok[sc->before - 1], "info")) {
        for (size_t i = 0; i < sizeof info_forms / sizeof *info_forms; i++)
            add(ms, w, wn, info_forms[i], lower);
        return;
    }
    load();
    if (dot) {
        add_qualified(ms, sc, w, (size_t)(dot - w));
        return;
    }
    add_tables(ms, w, wn);
    if (table_position(sc)) return;
    int named = 0;
    for (int i = 0; i < sc->n; i++) {
        table *t = sc->tok[i].word ? find_table(sc->tok[i].text, strlen(sc->tok[i].text)) : NULL;
        named |= t != NULL;
        for (size_t k = 0; t && k < t->ncols; k++)
            add(ms, w, wn, t->cols[k], 0);
    }
    for (size_t i = 0; !named && i < cache.n; i++) /* no table named yet: any user table's */
        for (size_t k = 0; cache.t[i].tabid >= FIRST_USER_TABID && k < cache.t[i].ncols; k++)
            add(ms, w, wn, cache.t[i].cols[k], 0);
    for (size_t i = 0; i < sizeof keywords / sizeof *keywords; i++)
        add(ms, w, wn, keywords[i], lower);
}

static int by_text(const void *a, const void *b) {
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* readline's hook: the matches for text (rl_line_buffer[start, end)), with
 * their common prefix first, as rl_completion_matches returns them. */
static char **complete(const char *text, int start, int end) {
    (void)end;
    rl_attempted_completion_over = 1; /* never file names */
    size_t on = open_text ? strlen(open_text) : 0, ln = strlen(rl_line_buffer);
    char *all = malloc(on + ln + 2);
    scan *sc = malloc(sizeof *sc);
    matches ms = {NULL, 0, 0};
    if (all && sc) {
        memcpy(all, open_text ? open_text : "", on);
        all[on] = '\n';
        memcpy(all + on + 1, rl_line_buffer, ln + 1);
        tokenize(sc, all, on + 1 + (size_t)start);
        const char *first = rl_line_buffer + strspn(rl_line_buffer, " \t");
        if (*first == '\\' && (size_t)start > (size_t)(first - rl_line_buffer))
            rl_attempted_completion_over = 0; /* \i FILE: readline's file names */
        else
            candidates(&ms, sc, text);
    }
    free(all);
    free(sc);
    if (ms.n == 0) {
        free(ms.m);
        return NULL;
    }
    qsort(ms.m, ms.n, sizeof *ms.m, by_text);
    /* [0] is the longest common prefix (as typed when the case differs) */
    size_t common = strlen(ms.m[0]);
    for (size_t i = 1; i < ms.n; i++) {
        size_t k = 0;
        while (k < common && ms.m[i][k] == ms.m[0][k])
            k++;
        common = k;
    }
    if (common < strlen(text)) common = 0;
    char *lcd = malloc((common ? common : strlen(text)) + 1);
    if (!lcd) {
        for (size_t i = 0; i < ms.n; i++)
            free(ms.m[i]);
        free(ms.m);
        return NULL;
    }
    if (common) {
        memcpy(lcd, ms.m[0], common);
        lcd[common] = 0;
    } else {
        strcpy(lcd, text);
    }
    if (ms.n == 1) { /* one match: it alone, as readline wants it */
        free(lcd);
        ms.m[1] = NULL;
        return ms.m;
    }
    memmove(ms.m + 1, ms.m, ms.n * sizeof *ms.m);
    ms.m[0] = lcd;
    ms.m[ms.n + 1] = NULL;
    return ms.m;
}

void ixsql_complete_install(void) {
    rl_attempted_completion_function = complete;
    rl_completer_word_break_characters = " \t\n'\"(),;=<>+-*/|";
    rl_inhibit_completion = 0;
}
