/* SPDX-License-Identifier: MIT */
/*
** lds_hpa.c — the cluster hierarchy: its build (entrances on every border,
** exact intra-cluster distances between them; with lower_bounds, the
** optimal mode's landmark tables, lds_landmarks.c), the grid listener that
** marks edited clusters, and the local repair that rebuilds only those
** clusters and the neighbours whose entrances changed. The queries are lds_hpa_query.c and lds_hpa_exact.c.
** [Paper: Botea, Müller & Schaeffer, "Near Optimal Hierarchical
**  Path-Finding", J. Game Development 1(1), 2004]
*/
#include "lds_hpa_internal.h"
#include "lds_hpa_level2_internal.h"
#include "lds_landmarks.h"

#include <stdlib.h>
#include <string.h>

void lds_hpa_params_init(lds_HpaParams *p) {
  memset(p, 0, sizeof *p);
  p->cluster_size = 16;
  p->lower_bounds = true;
  p->landmarks = 8;
  p->optimal_jps = true;
  p->level2 = LDS_HPA_LEVEL2_AUTO;
  p->fast_weight = LDS_HPA_FAST_WEIGHT;
  p->band_radius = LDS_HPA_BAND_RADIUS;
}

/* whether w is a fast_weight accepted (NaN is not) */
static bool fast_weight_ok(double w) { return w >= 1.0 && w <= LDS_HPA_MAX_FAST_WEIGHT; }

lds_Status lds_hpa_set_fast_weight(lds_Hpa *h, double w) {
  if (!h) return LDS_E_ARG;
  if (!fast_weight_ok(w)) {
    ldsi_msg(h->errmsg, "lds_hpa_set_fast_weight: weight %g out of range (expected 1..%g)", w,
             LDS_HPA_MAX_FAST_WEIGHT);
    return LDS_E_ARG;
  }
  h->fast_weight = w;
  return LDS_OK;
}

const char *lds_hpa_mode_name(lds_HpaMode m) {
  switch (m) {
  case LDS_HPA_FAST: return "fast";
  case LDS_HPA_OPTIMAL: return "optimal";
  }
  return NULL;
}

lds_Status lds_hpa_mode_parse(const char *name, lds_HpaMode *out) {
  if (name && strcmp(name, "fast") == 0) {
    *out = LDS_HPA_FAST;
    return LDS_OK;
  }
  if (name && strcmp(name, "optimal") == 0) {
    *out = LDS_HPA_OPTIMAL;
    return LDS_OK;
  }
  return LDS_E_ARG;
}

/* ------------------------------------------------------- entrances -- */

static inline bool passable(const lds_Hpa *h, int32_t x, int32_t y) {
  return isfinite(ldsi_hpa_cost(h, ldsi_grid_pidx(h->grid, x, y)));
}

/* the move from (x,y) in direction d is legal (both cells passable) */
static inline bool can_move(const lds_Hpa *h, const ptrdiff_t *off, int32_t x, int32_t y, int d) {
  size_t p = ldsi_grid_pidx(h->grid, x, y);
  if (!(h->grid->nbr[p] & (1u << d))) return false;
  if (h->nweights == 0) return true;
  return passable(h, x, y) && ldsi_hpa_can(h, p, d, off);
}

typedef struct Collect {
  uint32_t c;     /* only cells of this cluster are kept */
  uint32_t *out;
  size_t n, max;
} Collect;

static void keep(const lds_Hpa *h, Collect *k, int32_t x, int32_t y) {
  if (ldsi_hpa_cluster_of(h, x, y) != k->c || k->n >= k->max) return;
  k->out[k->n++] = (uint32_t)ldsi_grid_pidx(h->grid, x, y);
}

/* Entrances of one border unit: with vertical, the border between columns
** b-1 and b over cluster row k; else between rows b-1 and b over cluster
** column k. Orthogonal crossings form runs: a run shorter than 6 gives one
** pair at its middle, a longer one its two ends, and from 10 its middle too
** (Botea et al.'s rule plus a middle pair). A diagonal crossing with no
** orthogonal crossing on either of its two lines (only possible under the
** allow_one_blocked and always rules) is a pair of its own. Both cells of a
** pair are entrances; only those in cluster k->c are kept. */
static void border_unit(const lds_Hpa *h, const ptrdiff_t *off, bool vertical, int32_t b,
                        int32_t k, Collect *out) {
  int32_t C = h->C, lim = vertical ? h->grid->h : h->grid->w;
  int32_t a0 = k * C, a1 = a0 + C - 1, i, run = -1;
  int ortho = vertical ? LDS_DIR_E : LDS_DIR_S;
  int diag[2];
  if (k < 0 || a0 >= lim) return;
  if (a1 >= lim) a1 = lim - 1;
  diag[0] = vertical ? LDS_DIR_NE : LDS_DIR_SE;
  diag[1] = vertical ? LDS_DIR_SE : LDS_DIR_SW;
#define CELL_A(i) (vertical ? (b - 1) : (i)), (vertical ? (i) : (b - 1))
#define CELL_B(i) (vertical ? (b) : (i)), (vertical ? (i) : (b))
#define CROSS(i) ((i) >= 0 && (i) < lim && can_move(h, off, CELL_A(i), ortho))
  for (i = a0; i <= a1 + 1; i++) {
    bool cr = i <= a1 && CROSS(i);
    if (cr && run < 0) run = i;
    if (!cr && run >= 0) {
      int32_t len = i - run, pick[3], np = 0, j;
      if (len < 6) {
        pick[np++] = run + (len - 1) / 2;
      } else {
        pick[np++] = run;
        pick[np++] = i - 1;
        if (len >= 10) pick[np++] = run + (len - 1) / 2;
      }
      for (j = 0; j < np; j++) {
        keep(h, out, CELL_A(pick[j]));
        keep(h, out, CELL_B(pick[j]));
      }
      run = -1;
    }
  }
  if (h->grid->diag == LDS_DIAG_NO_CORNER_CUTTING || h->grid->diag == LDS_DIAG_NEVER ||
      h->grid->neighbourhood == 4)
    return;
  for (i = a0; i <= a1; i++) {
    int e;
    if (CROSS(i)) continue;
    for (e = 0; e < 2; e++) {
      int d = diag[e];
      int32_t j = i + (vertical ? ldsi_dir_dy[d] : ldsi_dir_dx[d]);
      if (!can_move(h, off, CELL_A(i), d) || CROSS(j)) continue;
      keep(h, out, CELL_A(i));
      keep(h, out, CELL_B(j));
    }
  }
#undef CELL_A
#undef CELL_B
#undef CROSS
}

