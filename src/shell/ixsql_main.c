/*
 * ixsql_main.c: the command line of ixsql and the splitting of its input
 * into statements (with ix_complete, the library's "is this statement
 * complete?").
 *
 *   ixsql [options] [database[@server] | DSN | -] [file.sql | -]
 *
 * (the options in ixsql_cli.c, the DSN and password in ixsql_dsn.c, the
 * interactive prompt in ixsql_tty.c). Exit status: the number of failed
 * statements (a failed connection or an unreadable script counts as one),
 * at most IXSQL_EXIT_MAX_FAILED; IXSQL_EXIT_USAGE for a bad command line.
 */
#include <errno.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ixsql.h"

/*
 * Ctrl-C (SIGINT) never ends the shell. While a statement runs it asks the
 * server to stop it (ix_cancel, async-signal-safe): the statement ends with
 * -213 "Statement interrupted by user." (ixd), or, on a server not known to
 * take an interrupt, ix_cancel closes the connection and an interactive
 * shell connects again to the same database; what remained of the input
 * already read (the rest of a pasted line) is dropped. At the prompt it
 * drops the statement being typed. Reading a script that is not a terminal,
 * an interrupt also ends the script (as after a fatal error); interactive
 * input goes on with the next line.
 */
static ix_conn *volatile interrupt_conn;
volatile sig_atomic_t ixsql_interrupted;

static void on_sigint(int sig) {
    (void)sig;
    ixsql_interrupted = 1;
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
    int failures;
    int dead;
    int interactive;  /* reading the terminal: -a does not apply */
    int script;       /* reading a script (file or pipe): failures are named */
    const char *file; /* the \i file being read (NULL: the command line's input) */
    int depth;        /* how many \i files this one is nested in */
} shell;

enum { MAX_INCLUDE_DEPTH = 16 };

ixsql_session ixsql_sess;

/* What \i and \e work on: the shell and the input being read, and the last
 * statement run (as typed, before :name substitution; malloc'd). */
static shell *cur_shell;
static script *cur_script;
static char *last_sql;

static void remember(const char *sql, size_t len) {
    char *t = malloc(len + 1);
    if (!t) return;
    memcpy(t, sql, len);
    t[len] = 0;
    free(last_sql);
    last_sql = t;
}

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

/* After a failed statement of a script: its line and first line of text
 * (at most NAME_MAX_CELLS terminal cells, never cutting a UTF-8 character;
 * "..." when the statement goes on). */
enum { NAME_MAX_CELLS = 72 };
static void name_statement(const shell *sh, const char *sql, size_t len, ixsql_pos at) {
    size_t n = 0;
    while (n < len && sql[n] != '\n' && sql[n] != '\r')
        n++;
    int more = n < len;
    size_t fit = ixsql_text_fit(sql, n, NAME_MAX_CELLS, NULL);
    if (fit < n) {
        n = fit;
        more = 1;
    }
    if (sh->file)
        fprintf(stderr, "Failed statement at line %d of %s: %.*s%s\n", at.line, sh->file, (int)n,
                sql, more ? " ..." : "");
    else
        fprintf(stderr, "Failed statement at line %d: %.*s%s\n", at.line, (int)n, sql,
                more ? " ..." : "");
}

/* Runs buf[from, to) (to excludes the ';') unless it is only blanks and
 * comments. */
static void run_text(shell *sh, script *sc, size_t from, size_t to) {
    if (!sc->buf) return; /* nothing was read */
    const char *start = ixsql_skip_trivia(sc->buf + from, sc->buf + to);
    const char *end = sc->buf + to;
    while (end > start && (end[-1] == ' ' || end[-1] == '\t' || end[-1] == '\n' || end[-1] == '\r'))
        end--;
    if (start == end || sh->dead) return;
    /* At the prompt, as dbaccess does, an error's line counts within the
     * statement; in a script it is the line of the file. */
    ixsql_pos at = sh->interactive ? (ixsql_pos){1, 1} : pos_of(sc, (size_t)(start - sc->buf));
    size_t n = (size_t)(end - start);
    remember(start, n);
    char *sub = ixsql_vars_subst(start, n, &n); /* NULL: nothing substituted */
    const char *sql = sub ? sub : start;
    size_t shown_len;
    char *shown = ixsql_conn_shown(sql, n, &shown_len); /* no password */
    if (ixsql_opt.echo && shown) {
        fwrite(shown, 1, shown_len, stdout);
        fputs(";\n", stdout);
    }
    double t0 = ixsql_fmt_clock();
    interrupt_conn = ixsql_sess.conn; /* the connection may change between statements */
    int rc = ixsql_conn_run(sql, n, at);
    ixsql_fmt_timing(t0);
    ixsql_complete_after(sql, n);
    if (rc != IXSQL_OK) {
        sh->failures++;
        if (sh->script && shown) name_statement(sh, shown, shown_len, at);
        fputc('\n', stderr); /* an error block ends with a blank line, as a message does */
        if (ixsql_opt.stop && !sh->interactive) sh->dead = 1;
    }
    if (rc == IXSQL_FATAL && ixsql_interrupted && sh->interactive && ixsql_conn_reopen() == 0) {
        fprintf(stderr, "ixsql: the connection was closed to cancel the statement (the server "
                        "is not known to take an interrupt); connected again.\n");
        rc = IXSQL_FAILED;
    }
    if (rc == IXSQL_FATAL) sh->dead = 1;
    free(shown);
    free(sub);
}

