/* SPDX-License-Identifier: MIT */
/*
** lds_components.c — the connectivity index (lds_components.h): local
** components per block, the border edges between them, and the labelling of
** that graph of local components; followed under edits through a grid
** listener.
**
** Layout: `local` holds, per cell (unpadded, row-major), the index of its
** local component inside its block (CC_NONE when blocked); block b keeps the
** global id of each of its local components (glabel) and its border edges,
** each packed as  local << 13 | block direction << 10 | neighbour's local,
** sorted, so the edges of one local component are contiguous. Both ends of
** a border move record it (the move relation is symmetric), so each block
** lists all edges of its own local components.
*/
#include "lds_components_internal.h"

#include "lds_grid_internal.h"

#include <stdlib.h>
#include <string.h>

#define CC_B LDS_COMPONENTS_BLOCK
#define CC_NONE 0xFFFFu
#define CC_MAX_LAYERS 16
#define E_LOCAL(e) ((e) >> 13)
#define E_DIR(e) (((e) >> 10) & 7u)
#define E_NB(e) ((e) & 1023u)
/* upper bound of the border moves of one block: 3 outward moves per side
** cell, 5 per corner cell */
#define CC_MAX_EDGES (4 * (CC_B - 2) * 3 + 4 * 5)

typedef struct CcBlock {
  uint32_t n, cap;   /* local components; glabel capacity */
  uint32_t *glabel;  /* global id of each local component */
  uint32_t ne, ecap; /* border edges; capacity */
  uint32_t *edges;   /* packed, sorted, unique */
  uint8_t mark;      /* cc_update: its edges are to be rebuilt */
} CcBlock;

struct lds_Components {
  ldsi_Env env;
  lds_Grid *grid;
  lds_Components *next; /* the grid's chain */
  uint32_t mask;        /* blocking set by current layer index */
  int nnames;
  char names[CC_MAX_LAYERS][LDSI_LAYER_NAME_MAX]; /* the set by name */
  int32_t bw, bh;       /* blocks across, down */
  size_t nblocks;
  uint16_t *local;      /* per cell */
  CcBlock *blocks;
  uint32_t count;       /* components */
  size_t nodes;         /* local components over all blocks */
  uint64_t *stack;      /* relabelling: (block << 16 | local) */
  size_t stack_cap;
  uint16_t fill[CC_B * CC_B]; /* flood fill inside one block: cell offsets */
  uint32_t ebuf[CC_MAX_EDGES];
  uint16_t side[4 * CC_B]; /* local ids of a block's side cells before a recompute */
  uint16_t sx[4 * CC_B], sy[4 * CC_B]; /* side cells of one block (side_cells) */
  /* runs of one block (cc_block_runs): columns, row, union-find parent, id */
  uint16_t rx0[CC_B * CC_B / 2 + CC_B], rx1[CC_B * CC_B / 2 + CC_B];
  uint16_t rparent[CC_B * CC_B / 2 + CC_B], rid[CC_B * CC_B / 2 + CC_B];
  uint16_t ry[CC_B * CC_B / 2 + CC_B];
  lds_Status status;
  lds_ComponentsStats stats;
  /* per edit: the layers of the set (data pointers) */
  const float *ldata[CC_MAX_LAYERS];
  int nldata;
};

/* ------------------------------------------------------------ cells -- */

/* Index of the lowest set bit of m (m != 0). */
static inline int ldsi_ctz(unsigned m) {
#if defined(__GNUC__) || defined(__clang__)
  return __builtin_ctz(m);
#else
  int i = 0;
  while (!((m >> i) & 1u)) i++;
  return i;
#endif
}

/* Cell (x,y) passable for the index. */
static inline bool cc_pass(const lds_Components *c, int32_t x, int32_t y) {
  const lds_Grid *g = c->grid;
  size_t u;
  int i;
  if (g->blocked[ldsi_grid_pidx(g, x, y)]) return false;
  u = (size_t)y * (size_t)g->w + (size_t)x;
  for (i = 0; i < c->nldata; i++)
    if (c->ldata[i][u] == INFINITY) return false;
  return true;
}