static int cmp_u32(const void *a, const void *b) {
  uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
  return x < y ? -1 : x > y;
}

/* The sorted entrance cells of cluster c into out (at least 12 * 4 * C
** slots); returns their count. */
static size_t cluster_entrances(const lds_Hpa *h, const ptrdiff_t *off, uint32_t c, uint32_t *out,
                                size_t max) {
  const ldsi_HpaCluster *k = &h->cl[c];
  int32_t cx = (int32_t)(c % (uint32_t)h->cw), cy = (int32_t)(c / (uint32_t)h->cw), j;
  Collect col;
  size_t i, n;
  col.c = c;
  col.out = out;
  col.n = 0;
  col.max = max;
  for (j = -1; j <= 1; j++) {
    if (k->x0 > 0) border_unit(h, off, true, k->x0, cy + j, &col);
    if (k->x1 + 1 < h->grid->w) border_unit(h, off, true, k->x1 + 1, cy + j, &col);
    if (k->y0 > 0) border_unit(h, off, false, k->y0, cx + j, &col);
    if (k->y1 + 1 < h->grid->h) border_unit(h, off, false, k->y1 + 1, cx + j, &col);
  }
  qsort(out, col.n, sizeof *out, cmp_u32);
  for (i = 0, n = 0; i < col.n; i++)
    if (n == 0 || out[n - 1] != out[i]) out[n++] = out[i];
  return n;
}

/* ------------------------------------------------- cluster builder -- */

/* a float <= the double d */
static float float_down(double d) {
  float f = (float)d;
  if ((double)f > d) f = nextafterf(f, -INFINITY);
  return f;
}

/* the packed code of local cell l after the last search of L: its
** parent direction, 8 at the source, PAR_NONE when not reached */
#define PAR_NONE 15
#define PAR_OF(L, l) ((L)->gen[l] == (L)->cur ? ((L)->par[l] & 15) : PAR_NONE)

lds_Status ldsi_hpa_build_cluster(lds_Hpa *h, uint32_t c) {
  ldsi_HpaCluster *k = &h->cl[c];
  ldsi_HpaLocal *L = &h->local;
  const lds_Grid *g = h->grid;
  uint32_t i, j;
  ptrdiff_t off[8];
  ldsi_grid_offsets(g, off);
  size_t area = (size_t)(k->x1 - k->x0 + 1) * (size_t)(k->y1 - k->y0 + 1);
  for (i = 0; i < k->n; i++) {
    ldsi_hpa_local_dijkstra(h, L, k->x0, k->y0, k->x1, k->y1, &k->cell[i], 1);
    for (j = 0; j < k->n; j++) k->dist[i * k->n + j] = float_down(ldsi_hpa_local_g(h, L, k->cell[j]));
    /* packed two cells a byte (4 bits each); PAR_NONE for the cells this
    ** search did not reach (ldsi_hpa_tree_cost tells them so) */
    {
      uint8_t *dst = k->par + (size_t)i * ((area + 1) / 2);
      size_t l;
      for (l = 0; l + 1 < area; l += 2)
        dst[l / 2] = (uint8_t)(PAR_OF(L, l) | PAR_OF(L, l + 1) << 4);
      if (l < area) dst[l / 2] = (uint8_t)PAR_OF(L, l);
    }
  }
  return LDS_OK;
}

/* the direction stored for local cell l in a packed parent tree */
#define PAR_AT(par, l) (((par)[(l) >> 1] >> (((l)&1) * 4)) & 15)

/* The tree path of entrance i of cluster k to local cell (x, y), whose
** padded id is p, into out (at most max cells, entrance first); its count,
** 0 when not reached or longer than max. */
static size_t tree_trace(const lds_Hpa *h, const ldsi_HpaCluster *k, uint32_t i, int32_t x,
                         int32_t y, uint32_t p, uint32_t *out, size_t max) {
  int32_t bw = k->x1 - k->x0 + 1, bh = k->y1 - k->y0 + 1;
  const uint8_t *par = k->par + (size_t)i * (((size_t)bw * (size_t)bh + 1) / 2);
  size_t n = 0, m;
  ptrdiff_t l;
  if (PAR_AT(par, (ptrdiff_t)y * bw + x) == PAR_NONE) return 0;
  /* count, then write backwards */
  for (l = (ptrdiff_t)y * bw + x;;) {
    int d = PAR_AT(par, l);
    n++;
    if (d == 8 || n > max) break;
    l -= (ptrdiff_t)ldsi_dir_dy[d] * bw + ldsi_dir_dx[d];
  }
  if (n > max) return 0;
  l = (ptrdiff_t)y * bw + x;
  for (m = n; m-- > 0;) {
    int d = PAR_AT(par, l);
    out[m] = p;
    if (d == 8) break;
    l -= (ptrdiff_t)ldsi_dir_dy[d] * bw + ldsi_dir_dx[d];
    p = (uint32_t)((ptrdiff_t)p - h->off[d]);
  }
  return n;
}

