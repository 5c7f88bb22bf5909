/* SPDX-License-Identifier: MIT */
/*
** lds_navmesh_search.c — the navmesh search object: parameters, start,
** sliced stepping, the corridor A* over polygons (then lds_funnel), the
** result path, and the path walk used for costs and by the path checker.
*/
#include "lds_navmesh_search_internal.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------- names -- */

const char *lds_nav_algo_name(lds_NavAlgo a) {
  switch (a) {
    case LDS_NAV_FUNNEL: return "funnel";
    case LDS_NAV_OPTIMAL: return "optimal";
  }
  return NULL;
}

lds_Status lds_nav_algo_parse(const char *name, lds_NavAlgo *out) {
  if (!name || !out) return LDS_E_ARG;
  if (strcmp(name, "funnel") == 0) *out = LDS_NAV_FUNNEL;
  else if (strcmp(name, "optimal") == 0) *out = LDS_NAV_OPTIMAL;
  else return LDS_E_ARG;
  return LDS_OK;
}

void lds_nav_params_init(lds_NavParams *p) {
  if (!p) return;
  memset(p, 0, sizeof *p);
  p->algo = LDS_NAV_FUNNEL;
  p->snap_radius = 2.0;
  p->height_tol = 4.0;
  p->thorough = true;
}

/* ---------------------------------------------------------- lifetime -- */

#define K LDSI_NAV_SLOTS

lds_NavSearch *lds_navsearch_new(const lds_Env *env, const lds_Navmesh *m, lds_Error *err) {
  ldsi_Env e;
  lds_NavSearch *s;
  size_t nn, ni;
  ldsi_env_resolve(&e, env);
  if (!m) {
    ldsi_error(err, LDS_E_ARG, "lds_navsearch_new: mesh is NULL");
    return NULL;
  }
  ni = m->ni;
  nn = ni * K + 1; /* corridor A* records: K per half-edge, plus the start */
  s = (lds_NavSearch *)ldsi_calloc(&e, 1, sizeof *s);
  if (!s) goto nomem;
  s->env = e;
  s->m = m;
  s->nnodes = nn;
  s->start_node = (uint32_t)(ni * K);
  s->enext = (uint32_t *)ldsi_alloc(&e, (ni + 1) * sizeof(uint32_t));
  s->cstart = (uint32_t *)ldsi_alloc(&e, ((size_t)m->np + 1) * sizeof(uint32_t));
  s->cedge = (uint32_t *)ldsi_alloc(&e, (ni + 1) * sizeof(uint32_t));
  s->ends = (ldsi_NavEdge *)ldsi_alloc(&e, (ni + 1) * sizeof(ldsi_NavEdge));
  s->node = (ldsi_NavNode *)ldsi_calloc(&e, nn, sizeof(ldsi_NavNode));
  s->mark = (ldsi_NavMark *)ldsi_calloc(&e, nn, sizeof(ldsi_NavMark));
  s->heap = (ldsi_NavHeapItem *)ldsi_alloc(&e, nn * sizeof(ldsi_NavHeapItem));
  if (!s->enext || !s->cstart || !s->cedge || !s->ends || !s->node || !s->mark || !s->heap) {
    lds_navsearch_free(s);
    goto nomem;
  }
  {
    uint32_t P, k, nc = 0;
    bool used[256];
    memset(used, 0, sizeof used);
    for (P = 0; P < m->np; P++) {
      uint32_t st = m->pstart[P], n = m->pstart[P + 1] - st;
      s->cstart[P] = nc;
      if (!used[m->area[P]]) {
        used[m->area[P]] = true;
        s->areas[s->nareas++] = m->area[P];
      }
      for (k = 0; k < n; k++) {
        uint32_t e0 = st + k;
        s->enext[e0] = st + (k + 1) % n;
        memcpy(s->ends[e0].a, ldsi_nm_v(m, m->pv[e0]), 3 * sizeof(double));
        memcpy(s->ends[e0].b, ldsi_nm_v(m, m->pv[s->enext[e0]]), 3 * sizeof(double));
        s->ends[e0].ex = s->ends[e0].b[0] - s->ends[e0].a[0];
        s->ends[e0].ez = s->ends[e0].b[2] - s->ends[e0].a[2];
        /* edges have a length (lds_navmesh_new rejects zero-length ones) */
        s->ends[e0].il2 = 1.0 / (s->ends[e0].ex * s->ends[e0].ex + s->ends[e0].ez * s->ends[e0].ez);
        if (m->pn[e0] != LDS_NAVMESH_NONE) s->cedge[nc++] = e0;
      }
    }
    s->cstart[m->np] = nc;
  }
  s->ncost1 = 256;
  s->status = LDS_E_STATE;
  ldsi_error_clear(err);
  return s;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "lds_navsearch_new: out of memory (%u polygons, %zu edges)",
             m->np, m->ni);
  return NULL;
}

