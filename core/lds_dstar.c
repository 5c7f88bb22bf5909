/*
** lds_dstar.c — D* Lite on grids: backward incremental search with a moving
** start (k_m), an indexed 4-ary heap with two-part keys (decrease-key,
** increase-key and removal), batched change notifications.
**
** [Paper: Koenig & Likhachev, "D* Lite", AAAI 2002, Fig. 4 (optimized
**  version); Koenig, Likhachev & Furcy, "Lifelong Planning A*", AIJ 2004]
**
** Invariants (the paper's): for every vertex u != goal,
**   rhs(u) = min over successors v of c(u,v) + g(v)      (inf if none)
** rhs(goal) = 0, and the queue holds exactly the locally inconsistent
** vertices (g != rhs), each with a key that is a lower bound of its current
** key [min(g,rhs) + h(start,u) + k_m ; min(g,rhs)] (k_m grows by
** h(old start, new start) at every move, so keys computed before a move stay
** lower bounds: the paper's lazy re-keying).
**
** Instead of the paper's c_old bookkeeping for changed edges we recompute
** rhs of every vertex whose outgoing edges may have changed: a change at
** cell c alters the cost of entering c and, through the diagonal rules, the
** legal-move masks of the 3x3 block around c, so exactly the vertices of
** that block need their rhs recomputed. This is the unoptimised update of
** Fig. 3, correct for any mix of increases and decreases.
*/
#include "lds_dstar.h"
#include "lds_grid_internal.h"
#include "lds_dstar_internal.h"
#include "lds_graph_internal.h"

#include <float.h>
#include <math.h>
#include <string.h>

#define NONE 0xFFFFFFFFu
#define CLOCK_EVERY 64
#define MAXDEG 8

/* mark bits, one byte per padded cell */
#define M_DIRTY 1u    /* in the change list */
#define M_AFFECTED 2u /* rhs recomputed in the current batch */
#define M_BLOCKED 4u  /* snapshot: the cell is blocked */
#define M_INVAL 8u    /* grids: collected by grid_invalidate */

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
                 ** kept in step with nbr by snap_cell */
  uint8_t mark;  /* M_* bits */
} DsVertex;

/* one vertex per 32 bytes: the memory figure in lds_dstar.h relies on it */
_Static_assert(sizeof(DsVertex) == 32, "DsVertex must stay 32 bytes");

/* A queue entry: the key (k1, class, k2) and, precomputed, its sort key sk
** (see key_sort), which entry_less compares first. */
typedef struct DsEntry {
  double k1, sk, k2;
  uint32_t node;
  uint8_t under; /* 1: underconsistent (g < rhs), 0: overconsistent */
} DsEntry;

