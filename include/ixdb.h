/*
 * ixdb.h: the public C API of libixdb, a native client for IBM Informix (SQLI).
 *
 * This header is the specification. Every function says what it returns, who
 * owns each pointer, and how long a borrowed pointer stays valid.
 *
 * Conventions
 *   - Public names use the ix_ / IX_ prefix; handles are opaque.
 *   - Functions return an int status: IX_OK (0) or a positive informational
 *     code on success, a negative IX_E* code on failure. The positive codes
 *     a libixdb call returns are IX_ROW, IX_DONE, IX_NULL_VALUE (the
 *     value accessors' answer for SQL NULL, see "The NULL rule" below) and
 *     IX_UNDESCRIBED (ix_param_describe), and in non-blocking use
 *     IX_WANT_READ, IX_WANT_WRITE, IX_WANT_TIMER;
 *     IX_NEED_MORE and IX_ESPACE belong to the codec (src/proto, src/types)
 *     and no function declared in this header returns them.
 *   - Lengths are size_t, in and out. A length in (an SQL text, a bound
 *     text) may be IX_NTS for a NUL-terminated string: every value above
 *     PTRDIFF_MAX counts as IX_NTS, so -1 keeps working. Sizes that are wire
 *     fields keep the wire's type (int32_t fetch buffer sizes, the int
 *     encoded length of a describe, the int error offset); counts of rows
 *     are int64_t, indexes of parameters and columns int.
 *   - The library never calls exit() and never prints.
 *
 * Contents: status codes and version (shared by every part: codec, server,
 * shell), then the client library libixdb: connections (ix_conn), errors,
 * statements (ix_stmt: prepare / bind / step / column), one-shot execution,
 * transactions, streaming cursors, pipelined batches, TimeSeries helpers,
 * tracing and TLS.
 */
#ifndef IXDB_H
#define IXDB_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define IXDB_VERSION_MAJOR  0
#define IXDB_VERSION_MINOR  1
#define IXDB_VERSION_PATCH  0
#define IXDB_VERSION_STRING "0.1.0"

/* Status codes. Never renumbered; new codes are appended. */
typedef enum ix_rc {
    IX_OK = 0,          /* success */
    IX_NEED_MORE = 1,   /* codec only: the input ends inside a message; feed more bytes */
    IX_NULL_VALUE = 2,  /* the value is SQL NULL (value accessors; not an error) */
    IX_EMALFORMED = -1, /* bytes that no valid message or value has */
    IX_ELIMIT = -2,     /* a length on the wire exceeds a configured limit */
    IX_ENOMEM = -3,     /* an allocation failed */
    IX_EINVAL = -4,     /* an argument is out of range (bad type, bad text, misuse) */
    IX_ERANGE = -5,     /* a value does not fit the target type */
    IX_ESPACE = -6,     /* codec only: a caller-supplied output buffer is too small */
    /* Client library codes (libixdb). */
    IX_ECONN = -7,    /* the connection is dead (I/O error, peer closed, lost sync) */
    IX_ESQL = -8,     /* the server reported an SQL error: see ix_sqlcode / ix_errmsg */
    IX_ETIMEOUT = -9, /* connect or read timeout expired (the connection is then dead) */
    IX_ETLS = -10,    /* TLS handshake, certificate verification or TLS I/O failed */
    IX_EMISUSE = -11, /* API misuse: NULL handle, wrong state, bad index, closed conn */
    IX_EPROTO = -12,  /* the server sent something this client cannot handle */
    /* the operation needs a request form only ixd is known to take (or a
     * routine no public source shows on another server: ix_lob_size), and
     * the connection does not use such forms (ix_conn_compat
     * "conservative"; docs/protocol.md "Evidence"); nothing was sent */
    IX_ENOTSUP = -13,
    IX_ROW = 100,  /* ix_step: a row is ready */
    IX_DONE = 101, /* ix_step: the statement has finished */
    /* Non-blocking use (see "non-blocking" below): wait, then call again. */
    IX_WANT_READ = 102,  /* wait until ix_socket is readable */
    IX_WANT_WRITE = 103, /* wait until ix_socket is writable */
    IX_WANT_TIMER = 104, /* ix_connect_poll: wait ix_timeout_ms, no socket */
    /* ix_param_describe: the statement's describe does not say which column
     * the parameter goes into (not an error) */
    IX_UNDESCRIBED = 105,
} ix_rc;

/* Returns a static, NUL-terminated English name for rc ("malformed input",
 * ...). Never NULL; unknown codes give "unknown status". The caller must not
 * free it. */
const char *ix_rc_str(int rc);

/* ========================================================================== *
 * libixdb: the client library                                                *
 * ========================================================================== *
 *
 * Threads: a connection and its statements are used by one thread at a time;
 * different connections may be used from different threads at once. The
 * library keeps no mutable global state but the allocator ix_set_allocator
 * chooses, which is set once, before any other call.
 *
 * Errors: every function that can fail returns an int status (IX_OK, or a
 * positive informational code such as IX_ROW / IX_DONE, or a negative IX_E*
 * code) and records the details on the connection: ix_errcode, ix_sqlcode,
 * ix_isamcode, ix_sqlstate, ix_erroffset and ix_errmsg describe the most
 * recent failure and are cleared by the next call that talks to the server.
 * IX_ECONN, IX_ETIMEOUT, IX_ETLS and IX_EPROTO mark the connection dead: from
 * then on every call on it (and on its statements) returns IX_ECONN at once,
 * without I/O.
 *
 * Memory: results belong to the statement that produced them; strings
 * returned by accessors are borrowed and their validity is stated per
 * function. Nothing returned by the library is freed by the caller except
 * through ix_close / ix_finalize.
 */

typedef struct ix_conn ix_conn; /* one connection (session) to a server */
typedef struct ix_stmt ix_stmt; /* one prepared statement on a connection */

/* A length argument meaning "the string is NUL-terminated" (see
 * Conventions: any length above PTRDIFF_MAX, -1 included, means the same). */
#define IX_NTS ((size_t)-1)

/* ---- memory ---------------------------------------------------------------- */

/* The functions libixdb allocates with, in the style of nghttp2_mem and
 * SQLITE_CONFIG_MALLOC. malloc(size, ud) is never asked for 0 bytes;
 * realloc(ptr, size, ud) is called only with a pointer malloc or realloc
 * returned and size > 0; free(ptr, ud) only with such a pointer, never NULL.
 * A NULL result means out of memory: the call that needed it returns
 * IX_ENOMEM (ix_errmsg "out of memory", or a text containing it) and nothing
 * leaks. Which handles stay usable:
 *   - a failure before a request is written (ix_prepare's own statement,
 *     ix_bind_*, ix_set_stmt_cache, code-set conversion, the texts of
 *     ix_column_text / ix_column_decltype) leaves the connection and the
 *     statement usable; the call can be retried;
 *   - a failure while a request is queued or a reply is read (a describe,
 *     a fetched batch, a BYTE / TEXT value, a batch's rows, the login)
 *     marks the connection dead, since the rest of the server's answer
 *     cannot be matched any more: that call returns IX_ENOMEM, later ones
 *     IX_ECONN (ix_conn_is_dead), and only ix_finalize / ix_close remain;
 *   - ix_finalize and ix_close always free everything, also when they
 *     return IX_ENOMEM (ix_finalize could not queue its RELEASE: the
 *     connection is then dead); ix_pool_release closes such a member.
 * ix_connect gives *out NULL only when the connection itself could not be
 * allocated (ix_errcode(NULL) is IX_ENOMEM). ud is passed through untouched.
 * Not through these hooks: OpenSSL's allocations, iconv_open's converters
 * (one pair per connection that converts code sets, freed by ix_close), and
 * the C library's own inside getaddrinfo, getservbyname_r and the stdio
 * stream that reads the sqlhosts file (freed before ix_connect returns). */
typedef struct ix_allocator {
    void *(*malloc)(size_t size, void *ud);
    void *(*realloc)(void *ptr, size_t size, void *ud);
    void (*free)(void *ptr, void *ud);
    void *ud;
} ix_allocator;

/* Makes every later allocation of libixdb (connections, statements, rows,
 * pools, TimeSeries readers and writers, the codec's buffers) use *a; NULL
 * restores the C library's malloc/realloc/free. The struct is copied. Call
 * it before any other libixdb call, or when no handle of any kind is open:
 * memory is freed by the allocator in force when it is freed, so switching
 * while handles are open would free their memory with the wrong functions.
 * Not thread-safe against other libixdb calls.
 * Returns IX_OK, or IX_EMISUSE when a function pointer of *a is NULL. */
int ix_set_allocator(const ix_allocator *a);

/* ---- connecting ------------------------------------------------------------ */

/*
 * Opens a connection. dsn is either a URL
 *
 *   informix://user:password@host:port/database?server=NAME&key=value...
 *
 * (user, password and database are %-decoded; host may be [IPv6]) or a
 * keyword string "host=h port=9088 server=NAME database=db user=u
 * password=p ..." (values may be single-quoted, \\' and \\\\ escape inside
 * quotes). Keys (both forms):
 *   host (default "localhost"), port (default 9088), server (default
 *   $INFORMIXSERVER, else empty), database (none: no SQ_DBOPEN), user
 *   (default $USER), password, fetch_buffer (bytes per NFETCH, or "auto":
 *   see IX_FETCH_AUTO; default $FET_BUF_SIZE, else auto), readahead (NFETCH
 *   requests kept in flight while the application reads a batch, 0 = off;
 *   default: adaptive with the automatic buffer, 1 with a static one), connect_timeout and
 * read_timeout (seconds, may be fractional; 0 = none; defaults 30 and 0; a server that hangs while
 * its host is up is only noticed through read_timeout), keepalive (TCP keepalive: idle seconds
 * before the first probe, then every 10 s, 6 probes; default 60, 0 = off), client_locale /
 * db_locale / dbdate (default $CLIENT_LOCALE / $DB_LOCALE / $DBDATE; sent in the login environment
 * only when set; the locales also choose the code-set conversion, see ix_locale_codeset), sqlhosts
 * (the sqlhosts file; default $INFORMIXSQLHOSTS, else $INFORMIXDIR/etc/sqlhosts), tls (0/1; default
 * 0), tls_verify (default 1: the server certificate and host name are checked), tls_ca (a PEM CA
 * file; default: the system store), compat (auto, conservative or fast; default auto: which
 * request forms are sent, see below), watchdog (seconds, may be fractional; default 30, 0 = none:
 * the longest wait for the answer to a request that runs no user statement, a CLOSE, a RELEASE or
 * a PREPARE on its own; expiry kills the connection with IX_ETIMEOUT; the login is bounded by
 * connect_timeout). Unknown keys are an error (IX_EINVAL), so a typo does not go
 * unnoticed. dsn NULL or "" uses only the defaults.
 *
 * sqlhosts: when the DSN gives neither host nor port (a URL such as
 * informix://u:p@/db?server=NAME has neither) and a server name is known,
 * the server is looked up in the sqlhosts file. Lines are "dbservername
 * nettype hostname servicename [options]" ('#' comments); nettypes
 * onsoctcp / ontlitcp (TCP; also with the ol, dr prefixes) and onsocssl
 * (TLS, verified per tls_verify / tls_ca); the service is a port number or
 * a services-database name (getservbyname_r). A group line "NAME group - -
 * [i=n]" stands for the lines carrying the option g=NAME, tried in file
 * order: the first member that accepts the TCP (and TLS) connection is
 * used, and its dbservername is sent in the login (members whose connect
 * fails or times out are passed over; a login refused by a member that did
 * accept is not retried elsewhere). A named sqlhosts file that cannot be
 * read or does not list the server gives IX_ECONN; when only the default
 * file is missing, host and port keep their defaults.
 *
 * Other session variables are sent in the login environment when they are
 * set in the process environment: DBCENTURY, DBTIME, DBMONEY, DBLANG,
 * GL_DATE, GL_DATETIME, DBTEMP, DBSPACETEMP, OPTCOMPIND, PDQPRIORITY,
 * DELIMIDENT, NODEFDAC, IFX_UPDDESC, IFX_AUTOFREE, IFX_DEFERRED_PREPARE,
 * OPT_GOAL, PSORT_NPROCS, DBNLS, IFX_LOB_XFERSIZE.
 *
 * Request forms (docs/protocol.md "Evidence" lists every form with the
 * public source that shows a real server taking it):
 *   conservative  only verified forms: each login group awaited, PREPARE on
 *                 its own, then ID CURNAME [BIND] OPEN ID NFETCH in one
 *                 group; NFETCH sizes up to 32767, or 1 MiB when the
 *                 banner says 11.70.xC5 or later; ix_cancel closes the
 *                 connection. 2 round trips for a small SELECT, 4 for the login.
 *   fast          also the forms only ixd is known to take: the login
 *                 groups in one flight, the deferred PREPARE (travels with
 *                 the first OPEN or EXECUTE), NFETCH up to 1 MiB (more with
 *                 a static fetch_buffer), ix_cancel by TCP urgent data.
 *                 1 round trip for a small SELECT, 2 for the login.
 *   auto          fast when the server is ixd (it says so in its login
 *                 accept, a field a real server fills otherwise), else
 *                 conservative. Nothing needs learning: the accept arrives
 *                 before any optional form could be sent.
 * The keys deferred_prepare, optofc and pipeline_login (0/1, default 1)
 * turn one form off in any mode. ix_conn_compat and ix_conn_forms say what
 * a connection uses.
 *
 * If $IXDB_TRACE names a file, every message in both directions is appended
 * to it, one line each (see ix_set_trace).
 *
 * *out always receives a handle (NULL only when even that allocation fails,
 * with IX_ENOMEM), so that the error can be read from it; release it with
 * ix_close whatever this returns.
 * Returns IX_OK; IX_EINVAL (bad dsn, a locale whose code set is unknown, or
 * an unusable sqlhosts entry; message in ix_errmsg); IX_ECONN (cannot
 * resolve or reach the server or any member of its group, it closed the
 * connection, or the server is not in a named sqlhosts file); IX_ETIMEOUT;
 * IX_ETLS; IX_ESQL (login rejected: ix_sqlcode -951/-952/-387/-761..., with
 * the standard text; or the database could not be opened, e.g. -329: the
 * session is then open without a database); IX_EPROTO (unexpected reply,
 * e.g. a PAM conversation or a redirect); IX_ENOMEM.
 */
