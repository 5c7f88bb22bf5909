/* SPDX-License-Identifier: MIT */
/* test_hpa_band.c — the fast mode's band refinement where costs are not
** uniform (core/lds_hpa_band.c): a cheap road off the entrances' rows is
** found exactly; on maps of cost patches (as `lodestar hier --costs`) the
** banded paths are legal, never dearer than their abstract path, never
** cheaper than the optimum, and together cheaper than line smoothing's
** (band_radius 0) with at least as many within 1 % of optimal; with layer
** weights too; the same cells whole and sliced; band_radius is
** validated. */
#include "harness.h"
#include "hpa_fixtures.h"
#include "lds.h"

#include <stdlib.h>
#include <string.h>

static uint32_t rng = 4242u;
static uint32_t rnd(void) { return thf_rnd(&rng); }

static lds_Hpa *hier(lds_Grid *g, int band, const double *w, int nw) {
  lds_HpaParams hp;
  lds_hpa_params_init(&hp);
  hp.band_radius = band;
  hp.layer_weights = w;
  hp.n_layer_weights = nw;
  return lds_hpa_new(NULL, g, &hp, NULL);
}

/* the fast cost of one query, sliced by `slice` expansions (0: whole);
** -1 when not found; the path into *out when out */
static double fast(lds_HpaQuery *q, int32_t sx, int32_t sy, int32_t gx, int32_t gy, uint64_t slice,
                   lds_Path **out) {
  lds_Budget b = {slice, 0};
  lds_Status st;
  if (lds_hpa_query_start(q, LDS_HPA_FAST, sx, sy, gx, gy) != LDS_OK) return -1;
  while ((st = lds_hpa_query_step(q, slice ? &b : NULL)) == LDS_RUNNING) {
  }
  if (st != LDS_FOUND) return -1;
  if (out) *out = lds_hpa_query_path(q, NULL);
  return lds_hpa_query_cost(q);
}

/* A 64 x 24 grid of cost 4 with a winding road of cost 1: rows 4 and 6 by
** turns every 8 columns, joined through row 5, off the rows where the
** cluster borders' entrances sit (0, 8, 15 of an open border of 16). The
** optimum follows the road; line smoothing cannot (a line through cost-4
** cells is dearer than the raw stretch it would replace), the band does. */
static double road_optimum(lds_Grid *g) {
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  double c = -1;
  lds_search_params_init(&p);
  if (s && lds_search_start(s, &p, 0, 4, 63, 4) == LDS_OK && lds_search_step(s, NULL) == LDS_FOUND)
    c = lds_search_cost(s);
  lds_search_free(s);
  return c;
}

static void test_road(void) {
  lds_Grid *g = lds_grid_new(NULL, 64, 24, NULL);
  lds_Hpa *hb, *hl;
  lds_HpaQuery *qb, *ql;
  double cb, cl, opt;
  int32_t x, y;
  for (y = 0; y < 24; y++)
    for (x = 0; x < 64; x++) {
      int road = (x / 8) % 2 ? 6 : 4;
      bool turn = x % 8 == 0 && x > 0;
      lds_grid_set_cost(g, x, y, y == road || (turn && y == 5) ? 1.0f : 4.0f);
    }
  opt = road_optimum(g);
  CHECK(opt > 63.0 && opt < 80.0);
  if (!(opt > 63.0 && opt < 80.0)) printf("  road optimum %g\n", opt);
  hb = hier(g, LDS_HPA_BAND_RADIUS, NULL, 0);
  hl = hier(g, 0, NULL, 0);
  CHECK(hb != NULL && hl != NULL);
  if (!hb || !hl) return;
  qb = lds_hpa_query_new(hb, NULL);
  ql = lds_hpa_query_new(hl, NULL);
  cb = fast(qb, 0, 4, 63, 4, 0, NULL);
  cl = fast(ql, 0, 4, 63, 4, 0, NULL);
  CHECK_NEAR(cb, opt, 1e-9);
  CHECK(cl > opt + 1.0); /* the entrances' detours */
  if (!(cl > opt + 1.0)) printf("  road: optimum %g, band %g, lines %g\n", opt, cb, cl);
  {
    lds_HpaInfo in;
    lds_hpa_info(hb, &in);
    CHECK_INT(in.band_radius, LDS_HPA_BAND_RADIUS);
    lds_hpa_info(hl, &in);
    CHECK_INT(in.band_radius, 0);
  }
  lds_hpa_query_free(qb);
  lds_hpa_query_free(ql);
  lds_hpa_free(hb);
  lds_hpa_free(hl);
  lds_grid_free(g);
}

/* optimal cost by A* (the plain search honours costs and weights); -1 none */
static double optimum(lds_Search *s, const double *w, int nw, int32_t sx, int32_t sy, int32_t gx,
                      int32_t gy) {
  return thf_astar_cost(s, w, nw, sx, sy, gx, gy);
}

