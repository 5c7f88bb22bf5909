/*
** demo.c — `lodestar demo`: a headless game loop on a real map. N agents
** wander to random reachable goals, doors open and close on a schedule,
** blocked agents replan, and a lds_Scheduler serves every request within a
** per-frame budget. Prints a progress line per simulated second and a
** summary (latency in frames, time per frame, overshoot, expansions).
**
** Everything the game does (doors, agents, checks) happens outside the timed
** region; only lds_scheduler_tick (searches + delivery callbacks) is timed.
** Each delivered path is checked, outside the timed region, against a
** one-shot A* on the same grid state.
*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime(CLOCK_THREAD_CPUTIME_ID) */
#include "util.h"
#include "lds_runtime.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#define CMD "demo"
/* The default map: tests/data/den011d.map from the current directory (the
** repository root), else the copy in LDS_DATA_DIR. The Makefile compiles the
** data directory in, as lds_runtime.c gets its Lua directory: the build's
** tests/data for build/lodestar, PREFIX/share/lodestar (where `make install`
** puts the map) for the installed command. */
#define DEFAULT_MAP_NAME "den011d.map"
#define DEFAULT_MAP "tests/data/" DEFAULT_MAP_NAME
#ifndef LDS_DATA_DIR
#define LDS_DATA_DIR "tests/data"
#endif
#define DATA_MAP LDS_DATA_DIR "/" DEFAULT_MAP_NAME

static void usage(FILE *f) {
  fprintf(f,
          "usage: lodestar demo [--map FILE] [--agents N] [--budget-us B] [--frames F]\n"
          "                     [--seed S] [--deterministic] [--json] [options]\n"
          "A headless game loop: N agents walk (one cell per frame) to random reachable\n"
          "goals, doors open and close, agents whose way is blocked replan, and the\n"
          "scheduler runs the searches within B microseconds per frame.\n"
          "  --map FILE         Moving AI .map (default " DEFAULT_MAP ", or when the\n"
          "                     current directory has none, " DATA_MAP ")\n"
          "  --agents N         agents (default 200)\n"
          "  --budget-us B      search budget per frame [µs] (default 1000)\n"
          "  --frames F         frames to simulate, 60 per second (default 600)\n"
          "  --realtime         run the frames at 60 per second of wall time (sleeps\n"
          "                     between frames, outside the timed tick; a late frame\n"
          "                     does not make the next ones hurry); default: as fast as\n"
          "                     the machine goes. For watching --watch reload by hand\n"
          "  --seed S           random seed (default 1)\n"
          "  --deterministic    count the budget in expansions (B * --exp-per-us): the\n"
          "                     same inputs give the same frames and log_hash\n"
          "  --exp-per-us E     deterministic mode: expansions per µs of budget (default 4)\n"
          "  --algo A           astar (default), dijkstra, wastar, greedy, jps, jps+\n"
          "  --goal-radius R    goals within R cells of the agent (default 40; 0 = anywhere)\n"
          "  --idle F           mean frames an agent waits between trips (default 60)\n"
          "  --doors D          doors on the map (default 12)\n"
          "  --searches P       searches in progress at once (default 2)\n"
          "  --quick N          ask for a quick partial path of N expansions first\n"
          "  --no-check         skip the one-shot A* check of each path\n"
          "  --log FILE         write the per-frame log (what log_hash hashes)\n"
          "  --verbose          print each frame over 1.05 x budget to stderr\n"
          "  --json             print one JSON object as the last line\n"
          "  --mods DIR         run through the embedding runtime with the mods in DIR;\n"
          "                     agent i uses profile i mod P of the P loaded profiles\n"
          "                     (sorted by mod load order, then name)\n"
          "  --watch            with --mods: reload changed mods while running\n"
          "  --poll-frames N    with --watch: poll the mod files every N frames (default 30)\n"
          "  --exit-after-reload F  with --watch: stop F frames after the first reload\n"
          "                     (--frames stays the upper bound)\n"
          "Each option may be given once.\n");
}

/* ------------------------------------------------------------- helpers -- */

typedef struct Rng { uint64_t s; } Rng;

static uint64_t rng_next(Rng *r) { /* xorshift64* (Vigna 2016) */
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 2685821657736338717ULL;
}
static int32_t rng_int(Rng *r, int32_t n) { return (int32_t)(rng_next(r) % (uint64_t)n); }

/* CPU time of this thread [ns]: with the wall time it tells the scheduler's
** own overshoot from time the OS gave to other processes. */
static uint64_t cpu_now_ns(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Sleeps until the CLOCK_MONOTONIC time due_ns (cli_now_ns's clock). */
static void sleep_until_ns(uint64_t due_ns) {
  struct timespec ts;
  ts.tv_sec = (time_t)(due_ns / 1000000000u);
  ts.tv_nsec = (long)(due_ns % 1000000000u);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
  }
}

/* FNV-1a, 64 bits (Fowler, Noll & Vo) over the per-frame log text. */
static uint64_t fnv1a(uint64_t h, const char *s, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ULL;
  }
  return h;
}

enum { AG_IDLE = 0, AG_WAITING = 1, AG_WALKING = 2 };

typedef struct Agent {
  int32_t x, y, gx, gy;
  int state;
  uint64_t wake;          /* AG_IDLE: frame to pick a new goal */
  lds_RequestId req;      /* AG_WAITING, or WALKING a quick path */
  lds_Path *path;
  size_t step;            /* index of the agent's cell in path */
  bool on_quick;          /* walking a quick partial path */
} Agent;

typedef struct Door {
  int32_t x, y, len; /* first cell and number of cells */
  bool horizontal;
  uint32_t period, phase;
  bool closed;
} Door;

