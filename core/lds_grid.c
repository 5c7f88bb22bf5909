/* SPDX-License-Identifier: MIT */
/*
** lds_grid.c — grid storage, editing, legal-move masks, layers, listeners.
*/
#include "lds_grid_internal.h"

#include <math.h>
#include <string.h>

/* the core's hidden copy of the table (no GOT load in the search loops) */
const int8_t ldsi_dir_dx[8] = LDS_DIR_DX_INIT;
const int8_t ldsi_dir_dy[8] = LDS_DIR_DY_INIT;

/* the two orthogonal directions a diagonal passes between */
static const int8_t diag_side_a[8] = {0, 0, 0, 0, LDS_DIR_N, LDS_DIR_S, LDS_DIR_S, LDS_DIR_N};
static const int8_t diag_side_b[8] = {0, 0, 0, 0, LDS_DIR_E, LDS_DIR_E, LDS_DIR_W, LDS_DIR_W};

static const char *const diag_names[] = {"never", "no_corner_cutting", "allow_one_blocked",
                                         "always"};

const char *lds_diagonal_name(lds_Diagonal d) {
  if ((int)d < 0 || (int)d > 3) return NULL;
  return diag_names[d];
}

lds_Status lds_diagonal_parse(const char *name, lds_Diagonal *out) {
  int i;
  if (!name) return LDS_E_ARG;
  for (i = 0; i < 4; i++)
    if (strcmp(name, diag_names[i]) == 0) {
      if (out) *out = (lds_Diagonal)i;
      return LDS_OK;
    }
  return LDS_E_ARG;
}

void ldsi_grid_offsets(const lds_Grid *g, ptrdiff_t off[8]) {
  int d;
  for (d = 0; d < 8; d++) off[d] = (ptrdiff_t)ldsi_dir_dy[d] * g->pw + ldsi_dir_dx[d];
}

/* Legal-move mask of padded cell p under the current rules. */
static uint8_t cell_mask(const lds_Grid *g, size_t p) {
  ptrdiff_t off[8];
  uint8_t m = 0;
  int d;
  if (g->blocked[p]) return 0;
  ldsi_grid_offsets(g, off);
  for (d = 0; d < 4; d++)
    if (!g->blocked[(size_t)((ptrdiff_t)p + off[d])]) m |= (uint8_t)(1u << d);
  if (g->neighbourhood == 8 && g->diag != LDS_DIAG_NEVER) {
    for (d = 4; d < 8; d++) {
      bool a, b;
      if (g->blocked[(size_t)((ptrdiff_t)p + off[d])]) continue;
      a = (m >> diag_side_a[d]) & 1u;
      b = (m >> diag_side_b[d]) & 1u;
      switch (g->diag) {
        case LDS_DIAG_NO_CORNER_CUTTING:
          if (a && b) m |= (uint8_t)(1u << d);
          break;
        case LDS_DIAG_ALLOW_ONE_BLOCKED:
          if (a || b) m |= (uint8_t)(1u << d);
          break;
        default: /* always */
          m |= (uint8_t)(1u << d);
          break;
      }
    }
  }
  return m;
}

static void recompute_all_masks(lds_Grid *g) {
  int32_t x, y;
  for (y = 0; y < g->h; y++)
    for (x = 0; x < g->w; x++) {
      size_t p = ldsi_grid_pidx(g, x, y);
      g->nbr[p] = cell_mask(g, p);
    }
}

static void recompute_masks_around(lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  int32_t x, y;
  if (x0 > 0) x0--;
  if (y0 > 0) y0--;
  if (x1 < g->w - 1) x1++;
  if (y1 < g->h - 1) y1++;
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) {
      size_t p = ldsi_grid_pidx(g, x, y);
      g->nbr[p] = cell_mask(g, p);
    }
}

static void notify(lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  int i;
  g->version++;
  for (i = 0; i < g->nlisteners; i++)
    g->listeners[i].fn(g->listeners[i].ud, g, x0, y0, x1, y1, g->version);
}

static size_t grid_bytes(int32_t w, int32_t h) {
  size_t pc = (size_t)(w + 2) * (size_t)(h + 2);
  return pc * (sizeof(uint8_t) * 2 + sizeof(float)) + (size_t)w * (size_t)h;
}

