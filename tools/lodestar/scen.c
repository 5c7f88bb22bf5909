/* SPDX-License-Identifier: MIT */
/*
** scen.c — `lodestar scen`: solve every problem of a Moving AI .scen
** file and check each cost against the published optimal length.
*/
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CMD "scen"
#define MAX_MAPS 64

typedef struct MapSlot {
  char name[256];
  lds_Grid *grid;
  lds_Search *search;
} MapSlot;

/* One run of the command: options, maps, tallies. */
typedef struct Scen {
  const char *scen_path, *maps_dir;
  char scen_dir[4096], where[4200]; /* where: "FILE:LINE" of a bad row (cli_scen_where) */
  lds_SearchParams params;
  long limit, stride;
  bool json, optimal_algo, cpu_clock;
  const char *png_dir; /* --png DIR: a picture per problem run */
  uint64_t (*now_ns)(void);
  double overhead_ns;
  lds_Scenario *sc;
  MapSlot maps[MAX_MAPS];
  int nmaps;
  size_t nq;
  double *times, max_err, total_ns;
  uint64_t expansions, prep_us;
  size_t prep_bytes;
  long mismatches, illegal, unsolved;
  uint64_t paths_hash; /* FNV-1a over every path's cells */
  bool any_angle;      /* theta, lazytheta: paths of waypoints, costs <= the optimum */
  long above_opt;      /* any-angle costs above the octile optimum (beyond its precision) */
  double ratio_sum;    /* sum of cost / optimum over the any-angle paths */
} Scen;

static void usage(FILE *f) {
  fprintf(f,
          "usage: lodestar scen FILE.scen [--maps DIR]\n"
          "                     [--algo astar|dijkstra|wastar|greedy|jps|jps+|theta|lazytheta]\n"
          "                     [--weight W] [--limit N] [--stride K] [--cpu-clock] [--json]\n"
          "Solves every problem of a Moving AI scenario file and checks each cost against\n"
          "the optimal length it lists: a cost matches when it equals the printed value\n"
          "rounded or truncated to its last digit, within 1e-9 relative.\n"
          "  --maps DIR   folder of the .map files (default: the scen file's folder,\n"
          "               then ../maps beside it)\n"
          "  --algo A     search algorithm (default astar); jps and jps+ build their bit\n"
          "               grids / jump tables once per map, untimed, and print their cost;\n"
          "               theta and lazytheta (any-angle) give waypoint paths, each step\n"
          "               checked for line of sight and its exact cost, and must cost no\n"
          "               more than the optimum listed\n"
          "  --weight W   weight of weighted A* (W >= 1; default 1.5; only with --algo\n"
          "               wastar)\n"
          "  --limit N    solve only the first N problems (after --stride; 0 = all)\n"
          "  --stride K   keep every K-th problem (files are sorted by length)\n"
          "  --cpu-clock  time queries with the thread's CPU clock instead of the wall\n"
          "               clock (for benchmarks on a machine shared with other jobs)\n"
          "  --json       print one JSON object as the last line\n"
          "  --png DIR    draw each problem run as DIR/problem-N.png (N: its number in\n"
          "               the file; see 'lodestar path --png'); choose the problems with\n"
          "               --limit and --stride, at most 1000\n"
          "Each option may be given once.\n"
          "Exit status: 0 every problem solved with a legal path, at the optimal length\n"
          "for astar, dijkstra, jps and jps+ (wastar and greedy may cost more); 1 a\n"
          "problem with no path found (for any algorithm: a problem lists its optimal\n"
          "length, so it has a path), an illegal path, or a cost mismatch of an optimal\n"
          "algorithm, or an any-angle cost above the optimum; each is reported on stderr;\n"
          "2 bad input.\n");
}

static uint64_t cpu_clock_us(void *ud) {
  (void)ud;
  return cli_cpu_ns() / 1000u;
}

