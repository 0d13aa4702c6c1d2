/* fuzz_sql.c: libFuzzer target for the ixd SQL engine. Arbitrary text goes
 * to ixd_prepare; when it prepares, NULL or '1' parameters are bound and the
 * statement is executed (or opened and fetched) inside a transaction that is
 * rolled back, on a database with a table of every type set up once.
 *
 * Inputs that start with '"' or ' ' run with DELIMIDENT on.
 *
 * Properties: no crash, no leak, no hang (ASan/UBSan, libFuzzer timeouts);
 * every failure is an ixv_err with a negative SQLCODE. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fuzz_engine.h"
#include "types/ix_types.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int setup(void) {
    if (fuzz_engine_open("fuzz_sql")) return -1;
    exec1("create table t (id serial primary key, c char(10), v varchar(20), l lvarchar, "
          "s smallint, i integer, b bigint, i8 int8, f float, sf smallfloat, d decimal(10,2), "
          "df decimal, m money, dt date, ts datetime year to fraction(3), "
          "hm datetime hour to minute, iv interval day to second, ym interval year to month, "
          "bo boolean, tx text, by byte, ck int check (ck >= 0))");
    exec1("create table u (id int references t, name char(5) unique, amt decimal(5,1))");
    exec1("create index u_amt on u (amt desc)");
    exec1("insert into t (c, v, s, i, d, dt, ts, iv, ym, bo) values ('a', 'x', 1, 2, 3.5, "
          "'01/02/2024', current, '1 02:03:04', '1-02', 't')");
    exec1("insert into t (c, v, s, i, d, dt) values ('b', 'y', -1, -2, -3.5, today)");
    exec1("insert into u values (1, 'n1', 1.5)");
    /* a TimeSeries with a sealed chunk and a head */
    exec1("create row type r_t (ts datetime year to fraction(5), a float, b integer, "
          "c decimal(8,2))");
    exec1("create table ts (id int primary key, s timeseries(r_t))");
    exec1("execute procedure oni_ts_create('ts','s',1,'2026-01-01','1 minute')");
    exec1("execute procedure oni_ts_create('ts','s',2,'2026-01-01',NULL)");
    {
        static char w[40000];
        size_t o =
            (size_t)snprintf(w, sizeof w, "execute procedure oni_ts_write_many('ts','s',1,'");
        for (int k = 0; k < 300; k++)
            o += (size_t)snprintf(w + o, sizeof w - o, "2026-01-01 %02d:%02d|%d.25|%d|%d.5\n",
                                  k / 60, k % 60, k % 7, k, k % 3);
        snprintf(w + o, sizeof w - o, "2026-01-02 00:00|1|1|1')");
        exec1(w);
    }
    ixd_set_timeout(db, 1000);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (!eng && setup()) abort();
    if (size > 8192) return 0;
    ixv_err e;
    memset(&e, 0, sizeof e);
    /* an input that starts with a double quote or a blank is read with
     * DELIMIDENT on (a "quoted" token a delimited identifier), any other
     * without it (a string) */
    ixd_set_env(db, "DELIMIDENT", size && (data[0] == '"' || data[0] == ' ') ? "y" : "n");
    int own_txn = ixd_begin(db, &e) == 0;
    ixd_stmt *s;
    if (ixd_prepare(db, (const char *)data, size, &s, &e) == 0) {
        int np = ixd_stmt_nparams(s);
        for (int i = 0; i < np; i++) {
            ixt_vtype t = {IX_T_VARCHAR, 10};
            static const uint8_t one[2] = {1, '1'};
            ixd_bind(s, i, t, (i & 1) ? NULL : one, 2, &e);
        }
        int nc = ixd_stmt_ncols(s);
        for (int i = 0; i < nc; i++) {
            ixd_col c;
            ixd_stmt_col(s, i, &c);
            if (!c.name) abort();
        }
        if (ixd_stmt_is_cursor(s)) {
            ixb_wbuf b;
            ixb_wbuf_init(&b, NULL);
            if (ixd_open(s, size & 1, &e) == 0) {
                for (int n = 0; n < 100; n++) {
                    int r = ixd_fetch(s, &b, &e);
                    if (r < 0 && e.sqlcode >= 0) abort();
                    if (r != 1) break;
                }
                ixd_close(s);
            } else if (e.sqlcode >= 0) {
                abort();
            }
            ixb_wbuf_free(&b);
        } else {
            int64_t rows;
            int32_t ser;
            int64_t ser8;
            if (ixd_execute(s, &rows, &ser, &ser8, &e) && e.sqlcode >= 0) abort();
        }
        ixd_stmt_free(s);
    } else if (e.sqlcode >= 0) {
        abort();
    }
    (void)own_txn;
    if (ixd_in_transaction(db)) ixd_rollback(db, &e);
    return 0;
}