/* The vertex space behind a small interface of three functions, defined
** below for the grid (grid_succ, grid_pred, grid_h):
**   succ(ds, u, v[], c[]) -> n   successors of u with edge costs, fixed order
**   pred(ds, v, u[], c[]) -> n   predecessors of v with edge costs c(u, v)
**   h(ds, a, b) -> DsH           exact heuristic distance (see hdist)
** The search calls them only through SP_SUCC / SP_PRED / SP_H, which name
** the grid functions so the compiler inlines them. A graph search (graph !=
** NULL, lds_dstar_new_graph) branches to graph_succ / graph_pred (CSR out-
** and in-edges) and keys with graph_h in doubles; its neighbour arrays are
** the search's own buffers of the largest degree instead of MAXDEG. */
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
  DsH km;                  /* k_m, exact (see hdist) */
  lds_Heuristic hk_param, hk;
  double scale;
  bool auto_scale;
  double weights[16];
  int nweights;
  bool reinit_pending;
  bool root_hole;          /* heap[0] is a settled vertex's dead entry (see fill_hole) */
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
** search stops one vertex too early (seen in the differential test). With
** integer pairs equal sides are identical and unequal sides differ by far
** more than rounding, so every comparison is exact. */
static inline DsH hdist(int hk, int32_t dx, int32_t dy) {
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

static inline DsH grid_h(const lds_DStar *ds, uint32_t a, uint32_t b) {
  int32_t dx = (int32_t)(a % ds->pw) - (int32_t)(b % ds->pw);
  int32_t dy = (int32_t)(a / ds->pw) - (int32_t)(b / ds->pw);
  return hdist((int)ds->hk, dx, dy);
}

/* h(start, u) with the start's coordinates cached: one division, not two */
static inline DsH grid_h_start(const lds_DStar *ds, uint32_t u) {
  uint32_t uy = u / ds->pw, ux = u - uy * ds->pw;
  return hdist((int)ds->hk, ds->start_x - (int32_t)ux, ds->start_y - (int32_t)uy);
}

/* successors of u: v = u + off[d] for each legal d, c = len(d) * ecost(v) */
static inline int grid_succ(const lds_DStar *ds, uint32_t u, uint32_t *v, double *c) {
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
static inline int grid_pred(const lds_DStar *ds, uint32_t v, uint32_t *u, double *c) {
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
static inline double graph_h(const lds_DStar *ds, uint32_t a, uint32_t b) {
  if (ds->gzero || a == b) return 0.0;
  return ds->scale * ldsi_graph_dist(ds->graph, a, b);
}

/* out-edges of u in CSR order, costs from the snapshot */
static inline int graph_succ(const lds_DStar *ds, uint32_t u, uint32_t *v, double *c) {
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
static inline int graph_pred(const lds_DStar *ds, uint32_t v, uint32_t *u, double *c) {
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

static lds_Status graph_full_reinit(lds_DStar *ds);
static void grid_check_tiny(lds_DStar *ds);
static lds_Status graph_process_changes(lds_DStar *ds, bool *restart);

#define SP_SUCC(ds, u, v, c) ((ds)->graph ? graph_succ(ds, u, v, c) : grid_succ(ds, u, v, c))
#define SP_PRED(ds, v, u, c) ((ds)->graph ? graph_pred(ds, v, u, c) : grid_pred(ds, v, u, c))
#define SP_H(ds, a, b) grid_h(ds, a, b)
#define SP_H_START(ds, u) grid_h_start(ds, u)

/* ------------------------------------------------------------ queue -- */
/* 4-ary indexed heap ordered by (k1, k2, node): the node id makes the order
** total, so the expansion order (and the path) never depends on slicing. */

/* The sort key of an entry, compared exactly (so the queue order is a
** total order, transitive, whatever the scale of the costs). A tie in exact
** arithmetic shows up as a difference of a few ulps, because g is a float
** sum, so k1 is rounded before it is compared:
**  - overconsistent: k1 with its low 16 mantissa bits cleared, a bucket of
**    2^-36 (1.5e-11) relative width: keys a few ulps apart tie (mostly; a
**    bucket edge can fall between them), and among ties the larger rhs
**    goes first (the plateau dive, see entry_less);
**  - underconsistent: k1 * (1 - 2e-10), below every bucket it could tie
**    with: an underconsistent vertex whose k1 is within 1.8e-10 relative of
**    an overconsistent one (the start's, in the stopping test) comes first,
**    since its g may be too low.
** Relative only, no absolute floor: costs have no scale (a grid of 1e-12
** costs behaves as one of 1 costs). An earlier version compared k1 within a
** band (|ka - kb| <= 1e-10 max(ka, kb, 1)): not transitive, so the heap could
** hide an underconsistent vertex below a tying top, and the floor made every
** key of a cheap grid tie; both stopped the search early. */
static inline double key_sort(double k1, bool under) {
  uint64_t b;
  if (under) return k1 * (1.0 - 2e-10); /* k1 >= 0; a product keeps inf */
  if (k1 < DBL_MIN) return k1; /* subnormal: exact sums, and 16 bits would be most of it */
  memcpy(&b, &k1, sizeof b);
  b &= ~(uint64_t)0xFFFF; /* monotone for k1 >= 0; inf stays inf */
  memcpy(&k1, &b, sizeof b);
  return k1;
}

/* Queue order: sk first (see key_sort). Among equal sk, underconsistent
** vertices come first, by smaller g (the paper's k2): they may carry a g
** that is too low, and every one whose key ties with the start's must be
** processed before the search stops. Then overconsistent vertices, by
** *larger* rhs: closer to the start first, so a search over a plateau of
** equal f dives along one optimal path, as A* with "larger g first" does,
** instead of settling the whole plateau. The vertex id makes the order
** total. */
static inline bool entry_less(const DsEntry *a, const DsEntry *b) {
  if (a->sk != b->sk) return a->sk < b->sk;
  if (a->under != b->under) return a->under > b->under;
  if (a->k2 != b->k2) return a->k2 < b->k2;
  return a->node < b->node;
}

static void sift_up(lds_DStar *ds, size_t pos, DsEntry e) {
  DsEntry *h = ds->heap;
  while (pos > 0) {
    size_t parent = (pos - 1) >> 2;
    if (!entry_less(&e, &h[parent])) break;
    h[pos] = h[parent];
    ds->v[h[pos].node].hpos = (uint32_t)pos;
    pos = parent;
  }
  h[pos] = e;
  ds->v[e.node].hpos = (uint32_t)pos;
}

static void sift_down(lds_DStar *ds, size_t pos, DsEntry e) {
  DsEntry *h = ds->heap;
  size_t n = ds->heap_n;
  for (;;) {
    size_t c = (pos << 2) + 1, best, k, end;
    if (c >= n) break;
    best = c;
    end = c + 4 < n ? c + 4 : n;
    for (k = c + 1; k < end; k++)
      if (entry_less(&h[k], &h[best])) best = k;
    if (!entry_less(&h[best], &e)) break;
    h[pos] = h[best];
    ds->v[h[pos].node].hpos = (uint32_t)pos;
    pos = best;
  }
  h[pos] = e;
  ds->v[e.node].hpos = (uint32_t)pos;
}

/* Removes the root (Floyd's bottom-up variant): the hole at the root sinks
** to a leaf along the smallest children (3 comparisons per level instead of
** the 4 of sift_down, and no comparison with the moving entry), then the
** last entry fills it and sifts up, usually by a level or none. The heap
** order is total (node ids break every tie), so the pop order is the same
** as with sift_down; only the layout of equal-free subtrees may differ. */
static void heap_pop_root(lds_DStar *ds) {
  DsEntry *h = ds->heap;
  size_t n, pos = 0;
  DsEntry last;
  ds->v[h[0].node].hpos = NONE;
  n = --ds->heap_n;
  if (n == 0) return;
  last = h[n];
  for (;;) {
    size_t c = (pos << 2) + 1, best, k, end;
    if (c >= n) break;
    best = c;
    end = c + 4 < n ? c + 4 : n;
    for (k = c + 1; k < end; k++)
      if (entry_less(&h[k], &h[best])) best = k;
    h[pos] = h[best];
    ds->v[h[pos].node].hpos = (uint32_t)pos;
    pos = best;
  }
  sift_up(ds, pos, last);
}

/* Settling the top vertex leaves a hole at the root (root_hole, see the
** expansion): the first new vertex queued after it takes the root's place
** and sifts down from there, which saves a whole removal; any other queue
** operation (or the end of the expansion) removes the hole first. */
static inline void fill_hole(lds_DStar *ds) {
  if (ds->root_hole) {
    ds->root_hole = false;
    heap_pop_root(ds);
  }
}

static void heap_set(lds_DStar *ds, const DsEntry *key) {
  DsEntry e = *key;
  uint32_t u = e.node;
  ds->stats.pushes++;
  if (ds->root_hole) {
    if (ds->v[u].hpos == NONE) { /* insertion: replaces the dead root */
      ds->root_hole = false;
      sift_down(ds, 0, e);
      return;
    }
    fill_hole(ds);
  }
  if (ds->v[u].hpos == NONE) {
    ds->heap_n++;
    if (ds->heap_n > ds->stats.peak_queue) ds->stats.peak_queue = ds->heap_n;
    sift_up(ds, ds->heap_n - 1, e);
  } else {
    size_t pos = ds->v[u].hpos;
    if (entry_less(&e, &ds->heap[pos]))
      sift_up(ds, pos, e);
    else
      sift_down(ds, pos, e);
  }
}

static void heap_remove(lds_DStar *ds, uint32_t u) {
  size_t pos;
  DsEntry last;
  fill_hole(ds);
  pos = ds->v[u].hpos;
  if (pos == 0) {
    heap_pop_root(ds);
    return;
  }
  ds->v[u].hpos = NONE;
  ds->heap_n--;
  if (pos == ds->heap_n) return;
  last = ds->heap[ds->heap_n];
  if (entry_less(&last, &ds->heap[pos]))
    sift_up(ds, pos, last);
  else
    sift_down(ds, pos, last);
}

/* ------------------------------------------------------- D* Lite core -- */

/* The key of u: k1 = min(g, rhs) + h(start, u) + k_m; then the class and
** k2 of the tie order (see entry_less): g for underconsistent vertices,
** -rhs for the others. */
static inline void calc_key(const lds_DStar *ds, uint32_t u, DsEntry *e) {
  const DsVertex *x = &ds->v[u];
  double m = x->g < x->rhs ? x->g : x->rhs;
  if (ds->graph) {
    e->k1 = m + (graph_h(ds, ds->start, u) + ds->gkm);
  } else {
    DsH h = SP_H_START(ds, u);
    e->k1 = m + ds->scale * ((double)(h.a + ds->km.a) + (double)(h.b + ds->km.b) * LDSI_SQRT2);
  }
  e->under = x->g < x->rhs;
  e->sk = key_sort(e->k1, e->under);
  e->k2 = e->under ? x->g : -x->rhs;
  e->node = u;
}

static void update_vertex(lds_DStar *ds, uint32_t u) {
  if (ds->v[u].g != ds->v[u].rhs) {
    DsEntry e;
    calc_key(ds, u, &e);
    heap_set(ds, &e);
  } else if (ds->v[u].hpos != NONE) {
    heap_remove(ds, u);
  }
}

/* rhs(u) = min over successors of c + g (the goal keeps rhs = 0). Returns
** whether rhs changed: when it did not (and g did not), u's state and its
** place in the queue are what they were, so the caller may skip
** update_vertex (its stored key is still a lower bound of the current one,
** which is all the queue needs: see the k_m argument at the top). */
static bool recompute_rhs(lds_DStar *ds, uint32_t u) {
  uint32_t vb[MAXDEG], *v = ds->graph ? ds->gsv : vb;
  double cb[MAXDEG], *c = ds->graph ? ds->gsc : cb, best = INFINITY;
  int k, n;
  if (u == ds->goal) return false;
  n = SP_SUCC(ds, u, v, c);
  for (k = 0; k < n; k++) {
    double x = c[k] + ds->v[v[k]].g;
    if (x < best) best = x;
  }
  ds->stats.rhs_updates++;
  if (ds->v[u].rhs == best) return false;
  ds->v[u].rhs = best;
  return true;
}

/* ------------------------------------------------------- snapshots -- */

/* Effective cost of entering padded cell p (inf when blocked or blocked by a
** layer); false with a message when the weighted cost is <= 0 or NaN. */
static bool cell_ecost(lds_DStar *ds, size_t p, double *out, const char *fn) {
  const lds_Grid *g = ds->grid;
  int32_t x, y;
  size_t u;
  double c;
  int i;
  if (g->blocked[p]) {
    *out = INFINITY;
    return true;
  }
  c = (double)g->cost[p];
  if (ds->nweights) {
    ldsi_grid_pxy(g, p, &x, &y);
    u = (size_t)y * (size_t)g->w + (size_t)x;
    for (i = 0; i < ds->nweights; i++)
      if (ds->weights[i] != 0.0) c += ds->weights[i] * (double)g->layers[i].data[u];
    if (c != INFINITY && (!(c > 0.0) || isinf(c))) {
      ldsi_msg(ds->errmsg,
               "%s: cell (%ld,%ld) has cost %g under the layer weights (base %g; expected "
               "finite, > 0, or +inf from a layer to block it)",
               fn, (long)x, (long)y, ldsi_num(c), (double)g->cost[p]);
      return false;
    }
  }
  *out = c;
  return true;
}

static bool layers_ok(lds_DStar *ds, const char *fn) {
  if (ds->nweights > ds->grid->nlayers) {
    ldsi_msg(ds->errmsg, "%s: the search weights %d layers but the grid now has %d "
             "(a layer was removed; create a new search)", fn, ds->nweights, ds->grid->nlayers);
    return false;
  }
  return true;
}

static void snap_cell(lds_DStar *ds, size_t p) {
  unsigned now = ds->grid->nbr[p], diff = now ^ ds->v[p].nbr;
  while (diff) { /* a move p -> p + off[d] appeared or vanished: its target's
                 ** predecessor bit d follows (the target is an inner cell,
                 ** since the move was legal in one of the two masks) */
    int d = __builtin_ctz(diff);
    diff &= diff - 1;
    ds->v[(size_t)((ptrdiff_t)p + ds->off[d])].pnbr ^= (uint8_t)(1u << d);
  }
  ds->v[p].nbr = (uint8_t)now;
  if (ds->grid->blocked[p])
    ds->v[p].mark |= M_BLOCKED;
  else
    ds->v[p].mark &= (uint8_t)~M_BLOCKED;
}

/* Full restart: snapshot every cell, resolve heuristic and scale, clear the
** search and queue the goal. O(cells); never allocates. */
static lds_Status full_reinit(lds_DStar *ds, const char *fn) {
  const lds_Grid *g = ds->grid;
  size_t p;
  double mn = INFINITY, mx = 0.0;
  if (ds->graph) return graph_full_reinit(ds);
  if (!layers_ok(ds, fn)) return LDS_E_STATE;
  for (p = 0; p < ds->n; p++) {
    double c;
    snap_cell(ds, p);
    ds->v[p].mark &= (uint8_t)~(M_DIRTY | M_AFFECTED);
    if (!cell_ecost(ds, p, &c, fn)) return LDS_E_ARG;
    ds->v[p].ecost = c;
    if (c < mn) mn = c;
    if (c > mx && c < INFINITY) mx = c;
    ds->v[p].g = INFINITY;
    ds->v[p].rhs = INFINITY;
    ds->v[p].hpos = NONE;
  }
  ds->ndirty = 0;
  ds->heap_n = 0;
  ds->hk = ds->hk_param;
  if (ds->hk == LDS_H_AUTO) /* octile where diagonal moves exist, else manhattan */
    ds->hk = g->neighbourhood == 8 && g->diag != LDS_DIAG_NEVER ? LDS_H_OCTILE : LDS_H_MANHATTAN;
  if (ds->auto_scale) ds->scale = mn == INFINITY ? 1.0 : mn;
  ds->gminc = mn;
  ds->gmaxc = mx;
  ds->gtiny = false;
  grid_check_tiny(ds);
  ds->km.a = 0;
  ds->km.b = 0;
  ds->last = ds->start;
  ds->v[ds->goal].rhs = 0.0;
  update_vertex(ds, ds->goal);
  ds->reinit_pending = false;
  return LDS_OK;
}

/* Tiny moves on grids: once the cell costs span more than about 2^53 / cells
** (1 next to 3.4e38), a cheap move can vanish in c + g, and cheap cells
** next to each other then support each other's g as a free cycle does on a
** graph (see graph_scan_tiny): after a cut, rhs(u) = c + g(v) == g(u) and
** rhs(v) = c + g(u) == g(v) leave a stale finite g that nothing queues, and
** the search reports the old path. Sticky until the next restart. */
static void grid_check_tiny(lds_DStar *ds) {
  if (ds->gminc <= 1e-15 * (double)(ds->n + 1) * 2.0 * LDSI_SQRT2 * ds->gmaxc) ds->gtiny = true;
}

/* Eager invalidation on grids with tiny moves (as graph_invalidate): the
** seeds are the vertices of the 3x3 blocks around the changed cells (their
** out-moves changed), then every vertex whose g rests on a seed through
** tight moves (c + g(x) within 1e-10 relative of g(s)); all get g = inf, and
** rhs of them and their predecessors is recomputed from what is left, which
** no longer depends on the change; the normal repair rebuilds them. Runs
** after the snapshots are updated; O(collected vertices); ds->scratch holds
** them (free during compute). */
static void grid_invalidate(lds_DStar *ds) {
  uint32_t *d = ds->scratch, pv[MAXDEG];
  double pc[MAXDEG];
  int32_t pw = (int32_t)ds->pw;
  size_t nd = 0, i;
  for (i = 0; i < ds->ndirty; i++) {
    uint32_t c = ds->dirty[i];
    int dy, dx;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++) {
        uint32_t q = (uint32_t)((int32_t)c + dy * pw + dx);
        if (q == ds->goal || (ds->v[q].mark & M_INVAL) || ds->v[q].g == INFINITY) continue;
        ds->v[q].mark |= M_INVAL;
        d[nd++] = q;
      }
  }
  for (i = 0; i < nd; i++) {
    uint32_t x = d[i];
    double gx = ds->v[x].g;
    int k, m = grid_pred(ds, x, pv, pc);
    for (k = 0; k < m; k++) {
      uint32_t s = pv[k];
      double gs = ds->v[s].g;
      if (s == ds->goal || (ds->v[s].mark & M_INVAL) || gs == INFINITY) continue;
      if (pc[k] + gx <= gs + 1e-10 * gs) {
        ds->v[s].mark |= M_INVAL;
        d[nd++] = s;
      }
    }
  }
  for (i = 0; i < nd; i++) {
    ds->v[d[i]].g = INFINITY;
    ds->stats.g_updates++;
  }
  for (i = 0; i < nd; i++) {
    uint32_t x = d[i];
    int k, m = grid_pred(ds, x, pv, pc);
    recompute_rhs(ds, x);
    update_vertex(ds, x);
    for (k = 0; k < m; k++) {
      uint32_t s = pv[k];
      if (s == ds->goal || (ds->v[s].mark & M_INVAL)) continue;
      recompute_rhs(ds, s);
      update_vertex(ds, s);
    }
  }
  for (i = 0; i < nd; i++) ds->v[d[i]].mark &= (uint8_t)~M_INVAL;
}

/* Processes the change list: new snapshots first (every changed cell), then
** rhs of the 3x3 block around each changed cell, then the marks are cleared.
** Returns an error status or LDS_OK; sets *restart when the heuristic scale
** must drop (then the caller restarts). */
static lds_Status process_changes(lds_DStar *ds, bool *restart) {
  size_t i;
  int32_t pw = (int32_t)ds->pw;
  *restart = false;
  if (ds->graph) return graph_process_changes(ds, restart);
  if (!layers_ok(ds, "lds_dstar_compute")) return LDS_E_STATE;
  for (i = 0; i < ds->ndirty; i++) {
    uint32_t c = ds->dirty[i];
    double e;
    int dy, dx;
    if (!cell_ecost(ds, c, &e, "lds_dstar_compute")) return LDS_E_ARG;
    ds->v[c].ecost = e;
    if (ds->auto_scale && e < ds->scale) *restart = true;
    if (e < ds->gminc) ds->gminc = e;
    if (e > ds->gmaxc && e < INFINITY) ds->gmaxc = e;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++) snap_cell(ds, (size_t)((int32_t)c + dy * pw + dx));
  }
  if (*restart) return LDS_OK;
  if (!ds->gtiny) {
    grid_check_tiny(ds);
    /* the first tiny move: vertices left underconsistent by lazy repairs
    ** (g too low, queued above the start's key) could now lock each other
    ** in, so start from a clean state */
    if (ds->gtiny) {
      *restart = true;
      return LDS_OK;
    }
  }
  if (ds->gtiny) grid_invalidate(ds);
  for (i = 0; i < ds->ndirty; i++) {
    uint32_t c = ds->dirty[i];
    int dy, dx;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++) {
        uint32_t q = (uint32_t)((int32_t)c + dy * pw + dx);
        if (ds->v[q].mark & M_AFFECTED) continue;
        ds->v[q].mark |= M_AFFECTED;
        if (q == ds->start) ds->flags |= LDS_DSTAR_NEAR_START; /* within one cell */
        if (recompute_rhs(ds, q)) update_vertex(ds, q);
      }
  }
  for (i = 0; i < ds->ndirty; i++) {
    uint32_t c = ds->dirty[i];
    int dy, dx;
    ds->v[c].mark &= (uint8_t)~M_DIRTY;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++)
        ds->v[(size_t)((int32_t)c + dy * pw + dx)].mark &= (uint8_t)~M_AFFECTED;
  }
  ds->stats.cells_changed += ds->ndirty;
  ds->ndirty = 0;
  return LDS_OK;
}

/* --------------------------------------------------------- lifetime -- */

void lds_dstar_params_init(lds_DStarParams *p) {
  memset(p, 0, sizeof *p);
  p->heuristic = LDS_H_AUTO;
}

static size_t bytes_per_cell(void) {
  return sizeof(DsVertex) + sizeof(DsEntry) + 2 * sizeof(uint32_t); /* 72 */
}

static void release(lds_DStar *ds) {
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

lds_DStar *lds_dstar_new(const lds_Env *env, const lds_Grid *grid, int32_t sx, int32_t sy,
                         int32_t gx, int32_t gy, const lds_DStarParams *params, lds_Error *err) {
  ldsi_Env e;
  lds_DStarParams p;
  lds_DStar *ds;
  lds_Status st;
  int i;
  ldsi_env_resolve(&e, env);
  if (params)
    p = *params;
  else
    lds_dstar_params_init(&p);
  if (!grid) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new: grid is NULL");
    return NULL;
  }
  if (grid->pcells >= (size_t)NONE) {
    ldsi_error(err, LDS_E_LIMIT, "lds_dstar_new: grid of %zu cells exceeds the %u vertex limit",
               grid->pcells, (unsigned)NONE - 1);
    return NULL;
  }
  if (!lds_grid_in_bounds(grid, sx, sy)) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new: start (%ld,%ld) out of bounds (grid is %ldx%ld)",
               (long)sx, (long)sy, (long)grid->w, (long)grid->h);
    return NULL;
  }
  if (!lds_grid_in_bounds(grid, gx, gy)) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new: goal (%ld,%ld) out of bounds (grid is %ldx%ld)",
               (long)gx, (long)gy, (long)grid->w, (long)grid->h);
    return NULL;
  }
  if (lds_heuristic_name(p.heuristic) == NULL) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new: unknown heuristic %d", (int)p.heuristic);
    return NULL;
  }
  if (p.heuristic == LDS_H_EUCLIDEAN) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new: heuristic 'euclidean' is not supported (keys "
               "must be exact; use auto, octile, manhattan, chebyshev or zero)");
    return NULL;
  }
  if (isnan(p.h_scale) || p.h_scale < 0.0 || isinf(p.h_scale)) {
    ldsi_error(err, LDS_E_ARG, "lds_dstar_new: h_scale %g out of range (expected finite, >= 0)",
               ldsi_num(p.h_scale));
    return NULL;
  }
  if (p.n_layer_weights < 0 || p.n_layer_weights > grid->nlayers || p.n_layer_weights > 16 ||
      (p.n_layer_weights > 0 && !p.layer_weights)) {
    ldsi_error(err, LDS_E_ARG,
               "lds_dstar_new: %d layer weights for a grid with %d layers (expected 0..%d)",
               p.n_layer_weights, grid->nlayers, grid->nlayers < 16 ? grid->nlayers : 16);
    return NULL;
  }
  for (i = 0; i < p.n_layer_weights; i++)
    if (isnan(p.layer_weights[i]) || isinf(p.layer_weights[i])) {
      ldsi_error(err, LDS_E_ARG, "lds_dstar_new: weight of layer '%s' is %g (expected finite)",
                 grid->layers[i].name, ldsi_num(p.layer_weights[i]));
      return NULL;
    }
  ds = (lds_DStar *)ldsi_calloc(&e, 1, sizeof *ds);
  if (!ds) goto nomem;
  ds->env = e;
  ds->grid = grid;
  ds->n = grid->pcells;
  ds->v = (DsVertex *)ldsi_calloc(&e, ds->n, sizeof(DsVertex));
  ds->heap = (DsEntry *)ldsi_alloc(&e, ds->n * sizeof(DsEntry));
  ds->dirty = (uint32_t *)ldsi_alloc(&e, ds->n * sizeof(uint32_t));
  ds->scratch = (uint32_t *)ldsi_alloc(&e, ds->n * sizeof(uint32_t));
  if (!ds->v || !ds->heap || !ds->dirty || !ds->scratch) {
    release(ds);
    ldsi_free(&e, ds, sizeof *ds);
    goto nomem;
  }
  /* touch every page now, so page faults land in create, not in compute */
  memset(ds->heap, 0, ds->n * sizeof(DsEntry));
  memset(ds->dirty, 0, ds->n * sizeof(uint32_t));
  memset(ds->scratch, 0, ds->n * sizeof(uint32_t));
  ldsi_grid_offsets(grid, ds->off);
  ds->pw = (uint32_t)grid->pw;
  ds->start = (uint32_t)ldsi_grid_pidx(grid, sx, sy);
  ds->start_x = sx + 1;
  ds->start_y = sy + 1;
  ds->goal = (uint32_t)ldsi_grid_pidx(grid, gx, gy);
  ds->hk_param = p.heuristic;
  ds->auto_scale = !(p.h_scale > 0.0);
  ds->scale = p.h_scale;
  for (i = 0; i < p.n_layer_weights; i++) {
    ds->weights[i] = p.layer_weights[i];
    if (p.layer_weights[i] != 0.0) ds->nweights = i + 1;
  }
  st = full_reinit(ds, "lds_dstar_new");
  if (st < 0) {
    ldsi_error(err, st, "%s", ds->errmsg);
    release(ds);
    ldsi_free(&e, ds, sizeof *ds);
    return NULL;
  }
  ds->status = LDS_RUNNING;
  ldsi_error_clear(err);
  return ds;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "lds_dstar_new: out of memory for %zu cells (%zu bytes)",
             grid->pcells, grid->pcells * bytes_per_cell());
  return NULL;
}

