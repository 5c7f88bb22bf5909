/* SPDX-License-Identifier: MIT */
/*
** lds_landmarks.h — the landmark tables of the hierarchy's optimal mode
** (the differential heuristic, ALT): a few landmark cells, and per landmark
** L a table T_L with one 32-bit integer per padded cell, kept *feasible*
** for the symmetric lower-bound graph G' of the hierarchy's weight set:
**
**   G' has an edge {u, v} for every legal move u -> v (lds_Grid's move
**   mask, symmetric) between two cells of finite effective cost, of weight
**   w'(u, v) = floor(len * min(c(u), c(v)) / q) units of q cost units
**   (len 1 or sqrt 2, c the effective cost of lds_hpa_internal.h).
**   Feasible: |T_L(u) - T_L(v)| <= w'(u, v) for every edge, and an edge
**   never joins a finite value to LDSI_LM_INF (not reached).
**
** A move u -> v of the grid costs len * c(v) >= q * w'(u, v), so for any two
** cells n, g of finite cost, q * |T_L(n) - T_L(g)| is a lower bound of the
** cost of every path n -> g (sum the feasibility inequalities along it), and
** h(n) = q * max_L |T_L(n) - T_L(g)| is admissible and consistent for A*
** towards g on the directed grid; a finite value against LDSI_LM_INF proves
** n and g unconnected. Built as exact Dijkstra distances from landmarks
** placed by farthest-point selection (Goldberg & Harrelson, "Computing the
** shortest path: A* search meets graph theory", SODA 2005; the one-landmark
** "differential heuristic" of Sturtevant, Felner, Barrer, Schaeffer &
** Burch, "Memory-based heuristics for explicit state spaces", IJCAI 2009).
**
** Edits: a cost increase or a blocked cell keeps every table feasible
** (nothing to do: the bound only gets looser); a decrease (a door opened, a
** cost lowered) may break feasibility on the edges of the edited cells, and
** ldsi_lm_repair restores it by decrease propagation (Dijkstra from the
** violated edges, lowering values until every edge is feasible again): its
** cost is proportional to the cells whose values drop. The tables listen
** to the grid themselves (their own listener) and are repaired by
** lds_hpa_repair. Memory: 4 * k bytes per padded cell. Hidden; not
** installed.
*/
#ifndef LDS_LANDMARKS_H
#define LDS_LANDMARKS_H

#include "lds_hpa_internal.h"
#include "lds_search_internal.h"

/// Most landmarks of one hierarchy.
#define LDSI_LM_MAX 32
/// Table value of a cell no landmark path reached.
#define LDSI_LM_INF 0xFFFFFFFFu
/// Finite table values stay below this (2^31), so |a - b| >= it marks INF.
#define LDSI_LM_LIMIT 0x80000000u

typedef struct ldsi_LmRect {
  int32_t x0, y0, x1, y1;
} ldsi_LmRect;

typedef struct ldsi_Landmarks {
  ldsi_Env env;
  const lds_Hpa *h;        /* the hierarchy whose weight set the tables use */
  const lds_Grid *grid;
  int k;                   /* landmarks */
  double q;                /* cost units per table unit */
  size_t cells;            /* padded cells */
  uint32_t *tab;           /* cells * k: tab[p * k + l] = T_l(p) */
  uint32_t lp[LDSI_LM_MAX]; /* the landmarks' padded cells */
  /* edits heard since the last repair (the edited rectangles) */
  ldsi_LmRect *rect;
  size_t nrect, rcap;
  bool whole;              /* too many rectangles: repair the whole grid */
  bool listening;
  /* scratch of Dijkstra and repair: a heap of (value << 32 | cell) */
  uint64_t *heap;
  size_t hn, hcap;
  /* the cells the last ldsi_lm_repair may have lowered: the bounding box
  ** of the cells its propagation settled (empty: x0 > x1), or every cell
  ** after a rebuild (all); the hierarchy refreshes its entrance copies
  ** (ldsi_HpaCluster.lmv) there */
  ldsi_LmRect low;
  bool low_all;
  /* counters */
  uint64_t build_us, repairs, last_repair_us, last_repair_cells, rebuilds;
} ldsi_Landmarks;

/* Builds k (1..LDSI_LM_MAX) landmark tables for hierarchy h (its grid,
** weights and minc must be set) and listens to the grid. NULL with msg
** (LDS_ERRMSG_SIZE) on NOMEM. */
LDSI_HIDDEN ldsi_Landmarks *ldsi_lm_new(const lds_Hpa *h, int k, char *msg);
LDSI_HIDDEN void ldsi_lm_free(ldsi_Landmarks *m);
/* Restores feasibility after the edits heard (O(1) when none). LDS_OK or
** LDS_E_NOMEM (the tables are then rebuilt by the next call). */
LDSI_HIDDEN lds_Status ldsi_lm_repair(ldsi_Landmarks *m);
LDSI_HIDDEN size_t ldsi_lm_bytes(const ldsi_Landmarks *m);
/* The heuristic of an A* from padded cell s to padded cell t over m's
** tables, into *lh: the active landmarks (Goldberg & Harrelson, SODA 2005)
** are, of the tables that reach t, the max (at most LDSI_LMH_MAX) with the
** largest |T_L(s) - T_L(t)| (ties: the lower index; s outside the tables,
** blocked by a layer only, scores 0), each with its value at t. */
LDSI_HIDDEN void ldsi_lm_choose(const ldsi_Landmarks *m, size_t s, size_t t, int max,
                                ldsi_LmHeur *lh);

/* The table row of padded cell p. */
static inline const uint32_t *ldsi_lm_row(const ldsi_Landmarks *m, size_t p) {
  return m->tab + p * (size_t)m->k;
}

#endif
