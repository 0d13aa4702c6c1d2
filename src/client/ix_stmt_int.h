/*
 * ix_stmt_int.h: what the statement's files share and nothing else sees:
 * ix_stmt.c (prepare, requests, execution and fetching), ix_bind.c,
 * ix_column.c, ix_scroll.c and ix_batch.c.
 */
#ifndef IXC_STMT_INT_H
#define IXC_STMT_INT_H

#include "ix_client_int.h"

/* ST_SCROLL: a scroll cursor is open (ix_step and the ix_fetch_* calls go
 * through scroll_fetch; the fast path of ix_step is for ST_OPEN only). */
enum { ST_READY = 0, ST_OPEN = 1, ST_DONE = 2, ST_SCROLL = 3 };

/* Bind items (§3.4): the head (type, indicator, slot) and the slots. */
#define ITEM_HEAD            6
#define IXC_BIND_VARCHAR_MAX 32767 /* bytes of a VARCHAR bind (i16 length) */
#define IXC_TUPLE_WIRE       8     /* SQ_TUPLE header bytes around each row (§3.7) */
#define SLOT_BIGINT          0x1300
#define SLOT_INTEGER         0x0a00

int32_t ixc_auto_first(const ix_stmt *s);
int ixc_batch_op_reply(ix_stmt *s, int last);
int ixc_begin_for(ix_stmt *s);
int ixc_blob_form_type(const ix_stmt *s, int i);
int ixc_dead(ix_conn *c);
const ix_stmt *ixc_described(const ix_stmt *s);
void ixc_disown_pending(ix_conn *c, ix_stmt *s);
void ixc_encode_bind(ix_stmt *s);
void ixc_encode_exec(ix_stmt *s);
int ixc_ensure_prepared(ix_stmt *s);
int ixc_exec_plain(ix_stmt *s);
int ixc_exec_send(ix_stmt *s);
int32_t ixc_fetch_size(const ix_stmt *s);
uint64_t ixc_float_bits(double v);
void ixc_free_batches(ix_stmt *s);
uint8_t *ixc_group_begin(ix_stmt *s, size_t body);
void ixc_group_end(ix_stmt *s, uint8_t *o);
size_t ixc_item_size(int indicator, size_t n);
int ixc_load_row(ix_stmt *s, const uint8_t *t);
int ixc_next_row(ix_stmt *s);
int ixc_op_take(ix_stmt *s);
int ixc_op_wait(ix_stmt *s);
int ixc_open_cursor(ix_stmt *s);
int ixc_open_on_server(const ix_stmt *s);
int ixc_open_send(ix_stmt *s);
size_t ixc_param_size(const ixc_param *p);
int ixc_push_op(ix_stmt *s, int op, int64_t groups);
uint8_t *ixc_put_item(uint8_t *o, int type, int indicator, int slot, const void *v, size_t n);
uint8_t *ixc_put_param(uint8_t *o, const ixc_param *p);
int ixc_scroll_next(ix_stmt *s);
int ixc_stmt_check(const ix_stmt *s);
void ixc_unlink_stmt(ix_stmt *s);

#endif
