/* SPDX-License-Identifier: MIT */
/*
** lds_scheduler_nav.c — mesh requests in the scheduler
** (lds_scheduler_submit_nav, docs/scheduler.md "Mesh requests"): a mesh
** added with lds_scheduler_add_navmesh gets a pool of lds_NavSearch
** objects (lds_navmesh_search.h) and a queue; its requests share the
** request slots, handles, keys (priority and aging), callbacks and the
** tick's budget with grid requests, and are sliced by the same chunks of
** expansions through lds_navsearch_step (lds_scheduler_step.c picks them
** and sizes the chunks; this file starts, steps and finishes them).
**
** A mesh is immutable: a mesh request never restarts, pauses or goes
** stale, so none of the edit machinery applies to it. Its path is copied
** out of the search when it finishes (points, length, cost, corridor,
** partial flag: the values lds_navsearch_* give, bit for bit), so the
** search goes back to the pool at once and the path lives until release.
*/
#include "lds_scheduler_internal.h"
#include "lds_navmesh_search_internal.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Searches get a clock that costs nothing: the scheduler reads the real one
** itself (as for the grid searches, lds_scheduler.c). */
static uint64_t zero_clock(void *ud) {
  (void)ud;
  return 0;
}

void lds_nav_request_init(lds_NavRequest *rq, const lds_Navmesh *mesh, const double start[3],
                          const double goal[3]) {
  memset(rq, 0, sizeof *rq);
  rq->mesh = mesh;
  if (start) memcpy(rq->start, start, sizeof rq->start);
  if (goal) memcpy(rq->goal, goal, sizeof rq->goal);
  lds_nav_params_init(&rq->params);
}

static int find_mesh(const lds_Scheduler *sc, const lds_Navmesh *m) {
  int i;
  for (i = 0; i < sc->nmeshes; i++)
    if (sc->meshes[i].mesh == m) return i;
  return -1;
}

static void mesh_entry_free(lds_Scheduler *sc, MeshEntry *me) {
  int i;
  if (me->search)
    for (i = 0; i < me->nsearch; i++) lds_navsearch_free(me->search[i]);
  ldsi_free(&sc->env, me->search, (size_t)me->nsearch * sizeof(lds_NavSearch *));
  ldsi_free(&sc->env, me->owner, (size_t)me->nsearch * sizeof(uint32_t));
  ldsi_free(&sc->env, me->heap.items, me->heap.cap * sizeof(uint32_t));
  memset(me, 0, sizeof *me);
}

/* One query of each algorithm from the centre of polygon 0 to itself: the
** tables a search builds on its first query of a kind (the merged
** partition of the funnel mode, Polyanya's) are built now, outside every
** tick. A failure is harmless: the first real query builds them. */
static void warm(lds_NavSearch *s, const lds_Navmesh *m) {
  const uint32_t *vi, *nb;
  uint32_t n, k;
  double c[3] = {0, 0, 0}, v[3];
  lds_NavParams p;
  int a;
  if (lds_navmesh_poly_count(m) == 0) return;
  n = lds_navmesh_poly(m, 0, &vi, &nb);
  if (n == 0) return;
  for (k = 0; k < n; k++) {
    lds_navmesh_vertex(m, vi[k], v);
    c[0] += v[0];
    c[2] += v[2];
  }
  c[0] /= n;
  c[2] /= n;
  c[1] = lds_navmesh_poly_height(m, 0, c[0], c[2]);
  for (a = 0; a < 2; a++) {
    lds_nav_params_init(&p);
    p.algo = a ? LDS_NAV_OPTIMAL : LDS_NAV_FUNNEL;
    if (lds_navsearch_start(s, &p, c, c) == LDS_RUNNING) (void)lds_navsearch_step(s, NULL);
  }
}

