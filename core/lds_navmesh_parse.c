/* SPDX-License-Identifier: MIT */
/*
** lds_navmesh_parse.c — the .nav text format and Wavefront OBJ polygon
** meshes (shared/data/navmesh/README.md), parsed from text in memory or an
** lds_Reader into an lds_Navmesh.
*/
#include "lds_navmesh_internal.h"
#include "lds_lines_internal.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The current line of a line source (lds_lines_internal.h), as the parsers
** below read it. */
typedef struct Lines {
  ldsi_Lines src;
  const char *s, *e; /* the current line */
  long lineno;
  int status;        /* of the last ldsi_lines_next: -1 after an error (in err) */
} Lines;

static bool next_line(Lines *L) {
  int r = ldsi_lines_next(&L->src);
  if (r <= 0) {
    L->status = r;
    return false;
  }
  L->s = L->src.s;
  L->e = L->src.s + L->src.n;
  L->lineno = (long)L->src.no;
  return true;
}

static bool is_space(char c) { return c == ' ' || c == '\t' || c == '\v' || c == '\f'; }

/* Next blank-separated token of the line into tok (NUL-terminated); false
** at the end of the line or for a token longer than 63 characters. */
static bool token(const char **q, const char *end, char tok[64]) {
  const char *r = *q, *t;
  while (r < end && is_space(*r)) r++;
  t = r;
  while (t < end && !is_space(*t)) t++;
  if (t == r || t - r >= 64) {
    if (t - r >= 64) memcpy(tok, r, 63), tok[63] = '\0';
    else tok[0] = '\0';
    *q = t;
    return false;
  }
  memcpy(tok, r, (size_t)(t - r));
  tok[t - r] = '\0';
  *q = t;
  return true;
}

static bool rest_blank(const char *q, const char *end) {
  while (q < end && is_space(*q)) q++;
  return q == end;
}

/* A finite decimal number: strtod's hexadecimal, inf and nan are not. */
static bool num(const char *tok, double *out) {
  char *stop;
  double v;
  if (tok[strspn(tok, "0123456789+-.eE")]) return false;
  errno = 0;
  v = strtod(tok, &stop);
  if (stop == tok || *stop || !isfinite(v)) return false;
  *out = v;
  return true;
}

static bool integer(const char *tok, long *out) {
  char *stop;
  long v;
  errno = 0;
  v = strtol(tok, &stop, 10);
  if (stop == tok || *stop || errno) return false;
  *out = v;
  return true;
}

/* Growable arrays of the mesh under construction. */
typedef struct Build {
  ldsi_Env e;
  double *v;
  size_t nv, vcap; /* in vertices */
  uint32_t *pv, *pn;
  size_t ni, icap, ncap;
  uint32_t *ps;
  size_t np, pcap; /* ps has np + 1 entries */
  uint8_t *area;
  size_t acap;
  long *pline; /* the line of each polygon */
  size_t lcap;
} Build;

static void build_free(Build *b) {
  ldsi_free(&b->e, b->v, b->vcap * 3 * sizeof(double));
  ldsi_free(&b->e, b->pv, b->icap * sizeof(uint32_t));
  ldsi_free(&b->e, b->pn, b->ncap * sizeof(uint32_t));
  ldsi_free(&b->e, b->ps, b->pcap * sizeof(uint32_t));
  ldsi_free(&b->e, b->area, b->acap);
  ldsi_free(&b->e, b->pline, b->lcap * sizeof(long));
}

static bool grow(Build *b, void **p, size_t *cap, size_t need, size_t elem) {
  size_t nc;
  void *q;
  if (need <= *cap) return true;
  nc = *cap ? *cap : 64;
  while (nc < need) nc *= 2;
  if (nc > (size_t)LDS_NAVMESH_MAX_IDS * 4) return false;
  q = ldsi_realloc(&b->e, *p, *cap * elem, nc * elem);
  if (!q) return false;
  *p = q;
  *cap = nc;
  return true;
}

static bool add_vertex(Build *b, const double *xyz) {
  if (!grow(b, (void **)&b->v, &b->vcap, b->nv + 1, 3 * sizeof(double))) return false;
  memcpy(b->v + 3 * b->nv++, xyz, 3 * sizeof(double));
  return true;
}

