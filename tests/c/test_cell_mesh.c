/* SPDX-License-Identifier: MIT */
/*
** test_cell_mesh.c — the random cell meshes of the navmesh tests
** (cell_mesh.h), and their check: the same seed gives the same mesh, a
** polygon per free square cell or two per triangulated one, every cell's
** reported area on its polygons, and a grid with every cell blocked gives
** no mesh.
*/
#include "cell_mesh.h"

#include "harness.h"

#include <stdlib.h>
#include <string.h>

uint32_t tcm_rnd(TcmRng *r) {
  r->s = r->s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(r->s >> 33);
}

double tcm_unit(TcmRng *r) { return (tcm_rnd(r) & 0xffffff) / 16777216.0; }

lds_Navmesh *tcm_make(TcmRng *g, int w, int h, int blocked_pct, TcmArea area, void *ud,
                      int *cells) {
  size_t nc = (size_t)w * (size_t)h;
  double *v;
  uint32_t *idx, *st, np = 0, ni = 0;
  uint8_t *ar;
  int *blocked, x, y, changed = 1;
  lds_NavmeshDesc d;
  lds_Error err;
  lds_Navmesh *m = NULL;
  if (w < 1 || h < 1 || w > 64 || h > 64) return NULL;
  v = malloc((size_t)(w + 1) * (size_t)(h + 1) * 3 * sizeof *v);
  idx = malloc(nc * 6 * sizeof *idx);
  st = malloc((nc * 2 + 1) * sizeof *st);
  ar = malloc(nc * 2);
  blocked = malloc(nc * sizeof *blocked);
  if (!v || !idx || !st || !ar || !blocked) goto done;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) blocked[y * w + x] = (int)(tcm_rnd(g) % 100) < blocked_pct;
  while (changed) {
    changed = 0;
    for (y = 0; y + 1 < h; y++)
      for (x = 0; x + 1 < w; x++) {
        int *r0 = blocked + y * w + x, *r1 = r0 + w;
        if ((r0[0] && r1[1] && !r0[1] && !r1[0]) || (r0[1] && r1[0] && !r0[0] && !r1[1])) {
          r0[0] = r0[1] = 0;
          changed = 1;
        }
      }
  }
  for (y = 0; y <= h; y++)
    for (x = 0; x <= w; x++) {
      double *p = v + 3 * (y * (w + 1) + x);
      p[0] = x, p[1] = 0, p[2] = y;
    }
  st[0] = 0;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      uint32_t a = (uint32_t)(y * (w + 1) + x), b = a + 1, c = a + (uint32_t)w + 1, e = c + 1;
      uint32_t draw = tcm_rnd(g);
      uint8_t ca = area ? area(draw, ud) : 0;
      if (cells) cells[y * w + x] = blocked[y * w + x] ? -1 : ca;
      if (blocked[y * w + x]) continue;
      if (tcm_rnd(g) % 2) {
        idx[ni++] = a, idx[ni++] = c, idx[ni++] = e, idx[ni++] = b;
        ar[np] = ca, st[++np] = ni;
      } else {
        idx[ni++] = a, idx[ni++] = c, idx[ni++] = e;
        ar[np] = ca, st[++np] = ni;
        idx[ni++] = a, idx[ni++] = e, idx[ni++] = b;
        ar[np] = ca, st[++np] = ni;
      }
    }
  if (np == 0) goto done;
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = (uint32_t)((w + 1) * (h + 1));
  d.poly_verts = idx;
  d.poly_start = st;
  d.n_polys = np;
  d.areas = ar;
  m = lds_navmesh_new(NULL, &d, &err);
done:
  free(v);
  free(idx);
  free(st);
  free(ar);
  free(blocked);
  return m;
}

static uint8_t half(uint32_t draw, void *ud) {
  (void)ud;
  return (uint8_t)(draw % 2);
}

static void test_cell_meshes(void) {
  int cells[12 * 9], again[12 * 9], i, free_cells = 0, npolys_expected_min;
  TcmRng a = {99}, b = {99};
  lds_Navmesh *m1 = tcm_make(&a, 12, 9, 20, half, NULL, cells);
  lds_Navmesh *m2 = tcm_make(&b, 12, 9, 20, half, NULL, again);
  CHECK(m1 != NULL && m2 != NULL);
  if (!m1 || !m2) return;
  CHECK(memcmp(cells, again, sizeof cells) == 0);
  CHECK_INT(lds_navmesh_poly_count(m1), lds_navmesh_poly_count(m2));
  for (i = 0; i < 12 * 9; i++) free_cells += cells[i] >= 0;
  npolys_expected_min = free_cells;
  CHECK(free_cells > 12 * 9 / 2);
  CHECK((int)lds_navmesh_poly_count(m1) >= npolys_expected_min);
  CHECK((int)lds_navmesh_poly_count(m1) <= 2 * free_cells);
  for (i = 0; i < (int)lds_navmesh_poly_count(m1); i++) {
    const uint32_t *pv;
    uint32_t n = lds_navmesh_poly(m1, (uint32_t)i, &pv, NULL), k;
    double cx = 0, cz = 0, xyz[3];
    for (k = 0; k < n; k++) {
      lds_navmesh_vertex(m1, pv[k], xyz);
      cx += xyz[0] / n, cz += xyz[2] / n;
    }
    CHECK_INT(lds_navmesh_poly_area(m1, (uint32_t)i), cells[(int)cz * 12 + (int)cx]);
  }
  lds_navmesh_free(m1);
  lds_navmesh_free(m2);
  {
    TcmRng c = {5};
    CHECK(tcm_make(&c, 4, 4, 100, NULL, NULL, NULL) == NULL);
    CHECK(tcm_make(&c, 0, 4, 0, NULL, NULL, NULL) == NULL);
  }
}

void suite_cell_mesh(void);
void suite_cell_mesh(void) { test_cell_meshes(); }