/* Legal moves from passable cell (x,y) for the index: the grid's moves into
** cells passable for the index. */
static inline unsigned cc_moves(const lds_Components *c, int32_t x, int32_t y) {
  const lds_Grid *g = c->grid;
  unsigned m = g->nbr[ldsi_grid_pidx(g, x, y)], out = 0;
  int d;
  if (c->nldata == 0) return m;
  for (d = 0; d < 8; d++)
    if (((m >> d) & 1u) && cc_pass(c, x + ldsi_dir_dx[d], y + ldsi_dir_dy[d]))
      out |= 1u << d;
  return out;
}

/* Resolves the blocking set by name against the grid's current layers:
** fills mask and ldata; layers gone leave the set. true when the mask
** changed. */
static bool cc_resolve_layers(lds_Components *c) {
  const lds_Grid *g = c->grid;
  uint32_t mask = 0;
  int i, k, n = 0;
  for (k = 0; k < c->nnames; k++) {
    i = lds_grid_layer_find(g, c->names[k]);
    if (i >= 0 && i < CC_MAX_LAYERS) {
      mask |= 1u << i;
      c->ldata[n++] = g->layers[i].data;
    }
  }
  c->nldata = n;
  if (mask == c->mask) return false;
  c->mask = mask;
  return true;
}

/* ----------------------------------------------------------- blocks -- */

static bool cc_reserve_glabel(lds_Components *c, CcBlock *b, uint32_t n) {
  uint32_t ncap;
  uint32_t *nl;
  if (n <= b->cap) return true;
  ncap = b->cap ? b->cap : 4;
  while (ncap < n) ncap *= 2;
  nl = (uint32_t *)ldsi_realloc(&c->env, b->glabel, (size_t)b->cap * sizeof(uint32_t),
                                (size_t)ncap * sizeof(uint32_t));
  if (!nl) return false;
  b->glabel = nl;
  b->cap = ncap;
  return true;
}

/* The side cells of block [x0,x1) x [y0,y1) into c->sx, c->sy (the first
** and last row in full, the first and last column of the rows between);
** returns their number (<= 4 * CC_B). */
static uint32_t side_cells(lds_Components *c, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  int32_t x, y;
  uint32_t n = 0;
  for (y = y0; y < y1; y++) {
    int32_t step = (y == y0 || y == y1 - 1) ? 1 : (x1 - x0 - 1 > 0 ? x1 - x0 - 1 : 1);
    for (x = x0; x < x1; x += step) {
      c->sx[n] = (uint16_t)(x - x0);
      c->sy[n] = (uint16_t)(y - y0);
      n++;
    }
  }
  return n;
}

static uint16_t run_find(uint16_t *parent, uint16_t r) {
  while (parent[r] != r) {
    parent[r] = parent[parent[r]];
    r = parent[r];
  }
  return r;
}

/* Local components of block [x0,x1) x [y0,y1) on the grid's cells alone
** (no blocking layers), from the runs of passable cells of each row joined
** with the runs they touch in the row above (union-find; the root of a set
** is its first run in row-major order, so ids come in the order of each
** component's first cell). Runs touch when they share a column; with the
** `always` rule and 8 neighbours, also at a corner. The other rules need no
** diagonal: a diagonal move they allow has a passable orthogonal cell
** between its ends. Writes the ids into c->local (cleared by the caller);
** returns the count. */
static uint32_t cc_block_runs(lds_Components *c, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                              uint64_t *cells) {
  const lds_Grid *g = c->grid;
  const int slack = (g->neighbourhood == 8 && g->diag == LDS_DIAG_ALWAYS) ? 1 : 0;
  uint16_t nr = 0, prev0 = 0, prev1 = 0, r, q;
  uint32_t n = 0;
  int32_t y;
  for (y = y0; y < y1; y++) {
    const uint8_t *blk = g->blocked + ldsi_grid_pidx(g, 0, y);
    int32_t x = x0;
    uint16_t first = nr;
    while (x < x1) {
      int32_t a;
      while (x < x1 && blk[x]) x++;
      if (x >= x1) break;
      a = x;
      while (x < x1 && !blk[x]) x++;
      c->ry[nr] = (uint16_t)(y - y0);
      c->rx0[nr] = (uint16_t)(a - x0);
      c->rx1[nr] = (uint16_t)(x - 1 - x0);
      c->rparent[nr] = nr;
      for (q = prev0; q < prev1; q++) /* runs of the row above that touch */
        if ((int)c->rx0[q] <= (int)c->rx1[nr] + slack && (int)c->rx0[nr] <= (int)c->rx1[q] + slack) {
          uint16_t ra = run_find(c->rparent, q), rb = run_find(c->rparent, nr);
          if (ra < rb)
            c->rparent[rb] = ra;
          else
            c->rparent[ra] = rb;
        }
      nr++;
    }
    prev0 = first;
    prev1 = nr;
  }
  /* ids: each root in run order, then every run's cells */
  for (r = 0; r < nr; r++) {
    uint16_t root = run_find(c->rparent, r);
    if (root == r) c->rid[r] = (uint16_t)n++;
    c->rid[r] = c->rid[root];
  }
  for (r = 0; r < nr; r++) {
    uint16_t *row = c->local + (size_t)(y0 + c->ry[r]) * (size_t)g->w + x0;
    int32_t x;
    for (x = c->rx0[r]; x <= c->rx1[r]; x++) row[x] = c->rid[r];
    *cells += (uint64_t)(c->rx1[r] - c->rx0[r] + 1);
  }
  return n;
}