static bool add_poly(Build *b, const uint32_t *iv, const uint32_t *in, size_t n, uint8_t area,
                     long line) {
  if (b->pcap == 0) {
    if (!grow(b, (void **)&b->ps, &b->pcap, 1, sizeof(uint32_t))) return false;
    b->ps[0] = 0;
  }
  if (!grow(b, (void **)&b->pv, &b->icap, b->ni + n, sizeof(uint32_t)) ||
      !grow(b, (void **)&b->pn, &b->ncap, b->ni + n, sizeof(uint32_t)) ||
      !grow(b, (void **)&b->ps, &b->pcap, b->np + 2, sizeof(uint32_t)) ||
      !grow(b, (void **)&b->area, &b->acap, b->np + 1, 1) ||
      !grow(b, (void **)&b->pline, &b->lcap, b->np + 1, sizeof(long)))
    return false;
  b->pline[b->np] = line;
  memcpy(b->pv + b->ni, iv, n * sizeof(uint32_t));
  if (in) memcpy(b->pn + b->ni, in, n * sizeof(uint32_t));
  b->ni += n;
  b->area[b->np] = area;
  b->ps[++b->np] = (uint32_t)b->ni;
  return true;
}

static lds_Navmesh *ferr(lds_Error *err, Build *b, lds_Status code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static lds_Navmesh *ferr(lds_Error *err, Build *b, lds_Status code, const char *fmt, ...) {
  va_list ap;
  build_free(b);
  if (err) {
    err->code = code;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return NULL;
}

/* The X Y Z of a 'v' line (.nav and OBJ alike) from *q on, into xyz; false
** with err set (naming the file, line and coordinate) and b freed. */
static bool vertex_xyz(const char **q, const char *end, char tok[64], double xyz[3],
                       const char *name, long line, lds_Error *err, Build *b) {
  int k;
  for (k = 0; k < 3; k++) {
    if (!token(q, end, tok)) {
      ferr(err, b, LDS_E_FORMAT, "%s:%ld: expected 'v X Y Z' (finite decimal numbers; %c missing)",
           name, line, "XYZ"[k]);
      return false;
    }
    if (!num(tok, &xyz[k])) {
      ferr(err, b, LDS_E_FORMAT, "%s:%ld: v %c: '%s' is not a finite decimal number (expected "
           "'v X Y Z')", name, line, "XYZ"[k], tok);
      return false;
    }
  }
  return true;
}


/* After an error of the line source (already in err). */
static lds_Navmesh *kept(Build *b) {
  build_free(b);
  return NULL;
}

/* Names the file, and the line of the polygons an lds_navmesh_new message
** names ("polygon 3", "polygons 0 and 1"): "NAME:LINE: lds_navmesh_new:
** ... (polygon 1: line 7)", LINE that of the first. */
static void poly_lines(const Build *b, const char *name, lds_Error *err) {
  char tmp[LDS_ERRMSG_SIZE], where[40] = "", more[120] = "";
  const char *s = tmp;
  size_t k = strlen(name), used = 0, mlen = 0;
  int found = 0;
  memcpy(tmp, err->msg, sizeof tmp);
  tmp[LDS_ERRMSG_SIZE - 1] = '\0';
  while ((s = strstr(s, "polygon")) != NULL) {
    const char *t = s + 7;
    if (*t == 's') t++;
    while (*t == ' ') {
      char *stop;
      unsigned long id = strtoul(t + 1, &stop, 10);
      if (stop == t + 1 || id >= b->np) break;
      if (!found++)
        snprintf(where, sizeof where, ":%ld", b->pline[id]);
      else if (mlen < sizeof more - 1)
        mlen += (size_t)snprintf(more + mlen, sizeof more - mlen, "%spolygon %lu: line %ld",
                                 found == 2 ? " (" : ", ", id, b->pline[id]);
      if (mlen >= sizeof more) mlen = sizeof more - 1;
      t = stop;
      if (strncmp(t, " and", 4) != 0) break;
      t += 4;
    }
    s = t;
  }
  if (k > 100) k = 100;
  used = (size_t)snprintf(err->msg, LDS_ERRMSG_SIZE, "%.*s%s: %s", (int)k, name, where, tmp);
  if (found > 1 && used + mlen + 2 < LDS_ERRMSG_SIZE)
    snprintf(err->msg + used, LDS_ERRMSG_SIZE - used, "%s)", more);
}

static lds_Navmesh *finish(const lds_Env *env, Build *b, bool have_nb, const char *name,
                           lds_Error *err) {
  lds_NavmeshDesc d;
  lds_Navmesh *m;
  uint32_t zero = 0;
  memset(&d, 0, sizeof d);
  d.verts = b->v;
  d.n_verts = (uint32_t)b->nv;
  d.poly_verts = b->pv;
  d.poly_start = b->np ? b->ps : &zero;
  d.n_polys = (uint32_t)b->np;
  d.neighbours = have_nb ? b->pn : NULL;
  d.areas = b->area;
  m = lds_navmesh_new(env, &d, err);
  if (!m && err) poly_lines(b, name, err);
  build_free(b);
  return m;
}

/* ---------------------------------------------------------------- .nav -- */

static lds_Navmesh *parse_nav(const lds_Env *env, Lines *L, const char *name, lds_Error *err) {
  Build b;
  char tok[64];
  const char *q;
  long hv[4];
  int i;
  size_t nv = 0, np = 0;
  memset(&b, 0, sizeof b);
  ldsi_env_resolve(&b.e, env);
  /* line 1: navmesh 1 NVERTS NPOLYS NVP */
  q = L->s;
  token(&q, L->e, tok); /* "navmesh", checked by the caller */
  for (i = 0; i < 4; i++) {
    static const char *const field[4] = {"the version", "NVERTS", "NPOLYS", "NVP"};
    if (!token(&q, L->e, tok))
      return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: %s missing (expected 'navmesh 1 NVERTS NPOLYS "
                  "NVP', non-negative integers)", name, L->lineno, field[i]);
    if (!integer(tok, &hv[i]) || hv[i] < 0)
      return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: %s '%s' is not a non-negative integer "
                  "(expected 'navmesh 1 NVERTS NPOLYS NVP')", name, L->lineno, field[i], tok);
  }
  if (!rest_blank(q, L->e))
    return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: expected 'navmesh 1 NVERTS NPOLYS NVP' and "
                "nothing after it", name, L->lineno);
  if (hv[0] != 1)
    return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: format version %ld (expected 1)", name,
                L->lineno, hv[0]);
  if (hv[1] > (long)LDS_NAVMESH_MAX_IDS || hv[2] > (long)LDS_NAVMESH_MAX_IDS)
    return ferr(err, &b, LDS_E_LIMIT, "%s:%ld: %ld vertices, %ld polygons (expected at most %u)",
                name, L->lineno, hv[1], hv[2], LDS_NAVMESH_MAX_IDS);
  if (hv[3] < 3 || hv[3] > LDS_NAVMESH_MAX_POLY_VERTS)
    return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: NVP %ld (expected 3..%d)", name, L->lineno, hv[3],
                LDS_NAVMESH_MAX_POLY_VERTS);
  if (hv[2] == 0)
    return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: NPOLYS 0 (expected at least one polygon)", name,
                L->lineno);
  while (next_line(L)) {
    q = L->s;
    if (!token(&q, L->e, tok)) {
      if (rest_blank(L->s, L->e)) {
        if (!ldsi_lines_skip(&L->src)) return kept(&b);
        continue;
      }
      return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: token too long", name, L->lineno);
    }
    if (tok[0] == '#') {
      if (!ldsi_lines_skip(&L->src)) return kept(&b);
      continue;
    }
    if (strcmp(tok, "bounds") == 0 || strcmp(tok, "cell") == 0 || strcmp(tok, "agent") == 0) {
      int want = tok[0] == 'b' ? 6 : tok[0] == 'c' ? 2 : 3, k;
      double x;
      const char *what = want == 6 ? "bounds" : want == 2 ? "cell" : "agent";
      for (k = 0; k < want; k++) {
        if (!token(&q, L->e, tok))
          return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: expected %d finite decimal numbers after "
                      "'%s' (found %d)", name, L->lineno, want, what, k);
        if (!num(tok, &x))
          return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: '%s', number %d of %d: '%s' is not a "
                      "finite decimal number", name, L->lineno, what, k + 1, want, tok);
      }
      if (!rest_blank(q, L->e))
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: extra text after the numbers", name, L->lineno);
      continue;
    }
    if (strcmp(tok, "v") == 0) {
      double xyz[3];
      if (np)
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: 'v' line after the 'p' lines (expected all "
                    "vertices first)", name, L->lineno);
      if (nv >= (size_t)hv[1])
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: more 'v' lines than NVERTS %ld", name,
                    L->lineno, hv[1]);
      if (!vertex_xyz(&q, L->e, tok, xyz, name, L->lineno, err, &b)) return NULL;
      if (!rest_blank(q, L->e))
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: expected 'v X Y Z' and nothing after it",
                    name, L->lineno);
      if (!add_vertex(&b, xyz))
        return ferr(err, &b, LDS_E_NOMEM, "%s:%ld: out of memory", name, L->lineno);
      nv++;
      continue;
    }
    if (strcmp(tok, "p") == 0) {
      uint32_t iv[LDS_NAVMESH_MAX_POLY_VERTS], in[LDS_NAVMESH_MAX_POLY_VERTS];
      long n, x;
      int k;
      if (nv != (size_t)hv[1])
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: 'p' line after %zu 'v' lines (expected "
                    "NVERTS = %ld first)", name, L->lineno, nv, hv[1]);
      if (np >= (size_t)hv[2])
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: more 'p' lines than NPOLYS %ld", name,
                    L->lineno, hv[2]);
      if (!token(&q, L->e, tok))
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: polygon %zu: vertex count missing (expected "
                    "'p N ...' with N in 3..%ld)", name, L->lineno, np, hv[3]);
      if (!integer(tok, &n) || n < 3 || n > hv[3])
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: polygon %zu: '%s' is not a vertex count "
                    "(expected 'p N ...' with N an integer in 3..%ld)", name, L->lineno, np, tok,
                    hv[3]);
      for (k = 0; k < n; k++) {
        if (!token(&q, L->e, tok)) {
          if (hv[1] == 0)
            return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: polygon %zu, vertex %d of %ld: missing "
                        "(and the mesh has no vertices)", name, L->lineno, np, k + 1, n);
          return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: polygon %zu, vertex %d of %ld: missing "
                      "(expected an integer in 0..%ld)", name, L->lineno, np, k + 1, n, hv[1] - 1);
        }
        if (!integer(tok, &x) || x < 0 || x >= hv[1]) {
          if (hv[1] == 0)
            return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: polygon %zu, vertex %d of %ld: '%s' is "
                        "not a vertex id (the mesh has no vertices)", name, L->lineno, np, k + 1,
                        n, tok);
          return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: polygon %zu, vertex %d of %ld: '%s' is not "
                      "a vertex id (expected an integer in 0..%ld)", name, L->lineno, np, k + 1,
                      n, tok, hv[1] - 1);
        }
        iv[k] = (uint32_t)x;
      }
      for (k = 0; k < n; k++) {
        if (!token(&q, L->e, tok))
          return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: polygon %zu, neighbour %d of %ld: missing "
                      "(expected -1 or an integer in 0..%ld)", name, L->lineno, np, k + 1, n,
                      hv[2] - 1);
        if (!integer(tok, &x) || x < -1 || x >= hv[2])
          return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: polygon %zu, neighbour %d of %ld: '%s' is "
                      "not a polygon id (expected -1 or an integer in 0..%ld)", name, L->lineno,
                      np, k + 1, n, tok, hv[2] - 1);
        in[k] = x < 0 ? LDS_NAVMESH_NONE : (uint32_t)x;
      }
      if (!token(&q, L->e, tok))
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: polygon %zu: area id missing (expected an "
                    "integer in 0..255 after the %ld neighbours)", name, L->lineno, np, n);
      if (!integer(tok, &x) || x < 0 || x > 255)
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: polygon %zu: area id '%s' (expected an "
                    "integer in 0..255)", name, L->lineno, np, tok);
      if (!rest_blank(q, L->e))
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: polygon %zu: extra text after the area id "
                    "(expected 'p N' then N vertex ids, N neighbours and the area id)", name,
                    L->lineno, np);
      if (!add_poly(&b, iv, in, (size_t)n, (uint8_t)x, L->lineno))
        return ferr(err, &b, LDS_E_NOMEM, "%s:%ld: out of memory", name, L->lineno);
      np++;
      continue;
    }
    return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: unknown line '%s' (expected v, p, bounds, cell, "
                "agent or #)", name, L->lineno, tok);
  }
  if (L->status < 0) return kept(&b);
  if (nv != (size_t)hv[1] || np != (size_t)hv[2])
    return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: %zu vertices and %zu polygons (the header says "
                "%ld and %ld)", name, L->lineno, nv, np, hv[1], hv[2]);
  return finish(env, &b, true, name, err);
}

