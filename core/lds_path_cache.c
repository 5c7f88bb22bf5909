/* SPDX-License-Identifier: MIT */
/*
** lds_path_cache.c — the path cache (lds_path_cache.h): per entry, a
** Dijkstra search rooted at the goal over the reversed moves (the forward
** move v -> u costs its length times the effective cost of u, the cell
** entered), resumable, with one record per padded cell tagged by a
** generation so that a reset is O(1) (lds_path_cache_internal.h); growing
** a tree and answering from it. Edits: lds_path_cache_edit.c.
*/
#include "lds_path_cache_internal.h"

#include <string.h>

const double ldsi_pc_len[8] = {1.0, 1.0, 1.0, 1.0, LDSI_SQRT2, LDSI_SQRT2, LDSI_SQRT2, LDSI_SQRT2};

/* --------------------------------------------------------- open list -- */

static inline bool pc_less(const PcOpen *a, const PcOpen *b) {
  return a->g < b->g || (a->g == b->g && a->id < b->id);
}

static void pc_set_pos(PcEntry *e, uint32_t id, uint32_t pos) {
  e->rec[id].posdir = pos << 4 | (e->rec[id].posdir & 15u);
}

static void pc_up(PcEntry *e, size_t i) {
  PcOpen x = e->open[i];
  while (i > 0) {
    size_t p = (i - 1) / 2;
    if (!pc_less(&x, &e->open[p])) break;
    e->open[i] = e->open[p];
    pc_set_pos(e, e->open[i].id, (uint32_t)i);
    i = p;
  }
  e->open[i] = x;
  pc_set_pos(e, x.id, (uint32_t)i);
}

static void pc_down(PcEntry *e, size_t i) {
  PcOpen x = e->open[i];
  for (;;) {
    size_t l = 2 * i + 1, m;
    if (l >= e->on) break;
    m = (l + 1 < e->on && pc_less(&e->open[l + 1], &e->open[l])) ? l + 1 : l;
    if (!pc_less(&e->open[m], &x)) break;
    e->open[i] = e->open[m];
    pc_set_pos(e, e->open[i].id, (uint32_t)i);
    i = m;
  }
  e->open[i] = x;
  pc_set_pos(e, x.id, (uint32_t)i);
}

bool ldsi_pc_push(lds_PathCache *pc, PcEntry *e, uint32_t id, double g) {
  PcRec *r = &e->rec[id];
  uint32_t pos = r->posdir >> 4;
  if (r->gen == e->gen && pos != PC_POS_NONE) { /* open: decrease */
    e->open[pos].g = g;
    pc_up(e, pos);
    return true;
  }
  if (e->on == e->ocap) {
    size_t ncap = e->ocap ? e->ocap * 2 : 1024;
    PcOpen *no = (PcOpen *)ldsi_realloc(&pc->env, e->open, e->ocap * sizeof(PcOpen),
                                        ncap * sizeof(PcOpen));
    if (!no) return false;
    e->open = no;
    e->ocap = ncap;
  }
  e->open[e->on].g = g;
  e->open[e->on].id = id;
  e->open[e->on].pad = 0;
  e->on++;
  pc_up(e, e->on - 1);
  return true;
}

void ldsi_pc_remove(PcEntry *e, size_t pos) {
  uint32_t id;
  pc_set_pos(e, e->open[pos].id, PC_POS_NONE);
  e->on--;
  if (pos == e->on) return;
  e->open[pos] = e->open[e->on];
  id = e->open[pos].id;
  pc_up(e, pos);
  if ((e->rec[id].posdir >> 4) == pos) pc_down(e, pos);
}

static uint32_t pc_pop(PcEntry *e) {
  uint32_t id = e->open[0].id;
  e->on--;
  if (e->on) {
    e->open[0] = e->open[e->on];
    pc_down(e, 0);
  }
  return id;
}

/* ----------------------------------------------------------- entries -- */

