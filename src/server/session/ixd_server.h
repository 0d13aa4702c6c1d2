/*
 * ixd_server.h: the parts of ixd around the SQL engine: configuration,
 * users, logging, the per-connection protocol session, and the listener.
 */
#ifndef IXD_SERVER_H
#define IXD_SERVER_H

#include <pthread.h>
#include <stdint.h>

#include "server/engine/ixd_engine.h"
#include "ixd_log.h"
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
 * password is wrong. An unknown user costs the same key derivation as a
 * known one (against a random dummy salt), so the two take the same time. */
int ixd_users_check(const ixd_users *u, const char *user, const char *password);
/* Writes one users-file line for user/password with a fresh random salt
 * into line (>= 256 bytes). Returns 0 or -1. */
int ixd_users_make_line(const char *user, const char *password, char *line, size_t len);

/* ---- login throttle (ixd_auth.c) -------------------------------------------
 * Per peer address (the IP address, without the port): the first
 * IXD_THROTTLE_FREE failed logins within IXD_THROTTLE_WINDOW_MS are answered
 * at once; after that every attempt from the address, successful or not, is
 * answered only after a delay of IXD_THROTTLE_BASE_MS << (failures - FREE),
 * at most IXD_THROTTLE_CAP_MS. Attempts from one address queue one behind the
 * other (each reserves the next slot), so parallel connections gain nothing.
 * An attempt that would have to wait longer than IXD_THROTTLE_MAX_WAIT_MS is
 * refused at once without checking the password. A successful login forgets
 * the address. The table holds IXD_THROTTLE_SLOTS addresses; when full, the
 * one whose last failure is oldest is forgotten. */
#define IXD_THROTTLE_FREE        5
#define IXD_THROTTLE_WINDOW_MS   (15 * 60 * 1000)
#define IXD_THROTTLE_BASE_MS     250
#define IXD_THROTTLE_CAP_MS      16000
#define IXD_THROTTLE_MAX_WAIT_MS 30000
#define IXD_THROTTLE_SLOTS       1024

typedef struct ixd_throttle ixd_throttle;

ixd_throttle *ixd_throttle_new(void);
void ixd_throttle_free(ixd_throttle *t);
/* Starts a login attempt from addr at now_ms (a monotonic clock). Returns
 * the milliseconds its answer must be held back (0 when the address is in
 * good standing), or -1 when the address must be refused without checking
 * the password. t == NULL: always 0. Never sleeps; holds the table's lock
 * only to update it. */
long ixd_throttle_begin(ixd_throttle *t, const char *addr, int64_t now_ms);
/* Records the outcome of the attempt begun from addr: ok != 0 forgets the
 * address, otherwise one more failure. t == NULL: no-op. */
void ixd_throttle_end(ixd_throttle *t, const char *addr, int ok, int64_t now_ms);
/* CLOCK_MONOTONIC in milliseconds. */
int64_t ixd_now_ms(void);

/* ---- login packets ---------------------------------------------------------
 * The smallest CONREQ ixp_conreq_decode accepts (every string empty, no
 * environment, no optional item): SL header 6, SQ_ASSOC 2, SQ_ASCBINARY 2, PF
 * protocol 4, float format 2, tag 108 + product 14, version 2, RDS id 2,
 * application id 2, capabilities 12, user type 2, user 2, password 2,
 * protocol name 8, protocol version 4, transport 8, network level 4, options
 * 8, server name 2, database slot 2, reserved 8, SQ_ASCENV + count 4,
 * SQ_ASCEOT 2 = 104 bytes. A login header declaring less, or more than
 * IXD_LOGIN_MAX_LEN (real clients send 300-1000 bytes; 64 environment pairs
 * of 100 bytes each stay well below), is refused as soon as its two length
 * bytes arrive, as is an SL type other than CONREQ. */
#define IXD_LOGIN_MIN_LEN 104
#define IXD_LOGIN_MAX_LEN 16384

/* Checks the first n bytes of a connection (n may be smaller than the
 * header). Returns NULL while they can still begin a CONREQ, else a static
 * reason. */
const char *ixd_login_header_why(const uint8_t *p, size_t n);