/* ----------------------------------------------------------------- OBJ -- */

static lds_Navmesh *parse_obj(const lds_Env *env, Lines *L, const char *name, lds_Error *err,
                              bool first_read) {
  Build b;
  char tok[64];
  const char *q;
  memset(&b, 0, sizeof b);
  ldsi_env_resolve(&b.e, env);
  while (first_read || next_line(L)) {
    first_read = false;
    q = L->s;
    if (!token(&q, L->e, tok)) {
      if (rest_blank(L->s, L->e)) {
        if (!ldsi_lines_skip(&L->src)) return kept(&b);
        continue;
      }
      return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: token too long", name, L->lineno);
    }
    if (tok[0] == '#') {
      if (!ldsi_lines_skip(&L->src)) return kept(&b);
      continue;
    }
    if (strcmp(tok, "v") == 0) {
      double xyz[3], w;
      if (!vertex_xyz(&q, L->e, tok, xyz, name, L->lineno, err, &b)) return NULL;
      if (token(&q, L->e, tok) && !num(tok, &w))
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: v W: '%s' is not a finite decimal number "
                    "(expected 'v X Y Z [W]')", name, L->lineno, tok);
      if (b.nv >= LDS_NAVMESH_MAX_IDS)
        return ferr(err, &b, LDS_E_LIMIT, "%s:%ld: more than %u vertices", name, L->lineno,
                    LDS_NAVMESH_MAX_IDS);
      if (!add_vertex(&b, xyz))
        return ferr(err, &b, LDS_E_NOMEM, "%s:%ld: out of memory", name, L->lineno);
      continue;
    }
    if (strcmp(tok, "f") == 0) {
      uint32_t iv[LDS_NAVMESH_MAX_POLY_VERTS];
      int n = 0;
      while (token(&q, L->e, tok)) {
        char *slash = strchr(tok, '/');
        long x;
        if (slash) { /* v/vt, v/vt/vn or v//vn: vt and vn non-zero integers */
          char *vt = slash + 1, *vn = strchr(vt, '/');
          bool ok = true;
          if (vn) *vn++ = '\0';
          if (*vt || !vn) ok = integer(vt, &x) && x != 0;
          if (ok && vn) ok = integer(vn, &x) && x != 0;
          if (vn) vn[-1] = '/';
          if (!ok)
            return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: face vertex '%s': expected V, V/VT, "
                        "V/VT/VN or V//VN (integer indices)", name, L->lineno, tok);
          *slash = '\0';
        }
        if (!integer(tok, &x) || x == 0)
          return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: face vertex '%s': expected a vertex index "
                      "(1-based, or negative from the end)", name, L->lineno, tok);
        /* range first, against the index as written: -x would overflow for
        ** LONG_MIN, and a relative index is reported as written */
        if (x < -(long)b.nv || x > (long)b.nv) {
          if (b.nv == 0)
            return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: face vertex %s out of range (no "
                        "vertices so far)", name, L->lineno, tok);
          return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: face vertex %s out of range (expected "
                      "1..%zu, or -%zu..-1 from the end: the vertices so far)", name, L->lineno,
                      tok, b.nv, b.nv);
        }
        if (n == LDS_NAVMESH_MAX_POLY_VERTS)
          return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: face with more than %d vertices", name,
                      L->lineno, LDS_NAVMESH_MAX_POLY_VERTS);
        iv[n++] = (uint32_t)(x < 0 ? (long)b.nv + x : x - 1);
      }
      if (tok[0])
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: token too long", name, L->lineno);
      if (n < 3)
        return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: face with %d vertices (expected at least 3)",
                    name, L->lineno, n);
      if (b.np >= LDS_NAVMESH_MAX_IDS)
        return ferr(err, &b, LDS_E_LIMIT, "%s:%ld: more than %u faces", name, L->lineno,
                    LDS_NAVMESH_MAX_IDS);
      if (!add_poly(&b, iv, NULL, (size_t)n, 0, L->lineno))
        return ferr(err, &b, LDS_E_NOMEM, "%s:%ld: out of memory", name, L->lineno);
      continue;
    }
    /* other OBJ statements carry nothing a navmesh needs */
    if (strcmp(tok, "vt") == 0 || strcmp(tok, "vn") == 0 || strcmp(tok, "vp") == 0 ||
        strcmp(tok, "o") == 0 || strcmp(tok, "g") == 0 || strcmp(tok, "s") == 0 ||
        strcmp(tok, "usemtl") == 0 || strcmp(tok, "mtllib") == 0 || strcmp(tok, "l") == 0 ||
        strcmp(tok, "p") == 0)
      continue;
    return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: unknown OBJ statement '%s' (expected v, f, or "
                "one of vt vn vp o g s usemtl mtllib l p #)", name, L->lineno, tok);
  }
  if (L->status < 0) return kept(&b);
  if (b.np == 0)
    return ferr(err, &b, LDS_E_FORMAT, "%s:%ld: no faces (expected at least one 'f' line)", name,
                L->lineno);
  return finish(env, &b, false, name, err);
}

