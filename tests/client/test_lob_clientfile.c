/*
 * FILETOBLOB / FILETOCLOB / LOTOFILE with the 'client' location against a
 * real ixd: the server asks libixdb for the file through SQ_FILE. Client
 * files of 0 B, 1 B and 2 MiB round trip (blocking and non-blocking), are
 * refused without ix_set_client_files, refused outside the directory (`..`
 * and a symbolic link), and a missing file fails with -9810 on a connection
 * that stays usable.
 */
#include <poll.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

static const size_t sizes[] = {0, 1, 2u << 20};
#define NSIZES 3

static uint8_t *pattern(size_t n, int seed) {
    uint8_t *p = malloc(n + 1);
    for (size_t j = 0; j < n; j++)
        p[j] = (uint8_t)(j * 131 + (j >> 9) + seed);
    return p;
}

static void write_file(const char *path, const uint8_t *p, size_t n) {
    FILE *f = fopen(path, "wb");
    if (f) {
        if (n) fwrite(p, 1, n, f);
        fclose(f);
    }
}

/* The file's bytes (malloc'd, *n its size), or NULL. */
static uint8_t *read_file(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    uint8_t *p = malloc((4u << 20) + 1);
    *n = fread(p, 1, (4u << 20) + 1, f);
    fclose(f);
    return p;
}

static int exec(ix_conn *c, const char *sql) {
    int rc = ix_exec(c, sql);
    CHECK(rc == IX_OK, "%s: %s", sql, ix_errmsg(c));
    return rc;
}

/* Runs a statement expected to fail with -9810 and a message holding what. */
static void refused(ix_conn *c, const char *sql, const char *what, const char *label) {
    ix_stmt *s;
    int rc = ix_prepare(c, sql, (size_t)-1, &s);
    if (rc == IX_OK) rc = ix_step(s);
    ix_finalize(s);
    CHECK(rc == IX_ESQL && ix_sqlcode(c) == -9810 && strstr(ix_errmsg(c), what), "%s: %s", label,
          ix_errmsg(c));
    int64_t one = 0;
    ix_stmt *q;
    CHECK(ix_prepare(c, "SELECT 1 FROM systables WHERE tabid = 1", (size_t)-1, &q) == IX_OK &&
              ix_step(q) == IX_ROW && ix_column_get_int64(q, 0, &one) == IX_OK && one == 1,
          "%s: the connection stays usable: %s", label, ix_errmsg(c));
    ix_finalize(q);
}

/* Waits for the socket as the last call asked, then reads. */
static int nb_wait(ix_conn *c, int want) {
    struct pollfd pf = {ix_socket(c), (short)(want == IX_WANT_WRITE ? POLLOUT | POLLIN : POLLIN),
                        0};
    if (poll(&pf, 1, 10000) != 1) return IX_ETIMEOUT;
    return ix_consume_input(c);
}

/* Non-blocking: the execute's reply carries the server's requests. */
static int exec_nb(ix_conn *c, const char *sql) {
    ix_set_nonblocking(c, 1);
    ix_stmt *s = NULL;
    int rc = ix_send_prepare(c, sql, (size_t)-1, 0, &s);
    if (rc == IX_OK) rc = ix_send_execute(s);
    if (rc == IX_OK) rc = ix_flush(c);
    int want = rc;
    while (rc >= 0 && (rc = ix_execute_result(s)) == IX_WANT_READ) {
        int w = nb_wait(c, want == IX_WANT_WRITE ? IX_WANT_WRITE : IX_WANT_READ);
        want = IX_WANT_READ;
        if (w < 0) {
            rc = w;
            break;
        }
    }
    ix_finalize(s);
    ix_set_nonblocking(c, 0);
    return rc;
}

