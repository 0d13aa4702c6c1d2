/*
 * ixsql_dsn.c: the DSN for the command line's target, and the password that
 * never has to be on the command line (where ps shows it).
 *
 * The target is a bare "database[@server]" (as dbaccess takes it), an
 * informix:// URL or a keyword string (as ix_connect takes them), or "-"
 * (no database). When it holds no password, the first of these is used:
 *   $IXPASSWORD, $INFORMIXPASSWORD;
 *   ~/.ixdbpass (only when no one but its owner may read or write it): lines
 *     host:port:database:user:password, '*' matching anything, '\' quoting
 *     ':' and '\', '#' starting a comment line; the first matching line wins;
 *   a prompt on the terminal, without echo (only when ask is set).
 */
#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include "ixsql.h"

typedef struct target_info {
    char *user, *host, *port, *database, *server;
    int has_password;
} target_info;

/* Sets the field for key (the keys that matter for the password). */
static void note_key(target_info *t, const char *k, size_t kn, const char *v, size_t vn) {
    char **slot = NULL;
    if (kn == 4 && strncmp(k, "user", 4) == 0) slot = &t->user;
    if (kn == 4 && strncmp(k, "host", 4) == 0) slot = &t->host;
    if (kn == 4 && strncmp(k, "port", 4) == 0) slot = &t->port;
    if (kn == 8 && strncmp(k, "database", 8) == 0) slot = &t->database;
    if (kn == 6 && strncmp(k, "server", 6) == 0) slot = &t->server;
    if (kn == 8 && strncmp(k, "password", 8) == 0) t->has_password = 1;
    if (slot) {
        free(*slot);
        *slot = strndup(v, vn);
    }
}

/* informix://user:password@host:port/database?key=value&... */
static void scan_url(target_info *t, const char *s) {
    const char *p = strstr(s, "://") + 3;
    const char *end = p + strcspn(p, "/?"), *at = NULL;
    for (const char *q = p; q < end; q++)
        if (*q == '@') at = q;
    if (at) {
        const char *colon = memchr(p, ':', (size_t)(at - p));
        note_key(t, "user", 4, p, colon ? (size_t)(colon - p) : (size_t)(at - p));
        if (colon) t->has_password = 1;
        p = at + 1;
    }
    const char *colon = *p == '[' ? memchr(p, ']', (size_t)(end - p)) : p;
    colon = colon ? memchr(colon, ':', (size_t)(end - colon)) : NULL;
    if (end > p) note_key(t, "host", 4, p, (size_t)((colon ? colon : end) - p));
    if (colon) note_key(t, "port", 4, colon + 1, (size_t)(end - colon - 1));
    p = end;
    if (*p == '/') {
        size_t n = strcspn(++p, "?");
        if (n) note_key(t, "database", 8, p, n);
        p += n;
    }
    while (*p == '?' || *p == '&') {
        size_t n = strcspn(++p, "&");
        const char *eq = memchr(p, '=', n);
        if (eq) note_key(t, p, (size_t)(eq - p), eq + 1, n - (size_t)(eq - p) - 1);
        p += n;
    }
}

/* key=value key='quoted \' value' ... */
static void scan_keywords(target_info *t, const char *p) {
    for (;;) {
        while (*p == ' ' || *p == '\t')
            p++;
        if (!*p) return;
        const char *k = p;
        while (*p && *p != '=' && *p != ' ')
            p++;
        size_t kn = (size_t)(p - k);
        if (*p != '=') continue;
        p++;
        char buf[256];
        size_t n = 0;
        if (*p == '\'') {
            for (p++; *p && *p != '\''; p++) {
                if (*p == '\\' && p[1]) p++;
                if (n < sizeof buf) buf[n++] = *p;
            }
            if (*p) p++;
        } else {
            while (*p && *p != ' ' && *p != '\t')
                if (n < sizeof buf)
                    buf[n++] = *p++;
                else
                    p++;
        }
        note_key(t, k, kn, buf, n);
    }
}

/* The field of an .ixdbpass line starting at *p (unquoted into out). */
static void pass_field(const char **p, char *out, size_t cap) {
    size_t n = 0;
    const char *s = *p;
    for (; *s && *s != ':' && *s != '\n'; s++) {
        if (*s == '\\' && (s[1] == ':' || s[1] == '\\')) s++;
        if (n + 1 < cap) out[n++] = *s;
    }
    out[n] = 0;
    if (*s == ':') s++;
    *p = s;
}

static int field_matches(const char *pattern, const char *value) {
    return strcmp(pattern, "*") == 0 || strcmp(pattern, value ? value : "") == 0;
}

/* The password of the first matching line of ~/.ixdbpass, or NULL. */
static char *from_pass_file(const target_info *t) {
    const char *home = getenv("HOME");
    char path[4096];
    struct stat st;
    if (!home || snprintf(path, sizeof path, "%s/.ixdbpass", home) >= (int)sizeof path) return NULL;
    FILE *f = fopen(path, "r");
    if (!f) return NULL;
    if (fstat(fileno(f), &st) != 0 || (st.st_mode & (S_IRWXG | S_IRWXO))) {
        fprintf(stderr, "ixsql: %s is readable or writable by others (chmod 600): ignored\n", path);
        fclose(f);
        return NULL;
    }
    const char *want[4] = {t->host, t->port, t->database, t->user};
    char line[1024], field[5][256], *found = NULL;
    while (!found && fgets(line, sizeof line, f)) {
        if (line[0] == '#' || line[0] == '\n') continue;
        const char *p = line;
        for (int i = 0; i < 5; i++)
            pass_field(&p, field[i], sizeof field[i]);
        int ok = 1;
        for (int i = 0; i < 4; i++)
            ok &= field_matches(field[i], want[i]);
        if (ok) found = strdup(field[4]);
    }
    fclose(f);
    return found;
}

