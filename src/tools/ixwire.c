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
 * Options (getopt_long) may stand anywhere after the command.
 * Exit status: 0 success, 1 usage error, 2 malformed input (with a one-line
 * message naming the offset and what was wrong).
 */
#include <getopt.h>
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

static void usage(FILE *f) {
    fputs("usage: ixwire value TYPE ENCODED_LENGTH HEX [--iso] [--dbdate FMT] [--dbmoney FMT]\n"
          "       ixwire decode --from client|server [--caps f62,f63,...|auto] [--iso] HEX|-\n"
          "       ixwire --help | --version\n"
          "\n"
          "  value     print one tuple value (TYPE a name such as DECIMAL or a code)\n"
          "  decode    print one line per message of a stream (HEX, or - for stdin)\n"
          "\n"
          "options:\n"
          "      --iso              dates as YYYY-MM-DD (DBDATE=Y4MD-)\n"
          "      --dbdate=FMT       dates as DBDATE FMT (value)\n"
          "      --dbmoney=FMT      money as DBMONEY FMT (value)\n"
          "  -f, --from=ROLE        who sent the stream: client or server (decode)\n"
          "  -c, --caps=LIST        granted capabilities, or auto (the default; decode)\n"
          "  -V, --version          print the version and exit\n"
          "  -h, --help             print this help and exit\n"
          "\n"
          "Exit status: 0 success, 1 usage error, 2 malformed input.\n",
          f);
}

/* A bad command line: the reason (unless getopt gave it), exit status 1. */
static int bad_usage(const char *why) {
    if (why) fprintf(stderr, "ixwire: %s\n", why);
    fputs("Try 'ixwire --help' for more information.\n", stderr);
    return 1;
}

enum { OPT_ISO = 256, OPT_DBDATE, OPT_DBMONEY }; /* long options without a letter */

static const struct option long_opts[] = {
    {"iso", no_argument, NULL, OPT_ISO},
    {"dbdate", required_argument, NULL, OPT_DBDATE},
    {"dbmoney", required_argument, NULL, OPT_DBMONEY},
    {"from", required_argument, NULL, 'f'},
    {"caps", required_argument, NULL, 'c'},
    {"version", no_argument, NULL, 'V'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

/* The options of both commands, wherever they stand (GNU getopt permutes);
 * the positional arguments are left in argv[optind..argc). */
typedef struct wire_opts {
    ixt_fmt fmt;
    const char *from, *caps;
    int done; /* --help or --version printed */
} wire_opts;

static int parse_opts(int argc, char **argv, wire_opts *w) {
    int c;
    optind = 1;
    opterr = 1;
    while ((c = getopt_long(argc, argv, "f:c:Vh", long_opts, NULL)) != -1) {
        switch (c) {
        case OPT_ISO: w->fmt.dbdate = "Y4MD-"; break;
        case OPT_DBDATE: w->fmt.dbdate = optarg; break;
        case OPT_DBMONEY: w->fmt.dbmoney = optarg; break;
        case 'f': w->from = optarg; break;
        case 'c': w->caps = optarg; break;
        case 'V': printf("ixwire %s\n", IXDB_VERSION_STRING), w->done = 1; return 0;
        case 'h': usage(stdout), w->done = 1; return 0;
        default: return bad_usage(NULL); /* getopt named the option */
        }
    }
    return 0;
}

static int malformed(size_t at, const char *why) {
    fprintf(stderr, "ixwire: malformed input at offset %zu: %s\n", at, why);
    return 2;
}

/* Reads all of stdin into out (hex text). */
static int read_stdin(ixb_wbuf *out) {
    char buf[65536];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, stdin)) > 0)
        ixb_put_bytes(out, buf, n);
    return out->err;
}

static int hex_arg(const char *arg, ixb_wbuf *bytes) {
    ixb_wbuf text;
    ixb_wbuf_init(&text, NULL);
    const char *s = arg;
    size_t n = strlen(arg);
    if (strcmp(arg, "-") == 0) {
        if (read_stdin(&text)) {
            fprintf(stderr, "ixwire: cannot read standard input\n");
            ixb_wbuf_free(&text);
            return 1;
        }
        s = (const char *)text.data;
        n = text.len;
    }
    size_t bad = 0;
    int rc = ixb_hex_decode(s ? s : "", n, bytes, &bad);
    ixb_wbuf_free(&text);
    if (rc != IX_OK) {
        fprintf(stderr, "ixwire: bad hex text at character %zu\n", bad);
        return 2;
    }
    return 0;
}