void lds_navsearch_free(lds_NavSearch *s) {
  const ldsi_Env *e;
  size_t nn, ni;
  if (!s) return;
  e = &s->env;
  nn = s->nnodes;
  ni = s->m->ni;
  ldsi_polyanya_free(s);
  ldsi_free(e, s->enext, (ni + 1) * sizeof(uint32_t));
  ldsi_free(e, s->cstart, ((size_t)s->m->np + 1) * sizeof(uint32_t));
  ldsi_free(e, s->cedge, (ni + 1) * sizeof(uint32_t));
  ldsi_free(e, s->ends, (ni + 1) * sizeof(ldsi_NavEdge));
  ldsi_free(e, s->node, nn * sizeof(ldsi_NavNode));
  ldsi_free(e, s->mark, nn * sizeof(ldsi_NavMark));
  ldsi_free(e, s->heap, nn * sizeof(ldsi_NavHeapItem));
  ldsi_free(e, s->pts, s->ptscap * 3 * sizeof(double));
  ldsi_free(e, s->corr, s->corrcap * sizeof(uint32_t));
  ldsi_free(e, s->portals, s->portcap * sizeof(lds_Portal));
  ldsi_free(e, s, sizeof *s);
}

/* -------------------------------------------------------------- heap -- */

/* Binary min-heap of (f, id), ties broken by id (deterministic); each
** record knows its position (hpos) for decrease-key. */
static inline bool item_less(const ldsi_NavHeapItem *a, const ldsi_NavHeapItem *b) {
  return a->f < b->f || (a->f == b->f && a->id < b->id);
}

static void heap_up(lds_NavSearch *s, size_t i) {
  ldsi_NavHeapItem it = s->heap[i];
  while (i > 0) {
    size_t up = (i - 1) / 2;
    if (!item_less(&it, &s->heap[up])) break;
    s->heap[i] = s->heap[up];
    s->mark[s->heap[i].id].hpos = (uint32_t)i;
    i = up;
  }
  s->heap[i] = it;
  s->mark[it.id].hpos = (uint32_t)i;
}

static void heap_down(lds_NavSearch *s, size_t i) {
  ldsi_NavHeapItem it = s->heap[i];
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= s->hn) break;
    if (c + 1 < s->hn && item_less(&s->heap[c + 1], &s->heap[c])) c++;
    if (!item_less(&s->heap[c], &it)) break;
    s->heap[i] = s->heap[c];
    s->mark[s->heap[i].id].hpos = (uint32_t)i;
    i = c;
  }
  s->heap[i] = it;
  s->mark[it.id].hpos = (uint32_t)i;
}

static void heap_push_or_decrease(lds_NavSearch *s, uint32_t id, double f) {
  uint32_t h = s->mark[id].hpos;
  if (h < LDSI_NAV_OUT) {
    s->heap[h].f = f;
    heap_up(s, h);
    return;
  }
  s->heap[s->hn].f = f;
  s->heap[s->hn].id = id;
  s->hn++;
  heap_up(s, s->hn - 1);
  s->stats.pushes++;
  if (s->hn > s->stats.peak_open) s->stats.peak_open = s->hn;
}

static uint32_t heap_pop(lds_NavSearch *s) {
  uint32_t id = s->heap[0].id;
  s->mark[id].hpos = LDSI_NAV_CLOSED;
  s->hn--;
  if (s->hn) {
    s->heap[0] = s->heap[s->hn];
    heap_down(s, 0);
  }
  return id;
}

/* ------------------------------------------------------------- start -- */

static inline double dist3(const double *a, const double *b) {
  double dx = a[0] - b[0], dy = a[1] - b[1], dz = a[2] - b[2];
  return sqrt(dx * dx + dy * dy + dz * dz);
}

static lds_Status fail(lds_NavSearch *s, lds_Status st, const char *fmt, const char *a) {
  snprintf(s->msg, sizeof s->msg, fmt, a);
  s->status = st;
  return st;
}

static bool locate(lds_NavSearch *s, const char *what, const double in[3], double out[3],
                   uint32_t *poly) {
  uint32_t p = lds_navmesh_nearest(s->m, in, s->p.snap_radius, s->p.height_tol, out);
  if (p == LDS_NAVMESH_NONE) {
    snprintf(s->msg, sizeof s->msg,
             "lds_navsearch_start: %s (%g, %g, %g) is not on the mesh (no polygon within %g)",
             what, ldsi_num(in[0]), ldsi_num(in[1]), ldsi_num(in[2]), s->p.snap_radius);
    return false;
  }
  *poly = p;
  return true;
}

