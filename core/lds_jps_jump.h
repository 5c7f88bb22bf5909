/* SPDX-License-Identifier: MIT */
/*
** lds_jps_jump.h — the jumps of Jump Point Search: straight jumps on the jump
** events (block-based), diagonal jumps with their intermediate jump points
** pruned, the JPS+ table jumps with Rabin's goal test, and the pruning rules
** (natural and forced neighbours) that choose a node's jump directions.
** Inlined into the expansion loop (lds_jps.c, its only includer), each
** direction a compile-time constant. Rules: see lds_jps.c.
*/
#ifndef LDS_JPS_JUMP_H
#define LDS_JPS_JUMP_H

#include "lds_jps_internal.h"

/* The first stop after position p in line G (groups), towards increasing
** positions if inc, else the last stop before p: one load and a count of
** trailing/leading zeros per 64 cells (the border stops every jump, so the
** scan ends inside the line). *open = the stop is open (a jump point, not
** a wall), read from the group where the stop was found. */
JI int32_t ev_stop(const uint64_t *G, int32_t p, const bool inc, bool *open) {
  size_t i;
  unsigned b;
  uint64_t w;
  if (inc) {
    size_t q = (size_t)p + 1;
    i = q >> 6;
    w = G[i * EVG + EV_INC] & (~(uint64_t)0 << (q & 63u));
    while (!w) w = G[++i * EVG + EV_INC];
    b = (unsigned)__builtin_ctzll(w);
  } else {
    size_t q = (size_t)p - 1;
    i = q >> 6;
    w = G[i * EVG + EV_DEC] & (~(uint64_t)0 >> (63u - (q & 63u)));
    while (!w) w = G[--i * EVG + EV_DEC];
    b = (unsigned)__builtin_clzll(w) ^ 63u; /* the highest set bit: one bsr */
  }
  *open = (G[i * EVG + EV_OPEN] >> b) & 1u;
  return (int32_t)(i * 64 + b);
}


typedef struct Ctx {
  const lds_Grid *g;
  const ldsi_Jps *j;
  const uint8_t *nbr, *blocked;
  const ldsi_jdist *dist;
  ptrdiff_t off[8];
  uint32_t pw, goal;
  int32_t gpx, gpy; /* goal, padded */
} Ctx;

/* Straight jump along line G from position p (padded), towards increasing
** positions if inc: the first stop (ev_stop), a jump point (or the goal,
** see goal_mark) if open. Returns the position reached, or -1 (a wall
** first). */
JI int32_t jump_line(const uint64_t *G, int32_t p, const bool inc) {
  bool jp;
  int32_t q = ev_stop(G, p, inc, &jp);
  return jp ? q : -1;
}

/* Straight jump from padded (px,py) in direction d (< 4). Returns the jump
** point, the goal, or NONE; *k = steps. */
JI uint32_t jump_straight(const Ctx *c, int32_t px, int32_t py, const int d, int32_t *k) {
  const ldsi_Jps *j = c->j;
  int32_t q;
  if (d == LDS_DIR_E || d == LDS_DIR_W) {
    q = jump_line(j->evr + (size_t)py * j->nwr * EVG, px, d == LDS_DIR_E);
    if (q < 0) return NONE;
    *k = q > px ? q - px : px - q;
    return (uint32_t)py * c->pw + (uint32_t)q;
  } else {
    q = jump_line(j->evc + (size_t)px * j->nwc * EVG, py, d == LDS_DIR_S);
    if (q < 0) return NONE;
    *k = q > py ? q - py : py - q;
    return (uint32_t)q * c->pw + (uint32_t)px;
  }
}

JI int add_succ(Succ *sc, int n, const ldsi_Node *nodes, uint32_t v, int32_t x, int32_t y, int d,
                uint64_t nsd) {
  LDSI_PREFETCH(&nodes[v]); /* relaxed after all jumps: overlap the misses */
  sc[n].v = v;
  sc[n].x = x;
  sc[n].y = y;
  sc[n].d = (uint32_t)d;
  sc[n].nsd = nsd;
  return n + 1;
}

#define DIAG1 ((uint64_t)1 << 32) /* one diagonal move in nsd */

