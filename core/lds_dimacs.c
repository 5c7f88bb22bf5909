/* SPDX-License-Identifier: MIT */
/*
** lds_dimacs.c — loader for the 9th DIMACS Implementation Challenge
** shortest-path format (.gr arcs, .co coordinates), text in memory or from
** an lds_Reader (files, plain or gzip-compressed: io/lds_io.c).
** Format: http://www.diag.uniroma1.it/challenge9/format.shtml
*/
#define _POSIX_C_SOURCE 200809L
#include "lds_graph_internal.h"
#include "lds_lines_internal.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The current line of a line source (lds_lines_internal.h), as the parsers
** below read it. */
typedef struct Lines {
  ldsi_Lines src;
  const char *s, *e; /* current line, without its newline / CR */
  unsigned long no;  /* current line number, 1-based */
  const char *name;
  const char *fn;    /* the public function, for messages that are not format errors */
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
  L->no = L->src.no;
  return true;
}

static bool is_space(char c) { return c == ' ' || c == '\t'; }

static const char *skip_space(const char *q, const char *end) {
  while (q < end && is_space(*q)) q++;
  return q;
}

/* Parses a decimal integer field at *q (after blanks); it must end at a blank
** or the end of the line. */
static bool field_int(const char **q, const char *end, long long *out) {
  const char *r = skip_space(*q, end);
  bool neg = false;
  unsigned long long v = 0;
  int digits = 0;
  if (r < end && (*r == '-' || *r == '+')) neg = *r++ == '-';
  while (r < end && *r >= '0' && *r <= '9') {
    if (v > 922337203685477580ULL) return false; /* would overflow */
    v = v * 10 + (unsigned long long)(*r++ - '0');
    digits++;
  }
  if (!digits || (r < end && !is_space(*r))) return false;
  *out = neg ? -(long long)v : (long long)v;
  *q = r;
  return true;
}

/* A weight: an integer, or a decimal number (accepted too). */
static bool field_num(const char **q, const char *end, double *out, char *tok, size_t toksize) {
  const char *r = skip_space(*q, end), *t = r;
  char *stop;
  size_t n;
  double v = 0.0;
  /* fast path: a plain non-negative integer (every DIMACS file) */
  while (t < end && *t >= '0' && *t <= '9' && t - r < 15) v = v * 10.0 + (double)(*t++ - '0');
  if (t > r && (t == end || is_space(*t))) {
    *out = v; /* tok is only read for rejected (negative) weights */
    *q = t;
    return true;
  }
  t = r;
  while (t < end && !is_space(*t)) t++;
  n = (size_t)(t - r);
  if (n == 0 || n >= toksize) {
    snprintf(tok, toksize, "%.*s", (int)(n < toksize ? n : toksize - 1), r);
    return false;
  }
  memcpy(tok, r, n);
  tok[n] = '\0';
  *out = strtod(tok, &stop);
  if (*stop) return false;
  *q = t;
  return true;
}

static bool line_done(const char *q, const char *end) { return skip_space(q, end) == end; }

/* The line is "X ..." with a blank after its one-letter tag. */
static bool tag_ok(const Lines *L) { return L->e - L->s >= 2 && is_space(L->s[1]); }

static bool blank_line(const Lines *L) { return skip_space(L->s, L->e) == L->e; }

/* Matches a keyword field (e.g. "sp"). */
static bool field_word(const char **q, const char *end, const char *word) {
  const char *r = skip_space(*q, end);
  size_t n = strlen(word);
  if ((size_t)(end - r) < n || memcmp(r, word, n) != 0 || (r + n < end && !is_space(r[n])))
    return false;
  *q = r + n;
  return true;
}