lds_Status lds_scheduler_add_navmesh(lds_Scheduler *sc, const lds_Navmesh *mesh, int n_searches) {
  static const char *fn = "lds_scheduler_add_navmesh";
  MeshEntry me;
  lds_Env senv;
  lds_Error err;
  int i;
  if (!sc) return LDS_E_ARG;
  if (sc->ticking) return ldsi_sched_fail(sc, LDS_E_STATE, "%s: called from inside a callback", fn);
  if (!mesh) return ldsi_sched_fail(sc, LDS_E_ARG, "%s: mesh is NULL", fn);
  if (find_mesh(sc, mesh) >= 0)
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: mesh %p already added", fn, (const void *)mesh);
  if (n_searches < 0 || n_searches > MAX_SEARCHES)
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: n_searches %d out of range (expected 0..%d)", fn,
                           n_searches, MAX_SEARCHES);
  if (n_searches == 0) n_searches = sc->cfg.searches_per_grid;
  if (sc->nmeshes == sc->mesh_cap) {
    int ncap = sc->mesh_cap ? sc->mesh_cap * 2 : 4;
    MeshEntry *g = (MeshEntry *)ldsi_realloc(&sc->env, sc->meshes,
                                             (size_t)sc->mesh_cap * sizeof(MeshEntry),
                                             (size_t)ncap * sizeof(MeshEntry));
    if (!g) return ldsi_sched_fail(sc, LDS_E_NOMEM, "%s: out of memory", fn);
    sc->meshes = g;
    sc->mesh_cap = ncap;
  }
  memset(&me, 0, sizeof me);
  me.mesh = mesh;
  me.search = (lds_NavSearch **)ldsi_calloc(&sc->env, (size_t)n_searches, sizeof(lds_NavSearch *));
  me.owner = (uint32_t *)ldsi_alloc(&sc->env, (size_t)n_searches * sizeof(uint32_t));
  me.nsearch = n_searches;
  if (!me.search || !me.owner || !ldsi_sched_heap_reserve(sc, &me.heap, 64)) {
    mesh_entry_free(sc, &me);
    return ldsi_sched_fail(sc, LDS_E_NOMEM, "%s: out of memory", fn);
  }
  senv = ldsi_env_public(&sc->env);
  senv.clock = zero_clock;
  senv.clock_ud = NULL;
  for (i = 0; i < n_searches; i++) {
    me.owner[i] = NO_INDEX;
    me.search[i] = lds_navsearch_new(&senv, mesh, &err);
    /* one set of landmark tables for all of them (the first one's) */
    if (!me.search[i]) {
      mesh_entry_free(sc, &me);
      return ldsi_sched_fail(sc, err.code, "%s: %s", fn, err.msg);
    }
    if (i > 0 && !ldsi_navsearch_share_landmarks(me.search[i], me.search[0])) {
      mesh_entry_free(sc, &me);
      return ldsi_sched_fail(sc, LDS_E_NOMEM, "%s: out of memory", fn);
    }
    warm(me.search[i], mesh);
  }
  me.nfree = n_searches;
  sc->meshes[sc->nmeshes++] = me;
  sc->errmsg[0] = '\0';
  return LDS_OK;
}

lds_Status lds_scheduler_remove_navmesh(lds_Scheduler *sc, const lds_Navmesh *mesh) {
  int mi;
  uint32_t r;
  if (!sc) return LDS_E_ARG;
  if (sc->ticking)
    return ldsi_sched_fail(sc, LDS_E_STATE, "lds_scheduler_remove_navmesh: called from inside a "
                           "callback");
  mi = mesh ? find_mesh(sc, mesh) : -1;
  if (mi < 0)
    return ldsi_sched_fail(sc, LDS_E_ARG, "lds_scheduler_remove_navmesh: mesh %p was not added",
                           (const void *)mesh);
  /* the mesh is unknown from here on (callbacks cannot submit to it), and
  ** callbacks cannot tick or remove meshes (ticking) */
  sc->meshes[mi].mesh = NULL;
  sc->ticking = true;
  for (r = 0; r < sc->nreq; r++) {
    Req *q = &sc->req[r];
    if (!q->nav || q->mesh != mi || (q->state != SLOT_QUEUED && q->state != SLOT_ACTIVE)) continue;
    snprintf(q->errmsg, sizeof q->errmsg, "lds_scheduler_remove_navmesh: the request's mesh was "
             "removed");
    ldsi_sched_finish_path(sc, r, LDS_E_STATE, NULL);
  }
  sc->ticking = false;
  /* requests of later meshes move down one index; finished ones have none */
  for (r = 0; r < sc->nreq; r++) {
    Req *q = &sc->req[r];
    if (q->state == SLOT_FREE || !q->nav) continue;
    if (q->mesh == mi) q->mesh = -1;
    else if (q->mesh > mi) q->mesh--;
  }
  mesh_entry_free(sc, &sc->meshes[mi]);
  memmove(&sc->meshes[mi], &sc->meshes[mi + 1],
          (size_t)(sc->nmeshes - mi - 1) * sizeof(MeshEntry));
  sc->nmeshes--;
  return LDS_OK;
}

