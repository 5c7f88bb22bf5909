/* SPDX-License-Identifier: MIT */
/*
** lds_navmesh.c — the navigation mesh object: validation of the arrays,
** canonical winding, neighbour links, connected pieces, the bucket grid for
** point location, locate / nearest / height.
*/
#include "lds_navmesh_internal.h"

#include <stdlib.h>
#include <string.h>

#define FN "lds_navmesh_new"

typedef struct EdgeRec {
  uint64_t key; /* (from << 32) | to */
  uint32_t poly, k;
} EdgeRec;

static int edge_cmp(const void *a, const void *b) {
  const EdgeRec *x = (const EdgeRec *)a, *y = (const EdgeRec *)b;
  if (x->key != y->key) return x->key < y->key ? -1 : 1;
  if (x->poly != y->poly) return x->poly < y->poly ? -1 : 1;
  return x->k < y->k ? -1 : (x->k > y->k);
}

static const EdgeRec *edge_find(const EdgeRec *e, size_t n, uint64_t key) {
  size_t lo = 0, hi = n;
  while (lo < hi) {
    size_t mid = lo + (hi - lo) / 2;
    if (e[mid].key < key) lo = mid + 1; else hi = mid;
  }
  return lo < n && e[lo].key == key ? &e[lo] : NULL;
}

void lds_navmesh_free(lds_Navmesh *m) {
  const ldsi_Env *e;
  size_t ni;
  if (!m) return;
  e = &m->env;
  ni = m->ni;
  /* every array has one spare entry, so empty meshes allocate too */
  ldsi_free(e, m->v, (3 * (size_t)m->nv + 1) * sizeof(double));
  ldsi_free(e, m->pv, (ni + 1) * sizeof(uint32_t));
  ldsi_free(e, m->pn, (ni + 1) * sizeof(uint32_t));
  ldsi_free(e, m->pstart, ((size_t)m->np + 1) * sizeof(uint32_t));
  ldsi_free(e, m->area, (size_t)m->np + 1);
  ldsi_free(e, m->pbox, (4 * (size_t)m->np + 1) * sizeof(double));
  ldsi_free(e, m->piece, ((size_t)m->np + 1) * sizeof(uint32_t));
  if (m->goff) {
    ldsi_free(e, m->gidx, ((size_t)m->goff[(size_t)m->gw * m->gh] + 1) * sizeof(uint32_t));
    ldsi_free(e, m->goff, ((size_t)m->gw * m->gh + 1) * sizeof(uint32_t));
  }
  ldsi_free(e, m, sizeof *m);
}

/* Checks one polygon's shape (vertex indices already in range); reverses it
** to the canonical winding. nb may be NULL. */
static lds_Status check_poly(lds_Navmesh *m, uint32_t p, lds_Error *err) {
  uint32_t s = m->pstart[p], n = m->pstart[p + 1] - s, i, j;
  uint32_t *iv = m->pv + s, *in = m->pn + s;
  double area = 0, tol, sc = 1e-9 / m->eps; /* 1 / the mesh's size */
  const double *o = ldsi_nm_v(m, iv[0]);
  for (i = 0; i < n; i++)
    for (j = i + 1; j < n; j++)
      if (iv[i] == iv[j])
        return ldsi_error(err, LDS_E_ARG, FN ": polygon %u: vertex %u repeated", p, iv[i]);
  for (i = 0; i < n; i++) {
    const double *a = ldsi_nm_v(m, iv[i]), *b = ldsi_nm_v(m, iv[(i + 1) % n]);
    /* the shoelace sum in units of the mesh's size, around vertex 0: no
    ** overflow for the largest coordinates, no underflow for tiny meshes */
    double ax = (a[0] - o[0]) * sc, az = (a[2] - o[2]) * sc;
    double bx = (b[0] - o[0]) * sc, bz = (b[2] - o[2]) * sc;
    area += ax * bz - bx * az;
    if (fabs(a[0] - b[0]) <= m->eps && fabs(a[2] - b[2]) <= m->eps)
      return ldsi_error(err, LDS_E_ARG,
                        FN ": polygon %u: degenerate (edge %u from vertex %u to %u has zero "
                        "length in x-z)", p, i, iv[i], iv[(i + 1) % n]);
  }
  /* |area| > eps^2 in world units, i.e. 1e-18 in units of the size */
  if (!(fabs(area) > 1e-18))
    return ldsi_error(err, LDS_E_ARG, FN ": polygon %u: degenerate (zero area in x-z)", p);
  if (area > 0) { /* reverse: vertex k <- n-k, neighbour k <- n-k-1 */
    uint32_t tv[LDS_NAVMESH_MAX_POLY_VERTS], tn[LDS_NAVMESH_MAX_POLY_VERTS];
    for (i = 0; i < n; i++) {
      tv[i] = iv[(n - i) % n];
      tn[i] = in[(2 * n - i - 1) % n];
    }
    memcpy(iv, tv, n * sizeof *iv);
    memcpy(in, tn, n * sizeof *in);
  }
  /* convex: every vertex on the inner side (right, canonical) of every edge */
  for (i = 0; i < n; i++) {
    const double *a = ldsi_nm_v(m, iv[i]), *b = ldsi_nm_v(m, iv[(i + 1) % n]);
    double len = hypot(b[0] - a[0], b[2] - a[2]);
    tol = 1e-9 * len * (m->eps * 1e9);
    for (j = 0; j < n; j++) {
      if (j == i || j == (i + 1) % n) continue;
      if (ldsi_cross3(a, b, ldsi_nm_v(m, iv[j])) > tol)
        return ldsi_error(err, LDS_E_ARG,
                          FN ": polygon %u: not convex (vertex %u lies outside edge %u-%u; "
                          "expected a convex polygon in x-z)", p, iv[j], iv[i], iv[(i + 1) % n]);
    }
  }
  return LDS_OK;
}