/* Diagonal jump with intermediate jump points pruned [Paper: Harabor &
** Grastien, ICAPS 2014, "avoiding intermediate nodes"]: steps diagonally
** while the move is legal; at each cell c it runs the two straight jumps
** along the components and adds what they find (jump points or the goal)
** directly as successors of u, joined to u by a diagonal then a straight
** segment, and goes on, instead of stopping at c and adding c to the open
** list. c would have been expanded with the same two straight jumps and the
** diagonal, so the successors are the same, minus one open-list round trip
** per diagonal jump point. Stops at the goal, at a cell with a forced
** neighbour ("always" only; that cell is added itself) or at an illegal
** move. Returns the new number of successors. */
JI int jump_diag(const Ctx *c, const ldsi_Node *nodes, Succ *sc, int n, uint32_t u, int32_t px,
                 int32_t py, const int d, const bool ncc) {
  const ldsi_Jps *j = c->j;
  const int hd = HCOMP[d], vd = VCOMP[d];
  const int32_t dx = DX[d], dy = DY[d];
  const ptrdiff_t o = c->off[d];
  /* the row and the column through the current cell */
  const ptrdiff_t rstep = dy * (ptrdiff_t)(j->nwr * EVG), cstep = dx * (ptrdiff_t)(j->nwc * EVG);
  const uint64_t *re = j->evr + (size_t)py * j->nwr * EVG, *ce = j->evc + (size_t)px * j->nwc * EVG;
  uint64_t diag = 0;
  int32_t q;
  unsigned m = c->nbr[u]; /* legal moves from the current cell */
  for (;;) {
    if (!((m >> d) & 1u)) return n;
    u = (uint32_t)((ptrdiff_t)u + o);
    m = c->nbr[u];
    px += dx;
    py += dy;
    re += rstep;
    ce += cstep;
    diag += DIAG1;
    if (u == c->goal) return add_succ(sc, n, nodes, u, px, py, d, diag);
    if (!ncc) {
      const uint8_t *b = c->blocked;
      if ((b[u - (ptrdiff_t)dx] && !b[(ptrdiff_t)u - dx + c->off[vd]]) ||
          (b[(ptrdiff_t)u - c->off[vd]] && !b[(ptrdiff_t)u + dx - c->off[vd]]))
        return add_succ(sc, n, nodes, u, px, py, d, diag);
    }
    /* a straight jump whose first move is illegal finds nothing: skipped */
    q = (m >> hd) & 1u ? jump_line(re, px, dx > 0) : -1;
    if (q >= 0)
      n = add_succ(sc, n, nodes, (uint32_t)((ptrdiff_t)u + (q - px)), q, py, hd,
                   diag + (uint64_t)((q - px) * dx));
    q = (m >> vd) & 1u ? jump_line(ce, py, dy > 0) : -1;
    if (q >= 0)
      n = add_succ(sc, n, nodes, (uint32_t)((ptrdiff_t)u + (ptrdiff_t)(q - py) * (ptrdiff_t)c->pw),
                   px, q, vd, diag + (uint64_t)((q - py) * dy));
  }
}

/* JPS+ straight jump: one table read (more past a continuation, see
** plus_entry) and the goal test (the goal ahead within reach on the line). */
JI uint32_t jump_plus(const Ctx *c, uint32_t u, int32_t px, int32_t py, int d, int32_t *k) {
  int32_t kg = DX[d] ? (c->gpy == py ? (c->gpx - px) * DX[d] : 0)
                     : (c->gpx == px ? (c->gpy - py) * DY[d] : 0);
  int32_t base = 0; /* moves already made past continuations */
  {
    /* the common case, no continuation: the goal test is one unsigned
    ** comparison (kg in [1, reach]) */
    int32_t dist = c->dist[(size_t)u * 8 + (size_t)d], reach = dist > 0 ? dist : -dist;
    if (LDSI_LIKELY(reach != DIST_CONT)) {
      if ((uint32_t)(kg - 1) < (uint32_t)reach) {
        *k = kg;
        return c->goal;
      }
      if (dist <= 0) return NONE;
      *k = dist;
      return (uint32_t)((ptrdiff_t)u + (ptrdiff_t)dist * c->off[d]);
    }
  }
  for (;;) {
    int32_t dist = c->dist[(size_t)u * 8 + (size_t)d], reach = dist > 0 ? dist : -dist;
    if (reach == DIST_CONT) reach = DIST_CONT - 1; /* surely legal and free of jump points */
    if (kg > base && kg <= base + reach) {
      *k = kg;
      return c->goal;
    }
    if (dist == DIST_CONT || dist == -DIST_CONT) {
      base += DIST_CONT - 1;
      u = (uint32_t)((ptrdiff_t)u + (ptrdiff_t)(DIST_CONT - 1) * c->off[d]);
      continue;
    }
    if (dist <= 0) return NONE;
    *k = base + dist;
    return (uint32_t)((ptrdiff_t)u + (ptrdiff_t)dist * c->off[d]);
  }
}

