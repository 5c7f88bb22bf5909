/* SPDX-License-Identifier: MIT */
/*
** lds_movingai.c — parsers of Moving AI .map and .scen text, in memory or
** from an lds_Reader (files: io/lds_io.c).
*/
#include "lds_grid_internal.h"
#include "lds_lines_internal.h"
#include "lds_movingai.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- input -- */

static bool blank(const char *s, size_t n) {
  size_t i;
  for (i = 0; i < n; i++)
    if (s[i] != ' ' && s[i] != '\t') return false;
  return true;
}

/* --------------------------------------------------------------- map -- */

bool lds_map_passable_char(char c) { return c == '.' || c == 'G' || c == 'S'; }

/* Parses "key value" from a header line; returns false on mismatch. */
static bool header_int(const char *s, size_t n, const char *key, long *out) {
  char buf[128];
  char word[32];
  long v;
  char extra;
  if (n >= sizeof buf) return false;
  memcpy(buf, s, n);
  buf[n] = '\0';
  if (sscanf(buf, "%31s %ld %c", word, &v, &extra) != 2) return false;
  if (strcmp(word, key) != 0) return false;
  *out = v;
  return true;
}

/* Bytes of blank lines accepted after a map's H rows ("exactly H lines" in
** the Moving AI format; editors leave a few blank lines): past them the text
** is not a map file, and an endless source of blank lines stops there. */
#define MAP_TRAILING_MAX 65536u

/* Frees the cells gathered so far (see map_lines). */
static lds_Grid *map_fail(const ldsi_Env *e, char *cells, size_t cap) {
  ldsi_free(e, cells, cap);
  return NULL;
}

