/* SPDX-License-Identifier: MIT */
/*
** trace.c — `lodestar trace`: one query recorded expansion by expansion and
** written as a self-contained HTML replay (trace_page.c).
**
** The order is read from outside the search loops: the query is stepped
** one expansion at a time (lds_Budget.max_expansions = 1) and after each
** step lds_search_cell tells which tracked open cell became closed. The
** tracked set is the cells known to be open: after each expansion the
** expanded cell's 8 neighbours (A* family) or the cells on its 8 rays
** (JPS, JPS+: jump points lie on them) are read, and those now open, or
** open with a new g, are recorded. A step where no tracked cell closed
** (a successor off those cells) falls back to a scan of the whole grid, so
** the record never misses an expansion.
*/
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define CMD "trace"

extern const char *const cli_trace_page[];

static void usage(FILE *f) {
  fprintf(f,
          "usage: lodestar trace MAP SX SY GX GY --html FILE [--algo A] [--heuristic H]\n"
          "                      [--weight W] [--diagonal RULE] [--neighbourhood 4|8]\n"
          "Runs one query on a Moving AI .map from (SX,SY) to (GX,GY) (cells, 0-based)\n"
          "and writes FILE, one self-contained HTML page (no network) that replays it:\n"
          "the expansion order, the open list, g/h/f of the cell under the mouse, the\n"
          "path as it forms, and a panel with expansions, time and path length (of an\n"
          "unstepped run of the same query, as `lodestar path --json` reports them).\n"
          "Open FILE#step=N to show the state after N expansions (END: the last).\n"
          "  --algo A, --heuristic H, --weight W, --diagonal RULE, --neighbourhood 4|8\n"
          "                   as in `lodestar path`\n"
          "Exit status: 0 path found, 1 no path (the page is written), 2 bad input.\n");
}

/* One recorded cell: its g and parent when the step saw it open or closed. */
typedef struct Cell {
  int32_t x, y, px, py;
  double g;
} Cell;

typedef struct Vec {
  Cell *c;
  size_t n, cap;
} Vec;

static bool vec_push(Vec *v, Cell c) {
  if (v->n == v->cap) {
    size_t cap = v->cap ? v->cap * 2 : 1024;
    Cell *p = (Cell *)realloc(v->c, cap * sizeof *p);
    if (!p) return false;
    v->c = p;
    v->cap = cap;
  }
  v->c[v->n++] = c;
  return true;
}

/* The recording: steps[i] is expansion i (closed[i]) and the cells it
** opened or improved, opened.c[first[i] .. first[i+1]). */
typedef struct Trace {
  const lds_Grid *g;
  lds_Search *s;
  int32_t w, h;
  uint8_t *known;   /* per cell: 0 fresh, 1 open (tracked), 2 closed */
  double *kg;       /* per cell: g last recorded */
  size_t *open_idx; /* the tracked open cells (indices), unordered */
  size_t nopen;
  size_t *pos;      /* per cell: its slot in open_idx */
  Vec init, closed, opened;
  size_t *first;
  size_t nfirst, first_cap;
  bool rays;
  unsigned long scans; /* fallback scans */
} Trace;

static bool cell_info(Trace *t, int32_t x, int32_t y, lds_CellInfo *ci) {
  return lds_search_cell(t->s, x, y, ci) == LDS_OK;
}

static void untrack(Trace *t, size_t idx) {
  size_t slot = t->pos[idx], last = t->open_idx[--t->nopen];
  t->open_idx[slot] = last;
  t->pos[last] = slot;
}