static lds_Status link_neighbours(lds_Navmesh *m, bool given, lds_Error *err) {
  size_t ni = m->pstart[m->np], i;
  EdgeRec *e = (EdgeRec *)ldsi_alloc(&m->env, (ni ? ni : 1) * sizeof *e);
  lds_Status st = LDS_OK;
  uint32_t p;
  if (!e) return ldsi_error(err, LDS_E_NOMEM, FN ": out of memory (%zu edges)", ni);
  for (p = 0; p < m->np; p++) {
    uint32_t s = m->pstart[p], n = m->pstart[p + 1] - s, k;
    for (k = 0; k < n; k++) {
      uint32_t a = m->pv[s + k], b = m->pv[s + (k + 1) % n];
      e[s + k].key = ((uint64_t)a << 32) | b;
      e[s + k].poly = p;
      e[s + k].k = k;
    }
  }
  qsort(e, ni, sizeof *e, edge_cmp);
  for (i = 0; i + 1 < ni; i++)
    if (e[i].key == e[i + 1].key) {
      st = ldsi_error(err, LDS_E_ARG,
                      FN ": edge %u-%u is used by polygons %u and %u in the same direction "
                      "(overlapping polygons or an edge shared by more than two)",
                      (unsigned)(e[i].key >> 32), (unsigned)(e[i].key & 0xffffffffu), e[i].poly,
                      e[i + 1].poly);
      goto done;
    }
  for (p = 0; p < m->np && st == LDS_OK; p++) {
    uint32_t s = m->pstart[p], n = m->pstart[p + 1] - s, k;
    for (k = 0; k < n; k++) {
      uint32_t a = m->pv[s + k], b = m->pv[s + (k + 1) % n];
      const EdgeRec *r = edge_find(e, ni, ((uint64_t)b << 32) | a);
      uint32_t q = m->pn[s + k];
      if (!given) {
        m->pn[s + k] = r ? r->poly : LDS_NAVMESH_NONE;
        continue;
      }
      if (q == LDS_NAVMESH_NONE) continue;
      if (q >= m->np) {
        st = ldsi_error(err, LDS_E_ARG,
                        FN ": polygon %u edge %u: neighbour %u out of range (expected 0..%u or "
                        "none)", p, k, q, m->np - 1);
        break;
      }
      if (!r || r->poly != q || m->pn[m->pstart[q] + r->k] != p) {
        st = ldsi_error(err, LDS_E_ARG,
                        FN ": polygon %u edge %u (vertices %u-%u): neighbour %u does not link "
                        "back across the same edge", p, k, a, b, q);
        break;
      }
    }
  }
done:
  ldsi_free(&m->env, e, (ni ? ni : 1) * sizeof *e);
  return st;
}