/* ---- the server ------------------------------------------------------------ */
typedef struct ixd_server {
    const char *data_dir;
    const char *server_name; /* DBSERVERNAME; default "ixd" */
    const char *banner;      /* version banner in the login accept */
    int verbose;             /* print every message */
    ixp_limits limits;       /* wire limits (zero fields: defaults) */
    size_t max_buffer;       /* bytes of undecoded input kept per session */
    size_t max_reply;        /* tuple bytes in one NFETCH/SFETCH reply; 0: IXD_MAX_REPLY */
    ixd_engine *engine;
    ixd_users *users;
    ixd_throttle *throttle; /* NULL: no login throttle */
    /* --redirect [NAME@]HOST:PORT: every login is answered with a redirect
     * there (as Connection Manager does); NULL: serve logins. */
    const char *redirect;
    /* --strict: answer as a conservative real Informix server would, for
     * the client's tests (docs/server.md "Strict mode"): the CONACC carries
     * a real server's serial instead of IXP_IXD_SERIAL, and the ixd-only
     * request forms are refused (ixd_session.c, strict_*; ixd_listen.c for
     * the interrupt). */
    int strict;
    pthread_mutex_t log_lock;
} ixd_server;

/* 1 when v is a valid --redirect value ([NAME@]HOST:PORT), else 0. */
int ixd_redirect_valid(const char *v);

/* Logs one line at level info (ixd_log.h: format and destination); session
 * 0 is the server itself. Thread-safe. */