static int cmd_value(int npos, char **pos, const wire_opts *wo) {
    ixt_fmt fmt = wo->fmt;
    if (wo->from || wo->caps) return bad_usage("--from and --caps go with decode");
    if (npos != 3) return bad_usage("value takes TYPE ENCODED_LENGTH HEX");
    int code = ixt_type_from_name(pos[0]);
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
    ixb_wbuf bytes, out;
    ixb_wbuf_init(&bytes, NULL);
    ixb_wbuf_init(&out, NULL);
    int rc = hex_arg(pos[2], &bytes);
    if (rc) goto done;
    ixt_vtype t = {ixt_vtype_resolve(code, NULL), (uint32_t)enclen};
    size_t used = 0;
    int st = ixt_value_extent(t, bytes.data, bytes.len, bytes.len, 0, &used);
    if (st == IX_NEED_MORE) {
        size_t w = ixt_value_fixed_width(t);
        char why[96];
        if (w)
            snprintf(why, sizeof why, "%s value needs %zu bytes, got %zu", ixt_type_name(t.code), w,
                     bytes.len);
        else
            snprintf(why, sizeof why, "%s value is truncated", ixt_type_name(t.code));
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
                 ixt_type_name(t.code));
        rc = malformed(used, why);
        goto done;
    }
    st = ixt_value_format(t, bytes.data, bytes.len, &fmt, &out);
    if (st == IX_NULL_VALUE) {
        printf("NULL\n");
    } else if (st != IX_OK) {
        char why[96];
        snprintf(why, sizeof why, "not a valid %s encoding", ixt_type_name(t.code));
        rc = malformed(0, why);
    } else {
        fwrite(out.data, 1, out.len, stdout);
        putchar('\n');
    }
done:
    ixb_wbuf_free(&bytes);
    ixb_wbuf_free(&out);
    return rc;
}

static int cmd_decode(int npos, char **pos, const wire_opts *wo) {
    const char *from = wo->from, *caps_s = wo->caps ? wo->caps : "auto";
    ixt_fmt fmt = {.dbdate = wo->fmt.dbdate};
    if (wo->fmt.dbmoney) return bad_usage("--dbmoney goes with value");
    if (!from) return bad_usage("decode needs --from client|server");
    if (npos != 1) return bad_usage("decode takes one HEX argument (or -)");
    const char *input = pos[0];
    ixp_role role;
    if (strcmp(from, "client") == 0)
        role = IXP_FROM_CLIENT;
    else if (strcmp(from, "server") == 0)
        role = IXP_FROM_SERVER;
    else
        return bad_usage("--from takes client or server");
    int learn = strcmp(caps_s, "auto") == 0;
    ixp_caps caps = {0};
    if (!learn && ixp_caps_parse_list(caps_s, &caps) != 0) {
        fprintf(stderr, "ixwire: unknown capability in %s (known: f44 f54 f62 f63 f69 f70)\n",
                caps_s);
        return 1;
    }
    ixb_wbuf bytes;
    ixb_wbuf_init(&bytes, NULL);
    int rc = hex_arg(input, &bytes);
    if (rc) {
        ixb_wbuf_free(&bytes);
        return rc;
    }
    ixp_reader r;
    ixp_reader_init(&r, role, NULL);
    r.caps = caps;
    r.expect_login = ixp_sl_looks_like(bytes.data, bytes.len);
    ixp_printer pr;
    ixp_printer_init(&pr, NULL);
    pr.caps = caps;
    pr.fmt = fmt;
    ixb_wbuf line;
    ixb_wbuf_init(&line, NULL);
    rc = ixp_reader_feed(&r, bytes.data, bytes.len) == IX_OK ? 0 : 2;
    while (rc == 0) {
        uint64_t at = ixp_reader_offset(&r);
        ixp_msg m;
        int st = ixp_reader_next(&r, &m);
        if (st == IX_NEED_MORE) {
            if (ixp_reader_pending(&r))
                rc = malformed((size_t)ixp_reader_offset(&r) + ixp_reader_pending(&r),
                               "input ends inside a message");
            break;
        }
        if (st != IX_OK) {
            rc = malformed((size_t)ixp_reader_offset(&r), ixp_reader_why(&r));
            break;
        }
        ixb_wbuf_reset(&line);
        ixp_print_msg(&pr, role, &m, &line);
        printf("%06llu %.*s\n", (unsigned long long)at, (int)line.len, (const char *)line.data);
        /* --caps auto: a server's SQ_PROTOCOLS answer is the granted set; for
         * a client's offer, assume what ixd would grant of it. */
        if (learn && m.tag == IXP_SQ_PROTOCOLS) {
            uint8_t ans[IXP_CAPS_ANSWER_LEN];
            r.caps = pr.caps =
                role == IXP_FROM_SERVER
                    ? ixp_caps_from_bits(m.u.protocols.p, m.u.protocols.n)
                    : ixp_caps_answer(m.u.protocols.p, m.u.protocols.n, ixp_caps_ixd, ans);
        }
    }
    ixb_wbuf_free(&line);
    ixp_printer_free(&pr);
    ixp_reader_free(&r);
    ixb_wbuf_free(&bytes);
    return rc;
}

int main(int argc, char **argv) {
    wire_opts w = {0};
    int rc = parse_opts(argc, argv, &w);
    if (rc || w.done) return rc;
    int npos = argc - optind;
    char **pos = argv + optind;
    if (npos < 1) return bad_usage("a command is needed: value or decode");
    if (strcmp(pos[0], "value") == 0) return cmd_value(npos - 1, pos + 1, &w);
    if (strcmp(pos[0], "decode") == 0) return cmd_decode(npos - 1, pos + 1, &w);
    fprintf(stderr, "ixwire: unknown command '%s'\n", pos[0]);
    return bad_usage(NULL);
}
