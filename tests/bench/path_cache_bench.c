/* SPDX-License-Identifier: MIT */
/*
** path_cache_bench.c — the scheduler's path cache (core/lds_path_cache.h)
** with many agents sharing a few destinations, under edits.
**
**   build/path_cache_bench MAP [AGENTS [DESTINATIONS [TRIPS]]]
**
** AGENTS (default 1000) agents make TRIPS (default 4) trips each from one of
** 10 barracks (a random cell of a disc of radius 6 around one of 10 fixed
** cells of the map's largest component: soldiers leave from a few places)
** to one of DESTINATIONS (default 10) fixed cells. An agent asks for its
** next trip 1 + length/16 frames after its path arrived (it walks). Every
** 10 frames a crate (a 2x2 block) is put down or picked up at one of 8
** random places of the map (the rate of the demo's doors), so the trees
** through those cells are cut back. Each frame is
** one lds_scheduler_step of 4000 expansions (deterministic mode). Every
** delivered path is checked after the frame, before the next edit
** (untimed), against a fresh A* search on the grid as it is: same status,
** same cost (1e-9 relative), legal moves, right endpoints.
** The same run is made without the cache. Printed: paths delivered,
** searches per delivered path (searches started + cache answers that grew a
** tree, over paths), cache hit rate, expansions, time in the scheduler, the
** cache's memory, and wrong paths. Verdict: with the cache, searches per
** delivered path <= 0.2 and 0 wrong paths. Exit 1 on a failed verdict.
**
**   build/path_cache_bench --edits MAP [TREES [EDITS]]
**
** The cost of an edit to a cache holding TREES (default 3) grown trees:
** TREES goals of the map's largest component, each tree grown by queries
** from 32 of its cells; then EDITS (default 100) times a random cell of the
** component is blocked (timed: the lds_grid_set_blocked call, in which the
** cache updates its trees), every tree is asked for a path from one of the
** 32 starts (timed: the query after the edit, which regrows what the edit
** cut), the cell is unblocked (timed) and the trees asked again (timed).
** The first tree's answers are checked, untimed, against a fresh A*
** (status, cost within 1e-9, legal moves). Printed: medians and maxima in
** µs. Verdict: median set_blocked <= 1000 µs (block and unblock) and 0
** wrong answers; exit 1 on a failed verdict.
*/
#define _POSIX_C_SOURCE 199309L
#include "lds.h"
#include "lds_io.h"

#include <stdio.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>
#include <time.h>

static double now_us(void) {
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (double)ts.tv_sec * 1e6 + (double)ts.tv_nsec / 1e3;
}

static unsigned long long rng = 88172645463325252ULL;
static long rnd(long n) {
  rng ^= rng << 13;
  rng ^= rng >> 7;
  rng ^= rng << 17;
  return (long)(rng % (unsigned long long)n);
}

typedef struct Agent {
  int trips_left;
  long ready_frame; /* next request at this frame; -1 while one is pending */
} Agent;

typedef struct Run {
  lds_Grid *g;
  Agent *agents;
  long nagents;
  lds_Path **got;     /* paths delivered in this frame, checked after it */
  lds_Status *got_st;
  long *got_agent;
  int32_t (*got_sg)[4];
  long ngot;
  long delivered, no_path;
  uint64_t frame;
} Run;

static lds_Status on_done(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                          const lds_RequestInfo *info) {
  Run *r = (Run *)ud;
  if (ev != LDS_EVENT_DONE) return LDS_OK;
  r->got[r->ngot] = lds_scheduler_take_path(sc, id);
  r->got_st[r->ngot] = info->status;
  r->got_agent[r->ngot] = (long)info->agent_id;
  r->ngot++;
  return LDS_OK;
}

