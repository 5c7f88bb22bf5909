/* SPDX-License-Identifier: MIT */
/*
** lds_hpa_internal.h — the hierarchy's state (clusters, entrances, landmarks),
** the cluster-window search they share (lds_hpa_local.c) and the query
** object (lds_hpa_query.c, lds_hpa_exact.c). Hidden; not installed.
*/
#ifndef LDS_HPA_INTERNAL_H
#define LDS_HPA_INTERNAL_H

#include "lds_grid_internal.h"
#include "lds_hpa.h"

#include <math.h>

#define LDSI_HPA_NOIDX 0xFFFFFFFFu

/* one cluster: cells [x0..x1] x [y0..y1] */
typedef struct ldsi_HpaCluster {
  int32_t x0, y0, x1, y1;
  uint32_t n, cap;
  /* one block of cap slots per array, in the order the abstract search
  ** reads them (an expansion: offsets, then the targets' coordinates and
  ** landmark values, the matrix row), so a cluster's search data is
  ** contiguous: eoff[cap + 1], ioff[cap + 1], xy[cap], lmv[cap * lmk],
  ** dist[cap * cap], cell[cap] (block_bytes in lds_hpa.c) */
  uint32_t *blk;
  uint32_t *cell; /* padded ids of its entrances, ascending */
  uint32_t *xy;   /* their coordinates, x | y << 16 */
  float *dist;    /* n*n: dist[i*n+j] = cluster-restricted cost i -> j, INFINITY if none */
  /* per entrance i, the parent tree of its Dijkstra, 4 bits per cell (two
  ** a byte, (bw * bh + 1) / 2 bytes per entrance): the direction (LDS_DIR_*)
  ** of the move that reached local cell l = ly * bw + lx, 8 at the source,
  ** 15 where the search did not reach;
  ** the refinement traces it (ldsi_hpa_intra_trace), so the path from i to
  ** j costs dist[i*n+j] with no search */
  uint8_t *par;
  /* n * lmk values: lmv[i * lmk + l] = T_l(cell[i]), the landmark tables
  ** (lds_landmarks.h) at its entrances, a copy kept equal to the tables by
  ** build and repair, so the fast mode's heuristic reads the cluster's own
  ** memory instead of the whole-grid tables */
  uint32_t *lmv;
  /* inter edges, per entrance i: inter[ioff[i] .. ioff[i+1]) (CSR) */
  uint32_t *ioff;
  struct ldsi_HpaInter *inter;
  uint32_t ninter, intercap;
  /* the fast mode's search adjacency, per entrance i: edge[eoff[i] ..
  ** eoff[i+1]), its inter edges (a copy of inter[ioff[i] .. ioff[i+1])),
  ** then its intra edges (the finite entries of its matrix row):
  ** lds_hpa_adj.c */
  uint32_t *eoff;
  struct ldsi_HpaEdge *edge;
  uint32_t nedge, edgecap;
} ldsi_HpaCluster;

/* an inter edge: the legal move from an entrance onto entrance i of the
** neighbouring cluster cl, costing c (its length times the target's cost) */
typedef struct ldsi_HpaInter {
  uint32_t cl;
  uint32_t i;
  uint32_t xy; /* the target's coordinates, x | y << 16 */
  float c;
} ldsi_HpaInter;

/* an edge of a search adjacency (8 bytes): onto entrance i of the cluster
** at cluster offset lds_Hpa.dcl[d] from the edge's own (d = 4: the cluster
** itself, an intra edge; else (dy + 1) * 3 + (dx + 1) of the neighbour's
** direction), costing c */
typedef struct ldsi_HpaEdge {
  float c;
  uint8_t i, d;
} ldsi_HpaEdge;

/* A binary min-heap of (key, tie, id) with positions kept by the caller;
** among equal keys the larger tie first. */
typedef struct ldsi_HpaEntry {
  double key, tie;
  uint32_t id;
} ldsi_HpaEntry;
typedef struct ldsi_HpaHeap {
  ldsi_HpaEntry *e;
  size_t n, cap;
} ldsi_HpaHeap;

