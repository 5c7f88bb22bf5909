/* SPDX-License-Identifier: MIT */
/* test_path.c — path values: new, sub, reverse, cell/node access, bounds,
** allocator failures. */
#include "harness.h"
#include "lds.h"

void suite_path(void);
void suite_path(void) {
  /* cells of a 10-wide grid: (1,0) (2,1) (3,1) (3,2) */
  static const uint32_t ids[] = {1, 12, 13, 23};
  lds_Error err;
  lds_Path *p = lds_path_new(NULL, ids, 4, 10, 4.5, 0, &err), *q, *r;
  int32_t x = -7, y = -7;
  CHECK(p != NULL);
  CHECK_INT(err.code, LDS_OK);
  CHECK_INT(lds_path_length(p), 4);
  CHECK_NEAR(lds_path_cost(p), 4.5, 0);
  CHECK_INT(lds_path_flags(p), 0);
  CHECK_INT(lds_path_width(p), 10);
  CHECK(lds_path_cell(p, 0, &x, &y) && x == 1 && y == 0);
  CHECK(lds_path_cell(p, 3, &x, &y) && x == 3 && y == 2);
  CHECK(lds_path_cell(p, 1, NULL, &y) && y == 1);
  x = y = -7;
  CHECK(!lds_path_cell(p, 4, &x, &y));
  CHECK(x == -7 && y == -7); /* untouched out of range */
  CHECK_INT(lds_path_node(p, 2), 13);
  CHECK_INT(lds_path_node(p, 4), UINT32_MAX);
  CHECK_INT(lds_path_node(p, (size_t)-1), UINT32_MAX);
  CHECK(memcmp(lds_path_nodes(p), ids, sizeof ids) == 0);
  CHECK(lds_path_nodes(p) != ids); /* copied */

  /* sub: inclusive range, flags kept only when the end is kept */
  q = lds_path_sub(p, 1, 2, 1.0, &err);
  CHECK(q != NULL);
  CHECK_INT(lds_path_length(q), 2);
  CHECK_INT(lds_path_node(q, 0), 12);
  CHECK_INT(lds_path_node(q, 1), 13);
  CHECK_NEAR(lds_path_cost(q), 1.0, 0);
  CHECK_INT(lds_path_width(q), 10);
  lds_path_free(q);
  q = lds_path_sub(p, 3, 3, 0.0, &err);
  CHECK(q != NULL && lds_path_length(q) == 1 && lds_path_node(q, 0) == 23);
  lds_path_free(q);
  q = lds_path_sub(p, 2, 4, 0.0, &err);
  CHECK(q == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  CHECK_STR(err.msg, "lds_path_sub: range 2..4 out of bounds (path has 4 nodes)");
  q = lds_path_sub(p, 3, 1, 0.0, &err);
  CHECK(q == NULL);
  CHECK_STR(err.msg, "lds_path_sub: range 3..1 out of bounds (path has 4 nodes)");

  /* reverse */
  r = lds_path_reverse(p, 5.0, &err);
  CHECK(r != NULL);
  CHECK_INT(lds_path_length(r), 4);
  CHECK_INT(lds_path_node(r, 0), 23);
  CHECK_INT(lds_path_node(r, 3), 1);
  CHECK_NEAR(lds_path_cost(r), 5.0, 0);
  CHECK_INT(lds_path_width(r), 10);
  CHECK(lds_path_cell(r, 0, &x, &y) && x == 3 && y == 2);
  lds_path_free(r);
  lds_path_free(p);
  lds_path_free(NULL);

  /* partial flag, graph paths (width 0), empty paths */
  p = lds_path_new(NULL, ids, 2, 0, 2.0, LDS_PATH_PARTIAL, &err);
  CHECK_INT(lds_path_flags(p), LDS_PATH_PARTIAL);
  CHECK(!lds_path_cell(p, 0, &x, &y)); /* graph path: no cells */
  CHECK_INT(lds_path_node(p, 1), 12);
  q = lds_path_sub(p, 1, 1, 0.0, &err);
  CHECK_INT(lds_path_flags(q), LDS_PATH_PARTIAL); /* keeps the partial end */
  lds_path_free(q);
  q = lds_path_sub(p, 0, 0, 0.0, &err);
  CHECK_INT(lds_path_flags(q), 0);
  lds_path_free(q);
  r = lds_path_reverse(p, 2.0, &err);
  CHECK_INT(lds_path_flags(r), LDS_PATH_PARTIAL);
  lds_path_free(r);
  lds_path_free(p);
  p = lds_path_new(NULL, NULL, 0, 5, 0.0, 0, &err);
  CHECK(p != NULL);
  CHECK_INT(lds_path_length(p), 0);
  CHECK(!lds_path_cell(p, 0, &x, &y));
  q = lds_path_sub(p, 0, 0, 0.0, &err);
  CHECK(q == NULL);
  CHECK_INT(err.code, LDS_E_ARG);
  r = lds_path_reverse(p, 0.0, &err);
  CHECK(r != NULL && lds_path_length(r) == 0);
  lds_path_free(r);
  lds_path_free(p);
  p = lds_path_new(NULL, ids, (size_t)-1 / 2, 10, 0.0, 0, &err);
  CHECK(p == NULL);
  CHECK_INT(err.code, LDS_E_ARG);

  /* a failing allocator: new, sub and reverse fail cleanly; copies use the
  ** allocator of the path they come from */
  {
    th_Alloc a = {0};
    lds_Env env;
    lds_env_init(&env);
    env.alloc = th_alloc;
    env.alloc_ud = &a;
    a.fail_at = 1;
    p = lds_path_new(&env, ids, 4, 10, 1.0, 0, &err);
    CHECK(p == NULL);
    CHECK_INT(err.code, LDS_E_NOMEM);
    CHECK_STR(err.msg, "lds_path_new: out of memory for 4 nodes");
    CHECK_INT(a.live, 0);
    a.fail_at = 0;
    p = lds_path_new(&env, ids, 4, 10, 1.0, 0, &err);
    CHECK(p != NULL);
    CHECK(a.live > 0);
    a.fail_at = a.count + 1;
    q = lds_path_sub(p, 0, 1, 1.0, &err);
    CHECK(q == NULL);
    CHECK_INT(err.code, LDS_E_NOMEM);
    a.fail_at = a.count + 1;
    r = lds_path_reverse(p, 1.0, &err);
    CHECK(r == NULL);
    CHECK_INT(err.code, LDS_E_NOMEM);
    CHECK_STR(err.msg, "lds_path_reverse: out of memory for 4 nodes");
    a.fail_at = 0;
    q = lds_path_sub(p, 0, 1, 1.0, &err);
    r = lds_path_reverse(p, 1.0, &err);
    CHECK(q != NULL && r != NULL);
    lds_path_free(q);
    lds_path_free(r);
    lds_path_free(p);
    CHECK_INT(a.live, 0);
  }
}