static lds_Status build_pieces(lds_Navmesh *m, lds_Error *err) {
  uint32_t *stack, p, top;
  m->piece = (uint32_t *)ldsi_alloc(&m->env, ((size_t)m->np + 1) * sizeof(uint32_t));
  stack = (uint32_t *)ldsi_alloc(&m->env, ((size_t)m->np + 1) * sizeof(uint32_t));
  if (!m->piece || !stack) {
    ldsi_free(&m->env, stack, ((size_t)m->np + 1) * sizeof(uint32_t));
    return ldsi_error(err, LDS_E_NOMEM, FN ": out of memory (pieces)");
  }
  for (p = 0; p < m->np; p++) m->piece[p] = LDS_NAVMESH_NONE;
  m->npieces = 0;
  for (p = 0; p < m->np; p++) {
    if (m->piece[p] != LDS_NAVMESH_NONE) continue;
    top = 0;
    stack[top++] = p;
    m->piece[p] = m->npieces;
    while (top) {
      uint32_t q = stack[--top], k;
      for (k = m->pstart[q]; k < m->pstart[q + 1]; k++) {
        uint32_t r = m->pn[k];
        if (r != LDS_NAVMESH_NONE && m->piece[r] == LDS_NAVMESH_NONE) {
          m->piece[r] = m->npieces;
          stack[top++] = r;
        }
      }
    }
    m->npieces++;
  }
  ldsi_free(&m->env, stack, ((size_t)m->np + 1) * sizeof(uint32_t));
  return LDS_OK;
}

static void cell_range(const lds_Navmesh *m, double x0, double z0, double x1, double z1,
                       uint32_t *cx0, uint32_t *cz0, uint32_t *cx1, uint32_t *cz1) {
  double a = floor((x0 - m->gx0) / m->gcell), b = floor((z0 - m->gz0) / m->gcell);
  double c = floor((x1 - m->gx0) / m->gcell), d = floor((z1 - m->gz0) / m->gcell);
  double w = (double)m->gw - 1, h = (double)m->gh - 1;
  *cx0 = (uint32_t)(a < 0 ? 0 : a > w ? w : a);
  *cz0 = (uint32_t)(b < 0 ? 0 : b > h ? h : b);
  *cx1 = (uint32_t)(c < 0 ? 0 : c > w ? w : c);
  *cz1 = (uint32_t)(d < 0 ? 0 : d > h ? h : d);
}

/* The first index entry of the grid cell holding (x, z) (cell_range of
** the point), its end in *end. */
static inline uint32_t cell_bucket(const lds_Navmesh *m, double x, double z, uint32_t *end) {
  double a = floor((x - m->gx0) / m->gcell), b = floor((z - m->gz0) / m->gcell);
  double w = (double)m->gw - 1, h = (double)m->gh - 1;
  size_t c = (size_t)(uint32_t)(b < 0 ? 0 : b > h ? h : b) * m->gw + (uint32_t)(a < 0 ? 0 : a > w ? w : a);
  *end = m->goff[c + 1];
  return m->goff[c];
}

static lds_Status build_index(lds_Navmesh *m, lds_Error *err) {
  double sx = m->bmax[0] - m->bmin[0], sz = m->bmax[2] - m->bmin[2], cell;
  size_t ncell, total = 0, i;
  uint32_t p, x, z;
  if (sx <= 0) sx = 1;
  if (sz <= 0) sz = 1;
  cell = sqrt(sx * sz / (m->np ? m->np : 1));
  if (!(cell > 0)) cell = 1;
  m->gcell = cell;
  m->gx0 = m->bmin[0];
  m->gz0 = m->bmin[2];
  m->gw = (uint32_t)fmin(1024.0, floor(sx / cell) + 1);
  m->gh = (uint32_t)fmin(1024.0, floor(sz / cell) + 1);
  m->gcell = fmax(sx / (m->gw - 0.5), sz / (m->gh - 0.5));
  if (m->gw > 1 && sx / m->gcell < m->gw - 1) m->gw = (uint32_t)(sx / m->gcell) + 1;
  if (m->gh > 1 && sz / m->gcell < m->gh - 1) m->gh = (uint32_t)(sz / m->gcell) + 1;
  ncell = (size_t)m->gw * m->gh;
  m->goff = (uint32_t *)ldsi_calloc(&m->env, ncell + 1, sizeof(uint32_t));
  if (!m->goff) return ldsi_error(err, LDS_E_NOMEM, FN ": out of memory (index)");
  for (p = 0; p < m->np; p++) {
    uint32_t a, b, c, d;
    const double *bx = m->pbox + 4 * (size_t)p;
    cell_range(m, bx[0], bx[1], bx[2], bx[3], &a, &b, &c, &d);
    for (z = b; z <= d; z++)
      for (x = a; x <= c; x++) m->goff[(size_t)z * m->gw + x + 1]++;
  }
  m->hold_max = 1;
  for (i = 0; i < ncell; i++) {
    if (m->goff[i + 1] > m->hold_max) m->hold_max = m->goff[i + 1];
    m->goff[i + 1] += m->goff[i];
  }
  total = m->goff[ncell];
  m->gidx = (uint32_t *)ldsi_alloc(&m->env, (total + 1) * sizeof(uint32_t));
  if (!m->gidx) {
    m->goff[ncell] = 0;
    return ldsi_error(err, LDS_E_NOMEM, FN ": out of memory (index, %zu entries)", total);
  }
  {
    uint32_t *fill = (uint32_t *)ldsi_alloc(&m->env, ncell * sizeof(uint32_t));
    if (!fill) {
      ldsi_free(&m->env, m->gidx, (total + 1) * sizeof(uint32_t));
      m->gidx = NULL;
      m->goff[ncell] = 0;
      return ldsi_error(err, LDS_E_NOMEM, FN ": out of memory (index)");
    }
    memcpy(fill, m->goff, ncell * sizeof(uint32_t));
    for (p = 0; p < m->np; p++) {
      uint32_t a, b, c, d;
      const double *bx = m->pbox + 4 * (size_t)p;
      cell_range(m, bx[0], bx[1], bx[2], bx[3], &a, &b, &c, &d);
      for (z = b; z <= d; z++)
        for (x = a; x <= c; x++) m->gidx[fill[(size_t)z * m->gw + x]++] = p;
    }
    ldsi_free(&m->env, fill, ncell * sizeof(uint32_t));
  }
  return LDS_OK;
}