lds_Status lds_scheduler_submit_nav(lds_Scheduler *sc, const lds_NavRequest *rq,
                                    lds_RequestId *id) {
  static const char *fn = "lds_scheduler_submit_nav";
  static const char *const xyz[3] = {"0", "1", "2"};
  const lds_NavParams *p;
  ldsi_SchedNav *nav;
  MeshEntry *me;
  size_t bytes, i;
  int mi, k;
  uint32_t r;
  Req *q;
  if (id) *id = 0;
  if (!sc) return LDS_E_ARG;
  if (!rq) return ldsi_sched_fail(sc, LDS_E_ARG, "%s: request is NULL", fn);
  p = &rq->params;
  mi = rq->mesh ? find_mesh(sc, rq->mesh) : -1;
  if (mi < 0)
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: mesh %p was not added (call "
                           "lds_scheduler_add_navmesh)", fn, (const void *)rq->mesh);
  for (k = 0; k < 6; k++) {
    double v = k < 3 ? rq->start[k] : rq->goal[k - 3];
    if (!isfinite(v))
      return ldsi_sched_fail(sc, LDS_E_ARG, "%s: %s[%s] is %g (expected a finite coordinate "
                             "[world units])", fn, k < 3 ? "start" : "goal", xyz[k % 3],
                             ldsi_num(v));
  }
  if (rq->priority < -MAX_PRIORITY || rq->priority > MAX_PRIORITY)
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: priority %ld out of range (expected %d..%d)", fn,
                           (long)rq->priority, -MAX_PRIORITY, MAX_PRIORITY);
  if (rq->flags & ~(uint32_t)LDS_REQ_AUTO_RELEASE)
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: flags 0x%lx (expected 0 or LDS_REQ_AUTO_RELEASE: a "
                           "mesh path is not watched, the mesh never changes)", fn,
                           (unsigned long)rq->flags);
  if (!lds_nav_algo_name(p->algo))
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: params.algo %d out of range (expected "
                           "LDS_NAV_FUNNEL or LDS_NAV_OPTIMAL)", fn, (int)p->algo);
  if (p->n_area_costs > 256 || (p->n_area_costs && !p->area_costs))
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: params.n_area_costs %zu (expected 0..256 with a "
                           "non-NULL area_costs)", fn, p->n_area_costs);
  for (i = 0; i < p->n_area_costs; i++) {
    double c = p->area_costs[i];
    if (!(c > 0))
      return ldsi_sched_fail(sc, LDS_E_ARG, "%s: params.area_costs[%zu] is %g (expected > 0, "
                             "+INFINITY blocks the area)", fn, i, ldsi_num(c));
  }
  if (!(p->snap_radius >= 0) || isinf(p->snap_radius))
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: params.snap_radius is %g (expected finite, >= 0 "
                           "[world units])", fn, ldsi_num(p->snap_radius));
  if (isnan(p->height_tol))
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: params.height_tol is nan (expected a number "
                           "[world units]; < 0: any height)", fn);
  me = &sc->meshes[mi];
  if (!ldsi_sched_heap_reserve(sc, &me->heap, me->heap.n + 1))
    return ldsi_sched_fail(sc, LDS_E_NOMEM, "%s: out of memory for the queue", fn);
  bytes = sizeof(ldsi_SchedNav) + p->n_area_costs * sizeof(double);
  nav = (ldsi_SchedNav *)ldsi_calloc(&sc->env, 1, bytes);
  if (!nav) return ldsi_sched_fail(sc, LDS_E_NOMEM, "%s: out of memory", fn);
  r = ldsi_sched_slot_new(sc, rq->priority);
  if (r == NO_INDEX) {
    ldsi_free(&sc->env, nav, bytes);
    return LDS_E_NOMEM;
  }
  nav->bytes = bytes;
  nav->rq = *rq;
  if (p->n_area_costs) memcpy(nav->costs, p->area_costs, p->n_area_costs * sizeof(double));
  nav->rq.params.area_costs = p->n_area_costs ? nav->costs : NULL;
  q = &sc->req[r];
  q->nav = nav;
  q->mesh = mi;
  /* what the shared request code reads (deliver, info, keys) */
  q->rq.agent_id = rq->agent_id;
  q->rq.priority = rq->priority;
  q->rq.flags = rq->flags;
  q->rq.on_done = rq->on_done;
  q->rq.ud = rq->ud;
  q->rq.params.partial = p->partial;
  ldsi_sched_heap_push(sc, &me->heap, HEAP_MAIN, r);
  sc->pending++;
  if (id) *id = ldsi_sched_id(sc, r);
  return LDS_OK;
}

