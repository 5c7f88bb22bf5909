/* SPDX-License-Identifier: MIT */
/*
** lds_polyanya.c — exact Euclidean shortest paths on a navigation mesh:
** Polyanya (M. Cui, D. Harabor, A. Grastien, "Compromise-free Pathfinding
** on a Navigation Mesh", IJCAI 2017).
**
** Geometry is in the plane X = x, Y = -z, where the mesh's canonical
** winding is counter-clockwise (interior to the left of every edge).
**
** A search node is (root, interval, polygon): the root r is the start or a
** mesh vertex the path bends at, g the length from the start to r; the
** interval [R, L] is a piece of the entry edge of the polygon P the node
** looks into, every point of it visible from r (L the left end as seen from
** r). f = g + h, h the shortest r -> interval -> goal (the goal mirrored
** across the interval's line when it is on r's side), so the first final
** node popped is optimal.
**
** Expanding a node projects the cone (r; R, L) through the convex polygon
** P onto its far edges:
**   - observable successors: the far boundary between the exits of the
**     right and the left ray, same root;
**   - non-observable successors: when L is the entry edge's left vertex A
**     and A is a corner (a vertex of the allowed region's boundary with
**     more than a straight angle of free space: the only places a taut path
**     bends), the far boundary left of the left ray, rooted at A with g +
**     |rA|; the same on the right at B;
**   - collinear successors: an edge that holds the new root A (the far edge
**     of P ending at A) gives a node whose root lies on its entry edge. Such
**     a node sees its whole polygon (A is one of its vertices): every far
**     edge is an observable successor and the edge through A continues the
**     walk round A's fan until the boundary (one such node per root and
**     polygon);
**   - grazed edges: with collinear vertices (a straight angle, as at the
**     T-junction points of lds_grid_mesh's non-strict meshes) a ray can run
**     along P's side, and a far edge can lie on a line through the root. A
**     path reaches such an edge along the side and may bend at its nearer
**     end c when c is a corner: a collinear node rooted at c.
** A corner is only used on the side a taut path can turn to there: round
** an obstacle that reaches that side of the incoming ray (the obstacle
** wedge at a corner is less than a straight angle, so one of its two
** boundary edges does). Start and goal in different pieces of the mesh
** give no path at once.
** The polygons searched are not the mesh's own but a coarser convex
** partition of the same free space (lds_navmesh_merge.c), built on the
** search object's first optimal query.
** Pruning: root-level pruning (from the paper: best g per vertex as a
** root: a root reached again more expensively generates nothing, nodes of
** a root reached more cheaply since are dropped when popped); blocks (the
** paper's dead ends generalised: only edges of the biconnected blocks on
** the block-cut tree's path between start and goal are crossed; see
** blocks()); a node with exactly one successor is expanded at once,
** without the open list.
** A node whose polygon holds the goal gives its final node: f = g + the
** shortest r -> interval -> goal, exact (P is convex).
**
** Tolerances (one policy everywhere): a vertex is on a ray or a line when
** its orientation is within 1e-11 of the product of the two lengths (L1);
** orientation tests of vertex-to-vertex rays are exact on meshes with small
** binary-fraction coordinates (every 2-D mesh here), so the tolerance only
** matters for computed interval ends. Cut points within 1e-12 of an edge's
** end snap to that vertex. Two g of a root within 1e-9 relative are equal
** (a tie keeps the first parent and the new side's successors).
**
** Everything per query lives in pools of the search object (nodes, heap,
** per-vertex and per-polygon tables by generation): no allocation once the
** pools have grown. Geometry is in x-z: on a mesh with levels the path is
** the shortest in x-z over the polygons' adjacency, its length reported in
** 3-D (docs/navmesh.md).
*/
#include "lds_navmesh_merge_internal.h"
#include "lds_navmesh_search_internal.h"
#include "lds_navmesh_landmarks.h"

#include <stdio.h>
#include <string.h>

#define NO_V 0xFFFFFFFFu
#define EPS_T 1e-12     /* parameter along an edge: snap to the vertex */
#define EPS_RAY 1e-11   /* relative: a vertex on a ray */
#define EPS_G 1e-9      /* relative: equal g of two roots */
/* largest merged polygon searched (vertices): a polygon's expansion scans
** its edges, so merging stops where fewer, larger polygons stop paying */
#define LDSI_POLYANYA_MERGE_MAX 32u

/* KIND_SEES_ALL: only in the reached-polygon table (rnode): the start's
** own polygon, which the start sees whole */
enum { KIND_NODE = 0, KIND_FINAL = 1, KIND_FINAL_VIA = 2, KIND_SEES_ALL = 3 };

typedef struct PNode {
  double f, g;
  double lx, ly, rx, ry; /* interval: left and right end, plane coordinates */
  uint32_t root;         /* vertex, or nv for the start */
  uint32_t poly;         /* polygon to expand into (final: unused) */
  uint32_t edge;         /* its entry edge: slot edge -> edge + 1 */
  uint32_t lv, rv;       /* vertex at the left / right end, or NO_V */
  uint32_t kind;         /* KIND_*: final via (lx, ly), vertex lv or NO_V */
} PNode;

/* One slot k of a polygon: its vertex k and its edge k (k -> k + 1). */
typedef struct PSlot {
  double x, y;    /* vertex, plane coordinates */
  uint32_t v;     /* vertex id */
  uint32_t q;     /* neighbour across the edge, or LDS_NAVMESH_NONE */
  uint32_t twin;  /* the edge's local index in q */
  uint32_t blk;   /* biconnected block of the edge (blocks), NO_V when a side is not allowed */
} PSlot;

typedef struct PHeap {
  double f;
  uint32_t id;
} PHeap;

struct ldsi_Polyanya {
  uint32_t nv, np;     /* mesh vertices; polygons of the merged partition mm */
  ldsi_MergedMesh mm;  /* the convex partition searched (ldsi_navmesh_merge) */
  uint32_t merge_max;  /* its largest polygon (vertices; < 3: the mesh's own polygons) */
  size_t ns;           /* edge slots: pstart[np] (at least 1) */
  size_t pn1;          /* np, at least 1 (allocation sizes) */
  double *xy;          /* 2 * (nv + 1): plane coordinates; slot nv = the start */
  PSlot *slot;         /* per slot (pstart index): vertex, neighbour, twin, block */
  PSlot *dslot;        /* polygon p's slots twice over from 2 * pstart[p]: slot k + i
                       ** without a wrap for k, i < n (the successor loops) */
  double *pdiam;       /* per polygon: L1 diameter bound (box width + height) */
  uint8_t *ok;         /* per polygon: allowed this query */
  uint32_t *hb;        /* per polygon: its parent block (blocks), NO_V at a top */
  uint32_t *btop;      /* per block (at most ns): the polygon it hangs from */
  uint32_t *bgen;      /* per block: on this query's path of blocks (generation) */
  uint32_t *sgen;      /* per block: above a start polygon (generation) */
  uint32_t *scr;       /* scratch of blocks: 5 * pn1 + ns */
  uint8_t *corner;     /* per vertex: a possible turning point */
  uint32_t *bu, *bw;   /* per vertex: the boundary edges u -> v and v -> w (free space on
                       ** their left), NO_V when not exactly one of each */
  uint32_t *goalgen;   /* per polygon: holds the goal (generation) */
  uint32_t *wgen, *wroot; /* per polygon: the last collinear node into it (generation, root) */
  double *wg;          /* and its g */
  double *vg;          /* per vertex (+ start): best g as a root */
  uint32_t *vpar;      /* its parent root (vertex, nv = start) */
  uint32_t *vgen;      /* generation of vg / vpar */
  uint32_t gen;
  uint8_t blocked[32]; /* bit set of blocked areas the tables above are for */
  bool tables;         /* ok / corner / blocks are valid */
  uint32_t tabver;     /* counts rebuilds of the tables (the funnel copies blocks on a change) */
  PNode *nodes;
  size_t nn, ncap;
  PHeap *heap;
  size_t hn, hcap;
  PNode *succ;         /* successors of the node being expanded */
  size_t nsucc, scap;
  PNode chain;         /* a lone successor whose expansion the budget put off */
  bool has_chain;      /* (expanded first on the next step, as if never cut) */
  double gx, gy;       /* goal, plane (the partial target in phase 1) */
  double tgt[3];       /* the point the path ends at: the goal, or the partial target */
  int phase;           /* 0: to the goal; 1: to the partial target (after phase 0 ran dry) */
  uint32_t *rgen;      /* per polygon: reached this query (generation) */
  PNode *rnode;        /* and the first node made into it (partial paths) */
  /* one-to-all mode (ldsi_polyanya_distances): per vertex the least path
  ** length seen to it; NULL in a query */
  double *vdist;
};

