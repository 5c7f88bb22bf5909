/* SPDX-License-Identifier: MIT */
/*
** lds_hpa_query.c — the sliced query of the hierarchy and its fast mode:
** joining start and goal to their clusters' entrances, A* on the abstract
** graph, and the window-by-window refinement from the start (lds_hpa.h).
** The optimal mode's search is lds_hpa_exact.c.
** [Paper: Botea, Müller & Schaeffer, J. Game Development 1(1), 2004]
*/
#include "lds_hpa_query_internal.h"

#include <string.h>

enum { PH_NONE = 0, PH_INSERT, PH_ABSTRACT, PH_REFINE, PH_EXACT, PH_DONE };

lds_HpaQuery *lds_hpa_query_new(lds_Hpa *h, lds_Error *err) {
  static const char *fn = "lds_hpa_query_new";
  lds_HpaQuery *q;
  size_t win;
  ldsi_error_clear(err);
  if (!h) {
    ldsi_error(err, LDS_E_ARG, "%s: hierarchy is NULL (expected a hierarchy)", fn);
    return NULL;
  }
  q = ldsi_calloc(&h->env, 1, sizeof *q);
  if (!q) goto nomem;
  q->env = h->env;
  q->h = h;
  q->status = LDS_E_STATE;
  q->nabs = (size_t)h->ncl * h->cap + 2;
  q->ag = ldsi_alloc(&q->env, q->nabs * sizeof(double));
  q->apar = ldsi_alloc(&q->env, q->nabs * sizeof(uint32_t));
  q->agen = ldsi_calloc(&q->env, q->nabs, sizeof(uint32_t));
  q->apos = ldsi_alloc(&q->env, q->nabs * sizeof(uint32_t));
  q->ds = ldsi_alloc(&q->env, h->cap * sizeof(double));
  q->dg = ldsi_alloc(&q->env, h->cap * sizeof(double));
  win = (size_t)9 * (size_t)h->C * (size_t)h->C; /* a 3 x 3 cluster window */
  q->trcap = win;
  q->tr = ldsi_alloc(&q->env, win * sizeof(uint32_t));
  if (!q->ag || !q->apar || !q->agen || !q->apos || !q->ds || !q->dg || !q->tr ||
      !ldsi_hpa_heap_init(&q->env, &q->aheap, q->nabs) || !ldsi_hpa_local_init(&q->env, &q->win, win))
    goto nomem;
  return q;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "%s: out of memory", fn);
  lds_hpa_query_free(q);
  return NULL;
}

void lds_hpa_query_free(lds_HpaQuery *q) {
  ldsi_Env e;
  if (!q) return;
  e = q->env;
  ldsi_hpa_exact_free(q);
  if (q->ag) ldsi_free(&e, q->ag, q->nabs * sizeof(double));
  if (q->apar) ldsi_free(&e, q->apar, q->nabs * sizeof(uint32_t));
  if (q->agen) ldsi_free(&e, q->agen, q->nabs * sizeof(uint32_t));
  if (q->apos) ldsi_free(&e, q->apos, q->nabs * sizeof(uint32_t));
  if (q->ds) ldsi_free(&e, q->ds, q->h->cap * sizeof(double));
  if (q->dg) ldsi_free(&e, q->dg, q->h->cap * sizeof(double));
  if (q->tr) ldsi_free(&e, q->tr, q->trcap * sizeof(uint32_t));
  if (q->wp) ldsi_free(&e, q->wp, q->wcap * sizeof(uint32_t));
  if (q->leg_cl) ldsi_free(&e, q->leg_cl, q->wcap * sizeof(uint32_t));
  if (q->leg_last) ldsi_free(&e, q->leg_last, q->wcap * sizeof(uint32_t));
  if (q->cells) ldsi_free(&e, q->cells, q->ccap * sizeof(uint32_t));
  ldsi_hpa_heap_free(&e, &q->aheap);
  ldsi_hpa_local_free(&e, &q->win);
  ldsi_free(&e, q, sizeof *q);
}