void lds_dstar_free(lds_DStar *ds) {
  ldsi_Env e;
  if (!ds) return;
  if (ds->listened) lds_dstar_unsubscribe(ds);
  if (ds->glistened) lds_dstar_unsubscribe_graph(ds);
  e = ds->env;
  release(ds);
  ldsi_free(&e, ds, sizeof *ds);
}

size_t lds_dstar_mem_used(const lds_DStar *ds) {
  if (ds->graph)
    return sizeof *ds + ds->n * (bytes_per_cell() + sizeof(uint32_t)) +
           ((size_t)ds->gm + 1) * sizeof(double) + (size_t)ds->gdeg * 2 * (sizeof(uint32_t) + sizeof(double));
  return sizeof *ds + ds->n * bytes_per_cell();
}

/* ---------------------------------------------------------- changes -- */

/* a cell-based call on a graph search */
static lds_Status graph_only_nodes(lds_DStar *ds, const char *fn) {
  ldsi_msg(ds->errmsg, "%s: this search is on a graph (use the _node / _edge / _graph calls)", fn);
  return LDS_E_STATE;
}

static void queue_cell(lds_DStar *ds, uint32_t p) {
  if (ds->v[p].mark & M_DIRTY) return;
  ds->v[p].mark |= M_DIRTY;
  ds->dirty[ds->ndirty++] = p; /* capacity n: each cell at most once */
}

