/*
 * libFuzzer target: raw bytes into ixd's request handling, in-process.
 * One engine on a scratch data directory serves every input; each input is
 * one session. Byte 0 selects: bit 0 = start from a valid login and
 * SQ_PROTOCOLS prefix (so the fuzzer reaches the statement phase), bit 1 =
 * also open sysmaster, bit 2 = --strict (docs/server.md "Strict mode");
 * byte 1 = chunk size for feeding. The session must
 * never crash, leak or hang, whatever it is fed.
 *
 * ixd's log goes to ixd.log in the scratch directory, emptied before each
 * input, so normal runs stay quiet while standard error keeps the sanitizer's
 * and libFuzzer's reports; when AddressSanitizer reports an error (a bad
 * access, a deadly signal such as a stack overflow), the log of the input
 * that crashed is copied to standard error (and so is it with each
 * UndefinedBehaviorSanitizer report).
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proto/ix_login.h"
#include "server/session/ixd_log.h"
#include "server/session/ixd_server.h"

#define LOG_NAME       "ixd.log"
#define LOG_COPY_CHUNK 4096

static ixd_server srv;
static ixb_wbuf prefix[4];
static char log_path[64];

/* Copies the log of the current input to standard error. */
static void dump_log(void) {
    int fd = log_path[0] ? open(log_path, O_RDONLY) : -1;
    if (fd < 0) return;
    static const char head[] = "---- fuzz_server: ixd log of this input ----\n";
    if (write(STDERR_FILENO, head, sizeof head - 1) < 0) {
    }
    char buf[LOG_COPY_CHUNK];
    ssize_t n;
    while ((n = read(fd, buf, sizeof buf)) > 0)
        if (write(STDERR_FILENO, buf, (size_t)n) != n) break;
    close(fd);
}

/* The sanitizers' hooks (weak in their runtimes), called as they report an
 * error: AddressSanitizer before its report (a bad access, a deadly signal),
 * UndefinedBehaviorSanitizer with each report. */
void __asan_on_error(void);
void __asan_on_error(void) {
    dump_log();
}
void __ubsan_on_report(void);
void __ubsan_on_report(void) {
    dump_log();
}

/* ixd's log to LOG_NAME in dir instead of standard error. */
static void log_to_file(const char *dir) {
    char err[128];
    snprintf(log_path, sizeof log_path, "%s/%s", dir, LOG_NAME);
    if (ixd_log_open(log_path, IXD_LOG_TEXT, err, sizeof err)) {
        fprintf(stderr, "fuzz_server: %s\n", err);
        abort();
    }
}

static char dir[] = "/tmp/ixd-fuzz.XXXXXX";

/* At a normal exit: the scratch directory goes (after a crash it stays, with
 * the log of the input that crashed). */
static void remove_dir(void) {
    ixd_log_close();
    log_path[0] = 0;
    char cmd[sizeof dir + 16];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd)) {
    }
}

static void setup(void) {
    if (!mkdtemp(dir)) abort();
    atexit(remove_dir);
    srv.data_dir = dir;
    srv.server_name = "ixd";
    srv.banner = IXP_LOGIN_DEFAULT_BANNER;
    srv.limits.max_tuple = 1 << 16;
    srv.limits.max_sql = 1 << 16;
    srv.max_buffer = 1 << 20;
    pthread_mutex_init(&srv.log_lock, NULL);
    char err[128];
    ixv_err e;
    if (ixd_users_load(&srv.users, NULL, err, sizeof err) || ixd_engine_open(&srv.engine, dir, &e))
        abort();
    for (int i = 0; i < 4; i++)
        ixb_wbuf_init(&prefix[i], NULL);
    for (int i = 1; i < 4; i++) {
        ixp_conreq req;
        ixp_conreq_defaults(&req, "informix", "in4mix", "ixd");
        ixp_conreq_encode(&req, &prefix[i]);
        ixp_enc_protocols(&prefix[i], ixp_caps_jdbc_offer, sizeof ixp_caps_jdbc_offer);
        ixp_enc_tag(&prefix[i], IXP_SQ_EOT);
        if (i & 2) {
            ixp_enc_dbopen(&prefix[i], "sysmaster", 9, 0);
            ixp_enc_tag(&prefix[i], IXP_SQ_EOT);
        }
    }
    log_to_file(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!srv.engine) setup();
    if (size < 2) return 0;
    if (truncate(log_path, 0)) abort(); /* the log holds this input's session only */
    int sel = data[0] & 3;
    srv.strict = (data[0] >> 2) & 1;
    size_t chunk = data[1] ? data[1] : size;
    data += 2;
    size -= 2;
    ixd_sess *s = ixd_sess_new(&srv, 1, "fuzz");
    ixb_wbuf out;
    ixb_wbuf_init(&out, NULL);
    int rc = 0;
    /* the login groups one call each, as from a client that waits for each
     * answer (strict mode answers nothing after an early group) */
    if (sel) rc = ixd_sess_input(s, prefix[1].data, prefix[1].len, &out);
    if (sel > 1 && rc == 0)
        rc = ixd_sess_input(s, prefix[sel].data + prefix[1].len, prefix[sel].len - prefix[1].len,
                            &out);
    for (size_t off = 0; rc == 0 && off < size; off += chunk) {
        ixb_wbuf_reset(&out);
        rc = ixd_sess_input(s, data + off, size - off < chunk ? size - off : chunk, &out);
        while (rc == IXD_SESS_MORE) { /* the caller writes out, then resumes */
            ixb_wbuf_reset(&out);
            rc = ixd_sess_input(s, NULL, 0, &out);
        }
    }
    ixb_wbuf_free(&out);
    ixd_sess_free(s, "fuzz input done");
    return 0;
}