/* ---------------------------------------------------------- helpers -- */


static double dist(double ax, double ay, double bx, double by) {
  return sqrt((ax - bx) * (ax - bx) + (ay - by) * (ay - by));
}

/* > 0: c left of a -> b. */
static double orient(double ax, double ay, double bx, double by, double cx, double cy) {
  return (bx - ax) * (cy - ay) - (by - ay) * (cx - ax);
}

/* One-to-all mode: a path of length g + |r v| reaches vertex v. */
static inline void see_vertex(ldsi_Polyanya *pa, uint32_t v, double g, double rx, double ry) {
  double d = g + dist(rx, ry, pa->xy[2 * (size_t)v], pa->xy[2 * (size_t)v + 1]);
  if (d < pa->vdist[v]) pa->vdist[v] = d;
}

void ldsi_polyanya_free(lds_NavSearch *s) {
  s->fready = false; /* the funnel's adjacency is over this partition */
  ldsi_Polyanya *pa = s->pa;
  const ldsi_Env *e = &s->env;
  size_t nv1;
  if (!pa) return;
  nv1 = (size_t)pa->nv + 1;
  ldsi_free(e, pa->xy, 2 * nv1 * sizeof(double));
  ldsi_free(e, pa->slot, pa->ns * sizeof(PSlot));
  ldsi_free(e, pa->dslot, 2 * pa->ns * sizeof(PSlot));
  ldsi_free(e, pa->pdiam, pa->pn1 * sizeof(double));
  ldsi_free(e, pa->ok, pa->pn1);
  ldsi_free(e, pa->hb, pa->pn1 * sizeof(uint32_t));
  ldsi_free(e, pa->btop, pa->ns * sizeof(uint32_t));
  ldsi_free(e, pa->bgen, pa->ns * sizeof(uint32_t));
  ldsi_free(e, pa->sgen, pa->ns * sizeof(uint32_t));
  ldsi_free(e, pa->scr, (5 * pa->pn1 + pa->ns) * sizeof(uint32_t));
  ldsi_free(e, pa->corner, nv1);
  ldsi_free(e, pa->bu, nv1 * sizeof(uint32_t));
  ldsi_free(e, pa->bw, nv1 * sizeof(uint32_t));
  ldsi_free(e, pa->goalgen, pa->pn1 * sizeof(uint32_t));
  ldsi_free(e, pa->rgen, pa->pn1 * sizeof(uint32_t));
  ldsi_free(e, pa->rnode, pa->pn1 * sizeof(PNode));
  ldsi_free(e, pa->wgen, pa->pn1 * sizeof(uint32_t));
  ldsi_free(e, pa->wroot, pa->pn1 * sizeof(uint32_t));
  ldsi_free(e, pa->wg, pa->pn1 * sizeof(double));
  ldsi_free(e, pa->vg, nv1 * sizeof(double));
  ldsi_free(e, pa->vpar, nv1 * sizeof(uint32_t));
  ldsi_free(e, pa->vgen, nv1 * sizeof(uint32_t));
  ldsi_free(e, pa->nodes, pa->ncap * sizeof(PNode));
  ldsi_free(e, pa->heap, pa->hcap * sizeof(PHeap));
  ldsi_free(e, pa->succ, pa->scap * sizeof(PNode));
  ldsi_navmesh_merged_free(e, &pa->mm);
  ldsi_free(e, pa, sizeof *pa);
  s->pa = NULL;
}

/* The query object's Polyanya half: plane coordinates, edge twins (once per
** search object), per-query tables sized to the mesh. */
static bool ensure(lds_NavSearch *s, uint32_t merge_max) {
  const lds_Navmesh *m = s->m;
  const ldsi_Env *e = &s->env;
  ldsi_Polyanya *pa = s->pa;
  const ldsi_MergedMesh *mm;
  size_t nv1, i;
  uint32_t p, maxn = 3;
  if (pa) return true;
  pa = (ldsi_Polyanya *)ldsi_calloc(e, 1, sizeof *pa);
  if (!pa) return false;
  s->pa = pa;
  pa->merge_max = merge_max;
  if (!ldsi_navmesh_merge(e, m, merge_max, &pa->mm)) {
    ldsi_polyanya_free(s);
    return false;
  }
  mm = &pa->mm;
  pa->nv = m->nv;
  pa->np = mm->np;
  pa->ns = mm->pstart[mm->np] ? mm->pstart[mm->np] : 1;
  pa->pn1 = mm->np ? mm->np : 1;
  nv1 = (size_t)pa->nv + 1;
  pa->xy = (double *)ldsi_alloc(e, 2 * nv1 * sizeof(double));
  pa->slot = (PSlot *)ldsi_calloc(e, pa->ns, sizeof(PSlot));
  pa->dslot = (PSlot *)ldsi_calloc(e, 2 * pa->ns, sizeof(PSlot));
  pa->pdiam = (double *)ldsi_calloc(e, pa->pn1, sizeof(double));
  pa->ok = (uint8_t *)ldsi_alloc(e, pa->pn1);
  pa->hb = (uint32_t *)ldsi_alloc(e, pa->pn1 * sizeof(uint32_t));
  pa->btop = (uint32_t *)ldsi_alloc(e, pa->ns * sizeof(uint32_t));
  pa->bgen = (uint32_t *)ldsi_calloc(e, pa->ns, sizeof(uint32_t));
  pa->sgen = (uint32_t *)ldsi_calloc(e, pa->ns, sizeof(uint32_t));
  pa->scr = (uint32_t *)ldsi_alloc(e, (5 * pa->pn1 + pa->ns) * sizeof(uint32_t));
  pa->corner = (uint8_t *)ldsi_alloc(e, nv1);
  pa->bu = (uint32_t *)ldsi_alloc(e, nv1 * sizeof(uint32_t));
  pa->bw = (uint32_t *)ldsi_alloc(e, nv1 * sizeof(uint32_t));
  pa->goalgen = (uint32_t *)ldsi_calloc(e, pa->pn1, sizeof(uint32_t));
  pa->rgen = (uint32_t *)ldsi_calloc(e, pa->pn1, sizeof(uint32_t));
  pa->rnode = (PNode *)ldsi_alloc(e, pa->pn1 * sizeof(PNode));
  pa->wgen = (uint32_t *)ldsi_calloc(e, pa->pn1, sizeof(uint32_t));
  pa->wroot = (uint32_t *)ldsi_alloc(e, (pa->pn1) * sizeof(uint32_t));
  pa->wg = (double *)ldsi_alloc(e, (pa->pn1) * sizeof(double));
  pa->vg = (double *)ldsi_alloc(e, nv1 * sizeof(double));
  pa->vpar = (uint32_t *)ldsi_alloc(e, nv1 * sizeof(uint32_t));
  pa->vgen = (uint32_t *)ldsi_calloc(e, nv1, sizeof(uint32_t));
  if (!pa->xy || !pa->slot || !pa->dslot || !pa->pdiam || !pa->ok || !pa->corner || !pa->goalgen || !pa->vg ||
      !pa->vpar || !pa->vgen || !pa->bu || !pa->bw || !pa->wgen || !pa->wroot || !pa->wg || !pa->hb || !pa->btop ||
      !pa->bgen || !pa->sgen || !pa->scr || !pa->rgen || !pa->rnode) {
    ldsi_polyanya_free(s);
    return false;
  }
  for (i = 0; i < pa->nv; i++) {
    pa->xy[2 * i] = m->v[3 * i];
    pa->xy[2 * i + 1] = -m->v[3 * i + 2];
  }
  for (p = 0; p < mm->np; p++) {
    uint32_t st = mm->pstart[p], n = mm->pstart[p + 1] - st, k;
    double x0 = INFINITY, y0 = INFINITY, x1 = -INFINITY, y1 = -INFINITY;
    if (n > maxn) maxn = n;
    for (k = 0; k < n; k++) {
      const double *v = pa->xy + 2 * (size_t)mm->pv[st + k];
      x0 = fmin(x0, v[0]);
      x1 = fmax(x1, v[0]);
      y0 = fmin(y0, v[1]);
      y1 = fmax(y1, v[1]);
    }
    pa->pdiam[p] = (x1 - x0) + (y1 - y0);
    for (k = 0; k < n; k++) {
      uint32_t q = mm->pn[st + k], a = mm->pv[st + k], b = mm->pv[st + (k + 1) % n], qk = 0;
      PSlot *sl = &pa->slot[st + k];
      sl->x = pa->xy[2 * (size_t)a];
      sl->y = pa->xy[2 * (size_t)a + 1];
      sl->v = a;
      sl->q = q;
      sl->twin = 0;
      if (q == LDS_NAVMESH_NONE) continue;
      {
        uint32_t qs = mm->pstart[q], qn = mm->pstart[q + 1] - qs;
        for (qk = 0; qk < qn; qk++)
          if (mm->pv[qs + qk] == b && mm->pv[qs + (qk + 1) % qn] == a) break;
        sl->twin = qk < qn ? qk : 0; /* links are checked at construction */
      }
    }
  }
  pa->scap = 4 * (size_t)maxn + 8; /* observable, two non-observable, grazed: n each */
  pa->succ = (PNode *)ldsi_alloc(e, pa->scap * sizeof(PNode));
  if (!pa->succ) {
    pa->scap = 0;
    ldsi_polyanya_free(s);
    return false;
  }
  return true;
}