static void mark_rect(lds_DStar *ds, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  const lds_Grid *g = ds->grid;
  int32_t x, y;
  if (ds->status >= 0) ds->status = LDS_RUNNING;
  if (ds->reinit_pending) return;
  if (x0 <= 0 && y0 <= 0 && x1 >= g->w - 1 && y1 >= g->h - 1) {
    ds->reinit_pending = true; /* the whole grid: a restart is cheaper */
    return;
  }
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) queue_cell(ds, (uint32_t)ldsi_grid_pidx(g, x, y));
}

static void on_grid_edit(void *ud, const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1,
                         int32_t y1, uint64_t version) {
  lds_DStar *ds = (lds_DStar *)ud;
  (void)version;
  if (g != ds->grid) return;
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 > g->w - 1) x1 = g->w - 1;
  if (y1 > g->h - 1) y1 = g->h - 1;
  if (x0 > x1 || y0 > y1) return;
  mark_rect(ds, x0, y0, x1, y1);
}

lds_Status lds_dstar_subscribe(lds_DStar *ds, lds_Grid *grid) {
  lds_Status st;
  if (ds->graph || grid != ds->grid) {
    ldsi_msg(ds->errmsg, "lds_dstar_subscribe: not the grid the search was created on");
    return LDS_E_ARG;
  }
  if (ds->listened) return LDS_OK;
  st = lds_grid_listen(grid, on_grid_edit, ds);
  if (st != LDS_OK) {
    ldsi_msg(ds->errmsg, "lds_dstar_subscribe: out of memory for the grid's listener list");
    return st;
  }
  ds->listened = grid;
  return LDS_OK;
}

