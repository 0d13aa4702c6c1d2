/*
 * ixo_keys.c: the keywords of a connection: IBM's Informix ODBC keywords
 * and libixdb's own, parsed from a connection string or read from odbc.ini,
 * and the libixdb DSN text made of them.
 */
#include <odbcinst.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ixo_keys.h"

/* keyword (case-insensitive) -> field; the first name is the odbc.ini key */
static const struct {
    const char *name;
    size_t off;
} KEYS[] = {
    {"DSN", offsetof(ixo_keys, dsn)},
    {"Host", offsetof(ixo_keys, host)},
    {"Hostname", offsetof(ixo_keys, host)},
    {"Service", offsetof(ixo_keys, service)},
    {"Port", offsetof(ixo_keys, service)},
    {"Server", offsetof(ixo_keys, server)},
    {"Database", offsetof(ixo_keys, database)},
    {"DB", offsetof(ixo_keys, database)},
    {"UID", offsetof(ixo_keys, uid)},
    {"LogonID", offsetof(ixo_keys, uid)},
    {"User", offsetof(ixo_keys, uid)},
    {"PWD", offsetof(ixo_keys, pwd)},
    {"Password", offsetof(ixo_keys, pwd)},
    {"Protocol", offsetof(ixo_keys, protocol)},
    {"CLIENT_LOCALE", offsetof(ixo_keys, client_locale)},
    {"CLOC", offsetof(ixo_keys, client_locale)},
    {"DB_LOCALE", offsetof(ixo_keys, db_locale)},
    {"DLOC", offsetof(ixo_keys, db_locale)},
    /* libixdb's DSN keys of the same names (docs/c-api.md) */
    {"sqlhosts", offsetof(ixo_keys, sqlhosts)},
    {"tls", offsetof(ixo_keys, tls)},
    {"tls_verify", offsetof(ixo_keys, tls_verify)},
    {"tls_ca", offsetof(ixo_keys, tls_ca)},
};

static char *key_field(ixo_keys *k, const char *name, size_t n) {
    for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++)
        if (strlen(KEYS[i].name) == n && strncasecmp(KEYS[i].name, name, n) == 0)
            return (char *)k + KEYS[i].off;
    return NULL;
}

/* the DSN's keys from odbc.ini (only those not set yet) */
void ixo_keys_from_ini(ixo_keys *k) {
    char buf[IXO_KEY_MAX];
    for (size_t i = 1; i < sizeof KEYS / sizeof KEYS[0]; i++) {
        char *f = (char *)k + KEYS[i].off;
        if (*f) continue;
        buf[0] = 0;
        if (SQLGetPrivateProfileString(k->dsn, KEYS[i].name, "", buf, sizeof buf, "odbc.ini") > 0)
            snprintf(f, IXO_KEY_MAX, "%s", buf);
    }
}

/* "KEY=value;KEY={value;with;semicolons};..." into k; 0 on a malformed string */
int ixo_keys_parse(ixo_keys *k, const char *s, size_t n) {
    size_t i = 0;
    while (i < n) {
        while (i < n && (s[i] == ';' || s[i] == ' '))
            i++;
        if (i >= n || !s[i]) break;
        size_t ks = i;
        while (i < n && s[i] != '=' && s[i] != ';')
            i++;
        if (i >= n || s[i] != '=') return 0;
        size_t kn = i - ks;
        while (kn && s[ks + kn - 1] == ' ')
            kn--;
        i++;
        const char *v = s + i;
        size_t vn;
        if (i < n && s[i] == '{') {
            v = s + i + 1;
            const char *end = memchr(v, '}', n - i - 1);
            if (!end) return 0;
            vn = (size_t)(end - v);
            i = (size_t)(end - s) + 1;
        } else {
            while (i < n && s[i] != ';')
                i++;
            vn = (size_t)(s + i - v);
        }
        char *f = key_field(k, s + ks, kn);
        if (f) snprintf(f, IXO_KEY_MAX, "%.*s", (int)(vn < IXO_KEY_MAX ? vn : IXO_KEY_MAX - 1), v);
    }
    return 1;
}

/* one "key='value' " of a libixdb DSN (\ and ' escaped) */
void ixo_dsn_add(char *out, size_t cap, const char *key, const char *val) {
    size_t n = strlen(out);
    if (!*val) return;
    n += (size_t)snprintf(out + n, n < cap ? cap - n : 0, "%s='", key);
    for (; *val && n + 3 < cap; val++) {
        if (*val == '\'' || *val == '\\') out[n++] = '\\';
        out[n++] = *val;
    }
    if (n + 2 < cap) {
        out[n++] = '\'';
        out[n++] = ' ';
        out[n] = 0;
    }
}
