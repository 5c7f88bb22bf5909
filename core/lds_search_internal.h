/* SPDX-License-Identifier: MIT */
/*
** lds_search_internal.h — the search object's state and its node record
** layouts (ldsi_Node, ldsi_Hot), the operations table of an algorithm
** (ldsi_SearchOps) and the heuristics, shared by lds_search.c and the
** algorithms (lds_astar.c, lds_jps*.c, lds_search_graph.c). The open list is
** lds_open_list.h. Hidden; not installed.
*/
#ifndef LDS_SEARCH_INTERNAL_H
#define LDS_SEARCH_INTERNAL_H

#include "lds_cost_view.h"
#include "lds_grid_internal.h"
#include "lds_search.h"

#include <math.h>
#include <stddef.h>
#include <string.h>

#define LDSI_NONE 0xFFFFFFFFu   /* no parent / not in the open list */
#define LDSI_CLOSED 0xFFFFFFFEu /* node expanded (in the closed set) */
#define LDSI_INBUF 0xFFFFFFFDu  /* node waits in the equal-f stack (lds_astar.c) */
#define LDSI_BUF_CAP 4096       /* entries of the equal-f stack */

/* Node record, one per padded cell (grids) or node (graphs). A record whose
** gen differs from the search's is "fresh": g = inf, not open, not closed. */
typedef struct ldsi_Node {
  double g;
  uint32_t parent; /* node id of the predecessor, LDSI_NONE at the start */
  uint32_t heap;   /* position in the open list, LDSI_NONE, or LDSI_CLOSED */
  uint32_t gen;
  uint32_t aux;    /* free for algorithms (JPS: direction bits) */
  /* On uniform-cost grids g is kept exact: ns straight and nd diagonal moves
  ** (packed in nsd),
  ** g = ns + nd*sqrt(2) computed the same way every time, so equal costs give
  ** bit-identical g and f and the documented tie-breaking really applies. */
  uint64_t nsd; /* ns | nd << 32 */
} ldsi_Node;

/* The 16-byte record of the exact A* loop on grids (grid_run_exact in
** lds_astar.c), kept apart from ldsi_Node so that a query touches half the
** memory per node: gen and heap as in ldsi_Node, and the exact move counts
** with the parent's direction, nsd = ns | nd << 32 | dir << 60 (dir: the
** LDS_DIR_* of the move from the parent, LDSI_HOT_NODIR at the start).
** g = ns + nd*sqrt(2) is computed from the counts (ldsi_hot_g), and the
** cell's coordinates from its id. nd < 2^28 holds: a path visits a cell
** once, and the exact loop runs only on grids of fewer than
** LDSI_HOT_MAX_NODES padded cells (grid_run; larger ones, from about 16382
** cells a side, run the general loop). */
typedef struct ldsi_Hot {
  uint32_t gen;
  uint32_t heap;
  uint64_t nsd;
} ldsi_Hot;
#define LDSI_HOT_MASK ((UINT64_C(1) << 60) - 1) /* the counts of a hot nsd */
#define LDSI_HOT_NODIR UINT64_C(8)              /* dir of the start */
#define LDSI_HOT_MAX_NODES (UINT64_C(1) << 28)  /* see above */

/* Paged records (large grids). A grid of at least LDSI_PAGED_MIN_NODES
** padded cells keeps its ldsi_Hot records in pages of LDSI_PAGE_RECS
** consecutive node ids (a strip of one row, or the end of one row and the
** start of the next) instead of one array over the map: s->hot_tab[v >>
** LDSI_PAGE_SHIFT] is the page of node v, and a page no record of the
** current query lives in is the shared read-only page ldsi_hot_zero_page
** (generation 0: every record fresh). The first record a query claims in a
** page takes a page of the search's pool (ldsi_hot_map: allocated in
** chunks the first time, recycled by the next query), so a search costs
** the pages its largest query touched, not the map; a new query returns
** the previous one's pages to the pool in O(pages). Reads never branch on
** the layout: the exact loop is compiled once per layout
** (LDSI_KEYS_EXACT_HOT dense, LDSI_KEYS_EXACT_PAGED paged). */
#define LDSI_PAGE_SHIFT 8
#define LDSI_PAGE_RECS (1u << LDSI_PAGE_SHIFT)
#define LDSI_PAGE_MASK (LDSI_PAGE_RECS - 1u)
#define LDSI_POOL_CHUNK 64u /* pages per pool allocation (256 KiB of ldsi_Hot) */
#ifndef LDSI_PAGED_MIN_NODES
#define LDSI_PAGED_MIN_NODES (UINT64_C(1) << 22) /* about 2048 x 2048 cells */
#endif
LDSI_HIDDEN extern const ldsi_Hot ldsi_hot_zero_page[LDSI_PAGE_RECS];