typedef struct Demo {
  lds_Grid *g;
  lds_Scheduler *sc;
  lds_Search *check;      /* one-shot A* for the optimality check */
  Rng rng;
  int32_t w, h;
  int32_t *comp;          /* component of each cell on the map with all doors open */
  uint32_t *occupied;     /* agents per cell */
  Agent *agents;
  long nagents;
  Door *doors;
  long ndoors;
  uint32_t *done;         /* agents whose request finished this tick (callback) */
  uint8_t *partial;       /* ... event kind per entry */
  size_t ndone;
  lds_SearchParams params;
  long radius, idle, quick;
  bool check_paths;
  /* results */
  double *latency;        /* frames per delivered path */
  size_t nlat, lat_cap;
  unsigned long submitted, completed, no_path, stale, errors, nonoptimal, illegal, replans;
  unsigned long door_toggles, quick_used, cancelled;
  /* --mods: the runtime, the profiles agents use, per-window path costs */
  lds_Runtime *rt;
  char profbuf[4096];
  const char *prof[64];
  int nprof;
  uint64_t frame;
  double win_cost[65], win_steps[65];  /* [nprof] = all profiles */
  unsigned long win_n[65];
  unsigned long mod_events, reloads, mod_restarts, unchecked;
  uint64_t reload_frame;  /* frame of the first reload */
  unsigned long polls;
  uint64_t poll_us_total, poll_us_max; /* mod polls, outside the budget [µs] */
  bool json;
} Demo;

/* the profile of agent i (--mods): round-robin by agent id */
static const char *agent_profile(const Demo *d, long i) {
  return d->nprof ? d->prof[i % d->nprof] : NULL;
}

/* --mods: one line per mod event (mod, ms, result) */
static void on_mod_event(void *ud, const lds_ModEvent *ev) {
  Demo *d = (Demo *)ud;
  d->mod_events++;
  if (strcmp(ev->result, "reloaded") == 0 && d->reloads++ == 0) d->reload_frame = d->frame;
  if (!d->json)
    printf("mod: frame %llu %s %s in %.1f ms (restarted %u)%s%s\n", (unsigned long long)d->frame,
           ev->mod, ev->result, ev->ms, ev->restarted, ev->error ? ": " : "",
           ev->error ? ev->error : "");
  fflush(stdout); /* a watching script reads the output as it comes */
}

static void demo_log(void *ud, int level, const char *msg) {
  (void)ud;
  if (level <= 1) fprintf(stderr, "lodestar demo: %s\n", msg);
}

static lds_Status on_done(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                          const lds_RequestInfo *info) {
  Demo *d = (Demo *)ud;
  (void)sc;
  (void)id;
  d->done[d->ndone] = (uint32_t)info->agent_id;
  d->partial[d->ndone] = ev == LDS_EVENT_PARTIAL;
  d->ndone++;
  return LDS_OK;
}

/* Connected components under 4-connectivity, which is reachability for 4-
** and for 8-connected grids whose diagonal rule needs a free orthogonal. */
static bool label_components(Demo *d) {
  size_t n = (size_t)d->w * (size_t)d->h, head, tail, i;
  uint32_t *queue = (uint32_t *)malloc(n * sizeof(uint32_t));
  int32_t c = 0;
  static const int dx[4] = {0, 1, 0, -1}, dy[4] = {-1, 0, 1, 0};
  if (!queue) return false;
  for (i = 0; i < n; i++) d->comp[i] = -1;
  for (i = 0; i < n; i++) {
    if (d->comp[i] >= 0 || lds_grid_blocked(d->g, (int32_t)(i % d->w), (int32_t)(i / d->w)))
      continue;
    head = tail = 0;
    queue[tail++] = (uint32_t)i;
    d->comp[i] = c;
    while (head < tail) {
      uint32_t u = queue[head++];
      int32_t x = (int32_t)(u % d->w), y = (int32_t)(u / d->w);
      int k;
      for (k = 0; k < 4; k++) {
        int32_t nx = x + dx[k], ny = y + dy[k];
        size_t v = (size_t)ny * d->w + nx;
        if (lds_grid_blocked(d->g, nx, ny) || d->comp[v] >= 0) continue;
        d->comp[v] = c;
        queue[tail++] = (uint32_t)v;
      }
    }
    c++;
  }
  free(queue);
  return true;
}

/* A door is a gap of 1..MAX_DOOR passable cells, in a row or a column, with
** blocked cells at both ends: closing it cuts a corridor or a gateway. */
#define MAX_DOOR 6

static bool find_gap(const lds_Grid *g, int32_t x, int32_t y, int horizontal, int32_t *x0,
                     int32_t *y0, int32_t *len) {
  int32_t dx = horizontal ? 1 : 0, dy = horizontal ? 0 : 1, a = 0, b = 0;
  while (a <= MAX_DOOR && !lds_grid_blocked(g, x - (a + 1) * dx, y - (a + 1) * dy)) a++;
  while (b <= MAX_DOOR && !lds_grid_blocked(g, x + (b + 1) * dx, y + (b + 1) * dy)) b++;
  if (a + b + 1 > MAX_DOOR) return false;
  if (!lds_grid_in_bounds(g, x - (a + 1) * dx, y - (a + 1) * dy) ||
      !lds_grid_in_bounds(g, x + (b + 1) * dx, y + (b + 1) * dy))
    return false; /* the map edge is not a wall a door hangs on */
  *x0 = x - a * dx;
  *y0 = y - a * dy;
  *len = a + b + 1;
  return true;
}

static long place_doors(Demo *d, long want) {
  long n = 0, tries;
  /* a bounded number of tries: a map has room for only so many doors 16
  ** cells apart (the caller warns when fewer than asked were placed) */
  for (tries = 0; n < want && tries < 20000L + 200L * (want < 1000 ? want : 1000); tries++) {
    int32_t x = rng_int(&d->rng, d->w), y = rng_int(&d->rng, d->h), x0, y0, len;
    int horizontal = rng_int(&d->rng, 2);
    long k;
    if (lds_grid_blocked(d->g, x, y)) continue;
    if (!find_gap(d->g, x, y, horizontal, &x0, &y0, &len)) continue;
    for (k = 0; k < n; k++)
      if (abs(d->doors[k].x - x0) + abs(d->doors[k].y - y0) < 16) break;
    if (k < n) continue;
    d->doors[n].x = x0;
    d->doors[n].y = y0;
    d->doors[n].len = len;
    d->doors[n].horizontal = horizontal != 0;
    d->doors[n].period = 180u + 60u * (uint32_t)rng_int(&d->rng, 4);
    d->doors[n].phase = (uint32_t)rng_int(&d->rng, (int32_t)d->doors[n].period);
    d->doors[n].closed = false;
    n++;
  }
  return n;
}

