/* SPDX-License-Identifier: MIT */
/*
** lds_theta.c — Theta* and Lazy Theta*, any-angle searches on grids with
** terrain costs, as the search object's expansion loop (ldsi_theta_ops):
** sliced, with the statuses, stats and partial paths of every grid search.
**
** The vertices are cell centres; a path is the list of its waypoints (cells
** whose consecutive centres see each other), each step costed exactly as
** lds_grid_path_cost_weighted costs it (lds_postprocess.h, "Cost of a
** path": length inside each cell x the cell's effective cost), so the path's
** cost is the search's g of the goal.
**
** Basic Theta* (Nash, Daniel, Koenig & Felner, "Theta*: Any-Angle Path
** Planning on Grids", AAAI 2007): expanding u, each neighbour v is offered
** two parents: u (path 1, the grid move, as A*) and u's parent p (path 2,
** the straight step p -> v when it is legal, ldsi_los_step_cost). Under
** terrain costs the straight step is not always the cheaper (it may cross
** dear cells the grid path went round), so the cheaper of the two is taken,
** not path 2 whenever it is legal as in the paper's uniform-cost version
** (where path 2 never costs more).
**
** Lazy Theta* (Nash, Koenig & Tovey, "Lazy Theta*: Any-Angle Path Planning
** and Path Length Analysis in 3D", AAAI 2010): v is given parent p with the
** optimistic key g(p) + |p v| x scale (scale = the smallest cell cost: the
** exact cost on uniform grids when p sees v), without a line-of-sight test,
** when that is below path 1; the test is made once, when v is popped: its
** verified g is the cheaper of the real step p -> v and the best path 1
** through an expanded neighbour. One change from the paper: when the
** verified g is above the key it was popped with, v is queued again with
** the verified key instead of being expanded at once, so every expansion
** happens at the exact key (and the guarantee below holds for both).
**
** Guarantee (both algorithms): the path's cost is at most the optimal cost
** of the grid's own moves (8-connected A* with the grid's diagonal rule, or
** 4-connected), up to rounding. Proof: path 1 is A*'s relaxation, closed
** nodes are expanded with their exact key and never reopened, and
** h = scale x Euclidean distance is consistent for the grid's moves; so, as
** for A*, every node of an optimal grid path is expanded with g at most its
** optimal grid cost, and the goal too. Not optimal among any-angle paths:
** the parents are cell centres on the search's own tree (on uniform maps
** the gap to the true Euclidean optimum is measured in docs/any-angle.md).
** Ties are broken as in lds_search.h, path 2 before path 1 on equal cost.
*/
#include "lds_los_internal.h"
#include "lds_open_list.h"
#include "lds_postprocess.h"
#include "lds_search_internal.h"

#include <math.h>

#define CLOCK_EVERY 64 /* expansions between two clock reads */
#define UNVERIFIED 1u  /* aux bit: the parent was given without a line-of-sight test */

static const double move_len[8] = {1.0, 1.0, 1.0, 1.0, LDSI_SQRT2, LDSI_SQRT2, LDSI_SQRT2,
                                   LDSI_SQRT2};

/* Effective cost of entering padded cell v under the query's weights
** (INFINITY when blocked). */
static double cell_cost(const lds_Search *s, uint32_t v) {
  return s->nweights ? s->eff[v] : (double)s->grid->cost[v];
}

/* The exact cost of the straight step a -> b (padded ids), INFINITY when it
** is not legal or exceeds limit: Euclidean on uniform grids whose legal
** line walks never cross a blocked cell (no_corner_cutting, never,
** 4-connected: lds_postprocess.h), ldsi_los_step_cost otherwise. */
static double step_cost(const lds_Search *s, uint32_t a, uint32_t b, double limit) {
  const lds_Grid *g = s->grid;
  int32_t ax, ay, bx, by;
  ldsi_grid_pxy(g, a, &ax, &ay);
  ldsi_grid_pxy(g, b, &bx, &by);
  if (!g->nonunit && !s->nweights &&
      (g->neighbourhood == 4 || g->diag == LDS_DIAG_NO_CORNER_CUTTING ||
       g->diag == LDS_DIAG_NEVER)) {
    double dx = (double)(bx - ax), dy = (double)(by - ay), c;
    if (!lds_grid_line_of_sight(g, ax, ay, bx, by)) return INFINITY;
    c = sqrt(dx * dx + dy * dy);
    return c <= limit ? c : INFINITY;
  }
  return ldsi_los_step_cost(g, s->weights, s->nweights, ax, ay, bx, by, limit);
}

/* Distance in cells between two padded ids. */
static double dist(const lds_Grid *g, uint32_t a, uint32_t b) {
  int32_t ax, ay, bx, by;
  double dx, dy;
  ldsi_grid_pxy(g, a, &ax, &ay);
  ldsi_grid_pxy(g, b, &bx, &by);
  dx = (double)(bx - ax);
  dy = (double)(by - ay);
  return sqrt(dx * dx + dy * dy);
}

/* f of node v with cost g */
static double f_of(const lds_Search *s, uint32_t v, double g) {
  int32_t x, y;
  ldsi_grid_pxy(s->grid, v, &x, &y);
  return g + s->hw * ldsi_hdist(LDS_H_EUCLIDEAN, s->gx - x, s->gy - y);
}

