/* SPDX-License-Identifier: MIT */
/*
** mesh_build.c — `lodestar mesh-build MAP.map -o OUT.nav`: the exact
** navigation mesh of a grid map's free space (lds_grid_to_navmesh), written
** in the .nav format of shared/data/navmesh/README.md, with its polygon
** count and build time; --poly FILE compares the traced outline
** (lds_grid_outline) with a .poly file ring by ring.
*/
#include "util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define CMD "mesh-build"

static void usage(FILE *f) {
  fprintf(f,
          "usage: lodestar mesh-build MAP.map -o OUT.nav [--max-verts N] [--poly FILE.poly]\n"
          "                           [--json]\n"
          "Builds the exact navigation mesh of a Moving AI map's free space (the union of\n"
          "its passable cells as closed squares; two cells touching only at a corner are\n"
          "not joined there) and writes it as a .nav file: world x = map x, world z = map\n"
          "y, y = 0, so cell (x, y) is [x, x+1] x [y, y+1] and its centre (x+.5, 0, y+.5).\n"
          "Prints the polygon and vertex counts and the build time.\n"
          "  -o FILE          the .nav file to write ('-' for standard output)\n"
          "  --max-verts N    most vertices of one polygon, 4..64 (default 64)\n"
          "  --poly FILE      compare the traced outline of the free space with FILE's\n"
          "                   rings (shared/data/navmesh/2d/MAP.poly): exit 1 if they differ;\n"
          "                   a FILE without the 'poly' header or without rings, or with\n"
          "                   lines other than c, o, h and #, is bad input\n"
          "  --json           print one JSON object as the last line\n"
          "Each option may be given once. Exit status: 0 built (and outlines equal), 1\n"
          "outlines differ, 2 bad input.\n");
}

/* A ring: n points x y. */
typedef struct Ring {
  int32_t *xy;
  size_t n;
} Ring;

/* Rotates r to its lexicographically smallest rotation (a canonical form
** independent of the starting corner). */
static void canon(Ring *r) {
  size_t best = 0, s, k, n = r->n;
  int32_t *t;
  for (s = 1; s < n; s++) {
    for (k = 0; k < n; k++) {
      int32_t ax = r->xy[2 * ((best + k) % n)], ay = r->xy[2 * ((best + k) % n) + 1];
      int32_t bx = r->xy[2 * ((s + k) % n)], by = r->xy[2 * ((s + k) % n) + 1];
      if (ay != by || ax != bx) {
        if (by < ay || (by == ay && bx < ax)) best = s;
        break;
      }
    }
  }
  t = (int32_t *)malloc(2 * n * sizeof(int32_t));
  if (!t) return;
  for (k = 0; k < n; k++) {
    t[2 * k] = r->xy[2 * ((best + k) % n)];
    t[2 * k + 1] = r->xy[2 * ((best + k) % n) + 1];
  }
  memcpy(r->xy, t, 2 * n * sizeof(int32_t));
  free(t);
}

static int ring_cmp(const void *a, const void *b) {
  const Ring *x = (const Ring *)a, *y = (const Ring *)b;
  size_t k;
  if (x->n != y->n) return x->n < y->n ? -1 : 1;
  for (k = 0; k < 2 * x->n; k++)
    if (x->xy[k] != y->xy[k]) return x->xy[k] < y->xy[k] ? -1 : 1;
  return 0;
}