lds_Status ldsi_sched_nav_begin(lds_Scheduler *sc, uint32_t r) {
  Req *q = &sc->req[r];
  MeshEntry *me = &sc->meshes[q->mesh];
  lds_NavSearch *s;
  lds_Status st;
  int k;
  for (k = 0; me->owner[k] != NO_INDEX; k++) {}
  ldsi_sched_heap_remove(sc, &me->heap, HEAP_MAIN, r);
  me->owner[k] = r;
  me->nfree--;
  q->state = SLOT_ACTIVE;
  q->search = k;
  sc->cur->started++;
  q->flags |= LDS_REQINFO_STARTED;
  s = me->search[k];
  st = lds_navsearch_start(s, &q->nav->rq.params, q->nav->rq.start, q->nav->rq.goal);
  if (st == LDS_RUNNING) {
    lds_Stats s0;
    lds_navsearch_stats(s, &s0);
    sc->pushes += s0.pushes;
    if (s0.peak_open > sc->peak_open) sc->peak_open = s0.peak_open;
    return LDS_OK;
  }
  {
    /* "lds_navsearch_start: start (...) is not on the mesh ...": the tick's name */
    const char *m = lds_navsearch_errmsg(s), *c = strstr(m, ": ");
    snprintf(q->errmsg, sizeof q->errmsg, "lds_scheduler_step: %s", c ? c + 2 : m);
  }
  return st < 0 ? st : LDS_E_STATE;
}

lds_Status ldsi_sched_nav_step(lds_Scheduler *sc, uint32_t r, uint64_t max_exp,
                               lds_Stats *before, lds_Stats *after) {
  Req *q = &sc->req[r];
  lds_NavSearch *s = sc->meshes[q->mesh].search[q->search];
  lds_Budget b;
  lds_Status st;
  b.max_expansions = max_exp;
  b.budget_us = 0;
  lds_navsearch_stats(s, before);
  st = lds_navsearch_step(s, &b);
  lds_navsearch_stats(s, after);
  return st;
}

double ldsi_sched_nav_rate(const lds_Scheduler *sc, uint32_t r) {
  const Req *q = &sc->req[r];
  const MeshEntry *me = &sc->meshes[q->mesh];
  if (q->elapsed_us >= 10 && q->rate_exp > 0) return (double)q->rate_exp / (double)q->elapsed_us;
  if (me->rate_us >= 10 && me->rate_exp > 0) return (double)me->rate_exp / (double)me->rate_us;
  return 0.0;
}

void ldsi_sched_nav_count(lds_Scheduler *sc, uint32_t r, uint64_t n, uint64_t dt) {
  MeshEntry *me = &sc->meshes[sc->req[r].mesh];
  me->rate_exp += n;
  me->rate_us += dt;
}

