/*
 * ixsql_output.c: where query results go.
 *
 *   OUTPUT TO file [WITHOUT HEADINGS] statement
 *   OUTPUT TO PIPE program [WITHOUT HEADINGS] statement
 *
 * as DB-Access runs them: file and program are a quoted string or one
 * word; the file is created or overwritten; the program is run by /bin/sh
 * with the rows on its standard input and the terminal as its output, and
 * ixsql waits for it to end. The rows, in the current format, go there;
 * messages ("3 row(s) retrieved.", errors) stay on stderr. WITHOUT
 * HEADINGS drops the column names (the heading line of the horizontal
 * layout, the names of the vertical layout, the header line of unaligned,
 * CSV and markdown). A file that cannot be opened, a failed write or a
 * program that exits with a status other than 0 fails the statement. A
 * program that stops reading early (head -1) is not an error.
 *
 *   \o file, \o |command, \o
 *
 * (psql's): every following statement's output goes to the file or the
 * command (started once, ended by the next \o or at exit), until \o alone.
 * An OUTPUT statement while \o is on writes to its own target.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ixsql.h"

int ixsql_without_headings;

static int depth; /* redirections of stdout in force */

int ixsql_redirect_begin(int fd) {
    fflush(stdout);
    int saved = fcntl(STDOUT_FILENO, F_DUPFD_CLOEXEC, 3);
    if (saved < 0) return -1;
    if (dup2(fd, STDOUT_FILENO) < 0) {
        int e = errno;
        close(saved);
        errno = e;
        return -1;
    }
    depth++;
    return saved;
}

int ixsql_redirect_end(int saved) {
    int bad = fflush(stdout) != 0 || ferror(stdout);
    int e = errno;
    clearerr(stdout);
    dup2(saved, STDOUT_FILENO);
    close(saved);
    depth--;
    errno = e;
    return bad ? -1 : 0;
}

int ixsql_output_redirected(void) {
    return depth > 0;
}

/* ---- targets -------------------------------------------------------------------- */

typedef struct target {
    FILE *f;
    int pipe;   /* f is from popen */
    char *name; /* the file or the command */
    struct sigaction old_pipe;
} target;

static void error_msg(const char *what, const char *name, const char *why) {
    fflush(stdout);
    fprintf(stderr, "\nixsql: %s %s: %s\n", what, name, why);
}

static int target_open(target *t, const char *name, int pipe) {
    t->pipe = pipe;
    t->name = strdup(name);
    if (!t->name) {
        error_msg("cannot open", name, strerror(ENOMEM));
        return -1;
    }
    fflush(stdout);
    t->f = pipe ? popen(name, "we") : fopen(name, "we");
    if (!t->f) {
        error_msg(pipe ? "cannot run" : "cannot open", name, strerror(errno));
        free(t->name);
        return -1;
    }
    if (pipe) { /* a reader that stops early gives EPIPE, not a signal */
        struct sigaction ign;
        memset(&ign, 0, sizeof ign);
        ign.sa_handler = SIG_IGN;
        sigemptyset(&ign.sa_mask);
        sigaction(SIGPIPE, &ign, &t->old_pipe);
    }
    return 0;
}

/* Closes t (waiting for a command); 0, or -1 with the reason printed. */
static int target_close(target *t) {
    int rc = 0;
    if (!t->pipe) {
        if (fclose(t->f) != 0) {
            error_msg("cannot write", t->name, strerror(errno));
            rc = -1;
        }
    } else {
        int st = pclose(t->f);
        sigaction(SIGPIPE, &t->old_pipe, NULL);
        char why[64];
        if (st == -1) {
            snprintf(why, sizeof why, "%s", strerror(errno));
        } else if (WIFSIGNALED(st)) {
            snprintf(why, sizeof why, "killed by signal %d", WTERMSIG(st));
        } else if (WIFEXITED(st) && WEXITSTATUS(st) != 0) {
            snprintf(why, sizeof why, "exit status %d", WEXITSTATUS(st));
        } else {
            why[0] = 0;
        }
        if (why[0]) {
            fflush(stdout);
            fprintf(stderr, "\nixsql: command '%s' failed: %s\n", t->name, why);
            rc = -1;
        }
    }
    free(t->name);
    t->f = NULL;
    t->name = NULL;
    return rc;
}

/* Runs the statement with stdout sent to t; IXSQL_FAILED also when the
 * output could not be written. */
