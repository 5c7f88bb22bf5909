/* SPDX-License-Identifier: MIT */
/*
** bench_gameday.c — the game-day scenario of issue 18 through the C
** scheduler (core/lds_scheduler.h): on each map, AGENTS agents of 4 classes
** (4 layer-weight sets over 3 terrain layers made from the seed) walk to
** random goals; a door (a line of cells) toggles every 6 frames and one
** random cell's cost changes every frame; FRAMES frames at 60 frames/s, each
** a scheduler tick with a BUDGET_US budget. An agent walks SPEED cells of
** its path per frame and asks for a new random goal when it arrives (or
** from where it stands when its next cell is blocked).
**
** Prints, per map: the tick's thread CPU time (CLOCK_THREAD_CPUTIME_ID)
** p50 / p99 / max against the budget, requests completed and failed by
** cause, restarts, watched-path events (every delivered path is watched,
** LDS_REQ_WATCH with LDS_WATCH_NOTIFY: an edit that blocks a cell of its
** remaining part, or makes a move of it illegal, fires on_broken, and the
** agent stops and asks again from where it stands; the walker reports its
** progress with lds_scheduler_path_progress), paths walked into a blocked
** cell with no event, and the scheduler's expansions per µs of tick CPU against a lone
** search's on the same map and classes; then one PASS or MISS line per
** target of the issue. Untimed, every delivered path is checked against a
** one-shot A* with its class's weights on the grid as it is at delivery
** (legal moves, cost equal to the optimum within 1e-9 relative).
**
**   build/bench_gameday [--quick] [--deterministic] [--frames N] [--agents N]
**                       [--seed S] [--budget US] MAP...
**
** --deterministic counts the budget in expansions (the scheduler's
** deterministic mode), so a run is the same bit for bit; the result hash
** it prints covers every delivered path. --quick (what `make test` runs):
** 150 frames, 120 agents, deterministic, the scenario run twice; exit 1 when
** a delivered path is illegal or not optimal, when nothing was delivered,
** when a path was walked into a blocked cell without an event, when a
** request failed stale, or when the two runs differ. Timing targets never
** decide the exit status.
*/
#define _GNU_SOURCE /* RUSAGE_THREAD */
#include "lds.h"
#include "lds_io.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define NCLASS 4
#define NLAYER 3
#define SPEED 2          /* cells an agent walks per frame */
#define DOOR_EVERY 6     /* frames between two door toggles */
#define DOOR_LEN 24      /* cells of the door line (at most) */
#define LONE_QUERIES 60  /* queries of the lone-search reference, per class */

static const char *const layer_names[NLAYER] = {"mud", "threat", "cover"};
/* soldier, scout, tank, medic */
static const double class_w[NCLASS][NLAYER] = {
    {1.0, 0.5, 0.0}, {0.0, 1.0, 0.25}, {2.0, 0.0, 0.5}, {0.25, 0.25, 0.25}};

typedef struct Rng {
  uint64_t s;
} Rng;
static uint64_t rng_next(Rng *r) { /* splitmix64 */
  uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}
static uint32_t rng_below(Rng *r, uint32_t n) { return (uint32_t)(rng_next(r) % n); }

/* Page faults of this thread so far (minor + major): a tick that faults
** pages in spends kernel time the scheduler's work does not explain. */
static uint64_t thread_faults(void) {
  struct rusage ru;
  if (getrusage(RUSAGE_THREAD, &ru) != 0) return 0;
  return (uint64_t)ru.ru_minflt + (uint64_t)ru.ru_majflt;
}