/* g of a hot record's nsd (dir bits ignored) */
static inline double ldsi_hot_g(uint64_t nsd) {
  nsd &= LDSI_HOT_MASK;
  return (double)(uint32_t)nsd + (double)(uint32_t)(nsd >> 32) * LDSI_SQRT2;
}


/* The landmark (ALT) heuristic of a grid A* query started by
** ldsi_search_start_landmarks (lds_astar.c's landmark loop): per padded
** cell v a row of landmark distances tab[v * stride + l] in units of q cost
** units, kept feasible for a symmetric lower bound of the move costs (the
** hierarchy's tables, lds_landmarks.h), so that
**   h(v) = max(hw * octile(v, goal), q * max_i |tab[v * stride + act[i]] - gt[i]|)
** is admissible and consistent (Goldberg & Harrelson, "Computing the
** shortest path: A* search meets graph theory", SODA 2005). act are the
** query's active landmarks (columns; at most LDSI_LMH_MAX), gt[i] their
** value at the goal. A difference of LDSI_LMH_UNREACHED or more marks a
** cell the goal's tables prove unconnected to the goal: it is never queued.
** The caller owns it and keeps it, and the tables, unchanged while the
** query runs. */
#define LDSI_LMH_MAX 32
#define LDSI_LMH_UNREACHED 0x80000000u
typedef struct ldsi_LmHeur {
  const uint32_t *tab;
  size_t stride;
  double q;
  int nact;
  uint32_t act[LDSI_LMH_MAX];
  uint32_t gt[LDSI_LMH_MAX];
} ldsi_LmHeur;

/* The landmark bound of padded cell v, q * max_i |tab[v * stride + act[i]]
** - gt[i]| cost units; INFINITY when the tables prove v unconnected to the
** goal. */
static inline double ldsi_lmh_bound(const ldsi_LmHeur *lh, size_t v) {
  const uint32_t *t = lh->tab + v * lh->stride;
  uint32_t best = 0;
  int i;
  for (i = 0; i < lh->nact; i++) {
    uint32_t a = t[lh->act[i]], b = lh->gt[i], d = a > b ? a - b : b - a;
    best = d > best ? d : best;
  }
  return best >= LDSI_LMH_UNREACHED ? INFINITY : (double)best * lh->q;
}

/* an open-list entry (lds_open_list.h) */
typedef struct ldsi_Open ldsi_Open;

/* The operations of one search algorithm: the search object (lds_search.c)
** starts a query, runs its slices and builds its path through the table it
** holds (s->ops), so it never names an algorithm's file. An algorithm's file
** defines its table: ldsi_astar_ops (lds_astar.c), ldsi_jps_ops (lds_jps.c),
** ldsi_graph_ops (lds_search_graph.c). */
typedef struct ldsi_SearchOps {
  /* the algorithm lds_search_algo_used reports for a query that asked for
  ** JPS or JPS+ and runs these ops */
  lds_Algo algo;
  /* Called by lds_search_start after the generic set-up (heuristic, scale,
  ** generation) and before the start node is pushed, or NULL: may prepare
  ** the algorithm's structures (may allocate) and replace s->ops by the
  ** table that runs the query. Returns LDS_OK or an error (message in
  ** s->errmsg). */
  lds_Status (*start)(lds_Search *s);
  /* The expansion loop: expands until the goal is expanded (LDS_FOUND), the
  ** open list is empty (LDS_NO_PATH), max_exp expansions were done or
  ** budget_us elapsed since t0 (LDS_RUNNING; 0 = no limit), or an error.
  ** Must not allocate. */
  lds_Status (*run)(lds_Search *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0);
  /* The path ending at node end (flags: LDS_PATH_PARTIAL or 0), its cells
  ** filled in, or with sparse its jump points only; NULL: the search's
  ** parent walk, one cell per record (lds_search.c). */
  lds_Path *(*build_path)(const lds_Search *s, uint32_t end, uint32_t flags, bool sparse,
                          lds_Error *err);
} ldsi_SearchOps;

