/* ix_msg_int.h: internals shared by the message codec files. */
#ifndef IXP_MSG_INT_H
#define IXP_MSG_INT_H

#include "ix_msg.h"

/* Reads a CHAR item (u16 length <= max, bytes, pad). Returns 1 on success. */
int ixp_rd_char(ixb_rbuf *r, uint32_t max, ixp_bytes *out);

/* Composite bodies (ix_msg_items.c): each reads the body after the tag into
 * m, validating every item, or sets the cursor's failure status. */
void ixp_rd_bind(ixb_rbuf *r, const ixp_limits *lim, ixp_msg *m);
void ixp_rd_ret_type(ixb_rbuf *r, const ixp_limits *lim, ixp_msg *m);
void ixp_rd_info(ixb_rbuf *r, const ixp_limits *lim, ixp_msg *m);
void ixp_rd_describe(ixb_rbuf *r, const ixp_caps *caps, const ixp_limits *lim, ixp_msg *m);
void ixp_wr_describe_raw(ixb_wbuf *out, const ixp_caps *caps, const ixp_msg *m);

#endif
