/* SPDX-License-Identifier: MIT */
/*
** graph.c — `lodestar graph`: load a DIMACS road graph, answer a list of
** queries "s t dist" and check every distance (dist -1 = unreachable).
*/
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CMD "graph"

typedef struct Query {
  uint32_t s, t;   /* 0-based node ids */
  double dist;     /* expected distance, -1 = unreachable */
} Query;

static void usage(FILE *f) {
  fprintf(f,
          "usage: lodestar graph FILE.gr [--co FILE.co] --queries FILE\n"
          "                      [--algo astar|dijkstra|wastar|greedy] [--weight W]\n"
          "                      [--h-scale K] [--limit N] [--json]\n"
          "Loads a 9th DIMACS challenge graph (.gr arcs, optional .co coordinates; .gz\n"
          "files are read directly), answers every query line 's t dist' (DIMACS ids,\n"
          "1-based; dist -1 = t unreachable from s) and checks each distance. Blank\n"
          "lines and lines starting with 'c' or '#' are skipped; a query file with no\n"
          "query, a NUL byte or a line over 511 characters is bad input.\n"
          "  --co FILE      node coordinates (lon/lat x 1e6): A* uses the great-circle\n"
          "                 heuristic scaled by the largest consistent factor; without\n"
          "                 it the heuristic is zero\n"
          "  --algo A       search algorithm (default astar)\n"
          "  --weight W     weight of weighted A* (W >= 1; default 1.5; only with\n"
          "                 --algo wastar)\n"
          "  --h-scale K    cost per metre for the heuristic instead of the automatic\n"
          "                 scale (closed nodes are then reopened); needs --co\n"
          "  --limit N      read and answer only the first N queries (0 = all, the\n"
          "                 default: at most 100000000 are read)\n"
          "  --json         print one JSON object as the last line\n"
          "Each option may be given once.\n"
          "Exit status: 0 every query answered as the file says, with a legal path, at\n"
          "the expected distance for astar and dijkstra (wastar and greedy may cost\n"
          "more); 1 a query with no path found (for any algorithm: the file gives a\n"
          "distance, so the pair is connected; -1 pairs are expected to have none), a\n"
          "path found for a -1 pair (any algorithm), an illegal path, or a distance\n"
          "mismatch of an optimal algorithm; each is\n"
          "reported on stderr; 2 bad input.\n");
}

#define QLINE_MAX 512 /* [Limit: characters per query line, newline included] */

/* Reads one line of f into line[QLINE_MAX] without its "\n" or "\r\n".
** Returns 1 for a line, 0 at the end of the file, -1 after printing an
** error (a NUL byte, an over-long line, a read error): never reads more
** than QLINE_MAX bytes without returning, so a stream without newlines
** (/dev/zero) cannot make it loop. */
static int read_line(FILE *f, const char *path, unsigned long no, unsigned long long *off,
                     char *line) {
  size_t n = 0;
  int c;
  for (;;) {
    c = getc(f);
    if (c == EOF) {
      if (ferror(f)) {
        cli_fail(CMD, "%s:%lu: read error (%s)", path, no, strerror(errno));
        return -1;
      }
      if (n == 0) return 0;
      break;
    }
    if (c == '\0') {
      cli_fail(CMD, "%s:%lu: binary data (a NUL byte at offset %llu; expected a text file)",
               path, no, *off);
      return -1;
    }
    (*off)++;
    if (c == '\n') break;
    if (n + 1 >= QLINE_MAX) {
      cli_fail(CMD, "%s:%lu: line longer than %d characters (expected 's t dist')", path, no,
               QLINE_MAX - 1);
      return -1;
    }
    line[n++] = (char)c;
  }
  if (n > 0 && line[n - 1] == '\r') n--;
  line[n] = '\0';
  return 1;
}

/* At most this many queries are read without --limit: a query stream with
** no end (a pipe, a device) is an error, not a process that grows without
** bound (16 bytes a query: 1.6 GB). */
#define QUERIES_MAX 100000000L