/* The map parser over a line source. The rows are gathered before the grid
** is made, so the memory follows the rows read, not the header's claim: a
** header of 65535 x 65535 cells over a short or endless source costs what
** was read, never 4 GiB up front. */
static lds_Grid *map_lines(const lds_Env *env, ldsi_Lines *L, const char *name, lds_Error *err) {
  ldsi_Env e;
  long w = -1, h = -1;
  bool have_type = false, have_map = false;
  lds_Grid *g;
  int32_t x, y;
  char expect[64];
  char *cells = NULL; /* the rows read, w bytes each */
  size_t ccap = 0, total, rest, after;
  const char *rest_text;
  int r;
  ldsi_env_resolve(&e, env);
  L->expect = "a header line ('type octile', 'height H', 'width W' or 'map')";
  /* header: type, height, width (in any order), then "map" */
  while (!have_map) {
    const char *s;
    size_t n;
    if ((r = ldsi_lines_next(L)) < 0) return NULL;
    if (r == 0) {
      ldsi_error(err, LDS_E_FORMAT, "%s:%lu: unexpected end of file (expected the header "
                 "'type octile', 'height H', 'width W', 'map')", name, L->no + 1);
      return NULL;
    }
    s = L->s;
    n = L->n;
    if (n >= 4 && strncmp(s, "type", 4) == 0 && (n == 4 || s[4] == ' ' || s[4] == '\t')) {
      /* the benchmark's maps are all 'type octile' (8-connected squares); any
      ** other type would be read with the wrong geometry */
      const char *t = s + 4, *te = s + n;
      while (t < te && (*t == ' ' || *t == '\t')) t++;
      while (te > t && (te[-1] == ' ' || te[-1] == '\t')) te--;
      if (te - t != 6 || strncmp(t, "octile", 6) != 0) {
        ldsi_error(err, LDS_E_FORMAT, "%s:%lu: unsupported map type '%.*s' (expected 'type octile')",
                   name, L->no, (int)(te - t > 40 ? 40 : te - t), t);
        return NULL;
      }
      have_type = true;
    } else if (n >= 6 && strncmp(s, "height", 6) == 0) {
      if (!header_int(s, n, "height", &h) || h < 1 || h > LDS_GRID_MAX_SIDE) {
        ldsi_error(err, LDS_E_FORMAT, "%s:%lu: expected 'height N' with N in 1..%d", name,
                   L->no, LDS_GRID_MAX_SIDE);
        return NULL;
      }
    } else if (n >= 5 && strncmp(s, "width", 5) == 0) {
      if (!header_int(s, n, "width", &w) || w < 1 || w > LDS_GRID_MAX_SIDE) {
        ldsi_error(err, LDS_E_FORMAT, "%s:%lu: expected 'width N' with N in 1..%d", name,
                   L->no, LDS_GRID_MAX_SIDE);
        return NULL;
      }
    } else if (n == 3 && strncmp(s, "map", 3) == 0) {
      have_map = true;
    } else {
      ldsi_error(err, LDS_E_FORMAT, "%s:%lu: expected a header line ('type', 'height', "
                 "'width' or 'map'), got '%.*s'", name, L->no, (int)(n > 40 ? 40 : n), s);
      return NULL;
    }
  }
  if (!have_type || w < 0 || h < 0) {
    ldsi_error(err, LDS_E_FORMAT, "%s:%lu: 'map' before the header was complete (missing %s)",
               name, L->no, !have_type ? "'type'" : h < 0 ? "'height'" : "'width'");
    return NULL;
  }
  total = (size_t)w * (size_t)h;
  /* text in memory: a large declared size must be backed by the bytes that
  ** follow (small files get the row-by-row messages below) */
  if (total > ((size_t)1 << 20) && ldsi_lines_rest(L, &rest_text, &rest) && rest < total) {
    ldsi_error(err, LDS_E_FORMAT, "%s:%lu: the header declares %ld rows of %ld cells, but only "
               "%zu bytes follow", name, L->no, h, w, rest);
    return NULL;
  }
  /* a row is w characters; a longer one is named by its length up to
  ** w + LDSI_LINE_MAX, then cut off */
  L->max = (size_t)w + LDSI_LINE_MAX;
  snprintf(expect, sizeof expect, "a map row of %ld characters", w);
  L->expect = expect;
  for (y = 0; y < h; y++) {
    if ((r = ldsi_lines_next(L)) < 0) return map_fail(&e, cells, ccap);
    if (r == 0) {
      ldsi_error(err, LDS_E_FORMAT, "%s:%lu: unexpected end of file (expected %ld rows of the "
                 "map, got %ld)", name, L->no + 1, h, (long)y);
      return map_fail(&e, cells, ccap);
    }
    if ((long)L->n != w) {
      ldsi_error(err, LDS_E_FORMAT, "%s:%lu: map row %ld has %zu characters (expected %ld)",
                 name, L->no, (long)y, L->n, w);
      return map_fail(&e, cells, ccap);
    }
    for (x = 0; x < w; x++) {
      unsigned char c = (unsigned char)L->s[x];
      if (c < 33 || c > 126) {
        ldsi_error(err, LDS_E_FORMAT, "%s:%lu: column %ld: invalid map character 0x%02x",
                   name, L->no, (long)x + 1, (unsigned)c);
        return map_fail(&e, cells, ccap);
      }
    }
    if ((size_t)(y + 1) * (size_t)w > ccap) { /* doubling, up to the whole map */
      size_t nc = ccap ? ccap * 2 : (total < 65536 ? total : 65536);
      char *nb;
      if (nc > total) nc = total;
      while (nc < (size_t)(y + 1) * (size_t)w) nc = nc * 2 > total ? total : nc * 2;
      nb = (char *)ldsi_realloc(&e, cells, ccap, nc);
      if (!nb) {
        ldsi_error(err, LDS_E_NOMEM, "%s:%lu: out of memory for %ld map rows", name, L->no, h);
        return map_fail(&e, cells, ccap);
      }
      cells = nb;
      ccap = nc;
    }
    memcpy(cells + (size_t)y * (size_t)w, L->s, (size_t)w);
  }
  /* "exactly H lines": only blank lines may follow, a bounded amount */
  L->max = LDSI_LINE_MAX;
  L->expect = "the end of the file after the map rows";
  after = ldsi_lines_offset(L);
  while ((r = ldsi_lines_next(L)) > 0) {
    if (!blank(L->s, L->n)) {
      ldsi_error(err, LDS_E_FORMAT, "%s:%lu: unexpected text after the %ld map rows", name,
                 L->no, h);
      return map_fail(&e, cells, ccap);
    }
    if (ldsi_lines_offset(L) - after > MAP_TRAILING_MAX) {
      ldsi_error(err, LDS_E_FORMAT, "%s:%lu: more than %u bytes of blank lines after the %ld "
                 "map rows (expected the end of the file)", name, L->no, MAP_TRAILING_MAX, h);
      return map_fail(&e, cells, ccap);
    }
  }
  if (r < 0) return map_fail(&e, cells, ccap);
  g = lds_grid_new(env, (int32_t)w, (int32_t)h, err);
  if (!g) return map_fail(&e, cells, ccap);
  memcpy(g->terrain, cells, total);
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++)
      if (!lds_map_passable_char(cells[(size_t)y * (size_t)w + (size_t)x])) {
        g->blocked[ldsi_grid_pidx(g, x, y)] = 1;
        g->passable--;
      }
  map_fail(&e, cells, ccap);
  /* masks: set all at once (editing cell by cell would notify per cell) */
  lds_grid_set_diagonal(g, LDS_DIAG_NEVER);
  lds_grid_set_diagonal(g, LDS_DIAG_NO_CORNER_CUTTING);
  g->version = 0;
  ldsi_error_clear(err);
  return g;
}