bool ldsi_hpa_keep(lds_HpaQuery *q, uint32_t p) {
  if (q->ncells == q->ccap) {
    size_t nc = q->ccap ? 2 * q->ccap : 256;
    uint32_t *n = ldsi_realloc(&q->env, q->cells, q->ccap * sizeof(uint32_t), nc * sizeof(uint32_t));
    if (!n) return false;
    q->cells = n;
    q->ccap = nc;
  }
  if (q->ncells) {
    int32_t x0, y0, x1, y1;
    int d;
    ldsi_grid_pxy(q->h->grid, q->cells[q->ncells - 1], &x0, &y0);
    ldsi_grid_pxy(q->h->grid, p, &x1, &y1);
    d = lds_direction_of(x1 - x0, y1 - y0);
    q->cost += ldsi_hpa_move_len(d < 0 ? 0 : d) * ldsi_hpa_cost(q->h, p);
  }
  q->cells[q->ncells++] = p;
  return true;
}

lds_Status lds_hpa_query_start(lds_HpaQuery *q, lds_HpaMode mode, int32_t sx, int32_t sy,
                               int32_t gx, int32_t gy) {
  static const char *fn = "lds_hpa_query_start";
  lds_Hpa *h;
  const lds_Grid *g;
  lds_Status st;
  if (!q) return LDS_E_ARG;
  h = q->h;
  g = h->grid;
  q->status = LDS_E_STATE;
  q->phase = PH_NONE;
  q->errmsg[0] = '\0';
  memset(&q->stats, 0, sizeof q->stats);
  q->ncells = 0;
  q->cost = 0.0;
  q->abstract_cost = -1.0;
  if (mode != LDS_HPA_FAST && mode != LDS_HPA_OPTIMAL) {
    ldsi_msg(q->errmsg, "%s: mode %d is unknown (expected fast or optimal)", fn, (int)mode);
    return LDS_E_ARG;
  }
  if (mode == LDS_HPA_OPTIMAL && !h->lower_bounds) {
    ldsi_msg(q->errmsg,
             "%s: the optimal mode needs a hierarchy built with lower_bounds (this one was not)",
             fn);
    return LDS_E_ARG;
  }
  if (!lds_grid_in_bounds(g, sx, sy) || !lds_grid_in_bounds(g, gx, gy)) {
    bool s_out = !lds_grid_in_bounds(g, sx, sy);
    ldsi_msg(q->errmsg, "%s: %s (%d,%d) is outside the %dx%d grid", fn, s_out ? "start" : "goal",
             (int)(s_out ? sx : gx), (int)(s_out ? sy : gy), (int)g->w, (int)g->h);
    return LDS_E_ARG;
  }
  if ((st = lds_hpa_repair(h)) != LDS_OK) {
    ldsi_msg(q->errmsg, "%s: the hierarchy could not be repaired: %s", fn, h->errmsg);
    return st == LDS_E_NOMEM ? st : LDS_E_ARG;
  }
  q->mode = mode;
  q->sx = sx;
  q->sy = sy;
  q->gx = gx;
  q->gy = gy;
  q->ps = ldsi_grid_pidx(g, sx, sy);
  q->pg = ldsi_grid_pidx(g, gx, gy);
  q->cs = ldsi_hpa_cluster_of(h, sx, sy);
  q->cg = ldsi_hpa_cluster_of(h, gx, gy);
  q->version = g->version;
  q->status = LDS_RUNNING;
  /* as lds_search: a start blocked by a layer only may still be left */
  if (g->blocked[q->ps] || !isfinite(ldsi_hpa_cost(h, q->pg))) {
    q->status = LDS_NO_PATH;
    q->phase = PH_DONE;
    return LDS_OK;
  }
  if (!ldsi_hpa_keep(q, (uint32_t)q->ps)) {
    ldsi_msg(q->errmsg, "%s: out of memory", fn);
    q->status = LDS_E_STATE;
    return LDS_E_NOMEM;
  }
  if (q->ps == q->pg) {
    q->status = LDS_FOUND;
    q->phase = PH_DONE;
    return LDS_OK;
  }
  if (mode == LDS_HPA_OPTIMAL) {
    if ((st = ldsi_hpa_exact_start(q)) != LDS_OK) {
      q->status = LDS_E_STATE;
      return st;
    }
    q->phase = PH_EXACT;
    return LDS_OK;
  }
  q->phase = PH_INSERT;
  return LDS_OK;
}