int ix_connect(ix_conn **out, const char *dsn);

/*
 * Says goodbye to the server (SQ_EXIT) if the connection is alive, closes
 * the socket and frees the connection. Statements of the connection that are
 * still open are detached: their current row stays readable, every other
 * call on them returns IX_EMISUSE, and ix_finalize still frees them. An open
 * transaction is rolled back by the server. conn NULL is a no-op.
 */
void ix_close(ix_conn *conn);

/* 1 if the connection is dead (see "Errors" above) or conn is NULL, else 0. */
int ix_conn_is_dead(const ix_conn *conn);

/*
 * Code sets. The client side is UTF-8 unless CLIENT_LOCALE names another
 * code set. When DB_LOCALE's code set differs from the client's, the
 * connection converts (with iconv) the SQL text of ix_prepare / ix_exec and
 * the text of ix_bind_text to the database code set, and the values of
 * CHAR, NCHAR, VARCHAR, NVARCHAR, LVARCHAR and TEXT columns to the client
 * code set in ix_column_text / ix_column_text_len. ix_column_raw and
 * ix_column_blob, ix_bind_blob, column names and server error texts keep
 * the database's bytes. A character the target code set lacks makes the
 * call fail with IX_EINVAL.
 *
 * ix_locale_codeset maps an Informix locale name (language_territory.
 * codeset[@modifier]; only the code set part matters) or a bare code set to
 * the iconv name, case-insensitively; NULL when unknown:
 *   utf8, 57372 -> UTF-8           8859-1, 819 -> ISO-8859-1
 *   8859-2, 912 -> ISO-8859-2      8859-5, 915 -> ISO-8859-5
 *   8859-6, 1089 -> ISO-8859-6     8859-7, 813 -> ISO-8859-7
 *   8859-8, 916 -> ISO-8859-8      8859-9, 920 -> ISO-8859-9
 *   8859-13, 921 -> ISO-8859-13    8859-15, 923 -> ISO-8859-15
 *   CP1250..CP1257, 1250..1257 -> CP1250..CP1257
 *   pc-latin-1, 850 -> CP850       pc-latin-2, 852 -> CP852
 *   437 -> CP437                   koi8-r, 878 -> KOI8-R
 *   sjis-s, sjis, 932 -> CP932     ujis, eucjp, 5050 -> EUC-JP
 *   big5, 950 -> BIG5              gb, gb2312-80, 1381 -> GB2312
 *   gb18030-2000, 5488 -> GB18030  ksc, ksc5601, 970 -> EUC-KR
 *   thai620, 874 -> TIS-620        ascii, 646, 367 -> ASCII
 * The result is a static string.
 */
const char *ix_locale_codeset(const char *informix_locale);

/* The fetch buffer size meaning "automatic", the default (ix_set_fetch_buffer,
 * ix_stmt_set_fetch_buffer, fetch_buffer=auto, FET_BUF_SIZE=auto): each
 * NFETCH is sized from the row width (the describe's tuple size), the rows
 * the statement asks for (SELECT FIRST n / LIMIT n) and the measured round
 * trip. A cursor's first NFETCH asks for 256 KiB (n rows for FIRST n; at
 * least IX_FETCH_AUTO_MIN and one row); after each full reply whose round
 * trip (send to first reply byte, the smallest seen on the cursor) is at
 * least 1/16 of its own transfer time (first to last byte, decoding
 * included), the size grows 4 times, up to IX_FETCH_AUTO_MAX, and the
 * read-ahead depth (unless one was set) becomes the number of such replies
 * one round trip takes; when the round trip is cheaper, batches of 64 KiB,
 * one ahead. One statement never has more than 4 MiB of NFETCH sizes asked
 * for at once (in flight, queued and being read), plus one row per reply
 * (docs/c-api.md). */
#define IX_FETCH_AUTO     (-1)
#define IX_FETCH_AUTO_MIN 4096
#define IX_FETCH_AUTO_MAX (1024 * 1024)

/* Setters; each returns IX_OK, IX_EMISUSE (NULL conn) or IX_EINVAL.
 *   ix_set_fetch_buffer: bytes asked for in each NFETCH for statements
 *     prepared from now on (1 .. 2^31-1, or IX_FETCH_AUTO; values below a
 *     row's size still fetch one row per round trip).
 *   ix_set_readahead: NFETCH requests kept in flight (0 .. 64; 0 = off).
 *   ix_set_read_timeout: milliseconds to wait for the server (0 = forever);
 *     expiry kills the connection with IX_ETIMEOUT. */
int ix_set_fetch_buffer(ix_conn *conn, int32_t bytes);
int ix_set_readahead(ix_conn *conn, int depth);
int ix_set_read_timeout(ix_conn *conn, int millis);

/*
 * Cancels the request the server is working on for conn. A connection with
 * nothing in flight ignores it. How depends on the server (ix_conn_forms):
 *   urgent_cancel (ixd): interrupts the statement as ESQL/C's sqlbreak()
 *     does: the call waiting for it (in the thread using conn) returns
 *     IX_ESQL with ix_sqlcode IX_SQLCODE_INTERRUPTED (-213 "Statement
 *     interrupted by user"), and the connection stays usable; cursors, the
 *     transaction and the database stay as they were (roll back if the work
 *     must not stand). A statement that ends before the server sees the
 *     request is not affected. One send() of TCP urgent data.
 *   otherwise (no public source shows how a real server takes an interrupt
 *     on the wire, and a guess could corrupt the stream): the socket is shut
 *     down; the waiting call returns IX_ECONN ("cancelled: ..."), the
 *     connection is dead (ix_conn_is_dead; a pool discards it) and the
 *     server rolls back its open transaction when it notices the session end.
 * Safe from another thread and from a signal handler (async-signal-safe);
 * it must not race with ix_close(conn). See docs/protocol.md "Interrupts".
 * Returns IX_OK (done, already on its way, or nothing to cancel), IX_ECONN
 * (no live connection), IX_EMISUSE (NULL conn). Records nothing on conn.
 */
int ix_cancel(ix_conn *conn);

/*
 * A function called (in the thread using conn) when a wait for the server
 * is interrupted by a signal (EINTR): returning non-zero calls ix_cancel and
 * the wait goes on for the server's answer (then -213); 0 just goes on
 * waiting. The Python module uses it to turn Ctrl-C into a cancel. fn NULL
 * removes it. ud is borrowed. Returns IX_OK or IX_EMISUSE (NULL conn).
 */
typedef int (*ix_signal_fn)(void *ud);
int ix_set_signal_handler(ix_conn *conn, ix_signal_fn fn, void *ud);

/* Server facts from the login: the DBSERVERNAME and the version banner
 * (borrowed, valid until ix_close; "" if unknown). */
const char *ix_server_name(const ix_conn *conn);
const char *ix_server_version(const ix_conn *conn);
/* The request forms the connection uses, chosen at login (see "Request
 * forms" at ix_connect): ix_conn_compat gives "fast" or "conservative";
 * ix_conn_forms a comma-separated list of the optional forms in use, from
 * pipeline_login, deferred_prepare, urgent_cancel, open_fetch (OPEN and the
 * first NFETCH in one group), fetch_1m (NFETCH sizes above 32767). Both
 * borrowed, valid until ix_close; "" before the login is accepted. */
const char *ix_conn_compat(const ix_conn *conn);
const char *ix_conn_forms(const ix_conn *conn);

/* ---- clusters (docs/c-api.md "Clusters") ----
 * The server that answered this connection, as "NAME@HOST:PORT" ("[V6]"
 * for an IPv6 host): the sqlhosts group member, or the server a login
 * redirect led to, with the dbservername the login was sent with (the one
 * the server reported when none was sent). The string belongs to the
 * connection and is valid until ix_close; "" when conn is NULL or never
 * connected. */
const char *ix_conn_server(const ix_conn *conn);
/* The current database as it was named: at login the DSN's, then the last
 * DATABASE or CREATE DATABASE that succeeded; "" when none is open (CLOSE
 * DATABASE, DROP DATABASE of it) or conn is NULL. Borrowed, valid until the
 * next statement on conn or ix_close. */
const char *ix_conn_database(const ix_conn *conn);

/* ---- errors -------------------------------------------------------------- */

/* The IX_* code of the last failure on conn (IX_OK if the last call
 * succeeded). NULL conn gives IX_ENOMEM (ix_connect could not allocate). */
int ix_errcode(const ix_conn *conn);
/* The Informix SQLCODE of the last failure (negative, e.g. -201), 0 when the
 * failure was not reported by the server. */
int ix_sqlcode(const ix_conn *conn);
/* The secondary ISAM code (e.g. -100 with -239), or 0. */
int ix_isamcode(const ix_conn *conn);
/* The byte offset in the SQL text that the server blamed (syntax errors),
 * else 0. */
int ix_erroffset(const ix_conn *conn);
/*
 * A five-character SQLSTATE derived from the SQLCODE the way Informix JDBC
 * classes its errors (static string, never NULL):
 *   "00000" success; "02000" no data (100);
 *   "42000" syntax/access (-201, -202, -236, -254, -349, -481, -410, -404),
 *   "42S02" unknown table (-206), "42S22" unknown column (-217),
 *   "42S01" table exists (-310), "42S11" index exists (-316);
 *   "23000" integrity (-239, -268, -391, -530, -691, -692, -703);
 *   "22xxx" data: "22018" conversion (-1213), "22003" overflow (-1215,
 *     -1226), "22007" datetime format (-1262, -1263, -1264), "22012"
 *     division by zero (-1202), "22008" date fields (-1204, -1205, -1206);
 *   "25000" transaction state (-255, -256, -535);
 *   "40001" lock conflicts and deadlock (-107, -143, -154, -243, -244);
 *   "28000" authorization (-951, -952, -387);
 *   "08001" cannot connect (-908, -930, -25596, -761, -25580 and client IX_ECONN before the
 *     login), "08004" server rejected (-329, -408), "08006" connection
 *     failure (IX_ECONN, IX_ETIMEOUT after the login), "08000" IX_ETLS,
 *     "08S01" IX_EPROTO (communication link failure);
 *   "HY000" other client-side errors (IX_EINVAL, IX_EMISUSE, ...);
 *   "IX000" any other server error (Informix's own class).
 */
const char *ix_sqlstate(const ix_conn *conn);
/*
 * The full message of the last failure (never NULL; "" after success): for
 * a server error the standard Informix text for the SQLCODE with the
 * server's insertion text in place of %s (e.g. "The specified table (t1) is
 * not in the database."; for IX_SQLCODE_TOO_COMPLEX and IX_SQLCODE_STMT_LONG,
 * whose texts have no %s, the insertion text follows in parentheses: it
 * names the limit), followed by the ISAM text in brackets when there
 * is an ISAM code; otherwise a client-side description. Borrowed: valid
 * until the next call on conn or one of its statements.
 */
const char *ix_errmsg(const ix_conn *conn);
/* SQLCODEs the library itself acts on (the standard Informix codes). */
enum {
    IX_SQLCODE_INTERRUPTED = -213,      /* Statement interrupted by user (ix_cancel) */
    IX_SQLCODE_NOT_IN_TXN = -255,       /* Not in transaction */
    IX_SQLCODE_TXN_UNAVAILABLE = -256,  /* Transaction not available (unlogged database) */
    IX_SQLCODE_LONG_TXN_ABORTED = -458, /* Long transaction aborted (rolled back) */
    IX_SQLCODE_ALREADY_IN_TXN = -535,   /* Already in transaction */
    /* Memory allocation failed during query processing: from ixd, a
     * statement past one of its limits (nesting, terms; the insertion text
     * names it) */
    IX_SQLCODE_TOO_COMPLEX = -208,
    IX_SQLCODE_STMT_LONG = -460, /* Statement length exceeds maximum */
    /* The codes of a connect that reached no server (ix_unreached_sqlcode) */
    IX_SQLCODE_CONNECT_FAILED = -908,    /* Attempt to connect to database server failed */
    IX_SQLCODE_NO_HOST = -930,           /* Cannot connect to database server (host name) */
    IX_SQLCODE_NOT_IN_SQLHOSTS = -25596, /* server name not listed in sqlhosts */
};
/*
 * The SQLCODE IBM's clients give when a connect reached no server, for
 * conn's last failure: IX_SQLCODE_NO_HOST (the host name does not
 * resolve), IX_SQLCODE_NOT_IN_SQLHOSTS (the server name is not in the
 * sqlhosts file), IX_SQLCODE_CONNECT_FAILED (every other way: refused,
 * unreachable, timed out, TLS handshake or certificate). 0 when the last
 * failure is not such a one (the server answered: ix_sqlcode has its code;
 * a failure after the login) or there is none. ix_connect records these
 * failures with no SQLCODE (ix_sqlcode 0) and the reason in ix_errmsg; the
 * Python module and the ODBC driver report this code.
 */
int ix_unreached_sqlcode(const ix_conn *conn);
/* The standard text of an SQLCODE or ISAM code from the built-in catalogue
 * (with %s left in place), or NULL if the code is not in it. Static. */
const char *ix_errtext(int sqlcode);
const char *ix_isam_errtext(int isamcode);

/* ---- statements ---------------------------------------------------------- */

