/* SPDX-License-Identifier: MIT */
/*
** hpa_query_bench.c — the hierarchy's fast queries alone, on a fixed query
** set, for profiling (docs/hierarchy.md, "Refinement and smoothing,
** measured"): builds the hierarchy of MAP (default parameters), then runs
** every query in the fast mode R times, timed with the thread's CPU clock.
** Under callgrind only the queries are instrumented (callgrind client
** requests, when <valgrind/callgrind.h> is there), so the hierarchy build
** of a 4096x4096 map runs at valgrind's uninstrumented speed:
**
**   make build/hpa_query_bench
**   build/hpa_query_bench MAP (--scen FILE --stride K | --pairs N --seed S) [--reps R]
**                         [--weight W]   (lds_HpaParams.fast_weight, default LDS_HPA_FAST_WEIGHT)
**   valgrind --tool=callgrind --instr-atstart=no build/hpa_query_bench ...
**
** Queries: every K-th problem of a Moving AI scen file (its optimum the
** reference), or N random pairs of passable cells with a path drawn as
** `lodestar hier --pairs N --seed S` draws them (the same pairs), their
** optimum by Dijkstra, untimed. Prints the median query time (µs), the
** share of paths within 1 % of the reference, the worst ratio, the mean
** expansions and an FNV-1a hash of the paths' cells (same build, same
** hash). Exit 1 on a query that is not found, 2 on bad input.
*/
#define _POSIX_C_SOURCE 199309L
#include "lds.h"
#include "lds_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#if defined(__has_include)
#if __has_include(<valgrind/callgrind.h>)
#include <valgrind/callgrind.h>
#endif
#endif
#ifndef CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_START_INSTRUMENTATION
#define CALLGRIND_STOP_INSTRUMENTATION
#endif

typedef struct {
  int32_t sx, sy, gx, gy;
  double opt;
} Query;

static uint64_t rng_state = 1;
/* the generator of tools/lodestar/hier.c, so --pairs N --seed S are its pairs */
static uint32_t rnd(void) {
  rng_state = rng_state * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_state >> 33);
}