/* Recomputes the local components of block (bx,by): flood fill over the
** moves that stay inside the block. false on allocation failure. Adds the
** cells scanned to *cells; sets in *nbmask bit d (LDS_DIR_*) for each
** neighbouring block next to a side cell whose local id changed, whose
** border edges must then be rebuilt. */
static bool cc_block_local(lds_Components *c, int32_t bx, int32_t by, uint64_t *cells,
                           unsigned *nbmask) {
  const lds_Grid *g = c->grid;
  CcBlock *b = &c->blocks[(size_t)by * (size_t)c->bw + (size_t)bx];
  int32_t x0 = bx * CC_B, y0 = by * CC_B;
  int32_t x1 = x0 + CC_B > g->w ? g->w : x0 + CC_B, y1 = y0 + CC_B > g->h ? g->h : y0 + CC_B;
  int32_t bwid = x1 - x0;
  uint32_t n = 0, ns = 0, k;
  if (nbmask) {
    ns = side_cells(c, x0, y0, x1, y1);
    for (k = 0; k < ns; k++)
      c->side[k] = c->local[(size_t)(y0 + c->sy[k]) * (size_t)g->w + (size_t)(x0 + c->sx[k])];
  }
  {
    /* moves that leave the block through each side: W (dx -1), E, N (dy
    ** -1), S; a cell on that side drops them */
    enum { OUT_W = 0xC8u, OUT_E = 0x32u, OUT_N = 0x91u, OUT_S = 0x64u };
    const int32_t bht = y1 - y0;
    const size_t W = (size_t)g->w;
    const uint8_t *nbr = g->nbr;
    const uint8_t *blk = g->blocked;
    ptrdiff_t uoff[8];
    int32_t x, y, d;
    for (d = 0; d < 8; d++) {
      uoff[d] = (ptrdiff_t)ldsi_dir_dy[d] * (ptrdiff_t)W + ldsi_dir_dx[d];
    }
    for (y = y0; y < y1; y++) {
      uint16_t *row = c->local + (size_t)y * W;
      for (x = x0; x < x1; x++) row[x] = CC_NONE;
    }
    if (c->nldata == 0) /* the grid's cells alone: runs, not a flood fill */
      n = cc_block_runs(c, x0, y0, x1, y1, cells);
    for (y = y0; y < y1 && c->nldata; y++)
      for (x = x0; x < x1; x++) {
        size_t top = 0, u = (size_t)y * W + (size_t)x;
        if (c->local[u] != CC_NONE) continue;
        if (c->nldata ? !cc_pass(c, x, y) : blk[ldsi_grid_pidx(g, x, y)] != 0) continue;
        c->local[u] = (uint16_t)n;
        c->fill[top++] = (uint16_t)((y - y0) * bwid + (x - x0));
        while (top) {
          uint16_t off = c->fill[--top];
          int32_t lx = off % bwid, ly = off / bwid;
          size_t cu = (size_t)(y0 + ly) * W + (size_t)(x0 + lx);
          unsigned m = c->nldata ? cc_moves(c, x0 + lx, y0 + ly)
                                 : nbr[ldsi_grid_pidx(g, x0 + lx, y0 + ly)];
          if (lx == 0) m &= ~(unsigned)OUT_W;
          if (lx == bwid - 1) m &= ~(unsigned)OUT_E;
          if (ly == 0) m &= ~(unsigned)OUT_N;
          if (ly == bht - 1) m &= ~(unsigned)OUT_S;
          (*cells)++;
          while (m) {
            int dd = ldsi_ctz(m);
            uint16_t *lp = &c->local[(size_t)((ptrdiff_t)cu + uoff[dd])];
            m &= m - 1;
            if (*lp != CC_NONE) continue;
            *lp = (uint16_t)n;
            c->fill[top++] = (uint16_t)((ly + ldsi_dir_dy[dd]) * bwid + lx + ldsi_dir_dx[dd]);
          }
        }
        n++;
      }
  }
  for (k = 0; k < ns; k++) {
    int32_t x = x0 + c->sx[k], y = y0 + c->sy[k];
    int d;
    if (c->side[k] == c->local[(size_t)y * (size_t)g->w + (size_t)x]) continue;
    for (d = 0; d < 8; d++) {
      int32_t nx = x + ldsi_dir_dx[d], ny = y + ldsi_dir_dy[d];
      if (nx >= x0 && nx < x1 && ny >= y0 && ny < y1) continue;
      *nbmask |= 1u << lds_direction_of((nx < x0) ? -1 : (nx >= x1 ? 1 : 0),
                                        (ny < y0) ? -1 : (ny >= y1 ? 1 : 0));
    }
  }
  if (!cc_reserve_glabel(c, b, n)) return false;
  b->n = n;
  return true;
}