static void grid_release(lds_Grid *g) {
  int i;
  const ldsi_Env *e = &g->env;
  size_t cells = (size_t)g->w * (size_t)g->h;
  ldsi_free(e, g->nbr, g->pcells);
  ldsi_free(e, g->blocked, g->pcells);
  ldsi_free(e, g->cost, g->pcells * sizeof(float));
  ldsi_free(e, g->terrain, cells);
  for (i = 0; i < g->nlayers; i++) ldsi_free(e, g->layers[i].data, cells * sizeof(float));
  ldsi_free(e, g->layers, (size_t)g->layer_cap * sizeof(ldsi_Layer));
  ldsi_free(e, g->listeners, (size_t)g->listener_cap * sizeof(ldsi_Listener));
}

static lds_Grid *grid_alloc(const lds_Env *env, int32_t width, int32_t height, lds_Error *err,
                            const char *fn) {
  ldsi_Env e;
  lds_Grid *g;
  ldsi_env_resolve(&e, env);
  if (width < 1 || width > LDS_GRID_MAX_SIDE) {
    ldsi_error(err, LDS_E_ARG, "%s: width %ld out of range (expected 1..%d)", fn, (long)width,
               LDS_GRID_MAX_SIDE);
    return NULL;
  }
  if (height < 1 || height > LDS_GRID_MAX_SIDE) {
    ldsi_error(err, LDS_E_ARG, "%s: height %ld out of range (expected 1..%d)", fn, (long)height,
               LDS_GRID_MAX_SIDE);
    return NULL;
  }
  g = (lds_Grid *)ldsi_calloc(&e, 1, sizeof *g);
  if (!g) goto nomem;
  g->env = e;
  atomic_init(&g->min_cost, 0.0f);
  ldsi_spin_init(&g->listen_lock);
  ldsi_spin_init(&g->views_lock);
  g->w = width;
  g->h = height;
  g->pw = width + 2;
  g->ph = height + 2;
  g->pcells = (size_t)g->pw * (size_t)g->ph;
  g->nbr = (uint8_t *)ldsi_calloc(&e, g->pcells, 1);
  g->blocked = (uint8_t *)ldsi_alloc(&e, g->pcells);
  g->cost = (float *)ldsi_alloc(&e, g->pcells * sizeof(float));
  g->terrain = (char *)ldsi_alloc(&e, (size_t)width * (size_t)height);
  if (!g->nbr || !g->blocked || !g->cost || !g->terrain) {
    grid_release(g);
    ldsi_free(&e, g, sizeof *g);
    goto nomem;
  }
  ldsi_error_clear(err);
  return g;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "%s: out of memory for a %ldx%ld grid (%zu bytes)", fn,
             (long)width, (long)height, grid_bytes(width, height));
  return NULL;
}

lds_Grid *lds_grid_new(const lds_Env *env, int32_t width, int32_t height, lds_Error *err) {
  lds_Grid *g = grid_alloc(env, width, height, err, "lds_grid_new");
  size_t i;
  int32_t y;
  if (!g) return NULL;
  memset(g->blocked, 1, g->pcells);
  for (i = 0; i < g->pcells; i++) g->cost[i] = 1.0f;
  for (y = 0; y < height; y++) memset(g->blocked + ldsi_grid_pidx(g, 0, y), 0, (size_t)width);
  memset(g->terrain, '.', (size_t)width * (size_t)height);
  g->neighbourhood = 8;
  g->diag = LDS_DIAG_NO_CORNER_CUTTING;
  atomic_store_explicit(&g->min_cost, 1.0f, memory_order_relaxed);
  g->passable = (size_t)width * (size_t)height;
  recompute_all_masks(g);
  return g;
}