/* One whole run; returns wrong paths. Fills searches, expansions, time. */
static long run(lds_Grid *g, const int32_t (*spawn)[2], long nspawn, const int32_t (*dest)[2],
                int ndest, long nagents, int trips, bool cache, const int32_t (*crates)[2],
                double *searches_per_path, double *hit_rate, uint64_t *expansions, double *us,
                size_t *cache_bytes, long *delivered, lds_PathCacheStats *cst) {
  lds_SchedulerConfig cfg;
  lds_Scheduler *sc;
  lds_Search *check = lds_search_new(NULL, g, NULL);
  Run r;
  long i, wrong = 0, active = nagents;
  bool crate_down[8] = {false};
  lds_TickStats tot;
  int32_t (*sg)[4] = calloc((size_t)nagents, sizeof *sg);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = true;
  cfg.searches_per_grid = 4;
  cfg.initial_capacity = (uint32_t)nagents;
  sc = lds_scheduler_new(NULL, &cfg, NULL);
  lds_scheduler_add_grid(sc, g, 0);
  if (cache) lds_scheduler_set_path_cache(sc, g, (uint32_t)ndest);
  memset(&r, 0, sizeof r);
  r.g = g;
  r.nagents = nagents;
  r.agents = calloc((size_t)nagents, sizeof(Agent));
  r.got = calloc((size_t)nagents, sizeof(lds_Path *));
  r.got_st = calloc((size_t)nagents, sizeof(lds_Status));
  r.got_agent = calloc((size_t)nagents, sizeof(long));
  for (i = 0; i < nagents; i++) r.agents[i].trips_left = trips;
  *us = 0;
  rng = 88172645463325252ULL; /* both runs see the same requests and edits */
  while (active > 0) {
    lds_Budget b = {4000, 0};
    double t0;
    /* requests of agents that are ready */
    for (i = 0; i < nagents; i++) {
      Agent *a = &r.agents[i];
      lds_Request rq;
      const int32_t *s, *d;
      if (a->ready_frame < 0 || (uint64_t)a->ready_frame > r.frame || a->trips_left == 0) continue;
      s = spawn[rnd(nspawn)];
      d = dest[rnd(ndest)];
      if (s[0] == d[0] && s[1] == d[1]) s = spawn[(rnd(nspawn) + 1) % nspawn];
      lds_request_init(&rq, g, s[0], s[1], d[0], d[1]);
      rq.agent_id = i;
      rq.on_done = on_done;
      rq.ud = &r;
      rq.flags = LDS_REQ_AUTO_RELEASE;
      sg[i][0] = s[0];
      sg[i][1] = s[1];
      sg[i][2] = d[0];
      sg[i][3] = d[1];
      if (lds_scheduler_submit(sc, &rq, NULL) != LDS_OK) {
        fprintf(stderr, "path_cache_bench: submit: %s\n", lds_scheduler_errmsg(sc));
        exit(2);
      }
      a->ready_frame = -1;
      a->trips_left--;
    }
    r.ngot = 0;
    t0 = now_us();
    lds_scheduler_step(sc, &b, NULL);
    *us += now_us() - t0;
    /* untimed: every delivered path against a fresh A* on the grid as it is */
    for (i = 0; i < r.ngot; i++) {
      long ai = r.got_agent[i];
      const int32_t *q = sg[ai];
      lds_Status fs = lds_search_start(check, NULL, q[0], q[1], q[2], q[3]);
      lds_Path *p = r.got[i];
      bool ok;
      if (fs == LDS_OK) fs = lds_search_run(check);
      ok = fs == r.got_st[i];
      if (ok && fs == LDS_FOUND) {
        lds_PathCheck chk;
        double c = lds_search_cost(check);
        lds_path_check_init(&chk);
        chk.check_start = chk.check_goal = true;
        chk.sx = q[0];
        chk.sy = q[1];
        chk.gx = q[2];
        chk.gy = q[3];
        ok = p && fabs(lds_path_cost(p) - c) <= 1e-9 * (c > 1 ? c : 1) &&
             lds_path_check(g, p, &chk, NULL, NULL) == LDS_OK;
      }
      if (!ok) wrong++;
      if (r.got_st[i] == LDS_NO_PATH) r.no_path++;
      r.delivered++;
      r.agents[ai].ready_frame = (long)r.frame + 1 + (p ? (long)lds_path_length(p) / 16 : 0);
      if (r.agents[ai].trips_left == 0) active--;
      lds_path_free(p);
    }
    r.frame++;
    if (r.frame % 10 == 0) { /* a crate put down or picked up */
      int k = (int)rnd(8);
      int32_t x, y;
      crate_down[k] = !crate_down[k];
      for (y = crates[k][1]; y < crates[k][1] + 2; y++)
        for (x = crates[k][0]; x < crates[k][0] + 2; x++) lds_grid_set_blocked(g, x, y, crate_down[k]);
    }
  }
  {
    int k;
    int32_t x, y;
    for (k = 0; k < 8; k++) /* the grid as it was */
      if (crate_down[k])
        for (y = crates[k][1]; y < crates[k][1] + 2; y++)
          for (x = crates[k][0]; x < crates[k][0] + 2; x++) lds_grid_set_blocked(g, x, y, false);
  }
  lds_scheduler_totals(sc, &tot);
  memset(cst, 0, sizeof *cst);
  if (cache) lds_path_cache_stats(lds_scheduler_path_cache(sc, g), cst);
  *searches_per_path = (double)(tot.started + cst->grown) / (double)r.delivered;
  *hit_rate = cst->answered ? (double)cst->hits / (double)cst->answered : 0.0;
  *expansions = tot.expansions;
  *cache_bytes = cst->bytes;
  *delivered = r.delivered;
  lds_scheduler_free(sc);
  lds_search_free(check);
  free(r.agents);
  free(r.got);
  free(r.got_st);
  free(r.got_agent);
  free(sg);
  return wrong;
}