static lds_Graph *fail(lds_Graph *g, lds_Error *err, lds_Status code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;
static lds_Graph *fail(lds_Graph *g, lds_Error *err, lds_Status code, const char *fmt, ...) {
  va_list ap;
  char buf[LDS_ERRMSG_SIZE];
  va_start(ap, fmt);
  vsnprintf(buf, sizeof buf, fmt, ap);
  va_end(ap);
  ldsi_error(err, code, "%s", buf);
  lds_graph_free(g);
  return NULL;
}

/* After an error of the line source (already in err). */
static lds_Graph *fail_kept(lds_Graph *g) {
  lds_graph_free(g);
  return NULL;
}

/* Adds the n nodes of the p line; NaN marks "no 'v' line yet". */
static bool add_nodes(lds_Graph *g, unsigned long long n) {
  size_t i;
  if (lds_graph_add_nodes(g, (size_t)n, NULL) != LDS_OK) return false;
  for (i = 0; i < (size_t)n * (size_t)g->dim; i++) g->xyz[i] = NAN;
  return true;
}

#define SHOW(L) (int)((L)->e - (L)->s > 40 ? 40 : (L)->e - (L)->s), (L)->s

static lds_Graph *parse_gr(const lds_Env *env, Lines *L, lds_Coords kind, lds_Error *err) {
  lds_Graph *g = NULL;
  unsigned long long n = 0, m = 0, arcs = 0;
  unsigned long p_no = 0;
  bool in_memory = true;
  const char *rest;
  size_t rest_len;
  char tok[64];
  while (next_line(L)) {
    const char *q = L->s + 1;
    if (blank_line(L) || *L->s == 'c') {
      if (!ldsi_lines_skip(&L->src)) return fail_kept(g);
      continue;
    }
    if (*L->s == 'p') {
      long long nn, mm;
      if (g) return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected one 'p' line, found a second",
                         L->name, L->no);
      if (!tag_ok(L) || !field_word(&q, L->e, "sp") || !field_int(&q, L->e, &nn) ||
          !field_int(&q, L->e, &mm) || !line_done(q, L->e) || nn < 1 ||
          nn > (long long)LDS_GRAPH_MAX_IDS || mm < 0 || mm > (long long)LDS_GRAPH_MAX_IDS)
        return fail(g, err, LDS_E_FORMAT,
                    "%s:%lu: expected 'p sp N M' with N in 1..%u and M in 0..%u, got '%.*s'",
                    L->name, L->no, (unsigned)LDS_GRAPH_MAX_IDS, (unsigned)LDS_GRAPH_MAX_IDS,
                    SHOW(L));
      n = (unsigned long long)nn;
      m = (unsigned long long)mm;
      if (n > 4 * m + 1000000ULL)
        return fail(g, err, LDS_E_FORMAT, "%s:%lu: the p line declares %llu nodes for %llu arcs "
                    "(at most 4*M + 1000000 nodes accepted)", L->name, L->no, n, m);
      p_no = L->no;
      /* text in memory: the declared arcs must have their lines before they
      ** are reserved (a typo must not reserve gigabytes); a reader's rest is
      ** unknown: the arcs are reserved as they arrive and the nodes at the
      ** end, once the arcs are there (so the memory follows what was read) */
      in_memory = ldsi_lines_rest(&L->src, &rest, &rest_len);
      if (in_memory) {
        unsigned long long lines = 0;
        const char *r = rest, *end = rest + rest_len;
        while (r < end && (r = memchr(r, '\n', (size_t)(end - r))) != NULL) {
          lines++;
          r++;
        }
        if (rest < end && end[-1] != '\n') lines++;
        if (m > lines)
          return fail(g, err, LDS_E_FORMAT, "%s:%lu: the p line declares %llu arcs but only %llu "
                      "lines follow", L->name, L->no, m, lines);
      }
      g = lds_graph_new(env, kind, err);
      if (!g) return NULL;
      if (lds_graph_reserve(g, in_memory ? (size_t)n : 0,
                            in_memory || m < 65536 ? (size_t)m : 65536) != LDS_OK ||
          (in_memory && !add_nodes(g, n)))
        return fail(g, err, LDS_E_NOMEM, "%s: %s:%lu: out of memory for %llu nodes and %llu arcs",
                    L->fn, L->name, L->no, n, m);
      continue;
    }
    if (*L->s == 'a') {
      long long u, v;
      double w;
      if (!g)
        return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected a 'p sp N M' line before the first arc",
                    L->name, L->no);
      if (!tag_ok(L) || !field_int(&q, L->e, &u) || !field_int(&q, L->e, &v))
        return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected 'a U V W', got '%.*s'", L->name,
                    L->no, SHOW(L));
      if (u < 1 || (unsigned long long)u > n || v < 1 || (unsigned long long)v > n)
        return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected node ids in 1..%llu, got %lld",
                    L->name, L->no, n, (u < 1 || (unsigned long long)u > n) ? u : v);
      if (!field_num(&q, L->e, &w, tok, sizeof tok) || !line_done(q, L->e))
        return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected 'a U V W' with a numeric weight W, got '%.*s'",
                    L->name, L->no, SHOW(L));
      if (!(w >= 0.0) || isinf(w))
        return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected a weight >= 0, got %s", L->name, L->no,
                    tok);
      if (arcs == m)
        return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected %llu arcs (p line), found more",
                    L->name, L->no, m);
      if (arcs == g->edge_cap && lds_graph_reserve(g, 0, 1) != LDS_OK)
        return fail(g, err, LDS_E_NOMEM, "%s: %s:%lu: out of memory for %llu nodes and %llu arcs",
                    L->fn, L->name, L->no, n, m);
      g->elist[arcs].from = (uint32_t)(u - 1);
      g->elist[arcs].to = (uint32_t)(v - 1);
      g->elist[arcs].cost = w;
      g->m = (uint32_t)++arcs;
      continue;
    }
    return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected a 'c', 'p' or 'a' line, got '%.*s'",
                L->name, L->no, SHOW(L));
  }
  if (L->status < 0) return fail_kept(g);
  if (!g)
    return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected a 'p sp N M' line, found none", L->name,
                L->no ? L->no : 1);
  if (arcs != m)
    return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected %llu arcs (p line), found %llu", L->name,
                L->no, m, arcs);
  if (!in_memory && !add_nodes(g, n))
    return fail(g, err, LDS_E_NOMEM, "%s: %s:%lu: out of memory for %llu nodes and %llu arcs",
                L->fn, L->name, p_no, n, m);
  return g;
}

