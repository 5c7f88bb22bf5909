/* SPDX-License-Identifier: MIT */
/*
** hier.c — `lodestar hier`: the cluster hierarchy (core/lds_hpa.h) against
** our own A* on the same queries, in one run (tests/bench/bench_hier.sh
** runs it; docs/hierarchy.md has its table).
**
**   lodestar hier MAP (--scen FILE | --pairs N) [--seed S] [--cluster C]
**                 [--stride K] [--limit N] [--doors N] [--no-optimal] [--json]
**
** Queries: the scen file's problems (their printed optimum is the reference),
** or N random pairs of passable cells (pairs with no path are drawn again), whose
** reference optimum is computed once by Dijkstra, untimed. Each query is
** timed with the thread's CPU clock for A* (lds_search, reused), the fast
** mode and the optimal mode. Printed: build time, bytes per cell, median
** query times and ratios against A*, the share of fast paths within 1 % of
** the optimum, the worst ratio, mismatches of the optimal mode and of A*,
** illegal paths, and the repair time of N door toggles (a passable cell
** with exactly two passable orthogonal neighbours, opposite each other, or
** any passable cell when there is none, blocked then opened again: two
** repairs each).
** Exit status: 0, 1 on a mismatch of the optimal mode or an illegal path,
** 2 on bad input.
*/
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