static int cmp_double(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return x < y ? -1 : x > y;
}

/* Sorts v; its median. */
static double median_of(double *v, long n) {
  qsort(v, (size_t)n, sizeof *v, cmp_double);
  return n ? v[n / 2] : 0.0;
}

/* Whether a cached answer agrees with a fresh A* on the grid as it is. */
static bool agrees(lds_Grid *g, lds_Search *check, const int32_t *q, lds_Status st,
                   const lds_Path *p) {
  lds_Status fs = lds_search_start(check, NULL, q[0], q[1], q[2], q[3]);
  if (fs == LDS_OK) fs = lds_search_run(check);
  if (fs != st) return false;
  if (fs == LDS_FOUND) {
    lds_PathCheck chk;
    double c = lds_search_cost(check);
    lds_path_check_init(&chk);
    chk.check_start = chk.check_goal = true;
    chk.sx = q[0];
    chk.sy = q[1];
    chk.gx = q[2];
    chk.gy = q[3];
    return p && fabs(lds_path_cost(p) - c) <= 1e-9 * (c > 1 ? c : 1) &&
           lds_path_check(g, p, &chk, NULL, NULL) == LDS_OK;
  }
  return p == NULL;
}

/* Asks every tree for a path from a random one of the starts; returns the
** µs taken; counts the first tree's wrong answers (checked untimed). */
static double ask_trees(lds_PathCache *pc, lds_Grid *g, lds_Search *check,
                        const int32_t (*goal)[2], int ntrees, const int32_t (*start)[2],
                        long nstart, long *wrong) {
  double us = 0;
  int t;
  for (t = 0; t < ntrees; t++) {
    lds_SearchParams sp;
    lds_Path *p = NULL;
    const int32_t *s = start[rnd(nstart)];
    int32_t q[4];
    lds_Status st;
    double t0;
    q[0] = s[0];
    q[1] = s[1];
    q[2] = goal[t][0];
    q[3] = goal[t][1];
    lds_search_params_init(&sp);
    if (!lds_path_cache_accepts(pc, &sp, q[0], q[1], q[2], q[3])) continue;
    t0 = now_us();
    st = lds_path_cache_query(pc, &sp, q[0], q[1], q[2], q[3], 0, NULL, &p, NULL);
    us += now_us() - t0;
    if (t == 0 && !agrees(g, check, q, st, p)) (*wrong)++;
    lds_path_free(p);
  }
  return us;
}