/* Inserts e into the sorted set v[0..n) unless present; returns the new
** size. Neighbouring side cells mostly repeat the last edge, so the search
** starts from the end. */
static uint32_t edge_insert(uint32_t *v, uint32_t n, uint32_t e) {
  uint32_t i = n;
  while (i > 0 && v[i - 1] > e) i--;
  if (i > 0 && v[i - 1] == e) return n;
  memmove(v + i + 1, v + i, (n - i) * sizeof(uint32_t));
  v[i] = e;
  return n + 1;
}

/* Rebuilds the border edges of block (bx,by) from the current local ids.
** Sets *changed when they differ from the stored ones. false on allocation
** failure. */
static bool cc_block_edges(lds_Components *c, int32_t bx, int32_t by, bool *changed) {
  const lds_Grid *g = c->grid;
  CcBlock *b = &c->blocks[(size_t)by * (size_t)c->bw + (size_t)bx];
  int32_t x0 = bx * CC_B, y0 = by * CC_B;
  int32_t x1 = x0 + CC_B > g->w ? g->w : x0 + CC_B, y1 = y0 + CC_B > g->h ? g->h : y0 + CC_B;
  uint32_t ne = 0, k, ns = side_cells(c, x0, y0, x1, y1);
  for (k = 0; k < ns; k++) {
    int32_t x = x0 + c->sx[k], y = y0 + c->sy[k];
    uint16_t l = c->local[(size_t)y * (size_t)g->w + (size_t)x];
    unsigned m;
    int d;
    if (l == CC_NONE) continue;
    m = cc_moves(c, x, y);
    for (d = 0; d < 8; d++) {
      int32_t nx, ny;
      int bd;
      if (!((m >> d) & 1u)) continue;
      nx = x + ldsi_dir_dx[d];
      ny = y + ldsi_dir_dy[d];
      if (nx >= x0 && nx < x1 && ny >= y0 && ny < y1) continue;
      bd = lds_direction_of((nx < x0) ? -1 : (nx >= x1 ? 1 : 0),
                            (ny < y0) ? -1 : (ny >= y1 ? 1 : 0));
      ne = edge_insert(c->ebuf, ne, (uint32_t)l << 13 | (uint32_t)bd << 10 |
                                        c->local[(size_t)ny * (size_t)g->w + (size_t)nx]);
    }
  }
  if (ne == b->ne && (ne == 0 || memcmp(b->edges, c->ebuf, ne * sizeof(uint32_t)) == 0))
    return true;
  *changed = true;
  if (ne > b->ecap) {
    uint32_t ncap = b->ecap ? b->ecap : 8;
    uint32_t *nb;
    while (ncap < ne) ncap *= 2;
    nb = (uint32_t *)ldsi_realloc(&c->env, b->edges, (size_t)b->ecap * sizeof(uint32_t),
                                  (size_t)ncap * sizeof(uint32_t));
    if (!nb) return false;
    b->edges = nb;
    b->ecap = ncap;
  }
  memcpy(b->edges, c->ebuf, ne * sizeof(uint32_t));
  b->ne = ne;
  return true;
}

