/*
 * bench_lob.c: smart-LOB streaming through libixdb against ixd on loopback,
 * next to the loopback limit.
 *
 *   write  ix_lob_create + ix_lob_write of SIZE bytes in 1 MiB calls +
 *          ix_lob_close (the LO is committed: no transaction)
 *   read   ix_lob_open + ix_lob_read of the whole LO in 1 MiB calls +
 *          ix_lob_close
 *   loop   the same bytes through a plain loopback TCP socket pair (a
 *          writer thread, 1 MiB writes; the reader counts them): the limit
 *          the two above are compared with
 * Each is run ROUNDS times; the median and the interquartile range of the
 * rounds are printed, in MiB/s. Memory stays bounded: one 1 MiB buffer on
 * the client, one 32 KiB page (and one message) on the server; the maximum
 * resident set size of this process is printed at the end.
 *
 * Usage: bench_lob [--size MIB] [--rounds N]   (defaults 100 MiB, 10 rounds)
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "bench_util.h"

#define PIECE (1 << 20)

static uint8_t piece[PIECE];

static double lob_write(ix_conn *c, size_t size, ix_locator *loc) {
    double t0 = bench_now();
    ix_lob *b;
    BENCH_CHECK(c, ix_lob_create(c, IX_T_BLOB, &b));
    for (size_t done = 0; done < size; done += PIECE)
        BENCH_CHECK(c, ix_lob_write(b, piece, size - done < PIECE ? size - done : PIECE));
    ix_lob_locator(b, loc);
    BENCH_CHECK(c, ix_lob_close(b));
    return bench_now() - t0;
}

static double lob_read(ix_conn *c, size_t size, const ix_locator *loc) {
    static uint8_t buf[PIECE];
    double t0 = bench_now();
    ix_lob *b;
    BENCH_CHECK(c, ix_lob_open(c, loc, IX_LO_RDONLY, &b));
    size_t total = 0, got = 0;
    do {
        BENCH_CHECK(c, ix_lob_read(b, buf, PIECE, &got));
        total += got;
    } while (got == PIECE);
    BENCH_CHECK(c, ix_lob_close(b));
    if (total != size) {
        fprintf(stderr, "read %zu bytes of %zu\n", total, size);
        exit(1);
    }
    return bench_now() - t0;
}

/* ---- the loopback limit ------------------------------------------------------------------ */

typedef struct pump {
    int fd;
    size_t size;
} pump;

static void *pump_main(void *ud) {
    pump *p = ud;
    for (size_t done = 0; done < p->size;) {
        size_t k = p->size - done < PIECE ? p->size - done : PIECE;
        ssize_t w = write(p->fd, piece, k);
        if (w <= 0) break;
        done += (size_t)w;
    }
    close(p->fd);
    return NULL;
}

static double loopback(size_t size) {
    int ls = socket(AF_INET, SOCK_STREAM, 0), cs = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t al = sizeof a;
    if (bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 1) ||
        getsockname(ls, (struct sockaddr *)&a, &al) || connect(cs, (struct sockaddr *)&a, al)) {
        perror("loopback");
        exit(1);
    }
    int ss = accept(ls, NULL, NULL);
    close(ls);
    static uint8_t buf[PIECE];
    double t0 = bench_now();
    pump p = {ss, size};
    pthread_t th;
    pthread_create(&th, NULL, pump_main, &p);
    size_t total = 0;
    ssize_t r;
    while ((r = read(cs, buf, sizeof buf)) > 0)
        total += (size_t)r;
    pthread_join(th, NULL);
    close(cs);
    if (total != size) exit(1);
    return bench_now() - t0;
}

static void report(const char *what, const double *t, int n, size_t size) {
    double mib = (double)size / (1 << 20), *rate = malloc((size_t)n * sizeof *rate);
    for (int i = 0; i < n; i++)
        rate[i] = mib / t[i];
    bench_stat st = bench_stats(rate, n);
    printf("%-28s median %8.1f MiB/s  IQR %8.1f .. %8.1f\n", what, st.median, st.q1, st.q3);
    free(rate);
}

int main(int argc, char **argv) {
    size_t mib = 100;
    int rounds = 10;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (!strcmp(argv[i], "--size")) mib = (size_t)atoi(argv[i + 1]);
        if (!strcmp(argv[i], "--rounds")) rounds = atoi(argv[i + 1]);
    }
    if (mib < 1 || rounds < 1) return 2;
    size_t size = mib << 20;
    for (size_t i = 0; i < PIECE; i++)
        piece[i] = (uint8_t)(i * 7 + (i >> 11));
    ixd_proc p;
    if (ixd_start(&p, NULL, NULL)) {
        fprintf(stderr, "cannot start ixd\n");
        return 1;
    }
    char dsn[300];
    ixd_dsn(&p, 600, dsn, sizeof dsn);
    ix_conn *c;
    BENCH_CHECK(c, ix_connect(&c, dsn));
    BENCH_CHECK(c, ix_exec(c, "CREATE DATABASE lobbench"));
    double *tw = calloc((size_t)rounds, sizeof *tw), *tr = calloc((size_t)rounds, sizeof *tr),
           *tl = calloc((size_t)rounds, sizeof *tl);
    for (int k = 0; k < rounds; k++) {
        ix_locator loc;
        tw[k] = lob_write(c, size, &loc);
        tr[k] = lob_read(c, size, &loc);
        tl[k] = loopback(size);
    }
    printf("%zu MiB, %d rounds\n", mib, rounds);
    report("ix_lob_write", tw, rounds, size);
    report("ix_lob_read", tr, rounds, size);
    report("loopback socket copy", tl, rounds, size);
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    printf("client max RSS %ld KiB\n", ru.ru_maxrss);
    ix_close(c);
    ixd_stop(&p, SIGTERM);
    ixd_rmdir(&p);
    free(tw);
    free(tr);
    free(tl);
    return 0;
}
