/* ixs_limit.c: the translator's bounds on recursion. The parser counts its
 * nesting (ixs_px_deeper); every recursive walk of a tree (parse, resolve, emit)
 * also checks that its thread's stack keeps a reserve (ixs_stack_low), so
 * that no statement can exhaust a session thread's stack whatever its
 * shape. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdint.h>

#include "server/sql/ixs_parse.h"

/* The stack a walk must leave free, as a fraction of the thread's: room
 * for SQLite and the C library below the deepest frame of the translator
 * (256 KiB of a session thread's 1 MiB; sanitizer builds, whose frames are
 * several times larger, give their threads more). */
#define STACK_RESERVE_DIV 4

/* The lowest address this thread's stack may reach while translating
 * (0: unknown, no check), found once per thread. */
static _Thread_local uintptr_t stack_floor;
static _Thread_local int stack_known;

static uintptr_t thread_stack_floor(void) {
    if (stack_known) return stack_floor;
    stack_known = 1;
    pthread_attr_t a;
    if (pthread_getattr_np(pthread_self(), &a)) return 0;
    void *addr = NULL;
    size_t size = 0;
    if (!pthread_attr_getstack(&a, &addr, &size) && size)
        stack_floor = (uintptr_t)addr + size / STACK_RESERVE_DIV;
    pthread_attr_destroy(&a);
    return stack_floor;
}

int ixs_stack_low(void) {
    uintptr_t floor = thread_stack_floor();
    return floor && (uintptr_t)__builtin_frame_address(0) < floor;
}

int ixs_px_too_complex(px *p, const char *fmt, ...) {
    if (p->failed) return -1;
    p->failed = 1;
    ixv_seterr(p->err, IXS_E_COMPLEX, 0, ixs_px_err_pos(p), NULL);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(p->err->text, sizeof p->err->text, fmt, ap);
    va_end(ap);
    return -1;
}

int ixs_px_stack_check(px *p, int at) {
    if (!ixs_stack_low()) return 0;
    ixs_px_at(p, at);
    return ixs_px_too_complex(p, "statement nested too deeply for the server's stack");
}

int ixs_px_deeper(px *p) {
    if (++p->depth > IXS_MAX_DEPTH || ixs_stack_low())
        return ixs_px_too_complex(
            p, "statement nested too deeply: at most %d levels of parentheses", IXS_MAX_NEST);
    return 0;
}
