/* SPDX-License-Identifier: MIT */
/*
** test_path_check.c — the direction table (lds_directions.h) and the path
** checker lds_path_check (lds_path.h): legal moves under each diagonal
** rule, corner cutting, endpoints, the recomputed cost, layers, bad input.
*/
#include "harness.h"

#include "lds.h"

#include <math.h>
#include <string.h>

#define SQRT2 1.4142135623730951

static void test_directions(void) {
  static const char *const names[8] = {"N", "E", "S", "W", "NE", "SE", "SW", "NW"};
  int d;
  for (d = 0; d < 8; d++) {
    const lds_Direction *m = &lds_directions[d];
    CHECK_INT(m->dx, lds_dir_dx[d]);
    CHECK_INT(m->dy, lds_dir_dy[d]);
    CHECK_INT(m->diagonal, d >= 4);
    CHECK_INT(m->diagonal, m->dx != 0 && m->dy != 0);
    CHECK_INT(m->cost_class, d >= 4 ? LDS_MOVE_DIAGONAL : LDS_MOVE_ORTHOGONAL);
    CHECK_NEAR(m->length, d >= 4 ? SQRT2 : 1.0, 0);
    CHECK_STR(m->name, names[d]);
    CHECK_STR(lds_direction_name(d), names[d]);
    CHECK_INT(lds_direction_of(m->dx, m->dy), d);
  }
  CHECK_INT(lds_dir_dx[LDS_DIR_E], 1);
  CHECK_INT(lds_dir_dy[LDS_DIR_N], -1); /* y grows south */
  CHECK_INT(lds_dir_dx[LDS_DIR_SW], -1);
  CHECK_INT(lds_dir_dy[LDS_DIR_SW], 1);
  CHECK_INT(lds_direction_of(0, 0), -1);
  CHECK_INT(lds_direction_of(2, 0), -1);
  CHECK_INT(lds_direction_of(1, -2), -1);
  CHECK(lds_direction_name(-1) == NULL);
  CHECK(lds_direction_name(8) == NULL);
}

/* a path over cells given as (x,y) pairs on a grid of width w */
static lds_Path *mkpath(int32_t w, const int32_t *xy, size_t n, double cost) {
  uint32_t ids[32];
  size_t i;
  for (i = 0; i < n; i++) ids[i] = (uint32_t)(xy[2 * i + 1] * w + xy[2 * i]);
  return lds_path_new(NULL, ids, n, w, cost, 0, NULL);
}

