/*
 * ixd: an Informix-compatible server backed by SQLite.
 *
 *   ixd [--config FILE] --data DIR [options]     (ixd --help lists them)
 *   ixd --make-user NAME        (reads the password from standard input and
 *                                prints a users-file line)
 *
 * Options come from getopt_long; a configuration file (--config) takes the
 * same names as keys, one `key = value` a line, and the command line
 * overrides it. Exit status: 0 after a clean shutdown, 1 when the server
 * cannot start, 2 for a bad command line or configuration file, 3 when the
 * data directory is in use by another ixd (docs/server.md "Operation").
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ixd_server.h"
#include "proto/ix_login.h"

#define EXIT_USAGE     2
#define EXIT_IN_USE    3
#define CONFIG_MAX     (1 << 20) /* the largest configuration file read */
#define DEFAULT_LISTEN "127.0.0.1:9088"

/* Long options without a letter (one a line). Those from OPT_DATA on are
 * also the keys of a configuration file: a new option goes at the end. */
enum {
    OPT_CONFIG = 256,
    OPT_MAKE_USER,
    OPT_DATA,
    OPT_LISTEN,
    OPT_SERVER_NAME,
    OPT_USERS,
    OPT_TLS_CERT,
    OPT_TLS_KEY,
    OPT_VERBOSE,
    OPT_PORT_FILE,
    OPT_MAX_MESSAGE,
    OPT_MAX_COLUMNS,
    OPT_MAX_REPLY,
    OPT_LOGIN_TIMEOUT,
    OPT_IDLE_TIMEOUT,
    OPT_MAX_CONNECTIONS,
    OPT_LOAD_DIR,
    OPT_LOB_DIR,
    OPT_LOG_FILE,
    OPT_LOG_FORMAT,
    OPT_REDIRECT,
    OPT_STRICT,
    OPT_SERVER_ALIASES,
};

