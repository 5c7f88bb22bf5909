/* SPDX-License-Identifier: MIT */
/*
** lds_navmesh_check.c — walking a polyline through the mesh: which
** polygons each segment crosses (neighbour links, and the polygons around
** a vertex the segment passes through), for the path checker and for the
** area-weighted cost of a path.
*/
#include "lds_navmesh_search_internal.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

/* Entries of a walk's scratch arrays kept on the stack; more (a vertex
** with more polygons round it) come from an allocator. */
#define HOLD_STACK 64
#define AROUND_STACK 256

/* A walk's scratch: the polygons holding its first point (hold for
** first_poly, starts for walk_any's other starts; room for m->hold_max
** each: every one, however many share a vertex), and around()'s
** candidates with their links, a piece of the chain and relink's queue
** (cap entries each, doubled whenever around() fills them). Allocated from
** e (the search's allocator, or the mesh's for lds_navmesh_check_path) only
** past the stack arrays. */
typedef struct WalkBuf {
  const ldsi_Env *e;
  uint32_t *hold, *starts, *cand, *par, *path, *q;
  bool *seen;
  size_t hcap, cap;
  uint32_t hold_st[HOLD_STACK], starts_st[HOLD_STACK], cand_st[AROUND_STACK], par_st[AROUND_STACK],
      path_st[AROUND_STACK], q_st[AROUND_STACK];
  bool seen_st[AROUND_STACK];
} WalkBuf;

/* Points wb at its stack arrays, hold at room for m->hold_max ids; false
** when out of memory. */
static bool wb_init(WalkBuf *wb, const lds_Navmesh *m, const ldsi_Env *e) {
  wb->e = e;
  wb->cand = wb->cand_st;
  wb->par = wb->par_st;
  wb->path = wb->path_st;
  wb->q = wb->q_st;
  wb->seen = wb->seen_st;
  wb->cap = AROUND_STACK;
  wb->hcap = m->hold_max > HOLD_STACK ? m->hold_max : HOLD_STACK;
  wb->hold = wb->hold_st;
  wb->starts = wb->starts_st;
  if (wb->hcap > HOLD_STACK) {
    wb->hold = (uint32_t *)ldsi_alloc(e, wb->hcap * sizeof(uint32_t));
    wb->starts = (uint32_t *)ldsi_alloc(e, wb->hcap * sizeof(uint32_t));
  }
  return wb->hold && wb->starts;
}

/* Frees one set of candidate arrays of cap entries (any may be NULL). */
static void cand_free(const ldsi_Env *e, uint32_t *c, uint32_t *p, uint32_t *h, uint32_t *q, bool *s,
                      size_t cap) {
  ldsi_free(e, c, cap * sizeof(uint32_t));
  ldsi_free(e, p, cap * sizeof(uint32_t));
  ldsi_free(e, h, cap * sizeof(uint32_t));
  ldsi_free(e, q, cap * sizeof(uint32_t));
  ldsi_free(e, s, cap * sizeof(bool));
}

/* Frees what wb allocated. */
static void wb_free(WalkBuf *wb) {
  if (wb->hcap > HOLD_STACK) {
    ldsi_free(wb->e, wb->hold, wb->hcap * sizeof(uint32_t));
    ldsi_free(wb->e, wb->starts, wb->hcap * sizeof(uint32_t));
  }
  if (wb->cand != wb->cand_st) cand_free(wb->e, wb->cand, wb->par, wb->path, wb->q, wb->seen, wb->cap);
}

/* Doubles the candidate arrays (their contents are not kept); false when
** out of memory (the old arrays stay). */
static bool wb_grow(WalkBuf *wb) {
  size_t nc = 2 * wb->cap;
  uint32_t *c = (uint32_t *)ldsi_alloc(wb->e, nc * sizeof(uint32_t));
  uint32_t *p = (uint32_t *)ldsi_alloc(wb->e, nc * sizeof(uint32_t));
  uint32_t *h = (uint32_t *)ldsi_alloc(wb->e, nc * sizeof(uint32_t));
  uint32_t *q = (uint32_t *)ldsi_alloc(wb->e, nc * sizeof(uint32_t));
  bool *s = (bool *)ldsi_alloc(wb->e, nc * sizeof(bool));
  if (!c || !p || !h || !q || !s) {
    cand_free(wb->e, c, p, h, q, s, nc);
    return false;
  }
  if (wb->cand != wb->cand_st) cand_free(wb->e, wb->cand, wb->par, wb->path, wb->q, wb->seen, wb->cap);
  wb->cand = c;
  wb->par = p;
  wb->path = h;
  wb->q = q;
  wb->seen = s;
  wb->cap = nc;
  return true;
}

