/*
 * ixsql_fmt.c: the output formats for scripting and the backslash commands
 * that set them (psql's habits; dbaccess has none of them).
 *
 *   aligned    dbaccess's layout (ixsql_out.c), the default
 *   unaligned  fields joined by '|', a header line of names (psql -A)
 *   csv        RFC 4180: a header line, fields quoted when they hold a comma,
 *              a quote, CR or LF (quotes doubled), lines ended by CRLF; NULL
 *              is an empty unquoted field, the empty string is ""
 *   json       RFC 8259: one array of objects per result set; numbers
 *              (SMALLINT, INTEGER, INT8, SERIAL*, BIGINT, FLOAT, SMALLFLOAT,
 *              DECIMAL, MONEY) as JSON numbers without a currency symbol,
 *              NULL as null, every other type as a string
 *   markdown   a GitHub pipe table: a header row, a delimiter row (numbers
 *              right-aligned, "---:"), one row per row; '|' in a value is
 *              written \|, a line break <br>, a CR dropped; NULL as \pset
 *              null; bytes that are not UTF-8 as \xNN
 *   vertical   the aligned layout's "name  value" lines for every row (\x)
 *
 * Backslash commands (a line of their own, outside a statement):
 *   \pset format FMT, \pset null STR, \pset lob MODE (ixsql_lob.c),
 *   \pset pager [on|off], \x [on|off],
 *   \timing [on|off], \o [file | |command] (ixsql_output.c).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "ixsql.h"
#include "ixsql_lob.h"

static const char *const format_names[] = {
    [IXSQL_FMT_ALIGNED] = "aligned",   [IXSQL_FMT_UNALIGNED] = "unaligned",
    [IXSQL_FMT_CSV] = "csv",           [IXSQL_FMT_JSON] = "json",
    [IXSQL_FMT_MARKDOWN] = "markdown", [IXSQL_FMT_VERTICAL] = "vertical",
};

int ixsql_fmt_parse(const char *name) {
    for (int f = 0; f < (int)(sizeof format_names / sizeof *format_names); f++)
        if (strcasecmp(name, format_names[f]) == 0) return f;
    return -1;
}

const char *ixsql_fmt_null(void) {
    return ixsql_opt.null_text ? ixsql_opt.null_text : "";
}

/* ---- CSV ---------------------------------------------------------------------- */

static void csv_field(const char *s, size_t n) {
    int quote = n == 0; /* the empty string, distinct from NULL */
    for (size_t i = 0; i < n && !quote; i++)
        quote = s[i] == ',' || s[i] == '"' || s[i] == '\r' || s[i] == '\n';
    if (!quote) {
        fwrite(s, 1, n, stdout);
        return;
    }
    putchar('"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"') putchar('"');
        putchar(s[i]);
    }
    putchar('"');
}

/* ---- JSON --------------------------------------------------------------------- */

/* A JSON string: '"' and '\' escaped, control characters as \n, \t, ... or
 * \u00XX, a byte that is not valid UTF-8 as U+FFFD. */
static void json_string(const char *s, size_t n) {
    const unsigned char *p = (const unsigned char *)s;
    putchar('"');
    for (size_t i = 0; i < n;) {
        unsigned char c = p[i];
        unsigned cp;
        size_t k = ixsql_utf8_decode(p + i, n - i, &cp);
        if (k == 0) {
            fputs("\\ufffd", stdout);
            i++;
            continue;
        }
        if (c == '"' || c == '\\') {
            putchar('\\');
            putchar(c);
        } else if (c == '\n') {
            fputs("\\n", stdout);
        } else if (c == '\r') {
            fputs("\\r", stdout);
        } else if (c == '\t') {
            fputs("\\t", stdout);
        } else if (c == '\b') {
            fputs("\\b", stdout);
        } else if (c == '\f') {
            fputs("\\f", stdout);
        } else if (c < 0x20) {
            printf("\\u%04x", c);
        } else {
            fwrite(p + i, 1, k, stdout);
        }
        i += k;
    }
    putchar('"');
}

static int is_number_type(int type) {
    switch (type) {
    case IX_T_SMALLINT:
    case IX_T_INTEGER:
    case IX_T_SERIAL:
    case IX_T_INT8:
    case IX_T_SERIAL8:
    case IX_T_BIGINT:
    case IX_T_BIGSERIAL:
    case IX_T_FLOAT:
    case IX_T_SMALLFLOAT:
    case IX_T_DECIMAL:
    case IX_T_MONEY: return 1;
    default: return 0;
    }
}