lds_Status lds_dstar_unsubscribe(lds_DStar *ds) {
  if (ds->graph) return lds_dstar_unsubscribe_graph(ds);
  if (!ds->listened) {
    ldsi_msg(ds->errmsg, "lds_dstar_unsubscribe: not subscribed");
    return LDS_E_STATE;
  }
  lds_grid_unlisten(ds->listened, on_grid_edit, ds);
  ds->listened = NULL;
  return LDS_OK;
}

lds_Status lds_dstar_update(lds_DStar *ds, int32_t x, int32_t y) {
  if (ds->graph) return graph_only_nodes(ds, "lds_dstar_update");
  if (!lds_grid_in_bounds(ds->grid, x, y)) {
    ldsi_msg(ds->errmsg, "lds_dstar_update: cell (%ld,%ld) out of bounds (grid is %ldx%ld)",
             (long)x, (long)y, (long)ds->grid->w, (long)ds->grid->h);
    return LDS_E_ARG;
  }
  mark_rect(ds, x, y, x, y);
  return LDS_OK;
}

lds_Status lds_dstar_update_rect(lds_DStar *ds, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  const lds_Grid *g = ds->grid;
  if (ds->graph) return graph_only_nodes(ds, "lds_dstar_update_rect");
  if (x0 > x1 || y0 > y1 || !lds_grid_in_bounds(g, x0, y0) || !lds_grid_in_bounds(g, x1, y1)) {
    ldsi_msg(ds->errmsg,
             "lds_dstar_update_rect: rectangle (%ld,%ld)-(%ld,%ld) is empty or out of bounds "
             "(grid is %ldx%ld)",
             (long)x0, (long)y0, (long)x1, (long)y1, (long)g->w, (long)g->h);
    return LDS_E_ARG;
  }
  mark_rect(ds, x0, y0, x1, y1);
  return LDS_OK;
}

lds_Status lds_dstar_move_start(lds_DStar *ds, int32_t x, int32_t y) {
  uint32_t s;
  if (ds->graph) return graph_only_nodes(ds, "lds_dstar_move_start");
  if (!lds_grid_in_bounds(ds->grid, x, y)) {
    ldsi_msg(ds->errmsg, "lds_dstar_move_start: cell (%ld,%ld) out of bounds (grid is %ldx%ld)",
             (long)x, (long)y, (long)ds->grid->w, (long)ds->grid->h);
    return LDS_E_ARG;
  }
  s = (uint32_t)ldsi_grid_pidx(ds->grid, x, y);
  if (s == ds->start) return LDS_OK;
  ds->start = s;
  ds->start_x = x + 1;
  ds->start_y = y + 1;
  {
    DsH h = SP_H(ds, ds->last, s);
    ds->km.a += h.a;
    ds->km.b += h.b;
  }
  ds->last = s;
  if (ds->status >= 0) ds->status = LDS_RUNNING;
  return LDS_OK;
}

/* ---------------------------------------------------------- compute -- */

/* The path from the start (grid and graph, through SP_SUCC): a depth-first
** walk that never enters a vertex twice and backtracks out of dead ends. At
** each vertex u it steps to the successor v with the smallest c + g(v)
** (ties: the first in successor order) among those not yet on the walk
** whose c + g(v) is tight: within 1e-10 relative of the smallest c + g over
** all of u's successors. Why not plain greedy descent: once costs span more
** than 2^53 a cheap move vanishes in c + g (1 + 3.4e38 == 3.4e38), two
** neighbours tie in c + g and greedy descent can step back and forth
** between them forever; on graphs a cycle of free edges does the same.
** Tight edges from the start lead to the goal (each vertex's g was set from
** a tight successor settled before it), so the walk finds them; were it to
** fail (a state the search cannot reach), a second walk that accepts any
** successor with a finite g still returns a legal path. Without ties on
** absorbed costs the walk is the greedy descent and never backtracks.
** M_AFFECTED marks the visited vertices; ds->dirty lists them for the
** clean-up (the change list is empty whenever the status is LDS_FOUND).
** O(vertices x degree) at worst. Writes the vertices to out (and on graphs
** the edge taken from each to ds->gidx); returns their count (0 when no
** walk reaches the goal) and the forward sum of the moves in *cost. */
static size_t walk_pass(const lds_DStar *ds, uint32_t *out, double *cost, bool tight) {
  uint32_t *seen = ds->dirty, *edge = ds->gidx;
  uint32_t vb[MAXDEG], *v = ds->graph ? ds->gsv : vb;
  double cb[MAXDEG], *c = ds->graph ? ds->gsc : cb, sum = 0.0;
  size_t n = 0, nseen = 0, k;
  out[n++] = ds->start;
  ds->v[ds->start].mark |= M_AFFECTED;
  seen[nseen++] = ds->start;
  while (n > 0 && out[n - 1] != ds->goal) {
    uint32_t u = out[n - 1];
    double best = INFINITY, lim = INFINITY;
    int j, bj = -1, m = SP_SUCC(ds, u, v, c);
    if (tight) {
      for (j = 0; j < m; j++)
        if (c[j] + ds->v[v[j]].g < lim) lim = c[j] + ds->v[v[j]].g;
      lim += 1e-10 * lim;
    }
    for (j = 0; j < m; j++) {
      const DsVertex *x = &ds->v[v[j]];
      double cg = c[j] + x->g;
      if (x->g < INFINITY && cg <= lim && !(x->mark & M_AFFECTED) && (bj < 0 || cg < best)) {
        best = cg;
        bj = j;
      }
    }
    if (bj < 0) {
      n--; /* dead end: backtrack */
      continue;
    }
    if (ds->graph) edge[n - 1] = ds->graph->off[u] + (uint32_t)bj; /* graph_succ: CSR order */
    ds->v[v[bj]].mark |= M_AFFECTED;
    seen[nseen++] = v[bj];
    out[n++] = v[bj];
  }
  for (k = 0; k < nseen; k++) ds->v[seen[k]].mark &= (uint8_t)~M_AFFECTED;
  for (k = 0; k + 1 < n; k++) {
    if (ds->graph) {
      sum += ds->gcost[edge[k]];
    } else {
      int d = 0;
      while (d < 7 && (ptrdiff_t)out[k] + ds->off[d] != (ptrdiff_t)out[k + 1]) d++;
      sum += move_len[d] * ds->v[out[k + 1]].ecost; /* the move's direction d */
    }
  }
  *cost = sum;
  return n;
}

