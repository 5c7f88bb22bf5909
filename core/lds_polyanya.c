/* SPDX-License-Identifier: MIT */
/*
** lds_polyanya.c — exact Euclidean shortest paths on a navigation mesh:
** Polyanya (M. Cui, D. Harabor, A. Grastien, "Compromise-free Pathfinding
** on a Navigation Mesh", IJCAI 2017).
**
** A search node is (root, interval, polygon): the root is the start or a
** mesh vertex the path turns at, the interval [R, L] a piece of an edge of
** the polygon the node looks into, visible from the root; g is the length
** from the start to the root, h the length of the shortest way from the
** root through the interval to the goal (the goal mirrored across the
** interval's line when it lies on the root's side), so f = g + h is a lower
** bound and the first final node popped is optimal.
**
** Expanding a node projects its visibility cone through the polygon onto
** the polygon's other edges (observable successors, same root). Where an
** interval ends at a corner vertex v — a vertex on the boundary of the
** allowed polygons, the only places a taut path bends — the search also
** roots at v: every polygon around v (through v's incident edges) gives
** nodes rooted at v on each of its edges not touching v. A root-level list
** keeps the best g per vertex, so each corner is rooted again only when
** reached more cheaply (the paper's root-level pruning); nodes whose root
** has since been reached more cheaply are dropped when popped. This
** superset of the paper's non-observable successors keeps the search exact
** without its case analysis of the turn side. Geometry is in the x-z plane;
** lengths of the result are 3-D (lds_navsearch_length).
*/
#include "lds_navmesh_search_internal.h"

#include <stdio.h>
#include <string.h>

#define NO_VERT 0xFFFFFFFFu

typedef struct PNode {
  double f, g;        /* g: length from the start to the root */
  double lx, lz, rx, rz; /* interval: left and right end as seen from the root */
  uint32_t root;      /* root record */
  uint32_t poly;      /* polygon to expand into */
  uint32_t edge;      /* its entry edge (vertex edge -> edge+1) */
  uint32_t lv, rv;    /* mesh vertex at the left / right end, or NO_VERT */
  uint32_t final;     /* 1: final node (goal reached; via in lx, lz when lv != NO_VERT) */
} PNode;

typedef struct PRoot {
  double x, y, z, g;
  uint32_t parent; /* root record, NO_VERT for the start */
  uint32_t vert;   /* mesh vertex, NO_VERT for the start */
} PRoot;

struct ldsi_Polyanya {
  PNode *nodes;
  size_t nn, ncap;
  PRoot *roots;
  size_t nr, rcap;
  ldsi_NavHeapItem *heap;
  size_t hn, hcap;
  double *vbest;      /* best g per vertex as a root */
  uint32_t *vgen;     /* generation of vbest */
  uint8_t *corner;    /* 1 when the vertex may be a turning point */
  uint32_t *goalgen;  /* generation: polygon contains the goal */
  uint32_t gen;
  uint32_t nv, np;
  double eps2;        /* area tolerance of orientation tests */
  bool corner_static; /* corner[] is for "no blocked area" */
  uint32_t fan[256];
};

static double d2(double ax, double az, double bx, double bz) {
  return sqrt((ax - bx) * (ax - bx) + (az - bz) * (az - bz));
}

void ldsi_polyanya_free(lds_NavSearch *s) {
  ldsi_Polyanya *pa = s->pa;
  const ldsi_Env *e = &s->env;
  if (!pa) return;
  ldsi_free(e, pa->nodes, pa->ncap * sizeof(PNode));
  ldsi_free(e, pa->roots, pa->rcap * sizeof(PRoot));
  ldsi_free(e, pa->heap, pa->hcap * sizeof(ldsi_NavHeapItem));
  ldsi_free(e, pa->vbest, ((size_t)pa->nv + 1) * sizeof(double));
  ldsi_free(e, pa->vgen, ((size_t)pa->nv + 1) * sizeof(uint32_t));
  ldsi_free(e, pa->corner, (size_t)pa->nv + 1);
  ldsi_free(e, pa->goalgen, ((size_t)pa->np + 1) * sizeof(uint32_t));
  ldsi_free(e, pa, sizeof *pa);
  s->pa = NULL;
}