LDSI_HIDDEN extern const ldsi_SearchOps ldsi_astar_ops; /* grid A* family (lds_astar.c) */
LDSI_HIDDEN extern const ldsi_SearchOps ldsi_jps_ops;   /* JPS, JPS+ (lds_jps.c) */
LDSI_HIDDEN extern const ldsi_SearchOps ldsi_graph_ops; /* graph searches (lds_search_graph.c) */
LDSI_HIDDEN extern const ldsi_SearchOps ldsi_theta_ops; /* Theta*, Lazy Theta* (lds_theta.c) */
/* grid A* with the landmark heuristic (lds_astar.c; ldsi_search_start_landmarks) */
LDSI_HIDDEN extern const ldsi_SearchOps ldsi_astar_lm_ops;

typedef enum { LDSI_SPACE_GRID = 0, LDSI_SPACE_GRAPH = 1 } ldsi_Space;

struct lds_Search {
  ldsi_Env env;
  ldsi_Space space;
  const lds_Grid *grid;
  const void *graph; /* lds_Graph when space == GRAPH */
  size_t nnodes;     /* node records */
  ldsi_Node *nodes;
  ldsi_Hot *hot;     /* grids: the exact A* loop's records (ldsi_Hot), nnodes + 1,
                     ** dense; NULL when paged (hot_tab) */
  bool hot_query;    /* the current query runs grid_run_exact: its g, parents
                     ** and heap positions are in hot, not nodes */
  int8_t run_mode;   /* grids: the cost mode of the A* loop's slices so far
                     ** (lds_astar.c), -1 before the first: a query never
                     ** goes back to a less general mode when edits that
                     ** did not disturb it (lds_search_edit.c) make the grid
                     ** uniform again */
  ldsi_Open *open;   /* min-heap, binary or 4-ary (LDSI_ARITY4), indexed: node
                     ** records hold positions */
  size_t open_n, open_cap;
  uint32_t hole;     /* exact form: the slot a pop left empty, LDSI_NONE when
                     ** none (see ldsi_open_pop_x) */
  size_t open_hwm;   /* exact form: slots [extent, open_hwm) hold sentinels
                     ** (extent = open_n, + 1 while a hole is pending),
                     ** open_hwm >= extent + 3 */
  ldsi_Open *buf;    /* equal-f stack: sorted, minimum on top (lds_astar.c) */
  size_t buf_n;
  uint32_t gen, seq;
  /* Neighbours that cannot improve through a node u reached from its parent
  ** p (uniform costs, consistent heuristic: see lds_astar.c): prune[k][nbr[p]]
  ** has bit d set when u + dir(d) is p or a cell that p reaches by a legal
  ** move; k = 3*(dy+1) + dx+1 for the move (dx, dy) from p to u. */
  uint8_t prune[9][256];
  double hq_scale;  /* fixed-point scale of exact h keys (ldsi_exact_h_key);
                    ** 0 when the grid is too large for them */
  uint64_t hq_a, hq_c; /* its multipliers (ldsi_exact_h_key) */