/* (Re)starts e's search at its goal; false on allocation failure. */
static bool pc_start(lds_PathCache *pc, PcEntry *e) {
  const lds_Grid *g = pc->grid;
  int32_t x, y;
  e->gen++;
  if (e->gen == 0) { /* wrapped: clear once */
    memset(e->rec, 0, g->pcells * sizeof(PcRec));
    e->gen = 1;
  }
  e->on = 0;
  e->started = true;
  e->rec[e->goal].gen = e->gen;
  e->rec[e->goal].g = 0.0;
  e->rec[e->goal].posdir = PC_POS_NONE << 4 | PC_NODIR;
  ldsi_grid_pxy(g, e->goal, &x, &y);
  e->bx0 = e->bx1 = x;
  e->by0 = e->by1 = y;
  if (ldsi_pc_push(pc, e, e->goal, 0.0)) return true;
  e->started = false;
  return false;
}

/* The entry for (goal, weights): found, or a free one, or the least recently
** used one, reset. NULL on allocation failure. */
static PcEntry *pc_entry(lds_PathCache *pc, uint32_t goal, const double *w, int nw) {
  uint32_t i, pick = 0;
  PcEntry *e;
  bool found_free = false;
  for (i = 0; i < pc->max_entries; i++) {
    e = &pc->entries[i];
    if (e->used && e->goal == goal && e->nweights == nw &&
        (nw == 0 || memcmp(e->weights, w, (size_t)nw * sizeof(double)) == 0))
      return e;
  }
  for (i = 0; i < pc->max_entries; i++) {
    e = &pc->entries[i];
    if (!e->used) {
      pick = i;
      found_free = true;
      break;
    }
    if (e->last_use < pc->entries[pick].last_use) pick = i;
  }
  e = &pc->entries[pick];
  if (!found_free) pc->stats.evictions++;
  if (!e->rec) {
    e->rec = (PcRec *)ldsi_calloc(&pc->env, pc->grid->pcells, sizeof(PcRec));
    if (!e->rec) return NULL;
  }
  e->used = true;
  e->started = false;
  e->goal = goal;
  e->nweights = nw;
  if (nw) memcpy(e->weights, w, (size_t)nw * sizeof(double));
  return e;
}

/* ---------------------------------------------------------- lifetime -- */

lds_PathCache *lds_path_cache_new(const lds_Env *env, const lds_Grid *grid, uint32_t max_entries,
                                  lds_Error *err) {
  ldsi_Env e;
  lds_PathCache *pc;
  if (!grid) {
    ldsi_error(err, LDS_E_ARG, "lds_path_cache_new: grid is NULL");
    return NULL;
  }
  if (max_entries < 1 || max_entries > 1024) {
    ldsi_error(err, LDS_E_ARG, "lds_path_cache_new: max_entries %lu out of range (expected 1..1024)",
               (unsigned long)max_entries);
    return NULL;
  }
  if ((uint64_t)grid->pcells >= PC_MAX_CELLS) {
    ldsi_error(err, LDS_E_ARG,
               "lds_path_cache_new: grid of %zu padded cells too large (expected < %llu)",
               grid->pcells, (unsigned long long)PC_MAX_CELLS);
    return NULL;
  }
  if (env)
    ldsi_env_resolve(&e, env);
  else
    e = grid->env;
  pc = (lds_PathCache *)ldsi_calloc(&e, 1, sizeof *pc);
  if (!pc) goto nomem;
  pc->env = e;
  pc->grid = grid;
  pc->max_entries = max_entries;
  pc->entries = (PcEntry *)ldsi_calloc(&e, max_entries, sizeof(PcEntry));
  ldsi_grid_offsets(grid, pc->off);
  /* listening from a const grid is allowed: the list is locked (lds_grid.h) */
  if (!pc->entries || lds_grid_listen((lds_Grid *)(uintptr_t)grid, ldsi_pc_listener, pc) != LDS_OK) {
    ldsi_free(&e, pc->entries, (size_t)max_entries * sizeof(PcEntry));
    ldsi_free(&e, pc, sizeof *pc);
    goto nomem;
  }
  ldsi_error_clear(err);
  return pc;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "lds_path_cache_new: out of memory");
  return NULL;
}

