/*
 * ix_reply_int.h: the queue of replies a connection still expects, in
 * request order (pipelining). Its fields belong to ix_reply.c; every other
 * file reaches the queue through the ixc_pend_* functions of
 * ix_client_int.h.
 */
#ifndef IXC_REPLY_INT_H
#define IXC_REPLY_INT_H

#include <stddef.h>

#include "ix_client_int.h"

/* A ring of entries: v[(head + i) % cap] for i in 0 .. len; v is owned by
 * the queue (freed by ixc_pend_free). */
typedef struct ixc_pendq {
    ixc_pend *v;
    size_t head, len, cap;
} ixc_pendq;

#endif