static void round_trips(ix_conn *c, const char *dir, uint8_t **data) {
    char path[400], sql[600];
    for (int k = 0; k < NSIZES; k++) {
        snprintf(path, sizeof path, "%s/in%d.bin", dir, k);
        write_file(path, data[k], sizes[k]);
        snprintf(sql, sizeof sql,
                 "INSERT INTO t VALUES (%d, FILETOBLOB('in%d.bin', 'client'), "
                 "FILETOCLOB('%s', 'client'))",
                 k, k, path);
        exec(c, sql);
        snprintf(sql, sizeof sql, "SELECT LOTOFILE(b, 'out%d.bin!', 'client') FROM t WHERE id = %d",
                 k, k);
        ix_stmt *q;
        CHECK(ix_prepare(c, sql, (size_t)-1, &q) == IX_OK && ix_step(q) == IX_ROW,
              "LOTOFILE %zu: %s", sizes[k], ix_errmsg(c));
        const char *name = ix_column_text(q, 0);
        CHECK(name && !strncmp(name, "out", 3), "LOTOFILE names the file (%s)",
              name ? name : "NULL");
        ix_finalize(q);
        snprintf(path, sizeof path, "%s/out%d.bin", dir, k);
        size_t n = 0;
        uint8_t *back = read_file(path, &n);
        CHECK(back && n == sizes[k] && (!n || !memcmp(back, data[k], n)),
              "client file round trip of %zu bytes (%zu back)", sizes[k], n);
        free(back);
        void *v = NULL;
        size_t vn = 0;
        snprintf(sql, sizeof sql, "SELECT c FROM t WHERE id = %d", k);
        CHECK(ix_prepare(c, sql, (size_t)-1, &q) == IX_OK && ix_step(q) == IX_ROW &&
                  ix_column_lob(q, 0, &v, &vn) == IX_OK && vn == sizes[k] &&
                  (!vn || !memcmp(v, data[k], vn)),
              "FILETOCLOB of an absolute client path, %zu bytes: %s", sizes[k], ix_errmsg(c));
        ix_lob_free(v);
        ix_finalize(q);
    }
    /* LOTOFILE's default name: path.hexid */
    ix_stmt *q;
    CHECK(ix_prepare(c, "SELECT LOTOFILE(b, 'named', 'client') FROM t WHERE id = 1", (size_t)-1,
                     &q) == IX_OK &&
              ix_step(q) == IX_ROW && ix_column_text(q, 0) &&
              !strncmp(ix_column_text(q, 0), "named.", 6),
          "LOTOFILE path.hexid: %s", ix_errmsg(c));
    if (ix_column_text(q, 0)) {
        snprintf(path, sizeof path, "%s/%s", dir, ix_column_text(q, 0));
        size_t n = 0;
        uint8_t *back = read_file(path, &n);
        CHECK(back && n == 1 && back[0] == data[1][0], "the hexid file holds the byte");
        free(back);
    }
    ix_finalize(q);
    int rc = exec_nb(c, "INSERT INTO t VALUES (10, FILETOBLOB('in2.bin', 'client'), NULL)");
    CHECK(rc == IX_DONE, "non-blocking FILETOBLOB: %d %s", rc, ix_errmsg(c));
    void *v = NULL;
    size_t vn = 0;
    CHECK(ix_prepare(c, "SELECT b FROM t WHERE id = 10", (size_t)-1, &q) == IX_OK &&
              ix_step(q) == IX_ROW && ix_column_lob(q, 0, &v, &vn) == IX_OK && vn == sizes[2] &&
              !memcmp(v, data[2], vn),
          "the non-blocking 2 MiB value: %s", ix_errmsg(c));
    ix_lob_free(v);
    ix_finalize(q);
}

