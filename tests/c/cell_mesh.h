/* SPDX-License-Identifier: MIT */
/*
** cell_mesh.h — random cell meshes for the navmesh tests
** (tests/c/test_cell_mesh.c): the free cells of a small grid, each a
** square or two triangles, with an area per cell, and the generator that
** draws them, so every test that needs one builds the same kind of mesh
** from its own seed.
*/
#ifndef LDS_TEST_CELL_MESH_H
#define LDS_TEST_CELL_MESH_H

#include "lds.h"

#include <stdint.h>

/// The tests' generator: a 64-bit LCG (Knuth's MMIX constants), the high
/// 31 bits of its state per draw. Seed by setting s.
typedef struct TcmRng {
  uint64_t s;
} TcmRng;

/// Next draw, 0..2^31-1.
uint32_t tcm_rnd(TcmRng *r);
/// Next draw as a double in [0, 1), 24 bits.
double tcm_unit(TcmRng *r);

/// A cell's area from its draw (ud: the caller's).
typedef uint8_t (*TcmArea)(uint32_t draw, void *ud);

/// Builds the mesh of a w x h grid of unit cells in x-z (y = 0), w, h in
/// 1..64. Draws, in order: one per cell, blocked when draw % 100 <
/// blocked_pct; then diagonal pinches (two blocked cells touching at a
/// corner only) are opened until none is left; then per cell, row by row,
/// its area (area(draw, ud); 0 when area is NULL) and, for a free cell,
/// its shape (odd: one square a, c, e, b with c a row up; even: triangles
/// a, c, e and a, e, b). cells [opt] [Shape: w * h ints, row by row]
/// receives -1 for a blocked cell, else its area. Returns the mesh (the
/// caller's: lds_navmesh_free), NULL when no cell is free or on error.
lds_Navmesh *tcm_make(TcmRng *g, int w, int h, int blocked_pct, TcmArea area, void *ud,
                      int *cells);

#endif