size_t ldsi_hpa_intra_trace(const lds_Hpa *h, uint32_t c, uint32_t i, uint32_t j, uint32_t *out,
                            size_t max) {
  const ldsi_HpaCluster *k = &h->cl[c];
  if (!isfinite(k->dist[(size_t)i * k->n + j])) return 0;
  return tree_trace(h, k, i, (int32_t)(k->xy[j] & 0xFFFF) - k->x0, (int32_t)(k->xy[j] >> 16) - k->y0,
                    k->cell[j], out, max);
}

size_t ldsi_hpa_tree_trace(const lds_Hpa *h, uint32_t c, uint32_t i, size_t p, uint32_t *out,
                           size_t max) {
  const ldsi_HpaCluster *k = &h->cl[c];
  int32_t x, y;
  ldsi_grid_pxy(h->grid, p, &x, &y);
  return tree_trace(h, k, i, x - k->x0, y - k->y0, (uint32_t)p, out, max);
}

double ldsi_hpa_tree_cost(const lds_Hpa *h, uint32_t c, uint32_t i, size_t p, size_t *steps) {
  const ldsi_HpaCluster *k = &h->cl[c];
  int32_t bw = k->x1 - k->x0 + 1, bh = k->y1 - k->y0 + 1, x, y;
  const uint8_t *par = k->par + (size_t)i * (((size_t)bw * (size_t)bh + 1) / 2);
  double cost = 0.0;
  ptrdiff_t l;
  size_t n = 0, area = (size_t)bw * (size_t)bh;
  ldsi_grid_pxy(h->grid, p, &x, &y);
  l = (ptrdiff_t)(y - k->y0) * bw + (x - k->x0);
  for (;;) {
    int d = PAR_AT(par, l);
    if (d == PAR_NONE || n > area) {
      cost = INFINITY;
      break;
    }
    if (d == 8) break;
    cost += ldsi_hpa_move_len(d) * ldsi_hpa_cost(h, p);
    l -= (ptrdiff_t)ldsi_dir_dy[d] * bw + ldsi_dir_dx[d];
    p = (size_t)((ptrdiff_t)p - h->off[d]);
    n++;
  }
  *steps += n;
  return cost;
}

lds_Status ldsi_hpa_build_inter(lds_Hpa *h, uint32_t c) {
  ldsi_HpaCluster *k = &h->cl[c];
  const lds_Grid *g = h->grid;
  uint32_t i, n = 0;
  int pass;
  if (k->n == 0) {
    k->ninter = 0;
    return LDS_OK;
  }
  for (pass = 0; pass < 2; pass++) {
    n = 0;
    for (i = 0; i < k->n; i++) {
      int32_t ex = (int32_t)(k->xy[i] & 0xFFFF), ey = (int32_t)(k->xy[i] >> 16);
      size_t p = k->cell[i];
      unsigned m = g->nbr[p];
      int d;
      if (pass) k->ioff[i] = n;
      for (d = 0; d < 8; d++) {
        int32_t x, y, dcx, dcy;
        uint8_t ni;
        double cc;
        if (!(m & (1u << d))) continue;
        x = ex + ldsi_dir_dx[d];
        y = ey + ldsi_dir_dy[d];
        dcx = x < k->x0 ? -1 : x > k->x1 ? 1 : 0;
        dcy = y < k->y0 ? -1 : y > k->y1 ? 1 : 0;
        if (!dcx && !dcy) continue;
        ni = h->nidx[(size_t)y * (size_t)g->w + (size_t)x];
        if (!ni) continue;
        cc = ldsi_hpa_cost(h, (size_t)((ptrdiff_t)p + h->off[d]));
        if (!isfinite(cc)) continue;
        if (pass) {
          ldsi_HpaInter *e = &k->inter[n];
          e->cl = (uint32_t)((int32_t)c + dcx + dcy * h->cw);
          e->i = (uint32_t)(ni - 1);
          e->xy = (uint32_t)x | (uint32_t)y << 16;
          e->c = (float)(ldsi_hpa_move_len(d) * cc);
        }
        n++;
      }
    }
    if (pass) {
      k->ioff[k->n] = n;
      k->ninter = n;
    } else if (n > k->intercap) {
      ldsi_HpaInter *ni = ldsi_realloc(&h->env, k->inter, k->intercap * sizeof *ni, n * sizeof *ni);
      if (!ni) return LDS_E_NOMEM;
      k->inter = ni;
      k->intercap = n;
    }
  }
  return LDS_OK;
}

/* Bytes of a cluster's block for cap entrances (ldsi_HpaCluster.blk). */
static size_t block_bytes(const lds_Hpa *h, size_t cap) {
  return (2 * (cap + 1) + cap + cap * (size_t)h->lmk + cap * cap + cap) * sizeof(uint32_t);
}

/* Copies the landmark table values of cluster c's entrances into its lmv
** (nothing before the tables are built: lds_hpa_new copies them all then). */
static void lm_copy(lds_Hpa *h, uint32_t c) {
  ldsi_HpaCluster *k = &h->cl[c];
  uint32_t i;
  if (!h->lm) return;
  for (i = 0; i < k->n; i++)
    memcpy(k->lmv + (size_t)i * (size_t)h->lmk, ldsi_lm_row(h->lm, k->cell[i]),
           (size_t)h->lmk * sizeof(uint32_t));
  ldsi_hpa_l2_lm_copy(h, c);
}

