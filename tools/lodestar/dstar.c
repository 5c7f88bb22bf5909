/* SPDX-License-Identifier: MIT */
/*
** dstar.c — `lodestar dstar`: a navigation simulation comparing D* Lite
** (incremental replanning) with A* replanning from scratch.
**
** An agent walks from start to goal on a map it may not know. With --unknown
** it starts believing every cell is free (the freespace assumption) and, at
** every cell it stands on, sees the true map within a square of radius R
** (Chebyshev distance, so the 8 neighbours are always seen). Both agents use
** the same policy: follow an optimal path under the current belief;
** whenever an observation changes the belief, replan from where the agent
** stands. The D* Lite agent calls move_start and compute after every step
** (the agent moved: k_m grows, usually nothing to expand) and takes its next
** cell from lds_dstar_next (the smallest c + g around it: the next cell of
** the path lds_dstar_path would return, without walking it). The A* agent runs a
** fresh lds_Search on its belief for every replan.
**
** [Paper: Koenig & Likhachev, "D* Lite", AAAI 2002, Sec. "Experimental
**  Results" (goal-directed navigation in unknown terrain)]
*/
#include "util.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#define CMD "dstar"

static void usage(FILE *f) {
  fprintf(f,
          "usage: lodestar dstar MAP [--scen FILE.scen] [--limit N] [--sensor R] [--unknown]\n"
          "                      [--check] [--verbose] [--json]\n"
          "Navigation simulation on a Moving AI .map: an agent walks from start to goal,\n"
          "replanning with D* Lite, then the same agent replanning with A* from scratch.\n"
          "Prints moves, cost travelled, replans, expansions and planning time for each,\n"
          "and the ratios A*/D* Lite.\n"
          "  --scen FILE  take the queries from a .scen file: N problems evenly spaced over\n"
          "               the file (all lengths); default: N random queries (xorshift64*,\n"
          "               seed 1: start and goal drawn among passable cells, kept when the\n"
          "               true map connects them with cost >= max(width, height) / 4)\n"
          "  --limit N    number of queries (default 20)\n"
          "  --sensor R   sensor radius in cells, a (2R+1)^2 square (default 3)\n"
          "  --unknown    the agent starts believing every cell is free and learns the map\n"
          "               as it walks; without it the agent knows the map (one plan each)\n"
          "  --check      at every D* Lite replan, also run a fresh A* on the same belief\n"
          "               and check that the D* Lite plan costs the optimum (untimed)\n"
          "  --verbose    print a line on stderr for every query whose two agents travelled\n"
          "               different costs (both optimal under what they knew; lines for\n"
          "               failed queries are always printed)\n"
          "  --json       print one JSON object as the last line\n"
          "Each option may be given once.\n"
          "Exit status: 0 every goal reached by both agents with legal moves (their\n"
          "travelled costs may differ); 1 an agent did not reach a goal, including a goal\n"
          "that the true map does not connect to the start (no path, as in lodestar path\n"
          "and scen), made an illegal move or (--check) had a D* Lite plan that was not\n"
          "optimal; 2 bad input (a --scen problem whose start or goal is blocked or whose\n"
          "map size differs) or an error such as out of memory.\n");
}

typedef struct Query {
  int32_t sx, sy, gx, gy;
} Query;

typedef struct Run {
  bool reached;
  long checks, check_mismatches; /* --check: D* Lite plans vs a fresh A* */
  long illegal;
  uint64_t moves, replans, expansions;
  double cost, plan_ns, setup_ns;
} Run;