/* ------------------------------------------------------- labelling -- */

/* Labels the graph of local components: every connected part gets the next
** id from 1. false on allocation failure. */
static bool cc_relabel(lds_Components *c) {
  size_t bi, nodes = 0;
  uint32_t id = 0;
  for (bi = 0; bi < c->nblocks; bi++) {
    CcBlock *b = &c->blocks[bi];
    if (b->n) memset(b->glabel, 0, b->n * sizeof(uint32_t));
    nodes += b->n;
  }
  c->nodes = nodes;
  if (nodes > c->stack_cap) {
    size_t ncap = c->stack_cap ? c->stack_cap : 64;
    uint64_t *ns;
    while (ncap < nodes) ncap *= 2;
    ns = (uint64_t *)ldsi_realloc(&c->env, c->stack, c->stack_cap * sizeof(uint64_t),
                                  ncap * sizeof(uint64_t));
    if (!ns) return false;
    c->stack = ns;
    c->stack_cap = ncap;
  }
  for (bi = 0; bi < c->nblocks; bi++) {
    uint32_t l;
    for (l = 0; l < c->blocks[bi].n; l++) {
      size_t top = 0;
      if (c->blocks[bi].glabel[l]) continue;
      id++;
      c->blocks[bi].glabel[l] = id;
      c->stack[top++] = (uint64_t)bi << 16 | l;
      while (top) {
        uint64_t e = c->stack[--top];
        size_t cb = (size_t)(e >> 16);
        uint32_t cl = (uint32_t)(e & 0xFFFFu), lo = 0, hi;
        const CcBlock *b = &c->blocks[cb];
        int32_t bx = (int32_t)(cb % (size_t)c->bw), by = (int32_t)(cb / (size_t)c->bw);
        /* first edge of local cl: lower bound of cl << 13 */
        hi = b->ne;
        while (lo < hi) {
          uint32_t mid = (lo + hi) / 2;
          if (E_LOCAL(b->edges[mid]) < cl)
            lo = mid + 1;
          else
            hi = mid;
        }
        for (; lo < b->ne && E_LOCAL(b->edges[lo]) == cl; lo++) {
          uint32_t ed = b->edges[lo];
          int dir = (int)E_DIR(ed);
          size_t nb = (size_t)(by + ldsi_dir_dy[dir]) * (size_t)c->bw +
                      (size_t)(bx + ldsi_dir_dx[dir]);
          uint32_t nl = E_NB(ed);
          if (c->blocks[nb].glabel[nl]) continue;
          c->blocks[nb].glabel[nl] = id;
          c->stack[top++] = (uint64_t)nb << 16 | nl;
        }
      }
    }
  }
  c->count = id;
  return true;
}

/* Recomputes every block and relabels: O(cells). */
static void cc_rebuild(lds_Components *c) {
  int32_t bx, by;
  bool changed = false;
  uint64_t cells = 0;
  c->status = LDS_OK;
  cc_resolve_layers(c);
  for (by = 0; by < c->bh; by++)
    for (bx = 0; bx < c->bw; bx++)
      if (!cc_block_local(c, bx, by, &cells, NULL)) goto nomem;
  for (by = 0; by < c->bh; by++)
    for (bx = 0; bx < c->bw; bx++)
      if (!cc_block_edges(c, bx, by, &changed)) goto nomem;
  if (!cc_relabel(c)) goto nomem;
  c->stats.rebuilds++;
  c->stats.last_cells = cells;
  c->stats.total_cells += cells;
  c->stats.last_nodes = c->nodes;
  return;
nomem:
  c->status = LDS_E_NOMEM;
}