bool ldsi_polyanya_prepare(lds_NavSearch *s, uint32_t merge_max) {
  ldsi_polyanya_free(s);
  return ensure(s, merge_max);
}

/* The biconnected blocks of the allowed polygons' adjacency graph
** (polygons as nodes, shared edges as edges; Hopcroft & Tarjan 1973,
** iteratively): slot blk = the block of the edge, btop[b] the polygon
** block b hangs from in the DFS tree (an articulation polygon or a DFS
** root), hb[x] the block of x's DFS parent edge (NO_V at a root). A
** shortest path crosses only the edges of blocks on the block-cut tree's
** path between the start's and the goal's polygons (marked per query in
** bgen): a path into a block off that path returns to the polygon it left,
** and the segment between the two points where it left and came back lies
** in that convex polygon and is shorter. This generalises Polyanya's dead
** ends (a polygon with one neighbour) to every part of the mesh hanging
** from one polygon. */
static void blocks(ldsi_Polyanya *pa) {
  const ldsi_MergedMesh *m = &pa->mm;
  uint32_t *disc = pa->scr, *low = disc + pa->pn1, *fk = low + pa->pn1, *fv = fk + pa->pn1,
           *pe = fv + pa->pn1, *es = pe + pa->pn1;
  uint32_t t = 0, nb = 0, ne = 0, p, k;
  for (p = 0; p < m->np; p++) {
    disc[p] = 0;
    pe[p] = NO_V;
  }
  for (k = 0; k < pa->ns; k++) pa->slot[k].blk = NO_V;
  for (p = 0; p < m->np; p++) {
    uint32_t top;
    if (!pa->ok[p] || disc[p]) continue;
    disc[p] = low[p] = ++t;
    fv[0] = p;
    fk[0] = 0;
    top = 1;
    while (top) {
      uint32_t v = fv[top - 1], st = m->pstart[v], n = m->pstart[v + 1] - st;
      if (fk[top - 1] < n) {
        uint32_t sl = st + fk[top - 1]++, q = pa->slot[sl].q, tw, e;
        if (q == LDS_NAVMESH_NONE || !pa->ok[q]) continue;
        tw = m->pstart[q] + pa->slot[sl].twin;
        e = sl < tw ? sl : tw; /* an edge is named by its smaller slot */
        if (e == pe[v]) continue;
        if (!disc[q]) {
          es[ne++] = e;
          disc[q] = low[q] = ++t;
          pe[q] = e;
          fv[top] = q;
          fk[top] = 0;
          top++;
        } else if (disc[q] < disc[v]) { /* a back edge (or a second edge to the parent) */
          es[ne++] = e;
          if (disc[q] < low[v]) low[v] = disc[q];
        }
      } else if (--top) {
        uint32_t u = fv[top - 1];
        if (low[v] < low[u]) low[u] = low[v];
        if (low[v] >= disc[u]) { /* the edges since v's parent edge: a block hanging from u */
          uint32_t e;
          do {
            uint32_t q;
            e = es[--ne];
            q = pa->slot[e].q;
            pa->slot[e].blk = nb;
            pa->slot[m->pstart[q] + pa->slot[e].twin].blk = nb;
          } while (e != pe[v]);
          pa->btop[nb++] = u;
        }
      }
    }
  }
  for (p = 0; p < m->np; p++) {
    uint32_t st = m->pstart[p], n = m->pstart[p + 1] - st;
    pa->hb[p] = pe[p] == NO_V ? NO_V : pa->slot[pe[p]].blk;
    for (k = 0; k < 2 * n; k++) pa->dslot[2 * (size_t)st + k] = pa->slot[st + (k < n ? k : k - n)];
  }
}

/* Allowed polygons, their biconnected blocks (blocks) and the corner
** vertices, for the blocked areas of this query; rebuilt only
** when that set changes. A vertex is a corner when an edge to a
** non-allowed side touches it and the allowed polygons round it leave more
** than a straight angle of free space (summed over its fans: a pinch vertex
** with two fans may be marked too, a safe superset). */
static void build_tables(lds_NavSearch *s) {
  const ldsi_MergedMesh *m = &s->pa->mm;
  ldsi_Polyanya *pa = s->pa;
  uint8_t blk[32];
  uint32_t p, k, i;
  double *ang = pa->vg; /* scratch: vg is reset per query through vgen */
  memset(blk, 0, sizeof blk);
  /* the blocked areas among those the mesh uses (O(areas) per query) */
  for (i = 0; i < s->nareas; i++) {
    uint32_t a = s->areas[i];
    if (!isfinite(s->cost[a])) blk[a >> 3] |= (uint8_t)(1u << (a & 7));
  }
  if (pa->tables && memcmp(blk, pa->blocked, sizeof blk) == 0) return;
  memcpy(pa->blocked, blk, sizeof blk);
  for (p = 0; p < m->np; p++) pa->ok[p] = isfinite(s->cost[m->area[p]]) ? 1 : 0;
  for (k = 0; k < pa->nv; k++) ang[k] = 0;
  memset(pa->corner, 0, (size_t)pa->nv + 1);
  memset(pa->vpar, 0, ((size_t)pa->nv + 1) * sizeof(uint32_t)); /* scratch: counts in / out */
  for (k = 0; k <= pa->nv; k++) pa->bu[k] = pa->bw[k] = NO_V;
  for (p = 0; p < m->np; p++) {
    uint32_t st = m->pstart[p], n = m->pstart[p + 1] - st;
    if (!pa->ok[p]) continue;
    for (k = 0; k < n; k++) {
      uint32_t q = m->pn[st + k];
      uint32_t va = m->pv[st + (k + n - 1) % n], vv = m->pv[st + k], vb = m->pv[st + (k + 1) % n];
      double ux = pa->xy[2 * va] - pa->xy[2 * vv], uy = pa->xy[2 * va + 1] - pa->xy[2 * vv + 1];
      double wx = pa->xy[2 * vb] - pa->xy[2 * vv], wy = pa->xy[2 * vb + 1] - pa->xy[2 * vv + 1];
      ang[vv] += atan2(fabs(ux * wy - uy * wx), ux * wx + uy * wy);
      if (q == LDS_NAVMESH_NONE || !pa->ok[q]) { /* boundary edge vv -> vb */
        pa->corner[vv] = 1;
        pa->corner[vb] = 1;
        pa->bw[vv] = vb;
        pa->bu[vb] = vv;
        pa->vpar[vv] += 1;
        pa->vpar[vb] += 0x10000;
      }
    }
  }
  blocks(pa);
  pa->tabver++;
  for (k = 0; k < pa->nv; k++) {
    if (pa->corner[k] && !(ang[k] > 3.141592653589793 * (1 + 1e-9))) pa->corner[k] = 0;
    if (pa->vpar[k] != 0x10001) pa->bu[k] = pa->bw[k] = NO_V; /* several fans: no side test */
  }
  pa->tables = true;
}

static bool grow(lds_NavSearch *s, void **p, size_t *cap, size_t need, size_t elem) {
  size_t nc;
  void *q;
  if (need <= *cap) return true;
  nc = *cap ? *cap * 2 : 1024;
  while (nc < need) nc *= 2;
  q = ldsi_realloc(&s->env, *p, *cap * elem, nc * elem);
  if (!q) return false;
  *p = q;
  *cap = nc;
  return true;
}

/* ------------------------------------------------------------- heap -- */