static size_t digits(const char *s, size_t i) {
    while (isdigit((unsigned char)s[i]))
        i++;
    return i;
}

/* Whether s is a number in RFC 8259's grammar:
 *   -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)? */
static int json_number_ok(const char *s) {
    size_t i = s[0] == '-', j;
    if (s[i] == '0')
        i++;
    else if ((j = digits(s, i)) > i)
        i = j;
    else
        return 0;
    if (s[i] == '.') {
        if ((j = digits(s, i + 1)) == i + 1) return 0;
        i = j;
    }
    if (s[i] == 'e' || s[i] == 'E') {
        i++;
        if (s[i] == '+' || s[i] == '-') i++;
        if ((j = digits(s, i)) == i) return 0;
        i = j;
    }
    return s[i] == 0;
}

/* A numeric value's text as a JSON number: blanks and a MONEY's currency
 * symbols (DBMONEY) dropped, a ',' decimal separator made '.', a leading
 * '.' given its 0 and a trailing '.' dropped. Values that still are no JSON
 * number (NaN, Infinity) are written as strings. */
static void json_number(const char *s, size_t n) {
    char buf[96];
    size_t k = 0;
    for (size_t i = 0; i < n && k + 2 < sizeof buf; i++) {
        char c = s[i] == ',' ? '.' : s[i];
        if (!(isdigit((unsigned char)c) || c == '-' || c == '+' || c == '.' || c == 'e' ||
              c == 'E'))
            continue;
        if (c == '.' && (k == 0 || buf[k - 1] == '-')) buf[k++] = '0';
        buf[k++] = c;
    }
    if (k > 0 && buf[k - 1] == '.') k--;
    buf[k] = 0;
    if (k < sizeof buf - 2 && json_number_ok(buf))
        fputs(buf, stdout);
    else
        json_string(s, n);
}

/* ---- rows --------------------------------------------------------------------- */

static void header(ix_stmt *stmt, int ncols, int format) {
    for (int i = 0; i < ncols; i++) {
        const char *name = ix_column_name(stmt, i);
        if (!name) name = "";
        if (i) putchar(format == IXSQL_FMT_CSV ? ',' : '|');
        if (format == IXSQL_FMT_CSV)
            csv_field(name, strlen(name));
        else
            fputs(name, stdout);
    }
    fputs(format == IXSQL_FMT_CSV ? "\r\n" : "\n", stdout);
}

static void unaligned_row(ix_stmt *stmt, int ncols) {
    for (int i = 0; i < ncols; i++) {
        if (i) putchar('|');
        size_t n;
        const char *v = ixsql_col_text(stmt, i, &n);
        if (!v)
            fputs(ixsql_fmt_null(), stdout);
        else
            fwrite(v, 1, n, stdout);
    }
    putchar('\n');
}

/* \x with unaligned: one "name|value" line per column, records separated by
 * a blank line (psql -A -x). */
static void unaligned_vertical_row(ix_stmt *stmt, int ncols, long long row) {
    if (row) putchar('\n');
    for (int i = 0; i < ncols; i++) {
        const char *name = ix_column_name(stmt, i);
        if (!ixsql_without_headings) printf("%s|", name ? name : "");
        size_t n;
        const char *v = ixsql_col_text(stmt, i, &n);
        if (!v)
            fputs(ixsql_fmt_null(), stdout);
        else
            fwrite(v, 1, n, stdout);
        putchar('\n');
    }
}

static void csv_row(ix_stmt *stmt, int ncols) {
    for (int i = 0; i < ncols; i++) {
        if (i) putchar(',');
        size_t n;
        const char *v = ixsql_col_text(stmt, i, &n);
        if (v) csv_field(v, n);
    }
    fputs("\r\n", stdout);
}

static void json_row(ix_stmt *stmt, int ncols, long long row) {
    fputs(row ? ",\n{" : "\n{", stdout);
    for (int i = 0; i < ncols; i++) {
        const char *name = ix_column_name(stmt, i);
        if (i) putchar(',');
        json_string(name ? name : "", name ? strlen(name) : 0);
        putchar(':');
        size_t n;
        const char *v = ixsql_col_text(stmt, i, &n);
        if (!v)
            fputs("null", stdout);
        else if (is_number_type(ix_column_type(stmt, i)))
            json_number(v, n);
        else
            json_string(v, n);
    }
    putchar('}');
}

