/*
 * ixsql.h: the pieces of ixsql, the dbaccess-style shell of ixdb. ixsql is
 * a client of the public API (include/ixdb.h) and nothing else.
 */
#ifndef IXSQL_H
#define IXSQL_H

#include <signal.h>
#include <stddef.h>
#include <stdio.h>

#include "ixdb.h"

/* Where a statement came from, for "Error in line N / Near character
 * position P": the line (1-based) and column (1-based) of its first byte. */
typedef struct ixsql_pos {
    int line;
    int col;
} ixsql_pos;

/* Status of running one statement. */
enum {
    IXSQL_OK = 0,     /* the statement worked */
    IXSQL_FAILED = 1, /* it failed (error printed); go on with the next one */
    IXSQL_FATAL = 2,  /* the connection is dead (error printed); stop */
};

/* The command-line settings (ixsql_cli.c), read by every part of the shell. */
typedef struct ixsql_options {
    int echo;                 /* -e: print each statement before running it */
    int stop;                 /* -a or DBACCNOIGN=1: stop at the first failed statement */
    int all_errors;           /* -m: the SQLSTATE and the library's whole message as well */
    int quiet;                /* -q: no confirmations or row counts (errors still print) */
    int format;               /* --format, \pset format: an IXSQL_FMT_* */
    int expanded;             /* \x: the vertical layout for every row */
    int timing;               /* \timing: elapsed time of each statement on stderr */
    char *null_text;          /* \pset null: how NULL prints (NULL: as nothing) */
    const char *client_files; /* --client-files: the directory FILETOBLOB /
                               * LOTOFILE 'client' may use (NULL: refused) */
} ixsql_options;
extern ixsql_options ixsql_opt;

/* The session (ixsql_main.c): the connection statements run on (NULL
 * when there is none) and the database it is in, for the prompt (malloc'd,
 * or NULL). */
typedef struct ixsql_session {
    ix_conn *conn;
    char *database;
} ixsql_session;
extern ixsql_session ixsql_sess;

/* Set by the SIGINT handler (ixsql_main.c); cleared by whoever handles it. */
extern volatile sig_atomic_t ixsql_interrupted;

/* What to run, in the order given: -c texts and -f / positional scripts. */
enum { IXSQL_JOB_SQL, IXSQL_JOB_FILE };
typedef struct ixsql_job {
    int kind;
    const char *arg; /* the SQL text, or the file name ("-": stdin) */
} ixsql_job;

typedef struct ixsql_cmdline {
    const char *target; /* database[@server], URL, keywords, "-" or NULL */
    ixsql_job *jobs;    /* at least one */
    int njobs;
} ixsql_cmdline;

/* Exit statuses besides the count of failed statements. */
enum {
    IXSQL_EXIT_MAX_FAILED = 125, /* the count of failures is capped here */
    IXSQL_EXIT_USAGE = 126,      /* bad command line */
};

/* Parses argv (getopt_long) into *cl and ixsql_opt. Returns -1 to go on,
 * or an exit status (0 after --help / --version, IXSQL_EXIT_USAGE). */
int ixsql_parse_args(int argc, char **argv, ixsql_cmdline *cl);
void ixsql_free_args(ixsql_cmdline *cl);

/* The DSN for the command line's target (ixsql_dsn.c): a bare
 * database[@server] becomes keywords; a password missing from it is taken
 * from $IXPASSWORD, $INFORMIXPASSWORD, ~/.ixdbpass, or asked on the terminal
 * (ask != 0). *database receives the database named (or NULL); both
 * strings are malloc'd. Returns 0, or -1 (message printed). */
int ixsql_make_dsn(const char *target, int ask, char **dsn, char **database);

/* Interactive input (ixsql_tty.c): a prompt with line editing and history.
 * ixsql_tty_open before the first line, ixsql_tty_close at the end.
 * ixsql_tty_read returns the next line (malloc'd, with its '\n') or NULL
 * when the user leaves (Ctrl-D, quit, exit, \q, a second Ctrl-C at an
 * empty prompt); *dropped is set when Ctrl-C dropped what was typed. It
 * handles help / \? itself. */
