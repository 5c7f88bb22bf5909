/* SPDX-License-Identifier: MIT */
/*
** lds_jps.c — Jump Point Search (online, block-based jumps) and JPS+
** (precomputed jump distances) on 8-connected uniform-cost grids, as the
** search object's algorithm ldsi_jps_ops (lds_search_internal.h; same node
** records, open list, budgets and statuses).
**
** Bit grids. Passability is kept twice, one bit per padded cell: row-major
** (rows[py][px]) and transposed (cols[px][py]), each line with a zero word
** before and after. From them, the jump events (see EVG): per line and per
** 64 cells, the cells where a straight jump must stop in either direction
** (a wall or a jump point), so a horizontal or a vertical jump reads one
** word per 64 cells and finds its stop with a count of trailing/leading
** zeros [Paper: Harabor & Grastien, "Improving Jump Point Search", ICAPS
** 2014, block-based symmetry breaking].
**
** Rules. With "no_corner_cutting" (the Moving AI rule: a diagonal move needs
** both orthogonal neighbours open) canonical paths take diagonals first, a
** diagonal move never has forced neighbours (both cells beside it are open
** by the rule), and a straight move east into x is forced to turn at x when a
** side cell of x is open but the side cell of x-1 (behind) is blocked: then
** the side cell and the diagonal beyond are reachable optimally only through
** x. With "always" (any diagonal into an open cell) the 2011 paper's rules
** hold: moving east, x is a jump point when a side cell of x is blocked and
** the side cell of x+1 is open; moving diagonally, when the cell behind on
** one axis is blocked and the cell beyond it is open.
** [Paper: Harabor & Grastien, "Online Graph Pruning for Pathfinding on Grid
**  Maps", AAAI 2011; no-corner-cutting variant: Harabor & Grastien, ICAPS 2014]
**
** JPS+ (precomputed jump distances) is lds_jps_plus.c, the jumps and
** forced neighbours lds_jps_jump.h (inlined into the loop here), the state
** shared by them lds_jps_internal.h.
*/
#include "lds_jps.h"
#include "lds_jps_internal.h"
#include "lds_jps_jump.h"

#include <math.h>
#include <string.h>

#define CLOCK_EVERY 16 /* expansions between two clock reads (jumps are long) */
#define BATCH_MAX 32   /* plateau successors of one expansion sent to the stack */

/* ------------------------------------------------------- bit grids -- */

static void set_bit(uint64_t *line, size_t pos, bool v) {
  uint64_t m = (uint64_t)1 << (pos & 63u);
  if (v)
    line[pos >> 6] |= m;
  else
    line[pos >> 6] &= ~m;
}

/* Rewrites the bits of the padded rectangle; returns true if any changed. */
static bool bits_update(ldsi_Jps *j, const lds_Grid *g, int32_t px0, int32_t py0, int32_t px1,
                        int32_t py1) {
  int32_t px, py;
  bool changed = false;
  for (py = py0; py <= py1; py++)
    for (px = px0; px <= px1; px++) {
      bool open = !g->blocked[(size_t)py * (size_t)g->pw + (size_t)px];
      uint64_t *rl = j->rows + (size_t)py * j->rw;
      size_t rp = (size_t)px + 64;
      bool old = (rl[rp >> 6] >> (rp & 63u)) & 1u;
      if (old == open) continue;
      changed = true;
      set_bit(rl, rp, open);
      set_bit(j->cols + (size_t)px * j->cw, (size_t)py + 64, open);
    }
  return changed;
}


/* Computes the groups G of one line (nw groups) from the passability lines
** B (the line) and L, R (its sides), in the layout of rows/cols (bit P + 64
** = position P). */
static void ev_line(uint64_t *G, const uint64_t *B, const uint64_t *L, const uint64_t *R,
                    size_t nw, bool ncc) {
  size_t i;
  for (i = 0; i < nw; i++) {
    size_t w = i + 1; /* source word of positions 64i..64i+63 */
    uint64_t l = L[w], r = R[w];
    uint64_t lp = (l << 1) | (L[w - 1] >> 63), rp = (r << 1) | (R[w - 1] >> 63); /* at P-1 */
    uint64_t ln = (l >> 1) | (L[w + 1] << 63), rn = (r >> 1) | (R[w + 1] << 63); /* at P+1 */
    uint64_t fi, fd;
    if (ncc) {
      fi = (l & ~lp) | (r & ~rp);
      fd = (l & ~ln) | (r & ~rn);
    } else {
      fi = (~l & ln) | (~r & rn);
      fd = (~l & lp) | (~r & rp);
    }
    G[i * EVG + EV_INC] = fi | ~B[w];
    G[i * EVG + EV_DEC] = fd | ~B[w];
    G[i * EVG + EV_OPEN] = B[w];
  }
}

static void goal_mark(ldsi_Jps *j);

/* Recomputes the events of rows py0..py1 and columns px0..px1 (padded,
** clamped to the interior lines; the border lines are blocked throughout). */
static void ev_update(ldsi_Jps *j, int32_t px0, int32_t py0, int32_t px1, int32_t py1) {
  int32_t i;
  if (px0 < 1) px0 = 1;
  if (py0 < 1) py0 = 1;
  if (px1 > j->pw - 2) px1 = j->pw - 2;
  if (py1 > j->ph - 2) py1 = j->ph - 2;
  for (i = py0; i <= py1; i++) {
    const uint64_t *B = j->rows + (size_t)i * j->rw;
    ev_line(j->evr + (size_t)i * j->nwr * EVG, B, B - j->rw, B + j->rw, j->nwr, j->ev_ncc);
  }
  for (i = px0; i <= px1; i++) {
    const uint64_t *B = j->cols + (size_t)i * j->cw;
    ev_line(j->evc + (size_t)i * j->nwc * EVG, B, B - j->cw, B + j->cw, j->nwc, j->ev_ncc);
  }
  if (j->goal_marked) goal_mark(j); /* the lines may have lost it */
}

