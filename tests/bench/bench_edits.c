/* SPDX-License-Identifier: MIT */
/*
** bench_edits.c — edits under the scheduler (docs/scheduler.md, "Edits"):
** the measure of issue 18. One Moving AI map, N requests (every k-th
** problem of its .scen file, so all path lengths), all submitted at frame 0,
** the scheduler's default configuration (timed mode, 2 searches), a budget
** per frame, and one cell near a corner of the map (the passable cell with
** the smallest x + y) whose cost changes every E frames, alternating
** between two values. Runs frames until every request has finished and
** prints: requests ended stale, frames, expansions, restarts, forced
** (urgent) attempts, and delivered paths that are not optimal on the grid
** at delivery (each checked against a one-shot A* after the tick, untimed).
**
**   bench_edits MAP SCEN [--requests N] [--budget-us B] [--every E]
**               [--costs A,B] [--max-frames F] [--deterministic] [--random]
**
** --random edits a random passable cell (a fixed pseudo-random sequence)
** instead of the corner one, so edits land inside searches in progress.
** Compiled with -DLDS_HAVE_EDIT_STATS it also prints the scheduler's
** lds_EditStats (searches kept, repaired, disturbed).
**
** --deterministic counts the budget in expansions (4 per µs, the
** scheduler's default), so frames and expansions repeat exactly.
**
** Builds against the public API only, so the same file measures an older
** build of the library (tests/bench/bench_edits.sh, BASELINE=).
*/
#include "lds.h"
#include "lds_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Run {
  lds_Grid *g;
  lds_Search *one;
  int stale, found, nopath, failed, nonoptimal, delivered;
  int32_t sx[4096], sy[4096], gx[4096], gy[4096];
  lds_RequestId ids[4096];
  int pending_check[4096];
  int npending;
} Run;

static lds_Status on_done(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                          const lds_RequestInfo *info) {
  Run *r = (Run *)ud;
  (void)sc;
  (void)id;
  if (ev != LDS_EVENT_DONE) return LDS_OK;
  r->delivered++;
  if (info->status == LDS_E_STALE) r->stale++;
  else if (info->status == LDS_FOUND) r->found++;
  else if (info->status == LDS_NO_PATH) r->nopath++;
  else r->failed++;
  if (info->status == LDS_FOUND || info->status == LDS_NO_PATH)
    r->pending_check[r->npending++] = (int)info->agent_id; /* checked after the tick */
  return LDS_OK;
}