/* f ascending; on ties the larger g first (deeper nodes, final nodes carry
** g = f), then the older node: deterministic. */
static inline bool hless(const PNode *nodes, const PHeap *a, const PHeap *b) {
  double ga, gb;
  if (a->f != b->f) return a->f < b->f;
  ga = nodes[a->id].kind == KIND_NODE ? nodes[a->id].g : a->f;
  gb = nodes[b->id].kind == KIND_NODE ? nodes[b->id].g : b->f;
  if (ga != gb) return ga > gb;
  return a->id < b->id;
}

static bool hpush(lds_NavSearch *s, double f, uint32_t id) {
  ldsi_Polyanya *pa = s->pa;
  PHeap it;
  size_t i;
  if (!grow(s, (void **)&pa->heap, &pa->hcap, pa->hn + 1, sizeof(PHeap))) return false;
  it.f = f;
  it.id = id;
  i = pa->hn++;
  while (i > 0) {
    size_t up = (i - 1) / 2;
    if (!hless(pa->nodes, &it, &pa->heap[up])) break;
    pa->heap[i] = pa->heap[up];
    i = up;
  }
  pa->heap[i] = it;
  s->stats.pushes++;
  if (pa->hn > s->stats.peak_open) s->stats.peak_open = pa->hn;
  return true;
}

static uint32_t hpop(ldsi_Polyanya *pa) {
  uint32_t top = pa->heap[0].id;
  PHeap last = pa->heap[--pa->hn];
  size_t i = 0, n = pa->hn;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && hless(pa->nodes, &pa->heap[c + 1], &pa->heap[c])) c++;
    if (!hless(pa->nodes, &pa->heap[c], &last)) break;
    pa->heap[i] = pa->heap[c];
    i = c;
  }
  if (n) pa->heap[i] = last;
  return top;
}

/* ------------------------------------------------------------ nodes -- */

/* Shortest r -> [R, L] -> goal (goal mirrored across the interval's line
** when on r's side). */
static double heuristic(const ldsi_Polyanya *pa, double rx, double ry, const PNode *n) {
  double tx = pa->gx, ty = pa->gy;
  double ex = n->lx - n->rx, ey = n->ly - n->ry;
  double sr = ex * (ry - n->ry) - ey * (rx - n->rx);
  double st = ex * (ty - n->ry) - ey * (tx - n->rx);
  if ((sr > 0 && st > 0) || (sr < 0 && st < 0)) { /* same side: mirror */
    double l2 = ex * ex + ey * ey;
    if (l2 > 0) {
      double t = ((tx - n->rx) * ex + (ty - n->ry) * ey) / l2;
      tx = 2 * (n->rx + t * ex) - tx;
      ty = 2 * (n->ry + t * ey) - ty;
    }
  }
  {
    /* r -> goal' crosses the interval where it passes between its ends */
    double ol = orient(rx, ry, tx, ty, n->lx, n->ly), orr = orient(rx, ry, tx, ty, n->rx, n->ry);
    if (ol >= 0 && orr <= 0) return dist(rx, ry, tx, ty);
    if (ol < 0) return dist(rx, ry, n->lx, n->ly) + dist(n->lx, n->ly, tx, ty);
    return dist(rx, ry, n->rx, n->ry) + dist(n->rx, n->ry, tx, ty);
  }
}

/* The polygon across slot sl may be entered: allowed, and the edge's block
** on the query's path of blocks. */
static inline bool enterable(const ldsi_Polyanya *pa, const PSlot *sl) {
  return sl->blk != NO_V && pa->bgen[sl->blk] == pa->gen;
}

/* Adds a successor on far edge j of polygon p (dslot index j < 2n - 1 from
** p's start: edge j mod n, from vertex a = right end to b = left end as
** seen from the root), the piece [t0, t1] (t from a to b), rooted at root
** with g. */
static void add_succ(lds_NavSearch *s, uint32_t p, uint32_t j, double t0, double t1,
                     uint32_t root, double g) {
  ldsi_Polyanya *pa = s->pa;
  const PSlot *sa = &pa->dslot[2 * (size_t)pa->mm.pstart[p] + j], *sb = sa + 1;
  uint32_t q = sa->q, a = sa->v, b = sb->v;
  const double *va = &sa->x, *vb = &sb->x;
  PNode *sn;
  if (!enterable(pa, sa)) return;
  if (t0 <= EPS_T) t0 = 0;
  if (t1 >= 1 - EPS_T) t1 = 1;
  if (!(t1 > t0)) return;
  if (pa->nsucc >= pa->scap) return; /* cannot happen: at most two pieces per edge */
  if (root != pa->nv && ((t0 == 0 && a == root) || (t1 == 1 && b == root))) {
    /* a collinear node (root on its entry edge) sees all of q: one per
    ** (root, q, g) is enough, and it keeps a walk round an unbounded fan
    ** from looping */
    if (pa->wgen[q] == pa->gen && pa->wroot[q] == root && pa->wg[q] <= g + EPS_G * (1 + g)) return;
    pa->wgen[q] = pa->gen;
    pa->wroot[q] = root;
    pa->wg[q] = g;
  }
  sn = &pa->succ[pa->nsucc++];
  sn->g = g;
  sn->root = root;
  sn->poly = q;
  sn->edge = sa->twin;
  sn->kind = KIND_NODE;
  if (t0 == 0) {
    sn->rx = va[0];
    sn->ry = va[1];
    sn->rv = a;
  } else {
    sn->rx = va[0] + t0 * (vb[0] - va[0]);
    sn->ry = va[1] + t0 * (vb[1] - va[1]);
    sn->rv = NO_V;
  }
  if (t1 == 1) {
    sn->lx = vb[0];
    sn->ly = vb[1];
    sn->lv = b;
  } else {
    sn->lx = va[0] + t1 * (vb[0] - va[0]);
    sn->ly = va[1] + t1 * (vb[1] - va[1]);
    sn->lv = NO_V;
  }
  /* q is reached: keep the first node into it (partial paths; one test
  ** per successor, one copy per polygon) */
  if (pa->rgen[q] != pa->gen) {
    pa->rgen[q] = pa->gen;
    pa->rnode[q] = *sn;
  }
}

/* Makes vertex v (reached from root `from` with g) a root; returns false
** when root-level pruning drops it (v is a root with a better g already),
** else true with *gv the g to root there. */
static bool take_root(ldsi_Polyanya *pa, uint32_t v, uint32_t from, double g, double *gv) {
  if (pa->vgen[v] == pa->gen) {
    double b = pa->vg[v], tol = EPS_G * (1 + b);
    if (g > b + tol) return false;
    if (g >= b - tol) {
      *gv = b; /* a tie (another side of v): keep the first parent */
      return true;
    }
  }
  pa->vgen[v] = pa->gen;
  pa->vg[v] = g;
  pa->vpar[v] = from;
  *gv = g;
  if (pa->vdist && g < pa->vdist[v]) pa->vdist[v] = g;
  return true;
}

/* Far edge j of p lies on a line through the root `from` (g): a path gets
** there along p's straight side (collinear vertices), so it may bend at
** the edge's end c nearer the root, when c is a corner, into the polygon
** across: a collinear node rooted at c. */
static void graze(lds_NavSearch *s, uint32_t p, uint32_t j, uint32_t from, double g,
                  uint32_t c) {
  ldsi_Polyanya *pa = s->pa;
  const PSlot *sa = &pa->dslot[2 * (size_t)pa->mm.pstart[p] + j];
  double gv;
  if (!enterable(pa, sa) || !pa->corner[c] || c == from) return;
  g += dist(pa->xy[2 * (size_t)from], pa->xy[2 * (size_t)from + 1], pa->xy[2 * (size_t)c],
            pa->xy[2 * (size_t)c + 1]);
  if (take_root(pa, c, from, g, &gv)) add_succ(s, p, j, 0, 1, c, gv);
}

