/* SPDX-License-Identifier: MIT */
/*
** mesh.c — `lodestar mesh`: load a navigation mesh (.nav or OBJ), run every
** query of a .queries file (shared/data/navmesh/README.md) with the funnel
** or the optimal search, and check each path: on the mesh, endpoints right,
** length recomputed; compare with Detour's length and the exact optimum
** when the file has them.
*/
#include "util.h"

#include "lds_navmesh_search.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CMD "mesh"

/* One query's answer, kept by the timed pass for the checks after it. */
typedef struct Result {
  lds_Status st;
  double len;   /* lds_navsearch_length when found, else NAN */
  double *pts;  /* the path's points, owned (NULL: none) */
  size_t np;
  char msg[LDS_ERRMSG_SIZE]; /* the error message when st < 0 */
} Result;

typedef struct Query {
  double s[3], g[3];
  double detour_len; /* -1 = Detour found no complete path */
  double opt_len;    /* NAN when the file has no column 9 */
  unsigned long line;
} Query;

static void usage(FILE *f) {
  fprintf(f,
          "usage: lodestar mesh MESH(.nav|.obj) --queries FILE.queries [--algo funnel|optimal]\n"
          "                     [--limit N] [--warmup N] [--snap R] [--fast] [--json]\n"
          "Loads a navigation mesh (.nav text or Wavefront OBJ, told apart by content),\n"
          "runs every query line 'sx sy sz gx gy gz detour_len detour_corners [opt_len]'\n"
          "and checks each path: every segment on the mesh (walked polygon to polygon),\n"
          "first and last point the located start and goal, length recomputed.\n"
          "  --algo A     funnel (corridor A* + funnel, default) or optimal (Polyanya)\n"
          "  --limit N    only the first N queries (0 = all)\n"
          "  --warmup N   run the first N queries once, untimed, before timing all\n"
          "  --snap R     largest distance from a query point to the mesh (default 2)\n"
          "  --fast       funnel: the point-chain corridor search alone instead of the\n"
          "               portal-state search (faster, longer paths more often; not\n"
          "               thorough)\n"
          "  --json       print one JSON object as the last line: queries, reached,\n"
          "               mean_len, median_us, p99_us, total_ms, and where the file has\n"
          "               them longer_than_detour, detour_reached_missed,\n"
          "               max_rel_error_vs_opt, mismatches_vs_opt (relative error > 1e-6)\n"
          "Times are per query (point location, search, path), wall clock; the queries\n"
          "run back to back and their paths are checked after, untimed.\n"
          "Exit status: 0 every path legal (and, for optimal, no mismatch against\n"
          "opt_len; a query Detour reached is reached); 1 a check failed (reported on\n"
          "stderr); 2 bad input.\n");
}

static bool parse_queries(const char *path, Query **out, size_t *n_out, size_t limit) {
  FILE *f = fopen(path, "rb");
  char line[1024];
  unsigned long no = 0;
  Query *q = NULL;
  size_t n = 0, cap = 0;
  if (!f) {
    cli_fail(CMD, "cannot open %s (%s)", path, strerror(errno));
    return false;
  }
  while (fgets(line, sizeof line, f)) {
    Query x;
    double v[9];
    int k = 0;
    char *p = line, *end;
    no++;
    if (!strchr(line, '\n') && !feof(f)) {
      fclose(f);
      free(q);
      cli_fail(CMD, "%s:%lu: line too long (expected at most 1023 characters)", path, no);
      return false;
    }
    while (*p == ' ' || *p == '\t') p++;
    if (*p == '\n' || *p == '\r' || *p == '\0' || *p == '#') continue;
    while (k < 9) {
      errno = 0;
      v[k] = strtod(p, &end);
      if (end == p) break;
      if (!isfinite(v[k])) break;
      p = end;
      k++;
    }
    while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++;
    if (k < 8 || *p) {
      fclose(f);
      free(q);
      cli_fail(CMD, "%s:%lu: expected 'sx sy sz gx gy gz detour_len detour_corners [opt_len]' "
                    "(8 or 9 finite numbers)", path, no);
      return false;
    }
    memcpy(x.s, v, sizeof x.s);
    memcpy(x.g, v + 3, sizeof x.g);
    x.detour_len = v[6];
    x.opt_len = k == 9 ? v[8] : NAN;
    x.line = no;
    if (n == cap) {
      Query *nq;
      cap = cap ? 2 * cap : 512;
      nq = (Query *)realloc(q, cap * sizeof *q);
      if (!nq) {
        fclose(f);
        free(q);
        cli_fail(CMD, "out of memory reading %s", path);
        return false;
      }
      q = nq;
    }
    q[n++] = x;
    if (limit && n >= limit) break;
  }
  fclose(f);
  if (n == 0) {
    free(q);
    cli_fail(CMD, "%s: no query", path);
    return false;
  }
  *out = q;
  *n_out = n;
  return true;
}

