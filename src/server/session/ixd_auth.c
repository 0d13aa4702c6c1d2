/*
 * ixd_auth.c: users and passwords, the login throttle, and the first check
 * of a login packet. Passwords are kept only as salted PBKDF2-HMAC-SHA256
 * hashes (OpenSSL), compared in constant time.
 */
#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ixd_server.h"
#include "proto/ix_login.h"

#define ROUNDS   10000
#define SALT_LEN 16
#define HASH_LEN 32

typedef struct user {
    char name[64];
    uint8_t salt[SALT_LEN];
    size_t salt_len;
    uint8_t hash[HASH_LEN];
} user;

/*
 * The verified-login cache. A login that passed the full PBKDF2 check leaves
 * a tag HMAC-SHA256(key, name NUL salt hash password) in one of
 * PW_CACHE_SLOTS slots (the oldest is replaced); the same user with the same
 * password then matches the tag instead of deriving the key again. `key` is
 * random per process, so a tag says nothing outside it and the password is
 * never stored. Only successes are cached: a wrong password or an unknown
 * user misses (the dummy user is never cached) and costs the full
 * derivation every time. The tag is computed and compared for every check,
 * hit or miss, known user or not.
 */
#define PW_CACHE_SLOTS 64
#define PW_TAG_LEN     32
#define PW_TAG_INPUT   512 /* longer name + password: not cached */

typedef struct pw_cache {
    pthread_mutex_t lock;
    uint8_t key[32];
    uint8_t tag[PW_CACHE_SLOTS][PW_TAG_LEN];
    int used[PW_CACHE_SLOTS];
    unsigned next; /* the slot the next new entry takes */
} pw_cache;

struct ixd_users {
    user *v;
    int n;
    user dummy;      /* checked for an unknown user, so that it costs the same */
    pw_cache *cache; /* a pointer: checks of a const ixd_users fill it */
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
    u->cache = calloc(1, sizeof *u->cache);
    if (!u->cache) {
        free(u);
        return snprintf(errbuf, errlen, "out of memory"), -1;
    }
    pthread_mutex_init(&u->cache->lock, NULL);
    if (RAND_bytes(u->cache->key, sizeof u->cache->key) != 1) {
        ixd_users_free(u);
        return snprintf(errbuf, errlen, "no random bytes for the login cache key"), -1;
    }
    u->dummy.salt_len = SALT_LEN;
    if (RAND_bytes(u->dummy.salt, SALT_LEN) != 1 || RAND_bytes(u->dummy.hash, HASH_LEN) != 1) {
        ixd_users_free(u);
        return snprintf(errbuf, errlen, "no random bytes for the salt"), -1;
    }
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
    if (u->cache) {
        pthread_mutex_destroy(&u->cache->lock);
        OPENSSL_cleanse(u->cache, sizeof *u->cache);
        free(u->cache);
    }
    free(u);
}

/* The cache tag of (user x, name, password). Returns 0, or -1 when the
 * input is too long to be cached or HMAC fails. */
static int pw_tag(const pw_cache *c, const user *x, const char *name, const char *password,
                  uint8_t tag[PW_TAG_LEN]) {
    size_t nn = strlen(name), pn = strlen(password);
    uint8_t in[PW_TAG_INPUT];
    size_t need = nn + 1 + x->salt_len + HASH_LEN + pn;
    if (need > sizeof in) return -1;
    memcpy(in, name, nn + 1);
    memcpy(in + nn + 1, x->salt, x->salt_len);
    memcpy(in + nn + 1 + x->salt_len, x->hash, HASH_LEN);
    memcpy(in + nn + 1 + x->salt_len + HASH_LEN, password, pn);
    unsigned len = 0;
    uint8_t *r = HMAC(EVP_sha256(), c->key, (int)sizeof c->key, in, need, tag, &len);
    OPENSSL_cleanse(in, need);
    return r && len == PW_TAG_LEN ? 0 : -1;
}

/* 1 if tag is in the cache. Every slot is compared, in constant time. */
static int pw_cache_has(pw_cache *c, const uint8_t tag[PW_TAG_LEN]) {
    int hit = 0;
    pthread_mutex_lock(&c->lock);
    for (int i = 0; i < PW_CACHE_SLOTS; i++)
        hit |= c->used[i] & (CRYPTO_memcmp(c->tag[i], tag, PW_TAG_LEN) == 0);
    pthread_mutex_unlock(&c->lock);
    return hit;
}

static void pw_cache_add(pw_cache *c, const uint8_t tag[PW_TAG_LEN]) {
    pthread_mutex_lock(&c->lock);
    unsigned i = c->next % PW_CACHE_SLOTS;
    memcpy(c->tag[i], tag, PW_TAG_LEN);
    c->used[i] = 1;
    c->next = i + 1;
    pthread_mutex_unlock(&c->lock);
}