/* Asks on the terminal, without echo. */
static char *from_prompt(const target_info *t) {
    FILE *tty = fopen("/dev/tty", "r+");
    if (!tty) return NULL;
    struct termios old, quiet;
    int fd = fileno(tty), restore = tcgetattr(fd, &old) == 0;
    if (restore) {
        quiet = old;
        quiet.c_lflag &= ~(tcflag_t)ECHO;
        tcsetattr(fd, TCSAFLUSH, &quiet);
    }
    fprintf(tty, "Password for %s: ", t->user ? t->user : "");
    fflush(tty);
    char buf[1024];
    char *got = fgets(buf, sizeof buf, tty) ? strdup(buf) : NULL;
    if (restore) tcsetattr(fd, TCSAFLUSH, &old);
    fputc('\n', tty);
    fclose(tty);
    if (got) got[strcspn(got, "\r\n")] = 0;
    return got;
}

static char *find_password(const target_info *t, int ask) {
    const char *env = getenv("IXPASSWORD");
    if (!env) env = getenv("INFORMIXPASSWORD");
    if (env) return strdup(env);
    char *p = from_pass_file(t);
    if (!p && ask) p = from_prompt(t);
    return p;
}

/* Appends src to the growing string *s (quoted for a keyword value when
 * quote, %-encoded when pct). Returns -1 when out of memory. */
static int put(char **s, size_t *len, const char *src, int quote, int pct) {
    size_t n = strlen(src), need = *len + n * 3 + 3;
    char *b = realloc(*s, need);
    if (!b) return -1;
    *s = b;
    if (quote) b[(*len)++] = '\'';
    for (const char *c = src; *c; c++) {
        int plain = (*c >= 'A' && *c <= 'Z') || (*c >= 'a' && *c <= 'z') ||
                    (*c >= '0' && *c <= '9') || strchr("-._~", *c);
        if (pct && !plain) {
            *len += (size_t)sprintf(b + *len, "%%%02X", (unsigned char)*c);
            continue;
        }
        if (quote && (*c == '\'' || *c == '\\')) b[(*len)++] = '\\';
        b[(*len)++] = *c;
    }
    if (quote) b[(*len)++] = '\'';
    b[*len] = 0;
    return 0;
}

/* "database[@server]" as keywords. */
static int bare_name(const char *target, char **s, size_t *len) {
    const char *at = strchr(target, '@');
    char *db = strndup(target, at ? (size_t)(at - target) : strlen(target));
    int rc = db ? 0 : -1;
    if (!rc && *db) rc = put(s, len, "database=", 0, 0) | put(s, len, db, 1, 0);
    if (!rc && at) rc = put(s, len, *db ? " server=" : "server=", 0, 0) | put(s, len, at + 1, 1, 0);
    free(db);
    return rc;
}

static void free_info(target_info *t) {
    free(t->user);
    free(t->host);
    free(t->port);
    free(t->database);
    free(t->server);
}

/* The defaults ix_connect uses, for matching ~/.ixdbpass. */
static void fill_defaults(target_info *t) {
    const char *u = getenv("USER");
    struct passwd *pw;
    if ((!u || !*u) && (pw = getpwuid(geteuid())) != NULL) u = pw->pw_name; /* as ix_connect */
    if (!t->user && u && *u) t->user = strdup(u);
    if (!t->host) t->host = strdup(t->server && !t->port ? t->server : "localhost");
    if (!t->port) t->port = strdup("9088");
}

int ixsql_make_dsn(const char *target, int ask, char **dsn, char **database) {
    target_info t = {0};
    char *s = calloc(1, 1);
    size_t len = 0;
    int rc = s ? 0 : -1, url = 0;
    if (!rc && target && strcmp(target, "-") != 0) {
        url = strstr(target, "://") != NULL;
        if (url || strchr(target, '='))
            rc = put(&s, &len, target, 0, 0);
        else
            rc = bare_name(target, &s, &len);
    }
    if (!rc) {
        if (url)
            scan_url(&t, s);
        else
            scan_keywords(&t, s);
        fill_defaults(&t);
    }
    if (!rc && !t.has_password) {
        char *pw = find_password(&t, ask);
        if (pw) {
            const char *sep = url ? (strchr(s, '?') ? "&password=" : "?password=")
                                  : (len ? " password=" : "password=");
            rc = put(&s, &len, sep, 0, 0) | put(&s, &len, pw, !url, url);
            memset(pw, 0, strlen(pw));
            free(pw);
        }
    }
    *database = NULL;
    if (!rc && t.database) *database = strdup(t.database);
    free_info(&t);
    if (rc) {
        free(s);
        fputs("ixsql: out of memory\n", stderr);
        return -1;
    }
    *dsn = s;
    return 0;
}