void lds_path_cache_free(lds_PathCache *pc) {
  uint32_t i;
  ldsi_Env e;
  if (!pc) return;
  e = pc->env;
  lds_grid_unlisten((lds_Grid *)(uintptr_t)pc->grid, ldsi_pc_listener, pc);
  for (i = 0; i < pc->max_entries; i++) {
    ldsi_free(&e, pc->entries[i].rec, pc->entries[i].rec ? pc->grid->pcells * sizeof(PcRec) : 0);
    ldsi_free(&e, pc->entries[i].open, pc->entries[i].ocap * sizeof(PcOpen));
  }
  ldsi_free(&e, pc->entries, (size_t)pc->max_entries * sizeof(PcEntry));
  ldsi_free(&e, pc->stack, pc->scap * sizeof(uint32_t));
  ldsi_free(&e, pc, sizeof *pc);
}

void lds_path_cache_clear(lds_PathCache *pc) {
  uint32_t i;
  for (i = 0; i < pc->max_entries; i++) pc->entries[i].used = pc->entries[i].started = false;
}

/* ----------------------------------------------------------- queries -- */

/* The query's weights, trailing zeros dropped, into w; their count, or -1
** when the query is not one the cache answers. */
static int pc_weights(const lds_PathCache *pc, const lds_SearchParams *p, double *w) {
  int i, n = 0;
  if (p->n_layer_weights < 0 || p->n_layer_weights > PC_MAX_WEIGHTS ||
      p->n_layer_weights > pc->grid->nlayers || (p->n_layer_weights > 0 && !p->layer_weights))
    return -1;
  for (i = 0; i < p->n_layer_weights; i++) {
    if (isnan(p->layer_weights[i]) || isinf(p->layer_weights[i])) return -1;
    w[i] = p->layer_weights[i];
    if (w[i] != 0.0) n = i + 1;
  }
  return n;
}

/* Why the cache cannot answer this query exactly as the search would
** (lds_path_cache_accepts), or NULL when it can. */
static const char *refusal(const lds_PathCache *pc, const lds_SearchParams *p, int32_t sx,
                           int32_t sy, int32_t gx, int32_t gy) {
  const lds_Grid *g = pc->grid;
  double w[PC_MAX_WEIGHTS], c;
  PcEntry probe;
  if (!p) return "params is NULL (expected search parameters, lds_search_params_init)";
  if (p->algo != LDS_ALGO_ASTAR && p->algo != LDS_ALGO_DIJKSTRA && p->algo != LDS_ALGO_JPS &&
      p->algo != LDS_ALGO_JPS_PLUS)
    return "algo: expected an optimal one (A*, Dijkstra, JPS, JPS+)";
  if (p->h_scale != 0.0) return "h_scale: expected 0 (the automatic scale)";
  if (p->edge_cost) return "edge_cost: an edge callback cannot be cached";
  if (p->partial) return "partial: partial paths are not cached";
  if (p->heuristic > LDS_H_CHEBYSHEV ||
      (p->heuristic != LDS_H_AUTO && p->heuristic != LDS_H_ZERO && p->heuristic != LDS_H_OCTILE &&
       p->algo != LDS_ALGO_DIJKSTRA))
    return "heuristic: one that may overestimate (the search's answer may not be optimal)";
  if (!lds_grid_in_bounds(g, sx, sy)) return "start out of the grid";
  if (!lds_grid_in_bounds(g, gx, gy)) return "goal out of the grid";
  if (sx == gx && sy == gy) return "start == goal";
  if (lds_grid_blocked(g, sx, sy)) return "start blocked";
  if (lds_grid_blocked(g, gx, gy)) return "goal blocked";
  probe.nweights = pc_weights(pc, p, w);
  if (probe.nweights < 0) return "layer weights: more than 16, or not finite";
  memcpy(probe.weights, w, sizeof w);
  c = ldsi_pc_cost(pc, &probe, ldsi_grid_pidx(g, gx, gy));
  if (!(c > 0.0 && c < INFINITY)) return "goal blocked by a weighted layer";
  return NULL;
}