static int run_into(target *t, ix_conn *conn, const char *sql, size_t len, ixsql_pos at) {
    int saved = ixsql_redirect_begin(fileno(t->f));
    if (saved < 0) {
        error_msg("cannot write to", t->name, strerror(errno));
        return IXSQL_FAILED;
    }
    int rc = ixsql_run(conn, sql, len, at);
    if (ixsql_redirect_end(saved) != 0 && !(t->pipe && errno == EPIPE)) {
        error_msg("cannot write to", t->name, strerror(errno));
        if (rc == IXSQL_OK) rc = IXSQL_FAILED;
    }
    return rc;
}

/* ---- OUTPUT --------------------------------------------------------------------- */

/* A quoted string or one word (up to a blank): malloc'd, or NULL. */
static char *file_name(ixsql_lexer *lx) {
    lx->p = ixsql_skip_trivia(lx->p, lx->end);
    if (lx->p < lx->end && (*lx->p == '\'' || *lx->p == '"')) return ixsql_lex_string(lx);
    const char *s = lx->p;
    while (lx->p < lx->end && !isspace((unsigned char)*lx->p))
        lx->p++;
    return lx->p > s ? strndup(s, (size_t)(lx->p - s)) : NULL;
}

static int is_output(const char *sql, size_t len) {
    ixsql_lexer lx = {sql, sql + len, sql};
    return ixsql_lex_keyword(&lx, "OUTPUT") && ixsql_lex_keyword(&lx, "TO");
}

static int output_statement(ix_conn *conn, const char *sql, size_t len, ixsql_pos at) {
    ixsql_lexer lx = {sql, sql + len, sql};
    ixsql_lex_keyword(&lx, "OUTPUT");
    ixsql_lex_keyword(&lx, "TO");
    const char *before = lx.p;
    int pipe = ixsql_lex_keyword(&lx, "PIPE");
    if (pipe && lx.p < lx.end && !isspace((unsigned char)*lx.p) && *lx.p != '\'' &&
        *lx.p != '"') { /* a file named pipe.txt */
        pipe = 0;
        lx.p = before;
    }
    char *name = file_name(&lx);
    int headings = 1;
    if (name && ixsql_lex_keyword(&lx, "WITHOUT")) {
        if (!ixsql_lex_keyword(&lx, "HEADINGS")) {
            free(name);
            name = NULL;
        }
        headings = 0;
    }
    const char *rest = ixsql_skip_trivia(lx.p, lx.end);
    if (!name || rest == lx.end) {
        free(name);
        ixsql_syntax_error(sql, (size_t)(ixsql_skip_trivia(lx.p, lx.end) - sql), at);
        return IXSQL_FAILED;
    }
    target t;
    int rc = target_open(&t, name, pipe);
    free(name);
    if (rc != 0) return IXSQL_FAILED;
    int outer = ixsql_without_headings;
    ixsql_without_headings = !headings;
    rc = run_into(&t, conn, rest, (size_t)(lx.end - rest),
                  ixsql_pos_at(sql, (size_t)(rest - sql), at));
    ixsql_without_headings = outer;
    if (target_close(&t) != 0 && rc == IXSQL_OK) rc = IXSQL_FAILED;
    return rc;
}

/* ---- \o ------------------------------------------------------------------------- */

static target o_target; /* o_target.f NULL: \o is off */

void ixsql_output_close(void) {
    if (o_target.f) target_close(&o_target);
}

int ixsql_output_command(const char *arg, size_t len) {
    while (len && isspace((unsigned char)*arg))
        arg++, len--;
    while (len && isspace((unsigned char)arg[len - 1]))
        len--;
    int rc = IXSQL_OK;
    if (o_target.f && target_close(&o_target) != 0) rc = IXSQL_FAILED;
    if (len == 0) return rc;
    int pipe = *arg == '|';
    if (pipe) {
        arg++, len--;
        while (len && isspace((unsigned char)*arg))
            arg++, len--;
    }
    char *name = strndup(arg, len);
    if (!name || len == 0) {
        free(name);
        fflush(stdout);
        fprintf(stderr, "\nixsql: \\o |command needs a command\n");
        return IXSQL_FAILED;
    }
    if (target_open(&o_target, name, pipe) != 0) rc = IXSQL_FAILED;
    free(name);
    return rc;
}

int ixsql_output_hook(ix_conn *conn, const char *sql, size_t len, ixsql_pos at, int *rc) {
    if (is_output(sql, len)) {
        *rc = output_statement(conn, sql, len, at);
        return 1;
    }
    if (!o_target.f || depth > 0) return 0; /* off, or the statement runs inside */
    *rc = run_into(&o_target, conn, sql, len, at);
    return 1;
}
