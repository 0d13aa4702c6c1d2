/*
 * ixprobe: tells which of libixdb's request forms a server takes.
 *
 *   ixprobe [--timeout SECS] [--capture FILE] DSN
 *
 * First a connection with compat=conservative (verified forms only) prints
 * the server's banner, name and the forms in use. Then every form that is
 * not verified (docs/protocol.md "Evidence") is tried once, each on a fresh
 * connection with compat=fast and the other optional forms turned off, with
 * short timeouts, and the result printed as a table: held, refused (the
 * SQLCODE and message), no answer (a timeout), connection lost, did not
 * hold, or not tried (why). The probe changes no data: it reads the system
 * catalogue and writes only a TEMP table.
 * With --capture FILE every probe N's bytes go to FILE.N.client.hex and
 * FILE.N.server.hex (ixwire decode reads them), the password and the rows'
 * bytes masked with their lengths kept, and the messages to FILE as the
 * library's trace lines with row and parameter values masked (the library
 * never traces passwords).
 * Exit status: 0 the probe ran (whatever the results), 1 even the
 * conservative connection failed, 2 a usage error.
 */
#include <getopt.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ixdb.h"
#include "base/ix_buf.h"
#include "base/ix_hex.h"
#include "client/ix_client_int.h"
#include "proto/ix_caps.h"
#include "proto/ix_login.h"
#include "proto/ix_reader.h"

enum {
    EXIT_RAN = 0,
    EXIT_NO_CONN = 1,
    EXIT_USAGE = 2,
    DEFAULT_TIMEOUT = 5,        /* seconds: connect_timeout, read_timeout, watchdog */
    MAX_TIMEOUT = 3600,         /* seconds: the largest --timeout taken */
    SMALL_FETCH = 4096,         /* bytes per NFETCH where sizes are not probed */
    BIG_FETCH = 1048576,        /* bytes per NFETCH for the NFETCH probe */
    OLD_FETCH_MAX = 32767,      /* the largest NFETCH size of an i16 */
    CANCEL_DELAY_MS = 500,      /* how long the long query runs before ix_cancel */
    JOIN_MIN = 3,               /* the first degree of the long query's cross join */
    JOIN_MAX = 6,               /* the last */
    SQL_LONG_MAX = 256,         /* the longest long query */
    DSN_MAX = 4096,             /* the longest DSN with the probe's keys added */
    DETAIL_MAX = 512,           /* the longest detail column */
    CAPS_MAX = 32,              /* the longest --caps list */
    TUPLE_HEAD = 8,             /* SQ_TUPLE: tag, warnings, i32 length, then the payload */
    MASK_MAX = 8192,            /* the longest trace line masked */
    SQLCODE_INTERRUPTED = -213, /* Statement interrupted by user */
    SQLCODE_NO_TXN = -256,      /* Transaction not available (unlogged database) */
    LARGE_VALUE = 40000,        /* bytes of the LO and BYTE probes: more than one chunk */
};

/* The SQL the probes run: reads of the catalogue and a TEMP table. */
static const char SQL_SMALL[] = "select count(*) from systables where tabid < 10";
static const char SQL_TEMP[] = "create temp table ixprobe_t (i int) with no log";
static const char SQL_TEMP_LOGGED[] = "create temp table ixprobe_t (i int)";
static const char SQL_INSERT[] = "insert into ixprobe_t values (1)";
static const char SQL_COUNT_TEMP[] = "select count(*) from ixprobe_t";
static const char SQL_TEMP_BYTE[] = "create temp table ixprobe_b (b byte) with no log";
static const char SQL_INSERT_BYTE[] = "insert into ixprobe_b values (?)";
static const char SQL_SELECT_BYTE[] = "select b from ixprobe_b";
static const char SQL_MANY[] = "select a.tabid, b.tabid from systables a, systables b";
static const char SQL_MANY_COUNT[] = "select count(*) from systables a, systables b";
/* The long query of the interrupt probe: count(*) of systables joined with
 * itself `degree` times, from JOIN_MIN up: a degree that ends before the
 * cancel is sent is followed by the next, so the query runs about as long
 * as one degree more than the server needs for CANCEL_DELAY_MS: a server
 * that ignores the interrupt runs it to its end, at most about systables'
 * row count times CANCEL_DELAY_MS, not the hours of a fixed deep join. */
static const char SQL_LONG_HEAD[] = "select count(*) from systables t0";

/* Every optional form off; a probe turns its own one on after these. */
static const char KEYS_ALL_OFF[] = "pipeline_login=0 deferred_prepare=0";

typedef enum result {
    R_HELD,
    R_REFUSED,
    R_NO_ANSWER,
    R_LOST,
    R_NOT_HELD,
    R_NOT_TRIED,
} result;