/* The goal of a JPS query stops every straight jump that reaches it, as if
** a jump point: its bit is set in the stops of its row and its column (both
** directions) while the query runs, so the scans need no goal test. A jump
** stopping there returns the goal when it is open, as the goal test did;
** a blocked goal is a stop already. */
static void goal_mark(ldsi_Jps *j) {
  uint64_t *r = j->evr + ((size_t)j->mgy * j->nwr + ((size_t)j->mgx >> 6)) * EVG;
  uint64_t *c = j->evc + ((size_t)j->mgx * j->nwc + ((size_t)j->mgy >> 6)) * EVG;
  r[EV_INC] |= (uint64_t)1 << (j->mgx & 63);
  r[EV_DEC] |= (uint64_t)1 << (j->mgx & 63);
  c[EV_INC] |= (uint64_t)1 << (j->mgy & 63);
  c[EV_DEC] |= (uint64_t)1 << (j->mgy & 63);
}

/* Removes the last query's goal mark (recomputes its row and column) and
** marks goal (gpx,gpy) (padded) if mark. */
static void goal_remark(ldsi_Jps *j, bool mark, int32_t gpx, int32_t gpy) {
  if (j->goal_marked) {
    j->goal_marked = false;
    if (j->ev_valid) ev_update(j, j->mgx, j->mgy, j->mgx, j->mgy);
  }
  if (!mark) return;
  j->mgx = gpx;
  j->mgy = gpy;
  j->goal_marked = true;
  goal_mark(j);
}

static size_t ev_words(const ldsi_Jps *j) {
  return ((size_t)j->ph * j->nwr + (size_t)j->pw * j->nwc) * EVG;
}

/* Builds every line for the rule of grid g (border lines: all events,
** nothing open). */
static void ev_build(ldsi_Jps *j, const lds_Grid *g) {
  size_t i, n = ev_words(j);
  for (i = 0; i < n; i += EVG) {
    j->evbuf[i + EV_INC] = j->evbuf[i + EV_DEC] = ~(uint64_t)0;
    j->evbuf[i + EV_OPEN] = 0;
    j->evbuf[i + 3] = 0;
  }
  j->ev_ncc = g->diag == LDS_DIAG_NO_CORNER_CUTTING;
  ev_update(j, 0, 0, j->pw - 1, j->ph - 1);
  j->ev_valid = true;
}

/* --------------------------------------------- partial-path tracking -- */
/* A partial path must end where A*'s does: at the reachable cell closest to
** the goal (ldsi_best_closer: squared Euclidean distance, then cost, then
** cell id). JPS expands jump points only, and that cell is usually one a
** jump passed (beside a wall around the goal, say), so with params.partial
** every expansion also offers the cells its jumps pass, each with the cost
** of the path there (u's g plus the jump's moves): per straight run, the one
** cell of the run closest to the goal (a projection, O(1)); per diagonal,
** each cell and the straight runs from it, as the jumps themselves do. The
** runs are found on the bit grids' jump events (ev_stop), for JPS+ too, and
** the work duplicates the jumps' (docs/search.md, "Partial paths"). At
** exhaustion every reachable cell has been offered with its optimal cost
** (the last segment of a canonical optimal path to it is a jump from an
** expanded jump point that passes it), and every offer is a legal path with
** its exact cost, so the best offer is A*'s cell and cost. */

/* Cells strictly between padded (px,py) and the first stop of a straight
** jump from there in direction d (< 4): a jump point, the goal or a wall
** (0 when the first move is illegal). */
JI int32_t run_len(const Ctx *c, int32_t px, int32_t py, int d) {
  const ldsi_Jps *j = c->j;
  bool open;
  int32_t q;
  if (d == LDS_DIR_E || d == LDS_DIR_W) {
    q = ev_stop(j->evr + (size_t)py * j->nwr * EVG, px, d == LDS_DIR_E, &open);
    return (q > px ? q - px : px - q) - 1;
  }
  q = ev_stop(j->evc + (size_t)px * j->nwc * EVG, py, d == LDS_DIR_S, &open);
  return (q > py ? q - py : py - q) - 1;
}

/* Offers the cell closest to the goal among the k cells of a straight run
** from padded (px,py) in direction d (< 4): the path to node `from`, k1
** diagonal moves in direction dd (to (px,py), with moves nsd0 from the
** start), then the run. */
JI void track_run(lds_Search *s, const Ctx *c, uint32_t from, uint64_t nsd0, uint32_t k1, int dd,
                  int32_t px, int32_t py, int d, int32_t k) {
  const int32_t dx = DX[d], dy = DY[d];
  int32_t t = dx ? (c->gpx - px) * dx : (c->gpy - py) * dy, i, x, y;
  uint64_t d2;
  uint32_t id;
  double g;
  if (k < 1) return;
  i = t < 1 ? 1 : t > k ? k : t; /* the goal's projection on the run */
  x = px + dx * i;
  y = py + dy * i;
  d2 = ldsi_d2(c->gpx - x, c->gpy - y);
  if (d2 > s->best_d2) return;
  id = (uint32_t)y * c->pw + (uint32_t)x;
  if (id == c->goal) return; /* a successor: the query finds it */
  g = exact_g(nsd0 + (uint64_t)i);
  if (!ldsi_best_closer(s, d2, g, id)) return;
  s->best = id;
  s->best_from = from;
  s->best_d2 = d2;
  s->best_g = g;
  s->best_k1 = k1;
  s->best_dd = (uint8_t)dd;
  s->best_k2 = (uint32_t)i;
  s->best_ds = (uint8_t)d;
}

