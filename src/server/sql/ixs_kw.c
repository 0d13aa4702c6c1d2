/* ixs_kw.c: the keyword table of the SQL lexer, sorted for bsearch; entry i
 * is the text of code i + 1 (ixs_kw.h). */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "server/sql/ixs_kw.h"

static const char *const names[] = {
    "add",       "after",      "all",        "alter",        "and",
    "ansi",      "any",        "as",         "asc",          "authorization",
    "auto",      "before",     "begin",      "between",      "both",
    "buffered",  "by",         "cache",      "call",         "cascade",
    "case",      "check",      "close",      "cluster",      "column",
    "commit",    "committed",  "constraint", "continue",     "crcols",
    "create",    "cross",      "current",    "cursor",       "cycle",
    "database",  "datetime",   "dba",        "default",      "define",
    "delete",    "desc",       "dirty",      "distinct",     "distributions",
    "document",  "drop",       "each",       "elif",         "else",
    "end",       "erkey",      "escape",     "except",       "exception",
    "exclusive", "execute",    "exists",     "exit",         "extent",
    "external",  "first",      "following",  "for",          "force",
    "foreach",   "foreign",    "from",       "full",         "function",
    "global",    "grant",      "group",      "handlesnulls", "having",
    "high",      "hold",       "if",         "in",           "increment",
    "index",     "inner",      "inout",      "insensitive",  "insert",
    "intersect", "interval",   "into",       "is",           "isolation",
    "join",      "keep",       "key",        "language",     "last",
    "leading",   "left",       "let",        "like",         "limit",
    "list",      "listing",    "lock",       "locks",        "log",
    "low",       "matched",    "matches",    "maxvalue",     "medium",
    "merge",     "minus",      "minvalue",   "mode",         "modify",
    "multiset",  "new",        "next",       "nextval",      "nlscase",
    "no",        "nocache",    "nocycle",    "nomaxvalue",   "nominvalue",
    "noorder",   "not",        "null",       "nulls",        "of",
    "old",       "on",         "online",     "only",         "option",
    "or",        "order",      "out",        "outer",        "over",
    "page",      "partition",  "preceding",  "precision",    "primary",
    "private",   "procedure",  "public",     "raise",        "range",
    "raw",       "read",       "references", "referencing",  "release",
    "rename",    "repeatable", "resolution", "restart",      "restrict",
    "resume",    "retain",     "return",     "returning",    "returns",
    "reuse",     "revoke",     "right",      "rollback",     "routine",
    "row",       "rowids",     "rows",       "sampling",     "savepoint",
    "schema",    "scratch",    "select",     "sensitive",    "sequence",
    "set",       "size",       "skip",       "some",         "specific",
    "spl",       "stability",  "standard",   "start",        "statistics",
    "step",      "storage",    "synonym",    "sysdate",      "system",
    "table",     "temp",       "then",       "timeseries",   "to",
    "today",     "trace",      "trailing",   "transaction",  "trigger",
    "truncate",  "type",       "unbounded",  "under",        "union",
    "unique",    "units",      "unlock",     "update",       "user",
    "using",     "values",     "variant",    "varying",      "view",
    "wait",      "warning",    "when",       "where",        "while",
    "with",      "work",
};

_Static_assert(sizeof names / sizeof names[0] == IXK_COUNT - 1, "one name per code");

#define KW_MAXLEN 13

typedef struct key {
    const char *s;
    size_t n;
} key;

static int cmp(const void *a, const void *b) {
    const key *k = a;
    const char *name = *(const char *const *)b;
    size_t l = strlen(name);
    int r = strncasecmp(k->s, name, k->n < l ? k->n : l);
    return r ? r : (k->n > l) - (k->n < l);
}

int ixs_kw_code(const char *s, size_t n) {
    if (n == 0 || n > KW_MAXLEN) return IXK_NONE;
    key k = {s, n};
    const char *const *hit =
        bsearch(&k, names, sizeof names / sizeof names[0], sizeof names[0], cmp);
    return hit ? (int)(hit - names) + 1 : IXK_NONE;
}

const char *ixs_kw_name(int kw) {
    return kw > IXK_NONE && kw < IXK_COUNT ? names[kw - 1] : NULL;
}
