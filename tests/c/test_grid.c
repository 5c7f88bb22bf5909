/* SPDX-License-Identifier: MIT */
/* test_grid.c — grid editing, rules, layers, listeners, allocator failures. */
#include "harness.h"
#include "lds.h"

#include <math.h>

static int heard;
static void on_edit(void *ud, const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                    uint64_t version) {
  int *count = (int *)ud;
  (void)g;
  (void)x0;
  (void)y0;
  (void)x1;
  (void)y1;
  (void)version;
  (*count)++;
}

void suite_grid(void);
void suite_grid(void) {
  lds_Error err;
  lds_Grid *g = lds_grid_new(NULL, 0, 5, &err);
  int idx;
  float mn, mx;
  CHECK(g == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK_STR(err.msg, "lds_grid_new: width 0 out of range (expected 1..65535)");
  g = lds_grid_new(NULL, 5, 70000, &err);
  CHECK(g == NULL);
  CHECK_STR(err.msg, "lds_grid_new: height 70000 out of range (expected 1..65535)");

  g = lds_grid_new(NULL, 4, 3, &err);
  CHECK(g != NULL);
  CHECK_INT(lds_grid_width(g), 4);
  CHECK_INT(lds_grid_height(g), 3);
  CHECK_INT(lds_grid_neighbourhood(g), 8);
  CHECK_INT(lds_grid_diagonal(g), LDS_DIAG_NO_CORNER_CUTTING);
  CHECK(!lds_grid_blocked(g, 0, 0));
  CHECK(lds_grid_blocked(g, -1, 0));
  CHECK(lds_grid_blocked(g, 4, 0));
  CHECK_NEAR(lds_grid_cost(g, 1, 1), 1.0, 0);
  CHECK_INT(lds_grid_terrain(g, 1, 1), '.');
  CHECK_INT(lds_grid_passable_count(g), 12);

  /* costs: <= 0, NaN, inf rejected with a message, never clamped */
  CHECK_INT(lds_grid_set_cost(g, 1, 1, 0.0f), LDS_E_ARG);
  CHECK_STR(lds_grid_errmsg(g),
            "lds_grid_set_cost: cost 0 at (1,1) out of range (expected finite, > 0)");
  CHECK_INT(lds_grid_set_cost(g, 1, 1, -2.0f), LDS_E_ARG);
  CHECK_INT(lds_grid_set_cost(g, 1, 1, NAN), LDS_E_ARG);
  CHECK_INT(lds_grid_set_cost(g, 1, 1, INFINITY), LDS_E_ARG);
  CHECK_NEAR(lds_grid_cost(g, 1, 1), 1.0, 0);
  CHECK_INT(lds_grid_set_cost(g, 9, 1, 2.0f), LDS_E_ARG);
  CHECK_STR(lds_grid_errmsg(g), "lds_grid_set_cost: cell (9,1) out of bounds (grid is 4x3)");
  CHECK_INT(lds_grid_set_cost(g, 1, 1, 0.25f), LDS_OK);
  CHECK_NEAR(lds_grid_min_cost(g), 0.25, 0);
  CHECK_INT(lds_grid_set_cost(g, 1, 1, 3.0f), LDS_OK);
  CHECK_NEAR(lds_grid_min_cost(g), 1.0, 0); /* recomputed after raising the minimum */

  /* legal-move masks follow the diagonal rule */
  lds_grid_set_blocked(g, 1, 0, true); /* north of (1,1) */
  CHECK(!lds_grid_can_move(g, 1, 1, LDS_DIR_N));
  CHECK(lds_grid_can_move(g, 1, 1, LDS_DIR_E));
  /* (0,1) -> (1,0) NE: target blocked */
  CHECK(!lds_grid_can_move(g, 0, 1, LDS_DIR_NE));
  /* (1,1) -> (2,0) NE passes between (1,0) blocked and (2,1) free */
  CHECK(!lds_grid_can_move(g, 1, 1, LDS_DIR_NE));
  lds_grid_set_diagonal(g, LDS_DIAG_ALLOW_ONE_BLOCKED);
  CHECK(lds_grid_can_move(g, 1, 1, LDS_DIR_NE));
  lds_grid_set_blocked(g, 2, 1, true);
  CHECK(!lds_grid_can_move(g, 1, 1, LDS_DIR_NE)); /* both sides blocked */
  lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS);
  CHECK(lds_grid_can_move(g, 1, 1, LDS_DIR_NE));
  lds_grid_set_diagonal(g, LDS_DIAG_NEVER);
  CHECK(!lds_grid_can_move(g, 1, 1, LDS_DIR_SE));
  lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS);
  lds_grid_set_neighbourhood(g, 4);
  CHECK(!lds_grid_can_move(g, 1, 1, LDS_DIR_NE));
  CHECK_INT(lds_grid_set_neighbourhood(g, 6), LDS_E_ARG);
  CHECK_STR(lds_grid_errmsg(g),
            "lds_grid_set_neighbourhood: 6 is not a neighbourhood (expected 4 or 8)");
  CHECK(!lds_grid_can_move(g, 0, 0, LDS_DIR_W)); /* border */
  CHECK(!lds_grid_can_move(g, 1, 0, LDS_DIR_S)); /* from a blocked cell */

  /* names */
  {
    lds_Diagonal d;
    CHECK_INT(lds_diagonal_parse("allow_one_blocked", &d), LDS_OK);
    CHECK_INT(d, LDS_DIAG_ALLOW_ONE_BLOCKED);
    CHECK_INT(lds_diagonal_parse("no_cornercut", &d), LDS_E_ARG);
    CHECK_STR(lds_diagonal_name(LDS_DIAG_NO_CORNER_CUTTING), "no_corner_cutting");
    CHECK_STR(lds_status_name(LDS_NO_PATH), "no_path");
    CHECK_STR(lds_status_name(LDS_E_CALLBACK), "callback");
    CHECK_STR(lds_status_name((lds_Status)42), "unknown");
  }

  /* version and listeners */
  {
    uint64_t v0 = lds_grid_version(g);
    int count = 0;
    heard = 0;
    CHECK_INT(lds_grid_listen(g, on_edit, &count), LDS_OK);
    lds_grid_set_blocked(g, 3, 2, true);
    lds_grid_set_blocked(g, 3, 2, true); /* no change: no notification */
    lds_grid_set_cost(g, 0, 0, 2.0f);
    CHECK_INT(count, 2);
    CHECK(lds_grid_version(g) >= v0 + 2);
    CHECK_INT(lds_grid_unlisten(g, on_edit, &count), LDS_OK);
    lds_grid_set_cost(g, 0, 0, 3.0f);
    CHECK_INT(count, 2);
    CHECK_INT(lds_grid_unlisten(g, on_edit, &count), LDS_E_ARG);
  }

  /* layers */
  CHECK_INT(lds_grid_layer_add(g, "danger", &idx), LDS_OK);
  CHECK_INT(idx, 0);
  CHECK_INT(lds_grid_layer_add(g, "danger", NULL), LDS_E_ARG);
  CHECK_STR(lds_grid_errmsg(g), "lds_grid_layer_add: layer 'danger' already exists");
  CHECK_INT(lds_grid_layer_add(g, "", NULL), LDS_E_ARG);
  CHECK_INT(lds_grid_layer_find(g, "danger"), 0);
  CHECK_INT(lds_grid_layer_find(g, "road"), -1);
  CHECK_INT(lds_grid_layer_set(g, 0, 2, 2, 5.0f), LDS_OK);
  CHECK_INT(lds_grid_layer_set(g, 0, 2, 2, NAN), LDS_E_ARG);
  CHECK_NEAR(lds_grid_layer_get(g, 0, 2, 2), 5.0, 0);
  CHECK_INT(lds_grid_layer_range(g, 0, &mn, &mx), LDS_OK);
  CHECK_NEAR(mn, 0.0, 0);
  CHECK_NEAR(mx, 5.0, 0);
  {
    lds_Grid *c = lds_grid_clone(g, &err);
    CHECK(c != NULL);
    CHECK_NEAR(lds_grid_layer_get(c, 0, 2, 2), 5.0, 0);
    CHECK(lds_grid_blocked(c, 1, 0));
    CHECK_INT(lds_grid_neighbourhood(c), 4);
    lds_grid_set_blocked(c, 0, 0, true);
    CHECK(!lds_grid_blocked(g, 0, 0)); /* deep copy */
    lds_grid_free(c);
  }
  CHECK_INT(lds_grid_layer_remove(g, 0), LDS_OK);
  CHECK_INT(lds_grid_layer_count(g), 0);
  lds_grid_free(g);
  lds_grid_free(NULL);

  /* every allocation of the constructor can fail cleanly, without leaks */
  {
    int k, failures = 0;
    for (k = 1; k <= 8; k++) {
      th_Alloc a = {0};
      lds_Env env;
      lds_env_init(&env);
      a.fail_at = k;
      env.alloc = th_alloc;
      env.alloc_ud = &a;
      g = lds_grid_new(&env, 16, 16, &err);
      if (!g) {
        failures++;
        CHECK_INT(err.code, LDS_E_NOMEM);
      } else {
        lds_grid_layer_add(g, "x", NULL);
        lds_grid_free(g);
      }
      CHECK_INT(a.live, 0);
    }
    CHECK(failures >= 5);
  }
}