/* Sets cluster c's entrances to cells[0..n) (sorted): index, matrix. */
static lds_Status set_entrances(lds_Hpa *h, uint32_t c, const uint32_t *cells, size_t n) {
  ldsi_HpaCluster *k = &h->cl[c];
  uint32_t i;
  const lds_Grid *g = h->grid;
  size_t area = ((size_t)h->C * (size_t)h->C + 1) / 2; /* bytes of a packed parent tree */
  for (i = 0; i < k->n; i++) {
    int32_t x, y;
    ldsi_grid_pxy(g, k->cell[i], &x, &y);
    h->nidx[(size_t)y * (size_t)g->w + (size_t)x] = 0;
  }
  h->entrances -= k->n;
  if (n > k->cap) {
    /* the old contents are all rewritten by the caller (entrances here,
    ** distances and trees by ldsi_hpa_build_cluster, offsets by
    ** ldsi_hpa_build_inter): a fresh block */
    size_t nb = block_bytes(h, n);
    uint32_t *blk = ldsi_alloc(&h->env, nb);
    uint8_t *np;
    if (!blk) return LDS_E_NOMEM;
    np = ldsi_realloc(&h->env, k->par, (size_t)k->cap * area, n * area);
    if (!np) {
      ldsi_free(&h->env, blk, nb);
      return LDS_E_NOMEM;
    }
    k->par = np;
    if (k->blk) ldsi_free(&h->env, k->blk, block_bytes(h, k->cap));
    k->blk = blk;
    k->cap = (uint32_t)n;
    k->eoff = blk;
    k->ioff = k->eoff + n + 1;
    k->xy = k->ioff + n + 1;
    k->lmv = k->xy + n;
    k->dist = (float *)(void *)(k->lmv + n * (size_t)h->lmk);
    k->cell = (uint32_t *)(void *)(k->dist + n * n);
  }
  k->n = (uint32_t)n;
  if (n) memcpy(k->cell, cells, n * sizeof(uint32_t));
  for (i = 0; i < k->n; i++) {
    int32_t x, y;
    ldsi_grid_pxy(g, k->cell[i], &x, &y);
    h->nidx[(size_t)y * (size_t)g->w + (size_t)x] = (uint8_t)(i + 1);
    k->xy[i] = (uint32_t)x | (uint32_t)y << 16;
  }
  h->entrances += k->n;
  lm_copy(h, c);
  return LDS_OK;
}

/* Refreshes the landmark copies (lmv) of the clusters meeting the cells
** [x0..x1] x [y0..y1] (clipped to the grid). */
static void lm_refresh(lds_Hpa *h, int32_t x0, int32_t y0, int32_t x1, int32_t y1) {
  int32_t cx, cy;
  if (!h->lm || x0 > x1 || y0 > y1) return;
  if (x0 < 0) x0 = 0;
  if (y0 < 0) y0 = 0;
  if (x1 >= h->grid->w) x1 = h->grid->w - 1;
  if (y1 >= h->grid->h) y1 = h->grid->h - 1;
  for (cy = y0 / h->C; cy <= y1 / h->C; cy++)
    for (cx = x0 / h->C; cx <= x1 / h->C; cx++) lm_copy(h, (uint32_t)cy * (uint32_t)h->cw + (uint32_t)cx);
}

static size_t count_edges(const ldsi_HpaCluster *k) {
  size_t e = 0, i;
  for (i = 0; i < (size_t)k->n * k->n; i++) e += isfinite(k->dist[i]) && k->dist[i] > 0;
  return e;
}

/* Checks the effective cost of the cells of cluster c (<= 0 or NaN is an
** error naming the cell) and lowers minc to the cheapest. */
static lds_Status check_costs(lds_Hpa *h, uint32_t c, const char *fn) {
  const ldsi_HpaCluster *k = &h->cl[c];
  int32_t x, y;
  for (y = k->y0; y <= k->y1; y++)
    for (x = k->x0; x <= k->x1; x++) {
      size_t p = ldsi_grid_pidx(h->grid, x, y);
      double v;
      if (h->grid->blocked[p]) continue;
      v = ldsi_hpa_cost(h, p);
      if (!(v > 0.0)) {
        ldsi_msg(h->errmsg,
                 "%s: cell (%d,%d) has effective cost %g under the layer weights (expected > 0)",
                 fn, (int)x, (int)y, v);
        return LDS_E_ARG;
      }
      if (v < h->minc) h->minc = v;
    }
  return LDS_OK;
}

/* ---------------------------------------------------------- listen -- */

enum { DIRTY_CELLS = 1, DIRTY_MARKED = 2, DIRTY_INTER = 4 };

static void on_edit(void *ud, const lds_Grid *g, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                    uint64_t version) {
  lds_Hpa *h = (lds_Hpa *)ud;
  int32_t cx0, cy0, cx1, cy1, cx, cy;
  (void)version;
  /* a cell's moves depend on its 8 neighbours: widen by one */
  x0 = x0 > 0 ? x0 - 1 : 0;
  y0 = y0 > 0 ? y0 - 1 : 0;
  x1 = x1 + 1 < g->w ? x1 + 1 : g->w - 1;
  y1 = y1 + 1 < g->h ? y1 + 1 : g->h - 1;
  cx0 = x0 / h->C;
  cy0 = y0 / h->C;
  cx1 = x1 / h->C;
  cy1 = y1 / h->C;
  for (cy = cy0; cy <= cy1; cy++)
    for (cx = cx0; cx <= cx1; cx++) {
      uint32_t c = (uint32_t)cy * (uint32_t)h->cw + (uint32_t)cx;
      if (h->dirty[c] & DIRTY_CELLS) continue;
      h->dirty[c] |= DIRTY_CELLS;
      h->dirty_list[h->ndirty++] = c;
    }
  h->any_dirty = true;
}

