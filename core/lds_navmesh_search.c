/* SPDX-License-Identifier: MIT */
/*
** lds_navmesh_search.c — the navmesh search object: parameters, start,
** sliced stepping, the corridor searches (A* over polygons with the point
** chain or Detour's midpoints, and A* over portal states that carry the
** funnel of their corridor; then lds_funnel), the result path, and the
** corridor in mesh polygons.
*/
#include "lds_navmesh_search_internal.h"
#include "lds_navmesh_merge_internal.h"
#include "lds_navmesh_landmarks.h"

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

/* Portal entry: neighbour `to` across the edge from vertex va (left) to
** vb (right); no block yet. */
static void set_edge(ldsi_NavEdge *E, const lds_Navmesh *m, uint32_t to, uint32_t va, uint32_t vb) {
  E->to = to;
  E->blk = LDSI_NAV_BLK_NONE;
  memcpy(E->a, ldsi_nm_v(m, va), 3 * sizeof(double));
  memcpy(E->b, ldsi_nm_v(m, vb), 3 * sizeof(double));
  E->ex = E->b[0] - E->a[0];
  E->ez = E->b[2] - E->a[2];
  /* edges have a length (lds_navmesh_new rejects zero-length ones) */
  E->il2 = 1.0 / (E->ex * E->ex + E->ez * E->ez);
}

lds_NavSearch *lds_navsearch_new(const lds_Env *env, const lds_Navmesh *m, lds_Error *err) {
  ldsi_Env e;
  lds_NavSearch *s;
  size_t ni, np;
  ldsi_env_resolve(&e, env);
  if (!m) {
    ldsi_error(err, LDS_E_ARG, "lds_navsearch_new: mesh is NULL");
    return NULL;
  }
  ni = m->ni;
  np = m->np;
  s = (lds_NavSearch *)ldsi_calloc(&e, 1, sizeof *s);
  if (!s) goto nomem;
  s->env = e;
  s->m = m;
  s->cstart = (uint32_t *)ldsi_alloc(&e, (np + 1) * sizeof(uint32_t));
  s->adj = (ldsi_NavEdge *)ldsi_alloc(&e, (ni + 1) * sizeof(ldsi_NavEdge));
  s->oslot = (uint32_t *)ldsi_alloc(&e, (ni + 1) * sizeof(uint32_t));
  s->cpos = (uint32_t *)ldsi_calloc(&e, np + 1, sizeof(uint32_t));
  s->mstart = (uint32_t *)ldsi_alloc(&e, (np + 1) * sizeof(uint32_t));
  s->madj = (ldsi_NavEdge *)ldsi_alloc(&e, (ni + 1) * sizeof(ldsi_NavEdge));
  s->fslot = (uint32_t *)ldsi_alloc(&e, (ni + 1) * sizeof(uint32_t));
  s->rec = (ldsi_NavRec *)ldsi_calloc(&e, np + 1, sizeof(ldsi_NavRec));
  /* a TAUT search starts with one record per start polygon (up to
  ** m->hold_max of them) and grows from there */
  s->ecap = m->hold_max > 64 ? m->hold_max : 64;
  s->erec = (ldsi_NavRec *)ldsi_alloc(&e, s->ecap * sizeof(ldsi_NavRec));
  s->tbuf = (uint32_t *)ldsi_alloc(&e, (ni + 1) * sizeof(uint32_t));
  s->phead = (uint32_t *)ldsi_alloc(&e, (ni + 1) * sizeof(uint32_t));
  s->pgen = (uint32_t *)ldsi_calloc(&e, ni + 1, sizeof(uint32_t));
  s->hcap = (np > ni ? np : ni) + 1;
  s->heap = (ldsi_NavHeapItem *)ldsi_alloc(&e, s->hcap * sizeof(ldsi_NavHeapItem));
  s->rgen = (uint32_t *)ldsi_calloc(&e, np + 1, sizeof(uint32_t));
  s->rsel = (uint32_t *)ldsi_alloc(&e, (np + 1) * sizeof(uint32_t));
  s->gmark = (uint32_t *)ldsi_calloc(&e, np + 1, sizeof(uint32_t));
  s->sh = (uint32_t *)ldsi_alloc(&e, m->hold_max * sizeof(uint32_t));
  s->gh = (uint32_t *)ldsi_alloc(&e, m->hold_max * sizeof(uint32_t));
  s->hold_a = (uint32_t *)ldsi_alloc(&e, m->hold_max * sizeof(uint32_t));
  s->hold_b = (uint32_t *)ldsi_alloc(&e, m->hold_max * sizeof(uint32_t));
  if (!s->sh || !s->gh || !s->hold_a || !s->hold_b || !s->gmark || !s->rgen || !s->rsel || !s->cstart || !s->adj || !s->fslot || !s->oslot || !s->cpos || !s->mstart || !s->madj || !s->rec || !s->erec || !s->tbuf || !s->phead || !s->pgen || !s->heap) {
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
        if (m->pn[st + k] == LDS_NAVMESH_NONE) continue;
        set_edge(&s->adj[nc++], m, m->pn[st + k], m->pv[st + k], m->pv[st + (k + 1) % n]);
      }
    }
    s->cstart[m->np] = nc;
  }
  s->ncost1 = 256;
  s->taut_cap = 4;
  s->lm_min_polys = LDSI_NAV_LM_MIN_POLYS;
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
  size_t ni, np;
  if (!s) return;
  e = &s->env;
  ni = s->m->ni;
  np = s->m->np;
  ldsi_polyanya_free(s);
  ldsi_free(e, s->cstart, (np + 1) * sizeof(uint32_t));
  ldsi_free(e, s->adj, (ni + 1) * sizeof(ldsi_NavEdge));
  ldsi_free(e, s->fslot, (ni + 1) * sizeof(uint32_t));
  ldsi_free(e, s->oslot, (ni + 1) * sizeof(uint32_t));
  ldsi_free(e, s->cpos, (np + 1) * sizeof(uint32_t));
  ldsi_free(e, s->mstart, (np + 1) * sizeof(uint32_t));
  ldsi_free(e, s->madj, (ni + 1) * sizeof(ldsi_NavEdge));
  ldsi_navlm_release(s->lm);
  ldsi_free(e, s->lmg, sizeof *s->lmg);
  ldsi_free(e, s->rec, (np + 1) * sizeof(ldsi_NavRec));
  ldsi_free(e, s->erec, s->ecap * sizeof(ldsi_NavRec));
  ldsi_free(e, s->tbuf, (ni + 1) * sizeof(uint32_t));
  ldsi_free(e, s->phead, (ni + 1) * sizeof(uint32_t));
  ldsi_free(e, s->pgen, (ni + 1) * sizeof(uint32_t));
  ldsi_free(e, s->heap, s->hcap * sizeof(ldsi_NavHeapItem));
  ldsi_free(e, s->pts, s->ptscap * 3 * sizeof(double));
  ldsi_free(e, s->pts0, s->pts0cap * 3 * sizeof(double));
  ldsi_free(e, s->corr, s->corrcap * sizeof(uint32_t));
  ldsi_free(e, s->corr0, s->corr0cap * sizeof(uint32_t));
  ldsi_free(e, s->portals, s->portcap * sizeof(lds_Portal));
  ldsi_free(e, s->rgen, (np + 1) * sizeof(uint32_t));
  ldsi_free(e, s->rsel, (np + 1) * sizeof(uint32_t));
  ldsi_free(e, s->gmark, (np + 1) * sizeof(uint32_t));
  ldsi_free(e, s->sh, s->m->hold_max * sizeof(uint32_t));
  ldsi_free(e, s->gh, s->m->hold_max * sizeof(uint32_t));
  ldsi_free(e, s->hold_a, s->m->hold_max * sizeof(uint32_t));
  ldsi_free(e, s->hold_b, s->m->hold_max * sizeof(uint32_t));
  ldsi_free(e, s->ppts, s->ppcap * 3 * sizeof(double));
  ldsi_free(e, s, sizeof *s);
}

/* -------------------------------------------------------------- heap -- */

/* Binary min-heap of (f, polygon), ties broken by polygon id
** (deterministic), with lazy deletion: a record whose f drops is pushed
** again and its older items, whose f no longer matches the record's, are
** dropped when popped (f only decreases while a record is open, so exactly
** one item of an open record matches). Sifting then moves 16-byte items
** only, never writing into the records. The heap grows when full (at most
** one item per improvement), so a query allocates only while the pool is
** still growing. */
static inline bool item_less(const ldsi_NavHeapItem *a, const ldsi_NavHeapItem *b) {
  /* bitwise, not short-circuit: no branch on the data */
  return (a->f < b->f) | ((a->f == b->f) & (a->id < b->id));
}

/* false: out of memory growing the heap */
static bool heap_push(lds_NavSearch *s, uint32_t id, double f) {
  ldsi_NavHeapItem it, *h;
  size_t i = s->hn;
  if (i == s->hcap) {
    size_t nc = 2 * s->hcap;
    h = (ldsi_NavHeapItem *)ldsi_realloc(&s->env, s->heap, s->hcap * sizeof *h, nc * sizeof *h);
    if (!h) return false;
    s->heap = h;
    s->hcap = nc;
  }
  h = s->heap;
  it.f = f;
  it.id = id;
  while (i > 0) {
    size_t up = (i - 1) / 2;
    if (!item_less(&it, &h[up])) break;
    h[i] = h[up];
    i = up;
  }
  h[i] = it;
  s->hn++;
  s->stats.pushes++;
  /* a select and a store: the branch would follow the heap's size */
  s->stats.peak_open = s->hn > s->stats.peak_open ? s->hn : s->stats.peak_open;
  return true;
}

static lds_Status open_nomem(lds_NavSearch *s) {
  snprintf(s->msg, sizeof s->msg, "lds_navsearch: out of memory growing the open list");
  return LDS_E_NOMEM;
}

/* Opens record id (X, at f with straight-line distance h to the goal):
** keeps it as the best partial end when it is the nearest the goal yet,
** marks it open and pushes it; LDS_E_NOMEM (message set) when the open
** list cannot grow, else LDS_OK. Both corridor searches open through it. */
static lds_Status open_push(lds_NavSearch *s, ldsi_NavRec *X, uint32_t id, double h, double f) {
  if (h < s->best_h) {
    s->best_h = h;
    s->best = id;
  }
  X->hpos = LDSI_NAV_OPEN;
  return heap_push(s, id, f) ? LDS_OK : open_nomem(s);
}

