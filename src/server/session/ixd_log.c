/*
 * ixd_log.c: the log lines of ixd (format in ixd_log.h). One process-wide
 * destination behind one mutex; a line is written with one write(2) on an
 * O_APPEND descriptor, so lines of concurrent sessions never interleave.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ixd_log.h"
#include "ixd_server.h"

#define LOG_MSG_MAX  2048                    /* a message after formatting (longer ones are cut) */
#define LOG_LINE_MAX (LOG_MSG_MAX * 6 + 256) /* every byte escaped as \u00XX, plus the frame */

static pthread_mutex_t log_mu = PTHREAD_MUTEX_INITIALIZER;
static int log_fd = -1; /* -1: standard error */
static char *log_path;
static ixd_log_format log_fmt = IXD_LOG_TEXT;
static volatile sig_atomic_t reopen_wanted;

static const char *const level_names[] = {"debug", "info", "warn", "error"};

int ixd_log_format_parse(const char *name, ixd_log_format *out) {
    if (strcmp(name, "text") == 0) return *out = IXD_LOG_TEXT, 0;
    if (strcmp(name, "json") == 0) return *out = IXD_LOG_JSON, 0;
    return -1;
}

static int open_log_file(const char *path) {
    return open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
}

int ixd_log_open(const char *path, ixd_log_format fmt, char *err, size_t errlen) {
    int fd = -1;
    char *copy = NULL;
    if (path) {
        copy = strdup(path);
        fd = copy ? open_log_file(path) : -1;
        if (fd < 0) {
            snprintf(err, errlen, "cannot open log file %s: %s", path,
                     copy ? strerror(errno) : "out of memory");
            free(copy);
            return -1;
        }
    }
    pthread_mutex_lock(&log_mu);
    if (log_fd >= 0) close(log_fd);
    free(log_path);
    log_fd = fd;
    log_path = copy;
    log_fmt = fmt;
    pthread_mutex_unlock(&log_mu);
    return 0;
}

void ixd_log_reopen_request(void) {
    reopen_wanted = 1;
}

void ixd_log_close(void) {
    char err[8];
    ixd_log_open(NULL, log_fmt, err, sizeof err);
}

void ixd_msg_fill(char *out, size_t cap, const char *tmpl, const char *text) {
    const char *at = strstr(tmpl, "%s");
    if (at)
        snprintf(out, cap, "%.*s%s%s", (int)(at - tmpl), tmpl, text, at + 2);
    else if (text[0])
        snprintf(out, cap, "%s (%s)", tmpl, text);
    else
        snprintf(out, cap, "%s", tmpl);
}

/* Length of the well-formed UTF-8 sequence at p (n bytes left), or 0. */
static size_t utf8_len(const unsigned char *p, size_t n) {
    size_t k = p[0] >= 0xf0 && p[0] <= 0xf4 ? 4 : p[0] >= 0xe0 ? 3 : p[0] >= 0xc2 ? 2 : 0;
    if (p[0] > 0xf4 || k > n) return 0;
    for (size_t i = 1; i < k; i++)
        if ((p[i] & 0xc0) != 0x80) return 0;
    return k;
}

/* Appends msg to b (at *len, capacity cap) escaped: for JSON as a string's
 * contents (invalid UTF-8 becomes U+FFFD), for text control bytes as \xNN. */
static void put_escaped(char *b, size_t *len, size_t cap, const char *msg, int json) {
    size_t o = *len;
    const unsigned char *p = (const unsigned char *)msg;
    size_t n = strlen(msg);
    for (size_t i = 0; i < n && o + 8 < cap;) {
        unsigned char c = p[i];
        if (c < 0x20 || c == 0x7f) {
            o += (size_t)snprintf(b + o, cap - o, json ? "\\u%04x" : "\\x%02x", c);
            i++;
        } else if (json && (c == '"' || c == '\\')) {
            b[o++] = '\\', b[o++] = (char)c, i++;
        } else if (json && c >= 0x80) {
            size_t k = utf8_len(p + i, n - i);
            if (k) {
                memcpy(b + o, p + i, k), o += k, i += k;
            } else {
                memcpy(b + o, "\\ufffd", 6), o += 6, i++;
            }
        } else {
            b[o++] = (char)c, i++;
        }
    }
    *len = o;
}

/* "2026-12-01T17:08:16.123Z" into ts (>= 32 bytes). */
static void utc_now(char *ts, size_t cap) {
    struct timespec now;
    struct tm tm;
    clock_gettime(CLOCK_REALTIME, &now);
    gmtime_r(&now.tv_sec, &tm);
    size_t k = strftime(ts, cap, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(ts + k, cap - k, ".%03dZ", (int)(now.tv_nsec / 1000000));
}

/* SIGHUP asked for it: the log file is opened again by its name (the old one
 * may have been renamed by logrotate). Called with log_mu held. */
static void reopen_if_asked(void) {
    if (!reopen_wanted) return;
    reopen_wanted = 0;
    if (log_fd < 0 || !log_path) return;
    int fd = open_log_file(log_path);
    if (fd < 0) return; /* keep writing to the old one */
    close(log_fd);
    log_fd = fd;
}

static void write_all(int fd, const char *p, size_t n) {
    while (n) {
        ssize_t w = write(fd, p, n);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return;
        p += w, n -= (size_t)w;
    }
}

static void log_line(ixd_log_level level, unsigned long session, const char *msg) {
    char ts[32], line[LOG_LINE_MAX];
    utc_now(ts, sizeof ts);
    const char *lv = level_names[level <= IXD_LOG_ERROR ? level : IXD_LOG_ERROR];
    pthread_mutex_lock(&log_mu);
    reopen_if_asked();
    int json = log_fmt == IXD_LOG_JSON;
    size_t len;
    if (json)
        len = (size_t)snprintf(line, sizeof line,
                               "{\"time\":\"%s\",\"level\":\"%s\",\"session\":%lu,\"msg\":\"", ts,
                               lv, session);
    else
        len = (size_t)snprintf(line, sizeof line, "%s %s [%lu] ", ts, lv, session);
    put_escaped(line, &len, sizeof line - 4, msg, json);
    if (json) line[len++] = '"', line[len++] = '}';
    line[len++] = '\n';
    write_all(log_fd >= 0 ? log_fd : STDERR_FILENO, line, len);
    pthread_mutex_unlock(&log_mu);
}

static void vlog(ixd_log_level level, unsigned long session, const char *fmt, va_list ap) {
    char msg[LOG_MSG_MAX];
    vsnprintf(msg, sizeof msg, fmt, ap);
    log_line(level, session, msg);
}

void ixd_logl(ixd_server *srv, ixd_log_level level, unsigned long session, const char *fmt, ...) {
    (void)srv;
    va_list ap;
    va_start(ap, fmt);
    vlog(level, session, fmt, ap);
    va_end(ap);
}

void ixd_log(ixd_server *srv, unsigned long session, const char *fmt, ...) {
    (void)srv;
    va_list ap;
    va_start(ap, fmt);
    vlog(IXD_LOG_INFO, session, fmt, ap);
    va_end(ap);
}
