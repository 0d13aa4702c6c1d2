/*
 * ixo_cursor.c: cursor names (SQLSetCursorName, SQLGetCursorName). A
 * statement's name is the one the application set, or one the driver makes
 * the first time it is asked for: "SQL_CUR" and a number counted per
 * connection. The name is the server cursor's (ix_stmt_set_cursor_name,
 * sent in SQ_CURNAME at the OPEN), so that UPDATE / DELETE ... WHERE
 * CURRENT OF name on another statement of the connection reaches the row a
 * SELECT ... FOR UPDATE fetched last.
 */
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ixo_int.h"

#define DEFAULT_PREFIX "SQL_CUR"
#define RESERVED_OLD   "SQLCUR"

void ixo_cursor_apply(ixo_stmt *s) {
    if (s->st && s->curname[0] && !s->executed) /* else at the next SQLExecute */
        ix_stmt_set_cursor_name(s->st, s->curname, IX_NTS);
}

const char *ixo_cursor_name(ixo_stmt *s) {
    if (!s->curname[0]) {
        snprintf(s->curname, sizeof s->curname, "%s%u", DEFAULT_PREFIX, ++s->dbc->cursor_seq);
        ixo_cursor_apply(s);
    }
    return s->curname;
}

static int is_letter(char c) {
    return c == '_' || ((c | 0x20) >= 'a' && (c | 0x20) <= 'z');
}

/* 1 when name is an identifier libixdb sends as a cursor name */
static int is_identifier(const char *name, size_t n) {
    if (n == 0 || n > IX_CURSOR_NAME_MAX || !is_letter(name[0])) return 0;
    for (size_t i = 1; i < n; i++)
        if (!is_letter(name[i]) && !(name[i] >= '0' && name[i] <= '9')) return 0;
    return 1;
}

static SQLRETURN set_name(ixo_stmt *s, const char *name, size_t n) {
    if ((s->executed && s->ncols > 0) || s->res)
        return ixo_err(&s->h, "24000", 0, "Invalid cursor state");
    if (!is_identifier(name, n) || strncasecmp(name, DEFAULT_PREFIX, strlen(DEFAULT_PREFIX)) == 0 ||
        strncasecmp(name, RESERVED_OLD, strlen(RESERVED_OLD)) == 0)
        return ixo_err(&s->h, "34000", 0, "Invalid cursor name '%.*s'", (int)(n > 64 ? 64 : n),
                       name);
    for (ixo_stmt *t = s->dbc->stmts; t; t = t->next)
        if (t != s && strlen(t->curname) == n && strncasecmp(t->curname, name, n) == 0)
            return ixo_err(&s->h, "3C000", 0, "Duplicate cursor name '%s'", t->curname);
    memcpy(s->curname, name, n);
    s->curname[n] = 0;
    ixo_cursor_apply(s);
    return SQL_SUCCESS;
}

SQLRETURN SQL_API SQLSetCursorName(SQLHSTMT StatementHandle, SQLCHAR *CursorName,
                                   SQLSMALLINT NameLength) {
    IXO_ENTER_STMT_ANY(StatementHandle);
    if (!CursorName) return ixo_leave(h, ixo_err(h, "HY009", 0, "Invalid use of null pointer"));
    if (NameLength < 0 && NameLength != SQL_NTS)
        return ixo_leave(h, ixo_err(h, "HY090", 0, "Invalid string or buffer length"));
    size_t n = NameLength == SQL_NTS ? strlen((const char *)CursorName) : (size_t)NameLength;
    return ixo_leave(h, set_name(s, (const char *)CursorName, n));
}

SQLRETURN SQL_API SQLGetCursorName(SQLHSTMT StatementHandle, SQLCHAR *CursorName,
                                   SQLSMALLINT BufferLength, SQLSMALLINT *NameLength) {
    IXO_ENTER_STMT_ANY(StatementHandle);
    if (BufferLength < 0)
        return ixo_leave(h, ixo_err(h, "HY090", 0, "Invalid string or buffer length"));
    SQLRETURN rc = SQL_SUCCESS;
    if (ixo_str_out(ixo_cursor_name(s), CursorName, BufferLength, NameLength, NULL) && CursorName)
        rc = ixo_warn(h, "01004", "String data, right truncated");
    return ixo_leave(h, rc);
}