/* Runs every complete statement in the unread text. */
static void run_complete(shell *sh, script *sc) {
    while (!sh->dead && !ixsql_interrupted && ix_complete(sc->buf + sc->pos, sc->len - sc->pos)) {
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

static void run_stream(shell *sh, FILE *in);

/* Runs the statements of a whole text (the last needs no ';'). */
static void run_block(shell *sh, const char *text) {
    script sc = {NULL, 0, 0, 0, 1};
    script *saved = cur_script;
    if (append(&sc, text, strlen(text)) != 0) {
        oom(sh);
        return;
    }
    cur_script = &sc;
    run_complete(sh, &sc);
    if (!ixsql_interrupted) run_text(sh, &sc, sc.pos, sc.len);
    cur_script = saved;
    free(sc.buf);
}

/* Runs a whole text (one -c argument). */
static void run_string(shell *sh, const char *text) {
    shell *saved = cur_shell;
    cur_shell = sh;
    if (ixsql_is_backslash(text, strlen(text))) { /* as psql: all of it is the command */
        if (ixsql_backslash(text, strlen(text)) != IXSQL_OK) sh->failures++;
    } else {
        run_block(sh, text);
    }
    cur_shell = saved;
}

int ixsql_include(const char *path) {
    shell *parent = cur_shell;
    if (!parent) return IXSQL_FAILED;
    fflush(stdout);
    if (parent->depth >= MAX_INCLUDE_DEPTH) {
        fprintf(stderr, "\nixsql: \\i %s: nested more than %d deep\n", path, MAX_INCLUDE_DEPTH);
        return IXSQL_FAILED;
    }
    FILE *f = fopen(path, "r");
    if (!f) {
        fprintf(stderr, "\nixsql: cannot open %s: %s\n", path, strerror(errno));
        return IXSQL_FAILED;
    }
    shell sub = {0, 0, 0, 0, path, parent->depth + 1};
    run_stream(&sub, f);
    fclose(f);
    parent->failures += sub.failures;
    if ((sub.dead || ixsql_interrupted) && !parent->interactive) parent->dead = 1;
    return IXSQL_OK;
}

/* \e: the open statement (or else the last one) in the editor; what it
 * leaves is run. */
int ixsql_edit_command(void) {
    const char *text = last_sql ? last_sql : "";
    size_t n = strlen(text);
    script *sc = cur_script;
    if (sc && sc->buf) {
        const char *end = sc->buf + sc->len;
        const char *open = ixsql_skip_trivia(sc->buf + sc->pos, end);
        if (open != end) {
            text = open;
            n = (size_t)(end - open);
            while (n && (text[n - 1] == '\n' || text[n - 1] == '\r'))
                n--;
        }
    }
    char *edited = ixsql_edit(text, n);
    if (!edited) return IXSQL_FAILED;
    if (sc) sc->pos = sc->len; /* the open statement is replaced */
    if (cur_shell) run_block(cur_shell, edited);
    free(edited);
    return IXSQL_OK;
}

/* The next line of a script (getline) or of the terminal (ixsql_tty_read):
 * its length, -1 at the end, 0 when Ctrl-C dropped what was being typed. */
static ssize_t next_line(shell *sh, FILE *in, const script *sc, char **line, size_t *cap) {
    if (sh->dead) return -1;
    if (!sh->interactive) {
        ixsql_interrupted = 0;
        return getline(line, cap, in);
    }
    int open = 0, dropped;
    if (sc->len > sc->pos) { /* buf is NULL before the first line */
        const char *end = sc->buf + sc->len;
        open = ixsql_skip_trivia(sc->buf + sc->pos, end) != end;
    }
    ixsql_complete_context(open ? sc->buf + sc->pos : "", open ? sc->len - sc->pos : 0);
    char *got = ixsql_tty_read(open, &dropped);
    if (!got) return -1;
    free(*line);
    *line = got;
    *cap = strlen(got) + 1;
    return dropped ? 0 : (ssize_t)strlen(got);
}

/* A backslash command on a line of its own outside a statement is run by
 * the shell (counted as a line of the script); 1 if line was one. */
static int backslash_line(shell *sh, script *sc, const char *line, size_t n) {
    const char *end = sc->buf ? sc->buf + sc->len : NULL;
    int open = end && ixsql_skip_trivia(sc->buf + sc->pos, end) != end;
    if (open && !ixsql_is_edit(line, n)) return 0; /* only \e works on an open statement */
    if (!ixsql_is_backslash(line, n)) return 0;
    if (ixsql_backslash(line, n) != IXSQL_OK) {
        sh->failures++;
        if (ixsql_opt.stop && !sh->interactive) sh->dead = 1;
        if (open && !sh->dead) return 1; /* \e failed: the statement stays open */
    }
    for (size_t i = 0; i < sc->len; i++) /* before it: blanks and comments */
        if (sc->buf[i] == '\n') sc->base_line++;
    sc->len = sc->pos = 0;
    sc->base_line++; /* the command's line */
    return 1;
}

/* Runs a script read line by line (statements run as soon as they are
 * complete, so that a pipe works interactively); on a terminal, with the
 * prompt. */
static void run_stream(shell *sh, FILE *in) {
    script sc = {NULL, 0, 0, 0, 1};
    char *line = NULL;
    size_t lcap = 0;
    ssize_t n;
    shell *saved_shell = cur_shell;
    script *saved_script = cur_script;
    cur_shell = sh;
    cur_script = &sc;
    sh->interactive = in == stdin && isatty(fileno(in));
    sh->script = !sh->interactive;
    if (sh->interactive) ixsql_tty_open(ixsql_sess.database);
    for (;;) {
        n = next_line(sh, in, &sc, &line, &lcap);
        if (n == 0) { /* Ctrl-C at the prompt: the statement being typed is dropped */
            sc.len = sc.pos = 0;
            continue;
        }
        if (n < 0) break;
        if (backslash_line(sh, &sc, line, (size_t)n)) continue;
        if (append(&sc, line, (size_t)n) != 0) {
            oom(sh);
            break;
        }
        run_complete(sh, &sc);
        if (ixsql_interrupted) {
            sc.pos = sc.len; /* the rest of what was read is dropped */
            if (!sh->interactive) break;
            ixsql_interrupted = 0;
        }
        compact(&sc);
    }
    if (!sh->dead && !ixsql_interrupted) run_text(sh, &sc, sc.pos, sc.len);
    if (sh->interactive) ixsql_tty_close();
    sh->interactive = sh->script = 0;
    cur_shell = saved_shell;
    cur_script = saved_script;
    free(line);
    free(sc.buf);
}

/* Runs one -c text or script file. */
static void run_job(shell *sh, const ixsql_job *job) {
    if (job->kind == IXSQL_JOB_SQL) {
        run_string(sh, job->arg);
        return;
    }
    if (strcmp(job->arg, "-") == 0) {
        run_stream(sh, stdin);
        return;
    }
    FILE *f = fopen(job->arg, "r");
    if (!f) {
        fflush(stdout);
        fprintf(stderr, "\nixsql: cannot open %s: %s\n", job->arg, strerror(errno));
        sh->failures++;
        return;
    }
    run_stream(sh, f);
    fclose(f);
}

int main(int argc, char **argv) {
    ixsql_cmdline cl;
    setlocale(LC_CTYPE, ""); /* display widths of the terminal's characters */
    int rc = ixsql_parse_args(argc, argv, &cl);
    if (rc >= 0) return rc;
    char *dsn = NULL;
    shell sh = {0, 0, 0, 0, NULL, 0};
    if (ixsql_make_dsn(cl.target, isatty(STDIN_FILENO), &dsn, &ixsql_sess.database) != 0) {
        ixsql_free_args(&cl);
        return 1;
    }
    rc = ix_connect(&ixsql_sess.conn, dsn);
    if (rc == IX_OK && ixsql_opt.client_files)
        rc = ix_set_client_files(ixsql_sess.conn, ixsql_opt.client_files);
    ixsql_conn_init(dsn);
    memset(dsn, 0, strlen(dsn)); /* it may hold the password */
    free(dsn);
    if (rc != IX_OK) {
        ixsql_print_error(ixsql_sess.conn, NULL, 0, (ixsql_pos){0, 0});
        fputc('\n', stderr);
        sh.failures = 1;
        sh.dead = 1;
    }
    catch_sigint();
    for (int j = 0; j < cl.njobs && !sh.dead && !ixsql_interrupted; j++)
        run_job(&sh, &cl.jobs[j]);
    interrupt_conn = NULL;
    ixsql_output_close(); /* a \o still open */
    ixsql_conn_close_all();
    ixsql_free_args(&cl);
    free(ixsql_sess.database);
    free(ixsql_opt.null_text);
    free(last_sql);
    ixsql_vars_free();
    ixsql_complete_free();
    fflush(stdout);
    return sh.failures > IXSQL_EXIT_MAX_FAILED ? IXSQL_EXIT_MAX_FAILED : sh.failures;
}