/* Scratch of a search restricted to a rectangle of at most cap cells. */
typedef struct ldsi_HpaLocal {
  size_t cap;
  double *g;
  uint32_t *gen;
  uint32_t *pos;  /* heap position, LDSI_HPA_NOIDX when not in the heap */
  uint8_t *par;   /* direction of the move that reached the cell (8: a source) */
  uint32_t cur;   /* generation */
  ldsi_HpaHeap heap;
  int32_t rx0, ry0, rw, rh; /* the rectangle of the last search */
  uint64_t expansions;
} ldsi_HpaLocal;

struct lds_Hpa {
  ldsi_Env env;
  const lds_Grid *grid;
  int32_t C;               /* cluster side */
  int32_t cw, ch;          /* clusters per row / column */
  uint32_t ncl;
  uint32_t cap;            /* entrance slots per cluster (ids: cluster * cap + i) */
  ldsi_HpaCluster *cl;
  uint8_t *nidx;           /* per unpadded cell: its entrance index + 1 in its cluster, 0 none */
  bool lower_bounds;
  bool optimal_jps;        /* lds_HpaParams.optimal_jps */
  double fast_weight;      /* lds_HpaParams.fast_weight (lds_hpa_set_fast_weight) */
  int band_radius;         /* lds_HpaParams.band_radius */
  struct ldsi_Landmarks *lm; /* the optimal mode's landmark tables (lower_bounds), else NULL */
  bool lm_stale;           /* a failed table repair: the next repair copies every entrance's values */
  struct ldsi_HpaL2 *l2;   /* the second level (lds_hpa_level2.c), NULL when none */
  int lmk;                 /* their count (0 without lower_bounds): values per entrance in lmv */
  double weights[16];      /* by layer index; remapped after a layer removal (lds_hpa_repair) */
  int nweights;
  uint64_t weight_ids[16]; /* the ldsi_Layer.id of each weighted layer (weights[i] != 0) */
  char weight_names[16][LDSI_LAYER_NAME_MAX]; /* and its name, for the error when it is removed */
  uint64_t layer_removals; /* the grid's count when weights were last matched to indices */
  double minc;             /* smallest effective cost of a passable cell (never raised) */
  ptrdiff_t off[8];        /* padded offsets of the 8 moves (ldsi_grid_offsets) */
  int32_t dcl[9];          /* cluster index offsets dx + dy * cw, by (dy + 1) * 3 + (dx + 1) */
  size_t entrances, intra_edges;
  /* edits */
  bool listening;
  uint8_t *dirty;          /* per cluster: DIRTY_* bits (lds_hpa.c) */
  uint32_t *dirty_list;    /* the clusters with DIRTY_CELLS, ndirty of them */
  size_t ndirty;
  bool any_dirty;
  bool broken;             /* the last repair failed: queries refused */
  uint64_t version;        /* grid version the hierarchy is valid for */
  ldsi_HpaLocal local;     /* scratch of build and repair */
  /* counters */
  uint64_t build_us, repairs, last_repair_us, last_repair_clusters, total_repair_us;
  char errmsg[LDS_ERRMSG_SIZE];
};

/* ------------------------------------------------- effective costs -- */

static inline double ldsi_hpa_move_len(int d) { return d < 4 ? 1.0 : LDSI_SQRT2; }

/* Effective cost of entering padded cell p; INFINITY when blocked. */
static inline double ldsi_hpa_cost(const lds_Hpa *h, size_t p) {
  const lds_Grid *g = h->grid;
  double c;
  int i;
  if (g->blocked[p]) return INFINITY;
  c = (double)g->cost[p];
  if (h->nweights) {
    int32_t x, y;
    ldsi_grid_pxy(g, p, &x, &y);
    for (i = 0; i < h->nweights && i < g->nlayers; i++)
      if (h->weights[i] != 0.0) c += h->weights[i] * (double)g->layers[i].data[(size_t)y * (size_t)g->w + (size_t)x];
  }
  return c;
}

