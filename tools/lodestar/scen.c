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

static void usage(FILE *f) {
  fprintf(f,
          "usage: lodestar scen FILE.scen [--maps DIR]\n"
          "                     [--algo astar|dijkstra|wastar|greedy|jps|jps+]\n"
          "                     [--weight W] [--limit N] [--stride K] [--cpu-clock] [--json]\n"
          "Solves every problem of a Moving AI scenario file and checks each cost against\n"
          "the optimal length it lists: a cost matches when it equals the printed value\n"
          "rounded or truncated to its last digit, within 1e-9 relative.\n"
          "  --maps DIR   folder of the .map files (default: the scen file's folder,\n"
          "               then ../maps beside it)\n"
          "  --algo A     search algorithm (default astar); jps and jps+ build their bit\n"
          "               grids / jump tables once per map, untimed, and print their cost\n"
          "  --weight W   weight of weighted A* (W >= 1; default 1.5; only with --algo\n"
          "               wastar)\n"
          "  --limit N    solve only the first N problems (after --stride; 0 = all)\n"
          "  --stride K   keep every K-th problem (files are sorted by length)\n"
          "  --cpu-clock  time queries with the thread's CPU clock instead of the wall\n"
          "               clock (for benchmarks on a machine shared with other jobs)\n"
          "  --json       print one JSON object as the last line\n"
          "Each option may be given once.\n"
          "Exit status: 0 every problem solved with a legal path, at the optimal length\n"
          "for astar, dijkstra, jps and jps+ (wastar and greedy may cost more); 1 a\n"
          "problem with no path found (for any algorithm: a problem lists its optimal\n"
          "length, so it has a path), an illegal path, or a cost mismatch of an optimal\n"
          "algorithm; each is reported on stderr; 2 bad input.\n");
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

int cli_scen(int argc, char **argv) {
  const char *scen_path = NULL, *maps_dir = NULL;
  char scen_dir[4096], where[4200]; /* where: "FILE:LINE" of a bad row (cli_scen_where) */
  lds_SearchParams params;
  long limit = 0, stride = 1;
  bool json = false, optimal_algo, cpu_clock = false;
  uint64_t (*now_ns)(void) = cli_now_ns;
  double overhead_ns = 0.0;
  lds_Error err;
  lds_Scenario *sc;
  MapSlot maps[MAX_MAPS];
  int nmaps = 0, i, rc = 0;
  size_t q, nq = 0, n;
  double *times = NULL, max_err = 0.0, total_ns = 0.0;
  uint64_t expansions = 0, prep_us = 0;
  size_t prep_bytes = 0;
  long mismatches = 0, illegal = 0, unsolved = 0;
  uint64_t paths_hash = 14695981039346656037ull; /* FNV-1a over every path's cells */
  cli_Seen seen = {{0}, 0};
  lds_search_params_init(&params);
  for (i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!cli_once(CMD, &seen, a)) return 2;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--json") == 0) {
      json = true;
    } else if (strcmp(a, "--cpu-clock") == 0) {
      cpu_clock = true;
      now_ns = cli_cpu_ns;
    } else if (strcmp(a, "--maps") == 0 || strcmp(a, "--algo") == 0 ||
               strcmp(a, "--weight") == 0 || strcmp(a, "--limit") == 0 ||
               strcmp(a, "--stride") == 0) {
      const char *v = i + 1 < argc ? argv[++i] : NULL;
      if (!v) return cli_fail(CMD, "%s: missing value", a);
      if (strcmp(a, "--maps") == 0) {
        maps_dir = v;
      } else if (strcmp(a, "--algo") == 0) {
        if (lds_algo_parse(v, &params.algo) != LDS_OK)
          return cli_fail(CMD, "--algo: unknown algorithm '%s' (expected astar, dijkstra, "
                          "wastar, greedy, jps or jps+)", v);
      } else if (strcmp(a, "--weight") == 0) {
        if (!cli_double(CMD, "--weight", v, 1.0, 1e9, &params.weight)) return 2;
      } else if (strcmp(a, "--limit") == 0) {
        if (!cli_int(CMD, "--limit", v, 0, 1000000000L, &limit)) return 2;
      } else {
        if (!cli_int(CMD, "--stride", v, 1, 1000000000L, &stride)) return 2;
      }
    } else if (a[0] == '-' && a[1]) {
      return cli_fail(CMD, "unknown option '%s' (try 'lodestar scen --help')", a);
    } else if (!scen_path) {
      scen_path = a;
    } else {
      return cli_fail(CMD, "unexpected argument '%s' (one scen file expected)", a);
    }
  }
  if (!scen_path) return cli_missing(CMD, "FILE.scen", "lodestar scen FILE.scen [--maps DIR] ...");
  if (params.weight != 0.0 && params.algo != LDS_ALGO_WASTAR) /* 0: not given */
    return cli_fail(CMD, "--weight applies to --algo wastar only (algorithm is %s)",
                    lds_algo_name(params.algo));
  if (!cli_not_dir(CMD, scen_path)) return 2;
  optimal_algo = params.algo == LDS_ALGO_ASTAR || params.algo == LDS_ALGO_DIJKSTRA ||
                 params.algo == LDS_ALGO_JPS || params.algo == LDS_ALGO_JPS_PLUS;
  if (cpu_clock) overhead_ns = timer_overhead_ns(now_ns);
  sc = lds_scen_load(NULL, scen_path, &err);
  if (!sc) return cli_fail(CMD, "%s", err.msg);
  {
    const char *slash = strrchr(scen_path, '/');
    if (slash)
      snprintf(scen_dir, sizeof scen_dir, "%.*s", (int)(slash - scen_path), scen_path);
    else
      snprintf(scen_dir, sizeof scen_dir, ".");
  }
  n = lds_scen_count(sc);
  if (n == 0) {
    lds_scen_free(sc);
    return cli_fail(CMD, "%s: no problems in the file (expected lines after 'version 1')",
                    scen_path);
  }
  times = (double *)calloc(n ? n : 1, sizeof(double));
  if (!times) {
    lds_scen_free(sc);
    return cli_fail(CMD, "out of memory");
  }
  for (q = 0; q < n; q += (size_t)stride) {
    const lds_ScenEntry *e = lds_scen_entry(sc, q);
    MapSlot *m = NULL;
    lds_Status st;
    lds_Path *path;
    uint64_t t0, t1;
    lds_Stats stats;
    if (limit && (long)nq >= limit) break;
    for (i = 0; i < nmaps; i++)
      if (strcmp(maps[i].name, e->map) == 0) m = &maps[i];
    if (!m) {
      char file[4096];
      if (nmaps == MAX_MAPS) { /* the row naming one map too many */
        rc = cli_fail(CMD, "%s: problem %zu: more than %d different maps",
                      cli_scen_where(where, sizeof where, scen_path, q), q + 1, MAX_MAPS);
        goto done;
      }
      if (!find_map(maps_dir, scen_dir, e->map, file, sizeof file)) {
        rc = cli_fail(CMD, "%s: problem %zu: map '%s' not found in %s%s",
                      cli_scen_where(where, sizeof where, scen_path, q), q + 1, e->map,
                      maps_dir ? maps_dir : scen_dir,
                      maps_dir ? "" : " or ../maps beside it (use --maps DIR)");
        goto done;
      }
      m = &maps[nmaps];
      snprintf(m->name, sizeof m->name, "%s", e->map);
      m->grid = lds_map_load(NULL, file, &err);
      if (!m->grid) {
        rc = cli_fail(CMD, "%s", err.msg);
        goto done;
      }
      {
        lds_Env env; /* the search's clock times JPS preprocessing and budgets */
        lds_env_init(&env);
        if (cpu_clock) env.clock = cpu_clock_us;
        m->search = lds_search_new(&env, m->grid, &err);
      }
      if (!m->search) {
        lds_grid_free(m->grid);
        rc = cli_fail(CMD, "%s", err.msg);
        goto done;
      }
      nmaps++;
      if (params.algo == LDS_ALGO_JPS || params.algo == LDS_ALGO_JPS_PLUS) {
        /* preprocessing is reported apart, not charged to the first query */
        lds_JpsInfo info;
        if (lds_search_jps_prepare(m->search, params.algo == LDS_ALGO_JPS_PLUS) < 0) {
          rc = cli_fail(CMD, "%s", lds_search_errmsg(m->search));
          goto done;
        }
        lds_search_jps_info(m->search, &info);
        prep_us += info.bitgrid_us + info.plus_us;
        prep_bytes += info.bitgrid_bytes + info.plus_bytes;
      }
    }
    if (lds_grid_width(m->grid) != e->map_width || lds_grid_height(m->grid) != e->map_height) {
      rc = cli_fail(CMD, "%s: problem %zu expects a %ldx%ld map, %s is %ldx%ld",
                    cli_scen_where(where, sizeof where, scen_path, q), q + 1,
                    (long)e->map_width, (long)e->map_height, e->map, (long)lds_grid_width(m->grid),
                    (long)lds_grid_height(m->grid));
      goto done;
    }
    if (lds_grid_blocked(m->grid, e->sx, e->sy) || lds_grid_blocked(m->grid, e->gx, e->gy)) {
      /* bad input, not a search failure: name the line so it can be fixed */
      bool sb = lds_grid_blocked(m->grid, e->sx, e->sy);
      int32_t bx = sb ? e->sx : e->gx, by = sb ? e->sy : e->gy;
      rc = cli_fail(CMD, "%s: problem %zu: %s (%ld,%ld) is blocked on %s ('%c'; expected a "
                    "passable cell)", cli_scen_where(where, sizeof where, scen_path, q), q + 1,
                    sb ? "start" : "goal", (long)bx, (long)by, e->map,
                    lds_grid_terrain(m->grid, bx, by));
      goto done;
    }
    t0 = now_ns();
    st = lds_search_start(m->search, &params, e->sx, e->sy, e->gx, e->gy);
    if (st == LDS_OK) st = lds_search_run(m->search);
    path = st == LDS_FOUND ? lds_search_path(m->search, &err) : NULL;
    t1 = now_ns();
    if (st < 0) {
      rc = cli_fail(CMD, "%s: problem %zu: %s", cli_scen_where(where, sizeof where, scen_path, q),
                    q + 1, lds_search_errmsg(m->search));
      goto done;
    }
    {
      double dt = (double)(t1 - t0) - overhead_ns;
      if (dt < 0.0) dt = 0.0;
      times[nq] = dt / 1000.0;
      total_ns += dt;
    }
    lds_search_stats(m->search, &stats);
    expansions += stats.expansions;
    nq++;
    if (!path) { /* a failure for any algorithm: the row says a path exists */
      unsolved++;
      mismatches++;
      fprintf(stderr, "problem %zu: (%ld,%ld)->(%ld,%ld) no path found, expected %.10g\n", q + 1,
              (long)e->sx, (long)e->sy, (long)e->gx, (long)e->gy, e->optimal);
    } else {
      double c, cost = lds_path_cost(path), ae = 0.0;
      char why[256];
      if (!cli_check_path(m->grid, path, e->sx, e->sy, e->gx, e->gy, &c, why)) {
        illegal++;
        fprintf(stderr, "problem %zu: %s\n", q + 1, why);
      } else if (fabs(c - cost) > 1e-9 * (cost > 1.0 ? cost : 1.0)) {
        illegal++;
        fprintf(stderr, "problem %zu: reported cost %.10g but the cells cost %.10g\n", q + 1,
                cost, c);
      }
      {
        size_t k, len = lds_path_length(path);
        for (k = 0; k < len; k++) {
          paths_hash ^= lds_path_node(path, k);
          paths_hash *= 1099511628211ull;
        }
      }
      ae = fabs(cost - e->optimal);
      if (ae > max_err) max_err = ae;
      if (!lds_scen_matches(e, cost)) {
        mismatches++;
        if (optimal_algo)
          fprintf(stderr, "problem %zu: (%ld,%ld)->(%ld,%ld) cost %.10g, expected %.10g\n",
                  q + 1, (long)e->sx, (long)e->sy, (long)e->gx, (long)e->gy, cost, e->optimal);
      }
      lds_path_free(path);
    }
  }
  {
    double total_ms = total_ns / 1e6, med, p99;
    const char *algo = lds_algo_name(params.algo);
    med = cli_quantile(times, nq, 0.5);
    p99 = cli_quantile(times, nq, 0.99);
    printf("lodestar scen %s\n", scen_path);
    printf("  map(s)      %s", nmaps ? maps[0].name : "-");
    for (i = 1; i < nmaps; i++) printf(", %s", maps[i].name);
    printf("\n  algorithm   %s", algo);
    if (params.algo == LDS_ALGO_WASTAR)
      printf(" (w = %g)", params.weight == 0.0 ? 1.5 : params.weight);
    printf("\n");
    if (cpu_clock)
      printf("  clock       thread CPU time, %.0f ns timer overhead subtracted per query\n",
             overhead_ns);
    if (params.algo == LDS_ALGO_JPS || params.algo == LDS_ALGO_JPS_PLUS)
      printf("  preprocessing %s: %llu us, %zu bytes (untimed)\n",
             params.algo == LDS_ALGO_JPS_PLUS ? "bit grids + JPS+ tables" : "bit grids",
             (unsigned long long)prep_us, prep_bytes);
    printf("  %-9s %-11s %-8s %-13s %-11s %-10s %-10s\n", "queries", "mismatches", "illegal",
           "expansions", "median_us", "p99_us", "total_ms");
    printf("  %-9zu %-11ld %-8ld %-13llu %-11.2f %-10.2f %-10.2f\n", nq, mismatches, illegal,
           (unsigned long long)expansions, med, p99, total_ms);
    /* mismatches counts the problems without a path too (the --json key) */
    if (unsolved)
      printf("  FAIL: %ld of %zu queries found no path (the scenario lists a path for each)\n",
             unsolved, nq);
    if (mismatches > unsolved && !optimal_algo)
      printf("  (%s is not optimal: %ld of %zu costs differ from the optimum, max error %.10g)\n",
             algo, mismatches - unsolved, nq, max_err);
    else if (mismatches > unsolved)
      printf("  FAIL: %ld of %zu costs differ from the optimal length (max |error| %.10g)\n",
             mismatches - unsolved, nq, max_err);
    else if (nq && !unsolved)
      printf("  ok: every cost matches the optimal length (max |error| %.3g)\n", max_err);
    if (json) {
      printf("{\"algo\":");
      cli_json_string(stdout, algo);
      printf(",\"scen\":");
      cli_json_string(stdout, scen_path);
      printf(",\"queries\":%zu,\"mismatches\":%ld,\"illegal_paths\":%ld,\"max_abs_error\":%.9g,"
             "\"expansions\":%llu,\"median_us\":%.3f,\"p99_us\":%.3f,\"total_ms\":%.3f,"
             "\"prep_us\":%llu,\"prep_bytes\":%zu,\"clock\":\"%s\",\"timer_overhead_ns\":%.0f,"
             "\"paths_hash\":\"%016llx\"}\n",
             nq, mismatches, illegal, max_err, (unsigned long long)expansions, med, p99,
             total_ms, (unsigned long long)prep_us, prep_bytes, cpu_clock ? "cpu" : "wall", overhead_ns,
             (unsigned long long)paths_hash);
    }
    if (illegal || unsolved || (optimal_algo && mismatches)) rc = 1;
  }
done:
  for (i = 0; i < nmaps; i++) {
    lds_search_free(maps[i].search);
    lds_grid_free(maps[i].grid);
  }
  free(times);
  lds_scen_free(sc);
  return rc;
}