/* --edits: the cost of lds_grid_set_blocked to a cache of grown trees. */
static int edit_cost(lds_Grid *g, const int32_t (*cells)[2], long ncells, int ntrees, long nedits) {
  lds_PathCache *pc = lds_path_cache_new(NULL, g, (uint32_t)ntrees, NULL);
  lds_Search *check = lds_search_new(NULL, g, NULL);
  int32_t(*goal)[2] = malloc(sizeof *goal * (size_t)ntrees), start[32][2];
  double *blk = malloc(sizeof(double) * (size_t)nedits), *unb = malloc(sizeof(double) * (size_t)nedits);
  double *qry = malloc(sizeof(double) * 2 * (size_t)nedits), t0, grow;
  long i, wrong = 0;
  int t;
  bool ok_median;
  lds_PathCacheStats st;
  rng = 88172645463325252ULL;
  for (t = 0; t < ntrees; t++) memcpy(goal[t], cells[rnd(ncells)], sizeof goal[t]);
  for (i = 0; i < 32; i++) memcpy(start[i], cells[rnd(ncells)], sizeof start[i]);
  t0 = now_us();
  for (t = 0; t < ntrees; t++)
    for (i = 0; i < 32; i++) {
      lds_SearchParams sp;
      lds_Path *p = NULL;
      lds_search_params_init(&sp);
      if (lds_path_cache_accepts(pc, &sp, start[i][0], start[i][1], goal[t][0], goal[t][1]))
        lds_path_cache_query(pc, &sp, start[i][0], start[i][1], goal[t][0], goal[t][1], 0, NULL, &p,
                             NULL);
      lds_path_free(p);
    }
  grow = now_us() - t0;
  lds_path_cache_stats(pc, &st);
  printf("map %dx%d, %d trees grown by 32 queries each (%llu cells settled, %.0f ms), %ld edits:\n",
         (int)lds_grid_width(g), (int)lds_grid_height(g), ntrees,
         (unsigned long long)st.expansions, grow / 1000.0, nedits);
  for (i = 0; i < nedits; i++) {
    const int32_t *c;
    int k;
    do {
      c = cells[rnd(ncells)];
      for (k = 0; k < ntrees; k++)
        if (c[0] == goal[k][0] && c[1] == goal[k][1]) break;
    } while (k < ntrees);
    t0 = now_us();
    lds_grid_set_blocked(g, c[0], c[1], true);
    blk[i] = now_us() - t0;
    qry[2 * i] = ask_trees(pc, g, check, (const int32_t(*)[2])goal, ntrees,
                           (const int32_t(*)[2])start, 32, &wrong);
    t0 = now_us();
    lds_grid_set_blocked(g, c[0], c[1], false);
    unb[i] = now_us() - t0;
    qry[2 * i + 1] = ask_trees(pc, g, check, (const int32_t(*)[2])goal, ntrees,
                               (const int32_t(*)[2])start, 32, &wrong);
  }
  lds_path_cache_stats(pc, &st);
  {
    double mb = median_of(blk, nedits), mu = median_of(unb, nedits), mq = median_of(qry, 2 * nedits);
    ok_median = mb <= 1000.0 && mu <= 1000.0;
    printf("  set_blocked with %d trees: median %.1f µs (block), %.1f µs (unblock); max %.1f, %.1f µs\n",
           ntrees, mb, mu, blk[nedits - 1], unb[nedits - 1]);
    printf("  the %d queries after an edit: median %.1f µs, max %.1f µs\n", ntrees, mq,
           qry[2 * nedits - 1]);
  }
  printf("  cache: %llu answers, %llu hits, %llu grown, %llu cells settled; %ld wrong answers\n",
         (unsigned long long)st.answered, (unsigned long long)st.hits, (unsigned long long)st.grown,
         (unsigned long long)st.expansions, wrong);
  lds_path_cache_free(pc);
  lds_search_free(check);
  free(goal);
  free(blk);
  free(unb);
  free(qry);
  printf("  verdict: median set_blocked <= 1000 µs and 0 wrong answers: %s\n",
         ok_median && wrong == 0 ? "ok" : "FAILED");
  return ok_median && wrong == 0 ? 0 : 1;
}

