/*
 * A 100 MiB BLOB through libixdb's stream API against a real ixd: written
 * in 256 KiB pieces made on the fly, committed, read back in pieces and
 * compared, with the memory of both sides bounded: the client's peak RSS
 * grows by less than 24 MiB and ixd's peak RSS (VmHWM) stays under 96 MiB,
 * so neither side ever holds the value whole. (The RSS checks are skipped
 * in sanitizer builds, whose allocator keeps freed memory in quarantine.)
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

#if defined(__SANITIZE_ADDRESS__)
#define IX_SANITIZED 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define IX_SANITIZED 1
#endif
#endif
#ifndef IX_SANITIZED
#define IX_SANITIZED 0
#endif

#define TOTAL ((int64_t)100 << 20)
#define PIECE ((size_t)256 << 10)

/* The byte at offset o of the value: a pattern no piece size lines up with. */
static void fill(uint8_t *p, int64_t o, size_t n) {
    for (size_t j = 0; j < n; j++) {
        uint64_t x = (uint64_t)(o + (int64_t)j);
        p[j] = (uint8_t)(x * 131 + (x >> 11) + (x >> 23));
    }
}

static long max_rss_kib(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss;
}

/* ixd's peak resident size (VmHWM of /proc/PID/status), in KiB; -1 unknown. */
static long server_hwm_kib(pid_t pid) {
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    long kib = -1;
    while (f && fgets(line, sizeof line, f))
        if (strncmp(line, "VmHWM:", 6) == 0) kib = strtol(line + 6, NULL, 10);
    if (f) fclose(f);
    return kib;
}

static int write_value(ix_conn *c, uint8_t *buf) {
    ix_lob *lob = NULL;
    CHECK(ix_begin(c) == IX_OK, "begin: %s", ix_errmsg(c));
    CHECK(ix_lob_create(c, IX_T_BLOB, &lob) == IX_OK, "create: %s", ix_errmsg(c));
    if (!lob) return -1;
    int rc = IX_OK;
    for (int64_t o = 0; rc == IX_OK && o < TOTAL; o += (int64_t)PIECE) {
        fill(buf, o, PIECE);
        rc = ix_lob_write(lob, buf, PIECE);
    }
    CHECK(rc == IX_OK, "100 MiB written: %s", ix_errmsg(c));
    int64_t size = -1;
    CHECK(ix_lob_size(lob, &size) == IX_OK && size == TOTAL, "size %lld", (long long)size);
    ix_locator loc;
    CHECK(ix_lob_locator(lob, &loc) == IX_OK, "locator");
    CHECK(ix_lob_close(lob) == IX_OK, "close: %s", ix_errmsg(c));
    ix_stmt *ins = NULL;
    CHECK(ix_prepare(c, "INSERT INTO t VALUES (1, ?)", IX_NTS, &ins) == IX_OK, "prepare: %s",
          ix_errmsg(c));
    CHECK(ix_bind_locator(ins, 1, IX_T_BLOB, &loc) == IX_OK, "bind the handle");
    CHECK(ix_step(ins) == IX_DONE, "insert: %s", ix_errmsg(c));
    ix_finalize(ins);
    CHECK(ix_commit(c) == IX_OK, "commit: %s", ix_errmsg(c));
    return rc == IX_OK ? 0 : -1;
}

static void read_value(ix_conn *c, uint8_t *buf, uint8_t *want) {
    ix_stmt *q = NULL;
    ix_lob *lob = NULL;
    CHECK(ix_begin(c) == IX_OK, "begin: %s", ix_errmsg(c));
    CHECK(ix_prepare(c, "SELECT b, length(b) FROM t WHERE id = 1", IX_NTS, &q) == IX_OK,
          "select: %s", ix_errmsg(c));
    CHECK(ix_step(q) == IX_ROW, "the row: %s", ix_errmsg(c));
    CHECK(ix_column_int64(q, 1) == TOTAL, "length(b) %lld", (long long)ix_column_int64(q, 1));
    CHECK(ix_lob_open_column(q, 0, IX_LO_RDONLY, &lob) == IX_OK, "open: %s", ix_errmsg(c));
    int64_t o = 0, bad = -1;
    size_t got = 1;
    while (lob && got > 0 && bad < 0) {
        if (ix_lob_read(lob, buf, PIECE, &got) != IX_OK) break;
        fill(want, o, got);
        if (memcmp(buf, want, got) != 0) bad = o;
        o += (int64_t)got;
    }
    CHECK(o == TOTAL && bad < 0, "read back %lld bytes, first difference in the piece at %lld",
          (long long)o, (long long)bad);
    if (lob) ix_lob_close(lob);
    ix_finalize(q);
    CHECK(ix_commit(c) == IX_OK, "commit: %s", ix_errmsg(c));
}

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, NULL) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    char dsn[300];
    ixd_dsn(&p, 60, dsn, sizeof dsn);
    ix_conn *c = NULL;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "CREATE DATABASE big WITH LOG") == IX_OK, "database: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "CREATE TABLE t (id INTEGER, b BLOB)") == IX_OK, "table: %s", ix_errmsg(c));
    uint8_t *buf = malloc(PIECE), *want = malloc(PIECE);
    long before = max_rss_kib();
    if (buf && want && write_value(c, buf) == 0) read_value(c, buf, want);
    long grew = max_rss_kib() - before, server = server_hwm_kib(p.pid);
    if (IX_SANITIZED) {
        printf("# RSS not checked in a sanitizer build (client +%ld KiB, ixd %ld KiB)\n", grew,
               server);
    } else {
        CHECK(grew < 24 * 1024, "client peak RSS grew by %ld KiB for 100 MiB", grew);
        CHECK(server > 0 && server < 96 * 1024, "ixd peak RSS %ld KiB", server);
    }
    free(buf);
    free(want);
    ix_close(c);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
    return tap_done();
}