lds_Grid *lds_grid_clone(const lds_Grid *src, lds_Error *err) {
  lds_Env env;
  lds_Grid *g;
  size_t cells;
  int i;
  if (!src) {
    ldsi_error(err, LDS_E_ARG, "lds_grid_clone: grid is NULL");
    return NULL;
  }
  env = ldsi_env_public(&src->env);
  g = grid_alloc(&env, src->w, src->h, err, "lds_grid_clone");
  if (!g) return NULL;
  cells = (size_t)src->w * (size_t)src->h;
  memcpy(g->nbr, src->nbr, src->pcells);
  memcpy(g->blocked, src->blocked, src->pcells);
  memcpy(g->cost, src->cost, src->pcells * sizeof(float));
  memcpy(g->terrain, src->terrain, cells);
  g->neighbourhood = src->neighbourhood;
  g->diag = src->diag;
  atomic_store_explicit(&g->min_cost,
                        atomic_load_explicit(&src->min_cost, memory_order_relaxed),
                        memory_order_relaxed);
  g->nonunit = src->nonunit;
  g->passable = src->passable;
  for (i = 0; i < src->nlayers; i++) {
    int idx;
    if (lds_grid_layer_add(g, src->layers[i].name, &idx) != LDS_OK) {
      lds_grid_free(g);
      ldsi_error(err, LDS_E_NOMEM, "lds_grid_clone: out of memory copying layer '%s'",
                 src->layers[i].name);
      return NULL;
    }
    memcpy(g->layers[idx].data, src->layers[i].data, cells * sizeof(float));
  }
  return g;
}

void lds_grid_free(lds_Grid *g) {
  ldsi_Env e;
  if (!g) return;
  e = g->env;
  if (g->views_free) g->views_free(g); /* the cost views (they unlisten) */
  while (g->components) g->components_release(g->components); /* each unlinks itself */
  grid_release(g);
  ldsi_free(&e, g, sizeof *g);
}

size_t lds_grid_mem_used(const lds_Grid *g) {
  size_t listeners;
  /* the listener list may grow in another reader's JPS start: read under its lock */
  ldsi_spin_lock(&((lds_Grid *)(uintptr_t)g)->listen_lock);
  listeners = (size_t)g->listener_cap * sizeof(ldsi_Listener);
  ldsi_spin_unlock(&((lds_Grid *)(uintptr_t)g)->listen_lock);
  return sizeof *g + grid_bytes(g->w, g->h) +
         (size_t)g->nlayers * (size_t)g->w * (size_t)g->h * sizeof(float) +
         (size_t)g->layer_cap * sizeof(ldsi_Layer) + listeners;
}

/* ----------------------------------------------------------- editing -- */

static bool check_xy(lds_Grid *g, int32_t x, int32_t y, const char *fn) {
  if (x < 0 || y < 0 || x >= g->w || y >= g->h) {
    ldsi_msg(g->errmsg, "%s: cell (%ld,%ld) out of bounds (grid is %ldx%ld)", fn, (long)x,
             (long)y, (long)g->w, (long)g->h);
    return false;
  }
  return true;
}

lds_Status lds_grid_set_blocked(lds_Grid *g, int32_t x, int32_t y, bool blocked) {
  size_t p;
  if (!check_xy(g, x, y, "lds_grid_set_blocked")) return LDS_E_ARG;
  p = ldsi_grid_pidx(g, x, y);
  if ((g->blocked[p] != 0) == blocked) return LDS_OK; /* no change, no notification */
  g->blocked[p] = blocked ? 1 : 0;
  if (blocked)
    g->passable--;
  else
    g->passable++;
  recompute_masks_around(g, x, y, x, y);
  notify(g, x, y, x, y);
  return LDS_OK;
}

lds_Status lds_grid_set_cost(lds_Grid *g, int32_t x, int32_t y, float cost) {
  size_t p;
  float old;
  if (!check_xy(g, x, y, "lds_grid_set_cost")) return LDS_E_ARG;
  if (!(cost > 0.0f) || isinf(cost)) {
    ldsi_msg(g->errmsg, "lds_grid_set_cost: cost %g at (%ld,%ld) out of range (expected finite, > 0)",
             ldsi_num((double)cost), (long)x, (long)y);
    return LDS_E_ARG;
  }
  p = ldsi_grid_pidx(g, x, y);
  old = g->cost[p];
  if (old == cost) return LDS_OK;
  g->cost[p] = cost;
  if (old == 1.0f) g->nonunit++;
  if (cost == 1.0f) g->nonunit--;
  { /* an edit has the grid to itself (docs/threads.md): relaxed order */
    float mc = atomic_load_explicit(&g->min_cost, memory_order_relaxed);
    if (mc > 0.0f && cost < mc)
      atomic_store_explicit(&g->min_cost, cost, memory_order_relaxed);
    else if (mc > 0.0f && old == mc) /* the minimum may have risen; recompute lazily */
      atomic_store_explicit(&g->min_cost, 0.0f, memory_order_relaxed);
  }
  notify(g, x, y, x, y);
  return LDS_OK;
}