/* Clips a + t (b - a), t in [lo, 1], against polygon p in x-z (tolerance
** tol in world units). Returns false when empty; else [*t0, *t1]. */
static bool clip(const lds_Navmesh *m, uint32_t p, const double *a, const double *b, double tol,
                 double *t0, double *t1) {
  uint32_t s = m->pstart[p], n = m->pstart[p + 1] - s, k;
  double lo = 0, hi = 1, dx = b[0] - a[0], dz = b[2] - a[2];
  for (k = 0; k < n; k++) {
    const double *u = ldsi_nm_v(m, m->pv[s + k]), *w = ldsi_nm_v(m, m->pv[s + (k + 1) % n]);
    double ex = w[0] - u[0], ez = w[2] - u[2];
    double c0 = ex * (a[2] - u[2]) - ez * (a[0] - u[0]) - tol * hypot(ex, ez);
    double c1 = ex * dz - ez * dx;
    if (c1 == 0) {
      if (c0 > 0) return false;
    } else if (c1 > 0) {
      hi = fmin(hi, -c0 / c1);
    } else {
      lo = fmax(lo, -c0 / c1);
    }
    if (lo > hi) return false;
  }
  *t0 = lo;
  *t1 = hi;
  return true;
}

/* Polygons reachable from cur where segment a-b leaves it at parameter t
** (point q): when the segment passes a vertex of cur there (within 4 tol of
** the line, near t), every polygon around that vertex (through the edges
** that touch it); else the polygons across edges of cur through q, and on
** from them. Writes up to cap ids into out, cur first, and into par the
** index in out of the polygon each was reached from (through a shared
** edge; par[0] unused). */
static size_t around(const lds_Navmesh *m, uint32_t cur, const double *a, const double *b,
                     double t, const double *q, double tol, uint32_t *out, uint32_t *par,
                     size_t cap) {
  size_t n = 0, head = 0;
  uint32_t s0 = m->pstart[cur], n0 = m->pstart[cur + 1] - s0, k, vert = LDS_NAVMESH_NONE;
  double dx = b[0] - a[0], dz = b[2] - a[2], l2 = dx * dx + dz * dz, len = sqrt(l2);
  double bd = INFINITY;
  for (k = 0; k < n0 && l2 > 0; k++) {
    const double *v = ldsi_nm_v(m, m->pv[s0 + k]);
    double tv = ((v[0] - a[0]) * dx + (v[2] - a[2]) * dz) / l2;
    double off = fabs((v[0] - a[0]) * dz - (v[2] - a[2]) * dx) / len;
    double along = fabs(tv - t) * len;
    if (off <= 4 * tol && along <= 1e-3 * (1 + len) && along < bd) {
      bd = along;
      vert = m->pv[s0 + k];
    }
  }
  out[n++] = cur;
  while (head < n) {
    uint32_t p = out[head++], s = m->pstart[p], nk = m->pstart[p + 1] - s;
    for (k = 0; k < nk; k++) {
      const double *u = ldsi_nm_v(m, m->pv[s + k]), *w = ldsi_nm_v(m, m->pv[s + (k + 1) % nk]);
      uint32_t r = m->pn[s + k];
      size_t i;
      bool dup = false;
      if (r == LDS_NAVMESH_NONE) continue;
      if (vert == LDS_NAVMESH_NONE ||
          (m->pv[s + k] != vert && m->pv[s + (k + 1) % nk] != vert)) {
        double ex = w[0] - u[0], ez = w[2] - u[2], e2 = ex * ex + ez * ez, te, px, pz;
        te = e2 > 0 ? ((q[0] - u[0]) * ex + (q[2] - u[2]) * ez) / e2 : 0;
        te = te < 0 ? 0 : te > 1 ? 1 : te;
        px = u[0] + te * ex - q[0];
        pz = u[2] + te * ez - q[2];
        /* clip lets q lie up to tol outside cur: look a little further */
        if (px * px + pz * pz > 16 * tol * tol) continue; /* q is not on this edge */
      }
      for (i = 0; i < n; i++) dup |= out[i] == r;
      if (!dup && n < cap) {
        par[n] = (uint32_t)(head - 1);
        out[n++] = r;
      }
    }
  }
  return n;
}

