/* SPDX-License-Identifier: MIT */
/*
** test_debug_draw.c — lds_search_cell against the search's own answers,
** the debug-draw calls through a recording renderer, the canvas's pixels,
** and a PNG written and read back (libpng).
*/
#define _DEFAULT_SOURCE /* mkstemps */
#include "harness.h"
#include "lds.h"
#include "lds_canvas.h"
#include "lds_debug_draw.h"
#include "lds_png.h"

#include <stdlib.h>
#ifndef LDS_NO_PNG /* the Windows cross build has no libpng */
#include <png.h>
#include <unistd.h>
#endif

void suite_debug_draw(void);

static const char *const MAP[] = {
    "..........", ".####.....", "....#..~..", "..#.#.....", "..#...##..", "..........",
};

static lds_Grid *make_grid(void) {
  lds_Grid *g = lds_grid_new(NULL, 10, 6, NULL);
  int32_t x, y;
  for (y = 0; y < 6; y++)
    for (x = 0; x < 10; x++) {
      if (MAP[y][x] == '#') lds_grid_set_blocked(g, x, y, true);
      if (MAP[y][x] == '~') lds_grid_set_cost(g, x, y, 4.0f);
    }
  return g;
}

/* a renderer that counts what it is given */
typedef struct Rec {
  int batches, open_batches, cells, lines, points, texts;
  lds_DebugPrim prim;
  uint32_t last;
} Rec;
static void r_begin(void *ud, lds_DebugPrim p, float size) {
  Rec *r = (Rec *)ud;
  r->batches++;
  r->open_batches++;
  r->prim = p;
  (void)size;
}
static void r_vertex(void *ud, float x, float y, uint32_t rgba) {
  Rec *r = (Rec *)ud;
  (void)x;
  (void)y;
  r->last = rgba;
  if (r->prim == LDS_DRAW_CELLS) r->cells++;
  else if (r->prim == LDS_DRAW_LINES) r->lines++;
  else r->points++;
}
static void r_end(void *ud) { ((Rec *)ud)->open_batches--; }
static void r_text(void *ud, float x, float y, const char *t, uint32_t rgba) {
  (void)x, (void)y, (void)t, (void)rgba;
  ((Rec *)ud)->texts++;
}

static void test_cell_states(int algo) {
  lds_Grid *g = make_grid();
  lds_Search *s = lds_search_new(NULL, g, NULL), *one = lds_search_new(NULL, g, NULL);
  lds_SearchParams p, q;
  lds_CellInfo ci;
  int32_t x, y;
  int closed = 0, open = 0, bad_g = 0, bad_parent = 0;
  lds_search_params_init(&p);
  p.algo = (lds_Algo)algo;
  CHECK_INT(lds_search_cell(s, 0, 0, &ci), LDS_E_STATE); /* no query yet */
  CHECK_INT(lds_search_start(s, &p, 0, 5, 9, 0), LDS_OK);
  CHECK_INT(lds_search_step(s, NULL), LDS_FOUND);
  lds_search_params_init(&q);
  for (y = 0; y < 6; y++)
    for (x = 0; x < 10; x++) {
      CHECK_INT(lds_search_cell(s, x, y, &ci), LDS_OK);
      if (ci.state == LDS_CELL_CLOSED) {
        closed++;
        /* a closed cell's g is its optimal cost from the start */
        lds_search_start(one, &q, 0, 5, x, y);
        if (lds_search_step(one, NULL) != LDS_FOUND || fabs(lds_search_cost(one) - ci.g) > 1e-9)
          bad_g++;
        if (!(x == 0 && y == 5)) {
          lds_CellInfo pi;
          if (lds_search_cell(s, ci.parent_x, ci.parent_y, &pi) != LDS_OK || pi.state == LDS_CELL_FRESH)
            bad_parent++;
        }
      } else if (ci.state == LDS_CELL_OPEN) {
        open++;
        if (!(ci.g > 0.0) || !isfinite(ci.g)) bad_g++;
      } else if (!isinf(ci.g) || ci.parent_x != -1) {
        bad_g++;
      }
    }
  CHECK(closed > 0);
  CHECK_INT(bad_g, 0);
  CHECK_INT(bad_parent, 0);
  if (algo == LDS_ALGO_ASTAR) CHECK(open > 0);
  CHECK_INT(lds_search_cell(s, 0, 0, &ci), LDS_OK);
  CHECK_INT(lds_search_cell(s, 10, 0, &ci), LDS_E_ARG);
  CHECK_INT(lds_search_cell(s, -1, 0, &ci), LDS_E_ARG);
  CHECK_INT(lds_search_cell(NULL, 0, 0, &ci), LDS_E_ARG);
  CHECK_INT(lds_search_cell(s, 0, 0, NULL), LDS_E_ARG);
  lds_search_free(s);
  lds_search_free(one);
  lds_grid_free(g);
}

