/*
 * ixsql_pager.c: a pager for query results taller than the terminal (psql's
 * habit; dbaccess has none). It applies when stdout is a terminal whose
 * height is known and that OUTPUT or \o does not redirect, and \pset pager
 * is on (the default). The rows are written to a temporary file; when the
 * statement is done, a text with at least as many lines as the terminal
 * has rows goes through the pager, a shorter one to the terminal. The
 * pager is $PAGER (run by /bin/sh; set but empty: no pager), else less
 * (with LESS=FSX when LESS is not set: rows are not folded, the text stays
 * on the screen) when it is on the PATH, else there is none. While the
 * pager runs, Ctrl-C belongs to it. A pager that cannot be run (exit status
 * 126 or 127) leaves the text printed on the terminal.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ixsql.h"

int ixsql_pager_on = 1;

enum { SH_CANNOT_EXEC = 126, SH_NOT_FOUND = 127 };

/* Whether prog is an executable file in a directory of $PATH. */
static int on_path(const char *prog) {
    const char *path = getenv("PATH");
    char buf[4096];
    while (path && *path) {
        size_t n = strcspn(path, ":");
        if (n > 0 && snprintf(buf, sizeof buf, "%.*s/%s", (int)n, path, prog) < (int)sizeof buf &&
            access(buf, X_OK) == 0)
            return 1;
        path += n;
        if (*path == ':') path++;
    }
    return 0;
}

/* The pager's command, or NULL for none. */
static const char *pager_command(void) {
    const char *p = getenv("PAGER");
    if (p) return p[strspn(p, " \t")] ? p : NULL;
    if (!on_path("less")) return NULL;
    setenv("LESS", "FSX", 0);
    return "less";
}

/* The terminal's rows, 0 when unknown. */
static int terminal_rows(void) {
    struct winsize ws;
    if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0) return 0;
    return ws.ws_row;
}

void ixsql_pager_begin(ixsql_pager *pg) {
    pg->tmp = NULL;
    pg->saved = -1;
    if (!ixsql_pager_on || ixsql_output_redirected() || !isatty(STDOUT_FILENO) ||
        terminal_rows() == 0 || !pager_command())
        return;
    FILE *f = tmpfile();
    if (!f) return; /* no room: print without a pager */
    pg->saved = ixsql_redirect_begin(fileno(f));
    if (pg->saved < 0) {
        fclose(f);
        return;
    }
    pg->tmp = f;
}

/* Copies f from its start to out; stops at a write error. */
static void copy(FILE *f, FILE *out) {
    char buf[8192];
    size_t n;
    rewind(f);
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        if (fwrite(buf, 1, n, out) != n) break;
}

static long count_lines(FILE *f, long enough) {
    long lines = 0;
    int c;
    rewind(f);
    while (lines < enough && (c = getc(f)) != EOF)
        if (c == '\n') lines++;
    return lines;
}

/* Runs the pager on f; 0, or -1 when it could not run. */
static int page(FILE *f, const char *cmd) {
    fflush(stdout);
    FILE *p = popen(cmd, "we");
    if (!p) return -1;
    struct sigaction ign, old_int, old_pipe;
    memset(&ign, 0, sizeof ign);
    ign.sa_handler = SIG_IGN;
    sigemptyset(&ign.sa_mask);
    sigaction(SIGINT, &ign, &old_int);   /* Ctrl-C is the pager's */
    sigaction(SIGPIPE, &ign, &old_pipe); /* the user may quit it early */
    copy(f, p);
    int st = pclose(p);
    sigaction(SIGPIPE, &old_pipe, NULL);
    sigaction(SIGINT, &old_int, NULL);
    if (st == -1 ||
        (WIFEXITED(st) && (WEXITSTATUS(st) == SH_CANNOT_EXEC || WEXITSTATUS(st) == SH_NOT_FOUND))) {
        fflush(stdout);
        fprintf(stderr, "\nixsql: cannot run the pager %s\n", cmd);
        return -1;
    }
    return 0;
}

void ixsql_pager_end(ixsql_pager *pg) {
    if (!pg->tmp) return;
    ixsql_redirect_end(pg->saved);
    int rows = terminal_rows();
    const char *cmd = pager_command();
    if (!cmd || rows == 0 || count_lines(pg->tmp, rows) < rows || page(pg->tmp, cmd) != 0)
        copy(pg->tmp, stdout);
    fclose(pg->tmp);
    pg->tmp = NULL;
}