/* Follows an edit of cells [x0..x1] x [y0..y1]. */
static void cc_update(lds_Components *c, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  const lds_Grid *g = c->grid;
  int32_t bx0, by0, bx1, by1, bx, by;
  bool changed = false;
  uint64_t cells = 0;
  c->stats.updates++;
  c->stats.last_nodes = 0;
  if (c->status != LDS_OK || cc_resolve_layers(c)) {
    cc_rebuild(c);
    return;
  }
  /* a cell's moves depend on its 8 neighbours: the blocks within one cell */
  x0 = x0 > 0 ? x0 - 1 : 0;
  y0 = y0 > 0 ? y0 - 1 : 0;
  x1 = x1 < g->w - 1 ? x1 + 1 : g->w - 1;
  y1 = y1 < g->h - 1 ? y1 + 1 : g->h - 1;
  bx0 = x0 / CC_B;
  by0 = y0 / CC_B;
  bx1 = x1 / CC_B;
  by1 = y1 / CC_B;
  if ((size_t)(bx1 - bx0 + 1) * (size_t)(by1 - by0 + 1) * 2 > c->nblocks) {
    cc_rebuild(c);
    return;
  }
  for (by = by0 > 0 ? by0 - 1 : 0; by <= by1 + 1 && by < c->bh; by++)
    for (bx = bx0 > 0 ? bx0 - 1 : 0; bx <= bx1 + 1 && bx < c->bw; bx++)
      c->blocks[(size_t)by * (size_t)c->bw + (size_t)bx].mark = 0;
  for (by = by0; by <= by1; by++)
    for (bx = bx0; bx <= bx1; bx++) {
      CcBlock *b = &c->blocks[(size_t)by * (size_t)c->bw + (size_t)bx];
      uint32_t before = b->n;
      unsigned nbm = 0;
      int d;
      if (!cc_block_local(c, bx, by, &cells, &nbm)) goto nomem;
      if (b->n != before) changed = true;
      b->mark = 1; /* its own edges: always */
      for (d = 0; d < 8; d++) {
        int32_t nx = bx + ldsi_dir_dx[d], ny = by + ldsi_dir_dy[d];
        if (((nbm >> d) & 1u) && nx >= 0 && ny >= 0 && nx < c->bw && ny < c->bh)
          c->blocks[(size_t)ny * (size_t)c->bw + (size_t)nx].mark = 1;
      }
    }
  /* border edges of the recomputed blocks, and of the neighbours next to a
  ** side cell whose local id changed (the other neighbours' edges name the
  ** same ids as before, and their moves did not change: a move's legality
  ** depends on cells within one of its ends only) */
  for (by = by0 > 0 ? by0 - 1 : 0; by <= by1 + 1 && by < c->bh; by++)
    for (bx = bx0 > 0 ? bx0 - 1 : 0; bx <= bx1 + 1 && bx < c->bw; bx++)
      if (c->blocks[(size_t)by * (size_t)c->bw + (size_t)bx].mark &&
          !cc_block_edges(c, bx, by, &changed))
        goto nomem;
  c->stats.last_cells = cells;
  c->stats.total_cells += cells;
  /* same local components, same edges: the same graph, the same labels */
  if (!changed) return;
  if (!cc_relabel(c)) goto nomem;
  c->stats.relabels++;
  c->stats.last_nodes = c->nodes;
  return;
nomem:
  c->status = LDS_E_NOMEM;
}

static void cc_listener(void *ud, const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1,
                        int32_t y1, uint64_t version) {
  (void)g;
  (void)version;
  cc_update((lds_Components *)ud, x0, y0, x1, y1);
}

/* ---------------------------------------------------------- lifetime -- */

