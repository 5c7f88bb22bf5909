/* SPDX-License-Identifier: MIT */
/*
** util.h — shared helpers of the `lodestar` command's subcommands.
** Each subcommand is `int cli_NAME(int argc, char **argv)` returning the exit
** status: 0 success, 1 check failed (mismatches), 2 bad input.
*/
#ifndef LDS_CLI_H
#define LDS_CLI_H

#include "lds.h"
#include "lds_io.h"

#include <stdio.h>

/* msg without a leading library function name ("lds_scen_load: cannot open
** F" -> "cannot open F"): command-line messages name the command instead.
** Returns a pointer into msg. */
const char *cli_plain(const char *msg);
/* `lodestar hier` (hier.c): the cluster hierarchy against A* */
int cli_hier(int argc, char **argv);
/* Prints "lodestar CMD: message" to stderr (the message through cli_plain)
** and returns 2. */
int cli_fail(const char *cmd, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Strict number parsing; on failure print an error naming the argument. */
bool cli_int(const char *cmd, const char *what, const char *s, long lo, long hi, long *out);
bool cli_double(const char *cmd, const char *what, const char *s, double lo, double hi,
                double *out);
/* v as %g into buf[size], but "nan" for every NaN: printf writes "-nan"
** for a NaN with the sign bit set (0/0 on x86), which reads like a
** different value. Returns buf. */
const char *cli_num(char *buf, size_t size, double v);
/* Wall clock in nanoseconds (CLOCK_MONOTONIC). */
uint64_t cli_now_ns(void);
/* CPU time of the calling thread in nanoseconds (CLOCK_THREAD_CPUTIME_ID):
** for benchmarks on a shared machine, where wall time counts other jobs. */
uint64_t cli_cpu_ns(void);
/* Sorts a copy-free array of doubles in place and returns the q-quantile
** (nearest rank, q in [0,1]); 0 for n == 0. */
double cli_quantile(double *v, size_t n, double q);
/* lds_path_check with both endpoints and without the cost comparison: the
** path's moves are legal and it runs from (sx,sy) to (gx,gy); *cost is the
** cost recomputed from the cells. false with the reason in why[256]. */
bool cli_check_path(const lds_Grid *g, const lds_Path *p, int32_t sx, int32_t sy, int32_t gx,
                    int32_t gy, double *cost, char *why);
/* Writes s as a JSON string literal that is valid UTF-8 whatever the bytes
** of s: well-formed UTF-8 is kept, quotes, backslashes and control
** characters are escaped, and each byte that is not part of a well-formed
** UTF-8 sequence is written as \ufffd (a file name may hold any byte). */
void cli_json_string(FILE *f, const char *s);
/* Joins dir and name into out[size]; false if it does not fit. */
bool cli_join(char *out, size_t size, const char *dir, const char *name);
bool cli_file_exists(const char *path);
bool cli_dir_exists(const char *path);
/* false after printing "lodestar CMD: PATH: cannot read (Is a directory)"
** when path names a directory (the loaders' stdio cannot tell why). */
bool cli_not_dir(const char *cmd, const char *path);
/* Line number (1-based) of problem `index` (0-based) of a .scen file: the
** index-th non-blank line after the version line, as lds_scen_load counts;
** 0 when the file cannot be read or is shorter. */
unsigned long cli_scen_line(const char *path, size_t index);
/* "PATH:LINE" of problem `index` in buf, or just "PATH" when cli_scen_line
** finds no line (the file cannot be read again: a pipe, a removed file).
** Returns buf. */
const char *cli_scen_where(char *buf, size_t size, const char *path, size_t index);
/* The options met on one command line: each may be given once (a repeat
** is an error, so a script cannot silently lose a value to a later one). */
#define CLI_MAX_OPTIONS 40
typedef struct cli_Seen {
  const char *opt[CLI_MAX_OPTIONS];
  int n;
} cli_Seen;
/* Records the option arg ("--algo"); when it was met before, prints
** "lodestar CMD: --algo given twice (each option may be given once)" and
** returns false. Arguments not starting with "--" are ignored (true). */
bool cli_once(const char *cmd, cli_Seen *seen, const char *arg);
/* true when option opt ("--alt") was recorded in seen by cli_once. */
bool cli_seen(const cli_Seen *seen, const char *opt);
/* Rejects two options that contradict each other: when both a and b were
** given, prints "lodestar CMD: a and b contradict each other (why)" and
** returns false (the caller exits 2, the usage-error status). */
bool cli_compatible(const char *cmd, const cli_Seen *seen, const char *a, const char *b,
                    const char *why);
/* Prints "lodestar CMD: missing WHAT (usage: USAGE; try 'lodestar CMD
** --help')" on one line and returns 2. */
int cli_missing(const char *cmd, const char *what, const char *usage);

/* A progress line on stderr for long runs ("lodestar scen: 1200/5000
** queries (24%), 3.1 s"), redrawn at most 4 times a second, only when
** stderr is a terminal (never in a pipe or a log file) and LDS_NO_PROGRESS
** is unset; cli_progress_end erases it. */
typedef struct cli_Progress {
  bool on;
  const char *cmd, *what;
  size_t total;
  uint64_t t0, last;
} cli_Progress;
void cli_progress_begin(cli_Progress *pr, const char *cmd, const char *what, size_t total);
void cli_progress(cli_Progress *pr, size_t done);
void cli_progress_end(cli_Progress *pr);

/* --png: the picture of search s on g with path p (may be NULL) and p
** pruned by line of sight, written to file at `scale` pixels per cell
** (0: automatic). false after printing "lodestar CMD: ..." on failure. */
bool cli_picture(const char *cmd, const char *file, const lds_Grid *g, const lds_Search *s,
                 const lds_Path *p, int scale);

/* html.c: s as a JSON string that is safe inside an HTML <script> (quotes,
** backslashes, controls and < > & escaped; each byte >= 0x80 as \ufffd). */
void cli_html_string(FILE *f, const char *s);
/* Writes the page (lines, NULL-terminated) to file: "@TITLE@" replaced by
** title as HTML text, "@DATA@" by what data(f, ud) writes (one JSON value).
** false after printing "lodestar CMD: --html: cannot write FILE (why)". */
bool cli_html_write(const char *cmd, const char *file, const char *const *page, const char *title,
                    void (*data)(FILE *f, void *ud), void *ud);

/* The options of one grid query that `path` and `trace` share: --algo,
** --heuristic, --weight, --diagonal, --neighbourhood. cli_is_query_option
** tells whether `a` is one; cli_query_option stores its value v in *p,
** *diag or *nb and returns true, or prints the error naming the option and
** returns false. */
bool cli_is_query_option(const char *a);
bool cli_query_option(const char *cmd, const char *a, const char *v, lds_SearchParams *p,
                      lds_Diagonal *diag, long *nb);

int cli_scen(int argc, char **argv);
int cli_trace(int argc, char **argv);
int cli_path(int argc, char **argv);
int cli_graph(int argc, char **argv);
int cli_demo(int argc, char **argv);
int cli_dstar(int argc, char **argv);
int cli_mesh(int argc, char **argv);
int cli_mesh_build(int argc, char **argv);

#endif