static bool allowed(const lds_NavSearch *s, uint32_t p) {
  return p != LDS_NAVMESH_NONE && isfinite(s->cost[s->m->area[p]]);
}

/* A vertex can be a turning point of a taut path only where the allowed
** polygons around it leave an obstacle corner: on their boundary, with more
** than a straight angle of free space around it (summed over its fans, so
** a pinch vertex with two fans may be marked too: a superset is safe). */
static void compute_corners(lds_NavSearch *s) {
  const lds_Navmesh *m = s->m;
  ldsi_Polyanya *pa = s->pa;
  uint32_t p, k;
  double *ang = pa->vbest; /* scratch: vbest is reset per query through vgen */
  for (k = 0; k < pa->nv; k++) ang[k] = 0;
  memset(pa->corner, 0, (size_t)pa->nv + 1);
  for (p = 0; p < m->np; p++) {
    uint32_t st = m->pstart[p], n = m->pstart[p + 1] - st;
    if (!allowed(s, p)) continue;
    for (k = 0; k < n; k++) {
      const double *a = ldsi_nm_v(m, m->pv[st + (k + n - 1) % n]);
      const double *v = ldsi_nm_v(m, m->pv[st + k]);
      const double *b = ldsi_nm_v(m, m->pv[st + (k + 1) % n]);
      double ux = a[0] - v[0], uz = a[2] - v[2], wx = b[0] - v[0], wz = b[2] - v[2];
      ang[m->pv[st + k]] += atan2(fabs(ux * wz - uz * wx), ux * wx + uz * wz);
      if (!allowed(s, m->pn[st + k])) {
        pa->corner[m->pv[st + k]] = 1;
        pa->corner[m->pv[st + (k + 1) % n]] = 1;
      }
    }
  }
  for (k = 0; k < pa->nv; k++)
    if (pa->corner[k] && !(ang[k] > 3.141592653589793 * (1 + 1e-9))) pa->corner[k] = 0;
}

static bool ensure(lds_NavSearch *s) {
  ldsi_Polyanya *pa = s->pa;
  const ldsi_Env *e = &s->env;
  if (pa) return true;
  pa = (ldsi_Polyanya *)ldsi_calloc(e, 1, sizeof *pa);
  if (!pa) return false;
  s->pa = pa;
  pa->nv = s->m->nv;
  pa->np = s->m->np;
  pa->vbest = (double *)ldsi_alloc(e, ((size_t)pa->nv + 1) * sizeof(double));
  pa->vgen = (uint32_t *)ldsi_calloc(e, (size_t)pa->nv + 1, sizeof(uint32_t));
  pa->corner = (uint8_t *)ldsi_alloc(e, (size_t)pa->nv + 1);
  pa->goalgen = (uint32_t *)ldsi_calloc(e, (size_t)pa->np + 1, sizeof(uint32_t));
  if (!pa->vbest || !pa->vgen || !pa->corner || !pa->goalgen) {
    ldsi_polyanya_free(s);
    return false;
  }
  {
    double size = fmax(s->m->bmax[0] - s->m->bmin[0], s->m->bmax[2] - s->m->bmin[2]);
    size = fmax(size, fmax(fabs(s->m->bmin[0]), fabs(s->m->bmax[0])));
    size = fmax(size, fmax(fabs(s->m->bmin[2]), fabs(s->m->bmax[2])));
    if (!(size > 0)) size = 1;
    pa->eps2 = 1e-12 * size * size;
  }
  return true;
}

static bool grow(lds_NavSearch *s, void **p, size_t *cap, size_t need, size_t elem) {
  size_t nc;
  void *q;
  if (need <= *cap) return true;
  nc = *cap ? *cap * 2 : 256;
  while (nc < need) nc *= 2;
  q = ldsi_realloc(&s->env, *p, *cap * elem, nc * elem);
  if (!q) return false;
  *p = q;
  *cap = nc;
  return true;
}

/* ------------------------------------------------------------- heap -- */

