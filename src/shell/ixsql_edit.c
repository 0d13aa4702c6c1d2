/*
 * ixsql_edit.c: \e, the statement in an editor. The text goes into a
 * temporary file, statement.sql in a directory of its own (mkdtemp, mode
 * 0700, in $TMPDIR or /tmp), removed afterwards; the editor
 * runs on it through /bin/sh (so $EDITOR may hold options: "emacs -nw"):
 * $DBEDIT (dbaccess's variable), else $EDITOR, else vi. When it exits with
 * status 0 the file's text is what the shell runs; otherwise nothing runs.
 */
#include <ctype.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ixsql.h"

static const char *editor(void) {
    const char *e = getenv("DBEDIT");
    if (!e || !*e) e = getenv("EDITOR");
    return e && *e ? e : "vi";
}

/* Runs the editor on path; its exit status, or -1 when it did not run or
 * ended on a signal. */
static int run_editor(const char *path) {
    const char *ed = editor();
    size_t n = strlen(ed) + sizeof " \"$1\"";
    char *cmd = malloc(n);
    if (!cmd) return -1;
    snprintf(cmd, n, "%s \"$1\"", ed);
    pid_t pid = fork();
    if (pid == 0) {
        signal(SIGINT, SIG_DFL);
        execl("/bin/sh", "sh", "-c", cmd, "sh", path, (char *)NULL);
        _exit(127);
    }
    free(cmd);
    if (pid < 0) return -1;
    int st;
    while (waitpid(pid, &st, 0) < 0)
        if (errno != EINTR) return -1;
    ixsql_interrupted = 0; /* a Ctrl-C in the editor was the editor's */
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

static char *read_all(FILE *f) {
    size_t n = 0, cap = 4096;
    char *s = malloc(cap);
    while (s) {
        n += fread(s + n, 1, cap - n - 1, f);
        if (n < cap - 1) break;
        char *ns = realloc(s, cap * 2);
        if (!ns) free(s);
        s = ns;
        cap *= 2;
    }
    if (s) s[n] = 0;
    return s;
}

static void cleanup(const char *dir, const char *path) {
    if (path) unlink(path);
    if (dir) rmdir(dir);
}

static char *edit_failed(const char *what, const char *dir, const char *path) {
    fflush(stdout);
    fprintf(stderr, "\nixsql: \\e: %s\n", what);
    cleanup(dir, path);
    return NULL;
}

char *ixsql_edit(const char *text, size_t len) {
    const char *tmp = getenv("TMPDIR");
    char dir[4096], path[4096 + 16];
    if (!tmp || !*tmp) tmp = "/tmp";
    if (snprintf(dir, sizeof dir, "%s/ixsql.XXXXXX", tmp) >= (int)sizeof dir)
        return edit_failed("TMPDIR is too long", NULL, NULL);
    if (!mkdtemp(dir)) return edit_failed(strerror(errno), NULL, NULL);
    snprintf(path, sizeof path, "%s/statement.sql", dir);
    FILE *f = fopen(path, "w");
    int bad = !f || fwrite(text, 1, len, f) != len || (len && fputc('\n', f) == EOF);
    if (f && fclose(f) != 0) bad = 1;
    if (bad) return edit_failed("cannot write the temporary file", dir, path);
    int st = run_editor(path);
    if (st != 0) {
        char msg[160];
        snprintf(msg, sizeof msg, "the editor ended with status %d; nothing is run", st);
        return edit_failed(msg, dir, path);
    }
    f = fopen(path, "r");
    char *out = f ? read_all(f) : NULL;
    if (f) fclose(f);
    cleanup(dir, path);
    if (!out) return edit_failed("cannot read the edited file", NULL, NULL);
    return out;
}

int ixsql_is_edit(const char *line, size_t len) {
    while (len && (isspace((unsigned char)line[len - 1]) || line[len - 1] == ';'))
        len--;
    while (len && isspace((unsigned char)*line))
        line++, len--;
    return len == 2 && line[0] == '\\' && line[1] == 'e';
}
