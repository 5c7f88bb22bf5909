/* SPDX-License-Identifier: MIT */
/*
** lds_cost_view.c — effective-cost views per (grid, weight set): the
** registry on the grid, the sliced build and rescan, the cell-by-cell update
** on edits, references and dropping. The rules are in lds_cost_view.h; the
** state in lds_cost_view_internal.h.
*/
#include "lds_cost_view_internal.h"

#include <math.h>
#include <string.h>

#define BUILD_CHUNK 4096     /* cells between two clock reads in a timed build */
#define RESET_MIN_AREA 4096  /* an edit of a larger rectangle ... */
#define RESET_FRACTION 4     /* ... covering >= 1/RESET_FRACTION of the grid resets the view */

/* The registry of a grid's views (lds_Grid.views): every live view, dropped
** ones still referenced included, in creation order. */
typedef struct ViewList {
  lds_CostView **v;
  int n, cap;
} ViewList;

/* ------------------------------------------------------------ cells -- */

/* Effective cost of padded cell p (unpadded index u): the same sum, in the
** same order, as the weighted search always computed, so paths stay bit for
** bit the same. */
static inline double cell_cost(const lds_CostView *v, const lds_Grid *g, size_t p, size_t u) {
  double c;
  int i;
  if (g->blocked[p]) return INFINITY;
  c = g->cost[p];
  for (i = 0; i < v->nweights; i++)
    if (v->weights[i] != 0.0) c += v->weights[i] * (double)g->layers[i].data[u];
  return c;
}

/* a cost that may be the heuristic scale: passable, finite, positive */
static inline bool min_candidate(double c) { return c > 0.0 && c < INFINITY; }

static inline void scan_cost(lds_CostView *v, double c) {
  if (!min_candidate(c)) return;
  if (c < v->min) {
    v->min = c;
    v->nmin = 1;
  } else if (c == v->min) {
    v->nmin++;
  }
}

static inline void count_cost(lds_CostView *v, double c, int sign) {
  if (c == 1.0) v->nones += (size_t)(ptrdiff_t)sign;
  if (!(c > 0.0)) v->ninvalid += (size_t)(ptrdiff_t)sign; /* NaN, <= 0, -inf */
}

static inline size_t pidx_of(const lds_Grid *g, size_t u) {
  size_t y = u / (size_t)g->w, x = u % (size_t)g->w;
  return (y + 1) * (size_t)g->pw + x + 1;
}

/* Computes or rescans up to max cells (row by row); returns the number done. */
static size_t work(lds_CostView *v, size_t max) {
  const lds_Grid *g = v->grid;
  size_t done = 0, w = (size_t)g->w;
  while (done < max && v->nscanned < v->ncells) {
    size_t u = v->nscanned, x = u % w, p = pidx_of(g, u);
    size_t run = w - x; /* cells left in this row */
    if (run > max - done) run = max - done;
    if (u < v->ncomputed) { /* rescan stored costs (no layer reads) */
      size_t k, lim = v->ncomputed - u;
      if (run > lim) run = lim;
      for (k = 0; k < run; k++) scan_cost(v, v->eff[p + k]);
    } else {
      size_t k;
      for (k = 0; k < run; k++) {
        double c = cell_cost(v, g, p + k, u + k);
        v->eff[p + k] = c;
        count_cost(v, c, 1);
        scan_cost(v, c);
      }
      /* the border next to the cells just computed (its pages are touched
      ** now, not all at creation: that would fault every page of the array
      ** at once, outside any budget) */
      if (u == 0)
        for (k = 0; k < (size_t)g->pw; k++) v->eff[k] = INFINITY;
      if (x == 0) v->eff[p - 1] = INFINITY;
      if (x + run == w) v->eff[p + run] = INFINITY;
      v->ncomputed = u + run;
      if (v->ncomputed == v->ncells)
        for (k = 0; k < (size_t)g->pw; k++) v->eff[g->pcells - 1 - k] = INFINITY;
    }
    v->nscanned = u + run;
    done += run;
  }
  v->cells_done += done;
  return done;
}