lds_Navmesh *lds_navmesh_new(const lds_Env *env, const lds_NavmeshDesc *d, lds_Error *err) {
  ldsi_Env e;
  lds_Navmesh *m;
  size_t ni, i;
  uint32_t p;
  double size;
  ldsi_env_resolve(&e, env);
  if (!d) {
    ldsi_error(err, LDS_E_ARG, FN ": desc is NULL");
    return NULL;
  }
  if (d->n_verts > LDS_NAVMESH_MAX_IDS || d->n_polys > LDS_NAVMESH_MAX_IDS) {
    ldsi_error(err, LDS_E_LIMIT, FN ": %u vertices, %u polygons (expected at most %u each)",
               d->n_verts, d->n_polys, LDS_NAVMESH_MAX_IDS);
    return NULL;
  }
  if (d->n_polys == 0) {
    ldsi_error(err, LDS_E_ARG, FN ": no polygons (expected at least one)");
    return NULL;
  }
  if ((d->n_verts && !d->verts) || (d->n_polys && (!d->poly_verts || !d->poly_start))) {
    ldsi_error(err, LDS_E_ARG, FN ": verts, poly_verts or poly_start is NULL with non-zero counts");
    return NULL;
  }
  if (d->n_polys && d->poly_start[0] != 0) {
    ldsi_error(err, LDS_E_ARG, FN ": poly_start[0] is %u (expected 0)", d->poly_start[0]);
    return NULL;
  }
  for (p = 0; p < d->n_polys; p++) {
    uint32_t n = d->poly_start[p + 1] - d->poly_start[p];
    if (d->poly_start[p + 1] < d->poly_start[p] || n < 3 || n > LDS_NAVMESH_MAX_POLY_VERTS) {
      ldsi_error(err, LDS_E_ARG, FN ": polygon %u: %ld vertices (expected 3..%d)", p,
                 (long)d->poly_start[p + 1] - (long)d->poly_start[p], LDS_NAVMESH_MAX_POLY_VERTS);
      return NULL;
    }
  }
  ni = d->n_polys ? d->poly_start[d->n_polys] : 0;
  for (i = 0; i < ni; i++)
    if (d->poly_verts[i] >= d->n_verts) {
      uint32_t q = 0;
      while (d->poly_start[q + 1] <= i) q++;
      if (d->n_verts == 0)
        ldsi_error(err, LDS_E_ARG, FN ": polygon %u: vertex index %u out of range (the mesh has "
                   "no vertices)", q, d->poly_verts[i]);
      else
        ldsi_error(err, LDS_E_ARG, FN ": polygon %u: vertex index %u out of range (expected 0..%ld)",
                 q, d->poly_verts[i], (long)d->n_verts - 1);
      return NULL;
    }
  for (i = 0; i < 3 * (size_t)d->n_verts; i++)
    if (!isfinite(d->verts[i])) {
      ldsi_error(err, LDS_E_ARG, FN ": vertex %zu: coordinate %zu is %g (expected finite)", i / 3,
                 i % 3, ldsi_num(d->verts[i]));
      return NULL;
    } else if (fabs(d->verts[i]) > LDS_NAVMESH_MAX_COORD) {
      ldsi_error(err, LDS_E_ARG, FN ": vertex %zu: coordinate %zu is %g (expected -%g..%g, the "
                 "supported range)", i / 3, i % 3, d->verts[i], LDS_NAVMESH_MAX_COORD,
                 LDS_NAVMESH_MAX_COORD);
      return NULL;
    }
  m = (lds_Navmesh *)ldsi_calloc(&e, 1, sizeof *m);
  if (!m) {
    ldsi_error(err, LDS_E_NOMEM, FN ": out of memory");
    return NULL;
  }
  m->env = e;
  m->nv = d->n_verts;
  m->np = d->n_polys;
  m->ni = ni;
  m->v = (double *)ldsi_alloc(&e, (3 * (size_t)m->nv + 1) * sizeof(double));
  m->pstart = (uint32_t *)ldsi_alloc(&e, ((size_t)m->np + 1) * sizeof(uint32_t));
  m->pv = (uint32_t *)ldsi_alloc(&e, (ni + 1) * sizeof(uint32_t));
  m->pn = (uint32_t *)ldsi_alloc(&e, (ni + 1) * sizeof(uint32_t));
  m->area = (uint8_t *)ldsi_alloc(&e, (size_t)m->np + 1);
  m->pbox = (double *)ldsi_alloc(&e, (4 * (size_t)m->np + 1) * sizeof(double));
  if (!m->v || !m->pstart || !m->pv || !m->pn || !m->area || !m->pbox) {
    /* sizes below must match lds_navmesh_free's: allocate exact sizes */
    ldsi_error(err, LDS_E_NOMEM, FN ": out of memory (%u vertices, %u polygons)", m->nv, m->np);
    goto fail;
  }
  if (m->nv) memcpy(m->v, d->verts, 3 * (size_t)m->nv * sizeof(double));
  if (m->np) memcpy(m->pstart, d->poly_start, ((size_t)m->np + 1) * sizeof(uint32_t));
  else m->pstart[0] = 0;
  if (ni) memcpy(m->pv, d->poly_verts, ni * sizeof(uint32_t));
  for (i = 0; i < ni; i++) m->pn[i] = d->neighbours ? d->neighbours[i] : LDS_NAVMESH_NONE;
  for (p = 0; p < m->np; p++) m->area[p] = d->areas ? d->areas[p] : 0;
  for (i = 0; i < 3; i++) m->bmin[i] = m->bmax[i] = m->nv ? m->v[i] : 0.0;
  for (i = 0; i < 3 * (size_t)m->nv; i++) {
    m->bmin[i % 3] = fmin(m->bmin[i % 3], m->v[i]);
    m->bmax[i % 3] = fmax(m->bmax[i % 3], m->v[i]);
  }
  size = fmax(fmax(m->bmax[0] - m->bmin[0], m->bmax[2] - m->bmin[2]),
              fmax(fabs(m->bmin[0]), fmax(fabs(m->bmax[0]), fmax(fabs(m->bmin[2]), fabs(m->bmax[2])))));
  if (size < 1.0 / LDS_NAVMESH_MAX_COORD) { /* squared lengths would underflow */
    ldsi_error(err, LDS_E_ARG, FN ": every x and z coordinate within %g of 0 (expected a mesh of "
               "size at least %g, the supported range)", size, 1.0 / LDS_NAVMESH_MAX_COORD);
    goto fail;
  }
  m->eps = 1e-9 * size;
  for (p = 0; p < m->np; p++) {
    uint32_t k;
    double *bx = m->pbox + 4 * (size_t)p;
    if (check_poly(m, p, err) != LDS_OK) goto fail;
    bx[0] = bx[2] = ldsi_nm_v(m, m->pv[m->pstart[p]])[0];
    bx[1] = bx[3] = ldsi_nm_v(m, m->pv[m->pstart[p]])[2];
    for (k = m->pstart[p]; k < m->pstart[p + 1]; k++) {
      const double *v = ldsi_nm_v(m, m->pv[k]);
      bx[0] = fmin(bx[0], v[0]);
      bx[1] = fmin(bx[1], v[2]);
      bx[2] = fmax(bx[2], v[0]);
      bx[3] = fmax(bx[3], v[2]);
    }
  }
  if (link_neighbours(m, d->neighbours != NULL, err) != LDS_OK) goto fail;
  if (build_pieces(m, err) != LDS_OK) goto fail;
  if (build_index(m, err) != LDS_OK) goto fail;
  m->mem = sizeof *m + (3 * (size_t)m->nv) * sizeof(double) + 2 * ni * sizeof(uint32_t) +
           (size_t)m->np * (5 + 4 * sizeof(double) + sizeof(uint32_t)) +
           ((size_t)m->gw * m->gh + 1 + m->goff[(size_t)m->gw * m->gh]) * sizeof(uint32_t);
  ldsi_error_clear(err);
  return m;
fail:
  lds_navmesh_free(m);
  return NULL;
}