static size_t walk(const lds_DStar *ds, uint32_t *out, double *cost) {
  size_t n;
  if (ds->ndirty) return 0;
  n = walk_pass(ds, out, cost, true);
  return n ? n : walk_pass(ds, out, cost, false);
}

static lds_Status finish(lds_DStar *ds, lds_Status st) {
  ds->status = st;
  ds->in_replan = false;
  if (st == LDS_NO_PATH) {
    ds->had_no_path = true;
    ds->cost = -1.0;
  } else if (st == LDS_FOUND) {
    if (ds->had_no_path) ds->flags |= LDS_DSTAR_REACHABLE_AGAIN;
    ds->had_no_path = false;
  }
  return st;
}

lds_Status lds_dstar_compute(lds_DStar *ds, const lds_Budget *budget) {
  uint64_t max_exp = budget ? budget->max_expansions : 0, us = budget ? budget->budget_us : 0;
  uint64_t t0, done = 0;
  lds_Status st = LDS_RUNNING;
  uint32_t pvb[MAXDEG], *pv = ds->graph ? ds->gpv : pvb;
  double pcb[MAXDEG], *pc = ds->graph ? ds->gpc : pcb, km_cost;
  if (ds->status != LDS_RUNNING) return ds->status;
  t0 = ds->env.clock(ds->env.clock_ud);
  if (!ds->in_replan) {
    ds->flags = 0;
    ds->in_replan = true;
    ds->errmsg[0] = '\0';
  }
  if (ds->reinit_pending || ds->ndirty) {
    bool restart = ds->reinit_pending;
    ds->flags |= LDS_DSTAR_CHANGES;
    ds->stats.replans++;
    if (!restart) {
      st = process_changes(ds, &restart);
      if (st < 0) goto fail;
    }
    if (restart) {
      ds->flags |= LDS_DSTAR_REINIT | LDS_DSTAR_NEAR_START;
      st = full_reinit(ds, "lds_dstar_compute");
      if (st < 0) goto fail;
    }
  }
  if (ds->v[ds->start].mark & M_BLOCKED) ds->flags |= LDS_DSTAR_START_BLOCKED;
  if (ds->v[ds->goal].mark & M_BLOCKED) ds->flags |= LDS_DSTAR_GOAL_BLOCKED;
  if (ds->flags & (LDS_DSTAR_START_BLOCKED | LDS_DSTAR_GOAL_BLOCKED)) {
    st = finish(ds, LDS_NO_PATH);
    goto out;
  }
  if (ds->start == ds->goal) {
    ds->flags |= LDS_DSTAR_AT_GOAL;
    ds->cost = 0.0;
    st = finish(ds, LDS_FOUND);
    goto out;
  }

  /* k_m's share of every key (scale and k_m are fixed from here on) */
  km_cost = ds->scale * ((double)(0 + ds->km.a) + (double)(0 + ds->km.b) * LDSI_SQRT2);
  /* ComputeShortestPath (Fig. 4, lines 10-28) */
  for (;;) {
    const DsEntry *top;
    uint32_t u;
    DsEntry kn;
    const DsVertex *sv = &ds->v[ds->start];
    int k, m;
    if (ds->heap_n == 0) break;
    top = &ds->heap[0];
    /* Stop when the start is consistent and no queued vertex sorts before
    ** the start's key as an overconsistent entry would (key_sort): none
    ** has a smaller k1 bucket, and no underconsistent one has a k1 within
    ** 1.8e-10 relative above it (its g may be too low). Overconsistent
    ** vertices in the start's bucket are left queued: they cannot improve
    ** the start's cost by more than the bucket's width (an improvement
    ** would give them a smaller k1) and their g is too high, never too
    ** low. This is the paper's TopKey >= key(start) test with ties broken
    ** towards the start, robust to float rounding. */
    if (sv->rhs == sv->g) {
      /* the start's k1: h(start, start) = 0, so calc_key reduces to
      ** g + km_cost (same arithmetic, bit for bit) */
      double k1s = sv->g + km_cost, sks;
      if (ds->graph) { /* graphs keep k_m as a double (lds_dstar_graph.c): the full key */
        DsEntry ks;
        calc_key(ds, ds->start, &ks);
        k1s = ks.k1;
      }
      sks = key_sort(k1s, false);
      if (top->sk > sks) break;
      if (top->sk == sks && !top->under) break;
    }
    if (max_exp && done >= max_exp) goto running;
    if (us && done && (done % CLOCK_EVERY) == 0 && ds->env.clock(ds->env.clock_ud) - t0 >= us)
      goto running;
    done++;
    u = top->node;
    calc_key(ds, u, &kn);
    if (entry_less(top, &kn)) { /* stale key (k_m grew): re-key */
      heap_set(ds, &kn);
      continue;
    }
    ds->stats.expansions++;
    m = SP_PRED(ds, u, pv, pc);
    if (ds->v[u].g > ds->v[u].rhs) { /* overconsistent: settle */
      double gu = ds->v[u].rhs;
      ds->v[u].g = gu;
      ds->stats.g_updates++;
      /* u is the root: leave a hole the first new predecessor fills */
      ds->v[u].hpos = NONE;
      ds->root_hole = true;
      for (k = 0; k < m; k++) {
        uint32_t s = pv[k];
        double x = pc[k] + gu;
        if (s == ds->goal || !(x < ds->v[s].rhs)) continue;
        ds->v[s].rhs = x;
        ds->stats.rhs_updates++;
        update_vertex(ds, s);
      }
      fill_hole(ds);
    } else { /* underconsistent: raise to infinity, repair dependants */
      double gold = ds->v[u].g;
      ds->v[u].g = INFINITY;
      ds->stats.g_updates++;
      for (k = 0; k < m; k++) {
        uint32_t s = pv[k];
        if (s == ds->goal || ds->v[s].rhs != pc[k] + gold) continue;
        if (recompute_rhs(ds, s)) update_vertex(ds, s); /* unchanged: another
                                                         ** successor ties */
      }
      recompute_rhs(ds, u);
      update_vertex(ds, u);
    }
  }

  if (ds->v[ds->start].rhs == INFINITY) {
    ds->flags |= LDS_DSTAR_UNREACHABLE;
    st = finish(ds, LDS_NO_PATH);
  } else {
    /* min over successors of c + g: rhs(start) recomputed (g(start) may be
    ** stale with the optimized termination test); O(1), no path walk */
    uint32_t vb[MAXDEG], *v = ds->graph ? ds->gsv : vb;
    double cb[MAXDEG], *c = ds->graph ? ds->gsc : cb, best = INFINITY;
    int k, m = SP_SUCC(ds, ds->start, v, c);
    for (k = 0; k < m; k++)
      if (c[k] + ds->v[v[k]].g < best) best = c[k] + ds->v[v[k]].g;
    ds->cost = best;
    st = finish(ds, LDS_FOUND);
  }
  goto out;
running:
  st = LDS_RUNNING;
  ds->status = LDS_RUNNING;
  goto out;
fail:
  ds->status = st;
  ds->in_replan = false;
out:
  ds->stats.queue_size = ds->heap_n;
  ds->stats.elapsed_us += ds->env.clock(ds->env.clock_ud) - t0;
  return st;
}

/* ----------------------------------------------------------- queries -- */

lds_Status lds_dstar_status(const lds_DStar *ds) { return ds->status; }
uint32_t lds_dstar_flags(const lds_DStar *ds) { return ds->flags; }
const char *lds_dstar_errmsg(const lds_DStar *ds) { return ds->errmsg; }

void lds_dstar_stats(const lds_DStar *ds, lds_DStarStats *out) {
  *out = ds->stats;
  out->queue_size = ds->heap_n;
}