static lds_Graph *parse_co(lds_Graph *g, Lines *L, lds_Error *err) {
  unsigned long long n = g->n, seen = 0;
  bool have_p = false;
  while (next_line(L)) {
    const char *q = L->s + 1;
    if (blank_line(L) || *L->s == 'c') {
      if (!ldsi_lines_skip(&L->src)) return fail_kept(g);
      continue;
    }
    if (*L->s == 'p') {
      long long nn;
      if (have_p)
        return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected one 'p' line, found a second",
                    L->name, L->no);
      if (!tag_ok(L) || !field_word(&q, L->e, "aux") || !field_word(&q, L->e, "sp") ||
          !field_word(&q, L->e, "co") || !field_int(&q, L->e, &nn) || !line_done(q, L->e))
        return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected 'p aux sp co N', got '%.*s'", L->name,
                    L->no, SHOW(L));
      if (nn < 0 || (unsigned long long)nn != n)
        return fail(g, err, LDS_E_FORMAT,
                    "%s:%lu: expected 'p aux sp co N' with N = %llu (nodes of the .gr), got %lld",
                    L->name, L->no, n, nn);
      have_p = true;
      continue;
    }
    if (*L->s == 'v') {
      long long id, x, y;
      double *p;
      if (!have_p)
        return fail(g, err, LDS_E_FORMAT,
                    "%s:%lu: expected a 'p aux sp co N' line before the first 'v' line", L->name,
                    L->no);
      if (!tag_ok(L) || !field_int(&q, L->e, &id) || !field_int(&q, L->e, &x) ||
          !field_int(&q, L->e, &y) || !line_done(q, L->e))
        return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected 'v ID X Y' with integers, got '%.*s'",
                    L->name, L->no, SHOW(L));
      if (id < 1 || (unsigned long long)id > n)
        return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected a node id in 1..%llu, got %lld",
                    L->name, L->no, n, id);
      if (x < -180000000LL || x > 180000000LL || y < -90000000LL || y > 90000000LL)
        return fail(g, err, LDS_E_FORMAT,
                    "%s:%lu: expected X in -180e6..180e6 and Y in -90e6..90e6 (lon/lat x 1e6), "
                    "got %lld %lld", L->name, L->no, x, y);
      p = g->xyz + (size_t)(id - 1) * 2;
      if (!isnan(p[0]))
        return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected one 'v' line per node, node %lld "
                    "appears twice", L->name, L->no, id);
      p[0] = (double)x * 1e-6;
      p[1] = (double)y * 1e-6;
      seen++;
      continue;
    }
    return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected a 'c', 'p' or 'v' line, got '%.*s'",
                L->name, L->no, SHOW(L));
  }
  if (L->status < 0) return fail_kept(g);
  if (!have_p)
    return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected a 'p aux sp co N' line, found none",
                L->name, L->no ? L->no : 1);
  if (seen != n)
    return fail(g, err, LDS_E_FORMAT, "%s:%lu: expected %llu 'v' lines (p line), found %llu",
                L->name, L->no, n, seen);
  return g;
}

