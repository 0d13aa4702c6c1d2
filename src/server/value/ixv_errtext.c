/* ixv_errtext.c: the standard texts of the SQLCODEs and ISAM codes ixd
 * reports, from the shared catalogue (src/proto/ix_errcat.c). */
#include "ixdb.h"
#include "server/value/ixv.h"

const char *ixv_errtext(int code) {
    const char *t = ix_errtext(code);
    if (!t) t = ix_isam_errtext(code);
    return t ? t : "Unknown error.";
}
