/* fuzz_login.c: raw bytes into the CONREQ and CONACC decoders and the
 * printer. Every input that decodes must re-encode to exactly the bytes it
 * consumed; a shorter prefix of it must ask for more bytes. Each input is
 * also tried with its first two bytes replaced by its length, so that the
 * fuzzer reaches the body walk without having to guess the SL total. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/ix_buf.h"
#include "proto/ix_login.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static ixp_conreq q;
static ixp_conacc a;

static void require(int cond) {
    if (!cond) abort();
}

static void check_rc(int rc, size_t n, size_t used, size_t at, const char *why) {
    require(rc == IX_OK || rc == IX_NEED_MORE || rc == IX_EMALFORMED || rc == IX_ELIMIT);
    if (rc == IX_OK) require(used >= IXP_SL_HDR_LEN && used <= n);
    if (rc == IX_EMALFORMED || rc == IX_ELIMIT) require(why != NULL && at <= n);
}

/* A redirect detail: parsed into bounded fields, re-built identically
 * apart from the label. */
static void redirect_check(const uint8_t *p, size_t n) {
    ixp_redirect_target t;
    const char *why = NULL;
    int rc = ixp_redirect_parse(p, n, &t, &why);
    require(rc == IX_OK || ((rc == IX_EMALFORMED || rc == IX_ELIMIT) && why));
    if (rc != IX_OK) return;
    require(t.port >= 1 && t.port <= 65535 && t.server[0] && t.host[0]);
    char buf[IXP_REDIRECT_DETAIL_MAX];
    static ixp_conacc ra;
    require(ixp_redirect_defaults(&ra, NULL, &t, buf, sizeof buf) == IX_OK);
    ixp_redirect_target u;
    require(ixp_redirect_parse(ra.redirect.p, ra.redirect.n, &u, &why) == IX_OK);
    require(strcmp(u.server, t.server) == 0 && strcmp(u.host, t.host) == 0 && u.port == t.port);
}

static void one(const uint8_t *p, size_t n) {
    ixb_wbuf w;
    ixb_wbuf_init(&w, NULL);
    ixp_sl_hdr h;
    int prc = ixp_sl_peek(p, n, &h);

    size_t used = 0, at = 0;
    const char *why = NULL;
    int rc = ixp_conreq_decode(p, n, NULL, &q, &used, &at, &why);
    check_rc(rc, n, used, at, why);
    if (prc == IX_NEED_MORE)
        require(rc == IX_NEED_MORE || (rc == IX_EMALFORMED && at == 2 && h.type != IXP_SL_CONREQ));
    if (rc == IX_OK) {
        require(used == h.total && prc == IX_OK && ixp_sl_looks_like(p, n));
        require(ixp_conreq_encode(&q, &w) == IX_OK);
        require(w.len == used && memcmp(w.data, p, used) == 0);
        require(ixp_conreq_decode(p, used - 1, NULL, &q, NULL, NULL, NULL) == IX_NEED_MORE);
    }

    used = at = 0;
    why = NULL;
    rc = ixp_conacc_decode(p, n, NULL, &a, &used, &at, &why);
    check_rc(rc, n, used, at, why);
    if (prc == IX_NEED_MORE)
        require(rc == IX_NEED_MORE || (rc == IX_EMALFORMED && at == 2 && h.type == IXP_SL_CONREQ));
    if (rc == IX_OK) {
        require(used == h.total && prc == IX_OK);
        if (a.result == IXP_ASC_DBLIST) redirect_check(a.redirect.p, a.redirect.n);
        ixb_wbuf_reset(&w);
        require(ixp_conacc_encode(&a, &w) == IX_OK);
        require(w.len == used && memcmp(w.data, p, used) == 0);
        require(ixb_be16(w.data + a.result_at) == (uint16_t)a.result);
        require(ixp_conacc_decode(p, used - 1, NULL, &a, NULL, NULL, NULL) == IX_NEED_MORE);
    }

    ixb_wbuf_reset(&w);
    ixp_login_print(p, n, &w);
    require(w.err == IX_OK && w.len > 0 && memchr(w.data, '\n', w.len) == NULL);
    ixb_wbuf_free(&w);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    one(data, size);
    redirect_check(data, size);
    if (size >= 2 && size <= 65535 && ixb_be16(data) != size) {
        uint8_t *copy = malloc(size);
        if (!copy) return 0;
        memcpy(copy, data, size);
        ixb_st16(copy, (uint16_t)size);
        one(copy, size);
        free(copy);
    }
    return 0;
}