/* Offers the cells of the diagonal from node u (padded (px,py), moves nsd_u)
** in direction d (>= 4) and of the straight runs from each, stopping where
** jump_diag stops (an illegal move, the goal, a forced cell under
** "always"). */
static void track_diag(lds_Search *s, const Ctx *c, uint32_t u, int32_t px, int32_t py, int d,
                       uint64_t nsd_u, bool ncc) {
  const int hd = HCOMP[d], vd = VCOMP[d];
  const int32_t dx = DX[d], dy = DY[d];
  const ptrdiff_t o = c->off[d];
  const uint32_t from = u;
  unsigned m = c->nbr[u];
  uint32_t k1 = 0;
  for (;;) {
    uint64_t nsd, d2;
    if (!((m >> d) & 1u)) return;
    u = (uint32_t)((ptrdiff_t)u + o);
    m = c->nbr[u];
    px += dx;
    py += dy;
    k1++;
    if (u == c->goal) return;
    nsd = nsd_u + (uint64_t)k1 * DIAG1;
    d2 = ldsi_d2(c->gpx - px, c->gpy - py);
    if (d2 <= s->best_d2) {
      double g = exact_g(nsd);
      if (ldsi_best_closer(s, d2, g, u)) {
        ldsi_best_set(s, d2, g, u);
        s->best_from = from;
        s->best_k1 = k1;
        s->best_dd = (uint8_t)d;
      }
    }
    if (!ncc) {
      const uint8_t *b = c->blocked;
      if ((b[u - (ptrdiff_t)dx] && !b[(ptrdiff_t)u - dx + c->off[vd]]) ||
          (b[(ptrdiff_t)u - c->off[vd]] && !b[(ptrdiff_t)u + dx - c->off[vd]]))
        return; /* a successor: the rest is offered when it is expanded */
    }
    /* a run's cells are at least its offset from the goal across it away:
    ** no scan when that is beyond the best (most runs, once near the goal) */
    if (ldsi_d2(0, c->gpy - py) <= s->best_d2)
      track_run(s, c, from, nsd, k1, d, px, py, hd, run_len(c, px, py, hd));
    if (ldsi_d2(c->gpx - px, 0) <= s->best_d2)
      track_run(s, c, from, nsd, k1, d, px, py, vd, run_len(c, px, py, vd));
  }
}

/* Offers every cell that the jumps of u's expansion (directions dirs) pass. */
static void track_scans(lds_Search *s, const Ctx *c, uint32_t u, int32_t px, int32_t py,
                        unsigned dirs, uint64_t nsd_u, bool ncc) {
  int d;
  for (d = 0; d < 4; d++)
    if (((dirs >> d) & 1u) &&
        (DX[d] ? ldsi_d2(0, c->gpy - py) : ldsi_d2(c->gpx - px, 0)) <= s->best_d2)
      track_run(s, c, u, nsd_u, 0, 0, px, py, d, run_len(c, px, py, d));
  for (d = 4; d < 8; d++)
    if ((dirs >> d) & 1u) track_diag(s, c, u, px, py, d, nsd_u, ncc);
}

/* ----------------------------------------------------- open list -- */
/* The open list is the search's heap (lds_open_list.h) plus its plateau
** stack (s->buf; see "The plateau stack" in lds_astar.c): a fresh successor v of the node u
** just expanded with f(v) == f(u) and g(v) > g(u) precedes every open node
** under the open list's order (f, then larger g, then insertion order), so
** such successors, sorted among themselves, go on top of a stack instead of
** into the heap, and a pop takes the smaller of the stack top and the heap
** top. The expansion order, and every path, is exactly that of the heap
** alone. The helpers are lds_open_list.h's, shared with the A* loop. */


/* ---------------------------------------------------- expansion -- */

