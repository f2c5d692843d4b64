/* nccl-tests *_perf tables (see the header). */
#include "cmd/calibrate/calibrate_input.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "util/input_file.h"
#include "util/msg_escape.h"
#include "util/number_text.h"
#include "util/path_msg.h"

#define MAX_FIELDS 32

static const char *const tests_names[COLL_KINDS] = {"all_reduce", "reduce_scatter", "all_gather", "alltoall"};

const char *calib_coll_tests_name(enum coll_kind k)
{
    return k < COLL_KINDS ? tests_names[k] : "?";
}

/* The collective a text names ("all_reduce_perf", "alltoall"), or -1;
 * *broadcast when it names broadcast, which Vimana does not model. */
static int coll_in(const char *text, bool *broadcast)
{
    for (int k = 0; k < COLL_KINDS; k++)
        if (strstr(text, tests_names[k]))
            return k;
    if (strstr(text, "broadcast") || strstr(text, "sendrecv") || strstr(text, "reduce_perf") ||
        strstr(text, "gather_perf") || strstr(text, "scatter_perf"))
        *broadcast = true;
    return -1;
}

/* nccl-tests lists each rank in its header: "#  Rank  0 Group  0 Pid ..." */
static bool is_rank_line(const char *s)
{
    s += strspn(s, "# \t");
    if (strncmp(s, "Rank", 4) != 0 || (s[4] != ' ' && s[4] != '\t'))
        return false;
    s += 4 + strspn(s + 4, " \t");
    return *s >= '0' && *s <= '9';
}

/* NCCL's own log lines, which NCCL_DEBUG=INFO (or WARN) interleaves with
 * the table: "host:pid:tid [dev] NCCL INFO ..." and "NCCL version ...". */
static bool is_nccl_log_line(const char *s)
{
    return strncmp(s, "NCCL version", 12) == 0 || strstr(s, " NCCL INFO ") || strstr(s, " NCCL WARN ") ||
           strstr(s, " NCCL TRACE ");
}

/* rccl-tests' banner before its table, lines without '#':
 * "rccl-tests: Version develop:a7809b3", "RCCL version : 2.22.3-HEAD",
 * "Hostname     : gpu-53", ... A letter first and a ':' in the line: a
 * table row starts with its size and never holds a ':'. */
