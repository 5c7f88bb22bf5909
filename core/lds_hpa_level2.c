/* SPDX-License-Identifier: MIT */
/*
** lds_hpa_level2.c — the hierarchy's second abstraction level (multi-level
** HPA*): second-level clusters of K x K first-level clusters, whose
** entrances are the first-level entrances on their outer borders, joined
** by the exact distances over the first-level abstract graph restricted to
** the cluster (a Dijkstra from each entrance, whose parent tree is kept so
** a second-level edge unpacks into first-level entrances with no search).
** The fast query (lds_hpa_query.c) searches one graph: the first-level
** edges of the nodes in the start's and the goal's second-level clusters,
** the second-level edges (and the moves that leave the cluster) of the
** nodes elsewhere. Every maximal stretch of a first-level abstract path
** inside another second-level cluster runs between two of its entrances
** and costs at least their second-level distance, so that graph has the
** first level's abstract distance between start and goal.
** [Paper: Botea, Müller & Schaeffer, "Near Optimal Hierarchical
**  Path-Finding", J. Game Development 1(1), 2004, section "Multiple levels";
**  Dijkstra, Numerische Mathematik 1959]
*/
#include "lds_hpa_level2_internal.h"
#include "lds_hpa_query_internal.h"

#include <string.h>

/* a float <= the double d */
static float float_down(double d) {
  float f = (float)d;
  if ((double)f > d) f = nextafterf(f, -INFINITY);
  return f;
}

/* at least one element: a zero-sized allocation is never asked for */
static size_t nz(size_t n) { return n ? n : 1; }

static size_t cluster_bytes(const ldsi_HpaL2Cluster *z) {
  return ((size_t)z->mw * (size_t)z->mh + 1) * sizeof(uint32_t) + (size_t)z->nbcap * sizeof(uint16_t) +
         (size_t)z->ncap * sizeof(ldsi_HpaL2Ent) + ((size_t)z->ncap + 1) * sizeof(uint32_t) +
         (size_t)z->necap * sizeof(ldsi_HpaL2Edge) + ((size_t)z->ncap + 1) * sizeof(uint32_t) +
         (size_t)z->nxcap * sizeof(ldsi_HpaInter) +
         (size_t)z->ncap * z->nbcap * sizeof(uint16_t);
}

/* Grows z's arrays to nb local nodes and n entrances (contents are
** rewritten by the caller); false on NOMEM. */
static bool grow(const ldsi_Env *e, ldsi_HpaL2Cluster *z, uint32_t nb, uint32_t n, size_t lmk) {
  uint32_t nnb = nb > z->nbcap ? nb : z->nbcap, nn = n > z->ncap ? n : z->ncap;
  uint16_t *l2of, *par;
  ldsi_HpaL2Ent *ent;
  uint32_t *eoff, *xoff, *lmv;
  /* a cluster without entrances still gets its arrays (the offsets have
  ** n + 1 entries), so the first build allocates even when both are 0 */
  if (nnb == z->nbcap && nn == z->ncap && z->xoff) return true;
  l2of = ldsi_alloc(e, (nnb ? nnb : 1) * sizeof(uint16_t));
  ent = ldsi_alloc(e, (nn ? nn : 1) * sizeof(ldsi_HpaL2Ent));
  eoff = ldsi_alloc(e, ((size_t)nn + 1) * sizeof(uint32_t));
  xoff = ldsi_alloc(e, ((size_t)nn + 1) * sizeof(uint32_t));
  lmv = ldsi_alloc(e, nz((size_t)nn * lmk) * sizeof(uint32_t));
  par = ldsi_alloc(e, nz((size_t)nn * nnb) * sizeof(uint16_t));
  if (!l2of || !ent || !eoff || !par || !xoff || !lmv) {
    if (xoff) ldsi_free(e, xoff, ((size_t)nn + 1) * sizeof(uint32_t));
    if (lmv) ldsi_free(e, lmv, nz((size_t)nn * lmk) * sizeof(uint32_t));
    if (l2of) ldsi_free(e, l2of, (nnb ? nnb : 1) * sizeof(uint16_t));
    if (ent) ldsi_free(e, ent, (nn ? nn : 1) * sizeof(ldsi_HpaL2Ent));
    if (eoff) ldsi_free(e, eoff, ((size_t)nn + 1) * sizeof(uint32_t));
    if (par) ldsi_free(e, par, nz((size_t)nn * nnb) * sizeof(uint16_t));
    return false;
  }
  if (z->l2of) ldsi_free(e, z->l2of, (z->nbcap ? z->nbcap : 1) * sizeof(uint16_t));
  if (z->ent) ldsi_free(e, z->ent, (z->ncap ? z->ncap : 1) * sizeof(ldsi_HpaL2Ent));
  if (z->eoff) ldsi_free(e, z->eoff, ((size_t)z->ncap + 1) * sizeof(uint32_t));
  if (z->xoff) ldsi_free(e, z->xoff, ((size_t)z->ncap + 1) * sizeof(uint32_t));
  if (z->lmv) ldsi_free(e, z->lmv, nz((size_t)z->ncap * lmk) * sizeof(uint32_t));
  if (z->par)
    ldsi_free(e, z->par,
              nz((size_t)z->ncap * z->nbcap) * sizeof(uint16_t));
  z->l2of = l2of;
  z->ent = ent;
  z->eoff = eoff;
  z->xoff = xoff;
  z->lmv = lmv;
  z->par = par;
  z->nbcap = nnb;
  z->ncap = nn;
  return true;
}