lds_Grid *lds_map_parse(const lds_Env *env, const char *text, size_t len, const char *name,
                        lds_Error *err) {
  ldsi_Lines L;
  if (!name) name = "(map)";
  ldsi_lines_text(&L, text, len, name, err);
  return map_lines(env, &L, name, err);
}

lds_Grid *lds_map_read(const lds_Env *env, lds_Reader reader, void *ud, const char *name,
                       lds_Error *err) {
  ldsi_Env e;
  ldsi_Lines L;
  lds_Grid *g;
  if (!reader) {
    ldsi_error(err, LDS_E_ARG, "lds_map_read: reader is NULL");
    return NULL;
  }
  if (!name) name = "(map)";
  ldsi_env_resolve(&e, env);
  if (!ldsi_lines_reader(&L, &e, reader, ud, "lds_map_read", name, 65536, false, err)) return NULL;
  g = map_lines(env, &L, name, err);
  if (!g && err && err->code == LDS_OK) err->code = LDS_E_FORMAT;
  ldsi_lines_free(&L);
  return g;
}

/* -------------------------------------------------------------- scen -- */

struct lds_Scenario {
  ldsi_Env env;
  size_t n, cap;
  lds_ScenEntry *e;
  char *names; /* string pool of map names */
  size_t names_len, names_cap;
};

void lds_scen_free(lds_Scenario *sc) {
  if (!sc) return;
  ldsi_free(&sc->env, sc->e, sc->cap * sizeof(lds_ScenEntry));
  ldsi_free(&sc->env, sc->names, sc->names_cap);
  ldsi_free(&sc->env, sc, sizeof *sc);
}

size_t lds_scen_count(const lds_Scenario *sc) { return sc->n; }

const lds_ScenEntry *lds_scen_entry(const lds_Scenario *sc, size_t i) {
  return i < sc->n ? &sc->e[i] : NULL;
}

/* The files print the optimum rounded *or truncated* to their last digit
** (286.764502 is printed 286.764), and were computed with sqrt(2) cut to
** about 9 decimals (2 + 7*sqrt(2) = 11.8994949366 is printed 11.89949493;
** the Berlin files show it on every diagonal-heavy path). So a cost matches
** when it rounds to the printed value (|cost - optimal| <= half a unit of
** the last digit) or truncates to it (optimal <= cost < optimal + one unit),
** each widened by 1e-9 relative for that sqrt(2) and binary rounding. */
bool lds_scen_matches(const lds_ScenEntry *e, double cost) {
  double d = cost - e->optimal;
  double slack = 1e-9 * (e->optimal > 1.0 ? e->optimal : 1.0);
  if (fabs(d) <= e->tolerance + slack) return true;
  return d >= 0.0 && d < 2.0 * e->tolerance + slack;
}

/* Half a unit of the last printed digit: "4.41" -> 0.005, "12" -> 0.5 */
static double half_unit(const char *num) {
  const char *dot = strchr(num, '.');
  int d = 0;
  double u = 0.5;
  if (!dot) return 0.5;
  for (dot++; *dot >= '0' && *dot <= '9'; dot++) d++;
  while (d-- > 0) u /= 10.0;
  return u;
}

