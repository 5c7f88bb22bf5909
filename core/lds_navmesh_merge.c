/* SPDX-License-Identifier: MIT */
/*
** lds_navmesh_merge.c — merging adjacent convex polygons of a navigation
** mesh into larger convex ones, for the optimal search: Polyanya's work
** grows with the number of polygons a path crosses, and the free space
** (hence every shortest path) is the same for any convex partition of it
** (Cui, Harabor & Grastien, IJCAI 2017, run their search on merged meshes
** for this reason). The merge is greedy in the manner of Hertel & Mehlhorn
** (1983): remove a shared edge when the two angles it splits stay convex.
**
** Geometry in the plane X = x, Y = -z, where the canonical winding is
** counter-clockwise. Removing edge a -> b of P (b -> a of Q) keeps the
** union convex iff the turns at a (P's vertex before a, a, Q's vertex after
** a) and at b (Q's before b, b, P's after b) are left turns or straight on
** (orientation >= 0; a straight angle must go forward, not fold back);
** every other angle is one of P's or Q's. The two must share exactly that
** one edge and no other vertex (a second contact would make the union
** touch itself, or join polygons the mesh keeps apart there).
*/
#include "lds_navmesh_merge_internal.h"

#include <stdlib.h>
#include <string.h>

typedef struct MEdge {
  double len2;  /* squared x-z length */
  uint32_t p, k; /* polygon p's edge k (p < its neighbour) */
} MEdge;

static int cmp_edge(const void *x, const void *y) {
  const MEdge *a = (const MEdge *)x, *b = (const MEdge *)y;
  if (a->len2 != b->len2) return a->len2 > b->len2 ? -1 : 1;
  if (a->p != b->p) return a->p < b->p ? -1 : 1;
  return a->k < b->k ? -1 : a->k > b->k ? 1 : 0;
}

static uint32_t find(uint32_t *uf, uint32_t p) {
  while (uf[p] != p) {
    uf[p] = uf[uf[p]];
    p = uf[p];
  }
  return p;
}

/* The turn a -> b -> c (plane X = x, Y = -z) is left or straight on. */
static bool convex_turn(const lds_Navmesh *m, uint32_t a, uint32_t b, uint32_t c) {
  const double *A = ldsi_nm_v(m, a), *B = ldsi_nm_v(m, b), *C = ldsi_nm_v(m, c);
  double ux = B[0] - A[0], uy = A[2] - B[2], wx = C[0] - B[0], wy = B[2] - C[2];
  double o = ux * wy - uy * wx;
  if (o > 0) return true;
  return o == 0 && ux * wx + uy * wy > 0;
}

void ldsi_navmesh_merged_free(const ldsi_Env *e, ldsi_MergedMesh *out) {
  ldsi_free(e, out->pstart, (out->cap_np + 1) * sizeof(uint32_t));
  ldsi_free(e, out->pv, out->cap_pv * sizeof(uint32_t));
  ldsi_free(e, out->pn, out->cap_pv * sizeof(uint32_t));
  ldsi_free(e, out->area, out->cap_np ? out->cap_np : 1);
  ldsi_free(e, out->pmap, out->cap_map * sizeof(uint32_t));
  memset(out, 0, sizeof *out);
}