static void test_draw_calls(void) {
  lds_Grid *g = make_grid();
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Path *path;
  Rec r = {0};
  lds_DebugDraw dd = {&r, r_begin, r_vertex, r_end, r_text};
  lds_DebugDraw bad = {&r, NULL, r_vertex, r_end, NULL};
  lds_DebugSearchOpts so;
  lds_search_params_init(&p);
  CHECK_INT(lds_debug_draw_grid(&dd, g, NULL), LDS_OK);
  CHECK_INT(r.cells, 60); /* every cell once */
  CHECK_INT(r.open_batches, 0);
  CHECK_INT(lds_debug_draw_grid(&bad, g, NULL), LDS_E_ARG);
  CHECK_INT(lds_debug_draw_search(&dd, s, NULL), LDS_E_STATE);
  lds_search_start(s, &p, 0, 5, 9, 0);
  lds_search_step(s, NULL);
  memset(&r, 0, sizeof r);
  lds_debug_search_opts_init(&so);
  so.labels = true;
  CHECK_INT(lds_debug_draw_search(&dd, s, &so), LDS_OK);
  CHECK(r.cells > 0);
  CHECK_INT(r.points, 2); /* start and goal */
  CHECK(r.texts > 0 && r.texts <= r.cells);
  CHECK_INT(r.open_batches, 0);
  path = lds_search_path(s, NULL);
  memset(&r, 0, sizeof r);
  CHECK_INT(lds_debug_draw_path(&dd, path, LDS_RGBA(255, 0, 0, 255), 0.3f), LDS_OK);
  CHECK_INT(r.lines, 2 * ((int)lds_path_length(path) - 1));
  CHECK_INT(r.points, (int)lds_path_length(path));
  CHECK_INT(lds_debug_draw_path(&dd, path, 0, 0.0f), LDS_E_ARG);
  {
    lds_DebugGridOpts go;
    lds_debug_grid_opts_init(&go);
    go.layer = 3; /* the grid has none */
    CHECK_INT(lds_debug_draw_grid(&dd, g, &go), LDS_E_ARG);
  }
  lds_path_free(path);
  lds_search_free(s);
  lds_grid_free(g);
}