double lds_dstar_cost(const lds_DStar *ds) { return ds->status == LDS_FOUND ? ds->cost : -1.0; }

void lds_dstar_endpoints(const lds_DStar *ds, int32_t *sx, int32_t *sy, int32_t *gx,
                         int32_t *gy) {
  int32_t x, y;
  if (ds->graph) { /* node ids in x, 0 in y */
    if (sx) *sx = (int32_t)ds->start;
    if (sy) *sy = 0;
    if (gx) *gx = (int32_t)ds->goal;
    if (gy) *gy = 0;
    return;
  }
  ldsi_grid_pxy(ds->grid, ds->start, &x, &y);
  if (sx) *sx = x;
  if (sy) *sy = y;
  ldsi_grid_pxy(ds->grid, ds->goal, &x, &y);
  if (gx) *gx = x;
  if (gy) *gy = y;
}

lds_Status lds_dstar_next(const lds_DStar *ds, int32_t *x, int32_t *y) {
  uint32_t u = ds->start;
  if (ds->status != LDS_FOUND || ds->graph) return LDS_E_STATE;
  if (u != ds->goal) {
    /* The second cell of the path's walk, so an agent following next walks
    ** the path and never oscillates. In O(1) when the smallest c + g
    ** (first in direction order, as the walk's first choice) comes from a
    ** successor of strictly smaller g, i.e. the move is not absorbed in
    ** c + g: the walk takes that step and descends from there. Otherwise
    ** (costs spanning more than 2^53) the walk itself. */
    uint32_t v[MAXDEG], bv = NONE;
    double c[MAXDEG], best = INFINITY;
    int k, m = SP_SUCC(ds, u, v, c);
    for (k = 0; k < m; k++)
      if (ds->v[v[k]].g < INFINITY && c[k] + ds->v[v[k]].g < best) {
        best = c[k] + ds->v[v[k]].g;
        bv = v[k];
      }
    if (bv != NONE && ds->v[bv].g < best) {
      u = bv;
    } else {
      double cost;
      if (walk(ds, ds->scratch, &cost) < 2) return LDS_E_STATE;
      u = ds->scratch[1];
    }
  }
  ldsi_grid_pxy(ds->grid, u, x, y);
  return LDS_OK;
}

static lds_Path *graph_path(const lds_DStar *ds, lds_Error *err);

lds_Path *lds_dstar_path(const lds_DStar *ds, lds_Error *err) {
  lds_Env env;
  size_t n, k;
  double cost = 0.0;
  const lds_Grid *g = ds->grid;
  if (ds->status != LDS_FOUND) {
    ldsi_error(err, LDS_E_STATE, "lds_dstar_path: no path (status %s)",
               lds_status_name(ds->status));
    return NULL;
  }
  if (ds->graph) return graph_path(ds, err);
  n = walk(ds, ds->scratch, &cost);
  if (n == 0) {
    ldsi_error(err, LDS_E_STATE, "lds_dstar_path: no descending path from the start");
    return NULL;
  }
  for (k = 0; k < n; k++) { /* padded ids -> y*width+x, in place */
    int32_t x, y;
    ldsi_grid_pxy(g, ds->scratch[k], &x, &y);
    ds->scratch[k] = (uint32_t)y * (uint32_t)g->w + (uint32_t)x;
  }
  env = ldsi_env_public(&ds->env);
  return lds_path_new(&env, ds->scratch, n, g->w, cost, 0, err);
}

/* ------------------------------------------------------ graph space -- */
/* D* Lite on a frozen lds_Graph (lds_dstar_new_graph, lds_dstar_graph.c):
** the same queue, keys and ComputeShortestPath as on grids, over CSR out-
** and in-edges. h and k_m are doubles here (coordinate distances are not
** integer pairs); why the keys stay lower bounds up to key_sort's rounding is argued in
** docs/dstar.md ("Graphs"). */

/* The largest consistent scale of the snapshot costs (as lds_graph_h_scale,
** but over what the search was told, not over the live graph). */
static double graph_snapshot_scale(const lds_DStar *ds) {
  const lds_Graph *g = ds->graph;
  double k = INFINITY;
  uint32_t u, e;
  for (u = 0; u < g->n && k > 0.0; u++)
    for (e = g->off[u]; e < g->off[u + 1]; e++) {
      double d = ldsi_graph_dist(g, u, g->dst[e]), r;
      if (!(d > 0.0)) continue;
      r = ds->gcost[e] / d;
      if (r < k) k = r;
    }
  if (k == INFINITY) k = 0.0;
  return k * (1.0 - 1e-9);
}

/* An edge is "tiny" when adding its cost to a path cost may change nothing
** in floating point (cost 0, or below ~m * max cost * 2^-52). With tiny
** edges, cycles of free edges break LPA*'s convergence proof (it assumes
** c > 0): after a raise, the nodes of a free cycle can keep supporting each
** other's stale, too low g values forever (rhs = g, so nothing is queued).
** graph_process_changes then invalidates the dependants of a raised edge
** eagerly. Sticky until the next restart; rescanned when the largest cost
** doubles. */
static void graph_scan_tiny(lds_DStar *ds) {
  uint32_t e;
  double mx = 0.0, thr;
  for (e = 0; e < ds->gm; e++)
    if (ds->gcost[e] > mx) mx = ds->gcost[e];
  ds->gmaxc = mx;
  thr = 1e-15 * (double)(ds->gm + 1) * 2.0 * mx;
  ds->gtiny = false;
  for (e = 0; e < ds->gm; e++)
    if (ds->gcost[e] <= thr) ds->gtiny = true;
}

/* Eager invalidation (tiny edges only): the seeds (sources of raised edges
** that were tight, c_old + g(v) = g(u)) and every node whose g rests on a
** seed through tight edges get g = inf; then rhs of those nodes and of
** their predecessors is recomputed from what is left, which no longer
** depends on the raised edges. The nodes are collected in gidx (marked
** M_AFFECTED), n0 seeds already there. */
static void graph_invalidate(lds_DStar *ds, size_t n0) {
  const lds_Graph *g = ds->graph;
  size_t nd = n0, i;
  uint32_t *d = ds->gidx;
  for (i = 0; i < nd; i++) {
    uint32_t x = d[i], k;
    double gx = ds->v[x].g;
    for (k = g->roff[x]; k < g->roff[x + 1]; k++) {
      uint32_t s = g->rsrc[k];
      double gs = ds->v[s].g;
      if (s == ds->goal || (ds->v[s].mark & M_AFFECTED) || gs == INFINITY) continue;
      if (ds->gcost[g->redge[k]] + gx <= gs + 1e-10 * fabs(gs)) {
        ds->v[s].mark |= M_AFFECTED;
        d[nd++] = s;
      }
    }
  }
  for (i = 0; i < nd; i++) {
    ds->v[d[i]].g = INFINITY;
    ds->stats.g_updates++;
  }
  for (i = 0; i < nd; i++) {
    uint32_t x = d[i], k;
    recompute_rhs(ds, x);
    update_vertex(ds, x);
    for (k = g->roff[x]; k < g->roff[x + 1]; k++) {
      uint32_t s = g->rsrc[k];
      if (s == ds->goal || (ds->v[s].mark & M_AFFECTED)) continue;
      recompute_rhs(ds, s);
      update_vertex(ds, s);
    }
  }
  for (i = 0; i < nd; i++) ds->v[d[i]].mark &= (uint8_t)~M_AFFECTED;
}

