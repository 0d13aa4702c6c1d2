/*
 * ixd_session_int.h: a session's state, shared by ixd_session.c (messages,
 * login, strict mode, dispatch) and ixd_sess_exec.c (statements at work),
 * and nothing else.
 */
#ifndef IXD_SESSION_INT_H
#define IXD_SESSION_INT_H

#include "ixd_server.h"
#include "proto/ix_msg.h"
#include "proto/ix_print.h"
#include "proto/ix_reader.h"

#define MAX_STMTS 4096 /* statement ids per session */
/* The SQ_DONE warning bit of DBOPEN / DATABASE for a MODE ANSI database
 * (ixd_db_open, §2.8). */
#define DBFLAG_ANSI 0x02
/* Strict mode: the login groups after the accept that must each wait for
 * the previous one's answer (SQ_PROTOCOLS, SQ_INFO, SQ_DBOPEN; §2.10). */
#define STRICT_LOGIN_GROUPS 3

/* BYTE/TEXT values whose bytes follow the BIND (proto/ix_blob.h): SQ_BBIND
 * announces them, SQ_BLOB chunks carry them in parameter order. */
struct blobin {
    int waiting;    /* descriptors of the last BIND whose bytes have not all come */
    int announced;  /* SQ_BBIND's count not yet ended; -1 before SQ_BBIND */
    int at;         /* the bind value being filled, -1 between values */
    int scan;       /* where the search for the next pending value starts */
    uint64_t total; /* bytes received for this BIND */
};

/* SQLCODEs of the BYTE/TEXT insert path. */
enum {
    E_HOST_VARS = IXV_E_HOST_VARS, /* too many or too few host variables given */
    E_BLOB_WRITE =
        IXV_E_BLOB_WRITE, /* cannot write blob: a chunk out of sequence, too many bytes */
    E_BLOB_HOSTVAR = IXV_E_BLOB_HOSTVAR, /* illegal use of a Text/Byte host variable: data missing,
                                          * or (strict mode) ixdb's inline form */
    E_NOMEM = IXV_E_NOMEM,               /* memory allocation failed */
    IXD_E_LO = IXV_E_LO /* Smart-large-object error: a FETCHBLOB of a handle not ours */
};

/* One prepared statement (a statement id). */
typedef struct sess_stmt {
    ixd_stmt *st;      /* NULL for a session statement (DATABASE, CREATE DATABASE, ...) */
    int orphan;        /* its database closed: st released, the id kept (use_stmt) */
    char *session_sql; /* the text of a session statement */
    int stmt_type;
    int is_cursor;    /* rows come through OPEN/FETCH (ixd_stmt_is_cursor) */
    char cursor[129]; /* cursor name, or "" */
    int scroll, autofree;
    int hold;      /* SQ_HOLD (WITH HOLD): strict mode closes the other cursors at
                    * the end of a transaction (strict_txn_ended); normal mode
                    * closes none */
    int open;      /* cursor opened */
    int exhausted; /* the cursor's last row has been sent with DONE */
    int64_t fetched;
    int64_t scroll_pos; /* current position of a scroll cursor */
    ixb_wbuf ahead;     /* one row read ahead, to know whether a reply ends the data */
    int has_ahead;
    /* binds waiting for EXECUTE or OPEN */
    ixb_wbuf binds; /* tuple bytes of all values */
    int nbinds;
    struct bindref {
        ixt_vtype t;
        size_t off, len;
        int null;
        int pending; /* a BYTE/TEXT descriptor: the bytes come in SQ_BLOB chunks */
    } * bindv;
    int bindcap;
    int wire_bound;       /* the last BIND's values are in the engine (ixd_bind_wire) */
    struct blobin blobin; /* those bytes on their way (blobin_* below) */
} sess_stmt;