bool ldsi_navmesh_merge(const ldsi_Env *e, const lds_Navmesh *m, uint32_t max_verts,
                        ldsi_MergedMesh *out) {
  uint32_t np = m->np, p, k, nm = 0;
  size_t ni = m->pstart[np], pool_cap, pool_n = ni, ne = 0, i;
  /* working polygons: root r's vertices wv[off[r] .. off[r] + len[r] - 1],
  ** the mesh polygon across each edge in wn (resolved through uf) */
  uint32_t *uf = NULL, *off = NULL, *len = NULL, *wv = NULL, *wn = NULL, *id = NULL, *tmpv = NULL,
           *tmpn = NULL, *seen = NULL, stamp = 0;
  MEdge *ed = NULL;
  bool ok = false;
  memset(out, 0, sizeof *out);
  if (max_verts < 3) max_verts = 0;
  pool_cap = ni + (size_t)np * (max_verts ? max_verts : 1) + 1;
  uf = (uint32_t *)ldsi_alloc(e, (np + 1) * sizeof(uint32_t));
  off = (uint32_t *)ldsi_alloc(e, (np + 1) * sizeof(uint32_t));
  len = (uint32_t *)ldsi_alloc(e, (np + 1) * sizeof(uint32_t));
  id = (uint32_t *)ldsi_alloc(e, (np + 1) * sizeof(uint32_t));
  wv = (uint32_t *)ldsi_alloc(e, pool_cap * sizeof(uint32_t));
  wn = (uint32_t *)ldsi_alloc(e, pool_cap * sizeof(uint32_t));
  tmpv = (uint32_t *)ldsi_alloc(e, (2 * (size_t)max_verts + 2) * sizeof(uint32_t));
  tmpn = (uint32_t *)ldsi_alloc(e, (2 * (size_t)max_verts + 2) * sizeof(uint32_t));
  ed = (MEdge *)ldsi_alloc(e, (ni / 2 + 1) * sizeof(MEdge));
  seen = (uint32_t *)ldsi_calloc(e, (size_t)m->nv + 1, sizeof(uint32_t));
  if (!uf || !off || !len || !id || !wv || !wn || !tmpv || !tmpn || !ed || !seen) goto done;
  for (p = 0; p < np; p++) {
    uint32_t st = m->pstart[p], n = m->pstart[p + 1] - st;
    uf[p] = p;
    off[p] = st;
    len[p] = n;
    memcpy(wv + st, m->pv + st, n * sizeof(uint32_t));
    memcpy(wn + st, m->pn + st, n * sizeof(uint32_t));
    for (k = 0; k < n; k++) {
      uint32_t q = m->pn[st + k];
      if (q != LDS_NAVMESH_NONE && q > p && m->area[q] == m->area[p] && ne < ni / 2 + 1) {
        const double *a = ldsi_nm_v(m, m->pv[st + k]), *b = ldsi_nm_v(m, m->pv[st + (k + 1) % n]);
        ed[ne].len2 = (b[0] - a[0]) * (b[0] - a[0]) + (b[2] - a[2]) * (b[2] - a[2]);
        ed[ne].p = p;
        ed[ne].k = k;
        ne++;
      }
    }
  }
  if (max_verts) qsort(ed, ne, sizeof *ed, cmp_edge);
  else ne = 0;
  for (i = 0; i < ne; i++) {
    uint32_t st = m->pstart[ed[i].p], n = m->pstart[ed[i].p + 1] - st;
    uint32_t a = m->pv[st + ed[i].k], b = m->pv[st + (ed[i].k + 1) % n];
    uint32_t P = find(uf, ed[i].p), Q = find(uf, m->pn[st + ed[i].k]);
    uint32_t nP = len[P], nQ = len[Q], iP, jQ, shared = 0, t, nn = 0;
    const uint32_t *vP, *vQ, *nbP, *nbQ;
    bool dup = false;
    if (P == Q || nP + nQ - 2 > max_verts) continue;
    vP = wv + off[P];
    vQ = wv + off[Q];
    nbP = wn + off[P];
    nbQ = wn + off[Q];
    for (iP = 0; iP < nP; iP++)
      if (vP[iP] == a && vP[(iP + 1) % nP] == b) break;
    for (jQ = 0; jQ < nQ; jQ++)
      if (vQ[jQ] == b && vQ[(jQ + 1) % nQ] == a) break;
    if (iP == nP || jQ == nQ) continue; /* cannot happen: the edge is between P and Q */
    for (t = 0; t < nP; t++)
      if (nbP[t] != LDS_NAVMESH_NONE && find(uf, nbP[t]) == Q) shared++;
    if (shared != 1) continue;
    if (!convex_turn(m, vP[(iP + nP - 1) % nP], a, vQ[(jQ + 2) % nQ]) ||
        !convex_turn(m, vQ[(jQ + nQ - 1) % nQ], b, vP[(iP + 2) % nP]))
      continue;
    /* P from b round to a, then Q after a up to before b */
    for (t = 0; t < nP; t++) {
      tmpv[nn] = vP[(iP + 1 + t) % nP];
      tmpn[nn++] = nbP[(iP + 1 + t) % nP];
    }
    for (t = 0; t + 2 < nQ; t++) {
      tmpv[nn] = vQ[(jQ + 2 + t) % nQ];
      tmpn[nn++] = nbQ[(jQ + 2 + t) % nQ];
    }
    /* the edge a -> (Q's next) carries Q's neighbour: tmpn[nP - 1] is P's
    ** edge a -> b, replaced by Q's edge a -> vQ[jQ + 2] */
    tmpn[nP - 1] = nbQ[(jQ + 1) % nQ];
    stamp++;
    for (t = 0; t < nn && !dup; t++) {
      dup = seen[tmpv[t]] == stamp;
      seen[tmpv[t]] = stamp;
    }
    if (dup) continue;
    if (pool_n + nn > pool_cap) continue; /* cannot happen: nn <= max_verts per merge */
    memcpy(wv + pool_n, tmpv, nn * sizeof(uint32_t));
    memcpy(wn + pool_n, tmpn, nn * sizeof(uint32_t));
    /* the root keeps the smaller mesh index (ids follow the mesh's order) */
    if (Q < P) {
      uint32_t x = P;
      P = Q;
      Q = x;
    }
    uf[Q] = P;
    off[P] = (uint32_t)pool_n;
    len[P] = nn;
    pool_n += nn;
  }
  /* compact: merged ids in the order of their first mesh polygon */
  {
    size_t nvs = 0;
    for (p = 0; p < np; p++)
      if (find(uf, p) == p) {
        id[p] = nm++;
        nvs += len[p];
      }
    out->cap_np = nm;
    out->cap_pv = nvs ? nvs : 1;
    out->cap_map = np ? np : 1;
    out->pstart = (uint32_t *)ldsi_alloc(e, (out->cap_np + 1) * sizeof(uint32_t));
    out->pv = (uint32_t *)ldsi_alloc(e, out->cap_pv * sizeof(uint32_t));
    out->pn = (uint32_t *)ldsi_alloc(e, out->cap_pv * sizeof(uint32_t));
    out->area = (uint8_t *)ldsi_alloc(e, out->cap_np ? out->cap_np : 1);
    out->pmap = (uint32_t *)ldsi_alloc(e, out->cap_map * sizeof(uint32_t));
    if (!out->pstart || !out->pv || !out->pn || !out->area || !out->pmap) {
      ldsi_navmesh_merged_free(e, out);
      goto done;
    }
    out->np = nm;
    nvs = 0;
    for (p = 0; p < np; p++) {
      uint32_t r = find(uf, p);
      out->pmap[p] = id[r];
      if (r != p) continue;
      out->pstart[id[p]] = (uint32_t)nvs;
      out->area[id[p]] = m->area[p];
      for (k = 0; k < len[p]; k++) {
        uint32_t q = wn[off[p] + k];
        out->pv[nvs] = wv[off[p] + k];
        out->pn[nvs++] = q == LDS_NAVMESH_NONE ? LDS_NAVMESH_NONE : q; /* mesh id, mapped below */
      }
    }
    out->pstart[nm] = (uint32_t)nvs;
    for (i = 0; i < nvs; i++)
      if (out->pn[i] != LDS_NAVMESH_NONE) out->pn[i] = out->pmap[out->pn[i]];
  }
  ok = true;
done:
  ldsi_free(e, uf, (np + 1) * sizeof(uint32_t));
  ldsi_free(e, off, (np + 1) * sizeof(uint32_t));
  ldsi_free(e, len, (np + 1) * sizeof(uint32_t));
  ldsi_free(e, id, (np + 1) * sizeof(uint32_t));
  ldsi_free(e, wv, pool_cap * sizeof(uint32_t));
  ldsi_free(e, wn, pool_cap * sizeof(uint32_t));
  ldsi_free(e, tmpv, (2 * (size_t)max_verts + 2) * sizeof(uint32_t));
  ldsi_free(e, tmpn, (2 * (size_t)max_verts + 2) * sizeof(uint32_t));
  ldsi_free(e, ed, (ni / 2 + 1) * sizeof(MEdge));
  ldsi_free(e, seen, ((size_t)m->nv + 1) * sizeof(uint32_t));
  return ok;
}