lds_Status lds_grid_set_terrain(lds_Grid *g, int32_t x, int32_t y, char terrain) {
  if (!check_xy(g, x, y, "lds_grid_set_terrain")) return LDS_E_ARG;
  g->terrain[(size_t)y * (size_t)g->w + (size_t)x] = terrain;
  notify(g, x, y, x, y);
  return LDS_OK;
}

lds_Status lds_grid_set_neighbourhood(lds_Grid *g, int n) {
  if (n != 4 && n != 8) {
    ldsi_msg(g->errmsg, "lds_grid_set_neighbourhood: %d is not a neighbourhood (expected 4 or 8)", n);
    return LDS_E_ARG;
  }
  if (g->neighbourhood == n) return LDS_OK;
  g->neighbourhood = n;
  recompute_all_masks(g);
  notify(g, 0, 0, g->w - 1, g->h - 1);
  return LDS_OK;
}

lds_Status lds_grid_set_diagonal(lds_Grid *g, lds_Diagonal rule) {
  if ((int)rule < 0 || (int)rule > 3) {
    ldsi_msg(g->errmsg, "lds_grid_set_diagonal: %d is not a diagonal rule (expected 0..3)", (int)rule);
    return LDS_E_ARG;
  }
  if (g->diag == rule) return LDS_OK;
  g->diag = rule;
  recompute_all_masks(g);
  notify(g, 0, 0, g->w - 1, g->h - 1);
  return LDS_OK;
}

lds_Status lds_grid_touch(lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  if (x0 > x1 || y0 > y1 || !check_xy(g, x0, y0, "lds_grid_touch") ||
      !check_xy(g, x1, y1, "lds_grid_touch")) {
    if (x0 > x1 || y0 > y1)
      ldsi_msg(g->errmsg, "lds_grid_touch: empty rectangle (%ld,%ld)-(%ld,%ld)", (long)x0, (long)y0,
               (long)x1, (long)y1);
    return LDS_E_ARG;
  }
  notify(g, x0, y0, x1, y1);
  return LDS_OK;
}

/* ----------------------------------------------------------- queries -- */

int32_t lds_grid_width(const lds_Grid *g) { return g->w; }
int32_t lds_grid_height(const lds_Grid *g) { return g->h; }
bool lds_grid_in_bounds(const lds_Grid *g, int32_t x, int32_t y) {
  return x >= 0 && y >= 0 && x < g->w && y < g->h;
}
bool lds_grid_blocked(const lds_Grid *g, int32_t x, int32_t y) {
  if (!lds_grid_in_bounds(g, x, y)) return true;
  return g->blocked[ldsi_grid_pidx(g, x, y)] != 0;
}
float lds_grid_cost(const lds_Grid *g, int32_t x, int32_t y) {
  if (!lds_grid_in_bounds(g, x, y)) return 0.0f;
  return g->cost[ldsi_grid_pidx(g, x, y)];
}
char lds_grid_terrain(const lds_Grid *g, int32_t x, int32_t y) {
  if (!lds_grid_in_bounds(g, x, y)) return '\0';
  return g->terrain[(size_t)y * (size_t)g->w + (size_t)x];
}
int lds_grid_neighbourhood(const lds_Grid *g) { return g->neighbourhood; }
lds_Diagonal lds_grid_diagonal(const lds_Grid *g) { return g->diag; }
uint64_t lds_grid_version(const lds_Grid *g) { return g->version; }
size_t lds_grid_passable_count(const lds_Grid *g) { return g->passable; }
const char *lds_grid_errmsg(const lds_Grid *g) { return g->errmsg; }

/* Recomputed lazily after a raise of the cheapest cell. The cache is
** logically const (the answer does not change), hence the cast, and atomic:
** searches of several threads may fill it at once, each storing the same
** value, computed from costs no thread writes meanwhile (docs/threads.md);
** so relaxed order suffices. */
float lds_grid_min_cost(const lds_Grid *g) {
  float m = atomic_load_explicit(&g->min_cost, memory_order_relaxed);
  int32_t x, y;
  if (m > 0.0f) return m;
  m = INFINITY;
  for (y = 0; y < g->h; y++) {
    const float *row = g->cost + ldsi_grid_pidx(g, 0, y);
    for (x = 0; x < g->w; x++)
      if (row[x] < m) m = row[x];
  }
  atomic_store_explicit(&((lds_Grid *)(uintptr_t)g)->min_cost, m, memory_order_relaxed);
  return m;
}

