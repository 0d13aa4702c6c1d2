/*
 * ixwire: an open SQLI protocol decoder.
 *
 *   ixwire value TYPE ENCODED_LENGTH HEX [--iso] [--dbdate FMT] [--dbmoney FMT]
 *   ixwire decode --from client|server [--caps LIST|auto] [--iso] HEX|-
 *
 * `value` prints one tuple value as dbaccess prints it, or NULL.
 * `decode` prints one line per message with its decoded fields; a stream
 * that starts with an SL-framed login packet is decoded from the login on.
 * With --caps auto (the default) the granted capabilities are learnt from
 * SQ_PROTOCOLS: a server's answer is the granted set; for a client's offer
 * ixwire assumes what ixd grants of it (f54, f62, f63).
 * Exit status: 0 success, 1 usage error, 2 malformed input (with a one-line
 * message naming the offset and what was wrong).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/ix_hex.h"
#include "proto/ix_login.h"
#include "proto/ix_print.h"
#include "proto/ix_reader.h"
#include "types/ix_types.h"
#include "types/ix_value.h"

static int usage(void) {
    fprintf(stderr,
            "usage: ixwire value TYPE ENCODED_LENGTH HEX [--iso] [--dbdate FMT] [--dbmoney FMT]\n"
            "       ixwire decode --from client|server [--caps f62,f63,...|auto] [--iso] HEX|-\n");
    return 1;
}

static int malformed(size_t at, const char *why) {
    fprintf(stderr, "ixwire: malformed input at offset %zu: %s\n", at, why);
    return 2;
}

/* Reads all of stdin into out (hex text). */
static int read_stdin(ix_wbuf *out) {
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
        ix_put_bytes(out, buf, n);
    return out->err;
}

static int hex_arg(const char *arg, ix_wbuf *bytes) {
    ix_wbuf text;
    ix_wbuf_init(&text, NULL);
    const char *s = arg;
    size_t n = strlen(arg);
    if (strcmp(arg, "-") == 0) {
        if (read_stdin(&text)) {
            fprintf(stderr, "ixwire: cannot read standard input\n");
            ix_wbuf_free(&text);
            return 1;
        }
        s = (const char *)text.data;
        n = text.len;
    }
    size_t bad = 0;
    int rc = ix_hex_decode(s ? s : "", n, bytes, &bad);
    ix_wbuf_free(&text);
    if (rc != IX_OK) {
        fprintf(stderr, "ixwire: bad hex text at character %zu\n", bad);
        return 2;
    }
    return 0;
}

static int cmd_value(int argc, char **argv) {
    const char *pos[3];
    int npos = 0;
    ix_fmt fmt = {0};
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--iso") == 0)
            fmt.dbdate = "Y4MD-";
        else if (strcmp(argv[i], "--dbdate") == 0 && i + 1 < argc)
            fmt.dbdate = argv[++i];
        else if (strcmp(argv[i], "--dbmoney") == 0 && i + 1 < argc)
            fmt.dbmoney = argv[++i];
        else if (npos < 3)
            pos[npos++] = argv[i];
        else
            return usage();
    }
    if (npos != 3) return usage();
    int code = ix_type_from_name(pos[0]);
    if (code < 0) {
        char *end;
        long v = strtol(pos[0], &end, 0);
        if (*end || v < 0 || v > 255) {
            fprintf(stderr, "ixwire: unknown type %s\n", pos[0]);
            return 1;
        }
        code = (int)v;
    }
    char *end;
    unsigned long enclen = strtoul(pos[1], &end, 0);
    if (*end || enclen > 0xffffffffUL) {
        fprintf(stderr, "ixwire: bad encoded length %s\n", pos[1]);
        return 1;
    }
    ix_wbuf bytes, out;
    ix_wbuf_init(&bytes, NULL);
    ix_wbuf_init(&out, NULL);
    int rc = hex_arg(pos[2], &bytes);
    if (rc) goto done;
    ix_vtype t = {ix_vtype_resolve(code, NULL), (uint32_t)enclen};
    size_t used = 0;
    int st = ix_value_extent(t, bytes.data, bytes.len, bytes.len, 0, &used);
    if (st == IX_NEED_MORE) {
        size_t w = ix_value_fixed_width(t);
        char why[96];
        if (w)
            snprintf(why, sizeof why, "%s value needs %zu bytes, got %zu", ix_type_name(t.code), w,
                     bytes.len);
        else
            snprintf(why, sizeof why, "%s value is truncated", ix_type_name(t.code));
        rc = malformed(bytes.len, why);
        goto done;
    }
    if (st != IX_OK) {
        rc = malformed(0, "value length field is invalid");
        goto done;
    }
    if (used != bytes.len) {
        char why[96];
        snprintf(why, sizeof why, "%zu trailing bytes after the %s value", bytes.len - used,
                 ix_type_name(t.code));
        rc = malformed(used, why);
        goto done;
    }
    st = ix_value_format(t, bytes.data, bytes.len, &fmt, &out);
    if (st == IX_NULL_VALUE) {
        printf("NULL\n");
    } else if (st != IX_OK) {
        char why[96];
        snprintf(why, sizeof why, "not a valid %s encoding", ix_type_name(t.code));
        rc = malformed(0, why);
    } else {
        fwrite(out.data, 1, out.len, stdout);
        putchar('\n');
    }