  /* the query */
  lds_SearchParams params;
  double weights[16];     /* copy of params.layer_weights (first 16 layers) */
  int nweights;
  const float *wlayers[16];
  lds_Heuristic hk;       /* resolved heuristic */
  double hw;              /* multiplier of the distance in cells: weight*scale */
  double gk;              /* multiplier of g in f: 1, or 0 for greedy */
  double scale;           /* cost per cell of distance */
  bool reopen;            /* re-expand closed nodes that improve */
  uint32_t start, goal;   /* node ids (padded for grids) */
  int32_t gx, gy;
  uint64_t version;       /* grid/graph version at start */
  lds_Status status;
  lds_Stats stats;
  /* The cell closest to the goal seen so far, for partial paths (see
  ** ldsi_best_closer): grids measure the squared Euclidean distance best_d2
  ** in cells, graphs best_d; best_g is the cost of the path to it. On grids
  ** best is the path's last cell; the path is the one to node best_from
  ** (== best, except for a cell that a JPS jump scanned: ldsi_jps_track)
  ** followed by best_tail: best_k1 diagonal moves in direction best_dd, then
  ** best_k2 straight moves in direction best_ds. */
  uint32_t best;
  double best_d, best_g;
  uint64_t best_d2;
  uint32_t best_from;
  uint32_t best_k1, best_k2;
  uint8_t best_dd, best_ds;
  bool start_blocked;     /* the query's start is blocked: no path, not even partial */

  /* Layer weights: the query's cost view (lds_cost_view.h), a reference
  ** held from a weighted start until the next start without these weights
  ** or lds_search_free. eff is the view's effective cost of each padded cell
  ** (base + sum of weight * layer; INFINITY when blocked), read by the
  ** weighted loop like the plain one reads the grid's costs; eff_uniform,
  ** the scale and the epochs are the view's at the start (the search is
  ** stale when an epoch it depends on moves: lds_search_step). */
  lds_CostView *view;
  const double *eff;
  bool eff_uniform;      /* every passable cell costs 1 under the weights:
                         ** the uniform (exact-g) loop applies */
  bool view_auto_scale;  /* the heuristic scale is the view's minimum */
  uint64_t view_scale_epoch, view_mode_epoch;

  /* the query's algorithm, chosen by lds_search_start (NULL before the
  ** first query) */
  const ldsi_SearchOps *ops;

  void *algo_state;       /* per-algorithm extra state (JPS) */
  void (*algo_free)(lds_Search *s);
  size_t algo_bytes;

  char errmsg[LDS_ERRMSG_SIZE];

  /* the layouts of the node records (kept after the fields the loops read) */
  ldsi_Hot **hot_tab; /* paged ldsi_Hot records: the page of each LDSI_PAGE_RECS
                     ** ids (see LDSI_PAGE_SHIFT); NULL when dense */
  size_t hot_npages; /* pages of ids (entries of hot_tab) */
  ldsi_Hot **pool;   /* the pool's pages in claim order, pool_n allocated */
  uint32_t *pool_owner; /* the hot_tab entry pool[i] is mapped at, for i < pool_used */
  size_t pool_used, pool_n;
  bool pool_fail;    /* a page could not be allocated: the step ends LDS_E_NOMEM */
  ldsi_Hot *pool_spare; /* one page that absorbs the writes after such a failure */
  bool nodes_lazy;   /* grids: nodes allocated at the first query that needs them */
  const ldsi_LmHeur *lm; /* the landmark heuristic of the query
                     ** (ldsi_search_start_landmarks), NULL for every other */
};

/* Allocates a search with n node records (with_nodes; else they wait for
** ldsi_search_need_nodes), open list and stack (the constructors of each
** space call it). */
LDSI_HIDDEN lds_Search *ldsi_search_alloc(const ldsi_Env *e, size_t n, bool with_nodes,
                                          const char *fn, lds_Error *err);

/* lds_search_new with the layout of the ldsi_Hot records forced: paged 1
** (pages), 0 (one dense array), -1 (by size: LDSI_PAGED_MIN_NODES, what
** lds_search_new does); for tests and benchmarks. */
LDSI_HIDDEN lds_Search *ldsi_search_new_layout(const lds_Env *env, const lds_Grid *grid,
                                               int paged, lds_Error *err);

