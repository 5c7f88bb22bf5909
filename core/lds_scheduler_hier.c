/* SPDX-License-Identifier: MIT */
/*
** lds_scheduler_hier.c — hierarchy requests in the scheduler
** (lds_Request.hierarchy, docs/scheduler.md "Hierarchy requests"): a request
** naming a hierarchy (lds_hpa.h) runs an lds_HpaQuery in its search slot
** instead of an lds_Search, sliced by the same chunks of expansions as every
** other request (lds_hpa_query_step takes an lds_Budget). After a slice of
** a fast query whose refined prefix grew, the prefix (final cells: the
** finished path begins with them) is delivered as the request's partial
** path (LDS_EVENT_PARTIAL), at most once per tick, so an agent can walk it
** while the rest is refined. Any edit of the grid restarts a hierarchy
** request in progress (the hierarchy repairs itself at the restart, in
** lds_hpa_query_start): the delivered path is legal, and optimal in the
** optimal mode, for the grid as it is at delivery.
**
** The queries live per (grid, search slot) and are created on the slot's
** first hierarchy request, then reused (a slot serving another hierarchy
** frees its query and creates one for the new hierarchy), so the optimal
** mode's per-cell records are allocated once per slot, not per request.
*/
#include "lds_hpa.h"
#include "lds_scheduler_internal.h"

#include <stdio.h>
#include <string.h>

/* The per-slot state of grid entry ge (created with the first use). */
static ldsi_SchedHier *slots_of(lds_Scheduler *sc, GridEntry *ge) {
  if (!ge->hier) ge->hier = ldsi_calloc(&sc->env, (size_t)ge->nsearch, sizeof(ldsi_SchedHier));
  return ge->hier;
}

lds_Status ldsi_sched_hier_check(lds_Scheduler *sc, const lds_Request *rq) {
  static const char *fn = "lds_scheduler_submit";
  if (lds_hpa_grid(rq->hierarchy) != rq->grid)
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: the request's hierarchy is built on another grid "
                           "(expected a hierarchy of the request's grid)", fn);
  if (rq->hierarchy_mode != LDS_HPA_FAST && rq->hierarchy_mode != LDS_HPA_OPTIMAL)
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: hierarchy_mode %d is unknown (expected "
                           "LDS_HPA_FAST or LDS_HPA_OPTIMAL)", fn, (int)rq->hierarchy_mode);
  if (rq->quick_expansions)
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: a hierarchy request has quick_expansions (expected "
                           "0: its refined prefix is delivered as the partial path)", fn);
  return ldsi_sched_hier_check_params(sc, &rq->params, fn);
}

lds_Status ldsi_sched_hier_check_params(lds_Scheduler *sc, const lds_SearchParams *p,
                                        const char *fn) {
  if (p->n_layer_weights > 0)
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: a hierarchy request has layer weights (expected "
                           "none: the hierarchy's own weight set applies)", fn);
  if (p->edge_cost)
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: a hierarchy request has an edge_cost callback "
                           "(expected none: the hierarchy uses the grid's costs)", fn);
  if (p->partial)
    return ldsi_sched_fail(sc, LDS_E_ARG, "%s: a hierarchy request asks for a partial path "
                           "(expected partial = false: a hierarchy query ends no_path without "
                           "one; its refined prefix is delivered while it runs)", fn);
  return LDS_OK;
}

lds_Status ldsi_sched_hier_start(lds_Scheduler *sc, uint32_t r) {
  Req *q = &sc->req[r];
  GridEntry *ge = &sc->grids[q->grid];
  ldsi_SchedHier *slot = slots_of(sc, ge);
  lds_Status st;
  sc->cur->started++;
  q->flags |= LDS_REQINFO_STARTED;
  q->disturbed = false;
  if (!slot) {
    snprintf(q->errmsg, sizeof q->errmsg, "lds_scheduler_step: out of memory for hierarchy queries");
    return LDS_E_NOMEM;
  }
  slot += q->search;
  if (slot->query && slot->h != q->rq.hierarchy) {
    lds_hpa_query_free(slot->query);
    slot->query = NULL;
  }
  if (!slot->query) {
    lds_Error err;
    slot->query = lds_hpa_query_new(q->rq.hierarchy, &err);
    if (!slot->query) {
      snprintf(q->errmsg, sizeof q->errmsg, "%s", err.msg);
      return err.code;
    }
    slot->h = q->rq.hierarchy;
  }
  slot->delivered = 1; /* the start alone is no partial path */
  slot->frame = UINT64_MAX;
  st = lds_hpa_query_start(slot->query, (lds_HpaMode)q->rq.hierarchy_mode, q->rq.sx, q->rq.sy,
                           q->rq.gx, q->rq.gy);
  if (st != LDS_OK) {
    snprintf(q->errmsg, sizeof q->errmsg, "%s", lds_hpa_query_errmsg(slot->query));
    return st;
  }
  return LDS_OK;
}

