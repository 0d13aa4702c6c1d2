/* tap.h: a tiny test harness. CHECK records a failure with file:line and
 * goes on; tap_done() prints "N passed, N failed" and returns the exit code. */
#ifndef IX_TAP_H
#define IX_TAP_H

#include <stdio.h>

static int tap_pass, tap_fail;

#define CHECK(cond, ...)                                                                           \
    do {                                                                                           \
        if (cond) {                                                                                \
            tap_pass++;                                                                            \
        } else {                                                                                   \
            tap_fail++;                                                                            \
            printf("not ok %d - %s:%d: ", tap_pass + tap_fail, __FILE__, __LINE__);                \
            printf(__VA_ARGS__);                                                                   \
            printf("\n");                                                                          \
        }                                                                                          \
    } while (0)

static inline int tap_done(void) {
    printf("%d passed, %d failed\n", tap_pass, tap_fail);
    return tap_fail ? 1 : 0;
}

#endif