bool lds_grid_can_move(const lds_Grid *g, int32_t x, int32_t y, int dir) {
  if (dir < 0 || dir > 7 || !lds_grid_in_bounds(g, x, y)) return false;
  return (g->nbr[ldsi_grid_pidx(g, x, y)] >> dir) & 1u;
}

/* ------------------------------------------------------------ layers -- */

lds_Status lds_grid_layer_add(lds_Grid *g, const char *name, int *index) {
  size_t len, cells = (size_t)g->w * (size_t)g->h;
  float *data;
  if (!name || (len = strlen(name)) == 0 || len >= LDSI_LAYER_NAME_MAX) {
    ldsi_msg(g->errmsg, "lds_grid_layer_add: bad layer name (expected 1..%d bytes)",
             LDSI_LAYER_NAME_MAX - 1);
    return LDS_E_ARG;
  }
  if (lds_grid_layer_find(g, name) >= 0) {
    ldsi_msg(g->errmsg, "lds_grid_layer_add: layer '%s' already exists", name);
    return LDS_E_ARG;
  }
  if (g->nlayers == g->layer_cap) {
    int ncap = g->layer_cap ? g->layer_cap * 2 : 4;
    ldsi_Layer *nl = (ldsi_Layer *)ldsi_realloc(&g->env, g->layers,
                                                (size_t)g->layer_cap * sizeof(ldsi_Layer),
                                                (size_t)ncap * sizeof(ldsi_Layer));
    if (!nl) goto nomem;
    g->layers = nl;
    g->layer_cap = ncap;
  }
  data = (float *)ldsi_calloc(&g->env, cells, sizeof(float));
  if (!data) goto nomem;
  memcpy(g->layers[g->nlayers].name, name, len + 1);
  g->layers[g->nlayers].data = data;
  g->layers[g->nlayers].id = ++g->layer_ids;
  if (index) *index = g->nlayers;
  g->nlayers++;
  return LDS_OK;
nomem:
  ldsi_msg(g->errmsg, "lds_grid_layer_add: out of memory for layer '%s'", name);
  return LDS_E_NOMEM;
}

int lds_grid_layer_find(const lds_Grid *g, const char *name) {
  int i;
  if (!name) return -1;
  for (i = 0; i < g->nlayers; i++)
    if (strcmp(g->layers[i].name, name) == 0) return i;
  return -1;
}

lds_Status lds_grid_layer_remove(lds_Grid *g, int index) {
  if (index < 0 || index >= g->nlayers) {
    ldsi_msg(g->errmsg, "lds_grid_layer_remove: no layer %d (grid has %d)", index, g->nlayers);
    return LDS_E_ARG;
  }
  ldsi_free(&g->env, g->layers[index].data, (size_t)g->w * (size_t)g->h * sizeof(float));
  memmove(g->layers + index, g->layers + index + 1,
          (size_t)(g->nlayers - index - 1) * sizeof(ldsi_Layer));
  g->nlayers--;
  g->layer_removals++;
  notify(g, 0, 0, g->w - 1, g->h - 1);
  return LDS_OK;
}

int lds_grid_layer_count(const lds_Grid *g) { return g->nlayers; }

const char *lds_grid_layer_name(const lds_Grid *g, int index) {
  return (index >= 0 && index < g->nlayers) ? g->layers[index].name : NULL;
}

float *lds_grid_layer_data(lds_Grid *g, int index) {
  return (index >= 0 && index < g->nlayers) ? g->layers[index].data : NULL;
}

const float *lds_grid_layer_cdata(const lds_Grid *g, int index) {
  return (index >= 0 && index < g->nlayers) ? g->layers[index].data : NULL;
}

