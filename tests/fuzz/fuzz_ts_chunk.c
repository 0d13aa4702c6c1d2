/* fuzz_ts_chunk.c: libFuzzer target for the TimeSeries chunk decoder
 * (src/server/ts/ts_codec.c).
 *
 * Input layout:
 *   byte 0          bits 0-1: ncols - 1 (1..4); bits 2-7: a column mask
 *                   for a second, partial decode
 *   bytes 1..ncols  the kinds: 1 + byte % 4 (TS_K_INT .. TS_K_DEC)
 *   rest            the chunk blob
 *
 * Properties (abort() on violation):
 *   - decoding never reads outside the blob (an exact-size heap copy, ASan);
 *   - ixts_chunk_info and ixts_chunk_count agree with the decoder;
 *   - a blob that decodes re-encodes (TS_OK), and the re-encoded blob
 *     decodes to the same values bit for bit (NULLs, ints, doubles, scales);
 *   - a partial decode gives the same values for the columns it decodes.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "server/ts/ts_codec.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

enum { NC_MAX = 4 };

static ts_dec d1, d2, d3;

/* 1 when row k of c is NULL (no bitmap: none is; a blob may carry a bitmap
 * with no NULL in it, which the encoder leaves out). */
static int is_null(const ts_colv *c, uint32_t k) {
    return c->null && c->null[k];
}

static int same_col(const ts_colv *a, const ts_colv *b, uint32_t n) {
    if (a->kind != b->kind) return 0;
    for (uint32_t k = 0; k < n; k++)
        if (is_null(a, k) != is_null(b, k)) return 0;
    if (a->kind == TS_K_INT || a->kind == TS_K_DEC)
        return memcmp(a->i, b->i, n * sizeof *a->i) == 0 &&
               (a->kind != TS_K_DEC || a->scale == b->scale);
    return memcmp(a->d, b->d, n * sizeof *a->d) == 0; /* bit for bit */
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 1) return 0;
    int ncols = 1 + (data[0] & 3), kinds[NC_MAX];
    if (size < (size_t)ncols + 1) return 0;
    for (int c = 0; c < ncols; c++)
        kinds[c] = 1 + data[1 + c] % 4;
    uint64_t mask = data[0] >> 2;
    size_t len = size - 1 - (size_t)ncols;
    uint8_t *blob = malloc(len ? len : 1);
    if (!blob) abort();
    if (len) memcpy(blob, data + 1 + ncols, len);

    int rc = ixts_chunk_decode(&d1, blob, len, ncols, kinds, ~0ull);
    ts_colinfo info[NC_MAX];
    int irc = ixts_chunk_info(blob, len, ncols, info);
    uint32_t cnt = ixts_chunk_count(blob, len);
    if (rc == TS_OK) {
        if (irc != TS_OK || cnt != d1.n || d1.ncols != ncols) abort();
        ixb_wbuf out;
        ixb_wbuf_init(&out, NULL);
        if (ixts_chunk_encode(d1.n, ncols, d1.cols, &out) != TS_OK) abort();
        if (ixts_chunk_decode(&d2, out.data, out.len, ncols, kinds, ~0ull) != TS_OK) abort();
        if (d2.n != d1.n) abort();
        for (int c = 0; c < ncols; c++)
            if (!same_col(&d1.cols[c], &d2.cols[c], d1.n)) abort();
        ixb_wbuf_free(&out);
        if (ixts_chunk_decode(&d3, blob, len, ncols, kinds, mask) != TS_OK) abort();
        for (int c = 0; c < ncols; c++) {
            int want = (mask >> c) & 1;
            int got = d3.cols[c].i != NULL || d3.cols[c].d != NULL;
            if (want != got) abort();
            if (want && !same_col(&d1.cols[c], &d3.cols[c], d1.n)) abort();
        }
    } else if (rc != TS_EBADCHUNK) {
        abort();
    }
    free(blob);
    return 0;
}
