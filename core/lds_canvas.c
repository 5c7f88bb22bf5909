/* SPDX-License-Identifier: MIT */
/*
** lds_canvas.c — the RGBA raster behind lds_canvas.h: cells as filled
** squares, segments and discs by coverage of each pixel's centre.
*/
#include "lds_canvas.h"

#include "lds_internal.h"

#include <math.h>
#include <string.h>

struct lds_Canvas {
  ldsi_Env env;
  int32_t w, h; /* pixels */
  int scale;    /* pixels per cell */
  uint8_t *px;
  lds_DebugPrim prim;
  float size;
  int nvert; /* vertices of the current LINES batch (pairs) */
  float lx, ly;
};

lds_Canvas *lds_canvas_new(const lds_Env *env, int32_t cells_w, int32_t cells_h, int scale,
                           lds_Error *err) {
  ldsi_Env e;
  lds_Canvas *c;
  size_t bytes;
  ldsi_env_resolve(&e, env);
  if (cells_w <= 0 || cells_h <= 0 || scale < 1 || scale > 64 ||
      (int64_t)cells_w * scale > LDS_CANVAS_MAX_SIDE || (int64_t)cells_h * scale > LDS_CANVAS_MAX_SIDE) {
    ldsi_error(err, LDS_E_ARG,
               "lds_canvas_new: %ldx%ld cells at scale %d: expected sides >= 1, scale 1..64 and "
               "at most %d pixels a side",
               (long)cells_w, (long)cells_h, scale, LDS_CANVAS_MAX_SIDE);
    return NULL;
  }
  c = (lds_Canvas *)ldsi_alloc(&e, sizeof *c);
  if (!c) {
    ldsi_error(err, LDS_E_NOMEM, "lds_canvas_new: out of memory");
    return NULL;
  }
  memset(c, 0, sizeof *c);
  c->env = e;
  c->w = cells_w * scale;
  c->h = cells_h * scale;
  c->scale = scale;
  bytes = (size_t)c->w * (size_t)c->h * 4u;
  c->px = (uint8_t *)ldsi_alloc(&e, bytes);
  if (!c->px) {
    ldsi_free(&e, c, sizeof *c);
    ldsi_error(err, LDS_E_NOMEM, "lds_canvas_new: out of memory (%zu bytes)", bytes);
    return NULL;
  }
  memset(c->px, 0xFF, bytes);
  ldsi_error_clear(err);
  return c;
}

void lds_canvas_free(lds_Canvas *c) {
  if (!c) return;
  ldsi_free(&c->env, c->px, (size_t)c->w * (size_t)c->h * 4u);
  ldsi_free(&c->env, c, sizeof *c);
}

int32_t lds_canvas_width(const lds_Canvas *c) { return c ? c->w : 0; }
int32_t lds_canvas_height(const lds_Canvas *c) { return c ? c->h : 0; }
const uint8_t *lds_canvas_pixels(const lds_Canvas *c) { return c ? c->px : NULL; }

uint32_t lds_canvas_get(const lds_Canvas *c, int32_t px, int32_t py) {
  const uint8_t *p;
  if (!c || px < 0 || py < 0 || px >= c->w || py >= c->h) return 0;
  p = c->px + ((size_t)py * (size_t)c->w + (size_t)px) * 4u;
  return LDS_RGBA(p[0], p[1], p[2], p[3]);
}

/* source-over of rgba onto pixel (x, y) */
static void plot(lds_Canvas *c, int32_t x, int32_t y, uint32_t rgba) {
  uint8_t *p;
  unsigned a = rgba & 0xFF, k;
  if (x < 0 || y < 0 || x >= c->w || y >= c->h || a == 0) return;
  p = c->px + ((size_t)y * (size_t)c->w + (size_t)x) * 4u;
  for (k = 0; k < 3; k++) {
    unsigned s = (rgba >> (24 - 8 * k)) & 0xFF;
    p[k] = (uint8_t)((s * a + p[k] * (255u - a) + 127u) / 255u);
  }
  p[3] = (uint8_t)(a + (p[3] * (255u - a) + 127u) / 255u);
}

/* every pixel whose centre lies within r pixels of segment (x0,y0)-(x1,y1) */
static void segment(lds_Canvas *c, float x0, float y0, float x1, float y1, float r, uint32_t rgba) {
  float dx = x1 - x0, dy = y1 - y0, len2 = dx * dx + dy * dy;
  int32_t xa = (int32_t)floorf(fminf(x0, x1) - r), xb = (int32_t)ceilf(fmaxf(x0, x1) + r);
  int32_t ya = (int32_t)floorf(fminf(y0, y1) - r), yb = (int32_t)ceilf(fmaxf(y0, y1) + r);
  int32_t x, y;
  if (xa < 0) xa = 0;
  if (ya < 0) ya = 0;
  if (xb > c->w - 1) xb = c->w - 1;
  if (yb > c->h - 1) yb = c->h - 1;
  for (y = ya; y <= yb; y++)
    for (x = xa; x <= xb; x++) {
      float px = (float)x + 0.5f, py = (float)y + 0.5f, t = 0.0f, ex, ey;
      if (len2 > 0.0f) {
        t = ((px - x0) * dx + (py - y0) * dy) / len2;
        t = t < 0.0f ? 0.0f : t > 1.0f ? 1.0f : t;
      }
      ex = x0 + t * dx - px;
      ey = y0 + t * dy - py;
      if (ex * ex + ey * ey <= r * r) plot(c, x, y, rgba);
    }
}

static void cv_begin(void *ud, lds_DebugPrim prim, float size) {
  lds_Canvas *c = (lds_Canvas *)ud;
  c->prim = prim;
  c->size = size > 0.0f && isfinite(size) ? size : 1.0f;
  c->nvert = 0;
}

static void cv_vertex(void *ud, float x, float y, uint32_t rgba) {
  lds_Canvas *c = (lds_Canvas *)ud;
  float s = (float)c->scale, r = 0.5f * c->size * s;
  if (!isfinite(x) || !isfinite(y)) return;
  if (r < 0.5f) r = 0.5f;
  if (c->prim == LDS_DRAW_CELLS) {
    int32_t px = (int32_t)floorf(x) * c->scale, py = (int32_t)floorf(y) * c->scale, i, j;
    for (j = 0; j < c->scale; j++)
      for (i = 0; i < c->scale; i++) plot(c, px + i, py + j, rgba);
  } else if (c->prim == LDS_DRAW_POINTS) {
    segment(c, x * s, y * s, x * s, y * s, r, rgba);
  } else if (c->nvert++ & 1) {
    segment(c, c->lx * s, c->ly * s, x * s, y * s, r, rgba);
  } else {
    c->lx = x;
    c->ly = y;
  }
}

static void cv_end(void *ud) { ((lds_Canvas *)ud)->nvert = 0; }

void lds_canvas_debug_draw(lds_Canvas *c, lds_DebugDraw *dd) {
  if (!dd) return;
  dd->ud = c;
  dd->begin = cv_begin;
  dd->vertex = cv_vertex;
  dd->end = cv_end;
  dd->text = NULL;
}