/* true when cell (x,y) belongs to door dr */
static bool door_has(const Door *dr, int32_t x, int32_t y) {
  if (dr->horizontal) return y == dr->y && x >= dr->x && x < dr->x + dr->len;
  return x == dr->x && y >= dr->y && y < dr->y + dr->len;
}

static bool pick_goal(Demo *d, Agent *a) {
  int tries;
  int32_t c = d->comp[(size_t)a->y * d->w + a->x];
  for (tries = 0; tries < 32; tries++) {
    int32_t x, y;
    if (d->radius > 0) {
      x = a->x + rng_int(&d->rng, (int32_t)(2 * d->radius + 1)) - (int32_t)d->radius;
      y = a->y + rng_int(&d->rng, (int32_t)(2 * d->radius + 1)) - (int32_t)d->radius;
    } else {
      x = rng_int(&d->rng, d->w);
      y = rng_int(&d->rng, d->h);
    }
    if (!lds_grid_in_bounds(d->g, x, y) || lds_grid_blocked(d->g, x, y)) continue;
    if (d->comp[(size_t)y * d->w + x] != c || (x == a->x && y == a->y)) continue;
    a->gx = x;
    a->gy = y;
    return true;
  }
  return false;
}

static bool submit(Demo *d, long i, int32_t priority) {
  Agent *a = &d->agents[i];
  lds_Request rq;
  lds_request_init(&rq, d->g, a->x, a->y, a->gx, a->gy);
  rq.params = d->params;
  rq.agent_id = i;
  rq.priority = priority;
  rq.quick_expansions = (uint64_t)d->quick;
  rq.on_done = on_done;
  rq.ud = d;
  if (d->rt) {
    if (lds_runtime_submit(d->rt, &rq, agent_profile(d, i), &a->req) != LDS_OK) {
      fprintf(stderr, "lodestar demo: %s\n", lds_runtime_errmsg(d->rt));
      return false;
    }
  } else if (lds_scheduler_submit(d->sc, &rq, &a->req) != LDS_OK) {
    fprintf(stderr, "lodestar demo: %s\n", lds_scheduler_errmsg(d->sc));
    return false;
  }
  a->state = AG_WAITING;
  d->submitted++;
  return true;
}

static void go_idle(Demo *d, Agent *a, uint64_t frame, long mean) {
  a->state = AG_IDLE;
  a->wake = frame + 1 + (uint64_t)(mean > 0 ? rng_int(&d->rng, (int32_t)(2 * mean + 1)) : 0);
  lds_path_free(a->path);
  a->path = NULL;
  a->on_quick = false;
}

static void set_path(Agent *a, lds_Path *p, bool quick) {
  lds_path_free(a->path);
  a->path = p;
  a->step = 0;
  a->on_quick = quick;
  a->state = AG_WALKING;
}

/* Direction index of the move (x0,y0)->(x1,y1), -1 if not adjacent. */
static int move_dir(int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  static const int8_t dx[8] = {0, 1, 0, -1, 1, 1, -1, -1};
  static const int8_t dy[8] = {-1, 0, 1, 0, -1, 1, 1, -1};
  int k;
  for (k = 0; k < 8; k++)
    if (x0 + dx[k] == x1 && y0 + dy[k] == y1) return k;
  return -1;
}

/* Checks a delivered full path: legal on the current grid, and as cheap as
** a one-shot A* from the same start to the same goal. */
static void check_path(Demo *d, const lds_Path *p, int32_t sx, int32_t sy, int32_t gx,
                       int32_t gy, long agent) {
  char why[256];
  double c, best, w[16];
  lds_SearchParams astar;
  if (!cli_check_path(d->g, p, sx, sy, gx, gy, &c, why)) {
    d->illegal++;
    d->nonoptimal++;
    return;
  }
  lds_search_params_init(&astar); /* the reference is plain A*, whatever the demo runs */
  if (d->rt && agent_profile(d, agent)) {
    /* --mods: A* under the agent's profile as it is now (a reload restarts
    ** the requests it affects, so a delivered path used these weights) */
    if (lds_runtime_profile_params(d->rt, d->g, agent_profile(d, agent), &astar, w) != LDS_OK) {
      d->unchecked++;
      return;
    }
    if (astar.algo == LDS_ALGO_WASTAR || astar.algo == LDS_ALGO_GREEDY) {
      d->unchecked++; /* not optimal by design */
      return;
    }
    astar.algo = LDS_ALGO_ASTAR;
    c = lds_path_cost(p); /* the layer costs are not in cli_check_path's sum */
  }
  if (lds_search_start(d->check, &astar, sx, sy, gx, gy) != LDS_OK ||
      lds_search_run(d->check) != LDS_FOUND) {
    d->nonoptimal++;
    return;
  }
  best = lds_search_cost(d->check);
  if (fabs(lds_path_cost(p) - best) > 1e-9 * (best > 1.0 ? best : 1.0) ||
      fabs(c - best) > 1e-6 * (best > 1.0 ? best : 1.0))
    d->nonoptimal++;
}

/* The agent walked quick path q up to index at and is off the full path f:
** walk back along q to the last cell that is on f, then follow f (both start
** at the same cell, so there is one). NULL on out of memory. */
static lds_Path *splice(const lds_Path *q, size_t at, const lds_Path *f) {
  size_t nf = lds_path_length(f), j, k = 0, n = 0;
  const uint32_t *fc = lds_path_nodes(f), *qc = lds_path_nodes(q);
  uint32_t *cells;
  lds_Path *out;
  for (j = at + 1; j-- > 0;) {
    for (k = 0; k < nf; k++)
      if (fc[k] == qc[j]) break;
    if (k < nf) break;
  }
  if (j == (size_t)-1) return NULL;
  cells = (uint32_t *)malloc((at - j + 1 + nf - k) * sizeof(uint32_t));
  if (!cells) return NULL;
  for (size_t t = at; t > j; t--) cells[n++] = qc[t];
  for (; k < nf; k++) cells[n++] = fc[k];
  out = lds_path_new(NULL, cells, n, lds_path_width(f), lds_path_cost(f), 0, NULL);
  free(cells);
  return out;
}

