/* SPDX-License-Identifier: MIT */
/*
** hier.c — `lodestar hier`: the cluster hierarchy (core/lds_hpa.h) against
** our own A* on the same queries, in one run (tests/bench/bench_hier.sh
** runs it; docs/hierarchy.md has its table).
**
**   lodestar hier MAP (--scen FILE | --pairs N) [--seed S] [--cluster C]
**                 [--stride K] [--limit N] [--doors N] [--no-optimal] [--alt]
**                 [--costs SEED] [--level2 K|auto] [--fast-weight W] [--json]
**
** Queries: the scen file's problems (their printed optimum is the reference),
** or N random pairs of passable cells (pairs with no path are drawn again), whose
** reference optimum is computed once by Dijkstra, untimed. Each query is
** timed with the thread's CPU clock for A* (lds_search, reused), the fast
** mode and the optimal mode, each mode in its own pass over all queries (as
** Moving AI benchmarks run each algorithm over a scenario), then once more
** interleaved: per query an A* and right after it the fast query, whose data
** the A* has evicted from the caches. Printed: build time, bytes per cell,
** median query times and ratios against A* (per pass, and the interleaved
** fast median against the A* median of that pass), the share of fast paths within 1 % of
** the optimum, the worst ratio, mismatches of the optimal mode and of A*,
** illegal paths, and the repair time of N door toggles inside clusters
** and of N on a cluster's border row or column, each median apart (a door:
** a passable cell with exactly two passable orthogonal neighbours,
** opposite each other, or any passable cell when there is none, blocked
** then opened again: two repairs each); with a second level, also N border
** doors closed for good (each repair timed), the fast queries again while
** their second-level clusters are stale (timed only), the lds_hpa_refresh calls that
** then rebuild the second-level clusters left stale (each timed), the doors
** opened again untimed. --costs SEED gives the map terrain costs before anything
** is built: every passable cell of a 16 x 16 block costs 1, 2, 3 or 4, from
** a hash of the block and SEED (terrain_costs); the queries' reference
** optimum is then Dijkstra's on the costed map (untimed), also for --scen.
** With a second level (--level2 K, or the default on big maps), the fast
** mode also runs a pass with it turned off (lds_hpa_use_level2); each
** query is then searched again at weight 1 with the second level off and
** on, untimed, to check the shortest abstract cost is the same.
** --fast-weight W sets lds_HpaParams.fast_weight, --band R its band_radius.
** --no-optimal skips the
** optimal mode: its lines say so, and its JSON fields (optimal_median_us,
** optimal_speedup, optimal_mismatches) are null, with "optimal":false.
** Exit status: 0, 1 on a mismatch of the optimal mode or an illegal path,
** 2 on bad input.
*/
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CMD "hier"
#define USAGE "lodestar hier MAP (--scen FILE | --pairs N) [options]"

static double now_us(void) { return (double)cli_cpu_ns() / 1e3; }

static void usage(FILE *f) {
  fprintf(f,
          "usage: lodestar hier MAP (--scen FILE | --pairs N) [--seed S] [--cluster C]\n"
          "                     [--stride K] [--limit N] [--doors N] [--no-optimal] [--alt]\n"
          "                     [--costs SEED] [--level2 K|auto] [--fast-weight W]\n"
          "                     [--band R] [--json]\n"
          "Builds the cluster hierarchy of MAP (core/lds_hpa.h) and runs every query with\n"
          "our A*, the hierarchy's fast mode and its optimal mode, each in its own pass,\n"
          "timed with the thread's CPU clock, then A* and fast interleaved per query (the\n"
          "fast query right after an A* that evicted its data from the caches); prints\n"
          "build time (wall-clock: lds_HpaInfo.build_us), bytes per cell, median times and\n"
          "ratios (per pass and interleaved), the share of fast paths within 1%% of optimal,\n"
          "mismatches, and door-toggle repair times (CPU clock).\n"
          "  --scen FILE   the Moving AI problems of MAP (their optimum is the reference)\n"
          "  --pairs N     N random pairs of passable cells with a path (reference: Dijkstra,\n"
          "                untimed); --seed S picks them (default 1)\n"
          "  --cluster C   cluster side, 4..%d (default 16)\n"
          "  --stride K    keep every K-th scen problem; --limit N at most N of them\n"
          "  --doors N     N door toggles (block, repair, open, repair) after the queries\n"
          "                inside clusters and N on a cluster's border row or column (timed\n"
          "                apart); a door is a cell not on the map's border: MAP needs 3x3\n"
          "                cells or more; with a second level also N border doors kept\n"
          "                closed, then the lds_hpa_refresh calls (timed)\n"
          "  --no-optimal  skip the optimal mode (and its landmark tables, 4 bytes per landmark\n"
          "                per padded cell: 32 with the default 8);\n"
          "                its lines say skipped, its JSON fields are null\n"
          "  --alt         the optimal mode always runs the landmark A* (not JPS on\n"
          "                uniform-cost maps)\n"
          "  --costs SEED  terrain costs 1..4 per 16x16 block, from a hash of the block and\n"
          "                SEED (0..2^31-1); the reference optimum is then Dijkstra's (untimed)\n"
          "  --level2 K    a second level of K x K clusters: auto (the default: 8 on maps\n"
          "                of 4096x4096 cells or more, none below), 0 none, or 2..M where\n"
          "                M is the largest K with K*K*4*C below 65535, at most 32\n"
          "                (M is 31 at the default cluster 16, 32 at 4, 15 at 64); with\n"
          "                one, the fast mode also runs a pass without it\n"
          "  --fast-weight W  weight of the fast mode's abstract search (weighted A*: its\n"
          "                abstract path costs at most W x the shortest), 1..%g (default %g)\n"
          "  --band R      cells either side of the raw path the fast mode searches again\n"
          "                where costs are not uniform, 0..%d (default %d; 0 off)\n"
          "  --json        one JSON object as the last line\n"
          "Each option may be given once. Exit status: 0; 1 an optimal-mode mismatch or an\n"
          "illegal path; 2 bad input. docs/hierarchy.md.\n",
          LDS_HPA_MAX_CLUSTER, LDS_HPA_MAX_FAST_WEIGHT, LDS_HPA_FAST_WEIGHT,
          LDS_HPA_MAX_BAND_RADIUS, LDS_HPA_BAND_RADIUS);
}