int ixd_users_check(const ixd_users *u, const char *name, const char *password) {
    const user *x = &u->dummy;
    for (int i = 0; i < u->n; i++)
        if (strcmp(u->v[i].name, name) == 0) {
            x = &u->v[i];
            break;
        }
    /* A login verified before: the tag matches, no derivation. The tag is
     * computed for the dummy too (never cached, so never a hit). */
    uint8_t tag[PW_TAG_LEN];
    int tagged = pw_tag(u->cache, x, name, password, tag) == 0;
    if (tagged && pw_cache_has(u->cache, tag) && x != &u->dummy) {
        OPENSSL_cleanse(tag, sizeof tag);
        return 1;
    }
    /* The same derivation and comparison whether the user exists or not. */
    uint8_t h[HASH_LEN];
    int match =
        hash_pw(password, x->salt, x->salt_len, h) == 0 && CRYPTO_memcmp(h, x->hash, HASH_LEN) == 0;
    OPENSSL_cleanse(h, sizeof h);
    if (match && tagged && x != &u->dummy) pw_cache_add(u->cache, tag);
    OPENSSL_cleanse(tag, sizeof tag);
    if (x == &u->dummy) return 0;
    return match ? 1 : -1;
}

int ixd_users_make_line(const char *name, const char *password, char *line, size_t len) {
    uint8_t salt[SALT_LEN], h[HASH_LEN];
    if (RAND_bytes(salt, SALT_LEN) != 1 || hash_pw(password, salt, SALT_LEN, h)) return -1;
    char sx[2 * SALT_LEN + 1], hx[2 * HASH_LEN + 1];
    tohex(salt, SALT_LEN, sx);
    tohex(h, HASH_LEN, hx);
    return snprintf(line, len, "%s:%s:%s", name, sx, hx) < (int)len ? 0 : -1;
}

/* ---- login throttle --------------------------------------------------------- */

typedef struct throttle_entry {
    char addr[64];   /* "" = free */
    int fails;       /* failed logins, counted while each follows the last within the window */
    int64_t last_ms; /* time of the last failure */
    int64_t next_ms; /* earliest time the next held-back answer may go out */
} throttle_entry;

struct ixd_throttle {
    pthread_mutex_t lock;
    throttle_entry v[IXD_THROTTLE_SLOTS];
};

int64_t ixd_now_ms(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

ixd_throttle *ixd_throttle_new(void) {
    ixd_throttle *t = calloc(1, sizeof *t);
    if (t) pthread_mutex_init(&t->lock, NULL);
    return t;
}

void ixd_throttle_free(ixd_throttle *t) {
    if (!t) return;
    pthread_mutex_destroy(&t->lock);
    free(t);
}

static int entry_live(const throttle_entry *e, int64_t now_ms) {
    return e->addr[0] && now_ms - e->last_ms < IXD_THROTTLE_WINDOW_MS;
}

/* The entry of addr, or NULL; with `make`, a new one in a free, expired or
 * else the stalest slot. Called with the lock held. */
static throttle_entry *throttle_find(ixd_throttle *t, const char *addr, int64_t now_ms, int make) {
    throttle_entry *victim = NULL;
    for (int i = 0; i < IXD_THROTTLE_SLOTS; i++) {
        throttle_entry *e = &t->v[i];
        if (e->addr[0] && strcmp(e->addr, addr) == 0) {
            if (entry_live(e, now_ms)) return e;
            e->addr[0] = 0; /* expired: forgotten */
        }
        if (!victim ||
            (victim->addr[0] && (!entry_live(e, now_ms) || e->last_ms < victim->last_ms)))
            victim = e;
    }
    if (!make) return NULL;
    memset(victim, 0, sizeof *victim);
    snprintf(victim->addr, sizeof victim->addr, "%s", addr);
    return victim;
}

long ixd_throttle_begin(ixd_throttle *t, const char *addr, int64_t now_ms) {
    if (!t) return 0;
    long wait = 0;
    pthread_mutex_lock(&t->lock);
    throttle_entry *e = throttle_find(t, addr, now_ms, 0);
    if (e && e->fails >= IXD_THROTTLE_FREE) {
        int shift = e->fails - IXD_THROTTLE_FREE;
        int64_t delay = shift > 16 ? IXD_THROTTLE_CAP_MS : (int64_t)IXD_THROTTLE_BASE_MS << shift;
        if (delay > IXD_THROTTLE_CAP_MS) delay = IXD_THROTTLE_CAP_MS;
        int64_t slot = (e->next_ms > now_ms ? e->next_ms : now_ms) + delay;
        if (slot - now_ms > IXD_THROTTLE_MAX_WAIT_MS) {
            wait = -1;
        } else {
            e->next_ms = slot;
            wait = (long)(slot - now_ms);
        }
    }
    pthread_mutex_unlock(&t->lock);
    return wait;
}

void ixd_throttle_end(ixd_throttle *t, const char *addr, int ok, int64_t now_ms) {
    if (!t) return;
    pthread_mutex_lock(&t->lock);
    throttle_entry *e = throttle_find(t, addr, now_ms, !ok);
    if (e && ok) {
        e->addr[0] = 0;
    } else if (e) {
        e->fails++;
        e->last_ms = now_ms;
    }
    pthread_mutex_unlock(&t->lock);
}

/* ---- login packets ------------------------------------------------------------ */

/* The SL header's layout is the table above sl_check in src/proto/ix_login.c. */
const char *ixd_login_header_why(const uint8_t *p, size_t n) {
    if (n >= 2) {
        uint16_t total = ixb_be16(p);
        if (total < IXD_LOGIN_MIN_LEN) return "declared login length too small for a CONREQ";
        if (total > IXD_LOGIN_MAX_LEN) return "declared login length over the limit";
    }
    if (n >= 3 && p[2] != IXP_SL_CONREQ) return "not a connection request (SL type is not 1)";
    if (n >= 4 && p[3] != IXP_SL_PROTO) return "SL protocol is not 60";
    return NULL;
}