lds_Status lds_navsearch_start(lds_NavSearch *s, const lds_NavParams *p, const double start[3],
                               const double goal[3]) {
  lds_NavParams def;
  size_t i;
  if (!s) return LDS_E_ARG;
  s->started = false;
  s->have_path = s->is_partial = s->path_built = false;
  s->npts = s->ncorr = 0;
  s->msg[0] = '\0';
  memset(&s->stats, 0, sizeof s->stats);
  if (!p) {
    lds_nav_params_init(&def);
    p = &def;
  }
  s->p = *p;
  if (!start || !goal) return fail(s, LDS_E_ARG, "lds_navsearch_start: %s is NULL", !start ? "start" : "goal");
  if (!lds_nav_algo_name(p->algo)) return fail(s, LDS_E_ARG, "lds_navsearch_start: %s", "algo out of range (expected LDS_NAV_FUNNEL or LDS_NAV_OPTIMAL)");
  if (!(p->snap_radius >= 0) || !isfinite(p->snap_radius)) {
    snprintf(s->msg, sizeof s->msg, "lds_navsearch_start: snap_radius is %g (expected finite, >= 0)", ldsi_num(p->snap_radius));
    return s->status = LDS_E_ARG;
  }
  if (p->n_area_costs > 256 || (p->n_area_costs && !p->area_costs)) {
    snprintf(s->msg, sizeof s->msg, "lds_navsearch_start: n_area_costs is %zu (expected 0..256, with area_costs)", p->n_area_costs);
    return s->status = LDS_E_ARG;
  }
  {
    /* cost[i] is 1 for i >= ncost1 (the previous start's n_area_costs):
    ** only the entries the last table covered are reset */
    uint32_t dirty = s->ncost1;
    s->ncost1 = 256;
    for (i = 0; i < p->n_area_costs; i++) {
      double c = p->area_costs[i];
      if (!(c > 0) || (isinf(c) && c < 0) || c != c) {
        snprintf(s->msg, sizeof s->msg, "lds_navsearch_start: area_costs[%zu] is %g (expected > 0 or inf)", i, ldsi_num(c));
        return s->status = LDS_E_ARG;
      }
      s->cost[i] = c;
    }
    for (; i < dirty; i++) s->cost[i] = 1.0; /* ids beyond n_area_costs cost 1 */
    s->ncost1 = (uint32_t)p->n_area_costs;
  }
  s->p.area_costs = NULL; /* copied into s->cost */
  /* over the areas the mesh uses (in the order of their first polygon), not
  ** its polygons: O(areas) per query */
  s->min_cost = INFINITY;
  for (i = 0; i < s->nareas; i++)
    if (isfinite(s->cost[s->areas[i]])) s->min_cost = fmin(s->min_cost, s->cost[s->areas[i]]);
  if (!isfinite(s->min_cost)) s->min_cost = 1.0;
  s->uniform = true;
  for (i = 0; i < s->nareas && s->uniform; i++) {
    double c = s->cost[s->areas[i]];
    if (isfinite(c) && c != s->min_cost) s->uniform = false;
  }
  s->kslots = !s->uniform ? 1u : p->thorough ? K : 2u;
  if (p->algo == LDS_NAV_OPTIMAL)
    for (i = 0; i < s->nareas; i++) {
      double c = s->cost[s->areas[i]];
      if (isfinite(c) && c != s->min_cost) {
        snprintf(s->msg, sizeof s->msg,
                 "lds_navsearch_start: optimal needs one cost for every allowed area (area %u "
                 "costs %g, another %g)", s->areas[i], c, s->min_cost);
        return s->status = LDS_E_ARG;
      }
    }
  if (!locate(s, "start", start, s->start, &s->sp) || !locate(s, "goal", goal, s->goal, &s->gp))
    return s->status = LDS_E_ARG;
  s->started = true;
  s->status = LDS_RUNNING;
  s->best_h = dist3(s->start, s->goal);
  if (++s->gen == 0) {
    for (i = 0; i < s->nnodes; i++) s->mark[i].seen = 0;
    s->gen = 1;
  }
  {
    uint32_t sn = s->start_node;
    ldsi_NavNode *N = &s->node[sn];
    s->hn = 0;
    s->mark[sn].seen = s->gen;
    N->g = 0;
    N->f = 0;
    N->parent = LDS_NAVMESH_NONE;
    memcpy(N->pt, s->start, 3 * sizeof(double));
    memcpy(N->t.root, s->start, 3 * sizeof(double));
    N->t.groot = 0;
    N->t.wedge = false;
    N->t.have_g = false;
    s->mark[sn].hpos = LDSI_NAV_CLOSED;
    s->best = sn;
    if (!isfinite(s->cost[s->m->area[s->sp]]) || !isfinite(s->cost[s->m->area[s->gp]])) {
      s->status = LDS_NO_PATH;
      s->started = false;
      if (!isfinite(s->cost[s->m->area[s->sp]])) s->best = LDS_NAVMESH_NONE;
      return LDS_RUNNING;
    }
    /* different pieces of the mesh: no path, found without a search (a
    ** partial path needs the search's nearest reached point) */
    if (!p->partial && s->m->piece[s->sp] != s->m->piece[s->gp]) {
      s->status = LDS_NO_PATH;
      s->started = false;
      return LDS_RUNNING;
    }
    if (p->algo == LDS_NAV_OPTIMAL) return ldsi_polyanya_start(s);
    heap_push_or_decrease(s, sn, s->sp == s->gp ? dist3(s->start, s->goal) * s->cost[s->m->area[s->sp]] : dist3(s->start, s->goal) * s->min_cost);
  }
  return LDS_RUNNING;
}

/* ---------------------------------------------------- corridor A* --- */