/* Whole far edges of p seen from vertex root, a vertex of p (the
** successors of a collinear node, and of a fresh root inside p): edges
** i0 .. i1 counted from slot k + 1. Edges through the root give
** collinear nodes; an edge on a line through the root is grazed. */
static void whole_edges(lds_NavSearch *s, uint32_t p, uint32_t k, uint32_t i0,
                        uint32_t i1, uint32_t root, double g) {
  const ldsi_MergedMesh *m = &s->pa->mm;
  const ldsi_Polyanya *pa = s->pa;
  const PSlot *ps = pa->dslot + 2 * (size_t)m->pstart[p];
  uint32_t i;
  double rx = pa->xy[2 * (size_t)root], ry = pa->xy[2 * (size_t)root + 1];
  if (pa->vdist && i0 <= i1)
    for (i = i0; i <= i1 + 1; i++) see_vertex(s->pa, ps[k + 1 + i].v, g, rx, ry);
  for (i = i0; i <= i1; i++) {
    uint32_t j = k + 1 + i;
    const PSlot *sa = &ps[j], *sb = &ps[j + 1];
    if (!enterable(pa, sa)) continue;
    if (sa->v != root && sb->v != root) {
      const double *va = &sa->x, *vb = &sb->x;
      double o = orient(va[0], va[1], vb[0], vb[1], rx, ry);
      double sc = (fabs(vb[0] - va[0]) + fabs(vb[1] - va[1])) *
                  (fabs(rx - va[0]) + fabs(ry - va[1]));
      if (!(o > EPS_RAY * sc)) { /* on the edge's line */
        graze(s, p, j, root, g,
              dist(rx, ry, va[0], va[1]) <= dist(rx, ry, vb[0], vb[1]) ? sa->v : sb->v);
        continue;
      }
    }
    add_succ(s, p, j, 0, 1, root, g);
  }
}

/* The final node of a node entering goal polygon p (collinear: the root
** sees all of p). */
static void final_node(const PNode *nd, double rx, double ry, bool collinear, double tx,
                       double ty, PNode *fn) {
  *fn = *nd;
  fn->kind = KIND_FINAL;
  fn->f = nd->g + dist(rx, ry, tx, ty);
  if (collinear) return;
  if (orient(rx, ry, nd->lx, nd->ly, tx, ty) > 0) { /* left of the left ray: round L */
    fn->kind = KIND_FINAL_VIA;
    fn->f = nd->g + dist(rx, ry, nd->lx, nd->ly) + dist(nd->lx, nd->ly, tx, ty);
    fn->rv = NO_V;
  } else if (orient(rx, ry, nd->rx, nd->ry, tx, ty) < 0) { /* right of the right ray */
    fn->kind = KIND_FINAL_VIA;
    fn->f = nd->g + dist(rx, ry, nd->rx, nd->ry) + dist(nd->rx, nd->ry, tx, ty);
    fn->lx = nd->rx;
    fn->ly = nd->ry;
    fn->lv = nd->rv;
  }
}

static void final_succ(lds_NavSearch *s, const PNode *nd, double rx, double ry, bool collinear) {
  ldsi_Polyanya *pa = s->pa;
  final_node(nd, rx, ry, collinear, pa->gx, pa->gy, &pa->succ[pa->nsucc++]);
}

/* Whether a taut path coming from (rx, ry) may bend at corner v to the
** left (side > 0) or right (side < 0): only round an obstacle on that
** side. The obstacle wedge at v runs counter-clockwise from v -> u to
** v -> w (less than a straight angle, v being a corner), so it reaches the
** open half-plane on that side of the ray iff one of its two edges does.
** Vertices with several fans are always allowed. */
static bool may_turn(const ldsi_Polyanya *pa, uint32_t v, double rx, double ry, double side) {
  uint32_t u = pa->bu[v], w = pa->bw[v];
  const double *pv = pa->xy + 2 * (size_t)v;
  double dx = pv[0] - rx, dy = pv[1] - ry;
  if (u == NO_V) return true;
  return side * (dx * (pa->xy[2 * (size_t)u + 1] - pv[1]) - dy * (pa->xy[2 * (size_t)u] - pv[0])) > 0 ||
         side * (dx * (pa->xy[2 * (size_t)w + 1] - pv[1]) - dy * (pa->xy[2 * (size_t)w] - pv[0])) > 0;
}

/* The successors of nd into pa->succ (pa->nsucc). */
static void successors(lds_NavSearch *s, const PNode *nd) {
  const ldsi_MergedMesh *m = &s->pa->mm;
  ldsi_Polyanya *pa = s->pa;
  uint32_t p = nd->poly, st = m->pstart[p], n = m->pstart[p + 1] - st, k = nd->edge, i;
  const PSlot *ps = pa->dslot + 2 * (size_t)st;
  uint32_t A = ps[k].v, B = ps[k + 1].v;
  double rx = pa->xy[2 * (size_t)nd->root], ry = pa->xy[2 * (size_t)nd->root + 1];
  double sl[2], sr[2], tR, tL, tolL, tolR;
  uint32_t ir, il, eR, eL;
  bool collinear = nd->root != pa->nv && (nd->root == A || nd->root == B);
  pa->nsucc = 0;
  if (pa->goalgen[p] == pa->gen) {
    final_succ(s, nd, rx, ry, collinear);
    return;
  }
  if (collinear) {
    whole_edges(s, p, k, 0, n - 2, nd->root, nd->g);
    return;
  }
  /* far vertices w_i = slot k + 1 + i (i = 0: B, i = n - 1: A); far edge i
  ** runs w_i -> w_{i+1}. The right ray leaves p on far edge eR = ir - 1,
  ** ir the first w_i strictly left of it (w_{n-1} = A is), at tR: its
  ** start w_{ir-1} when that is on the ray (a run of far edges along the
  ** ray, as collinear vertices give, is passed by), else the crossing. The
  ** same for the left ray from the other end: eL = il, il the last w_i
  ** strictly right of it (w_0 = B is). */
#define W(i) (&ps[k + 1 + (i)].x)
  /* tolerance of a vertex w against a ray r -> e: EPS_RAY |e - r| |w - r|
  ** (L1), with |w - r| <= |e - r| + p's L1 diameter */
  tolR = fabs(nd->rx - rx) + fabs(nd->ry - ry);
  tolL = fabs(nd->lx - rx) + fabs(nd->ly - ry);
  tolR = EPS_RAY * tolR * (tolR + pa->pdiam[p]);
  tolL = EPS_RAY * tolL * (tolL + pa->pdiam[p]);
  sr[0] = nd->rv == B ? 0 : orient(rx, ry, nd->rx, nd->ry, W(0)[0], W(0)[1]);
  for (ir = 1;; ir++) {
    const double *w = W(ir);
    double o = orient(rx, ry, nd->rx, nd->ry, w[0], w[1]);
    if (ir == n - 1 || o > tolR) {
      sr[1] = o;
      break;
    }
    sr[0] = o;
  }
  eR = ir - 1;
  tR = fabs(sr[0]) <= tolR ? 0 : sr[0] / (sr[0] - sr[1]);
  sl[1] = nd->lv == A ? 0 : orient(rx, ry, nd->lx, nd->ly, W(n - 1)[0], W(n - 1)[1]);
  for (il = n - 2;; il--) {
    const double *w = W(il);
    double o = orient(rx, ry, nd->lx, nd->ly, w[0], w[1]);
    if (il == 0 || o < -tolL) {
      sl[0] = o;
      break;
    }
    sl[1] = o;
  }
  eL = il;
  tL = fabs(sl[1]) <= tolL ? 1 : sl[0] / (sl[0] - sl[1]);
  if (pa->vdist) /* the far vertices in the closed cone (p is convex: the root sees them) */
    for (i = 0; i < n; i++) {
      const double *w = W(i);
      if (orient(rx, ry, nd->rx, nd->ry, w[0], w[1]) >= -tolR && orient(rx, ry, nd->lx, nd->ly, w[0], w[1]) <= tolL)
        see_vertex(pa, ps[k + 1 + i].v, nd->g, rx, ry);
    }
  /* observable: from the right exit to the left exit */
  if (eR < eL || (eR == eL && tR < tL)) {
    for (i = eR; i <= eL; i++) {
      uint32_t j = k + 1 + i;
      if (ps[j].blk != NO_V) /* add_succ tests the rest */
        add_succ(s, p, j, i == eR ? tR : 0, i == eL ? tL : 1, nd->root, nd->g);
    }
  }
  /* a ray running from B (A) along far edges of p (collinear vertices):
  ** the path may bend at a corner on that run into the polygon across */
  if (nd->rv == B && tR == 0 && eR >= 2 &&
      fabs(orient(rx, ry, nd->rx, nd->ry, W(1)[0], W(1)[1])) <= tolR)
    for (i = 1; i < eR; i++)
      graze(s, p, k + 1 + i, nd->root, nd->g, ps[k + 1 + i].v);
  if (nd->lv == A && tL == 1 && eL + 3 <= n &&
      fabs(orient(rx, ry, nd->lx, nd->ly, W(n - 2)[0], W(n - 2)[1])) <= tolL)
    for (i = eL + 1; i + 3 <= n; i++)
      graze(s, p, k + 1 + i, nd->root, nd->g, ps[k + 2 + i].v);
  /* non-observable: round a corner at an end of the entry edge */
  if (nd->rv == B && pa->corner[B] && may_turn(pa, B, rx, ry, -1)) {
    double gv, g = nd->g + dist(rx, ry, pa->xy[2 * (size_t)B], pa->xy[2 * (size_t)B + 1]);
    if (take_root(pa, B, nd->root, g, &gv)) {
      if (eR >= 1) whole_edges(s, p, k, 0, eR - 1, B, gv);
      if (eR <= n - 2 && tR > 0) add_succ(s, p, k + 1 + eR, 0, tR, B, gv);
    }
  }
  if (nd->lv == A && pa->corner[A] && may_turn(pa, A, rx, ry, 1)) {
    double gv, g = nd->g + dist(rx, ry, pa->xy[2 * (size_t)A], pa->xy[2 * (size_t)A + 1]);
    if (take_root(pa, A, nd->root, g, &gv)) {
      if (tL < 1) add_succ(s, p, k + 1 + eL, tL, 1, A, gv);
      if (eL + 1 <= n - 2) whole_edges(s, p, k, eL + 1, n - 2, A, gv);
    }
  }
#undef W
}