/* Appends polygon p to the chain in *polys (grown with env e); false when
** out of memory. */
static bool chain_push(const ldsi_Env *e, uint32_t **polys, size_t *cap, size_t *n, uint32_t p) {
  if (*n && (*polys)[*n - 1] == p) return true;
  if (*n == *cap) {
    size_t nc = *cap ? 2 * *cap : 64;
    uint32_t *q = (uint32_t *)ldsi_realloc(e, *polys, *cap * sizeof(uint32_t), nc * sizeof(uint32_t));
    if (!q) return false;
    *polys = q;
    *cap = nc;
  }
  (*polys)[(*n)++] = p;
  return true;
}

/* Re-links the polygons cand[0..nc-1] found by around() through allowed
** polygons only (breadth first from cand[0] over the shared edges between
** them), where such a link exists: par[j] the index cand[j] is reached
** from. A polygon reached only through blocked ones keeps its link. q and
** seen: room for nc entries. */
static void relink(const lds_Navmesh *m, const uint32_t *cand, size_t nc, uint32_t *par,
                   const double *cost, uint32_t *q, bool *seen) {
  size_t head = 0, tail = 0, j;
  memset(seen, 0, nc * sizeof(bool));
  seen[0] = true;
  q[tail++] = 0;
  while (head < tail) {
    uint32_t u = q[head++], s0 = m->pstart[cand[u]], n0 = m->pstart[cand[u] + 1] - s0, k;
    for (k = 0; k < n0; k++) {
      uint32_t r = m->pn[s0 + k];
      if (r == LDS_NAVMESH_NONE || !isfinite(cost[m->area[r]])) continue;
      for (j = 1; j < nc; j++)
        if (!seen[j] && cand[j] == r) {
          seen[j] = true;
          par[j] = u;
          q[tail++] = (uint32_t)j;
        }
    }
  }
}

/* The polygon the first segment a-b leaves its start in: p0 when it
** holds the segment's beginning (p0 allowed, the segment in it past its
** start), else, over the allowed polygons holding a on p0's level (a
** start on an edge or a vertex: a blocked polygon there, or a polygon
** touching p0 only at a vertex), the one holding the longest beginning of
** the segment (lowest id on ties); but when none holds more than a touch
** of it (8 tol) and a blocked one does, the blocked one holding the
** longest beginning (the walk then reports the segment crossing it); p0
** when none does. A segment of length 0 (in x-z) stays in p0 when p0 is
** allowed. hold: room for hcap (m->hold_max) polygon ids. */
static uint32_t first_poly(const lds_Navmesh *m, uint32_t p0, const double *a, const double *b,
                           double tol, const double *cost, uint32_t *hold, uint32_t hcap) {
  uint32_t n, i, best = p0, blocked = LDS_NAVMESH_NONE;
  double t0, t1, bt1 = 0, kt1 = 0, x[3];
  /* a beginning shorter than 8 tol is the segment only touching p0 at a */
  const double sl = hypot(b[0] - a[0], b[2] - a[2]), tmin = sl > 0 ? 8 * tol / sl : -1;
  if ((!cost || isfinite(cost[m->area[p0]])) && clip(m, p0, a, b, tol, &t0, &t1) && t0 <= 1e-9 &&
      t1 > tmin)
    return p0;
  x[0] = a[0];
  x[1] = lds_navmesh_poly_height(m, p0, a[0], a[2]);
  x[2] = a[2];
  n = ldsi_navmesh_holders(m, x, p0, hold, hcap);
  for (i = 0; i < n; i++) {
    if (!clip(m, hold[i], a, b, tol, &t0, &t1) || t0 > 1e-9) continue;
    if (cost && !isfinite(cost[m->area[hold[i]]])) {
      if (t1 > tmin && t1 > kt1) {
        blocked = hold[i];
        kt1 = t1;
      }
      continue;
    }
    if (best == p0 || t1 > bt1) {
      best = hold[i];
      bt1 = t1;
    }
  }
  /* no allowed polygon holds more than a touch of the segment but a blocked
  ** one does: the segment goes into the blocked one holding the longest
  ** beginning of it (the walk names it) */
  if (blocked != LDS_NAVMESH_NONE && (best == p0 || bt1 <= tmin)) return blocked;
  return best;
}