static void cc_release(lds_Components *c) {
  size_t bi;
  lds_Components **pp;
  for (pp = &c->grid->components; *pp; pp = &(*pp)->next)
    if (*pp == c) {
      *pp = c->next;
      break;
    }
  lds_grid_unlisten(c->grid, cc_listener, c);
  if (c->blocks)
    for (bi = 0; bi < c->nblocks; bi++) {
      ldsi_free(&c->env, c->blocks[bi].glabel, (size_t)c->blocks[bi].cap * sizeof(uint32_t));
      ldsi_free(&c->env, c->blocks[bi].edges, (size_t)c->blocks[bi].ecap * sizeof(uint32_t));
    }
  ldsi_free(&c->env, c->blocks, c->nblocks * sizeof(CcBlock));
  ldsi_free(&c->env, c->local, (size_t)c->grid->w * (size_t)c->grid->h * sizeof(uint16_t));
  ldsi_free(&c->env, c->stack, c->stack_cap * sizeof(uint64_t));
  {
    ldsi_Env e = c->env;
    ldsi_free(&e, c, sizeof *c);
  }
}

lds_Components *lds_components_new(const lds_Env *env, lds_Grid *grid, uint32_t layer_mask,
                                   lds_Error *err) {
  ldsi_Env e;
  lds_Components *c;
  int i;
  if (!grid) {
    ldsi_error(err, LDS_E_ARG, "lds_components_new: grid is NULL");
    return NULL;
  }
  for (i = 0; i < 32; i++)
    if (((layer_mask >> i) & 1u) && (i >= CC_MAX_LAYERS || i >= grid->nlayers)) {
      ldsi_error(err, LDS_E_ARG,
                 "lds_components_new: layer_mask bit %d names no layer (grid has %d layers, "
                 "expected bits 0..%d)",
                 i, grid->nlayers, (grid->nlayers < CC_MAX_LAYERS ? grid->nlayers : CC_MAX_LAYERS) - 1);
      return NULL;
    }
  if (lds_components_find(grid, layer_mask)) {
    ldsi_error(err, LDS_E_ARG,
               "lds_components_new: the grid already has an index for layer_mask 0x%lx",
               (unsigned long)layer_mask);
    return NULL;
  }
  if (env)
    ldsi_env_resolve(&e, env);
  else
    e = grid->env;
  c = (lds_Components *)ldsi_calloc(&e, 1, sizeof *c);
  if (!c) goto nomem;
  c->env = e;
  c->grid = grid;
  for (i = 0; i < CC_MAX_LAYERS; i++)
    if ((layer_mask >> i) & 1u) strcpy(c->names[c->nnames++], grid->layers[i].name);
  c->mask = layer_mask;
  c->bw = (grid->w + CC_B - 1) / CC_B;
  c->bh = (grid->h + CC_B - 1) / CC_B;
  c->nblocks = (size_t)c->bw * (size_t)c->bh;
  c->blocks = (CcBlock *)ldsi_calloc(&e, c->nblocks, sizeof(CcBlock));
  c->local = (uint16_t *)ldsi_alloc(&e, (size_t)grid->w * (size_t)grid->h * sizeof(uint16_t));
  if (!c->blocks || !c->local) {
    cc_release(c);
    goto nomem;
  }
  cc_rebuild(c);
  if (c->status != LDS_OK || lds_grid_listen(grid, cc_listener, c) != LDS_OK) {
    cc_release(c);
    goto nomem;
  }
  c->next = grid->components;
  grid->components = c;
  grid->components_release = cc_release;
  ldsi_error_clear(err);
  return c;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "lds_components_new: out of memory for the index of a %ldx%ld grid",
             (long)grid->w, (long)grid->h);
  return NULL;
}

void lds_components_free(lds_Components *c) {
  if (c) cc_release(c);
}

lds_Components *lds_components_find(const lds_Grid *grid, uint32_t layer_mask) {
  lds_Components *c;
  if (!grid) return NULL;
  for (c = grid->components; c; c = c->next)
    if (c->mask == layer_mask) return c;
  return NULL;
}

/* ----------------------------------------------------------- queries -- */

/* Component of an in-bounds cell. */
static inline uint32_t cc_id(const lds_Components *c, int32_t x, int32_t y) {
  uint16_t l = c->local[(size_t)y * (size_t)c->grid->w + (size_t)x];
  if (l == CC_NONE) return LDS_COMPONENT_NONE;
  return c->blocks[(size_t)(y / CC_B) * (size_t)c->bw + (size_t)(x / CC_B)].glabel[l];
}