/*
 * Prepares one SQL statement (PREPARE + describe). len is the byte length of
 * sql, or IX_NTS (-1) when sql is NUL-terminated. The number of ? placeholders
 * (outside quotes and comments) is counted here.
 * Deferred PREPARE (when ix_conn_forms lists deferred_prepare: against ixd
 * by default, see "Request forms" at ix_connect): for a SELECT without INTO
 * and for INSERT / UPDATE / DELETE nothing is sent here; the PREPARE
 * travels with the first ix_step / ix_batch_execute (one round trip in
 * all), and the statement's SQL errors (-201, -206, -217, ...) are returned
 * by that first ix_step / ix_batch_execute, or by the first describe call
 * (ix_column_count, ix_column_name, ix_stmt_type, ...: each returns its "no
 * value" answer and leaves the error on the connection) if one comes first:
 * the describe calls send the PREPARE on their own (one round trip). Other
 * statements, and every statement when the connection does not defer, are
 * prepared here and their errors returned here. ix_prepare_v2 with
 * IX_PREPARE_NOW prepares at once on every connection.
 * On success *out receives a statement owned by the caller (ix_finalize it);
 * on failure *out is NULL.
 * Returns IX_OK; IX_ESQL (e.g. -201 with ix_erroffset, -206, -217; deferred
 * statements: at the first step or describe call instead, see above); IX_EMISUSE (NULL argument);
 * IX_ENOMEM; IX_ECONN / IX_ETIMEOUT / IX_ETLS.
 */
int ix_prepare(ix_conn *conn, const char *sql, size_t len, ix_stmt **out);

/* Flags of ix_prepare_v2 (DECLARE ... SCROLL CURSOR WITH HOLD). */
#define IX_PREPARE_SCROLL    0x1u /* a scroll cursor: ix_fetch_first ... work on it */
#define IX_PREPARE_WITH_HOLD 0x2u /* the cursor stays open across COMMIT WORK */
#define IX_PREPARE_NOW       0x4u /* never deferred: statement errors come from ix_prepare_v2 */

/*
 * ix_prepare with flags (0: the same as ix_prepare). The flags shape the
 * cursor of a statement that returns rows and are ignored by any other.
 * Returns what ix_prepare returns, and IX_EINVAL for an unknown flag.
 */
int ix_prepare_v2(ix_conn *conn, const char *sql, size_t len, unsigned flags, ix_stmt **out);

/* The connection of stmt (NULL after ix_close of it). */
ix_conn *ix_stmt_conn(const ix_stmt *stmt);
/* Number of ? placeholders. */
int ix_bind_parameter_count(const ix_stmt *stmt);

/* What the server's describe says of a parameter (ix_param_describe). */
typedef struct ix_param_desc {
    int type;     /* the column's ix_type code (flag bits removed), as ix_column_type */
    int enclen;   /* its encoded length / qualifier, as ix_column_enclen */
    int notnull;  /* 1 if the column was described NOT NULL, else 0 */
    int lob_type; /* IX_T_BLOB / IX_T_CLOB for a smart-LOB column, else 0 */
} ix_param_desc;

/*
 * The column parameter i (1-based, as the ix_bind_* calls count) goes into,
 * as the statement's describe places it. The describe of an INSERT lists
 * its target columns (the column list's, in its order, or the table's); when
 * it lists as many as the statement has parameters (INSERT ... VALUES (?,
 * ?, ...)), parameter i is column i, as IBM's libsqli takes it. Nothing else
 * is described: UPDATE, WHERE clauses, INSERT ... SELECT, a VALUES list
 * with literals or expressions among the placeholders.
 * A deferred statement (ix_prepare) is prepared first, on its own (one
 * round trip, as ix_column_count does); no new request form.
 * *out (the caller's) is filled when IX_OK, zeroed otherwise.
 * Returns IX_OK; IX_UNDESCRIBED (the describe does not place parameter i;
 * nothing recorded); IX_ERANGE (i out of range), IX_EMISUSE (NULL
 * argument), or the PREPARE's failure (IX_ESQL, IX_ECONN, ...), recorded on
 * the connection.
 */
int ix_param_describe(ix_stmt *stmt, int i, ix_param_desc *out);

/* Lifetime of bound text and blobs (like SQLITE_STATIC / SQLITE_TRANSIENT):
 * IX_STATIC: the caller keeps the bytes unchanged until the statement is
 * finalized or the parameter is re-bound or cleared; IX_TRANSIENT: the
 * library copies them before the bind call returns; any other function
 * pointer: the library keeps the pointer and calls it with the pointer when
 * it no longer needs the bytes (also when the bind call fails). */
typedef void (*ix_destructor)(void *);
#define IX_STATIC    ((ix_destructor)0)
#define IX_TRANSIENT ((ix_destructor)(intptr_t)-1)

/*
 * Bind a value to parameter i (1-based, like SQLite). Values stay bound
 * across ix_step / ix_reset until re-bound or ix_clear_bindings; a parameter
 * never bound is sent as NULL. What goes on the wire (sqli-protocol §3.4):
 *   null      indicator -1
 *   int/int64 INTEGER (2) when the value fits 32 bits, else BIGINT (52)
 *   double    FLOAT (3)
 *   text      VARCHAR (13), i16 length: n bytes (n IX_NTS: strlen), up to
 *             32767 bytes (after code-set conversion); longer values go as
 *             TEXT (12), as blobs do
 *   blob      VARCHAR (13) with the bytes as they are, up to 32767 bytes;
 *             longer values go as BYTE (11). A BYTE/TEXT value goes to ixd
 *             inline (i32 length, bytes: ixdb's own form), to other servers
 *             (ix_conn_compat conservative) as a real server takes it: a
 *             descriptor in the BIND, then SQ_BBIND and SQ_BLOB chunks in
 *             the same request (docs/protocol.md "BYTE and TEXT values").
 *             On such a connection a text, blob or NULL for a parameter
 *             that the describe of INSERT ... VALUES (?, ...) gives a
 *             BYTE/TEXT column goes that way too, whatever its length.
 *             ixd accepts BYTE/TEXT values for BYTE, TEXT, CHAR-family
 *             and LVARCHAR columns: a column that holds less refuses the
 *             value as it refuses a long VARCHAR. A text or blob of the
 *             one byte 00 goes as TEXT / BYTE too: as a VARCHAR it is the
 *             NULL form (01 00), which servers refuse as a value. A
 *             VARCHAR column keeps it, but fetches it as NULL (the tuple
 *             form is the same); a BLOB, CLOB, LVARCHAR or BYTE column
 *             gives it back.
 *   bool      BOOLEAN (45), one byte 01/00
 *   decimal_text  DECIMAL (5): exact, text such as "-123.4500" or "1e-5";
 *             the scale slot is the number of fraction digits written
 *   date      DATE (7): day number (0 = 1899-12-31), or year/month/day
 *   datetime_text DATETIME (10) "YYYY-MM-DD hh:mm:ss.fffff" cut to the
 *             qualifier; qualifier 0 infers it from the text's shape
 *   interval_text INTERVAL (14) "[-]dd hh:mm:ss.fff" or "[-]yyyy-mm";
 *             qualifier 0 infers it (leading precision = digits written)
 * Returns IX_OK; IX_ERANGE (index out of range, a text or blob longer than
 * 2^31-1 bytes, a blob length of IX_NTS, value out of the type's range); IX_EINVAL (text that does
 * not parse); IX_EMISUSE (NULL stmt, or a cursor is open: ix_reset first); IX_ENOMEM. Failures are
 * recorded on the connection.
 */
int ix_bind_null(ix_stmt *stmt, int i);
int ix_bind_int(ix_stmt *stmt, int i, int v);
int ix_bind_int64(ix_stmt *stmt, int i, int64_t v);
int ix_bind_double(ix_stmt *stmt, int i, double v);
int ix_bind_bool(ix_stmt *stmt, int i, int v);
int ix_bind_text(ix_stmt *stmt, int i, const char *s, size_t n, ix_destructor lifetime);
int ix_bind_blob(ix_stmt *stmt, int i, const void *p, size_t n, ix_destructor lifetime);
int ix_bind_decimal_text(ix_stmt *stmt, int i, const char *s, size_t n);
int ix_bind_date(ix_stmt *stmt, int i, int32_t days);
int ix_bind_date_ymd(ix_stmt *stmt, int i, int year, int month, int day);
int ix_bind_datetime_text(ix_stmt *stmt, int i, const char *s, size_t n, unsigned qualifier);
int ix_bind_interval_text(ix_stmt *stmt, int i, const char *s, size_t n, unsigned qualifier);
/* Unbinds every parameter (they become NULL). Returns IX_OK or IX_EMISUSE. */
int ix_clear_bindings(ix_stmt *stmt);

/*
 * DATETIME and INTERVAL values as structs (for ix_bind_datetime /
 * ix_bind_interval and ix_column_datetime / ix_column_interval). fraction is
 * in units of 10 microseconds (0..99999: 12345 is .12345 s), the
 * FRACTION(5) resolution of Informix; binding to FRACTION(n) with n < 5
 * truncates the digits below it.
 *
 * ix_datetime_t: fields outside the qualifier are ignored when binding and
 * 0 after a read.
 */
typedef struct ix_datetime_t {
    int year, month, day;     /* 1..9999, 1..12, 1..days in the month */
    int hour, minute, second; /* 0..23, 0..59, 0..59 */
    int fraction;             /* 0..99999, 10 us units */
} ix_datetime_t;

/*
 * ix_interval_t: an INTERVAL as a sign and non-negative field magnitudes.
 * A year-month interval uses years and months (its value is years x 12 +
 * months months); a day-time interval uses days .. fraction (its value is
 * the sum of the fields). When binding, fields may exceed their usual range
 * (hours 30 is 1 day 6 hours) and the total is converted to the qualifier;
 * each field must be 0 .. 999999999 (fraction 0 .. 99999), and fields of the
 * other class must be 0. After a read (ix_column_interval) the value is
 * split at the qualifier: the leading field takes what does not fit the
 * fields below (INTERVAL HOUR(3) TO MINUTE 30:15 is hours 30, minutes 15,
 * days 0) and fields outside the qualifier are 0. sign is +1 or -1 (zero
 * reads back as +1; when binding, 0 counts as +1).
 */
typedef struct ix_interval_t {
    int sign;
    int64_t years, months;
    int64_t days, hours, minutes, seconds;
    int64_t fraction; /* 0..99999, 10 us units */
} ix_interval_t;

/*
 * Bind a DATETIME / INTERVAL from a struct (copied; v is not kept).
 *   ix_bind_datetime: DATETIME (10) with the given qualifier (see
 *     ix_qualifier_dt below); qualifier 0 means YEAR TO FRACTION(5). The fields
 *     the qualifier covers are checked (a real date, hour 0..23, ...).
 *   ix_bind_interval: INTERVAL (14) with the given qualifier; qualifier 0
 *     means YEAR(9) TO MONTH when only years/months are set, else DAY(9) TO
 *     FRACTION(5). The value must be exact at the qualifier's end unit (30
 *     seconds does not fit HOUR TO MINUTE) and its leading field must fit
 *     the leading precision.
 * Returns IX_OK; IX_EINVAL (illegal qualifier, or a year-month value for a
 * day-time qualifier and vice versa); IX_ERANGE (index out of range, a field
 * out of range, the value does not fit the qualifier); IX_EMISUSE (NULL
 * stmt or v, or a cursor is open); IX_ENOMEM. Failures are recorded on the
 * connection.
 */
int ix_bind_datetime(ix_stmt *stmt, int i, unsigned qualifier, const ix_datetime_t *v);
int ix_bind_interval(ix_stmt *stmt, int i, unsigned qualifier, const ix_interval_t *v);

/* Qualifiers for the temporal binds: ix_qualifier_dt(start, end) for
 * DATETIME and ix_qualifier_iv(precision, start, end) for INTERVAL return
 * the qualifier (0 for an illegal one), with the units below (end
 * IX_UNIT_FRAC(n) for FRACTION(n), n = 1..5): DATETIME YEAR TO FRACTION(5)
 * is ix_qualifier_dt(IX_UNIT_YEAR, IX_UNIT_FRAC(5)). ix_qualifier_check
 * returns 1 for a legal DATETIME (is_interval 0) or INTERVAL qualifier,
 * else 0. */
#define IX_UNIT_YEAR     0
#define IX_UNIT_MONTH    2
#define IX_UNIT_DAY      4
#define IX_UNIT_HOUR     6
#define IX_UNIT_MINUTE   8
#define IX_UNIT_SECOND   10
#define IX_UNIT_FRACTION 12
#define IX_UNIT_FRAC(n)  (10 + (n))
unsigned ix_qualifier_dt(int start, int end);
unsigned ix_qualifier_iv(int precision, int start, int end);
int ix_qualifier_check(unsigned qualifier, int is_interval);

/*
 * Runs the statement one step.
 *   A statement that returns rows (SELECT, EXECUTE FUNCTION) opens a cursor
 *   on its first step and returns IX_ROW for each row, then IX_DONE. Rows
 *   arrive in batches of at most the fetch buffer size; with read-ahead the
 *   next NFETCH is sent as soon as a batch has arrived, before the
 *   application reads it (memory stays bounded by buffer x (depth + 1)).
 *   Any other statement executes on its first step and returns IX_DONE
 *   (ix_changes then gives the rows affected).
 * After IX_DONE, further steps return IX_DONE until ix_reset.
 * Returns IX_ROW, IX_DONE, IX_ESQL (server error, e.g. -239 on an INSERT;
 * the statement is then reset), IX_EMISUSE, IX_ENOMEM, IX_ECONN,
 * IX_ETIMEOUT, IX_ETLS, IX_EPROTO.
 */
int ix_step(ix_stmt *stmt);

/*
 * Scroll cursors (statements prepared with IX_PREPARE_SCROLL). Each call
 * opens the cursor first when it is not open (as ix_step does) and makes
 * one row current, read with the ix_column_* accessors:
 *   ix_fetch_first / ix_fetch_last: the first / last row;
 *   ix_fetch_prior: the row before the current one;
 *   ix_fetch_absolute(n): row n (1-based); ix_fetch_relative(n): the row n
 *   after (n < 0: before) the current one (0: the current row again).
 * ix_step on a scroll cursor gives the next row (FETCH NEXT; rows after the
 * current one arrive in batches of the fetch buffer). A fetch outside the
 * result returns IX_DONE (SQLCODE 100 in ESQL/C) and leaves the cursor
 * before the first row or after the last one, from where ix_step /
 * ix_fetch_prior go on. The cursor stays open until ix_reset / ix_finalize.
 * Each ix_fetch_* call is one round trip.
 * Returns IX_ROW, IX_DONE, IX_ESQL (-482 "Invalid operation on a
 * non-SCROLL cursor" on a statement prepared without IX_PREPARE_SCROLL or
 * one that returns no rows; a server error), IX_EMISUSE, or a connection
 * error.
 */