/* The largest second-level side the hierarchy accepts with clusters of side
** `cluster` (lds_HpaParams.level2: level2^2 x 4 x cluster_size below 65535,
** at most 32). */
static int level2_max(int cluster) {
  int k = 32;
  while (k > 2 && k * k * 4 * cluster >= 65535) k--;
  return k;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static double median(double *v, size_t n) {
  if (n == 0) return 0;
  qsort(v, n, sizeof *v, cmp_d);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static uint64_t rng_state = 1;
static uint32_t rnd(void) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33);
}

/* Draws a door (a passable cell not on the map's border in a one-cell gap:
** blocked on two opposite sides; after 100000 draws without one, any
** passable cell), on a cluster border (its gap's way through crosses the
** border) or not; false after 1000000 draws (*tries counts them). */
static bool draw_door(const lds_Grid *g, int cluster, bool on_border, size_t *tries, int32_t *px,
                      int32_t *py) {
  int32_t w = lds_grid_width(g), hh = lds_grid_height(g);
  while (*tries < 1000000) {
    int32_t x = 1 + (int32_t)(rnd() % (uint32_t)(w - 2)), y = 1 + (int32_t)(rnd() % (uint32_t)(hh - 2));
    bool n = !lds_grid_blocked(g, x, y - 1), so = !lds_grid_blocked(g, x, y + 1);
    bool e = !lds_grid_blocked(g, x + 1, y), we = !lds_grid_blocked(g, x - 1, y);
    bool border = (e && we && (x % cluster == 0 || x % cluster == cluster - 1)) ||
                  (n && so && (y % cluster == 0 || y % cluster == cluster - 1));
    (*tries)++;
    if (lds_grid_blocked(g, x, y) || border != on_border ||
        (*tries < 100000 && !((n && so && !e && !we) || (e && we && !n && !so))))
      continue;
    *px = x;
    *py = y;
    return true;
  }
  return false;
}

/* Terrain costs: each passable cell of the 16 x 16 block (bx, by) costs
** 1 + (hash(bx, by, seed) mod 4), a deterministic patchwork of four cost
** classes (the hash: a 64-bit finaliser, MurmurHash3's fmix64). */
static void terrain_costs(lds_Grid *g, uint32_t seed) {
  int32_t w = lds_grid_width(g), hh = lds_grid_height(g), x, y;
  for (y = 0; y < hh; y++)
    for (x = 0; x < w; x++) {
      uint64_t k = ((uint64_t)(uint32_t)(y / 16) << 32 | (uint32_t)(x / 16)) ^
                   ((uint64_t)seed * 0x9E3779B97F4A7C15ull);
      if (lds_grid_blocked(g, x, y)) continue;
      k ^= k >> 33;
      k *= 0xFF51AFD7ED558CCDull;
      k ^= k >> 33;
      k *= 0xC4CEB9FE1A85EC53ull;
      k ^= k >> 33;
      lds_grid_set_cost(g, x, y, (float)(1 + k % 4));
    }
}

