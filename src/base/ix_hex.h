/* ix_hex.h: hexadecimal text <-> bytes, for tools, traces and tests. */
#ifndef IXB_HEX_H
#define IXB_HEX_H

#include "ix_buf.h"

/* Appends the bytes spelled by hex text s[0..n) to out. Whitespace, ':' and
 * '_' between digit pairs are ignored; a leading "0x" is skipped. Returns
 * IX_OK, IX_EINVAL for a non-hex character or an odd digit count (with
 * *bad_at set to its offset when bad_at is not NULL), or out's sticky error. */
int ixb_hex_decode(const char *s, size_t n, ixb_wbuf *out, size_t *bad_at);

/* Appends 2*n lower-case hex digits for p[0..n) to out. */
void ixb_hex_encode(const uint8_t *p, size_t n, ixb_wbuf *out);

#endif