/* JPS+ diagonal jump, intermediate jump points pruned as in jump_diag: one
** table read per intermediate point (the next cell where a straight
** component has a jump point) plus the two straight jumps there, and Rabin's
** goal test: the diagonal cell level with the goal, in the goal's quadrant
** and within reach, is added as a successor and ends the jump. */
JI int jump_plus_diag(const Ctx *c, const ldsi_Node *nodes, Succ *sc, int n, uint32_t u,
                      int32_t px, int32_t py, int d) {
  const int hd = HCOMP[d], vd = VCOMP[d];
  const int32_t dx = DX[d], dy = DY[d];
  const ptrdiff_t o = c->off[d];
  uint64_t diag = 0;
  int32_t k;
  uint32_t v;
  for (;;) {
    int32_t dist = c->dist[(size_t)u * 8 + (size_t)d], reach = dist > 0 ? dist : -dist;
    int32_t gdx = (c->gpx - px) * dx, gdy = (c->gpy - py) * dy;
    /* the next stops are usually a few cells on: the table lines of the
    ** next two diagonal cells are fetched while this one is handled (integer
    ** address arithmetic: two cells on may lie outside the table, which a
    ** prefetch may touch but a pointer may not point to) */
    LDSI_PREFETCH((const void *)((uintptr_t)c->dist + ((uintptr_t)u + (uintptr_t)o) * 8u));
    LDSI_PREFETCH(
        (const void *)((uintptr_t)c->dist + ((uintptr_t)u + 2u * (uintptr_t)o) * 8u));
    bool cont = reach == DIST_CONT; /* a continuation (plus_entry) */
    if (cont) reach = DIST_CONT - 1;
    if (gdx > 0 && gdy > 0) {
      int32_t m = gdx < gdy ? gdx : gdy;
      if (m <= reach) {
        v = (uint32_t)((ptrdiff_t)u + (ptrdiff_t)m * o);
        LDSI_PREFETCH(&c->dist[(size_t)v * 8]);
        return add_succ(sc, n, nodes, v, px + m * dx, py + m * dy, d, diag + (uint64_t)m * DIAG1);
      }
    }
    if (cont) { /* no intermediate point within reach: resume there */
      u = (uint32_t)((ptrdiff_t)u + (ptrdiff_t)reach * o);
      px += reach * dx;
      py += reach * dy;
      diag += (uint64_t)reach * DIAG1;
      continue;
    }
    if (dist <= 0) return n;
    u = (uint32_t)((ptrdiff_t)u + (ptrdiff_t)dist * o);
    px += dist * dx;
    py += dist * dy;
    diag += (uint64_t)dist * DIAG1;
    v = jump_plus(c, u, px, py, hd, &k);
    if (v != NONE) {
      LDSI_PREFETCH(&c->dist[(size_t)v * 8]);
      n = add_succ(sc, n, nodes, v, px + dx * k, py, hd, diag + (uint64_t)k);
    }
    v = jump_plus(c, u, px, py, vd, &k);
    if (v != NONE) {
      LDSI_PREFETCH(&c->dist[(size_t)v * 8]);
      n = add_succ(sc, n, nodes, v, px, py + dy * k, vd, diag + (uint64_t)k);
    }
  }
}