/* Removes the least item; returns it. Bottom-up (Wegener 1993): the hole
** left at the root goes down to a leaf along the smaller children (one
** comparison a level, taken without a branch), then the last item rises
** from there, mostly by a level or none. The pop order is the items'
** total order (f, then id) whatever the layout. */
static ldsi_NavHeapItem heap_pop_item(lds_NavSearch *s) {
  ldsi_NavHeapItem *h = s->heap, top = h[0], it;
  size_t i = 0, c, n = --s->hn;
  if (!n) return top;
  it = h[n];
  while ((c = 2 * i + 1) + 1 < n) {
    c += (size_t)item_less(&h[c + 1], &h[c]);
    h[i] = h[c];
    i = c;
  }
  if (c < n) {
    h[i] = h[c];
    i = c;
  }
  while (i > 0) {
    size_t up = (i - 1) / 2;
    if (!item_less(&it, &h[up])) break;
    h[i] = h[up];
    i = up;
  }
  h[i] = it;
  return top;
}

/* The open record with the least f (closed now), or LDS_NAVMESH_NONE when
** no open record is left; stale items are dropped on the way. */
static uint32_t heap_pop(lds_NavSearch *s) {
  if (s->nxt != LDS_NAVMESH_NONE) {
    uint32_t id = s->nxt;
    ldsi_NavRec *R = &s->hrec[id];
    s->nxt = LDS_NAVMESH_NONE;
    if (R->hpos == LDSI_NAV_OPEN && R->f == s->nxt_f) {
      R->hpos = LDSI_NAV_CLOSED;
      return id;
    }
  }
  while (s->hn) {
    ldsi_NavHeapItem it = heap_pop_item(s);
    ldsi_NavRec *R = &s->hrec[it.id];
    if (R->hpos != LDSI_NAV_OPEN || R->f != it.f) continue;
    R->hpos = LDSI_NAV_CLOSED;
    return it.id;
  }
  return LDS_NAVMESH_NONE;
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

/* The allowed polygons holding point x (ldsi_navmesh_holders), ascending,
** into out; *poly (located) becomes the lowest of them unless it is one
** itself. Returns their count (0: x lies in blocked polygons only). */
static uint32_t allowed_holders(lds_NavSearch *s, const double *x, uint32_t *poly, uint32_t *out) {
  uint32_t *all = s->hold_a, n = ldsi_navmesh_holders(s->m, x, *poly, all, s->m->hold_max), i, k = 0;
  bool in = false;
  for (i = 0; i < n; i++)
    if (isfinite(s->cost[s->m->area[all[i]]])) {
      in |= all[i] == *poly;
      out[k++] = all[i];
    }
  if (k == 0 && isfinite(s->cost[s->m->area[*poly]])) out[k++] = *poly; /* cannot happen */
  if (k && !in) *poly = out[0];
  return k;
}

bool ldsi_nav_start_in_piece(const lds_NavSearch *s, uint32_t pc) {
  uint32_t i;
  for (i = 0; i < s->nsh; i++)
    if (s->m->piece[s->sh[i]] == pc) return true;
  return false;
}

/* True when no start polygon shares a piece with a goal polygon. */
static bool apart(const lds_NavSearch *s) {
  uint32_t j;
  for (j = 0; j < s->ngh; j++)
    if (ldsi_nav_start_in_piece(s, s->m->piece[s->gh[j]])) return false;
  return true;
}

/* The merged polygons of mesh polygons ps[0..n-1] into out, each once
** (first first); {dflt} when n is 0. Returns their count. */
static uint32_t merged_set(const lds_NavSearch *s, const uint32_t *ps, uint32_t n, uint32_t dflt,
                           uint32_t *out) {
  uint32_t i, j, k = 0;
  if (!n) {
    out[0] = dflt;
    return 1;
  }
  for (i = 0; i < n; i++) {
    uint32_t P = s->fpmap[ps[i]];
    for (j = 0; j < k && out[j] != P; j++) {}
    if (j == k) out[k++] = P;
  }
  return k;
}

/* A new corridor search from the start's polygons: every record stale
** (the generation counter), one record open per polygon of the running
** search holding the start (s->sh; the polygon itself in LINE and MID, a
** start state of edge NONE in TAUT) with the straight line to the goal as
** its key, and the polygons holding the goal (s->gh) marked in gmark.
** O(1) per query but once in 2^32 queries. */
static void search_reset(lds_NavSearch *s) {
  const bool taut = s->rule == LDSI_NAV_RULE_TAUT;
  const bool merged = s->xstart == s->mstart; /* ids of the merged partition */
  uint32_t i, nseed = 0, *seeds = s->hold_a;
  if (++s->gen == 0) {
    size_t j;
    for (j = 0; j <= s->m->np; j++) s->rec[j].seen = s->gmark[j] = 0;
    for (j = 0; j <= s->m->ni; j++) s->pgen[j] = 0;
    s->gen = 1;
  }
  s->hn = 0;
  s->nxt = LDS_NAVMESH_NONE;
  s->hrec = taut ? s->erec : s->rec;
  s->built_rec = LDS_NAVMESH_NONE;
  s->best_h = dist3(s->start, s->goal);
  for (i = 0; i < s->ngh; i++) s->gmark[merged ? s->fpmap[s->gh[i]] : s->gh[i]] = s->gen;
  /* the start's polygons (the located one alone for a blocked start) */
  if (merged) {
    nseed = merged_set(s, s->sh, s->nsh, s->fsp, seeds);
  } else {
    for (i = 0; i < s->nsh; i++) seeds[i] = s->sh[i];
    nseed = s->nsh ? s->nsh : 1;
    if (!s->nsh) seeds[0] = s->sp;
  }
  s->nn = nseed; /* the start's states */
  for (i = 0; i < nseed; i++) {
    const uint32_t P = seeds[i], id = taut ? i : P;
    ldsi_NavRec *R = &s->hrec[id];
    R->seen = s->gen;
    R->done = 0;
    R->hpos = LDSI_NAV_OPEN;
    R->g = 0;
    R->parent = R->edge = LDS_NAVMESH_NONE;
    memcpy(R->pt, s->start, 3 * sizeof(double));
    R->ga = 0;
    R->exact = 0;
    R->next = LDS_NAVMESH_NONE;
    R->spoly = P;
    R->lrec = R->rrec = R->arec = id;
    memcpy(R->ap, s->start, 3 * sizeof(double));
    memcpy(R->lp, s->start, 3 * sizeof(double));
    memcpy(R->rp, s->start, 3 * sizeof(double));
    if (i == 0) s->best = id;
    /* TAUT keys are lengths (uniform costs: scaling them by the one cost
    ** changes no comparison, and a length times a huge cost could overflow) */
    R->f = taut ? s->best_h
                : s->best_h * (s->gmark[P] == s->gen ? s->cost[s->xarea[P]] : s->min_cost);
    (void)heap_push(s, id, R->f); /* the heap holds max(np, ni) + 1 items */
  }
}

/* The corridor A*'s adjacency over the optimal search's merged partition
** (ldsi_polyanya_partition), built once: a row per merged polygon, an
** entry per crossable edge (an edge of the mesh: merged polygons keep
** every vertex), with its slot of the partition (fslot); and for the
** mesh's own adjacency the partition's slot of each edge between two
** merged polygons (oslot; LDSI_NAV_BLK_ANY inside one). false when out of
** memory. */
static bool funnel_partition(lds_NavSearch *s) {
  const ldsi_MergedMesh *mm;
  uint32_t P, k, nc = 0;
  const lds_Navmesh *m = s->m;
  if (s->fready) return true;
  if (!ldsi_polyanya_partition(s, &mm)) return false;
  for (P = 0; P < mm->np; P++) {
    uint32_t st = mm->pstart[P], n = mm->pstart[P + 1] - st;
    s->mstart[P] = nc;
    for (k = 0; k < n; k++) {
      if (mm->pn[st + k] == LDS_NAVMESH_NONE) continue;
      set_edge(&s->madj[nc], m, mm->pn[st + k], mm->pv[st + k], mm->pv[st + (k + 1) % n]);
      s->fslot[nc++] = st + k;
    }
  }
  s->mstart[mm->np] = nc;
  for (P = 0, nc = 0; P < m->np; P++) {
    uint32_t st = m->pstart[P], n = m->pstart[P + 1] - st, MP = mm->pmap[P];
    for (k = 0; k < n; k++) {
      uint32_t r = m->pn[st + k], va = m->pv[st + k], ms = mm->pstart[MP], mn = mm->pstart[MP + 1] - ms, j;
      if (r == LDS_NAVMESH_NONE) continue;
      s->oslot[nc] = LDSI_NAV_BLK_ANY;
      if (mm->pmap[r] != MP)
        for (j = 0; j < mn; j++)
          if (mm->pv[ms + j] == va && mm->pn[ms + j] == mm->pmap[r]) {
            s->oslot[nc] = ms + j;
            break;
          }
      nc++;
    }
  }
  s->fnp = mm->np;
  s->fpmap = mm->pmap;
  s->fmm = mm;
  s->farea = mm->area;
  s->ftabver = 0;
  /* the landmark bounds: optional (too small a partition or out of memory
  ** leaves none); tables shared in before must fit this partition */
  if (s->lm && (s->lm->np != mm->np || s->lm->nslot != mm->pstart[mm->np] || s->lm->ne != s->mstart[mm->np])) {
    ldsi_navlm_release(s->lm);
    s->lm = NULL;
  }
  if (!s->lm) s->lm = ldsi_navlm_build(s);
  if (s->lm && !s->lmg) {
    s->lmg = (ldsi_NavLmGoal *)ldsi_alloc(&s->env, sizeof *s->lmg);
    if (!s->lmg) {
      ldsi_navlm_release(s->lm);
      s->lm = NULL;
    }
  }
  s->fready = true;
  return true;
}

/* This funnel query's merged start and goal polygons, and with uniform
** costs and no partial path its block pruning (docs/navmesh.md
** "Pruning"): a path into a block off the block-cut tree path between
** them comes back to the polygon it left, which the segment between the
** two points shortcuts. With area costs that shortcut may cost more (it
** may cross a dearer polygon), and a partial path may end anywhere: no
** pruning then. false when out of memory. */
static bool funnel_query(lds_NavSearch *s) {
  if (!funnel_partition(s)) return false;
  s->fsp = s->fpmap[s->sp];
  s->fgp = s->fpmap[s->gp];
  s->xstart = s->mstart;
  s->xadj = s->madj;
  s->xarea = s->farea;
  s->lm_on = false;
  if (s->lm) {
    ldsi_navlm_goal(s->lmg, s->fgp, s->goal);
    s->lm_on = true;
  }
  s->fprune = s->uniform && !s->p.partial;
  if (s->fprune) {
    uint32_t *ms = s->hold_a, *mg = s->hold_b;
    uint32_t nms = merged_set(s, s->sh, s->nsh, s->fsp, ms), nmg = merged_set(s, s->gh, s->ngh, s->fgp, mg);
    uint32_t ver = ldsi_polyanya_mark_blocks(s, ms, nms, mg, nmg, &s->bgen, &s->bgcur), c;
    if (ver != s->ftabver) {
      for (c = 0; c < s->mstart[s->fnp]; c++) s->madj[c].blk = ldsi_polyanya_slot_block(s, s->fslot[c]);
      for (c = 0; c < s->cstart[s->m->np]; c++)
        s->adj[c].blk = s->oslot[c] == LDSI_NAV_BLK_ANY ? LDSI_NAV_BLK_ANY
                                                         : ldsi_polyanya_slot_block(s, s->oslot[c]);
      s->ftabver = ver;
    }
  }
  return true;
}

lds_Status lds_navsearch_start(lds_NavSearch *s, const lds_NavParams *p, const double start[3],
                               const double goal[3]) {
  lds_NavParams def;
  size_t i;
  if (!s) return LDS_E_ARG;
  s->started = false;
  s->early = s->pkept = false;
  s->have_path = s->is_partial = s->path_built = s->corr_pending = false;
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
  if (isnan(p->height_tol)) {
    snprintf(s->msg, sizeof s->msg, "lds_navsearch_start: height_tol is nan (expected a number; < 0: any height)");
    return s->status = LDS_E_ARG;
  }
  for (i = 0; i < 6; i++) {
    const double *pt = i < 3 ? start : goal;
    if (!isfinite(pt[i % 3])) {
      snprintf(s->msg, sizeof s->msg, "lds_navsearch_start: %s (%g, %g, %g): expected finite coordinates",
               i < 3 ? "start" : "goal", ldsi_num(pt[0]), ldsi_num(pt[1]), ldsi_num(pt[2]));
      return s->status = LDS_E_ARG;
    }
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
  s->nsh = allowed_holders(s, s->start, &s->sp, s->sh);
  s->ngh = allowed_holders(s, s->goal, &s->gp, s->gh);
  s->fsp = s->sp;
  s->fgp = s->gp;
  s->xstart = s->cstart;
  s->xadj = s->adj;
  s->xarea = s->m->area;
  s->fprune = false;
  s->lm_on = false;
  if (p->algo == LDS_NAV_FUNNEL && !funnel_query(s)) {
    snprintf(s->msg, sizeof s->msg, "lds_navsearch_start: out of memory (merged partition)");
    return s->status = LDS_E_NOMEM;
  }
  s->started = true;
  s->status = LDS_RUNNING;
  /* thorough with one cost: the portal states' search alone */
  s->rule = s->uniform && p->thorough ? LDSI_NAV_RULE_TAUT : LDSI_NAV_RULE_LINE;
  s->have0 = false;
  /* one cost and a point strictly inside one polygon at each end: the
  ** straight segment, when it stays on the mesh, is the answer */
  s->line_try = p->algo == LDS_NAV_FUNNEL && s->uniform && s->nsh == 1 && s->ngh == 1;
  s->line_cur = s->fsp;
  s->via_opt = false;
  s->taut_push_limit = LDSI_NAV_TAUT_PUSHES_PER_POLY * (uint64_t)s->fnp + LDSI_NAV_TAUT_PUSHES_MIN;
  s->line_n = 0;
  s->line_tin = 0;
  search_reset(s);
  /* a blocked start: no path and no partial one; a blocked goal, or start
  ** and goal in different pieces of the mesh: no path, found without a
  ** search, unless partial (its target is the nearest point of the whole
  ** region the start reaches, which the search finds) */
  if (!s->nsh || (!p->partial && (!s->ngh || apart(s)))) {
    s->status = LDS_NO_PATH;
    s->started = false;
    s->early = true;
    if (!s->nsh) s->best = LDS_NAVMESH_NONE;
    return LDS_RUNNING;
  }
  if (p->algo == LDS_NAV_OPTIMAL) {
    /* the landmark bounds over the partition (optional) */
    if (funnel_partition(s) && s->lm) {
      ldsi_navlm_goal(s->lmg, s->fpmap[s->gp], s->goal);
      s->lm_on = true;
    }
    return ldsi_polyanya_start(s);
  }
  return LDS_RUNNING;
}

/* ---------------------------------------------------- corridor A* --- */

/* The portal-state step's helpers, inlined where the compiler would not
** (a call per new state otherwise). */
#if defined(__GNUC__) || defined(__clang__)
#define LDSI_NAV_HOT static inline __attribute__((always_inline))
#else
#define LDSI_NAV_HOT static inline
#endif

/* t clamped to [lo, hi] (lo <= hi), as t < lo ? lo : t > hi ? hi : t, nan
** and signed zeros alike; written in the operand order of the minimum and
** maximum instructions, which compilers then use instead of branches. */
static inline double clampd(double t, double lo, double hi) {
  const double u = hi < t ? hi : t;
  return lo > u ? lo : u;
}

/* Where |p - x| + |x - goal| is least for x on the line of portal E, as
** the parameter t of x = a + t (b - a), in x-z (Heron's reflection: the
** line from p to the goal, mirrored across the portal's line when both lie
** on the same side, meets that line there; the sum is convex along the
** line, so its least value on the portal is at t clamped to [0, 1]). tg,
** dg: the goal's parameter and its |cross| distance term. No root. */
static inline double line_t(const ldsi_NavEdge *E, const double *p, double tg, double dg) {
  double px = p[0] - E->a[0], pz = p[2] - E->a[2];
  double dp = fabs(E->ex * pz - E->ez * px), tp = (E->ex * px + E->ez * pz) * E->il2;
  return dp + dg > 0 ? tp + (tg - tp) * (dp / (dp + dg)) : tp;
}

/* The point of portal E where |p - x| + |x - goal| is least in x-z (its
** height interpolated along the portal). */
static inline void portal_point(const ldsi_NavEdge *E, const double *p, const double *goal,
                                double *q) {
  double gx = goal[0] - E->a[0], gz = goal[2] - E->a[2];
  double dg = fabs(E->ex * gz - E->ez * gx), tg = (E->ex * gx + E->ez * gz) * E->il2;
  double t = clampd(line_t(E, p, tg, dg), 0, 1);
  q[0] = E->a[0] + t * E->ex;
  q[1] = E->a[1] + t * (E->b[1] - E->a[1]);
  q[2] = E->a[2] + t * E->ez;
}

static inline double dist_xz(const double *a, const double *b) {
  double dx = a[0] - b[0], dz = a[2] - b[2];
  return sqrt(dx * dx + dz * dz);
}

/* Detour's heuristic scale (dtNavMeshQuery::findPath's H_SCALE): the
** midpoint rule is Detour's search, so its corridors are Detour's. */
#define LDSI_NAV_MID_HSCALE 0.999

/* Runs the corridor A* of rule s->rule until the goal polygon is popped
** (LDS_FOUND), the open list empties (LDS_NO_PATH) or the budget ends
** (LDS_RUNNING); *n counts this step's expansions. The g of a polygon is
** the area-weighted length of the point chain start, p1, ..., pk through
** the portals of its corridor, each point weighted by the cost of the
** polygon the piece crosses:
**  - LINE: pk is the point of the portal nearest the straight line from
**    p(k-1) to the goal (portal_point), so long polygons are charged what
**    a path through them costs, not the walk to their edges' midpoints;
**  - MID: pk is the portal's midpoint, fixed by the polygon's first
**    parent, as in Detour (dtNavMeshQuery::findPath).
** h is the straight line to the goal times the least allowed cost (MID:
** times Detour's 0.999), exact in the goal polygon. A polygon's record is
** replaced when the new f is smaller; one expanded before also needs a
** smaller g, which keeps the parent links acyclic (a descendant's g is
** never below its ancestor's). With bound finite (MID after LINE), a
** portal whose least start -> portal -> goal length (x-z, times the least
** cost) is not below bound is not crossed: no path through it beats the
** path found already. */
static lds_Status astar_run(lds_NavSearch *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0,
                            uint64_t *n, double bound) {
  const uint8_t *area = s->xarea;
  const uint32_t *cstart = s->xstart;
  const ldsi_NavEdge *adj = s->xadj;
  const uint32_t gen = s->gen, bgcur = s->bgcur;
  const uint32_t *bgen = s->bgen, *gmark = s->gmark;
  const bool fprune = s->fprune;
  const double *goal = s->goal, *start = s->start;
  const double *cost = s->cost;
  const bool mid = s->rule == LDSI_NAV_RULE_MID, prune = isfinite(bound);
  const double hmul = s->min_cost * (mid ? LDSI_NAV_MID_HSCALE : 1.0);
  const double lbmul = s->min_cost;
  const bool lm_on = s->lm_on && !mid; /* the bounds name the partition's edges */
  ldsi_NavRec *rec = s->rec;
  while (s->hn) {
    uint32_t P, c, c1;
    ldsi_NavRec *R;
    double cP, pg, ppt[3];
    if (max_exp && *n >= max_exp) return LDS_RUNNING;
    if (ldsi_nav_time_up(s, budget_us, t0)) return LDS_RUNNING;
    P = heap_pop(s);
    if (P == LDS_NAVMESH_NONE) break;
    (*n)++;
    s->stats.expansions++;
    if (gmark[P] == gen) {
      s->fgp = P; /* the goal polygon the corridor ends in */
      return LDS_FOUND;
    }
    R = &rec[P];
    R->done = gen;
    cP = cost[area[P]];
    pg = R->g;
    memcpy(ppt, R->pt, sizeof ppt);
    for (c = cstart[P], c1 = cstart[P + 1]; c < c1; c++) {
      const ldsi_NavEdge *E = &adj[c];
      const uint32_t Q = E->to;
      ldsi_NavRec *X = &rec[Q];
      const bool fresh = X->seen != gen;
      double cQ, q[3], g, h, f;
      if (Q == R->parent) continue; /* never straight back */
      if (fprune && E->blk != LDSI_NAV_BLK_ANY && (E->blk == LDSI_NAV_BLK_NONE || bgen[E->blk] != bgcur))
        continue;
      cQ = cost[area[Q]];
      if (cQ == INFINITY) continue;
      if (prune) {
        double x[3];
        portal_point(E, start, goal, x);
        if ((dist_xz(start, x) + dist_xz(x, goal)) * lbmul >= bound) continue;
      }
      if (!mid) {
        portal_point(E, ppt, goal, q);
      } else if (fresh) {
        q[0] = 0.5 * (E->a[0] + E->b[0]);
        q[1] = 0.5 * (E->a[1] + E->b[1]);
        q[2] = 0.5 * (E->a[2] + E->b[2]);
      } else {
        /* the point is fixed, so is h: a smaller f is a smaller g */
        g = pg + dist3(ppt, X->pt) * cP;
        if (g >= X->g) continue;
        memcpy(q, X->pt, sizeof q);
      }
      if (!mid || fresh) g = pg + dist3(ppt, q) * cP;
      h = dist3(q, goal);
      if (lm_on && gmark[Q] != gen) h = fmax(h, ldsi_navlm_bound(s->lm, s->lmg, c));
      f = g + h * (gmark[Q] == gen ? cQ : hmul);
      if (!fresh) {
        if (f >= X->f) continue;
        if (X->done == gen && g >= X->g) continue;
      } else {
        X->seen = gen;
        X->done = 0;
      }
      X->g = g;
      X->f = f;
      X->parent = P;
      X->edge = c;
      memcpy(X->pt, q, sizeof q);
      if (open_push(s, X, Q, h, f) != LDS_OK) return LDS_E_NOMEM;
    }
  }
  return LDS_NO_PATH;
}

/* cross(b - a, c - a) in x-z, lds_funnel's orientation test: >= 0 when c
** is at or left of the ray a -> b seen in the funnel's frame. */
static inline double side_xz(const double *a, const double *b, const double *c) {
  return (b[0] - a[0]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[0] - a[0]);
}

static inline bool same_xz(const double *a, const double *b) { return a[0] == b[0] && a[2] == b[2]; }

/* x-z distance from p to portal E. */
static inline double seg_dist_xz(const double *p, const ldsi_NavEdge *E) {
  double t = ((p[0] - E->a[0]) * E->ex + (p[2] - E->a[2]) * E->ez) * E->il2, dx, dz;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  dx = E->a[0] + t * E->ex - p[0];
  dz = E->a[2] + t * E->ez - p[2];
  return sqrt(dx * dx + dz * dz);
}

/* p strictly between the ends of portal E in x-z (lds_funnel's on_portal). */
static inline bool on_edge(const double *p, const ldsi_NavEdge *E) {
  double len = fabs(E->ex) + fabs(E->ez);
  double dot = (E->a[0] - p[0]) * (E->b[0] - p[0]) + (E->a[2] - p[2]) * (E->b[2] - p[2]);
  return dot < 0 && fabs(side_xz(E->a, E->b, p)) <= 1e-13 * len * len;
}

/* Keeps t in [*lo, *hi] where u0 + t (u1 - u0) >= 0. */
static inline void clip_t(double u0, double u1, double *lo, double *hi) {
  if (u0 >= 0 && u1 >= 0) return;
  if (u0 < 0 && u1 < 0) {
    *lo = 1, *hi = 0;
    return;
  }
  {
    double t = u0 / (u0 - u1);
    if (u0 < 0) *lo = t > *lo ? t : *lo;
    else *hi = t < *hi ? t : *hi;
  }
}

/* The funnel of a TAUT record's corridor, as lds_funnel keeps it: the
** apex (its length ga from the start; arec the record whose portal gave
** it) and the two sides' points (lrec, rrec: the records whose portals
** gave them). */
typedef struct TautFunnel {
  double ga, ap[3], lp[3], rp[3];
  uint32_t arec, lrec, rrec;
  double lo, hi, loL, hiR;  /* taut_range of the last portal */
} TautFunnel;

/* lds_funnel's loop over the portals of states ids[0 .. n-1] (in corridor
** order; the last is the new state, of edge k) from a funnel closed on
** its apex: a side crossed by the other side's new end becomes the apex
** and the loop goes on after that side's portal. */
static void taut_funnel_run(const ldsi_NavEdge *adj, const ldsi_NavRec *rec, const uint32_t *ids,
                            size_t n, uint32_t k, TautFunnel *F) {
  long i, li = -1, ri = -1;
  for (i = 0; i < (long)n; i++) {
    const ldsi_NavEdge *E = &adj[i + 1 < (long)n ? rec[ids[i]].edge : k];
    const double *pl = E->a, *pr = E->b;
    if (same_xz(F->ap, F->lp) && same_xz(F->ap, F->rp) && on_edge(F->ap, E)) continue;
    if (side_xz(F->ap, F->rp, pr) >= 0) {
      if (same_xz(F->ap, F->rp) || side_xz(F->ap, F->lp, pr) < 0) {
        memcpy(F->rp, pr, sizeof F->rp);
        F->rrec = ids[i];
        ri = i;
      } else { /* the left side is a corner */
        F->ga += dist3(F->ap, F->lp);
        memcpy(F->ap, F->lp, sizeof F->ap);
        memcpy(F->rp, F->lp, sizeof F->rp);
        F->arec = F->rrec = F->lrec;
        i = ri = li;
        continue;
      }
    }
    if (side_xz(F->ap, F->lp, pl) <= 0) {
      if (same_xz(F->ap, F->lp) || side_xz(F->ap, F->rp, pl) > 0) {
        memcpy(F->lp, pl, sizeof F->lp);
        F->lrec = ids[i];
        li = i;
      } else { /* the right side is a corner */
        F->ga += dist3(F->ap, F->rp);
        memcpy(F->ap, F->rp, sizeof F->ap);
        memcpy(F->lp, F->rp, sizeof F->lp);
        F->arec = F->lrec = F->rrec;
        i = li = ri;
        continue;
      }
    }
  }
}

/* The part [F->lo, F->hi] of portal E (parameter t from E->a to E->b)
** that funnel F sees: at or left of its right side, at or right of its
** left side (a side on the apex bounds nothing; all of E for a funnel
** closed on an apex inside E). F->loL and F->hiR: the bounds set by the
** left and the right side alone. */
LDSI_NAV_HOT void taut_range(TautFunnel *F, const ldsi_NavEdge *E) {
  double lo, hi, loL = 0, hiR = 1, hiL = 1, loR = 0;
  if (same_xz(F->ap, F->lp) && same_xz(F->ap, F->rp)) {
    F->lo = 0, F->hi = 1, F->loL = 0, F->hiR = 1;
    return;
  }
  /* a side that ends at E's own end (a side the step tightened) sees all
  ** of E on its side: no test */
  if (!same_xz(F->ap, F->rp) && !same_xz(F->rp, E->b))
    clip_t(side_xz(F->ap, F->rp, E->a), side_xz(F->ap, F->rp, E->b), &loR, &hiR);
  if (!same_xz(F->ap, F->lp) && !same_xz(F->lp, E->a))
    clip_t(-side_xz(F->ap, F->lp, E->a), -side_xz(F->ap, F->lp, E->b), &loL, &hiL);
  lo = loL > loR ? loL : loR;
  hi = hiL < hiR ? hiL : hiR;
  if (lo > hi) lo = 0, hi = 1, loL = 0, hiR = 1; /* rounding at a closing funnel: all of E */
  F->lo = lo, F->hi = hi, F->loL = loL, F->hiR = hiR;
}

/* The length from the start to the point t of portal E through funnel F
** (taut_range of E set in F): straight from the apex where the funnel
** sees the point, else bent at the nearer side's point. */
static double taut_dist(const TautFunnel *F, const ldsi_NavEdge *E, double t) {
  const double lo = F->lo, hi = F->hi, loL = F->loL, hiR = F->hiR;
  double y[3];
  y[0] = E->a[0] + t * E->ex;
  y[1] = E->a[1] + t * (E->b[1] - E->a[1]);
  y[2] = E->a[2] + t * E->ez;
  if (t < lo && lo == loL && loL > 0) return F->ga + dist3(F->ap, F->lp) + dist3(F->lp, y);
  if (t > hi && hi == hiR && hiR < 1) return F->ga + dist3(F->ap, F->rp) + dist3(F->rp, y);
  return F->ga + dist3(F->ap, y);
}

/* One step of the TAUT rule: the funnel F of state id's corridor extended
** by portal k (edge k of the running adjacency), as lds_funnel would pull
** it: a step that tightens a side or none is O(1); where a side becomes a
** corner, the portals after that side's portal are read back along the
** parent links (s->tbuf) and the loop runs again from the corner (a chain
** longer than the scratch, ni states: the funnel restarts on portal k
** alone, wider than the corridor's, so its bound errs short). Then the
** least length start -> portal k -> goal through this funnel (returned;
** *g the length start -> y, h [opt] the rest from the portal point y on;
** g is what the best path so far compares): y is the point
** of the portal nearest the straight line from the apex to the goal when
** the funnel sees it; when that point lies beyond a side, the path bends at
** the side's point first and y is taken nearest the line from there
** (Heron's reflection each time). Where the line on to the goal crosses
** the portal, the rest is that line's 3-D length from the apex (or the
** bend), as the pulled path runs (not bent to the portal's height at y;
** *h: that length less the piece to y). With the funnel
** exact this is a lower bound on every path through the corridor in x-z,
** and in the goal polygon (the goal in the convex polygon behind the
** portal) the corridor's pulled length. */
static double taut_step(lds_NavSearch *s, const ldsi_NavRec *rec, uint32_t id, uint32_t k,
                        TautFunnel *F, double *g, double *h) {
  const uint32_t nid = (uint32_t)s->nn; /* the new state's id, if it is kept */
  const ldsi_NavEdge *E = &s->xadj[k];
  const double *pl = E->a, *pr = E->b, *goal = s->goal;
  double lo, hi, loL, hiR, t, t0, gx, gz, dg, tg, y[3];
  const double *bend = NULL;
  uint32_t corner = LDS_NAVMESH_NONE;
  if (!(same_xz(F->ap, F->lp) && same_xz(F->ap, F->rp) && on_edge(F->ap, E))) {
    if (side_xz(F->ap, F->rp, pr) >= 0) {
      if (same_xz(F->ap, F->rp) || side_xz(F->ap, F->lp, pr) < 0) {
        memcpy(F->rp, pr, sizeof F->rp);
        F->rrec = nid;
      } else {
        corner = F->lrec;
        F->ga += dist3(F->ap, F->lp);
        memcpy(F->ap, F->lp, sizeof F->ap);
      }
    }
    if (corner == LDS_NAVMESH_NONE && side_xz(F->ap, F->lp, pl) <= 0) {
      if (same_xz(F->ap, F->lp) || side_xz(F->ap, F->rp, pl) > 0) {
        memcpy(F->lp, pl, sizeof F->lp);
        F->lrec = nid;
      } else {
        corner = F->rrec;
        F->ga += dist3(F->ap, F->rp);
        memcpy(F->ap, F->rp, sizeof F->ap);
      }
    }
    if (corner != LDS_NAVMESH_NONE) {
      /* the portals after the corner's, from the parent links */
      uint32_t *buf = s->tbuf, r;
      size_t n = 0, a, b;
      for (r = id; corner != nid && r != LDS_NAVMESH_NONE && r != corner && n < s->m->ni;
           r = rec[r].parent)
        buf[n++] = r;
      F->arec = F->lrec = F->rrec = corner;
      memcpy(F->lp, F->ap, sizeof F->lp);
      memcpy(F->rp, F->ap, sizeof F->rp);
      if (corner == nid) {
        /* the corner is this portal's own end: nothing after it yet */
      } else if (r == corner) {
        for (a = 0, b = n; a + 1 < b; a++, b--) {
          uint32_t x = buf[a];
          buf[a] = buf[b - 1];
          buf[b - 1] = x;
        }
        buf[n++] = nid;
        taut_funnel_run(s->xadj, rec, buf, n, k, F);
      } else { /* a chain longer than the scratch: the funnel restarts on k */
        memcpy(F->lp, pl, sizeof F->lp);
        memcpy(F->rp, pr, sizeof F->rp);
        F->lrec = F->rrec = nid;
      }
    }
  }
  taut_range(F, E);
  lo = F->lo, hi = F->hi, loL = F->loL, hiR = F->hiR;
  gx = goal[0] - E->a[0];
  gz = goal[2] - E->a[2];
  dg = fabs(E->ex * gz - E->ez * gx);
  tg = (E->ex * gx + E->ez * gz) * E->il2;
  t0 = t = clampd(line_t(E, F->ap, tg, dg), 0, 1);
  if (t < lo && lo == loL && loL > 0) { /* beyond the left side: bend at its point */
    bend = F->lp;
    t0 = t = clampd(line_t(E, bend, tg, dg), 0, lo);
  } else if (t > hi && hi == hiR && hiR < 1) { /* beyond the right side */
    bend = F->rp;
    t0 = t = clampd(line_t(E, bend, tg, dg), hi, 1);
  } else {
    t = clampd(t, lo, hi);
  }
  y[0] = E->a[0] + t * E->ex;
  y[1] = E->a[1] + t * (E->b[1] - E->a[1]);
  y[2] = E->a[2] + t * E->ez;
  {
    const double *base = bend ? bend : F->ap;
    const double gab = F->ga + (bend ? dist3(F->ap, bend) : 0);
    double gb, hy;
    if (t == t0 && t > 0 && t < 1) {
      /* the line on to the goal crosses the portal (t not clamped): the
      ** rest is that line in 3-D, as the pulled path runs */
      const double d = dist3(base, goal);
      gb = dist3(base, y);
      *g = gab + gb;
      if (h) *h = fmax(d - gb, 0);
      return gab + d;
    }
    gb = dist3(base, y);
    hy = dist3(y, goal);
    *g = gab + gb;
    if (h) *h = hy;
    return gab + gb + hy;
  }
}

static lds_Status build_corridor_path(lds_NavSearch *s, uint32_t last, const double *end);
static double polyline_length(const double *pts, size_t n);

/* The polygon a TAUT state stands in: the one its portal enters, its own
** for a start state. */
static inline uint32_t erec_poly(const lds_NavSearch *s, uint32_t id) {
  uint32_t e = s->erec[id].edge;
  return e == LDS_NAVMESH_NONE ? s->erec[id].spoly : s->xadj[e].to;
}

/* The lengths from the start to the ends of portal E through the funnel
** of state N (cached in N: NAN until asked). */
static void taut_ends(ldsi_NavRec *N, const ldsi_NavEdge *E) {
  if (N->d0 != N->d0) {
    TautFunnel G;
    G.ga = N->ga;
    memcpy(G.ap, N->ap, sizeof G.ap);
    memcpy(G.lp, N->lp, sizeof G.lp);
    memcpy(G.rp, N->rp, sizeof G.rp);
    taut_range(&G, E);
    N->d0 = taut_dist(&G, E, 0);
    N->d1 = taut_dist(&G, E, 1);
  }
}

/* True when a live state of portal k (edge E) is no longer by f and to
** either end of E than the lower bounds of a state extending R by E (the
** straight lines from R's apex; c the uniform cost). */
static bool taut_dominated(const lds_NavSearch *s, ldsi_NavRec *rec, uint32_t k, const ldsi_NavRec *R,
                           const ldsi_NavEdge *E, const double *goal, double c, double *fR) {
  uint32_t j;
  double f = NAN, d0 = 0, d1 = 0;
  for (j = s->phead[k]; j != LDS_NAVMESH_NONE; j = rec[j].next) {
    ldsi_NavRec *N = &rec[j];
    double tol = 1e-9 * (1 + N->f);
    if (N->hpos == LDSI_NAV_DEAD) continue;
    if (f != f) {
      /* *fR: R's apex on to the goal, the same for every portal of R */
      if (*fR != *fR) *fR = (R->ga + dist3(R->ap, goal)) * c;
      f = *fR;
      d0 = R->ga + dist3(R->ap, E->a);
      d1 = R->ga + dist3(R->ap, E->b);
    }
    if (f < N->f - tol) continue;
    taut_ends(N, E);
    if (d0 >= N->d0 - tol && d1 >= N->d1 - tol) return true;
  }
  return false;
}

/* The TAUT rule's corridor A* (uniform costs: every allowed area costs
** s->min_cost), stopping like astar_run; its keys are x-z lengths, not
** costs (the one cost scales every key alike, and a length times a cost
** near DBL_MAX would overflow to inf and drop every state: the path is
** found and its cost reported as overflowing, as in the other modes); the portal-state idea as in
** Polyanya (Cui, Harabor & Grastien, IJCAI 2017), with one funnel per
** state instead of a root and an interval. Its states are portal states,
** not polygons: a state is a crossable half-edge (the polygon it enters)
** with the funnel of one corridor through it (taut_step), so two
** corridors into one large polygon by different portals are both kept.
** g is the funnel's least length from the start to the portal on the way
** to the goal, h the straight rest: f is a lower bound on the corridor's
** pulled length (exact with the funnel exact). A new state at a portal is dropped when a live state
** there is no longer by f and no longer to either end of the portal (a
** heuristic dominance test: the two funnels' lengths are compared at three
** numbers, not along the whole portal); a live state the new one beats so
** dies (it stays in the pool, its heap item is skipped); at most
** s->taut_cap live states per portal (the one of largest f gives way).
** States are never changed once made, so parent links are acyclic. A
** state popped in the goal polygon is pulled (build_corridor_path): when
** its pulled length exceeds its f (a funnel that forgot portals, see
** taut_step) and another state is cheaper, it goes back to the open list
** with that length; else it is the answer. Relaxations with f >= bound (a
** path found already) are not kept. */
static lds_Status astar_run_taut(lds_NavSearch *s, uint64_t max_exp, uint64_t budget_us,
                                 uint64_t t0, uint64_t *n, double bound) {
  const uint8_t *area = s->xarea;
  const uint32_t *cstart = s->xstart;
  const ldsi_NavEdge *adj = s->xadj;
  const uint32_t gen = s->gen, bgcur = s->bgcur;
  const uint32_t *bgen = s->bgen, *gmark = s->gmark;
  const bool fprune = s->fprune;
  const double *goal = s->goal;
  const double *cost = s->cost;
  const double c = 1.0; /* keys in length units (above) */
  const bool partial = s->p.partial; /* h only for the nearest reached state */
  const bool lm_on = s->lm_on;
  ldsi_NavRec *rec = s->erec;
  while (s->hn || s->nxt != LDS_NAVMESH_NONE) {
    uint32_t id, P, from, k, k1, pend = LDS_NAVMESH_NONE;
    double pend_f = 0, fR = NAN;
    ldsi_NavRec *R;
    if (max_exp && *n >= max_exp) return LDS_RUNNING;
    if (ldsi_nav_time_up(s, budget_us, t0)) return LDS_RUNNING;
    if (s->stats.pushes > s->taut_push_limit && bound == INFINITY) {
      s->via_opt = true; /* lds_navsearch_step goes on with the optimal search */
      return LDS_RUNNING;
    }
    id = heap_pop(s);
    if (id == LDS_NAVMESH_NONE) break;
    (*n)++;
    s->stats.expansions++;
    P = erec_poly(s, id);
    R = &rec[id];
    if (gmark[P] == gen) {
      /* f is a lower bound (the funnel forgets portals after a corner):
      ** the corridor's pulled length decides, and a corridor found longer
      ** than its bound goes back to the open list with that length */
      double len;
      lds_Status st;
      if (R->exact != gen) {
        st = build_corridor_path(s, id, goal);
        if (st != LDS_OK) return st;
        s->built_rec = id;
        len = polyline_length(s->pts, s->npts) * c;
        R->exact = gen;
        if (len > R->f && s->hn && s->heap[0].f < len) {
          R->f = len;
          R->hpos = LDSI_NAV_OPEN;
          if (!heap_push(s, id, len)) return open_nomem(s);
          continue;
        }
      }
      s->goal_rec = id;
      return LDS_FOUND;
    }
    R->done = gen;
    from = R->parent == LDS_NAVMESH_NONE ? LDS_NAVMESH_NONE : erec_poly(s, R->parent);
    for (k = cstart[P], k1 = cstart[P + 1]; k < k1; k++) {
      const ldsi_NavEdge *E = &adj[k];
      const uint32_t Q = E->to;
      TautFunnel F;
      ldsi_NavRec *X;
      uint32_t j, nid, live = 0, worst = LDS_NAVMESH_NONE;
      double g, h = INFINITY, f, d0 = NAN, d1 = NAN;
      if (Q == from) continue; /* never straight back */
      if (fprune && E->blk != LDSI_NAV_BLK_ANY && (E->blk == LDSI_NAV_BLK_NONE || bgen[E->blk] != bgcur))
        continue;
      if (cost[area[Q]] == INFINITY) continue;
      /* every path through the new funnel passes its parent's apex: lengths
      ** from there bound the new state's f and its lengths to the portal's
      ** ends from below, so a live state no longer than those bounds drops
      ** it before the step (the same answer as the test after it) */
      if (s->pgen[k] == gen && taut_dominated(s, rec, k, R, E, goal, c, &fR)) continue;
      F.ga = R->ga;
      memcpy(F.ap, R->ap, sizeof F.ap);
      memcpy(F.lp, R->lp, sizeof F.lp);
      memcpy(F.rp, R->rp, sizeof F.rp);
      F.arec = R->arec;
      F.lrec = R->lrec;
      F.rrec = R->rrec;
      f = taut_step(s, rec, id, k, &F, &g, partial ? &h : NULL) * c;
      if (lm_on && gmark[Q] != gen) {
        /* every path on passes the apex, then the portal: the landmarks'
        ** bound from the portal on may exceed the straight line */
        double lb = F.ga + seg_dist_xz(F.ap, E) + ldsi_navlm_bound(s->lm, s->lmg, k);
        if (lb > f) f = lb;
      }
      if (f >= bound) continue; /* no better than the path found already */
      /* the portal's states: one no shorter at both ends and by f drops
      ** the new one; one the new one is no longer than there dies */
      if (s->pgen[k] == gen) {
        bool dominated = false;
        for (j = s->phead[k]; j != LDS_NAVMESH_NONE; j = rec[j].next) {
          ldsi_NavRec *N = &rec[j];
          double e0, e1, tol = 1e-9 * (1 + N->f);
          if (N->hpos == LDSI_NAV_DEAD) continue;
          if (d0 != d0) {
            d0 = taut_dist(&F, E, 0);
            d1 = taut_dist(&F, E, 1);
          }
          taut_ends(N, E);
          e0 = N->d0;
          e1 = N->d1;
          if (f >= N->f - tol && d0 >= e0 - tol && d1 >= e1 - tol) {
            dominated = true;
            break;
          }
          if (f <= N->f + tol && d0 <= e0 + tol && d1 <= e1 + tol) {
            N->hpos = LDSI_NAV_DEAD;
            continue;
          }
          live++;
          if (worst == LDS_NAVMESH_NONE || N->f > rec[worst].f) worst = j;
        }
        if (dominated) continue;
        if (live >= s->taut_cap) {
          if (!(f < rec[worst].f)) continue;
          rec[worst].hpos = LDSI_NAV_DEAD;
        }
      } else {
        s->pgen[k] = gen;
        s->phead[k] = LDS_NAVMESH_NONE;
      }
      if (s->nn == s->ecap) {
        size_t nc = 2 * s->ecap;
        ldsi_NavRec *nr = (ldsi_NavRec *)ldsi_realloc(&s->env, s->erec, s->ecap * sizeof *nr, nc * sizeof *nr);
        if (!nr) {
          snprintf(s->msg, sizeof s->msg, "lds_navsearch: out of memory growing the portal states");
          return LDS_E_NOMEM;
        }
        s->erec = s->hrec = rec = nr;
        s->ecap = nc;
        R = &rec[id];
      }
      nid = (uint32_t)s->nn++;
      X = &rec[nid];
      X->seen = gen;
      X->done = 0;
      X->f = f;
      X->g = g * c;
      X->exact = 0;
      X->d0 = d0;
      X->d1 = d1;
      X->parent = id;
      X->edge = k;
      X->ga = F.ga;
      memcpy(X->ap, F.ap, sizeof F.ap);
      memcpy(X->lp, F.lp, sizeof F.lp);
      memcpy(X->rp, F.rp, sizeof F.rp);
      X->arec = F.arec;
      X->lrec = F.lrec;
      X->rrec = F.rrec;
      X->next = s->phead[k];
      s->phead[k] = nid;
      /* the least child so far waits in pend (the next popped when it is
      ** less than every heap item: then it never enters the heap) */
      if (partial && h < s->best_h) {
        s->best_h = h;
        s->best = nid;
      }
      X->hpos = LDSI_NAV_OPEN;
      {
        /* the lesser of it and pend waits, the other goes to the heap
        ** (selected without a branch on the keys) */
        const bool take = (pend == LDS_NAVMESH_NONE) | (f < pend_f);
        const uint32_t o = take ? pend : nid;
        const double of = take ? pend_f : f;
        pend = take ? nid : pend;
        pend_f = take ? f : pend_f;
        if (o == LDS_NAVMESH_NONE) continue;
        if (!heap_push(s, o, of)) return open_nomem(s);
      }
    }
    if (pend != LDS_NAVMESH_NONE) {
      ldsi_NavHeapItem it;
      it.f = pend_f;
      it.id = pend;
      if (s->hn && !item_less(&it, &s->heap[0])) {
        if (!heap_push(s, pend, pend_f)) return open_nomem(s);
      } else {
        s->nxt = pend;
        s->nxt_f = pend_f;
        s->stats.pushes++;
        s->stats.peak_open = s->hn + 1 > s->stats.peak_open ? s->hn + 1 : s->stats.peak_open;
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

/* Corridor from the start polygon to polygon `last` (the parent links of
** this search), then the funnel to `end`. */
static lds_Status build_corridor_path(lds_NavSearch *s, uint32_t last, const double *end) {
  size_t n = 0, i, np = 0;
  uint32_t id;
  const ldsi_NavRec *rec = s->hrec;
  const bool taut = s->rule == LDSI_NAV_RULE_TAUT;
  for (id = last; id != LDS_NAVMESH_NONE; id = rec[id].parent)
    if (++n > (taut ? s->nn : s->m->np)) { /* cannot happen: the links are acyclic (astar_run*) */
      snprintf(s->msg, sizeof s->msg, "lds_navsearch: corridor links form a cycle");
      return s->status = LDS_E_STATE;
    }
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
  for (id = last; id != LDS_NAVMESH_NONE; id = rec[id].parent) {
    --i;
    s->corr[i] = taut ? erec_poly(s, id) : id;
    if (i > 0) {
      const ldsi_NavEdge *E = &s->xadj[rec[id].edge];
      memcpy(s->portals[i - 1].left, E->a, 3 * sizeof(double));
      memcpy(s->portals[i - 1].right, E->b, 3 * sizeof(double));
    }
  }
  if (taut) {
    /* portal states may enter a polygon twice (round a loop): the loop is
    ** cut, which keeps the chain linked (portals[i - 1] enters corr[i]);
    ** pos[p] is p's place in the cut chain while corr[pos[p]] == p */
    uint32_t *pos = s->cpos, *c = s->corr;
    size_t j, m = 0;
    for (j = 0; j < n; j++) {
      uint32_t p = c[j];
      if (pos[p] < m && c[pos[p]] == p) {
        m = pos[p] + 1;
        continue;
      }
      pos[p] = (uint32_t)m;
      c[m] = p;
      if (m > 0) s->portals[m - 1] = s->portals[j - 1];
      m++;
    }
    n = s->ncorr = m;
  }
  /* the funnel emits at most start, one corner per portal, goal */
  if (n + 1 > s->ptscap) {
    double *c = (double *)ldsi_realloc(&s->env, s->pts, s->ptscap * 3 * sizeof(double), (n + 1) * 3 * sizeof(double));
    if (!c) return nomem(s);
    s->pts = c;
    s->ptscap = n + 1;
  }
  if (lds_funnel(s->start, end, s->portals, n - 1, s->pts, s->ptscap, &np) == LDS_E_LIMIT) {
    double *c = (double *)ldsi_realloc(&s->env, s->pts, s->ptscap * 3 * sizeof(double), np * 3 * sizeof(double));
    if (!c) return nomem(s);
    s->pts = c;
    s->ptscap = np;
    lds_funnel(s->start, end, s->portals, n - 1, s->pts, s->ptscap, &np);
  }
  s->npts = np;
  return LDS_OK;
}

static double polyline_length(const double *pts, size_t n) {
  double len = 0;
  size_t i;
  for (i = 1; i < n; i++) len += dist3(pts + 3 * (i - 1), pts + 3 * i);
  return len;
}

/* What the thorough mode compares its two paths by: the length (uniform
** costs) or the area-weighted cost walked through the mesh. */
static double path_score(lds_NavSearch *s) {
  double len, w;
  char msg[LDS_ERRMSG_SIZE];
  if (s->uniform) return polyline_length(s->pts, s->npts);
  if (ldsi_nav_walk(s->m, s->pts, s->npts, s->sp, s->cost, &len, &w, msg) != LDS_OK) return INFINITY;
  return w;
}

/* Swaps the result buffers (path points, corridor) with the saved ones. */
static void swap_saved(lds_NavSearch *s) {
  double *p = s->pts;
  uint32_t *c = s->corr;
  size_t t;
  s->pts = s->pts0, s->pts0 = p;
  t = s->ptscap, s->ptscap = s->pts0cap, s->pts0cap = t;
  t = s->npts, s->npts = s->npts0, s->npts0 = t;
  s->corr = s->corr0, s->corr0 = c;
  t = s->corrcap, s->corrcap = s->corr0cap, s->corr0cap = t;
  t = s->ncorr, s->ncorr = s->ncorr0, s->ncorr0 = t;
}

/* Whether the x-z segment from the start to the goal stays inside allowed
** polygons of the merged partition, walked by adjacency from the start's
** polygon to the goal's (the ray walk of Detour's raycast, over convex
** polygons: the segment's line crosses two edges of each, and it leaves
** through the one it crosses outwards). With one cost for every allowed
** area that segment is the shortest path, in x-z and in 3-D (no path
** between two points is shorter than the straight line). The walk gives
** up at a wall, a blocked polygon, a polygon vertex on or near the line
** (which polygon comes next is then a close call), or more steps than
** polygons: a straight answer never rests on a close call, and the search
** answers the rest. One expansion per polygon (the goal's too), under the
** budget like the search's: returns 1 (s->pts holds start and goal), 0
** (gave up: the search runs) or -1 (budget spent: resumed next step). */
static int straight_walk(lds_NavSearch *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0,
                         uint64_t *n) {
  const ldsi_MergedMesh *mm = s->fmm;
  const lds_Navmesh *m = s->m;
  const double *a = s->start, *b = s->goal;
  const double len = fabs(b[0] - a[0]) + fabs(b[2] - a[2]);
  if (!mm) return 0;
  for (;;) {
    const uint32_t cur = s->line_cur, st = mm->pstart[cur], nv = mm->pstart[cur + 1] - st;
    uint32_t k, exit_k = LDS_NAVMESH_NONE, next;
    double tout = INFINITY;
    if (max_exp && *n >= max_exp) return -1;
    if (ldsi_nav_time_up(s, budget_us, t0)) return -1;
    (*n)++;
    s->stats.expansions++;
    if (cur == s->fgp) break;
    if (++s->line_n > s->fnp) return 0;
    /* the sides of the polygon's vertices to the line through start and
    ** goal: the line crosses the two edges whose ends lie on opposite
    ** sides; of those, the segment leaves through the one it crosses to
    ** the edge's outside (inside is cross <= 0, the mesh's winding). A
    ** vertex on or near the line is a close call: give up */
    {
      double d0 = 0, dk, dprev = 0;
      for (k = 0; k <= nv; k++) {
        const double *v = ldsi_nm_v(m, mm->pv[st + (k < nv ? k : 0)]);
        dk = k < nv ? ldsi_cross3(a, b, v) : d0;
        if (k < nv && fabs(dk) <= 1e-9 * len * (len + fabs(v[0] - a[0]) + fabs(v[2] - a[2])))
          return 0;
        if (k == 0) {
          d0 = dprev = dk;
          continue;
        }
        if ((dprev < 0) != (dk < 0)) {
          const double *u = ldsi_nm_v(m, mm->pv[st + k - 1]), *w = v;
          const double c0 = ldsi_cross3(u, w, a), c1 = ldsi_cross3(u, w, b);
          if (c1 > c0) {
            exit_k = k - 1;
            tout = c0 / (c0 - c1);
            break;
          }
        }
        dprev = dk;
      }
    }
    /* no exit, the goal in this polygon but not its polygon, or an exit
    ** behind the entry */
    if (exit_k == LDS_NAVMESH_NONE || !(tout < 1) || tout < s->line_tin - 1e-9) return 0;
    next = mm->pn[st + exit_k];
    if (next == LDS_NAVMESH_NONE || s->cost[mm->area[next]] == INFINITY) return 0;
    s->line_tin = tout;
    s->line_cur = next;
  }
  s->npts = 0;
  return ldsi_nav_push_point(s, a) && ldsi_nav_push_point(s, b) ? 1 : 0;
}

/* The funnel query's search: the straight segment first when line_try
** (straight_walk); else, with one cost and thorough, the TAUT portal
** states alone; else the LINE corridor over the merged partition and, with
** thorough, then the MID corridor (Detour's, over the mesh's own polygons)
** bounded by the LINE path's score, the path of the two with the smaller
** score kept (LINE on a tie). Pruned by blocks when s->fprune
** (funnel_query). The path is built here (the funnel of each corridor);
** build_path keeps it. */
static lds_Status astar_step(lds_NavSearch *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0) {
  uint64_t n = 0;
  if (s->line_try) {
    int r = straight_walk(s, max_exp, budget_us, t0, &n);
    if (r < 0) return LDS_RUNNING;
    s->line_try = false;
    if (r > 0) return LDS_FOUND;
  }
  for (;;) {
    const double bound = s->have0 ? s->len0 : INFINITY;
    lds_Status st = s->rule == LDSI_NAV_RULE_TAUT ? astar_run_taut(s, max_exp, budget_us, t0, &n, bound)
                                                  : astar_run(s, max_exp, budget_us, t0, &n, bound);
    if (st == LDS_RUNNING) return st;
    if (s->rule == LDSI_NAV_RULE_TAUT && !s->have0) {
      if (st != LDS_FOUND) return st;
      if (s->built_rec != s->goal_rec) {
        st = build_corridor_path(s, s->goal_rec, s->goal);
        if (st != LDS_OK) return st;
      }
      return LDS_FOUND;
    }
    if (s->rule == LDSI_NAV_RULE_LINE) {
      double straight;
      if (st != LDS_FOUND) return st;
      st = build_corridor_path(s, s->fgp, s->goal);
      if (st != LDS_OK) return st;
      straight = dist3(s->start, s->goal) * s->min_cost;
      s->len0 = path_score(s);
      /* nothing beats a corridor of one polygon or the straight line */
      if (!s->p.thorough || s->ncorr <= 1 || s->len0 <= straight) return LDS_FOUND;
      swap_saved(s);
      s->have0 = true;
      if (s->uniform) {
        /* the portal states' search, over the same partition */
        s->rule = LDSI_NAV_RULE_TAUT;
      } else {
        /* Detour's own search: over the mesh's polygons */
        s->rule = LDSI_NAV_RULE_MID;
        s->fsp = s->sp;
        s->fgp = s->gp;
        s->xstart = s->cstart;
        s->xadj = s->adj;
        s->xarea = s->m->area;
      }
      search_reset(s);
      continue;
    }
    /* the second search done: keep its path only when strictly better */
    if (st < 0) return st;
    if (st == LDS_FOUND) {
      if (s->rule != LDSI_NAV_RULE_TAUT || s->built_rec != s->goal_rec) {
        st = build_corridor_path(s, s->rule == LDSI_NAV_RULE_TAUT ? s->goal_rec : s->fgp, s->goal);
        if (st != LDS_OK) return st;
      }
      if (path_score(s) < s->len0) return LDS_FOUND;
    }
    swap_saved(s);
    return LDS_FOUND;
  }
}

/* The funnel's best path so far (the partial path once the search ran
** dry) into s->pts / s->corr: the corridor of the record of least g into
** the merged polygon holding the partial target (ldsi_nav_partial_target
** over the merged polygons the running corridor search has reached:
** records of this generation, or the polygons of its portal states), then
** the funnel to the target. The running search's scratch path is
** forgotten (built_rec). LDS_OK, LDS_NO_PATH (nothing reached), or an
** error of build_corridor_path. */
static lds_Status funnel_best(lds_NavSearch *s) {
  uint32_t gen, mp, p;
  double end[3];
  lds_Status st;
  if (++s->rgcur == 0) {
    memset(s->rgen, 0, (s->m->np + 1) * sizeof(uint32_t));
    s->rgcur = 1;
  }
  gen = s->rgcur;
  if (s->rule == LDSI_NAV_RULE_TAUT) {
    uint32_t id;
    for (id = 0; id < s->nn; id++) {
      mp = erec_poly(s, id);
      if (s->rgen[mp] != gen || s->erec[id].g < s->erec[s->rsel[mp]].g) {
        s->rgen[mp] = gen;
        s->rsel[mp] = id;
      }
    }
  } else {
    for (mp = 0; mp < s->fnp; mp++)
      if (s->rec[mp].seen == s->gen) {
        s->rgen[mp] = gen;
        s->rsel[mp] = mp;
      }
  }
  p = ldsi_nav_partial_target(s, s->fpmap, s->rgen, gen, end);
  if (p == LDS_NAVMESH_NONE) return LDS_NO_PATH;
  st = build_corridor_path(s, s->rsel[s->fpmap[p]], end);
  s->built_rec = LDS_NAVMESH_NONE;
  return st;
}

uint32_t ldsi_nav_partial_target(const lds_NavSearch *s, const uint32_t *pmap,
                                 const uint32_t *mark, uint32_t gen, double out[3]) {
  const lds_Navmesh *m = s->m;
  const double *g = s->goal;
  uint32_t p, best = LDS_NAVMESH_NONE;
  double bxz = INFINITY, b3 = INFINITY, q[3];
  for (p = 0; p < m->np; p++) {
    double dxz, d3;
    if (mark[pmap[p]] != gen || !isfinite(s->cost[m->area[p]])) continue;
    closest_on_poly(m, p, g, q);
    dxz = (q[0] - g[0]) * (q[0] - g[0]) + (q[2] - g[2]) * (q[2] - g[2]);
    if (dxz > bxz) continue;
    d3 = dxz + (q[1] - g[1]) * (q[1] - g[1]);
    if (dxz == bxz && d3 >= b3) continue;
    bxz = dxz;
    b3 = d3;
    best = p;
    memcpy(out, q, sizeof q);
  }
  return best;
}

/* True when mesh polygon p is one of the allowed polygons holding the goal. */
static bool goal_holder(const lds_NavSearch *s, uint32_t p) {
  uint32_t i;
  for (i = 0; i < s->ngh; i++)
    if (s->gh[i] == p) return true;
  return false;
}

/* The funnel's corridor in polygons of the mesh: the merged corridor's
** path walked through the mesh from the start polygon
** (ldsi_nav_walk_chain), a chain of polygons linked by shared edges, each
** holding a point of the path. */
static lds_Status mesh_corridor(lds_NavSearch *s) {
  char msg[LDS_ERRMSG_SIZE];
  lds_Status st = ldsi_nav_walk_chain(s->m, &s->env, s->pts, s->npts, s->sp, s->cost, &s->corr,
                                      &s->corrcap, &s->ncorr, msg);
  if (st == LDS_E_NOMEM) return nomem(s);
  size_t i, n = 0;
  uint32_t *c = s->corr, *pos = s->cpos;
  if (st != LDS_OK) { /* cannot happen: the funnel's path lies in its corridor */
    snprintf(s->msg, sizeof s->msg, "lds_navsearch: the path leaves its corridor (%.180s)", msg);
    return s->status = LDS_E_STATE;
  }
  /* a polygon met again (the walk passed round a vertex and back): the
  ** loop between is cut, which keeps the chain linked; pos[p] is p's
  ** place in the chain while c[pos[p]] == p */
  for (i = 0; i < s->ncorr; i++) {
    uint32_t p = c[i];
    if (pos[p] < n && c[pos[p]] == p) {
      n = pos[p] + 1;
      continue;
    }
    pos[p] = (uint32_t)n;
    c[n++] = p;
  }
  /* the goal on an edge or a vertex: the walk may end across it, in a
  ** polygon not holding the goal or not allowed; the chain then ends at
  ** its first polygon holding the goal, else goes on into one linked to
  ** its last (lowest id) */
  if (s->status == LDS_FOUND && s->ngh && !goal_holder(s, c[n - 1])) {
    size_t j;
    for (j = 0; j < n && !goal_holder(s, c[j]); j++) {}
    if (j < n) {
      n = j + 1;
    } else {
      const uint32_t *nb = s->m->pn + s->m->pstart[c[n - 1]];
      uint32_t k, nk = s->m->pstart[c[n - 1] + 1] - s->m->pstart[c[n - 1]], add = LDS_NAVMESH_NONE;
      for (k = 0; k < nk; k++)
        if (nb[k] != LDS_NAVMESH_NONE && goal_holder(s, nb[k]) && nb[k] < add) add = nb[k];
      if (add != LDS_NAVMESH_NONE) {
        if (n == s->corrcap) { /* a full buffer grows: the goal polygon is never dropped */
          c = (uint32_t *)ldsi_realloc(&s->env, s->corr, s->corrcap * sizeof(uint32_t),
                                       (n + 1) * sizeof(uint32_t));
          if (!c) return nomem(s);
          s->corr = c;
          s->corrcap = n + 1;
        }
        c[n++] = add;
      }
    }
  }
  s->ncorr = n;
  return LDS_OK;
}

static lds_Status build_path(lds_NavSearch *s) {
  lds_Status st = LDS_OK;
  s->path_built = true;
  s->have_path = false;
  if (s->status == LDS_FOUND) {
    /* the funnel's path and corridor were built by astar_step, Polyanya's
    ** path by Polyanya (no corridor) */
    if (s->p.algo != LDS_NAV_FUNNEL || s->via_opt) s->ncorr = 0;
    s->is_partial = false;
  } else if (s->p.partial && s->best != LDS_NAVMESH_NONE && s->p.algo == LDS_NAV_FUNNEL) {
    /* (Polyanya fills its partial path itself, lds_navsearch_step) */
    st = funnel_best(s);
    if (st == LDS_NO_PATH) {
      s->npts = s->ncorr = 0;
      return LDS_OK;
    }
    s->is_partial = true;
  } else {
    s->npts = s->ncorr = 0;
    return LDS_OK;
  }
  if (st != LDS_OK) return st;
  /* the corridor in mesh polygons costs a walk of the path: done when asked */
  s->corr_pending = s->p.algo == LDS_NAV_FUNNEL && s->npts > 0;
  s->have_path = s->npts > 0;
  return finish_path(s);
}

/* The portal states' search of a funnel query gave way (astar_run_taut,
** s->via_opt): the optimal search (Polyanya) takes the query over, with
** the landmark bounds as an optimal query has them. Its path is the
** shortest, so never longer than the corridor the portal states would
** have pulled; the corridor is walked from it when asked, as for any
** funnel path. */
static lds_Status taut_to_optimal(lds_NavSearch *s) {
  if (funnel_partition(s) && s->lm) {
    ldsi_navlm_goal(s->lmg, s->fpmap[s->gp], s->goal);
    s->lm_on = true;
  }
  return ldsi_polyanya_start(s);
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
  s->clk_e0 = s->stats.expansions;
  s->clk_next = s->clk_e0 + 1; /* the clock after the first expansion */
  if (s->p.algo == LDS_NAV_OPTIMAL || s->via_opt) {
    st = ldsi_polyanya_step(s, b ? b->max_expansions : 0, b ? b->budget_us : 0, t0);
  } else {
    const uint64_t e0 = s->stats.expansions, max_exp = b ? b->max_expansions : 0;
    st = astar_step(s, max_exp, b ? b->budget_us : 0, t0);
    if (st == LDS_RUNNING && s->via_opt) {
      /* the portal states gave way: Polyanya from here, in this step with
      ** what is left of its expansions (none left: from the next step) */
      const uint64_t used = s->stats.expansions - e0;
      st = taut_to_optimal(s);
      if (st == LDS_RUNNING && (!max_exp || used < max_exp))
        st = ldsi_polyanya_step(s, max_exp ? max_exp - used : 0, b ? b->budget_us : 0, t0);
    }
  }
  s->status = st;
  if (st != LDS_RUNNING) {
    s->started = false;
    if (st >= 0 && (st == LDS_FOUND || (s->p.algo == LDS_NAV_FUNNEL && !s->via_opt))) {
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
  if (!s->path_built && s->status == LDS_NO_PATH && s->p.algo == LDS_NAV_FUNNEL && !s->via_opt)
    build_path(s);
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
  if (s->have_path && s->corr_pending) {
    s->corr_pending = false;
    if (mesh_corridor(s) != LDS_OK) { /* out of memory: s's status and message say so */
      s->ncorr = 0;
      if (n) *n = 0;
      return NULL;
    }
  }
  if (n) *n = s->have_path ? s->ncorr : 0;
  return s->have_path ? s->corr : NULL;
}

bool lds_navsearch_is_partial(lds_NavSearch *s) {
  if (!s) return false;
  ensure_result(s);
  return s->have_path && s->is_partial;
}

/* Copies n points into the best-so-far buffer; false on no memory. */
static bool keep_partial(lds_NavSearch *s, const double *pts, size_t n) {
  if (n > s->ppcap) {
    double *c = (double *)ldsi_realloc(&s->env, s->ppts, s->ppcap * 3 * sizeof(double),
                                       n * 3 * sizeof(double));
    if (!c) return false;
    s->ppts = c;
    s->ppcap = n;
  }
  if (n) memcpy(s->ppts, pts, n * 3 * sizeof(double));
  s->nppts = n;
  return true;
}

bool ldsi_nav_keep_best(lds_NavSearch *s) {
  bool ok = keep_partial(s, s->pts, s->npts);
  s->npts = 0; /* s->pts is the running search's scratch */
  s->pkept = ok;
  return ok;
}

const double *lds_navsearch_partial_points(lds_NavSearch *s, size_t *n, bool *partial) {
  if (n) *n = 0;
  if (partial) *partial = true;
  if (!s) return NULL;
  if (s->status == LDS_FOUND || (s->status == LDS_NO_PATH && !s->started)) {
    ensure_result(s);
    if (s->have_path) {
      if (n) *n = s->npts;
      if (partial) *partial = s->is_partial;
      return s->pts;
    }
  }
  if ((s->status != LDS_RUNNING && s->status != LDS_NO_PATH) || s->best == LDS_NAVMESH_NONE)
    return NULL; /* no query, an error, or a blocked start */
  if (s->early) {
    /* ended at its start: the start's polygon is all it reached */
    double pt[6];
    size_t k = 1;
    memcpy(pt, s->start, 3 * sizeof(double));
    closest_on_poly(s->m, s->sp, s->goal, pt + 3);
    if (memcmp(pt, pt + 3, 3 * sizeof(double)) != 0) k = 2;
    if (!keep_partial(s, pt, k)) return NULL;
  } else if (s->pkept) {
    /* the optimal mode's second search runs (to the partial target): the
    ** path kept when the first one ran dry, the best known until it ends */
  } else if (s->p.algo == LDS_NAV_FUNNEL && s->have0) {
    /* thorough's second search runs: the first one's path reaches the goal */
    if (!keep_partial(s, s->pts0, s->npts0)) return NULL;
  } else {
    lds_Status st = s->p.algo == LDS_NAV_OPTIMAL ? ldsi_polyanya_best(s) : funnel_best(s);
    bool ok = st == LDS_OK && keep_partial(s, s->pts, s->npts);
    s->npts = 0; /* s->pts is the running search's scratch */
    if (!ok) return NULL;
  }
  if (n) *n = s->nppts;
  if (partial)
    *partial = !(s->nppts && memcmp(s->ppts + 3 * (s->nppts - 1), s->goal, 3 * sizeof(double)) == 0);
  return s->ppts;
}

bool ldsi_navsearch_share_landmarks(lds_NavSearch *dst, const lds_NavSearch *src) {
  if (!src->lm || dst->lm == src->lm) return true;
  if (!dst->lmg) {
    dst->lmg = (ldsi_NavLmGoal *)ldsi_alloc(&dst->env, sizeof *dst->lmg);
    if (!dst->lmg) return false;
  }
  ldsi_navlm_release(dst->lm);
  dst->lm = src->lm;
  dst->lm->refs++;
  return true;
}

lds_Status lds_navsearch_share_tables(lds_NavSearch *dst, const lds_NavSearch *src) {
  if (!dst || !src || dst->m != src->m) return LDS_E_ARG;
  if (dst->started) return LDS_E_STATE;
  return ldsi_navsearch_share_landmarks(dst, src) ? LDS_OK : LDS_E_NOMEM;
}