/* Full restart on a graph: snapshot every edge cost, resolve the scale,
** clear the search and queue the goal. O(nodes + edges). */
static lds_Status graph_full_reinit(lds_DStar *ds) {
  const lds_Graph *g = ds->graph;
  size_t p;
  if (ds->gm) memcpy(ds->gcost, g->cost, (size_t)ds->gm * sizeof(double)); /* no edges: cost may be NULL */
  graph_scan_tiny(ds);
  for (p = 0; p < ds->n; p++) {
    ds->v[p].g = INFINITY;
    ds->v[p].rhs = INFINITY;
    ds->v[p].hpos = NONE;
    ds->v[p].mark = 0;
  }
  ds->ndirty = 0;
  ds->heap_n = 0;
  if (ds->gzero)
    ds->scale = 0.0;
  else if (ds->auto_scale)
    ds->scale = graph_snapshot_scale(ds);
  ds->gkm = 0.0;
  ds->last = ds->start;
  ds->v[ds->goal].rhs = 0.0;
  update_vertex(ds, ds->goal);
  ds->reinit_pending = false;
  return LDS_OK;
}

/* The change list holds source nodes whose out-edges may have changed: new
** snapshots of their out-edge costs first, then their rhs is recomputed
** (c(u,v) enters only rhs(u)). A cost that drops below scale * distance
** would make h inconsistent: with the automatic scale, restart. */
static lds_Status graph_process_changes(lds_DStar *ds, bool *restart) {
  const lds_Graph *g = ds->graph;
  size_t i, nseed = 0;
  bool was_tiny = ds->gtiny;
  *restart = false;
  for (i = 0; i < ds->ndirty; i++) {
    uint32_t u = ds->dirty[i], e;
    ds->v[u].mark &= (uint8_t)~M_DIRTY;
    if (u == ds->start) ds->flags |= LDS_DSTAR_NEAR_START;
    for (e = g->off[u]; e < g->off[u + 1]; e++) {
      double c = g->cost[e];
      if (c == ds->gcost[e]) continue;
      if (c > ds->gcost[e] && u != ds->goal && !(ds->v[u].mark & M_AFFECTED) &&
          ds->v[u].g < INFINITY &&
          ds->gcost[e] + ds->v[g->dst[e]].g <= ds->v[u].g + 1e-10 * fabs(ds->v[u].g)) {
        ds->v[u].mark |= M_AFFECTED; /* a seed of graph_invalidate */
        ds->gidx[nseed++] = u;
      }
      if (c > 2.0 * ds->gmaxc) {
        ds->gcost[e] = c;
        graph_scan_tiny(ds); /* the tiny threshold grew */
      }
      if (c <= 1e-15 * (double)(ds->gm + 1) * 2.0 * ds->gmaxc) ds->gtiny = true;
      if (g->dst[e] == ds->start) ds->flags |= LDS_DSTAR_NEAR_START;
      if (ds->auto_scale && !ds->gzero && ds->scale > 0.0 &&
          c < ds->scale * ldsi_graph_dist(g, u, g->dst[e]))
        *restart = true;
      ds->gcost[e] = c;
    }
  }
  ds->stats.cells_changed += ds->ndirty;
  /* the first tiny edge: vertices left underconsistent by lazy repairs (g
  ** too low, queued above the start's key) could now support each other
  ** through it and never be queued again, so start from a clean state */
  if (!was_tiny && ds->gtiny) *restart = true;
  if (*restart || !ds->gtiny) {
    for (i = 0; i < nseed; i++) ds->v[ds->gidx[i]].mark &= (uint8_t)~M_AFFECTED;
    nseed = 0;
  }
  if (*restart) {
    ds->ndirty = 0;
    return LDS_OK;
  }
  if (nseed) graph_invalidate(ds, nseed);
  for (i = 0; i < ds->ndirty; i++) {
    recompute_rhs(ds, ds->dirty[i]);
    update_vertex(ds, ds->dirty[i]);
  }
  ds->ndirty = 0;
  return LDS_OK;
}

static lds_Path *graph_path(const lds_DStar *ds, lds_Error *err) {
  lds_Env env;
  size_t n;
  double cost = 0.0;
  n = walk(ds, ds->scratch, &cost);
  if (n == 0) {
    ldsi_error(err, LDS_E_STATE, "lds_dstar_path: no descending path from the start");
    return NULL;
  }
  env = ldsi_env_public(&ds->env);
  return lds_path_new(&env, ds->scratch, n, 0, cost, 0, err);
}

/* ------------------------------------------- graph hooks (internal) -- */

lds_DStar *ldsi_dstar_graph_new(const ldsi_Env *e, const lds_Graph *graph, uint32_t start,
                                uint32_t goal, bool zero_h, double h_scale, lds_Error *err) {
  lds_DStar *ds;
  uint32_t u, deg = 1;
  size_t n = graph->n;
  for (u = 0; u < graph->n; u++) {
    uint32_t dout = graph->off[u + 1] - graph->off[u], din = graph->roff[u + 1] - graph->roff[u];
    if (dout > deg) deg = dout;
    if (din > deg) deg = din;
  }
  ds = (lds_DStar *)ldsi_calloc(e, 1, sizeof *ds);
  if (!ds) goto nomem;
  ds->env = *e;
  ds->graph = graph;
  ds->n = n;
  ds->gm = graph->m;
  ds->gdeg = deg;
  ds->v = (DsVertex *)ldsi_calloc(e, n, sizeof(DsVertex));
  ds->heap = (DsEntry *)ldsi_alloc(e, n * sizeof(DsEntry));
  ds->dirty = (uint32_t *)ldsi_alloc(e, n * sizeof(uint32_t));
  ds->scratch = (uint32_t *)ldsi_alloc(e, n * sizeof(uint32_t));
  ds->gidx = (uint32_t *)ldsi_alloc(e, n * sizeof(uint32_t));
  ds->gcost = (double *)ldsi_alloc(e, ((size_t)ds->gm + 1) * sizeof(double));
  ds->gsv = (uint32_t *)ldsi_alloc(e, deg * sizeof(uint32_t));
  ds->gpv = (uint32_t *)ldsi_alloc(e, deg * sizeof(uint32_t));
  ds->gsc = (double *)ldsi_alloc(e, deg * sizeof(double));
  ds->gpc = (double *)ldsi_alloc(e, deg * sizeof(double));
  if (!ds->v || !ds->heap || !ds->dirty || !ds->scratch || !ds->gidx || !ds->gcost || !ds->gsv ||
      !ds->gpv || !ds->gsc || !ds->gpc) {
    release(ds);
    ldsi_free(e, ds, sizeof *ds);
    goto nomem;
  }
  ds->start = start;
  ds->goal = goal;
  ds->last = start;
  ds->hk_param = ds->hk = zero_h ? LDS_H_ZERO : LDS_H_AUTO;
  ds->gzero = zero_h;
  ds->auto_scale = !(h_scale > 0.0);
  ds->scale = h_scale;
  graph_full_reinit(ds);
  ds->status = LDS_RUNNING;
  ldsi_error_clear(err);
  return ds;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "lds_dstar_new_graph: out of memory for %zu nodes and %u edges",
             n, (unsigned)graph->m);
  return NULL;
}

const lds_Graph *ldsi_dstar_graph(const lds_DStar *ds) { return ds->graph; }
lds_Graph **ldsi_dstar_glistened(lds_DStar *ds) { return &ds->glistened; }
char *ldsi_dstar_errbuf(lds_DStar *ds) { return ds->errmsg; }

void ldsi_dstar_graph_touch(lds_DStar *ds, uint32_t node) {
  if (ds->status >= 0) ds->status = LDS_RUNNING;
  if (ds->reinit_pending) return;
  queue_cell(ds, node);
}

void ldsi_dstar_graph_move(lds_DStar *ds, uint32_t node) {
  if (node == ds->start) return;
  ds->start = node;
  ds->gkm += graph_h(ds, ds->last, node);
  ds->last = node;
  if (ds->status >= 0) ds->status = LDS_RUNNING;
}

lds_Status ldsi_dstar_graph_next(const lds_DStar *ds, uint32_t *node) {
  size_t n;
  double cost;
  if (ds->status != LDS_FOUND) return LDS_E_STATE;
  n = walk(ds, ds->scratch, &cost);
  if (n == 0) return LDS_E_STATE;
  *node = n > 1 ? ds->scratch[1] : ds->scratch[0];
  return LDS_OK;
}