/* The expansion loop: A* over jump points. Same budget and status contract
** as the A* loop (ldsi_SearchOps.run). Specialised at compile time on
** the rule, JPS vs JPS+ and the heuristic. */
JI lds_Status jps_loop(lds_Search *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0,
                       const bool ncc, const bool plus, const int hk, const ldsi_KeyForm kf) {
  const lds_Grid *g = s->grid;
  ldsi_Jps *j = (ldsi_Jps *)s->algo_state;
  Ctx c;
  ldsi_Node *nodes = s->nodes;
  const uint32_t gen = s->gen;
  const double hw = s->hw;
  const bool reopen = s->reopen;
  const bool exact_f = hk == LDS_H_OCTILE && hw == 1.0;
  const bool track = s->params.partial; /* the cells jumps pass (track_scans) */
  const double inv_pw = 1.0 / (double)g->pw;
  uint64_t done = 0;
  c.g = g;
  c.j = j;
  c.nbr = g->nbr;
  c.blocked = g->blocked;
  c.dist = j->dist;
  ldsi_grid_offsets(g, c.off);
  c.pw = (uint32_t)g->pw;
  c.goal = s->goal;
  c.gpx = s->gx + 1;
  c.gpy = s->gy + 1;
  if (!plus && !(j->goal_marked && j->mgx == c.gpx && j->mgy == c.gpy))
    goal_remark(j, true, c.gpx, c.gpy); /* first slice of the query */

  for (;;) {
    uint32_t u;
    int32_t px, py;
    double gu, fu;
    uint64_t nsd_u, fk_popped, k2_popped;
    uint32_t aux_popped;
    unsigned dirs;
    Succ *sc = j->succ;
    ldsi_Open batch[BATCH_MAX];
    int nsucc, nb, i;
    if (max_exp && done >= max_exp) return LDS_RUNNING;
    if (budget_us && done && (done % CLOCK_EVERY) == 0 &&
        s->env.clock(s->env.clock_ud) - t0 >= budget_us)
      return LDS_RUNNING;
    u = ldsi_next_open_x(s, nodes, &fk_popped, &k2_popped, &aux_popped, kf);
    if (u == NONE) return LDS_NO_PATH;
    done++;
    s->stats.expansions++;
    if (u == c.goal) {
      ldsi_open_settle_x(s, kf);
      return LDS_FOUND;
    }
    gu = nodes[u].g;
    nsd_u = nodes[u].nsd;
    { /* u / pw by a multiply, corrected (see lds_astar.c) */
      uint32_t q = (uint32_t)((double)u * inv_pw);
      if ((uint64_t)q * c.pw > u) q--;
      else if ((uint64_t)(q + 1) * c.pw <= u) q++;
      py = (int32_t)q;
      px = (int32_t)(u - q * c.pw);
    }
    if (exact_f) /* the f it was queued with, as in the A* loop, but for the start */
      fu = u != s->start ? ldsi_open_val(fk_popped)
                         : ldsi_exact_octile_f(nsd_u, c.gpx - px, c.gpy - py);
    else
      fu = gu + hw * ldsi_hdist(hk, c.gpx - px, c.gpy - py);
    { /* the expanded jump point closest to the goal (ldsi_best_closer) */
      uint64_t d2 = ldsi_d2(c.gpx - px, c.gpy - py);
      if (d2 <= s->best_d2 && ldsi_best_closer(s, d2, gu, u)) ldsi_best_set(s, d2, gu, u);
    }
    dirs = succ_dirs(&c, u, nodes[u].aux, ncc);
    if (track) track_scans(s, &c, u, px, py, dirs, nsd_u, ncc);
    /* Phase 1: all jumps, prefetching each successor's record (jump points
    ** are far apart, so every record is a cache miss; overlapping them pays
    ** most on cluttered maps). Phase 2 relaxes them in direction order.
    ** One test per direction, in direction order, each with its direction a
    ** constant (a loop over the bits let the compiler hoist the set-up of
    ** all eight jumps in front of it, run at every expansion). */
    nsucc = 0;
    if (dirs & 0x0Fu) {
      if (dirs & (1u << LDS_DIR_N))
        nsucc = straight_succ(&c, nodes, sc, nsucc, u, px, py, LDS_DIR_N, plus);
      if (dirs & (1u << LDS_DIR_E))
        nsucc = straight_succ(&c, nodes, sc, nsucc, u, px, py, LDS_DIR_E, plus);
      if (dirs & (1u << LDS_DIR_S))
        nsucc = straight_succ(&c, nodes, sc, nsucc, u, px, py, LDS_DIR_S, plus);
      if (dirs & (1u << LDS_DIR_W))
        nsucc = straight_succ(&c, nodes, sc, nsucc, u, px, py, LDS_DIR_W, plus);
    }
    if (dirs & 0xF0u) {
      if (dirs & (1u << LDS_DIR_NE))
        nsucc = diag_succ(&c, nodes, sc, nsucc, u, px, py, LDS_DIR_NE, ncc, plus);
      if (dirs & (1u << LDS_DIR_SE))
        nsucc = diag_succ(&c, nodes, sc, nsucc, u, px, py, LDS_DIR_SE, ncc, plus);
      if (dirs & (1u << LDS_DIR_SW))
        nsucc = diag_succ(&c, nodes, sc, nsucc, u, px, py, LDS_DIR_SW, ncc, plus);
      if (dirs & (1u << LDS_DIR_NW))
        nsucc = diag_succ(&c, nodes, sc, nsucc, u, px, py, LDS_DIR_NW, ncc, plus);
    }
    nb = 0;
    for (i = 0; i < nsucc; i++) {
      int d = (int)sc[i].d;
      uint32_t v = sc[i].v;
      uint64_t nsd = nsd_u + sc[i].nsd;
      ldsi_Node *nv = &nodes[v];
      double ng, f;
      if (nv->gen != gen) {
        ng = exact_g(nsd);
        nv->gen = gen;
        nv->g = ng;
        nv->nsd = nsd;
        nv->parent = u;
        nv->aux = 1u << d;
        f = exact_f ? ldsi_exact_octile_f(nsd, c.gpx - sc[i].x, c.gpy - sc[i].y)
                    : ng + hw * ldsi_hdist(hk, c.gpx - sc[i].x, c.gpy - sc[i].y);
        ldsi_queue_fresh_x(s, batch, &nb, BATCH_MAX, v, f, ng,
                           LDSI_EXACT(kf) ? ldsi_exact_h_key(c.gpx - sc[i].x, c.gpy - sc[i].y, s->hq_a, s->hq_c)
                              : 0,
                           fu, gu, kf);
        continue;
      }
      /* closed and not reopened: nothing below would change it (an equal g
      ** adds no arrival to a closed node); most re-found jump points */
      if (nv->heap == LDSI_CLOSED && !reopen) continue;
      ng = exact_g(nsd);
      if (ng == nv->g) {
        if (nv->heap != LDSI_CLOSED) nv->aux |= 1u << d; /* equal-cost arrival */
        continue;
      }
      if (!(ng < nv->g)) continue;
      f = exact_f ? ldsi_exact_octile_f(nsd, c.gpx - sc[i].x, c.gpy - sc[i].y)
                  : ng + hw * ldsi_hdist(hk, c.gpx - sc[i].x, c.gpy - sc[i].y);
      nv->g = ng;
      nv->nsd = nsd;
      nv->parent = u;
      nv->aux = 1u << d;
      {
        uint64_t hk2 = LDSI_EXACT(kf) ? ldsi_exact_h_key(c.gpx - sc[i].x, c.gpy - sc[i].y, s->hq_a, s->hq_c) : 0;
        if (nv->heap == LDSI_CLOSED || nv->heap == LDSI_INBUF)
          ldsi_open_push_x(s, v, f, ng, hk2, kf); /* a stack entry turns stale */
        else
          ldsi_open_decrease_x(s, nv->heap, f, ng, hk2, kf);
      }
    }
    if (nb) ldsi_push_batch_x(s, nodes, batch, nb, kf);
    ldsi_open_settle_x(s, kf); /* the pop's hole, when no push filled it */
  }
}

