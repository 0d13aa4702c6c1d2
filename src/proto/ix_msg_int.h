/* ix_msg_int.h: internals shared by the message codec files. */
#ifndef IX_MSG_INT_H
#define IX_MSG_INT_H

#include "ix_msg.h"

/* Reads a CHAR item (u16 length <= max, bytes, pad). Returns 1 on success. */
int ix_rd_char(ix_rbuf *r, uint32_t max, ix_bytes *out);

/* Composite bodies (ix_msg_items.c): each reads the body after the tag into
 * m, validating every item, or sets the cursor's failure status. */
void ix_rd_bind(ix_rbuf *r, const ix_limits *lim, ix_msg *m);
void ix_rd_ret_type(ix_rbuf *r, const ix_limits *lim, ix_msg *m);
void ix_rd_info(ix_rbuf *r, const ix_limits *lim, ix_msg *m);
void ix_rd_describe(ix_rbuf *r, const ix_caps *caps, const ix_limits *lim, ix_msg *m);
void ix_wr_describe_raw(ix_wbuf *out, const ix_caps *caps, const ix_msg *m);

#endif
