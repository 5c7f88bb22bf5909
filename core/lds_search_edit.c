/* SPDX-License-Identifier: MIT */
/*
** lds_search_edit.c — which grid edits disturb a search in progress
** (lds_search_edit_internal.h). The rule and why it is correct:
**
** A* (and its family: Dijkstra, weighted A*, greedy) only ever reads the
** grid through the moves it relaxes: expanding u reads the legal-move mask
** of u and the cost of each cell u can move into, and every cell so reached
** gets a record of the current generation ("generated"). So the records of
** a search are a function of the moves out of its expanded (closed) cells.
** An edit that changes none of those moves leaves every record exactly as
** the same algorithm would have computed it on the edited grid, from the
** same start, with the same heuristic: the search's state is one that a run
** on the edited grid reaches, and going on from it gives that run's answer
** (for A* with a consistent heuristic, a path optimal on the grid as it is
** when the search ends, provided no later edit disturbs it either). An
** edit of a cell c changes the moves into c (cost, legality) and, when its
** blocked state changes, the diagonal moves between two neighbours of c
** (corner cutting); a move out of an expanded cell u into c made c
** generated, and a diagonal move that c's state decides leaves from a
** neighbour of c. Hence the two kinds in lds_search_edit_internal.h.
** "Expanded" includes a cell expanded and re-opened since (its g improved:
** after a repair, below, or under a user heuristic scale): it is open
** again, but what its first expansion wrote stays in its successors'
** records until it is expanded again. So a toggle of c also disturbs when
** a neighbour of c has a record whose parent lies in c's 3x3 block (its g
** may be that of a diagonal move c's state decides), whatever the parent's
** state now.
**
** The heuristic must stay what it was for that argument: the automatic
** scale (the smallest cell cost when the search started) must not exceed
** the cost of any passable cell, or h would overestimate; an edit that
** lowers a passable cell below it disturbs every search using it.
**
** Layer weights: a weighted search reads the same moves, with the cost of
** entering a cell taken from its cost view (s->eff: base + weighted layers,
** INFINITY for a wall or an infinite layer value) instead of the grid. The
** view listens first (ldsi_grid_listen_first), so when the scheduler's
** listener asks here, s->eff already holds the edited costs, and the same
** rule holds word for word with the effective cost in place of the grid's
** (a layer write is a cost change of the cells it wrote). Corner cutting is
** decided by the grid's walls only, in both loops. One difference: a cell
** an infinite layer value keeps out gets no record when a neighbour is
** expanded, so for a weighted search an edit of a cell without a record
** also disturbs when an expanded neighbour has a legal move into it (the
** move was read as forbidden; the cell may have become enterable); and a
** wall put on such a cell is seen only through its neighbours' records
** (the re-opened parents above). What the view decides for every search
** at once -- its uniform flag flipped, its minimum (the automatic scale)
** lowered or raised, a reset -- moves an epoch that lds_search_step checks
** (lds_cost_view.h "Searches in progress"): such a
** search turns stale there and the scheduler starts it again.
**
** A search whose query is already settled (not LDS_RUNNING) is disturbed
** by every edit: its answer read the grid as it was, and not only through
** moves. lds_search_start settles a query without expanding anything when
** the start or the goal is blocked, or a connectivity index separates
** them; the scheduler can start a search with the tick's last budget (its
** cost view's build spent the rest) and step it, and so deliver that
** answer, only in the next tick, after the edits between the two ticks. A
** blocked goal an edit then unblocks would be delivered as no_path. (A
** search that settles in a step is delivered in that step, before any
** edit.) The restart costs nothing: the start expanded nothing.
**
** The node records are read through cell_generated / cell_closed only, so
** the record layout (ldsi_Node, ldsi_Hot) stays the search's business.
*/
#include "lds_cost_view_internal.h"
#include "lds_open_list.h"
#include "lds_search_edit_internal.h"
#include "lds_search_internal.h"

/* The node record of padded cell p (the plain records, ldsi_Node): every
** access of this file goes through rec, so the records' storage stays
** lds_search.c's business. */
static inline ldsi_Node *rec(const lds_Search *s, size_t p) { return &s->nodes[p]; }
/* The same for the exact loop's records (ldsi_Hot). */
static inline const ldsi_Hot *hot_rec(const lds_Search *s, size_t p) { return &s->hot[p]; }