/* true when the move from padded p in direction d is legal and its target
** passable under the weights */
static inline bool ldsi_hpa_can(const lds_Hpa *h, size_t p, int d, const ptrdiff_t *off) {
  if (!(h->grid->nbr[p] & (1u << d))) return false;
  return h->nweights == 0 || isfinite(ldsi_hpa_cost(h, (size_t)((ptrdiff_t)p + off[d])));
}

static inline uint32_t ldsi_hpa_cluster_of(const lds_Hpa *h, int32_t x, int32_t y) {
  return (uint32_t)(y / h->C) * (uint32_t)h->cw + (uint32_t)(x / h->C);
}

static inline double ldsi_hpa_octile(int32_t dx, int32_t dy) {
  int32_t ax = dx < 0 ? -dx : dx, ay = dy < 0 ? -dy : dy;
  int32_t mn = ax < ay ? ax : ay, mx = ax < ay ? ay : ax;
  return (double)(mx - mn) + (double)mn * LDSI_SQRT2;
}

/* ----------------------------------------------------------- heap -- */

LDSI_HIDDEN bool ldsi_hpa_heap_init(const ldsi_Env *e, ldsi_HpaHeap *hp, size_t cap);
LDSI_HIDDEN void ldsi_hpa_heap_free(const ldsi_Env *e, ldsi_HpaHeap *hp);
/* push id or lower its key (ldsi_hpa_heap_push; pos[id] tracks its slot,
** LDSI_HPA_NOIDX when not in the heap) and pop the first (ldsi_hpa_heap_pop);
** inline: they are the inner loop of every search of the hierarchy */
/* entry a goes before (k, t) */
static inline bool ldsi_hpa_before(const ldsi_HpaEntry *a, double k, double t) {
  return a->key < k || (a->key == k && a->tie > t);
}

static inline void ldsi_hpa_heap_push(ldsi_HpaHeap *hp, uint32_t *pos, uint32_t id, double key, double tie) {
  size_t i = pos[id];
  ldsi_HpaEntry *e = hp->e;
  if (i == LDSI_HPA_NOIDX) i = hp->n++;
  while (i > 0) {
    size_t up = (i - 1) / 2;
    if (!(key < e[up].key || (key == e[up].key && tie > e[up].tie))) break;
    e[i] = e[up];
    pos[e[i].id] = (uint32_t)i;
    i = up;
  }
  e[i].key = key;
  e[i].tie = tie;
  e[i].id = id;
  pos[id] = (uint32_t)i;
}

static inline uint32_t ldsi_hpa_heap_pop(ldsi_HpaHeap *hp, uint32_t *pos) {
  ldsi_HpaEntry *e = hp->e, last;
  uint32_t top = e[0].id;
  size_t i = 0, n;
  pos[top] = LDSI_HPA_NOIDX;
  n = --hp->n;
  if (n == 0) return top;
  last = e[n];
  for (;;) {
    size_t c = 2 * i + 1, best;
    if (c >= n) break;
    best = c;
    if (c + 1 < n && ldsi_hpa_before(&e[c + 1], e[c].key, e[c].tie)) best = c + 1;
    if (!ldsi_hpa_before(&e[best], last.key, last.tie)) break;
    e[i] = e[best];
    pos[e[i].id] = (uint32_t)i;
    i = best;
  }
  e[i] = last;
  pos[last.id] = (uint32_t)i;
  return top;
}


/* -------------------------------------------- cluster-window search -- */