int ix_fetch_first(ix_stmt *stmt);
int ix_fetch_last(ix_stmt *stmt);
int ix_fetch_prior(ix_stmt *stmt);
int ix_fetch_absolute(ix_stmt *stmt, int64_t n);
int ix_fetch_relative(ix_stmt *stmt, int64_t n);

/*
 * Statement cache: ix_set_stmt_cache(conn, n) keeps the n statements most
 * recently finalized on conn prepared on the server (n = 0, the default:
 * off; at most IX_STMT_CACHE_MAX). ix_finalize of a prepared statement then
 * closes its cursor, clears its bindings and keeps it; ix_prepare /
 * ix_prepare_v2 of the same SQL text (byte for byte) and flags hands it back
 * without a PREPARE; a full cache releases the statement kept longest. A
 * CREATE, ALTER, DROP or RENAME (or DATABASE / CLOSE DATABASE) that succeeds
 * on conn releases every kept statement, and statements prepared before it
 * are released when finalized, so a text prepared after DDL is prepared and
 * described anew. DDL run on another connection is not seen (Informix then
 * answers -710 on the stale statement: prepare it again). Lowering n
 * releases the statements beyond it. ix_close releases them all.
 * Returns IX_OK, IX_EINVAL (n < 0 or too large), IX_ENOMEM or IX_EMISUSE.
 * ix_stmt_cache_size: n (-1 for NULL conn).
 */
#define IX_STMT_CACHE_MAX 1024
int ix_set_stmt_cache(ix_conn *conn, int n);
int ix_stmt_cache_size(const ix_conn *conn);

/* Closes the open cursor, if any (its pending replies are drained later,
 * pipelined with the next request), and makes the statement ready to run
 * again with the same bindings. Returns IX_OK, IX_EMISUSE or a connection
 * error. */
int ix_reset(ix_stmt *stmt);

/* Releases the statement on the server (pipelined, no round trip of its
 * own) and frees it; every pointer obtained from it becomes invalid. NULL is
 * a no-op. Returns IX_OK or the connection error that prevented the release
 * (the statement is freed anyway). */
int ix_finalize(ix_stmt *stmt);

/* Per-statement fetch buffer (bytes per NFETCH, or IX_FETCH_AUTO) and
 * read-ahead depth, in effect from the next cursor open. Returns IX_OK,
 * IX_EINVAL, IX_EMISUSE. */
int ix_stmt_set_fetch_buffer(ix_stmt *stmt, int32_t bytes);
int ix_stmt_set_readahead(ix_stmt *stmt, int depth);

/* The longest cursor name ix_stmt_set_cursor_name takes (bytes). */
#define IX_CURSOR_NAME_MAX 128
/* Names the cursor of stmt: the name its next OPEN sends in SQ_CURNAME
 * (by default libixdb makes a unique one), so that an UPDATE or DELETE ...
 * WHERE CURRENT OF name on another statement of the connection reaches its
 * current row (a SELECT ... FOR UPDATE). Such a cursor reads one row per
 * NFETCH with no read-ahead, as ESQL/C reads a cursor it may update, so that
 * the server's current row is the row ix_step returned last (the fetch
 * buffer and read-ahead set afterwards apply). name (copied; len bytes, or IX_NTS)
 * is an identifier: a letter or '_', then letters, digits and '_', at most
 * IX_CURSOR_NAME_MAX bytes. Returns IX_OK, IX_EINVAL (no identifier),
 * IX_EMISUSE (NULL stmt, or its cursor is open: ix_reset first). */
int ix_stmt_set_cursor_name(ix_stmt *stmt, const char *name, size_t len);
/* Counters of the current or last cursor of stmt (reset when a cursor
 * opens; 0 for NULL stmt):
 *   ix_stmt_fetch_count: NFETCH requests sent (read-ahead included);
 *   ix_stmt_fetch_roundtrips: NFETCH replies read (round trips);
 *   ix_stmt_fetch_bytes: bytes of those replies as they came on the wire;
 *   ix_stmt_fetch_size: the buffer size of the last NFETCH sent (before
 *     the first, the size the next one will ask for). */
int64_t ix_stmt_fetch_count(const ix_stmt *stmt);
int64_t ix_stmt_fetch_roundtrips(const ix_stmt *stmt);
int64_t ix_stmt_fetch_bytes(const ix_stmt *stmt);
int32_t ix_stmt_fetch_size(const ix_stmt *stmt);

/* ---- result columns ------------------------------------------------------- */

/* Number of result columns (0 for a statement that returns no rows). */
int ix_column_count(const ix_stmt *stmt);
/* Column name (0-based i), NUL-terminated, valid until ix_finalize; NULL
 * if i is out of range. */
const char *ix_column_name(const ix_stmt *stmt, int i);
/* Informix type codes: the low byte of the type a column is described with
 * (sqli-protocol §4.1; IBM sqltypes.h numbers), as ix_column_type reports
 * them. */
typedef enum ix_type {
    IX_T_CHAR = 0,
    IX_T_SMALLINT = 1,
    IX_T_INTEGER = 2,
    IX_T_FLOAT = 3,
    IX_T_SMALLFLOAT = 4,
    IX_T_DECIMAL = 5,
    IX_T_SERIAL = 6,
    IX_T_DATE = 7,
    IX_T_MONEY = 8,
    IX_T_NULL = 9,
    IX_T_DATETIME = 10,
    IX_T_BYTE = 11,
    IX_T_TEXT = 12,
    IX_T_VARCHAR = 13,
    IX_T_INTERVAL = 14,
    IX_T_NCHAR = 15,
    IX_T_NVARCHAR = 16,
    IX_T_INT8 = 17,
    IX_T_SERIAL8 = 18,
    IX_T_SET = 19,
    IX_T_MULTISET = 20,
    IX_T_LIST = 21,
    IX_T_ROW = 22,
    IX_T_UDTVAR = 40,
    IX_T_UDTFIXED = 41,
    IX_T_LVARCHAR = 43,
    IX_T_BOOLEAN = 45,
    IX_T_BIGINT = 52,
    IX_T_BIGSERIAL = 53,
} ix_type;

/* Informix type code of column i (ix_type: IX_T_CHAR, IX_T_INTEGER, ...;
 * flag bits removed), or -1 if out of range. */
int ix_column_type(const ix_stmt *stmt, int i);
/* 1 if column i was described NOT NULL, else 0. */
int ix_column_notnull(const ix_stmt *stmt, int i);
/* The described encoded length: n for CHAR(n)/VARCHAR(n), p<<8|s for
 * DECIMAL/MONEY, the qualifier for DATETIME/INTERVAL, the width of fixed
 * types; -1 if out of range. */
int ix_column_enclen(const ix_stmt *stmt, int i);

/* Statement types as the server describes them (IBM sqlstype.h numbers):
 * ix_stmt_type, and ixd's describe of every statement it runs. */
typedef enum ix_stmttype {
    IX_STMTTYPE_OTHER = 0, /* SET forms without a number of their own */
    IX_STMTTYPE_DATABASE = 1,
    IX_STMTTYPE_SELECT = 2,
    IX_STMTTYPE_SELECT_INTO_TEMP = 3,
    IX_STMTTYPE_UPDATE = 4,
    IX_STMTTYPE_DELETE = 5,
    IX_STMTTYPE_INSERT = 6,
    IX_STMTTYPE_LOCK_TABLE = 10,
    IX_STMTTYPE_UNLOCK_TABLE = 11,
    IX_STMTTYPE_CREATE_DB = 12,
    IX_STMTTYPE_DROP_DB = 13,
    IX_STMTTYPE_CREATE_TABLE = 14,
    IX_STMTTYPE_DROP_TABLE = 15,
    IX_STMTTYPE_CREATE_INDEX = 16,
    IX_STMTTYPE_DROP_INDEX = 17,
    IX_STMTTYPE_GRANT = 18,
    IX_STMTTYPE_REVOKE = 19,
    IX_STMTTYPE_RENAME_TABLE = 20,
    IX_STMTTYPE_RENAME_COLUMN = 21,
    IX_STMTTYPE_ALTER_TABLE = 29,
    IX_STMTTYPE_UPDATE_STATISTICS = 30,
    IX_STMTTYPE_CLOSE_DB = 31,
    IX_STMTTYPE_DELETE_ALL = 32, /* DELETE without WHERE */
    IX_STMTTYPE_UPDATE_ALL = 33, /* UPDATE without WHERE */
    IX_STMTTYPE_BEGIN_WORK = 34,
    IX_STMTTYPE_COMMIT_WORK = 35,
    IX_STMTTYPE_ROLLBACK_WORK = 36,
    IX_STMTTYPE_SAVEPOINT = 37,
    IX_STMTTYPE_START_DB = 38,
    IX_STMTTYPE_CREATE_VIEW = 40,
    IX_STMTTYPE_DROP_VIEW = 41,
    IX_STMTTYPE_CREATE_SYNONYM = 43,
    IX_STMTTYPE_DROP_SYNONYM = 44,
    IX_STMTTYPE_CREATE_TEMP_TABLE = 45,
    IX_STMTTYPE_SET_LOCK_MODE = 46,
    IX_STMTTYPE_ALTER_INDEX = 47,
    IX_STMTTYPE_SET_ISOLATION = 48,
    IX_STMTTYPE_SET_LOG = 49,
    IX_STMTTYPE_SET_EXPLAIN = 50,
    IX_STMTTYPE_CREATE_SCHEMA = 51,
    IX_STMTTYPE_SET_OPTIMIZATION = 52,
    IX_STMTTYPE_CREATE_PROC = 53,
    IX_STMTTYPE_DROP_PROC = 54,
    IX_STMTTYPE_SET_CONSTRAINTS = 55,
    IX_STMTTYPE_EXECUTE_PROC = 56,    /* EXECUTE PROCEDURE / FUNCTION */
    IX_STMTTYPE_PROC_STATISTICS = 64, /* UPDATE STATISTICS FOR PROCEDURE */
    IX_STMTTYPE_CREATE_TRIGGER = 70,
    IX_STMTTYPE_DROP_TRIGGER = 71,
    IX_STMTTYPE_CREATE_ROLE = 83,
    IX_STMTTYPE_DROP_ROLE = 84,
    IX_STMTTYPE_SET_ROLE = 85,
    IX_STMTTYPE_CREATE_ROWTYPE = 90,
    IX_STMTTYPE_DROP_ROWTYPE = 91,
    IX_STMTTYPE_TRUNCATE = 122,
    IX_STMTTYPE_CREATE_SEQUENCE = 124,
    IX_STMTTYPE_DROP_SEQUENCE = 125,
    IX_STMTTYPE_ALTER_SEQUENCE = 126,
    IX_STMTTYPE_RENAME_SEQUENCE = 127,
    IX_STMTTYPE_MERGE = 128,
} ix_stmttype;

/* The statement type the server reported when stmt was prepared (one of
 * IX_STMTTYPE_* or another sqlstype.h number), or -1 for a NULL stmt. */
int ix_stmt_type(const ix_stmt *stmt);

/*
 * Values of the current row (after ix_step returned IX_ROW). Borrowed
 * pointers are valid until the next ix_step, ix_reset or ix_finalize of the
 * statement. An index out of range or no current row gives the NULL/0
 * answer and records IX_EMISUSE on the connection.
 *   ix_column_is_null: 1 for SQL NULL, else 0.
 *   ix_column_text: the value as dbaccess prints it (DATE per $DBDATE
 *     "MDY4/", DECIMAL with its scale, DATETIME "2026-06-20 12:34:56", ...),
 *     character values in the client code set (see ix_locale_codeset),
 *     NUL-terminated; NULL for SQL NULL (and for a value that does not
 *     convert: IX_EINVAL recorded). ix_column_text_len: its length.
 *   ix_column_raw / ix_column_bytes: the value's bytes exactly as they came
 *     in the tuple, and their count (VARCHAR keeps its length byte).
 *   ix_column_blob: the characters of CHAR/VARCHAR/LVARCHAR without
 *     envelope (CHAR as stored, blank-padded; database code set), with *n
 *     set; NULL for NULL. For a BYTE or TEXT column the tuple holds only a
 *     descriptor: the first call fetches the value from the server
 *     (SQ_FETCHBLOB, one round trip after any read-ahead replies) and may
 *     therefore fail with the connection's error codes (NULL returned); the
 *     bytes stay valid until the next step. ix_column_text of a TEXT column
 *     gives its characters the same way; ix_column_raw gives the descriptor.
 *   ix_column_int64 / ix_column_int / ix_column_double: converted values
 *     (integers, DATE day numbers, DECIMAL and FLOAT truncated toward zero,
 *     BOOLEAN 1/0, integer text for the integer forms, numeric text for the
 *     double); 0 for NULL or when the value does not convert or is out of
 *     range (ix_column_int: outside int32) (then ix_column_get_* says why).
 *   ix_column_get_int64 / ix_column_get_double: the same with a status:
 *     IX_OK; IX_NULL_VALUE; IX_ERANGE: out of range (*out 0), or, for
 *     ix_column_get_int64, a DECIMAL / MONEY / FLOAT value with a fraction
 *     (1.5: *out is the value truncated toward zero, 1); IX_EINVAL (the
 *     type or the text does not convert, "1.5" for an integer; *out 0);
 *     IX_EMISUSE. A DECIMAL read as a double is the nearest double (no
 *     status for digits lost). The table: docs/c-api.md "Conversions".
 *
 * The NULL rule: for an SQL NULL of any type, every accessor that returns a
 * status (ix_column_get_int64, _get_double, _get_decimal, ix_column_datetime,
 * _interval, _date_ymd) returns IX_NULL_VALUE, the one positive code that is
 * not an error, whatever the column's type (NULL is checked before the
 * type), with its outputs zeroed and nothing recorded on the connection;
 * the accessors without a status return NULL (ix_column_text,
 * ix_column_blob with *n 0) or 0 (ix_column_text_len, ix_column_int64, _int,
 * _double), so ix_column_is_null (1) is what tells NULL from 0 or "". Only
 * ix_column_raw / ix_column_bytes give bytes: the type's NULL form as it
 * came in the tuple.
 */