/* -------------------------------------------------------- lifetime -- */

static size_t scratch_slots(const lds_Hpa *h) { return (size_t)48 * (size_t)h->C; }

lds_Hpa *lds_hpa_new(const lds_Env *env, const lds_Grid *grid, const lds_HpaParams *params,
                     lds_Error *err) {
  static const char *fn = "lds_hpa_new";
  ldsi_Env e;
  lds_HpaParams def;
  lds_Hpa *h;
  size_t cells, c;
  uint32_t *tmp;
  uint64_t t0;
  int i;
  ptrdiff_t off[8];
  ldsi_error_clear(err);
  ldsi_env_resolve(&e, env);
  if (!grid) {
    ldsi_error(err, LDS_E_ARG, "%s: grid is NULL (expected a grid)", fn);
    return NULL;
  }
  if (!params) {
    lds_hpa_params_init(&def);
    params = &def;
  }
  if (params->cluster_size < 4 || params->cluster_size > LDS_HPA_MAX_CLUSTER) {
    ldsi_error(err, LDS_E_ARG, "%s: cluster_size %d out of range (expected 4..%d)", fn,
               params->cluster_size, LDS_HPA_MAX_CLUSTER);
    return NULL;
  }
  if (params->lower_bounds && (params->landmarks < 1 || params->landmarks > LDS_HPA_MAX_LANDMARKS)) {
    ldsi_error(err, LDS_E_ARG, "%s: landmarks %d out of range (expected 1..%d)", fn, params->landmarks,
               LDS_HPA_MAX_LANDMARKS);
    return NULL;
  }
  if (params->level2 != LDS_HPA_LEVEL2_AUTO && params->level2 != 0 &&
      (params->level2 < 2 || params->level2 > 32 ||
       params->level2 * params->level2 * 4 * params->cluster_size >= 65535)) {
    ldsi_error(err, LDS_E_ARG,
               "%s: level2 %d out of range (expected %d for auto, 0 for none, or 2..32 with "
               "level2^2 x 4 x cluster_size %d below 65535)",
               fn, params->level2, LDS_HPA_LEVEL2_AUTO, params->cluster_size);
    return NULL;
  }
  if (!fast_weight_ok(params->fast_weight)) {
    ldsi_error(err, LDS_E_ARG, "%s: fast_weight %g out of range (expected 1..%g)", fn,
               params->fast_weight, LDS_HPA_MAX_FAST_WEIGHT);
    return NULL;
  }
  if (params->band_radius < 0 || params->band_radius > LDS_HPA_MAX_BAND_RADIUS) {
    ldsi_error(err, LDS_E_ARG, "%s: band_radius %d out of range (expected 0..%d cells)", fn,
               params->band_radius, LDS_HPA_MAX_BAND_RADIUS);
    return NULL;
  }
  if (params->n_layer_weights < 0 || params->n_layer_weights > 16 ||
      params->n_layer_weights > grid->nlayers || (params->n_layer_weights && !params->layer_weights)) {
    ldsi_error(err, LDS_E_ARG,
               "%s: n_layer_weights %d out of range (expected 0..%d: at most 16 and the grid's "
               "%d layers, with a weight array)",
               fn, params->n_layer_weights, grid->nlayers < 16 ? grid->nlayers : 16, grid->nlayers);
    return NULL;
  }
  for (i = 0; i < params->n_layer_weights; i++)
    if (!isfinite(params->layer_weights[i])) {
      ldsi_error(err, LDS_E_ARG, "%s: layer weight %d (layer '%s') is %g (expected a finite number)",
                 fn, i, grid->layers[i].name, params->layer_weights[i]);
      return NULL;
    }
  {
    /* abstract node ids (cluster * 4C + i) and padded cell ids are 32-bit */
    uint64_t ncl = (uint64_t)((grid->w + params->cluster_size - 1) / params->cluster_size) *
                   (uint64_t)((grid->h + params->cluster_size - 1) / params->cluster_size);
    if (ncl * 4u * (uint64_t)params->cluster_size + 2u >= UINT32_MAX ||
        (uint64_t)grid->pcells >= UINT32_MAX) {
      ldsi_error(err, LDS_E_ARG,
                 "%s: a %dx%d grid is too large for cluster_size %d (at most 2^32 entrance "
                 "slots and cells; expected a larger cluster_size or a smaller grid)",
                 fn, (int)grid->w, (int)grid->h, params->cluster_size);
      return NULL;
    }
  }
  t0 = e.clock(e.clock_ud);
  h = ldsi_calloc(&e, 1, sizeof *h);
  if (!h) goto nomem;
  h->env = e;
  h->grid = grid;
  h->C = params->cluster_size;
  h->cw = (grid->w + h->C - 1) / h->C;
  h->ch = (grid->h + h->C - 1) / h->C;
  h->ncl = (uint32_t)h->cw * (uint32_t)h->ch;
  h->cap = (uint32_t)(4 * h->C);
  h->lower_bounds = params->lower_bounds;
  h->lmk = params->lower_bounds ? params->landmarks : 0;
  h->optimal_jps = params->optimal_jps;
  h->fast_weight = params->fast_weight;
  h->band_radius = params->band_radius;
  h->nweights = params->n_layer_weights;
  h->layer_removals = grid->layer_removals;
  for (i = 0; i < h->nweights; i++) {
    h->weights[i] = params->layer_weights[i];
    h->weight_ids[i] = grid->layers[i].id;
    memcpy(h->weight_names[i], grid->layers[i].name, LDSI_LAYER_NAME_MAX);
  }
  cells = (size_t)grid->w * (size_t)grid->h;
  ldsi_grid_offsets(grid, h->off);
  for (i = 0; i < 9; i++) h->dcl[i] = (i % 3 - 1) + (i / 3 - 1) * h->cw;
  h->cl = ldsi_calloc(&e, h->ncl, sizeof *h->cl);
  h->nidx = ldsi_calloc(&e, cells, 1);
  h->dirty = ldsi_calloc(&e, h->ncl, 1);
  h->dirty_list = ldsi_alloc(&e, h->ncl * sizeof(uint32_t));
  if (!h->cl || !h->nidx || !h->dirty || !h->dirty_list ||
      !ldsi_hpa_local_init(&e, &h->local, (size_t)h->C * (size_t)h->C))
    goto nomem;
  for (c = 0; c < h->ncl; c++) {
    ldsi_HpaCluster *k = &h->cl[c];
    k->x0 = (int32_t)(c % (size_t)h->cw) * h->C;
    k->y0 = (int32_t)(c / (size_t)h->cw) * h->C;
    k->x1 = k->x0 + h->C - 1 < grid->w ? k->x0 + h->C - 1 : grid->w - 1;
    k->y1 = k->y0 + h->C - 1 < grid->h ? k->y0 + h->C - 1 : grid->h - 1;
  }
  h->minc = INFINITY;
  for (c = 0; c < h->ncl; c++)
    if (check_costs(h, (uint32_t)c, fn) != LDS_OK) {
      ldsi_error(err, LDS_E_ARG, "%s", h->errmsg);
      lds_hpa_free(h);
      return NULL;
    }
  if (!isfinite(h->minc)) h->minc = 1.0; /* no passable cell */
  tmp = ldsi_alloc(&e, scratch_slots(h) * sizeof(uint32_t));
  if (!tmp) goto nomem;
  ldsi_grid_offsets(grid, off);
  for (c = 0; c < h->ncl; c++) {
    size_t n = cluster_entrances(h, off, (uint32_t)c, tmp, scratch_slots(h));
    if (set_entrances(h, (uint32_t)c, tmp, n) != LDS_OK) {
      ldsi_free(&e, tmp, scratch_slots(h) * sizeof(uint32_t));
      goto nomem;
    }
  }
  ldsi_free(&e, tmp, scratch_slots(h) * sizeof(uint32_t));
  for (c = 0; c < h->ncl; c++) {
    ldsi_hpa_build_cluster(h, (uint32_t)c);
    h->intra_edges += count_edges(&h->cl[c]);
    if (ldsi_hpa_build_inter(h, (uint32_t)c) != LDS_OK || ldsi_hpa_build_edges(h, (uint32_t)c) != LDS_OK)
      goto nomem;
  }
  {
    int K = params->level2;
    if (K == LDS_HPA_LEVEL2_AUTO)
      K = (uint64_t)grid->w * (uint64_t)grid->h >= (uint64_t)LDS_HPA_LEVEL2_MIN_CELLS ? 8 : 0;
    if (K > 0 && ldsi_hpa_l2_new(h, K) != LDS_OK) goto nomem;
  }
  if (lds_grid_listen((lds_Grid *)(uintptr_t)grid, on_edit, h) != LDS_OK) goto nomem;
  h->listening = true;
  if (h->lower_bounds && !(h->lm = ldsi_lm_new(h, params->landmarks, h->errmsg))) goto nomem;
  for (c = 0; c < h->ncl; c++) lm_copy(h, (uint32_t)c);
  h->version = grid->version;
  h->build_us = e.clock(e.clock_ud) - t0;
  return h;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "%s: out of memory building the hierarchy of a %dx%d grid", fn,
             (int)grid->w, (int)grid->h);
  lds_hpa_free(h);
  return NULL;
}