/* Whether every passable cell costs exactly 1 (all cells computed). */
static bool uniform_now(const lds_CostView *v) { return v->nones == v->grid->passable; }

/* Publishes the scale and uniform flag of a complete view, bumping the
** epochs that running searches compare. */
static void publish(lds_CostView *v) {
  double sc = v->min == INFINITY ? 1.0 : v->min; /* nothing passable: any scale will do */
  bool un = uniform_now(v);
  if (v->have_scale && sc != v->scale) v->scale_epoch++;
  if (v->have_scale && un != v->uniform) v->mode_epoch++;
  v->scale = sc;
  v->uniform = un;
  v->have_scale = true;
}

/* Forgets every computed cell: the view is rebuilt from scratch. */
static void reset(lds_CostView *v) {
  v->ncomputed = v->nscanned = 0;
  v->min = INFINITY;
  v->nmin = v->nones = v->ninvalid = 0;
  v->mode_epoch++;
  atomic_store_explicit(&v->ready, false, memory_order_relaxed);
}

/* One edited cell (unpadded u, padded p): its cost, counters and the
** minimum's count (see "Edits" in lds_cost_view.h). */
static double update_cell(lds_CostView *v, size_t u, size_t p) {
  double old, c;
  if (u >= v->ncomputed) return NAN; /* computed later, from the grid as it is then */
  old = v->eff[p];
  c = cell_cost(v, v->grid, p, u);
  v->eff[p] = c;
  count_cost(v, old, -1);
  count_cost(v, c, 1);
  if (u >= v->nscanned) return c; /* the rescan reaches it */
  if (min_candidate(old) && old == v->min) v->nmin--;
  scan_cost(v, c);
  if (v->nmin == 0 && v->min != INFINITY) { /* the last cheapest cell was raised */
    v->nscanned = 0;
    v->min = INFINITY;
  }
  return c;
}

/* The grid's listener: an edit of rectangle (x0,y0)-(x1,y1). The edit has
** the grid, and so its views, to itself (docs/threads.md). */
static void on_edit(void *ud, const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                    uint64_t version) {
  lds_CostView *v = (lds_CostView *)ud;
  size_t area = (size_t)(x1 - x0 + 1) * (size_t)(y1 - y0 + 1);
  bool was_ready = atomic_load_explicit(&v->ready, memory_order_relaxed);
  double low = INFINITY; /* the cheapest new cost of the edit */
  int32_t x, y;
  (void)version;
  if (v->nweights > g->nlayers) { /* a layer was removed: build_step reports it */
    reset(v);
    return;
  }
  if (area > RESET_MIN_AREA && area * RESET_FRACTION >= v->ncells) {
    reset(v);
    return;
  }
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) {
      double c = update_cell(v, (size_t)y * (size_t)g->w + (size_t)x, ldsi_grid_pidx(g, x, y));
      if (min_candidate(c) && c < low) low = c;
    }
  if (!v->have_scale) return; /* first build: published when it completes */
  if (v->ncomputed == v->ncells && uniform_now(v) != v->uniform) {
    v->uniform = !v->uniform; /* the costs are all there: the flag is known */
    v->mode_epoch++;
  }
  if (v->nscanned < v->ncells) {
    /* the minimum is unknown until the rescan; searches running on the
    ** old scale stay admissible unless a cell now costs less than it */
    atomic_store_explicit(&v->ready, false, memory_order_relaxed);
    if (low < v->scale) {
      v->scale = low;
      v->scale_epoch++;
    }
    return;
  }
  if (was_ready) publish(v);
}

/* --------------------------------------------------------- registry -- */