static const char *const RESULT_NAMES[] = {
    "held", "refused", "no answer", "connection lost", "did not hold", "not tried"};

typedef struct probe_ctx {
    const char *dsn;      /* the user's DSN */
    int timeout;          /* seconds */
    FILE *capture;        /* NULL without --capture */
    const char *cap_path; /* --capture FILE: also FILE.N.client.hex, FILE.N.server.hex */
    int cap_n;            /* N of the probe being captured */
    ixb_wbuf wire[2];     /* the bytes of the probe: [0] client's, [1] server's */
    char trace_path[64];  /* the temporary IXDB_TRACE file */
    char detail[DETAIL_MAX];
} probe_ctx;

/* Prints the usage to f. Returns nothing. */
static void usage(FILE *f) {
    fputs("usage: ixprobe [--timeout SECS] [--capture FILE] DSN\n"
          "\n"
          "Tries each of libixdb's request forms that no public source shows a real\n"
          "Informix server taking, and prints which the server at DSN takes.\n"
          "DSN: informix://user:password@host:port/database?server=NAME or the\n"
          "keyword form \"host=... port=... server=... database=... user=... password=...\".\n"
          "\n"
          "options:\n"
          "  -t, --timeout=SECS     connect, read and watchdog timeout per probe (default 5)\n"
          "  -c, --capture=FILE     write each probe's streams (FILE.N.client.hex, "
          "FILE.N.server.hex)\n"
          "                         and trace lines (FILE), password and row values masked\n"
          "  -V, --version          print the version and exit\n"
          "  -h, --help             print this help and exit\n"
          "\n"
          "Exit status: 0 the probe ran, 1 no connection at all, 2 usage error.\n",
          f);
}

/* Appends the DSN keys in `keys` (space-separated key=value) to the user's
 * DSN, as URL query parameters or keyword pairs. Returns 0, or -1 when the
 * result does not fit out. */
static int dsn_with(const char *dsn, const char *keys, char *out, size_t n) {
    int url = strstr(dsn, "://") != NULL;
    size_t len = strlen(dsn);
    if (len + strlen(keys) + 2 >= n) return -1;
    memcpy(out, dsn, len + 1);
    if (!*keys) return 0;
    char sep = url ? (strchr(dsn, '?') ? '&' : '?') : ' ';
    out[len++] = sep;
    for (const char *k = keys; *k; k++)
        out[len++] = (*k == ' ' && url) ? '&' : *k;
    out[len] = 0;
    return 0;
}

/* Writes into p->detail (printf style). Returns nothing. */
static void say(probe_ctx *p, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void say(probe_ctx *p, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->detail, sizeof p->detail, fmt, ap);
    va_end(ap);
}

/* Classifies a failed call on c (rc its return) and writes the detail,
 * prefixed by what was being done. Returns the result. */
static result failed(probe_ctx *p, ix_conn *c, int rc, const char *doing) {
    switch (rc) {
    case IX_ESQL:
        say(p, "%s: SQLCODE %d: %s", doing, ix_sqlcode(c), ix_errmsg(c));
        return R_REFUSED;
    case IX_ETIMEOUT: say(p, "%s: no reply within the timeout", doing); return R_NO_ANSWER;
    case IX_ECONN: say(p, "%s: %s", doing, ix_errmsg(c)); return R_LOST;
    default: say(p, "%s: %s: %s", doing, ix_rc_str(rc), ix_errmsg(c)); return R_NOT_HELD;
    }
}

/* Masks the values in one trace line of a row (SQ_TUPLE) or of bound
 * parameters (SQ_BIND): every character of the value list, from the first
 * '(' or '[' after the tag to the end of the line, except separators and
 * the closing bracket, becomes '*'. The line keeps its length. Returns
 * nothing. */
static void mask_line(char *line) {
    char *t = strstr(line, "SQ_TUPLE");
    if (!t) t = strstr(line, "SQ_BIND");
    if (!t) return;
    char *v = strpbrk(t, "([");
    if (!v) return;
    size_t n = strcspn(v, "\n");
    while (n > 1 && (v[n - 1] == ')' || v[n - 1] == ']'))
        n--;
    for (size_t i = 1; i < n; i++)
        if (v[i] != ',' && v[i] != ' ') v[i] = '*';
}

/* The wire tap (ixc_set_wire_tap): appends the bytes to the probe's
 * buffer of their direction. Returns nothing. */
static void wire_tap(void *ud, const ix_conn *c, int from_server, const uint8_t *p, size_t n) {
    (void)c;
    ixb_put_bytes(&((probe_ctx *)ud)->wire[from_server ? 1 : 0], p, n);
}

/* Replaces the password of the login packet at the start of the client's
 * stream by '*'s of the same length. Returns nothing. */