/* Gives v the parent par and cost ng (flags: UNVERIFIED or 0) and queues it. */
static void relax_to(lds_Search *s, ldsi_Node *nv, uint32_t v, uint32_t par, double ng,
                     uint32_t flags) {
  double f = f_of(s, v, ng);
  nv->g = ng;
  nv->parent = par;
  nv->aux = flags;
  if (nv->heap == LDSI_NONE || nv->heap == LDSI_CLOSED)
    ldsi_open_push(s, v, f, ng);
  else
    ldsi_open_decrease(s, nv->heap, f, ng);
}

/* Lazy Theta*'s check of a popped node u with an unverified parent: the
** verified parent and g (the real step from the parent, or the best grid
** move from an expanded neighbour). Returns true when u keeps its key (expand
** it now), false when it was queued again with a larger one. */
static bool lazy_verify(lds_Search *s, uint32_t u, const ptrdiff_t *off) {
  const lds_Grid *g = s->grid;
  ldsi_Node *nu = &s->nodes[u];
  uint32_t p = nu->parent, best_p = LDSI_NONE;
  double key_g = nu->g, best = INFINITY, cu = cell_cost(s, u);
  int d;
  nu->aux = 0;
  {
    double c = step_cost(s, p, u, INFINITY);
    if (c < INFINITY) {
      best = s->nodes[p].g + c;
      best_p = p;
    }
  }
  for (d = 0; d < 8; d++) { /* path 1 from an expanded neighbour n: the move n -> u */
    uint32_t n = (uint32_t)((ptrdiff_t)u + off[d]);
    int back = d < 4 ? (d + 2) % 4 : 4 + (d - 4 + 2) % 4; /* the move n -> u */
    double c;
    if (s->nodes[n].gen != s->gen || s->nodes[n].heap != LDSI_CLOSED) continue;
    if (!((g->nbr[n] >> back) & 1u)) continue;
    c = s->nodes[n].g + move_len[back] * cu;
    if (c < best) {
      best = c;
      best_p = n;
    }
  }
  /* u was generated by an expanded neighbour, so best_p is set */
  nu->parent = best_p;
  nu->g = best;
  if (best > key_g) {
    ldsi_open_push(s, u, f_of(s, u, best), best);
    return false;
  }
  return true;
}

static lds_Status theta_run(lds_Search *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0) {
  const lds_Grid *g = s->grid;
  const bool lazy = s->params.algo == LDS_ALGO_LAZY_THETA;
  ptrdiff_t off[8];
  uint64_t done = 0;
  ldsi_grid_offsets(g, off);
  for (;;) {
    uint32_t u, p, m;
    ldsi_Node *nu;
    double gu;
    int32_t ux, uy;
    if (max_exp && done >= max_exp) return LDS_RUNNING;
    if (budget_us && done && (done % CLOCK_EVERY) == 0 &&
        s->env.clock(s->env.clock_ud) - t0 >= budget_us)
      return LDS_RUNNING;
    if (s->open_n == 0) return LDS_NO_PATH;
    u = ldsi_open_pop(s);
    done++;
    s->stats.expansions++;
    nu = &s->nodes[u];
    if (lazy && (nu->aux & UNVERIFIED) && !lazy_verify(s, u, off)) continue;
    gu = nu->g;
    ldsi_grid_pxy(g, u, &ux, &uy);
    {
      uint64_t d2 = ldsi_d2(s->gx - ux, s->gy - uy);
      if (d2 <= s->best_d2 && ldsi_best_closer(s, d2, gu, u)) ldsi_best_set(s, d2, gu, u);
    }
    if (u == s->goal) return LDS_FOUND;
    p = nu->parent;
    m = g->nbr[u];
    while (m) {
      int d = __builtin_ctz(m);
      uint32_t v = (uint32_t)((ptrdiff_t)u + off[d]);
      ldsi_Node *nv = ldsi_node(s, v);
      double cv = cell_cost(s, v), g1, best;
      uint32_t bp = u, flags = 0;
      m &= m - 1;
      if (nv->heap == LDSI_CLOSED || cv == INFINITY) continue;
      g1 = gu + move_len[d] * cv; /* path 1 */
      if (!(g1 < INFINITY)) continue;
      best = g1;
      if (p != LDSI_NONE) { /* path 2: from u's parent */
        double gp = s->nodes[p].g;
        double lim = (g1 < nv->g ? g1 : nv->g) - gp;
        if (lazy) {
          double g2 = gp + dist(g, p, v) * s->scale;
          if (g2 <= best) {
            best = g2;
            bp = p;
            flags = UNVERIFIED;
          }
        } else if (lim >= 0.0) {
          double c = step_cost(s, p, v, lim);
          if (c < INFINITY && gp + c <= best) {
            best = gp + c;
            bp = p;
          }
        }
      }
      if (best < nv->g) relax_to(s, nv, v, bp, best, flags);
    }
  }
}

/* ldsi_theta_ops.start: Euclidean heuristic scaled by the cost per cell
** (the weight does not apply); edge callbacks cannot cost a straight step. */
static lds_Status theta_start(lds_Search *s) {
  if (s->params.edge_cost) {
    ldsi_msg(s->errmsg, "lds_search_start: algorithm '%s' takes no edge_cost callback (it costs "
             "straight steps from the cells they cross)", lds_algo_name(s->params.algo));
    return LDS_E_ARG;
  }
  s->hk = s->hk == LDS_H_ZERO ? LDS_H_ZERO : LDS_H_EUCLIDEAN;
  s->gk = 1.0;
  s->hw = s->hk == LDS_H_ZERO ? 0.0 : s->scale;
  s->reopen = false;
  return LDS_OK;
}

const ldsi_SearchOps ldsi_theta_ops = {LDS_ALGO_THETA, theta_start, theta_run, NULL};