static inline void lerp3(const double *a, const double *b, double t, double *out) {
  out[0] = a[0] + t * (b[0] - a[0]);
  out[1] = a[1] + t * (b[1] - a[1]);
  out[2] = a[2] + t * (b[2] - a[2]);
}

/* Where |p - x| + |x - goal| is least for x on the line of portal E, as
** the parameter t of x = a + t (b - a), in x-z (Heron's reflection: the
** line from p to the goal, mirrored across the portal's line when both lie
** on the same side, meets that line there; the sum is convex along the
** line, so its least value on a part [t0, t1] is at t clamped to it). tg, dg:
** the goal's parameter and |cross| distance term (goal_terms). No root. */
static inline double line_t(const ldsi_NavEdge *E, const double *p, double tg, double dg) {
  double px = p[0] - E->a[0], pz = p[2] - E->a[2];
  double dp = fabs(E->ex * pz - E->ez * px), tp = (E->ex * px + E->ez * pz) * E->il2;
  return dp + dg > 0 ? tp + (tg - tp) * (dp / (dp + dg)) : tp;
}

static inline double clampd(double t, double lo, double hi) { return t < lo ? lo : t > hi ? hi : t; }

/* cross(b - a, c - a) in x-z */
static inline double xcross(const double *a, const double *b, const double *c) {
  return (b[0] - a[0]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[0] - a[0]);
}

/* A root on the line of its portal (a start on the edge, a root at the
** portal's end) sees the whole next polygon, which is convex: the wedge
** would be a straight angle or empty, so the state drops it. */
static inline void taut_flat(const lds_NavSearch *s, ldsi_NavTaut *t) {
  double c = xcross(t->wl, t->wr, t->root);
  double l = fabs(t->wr[0] - t->wl[0]) + fabs(t->wr[2] - t->wl[2]);
  if (fabs(c) <= s->m->eps * l) t->wedge = false;
}

/* The state's lengths to its wedge's ends (computed once per state). */
static inline void taut_fill(ldsi_NavTaut *t) {
  if (t->have_g) return;
  t->gl = t->groot + dist3(t->root, t->wl);
  t->gr = t->groot + dist3(t->root, t->wr);
  t->have_g = true;
}

/* Taut relaxation (uniform costs): from a node's state tp (taut_fill done)
** across portal E (a = left, b = right). The portal splits into the part
** visible from the root inside its wedge and the parts beyond its left and
** right rays, reached by bending at the wedge's left / right end; q is the
** point of the portal with the smallest (length to it) + (straight line to
** the goal), and the new state t follows the part q lies in. Fills t, q and
** *g (length from the start to q); returns that smallest sum, a lower bound
** of every path through this corridor prefix (as the state's lengths are). */
typedef struct TautPart {
  ldsi_NavTaut t;
  double q[3], g, sum;
} TautPart;

static int taut_relax(const lds_NavSearch *s, const ldsi_NavTaut *tp, const ldsi_NavEdge *E,
                      TautPart *out) {
  const double *r = tp->root, *goal = s->goal, *a = E->a, *b = E->b;
  double t0 = 0, t1 = 1, tg, dg;
  int n = 0;
  {
    double gx = goal[0] - a[0], gz = goal[2] - a[2];
    dg = fabs(E->ex * gz - E->ez * gx);
    tg = (E->ex * gx + E->ez * gz) * E->il2;
  }
  if (!tp->wedge) { /* the whole portal is visible from the root */
    TautPart *o = &out[n++];
    o->t = *tp;
    o->t.wedge = true;
    o->t.have_g = false;
    memcpy(o->t.wl, a, sizeof o->t.wl);
    memcpy(o->t.wr, b, sizeof o->t.wr);
    lerp3(a, b, clampd(line_t(E, r, tg, dg), 0, 1), o->q);
    o->g = tp->groot + dist3(r, o->q);
    o->sum = o->g + dist3(o->q, goal);
    taut_flat(s, &o->t);
    return n;
  }
  {
    double la = xcross(r, tp->wl, a), lb = xcross(r, tp->wl, b);
    double ra = xcross(r, tp->wr, a), rb = xcross(r, tp->wr, b);
    if (la > 0) t0 = lb > 0 ? 1 : la / (la - lb);
    if (rb < 0) t1 = ra < 0 ? 0 : ra / (ra - rb);
  }
  if (t0 < t1) { /* visible part [t0, t1] */
    TautPart *o = &out[n++];
    o->t = *tp;
    o->t.have_g = false;
    lerp3(a, b, clampd(line_t(E, r, tg, dg), t0, t1), o->q);
    o->g = tp->groot + dist3(r, o->q);
    o->sum = o->g + dist3(o->q, goal);
    /* a side cut by the wedge keeps the wedge's corner: the same ray, and
    ** the point the path bends at when it later passes beyond it */
    if (t0 <= 0) memcpy(o->t.wl, a, sizeof o->t.wl);
    if (t1 >= 1) memcpy(o->t.wr, b, sizeof o->t.wr);
    taut_flat(s, &o->t);
  }
  if (t0 > 0) { /* beyond the left ray: [0, min(t0, t1)] round wl */
    TautPart *o = &out[n++];
    double te = fmin(t0, t1);
    lerp3(a, b, clampd(line_t(E, tp->wl, tg, dg), 0, te), o->q);
    o->g = tp->gl + dist3(tp->wl, o->q);
    o->sum = o->g + dist3(o->q, goal);
    memcpy(o->t.root, tp->wl, sizeof o->t.root);
    o->t.groot = tp->gl;
    o->t.wedge = true;
    o->t.have_g = false;
    memcpy(o->t.wl, a, sizeof o->t.wl);
    lerp3(a, b, te, o->t.wr);
    taut_flat(s, &o->t);
  }
  if (t1 < 1) { /* beyond the right ray: [max(t0, t1), 1] round wr */
    TautPart *o = &out[n++];
    double te = fmax(t0, t1);
    lerp3(a, b, clampd(line_t(E, tp->wr, tg, dg), te, 1), o->q);
    o->g = tp->gr + dist3(tp->wr, o->q);
    o->sum = o->g + dist3(o->q, goal);
    memcpy(o->t.root, tp->wr, sizeof o->t.root);
    o->t.groot = tp->gr;
    o->t.wedge = true;
    o->t.have_g = false;
    lerp3(a, b, te, o->t.wl);
    memcpy(o->t.wr, b, sizeof o->t.wr);
    taut_flat(s, &o->t);
  }
  return n;
}

