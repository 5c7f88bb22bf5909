/* SPDX-License-Identifier: MIT */
/*
** util.c — helpers shared by the `lodestar` subcommands.
*/
#define _POSIX_C_SOURCE 200809L
#include "util.h"

#include "lds_png.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

const char *cli_plain(const char *msg) {
  const char *q;
  if (strncmp(msg, "lds_", 4) != 0) return msg;
  for (q = msg + 4; (*q >= 'a' && *q <= 'z') || (*q >= '0' && *q <= '9') || *q == '_'; q++) {
  }
  return q[0] == ':' && q[1] == ' ' ? q + 2 : msg;
}

int cli_fail(const char *cmd, const char *fmt, ...) {
  char msg[8192]; /* room for a file name of PATH_MAX bytes and the text around it */
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  fprintf(stderr, "lodestar %s: %s\n", cmd, cli_plain(msg));
  return 2;
}

bool cli_int(const char *cmd, const char *what, const char *s, long lo, long hi, long *out) {
  char *end;
  long v;
  errno = 0;
  v = strtol(s, &end, 10);
  if (errno || end == s || *end || v < lo || v > hi) {
    cli_fail(cmd, "%s: expected an integer in %ld..%ld, got '%s'", what, lo, hi, s);
    return false;
  }
  *out = v;
  return true;
}

bool cli_double(const char *cmd, const char *what, const char *s, double lo, double hi,
                double *out) {
  char *end;
  double v;
  errno = 0;
  v = strtod(s, &end);
  if (errno || end == s || *end || !(v >= lo && v <= hi)) {
    cli_fail(cmd, "%s: expected a number in %g..%g, got '%s'", what, lo, hi, s);
    return false;
  }
  *out = v;
  return true;
}

const char *cli_num(char *buf, size_t size, double v) {
  if (isnan(v))
    snprintf(buf, size, "nan");
  else
    snprintf(buf, size, "%g", v);
  return buf;
}

uint64_t cli_now_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

uint64_t cli_cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double cli_quantile(double *v, size_t n, double q) {
  size_t k;
  if (n == 0) return 0.0;
  qsort(v, n, sizeof *v, cmp_double);
  k = (size_t)ceil(q * (double)n);
  if (k < 1) k = 1;
  if (k > n) k = n;
  return v[k - 1];
}

bool cli_check_path(const lds_Grid *g, const lds_Path *p, int32_t sx, int32_t sy, int32_t gx,
                    int32_t gy, double *cost, char *why) {
  lds_PathCheck opts;
  lds_PathCheckReport rep;
  lds_Error err;
  lds_path_check_init(&opts);
  opts.check_start = opts.check_goal = true;
  opts.sx = sx;
  opts.sy = sy;
  opts.gx = gx;
  opts.gy = gy;
  opts.check_cost = false; /* callers compare the cost themselves */
  if (lds_path_check(g, p, &opts, &rep, &err) != LDS_OK) {
    snprintf(why, 256, "%s", cli_plain(err.msg));
    return false;
  }
  *cost = rep.cost;
  return true;
}

/* Length of the well-formed UTF-8 sequence at s (1-4), or 0 when the bytes
** there are not one (a stray continuation byte, an overlong form, a
** surrogate, a code point above U+10FFFF, a truncated sequence). */
static int utf8_len(const unsigned char *s) {
  unsigned c = s[0];
  int n, k;
  unsigned cp;
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) n = 2, cp = c & 0x1F;
  else if (c >= 0xE0 && c <= 0xEF) n = 3, cp = c & 0x0F;
  else if (c >= 0xF0 && c <= 0xF4) n = 4, cp = c & 0x07;
  else return 0;
  for (k = 1; k < n; k++) {
    if ((s[k] & 0xC0) != 0x80) return 0; /* also stops at the terminating NUL */
    cp = cp << 6 | (s[k] & 0x3F);
  }
  if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) ||
      (cp >= 0xD800 && cp <= 0xDFFF))
    return 0;
  return n;
}

void cli_json_string(FILE *f, const char *s) {
  const unsigned char *p = (const unsigned char *)s;
  fputc('"', f);
  while (*p) {
    int n = utf8_len(p);
    if (n == 0) { /* not UTF-8 (a file name is any bytes): U+FFFD per byte */
      fputs("\\ufffd", f);
      p++;
    } else if (*p == '"' || *p == '\\') {
      fprintf(f, "\\%c", *p++);
    } else if (*p < 0x20 || *p == 0x7F) {
      fprintf(f, "\\u%04x", *p++);
    } else {
      fwrite(p, 1, (size_t)n, f);
      p += n;
    }
  }
  fputc('"', f);
}

bool cli_join(char *out, size_t size, const char *dir, const char *name) {
  int n = snprintf(out, size, "%s/%s", dir, name);
  return n > 0 && (size_t)n < size;
}

bool cli_file_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

bool cli_dir_exists(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

bool cli_not_dir(const char *cmd, const char *path) {
  struct stat st;
  if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
    cli_fail(cmd, "%s: cannot read (%s)", path, strerror(EISDIR));
    return false;
  }
  return true;
}