static double dist3(const double *a, const double *b) {
  double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
  return sqrt(dx * dx + dy * dy + dz * dz);
}

/* One float ulp at the largest |coordinate| of p: the spacing of the
** single-precision numbers the query file's points were rounded to. */
static double float_ulp(const double *p) {
  int e;
  double m = fmax(fabs(p[0]), fmax(fabs(p[1]), fabs(p[2])));
  if (!(m > 0)) return 0;
  (void)frexp(m, &e); /* 2^(e-1) <= m < 2^e: floats there are 2^(e-24) apart */
  return ldexp(1.0, e - 24);
}

/* How much longer than Detour's a path may be before it counts as longer:
** the file's 6 decimals (1e-6, relative and absolute), and the two
** endpoints. Detour's path runs from the query points as given
** (findStraightPath keeps a point inside its polygon as it is), ours from
** those points snapped onto the polygon's surface (lds_navmesh_nearest);
** each point moved by d changes the length by at most d. That distance
** is allowed up to one float ulp of the point's coordinates, which is how
** far from the surface rounding the sampled point to float can leave it
** (its x and z move by half an ulp each, its height stays); a point
** further off the surface than that gets no allowance. */
static double detour_allowance(const Query *q, const double *sp, const double *gp) {
  double ds = dist3(q->s, sp), dg = dist3(q->g, gp);
  return q->detour_len * 1e-6 + 1e-6 + (ds <= float_ulp(q->s) ? ds : 0) +
         (dg <= float_ulp(q->g) ? dg : 0);
}