/* Every option (one a line). */
static const struct option long_opts[] = {
    {"data", required_argument, NULL, OPT_DATA},
    {"listen", required_argument, NULL, OPT_LISTEN},
    {"server-name", required_argument, NULL, OPT_SERVER_NAME},
    {"users", required_argument, NULL, OPT_USERS},
    {"tls-cert", required_argument, NULL, OPT_TLS_CERT},
    {"tls-key", required_argument, NULL, OPT_TLS_KEY},
    {"verbose", no_argument, NULL, OPT_VERBOSE},
    {"port-file", required_argument, NULL, OPT_PORT_FILE},
    {"max-message", required_argument, NULL, OPT_MAX_MESSAGE},
    {"max-columns", required_argument, NULL, OPT_MAX_COLUMNS},
    {"max-reply", required_argument, NULL, OPT_MAX_REPLY},
    {"login-timeout", required_argument, NULL, OPT_LOGIN_TIMEOUT},
    {"idle-timeout", required_argument, NULL, OPT_IDLE_TIMEOUT},
    {"max-connections", required_argument, NULL, OPT_MAX_CONNECTIONS},
    {"load-dir", required_argument, NULL, OPT_LOAD_DIR},
    {"lob-dir", required_argument, NULL, OPT_LOB_DIR},
    {"log-file", required_argument, NULL, OPT_LOG_FILE},
    {"log-format", required_argument, NULL, OPT_LOG_FORMAT},
    {"redirect", required_argument, NULL, OPT_REDIRECT},
    {"strict", no_argument, NULL, OPT_STRICT},
    {"server-aliases", required_argument, NULL, OPT_SERVER_ALIASES},
    {"config", required_argument, NULL, OPT_CONFIG},
    {"make-user", required_argument, NULL, OPT_MAKE_USER},
    {"version", no_argument, NULL, 'V'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
static const char short_opts[] = "hV";

/* What the options set. */
typedef struct ixd_cfg {
    ixd_server srv;
    ixd_listen_opts lo;
    const char *users, *listen_at, *log_file, *config;
    const char *aliases; /* --server-aliases: DBSERVERALIASES */
    ixd_log_format log_format;
    char *config_text; /* the configuration file; its values point into it */
} ixd_cfg;

static void usage(FILE *f) {
    fputs("usage: ixd [--config FILE] --data DIR [options]\n"
          "       ixd --make-user NAME   (the password on standard input)\n"
          "\n"
          "options:\n"
          "      --data=DIR              the data directory (created if missing)\n"
          "      --listen=HOST:PORT      where to listen (default " DEFAULT_LISTEN "; port 0:\n"
          "                              any free port)\n"
          "      --server-name=NAME      DBSERVERNAME (default ixd)\n"
          "      --server-aliases=A,B    other names the server answers to (DBSERVERALIASES)\n"
          "      --users=FILE            users file (name:salt:hash lines)\n"
          "      --tls-cert=FILE         TLS certificate chain (PEM), with --tls-key\n"
          "      --tls-key=FILE          TLS private key (PEM)\n"
          "      --verbose               log every message in both directions\n"
          "      --port-file=FILE        write the bound port there once listening\n"
          "      --max-message=BYTES     largest SQL text, value or input (1024..2^30)\n"
          "      --max-columns=N         most columns or bind values a message (1..32767)\n"
          "      --max-reply=BYTES       most tuple bytes in one fetch reply (1024..2^30)\n"
          "      --login-timeout=SECONDS time to complete a login (default 10; 0: none)\n"
          "      --idle-timeout=SECONDS  time a session may wait on its client (0: none)\n"
          "      --max-connections=N     sessions at once (default sized for the machine)\n"
          "      --load-dir=DIR          the only directory oni_ts_write_file reads\n"
          "      --lob-dir=DIR           the only directory FILETOBLOB/LOTOFILE use\n"
          "      --log-file=FILE         log there instead of standard error; SIGHUP\n"
          "                              reopens it\n"
          "      --log-format=FMT        text (the default) or json (an object a line)\n"
          "      --redirect=[NAME@]HOST:PORT  answer every login with a redirect there\n"
          "                              (as Connection Manager does)\n"
          "      --strict                answer as a conservative real Informix server:\n"
          "                              no ixd-only request forms (for client tests)\n"
          "      --config=FILE           read options from FILE (key = value lines, keys\n"
          "                              as the long options; the command line wins)\n"
          "      --make-user=NAME        print a users-file line for NAME and exit\n"
          "  -V, --version               print the version and exit\n"
          "  -h, --help                  print this help and exit\n"
          "\n"
          "Exit status: 0 after a clean shutdown (SIGTERM, SIGINT), 1 when the server\n"
          "cannot start, 2 for a bad command line or configuration file, 3 when another\n"
          "ixd holds the data directory.\n",
          f);
}

static int try_help(void) {
    fputs("Try 'ixd --help' for more information.\n", stderr);
    return EXIT_USAGE;
}

/* A whole decimal number in [lo, hi] into *out; 0, or -1 if v is not one. */
static int parse_num(const char *v, long long lo, long long hi, long long *out) {
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 10);
    if (errno || end == v || *end || x < lo || x > hi) return -1;
    *out = x;
    return 0;
}

/* A configuration file's yes/no (a flag on the command line is 1). */
static int parse_bool(const char *v) {
    static const char *const yes[] = {"1", "yes", "true", "on"}, *const no[] = {"0", "no", "false",
                                                                                "off"};
    for (size_t i = 0; i < 4; i++) {
        if (strcmp(v, yes[i]) == 0) return 1;
        if (strcmp(v, no[i]) == 0) return 0;
    }
    return -1;
}

static int bad_value(const char *where, const char *v, const char *want) {
    fprintf(stderr, "ixd: %s: '%s' is not %s\n", where, v, want);
    return EXIT_USAGE;
}

/* Sets one number option; 0 or EXIT_USAGE. */
static int apply_num(ixd_cfg *c, int id, const char *v, const char *where) {
    long long n;
    switch (id) {
    case OPT_MAX_MESSAGE: /* the largest SQL text, bind value or undecoded input */
        if (parse_num(v, 1024, 1LL << 30, &n)) return bad_value(where, v, "in 1024..2^30");
        c->srv.limits.max_sql = c->srv.limits.max_value = c->srv.limits.max_tuple = (uint32_t)n;
        c->srv.max_buffer = (size_t)n + 65536;
        return 0;
    case OPT_MAX_COLUMNS:
        if (parse_num(v, 1, 32767, &n)) return bad_value(where, v, "in 1..32767");
        c->srv.limits.max_columns = (uint32_t)n;
        return 0;
    case OPT_MAX_REPLY:
        if (parse_num(v, 1024, 1LL << 30, &n)) return bad_value(where, v, "in 1024..2^30");
        c->srv.max_reply = (size_t)n;
        return 0;
    case OPT_LOGIN_TIMEOUT:
        if (parse_num(v, 0, 86400, &n)) return bad_value(where, v, "a number of seconds");
        c->lo.login_timeout = (int)n;
        return 0;
    case OPT_IDLE_TIMEOUT:
        if (parse_num(v, 0, INT_MAX / 1000, &n)) return bad_value(where, v, "a number of seconds");
        c->lo.idle_timeout = (int)n;
        return 0;
    case OPT_MAX_CONNECTIONS:
        if (parse_num(v, 1, 1 << 20, &n)) return bad_value(where, v, "in 1..2^20");
        c->lo.max_connections = (int)n;
        return 0;
    }
    return EXIT_USAGE;
}

/* Sets option id to v (NULL: a flag given on the command line). where names
 * it in messages ("--data", "FILE:LINE"). Returns 0 or EXIT_USAGE. */
static int apply(ixd_cfg *c, int id, const char *v, const char *where) {
    struct stat st;
    int b;
    switch (id) {
    case OPT_DATA: c->srv.data_dir = v; break;
    case OPT_LISTEN: c->listen_at = v; break;
    case OPT_SERVER_NAME: c->srv.server_name = v; break;
    case OPT_SERVER_ALIASES: c->aliases = v; break;
    case OPT_USERS: c->users = v; break;
    case OPT_TLS_CERT: c->lo.tls_cert = v; break;
    case OPT_TLS_KEY: c->lo.tls_key = v; break;
    case OPT_PORT_FILE: c->lo.port_file = v; break;
    case OPT_LOG_FILE: c->log_file = v; break;
    case OPT_VERBOSE:
        if ((b = v ? parse_bool(v) : 1) < 0) return bad_value(where, v, "yes or no");
        c->srv.verbose = b;
        break;
    case OPT_STRICT:
        if ((b = v ? parse_bool(v) : 1) < 0) return bad_value(where, v, "yes or no");
        c->srv.strict = b;
        break;
    case OPT_LOG_FORMAT:
        if (ixd_log_format_parse(v, &c->log_format)) return bad_value(where, v, "text or json");
        break;
    case OPT_REDIRECT:
        if (!ixd_redirect_valid(v)) return bad_value(where, v, "[NAME@]HOST:PORT");
        c->srv.redirect = v;
        break;
    case OPT_LOAD_DIR:
        if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) return bad_value(where, v, "a directory");
        ixd_set_load_dir(v);
        break;
    case OPT_LOB_DIR:
        if (stat(v, &st) != 0 || !S_ISDIR(st.st_mode)) return bad_value(where, v, "a directory");
        ixd_set_lob_dir(v);
        break;
    default: return apply_num(c, id, v, where);
    }
    return 0;
}