bool lds_path_cache_accepts(const lds_PathCache *pc, const lds_SearchParams *p, int32_t sx,
                            int32_t sy, int32_t gx, int32_t gy) {
  return pc && refusal(pc, p, sx, sy, gx, gy) == NULL;
}

/* The path from padded cell s along the tree to the goal, its cost summed
** forwards (the exact ns + nd*sqrt2 on uniform costs, as the search). */
static lds_Path *pc_path(lds_PathCache *pc, PcEntry *e, uint32_t s, lds_Error *err) {
  const lds_Grid *g = pc->grid;
  size_t n = 1, k;
  uint32_t id = s, *cells;
  double cost = 0.0;
  uint64_t ns = 0, nd = 0;
  bool uniform = g->nonunit == 0 && e->nweights == 0;
  lds_Path *path;
  while (id != e->goal) { /* a tree path visits a cell once: at most pcells steps */
    id = (uint32_t)((ptrdiff_t)id + pc->off[e->rec[id].posdir & 15u]);
    if (++n > g->pcells) {
      ldsi_error(err, LDS_E_STATE, "lds_path_cache_query: broken tree (a cycle); entry reset");
      e->started = false;
      return NULL;
    }
  }
  cells = (uint32_t *)ldsi_alloc(&pc->env, n * sizeof(uint32_t));
  if (!cells) {
    ldsi_error(err, LDS_E_NOMEM, "lds_path_cache_query: out of memory for a path of %zu cells", n);
    return NULL;
  }
  for (id = s, k = 0;; k++) {
    int32_t x, y;
    ldsi_grid_pxy(g, id, &x, &y);
    cells[k] = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
    if (id == e->goal) break;
    {
      unsigned d = e->rec[id].posdir & 15u;
      id = (uint32_t)((ptrdiff_t)id + pc->off[d]);
      if (d < 4)
        ns++;
      else
        nd++;
      cost += ldsi_pc_len[d] * ldsi_pc_cost(pc, e, id);
    }
  }
  if (uniform) cost = (double)ns + (double)nd * LDSI_SQRT2;
  {
    lds_Env env = ldsi_env_public(&pc->env);
    path = lds_path_new(&env, cells, n, g->w, cost, 0, err);
  }
  ldsi_free(&pc->env, cells, n * sizeof(uint32_t));
  return path;
}