int main(int argc, char **argv) {
  const char *map = NULL, *scen = NULL;
  int nreq = 200, every = 1, max_frames = 20000, i, frame, det = 0, rnd = 0;
  unsigned long long lcg = 88172645463325252ull;
  lds_SchedulerConfig cfg;
  unsigned long budget = 500;
  float cost_a = 2.0f, cost_b = 3.0f;
  lds_Error err;
  lds_Scenario *sce;
  lds_Scheduler *sc;
  lds_TickStats tot;
  static Run r;
  int32_t cx = -1, cy = -1, x, y;
  size_t n, k;
  for (i = 1; i < argc; i++) {
    if (!strcmp(argv[i], "--requests") && i + 1 < argc) nreq = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--budget-us") && i + 1 < argc) budget = strtoul(argv[++i], NULL, 10);
    else if (!strcmp(argv[i], "--every") && i + 1 < argc) every = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--max-frames") && i + 1 < argc) max_frames = atoi(argv[++i]);
    else if (!strcmp(argv[i], "--deterministic")) det = 1;
    else if (!strcmp(argv[i], "--random")) rnd = 1;
    else if (!strcmp(argv[i], "--costs") && i + 1 < argc) {
      if (sscanf(argv[++i], "%f,%f", &cost_a, &cost_b) != 2) {
        fprintf(stderr, "bench_edits: --costs expects A,B (two costs > 0), got '%s'\n", argv[i]);
        return 2;
      }
    } else if (!map) map = argv[i];
    else if (!scen) scen = argv[i];
    else {
      fprintf(stderr, "bench_edits: unexpected argument '%s'\n", argv[i]);
      return 2;
    }
  }
  if (!map || !scen || nreq < 1 || nreq > 4096 || every < 1 || !(cost_a > 0) || !(cost_b > 0)) {
    fprintf(stderr, "usage: bench_edits MAP SCEN [--requests 1..4096] [--budget-us B] [--every E>=1]"
                    " [--costs A,B] [--max-frames F] [--deterministic]\n");
    return 2;
  }
  r.g = lds_map_load(NULL, map, &err);
  if (!r.g) {
    fprintf(stderr, "bench_edits: %s\n", err.msg);
    return 2;
  }
  sce = lds_scen_load(NULL, scen, &err);
  if (!sce) {
    fprintf(stderr, "bench_edits: %s\n", err.msg);
    return 2;
  }
  for (y = 0; y < lds_grid_height(r.g); y++)
    for (x = 0; x < lds_grid_width(r.g); x++)
      if (!lds_grid_blocked(r.g, x, y) && (cx < 0 || x + y < cx + cy)) {
        cx = x;
        cy = y;
      }
  r.one = lds_search_new(NULL, r.g, NULL);
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = det != 0;
  sc = lds_scheduler_new(NULL, &cfg, &err);
  lds_scheduler_add_grid(sc, r.g, 0);
  n = lds_scen_count(sce);
  if ((size_t)nreq > n) nreq = (int)n;
  for (i = 0; i < nreq; i++) {
    const lds_ScenEntry *e = lds_scen_entry(sce, (size_t)i * n / (size_t)nreq);
    lds_Request rq;
    r.sx[i] = e->sx;
    r.sy[i] = e->sy;
    r.gx[i] = e->gx;
    r.gy[i] = e->gy;
    lds_request_init(&rq, r.g, e->sx, e->sy, e->gx, e->gy);
    rq.agent_id = i;
    rq.on_done = on_done;
    rq.ud = &r;
    if (lds_scheduler_submit(sc, &rq, &r.ids[i]) != LDS_OK) {
      fprintf(stderr, "bench_edits: submit: %s\n", lds_scheduler_errmsg(sc));
      return 2;
    }
  }
  for (frame = 0; frame < max_frames && lds_scheduler_pending(sc) > 0; frame++) {
    lds_Budget b;
    if (frame % every == 0) {
      if (rnd) { /* the next passable cell of the sequence */
        do {
          lcg = lcg * 6364136223846793005ull + 1442695040888963407ull;
          cx = (int32_t)((lcg >> 33) % (unsigned long long)lds_grid_width(r.g));
          cy = (int32_t)((lcg >> 13) % (unsigned long long)lds_grid_height(r.g));
        } while (lds_grid_blocked(r.g, cx, cy));
      }
      lds_grid_set_cost(r.g, cx, cy, (frame / every) % 2 ? cost_b : cost_a);
    }
    b.max_expansions = 0;
    b.budget_us = budget;
    r.npending = 0;
    lds_scheduler_step(sc, &b, NULL);
    for (k = 0; k < (size_t)r.npending; k++) { /* untimed: the grid is as at delivery */
      int q = r.pending_check[k];
      lds_Status st;
      double c, ref = -1.0;
      lds_RequestInfo info;
      lds_scheduler_info(sc, r.ids[q], &info);
      c = info.cost;
      lds_search_start(r.one, NULL, r.sx[q], r.sy[q], r.gx[q], r.gy[q]);
      st = lds_search_run(r.one);
      if (st == LDS_FOUND) ref = lds_search_cost(r.one);
      if (st != info.status || (st == LDS_FOUND && fabs(c - ref) > 1e-9 * fmax(1.0, ref)))
        r.nonoptimal++;
    }
  }
  lds_scheduler_totals(sc, &tot);
  printf("{\"requests\":%d,\"budget_us\":%lu,\"every\":%d,\"cell\":\"%d,%d\",\"costs\":\"%g,%g\","
         "\"stale\":%d,\"found\":%d,\"no_path\":%d,\"failed\":%d,\"unfinished\":%zu,"
         "\"frames\":%d,\"expansions\":%llu,\"restarts\":%u,\"nonoptimal\":%d}\n",
         nreq, budget, every, cx, cy, (double)cost_a, (double)cost_b, r.stale, r.found, r.nopath,
         r.failed, lds_scheduler_pending(sc), frame, (unsigned long long)tot.expansions,
         tot.restarted, r.nonoptimal);
#ifdef LDS_HAVE_EDIT_STATS
  {
    lds_EditStats es;
    lds_scheduler_edit_stats(sc, &es);
    printf("{\"kept\":%llu,\"repaired\":%llu,\"disturbed\":%llu}\n", (unsigned long long)es.kept,
           (unsigned long long)es.repaired, (unsigned long long)es.disturbed);
  }
#endif
  lds_scheduler_free(sc);
  lds_search_free(r.one);
  lds_scen_free(sce);
  lds_grid_free(r.g);
  return r.nonoptimal || r.failed ? 1 : 0;
}