/* lds_search_start for an optimal A* query (params->algo must be
** LDS_ALGO_ASTAR, no edge callback; LDS_E_ARG otherwise) on a grid whose
** heuristic is the landmark heuristic lh (see ldsi_LmHeur; not copied: it
** must outlive the query): the query runs lds_astar.c's landmark loop
** (ldsi_astar_lm_ops) on ldsi_Node records, reopening the rare closed node
** whose g improves by rounding, and returns the optimal path like
** lds_search_step does for A*. The hierarchy's optimal mode runs it
** (lds_hpa_exact.c). */
LDSI_HIDDEN lds_Status ldsi_search_start_landmarks(lds_Search *s, const lds_SearchParams *params,
                                                   int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                                                   const ldsi_LmHeur *lh);

/* Whether the next run of the grid A* family takes the exact loop on the
** ldsi_Hot records (uniform costs, octile, weight 1: lds_astar.c), as
** decided from the query's set-up */
LDSI_HIDDEN bool ldsi_astar_runs_exact(const lds_Search *s);


/* ------------------------------------------------------ heuristics --
** Shared by the A* loop (lds_astar.c), JPS (lds_jps.c) and the graph loop
** (lds_search_graph.c), inlined into each. */

#if defined(__GNUC__) || defined(__clang__)
#define LDSI_INLINE static inline __attribute__((always_inline))
#define LDSI_UNLIKELY(x) __builtin_expect(!!(x), 0)
#define LDSI_LIKELY(x) __builtin_expect(!!(x), 1)
#else
#define LDSI_INLINE static inline
#define LDSI_UNLIKELY(x) (x)
#define LDSI_LIKELY(x) (x)
#endif

/* A prefetch hint for the cache line at p (never dereferenced; p may point
** outside any object); nothing with LDS_NO_PREFETCH or without GCC/clang. */
#if (defined(__GNUC__) || defined(__clang__)) && !defined(LDS_NO_PREFETCH)
#define LDSI_PREFETCH(p) __builtin_prefetch(p)
#else
#define LDSI_PREFETCH(p) ((void)sizeof(p))
#endif

/* Distance in cells for heuristic hk (a lds_Heuristic of a grid). */
LDSI_INLINE double ldsi_hdist(int hk, int32_t dx, int32_t dy) {
  double a, b;
  if (dx < 0) dx = -dx;
  if (dy < 0) dy = -dy;
  switch (hk) {
    case LDS_H_ZERO:
      return 0.0;
    case LDS_H_MANHATTAN:
      return (double)dx + (double)dy;
    case LDS_H_EUCLIDEAN:
      return sqrt((double)dx * dx + (double)dy * dy);
    case LDS_H_CHEBYSHEV:
      return (double)(dx > dy ? dx : dy);
    default: /* octile */
      a = (double)(dx > dy ? dx : dy);
      b = (double)(dx > dy ? dy : dx);
      return a + (LDSI_SQRT2 - 1.0) * b;
  }
}

/* Squared Euclidean distance of a displacement in cells, exact (an integer:
** the partial-path measure on grids) */
LDSI_INLINE uint64_t ldsi_d2(int32_t dx, int32_t dy) {
  /* |dx|, |dy| < 2^16 (grid sides), so each square fits 32 bits: the
  ** unsigned products are exact (mod 2^32 equals the true square) */
  return (uint64_t)((uint32_t)dx * (uint32_t)dx) + (uint64_t)((uint32_t)dy * (uint32_t)dy);
}

/* Partial paths on grids: is cell id (padded), at squared distance d2 from
** the goal with a path of cost g, closer than the best so far? Smaller d2
** first, then smaller g (the cheaper path), then the smaller id (row-major:
** the upper row, then the left column), so the choice does not depend on
** the order in which cells are seen. */
LDSI_INLINE bool ldsi_best_closer(const lds_Search *s, uint64_t d2, double g, uint32_t id) {
  return d2 < s->best_d2 ||
         (d2 == s->best_d2 && (g < s->best_g || (g == s->best_g && id < s->best)));
}