/* ------------------------------------------------- abstract search -- */

static inline void anode(lds_HpaQuery *q, uint32_t id) {
  if (q->agen[id] != q->agcur) {
    q->agen[id] = q->agcur;
    q->ag[id] = INFINITY;
    q->apos[id] = LDSI_HPA_NOIDX;
  }
}

static inline size_t acell(const lds_HpaQuery *q, uint32_t id) {
  uint32_t start = (uint32_t)(q->nabs - 2);
  if (id == start) return q->ps;
  if (id == start + 1) return q->pg;
  return q->h->cl[id / q->h->cap].cell[id % q->h->cap];
}

static inline void arelax(lds_HpaQuery *q, uint32_t from, uint32_t to, double c) {
  anode(q, to);
  if (c < q->ag[to]) {
    int32_t x, y;
    double hh;
    q->ag[to] = c;
    q->apar[to] = from;
    if (to >= (uint32_t)(q->nabs - 2)) {
      ldsi_grid_pxy(q->h->grid, acell(q, to), &x, &y);
    } else {
      uint32_t xy = q->h->cl[to / q->h->cap].xy[to % q->h->cap];
      x = (int32_t)(xy & 0xFFFF);
      y = (int32_t)(xy >> 16);
    }
    hh = q->h->minc * ldsi_hpa_octile(q->gx - x, q->gy - y);
    ldsi_hpa_heap_push(&q->aheap, q->apos, to, c + hh, c);
    q->stats.pushes++;
  }
}

/* Joins start and goal to their clusters and pushes the start. */
static void insert(lds_HpaQuery *q) {
  lds_Hpa *h = q->h;
  ldsi_HpaLocal *L = &q->win;
  const ldsi_HpaCluster *ks = &h->cl[q->cs], *kg = &h->cl[q->cg];
  uint32_t i, start = (uint32_t)(q->nabs - 2);
  uint32_t ps = (uint32_t)q->ps, pg = (uint32_t)q->pg;
  uint64_t e0 = L->expansions;
  ldsi_hpa_local_dijkstra(h, L, ks->x0, ks->y0, ks->x1, ks->y1, &ps, 1, false);
  for (i = 0; i < ks->n; i++) q->ds[i] = ldsi_hpa_local_g(h, L, ks->cell[i]);
  q->dsg = q->cs == q->cg ? ldsi_hpa_local_g(h, L, q->pg) : INFINITY;
  ldsi_hpa_local_dijkstra(h, L, kg->x0, kg->y0, kg->x1, kg->y1, &pg, 1, true);
  for (i = 0; i < kg->n; i++) q->dg[i] = ldsi_hpa_local_g(h, L, kg->cell[i]);
  q->stats.expansions += L->expansions - e0;
  if (++q->agcur == 0) {
    memset(q->agen, 0, q->nabs * sizeof(uint32_t));
    q->agcur = 1;
  }
  q->aheap.n = 0;
  anode(q, start);
  q->ag[start] = 0.0;
  ldsi_hpa_heap_push(&q->aheap, q->apos, start, 0.0, 0.0);
  q->stats.pushes++;
}

static lds_Status path_grow(lds_HpaQuery *q, size_t n) {
  if (n > q->wcap) {
    size_t nc = n * 2;
    uint32_t *a = ldsi_realloc(&q->env, q->wp, q->wcap * sizeof(uint32_t), nc * sizeof(uint32_t));
    uint32_t *b, *c;
    if (!a) return LDS_E_NOMEM;
    q->wp = a;
    b = ldsi_realloc(&q->env, q->leg_cl, q->wcap * sizeof(uint32_t), nc * sizeof(uint32_t));
    if (!b) return LDS_E_NOMEM;
    q->leg_cl = b;
    c = ldsi_realloc(&q->env, q->leg_last, q->wcap * sizeof(uint32_t), nc * sizeof(uint32_t));
    if (!c) return LDS_E_NOMEM;
    q->leg_last = c;
    q->wcap = nc;
  }
  return LDS_OK;
}

