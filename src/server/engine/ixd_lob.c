/*
 * ixd_lob.c: SQ_LODATA from a client (§3.15; docs/protocol.md "Smart large
 * objects"): a read (op 0), a read after a seek (op 1) or a write (op 2) on
 * a descriptor that ifx_lo_open or ifx_lo_create gave. A read answers with
 * the bytes, at most IXS_LO_MAXIO a message (a client asks again for the
 * rest); a write with the number of bytes written.
 */
#include <stdlib.h>
#include <string.h>

#include "proto/ix_lob.h"
#include "ixd_int.h"
#include "server/sql/ixs_lob.h"

static int lo_read(ixd_db *db, const ixp_lodata *d, ixb_wbuf *reply, ixv_err *err) {
    size_t want = (size_t)d->length < IXS_LO_MAXIO ? (size_t)d->length : IXS_LO_MAXIO;
    uint8_t *buf = malloc(want ? want : 1);
    if (!buf) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    int64_t got = ixs_lob_read(&db->x, d->fd, buf, want, err);
    if (got >= 0) ixp_enc_lo_reply(reply, d->op, buf, (size_t)got);
    free(buf);
    return got < 0 ? -1 : 0;
}

/* The bytes of a write arrive in chunks of at most 32000 bytes (32766 taken), which would
 * leave every page half written and read back; they are gathered into runs
 * of STAGE bytes (whole pages) and written run by run. */
#define STAGE (8 * IXS_LO_PAGE)

static int lo_write(ixd_db *db, const ixp_lodata *d, ixb_wbuf *reply, ixv_err *err) {
    uint8_t *stage = malloc(STAGE);
    if (!stage) return ixv_seterr(err, IXV_E_NOMEM, 0, 0, NULL);
    size_t pos = 0, have = 0;
    ixp_bytes c;
    int64_t n = 0;
    /* one savepoint for the message: one commit outside a transaction */
    int sp = sqlite3_exec(db->x.h, "SAVEPOINT ixd_lo_msg", NULL, NULL, NULL) == SQLITE_OK;
    int rc = 0;
    while (!rc && ixp_lodata_chunk(d, &pos, &c)) {
        while (!rc && c.n) {
            size_t k = c.n < STAGE - have ? c.n : STAGE - have;
            memcpy(stage + have, c.p, k);
            have += k, c.p += k, c.n -= k, n += (int64_t)k;
            if (have == STAGE) rc = ixs_lob_write(&db->x, d->fd, stage, have, err), have = 0;
        }
    }
    if (!rc && (have || !n)) rc = ixs_lob_write(&db->x, d->fd, stage, have, err);
    free(stage);
    if (sp)
        sqlite3_exec(db->x.h,
                     rc ? "ROLLBACK TO ixd_lo_msg; RELEASE ixd_lo_msg" : "RELEASE ixd_lo_msg", NULL,
                     NULL, NULL);
    if (rc) return -1;
    ixp_enc_lo_reply(reply, IXP_LO_OP_WRITE, NULL, (size_t)n);
    return 0;
}

int ixd_lob_message(ixd_db *db, const ixp_lodata *d, ixb_wbuf *reply, ixv_err *err) {
    if (!db)
        return ixv_seterr(err, IXV_E_NO_DB_SELECTED, 0, 0, NULL); /* database not selected yet */
    switch (d->op) {
    case IXP_LO_OP_READ: return lo_read(db, d, reply, err);
    case IXP_LO_OP_READSEEK:
        if (ixs_lob_seek(&db->x, d->fd, d->offset, d->whence, err) < 0) return -1;
        return lo_read(db, d, reply, err);
    case IXP_LO_OP_WRITE: return lo_write(db, d, reply, err);
    default: return ixv_seterr(err, IXS_E_LO, 0, 0, "unknown SQ_LODATA operation %d", d->op);
    }
}