/* Trims and normalises a weight set into key[16]; returns its length. */
static int make_key(const double *w, int n, double key[LDSI_VIEW_MAX_WEIGHTS]) {
  int i, kn = 0;
  for (i = 0; i < n && i < LDSI_VIEW_MAX_WEIGHTS; i++) {
    key[i] = w[i] == 0.0 ? 0.0 : w[i]; /* -0 is 0 */
    if (key[i] != 0.0) kn = i + 1;
  }
  return kn;
}

static bool same_key(const lds_CostView *v, const double *key, int kn) {
  return v->nweights == kn && memcmp(v->weights, key, (size_t)kn * sizeof(double)) == 0;
}

static lds_Grid *mut(const lds_Grid *g) { return (lds_Grid *)(uintptr_t)g; }

static void view_destroy(lds_CostView *v) {
  lds_Grid *g = v->grid;
  lds_grid_unlisten(g, on_edit, v);
  ldsi_free(&g->env, v->eff, g->pcells * sizeof(double));
  ldsi_free(&g->env, v, sizeof *v);
}

/* lds_Grid.views_free: frees every view and the list (lds_grid_free). */
static void registry_free(lds_Grid *g) {
  ViewList *l = (ViewList *)g->views;
  int i;
  if (!l) return;
  for (i = 0; i < l->n; i++) view_destroy(l->v[i]);
  ldsi_free(&g->env, l->v, (size_t)l->cap * sizeof(lds_CostView *));
  ldsi_free(&g->env, l, sizeof *l);
  g->views = NULL;
}

/* Under the grid's view lock: the live view of key, with a new reference. */
static lds_CostView *find_locked(const lds_Grid *g, const double *key, int kn) {
  const ViewList *l = (const ViewList *)g->views;
  int i;
  if (!l) return NULL;
  for (i = 0; i < l->n; i++)
    if (!l->v[i]->dropped && same_key(l->v[i], key, kn)) {
      atomic_fetch_add_explicit(&l->v[i]->refs, 1, memory_order_relaxed);
      return l->v[i];
    }
  return NULL;
}

/* Under the grid's view lock: appends v; false when out of memory. */
static bool append_locked(lds_Grid *g, lds_CostView *v) {
  ViewList *l = (ViewList *)g->views;
  if (!l) {
    l = (ViewList *)ldsi_calloc(&g->env, 1, sizeof *l);
    if (!l) return false;
    g->views = l;
    g->views_free = registry_free;
  }
  if (l->n == l->cap) {
    int ncap = l->cap ? l->cap * 2 : 4;
    lds_CostView **nv = (lds_CostView **)ldsi_realloc(&g->env, l->v,
                                                      (size_t)l->cap * sizeof(lds_CostView *),
                                                      (size_t)ncap * sizeof(lds_CostView *));
    if (!nv) return false;
    l->v = nv;
    l->cap = ncap;
  }
  l->v[l->n++] = v;
  return true;
}

static lds_CostView *view_create(lds_Grid *g, const double *key, int kn, char *buf) {
  lds_CostView *v = (lds_CostView *)ldsi_calloc(&g->env, 1, sizeof *v);
  if (v) v->eff = (double *)ldsi_alloc(&g->env, g->pcells * sizeof(double));
  if (!v || !v->eff) {
    if (v) ldsi_free(&g->env, v, sizeof *v);
    ldsi_msg(buf, "lds_cost_view_get: out of memory for the costs of %zu cells (%zu bytes)",
             g->pcells, g->pcells * sizeof(double));
    return NULL;
  }
  v->grid = g;
  memcpy(v->weights, key, (size_t)kn * sizeof(double));
  v->nweights = kn;
  v->ncells = (size_t)g->w * (size_t)g->h;
  v->min = INFINITY;
  atomic_init(&v->ready, false);
  atomic_init(&v->refs, 1);
  ldsi_spin_init(&v->build_lock);
  /* first: the scheduler's listener inspects searches reading these costs */
  if (ldsi_grid_listen_first((lds_Grid *)g, on_edit, v) != LDS_OK) {
    ldsi_free(&g->env, v->eff, g->pcells * sizeof(double));
    ldsi_free(&g->env, v, sizeof *v);
    ldsi_msg(buf, "lds_cost_view_get: out of memory for the grid's listener list");
    return NULL;
  }
  return v;
}