unsigned long cli_scen_line(const char *path, size_t index) {
  FILE *f = fopen(path, "rb");
  unsigned long line = 1, found = 0;
  size_t data = 0;       /* non-blank lines seen before this one */
  bool blank = true;     /* the current line holds only spaces, tabs, '\r' */
  int c;
  if (!f) return 0;
  while ((c = getc(f)) != EOF) {
    if (c == '\n') {
      if (!blank && data++ == index + 1) { /* data line 0 is the version line */
        found = line;
        break;
      }
      line++;
      blank = true;
    } else if (c != ' ' && c != '\t' && c != '\r') {
      blank = false;
    }
  }
  if (!found && c == EOF && !blank && data == index + 1) found = line; /* no final newline */
  fclose(f);
  return found;
}

const char *cli_scen_where(char *buf, size_t size, const char *path, size_t index) {
  unsigned long line = cli_scen_line(path, index);
  if (line) snprintf(buf, size, "%s:%lu", path, line);
  else snprintf(buf, size, "%s", path); /* not "PATH:0": no line is known */
  return buf;
}

bool cli_once(const char *cmd, cli_Seen *seen, const char *arg) {
  int k;
  if (arg[0] != '-' || arg[1] != '-') return true;
  for (k = 0; k < seen->n; k++)
    if (strcmp(seen->opt[k], arg) == 0) {
      cli_fail(cmd, "%s given twice (each option may be given once)", arg);
      return false;
    }
  if (seen->n < CLI_MAX_OPTIONS) seen->opt[seen->n++] = arg; /* more are unknown options */
  return true;
}

bool cli_seen(const cli_Seen *seen, const char *opt) {
  int k;
  for (k = 0; k < seen->n; k++)
    if (strcmp(seen->opt[k], opt) == 0) return true;
  return false;
}

bool cli_compatible(const char *cmd, const cli_Seen *seen, const char *a, const char *b,
                    const char *why) {
  if (!cli_seen(seen, a) || !cli_seen(seen, b)) return true;
  cli_fail(cmd, "%s and %s contradict each other (%s)", a, b, why);
  return false;
}

int cli_missing(const char *cmd, const char *what, const char *usage) {
  return cli_fail(cmd, "missing %s (usage: %s; try 'lodestar %s --help')", what, usage, cmd);
}

void cli_progress_begin(cli_Progress *pr, const char *cmd, const char *what, size_t total) {
  pr->on = isatty(2) && !getenv("LDS_NO_PROGRESS");
  pr->cmd = cmd;
  pr->what = what;
  pr->total = total;
  pr->t0 = pr->last = cli_now_ns();
}

void cli_progress(cli_Progress *pr, size_t done) {
  uint64_t now;
  if (!pr->on) return;
  now = cli_now_ns();
  if (now - pr->last < 250000000u) return;
  pr->last = now;
  fprintf(stderr, "\rlodestar %s: %zu/%zu %s (%.0f%%), %.1f s\033[K", pr->cmd, done, pr->total,
          pr->what, pr->total ? 100.0 * (double)done / (double)pr->total : 100.0,
          (double)(now - pr->t0) / 1e9);
  fflush(stderr);
}

void cli_progress_end(cli_Progress *pr) {
  if (!pr->on || pr->last == pr->t0) return; /* nothing was drawn */
  fputs("\r\033[K", stderr);
  fflush(stderr);
}

bool cli_picture(const char *cmd, const char *file, const lds_Grid *g, const lds_Search *s,
                 const lds_Path *p, int scale) {
  lds_PictureSpec spec;
  lds_Error err;
  lds_Path *post = p ? lds_path_prune_los(p, g, NULL) : NULL;
  lds_Status st;
  lds_picture_spec_init(&spec);
  spec.grid = g;
  spec.search = s;
  spec.path = p;
  spec.post = post;
  spec.scale = scale;
  st = lds_picture_write(file, &spec, &err);
  lds_path_free(post);
  if (st != LDS_OK) cli_fail(cmd, "--png: %s", cli_plain(err.msg));
  return st == LDS_OK;
}

bool cli_is_query_option(const char *a) {
  return strcmp(a, "--algo") == 0 || strcmp(a, "--heuristic") == 0 || strcmp(a, "--weight") == 0 ||
         strcmp(a, "--diagonal") == 0 || strcmp(a, "--neighbourhood") == 0;
}

bool cli_query_option(const char *cmd, const char *a, const char *v, lds_SearchParams *p,
                      lds_Diagonal *diag, long *nb) {
  if (strcmp(a, "--algo") == 0) {
    if (lds_algo_parse(v, &p->algo) == LDS_OK) return true;
    cli_fail(cmd, "--algo: unknown algorithm '%s' (expected astar, dijkstra, wastar, greedy, jps, "
             "jps+, theta or lazytheta)", v);
    return false;
  }
  if (strcmp(a, "--heuristic") == 0) {
    if (lds_heuristic_parse(v, &p->heuristic) == LDS_OK) return true;
    cli_fail(cmd, "--heuristic: unknown heuristic '%s' (expected auto, zero, manhattan, octile, "
             "euclidean or chebyshev)", v);
    return false;
  }
  if (strcmp(a, "--weight") == 0) return cli_double(cmd, "--weight", v, 1.0, 1e9, &p->weight);
  if (strcmp(a, "--diagonal") == 0) {
    if (lds_diagonal_parse(v, diag) == LDS_OK) return true;
    cli_fail(cmd, "--diagonal: unknown rule '%s' (expected never, no_corner_cutting, "
             "allow_one_blocked or always)", v);
    return false;
  }
  if (!cli_int(cmd, "--neighbourhood", v, 4, 8, nb) || (*nb != 4 && *nb != 8)) {
    cli_fail(cmd, "--neighbourhood: expected 4 or 8, got '%s'", v);
    return false;
  }
  return true;
}