/* Length from a node's state to the goal inside the goal polygon. */
static double taut_goal(const lds_NavSearch *s, const ldsi_NavTaut *t) {
  const double *r = t->root, *g = s->goal;
  if (t->wedge) {
    if (xcross(r, t->wl, g) > 0) return t->groot + dist3(r, t->wl) + dist3(t->wl, g);
    if (xcross(r, t->wr, g) < 0) return t->groot + dist3(r, t->wr) + dist3(t->wr, g);
  }
  return t->groot + dist3(r, g);
}

/* The state's length from the start to point x of its portal: straight
** from the root inside the wedge, else round the wedge's end on x's side. */
static double taut_at(ldsi_NavTaut *t, const double *x) {
  if (t->wedge) {
    taut_fill(t);
    if (xcross(t->root, t->wl, x) > 0) return t->gl + dist3(t->wl, x);
    if (xcross(t->root, t->wr, x) < 0) return t->gr + dist3(t->wr, x);
  }
  return t->groot + dist3(t->root, x);
}

/* The half-edge a record crosses; the polygon it stands in. */
static inline uint32_t node_edge(uint32_t id) { return id / K; }
static inline uint32_t node_poly(const lds_NavSearch *s, uint32_t id) {
  return id == s->start_node ? s->sp : s->m->pn[node_edge(id)];
}

/* Which record of half-edge e takes a new state (f, tq, point q), or NONE
** when an existing state dominates it: no longer (within 1e-12 relative)
** to both portal ends and to either state's point, and no larger f. Free
** records first; else an open record the new state dominates; else the
** open record with the largest f when the new f is smaller. Non-uniform
** costs keep one record per half-edge (the smaller f). */
/* The lengths of state t at the dominance test's points (portal ends a, b,
** the new state's point q, the old record's point x), computed on demand. */
typedef struct DomPts {
  const double *p[4];
} DomPts;

static inline double dom_at(ldsi_NavTaut *t, const DomPts *P, double *memo, int i) {
  if (memo[i] != memo[i]) memo[i] = taut_at(t, P->p[i]);
  return memo[i];
}

/* True when state A (lengths memo ma) is no longer than B (mb) at every
** test point, within tol; stops at the first point where it is longer. */
static bool dom_le(ldsi_NavTaut *A, double *ma, ldsi_NavTaut *B, double *mb, const DomPts *P,
                   double tol) {
  int i;
  for (i = 0; i < 4; i++)
    if (dom_at(A, P, ma, i) > dom_at(B, P, mb, i) + tol) return false;
  return true;
}

static uint32_t pick_slot(lds_NavSearch *s, uint32_t e, double f, ldsi_NavTaut *tq,
                          const double *q, bool uniform) {
  uint32_t base = e * K, k, free_k = LDS_NAVMESH_NONE, worst = LDS_NAVMESH_NONE;
  double nm[4] = {NAN, NAN, NAN, NAN}, wf = -INFINITY;
  const ldsi_NavEdge *E = &s->ends[e];
  for (k = 0; k < s->kslots; k++) {
    ldsi_NavNode *X = &s->node[base + k];
    const ldsi_NavMark *M = &s->mark[base + k];
    double xm[4] = {NAN, NAN, NAN, NAN}, tol;
    DomPts P;
    if (M->seen != s->gen) {
      if (free_k == LDS_NAVMESH_NONE) free_k = base + k;
      continue;
    }
    if (!uniform) {
      if (M->hpos == LDSI_NAV_CLOSED || f >= X->f) return LDS_NAVMESH_NONE;
      return base + k;
    }
    P.p[0] = E->a;
    P.p[1] = E->b;
    P.p[2] = q;
    P.p[3] = X->pt;
    nm[3] = NAN; /* the fourth point is this record's */
    tol = 1e-12 * (1 + X->f);
    if (X->f <= f + tol && dom_le(&X->t, xm, tq, nm, &P, tol)) return LDS_NAVMESH_NONE;
    if (M->hpos != LDSI_NAV_CLOSED) {
      if (f <= X->f && dom_le(tq, nm, &X->t, xm, &P, 0)) return base + k;
      if (X->f > wf) {
        wf = X->f;
        worst = base + k;
      }
    }
  }
  if (free_k != LDS_NAVMESH_NONE) return free_k;
  if (worst != LDS_NAVMESH_NONE && f < wf) return worst;
  return LDS_NAVMESH_NONE;
}

