/* SPDX-License-Identifier: MIT */
/*
** lds_dstar_internal.h — D* Lite's shared state (hidden): the search
** struct, its vertex records, and the vertex space (successors,
** predecessors, heuristic) of grids and graphs as static inline functions,
** so the hot loops of every D* Lite file inline them.
**
** Files (each calls only files listed after it; lds_dstar_grid.c and
** lds_dstar_graph.c never call each other):
**   lds_dstar.c        object lifecycle, queries, compute (ComputeShortestPath)
**   lds_dstar_path.c   the path walk, lds_dstar_path / _next / _next_node
**   lds_dstar_grid.c   grid space: snapshots, restart, changes, the grid listener
**   lds_dstar_graph.c  graph space: constructor, snapshots, restart, changes, listener
**   lds_dstar_queue.c  the U queue, UpdateVertex, rhs; its header
**                      lds_dstar_queue_internal.h: the keys (k1/k2 with
**                      k_m, CalculateKey) and the queue order, inline
*/
#ifndef LDS_DSTAR_INTERNAL_H
#define LDS_DSTAR_INTERNAL_H

#include "lds_dstar.h"
#include "lds_graph_internal.h"
#include "lds_grid_internal.h"
#include "lds_internal.h"

#include <math.h>
#include <string.h>

#define NONE 0xFFFFFFFFu
#define MAXDEG 8

/* mark bits, one byte per padded cell */
#define M_DIRTY 1u    /* in the change list */
#define M_AFFECTED 2u /* rhs recomputed in the current batch */
#define M_BLOCKED 4u  /* snapshot: the cell is blocked */
#define M_INVAL 8u    /* grids: collected by grid_invalidate (lds_dstar_grid.c) */

/* an exact heuristic distance: a + b*sqrt(2) cells */
typedef struct DsH {
  int64_t a, b;
} DsH;

/* Everything the search reads about one vertex, in one 32-byte record, so
** touching a vertex costs one cache line (not one per array). */
typedef struct DsVertex {
  double g, rhs;
  double ecost;  /* snapshot: effective cost of entering (inf: blocked) */
  uint32_t hpos; /* heap position or NONE */
  uint8_t nbr;   /* snapshot of the legal-move mask */
  uint8_t pnbr;  /* predecessor mask: bit d set when the move into this cell
                 ** from cell - off[d] (direction d) is legal in the snapshot;
                 ** kept in step with nbr by snap_cell
                 ** (lds_dstar_grid.c) */
  uint8_t mark;  /* M_* bits */
} DsVertex;

/* one vertex per 32 bytes: the memory figure in lds_dstar.h relies on it */
_Static_assert(sizeof(DsVertex) == 32, "DsVertex must stay 32 bytes");

/* A queue entry: the key (k1, class, k2) and, precomputed, its sort key sk
** (see ldsi_dstar_key_sort), which ldsi_dstar_entry_less compares first. */
typedef struct DsEntry {
  double k1, sk, k2;
  uint32_t node;
  uint8_t under; /* 1: underconsistent (g < rhs), 0: overconsistent */
} DsEntry;

/* The vertex space behind a small interface of three functions, defined
** below for the grid (ldsi_dstar_grid_succ, _pred, _h) and the graph
** (ldsi_dstar_graph_succ, _pred, _h):
**   succ(ds, u, v[], c[]) -> n   successors of u with edge costs, fixed order
**   pred(ds, v, u[], c[]) -> n   predecessors of v with edge costs c(u, v)
**   h(ds, a, b)                  heuristic distance (grids: exact DsH, see
**                                ldsi_dstar_hdist; graphs: a double)
** The search calls them only through SP_SUCC / SP_PRED / SP_H, static
** inline, so the compiler inlines them into every loop. A graph search
** (graph != NULL, lds_dstar_new_graph) branches to the graph functions (CSR
** out- and in-edges) and keys with ldsi_dstar_graph_h in doubles; its
** neighbour arrays are the search's own buffers of the largest degree
** instead of MAXDEG. */
struct lds_DStar {
  ldsi_Env env;
  const lds_Grid *grid;
  lds_Grid *listened;      /* the grid we listen to, NULL if none */
  size_t n;                /* vertices (padded cells) */
  DsVertex *v;             /* per padded cell: g, rhs, snapshots, heap position */
  DsEntry *heap;
  size_t heap_n;
  uint32_t *dirty;         /* change list (each cell at most once: M_DIRTY) */
  size_t ndirty;
  uint32_t *scratch;       /* path cells */
  ptrdiff_t off[8];
  uint32_t pw;
  uint32_t start, goal, last; /* last: start at the last k_m update */
  int32_t start_x, start_y;   /* padded coordinates of start (for h) */
  DsH km;                  /* k_m, exact (see ldsi_dstar_hdist) */
  lds_Heuristic hk_param, hk;
  double scale;
  bool auto_scale;
  double weights[16];
  int nweights;
  bool reinit_pending;
  bool root_hole;          /* heap[0] is a settled vertex's dead entry
                           ** (see ldsi_dstar_fill_hole) */
  bool in_replan;
  bool had_no_path;
  lds_Status status;
  uint32_t flags;
  double cost;
  lds_DStarStats stats;
  char errmsg[LDS_ERRMSG_SIZE];
  /* graph space (lds_dstar_new_graph; grid is then NULL): vertices are node
  ** ids, edge costs come from the snapshot gcost (forward edge ids), h is
  ** scale * coordinate distance in doubles, k_m is gkm */
  const lds_Graph *graph;
  lds_Graph *glistened;    /* the graph we listen to, NULL if none */
  double *gcost;           /* [gm] snapshot of the edge costs */
  uint32_t gm, gdeg;       /* edges; scratch capacity (largest degree, >= 1) */
  uint32_t *gsv, *gpv, *gidx; /* successor / predecessor / path-walk scratch */
  double *gsc, *gpc;
  double gkm;              /* k_m on graphs */
  bool gzero;              /* graphs: h = 0 */
  bool gtiny;              /* some edge is (nearly) free: eager invalidation
                           ** (grids too: some move vanishes in c + g) */
  double gmaxc;            /* largest snapshot cost seen since the last restart */
  double gminc;            /* grids: smallest snapshot cell cost since then */
};

