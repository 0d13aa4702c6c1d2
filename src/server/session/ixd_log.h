/*
 * ixd_log.h: ixd's log (ixd_log.c). One line per event, to standard error or
 * to a file (--log-file, reopened on SIGHUP for logrotate), as text or as one
 * JSON object per line (--log-format=json):
 *
 *   2026-12-01T17:08:16.123Z info [3] login user "informix" from 127.0.0.1:40112
 *   {"time":"2026-12-01T17:08:16.123Z","level":"info","session":3,"msg":"login ..."}
 *
 * The time is UTC with milliseconds; session 0 is the server itself (the
 * listener, startup and shutdown). Control characters in a message (a user
 * name from the wire, say) are escaped, so no message can forge a line.
 */
#ifndef IXD_LOG_H
#define IXD_LOG_H

#include <stddef.h>

typedef enum ixd_log_level {
    IXD_LOG_DEBUG, /* --verbose: every message in both directions */
    IXD_LOG_INFO,  /* connections, logins, session ends, startup */
    IXD_LOG_WARN,  /* a session dropped for bad input or a limit; refused logins */
    IXD_LOG_ERROR  /* a statement's error, and what the server itself could not do */
} ixd_log_level;

typedef enum ixd_log_format { IXD_LOG_TEXT, IXD_LOG_JSON } ixd_log_format;

/* Where the lines go from now on: path (appended to, created with mode 0640)
 * or standard error when path is NULL. Returns 0, or -1 with a message in
 * err (the previous destination stays). Not thread-safe against ixd_logl:
 * call before the listener starts. */
int ixd_log_open(const char *path, ixd_log_format fmt, char *err, size_t errlen);
/* Asks for the log file to be reopened before the next line (SIGHUP).
 * Async-signal-safe. No-op when the log is standard error. */
void ixd_log_reopen_request(void);
/* Closes the log file (back to standard error). */
void ixd_log_close(void);
/* "text" or "json" into *out; 0, or -1 for another name. */
int ixd_log_format_parse(const char *name, ixd_log_format *out);

/* The text of a message whose template has one %s (ix_errcat.c's standard
 * texts, "Column (%s) not found ..."), with the insertion text in its place;
 * a template without %s gets a non-empty insertion appended as " (text)".
 * Writes at most cap bytes, always NUL-terminated (cap > 0). */
void ixd_msg_fill(char *out, size_t cap, const char *tmpl, const char *text);

#endif