static uint64_t cpu_ns(void) {
  struct timespec ts;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

typedef enum { A_NEED, A_WAIT, A_WALK } AgentState;
typedef struct Agent {
  int32_t x, y;
  int cls;
  AgentState st;
  int32_t gx, gy; /* the goal asked for */
  lds_RequestId id;
  lds_Path *path;
  size_t idx;        /* cell of path the agent stands on */
  bool watched;      /* its request lives on: the path is watched */
  bool broken;       /* on_broken fired for the path being walked */
  int64_t started;   /* frame its request's search first started, -1 before */
  uint32_t *events;  /* the run's watched-path event count */
} Agent;

typedef struct Opts {
  int quick, deterministic;
  uint32_t frames, agents, budget_us;
  uint64_t seed;
} Opts;

typedef struct Result {
  uint64_t hash;
  uint32_t submitted, found, no_path, failed_stale, failed_other, restarts;
  uint32_t illegal, not_optimal, crossings, watch_events, forced;
  uint64_t edits_kept, edits_repaired, edits_disturbed;
  uint64_t deferred, resumed, defer_timeouts; /* pauses of flapping cells (lds_EditStats) */
  uint64_t sched_exp, sched_cpu_ns;
  double p50, p99, pmax; /* tick CPU [µs] */
  uint32_t max_frame;    /* the frame of the slowest tick */
  uint32_t longest_run;  /* most frames from a request's first start to its delivery */
  uint32_t in_progress;  /* requests started and not delivered at the end */
  uint32_t oldest_run;   /* most frames one of those has been in progress */
  lds_TickStats slow[3]; /* the slowest ticks' counters */
  uint64_t slow_ns[3], slow_faults[3];
  uint32_t over_110;
  double lone_rate, sched_rate;
  double lone_per_query; /* expansions of a lone query, mean */
} Result;

/* The largest 4-connected region of free cells: label[] = 1 inside it. */
static uint32_t main_region(const lds_Grid *g, uint8_t *inside, uint32_t *cells) {
  int32_t w = lds_grid_width(g), h = lds_grid_height(g);
  size_t n = (size_t)w * (size_t)h, i, best_n = 0;
  uint32_t *lab = calloc(n, sizeof *lab), *stack = malloc(n * sizeof *stack), best = 0, next = 0;
  for (i = 0; i < n; i++) {
    size_t sz = 0, sp = 0;
    if (lab[i] || lds_grid_blocked(g, (int32_t)(i % (size_t)w), (int32_t)(i / (size_t)w)))
      continue;
    next++;
    lab[i] = next;
    stack[sp++] = (uint32_t)i;
    while (sp) {
      uint32_t c = stack[--sp];
      int32_t cx = (int32_t)(c % (uint32_t)w), cy = (int32_t)(c / (uint32_t)w), k;
      static const int dx[4] = {1, -1, 0, 0}, dy[4] = {0, 0, 1, -1};
      sz++;
      for (k = 0; k < 4; k++) {
        int32_t nx = cx + dx[k], ny = cy + dy[k];
        size_t j;
        if (!lds_grid_in_bounds(g, nx, ny) || lds_grid_blocked(g, nx, ny)) continue;
        j = (size_t)ny * (size_t)w + (size_t)nx;
        if (lab[j]) continue;
        lab[j] = next;
        stack[sp++] = (uint32_t)j;
      }
    }
    if (sz > best_n) {
      best_n = sz;
      best = next;
    }
  }
  {
    uint32_t k = 0;
    for (i = 0; i < n; i++) {
      inside[i] = lab[i] == best;
      if (inside[i]) cells[k++] = (uint32_t)i;
    }
  }
  free(lab);
  free(stack);
  return (uint32_t)best_n;
}

static void pick_cell(Rng *r, const uint32_t *cells, uint32_t ncells, int32_t w, int32_t *x,
                      int32_t *y) {
  uint32_t c = cells[rng_below(r, ncells)];
  *x = (int32_t)(c % (uint32_t)w);
  *y = (int32_t)(c / (uint32_t)w);
}

static void params_for(lds_SearchParams *p, int cls) {
  lds_search_params_init(p);
  p->algo = LDS_ALGO_ASTAR;
  p->layer_weights = class_w[cls];
  p->n_layer_weights = NLAYER;
}

static int cmp_u64(const void *a, const void *b) {
  uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
  return (x > y) - (x < y);
}

/* The three terrain layers: one value per 16x16 block (0, 0.5, ..., 3),
** from the seed. */
static int add_layers(lds_Grid *g, uint64_t seed) {
  int32_t w = lds_grid_width(g), h = lds_grid_height(g), x, y;
  int l;
  for (l = 0; l < NLAYER; l++) {
    int idx;
    float *d;
    int32_t bw = (w + 15) / 16, bh = (h + 15) / 16;
    float *blk = malloc((size_t)bw * (size_t)bh * sizeof *blk);
    Rng r = {seed * 31u + (uint64_t)l + 1u};
    int32_t i;
    if (lds_grid_layer_add(g, layer_names[l], &idx) != LDS_OK) return -1;
    for (i = 0; i < bw * bh; i++) blk[i] = 0.5f * (float)rng_below(&r, 7);
    d = lds_grid_layer_data(g, idx);
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) d[(size_t)y * (size_t)w + (size_t)x] = blk[(y / 16) * bw + x / 16];
    free(blk);
  }
  return 0;
}

