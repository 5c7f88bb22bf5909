/* SPDX-License-Identifier: MIT */
/*
** hpa_fixtures.h — what the hierarchy tests (tests/c/test_hpa*.c) share:
** their random generator and the draw of a free cell. Each test keeps its
** own seed, so its draws are its own. And the checks every one of them
** makes: a hierarchy query's path is legal between its ends, and the
** optimal cost by the grid's A*.
*/
#ifndef LDS_TEST_HPA_FIXTURES_H
#define LDS_TEST_HPA_FIXTURES_H

#include "lds.h"

#include <stdbool.h>
#include <stdint.h>

/* An LCG (the C standard's example constants); 24 bits of its state a draw. */
static inline uint32_t thf_rnd(uint32_t *s) {
  *s = *s * 1103515245u + 12345u;
  return (*s >> 8) & 0xFFFFFF;
}

/* A passable cell of g drawn from *s: x then y, again until unblocked. */
static inline void thf_free_cell(const lds_Grid *g, uint32_t *s, int32_t *x, int32_t *y) {
  do {
    *x = (int32_t)(thf_rnd(s) % (uint32_t)lds_grid_width(g));
    *y = (int32_t)(thf_rnd(s) % (uint32_t)lds_grid_height(g));
  } while (lds_grid_blocked(g, *x, *y));
}

/* Whether the path q found is legal from (sx, sy) to (gx, gy), its cost
** recomputed under the nw layer weights w (NULL, 0: none). */
static inline bool thf_legal(const lds_Grid *g, const lds_HpaQuery *q, const double *w, int nw,
                             int32_t sx, int32_t sy, int32_t gx, int32_t gy) {
  lds_PathCheck pc;
  lds_Path *p = lds_hpa_query_path(q, NULL);
  lds_Status st;
  if (!p) return false;
  lds_path_check_init(&pc);
  pc.check_start = pc.check_goal = true;
  pc.sx = sx;
  pc.sy = sy;
  pc.gx = gx;
  pc.gy = gy;
  pc.layer_weights = w;
  pc.nlayers = nw;
  st = lds_path_check(g, p, &pc, NULL, NULL);
  lds_path_free(p);
  return st == LDS_OK;
}

/* The optimal cost by A* under the nw layer weights w; -1 when there is no
** path, -2 when the query is refused. */
static inline double thf_astar_cost(lds_Search *s, const double *w, int nw, int32_t sx, int32_t sy,
                                    int32_t gx, int32_t gy) {
  lds_SearchParams p;
  lds_search_params_init(&p);
  p.layer_weights = w;
  p.n_layer_weights = nw;
  if (lds_search_start(s, &p, sx, sy, gx, gy) != LDS_OK) return -2;
  if (lds_search_step(s, NULL) != LDS_FOUND) return -1;
  return lds_search_cost(s);
}

#endif