/* ------------------------------------------------------------ start -- */

/* Polygons holding point x (plane): BFS from the merged polygons of the
** mesh polygons seed[0..ns-1] (each holding x; polygons touching only at
** x, a pinch, are not linked by edges) over allowed edges through x. */
static uint32_t polys_at(const lds_NavSearch *s, const uint32_t *seed, uint32_t ns, double x,
                         double y, uint32_t *out, uint32_t cap) {
  const ldsi_MergedMesh *m = &s->pa->mm;
  const ldsi_Polyanya *pa = s->pa;
  /* on an edge: within 1e-9 of (1 + its length) squared, the 1 the mesh's
  ** size when that is below 1 (a mesh of 1e-9 units would otherwise have
  ** every point on every edge near it) */
  const double size = s->m->eps * 1e9, unit = size < 1 ? size * size : 1;
  uint32_t n = 0, head = 0, j;
  for (j = 0; j < ns && n < cap; j++) {
    uint32_t q = m->pmap[seed[j]], i;
    bool dup = false;
    for (i = 0; i < n; i++) dup |= out[i] == q;
    if (!dup) out[n++] = q;
  }
  while (head < n) {
    uint32_t f = out[head++], st = m->pstart[f], nk = m->pstart[f + 1] - st, k, i;
    for (k = 0; k < nk; k++) {
      uint32_t q = m->pn[st + k];
      const double *a = pa->xy + 2 * (size_t)m->pv[st + k];
      const double *b = pa->xy + 2 * (size_t)m->pv[st + (k + 1) % nk];
      double ex = b[0] - a[0], ey = b[1] - a[1], l2 = ex * ex + ey * ey, t, px, py;
      bool dup = false;
      if (q == LDS_NAVMESH_NONE || !pa->ok[q]) continue;
      t = l2 > 0 ? ((x - a[0]) * ex + (y - a[1]) * ey) / l2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      px = a[0] + t * ex - x;
      py = a[1] + t * ey - y;
      if (px * px + py * py > 1e-18 * (unit + l2)) continue;
      for (i = 0; i < n; i++) dup |= out[i] == q;
      if (!dup && n < cap) out[n++] = q;
    }
  }
  return n;
}

/* The blocks a shortest path from the start polygons sp[0..ns-1] to the
** goal polygons gp[0..ng-1] may cross, into bgen: the blocks above each
** (hb, then btop's hb, ...) up to where the start's and the goal's chains
** meet, that block included unless both chains come into it from the same
** polygon (the path then turns in that polygon); with several start or
** goal polygons (a point on an edge or a vertex) every block above any of
** them. */
static void mark_path(ldsi_Polyanya *pa, const uint32_t *sp, uint32_t ns, const uint32_t *gp,
                      uint32_t ng) {
  uint32_t gen = pa->gen, i, b, meet = NO_V, gprev = NO_V, sprev = NO_V;
  if (ns == 1 && ng == 1) {
    for (b = pa->hb[sp[0]]; b != NO_V; b = pa->hb[pa->btop[b]]) pa->sgen[b] = gen;
    for (b = pa->hb[gp[0]]; b != NO_V; gprev = b, b = pa->hb[pa->btop[b]]) {
      pa->bgen[b] = gen;
      if (pa->sgen[b] == gen) {
        meet = b;
        break;
      }
    }
    for (b = pa->hb[sp[0]]; b != NO_V && b != meet; sprev = b, b = pa->hb[pa->btop[b]]) pa->bgen[b] = gen;
    if (meet != NO_V && gprev != NO_V && sprev != NO_V && pa->btop[gprev] == pa->btop[sprev])
      pa->bgen[meet] = gen - 1; /* both reach it through one polygon */
    return;
  }
  for (i = 0; i < ns; i++)
    for (b = pa->hb[sp[i]]; b != NO_V && pa->bgen[b] != gen; b = pa->hb[pa->btop[b]]) pa->bgen[b] = gen;
  for (i = 0; i < ng; i++)
    for (b = pa->hb[gp[i]]; b != NO_V && pa->bgen[b] != gen; b = pa->hb[pa->btop[b]]) pa->bgen[b] = gen;
}

/* Starts a new generation of the per-query marks (every one stale). */
static void next_gen(ldsi_Polyanya *pa) {
  if (++pa->gen == 0) {
    memset(pa->vgen, 0, ((size_t)pa->nv + 1) * sizeof(uint32_t));
    memset(pa->goalgen, 0, pa->pn1 * sizeof(uint32_t));
    memset(pa->rgen, 0, pa->pn1 * sizeof(uint32_t));
    memset(pa->wgen, 0, pa->pn1 * sizeof(uint32_t));
    memset(pa->bgen, 0, pa->ns * sizeof(uint32_t));
    memset(pa->sgen, 0, pa->ns * sizeof(uint32_t));
    pa->gen = 1;
  }
}

bool ldsi_polyanya_partition(lds_NavSearch *s, const ldsi_MergedMesh **mm) {
  if (!ensure(s, LDSI_POLYANYA_MERGE_MAX)) return false;
  *mm = &s->pa->mm;
  return true;
}

uint32_t ldsi_polyanya_mark_blocks(lds_NavSearch *s, const uint32_t *msp, uint32_t ns,
                                   const uint32_t *mgp, uint32_t ng, const uint32_t **bgen,
                                   uint32_t *gen) {
  ldsi_Polyanya *pa = s->pa;
  build_tables(s);
  next_gen(pa);
  mark_path(pa, msp, ns, mgp, ng);
  *bgen = pa->bgen;
  *gen = pa->gen;
  return pa->tabver;
}

uint32_t ldsi_polyanya_slot_block(const lds_NavSearch *s, uint32_t slot) {
  return s->pa->slot[slot].blk;
}

/* Distance from node n's root to the nearest point of its interval. */
static double root_to_interval(const ldsi_Polyanya *pa, const PNode *n) {
  const double *r = pa->xy + 2 * (size_t)n->root;
  double ex = n->lx - n->rx, ey = n->ly - n->ry, l2 = ex * ex + ey * ey, t = 0;
  if (l2 > 0) t = ((r[0] - n->rx) * ex + (r[1] - n->ry) * ey) / l2;
  t = t < 0 ? 0 : t > 1 ? 1 : t;
  return dist(r[0], r[1], n->rx + t * ex, n->ry + t * ey);
}

static bool push_succ(lds_NavSearch *s) {
  ldsi_Polyanya *pa = s->pa;
  const bool lm = s->lm_on && pa->phase == 0 && !pa->vdist; /* the bounds are for the goal */
  size_t i;
  if (!grow(s, (void **)&pa->nodes, &pa->ncap, pa->nn + pa->nsucc, sizeof(PNode))) return false;
  if (pa->nn + pa->nsucc >= 0xFFFFFFF0u) return false;
  for (i = 0; i < pa->nsucc; i++) {
    PNode *n = &pa->nodes[pa->nn];
    *n = pa->succ[i];
    if (n->kind == KIND_NODE && pa->vdist) {
      /* one-to-all: Dijkstra's order, by the interval's nearest point */
      n->f = n->g + root_to_interval(pa, n);
    } else if (n->kind == KIND_NODE) {
      const double *r = pa->xy + 2 * (size_t)n->root;
      if (n->root != pa->nv && (n->root == n->lv || n->root == n->rv)) /* sees all its polygon */
        n->f = n->g + dist(r[0], r[1], pa->gx, pa->gy);
      else
        n->f = n->g + heuristic(pa, r[0], r[1], n);
      if (lm) {
        /* every path on reaches the interval, then the goal: the
        ** landmarks' bound from the entry edge on */
        uint32_t k = s->lm->kslot[pa->mm.pstart[n->poly] + n->edge];
        if (k != LDS_NAVMESH_NONE) {
          double lb = n->g + root_to_interval(pa, n) + ldsi_navlm_bound(s->lm, s->lmg, k);
          if (lb > n->f) n->f = lb;
        }
      }
    }
    if (!hpush(s, n->f, (uint32_t)pa->nn)) return false;
    pa->nn++;
  }
  pa->nsucc = 0;
  return true;
}

