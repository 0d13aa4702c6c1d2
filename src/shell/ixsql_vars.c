/*
 * ixsql_vars.c: the shell's variables (psql's \set), and their
 * substitution into statements.
 *
 *   \set               lists the variables, "name = 'value'", by name
 *   \set name [value]  sets name (letters, digits, '_') to value: the rest
 *                      of the line, trailing blanks dropped; one '...' word
 *                      is unquoted ('' inside for a quote); none: empty
 *   \unset name        forgets name (no error when it is not set)
 *
 * In a statement, outside '...' and "..." strings and outside -- { } and
 * slash-star comments, :name becomes the value and :'name' the value as a
 * string literal ('...' with quotes doubled). A name that is not set, and
 * '::' (the cast operator), stay as they are.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ixsql.h"

typedef struct var {
    char *name, *value;
} var;

static var *vars;
static size_t nvars, capvars;

static int name_char(char c) {
    return isalnum((unsigned char)c) || c == '_';
}

static var *find(const char *name, size_t n) {
    for (size_t i = 0; i < nvars; i++)
        if (strlen(vars[i].name) == n && memcmp(vars[i].name, name, n) == 0) return &vars[i];
    return NULL;
}

const char *ixsql_var_get(const char *name, size_t n) {
    var *v = find(name, n);
    return v ? v->value : NULL;
}

int ixsql_var_set(const char *name, const char *value) {
    char *val = strdup(value);
    if (!val) return -1;
    var *v = find(name, strlen(name));
    if (v) {
        free(v->value);
        v->value = val;
        return 0;
    }
    if (nvars == capvars) {
        size_t cap = capvars ? capvars * 2 : 16;
        var *nv = realloc(vars, cap * sizeof *nv);
        if (!nv) {
            free(val);
            return -1;
        }
        vars = nv;
        capvars = cap;
    }
    char *nm = strdup(name);
    if (!nm) {
        free(val);
        return -1;
    }
    vars[nvars].name = nm;
    vars[nvars++].value = val;
    return 0;
}

static void unset(const char *name) {
    var *v = find(name, strlen(name));
    if (!v) return;
    free(v->name);
    free(v->value);
    *v = vars[--nvars];
}

void ixsql_vars_free(void) {
    for (size_t i = 0; i < nvars; i++) {
        free(vars[i].name);
        free(vars[i].value);
    }
    free(vars);
    vars = NULL;
    nvars = capvars = 0;
}

static int by_name(const void *a, const void *b) {
    return strcmp(((const var *)a)->name, ((const var *)b)->name);
}

static void list(void) {
    qsort(vars, nvars, sizeof *vars, by_name);
    for (size_t i = 0; i < nvars; i++)
        printf("%s = '%s'\n", vars[i].name, vars[i].value);
    fflush(stdout);
}

/* The value of "\set name VALUE": p..end, blanks trimmed, one quoted word
 * unquoted. malloc'd, NULL when out of memory. */
static char *set_value(const char *p, const char *end) {
    while (p < end && isspace((unsigned char)*p))
        p++;
    while (end > p && isspace((unsigned char)end[-1]))
        end--;
    char *out = malloc((size_t)(end - p) + 1);
    if (!out) return NULL;
    size_t k = 0;
    int quoted = end - p >= 2 && *p == '\'' && end[-1] == '\'';
    for (const char *q = p + 1; quoted && q < end - 1; q++) { /* one word: '' only inside */
        if (*q != '\'') continue;
        if (q + 1 < end - 1 && q[1] == '\'')
            q++;
        else
            quoted = 0;
    }
    if (!quoted) {
        memcpy(out, p, (size_t)(end - p));
        out[end - p] = 0;
        return out;
    }
    for (const char *q = p + 1; q < end - 1; q++) {
        out[k++] = *q;
        if (*q == '\'') q++;
    }
    out[k] = 0;
    return out;
}

/* Whether line (blanks and the command trimmed) is \set or \unset. */
static int command(const char *line, size_t len, const char *cmd, const char **rest) {
    size_t n = strlen(cmd);
    if (len < n || memcmp(line, cmd, n) != 0) return 0;
    if (len > n && !isspace((unsigned char)line[n])) return 0;
    *rest = line + n;
    return 1;
}

int ixsql_vars_command(const char *line, size_t len) {
    const char *p, *end = line + len;
    int is_set = command(line, len, "\\set", &p);
    if (!is_set && !command(line, len, "\\unset", &p)) return -1;
    while (p < end && isspace((unsigned char)*p))
        p++;
    const char *name = p;
    while (p < end && name_char(*p))
        p++;
    size_t n = (size_t)(p - name);
    if (is_set && n == 0 && p == end) {
        list();
        return IXSQL_OK;
    }
    if (n == 0 || (p < end && !isspace((unsigned char)*p)) ||
        (!is_set && ixsql_skip_trivia(p, end) != end)) {
        fflush(stdout);
        fprintf(stderr, "\nixsql: bad arguments: %.*s (\\set [name [value]], \\unset name)\n",
                (int)len, line);
        return IXSQL_FAILED;
    }
    char nm[256];
    if (n >= sizeof nm) n = sizeof nm - 1;
    memcpy(nm, name, n);
    nm[n] = 0;
    if (!is_set) {
        unset(nm);
        return IXSQL_OK;
    }
    char *value = set_value(p, end);
    int rc = value ? ixsql_var_set(nm, value) : -1;
    free(value);
    if (rc == 0) return IXSQL_OK;
    fflush(stdout);
    fprintf(stderr, "\nixsql: out of memory\n");
    return IXSQL_FAILED;
}