/* Reads the rings of a .poly file (o and h lines) into *rings; returns the
** count, or -1 after printing the error. */
static long read_poly(const char *path, Ring **rings) {
  FILE *f = fopen(path, "r");
  char *line = NULL;
  size_t cap = 0, nr = 0, rc = 0;
  long lineno = 0;
  bool header = false;
  if (!f) return cli_fail(CMD, "--poly: cannot open '%s'", path) ? -1 : -1;
  *rings = NULL;
  for (;;) {
    size_t len = 0;
    int ch;
    /* one line, any length */
    while ((ch = fgetc(f)) != EOF && ch != '\n') {
      if (len + 2 > cap) {
        char *nl = (char *)realloc(line, cap ? 2 * cap : 4096);
        if (!nl) goto nomem;
        line = nl;
        cap = cap ? 2 * cap : 4096;
      }
      line[len++] = (char)ch;
    }
    if (ch == EOF && len == 0) break;
    if (!line) {
      line = (char *)malloc(4096);
      if (!line) goto nomem;
      cap = 4096;
    }
    line[len] = '\0';
    lineno++;
    if (len && line[len - 1] == '\r') line[--len] = '\0';
    {
      const char *t = line;
      while (*t == ' ' || *t == '\t') t++;
      if (*t == '\0' || *t == '#') {
        if (ch == EOF) break;
        continue;
      }
      if (!header) { /* the first line that is not blank or a comment */
        if (strncmp(t, "poly ", 5) != 0) { /* no rings yet */
          cli_fail(CMD, "--poly: %s:%ld: expected the .poly header 'poly 1 ...' (got '%.40s')",
                   path, lineno, t);
          fclose(f);
          free(line);
          return -1;
        }
        header = true;
        if (ch == EOF) break;
        continue;
      }
      if (!((line[0] == 'o' || line[0] == 'h' || line[0] == 'c') && line[1] == ' ')) {
        cli_fail(CMD, "--poly: %s:%ld: unknown line '%.40s' (expected c, o, h or #)", path,
                 lineno, t);
        fclose(f);
        free(line);
        for (rc = 0; rc < nr; rc++) free((*rings)[rc].xy);
        free(*rings);
        *rings = NULL;
        return -1;
      }
    }
    if ((line[0] == 'o' || line[0] == 'h') && line[1] == ' ') {
      char *p = line + 2, *end;
      long n = strtol(p, &end, 10), k;
      Ring r;
      if (end == p || n < 3) {
        fclose(f);
        free(line);
        return cli_fail(CMD, "%s:%ld: expected 'o|h N x0 y0 ...' with N >= 3", path, lineno),
               -1;
      }
      r.n = (size_t)n;
      r.xy = (int32_t *)malloc(2 * r.n * sizeof(int32_t));
      if (!r.xy) goto nomem;
      p = end;
      for (k = 0; k < 2 * n; k++) {
        long v = strtol(p, &end, 10);
        if (end == p) {
          free(r.xy);
          fclose(f);
          free(line);
          return cli_fail(CMD, "%s:%ld: ring of %ld points has only %ld numbers", path, lineno,
                          n, k), -1;
        }
        r.xy[k] = (int32_t)v;
        p = end;
      }
      if (nr == rc) {
        Ring *nrg = (Ring *)realloc(*rings, (rc ? 2 * rc : 64) * sizeof(Ring));
        if (!nrg) {
          free(r.xy);
          goto nomem;
        }
        *rings = nrg;
        rc = rc ? 2 * rc : 64;
      }
      (*rings)[nr++] = r;
    }
    if (ch == EOF) break;
  }
  fclose(f);
  free(line);
  if (nr == 0) {
    free(*rings);
    *rings = NULL;
    return cli_fail(CMD, "--poly: %s:%ld: %s (expected a .poly file: 'poly 1 ...', then its "
                    "'o' and 'h' rings)", path, lineno ? lineno : 1L,
                    header ? "no rings" : lineno ? "no header" : "empty file"), -1;
  }
  return (long)nr;
nomem:
  fclose(f);
  free(line);
  cli_fail(CMD, "--poly: out of memory reading '%s'", path);
  return -1;
}