/* Lists, per entrance of second-level cluster b, the inter edges of its
** first-level entrance that leave b (after a first-level repair redid
** them); LDS_E_NOMEM. */
static lds_Status build_xin(lds_Hpa *h, uint32_t b) {
  ldsi_HpaL2 *L = h->l2;
  ldsi_HpaL2Cluster *z = &L->cl[b];
  uint32_t s;
  {
    size_t nx = 0;
    int pass;
    for (pass = 0; pass < 2; pass++) {
      nx = 0;
      for (s = 0; s < z->n; s++) {
        const ldsi_HpaCluster *k = &h->cl[z->ent[s].cl];
        const ldsi_HpaInter *e = k->inter + k->ioff[z->ent[s].i], *end = k->inter + k->ioff[z->ent[s].i + 1];
        if (pass) z->xoff[s] = (uint32_t)nx;
        for (; e < end; e++)
          if (L->bof[e->cl] != b) {
            if (pass) z->xin[nx] = *e;
            nx++;
          }
      }
      if (pass) {
        z->xoff[z->n] = (uint32_t)nx;
      } else if (nx > z->nxcap) {
        ldsi_HpaInter *xi = ldsi_alloc(&h->env, nx * sizeof *xi);
        if (!xi) return LDS_E_NOMEM;
        if (z->xin) ldsi_free(&h->env, z->xin, nz(z->nxcap) * sizeof *xi);
        z->xin = xi;
        z->nxcap = (uint32_t)nx;
      }
    }
  }
  return LDS_OK;
}

/* The Dijkstra of entrance s of second-level cluster b over its
** first-level graph (the local node arrays of L filled for b): costs in
** L->g, the parent tree in z->par. Among equal costs the smaller local
** node is settled first, so the tree is a function of the graph (a repair
** that keeps a source's tree, ldsi_hpa_l2_repair, leaves what a fresh
** build gives). */
static void source_tree(lds_Hpa *h, uint32_t b, uint32_t s) {
  ldsi_HpaL2 *L = h->l2;
  ldsi_HpaL2Cluster *z = &L->cl[b];
  uint32_t nb = z->nb, v, src = z->ent[s].loc;
  uint16_t *par = z->par + (size_t)s * nb;
  for (v = 0; v < nb; v++) {
    L->g[v] = INFINITY;
    L->pos[v] = LDSI_HPA_NOIDX;
    par[v] = (uint16_t)LDSI_L2_NONE;
  }
  L->g[src] = 0.0;
  par[src] = (uint16_t)LDSI_L2_SRC;
  L->heap.n = 0;
  ldsi_hpa_heap_push(&L->heap, L->pos, src, 0.0, -(double)src);
  while (L->heap.n) {
    uint32_t u = ldsi_hpa_heap_pop(&L->heap, L->pos), c = L->ncl[u], i = L->nix[u], j;
    uint32_t base = L->nbase[u];
    const ldsi_HpaCluster *k = &h->cl[c];
    const float *row = k->dist + (size_t)i * k->n;
    const ldsi_HpaInter *e, *end;
    double gu = L->g[u];
    for (j = 0; j < k->n; j++) {
      double nd;
      if (j == i || !(row[j] < INFINITY)) continue;
      v = base + j;
      nd = gu + (double)row[j];
      if (nd < L->g[v]) {
        L->g[v] = nd;
        par[v] = (uint16_t)u;
        ldsi_hpa_heap_push(&L->heap, L->pos, v, nd, -(double)v);
      }
    }
    for (e = k->inter + k->ioff[i], end = k->inter + k->ioff[i + 1]; e < end; e++) {
      int32_t mx, my;
      double nd;
      if (L->bof[e->cl] != b) continue;
      mx = (int32_t)(e->cl % (uint32_t)h->cw) - z->cx0;
      my = (int32_t)(e->cl / (uint32_t)h->cw) - z->cy0;
      v = z->coff[my * z->mw + mx] + e->i;
      nd = gu + (double)e->c;
      if (nd < L->g[v]) {
        L->g[v] = nd;
        par[v] = (uint16_t)u;
        ldsi_hpa_heap_push(&L->heap, L->pos, v, nd, -(double)v);
      }
    }
  }
}

/* Appends to L->ebuf from slot ne the edges of entrance s after its
** source_tree: those s -> t whose tree path meets no other entrance;
** returns the new count. */
static uint32_t source_edges(lds_Hpa *h, uint32_t b, uint32_t s, uint32_t ne) {
  ldsi_HpaL2 *L = h->l2;
  const ldsi_HpaL2Cluster *z = &L->cl[b];
  const uint16_t *par = z->par + (size_t)s * z->nb;
  uint32_t t, v, src = z->ent[s].loc;
  for (t = 0; t < z->n; t++) {
    uint32_t w = z->ent[t].loc;
    if (t == s || !isfinite(L->g[w])) continue;
    for (v = par[w]; v != src && z->l2of[v] == LDSI_L2_NONE; v = par[v]) {}
    if (v != src) continue;
    L->ebuf[ne].t = t;
    L->ebuf[ne].c = float_down(L->g[w]);
    ne++;
  }
  return ne;
}

/* Moves the ne edges of L->ebuf into b's edge list (eoff[0..n) set). */
static lds_Status set_edges(lds_Hpa *h, uint32_t b, uint32_t ne) {
  ldsi_HpaL2 *L = h->l2;
  ldsi_HpaL2Cluster *z = &L->cl[b];
  z->eoff[z->n] = ne;
  if (ne > z->necap) {
    ldsi_HpaL2Edge *ed = ldsi_alloc(&h->env, ne * sizeof *ed);
    if (!ed) return LDS_E_NOMEM;
    if (z->edge) ldsi_free(&h->env, z->edge, nz(z->necap) * sizeof *ed);
    z->edge = ed;
    z->necap = ne;
  }
  if (ne) memcpy(z->edge, L->ebuf, ne * sizeof *z->edge);
  L->edges += ne;
  return LDS_OK;
}

/* Fills the local node arrays of L for second-level cluster b as it is. */
static void local_nodes(lds_Hpa *h, uint32_t b) {
  ldsi_HpaL2 *L = h->l2;
  const ldsi_HpaL2Cluster *z = &L->cl[b];
  uint32_t m, nm = (uint32_t)(z->mw * z->mh), v = 0;
  for (m = 0; m < nm; m++) {
    uint32_t c = (uint32_t)(z->cy0 + (int32_t)(m / (uint32_t)z->mw)) * (uint32_t)h->cw +
                 (uint32_t)(z->cx0 + (int32_t)(m % (uint32_t)z->mw));
    uint32_t i;
    for (i = 0; i < h->cl[c].n; i++, v++) {
      L->ncl[v] = c;
      L->nix[v] = (uint16_t)i;
      L->nbase[v] = z->coff[m];
    }
  }
}

