/* SPDX-License-Identifier: MIT */
/*
** demo_agents.c — the demo's agents: requests to the scheduler (or the
** runtime with --mods), the paths it delivers (checked against a one-shot
** A*, quick partial paths spliced onto full ones), walking and replanning.
*/
#include "demo.h"

#include <math.h>
#include <stdlib.h>

/* the profile of agent i (--mods): round-robin by agent id */
static const char *agent_profile(const Demo *d, long i) {
  return d->nprof ? d->prof[i % d->nprof] : NULL;
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
      lds_search_step(d->check, NULL) != LDS_FOUND) {
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
void demo_collect(Demo *d, uint64_t frame, char *log, size_t *loglen, size_t logcap) {
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

/* Agents think and walk (before the tick). */
bool demo_update_agents(Demo *d, uint64_t frame) {
  long i;
  for (i = 0; i < d->nagents; i++) {
    Agent *a = &d->agents[i];
    if (a->state == AG_IDLE) {
      if (frame < a->wake) continue;
      if (!demo_pick_goal(d, a)) {
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
      if (!lds_grid_can_move(d->g, a->x, a->y, lds_direction_of(nx - a->x, ny - a->y))) {
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
