/*
 * ixd_server.h: the parts of ixd around the SQL engine: configuration,
 * users, logging, the per-connection protocol session, and the listener.
 */
#ifndef IXD_SERVER_H
#define IXD_SERVER_H

#include <pthread.h>
#include <stdint.h>

#include "ixd_engine.h"
#include "proto/ix_msg.h"

/* ---- users (ixd_auth.c) ---------------------------------------------------
 * A users file has one line per user: `name:salt:hash`, where salt is hex
 * and hash is hex PBKDF2-HMAC-SHA256(password, salt, 10000 rounds, 32
 * bytes). Lines starting with # and blank lines are ignored. Without a file
 * the only user is `informix` with password `in4mix`, as in IBM's
 * developer container. */
typedef struct ixd_users ixd_users;

/* Loads path (NULL: the default user). Returns 0, or -1 with a message in
 * errbuf. */
int ixd_users_load(ixd_users **out, const char *path, char *errbuf, size_t errlen);
void ixd_users_free(ixd_users *u);
/* Returns 1 if user/password match, 0 if the user is unknown, -1 if the
 * password is wrong. */
int ixd_users_check(const ixd_users *u, const char *user, const char *password);
/* Writes one users-file line for user/password with a fresh random salt
 * into line (>= 256 bytes). Returns 0 or -1. */
int ixd_users_make_line(const char *user, const char *password, char *line, size_t len);

/* ---- the server ------------------------------------------------------------ */
typedef struct ixd_server {
    const char *data_dir;
    const char *server_name; /* DBSERVERNAME; default "ixd" */
    const char *banner;      /* version banner in the login accept */
    int verbose;             /* print every message */
    ix_limits limits;        /* wire limits (zero fields: defaults) */
    size_t max_buffer;       /* bytes of undecoded input kept per session */
    ixd_engine *engine;
    ixd_users *users;
    pthread_mutex_t log_lock;
} ixd_server;

/* Logs one line to stderr: "ixd: [session N] ...". Thread-safe. */
void ixd_log(ixd_server *srv, unsigned long session, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* ---- a session: one client connection (ixd_session.c) ---------------------
 * Sans-I/O: ixd_sess_input takes the bytes the client sent and appends the
 * reply bytes to `out`; the caller does the socket I/O. */
typedef struct ixd_sess ixd_sess;

ixd_sess *ixd_sess_new(ixd_server *srv, unsigned long id, const char *peer);
/* Processes every complete message in p[0..n) (and earlier leftovers).
 * Returns 0 to go on, 1 when the session has ended normally (SQ_EXIT, or a
 * login rejection that has been answered), -1 when it must be dropped (the
 * reason is logged). Reply bytes are appended to out in every case. */
int ixd_sess_input(ixd_sess *s, const uint8_t *p, size_t n, ix_wbuf *out);
/* fn(ud) is asked, while a statement of the session runs, whether to stop
 * it (-213): the listener answers from the socket (a client interrupt,
 * proto/ix_interrupt.h) and from shutdown. */
void ixd_sess_set_interrupt_check(ixd_sess *s, int (*fn)(void *ud), void *ud);
/* Ends the session: an open transaction rolls back. NULL is a no-op. */
void ixd_sess_free(ixd_sess *s, const char *reason);

/* ---- the listener (ixd_listen.c) ------------------------------------------ */
typedef struct ixd_listen_opts {
    const char *host;               /* default 127.0.0.1 */
    int port;                       /* default 9088; 0 = any free port */
    const char *tls_cert, *tls_key; /* both set: TLS from the first byte (onsocssl) */
    const char *port_file;          /* if set, the bound port is written there once listening */
} ixd_listen_opts;

/* Listens and serves until SIGTERM/SIGINT (or ixd_listen_stop). Each
 * connection gets its own thread and session. On stop, sessions are ended
 * (their transactions roll back) before it returns. Returns 0, or -1 after
 * logging why it could not listen. */
int ixd_listen_run(ixd_server *srv, const ixd_listen_opts *o);
/* Asks a running ixd_listen_run to stop (async-signal-safe). */
void ixd_listen_stop(void);

#endif
