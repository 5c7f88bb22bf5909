/* SPDX-License-Identifier: MIT */
/*
** lds_grid_internal.h — the grid's layout, shared with the searches (hidden).
**
** Cells are stored with a one-cell border of blocked cells ("padded"), so a
** search never tests bounds: padded index p = (y+1)*pw + (x+1), pw = width+2.
** nbr[p] has bit d set when the move from p in direction d (LDS_DIR_*) is
** legal under the neighbourhood and diagonal rule; it is 0 for blocked and
** border cells. Edits recompute the 3x3 block around the cell.
*/
#ifndef LDS_GRID_INTERNAL_H
#define LDS_GRID_INTERNAL_H

#include "lds_grid.h"
#include "lds_internal.h"

#define LDSI_LAYER_NAME_MAX 64

typedef struct ldsi_Layer {
  char name[LDSI_LAYER_NAME_MAX];
  float *data; /* width*height, unpadded */
  uint64_t id; /* unique in its grid (never reused): what holds layer weights
               ** finds its layers again by it after a removal shifted the indices */
} ldsi_Layer;

typedef struct ldsi_Listener {
  lds_GridListener fn;
  void *ud;
} ldsi_Listener;

struct lds_Grid {
  ldsi_Env env;
  int32_t w, h;
  int32_t pw, ph;   /* padded sizes */
  size_t pcells;    /* pw * ph */
  uint8_t *nbr;     /* legal-move mask per padded cell */
  uint8_t *blocked; /* 1 = blocked, per padded cell (border = 1) */
  float *cost;      /* per padded cell */
  char *terrain;    /* per cell, unpadded */
  int neighbourhood;
  lds_Diagonal diag;
  uint64_t version;
  /* layers removed so far: a removal shifts the indices after it, so what
  ** holds layer weights by index (a hierarchy) notices it by this count */
  uint64_t layer_removals;
  uint64_t layer_ids;  /* ids given to layers so far (ldsi_Layer.id) */
  /* smallest cell cost; 0 = unknown, recomputed by lds_grid_min_cost. Atomic:
  ** concurrent readers may fill it at once (with the same value) */
  _Atomic float min_cost;
  size_t passable;
  size_t nonunit;   /* cells whose cost is not 1 (0: uniform-cost fast path) */
  int nlayers, layer_cap;
  ldsi_Layer *layers;
  int nlisteners, listener_cap;
  ldsi_Listener *listeners;
  ldsi_Spin listen_lock; /* guards the three above against concurrent (un)listens */
  /* the registry of cost views (lds_cost_view.c), NULL until the first view;
  ** views_free (set with it) frees it in lds_grid_free; views_lock guards it */
  void *views;
  void (*views_free)(lds_Grid *g);
  ldsi_Spin views_lock;
  /* connectivity indexes attached to the grid (lds_components.c), chained
  ** through their own next link; lds_grid_free frees each through
  ** components_release (set by lds_components.c), so the grid never names it */
  struct lds_Components *components;
  void (*components_release)(struct lds_Components *c);
  char errmsg[LDS_ERRMSG_SIZE];
};

/* direction tables, LDS_DIR_* order */
extern LDSI_HIDDEN const int8_t ldsi_dir_dx[8];
extern LDSI_HIDDEN const int8_t ldsi_dir_dy[8];

static inline size_t ldsi_grid_pidx(const lds_Grid *g, int32_t x, int32_t y) {
  return (size_t)(y + 1) * (size_t)g->pw + (size_t)(x + 1);
}
static inline void ldsi_grid_pxy(const lds_Grid *g, size_t p, int32_t *x, int32_t *y) {
  *y = (int32_t)(p / (size_t)g->pw) - 1;
  *x = (int32_t)(p % (size_t)g->pw) - 1;
}
/* Offsets of the 8 directions in padded index space. */
LDSI_HIDDEN void ldsi_grid_offsets(const lds_Grid *g, ptrdiff_t off[8]);
/* lds_grid_listen, but the listener is called before every listener already
** there (and every later lds_grid_listen one): for data other listeners
** read, the cost views (lds_cost_view.c). Same errors as lds_grid_listen. */
LDSI_HIDDEN lds_Status ldsi_grid_listen_first(lds_Grid *g, lds_GridListener fn, void *ud);

#endif