int ix_column_is_null(ix_stmt *stmt, int i);
const char *ix_column_text(ix_stmt *stmt, int i);
size_t ix_column_text_len(ix_stmt *stmt, int i);
const void *ix_column_raw(ix_stmt *stmt, int i);
size_t ix_column_bytes(ix_stmt *stmt, int i);
const void *ix_column_blob(ix_stmt *stmt, int i, size_t *n);
int64_t ix_column_int64(ix_stmt *stmt, int i);
int ix_column_int(ix_stmt *stmt, int i);
double ix_column_double(ix_stmt *stmt, int i);
int ix_column_get_int64(ix_stmt *stmt, int i, int64_t *out);
int ix_column_get_double(ix_stmt *stmt, int i, double *out);

/*
 * Temporal values of the current row as structs (OUT: *out, always
 * written; zeroed unless IX_OK).
 *   ix_column_datetime: a DATETIME column (fields outside its qualifier are
 *     0; the qualifier is ix_column_enclen) or a DATE column (year, month,
 *     day; the rest 0).
 *   ix_column_interval: an INTERVAL column, split as ix_interval_t says.
 *   ix_column_date_ymd: a DATE column, or a DATETIME whose qualifier starts
 *     at YEAR and reaches DAY; year, month and day go to *y, *m, *d (each
 *     may be NULL; they are set to 0 unless IX_OK).
 * Returns IX_OK; IX_NULL_VALUE (SQL NULL); IX_EINVAL (the column has
 * another type or qualifier); IX_EMALFORMED (bytes that are not a value of
 * the type); IX_EMISUSE (NULL stmt or out, index out of range, no current
 * row; recorded on the connection).
 */
int ix_column_datetime(ix_stmt *stmt, int i, ix_datetime_t *out);
int ix_column_interval(ix_stmt *stmt, int i, ix_interval_t *out);
int ix_column_date_ymd(ix_stmt *stmt, int i, int *y, int *m, int *d);

/*
 * Bulk reads for drivers that fill arrays of rows (an ODBC driver's block
 * fetch): the current row's values straight into the caller's buffers, one
 * call for a row's columns, each read in place with no per-value call.
 *
 * A destination says where one column's values go: row r's value at
 * buf + r * step, its length (or IX_STORE_NULL for SQL NULL) at
 * (char *)len + r * len_step. Kinds and the columns they take:
 *   IX_STORE_INT32 / IX_STORE_INT64: int32_t / int64_t from SMALLINT,
 *     INTEGER, INT8, BIGINT and the SERIAL types (INT32: a value within
 *     int32's range); length 4 / 8.
 *   IX_STORE_DOUBLE: double from FLOAT and SMALLFLOAT; length 8.
 *   IX_STORE_TEXT: the characters of CHAR (blank-padded, as stored),
 *     NCHAR, VARCHAR, NVARCHAR and LVARCHAR and a NUL, into cap bytes when
 *     they fit (length: the characters), when no code-set conversion
 *     applies (ix_locale_codeset).
 *   IX_STORE_DATE16: a DATE as three 16-bit integers, year, month, day
 *     (the layout of ODBC's SQL_DATE_STRUCT); length 6.
 */
typedef enum ix_store_kind {
    IX_STORE_NONE = 0, /* stores nothing: every value is left to the caller */
    IX_STORE_INT32,
    IX_STORE_INT64,
    IX_STORE_DOUBLE,
    IX_STORE_TEXT,
    IX_STORE_DATE16,
} ix_store_kind;

#define IX_STORE_NULL (-1) /* the length of SQL NULL (ODBC's SQL_NULL_DATA) */

typedef struct ix_store {
    int col;            /* the column, 0-based */
    ix_store_kind kind; /* the value's form, above */
    void *buf;          /* row 0's value; NULL only with IX_STORE_NONE */
    size_t step;        /* bytes from one row's value to the next */
    size_t cap;         /* IX_STORE_TEXT: the bytes at each row's place */
    int64_t *len;       /* row 0's length; NULL only with IX_STORE_NONE */
    size_t len_step;    /* bytes from one row's length to the next */
} ix_store;

/*
 * Stores the current row's values into row r of the destinations d[0..n),
 * in order (the caller's buffers; nothing is allocated or recorded).
 * Returns how many destinations from the first were stored: n when all
 * were. When it returns k < n, d[k] holds a value the kind does not take
 * as it is (a column of another type, an INT8 beyond int32, text longer
 * than cap or converted to the client's code set, a malformed value): the
 * caller reads that one with the accessors above, which give the reason,
 * and may go on with d + k + 1. Without a current row (or with a NULL
 * stmt or d, or a column out of range at d[k]) it stores nothing and
 * returns 0 (or k). Values are the accessors' values: ix_column_get_int64,
 * ix_column_get_double, ix_column_text / _text_len and ix_column_date_ymd
 * give the same for every value stored.
 */
size_t ix_row_store(ix_stmt *stmt, const ix_store *d, size_t n, size_t r);

/* The caller's reading of a value ix_step_store leaves: destination k of
 * row `row`, called while that row is current (the accessors read it). */
typedef void (*ix_store_other_fn)(void *ctx, size_t row, size_t k);

/*
 * ix_step and ix_row_store for up to nrows rows: the i-th row stepped goes
 * to row first + i of the destinations d[0..n), and each value a
 * destination does not take as it is goes to other(ctx, first + i, k)
 * while its row is current. The destinations are settled once, at the
 * first row, so a rowset costs one pass per value. *got: the rows stepped
 * and stored. Returns IX_ROW when nrows rows were stored, IX_DONE when the
 * result ended first, or what ix_step returned (its error is recorded on
 * the connection, as ix_step records it); IX_ENOMEM (more than 16
 * destinations and no memory); IX_EMISUSE for a NULL stmt, other or got,
 * or a NULL d with n > 0.
 */
int ix_step_store(ix_stmt *stmt, const ix_store *d, size_t n, size_t first, size_t nrows,
                  ix_store_other_fn other, void *ctx, size_t *got);

/* ---- column details: declared types, exact DECIMAL, SQL text ------------- */

/*
 * The declared type of column i as SQL spells it, from the describe:
 * "INTEGER", "DECIMAL(10,2)" ("DECIMAL(16)" for a floating DECIMAL(16)),
 * "MONEY(8,2)", "CHAR(5)", "VARCHAR(20)" ("VARCHAR(20,4)" with a minimum
 * length), "LVARCHAR(2048)", "DATETIME YEAR TO FRACTION(3)", "INTERVAL
 * DAY(3) TO SECOND" (the leading precision only when it is not the default:
 * 4 for YEAR, 2 for the other fields). NOT NULL is not part of it (see
 * ix_column_notnull). A collection is "SET", "MULTISET" or "LIST" alone: the
 * describe does not carry its element type. NUL-terminated, valid until
 * ix_finalize; NULL for a NULL stmt or i out of range. Like the other
 * describe calls it sends a deferred PREPARE first (one round trip).
 */
const char *ix_column_decltype(ix_stmt *stmt, int i);

/* The scale byte of a floating-scale DECIMAL(p) in ix_column_enclen
 * (p << 8 | IX_SCALE_FLOATING). */
#define IX_SCALE_FLOATING 0xff

/* An exact DECIMAL / MONEY value: sign * digits * 10^-scale. */
#define IX_DECIMAL_DIGITS    32  /* at most this many digits */
#define IX_DECIMAL_TEXT_SIZE 168 /* a buffer for every ix_decimal_text result */
typedef struct ix_decimal_t {
    int sign;    /* +1 or -1 (zero is +1) */
    int ndigits; /* digits in digits[] (1 for zero) */
    /* Digits after the decimal point. DECIMAL(p,s) and MONEY(p,s): s
     * (1.50 in DECIMAL(5,2) is "150", 2). A floating DECIMAL(p): the fewest
     * that hold the value, negative when it ends in integer zeros (1E+125
     * is "1", -125; 0.001 is "1", 3). */
    int scale;
    char digits[IX_DECIMAL_DIGITS + 1]; /* ASCII, no leading zero, NUL-terminated */
} ix_decimal_t;

/*
 * Column i of the current row as an exact decimal (OUT: *out, always
 * written; zeroed unless IX_OK). Returns IX_OK; IX_NULL_VALUE (SQL NULL);
 * IX_EINVAL (the column is not DECIMAL or MONEY); IX_EMALFORMED (bytes that
 * are no DECIMAL value); IX_ERANGE (a value with more digits than
 * IX_DECIMAL_DIGITS at the column's scale: the server sent more than the
 * column holds); IX_EMISUSE (NULL stmt or out, index out of range, no
 * current row; recorded on the connection).
 */
int ix_column_get_decimal(ix_stmt *stmt, int i, ix_decimal_t *out);

/*
 * Writes d as plain decimal text, "-123.4500", "0.001", "100000" (never an
 * exponent; exactly d->scale fraction digits when scale > 0), NUL-terminated,
 * into buf[0..cap) (cut to fit; buf may be NULL when cap is 0). Returns the
 * length of the whole text, as snprintf (at most IX_DECIMAL_TEXT_SIZE - 1),
 * or IX_EINVAL for a NULL d or one that is not of the form above.
 */
int ix_decimal_text(const ix_decimal_t *d, char *buf, size_t cap);

/* The SQL text stmt was prepared from, as the caller gave it (before any
 * code-set conversion), NUL-terminated; valid until ix_finalize. NULL for a
 * NULL stmt. */
const char *ix_stmt_sql(const ix_stmt *stmt);

/* ---- results of execution -------------------------------------------------- */

/* Rows affected by the last execution of stmt (for a batch: the sum over
 * its rows), or by the last statement executed on conn. */
int64_t ix_changes(const ix_stmt *stmt);
int64_t ix_conn_changes(const ix_conn *conn);
/* The SERIAL value the last INSERT on conn generated (0 if none). */
int64_t ix_last_serial(const ix_conn *conn);
/* The SERIAL8 / BIGSERIAL value the last INSERT on conn generated (0 if
 * none): the SERIAL8 of SQ_INSERTDONE if non-zero, else its BIGSERIAL. */
int64_t ix_last_serial8(const ix_conn *conn);

/*
 * Executes one statement that returns no rows, in one round trip
 * (SQ_COMMAND). sql is NUL-terminated. Returns IX_OK, IX_ESQL, IX_EMISUSE,
 * or a connection error. ix_conn_changes / ix_last_serial report on it.
 */
int ix_exec(ix_conn *conn, const char *sql);

/* ---- transactions ----------------------------------------------------------- */

/* BEGIN WORK / COMMIT WORK / ROLLBACK WORK (SQ_BEGIN / SQ_CMMTWORK /
 * SQ_RBWORK, each its own round trip). Returns IX_OK, IX_ESQL (-535
 * already in transaction, -255 not in transaction, -256 transaction not
 * available: unlogged database), IX_EMISUSE, or a connection error.
 * Savepoints are plain SQL: ix_exec(conn, "SAVEPOINT s1") etc. */
int ix_begin(ix_conn *conn);
int ix_commit(ix_conn *conn);
int ix_rollback(ix_conn *conn);

/*
 * Autocommit. In a logged, non-ANSI Informix database every statement
 * commits by itself unless a transaction was opened (BEGIN WORK); that is
 * autocommit "on", the state after ix_connect. ix_set_autocommit(conn, 0)
 * turns it off the way IBM's JDBC setAutoCommit(false) does: the library
 * keeps a transaction open at all times.
 *   Turning off: unless a transaction is already open, SQ_BEGIN is sent at
 *     once (one round trip), so an unlogged database (or no database) fails
 *     here: IX_ESQL with ix_sqlcode -256 "Transaction not available" (or
 *     the server's code, e.g. -349 without a database), and autocommit
 *     stays on. In an ANSI-mode database autocommit is always off and this
 *     is a no-op returning IX_OK.
 *   While off: ix_commit / ix_rollback (and COMMIT WORK / ROLLBACK WORK
 *     through ix_exec or a statement) end the transaction, and the library
 *     sends SQ_BEGIN (its own round trip) before the next statement that
 *     executes: ix_exec, the first ix_step of a statement, ix_batch_execute
 *     (not before BEGIN / COMMIT / ROLLBACK / SAVEPOINT / SET statements,
 *     nor before DATABASE, CREATE / DROP / CLOSE DATABASE). If that SQ_BEGIN
 *     fails, the statement is not sent and its call returns IX_ESQL with the
 *     server's code. ix_set_isolation / ix_set_lock_wait do not start one.
 *   A DATABASE, CREATE DATABASE, DROP DATABASE or CLOSE DATABASE statement
 *     that succeeds turns autocommit back on (the mode is per database).
 *     With autocommit off a transaction is open until ix_commit /
 *     ix_rollback, and the server refuses to change the database inside
 *     one (-377 for DATABASE / CLOSE DATABASE): end it first.
 *   Turning on (on non-zero) while off: an open transaction is committed
 *     first (SQ_CMMTWORK; if that fails, IX_ESQL and autocommit stays off).
 *     In an ANSI-mode database this fails with IX_EINVAL. Turning it on
 *     while on is a no-op (a transaction opened with ix_begin stays open).
 * Returns IX_OK; IX_ESQL; IX_EINVAL (ANSI database, on); IX_EMISUSE (NULL
 * conn); IX_ECONN (dead connection) or another connection error.
 */
int ix_set_autocommit(ix_conn *conn, int on);
/* 1 if each statement commits by itself: autocommit is on and no
 * transaction is open (through ix_begin or BEGIN WORK run through ix_exec /
 * ix_prepare); 0 when autocommit is off (ix_set_autocommit), inside a
 * transaction, or in an ANSI-mode database; -1 for NULL conn. */