/* Cost of an empty timed region with clock `now` [Units: ns]: the median of
** 1001 back-to-back pairs, subtracted from every query's time under
** --cpu-clock (the thread CPU clock is a system call on some machines). */
static double timer_overhead_ns(uint64_t (*now)(void)) {
  double v[1001];
  size_t i;
  for (i = 0; i < 1001; i++) {
    uint64_t a = now(), b = now();
    v[i] = (double)(b - a);
  }
  return cli_quantile(v, 1001, 0.5);
}

/* Finds the map file for `name` (already without directories). */
static bool find_map(const char *maps_dir, const char *scen_dir, const char *name, char *out,
                     size_t size) {
  char alt[4096];
  if (maps_dir) return cli_join(out, size, maps_dir, name) && cli_file_exists(out);
  if (cli_join(out, size, scen_dir, name) && cli_file_exists(out)) return true;
  if (cli_join(alt, sizeof alt, scen_dir, "../maps") && cli_join(out, size, alt, name) &&
      cli_file_exists(out))
    return true;
  return false;
}

/* Parses argv into s; -1 to go on, else the exit status (0 after --help,
** 2 on bad input, with the message printed). */
static int parse_args(int argc, char **argv, Scen *s) {
  int i;
  cli_Seen seen = {{0}, 0};
  for (i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!cli_once(CMD, &seen, a)) return 2;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--json") == 0) {
      s->json = true;
    } else if (strcmp(a, "--cpu-clock") == 0) {
      s->cpu_clock = true;
      s->now_ns = cli_cpu_ns;
    } else if (strcmp(a, "--maps") == 0 || strcmp(a, "--algo") == 0 ||
               strcmp(a, "--weight") == 0 || strcmp(a, "--limit") == 0 ||
               strcmp(a, "--stride") == 0 || strcmp(a, "--png") == 0) {
      const char *v = i + 1 < argc ? argv[++i] : NULL;
      if (!v) return cli_fail(CMD, "%s: missing value", a);
      if (strcmp(a, "--png") == 0) {
        if (!cli_dir_exists(v)) return cli_fail(CMD, "--png: '%s' is not a directory", v);
        s->png_dir = v;
      } else if (strcmp(a, "--maps") == 0) {
        s->maps_dir = v;
      } else if (strcmp(a, "--algo") == 0) {
        if (lds_algo_parse(v, &s->params.algo) != LDS_OK)
          return cli_fail(CMD, "--algo: unknown algorithm '%s' (expected astar, dijkstra, "
                          "wastar, greedy, jps, jps+, theta or lazytheta)", v);
      } else if (strcmp(a, "--weight") == 0) {
        if (!cli_double(CMD, "--weight", v, 1.0, 1e9, &s->params.weight)) return 2;
      } else if (strcmp(a, "--limit") == 0) {
        if (!cli_int(CMD, "--limit", v, 0, 1000000000L, &s->limit)) return 2;
      } else {
        if (!cli_int(CMD, "--stride", v, 1, 1000000000L, &s->stride)) return 2;
      }
    } else if (a[0] == '-' && a[1]) {
      return cli_fail(CMD, "unknown option '%s' (try 'lodestar scen --help')", a);
    } else if (!s->scen_path) {
      s->scen_path = a;
    } else {
      return cli_fail(CMD, "unexpected argument '%s' (one scen file expected)", a);
    }
  }
  if (!s->scen_path)
    return cli_missing(CMD, "FILE.scen", "lodestar scen FILE.scen [--maps DIR] ...");
  if (s->params.weight != 0.0 && s->params.algo != LDS_ALGO_WASTAR) /* 0: not given */
    return cli_fail(CMD, "--weight applies to --algo wastar only (algorithm is %s)",
                    lds_algo_name(s->params.algo));
  if (!cli_not_dir(CMD, s->scen_path)) return 2;
  return -1;
}