/* octile with weight 1 (f exact) uses the exact-form open-list keys
** (lds_open_list.h), as the A* loop does; the same expansion order */
#define JPS_DISPATCH(ncc, plus)                                                      \
  switch (s->hk) {                                                                   \
    case LDS_H_ZERO: return jps_loop(s, m, b, t0, ncc, plus, LDS_H_ZERO, LDSI_KEYS_GENERAL);         \
    case LDS_H_MANHATTAN: return jps_loop(s, m, b, t0, ncc, plus, LDS_H_MANHATTAN, LDSI_KEYS_GENERAL); \
    case LDS_H_EUCLIDEAN: return jps_loop(s, m, b, t0, ncc, plus, LDS_H_EUCLIDEAN, LDSI_KEYS_GENERAL); \
    case LDS_H_CHEBYSHEV: return jps_loop(s, m, b, t0, ncc, plus, LDS_H_CHEBYSHEV, LDSI_KEYS_GENERAL); \
    default:                                                                         \
      if (s->hw == 1.0 && s->hq_scale > 0.0)                                         \
        return jps_loop(s, m, b, t0, ncc, plus, LDS_H_OCTILE, LDSI_KEYS_EXACT);                    \
      return jps_loop(s, m, b, t0, ncc, plus, LDS_H_OCTILE, LDSI_KEYS_GENERAL);                      \
  }

static lds_Status run_jps_ncc(lds_Search *s, uint64_t m, uint64_t b, uint64_t t0) {
  JPS_DISPATCH(true, false)
}
static lds_Status run_jps_always(lds_Search *s, uint64_t m, uint64_t b, uint64_t t0) {
  JPS_DISPATCH(false, false)
}
static lds_Status run_jps_plus(lds_Search *s, uint64_t m, uint64_t b, uint64_t t0) {
  JPS_DISPATCH(true, true)
}

/* ------------------------------------------------------- lifetime -- */

static void bits_build(ldsi_Jps *j, const lds_Grid *g) {
  uint64_t t0 = j->s->env.clock(j->s->env.clock_ud);
  memset(j->rows, 0, (size_t)j->ph * j->rw * sizeof(uint64_t));
  memset(j->cols, 0, (size_t)j->pw * j->cw * sizeof(uint64_t));
  bits_update(j, g, 0, 0, j->pw - 1, j->ph - 1);
  ev_build(j, g);
  j->seen_version = g->version;
  j->bits_us = j->s->env.clock(j->s->env.clock_ud) - t0;
}

static void on_grid_edit(void *ud, const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1,
                         int32_t y1, uint64_t version) {
  ldsi_Jps *j = (ldsi_Jps *)ud;
  bool changed = bits_update(j, g, x0 + 1, y0 + 1, x1 + 1, y1 + 1);
  j->seen_version = version;
  if (j->ev_ncc != (g->diag == LDS_DIAG_NO_CORNER_CUTTING))
    j->ev_valid = false; /* another rule: rebuilt by the next query */
  else if (changed && j->ev_valid) /* the lines through the rectangle and beside it */
    ev_update(j, x0, y0, x1 + 2, y1 + 2);
  if (!j->dist) return;
  if (!ldsi_jps_plus_applies(g))
    j->plus_valid = false; /* rebuilt by the next JPS+ query on a no_corner_cutting grid */
  else if (changed && j->plus_valid)
    ldsi_jps_plus_update(j, g, x0, y0, x1, y1);
}

static size_t jps_bytes(const ldsi_Jps *j, const lds_Grid *g) {
  size_t b = sizeof *j +
             ((size_t)j->ph * j->rw + (size_t)j->pw * j->cw + ev_words(j)) * sizeof(uint64_t) +
             j->succ_cap * sizeof(Succ);
  if (j->dist)
    b += g->pcells * 8 * sizeof(ldsi_jdist) + 2 * (size_t)(g->w + g->h - 1);
  return b;
}

static void jps_free(lds_Search *s) {
  ldsi_Jps *j = (ldsi_Jps *)s->algo_state;
  const lds_Grid *g = s->grid;
  if (!j) return;
  if (j->listening) lds_grid_unlisten((lds_Grid *)(uintptr_t)g, on_grid_edit, j);
  ldsi_free(&s->env, j->rows, (size_t)j->ph * j->rw * sizeof(uint64_t));
  ldsi_free(&s->env, j->cols, (size_t)j->pw * j->cw * sizeof(uint64_t));
  ldsi_free(&s->env, j->evbuf, ev_words(j) * sizeof(uint64_t));
  ldsi_free(&s->env, j->succ, j->succ_cap * sizeof(Succ));
  if (j->dist) {
    ldsi_free(&s->env, j->dist, g->pcells * 8 * sizeof(ldsi_jdist));
    ldsi_free(&s->env, j->mark_a, (size_t)(g->w + g->h - 1));
    ldsi_free(&s->env, j->mark_d, (size_t)(g->w + g->h - 1));
  }
  ldsi_free(&s->env, j, sizeof *j);
  s->algo_state = NULL;
  s->algo_free = NULL;
  s->algo_bytes = 0;
}