/* The cost of entering padded cell p as the search's loop reads it: the
** cost view's effective cost for a weighted search, the grid's otherwise;
** INFINITY when it cannot be entered (a wall, an infinite layer value). */
static inline double cell_cost(const lds_Search *s, size_t p) {
  if (s->nweights) return s->eff[p];
  return s->grid->blocked[p] ? INFINITY : (double)s->grid->cost[p];
}

/* Whether padded cell p has a record of the current query. */
static inline bool cell_generated(const lds_Search *s, size_t p) {
  if (s->hot_query) return hot_rec(s, p)->gen == s->gen;
  return rec(s, p)->gen == s->gen;
}

/* Whether padded cell q is p or one of its 8 neighbours. */
static inline bool in_block(const lds_Grid *g, size_t p, size_t q) {
  int32_t px, py, qx, qy;
  ldsi_grid_pxy(g, p, &px, &py);
  ldsi_grid_pxy(g, q, &qx, &qy);
  return qx - px >= -1 && qx - px <= 1 && qy - py >= -1 && qy - py <= 1;
}

/* Whether padded cell p has been expanded by the current query and not
** re-opened since. */
static inline bool cell_closed(const lds_Search *s, size_t p) {
  if (s->hot_query) return hot_rec(s, p)->gen == s->gen && hot_rec(s, p)->heap == LDSI_CLOSED;
  return rec(s, p)->gen == s->gen && rec(s, p)->heap == LDSI_CLOSED;
}

bool ldsi_search_edit_any_disturbs(const lds_Search *s) {
  return s->space != LDSI_SPACE_GRID || s->ops != &ldsi_astar_ops || s->params.edge_cost != NULL ||
         (s->nweights > 0 && !s->eff);
}

/* The rule of ldsi_search_edit_disturbs; with `masks` false it reads no
** legal-move mask of a neighbour (ldsi_search_edit_may_disturb). */
static bool disturbs_rule(const lds_Search *s, int32_t x, int32_t y, ldsi_EditKind kind,
                          bool masks) {
  const lds_Grid *g = s->grid;
  size_t p;
  if (s->status != LDS_RUNNING) return true; /* settled on the grid as it was */
  if (ldsi_search_edit_any_disturbs(s)) return true;
  p = ldsi_grid_pidx(g, x, y);
  if (cell_cost(s, p) < INFINITY) {
    double c = cell_cost(s, p);
    /* the exact loop enters every cell at cost 1 */
    if (s->hot_query && c != 1.0) return true;
    /* the automatic scale must stay a lower bound of every passable cost */
    if (s->params.h_scale == 0.0 && s->hk != LDS_H_ZERO && c < s->scale) return true;
  }
  if (cell_generated(s, p)) return true;
  if (s->nweights && cell_cost(s, p) < INFINITY && !s->hot_query) {
    /* an infinite layer value keeps a passable cell out of the weighted
    ** loop without a record: a closed neighbour with a legal move into p
    ** and no record of p read it so, and p may have just become finite */
    ptrdiff_t off[8];
    int d, e;
    ldsi_grid_offsets(g, off);
    for (d = 0; d < 8; d++) {
      size_t n = (size_t)((ptrdiff_t)p + off[d]);
      if (!cell_closed(s, n)) continue;
      if (!masks) return true; /* the move's legality may wait on another cell */
      for (e = 0; e < 8; e++)
        if ((size_t)((ptrdiff_t)n + off[e]) == p && ((g->nbr[n] >> e) & 1u)) return true;
    }
  }
  if (kind == LDSI_EDIT_TOGGLE) {
    ptrdiff_t off[8];
    int d;
    ldsi_grid_offsets(g, off);
    /* padded: every neighbour index exists. The exact loop keeps the
    ** directions to relax from an open node in its open-list entry (the
    ** legal-move mask when it was queued): there an open neighbour counts
    ** too, its mask may have changed. In the other loops a cell expanded
    ** and re-opened since (its g improved: after a repair, or under a
    ** user heuristic scale) is open, yet the records its expansion made
    ** stay: a neighbour whose parent lies in the block may hold the g of
    ** a diagonal move between two neighbours of p */
    for (d = 0; d < 8; d++) {
      size_t n = (size_t)((ptrdiff_t)p + off[d]);
      if (s->hot_query ? cell_generated(s, n) : cell_closed(s, n)) return true;
      if (!s->hot_query && n != s->start && cell_generated(s, n) && in_block(g, p, rec(s, n)->parent))
        return true;
    }
  }
  return false;
}