static void mask_password(ixb_wbuf *b) {
    ixp_login_limits lim;
    ixp_login_limits_default(&lim);
    ixp_conreq r;
    size_t used = 0, at = 0;
    const char *why = NULL;
    if (!ixp_sl_looks_like(b->data, b->len)) return;
    if (ixp_conreq_decode(b->data, b->len, &lim, &r, &used, &at, &why) != IX_OK) return;
    if (r.password.p && r.password.n)
        memset(b->data + ((const uint8_t *)r.password.p - b->data), '*', r.password.n);
}

/* Writes the capabilities set in caps as ixwire's --caps list ("f54,f63"),
 * or "auto" when none is, into out. Returns nothing. */
static void caps_list(const ixp_caps *caps, char *out, size_t n) {
    const struct {
        const char *name;
        uint8_t on;
    } all[] = {{"f44", caps->f44}, {"f54", caps->f54}, {"f62", caps->f62},
               {"f63", caps->f63}, {"f69", caps->f69}, {"f70", caps->f70}};
    size_t len = 0;
    out[0] = 0;
    for (size_t i = 0; i < sizeof all / sizeof *all && len + 5 < n; i++)
        if (all[i].on)
            len += (size_t)snprintf(out + len, n - len, "%s%s", len ? "," : "", all[i].name);
    if (!len) snprintf(out, n, "auto");
}

/* Replaces the payload of every SQ_TUPLE in the server's stream by zero
 * bytes (the lengths stay, so the stream still decodes; the probe's rows
 * are integers, which read as 0). Returns the capabilities the server
 * granted (none when its answer is not in the stream). */
static ixp_caps mask_tuples(ixb_wbuf *b) {
    ixp_reader r;
    ixp_reader_init(&r, IXP_FROM_SERVER, NULL);
    r.expect_login = ixp_sl_looks_like(b->data, b->len);
    int st = ixp_reader_feed(&r, b->data, b->len);
    while (st == IX_OK) {
        size_t at = (size_t)ixp_reader_offset(&r);
        ixp_msg m;
        st = ixp_reader_next(&r, &m);
        if (st != IX_OK) break;
        if (m.tag == IXP_SQ_PROTOCOLS)
            r.caps = ixp_caps_from_bits(m.u.protocols.p, m.u.protocols.n);
        if (m.tag != IXP_SQ_TUPLE || at + TUPLE_HEAD > b->len) continue;
        size_t len = ixb_be32(b->data + at + TUPLE_HEAD - 4);
        if (len <= b->len - at - TUPLE_HEAD) memset(b->data + at + TUPLE_HEAD, 0, len);
    }
    ixp_reader_free(&r);
    return r.caps;
}

/* Writes b as hex to PATH.N.WHO.hex. Returns nothing. */
static void write_hex(probe_ctx *p, const ixb_wbuf *b, const char *who) {
    char path[DSN_MAX];
    snprintf(path, sizeof path, "%s.%d.%s.hex", p->cap_path, p->cap_n, who);
    ixb_wbuf hex;
    ixb_wbuf_init(&hex, NULL);
    ixb_hex_encode(b->data, b->len, &hex);
    FILE *f = fopen(path, "w");
    if (f) {
        fprintf(f, "%.*s\n", (int)hex.len, (const char *)hex.data);
        fclose(f);
    }
    ixb_wbuf_free(&hex);
}

/* Masks the probe's two streams, writes them as hex files, empties the
 * buffers and writes the granted capabilities (ixwire's --caps list, for
 * the client's stream) into caps. Returns nothing. */
static void capture_hex(probe_ctx *p, char *caps, size_t n) {
    mask_password(&p->wire[0]);
    ixp_caps granted = mask_tuples(&p->wire[1]);
    caps_list(&granted, caps, n);
    write_hex(p, &p->wire[0], "client");
    write_hex(p, &p->wire[1], "server");
    ixb_wbuf_reset(&p->wire[0]);
    ixb_wbuf_reset(&p->wire[1]);
}

/* Writes the probe's hex files, then copies its trace file to the capture,
 * masked, under a header naming the form, the hex files and the --caps
 * list the client's stream decodes with, and empties the trace file.
 * Returns nothing. */
static void capture_flush(probe_ctx *p, const char *form) {
    if (!p->capture) return;
    char caps[CAPS_MAX];
    capture_hex(p, caps, sizeof caps);
    FILE *f = fopen(p->trace_path, "r");
    fprintf(p->capture, "## %s (%s.%d.client.hex: --caps %s; %s.%d.server.hex)\n", form,
            p->cap_path, p->cap_n, caps, p->cap_path, p->cap_n);
    p->cap_n++;
    char line[MASK_MAX];
    while (f && fgets(line, sizeof line, f)) {
        mask_line(line);
        fputs(line, p->capture);
    }
    if (f) fclose(f);
    FILE *t = fopen(p->trace_path, "w");
    if (t) fclose(t);
}