static lds_Status nomem(lds_Search *s, const char *what, size_t bytes) {
  ldsi_msg(s->errmsg, "lds_search_jps_prepare: out of memory for the %s (%zu bytes)", what,
           bytes);
  return LDS_E_NOMEM;
}

lds_Status lds_search_jps_prepare(lds_Search *s, bool plus) {
  const lds_Grid *g = s->grid;
  ldsi_Jps *j = (ldsi_Jps *)s->algo_state;
  if (s->space != LDSI_SPACE_GRID) {
    ldsi_msg(s->errmsg, "lds_search_jps_prepare: JPS needs a grid search");
    return LDS_E_ARG;
  }
  if (!j) {
    size_t rw = ((size_t)g->pw + 63) / 64 + 3, cw = ((size_t)g->ph + 63) / 64 + 3;
    size_t bytes = ((size_t)g->ph * rw + (size_t)g->pw * cw) * sizeof(uint64_t);
    j = (ldsi_Jps *)ldsi_calloc(&s->env, 1, sizeof *j);
    if (!j) return nomem(s, "JPS state", sizeof *j);
    j->s = s;
    j->w = g->w;
    j->h = g->h;
    j->pw = g->pw;
    j->ph = g->ph;
    j->rw = rw;
    j->cw = cw;
    /* a diagonal jump adds at most two successors per step */
    j->succ_cap = 2 * (size_t)(g->w > g->h ? g->w : g->h) + 16;
    j->succ = (Succ *)ldsi_alloc(&s->env, j->succ_cap * sizeof(Succ));
    j->rows = (uint64_t *)ldsi_alloc(&s->env, (size_t)g->ph * rw * sizeof(uint64_t));
    j->cols = (uint64_t *)ldsi_alloc(&s->env, (size_t)g->pw * cw * sizeof(uint64_t));
    j->nwr = ((size_t)g->pw + 63) / 64;
    j->nwc = ((size_t)g->ph + 63) / 64;
    j->evbuf = (uint64_t *)ldsi_alloc(&s->env, ev_words(j) * sizeof(uint64_t));
    j->evr = j->evbuf;
    if (j->evbuf) j->evc = j->evbuf + (size_t)g->ph * j->nwr * EVG;
    s->algo_state = j;
    s->algo_free = jps_free;
    if (!j->rows || !j->cols || !j->evbuf || !j->succ) {
      size_t more = j->succ_cap * sizeof(Succ) + ev_words(j) * sizeof(uint64_t);
      jps_free(s);
      return nomem(s, "JPS bit grids", bytes + more);
    }
    /* the only write to the grid on a search's read path: its listener list
    ** is locked, so searches of other threads may start on it meanwhile;
    ** edits then update the tables from the editing thread (docs/threads.md) */
    if (lds_grid_listen((lds_Grid *)(uintptr_t)g, on_grid_edit, j) != LDS_OK) {
      jps_free(s);
      return nomem(s, "grid listener", sizeof(ldsi_Listener));
    }
    j->listening = true;
    bits_build(j, g);
  } else if (j->seen_version != g->version) {
    bits_build(j, g); /* an edit we did not hear about: rebuild */
    j->plus_valid = false;
  } else if (!j->ev_valid || j->ev_ncc != (g->diag == LDS_DIAG_NO_CORNER_CUTTING)) {
    ev_build(j, g); /* the diagonal rule changed */
  }
  if (plus && !j->dist) {
    size_t nl = (size_t)(g->w + g->h - 1), bytes = g->pcells * 8 * sizeof(ldsi_jdist);
    j->dist = (ldsi_jdist *)ldsi_alloc(&s->env, bytes);
    j->mark_a = (uint8_t *)ldsi_calloc(&s->env, nl, 1);
    j->mark_d = (uint8_t *)ldsi_calloc(&s->env, nl, 1);
    if (!j->dist || !j->mark_a || !j->mark_d) {
      ldsi_free(&s->env, j->dist, bytes);
      ldsi_free(&s->env, j->mark_a, nl);
      ldsi_free(&s->env, j->mark_d, nl);
      j->dist = NULL;
      s->algo_bytes = jps_bytes(j, g);
      return nomem(s, "JPS+ tables", bytes + 2 * nl);
    }
    j->plus_valid = false;
  }
  if (plus && !j->plus_valid && ldsi_jps_plus_applies(g)) ldsi_jps_plus_build(j, g);
  s->algo_bytes = jps_bytes(j, g);
  return LDS_OK;
}

void lds_search_jps_info(const lds_Search *s, lds_JpsInfo *out) {
  const ldsi_Jps *j = (const ldsi_Jps *)s->algo_state;
  memset(out, 0, sizeof *out);
  if (!j) return;
  out->bitgrid_bytes =
      ((size_t)j->ph * j->rw + (size_t)j->pw * j->cw + ev_words(j)) * sizeof(uint64_t);
  out->bitgrid_us = j->bits_us;
  if (j->dist) {
    out->plus_bytes = s->grid->pcells * 8 * sizeof(ldsi_jdist) + 2 * (size_t)(j->w + j->h - 1);
    out->plus_us = j->plus_us;
    out->plus_updates = j->plus_updates;
    out->plus_update_us = j->plus_update_us;
  }
}