/* Copies search s's path into nav; LDS_OK, LDS_E_ARG (its cost overflows to inf), or
** LDS_E_NOMEM (message in q). */
static lds_Status copy_path(lds_Scheduler *sc, Req *q, lds_NavSearch *s) {
  ldsi_SchedNav *nav = q->nav;
  size_t n = 0, nc = 0;
  const double *pts = lds_navsearch_points(s, &n);
  const uint32_t *corr;
  if (!pts || n == 0) return LDS_OK;
  if (!isfinite(lds_navsearch_cost(s))) { /* finite area costs x length past the doubles */
    snprintf(q->errmsg, sizeof q->errmsg, "lds_scheduler_step: params.area_costs: the path's "
             "cost overflows (%g world units long; expected area costs whose product with the "
             "length stays finite)", ldsi_num(lds_navsearch_length(s)));
    return LDS_E_ARG;
  }
  corr = lds_navsearch_corridor(s, &nc);
  if (!corr && lds_navsearch_status(s) == LDS_E_NOMEM) {
    snprintf(q->errmsg, sizeof q->errmsg, "lds_scheduler_step: %s", lds_navsearch_errmsg(s));
    return LDS_E_NOMEM;
  }
  nav->pts = (double *)ldsi_alloc(&sc->env, 3 * n * sizeof(double));
  nav->corr = nc ? (uint32_t *)ldsi_alloc(&sc->env, nc * sizeof(uint32_t)) : NULL;
  if (!nav->pts || (nc && !nav->corr)) {
    ldsi_free(&sc->env, nav->pts, 3 * n * sizeof(double));
    ldsi_free(&sc->env, nav->corr, nc * sizeof(uint32_t));
    nav->pts = NULL;
    nav->corr = NULL;
    snprintf(q->errmsg, sizeof q->errmsg, "lds_scheduler_step: out of memory for a path of %zu "
             "points", n);
    return LDS_E_NOMEM;
  }
  memcpy(nav->pts, pts, 3 * n * sizeof(double));
  if (nc) memcpy(nav->corr, corr, nc * sizeof(uint32_t));
  nav->npts = n;
  nav->ncorr = nc;
  nav->length = lds_navsearch_length(s);
  nav->cost = lds_navsearch_cost(s);
  nav->partial = lds_navsearch_is_partial(s);
  return LDS_OK;
}

void ldsi_sched_nav_finish(lds_Scheduler *sc, uint32_t r, lds_Status st) {
  Req *q = &sc->req[r];
  lds_NavSearch *s = q->search >= 0 ? sc->meshes[q->mesh].search[q->search] : NULL;
  if (s) {
    lds_navsearch_stats(s, &q->stats);
    if (st == LDS_FOUND || (st == LDS_NO_PATH && q->nav->rq.params.partial)) {
      lds_Status cs = copy_path(sc, q, s);
      if (cs != LDS_OK) st = cs;
    } else if (st < 0 && !q->errmsg[0]) {
      snprintf(q->errmsg, sizeof q->errmsg, "lds_scheduler_step: %s", lds_navsearch_errmsg(s));
    }
  }
  ldsi_sched_finish_path(sc, r, st, NULL); /* detaches (nav_detach), delivers */
}

void ldsi_sched_nav_detach(lds_Scheduler *sc, uint32_t r) {
  Req *q = &sc->req[r];
  MeshEntry *me;
  if (q->mesh < 0 || (q->state != SLOT_QUEUED && q->state != SLOT_ACTIVE)) return;
  me = &sc->meshes[q->mesh];
  if (q->state == SLOT_QUEUED) {
    ldsi_sched_heap_remove(sc, &me->heap, HEAP_MAIN, r);
  } else {
    me->owner[q->search] = NO_INDEX;
    me->nfree++;
    q->search = -1;
  }
  sc->pending--;
  q->mesh = -1; /* a finished request needs no mesh (its path is a copy) */
}