/* Rebuilds second-level cluster b from the first level as it is: its
** local nodes, entrances, distances and parent trees. */
static lds_Status build_cluster(lds_Hpa *h, uint32_t b) {
  ldsi_HpaL2 *L = h->l2;
  ldsi_HpaL2Cluster *z = &L->cl[b];
  const lds_Grid *g = h->grid;
  uint32_t m, nm = (uint32_t)(z->mw * z->mh), nb = 0, n = 0, s, v, ne;
  int32_t X0 = z->cx0 * h->C, Y0 = z->cy0 * h->C;
  int32_t X1 = (z->cx0 + z->mw) * h->C - 1, Y1 = (z->cy0 + z->mh) * h->C - 1;
  if (X1 >= g->w) X1 = g->w - 1;
  if (Y1 >= g->h) Y1 = g->h - 1;
  for (m = 0; m < nm; m++) {
    uint32_t c = (uint32_t)(z->cy0 + (int32_t)(m / (uint32_t)z->mw)) * (uint32_t)h->cw +
                 (uint32_t)(z->cx0 + (int32_t)(m % (uint32_t)z->mw));
    uint32_t i;
    z->coff[m] = nb;
    for (i = 0; i < h->cl[c].n; i++) {
      uint32_t xy = h->cl[c].xy[i];
      int32_t x = (int32_t)(xy & 0xFFFF), y = (int32_t)(xy >> 16);
      L->ncl[nb] = c;
      L->nix[nb] = (uint16_t)i;
      L->nbase[nb] = z->coff[m];
      n += (x == X0 && X0 > 0) || (x == X1 && X1 + 1 < g->w) || (y == Y0 && Y0 > 0) ||
           (y == Y1 && Y1 + 1 < g->h);
      nb++;
    }
  }
  z->coff[nm] = nb;
  L->entrances -= z->n;
  L->edges -= z->n ? z->eoff[z->n] : 0;
  z->n = 0;
  z->nb = 0;
  if (!grow(&h->env, z, nb, n, (size_t)h->lmk)) return LDS_E_NOMEM;
  z->nb = nb;
  for (v = 0; v < nb; v++) {
    uint32_t c = L->ncl[v], i = L->nix[v], xy = h->cl[c].xy[i];
    int32_t x = (int32_t)(xy & 0xFFFF), y = (int32_t)(xy >> 16);
    z->l2of[v] = (uint16_t)LDSI_L2_NONE;
    if ((x == X0 && X0 > 0) || (x == X1 && X1 + 1 < g->w) || (y == Y0 && Y0 > 0) ||
        (y == Y1 && Y1 + 1 < g->h)) {
      ldsi_HpaL2Ent *e = &z->ent[z->n];
      e->cl = c;
      e->i = i;
      e->xy = xy;
      e->loc = v;
      if (h->lmk)
        memcpy(z->lmv + (size_t)z->n * (size_t)h->lmk, h->cl[c].lmv + (size_t)i * (size_t)h->lmk,
               (size_t)h->lmk * sizeof(uint32_t));
      z->l2of[v] = (uint16_t)z->n++;
    }
  }
  if (build_xin(h, b) != LDS_OK) return LDS_E_NOMEM;
  L->entrances += z->n;
  if ((size_t)z->n * z->n > L->ebcap) {
    size_t nc = (size_t)z->n * z->n;
    ldsi_HpaL2Edge *eb = ldsi_realloc(&h->env, L->ebuf, L->ebcap * sizeof *eb, nc * sizeof *eb);
    if (!eb) return LDS_E_NOMEM;
    L->ebuf = eb;
    L->ebcap = nc;
  }
  ne = 0;
  /* a Dijkstra from each entrance over the cluster's first-level graph */
  for (s = 0; s < z->n; s++) {
    source_tree(h, b, s);
    z->eoff[s] = ne;
    ne = source_edges(h, b, s, ne);
  }
  return set_edges(h, b, ne);
}

lds_Status ldsi_hpa_l2_new(lds_Hpa *h, int K) {
  const ldsi_Env *e = &h->env;
  ldsi_HpaL2 *L;
  uint32_t b, c;
  uint64_t t0 = e->clock(e->clock_ud);
  L = ldsi_calloc(e, 1, sizeof *L);
  if (!L) return LDS_E_NOMEM;
  h->l2 = L;
  L->K = K;
  L->use = true;
  L->w2 = (h->cw + K - 1) / K;
  L->h2 = (h->ch + K - 1) / K;
  L->n2 = (uint32_t)L->w2 * (uint32_t)L->h2;
  L->scap = (uint32_t)K * (uint32_t)K * h->cap;
  L->cl = ldsi_calloc(e, L->n2, sizeof *L->cl);
  L->bof = ldsi_alloc(e, h->ncl * sizeof(uint32_t));
  L->g = ldsi_alloc(e, L->scap * sizeof(double));
  L->pos = ldsi_alloc(e, L->scap * sizeof(uint32_t));
  L->ncl = ldsi_alloc(e, L->scap * sizeof(uint32_t));
  L->nix = ldsi_alloc(e, L->scap * sizeof(uint16_t));
  L->nbase = ldsi_alloc(e, L->scap * sizeof(uint32_t));
  if (!L->cl || !L->bof || !L->g || !L->pos || !L->ncl || !L->nix || !L->nbase ||
      !ldsi_hpa_heap_init(e, &L->heap, L->scap))
    return LDS_E_NOMEM;
  for (c = 0; c < h->ncl; c++)
    L->bof[c] = (c / (uint32_t)h->cw / (uint32_t)K) * (uint32_t)L->w2 + (c % (uint32_t)h->cw) / (uint32_t)K;
  for (b = 0; b < L->n2; b++) {
    ldsi_HpaL2Cluster *z = &L->cl[b];
    z->cx0 = (int32_t)(b % (uint32_t)L->w2) * K;
    z->cy0 = (int32_t)(b / (uint32_t)L->w2) * K;
    z->mw = z->cx0 + K <= h->cw ? K : h->cw - z->cx0;
    z->mh = z->cy0 + K <= h->ch ? K : h->ch - z->cy0;
    z->coff = ldsi_alloc(e, ((size_t)z->mw * (size_t)z->mh + 1) * sizeof(uint32_t));
    if (!z->coff) return LDS_E_NOMEM;
  }
  for (b = 0; b < L->n2; b++)
    if (build_cluster(h, b) != LDS_OK) return LDS_E_NOMEM;
  L->build_us = e->clock(e->clock_ud) - t0;
  return LDS_OK;
}

