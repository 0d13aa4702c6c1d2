/*
 * ixs_lob_int.h: what the smart-LOB store (ixs_lob.c) shares with its
 * garbage collection (ixs_lob_gc.c): the session's descriptors, the LOs it
 * made, and the "a reference went" hint.
 */
#ifndef IXS_LOB_INT_H
#define IXS_LOB_INT_H

#include "server/sql/ixs_lob.h"

typedef struct lofd {
    int used;
    int flags;
    int64_t id, pos;
} lofd;

struct ixs_lobsess {
    lofd fd[IXS_LO_MAXFD];
    int gone;      /* a row let go of an LO since the last collection */
    int64_t *made; /* the LOs this session made (deleted at its end while no row holds them) */
    size_t nmade, capmade;
    uint8_t page[IXS_LO_PAGE]; /* the one page a read-modify-write holds */
};

/* Triggers and counts for the tables that have LOB columns already, when
 * the store is made or upgraded (ixs_lob_ensure_tables). 0 or -1. */
int ixs_lob_upgrade(ixs_conn *db, ixv_err *err);

/* The session's state (made at first use), or NULL when out of memory. */
struct ixs_lobsess *ixs_lob_sess(ixs_conn *db);
/* Frees the state (ixs_lob_close, after the collection). */
void ixs_lob_free_sess(ixs_conn *db);

#endif