/* Reads the query file, the first `limit` queries only when limit > 0;
** returns the count (>= 1) or -1 after printing an error (an empty file is
** an error, as an empty .scen file is). */
static long read_queries(const char *path, uint32_t n, long limit, Query **out) {
  FILE *f;
  char line[QLINE_MAX];
  unsigned long no = 0;
  unsigned long long off = 0;
  size_t cnt = 0, cap = 0;
  Query *q = NULL;
  int got;
  if (!cli_not_dir(CMD, path)) return -1;
  errno = 0;
  f = fopen(path, "rb");
  if (!f) {
    cli_fail(CMD, "%s: cannot open the query file (%s)", path, strerror(errno));
    return -1;
  }
  got = 1;
  while ((limit <= 0 || cnt < (size_t)limit) && (got = read_line(f, path, ++no, &off, line)) > 0) {
    long long s, t;
    double d;
    char extra;
    const char *p = line;
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '\0' || *p == '#' || *p == 'c') continue;
    if (sscanf(p, "%lld %lld %lf %c", &s, &t, &d, &extra) != 3) {
      cli_fail(CMD, "%s:%lu: expected 's t dist', got '%.40s'", path, no, p);
      goto bad;
    }
    if (s < 1 || s > (long long)n || t < 1 || t > (long long)n) {
      cli_fail(CMD, "%s:%lu: expected node ids in 1..%lu, got %lld", path, no, (unsigned long)n,
               (s < 1 || s > (long long)n) ? s : t);
      goto bad;
    }
    if (!(d >= 0.0 || d == -1.0) || isinf(d)) {
      char num[32];
      cli_fail(CMD, "%s:%lu: expected a distance >= 0 or -1, got %s", path, no,
               cli_num(num, sizeof num, d));
      goto bad;
    }
    if (cnt == (size_t)QUERIES_MAX) {
      cli_fail(CMD, "%s:%lu: more than %ld queries (expected a file; use --limit N to answer "
               "the first N)", path, no, QUERIES_MAX);
      goto bad;
    }
    if (cnt == cap) {
      size_t nc = cap ? cap * 2 : 256;
      Query *nq = (Query *)realloc(q, nc * sizeof *q);
      if (!nq) {
        cli_fail(CMD, "out of memory");
        goto bad;
      }
      q = nq;
      cap = nc;
    }
    q[cnt].s = (uint32_t)(s - 1);
    q[cnt].t = (uint32_t)(t - 1);
    q[cnt].dist = d;
    cnt++;
  }
  if (got < 0) goto bad;
  if (cnt == 0) {
    cli_fail(CMD, "%s: no queries in the file (expected lines 's t dist')", path);
    goto bad;
  }
  fclose(f);
  *out = q;
  return (long)cnt;
bad:
  fclose(f);
  free(q);
  return -1;
}

/* Checks a graph path: starts at s, ends at t, every step an edge; returns
** its cost (cheapest parallel edge per step). */
static bool check_path(const lds_Graph *g, const lds_Path *p, uint32_t s, uint32_t t,
                       double *cost, char *why) {
  size_t i, n = lds_path_length(p);
  double c = 0.0;
  if (n == 0 || lds_path_node(p, 0) != s || lds_path_node(p, n - 1) != t) {
    snprintf(why, 256, "path does not run from %lu to %lu", (unsigned long)s + 1,
             (unsigned long)t + 1);
    return false;
  }
  for (i = 1; i < n; i++) {
    const uint32_t *dst;
    const double *cs;
    uint32_t u = lds_path_node(p, i - 1), v = lds_path_node(p, i), k,
             deg = lds_graph_out_edges(g, u, &dst, &cs, NULL);
    double best = INFINITY;
    for (k = 0; k < deg; k++)
      if (dst[k] == v && cs[k] < best) best = cs[k];
    if (best == INFINITY) {
      snprintf(why, 256, "step %zu: no arc %lu->%lu", i, (unsigned long)u + 1,
               (unsigned long)v + 1);
      return false;
    }
    c += best;
  }
  *cost = c;
  return true;
}

/* One run of the command: options, graph, queries, tallies. */
typedef struct Run {
  const char *gr, *co, *qpath;
  lds_SearchParams params;
  long limit, nq, done;
  bool json, optimal_algo;
  lds_Graph *g;
  lds_Search *s;
  Query *qs;
  double *times, max_err, total_ns, load_ms, h_scale;
  uint64_t expansions;
  long mismatches, illegal, unreachable, unsolved, phantom;
  size_t node_bytes, edge_bytes;
} Run;