void ixsql_tty_open(const char *database);
/* Sets the prompts for database (NULL: none); ixsql_tty_open does it. */
void ixsql_tty_prompt(const char *database);
char *ixsql_tty_read(int continuation, int *dropped);
void ixsql_tty_close(void);

/* Output (ixsql_out.c). Rows go to stdout; messages (confirmations, row
 * counts, errors) go to stderr, as dbaccess does; stdout is flushed before
 * each message so that 2>&1 keeps the order. */

/* "\n<text>\n\n" on stderr. */
void ixsql_message(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;
/* The last error on conn in dbaccess's layout; sql/len/at locate the
 * statement for the line and position (sql NULL: no position). */
void ixsql_print_error(ix_conn *conn, const char *sql, size_t len, ixsql_pos at);
/* Display width of a column for the horizontal layout (type and encoded
 * length as ix_column_type / ix_column_enclen give them); *numeric set to 1
 * for right-aligned types. */
int ixsql_display_width(int type, int enclen, int *numeric);
/* Steps a prepared statement that returns rows and prints them. */
int ixsql_print_rows(ix_stmt *stmt, const char *sql, size_t len, ixsql_pos at);
/* The confirmation dbaccess prints for a statement without rows ("Table
 * created.", "3 row(s) inserted.", ...), or NULL when it prints none. buf
 * receives counted messages. */
const char *ixsql_confirmation(int stmt_type, const char *sql, size_t len, long long changes,
                               char *buf, size_t cap);

/* The first byte at or after p (before end) that is not blank and not inside
 * a comment (-- to the end of the line, { ... }, slash-star ... star-slash);
 * end if there is none. */
const char *ixsql_skip_trivia(const char *p, const char *end);

/* A cursor over the text of a statement ixsql runs itself (ixsql_lex.c):
 * p the next byte, end past the last, start the statement's first byte
 * (for error offsets). ixsql_lex_keyword consumes keyword kw (any case,
 * a whole word) after blanks and comments: 1, else 0 and nothing moves
 * but the blanks. ixsql_lex_string reads a '...' or "..." string (the
 * quote doubled inside) and returns its text, malloc'd, which the caller
 * frees; NULL when there is none, it is not closed, or out of memory. */
typedef struct ixsql_lexer {
    const char *p, *end, *start;
} ixsql_lexer;
int ixsql_lex_keyword(ixsql_lexer *lx, const char *kw);
char *ixsql_lex_string(ixsql_lexer *lx);
/* The line and column of sql[off] when sql starts at at; and the -201
 * "A syntax error has occurred." message at that place (dbaccess's layout,
 * on stderr), returning IXSQL_FAILED. */
ixsql_pos ixsql_pos_at(const char *sql, size_t off, ixsql_pos at);
int ixsql_syntax_error(const char *sql, size_t off, ixsql_pos at);

/* LOAD SERIES FROM 'file' INTO table(column) [DELIMITER 'c'] (ixsql_ts.c):
 * ixsql_is_load_series says whether sql starts with LOAD SERIES;
 * ixsql_load_series runs it and prints its result. */
int ixsql_is_load_series(const char *sql, size_t len);
int ixsql_load_series(ix_conn *conn, const char *sql, size_t len, ixsql_pos at);

/* LOAD FROM 'file' [DELIMITER 'c'] INSERT INTO t [(cols)] and UNLOAD TO
 * 'file' [DELIMITER 'c'] SELECT ... (ixsql_load.c, UNL format in
 * ixsql_unl.h): the tests and the statements. */
int ixsql_is_load(const char *sql, size_t len);
int ixsql_is_unload(const char *sql, size_t len);
int ixsql_load(ix_conn *conn, const char *sql, size_t len, ixsql_pos at);
int ixsql_unload(ix_conn *conn, const char *sql, size_t len, ixsql_pos at);

/* Output formats and backslash commands (ixsql_fmt.c). */
enum {
    IXSQL_FMT_ALIGNED,
    IXSQL_FMT_UNALIGNED,
    IXSQL_FMT_CSV,
    IXSQL_FMT_JSON,
    IXSQL_FMT_MARKDOWN,
    IXSQL_FMT_VERTICAL, /* the aligned layout's one line per column, always */
};
/* The IXSQL_FMT_* named (any case), or -1. */
int ixsql_fmt_parse(const char *name);
/* The text NULL prints as in aligned and unaligned output. */
const char *ixsql_fmt_null(void);
/* Steps stmt and prints its rows in ixsql_opt.format (not aligned); *rows
 * receives their count. Returns ix_step's last status. */
int ixsql_fmt_rows(ix_stmt *stmt, long long *rows);
/* A monotonic clock in milliseconds, and the "Time: N ms" line on stderr
 * after a statement when \timing is on. */
double ixsql_fmt_clock(void);
void ixsql_fmt_timing(double start_ms);
/* Whether a line is a backslash command (first non-blank is '\'), and
 * running one: \pset format|null, \x, \timing. Returns an IXSQL_ status. */
int ixsql_is_backslash(const char *line, size_t len);
int ixsql_backslash(const char *line, size_t len);
/* Help (ixsql_help.c), on stdout: the shell's commands (help, \?), and
 * \h: with no topic the statements it knows, else the syntax of those
 * whose name begins with the topic's words (IXSQL_FAILED, with a message,
 * when none does). */
void ixsql_help_commands(void);
int ixsql_help_sql(const char *topic, size_t n);
/* INFO TABLES / COLUMNS / INDEXES / STATUS / PRIVILEGES / ACCESS /
 * REFERENCES [FOR table] (ixsql_info.c): the test and the statement. */
int ixsql_is_info(const char *sql, size_t len);
int ixsql_info(ix_conn *conn, const char *sql, size_t len, ixsql_pos at);

/* Widths in terminal cells (ixsql_width.c). Text is UTF-8; a byte that is
 * not valid UTF-8 prints as \xNN (four cells). ixsql_text_width: the cells
 * of n bytes as ixsql_put_text prints them; ixsql_text_fit: how many bytes
 * of s fit in cols cells, never cutting a character (*used: their cells);
 * ixsql_put_text: prints them on stdout. */
int ixsql_text_width(const char *s, size_t n);
/* The length of the valid UTF-8 sequence at s (n > 0 bytes) and its code
 * point in *cp; 0 when the bytes are not valid UTF-8 (overlong forms,
 * surrogates, code points above U+10FFFF, a sequence cut short). */
size_t ixsql_utf8_decode(const unsigned char *s, size_t n, unsigned *cp);
size_t ixsql_text_fit(const char *s, size_t n, int cols, int *used);
void ixsql_put_text(const char *s, size_t n);

/* Where results go (ixsql_output.c): OUTPUT TO 'file' | PIPE 'cmd'
 * [WITHOUT HEADINGS] SELECT ... and \o [file | |cmd]. ixsql_output_hook
 * runs the statement itself when it is an OUTPUT statement or \o redirects
 * what it prints (returns 1, the status in *rc); 0 when ixsql_run goes on.
 * ixsql_output_command runs \o with its argument (the rest of the line);
 * ixsql_output_close ends a \o at exit. ixsql_without_headings is set
 * while an OUTPUT ... WITHOUT HEADINGS prints. */
int ixsql_output_hook(ix_conn *conn, const char *sql, size_t len, ixsql_pos at, int *rc);
int ixsql_output_command(const char *arg, size_t len);
void ixsql_output_close(void);
extern int ixsql_without_headings;
/* stdout (file descriptor 1) sent to fd until ixsql_redirect_end: returns
 * the saved descriptor, or -1 (errno set). ixsql_redirect_end restores it
 * and returns 0, or -1 when writing what was printed failed (errno set).
 * ixsql_output_redirected: whether stdout is redirected now. */
int ixsql_redirect_begin(int fd);
int ixsql_redirect_end(int saved);
int ixsql_output_redirected(void);

/* The pager (ixsql_pager.c) for query results taller than the terminal,
 * when stdout is a terminal that is not redirected: $PAGER (empty: none),
 * else less when it is on the PATH. ixsql_pager_on is \pset pager on|off
 * (on by default). ixsql_pager_begin before printing rows sends stdout to
 * a temporary file when paging applies; ixsql_pager_end shows that file
 * through the pager when it has more lines than the terminal, else on
 * stdout. */
extern int ixsql_pager_on;
typedef struct ixsql_pager {
    FILE *tmp; /* NULL: not paging */
    int saved; /* stdout's descriptor while paging */
} ixsql_pager;
void ixsql_pager_begin(ixsql_pager *pg);
void ixsql_pager_end(ixsql_pager *pg);

/* The input side's backslash commands: \set / \unset and :name substitution
 * (ixsql_vars.c), \i (ixsql_include, ixsql_main.c), \e (ixsql_edit.c, with
 * ixsql_edit_command in ixsql_main.c). ixsql_input_backslash runs line if it
 * is one of them (an IXSQL_ status), else returns -1. */
int ixsql_input_backslash(const char *line, size_t len);
int ixsql_vars_command(const char *line, size_t len);
const char *ixsql_var_get(const char *name, size_t n);
int ixsql_var_set(const char *name, const char *value);
void ixsql_vars_free(void);
/* sql with :name and :'name' replaced (malloc'd, its length in *out_len),
 * or NULL when nothing was replaced (or out of memory). */
char *ixsql_vars_subst(const char *sql, size_t len, size_t *out_len);
/* Runs the script file path through the shell, nested in the current input
 * (its failures counted, named by file and line). */
int ixsql_include(const char *path);
/* Whether line is \e; the command; the editor run on text, returning the
 * edited text (malloc'd) when it exits 0, else NULL (message printed). */
int ixsql_is_edit(const char *line, size_t len);
int ixsql_edit_command(void);
char *ixsql_edit(const char *text, size_t len);

/* Tab completion (ixsql_complete.c): readline's hook, installed by
 * ixsql_tty_open; the open statement the line being typed continues;
 * ixsql_complete_after forgets the cached catalogue after DDL or a change
 * of database; ixsql_complete_free at the end. */
void ixsql_complete_install(void);
void ixsql_complete_context(const char *open, size_t len);
void ixsql_complete_after(const char *sql, size_t len);
void ixsql_complete_free(void);

/* Runs one statement (len bytes, no trailing ';') and prints its result. */
int ixsql_run(ix_conn *conn, const char *sql, size_t len, ixsql_pos at);

/* Connections (ixsql_conn.c). ixsql_conn_init keeps the command line's DSN
 * (for CONNECT) and makes ixsql_sess.conn the default connection;
 * ixsql_conn_close_all closes every connection at the end.
 * ixsql_conn_run runs one statement on the current connection, CONNECT /
 * DISCONNECT / SET CONNECTION itself, and follows DATABASE / CREATE
 * DATABASE / CLOSE DATABASE in ixsql_sess.database and the prompt.
 * ixsql_conn_backslash runs \c db, \l, \d [table]: 1 (status in *rc) if
 * line (trimmed) was one of them. ixsql_conn_shown is a statement as -e and
 * the naming of a failed statement show it, CONNECT's password hidden
 * (malloc'd, *n its length; NULL when out of memory); ixsql_conn_secret says whether a line may
 * hold one (it is then kept out of the history). */
void ixsql_conn_init(const char *dsn);
void ixsql_conn_close_all(void);
int ixsql_conn_run(const char *sql, size_t len, ixsql_pos at);
int ixsql_conn_backslash(const char *line, size_t len, int *rc);
char *ixsql_conn_shown(const char *sql, size_t len, size_t *n);
int ixsql_conn_secret(const char *line);
/* After a cancel closed the current connection (a server that takes no
 * interrupt, docs/c-api.md "Interrupting a statement"): opens the default
 * connection again on the same database and makes it current. 0, or -1
 * (not the default connection, or the connect failed: error printed). */
int ixsql_conn_reopen(void);

#endif