LDSI_HIDDEN bool ldsi_hpa_local_init(const ldsi_Env *e, ldsi_HpaLocal *L, size_t cap);
LDSI_HIDDEN void ldsi_hpa_local_free(const ldsi_Env *e, ldsi_HpaLocal *L);
LDSI_HIDDEN size_t ldsi_hpa_local_bytes(const ldsi_HpaLocal *L);
/* Dijkstra inside [x0..x1]x[y0..y1] from the nsrc padded sources (cost 0):
** the cost of reaching each cell. Results: ldsi_hpa_local_g. */
LDSI_HIDDEN void ldsi_hpa_local_dijkstra(const lds_Hpa *h, ldsi_HpaLocal *L, int32_t x0, int32_t y0,
                                         int32_t x1, int32_t y1, const uint32_t *src, size_t nsrc);
/* Cost found for padded cell p by the last search; INFINITY if not reached. */
LDSI_HIDDEN double ldsi_hpa_local_g(const lds_Hpa *h, const ldsi_HpaLocal *L, size_t p);
/* A* inside the rectangle from padded s to padded t; returns its cost
** (INFINITY when t is unreachable inside) and leaves the parents for
** ldsi_hpa_local_trace. With a mask (indexed by the cell's place in the
** rectangle, row by row), only cells whose mask value is mcur are entered
** (s and t must be among them); NULL: the whole rectangle. With lm (its
** targets' values those of t: ldsi_lm_choose), the heuristic is also
** bounded below by the landmarks' bound (admissible and consistent as the
** octile one: lds_landmarks.h); NULL: the octile distance times the
** smallest cell cost alone. */
typedef struct ldsi_LmHeur ldsi_LmHeur;
LDSI_HIDDEN double ldsi_hpa_local_astar(const lds_Hpa *h, ldsi_HpaLocal *L, int32_t x0, int32_t y0,
                                        int32_t x1, int32_t y1, size_t s, size_t t,
                                        const uint32_t *mask, uint32_t mcur,
                                        const ldsi_LmHeur *lm);
/* Writes the cells (padded ids) of the last A*'s path s..t into out (at most
** max) in order; returns their count (0 if t was not reached, or more than
** max: then nothing is written). */
LDSI_HIDDEN size_t ldsi_hpa_local_trace(const lds_Hpa *h, const ldsi_HpaLocal *L, size_t t,
                                        uint32_t *out, size_t max);


/* ------------------------------------------------------- builders -- */

/* Rebuilds the intra distances and parent trees of cluster c. */
LDSI_HIDDEN lds_Status ldsi_hpa_build_cluster(lds_Hpa *h, uint32_t c);
/* Recomputes the inter edges of cluster c from the entrance lists as they
** are; LDS_E_NOMEM. */
LDSI_HIDDEN lds_Status ldsi_hpa_build_inter(lds_Hpa *h, uint32_t c);
/* Recomputes the search adjacency of cluster c (edge, eoff) from its
** distances and inter edges as they are (lds_hpa_adj.c); LDS_E_NOMEM. */
LDSI_HIDDEN lds_Status ldsi_hpa_build_edges(lds_Hpa *h, uint32_t c);
/* Cells (padded ids) of the intra path from entrance i to entrance j of
** cluster c, both included, into out (at most max); returns their count, 0
** when j is unreachable from i inside c or the path is longer than max. */
/* The path of entrance i's stored tree in cluster c to padded cell p of
** c (its cluster-restricted shortest path from the entrance), entrance
** first, into out (at most max); its count, 0 when p is not reached or the
** path is longer than max. */
LDSI_HIDDEN size_t ldsi_hpa_tree_trace(const lds_Hpa *h, uint32_t c, uint32_t i, size_t p,
                                       uint32_t *out, size_t max);
/* The cost of that path (the cluster-restricted distance from entrance i to
** padded cell p of c, summed from p back), INFINITY when p is not reached;
** adds its moves to *steps. */
LDSI_HIDDEN double ldsi_hpa_tree_cost(const lds_Hpa *h, uint32_t c, uint32_t i, size_t p,
                                      size_t *steps);
LDSI_HIDDEN size_t ldsi_hpa_intra_trace(const lds_Hpa *h, uint32_t c, uint32_t i, uint32_t j,
                                        uint32_t *out, size_t max);

#endif