static bool push_latency(Demo *d, double v) {
  if (d->nlat == d->lat_cap) {
    size_t ncap = d->lat_cap ? d->lat_cap * 2 : 1024;
    double *p = (double *)realloc(d->latency, ncap * sizeof(double));
    if (!p) return false;
    d->latency = p;
    d->lat_cap = ncap;
  }
  d->latency[d->nlat++] = v;
  return true;
}

/* Handles the requests the tick delivered (outside the timed region). */
static void collect(Demo *d, uint64_t frame, char *log, size_t *loglen, size_t logcap) {
  size_t k;
  for (k = 0; k < d->ndone; k++) {
    long i = (long)d->done[k];
    Agent *a = &d->agents[i];
    lds_RequestInfo info;
    lds_Status st;
    if (lds_scheduler_info(d->sc, a->req, &info) != LDS_OK) continue;
    st = info.status;
    if (d->partial[k]) { /* a quick partial path: start walking it */
      lds_Path *p;
      if (info.flags & LDS_REQINFO_DONE) continue; /* the full path came in the same tick */
      p = lds_scheduler_take_path(d->sc, a->req);
      if (p && lds_path_length(p) > 1) {
        set_path(a, p, true);
        d->quick_used++;
      } else {
        lds_path_free(p);
      }
      continue;
    }
    if (*loglen + 96 < logcap)
      *loglen += (size_t)snprintf(log + *loglen, logcap - *loglen, " a%ld:%s:%u:%.6f:%zu", i,
                                  lds_status_name(st), info.frames, info.cost, info.path_length);
    if (st == LDS_FOUND) {
      lds_Path *p = lds_scheduler_take_path(d->sc, a->req);
      int32_t sx = 0, sy = 0;
      d->completed++;
      push_latency(d, (double)info.frames);
      if (p) lds_path_cell(p, 0, &sx, &sy);
      if (p && d->check_paths) check_path(d, p, sx, sy, a->gx, a->gy, i);
      if (p && d->rt && lds_path_length(p) > 1) {
        int k2 = d->nprof ? (int)(i % d->nprof) : 0;
        d->win_cost[k2] += lds_path_cost(p);
        d->win_steps[k2] += (double)(lds_path_length(p) - 1);
        d->win_n[k2]++;
        d->win_cost[d->nprof] += lds_path_cost(p);
        d->win_steps[d->nprof] += (double)(lds_path_length(p) - 1);
        d->win_n[d->nprof]++;
      }
      lds_scheduler_release(d->sc, a->req);
      a->req = 0;
      if (p && a->on_quick && a->path) {
        /* walking a quick path: continue on the full path from where the
        ** agent is, or ask again from here */
        size_t j, n = lds_path_length(p);
        for (j = 0; j < n; j++) {
          int32_t x, y;
          lds_path_cell(p, j, &x, &y);
          if (x == a->x && y == a->y) break;
        }
        if (j < n) {
          set_path(a, p, false);
          a->step = j;
        } else {
          lds_Path *sp = splice(a->path, a->step, p);
          lds_path_free(p);
          if (sp) {
            set_path(a, sp, false);
          } else {
            lds_path_free(a->path);
            a->path = NULL;
            a->on_quick = false;
            d->replans++;
            submit(d, i, 1);
          }
        }
      } else if (p) {
        set_path(a, p, false);
      } else {
        go_idle(d, a, frame, 5);
      }
    } else {
      if (st == LDS_NO_PATH) d->no_path++;
      else if (st == LDS_E_STALE) d->stale++;
      else d->errors++;
      if (st < 0 && st != LDS_E_STALE && d->errors <= 3)
        fprintf(stderr, "lodestar demo: request of agent %ld failed: %s\n", i,
                lds_scheduler_request_errmsg(d->sc, a->req));
      lds_scheduler_release(d->sc, a->req);
      a->req = 0;
      go_idle(d, a, frame, 10);
    }
  }
  d->ndone = 0;
}

/* Doors follow their schedules; a door does not close on an agent. */
static void update_doors(Demo *d, uint64_t frame, char *log, size_t *loglen, size_t logcap) {
  long k;
  for (k = 0; k < d->ndoors; k++) {
    Door *dr = &d->doors[k];
    bool want_closed = ((frame + dr->phase) % dr->period) < dr->period / 2;
    int32_t j, dx = dr->horizontal ? 1 : 0, dy = dr->horizontal ? 0 : 1;
    bool busy = false;
    if (want_closed == dr->closed) continue;
    for (j = 0; j < dr->len; j++)
      if (d->occupied[(size_t)(dr->y + j * dy) * d->w + dr->x + j * dx]) busy = true;
    if (want_closed && busy) continue; /* a door does not close on an agent */
    for (j = 0; j < dr->len; j++)
      lds_grid_set_blocked(d->g, dr->x + j * dx, dr->y + j * dy, want_closed);
    dr->closed = want_closed;
    d->door_toggles++;
    if (*loglen + 32 < logcap)
      *loglen += (size_t)snprintf(log + *loglen, logcap - *loglen, " d%ld:%d", k, (int)want_closed);
  }
}

/* Agents think and walk (before the tick). */
static bool update_agents(Demo *d, uint64_t frame) {
  long i;
  for (i = 0; i < d->nagents; i++) {
    Agent *a = &d->agents[i];
    if (a->state == AG_IDLE) {
      if (frame < a->wake) continue;
      if (!pick_goal(d, a)) {
        a->wake = frame + 10;
        continue;
      }
      if (!submit(d, i, 0)) return false;
    } else if (a->state == AG_WALKING) {
      int32_t nx, ny;
      if (a->step + 1 >= lds_path_length(a->path)) {
        if (a->on_quick) { /* end of the quick path: wait for the full one */
          a->state = AG_WAITING;
          continue;
        }
        go_idle(d, a, frame, d->idle);
        continue;
      }
      lds_path_cell(a->path, a->step + 1, &nx, &ny);
      if (!lds_grid_can_move(d->g, a->x, a->y, move_dir(a->x, a->y, nx, ny))) {
        /* the way is blocked (a door closed): replan from here */
        if (a->on_quick && a->req) {
          lds_scheduler_cancel(d->sc, a->req);
          a->req = 0;
          d->cancelled++;
        }
        lds_path_free(a->path);
        a->path = NULL;
        a->on_quick = false;
        d->replans++;
        if (!submit(d, i, 1)) return false;
        continue;
      }
      d->occupied[(size_t)a->y * d->w + a->x]--;
      a->x = nx;
      a->y = ny;
      a->step++;
      d->occupied[(size_t)a->y * d->w + a->x]++;
    }
  }
  return true;
}