static const double move_len[8] = {1.0, 1.0, 1.0, 1.0, LDSI_SQRT2, LDSI_SQRT2, LDSI_SQRT2,
                                   LDSI_SQRT2};

/* ------------------------------------------------------- grid space -- */

/* Heuristic distances are kept exact, as a + b*sqrt(2) cells with integer
** a and b (octile: a = max - min, b = min; manhattan, chebyshev: b = 0), and
** k_m is a sum of such pairs. Why: the lower-bound argument behind k_m is the
** triangle inequality h(s,u) <= h(s,s') + h(s',u), which often holds with
** equality on a grid; summed in floating point the two sides can round
** apart by an ulp, a stored key then exceeds the vertex's true key and the
** search stops one vertex too early. With
** integer pairs equal sides are identical and unequal sides differ by far
** more than rounding, so every comparison is exact. */
static inline DsH ldsi_dstar_hdist(int hk, int32_t dx, int32_t dy) {
  DsH r;
  int64_t mx, mn;
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  mx = dx > dy ? dx : dy;
  mn = dx > dy ? dy : dx;
  switch (hk) {
    case LDS_H_ZERO: r.a = 0; r.b = 0; break;
    case LDS_H_MANHATTAN: r.a = (int64_t)dx + dy; r.b = 0; break;
    case LDS_H_CHEBYSHEV: r.a = mx; r.b = 0; break;
    default: r.a = mx - mn; r.b = mn; break; /* octile */
  }
  return r;
}

static inline DsH ldsi_dstar_grid_h(const lds_DStar *ds, uint32_t a, uint32_t b) {
  int32_t dx = (int32_t)(a % ds->pw) - (int32_t)(b % ds->pw);
  int32_t dy = (int32_t)(a / ds->pw) - (int32_t)(b / ds->pw);
  return ldsi_dstar_hdist((int)ds->hk, dx, dy);
}

/* h(start, u) with the start's coordinates cached: one division, not two */
static inline DsH ldsi_dstar_grid_h_start(const lds_DStar *ds, uint32_t u) {
  uint32_t uy = u / ds->pw, ux = u - uy * ds->pw;
  return ldsi_dstar_hdist((int)ds->hk, ds->start_x - (int32_t)ux, ds->start_y - (int32_t)uy);
}

/* successors of u: v = u + off[d] for each legal d, c = len(d) * ecost(v) */
static inline int ldsi_dstar_grid_succ(const lds_DStar *ds, uint32_t u, uint32_t *v, double *c) {
  unsigned m = ds->v[u].nbr;
  int k = 0;
  while (m) {
    int d = __builtin_ctz(m);
    uint32_t w = (uint32_t)((ptrdiff_t)u + ds->off[d]);
    double cw = ds->v[w].ecost;
    m &= m - 1;
    if (cw == INFINITY) continue; /* blocked by a layer */
    v[k] = w;
    c[k] = move_len[d] * cw;
    k++;
  }
  return k;
}

/* predecessors of v: u = v - off[d] where the move u -> v (direction d) is
** legal; every such edge costs len(d) * ecost(v) (the cell entered is v) */
static inline int ldsi_dstar_grid_pred(const lds_DStar *ds, uint32_t v, uint32_t *u, double *c) {
  double cv = ds->v[v].ecost;
  unsigned m = ds->v[v].pnbr; /* no neighbour reads: the mask says who */
  int k = 0;
  if (cv == INFINITY) return 0;
  while (m) { /* ascending d: the order of the 8-direction scan */
    int d = __builtin_ctz(m);
    m &= m - 1;
    u[k] = (uint32_t)((ptrdiff_t)v - ds->off[d]);
    c[k] = move_len[d] * cv;
    k++;
  }
  return k;
}

/* ------------------------------------------------------ graph space -- */

/* h(a, b) on graphs: scale * coordinate distance, or 0 */
static inline double ldsi_dstar_graph_h(const lds_DStar *ds, uint32_t a, uint32_t b) {
  if (ds->gzero || a == b) return 0.0;
  return ds->scale * ldsi_graph_dist(ds->graph, a, b);
}