/* Connects with the user's DSN, the timeouts and `keys`; with a capture
 * the connection is traced to the temporary file from the login on.
 * Returns the ix_connect result; *out is set as ix_connect sets it. */
static int probe_connect(probe_ctx *p, const char *keys, ix_conn **out) {
    char all[DSN_MAX], dsn[DSN_MAX];
    snprintf(all, sizeof all, "connect_timeout=%d read_timeout=%d watchdog=%d %s", p->timeout,
             p->timeout, p->timeout, keys);
    if (dsn_with(p->dsn, all, dsn, sizeof dsn) < 0) {
        *out = NULL;
        return IX_EINVAL;
    }
    if (p->capture) setenv("IXDB_TRACE", p->trace_path, 1);
    int rc = ix_connect(out, dsn);
    if (p->capture) unsetenv("IXDB_TRACE");
    return rc;
}

/* Runs a one-row, one-column SELECT on c and stores its value in *v.
 * Returns IX_OK or the failing call's code. */
static int select_one(ix_conn *c, const char *sql, int64_t *v) {
    ix_stmt *s = NULL;
    int rc = ix_prepare(c, sql, strlen(sql), &s);
    if (rc == IX_OK) rc = ix_step(s);
    if (rc == IX_ROW) {
        *v = ix_column_int64(s, 0);
        rc = ix_step(s);
    }
    ix_finalize(s);
    return rc == IX_DONE ? IX_OK : rc;
}

/* Runs one statement that returns no rows through a prepared statement;
 * *changes receives the rows it affected. Returns IX_OK or the failing
 * call's code. */
static int execute_one(ix_conn *c, const char *sql, int64_t *changes) {
    ix_stmt *s = NULL;
    int rc = ix_prepare(c, sql, strlen(sql), &s);
    if (rc == IX_OK) rc = ix_step(s);
    if (rc == IX_DONE) *changes = ix_changes(s);
    ix_finalize(s);
    return rc == IX_DONE ? IX_OK : rc;
}

/* The conservative connection: prints the server's facts. Returns 0, or -1
 * when it failed (the reason printed). */
static int probe_conservative(probe_ctx *p) {
    ix_conn *c = NULL;
    int rc = probe_connect(p, "compat=conservative", &c);
    if (rc != IX_OK) {
        fprintf(stderr, "ixprobe: conservative connection failed: %s (SQLCODE %d): %s\n",
                ix_rc_str(rc), ix_sqlcode(c), ix_errmsg(c));
        ix_close(c);
        capture_flush(p, "conservative");
        return -1;
    }
    printf("server:  %s\nbanner:  %s\ncompat:  %s\nforms:   %s\n\n", ix_server_name(c),
           ix_server_version(c), ix_conn_compat(c), *ix_conn_forms(c) ? ix_conn_forms(c) : "-");
    ix_close(c);
    capture_flush(p, "conservative");
    return 0;
}

/* Checks that c still answers a SELECT. Returns R_HELD or how it failed. */
static result still_answers(probe_ctx *p, ix_conn *c, const char *doing) {
    int64_t n = 0;
    int rc = select_one(c, SQL_SMALL, &n);
    if (rc != IX_OK) return failed(p, c, rc, doing);
    return R_HELD;
}

/* Writes the DSN keys of a fast connection with every optional form off
 * except those in `keys` (which come last, and the last of a key wins) and
 * small fetches into out. Returns nothing. */
static void fast_keys(char *out, size_t n, const char *keys) {
    snprintf(out, n, "compat=fast %s fetch_buffer=%d %s", KEYS_ALL_OFF, SMALL_FETCH, keys);
}

/* Connects with the DSN keys `keys` (probe_connect). Returns the
 * connection, or NULL with the result in *r (a refused login is a form not
 * tried). */
static ix_conn *probe_conn(probe_ctx *p, const char *keys, result *r) {
    ix_conn *c = NULL;
    int rc = probe_connect(p, keys, &c);
    if (rc == IX_OK) return c;
    *r = failed(p, c, rc, "login");
    if (*r == R_REFUSED || *r == R_NOT_HELD) *r = R_NOT_TRIED;
    ix_close(c);
    return NULL;
}

/* probe_conn with fast_keys(keys). */
static ix_conn *fast_conn(probe_ctx *p, const char *keys, result *r) {
    char all[DSN_MAX];
    fast_keys(all, sizeof all, keys);
    return probe_conn(p, all, r);
}

