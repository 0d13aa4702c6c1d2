/*
 * ix_dsn.c: connection options: the DSN (URL or keywords), the environment
 * and sqlhosts, parsed into a dsn_opts.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pwd.h>
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

/* ---- options and DSN parsing --------------------------------------------- */

void ixc_opts_free(dsn_opts *o) {
    char **s[] = {&o->host,   &o->port,     &o->server,        &o->database,
                  &o->user,   &o->password, &o->client_locale, &o->db_locale,
                  &o->dbdate, &o->tls_ca,   &o->sqlhosts};
    for (size_t i = 0; i < sizeof s / sizeof s[0]; i++) {
        ixc_free(*s[i]);
        *s[i] = NULL;
    }
}

int ixc_set_str(char **dst, const char *v, size_t n) {
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
        if (strcasecmp(k, strs[i].key) == 0) return ixc_set_str(strs[i].dst, v, strlen(v));
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

/* Without USER or user=, the login name is the process's, as IBM's clients
 * take it (the password database); IX_EINVAL with a message when there is
 * none. */
static int os_user(dsn_opts *o, char *err, size_t errlen) {
    struct passwd pw, *found = NULL;
    char buf[1024];
    if (getpwuid_r(geteuid(), &pw, buf, sizeof buf, &found) == 0 && found && found->pw_name[0])
        return ixc_set_str(&o->user, found->pw_name, strlen(found->pw_name)) ? IX_ENOMEM : IX_OK;
    snprintf(err, errlen,
             "no user name: USER is not set and user id %ld has no entry in the password "
             "database; give user= in the DSN",
             (long)geteuid());
    return IX_EINVAL;
}

int ixc_opts_load(dsn_opts *o, const char *dsn, char *err, size_t errlen) {
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
    if ((e = getenv("INFORMIXSQLHOSTS")) && *e) rc |= ixc_set_str(&o->sqlhosts, e, strlen(e));
    if ((e = getenv("INFORMIXSERVER")) && *e) rc |= ixc_set_str(&o->server, e, strlen(e));
    if ((e = getenv("CLIENT_LOCALE")) && *e) rc |= ixc_set_str(&o->client_locale, e, strlen(e));
    if ((e = getenv("DB_LOCALE")) && *e) rc |= ixc_set_str(&o->db_locale, e, strlen(e));
    if ((e = getenv("DBDATE")) && *e) rc |= ixc_set_str(&o->dbdate, e, strlen(e));
    if ((e = getenv("USER")) && *e) rc |= ixc_set_str(&o->user, e, strlen(e));
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
    if ((!o->user || !*o->user) && (rc = os_user(o, err, errlen)) != IX_OK) return rc;
    if (!o->host && ixc_set_str(&o->host, "localhost", 9)) return IX_ENOMEM;
    if (!o->port && ixc_set_str(&o->port, "9088", 4)) return IX_ENOMEM;
    return IX_OK;
}
