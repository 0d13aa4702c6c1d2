/*
 * ix_sqlhosts.c: the Informix sqlhosts file ($INFORMIXSQLHOSTS, default
 * $INFORMIXDIR/etc/sqlhosts).
 *
 * Each line is "dbservername nettype hostname servicename [options]", with
 * '#' starting a comment. Nettypes: on/ol/dr + soctcp or tlitcp (TCP, both
 * treated alike) and socssl (TLS); a group is "name group - - [i=n,...]"
 * and its members are the lines whose options hold g=name, tried in file
 * order (c=1 on the group line: from a random member on, e=NAME: NAME is
 * the last member). k=0 / k=1 on a server line turns TCP keepalive off / on
 * for it. The service is a port number or a name from the services database
 * (getservbyname_r). The hostname may carry Informix's leading '*' (listen
 * on every address), which is dropped.
 */
#define _DEFAULT_SOURCE /* getservbyname_r */
#include <ctype.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "ix_client_int.h"

#define MAXF 8

/* Splits a line into blank-separated fields, dropping a '#' comment. */
static int split(char *line, char **f) {
    char *hash = strchr(line, '#');
    if (hash) *hash = 0;
    int n = 0;
    char *p = line;
    while (n < MAXF) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p) break;
        f[n++] = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        if (*p) *p++ = 0;
    }
    return n;
}

/* The value of option key= among fields f[4..n) (comma-separated), or NULL.
 * Copies it into buf. */
static const char *option(char **f, int n, const char *key, char *buf, size_t cap) {
    size_t kl = strlen(key);
    for (int i = 4; i < n; i++) {
        const char *p = f[i];
        while (*p) {
            size_t l = strcspn(p, ",");
            if (l > kl && strncmp(p, key, kl) == 0 && p[kl] == '=') {
                size_t vl = l - kl - 1;
                if (vl >= cap) vl = cap - 1;
                memcpy(buf, p + kl + 1, vl);
                buf[vl] = 0;
                return buf;
            }
            p += l;
            if (*p == ',') p++;
        }
    }
    return NULL;
}

/* 1 TCP, 2 TLS, 0 group, -1 unsupported. */
static int nettype_kind(const char *t) {
    if (strcasecmp(t, "group") == 0) return 0;
    size_t l = strlen(t);
    if (l != 8) return -1;
    const char *m = t + 2; /* past the product prefix (on, ol, dr, se) */
    if (strcasecmp(m, "soctcp") == 0 || strcasecmp(m, "tlitcp") == 0) return 1;
    if (strcasecmp(m, "socssl") == 0) return 2;
    return -1;
}

static int fill(ixc_hostent *e, char **f, int n, int kind, char *err, size_t errlen) {
    const char *host = f[2][0] == '*' ? f[2] + 1 : f[2];
    if (snprintf(e->server, sizeof e->server, "%s", f[0]) >= (int)sizeof e->server ||
        snprintf(e->host, sizeof e->host, "%s", host) >= (int)sizeof e->host) {
        snprintf(err, errlen, "sqlhosts: name too long in the entry of %s", f[0]);
        return -2;
    }
    e->tls = kind == 2;
    char k[8];
    const char *kv = option(f, n, "k", k, sizeof k);
    e->keepalive = !kv ? -1 : strcmp(kv, "0") == 0 ? 0 : 1;
    e->random_start = 0;
    const char *svc = f[3];
    char *end;
    errno = 0;
    long port = strtol(svc, &end, 10);
    if (*svc && !*end && !errno) {
        if (port < 1 || port > 65535) {
            snprintf(err, errlen, "sqlhosts: bad port %s for %s", svc, f[0]);
            return -2;
        }
    } else {
        struct servent se, *res = NULL;
        char buf[1024];
        if (getservbyname_r(svc, "tcp", &se, buf, sizeof buf, &res) != 0 || !res) {
            snprintf(err, errlen, "sqlhosts: unknown service \"%s\" for %s", svc, f[0]);
            return -2;
        }
        port = ntohs((uint16_t)res->s_port);
    }
    snprintf(e->port, sizeof e->port, "%ld", port);
    return 0;
}

int ixc_sqlhosts_lookup(const char *path, const char *server, ixc_hostent *out, int max, char *err,
                        size_t errlen) {
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(err, errlen, "cannot read the sqlhosts file %s: %s", path, strerror(errno));
        return -1;
    }
    char line[1024];
    char *f[MAXF];
    int n = 0, is_group = 0, found = 0, rc = 0;
    int random_start = 0;
    char last[128] = ""; /* the group's e= option: its last member */
    /* Pass 1: what is the name? Pass 2 (groups): collect the members. */
    while (fgets(line, sizeof line, fp)) {
        int k = split(line, f);
        if (k < 4 || strcmp(f[0], server) != 0) continue;
        int kind = nettype_kind(f[1]);
        found = 1;
        if (kind == 0) {
            is_group = 1;
            char o[64];
            random_start = option(f, k, "c", o, sizeof o) && strcmp(o, "1") == 0;
            if (option(f, k, "e", o, sizeof o)) snprintf(last, sizeof last, "%s", o);
        } else if (kind < 0) {
            snprintf(err, errlen,
                     "sqlhosts: nettype %s of %s is not supported (use onsoctcp or "
                     "onsocssl)",
                     f[1], server);
            rc = -2;
        } else if (max > 0) {
            rc = fill(&out[0], f, k, kind, err, errlen);
            if (rc == 0) n = 1;
        }
        break;
    }
    if (found && is_group) {
        rewind(fp);
        int skipped = 0;
        char why[256] = "";
        while (n < max && fgets(line, sizeof line, fp)) {
            int k = split(line, f);
            char g[128];
            if (k < 4 || !option(f, k, "g", g, sizeof g) || strcmp(g, server) != 0) continue;
            int kind = nettype_kind(f[1]);
            int is_last = last[0] && strcmp(f[0], last) == 0;
            if (kind <= 0 || fill(&out[n], f, k, kind, why, sizeof why) != 0) {
                /* A member we cannot use (shared memory, ...) is passed over. */
                if (!why[0])
                    snprintf(why, sizeof why, "sqlhosts: nettype %s of %s is not supported", f[1],
                             f[0]);
                skipped++;
                if (is_last) break;
                continue;
            }
            out[n].random_start = random_start;
            n++;
            if (is_last) break;
        }
        if (n == 0) {
            if (skipped)
                snprintf(err, errlen, "%s", why);
            else
                snprintf(err, errlen, "sqlhosts: group %s has no members", server);
            rc = -2;
        }
    }
    fclose(fp);
    if (rc < 0) return rc;
    if (!found) snprintf(err, errlen, "%s " IXC_MSG_NOT_IN_SQLHOSTS " %s", server, path);
    return n;
}