lds_Status lds_path_cache_query(lds_PathCache *pc, const lds_SearchParams *p, int32_t sx,
                                int32_t sy, int32_t gx, int32_t gy, uint64_t max_expansions,
                                uint64_t *expanded, lds_Path **out, lds_Error *err) {
  const lds_Grid *g;
  double w[PC_MAX_WEIGHTS];
  int nw;
  PcEntry *e;
  uint32_t s;
  uint64_t n = 0;
  const char *why;
  if (expanded) *expanded = 0;
  if (!pc || !out) {
    if (out) *out = NULL;
    ldsi_error(err, LDS_E_ARG, "lds_path_cache_query: %s is NULL", pc ? "out" : "pc");
    return LDS_E_ARG;
  }
  *out = NULL;
  g = pc->grid;
  why = refusal(pc, p, sx, sy, gx, gy);
  if (why) {
    ldsi_error(err, LDS_E_ARG, "lds_path_cache_query: query (%d,%d)->(%d,%d) not accepted: %s",
               (int)sx, (int)sy, (int)gx, (int)gy, why);
    return LDS_E_ARG;
  }
  nw = pc_weights(pc, p, w);
  e = pc_entry(pc, (uint32_t)ldsi_grid_pidx(g, gx, gy), w, nw);
  if (!e) goto nomem;
  e->last_use = ++pc->tick;
  if (!e->started && !pc_start(pc, e)) goto nomem;
  s = (uint32_t)ldsi_grid_pidx(g, sx, sy);
  /* s's distance is exact once settled and <= every open key (invariants
  ** P and I, lds_path_cache_internal.h); without edits, as soon as settled */
  while (!(ldsi_pc_settled(e, s) && (e->on == 0 || e->rec[s].g <= e->open[0].g))) {
    uint32_t u;
    double cu, gu;
    int d;
    if (e->on == 0) {
      pc->stats.answered++;
      pc->stats.expansions += n;
      if (n) pc->stats.grown++; else pc->stats.hits++;
      if (expanded) *expanded = n;
      ldsi_error_clear(err);
      return LDS_NO_PATH;
    }
    if (max_expansions && n >= max_expansions) {
      pc->stats.expansions += n;
      if (expanded) *expanded = n;
      return LDS_RUNNING;
    }
    u = pc_pop(e);
    pc_set_pos(e, u, PC_POS_CLOSED);
    n++;
    cu = ldsi_pc_cost(pc, e, u);
    if (cu == INFINITY) continue; /* blocked by a layer: a start may leave it, no path enters it */
    if (!(cu > 0.0) || isinf(cu)) {
      e->started = false;
      pc->stats.expansions += n;
      if (expanded) *expanded = n;
      ldsi_error(err, LDS_E_ARG, "lds_path_cache_query: a cell's weighted cost is %g (the search "
                 "reports it)", ldsi_num(cu));
      return LDS_E_ARG;
    }
    gu = e->rec[u].g;
    for (d = 0; d < 8; d++) {
      uint32_t v = (uint32_t)((ptrdiff_t)u - pc->off[d]);
      PcRec *rv = &e->rec[v];
      double ng;
      if (!((g->nbr[v] >> d) & 1u)) continue; /* the move v -> u */
      ng = gu + ldsi_pc_len[d] * cu;
      if (rv->gen == e->gen) {
        if (rv->g <= ng) continue;
        /* settled, its distance fell (only after an edit lowered a cost):
        ** open again with the new distance */
        if ((rv->posdir >> 4) == PC_POS_CLOSED) pc_set_pos(e, v, PC_POS_NONE);
      } else {
        int32_t x, y;
        rv->gen = e->gen;
        rv->posdir = PC_POS_NONE << 4;
        ldsi_grid_pxy(g, v, &x, &y);
        if (x < e->bx0) e->bx0 = x;
        if (x > e->bx1) e->bx1 = x;
        if (y < e->by0) e->by0 = y;
        if (y > e->by1) e->by1 = y;
      }
      rv->g = ng;
      rv->posdir = (rv->posdir & ~15u) | (uint32_t)d;
      if (!ldsi_pc_push(pc, e, v, ng)) {
        e->started = false;
        goto nomem;
      }
    }
  }
  pc->stats.expansions += n;
  if (expanded) *expanded = n;
  *out = pc_path(pc, e, s, err);
  if (!*out) return err ? err->code : LDS_E_NOMEM;
  pc->stats.answered++;
  if (n) pc->stats.grown++; else pc->stats.hits++;
  ldsi_error_clear(err);
  return LDS_FOUND;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "lds_path_cache_query: out of memory");
  return LDS_E_NOMEM;
}

size_t lds_path_cache_mem_used(const lds_PathCache *pc) {
  size_t n = sizeof *pc + (size_t)pc->max_entries * sizeof(PcEntry);
  uint32_t i;
  for (i = 0; i < pc->max_entries; i++) {
    if (pc->entries[i].rec) n += pc->grid->pcells * sizeof(PcRec);
    n += pc->entries[i].ocap * sizeof(PcOpen);
  }
  return n + pc->scap * sizeof(uint32_t);
}

void lds_path_cache_stats(const lds_PathCache *pc, lds_PathCacheStats *out) {
  uint32_t i;
  *out = pc->stats;
  out->entries = 0;
  for (i = 0; i < pc->max_entries; i++)
    if (pc->entries[i].used) out->entries++;
  out->bytes = lds_path_cache_mem_used(pc);
}
