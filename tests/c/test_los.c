/* SPDX-License-Identifier: MIT */
/* test_los.c — line of sight, line costs, path costs and LOS pruning. */
#include "harness.h"
#include "lds.h"

#include <math.h>

static lds_Path *path_of(const int32_t *xy, size_t n, int32_t w) {
  uint32_t ids[64];
  size_t i;
  for (i = 0; i < n; i++) ids[i] = (uint32_t)(xy[2 * i + 1] * w + xy[2 * i]);
  return lds_path_new(NULL, ids, n, w, 0.0, 0, NULL);
}

void suite_los(void);
void suite_los(void) {
  lds_Error err;
  lds_Grid *g = lds_grid_new(NULL, 6, 4, &err);
  double c = -1.0;
  th_Alloc fa = {0};
  lds_Env env;

  /* Bresenham cells of (0,0)->(4,2): (1,0) (2,1) (3,1) (4,2) */
  CHECK(lds_grid_line_of_sight(g, 0, 0, 4, 2));
  CHECK(lds_grid_line_of_sight(g, 3, 3, 3, 3));
  CHECK_INT(lds_grid_line_cost(g, 0, 0, 4, 2, &c), LDS_OK);
  CHECK_NEAR(c, 2.0 + 2.0 * sqrt(2.0), 1e-12); /* octile distance */
  lds_grid_set_blocked(g, 3, 1, true);
  CHECK(!lds_grid_line_of_sight(g, 0, 0, 4, 2));
  CHECK_INT(lds_grid_line_cost(g, 0, 0, 4, 2, &c), LDS_E_ARG);
  lds_grid_set_blocked(g, 3, 1, false);
  /* corner of the diagonal step (1,0)->(2,1) */
  lds_grid_set_blocked(g, 2, 0, true);
  CHECK(!lds_grid_line_of_sight(g, 0, 0, 4, 2));
  lds_grid_set_diagonal(g, LDS_DIAG_ALLOW_ONE_BLOCKED);
  CHECK(lds_grid_line_of_sight(g, 0, 0, 4, 2));
  lds_grid_set_diagonal(g, LDS_DIAG_NEVER); /* 4-connected walk misses (2,0) */
  CHECK(lds_grid_line_of_sight(g, 0, 0, 4, 2));
  CHECK_INT(lds_grid_line_cost(g, 0, 0, 4, 2, &c), LDS_OK);
  CHECK_NEAR(c, 6.0, 1e-12); /* Manhattan */
  CHECK(!lds_grid_line_of_sight(g, 0, 0, 2, 0)); /* blocked end */
  CHECK(!lds_grid_line_of_sight(g, 0, 0, 9, 0)); /* outside */
  lds_grid_set_blocked(g, 2, 0, false);
  lds_grid_set_diagonal(g, LDS_DIAG_NO_CORNER_CUTTING);

  /* pruning an L-shaped path on an open grid keeps the ends only */
  {
    static const int32_t xy[] = {0, 0, 1, 0, 2, 0, 3, 0, 4, 1, 5, 2};
    lds_Path *p = path_of(xy, 6, 6), *q;
    CHECK_INT(lds_grid_path_cost(g, p, &c, &err), LDS_OK);
    CHECK_NEAR(c, 3.0 + 2.0 * sqrt(2.0), 1e-12);
    q = lds_path_prune_los(p, g, &err);
    CHECK(q != NULL);
    CHECK_INT(lds_path_length(q), 2);
    CHECK_NEAR(lds_path_cost(q), sqrt(29.0), 1e-12); /* the straight segment's length */
    lds_path_free(q);
    /* a wall forces a waypoint */
    lds_grid_set_blocked(g, 2, 1, true); /* (0,0) no longer sees (4,1) nor (5,2) */
    q = lds_path_prune_los(p, g, &err);
    CHECK(q != NULL);
    if (q) {
      int32_t x, y;
      CHECK_INT(lds_path_length(q), 3);
      CHECK(lds_path_cell(q, 1, &x, &y) && x == 3 && y == 0);
      CHECK_NEAR(lds_path_cost(q), c, 1e-12);
      lds_path_free(q);
    }
    /* an illegal path is refused with the step named */
    lds_grid_set_blocked(g, 1, 0, true);
    CHECK(lds_path_prune_los(p, g, &err) == NULL);
    CHECK_INT(err.code, LDS_E_ARG);
    CHECK_STR(err.msg, "lds_grid_path_cost: step 1 (0,0)->(1,0) has no line of sight");
    lds_grid_set_blocked(g, 1, 0, false);
    /* allocation failure is reported, not crashed on */
    lds_env_init(&env);
    env.alloc = th_alloc;
    env.alloc_ud = &fa;
    lds_path_free(p);
    {
      lds_Grid *g2 = lds_grid_new(&env, 6, 4, &err);
      lds_Path *p2 = path_of(xy, 6, 6);
      fa.fail_at = fa.count + 1;
      CHECK(lds_path_prune_los(p2, g2, &err) == NULL);
      CHECK_INT(err.code, LDS_E_NOMEM);
      fa.fail_at = 0;
      lds_path_free(p2);
      lds_grid_free(g2);
      CHECK_INT(fa.live, 0);
    }
  }
  /* a path of another width */
  {
    static const int32_t xy[] = {0, 0, 1, 0};
    lds_Path *p = path_of(xy, 2, 7);
    CHECK(lds_path_prune_los(p, g, &err) == NULL);
    CHECK_STR(err.msg, "lds_grid_path_cost: path width 7 does not match the grid (width 6)");
    lds_path_free(p);
  }
  lds_grid_free(g);
}