/* probe_conn with the forms libixdb sends to a server that is not ixd
 * (compat=conservative) and small fetches. */
static ix_conn *conservative_conn(probe_ctx *p, result *r) {
    char all[DSN_MAX];
    snprintf(all, sizeof all, "compat=conservative fetch_buffer=%d", SMALL_FETCH);
    return probe_conn(p, all, r);
}

/* The login groups in one flight. Returns the result. */
static result probe_pipeline_login(probe_ctx *p) {
    char all[DSN_MAX];
    fast_keys(all, sizeof all, "pipeline_login=1");
    ix_conn *c = NULL;
    int rc = probe_connect(p, all, &c);
    result r =
        rc == IX_OK ? still_answers(p, c, "SELECT after the login") : failed(p, c, rc, "login");
    if (r == R_HELD) say(p, "login and a SELECT answered (forms: %s)", ix_conn_forms(c));
    ix_close(c);
    return r;
}

/* Deferred EXECUTE: PREPARE and EXECUTE of an INSERT in one group (held
 * when the server says it inserted one row; reading the row back would
 * take a deferred SELECT, a second unverified form). Returns the result. */
static result probe_deferred_execute(probe_ctx *p) {
    result r;
    ix_conn *c = fast_conn(p, "deferred_prepare=1", &r);
    if (!c) return r;
    int rc = ix_exec(c, SQL_TEMP);
    if (rc != IX_OK) {
        r = failed(p, c, rc, "create temp table");
        ix_close(c);
        return r == R_REFUSED ? R_NOT_TRIED : r;
    }
    int64_t n = 0;
    rc = execute_one(c, SQL_INSERT, &n);
    if (rc != IX_OK)
        r = failed(p, c, rc, "deferred INSERT");
    else if (n != 1)
        say(p, "the INSERT answered with %lld rows inserted", (long long)n), r = R_NOT_HELD;
    else
        say(p, "the INSERT inserted 1 row"), r = R_HELD;
    ix_close(c);
    return r;
}

/* Deferred SELECT: PREPARE, OPEN and NFETCH in one group. Returns the
 * result. */
static result probe_deferred_select(probe_ctx *p) {
    result r;
    ix_conn *c = fast_conn(p, "deferred_prepare=1", &r);
    if (!c) return r;
    int64_t n = -1;
    int rc = select_one(c, SQL_SMALL, &n);
    if (rc != IX_OK)
        r = failed(p, c, rc, "deferred SELECT");
    else
        say(p, "count(*) = %lld", (long long)n), r = R_HELD;
    ix_close(c);
    return r;
}

/* Reads every row of SQL_MANY with BIG_FETCH bytes per NFETCH; *rows and
 * *size receive the rows read and the NFETCH size sent. Returns IX_OK or
 * the failing call's code. */
static int read_many(ix_conn *c, int64_t *rows, int32_t *size) {
    ix_stmt *s = NULL;
    int rc = ix_prepare(c, SQL_MANY, strlen(SQL_MANY), &s);
    if (rc == IX_OK) rc = ix_stmt_set_fetch_buffer(s, BIG_FETCH);
    if (rc == IX_OK) rc = ix_stmt_set_readahead(s, 0);
    while (rc == IX_OK || rc == IX_ROW) {
        rc = ix_step(s);
        if (rc == IX_ROW) ++*rows;
    }
    *size = ix_stmt_fetch_size(s);
    ix_finalize(s);
    return rc == IX_DONE ? IX_OK : rc;
}

/* NFETCH sizes above 32767. Returns the result. */
static result probe_big_fetch(probe_ctx *p) {
    result r;
    ix_conn *c = fast_conn(p, "", &r);
    if (!c) return r;
    int64_t want = 0, rows = 0;
    int32_t size = 0;
    int rc = select_one(c, SQL_MANY_COUNT, &want);
    if (rc != IX_OK) {
        r = failed(p, c, rc, "count of the rows");
        ix_close(c);
        return r == R_REFUSED ? R_NOT_TRIED : r;
    }
    if (!strstr(ix_conn_forms(c), "fetch_1m")) {
        say(p, "not possible: the server did not grant f62 (NFETCH sizes are an i16, at most %d)",
            OLD_FETCH_MAX);
        ix_close(c);
        return R_NOT_TRIED;
    }
    rc = read_many(c, &rows, &size);
    if (rc != IX_OK)
        r = failed(p, c, rc, "SELECT");
    else if (rows != want)
        say(p, "NFETCH %d: %lld of %lld rows", size, (long long)rows, (long long)want),
            r = R_NOT_HELD;
    else
        say(p, "NFETCH %d: all %lld rows came", size, (long long)rows), r = R_HELD;
    ix_close(c);
    return r;
}

