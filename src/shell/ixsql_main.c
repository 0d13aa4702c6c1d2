/*
 * ixsql_main.c: the command line of ixsql and the splitting of its input
 * into statements (with ix_complete, the library's "is this statement
 * complete?").
 *
 *   ixsql [DSN] [-e SQL]... [-f FILE]...      statements from -e / -f, in order
 *   ixsql [DSN] [FILE | -]                    a script, or stdin (the default)
 *
 * DSN is an informix:// URL, a keyword string ("host=... port=..."), or a
 * bare database name (as dbaccess takes one). Without it ix_connect uses
 * the library's defaults and environment. Exit status: 0 when every
 * statement worked, 1 when a statement or the connection failed, 2 for a
 * usage error.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ixsql.h"

/*
 * Ctrl-C (SIGINT) never ends the shell. While a statement runs it asks the
 * server to stop it (ix_cancel, async-signal-safe): the statement ends with
 * -213 "Statement interrupted by user." and what remained of the input
 * already read (the rest of a pasted line) is dropped. At the prompt it
 * drops the statement being typed. Reading a script that is not a terminal,
 * an interrupt also ends the script (as after a fatal error); interactive
 * input goes on with the next line.
 */
static ix_conn *volatile interrupt_conn;
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig) {
    (void)sig;
    interrupted = 1;
    ix_conn *c = interrupt_conn;
    if (c) ix_cancel(c);
}

static void catch_sigint(void) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_sigint;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0; /* no SA_RESTART: a read at the prompt returns EINTR */
    sigaction(SIGINT, &sa, NULL);
}

typedef struct script {
    char *buf; /* text from the start of the line holding buf[pos] */
    size_t len, cap;
    size_t pos;    /* first byte not yet run */
    int base_line; /* line number of buf[0] */
} script;

typedef struct shell {
    ix_conn *conn;
    int failures;
    int dead;
} shell;

/* Line and column of buf[at]. */
static ixsql_pos pos_of(const script *sc, size_t at) {
    ixsql_pos p = {sc->base_line, 1};
    for (size_t i = 0; i < at; i++) {
        if (sc->buf[i] == '\n') {
            p.line++;
            p.col = 1;
        } else {
            p.col++;
        }
    }
    return p;
}

/* Runs buf[from, to) (to excludes the ';') unless it is only blanks and
 * comments. */
static void run_text(shell *sh, script *sc, size_t from, size_t to) {
    const char *start = ixsql_skip_trivia(sc->buf + from, sc->buf + to);
    const char *end = sc->buf + to;
    while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
        end--;
    if (start == end || sh->dead) return;
    int rc =
        ixsql_run(sh->conn, start, (size_t)(end - start), pos_of(sc, (size_t)(start - sc->buf)));
    if (rc != IXSQL_OK) sh->failures++;
    if (rc == IXSQL_FATAL) sh->dead = 1;
}

/* Runs every complete statement in the unread text. */
static void run_complete(shell *sh, script *sc) {
    while (!sh->dead && !interrupted && ix_complete(sc->buf + sc->pos, sc->len - sc->pos)) {
        size_t end = sc->pos;
        /* The first ';' that completes the text is the statement's end. */
        for (size_t k = sc->pos; k < sc->len; k++) {
            if (sc->buf[k] == ';' && ix_complete(sc->buf + sc->pos, k + 1 - sc->pos)) {
                end = k;
                break;
            }
        }
        run_text(sh, sc, sc->pos, end);
        sc->pos = end + 1;
    }
}

/* Forgets the lines that have been run completely. */
static void compact(script *sc) {
    size_t cut = 0;
    for (size_t i = 0; i < sc->pos; i++)
        if (sc->buf[i] == '\n') {
            cut = i + 1;
            sc->base_line++;
        }
    memmove(sc->buf, sc->buf + cut, sc->len - cut);
    sc->len -= cut;
    sc->pos -= cut;
}

static int append(script *sc, const char *s, size_t n) {
    if (sc->len + n + 1 > sc->cap) {
        size_t cap = sc->cap ? sc->cap : 4096;
        while (cap < sc->len + n + 1)
            cap *= 2;
        char *b = realloc(sc->buf, cap);
        if (!b) return -1;
        sc->buf = b;
        sc->cap = cap;
    }
    memcpy(sc->buf + sc->len, s, n);
    sc->len += n;
    sc->buf[sc->len] = 0;
    return 0;
}

static void oom(shell *sh) {
    fflush(stdout);
    fprintf(stderr, "\nixsql: out of memory\n");
    sh->failures++;
    sh->dead = 1;
}

/* Runs a whole text (one -e argument). */
static void run_string(shell *sh, const char *text) {
    script sc = {NULL, 0, 0, 0, 1};
    if (append(&sc, text, strlen(text)) != 0) {
        oom(sh);
        return;
    }
    run_complete(sh, &sc);
    if (!interrupted) run_text(sh, &sc, sc.pos, sc.len); /* the last one needs no ';' */
    free(sc.buf);
}