void ldsi_hpa_l2_free(lds_Hpa *h) {
  const ldsi_Env *e = &h->env;
  ldsi_HpaL2 *L = h->l2;
  uint32_t b;
  if (!L) return;
  if (L->cl) {
    for (b = 0; b < L->n2; b++) {
      ldsi_HpaL2Cluster *z = &L->cl[b];
      if (!z->coff) continue;
      if (z->l2of) ldsi_free(e, z->l2of, (z->nbcap ? z->nbcap : 1) * sizeof(uint16_t));
      if (z->ent) ldsi_free(e, z->ent, (z->ncap ? z->ncap : 1) * sizeof(ldsi_HpaL2Ent));
      if (z->eoff) ldsi_free(e, z->eoff, ((size_t)z->ncap + 1) * sizeof(uint32_t));
      if (z->xoff) ldsi_free(e, z->xoff, ((size_t)z->ncap + 1) * sizeof(uint32_t));
      if (z->lmv) ldsi_free(e, z->lmv, nz((size_t)z->ncap * (size_t)h->lmk) * sizeof(uint32_t));
      if (z->xin) ldsi_free(e, z->xin, nz(z->nxcap) * sizeof(ldsi_HpaInter));
      if (z->edge) ldsi_free(e, z->edge, nz(z->necap) * sizeof(ldsi_HpaL2Edge));
      if (z->par)
        ldsi_free(e, z->par,
                  nz((size_t)z->ncap * z->nbcap) * sizeof(uint16_t));
      ldsi_free(e, z->coff, ((size_t)z->mw * (size_t)z->mh + 1) * sizeof(uint32_t));
    }
    ldsi_free(e, L->cl, L->n2 * sizeof *L->cl);
  }
  if (L->bof) ldsi_free(e, L->bof, h->ncl * sizeof(uint32_t));
  if (L->g) ldsi_free(e, L->g, L->scap * sizeof(double));
  if (L->pos) ldsi_free(e, L->pos, L->scap * sizeof(uint32_t));
  if (L->ncl) ldsi_free(e, L->ncl, L->scap * sizeof(uint32_t));
  if (L->nix) ldsi_free(e, L->nix, L->scap * sizeof(uint16_t));
  if (L->nbase) ldsi_free(e, L->nbase, L->scap * sizeof(uint32_t));
  ldsi_hpa_heap_free(e, &L->heap);
  if (L->ebuf) ldsi_free(e, L->ebuf, L->ebcap * sizeof(ldsi_HpaL2Edge));
  if (L->snap) ldsi_free(e, L->snap, L->snapcap * sizeof(uint32_t));
  if (L->snc) ldsi_free(e, L->snc, L->sncap * sizeof(uint32_t));
  if (L->snoff) ldsi_free(e, L->snoff, L->sncap * sizeof(size_t));
  if (L->base) ldsi_free(e, L->base, L->brcap * sizeof *L->base);
  if (L->pool) ldsi_free(e, L->pool, L->poolcap * sizeof *L->pool);
  ldsi_free(e, L, sizeof *L);
  h->l2 = NULL;
}

size_t ldsi_hpa_l2_bytes(const lds_Hpa *h) {
  const ldsi_HpaL2 *L = h->l2;
  size_t n, b;
  if (!L) return 0;
  n = sizeof *L + L->n2 * sizeof *L->cl + h->ncl * sizeof(uint32_t) +
      L->scap * (sizeof(double) + 3 * sizeof(uint32_t) + sizeof(uint16_t) + sizeof(ldsi_HpaEntry)) +
      L->ebcap * sizeof(ldsi_HpaL2Edge) + L->snapcap * sizeof(uint32_t) +
      L->sncap * (sizeof(uint32_t) + sizeof(size_t)) + L->brcap * sizeof *L->base +
      L->poolcap * sizeof *L->pool;
  for (b = 0; b < L->n2; b++) n += cluster_bytes(&L->cl[b]);
  return n;
}

void ldsi_hpa_l2_lm_copy(lds_Hpa *h, uint32_t c) {
  ldsi_HpaL2Cluster *z;
  uint32_t s;
  if (!h->l2 || !h->lmk) return;
  z = &h->l2->cl[h->l2->bof[c]];
  /* by the entrance list, not the index: it may be older than c's
  ** entrances here (a repair copies them before rebuilding this level) */
  for (s = 0; s < z->n; s++)
    if (z->ent[s].cl == c && z->ent[s].i < h->cl[c].n)
      memcpy(z->lmv + (size_t)s * (size_t)h->lmk, h->cl[c].lmv + (size_t)z->ent[s].i * (size_t)h->lmk,
             (size_t)h->lmk * sizeof(uint32_t));
}

/* Words of what the second level reads of cluster c (serialize). */
static size_t ser_words(const lds_Hpa *h, uint32_t c) {
  const ldsi_HpaCluster *k = &h->cl[c];
  return 2 + (size_t)k->n * 3 + (size_t)k->n * k->n + (size_t)k->ninter * 4;
}