static bool hless(const ldsi_NavHeapItem *a, const ldsi_NavHeapItem *b) {
  return a->f < b->f || (a->f == b->f && a->id < b->id);
}

static bool hpush(lds_NavSearch *s, double f, uint32_t id) {
  ldsi_Polyanya *pa = s->pa;
  size_t i;
  if (!grow(s, (void **)&pa->heap, &pa->hcap, pa->hn + 1, sizeof(ldsi_NavHeapItem))) return false;
  i = pa->hn++;
  while (i > 0) {
    size_t up = (i - 1) / 2;
    ldsi_NavHeapItem it;
    it.f = f;
    it.id = id;
    if (!hless(&it, &pa->heap[up])) break;
    pa->heap[i] = pa->heap[up];
    i = up;
  }
  pa->heap[i].f = f;
  pa->heap[i].id = id;
  s->stats.pushes++;
  if (pa->hn > s->stats.peak_open) s->stats.peak_open = pa->hn;
  return true;
}

static uint32_t hpop(lds_NavSearch *s) {
  ldsi_Polyanya *pa = s->pa;
  uint32_t top = pa->heap[0].id;
  ldsi_NavHeapItem last = pa->heap[--pa->hn];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= pa->hn) break;
    if (c + 1 < pa->hn && hless(&pa->heap[c + 1], &pa->heap[c])) c++;
    if (!hless(&pa->heap[c], &last)) break;
    pa->heap[i] = pa->heap[c];
    i = c;
  }
  if (pa->hn) pa->heap[i] = last;
  return top;
}

/* ------------------------------------------------------------ nodes -- */

/* h: shortest root -> interval -> goal in x-z (the goal mirrored across the
** interval's line when it is on the root's side). */
static double heuristic(const lds_NavSearch *s, const PRoot *r, const PNode *n) {
  double tx = s->goal[0], tz = s->goal[2];
  double ex = n->lx - n->rx, ez = n->lz - n->rz;
  double sr = ex * (r->z - n->rz) - ez * (r->x - n->rx);
  double st = ex * (tz - n->rz) - ez * (tx - n->rx);
  double den, u, v;
  if ((sr > 0 && st > 0) || (sr < 0 && st < 0)) { /* same side: mirror */
    double l2 = ex * ex + ez * ez;
    if (l2 > 0) {
      double t = ((tx - n->rx) * ex + (tz - n->rz) * ez) / l2;
      double px = n->rx + t * ex, pz = n->rz + t * ez;
      tx = 2 * px - tx;
      tz = 2 * pz - tz;
    }
  }
  /* does segment root -> goal' cross the interval? */
  {
    double dx = tx - r->x, dz = tz - r->z;
    den = dx * ez - dz * ex;
    if (den != 0) {
      u = ((n->rx - r->x) * ez - (n->rz - r->z) * ex) / den;      /* along root -> goal' */
      v = ((n->rx - r->x) * dz - (n->rz - r->z) * dx) / den;      /* along the interval */
      if (u >= 0 && u <= 1 && v >= 0 && v <= 1) return d2(r->x, r->z, tx, tz);
    }
  }
  return fmin(d2(r->x, r->z, n->lx, n->lz) + d2(n->lx, n->lz, tx, tz),
              d2(r->x, r->z, n->rx, n->rz) + d2(n->rx, n->rz, tx, tz));
}

static bool push_node(lds_NavSearch *s, const PNode *proto) {
  ldsi_Polyanya *pa = s->pa;
  PNode *n;
  if (pa->nn >= 0xFFFFFFF0u) return false;
  if (!grow(s, (void **)&pa->nodes, &pa->ncap, pa->nn + 1, sizeof(PNode))) return false;
  n = &pa->nodes[pa->nn];
  *n = *proto;
  if (!n->final) n->f = n->g + heuristic(s, &pa->roots[n->root], n);
  return hpush(s, n->f, (uint32_t)pa->nn++);
}