/* The polygon a cheap walk (see walk) goes on in at parameter t of
** segment a-b: of the allowed candidates cand[from..nc-1] holding the
** segment from t on (clip), those holding more than tmin of it beyond t,
** the cheapest, then the one reaching furthest; when none holds that much,
** the one reaching furthest past t. Writes its reach to *reach and
** returns its index in cand, or nc when none reaches past t. */
static size_t cheapest(const lds_Navmesh *m, const uint32_t *cand, size_t from, size_t nc,
                       const double *a, const double *b, double t, double tmin, double tol,
                       const double *cost, double *reach) {
  size_t j, bj = nc, fj = nc;
  double bc = INFINITY, bu = t + 1e-12, fu = t + 1e-12;
  for (j = from; j < nc; j++) {
    double u0, u1, c = cost[m->area[cand[j]]];
    if (!isfinite(c) || !clip(m, cand[j], a, b, tol, &u0, &u1) || u0 > t + 1e-9) continue;
    if (u1 > fu) {
      fu = u1;
      fj = j;
    }
    if (u1 > t + tmin && (c < bc || (c == bc && u1 > bu))) {
      bc = c;
      bu = u1;
      bj = j;
    }
  }
  if (bj == nc) {
    *reach = fu;
    return fj;
  }
  *reach = bu;
  return bj;
}

/* ldsi_nav_walk; with e non-NULL also the chain of polygons the walk
** passes into *polys (see ldsi_nav_walk_chain). With htol >= 0 every point
** after the first must lie within htol of the surface of the polygon the
** walk reaches it in (the first one was located with that tolerance). wb:
** the scratch (its hold and candidate arrays). cheap (cost given, e NULL,
** for the cost alone): at the start of each segment and wherever the
** polygon it is in ends, the walk goes on in the cheapest allowed polygon
** round that point holding the segment on (function cheapest), not the
** one reaching furthest, so a piece on the shared edge of two allowed
** polygons is charged at the cheaper one. */
static lds_Status walk(const lds_Navmesh *m, const double *pts, size_t n, uint32_t p0,
                       const double *cost, double *length, double *wcost, char *msg,
                       const ldsi_Env *e, uint32_t **polys, size_t *pcap, size_t *npolys,
                       double htol, WalkBuf *wb, bool cheap) {
  uint32_t cur = p0;
  double len = 0, wc = 0, tol = 16 * m->eps;
  size_t i;
  if (msg) msg[0] = '\0';
  if (e) {
    *npolys = 0;
    if (!chain_push(e, polys, pcap, npolys, p0)) return LDS_E_NOMEM;
  }
  for (i = 1; i < n; i++) {
    const double *a = pts + 3 * (i - 1), *b = pts + 3 * i;
    double seg = sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) +
                      (b[2] - a[2]) * (b[2] - a[2]));
    double t = 0, t0, t1;
    int guard = 0;
    len += seg;
    const double sl = hypot(b[0] - a[0], b[2] - a[2]), tmin = sl > 0 ? 8 * tol / sl : 1;
    if (i == 1) cur = first_poly(m, cur, a, b, tol, cost, wb->hold, (uint32_t)wb->hcap);
    if (e && i == 1) (*polys)[0] = cur;
    if (cheap && sl > 0) { /* the cheapest polygon round a holding the segment on */
      size_t nc, j;
      double r;
      while ((nc = around(m, cur, a, b, 0, a, tol, wb->cand, wb->par, wb->cap)) == wb->cap &&
             wb_grow(wb))
        ;
      j = cheapest(m, wb->cand, 0, nc, a, b, 0, tmin, tol, cost, &r);
      if (j < nc) cur = wb->cand[j];
    }
    if (!clip(m, cur, a, b, tol, &t0, &t1) || t0 > t + 1e-9) {
      if (msg)
        snprintf(msg, LDS_ERRMSG_SIZE, "point %zu (%g, %g, %g) is not in polygon %u where the "
                 "path arrives", i - 1, a[0], a[1], a[2], cur);
      return LDS_E_ARG;
    }
    for (;;) {
      double c = cost ? cost[m->area[cur]] : 1.0, q[3], best_t1 = t1;
      uint32_t best = LDS_NAVMESH_NONE, bj = 0;
      size_t nc, j;
      if (!isfinite(c)) {
        if (msg)
          snprintf(msg, LDS_ERRMSG_SIZE, "segment %zu crosses polygon %u of blocked area %u",
                   i - 1, cur, m->area[cur]);
        return LDS_E_ARG;
      }
      if (t1 >= 1 - 1e-12) {
        wc += (1 - t) * seg * c;
        break;
      }
      wc += (t1 - t) * seg * c;
      t = t1;
      q[0] = a[0] + t * (b[0] - a[0]);
      q[1] = 0;
      q[2] = a[2] + t * (b[2] - a[2]);
      /* full arrays may have left polygons out (a vertex with more round
      ** it): again with room for twice as many */
      while ((nc = around(m, cur, a, b, t, q, tol, wb->cand, wb->par, wb->cap)) == wb->cap)
        if (!wb_grow(wb)) {
          if (msg)
            snprintf(msg, LDS_ERRMSG_SIZE, "out of memory (%zu polygons round a point of segment %zu)",
                     2 * wb->cap, i - 1);
          return LDS_E_NOMEM;
        }
      if (cheap) {
        j = cheapest(m, wb->cand, 1, nc, a, b, t, tmin, tol, cost, &best_t1);
        if (j < nc) best = wb->cand[j];
      } else {
        for (j = 1; j < nc; j++) {
          const uint32_t *cand = wb->cand;
          double u0, u1;
          if (cost && !isfinite(cost[m->area[cand[j]]])) continue;
          if (!clip(m, cand[j], a, b, tol, &u0, &u1)) continue;
          if (u0 <= t + 1e-9 && u1 > best_t1 + 1e-12) {
            best_t1 = u1;
            best = cand[j];
            bj = (uint32_t)j;
          }
        }
      }
      if (best == LDS_NAVMESH_NONE || ++guard > 1000000) {
        if (msg)
          snprintf(msg, LDS_ERRMSG_SIZE, "segment %zu leaves the mesh at (%g, %g) (polygon %u)",
                   i - 1, q[0], q[2], cur);
        return LDS_E_ARG;
      }
      if (e) { /* the polygons linking cur to best through shared edges */
        size_t k = 0;
        if (cost) relink(m, wb->cand, nc, wb->par, cost, wb->q, wb->seen);
        for (j = bj; j != 0; j = wb->par[j]) wb->path[k++] = wb->cand[j];
        while (k)
          if (!chain_push(e, polys, pcap, npolys, wb->path[--k])) return LDS_E_NOMEM;
      }
      cur = best;
      t1 = best_t1;
    }
    if (htol >= 0) {
      double h = lds_navmesh_poly_height(m, cur, b[0], b[2]), dy = b[1] - h;
      if (!(fabs(dy) <= htol + m->eps)) { /* m->eps: see lds_navmesh_check_path */
        if (msg)
          snprintf(msg, LDS_ERRMSG_SIZE, "point %zu (%g, %g, %g) is %g %s the surface of polygon "
                   "%u (height %g there; expected within height_tol %g)", i, b[0], b[1], b[2],
                   fabs(dy), dy > 0 ? "above" : "below", cur, h, htol);
        return LDS_E_ARG;
      }
    }
  }
  if (length) *length = len;
  if (wcost) *wcost = wc;
  return LDS_OK;
}