static void test_legal_and_cost(void) {
  /* 4x3, cost 2 at (1,0), diagonals under no_corner_cutting */
  lds_Grid *g = lds_grid_new(NULL, 4, 3, NULL);
  static const int32_t xy[] = {0, 0, 1, 0, 2, 1, 3, 1};
  lds_Path *p;
  lds_PathCheck o;
  lds_PathCheckReport r;
  lds_Error err;
  double want = 2.0 + SQRT2 + 1.0;
  lds_grid_set_cost(g, 1, 0, 2.0f);
  p = mkpath(4, xy, 4, want);
  lds_path_check_init(&o);
  CHECK_INT(o.check_start, false);
  CHECK_INT(o.check_goal, false);
  CHECK_INT(o.check_cost, true);
  CHECK_NEAR(o.cost_rel_tol, 1e-9, 0);
  CHECK_INT(lds_path_check(g, p, NULL, &r, &err), LDS_OK);
  CHECK_INT(r.fault, LDS_PATHCHECK_OK);
  CHECK_NEAR(r.cost, want, 1e-12);
  CHECK_INT(err.code, LDS_OK);
  o.check_start = o.check_goal = true;
  o.sx = 0, o.sy = 0, o.gx = 3, o.gy = 1;
  CHECK_INT(lds_path_check(g, p, &o, &r, &err), LDS_OK);
  /* wrong endpoints */
  o.sx = 1;
  CHECK_INT(lds_path_check(g, p, &o, &r, &err), LDS_E_FORMAT);
  CHECK_INT(r.fault, LDS_PATHCHECK_START);
  CHECK_STR(err.msg, "lds_path_check: path does not start at (1,0)");
  o.sx = 0, o.gy = 2;
  CHECK_INT(lds_path_check(g, p, &o, &r, &err), LDS_E_FORMAT);
  CHECK_INT(r.fault, LDS_PATHCHECK_GOAL);
  CHECK_INT(r.step, 3);
  CHECK_STR(err.msg, "lds_path_check: path ends at (3,1), not the goal (3,2)");
  /* the reported cost off by 1e-6: a fault unless the tolerance allows it */
  lds_path_free(p);
  p = mkpath(4, xy, 4, want + 1e-6);
  CHECK_INT(lds_path_check(g, p, NULL, &r, &err), LDS_E_FORMAT);
  CHECK_INT(r.fault, LDS_PATHCHECK_COST);
  CHECK_NEAR(r.cost, want, 1e-12);
  CHECK_CONTAINS(err.msg, "lds_path_check: cost ");
  lds_path_check_init(&o);
  o.cost_rel_tol = 1e-6;
  CHECK_INT(lds_path_check(g, p, &o, &r, NULL), LDS_OK);
  o.check_cost = false;
  o.cost_rel_tol = 0;
  CHECK_INT(lds_path_check(g, p, &o, &r, NULL), LDS_OK);
  lds_path_free(p);
  /* a layer: weight 0.5 x layer value 4 at (2,1) adds 2 x sqrt 2 */
  {
    int li;
    double wts[1] = {0.5};
    CHECK_INT(lds_grid_layer_add(g, "danger", &li), LDS_OK);
    CHECK_INT(lds_grid_layer_set(g, li, 2, 1, 4.0f), LDS_OK);
    p = mkpath(4, xy, 4, want + 2.0 * SQRT2);
    CHECK_INT(lds_path_check(g, p, NULL, &r, NULL), LDS_E_FORMAT); /* no layers: cheaper */
    lds_path_check_init(&o);
    o.layer_weights = wts;
    o.nlayers = 1;
    CHECK_INT(lds_path_check(g, p, &o, &r, NULL), LDS_OK);
    CHECK_NEAR(r.cost, want + 2.0 * SQRT2, 1e-12);
    o.nlayers = 2; /* more weights than layers */
    CHECK_INT(lds_path_check(g, p, &o, &r, &err), LDS_E_ARG);
    CHECK_STR(err.msg, "lds_path_check: nlayers 2 (expected 0..1 with layer_weights)");
    lds_path_free(p);
  }
  lds_grid_free(g);
}

