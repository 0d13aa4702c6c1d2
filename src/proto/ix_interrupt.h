/*
 * ix_interrupt.h: how a client interrupts the statement the server is
 * running for its session (ESQL/C sqlbreak(), JDBC Statement.cancel()).
 *
 * UNRESOLVED: no public source gives the bytes (docs/protocol.md
 * "Interrupts"). What IBM documents is the behaviour: sqlbreak() asks the
 * server to stop the current request, which then ends with SQLCODE -213
 * (cursors, transaction and database left as they were); on an idle
 * connection the request does nothing; and the asynchronous form needs the
 * non-blocking socket I/O that shared-memory connections lack, which fits
 * TCP urgent data on the session's own socket. ixdb and ixd use exactly
 * that, outside the SQLI byte stream, and this header is the one place that
 * says so:
 *
 *   | who             | what                                                |
 *   |-----------------|-----------------------------------------------------|
 *   | client          | 1 byte of TCP urgent data (send MSG_OOB), value     |
 *   |                 | IXP_INTERRUPT_BYTE; no SQLI message, no EOT          |
 *   | server, busy    | stops the running statement; its request group is   |
 *   |                 | answered SQ_ERR -213 (isam 0), SQ_EOT, the rest of   |
 *   |                 | the group being skipped as after any error          |
 *   | server, idle    | reads the byte and drops it (everything sent before |
 *   |                 | it has been answered)                               |
 *
 * Any urgent byte is an interrupt (its value is not checked). A TLS session
 * sends the same byte on the TCP socket beside the TLS records: the
 * receiver's TCP takes it out of the ordered stream that TLS protects.
 * Because a second urgent byte that arrives before the first has been read
 * past turns the first into ordinary stream data, a client sends another
 * only after every group sent before the first has been answered.
 */
#ifndef IXP_INTERRUPT_H
#define IXP_INTERRUPT_H

#define IXP_INTERRUPT_BYTE 0x01

#endif