/* Looks at cell (x, y): records it in *into when it is open and new or
** improved. false on out of memory. */
static bool look(Trace *t, int32_t x, int32_t y, Vec *into) {
  size_t idx = (size_t)y * (size_t)t->w + (size_t)x;
  lds_CellInfo ci;
  Cell c;
  if (!cell_info(t, x, y, &ci) || ci.state != LDS_CELL_OPEN) return true;
  if (t->known[idx] == 1 && t->kg[idx] == ci.g) return true;
  if (t->known[idx] != 1) {
    t->pos[idx] = t->nopen;
    t->open_idx[t->nopen++] = idx;
  }
  t->known[idx] = 1;
  t->kg[idx] = ci.g;
  c.x = x, c.y = y, c.px = ci.parent_x, c.py = ci.parent_y, c.g = ci.g;
  return vec_push(into, c);
}

static bool record_closed(Trace *t, size_t idx, const lds_CellInfo *ci) {
  Cell c;
  if (t->known[idx] == 1) untrack(t, idx);
  t->known[idx] = 2;
  t->kg[idx] = ci->g;
  c.x = (int32_t)(idx % (size_t)t->w), c.y = (int32_t)(idx / (size_t)t->w);
  c.px = ci->parent_x, c.py = ci->parent_y, c.g = ci->g;
  return vec_push(&t->closed, c);
}

static bool begin_step(Trace *t) {
  if (t->nfirst == t->first_cap) {
    size_t cap = t->first_cap ? t->first_cap * 2 : 1024;
    size_t *p = (size_t *)realloc(t->first, cap * sizeof *p);
    if (!p) return false;
    t->first = p;
    t->first_cap = cap;
  }
  t->first[t->nfirst++] = t->opened.n;
  return true;
}

/* Every cell: the ones newly closed (each a step, in row order), then the
** ones newly open or improved (in the last of those steps). */
static bool full_scan(Trace *t) {
  int32_t x, y;
  t->scans++;
  for (y = 0; y < t->h; y++)
    for (x = 0; x < t->w; x++) {
      size_t idx = (size_t)y * (size_t)t->w + (size_t)x;
      lds_CellInfo ci;
      if (t->known[idx] != 2 && cell_info(t, x, y, &ci) && ci.state == LDS_CELL_CLOSED &&
          (!begin_step(t) || !record_closed(t, idx, &ci)))
        return false;
    }
  for (y = 0; y < t->h; y++)
    for (x = 0; x < t->w; x++)
      if (!look(t, x, y, &t->opened)) return false;
  return true;
}

/* After one expansion: which tracked cell closed, and what it opened. */
static bool after_step(Trace *t) {
  static const int dx[8] = {1, -1, 0, 0, 1, 1, -1, -1}, dy[8] = {0, 0, 1, -1, 1, -1, 1, -1};
  size_t k, found = (size_t)-1;
  int d;
  for (k = 0; k < t->nopen; k++) {
    size_t idx = t->open_idx[k];
    lds_CellInfo ci;
    if (cell_info(t, (int32_t)(idx % (size_t)t->w), (int32_t)(idx / (size_t)t->w), &ci) &&
        ci.state == LDS_CELL_CLOSED) {
      if (!begin_step(t) || !record_closed(t, idx, &ci)) return false;
      found = idx;
      break;
    }
  }
  if (found == (size_t)-1) return full_scan(t);
  for (d = 0; d < 8; d++) {
    int32_t x = (int32_t)(found % (size_t)t->w), y = (int32_t)(found / (size_t)t->w);
    do {
      x += dx[d];
      y += dy[d];
      if (x < 0 || y < 0 || x >= t->w || y >= t->h || lds_grid_blocked(t->g, x, y)) break;
      if (!look(t, x, y, &t->opened)) return false;
    } while (t->rays);
  }
  return true;
}

/* The data of the page (one JSON object, read by trace_page.c's script). */
typedef struct PageData {
  const char *map;
  const long *c;
  const lds_SearchParams *params;
  lds_Search *full;
  lds_Status st;
  const lds_Stats *stats;
  const lds_Path *path;
  Trace *t;
  double weight;
  const char *heuristic;
} PageData;