/* The option a configuration key names (OPT_DATA and after), or NULL. */
static const struct option *config_key(const char *key) {
    for (const struct option *o = long_opts; o->name; o++)
        if (o->val >= OPT_DATA && strcmp(o->name, key) == 0) return o;
    return NULL;
}

static char *trim(char *s) {
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t' || s[n - 1] == '\r'))
        s[--n] = 0;
    return s;
}

/* Reads path whole into a NUL-terminated buffer; NULL with a message. */
static char *read_file(const char *path) {
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "ixd: cannot read configuration file %s: %s\n", path, strerror(errno));
        return NULL;
    }
    char *buf = malloc(CONFIG_MAX + 1);
    size_t n = buf ? fread(buf, 1, CONFIG_MAX + 1, f) : 0;
    int err = ferror(f);
    fclose(f);
    if (!buf || err || n > CONFIG_MAX) {
        fprintf(stderr, "ixd: %s: %s\n", path,
                !buf  ? "out of memory"
                : err ? "read error"
                      : "larger than 1 MiB");
        free(buf);
        return NULL;
    }
    buf[n] = 0;
    return buf;
}

/* The configuration file: `key = value` lines, blank lines and lines whose
 * first non-blank is # ignored. Returns 0, 1 or EXIT_USAGE. */