/* Both parses over their line sources (co NULL: no coordinates); the .co
** source is set up by co_open only once the .gr text was read to its end. */
static lds_Graph *parse_dimacs(const char *fn, const lds_Env *env, Lines *gr, Lines *co,
                               bool (*co_open)(Lines *co, void *ud), void *co_ud,
                               lds_Error *err) {
  lds_Graph *g;
  gr->fn = fn;
  gr->src.expect = "'c', 'p' or 'a' lines";
  g = parse_gr(env, gr, co ? LDS_COORDS_LONLAT : LDS_COORDS_NONE, err);
  if (!g) return NULL;
  if (co) {
    co->fn = fn;
    if (co_open && !co_open(co, co_ud)) {
      lds_graph_free(g);
      return NULL;
    }
    co->src.expect = "'c', 'p' or 'v' lines";
    if (!parse_co(g, co, err)) return NULL;
  }
  if (lds_graph_freeze(g, err) != LDS_OK) {
    lds_graph_free(g);
    return NULL;
  }
  return g;
}

lds_Graph *lds_graph_parse_dimacs(const lds_Env *env, const char *gr_text, size_t gr_len,
                                  const char *gr_name, const char *co_text, size_t co_len,
                                  const char *co_name, lds_Error *err) {
  Lines gr, co;
  if (!gr_text && gr_len) {
    ldsi_error(err, LDS_E_ARG, "lds_graph_parse_dimacs: gr_text is NULL");
    return NULL;
  }
  memset(&gr, 0, sizeof gr);
  memset(&co, 0, sizeof co);
  gr.name = gr_name ? gr_name : "(gr)";
  co.name = co_name ? co_name : "(co)";
  ldsi_lines_text(&gr.src, gr_text, gr_len, gr.name, err);
  ldsi_lines_text(&co.src, co_text, co_len, co.name, err);
  return parse_dimacs("lds_graph_parse_dimacs", env, &gr, co_text ? &co : NULL, NULL, NULL, err);
}

/* The .co reader source, opened after the .gr text (see parse_dimacs). */
typedef struct CoOpen {
  const ldsi_Env *e;
  lds_Reader reader;
  void *ud;
  lds_Error *err;
} CoOpen;

static bool co_open_reader(Lines *co, void *ud) {
  CoOpen *o = (CoOpen *)ud;
  /* road graphs are megabytes: the first block is 1 MiB */
  return ldsi_lines_reader(&co->src, o->e, o->reader, o->ud, co->fn, co->name, 1u << 20, true,
                           o->err);
}

lds_Graph *lds_graph_read_dimacs(const lds_Env *env, lds_Reader gr_reader, void *gr_ud,
                                 const char *gr_name, lds_Reader co_reader, void *co_ud,
                                 const char *co_name, lds_Error *err) {
  static const char fn[] = "lds_graph_read_dimacs";
  ldsi_Env e;
  Lines gr, co;
  CoOpen o;
  lds_Graph *g;
  ldsi_env_resolve(&e, env);
  if (!gr_reader) {
    ldsi_error(err, LDS_E_ARG, "%s: gr_reader is NULL", fn);
    return NULL;
  }
  memset(&gr, 0, sizeof gr);
  memset(&co, 0, sizeof co);
  gr.name = gr_name ? gr_name : "(gr)";
  co.name = co_name ? co_name : "(co)";
  /* road graphs are megabytes: the first block is 1 MiB */
  if (!ldsi_lines_reader(&gr.src, &e, gr_reader, gr_ud, fn, gr.name, 1u << 20, true, err))
    return NULL;
  o.e = &e;
  o.reader = co_reader;
  o.ud = co_ud;
  o.err = err;
  g = parse_dimacs(fn, env, &gr, co_reader ? &co : NULL, co_open_reader, &o, err);
  ldsi_lines_free(&gr.src);
  ldsi_lines_free(&co.src);
  return g;
}