static void json_cells(FILE *f, const Vec *v, size_t from, size_t to) {
  size_t k;
  char num[64];
  fputc('[', f);
  for (k = from; k < to; k++) {
    const Cell *c = &v->c[k];
    fprintf(f, "%s%ld,%ld,%s,%ld,%ld", k > from ? "," : "", (long)c->x, (long)c->y,
            cli_num(num, sizeof num, c->g), (long)c->px, (long)c->py);
  }
  fputc(']', f);
}

static void page_data(FILE *f, void *ud) {
  const PageData *d = (const PageData *)ud;
  Trace *t = d->t;
  int32_t x, y;
  float lo = lds_grid_min_cost(t->g), hi = lo;
  size_t k;
  char num[64];
  for (y = 0; y < t->h; y++)
    for (x = 0; x < t->w; x++)
      if (!lds_grid_blocked(t->g, x, y) && lds_grid_cost(t->g, x, y) > hi) hi = lds_grid_cost(t->g, x, y);
  fprintf(f, "{\"map\":");
  cli_html_string(f, d->map);
  fprintf(f, ",\"width\":%ld,\"height\":%ld,\"start\":[%ld,%ld],\"goal\":[%ld,%ld],"
             "\"algorithm\":\"%s\",\"algorithm_used\":\"%s\",\"heuristic\":\"%s\",",
          (long)t->w, (long)t->h, d->c[0], d->c[1], d->c[2], d->c[3], lds_algo_name(d->params->algo),
          lds_algo_name(lds_search_algo_used(d->full)), d->heuristic);
  fprintf(f, "\"h_scale\":%s,", cli_num(num, sizeof num, lds_search_h_scale(d->full)));
  fprintf(f, "\"weight\":%s,\"status\":\"%s\",", cli_num(num, sizeof num, d->weight), lds_status_name(d->st));
  fprintf(f, "\"expansions\":%llu,\"pushes\":%llu,\"peak_open\":%llu,\"elapsed_us\":%llu,",
          (unsigned long long)d->stats->expansions, (unsigned long long)d->stats->pushes,
          (unsigned long long)d->stats->peak_open, (unsigned long long)d->stats->elapsed_us);
  if (d->path) {
    fprintf(f, "\"cost\":%s,\"cells\":%zu,\"path\":[", cli_num(num, sizeof num, lds_path_cost(d->path)),
            lds_path_length(d->path));
    for (k = 0; k < lds_path_length(d->path); k++) {
      lds_path_cell(d->path, k, &x, &y);
      fprintf(f, "%s%ld,%ld", k ? "," : "", (long)x, (long)y);
    }
    fputs("],", f);
  } else {
    fputs("\"cost\":null,\"cells\":0,\"path\":[],", f);
  }
  /* rows: '#' blocked, '0'..'9' cost on the map's ramp */
  fputs("\"rows\":[", f);
  for (y = 0; y < t->h; y++) {
    fputs(y ? ",\"" : "\"", f);
    for (x = 0; x < t->w; x++) {
      if (lds_grid_blocked(t->g, x, y)) {
        fputc('#', f);
      } else {
        float cst = lds_grid_cost(t->g, x, y);
        int b = hi > lo ? (int)((cst - lo) / (hi - lo) * 9.0f + 0.5f) : 0;
        fputc('0' + (b < 0 ? 0 : b > 9 ? 9 : b), f);
      }
    }
    fputc('"', f);
  }
  fputs("],\"init\":", f);
  json_cells(f, &t->init, 0, t->init.n);
  fputs(",\"steps\":[", f);
  for (k = 0; k < t->closed.n; k++) {
    size_t a = k < t->nfirst ? t->first[k] : t->opened.n;
    size_t b = k + 1 < t->nfirst ? t->first[k + 1] : t->opened.n;
    fputs(k ? ",[" : "[", f);
    json_cells(f, &t->closed, k, k + 1);
    fputc(',', f);
    json_cells(f, &t->opened, a, b);
    fputc(']', f);
  }
  fprintf(f, "],\"fallback_scans\":%lu}", t->scans);
}