/* The first line that is not blank or a comment decides the format. */
static lds_Navmesh *parse_lines(const lds_Env *env, Lines *L, const char *name, lds_Error *err) {
  char tok[64];
  const char *q;
  L->src.expect = "a .nav or OBJ line";
  while (next_line(L)) {
    q = L->s;
    if (!token(&q, L->e, tok)) {
      if (rest_blank(L->s, L->e)) {
        if (!ldsi_lines_skip(&L->src)) return NULL;
        continue;
      }
      return parse_obj(env, L, name, err, true); /* a token too long: OBJ names it */
    }
    if (tok[0] == '#') {
      if (!ldsi_lines_skip(&L->src)) return NULL;
      continue;
    }
    if (strcmp(tok, "navmesh") == 0) return parse_nav(env, L, name, err);
    return parse_obj(env, L, name, err, true);
  }
  if (L->status < 0) return NULL;
  if (L->lineno == 0)
    ldsi_error(err, LDS_E_FORMAT, "%s:1: empty file (expected a .nav header 'navmesh 1 ...' or "
               "OBJ 'v'/'f' lines)", name);
  else /* the last line read */
    ldsi_error(err, LDS_E_FORMAT, "%s:%ld: only blank lines and comments (expected a .nav header "
               "'navmesh 1 ...' or OBJ 'v'/'f' lines)", name, L->lineno);
  return NULL;
}

lds_Navmesh *lds_navmesh_parse(const lds_Env *env, const char *text, size_t len,
                               const char *name, lds_Error *err) {
  Lines L;
  if (!name) name = "(navmesh)";
  if (!text && len) {
    ldsi_error(err, LDS_E_ARG, "lds_navmesh_parse: text is NULL");
    return NULL;
  }
  memset(&L, 0, sizeof L);
  ldsi_lines_text(&L.src, text ? text : "", len, name, err);
  return parse_lines(env, &L, name, err);
}

lds_Navmesh *lds_navmesh_read(const lds_Env *env, lds_Reader reader, void *ud, const char *name,
                              lds_Error *err) {
  ldsi_Env e;
  Lines L;
  lds_Navmesh *m;
  if (!reader) {
    ldsi_error(err, LDS_E_ARG, "lds_navmesh_read: reader is NULL");
    return NULL;
  }
  if (!name) name = "(navmesh)";
  ldsi_env_resolve(&e, env);
  memset(&L, 0, sizeof L);
  if (!ldsi_lines_reader(&L.src, &e, reader, ud, "lds_navmesh_read", name, 65536, false, err))
    return NULL;
  m = parse_lines(env, &L, name, err);
  ldsi_lines_free(&L.src);
  return m;
}