/* Runs a script read line by line (statements run as soon as they are
 * complete, so that a pipe works interactively). */
static void run_stream(shell *sh, FILE *in) {
    script sc = {NULL, 0, 0, 0, 1};
    char *line = NULL;
    size_t lcap = 0;
    ssize_t n;
    int tty = isatty(fileno(in));
    for (;;) {
        interrupted = 0;
        errno = 0;
        n = sh->dead ? -1 : getline(&line, &lcap, in);
        if (n < 0 && interrupted && errno == EINTR) { /* Ctrl-C at the prompt */
            clearerr(in);
            sc.len = sc.pos = 0; /* the statement being typed is dropped */
            fputc('\n', stderr);
            continue;
        }
        if (n <= 0) break;
        if (append(&sc, line, (size_t)n) != 0) {
            oom(sh);
            break;
        }
        run_complete(sh, &sc);
        if (interrupted) {
            sc.pos = sc.len; /* the rest of what was read is dropped */
            if (!tty) break;
        }
        compact(&sc);
    }
    if (!sh->dead && !interrupted) run_text(sh, &sc, sc.pos, sc.len);
    free(line);
    free(sc.buf);
}

static void usage(FILE *f) {
    fputs("usage: ixsql [DSN] [-e SQL]... [-f FILE]...\n"
          "       ixsql [DSN] [FILE | -]\n"
          "DSN: informix://user:password@host:port/database, \"host=h port=p database=d"
          " ...\",\n"
          "     or a database name; default: the library's defaults ($USER,"
          " $INFORMIXSERVER, ...)\n",
          f);
}

enum { JOB_SQL, JOB_FILE };
typedef struct job {
    int kind;
    const char *arg;
} job;

int main(int argc, char **argv) {
    job *jobs = calloc((size_t)argc + 1, sizeof *jobs);
    int njobs = 0;
    const char *dsn = NULL, *file = NULL;
    if (!jobs) return 1;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((strcmp(a, "-e") == 0 || strcmp(a, "-f") == 0) && i + 1 < argc) {
            jobs[njobs].kind = a[1] == 'e' ? JOB_SQL : JOB_FILE;
            jobs[njobs++].arg = argv[++i];
        } else if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            usage(stdout);
            free(jobs);
            return 0;
        } else if (strcmp(a, "-V") == 0 || strcmp(a, "--version") == 0) {
            printf("ixsql %s\n", IXDB_VERSION_STRING);
            free(jobs);
            return 0;
        } else if (a[0] == '-' && a[1] != 0) {
            fprintf(stderr, "ixsql: unknown option or missing argument: %s\n", a);
            usage(stderr);
            free(jobs);
            return 2;
        } else if (!dsn) {
            dsn = a;
        } else if (!file) {
            file = a;
        } else {
            usage(stderr);
            free(jobs);
            return 2;
        }
    }
    if (file && njobs) {
        fprintf(stderr, "ixsql: a script file goes with neither -e nor -f\n");
        free(jobs);
        return 2;
    }
    if (file) {
        jobs[njobs].kind = JOB_FILE;
        jobs[njobs++].arg = file;
    }
    if (njobs == 0) {
        jobs[njobs].kind = JOB_FILE;
        jobs[njobs++].arg = "-";
    }

    /* A bare database name, as dbaccess takes it. */
    char *owned = NULL;
    if (dsn && strcmp(dsn, "-") == 0 && !file) { /* "ixsql -": stdin, default DSN */
        dsn = NULL;
    }
    if (dsn && !strstr(dsn, "://") && !strchr(dsn, '=')) {
        size_t n = strlen(dsn) + sizeof "database=";
        owned = malloc(n);
        if (!owned) {
            free(jobs);
            return 1;
        }
        snprintf(owned, n, "database=%s", dsn);
        dsn = owned;
    }

    shell sh = {NULL, 0, 0};
    int rc = ix_connect(&sh.conn, dsn ? dsn : "");
    free(owned);
    if (rc != IX_OK) {
        ixsql_print_error(sh.conn, NULL, 0, (ixsql_pos){0, 0});
        ix_close(sh.conn);
        free(jobs);
        return 1;
    }
    interrupt_conn = sh.conn;
    catch_sigint();
    for (int j = 0; j < njobs && !sh.dead && !interrupted; j++) {
        if (jobs[j].kind == JOB_SQL) {
            run_string(&sh, jobs[j].arg);
        } else if (strcmp(jobs[j].arg, "-") == 0) {
            run_stream(&sh, stdin);
        } else {
            FILE *f = fopen(jobs[j].arg, "r");
            if (!f) {
                fflush(stdout);
                fprintf(stderr, "\nixsql: cannot open %s\n", jobs[j].arg);
                sh.failures++;
                continue;
            }
            run_stream(&sh, f);
            fclose(f);
        }
    }
    interrupt_conn = NULL;
    ix_close(sh.conn);
    free(jobs);
    fflush(stdout);
    return sh.failures ? 1 : 0;
}