int ix_autocommit(const ix_conn *conn);

/* Isolation levels for ix_set_isolation. */
typedef enum ix_isolation {
    IX_ISO_DIRTY_READ = 1,       /* SET ISOLATION TO DIRTY READ */
    IX_ISO_COMMITTED_READ = 2,   /* SET ISOLATION TO COMMITTED READ */
    IX_ISO_CURSOR_STABILITY = 3, /* SET ISOLATION TO CURSOR STABILITY */
    IX_ISO_REPEATABLE_READ = 4,  /* SET ISOLATION TO REPEATABLE READ */
} ix_isolation;

/*
 * ix_set_isolation: runs SET ISOLATION TO <level> (one round trip, as
 * ix_exec). ix_set_lock_wait: runs SET LOCK MODE TO WAIT (seconds -1: wait
 * forever), SET LOCK MODE TO NOT WAIT (0: a conflicting lock fails at once,
 * Informix's default) or SET LOCK MODE TO WAIT n (n > 0 seconds). A
 * statement that runs out of lock wait fails with IX_ESQL and an SQLCODE
 * such as -244 / -271 / -346 / -240 / -243 with ISAM -154 (lock timeout)
 * after a wait, or ISAM -107 (record locked) in NOT WAIT mode.
 * Neither starts a transaction when autocommit is off.
 * Returns IX_OK; IX_EINVAL (level not an IX_ISO_* value, seconds < -1);
 * IX_ESQL (the server refused, e.g. -349 without a database); IX_EMISUSE
 * (NULL conn); IX_ECONN or another connection error.
 */
int ix_set_isolation(ix_conn *conn, int level);
int ix_set_lock_wait(ix_conn *conn, int seconds);

/* ---- connection pool ------------------------------------------------------------
 * ix_pool: a thread-safe pool of connections to one DSN. Any thread may
 * acquire and release; a connection acquired belongs to that thread (as any
 * ix_conn, it is not to be used by two threads at once) until released. The
 * pool owns its connections: give one back with ix_pool_release, never
 * ix_close it; ix_pool_destroy frees the pool and the idle connections.
 *
 * Configuration (ix_pool_config_init sets the defaults shown):
 *   dsn                 the ix_connect DSN of every member (required)
 *   min_size (0)        connections ix_pool_create opens (it fails, with the
 *                       connect error, when one cannot be opened)
 *   max_size (10)       connections open at most (checked out + idle)
 *   acquire_timeout_ms  (30000) how long ix_pool_acquire waits for a free
 *                       connection when max_size are checked out: 0 fails at
 *                       once, -1 waits forever
 *   idle_check_ms       (30000) a connection idle at least this long is
 *                       checked with one round trip (a RELEASE of an unused
 *                       statement id, answered with a bare EOT) before it is
 *                       handed out; one that fails is closed and the next
 *                       tried (or a new one opened). 0: always, -1: never
 *   max_lifetime_ms (0) a connection older than this is closed when it is
 *                       released or found idle, instead of being reused
 *                       (0: no limit)
 *   max_idle_ms     (0) idle members idle this long are closed by the next
 *                       ix_pool_acquire while more than min_size are open
 *                       (0: no limit)
 *   isolation           (IX_ISO_COMMITTED_READ) and lock_wait (0: NOT WAIT):
 *                       the members' session defaults, set after connecting
 *                       when they differ from Informix's (which needs a
 *                       database in the DSN), and restored on release when
 *                       SET ISOLATION / SET LOCK MODE (ix_set_isolation,
 *                       ix_set_lock_wait, or SQL run through the connection)
 *                       changed them
 * ix_pool_release resets the session: an open transaction is rolled back,
 * autocommit is turned back on, isolation and lock mode are restored as
 * above, and the error record is cleared. Statements must be finalized
 * first (kept statements of the statement cache may stay): a connection
 * released with a statement still open, a dead one, or one whose reset
 * fails is closed instead of kept. Members are reused most recently
 * released first.
 * ix_pool_acquire returns IX_OK with *conn; IX_ETIMEOUT (none free within
 * the timeout); the ix_connect error of a new connection (IX_ECONN, IX_ESQL,
 * ...; ix_pool_errmsg says why); IX_EMISUSE. ix_pool_release returns IX_OK
 * or IX_EMISUSE (conn not checked out of this pool). ix_pool_destroy closes
 * the idle connections; every connection must have been released before.
 */
typedef struct ix_pool ix_pool;
typedef struct ix_pool_config {
    const char *dsn;
    int min_size, max_size;
    int acquire_timeout_ms;
    int idle_check_ms;
    int max_lifetime_ms;
    int isolation; /* an ix_isolation */
    int lock_wait; /* as ix_set_lock_wait's seconds */
    int max_idle_ms;
} ix_pool_config;
/* Counters of a pool: open (checked out, idle or connecting), idle; created
 * (connections opened), discarded (closed: dead, failed check or reset,
 * expired), checks (health-check round trips), waits (acquires that had to
 * wait), timeouts (acquires that timed out). */
typedef struct ix_pool_stats {
    int open, idle;
    int64_t created, discarded, checks, waits, timeouts;
} ix_pool_stats;
void ix_pool_config_init(ix_pool_config *cfg);
/* IX_OK with *pool; IX_EINVAL (sizes, isolation or lock_wait out of range);
 * IX_EMISUSE (NULL argument, no dsn); IX_ENOMEM; a connect error. */
int ix_pool_create(ix_pool **pool, const ix_pool_config *cfg);
int ix_pool_acquire(ix_pool *pool, ix_conn **conn);
int ix_pool_release(ix_pool *pool, ix_conn *conn);
void ix_pool_destroy(ix_pool *pool);
/* Copies the counters. IX_OK or IX_EMISUSE. */
int ix_pool_get_stats(ix_pool *pool, ix_pool_stats *stats);
/* The last connect or timeout error of the pool as text (NUL-terminated,
 * truncated to n bytes). IX_OK or IX_EMISUSE. */
int ix_pool_errmsg(ix_pool *pool, char *buf, size_t n);

/* ---- pipelined batches ------------------------------------------------------- */

/* Called for each row of a batch, before the row's request is written: bind
 * the row's values on stmt with the ix_bind_* calls. Return 0 to go on, or a
 * negative value to stop the batch (rows not yet written are not sent). */
typedef int (*ix_batch_row_fn)(ix_stmt *stmt, int64_t row, void *userdata);

/* Entries of a batch's sqlcodes for rows without a reply (values no
 * Informix SQLCODE takes). */
#define IX_BATCH_NOT_SENT (-100000) /* not sent: the batch stopped before it */
#define IX_BATCH_UNKNOWN  (-100001) /* sent, no reply: the connection died */

/*
 * Executes a non-SELECT statement nrows times, pipelined: every row's
 * ID+BIND+EXECUTE+EOT group is written before any reply is awaited (writes
 * and reads are interleaved with poll(), so full socket buffers on either
 * side cannot deadlock), and the replies are matched to rows in order.
 * row_fn binds row r's values (it is called in row order, each row once).
 * At most 4096 rows (and 256 KiB of requests not yet sent) are in flight.
 * The first refused row stops the batch, as IBM's JDBC executeBatch stops:
 * rows not yet sent when its reply arrives are not sent (rows already in
 * flight run and have their replies). A failure that ends the transaction
 * the batch runs in (e.g. a full disk) stops it the same way, and so does
 * row_fn returning a negative value.
 * sqlcodes (may be NULL) receives nrows entries: 0 for a row that succeeded,
 * its SQLCODE for a row the server refused, IX_BATCH_NOT_SENT for a row not
 * sent, IX_BATCH_UNKNOWN for a row sent whose reply never came (the
 * connection died: it may or may not have run). ix_batch_replied tells how
 * many rows got a reply.
 * Returns IX_OK (every row succeeded); IX_ESQL (some rows failed: the first
 * failure is in ix_errmsg/ix_sqlcode, *nfailed holds their count); a
 * connection error (rows >= ix_batch_replied have no reply); IX_EMISUSE
 * (SELECT statement, NULL argument); or row_fn's negative value.
 * ix_changes(stmt) afterwards: rows affected by the whole batch.
 */
int ix_batch_execute(ix_stmt *stmt, int64_t nrows, ix_batch_row_fn row_fn, void *userdata,
                     int *sqlcodes, int64_t *nfailed);

/* Column arrays for ix_batch_execute_arrays: one per parameter. */
typedef enum ix_array_kind {
    IX_ARRAY_INT64 = 1,  /* values: const int64_t[nrows] */
    IX_ARRAY_DOUBLE = 2, /* values: const double[nrows] */
    IX_ARRAY_TEXT = 3,   /* values: const char *const[nrows] (NUL-terminated; NULL = NULL) */
    IX_ARRAY_INT32 = 4,  /* values: const int32_t[nrows] */
    IX_ARRAY_DATE = 5,   /* values: const int32_t[nrows], DATE day numbers (ix_bind_date) */
    IX_ARRAY_TEXTN = 6,  /* values: const ix_text[nrows] (p NULL = NULL): no length scan */
} ix_array_kind;
/* A text of n bytes at p (not NUL-terminated), for IX_ARRAY_TEXTN; the
 * caller's, read during the call only. */
typedef struct ix_text {
    const char *p;
    size_t n;
} ix_text;
typedef struct ix_array {
    ix_array_kind kind;
    const void *values;
    const unsigned char *is_null; /* nrows flags (non-zero = NULL), or NULL for none */
} ix_array;
/* ix_batch_execute with the values of parameter k+1 taken from cols[k]
 * (ncols arrays, ncols <= the parameter count). Same results and the same
 * bytes on the wire. Parameters 1..ncols are unbound afterwards; the others
 * keep their bindings (used by every row). */
int ix_batch_execute_arrays(ix_stmt *stmt, int64_t nrows, const ix_array *cols, int ncols,
                            int *sqlcodes, int64_t *nfailed);
/* Rows of the last batch on stmt whose reply was read: rows [0, n) were
 * answered, row n is the first without a reply (n == nrows when all were). */
int64_t ix_batch_replied(const ix_stmt *stmt);

/* ---- non-blocking ------------------------------------------------------------
 *
 * In the manner of libpq (PQconnectStart / PQconnectPoll, PQsendQuery,
 * PQconsumeInput, PQisBusy, PQflush, PQsocket) and hiredis's async
 * context: the application owns the event loop (poll, epoll, asyncio, ...)
 * and libixdb never waits. The blocking calls above are loops over the
 * same steps, waiting with poll() where these return IX_WANT_*.
 *
 * Status codes of non-blocking use (positive, not errors; ix_rc):
 *   IX_WANT_READ   wait until ix_socket(conn) is readable, then call
 *                  ix_consume_input (or ix_connect_poll while connecting)
 *   IX_WANT_WRITE  wait until ix_socket(conn) is writable or readable
 *                  (a server busy writing its replies may stop reading
 *                  until they are read), then call ix_consume_input, which
 *                  writes as well (or ix_connect_poll while connecting)
 *   IX_WANT_TIMER  (ix_connect_poll only) there is no socket to wait on:
 *                  call ix_connect_poll again after ix_timeout_ms(conn)
 * Whatever the event, waiting no longer than ix_timeout_ms(conn) and then
 * calling again is always right: that is how connect_timeout,
 * INFORMIXCONTIME and read_timeout expire without a blocking call.
 *
 * Connecting. ix_connect_start parses the DSN, plans the candidates
 * (sqlhosts group members, INFORMIXCONTIME / INFORMIXCONRETRY rounds) and
 * starts the first TCP connect; ix_connect_poll drives the rest, one step
 * per call:
 *
 *   start --> TCP connect --> [TLS handshake] --> login sent --> login
 *   answered --> session opened (SQ_PROTOCOLS, SQ_INFO, [SQ_DBOPEN]) --> IX_OK
 *      ^             |                |                            |
 *      |   refused / timed out: the next member (or, after the last
 *      |   member, the next INFORMIXCONTIME round: IX_WANT_TIMER until due)
 *      +---- a login redirect (ASCDBLIST): a new TCP connect to the target
 *
 * Each ix_connect_poll returns IX_WANT_READ / IX_WANT_WRITE / IX_WANT_TIMER
 * while the login goes on, IX_OK once the session is open, or the error
 * ix_connect would have returned (the same codes, the same messages; the
 * connection is then dead and only ix_close is left). ix_socket may change
 * between calls (each member, redirect and retry has its own socket): read
 * it again after every call. Name resolution (getaddrinfo) is the one step
 * that may block: give a numeric host to avoid it. ix_connect is
 * ix_connect_start followed by ix_connect_poll in a poll() loop.
 *
 * Requests. On a connection in non-blocking mode (ix_set_nonblocking; a
 * connection from ix_connect_start starts in it) the ix_send_* calls only
 * encode and queue requests; ix_flush writes what the socket takes;
 * ix_consume_input reads what the socket has and decodes every reply that
 * has arrived whole, storing each one's outcome in its statement (rows in
 * the statement's queue of batches, errors and counts with the request).
 * Replies come in the order the requests were sent; several requests, on
 * one or more statements of the connection, may be outstanding at once.
 * A statement's requests, after ix_send_prepare:
 *
 *   prepared --ix_send_execute--> executing --reply--> done     (no rows)
 *                                     |
 *                                     +--reply--> open (a cursor)
 *   open --ix_step--> IX_ROW ... (rows received) then IX_WANT_READ while
 *        the next batch is on its way (ix_step queues its NFETCH, with
 *        read-ahead as in blocking mode; ix_send_fetch asks for one at
 *        once), ..., IX_DONE at the end of the rows
 *   prepared --ix_send_batch--> batch running --every row answered--> done
 *
 * The completion calls tell what a reply said once it has arrived, and
 * IX_WANT_READ before (never waiting; after IX_WANT_WRITE as well when the
 * request is not yet written):
 *   ix_prepare_result(stmt)  the PREPARE of ix_send_prepare: IX_OK, then
 *                            the describe calls answer without I/O
 *   ix_execute_result(stmt)  ix_send_execute: IX_DONE (a statement without
 *                            rows has run: ix_changes, ix_last_serial) or
 *                            IX_OK (a cursor is open: read it with ix_step)
 *   ix_step(stmt)            rows of an open cursor, as above
 *   ix_batch_result(stmt, sqlcodes, nfailed)  ix_send_batch
 * Each returns the failure its blocking counterpart returns (IX_ESQL with
 * the SQLCODE recorded on the connection, -206 unknown table, -201, ...;
 * a connection error); the error record of the connection is set when the
 * completion call returns it, not when the reply is decoded. A PREPARE
 * that fails fails the execute or batch queued behind it with the same
 * error.
 *
 * Blocking calls in non-blocking mode: ix_prepare, ix_prepare_v2,
 * ix_exec, ix_begin, ix_commit, ix_rollback, ix_set_autocommit,
 * ix_set_isolation, ix_set_lock_wait, ix_batch_execute,
 * ix_batch_execute_arrays, the ix_fetch_* scroll calls, and ix_column_blob
 * / ix_column_text of BYTE and TEXT columns have no ix_send_* form: they
 * first read every reply outstanding (decoding them as ix_consume_input
 * does, so nothing is lost) and then run as in blocking mode, waiting.
 * Everything else never waits in non-blocking mode: ix_reset and
 * ix_finalize only queue their CLOSE / RELEASE, the bind calls and the
 * accessors of the current row do no I/O, and ix_step returns IX_WANT_READ
 * or IX_WANT_WRITE instead of waiting. ix_step on a statement that is
 * not executing (just prepared, or reset) is ix_send_execute followed by
 * ix_execute_result: it returns IX_WANT_READ / IX_WANT_WRITE until the
 * reply has come, then IX_DONE for a statement without rows, or the first
 * row. Three steps still wait in non-blocking mode: with autocommit off,
 * the SQ_BEGIN that opens the next transaction (sent and waited for by
 * ix_send_execute / ix_send_batch / ix_step: one round trip; run BEGIN /
 * COMMIT as statements, or keep autocommit on, to avoid it); ix_send_batch
 * on a statement whose PREPARE has not been answered (it waits for the
 * describe, which the rows' encoding needs); and ix_close, which waits up
 * to 2 s for the server's goodbye.
 *
 * Cancel: ix_cancel works from the event loop (and from other threads, as
 * always): the reply the server owes completes with IX_ESQL, ix_sqlcode
 * IX_SQLCODE_INTERRUPTED (-213), at its completion call; the connection
 * stays usable.
 *
 * A dead server (the socket closed or reset) makes ix_consume_input,
 * ix_flush and every completion call waiting on it return IX_ECONN; the
 * read timeout (read_timeout, ix_set_read_timeout) counts from the moment a
 * reply is awaited with no byte arriving, and ix_consume_input called after
 * it has expired returns IX_ETIMEOUT (the connection is then dead).
 */