lds_Status ldsi_sched_hier_step(lds_Scheduler *sc, uint32_t r, uint64_t max_exp, lds_Stats *before,
                                lds_Stats *after) {
  Req *q = &sc->req[r];
  lds_HpaQuery *hq = sc->grids[q->grid].hier[q->search].query;
  lds_Budget b;
  lds_Status st;
  b.max_expansions = max_exp;
  b.budget_us = 0;
  lds_hpa_query_stats(hq, before);
  st = lds_hpa_query_step(hq, &b);
  lds_hpa_query_stats(hq, after);
  return st;
}

bool ldsi_sched_hier_partial(lds_Scheduler *sc, uint32_t r) {
  Req *q = &sc->req[r];
  ldsi_SchedHier *slot = &sc->grids[q->grid].hier[q->search];
  lds_RequestId id = ldsi_sched_id(sc, r);
  lds_Path *pre;
  lds_Error err;
  if (slot->frame == sc->frame) return false; /* one partial path per tick */
  pre = lds_hpa_query_prefix(slot->query, &err);
  if (!pre) return false;
  if (lds_path_length(pre) <= slot->delivered) {
    lds_path_free(pre);
    return false;
  }
  slot->delivered = lds_path_length(pre);
  slot->frame = sc->frame;
  lds_path_free(q->quick);
  q->quick = pre;
  q->flags |= LDS_REQINFO_PARTIAL;
  sc->cur->partial_paths++;
  ldsi_sched_deliver(sc, r, LDS_EVENT_PARTIAL);
  /* the callback may have cancelled or released the request */
  r = ldsi_sched_slot(sc, id);
  return r == NO_INDEX || sc->req[r].state != SLOT_ACTIVE;
}

void ldsi_sched_hier_finish(lds_Scheduler *sc, uint32_t r, lds_Status st) {
  Req *q = &sc->req[r];
  ldsi_SchedHier *slot = sc->grids[q->grid].hier ? &sc->grids[q->grid].hier[q->search] : NULL;
  lds_Path *path = NULL;
  if (slot && slot->query) {
    lds_hpa_query_stats(slot->query, &q->stats);
    if (st == LDS_FOUND) {
      lds_Error err;
      path = lds_hpa_query_path(slot->query, &err);
      if (!path) {
        st = err.code;
        snprintf(q->errmsg, sizeof q->errmsg, "%s", err.msg);
      }
    } else if (st < 0 && !q->errmsg[0]) {
      snprintf(q->errmsg, sizeof q->errmsg, "%s", lds_hpa_query_errmsg(slot->query));
    }
  }
  ldsi_sched_finish_path(sc, r, st, path);
}

void ldsi_sched_hier_free(lds_Scheduler *sc, GridEntry *ge) {
  int k;
  if (!ge->hier) return;
  for (k = 0; k < ge->nsearch; k++) lds_hpa_query_free(ge->hier[k].query);
  ldsi_free(&sc->env, ge->hier, (size_t)ge->nsearch * sizeof(ldsi_SchedHier));
  ge->hier = NULL;
}

lds_Status lds_scheduler_drop_hierarchy(lds_Scheduler *sc, const lds_Hpa *h) {
  int gi, k;
  uint32_t r;
  if (!sc || !h) return LDS_E_ARG;
  if (sc->ticking)
    return ldsi_sched_fail(sc, LDS_E_STATE, "lds_scheduler_drop_hierarchy: called from inside a "
                           "callback");
  for (r = 0; r < sc->nreq; r++) {
    const Req *q = &sc->req[r];
    if ((q->state == SLOT_QUEUED || q->state == SLOT_ACTIVE) && q->rq.hierarchy == h)
      return ldsi_sched_fail(sc, LDS_E_STATE, "lds_scheduler_drop_hierarchy: request 0x%016llx "
                             "still uses the hierarchy (cancel it or let it finish first)",
                             (unsigned long long)ldsi_sched_id(sc, r));
  }
  for (gi = 0; gi < sc->ngrids; gi++) {
    GridEntry *ge = &sc->grids[gi];
    if (!ge->hier) continue;
    for (k = 0; k < ge->nsearch; k++)
      if (ge->hier[k].h == h) {
        lds_hpa_query_free(ge->hier[k].query);
        ge->hier[k].query = NULL;
        ge->hier[k].h = NULL;
      }
  }
  for (r = 0; r < sc->nreq; r++) /* finished requests forget it too (a replan needs it) */
    if (sc->req[r].state == SLOT_DONE && sc->req[r].rq.hierarchy == h) sc->req[r].rq.hierarchy = NULL;
  return LDS_OK;
}
