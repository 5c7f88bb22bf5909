/* SPDX-License-Identifier: MIT */
/* test_hpa_level2_empty.c — second-level clusters without entrances: a grid
** smaller than one second-level cluster (or than one first-level cluster),
** and second-level clusters walled off or wholly blocked. The hierarchy
** builds, answers each query as A* does (found with a legal path no cheaper
** than A*'s, or no path), and a door that gives a walled-off second-level
** cluster its first entrances is repaired the same way. */
#include "harness.h"
#include "lds.h"

#include <math.h>

/* A fast query from (sx, sy) to (gx, gy) agrees with A*: same status, a
** legal path of cost at least A*'s (the fast mode is bounded, not exact). */
static int disagree(lds_Grid *g, lds_Hpa *h, int32_t sx, int32_t sy, int32_t gx, int32_t gy) {
  lds_HpaQuery *q = lds_hpa_query_new(h, NULL);
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams sp;
  lds_Status sh, sa;
  int bad = 0;
  if (!q || !s) {
    lds_hpa_query_free(q);
    lds_search_free(s);
    return 1;
  }
  lds_search_params_init(&sp);
  sa = lds_search_start(s, &sp, sx, sy, gx, gy);
  while (sa == LDS_OK || sa == LDS_RUNNING) sa = lds_search_step(s, NULL);
  sh = lds_hpa_query_start(q, LDS_HPA_FAST, sx, sy, gx, gy);
  while (sh == LDS_OK || sh == LDS_RUNNING) sh = lds_hpa_query_step(q, NULL);
  if (sa != sh) {
    bad = 1;
  } else if (sa == LDS_FOUND) {
    lds_PathCheck pc;
    lds_Path *p = lds_hpa_query_path(q, NULL);
    lds_path_check_init(&pc);
    pc.check_start = pc.check_goal = true;
    pc.sx = sx;
    pc.sy = sy;
    pc.gx = gx;
    pc.gy = gy;
    bad = !p || lds_path_check(g, p, &pc, NULL, NULL) != LDS_OK ||
          lds_hpa_query_cost(q) < lds_search_cost(s) - 1e-9;
    lds_path_free(p);
  }
  lds_hpa_query_free(q);
  lds_search_free(s);
  return bad;
}

static lds_Hpa *build(lds_Grid *g, int cluster, int K) {
  lds_HpaParams hp;
  lds_hpa_params_init(&hp);
  hp.cluster_size = cluster;
  hp.level2 = K;
  return lds_hpa_new(NULL, g, &hp, NULL);
}

void suite_hpa_level2_empty(void);
void suite_hpa_level2_empty(void) {
  /* a 16 x 16 grid under clusters of 64 and a second level of 15 x 15:
  ** one first-level cluster, one second-level cluster, no entrance */
  {
    lds_Grid *g = lds_grid_new(NULL, 16, 16, NULL);
    lds_Hpa *h = build(g, 64, 15);
    lds_HpaInfo info;
    CHECK(h != NULL);
    if (h) {
      lds_hpa_info(h, &info);
      CHECK_INT(info.level2, 15);
      CHECK_INT(info.level2_entrances, 0);
      CHECK_INT(disagree(g, h, 0, 0, 15, 15), 0);
      CHECK_INT(disagree(g, h, 3, 9, 3, 9), 0);
      lds_grid_set_blocked(g, 7, 7, true);
      CHECK_INT(lds_hpa_repair(h), LDS_OK);
      CHECK_INT(disagree(g, h, 0, 0, 15, 15), 0);
    }
    lds_hpa_free(h);
    lds_grid_free(g);
  }
  /* 64 x 32 cells, clusters of 4, second level of 4 x 4 clusters (16 x 16
  ** cells): a wall along x = 16 cuts the first second-level column off, and
  ** the square 32..47 x 0..15 is blocked whole. Queries across the wall have
  ** no path until a door at (16, 20) opens, which gives the walled-off
  ** second-level clusters their first entrances. */
  {
    lds_Grid *g = lds_grid_new(NULL, 64, 32, NULL);
    lds_Hpa *h;
    int32_t x, y;
    int bad = 0, i;
    static const int32_t qs[][4] = {{2, 2, 60, 30},  {5, 28, 20, 3},  {15, 15, 17, 15},
                                    {0, 0, 15, 31},  {50, 2, 30, 20}, {2, 30, 63, 0},
                                    {31, 16, 48, 16}};
    for (y = 0; y < 32; y++) lds_grid_set_blocked(g, 16, y, true);
    for (y = 0; y < 16; y++)
      for (x = 32; x < 48; x++) lds_grid_set_blocked(g, x, y, true);
    h = build(g, 4, 4);
    CHECK(h != NULL);
    if (h) {
      for (i = 0; i < (int)(sizeof qs / sizeof qs[0]); i++)
        bad += disagree(g, h, qs[i][0], qs[i][1], qs[i][2], qs[i][3]);
      CHECK_INT(bad, 0);
      /* open the door, then close it and block the whole left column too */
      lds_grid_set_blocked(g, 16, 20, false);
      CHECK_INT(lds_hpa_repair(h), LDS_OK);
      bad = 0;
      for (i = 0; i < (int)(sizeof qs / sizeof qs[0]); i++)
        bad += disagree(g, h, qs[i][0], qs[i][1], qs[i][2], qs[i][3]);
      CHECK_INT(bad, 0);
      lds_grid_set_blocked(g, 16, 20, true);
      for (y = 0; y < 32; y++)
        for (x = 0; x < 16; x++) lds_grid_set_blocked(g, x, y, true);
      CHECK_INT(lds_hpa_repair(h), LDS_OK);
      bad = 0;
      for (i = 0; i < (int)(sizeof qs / sizeof qs[0]); i++)
        bad += disagree(g, h, qs[i][0], qs[i][1], qs[i][2], qs[i][3]);
      CHECK_INT(bad, 0);
    }
    lds_hpa_free(h);
    lds_grid_free(g);
  }
}
