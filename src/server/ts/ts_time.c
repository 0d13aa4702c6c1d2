/* ts_time.c: timestamps and intervals of the TimeSeries engine as
 * microseconds (since 1970-01-01 00:00:00; no time zone, as Informix
 * DATETIME), parsed from and formatted as Informix DATETIME text. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "server/ts/ts_int.h"
#include "types/ix_datetime.h"

#define US_PER_SEC 1000000LL
#define US_PER_DAY (86400LL * US_PER_SEC)
/* The longest interval: 100,000 days (any longer one is refused, so that
 * every accepted interval also reads back from its text). */
#define IV_MAX_US (100000LL * US_PER_DAY)

/* Reads 1..maxd digits at s[*i]; -1 when there is none. */
static int64_t digits(const char *s, size_t n, size_t *i, int maxd, int *nd) {
    int64_t v = 0;
    int k = 0;
    while (*i < n && k < maxd && s[*i] >= '0' && s[*i] <= '9') {
        v = v * 10 + (s[*i] - '0');
        (*i)++;
        k++;
    }
    if (nd) *nd = k;
    return k ? v : -1;
}

int ixts_time_parse(const char *s, size_t n, int64_t *us, ixv_err *e) {
    while (n && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    int64_t f[6] = {0, 1, 1, 0, 0, 0};
    static const char sep[6] = {0, '-', '-', ' ', ':', ':'};
    static const int maxd[6] = {4, 2, 2, 2, 2, 2};
    int nf = 0, nd;
    for (; nf < 6; nf++) {
        if (nf) {
            if (i >= n) break;
            if (s[i] != sep[nf] && !(nf == 3 && s[i] == 'T')) break;
            i++;
        }
        int64_t v = digits(s, n, &i, maxd[nf], &nd);
        if (v < 0) return ixv_seterr(e, TS_E_DT_CHAR, 0, 0, NULL);
        f[nf] = v;
    }
    if (nf < 3) return ixv_seterr(e, TS_E_DT_CHAR, 0, 0, NULL);
    int64_t frac = 0;
    if (i < n && s[i] == '.' && nf == 6) {
        i++;
        int64_t v = digits(s, n, &i, 6, &nd);
        if (v < 0) return ixv_seterr(e, TS_E_DT_CHAR, 0, 0, NULL);
        frac = v;
        for (int k = nd; k < 6; k++)
            frac *= 10;
    }
    if (i != n) return ixv_seterr(e, TS_E_DT_CHAR, 0, 0, NULL);
    int32_t day;
    if (f[3] > 23 || f[4] > 59 || f[5] > 59 ||
        ixt_date_from_ymd((int)f[0], (int)f[1], (int)f[2], &day) != IX_OK)
        return ixv_seterr(e, TS_E_DT_FIELD, 0, 0, NULL);
    int64_t days = (int64_t)day - IXT_DATE_UNIX_EPOCH;
    *us = days * US_PER_DAY + ((f[3] * 60 + f[4]) * 60 + f[5]) * US_PER_SEC + frac;
    return 0;
}

static const char pairs[201] = "00010203040506070809101112131415161718192021222324"
                               "25262728293031323334353637383940414243444546474849"
                               "50515253545556575859606162636465666768697071727374"
                               "75767778798081828384858687888990919293949596979899";

/* v (0..99) as two digits. */
static char *put2(char *p, int v) {
    memcpy(p, pairs + 2 * v, 2);
    return p + 2;
}

size_t ixts_time_format(int64_t us, int fdig, char *buf) {
    int64_t days = us / US_PER_DAY, rem = us % US_PER_DAY;
    if (rem < 0) {
        rem += US_PER_DAY;
        days--;
    }
    int y, m, d;
    ixt_date_to_ymd((int32_t)(days + IXT_DATE_UNIX_EPOCH), &y, &m, &d);
    int64_t secs = rem / US_PER_SEC, frac = rem % US_PER_SEC;
    char *p = buf;
    if (y < 0 || y > 9999) y = 0; /* outside DATETIME: not reachable from parsed input */
    p = put2(p, y / 100);
    p = put2(p, y % 100);
    *p++ = '-';
    p = put2(p, m);
    *p++ = '-';
    p = put2(p, d);
    *p++ = ' ';
    p = put2(p, (int)(secs / 3600));
    *p++ = ':';
    p = put2(p, (int)(secs / 60 % 60));
    *p++ = ':';
    p = put2(p, (int)(secs % 60));
    if (fdig > 0) { /* the first fdig of the six digits of frac */
        if (fdig > 6) fdig = 6;
        *p++ = '.';
        char six[6];
        int f = (int)frac;
        put2(put2(put2(six, f / 10000), f / 100 % 100), f % 100);
        memcpy(p, six, (size_t)fdig);
        p += fdig;
    }
    *p = 0;
    return (size_t)(p - buf);
}

/* Units of '<n> <unit>' intervals. */
static const struct {
    const char *name;
    int64_t us;
} units[] = {
    {"microsecond", 1},          {"millisecond", 1000},       {"second", US_PER_SEC},
    {"minute", 60 * US_PER_SEC}, {"hour", 3600 * US_PER_SEC}, {"day", US_PER_DAY},
    {"week", 7 * US_PER_DAY},
};
/* Informix TimeSeries calendar names. */
static const struct {
    const char *name;
    int64_t us;
} calendars[] = {
    {"ts_1sec", US_PER_SEC},         {"ts_1min", 60 * US_PER_SEC},
    {"ts_5min", 300 * US_PER_SEC},   {"ts_15min", 900 * US_PER_SEC},
    {"ts_30min", 1800 * US_PER_SEC}, {"ts_1hour", 3600 * US_PER_SEC},
    {"ts_1day", US_PER_DAY},         {"ts_1week", 7 * US_PER_DAY},
};

/* 'D HH:MI:SS[.f]' (D optional) */
static int dtf_interval(const char *s, size_t n, int64_t *us) {
    size_t i = 0;
    int nd;
    int64_t days = 0, h, mi, sec, frac = 0;
    const char *sp = memchr(s, ' ', n);
    if (sp) {
        days = digits(s, n, &i, 9, &nd);
        if (days < 0 || s + i != sp) return -1;
        i++;
    }
    if ((h = digits(s, n, &i, 2, &nd)) < 0 || i >= n || s[i++] != ':') return -1;
    if ((mi = digits(s, n, &i, 2, &nd)) < 0 || i >= n || s[i++] != ':') return -1;
    if ((sec = digits(s, n, &i, 2, &nd)) < 0) return -1;
    if (i < n && s[i] == '.') {
        i++;
        if ((frac = digits(s, n, &i, 6, &nd)) < 0) return -1;
        for (int k = nd; k < 6; k++)
            frac *= 10;
    }
    if (i != n || h > 23 || mi > 59 || sec > 59 || days > IV_MAX_US / US_PER_DAY) return -1;
    *us = days * US_PER_DAY + ((h * 60 + mi) * 60 + sec) * US_PER_SEC + frac;
    return *us <= IV_MAX_US ? 0 : -1;
}

int ixts_interval_parse(const char *s, size_t n, int64_t *us, ixv_err *e) {
    while (n && s[n - 1] == ' ')
        n--;
    while (n && *s == ' ')
        s++, n--;
    for (size_t k = 0; k < sizeof calendars / sizeof calendars[0]; k++)
        if (strlen(calendars[k].name) == n && !strncasecmp(s, calendars[k].name, n)) {
            *us = calendars[k].us;
            return 0;
        }
    size_t i = 0;
    int nd;
    int64_t v = digits(s, n, &i, 18, &nd);
    if (v > 0 && i < n && s[i] == ' ') {
        size_t j = i;
        while (j < n && s[j] == ' ')
            j++;
        size_t ul = n - j;
        if (ul && (s[n - 1] == 's' || s[n - 1] == 'S')) ul--;
        for (size_t k = 0; k < sizeof units / sizeof units[0]; k++)
            if (strlen(units[k].name) == ul && !strncasecmp(s + j, units[k].name, ul)) {
                if (v > IV_MAX_US / units[k].us) break;
                *us = v * units[k].us;
                return 0;
            }
        if ((ul >= 5 && !strncasecmp(s + j, "month", 5)) ||
            (ul >= 4 && !strncasecmp(s + j, "year", 4)))
            return ixv_seterr(e, TS_E_ROUTINE, 0, 0,
                              "Month and year intervals are not supported (use days)");
    }
    if (dtf_interval(s, n, us) == 0 && *us > 0) return 0;
    return ixv_seterr(e, TS_E_ROUTINE, 0, 0, "Bad interval '%.*s'", (int)(n > 60 ? 60 : n), s);
}

void ixts_interval_format(int64_t us, char *buf, size_t n) {
    for (int k = (int)(sizeof units / sizeof units[0]) - 1; k >= 0; k--)
        if (us % units[k].us == 0) {
            int64_t v = us / units[k].us;
            snprintf(buf, n, "%lld %s%s", (long long)v, units[k].name, v == 1 ? "" : "s");
            return;
        }
    snprintf(buf, n, "%lld microseconds", (long long)us);
}