/* ---------------------------------------------------------------- main -- */

int cli_demo(int argc, char **argv) {
  const char *map_path = NULL, *log_path = NULL;
  long agents = 200, budget = 1000, frames = 600, seed = 1, exp_per_us = 4, searches = 2,
       ndoors = 12, radius = 40, idle = 60, quick = 0, poll_frames = 30, exit_after = 0;
  const char *mods_dir = NULL;
  bool watch = false, poll_given = false;
  bool json = false, det = false, check = true, verbose = false, realtime = false;
  int i, rc = 0;
  lds_Algo algo = LDS_ALGO_ASTAR;
  lds_Error err;
  lds_SchedulerConfig cfg;
  Demo d;
  double *frame_us = NULL, *frame_exp = NULL, *frame_cpu = NULL;
  unsigned long preempted = 0;
  uint64_t log_hash = 1469598103934665603ULL, f;
  FILE *logf = NULL;
  char *log = NULL;
  size_t logcap = 1u << 20;
  uint64_t t_start, pace_ns = 0, pace_frame = 0; /* --realtime: frame pace_frame started at pace_ns */
  double overshoot_max = 0.0, overshoot_sum = 0.0;
  unsigned long overshoot_frames = 0;
  uint32_t oldest = 0;
  cli_Seen seen = {{0}, 0};

  memset(&d, 0, sizeof d);
  for (i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!cli_once(CMD, &seen, a)) return 2;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--json") == 0) {
      json = true;
    } else if (strcmp(a, "--deterministic") == 0) {
      det = true;
    } else if (strcmp(a, "--no-check") == 0) {
      check = false;
    } else if (strcmp(a, "--verbose") == 0) {
      verbose = true;
    } else if (strcmp(a, "--watch") == 0) {
      watch = true;
    } else if (strcmp(a, "--realtime") == 0) {
      realtime = true;
    } else if (strcmp(a, "--mods") == 0 || strcmp(a, "--poll-frames") == 0 ||
               strcmp(a, "--exit-after-reload") == 0) {
      if (!v) return cli_fail(CMD, "%s: missing value", a);
      i++;
      if (strcmp(a, "--mods") == 0) {
        struct stat sb;
        if (stat(v, &sb) != 0 || !S_ISDIR(sb.st_mode))
          return cli_fail(CMD, "--mods: '%s' is not a directory", v);
        mods_dir = v;
      } else if (strcmp(a, "--poll-frames") == 0) {
        if (!cli_int(CMD, a, v, 1, 1000000, &poll_frames)) return 2;
        poll_given = true;
      } else if (!cli_int(CMD, a, v, 1, 100000000, &exit_after)) {
        return 2;
      }
    } else if (strcmp(a, "--map") == 0 || strcmp(a, "--log") == 0 || strcmp(a, "--algo") == 0 ||
               strcmp(a, "--agents") == 0 || strcmp(a, "--budget-us") == 0 ||
               strcmp(a, "--frames") == 0 || strcmp(a, "--seed") == 0 ||
               strcmp(a, "--exp-per-us") == 0 || strcmp(a, "--searches") == 0 ||
               strcmp(a, "--doors") == 0 || strcmp(a, "--goal-radius") == 0 ||
               strcmp(a, "--idle") == 0 || strcmp(a, "--quick") == 0) {
      if (!v) return cli_fail(CMD, "%s: missing value", a);
      i++;
      if (strcmp(a, "--map") == 0) map_path = v;
      else if (strcmp(a, "--log") == 0) log_path = v;
      else if (strcmp(a, "--algo") == 0) {
        if (lds_algo_parse(v, &algo) != LDS_OK)
          return cli_fail(CMD, "--algo: unknown algorithm '%s' (expected astar, dijkstra, "
                          "wastar, greedy, jps or jps+)", v);
      } else if (strcmp(a, "--agents") == 0) {
        if (!cli_int(CMD, a, v, 1, 1000000, &agents)) return 2;
      } else if (strcmp(a, "--budget-us") == 0) {
        if (!cli_int(CMD, a, v, 1, 10000000, &budget)) return 2;
      } else if (strcmp(a, "--frames") == 0) {
        if (!cli_int(CMD, a, v, 1, 10000000, &frames)) return 2;
      } else if (strcmp(a, "--seed") == 0) {
        if (!cli_int(CMD, a, v, 0, 2147483647L, &seed)) return 2;
      } else if (strcmp(a, "--exp-per-us") == 0) {
        if (!cli_int(CMD, a, v, 1, 1000000, &exp_per_us)) return 2;
      } else if (strcmp(a, "--searches") == 0) {
        if (!cli_int(CMD, a, v, 1, 64, &searches)) return 2;
      } else if (strcmp(a, "--doors") == 0) {
        if (!cli_int(CMD, a, v, 0, 100000, &ndoors)) return 2;
      } else if (strcmp(a, "--goal-radius") == 0) {
        if (!cli_int(CMD, a, v, 0, LDS_GRID_MAX_SIDE, &radius)) return 2;
      } else if (strcmp(a, "--idle") == 0) {
        if (!cli_int(CMD, a, v, 0, 1000000, &idle)) return 2;
      } else if (!cli_int(CMD, a, v, 0, 100000000, &quick)) {
        return 2;
      }
    } else {
      return cli_fail(CMD, "unknown argument '%s' (try 'lodestar demo --help')", a);
    }
  }

  if (!map_path) {
    if (cli_file_exists(DEFAULT_MAP))
      map_path = DEFAULT_MAP;
    else if (cli_file_exists(DATA_MAP))
      map_path = DATA_MAP;
    else
      return cli_fail(CMD, "default map not found: neither %s (from the current directory) nor "
                      "%s exists (use --map FILE)", DEFAULT_MAP, DATA_MAP);
  }
  if (!cli_not_dir(CMD, map_path)) return 2;
  d.g = lds_map_load(NULL, map_path, &err);
  if (!d.g) return cli_fail(CMD, "%s", err.msg);
  d.w = lds_grid_width(d.g);
  d.h = lds_grid_height(d.g);
  d.rng.s = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)seed * 0xD1B54A32D192ED03ULL);
  if (d.rng.s == 0) d.rng.s = 1;
  d.nagents = agents;
  d.radius = radius;
  d.idle = idle;
  d.quick = quick;
  d.check_paths = check;
  lds_search_params_init(&d.params);
  d.params.algo = algo;
  d.comp = (int32_t *)malloc((size_t)d.w * d.h * sizeof(int32_t));
  d.occupied = (uint32_t *)calloc((size_t)d.w * d.h, sizeof(uint32_t));
  d.agents = (Agent *)calloc((size_t)agents, sizeof(Agent));
  d.doors = (Door *)calloc((size_t)(ndoors ? ndoors : 1), sizeof(Door));
  d.done = (uint32_t *)malloc((size_t)agents * 2 * sizeof(uint32_t));
  d.partial = (uint8_t *)malloc((size_t)agents * 2);
  frame_us = (double *)malloc((size_t)frames * sizeof(double));
  frame_exp = (double *)malloc((size_t)frames * sizeof(double));
  frame_cpu = (double *)malloc((size_t)frames * sizeof(double));
  log = (char *)malloc(logcap);
  if (!d.comp || !d.occupied || !d.agents || !d.doors || !d.done || !d.partial || !frame_us ||
      !frame_exp || !frame_cpu || !log || !label_components(&d)) {
    rc = cli_fail(CMD, "out of memory");
    goto done;
  }
  if (lds_grid_passable_count(d.g) < 2) {
    rc = cli_fail(CMD, "%s: fewer than two passable cells", map_path);
    goto done;
  }
  d.ndoors = place_doors(&d, ndoors);
  if (d.ndoors < ndoors)
    fprintf(stderr, "lodestar demo: warning: room for %ld of the %ld doors asked on %s "
            "(gaps in walls, 16 cells apart)\n", d.ndoors, ndoors, map_path);
  /* agents start on random passable cells, not on doors, spread over time */
  for (i = 0; i < (int)agents; i++) {
    Agent *a = &d.agents[i];
    long k;
    do {
      a->x = rng_int(&d.rng, d.w);
      a->y = rng_int(&d.rng, d.h);
      for (k = 0; k < d.ndoors; k++)
        if (door_has(&d.doors[k], a->x, a->y)) break;
    } while (lds_grid_blocked(d.g, a->x, a->y) || k < d.ndoors);
    a->state = AG_IDLE;
    a->wake = (uint64_t)rng_int(&d.rng, (int32_t)(2 * idle + 1));
    d.occupied[(size_t)a->y * d.w + a->x]++;
  }

  lds_scheduler_config_init(&cfg);
  cfg.deterministic = det;
  cfg.expansions_per_us = (uint32_t)exp_per_us;
  cfg.searches_per_grid = (int)searches;
  cfg.initial_capacity = (uint32_t)(agents + 16);
  if (watch && !mods_dir) {
    rc = cli_fail(CMD, "--watch needs --mods DIR");
    goto done;
  }
  if (!watch && (poll_given || exit_after > 0)) {
    rc = cli_fail(CMD, "%s needs --watch", poll_given ? "--poll-frames" : "--exit-after-reload");
    goto done;
  }
  d.json = json;
  if (mods_dir) {
    /* the game loop through the embedding runtime: a Lua state with the
    ** mods, polled every poll_frames frames when watching */
    lds_RuntimeConfig rcfg;
    char *s;
    lds_runtime_config_init(&rcfg);
    rcfg.sched = cfg;
    rcfg.env.log = demo_log;
    rcfg.mods_dir = mods_dir;
    rcfg.watch = watch;
    rcfg.poll_frames = (uint32_t)poll_frames;
    rcfg.on_mod_event = on_mod_event;
    rcfg.mod_event_ud = &d;
    d.rt = lds_runtime_new(&rcfg, &err);
    if (!d.rt) {
      rc = cli_fail(CMD, "%s", err.msg);
      goto done;
    }
    d.sc = lds_runtime_scheduler(d.rt);
    if (lds_runtime_add_grid(d.rt, "world", d.g) != LDS_OK) {
      rc = cli_fail(CMD, "%s", lds_runtime_errmsg(d.rt));
      goto done;
    }
    lds_runtime_profiles(d.rt, d.profbuf, sizeof d.profbuf);
    for (s = d.profbuf; *s && d.nprof < 64;) {
      d.prof[d.nprof++] = s;
      s = strchr(s, '\n');
      if (!s) break;
      *s++ = '\0';
    }
    if (!json) {
      int k;
      printf("mods: %s, %d profiles:", mods_dir, d.nprof);
      for (k = 0; k < d.nprof; k++) printf(" %s", d.prof[k]);
      printf("%s\n", watch ? " (watching)" : "");
    }
  } else {
    d.sc = lds_scheduler_new(NULL, &cfg, &err);
    if (!d.sc) {
      rc = cli_fail(CMD, "%s", err.msg);
      goto done;
    }
    if (lds_scheduler_add_grid(d.sc, d.g, 0) != LDS_OK) {
      rc = cli_fail(CMD, "%s", lds_scheduler_errmsg(d.sc));
      goto done;
    }
  }
  d.check = lds_search_new(NULL, d.g, &err);
  if (!d.check) {
    rc = cli_fail(CMD, "%s", err.msg);
    goto done;
  }
  if (log_path && !(logf = fopen(log_path, "w"))) {
    rc = cli_fail(CMD, "%s: cannot open for writing", log_path);
    goto done;
  }
  if (!json)
    printf("demo: %s (%ldx%ld), %ld agents, %ld doors, budget %ld us%s, %ld frames, seed %ld, "
           "algo %s\n",
           map_path, (long)d.w, (long)d.h, agents, d.ndoors, budget,
           det ? " (deterministic: counted in expansions)" : "", frames, seed,
           lds_algo_name(algo));

  t_start = cli_now_ns();
  pace_ns = t_start;
  for (f = 0; f < (uint64_t)frames; f++) {
    lds_TickStats ts;
    lds_RuntimeStats rs;
    uint64_t t0, t1, c0, c1;
    size_t loglen = 0;
    double us;
    loglen += (size_t)snprintf(log, logcap, "f%llu", (unsigned long long)f);
    update_doors(&d, f, log, &loglen, logcap);
    if (!update_agents(&d, f)) {
      rc = 2;
      goto done;
    }
    d.frame = f;
    c0 = cpu_now_ns();
    t0 = cli_now_ns();
    if (d.rt) {
      lds_runtime_tick(d.rt, (uint64_t)budget, &rs);
      ts = rs.tick;
    } else {
      lds_scheduler_tick(d.sc, (uint64_t)budget, &ts);
    }
    t1 = cli_now_ns();
    c1 = cpu_now_ns();
    if (d.rt && rs.polled) { /* the mod poll is outside the search budget */
      t0 += rs.poll_us * 1000u;
      c0 += rs.poll_us * 1000u;
      if (t0 > t1) t0 = t1;
      if (c0 > c1) c0 = c1;
      d.mod_restarts += rs.restarted;
      d.polls++;
      d.poll_us_total += rs.poll_us;
      if (rs.poll_us > d.poll_us_max) d.poll_us_max = rs.poll_us;
    }
    us = (double)(t1 - t0) / 1000.0;
    frame_us[f] = us;
    frame_cpu[f] = (double)(c1 - c0) / 1000.0;
    if (us - frame_cpu[f] > 100.0) preempted++; /* the OS ran something else */
    frame_exp[f] = (double)ts.expansions;
    if (verbose && (us > 1.05 * (double)budget || frame_cpu[f] > 1.02 * (double)budget))
      fprintf(stderr, "frame %llu us %.1f cpu %.1f sched %llu exp %llu fin %u reads %u k %llu "
              "rate %.2f\n",
              (unsigned long long)f, us, frame_cpu[f], (unsigned long long)ts.elapsed_us,
              (unsigned long long)ts.expansions, ts.finished, ts.clock_reads,
              (unsigned long long)ts.chunk_expansions, ts.rate);
    if (us > (double)budget) {
      overshoot_frames++;
      overshoot_sum += us - (double)budget;
      if (us - (double)budget > overshoot_max) overshoot_max = us - (double)budget;
    }
    if (loglen + 128 < logcap)
      loglen += (size_t)snprintf(log + loglen, logcap - loglen, " | exp %llu start %u fin %u "
                                 "found %u restart %u queued %u",
                                 (unsigned long long)ts.expansions, ts.started, ts.finished,
                                 ts.found, ts.restarted, ts.queued);
    collect(&d, f, log, &loglen, logcap);
    log_hash = fnv1a(log_hash, log, loglen);
    log_hash = fnv1a(log_hash, "\n", 1);
    if (logf) fprintf(logf, "%.*s\n", (int)loglen, log);
    if (!json && (f + 1) % 60 == 0) {
      double recent[60];
      size_t k;
      for (k = 0; k < 60; k++) recent[k] = frame_us[f - 59 + k];
      printf("t=%5.1fs frame %-6llu completed %-7lu pending %-6zu frame_us p50 %7.1f max %7.1f  "
             "exp/frame %.0f\n",
             (double)(f + 1) / 60.0, (unsigned long long)(f + 1), d.completed,
             lds_scheduler_pending(d.sc), cli_quantile(recent, 60, 0.5),
             cli_quantile(recent, 60, 1.0), frame_exp[f]);
    }
    if (d.rt && (f + 1) % 60 == 0) {
      /* mean path cost per step of the paths delivered in the last 60
      ** frames, all agents and per profile (what a reload changes) */
      int k;
      if (!json) {
        printf("window frame %llu paths %lu cost_per_step %.4f", (unsigned long long)(f + 1),
               d.win_n[d.nprof], d.win_steps[d.nprof] > 0 ? d.win_cost[d.nprof] / d.win_steps[d.nprof] : 0.0);
        for (k = 0; k < d.nprof; k++)
          printf(" %s=%.4f/%lu", d.prof[k], d.win_steps[k] > 0 ? d.win_cost[k] / d.win_steps[k] : 0.0,
                 d.win_n[k]);
        printf("\n");
        fflush(stdout);
      }
      for (k = 0; k <= d.nprof; k++) d.win_cost[k] = d.win_steps[k] = 0.0, d.win_n[k] = 0;
    }
    if (exit_after > 0 && d.reloads > 0 && f + 1 >= d.reload_frame + (uint64_t)exit_after) {
      frames = (long)(f + 1); /* the statistics cover the frames run */
      break;
    }
    if (realtime && f + 1 < (uint64_t)frames) {
      /* frame f+1 starts (f+1 - pace_frame)/60 s after pace_ns; when a frame
      ** ran late the pace restarts from now, rather than running the next
      ** frames back to back to catch up */
      uint64_t now = cli_now_ns(), due = pace_ns + (f + 1 - pace_frame) * 1000000000u / 60u;
      if (!json) fflush(stdout); /* a person (or a pipe) watches the lines as they come */
      if (due > now) {
        sleep_until_ns(due);
      } else {
        pace_ns = now;
        pace_frame = f + 1;
      }
    }
  }
  /* the oldest request still waiting */
  for (i = 0; i < (int)agents; i++) {
    lds_RequestInfo info;
    if (d.agents[i].req && lds_scheduler_info(d.sc, d.agents[i].req, &info) == LDS_OK &&
        info.status == LDS_RUNNING && info.frames > oldest)
      oldest = info.frames;
  }
  {
    double lat50 = cli_quantile(d.latency, d.nlat, 0.5), lat99 = cli_quantile(d.latency, d.nlat, 0.99),
           lat_max = cli_quantile(d.latency, d.nlat, 1.0);
    double exp50 = cli_quantile(frame_exp, (size_t)frames, 0.5),
           exp_max = cli_quantile(frame_exp, (size_t)frames, 1.0);
    double fu50 = cli_quantile(frame_us, (size_t)frames, 0.5),
           fu99 = cli_quantile(frame_us, (size_t)frames, 0.99),
           fu_max = cli_quantile(frame_us, (size_t)frames, 1.0);
    double cpu99 = cli_quantile(frame_cpu, (size_t)frames, 0.99),
           cpu_max = cli_quantile(frame_cpu, (size_t)frames, 1.0);
    /* closed loop, one request per agent at most, FIFO within a priority:
    ** a request waits for fewer than `agents` others, served at the measured
    ** throughput (requests finished per frame) */
    double lat_bound = (d.completed + d.no_path + d.stale + d.errors)
                           ? ceil((double)agents * (double)frames /
                                  (double)(d.completed + d.no_path + d.stale + d.errors))
                           : 0.0;
    double wall_s = (double)(cli_now_ns() - t_start) / 1e9;
    lds_TickStats tot;
    lds_scheduler_totals(d.sc, &tot);
    if (!json) {
      printf("summary (%.2f s wall for %ld frames)\n", wall_s, frames);
      printf("  requests      submitted %lu, completed %lu, no_path %lu, stale %lu, errors %lu, "
             "replans %lu, restarts %lu%s\n",
             d.submitted, d.completed, d.no_path, d.stale, d.errors, d.replans,
             (unsigned long)tot.restarted, quick ? "" : "");
      if (quick) printf("  quick paths   %lu walked\n", d.quick_used);
      printf("  latency       frames median %.0f, p99 %.0f, max %.0f; oldest pending %lu; "
             "bound agents/throughput %.0f\n",
             lat50, lat99, lat_max, (unsigned long)oldest, lat_bound);
      printf("  time/frame    us median %.1f, p99 %.1f, max %.1f (budget %ld%s)\n", fu50, fu99,
             fu_max, budget, det ? ", counted in expansions" : "");
      printf("  cpu/frame     us p99 %.1f, max %.1f (thread CPU time; %lu frames lost > 100 us "
             "to other processes)\n", cpu99, cpu_max, preempted);
      printf("  overshoot     %lu frames over budget, max %.1f us, mean %.1f us\n", overshoot_frames,
             overshoot_max, overshoot_frames ? overshoot_sum / (double)overshoot_frames : 0.0);
      printf("  expansions    per frame median %.0f, max %.0f; total %llu; clock reads %lu\n",
             exp50, exp_max, (unsigned long long)tot.expansions, (unsigned long)tot.clock_reads);
      printf("  doors         %lu toggles\n", d.door_toggles);
      printf("  paths         %lu non-optimal (%lu illegal)%s\n", d.nonoptimal, d.illegal,
             check ? "" : " (check skipped)");
      printf("  log_hash      %016llx\n", (unsigned long long)log_hash);
      if (d.rt)
        printf("  mods          %lu events, %lu reloads, %lu requests restarted; %lu paths "
               "unchecked (weighted A*/greedy profiles); %lu polls, mean %.0f us, max %llu us "
               "(outside the budget)\n"
               "  accounting    submitted %lu = finished %lu + cancelled %lu + in flight %zu\n",
               d.mod_events, d.reloads, d.mod_restarts, d.unchecked, d.polls,
               d.polls ? (double)d.poll_us_total / (double)d.polls : 0.0,
               (unsigned long long)d.poll_us_max, d.submitted,
               d.completed + d.no_path + d.stale + d.errors, d.cancelled,
               lds_scheduler_pending(d.sc));
    } else {
      printf("{\"map\":");
      cli_json_string(stdout, map_path);
      printf(",\"frames\":%ld,\"agents\":%ld,\"budget_us\":%ld,\"deterministic\":%s,"
             "\"algo\":\"%s\",\"requests_submitted\":%lu,\"requests_completed\":%lu,"
             "\"no_path\":%lu,\"stale\":%lu,\"errors\":%lu,\"replans\":%lu,\"restarts\":%lu,"
             "\"latency_frames_median\":%.0f,\"latency_frames_p99\":%.0f,"
             "\"latency_frames_max\":%.0f,\"oldest_pending_frames\":%lu,\"latency_bound_frames\":%.0f,"
             "\"frame_us_median\":%.1f,\"frame_us_p99\":%.1f,\"frame_us_max\":%.1f,"
             "\"overshoot_frames\":%lu,\"overshoot_us_max\":%.1f,"
             "\"frame_cpu_us_p99\":%.1f,\"frame_cpu_us_max\":%.1f,\"preempted_frames\":%lu,"
             "\"expansions_per_frame_median\":%.0f,\"expansions_total\":%llu,"
             "\"door_toggles\":%lu,\"nonoptimal_paths\":%lu,\"checked\":%s,"
             "\"log_hash\":\"%016llx\"",
             frames, agents, budget, det ? "true" : "false", lds_algo_name(algo), d.submitted,
             d.completed, d.no_path, d.stale, d.errors, d.replans, (unsigned long)tot.restarted,
             lat50, lat99, lat_max, (unsigned long)oldest, lat_bound, fu50, fu99, fu_max, overshoot_frames,
             overshoot_max, cpu99, cpu_max, preempted, exp50, (unsigned long long)tot.expansions, d.door_toggles,
             d.nonoptimal, check ? "true" : "false", (unsigned long long)log_hash);
      if (d.rt)
        printf(",\"mods\":true,\"mod_events\":%lu,\"reloads\":%lu,\"mod_restarts\":%lu,"
               "\"unchecked_paths\":%lu,\"requests_cancelled\":%lu,\"requests_in_flight\":%zu",
               d.mod_events, d.reloads, d.mod_restarts, d.unchecked, d.cancelled,
               lds_scheduler_pending(d.sc));
      printf("}\n");
    }
    /* failed requests fail the run, and so do non-optimal paths from an
    ** algorithm that promises optimal ones (wastar and greedy do not) */
    if ((check && d.illegal) || d.errors ||
        (check && d.nonoptimal && algo != LDS_ALGO_WASTAR && algo != LDS_ALGO_GREEDY))
      rc = 1;
  }
done:
  if (logf) fclose(logf);
  if (d.agents)
    for (i = 0; i < (int)agents; i++) lds_path_free(d.agents[i].path);
  if (d.rt)
    lds_runtime_free(d.rt); /* owns d.sc */
  else
    lds_scheduler_free(d.sc);
  lds_search_free(d.check);
  lds_grid_free(d.g);
  free(d.comp);
  free(d.occupied);
  free(d.agents);
  free(d.doors);
  free(d.done);
  free(d.partial);
  free(d.latency);
  free(frame_us);
  free(frame_exp);
  free(frame_cpu);
  free(log);
  return rc;
}
