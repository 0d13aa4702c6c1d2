/* ix_alloc.c: the client's allocator, replaceable with ix_set_allocator.
 *
 * Every allocation libixdb makes (its own and the codec's buffers, which get
 * ixc_mem()) goes through these functions, so a program can route them to its
 * own heap or make them fail on purpose. OpenSSL's allocations are its own. */
#include <stdint.h>
#include <string.h>

#include "ix_client_int.h"

static ix_allocator g_alloc;
static int g_custom;

int ix_set_allocator(const ix_allocator *a) {
    if (!a) {
        memset(&g_alloc, 0, sizeof g_alloc);
        g_custom = 0;
        return IX_OK;
    }
    if (!a->malloc || !a->realloc || !a->free) return IX_EMISUSE;
    g_alloc = *a;
    g_custom = 1;
    return IX_OK;
}

const ixb_alloc *ixc_mem(void) {
    return g_custom ? &g_alloc : NULL;
}

void *ixc_malloc(size_t n) {
    return ixb_malloc(ixc_mem(), n ? n : 1);
}

void *ixc_calloc(size_t n, size_t size) {
    if (size && n > SIZE_MAX / size) return NULL;
    size_t total = n * size;
    void *p = ixc_malloc(total);
    if (p && total > 0) memset(p, 0, total);
    return p;
}

void *ixc_realloc(void *p, size_t n) {
    if (!p) return ixc_malloc(n);
    return ixb_realloc(ixc_mem(), p, n ? n : 1);
}

void ixc_free(void *p) {
    ixb_free(ixc_mem(), p);
}

char *ixc_strndup(const char *s, size_t n) {
    char *d = ixc_malloc(n + 1);
    if (!d) return NULL;
    memcpy(d, s, n);
    d[n] = '\0';
    return d;
}

char *ixc_strdup(const char *s) {
    return ixc_strndup(s, strlen(s));
}
