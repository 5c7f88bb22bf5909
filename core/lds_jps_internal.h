/* SPDX-License-Identifier: MIT */
/*
** lds_jps_internal.h — the state shared by the files of Jump Point Search:
** lds_jps.c (bit grids, jump events, the loop, paths), lds_jps_jump.h (the
** jumps, inlined into the loop) and lds_jps_plus.c (the JPS+ tables).
** Hidden; not installed.
*/
#ifndef LDS_JPS_INTERNAL_H
#define LDS_JPS_INTERNAL_H

#include "lds_open_list.h"
#include "lds_search_internal.h"


#if defined(__GNUC__) || defined(__clang__)
#define JI static inline __attribute__((always_inline))
#else
#define JI static inline
#endif

#define NONE LDSI_NONE

/* per-direction tables, LDS_DIR_* order: N E S W NE SE SW NW */
static const int8_t DX[8] = LDS_DIR_DX_INIT; /* the table of core/lds_directions.h, */
static const int8_t DY[8] = LDS_DIR_DY_INIT; /* as constants the jumps fold */
static const uint8_t HCOMP[8] = {0, 0, 0, 0, LDS_DIR_E, LDS_DIR_E, LDS_DIR_W, LDS_DIR_W};
static const uint8_t VCOMP[8] = {0, 0, 0, 0, LDS_DIR_N, LDS_DIR_S, LDS_DIR_S, LDS_DIR_N};

/* a JPS+ jump distance (see plus_entry): one byte, so the 8 entries of a
** cell take 8 bytes */
typedef int8_t ldsi_jdist;
#define DIST_CONT 127 /* a continuation: see plus_entry */

/* A successor found by the jumps of one expansion: node, padded position,
** direction of arrival, moves from the expanded node (ns | nd << 32). */
typedef struct Succ {
  uint32_t v;
  int32_t x, y;
  uint32_t d;
  uint64_t nsd;
} Succ;

typedef struct ldsi_Jps {
  lds_Search *s;
  int32_t w, h, pw, ph;
  size_t rw, cw;          /* words per row line / per column line */
  uint64_t *rows, *cols;  /* ph*rw and pw*cw words */
  /* Jump events (see ev_line), one allocation evbuf: ph row lines of nwr
  ** groups (evr), then pw column lines of nwc groups (evc) */
  uint64_t *evbuf, *evr, *evc;
  size_t nwr, nwc;
  bool ev_valid, ev_ncc;  /* the events are built, for no_corner_cutting? */
  bool goal_marked;       /* the current JPS query's goal is an event (goal_mark) */
  int32_t mgx, mgy;       /* that goal, padded */
  uint64_t seen_version;  /* grid version the bits reflect */
  bool listening;
  uint64_t bits_us;
  Succ *succ;             /* successors of one expansion, succ_cap entries */
  size_t succ_cap;
  /* JPS+ */
  ldsi_jdist *dist;          /* pcells*8, 0 for blocked and border cells */
  uint8_t *mark_a, *mark_d; /* marked diagonal lines: x+y, x-y+h-1 */
  bool plus_valid;
  uint64_t plus_us, plus_updates, plus_update_us;
} ldsi_Jps;

/* Jump events. Each row and each column of the padded grid is kept as
** groups of EVG words, one group per 64 cells (bit P of group P >> 6 is
** padded position P): [EV_INC] the cells where a straight jump moving to
** increasing positions (E, S) must stop, [EV_DEC] the same moving to
** decreasing positions (W, N), [EV_OPEN] passability. A jump stops at a
** blocked cell or at a jump point under the rule (file comment): with
** no_corner_cutting, moving to increasing positions, a side cell open at P
** and blocked at P-1; with "always", a side cell blocked at P and open at
** P+1 (mirrored for decreasing positions). The events depend on the grid
** alone, so a jump reads one word per 64 cells and finds its stop with one
** count of trailing/leading zeros, and the passability of the stop is in
** the same group (the same cache line) [Paper: Harabor & Grastien, ICAPS
** 2014, block-based jumps; the paper's per-line neighbour tests are
** precomputed here]. */
#define EVG 4
#define EV_INC 0
#define EV_DEC 1
#define EV_OPEN 2

/* ------------------------------------------------- JPS+ (lds_jps_plus.c) -- */

/* JPS+ applies to grid g: 8-connected, "no_corner_cutting". */
LDSI_HIDDEN bool ldsi_jps_plus_applies(const lds_Grid *g);

/* Builds j->dist for grid g (every entry); sets plus_valid and plus_us. */
LDSI_HIDDEN void ldsi_jps_plus_build(ldsi_Jps *j, const lds_Grid *g);

/* Recomputes the entries that the passability change of cells (x0,y0)-(x1,y1)
** can affect (lds_jps_plus.c). */
LDSI_HIDDEN void ldsi_jps_plus_update(ldsi_Jps *j, const lds_Grid *g, int32_t x0, int32_t y0,
                                      int32_t x1, int32_t y1);

#endif