/* A search from the start to point tgt (3-D; in mesh polygon tpoly): a new
** generation, the start's nodes pushed. Phase 0 (to the goal): with
** partial, every block may be crossed (the search must reach the whole
** region for its nearest point; start and goal may be apart) and a goal
** in a blocked polygon is never reached; without partial, pieces apart
** give no node (no path). Phase 1 (to the partial target, reachable): the
** blocks between start and target. */
static lds_Status begin(lds_NavSearch *s, const double *tgt, uint32_t tpoly) {
  const ldsi_MergedMesh *m;
  ldsi_Polyanya *pa = s->pa;
  /* the polygons round the start and the goal: at most m->hold_max each */
  uint32_t *around = s->hold_a, *goals = s->hold_b, n, ng = 0, i, start;
  const bool open_all = s->p.partial && pa->phase == 0;
  m = &pa->mm;
  next_gen(pa);
  pa->nn = pa->hn = pa->nsucc = 0;
  pa->has_chain = false;
  start = pa->nv;
  pa->xy[2 * (size_t)start] = s->start[0];
  pa->xy[2 * (size_t)start + 1] = -s->start[2];
  memcpy(pa->tgt, tgt, sizeof pa->tgt);
  pa->gx = tgt[0];
  pa->gy = -tgt[2];
  pa->vgen[start] = pa->gen;
  pa->vg[start] = 0;
  pa->vpar[start] = NO_V;
  /* the goal: every allowed polygon holding it; a partial target: its own */
  const bool to_goal = tgt == s->goal && s->ngh;
  const uint32_t *tp = to_goal ? s->gh : &tpoly, ntp = to_goal ? s->ngh : 1;
  if (!open_all) { /* apart (no start polygon in a piece of a target one): no path */
    bool met = false;
    for (i = 0; i < ntp && !met; i++) met = ldsi_nav_start_in_piece(s, s->m->piece[tp[i]]);
    if (!met) return LDS_RUNNING;
  }
  if (pa->ok[m->pmap[tpoly]]) {
    ng = polys_at(s, tp, ntp, pa->gx, pa->gy, goals, s->m->hold_max);
    for (i = 0; i < ng; i++) pa->goalgen[goals[i]] = pa->gen;
  }
  n = polys_at(s, s->sh, s->nsh, pa->xy[2 * (size_t)start], pa->xy[2 * (size_t)start + 1], around,
               s->m->hold_max);
  if (open_all) {
    size_t b;
    for (b = 0; b < pa->ns; b++) pa->bgen[b] = pa->gen;
  } else {
    mark_path(pa, around, n, goals, ng);
  }
  for (i = 0; i < n; i++) {
    uint32_t p = around[i], st = m->pstart[p], np = m->pstart[p + 1] - st;
    PNode nd;
    memset(&nd, 0, sizeof nd);
    nd.root = start;
    nd.poly = p;
    /* the start sees its own polygons whole (partial paths) */
    pa->rgen[p] = pa->gen;
    pa->rnode[p] = nd;
    pa->rnode[p].kind = KIND_SEES_ALL;
    if (pa->goalgen[p] == pa->gen) {
      final_succ(s, &nd, pa->xy[2 * (size_t)start], pa->xy[2 * (size_t)start + 1], true);
    } else {
      /* whole edges of p as seen from the start inside it: far edges
      ** counted from slot np - 1 + 1 = 0 */
      uint32_t k;
      double sx = pa->xy[2 * (size_t)start], sy = pa->xy[2 * (size_t)start + 1];
      for (k = 0; k < np; k++) {
        const double *va = pa->xy + 2 * (size_t)m->pv[st + k];
        const double *vb = pa->xy + 2 * (size_t)m->pv[st + (k + 1) % np];
        double o = orient(va[0], va[1], vb[0], vb[1], sx, sy);
        double sc = (fabs(vb[0] - va[0]) + fabs(vb[1] - va[1])) *
                    (fabs(sx - va[0]) + fabs(sy - va[1]));
        if (!(o > EPS_RAY * sc)) { /* the start is on it, or on its line */
          double ex = vb[0] - va[0], ey = vb[1] - va[1];
          double t = ((sx - va[0]) * ex + (sy - va[1]) * ey) / (ex * ex + ey * ey);
          if (t < 0) graze(s, p, k, start, 0, m->pv[st + k]);
          else if (t > 1) graze(s, p, k, start, 0, m->pv[st + (k + 1) % np]);
          continue;
        }
        add_succ(s, p, k, 0, 1, start, 0);
      }
    }
    if (!push_succ(s)) return LDS_E_NOMEM;
  }
  return LDS_RUNNING;
}

lds_Status ldsi_polyanya_start(lds_NavSearch *s) {
  if (!ensure(s, LDSI_POLYANYA_MERGE_MAX) || (build_tables(s), s->pa->phase = 0,
                                              begin(s, s->goal, s->gp) != LDS_RUNNING)) {
    snprintf(s->msg, sizeof s->msg, "lds_navsearch_start: out of memory (optimal search)");
    s->started = false;
    return s->status = LDS_E_NOMEM;
  }
  return LDS_RUNNING;
}

/* ------------------------------------------------------------- path -- */

static void vertex3(const lds_NavSearch *s, uint32_t v, double *out) {
  if (v == s->pa->nv) memcpy(out, s->start, 3 * sizeof(double));
  else memcpy(out, ldsi_nm_v(s->m, v), 3 * sizeof(double));
}

/* The path of final node fin into s->pts: the start, the roots, the via
** point, end. */
static lds_Status build(lds_NavSearch *s, const PNode *fin, const double *end) {
  ldsi_Polyanya *pa = s->pa;
  size_t i;
  uint32_t r;
  s->npts = 0;
  if (!ldsi_nav_push_point(s, end)) return LDS_E_NOMEM;
  if (fin->kind == KIND_FINAL_VIA) { /* the last turn at an interval end */
    double via[3];
    if (fin->lv != NO_V) {
      vertex3(s, fin->lv, via);
    } else {
      uint32_t p;
      via[0] = fin->lx;
      via[2] = -fin->ly;
      via[1] = end[1];
      p = lds_navmesh_locate(s->m, via[0], end[1], via[2], -1);
      if (p != LDS_NAVMESH_NONE) via[1] = lds_navmesh_poly_height(s->m, p, via[0], via[2]);
    }
    if (!ldsi_nav_push_point(s, via)) return LDS_E_NOMEM;
  }
  for (r = fin->root; r != NO_V; r = pa->vpar[r]) {
    double p[3];
    vertex3(s, r, p);
    if (!ldsi_nav_push_point(s, p)) return LDS_E_NOMEM;
  }
  for (i = 0; i < s->npts / 2; i++) {
    double t[3];
    memcpy(t, s->pts + 3 * i, sizeof t);
    memcpy(s->pts + 3 * i, s->pts + 3 * (s->npts - 1 - i), sizeof t);
    memcpy(s->pts + 3 * (s->npts - 1 - i), t, sizeof t);
  }
  /* drop straight-on middle points (a root passed exactly straight) */
  {
    size_t w = 1;
    for (i = 1; i + 1 < s->npts; i++) {
      const double *a = s->pts + 3 * (w - 1), *b = s->pts + 3 * i, *c = s->pts + 3 * (i + 1);
      double ux = b[0] - a[0], uz = b[2] - a[2], wx = c[0] - b[0], wz = c[2] - b[2];
      double cr = ux * wz - uz * wx, dt = ux * wx + uz * wz;
      if (fabs(cr) <= 1e-12 * (fabs(ux) + fabs(uz)) * (fabs(wx) + fabs(wz)) && dt > 0) continue;
      memmove(s->pts + 3 * w++, b, 3 * sizeof(double));
    }
    if (s->npts > 1) memmove(s->pts + 3 * w++, s->pts + 3 * (s->npts - 1), 3 * sizeof(double));
    s->npts = w;
  }
  return LDS_OK;
}