static bool parse_long(const char *t, long *out) {
  char *end;
  long v;
  errno = 0;
  v = strtol(t, &end, 10);
  if (errno || end == t || *end) return false;
  *out = v;
  return true;
}

/* Interns a map name (directory dropped), returns its offset in the pool. */
static bool intern_name(lds_Scenario *sc, const char *path, size_t *off) {
  const char *base = strrchr(path, '/');
  size_t n;
  base = base ? base + 1 : path;
  n = strlen(base);
  if (sc->names_len >= n + 1 && sc->n > 0) {
    /* same map as the previous entry: share its string */
    size_t prev = (size_t)(uintptr_t)sc->e[sc->n - 1].map;
    if (strcmp(sc->names + prev, base) == 0) {
      *off = prev;
      return true;
    }
  }
  if (sc->names_len + n + 1 > sc->names_cap) {
    size_t ncap = sc->names_cap ? sc->names_cap * 2 : 256;
    char *nn;
    while (ncap < sc->names_len + n + 1) ncap *= 2;
    nn = (char *)ldsi_realloc(&sc->env, sc->names, sc->names_cap, ncap);
    if (!nn) return false;
    sc->names = nn;
    sc->names_cap = ncap;
  }
  memcpy(sc->names + sc->names_len, base, n + 1);
  *off = sc->names_len;
  sc->names_len += n + 1;
  return true;
}

