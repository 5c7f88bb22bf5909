/* SPDX-License-Identifier: MIT */
/*
** lds_navmesh_landmarks.c — landmark lower bounds for the navmesh searches
** (lds_navmesh_landmarks.h): picking the landmarks, their tables, and the
** goal's bounds.
*/
#include "lds_navmesh_landmarks.h"
#include "lds_navmesh_merge_internal.h"

#include <float.h>
#include <string.h>

typedef struct LmItem {
  double d;
  uint32_t k;
} LmItem;

static double seg_len(const ldsi_NavEdge *E) { return sqrt(E->ex * E->ex + E->ez * E->ez); }

static double mid_dist(const ldsi_NavEdge *A, const ldsi_NavEdge *B) {
  double dx = 0.5 * (A->a[0] + A->b[0] - B->a[0] - B->b[0]);
  double dz = 0.5 * (A->a[2] + A->b[2] - B->a[2] - B->b[2]);
  return sqrt(dx * dx + dz * dz);
}

/* Binary heap of (d, k), ties to the smaller k (deterministic). */
static bool item_less(const LmItem *a, const LmItem *b) { return a->d < b->d || (a->d == b->d && a->k < b->k); }

static void hpush(LmItem *h, size_t *n, double d, uint32_t k) {
  size_t i = (*n)++;
  LmItem it;
  it.d = d;
  it.k = k;
  while (i > 0 && item_less(&it, &h[(i - 1) / 2])) {
    h[i] = h[(i - 1) / 2];
    i = (i - 1) / 2;
  }
  h[i] = it;
}