/* Compares the outline's rings with the file's (as sets of canonical
** rings); returns the number of rings of either side without an equal one
** on the other, or -1 on an error (printed). */
static long compare_outline(const lds_GridOutline *o, const char *path) {
  Ring *file = NULL, *ours;
  long nf = read_poly(path, &file), diff = 0;
  size_t i, j, k;
  if (nf < 0) return -1;
  ours = (Ring *)calloc(o->n_rings ? o->n_rings : 1, sizeof(Ring));
  if (!ours) {
    cli_fail(CMD, "out of memory");
    return -1;
  }
  for (i = 0; i < o->n_rings; i++) {
    ours[i].n = o->ring_start[i + 1] - o->ring_start[i];
    ours[i].xy = (int32_t *)malloc(2 * ours[i].n * sizeof(int32_t));
    if (!ours[i].xy) {
      cli_fail(CMD, "out of memory");
      return -1;
    }
    memcpy(ours[i].xy, o->xy + 2 * o->ring_start[i], 2 * ours[i].n * sizeof(int32_t));
    canon(&ours[i]);
  }
  for (i = 0; i < (size_t)nf; i++) canon(&file[i]);
  qsort(ours, o->n_rings, sizeof(Ring), ring_cmp);
  qsort(file, (size_t)nf, sizeof(Ring), ring_cmp);
  for (i = 0, j = 0; i < o->n_rings || j < (size_t)nf;) {
    int c = i == o->n_rings ? 1 : j == (size_t)nf ? -1 : ring_cmp(&ours[i], &file[j]);
    if (c == 0) {
      i++;
      j++;
    } else {
      diff++;
      if (c < 0) i++;
      else j++;
    }
  }
  for (k = 0; k < o->n_rings; k++) free(ours[k].xy);
  for (k = 0; k < (size_t)nf; k++) free(file[k].xy);
  free(ours);
  free(file);
  return diff;
}

/* Writes m as .nav text to f. */
static void write_nav(FILE *f, const lds_Navmesh *m, const char *map, int32_t w, int32_t h,
                      const lds_GridMeshInfo *info) {
  uint32_t nv = lds_navmesh_vertex_count(m), np = lds_navmesh_poly_count(m), v, p, k;
  const double *xyz = lds_navmesh_vertices(m);
  fprintf(f, "navmesh 1 %u %u %u\n", nv, np, info->max_poly_verts);
  fprintf(f, "# navigation mesh of %s, built by lodestar mesh-build (lds_grid_to_navmesh: exact;\n"
             "# rectangles, T-junction points, greedy convex merge; a pinch vertex is two vertices)\n"
             "# %u rectangles, %u merges, %u polygons, %u vertices\n",
          map, info->rects, info->merges, info->polys, info->verts);
  fprintf(f, "bounds 0 0 0 %ld 0 %ld\n", (long)w, (long)h);
  fprintf(f, "cell 1 1\n");
  fprintf(f, "agent 0 0 0\n");
  for (v = 0; v < nv; v++) fprintf(f, "v %.9g %.9g %.9g\n", xyz[3 * v], xyz[3 * v + 1], xyz[3 * v + 2]);
  for (p = 0; p < np; p++) {
    const uint32_t *vs, *nb;
    uint32_t n = lds_navmesh_poly(m, p, &vs, &nb);
    fprintf(f, "p %u", n);
    for (k = 0; k < n; k++) fprintf(f, " %u", vs[k]);
    for (k = 0; k < n; k++) {
      if (nb[k] == LDS_NAVMESH_NONE) fprintf(f, " -1");
      else fprintf(f, " %u", nb[k]);
    }
    fprintf(f, " %u\n", (unsigned)lds_navmesh_poly_area(m, p));
  }
}