static int load_config(ixd_cfg *c, const char *path) {
    if (!(c->config_text = read_file(path))) return 1;
    char where[4200];
    int lineno = 0;
    for (char *line = c->config_text, *next; line; line = next) {
        next = strchr(line, '\n');
        if (next) *next++ = 0;
        lineno++;
        snprintf(where, sizeof where, "%s:%d", path, lineno);
        char *s = trim(line);
        if (!*s || *s == '#') continue;
        char *eq = strchr(s, '=');
        if (!eq) return fprintf(stderr, "ixd: %s: expected key = value\n", where), EXIT_USAGE;
        *eq = 0;
        char *key = trim(s), *val = trim(eq + 1);
        const struct option *o = config_key(key);
        if (!o) return fprintf(stderr, "ixd: %s: unknown key '%s'\n", where, key), EXIT_USAGE;
        if (!*val) return fprintf(stderr, "ixd: %s: '%s' needs a value\n", where, key), EXIT_USAGE;
        int rc = apply(c, o->val, val, where);
        if (rc) return rc;
    }
    return 0;
}

/* --make-user NAME: a users-file line on standard output. */
static int make_user(const char *name) {
    char pw[256], line[512];
    if (!fgets(pw, sizeof pw, stdin)) {
        fputs("ixd: --make-user: no password on standard input\n", stderr);
        return EXIT_USAGE;
    }
    pw[strcspn(pw, "\r\n")] = 0;
    if (ixd_users_make_line(name, pw, line, sizeof line)) return 1;
    printf("%s\n", line);
    return 0;
}

/* First pass: --help, --version and --config only (errors wait for the
 * second). Returns -1 to go on, else the exit status. */
