/*
** lds_search_internal.h — the search's state, shared by the A* loop
** (lds_search.c) and the other algorithms that reuse its node records and open
** list (JPS, graph searches). Hidden; not installed.
*/
#ifndef LDS_SEARCH_INTERNAL_H
#define LDS_SEARCH_INTERNAL_H

#include "lds_grid_internal.h"
#include "lds_search.h"

#include <math.h>
#include <string.h>

#define LDSI_NONE 0xFFFFFFFFu   /* no parent / not in the open list */
#define LDSI_CLOSED 0xFFFFFFFEu /* node expanded (in the closed set) */
#define LDSI_INBUF 0xFFFFFFFDu  /* node waits in the equal-f stack (lds_search.c) */
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

/* Open-list entry: the whole key is copied in, so sifting never touches the
** node records (on grids f ties are frequent: see ldsi_Node). */
typedef struct ldsi_Open {
  uint64_t fk;  /* f as an ordered integer key: ldsi_open_key(f) */
  uint64_t gk;  /* ~ldsi_open_key(g): ascending order = larger g first */
  uint32_t node;
  uint32_t seq; /* insertion order, the last tie-breaker */
} ldsi_Open;

/* The bits of a double >= 0 (or +inf) read as an unsigned integer grow with
** the value, so f and g are compared as integers: the order (f ascending,
** then g descending, then seq) is then one 128-bit comparison where the
** compiler has one (see open_less_nb in lds_search.c). f and g are never
** negative nor NaN (costs are validated); + 0.0 turns a -0.0 into +0.0. */
static inline uint64_t ldsi_open_key(double x) {
  uint64_t b;
  x += 0.0;
  memcpy(&b, &x, sizeof b);
  return b;
}

/* ldsi_open_key(INFINITY) */
#define LDSI_KEY_INF UINT64_C(0x7FF0000000000000)

/* the value of a key made by ldsi_open_key */
static inline double ldsi_open_val(uint64_t k) {
  double x;
  memcpy(&x, &k, sizeof x);
  return x;
}

typedef enum { LDSI_SPACE_GRID = 0, LDSI_SPACE_GRAPH = 1 } ldsi_Space;

struct lds_Search {
  ldsi_Env env;
  ldsi_Space space;
  const lds_Grid *grid;
  const void *graph; /* lds_Graph when space == GRAPH */
  size_t nnodes;     /* node records */
  ldsi_Node *nodes;
  ldsi_Open *open;   /* binary min-heap (indexed: node records hold positions) */
  size_t open_n, open_cap;
  ldsi_Open *buf;    /* equal-f stack: sorted, minimum on top (see grid_loop) */
  size_t buf_n;
  uint32_t gen, seq;

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
  uint32_t best;          /* expanded node closest to the goal */
  double best_d, best_g;

  /* cache of the automatic scale under weights */
  uint64_t scale_version;
  double scale_weights[16];
  int scale_nweights;
  double scale_cached;
  bool eff_uniform;      /* every passable cell costs 1 under the cached weights:
                         ** the uniform (exact-g) loop applies */
  bool scale_valid;
  /* effective cost of each padded cell under those weights (base + sum of
  ** weight * layer; INFINITY when blocked), filled with the scale above so the
  ** weighted loop reads one array like the plain one; NULL until first used */
  double *eff;

  /* The expansion loop of the query's algorithm, chosen in lds_search_start:
  ** expands until the goal is expanded (LDS_FOUND), the open list is empty
  ** (LDS_NO_PATH), max_exp expansions were done or budget_us elapsed since t0
  ** (LDS_RUNNING; 0 = no limit), or an error. Must not allocate. */
  lds_Status (*run)(lds_Search *s, uint64_t max_exp, uint64_t budget_us, uint64_t t0);

  void *algo_state;       /* per-algorithm extra state (JPS) */
  void (*algo_free)(lds_Search *s);
  size_t algo_bytes;

  char errmsg[LDS_ERRMSG_SIZE];
};

/* Allocates a search with n node records, open list and stack (the
** constructors of each space call it). */
LDSI_HIDDEN lds_Search *ldsi_search_alloc(const ldsi_Env *e, size_t n, const char *fn,
                                          lds_Error *err);

/* open-list primitives (lds_search.c); ldsi_open_clear empties the open list
** and the plateau stack (every query start must call it) */
LDSI_HIDDEN void ldsi_open_clear(lds_Search *s);
LDSI_HIDDEN void ldsi_open_push(lds_Search *s, uint32_t node, double f, double g);
LDSI_HIDDEN void ldsi_open_decrease(lds_Search *s, uint32_t pos, double f, double g);
LDSI_HIDDEN uint32_t ldsi_open_pop(lds_Search *s);

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