/* ---------------------------------------------------------- accessors -- */

size_t lds_navmesh_mem_used(const lds_Navmesh *m) { return m ? m->mem : 0; }
uint32_t lds_navmesh_vertex_count(const lds_Navmesh *m) { return m ? m->nv : 0; }
uint32_t lds_navmesh_poly_count(const lds_Navmesh *m) { return m ? m->np : 0; }
const double *lds_navmesh_vertices(const lds_Navmesh *m) { return m ? m->v : NULL; }
uint32_t lds_navmesh_piece_count(const lds_Navmesh *m) { return m ? m->npieces : 0; }

bool lds_navmesh_vertex(const lds_Navmesh *m, uint32_t v, double xyz[3]) {
  if (!m || v >= m->nv || !xyz) return false;
  memcpy(xyz, ldsi_nm_v(m, v), 3 * sizeof(double));
  return true;
}

uint32_t lds_navmesh_poly(const lds_Navmesh *m, uint32_t p, const uint32_t **verts,
                          const uint32_t **neighbours) {
  if (!m || p >= m->np) return 0;
  if (verts) *verts = m->pv + m->pstart[p];
  if (neighbours) *neighbours = m->pn + m->pstart[p];
  return m->pstart[p + 1] - m->pstart[p];
}

uint8_t lds_navmesh_poly_area(const lds_Navmesh *m, uint32_t p) {
  return m && p < m->np ? m->area[p] : 0;
}