done:
    ix_wbuf_free(&bytes);
    ix_wbuf_free(&out);
    return rc;
}

static int cmd_decode(int argc, char **argv) {
    const char *from = NULL, *caps_s = "auto", *input = NULL;
    ix_fmt fmt = {0};
    for (int i = 0; i < argc; i++) {
        if (strcmp(argv[i], "--from") == 0 && i + 1 < argc)
            from = argv[++i];
        else if (strcmp(argv[i], "--caps") == 0 && i + 1 < argc)
            caps_s = argv[++i];
        else if (strcmp(argv[i], "--iso") == 0)
            fmt.dbdate = "Y4MD-";
        else if (!input)
            input = argv[i];
        else
            return usage();
    }
    if (!from || !input) return usage();
    ix_role role;
    if (strcmp(from, "client") == 0)
        role = IX_FROM_CLIENT;
    else if (strcmp(from, "server") == 0)
        role = IX_FROM_SERVER;
    else
        return usage();
    int learn = strcmp(caps_s, "auto") == 0;
    ix_caps caps = {0};
    if (!learn && ix_caps_parse_list(caps_s, &caps) != 0) {
        fprintf(stderr, "ixwire: unknown capability in %s (known: f44 f54 f62 f63 f69 f70)\n",
                caps_s);
        return 1;
    }
    ix_wbuf bytes;
    ix_wbuf_init(&bytes, NULL);
    int rc = hex_arg(input, &bytes);
    if (rc) {
        ix_wbuf_free(&bytes);
        return rc;
    }
    ix_reader r;
    ix_reader_init(&r, role, NULL);
    r.caps = caps;
    r.expect_login = ix_sl_looks_like(bytes.data, bytes.len);
    ix_printer pr;
    ix_printer_init(&pr, NULL);
    pr.caps = caps;
    pr.fmt = fmt;
    ix_wbuf line;
    ix_wbuf_init(&line, NULL);
    rc = ix_reader_feed(&r, bytes.data, bytes.len) == IX_OK ? 0 : 2;
    while (rc == 0) {
        uint64_t at = ix_reader_offset(&r);
        ix_msg m;
        int st = ix_reader_next(&r, &m);
        if (st == IX_NEED_MORE) {
            if (ix_reader_pending(&r))
                rc = malformed((size_t)ix_reader_offset(&r) + ix_reader_pending(&r),
                               "input ends inside a message");
            break;
        }
        if (st != IX_OK) {
            rc = malformed((size_t)ix_reader_offset(&r), ix_reader_why(&r));
            break;
        }
        ix_wbuf_reset(&line);
        ix_print_msg(&pr, role, &m, &line);
        printf("%06llu %.*s\n", (unsigned long long)at, (int)line.len, (const char *)line.data);
        /* --caps auto: a server's SQ_PROTOCOLS answer is the granted set; for
         * a client's offer, assume what ixd would grant of it. */
        if (learn && m.tag == IX_SQ_PROTOCOLS) {
            uint8_t ans[IX_CAPS_ANSWER_LEN];
            r.caps = pr.caps =
                role == IX_FROM_SERVER
                    ? ix_caps_from_bits(m.u.protocols.p, m.u.protocols.n)
                    : ix_caps_answer(m.u.protocols.p, m.u.protocols.n, ix_caps_ixd, ans);
        }
    }
    ix_wbuf_free(&line);
    ix_printer_free(&pr);
    ix_reader_free(&r);
    ix_wbuf_free(&bytes);
    return rc;
}

int main(int argc, char **argv) {
    if (argc < 2) return usage();
    if (strcmp(argv[1], "value") == 0) return cmd_value(argc - 2, argv + 2);
    if (strcmp(argv[1], "decode") == 0) return cmd_decode(argc - 2, argv + 2);
    return usage();
}