/* Copies the true map into the belief around (x,y); returns cells changed. */
static long sense(const lds_Grid *truth, lds_Grid *belief, int32_t x, int32_t y, long r) {
  int32_t w = lds_grid_width(truth), h = lds_grid_height(truth), cx, cy;
  int32_t x0 = x - (int32_t)r < 0 ? 0 : x - (int32_t)r, x1 = x + (int32_t)r >= w ? w - 1 : x + (int32_t)r;
  int32_t y0 = y - (int32_t)r < 0 ? 0 : y - (int32_t)r, y1 = y + (int32_t)r >= h ? h - 1 : y + (int32_t)r;
  long changed = 0;
  for (cy = y0; cy <= y1; cy++)
    for (cx = x0; cx <= x1; cx++) {
      bool tb = lds_grid_blocked(truth, cx, cy);
      float tc = lds_grid_cost(truth, cx, cy);
      if (lds_grid_blocked(belief, cx, cy) != tb) {
        lds_grid_set_blocked(belief, cx, cy, tb);
        changed++;
      }
      if (lds_grid_cost(belief, cx, cy) != tc) {
        lds_grid_set_cost(belief, cx, cy, tc);
        changed++;
      }
    }
  return changed;
}

/* Resets the belief: all free and cost 1 (unknown), or the true map. */
static void reset_belief(const lds_Grid *truth, lds_Grid *belief, bool unknown) {
  int32_t w = lds_grid_width(truth), h = lds_grid_height(truth), x, y;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      lds_grid_set_blocked(belief, x, y, unknown ? false : lds_grid_blocked(truth, x, y));
      lds_grid_set_cost(belief, x, y, unknown ? 1.0f : lds_grid_cost(truth, x, y));
    }
}

/* One move on the true map: checks legality, returns its cost (or -1). */
static double true_move(const lds_Grid *truth, int32_t x, int32_t y, int32_t nx, int32_t ny) {
  int d = lds_direction_of(nx - x, ny - y);
  if (d < 0 || !lds_grid_can_move(truth, x, y, d)) return -1.0;
  return lds_directions[d].length * (double)lds_grid_cost(truth, nx, ny);
}

static uint64_t move_cap(const lds_Grid *g) {
  return 4u * (uint64_t)lds_grid_width(g) * (uint64_t)lds_grid_height(g) + 16u;
}

/* Moves an agent from (*x,*y) to the neighbouring cell (nx,ny) on the true
** map, counting the move and its cost; false (counted as illegal) when the
** true map forbids the step. Both agents walk with it. */
static bool step_to(const lds_Grid *truth, int32_t nx, int32_t ny, int32_t *x, int32_t *y,
                    Run *out) {
  double c = true_move(truth, *x, *y, nx, ny);
  if (c < 0) {
    out->illegal++;
    return false;
  }
  out->cost += c;
  out->moves++;
  *x = nx;
  *y = ny;
  return true;
}