typedef struct Query {
  int32_t sx, sy, gx, gy;
  double opt;
  const lds_ScenEntry *e;
} Query;

static bool legal(const lds_Grid *g, lds_HpaQuery *q, const Query *k) {
  lds_Path *p = lds_hpa_query_path(q, NULL);
  lds_PathCheck pc;
  bool ok;
  if (!p) return false;
  lds_path_check_init(&pc);
  pc.check_start = pc.check_goal = true;
  pc.sx = k->sx;
  pc.sy = k->sy;
  pc.gx = k->gx;
  pc.gy = k->gy;
  ok = lds_path_check(g, p, &pc, NULL, NULL) == LDS_OK;
  lds_path_free(p);
  return ok;
}

int cli_hier(int argc, char **argv) {
  const char *map = NULL, *scen = NULL;
  size_t pairs = 0, stride = 1, limit = 0, doors = 0, i, nq = 0;
  int cluster = 16, a, level2 = LDS_HPA_LEVEL2_AUTO, band = LDS_HPA_BAND_RADIUS;
  const char *level2_arg = NULL;
  double *tf1 = NULL, fast_weight = LDS_HPA_FAST_WEIGHT;
  uint64_t exp_f1 = 0;
  bool optimal = true, json = false, alt = false, costs = false;
  uint32_t cost_seed = 0;
  lds_Error err;
  cli_Seen seen = {{0}, 0};
  lds_Grid *g;
  lds_Scenario *sc = NULL;
  Query *qs;
  lds_HpaParams hp;
  lds_Hpa *h;
  lds_HpaQuery *hq;
  lds_Search *s;
  lds_HpaInfo info;
  double *ta, *tf, *to, *tia, *tif, *ratio, *rep, *brep;
  size_t within = 0, mism_opt = 0, mism_astar = 0, illegal = 0, nrep = 0, nbrep = 0, nf = 0;
  size_t nkrep = 0, nfrep = 0;
  uint32_t stale_max = 0;
  uint64_t blast = 0; /* clusters the last border door repair rebuilt */
  double *krep = NULL, *frep = NULL;
  int32_t *kxy = NULL;
  double *tfs = NULL; /* fast mode with the kept-closed doors' clusters stale */
  size_t nfs = 0;
  uint64_t exp_fs = 0;
  uint32_t stale_left = 0;
  double worst = 1.0, build_ms;
  uint64_t exp_a = 0, exp_f = 0, exp_o = 0;
  for (a = 2; a < argc; a++) {
    const char *o = argv[a], *v;
    long n;
    if (!cli_once(CMD, &seen, o)) return 2;
    if (strcmp(o, "-h") == 0 || strcmp(o, "--help") == 0) {
      usage(stdout);
      return 0;
    }
    if (strcmp(o, "--no-optimal") == 0) {
      optimal = false;
      continue;
    }
    if (strcmp(o, "--alt") == 0) {
      alt = true;
      continue;
    }
    if (strcmp(o, "--json") == 0) {
      json = true;
      continue;
    }
    if (o[0] != '-') {
      if (map) return cli_fail(CMD, "unexpected argument '%s' (one MAP only)", o);
      map = o;
      continue;
    }
    v = a + 1 < argc ? argv[++a] : NULL;
    if (!v) return cli_fail(CMD, "%s: missing value", o);
    if (strcmp(o, "--scen") == 0) {
      scen = v;
    } else if (strcmp(o, "--pairs") == 0) {
      if (!cli_int(CMD, "--pairs", v, 1, 10000000, &n)) return 2;
      pairs = (size_t)n;
    } else if (strcmp(o, "--seed") == 0) {
      if (!cli_int(CMD, "--seed", v, 0, 2147483647, &n)) return 2;
      rng_state = (uint64_t)n;
    } else if (strcmp(o, "--cluster") == 0) {
      if (!cli_int(CMD, "--cluster", v, 4, LDS_HPA_MAX_CLUSTER, &n)) return 2;
      cluster = (int)n;
    } else if (strcmp(o, "--stride") == 0) {
      if (!cli_int(CMD, "--stride", v, 1, 1000000000, &n)) return 2;
      stride = (size_t)n;
    } else if (strcmp(o, "--limit") == 0) {
      if (!cli_int(CMD, "--limit", v, 0, 1000000000, &n)) return 2;
      limit = (size_t)n;
    } else if (strcmp(o, "--costs") == 0) {
      if (!cli_int(CMD, "--costs", v, 0, 2147483647, &n)) return 2;
      costs = true;
      cost_seed = (uint32_t)n;
    } else if (strcmp(o, "--level2") == 0) {
      /* 'auto' or an integer; its range needs --cluster, so it is checked
      ** after the loop, and anything else (-2) is refused there too */
      char *end;
      long k;
      errno = 0;
      k = strtol(v, &end, 10);
      if (strcmp(v, "auto") == 0)
        level2 = LDS_HPA_LEVEL2_AUTO;
      else
        level2 = errno || end == v || *end || k < 0 || k > 1000000 ? -2 : (int)k;
      level2_arg = v;
    } else if (strcmp(o, "--fast-weight") == 0) {
      if (!cli_double(CMD, "--fast-weight", v, 1.0, LDS_HPA_MAX_FAST_WEIGHT, &fast_weight)) return 2;
    } else if (strcmp(o, "--band") == 0) {
      if (!cli_int(CMD, "--band", v, 0, LDS_HPA_MAX_BAND_RADIUS, &n)) return 2;
      band = (int)n;
    } else if (strcmp(o, "--doors") == 0) {
      if (!cli_int(CMD, "--doors", v, 0, 1000000, &n)) return 2;
      doors = (size_t)n;
    } else {
      return cli_fail(CMD, "unknown option '%s' (try 'lodestar hier --help')", o);
    }
  }
  if (!map) return cli_missing(CMD, "MAP", USAGE);
  if (!scen && !pairs) return cli_missing(CMD, "--scen FILE or --pairs N", USAGE);
  if (scen && pairs) return cli_fail(CMD, "--scen and --pairs: give one of them, not both");
  if (!cli_compatible(CMD, &seen, "--no-optimal", "--alt",
                      "--alt chooses how the optimal mode runs, --no-optimal skips it") ||
      (!doors && !cli_compatible(CMD, &seen, "--scen", "--seed",
                                 "--seed draws the --pairs queries and the --doors cells; the "
                                 "--scen file has its own queries")) ||
      !cli_compatible(CMD, &seen, "--pairs", "--stride",
                      "--stride keeps every K-th --scen problem; for fewer pairs give a smaller N") ||
      !cli_compatible(CMD, &seen, "--pairs", "--limit",
                      "--limit caps the --scen problems; for fewer pairs give a smaller N"))
    return 2;
  if (level2 != LDS_HPA_LEVEL2_AUTO && level2 != 0) {
    /* the hierarchy's limit (lds_HpaParams.level2), said in the CLI's terms */
    int most = level2_max(cluster);
    if (level2 < 2 || level2 > most)
      return cli_fail(CMD,
                      "--level2: expected 'auto' (8 on maps of 4096x4096 cells or more, else "
                      "none), 0 (none) or an integer in 2..%d (the largest K with K*K*4*%d below "
                      "65535 for --cluster %d, at most 32), got '%s'",
                      most, cluster, cluster, level2_arg);
  }
  g = lds_map_load(NULL, map, &err);
  if (!g) {
    return cli_fail(CMD, "%s", err.msg);
  }
  if (doors && (lds_grid_width(g) < 3 || lds_grid_height(g) < 3))
    return cli_fail(CMD,
                    "--doors: a door is a cell not on the map's border, and %s (%dx%d) has none: "
                    "give a map of 3x3 cells or more, or leave --doors out",
                    map, lds_grid_width(g), lds_grid_height(g));
  if (pairs) {
    int32_t x, y;
    bool any = false;
    for (y = 0; y < lds_grid_height(g) && !any; y++)
      for (x = 0; x < lds_grid_width(g) && !any; x++) any = !lds_grid_blocked(g, x, y);
    if (!any)
      return cli_fail(CMD, "--pairs: %s has no passable cell to draw a pair from", map);
  }
  if (costs) terrain_costs(g, cost_seed);
  s = lds_search_new(NULL, g, &err);
  if (!s) {
    return cli_fail(CMD, "%s", err.msg);
  }
  if (scen) {
    size_t n;
    sc = lds_scen_load(NULL, scen, &err);
    if (!sc) {
      return cli_fail(CMD, "%s", err.msg);
    }
    n = lds_scen_count(sc);
    qs = calloc(n, sizeof *qs);
    for (i = 0; i < n; i += stride) {
      const lds_ScenEntry *e = lds_scen_entry(sc, i);
      if (limit && nq >= limit) break;
      if (!lds_grid_in_bounds(g, e->sx, e->sy) || !lds_grid_in_bounds(g, e->gx, e->gy))
        return cli_fail(CMD, "%s: problem %zu (%d,%d)->(%d,%d) is outside the %dx%d map %s", scen,
                        i + 1, e->sx, e->sy, e->gx, e->gy, lds_grid_width(g), lds_grid_height(g),
                        map);
      qs[nq].sx = e->sx;
      qs[nq].sy = e->sy;
      qs[nq].gx = e->gx;
      qs[nq].gy = e->gy;
      qs[nq].opt = e->optimal;
      qs[nq].e = e;
      if (costs) {
        /* the scen optimum is for unit costs: Dijkstra's on the costed map, untimed */
        lds_SearchParams p;
        lds_search_params_init(&p);
        p.algo = LDS_ALGO_DIJKSTRA;
        qs[nq].e = NULL;
        if (lds_search_start(s, &p, e->sx, e->sy, e->gx, e->gy) != LDS_OK ||
            lds_search_step(s, NULL) != LDS_FOUND)
          continue;
        qs[nq].opt = lds_search_cost(s);
      }
      nq++;
    }
  } else {
    lds_SearchParams p;
    int32_t w = lds_grid_width(g), hh = lds_grid_height(g);
    lds_search_params_init(&p);
    p.algo = LDS_ALGO_DIJKSTRA;
    /* draws of a cell, passable or not, before giving up: enough for maps
    ** whose passable cells are a small share of the cells */
    uint64_t draws = 0, most = 1000000 + 1000 * (uint64_t)pairs;
    qs = calloc(pairs, sizeof *qs);
    while (nq < pairs) {
      Query *k = &qs[nq];
      do {
        k->sx = (int32_t)(rnd() % (uint32_t)w);
        k->sy = (int32_t)(rnd() % (uint32_t)hh);
        draws++;
      } while (lds_grid_blocked(g, k->sx, k->sy) && draws < most);
      do {
        k->gx = (int32_t)(rnd() % (uint32_t)w);
        k->gy = (int32_t)(rnd() % (uint32_t)hh);
        draws++;
      } while (lds_grid_blocked(g, k->gx, k->gy) && draws < most);
      if (draws >= most)
        return cli_fail(CMD,
                        "--pairs: found %zu of %zu pairs of passable cells with a path in %llu "
                        "cell draws on %s; give a smaller N or a map with more passable cells",
                        nq, pairs, (unsigned long long)draws, map);
      /* the reference optimum: Dijkstra, untimed; unreachable pairs are drawn again */
      if (lds_search_start(s, &p, k->sx, k->sy, k->gx, k->gy) != LDS_OK ||
          lds_search_step(s, NULL) != LDS_FOUND)
        continue;
      k->opt = lds_search_cost(s);
      nq++;
    }
  }
  lds_hpa_params_init(&hp);
  hp.cluster_size = cluster;
  hp.lower_bounds = optimal;
  hp.optimal_jps = !alt;
  hp.level2 = level2;
  hp.fast_weight = fast_weight;
  hp.band_radius = band;
  h = lds_hpa_new(NULL, g, &hp, &err);
  if (!h) {
    return cli_fail(CMD, "%s", err.msg);
  }
  hq = lds_hpa_query_new(h, &err);
  lds_hpa_info(h, &info);
  build_ms = (double)info.build_us / 1e3;
  ta = calloc(nq + 1, sizeof(double));
  tf = calloc(nq + 1, sizeof(double));
  to = calloc(nq + 1, sizeof(double));
  tia = calloc(nq + 1, sizeof(double));
  tif = calloc(nq + 1, sizeof(double));
  ratio = calloc(nq + 1, sizeof(double));
  if (info.level2) tf1 = calloc(nq + 1, sizeof(double));
  /* one pass per mode over all queries, as Moving AI benchmarks run each
  ** algorithm over a scenario: A*, then the fast mode, then the optimal mode */
  for (i = 0; i < nq; i++) {
    const Query *k = &qs[i];
    double t0, c, tol = 1e-9 * (k->opt > 1 ? k->opt : 1);
    lds_Status st;
    lds_Stats stt;
    t0 = now_us();
    lds_search_start(s, NULL, k->sx, k->sy, k->gx, k->gy);
    st = lds_search_step(s, NULL);
    ta[i] = now_us() - t0;
    c = lds_search_cost(s);
    lds_search_stats(s, &stt);
    exp_a += stt.expansions;
    mism_astar += !(st == LDS_FOUND && (k->e ? lds_scen_matches(k->e, c) : fabs(c - k->opt) <= tol));
  }
  for (i = 0; i < nq; i++) {
    const Query *k = &qs[i];
    double t0;
    lds_Status st;
    lds_Stats stt;
    t0 = now_us();
    lds_hpa_query_start(hq, LDS_HPA_FAST, k->sx, k->sy, k->gx, k->gy);
    st = lds_hpa_query_step(hq, NULL);
    tf[i] = now_us() - t0;
    lds_hpa_query_stats(hq, &stt);
    exp_f += stt.expansions;
    if (st != LDS_FOUND || !legal(g, hq, k)) {
      illegal++;
    } else {
      double r = lds_hpa_query_cost(hq) / (k->opt > 0 ? k->opt : 1);
      if (k->opt == 0) r = 1.0;
      ratio[nf++] = r;
      if (r <= 1.01 + 1e-9) within++;
      if (r > worst) worst = r;
    }
  }
  /* with a second level: the fast mode again without it, its own pass;
  ** then at weight 1 the shortest abstract cost must be the same through
  ** either level (a weighted search's may differ) */
  for (i = 0; tf1 && i < nq; i++) {
    const Query *k = &qs[i];
    double a0, a1, t1;
    lds_Status st;
    lds_Stats stt;
    lds_hpa_use_level2(h, false);
    t1 = now_us();
    lds_hpa_query_start(hq, LDS_HPA_FAST, k->sx, k->sy, k->gx, k->gy);
    st = lds_hpa_query_step(hq, NULL);
    tf1[i] = now_us() - t1;
    lds_hpa_use_level2(h, true);
    lds_hpa_query_stats(hq, &stt);
    exp_f1 += stt.expansions;
    if (st != LDS_FOUND || !legal(g, hq, k)) illegal++;
    lds_hpa_set_fast_weight(h, 1.0);
    lds_hpa_use_level2(h, false);
    lds_hpa_query_start(hq, LDS_HPA_FAST, k->sx, k->sy, k->gx, k->gy);
    lds_hpa_query_step(hq, NULL);
    a0 = lds_hpa_query_abstract_cost(hq);
    lds_hpa_use_level2(h, true);
    lds_hpa_query_start(hq, LDS_HPA_FAST, k->sx, k->sy, k->gx, k->gy);
    lds_hpa_query_step(hq, NULL);
    a1 = lds_hpa_query_abstract_cost(hq);
    lds_hpa_set_fast_weight(h, fast_weight);
    if (fabs(a0 - a1) > 1e-6 * (a1 > 1 ? a1 : 1))
      fprintf(stderr, "lodestar hier: abstract cost with level 2 %.9g, without %.9g\n", a1, a0);
  }
  for (i = 0; optimal && i < nq; i++) {
    const Query *k = &qs[i];
    double t0, c, tol = 1e-9 * (k->opt > 1 ? k->opt : 1);
    lds_Status st;
    lds_Stats stt;
    t0 = now_us();
    lds_hpa_query_start(hq, LDS_HPA_OPTIMAL, k->sx, k->sy, k->gx, k->gy);
    st = lds_hpa_query_step(hq, NULL);
    to[i] = now_us() - t0;
    lds_hpa_query_stats(hq, &stt);
    exp_o += stt.expansions;
    c = lds_hpa_query_cost(hq);
    if (st != LDS_FOUND || !(k->e ? lds_scen_matches(k->e, c) : fabs(c - k->opt) <= tol)) {
      mism_opt++;
      if (mism_opt <= 5)
        fprintf(stderr, "lodestar hier: optimal mode mismatch (%d,%d)->(%d,%d): %.9g vs %.9g\n",
                k->sx, k->sy, k->gx, k->gy, c, k->opt);
    }
    if (st == LDS_FOUND && !legal(g, hq, k)) illegal++;
  }
  /* interleaved: each fast query right after an A* of the same query, which
  ** evicts the hierarchy's data from the caches; both timed (the paths were
  ** checked in the passes above) */
  for (i = 0; i < nq; i++) {
    const Query *k = &qs[i];
    double t0 = now_us();
    lds_search_start(s, NULL, k->sx, k->sy, k->gx, k->gy);
    lds_search_step(s, NULL);
    tia[i] = now_us() - t0;
    t0 = now_us();
    lds_hpa_query_start(hq, LDS_HPA_FAST, k->sx, k->sy, k->gx, k->gy);
    lds_hpa_query_step(hq, NULL);
    tif[i] = now_us() - t0;
  }
  /* door toggles: N doors inside a cluster, then N whose way through
  ** crosses a cluster border (an entrance of the two clusters); with a
  ** second level, then N border doors closed for good (each repaired),
  ** the lds_hpa_refresh calls that rebuild the second-level clusters they
  ** left stale, and the doors opened again (untimed) */
  rep = calloc(2 * doors + 1, sizeof(double));
  brep = calloc(2 * doors + 1, sizeof(double));
  krep = calloc(doors + 1, sizeof(double));
  frep = calloc(2 * doors + 1, sizeof(double));
  kxy = calloc(2 * doors + 2, sizeof(int32_t));
  tfs = calloc(nq + 1, sizeof(double));
  {
    int pass;
    for (pass = 0; pass < 2; pass++) {
      size_t tries = 0, *nr = pass ? &nbrep : &nrep;
      double *r = pass ? brep : rep;
      int32_t x, y;
      while (*nr < 2 * doors && draw_door(g, cluster, pass == 1, &tries, &x, &y)) {
        double t0;
        lds_grid_set_blocked(g, x, y, true);
        t0 = now_us();
        lds_hpa_repair(h);
        r[(*nr)++] = now_us() - t0;
        lds_grid_set_blocked(g, x, y, false);
        t0 = now_us();
        lds_hpa_repair(h);
        r[(*nr)++] = now_us() - t0;
      }
    }
    lds_hpa_info(h, &info);
    blast = info.last_repair_clusters;
    if (info.level2 && doors) {
      size_t tries = 0, k;
      int32_t x, y;
      while (nkrep < doors && draw_door(g, cluster, true, &tries, &x, &y)) {
        double t0;
        lds_grid_set_blocked(g, x, y, true);
        kxy[2 * nkrep] = x;
        kxy[2 * nkrep + 1] = y;
        t0 = now_us();
        lds_hpa_repair(h);
        krep[nkrep++] = now_us() - t0;
        lds_hpa_info(h, &info);
        if (info.level2_stale > stale_max) stale_max = info.level2_stale;
      }
      /* the fast mode while they are stale (doors closed: timed only) */
      lds_hpa_info(h, &info);
      stale_left = info.level2_stale;
      for (k = 0; k < nq && tfs; k++) {
        double t0 = now_us();
        lds_Stats stt;
        lds_hpa_query_start(hq, LDS_HPA_FAST, qs[k].sx, qs[k].sy, qs[k].gx, qs[k].gy);
        lds_hpa_query_step(hq, NULL);
        tfs[nfs++] = now_us() - t0;
        lds_hpa_query_stats(hq, &stt);
        exp_fs += stt.expansions;
      }
      for (;;) {
        double t0;
        lds_hpa_info(h, &info);
        if (!info.level2_stale || nfrep >= 2 * doors) break;
        t0 = now_us();
        lds_hpa_refresh(h);
        frep[nfrep++] = now_us() - t0;
      }
      for (k = 0; k < nkrep; k++) lds_grid_set_blocked(g, kxy[2 * k], kxy[2 * k + 1], false);
      lds_hpa_repair(h);
      for (k = 0; k < 64 && (lds_hpa_info(h, &info), info.level2_stale); k++) lds_hpa_refresh(h);
    }
  }
  {
    double fr = 0, fo = 0, ma = median(ta, nq), mf = median(tf, nq), mo = optimal ? median(to, nq) : 0;
    double pct = nf ? 100.0 * (double)within / (double)nq : 0, mr = median(rep, nrep);
    double mbr = median(brep, nbrep), mkr = median(krep, nkrep), mfr = median(frep, nfrep);
    double mfs = median(tfs, nfs);
    double mratio = median(ratio, nf), mia = median(tia, nq), mif = median(tif, nq);
    double fir = mif > 0 ? mia / mif : 0;
    fr = mf > 0 ? ma / mf : 0;
    fo = mo > 0 ? ma / mo : 0;
    lds_hpa_info(h, &info);
    printf("%s: %dx%d, %zu queries (%s), cluster %d, fast weight %g, band %d", map,
           lds_grid_width(g), lds_grid_height(g), nq,
           scen ? (costs ? "scen, Dijkstra optimum" : "scen") : "random pairs, Dijkstra optimum",
           cluster, fast_weight, band);
    if (costs) printf(", terrain costs 1..4 (seed %u)", (unsigned)cost_seed);
    printf("\n");
    printf("  build %.1f ms (wall-clock), %zu entrances, %zu intra edges, %.2f bytes/cell (%.1f MB)\n", build_ms,
           info.entrances, info.intra_edges, info.bytes_per_cell, (double)info.bytes / 1e6);
    printf("  A* median %.1f us; fast median %.2f us (%.1fx); ", ma, mf, fr);
    if (optimal)
      printf("optimal median %.1f us (%.2fx)\n", mo, fo);
    else
      printf("optimal mode skipped (--no-optimal)\n");
    printf("  fast interleaved after A*: median %.2f us (%.1fx, A* median %.1f us in that pass)\n",
           mif, fir, mia);
    printf("  fast: %.2f%% within 1%% of optimal, median ratio %.5f, worst %.4f; illegal %zu\n", pct,
           mratio, worst, illegal);
    if (optimal)
      printf("  optimal mode mismatches %zu, A* mismatches %zu\n", mism_opt, mism_astar);
    else
      printf("  optimal mode skipped, A* mismatches %zu\n", mism_astar);
    printf("  mean expansions per query: A* %.0f, fast %.0f", nq ? (double)exp_a / (double)nq : 0.0,
           nq ? (double)exp_f / (double)nq : 0.0);
    if (optimal)
      printf(", optimal %.0f\n", nq ? (double)exp_o / (double)nq : 0.0);
    else
      printf(", optimal skipped\n");
    if (tf1) {
      double m1 = median(tf1, nq);
      printf("  level 2 (%d x %d clusters, %zu entrances, %.2f bytes/cell, built in %.1f ms): fast "
             "without it %.2f us (%.1fx), %.0f expansions\n",
             info.level2, info.level2, info.level2_entrances,
             (double)info.level2_bytes / ((double)lds_grid_width(g) * (double)lds_grid_height(g)),
             (double)info.level2_build_us / 1e3, m1, m1 > 0 ? ma / m1 : 0.0,
             nq ? (double)exp_f1 / (double)nq : 0.0);
    }
    if (nrep)
      printf("  door toggle repair: median %.1f us over %zu repairs of doors inside a cluster\n", mr,
             nrep);
    if (nbrep)
      printf("  border door toggle repair: median %.1f us over %zu repairs of doors on a cluster's "
             "border (last rebuilt %llu clusters)\n",
             mbr, nbrep, (unsigned long long)blast);
    if (nkrep)
      printf("  border doors kept closed: repair median %.1f us over %zu (at most %u second-level "
             "clusters stale); lds_hpa_refresh median %.1f us over %zu\n",
             mkr, nkrep, (unsigned)stale_max, mfr, nfrep);
    if (nfs)
      printf("  fast median with %u second-level clusters stale %.2f us (%.0f expansions; "
             "not checked: the doors changed the optimum)\n",
             (unsigned)stale_left, mfs, (double)exp_fs / (double)nfs);
    if (json) {
      /* without the optimal mode its three fields are null: nothing was
      ** measured, and a 0 would read as a measured time or a clean run */
      char om[32] = "null", os[32] = "null", omm[32] = "null", dr[32] = "null", bdr[32] = "null";
      char kdr[32] = "null", rfr[32] = "null", fsm[32] = "null";
      if (nfs) snprintf(fsm, sizeof fsm, "%.2f", mfs);
      if (nkrep) snprintf(kdr, sizeof kdr, "%.2f", mkr); /* null without a second level */
      if (nfrep) snprintf(rfr, sizeof rfr, "%.2f", mfr);
      if (nrep) snprintf(dr, sizeof dr, "%.2f", mr); /* null without --doors: none measured */
      if (nbrep) snprintf(bdr, sizeof bdr, "%.2f", mbr);
      if (optimal) {
        snprintf(om, sizeof om, "%.2f", mo);
        snprintf(os, sizeof os, "%.3f", fo);
        snprintf(omm, sizeof omm, "%zu", mism_opt);
      }
      printf("{\"map\":\"%s\",\"queries\":%zu,\"cluster\":%d,\"build_ms\":%.1f,\"bytes_per_cell\":%.2f,"
             "\"astar_median_us\":%.2f,\"fast_median_us\":%.2f,\"fast_speedup\":%.2f,"
             "\"optimal\":%s,\"optimal_median_us\":%s,\"optimal_speedup\":%s,\"fast_within_1pct\":%.3f,"
             "\"fast_worst_ratio\":%.5f,\"illegal\":%zu,\"optimal_mismatches\":%s,"
             "\"astar_mismatches\":%zu,\"door_repair_median_us\":%s,"
             "\"border_door_repair_median_us\":%s,\"border_kept_repair_median_us\":%s,"
             "\"level2_refresh_median_us\":%s,\"fast_stale_median_us\":%s,\"alt\":%s,\"costs\":%s,"
             "\"fast_interleaved_median_us\":%.2f,\"fast_interleaved_speedup\":%.2f,"
             "\"fast_weight\":%g,\"band_radius\":%d}\n",
             map, nq, cluster, build_ms, info.bytes_per_cell, ma, mf, fr, optimal ? "true" : "false", om,
             os, pct, worst, illegal, omm, mism_astar, dr, bdr, kdr, rfr, fsm, alt ? "true" : "false",
             costs ? "true" : "false", mif, fir, fast_weight, band);
    }
  }
  lds_hpa_query_free(hq);
  lds_hpa_free(h);
  lds_search_free(s);
  lds_scen_free(sc);
  lds_grid_free(g);
  free(qs);
  free(ta);
  free(tf);
  free(to);
  free(tia);
  free(tif);
  free(ratio);
  free(rep);
  free(brep);
  free(krep);
  free(frep);
  free(kxy);
  free(tfs);
  free(tf1);
  return (mism_opt || illegal) ? 1 : 0;
}