/* The abstract path START..GOAL into waypoints and legs. */
static lds_Status abstract_path(lds_HpaQuery *q) {
  uint32_t start = (uint32_t)(q->nabs - 2), goal = start + 1, id;
  size_t n = 1, i;
  for (id = goal; id != start; id = q->apar[id]) n++;
  if (path_grow(q, n) != LDS_OK) return LDS_E_NOMEM;
  q->nwp = n;
  for (id = goal, i = n; i-- > 0; id = q->apar[id]) {
    q->wp[i] = (uint32_t)acell(q, id);
    if (id == start) break;
  }
  q->nlegs = 0;
  for (i = 0; i < n; i++) {
    int32_t x, y;
    uint32_t c;
    ldsi_grid_pxy(q->h->grid, q->wp[i], &x, &y);
    c = ldsi_hpa_cluster_of(q->h, x, y);
    if (q->nlegs == 0 || q->leg_cl[q->nlegs - 1] != c) q->leg_cl[q->nlegs++] = c;
    q->leg_last[q->nlegs - 1] = (uint32_t)i;
  }
  q->abstract_cost = q->ag[goal];
  q->leg = 0;
  q->cur = q->ps;
  return LDS_OK;
}

/* One abstract expansion; returns LDS_RUNNING, LDS_FOUND (goal popped) or
** LDS_NO_PATH. */
static lds_Status abstract_expand(lds_HpaQuery *q) {
  lds_Hpa *h = q->h;
  uint32_t start = (uint32_t)(q->nabs - 2), goal = start + 1, u, i, j;
  double gu;
  if (q->aheap.n == 0) return LDS_NO_PATH;
  u = ldsi_hpa_heap_pop(&q->aheap, q->apos);
  q->stats.expansions++;
  if (u == goal) return LDS_FOUND;
  gu = q->ag[u];
  if (u == start) {
    const ldsi_HpaCluster *k = &h->cl[q->cs];
    for (i = 0; i < k->n; i++)
      if (isfinite(q->ds[i])) arelax(q, u, q->cs * h->cap + i, q->ds[i]);
    if (isfinite(q->dsg)) arelax(q, u, goal, q->dsg);
  } else {
    uint32_t c = u / h->cap;
    const ldsi_HpaCluster *k = &h->cl[c];
    size_t p = k->cell[u % h->cap];
    const float *row;
    const ptrdiff_t *off = h->off;
    int d;
    i = u % h->cap;
    row = k->dist + (size_t)i * k->n;
    for (j = 0; j < k->n; j++)
      if (j != i && row[j] < INFINITY) arelax(q, u, c * h->cap + j, gu + (double)row[j]);
    for (d = 0; d < 8; d++) {
      size_t pq;
      int32_t x, y;
      uint32_t cq;
      uint8_t ni;
      if (!ldsi_hpa_can(h, p, d, off)) continue;
      pq = (size_t)((ptrdiff_t)p + off[d]);
      ldsi_grid_pxy(h->grid, pq, &x, &y);
      ni = h->nidx[(size_t)y * (size_t)h->grid->w + (size_t)x];
      if (!ni) continue;
      cq = ldsi_hpa_cluster_of(h, x, y);
      if (cq == c) continue;
      arelax(q, u, cq * h->cap + (uint32_t)(ni - 1), gu + ldsi_hpa_move_len(d) * ldsi_hpa_cost(h, pq));
    }
    if (c == q->cg && isfinite(q->dg[i])) arelax(q, u, goal, gu + q->dg[i]);
  }
  if (q->aheap.n > q->stats.peak_open) q->stats.peak_open = q->aheap.n;
  return LDS_RUNNING;
}

/* ------------------------------------------------------ refinement -- */

static void box_grow(const lds_Hpa *h, uint32_t c, int32_t *x0, int32_t *y0, int32_t *x1,
                     int32_t *y1) {
  const ldsi_HpaCluster *k = &h->cl[c];
  if (k->x0 < *x0) *x0 = k->x0;
  if (k->y0 < *y0) *y0 = k->y0;
  if (k->x1 > *x1) *x1 = k->x1;
  if (k->y1 > *y1) *y1 = k->y1;
}