/* The D* Lite agent. It steps with lds_dstar_next, the successor of its
** cell on an optimal path under the current belief (O(1): the smallest
** c + g among 8 neighbours), as the paper's agent does (Fig. 4, line 34);
** it never needs the whole path. With --check the whole path is extracted
** (untimed) at every replan and its cost compared with a fresh A*'s. */
static int run_dstar(const lds_Grid *truth, lds_Grid *belief, lds_Search *check,
                     const Query *q, bool unknown, long sensor, Run *out) {
  lds_Error err;
  lds_DStar *ds;
  int32_t x = q->sx, y = q->sy;
  uint64_t t0, cap = move_cap(truth);
  bool need = true;
  lds_DStarStats st;
  memset(out, 0, sizeof *out);
  reset_belief(truth, belief, unknown);
  if (unknown) sense(truth, belief, x, y, sensor);
  t0 = cli_now_ns();
  ds = lds_dstar_new(NULL, belief, q->sx, q->sy, q->gx, q->gy, NULL, &err);
  if (ds && lds_dstar_subscribe(ds, belief) != LDS_OK) {
    lds_dstar_free(ds);
    ds = NULL;
    snprintf(err.msg, sizeof err.msg, "lds_dstar_subscribe: out of memory");
  }
  out->setup_ns = (double)(cli_now_ns() - t0);
  if (!ds) return cli_fail(CMD, "%s", err.msg);
  while (!(x == q->gx && y == q->gy) && out->moves < cap) {
    lds_Status s;
    int32_t nx = x, ny = y;
    t0 = cli_now_ns();
    s = lds_dstar_step(ds, NULL);
    if (s == LDS_FOUND) lds_dstar_next(ds, &nx, &ny);
    out->plan_ns += (double)(cli_now_ns() - t0);
    if (s < 0) {
      int rc = cli_fail(CMD, "%s", lds_dstar_errmsg(ds));
      lds_dstar_free(ds);
      return rc;
    }
    if (need) out->replans++;
    if (check && need) { /* untimed: the plan must cost what a fresh A* finds */
      lds_Path *plan = s == LDS_FOUND ? lds_dstar_path(ds, &err) : NULL;
      lds_Status as = lds_search_start(check, NULL, x, y, q->gx, q->gy);
      int32_t px = x, py = y;
      if (as == LDS_OK) as = lds_search_step(check, NULL);
      out->checks++;
      if (plan && lds_path_length(plan) > 1) lds_path_cell(plan, 1, &px, &py);
      if (as != s || (s == LDS_FOUND && (!plan || px != nx || py != ny ||
                                         fabs(lds_path_cost(plan) - lds_search_cost(check)) >
                                             1e-9 * (lds_search_cost(check) > 1.0
                                                         ? lds_search_cost(check)
                                                         : 1.0)))) {
        out->check_mismatches++;
        fprintf(stderr, "check: at (%ld,%ld) D* Lite %s %.9f, A* %s %.9f\n", (long)x, (long)y,
                lds_status_name(s), plan ? lds_path_cost(plan) : -1.0, lds_status_name(as),
                lds_search_cost(check));
      }
      lds_path_free(plan);
    }
    if (s != LDS_FOUND) break;
    need = false;
    if (!step_to(truth, nx, ny, &x, &y, out)) break;
    t0 = cli_now_ns();
    lds_dstar_move_start(ds, x, y);
    out->plan_ns += (double)(cli_now_ns() - t0);
    if (unknown && sense(truth, belief, x, y, sensor) > 0) need = true;
  }
  out->reached = x == q->gx && y == q->gy;
  lds_dstar_counters(ds, &st);
  out->expansions = st.expansions;
  lds_dstar_free(ds);
  return 0;
}

/* The A* agent: a fresh search on its belief for every replan. */
static int run_astar(const lds_Grid *truth, lds_Grid *belief, lds_Search *s, const Query *q,
                     bool unknown, long sensor, Run *out) {
  lds_Error err;
  lds_Path *plan = NULL;
  size_t pi = 0;
  int32_t x = q->sx, y = q->sy;
  uint64_t t0, cap = move_cap(truth);
  bool need = true;
  memset(out, 0, sizeof *out);
  reset_belief(truth, belief, unknown);
  if (unknown) sense(truth, belief, x, y, sensor);
  while (!(x == q->gx && y == q->gy) && out->moves < cap) {
    if (need) {
      lds_Status st;
      lds_Stats stats;
      t0 = cli_now_ns();
      st = lds_search_start(s, NULL, x, y, q->gx, q->gy);
      if (st == LDS_OK) st = lds_search_step(s, NULL);
      lds_path_free(plan);
      plan = st == LDS_FOUND ? lds_search_path(s, &err) : NULL;
      out->plan_ns += (double)(cli_now_ns() - t0);
      lds_search_stats(s, &stats);
      out->expansions += stats.expansions;
      out->replans++;
      pi = 0;
      if (st < 0) {
        lds_path_free(plan);
        return cli_fail(CMD, "%s", lds_search_errmsg(s));
      }
      if (!plan) break;
      need = false;
    }
    {
      int32_t nx, ny;
      lds_path_cell(plan, ++pi, &nx, &ny);
      if (!step_to(truth, nx, ny, &x, &y, out)) break;
    }
    if (unknown && sense(truth, belief, x, y, sensor) > 0) need = true;
  }
  out->reached = x == q->gx && y == q->gy;
  lds_path_free(plan);
  return 0;
}