void ixd_log(ixd_server *srv, unsigned long session, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* The same at another level. */
void ixd_logl(ixd_server *srv, ixd_log_level level, unsigned long session, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The default of max_reply: an NFETCH or SFETCH asking for a larger buffer
 * gets whole tuples up to this many bytes (at least one), and fetches again.
 * Clients ask for 4 KiB (JDBC, ESQL/C) to a few hundred KiB. */
#define IXD_MAX_REPLY (4u << 20)
/* Reply bytes a session may hold before ixd_sess_input stops decoding and
 * asks its caller to write them (IXD_SESS_MORE). One message may add up to
 * max_reply plus one tuple beyond it. */
#define IXD_OUT_HIGH (256u << 10)

/* ---- a session: one client connection (ixd_session.c) ---------------------
 * Sans-I/O: ixd_sess_input takes the bytes the client sent and appends the
 * reply bytes to `out`; the caller does the socket I/O. */
typedef struct ixd_sess ixd_sess;

ixd_sess *ixd_sess_new(ixd_server *srv, unsigned long id, const char *peer);
/* How a session takes a whole SQ_ID, SQ_BIND, SQ_EXECUTE, SQ_EOT group:
 * IXD_GROUPS_FAST (the default) decoded in one step (ixp_reader_bind_group)
 * and run without the per-message dispatch; IXD_GROUPS_DECODE decoded in
 * one step, each message dispatched; IXD_GROUPS_OFF message by message.
 * The replies are the same (tests/unit/test_sess_bindgroup.c, which sets
 * it). */
enum { IXD_GROUPS_OFF, IXD_GROUPS_DECODE, IXD_GROUPS_FAST };
extern int ixd_sess_fast_groups;
/* 1 (the default): an NFETCH reply's rows come from one engine call
 * (ixd_fetch_tuples); 0: row by row (ixd_fetch), for the same test. */
extern int ixd_sess_fetch_batch;

#define IXD_SESS_MORE 2 /* ixd_sess_input: write `out`, then call again with n = 0 */
/* Processes the complete messages in p[0..n) (and earlier leftovers), in
 * order. Returns 0 to go on (all input decoded, more bytes needed), 1 when
 * the session has ended normally (SQ_EXIT, or a login rejection that has
 * been answered), -1 when it must be dropped (the reason is logged), or
 * IXD_SESS_MORE when out holds IXD_OUT_HIGH bytes or more and input is still
 * buffered: the caller writes out (and may reset it), then calls again with
 * p = NULL, n = 0 to go on. Reply bytes are appended to out in every case.
 * Before login, input that cannot begin a CONREQ (ixd_login_header_why) is
 * refused (-1) as soon as it arrives. */
int ixd_sess_input(ixd_sess *s, const uint8_t *p, size_t n, ixb_wbuf *out);
/* fn(ud) is asked, while a statement of the session runs, whether to stop
 * it (-213): the listener answers from the socket (a client interrupt,
 * proto/ix_interrupt.h) and from shutdown. 0 goes on, IXD_INTR_STOP stops
 * the statement, IXD_INTR_END stops it and ends the session: the client is
 * gone, so the rest of its input (a pipelined COMMIT, say) is not handled
 * and ixd_sess_input returns -1. */
#define IXD_INTR_STOP 1
#define IXD_INTR_END  2
void ixd_sess_set_interrupt_check(ixd_sess *s, int (*fn)(void *ud), void *ud);
/* The client channel of the session's statements (ixd_set_client_channel). */
void ixd_sess_set_client_channel(
    ixd_sess *s, int (*fn)(void *ud, const uint8_t *req, size_t n, struct ixp_msg *ans), void *ud);
/* fn(ud) says whether the client has sent bytes the session has not been
 * given yet (1) or not (0), without waiting: strict mode's login check
 * (docs/server.md "Strict mode"). NULL: only the session's own buffer. */
void ixd_sess_set_input_probe(ixd_sess *s, int (*fn)(void *ud), void *ud);
/* 1 once the login has been accepted. */
int ixd_sess_logged_in(const ixd_sess *s);
/* After the input that held the login: the milliseconds the login answer
 * (already in out) must be held back by the login throttle, then 0. */
long ixd_sess_take_login_wait(ixd_sess *s);
/* Ends the session: an open transaction rolls back. NULL is a no-op. */
void ixd_sess_free(ixd_sess *s, const char *reason);

/* ---- the data directory's lock (ixd_lock.c) --------------------------------
 * Creates dir if missing and takes an fcntl write lock on dir/IXD_LOCK_FILE
 * (which then holds the pid). Returns the descriptor to keep open for as long
 * as the server runs, or with a message in err IXD_LOCK_BUSY when another
 * process holds the lock ("in use by another ixd (pid N, ...)") and -1 when
 * the directory or the file cannot be made. */
#define IXD_LOCK_FILE "ixd.lock"
#define IXD_LOCK_BUSY (-2)
int ixd_lock_data_dir(const char *dir, char *err, size_t errlen);

/* ---- the listener (ixd_listen.c) ------------------------------------------ */
typedef struct ixd_listen_opts {
    const char *host;               /* default 127.0.0.1 */
    int port;                       /* default 9088; 0 = any free port */
    const char *tls_cert, *tls_key; /* both set: TLS from the first byte (onsocssl) */
    const char *port_file;          /* if set, the bound port is written there once listening */
    int login_timeout;   /* seconds to complete the login (TLS handshake included); 0: none */
    int idle_timeout;    /* seconds a logged-in session may wait on its client; 0: none */
    int max_connections; /* sessions at once; 0: ixd_default_max_connections() */
} ixd_listen_opts;

#define IXD_LOGIN_TIMEOUT 10 /* default of login_timeout */
/* Connections over max_connections are answered with this svc_error
 * (Informix's answer when LIMITNUMSESSIONS is reached) and closed. */
#define IXD_EBUSY IXV_E_THREAD
/* The answer to an unknown user and to a wrong password alike. */
#define IXD_ELOGIN IXV_E_LOGIN

/* The default connection cap: min(descriptors, memory) where descriptors =
 * (RLIMIT_NOFILE soft limit - 64) / 6 and memory = physical memory / 16 MiB,
 * at least 1. Call after raising the soft limit (ixd_listen_run does). */
int ixd_default_max_connections(void);

/* Listens and serves until SIGTERM/SIGINT (or ixd_listen_stop). Each
 * connection gets its own thread and session. On stop, sessions are ended
 * (their transactions roll back) before it returns. Returns 0, or -1 after
 * logging why it could not listen. */
int ixd_listen_run(ixd_server *srv, const ixd_listen_opts *o);
/* Asks a running ixd_listen_run to stop (async-signal-safe). */
void ixd_listen_stop(void);

#endif
