/*
 * ix_stmt_cache.c: the statement cache of a connection (ix_set_stmt_cache).
 *
 * With a cache of n statements, ix_finalize of a prepared statement does not
 * release it on the server: its cursor is closed, its bindings cleared, and
 * it is kept (most recently finalized last). ix_prepare / ix_prepare_v2 of
 * the same SQL text (byte for byte) with the same flags then hands the kept
 * statement back without a PREPARE. When the cache is full the statement
 * kept longest is released. Off (n = 0) by default.
 *
 * DDL: after a CREATE, ALTER, DROP or RENAME statement, or a DATABASE /
 * CLOSE DATABASE, succeeds on the connection, every kept statement is
 * released (ixc_cache_schema_changed) and statements prepared before it are
 * released when finalized instead of kept (their schema generation is
 * older), so a text prepared again after the DDL is prepared anew and
 * described with the table as it is now.
 */
#include <stdlib.h>
#include <string.h>

#include "ix_client_int.h"
#include "ix_conn_int.h"

/* Removes entry i from the cache (the statement stays as it is). */
static ix_stmt *cache_remove(ix_conn *c, int i) {
    ix_stmt *s = c->cache[i];
    memmove(c->cache + i, c->cache + i + 1, (size_t)(c->cache_len - i - 1) * sizeof *c->cache);
    c->cache_len--;
    ixc_stmt_set_cached(s, 0);
    return s;
}

/* Releases the statements kept beyond max. */
static void cache_trim(ix_conn *c, int max) {
    while (c->cache_len > max)
        ixc_stmt_release(cache_remove(c, 0));
}

int ix_set_stmt_cache(ix_conn *c, int n) {
    if (!c) return IX_EMISUSE;
    if (n < 0) return ixc_fail(c, IX_EINVAL, "statement cache size must be at least 0");
    if (n > IX_STMT_CACHE_MAX)
        return ixc_fail(c, IX_EINVAL, "statement cache size must be at most %d", IX_STMT_CACHE_MAX);
    cache_trim(c, n);
    if (n == 0) {
        ixc_free(c->cache);
        c->cache = NULL;
    } else {
        ix_stmt **p = ixc_realloc(c->cache, (size_t)n * sizeof *p);
        if (!p) return ixc_fail(c, IX_ENOMEM, "out of memory");
        c->cache = p;
    }
    c->cache_max = n;
    return IX_OK;
}

int ix_stmt_cache_size(const ix_conn *c) {
    return c ? c->cache_max : -1;
}

ix_stmt *ixc_cache_take(ix_conn *c, const char *sql, size_t n, unsigned flags) {
    for (int i = c->cache_len - 1; i >= 0; i--) {
        ix_stmt *s = c->cache[i];
        if (ixc_stmt_is_text(s, sql, n, flags)) {
            cache_remove(c, i);
            ixc_stmt_revive(s);
            return s;
        }
    }
    return NULL;
}

int ixc_cache_put(ix_conn *c, ix_stmt *s) {
    if (c->cache_max == 0 || c->st.dead || !ixc_stmt_keepable(s)) return 0;
    if (ix_reset(s) != IX_OK) return 0;
    ix_clear_bindings(s);
    cache_trim(c, c->cache_max - 1);
    c->cache[c->cache_len++] = s;
    ixc_stmt_set_cached(s, 1);
    return 1;
}

void ixc_cache_schema_changed(ix_conn *c) {
    c->schema_gen++;
    cache_trim(c, 0);
}

void ixc_cache_free(ix_conn *c) {
    cache_trim(c, 0);
    ixc_free(c->cache);
    c->cache = NULL;
    c->cache_max = 0;
}
