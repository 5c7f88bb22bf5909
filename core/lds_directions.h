/* SPDX-License-Identifier: MIT */
/*
** lds_directions.h — the 8 grid moves: their order (LDS_DIR_*), dx and dy,
** names, which are diagonal and their length (the cost class). The one
** direction table of lodestar: the core, the command and the tests use it.
*/
#ifndef LDS_DIRECTIONS_H
#define LDS_DIRECTIONS_H

#include "lds_config.h"

LDS_BEGIN_DECLS

/// Directions, in the fixed order in which searches generate neighbours:
/// N, E, S, W, NE, SE, SW, NW (y grows downwards). The four orthogonal moves
/// come first, so `dir < 4` tells an orthogonal move.
enum { LDS_DIR_N, LDS_DIR_E, LDS_DIR_S, LDS_DIR_W, LDS_DIR_NE, LDS_DIR_SE, LDS_DIR_SW, LDS_DIR_NW };
#define LDS_DIR_COUNT 8

/// dx, dy of the moves in LDS_DIR_* order, as array initialisers: for a file
/// whose hot loop wants its own constant copy (`static const int8_t DX[8] =
/// LDS_DIR_DX_INIT;` lets the compiler fold DX[d] for a known d). Everyone
/// else reads lds_directions / lds_dir_dx / lds_dir_dy.
#define LDS_DIR_DX_INIT {0, 1, 0, -1, 1, 1, -1, -1}
#define LDS_DIR_DY_INIT {-1, 0, 1, 0, -1, 1, 1, -1}

/// Cost class of a move: the factor its length puts on the cost of the cell
/// entered (orthogonal 1, diagonal sqrt 2).
typedef enum lds_MoveClass {
  LDS_MOVE_ORTHOGONAL = 0, ///< length 1
  LDS_MOVE_DIAGONAL = 1    ///< length sqrt 2
} lds_MoveClass;

/// One move of the table.
typedef struct lds_Direction {
  int8_t dx, dy;            ///< [Units: cells] x grows east, y grows south
  bool diagonal;            ///< dx and dy both nonzero
  lds_MoveClass cost_class; ///< LDS_MOVE_DIAGONAL exactly when diagonal
  double length;            ///< 1 or sqrt 2 (1.4142135623730951) [Units: cells]
  const char *name;         ///< "N", "E", "S", "W", "NE", "SE", "SW", "NW"
} lds_Direction;

/// The 8 moves, indexed by LDS_DIR_*. [Owner: static storage]
LDS_API extern const lds_Direction lds_directions[LDS_DIR_COUNT];
/// dx and dy alone, indexed by LDS_DIR_* (the same values as lds_directions).
LDS_API extern const int8_t lds_dir_dx[LDS_DIR_COUNT];
LDS_API extern const int8_t lds_dir_dy[LDS_DIR_COUNT];

/// LDS_DIR_* of the unit move (dx, dy), each in -1..1 and not both 0;
/// -1 for any other pair (no move, or not to a neighbouring cell).
LDS_API int lds_direction_of(int32_t dx, int32_t dy);
/// Name of direction dir ("N" ... "NW"); NULL when dir is not 0..7.
/// [Owner: static storage]
LDS_API const char *lds_direction_name(int dir);

LDS_END_DECLS

#endif