/* True when polygon Q is among the last LDSI_NAV_LOOP polygons of record
** id's corridor. With several states per half-edge a corridor could circle
** a vertex it bends at (every portal round it touches the root, so its
** length does not grow) and come back into a polygon it crossed; such a
** corridor is not simple and its funnel is meaningless. */
#define LDSI_NAV_LOOP 16
static inline bool revisits(const lds_NavSearch *s, uint32_t id, uint32_t Q) {
  int d;
  for (d = 0; d < LDSI_NAV_LOOP && id != LDS_NAVMESH_NONE; d++) {
    if (node_poly(s, id) == Q) return true;
    id = s->node[id].parent;
  }
  return false;
}

/* Every record of half-edge e is expanded (closed): no new state enters. */
static inline bool edge_closed(const lds_NavSearch *s, uint32_t e) {
  uint32_t k;
  for (k = 0; k < s->kslots; k++) {
    const ldsi_NavMark *M = &s->mark[e * K + k];
    if (M->seen != s->gen || M->hpos != LDSI_NAV_CLOSED) return false;
  }
  return true;
}

/* Writes a state into record slot (parent id) and pushes it or lowers its key. */
static void store(lds_NavSearch *s, uint32_t slot, uint32_t id, double g, double f,
                  const double *q, const ldsi_NavTaut *t, double h) {
  ldsi_NavNode *X = &s->node[slot];
  if (s->mark[slot].seen != s->gen) {
    s->mark[slot].seen = s->gen;
    s->mark[slot].hpos = LDSI_NAV_OUT;
  }
  X->g = g;
  X->f = f;
  X->parent = id;
  memcpy(X->pt, q, 3 * sizeof(double));
  if (t) X->t = *t;
  if (h < s->best_h) {
    s->best_h = h;
    s->best = slot;
  }
  heap_push_or_decrease(s, slot, f);
}

static lds_Status astar_step(lds_NavSearch *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0) {
  const lds_Navmesh *m = s->m;
  const bool uniform = s->uniform;
  const uint32_t gp = s->gp;
  uint64_t n = 0;
  while (s->hn) {
    uint32_t id, P, c, c1, back;
    const ldsi_NavNode *N;
    double cP;
    if (max_exp && n >= max_exp) return LDS_RUNNING;
    if (budget_us && n && (n & 63) == 0 && s->env.clock(s->env.clock_ud) - t0 >= budget_us)
      return LDS_RUNNING;
    id = heap_pop(s);
    n++;
    s->stats.expansions++;
    P = node_poly(s, id);
    if (P == gp) {
      s->goal_node = id;
      return LDS_FOUND;
    }
    N = &s->node[id];
    if (uniform && N->t.wedge) taut_fill(&s->node[id].t);
    cP = s->cost[m->area[P]];
    back = id == s->start_node ? LDS_NAVMESH_NONE : node_poly(s, N->parent); /* never straight back */
    for (c = s->cstart[P], c1 = s->cstart[P + 1]; c < c1; c++) {
      uint32_t e = s->cedge[c], Q = m->pn[e], slot;
      const ldsi_NavEdge *E = &s->ends[e];
      double q[3], g, f, h;
      if (Q == back || !isfinite(s->cost[m->area[Q]])) continue;
      if (edge_closed(s, e)) continue; /* pick_slot would refuse any state */
      if (uniform && revisits(s, id, Q)) continue;
      if (uniform) {
        TautPart parts[3];
        int np = taut_relax(s, &N->t, E, parts), j, jbest = 0;
        if (!s->p.thorough) { /* the part with the least sum alone */
          for (j = 1; j < np; j++)
            if (parts[j].sum < parts[jbest].sum) jbest = j;
          if (jbest) parts[0] = parts[jbest];
          np = 1;
        }
        for (j = 0; j < np; j++) {
          TautPart *o = &parts[j];
          f = (Q == gp ? taut_goal(s, &o->t) : o->sum) * cP;
          slot = pick_slot(s, e, f, &o->t, o->q, true);
          if (slot == LDS_NAVMESH_NONE) continue;
          store(s, slot, id, o->g * cP, f, o->q, &o->t, o->sum - o->g);
        }
      } else {
        {
          double gx = s->goal[0] - E->a[0], gz = s->goal[2] - E->a[2];
          double dg = fabs(E->ex * gz - E->ez * gx), tg = (E->ex * gx + E->ez * gz) * E->il2;
          lerp3(E->a, E->b, clampd(line_t(E, N->pt, tg, dg), 0, 1), q);
        }
        g = N->g + dist3(N->pt, q) * cP;
        h = dist3(q, s->goal);
        f = g + h * (Q == gp ? s->cost[m->area[Q]] : s->min_cost);
        slot = pick_slot(s, e, f, NULL, q, false);
        if (slot == LDS_NAVMESH_NONE) continue;
        store(s, slot, id, g, f, q, NULL, h);
      }
    }
  }
  return LDS_NO_PATH;
}

