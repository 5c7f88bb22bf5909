/* SPDX-License-Identifier: MIT */
/*
** lds_png.c — PNG pictures of grids, searches and paths (lds_png.h):
** lds_DebugDraw onto an lds_Canvas, written with libpng.
*/
#include "lds_png.h"

#include "lds_jps.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifndef LDS_NO_PNG
#include <png.h>
#endif

static lds_Status fail(lds_Error *err, lds_Status code, const char *fmt, ...) {
  va_list ap;
  if (err) {
    err->code = code;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return code;
}

void lds_picture_spec_init(lds_PictureSpec *p) {
  if (!p) return;
  memset(p, 0, sizeof *p);
  p->layer = -1;
}

#ifdef LDS_NO_PNG
lds_Status lds_png_write(const lds_Canvas *c, const char *path, lds_Error *err) {
  if (!c || !path) return fail(err, LDS_E_ARG, "lds_png_write: canvas or path is NULL");
  return fail(err, LDS_E_STATE, "lds_png_write: this lodestar was built without libpng (LDS_NO_PNG)");
}
#else
lds_Status lds_png_write(const lds_Canvas *c, const char *path, lds_Error *err) {
  png_image img;
  if (!c || !path) return fail(err, LDS_E_ARG, "lds_png_write: canvas or path is NULL");
  memset(&img, 0, sizeof img);
  img.version = PNG_IMAGE_VERSION;
  img.width = (png_uint_32)lds_canvas_width(c);
  img.height = (png_uint_32)lds_canvas_height(c);
  img.format = PNG_FORMAT_RGBA;
  errno = 0;
  if (!png_image_write_to_file(&img, path, 0, lds_canvas_pixels(c), 0, NULL)) {
    lds_Status st = fail(err, LDS_E_IO, "lds_png_write: cannot write %s (%s)", path,
                         errno ? strerror(errno) : img.message);
    png_image_free(&img);
    return st;
  }
  if (err) {
    err->code = LDS_OK;
    err->msg[0] = '\0';
  }
  return LDS_OK;
}
#endif

lds_Status lds_picture_write(const char *path, const lds_PictureSpec *spec, lds_Error *err) {
  const lds_Grid *g;
  lds_Canvas *c;
  lds_DebugDraw dd;
  lds_DebugGridOpts go;
  lds_Status st = LDS_OK;
  int scale;
  int32_t w, h;
  if (!spec || !path) return fail(err, LDS_E_ARG, "lds_picture_write: spec or path is NULL");
  g = spec->grid ? spec->grid : spec->search ? lds_search_grid(spec->search) : NULL;
  if (!g) return fail(err, LDS_E_ARG, "lds_picture_write: no grid (spec.grid, or a grid search)");
  w = lds_grid_width(g);
  h = lds_grid_height(g);
  if (spec->search && lds_search_grid(spec->search) != g)
    return fail(err, LDS_E_ARG, "lds_picture_write: spec.search runs on another grid than spec.grid");
  if ((spec->path && lds_path_width(spec->path) != w) || (spec->post && lds_path_width(spec->post) != w))
    return fail(err, LDS_E_ARG, "lds_picture_write: a path of another grid (width %ld, expected %ld)",
                (long)lds_path_width(spec->path ? spec->path : spec->post), (long)w);
  if (spec->layer < -1 || spec->layer >= lds_grid_layer_count(g))
    return fail(err, LDS_E_ARG, "lds_picture_write: layer %d: the grid has %d layers", spec->layer,
                lds_grid_layer_count(g));
  scale = spec->scale;
  if (scale == 0) { /* about 1024 pixels on the longer side, 1..16 per cell */
    int32_t side = w > h ? w : h;
    scale = side >= 1024 ? 1 : (int)(1024 / side);
    if (scale > 16) scale = 16;
  }
  c = lds_canvas_new(NULL, w, h, scale, err);
  if (!c) return err ? err->code : LDS_E_ARG;
  lds_canvas_debug_draw(c, &dd);
  lds_debug_grid_opts_init(&go);
  go.layer = spec->layer;
  lds_debug_draw_grid(&dd, g, &go);
  if (spec->search) {
    st = lds_debug_draw_search(&dd, spec->search, NULL);
    if (st == LDS_E_STATE) st = LDS_OK; /* a search with no query yet: nothing to draw */
    if (st != LDS_OK) {
      lds_canvas_free(c);
      return fail(err, st, "lds_picture_write: spec.search is not a grid search");
    }
  }
  {
    float width = scale >= 4 ? 0.35f : 1.0f; /* thin paths stay visible on small scales */
    if (spec->path) lds_debug_draw_path(&dd, spec->path, LDS_RGBA(220, 20, 30, 255), width);
    if (spec->post) lds_debug_draw_path(&dd, spec->post, LDS_RGBA(255, 140, 0, 255), width * 0.7f);
  }
  /* on top of the paths: JPS's jump points, then the start and goal dots,
  ** at least 7 pixels wide whatever the scale */
  {
    float dot = 7.0f / (float)scale > 1.2f ? 7.0f / (float)scale : 1.2f;
    lds_DebugSearchOpts so;
    int32_t x, y;
    lds_debug_search_opts_init(&so);
    if (spec->search && (lds_search_algo_used(spec->search) == LDS_ALGO_JPS ||
                         lds_search_algo_used(spec->search) == LDS_ALGO_JPS_PLUS)) {
      lds_Path *jp = lds_search_jump_points(spec->search, NULL);
      if (jp) {
        size_t k;
        dd.begin(dd.ud, LDS_DRAW_POINTS, dot * 0.7f);
        for (k = 0; k < lds_path_length(jp); k++) {
          lds_path_cell(jp, k, &x, &y);
          dd.vertex(dd.ud, (float)x + 0.5f, (float)y + 0.5f, so.jump);
        }
        dd.end(dd.ud);
        lds_path_free(jp);
      }
    }
    if (spec->path && lds_path_length(spec->path) > 0) {
      dd.begin(dd.ud, LDS_DRAW_POINTS, dot);
      lds_path_cell(spec->path, 0, &x, &y);
      dd.vertex(dd.ud, (float)x + 0.5f, (float)y + 0.5f, so.start);
      lds_path_cell(spec->path, lds_path_length(spec->path) - 1, &x, &y);
      dd.vertex(dd.ud, (float)x + 0.5f, (float)y + 0.5f, so.goal);
      dd.end(dd.ud);
    }
  }
  st = lds_png_write(c, path, err);
  lds_canvas_free(c);
  return st;
}