lds_CostView *ldsi_cost_view_lookup(const lds_Grid *cg, const double *w, int n, char *buf) {
  lds_Grid *g = mut(cg);
  double key[LDSI_VIEW_MAX_WEIGHTS];
  int kn = make_key(w, n, key);
  lds_CostView *v, *found;
  ldsi_spin_lock(&g->views_lock);
  v = find_locked(g, key, kn);
  ldsi_spin_unlock(&g->views_lock);
  if (v) return v;
  v = view_create(g, key, kn, buf); /* outside the lock: it allocates and listens */
  if (!v) return NULL;
  ldsi_spin_lock(&g->views_lock);
  found = find_locked(g, key, kn); /* another thread may have made it meanwhile */
  if (!found && !append_locked(g, v)) {
    ldsi_spin_unlock(&g->views_lock);
    view_destroy(v);
    ldsi_msg(buf, "lds_cost_view_get: out of memory for the grid's view registry");
    return NULL;
  }
  if (!found) atomic_store_explicit(&v->refs, 2, memory_order_relaxed); /* registry + caller */
  ldsi_spin_unlock(&g->views_lock);
  if (found) {
    view_destroy(v);
    return found;
  }
  return v;
}

bool ldsi_cost_view_matches(const lds_CostView *v, const double *w, int n) {
  double key[LDSI_VIEW_MAX_WEIGHTS];
  int kn = make_key(w, n, key);
  return !v->dropped && same_key(v, key, kn);
}

lds_CostView *lds_cost_view_get(const lds_Grid *g, const double *weights, int n, lds_Error *err) {
  char buf[LDS_ERRMSG_SIZE];
  int i;
  bool any = false;
  lds_CostView *v;
  if (!g) {
    ldsi_error(err, LDS_E_ARG, "lds_cost_view_get: grid is NULL");
    return NULL;
  }
  if (n < 1 || n > g->nlayers || n > LDSI_VIEW_MAX_WEIGHTS || !weights) {
    ldsi_error(err, LDS_E_ARG,
               "lds_cost_view_get: %d layer weights for a grid with %d layers (expected 1..%d)", n,
               g->nlayers, g->nlayers < LDSI_VIEW_MAX_WEIGHTS ? g->nlayers : LDSI_VIEW_MAX_WEIGHTS);
    return NULL;
  }
  for (i = 0; i < n; i++) {
    if (isnan(weights[i]) || isinf(weights[i])) {
      ldsi_error(err, LDS_E_ARG, "lds_cost_view_get: weight of layer '%s' is %g (expected finite)",
                 g->layers[i].name, ldsi_num(weights[i]));
      return NULL;
    }
    if (weights[i] != 0.0) any = true;
  }
  if (!any) {
    ldsi_error(err, LDS_E_ARG,
               "lds_cost_view_get: every weight is 0 (expected one nonzero weight; searches "
               "without weights read the grid's own costs)");
    return NULL;
  }
  v = ldsi_cost_view_lookup(g, weights, n, buf);
  if (!v) {
    ldsi_error(err, LDS_E_NOMEM, "%s", buf);
    return NULL;
  }
  ldsi_error_clear(err);
  return v;
}

lds_CostView *lds_cost_view_retain(lds_CostView *v) {
  atomic_fetch_add_explicit(&v->refs, 1, memory_order_relaxed);
  return v;
}

void lds_cost_view_release(lds_CostView *v) {
  lds_Grid *g;
  ViewList *l;
  int i;
  if (!v) return;
  if (atomic_fetch_sub_explicit(&v->refs, 1, memory_order_acq_rel) != 1) return;
  /* the last reference: the view was dropped (the registry's went first) */
  g = v->grid;
  ldsi_spin_lock(&g->views_lock);
  l = (ViewList *)g->views;
  for (i = 0; l && i < l->n; i++)
    if (l->v[i] == v) {
      memmove(l->v + i, l->v + i + 1, (size_t)(l->n - i - 1) * sizeof(lds_CostView *));
      l->n--;
      break;
    }
  ldsi_spin_unlock(&g->views_lock);
  view_destroy(v);
}