/* Loads the map problem q names into a new slot (the search built, JPS
** prepared untimed); NULL after printing the error into *rc. */
static MapSlot *load_map(Scen *s, size_t q, const lds_ScenEntry *e, int *rc) {
  char file[4096];
  MapSlot *m;
  lds_Error err;
  if (s->nmaps == MAX_MAPS) { /* the row naming one map too many */
    *rc = cli_fail(CMD, "%s: problem %zu: more than %d different maps",
                   cli_scen_where(s->where, sizeof s->where, s->scen_path, q), q + 1, MAX_MAPS);
    return NULL;
  }
  if (!find_map(s->maps_dir, s->scen_dir, e->map, file, sizeof file)) {
    *rc = cli_fail(CMD, "%s: problem %zu: map '%s' not found in %s%s",
                   cli_scen_where(s->where, sizeof s->where, s->scen_path, q), q + 1, e->map,
                   s->maps_dir ? s->maps_dir : s->scen_dir,
                   s->maps_dir ? "" : " or ../maps beside it (use --maps DIR)");
    return NULL;
  }
  m = &s->maps[s->nmaps];
  snprintf(m->name, sizeof m->name, "%s", e->map);
  m->grid = lds_map_load(NULL, file, &err);
  if (!m->grid) {
    *rc = cli_fail(CMD, "%s", err.msg);
    return NULL;
  }
  {
    lds_Env env; /* the search's clock times JPS preprocessing and budgets */
    lds_env_init(&env);
    if (s->cpu_clock) env.clock = cpu_clock_us;
    m->search = lds_search_new(&env, m->grid, &err);
  }
  if (!m->search) {
    lds_grid_free(m->grid);
    *rc = cli_fail(CMD, "%s", err.msg);
    return NULL;
  }
  s->nmaps++;
  if (s->params.algo == LDS_ALGO_JPS || s->params.algo == LDS_ALGO_JPS_PLUS) {
    /* preprocessing is reported apart, not charged to the first query */
    lds_JpsInfo info;
    if (lds_search_jps_prepare(m->search, s->params.algo == LDS_ALGO_JPS_PLUS) < 0) {
      *rc = cli_fail(CMD, "%s", lds_search_errmsg(m->search));
      return NULL;
    }
    lds_search_jps_info(m->search, &info);
    s->prep_us += info.bitgrid_us + info.plus_us;
    s->prep_bytes += info.bitgrid_bytes + info.plus_bytes;
  }
  return m;
}

/* The map slot of problem q (loaded on first use), checked against the
** row's size and endpoints; NULL after printing the error into *rc. */
static MapSlot *problem_map(Scen *s, size_t q, const lds_ScenEntry *e, int *rc) {
  MapSlot *m = NULL;
  int i;
  for (i = 0; i < s->nmaps; i++)
    if (strcmp(s->maps[i].name, e->map) == 0) m = &s->maps[i];
  if (!m && !(m = load_map(s, q, e, rc))) return NULL;
  if (lds_grid_width(m->grid) != e->map_width || lds_grid_height(m->grid) != e->map_height) {
    *rc = cli_fail(CMD, "%s: problem %zu expects a %ldx%ld map, %s is %ldx%ld",
                   cli_scen_where(s->where, sizeof s->where, s->scen_path, q), q + 1,
                   (long)e->map_width, (long)e->map_height, e->map, (long)lds_grid_width(m->grid),
                   (long)lds_grid_height(m->grid));
    return NULL;
  }
  if (lds_grid_blocked(m->grid, e->sx, e->sy) || lds_grid_blocked(m->grid, e->gx, e->gy)) {
    /* bad input, not a search failure: name the line so it can be fixed */
    bool sb = lds_grid_blocked(m->grid, e->sx, e->sy);
    int32_t bx = sb ? e->sx : e->gx, by = sb ? e->sy : e->gy;
    *rc = cli_fail(CMD, "%s: problem %zu: %s (%ld,%ld) is blocked on %s ('%c'; expected a "
                   "passable cell)", cli_scen_where(s->where, sizeof s->where, s->scen_path, q),
                   q + 1, sb ? "start" : "goal", (long)bx, (long)by, e->map,
                   lds_grid_terrain(m->grid, bx, by));
    return NULL;
  }
  return m;
}

