/* SPDX-License-Identifier: MIT */
/*
** lds_funnel.c — the funnel algorithm (string pulling) over a corridor of
** portals: Lee & Preparata (Networks 14, 1984) in the "simple stupid
** funnel" form (M. Mononen, 2010), in the x-z plane, with straight-on
** corners dropped as they are emitted (recastnavigation#515).
*/
#include "lds_internal.h"
#include "lds_navmesh.h"

#include <string.h>

/* cross(b - a, c - a) in x-z: > 0 when c is counter-clockwise of b seen
** from a (in the x-z frame), i.e. "to the left". */
static double side(const double *a, const double *b, const double *c) {
  return (b[0] - a[0]) * (c[2] - a[2]) - (b[2] - a[2]) * (c[0] - a[0]);
}

static bool same_xz(const double *a, const double *b) { return a[0] == b[0] && a[2] == b[2]; }

/* p strictly between the ends of portal (l, r) in x-z, within 1e-13 of its
** length squared off its line. */
static bool on_portal(const double *p, const double *l, const double *r) {
  double len = fabs(r[0] - l[0]) + fabs(r[2] - l[2]);
  double dot = (l[0] - p[0]) * (r[0] - p[0]) + (l[2] - p[2]) * (r[2] - p[2]);
  return dot < 0 && fabs(side(l, r, p)) <= 1e-13 * len * len;
}

typedef struct Out {
  double *buf;
  size_t cap, n;
  double prev[3], last[3]; /* the last two points emitted (prev valid when n >= 2) */
} Out;

static void out_set(Out *o, size_t i, const double *p) {
  if (o->buf && i < o->cap) memcpy(o->buf + 3 * i, p, 3 * sizeof(double));
}

/* Appends p, dropping it if it repeats the last point and replacing the last
** point if it lies straight on between prev and p. */
static void emit(Out *o, const double *p) {
  if (o->n >= 1 && same_xz(o->last, p)) return;
  if (o->n >= 2) {
    double ux = o->last[0] - o->prev[0], uz = o->last[2] - o->prev[2];
    double wx = p[0] - o->last[0], wz = p[2] - o->last[2];
    double c = ux * wz - uz * wx, d = ux * wx + uz * wz;
    if (fabs(c) <= 1e-12 * (fabs(ux) + fabs(uz)) * (fabs(wx) + fabs(wz)) && d > 0) {
      memcpy(o->last, p, sizeof o->last);
      out_set(o, o->n - 1, p);
      return;
    }
  }
  memcpy(o->prev, o->last, sizeof o->prev);
  memcpy(o->last, p, sizeof o->last);
  out_set(o, o->n, p);
  o->n++;
}

static bool finite3(const double *p) {
  return isfinite(p[0]) && isfinite(p[1]) && isfinite(p[2]);
}

lds_Status lds_funnel(const double start[3], const double goal[3], const lds_Portal *portals,
                      size_t n, double *out, size_t cap, size_t *n_out) {
  Out o;
  double apex[3], left[3], right[3];
  size_t i, li = 0, ri = 0, ai = 0;
  if (!start || !goal || !n_out || (n && !portals)) return LDS_E_ARG;
  *n_out = 0;
  if (!finite3(start) || !finite3(goal)) return LDS_E_ARG;
  for (i = 0; i < n; i++)
    if (!finite3(portals[i].left) || !finite3(portals[i].right)) return LDS_E_ARG;
  memset(&o, 0, sizeof o);
  o.buf = out;
  o.cap = cap;
  emit(&o, start);
  memcpy(apex, start, sizeof apex);
  memcpy(left, start, sizeof left);
  memcpy(right, start, sizeof right);
  /* portal index i in 0..n; i == n is the goal as a zero-length portal.
  ** ai/li/ri are "portal index + 1" of apex, left and right (0 = start). */
  for (i = 0; i <= n; i++) {
    const double *pl = i < n ? portals[i].left : goal;
    const double *pr = i < n ? portals[i].right : goal;
    /* an apex inside the portal (a start on the edge it leaves by) with the
    ** funnel not yet open: the next polygon is convex and holds the apex on
    ** its boundary, so the portal bounds nothing (taking its ends as the
    ** funnel's sides would open a straight angle whose sides cross) */
    if (i < n && same_xz(apex, left) && same_xz(apex, right) && on_portal(apex, pl, pr)) continue;
    /* right side: pr at or left of the current right tightens the funnel */
    if (side(apex, right, pr) >= 0) {
      if (same_xz(apex, right) || side(apex, left, pr) < 0) {
        memcpy(right, pr, sizeof right);
        ri = i + 1;
      } else { /* pr crosses the left side: left is a corner */
        emit(&o, left);
        memcpy(apex, left, sizeof apex);
        ai = li;
        memcpy(right, apex, sizeof right);
        ri = ai;
        i = ai; /* the loop's i++ continues at portal ai (index ai - 1 + 1) */
        i--;
        continue;
      }
    }
    /* left side: pl at or right of the current left tightens the funnel */
    if (side(apex, left, pl) <= 0) {
      if (same_xz(apex, left) || side(apex, right, pl) > 0) {
        memcpy(left, pl, sizeof left);
        li = i + 1;
      } else { /* pl crosses the right side: right is a corner */
        emit(&o, right);
        memcpy(apex, right, sizeof apex);
        ai = ri;
        memcpy(left, apex, sizeof left);
        li = ai;
        i = ai;
        i--;
        continue;
      }
    }
  }
  emit(&o, goal);
  /* the goal's own y even when it merged into the last corner */
  if (o.n >= 1 && same_xz(o.last, goal)) out_set(&o, o.n - 1, goal);
  *n_out = o.n;
  return o.n > cap ? LDS_E_LIMIT : LDS_OK;
}
