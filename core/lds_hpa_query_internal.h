/* SPDX-License-Identifier: MIT */
/*
** lds_hpa_query_internal.h — the query object of the hierarchy, shared by
** the fast mode (lds_hpa_query.c) and the optimal mode (lds_hpa_exact.c).
** Hidden; not installed.
*/
#ifndef LDS_HPA_QUERY_INTERNAL_H
#define LDS_HPA_QUERY_INTERNAL_H

#include "lds_hpa_internal.h"

typedef struct ldsi_HpaExact ldsi_HpaExact;

/* record of an abstract node in a query (32 bytes: one cache access per
** relaxation); its index in its cluster is its id minus the cluster's base */
typedef struct ldsi_HpaAbsNode {
  double g;
  double h;       /* its heuristic towards the goal times the query's w (set when first reached) */
  uint32_t par, gen;
  uint32_t cl;    /* its first-level cluster (START, GOAL: those of the start
                  ** and the goal; a second-level id: that of its entrance) */
  uint32_t closed; /* 1 once expanded (until an improvement reopens it) */
} ldsi_HpaAbsNode;

/* an entry of the abstract search's 4-ary heap (lds_hpa_query.c akey):
** f - g * 2^-30, and the node */
typedef struct ldsi_HpaAbsEntry {
  double key;
  uint32_t id;
} ldsi_HpaAbsEntry;

struct lds_HpaQuery {
  ldsi_Env env;
  lds_Hpa *h;
  lds_HpaMode mode;
  double w;           /* the fast mode's weight (lds_HpaParams.fast_weight) at its start */
  lds_Status status;
  lds_Stats stats;
  uint64_t version;
  int32_t sx, sy, gx, gy;
  size_t ps, pg;      /* padded cells */
  uint32_t cs, cg;    /* their clusters */
  int phase;
  /* abstract search: dense ids base[cluster] + i (base: prefix sums of the
  ** clusters' entrance counts, redone after a repair), then START and GOAL
  ** (nabs - 2, nabs - 1), then the second level's ids (l2base below);
  ** acap = records allocated */
  size_t nabs, acap;
  uint32_t *base;     /* ncl + 1 */
  /* with a second level: its entrances have ids of their own, l2id0 +
  ** l2base[z] + s for entrance s of second-level cluster z (l2base: n2 + 1
  ** prefix sums of the clusters' entrance counts), so the records a
  ** second-level expansion reads are one short run per cluster */
  uint32_t *l2base;
  uint32_t l2id0;
  uint64_t layout;    /* h->repairs the base was computed for; UINT64_MAX: never */
  ldsi_HpaAbsNode *an; /* per id: cost, parent, generation, heap slot */
  uint32_t agcur;
  ldsi_HpaAbsEntry *ah; /* the abstract heap: ahcap entries (grown), nah in use */
  size_t nah, ahcap;
  bool anomem;        /* a push failed for want of memory */
  /* the abstract heuristic's landmarks (the hierarchy's tables, lds_landmarks.h):
  ** those whose table reaches the goal, and the goal's values */
  int nlact;
  uint8_t lact[32];
  uint32_t lgt[32];
  double *ds, *dg;    /* cap each: start -> entrance i of cs, entrance i of cg -> goal */
  double dsg;         /* start -> goal inside their common cluster */
  bool l2;            /* the search uses the second level (lds_hpa_level2.c) */
  uint32_t bs, bg;    /* then: the second-level clusters of the start and the goal */
  uint64_t l2refresh; /* ldsi_HpaL2.refreshed at lds_hpa_query_start (a rebuild of a
                      ** stale second-level cluster ends a fast query with LDS_E_STALE) */
  bool tree_s;        /* the start side was read from the entrances' trees
                      ** (uniform costs), not searched */
  double abstract_cost;
  /* waypoints (padded cells) of the abstract path */
  uint32_t *wp;
  size_t nwp, wcap;
  size_t leg;         /* the next waypoint pair (leg, leg + 1) to refine */
  /* the kept (final) prefix: padded cells */
  uint32_t *cells;
  size_t ncells, ccap;
  double cost;
  /* refinement: the concatenated intra-cluster paths (raw, padded cells,
  ** with prefix costs rawc and coordinates rawxy, x | y << 16), smoothed
  ** from anchor on into cells */
  uint32_t *raw;
  double *rawc;
  uint32_t *rawxy;
  size_t nraw, rawcap, anchor;
  ldsi_HpaLocal win;  /* cluster searches (up to 3C x 3C cells) */
  ldsi_HpaLocal ls;   /* the start's insertion Dijkstra (one cluster) where
                      ** costs are not uniform: its parents refine the first leg */
  /* band refinement (lds_hpa_band.c), where costs are not uniform:
  ** allocated at the first such query */
  bool banded;        /* this query refines by band (else smooths by lines) */
  ldsi_HpaLocal band; /* a window's A* (bcap cells) */
  uint32_t *bmask;    /* per cell of the window's box: bcur when in the band */
  uint32_t *bown;     /* and the last raw index it lies within the radius of */
  uint32_t bcur;
  uint32_t *btr;      /* a window's path */
  uint32_t *btail;    /* the last window's path past the kept cells, nbtail */
  size_t nbtail, bcap;
  size_t bend;        /* the raw index the last window's path ended at */
  uint32_t *tr;       /* trace buffer of a cluster or box path */
  size_t trcap;
  ldsi_HpaExact *ex;  /* optimal mode state, NULL until first used */
  char errmsg[LDS_ERRMSG_SIZE];
};

/* Optimal mode (lds_hpa_exact.c): prepares (allocates on first use) and runs. */
LDSI_HIDDEN lds_Status ldsi_hpa_exact_start(lds_HpaQuery *q);
LDSI_HIDDEN lds_Status ldsi_hpa_exact_run(lds_HpaQuery *q, uint64_t max_exp, uint64_t budget_us,
                                          uint64_t t0);
LDSI_HIDDEN void ldsi_hpa_exact_free(lds_HpaQuery *q);
/* Band refinement (lds_hpa_band.c): whether query q refines by band
** (costs not uniform under its hierarchy's weights), allocating its buffers
** on first use (false on NOMEM); and the refinement of what is final of the
** raw path (all: the raw path is complete), false on NOMEM. */
LDSI_HIDDEN bool ldsi_hpa_band_prepare(lds_HpaQuery *q);
LDSI_HIDDEN bool ldsi_hpa_band(lds_HpaQuery *q, bool all);
LDSI_HIDDEN void ldsi_hpa_band_free(lds_HpaQuery *q);
/* appends padded cell p to the kept path (growing it); false on NOMEM */
LDSI_HIDDEN bool ldsi_hpa_keep(lds_HpaQuery *q, uint32_t p);

#endif