/* A markdown cell: '|' escaped, LF as <br>, CR dropped. */
static void markdown_cell(const char *s, size_t n) {
    size_t from = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '|' && s[i] != '\n' && s[i] != '\r') continue;
        ixsql_put_text(s + from, i - from);
        fputs(s[i] == '|' ? "\\|" : s[i] == '\n' ? "<br>" : "", stdout);
        from = i + 1;
    }
    ixsql_put_text(s + from, n - from);
}

static void markdown_header(ix_stmt *stmt, int ncols) {
    for (int i = 0; i < ncols; i++) {
        const char *name = ix_column_name(stmt, i);
        fputs("| ", stdout);
        markdown_cell(name ? name : "", name ? strlen(name) : 0);
        putchar(' ');
    }
    fputs("|\n", stdout);
    for (int i = 0; i < ncols; i++)
        fputs(is_number_type(ix_column_type(stmt, i)) ? "| ---: " : "| --- ", stdout);
    fputs("|\n", stdout);
}

static void markdown_row(ix_stmt *stmt, int ncols) {
    for (int i = 0; i < ncols; i++) {
        fputs("| ", stdout);
        size_t n;
        const char *v = ixsql_col_text(stmt, i, &n);
        if (!v)
            markdown_cell(ixsql_fmt_null(), strlen(ixsql_fmt_null()));
        else
            markdown_cell(v, n);
        putchar(' ');
    }
    fputs("|\n", stdout);
}

int ixsql_fmt_rows(ix_stmt *stmt, long long *rows) {
    int ncols = ix_column_count(stmt), format = ixsql_opt.format, rc;
    int vertical = ixsql_opt.expanded && format == IXSQL_FMT_UNALIGNED;
    *rows = 0;
    if (format == IXSQL_FMT_JSON) putchar('[');
    if (format == IXSQL_FMT_MARKDOWN) {
        if (!ixsql_without_headings) markdown_header(stmt, ncols);
    } else if (!vertical && format != IXSQL_FMT_JSON && !ixsql_without_headings) {
        header(stmt, ncols, format);
    }
    while ((rc = ix_step(stmt)) == IX_ROW) {
        if (format == IXSQL_FMT_MARKDOWN)
            markdown_row(stmt, ncols);
        else if (format == IXSQL_FMT_CSV)
            csv_row(stmt, ncols);
        else if (format == IXSQL_FMT_JSON)
            json_row(stmt, ncols, *rows);
        else if (vertical)
            unaligned_vertical_row(stmt, ncols, *rows);
        else
            unaligned_row(stmt, ncols);
        ++*rows;
    }
    ixsql_lob_end();
    if (format == IXSQL_FMT_JSON) fputs(*rows ? "\n]\n" : "]\n", stdout);
    return rc;
}

/* ---- \timing -------------------------------------------------------------------- */