static bool new_root(lds_NavSearch *s, double x, double y, double z, double g, uint32_t parent,
                     uint32_t vert, uint32_t *out) {
  ldsi_Polyanya *pa = s->pa;
  PRoot *r;
  if (!grow(s, (void **)&pa->roots, &pa->rcap, pa->nr + 1, sizeof(PRoot))) return false;
  r = &pa->roots[pa->nr];
  r->x = x;
  r->y = y;
  r->z = z;
  r->g = g;
  r->parent = parent;
  r->vert = vert;
  *out = (uint32_t)pa->nr++;
  return true;
}

/* The final node for root rt entering goal polygon p through [R, L]
** (interval NULL: the root is in or on p and sees the goal directly). */
static bool push_final(lds_NavSearch *s, uint32_t rt, const PNode *via) {
  ldsi_Polyanya *pa = s->pa;
  const PRoot *r = &pa->roots[rt];
  PNode n;
  double tx = s->goal[0], tz = s->goal[2];
  memset(&n, 0, sizeof n);
  n.final = 1;
  n.root = rt;
  n.g = r->g;
  n.lv = n.rv = NO_VERT;
  if (!via) {
    n.f = r->g + d2(r->x, r->z, tx, tz);
  } else {
    double cl = (via->lx - r->x) * (tz - r->z) - (via->lz - r->z) * (tx - r->x);
    double cr = (via->rx - r->x) * (tz - r->z) - (via->rz - r->z) * (tx - r->x);
    if (cl <= pa->eps2 && cr >= -pa->eps2) {
      n.f = r->g + d2(r->x, r->z, tx, tz);
    } else if (cl > 0) { /* left of the left ray: round the left end */
      n.lv = 1;
      n.lx = via->lx;
      n.lz = via->lz;
      n.f = r->g + d2(r->x, r->z, n.lx, n.lz) + d2(n.lx, n.lz, tx, tz);
    } else {
      n.lv = 1;
      n.lx = via->rx;
      n.lz = via->rz;
      n.f = r->g + d2(r->x, r->z, n.lx, n.lz) + d2(n.lx, n.lz, tx, tz);
    }
  }
  return push_node(s, &n);
}

/* Nodes rooted at rt on every edge of polygon p that does not touch the
** root's vertex (or, for the start, does not contain the root point). */
static bool root_polygon(lds_NavSearch *s, uint32_t rt, uint32_t p) {
  const lds_Navmesh *m = s->m;
  ldsi_Polyanya *pa = s->pa;
  const PRoot *r = &pa->roots[rt];
  uint32_t st = m->pstart[p], n = m->pstart[p + 1] - st, k;
  double rp[3];
  if (pa->goalgen[p] == pa->gen) return push_final(s, rt, NULL);
  rp[0] = r->x;
  rp[1] = 0;
  rp[2] = r->z;
  for (k = 0; k < n; k++) {
    uint32_t a = m->pv[st + k], b = m->pv[st + (k + 1) % n], q = m->pn[st + k];
    const double *va = ldsi_nm_v(m, a), *vb = ldsi_nm_v(m, b);
    PNode nd;
    uint32_t qs, qn, qk;
    if (!allowed(s, q) || a == r->vert || b == r->vert) continue;
    /* the root must see the edge from inside p (strictly) */
    if (!(ldsi_cross3(va, vb, rp) < -pa->eps2)) continue;
    /* dead end: a polygon whose only allowed neighbour is p, without the goal */
    qs = m->pstart[q];
    qn = m->pstart[q + 1] - qs;
    if (pa->goalgen[q] != pa->gen) {
      uint32_t cnt = 0;
      for (qk = 0; qk < qn; qk++) cnt += allowed(s, m->pn[qs + qk]);
      if (cnt <= 1) continue;
    }
    for (qk = 0; qk < qn; qk++)
      if (m->pv[qs + qk] == b && m->pv[qs + (qk + 1) % qn] == a) break;
    if (qk == qn) continue; /* cannot happen: links are checked at construction */
    memset(&nd, 0, sizeof nd);
    nd.g = r->g;
    nd.root = rt;
    nd.poly = q;
    nd.edge = qk;
    /* in q the edge runs b -> a: right end b, left end a */
    nd.rx = vb[0];
    nd.rz = vb[2];
    nd.rv = b;
    nd.lx = va[0];
    nd.lz = va[2];
    nd.lv = a;
    if (!push_node(s, &nd)) return false;
  }
  return true;
}