uint32_t lds_navmesh_piece(const lds_Navmesh *m, uint32_t p) {
  return m && p < m->np ? m->piece[p] : LDS_NAVMESH_NONE;
}

void lds_navmesh_bounds(const lds_Navmesh *m, double bmin[3], double bmax[3]) {
  int i;
  for (i = 0; i < 3; i++) {
    if (bmin) bmin[i] = m ? m->bmin[i] : 0.0;
    if (bmax) bmax[i] = m ? m->bmax[i] : 0.0;
  }
}

/* ----------------------------------------------------- point location -- */

bool lds_navmesh_poly_contains(const lds_Navmesh *m, uint32_t p, double x, double z) {
  uint32_t s, n, k;
  double q[3];
  if (!m || p >= m->np) return false;
  {
    const double *bx = m->pbox + 4 * (size_t)p;
    if (x < bx[0] - m->eps || x > bx[2] + m->eps || z < bx[1] - m->eps || z > bx[3] + m->eps)
      return false;
  }
  q[0] = x; q[1] = 0; q[2] = z;
  s = m->pstart[p];
  n = m->pstart[p + 1] - s;
  for (k = 0; k < n; k++) {
    const double *a = ldsi_nm_v(m, m->pv[s + k]), *b = ldsi_nm_v(m, m->pv[s + (k + 1 < n ? k + 1 : 0)]);
    double c = ldsi_cross3(a, b, q), ex, ez;
    /* canonical winding: inside is c <= 0 (distance m->eps allowed:
    ** c > eps |b - a|, compared squared) */
    if (!(c > 0)) continue;
    ex = b[0] - a[0];
    ez = b[2] - a[2];
    if (c * c > m->eps * m->eps * (ex * ex + ez * ez)) return false;
  }
  return true;
}

/* fmin's value (a NaN argument ignored), inlined: libm's fmin is a call. */
static inline double min_nan(double a, double b) { return (a < b || b != b) ? a : b; }