/* The scenario parser over a line source; the text is not kept. */
static lds_Scenario *scen_lines(const lds_Env *env, ldsi_Lines *L, const char *name,
                                lds_Error *err) {
  ldsi_Env e;
  size_t i;
  lds_Scenario *sc;
  bool first = true;
  int r;
  ldsi_env_resolve(&e, env);
  sc = (lds_Scenario *)ldsi_calloc(&e, 1, sizeof *sc);
  if (!sc) {
    ldsi_error(err, LDS_E_NOMEM, "lds_scen_parse: out of memory");
    return NULL;
  }
  sc->env = e;
  L->expect = "a scenario line 'bucket map width height sx sy gx gy optimal'";
  while ((r = ldsi_lines_next(L)) > 0) {
    const char *s = L->s;
    size_t n = L->n;
    char buf[1024];
    char *tok[10];
    int nt = 0;
    char *q;
    long v[7];
    double opt;
    char *end;
    size_t off;
    lds_ScenEntry *en;
    if (blank(s, n)) {
      if (first) {
        ldsi_error(err, LDS_E_FORMAT, "%s:%lu: expected 'version 1' on the first line", name,
                   L->no);
        goto fail;
      }
      if (!ldsi_lines_skip(L)) goto fail;
      continue;
    }
    if (n >= sizeof buf) {
      ldsi_error(err, LDS_E_FORMAT, "%s:%lu: line too long (%zu bytes; expected < %zu)", name,
                 L->no, n, sizeof buf);
      goto fail;
    }
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (first) {
      first = false;
      if (strcmp(buf, "version 1") == 0 || strcmp(buf, "version 1.0") == 0 ||
          strcmp(buf, "version\t1") == 0)
        continue;
      ldsi_error(err, LDS_E_FORMAT, "%s:%lu: expected 'version 1' or 'version 1.0', got '%.40s'",
                 name, L->no, buf);
      goto fail;
    }
    /* split on spaces/tabs (strtok keeps hidden global state: not used) */
    for (q = buf; *q && nt < 10;) {
      while (*q == ' ' || *q == '\t') *q++ = '\0';
      if (!*q) break;
      tok[nt++] = q;
      while (*q && *q != ' ' && *q != '\t') q++;
    }
    while (*q == ' ' || *q == '\t') q++;
    if (*q) nt = 10; /* more than 9 fields */
    if (nt != 9) {
      ldsi_error(err, LDS_E_FORMAT, "%s:%lu: expected 9 fields (bucket map width height sx sy gx "
                 "gy optimal), got %d", name, L->no, nt);
      goto fail;
    }
    for (i = 0; i < 7; i++) {
      const char *t = tok[i == 0 ? 0 : i + 1];
      if (!parse_long(t, &v[i]) || v[i] < 0 || v[i] > LDS_GRID_MAX_SIDE * 1000L) {
        static const char *const fields[] = {"bucket", "width", "height", "start x",
                                             "start y", "goal x", "goal y"};
        ldsi_error(err, LDS_E_FORMAT, "%s:%lu: field %zu (%s): expected a non-negative integer, "
                   "got '%.20s'", name, L->no, i == 0 ? (size_t)1 : i + 2, fields[i], t);
        goto fail;
      }
    }
    errno = 0;
    opt = strtod(tok[8], &end);
    if (errno || end == tok[8] || *end || !(opt >= 0.0) || isinf(opt)) {
      ldsi_error(err, LDS_E_FORMAT, "%s:%lu: field 9 (optimal length): expected a non-negative "
                 "number, got '%.20s'", name, L->no, tok[8]);
      goto fail;
    }
    if (v[3] >= v[1] || v[5] >= v[1] || v[4] >= v[2] || v[6] >= v[2]) {
      ldsi_error(err, LDS_E_FORMAT, "%s:%lu: start (%ld,%ld) or goal (%ld,%ld) outside the "
                 "%ldx%ld map", name, L->no, v[3], v[4], v[5], v[6], v[1], v[2]);
      goto fail;
    }
    if (sc->n == LDS_SCEN_MAX_ENTRIES) {
      ldsi_error(err, LDS_E_LIMIT, "%s:%lu: more than %lu problems (expected at most "
                 "LDS_SCEN_MAX_ENTRIES)", name, L->no, (unsigned long)LDS_SCEN_MAX_ENTRIES);
      goto fail;
    }
    if (sc->n == sc->cap) {
      size_t ncap = sc->cap ? sc->cap * 2 : 64;
      lds_ScenEntry *ne = (lds_ScenEntry *)ldsi_realloc(&e, sc->e, sc->cap * sizeof *ne,
                                                        ncap * sizeof *ne);
      if (!ne) goto nomem;
      sc->e = ne;
      sc->cap = ncap;
    }
    if (!intern_name(sc, tok[1], &off)) goto nomem;
    en = &sc->e[sc->n++];
    en->bucket = (int32_t)v[0];
    en->map_width = (int32_t)v[1];
    en->map_height = (int32_t)v[2];
    en->sx = (int32_t)v[3];
    en->sy = (int32_t)v[4];
    en->gx = (int32_t)v[5];
    en->gy = (int32_t)v[6];
    en->optimal = opt;
    en->tolerance = half_unit(tok[8]);
    en->map = (const char *)(uintptr_t)off; /* offset until the pool is final */
  }
  if (r < 0) goto fail;
  if (first) {
    ldsi_error(err, LDS_E_FORMAT, "%s:1: empty file (expected 'version 1')", name);
    goto fail;
  }
  for (i = 0; i < sc->n; i++) sc->e[i].map = sc->names + (size_t)(uintptr_t)sc->e[i].map;
  ldsi_error_clear(err);
  return sc;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "%s:%lu: out of memory", name, L->no);
fail:
  lds_scen_free(sc);
  return NULL;
}

lds_Scenario *lds_scen_parse(const lds_Env *env, const char *text, size_t len, const char *name,
                             lds_Error *err) {
  ldsi_Lines L;
  if (!name) name = "(scen)";
  ldsi_lines_text(&L, text, len, name, err);
  return scen_lines(env, &L, name, err);
}

lds_Scenario *lds_scen_read(const lds_Env *env, lds_Reader reader, void *ud, const char *name,
                            lds_Error *err) {
  ldsi_Env e;
  ldsi_Lines L;
  lds_Scenario *sc;
  if (!reader) {
    ldsi_error(err, LDS_E_ARG, "lds_scen_read: reader is NULL");
    return NULL;
  }
  if (!name) name = "(scen)";
  ldsi_env_resolve(&e, env);
  if (!ldsi_lines_reader(&L, &e, reader, ud, "lds_scen_read", name, 65536, false, err))
    return NULL;
  sc = scen_lines(env, &L, name, err);
  ldsi_lines_free(&L);
  return sc;
}