/* no_corner_cutting, straight arrival a: the sides of a blocked one cell behind
** (bits clear in that cell's legal moves m & 15) force the side and the
** diagonal between a and the side: FORCED_NCC[a][m & 15] */
static const uint8_t FORCED_NCC[4][16] = {
  {0x9A, 0x9A, 0x88, 0x88, 0x9A, 0x9A, 0x88, 0x88, 0x12, 0x12, 0x00, 0x00, 0x12, 0x12, 0x00, 0x00},
  {0x35, 0x24, 0x35, 0x24, 0x11, 0x00, 0x11, 0x00, 0x35, 0x24, 0x35, 0x24, 0x11, 0x00, 0x11, 0x00},
  {0x6A, 0x6A, 0x48, 0x48, 0x6A, 0x6A, 0x48, 0x48, 0x22, 0x22, 0x00, 0x00, 0x22, 0x22, 0x00, 0x00},
  {0xC5, 0x44, 0xC5, 0x44, 0x81, 0x00, 0x81, 0x00, 0xC5, 0x44, 0xC5, 0x44, 0x81, 0x00, 0x81, 0x00},
};
/* "always", straight arrival a: a side of a blocked here (bits clear in the
** cell's legal moves m & 15) forces the diagonal beyond it: FORCED_ALW_S[a][m & 15] */
static const uint8_t FORCED_ALW_S[4][16] = {
  {0x90, 0x90, 0x80, 0x80, 0x90, 0x90, 0x80, 0x80, 0x10, 0x10, 0x00, 0x00, 0x10, 0x10, 0x00, 0x00},
  {0x30, 0x20, 0x30, 0x20, 0x10, 0x00, 0x10, 0x00, 0x30, 0x20, 0x30, 0x20, 0x10, 0x00, 0x10, 0x00},
  {0x60, 0x60, 0x40, 0x40, 0x60, 0x60, 0x40, 0x40, 0x20, 0x20, 0x00, 0x00, 0x20, 0x20, 0x00, 0x00},
  {0xC0, 0x40, 0xC0, 0x40, 0x80, 0x00, 0x80, 0x00, 0xC0, 0x40, 0xC0, 0x40, 0x80, 0x00, 0x80, 0x00},
};
/* "always", diagonal arrival a: a component's opposite blocked here forces
** the diagonal on that side: FORCED_ALW_D[a - 4][m & 15] */
static const uint8_t FORCED_ALW_D[4][16] = {
  {0xA0, 0xA0, 0xA0, 0xA0, 0x80, 0x80, 0x80, 0x80, 0x20, 0x20, 0x20, 0x20, 0x00, 0x00, 0x00, 0x00},
  {0x50, 0x40, 0x50, 0x40, 0x50, 0x40, 0x50, 0x40, 0x10, 0x00, 0x10, 0x00, 0x10, 0x00, 0x10, 0x00},
  {0xA0, 0x20, 0x80, 0x00, 0xA0, 0x20, 0x80, 0x00, 0xA0, 0x20, 0x80, 0x00, 0xA0, 0x20, 0x80, 0x00},
  {0x50, 0x50, 0x40, 0x40, 0x10, 0x10, 0x00, 0x00, 0x50, 0x50, 0x40, 0x40, 0x10, 0x10, 0x00, 0x00},
};

/* Directions to search from node u, given the mask of directions it was
** reached by (0 = the start: every legal move). Pruning rules in the file
** comment; the blocked side cells are read from legal-move masks (a
** straight move is legal exactly when its target is open): of u, or under
** no_corner_cutting of the open cell behind u, which the arrival crossed. */
JI unsigned succ_dirs(const Ctx *c, uint32_t u, unsigned arrived, const bool ncc) {
  const unsigned m = c->nbr[u];
  unsigned out = 0;
  if (!arrived) return m;
  while (arrived) {
    int a = __builtin_ctz(arrived);
    arrived &= arrived - 1;
    if (a < 4)
      out |= (1u << a) | (ncc ? FORCED_NCC[a][c->nbr[(ptrdiff_t)u - c->off[a]] & 15u]
                              : FORCED_ALW_S[a][m & 15u]);
    else
      out |= (1u << a) | (1u << HCOMP[a]) | (1u << VCOMP[a]) |
             (ncc ? 0u : FORCED_ALW_D[a - 4][m & 15u]);
  }
  return out & m;
}

/* The successors of u in direction d (a constant where inlined): a
** straight jump adds at most one, a diagonal one (pruning its intermediate
** jump points) any number. Returns the new number of successors. */
JI int straight_succ(const Ctx *c, const ldsi_Node *nodes, Succ *sc, int n, uint32_t u,
                     int32_t px, int32_t py, const int d, const bool plus) {
  int32_t k = 0;
  uint32_t v = plus ? jump_plus(c, u, px, py, d, &k) : jump_straight(c, px, py, d, &k);
  if (v == NONE) return n;
  if (plus) LDSI_PREFETCH(&c->dist[(size_t)v * 8]); /* read when v is expanded */
  return add_succ(sc, n, nodes, v, px + DX[d] * k, py + DY[d] * k, d, (uint64_t)k);
}

JI int diag_succ(const Ctx *c, const ldsi_Node *nodes, Succ *sc, int n, uint32_t u, int32_t px,
                 int32_t py, const int d, const bool ncc, const bool plus) {
  return plus ? jump_plus_diag(c, nodes, sc, n, u, px, py, d)
              : jump_diag(c, nodes, sc, n, u, px, py, d, ncc);
}

/* Exact g and octile f, as in the A* loop (lds_astar.c): a node keeps its
** numbers of straight and diagonal moves (nsd = ns | nd << 32), g is
** ns + nd*sqrt(2) and f = (ns + dmax - dmin) + (nd + dmin)*sqrt(2), computed
** the same way every time, so equal costs give bit-identical g and f: ties
** are real ties, broken by the open list's documented order, and A* and JPS
** report bit-identical costs. */
JI double exact_g(uint64_t nsd) {
  return (double)(uint32_t)nsd + (double)(uint32_t)(nsd >> 32) * LDSI_SQRT2;
}

#endif