double lds_navmesh_poly_height(const lds_Navmesh *m, uint32_t p, double x, double z) {
  uint32_t s, n, k;
  double best_h = NAN, best_w = -INFINITY;
  const double *a;
  if (!m || p >= m->np) return NAN;
  s = m->pstart[p];
  n = m->pstart[p + 1] - s;
  a = ldsi_nm_v(m, m->pv[s]);
  for (k = 2; k < n; k++) {
    const double *b = ldsi_nm_v(m, m->pv[s + k - 1]), *c = ldsi_nm_v(m, m->pv[s + k]);
    double det = (b[0] - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (b[2] - a[2]);
    double u, v, w, mn;
    if (det == 0) continue;
    u = ((x - a[0]) * (c[2] - a[2]) - (c[0] - a[0]) * (z - a[2])) / det;
    v = ((b[0] - a[0]) * (z - a[2]) - (x - a[0]) * (b[2] - a[2])) / det;
    w = 1 - u - v;
    mn = min_nan(w, min_nan(u, v));
    if (mn > best_w) {
      best_w = mn;
      best_h = a[1] + u * (b[1] - a[1]) + v * (c[1] - a[1]);
    }
  }
  if (best_h != best_h) best_h = a[1];
  return best_h;
}

/* lds_navmesh_locate, and the height of the polygon found at (x, z) into
** *hy (NAN when none; a non-finite y with any height: not computed). */
static uint32_t locate_h(const lds_Navmesh *m, double x, double y, double z, double height_tol,
                         double *hy) {
  uint32_t best = LDS_NAVMESH_NONE, i, i1;
  double bestd = INFINITY;
  *hy = NAN;
  bool any = !(height_tol >= 0);
  if (!m || !m->np || !isfinite(x) || !isfinite(z) || (!any && !isfinite(y)))
    return LDS_NAVMESH_NONE;
  if (x < m->bmin[0] - m->eps || x > m->bmax[0] + m->eps || z < m->bmin[2] - m->eps ||
      z > m->bmax[2] + m->eps)
    return LDS_NAVMESH_NONE;
  for (i = cell_bucket(m, x, z, &i1); i < i1; i++) {
    uint32_t p = m->gidx[i];
    double dy;
    if (!lds_navmesh_poly_contains(m, p, x, z)) continue;
    /* polygon ids ascend within a bucket: ties (and a non-finite y with any
    ** height) go to the lowest id; any height still prefers the nearest
    ** level (a floor under a bridge) */
    if (any && !isfinite(y)) return p;
    {
      double hp = lds_navmesh_poly_height(m, p, x, z);
      dy = fabs(hp - y);
      if ((any || dy <= height_tol) && dy < bestd) {
        bestd = dy;
        best = p;
        *hy = hp;
      }
    }
  }
  return best;
}

/* True when (x, z) lies within tol of polygon p's boundary in x-z. */
static bool on_boundary(const lds_Navmesh *m, uint32_t p, double x, double z, double tol) {
  uint32_t s = m->pstart[p], n = m->pstart[p + 1] - s, k;
  for (k = 0; k < n; k++) {
    const double *a = ldsi_nm_v(m, m->pv[s + k]), *b = ldsi_nm_v(m, m->pv[s + (k + 1 < n ? k + 1 : 0)]);
    double dx = b[0] - a[0], dz = b[2] - a[2], l2 = dx * dx + dz * dz, t, px, pz;
    double c = dx * (z - a[2]) - dz * (x - a[0]);
    /* farther than tol from the edge's line (with a margin for rounding):
    ** farther from the edge, no projection needed */
    if (c * c > 1.01 * tol * tol * l2) continue;
    t = l2 > 0 ? ((x - a[0]) * dx + (z - a[2]) * dz) / l2 : 0;
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    px = a[0] + t * dx - x;
    pz = a[2] + t * dz - z;
    if (px * px + pz * pz <= tol * tol) return true;
  }
  return false;
}

uint32_t ldsi_navmesh_holders(const lds_Navmesh *m, const double pt[3], uint32_t p0, uint32_t *out,
                              uint32_t cap) {
  uint32_t i, i1, n = 0;
  const double x = pt[0], z = pt[2], tol = 1e3 * m->eps;
  if (!m->np || !isfinite(x) || !isfinite(z) || !isfinite(pt[1])) return 0;
  if (p0 < m->np && !on_boundary(m, p0, x, z, 16 * m->eps)) {
    /* inside p0: p0 alone (polygons overlapping it are not its neighbours) */
    if (!cap) return 0;
    out[0] = p0;
    return 1;
  }
  if (x < m->bmin[0] - m->eps || x > m->bmax[0] + m->eps || z < m->bmin[2] - m->eps ||
      z > m->bmax[2] + m->eps)
    return 0;
  /* ids ascend within a bucket (locate_h) */
  for (i = cell_bucket(m, x, z, &i1); i < i1 && n < cap; i++) {
    uint32_t p = m->gidx[i];
    if (!lds_navmesh_poly_contains(m, p, x, z)) continue;
    if (fabs(lds_navmesh_poly_height(m, p, x, z) - pt[1]) <= tol) out[n++] = p;
  }
  return n;
}

uint32_t lds_navmesh_locate(const lds_Navmesh *m, double x, double y, double z,
                            double height_tol) {
  double hy;
  return locate_h(m, x, y, z, height_tol, &hy);
}

/* The point of polygon p nearest (x, z) in x-z, into out[0], out[2]. Any
** finite (x, z) (far beyond the mesh's coordinates): distances compared
** with hypot, never squared, so they do not overflow. */
static void closest_xz(const lds_Navmesh *m, uint32_t p, double x, double z, double out[3]) {
  uint32_t s = m->pstart[p], n = m->pstart[p + 1] - s, k;
  double bd = INFINITY;
  out[0] = ldsi_nm_v(m, m->pv[s])[0];
  out[2] = ldsi_nm_v(m, m->pv[s])[2];
  if (lds_navmesh_poly_contains(m, p, x, z)) {
    out[0] = x;
    out[2] = z;
    return;
  }
  for (k = 0; k < n; k++) {
    const double *a = ldsi_nm_v(m, m->pv[s + k]), *b = ldsi_nm_v(m, m->pv[s + (k + 1) % n]);
    double dx = b[0] - a[0], dz = b[2] - a[2], l2 = dx * dx + dz * dz, t, px, pz, dd;
    /* (x - a) . u / |e| with u = e / |e|: each product finite (|u| <= 1),
    ** their sum at worst an infinity, never nan; clamped to the edge */
    if (l2 > 0) {
      double len = sqrt(l2);
      t = ((x - a[0]) * (dx / len) + (z - a[2]) * (dz / len)) / len;
    } else {
      t = 0;
    }
    t = t < 0 ? 0 : t > 1 ? 1 : t;
    px = a[0] + t * dx;
    pz = a[2] + t * dz;
    dd = hypot(px - x, pz - z);
    if (dd < bd) {
      bd = dd;
      out[0] = px;
      out[2] = pz;
    }
  }
}

uint32_t lds_navmesh_nearest(const lds_Navmesh *m, const double pt[3], double radius,
                             double height_tol, double nearest[3]) {
  uint32_t cx0, cz0, cx1, cz1, best = LDS_NAVMESH_NONE, x, z, i;
  double bestd = INFINITY, bp[3] = {0, 0, 0};
  if (!m || !pt || !m->np || !(radius >= 0) || !isfinite(radius) || !isfinite(pt[0]) ||
      !isfinite(pt[1]) || !isfinite(pt[2]))
    return LDS_NAVMESH_NONE;
  {
    double hy;
    best = locate_h(m, pt[0], pt[1], pt[2], height_tol, &hy);
    if (best != LDS_NAVMESH_NONE) {
      if (nearest) {
        nearest[0] = pt[0];
        nearest[1] = hy; /* lds_navmesh_poly_height(m, best, pt[0], pt[2]) */
        nearest[2] = pt[2];
      }
      return best;
    }
  }
  if (pt[0] + radius < m->bmin[0] || pt[0] - radius > m->bmax[0] ||
      pt[2] + radius < m->bmin[2] || pt[2] - radius > m->bmax[2])
    return LDS_NAVMESH_NONE;
  cell_range(m, pt[0] - radius, pt[2] - radius, pt[0] + radius, pt[2] + radius, &cx0, &cz0, &cx1,
             &cz1);
  for (z = cz0; z <= cz1; z++)
    for (x = cx0; x <= cx1; x++) {
      size_t c = (size_t)z * m->gw + x;
      for (i = m->goff[c]; i < m->goff[c + 1]; i++) {
        uint32_t p = m->gidx[i];
        const double *bx = m->pbox + 4 * (size_t)p;
        double q[3], d;
        if (pt[0] + radius < bx[0] || pt[0] - radius > bx[2] || pt[2] + radius < bx[1] ||
            pt[2] - radius > bx[3])
          continue;
        closest_xz(m, p, pt[0], pt[2], q);
        q[1] = lds_navmesh_poly_height(m, p, q[0], q[2]);
        d = hypot(hypot(q[0] - pt[0], q[1] - pt[1]), q[2] - pt[2]); /* squares overflow past 1e154 */
        if (d < bestd || (d == bestd && p < best)) {
          bestd = d;
          best = p;
          memcpy(bp, q, sizeof bp);
        }
      }
    }
  if (best == LDS_NAVMESH_NONE || bestd > radius) return LDS_NAVMESH_NONE;
  if (nearest) memcpy(nearest, bp, sizeof bp);
  return best;
}