void ldsi_sched_nav_free_req(lds_Scheduler *sc, uint32_t r) {
  ldsi_SchedNav *nav = sc->req[r].nav;
  if (!nav) return;
  ldsi_free(&sc->env, nav->pts, 3 * nav->npts * sizeof(double));
  ldsi_free(&sc->env, nav->corr, nav->ncorr * sizeof(uint32_t));
  ldsi_free(&sc->env, nav, nav->bytes);
  sc->req[r].nav = NULL;
}

void ldsi_sched_nav_free_all(lds_Scheduler *sc) {
  int i;
  for (i = 0; i < sc->nmeshes; i++) mesh_entry_free(sc, &sc->meshes[i]);
  ldsi_free(&sc->env, sc->meshes, (size_t)sc->mesh_cap * sizeof(MeshEntry));
  sc->meshes = NULL;
  sc->nmeshes = sc->mesh_cap = 0;
}

size_t ldsi_sched_nav_mem(const lds_Scheduler *sc) {
  size_t n = (size_t)sc->mesh_cap * sizeof(MeshEntry);
  uint32_t r;
  int i;
  for (i = 0; i < sc->nmeshes; i++) {
    const MeshEntry *me = &sc->meshes[i];
    n += (size_t)me->nsearch * (sizeof(lds_NavSearch *) + sizeof(uint32_t));
    n += me->heap.cap * sizeof(uint32_t);
  }
  for (r = 0; r < sc->nreq; r++) {
    const ldsi_SchedNav *nav = sc->req[r].nav;
    if (nav) n += nav->bytes + 3 * nav->npts * sizeof(double) + nav->ncorr * sizeof(uint32_t);
  }
  return n;
}

/* The mesh request id of sc into *q, *out cleared; LDS_E_ARG for a null
** argument, an unknown id or a grid request. */
static lds_Status nav_req(const lds_Scheduler *sc, lds_RequestId id, lds_NavPath *out,
                          const Req **q) {
  uint32_t r;
  if (!out) return LDS_E_ARG;
  memset(out, 0, sizeof *out);
  if (!sc) return LDS_E_ARG;
  r = ldsi_sched_slot(sc, id);
  if (r == NO_INDEX) return LDS_E_ARG;
  *q = &sc->req[r];
  return (*q)->nav ? LDS_OK : LDS_E_ARG;
}

lds_Status lds_scheduler_nav_path(const lds_Scheduler *sc, lds_RequestId id, lds_NavPath *out) {
  const Req *q = NULL;
  lds_Status st = nav_req(sc, id, out, &q);
  if (st != LDS_OK) return st;
  if (q->state != SLOT_DONE || !q->nav->pts) return LDS_E_STATE;
  out->points = q->nav->pts;
  out->n_points = q->nav->npts;
  out->length = q->nav->length;
  out->cost = q->nav->cost;
  out->corridor = q->nav->corr;
  out->n_corridor = q->nav->ncorr;
  out->partial = q->nav->partial;
  out->algo = q->nav->rq.params.algo;
  return LDS_OK;
}

lds_Status lds_scheduler_nav_partial_path(lds_Scheduler *sc, lds_RequestId id, lds_NavPath *out) {
  const Req *q = NULL;
  lds_NavSearch *s;
  size_t n = 0, i;
  bool part = true;
  const double *pts;
  lds_Status st = nav_req(sc, id, out, &q);
  if (st != LDS_OK) return st;
  if (q->state == SLOT_DONE) return lds_scheduler_nav_path(sc, id, out);
  if (q->state != SLOT_ACTIVE || q->mesh < 0 || q->search < 0) return LDS_E_STATE;
  s = sc->meshes[q->mesh].search[q->search];
  pts = lds_navsearch_partial_points(s, &n, &part);
  if (!pts) return LDS_E_STATE;
  out->points = pts;
  out->n_points = n;
  for (i = 1; i < n; i++) {
    const double *a = pts + 3 * (i - 1), *b = pts + 3 * i;
    out->length += sqrt((a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) +
                        (a[2] - b[2]) * (a[2] - b[2]));
  }
  out->cost = NAN;
  out->partial = part;
  out->algo = q->nav->rq.params.algo;
  return LDS_OK;
}