/* Refines one window: an A* inside the bounding box of the current leg's
** cluster and the next two legs' (a chain of neighbours: at most 3 x 3
** clusters) from the current cell to the exit waypoint of the last of them;
** the path is kept up to the start of its final run inside the two later
** clusters, which is where the next window starts. The previous plan from
** there lies inside that run's clusters, and its continuation through the
** next leg inside the next window: each window can only improve on it, so
** the refined path never costs more than the abstract path.
** LDS_RUNNING while windows remain, LDS_FOUND at the goal. */
static lds_Status refine_window(lds_HpaQuery *q) {
  static const char *fn = "lds_hpa_query_step";
  lds_Hpa *h = q->h;
  ldsi_HpaLocal *L = &q->win;
  uint32_t ca = q->leg_cl[q->leg], cb = ca, cc = ca;
  size_t target, n, keep_from, k;
  bool last;
  int32_t x0, y0, x1, y1;
  uint64_t e0 = L->expansions;
  double c;
  if (q->leg + 1 >= q->nlegs) {
    target = q->pg;
    last = true;
  } else if (q->leg + 2 >= q->nlegs) {
    cb = cc = q->leg_cl[q->leg + 1];
    target = q->pg;
    last = true;
  } else {
    cb = q->leg_cl[q->leg + 1];
    cc = q->leg_cl[q->leg + 2];
    target = q->wp[q->leg_last[q->leg + 2]];
    last = q->leg + 3 >= q->nlegs; /* the window's target is the goal */
  }
  x0 = y0 = INT32_MAX;
  x1 = y1 = INT32_MIN;
  box_grow(h, ca, &x0, &y0, &x1, &y1);
  box_grow(h, cb, &x0, &y0, &x1, &y1);
  box_grow(h, cc, &x0, &y0, &x1, &y1);
  c = ldsi_hpa_local_astar(h, L, x0, y0, x1, y1, q->cur, target);
  q->stats.expansions += L->expansions - e0;
  n = isfinite(c) ? ldsi_hpa_local_trace(h, L, target, q->tr, q->trcap) : 0;
  if (n == 0) {
    ldsi_msg(q->errmsg, "%s: the window of clusters %u, %u and %u has no path (hierarchy out "
             "of date)", fn, (unsigned)ca, (unsigned)cb, (unsigned)cc);
    return LDS_E_STATE;
  }
  if (last) {
    keep_from = n; /* keep everything */
  } else {
    /* keep up to the start of the path's final run inside clusters cb and cc */
    keep_from = n - 1;
    while (keep_from > 0) {
      int32_t x, y;
      uint32_t cl;
      ldsi_grid_pxy(h->grid, q->tr[keep_from - 1], &x, &y);
      cl = ldsi_hpa_cluster_of(h, x, y);
      if (cl != cb && cl != cc) break;
      keep_from--;
    }
    keep_from++; /* tr[keep_from - 1] is the first cell of that run: keep it */
  }
  for (k = 1; k < keep_from && k < n; k++)
    if (!ldsi_hpa_keep(q, q->tr[k])) {
      ldsi_msg(q->errmsg, "%s: out of memory", fn);
      return LDS_E_NOMEM;
    }
  if (last) return LDS_FOUND;
  q->cur = q->tr[keep_from - 1];
  q->leg++;
  return LDS_RUNNING;
}

/* ------------------------------------------------------------ step -- */

