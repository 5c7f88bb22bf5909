/* SPDX-License-Identifier: MIT */
/*
** lds_directions.c — the direction table (lds_directions.h).
*/
#include "lds_directions.h"

#define ORTHO(dx, dy, name) {dx, dy, false, LDS_MOVE_ORTHOGONAL, 1.0, name}
#define DIAG(dx, dy, name) {dx, dy, true, LDS_MOVE_DIAGONAL, 1.4142135623730951, name}

const lds_Direction lds_directions[LDS_DIR_COUNT] = {
    ORTHO(0, -1, "N"),  ORTHO(1, 0, "E"),  ORTHO(0, 1, "S"),   ORTHO(-1, 0, "W"),
    DIAG(1, -1, "NE"),  DIAG(1, 1, "SE"),  DIAG(-1, 1, "SW"),  DIAG(-1, -1, "NW")};

const int8_t lds_dir_dx[LDS_DIR_COUNT] = LDS_DIR_DX_INIT;
const int8_t lds_dir_dy[LDS_DIR_COUNT] = LDS_DIR_DY_INIT;

int lds_direction_of(int32_t dx, int32_t dy) {
  int d;
  for (d = 0; d < LDS_DIR_COUNT; d++)
    if (lds_dir_dx[d] == dx && lds_dir_dy[d] == dy) return d;
  return -1;
}

const char *lds_direction_name(int dir) {
  return dir >= 0 && dir < LDS_DIR_COUNT ? lds_directions[dir].name : NULL;
}