/* Checks a found path (legal, cost from the cells, against the optimum)
** and adds it to the tallies and the paths hash. */
static void record_path(Scen *s, size_t q, const lds_ScenEntry *e, const MapSlot *m,
                        const lds_Path *path) {
  double c, cost = lds_path_cost(path), ae = 0.0;
  char why[256];
  size_t k, len = lds_path_length(path);
  if (s->any_angle) { /* waypoints: each step a line of sight, costed exactly */
    lds_Error err;
    int32_t x0 = -1, y0 = -1, x1 = -1, y1 = -1;
    lds_path_cell(path, 0, &x0, &y0);
    lds_path_cell(path, len ? len - 1 : 0, &x1, &y1);
    if (x0 != e->sx || y0 != e->sy || x1 != e->gx || y1 != e->gy) {
      s->illegal++;
      fprintf(stderr, "problem %zu: the path does not run from the start to the goal\n", q + 1);
    } else if (lds_grid_path_cost(m->grid, path, &c, &err) != LDS_OK) {
      s->illegal++;
      fprintf(stderr, "problem %zu: %s\n", q + 1, err.msg);
    } else if (fabs(c - cost) > 1e-9 * (cost > 1.0 ? cost : 1.0)) {
      s->illegal++;
      fprintf(stderr, "problem %zu: reported cost %.10g but the steps cost %.10g\n", q + 1,
              cost, c);
    }
    if (cost > e->optimal && !lds_scen_matches(e, cost)) s->above_opt++;
    if (e->optimal > 0.0) s->ratio_sum += cost / e->optimal;
    else s->ratio_sum += 1.0;
  } else if (!cli_check_path(m->grid, path, e->sx, e->sy, e->gx, e->gy, &c, why)) {
    s->illegal++;
    fprintf(stderr, "problem %zu: %s\n", q + 1, why);
  } else if (fabs(c - cost) > 1e-9 * (cost > 1.0 ? cost : 1.0)) {
    s->illegal++;
    fprintf(stderr, "problem %zu: reported cost %.10g but the cells cost %.10g\n", q + 1,
            cost, c);
  }
  for (k = 0; k < len; k++) {
    s->paths_hash ^= lds_path_node(path, k);
    s->paths_hash *= 1099511628211ull;
  }
  ae = fabs(cost - e->optimal);
  if (ae > s->max_err) s->max_err = ae;
  if (!lds_scen_matches(e, cost)) {
    s->mismatches++;
    if (s->optimal_algo)
      fprintf(stderr, "problem %zu: (%ld,%ld)->(%ld,%ld) cost %.10g, expected %.10g\n",
              q + 1, (long)e->sx, (long)e->sy, (long)e->gx, (long)e->gy, cost, e->optimal);
  }
}

/* Solves problem q (timed), checks and tallies it; 0, or the exit status
** after printing the error. */
static int solve(Scen *s, size_t q) {
  const lds_ScenEntry *e = lds_scen_entry(s->sc, q);
  MapSlot *m;
  lds_Status st;
  lds_Path *path;
  lds_Error err;
  uint64_t t0, t1;
  lds_Stats stats;
  int rc = 0;
  if (!(m = problem_map(s, q, e, &rc))) return rc;
  t0 = s->now_ns();
  st = lds_search_start(m->search, &s->params, e->sx, e->sy, e->gx, e->gy);
  if (st == LDS_OK) st = lds_search_step(m->search, NULL);
  path = st == LDS_FOUND ? lds_search_path(m->search, &err) : NULL;
  t1 = s->now_ns();
  if (st < 0)
    return cli_fail(CMD, "%s: problem %zu: %s",
                    cli_scen_where(s->where, sizeof s->where, s->scen_path, q), q + 1,
                    lds_search_errmsg(m->search));
  {
    double dt = (double)(t1 - t0) - s->overhead_ns;
    if (dt < 0.0) dt = 0.0;
    s->times[s->nq] = dt / 1000.0;
    s->total_ns += dt;
  }
  lds_search_stats(m->search, &stats);
  s->expansions += stats.expansions;
  s->nq++;
  if (!path) { /* a failure for any algorithm: the row says a path exists */
    s->unsolved++;
    s->mismatches++;
    fprintf(stderr, "problem %zu: (%ld,%ld)->(%ld,%ld) no path found, expected %.10g\n", q + 1,
            (long)e->sx, (long)e->sy, (long)e->gx, (long)e->gy, e->optimal);
  } else {
    record_path(s, q, e, m, path);
  }
  if (s->png_dir) { /* untimed: DIR/problem-N.png, N = the problem's number (1-based) */
    char file[4200];
    snprintf(file, sizeof file, "%s/problem-%zu.png", s->png_dir, q + 1);
    if (!cli_picture(CMD, file, m->grid, m->search, path, 0)) rc = 2;
  }
  lds_path_free(path);
  return rc;
}