/* WATCH_HOOK: a delivered path is watched (the request was submitted with
** LDS_REQ_WATCH and is kept, not released, while the agent walks it); an
** edit that breaks its remaining part calls this from inside the edit. The
** agent stops before the broken cell and asks again. */
static lds_Status on_broken(void *ud, lds_Scheduler *sc, lds_RequestId id, int32_t x, int32_t y,
                            lds_WatchReason reason) {
  Agent *a = (Agent *)ud;
  (void)sc;
  (void)id;
  (void)x;
  (void)y;
  (void)reason;
  a->broken = true;
  (*a->events)++;
  return LDS_OK;
}

/* Ends the watch of agent a's path (its request is released). */
static void unwatch(lds_Scheduler *sc, Agent *a) {
  if (a->watched) lds_scheduler_release(sc, a->id);
  a->watched = false;
  a->broken = false;
}

static void watch_hook(lds_Scheduler *sc, Agent *a) {
  if (a->st == A_WALK) {
    a->watched = true;
    a->broken = false;
  } else {
    lds_scheduler_release(sc, a->id);
  }
}

/* One run of the scenario on map file `map`; 0 or -1 (setup failure). */
static int run(const char *map, const Opts *o, Result *res, int verbose) {
  lds_Error err;
  lds_Grid *g = lds_map_load(NULL, map, &err);
  lds_Scheduler *sc;
  lds_SchedulerConfig cfg;
  lds_Search *verify[NCLASS]; /* one per class: each keeps its class's costs */
  Agent *ag;
  uint8_t *inside;
  uint32_t *cells, ncells, f, i;
  int32_t w, h, door_y = -1, door_x0 = 0, door_n = 0;
  int32_t door_cells[DOOR_LEN];
  bool door_closed = false;
  uint64_t *tick_ns;
  lds_TickStats *tick_st;
  uint64_t *tick_faults;
  Rng r = {o->seed};
  memset(res, 0, sizeof *res);
  res->hash = 1469598103934665603ull;
  if (!g) {
    fprintf(stderr, "bench_gameday: %s\n", err.msg);
    return -1;
  }
  w = lds_grid_width(g);
  h = lds_grid_height(g);
  if (add_layers(g, o->seed) < 0) return -1;
  inside = malloc((size_t)w * (size_t)h);
  cells = malloc((size_t)w * (size_t)h * sizeof *cells);
  ncells = main_region(g, inside, cells);
  /* the door: up to DOOR_LEN free cells of the main region on the row
  ** nearest the middle that has a run of them */
  for (i = 0; i < (uint32_t)h && door_y < 0; i++) {
    int32_t y = h / 2 + ((i & 1) ? -(int32_t)(i / 2) - 1 : (int32_t)(i / 2)), x, run_n = 0;
    if (y < 0 || y >= h) continue;
    for (x = w / 4; x < w - w / 4; x++) {
      if (inside[(size_t)y * (size_t)w + (size_t)x]) {
        if (run_n == 0) door_x0 = x;
        if (++run_n == DOOR_LEN) break;
      } else {
        run_n = 0;
      }
    }
    if (run_n >= 8) {
      door_y = y;
      door_n = run_n;
    }
  }
  for (i = 0; i < (uint32_t)door_n; i++) door_cells[i] = door_x0 + (int32_t)i;

  lds_scheduler_config_init(&cfg);
  cfg.searches_per_grid = 4;
  cfg.deterministic = o->deterministic != 0;
  cfg.expansions_per_us = 16; /* deterministic mode: 16,000 expansions per 1,000 us tick */
  sc = lds_scheduler_new(NULL, &cfg, &err);
  if (!sc || lds_scheduler_add_grid(sc, g, 0) != LDS_OK) {
    fprintf(stderr, "bench_gameday: scheduler: %s\n", sc ? lds_scheduler_errmsg(sc) : err.msg);
    return -1;
  }
  for (i = 0; i < NCLASS; i++) verify[i] = lds_search_new(NULL, g, &err);
  ag = calloc(o->agents, sizeof *ag);
  tick_ns = calloc(o->frames, sizeof *tick_ns);
  tick_st = calloc(o->frames, sizeof *tick_st);
  tick_faults = calloc(o->frames, sizeof *tick_faults);
  for (i = 0; i < o->agents; i++) {
    pick_cell(&r, cells, ncells, w, &ag[i].x, &ag[i].y);
    ag[i].cls = (int)(i % NCLASS);
    ag[i].events = &res->watch_events;
  }

  for (f = 0; f < o->frames; f++) {
    lds_Budget bud;
    lds_TickStats ts;
    uint64_t t0, f0;
    /* the world changes */
    if (door_n && f % DOOR_EVERY == 0) {
      door_closed = !door_closed;
      for (i = 0; i < (uint32_t)door_n; i++)
        lds_grid_set_blocked(g, door_cells[i], door_y, door_closed);
    }
    {
      int32_t x, y;
      pick_cell(&r, cells, ncells, w, &x, &y);
      lds_grid_set_cost(g, x, y, (float)(1 + rng_below(&r, 4)));
    }
    /* agents walk, arrive, ask */
    for (i = 0; i < o->agents; i++) {
      Agent *a = &ag[i];
      if (a->st == A_WALK) {
        int k;
        size_t idx0 = a->idx;
        /* an event told it the rest of its path broke: ask again from here */
        if (a->broken) a->st = A_NEED;
        for (k = 0; a->st == A_WALK && k < SPEED && a->idx + 1 < lds_path_length(a->path); k++) {
          int32_t nx, ny;
          lds_path_cell(a->path, a->idx + 1, &nx, &ny);
          if (lds_grid_blocked(g, nx, ny)) { /* walked into a closed door: no event told it */
            res->crossings++;
            a->st = A_NEED;
            break;
          }
          a->idx++;
          a->x = nx;
          a->y = ny;
        }
        if (a->st == A_WALK && a->idx + 1 >= lds_path_length(a->path)) a->st = A_NEED;
        if (a->st == A_NEED) {
          unwatch(sc, a);
          lds_path_free(a->path);
          a->path = NULL;
        } else if (a->idx != idx0) {
          lds_scheduler_path_progress(sc, a->id, a->idx); /* walked cells leave the watch */
        }
      }
      if (a->st == A_NEED) {
        lds_Request rq;
        int32_t gx, gy;
        pick_cell(&r, cells, ncells, w, &gx, &gy);
        lds_request_init(&rq, g, a->x, a->y, gx, gy);
        a->gx = gx;
        a->gy = gy;
        params_for(&rq.params, a->cls);
        rq.agent_id = (int64_t)i;
        rq.flags = LDS_REQ_WATCH;
        rq.watch_policy = LDS_WATCH_NOTIFY;
        rq.on_broken = on_broken;
        rq.ud = a;
        if (lds_scheduler_submit(sc, &rq, &a->id) == LDS_OK) {
          a->st = A_WAIT;
          a->started = -1;
          res->submitted++;
        }
      }
    }
    /* the frame's tick, timed on this thread's CPU clock */
    bud.max_expansions = 0;
    bud.budget_us = o->budget_us;
    f0 = thread_faults();
    t0 = cpu_ns();
    lds_scheduler_step(sc, &bud, &ts);
    tick_ns[f] = cpu_ns() - t0;
    tick_faults[f] = thread_faults() - f0;
    tick_st[f] = ts;
    res->sched_exp += ts.expansions;
    res->sched_cpu_ns += tick_ns[f];
    /* deliveries, checked untimed on the grid as it is now */
    for (i = 0; i < o->agents; i++) {
      Agent *a = &ag[i];
      lds_RequestInfo info;
      lds_Status st;
      if (a->st != A_WAIT) continue;
      st = lds_scheduler_status(sc, a->id);
      lds_scheduler_info(sc, a->id, &info);
      if (a->started < 0 && (info.flags & LDS_REQINFO_STARTED)) a->started = f;
      if (st == LDS_RUNNING) continue;
      if (a->started >= 0 && f - (uint32_t)a->started + 1 > res->longest_run)
        res->longest_run = f - (uint32_t)a->started + 1;
      res->restarts += info.restarts;
      if (st == LDS_FOUND) {
        lds_Path *p = lds_scheduler_take_path(sc, a->id);
        lds_SearchParams sp;
        lds_PathCheck pc;
        int32_t gx = a->gx, gy = a->gy;
        size_t k, n = lds_path_length(p);
        double best = -1.0;
        lds_Search *vs = verify[a->cls];
        res->found++;
        lds_path_check_init(&pc);
        pc.check_start = pc.check_goal = true;
        pc.sx = a->x, pc.sy = a->y, pc.gx = gx, pc.gy = gy;
        pc.layer_weights = class_w[a->cls];
        pc.nlayers = NLAYER;
        if (lds_path_check(g, p, &pc, NULL, &err) != LDS_OK && ++res->illegal <= 3)
          printf("  illegal delivered path (frame %u, agent %u, class %d, restarts %u): %s\n",
                 f, i, a->cls, info.restarts, err.msg);
        params_for(&sp, a->cls);
        if (vs && lds_search_start(vs, &sp, a->x, a->y, gx, gy) == LDS_OK &&
            lds_search_run(vs) == LDS_FOUND)
          best = lds_search_cost(vs);
        if (!(fabs(best - lds_path_cost(p)) <= 1e-9 * (best > 1.0 ? best : 1.0)) &&
            ++res->not_optimal <= 3)
          printf("  delivered path not optimal (frame %u, agent %u, class %d, restarts %u): "
                 "cost %.9g, one-shot A* %.9g\n",
                 f, i, a->cls, info.restarts, lds_path_cost(p), best);
        for (k = 0; k < n; k++) res->hash = (res->hash ^ lds_path_node(p, k)) * 1099511628211ull;
        res->hash = (res->hash ^ (uint64_t)(lds_path_cost(p) * 1e6)) * 1099511628211ull;
        a->path = p;
        a->idx = 0;
        a->st = n > 1 ? A_WALK : A_NEED;
        if (a->st == A_NEED) {
          lds_path_free(p);
          a->path = NULL;
        }
        watch_hook(sc, a);
      } else {
        if (st == LDS_NO_PATH)
          res->no_path++;
        else if (st == LDS_E_STALE)
          res->failed_stale++;
        else
          res->failed_other++;
        a->st = A_NEED;
        lds_scheduler_release(sc, a->id);
      }
    }
  }

  {
    lds_TickStats tot;
    lds_EditStats es;
    lds_scheduler_totals(sc, &tot);
    lds_scheduler_edit_stats(sc, &es);
    res->forced = tot.forced;
    res->edits_kept = es.kept;
    res->edits_repaired = es.repaired;
    res->edits_disturbed = es.disturbed;
    res->deferred = es.deferred;
    res->resumed = es.resumed;
    res->defer_timeouts = es.defer_timeouts;
  }
  /* requests still in progress: every started request must come to an end */
  for (i = 0; i < o->agents; i++)
    if (ag[i].st == A_WAIT && ag[i].started >= 0) {
      res->in_progress++;
      if (o->frames - (uint32_t)ag[i].started > res->oldest_run)
        res->oldest_run = o->frames - (uint32_t)ag[i].started;
    }
  /* the tick CPU distribution, and the counters of the three slowest ticks */
  for (f = 0; f < o->frames; f++) {
    int k;
    if (tick_ns[f] > tick_ns[res->max_frame]) res->max_frame = f;
    for (k = 0; k < 3; k++)
      if (tick_ns[f] > res->slow_ns[k]) {
        int m;
        for (m = 2; m > k; m--) {
          res->slow_ns[m] = res->slow_ns[m - 1];
          res->slow[m] = res->slow[m - 1];
          res->slow_faults[m] = res->slow_faults[m - 1];
        }
        res->slow_ns[k] = tick_ns[f];
        res->slow[k] = tick_st[f];
        res->slow_faults[k] = tick_faults[f];
        break;
      }
  }
  free(tick_st);
  free(tick_faults);
  qsort(tick_ns, o->frames, sizeof *tick_ns, cmp_u64);
  res->p50 = (double)tick_ns[o->frames / 2] / 1e3;
  res->p99 = (double)tick_ns[(size_t)((double)o->frames * 0.99)] / 1e3;
  res->pmax = (double)tick_ns[o->frames - 1] / 1e3;
  for (f = 0; f < o->frames; f++)
    if ((double)tick_ns[f] > 1.10e3 * o->budget_us) res->over_110++;
  res->sched_rate = res->sched_cpu_ns ? (double)res->sched_exp / ((double)res->sched_cpu_ns / 1e3) : 0;

  /* a lone search on the same map: each class's queries in a row (its
  ** effective costs computed once), random pairs, thread CPU */
  {
    lds_Search *lone = lds_search_new(NULL, g, &err);
    uint64_t exp = 0, ns = 0;
    int c, q;
    Rng lr = {o->seed ^ 0x5EEDull};
    for (c = 0; c < NCLASS && lone; c++) {
      lds_SearchParams sp;
      params_for(&sp, c);
      lds_search_start(lone, &sp, 0, 0, 0, 0); /* warms its cost cache (untimed) */
      for (q = 0; q < LONE_QUERIES; q++) {
        int32_t sx, sy, gx, gy;
        lds_Stats st;
        uint64_t t0;
        pick_cell(&lr, cells, ncells, w, &sx, &sy);
        pick_cell(&lr, cells, ncells, w, &gx, &gy);
        t0 = cpu_ns();
        if (lds_search_start(lone, &sp, sx, sy, gx, gy) == LDS_OK) lds_search_run(lone);
        ns += cpu_ns() - t0;
        lds_search_stats(lone, &st);
        exp += st.expansions;
      }
    }
    res->lone_rate = ns ? (double)exp / ((double)ns / 1e3) : 0;
    res->lone_per_query = (double)exp / (NCLASS * LONE_QUERIES);
    lds_search_free(lone);
  }
  if (verbose)
    printf("  %s: %dx%d, %u agents of %d classes, door of %d cells at row %d, %u frames, "
           "scheduler memory %.1f MB\n",
           map, (int)w, (int)h, o->agents, NCLASS, (int)door_n, (int)door_y, o->frames,
           (double)lds_scheduler_mem_used(sc) / 1e6);

  for (i = 0; i < o->agents; i++) lds_path_free(ag[i].path);
  free(ag);
  free(tick_ns);
  free(inside);
  free(cells);
  for (i = 0; i < NCLASS; i++) lds_search_free(verify[i]);
  lds_scheduler_free(sc);
  lds_grid_free(g);
  return 0;
}