/* Random queries: xorshift64*, seed 1; see usage. */
static size_t random_queries(const lds_Grid *truth, lds_Search *s, Query *qs, size_t n) {
  unsigned long long r = 1;
  int32_t w = lds_grid_width(truth), h = lds_grid_height(truth);
  double min_cost = (double)(w > h ? w : h) / 4.0;
  size_t k = 0, tries = 0;
  if (lds_grid_passable_count(truth) < 2) return 0;
  while (k < n && tries < 1000 * n) {
    Query q;
    int i;
    int32_t v[4];
    for (i = 0; i < 4; i++) {
      r ^= r >> 12;
      r ^= r << 25;
      r ^= r >> 27;
      v[i] = (int32_t)((r * 2685821657736338717ULL) >> 33);
    }
    tries++;
    q.sx = v[0] % w;
    q.sy = v[1] % h;
    q.gx = v[2] % w;
    q.gy = v[3] % h;
    if (lds_grid_blocked(truth, q.sx, q.sy) || lds_grid_blocked(truth, q.gx, q.gy)) continue;
    if (lds_search_start(s, NULL, q.sx, q.sy, q.gx, q.gy) != LDS_OK) continue;
    if (lds_search_step(s, NULL) != LDS_FOUND || lds_search_cost(s) < min_cost) continue;
    qs[k++] = q;
  }
  return k;
}

static int cmp_d(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static double median(double *v, size_t n) {
  if (n == 0) return 0.0;
  qsort(v, n, sizeof *v, cmp_d);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static double ratio(double a, double b) { return b > 0 ? a / b : 0.0; }

/* One run of the command: options, maps, queries, tallies. */
typedef struct Sim {
  const char *map_path, *scen_path;
  long limit, sensor;
  bool unknown, json, check, verbose;
  long checks, check_mismatches;
  lds_Grid *truth, *belief;
  lds_Search *s;
  Query *qs;
  double *er, *tr; /* per query reached by both: A* over D* Lite expansions, time */
  size_t nq, nr;
  Run tot_d, tot_a;
  long reached, mismatches, unreached_d, unreached_a, illegal;
} Sim;

/* Parses argv into sim; -1 to go on, else the exit status (0 after --help,
** 2 on bad input, with the message printed). */
static int parse_args(int argc, char **argv, Sim *sim) {
  int i;
  cli_Seen seen = {{0}, 0};
  for (i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!cli_once(CMD, &seen, a)) return 2;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--json") == 0) {
      sim->json = true;
    } else if (strcmp(a, "--verbose") == 0) {
      sim->verbose = true;
    } else if (strcmp(a, "--check") == 0) {
      sim->check = true;
    } else if (strcmp(a, "--unknown") == 0) {
      sim->unknown = true;
    } else if (strcmp(a, "--scen") == 0 || strcmp(a, "--limit") == 0 ||
               strcmp(a, "--sensor") == 0) {
      const char *v = i + 1 < argc ? argv[++i] : NULL;
      if (!v) return cli_fail(CMD, "%s: missing value", a);
      if (strcmp(a, "--scen") == 0)
        sim->scen_path = v;
      else if (strcmp(a, "--limit") == 0) {
        if (!cli_int(CMD, "--limit", v, 1, 1000000L, &sim->limit)) return 2;
      } else if (!cli_int(CMD, "--sensor", v, 1, 100000L, &sim->sensor))
        return 2;
    } else if (a[0] == '-' && a[1]) {
      return cli_fail(CMD, "unknown option '%s' (try 'lodestar dstar --help')", a);
    } else if (!sim->map_path) {
      sim->map_path = a;
    } else {
      return cli_fail(CMD, "unexpected argument '%s' (one map expected)", a);
    }
  }
  if (!sim->map_path) return cli_missing(CMD, "MAP", "lodestar dstar MAP [--scen FILE.scen] ...");
  if (!sim->unknown && cli_seen(&seen, "--sensor"))
    return cli_fail(CMD, "--sensor needs --unknown (an agent that knows the map senses nothing)");
  if (!cli_not_dir(CMD, sim->map_path) || (sim->scen_path && !cli_not_dir(CMD, sim->scen_path)))
    return 2;
  return -1;
}