/* Roots the search at corner vertex v (reached from root rt of g), in
** polygon p (which holds v): every polygon around v. */
static bool root_at_vertex(lds_NavSearch *s, uint32_t rt, uint32_t v, uint32_t p) {
  const lds_Navmesh *m = s->m;
  ldsi_Polyanya *pa = s->pa;
  const double *vv = ldsi_nm_v(m, v);
  const PRoot *r = &pa->roots[rt];
  double g = r->g + d2(r->x, r->z, vv[0], vv[2]);
  uint32_t nr, nf = 0, head = 0, i;
  if (pa->vgen[v] == pa->gen && g >= pa->vbest[v] - 1e-9 * (1 + g)) return true;
  pa->vgen[v] = pa->gen;
  pa->vbest[v] = g;
  if (!new_root(s, vv[0], vv[1], vv[2], g, rt, v, &nr)) return false;
  pa->fan[nf++] = p;
  while (head < nf) {
    uint32_t f = pa->fan[head++], st = m->pstart[f], n = m->pstart[f + 1] - st, k;
    for (k = 0; k < n; k++) {
      uint32_t a = m->pv[st + k], b = m->pv[st + (k + 1) % n], q = m->pn[st + k];
      bool dup = false;
      if ((a != v && b != v) || !allowed(s, q)) continue;
      for (i = 0; i < nf; i++) dup |= pa->fan[i] == q;
      if (!dup && nf < sizeof pa->fan / sizeof pa->fan[0]) pa->fan[nf++] = q;
    }
  }
  for (i = 0; i < nf; i++)
    if (!root_polygon(s, nr, pa->fan[i])) return false;
  return true;
}

/* Expands node n (a copy: the node array may move). */
static bool expand(lds_NavSearch *s, const PNode *nd) {
  const lds_Navmesh *m = s->m;
  ldsi_Polyanya *pa = s->pa;
  const PRoot *r = &pa->roots[nd->root];
  uint32_t p = nd->poly, st = m->pstart[p], n = m->pstart[p + 1] - st, i;
  double rx = r->x, rz = r->z;
  double Lx = nd->lx - rx, Lz = nd->lz - rz, Rx = nd->rx - rx, Rz = nd->rz - rz;
  uint32_t rt = nd->root, rvert = r->vert;
  /* corners at the ends of the interval: the path may bend there (each call
  ** may add a root record and move the roots array: r is read again after) */
  if (nd->lv != NO_VERT && pa->corner[nd->lv] && nd->lv != rvert)
    if (!root_at_vertex(s, rt, nd->lv, p)) return false;
  if (nd->rv != NO_VERT && pa->corner[nd->rv] && nd->rv != rvert)
    if (!root_at_vertex(s, rt, nd->rv, p)) return false;
  r = &pa->roots[rt]; /* roots may have moved */
  if (pa->goalgen[p] == pa->gen) return push_final(s, rt, nd);
  /* project the cone (root, R..L) onto the far edges of p: edge e = k+1+i
  ** runs from w_i to w_{i+1}, the w going from the left end round to the
  ** right end */
  for (i = 0; i + 1 < n; i++) {
    uint32_t e = (nd->edge + 1 + i) % n, a = m->pv[st + e], b = m->pv[st + (e + 1) % n];
    uint32_t q = m->pn[st + e], qs, qn, qk;
    const double *va = ldsi_nm_v(m, a), *vb = ldsi_nm_v(m, b);
    double ax = va[0] - rx, az = va[2] - rz, bx = vb[0] - rx, bz = vb[2] - rz;
    /* left constraint: cross(L, p) <= 0; right: cross(R, p) >= 0; p = a + t (b - a) */
    double cla = Lx * az - Lz * ax, clb = Lx * bz - Lz * bx;
    double cra = Rx * az - Rz * ax, crb = Rx * bz - Rz * bx;
    double t0 = 0, t1 = 1;
    PNode sn;
    if (!allowed(s, q)) continue;
    if (cla > pa->eps2 && clb > pa->eps2) continue; /* all left of the cone */
    if (cra < -pa->eps2 && crb < -pa->eps2) continue; /* all right of the cone */
    if (cla > pa->eps2) t0 = fmax(t0, cla / (cla - clb));
    else if (clb > pa->eps2) t1 = fmin(t1, cla / (cla - clb));
    if (cra < -pa->eps2) t0 = fmax(t0, cra / (cra - crb));
    else if (crb < -pa->eps2) t1 = fmin(t1, cra / (cra - crb));
    if (!(t1 - t0 > 1e-12)) continue;
    /* the root must see the edge from its inner side */
    if (!(ax * bz - az * bx < 0)) continue;
    qs = m->pstart[q];
    qn = m->pstart[q + 1] - qs;
    if (pa->goalgen[q] != pa->gen) {
      uint32_t cnt = 0;
      for (qk = 0; qk < qn; qk++) cnt += allowed(s, m->pn[qs + qk]);
      if (cnt <= 1) continue; /* dead end */
    }
    for (qk = 0; qk < qn; qk++)
      if (m->pv[qs + qk] == b && m->pv[qs + (qk + 1) % qn] == a) break;
    if (qk == qn) continue;
    memset(&sn, 0, sizeof sn);
    sn.g = r->g;
    sn.root = rt;
    sn.poly = q;
    sn.edge = qk;
    /* seen from the root, a is the left end of this edge, b the right */
    if (t0 <= 1e-12) {
      sn.lx = va[0];
      sn.lz = va[2];
      sn.lv = a;
    } else {
      sn.lx = va[0] + t0 * (vb[0] - va[0]);
      sn.lz = va[2] + t0 * (vb[2] - va[2]);
      sn.lv = NO_VERT;
    }
    if (t1 >= 1 - 1e-12) {
      sn.rx = vb[0];
      sn.rz = vb[2];
      sn.rv = b;
    } else {
      sn.rx = va[0] + t1 * (vb[0] - va[0]);
      sn.rz = va[2] + t1 * (vb[2] - va[2]);
      sn.rv = NO_VERT;
    }
    if (!push_node(s, &sn)) return false;
  }
  return true;
}