void lds_hpa_free(lds_Hpa *h) {
  size_t cells, c;
  ldsi_Env e;
  if (!h) return;
  e = h->env;
  if (h->listening) lds_grid_unlisten((lds_Grid *)(uintptr_t)h->grid, on_edit, h);
  cells = (size_t)h->grid->w * (size_t)h->grid->h;
  if (h->cl) {
    for (c = 0; c < h->ncl; c++) {
      ldsi_HpaCluster *k = &h->cl[c];
      if (k->blk) ldsi_free(&e, k->blk, block_bytes(h, k->cap));
      if (k->par) ldsi_free(&e, k->par, (size_t)k->cap * (((size_t)h->C * (size_t)h->C + 1) / 2));
      if (k->inter) ldsi_free(&e, k->inter, k->intercap * sizeof(ldsi_HpaInter));
      if (k->edge) ldsi_free(&e, k->edge, k->edgecap * sizeof(ldsi_HpaEdge));
    }
    ldsi_free(&e, h->cl, h->ncl * sizeof *h->cl);
  }
  if (h->nidx) ldsi_free(&e, h->nidx, cells);
  if (h->dirty) ldsi_free(&e, h->dirty, h->ncl);
  if (h->dirty_list) ldsi_free(&e, h->dirty_list, h->ncl * sizeof(uint32_t));
  ldsi_lm_free(h->lm);
  ldsi_hpa_l2_free(h);
  ldsi_hpa_local_free(&e, &h->local);
  ldsi_free(&e, h, sizeof *h);
}

/* ---------------------------------------------------------- repair -- */