/* Up to limit problems of --scen, evenly spaced over the file; 0, or the
** exit status after printing the error. */
static int scen_queries(Sim *sim) {
  lds_Error err;
  lds_Scenario *sc = lds_scen_load(NULL, sim->scen_path, &err);
  size_t n, k;
  char where[4200]; /* "FILE:LINE" of a bad row (cli_scen_where) */
  const lds_Grid *truth = sim->truth;
  if (!sc) return cli_fail(CMD, "%s", err.msg);
  n = lds_scen_count(sc);
  for (k = 0; k < (size_t)sim->limit && k < n; k++) {
    /* evenly spaced over the file, so every length bucket is represented */
    size_t idx = n <= (size_t)sim->limit ? k : (size_t)((double)k * (double)n / (double)sim->limit);
    const lds_ScenEntry *e = lds_scen_entry(sc, idx);
    int rc;
    if (e->map_width != lds_grid_width(truth) || e->map_height != lds_grid_height(truth)) {
      rc = cli_fail(CMD, "%s: problem %zu expects a %ldx%ld map, %s is %ldx%ld",
                    cli_scen_where(where, sizeof where, sim->scen_path, idx), idx + 1,
                    (long)e->map_width, (long)e->map_height, sim->map_path,
                    (long)lds_grid_width(truth), (long)lds_grid_height(truth));
      lds_scen_free(sc);
      return rc;
    }
    if (lds_grid_blocked(truth, e->sx, e->sy) || lds_grid_blocked(truth, e->gx, e->gy)) {
      bool sb = lds_grid_blocked(truth, e->sx, e->sy);
      int32_t bx = sb ? e->sx : e->gx, by = sb ? e->sy : e->gy;
      rc = cli_fail(CMD, "%s: problem %zu: %s (%ld,%ld) is blocked on %s ('%c'; expected "
                    "a passable cell)", cli_scen_where(where, sizeof where, sim->scen_path, idx),
                    idx + 1, sb ? "start" : "goal", (long)bx, (long)by, sim->map_path,
                    lds_grid_terrain(truth, bx, by));
      lds_scen_free(sc);
      return rc;
    }
    sim->qs[sim->nq].sx = e->sx;
    sim->qs[sim->nq].sy = e->sy;
    sim->qs[sim->nq].gx = e->gx;
    sim->qs[sim->nq].gy = e->gy;
    sim->nq++;
  }
  lds_scen_free(sc);
  return 0;
}

/* The maps, the search and the queries (--scen, or random on the true map);
** 0, or the exit status after printing the error. */
static int setup(Sim *sim) {
  lds_Error err;
  sim->truth = lds_map_load(NULL, sim->map_path, &err);
  if (!sim->truth) return cli_fail(CMD, "%s", err.msg);
  sim->belief = lds_grid_clone(sim->truth, &err);
  sim->s = sim->belief ? lds_search_new(NULL, sim->belief, &err) : NULL;
  sim->qs = (Query *)calloc((size_t)sim->limit, sizeof *sim->qs);
  sim->er = (double *)calloc((size_t)sim->limit, sizeof *sim->er);
  sim->tr = (double *)calloc((size_t)sim->limit, sizeof *sim->tr);
  if (!sim->belief || !sim->s || !sim->qs || !sim->er || !sim->tr)
    return cli_fail(CMD, "%s", (!sim->belief || !sim->s) ? err.msg : "out of memory");
  if (sim->scen_path) return scen_queries(sim);
  lds_search_free(sim->s);
  sim->s = lds_search_new(NULL, sim->truth, &err);
  if (!sim->s) return cli_fail(CMD, "%s", err.msg);
  sim->nq = random_queries(sim->truth, sim->s, sim->qs, (size_t)sim->limit);
  if (sim->nq == 0)
    return cli_fail(CMD, "%s: no random query found (the map needs two connected passable "
                    "cells at least max(w,h)/4 apart)", sim->map_path);
  lds_search_free(sim->s);
  sim->s = lds_search_new(NULL, sim->belief, &err);
  if (!sim->s) return cli_fail(CMD, "%s", err.msg);
  return 0;
}