static void test_canvas_and_png(void) {
  lds_Grid *g = make_grid();
  lds_Search *s = lds_search_new(NULL, g, NULL);
  lds_SearchParams p;
  lds_Path *path;
  lds_Canvas *c;
  lds_DebugDraw dd;
  lds_DebugGridOpts go;
  lds_Error err;
#ifndef LDS_NO_PNG
  lds_PictureSpec spec;
  png_image img;
  uint8_t *px;
  char file[] = "/tmp/lds_dd_XXXXXX.png";
#endif
  const int S = 8;
  size_t k;
  int on_path = 0;
  lds_search_params_init(&p);
  lds_search_start(s, &p, 0, 5, 9, 0);
  lds_search_step(s, NULL);
  path = lds_search_path(s, NULL);
  CHECK(lds_canvas_new(NULL, 0, 5, S, &err) == NULL && err.code == LDS_E_ARG);
  CHECK(lds_canvas_new(NULL, 5, 5, 65, &err) == NULL && err.code == LDS_E_ARG);
  c = lds_canvas_new(NULL, 10, 6, S, &err);
  CHECK(c != NULL);
  CHECK_INT(lds_canvas_width(c), 80);
  CHECK_INT(lds_canvas_height(c), 48);
  CHECK(lds_canvas_get(c, 0, 0) == LDS_RGBA(255, 255, 255, 255));
  lds_canvas_debug_draw(c, &dd);
  lds_debug_grid_opts_init(&go);
  lds_debug_draw_grid(&dd, g, &go);
  /* a blocked cell is the blocked colour, a plain one the cheap end */
  CHECK(lds_canvas_get(c, 1 * S + 3, 1 * S + 3) == go.blocked);
  CHECK(lds_canvas_get(c, 0 * S + 3, 0 * S + 3) == go.free_lo);
  CHECK(lds_canvas_get(c, 7 * S + 3, 2 * S + 3) == go.free_hi); /* the costliest cell */
  lds_debug_draw_path(&dd, path, LDS_RGBA(255, 0, 0, 255), 0.3f);
  for (k = 0; k < lds_path_length(path); k++) {
    int32_t x, y;
    lds_path_cell(path, k, &x, &y);
    on_path += lds_canvas_get(c, x * S + S / 2, y * S + S / 2) == LDS_RGBA(255, 0, 0, 255);
  }
  CHECK_INT(on_path, (int)lds_path_length(path));
  /* a half-transparent cell blends */
  lds_debug_draw_grid(&dd, g, &go);
  dd.begin(dd.ud, LDS_DRAW_CELLS, 1.0f);
  dd.vertex(dd.ud, 0, 0, LDS_RGBA(0, 0, 0, 128));
  dd.end(dd.ud);
  {
    uint32_t v = lds_canvas_get(c, 1, 1);
    CHECK((v >> 24) > 100 && (v >> 24) < 130 && (v & 0xFF) == 255);
  }
  lds_canvas_free(c);
#ifndef LDS_NO_PNG
  /* the whole picture, written and read back */
  {
    int fd = mkstemps(file, 4);
    CHECK(fd >= 0);
    if (fd >= 0) close(fd);
  }
  lds_picture_spec_init(&spec);
  spec.search = s;
  spec.path = path;
  spec.scale = S;
  CHECK_INT(lds_picture_write(file, &spec, &err), LDS_OK);
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  CHECK(png_image_begin_read_from_file(&img, file) != 0);
  img.format = PNG_FORMAT_RGBA;
  CHECK_INT(img.width, 80);
  CHECK_INT(img.height, 48);
  px = (uint8_t *)malloc(PNG_IMAGE_SIZE(img));
  CHECK(px && png_image_finish_read(&img, NULL, px, 0, NULL) != 0);
  if (px) {
    int32_t x, y;
    uint8_t *q;
    lds_path_cell(path, lds_path_length(path) / 2, &x, &y);
    q = px + ((size_t)(y * S + S / 2) * 80 + (size_t)(x * S + S / 2)) * 4;
    CHECK(q[0] == 220 && q[1] == 20 && q[2] == 30); /* the path's red */
    q = px + ((size_t)(1 * S + 3) * 80 + (size_t)(1 * S + 3)) * 4;
    CHECK(q[0] == 40 && q[1] == 40 && q[2] == 48); /* a wall */
    q = px + ((size_t)(5 * S + S / 2) * 80 + (size_t)(0 * S + S / 2)) * 4;
    CHECK(q[0] == 250 && q[1] == 210 && q[2] == 30); /* the start's dot, over the path */
    q = px + ((size_t)(0 * S + S / 2) * 80 + (size_t)(9 * S + S / 2)) * 4;
    CHECK(q[0] == 230 && q[1] == 30 && q[2] == 30); /* the goal's */
  }
  free(px);
  remove(file);
  /* errors name what is wrong */
  spec.layer = 2;
  CHECK_INT(lds_picture_write(file, &spec, &err), LDS_E_ARG);
  CHECK(strstr(err.msg, "layer 2") != NULL);
  spec.layer = -1;
  CHECK_INT(lds_picture_write("/nonexistent-dir/x.png", &spec, &err), LDS_E_IO);
  CHECK(strstr(err.msg, "cannot write /nonexistent-dir/x.png") != NULL);
  lds_picture_spec_init(&spec);
  CHECK_INT(lds_picture_write(file, &spec, &err), LDS_E_ARG);
#else
  (void)err;
#endif
  lds_path_free(path);
  lds_search_free(s);
  lds_grid_free(g);
}

void suite_debug_draw(void) {
  test_cell_states(LDS_ALGO_ASTAR);
  test_cell_states(LDS_ALGO_DIJKSTRA);
  test_cell_states(LDS_ALGO_JPS);
  test_draw_calls();
  test_canvas_and_png();
}