static void test_moves(void) {
  /* (1,0) blocked: the diagonal (0,0)->(1,1) passes its corner */
  lds_Grid *g = lds_grid_new(NULL, 3, 3, NULL);
  static const int32_t cut[] = {0, 0, 1, 1};
  static const int32_t jump[] = {0, 0, 2, 0};
  static const int32_t into_wall[] = {0, 0, 1, 0};
  static const int32_t one[] = {1, 0};
  lds_Path *p;
  lds_PathCheck o;
  lds_PathCheckReport r;
  lds_Error err;
  lds_path_check_init(&o);
  o.check_cost = false;
  lds_grid_set_blocked(g, 1, 0, true);
  p = mkpath(3, cut, 2, SQRT2);
  CHECK_INT(lds_path_check(g, p, &o, &r, &err), LDS_E_FORMAT); /* no_corner_cutting */
  CHECK_INT(r.fault, LDS_PATHCHECK_MOVE);
  CHECK_INT(r.step, 1);
  CHECK_STR(err.msg, "lds_path_check: illegal step 1: (0,0)->(1,1)");
  lds_grid_set_diagonal(g, LDS_DIAG_ALLOW_ONE_BLOCKED);
  CHECK_INT(lds_path_check(g, p, &o, &r, NULL), LDS_OK);
  CHECK_NEAR(r.cost, SQRT2, 0);
  lds_grid_set_diagonal(g, LDS_DIAG_NEVER);
  CHECK_INT(lds_path_check(g, p, &o, &r, NULL), LDS_E_FORMAT);
  lds_grid_set_diagonal(g, LDS_DIAG_ALWAYS);
  lds_grid_set_blocked(g, 0, 1, true); /* both corners blocked */
  CHECK_INT(lds_path_check(g, p, &o, &r, NULL), LDS_OK);
  lds_grid_set_neighbourhood(g, 4);
  CHECK_INT(lds_path_check(g, p, &o, &r, NULL), LDS_E_FORMAT);
  CHECK_INT(r.fault, LDS_PATHCHECK_MOVE);
  lds_path_free(p);
  lds_grid_set_neighbourhood(g, 8);
  /* not a neighbour; into a wall; starting on a wall */
  p = mkpath(3, jump, 2, 2.0);
  CHECK_INT(lds_path_check(g, p, &o, &r, &err), LDS_E_FORMAT);
  CHECK_INT(r.fault, LDS_PATHCHECK_MOVE);
  CHECK_STR(err.msg, "lds_path_check: illegal step 1: (0,0)->(2,0)");
  lds_path_free(p);
  p = mkpath(3, into_wall, 2, 1.0);
  CHECK_INT(lds_path_check(g, p, &o, &r, NULL), LDS_E_FORMAT);
  CHECK_INT(r.fault, LDS_PATHCHECK_MOVE);
  lds_path_free(p);
  p = mkpath(3, one, 1, 0.0);
  CHECK_INT(lds_path_check(g, p, &o, &r, &err), LDS_E_FORMAT);
  CHECK_INT(r.fault, LDS_PATHCHECK_CELL);
  CHECK_STR(err.msg, "lds_path_check: cell 0 (1,0) is outside the grid or blocked");
  lds_path_free(p);
  lds_grid_free(g);
}

static void test_bad_input(void) {
  lds_Grid *g = lds_grid_new(NULL, 3, 3, NULL);
  static const int32_t xy[] = {0, 0, 1, 0};
  uint32_t ids[2] = {0, 1};
  lds_Path *p = mkpath(3, xy, 2, 1.0), *graph = lds_path_new(NULL, ids, 2, 0, 1.0, 0, NULL),
           *other = mkpath(4, xy, 2, 1.0), *empty = lds_path_new(NULL, NULL, 0, 3, 0.0, 0, NULL);
  lds_PathCheck o;
  lds_PathCheckReport r;
  lds_Error err;
  CHECK_INT(lds_path_check(NULL, p, NULL, &r, &err), LDS_E_ARG);
  CHECK_STR(err.msg, "lds_path_check: grid is NULL");
  CHECK_INT(lds_path_check(g, NULL, NULL, &r, &err), LDS_E_ARG);
  CHECK_STR(err.msg, "lds_path_check: path is NULL");
  CHECK_INT(lds_path_check(g, graph, NULL, &r, &err), LDS_E_ARG);
  CHECK_STR(err.msg, "lds_path_check: path width 0, grid width 3 (expected a path on this grid)");
  CHECK_INT(lds_path_check(g, other, NULL, NULL, NULL), LDS_E_ARG);
  lds_path_check_init(&o);
  o.cost_rel_tol = NAN;
  CHECK_INT(lds_path_check(g, p, &o, &r, &err), LDS_E_ARG);
  CHECK_STR(err.msg, "lds_path_check: cost_rel_tol nan (expected finite and >= 0)");
  o.cost_rel_tol = -1.0;
  CHECK_INT(lds_path_check(g, p, &o, &r, NULL), LDS_E_ARG);
  CHECK_INT(lds_path_check(g, empty, NULL, &r, &err), LDS_E_FORMAT);
  CHECK_INT(r.fault, LDS_PATHCHECK_EMPTY);
  CHECK_STR(err.msg, "lds_path_check: the path has no cell");
  lds_path_free(p);
  lds_path_free(graph);
  lds_path_free(other);
  lds_path_free(empty);
  lds_grid_free(g);
}

void suite_path_check(void);
void suite_path_check(void) {
  test_directions();
  test_legal_and_cost();
  test_moves();
  test_bad_input();
}