int cli_mesh_build(int argc, char **argv) {
  const char *map = NULL, *out_path = NULL, *poly = NULL;
  bool json = false;
  long maxv = 64, diff = -1;
  cli_Seen seen = {{0}, 0};
  lds_GridMeshParams mp;
  lds_GridMeshInfo info;
  lds_GridOutline ol;
  lds_Error err;
  lds_Grid *g;
  lds_Navmesh *m;
  uint64_t t0, t1;
  int i, rc = 0;
  for (i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!cli_once(CMD, &seen, a)) return 2;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--json") == 0) {
      json = true;
    } else if (strcmp(a, "-o") == 0 || strcmp(a, "--max-verts") == 0 ||
               strcmp(a, "--poly") == 0) {
      const char *v = i + 1 < argc ? argv[++i] : NULL;
      if (!v) return cli_fail(CMD, "%s: missing value", a);
      if (strcmp(a, "-o") == 0) {
        if (out_path) return cli_fail(CMD, "-o given twice (each option may be given once)");
        out_path = v;
      } else if (strcmp(a, "--poly") == 0) {
        poly = v;
      } else if (!cli_int(CMD, "--max-verts", v, 4, 64, &maxv)) {
        return 2;
      }
    } else if (a[0] == '-' && a[1]) {
      return cli_fail(CMD, "unknown option '%s' (try 'lodestar mesh-build --help')", a);
    } else if (!map) {
      map = a;
    } else {
      return cli_fail(CMD, "unexpected argument '%s' (one MAP expected)", a);
    }
  }
  if (!map) return cli_missing(CMD, "MAP", "lodestar mesh-build MAP.map -o OUT.nav");
  if (!out_path) return cli_missing(CMD, "-o OUT.nav", "lodestar mesh-build MAP.map -o OUT.nav");
  if (!cli_not_dir(CMD, map)) return 2;
  g = lds_map_load(NULL, map, &err);
  if (!g) return cli_fail(CMD, "%s", err.msg);
  lds_grid_mesh_params_init(&mp);
  mp.max_verts = (int)maxv;
  t0 = cli_now_ns();
  m = lds_grid_to_navmesh(NULL, g, &mp, &info, &err);
  t1 = cli_now_ns();
  if (!m) {
    lds_grid_free(g);
    return cli_fail(CMD, "%s: %s", map, err.msg);
  }
  if (lds_grid_outline(NULL, g, &ol, &err) != LDS_OK) {
    lds_navmesh_free(m);
    lds_grid_free(g);
    return cli_fail(CMD, "%s", err.msg);
  }
  if (poly) {
    diff = compare_outline(&ol, poly);
    if (diff < 0) rc = 2;
    else if (diff > 0) rc = 1;
  }
  if (rc != 2) {
    FILE *f = strcmp(out_path, "-") == 0 ? stdout : fopen(out_path, "w");
    if (!f) {
      rc = cli_fail(CMD, "-o: cannot write '%s'", out_path);
    } else {
      write_nav(f, m, map, lds_grid_width(g), lds_grid_height(g), &info);
      if (f != stdout && fclose(f) != 0) rc = cli_fail(CMD, "-o: error writing '%s'", out_path);
    }
  }
  if (rc != 2) {
    FILE *r = strcmp(out_path, "-") == 0 ? stderr : stdout;
    uint32_t holes = ol.n_rings - ol.n_pieces;
    fprintf(r, "lodestar mesh-build %s\n", map);
    fprintf(r, "  free cells  %zu in %u pieces, %u holes (%u rings)\n",
            lds_grid_passable_count(g), ol.n_pieces, holes, ol.n_rings);
    fprintf(r, "  mesh        %u polygons (at most %u vertices), %u vertices; %u rectangles, "
               "%u merges\n", info.polys, info.max_poly_verts, info.verts, info.rects,
            info.merges);
    fprintf(r, "  build       %.3f ms\n", (double)(t1 - t0) / 1e6);
    if (poly)
      fprintf(r, "  outline     %s (%ld rings differ from %s)\n", diff == 0 ? "equal" : "DIFFERS",
              diff, poly);
    if (json) {
      fprintf(r, "{\"map\":");
      cli_json_string(r, map);
      fprintf(r, ",\"polys\":%u,\"verts\":%u,\"max_poly_verts\":%u,\"rects\":%u,\"merges\":%u,"
                 "\"pieces\":%u,\"holes\":%u,\"free_cells\":%zu,\"build_ms\":%.3f",
              info.polys, info.verts, info.max_poly_verts, info.rects, info.merges, ol.n_pieces,
              holes, lds_grid_passable_count(g), (double)(t1 - t0) / 1e6);
      if (poly) fprintf(r, ",\"outline_diff\":%ld", diff);
      fprintf(r, "}\n");
    }
  }
  lds_grid_outline_free(&ol);
  lds_navmesh_free(m);
  lds_grid_free(g);
  return rc;
}