/* The thread that cancels the long query after CANCEL_DELAY_MS. Returns
 * NULL. */
static void *canceller(void *conn) {
    struct timespec ts = {CANCEL_DELAY_MS / 1000, (CANCEL_DELAY_MS % 1000) * 1000000L};
    nanosleep(&ts, NULL);
    ix_cancel(conn);
    return NULL;
}

/* Writes the long query of `degree` tables into sql. Returns nothing. */
static void long_query(char *sql, size_t n, int degree) {
    size_t len = (size_t)snprintf(sql, n, "%s", SQL_LONG_HEAD);
    for (int i = 1; i < degree && len < n; i++)
        len += (size_t)snprintf(sql + len, n - len, ", systables t%d", i);
}

/* Runs the long query of `degree` tables on c while a thread cancels it
 * after CANCEL_DELAY_MS. *ended_first is set when the query ended before
 * the cancel was sent. Returns the query's code. */
static int cancelled_query(ix_conn *c, int degree, int *ended_first) {
    char sql[SQL_LONG_MAX];
    long_query(sql, sizeof sql, degree);
    pthread_t t;
    if (pthread_create(&t, NULL, canceller, c) != 0) return IX_ENOMEM;
    int64_t n = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int rc = select_one(c, sql, &n);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    pthread_join(t, NULL);
    long ms = (t1.tv_sec - t0.tv_sec) * 1000L + (t1.tv_nsec - t0.tv_nsec) / 1000000L;
    *ended_first = rc == IX_OK && ms < CANCEL_DELAY_MS;
    return rc;
}

/* Runs longer and longer queries until one is still running when the
 * cancel is sent; *degree receives the last degree. Returns its code. */
static int cancel_long_query(ix_conn *c, int *degree) {
    int rc = IX_OK, ended_first = 1;
    for (*degree = JOIN_MIN; *degree <= JOIN_MAX; ++*degree) {
        rc = cancelled_query(c, *degree, &ended_first);
        if (!ended_first) break;
    }
    if (*degree > JOIN_MAX) *degree = JOIN_MAX;
    return rc;
}

/* Writes the detail of a cancel that did not end the query with -213 (rc
 * the query's code): what the query did, then whether c still answers.
 * Returns nothing. */
static void not_interrupted(probe_ctx *p, ix_conn *c, int rc) {
    char what[DETAIL_MAX], after[DETAIL_MAX];
    if (rc == IX_OK)
        snprintf(what, sizeof what, "the query ran to its end (no -213)");
    else
        failed(p, c, rc, "the query"), snprintf(what, sizeof what, "%s", p->detail);
    if (ix_conn_is_dead(c))
        snprintf(after, sizeof after, "the connection is dead");
    else if (still_answers(p, c, "the SELECT after it") == R_HELD)
        snprintf(after, sizeof after, "the SELECT after it answered");
    else
        snprintf(after, sizeof after, "%s", p->detail);
    say(p, "%s; %s", what, after);
}

/* The interrupt by one TCP urgent byte. Returns the result. */
static result probe_urgent(probe_ctx *p) {
    result r;
    ix_conn *c = fast_conn(p, "", &r);
    if (!c) return r;
    int degree = 0;
    int rc = cancel_long_query(c, &degree);
    if (rc == IX_ESQL && ix_sqlcode(c) == SQLCODE_INTERRUPTED) {
        r = still_answers(p, c, "-213, then the SELECT after it");
        if (r == R_HELD)
            say(p, "-213 (a %d-way join), and the connection still answers", degree);
        else
            r = R_NOT_HELD;
    } else {
        not_interrupted(p, c, rc);
        r = R_NOT_HELD;
    }
    ix_close(c);
    return r;
}

/* ROLLBACK as SQ_RBWORK (ix_rollback in fast mode) in a transaction that
 * inserted into a TEMP table. Returns the result. */
static result probe_rbwork(probe_ctx *p) {
    result r;
    ix_conn *c = fast_conn(p, "", &r);
    if (!c) return r;
    int rc = ix_exec(c, SQL_TEMP_LOGGED);
    if (rc == IX_OK) rc = ix_begin(c);
    if (rc != IX_OK) {
        int unlogged = rc == IX_ESQL && ix_sqlcode(c) == SQLCODE_NO_TXN;
        r = failed(p, c, rc, unlogged ? "the database is not logged" : "create temp table / BEGIN");
        ix_close(c);
        return r == R_REFUSED ? R_NOT_TRIED : r;
    }
    int64_t n = -1;
    rc = ix_exec(c, SQL_INSERT);
    if (rc != IX_OK)
        r = failed(p, c, rc, "INSERT in the transaction");
    else if ((rc = ix_rollback(c)) != IX_OK)
        r = failed(p, c, rc, "ROLLBACK (SQ_RBWORK)");
    else if ((rc = select_one(c, SQL_COUNT_TEMP, &n)) != IX_OK)
        r = failed(p, c, rc, "SELECT after the ROLLBACK");
    else if (n != 0)
        say(p, "ROLLBACK answered but %lld rows stayed", (long long)n), r = R_NOT_HELD;
    else
        say(p, "the ROLLBACK undid the INSERT"), r = R_HELD;
    ix_close(c);
    return r;
}