/* Appends to out every cluster of the 3 x 3 boxes around the n clusters of
** list that does not carry `flag` yet, and sets the flag on it; returns how
** many were appended (out holds at least 9 n). */
static size_t mark_box(lds_Hpa *h, const uint32_t *list, size_t n, uint8_t flag, uint32_t *out) {
  size_t m, k = 0;
  for (m = 0; m < n; m++) {
    uint32_t c = list[m];
    int32_t cx = (int32_t)(c % (uint32_t)h->cw), cy = (int32_t)(c / (uint32_t)h->cw), dx, dy;
    for (dy = -1; dy <= 1; dy++)
      for (dx = -1; dx <= 1; dx++) {
        int32_t nx = cx + dx, ny = cy + dy;
        uint32_t nc;
        if (nx < 0 || ny < 0 || nx >= h->cw || ny >= h->ch) continue;
        nc = (uint32_t)ny * (uint32_t)h->cw + (uint32_t)nx;
        if (h->dirty[nc] & flag) continue;
        h->dirty[nc] |= flag;
        out[k++] = nc;
      }
  }
  return k;
}

/* After a layer removal (it shifts the indices after it): finds each
** weighted layer again by its id and moves its weight to its new index, so
** the weights keep meaning the same layers; a weighted layer that is gone
** breaks the hierarchy with an error naming it (its costs are lost). The
** removal marked every cluster dirty, so the repair that follows rebuilds
** them all. */
static lds_Status match_weights(lds_Hpa *h, const char *fn) {
  const lds_Grid *g = h->grid;
  double w[16] = {0};
  int i, j, n = 0;
  for (i = 0; i < h->nweights; i++) {
    if (h->weights[i] == 0.0) continue;
    for (j = 0; j < g->nlayers && g->layers[j].id != h->weight_ids[i]; j++) {
    }
    if (j == g->nlayers) {
      h->broken = true;
      ldsi_msg(h->errmsg,
               "%s: layer '%s' (weight %g in this hierarchy) was removed from the grid; build "
               "a new hierarchy without it",
               fn, h->weight_names[i], ldsi_num(h->weights[i]));
      return LDS_E_STATE;
    }
    w[j] = h->weights[i];
    if (j + 1 > n) n = j + 1;
  }
  for (j = 0; j < n; j++) {
    h->weights[j] = w[j];
    h->weight_ids[j] = g->layers[j].id;
    memcpy(h->weight_names[j], g->layers[j].name, LDSI_LAYER_NAME_MAX);
  }
  h->nweights = n;
  h->layer_removals = g->layer_removals;
  return LDS_OK;
}

lds_Status lds_hpa_repair(lds_Hpa *h) {
  static const char *fn = "lds_hpa_repair";
  uint32_t *tmp = NULL, *mark = NULL, *rebuilt = NULL, *inter = NULL;
  size_t m, nmark = 0, nrebuilt = 0, ninter = 0, slots, ndirty;
  uint64_t t0;
  lds_Status st = LDS_OK;
  ptrdiff_t off[8];
  if (!h) return LDS_E_ARG;
  if (h->nweights > 0 && h->grid->layer_removals != h->layer_removals &&
      (st = match_weights(h, fn)) != LDS_OK)
    return st;
  if (!h->any_dirty && !h->broken) return LDS_OK;
  t0 = h->env.clock(h->env.clock_ud);
  ndirty = h->ndirty;
  for (m = 0; m < ndirty; m++)
    if ((st = check_costs(h, h->dirty_list[m], fn)) != LDS_OK) {
      h->broken = true;
      return st;
    }
  slots = scratch_slots(h);
  tmp = ldsi_alloc(&h->env, slots * sizeof(uint32_t));
  mark = ldsi_alloc(&h->env, ndirty * 9 * sizeof(uint32_t));
  rebuilt = ldsi_alloc(&h->env, ndirty * 9 * sizeof(uint32_t));
  inter = ldsi_alloc(&h->env, ndirty * 81 * sizeof(uint32_t));
  if (!tmp || !mark || !rebuilt || !inter) {
    st = LDS_E_NOMEM;
    ldsi_msg(h->errmsg, "%s: out of memory", fn);
    goto done;
  }
  ldsi_grid_offsets(h->grid, off);
  /* the dirty clusters and their 8 neighbours get new entrance lists; a
  ** cluster is rebuilt when dirty or when its list changed */
  nmark = mark_box(h, h->dirty_list, ndirty, DIRTY_MARKED, mark);
  qsort(mark, nmark, sizeof *mark, cmp_u32);
  h->last_repair_clusters = 0;
  ldsi_hpa_l2_snapshot(h, mark, nmark);
  for (m = 0; m < nmark; m++) {
    uint32_t cc = mark[m];
    ldsi_HpaCluster *k = &h->cl[cc];
    size_t n = cluster_entrances(h, off, cc, tmp, slots);
    bool same = n == k->n && (n == 0 || memcmp(tmp, k->cell, n * sizeof(uint32_t)) == 0);
    if (same && !(h->dirty[cc] & DIRTY_CELLS)) continue;
    h->intra_edges -= count_edges(k);
    if ((st = set_entrances(h, cc, tmp, n)) != LDS_OK) {
      ldsi_msg(h->errmsg, "%s: out of memory", fn);
      goto done;
    }
    ldsi_hpa_build_cluster(h, cc);
    h->intra_edges += count_edges(k);
    h->last_repair_clusters++;
    rebuilt[nrebuilt++] = cc;
  }
  /* inter edges point at the neighbours' entrance indices and cells: redone
  ** for every rebuilt cluster and its 8 neighbours */
  ninter = mark_box(h, rebuilt, nrebuilt, DIRTY_INTER, inter);
  for (m = 0; m < ninter; m++) {
    h->dirty[inter[m]] &= (uint8_t)~DIRTY_INTER;
    if (st == LDS_OK && ((st = ldsi_hpa_build_inter(h, inter[m])) != LDS_OK ||
                         (st = ldsi_hpa_build_edges(h, inter[m])) != LDS_OK))
      ldsi_msg(h->errmsg, "%s: out of memory", fn);
  }
  if (st != LDS_OK) goto done;
  /* the second-level clusters holding a rebuilt cluster (lds_hpa_level2.c) */
  if ((st = ldsi_hpa_l2_repair(h, rebuilt, nrebuilt, inter, ninter)) != LDS_OK) {
    ldsi_msg(h->errmsg, "%s: out of memory", fn);
    goto done;
  }
  for (m = 0; m < nmark; m++) h->dirty[mark[m]] = 0;
  h->ndirty = 0;
  h->any_dirty = false;
  h->broken = false;
  if ((st = ldsi_lm_repair(h->lm)) != LDS_OK) {
    ldsi_msg(h->errmsg, "%s: out of memory repairing the landmark tables", fn);
    h->lm_stale = true;
    goto done;
  }
  /* the entrance copies follow the tables where the repair lowered them */
  if (h->lm && (h->lm_stale || h->lm->low_all)) {
    uint32_t c;
    for (c = 0; c < h->ncl; c++) lm_copy(h, c);
    h->lm_stale = false;
  } else if (h->lm) {
    lm_refresh(h, h->lm->low.x0, h->lm->low.y0, h->lm->low.x1, h->lm->low.y1);
  }
  h->version = h->grid->version;
  h->repairs++;
  h->last_repair_us = h->env.clock(h->env.clock_ud) - t0;
  h->total_repair_us += h->last_repair_us;
done:
  if (tmp) ldsi_free(&h->env, tmp, slots * sizeof(uint32_t));
  if (mark) ldsi_free(&h->env, mark, ndirty * 9 * sizeof(uint32_t));
  if (rebuilt) ldsi_free(&h->env, rebuilt, ndirty * 9 * sizeof(uint32_t));
  if (inter) ldsi_free(&h->env, inter, ndirty * 81 * sizeof(uint32_t));
  if (st != LDS_OK) {
    h->broken = true;
    for (m = 0; m < nmark; m++) h->dirty[mark[m]] &= (uint8_t)~DIRTY_MARKED;
  }
  return st;
}

