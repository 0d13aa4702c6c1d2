/*
 * BYTE and TEXT through libixdb: values bound with ix_bind_blob (VARCHAR form
 * up to 32767 bytes, BYTE form beyond), fetched with ix_column_blob (one
 * SQ_FETCHBLOB round trip each, also with read-ahead on), TEXT through
 * ix_column_text, and NULLs.
 */
#include <stdlib.h>
#include <string.h>

#include "ixd_proc.h"
#include "ixdb.h"
#include "tap.h"

int main(void) {
    signal(SIGPIPE, SIG_IGN);
    ixd_proc p;
    CHECK(ixd_start(&p, NULL, NULL) == 0, "ixd starts");
    if (tap_fail) return tap_done();
    char dsn[200];
    snprintf(dsn, sizeof dsn, "informix://informix:in4mix@127.0.0.1:%d/sysmaster", p.port);
    ix_conn *c;
    CHECK(ix_connect(&c, dsn) == IX_OK, "connect: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "CREATE DATABASE blobs WITH LOG") == IX_OK, "create db: %s", ix_errmsg(c));
    CHECK(ix_exec(c, "CREATE TABLE b (id INTEGER, bb BYTE, tt TEXT)") == IX_OK, "create: %s",
          ix_errmsg(c));
    size_t sizes[] = {0, 1, 300, 32767, 32768, 200000};
    int n = (int)(sizeof sizes / sizeof sizes[0]);
    uint8_t *data[6];
    ix_stmt *ins;
    CHECK(ix_prepare(c, "INSERT INTO b VALUES (?, ?, ?)", -1, &ins) == IX_OK, "prepare: %s",
          ix_errmsg(c));
    for (int k = 0; k < n; k++) {
        data[k] = malloc(sizes[k] + 1);
        for (size_t j = 0; j < sizes[k]; j++)
            data[k][j] = (uint8_t)(j * 31 + k);
        char text[64];
        snprintf(text, sizeof text, "text number %d", k);
        ix_bind_int(ins, 1, k);
        CHECK(ix_bind_blob(ins, 2, data[k], (int)sizes[k], IX_STATIC) == IX_OK, "bind %zu: %s",
              sizes[k], ix_errmsg(c));
        ix_bind_text(ins, 3, text, -1, IX_TRANSIENT);
        int rc = ix_step(ins);
        CHECK(rc == IX_DONE, "insert %zu bytes: %s", sizes[k], ix_errmsg(c));
        ix_reset(ins);
    }
    ix_bind_int(ins, 1, 99);
    ix_bind_null(ins, 2);
    ix_bind_null(ins, 3);
    CHECK(ix_step(ins) == IX_DONE, "insert NULLs: %s", ix_errmsg(c));
    ix_finalize(ins);
    for (int ra = 0; ra <= 2; ra += 2) {
        ix_stmt *q;
        CHECK(ix_prepare(c, "SELECT id, bb, tt FROM b ORDER BY id", -1, &q) == IX_OK, "select");
        ix_stmt_set_readahead(q, ra);
        ix_stmt_set_fetch_buffer(q, 200); /* several batches */
        int rows = 0;
        while (ix_step(q) == IX_ROW) {
            int id = ix_column_int(q, 0);
            CHECK(ix_column_type(q, 1) == 11 && ix_column_type(q, 2) == 12, "types BYTE, TEXT");
            if (id == 99) {
                CHECK(ix_column_is_null(q, 1) && ix_column_is_null(q, 2), "NULL BYTE/TEXT");
                CHECK(ix_column_blob(q, 1, NULL) == NULL, "NULL blob gives NULL");
            } else {
                size_t len = 0;
                const uint8_t *v = ix_column_blob(q, 1, &len);
                CHECK(v && len == sizes[id] && memcmp(v, data[id], len) == 0,
                      "BYTE of %zu bytes round trip (got %zu, readahead %d): %s", sizes[id], len,
                      ra, ix_errmsg(c));
                char want[64];
                snprintf(want, sizeof want, "text number %d", id);
                const char *t = ix_column_text(q, 2);
                CHECK(t && strcmp(t, want) == 0, "TEXT via ix_column_text (%s)", t ? t : "NULL");
            }
            rows++;
        }
        CHECK(rows == n + 1, "all rows (%d)", rows);
        ix_finalize(q);
    }
    CHECK(!ix_conn_is_dead(c), "connection still aligned");
    ix_close(c);
    for (int k = 0; k < n; k++)
        free(data[k]);
    ixd_stop(&p, SIGTERM);
    if (!tap_fail) ixd_rmdir(&p);
    return tap_done();
}