/* 192 x 160 cells, 16 x 16 patches of cost 1..4, 12 % blocked; with
** weights, a layer of 0..3 per 8 x 8 patch weighted 0.5 */
static void test_patches(bool weights) {
  lds_Grid *g = lds_grid_new(NULL, 192, 160, NULL);
  const double w[1] = {0.5};
  lds_Search *s;
  int layer = -1;
  lds_Hpa *hb, *hl;
  lds_HpaQuery *qb, *ql;
  int32_t x, y;
  int i, found = 0, illegal = 0, dear = 0, below = 0, differ = 0, in_b = 0, in_l = 0;
  double sum_b = 0, sum_l = 0;
  uint32_t patch[12][10];
  for (y = 0; y < 10; y++)
    for (x = 0; x < 12; x++) patch[x][y] = 1 + rnd() % 4;
  if (weights) CHECK_INT(lds_grid_layer_add(g, "mud", &layer), LDS_OK);
  for (y = 0; y < 160; y++)
    for (x = 0; x < 192; x++) {
      if (rnd() % 100 < 12) {
        lds_grid_set_blocked(g, x, y, true);
        continue;
      }
      lds_grid_set_cost(g, x, y, (float)patch[x / 16][y / 16]);
      if (weights) lds_grid_layer_set(g, layer, x, y, (float)((x / 8 + 3 * (y / 8)) % 4));
    }
  s = lds_search_new(NULL, g, NULL);
  hb = hier(g, LDS_HPA_BAND_RADIUS, weights ? w : NULL, weights);
  hl = hier(g, 0, weights ? w : NULL, weights);
  CHECK(s && hb && hl);
  if (!s || !hb || !hl) return;
  qb = lds_hpa_query_new(hb, NULL);
  ql = lds_hpa_query_new(hl, NULL);
  for (i = 0; i < 80; i++) {
    int32_t sx, sy, gx, gy;
    double opt, cb, cl, cs, ab;
    lds_Path *pb = NULL, *ps = NULL;
    lds_PathCheck pc;
    lds_PathCheckReport rep;
    do {
      sx = (int32_t)(rnd() % 192), sy = (int32_t)(rnd() % 160);
    } while (lds_grid_blocked(g, sx, sy));
    do {
      gx = (int32_t)(rnd() % 192), gy = (int32_t)(rnd() % 160);
    } while (lds_grid_blocked(g, gx, gy));
    opt = optimum(s, weights ? w : NULL, weights, sx, sy, gx, gy);
    cb = fast(qb, sx, sy, gx, gy, 0, &pb);
    ab = lds_hpa_query_abstract_cost(qb);
    cl = fast(ql, sx, sy, gx, gy, 0, NULL);
    CHECK((opt < 0) == (cb < 0));
    if (opt < 0 || cb < 0 || cl < 0) {
      lds_path_free(pb);
      continue;
    }
    found++;
    lds_path_check_init(&pc);
    pc.check_start = pc.check_goal = true;
    pc.sx = sx, pc.sy = sy, pc.gx = gx, pc.gy = gy;
    if (weights) {
      pc.layer_weights = w;
      pc.nlayers = 1;
    }
    if (!pb || lds_path_check(g, pb, &pc, &rep, NULL) != LDS_OK ||
        fabs(rep.cost - cb) > 1e-9 * cb)
      illegal++;
    if (ab >= 0 && cb > ab * (1 + 1e-6)) dear++; /* stored distances are floats rounded down */
    if (cb < opt * (1 - 1e-9)) below++;
    in_b += cb <= opt * 1.01;
    in_l += cl <= opt * 1.01;
    sum_b += cb / opt;
    sum_l += cl / opt;
    /* sliced: the same cells */
    cs = fast(qb, sx, sy, gx, gy, 5 + (uint64_t)(i % 7) * 11, &ps);
    if (cs != cb || !ps || !pb || lds_path_length(ps) != lds_path_length(pb) ||
        memcmp(lds_path_nodes(ps), lds_path_nodes(pb), lds_path_length(pb) * sizeof(uint32_t)) != 0)
      differ++;
    lds_path_free(pb);
    lds_path_free(ps);
  }
  CHECK(found > 50);
  CHECK_INT(illegal, 0);
  CHECK_INT(dear, 0);
  CHECK_INT(below, 0);
  CHECK_INT(differ, 0);
  CHECK(sum_b < sum_l);
  CHECK(in_b >= in_l);
  if (!(sum_b < sum_l) || in_b < in_l)
    printf("  band: mean ratio %.5f, %d within 1 %%; lines: %.5f, %d\n", sum_b / found, in_b,
           sum_l / found, in_l);
  lds_hpa_query_free(qb);
  lds_hpa_query_free(ql);
  lds_hpa_free(hb);
  lds_hpa_free(hl);
  lds_search_free(s);
  lds_grid_free(g);
}

static void test_band_radius_checked(void) {
  lds_Grid *g = lds_grid_new(NULL, 32, 32, NULL);
  lds_HpaParams hp;
  lds_Error err;
  int bad[2] = {-1, LDS_HPA_MAX_BAND_RADIUS + 1}, i;
  for (i = 0; i < 2; i++) {
    lds_Hpa *h;
    lds_hpa_params_init(&hp);
    hp.band_radius = bad[i];
    h = lds_hpa_new(NULL, g, &hp, &err);
    CHECK(h == NULL);
    CHECK_INT(err.code, LDS_E_ARG);
    CHECK(strstr(err.msg, "band_radius") != NULL);
    lds_hpa_free(h);
  }
  lds_grid_free(g);
}

void suite_hpa_band(void);
void suite_hpa_band(void) {
  test_road();
  test_patches(false);
  test_patches(true);
  test_band_radius_checked();
}
