/* SPDX-License-Identifier: MIT */
/*
** lds_jps_plus.c — the JPS+ jump-distance tables: built once per search and
** grid rule, kept up to date by local recomputation after grid edits (the
** grid listener in lds_jps.c calls ldsi_jps_plus_update).
**
** For every padded cell and direction, an int8 (ldsi_jdist; see
** plus_entry): k > 0 = the next jump point in that direction is k steps
** away; k <= 0 = -k legal steps are possible before a wall. A straight entry
** is a jump point under the no_corner_cutting rule (lds_jps.c's file
** comment); a diagonal entry stops where a straight entry of one of its
** two components is positive. A query then never scans: a jump is one table
** read, plus Rabin's goal test (the goal ahead within reach on a line, or the
** diagonal cell level with the goal in the goal's quadrant).
** [Paper: Rabin & Silva, "JPS+: An Extreme A* Speed Optimization for Static
**  Uniform Cost Grids", Game AI Pro 2, 2015]
*/
#include "lds_jps_internal.h"

#include <string.h>

/* the two sides of a straight direction */
static const uint8_t SIDE1[4] = {LDS_DIR_E, LDS_DIR_N, LDS_DIR_E, LDS_DIR_N};
static const uint8_t SIDE2[4] = {LDS_DIR_W, LDS_DIR_S, LDS_DIR_W, LDS_DIR_S};

/* Is the cell entered from u moving straight in d a jump point (no corner
** cutting): a side of it open while the same side of u is blocked? */
static bool enters_jump_point(const lds_Grid *g, const ptrdiff_t *off, size_t u, int d) {
  size_t v = (size_t)((ptrdiff_t)u + off[d]);
  int s1 = SIDE1[d], s2 = SIDE2[d];
  return (!g->blocked[(ptrdiff_t)v + off[s1]] && g->blocked[(ptrdiff_t)u + off[s1]]) ||
         (!g->blocked[(ptrdiff_t)v + off[s2]] && g->blocked[(ptrdiff_t)u + off[s2]]);
}

/* One entry of the table from its successor cell's entries (see plus_line).
** Entries are int8 (8 bytes per cell, so a cell's entries share one cache
** line): k > 0, a jump point k moves ahead; -k <= 0, k
** legal moves and then a wall, no jump point. A distance of DIST_CONT or more
** is stored as +-DIST_CONT, a continuation: the sign still says jump point or
** wall, and the reader resumes DIST_CONT - 1 moves on (jump_plus,
** jump_plus_diag), where every move is legal and no jump point was passed. */
JI ldsi_jdist plus_entry(const lds_Grid *g, const ldsi_jdist *D, const ptrdiff_t *off, size_t u, int d) {
  size_t v = (size_t)((ptrdiff_t)u + off[d]);
  int32_t t;
  if (g->blocked[u] || !((g->nbr[u] >> d) & 1u)) return 0;
  if (d < 4 ? enters_jump_point(g, off, u, d)
            : (D[v * 8 + HCOMP[d]] > 0 || D[v * 8 + VCOMP[d]] > 0))
    return 1;
  t = D[v * 8 + (size_t)d];
  t = t > 0 ? t + 1 : t - 1;
  return (ldsi_jdist)(t > DIST_CONT ? DIST_CONT : t < -DIST_CONT ? -DIST_CONT : t);
}

/* Recomputes direction d's distances along a line of n cells that starts at
** the padded cell `first` (the far end, in direction d) and walks by `step`
** (= -off[d]). Straight directions read the grid; diagonals read the
** straight entries of their components, which must be up to date. Marks the
** diagonal lines through cells whose straight entry changed sign. */
static void plus_line(ldsi_Jps *j, const lds_Grid *g, const ptrdiff_t *off, size_t first,
                      int32_t n, int d, bool mark) {
  ldsi_jdist *D = j->dist;
  size_t u = first;
  int32_t i;
  for (i = 0; i < n; i++, u = (size_t)((ptrdiff_t)u - off[d])) {
    int32_t ov = D[u * 8 + (size_t)d], nv = plus_entry(g, D, off, u, d);
    D[u * 8 + (size_t)d] = nv;
    if (mark && (ov > 0) != (nv > 0)) {
      int32_t x, y;
      ldsi_grid_pxy(g, u, &x, &y);
      j->mark_a[x + y] = 1;
      j->mark_d[x - y + g->h - 1] = 1;
    }
  }
}

static void plus_row(ldsi_Jps *j, const lds_Grid *g, const ptrdiff_t *off, int32_t y, bool mark) {
  plus_line(j, g, off, ldsi_grid_pidx(g, g->w - 1, y), g->w, LDS_DIR_E, mark);
  plus_line(j, g, off, ldsi_grid_pidx(g, 0, y), g->w, LDS_DIR_W, mark);
}

static void plus_col(ldsi_Jps *j, const lds_Grid *g, const ptrdiff_t *off, int32_t x, bool mark) {
  plus_line(j, g, off, ldsi_grid_pidx(g, x, g->h - 1), g->h, LDS_DIR_S, mark);
  plus_line(j, g, off, ldsi_grid_pidx(g, x, 0), g->h, LDS_DIR_N, mark);
}