/* The descriptor to wait on (poll, epoll, select), or -1 when there is
 * none (NULL conn, a closed or dead connection, between connect attempts).
 * It may change during ix_connect_poll, never after it returned IX_OK. */
int ix_socket(const ix_conn *conn);

/* Milliseconds until the nearest deadline the library keeps for conn (the
 * connect timeout of the current attempt, the next INFORMIXCONTIME round,
 * the read timeout of an awaited reply), 0 when one has passed (call the
 * step function now), -1 when there is none (wait for the socket only). */
int ix_timeout_ms(const ix_conn *conn);

/*
 * Starts a connection without waiting: dsn as for ix_connect. *out always
 * receives a handle (NULL only when even that allocation fails, with
 * IX_ENOMEM); release it with ix_close whatever happens. The connection is
 * in non-blocking mode.
 * Returns IX_OK (started: drive it with ix_connect_poll), or the error
 * ix_connect returns for a bad dsn, an unusable sqlhosts entry, a name that
 * does not resolve (IX_EINVAL, IX_ECONN, IX_ENOMEM; the handle is dead).
 */
int ix_connect_start(const char *dsn, ix_conn **out);

/* One step of the login (see above). Returns IX_WANT_READ, IX_WANT_WRITE,
 * IX_WANT_TIMER, IX_OK (connected; further calls return IX_OK), or the
 * error ix_connect would return; IX_EMISUSE for NULL conn. */
int ix_connect_poll(ix_conn *conn);

/* Turns non-blocking mode on (on non-zero) or off. Turning it off reads
 * every reply outstanding first (waiting), so that blocking calls find the
 * connection as they expect. Returns IX_OK, IX_EMISUSE (NULL conn), or the
 * connection error met while reading. ix_is_nonblocking: 1 or 0 (0 for
 * NULL conn). */
int ix_set_nonblocking(ix_conn *conn, int on);
int ix_is_nonblocking(const ix_conn *conn);

/*
 * Queues the PREPARE (with its describe) of sql (len bytes or IX_NTS)
 * with ix_prepare_v2's flags. *out receives the statement (ix_finalize it;
 * NULL on failure). Nothing waits: the request goes out with the next
 * ix_flush (or with the next request, when ix_send_execute follows at
 * once: both travel in one flight). Code-set conversion of the text happens
 * here. The statement cache (ix_set_stmt_cache) is used as by ix_prepare: a
 * kept statement needs no PREPARE and its ix_prepare_result is IX_OK at
 * once.
 * Returns IX_OK (queued); IX_EINVAL (unknown flags, text that does not
 * convert); IX_EMISUSE (NULL argument, connection not in non-blocking
 * mode); IX_ENOMEM; IX_ECONN (dead connection).
 */
int ix_send_prepare(ix_conn *conn, const char *sql, size_t len, unsigned flags, ix_stmt **out);

/* The outcome of ix_send_prepare's request: IX_OK (prepared: ix_stmt_type,
 * ix_column_count and the other describe calls answer without I/O);
 * IX_WANT_READ / IX_WANT_WRITE (not arrived / not yet written); IX_ESQL
 * (-201 with ix_erroffset, -206, -217, ...); IX_EMISUSE (no PREPARE was
 * sent for stmt); a connection error. */
int ix_prepare_result(ix_stmt *stmt);

/*
 * Queues the execution of stmt with its current bindings: for a statement
 * that returns rows, the OPEN of its cursor together with the first NFETCH
 * (one flight); for any other, its EXECUTE. May follow ix_send_prepare at
 * once (the PREPARE's reply need not have arrived). With autocommit off and
 * no transaction open, an SQ_BEGIN is queued first. The statement must not
 * have an open cursor (ix_reset it first) nor a request outstanding but its
 * PREPARE.
 * Returns IX_OK (queued); IX_EMISUSE (NULL stmt, a cursor open, another
 * request of stmt outstanding, a connection not in non-blocking mode);
 * IX_ENOMEM; IX_ECONN.
 */
int ix_send_execute(ix_stmt *stmt);

/* The outcome of ix_send_execute: IX_DONE (ran; ix_changes, ix_last_serial,
 * ix_last_serial8 report on it), IX_OK (the cursor is open: ix_step gives
 * its rows), IX_WANT_READ / IX_WANT_WRITE, IX_ESQL (the PREPARE's or the
 * execution's error, e.g. -206, -239; the statement is then reset),
 * IX_EMISUSE (no execution sent), a connection error. */
int ix_execute_result(ix_stmt *stmt);

/* Queues an NFETCH for the next batch of rows of stmt's open cursor now,
 * beyond the read-ahead ix_step keeps by itself (at most the read-ahead
 * limit of 64 in flight: more is IX_OK without a request). Returns IX_OK,
 * IX_DONE (the cursor is exhausted: nothing sent), IX_EMISUSE (no open
 * cursor, a scroll cursor, not in non-blocking mode), IX_ECONN. */
int ix_send_fetch(ix_stmt *stmt);

/*
 * ix_batch_execute's requests, queued without waiting: row_fn is called for
 * every row before this returns (rows are encoded into the connection's
 * output buffer, so memory grows with nrows: send large batches in
 * slices). ix_send_batch_arrays is the same with ix_batch_execute_arrays'
 * column arrays (read before it returns).
 * Returns IX_OK (queued); row_fn's negative value (rows before it are
 * queued and run; ix_batch_result reports on them); IX_EMISUSE (SELECT
 * statement, NULL argument, a request of stmt outstanding but its
 * PREPARE, not in non-blocking mode); IX_ENOMEM; IX_ECONN.
 */
int ix_send_batch(ix_stmt *stmt, int64_t nrows, ix_batch_row_fn row_fn, void *userdata);
int ix_send_batch_arrays(ix_stmt *stmt, int64_t nrows, const ix_array *cols, int ncols);

/* The outcome of ix_send_batch / ix_send_batch_arrays, once every row was
 * answered: as ix_batch_execute (IX_OK, IX_ESQL with *nfailed, a
 * connection error), with sqlcodes (nrows entries, may be NULL) and
 * nfailed (may be NULL) filled then; IX_WANT_READ / IX_WANT_WRITE while
 * rows are unanswered; IX_EMISUSE (no batch sent). ix_batch_replied and
 * ix_changes report on the batch afterwards. */
int ix_batch_result(ix_stmt *stmt, int *sqlcodes, int64_t *nfailed);

/* Writes queued requests as far as the socket takes them. Returns IX_OK
 * (everything written), IX_WANT_WRITE (the socket is full: wait until it
 * is writable and call again), IX_ECONN / IX_ETLS (the connection died),
 * IX_EMISUSE (NULL conn), or an error a reply decoded on the way met (as
 * ix_consume_input). Never waits. It also reads what the socket has and
 * decodes every reply that arrived whole, as ix_consume_input does, so
 * after it no complete reply is left unread in the library's buffer: waiting
 * for readability is then always right. In non-blocking mode the ix_send_*
 * calls and ix_step try one write themselves; call ix_flush until IX_OK. */
int ix_flush(ix_conn *conn);

/* Reads what the socket has without waiting (a TLS record already
 * buffered counts) and decodes every reply that is complete; also writes
 * pending output when the socket takes it. Returns IX_OK (call the
 * completion calls, or ix_is_busy, to see what arrived), IX_ECONN (the
 * server closed the connection or it broke: replies that had arrived whole
 * are still reported by their completion calls), IX_ETIMEOUT (see the read
 * timeout above), IX_EPROTO, IX_ENOMEM, IX_EMISUSE (NULL conn). */
int ix_consume_input(ix_conn *conn);

/* 1 while a reply to a request sent on conn (read-ahead NFETCHes
 * included) has not arrived whole; 0 when every completion call would
 * answer without IX_WANT_READ (and for a NULL or dead conn).
 * ix_stmt_busy: the same for stmt's own request: 1 while its completion
 * call (or ix_step, for the next batch of an open cursor whose received
 * rows have all been read) would return IX_WANT_READ or IX_WANT_WRITE. */
int ix_is_busy(const ix_conn *conn);
int ix_stmt_busy(const ix_stmt *stmt);

/* ---- TimeSeries helpers ------------------------------------------------------ */

/*
 * Clients of ixd's TimeSeries routines (docs/timeseries.md, "Clients"): a
 * buffered writer over oni_ts_write_many and readers over oni_ts_read (JSON
 * pages) and oni_ts_read_rows (rows). Series keys are given as text (the
 * primary-key value as SQL text: "42", "meter-7"); the server converts it
 * to the key column's type. The helpers use only the public calls above and
 * record their failures on the connection like every other call.
 */

/* The most bytes of element text one oni_ts_write_many call takes as
 * LVARCHAR, and the most bytes of one oni_ts_read page. */
#define IX_TS_MAX_TEXT 32739

typedef struct ix_ts_writer ix_ts_writer;

/*
 * Opens a writer of the series in table.column. The writer keeps one
 * buffer per series key (element lines joined by '\n'); a buffer is flushed
 * when it holds `flush` elements or when the next element would make it
 * longer than IX_TS_MAX_TEXT bytes. A flush sends that buffer together with
 * every other buffer at least half full (elements or bytes) in one
 * pipelined ix_batch_execute of EXECUTE PROCEDURE oni_ts_write_many(table,
 * column, key, elements[, options]): one batch row per buffer, all rows
 * written before any reply is read.
 * options: NULL or "name=value" pairs separated by commas:
 *   flush=N      elements per buffer (1 .. 100000; default 1000)
 *   dup=replace  (default) an element at the timestamp of an existing one
 *                replaces it; dup=error: the server refuses it (-268) and
 *                nothing of that batch row is written. dup=error is passed
 *                to the routine as its fifth argument.
 * The statement is prepared here (one round trip): an unknown routine
 * fails now. table and column are copied.
 * *out receives the writer (free it with ix_ts_writer_close), NULL on
 * failure. Returns IX_OK; IX_EINVAL (bad option; message on conn);
 * IX_EMISUSE (NULL argument); IX_ENOMEM; or the error of the prepare
 * (IX_ESQL, connection errors).
 */
int ix_ts_writer_open(ix_conn *conn, const char *table, const char *column, const char *options,
                      ix_ts_writer **out);

/*
 * Appends one element to key's buffer. element is element text
 * ("2026-01-01 00:01|20.5|50.1|" as docs/timeseries.md describes), len its
 * length or IX_NTS (-1) when NUL-terminated; it must not contain a newline. key and
 * element are copied. May flush (see ix_ts_writer_open), and so may block
 * and fail with the errors of ix_ts_writer_flush.
 * Returns IX_OK; IX_EINVAL (a newline in the element, an element longer
 * than IX_TS_MAX_TEXT, an empty key); IX_EMISUSE (NULL argument); IX_ENOMEM;
 * or the failure of the flush it ran (or of an earlier one: see
 * ix_ts_writer_flush).
 */
int ix_ts_writer_add(ix_ts_writer *w, const char *key, const char *element, size_t len);