/* Writes it to out: n, the entrance cells, their effective costs (two
** words each), the distance matrix, the inter edges. */
static void serialize(const lds_Hpa *h, uint32_t c, uint32_t *out) {
  const ldsi_HpaCluster *k = &h->cl[c];
  uint32_t i;
  *out++ = k->n;
  *out++ = k->ninter;
  /* a cluster without entrances has no arrays (memcpy takes no NULL) */
  if (k->n) memcpy(out, k->cell, (size_t)k->n * sizeof(uint32_t));
  out += k->n;
  for (i = 0; i < k->n; i++, out += 2) {
    double v = ldsi_hpa_cost(h, k->cell[i]);
    memcpy(out, &v, sizeof v);
  }
  if (k->n) memcpy(out, k->dist, (size_t)k->n * k->n * sizeof(float));
  out += (size_t)k->n * k->n;
  for (i = 0; i < k->ninter; i++, out += 4) {
    out[0] = k->inter[i].cl;
    out[1] = k->inter[i].i;
    out[2] = k->inter[i].xy;
    memcpy(out + 3, &k->inter[i].c, sizeof(float));
  }
}

void ldsi_hpa_l2_snapshot(lds_Hpa *h, const uint32_t *list, size_t n) {
  ldsi_HpaL2 *L = h->l2;
  size_t m, words = 0;
  if (!L) return;
  L->nsnap = 0;
  L->snap_ok = false;
  for (m = 0; m < n; m++) words += ser_words(h, list[m]);
  if (n > L->sncap) {
    uint32_t *a = ldsi_realloc(&h->env, L->snc, L->sncap * sizeof *a, n * sizeof *a);
    size_t *b;
    if (!a) return;
    L->snc = a;
    b = ldsi_realloc(&h->env, L->snoff, L->sncap * sizeof *b, n * sizeof *b);
    if (!b) return;
    L->snoff = b;
    L->sncap = n;
  }
  if (words > L->snapcap) {
    uint32_t *a = ldsi_realloc(&h->env, L->snap, L->snapcap * sizeof *a, words * sizeof *a);
    if (!a) return;
    L->snap = a;
    L->snapcap = words;
  }
  for (m = 0, words = 0; m < n; m++) {
    L->snc[m] = list[m];
    L->snoff[m] = words;
    serialize(h, list[m], L->snap + words);
    words += ser_words(h, list[m]);
  }
  L->nsnap = n;
  L->snwords = words;
  L->snap_ok = true;
}

/* cluster c reads as the snapshot kept it (false without one) */
static bool unchanged(const lds_Hpa *h, uint32_t c, uint32_t *tmp) {
  const ldsi_HpaL2 *L = h->l2;
  size_t m, w;
  if (!L->snap_ok) return false;
  for (m = 0; m < L->nsnap && L->snc[m] != c; m++) {}
  if (m == L->nsnap) return false;
  w = ser_words(h, c);
  if ((m + 1 < L->nsnap ? L->snoff[m + 1] : L->snwords) - L->snoff[m] != w) return false;
  serialize(h, c, tmp);
  return memcmp(tmp, L->snap + L->snoff[m], w * sizeof(uint32_t)) == 0;
}

/* The snapshot of cluster c and its word count; NULL without one. */
static const uint32_t *snap_of(const lds_Hpa *h, uint32_t c, size_t *words) {
  const ldsi_HpaL2 *L = h->l2;
  size_t m;
  if (!L->snap_ok) return NULL;
  for (m = 0; m < L->nsnap && L->snc[m] != c; m++) {}
  if (m == L->nsnap) return NULL;
  *words = (m + 1 < L->nsnap ? L->snoff[m + 1] : L->snwords) - L->snoff[m];
  return L->snap + L->snoff[m];
}

/* c differs from its snapshot old (ow words) in its distance matrix only
** (same entrance cells, costs and inter edges) */
static bool only_dist(const lds_Hpa *h, uint32_t c, const uint32_t *old, size_t ow, uint32_t *tmp) {
  size_t w = ser_words(h, c), head = 2 + (size_t)h->cl[c].n * 3, nn = (size_t)h->cl[c].n * h->cl[c].n;
  if (w != ow) return false;
  serialize(h, c, tmp);
  return memcmp(tmp, old, head * sizeof(uint32_t)) == 0 &&
         memcmp(tmp + head + nn, old + head + nn, (w - head - nn) * sizeof(uint32_t)) == 0;
}

static float word_float(uint32_t w) {
  float f;
  memcpy(&f, &w, sizeof f);
  return f;
}

/* The cost the edge u -> v of b's local graph had before the repair:
** old[m], when set, is the distance matrix member m of b had (as words). */
static float old_cost(const lds_Hpa *h, const ldsi_HpaL2Cluster *z, const uint32_t *const *old,
                      uint32_t u, uint32_t v) {
  const ldsi_HpaL2 *L = h->l2;
  uint32_t cu = L->ncl[u], cv = L->ncl[v];
  const ldsi_HpaCluster *k = &h->cl[cu];
  const ldsi_HpaInter *e, *end;
  if (cu == cv) {
    int32_t m = ((int32_t)(cu / (uint32_t)h->cw) - z->cy0) * z->mw + (int32_t)(cu % (uint32_t)h->cw) - z->cx0;
    size_t at = (size_t)L->nix[u] * k->n + L->nix[v];
    return old[m] ? word_float(old[m][at]) : k->dist[at];
  }
  for (e = k->inter + k->ioff[L->nix[u]], end = k->inter + k->ioff[L->nix[u] + 1]; e < end; e++)
    if (e->cl == cv && e->i == L->nix[v]) return e->c;
  return INFINITY;
}

/* The cost source_tree gave local node v in s's tree before the repair
** (summed along the stored tree with the old costs, in the order the
** Dijkstra added them, so bit for bit); gm memoizes (NaN: not yet). */
static double old_g(const lds_Hpa *h, const ldsi_HpaL2Cluster *z, const uint32_t *const *old,
                    const uint16_t *par, double *gm, uint32_t *stack, uint32_t v) {
  size_t n = 0;
  stack[n++] = v;
  while (n) {
    uint32_t t = stack[n - 1], p = par[t];
    if (!isnan(gm[t])) {
      n--;
    } else if (p == LDSI_L2_SRC) {
      gm[t] = 0.0;
      n--;
    } else if (p == LDSI_L2_NONE) {
      gm[t] = INFINITY;
      n--;
    } else if (!isnan(gm[p])) {
      gm[t] = gm[p] + (double)old_cost(h, z, old, p, t);
      n--;
    } else {
      stack[n++] = p;
    }
  }
  return gm[v];
}