/* ------------------------------------------------------------- step -- */

lds_Status ldsi_polyanya_step(lds_NavSearch *s, uint64_t max_exp, uint64_t budget_us,
                              uint64_t t0) {
  ldsi_Polyanya *pa = s->pa;
  uint64_t n = 0;
  for (;;) {
    while (pa->hn || pa->has_chain) {
      PNode nd;
      if (max_exp && n >= max_exp) return LDS_RUNNING;
      if (ldsi_nav_time_up(s, budget_us, t0)) return LDS_RUNNING;
      if (pa->has_chain) {
        /* the chain the last step's budget cut: resumed where it stopped,
        ** so that slicing never changes the order of expansions */
        nd = pa->chain;
        pa->has_chain = false;
      } else {
        nd = pa->nodes[hpop(pa)];
        if (nd.kind != KIND_NODE) {
          n++;
          s->stats.expansions++;
          if (build(s, &nd, pa->tgt) != LDS_OK) {
            snprintf(s->msg, sizeof s->msg, "lds_navsearch_step: out of memory building the path");
            return LDS_E_NOMEM;
          }
          /* phase 1 reached the partial target: no path, the partial one */
          return pa->phase ? LDS_NO_PATH : LDS_FOUND;
        }
        if (nd.root != pa->nv && nd.g > pa->vg[nd.root] + EPS_G * (1 + nd.g))
          continue; /* the root was reached more cheaply since */
      }
      for (;;) {
        n++;
        s->stats.expansions++;
        successors(s, &nd);
        /* one successor: expand it at once (the paper's intermediate
        ** nodes); when the budget (expansions or time) ends first, on
        ** the next step */
        if (pa->nsucc == 1 && pa->succ[0].kind == KIND_NODE) {
          nd = pa->succ[0];
          if ((max_exp && n >= max_exp) || ldsi_nav_time_up(s, budget_us, t0)) {
            pa->chain = nd;
            pa->has_chain = true;
            break;
          }
          continue;
        }
        break;
      }
      if (pa->has_chain) continue;
      if (!push_succ(s)) {
        snprintf(s->msg, sizeof s->msg, "lds_navsearch_step: out of memory (%zu nodes)", pa->nn);
        return LDS_E_NOMEM;
      }
    }
    /* the goal is not reachable; with partial, every reachable polygon has
    ** been reached: search again, to its point nearest the goal
    ** (ldsi_nav_partial_target), for the exact shortest path there */
    if (s->p.partial && pa->phase == 0) {
      double tgt[3];
      uint32_t tp = ldsi_nav_partial_target(s, pa->mm.pmap, pa->rgen, pa->gen, tgt);
      if (tp == LDS_NAVMESH_NONE) return LDS_NO_PATH; /* cannot happen: the start's polygon is reached */
      /* the best so far now ends at the partial target: keep it while the
      ** second search runs (its own nodes reach less, nearer the start) */
      if (ldsi_polyanya_best(s) != LDS_OK || !ldsi_nav_keep_best(s)) {
        snprintf(s->msg, sizeof s->msg, "lds_navsearch_step: out of memory keeping the best path so far");
        return LDS_E_NOMEM;
      }
      pa->phase = 1;
      if (begin(s, tgt, tp) != LDS_RUNNING) {
        snprintf(s->msg, sizeof s->msg, "lds_navsearch_step: out of memory (%zu nodes)", pa->nn);
        return LDS_E_NOMEM;
      }
      continue;
    }
    return LDS_NO_PATH;
  }
}

/* The best path so far of a running (or ended) search into s->pts: to the
** point of the polygons reached nearest the goal (ldsi_nav_partial_target),
** through the first node made into that polygon: the roots' chain, then
** straight to the point when the node's interval lets the last root see
** it, else round the interval's nearer end (the polygon is convex, so the
** piece from the entry edge lies in it). LDS_OK, LDS_NO_PATH (nothing
** reached) or LDS_E_NOMEM. */
lds_Status ldsi_polyanya_best(lds_NavSearch *s) {
  ldsi_Polyanya *pa = s->pa;
  double end[3], rx, ry;
  uint32_t tp, mp;
  PNode nd, fin;
  bool sees_all;
  if (!pa) return LDS_NO_PATH;
  tp = ldsi_nav_partial_target(s, pa->mm.pmap, pa->rgen, pa->gen, end);
  if (tp == LDS_NAVMESH_NONE) return LDS_NO_PATH;
  mp = pa->mm.pmap[tp];
  nd = pa->rnode[mp];
  rx = pa->xy[2 * (size_t)nd.root];
  ry = pa->xy[2 * (size_t)nd.root + 1];
  sees_all = nd.kind == KIND_SEES_ALL;
  if (!sees_all && nd.root != pa->nv) {
    const PSlot *ps = pa->dslot + 2 * (size_t)pa->mm.pstart[mp];
    sees_all = nd.root == ps[nd.edge].v || nd.root == ps[nd.edge + 1].v;
  }
  nd.kind = KIND_NODE;
  final_node(&nd, rx, ry, sees_all, end[0], -end[2], &fin);
  return build(s, &fin, end) == LDS_OK ? LDS_OK : LDS_E_NOMEM;
}

/* ------------------------------------------------------- one-to-all -- */

bool ldsi_polyanya_distances(lds_NavSearch *s, uint32_t mp, double sx, double sz, double *vdist,
                             uint64_t *pops) {
  ldsi_Polyanya *pa;
  double saved[256];
  uint32_t i, start, st, np, k;
  size_t b;
  bool ok = true;
  if (!ensure(s, LDSI_POLYANYA_MERGE_MAX)) return false;
  pa = s->pa;
  /* every area allowed: the tables of the whole mesh (the next query
  ** rebuilds its own, its blocked set differing) */
  memcpy(saved, s->cost, sizeof saved);
  for (i = 0; i < s->nareas; i++) s->cost[s->areas[i]] = 1;
  build_tables(s);
  memcpy(s->cost, saved, sizeof saved);
  for (i = 0; i < pa->nv; i++) vdist[i] = INFINITY;
  next_gen(pa);
  pa->nn = pa->hn = pa->nsucc = 0;
  pa->has_chain = false;
  pa->vdist = vdist;
  start = pa->nv;
  pa->xy[2 * (size_t)start] = sx;
  pa->xy[2 * (size_t)start + 1] = -sz;
  pa->vgen[start] = pa->gen;
  pa->vg[start] = 0;
  pa->vpar[start] = NO_V;
  for (b = 0; b < pa->ns; b++) pa->bgen[b] = pa->gen;
  st = pa->mm.pstart[mp];
  np = pa->mm.pstart[mp + 1] - st;
  for (k = 0; k < np; k++) {
    const double *va = pa->xy + 2 * (size_t)pa->mm.pv[st + k];
    const double *vb = pa->xy + 2 * (size_t)pa->mm.pv[st + (k + 1) % np];
    double o = orient(va[0], va[1], vb[0], vb[1], sx, -sz);
    double sc = (fabs(vb[0] - va[0]) + fabs(vb[1] - va[1])) * (fabs(sx - va[0]) + fabs(-sz - va[1]));
    see_vertex(pa, pa->mm.pv[st + k], 0, sx, -sz);
    if (!(o > EPS_RAY * sc)) continue; /* callers pass a point strictly inside */
    add_succ(s, mp, k, 0, 1, start, 0);
  }
  if (!push_succ(s)) ok = false;
  while (ok && pa->hn) {
    PNode nd;
    double rx, ry;
    if (*pops == 0) {
      ok = false; /* the caller's budget is spent */
      break;
    }
    --*pops;
    nd = pa->nodes[hpop(pa)];
    if (nd.root != pa->nv && nd.g > pa->vg[nd.root] + EPS_G * (1 + nd.g)) continue;
    rx = pa->xy[2 * (size_t)nd.root];
    ry = pa->xy[2 * (size_t)nd.root + 1];
    if (nd.lv != NO_V) see_vertex(pa, nd.lv, nd.g, rx, ry);
    if (nd.rv != NO_V) see_vertex(pa, nd.rv, nd.g, rx, ry);
    successors(s, &nd);
    if (!push_succ(s)) ok = false;
  }
  pa->vdist = NULL;
  pa->nn = pa->hn = pa->nsucc = 0;
  return ok;
}