/* ------------------------------------------------------------ start -- */

/* Polygons holding point x: BFS from p over edges through x. */
static uint32_t polys_at(const lds_NavSearch *s, uint32_t p, const double *x, uint32_t *out,
                         uint32_t cap) {
  const lds_Navmesh *m = s->m;
  uint32_t n = 0, head = 0;
  out[n++] = p;
  while (head < n) {
    uint32_t f = out[head++], st = m->pstart[f], nk = m->pstart[f + 1] - st, k, i;
    for (k = 0; k < nk; k++) {
      uint32_t q = m->pn[st + k];
      const double *a = ldsi_nm_v(m, m->pv[st + k]), *b = ldsi_nm_v(m, m->pv[st + (k + 1) % nk]);
      double ex = b[0] - a[0], ez = b[2] - a[2], l2 = ex * ex + ez * ez, t, px, pz;
      bool dup = false;
      if (!allowed(s, q)) continue;
      t = l2 > 0 ? ((x[0] - a[0]) * ex + (x[2] - a[2]) * ez) / l2 : 0;
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      px = a[0] + t * ex - x[0];
      pz = a[2] + t * ez - x[2];
      if (px * px + pz * pz > 1e-18 * (1 + l2)) continue;
      for (i = 0; i < n; i++) dup |= out[i] == q;
      if (!dup && n < cap) out[n++] = q;
    }
  }
  return n;
}