static void verdict(const char *what, bool pass, const char *measured) {
  printf("  %-4s %-46s %s\n", pass ? "PASS" : "MISS", what, measured);
}

static void report(const Opts *o, const Result *r) {
  char buf[160];
  double b = (double)o->budget_us;
  printf("  tick CPU (thread) p50 %.0f us (%.2fx budget)  p99 %.0f us (%.2fx)  max %.0f us (%.2fx, "
         "frame %u);  frames over 1.10x: %u of %u\n",
         r->p50, r->p50 / b, r->p99, r->p99 / b, r->pmax, r->pmax / b, r->max_frame, r->over_110,
         o->frames);
  printf("  requests  submitted %u  found %u  no_path %u  failed: stale %u, other %u  restarts %u\n",
         r->submitted, r->found, r->no_path, r->failed_stale, r->failed_other, r->restarts);
  printf("  requests in progress at the end %u (the oldest for %u frames); longest from first "
         "start to delivery %u frames\n",
         r->in_progress, r->oldest_run, r->longest_run);
  {
    int k;
    for (k = 0; k < 3 && r->slow_ns[k]; k++)
      printf("  slow tick %d: frame %llu, %.0f us CPU: expansions %llu, started %u, finished %u, "
             "restarted %u, forced %u, view cells %llu, clock reads %u, page faults %llu\n",
             k + 1, (unsigned long long)r->slow[k].frame, (double)r->slow_ns[k] / 1e3,
             (unsigned long long)r->slow[k].expansions, r->slow[k].started, r->slow[k].finished,
             r->slow[k].restarted, r->slow[k].forced, (unsigned long long)r->slow[k].view_cells,
             r->slow[k].clock_reads, (unsigned long long)r->slow_faults[k]);
  }
  printf("  forced past the budget %u  edits: searches kept %llu, repaired %llu, disturbed %llu\n",
         r->forced, (unsigned long long)r->edits_kept, (unsigned long long)r->edits_repaired,
         (unsigned long long)r->edits_disturbed);
  printf("  pauses (flapping cells waited out): %llu, resumed %llu, timed out %llu\n",
         (unsigned long long)r->deferred, (unsigned long long)r->resumed,
         (unsigned long long)r->defer_timeouts);
  printf("  delivered paths checked (one-shot A*): illegal %u  not optimal %u\n", r->illegal,
         r->not_optimal);
  printf("  watched-path events %u  paths walked into a blocked "
         "cell without an event %u\n",
         r->watch_events, r->crossings);
  printf("  throughput  scheduler %.2f expansions/us of tick CPU  lone search %.2f  ratio %.2f\n",
         r->sched_rate, r->lone_rate, r->lone_rate > 0 ? r->sched_rate / r->lone_rate : 0.0);
  printf("  expansions per delivered path %.0f (scheduler, work in flight included)  per lone "
         "query %.0f\n",
         r->found ? (double)r->sched_exp / r->found : 0.0, r->lone_per_query);
  if (o->deterministic) printf("  result hash %016llx\n", (unsigned long long)r->hash);
  snprintf(buf, sizeof buf, "%.2fx", r->p99 / b);
  verdict("p99 tick CPU <= 1.10x budget", r->p99 <= 1.10 * b, buf);
  snprintf(buf, sizeof buf, "%.2fx", r->pmax / b);
  verdict("max tick CPU <= 1.5x budget", r->pmax <= 1.5 * b, buf);
  snprintf(buf, sizeof buf, "%u", r->failed_stale);
  verdict("0 requests failed stale", r->failed_stale == 0, buf);
  snprintf(buf, sizeof buf, "%u illegal, %u not optimal of %u", r->illegal, r->not_optimal, r->found);
  verdict("every delivered path optimal", r->illegal == 0 && r->not_optimal == 0, buf);
  snprintf(buf, sizeof buf, "%u", r->crossings);
  verdict("0 watched paths crossing a blocked cell", r->crossings == 0, buf);
  snprintf(buf, sizeof buf, "%.2fx", r->lone_rate > 0 ? r->sched_rate / r->lone_rate : 0.0);
  verdict("throughput >= 0.8x lone search", r->sched_rate >= 0.8 * r->lone_rate, buf);
}