struct ixd_sess {
    ixd_server *srv;
    unsigned long id;
    char peer[64];
    ixp_reader rd;
    ixp_printer pr;
    ixp_reader vrd; /* --verbose: decodes the replies for the log */
    ixp_printer vpr;
    ixp_caps caps;
    int logged_in;
    long login_wait_ms; /* the login throttle's hold on the login answer */
    char user[64];
    /* DBMONEY from the login's environment, "" when not sent (room past the
     * engine's limit, so that a longer value reaches it and is refused) */
    char dbmoney[64];
    /* DELIMIDENT from the login's environment (delimident_set: it was sent) */
    char delimident[16];
    int delimident_set;
    ixd_db *db;
    int dbflags;
    char dbname[129];
    sess_stmt *stmts[MAX_STMTS];
    int cur;                  /* statement id named by the last SQ_ID, -1 if none */
    int skipping;             /* an error was sent; discard until EOT */
    int done_sent;            /* a DONE was sent for the current statement in this group */
    int after_blob;           /* the last message was SQ_FETCHBLOB, answered with its EOT */
    ixb_wbuf reply;           /* replies of the current group */
    ixb_wbuf tmp;             /* scratch */
    int (*intr_fn)(void *ud); /* asks running statements to stop (client interrupt) */
    void *intr_ud;
    int ended;  /* intr_fn said IXD_INTR_END: handle no more input */
    int rolled; /* closing the database rolled a transaction back */
    int (*ask_fn)(void *ud, const uint8_t *req, size_t n, ixp_msg *ans); /* client files */
    void *ask_ud;
    int (*input_fn)(void *ud); /* 1 when the client has sent bytes not yet read */
    void *input_ud;
    int in_group; /* a message of the current request group has been handled */
    /* strict mode only */
    int prepared_no_id; /* this group has had an SQ_PREPARE and no SQ_ID since */
    int login_groups;   /* login groups still to be checked for pipelining */
    int discarding;     /* a login group came early: all input is discarded */
};

/* Shared by the two files (ixd_session.c, ixd_sess_exec.c). */
size_t ixd_sess_bind_fast(sess_stmt *t, const uint8_t *p, size_t n, struct bindref *r);
sess_stmt *ixd_sess_cur_stmt(ixd_sess *s);
void ixd_sess_send_done(ixd_sess *s, int warnings, int64_t rows, int32_t serial);
/* The session's one way to answer with an error: ixd_sess_send_err queues
 * SQ_ERR for record e (borrowed) on s's reply, skips the rest of the
 * request's messages and logs it; ixd_sess_send_errcode fills a record with
 * ixv_seterr (sqlcode and isam: names of server/value/ixv_codes.h; text the
 * insertion text, may be NULL) and sends it. */
void ixd_sess_send_errcode(ixd_sess *s, int sqlcode, int isam, const char *text);
void ixd_sess_send_err(ixd_sess *s, const ixv_err *e);
void ixd_sess_stmt_free(sess_stmt *t);
int ixd_sess_strict_inline_blob_refused(ixd_sess *s, sess_stmt *t);
sess_stmt *ixd_sess_use_stmt(ixd_sess *s);
int ixd_sess_strict_close_refused(ixd_sess *s, const sess_stmt *t);
void ixd_sess_blobin_fail(ixd_sess *s, sess_stmt *t, int sqlcode, const char *why);
void ixd_sess_do_bbind(ixd_sess *s, const ixp_msg *m);
void ixd_sess_do_bind(ixd_sess *s, const ixp_msg *m);
/* Gives the database s has just opened (s->db) what the engine reads of the
 * client's environment (DBMONEY, DELIMIDENT); a value it refuses is logged and the
 * default applies. Returns nothing. */
void ixd_sess_db_env(ixd_sess *s);

/* SQ_BIND and SQ_EXECUTE for t, the statement ixd_sess_use_stmt gave (what
 * ixd_sess_do_bind and ixd_sess_do_execute do after it). */
void ixd_sess_bind_stmt(ixd_sess *s, sess_stmt *t, const ixp_msg *m);
void ixd_sess_exec_stmt(ixd_sess *s, sess_stmt *t);
void ixd_sess_do_blob_chunk(ixd_sess *s, const ixp_msg *m);
void ixd_sess_do_close(ixd_sess *s);
void ixd_sess_do_execute(ixd_sess *s);
void ixd_sess_do_fetchblob(ixd_sess *s, const ixp_msg *m, ixb_wbuf *out);
void ixd_sess_do_nfetch(ixd_sess *s, int32_t bufsize);
void ixd_sess_do_open(ixd_sess *s);
void ixd_sess_do_release(ixd_sess *s);
void ixd_sess_do_sfetch(ixd_sess *s, const ixp_msg *m);

#endif
