/*
 * ixsql_tty.c: interactive input when standard input is a terminal. GNU
 * readline (its callback interface, so that Ctrl-C, caught by the shell's
 * own SIGINT handler, interrupts a select() here and drops the line) gives
 * the line editing and the history, kept in ~/.ixsql_history.
 *
 * Prompts: "DATABASE> " (or "ixsql> " without a database) and, inside an
 * open statement or string, "...> " right-aligned under it.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/select.h>

#include <readline/history.h>
#include <readline/readline.h>

#include "ixsql.h"

enum { HISTORY_LINES = 2000 };

static char prompt[128], cont_prompt[128], hist_path[4096];
static char *line_got;
static int have_line;
static int armed; /* a Ctrl-C at an empty prompt was seen: the next one leaves */

static void on_line(char *line) {
    line_got = line;
    have_line = 1;
    rl_callback_handler_remove();
}

void ixsql_tty_prompt(const char *database) {
    const char *name = database && *database ? database : "ixsql";
    int w = snprintf(prompt, sizeof prompt, "%.100s> ", name) - 5;
    snprintf(cont_prompt, sizeof cont_prompt, "%*s...> ", w > 0 ? w : 0, "");
}

void ixsql_tty_open(const char *database) {
    ixsql_tty_prompt(database);
    rl_readline_name = "ixsql";
    rl_catch_signals = 0;     /* the shell's SIGINT handler stays in charge */
    ixsql_complete_install(); /* Tab: keywords, tables, columns (ixsql_complete.c) */
    using_history();
    stifle_history(HISTORY_LINES);
    const char *home = getenv("HOME");
    hist_path[0] = 0;
    if (home &&
        snprintf(hist_path, sizeof hist_path, "%s/.ixsql_history", home) < (int)sizeof hist_path)
        read_history(hist_path);
    else
        hist_path[0] = 0;
}

void ixsql_tty_close(void) {
    if (hist_path[0]) write_history(hist_path);
}

/* The command a line at the main prompt names: 1 leave, 2 help, 0 none. */
static int shell_command(const char *line) {
    size_t n = strlen(line);
    while (n && (line[n - 1] == ' ' || line[n - 1] == '\t' || line[n - 1] == ';'))
        n--;
    while (n && (*line == ' ' || *line == '\t'))
        line++, n--;
    static const char *const quit[] = {"quit", "exit", "\\q"}, *const helps[] = {"help", "\\?"};
    for (size_t i = 0; i < sizeof quit / sizeof *quit; i++)
        if (n == strlen(quit[i]) && strncasecmp(line, quit[i], n) == 0) return 1;
    for (size_t i = 0; i < sizeof helps / sizeof *helps; i++)
        if (n == strlen(helps[i]) && strncasecmp(line, helps[i], n) == 0) return 2;
    return 0;
}

/* Ctrl-C while reading: drops the line. Returns 1 when the shell should
 * leave (the second Ctrl-C in a row at an empty prompt). */
static int interrupted_at_prompt(int continuation, int *dropped) {
    int empty = rl_end == 0 && !continuation;
    rl_free_line_state();
    rl_callback_sigcleanup();
    rl_replace_line("", 0);
    rl_crlf();
    rl_callback_handler_remove();
    if (!empty) {
        armed = 0;
        *dropped = 1;
        return 0;
    }
    if (armed) return 1;
    armed = 1;
    fputs("(Ctrl-C again leaves ixsql; or type quit)\n", stdout);
    fflush(stdout);
    return 0;
}

/* One line from readline, or NULL at Ctrl-D; *sig set on Ctrl-C. SIGINT is
 * blocked except inside pselect, so that one arriving just before the wait
 * is seen (the flag is tested while it is blocked). */
static char *read_one(int continuation, int *sig) {
    sigset_t block, old;
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    sigprocmask(SIG_BLOCK, &block, &old);
    have_line = 0;
    rl_callback_handler_install(continuation ? cont_prompt : prompt, on_line);
    while (!have_line && !ixsql_interrupted) {
        fd_set in;
        int fd = fileno(rl_instream ? rl_instream : stdin);
        FD_ZERO(&in);
        FD_SET(fd, &in);
        if (pselect(fd + 1, &in, NULL, NULL, NULL, &old) > 0) rl_callback_read_char();
    }
    *sig = !have_line;
    /* the interrupt is consumed while SIGINT is still blocked: one that comes
     * after this is seen by the next wait, never cleared unseen */
    if (*sig) ixsql_interrupted = 0;
    sigprocmask(SIG_SETMASK, &old, NULL);
    return have_line ? line_got : NULL;
}

char *ixsql_tty_read(int continuation, int *dropped) {
    *dropped = 0;
    for (;;) {
        int sig = 0;
        char *line = read_one(continuation, &sig);
        if (sig) {
            if (interrupted_at_prompt(continuation, dropped)) return NULL;
            if (*dropped) return strdup("");
            continue;
        }
        armed = 0;
        if (!line) {
            fputc('\n', stdout); /* Ctrl-D: end the prompt's line */
            fflush(stdout);
            return NULL;
        }
        if (line[strspn(line, " \t")] && !ixsql_conn_secret(line)) add_history(line);
        int cmd = continuation ? 0 : shell_command(line);
        if (cmd == 1) {
            free(line);
            return NULL;
        }
        if (cmd == 2) {
            free(line);
            ixsql_help_commands();
            continue;
        }
        size_t n = strlen(line);
        char *out = realloc(line, n + 2);
        if (!out) {
            free(line);
            return NULL;
        }
        out[n] = '\n';
        out[n + 1] = 0;
        return out;
    }
}