lds_Status lds_hpa_refresh(lds_Hpa *h) {
  lds_Status st;
  uint64_t t0;
  if (!h) return LDS_E_ARG;
  if ((st = lds_hpa_repair(h)) != LDS_OK) return st;
  t0 = h->env.clock(h->env.clock_ud);
  if (!ldsi_hpa_l2_refresh(h, &st)) return LDS_OK;
  if (st != LDS_OK) {
    ldsi_msg(h->errmsg, "lds_hpa_refresh: out of memory");
    return st;
  }
  /* the query ids follow the second-level entrance counts (layout) */
  h->repairs++;
  h->last_repair_clusters = 0;
  h->last_repair_us = h->env.clock(h->env.clock_ud) - t0;
  h->total_repair_us += h->last_repair_us;
  return LDS_OK;
}

/* ---------------------------------------------------------- queries -- */

size_t lds_hpa_mem_used(const lds_Hpa *h) {
  size_t b, c, cells;
  if (!h) return 0;
  cells = (size_t)h->grid->w * (size_t)h->grid->h;
  b = sizeof *h + h->ncl * (sizeof *h->cl + 1 + sizeof(uint32_t)) + cells + ldsi_hpa_local_bytes(&h->local);
  b += ldsi_lm_bytes(h->lm) + ldsi_hpa_l2_bytes(h);
  for (c = 0; c < h->ncl; c++)
    b += (h->cl[c].blk ? block_bytes(h, h->cl[c].cap) : 0) +
         (size_t)h->cl[c].cap * (((size_t)h->C * (size_t)h->C + 1) / 2) +
         h->cl[c].intercap * sizeof(ldsi_HpaInter) + h->cl[c].edgecap * sizeof(ldsi_HpaEdge);
  return b;
}

void lds_hpa_info(const lds_Hpa *h, lds_HpaInfo *out) {
  memset(out, 0, sizeof *out);
  if (!h) return;
  out->cluster_size = h->C;
  out->clusters_x = h->cw;
  out->clusters_y = h->ch;
  out->entrances = h->entrances;
  out->intra_edges = h->intra_edges;
  out->bytes = lds_hpa_mem_used(h);
  out->bytes_per_cell = (double)out->bytes / ((double)h->grid->w * (double)h->grid->h);
  out->build_us = h->build_us;
  out->repairs = h->repairs;
  out->last_repair_us = h->last_repair_us;
  out->last_repair_clusters = h->last_repair_clusters;
  out->total_repair_us = h->total_repair_us;
  out->fast_weight = h->fast_weight;
  out->band_radius = h->band_radius;
  if (h->lm) {
    out->landmarks = h->lm->k;
    out->landmark_bytes = ldsi_lm_bytes(h->lm);
    out->landmark_build_us = h->lm->build_us;
  }
  if (h->l2) {
    out->level2 = h->l2->K;
    out->level2_entrances = h->l2->entrances;
    out->level2_bytes = ldsi_hpa_l2_bytes(h);
    out->level2_build_us = h->l2->build_us;
    out->level2_stale = h->l2->nstale;
  }
}

const char *lds_hpa_errmsg(const lds_Hpa *h) { return h ? h->errmsg : ""; }
const lds_Grid *lds_hpa_grid(const lds_Hpa *h) { return h ? h->grid : NULL; }