/* ------------------------------------------------------------ result -- */

bool ldsi_nav_push_point(lds_NavSearch *s, const double *p) {
  if (s->npts && memcmp(s->pts + 3 * (s->npts - 1), p, 3 * sizeof(double)) == 0) return true;
  if (s->npts == s->ptscap) {
    size_t nc = s->ptscap ? 2 * s->ptscap : 16;
    double *np = (double *)ldsi_realloc(&s->env, s->pts, s->ptscap * 3 * sizeof(double),
                                        nc * 3 * sizeof(double));
    if (!np) return false;
    s->pts = np;
    s->ptscap = nc;
  }
  memcpy(s->pts + 3 * s->npts++, p, 3 * sizeof(double));
  return true;
}

static lds_Status nomem(lds_NavSearch *s) {
  snprintf(s->msg, sizeof s->msg, "lds_navsearch: out of memory building the path");
  return s->status = LDS_E_NOMEM;
}

/* Corridor from the start polygon to node `last`, then the funnel to `end`. */
static lds_Status build_corridor_path(lds_NavSearch *s, uint32_t last, const double *end) {
  size_t n = 0, i, np;
  uint32_t id;
  for (id = last; id != LDS_NAVMESH_NONE; id = s->node[id].parent) n++;
  if (n > s->corrcap) {
    uint32_t *c = (uint32_t *)ldsi_realloc(&s->env, s->corr, s->corrcap * sizeof(uint32_t), n * sizeof(uint32_t));
    if (!c) return nomem(s);
    s->corr = c;
    s->corrcap = n;
  }
  if (n > s->portcap) {
    lds_Portal *c = (lds_Portal *)ldsi_realloc(&s->env, s->portals, s->portcap * sizeof(lds_Portal), n * sizeof(lds_Portal));
    if (!c) return nomem(s);
    s->portals = c;
    s->portcap = n;
  }
  s->ncorr = n;
  i = n;
  for (id = last; id != LDS_NAVMESH_NONE; id = s->node[id].parent) {
    --i;
    s->corr[i] = node_poly(s, id);
    if (i > 0) {
      const ldsi_NavEdge *E = &s->ends[node_edge(id)];
      memcpy(s->portals[i - 1].left, E->a, 3 * sizeof(double));
      memcpy(s->portals[i - 1].right, E->b, 3 * sizeof(double));
    }
  }
  np = 0;
  lds_funnel(s->start, end, s->portals, n - 1, NULL, 0, &np);
  if (np > s->ptscap) {
    double *c = (double *)ldsi_realloc(&s->env, s->pts, s->ptscap * 3 * sizeof(double), np * 3 * sizeof(double));
    if (!c) return nomem(s);
    s->pts = c;
    s->ptscap = np;
  }
  lds_funnel(s->start, end, s->portals, n - 1, s->pts, s->ptscap, &s->npts);
  return LDS_OK;
}

static void closest_on_poly(const lds_Navmesh *m, uint32_t p, const double *x, double *out) {
  double tmp[3];
  tmp[0] = x[0]; tmp[1] = x[1]; tmp[2] = x[2];
  /* nearest within an unbounded radius restricted to p: project onto p */
  if (lds_navmesh_poly_contains(m, p, x[0], x[2])) {
    out[0] = x[0];
    out[2] = x[2];
  } else {
    uint32_t s = m->pstart[p], n = m->pstart[p + 1] - s, k;
    double bd = INFINITY;
    for (k = 0; k < n; k++) {
      const double *a = ldsi_nm_v(m, m->pv[s + k]), *b = ldsi_nm_v(m, m->pv[s + (k + 1) % n]);
      double dx = b[0] - a[0], dz = b[2] - a[2], l2 = dx * dx + dz * dz, t, px, pz, dd;
      t = l2 > 0 ? ((tmp[0] - a[0]) * dx + (tmp[2] - a[2]) * dz) / l2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      px = a[0] + t * dx;
      pz = a[2] + t * dz;
      dd = (px - tmp[0]) * (px - tmp[0]) + (pz - tmp[2]) * (pz - tmp[2]);
      if (dd < bd) {
        bd = dd;
        out[0] = px;
        out[2] = pz;
      }
    }
  }
  out[1] = lds_navmesh_poly_height(m, p, out[0], out[2]);
}

/* Length now; the area-weighted cost on demand (lds_navsearch_cost walks
** the path through the mesh). */
static lds_Status finish_path(lds_NavSearch *s) {
  size_t i;
  s->length = 0;
  for (i = 1; i < s->npts; i++) s->length += dist3(s->pts + 3 * (i - 1), s->pts + 3 * i);
  s->pcost = NAN;
  s->cost_done = false;
  return LDS_OK;
}

