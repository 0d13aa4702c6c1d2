/*
 * ix_caps.h: SQLI capability bits (SQ_PROTOCOLS, sqli-protocol.md §2.5).
 *
 * Feature f is bit (0x80 >> (f % 8)) of byte f / 8 of the offer. The codec
 * takes the *granted* set as a parameter (never a global): it changes field
 * widths in SQ_DESCRIBE, SQ_DONE, SQ_ERR, SQLTEXT, SQ_INSERTDONE and the
 * BYTE/TEXT descriptor.
 */
#ifndef IXP_CAPS_H
#define IXP_CAPS_H

#include <stddef.h>
#include <stdint.h>

typedef struct ixp_caps {
    uint8_t f44; /* PAM conversation after SQ_PROTOCOLS */
    uint8_t f54; /* SQ_INSERTDONE carries an 8-byte BIGSERIAL */
    uint8_t f62; /* SQLTEXT length and SQ_ERR offset are i32 */
    uint8_t f63; /* extended SQ_DESCRIBE layout (unresolved: f63 or f62, §8 #1) */
    uint8_t f69; /* SQ_DESCRIBE tuple size is i32 */
    uint8_t f70; /* SQ_DONE rows/rowid are i64; BYTE/TEXT descriptor is 68 bytes */
} ixp_caps;

#define IXP_CAPS_ANSWER_LEN 10

/* Returns 1 if feature f is set in bits[0..n), else 0. */
int ixp_caps_bit(const uint8_t *bits, size_t n, int f);

/* Reads the features this codec knows from an offer or answer. */
ixp_caps ixp_caps_from_bits(const uint8_t *bits, size_t n);

/* Server side: builds the 10-byte SQ_PROTOCOLS answer to an offer (§2.5):
 * bytes 0-4 copied from the offer (zero where the offer is shorter), bytes
 * 5-8 only the offered bits that are also in `impl`, byte 9 zero. Unknown
 * bits are cleared. Returns the granted set. */
ixp_caps ixp_caps_answer(const uint8_t *offer, size_t n, ixp_caps impl,
                         uint8_t out[IXP_CAPS_ANSWER_LEN]);

/* The features ixd grants when offered (f54, f62, f63): the set §2.5
 * suggests, without f69 (libsqli always reads an i16 tuple size) and f70. */
extern const ixp_caps ixp_caps_ixd;

/* The offer IBM JDBC 15 and libsqli send (9 bytes). */
extern const uint8_t ixp_caps_jdbc_offer[9];

/* Parses "f62,f63,f69" (also "62,63", "all", "none", "") into *out.
 * Returns 0, or -1 for an unknown name. */
int ixp_caps_parse_list(const char *s, ixp_caps *out);

#endif
