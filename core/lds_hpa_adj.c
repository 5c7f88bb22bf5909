/* SPDX-License-Identifier: MIT */
/*
** lds_hpa_adj.c — the fast mode's search adjacency of a cluster: per
** entrance, its inter edges followed by its intra edges (the finite
** entries of its matrix row), in one array of 8-byte edges
** (ldsi_HpaCluster.edge, ldsi_HpaEdge). An expansion of the abstract A*
** reads one contiguous run of edges instead of a matrix row, the
** entrances' coordinates and a separate inter-edge list; one that skips
** the intra edges (lds_hpa_query.c) stops after the first
** ioff[i + 1] - ioff[i].
*/
#include "lds_hpa_internal.h"

lds_Status ldsi_hpa_build_edges(lds_Hpa *h, uint32_t c) {
  ldsi_HpaCluster *k = &h->cl[c];
  uint32_t i, j, n = 0;
  int pass;
  if (k->n == 0) {
    k->nedge = 0;
    return LDS_OK;
  }
  /* count, then (after growing the array) write */
  for (pass = 0; pass < 2; pass++) {
    n = 0;
    for (i = 0; i < k->n; i++) {
      const float *row = k->dist + (size_t)i * k->n;
      uint32_t e;
      if (pass) k->eoff[i] = n;
      for (e = k->ioff[i]; e < k->ioff[i + 1]; e++) {
        if (pass) {
          const ldsi_HpaInter *in = &k->inter[e];
          ldsi_HpaEdge *ed = &k->edge[n];
          const ldsi_HpaCluster *t = &h->cl[in->cl];
          int32_t dx = t->x0 < k->x0 ? -1 : t->x0 > k->x0, dy = t->y0 < k->y0 ? -1 : t->y0 > k->y0;
          ed->c = in->c;
          ed->i = (uint8_t)in->i;
          ed->d = (uint8_t)((dy + 1) * 3 + (dx + 1));
        }
        n++;
      }
      for (j = 0; j < k->n; j++) {
        if (j == i || !(row[j] < INFINITY)) continue;
        if (pass) {
          ldsi_HpaEdge *ed = &k->edge[n];
          ed->c = row[j];
          ed->i = (uint8_t)j;
          ed->d = 4;
        }
        n++;
      }
    }
    if (pass) {
      k->eoff[k->n] = n;
      k->nedge = n;
    } else if (n > k->edgecap) {
      ldsi_HpaEdge *ne = ldsi_realloc(&h->env, k->edge, k->edgecap * sizeof *ne, n * sizeof *ne);
      if (!ne) return LDS_E_NOMEM;
      k->edge = ne;
      k->edgecap = n;
    }
  }
  return LDS_OK;
}