static LmItem hpop(LmItem *h, size_t *n) {
  LmItem top = h[0], last = h[--(*n)];
  size_t i = 0;
  for (;;) {
    size_t c = 2 * i + 1;
    if (c >= *n) break;
    if (c + 1 < *n && item_less(&h[c + 1], &h[c])) c++;
    if (!item_less(&h[c], &last)) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = last;
  return top;
}

/* Dijkstra over the half-edges' midpoints from point (lx, lz) in polygon
** P, straight through each convex polygon: d[k] the length of a real path
** to half-edge k's midpoint (INFINITY where unreached). Picks landmarks
** only (an upper bound is enough to spread them). heap: room for every
** relaxation (hcap). */
static void midpoint_paths(const uint32_t *start, const ldsi_NavEdge *adj, uint32_t ne, uint32_t P,
                           double lx, double lz, double *d, LmItem *heap, size_t hcap) {
  size_t n = 0;
  uint32_t k;
  for (k = 0; k < ne; k++) d[k] = INFINITY;
  for (k = start[P]; k < start[P + 1]; k++) {
    const ldsi_NavEdge *E = &adj[k];
    double dx = 0.5 * (E->a[0] + E->b[0]) - lx, dz = 0.5 * (E->a[2] + E->b[2]) - lz;
    d[k] = sqrt(dx * dx + dz * dz);
    hpush(heap, &n, d[k], k);
  }
  while (n) {
    LmItem it = hpop(heap, &n);
    const ldsi_NavEdge *E = &adj[it.k];
    uint32_t Q = E->to, j;
    if (it.d > d[it.k]) continue;
    for (j = start[Q]; j < start[Q + 1]; j++) {
      double x = it.d + mid_dist(E, &adj[j]);
      if (x < d[j] && n < hcap) {
        d[j] = x;
        hpush(heap, &n, x, j);
      }
    }
  }
}

static float round_down(double x) {
  float f;
  if (!(x < (double)FLT_MAX)) return FLT_MAX;
  f = (float)x;
  if ((double)f > x) f = nextafterf(f, -INFINITY);
  return f;
}

static float round_up(double x) {
  float f;
  if (!(x < (double)FLT_MAX)) return FLT_MAX;
  f = (float)x;
  if ((double)f < x) f = nextafterf(f, INFINITY);
  return f;
}

ldsi_NavLandmarks *ldsi_navlm_build(lds_NavSearch *s) {
  const ldsi_Env *e = &s->env;
  ldsi_NavLandmarks *lm;
  const lds_Navmesh *m = s->m;
  const ldsi_MergedMesh *mm = s->fmm;
  const uint32_t np = mm->np, *start = s->mstart, ne = start[np];
  const ldsi_NavEdge *adj = s->madj;
  const uint32_t npieces = m->npieces;
  double *cxz = NULL, *dmid = NULL, *far = NULL, *dv = NULL, scale = 0;
  LmItem *heap = NULL;
  uint32_t *cnt = NULL, P, k, i, best_piece = 0, cur;
  uint64_t pops;
  size_t hcap = (size_t)ne + 1;
  bool ok = false;
  if (np < s->lm_min_polys || ne == 0 || npieces == 0) return NULL;
  lm = (ldsi_NavLandmarks *)ldsi_alloc(e, sizeof *lm);
  if (!lm) return NULL;
  memset(lm, 0, sizeof *lm);
  lm->env = *e;
  lm->refs = 1;
  lm->np = np;
  /* every relaxation pushes at most once: sum over polygons of in * out */
  for (P = 0; P < np; P++) {
    size_t r = start[P + 1] - start[P];
    hcap += r * r;
  }
  /* polygons with many portals each (a grid's cells merged into rows of
  ** squares): picking landmarks alone would cost seconds, and their
  ** exhaustive searches pass the budget below anyway */
  if (hcap > LDSI_NAV_LM_RELAX_PER_PORTAL * (size_t)ne + 1) {
    ldsi_free(e, lm, sizeof *lm);
    return NULL;
  }
  cxz = (double *)ldsi_alloc(e, 2 * (size_t)np * sizeof *cxz);
  dmid = (double *)ldsi_alloc(e, (size_t)ne * sizeof *dmid);
  far = (double *)ldsi_alloc(e, (size_t)np * sizeof *far);
  dv = (double *)ldsi_alloc(e, ((size_t)m->nv + 1) * sizeof *dv);
  heap = (LmItem *)ldsi_alloc(e, hcap * sizeof *heap);
  cnt = (uint32_t *)ldsi_alloc(e, (size_t)npieces * sizeof *cnt);
  lm->tab = (float *)ldsi_alloc(e, (size_t)ne * 2 * LDSI_NAV_LM_MAX * sizeof(float));
  lm->vd = (double *)ldsi_alloc(e, (size_t)m->nv * LDSI_NAV_LM_MAX * sizeof(double));
  lm->kslot = (uint32_t *)ldsi_alloc(e, ((size_t)mm->pstart[np] + 1) * sizeof *lm->kslot);
  lm->pstart = (uint32_t *)ldsi_alloc(e, ((size_t)np + 1) * sizeof *lm->pstart);
  lm->pv = (uint32_t *)ldsi_alloc(e, ((size_t)mm->pstart[np] + 1) * sizeof *lm->pv);
  lm->ne = ne;
  lm->nv = m->nv;
  lm->nslot = mm->pstart[np];
  if (!cxz || !dmid || !far || !dv || !heap || !cnt || !lm->tab || !lm->vd || !lm->kslot || !lm->pstart || !lm->pv)
    goto done;
  memcpy(lm->pstart, mm->pstart, ((size_t)np + 1) * sizeof *lm->pstart);
  memcpy(lm->pv, mm->pv, (size_t)mm->pstart[np] * sizeof *lm->pv);
  /* centroids (x-z; strictly inside each convex polygon) */
  for (P = 0; P < np; P++) {
    uint32_t a = mm->pstart[P], n = mm->pstart[P + 1] - a;
    double x = 0, z = 0;
    for (k = 0; k < n; k++) {
      const double *v = ldsi_nm_v(m, mm->pv[a + k]);
      x += v[0];
      z += v[2];
      scale = fmax(scale, fabs(v[0]) + fabs(v[2]));
    }
    cxz[2 * P] = x / n;
    cxz[2 * P + 1] = z / n;
  }
  /* a shortest path visits a vertex at most once and each of its segments
  ** is at most 2 * scale long: distances stay far below FLT_MAX (the float
  ** tables' sentinel), or the mesh gets no tables */
  if (!(2 * scale * ((double)m->nv + 2) < 1e37)) goto done;
  /* the seed: the first polygon of the piece with the most polygons */
  memset(cnt, 0, (size_t)npieces * sizeof *cnt);
  for (P = 0; P < m->np; P++) cnt[m->piece[P]]++;
  for (i = 1; i < npieces; i++)
    if (cnt[i] > cnt[best_piece]) best_piece = i;
  for (P = 0; m->piece[P] != best_piece; P++) {
  }
  cur = mm->pmap[P];
  /* landmark i: the polygon farthest from those before (for the first,
  ** from the seed), by the least midpoint-path length */
  for (i = 0;; i++) {
    uint32_t next = LDS_NAVMESH_NONE, j;
    double bestd = 0;
    if (i > 0) {
      lm->lp[i - 1] = cur;
      lm->lx[i - 1] = cxz[2 * cur];
      lm->lz[i - 1] = cxz[2 * cur + 1];
      lm->nl = i;
      if (i == LDSI_NAV_LM_MAX) break;
    }
    midpoint_paths(start, adj, ne, cur, cxz[2 * cur], cxz[2 * cur + 1], dmid, heap, hcap);
    for (P = 0; P < np; P++) {
      double dp = P == cur ? 0 : INFINITY;
      for (k = start[P]; k < start[P + 1]; k++) dp = fmin(dp, dmid[k]);
      far[P] = i <= 1 ? dp : fmin(far[P], dp);
    }
    for (P = 0; P < np; P++) {
      bool used = false;
      if (!(far[P] > bestd) || !isfinite(far[P])) continue;
      for (j = 0; j + 1 <= lm->nl && !used; j++) used = lm->lp[j] == P;
      if (used) continue;
      bestd = far[P];
      next = P;
    }
    if (next == LDS_NAVMESH_NONE) break; /* every polygon of the piece is a landmark */
    cur = next;
  }
  /* the exact distances to every vertex */
  pops = LDSI_NAV_LM_POPS_PER_VERTEX * (uint64_t)m->nv + LDSI_NAV_LM_POPS_MIN;
  for (i = 0; i < lm->nl; i++) {
    uint32_t v;
    if (!ldsi_polyanya_distances(s, lm->lp[i], lm->lx[i], lm->lz[i], dv, &pops)) goto done;
    for (v = 0; v < m->nv; v++) lm->vd[(size_t)v * LDSI_NAV_LM_MAX + i] = dv[v];
  }
  /* a vertex where two or more fans of polygons meet (a pinch: each open
  ** fan has one boundary edge leaving the vertex) is passed by no path, so
  ** D there says nothing about the points beside it on one fan: its
  ** distances are not used (INFINITY in dv's place below) */
  for (k = 0; k < m->nv; k++) dv[k] = 0;
  for (P = 0; P < np; P++) {
    uint32_t a = mm->pstart[P], n = mm->pstart[P + 1] - a, j;
    for (j = 0; j < n; j++)
      if (mm->pn[a + j] == LDS_NAVMESH_NONE) dv[mm->pv[a + j]] += 1;
  }
  for (k = 0; k < m->nv; k++)
    if (dv[k] >= 2)
      for (i = 0; i < lm->nl; i++) lm->vd[(size_t)k * LDSI_NAV_LM_MAX + i] = NAN;
  /* the portals' bounds, in the order of s->madj (the partition's shared
  ** edges, polygon by polygon); an end at a pinch: the other end alone */
  for (P = 0, k = 0; P < np; P++) {
    uint32_t a = mm->pstart[P], n = mm->pstart[P + 1] - a, j;
    for (j = 0; j < n; j++) {
      const uint32_t va = mm->pv[a + j], vb = mm->pv[a + (j + 1) % n];
      float *t;
      double len;
      if (mm->pn[a + j] == LDS_NAVMESH_NONE) {
        lm->kslot[a + j] = LDS_NAVMESH_NONE;
        continue;
      }
      lm->kslot[a + j] = k;
      t = lm->tab + (size_t)k * (2 * LDSI_NAV_LM_MAX);
      len = seg_len(&adj[k]);
      for (i = 0; i < LDSI_NAV_LM_MAX; i++) {
        if (i < lm->nl) {
          double da = lm->vd[(size_t)va * LDSI_NAV_LM_MAX + i], db = lm->vd[(size_t)vb * LDSI_NAV_LM_MAX + i];
          if (da == da && db == db) {
            t[i] = round_down(0.5 * (da + db - len));
            t[LDSI_NAV_LM_MAX + i] = round_up(0.5 * (da + db + len));
          } else if (da == da || db == db) {
            double d = da == da ? da : db;
            t[i] = round_down(d - len);
            t[LDSI_NAV_LM_MAX + i] = round_up(d + len);
          } else {
            t[i] = 0;
            t[LDSI_NAV_LM_MAX + i] = FLT_MAX;
          }
        } else { /* an unused column never binds */
          t[i] = 0;
          t[LDSI_NAV_LM_MAX + i] = FLT_MAX;
        }
      }
      k++;
    }
  }
  lm->m = m;
  /* the sums above round at about 1e-16 of the mesh's size a step */
  lm->margin = 1e-9 * (1 + scale);
  ok = true;
done:
  ldsi_free(e, cxz, 2 * (size_t)np * sizeof *cxz);
  ldsi_free(e, dmid, (size_t)ne * sizeof *dmid);
  ldsi_free(e, far, (size_t)np * sizeof *far);
  ldsi_free(e, dv, ((size_t)m->nv + 1) * sizeof *dv);
  ldsi_free(e, heap, hcap * sizeof *heap);
  ldsi_free(e, cnt, (size_t)npieces * sizeof *cnt);
  if (!ok || lm->nl == 0) {
    ldsi_navlm_release(lm);
    return NULL;
  }
  return lm;
}

void ldsi_navlm_release(ldsi_NavLandmarks *lm) {
  ldsi_Env e;
  if (!lm || --lm->refs > 0) return;
  e = lm->env;
  ldsi_free(&e, lm->tab, (size_t)lm->ne * 2 * LDSI_NAV_LM_MAX * sizeof(float));
  ldsi_free(&e, lm->vd, (size_t)lm->nv * LDSI_NAV_LM_MAX * sizeof(double));
  ldsi_free(&e, lm->kslot, ((size_t)lm->nslot + 1) * sizeof *lm->kslot);
  ldsi_free(&e, lm->pstart, ((size_t)lm->np + 1) * sizeof *lm->pstart);
  ldsi_free(&e, lm->pv, ((size_t)lm->nslot + 1) * sizeof *lm->pv);
  ldsi_free(&e, lm, sizeof *lm);
}

void ldsi_navlm_goal_bounds(const ldsi_NavLandmarks *lm, ldsi_NavLmGoal *g) {
  const uint32_t G = g->gpoly, j0 = lm->pstart[G], n = lm->pstart[G + 1] - j0;
  const double *t = g->gt;
  double lo[LDSI_NAV_LM_MAX], hi[LDSI_NAV_LM_MAX];
  uint32_t i, j;
  g->pending = false;
  g->goal_set = false;
  for (i = 0; i < lm->nl; i++) lo[i] = 0, hi[i] = INFINITY;
  /* the segment from a vertex v of convex G to t lies in G: D(v) - |vt|
  ** and D(v) + |vt| bound the distance to t */
  for (j = 0; j < n; j++) {
    const uint32_t v = lm->pv[j0 + j];
    const double *p = ldsi_nm_v(lm->m, v), *d = lm->vd + (size_t)v * LDSI_NAV_LM_MAX;
    const double dx = p[0] - t[0], dz = p[2] - t[2], r = sqrt(dx * dx + dz * dz);
    for (i = 0; i < lm->nl; i++) { /* NaN (a pinch) compares false: unused */
      if (d[i] - r > lo[i]) lo[i] = d[i] - r;
      if (d[i] + r < hi[i]) hi[i] = d[i] + r;
    }
  }
  for (i = 0; i < lm->nl; i++) {
    if (G == lm->lp[i]) { /* the landmark sees t */
      double dx = t[0] - lm->lx[i], dz = t[2] - lm->lz[i];
      lo[i] = hi[i] = sqrt(dx * dx + dz * dz);
    }
    if (!isfinite(lo[i]) || !isfinite(hi[i])) {
      g->glo[i] = -INFINITY;
      g->ghi[i] = INFINITY;
      continue;
    }
    g->glo[i] = lo[i];
    g->ghi[i] = hi[i];
    g->goal_set = true;
  }
}