/* anti-diagonal x+y = k: NE walks x up, SW walks x down */
static void plus_anti(ldsi_Jps *j, const lds_Grid *g, const ptrdiff_t *off, int32_t k) {
  int32_t xlo = k - (g->h - 1) > 0 ? k - (g->h - 1) : 0, xhi = k < g->w - 1 ? k : g->w - 1;
  int32_t n = xhi - xlo + 1;
  plus_line(j, g, off, ldsi_grid_pidx(g, xhi, k - xhi), n, LDS_DIR_NE, false);
  plus_line(j, g, off, ldsi_grid_pidx(g, xlo, k - xlo), n, LDS_DIR_SW, false);
}

/* diagonal x-y = k: SE walks x up, NW walks x down */
static void plus_diag(ldsi_Jps *j, const lds_Grid *g, const ptrdiff_t *off, int32_t k) {
  int32_t xlo = k > 0 ? k : 0, xhi = k + g->h - 1 < g->w - 1 ? k + g->h - 1 : g->w - 1;
  int32_t n = xhi - xlo + 1;
  plus_line(j, g, off, ldsi_grid_pidx(g, xhi, xhi - k), n, LDS_DIR_SE, false);
  plus_line(j, g, off, ldsi_grid_pidx(g, xlo, xlo - k), n, LDS_DIR_NW, false);
}

bool ldsi_jps_plus_applies(const lds_Grid *g) {
  return g->neighbourhood == 8 && g->diag == LDS_DIAG_NO_CORNER_CUTTING;
}

/* Full build in row order (the table is 8 bytes per cell, so walking
** columns or diagonals would miss the cache at every cell): E and W per row,
** then one top-down sweep for N, NE, NW (their successor is in the row
** above) and one bottom-up sweep for S, SE, SW. */
void ldsi_jps_plus_build(ldsi_Jps *j, const lds_Grid *g) {
  ptrdiff_t off[8];
  int32_t x, y;
  ldsi_jdist *D = j->dist;
  uint64_t t0 = j->s->env.clock(j->s->env.clock_ud);
  ldsi_grid_offsets(g, off);
  memset(D, 0, g->pcells * 8 * sizeof(ldsi_jdist));
  for (y = 0; y < g->h; y++) plus_row(j, g, off, y, false);
  for (y = 0; y < g->h; y++) {
    size_t u0 = ldsi_grid_pidx(g, 0, y);
    for (x = 0; x < g->w; x++) D[(u0 + (size_t)x) * 8 + LDS_DIR_N] = plus_entry(g, D, off, u0 + (size_t)x, LDS_DIR_N);
  }
  for (y = g->h - 1; y >= 0; y--) {
    size_t u0 = ldsi_grid_pidx(g, 0, y);
    for (x = 0; x < g->w; x++) D[(u0 + (size_t)x) * 8 + LDS_DIR_S] = plus_entry(g, D, off, u0 + (size_t)x, LDS_DIR_S);
  }
  for (y = 0; y < g->h; y++) {
    size_t u0 = ldsi_grid_pidx(g, 0, y);
    for (x = 0; x < g->w; x++) {
      size_t u = u0 + (size_t)x;
      D[u * 8 + LDS_DIR_NE] = plus_entry(g, D, off, u, LDS_DIR_NE);
      D[u * 8 + LDS_DIR_NW] = plus_entry(g, D, off, u, LDS_DIR_NW);
    }
  }
  for (y = g->h - 1; y >= 0; y--) {
    size_t u0 = ldsi_grid_pidx(g, 0, y);
    for (x = 0; x < g->w; x++) {
      size_t u = u0 + (size_t)x;
      D[u * 8 + LDS_DIR_SE] = plus_entry(g, D, off, u, LDS_DIR_SE);
      D[u * 8 + LDS_DIR_SW] = plus_entry(g, D, off, u, LDS_DIR_SW);
    }
  }
  j->plus_valid = true;
  j->plus_us = j->s->env.clock(j->s->env.clock_ud) - t0;
}

/* Local recomputation after the cells (x0,y0)-(x1,y1) changed passability:
** the rows and columns through the rectangle and one cell around it (their
** jump points depend on the neighbouring lines), then every diagonal line
** through the rectangle's margin (move legality) or through a cell whose
** straight entry changed sign. */
void ldsi_jps_plus_update(ldsi_Jps *j, const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1,
                          int32_t y1) {
  ptrdiff_t off[8];
  int32_t x, y, k, nl = g->w + g->h - 1;
  uint64_t t0 = j->s->env.clock(j->s->env.clock_ud);
  ldsi_grid_offsets(g, off);
  x0 = x0 > 0 ? x0 - 1 : 0;
  y0 = y0 > 0 ? y0 - 1 : 0;
  x1 = x1 < g->w - 1 ? x1 + 1 : g->w - 1;
  y1 = y1 < g->h - 1 ? y1 + 1 : g->h - 1;
  for (y = y0; y <= y1; y++) plus_row(j, g, off, y, true);
  for (x = x0; x <= x1; x++) plus_col(j, g, off, x, true);
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) {
      j->mark_a[x + y] = 1;
      j->mark_d[x - y + g->h - 1] = 1;
    }
  for (k = 0; k < nl; k++)
    if (j->mark_a[k]) {
      j->mark_a[k] = 0;
      plus_anti(j, g, off, k);
    }
  for (k = 0; k < nl; k++)
    if (j->mark_d[k]) {
      j->mark_d[k] = 0;
      plus_diag(j, g, off, k - (g->h - 1));
    }
  j->plus_updates++;
  j->plus_update_us += j->s->env.clock(j->s->env.clock_ud) - t0;
}