uint32_t lds_components_id(const lds_Components *c, int32_t x, int32_t y) {
  if (c->status != LDS_OK) return LDS_COMPONENT_UNKNOWN;
  if (!lds_grid_in_bounds(c->grid, x, y)) return LDS_COMPONENT_NONE;
  return cc_id(c, x, y);
}

/* Whether a search from (x1,y1) reaches (x2,y2) by the index c, as the
** searches see it: the start is never entered, so its own layer value does
** not matter. A start the grid blocks: never. The same cell: always. A
** start blocked by a layer of c only: when a legal move from it (the
** grid's neighbourhood and diagonal rule, lds_grid_can_move) enters the
** goal's component. Else both in one component. */
static bool reaches(const lds_Components *c, int32_t x1, int32_t y1, int32_t x2, int32_t y2) {
  static const int8_t DX[8] = LDS_DIR_DX_INIT, DY[8] = LDS_DIR_DY_INIT;
  uint32_t a, b;
  int d;
  if (lds_grid_blocked(c->grid, x1, y1)) return false;
  if (x1 == x2 && y1 == y2) return true;
  b = cc_id(c, x2, y2);
  if (b == LDS_COMPONENT_NONE) return false;
  a = cc_id(c, x1, y1);
  if (a != LDS_COMPONENT_NONE) return a == b;
  for (d = 0; d < 8; d++)
    if (lds_grid_can_move(c->grid, x1, y1, d) && cc_id(c, x1 + DX[d], y1 + DY[d]) == b) return true;
  return false;
}

bool lds_components_connected(const lds_Components *c, int32_t x1, int32_t y1, int32_t x2,
                              int32_t y2) {
  if (c->status != LDS_OK || !lds_grid_in_bounds(c->grid, x1, y1) ||
      !lds_grid_in_bounds(c->grid, x2, y2))
    return false;
  return reaches(c, x1, y1, x2, y2);
}

uint32_t lds_components_count(const lds_Components *c) { return c->count; }
uint32_t lds_components_layer_mask(const lds_Components *c) { return c->mask; }
lds_Status lds_components_status(const lds_Components *c) { return c->status; }

size_t lds_components_mem_used(const lds_Components *c) {
  size_t n = sizeof *c + c->nblocks * sizeof(CcBlock) +
             (size_t)c->grid->w * (size_t)c->grid->h * sizeof(uint16_t) +
             c->stack_cap * sizeof(uint64_t);
  size_t bi;
  for (bi = 0; bi < c->nblocks; bi++)
    n += ((size_t)c->blocks[bi].cap + c->blocks[bi].ecap) * sizeof(uint32_t);
  return n;
}

void lds_components_stats(const lds_Components *c, lds_ComponentsStats *out) {
  size_t bi;
  *out = c->stats;
  out->graph_nodes = out->graph_edges = 0;
  for (bi = 0; bi < c->nblocks; bi++) {
    out->graph_nodes += c->blocks[bi].n;
    out->graph_edges += c->blocks[bi].ne;
  }
}

bool ldsi_components_separated(const lds_Grid *g, uint32_t query_mask, int32_t sx, int32_t sy,
                               int32_t gx, int32_t gy) {
  const lds_Components *c;
  for (c = g->components; c; c = c->next) {
    uint32_t a, b;
    if (c->status != LDS_OK || (c->mask & ~query_mask) != 0) continue;
    if (sx == gx && sy == gy) return false; /* found at once, whatever the cell costs */
    b = cc_id(c, gx, gy);
    if (b == LDS_COMPONENT_NONE) return true; /* the goal cannot be entered */
    a = cc_id(c, sx, sy);
    if (a != LDS_COMPONENT_NONE && a != b) return true;
    if (a == LDS_COMPONENT_NONE && !lds_grid_blocked(g, sx, sy) && !reaches(c, sx, sy, gx, gy))
      return true; /* a start a layer blocks: no move from it enters the goal's component */
  }
  return false;
}