/* ---- substitution ------------------------------------------------------------- */

typedef struct buf {
    char *p;
    size_t n, cap;
    int oom;
} buf;

static void put(buf *b, const char *s, size_t n) {
    if (b->oom) return;
    if (b->n + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 256;
        while (cap < b->n + n + 1)
            cap *= 2;
        char *np = realloc(b->p, cap);
        if (!np) {
            b->oom = 1;
            return;
        }
        b->p = np;
        b->cap = cap;
    }
    memcpy(b->p + b->n, s, n);
    b->n += n;
    b->p[b->n] = 0;
}

/* End of the string, comment or word starting at p that is copied as is. */
static const char *skip_literal(const char *p, const char *end) {
    if (*p == '\'' || *p == '"') {
        char q = *p++;
        while (p < end && *p != q)
            p++;
        return p < end ? p + 1 : end; /* a doubled quote is two strings side by side */
    }
    if (*p == '-' && p + 1 < end && p[1] == '-') {
        while (p < end && *p != '\n')
            p++;
        return p;
    }
    if (*p == '{') {
        while (p < end && *p != '}')
            p++;
        return p < end ? p + 1 : end;
    }
    if (*p == '/' && p + 1 < end && p[1] == '*') {
        for (p += 2; p < end && !(*p == '*' && p + 1 < end && p[1] == '/'); p++)
            ;
        return p < end ? p + 2 : end;
    }
    return NULL;
}

/* The reference at p (a ':'): its value in *b, the bytes it covers as the
 * return (0: no reference). */
static size_t reference(const char *p, const char *end, buf *b) {
    int quote = p + 1 < end && p[1] == '\'';
    const char *name = p + 1 + quote, *q = name;
    while (q < end && name_char(*q))
        q++;
    if (q == name || (quote && (q >= end || *q != '\''))) return 0;
    const char *value = ixsql_var_get(name, (size_t)(q - name));
    if (!value) return 0;
    if (!quote) {
        put(b, value, strlen(value));
        return (size_t)(q - p);
    }
    put(b, "'", 1);
    for (const char *v = value; *v; v++) {
        if (*v == '\'')
            put(b, "''", 2);
        else
            put(b, v, 1);
    }
    put(b, "'", 1);
    return (size_t)(q + 1 - p);
}

char *ixsql_vars_subst(const char *sql, size_t len, size_t *out_len) {
    if (nvars == 0 || !memchr(sql, ':', len)) return NULL;
    buf b = {NULL, 0, 0, 0};
    const char *p = sql, *end = sql + len, *copied = sql;
    int any = 0;
    while (p < end) {
        const char *lit = skip_literal(p, end);
        if (lit) {
            p = lit;
        } else if (*p == ':' && p + 1 < end && p[1] == ':') {
            p += 2;
        } else if (*p == ':') {
            put(&b, copied, (size_t)(p - copied));
            size_t used = reference(p, end, &b);
            if (used == 0) put(&b, ":", 1);
            any |= used != 0;
            p += used ? used : 1;
            copied = p;
        } else {
            p++;
        }
    }
    put(&b, copied, (size_t)(end - copied));
    if (!any || b.oom) {
        free(b.p);
        return NULL;
    }
    *out_len = b.n;
    return b.p;
}

/* ---- the input side's backslash commands -------------------------------------- */

int ixsql_input_backslash(const char *line, size_t len) {
    while (len && isspace((unsigned char)line[len - 1]))
        len--;
    while (len && isspace((unsigned char)*line))
        line++, len--;
    const char *rest, *end = line + len;
    if (command(line, len, "\\set", &rest) || command(line, len, "\\unset", &rest))
        return ixsql_vars_command(line, len);
    if (ixsql_is_edit(line, len)) return ixsql_edit_command();
    if (!command(line, len, "\\i", &rest) && !command(line, len, "\\include", &rest)) return -1;
    while (end > rest && (end[-1] == ';' || isspace((unsigned char)end[-1])))
        end--;
    char *path = set_value(rest, end);
    int rc = IXSQL_FAILED;
    if (path && *path) {
        rc = ixsql_include(path);
    } else {
        fflush(stdout);
        fprintf(stderr, "\nixsql: \\i needs a file name\n");
    }
    free(path);
    return rc;
}