/* Makes node id, at squared distance d2 with cost g, the best so far (no tail). */
LDSI_INLINE void ldsi_best_set(lds_Search *s, uint64_t d2, double g, uint32_t id) {
  s->best = id;
  s->best_from = id;
  s->best_d2 = d2;
  s->best_g = g;
  s->best_k1 = s->best_k2 = 0;
}

/* f = g + octile h, exact on uniform grids: with g = ns + nd*sqrt(2) (nsd =
** ns | nd << 32) and h = (dmax - dmin) + dmin*sqrt(2), f is computed from the
** two integer sums, so equal costs give bit-identical f. */
LDSI_INLINE double ldsi_exact_octile_f(uint64_t nsd, int32_t dx, int32_t dy) {
  uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx), ay = (uint32_t)(dy < 0 ? -dy : dy);
  uint32_t lo = ax < ay ? ax : ay, hi = ax < ay ? ay : ax;
  return (double)((uint32_t)nsd + hi - lo) + (double)((uint32_t)(nsd >> 32) + lo) * LDSI_SQRT2;
}


/* The hot record of node v, dense or paged (read only: a paged record of a
** page not claimed in this query is the zero page's) */
static inline ldsi_Hot *ldsi_hot_at(const lds_Search *s, uint32_t v) {
  return s->hot_tab ? s->hot_tab[v >> LDSI_PAGE_SHIFT] + (v & LDSI_PAGE_MASK) : s->hot + v;
}

/* Maps a pool page at node v's page (paged layout; v's page is the zero
** page) and returns v's record there (lds_search_pages.c). */
LDSI_HIDDEN ldsi_Hot *ldsi_hot_map(lds_Search *s, uint32_t v);

/* The hot record of node v, writable: its page mapped first if needed */
static inline ldsi_Hot *ldsi_hot_claim(lds_Search *s, uint32_t v) {
  if (!s->hot_tab) return s->hot + v;
  if (s->hot_tab[v >> LDSI_PAGE_SHIFT] == ldsi_hot_zero_page) return ldsi_hot_map(s, v);
  return s->hot_tab[v >> LDSI_PAGE_SHIFT] + (v & LDSI_PAGE_MASK);
}

/* Paged layout (lds_search_pages.c): allocate the page table for n ids
** (false: out of memory), return every page of the previous query to the
** pool (called by each new generation), clear every record (generation
** wrap), allocate the whole pool now (the scheduler's prefault; false: out
** of memory), free, the bytes allocated. */
LDSI_HIDDEN bool ldsi_pages_init(lds_Search *s, size_t n);
LDSI_HIDDEN void ldsi_pages_recycle(lds_Search *s);
LDSI_HIDDEN void ldsi_pages_clear(lds_Search *s);
LDSI_HIDDEN bool ldsi_pages_reserve(lds_Search *s);
LDSI_HIDDEN void ldsi_pages_free(lds_Search *s);
LDSI_HIDDEN size_t ldsi_pages_bytes(const lds_Search *s);

/* Allocates the ldsi_Node records of a grid search created without them
** (lds_search_new leaves them to the first query that runs a loop other
** than the exact A* one); LDS_OK or LDS_E_NOMEM with s->errmsg set
** (lds_search.c). */
LDSI_HIDDEN lds_Status ldsi_search_need_nodes(lds_Search *s);

/* node access with the generation check */
static inline ldsi_Node *ldsi_node(lds_Search *s, uint32_t id) {
  ldsi_Node *n = &s->nodes[id];
  if (n->gen != s->gen) {
    n->gen = s->gen;
    n->g = INFINITY;
    n->parent = LDSI_NONE;
    n->heap = LDSI_NONE;
    n->aux = 0;
  }
  return n;
}

/* node id of a grid cell / back */
static inline uint32_t ldsi_search_cell_id(const lds_Search *s, int32_t x, int32_t y) {
  return (uint32_t)ldsi_grid_pidx(s->grid, x, y);
}

#endif
