/* SPDX-License-Identifier: MIT */
/*
** demo.h — the `lodestar demo` simulation's shared state: options, agents,
** doors, the per-frame measurements, and the functions of its files:
**   demo.c         options, set-up, the main flow (cli_demo)
**   demo_world.c   components, doors, goals, agents' start cells
**   demo_agents.c  requests, delivered paths (checks, quick-path splice), walking
**   demo_loop.c    the frame loop: doors, agents, the timed tick, the log hash
**   demo_report.c  the summary (text or JSON) and the run's exit status
*/
#ifndef LDS_DEMO_H
#define LDS_DEMO_H

#include "util.h"
#include "lds_runtime.h"

#include <stdio.h>

#define CMD "demo"

/* The command line, after parsing (defaults in demo.c). */
typedef struct DemoOpts {
  const char *map_path, *log_path, *mods_dir, *html_path;
  long agents, budget, frames, seed, exp_per_us, searches, ndoors, radius, idle, quick,
      poll_frames, exit_after;
  bool watch, poll_given, json, det, check, verbose, realtime;
  lds_Algo algo;
} DemoOpts;

typedef struct Rng { uint64_t s; } Rng;

static inline uint64_t rng_next(Rng *r) { /* xorshift64* (Vigna 2016) */
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 2685821657736338717ULL;
}
static inline int32_t rng_int(Rng *r, int32_t n) { return (int32_t)(rng_next(r) % (uint64_t)n); }

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

/* What the frame loop measures, for the summary. */
typedef struct DemoRun {
  double *frame_us, *frame_exp, *frame_cpu; /* [frames]: wall, expansions, CPU per frame */
  long frames;                              /* frames run */
  unsigned long preempted;                  /* frames the OS gave > 100 us to others */
  double overshoot_max, overshoot_sum;      /* [us] over budget */
  unsigned long overshoot_frames;
  uint64_t log_hash;                        /* FNV-1a of the per-frame log */
  uint64_t t_start;                         /* cli_now_ns() at the first frame */
  FILE *logf;                               /* --log, or NULL */
  char *log;                                /* one frame's log line */
  size_t logcap;
} DemoRun;

/* demo_world.c */
/* Connected components of the grid (4-connectivity) into d->comp; false on
** out of memory. */
bool demo_label_components(Demo *d);
/* Places up to want doors in d->doors; returns how many fit. */
long demo_place_doors(Demo *d, long want);
/* Puts every agent on a random passable cell off the doors, idle until a
** random frame in [0, 2 idle]. */
void demo_place_agents(Demo *d, long idle);
/* A random reachable goal for a, within d->radius; false after 32 misses. */
bool demo_pick_goal(Demo *d, Agent *a);
/* Doors follow their schedules (appends " dK:closed" to the log line). */
void demo_update_doors(Demo *d, uint64_t frame, char *log, size_t *loglen, size_t logcap);

/* demo_agents.c */
/* Agents think and walk (before the tick); false when a submit failed. */
bool demo_update_agents(Demo *d, uint64_t frame);
/* Handles the requests the tick delivered (appends to the log line). */
void demo_collect(Demo *d, uint64_t frame, char *log, size_t *loglen, size_t logcap);

/* demo_loop.c */
/* Runs o->frames frames (fewer with --exit-after-reload); 0, or 2 when an
** agent's request could not be submitted. */
int demo_run_frames(Demo *d, const DemoOpts *o, DemoRun *r);
/* demo_html.c */
/* Writes o->html_path: time and expansions per frame (r's arrays, in frame
** order: call before demo_report, which sorts them). false after printing
** the error. */
bool demo_html(const Demo *d, const DemoOpts *o, const DemoRun *r);

/* demo_report.c */
/* Prints the summary (text, or one JSON line with --json); returns the exit
** status: 1 on failed requests or illegal / non-optimal paths, else 0. */
int demo_report(const Demo *d, const DemoOpts *o, const DemoRun *r);

#endif
