/*
 * ixd: an Informix-compatible server backed by SQLite.
 *
 *   ixd --data DIR [--listen HOST:PORT] [--server-name NAME] [--users FILE]
 *       [--tls-cert F --tls-key F] [--verbose] [--port-file F]
 *       [--max-message BYTES] [--max-columns N] [--max-reply BYTES]
 *       [--login-timeout SECONDS] [--idle-timeout SECONDS] [--max-connections N]
 *       [--load-dir DIR]   (the only files oni_ts_write_file may read)
 *   ixd --make-user NAME        (reads the password from standard input and
 *                                prints a users-file line)
 */
#include <errno.h>
#include <sys/stat.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_server.h"
#include "proto/ix_login.h"
#include "server/ts/ts.h"

/* A whole decimal number in [lo, hi] into *out; 0, or -1 if v is not one. */
static int parse_num(const char *v, long long lo, long long hi, long long *out) {
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

static int usage(void) {
    fprintf(stderr, "usage: ixd --data DIR [--listen HOST:PORT] [--server-name NAME] "
                    "[--users FILE]\n"
                    "           [--tls-cert FILE --tls-key FILE] [--verbose] [--port-file FILE]\n"
                    "           [--max-message BYTES] [--max-columns N] [--max-reply BYTES]\n"
                    "           [--login-timeout SECONDS] [--idle-timeout SECONDS]\n"
                    "           [--max-connections N] [--load-dir DIR]\n"
                    "       ixd --make-user NAME   (password on standard input)\n");
    return 2;
}

int main(int argc, char **argv) {
    ixd_server srv = {0};
    ixd_listen_opts lo = {.login_timeout = IXD_LOGIN_TIMEOUT};
    long long num;
    const char *users = NULL, *listen_at = "127.0.0.1:9088";
    srv.server_name = "ixd";
    /* The one banner: the login accept carries it and the engine reports it
     * in DBINFO('version', ...). */
    srv.banner = IX_LOGIN_DEFAULT_BANNER;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (strcmp(a, "--make-user") == 0 && v) {
            char pw[256];
            if (!fgets(pw, sizeof pw, stdin)) return usage();
            pw[strcspn(pw, "\r\n")] = 0;
            char line[512];
            if (ixd_users_make_line(v, pw, line, sizeof line)) return 1;
            printf("%s\n", line);
            return 0;
        } else if (strcmp(a, "--data") == 0 && v) {
            srv.data_dir = v, i++;
        } else if (strcmp(a, "--listen") == 0 && v) {
            listen_at = v, i++;
        } else if (strcmp(a, "--server-name") == 0 && v) {
            srv.server_name = v, i++;
        } else if (strcmp(a, "--users") == 0 && v) {
            users = v, i++;
        } else if (strcmp(a, "--tls-cert") == 0 && v) {
            lo.tls_cert = v, i++;
        } else if (strcmp(a, "--tls-key") == 0 && v) {
            lo.tls_key = v, i++;
        } else if (strcmp(a, "--port-file") == 0 && v) {
            lo.port_file = v, i++;
        } else if (strcmp(a, "--max-message") == 0 && v) {
            /* the largest SQL text, bind value or undecoded input accepted */
            long long m = atoll(v);
            if (m < 1024 || m > (1LL << 30)) return usage();
            srv.limits.max_sql = srv.limits.max_value = srv.limits.max_tuple = (uint32_t)m;
            srv.max_buffer = (size_t)m + 65536;
            i++;
        } else if (strcmp(a, "--max-columns") == 0 && v) {
            long n = atol(v);
            if (n < 1 || n > 32767) return usage();
            srv.limits.max_columns = (uint32_t)n;
            i++;
        } else if (strcmp(a, "--max-reply") == 0 && v) {
            if (parse_num(v, 1024, 1LL << 30, &num)) return usage();
            srv.max_reply = (size_t)num, i++;
        } else if (strcmp(a, "--login-timeout") == 0 && v) {
            if (parse_num(v, 0, 86400, &num)) return usage();
            lo.login_timeout = (int)num, i++;
        } else if (strcmp(a, "--idle-timeout") == 0 && v) {
            if (parse_num(v, 0, INT_MAX / 1000, &num)) return usage();
            lo.idle_timeout = (int)num, i++;
        } else if (strcmp(a, "--max-connections") == 0 && v) {
            if (parse_num(v, 1, 1 << 20, &num)) return usage();
            lo.max_connections = (int)num, i++;
        } else if (strcmp(a, "--load-dir") == 0 && v) {
            struct stat st;
            if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) {
                fprintf(stderr, "ixd: --load-dir %s: not a directory\n", v);
                return 2;
            }
            ts_set_load_dir(v);
            i++;
        } else if (strcmp(a, "--redirect") == 0 && v && ixd_redirect_valid(v)) {
            srv.redirect = v, i++;
        } else if (strcmp(a, "--verbose") == 0) {
            srv.verbose = 1;
        } else {
            return usage();
        }
    }
    if (!srv.data_dir || (!lo.tls_cert) != (!lo.tls_key)) return usage();
    /* HOST:PORT, [V6]:PORT or PORT. */
    static char host[256];
    const char *colon = strrchr(listen_at, ':');
    if (colon) {
        const char *h = listen_at;
        size_t hl = (size_t)(colon - listen_at);
        if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') h++, hl -= 2;
        if (hl >= sizeof host) return usage();
        memcpy(host, h, hl);
        host[hl] = 0;
        lo.host = host[0] ? host : NULL;
        lo.port = atoi(colon + 1);
    } else {
        lo.port = atoi(listen_at);
    }
    if (lo.port < 0 || lo.port > 65535) return usage();
    pthread_mutex_init(&srv.log_lock, NULL);
    char err[256];
    if (ixd_users_load(&srv.users, users, err, sizeof err) != 0) {
        fprintf(stderr, "ixd: %s\n", err);
        return 1;
    }
    srv.throttle = ixd_throttle_new();
    ixd_err e = {0};
    if (!srv.throttle || ixd_engine_open(&srv.engine, srv.data_dir, &e) != 0) {
        fprintf(stderr, "ixd: cannot open data directory %s: %d %s %s\n", srv.data_dir, e.sqlcode,
                ixd_errtext(e.sqlcode), e.text);
        ixd_throttle_free(srv.throttle);
        ixd_users_free(srv.users);
        return 1;
    }
    if (ixd_engine_set_banner(srv.engine, srv.banner) != 0 ||
        ixd_engine_set_server_name(srv.engine, srv.server_name) != 0) {
        fprintf(stderr, "ixd: out of memory\n");
        ixd_engine_close(srv.engine);
        ixd_users_free(srv.users);
        return 1;
    }
    int rc = ixd_listen_run(&srv, &lo);
    ixd_engine_close(srv.engine);
    ixd_throttle_free(srv.throttle);
    ixd_users_free(srv.users);
    return rc == 0 ? 0 : 1;
}