int main(int argc, char **argv) {
  lds_Error err;
  lds_Grid *g;
  lds_Components *c;
  long nagents = argc > 2 ? atol(argv[2]) : 1000, ncells = 0, nspawn = 0, k;
  int ndest = argc > 3 ? atoi(argv[3]) : 10, trips = argc > 4 ? atoi(argv[4]) : 4, i;
  int32_t (*cells)[2], (*spawn)[2], (*dest)[2], crates[8][2], w, h, x, y;
  uint32_t big = 0;
  double spp[2], hit[2], us[2];
  uint64_t exp[2];
  size_t bytes[2];
  long wrong[2], delivered[2];
  lds_PathCacheStats cst[2];
  bool edits = argc > 1 && strcmp(argv[1], "--edits") == 0;
  int ntrees = 3;
  long nedits = 100;
  if (edits) { /* --edits MAP [TREES [EDITS]] */
    argv++;
    argc--;
    ntrees = argc > 2 ? atoi(argv[2]) : 3;
    nedits = argc > 3 ? atol(argv[3]) : 100;
    nagents = 1;
    ndest = 1;
    trips = 1;
  }
  if (argc < 2 || nagents < 1 || ndest < 1 || ndest > 1024 || trips < 1 || ntrees < 1 ||
      ntrees > 1024 || nedits < 1) {
    fprintf(stderr, "usage: path_cache_bench MAP [AGENTS [DESTINATIONS [TRIPS]]]\n"
                    "       path_cache_bench --edits MAP [TREES [EDITS]]\n");
    return 2;
  }
  g = lds_map_load(NULL, argv[1], &err);
  if (!g) {
    fprintf(stderr, "path_cache_bench: %s\n", err.msg);
    return 2;
  }
  w = lds_grid_width(g);
  h = lds_grid_height(g);
  /* the largest component's cells (the index is then freed: the runs
  ** measure the cache alone) */
  c = lds_components_new(NULL, g, 0, &err);
  {
    uint32_t n = lds_components_count(c), id;
    size_t *size = calloc((size_t)n + 1, sizeof(size_t));
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) size[lds_components_id(c, x, y)]++;
    size[0] = 0; /* id 0: blocked cells, never the largest component */
    for (id = 1; id <= n; id++)
      if (size[id] > size[big]) big = id;
    cells = malloc(sizeof *cells * size[big]);
    free(size);
  }
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      if (lds_components_id(c, x, y) == big) {
        cells[ncells][0] = x;
        cells[ncells][1] = y;
        ncells++;
      }
  if (edits) {
    int rc = edit_cost(g, (const int32_t(*)[2])cells, ncells, ntrees, nedits);
    lds_components_free(c);
    free(cells);
    lds_grid_free(g);
    return rc;
  }
  /* barracks: the cells of the largest component within 6 of 10 centres */
  spawn = malloc(sizeof *spawn * (size_t)ncells);
  for (k = 0; k < 10; k++) {
    const int32_t *cc = cells[(long)(((unsigned long long)k * 40503ULL + 977ULL) % (unsigned long long)ncells)];
    for (y = cc[1] - 6; y <= cc[1] + 6; y++)
      for (x = cc[0] - 6; x <= cc[0] + 6; x++)
        if (x >= 0 && y >= 0 && x < w && y < h && (x - cc[0]) * (x - cc[0]) + (y - cc[1]) * (y - cc[1]) <= 36 &&
            lds_components_id(c, x, y) == big) {
          spawn[nspawn][0] = x;
          spawn[nspawn][1] = y;
          nspawn++;
        }
  }
  dest = malloc(sizeof *dest * (size_t)ndest);
  for (i = 0; i < ndest; i++) {
    const int32_t *p = cells[(long)(((unsigned long long)i * 2654435761ULL) % (unsigned long long)ncells)];
    dest[i][0] = p[0];
    dest[i][1] = p[1];
  }
  /* crate places: 8 cells of the largest component */
  for (k = 0; k < 8; k++) {
    const int32_t *d = cells[(long)(((unsigned long long)k * 7919ULL * 7919ULL + 12345ULL) % (unsigned long long)ncells)];
    int32_t cx = d[0], cy = d[1];
    if (cx > w - 2) cx = w - 2;
    if (cy > h - 2) cy = h - 2;
    crates[k][0] = cx;
    crates[k][1] = cy;
  }
  lds_components_free(c);
  printf("map %s (%dx%d), %ld agents, %d destinations, %d trips each from 10 barracks (%ld cells),"
         " a crate put down or picked up every 10 frames, 4000 expansions a frame:\n",
         argv[1], (int)w, (int)h, nagents, ndest, trips, nspawn);
  for (i = 0; i < 2; i++)
    wrong[i] = run(g, (const int32_t(*)[2])spawn, nspawn, (const int32_t(*)[2])dest, ndest, nagents,
                   trips, i == 1, (const int32_t(*)[2])crates, &spp[i], &hit[i], &exp[i], &us[i],
                   &bytes[i], &delivered[i], &cst[i]);
  printf("  %-10s %9s %16s %9s %12s %10s %12s %6s\n", "", "paths", "searches/path", "hit rate",
         "expansions", "sched_ms", "cache_bytes", "wrong");
  for (i = 0; i < 2; i++)
    printf("  %-10s %9ld %16.3f %8.1f%% %12llu %10.1f %12zu %6ld\n", i ? "cache" : "no cache",
           delivered[i], spp[i], 100.0 * hit[i], (unsigned long long)exp[i], us[i] / 1000.0, bytes[i],
           wrong[i]);
  printf("  cache: %llu answers, %llu hits, %llu grown, %llu tree resets by edits, %.1f bytes per cell per tree\n",
         (unsigned long long)cst[1].answered, (unsigned long long)cst[1].hits,
         (unsigned long long)cst[1].grown, (unsigned long long)cst[1].resets,
         (double)cst[1].bytes / (double)ndest / ((double)w * (double)h));
  printf("  verdict: searches per delivered path <= 0.2 and 0 wrong paths: %s\n",
         spp[1] <= 0.2 && wrong[1] == 0 && wrong[0] == 0 ? "ok" : "FAILED");
  free(cells);
  free(spawn);
  free(dest);
  lds_grid_free(g);
  return spp[1] <= 0.2 && wrong[1] == 0 && wrong[0] == 0 ? 0 : 1;
}