/* The probe's own bytes (never the user's data): LARGE_VALUE of a pattern
 * into buf. Returns nothing. */
static void pattern(uint8_t *buf) {
    for (size_t i = 0; i < LARGE_VALUE; i++)
        buf[i] = (uint8_t)(i * 7 + i / 251);
}

/* A smart LOB on a conservative connection: ifx_lo_create and
 * ifx_lo_close as fast-path calls, SQ_LODATA writes and a read after a
 * seek relative to the server's position (the forms libixdb sends to a
 * server that is not ixd). Held when the bytes read are the bytes
 * written. Returns the result. */
static result probe_lob(probe_ctx *p) {
    result r = R_HELD;
    ix_conn *c = conservative_conn(p, &r);
    if (!c) return r;
    static uint8_t want[LARGE_VALUE], got[LARGE_VALUE];
    pattern(want);
    ix_lob *b = NULL;
    size_t n = 0;
    int rc;
    if ((rc = ix_lob_create(c, IX_T_BLOB, &b)) != IX_OK)
        r = failed(p, c, rc, "ifx_lo_create (fast path)");
    else if ((rc = ix_lob_write(b, want, sizeof want)) != IX_OK)
        r = failed(p, c, rc, "SQ_LODATA write");
    else if ((rc = ix_lob_seek(b, 0, IX_LO_SEEK_SET, NULL)) != IX_OK ||
             (rc = ix_lob_read(b, got, sizeof got, &n)) != IX_OK)
        r = failed(p, c, rc, "SQ_LODATA read after a seek");
    else if (n != sizeof want || memcmp(got, want, n) != 0)
        say(p, "%zu of %d bytes read back as written", n, LARGE_VALUE), r = R_NOT_HELD;
    int crc = b ? ix_lob_close(b) : IX_OK;
    if (r == R_HELD && crc != IX_OK) r = failed(p, c, crc, "ifx_lo_close (fast path)");
    if (r == R_HELD) say(p, "%d bytes written and read back", LARGE_VALUE);
    ix_close(c);
    return r;
}

/* Reads the BYTE value back and compares it with want. Returns IX_OK, the
 * failing call's code, or IX_EPROTO when the bytes differ (*n: their
 * count). */
static int byte_back(ix_conn *c, const uint8_t *want, size_t *n) {
    ix_stmt *s = NULL;
    int rc = ix_prepare(c, SQL_SELECT_BYTE, strlen(SQL_SELECT_BYTE), &s);
    if (rc == IX_OK) rc = ix_step(s);
    if (rc == IX_ROW) {
        const void *v = ix_column_blob(s, 0, n);
        rc = *n == LARGE_VALUE && v && memcmp(v, want, *n) == 0 ? IX_OK : IX_EPROTO;
    }
    ix_finalize(s);
    return rc;
}

/* A BYTE value bound on a conservative connection: the descriptor in
 * SQ_BIND, then SQ_BBIND and SQ_BLOB chunks before the EXECUTE; read back
 * with SQ_FETCHBLOB. Returns the result. */
static result probe_bbind(probe_ctx *p) {
    result r = R_HELD;
    ix_conn *c = conservative_conn(p, &r);
    if (!c) return r;
    int rc = ix_exec(c, SQL_TEMP_BYTE);
    if (rc != IX_OK) {
        r = failed(p, c, rc, "create temp table");
        ix_close(c);
        return r == R_REFUSED ? R_NOT_TRIED : r;
    }
    static uint8_t want[LARGE_VALUE];
    pattern(want);
    ix_stmt *s = NULL;
    size_t n = 0;
    rc = ix_prepare(c, SQL_INSERT_BYTE, strlen(SQL_INSERT_BYTE), &s);
    if (rc == IX_OK) rc = ix_bind_blob(s, 1, want, sizeof want, IX_STATIC);
    if (rc == IX_OK) rc = ix_step(s);
    ix_finalize(s);
    if (rc != IX_DONE)
        r = failed(p, c, rc, "INSERT of a BYTE value (SQ_BBIND, SQ_BLOB)");
    else if ((rc = byte_back(c, want, &n)) == IX_EPROTO)
        say(p, "the value came back as %zu bytes, not as written", n), r = R_NOT_HELD;
    else if (rc != IX_OK)
        r = failed(p, c, rc, "SELECT of the BYTE value");
    else
        say(p, "%d bytes inserted and read back", LARGE_VALUE);
    ix_close(c);
    return r;
}