/* ------------------------------------------------------- operations -- */

static const ldsi_SearchOps jps_ncc_ops, jps_always_ops, jps_plus_ops;

/* ldsi_jps_ops.start: builds JPS's structures on first use (may allocate)
** and installs the ops of the variant that runs the query, or the A* loop's
** where JPS does not apply (lds_jps.h, "When JPS applies"). */
static lds_Status jps_start(lds_Search *s) {
  const lds_Grid *g = s->grid;
  const lds_SearchParams *p = &s->params;
  bool plus = p->algo == LDS_ALGO_JPS_PLUS;
  bool ncc = g->diag == LDS_DIAG_NO_CORNER_CUTTING;
  lds_Status st;
  /* JPS is optimal: no weight, A*'s reopening rule */
  s->gk = 1.0;
  s->hw = s->scale;
  s->reopen = p->h_scale > 0.0 || p->edge_cost != NULL;
  if (g->neighbourhood != 8 || (g->diag != LDS_DIAG_NO_CORNER_CUTTING && g->diag != LDS_DIAG_ALWAYS) ||
      g->nonunit || s->nweights || p->edge_cost) {
    s->ops = &ldsi_astar_ops; /* JPS is not optimal here: the A* loop */
    return LDS_OK;
  }
  if (plus && !ncc) plus = false;
  st = lds_search_jps_prepare(s, plus);
  if (st < 0) return st;
  goal_remark((ldsi_Jps *)s->algo_state, false, 0, 0); /* the goal is marked by the loop */
  s->ops = plus ? &jps_plus_ops : ncc ? &jps_ncc_ops : &jps_always_ops;
  return LDS_OK;
}

/* The cells of the path from the start to node end (unpadded ids y*w + x),
** jump points filled in, or in the sparse form (the jump points and the
** corner of each pruned link); *n receives their number. NULL when out of
** memory (err set). [Owner: the caller frees n cells with ldsi_free] */
static uint32_t *jps_cells(const lds_Search *s, uint32_t end, bool sparse, size_t *n_out,
                           lds_Error *err) {
  const lds_Grid *g = s->grid;
  size_t n = 1, k;
  uint32_t v, *cells;
  int32_t x, y, px, py;
  for (v = end; s->nodes[v].parent != LDSI_NONE; v = s->nodes[v].parent) {
    uint32_t u = s->nodes[v].parent;
    ldsi_grid_pxy(g, v, &x, &y);
    ldsi_grid_pxy(g, u, &px, &py);
    {
      int32_t ax = x > px ? x - px : px - x, ay = y > py ? y - py : py - y;
      if (sparse)
        n += ax && ay && ax != ay ? 2 : 1; /* a pruned link has a corner */
      else
        n += (size_t)(ax > ay ? ax : ay);
    }
  }
  cells = (uint32_t *)ldsi_alloc(&s->env, n * sizeof(uint32_t));
  if (!cells) {
    ldsi_error(err, LDS_E_NOMEM, "lds_search_path: out of memory for %zu cells", n);
    return NULL;
  }
  k = n;
  for (v = end;; v = s->nodes[v].parent) {
    uint32_t u = s->nodes[v].parent;
    ldsi_grid_pxy(g, v, &x, &y);
    if (u == LDSI_NONE) {
      cells[--k] = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
      break;
    }
    ldsi_grid_pxy(g, u, &px, &py);
    { /* Cells of the link from v back to u, u excluded. A link is straight,
      ** diagonal, or (an intermediate jump point pruned by jump_diag)
      ** diagonal from u then straight: walking back, straight along the
      ** longer axis until the offsets are equal, then diagonal. Sparse: v,
      ** and the corner of a pruned link. */
      int32_t ax = x > px ? x - px : px - x, ay = y > py ? y - py : py - y;
      int32_t sx = (px > x) - (px < x), sy = (py > y) - (py < y);
      if (sparse) {
        cells[--k] = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
        if (ax > ay && ay) cells[--k] = (uint32_t)y * (uint32_t)g->w + (uint32_t)(x + sx * (ax - ay));
        if (ay > ax && ax) cells[--k] = (uint32_t)(y + sy * (ay - ax)) * (uint32_t)g->w + (uint32_t)x;
        continue;
      }
      while (ax || ay) {
        bool mx = ax >= ay, my = ay >= ax;
        cells[--k] = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
        if (mx) x += sx, ax--;
        if (my) y += sy, ay--;
      }
    }
  }
  *n_out = n;
  return cells;
}

/* The cells of the partial path: to node s->best_from (jps_cells, dense or
** sparse), then the tail that a jump passed to s->best (see track_run:
** best_k1 diagonal moves, then best_k2 straight ones; sparse: the corner
** and the end). [Owner: the caller frees *n_out cells with ldsi_free] */
static uint32_t *partial_cells(const lds_Search *s, bool sparse, size_t *n_out, lds_Error *err) {
  const lds_Grid *g = s->grid;
  const uint32_t k1 = s->best_k1, k2 = s->best_k2;
  size_t n0, n, k, extra = sparse ? (size_t)(k1 > 0) + (size_t)(k2 > 0) : (size_t)k1 + k2;
  uint32_t *c0 = jps_cells(s, s->best_from, sparse, &n0, err), *cells;
  int32_t x, y;
  if (!c0 || extra == 0) {
    *n_out = n0;
    return c0;
  }
  n = n0 + extra;
  cells = (uint32_t *)ldsi_alloc(&s->env, n * sizeof(uint32_t));
  if (!cells) {
    ldsi_free(&s->env, c0, n0 * sizeof(uint32_t));
    ldsi_error(err, LDS_E_NOMEM, "lds_search_path: out of memory for %zu cells", n);
    return NULL;
  }
  memcpy(cells, c0, n0 * sizeof(uint32_t));
  ldsi_free(&s->env, c0, n0 * sizeof(uint32_t));
  ldsi_grid_pxy(g, s->best_from, &x, &y);
  k = n0;
  for (uint32_t i = 1; i <= k1; i++) {
    x += DX[s->best_dd];
    y += DY[s->best_dd];
    if (!sparse || i == k1) cells[k++] = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
  }
  for (uint32_t i = 1; i <= k2; i++) {
    x += DX[s->best_ds];
    y += DY[s->best_ds];
    if (!sparse || i == k2) cells[k++] = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
  }
  *n_out = n;
  return cells;
}