static double now_us(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return (double)t.tv_sec * 1e6 + (double)t.tv_nsec / 1e3;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

static int usage(void) {
  fprintf(stderr, "usage: hpa_query_bench MAP (--scen FILE --stride K | --pairs N --seed S) "
                  "[--reps R] [--weight W]\n");
  return 2;
}

int main(int argc, char **argv) {
  const char *scen = NULL;
  long stride = 1, pairs = 0, reps = 1, seed = 1;
  lds_Error err;
  lds_Grid *g;
  lds_Hpa *h;
  lds_HpaQuery *q;
  lds_HpaParams hp;
  Query *qs = NULL;
  size_t nq = 0, i, within = 0, r;
  double *tm, worst = 0.0, t0;
  uint64_t hash = 1469598103934665603ull, exp = 0;
  double weight = LDS_HPA_FAST_WEIGHT;
  int a, bad = 0;
  if (argc < 2) return usage();
  for (a = 2; a + 1 < argc; a += 2) {
    char *end;
    long v = strtol(argv[a + 1], &end, 10);
    if (strcmp(argv[a], "--scen") == 0) {
      scen = argv[a + 1];
      continue;
    }
    if (strcmp(argv[a], "--weight") == 0) {
      weight = strtod(argv[a + 1], &end);
      if (*end || !(weight >= 1.0 && weight <= LDS_HPA_MAX_FAST_WEIGHT)) {
        fprintf(stderr, "hpa_query_bench: --weight expects a number in 1..%g, got '%s'\n",
                LDS_HPA_MAX_FAST_WEIGHT, argv[a + 1]);
        return 2;
      }
      continue;
    }
    if (*end || v < 0) {
      fprintf(stderr, "hpa_query_bench: %s expects a number >= 0, got '%s'\n", argv[a], argv[a + 1]);
      return 2;
    }
    if (strcmp(argv[a], "--stride") == 0 && v > 0) stride = v;
    else if (strcmp(argv[a], "--pairs") == 0 && v > 0) pairs = v;
    else if (strcmp(argv[a], "--seed") == 0) seed = v;
    else if (strcmp(argv[a], "--reps") == 0 && v > 0) reps = v;
    else return usage();
  }
  if (a != argc || (!scen) == (!pairs)) return usage();
  g = lds_map_load(NULL, argv[1], &err);
  if (!g) {
    fprintf(stderr, "hpa_query_bench: %s\n", err.msg);
    return 2;
  }
  if (scen) {
    lds_Scenario *sc = lds_scen_load(NULL, scen, &err);
    if (!sc) {
      fprintf(stderr, "hpa_query_bench: %s\n", err.msg);
      return 2;
    }
    qs = calloc(lds_scen_count(sc) / (size_t)stride + 1, sizeof *qs);
    for (i = 0; qs && i < lds_scen_count(sc); i += (size_t)stride) {
      const lds_ScenEntry *e = lds_scen_entry(sc, i);
      Query k = {e->sx, e->sy, e->gx, e->gy, e->optimal};
      qs[nq++] = k;
    }
    lds_scen_free(sc);
  } else {
    lds_Search *s = lds_search_new(NULL, g, &err);
    lds_SearchParams p;
    int32_t w = lds_grid_width(g), hh = lds_grid_height(g);
    lds_search_params_init(&p);
    p.algo = LDS_ALGO_DIJKSTRA;
    rng_state = (uint64_t)seed;
    qs = calloc((size_t)pairs, sizeof *qs);
    while (s && qs && nq < (size_t)pairs) {
      Query *k = &qs[nq];
      do {
        k->sx = (int32_t)(rnd() % (uint32_t)w);
        k->sy = (int32_t)(rnd() % (uint32_t)hh);
      } while (lds_grid_blocked(g, k->sx, k->sy));
      do {
        k->gx = (int32_t)(rnd() % (uint32_t)w);
        k->gy = (int32_t)(rnd() % (uint32_t)hh);
      } while (lds_grid_blocked(g, k->gx, k->gy));
      if (lds_search_start(s, &p, k->sx, k->sy, k->gx, k->gy) != LDS_OK ||
          lds_search_step(s, NULL) != LDS_FOUND)
        continue;
      k->opt = lds_search_cost(s);
      nq++;
    }
    lds_search_free(s);
  }
  if (!qs || nq == 0) {
    fprintf(stderr, "hpa_query_bench: no queries\n");
    return 2;
  }
  lds_hpa_params_init(&hp);
  hp.fast_weight = weight;
  t0 = now_us();
  h = lds_hpa_new(NULL, g, &hp, &err);
  if (!h) {
    fprintf(stderr, "hpa_query_bench: %s\n", err.msg);
    return 2;
  }
  printf("%s: %zu queries, build %.1f s\n", argv[1], nq, (now_us() - t0) / 1e6);
  q = lds_hpa_query_new(h, &err);
  tm = calloc(nq * (size_t)reps, sizeof *tm);
  if (!q || !tm) {
    fprintf(stderr, "hpa_query_bench: out of memory\n");
    return 2;
  }
  CALLGRIND_START_INSTRUMENTATION;
  for (r = 0; r < (size_t)reps; r++)
    for (i = 0; i < nq; i++) {
      const Query *k = &qs[i];
      lds_Status st;
      double t = now_us();
      lds_hpa_query_start(q, LDS_HPA_FAST, k->sx, k->sy, k->gx, k->gy);
      st = lds_hpa_query_step(q, NULL);
      tm[r * nq + i] = now_us() - t;
      if (r == 0) {
        double ratio = lds_hpa_query_cost(q) / (k->opt > 0 ? k->opt : 1);
        lds_Path *p = lds_hpa_query_path(q, NULL);
        lds_Stats ss;
        size_t c;
        if (st != LDS_FOUND || !p) {
          fprintf(stderr, "hpa_query_bench: query %zu (%d,%d)->(%d,%d): %s\n", i, k->sx, k->sy,
                  k->gx, k->gy, lds_status_name(st));
          bad = 1;
        }
        within += ratio <= 1.01 + 1e-9;
        if (ratio > worst) worst = ratio;
        for (c = 0; p && c < lds_path_length(p); c++) {
          hash ^= lds_path_nodes(p)[c];
          hash *= 1099511628211ull;
        }
        lds_path_free(p);
        lds_hpa_query_stats(q, &ss);
        exp += ss.expansions;
      }
    }
  CALLGRIND_STOP_INSTRUMENTATION;
  qsort(tm, nq * (size_t)reps, sizeof *tm, cmp_double);
  printf("fast median %.1f us over %zu runs; %.2f%% within 1%% of optimal, worst %.5f; "
         "mean expansions %.1f; paths hash %016llx\n",
         tm[nq * (size_t)reps / 2], nq * (size_t)reps, 100.0 * (double)within / (double)nq, worst,
         (double)exp / (double)nq, (unsigned long long)hash);
  free(tm);
  free(qs);
  lds_hpa_query_free(q);
  lds_hpa_free(h);
  lds_grid_free(g);
  return bad;
}
