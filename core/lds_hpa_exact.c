/* SPDX-License-Identifier: MIT */
/*
** lds_hpa_exact.c — the optimal mode of the hierarchy: one exact search on
** the whole grid, chosen per query:
** - Jump Point Search (lds_search, LDS_ALGO_JPS) where the grid is
**   uniform-cost under the hierarchy's weights, 8-connected, with a rule
**   JPS knows (lds_HpaParams.optimal_jps);
** - everywhere else, lodestar's A* loop with the landmark heuristic of the
**   hierarchy's tables (lds_landmarks.h; ldsi_search_start_landmarks and
**   lds_astar.c's landmark loop):
**     h(c) = max(octile(c, goal) * min_cost, q * max_L |T_L(c) - T_L(goal)|)
**   over the query's active landmarks: of those whose table reaches the
**   goal, the LDSI_HPA_ACTIVE that bound the start -> goal distance best
**   (the largest |T_L(s) - T_L(g)|, Goldberg & Harrelson's choice of
**   active landmarks), which keeps the heuristic's cost per cell small
**   where the other landmarks add little.
** [Paper: Hart, Nilsson & Raphael, IEEE TSSC 4(2) 1968 (A*); Goldberg &
**  Harrelson, "Computing the shortest path: A* search meets graph theory",
**  SODA 2005 (ALT, active landmarks); Harabor & Grastien, AAAI 2011 (JPS)]
*/
#include "lds_hpa_query_internal.h"
#include "lds_landmarks.h"
#include "lds_search.h"
#include "lds_search_internal.h"

#include <string.h>

/* Active landmarks of a landmark query, at most */
#ifndef LDSI_HPA_ACTIVE
#define LDSI_HPA_ACTIVE 6
#endif

_Static_assert(LDSI_LMH_UNREACHED == LDSI_LM_LIMIT, "unreached table differences");
_Static_assert(LDSI_LMH_MAX >= LDSI_LM_MAX, "active landmark slots");

struct ldsi_HpaExact {
  bool use_jps;    /* this query runs JPS, else the landmark A* */
  lds_Search *srch; /* created by the first query */
  ldsi_LmHeur lh;  /* the landmark query's heuristic (its tables are the hierarchy's) */
};

void ldsi_hpa_exact_free(lds_HpaQuery *q) {
  ldsi_HpaExact *x = q->ex;
  if (!x) return;
  lds_search_free(x->srch);
  ldsi_free(&q->env, x, sizeof *x);
  q->ex = NULL;
}

lds_Status ldsi_hpa_exact_start(lds_HpaQuery *q) {
  ldsi_HpaExact *x;
  const ldsi_Landmarks *m = q->h->lm;
  const lds_Grid *g = q->h->grid;
  lds_SearchParams sp;
  lds_Status st;
  if (!m) {
    ldsi_msg(q->errmsg, "lds_hpa_query_start: the optimal mode needs a hierarchy built with "
                        "lower_bounds (this one was not)");
    return LDS_E_ARG;
  }
  if (!q->ex && !(q->ex = ldsi_calloc(&q->env, 1, sizeof *q->ex))) {
    ldsi_msg(q->errmsg, "lds_hpa_query_start: out of memory for the optimal mode");
    return LDS_E_NOMEM;
  }
  x = q->ex;
  if (!x->srch) {
    lds_Env pe = ldsi_env_public(&q->env);
    lds_Error err;
    if (!(x->srch = lds_search_new(&pe, g, &err))) {
      ldsi_msg(q->errmsg, "lds_hpa_query_start: %s", err.msg);
      return err.code;
    }
  }
  /* Jump Point Search is exact and far cheaper where it applies: uniform
  ** costs (no weights, every cell cost 1), 8 neighbours and a rule its
  ** jumps know (lds_jps.h) */
  x->use_jps = q->h->optimal_jps && q->h->nweights == 0 && g->nonunit == 0 &&
               g->neighbourhood == 8 &&
               (g->diag == LDS_DIAG_NO_CORNER_CUTTING || g->diag == LDS_DIAG_ALWAYS);
  lds_search_params_init(&sp);
  if (x->use_jps) {
    sp.algo = LDS_ALGO_JPS;
    st = lds_search_start(x->srch, &sp, q->sx, q->sy, q->gx, q->gy);
  } else {
    sp.algo = LDS_ALGO_ASTAR;
    sp.layer_weights = q->h->nweights ? q->h->weights : NULL;
    sp.n_layer_weights = q->h->nweights;
    ldsi_lm_choose(m, q->ps, q->pg, LDSI_HPA_ACTIVE, &x->lh);
    st = ldsi_search_start_landmarks(x->srch, &sp, q->sx, q->sy, q->gx, q->gy, &x->lh);
  }
  if (st != LDS_OK) ldsi_msg(q->errmsg, "lds_hpa_query_start: %s", lds_search_errmsg(x->srch));
  return st;
}

/* The query's slice (JPS or the landmark A*); its path into q->cells. */
static lds_Status run_search(lds_HpaQuery *q, uint64_t max_exp, uint64_t budget_us) {
  ldsi_HpaExact *x = q->ex;
  const lds_Grid *g = q->h->grid;
  lds_Budget b;
  lds_Stats st0, st1;
  lds_Status st;
  b.max_expansions = max_exp;
  b.budget_us = budget_us;
  lds_search_stats(x->srch, &st0);
  st = lds_search_step(x->srch, &b);
  lds_search_stats(x->srch, &st1);
  q->stats.expansions += st1.expansions - st0.expansions;
  q->stats.pushes += st1.pushes - st0.pushes;
  if (st1.peak_open > q->stats.peak_open) q->stats.peak_open = st1.peak_open;
  if (st == LDS_FOUND) {
    lds_Error err;
    lds_Path *p = lds_search_path(x->srch, &err);
    size_t n, i;
    if (!p) {
      ldsi_msg(q->errmsg, "lds_hpa_query_step: %s", err.msg);
      return err.code;
    }
    n = lds_path_length(p);
    if (n > q->ccap) {
      uint32_t *c = ldsi_realloc(&q->env, q->cells, q->ccap * sizeof(uint32_t), n * sizeof(uint32_t));
      if (!c) {
        lds_path_free(p);
        ldsi_msg(q->errmsg, "lds_hpa_query_step: out of memory");
        return LDS_E_NOMEM;
      }
      q->cells = c;
      q->ccap = n;
    }
    for (i = 0; i < n; i++) {
      int32_t cx, cy;
      lds_path_cell(p, i, &cx, &cy);
      q->cells[i] = (uint32_t)ldsi_grid_pidx(g, cx, cy);
    }
    q->ncells = n;
    q->cost = lds_path_cost(p);
    lds_path_free(p);
  } else if (st < 0) {
    ldsi_msg(q->errmsg, "lds_hpa_query_step: %s", lds_search_errmsg(x->srch));
  }
  return st;
}

lds_Status ldsi_hpa_exact_run(lds_HpaQuery *q, uint64_t max_exp, uint64_t budget_us, uint64_t t0) {
  (void)t0; /* the search reads its own clock */
  return run_search(q, max_exp, budget_us);
}