lds_Status lds_hpa_query_step(lds_HpaQuery *q, const lds_Budget *budget) {
  uint64_t max_exp = budget ? budget->max_expansions : 0, bus = budget ? budget->budget_us : 0;
  uint64_t t0, e0, tick = 0;
  lds_Status st = LDS_RUNNING;
  if (!q) return LDS_E_ARG;
  if (q->status != LDS_RUNNING) return q->status;
  if (q->h->grid->version != q->version) {
    ldsi_msg(q->errmsg, "lds_hpa_query_step: the grid changed since the query started");
    q->status = LDS_E_STALE;
    return q->status;
  }
  t0 = q->env.clock(q->env.clock_ud);
  e0 = q->stats.expansions;
  if (q->phase == PH_EXACT) {
    st = ldsi_hpa_exact_run(q, max_exp, bus, t0);
    if (st == LDS_FOUND || st < 0 || st == LDS_NO_PATH) q->phase = PH_DONE;
  }
  while (q->phase != PH_EXACT && q->phase != PH_DONE) {
    if (max_exp && q->stats.expansions - e0 >= max_exp) break;
    if (bus && q->stats.expansions - tick >= 64) {
      tick = q->stats.expansions;
      if (q->env.clock(q->env.clock_ud) - t0 >= bus) break;
    }
    if (q->phase == PH_INSERT) {
      insert(q);
      q->phase = PH_ABSTRACT;
    } else if (q->phase == PH_ABSTRACT) {
      st = abstract_expand(q);
      if (st == LDS_NO_PATH) {
        q->phase = PH_DONE;
      } else if (st == LDS_FOUND) {
        st = abstract_path(q);
        if (st != LDS_OK) {
          ldsi_msg(q->errmsg, "lds_hpa_query_step: out of memory");
          q->phase = PH_DONE;
        } else {
          q->phase = PH_REFINE;
          st = LDS_RUNNING;
        }
      }
    } else {
      st = refine_window(q);
      if (st != LDS_RUNNING) q->phase = PH_DONE;
    }
  }
  if (q->phase == PH_DONE && st == LDS_RUNNING) st = LDS_FOUND;
  q->status = st;
  q->stats.elapsed_us += q->env.clock(q->env.clock_ud) - t0;
  return st;
}

/* ---------------------------------------------------------- results -- */

lds_Status lds_hpa_query_status(const lds_HpaQuery *q) { return q ? q->status : LDS_E_STATE; }

void lds_hpa_query_stats(const lds_HpaQuery *q, lds_Stats *out) {
  if (q)
    *out = q->stats;
  else
    memset(out, 0, sizeof *out);
}

double lds_hpa_query_cost(const lds_HpaQuery *q) {
  return q && q->status == LDS_FOUND ? q->cost : -1.0;
}

double lds_hpa_query_abstract_cost(const lds_HpaQuery *q) {
  return q && q->mode == LDS_HPA_FAST && q->abstract_cost >= 0 ? q->abstract_cost : -1.0;
}

const char *lds_hpa_query_errmsg(const lds_HpaQuery *q) { return q ? q->errmsg : ""; }

static lds_Path *make_path(const lds_HpaQuery *q, uint32_t flags, lds_Error *err) {
  const lds_Grid *g = q->h->grid;
  lds_Env pe = ldsi_env_public(&q->env);
  uint32_t *ids;
  lds_Path *p;
  size_t i;
  ids = ldsi_alloc(&q->env, (q->ncells ? q->ncells : 1) * sizeof(uint32_t));
  if (!ids) {
    ldsi_error(err, LDS_E_NOMEM, "lds_hpa_query_path: out of memory");
    return NULL;
  }
  for (i = 0; i < q->ncells; i++) {
    int32_t x, y;
    ldsi_grid_pxy(g, q->cells[i], &x, &y);
    ids[i] = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
  }
  p = lds_path_new(&pe, ids, q->ncells, g->w, q->cost, flags, err);
  ldsi_free(&q->env, ids, (q->ncells ? q->ncells : 1) * sizeof(uint32_t));
  return p;
}

lds_Path *lds_hpa_query_path(const lds_HpaQuery *q, lds_Error *err) {
  ldsi_error_clear(err);
  if (!q || q->status != LDS_FOUND) {
    ldsi_error(err, LDS_E_STATE, "lds_hpa_query_path: no path (status %s)",
               lds_status_name(q ? q->status : LDS_E_STATE));
    return NULL;
  }
  return make_path(q, 0, err);
}

lds_Path *lds_hpa_query_prefix(const lds_HpaQuery *q, lds_Error *err) {
  ldsi_error_clear(err);
  if (!q || (q->status != LDS_FOUND && q->status != LDS_RUNNING) || q->ncells == 0) {
    ldsi_error(err, LDS_E_STATE, "lds_hpa_query_prefix: no prefix (status %s)",
               lds_status_name(q ? q->status : LDS_E_STATE));
    return NULL;
  }
  return make_path(q, q->status == LDS_FOUND ? 0 : LDS_PATH_PARTIAL, err);
}
