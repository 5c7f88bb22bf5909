/* SPDX-License-Identifier: MIT */
/*
** lds_cost_view_internal.h — the cost view's state (lds_cost_view.c), read by
** the search's start and step (lds_search.c): the costs, the published scale
** and uniform flag, and the epochs that tell a running search its set-up is
** out of date. Hidden; not installed.
*/
#ifndef LDS_COST_VIEW_INTERNAL_H
#define LDS_COST_VIEW_INTERNAL_H

#include "lds_cost_view.h"
#include "lds_grid_internal.h"

#include <stdatomic.h>

#define LDSI_VIEW_MAX_WEIGHTS 16

struct lds_CostView {
  lds_Grid *grid;
  double weights[LDSI_VIEW_MAX_WEIGHTS]; /* the key; -0 stored as +0, no trailing zeros */
  int nweights;
  /* effective cost per padded cell (border and blocked cells INFINITY);
  ** cells of unpadded row-major index >= ncomputed are not computed yet */
  double *eff;
  size_t ncells;        /* w * h */
  size_t ncomputed;     /* build cursor (unpadded row-major index) */
  size_t nscanned;      /* minimum cursor: min/nmin cover cells [0, nscanned) */
  double min;           /* smallest finite positive cost among the scanned cells */
  size_t nmin;          /* scanned cells at that minimum */
  size_t nones;         /* computed cells of cost exactly 1 */
  size_t ninvalid;      /* computed cells of cost NaN, <= 0 or -inf */
  /* published when ready (read by searches after the acquire load of ready) */
  double scale;
  bool uniform;
  bool have_scale;      /* scale was published once */
  /* bumped when the published scale changes / when uniform flips or the view
  ** is reset; atomic: a stale search on another thread may read them while
  ** a start on this thread rebuilds the view */
  _Atomic uint64_t scale_epoch;
  _Atomic uint64_t mode_epoch;
  uint64_t cells_done;
  atomic_bool ready;
  atomic_int refs;
  bool dropped;         /* out of the lookups (still in the registry's list) */
  ldsi_Spin build_lock;
  char errmsg[LDS_ERRMSG_SIZE];
};

/* The first cell (row-major) of a ready view with an invalid cost, written
** as lds_search_start's message into buf (LDS_ERRMSG_SIZE bytes). */
LDSI_HIDDEN void ldsi_cost_view_invalid_msg(const lds_CostView *v, char *buf);

/* The view of weights w[0..n) (n may include zero weights; none is NaN or
** infinite, n <= 16, at least one nonzero), as a new reference, or NULL when
** out of memory (message in buf). */
LDSI_HIDDEN lds_CostView *ldsi_cost_view_lookup(const lds_Grid *g, const double *w, int n,
                                                char *buf);

/* Whether v is the live view of weights w[0..n) (same trimmed key, not
** dropped): a search's check that the view it holds still serves it. */
LDSI_HIDDEN bool ldsi_cost_view_matches(const lds_CostView *v, const double *w, int n);

#endif
