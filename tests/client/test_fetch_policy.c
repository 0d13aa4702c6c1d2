/* test_fetch_policy.c: the automatic fetch buffer's reaction to measured
 * replies (ixc_fetch_feedback), without a server: growth and read-ahead depth
 * over a long round trip, within the 4 MiB budget; 64 KiB batches one ahead
 * when the round trip is cheap; a static size and the reply that ends the
 * cursor change nothing; an old server's i16 size still adapts the depth. */
#include <stdlib.h>
#include <string.h>

#include "client/ix_client_int.h"
#include "client/ix_conn_int.h" /* white-box: the connection's fields */
#include "client/ix_stmt_int.h" /* white-box: the statement's fields */
#include "ixdb.h"
#include "tap.h"

#define KiB 1024
#define MiB (1024 * 1024)

static ix_conn conn;

static ix_stmt *auto_stmt(void) {
    static ix_stmt s;
    memset(&s, 0, sizeof s);
    s.conn = &conn;
    s.fetch_buffer = IX_FETCH_AUTO;
    s.readahead = IXC_READAHEAD_AUTO;
    s.tuple_size = 64;
    s.auto_size = 256 * KiB;
    s.auto_depth = 1;
    s.rtt_min_us = -1;
    return &s;
}

int main(void) {
    conn.caps.f62 = 1;
    /* 100 ms round trip, 3 ms to transfer 256 KiB: grow to 1 MiB, and as
     * many in flight as a round trip takes, within 4 MiB (3 + the one read). */
    ix_stmt *s = auto_stmt();
    ixc_fetch_feedback(s, 256 * KiB, 100000, 3000, 0);
    CHECK(s->auto_size == 1 * MiB && s->auto_depth == 3, "long round trip: %d bytes, depth %d",
          s->auto_size, s->auto_depth);
    ixc_fetch_feedback(s, 1 * MiB, 100000, 12000, 0);
    CHECK(s->auto_size == IX_FETCH_AUTO_MAX && s->auto_depth == 3, "stays at 1 MiB, depth 3");
    CHECK((int64_t)s->auto_size * (s->auto_depth + 1) <= 4 * MiB, "within the 4 MiB budget");
    /* An older reply of another size changes nothing. */
    ixc_fetch_feedback(s, 256 * KiB, 100, 100000, 0);
    CHECK(s->auto_size == 1 * MiB && s->auto_depth == 3, "an older reply is ignored");

    /* 5 ms round trip, 4 ms for 256 KiB: 1 MiB takes 16 ms, one in flight. */
    s = auto_stmt();
    ixc_fetch_feedback(s, 256 * KiB, 5000, 4000, 0);
    CHECK(s->auto_size == 1 * MiB && s->auto_depth == 1, "5 ms: %d bytes, depth %d", s->auto_size,
          s->auto_depth);

    /* A cheap round trip: 64 KiB batches, one ahead. */
    s = auto_stmt();
    ixc_fetch_feedback(s, 256 * KiB, 50, 3000, 0);
    CHECK(s->auto_size == 64 * KiB && s->auto_depth == 1, "cheap round trip: %d bytes, depth %d",
          s->auto_size, s->auto_depth);

    /* The last reply, and a static size: no change. */
    s = auto_stmt();
    ixc_fetch_feedback(s, 256 * KiB, 100000, 3000, 1);
    CHECK(s->auto_size == 256 * KiB && s->auto_depth == 1, "the last reply changes nothing");
    s = auto_stmt();
    s->fetch_buffer = 4096;
    ixc_fetch_feedback(s, 4096, 100000, 10, 0);
    CHECK(s->fetch_buffer == 4096 && s->auto_size == 256 * KiB && s->auto_depth == 1,
          "a static size is kept");

    /* An old server reads at most 32767: the depth follows the round trip
     * for that size (at most 64 requests: 2 MiB). */
    conn.caps.f62 = 0;
    s = auto_stmt();
    ixc_fetch_feedback(s, 32767, 100000, 400, 0);
    CHECK(s->auto_depth == 64, "old server, 100 ms: depth %d", s->auto_depth);
    s = auto_stmt();
    ixc_fetch_feedback(s, 32767, 2000, 400, 0);
    CHECK(s->auto_depth == 5, "old server, 2 ms: depth %d", s->auto_depth);
    return tap_done();
}