/* Query k by both agents, added to the totals; 0, or the exit status. */
static int compare(Sim *sim, size_t k) {
  const Query *q = &sim->qs[k];
  Run d, a;
  int rc;
  if ((rc = run_dstar(sim->truth, sim->belief, sim->check ? sim->s : NULL, q, sim->unknown,
                      sim->sensor, &d)) != 0)
    return rc;
  sim->checks += d.checks;
  sim->check_mismatches += d.check_mismatches;
  if ((rc = run_astar(sim->truth, sim->belief, sim->s, q, sim->unknown, sim->sensor, &a)) != 0)
    return rc;
  sim->tot_d.moves += d.moves;
  sim->tot_d.cost += d.cost;
  sim->tot_d.replans += d.replans;
  sim->tot_d.expansions += d.expansions;
  sim->tot_d.plan_ns += d.plan_ns;
  sim->tot_d.setup_ns += d.setup_ns;
  sim->tot_a.moves += a.moves;
  sim->tot_a.cost += a.cost;
  sim->tot_a.replans += a.replans;
  sim->tot_a.expansions += a.expansions;
  sim->tot_a.plan_ns += a.plan_ns;
  sim->illegal += d.illegal + a.illegal;
  if (!d.reached) sim->unreached_d++;
  if (!a.reached) sim->unreached_a++;
  if (!d.reached || !a.reached || d.illegal || a.illegal) /* failures: always reported */
    fprintf(stderr, "query %zu (%ld,%ld)->(%ld,%ld): D* Lite %s%s, A* %s%s\n", k + 1,
            (long)q->sx, (long)q->sy, (long)q->gx, (long)q->gy,
            d.reached ? "reached the goal" : "did not reach the goal",
            d.illegal ? " (illegal move)" : "", a.reached ? "reached the goal" : "did not reach the goal",
            a.illegal ? " (illegal move)" : "");
  if (d.reached && a.reached) {
    double m = fabs(d.cost) > fabs(a.cost) ? fabs(d.cost) : fabs(a.cost);
    sim->reached++;
    if (fabs(d.cost - a.cost) > 1e-9 * (m > 1.0 ? m : 1.0)) {
      sim->mismatches++;
      if (sim->verbose)
        fprintf(stderr, "query %zu (%ld,%ld)->(%ld,%ld): D* Lite travelled %.6f, A* %.6f\n",
                k + 1, (long)q->sx, (long)q->sy, (long)q->gx, (long)q->gy, d.cost, a.cost);
    }
    if (d.expansions > 0 && d.plan_ns > 0) {
      sim->er[sim->nr] = ratio((double)a.expansions, (double)d.expansions);
      sim->tr[sim->nr] = ratio(a.plan_ns, d.plan_ns);
      sim->nr++;
    }
  }
  return 0;
}