void lds_cost_view_drop(lds_CostView *v) {
  lds_Grid *g;
  bool was;
  if (!v) return;
  g = v->grid;
  ldsi_spin_lock(&g->views_lock);
  was = v->dropped;
  v->dropped = true;
  ldsi_spin_unlock(&g->views_lock);
  if (!was) lds_cost_view_release(v); /* the registry's reference */
}

void lds_cost_views_drop_all(const lds_Grid *cg) {
  lds_Grid *g = mut(cg);
  for (;;) {
    ViewList *l;
    lds_CostView *v = NULL;
    int i;
    ldsi_spin_lock(&g->views_lock);
    l = (ViewList *)g->views;
    for (i = 0; l && i < l->n && !v; i++)
      if (!l->v[i]->dropped) v = l->v[i];
    if (v) v->dropped = true;
    ldsi_spin_unlock(&g->views_lock);
    if (!v) return;
    lds_cost_view_release(v);
  }
}

int lds_cost_views_count(const lds_Grid *cg) {
  lds_Grid *g = mut(cg);
  const ViewList *l;
  int i, n = 0;
  ldsi_spin_lock(&g->views_lock);
  l = (const ViewList *)g->views;
  for (i = 0; l && i < l->n; i++)
    if (!l->v[i]->dropped) n++;
  ldsi_spin_unlock(&g->views_lock);
  return n;
}

lds_CostView *lds_cost_views_at(const lds_Grid *cg, int k) {
  lds_Grid *g = mut(cg);
  const ViewList *l;
  lds_CostView *v = NULL;
  int i, n = 0;
  ldsi_spin_lock(&g->views_lock);
  l = (const ViewList *)g->views;
  for (i = 0; l && i < l->n && !v; i++)
    if (!l->v[i]->dropped && n++ == k) {
      v = l->v[i];
      atomic_fetch_add_explicit(&v->refs, 1, memory_order_relaxed);
    }
  ldsi_spin_unlock(&g->views_lock);
  return v;
}

size_t lds_cost_views_mem_used(const lds_Grid *cg) {
  lds_Grid *g = mut(cg);
  const ViewList *l;
  size_t b = 0;
  int i;
  ldsi_spin_lock(&g->views_lock);
  l = (const ViewList *)g->views;
  if (l) b += sizeof *l + (size_t)l->cap * sizeof(lds_CostView *);
  for (i = 0; l && i < l->n; i++) b += lds_cost_view_mem_used(l->v[i]);
  ldsi_spin_unlock(&g->views_lock);
  return b;
}

/* ------------------------------------------------------------ build -- */