/*
 * Appends one element built from values: the timestamp is ts (text
 * "YYYY-MM-DD HH:MI:SS.fffff", copied as it is) or, when ts is NULL, us:
 * microseconds since 1970-01-01 00:00:00 (no time zone), written with as
 * many fraction digits as it needs (none, 5, or 6). Then nvalues fields
 * (0 .. 64): values[k], or NULL (an empty field) when is_null is non-NULL
 * and is_null[k] is non-zero. Doubles are written as the shortest text that
 * reads back to the same double ("20.01", "-3", "1e+300"; "nan", "inf",
 * "-inf"); an integral value prints as an integer, so integer metrics take
 * them. No allocation unless a buffer grows.
 * Returns as ix_ts_writer_add; also IX_EINVAL for nvalues out of range or a
 * timestamp before year 1 or after 9999.
 */
int ix_ts_writer_add_values(ix_ts_writer *w, const char *key, const char *ts, int64_t us,
                            const double *values, const unsigned char *is_null, int nvalues);

/*
 * Sends every non-empty buffer in one pipelined batch and waits for the
 * replies. Returns IX_OK when every batch row succeeded. When a row
 * fails, the writer stops: the elements of that row are not written (the
 * routine writes nothing of a call that fails), the rows after it in the
 * same batch were sent and stand when they succeeded, and every later call
 * on the writer returns the same failure again (re-recorded on the
 * connection) without sending anything; ix_ts_writer_failure names the
 * key. The connection's error record then has the server's SQLCODE
 * (ix_sqlcode: -746 for bad element text, -268 for dup=error, ...) and
 * ix_errmsg "series KEY: <the server's message>". Returns IX_ESQL (a row
 * failed); IX_EMISUSE (NULL w); IX_ENOMEM; a connection error (the rows
 * without a reply are unknown: the connection is dead).
 */
int ix_ts_writer_flush(ix_ts_writer *w);

/* Elements the server reported written (the row counts of the batches sent
 * so far); elements buffered and not yet sent. 0 for NULL w. */
int64_t ix_ts_writer_written(const ix_ts_writer *w);
int64_t ix_ts_writer_pending(const ix_ts_writer *w);

/*
 * After a failed flush: OUT *key (borrowed, valid until
 * ix_ts_writer_close) names the series of the first failing batch row and
 * OUT *element (may be NULL) receives the 0-based position of the element
 * the server blamed among all elements added for that key since the writer
 * was opened (the server's "line N"), or -1 when it named none.
 * Returns 1 when a batch row was refused (and sets *key); 0 when the writer
 * has not failed, or failed for another reason (a connection error: *key
 * NULL), or for NULL w.
 */
int ix_ts_writer_failure(const ix_ts_writer *w, const char **key, int64_t *element);

/* Flushes what is buffered (unless the writer has failed), finalizes the
 * statement and frees the writer. Returns IX_OK or the failure of that
 * flush (or the earlier one). NULL is a no-op returning IX_OK. The
 * connection must still be open (ix_close it after). */
int ix_ts_writer_close(ix_ts_writer *w);

typedef struct ix_ts_reader ix_ts_reader;

/*
 * Opens a reader of key's series in table.column over the window [from,
 * to] (timestamp text; NULL = unbounded), in JSON pages: each
 * ix_ts_reader_next runs EXECUTE FUNCTION oni_ts_read(table, column, key,
 * from, to, options) with from = the previous page's "next", until a page
 * says "next":null. options (NULL for none) goes to the routine as it is
 * ("shape=rows", "limit=N", "max=B"). Nothing is sent here; the arguments
 * are copied. *out receives the reader (ix_ts_reader_close it), NULL on
 * failure. Returns IX_OK, IX_EMISUSE (NULL conn, table, column, key or
 * out), IX_ENOMEM.
 */
int ix_ts_reader_open(ix_conn *conn, const char *table, const char *column, const char *key,
                      const char *from, const char *to, const char *options, ix_ts_reader **out);

/*
 * Reads the next page. OUT *json (NUL-terminated, owned by the reader,
 * valid until the next call on it or ix_ts_reader_close) and *len (may be
 * NULL) receive the page. Returns IX_ROW with a page; IX_DONE when the
 * last page has been given (json NULL); IX_ESQL (the server's error, e.g.
 * -746); IX_EPROTO (a page that is not a JSON object with "next", or a
 * "next" that does not move forward; the connection stays usable);
 * IX_EMISUSE; IX_ENOMEM; connection errors. After an error every call
 * returns IX_DONE.
 */
int ix_ts_reader_next(ix_ts_reader *r, const char **json, size_t *len);

/* Pages read so far. 0 for NULL r. */
int64_t ix_ts_reader_pages(const ix_ts_reader *r);

/* Frees the reader (finalizes its statement). NULL is a no-op. */
void ix_ts_reader_close(ix_ts_reader *r);

/*
 * Prepares SELECT * FROM TABLE(oni_ts_read_rows('table', 'column', ?, ?,
 * ?)) with key, from and to bound (table and column are literals in the
 * text, quotes doubled, so that the server takes the column's row type).
 * The rows are the row type's fields, the timestamp first (DATETIME YEAR TO
 * FRACTION(5)); read them with ix_step and the ix_column_* accessors.
 * *out receives the statement (owned by the caller: ix_finalize it), NULL
 * on failure. Returns as ix_prepare and the ix_bind_text calls
 * (IX_EMISUSE for NULL conn, table, column, key or out).
 */
int ix_ts_rows_open(ix_conn *conn, const char *table, const char *column, const char *key,
                    const char *from, const char *to, ix_stmt **out);

/* ---- tracing ---------------------------------------------------------------- */

/* Receives one line per message, without newline, e.g. "C->S SQ_PREPARE
 * nparams=1 sql=\"...\"" / "S->C SQ_DONE rows=1 ..." (the ixwire format;
 * passwords are never printed). The line is borrowed for the call only. */
typedef void (*ix_trace_fn)(void *userdata, const char *line);
/* Sets (fn non-NULL) or removes the trace callback; replaces $IXDB_TRACE.
 * Returns IX_OK or IX_EMISUSE. */
int ix_set_trace(ix_conn *conn, ix_trace_fn fn, void *userdata);

/* ---- smart large objects (BLOB, CLOB) --------------------------------------- */
/*
 * A BLOB or CLOB column holds a handle ("locator", an opaque 72-byte
 * ix_locator) that names the value; the bytes are read and written through
 * a stream (ix_lob), in the style of SQLite's incremental blob I/O, or as a
 * whole. A handle fetched from a row stays usable on that connection (in
 * the same transaction, or after it committed). docs/c-api.md "Smart large
 * objects" has examples; the wire form is in docs/protocol.md.
 * On ixd (ix_conn_compat "fast") the streams use ixd's SQL routines. On
 * any other connection ("conservative") they take a real server's forms:
 * create and close as fast-path routine calls, open as SQL with the handle
 * as a literal, reads relative to the server's position. No public source
 * shows ifx_lo_size or ifx_lo_seek on a real server, so there ix_lob_size,
 * ix_lob_seek with IX_LO_SEEK_END, a write away from where the last read or
 * write left the server, and a read after an append return IX_ENOTSUP and
 * send nothing (docs/c-api.md "Smart LOBs on other servers").
 */

/* The two types where ixdb names them (the codes of JDBC's IfxTypes). On the
 * wire both are UDTFIXED (41) with the extended name blob/clob, and
 * ix_column_type reports IX_T_UDTFIXED; ix_column_lob_type tells them apart. */
enum { IX_T_CLOB = 101, IX_T_BLOB = 102 };

/* Open flags (Informix's LO_* values) and seek origins (LO_SEEK_*). */
enum { IX_LO_APPEND = 0x1, IX_LO_WRONLY = 0x2, IX_LO_RDONLY = 0x4, IX_LO_RDWR = 0x8 };
enum { IX_LO_SEEK_SET = 0, IX_LO_SEEK_CUR = 1, IX_LO_SEEK_END = 2 };

#define IX_LOCATOR_LEN 72
typedef struct ix_locator {
    unsigned char bytes[IX_LOCATOR_LEN]; /* opaque: pass it back, never build it */
} ix_locator;

typedef struct ix_lob ix_lob; /* an open smart LOB (a server descriptor) */

/* IX_T_BLOB or IX_T_CLOB when column i of the current row holds a smart-LOB
 * handle, 0 when the value is NULL or the column no smart LOB. */
int ix_column_lob_type(ix_stmt *stmt, int i);
/* Copies the handle of column i of the current row into *out. Returns IX_OK,
 * IX_NULL_VALUE for NULL, IX_EINVAL when the column is no smart LOB. */
int ix_column_locator(ix_stmt *stmt, int i, ix_locator *out);
/* The whole value of column i of the current row: *data (allocated with the
 * allocator of ix_set_allocator, one NUL byte after the *n bytes; free it
 * with ix_lob_free) and *n. IX_OK, IX_NULL_VALUE (*data NULL), or an error.
 * The LO is read in pieces; the row's cursor stays where it was. */
int ix_column_lob(ix_stmt *stmt, int i, void **data, size_t *n);
/* Frees what ix_column_lob returned (NULL is fine). */
void ix_lob_free(void *p);

/* Opens the LO a handle names, with IX_LO_RDONLY, IX_LO_WRONLY or
 * IX_LO_RDWR (| IX_LO_APPEND). ix_lob_open_column opens the handle of
 * column i of stmt's current row. *out is the caller's, closed with
 * ix_lob_close (before ix_close of its connection). IX_OK, IX_NULL_VALUE (a
 * NULL column), IX_EINVAL, or the server's error (IX_ESQL). */
int ix_lob_open(ix_conn *conn, const ix_locator *loc, int flags, ix_lob **out);
int ix_lob_open_column(ix_stmt *stmt, int i, int flags, ix_lob **out);
/* Creates a new, empty LO of type IX_T_BLOB or IX_T_CLOB and opens it for
 * reading and writing. Bind it (ix_lob_locator, ix_bind_locator) into an
 * INSERT or UPDATE to keep it; in a transaction that rolls back it goes. */
int ix_lob_create(ix_conn *conn, int type, ix_lob **out);
/* The handle and type (IX_T_BLOB/IX_T_CLOB) of an open LO. */
int ix_lob_locator(const ix_lob *lob, ix_locator *out);
int ix_lob_type(const ix_lob *lob);
/* Reads up to n bytes at the current position into buf: *got (0 at the
 * end). Writes p[0..n) at the position (at the end with IX_LO_APPEND).
 * Each moves the position by the bytes moved; one call may take several
 * round trips (at most 1 MiB moves in one message). IX_OK or an error.
 * Conservative connections: a write only where the last read or write
 * ended (or with IX_LO_APPEND), a read not after an append; else
 * IX_ENOTSUP. */
int ix_lob_read(ix_lob *lob, void *buf, size_t n, size_t *got);
int ix_lob_write(ix_lob *lob, const void *p, size_t n);
/* Moves the position to offset from IX_LO_SEEK_SET / CUR / END; *pos (may
 * be NULL) gets the new position. No round trip for SET and CUR; END takes
 * the size (ix_lob_size: IX_ENOTSUP on conservative connections). */
int ix_lob_seek(ix_lob *lob, int64_t offset, int whence, int64_t *pos);
/* The LO's current size in bytes (one round trip). IX_ENOTSUP on
 * conservative connections (no public source shows ifx_lo_size on a real
 * server). */
int ix_lob_size(ix_lob *lob, int64_t *size);
/* Closes the server descriptor and frees lob (NULL is fine). IX_OK, or the
 * error of the close (lob is freed all the same). */
int ix_lob_close(ix_lob *lob);

/* Binds parameter i (1-based) to a handle (loc NULL: a NULL of type
 * IX_T_BLOB/IX_T_CLOB). ix_bind_lob makes a new LO holding p[0..n) first and
 * binds its handle (p is copied; it need not outlive the call);
 * ix_bind_lob_stream does the same with bytes that fn gives: fn(ud, buf,
 * cap) writes up to cap bytes to buf and returns how many, 0 at the end, or
 * a negative value to stop (the bind then fails with IX_EINVAL and the new
 * LO is left unreferenced). IX_OK or an error. */
int ix_bind_locator(ix_stmt *stmt, int i, int type, const ix_locator *loc);
int ix_bind_lob(ix_stmt *stmt, int i, int type, const void *p, size_t n);
typedef long long (*ix_lob_source_fn)(void *ud, void *buf, size_t cap);
int ix_bind_lob_stream(ix_stmt *stmt, int i, int type, ix_lob_source_fn fn, void *ud);

/* ---- statement completeness (for shells) ------------------------------------ */

/* 1 if the first n bytes of sql hold at least one complete statement, that
 * is a ';' outside '...' and "..." strings (a doubled quote stays inside)
 * and outside comments (-- to the end of the line, { ... }, and slash-star
 * ... star-slash), else 0 (also for sql NULL). A statement that begins CREATE
 * [DBA] PROCEDURE|FUNCTION ends only at a ';' after END PROCEDURE|FUNCTION
 * (the ';' of its body do not count).
 * Pure: no connection, no allocation. ixsql splits its input with it. */
int ix_complete(const char *sql, size_t n);

/* ---- client files (FILETOBLOB / FILETOCLOB / LOTOFILE with 'client') ------- */
/*
 * FILETOBLOB(path, 'client'), FILETOCLOB(path, 'client') and LOTOFILE(lob,
 * path, 'client') make the server ask this client, while the statement
 * runs, to open, read or write, and close a file on the client's machine.
 * A server could name any file the application can read or write, so this
 * is off by default: every such request is refused (the statement fails
 * with -9810) until the application names a directory. With dir set, only
 * files inside dir are served: a relative name is taken from dir, and the
 * resolved path (realpath: `..` and symbolic links followed) must be dir or
 * below it; LOTOFILE's file is created (or truncated) there, never through
 * a symbolic link. dir NULL refuses again. The connection copies dir.
 * Returns IX_OK, IX_EMISUSE (c NULL), IX_EINVAL (dir does not resolve to a
 * directory) or IX_ENOMEM. Requests are answered inside any call that reads
 * a reply, blocking or not (in non-blocking mode the reply that carries a
 * request is then finished with a blocking read).
 */
int ix_set_client_files(ix_conn *c, const char *dir);

#ifdef __cplusplus
}
#endif
#endif /* IXDB_H */