/* True when every allowed area id (cost: 256 entries) costs the same, so
** that every walk through allowed polygons is charged alike. */
static bool one_cost(const double *cost) {
  double c0 = NAN;
  int i;
  for (i = 0; i < 256; i++) {
    if (!isfinite(cost[i])) continue;
    if (c0 != cost[i] && !isnan(c0)) return false;
    c0 = cost[i];
  }
  return true;
}

/* walk from p0; when that fails (LDS_E_ARG), from each other allowed
** polygon holding the first point (ldsi_navmesh_holders: on an edge or a
** vertex of p0, all of them), ascending, the first walk that succeeds
** kept; else p0's answer (its message). Scratch past the stack comes from
** e, or the mesh's allocator without one. */
static lds_Status walk_any(const lds_Navmesh *m, const double *pts, size_t n, uint32_t p0,
                           const double *cost, double *length, double *wcost, char *msg,
                           const ldsi_Env *e, uint32_t **polys, size_t *pcap, size_t *npolys,
                           double htol) {
  uint32_t nh, i;
  double x[3];
  WalkBuf wb;
  lds_Status st;
  if (!wb_init(&wb, m, e ? e : &m->env)) {
    wb_free(&wb);
    if (msg)
      snprintf(msg, LDS_ERRMSG_SIZE, "out of memory (%u polygons round a point)", m->hold_max);
    return LDS_E_NOMEM;
  }
  st = walk(m, pts, n, p0, cost, length, wcost, msg, e, polys, pcap, npolys, htol, &wb, false);
  if (st != LDS_E_ARG || n == 0) goto done;
  x[0] = pts[0];
  x[1] = lds_navmesh_poly_height(m, p0, pts[0], pts[2]);
  x[2] = pts[2];
  nh = ldsi_navmesh_holders(m, x, p0, wb.starts, (uint32_t)wb.hcap);
  for (i = 0; i < nh; i++) {
    const uint32_t h = wb.starts[i];
    if (h == p0 || (cost && !isfinite(cost[m->area[h]]))) continue;
    st = walk(m, pts, n, h, cost, length, wcost, NULL, e, polys, pcap, npolys, htol, &wb, false);
    if (st != LDS_E_ARG) {
      if (msg) msg[0] = '\0';
      goto done;
    }
  }
  /* p0's walk again: its message and outputs */
  st = walk(m, pts, n, p0, cost, length, wcost, msg, e, polys, pcap, npolys, htol, &wb, false);
done:
  if (st == LDS_OK && wcost && cost && !e && !one_cost(cost)) {
    /* the cost: the cheaper of this walk's and the cheap walk's (which,
    ** where pieces lie on edges between polygons, takes the cheaper side) */
    double w2;
    if (walk(m, pts, n, p0, cost, NULL, &w2, NULL, NULL, NULL, NULL, NULL, -1, &wb, true) == LDS_OK &&
        w2 < *wcost)
      *wcost = w2;
  }
  wb_free(&wb);
  return st;
}

