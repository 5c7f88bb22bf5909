/* SPDX-License-Identifier: MIT */
/*
** lds_png.h — pictures of searches as PNG files (libpng), in
** build/liblodestar_io.a: link `-llodestar_io -llodestar -lpng -lz -lm`.
**
**   lds_PictureSpec p;
**   lds_picture_spec_init(&p);
**   p.grid = g; p.search = s; p.path = path; p.post = pruned;
**   lds_picture_write("out.png", &p, &err);
**
** The picture: the map (blocked cells dark, passable ones by terrain cost
** or a layer), the search's closed set shaded by g, its open list, the jump
** points when JPS ran, the path (red) and the post-processed path (orange),
** start (yellow) and goal (red) dots; docs/debugging.md shows one.
*/
#ifndef LDS_PNG_H
#define LDS_PNG_H

#include "lds_canvas.h"
#include "lds_common.h"
#include "lds_debug_draw.h"

LDS_BEGIN_DECLS

/// What lds_picture_write draws. Each object may be NULL but the grid (or
/// the search, whose grid is then used).
typedef struct lds_PictureSpec {
  const lds_Grid *grid;      ///< the map
  const lds_Search *search;  ///< a grid search: its last query (closed, open, jump points)
  const lds_Path *path;      ///< the path found
  const lds_Path *post;      ///< the post-processed path (prune_los, smoothing as cells)
  int scale;                 ///< pixels per cell, 1..64; 0 = automatic (about 1024 px a side)
  int layer;                 ///< -1: shade cells by terrain cost; else by this layer
} lds_PictureSpec;
/// Fills *p: everything NULL, scale automatic, layer -1.
LDS_API void lds_picture_spec_init(lds_PictureSpec *p);

/// Writes canvas c as an 8-bit RGBA PNG to path.
/// @returns LDS_OK; LDS_E_ARG (NULL c or path), LDS_E_IO ("lds_png_write:
///   cannot write PATH (why)"), LDS_E_NOMEM; LDS_E_STATE when lodestar was
///   built without libpng (LDS_NO_PNG: the Windows cross build).
LDS_API lds_Status lds_png_write(const lds_Canvas *c, const char *path, lds_Error *err);

/// Draws spec onto a new canvas (lds_debug_draw_grid, _search, _path) and
/// writes it as a PNG to path.
/// @returns LDS_OK or the error of a step, with a message naming it:
///   LDS_E_ARG (no grid, a graph search, a path of another grid's width, a
///   layer the grid lacks, a bad scale), and lds_png_write's.
LDS_API lds_Status lds_picture_write(const char *path, const lds_PictureSpec *spec, lds_Error *err);

LDS_END_DECLS

#endif /* LDS_PNG_H */