static double now_us(void) { return (double)cli_cpu_ns() / 1e3; }

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
  int cluster = 16, a;
  bool optimal = true, json = false;
  lds_Error err;
  lds_Grid *g;
  lds_Scenario *sc = NULL;
  Query *qs;
  lds_HpaParams hp;
  lds_Hpa *h;
  lds_HpaQuery *hq;
  lds_Search *s;
  lds_HpaInfo info;
  double *ta, *tf, *to, *ratio, *rep;
  size_t within = 0, mism_opt = 0, mism_astar = 0, illegal = 0, nrep = 0, nf = 0;
  double worst = 1.0, build_ms;
  uint64_t exp_a = 0, exp_f = 0, exp_o = 0;
  for (a = 2; a < argc; a++) {
    if (!strcmp(argv[a], "--scen") && a + 1 < argc) scen = argv[++a];
    else if (!strcmp(argv[a], "--pairs") && a + 1 < argc) pairs = strtoul(argv[++a], NULL, 10);
    else if (!strcmp(argv[a], "--seed") && a + 1 < argc) rng_state = strtoull(argv[++a], NULL, 10);
    else if (!strcmp(argv[a], "--cluster") && a + 1 < argc) cluster = atoi(argv[++a]);
    else if (!strcmp(argv[a], "--stride") && a + 1 < argc) stride = strtoul(argv[++a], NULL, 10);
    else if (!strcmp(argv[a], "--limit") && a + 1 < argc) limit = strtoul(argv[++a], NULL, 10);
    else if (!strcmp(argv[a], "--doors") && a + 1 < argc) doors = strtoul(argv[++a], NULL, 10);
    else if (!strcmp(argv[a], "--no-optimal")) optimal = false;
    else if (!strcmp(argv[a], "--json")) json = true;
    else if (argv[a][0] != '-' && !map) map = argv[a];
    else {
      fprintf(stderr, "lodestar hier: unknown or incomplete argument '%s'\n", argv[a]);
      return 2;
    }
  }
  if (!map || (!scen && !pairs) || stride == 0) {
    fprintf(stderr, "usage: lodestar hier MAP (--scen FILE | --pairs N) [--seed S] [--cluster C] "
                    "[--stride K] [--limit N] [--doors N] [--no-optimal] [--json]\n");
    return 2;
  }
  g = lds_map_load(NULL, map, &err);
  if (!g) {
    fprintf(stderr, "lodestar hier: %s\n", err.msg);
    return 2;
  }
  s = lds_search_new(NULL, g, &err);
  if (!s) {
    fprintf(stderr, "lodestar hier: %s\n", err.msg);
    return 2;
  }
  if (scen) {
    size_t n;
    sc = lds_scen_load(NULL, scen, &err);
    if (!sc) {
      fprintf(stderr, "lodestar hier: %s\n", err.msg);
      return 2;
    }
    n = lds_scen_count(sc);
    qs = calloc(n, sizeof *qs);
    for (i = 0; i < n; i += stride) {
      const lds_ScenEntry *e = lds_scen_entry(sc, i);
      if (limit && nq >= limit) break;
      qs[nq].sx = e->sx;
      qs[nq].sy = e->sy;
      qs[nq].gx = e->gx;
      qs[nq].gy = e->gy;
      qs[nq].opt = e->optimal;
      qs[nq].e = e;
      nq++;
    }
  } else {
    lds_SearchParams p;
    int32_t w = lds_grid_width(g), hh = lds_grid_height(g);
    lds_search_params_init(&p);
    p.algo = LDS_ALGO_DIJKSTRA;
    qs = calloc(pairs, sizeof *qs);
    while (nq < pairs) {
      Query *k = &qs[nq];
      do {
        k->sx = (int32_t)(rnd() % (uint32_t)w);
        k->sy = (int32_t)(rnd() % (uint32_t)hh);
      } while (lds_grid_blocked(g, k->sx, k->sy));
      do {
        k->gx = (int32_t)(rnd() % (uint32_t)w);
        k->gy = (int32_t)(rnd() % (uint32_t)hh);
      } while (lds_grid_blocked(g, k->gx, k->gy));
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
  h = lds_hpa_new(NULL, g, &hp, &err);
  if (!h) {
    fprintf(stderr, "lodestar hier: %s\n", err.msg);
    return 2;
  }
  hq = lds_hpa_query_new(h, &err);
  lds_hpa_info(h, &info);
  build_ms = (double)info.build_us / 1e3;
  ta = calloc(nq + 1, sizeof(double));
  tf = calloc(nq + 1, sizeof(double));
  to = calloc(nq + 1, sizeof(double));
  ratio = calloc(nq + 1, sizeof(double));
  for (i = 0; i < nq; i++) {
    const Query *k = &qs[i];
    double t0, c, tol = 1e-9 * (k->opt > 1 ? k->opt : 1);
    lds_Status st;
    bool ok_a;
    t0 = now_us();
    lds_search_start(s, NULL, k->sx, k->sy, k->gx, k->gy);
    st = lds_search_step(s, NULL);
    ta[i] = now_us() - t0;
    c = lds_search_cost(s);
    {
      lds_Stats stt;
      lds_search_stats(s, &stt);
      exp_a += stt.expansions;
    }
    ok_a = st == LDS_FOUND && (k->e ? lds_scen_matches(k->e, c) : fabs(c - k->opt) <= tol);
    mism_astar += !ok_a;
    t0 = now_us();
    lds_hpa_query_start(hq, LDS_HPA_FAST, k->sx, k->sy, k->gx, k->gy);
    st = lds_hpa_query_step(hq, NULL);
    tf[i] = now_us() - t0;
    {
      lds_Stats stt;
      lds_hpa_query_stats(hq, &stt);
      exp_f += stt.expansions;
    }
    if (st != LDS_FOUND || !legal(g, hq, k)) {
      illegal++;
    } else {
      double r = lds_hpa_query_cost(hq) / (k->opt > 0 ? k->opt : 1);
      if (k->opt == 0) r = 1.0;
      ratio[nf++] = r;
      if (r <= 1.01 + 1e-9) within++;
      if (r > worst) worst = r;
    }
    if (optimal) {
      t0 = now_us();
      lds_hpa_query_start(hq, LDS_HPA_OPTIMAL, k->sx, k->sy, k->gx, k->gy);
      st = lds_hpa_query_step(hq, NULL);
      to[i] = now_us() - t0;
      {
        lds_Stats stt;
        lds_hpa_query_stats(hq, &stt);
        exp_o += stt.expansions;
      }
      c = lds_hpa_query_cost(hq);
      if (st != LDS_FOUND || !(k->e ? lds_scen_matches(k->e, c) : fabs(c - k->opt) <= tol)) {
        mism_opt++;
        if (mism_opt <= 5)
          fprintf(stderr, "lodestar hier: optimal mode mismatch (%d,%d)->(%d,%d): %.9g vs %.9g\n",
                  k->sx, k->sy, k->gx, k->gy, c, k->opt);
      }
      if (st == LDS_FOUND && !legal(g, hq, k)) illegal++;
    }
  }
  /* door toggles */
  rep = calloc(2 * doors + 1, sizeof(double));
  {
    int32_t w = lds_grid_width(g), hh = lds_grid_height(g);
    size_t tries = 0;
    while (nrep < 2 * doors && tries < 1000000) {
      int32_t x = 1 + (int32_t)(rnd() % (uint32_t)(w - 2)), y = 1 + (int32_t)(rnd() % (uint32_t)(hh - 2));
      bool n = !lds_grid_blocked(g, x, y - 1), so = !lds_grid_blocked(g, x, y + 1);
      bool e = !lds_grid_blocked(g, x + 1, y), we = !lds_grid_blocked(g, x - 1, y);
      double t0;
      tries++;
      /* a door: a passable cell in a one-cell gap (blocked on two opposite
      ** sides); after 100000 draws without one, any passable cell */
      if (lds_grid_blocked(g, x, y) ||
          (tries < 100000 && !((n && so && !e && !we) || (e && we && !n && !so))))
        continue;
      lds_grid_set_blocked(g, x, y, true);
      t0 = now_us();
      lds_hpa_repair(h);
      rep[nrep++] = now_us() - t0;
      lds_grid_set_blocked(g, x, y, false);
      t0 = now_us();
      lds_hpa_repair(h);
      rep[nrep++] = now_us() - t0;
    }
  }
  {
    double fr = 0, fo = 0, ma = median(ta, nq), mf = median(tf, nq), mo = optimal ? median(to, nq) : 0;
    double pct = nf ? 100.0 * (double)within / (double)nq : 0, mr = median(rep, nrep);
    double mratio = median(ratio, nf);
    fr = mf > 0 ? ma / mf : 0;
    fo = mo > 0 ? ma / mo : 0;
    lds_hpa_info(h, &info);
    printf("%s: %dx%d, %zu queries (%s), cluster %d\n", map, lds_grid_width(g), lds_grid_height(g), nq,
           scen ? "scen" : "random pairs, Dijkstra optimum", cluster);
    printf("  build %.1f ms, %zu entrances, %zu intra edges, %.2f bytes/cell (%.1f MB)\n", build_ms,
           info.entrances, info.intra_edges, info.bytes_per_cell, (double)info.bytes / 1e6);
    printf("  A* median %.1f us; fast median %.2f us (%.1fx); optimal median %.1f us (%.2fx)\n", ma,
           mf, fr, mo, fo);
    printf("  fast: %.2f%% within 1%% of optimal, median ratio %.5f, worst %.4f; illegal %zu\n", pct,
           mratio, worst, illegal);
    printf("  optimal mode mismatches %zu, A* mismatches %zu\n", mism_opt, mism_astar);
    printf("  mean expansions per query: A* %.0f, fast %.0f, optimal %.0f\n",
           nq ? (double)exp_a / (double)nq : 0.0, nq ? (double)exp_f / (double)nq : 0.0,
           nq ? (double)exp_o / (double)nq : 0.0);
    if (nrep)
      printf("  door toggle repair: median %.1f us over %zu repairs (last rebuilt %llu clusters)\n", mr,
             nrep, (unsigned long long)info.last_repair_clusters);
    if (json)
      printf("{\"map\":\"%s\",\"queries\":%zu,\"cluster\":%d,\"build_ms\":%.1f,\"bytes_per_cell\":%.2f,"
             "\"astar_median_us\":%.2f,\"fast_median_us\":%.2f,\"fast_speedup\":%.2f,"
             "\"optimal_median_us\":%.2f,\"optimal_speedup\":%.3f,\"fast_within_1pct\":%.3f,"
             "\"fast_worst_ratio\":%.5f,\"illegal\":%zu,\"optimal_mismatches\":%zu,"
             "\"astar_mismatches\":%zu,\"door_repair_median_us\":%.2f}\n",
             map, nq, cluster, build_ms, info.bytes_per_cell, ma, mf, fr, mo, fo, pct, worst, illegal,
             mism_opt, mism_astar, mr);
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
  free(ratio);
  free(rep);
  return (mism_opt || illegal) ? 1 : 0;
}
