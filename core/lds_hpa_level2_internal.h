/* SPDX-License-Identifier: MIT */
/*
** lds_hpa_level2_internal.h — the hierarchy's second abstraction level
** (lds_hpa_level2.c): clusters of K x K first-level clusters, their border
** entrances and the exact distances between them over the first-level
** abstract graph, with the parent trees that unpack a second-level edge
** into first-level entrances. Hidden; not installed.
** [Paper: Botea, Müller & Schaeffer, "Near Optimal Hierarchical
**  Path-Finding", J. Game Development 1(1), 2004, section "Multiple levels"]
*/
#ifndef LDS_HPA_LEVEL2_INTERNAL_H
#define LDS_HPA_LEVEL2_INTERNAL_H

#include "lds_hpa_internal.h"

/* parent codes of a second-level tree (ldsi_HpaL2Cluster.par) */
#define LDSI_L2_SRC 0xFFFEu
#define LDSI_L2_NONE 0xFFFFu

/* a second-level entrance: first-level entrance i of cluster cl (at cell
** xy = x | y << 16), local node loc of its second-level cluster */
typedef struct ldsi_HpaL2Ent {
  uint32_t cl, i, xy, loc;
} ldsi_HpaL2Ent;

/* a second-level edge: to entrance t of the same cluster, costing c */
typedef struct ldsi_HpaL2Edge {
  uint32_t t;
  float c;
} ldsi_HpaL2Edge;

/* A second-level cluster: the first-level clusters of columns
** cx0 .. cx0 + mw - 1 and rows cy0 .. cy0 + mh - 1. Its local nodes are
** their entrances, numbered cluster by cluster (row-major) and by index:
** local node coff[m] + i is entrance i of its m-th first-level cluster.
** Its entrances are the local nodes on its outer border (a cell of the
** cluster next to a cell of another second-level cluster): every move
** between two second-level clusters joins two of them. */
typedef struct ldsi_HpaL2Cluster {
  int32_t cx0, cy0, mw, mh;
  uint32_t nb, n;      /* local nodes, second-level entrances */
  uint32_t nbcap, ncap, necap, nxcap;
  uint32_t *coff;      /* mw * mh + 1 */
  uint16_t *l2of;      /* nbcap: the second-level index of a local node, LDSI_L2_NONE */
  ldsi_HpaL2Ent *ent;  /* ncap */
  /* per entrance s: edge[eoff[s] .. eoff[s + 1]) (CSR, eoff has ncap + 1
  ** slots), the cost from s to entrance t over the first-level abstract
  ** graph restricted to this cluster (its clusters' intra edges and the
  ** inter edges between them), rounded down to a float; only the edges
  ** whose shortest path passes through no other entrance (the others are
  ** the sum of two kept ones, so the distances are the same) */
  uint32_t *eoff;
  ldsi_HpaL2Edge *edge;
  /* per entrance s: the inter edges of its first-level entrance that leave
  ** this cluster, xin[xoff[s] .. xoff[s + 1]) (xoff: ncap + 1 slots) */
  uint32_t *xoff;
  ldsi_HpaInter *xin;
  /* ncap * lmk: the landmark values of the entrances (a copy of the first
  ** level's lmv, so the search reads the cluster's own memory) */
  uint32_t *lmv;
  /* n * nb: par[s * nb + v] = the local node before v on entrance s's
  ** shortest path to v (LDSI_L2_SRC at s, LDSI_L2_NONE if not reached),
  ** so an edge s -> t unpacks into first-level entrances with no search */
  uint16_t *par;
  /* 0 when the arrays above hold the exact data of the first level as it
  ** is; else the order in which the cluster went stale (1, 2, ...): an
  ** entrance list of a member changed, the arrays still describe the
  ** members as they were at the last build (ldsi_HpaL2.base holds what
  ** changed), and fast queries search its members' first-level edges */
  uint64_t stale;
  bool untracked;      /* stale, and what it was built from is not all kept */
} ldsi_HpaL2Cluster;

/* what a member c of stale second-level cluster b read as at b's last
** build: pool words off .. off + words (the serialization the snapshot
** takes) */
typedef struct ldsi_HpaL2Base {
  uint32_t b, c;
  size_t off, words;
} ldsi_HpaL2Base;

/* Stale second-level clusters kept at most (more: the oldest are rebuilt
** by the repair that would exceed it); each one costs a fast query that
** crosses it a first-level search of its K x K clusters. */
#define LDSI_L2_STALE_MAX 8