/* The summary (and the --json line); returns the exit status. */
static int report(Sim *sim) {
  const Run *td = &sim->tot_d, *ta = &sim->tot_a;
  double dms = td->plan_ns / 1e6, ams = ta->plan_ns / 1e6;
  double xr = ratio((double)ta->expansions, (double)td->expansions), trt = ratio(ams, dms);
  double mxr = median(sim->er, sim->nr), mtr = median(sim->tr, sim->nr);
  size_t nq = sim->nq;
  printf("lodestar dstar %s\n", sim->map_path);
  printf("  queries     %zu (%s)\n", nq, sim->scen_path ? sim->scen_path : "random, seed 1");
  if (sim->unknown)
    printf("  terrain     unknown (freespace assumption), sensor radius %ld\n", sim->sensor);
  else
    printf("  terrain     known\n");
  printf("  %-9s %-8s %-9s %-14s %-8s %-13s %-10s %-9s\n", "agent", "reached", "moves",
         "cost", "replans", "expansions", "plan_ms", "setup_ms");
  printf("  %-9s %-8ld %-9llu %-14.3f %-8llu %-13llu %-10.3f %-9.3f\n", "D* Lite",
         (long)nq - sim->unreached_d, (unsigned long long)td->moves, td->cost,
         (unsigned long long)td->replans, (unsigned long long)td->expansions, dms,
         td->setup_ns / 1e6);
  printf("  %-9s %-8ld %-9llu %-14.3f %-8llu %-13llu %-10.3f %-9s\n", "A*",
         (long)nq - sim->unreached_a, (unsigned long long)ta->moves, ta->cost,
         (unsigned long long)ta->replans, (unsigned long long)ta->expansions, ams, "-");
  printf("  ratio A*/D* Lite: expansions %.2fx (median per query %.2fx), time %.2fx "
         "(median %.2fx)\n", xr, mxr, trt, mtr);
  printf("  travelled cost differs in %ld of %ld queries reached by both\n", sim->mismatches,
         sim->reached);
  if (sim->check)
    printf("  check: %ld D* Lite plans, %ld differ from a fresh A*'s optimal cost\n", sim->checks,
           sim->check_mismatches);
  if (sim->illegal) printf("  FAIL: %ld illegal moves\n", sim->illegal);
  if (sim->unreached_d || sim->unreached_a)
    printf("  FAIL: goal not reached: D* Lite %ld, A* %ld queries\n", sim->unreached_d,
           sim->unreached_a);
  if (sim->json) {
    printf("{\"map\":");
    cli_json_string(stdout, sim->map_path);
    printf(",\"unknown\":%s,\"sensor\":%ld,\"queries\":%zu,\"reached\":%ld,"
           "\"cost_mismatches\":%ld,\"illegal_moves\":%ld,"
           "\"dstar_moves\":%llu,\"astar_moves\":%llu,\"dstar_cost\":%.6f,\"astar_cost\":%.6f,"
           "\"dstar_replans\":%llu,\"astar_replans\":%llu,"
           "\"dstar_expansions\":%llu,\"astar_expansions\":%llu,\"expansion_ratio\":%.4f,"
           "\"expansion_ratio_median\":%.4f,\"dstar_ms\":%.3f,\"astar_ms\":%.3f,"
           "\"time_ratio\":%.4f,\"time_ratio_median\":%.4f,\"dstar_setup_ms\":%.3f,"
           "\"plan_checks\":%ld,\"plan_mismatches\":%ld}\n",
           sim->unknown ? "true" : "false", sim->sensor, nq, sim->reached, sim->mismatches,
           sim->illegal, (unsigned long long)td->moves, (unsigned long long)ta->moves, td->cost,
           ta->cost, (unsigned long long)td->replans, (unsigned long long)ta->replans,
           (unsigned long long)td->expansions, (unsigned long long)ta->expansions, xr, mxr,
           dms, ams, trt, mtr, td->setup_ns / 1e6, sim->checks, sim->check_mismatches);
  }
  return sim->illegal || sim->unreached_d || sim->unreached_a || sim->check_mismatches ? 1 : 0;
}

int cli_dstar(int argc, char **argv) {
  Sim sim;
  size_t k;
  int rc;
  memset(&sim, 0, sizeof sim);
  sim.limit = 20;
  sim.sensor = 3;
  if ((rc = parse_args(argc, argv, &sim)) >= 0) return rc;
  rc = setup(&sim);
  for (k = 0; rc == 0 && k < sim.nq; k++) rc = compare(&sim, k);
  if (rc == 0) rc = report(&sim);
  free(sim.qs);
  free(sim.er);
  free(sim.tr);
  lds_search_free(sim.s);
  lds_grid_free(sim.belief);
  lds_grid_free(sim.truth);
  return rc;
}