/* A partial path's end. With params.partial the search offers every cell
** its jumps pass (track_scans), so the path ends at A*'s cell. Without it
** (lds_search_partial_path of a query that did not ask) only the expanded
** jump points are compared, and the path to the closest one passes cells
** that were never compared (a pruned diagonal's corner, the cells of a
** jump); one of them can be closer, and the path would then end by moving
** away from the goal. So the dense path is cut at its first cell closest
** to the goal (squared Euclidean distance, as ldsi_best_closer; the first
** such cell has the smallest g), a no-op for a tracked query. Returns that
** cell's index and its exact cost (ns + nd*sqrt(2) over the kept moves, as
** the search computes g, so the cost is the search's bit for bit). */
static size_t partial_cut(const lds_Search *s, const uint32_t *cells, size_t n, double *cost) {
  const int32_t w = s->grid->w, gx = s->gx, gy = s->gy;
  size_t i, best = 0;
  uint64_t bd = UINT64_MAX;
  uint64_t ns = 0, nd = 0;
  for (i = 0; i < n; i++) {
    int32_t x = (int32_t)(cells[i] % (uint32_t)w), y = (int32_t)(cells[i] / (uint32_t)w);
    uint64_t d = ldsi_d2(gx - x, gy - y);
    if (d < bd) {
      bd = d;
      best = i;
    }
  }
  for (i = 0; i < best; i++) {
    bool diag = cells[i] % (uint32_t)w != cells[i + 1] % (uint32_t)w &&
                cells[i] / (uint32_t)w != cells[i + 1] / (uint32_t)w;
    if (diag) nd++;
    else ns++;
  }
  *cost = (double)(uint32_t)ns + (double)(uint32_t)nd * LDSI_SQRT2;
  return best;
}

/* A path object for n cells with the search's allocator. */
static lds_Path *jps_path_new(const lds_Search *s, const uint32_t *cells, size_t n, double cost,
                              uint32_t flags, lds_Error *err) {
  lds_Env env = ldsi_env_public(&s->env);
  return lds_path_new(&env, cells, n, s->grid->w, cost, flags, err);
}

/* The path to node end of a JPS query (ldsi_SearchOps.build_path): each
** parent link is a straight or diagonal line, filled in cell by cell unless
** sparse. */
static lds_Path *jps_build_path(const lds_Search *s, uint32_t end, uint32_t flags, bool sparse,
                                lds_Error *err) {
  size_t n;
  uint32_t *cells;
  lds_Path *p;
  double cost = s->nodes[end].g;
  if (flags & LDS_PATH_PARTIAL) { /* end is s->best */
    size_t nd, cut;
    uint32_t *dense = partial_cells(s, false, &nd, err);
    if (!dense) return NULL;
    cut = partial_cut(s, dense, nd, &cost);
    if (!sparse) {
      cells = dense;
      n = cut + 1;
      p = jps_path_new(s, cells, n, cost, flags, err);
      ldsi_free(&s->env, dense, nd * sizeof(uint32_t));
      return p;
    }
    /* sparse: the points up to the cut (a subsequence of the dense cells,
    ** which an optimal path visits once each), then the cut cell */
    cells = partial_cells(s, true, &n, err);
    if (!cells) {
      ldsi_free(&s->env, dense, nd * sizeof(uint32_t));
      return NULL;
    }
    {
      size_t i, j = 0, kept = 0;
      for (i = 0; i < n; i++) {
        while (j <= cut && dense[j] != cells[i]) j++;
        if (j > cut) break;
        kept++;
      }
      if (kept == 0 || cells[kept - 1] != dense[cut]) cells[kept++] = dense[cut];
      ldsi_free(&s->env, dense, nd * sizeof(uint32_t));
      p = jps_path_new(s, cells, kept, cost, flags, err);
      ldsi_free(&s->env, cells, n * sizeof(uint32_t));
      return p;
    }
  }
  cells = jps_cells(s, end, sparse, &n, err);
  if (!cells) return NULL;
  p = jps_path_new(s, cells, n, cost, flags, err);
  ldsi_free(&s->env, cells, n * sizeof(uint32_t));
  return p;
}

/* JPS's entry (lds_search_start): jps_start replaces it by the table of the
** variant that runs the query, or by ldsi_astar_ops where JPS does not
** apply; the variants share the path builder. */
const ldsi_SearchOps ldsi_jps_ops = {LDS_ALGO_JPS, jps_start, NULL, jps_build_path};
static const ldsi_SearchOps jps_ncc_ops = {LDS_ALGO_JPS, NULL, run_jps_ncc, jps_build_path};
static const ldsi_SearchOps jps_always_ops = {LDS_ALGO_JPS, NULL, run_jps_always, jps_build_path};
static const ldsi_SearchOps jps_plus_ops = {LDS_ALGO_JPS_PLUS, NULL, run_jps_plus, jps_build_path};
