/*
 * ix_locale.c: code sets. The client side is UTF-8 unless CLIENT_LOCALE
 * names another code set; when DB_LOCALE's code set differs, SQL text, bound
 * text and fetched character values are converted with iconv (one pair of
 * descriptors per connection, so connections in different threads never
 * share one).
 *
 * Informix locale names are language_territory.codeset, where the code set
 * is a name or an IBM CCSID number; the table below maps both to the names
 * glibc's iconv knows (docs/c-api.md repeats it).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "ix_client_int.h"
#include "ix_conn_int.h"

static const struct {
    const char *ifx[4]; /* Informix spellings (names and CCSID numbers) */
    const char *iconv;
} codesets[] = {
    {{"utf8", "utf-8", "57372", NULL}, "UTF-8"},
    {{"8859-1", "819", "iso88591", NULL}, "ISO-8859-1"},
    {{"8859-2", "912", NULL, NULL}, "ISO-8859-2"},
    {{"8859-5", "915", NULL, NULL}, "ISO-8859-5"},
    {{"8859-6", "1089", NULL, NULL}, "ISO-8859-6"},
    {{"8859-7", "813", NULL, NULL}, "ISO-8859-7"},
    {{"8859-8", "916", NULL, NULL}, "ISO-8859-8"},
    {{"8859-9", "920", NULL, NULL}, "ISO-8859-9"},
    {{"8859-13", "921", NULL, NULL}, "ISO-8859-13"},
    {{"8859-15", "923", NULL, NULL}, "ISO-8859-15"},
    {{"cp1250", "1250", NULL, NULL}, "CP1250"},
    {{"cp1251", "1251", NULL, NULL}, "CP1251"},
    {{"cp1252", "1252", NULL, NULL}, "CP1252"},
    {{"cp1253", "1253", NULL, NULL}, "CP1253"},
    {{"cp1254", "1254", NULL, NULL}, "CP1254"},
    {{"cp1255", "1255", NULL, NULL}, "CP1255"},
    {{"cp1256", "1256", NULL, NULL}, "CP1256"},
    {{"cp1257", "1257", NULL, NULL}, "CP1257"},
    {{"pc-latin-1", "850", NULL, NULL}, "CP850"},
    {{"pc-latin-2", "852", NULL, NULL}, "CP852"},
    {{"437", "cp437", NULL, NULL}, "CP437"},
    {{"koi8-r", "878", NULL, NULL}, "KOI8-R"},
    {{"sjis-s", "sjis", "932", NULL}, "CP932"},
    {{"ujis", "eucjp", "5050", NULL}, "EUC-JP"},
    {{"big5", "950", NULL, NULL}, "BIG5"},
    {{"gb", "gb2312-80", "1381", NULL}, "GB2312"},
    {{"gb18030-2000", "gb18030", "5488", NULL}, "GB18030"},
    {{"ksc", "ksc5601", "970", NULL}, "EUC-KR"},
    {{"thai620", "tis620", "874", NULL}, "TIS-620"},
    {{"ascii", "646", "367", NULL}, "ASCII"},
};

const char *ix_locale_codeset(const char *locale) {
    if (!locale || !*locale) return NULL;
    const char *dot = strrchr(locale, '.');
    const char *cs = dot ? dot + 1 : locale;
    char name[40];
    size_t n = strcspn(cs, "@"); /* "en_US.8859-1@euro": the modifier is not part of it */
    if (n == 0 || n >= sizeof name) return NULL;
    memcpy(name, cs, n);
    name[n] = 0;
    for (size_t i = 0; i < sizeof codesets / sizeof codesets[0]; i++)
        for (int k = 0; k < 4 && codesets[i].ifx[k]; k++)
            if (strcasecmp(name, codesets[i].ifx[k]) == 0) return codesets[i].iconv;
    return NULL;
}

void ixc_locale_free(ix_conn *c) {
    if (c->st.cv_to_db != (iconv_t)-1) iconv_close(c->st.cv_to_db);
    if (c->st.cv_from_db != (iconv_t)-1) iconv_close(c->st.cv_from_db);
    c->st.cv_to_db = c->st.cv_from_db = (iconv_t)-1;
}

int ixc_locale_setup(ix_conn *c, const char *client_locale, const char *db_locale, char *err,
                     size_t errlen) {
    const char *ccs = "UTF-8", *dcs;
    if (client_locale && *client_locale && !(ccs = ix_locale_codeset(client_locale))) {
        snprintf(err, errlen, "unknown code set in CLIENT_LOCALE \"%s\"", client_locale);
        return IX_EINVAL;
    }
    dcs = ccs;
    if (db_locale && *db_locale && !(dcs = ix_locale_codeset(db_locale))) {
        snprintf(err, errlen, "unknown code set in DB_LOCALE \"%s\"", db_locale);
        return IX_EINVAL;
    }
    if (strcmp(ccs, dcs) == 0) return IX_OK;
    c->st.cv_to_db = iconv_open(dcs, ccs);
    c->st.cv_from_db = iconv_open(ccs, dcs);
    if (c->st.cv_to_db == (iconv_t)-1 || c->st.cv_from_db == (iconv_t)-1) {
        ixc_locale_free(c);
        snprintf(err, errlen, "no conversion between %s and %s", ccs, dcs);
        return IX_EINVAL;
    }
    return IX_OK;
}

int ixc_convert(iconv_t cd, const void *in, size_t n, ixb_wbuf *out) {
    iconv(cd, NULL, NULL, NULL, NULL); /* initial shift state */
    char *ip = (char *)(uintptr_t)in;
    size_t il = n;
    for (;;) {
        size_t room = il * 4 + 16;
        if (ixb_wbuf_reserve(out, room) != IX_OK) return IX_ENOMEM;
        char *op = (char *)out->data + out->len;
        size_t ol = room;
        size_t k = il ? iconv(cd, &ip, &il, &op, &ol) : iconv(cd, NULL, NULL, &op, &ol);
        out->len += room - ol;
        if (k != (size_t)-1) {
            if (il == 0) {
                /* Flush the shift state of stateful encodings. */
                room = 16;
                if (ixb_wbuf_reserve(out, room) != IX_OK) return IX_ENOMEM;
                op = (char *)out->data + out->len;
                ol = room;
                iconv(cd, NULL, NULL, &op, &ol);
                out->len += room - ol;
                return IX_OK;
            }
            continue;
        }
        if (errno != E2BIG) return IX_EINVAL;
    }
}

int ixc_is_char_type(int code) {
    switch (code) {
    case IX_T_CHAR:
    case IX_T_NCHAR:
    case IX_T_VARCHAR:
    case IX_T_NVARCHAR:
    case IX_T_LVARCHAR:
    case IX_T_TEXT: return 1;
    default: return 0;
    }
}

int ixc_sql_to_db(ix_conn *c, const char *sql, size_t n, const char **wire, size_t *wn) {
    *wire = sql;
    *wn = n;
    if (c->st.cv_to_db == (iconv_t)-1) return IX_OK;
    ixb_wbuf_reset(&c->conv);
    int rc = ixc_convert(c->st.cv_to_db, sql, n, &c->conv);
    if (rc != IX_OK)
        return ixc_fail(c, rc,
                        rc == IX_ENOMEM ? "out of memory"
                                        : "the SQL text has a character that the database code "
                                          "set cannot hold (or is not valid in the client's)");
    *wire = (const char *)c->conv.data;
    *wn = c->conv.len;
    return IX_OK;
}

const char *ixc_dbdate(const ix_conn *c) {
    return c->dbdate;
}