static bool is_banner_line(const char *s)
{
    return ((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z')) && strchr(s, ':');
}

/* Past the tag `mpirun --tag-output` puts before every line of a rank,
 * "[1,0]<stdout>:", when s starts with one. */
static const char *past_mpi_tag(const char *s)
{
    const char *t = s;
    if (*t++ != '[')
        return s;
    t += strspn(t, "0123456789");
    if (*t++ != ',')
        return s;
    t += strspn(t, "0123456789");
    if (strncmp(t, "]<", 2) != 0)
        return s;
    t = strchr(t + 2, '>');
    return t && t[1] == ':' ? t + 2 : s;
}

typedef struct reader {
    const char *path;
    uint32_t line;
    uint32_t npus;       /* the topology's */
    uint32_t rank_lines; /* "#  Rank N ..." lines of the current header */
    bool rows_since_ranks; /* a table row came after them: the next rank line starts a new header */
    int coll;            /* -1 until known */
    bool other;          /* a collective Vimana does not have */
    char *err;
    size_t err_len;
} reader;

static int row_fail(reader *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int row_fail(reader *r, const char *fmt, ...)
{
    /* r->line >= 1: a row has a line, so the form is "PATH:LINE: MESSAGE" */
    va_list ap;
    va_start(ap, fmt);
    int rc = path_vmsg(r->err, r->err_len, r->path, r->line, 300, fmt, ap);
    va_end(ap);
    return rc;
}

/* A field of the file as a message shows it. */
static const char *shown(const char *text, char *buf, size_t len)
{
    return msg_escape(text, buf, len);
}

static int parse_time(reader *r, const char *text, double *out)
{
    double v;
    if (!finite_number_parse(text, &v) || v <= 0)
    {
        char b[96];
        return row_fail(r, "time '%s' is not a positive number of microseconds", shown(text, b, sizeof b));
    }
    /* one call of more than 11.6 days is a broken table, not a
     * measurement (1e300 was accepted and fitted) */
    if (v > 1e12) {
        char b[96];
        return row_fail(r, "time '%s' is above 10^12 microseconds (11.6 days for one call)", shown(text, b, sizeof b));
    }
    /* nccl-tests prints times with two decimals: less than 0.01 us (10 ns
     * for a whole collective call) is not a measurement either, and 1e-300
     * was fitted into an error of 10^302 % */
    if (v < 0.01) {
        char b[96];
        return row_fail(r, "time '%s' is below 0.01 microseconds (nccl-tests prints two decimals)",
                        shown(text, b, sizeof b));
    }
    *out = v * 1000.0;
    return 0;
}

/* One table row: size count type [redop root] then time algbw busbw #wrong,
 * out of place and in place (the in-place time may be N/A). */
static int parse_row(reader *r, char *line, calib_data *d)
{
    char *f[MAX_FIELDS];
    int n = 0;
    for (char *tok = strtok(line, " \t\r"); tok; tok = strtok(NULL, " \t\r")) {
        if (n == MAX_FIELDS)
            return row_fail(r, "expected an nccl-tests row, got more than %d fields", MAX_FIELDS);
        f[n++] = tok;
    }
    if (n < 11 || n > 13)
        return row_fail(r, "expected an nccl-tests row (size count type [redop root], then time algbw busbw "
                           "#wrong out of place and in place), got %d fields", n);
    char *end;
    errno = 0;
    unsigned long long size = strtoull(f[0], &end, 10);
    if (*end || errno || f[0][0] == '-') {
        char b[96];
        return row_fail(r, "size '%s' is not a whole number of bytes", shown(f[0], b, sizeof b));
    }
    if (r->coll < 0)
        return row_fail(r, "%s", r->other ? "the collective is not one Vimana simulates (all_reduce, all_gather, "
                                            "reduce_scatter, alltoall)"
                                          : "cannot tell the collective: name the file after the nccl-tests "
                                            "program (all_reduce_perf, ...)");
    if (size == 0)
        return 0;
    uint32_t npus = r->rank_lines ? r->rank_lines : r->npus;
    if (npus < 2)
        return row_fail(r, "measured on %u rank: a collective needs 2 or more", npus);
    if (size > 9007199254740991ull)
        return row_fail(r, "size %llu is beyond the 2^53-1 bytes a trace's comm_size can carry", size);   /* nccl-tests' -b 0 row: nothing to simulate */
    double oop, inplace = INFINITY;
    if (parse_time(r, f[n - 8], &oop) != 0)
        return -1;
    if (strcmp(f[n - 4], "N/A") != 0 && parse_time(r, f[n - 4], &inplace) != 0)
        return -1;
    uint64_t comm = size;
    if (r->coll == COLL_ALL_GATHER) {
        if (size % npus != 0)
            return row_fail(r, "all_gather size %llu is not a multiple of the %u ranks", size, npus);
        comm = size / npus;
    }
    if (d->n == d->cap) {
        size_t cap = d->cap ? 2 * d->cap : 64;
        calib_point *p = realloc(d->pts, cap * sizeof *p);
        if (!p)
            return row_fail(r, "out of memory");
        d->pts = p;
        d->cap = cap;
    }
    d->pts[d->n++] = (calib_point){(enum coll_kind)r->coll, size, comm, npus, fmin(oop, inplace), r->path,
                                  r->line, false};
    return 0;
}

int calib_read_file(const char *path, uint32_t npus, calib_data *d, char *err, size_t err_len)
{
    char why[200], shown[200];
    if (input_file_check(path, why, sizeof why) != 0) {
        snprintf(err, err_len, "%s: %s", msg_escape(path, shown, sizeof shown), why);
        return -1;
    }
    FILE *fp = fopen(path, "r");
    if (!fp) {
        snprintf(err, err_len, "%s: cannot open: %s", msg_escape(path, shown, sizeof shown), strerror(errno));
        return -1;
    }
    reader r = {path, 0, npus, 0, false, -1, false, err, err_len};
    const char *base = strrchr(path, '/');
    r.coll = coll_in(base ? base + 1 : path, &r.other);
    size_t before = d->n, cap = 0;
    char *line = NULL;
    int rc = 0;
    while (rc == 0 && getline(&line, &cap, fp) != -1) {
        r.line++;
        char *s = line + strspn(line, " \t\r\n");
        s = (char *)past_mpi_tag(s);
        s += strspn(s, " \t\r\n");
        if (*s == '\0' || is_nccl_log_line(s) || is_banner_line(s))
            continue;
        if (*s == '#') {
            if (is_rank_line(s)) {
                /* a second run's header in the same file counts afresh */
                if (r.rows_since_ranks)
                    r.rank_lines = 0;
                r.rows_since_ranks = false;
                r.rank_lines++;
            }
            bool other = false;
            int k = coll_in(s, &other);
            if (k >= 0 || other) {
                r.coll = k;
                r.other = other;
            }
            continue;
        }
        rc = parse_row(&r, s, d);
        r.rows_since_ranks = true;
    }
    free(line);
    fclose(fp);
    if (rc == 0 && d->n == before) {
        snprintf(err, err_len, "%s: no measurements (no nccl-tests table row)", msg_escape(path, shown, sizeof shown));
        rc = -1;
    }
    return rc;
}

void calib_data_free(calib_data *d)
{
    free(d->pts);
    *d = (calib_data){0};
}