bool ldsi_search_edit_disturbs(const lds_Search *s, int32_t x, int32_t y, ldsi_EditKind kind) {
  return disturbs_rule(s, x, y, kind, true);
}
bool ldsi_search_edit_may_disturb(const lds_Search *s, int32_t x, int32_t y, ldsi_EditKind kind) {
  return disturbs_rule(s, x, y, kind, false);
}

bool ldsi_search_edit_can_wait(const lds_Search *s) {
  return s->status == LDS_RUNNING && !ldsi_search_edit_any_disturbs(s);
}

double ldsi_search_edit_cost(const lds_Search *s, size_t p) { return cell_cost(s, p); }

double ldsi_search_edit_open_cost(const lds_Search *s, size_t p) {
  const lds_Grid *g = s->grid;
  double c = g->cost[p];
  if (s->nweights && s->view) { /* the view's sum, in its order (lds_cost_view.c) */
    const lds_CostView *v = s->view;
    int32_t x, y;
    size_t u;
    int i;
    ldsi_grid_pxy(g, p, &x, &y);
    u = (size_t)y * (size_t)g->w + (size_t)x;
    for (i = 0; i < v->nweights; i++)
      if (v->weights[i] != 0.0) c += v->weights[i] * (double)g->layers[i].data[u];
  }
  return c;
}

/* ------------------------------------------------------------ repair --
**
** A disturbed search can often be repaired instead of restarted: when the
** edit only made moves cheaper or legal (a cost lowered, a wall removed),
** every record's g is still the cost of a real path on the edited grid,
** only some may now be too high. Relaxing every legal move out of every
** expanded cell around the edited one, with the current costs, and
** re-expanding the cells that improve (A* with re-expansion from then on,
** s->reopen) gives back the invariant A* needs:
**
**   (I) every expanded (closed) cell u has relaxed every move it has on the
**       current grid with its current g: g(v) <= g(u) + c(u, v).
**
** A closed cell's g is the one it was expanded with (an improvement
** re-opens it). (I) held before the edit; the edit changed only moves into
** the edited cell c and, for a wall removed, diagonal moves between two
** neighbours of c, all out of the 3x3 block around c, which the repair
** relaxes again. With (I) the textbook argument holds: on any optimal path
** of the edited grid, take the first cell whose g is not optimal; its
** predecessor has an optimal g and is either open (an open cell with an
** optimal g lies on the optimal path) or closed, and then by (I) the cell's
** g would be optimal. So while the goal is not expanded, an open cell n
** with g(n) optimal on an optimal path exists, f(n) <= the optimal cost
** (admissible h: the scale <= every passable cost, checked), and the goal
** is expanded with f = g <= that cost: its path is optimal on the grid as it
** is then. Further edits repair or restart the same way, so the path is
** optimal on the grid as at delivery.
**
** An edit that made a move dearer or illegal can leave a g below the true
** cost (no longer the cost of a path): a generated cell of the block whose
** parent move now costs more than its g says, or is illegal. Such a cell
** and its whole subtree in the search tree (the cells whose parent chain
** runs through it) become fresh again, and each is relaxed again from its
** expanded neighbours outside the subtree (invalidate_subtrees); the g of
** every cell left then is the cost of a path that uses no changed move, so
** a real path of the edited grid, and (I) holds again. The argument reads
** moves and their costs only, so it holds with a cost view's effective
** costs as well (cell_cost). Repair applies to optimal A* and Dijkstra in
** the plain and weighted cost loops (ldsi_Node records), not
** to partial requests when a subtree goes (their best-so-far cell could go
** with it); the exact uniform-cost loop, weighted A* and greedy (which
** never re-expand) restart. */

static const double move_len[8] = {1.0, 1.0, 1.0, 1.0, LDSI_SQRT2, LDSI_SQRT2, LDSI_SQRT2,
                                   LDSI_SQRT2};