/* The summary (and the --json line); returns the exit status. */
static int report(Scen *s) {
  double total_ms = s->total_ns / 1e6, med, p99;
  const char *algo = lds_algo_name(s->params.algo);
  size_t nq = s->nq;
  int i;
  med = cli_quantile(s->times, nq, 0.5);
  p99 = cli_quantile(s->times, nq, 0.99);
  printf("lodestar scen %s\n", s->scen_path);
  printf("  map(s)      %s", s->nmaps ? s->maps[0].name : "-");
  for (i = 1; i < s->nmaps; i++) printf(", %s", s->maps[i].name);
  printf("\n  algorithm   %s", algo);
  if (s->params.algo == LDS_ALGO_WASTAR)
    printf(" (w = %g)", s->params.weight == 0.0 ? 1.5 : s->params.weight);
  printf("\n");
  if (s->cpu_clock)
    printf("  clock       thread CPU time, %.0f ns timer overhead subtracted per query\n",
           s->overhead_ns);
  if (s->params.algo == LDS_ALGO_JPS || s->params.algo == LDS_ALGO_JPS_PLUS)
    printf("  preprocessing %s: %llu us, %zu bytes (untimed)\n",
           s->params.algo == LDS_ALGO_JPS_PLUS ? "bit grids + JPS+ tables" : "bit grids",
           (unsigned long long)s->prep_us, s->prep_bytes);
  printf("  %-9s %-11s %-8s %-13s %-11s %-10s %-10s\n", "queries", "mismatches", "illegal",
         "expansions", "median_us", "p99_us", "total_ms");
  printf("  %-9zu %-11ld %-8ld %-13llu %-11.2f %-10.2f %-10.2f\n", nq, s->mismatches, s->illegal,
         (unsigned long long)s->expansions, med, p99, total_ms);
  /* mismatches counts the problems without a path too (the --json key) */
  if (s->unsolved)
    printf("  FAIL: %ld of %zu queries found no path (the scenario lists a path for each)\n",
           s->unsolved, nq);
  if (s->any_angle)
    printf("  any-angle: %ld of %zu costs above the octile optimum; mean cost / optimum %.6f\n",
           s->above_opt, nq, nq ? s->ratio_sum / (double)nq : 0.0);
  if (s->mismatches > s->unsolved && !s->optimal_algo)
    printf("  (%s is not optimal: %ld of %zu costs differ from the optimum, max error %.10g)\n",
           algo, s->mismatches - s->unsolved, nq, s->max_err);
  else if (s->mismatches > s->unsolved)
    printf("  FAIL: %ld of %zu costs differ from the optimal length (max |error| %.10g)\n",
           s->mismatches - s->unsolved, nq, s->max_err);
  else if (nq && !s->unsolved)
    printf("  ok: every cost matches the optimal length (max |error| %.3g)\n", s->max_err);
  if (s->json) {
    printf("{\"algo\":");
    cli_json_string(stdout, algo);
    printf(",\"scen\":");
    cli_json_string(stdout, s->scen_path);
    printf(",\"queries\":%zu,\"mismatches\":%ld,\"illegal_paths\":%ld,\"max_abs_error\":%.9g,"
           "\"expansions\":%llu,\"median_us\":%.3f,\"p99_us\":%.3f,\"total_ms\":%.3f,"
           "\"prep_us\":%llu,\"prep_bytes\":%zu,\"clock\":\"%s\",\"timer_overhead_ns\":%.0f,"
           "\"paths_hash\":\"%016llx\"",
           nq, s->mismatches, s->illegal, s->max_err, (unsigned long long)s->expansions, med, p99,
           total_ms, (unsigned long long)s->prep_us, s->prep_bytes,
           s->cpu_clock ? "cpu" : "wall", s->overhead_ns, (unsigned long long)s->paths_hash);
    if (s->any_angle)
      printf(",\"above_opt\":%ld,\"mean_ratio_vs_opt\":%.9g", s->above_opt,
             nq ? s->ratio_sum / (double)nq : 0.0);
    printf("}\n");
  }
  return s->illegal || s->unsolved || (s->optimal_algo && s->mismatches) || s->above_opt ? 1 : 0;
}