/* Updates second-level cluster b where only distance matrices of its
** members changed (old[m]: member m's matrix before, as words; NULL when
** unchanged): a source's tree is kept unless a changed edge a -> c was on
** it or could be, g(a) + w == g(c) with the old cost or g(a) + w <= g(c)
** with the new one (g: the old tree's costs). A kept tree is then what the
** Dijkstra gives on the new graph (its costs still bound every edge from
** above, the changed edges strictly, and it settles in the same order), so
** the result equals a fresh build's. */
static lds_Status update_cluster(lds_Hpa *h, uint32_t b, const uint32_t *const *old) {
  ldsi_HpaL2 *L = h->l2;
  ldsi_HpaL2Cluster *z = &L->cl[b];
  uint32_t nb = z->nb, n = z->n, s, m, nm = (uint32_t)(z->mw * z->mh), ne = 0;
  double *gm = ldsi_alloc(&h->env, nz(nb) * sizeof(double));
  uint32_t *stack = ldsi_alloc(&h->env, nz(nb) * sizeof(uint32_t));
  uint32_t *ooff = ldsi_alloc(&h->env, ((size_t)n + 1) * sizeof(uint32_t));
  lds_Status st = LDS_OK;
  if (!gm || !stack || !ooff) {
    st = LDS_E_NOMEM;
    goto done;
  }
  local_nodes(h, b);
  memcpy(ooff, z->eoff, ((size_t)n + 1) * sizeof(uint32_t));
  L->edges -= ooff[n];
  for (s = 0; s < n; s++) {
    const uint16_t *par = z->par + (size_t)s * nb;
    bool hit = false;
    uint32_t v;
    for (v = 0; v < nb; v++) gm[v] = NAN;
    for (m = 0; m < nm && !hit; m++) {
      uint32_t c, i, j, kn, base = z->coff[m];
      const float *nd;
      if (!old[m]) continue;
      c = L->ncl[base];
      kn = h->cl[c].n;
      nd = h->cl[c].dist;
      for (i = 0; i < kn && !hit; i++) {
        double ga = NAN;
        for (j = 0; j < kn && !hit; j++) {
          float wo = word_float(old[m][(size_t)i * kn + j]), wn = nd[(size_t)i * kn + j];
          double gc;
          if (i == j || memcmp(&wo, &wn, sizeof wo) == 0) continue;
          if (isnan(ga)) ga = old_g(h, z, old, par, gm, stack, base + i);
          if (!isfinite(ga)) break;
          gc = old_g(h, z, old, par, gm, stack, base + j);
          hit = (wo < INFINITY && ga + (double)wo == gc) || (wn < INFINITY && ga + (double)wn <= gc);
        }
      }
    }
    z->eoff[s] = ne;
    if (hit) {
      L->rerun++;
      source_tree(h, b, s);
      ne = source_edges(h, b, s, ne);
    } else {
      L->kept++;
      if (ooff[s + 1] > ooff[s])
        memcpy(L->ebuf + ne, z->edge + ooff[s], (size_t)(ooff[s + 1] - ooff[s]) * sizeof *L->ebuf);
      ne += ooff[s + 1] - ooff[s];
    }
  }
  st = set_edges(h, b, ne);
done:
  if (gm) ldsi_free(&h->env, gm, nz(nb) * sizeof(double));
  if (stack) ldsi_free(&h->env, stack, nz(nb) * sizeof(uint32_t));
  if (ooff) ldsi_free(&h->env, ooff, ((size_t)n + 1) * sizeof(uint32_t));
  return st;
}

/* The build-time record of member c of stale cluster b; NULL if none. */
static const ldsi_HpaL2Base *base_find(const ldsi_HpaL2 *L, uint32_t b, uint32_t c) {
  size_t r;
  for (r = 0; r < L->nbrec; r++)
    if (L->base[r].b == b && L->base[r].c == c) return &L->base[r];
  return NULL;
}

/* Keeps the n words w as member c of stale cluster b read at its build;
** false on NOMEM (nothing kept). */
static bool base_add(lds_Hpa *h, uint32_t b, uint32_t c, const uint32_t *w, size_t n) {
  ldsi_HpaL2 *L = h->l2;
  if (L->nbrec == L->brcap) {
    size_t nc = L->brcap ? 2 * L->brcap : 16;
    ldsi_HpaL2Base *a = ldsi_realloc(&h->env, L->base, L->brcap * sizeof *a, nc * sizeof *a);
    if (!a) return false;
    L->base = a;
    L->brcap = nc;
  }
  if (L->npool + n > L->poolcap) {
    size_t nc = L->poolcap ? 2 * L->poolcap : 1024;
    uint32_t *a;
    while (nc < L->npool + n) nc *= 2;
    a = ldsi_realloc(&h->env, L->pool, L->poolcap * sizeof *a, nc * sizeof *a);
    if (!a) return false;
    L->pool = a;
    L->poolcap = nc;
  }
  memcpy(L->pool + L->npool, w, n * sizeof *w);
  L->base[L->nbrec].b = b;
  L->base[L->nbrec].c = c;
  L->base[L->nbrec].off = L->npool;
  L->base[L->nbrec].words = n;
  L->nbrec++;
  L->npool += n;
  return true;
}