lds_Status lds_cost_view_build_step(lds_CostView *v, const lds_Budget *budget) {
  const lds_Grid *g = v->grid;
  uint64_t max_exp = budget ? budget->max_expansions : 0, us = budget ? budget->budget_us : 0;
  uint64_t t0 = 0;
  size_t left;
  bool limited = max_exp || us;
  if (atomic_load_explicit(&v->ready, memory_order_acquire)) return LDS_OK;
  if (limited) {
    if (atomic_flag_test_and_set_explicit(&v->build_lock, memory_order_acquire))
      return LDS_RUNNING; /* another thread builds it */
  } else {
    ldsi_spin_lock(&v->build_lock);
  }
  if (atomic_load_explicit(&v->ready, memory_order_acquire)) {
    ldsi_spin_unlock(&v->build_lock);
    return LDS_OK;
  }
  if (v->nweights > g->nlayers) {
    ldsi_msg(v->errmsg,
             "lds_cost_view_build_step: %d layer weights for a grid with %d layers (a layer "
             "was removed; get a new view)",
             v->nweights, g->nlayers);
    ldsi_spin_unlock(&v->build_lock);
    return LDS_E_ARG;
  }
  left = max_exp ? (max_exp > SIZE_MAX / LDS_COST_VIEW_CELLS_PER_EXPANSION
                        ? SIZE_MAX
                        : (size_t)max_exp * LDS_COST_VIEW_CELLS_PER_EXPANSION)
                 : SIZE_MAX;
  if (us) t0 = g->env.clock(g->env.clock_ud);
  while (v->nscanned < v->ncells && left > 0) {
    size_t d = work(v, us && left > BUILD_CHUNK ? BUILD_CHUNK : left);
    left -= d;
    if (us && g->env.clock(g->env.clock_ud) - t0 >= us) break;
  }
  if (v->nscanned == v->ncells) {
    publish(v);
    atomic_store_explicit(&v->ready, true, memory_order_release);
  }
  ldsi_spin_unlock(&v->build_lock);
  return v->nscanned == v->ncells ? LDS_OK : LDS_RUNNING;
}

/* ---------------------------------------------------------- queries -- */

bool lds_cost_view_ready(const lds_CostView *v) {
  return atomic_load_explicit(&((lds_CostView *)(uintptr_t)v)->ready, memory_order_acquire);
}

uint64_t lds_cost_view_cells_done(const lds_CostView *v) { return v->cells_done; }

double lds_cost_view_cost(const lds_CostView *v, int32_t x, int32_t y) {
  const lds_Grid *g = v->grid;
  if (!lds_grid_in_bounds(g, x, y) || (size_t)y * (size_t)g->w + (size_t)x >= v->ncomputed)
    return NAN;
  return v->eff[ldsi_grid_pidx(g, x, y)];
}

double lds_cost_view_scale(const lds_CostView *v) { return lds_cost_view_ready(v) ? v->scale : NAN; }

bool lds_cost_view_uniform(const lds_CostView *v) { return lds_cost_view_ready(v) && v->uniform; }

const double *lds_cost_view_weights(const lds_CostView *v, int *n) {
  if (n) *n = v->nweights;
  return v->weights;
}

bool lds_cost_view_dropped(const lds_CostView *v) { return v->dropped; }

size_t lds_cost_view_mem_used(const lds_CostView *v) {
  return sizeof *v + v->grid->pcells * sizeof(double);
}

const char *lds_cost_view_errmsg(const lds_CostView *v) { return v->errmsg; }

void ldsi_cost_view_invalid_msg(const lds_CostView *v, char *buf) {
  const lds_Grid *g = v->grid;
  int32_t x, y;
  int i;
  for (y = 0; y < g->h; y++)
    for (x = 0; x < g->w; x++) {
      size_t p = ldsi_grid_pidx(g, x, y), u = (size_t)y * (size_t)g->w + (size_t)x;
      double c = v->eff[p];
      int worst = -1;
      double wv = 0.0;
      if (c > 0.0) continue;
      for (i = 0; i < v->nweights; i++) {
        double val = v->weights[i] * (double)g->layers[i].data[u];
        if (v->weights[i] != 0.0 && (isnan(val) || worst < 0 || val < wv)) {
          worst = i;
          wv = val;
        }
      }
      ldsi_msg(buf,
               "lds_search_start: cell (%ld,%ld) has cost %g under the layer weights "
               "(base %g, layer '%s' value %g x weight %g; expected finite, > 0)",
               (long)x, (long)y, ldsi_num(c), (double)g->cost[p],
               worst >= 0 ? g->layers[worst].name : "?",
               worst >= 0 ? ldsi_num((double)g->layers[worst].data[u]) : 0.0,
               worst >= 0 ? ldsi_num(v->weights[worst]) : 0.0);
      return;
    }
  ldsi_msg(buf, "lds_search_start: a cell has an invalid cost under the layer weights");
}