double ixsql_fmt_clock(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void ixsql_fmt_timing(double start_ms) {
    if (!ixsql_opt.timing) return;
    fflush(stdout);
    fprintf(stderr, "Time: %.3f ms\n", ixsql_fmt_clock() - start_ms);
}

/* ---- backslash commands ------------------------------------------------------------ */

enum { MAX_WORDS = 3, MAX_WORD = 256 };

/* Splits a command line into blank-separated words (a word may be quoted
 * with '...', '' inside for a quote). Returns the count, -1 when too long. */
static int split_words(const char *s, size_t n, char w[MAX_WORDS][MAX_WORD]) {
    int count = 0;
    size_t i = 0;
    for (;;) {
        while (i < n && isspace((unsigned char)s[i]))
            i++;
        if (i >= n) return count;
        if (count == MAX_WORDS) return -1;
        size_t k = 0;
        if (s[i] == '\'') {
            for (i++; i < n; i++) {
                if (s[i] == '\'' && !(i + 1 < n && s[i + 1] == '\'')) break;
                if (s[i] == '\'') i++;
                if (k + 1 >= MAX_WORD) return -1;
                w[count][k++] = s[i];
            }
            i++; /* the closing quote */
        } else {
            while (i < n && !isspace((unsigned char)s[i])) {
                if (k + 1 >= MAX_WORD) return -1;
                w[count][k++] = s[i++];
            }
        }
        w[count++][k] = 0;
    }
}

/* "on" / "off" / nothing (toggle) into *flag; -1 for anything else. */
static int on_off(int nwords, const char *arg, int *flag, const char *what) {
    if (nwords == 1)
        *flag = !*flag;
    else if (strcasecmp(arg, "on") == 0)
        *flag = 1;
    else if (strcasecmp(arg, "off") == 0)
        *flag = 0;
    else
        return -1;
    ixsql_message("%s is %s.", what, *flag ? "on" : "off");
    return 0;
}

static int pset(int nwords, char w[MAX_WORDS][MAX_WORD]) {
    if (nwords >= 2 && strcmp(w[1], "format") == 0) {
        if (nwords == 2) {
            ixsql_message("Output format is %s.", format_names[ixsql_opt.format]);
            return 0;
        }
        int f = ixsql_fmt_parse(w[2]);
        if (f < 0) return -1;
        ixsql_opt.format = f;
        ixsql_message("Output format is %s.", format_names[f]);
        return 0;
    }
    if (nwords >= 2 && strcmp(w[1], "lob") == 0) {
        int m = nwords == 3 ? ixsql_lob_parse(w[2]) : nwords == 2 ? ixsql_lob_show : -1;
        if (m < 0) return -1;
        ixsql_lob_show = m;
        ixsql_message("LOB display is %s.", ixsql_lob_name(m));
        return 0;
    }
    if (nwords >= 2 && strcmp(w[1], "pager") == 0)
        return on_off(nwords - 1, w[2], &ixsql_pager_on, "Pager usage");
    if (nwords >= 2 && strcmp(w[1], "null") == 0) {
        char *t = strdup(nwords == 3 ? w[2] : "");
        if (!t) return -1;
        free(ixsql_opt.null_text);
        ixsql_opt.null_text = t;
        ixsql_message("Null display is \"%s\".", t);
        return 0;
    }
    return -1;
}

int ixsql_is_backslash(const char *line, size_t len) {
    const char *p = line, *end = line + len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    return p < end && *p == '\\';
}

int ixsql_backslash(const char *line, size_t len) {
    char w[MAX_WORDS][MAX_WORD];
    int mine = ixsql_input_backslash(line, len); /* \set, \unset, \i, \e */
    if (mine >= 0) return mine;
    while (len && (line[len - 1] == '\n' || line[len - 1] == '\r' || line[len - 1] == ';'))
        len--;
    while (len && (*line == ' ' || *line == '\t'))
        line++, len--;
    int conn_rc;
    if (ixsql_conn_backslash(line, len, &conn_rc)) return conn_rc; /* \c, \l, \d */
    if (len >= 2 && strncmp(line, "\\o", 2) == 0 &&
        (len == 2 || line[2] == ' ' || line[2] == '\t' || line[2] == '|'))
        return ixsql_output_command(line + 2, len - 2); /* the rest may hold blanks */
    int n = split_words(line, len, w), bad = n < 1;
    if (bad) {
        /* too long */
    } else if (strcmp(w[0], "\\pset") == 0) {
        bad = pset(n, w) != 0;
    } else if (strcmp(w[0], "\\?") == 0 && n == 1) {
        ixsql_help_commands();
    } else if (strcmp(w[0], "\\h") == 0) { /* the rest may hold blanks */
        return ixsql_help_sql(line + 2, len - 2);
    } else if (strcmp(w[0], "\\x") == 0 && n == 2 && strcasecmp(w[1], "auto") == 0) {
        ixsql_opt.expanded = 0; /* the aligned layout turns vertical when a row is too wide */
        ixsql_message("Expanded display is used automatically.");
    } else if (strcmp(w[0], "\\x") == 0 && n <= 2) {
        bad = on_off(n, w[1], &ixsql_opt.expanded, "Expanded display") != 0;
    } else if (strcmp(w[0], "\\timing") == 0 && n <= 2) {
        bad = on_off(n, w[1], &ixsql_opt.timing, "Timing") != 0;
    } else {
        fflush(stdout);
        fprintf(stderr, "\nixsql: invalid command %.*s (try \\?)\n", (int)len, line);
        return IXSQL_FAILED;
    }
    if (!bad) return IXSQL_OK;
    fflush(stdout);
    fprintf(stderr,
            "\nixsql: bad arguments: %.*s (\\pset format "
            "aligned|unaligned|csv|json|markdown|vertical, \\pset null STR, \\pset lob "
            "placeholder|size|text, \\pset pager "
            "[on|off], \\x [on|off|auto], \\timing [on|off])\n",
            (int)len, line);
    return IXSQL_FAILED;
}
