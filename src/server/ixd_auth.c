/*
 * ixd_auth.c: users and passwords. Passwords are kept only as salted
 * PBKDF2-HMAC-SHA256 hashes (OpenSSL), compared in constant time.
 */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_server.h"

#define ROUNDS   10000
#define SALT_LEN 16
#define HASH_LEN 32

typedef struct user {
    char name[64];
    uint8_t salt[SALT_LEN];
    size_t salt_len;
    uint8_t hash[HASH_LEN];
} user;

struct ixd_users {
    user *v;
    int n;
};

static int hash_pw(const char *pw, const uint8_t *salt, size_t salt_len, uint8_t out[HASH_LEN]) {
    return PKCS5_PBKDF2_HMAC(pw, (int)strlen(pw), salt, (int)salt_len, ROUNDS, EVP_sha256(),
                             HASH_LEN, out) == 1
               ? 0
               : -1;
}

static int unhex(const char *s, uint8_t *out, size_t max, size_t *n) {
    size_t len = strlen(s);
    if (len % 2 || len / 2 > max) return -1;
    for (size_t i = 0; i < len / 2; i++) {
        unsigned v;
        if (sscanf(s + 2 * i, "%2x", &v) != 1) return -1;
        out[i] = (uint8_t)v;
    }
    *n = len / 2;
    return 0;
}

static void tohex(const uint8_t *p, size_t n, char *out) {
    for (size_t i = 0; i < n; i++)
        sprintf(out + 2 * i, "%02x", p[i]);
}

static int add_user(ixd_users *u, const char *name, const char *password) {
    user *v = realloc(u->v, (size_t)(u->n + 1) * sizeof *v);
    if (!v) return -1;
    u->v = v;
    user *x = &v[u->n];
    memset(x, 0, sizeof *x);
    snprintf(x->name, sizeof x->name, "%s", name);
    x->salt_len = SALT_LEN;
    if (RAND_bytes(x->salt, SALT_LEN) != 1 || hash_pw(password, x->salt, SALT_LEN, x->hash))
        return -1;
    u->n++;
    return 0;
}

int ixd_users_load(ixd_users **out, const char *path, char *errbuf, size_t errlen) {
    ixd_users *u = calloc(1, sizeof *u);
    *out = NULL;
    if (!u) return snprintf(errbuf, errlen, "out of memory"), -1;
    if (!path) {
        if (add_user(u, "informix", "in4mix")) {
            ixd_users_free(u);
            return snprintf(errbuf, errlen, "cannot hash the default password"), -1;
        }
        *out = u;
        return 0;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        ixd_users_free(u);
        return snprintf(errbuf, errlen, "cannot open users file %s", path), -1;
    }
    char line[512];
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        line[strcspn(line, "\r\n")] = 0;
        if (!line[0] || line[0] == '#') continue;
        char *c1 = strchr(line, ':'), *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        user x = {0};
        size_t hn = 0;
        if (!c1 || !c2 || c1 - line >= (long)sizeof x.name || c1 == line) goto bad;
        *c1 = *c2 = 0;
        memcpy(x.name, line, (size_t)(c1 - line)); /* length checked above */
        if (unhex(c1 + 1, x.salt, SALT_LEN, &x.salt_len) || unhex(c2 + 1, x.hash, HASH_LEN, &hn) ||
            hn != HASH_LEN)
            goto bad;
        user *v = realloc(u->v, (size_t)(u->n + 1) * sizeof *v);
        if (!v) goto bad;
        u->v = v;
        v[u->n++] = x;
        continue;
    bad:
        fclose(f);
        ixd_users_free(u);
        return snprintf(errbuf, errlen, "%s:%d: expected name:salthex:hashhex", path, lineno), -1;
    }
    fclose(f);
    *out = u;
    return 0;
}

void ixd_users_free(ixd_users *u) {
    if (!u) return;
    OPENSSL_cleanse(u->v, (size_t)u->n * sizeof *u->v);
    free(u->v);
    free(u);
}

int ixd_users_check(const ixd_users *u, const char *name, const char *password) {
    for (int i = 0; i < u->n; i++) {
        if (strcmp(u->v[i].name, name) != 0) continue;
        uint8_t h[HASH_LEN];
        if (hash_pw(password, u->v[i].salt, u->v[i].salt_len, h)) return -1;
        return CRYPTO_memcmp(h, u->v[i].hash, HASH_LEN) == 0 ? 1 : -1;
    }
    return 0;
}

int ixd_users_make_line(const char *name, const char *password, char *line, size_t len) {
    uint8_t salt[SALT_LEN], h[HASH_LEN];
    if (RAND_bytes(salt, SALT_LEN) != 1 || hash_pw(password, salt, SALT_LEN, h)) return -1;
    char sx[2 * SALT_LEN + 1], hx[2 * HASH_LEN + 1];
    tohex(salt, SALT_LEN, sx);
    tohex(h, HASH_LEN, hx);
    return snprintf(line, len, "%s:%s:%s", name, sx, hx) < (int)len ? 0 : -1;
}
