/* ixs_kw.c: the keyword table of the SQL lexer, sorted for bsearch; entry i
 * is the text of code i + 1 (ixs_kw.h), in alphabetical order. */
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "server/sql/ixs_kw.h"

static const char *const names[] = {
    "add",        "after",     "all",        "alter",        "and",
    "ansi",       "any",       "as",         "asc",          "authorization",
    "auto",       "before",    "begin",      "between",      "both",
    "buffered",   "by",        "cache",      "call",         "cascade",
    "case",       "check",     "close",      "cluster",      "column",
    "commit",     "committed", "constraint", "continue",     "crcols",
    "create",     "cross",     "current",    "cursor",       "cycle",
    "database",   "datetime",  "dba",        "default",      "define",
    "delete",     "desc",      "dirty",      "distinct",     "distributions",
    "document",   "drop",      "each",       "elif",         "else",
    "end",        "erkey",     "escape",     "except",       "exception",
    "exclusive",  "execute",   "exists",     "exit",         "extent",
    "external",   "first",     "following",  "for",          "force",
    "foreach",    "foreign",   "from",       "full",         "function",
    "global",     "grant",     "group",      "handlesnulls", "having",
    "high",       "hold",      "if",         "immediate",    "in",
    "increment",  "index",     "inner",      "inout",        "insensitive",
    "insert",     "intersect", "interval",   "into",         "is",
    "isolation",  "join",      "keep",       "key",          "language",
    "last",       "leading",   "left",       "let",          "like",
    "limit",      "list",      "listing",    "lock",         "locks",
    "log",        "low",       "matched",    "matches",      "maxvalue",
    "medium",     "merge",     "minus",      "minvalue",     "mode",
    "modify",     "multiset",  "new",        "next",         "nextval",
    "nlscase",    "no",        "nocache",    "nocycle",      "nomaxvalue",
    "nominvalue", "noorder",   "not",        "null",         "nulls",
    "of",         "old",       "on",         "online",       "only",
    "option",     "or",        "order",      "out",          "outer",
    "over",       "page",      "partition",  "preceding",    "precision",
    "primary",    "private",   "procedure",  "public",       "raise",
    "range",      "raw",       "read",       "references",   "referencing",
    "release",    "rename",    "repeatable", "resolution",   "restart",
    "restrict",   "resume",    "retain",     "return",       "returning",
    "returns",    "reuse",     "revoke",     "right",        "rollback",
    "routine",    "row",       "rowids",     "rows",         "sampling",
    "savepoint",  "schema",    "scratch",    "select",       "sensitive",
    "sequence",   "set",       "size",       "skip",         "some",
    "specific",   "spl",       "stability",  "standard",     "start",
    "statistics", "step",      "storage",    "synonym",      "sysdate",
    "system",     "table",     "temp",       "then",         "timeseries",
    "to",         "today",     "trace",      "trailing",     "transaction",
    "trigger",    "truncate",  "type",       "unbounded",    "under",
    "union",      "unique",    "units",      "unlock",       "update",
    "user",       "using",     "values",     "variant",      "varying",
    "view",       "wait",      "warning",    "when",         "where",
    "while",      "with",      "work",
};

_Static_assert(sizeof names / sizeof names[0] == IXK_COUNT - 1, "one name per code");
_Static_assert(IXK_COUNT * 4 < 1024, "KW_SLOTS too small");

#define KW_MAXLEN 13

/* Lookup: an open-addressing hash table of the codes by their lower-case
 * text (FNV-1a), made once; an identifier is folded to lower case, hashed
 * and compared with the one or two names in its probe run. */
#define KW_SLOTS 1024 /* a power of two, more than four times the keywords */
static uint16_t slots[KW_SLOTS];
static uint8_t lens[IXK_COUNT];
static pthread_once_t built = PTHREAD_ONCE_INIT;

static uint32_t kw_hash(const unsigned char *s, size_t n) {
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++)
        h = (h ^ s[i]) * 16777619u;
    return h;
}

static void build(void) {
    for (int k = IXK_NONE + 1; k < IXK_COUNT; k++) {
        const char *w = names[k - 1];
        lens[k] = (uint8_t)strlen(w);
        uint32_t h = kw_hash((const unsigned char *)w, lens[k]) & (KW_SLOTS - 1);
        while (slots[h])
            h = (h + 1) & (KW_SLOTS - 1);
        slots[h] = (uint16_t)k;
    }
}

int ixs_kw_code(const char *s, size_t n) {
    if (n == 0 || n > KW_MAXLEN) return IXK_NONE;
    unsigned char low[KW_MAXLEN];
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        low[i] = c >= 'A' && c <= 'Z' ? (unsigned char)(c + ('a' - 'A')) : c;
    }
    pthread_once(&built, build);
    for (uint32_t h = kw_hash(low, n) & (KW_SLOTS - 1); slots[h]; h = (h + 1) & (KW_SLOTS - 1)) {
        int k = slots[h];
        if (lens[k] == n && memcmp(names[k - 1], low, n) == 0) return k;
    }
    return IXK_NONE;
}

const char *ixs_kw_name(int kw) {
    return kw > IXK_NONE && kw < IXK_COUNT ? names[kw - 1] : NULL;
}