/* Records, for stale cluster b, the build-time data of the members of chg
** (n of them; those of other second-level clusters are skipped) that have
** none yet: their snapshot, taken before this repair, when nothing had
** changed them since b's build. Without a snapshot b becomes untracked. */
static void base_note(lds_Hpa *h, uint32_t b, const uint32_t *chg, size_t n) {
  ldsi_HpaL2 *L = h->l2;
  size_t k;
  for (k = 0; k < n && !L->cl[b].untracked; k++) {
    const uint32_t *sn;
    size_t ow = 0;
    if (L->bof[chg[k]] != b || base_find(L, b, chg[k])) continue;
    sn = snap_of(h, chg[k], &ow);
    if (!sn || !base_add(h, b, chg[k], sn, ow)) L->cl[b].untracked = true;
  }
}

/* Every member of stale cluster b reads as at b's build (tmp: room for one
** serialization), so its arrays are exact again. */
static bool base_valid(const lds_Hpa *h, uint32_t b, uint32_t *tmp) {
  const ldsi_HpaL2 *L = h->l2;
  size_t r;
  if (L->cl[b].untracked) return false;
  for (r = 0; r < L->nbrec; r++) {
    const ldsi_HpaL2Base *x = &L->base[r];
    if (x->b != b) continue;
    if (ser_words(h, x->c) != x->words) return false;
    serialize(h, x->c, tmp);
    if (memcmp(tmp, L->pool + x->off, x->words * sizeof *tmp) != 0) return false;
  }
  return true;
}

/* Clears the staleness of b and drops its records. */
static void set_fresh(ldsi_HpaL2 *L, uint32_t b) {
  size_t r, w = 0, nr = 0;
  for (r = 0; r < L->nbrec; r++) {
    ldsi_HpaL2Base x = L->base[r];
    if (x.b == b) continue;
    memmove(L->pool + w, L->pool + x.off, x.words * sizeof *L->pool);
    x.off = w;
    w += x.words;
    L->base[nr++] = x;
  }
  L->nbrec = nr;
  L->npool = w;
  L->cl[b].stale = 0;
  L->cl[b].untracked = false;
  L->nstale--;
}

bool ldsi_hpa_l2_refresh(lds_Hpa *h, lds_Status *st) {
  ldsi_HpaL2 *L = h->l2;
  uint32_t b, old = LDSI_HPA_NOIDX;
  *st = LDS_OK;
  if (!L || !L->nstale) return false;
  for (b = 0; b < L->n2; b++)
    if (L->cl[b].stale && (old == LDSI_HPA_NOIDX || L->cl[b].stale < L->cl[old].stale)) old = b;
  *st = build_cluster(h, old);
  if (*st == LDS_OK) {
    set_fresh(L, old);
    L->refreshed++;
  } else {
    /* half built: stale until a rebuild succeeds */
    L->cl[old].untracked = true;
  }
  return true;
}

lds_Status ldsi_hpa_l2_repair(lds_Hpa *h, const uint32_t *rebuilt, size_t n, const uint32_t *inter,
                              size_t ni) {
  ldsi_HpaL2 *L = h->l2;
  uint32_t *list, *chg, *tmp;
  size_t m, k, nl = 0, nc = 0, tw;
  lds_Status st = LDS_OK;
  const uint32_t **old = NULL;
  if (!L || n + ni == 0) return LDS_OK;
  tw = (size_t)2 + (size_t)h->cap * 3 + (size_t)h->cap * h->cap + (size_t)h->cap * 8 * 4;
  list = ldsi_alloc(&h->env, (n + ni) * sizeof(uint32_t));
  chg = ldsi_alloc(&h->env, nz(n) * sizeof(uint32_t));
  tmp = ldsi_alloc(&h->env, tw * sizeof(uint32_t));
  old = ldsi_alloc(&h->env, (size_t)L->K * (size_t)L->K * sizeof *old);
  if (!list || !chg || !tmp || !old) {
    st = LDS_E_NOMEM;
    goto done;
  }
  /* the rebuilt clusters that read differently from before (the others
  ** change nothing here) */
  for (m = 0; m < n; m++)
    if (unchanged(h, rebuilt[m], tmp)) L->skipped++;
    else chg[nc++] = rebuilt[m];
  /* each second-level cluster of a changed one once, in the order first
  ** met: updated where only distances changed; else left stale (its
  ** members' data at its build kept), to be rebuilt later
  ** (ldsi_hpa_l2_refresh); a stale one whose members all read as at its
  ** build again is exact again */
  for (m = 0; m < nc && st == LDS_OK; m++) {
    uint32_t b = L->bof[chg[m]], nm;
    ldsi_HpaL2Cluster *z = &L->cl[b];
    bool whole = false;
    for (k = 0; k < nl && list[k] != b; k++) {}
    if (k < nl) continue;
    list[nl++] = b;
    if (!z->stale) {
      nm = (uint32_t)(z->mw * z->mh);
      memset(old, 0, nm * sizeof *old);
      for (k = m; k < nc && !whole; k++) {
        uint32_t c = chg[k];
        size_t ow = 0;
        const uint32_t *sn;
        int32_t mm;
        if (L->bof[c] != b) continue;
        sn = snap_of(h, c, &ow);
        if (!sn || !only_dist(h, c, sn, ow, tmp)) {
          whole = true;
          break;
        }
        mm = ((int32_t)(c / (uint32_t)h->cw) - z->cy0) * z->mw + (int32_t)(c % (uint32_t)h->cw) - z->cx0;
        old[mm] = sn + 2 + (size_t)h->cl[c].n * 3;
      }
      if (!whole) {
        /* an update keeps the entrances; their leaving edges may point at
        ** entrances a neighbour renumbered */
        st = update_cluster(h, b, old);
        if (st == LDS_OK) st = build_xin(h, b);
        continue;
      }
      z->stale = ++L->stale_next;
      L->nstale++;
    }
    base_note(h, b, chg + m, nc - m);
    if (base_valid(h, b, tmp)) {
      uint32_t r;
      /* the landmark copies were written by entrance lists that did not
      ** match while stale */
      for (r = 0; r < L->nbrec; r++)
        if (L->base[r].b == b) ldsi_hpa_l2_lm_copy(h, L->base[r].c);
      set_fresh(L, b);
      L->unstaled++;
      st = build_xin(h, b);
    }
  }
  /* the leaving inter edges of the others whose clusters' inter edges were
  ** redone (a stale cluster's are listed by its rebuild) */
  for (m = 0; m < ni && st == LDS_OK; m++) {
    uint32_t b = L->bof[inter[m]];
    for (k = 0; k < nl && list[k] != b; k++) {}
    if (k < nl) continue;
    list[nl++] = b;
    if (!L->cl[b].stale) st = build_xin(h, b);
  }
  /* at most LDSI_L2_STALE_MAX stale: the oldest rebuilt */
  while (st == LDS_OK && L->nstale > LDSI_L2_STALE_MAX) ldsi_hpa_l2_refresh(h, &st);
done:
  if (list) ldsi_free(&h->env, list, (n + ni) * sizeof(uint32_t));
  if (chg) ldsi_free(&h->env, chg, nz(n) * sizeof(uint32_t));
  if (tmp) ldsi_free(&h->env, tmp, tw * sizeof(uint32_t));
  if (old) ldsi_free(&h->env, old, (size_t)L->K * (size_t)L->K * sizeof *old);
  L->snap_ok = false;
  return st;
}

