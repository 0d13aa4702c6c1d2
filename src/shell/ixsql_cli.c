/*
 * ixsql_cli.c: the command line, dbaccess's first (getopt_long).
 *
 *   ixsql [options] [database[@server] | URL | keywords | -] [file.sql | -]
 *
 * dbaccess's options: -e echo, -a stop at the first error (or DBACCNOIGN=1),
 * -m all the error text, -q quiet, -X hex escapes in LOAD / UNLOAD, -V.
 * psql's: -c SQL (repeatable, in order with -f FILE), --format=FMT.
 */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "ixsql.h"
#include "ixsql_unl.h"

ixsql_options ixsql_opt;

static void usage(FILE *f) {
    fputs("usage: ixsql [options] [database[@server] | DSN | -] [file.sql | -]\n"
          "\n"
          "  database[@server]  as dbaccess takes it; \"-\": no database (the script\n"
          "                     selects one)\n"
          "  DSN                informix://user@host:port/database?server=NAME, or\n"
          "                     \"host=h port=p database=d user=u ...\"\n"
          "  file.sql | -       the script (default: standard input; on a terminal\n"
          "                     an interactive prompt)\n"
          "\n"
          "options:\n"
          "  -e, --echo             echo each statement before its result\n"
          "  -a, --stop-on-error    stop at the first failed statement (DBACCNOIGN=1)\n"
          "  -m, --all-errors       show the SQLSTATE and the server's whole message\n"
          "  -q, --quiet            no confirmations or row counts (errors still print)\n"
          "  -X, --hex              hex escapes in LOAD / UNLOAD files\n"
          "  -c, --command=SQL      run SQL (repeatable; in order with -f)\n"
          "  -f, --file=FILE        run a script file (repeatable)\n"
          "      --format=FMT       rows as aligned (dbaccess's layout, the default),\n"
          "                         unaligned ('|' between fields), csv, json,\n"
          "                         markdown or vertical (one line per column)\n"
          "      --client-files=DIR let FILETOBLOB / FILETOCLOB / LOTOFILE with the\n"
          "                         'client' location read and write files under DIR\n"
          "                         (default: refused, so a server cannot reach them)\n"
          "  -V, --version          print the version and exit\n"
          "  -h, --help             print this help and exit\n"
          "\n"
          "The password is never needed on the command line: it is read from\n"
          "$IXPASSWORD or $INFORMIXPASSWORD, from ~/.ixdbpass (mode 0600, lines\n"
          "host:port:database:user:password, * matches anything), or asked for\n"
          "on the terminal.\n"
          "Exit status: the number of failed statements (at most 125); 126 for a\n"
          "bad command line.\n",
          f);
}

enum { OPT_FORMAT = 256, OPT_CLIENT_FILES }; /* long options without a letter */

static const struct option long_opts[] = {
    {"echo", no_argument, NULL, 'e'},
    {"stop-on-error", no_argument, NULL, 'a'},
    {"all-errors", no_argument, NULL, 'm'},
    {"quiet", no_argument, NULL, 'q'},
    {"hex", no_argument, NULL, 'X'},
    {"command", required_argument, NULL, 'c'},
    {"file", required_argument, NULL, 'f'},
    {"version", no_argument, NULL, 'V'},
    {"help", no_argument, NULL, 'h'},
    {"format", required_argument, NULL, OPT_FORMAT},
    {"client-files", required_argument, NULL, OPT_CLIENT_FILES},
    {NULL, 0, NULL, 0},
};

static int bad_usage(ixsql_cmdline *cl, const char *why) {
    if (why) fprintf(stderr, "ixsql: %s\n", why);
    usage(stderr);
    ixsql_free_args(cl);
    return IXSQL_EXIT_USAGE;
}

/* The options; jobs from -c / -f are appended to cl. */
static int parse_options(int argc, char **argv, ixsql_cmdline *cl) {
    int c;
    opterr = 1;
    while ((c = getopt_long(argc, argv, "eamqXc:f:Vh", long_opts, NULL)) != -1) {
        switch (c) {
        case 'e': ixsql_opt.echo = 1; break;
        case 'a': ixsql_opt.stop = 1; break;
        case 'm': ixsql_opt.all_errors = 1; break;
        case 'q': ixsql_opt.quiet = 1; break;
        case 'X': ixsql_unl_set_hex(1); break;
        case OPT_FORMAT:
            if ((ixsql_opt.format = ixsql_fmt_parse(optarg)) < 0)
                return bad_usage(
                    cl, "--format takes aligned, unaligned, csv, json, markdown or vertical");
            break;
        case OPT_CLIENT_FILES: {
            struct stat st;
            if (stat(optarg, &st) != 0 || !S_ISDIR(st.st_mode))
                return bad_usage(cl, "--client-files takes a directory");
            ixsql_opt.client_files = optarg;
            break;
        }
        case 'c':
        case 'f':
            cl->jobs[cl->njobs].kind = c == 'c' ? IXSQL_JOB_SQL : IXSQL_JOB_FILE;
            cl->jobs[cl->njobs++].arg = optarg;
            break;
        case 'V':
            printf("ixsql %s\n", IXDB_VERSION_STRING);
            ixsql_free_args(cl);
            return 0;
        case 'h':
            usage(stdout);
            ixsql_free_args(cl);
            return 0;
        default: return bad_usage(cl, NULL); /* getopt printed the reason */
        }
    }
    return -1;
}

int ixsql_parse_args(int argc, char **argv, ixsql_cmdline *cl) {
    memset(cl, 0, sizeof *cl);
    memset(&ixsql_opt, 0, sizeof ixsql_opt);
    const char *noign = getenv("DBACCNOIGN");
    if (noign && strcmp(noign, "1") == 0) ixsql_opt.stop = 1;
    cl->jobs = calloc((size_t)argc + 1, sizeof *cl->jobs);
    if (!cl->jobs) return fputs("ixsql: out of memory\n", stderr), 1;
    int rc = parse_options(argc, argv, cl);
    if (rc >= 0) return rc;
    const char *file = NULL;
    if (optind < argc) cl->target = argv[optind++];
    if (optind < argc) file = argv[optind++];
    if (optind < argc) return bad_usage(cl, "too many arguments");
    if (file && cl->njobs) return bad_usage(cl, "a script file goes with neither -c nor -f");
    if (file || cl->njobs == 0) {
        cl->jobs[cl->njobs].kind = IXSQL_JOB_FILE;
        cl->jobs[cl->njobs++].arg = file ? file : "-";
    }
    return -1;
}

void ixsql_free_args(ixsql_cmdline *cl) {
    free(cl->jobs);
    cl->jobs = NULL;
    cl->njobs = 0;
}