lds_Status ldsi_polyanya_start(lds_NavSearch *s) {
  ldsi_Polyanya *pa;
  uint32_t around[256], n, i, rt;
  bool blocked = false;
  if (!ensure(s)) {
    snprintf(s->msg, sizeof s->msg, "lds_navsearch_start: out of memory (optimal search)");
    s->started = false;
    return s->status = LDS_E_NOMEM;
  }
  pa = s->pa;
  for (i = 0; i < s->m->np && !blocked; i++) blocked = !allowed(s, i);
  if (blocked || !pa->corner_static) {
    compute_corners(s);
    pa->corner_static = !blocked;
  }
  if (++pa->gen == 0) {
    memset(pa->vgen, 0, ((size_t)pa->nv + 1) * sizeof(uint32_t));
    memset(pa->goalgen, 0, ((size_t)pa->np + 1) * sizeof(uint32_t));
    pa->gen = 1;
  }
  pa->nn = pa->nr = pa->hn = 0;
  n = polys_at(s, s->gp, s->goal, around, 256);
  for (i = 0; i < n; i++) pa->goalgen[around[i]] = pa->gen;
  if (!new_root(s, s->start[0], s->start[1], s->start[2], 0, NO_VERT, NO_VERT, &rt)) goto nomem;
  n = polys_at(s, s->sp, s->start, around, 256);
  for (i = 0; i < n; i++)
    if (!root_polygon(s, rt, around[i])) goto nomem;
  return LDS_RUNNING;
nomem:
  snprintf(s->msg, sizeof s->msg, "lds_navsearch_start: out of memory (optimal search)");
  s->started = false;
  return s->status = LDS_E_NOMEM;
}

static lds_Status build(lds_NavSearch *s, const PNode *fin) {
  ldsi_Polyanya *pa = s->pa;
  size_t cnt = 0, i;
  uint32_t r;
  double via[3];
  s->npts = 0;
  for (r = fin->root; r != NO_VERT; r = pa->roots[r].parent) cnt++;
  /* roots from the goal back: reverse into the points array */
  if (!ldsi_nav_push_point(s, s->goal)) return LDS_E_NOMEM;
  if (fin->lv != NO_VERT) { /* the final turn at an interval end */
    via[0] = fin->lx;
    via[2] = fin->lz;
    via[1] = s->goal[1];
    {
      uint32_t p = lds_navmesh_locate(s->m, via[0], s->goal[1], via[2], -1);
      if (p != LDS_NAVMESH_NONE) via[1] = lds_navmesh_poly_height(s->m, p, via[0], via[2]);
    }
    if (!ldsi_nav_push_point(s, via)) return LDS_E_NOMEM;
  }
  for (r = fin->root; r != NO_VERT; r = pa->roots[r].parent) {
    double p[3];
    p[0] = pa->roots[r].x;
    p[1] = pa->roots[r].y;
    p[2] = pa->roots[r].z;
    if (pa->roots[r].parent == NO_VERT) memcpy(p, s->start, sizeof p);
    if (!ldsi_nav_push_point(s, p)) return LDS_E_NOMEM;
  }
  (void)cnt;
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

lds_Status ldsi_polyanya_step(lds_NavSearch *s, uint64_t max_exp, uint64_t budget_us,
                              uint64_t t0) {
  ldsi_Polyanya *pa = s->pa;
  uint64_t n = 0;
  while (pa->hn) {
    uint32_t id;
    PNode nd;
    if (max_exp && n >= max_exp) return LDS_RUNNING;
    if (budget_us && n && (n & 63) == 0 && s->env.clock(s->env.clock_ud) - t0 >= budget_us)
      return LDS_RUNNING;
    id = hpop(s);
    nd = pa->nodes[id];
    n++;
    s->stats.expansions++;
    if (nd.final) {
      lds_Status st = build(s, &nd);
      if (st != LDS_OK) {
        snprintf(s->msg, sizeof s->msg, "lds_navsearch_step: out of memory building the path");
        return LDS_E_NOMEM;
      }
      return LDS_FOUND;
    }
    {
      const PRoot *r = &pa->roots[nd.root];
      if (r->vert != NO_VERT && pa->vgen[r->vert] == pa->gen &&
          r->g > pa->vbest[r->vert] + 1e-9 * (1 + r->g))
        continue; /* the root was reached more cheaply since */
    }
    if (!expand(s, &nd)) {
      snprintf(s->msg, sizeof s->msg, "lds_navsearch_step: out of memory (%zu nodes)", pa->nn);
      return LDS_E_NOMEM;
    }
  }
  return LDS_NO_PATH;
}