/* Parses argv into r; -1 to go on, else the exit status (0 after --help,
** 2 on bad input, with the message printed). */
static int parse_args(int argc, char **argv, Run *r) {
  int a;
  cli_Seen seen = {{0}, 0};
  for (a = 2; a < argc; a++) {
    const char *arg = argv[a];
    if (!cli_once(CMD, &seen, arg)) return 2;
    if (strcmp(arg, "-h") == 0 || strcmp(arg, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(arg, "--json") == 0) {
      r->json = true;
    } else if (strcmp(arg, "--co") == 0 || strcmp(arg, "--queries") == 0 ||
               strcmp(arg, "--algo") == 0 || strcmp(arg, "--limit") == 0 ||
               strcmp(arg, "--weight") == 0 || strcmp(arg, "--h-scale") == 0) {
      const char *v = a + 1 < argc ? argv[++a] : NULL;
      if (!v) return cli_fail(CMD, "%s: missing value", arg);
      if (strcmp(arg, "--co") == 0) {
        r->co = v;
      } else if (strcmp(arg, "--queries") == 0) {
        r->qpath = v;
      } else if (strcmp(arg, "--algo") == 0) {
        if (lds_algo_parse(v, &r->params.algo) != LDS_OK || r->params.algo == LDS_ALGO_JPS ||
            r->params.algo == LDS_ALGO_JPS_PLUS)
          return cli_fail(CMD, "--algo: unknown algorithm '%s' (expected astar, dijkstra, "
                          "wastar or greedy)", v);
      } else if (strcmp(arg, "--weight") == 0) {
        if (!cli_double(CMD, "--weight", v, 1.0, 1e9, &r->params.weight)) return 2;
      } else if (strcmp(arg, "--h-scale") == 0) {
        if (!cli_double(CMD, "--h-scale", v, 0.0, 1e300, &r->params.h_scale)) return 2;
      } else {
        if (!cli_int(CMD, "--limit", v, 0, 1000000000L, &r->limit)) return 2;
      }
    } else if (arg[0] == '-' && arg[1]) {
      return cli_fail(CMD, "unknown option '%s' (try 'lodestar graph --help')", arg);
    } else if (!r->gr) {
      r->gr = arg;
    } else {
      return cli_fail(CMD, "unexpected argument '%s' (one .gr file expected)", arg);
    }
  }
  if (!r->gr || !r->qpath) /* one line naming what is missing (--help shows the usage) */
    return cli_missing(CMD, r->gr ? "--queries FILE" : "FILE.gr",
                       "lodestar graph FILE.gr --queries FILE ...");
  if (r->params.weight != 0.0 && r->params.algo != LDS_ALGO_WASTAR) /* 0: not given */
    return cli_fail(CMD, "--weight applies to --algo wastar only (algorithm is %s)",
                    lds_algo_name(r->params.algo));
  /* without coordinates the heuristic is zero whatever its scale */
  if (r->params.h_scale > 0.0 && !r->co)
    return cli_fail(CMD, "--h-scale needs --co coordinates (without them the heuristic is zero)");
  if (!cli_not_dir(CMD, r->gr) || (r->co && !cli_not_dir(CMD, r->co))) return 2;
  return -1;
}

/* The graph (timed), the queries and the search; 0, or the exit status
** after printing the error. */
static int setup(Run *r) {
  lds_Error err;
  uint64_t t0 = cli_now_ns();
  r->g = lds_graph_load_dimacs(NULL, r->gr, r->co, &err);
  if (!r->g) return cli_fail(CMD, "%s", err.msg);
  r->h_scale = lds_graph_h_scale(r->g); /* part of the load: computed once per version */
  r->load_ms = (double)(cli_now_ns() - t0) / 1e6;
  lds_graph_mem_used(r->g, &r->node_bytes, &r->edge_bytes);
  r->nq = read_queries(r->qpath, lds_graph_node_count(r->g), r->limit, &r->qs);
  if (r->nq < 0) return 2;
  if (r->limit && r->nq > r->limit) r->nq = r->limit;
  r->s = lds_search_new_graph(NULL, r->g, &err);
  r->times = (double *)calloc(r->nq ? (size_t)r->nq : 1, sizeof(double));
  if (!r->s || !r->times) return cli_fail(CMD, "%s", r->s ? "out of memory" : err.msg);
  return 0;
}

/* Checks a found path (legal, cost from the arcs, against the expected
** distance) and adds it to the tallies. */
static void record_path(Run *r, long i, const Query *q, const lds_Path *path) {
  double c = 0.0, cost = lds_path_cost(path);
  char why[256];
  if (!check_path(r->g, path, q->s, q->t, &c, why)) {
    r->illegal++;
    fprintf(stderr, "query %ld: %s\n", i + 1, why);
  } else if (fabs(c - cost) > 1e-9 * (cost > 1.0 ? cost : 1.0)) {
    r->illegal++;
    fprintf(stderr, "query %ld: reported cost %.10g but the arcs cost %.10g\n", i + 1, cost,
            c);
  }
  if (q->dist == -1.0) { /* a failure for any algorithm: the file says unreachable */
    r->mismatches++;
    r->phantom++;
    fprintf(stderr, "query %ld: %lu->%lu found cost %.10g, expected unreachable\n", i + 1,
            (unsigned long)q->s + 1, (unsigned long)q->t + 1, cost);
  } else {
    double ae = fabs(cost - q->dist);
    if (ae > r->max_err) r->max_err = ae;
    if (ae > 1e-9 * (q->dist > 1.0 ? q->dist : 1.0)) {
      r->mismatches++;
      if (r->optimal_algo)
        fprintf(stderr, "query %ld: %lu->%lu cost %.10g, expected %.10g\n", i + 1,
                (unsigned long)q->s + 1, (unsigned long)q->t + 1, cost, q->dist);
    }
  }
}

/* Answers query i (timed), checks and tallies it; 0, or the exit status
** after printing the error. */
static int solve(Run *r, long i) {
  const Query *q = &r->qs[i];
  lds_Status st;
  lds_Path *path = NULL;
  lds_Stats stats;
  lds_Error err;
  uint64_t q0, q1;
  q0 = cli_now_ns();
  st = lds_search_start_nodes(r->s, &r->params, q->s, q->t);
  if (st == LDS_OK) st = lds_search_step(r->s, NULL);
  if (st == LDS_FOUND) path = lds_search_path(r->s, &err);
  q1 = cli_now_ns();
  if (st < 0 || (st == LDS_FOUND && !path))
    return cli_fail(CMD, "%s: query %ld: %s", r->qpath, i + 1,
                    st < 0 ? lds_search_errmsg(r->s) : err.msg);
  if (i == 0) r->h_scale = lds_search_h_scale(r->s);
  r->times[r->done++] = (double)(q1 - q0) / 1000.0;
  r->total_ns += (double)(q1 - q0);
  lds_search_stats(r->s, &stats);
  r->expansions += stats.expansions;
  if (!path) {
    r->unreachable++;
    if (q->dist != -1.0) { /* a failure for any algorithm: the file says connected */
      r->unsolved++;
      r->mismatches++;
      fprintf(stderr, "query %ld: %lu->%lu no path found, expected %.10g\n", i + 1,
              (unsigned long)q->s + 1, (unsigned long)q->t + 1, q->dist);
    }
  } else {
    record_path(r, i, q, path);
    lds_path_free(path);
  }
  return 0;
}

/* The summary (and the --json line); returns the exit status. */
static int report(Run *r) {
  long done = r->done, mismatches = r->mismatches, unsolved = r->unsolved, phantom = r->phantom;
  double total_ms = r->total_ns / 1e6, med = cli_quantile(r->times, (size_t)done, 0.5),
         p99 = cli_quantile(r->times, (size_t)done, 0.99);
  uint32_t nn = lds_graph_node_count(r->g), ne = lds_graph_edge_count(r->g);
  double bpn = nn ? (double)r->node_bytes / nn : 0.0, bpe = ne ? (double)r->edge_bytes / ne : 0.0;
  double sbpn = nn ? (double)lds_search_mem_used(r->s) / nn : 0.0;
  const char *algo = lds_algo_name(r->params.algo);
  const char *hname = r->params.algo == LDS_ALGO_DIJKSTRA || r->h_scale == 0.0 ? "zero"
                      : lds_graph_coords(r->g) == LDS_COORDS_LONLAT           ? "great_circle"
                                                                              : "euclidean";
  printf("lodestar graph %s\n", r->gr);
  printf("  graph       %lu nodes, %lu arcs, coordinates %s%s%s\n", (unsigned long)nn,
         (unsigned long)ne, lds_coords_name(lds_graph_coords(r->g)), r->co ? " from " : "",
         r->co ? r->co : "");
  printf("  load        %.2f ms; graph %.1f bytes/node + %.1f bytes/arc; search %.1f "
         "bytes/node\n", r->load_ms, bpn, bpe, sbpn);
  printf("  algorithm   %s", algo);
  if (r->params.algo == LDS_ALGO_WASTAR)
    printf(" (w = %g)", r->params.weight == 0.0 ? 1.5 : r->params.weight);
  printf(", heuristic %s, scale %.9g%s\n", hname, r->h_scale,
         r->params.h_scale > 0.0 ? " (user)" : " (automatic: largest consistent)");
  printf("  %-9s %-11s %-8s %-13s %-11s %-10s %-10s\n", "queries", "mismatches", "illegal",
         "expansions", "median_us", "p99_us", "total_ms");
  printf("  %-9ld %-11ld %-8ld %-13llu %-11.2f %-10.2f %-10.2f\n", done, mismatches, r->illegal,
         (unsigned long long)r->expansions, med, p99, total_ms);
  if (r->unreachable > unsolved)
    printf("  %ld queries found no path (expected unreachable)\n", r->unreachable - unsolved);
  /* mismatches counts the queries without a path too (the --json key) */
  if (unsolved)
    printf("  FAIL: %ld of %ld queries found no path (the query file gives "
           "them a distance)\n", unsolved, done);
  if (phantom)
    printf("  FAIL: %ld of %ld queries found a path the query file marks unreachable\n",
           phantom, done);
  if (mismatches > unsolved + phantom && !r->optimal_algo)
    printf("  (%s is not optimal: %ld of %ld distances differ, max error %.10g)\n", algo,
           mismatches - unsolved - phantom, done, r->max_err);
  else if (mismatches > unsolved + phantom)
    printf("  FAIL: %ld of %ld distances differ from the expected ones (max |error| %.10g)\n",
           mismatches - unsolved - phantom, done, r->max_err);
  else if (done && !unsolved && !phantom)
    printf("  ok: every distance matches (max |error| %.3g)\n", r->max_err);
  if (r->json) {
    printf("{\"algo\":");
    cli_json_string(stdout, algo);
    printf(",\"graph\":");
    cli_json_string(stdout, r->gr);
    printf(",\"queries\":%ld,\"mismatches\":%ld,\"illegal_paths\":%ld,\"max_abs_error\":%.9g,"
           "\"expansions\":%llu,\"median_us\":%.3f,\"p99_us\":%.3f,\"total_ms\":%.3f,"
           "\"load_ms\":%.3f,\"nodes\":%lu,\"arcs\":%lu,\"heuristic\":\"%s\",\"h_scale\":%.12g,"
           "\"bytes_per_node\":%.2f,\"bytes_per_edge\":%.2f,\"search_bytes_per_node\":%.2f}\n",
           done, mismatches, r->illegal, r->max_err, (unsigned long long)r->expansions, med, p99,
           total_ms, r->load_ms, (unsigned long)nn, (unsigned long)ne, hname, r->h_scale, bpn,
           bpe, sbpn);
  }
  return r->illegal || unsolved || phantom || (r->optimal_algo && mismatches) ? 1 : 0;
}

int cli_graph(int argc, char **argv) {
  Run r;
  long i;
  int rc;
  memset(&r, 0, sizeof r);
  lds_search_params_init(&r.params);
  if ((rc = parse_args(argc, argv, &r)) >= 0) return rc;
  r.optimal_algo = r.params.algo == LDS_ALGO_ASTAR || r.params.algo == LDS_ALGO_DIJKSTRA;
  rc = setup(&r);
  {
    cli_Progress pr;
    cli_progress_begin(&pr, CMD, "queries", (size_t)r.nq);
    for (i = 0; rc == 0 && i < r.nq; i++) {
      rc = solve(&r, i);
      cli_progress(&pr, (size_t)i + 1);
    }
    cli_progress_end(&pr);
  }
  if (rc == 0) rc = report(&r);
  lds_search_free(r.s);
  lds_graph_free(r.g);
  free(r.qs);
  free(r.times);
  return rc;
}