static void trace_free(Trace *t) {
  free(t->known);
  free(t->kg);
  free(t->open_idx);
  free(t->pos);
  free(t->init.c);
  free(t->closed.c);
  free(t->opened.c);
  free(t->first);
}

int cli_trace(int argc, char **argv) {
  const char *pos[5], *html = NULL;
  int npos = 0, i, rc = 0;
  long nb = 8, c[4];
  lds_Diagonal diag = LDS_DIAG_NO_CORNER_CUTTING;
  lds_SearchParams params;
  lds_Error err;
  lds_Grid *g = NULL;
  lds_Search *full = NULL, *s = NULL;
  lds_Path *p = NULL;
  lds_Status st, sst;
  lds_Stats stats;
  Trace t;
  cli_Seen seen = {{0}, 0};
  memset(&t, 0, sizeof t);
  lds_search_params_init(&params);
  for (i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!cli_once(CMD, &seen, a)) return 2;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (cli_is_query_option(a) || strcmp(a, "--html") == 0) {
      const char *v = i + 1 < argc ? argv[++i] : NULL;
      if (!v) return cli_fail(CMD, "%s: missing value", a);
      if (strcmp(a, "--html") == 0) {
        html = v;
      } else if (!cli_query_option(CMD, a, v, &params, &diag, &nb)) {
        return 2;
      }
    } else if (a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9')) {
      return cli_fail(CMD, "unknown option '%s' (try 'lodestar trace --help')", a);
    } else if (npos < 5) {
      pos[npos++] = a;
    } else {
      return cli_fail(CMD, "unexpected argument '%s'", a);
    }
  }
  if (npos != 5) {
    static const char *const want[5] = {"MAP", "SX", "SY", "GX", "GY"};
    return cli_missing(CMD, want[npos], "lodestar trace MAP SX SY GX GY --html FILE ...");
  }
  if (!html) return cli_missing(CMD, "--html FILE", "lodestar trace MAP SX SY GX GY --html FILE ...");
  if (nb == 4 && diag != LDS_DIAG_NEVER && cli_seen(&seen, "--diagonal"))
    return cli_fail(CMD, "--neighbourhood 4 and --diagonal %s contradict each other (4: no "
                    "diagonal moves; only --diagonal never agrees)", lds_diagonal_name(diag));
  if (params.weight != 0.0 && params.algo != LDS_ALGO_WASTAR)
    return cli_fail(CMD, "--weight applies to --algo wastar only (algorithm is %s)",
                    lds_algo_name(params.algo));
  {
    static const char *const names[4] = {"SX", "SY", "GX", "GY"};
    for (i = 0; i < 4; i++)
      if (!cli_int(CMD, names[i], pos[i + 1], 0, LDS_GRID_MAX_SIDE - 1, &c[i])) return 2;
  }
  if (!cli_not_dir(CMD, pos[0])) return 2;
  g = lds_map_load(NULL, pos[0], &err);
  if (!g) return cli_fail(CMD, "%s", err.msg);
  lds_grid_set_neighbourhood(g, (int)nb);
  lds_grid_set_diagonal(g, diag);
  if (!lds_grid_in_bounds(g, (int32_t)c[0], (int32_t)c[1]) ||
      !lds_grid_in_bounds(g, (int32_t)c[2], (int32_t)c[3])) {
    bool sok = lds_grid_in_bounds(g, (int32_t)c[0], (int32_t)c[1]);
    rc = cli_fail(CMD, "%s (%ld,%ld) out of bounds (map is %ldx%ld)", sok ? "goal" : "start",
                  sok ? c[2] : c[0], sok ? c[3] : c[1], (long)lds_grid_width(g),
                  (long)lds_grid_height(g));
    goto done;
  }
  full = lds_search_new(NULL, g, &err);
  s = full ? lds_search_new(NULL, g, &err) : NULL;
  if (!s) {
    rc = cli_fail(CMD, "%s", err.msg);
    goto done;
  }
  /* the panel's numbers: the query run in one step, as `lodestar path` runs it */
  st = lds_search_start(full, &params, (int32_t)c[0], (int32_t)c[1], (int32_t)c[2], (int32_t)c[3]);
  if (st == LDS_OK) st = lds_search_step(full, NULL);
  if (st < 0) {
    rc = cli_fail(CMD, "%s", lds_search_errmsg(full));
    goto done;
  }
  lds_search_stats(full, &stats);
  p = lds_search_path(full, NULL);
  /* the replay: the same query one expansion per step */
  t.g = g;
  t.s = s;
  t.w = lds_grid_width(g);
  t.h = lds_grid_height(g);
  t.known = (uint8_t *)calloc((size_t)t.w * (size_t)t.h, 1);
  t.kg = (double *)calloc((size_t)t.w * (size_t)t.h, sizeof *t.kg);
  t.open_idx = (size_t *)malloc((size_t)t.w * (size_t)t.h * sizeof *t.open_idx);
  t.pos = (size_t *)malloc((size_t)t.w * (size_t)t.h * sizeof *t.pos);
  if (!t.known || !t.kg || !t.open_idx || !t.pos) {
    rc = cli_fail(CMD, "out of memory for the trace of a %ldx%ld map", (long)t.w, (long)t.h);
    goto done;
  }
  sst = lds_search_start(s, &params, (int32_t)c[0], (int32_t)c[1], (int32_t)c[2], (int32_t)c[3]);
  t.rays = lds_search_algo_used(s) == LDS_ALGO_JPS || lds_search_algo_used(s) == LDS_ALGO_JPS_PLUS;
  {
    int32_t x, y;
    for (y = 0; y < t.h && sst == LDS_OK; y++)
      for (x = 0; x < t.w; x++)
        if (!look(&t, x, y, &t.init)) sst = LDS_E_NOMEM;
  }
  while (sst == LDS_OK || sst == LDS_RUNNING) {
    lds_Budget one = {1, 0};
    lds_Stats before, after;
    lds_search_stats(s, &before);
    sst = lds_search_step(s, &one);
    lds_search_stats(s, &after);
    if (after.expansions != before.expansions && !after_step(&t)) sst = LDS_E_NOMEM;
  }
  if (sst < 0 && sst != st) {
    rc = cli_fail(CMD, "stepping the query failed: %s", sst == LDS_E_NOMEM ? "out of memory"
                                                                          : lds_search_errmsg(s));
    goto done;
  }
  {
    const char *base = strrchr(pos[0], '/');
    lds_Heuristic hu = params.heuristic;
    PageData d;
    if (hu == LDS_H_AUTO)
      hu = (nb == 4 || diag == LDS_DIAG_NEVER) ? LDS_H_MANHATTAN : LDS_H_OCTILE;
    if (params.algo == LDS_ALGO_DIJKSTRA) hu = LDS_H_ZERO;
    d.map = base ? base + 1 : pos[0];
    d.c = c;
    d.params = &params;
    d.full = full;
    d.st = st;
    d.stats = &stats;
    d.path = p;
    d.t = &t;
    d.weight = params.algo == LDS_ALGO_WASTAR ? (params.weight != 0.0 ? params.weight : 1.5) : 1.0;
    d.heuristic = lds_heuristic_name(hu);
    if (!cli_html_write(CMD, html, cli_trace_page, d.map, page_data, &d)) {
      rc = 2;
      goto done;
    }
  }
  printf("trace       %s: %zu expansions recorded (%llu in the unstepped run), %s, %s\n", html,
         t.closed.n, (unsigned long long)stats.expansions, lds_status_name(st),
         p ? "path drawn" : "no path");
  if (st != LDS_FOUND) rc = 1;
done:
  trace_free(&t);
  lds_path_free(p);
  lds_search_free(s);
  lds_search_free(full);
  lds_grid_free(g);
  return rc;
}