lds_Status ldsi_nav_walk(const lds_Navmesh *m, const double *pts, size_t n, uint32_t p0,
                         const double *cost, double *length, double *wcost, char *msg) {
  return walk_any(m, pts, n, p0, cost, length, wcost, msg, NULL, NULL, NULL, NULL, -1);
}

lds_Status ldsi_nav_walk_chain(const lds_Navmesh *m, const ldsi_Env *e, const double *pts,
                               size_t n, uint32_t p0, const double *cost, uint32_t **polys,
                               size_t *pcap, size_t *npolys, char *msg) {
  return walk_any(m, pts, n, p0, cost, NULL, NULL, msg, e, polys, pcap, npolys, -1);
}

lds_Status lds_navmesh_check_path(const lds_Navmesh *m, const double *pts, size_t n,
                                  double height_tol, const double *area_costs,
                                  size_t n_area_costs, double *length, double *cost, char *msg) {
  double c[256], tol;
  uint32_t p0;
  size_t i;
  if (msg) msg[0] = '\0';
  if (!m || (!pts && n)) {
    if (msg) snprintf(msg, LDS_ERRMSG_SIZE, "lds_navmesh_check_path: mesh or pts is NULL");
    return LDS_E_ARG;
  }
  if (n == 0) {
    if (msg) snprintf(msg, LDS_ERRMSG_SIZE, "lds_navmesh_check_path: empty path");
    return LDS_E_ARG;
  }
  for (i = 0; i < 3 * n; i++)
    if (!isfinite(pts[i])) {
      if (msg) snprintf(msg, LDS_ERRMSG_SIZE, "point %zu is not finite", i / 3);
      return LDS_E_ARG;
    }
  for (i = 0; i < 256; i++) c[i] = area_costs && i < n_area_costs ? area_costs[i] : 1.0;
  /* heights within height_tol, plus the rounding of points computed on the
  ** surface (1e-9 of the mesh's size, its tolerance in x-z) */
  tol = height_tol >= 0 ? height_tol : -1;
  p0 = lds_navmesh_locate(m, pts[0], pts[1], pts[2], tol >= 0 ? tol + m->eps : -1);
  if (p0 == LDS_NAVMESH_NONE) {
    uint32_t q = tol >= 0 ? lds_navmesh_locate(m, pts[0], pts[1], pts[2], -1) : LDS_NAVMESH_NONE;
    if (msg && q != LDS_NAVMESH_NONE) { /* on the mesh in x-z: the level nearest in height */
      double h = lds_navmesh_poly_height(m, q, pts[0], pts[2]), dy = pts[1] - h;
      snprintf(msg, LDS_ERRMSG_SIZE, "point 0 (%g, %g, %g) is %g %s the surface of polygon %u "
               "(height %g there; expected within height_tol %g)", pts[0], pts[1], pts[2],
               fabs(dy), dy > 0 ? "above" : "below", q, h, tol);
    } else if (msg) {
      snprintf(msg, LDS_ERRMSG_SIZE, "point 0 (%g, %g, %g) is not on the mesh", pts[0], pts[1], pts[2]);
    }
    return LDS_E_ARG;
  }
  return walk_any(m, pts, n, p0, c, length, cost, msg, NULL, NULL, NULL, NULL, tol);
}
