/* SPDX-License-Identifier: MIT */
/*
** lds_canvas.h — an RGBA picture that lds_DebugDraw draws into: a grid,
** a search and paths become pixels, for a PNG file (lds_png_write in io/)
** or a texture a host uploads itself.
**
**   lds_Canvas *c = lds_canvas_new(NULL, lds_grid_width(g), lds_grid_height(g), 4, &err);
**   lds_DebugDraw dd;
**   lds_canvas_debug_draw(c, &dd);
**   lds_debug_draw_grid(&dd, g, NULL);
**   lds_debug_draw_search(&dd, s, NULL);
**   ... lds_canvas_pixels(c) ...
**   lds_canvas_free(c);
**
** Drawing: cells fill scale x scale pixels; lines are segments `size` cells
** wide, points discs of diameter `size` cells; colours with alpha < 255
** blend over what is there (source-over). Text labels are not drawn (a
** host with a font draws them through its own lds_DebugDraw.text).
*/
#ifndef LDS_CANVAS_H
#define LDS_CANVAS_H

#include "lds_common.h"
#include "lds_debug_draw.h"

LDS_BEGIN_DECLS

typedef struct lds_Canvas lds_Canvas;

/// Largest picture side in pixels (cells_w * scale and cells_h * scale).
#define LDS_CANVAS_MAX_SIDE 16384

/// A canvas for a map of cells_w x cells_h cells at `scale` pixels per cell
/// (1..64), cleared to opaque white.
/// @returns NULL with err: LDS_E_ARG (a side <= 0, scale out of range, a
///   picture side over LDS_CANVAS_MAX_SIDE pixels), LDS_E_NOMEM.
///   [Owner: caller frees with lds_canvas_free]
LDS_API lds_Canvas *lds_canvas_new(const lds_Env *env, int32_t cells_w, int32_t cells_h, int scale,
                                   lds_Error *err);
LDS_API void lds_canvas_free(lds_Canvas *c);
/// Picture size in pixels.
LDS_API int32_t lds_canvas_width(const lds_Canvas *c);
LDS_API int32_t lds_canvas_height(const lds_Canvas *c);
/// Pixels, row by row from the top, 4 bytes each (R, G, B, A).
/// [Owner: the canvas; valid until lds_canvas_free]
LDS_API const uint8_t *lds_canvas_pixels(const lds_Canvas *c);
/// The RGBA of pixel (px, py), 0 when outside.
LDS_API uint32_t lds_canvas_get(const lds_Canvas *c, int32_t px, int32_t py);
/// Fills *dd so that drawing through it paints this canvas (coordinates in
/// cells, as lds_debug_draw.h says). [Owner: dd points at c; valid while c lives]
LDS_API void lds_canvas_debug_draw(lds_Canvas *c, lds_DebugDraw *dd);

LDS_END_DECLS

#endif /* LDS_CANVAS_H */