lds_Status lds_grid_layer_set(lds_Grid *g, int index, int32_t x, int32_t y, float v) {
  if (index < 0 || index >= g->nlayers) {
    ldsi_msg(g->errmsg, "lds_grid_layer_set: no layer %d (grid has %d)", index, g->nlayers);
    return LDS_E_ARG;
  }
  if (!check_xy(g, x, y, "lds_grid_layer_set")) return LDS_E_ARG;
  if (isnan(v)) {
    ldsi_msg(g->errmsg, "lds_grid_layer_set: NaN at (%ld,%ld) in layer '%s'", (long)x, (long)y,
             g->layers[index].name);
    return LDS_E_ARG;
  }
  g->layers[index].data[(size_t)y * (size_t)g->w + (size_t)x] = v;
  notify(g, x, y, x, y);
  return LDS_OK;
}

float lds_grid_layer_get(const lds_Grid *g, int index, int32_t x, int32_t y) {
  if (index < 0 || index >= g->nlayers || !lds_grid_in_bounds(g, x, y)) return 0.0f;
  return g->layers[index].data[(size_t)y * (size_t)g->w + (size_t)x];
}

lds_Status lds_grid_layer_range(const lds_Grid *g, int index, float *mn, float *mx) {
  size_t i, cells = (size_t)g->w * (size_t)g->h;
  float lo = INFINITY, hi = -INFINITY;
  const float *d;
  if (index < 0 || index >= g->nlayers) return LDS_E_ARG;
  d = g->layers[index].data;
  for (i = 0; i < cells; i++) {
    if (!isfinite(d[i])) continue;
    if (d[i] < lo) lo = d[i];
    if (d[i] > hi) hi = d[i];
  }
  if (lo > hi) lo = hi = 0.0f;
  if (mn) *mn = lo;
  if (mx) *mx = hi;
  return LDS_OK;
}

/* --------------------------------------------------------- listeners -- */

/* Under listen_lock: searches reading a shared grid subscribe from their own
** threads (docs/threads.md). notify() reads the list without it: an edit has
** the grid to itself. */
static lds_Status listen_at(lds_Grid *g, lds_GridListener fn, void *ud, bool front) {
  lds_Status st = LDS_OK;
  if (!fn) return LDS_E_ARG;
  ldsi_spin_lock(&g->listen_lock);
  if (g->nlisteners == g->listener_cap) {
    int ncap = g->listener_cap ? g->listener_cap * 2 : 4;
    ldsi_Listener *nl = (ldsi_Listener *)ldsi_realloc(
        &g->env, g->listeners, (size_t)g->listener_cap * sizeof(ldsi_Listener),
        (size_t)ncap * sizeof(ldsi_Listener));
    if (!nl) {
      st = LDS_E_NOMEM;
      goto done;
    }
    g->listeners = nl;
    g->listener_cap = ncap;
  }
  if (front) {
    memmove(g->listeners + 1, g->listeners, (size_t)g->nlisteners * sizeof(ldsi_Listener));
    g->listeners[0].fn = fn;
    g->listeners[0].ud = ud;
  } else {
    g->listeners[g->nlisteners].fn = fn;
    g->listeners[g->nlisteners].ud = ud;
  }
  g->nlisteners++;
done:
  ldsi_spin_unlock(&g->listen_lock);
  return st;
}

lds_Status lds_grid_listen(lds_Grid *g, lds_GridListener fn, void *ud) {
  return listen_at(g, fn, ud, false);
}

/* Derived data (the cost views) listens first: every other listener (the
** scheduler's, which inspects and repairs searches reading a view's costs)
** then sees it up to date. */
lds_Status ldsi_grid_listen_first(lds_Grid *g, lds_GridListener fn, void *ud) {
  return listen_at(g, fn, ud, true);
}

lds_Status lds_grid_unlisten(lds_Grid *g, lds_GridListener fn, void *ud) {
  lds_Status st = LDS_E_ARG;
  int i;
  ldsi_spin_lock(&g->listen_lock);
  for (i = 0; i < g->nlisteners; i++)
    if (g->listeners[i].fn == fn && g->listeners[i].ud == ud) {
      memmove(g->listeners + i, g->listeners + i + 1,
              (size_t)(g->nlisteners - i - 1) * sizeof(ldsi_Listener));
      g->nlisteners--;
      st = LDS_OK;
      break;
    }
  ldsi_spin_unlock(&g->listen_lock);
  return st;
}