typedef struct ldsi_HpaL2 {
  int32_t K;           /* first-level clusters per second-level side */
  int32_t w2, h2;      /* second-level clusters per row and column */
  uint32_t n2;
  ldsi_HpaL2Cluster *cl;
  uint32_t *bof;       /* per first-level cluster: its second-level cluster */
  bool use;            /* fast queries use the level (lds_hpa_use_level2) */
  size_t entrances;    /* second-level entrances in all */
  uint64_t build_us;
  /* scratch of the second-level Dijkstra: scap local nodes */
  uint32_t scap;
  double *g;
  uint32_t *pos;
  uint32_t *ncl;       /* per local node: its first-level cluster */
  uint16_t *nix;       /* its entrance index there */
  uint32_t *nbase;     /* the local node of that cluster's entrance 0 */
  ldsi_HpaHeap heap;
  ldsi_HpaL2Edge *ebuf; /* the edges of the cluster being built */
  size_t ebcap;
  size_t edges;        /* second-level edges in all */
  /* what the second level read of the clusters a repair may rebuild, as
  ** they were before it (ldsi_hpa_l2_snapshot): per cluster snc[k], its
  ** words from snoff[k] in snap */
  uint32_t *snap, *snc;
  size_t *snoff;
  size_t nsnap, snapcap, sncap, snwords;
  bool snap_ok;
  uint64_t skipped;    /* rebuilt clusters a repair found unchanged for this level */
  uint64_t kept, rerun; /* source trees an update kept, and ran again */
  /* stale clusters (ldsi_HpaL2Cluster.stale): how many, the next order */
  uint32_t nstale;
  uint64_t stale_next;
  /* their members' build-time data: records base[0 .. nbase), words in pool */
  ldsi_HpaL2Base *base;
  size_t nbrec, brcap;
  uint32_t *pool;
  size_t npool, poolcap;
  uint64_t unstaled, refreshed; /* stale clusters found valid again, rebuilt */
} ldsi_HpaL2;

/* Builds the second level with K first-level clusters a side over the
** built first level (h->l2); LDS_E_NOMEM. */
LDSI_HIDDEN lds_Status ldsi_hpa_l2_new(lds_Hpa *h, int K);
LDSI_HIDDEN void ldsi_hpa_l2_free(lds_Hpa *h);
/* Copies the landmark values of first-level cluster c's entrances (its
** lmv) into the second level's copies (called wherever those change). */
LDSI_HIDDEN void ldsi_hpa_l2_lm_copy(lds_Hpa *h, uint32_t c);
LDSI_HIDDEN size_t ldsi_hpa_l2_bytes(const lds_Hpa *h);
/* Before the first level's repair: keeps what the second level reads of
** the n clusters of list (entrance cells and their effective costs,
** distance matrix, inter edges), so the repair updates only the
** second-level clusters where it changed. Out of memory is no error: every
** second-level cluster of a rebuilt cluster is then left stale, untracked
** (rebuilt by ldsi_hpa_l2_refresh only). */
LDSI_HIDDEN void ldsi_hpa_l2_snapshot(lds_Hpa *h, const uint32_t *list, size_t n);
/* After the first level's repair, for the second-level clusters holding
** any of the n first-level clusters of rebuilt whose entrance cells, their
** costs, distances or inter edges changed: updates those where only
** distances changed, leaves the others stale (keeping their members' data
** as at their build), makes a stale one whose members all read so again
** exact again, then rebuilds the oldest stale ones beyond
** LDSI_L2_STALE_MAX; lists again the leaving inter edges of the fresh ones
** holding any of the ni clusters of inter (whose inter edges were redone);
** LDS_E_NOMEM. */
LDSI_HIDDEN lds_Status ldsi_hpa_l2_repair(lds_Hpa *h, const uint32_t *rebuilt, size_t n,
                                          const uint32_t *inter, size_t ni);
/* Rebuilds the oldest stale second-level cluster; false when none is
** stale (nothing done). *st: LDS_OK or LDS_E_NOMEM. */
LDSI_HIDDEN bool ldsi_hpa_l2_refresh(lds_Hpa *h, lds_Status *st);
/* Second-level cluster zb is searched on the first level by a fast query
** from first-level cluster cs to cg: it holds the start or the goal, or it
** is stale. */
static inline bool ldsi_hpa_l2_local(const ldsi_HpaL2 *L, uint32_t zb, uint32_t bs, uint32_t bg) {
  return zb == bs || zb == bg || L->cl[zb].stale != 0;
}
/* A fast query's abstract path over both levels into first-level
** waypoints: each second-level edge (two consecutive waypoints in one
** second-level cluster that is neither the start's nor the goal's, and
** not stale) is replaced by the entrances of its stored tree path; the traced nodes
** count as expansions. LDS_E_NOMEM. */
LDSI_HIDDEN lds_Status ldsi_hpa_l2_unpack(lds_HpaQuery *q);
/* The second-level index of entrance i of first-level cluster c in its
** second-level cluster z, LDSI_L2_NONE when it is not a second-level
** entrance. */
static inline uint32_t ldsi_hpa_l2_index(const lds_Hpa *h, const ldsi_HpaL2Cluster *z, uint32_t c,
                                         uint32_t i) {
  int32_t mx = (int32_t)(c % (uint32_t)h->cw) - z->cx0, my = (int32_t)(c / (uint32_t)h->cw) - z->cy0;
  return z->l2of[z->coff[my * z->mw + mx] + i];
}

#endif