typedef struct form {
    const char *name;
    result (*run)(probe_ctx *p);
} form;

static const form FORMS[] = {
    {"pipelined login", probe_pipeline_login},  {"deferred EXECUTE", probe_deferred_execute},
    {"deferred SELECT", probe_deferred_select}, {"NFETCH > 32767", probe_big_fetch},
    {"urgent-byte interrupt", probe_urgent},    {"SQ_RBWORK", probe_rbwork},
    {"smart LOB fast path", probe_lob},         {"BYTE bind (SQ_BBIND)", probe_bbind},
};

/* Runs every probe and prints the table. Returns nothing. */
static void run_probes(probe_ctx *p) {
    printf("%-22s %-16s %s\n", "form", "result", "detail");
    for (size_t i = 0; i < sizeof FORMS / sizeof *FORMS; i++) {
        p->detail[0] = 0;
        result r = FORMS[i].run(p);
        printf("%-22s %-16s %s\n", FORMS[i].name, RESULT_NAMES[r], p->detail);
        fflush(stdout);
        capture_flush(p, FORMS[i].name);
    }
}

/* Parses the command line into p. Returns -1 to go on, else the exit
 * status (usage error, or --help / --version done). */
static int parse_args(int argc, char **argv, probe_ctx *p, const char **capture) {
    static const struct option opts[] = {{"timeout", required_argument, NULL, 't'},
                                         {"capture", required_argument, NULL, 'c'},
                                         {"version", no_argument, NULL, 'V'},
                                         {"help", no_argument, NULL, 'h'},
                                         {NULL, 0, NULL, 0}};
    int o;
    char *end;
    while ((o = getopt_long(argc, argv, "t:c:Vh", opts, NULL)) != -1) {
        switch (o) {
        case 't':
            p->timeout = (int)strtol(optarg, &end, 10);
            if (*end || p->timeout < 1 || p->timeout > MAX_TIMEOUT) {
                fprintf(stderr, "ixprobe: --timeout takes 1..%d seconds\n", MAX_TIMEOUT);
                return EXIT_USAGE;
            }
            break;
        case 'c': *capture = optarg; break;
        case 'V': printf("ixprobe %s\n", IXDB_VERSION_STRING); return EXIT_RAN;
        case 'h': usage(stdout); return EXIT_RAN;
        default: usage(stderr); return EXIT_USAGE;
        }
    }
    if (optind != argc - 1) {
        usage(stderr);
        return EXIT_USAGE;
    }
    p->dsn = argv[optind];
    return -1;
}

/* Opens the capture file and the temporary trace file. Returns 0 or -1. */
static int open_capture(probe_ctx *p, const char *path) {
    p->capture = fopen(path, "w");
    if (!p->capture) {
        perror(path);
        return -1;
    }
    snprintf(p->trace_path, sizeof p->trace_path, "/tmp/ixprobe.XXXXXX");
    int fd = mkstemp(p->trace_path);
    if (fd < 0) {
        perror("mkstemp");
        return -1;
    }
    close(fd);
    fputs("# ixprobe capture: the library's trace lines (the ixwire format),\n"
          "# row and parameter values masked; passwords are never traced.\n"
          "# Each probe's bytes: FILE.N.client.hex and FILE.N.server.hex\n"
          "# (ixwire decode --from client --caps LIST - < FILE.N.client.hex, LIST as\n"
          "# in the probe's header: what the server granted), the password replaced\n"
          "# by '*'s and every row's bytes by zeros.\n",
          p->capture);
    p->cap_path = path;
    ixb_wbuf_init(&p->wire[0], NULL);
    ixb_wbuf_init(&p->wire[1], NULL);
    ixc_set_wire_tap(wire_tap, p);
    return 0;
}

/* Entry point. Returns the exit status (see the top of the file). */
int main(int argc, char **argv) {
    probe_ctx p = {.timeout = DEFAULT_TIMEOUT};
    const char *capture = NULL;
    int st = parse_args(argc, argv, &p, &capture);
    if (st >= 0) return st;
    if (capture && open_capture(&p, capture) < 0) return EXIT_USAGE;
    st = probe_conservative(&p) < 0 ? EXIT_NO_CONN : EXIT_RAN;
    if (st == EXIT_RAN) run_probes(&p);
    if (p.capture) {
        ixc_set_wire_tap(NULL, NULL);
        ixb_wbuf_free(&p.wire[0]);
        ixb_wbuf_free(&p.wire[1]);
        fclose(p.capture);
        unlink(p.trace_path);
    }
    return st;
}