/* Relaxes the move in direction d out of closed cell u (legal on the
** current grid) with the current cost: the plain loop's relaxation
** (lds_astar.c relax_general), re-opening v when it improves. */
static void relax_move(lds_Search *s, uint32_t u, int d, const ptrdiff_t *off) {
  const lds_Grid *g = s->grid;
  uint32_t v = (uint32_t)((ptrdiff_t)u + off[d]);
  ldsi_Node *nv = rec(s, v);
  double ng = rec(s, u)->g + move_len[d] * cell_cost(s, v), fv;
  int32_t vx, vy;
  if (!(ng < INFINITY)) return;
  if (nv->gen == s->gen && !(ng < nv->g)) return;
  ldsi_grid_pxy(g, v, &vx, &vy);
  fv = s->gk * ng + s->hw * ldsi_hdist(s->hk, s->gx - vx, s->gy - vy);
  if (nv->gen != s->gen) { /* fresh */
    nv->gen = s->gen;
    nv->aux = 0;
    nv->nsd = 0;
    nv->heap = LDSI_NONE;
  }
  nv->g = ng;
  nv->parent = u;
  if (nv->heap == LDSI_NONE || nv->heap == LDSI_CLOSED || nv->heap == LDSI_INBUF)
    ldsi_open_push_x(s, v, fv, ng, 0, LDSI_KEYS_GENERAL); /* a stack entry turns stale */
  else
    ldsi_open_decrease_x(s, nv->heap, fv, ng, 0, LDSI_KEYS_GENERAL);
}

/* Relaxes every legal move out of closed cell u. */
static void relax_out(lds_Search *s, uint32_t u, const ptrdiff_t *off) {
  uint32_t m = s->grid->nbr[u];
  while (m) {
    int d = __builtin_ctz(m);
    m &= m - 1;
    relax_move(s, u, d, off);
  }
}

static inline bool closed_now(const lds_Search *s, uint32_t u) {
  return rec(s, u)->gen == s->gen && rec(s, u)->heap == LDSI_CLOSED;
}

/* Takes the entry at pos out of the (general form, binary) open list. */
static void open_remove(lds_Search *s, uint32_t pos) {
  ldsi_Open *h = s->open, e;
  uint32_t n = (uint32_t)--s->open_n;
  rec(s, h[pos].node)->heap = LDSI_NONE;
  e = h[n];
  ldsi_set_sentinel(h, n);
  if (pos == n) return;
  if (pos > 0 && ldsi_open_less_x(&e, &h[(pos - 1) >> 1], LDSI_KEYS_GENERAL)) {
    ldsi_sift_up_x(s, pos, e, LDSI_KEYS_GENERAL);
    return;
  }
  for (;;) {
    uint32_t c = 2 * pos + 1;
    if (c >= n) break;
    if (c + 1 < n && ldsi_open_less_x(&h[c + 1], &h[c], LDSI_KEYS_GENERAL)) c++;
    if (!ldsi_open_less_x(&h[c], &e, LDSI_KEYS_GENERAL)) break;
    h[pos] = h[c];
    rec(s, h[pos].node)->heap = pos;
    pos = c;
  }
  h[pos] = e;
  rec(s, e.node)->heap = pos;
}

/* A growable list of node ids (the cells a repair makes fresh again), and
** how many of them were closed (expanded: the work the repair loses). */
typedef struct IdList {
  uint32_t *v;
  size_t n, cap;
  size_t closed;
} IdList;

static bool list_push(lds_Search *s, IdList *l, uint32_t id) {
  if (l->n == l->cap) {
    size_t ncap = l->cap ? l->cap * 2 : 256;
    uint32_t *nv = (uint32_t *)ldsi_realloc(&s->env, l->v, l->cap * sizeof(uint32_t),
                                            ncap * sizeof(uint32_t));
    if (!nv) return false;
    l->v = nv;
    l->cap = ncap;
  }
  l->v[l->n++] = id;
  return true;
}

/* Makes node v fresh (out of the open list; a stack entry turns stale) and
** lists it. */
static bool make_fresh(lds_Search *s, IdList *l, uint32_t v) {
  ldsi_Node *nv = rec(s, v);
  if (nv->heap == LDSI_CLOSED) l->closed++;
  if (nv->heap != LDSI_CLOSED && nv->heap != LDSI_INBUF && nv->heap != LDSI_NONE)
    open_remove(s, nv->heap);
  nv->gen = 0; /* never a query's generation (lds_search.c new_generation) */
  nv->heap = LDSI_NONE;
  return list_push(s, l, v);
}