static lds_Status build_path(lds_NavSearch *s) {
  lds_Status st = LDS_OK;
  s->path_built = true;
  if (s->p.algo == LDS_NAV_FUNNEL) s->npts = 0; /* Polyanya left its path in pts */
  s->ncorr = 0;
  s->have_path = false;
  if (s->status == LDS_FOUND) {
    if (s->p.algo == LDS_NAV_FUNNEL) st = build_corridor_path(s, s->goal_node, s->goal);
    s->is_partial = false;
  } else if (s->p.partial && s->best != LDS_NAVMESH_NONE && s->status != LDS_FOUND) {
    double end[3];
    if (s->p.algo == LDS_NAV_FUNNEL || s->npts == 0) {
      if (s->mark[s->best].seen != s->gen) s->best = s->start_node;
      closest_on_poly(s->m, node_poly(s, s->best), s->goal, end);
      st = build_corridor_path(s, s->best, end);
    } else {
      st = LDS_OK; /* Polyanya filled its partial path */
    }
    s->is_partial = true;
  } else {
    return LDS_OK;
  }
  if (st != LDS_OK) return st;
  s->have_path = s->npts > 0;
  return finish_path(s);
}

lds_Status lds_navsearch_step(lds_NavSearch *s, const lds_Budget *b) {
  uint64_t t0;
  lds_Status st;
  if (!s) return LDS_E_ARG;
  if (!s->started) {
    if (s->status == LDS_E_STATE || s->status == LDS_E_ARG) {
      if (s->status == LDS_E_STATE && !s->msg[0])
        snprintf(s->msg, sizeof s->msg, "lds_navsearch_step: no query started");
      return s->status;
    }
    return s->status;
  }
  t0 = s->env.clock(s->env.clock_ud);
  if (s->p.algo == LDS_NAV_OPTIMAL)
    st = ldsi_polyanya_step(s, b ? b->max_expansions : 0, b ? b->budget_us : 0, t0);
  else
    st = astar_step(s, b ? b->max_expansions : 0, b ? b->budget_us : 0, t0);
  s->status = st;
  if (st != LDS_RUNNING) {
    s->started = false;
    if (st >= 0 && (st == LDS_FOUND || s->p.algo == LDS_NAV_FUNNEL)) {
      lds_Status bs = build_path(s);
      if (bs < 0) st = bs;
    } else if (st == LDS_NO_PATH) {
      s->path_built = true;
      s->have_path = s->npts > 0;
      s->is_partial = s->have_path;
      if (s->have_path) finish_path(s);
    }
  }
  s->stats.elapsed_us += s->env.clock(s->env.clock_ud) - t0;
  return s->status = st;
}

lds_Status lds_navsearch_status(const lds_NavSearch *s) { return s ? s->status : LDS_E_ARG; }

void lds_navsearch_stats(const lds_NavSearch *s, lds_Stats *out) {
  if (!out) return;
  if (s) *out = s->stats;
  else memset(out, 0, sizeof *out);
}

const char *lds_navsearch_errmsg(const lds_NavSearch *s) { return s ? s->msg : ""; }

static void ensure_result(lds_NavSearch *s) {
  /* a blocked start/goal gives NO_PATH at start; a partial request then
  ** yields the start alone (funnel) */
  if (!s->path_built && s->status == LDS_NO_PATH && s->p.algo == LDS_NAV_FUNNEL) build_path(s);
  if (!s->path_built && s->status == LDS_NO_PATH) s->path_built = true;
}

const double *lds_navsearch_points(lds_NavSearch *s, size_t *n) {
  if (!s) {
    if (n) *n = 0;
    return NULL;
  }
  ensure_result(s);
  if (n) *n = s->have_path ? s->npts : 0;
  return s->have_path ? s->pts : NULL;
}

double lds_navsearch_length(lds_NavSearch *s) {
  if (!s) return NAN;
  ensure_result(s);
  return s->have_path ? s->length : NAN;
}

double lds_navsearch_cost(lds_NavSearch *s) {
  char msg[LDS_ERRMSG_SIZE];
  if (!s) return NAN;
  ensure_result(s);
  if (!s->have_path) return NAN;
  if (!s->cost_done) {
    double len;
    s->cost_done = true;
    if (ldsi_nav_walk(s->m, s->pts, s->npts, s->sp, s->cost, &len, &s->pcost, msg) != LDS_OK)
      s->pcost = NAN; /* cannot happen for a path of this search: it lies on the mesh */
  }
  return s->pcost;
}

const uint32_t *lds_navsearch_corridor(lds_NavSearch *s, size_t *n) {
  if (!s) {
    if (n) *n = 0;
    return NULL;
  }
  ensure_result(s);
  if (n) *n = s->have_path ? s->ncorr : 0;
  return s->have_path ? s->corr : NULL;
}

bool lds_navsearch_is_partial(lds_NavSearch *s) {
  if (!s) return false;
  ensure_result(s);
  return s->have_path && s->is_partial;
}