int cli_mesh(int argc, char **argv) {
  const char *mesh_path = NULL, *qpath = NULL;
  lds_NavParams prm;
  lds_Navmesh *m;
  lds_NavSearch *s;
  lds_Error err;
  Query *qs = NULL;
  Result *res = NULL;
  size_t nq = 0, i, reached = 0, longer = 0, missed = 0, mism = 0, bad = 0, nopt = 0, ndet = 0;
  long limit = 0, warmup = 0;
  bool json = false;
  double *us, sum_len = 0, max_rel = 0, total_us = 0;
  int a;
  cli_Seen seen = {{0}, 0};
  lds_nav_params_init(&prm);
  for (a = 2; a < argc; a++) {
    const char *o = argv[a];
    if (!cli_once(CMD, &seen, o)) return 2;
    if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(o, "--queries") == 0 && a + 1 < argc) {
      qpath = argv[++a];
    } else if (strcmp(o, "--algo") == 0 && a + 1 < argc) {
      if (lds_nav_algo_parse(argv[++a], &prm.algo) != LDS_OK)
        return cli_fail(CMD, "--algo '%s': expected funnel or optimal", argv[a]);
    } else if (strcmp(o, "--limit") == 0 && a + 1 < argc) {
      if (!cli_int(CMD, "--limit", argv[++a], 0, 100000000, &limit)) return 2;
    } else if (strcmp(o, "--warmup") == 0 && a + 1 < argc) {
      if (!cli_int(CMD, "--warmup", argv[++a], 0, 100000000, &warmup)) return 2;
    } else if (strcmp(o, "--snap") == 0 && a + 1 < argc) {
      if (!cli_double(CMD, "--snap", argv[++a], 0, 1e300, &prm.snap_radius)) return 2;
    } else if (strcmp(o, "--json") == 0) {
      json = true;
    } else if (strcmp(o, "--fast") == 0) {
      prm.thorough = false;
    } else if (o[0] == '-' && o[1]) {
      return cli_fail(CMD, "unknown option or missing value '%s' (try --help)", o);
    } else if (!mesh_path) {
      mesh_path = o;
    } else {
      return cli_fail(CMD, "unexpected argument '%s' (one MESH; try --help)", o);
    }
  }
  if (!mesh_path) return cli_fail(CMD, "missing MESH (usage: lodestar mesh MESH --queries FILE)");
  if (!qpath) return cli_fail(CMD, "missing --queries FILE");
  if (prm.algo == LDS_NAV_OPTIMAL && !prm.thorough)
    return cli_fail(CMD, "--fast and --algo optimal contradict each other (--fast is a funnel-mode "
                    "setting; the optimal search has no corridor states to drop)");
  if (!cli_not_dir(CMD, mesh_path) || !cli_not_dir(CMD, qpath)) return 2;
  m = lds_navmesh_load(NULL, mesh_path, &err);
  if (!m) return cli_fail(CMD, "%s", err.msg);
  if (!parse_queries(qpath, &qs, &nq, (size_t)limit)) {
    lds_navmesh_free(m);
    return 2;
  }
  s = lds_navsearch_new(NULL, m, &err);
  us = (double *)calloc(nq, sizeof *us);
  res = (Result *)calloc(nq, sizeof *res);
  if (!s || !us || !res) {
    lds_navsearch_free(s);
    lds_navmesh_free(m);
    free(qs);
    free(us);
    free(res);
    return cli_fail(CMD, "out of memory");
  }
  for (i = 0; i < (size_t)warmup && i < nq; i++) {
    if (lds_navsearch_start(s, &prm, qs[i].s, qs[i].g) == LDS_RUNNING) lds_navsearch_step(s, NULL);
    (void)lds_navsearch_points(s, NULL);
  }
  /* the timed pass: the queries back to back, as a game asks them (and as
  ** the Detour runner times its own); each answer is kept and checked in
  ** the untimed pass after */
  for (i = 0; i < nq; i++) {
    const Query *q = &qs[i];
    Result *r = &res[i];
    uint64_t t0 = cli_now_ns(), t1;
    lds_Status st = lds_navsearch_start(s, &prm, q->s, q->g);
    const double *pts = NULL;
    size_t np = 0;
    if (st == LDS_RUNNING) st = lds_navsearch_step(s, NULL);
    if (st == LDS_FOUND) pts = lds_navsearch_points(s, &np);
    t1 = cli_now_ns();
    us[i] = (double)(t1 - t0) / 1000.0;
    total_us += us[i];
    r->st = st;
    r->len = st == LDS_FOUND ? lds_navsearch_length(s) : NAN;
    if (st < 0) snprintf(r->msg, sizeof r->msg, "%s", lds_navsearch_errmsg(s));
    if (pts && np) {
      r->pts = (double *)malloc(np * 3 * sizeof(double));
      if (!r->pts) {
        fprintf(stderr, "lodestar mesh: out of memory keeping the paths\n");
        bad++;
        break;
      }
      memcpy(r->pts, pts, np * 3 * sizeof(double));
      r->np = np;
    }
  }
  for (i = 0; i < nq; i++) {
    const Query *q = &qs[i];
    const Result *r = &res[i];
    const lds_Status st = r->st;
    const double *pts = r->pts, len = r->len;
    const size_t np = r->np;
    if (st < 0 && st != LDS_E_ARG) {
      fprintf(stderr, "lodestar mesh: %s:%lu: %s\n", qpath, q->line, r->msg);
      bad++;
      continue;
    }
    if (q->detour_len >= 0) ndet++;
    if (st == LDS_FOUND) {
      char why[LDS_ERRMSG_SIZE];
      double clen = NAN, sp[3], gp[3];
      reached++;
      lds_navmesh_nearest(m, q->s, prm.snap_radius, prm.height_tol, sp);
      lds_navmesh_nearest(m, q->g, prm.snap_radius, prm.height_tol, gp);
      if (!pts || np < 1) {
        fprintf(stderr, "lodestar mesh: %s:%lu: found but no points\n", qpath, q->line);
        bad++;
      } else if (dist3(pts, sp) > 1e-9 * (1 + fabs(sp[0]) + fabs(sp[2])) ||
                 dist3(pts + 3 * (np - 1), gp) > 1e-9 * (1 + fabs(gp[0]) + fabs(gp[2]))) {
        fprintf(stderr, "lodestar mesh: %s:%lu: the path does not run from the start to the goal\n",
                qpath, q->line);
        bad++;
      } else if (lds_navmesh_check_path(m, pts, np, prm.height_tol, NULL, 0, &clen, NULL, why) !=
                 LDS_OK) {
        fprintf(stderr, "lodestar mesh: %s:%lu: illegal path: %s\n", qpath, q->line, why);
        bad++;
      } else if (fabs(clen - len) > 1e-9 * (1 + len)) {
        fprintf(stderr, "lodestar mesh: %s:%lu: length %.9g, recomputed %.9g\n", qpath, q->line,
                len, clen);
        bad++;
      }
      sum_len += len;
      if (q->detour_len >= 0 && len > q->detour_len + detour_allowance(q, sp, gp)) {
        longer++;
        if (getenv("LDS_MESH_VERBOSE")) fprintf(stderr, "longer %s:%lu: %.6f > detour %.6f (opt %.6f)\n", qpath, q->line, len, q->detour_len, q->opt_len);
      }
      if (q->opt_len == q->opt_len) {
        double rel = fabs(len - q->opt_len) / fmax(q->opt_len, 1e-9);
        /* opt_len is printed with 6 decimals: allow its rounding */
        double tol = fmax(1e-6, 5e-7 / fmax(q->opt_len, 1e-9));
        nopt++;
        if (rel > max_rel) max_rel = rel;
        if (rel > tol) {
          mism++;
          if (prm.algo == LDS_NAV_OPTIMAL)
            fprintf(stderr, "lodestar mesh: %s:%lu: length %.6f, optimum %.6f\n", qpath, q->line,
                    len, q->opt_len);
        }
      }
    } else {
      if (q->detour_len >= 0) {
        missed++;
        fprintf(stderr, "lodestar mesh: %s:%lu: no path (%s), Detour reached the goal\n", qpath,
                q->line, st == LDS_E_ARG ? r->msg : lds_status_name(st));
      } else if (st == LDS_E_ARG) { /* reported, not counted: the exit status is Detour's rule */
        fprintf(stderr, "lodestar mesh: %s:%lu: %s\n", qpath, q->line, r->msg);
      }
      if (q->opt_len == q->opt_len) nopt++, mism++;
    }
  }
  {
    char b1[32], b2[32], b3[32], b4[32];
    double mean = reached ? sum_len / (double)reached : 0;
    double med, p99;
    bool has_opt = nq && qs[0].opt_len == qs[0].opt_len;
    med = cli_quantile(us, nq, 0.5);
    p99 = cli_quantile(us, nq, 0.99);
    if (json) {
      printf("{\"command\":\"mesh\",\"mesh\":");
      cli_json_string(stdout, mesh_path);
      printf(",\"queries_file\":");
      cli_json_string(stdout, qpath);
      printf(",\"algo\":\"%s\",\"polys\":%u,\"queries\":%zu,\"reached\":%zu,\"illegal\":%zu,"
             "\"mean_len\":%.6f,\"median_us\":%s,\"p99_us\":%s,\"total_ms\":%s,"
             "\"longer_than_detour\":%zu,\"detour_reached_missed\":%zu",
             lds_nav_algo_name(prm.algo), lds_navmesh_poly_count(m), nq, reached, bad, mean,
             cli_num(b1, sizeof b1, med), cli_num(b2, sizeof b2, p99),
             cli_num(b3, sizeof b3, total_us / 1000.0), longer, missed);
      if (has_opt)
        printf(",\"max_rel_error_vs_opt\":%s,\"mismatches_vs_opt\":%zu",
               cli_num(b4, sizeof b4, max_rel), mism);
      printf("}\n");
    } else {
      printf("%s: %zu queries, %zu reached, %zu illegal, mean length %.6f, median %.2f us, "
             "p99 %.2f us, total %.3f ms; longer than Detour %zu of %zu\n",
             mesh_path, nq, reached, bad, mean, med, p99, total_us / 1000.0, longer, ndet);
      if (has_opt)
        printf("vs optimum: %zu of %zu mismatches, max relative error %.3g\n", mism, nopt, max_rel);
    }
  }
  lds_navsearch_free(s);
  lds_navmesh_free(m);
  for (i = 0; i < nq; i++) free(res[i].pts);
  free(res);
  free(qs);
  free(us);
  if (bad || missed || (prm.algo == LDS_NAV_OPTIMAL && mism)) return 1;
  return 0;
}