int cli_scen(int argc, char **argv) {
  static Scen s; /* large (the map slots); one run per process */
  lds_Error err;
  size_t q, n;
  int i, rc;
  memset(&s, 0, sizeof s);
  s.stride = 1;
  s.now_ns = cli_now_ns;
  s.paths_hash = 14695981039346656037ull;
  lds_search_params_init(&s.params);
  if ((rc = parse_args(argc, argv, &s)) >= 0) return rc;
  rc = 0;
  s.optimal_algo = s.params.algo == LDS_ALGO_ASTAR || s.params.algo == LDS_ALGO_DIJKSTRA ||
                   s.params.algo == LDS_ALGO_JPS || s.params.algo == LDS_ALGO_JPS_PLUS;
  s.any_angle = s.params.algo == LDS_ALGO_THETA || s.params.algo == LDS_ALGO_LAZY_THETA;
  if (s.cpu_clock) s.overhead_ns = timer_overhead_ns(s.now_ns);
  s.sc = lds_scen_load(NULL, s.scen_path, &err);
  if (!s.sc) return cli_fail(CMD, "%s", err.msg);
  {
    const char *slash = strrchr(s.scen_path, '/');
    if (slash)
      snprintf(s.scen_dir, sizeof s.scen_dir, "%.*s", (int)(slash - s.scen_path), s.scen_path);
    else
      snprintf(s.scen_dir, sizeof s.scen_dir, ".");
  }
  n = lds_scen_count(s.sc);
  if (n == 0) {
    lds_scen_free(s.sc);
    return cli_fail(CMD, "%s: no problems in the file (expected lines after 'version 1')",
                    s.scen_path);
  }
  s.times = (double *)calloc(n ? n : 1, sizeof(double));
  if (!s.times) {
    lds_scen_free(s.sc);
    return cli_fail(CMD, "out of memory");
  }
  {
    cli_Progress pr;
    size_t total = (n + (size_t)s.stride - 1) / (size_t)s.stride;
    if (s.limit && (size_t)s.limit < total) total = (size_t)s.limit;
    if (s.png_dir && total > 1000) {
      free(s.times);
      lds_scen_free(s.sc);
      return cli_fail(CMD, "--png writes one picture per problem: choose at most 1000 with "
                      "--limit or --stride (this run has %zu)", total);
    }
    cli_progress_begin(&pr, CMD, "problems", total);
    for (q = 0; q < n && rc == 0; q += (size_t)s.stride) {
      if (s.limit && (long)s.nq >= s.limit) break;
      rc = solve(&s, q);
      cli_progress(&pr, s.nq);
    }
    cli_progress_end(&pr);
  }
  if (rc == 0) rc = report(&s);
  for (i = 0; i < s.nmaps; i++) {
    lds_search_free(s.maps[i].search);
    lds_grid_free(s.maps[i].grid);
  }
  free(s.times);
  lds_scen_free(s.sc);
  return rc;
}
