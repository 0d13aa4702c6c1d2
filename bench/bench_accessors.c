/*
 * bench_accessors.c: instructions per call of each column accessor of
 * ixdb.h, per column type it takes, with callgrind, so that a slow one
 * shows.
 *
 * A row of every common type is fetched from an ixd once; each (accessor,
 * column) pair is then called REPS times in a function acc_<accessor>. The
 * program runs itself (--child PORT) under
 *   valgrind --tool=callgrind --toggle-collect=acc_* --dump-after=acc_*
 * so that each call of an acc_ function is one profile holding only its
 * calls; per call = (profile - the empty loop's profile) / REPS. A cell is
 * "-" where the accessor refuses the type (it answers an error status).
 *
 * Usage: bench_accessors     (needs valgrind; about 20 s)
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "proxy/cmp_common.h"

#define REPS 2000

static const char *const TYPES[] = {"int",
                                    "smallint",
                                    "int8",
                                    "float",
                                    "smallfloat",
                                    "decimal(10,2)",
                                    "char(10)",
                                    "varchar(64)",
                                    "lvarchar(100)",
                                    "date",
                                    "datetime year to second",
                                    "boolean",
                                    "interval day to second"};
static const char *const VALUES[] = {"123456",
                                     "-1234",
                                     "1234567890123",
                                     "3.25",
                                     "1.5",
                                     "12345.67",
                                     "'abc'",
                                     "'hello world'",
                                     "'a longer lvarchar value'",
                                     "mdy(6, 15, 2024)",
                                     "datetime(2024-06-15 10:20:30) year to second",
                                     "'t'",
                                     "interval(1 02:03:04) day to second"};
#define NTYPES ((int)(sizeof TYPES / sizeof TYPES[0]))

static ix_stmt *S;
static volatile int64_t sink;

/* The accessors, each one call on column c. ok says whether the accessor
 * takes the type (its status, or for the status-less ones their get_
 * twin's); it runs once, outside the measured calls. */
typedef int (*acc_fn)(int c);

static int a_none(int c) {
    return c >= 0;
}
static int a_int(int c) {
    sink += ix_column_int(S, c);
    return 1;
}
static int a_int64(int c) {
    sink += ix_column_int64(S, c);
    return 1;
}
static int a_get_int64(int c) {
    int64_t v;
    int rc = ix_column_get_int64(S, c, &v);
    sink += v;
    return rc == IX_OK;
}
static int a_double(int c) {
    sink += (int64_t)ix_column_double(S, c);
    return 1;
}
static int a_get_double(int c) {
    double d;
    int rc = ix_column_get_double(S, c, &d);
    sink += (int64_t)d;
    return rc == IX_OK;
}
static int a_get_decimal(int c) {
    ix_decimal_t d;
    return ix_column_get_decimal(S, c, &d) == IX_OK;
}
static int a_text(int c) {
    const char *t = ix_column_text(S, c);
    sink += t ? t[0] : 0;
    return t != NULL;
}
static int a_text_len(int c) {
    sink += (int64_t)ix_column_text_len(S, c);
    return 1;
}
static int a_bytes(int c) {
    sink += (int64_t)ix_column_bytes(S, c);
    return 1;
}
static int a_blob(int c) {
    size_t n = 0;
    const void *p = ix_column_blob(S, c, &n);
    sink += (int64_t)n;
    return p != NULL;
}
static int a_raw(int c) {
    sink += ix_column_raw(S, c) != NULL;
    return 1;
}
static int a_is_null(int c) {
    sink += ix_column_is_null(S, c);
    return 1;
}
static int a_date_ymd(int c) {
    int y, m, d;
    int rc = ix_column_date_ymd(S, c, &y, &m, &d);
    sink += y;
    return rc == IX_OK;
}
static int a_datetime(int c) {
    ix_datetime_t dt;
    return ix_column_datetime(S, c, &dt) == IX_OK;
}
static int a_interval(int c) {
    ix_interval_t iv;
    return ix_column_interval(S, c, &iv) == IX_OK;
}
static int a_type(int c) {
    sink += ix_column_type(S, c);
    return 1;
}
static int a_name(int c) {
    sink += ix_column_name(S, c) != NULL;
    return 1;
}

static const struct {
    const char *name;
    acc_fn fn, ok;
} ACC[] = {
    {"(the empty loop)", a_none, a_none},
    {"ix_column_int", a_int, a_get_int64},
    {"ix_column_int64", a_int64, a_get_int64},
    {"ix_column_get_int64", a_get_int64, a_get_int64},
    {"ix_column_double", a_double, a_get_double},
    {"ix_column_get_double", a_get_double, a_get_double},
    {"ix_column_get_decimal", a_get_decimal, a_get_decimal},
    {"ix_column_text", a_text, a_text},
    {"ix_column_text_len", a_text_len, a_text},
    {"ix_column_bytes", a_bytes, a_bytes},
    {"ix_column_blob", a_blob, a_blob},
    {"ix_column_raw", a_raw, a_raw},
    {"ix_column_is_null", a_is_null, a_is_null},
    {"ix_column_date_ymd", a_date_ymd, a_date_ymd},
    {"ix_column_datetime", a_datetime, a_datetime},
    {"ix_column_interval", a_interval, a_interval},
    {"ix_column_type", a_type, a_type},
    {"ix_column_name", a_name, a_name},
};
#define NACC ((int)(sizeof ACC / sizeof ACC[0]))