int main(int argc, char **argv) {
  Opts o = {0, 0, 3000, 1000, 1000, 18};
  int i, nmaps = 0, bad = 0;
  const char *maps[16];
  for (i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (strcmp(a, "--quick") == 0) {
      o.quick = 1;
    } else if (strcmp(a, "--deterministic") == 0) {
      o.deterministic = 1;
    } else if (i + 1 < argc && (strcmp(a, "--frames") == 0 || strcmp(a, "--agents") == 0 ||
                                strcmp(a, "--seed") == 0 || strcmp(a, "--budget") == 0)) {
      char *end;
      unsigned long long v = strtoull(argv[++i], &end, 10);
      if (*end || v == 0 || v > 100000000ull) {
        fprintf(stderr, "bench_gameday: %s %s: expected an integer 1..100000000\n", a, argv[i]);
        return 2;
      }
      if (a[2] == 'f') o.frames = (uint32_t)v;
      else if (a[2] == 'a') o.agents = (uint32_t)v;
      else if (a[2] == 's') o.seed = v;
      else o.budget_us = (uint32_t)v;
    } else if (a[0] == '-' || nmaps == 16) {
      fprintf(stderr, "usage: bench_gameday [--quick] [--deterministic] [--frames N] "
                      "[--agents N] [--seed S] [--budget US] MAP... (at most 16 maps)\n");
      return 2;
    } else {
      maps[nmaps++] = a;
    }
  }
  if (nmaps == 0) {
    fprintf(stderr, "bench_gameday: no map given (expected MAP...)\n");
    return 2;
  }
  if (o.quick) {
    o.frames = 150;
    o.agents = 120;
    o.deterministic = 1;
  }
  printf("bench_gameday: %u frames at 60 frames/s, budget %u us per tick, %s budget, seed %llu\n",
         o.frames, o.budget_us, o.deterministic ? "deterministic (16 expansions per us)" : "timed",
         (unsigned long long)o.seed);
  for (i = 0; i < nmaps; i++) {
    Result r, r2;
    if (run(maps[i], &o, &r, 1) < 0) return 2;
    report(&o, &r);
    if (o.quick) {
      if (run(maps[i], &o, &r2, 0) < 0) return 2;
      if (r2.hash != r.hash || r2.found != r.found) {
        printf("  FAIL the second run differs (hash %016llx, %u found)\n",
               (unsigned long long)r2.hash, r2.found);
        bad = 1;
      }
      if (r.found == 0 || r.illegal || r.not_optimal) {
        printf("  FAIL delivered paths: %u found, %u illegal, %u not optimal\n", r.found,
               r.illegal, r.not_optimal);
        bad = 1;
      }
      if (r.crossings || r.failed_stale) {
        printf("  FAIL %u paths walked into a blocked cell without an event, %u failed stale\n",
               r.crossings, r.failed_stale);
        bad = 1;
      }
    }
  }
  if (o.quick) printf("%d passed, %d failed\n", bad ? 0 : 1, bad ? 1 : 0);
  return bad;
}
