/*
 * ix_reader.h: a push parser over an SQLI byte stream, in the style of
 * hiredis' reader: bytes are pushed in with ixp_reader_feed as they arrive
 * (from a socket, a file, a fuzzer), and whole messages are pulled out with
 * ixp_reader_next. It never touches a socket.
 *
 * The first thing on a connection is an SL-framed login packet; set
 * expect_login (the default) and the reader returns it as one IXP_MSG_LOGIN
 * message, then switches to post-login messages.
 */
#ifndef IXP_READER_H
#define IXP_READER_H

#include "ix_msg.h"

typedef struct ixp_reader {
    ixp_role role;     /* who sends the bytes being read */
    ixp_caps caps;     /* granted capabilities; may be changed between messages */
    ixp_limits lim;    /* limits; zero fields take the defaults */
    int expect_login;  /* next message is an SL-framed login packet */
    size_t max_buffer; /* bytes buffered but not yet decoded (default 64 MiB + 64 KiB) */
    const ixb_alloc *alloc;
    /* private */
    uint8_t *buf;
    size_t start, end, cap;
    uint64_t base; /* stream offset of buf[0] */
    int err;
    uint64_t err_at;
    const char *why;
} ixp_reader;

/* Initialises r for messages sent by `role`, expecting a login packet
 * first. alloc may be NULL (libc). */
void ixp_reader_init(ixp_reader *r, ixp_role role, const ixb_alloc *alloc);

/* Frees the buffer. r may be reused after ixp_reader_init. */
void ixp_reader_free(ixp_reader *r);

/* Appends n bytes. Returns IX_OK, IX_ELIMIT when more than max_buffer bytes
 * would be waiting, IX_ENOMEM, or the reader's sticky error. Invalidates the
 * message returned by the previous ixp_reader_next. */
int ixp_reader_feed(ixp_reader *r, const void *p, size_t n);

/* Room for *want more bytes (lowered to what max_buffer still allows) at the
 * end of the buffer, to be filled in place (e.g. by recv) and then counted
 * with ixp_reader_commit (at most *want): ixp_reader_feed without its copy.
 * NULL with *rc = IX_ELIMIT (the buffer is full), IX_ENOMEM or the sticky
 * error. Invalidates the previous message. */
uint8_t *ixp_reader_space(ixp_reader *r, size_t *want, int *rc);
void ixp_reader_commit(ixp_reader *r, size_t n);
/* A fast path for a client reading rows. ixp_reader_next_tuple: when the
 * next message (sent by a server) is an SQ_TUPLE that is wholly buffered and
 * within the limits, consumes it and returns 1 with its payload in *p, *n
 * (borrowed as with ixp_reader_next); otherwise returns 0 and consumes
 * nothing (ixp_reader_next then decodes the message or reports its error).
 * ixp_reader_tuples_ok: 1 when the reader may take tuples that way (no
 * error, past the login, reading a server). */
static inline int ixp_reader_tuples_ok(const ixp_reader *r) {
    return !r->err && !r->expect_login && r->role == IXP_FROM_SERVER;
}
/* ixp_reader_next_tuple on a reader ixp_reader_tuples_ok accepted (a loop
 * checks that once). */
static inline int ixp_reader_take_tuple(ixp_reader *r, const uint8_t **p, size_t *n) {
    /* §3.7 SQ_TUPLE: i16 tag, i16 warnings, i32 length, payload, pad to even. */
    size_t avail = r->end - r->start;
    if (avail < 8) return 0; /* (buf may be NULL: nothing fed yet) */
    const uint8_t *b = r->buf + r->start;
    if (ixb_be16(b) != IXP_SQ_TUPLE) return 0;
    uint32_t len = ixb_be32(b + 4);
    if (len > r->lim.max_tuple) { /* past the limit, or no limit set: the full check */
        ixp_limits lim = r->lim;
        ixp_limits_default(&lim);
        if (len > INT32_MAX || len > lim.max_tuple) return 0;
    }
    size_t total = 8 + (size_t)len + (len & 1);
    if (avail < total) return 0;
    *p = b + 8;
    *n = len;
    r->start += total;
    return 1;
}
static inline int ixp_reader_next_tuple(ixp_reader *r, const uint8_t **p, size_t *n) {
    return ixp_reader_tuples_ok(r) && ixp_reader_take_tuple(r, p, n);
}
/* A statement's whole reply when it is DONE, any COSTs, and EOT (what each
 * row of a pipelined batch gets), wholly buffered: consumes it, fills *done
 * with the DONE (as ixp_reader_next would) and returns the bytes consumed.
 * Otherwise returns 0 and consumes nothing. */
size_t ixp_reader_done_group(ixp_reader *r, ixp_msg *done);

/* A server's fast path for a pipelined statement run (what each row of a
 * client's batch sends): SQ_ID, SQ_BIND, SQ_EXECUTE, SQ_EOT. */
typedef struct ixp_bind_group {
    int16_t id;      /* SQ_ID's statement id */
    int16_t count;   /* SQ_BIND's value count */
    ixp_bytes raw;   /* its values (borrowed as with ixp_reader_next) */
    size_t id_len;   /* each message's bytes (ixp_msg.len) */
    size_t bind_len;
} ixp_bind_group;
/* When the next messages (sent by a client) are exactly that group, wholly
 * buffered, and ixp_reader_next would decode each of them (the BIND's
 * values all of the common types ixp_bind_values_span takes, count within
 * max_columns): consumes the four and returns 1 with *g filled as the
 * decoded SQ_ID and SQ_BIND would be. Otherwise returns 0 and consumes
 * nothing (ixp_reader_next then decodes the messages or reports the
 * error). */
int ixp_reader_bind_group(ixp_reader *r, ixp_bind_group *g);

/* Decodes the next whole message into *m. Returns IX_OK, IX_NEED_MORE (feed
 * more bytes), or a sticky error (IX_EMALFORMED / IX_ELIMIT) after which the
 * stream cannot continue. The message borrows the reader's buffer and stays
 * valid until the next ixp_reader_feed or ixp_reader_next. */
int ixp_reader_next(ixp_reader *r, ixp_msg *m);

/* Stream offset of the next undecoded byte, or, after an error, of the
 * offending byte. */
uint64_t ixp_reader_offset(const ixp_reader *r);

/* Static reason for the sticky error, or NULL. */
const char *ixp_reader_why(const ixp_reader *r);

/* Bytes fed but not yet decoded. */
size_t ixp_reader_pending(const ixp_reader *r);

#endif