static int first_pass(ixd_cfg *c, int argc, char **argv) {
    int opt;
    opterr = 0;
    while ((opt = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
        if (opt == 'h') return usage(stdout), 0;
        if (opt == 'V') return printf("ixd %s\n", IXDB_VERSION_STRING), 0;
        if (opt == OPT_CONFIG) c->config = optarg;
    }
    return -1;
}

/* Second pass: every option, over the configuration file's values. */
static int second_pass(ixd_cfg *c, int argc, char **argv) {
    int opt;
    char where[64];
    optind = 0; /* glibc: start over */
    opterr = 1;
    while ((opt = getopt_long(argc, argv, short_opts, long_opts, NULL)) != -1) {
        if (opt == '?' || opt == ':') return try_help(); /* getopt said why */
        if (opt == OPT_CONFIG) continue;
        if (opt == OPT_MAKE_USER) return make_user(optarg);
        for (const struct option *o = long_opts; o->name; o++)
            if (o->val == opt) snprintf(where, sizeof where, "--%s", o->name);
        int rc = apply(c, opt, optarg, where);
        if (rc) return rc;
    }
    if (optind < argc) {
        fprintf(stderr, "ixd: unexpected argument '%s'\n", argv[optind]);
        return try_help();
    }
    if (!c->srv.data_dir) return fputs("ixd: --data DIR is required\n", stderr), EXIT_USAGE;
    if (!c->lo.tls_cert != !c->lo.tls_key) {
        fputs("ixd: --tls-cert and --tls-key go together\n", stderr);
        return EXIT_USAGE;
    }
    return -1;
}

/* HOST:PORT, [V6]:PORT or PORT into c->lo; 0 or EXIT_USAGE. */
static int parse_listen(ixd_cfg *c) {
    static char host[256];
    const char *at = c->listen_at, *colon = strrchr(at, ':'), *port = colon ? colon + 1 : at;
    if (colon) {
        const char *h = at;
        size_t hl = (size_t)(colon - at);
        if (hl >= 2 && h[0] == '[' && h[hl - 1] == ']') h++, hl -= 2;
        if (hl >= sizeof host) return bad_value("--listen", at, "HOST:PORT");
        memcpy(host, h, hl);
        host[hl] = 0;
        c->lo.host = host[0] ? host : NULL;
    }
    long long n;
    if (parse_num(port, 0, 65535, &n)) return bad_value("--listen", at, "HOST:PORT");
    c->lo.port = (int)n;
    return 0;
}

static void on_sighup(int sig) {
    (void)sig;
    ixd_log_reopen_request();
}

/* Opens the engine and serves; the exit status. */
static int serve(ixd_cfg *c) {
    ixd_server *srv = &c->srv;
    char err[4200];
    if (ixd_users_load(&srv->users, c->users, err, sizeof err) != 0) {
        fprintf(stderr, "ixd: %s\n", err);
        return 1;
    }
    srv->throttle = ixd_throttle_new();
    ixv_err e = {0};
    int rc = 1;
    if (!srv->throttle || ixd_engine_open(&srv->engine, srv->data_dir, &e) != 0) {
        char msg[512];
        ixd_msg_fill(msg, sizeof msg, ixv_errtext(e.sqlcode), e.text);
        fprintf(stderr, "ixd: cannot open data directory %s: %d %s\n", srv->data_dir, e.sqlcode,
                msg);
    } else if (ixd_engine_set_banner(srv->engine, srv->banner) != 0 ||
               ixd_engine_set_server_name(srv->engine, srv->server_name) != 0 ||
               ixd_engine_set_server_aliases(srv->engine, c->aliases) != 0) {
        fprintf(stderr, "ixd: out of memory\n");
    } else if (ixd_log_open(c->log_file, c->log_format, err, sizeof err) != 0) {
        fprintf(stderr, "ixd: %s\n", err);
    } else {
        struct sigaction sa = {0};
        sa.sa_handler = on_sighup;
        sigaction(SIGHUP, &sa, NULL);
        rc = ixd_listen_run(srv, &c->lo) == 0 ? 0 : 1;
        ixd_log_close();
    }
    ixd_engine_close(srv->engine);
    ixd_throttle_free(srv->throttle);
    ixd_users_free(srv->users);
    return rc;
}

static int run(ixd_cfg *c, int argc, char **argv) {
    int rc = first_pass(c, argc, argv);
    if (rc >= 0) return rc;
    if (c->config && (rc = load_config(c, c->config)) != 0) return rc;
    if ((rc = second_pass(c, argc, argv)) >= 0) return rc;
    if ((rc = parse_listen(c)) != 0) return rc;
    char err[4200];
    int lock_fd = ixd_lock_data_dir(c->srv.data_dir, err, sizeof err);
    if (lock_fd < 0) {
        fprintf(stderr, "ixd: %s\n", err);
        return lock_fd == IXD_LOCK_BUSY ? EXIT_IN_USE : 1;
    }
    pthread_mutex_init(&c->srv.log_lock, NULL);
    rc = serve(c);
    close(lock_fd);
    return rc;
}

int main(int argc, char **argv) {
    ixd_cfg c = {.lo = {.login_timeout = IXD_LOGIN_TIMEOUT}, .listen_at = DEFAULT_LISTEN};
    c.srv.server_name = "ixd";
    /* The one banner: the login accept carries it and the engine reports it
     * in DBINFO('version', ...). */
    c.srv.banner = IXP_LOGIN_DEFAULT_BANNER;
    int rc = run(&c, argc, argv);
    free(c.config_text);
    return rc;
}