static void confinement(ix_conn *c, const char *dir, const char *outside) {
    char path[400], sql[600];
    snprintf(path, sizeof path, "%s/secret", outside);
    write_file(path, (const uint8_t *)"s", 1);
    snprintf(sql, sizeof sql, "INSERT INTO t VALUES (20, FILETOBLOB('%s', 'client'), NULL)", path);
    refused(c, sql, "outside the client's allowed directory", "an absolute path outside");
    snprintf(sql, sizeof sql,
             "INSERT INTO t VALUES (20, FILETOBLOB('../%s/secret', 'client'), NULL)",
             strrchr(outside, '/') + 1);
    refused(c, sql, "outside the client's allowed directory", "'..' outside");
    char link[400];
    snprintf(link, sizeof link, "%s/link", dir);
    CHECK(symlink(path, link) == 0, "symlink");
    refused(c, "INSERT INTO t VALUES (20, FILETOBLOB('link', 'client'), NULL)",
            "outside the client's allowed directory", "a symbolic link out");
    snprintf(link, sizeof link, "%s/dirlink", dir);
    CHECK(symlink(outside, link) == 0, "symlink to a directory");
    refused(c, "SELECT LOTOFILE(b, 'dirlink/x!', 'client') FROM t WHERE id = 1",
            "outside the client's allowed directory", "LOTOFILE through a directory link");
    snprintf(path, sizeof path, "%s/x", outside);
    CHECK(access(path, F_OK) != 0, "no file was written outside");
    refused(c, "INSERT INTO t VALUES (20, FILETOBLOB('missing.bin', 'client'), NULL)",
            "does not exist", "a missing file");
}

/* A server that is not ixd (ixd --strict stands for one) sends IBM's
 * SQ_FILE, whose open is not published: libixdb ends the connection with
 * IX_ENOTSUP instead of answering in ixd's layout. */
static void not_ixd(const char *dir) {
    ixd_proc p;
    const char *args[] = {"--strict", NULL};
    CHECK(ixd_start_args(&p, NULL, args) == 0, "ixd --strict starts");
    if (tap_fail) return;
    char dsn[300];
    ixd_dsn(&p, 30, dsn, sizeof dsn);
    ix_conn *c;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect to ixd --strict: %s", ix_errmsg(c));
    exec(c, "CREATE DATABASE cfs WITH LOG");
    exec(c, "CREATE TABLE t (id INTEGER, b BLOB)");
    CHECK(ix_set_client_files(c, dir) == IX_OK, "allow %s", dir);
    int rc = ix_exec(c, "INSERT INTO t VALUES (1, FILETOBLOB('in.bin', 'client'))");
    CHECK(rc == IX_ENOTSUP && strstr(ix_errmsg(c), "SQ_FILE") && ix_conn_is_dead(c),
          "SQ_FILE from a server that is not ixd: %d %s", rc, ix_errmsg(c));
    ix_close(c);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    char dir[] = "/tmp/ixdcf.XXXXXX", outside[] = "/tmp/ixdcfo.XXXXXX";
    CHECK(mkdtemp(dir) && mkdtemp(outside), "directories");
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, NULL) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    char dsn[300];
    ixd_dsn(&p, 30, dsn, sizeof dsn);
    ix_conn *c;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect: %s", ix_errmsg(c));
    exec(c, "CREATE DATABASE cf WITH LOG");
    exec(c, "CREATE TABLE t (id INTEGER, b BLOB, c CLOB)");
    char path[400];
    snprintf(path, sizeof path, "%s/in.bin", dir);
    write_file(path, (const uint8_t *)"abc", 3);
    refused(c, "INSERT INTO t VALUES (99, FILETOBLOB('in.bin', 'client'), NULL)",
            "client files not enabled", "refused by default");
    CHECK(ix_set_client_files(c, "/nonexistent/dir") == IX_EINVAL, "a missing directory");
    CHECK(ix_set_client_files(c, dir) == IX_OK, "allow %s", dir);
    uint8_t *data[NSIZES];
    for (int k = 0; k < NSIZES; k++)
        data[k] = pattern(sizes[k], k);
    round_trips(c, dir, data);
    confinement(c, dir, outside);
    CHECK(ix_set_client_files(c, NULL) == IX_OK, "refuse again");
    refused(c, "INSERT INTO t VALUES (99, FILETOBLOB('in.bin', 'client'), NULL)",
            "client files not enabled", "refused after NULL");
    CHECK(!ix_conn_is_dead(c), "connection still aligned");
    ix_close(c);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
    not_ixd(dir);
    char cmd[100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s' '%s'", dir, outside);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove the directories\n");
    for (int k = 0; k < NSIZES; k++)
        free(data[k]);
    return tap_done();
}