/* One measured unit: REPS calls of accessor a on column c. Not inlined:
 * callgrind collects from here (--toggle-collect=acc_work) and dumps after
 * it. */
__attribute__((noinline)) void acc_work(acc_fn f, int c);
__attribute__((noinline)) void acc_work(acc_fn f, int c) {
    for (int r = 0; r < REPS; r++)
        f(c);
}

/* The table with a row of every type, fetched onto its row in S. */
static ix_conn *setup(int port) {
    ix_conn *c = cmp_connect(port, "acc");
    char sql[2048] = "select ", *p = sql + strlen(sql);
    for (int t = 0; t < NTYPES; t++)
        p += snprintf(p, sizeof sql - (size_t)(p - sql), "%sc%d", t ? ", " : "", t);
    snprintf(p, sizeof sql - (size_t)(p - sql), " from acc");
    BENCH_CHECK(c, ix_prepare(c, sql, -1, &S));
    if (ix_step(S) != IX_ROW) {
        fprintf(stderr, "no row: %s\n", ix_errmsg(c));
        exit(1);
    }
    return c;
}

/* Under callgrind: every accessor on every column, in the order the parent
 * reads the profiles; the refused pairs are measured too (and marked). */
static int child(int port, const char *marks) {
    ix_conn *c = setup(port);
    FILE *f = fopen(marks, "w");
    if (!f) return 1;
    for (int a = 0; a < NACC; a++)
        for (int t = 0; t < NTYPES; t++) {
            fputc(ACC[a].ok(t) ? '1' : '0', f);
            acc_work(ACC[a].fn, t);
        }
    fclose(f);
    ix_finalize(S);
    ix_close(c);
    return 0;
}

static void load(int port) {
    ix_conn *c = cmp_connect(port, NULL);
    BENCH_CHECK(c, ix_exec(c, "create database acc with log"));
    char ddl[2048] = "create table acc (", ins[2048] = "insert into acc values (";
    for (int t = 0; t < NTYPES; t++) {
        size_t n = strlen(ddl), m = strlen(ins);
        snprintf(ddl + n, sizeof ddl - n, "%sc%d %s", t ? ", " : "", t, TYPES[t]);
        snprintf(ins + m, sizeof ins - m, "%s%s", t ? ", " : "", VALUES[t]);
    }
    strcat(ddl, ")");
    strcat(ins, ")");
    BENCH_CHECK(c, ix_exec(c, ddl));
    BENCH_CHECK(c, ix_exec(c, ins));
    ix_close(c);
}

static void print_table(const ixd_proc *P) {
    char marks[400], line[16];
    snprintf(marks, sizeof marks, "%s/marks", P->dir);
    FILE *m = fopen(marks, "r");
    double base = -1;
    printf("| accessor |");
    for (int t = 0; t < NTYPES; t++)
        printf(" %s |", TYPES[t]);
    printf("\n|---|");
    for (int t = 0; t < NTYPES; t++)
        printf("---:|");
    printf("\n");
    for (int a = 0, k = 1; a < NACC; a++) {
        if (a) printf("| `%s` |", ACC[a].name);
        for (int t = 0; t < NTYPES; t++, k++) {
            char f[400];
            snprintf(f, sizeof f, "%s/acc.cg.%d", P->dir, k);
            double ir = cmp_cg_total(f);
            int ok = m && fgets(line, 2, m) && line[0] == '1';
            if (!a) {
                if (t == 0) base = ir;
                continue;
            }
            if (ir < 0 || base < 0)
                printf(" ? |");
            else
                printf(ok ? " %.0f |" : " - |", (ir - base) / REPS);
        }
        if (a) printf("\n");
    }
    if (m) fclose(m);
}

int main(int argc, char **argv) {
    signal(SIGPIPE, SIG_IGN);
    if (argc == 4 && !strcmp(argv[1], "--child")) return child(atoi(argv[2]), argv[3]);
    printf("## Instructions per accessor call (callgrind)\n\n");
    if (system("valgrind --version >/dev/null 2>&1") != 0) {
        printf("bench_accessors: valgrind not found, nothing measured.\n");
        return 0;
    }
    ixd_proc P;
    if (ixd_start(&P, NULL, NULL) != 0) {
        fprintf(stderr, "cannot start ixd (%s)\n", IXD_BIN);
        return 1;
    }
    load(P.port);
    char self[512], cmd[1600];
    if (bench_self_exe(self, sizeof self)) return 1;
    snprintf(cmd, sizeof cmd,
             "valgrind --tool=callgrind --toggle-collect=acc_work --dump-after=acc_work "
             "--callgrind-out-file=%s/acc.cg '%s' --child %d %s/marks >%s/acc.log 2>&1",
             P.dir, self, P.port, P.dir, P.dir);
    int rc = system(cmd);
    ixd_stop(&P, SIGTERM);
    if (rc != 0) {
        fprintf(stderr, "the accessors under callgrind failed (see %s/acc.log)\n", P.dir);
        return 1;
    }
    printf("Each cell: client instructions per call on a fetched row, less the empty "
           "loop's; \"-\" where the accessor refuses the type (an error status, its cost "
           "still counted in the profile). %d calls per cell, one profile each.\n\n",
           REPS);
    print_table(&P);
    ixd_rmdir(&P);
    return 0;
}