/* the padded cell of local node v of z */
static uint32_t local_cell(const lds_Hpa *h, const ldsi_HpaL2Cluster *z, uint32_t v) {
  uint32_t lo = 0, hi = (uint32_t)(z->mw * z->mh), c;
  /* the last m with coff[m] <= v (the empty clusters before it share its offset) */
  while (hi - lo > 1) {
    uint32_t mid = (lo + hi) / 2;
    if (z->coff[mid] <= v) lo = mid;
    else hi = mid;
  }
  c = (uint32_t)(z->cy0 + (int32_t)(lo / (uint32_t)z->mw)) * (uint32_t)h->cw +
      (uint32_t)(z->cx0 + (int32_t)(lo % (uint32_t)z->mw));
  return h->cl[c].cell[v - z->coff[lo]];
}

lds_Status ldsi_hpa_l2_unpack(lds_HpaQuery *q) {
  const lds_Hpa *h = q->h;
  const ldsi_HpaL2 *L = h->l2;
  const lds_Grid *g = h->grid;
  size_t k, n = 0, cap, traced = 0;
  uint32_t *out;
  if (!q->l2 || !L || q->nwp < 2) return LDS_OK;
  cap = 2 * q->nwp + 16;
  out = ldsi_alloc(&q->env, cap * sizeof(uint32_t));
  if (!out) return LDS_E_NOMEM;
  out[n++] = q->wp[0];
  for (k = 0; k + 1 < q->nwp; k++) {
    uint32_t a = q->wp[k], bc = q->wp[k + 1], ca, cb, za, m = 0, v, sa, lb, la;
    int32_t xa, ya, xb, yb;
    const ldsi_HpaL2Cluster *z;
    const uint16_t *par;
    ldsi_grid_pxy(g, a, &xa, &ya);
    ldsi_grid_pxy(g, bc, &xb, &yb);
    ca = ldsi_hpa_cluster_of(h, xa, ya);
    cb = ldsi_hpa_cluster_of(h, xb, yb);
    za = L->bof[ca];
    if (za != L->bof[cb] || ldsi_hpa_l2_local(L, za, q->bs, q->bg)) {
      if (n == cap) {
        uint32_t *o2 = ldsi_realloc(&q->env, out, cap * sizeof(uint32_t), 2 * cap * sizeof(uint32_t));
        if (!o2) goto nomem;
        out = o2;
        cap *= 2;
      }
      out[n++] = bc;
      continue;
    }
    /* a second-level edge: the tree of a's Dijkstra from b back to a */
    z = &L->cl[za];
    sa = ldsi_hpa_l2_index(h, z, ca, (uint32_t)h->nidx[(size_t)ya * (size_t)g->w + (size_t)xa] - 1u);
    lb = ldsi_hpa_l2_index(h, z, cb, (uint32_t)h->nidx[(size_t)yb * (size_t)g->w + (size_t)xb] - 1u);
    if (sa == LDSI_L2_NONE || lb == LDSI_L2_NONE) goto stale;
    lb = z->ent[lb].loc;
    la = z->ent[sa].loc;
    par = z->par + (size_t)sa * z->nb;
    for (v = lb; v != la; v = par[v]) {
      if (v >= z->nb || m > z->nb) goto stale;
      m++;
    }
    if (n + m > cap) {
      size_t nc = 2 * (n + m);
      uint32_t *o2 = ldsi_realloc(&q->env, out, cap * sizeof(uint32_t), nc * sizeof(uint32_t));
      if (!o2) goto nomem;
      out = o2;
      cap = nc;
    }
    for (v = lb, sa = m; sa-- > 0; v = par[v]) out[n + sa] = local_cell(h, z, v);
    n += m;
    traced += m;
  }
  if (q->wp) ldsi_free(&q->env, q->wp, q->wcap * sizeof(uint32_t));
  q->wp = out;
  q->wcap = cap;
  q->nwp = n;
  q->stats.expansions += traced;
  return LDS_OK;
stale:
  /* cannot happen with a repaired hierarchy: the search used these rows */
  ldsi_free(&q->env, out, cap * sizeof(uint32_t));
  return LDS_E_STATE;
nomem:
  ldsi_free(&q->env, out, cap * sizeof(uint32_t));
  return LDS_E_NOMEM;
}

lds_Status lds_hpa_use_level2(lds_Hpa *h, bool on) {
  if (!h) return LDS_E_ARG;
  if (!h->l2 && on) {
    ldsi_msg(h->errmsg, "lds_hpa_use_level2: on = true for a hierarchy built without a second "
             "level (lds_HpaParams.level2 0, or LDS_HPA_LEVEL2_AUTO on a grid of fewer than "
             "%ld cells; expected on = false, or a hierarchy built with level2 2..32)",
             (long)LDS_HPA_LEVEL2_MIN_CELLS);
    return LDS_E_STATE;
  }
  if (h->l2) h->l2->use = on;
  return LDS_OK;
}