/* The subtree repair of a dearer or illegal move: the cells listed in
** l->v[0..l->n) (already fresh) and all their descendants in the search
** tree become fresh; then each of them is relaxed again from its expanded
** neighbours that are still valid, with the current costs. Every g left is
** then the cost of a real path on the edited grid (its parent chain uses no
** changed move) and (I) holds again: a cell made fresh is relaxed from
** every closed neighbour, the others keep a g no larger than through any
** closed neighbour (the moves into them only got dearer, or their parent
** move is unchanged). Returns false when out of memory (the search must
** then restart). */
static bool invalidate_subtrees(lds_Search *s, IdList *l, const ptrdiff_t *off) {
  const lds_Grid *g = s->grid;
  size_t i;
  int d, opp[8];
  for (d = 0; d < 8; d++) {
    int e;
    for (e = 0; e < 8; e++)
      if (ldsi_dir_dx[e] == -ldsi_dir_dx[d] && ldsi_dir_dy[e] == -ldsi_dir_dy[d]) opp[d] = e;
  }
  /* the descendants: a child is a neighbour whose parent is the cell */
  for (i = 0; i < l->n; i++) {
    uint32_t x = l->v[i];
    for (d = 0; d < 8; d++) {
      uint32_t w = (uint32_t)((ptrdiff_t)x + off[d]);
      if (rec(s, w)->gen == s->gen && rec(s, w)->parent == x && !make_fresh(s, l, w))
        return false;
    }
  }
  /* the frontier: relax each fresh cell from its valid expanded neighbours */
  for (i = 0; i < l->n; i++) {
    uint32_t v = l->v[i];
    if (!(cell_cost(s, v) < INFINITY)) continue;
    for (d = 0; d < 8; d++) {
      uint32_t u = (uint32_t)((ptrdiff_t)v + off[d]);
      if (closed_now(s, u) && ((g->nbr[u] >> opp[d]) & 1u)) relax_move(s, u, opp[d], off);
    }
  }
  return true;
}

int ldsi_search_edit_repair(lds_Search *s, int32_t x, int32_t y, ldsi_EditKind kind) {
  const lds_Grid *g = s->grid;
  size_t p;
  ptrdiff_t off[8];
  int dy, dx;
  bool ok = true;
  IdList fresh = {NULL, 0, 0, 0};
  (void)kind;
  if (s->status != LDS_RUNNING) return 0; /* settled: it restarts (see the top) */
  /* the plain loop, or the weighted one (lds_astar.c MODE_PLAIN, MODE_WEIGHTED) */
  if (ldsi_search_edit_any_disturbs(s) || s->hot_query ||
      s->run_mode != (s->nweights ? 2 : 1) ||
      (s->params.algo != LDS_ALGO_ASTAR && s->params.algo != LDS_ALGO_DIJKSTRA))
    return 0;
  p = ldsi_grid_pidx(g, x, y);
  if (cell_cost(s, p) < INFINITY && s->params.h_scale == 0.0 && s->hk != LDS_H_ZERO &&
      cell_cost(s, p) < s->scale)
    return 0;
  ldsi_grid_offsets(g, off);
  /* the generated cells of the block whose parent move is now illegal or
  ** dearer than their g says: their g may be below the true cost */
  for (dy = -1; dy <= 1; dy++)
    for (dx = -1; dx <= 1; dx++) {
      uint32_t v = (uint32_t)((ptrdiff_t)p + dy * (ptrdiff_t)g->pw + dx), u;
      const ldsi_Node *nv = rec(s, v);
      int d;
      if (nv->gen != s->gen) continue;
      if (v == s->start) {
        if (!(cell_cost(s, v) < INFINITY)) ok = false;
        continue;
      }
      u = nv->parent;
      for (d = 0; d < 8; d++)
        if ((uint32_t)((ptrdiff_t)u + off[d]) == v) break;
      if (d < 8 && ((g->nbr[u] >> d) & 1u) && cell_cost(s, v) < INFINITY &&
          !(nv->g < rec(s, u)->g + move_len[d] * cell_cost(s, v)))
        continue; /* still paid */
      /* a partial path's best cell could go: those restart */
      if (s->params.partial) ok = false;
      if (ok && !make_fresh(s, &fresh, v)) ok = false;
    }
  if (ok && fresh.n && !invalidate_subtrees(s, &fresh, off)) ok = false;
  if (ok)
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++) {
        uint32_t u = (uint32_t)((ptrdiff_t)p + dy * (ptrdiff_t)g->pw + dx);
        if (closed_now(s, u)) relax_out(s, u, off);
      }
  if (fresh.v) ldsi_free(&s->env, fresh.v, fresh.cap * sizeof(uint32_t));
  if (!ok) return 0;
  s->reopen = true; /* improvements reach closed cells: re-expand them */
  return fresh.closed ? 2 : 1;
}

void ldsi_search_edit_accept(lds_Search *s) {
  if (s->space == LDSI_SPACE_GRID) s->version = s->grid->version;
}

uint64_t ldsi_search_edit_version(const lds_Search *s) { return s->version; }