/* out-edges of u in CSR order, costs from the snapshot */
static inline int ldsi_dstar_graph_succ(const lds_DStar *ds, uint32_t u, uint32_t *v, double *c) {
  const lds_Graph *g = ds->graph;
  uint32_t e, e0 = g->off[u], e1 = g->off[u + 1];
  int k = 0;
  for (e = e0; e < e1; e++) {
    v[k] = g->dst[e];
    c[k] = ds->gcost[e];
    k++;
  }
  return k;
}

/* in-edges of v (reverse CSR: sources and forward edge ids) */
static inline int ldsi_dstar_graph_pred(const lds_DStar *ds, uint32_t v, uint32_t *u, double *c) {
  const lds_Graph *g = ds->graph;
  uint32_t i, i0 = g->roff[v], i1 = g->roff[v + 1];
  int k = 0;
  for (i = i0; i < i1; i++) {
    u[k] = g->rsrc[i];
    c[k] = ds->gcost[g->redge[i]];
    k++;
  }
  return k;
}

#define SP_SUCC(ds, u, v, c) \
  ((ds)->graph ? ldsi_dstar_graph_succ(ds, u, v, c) : ldsi_dstar_grid_succ(ds, u, v, c))
#define SP_PRED(ds, v, u, c) \
  ((ds)->graph ? ldsi_dstar_graph_pred(ds, v, u, c) : ldsi_dstar_grid_pred(ds, v, u, c))
#define SP_H(ds, a, b) ldsi_dstar_grid_h(ds, a, b)
#define SP_H_START(ds, u) ldsi_dstar_grid_h_start(ds, u)

/* The defaults of lds_DStarParams (lds_dstar_params_init) */
static inline void ldsi_dstar_params_defaults(lds_DStarParams *p) {
  memset(p, 0, sizeof *p);
  p->heuristic = LDS_H_AUTO;
}

/* The bytes per vertex a search allocates (vertex, queue entry, change
** list, path scratch): the memory figure of lds_dstar.h */
static inline size_t ldsi_dstar_bytes_per_cell(void) {
  return sizeof(DsVertex) + sizeof(DsEntry) + 2 * sizeof(uint32_t); /* 72 */
}

/* Frees the arrays of ds (not ds itself); the graph arrays when ds->graph. */
static inline void ldsi_dstar_release(lds_DStar *ds) {
  const ldsi_Env *e = &ds->env;
  size_t n = ds->n;
  ldsi_free(e, ds->v, n * sizeof(DsVertex));
  ldsi_free(e, ds->heap, n * sizeof(DsEntry));
  ldsi_free(e, ds->dirty, n * sizeof(uint32_t));
  ldsi_free(e, ds->scratch, n * sizeof(uint32_t));
  if (ds->graph) {
    ldsi_free(e, ds->gcost, ((size_t)ds->gm + 1) * sizeof(double));
    ldsi_free(e, ds->gsv, ds->gdeg * sizeof(uint32_t));
    ldsi_free(e, ds->gpv, ds->gdeg * sizeof(uint32_t));
    ldsi_free(e, ds->gsc, ds->gdeg * sizeof(double));
    ldsi_free(e, ds->gpc, ds->gdeg * sizeof(double));
    ldsi_free(e, ds->gidx, n * sizeof(uint32_t));
  }
}

/* Puts vertex p on the change list for the next compute (once: M_DIRTY). */
static inline void ldsi_dstar_queue_change(lds_DStar *ds, uint32_t p) {
  if (ds->v[p].mark & M_DIRTY) return;
  ds->v[p].mark |= M_DIRTY;
  ds->dirty[ds->ndirty++] = p; /* capacity n: each cell at most once */
}

/* grid space (lds_dstar_grid.c) */
/* Full restart on a grid: snapshot every cell, resolve heuristic and
** scale, clear the search and queue the goal. O(cells); never allocates.
** fn names the caller in error messages. */
LDSI_HIDDEN lds_Status ldsi_dstar_grid_reinit(lds_DStar *ds, const char *fn);
/* Processes the grid change list (see lds_dstar_grid.c); *restart when a
** full restart must follow. */
LDSI_HIDDEN lds_Status ldsi_dstar_grid_changes(lds_DStar *ds, bool *restart);
/* Stops listening to the grid (lds_dstar_unsubscribe on a grid search). */
LDSI_HIDDEN lds_Status ldsi_dstar_grid_unsubscribe(lds_DStar *ds);

/* graph space (lds_dstar_graph.c) */
/* Full restart on a graph: snapshot every edge cost, resolve the scale,
** clear the search and queue the goal. O(nodes + edges). */
LDSI_HIDDEN lds_Status ldsi_dstar_graph_reinit(lds_DStar *ds);
/* Processes the graph change list (see lds_dstar_graph.c); *restart when a
** full restart must follow. */
LDSI_HIDDEN lds_Status ldsi_dstar_graph_changes(lds_DStar *ds, bool *restart);

#endif
