/* SPDX-License-Identifier: MIT */
/*
** path.c — `lodestar path`: one query on a map, printed.
*/
#include "util.h"

#include <stdlib.h>
#include <string.h>

#define CMD "path"

static void usage(FILE *f) {
  fprintf(f,
          "usage: lodestar path MAP SX SY GX GY [--algo A] [--heuristic H] [--weight W]\n"
          "                     [--diagonal RULE] [--neighbourhood 4|8] [--partial] [--ascii | --json]\n"
          "                     [--png FILE [--scale PX]]\n"
          "Finds a path on a Moving AI .map from (SX,SY) to (GX,GY) (cells, 0-based,\n"
          "x = column, y = row) and prints its cost, length, expansions and cells.\n"
          "  --algo A         astar (default), dijkstra, wastar, greedy, jps, jps+, theta,\n"
          "                   lazytheta (any-angle: the cells printed are waypoints)\n"
          "                   (jps/jps+ also print the jump points; on grids where JPS\n"
          "                   is not optimal they run A*, see 'algorithm')\n"
          "  --heuristic H    auto, zero, manhattan, octile, euclidean, chebyshev\n"
          "  --diagonal RULE  never, no_corner_cutting (default), allow_one_blocked, always\n"
          "  --neighbourhood 4|8\n"
          "                   4: orthogonal moves only (--diagonal never or none);\n"
          "                   8: also diagonal ones (default)\n"
          "  --partial        when the goal is unreachable (walled in or blocked), print the\n"
          "                   path to the reachable cell closest to it (Euclidean distance)\n"
          "  --weight W       weight of wastar (W >= 1; only with --algo wastar)\n"
          "  --ascii          draw the map with the path ('*', start 'S', goal 'G';\n"
          "                   a partial path ends at 'E')\n"
          "  --png FILE       also draw the search as a PNG picture: the map, the closed\n"
          "                   set shaded by g, the open list, jump points, the path (red)\n"
          "                   and the path pruned by line of sight (orange)\n"
          "  --scale PX       pixels per cell of --png (1..64; default: about 1024 px)\n"
          "  --json           print one JSON object on one line instead of the text: map,\n"
          "                   start, goal, algorithm, algorithm_used, status, message,\n"
          "                   expansions, pushes, peak_open, elapsed_us, cost (null without\n"
          "                   a path), cells, partial, path ([[x,y],...]), jump_points\n"
          "Each option may be given once.\n"
          "Exit status: 0 path found, 1 no path (a partial path may be printed), 2 bad input.\n");
}

/* The path's cost, cells, and the jump points when JPS really ran (not
** its A* fallback). */
static void print_path(lds_Search *s, const lds_Path *p) {
  size_t k, n = lds_path_length(p);
  printf("cost        %.6f%s\n", lds_path_cost(p),
         (lds_path_flags(p) & LDS_PATH_PARTIAL) ? " (partial: goal unreachable)" : "");
  printf("cells       %zu\n", n);
  printf("path       ");
  for (k = 0; k < n; k++) {
    int32_t x, y;
    lds_path_cell(p, k, &x, &y);
    printf(" (%ld,%ld)", (long)x, (long)y);
  }
  printf("\n");
  if (lds_search_algo_used(s) == LDS_ALGO_JPS || lds_search_algo_used(s) == LDS_ALGO_JPS_PLUS) {
    lds_Path *jp = lds_search_jump_points(s, NULL);
    if (jp) {
      printf("jumps      ");
      for (k = 0; k < lds_path_length(jp); k++) {
        int32_t x, y;
        lds_path_cell(jp, k, &x, &y);
        printf(" (%ld,%ld)", (long)x, (long)y);
      }
      printf("\n");
      lds_path_free(jp);
    }
  }
}

/* The cells of p as a JSON array of [x,y] pairs. */
static void json_cells(const lds_Path *p) {
  size_t k, n = lds_path_length(p);
  putchar('[');
  for (k = 0; k < n; k++) {
    int32_t x, y;
    lds_path_cell(p, k, &x, &y);
    printf("%s[%ld,%ld]", k ? "," : "", (long)x, (long)y);
  }
  putchar(']');
}

/* --json: the whole answer as one JSON object on one line (keys in usage). */
static void print_json(const char *map, const long c[4], const lds_SearchParams *params,
                       lds_Search *s, lds_Status st, const lds_Stats *stats, const lds_Path *p) {
  char num[64];
  printf("{\"map\":");
  cli_json_string(stdout, map);
  printf(",\"start\":[%ld,%ld],\"goal\":[%ld,%ld],\"algorithm\":\"%s\",\"algorithm_used\":\"%s\","
         "\"status\":\"%s\",\"message\":",
         c[0], c[1], c[2], c[3], lds_algo_name(params->algo),
         lds_algo_name(lds_search_algo_used(s)), lds_status_name(st));
  cli_json_string(stdout, cli_plain(lds_search_errmsg(s)));
  printf(",\"expansions\":%llu,\"pushes\":%llu,\"peak_open\":%llu,\"elapsed_us\":%llu,",
         (unsigned long long)stats->expansions, (unsigned long long)stats->pushes,
         (unsigned long long)stats->peak_open, (unsigned long long)stats->elapsed_us);
  if (p) {
    snprintf(num, sizeof num, "%.17g", lds_path_cost(p)); /* exact: a path's cost is finite */
    printf("\"cost\":%s,\"cells\":%zu,\"partial\":%s,\"path\":", num, lds_path_length(p),
           (lds_path_flags(p) & LDS_PATH_PARTIAL) ? "true" : "false");
    json_cells(p);
  } else {
    printf("\"cost\":null,\"cells\":0,\"partial\":false,\"path\":[]");
  }
  if (p && (lds_search_algo_used(s) == LDS_ALGO_JPS || lds_search_algo_used(s) == LDS_ALGO_JPS_PLUS)) {
    lds_Path *jp = lds_search_jump_points(s, NULL);
    if (jp) {
      printf(",\"jump_points\":");
      json_cells(jp);
      lds_path_free(jp);
    }
  }
  printf("}\n");
}

/* --ascii: the map's terrain with the path drawn (S start, * on the way,
** G goal, E the end of a partial path), the goal (gx,gy) marked reached or
** not. false when out of memory. */
static bool draw_ascii(const lds_Grid *g, const lds_Path *p, int32_t gx, int32_t gy) {
  int32_t w = lds_grid_width(g), h = lds_grid_height(g), x, y;
  size_t k, n = lds_path_length(p);
  char *pic = (char *)malloc((size_t)w * (size_t)h);
  if (!pic) return false;
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) pic[(size_t)y * w + x] = lds_grid_terrain(g, x, y);
  for (k = 0; k < n; k++) {
    lds_path_cell(p, k, &x, &y);
    pic[(size_t)y * w + x] = k == 0 ? 'S' : k + 1 < n ? '*'
                             : (lds_path_flags(p) & LDS_PATH_PARTIAL) ? 'E' : 'G';
  }
  pic[(size_t)gy * w + (size_t)gx] = 'G'; /* the goal, reached or not */
  for (y = 0; y < h; y++) printf("%.*s\n", (int)w, pic + (size_t)y * w);
  free(pic);
  return true;
}

int cli_path(int argc, char **argv) {
  const char *pos[5], *map_path = NULL;
  int npos = 0, i, rc = 0;
  bool ascii = false, json = false;
  const char *png = NULL;
  long scale = 0;
  long nb = 8, c[4];
  lds_Diagonal diag = LDS_DIAG_NO_CORNER_CUTTING;
  lds_SearchParams params;
  lds_Error err;
  lds_Grid *g = NULL;
  lds_Search *s = NULL;
  lds_Path *p = NULL;
  lds_Status st;
  lds_Stats stats;
  cli_Seen seen = {{0}, 0};
  lds_search_params_init(&params);
  for (i = 2; i < argc; i++) {
    const char *a = argv[i];
    if (!cli_once(CMD, &seen, a)) return 2;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--ascii") == 0) {
      ascii = true;
    } else if (strcmp(a, "--json") == 0) {
      json = true;
    } else if (strcmp(a, "--partial") == 0) {
      params.partial = true;
    } else if (cli_is_query_option(a) || strcmp(a, "--png") == 0 || strcmp(a, "--scale") == 0) {
      const char *v = i + 1 < argc ? argv[++i] : NULL;
      if (!v) return cli_fail(CMD, "%s: missing value", a);
      if (strcmp(a, "--png") == 0) {
        png = v;
      } else if (strcmp(a, "--scale") == 0) {
        if (!cli_int(CMD, "--scale", v, 1, 64, &scale)) return 2;
      } else if (!cli_query_option(CMD, a, v, &params, &diag, &nb)) {
        return 2;
      }
    } else if (a[0] == '-' && a[1] && !(a[1] >= '0' && a[1] <= '9')) {
      return cli_fail(CMD, "unknown option '%s' (try 'lodestar path --help')", a);
    } else if (npos < 5) {
      pos[npos++] = a;
    } else {
      return cli_fail(CMD, "unexpected argument '%s'", a);
    }
  }
  if (npos != 5) {
    static const char *const want[5] = {"MAP", "SX", "SY", "GX", "GY"};
    return cli_missing(CMD, want[npos], "lodestar path MAP SX SY GX GY ...");
  }
  if (nb == 4 && diag != LDS_DIAG_NEVER && cli_seen(&seen, "--diagonal"))
    return cli_fail(CMD, "--neighbourhood 4 and --diagonal %s contradict each other (4: no "
                    "diagonal moves; only --diagonal never agrees)", lds_diagonal_name(diag));
  if (params.weight != 0.0 && params.algo != LDS_ALGO_WASTAR) /* 0: not given */
    return cli_fail(CMD, "--weight applies to --algo wastar only (algorithm is %s)",
                    lds_algo_name(params.algo));
  if (ascii && json) return cli_fail(CMD, "--ascii and --json: give one of them");
  if (scale && !png) return cli_fail(CMD, "--scale applies to --png only");
  map_path = pos[0];
  {
    static const char *const names[4] = {"SX", "SY", "GX", "GY"};
    for (i = 0; i < 4; i++)
      if (!cli_int(CMD, names[i], pos[i + 1], 0, LDS_GRID_MAX_SIDE - 1, &c[i])) return 2;
  }
  if (!cli_not_dir(CMD, map_path)) return 2;
  g = lds_map_load(NULL, map_path, &err);
  if (!g) return cli_fail(CMD, "%s", err.msg);
  lds_grid_set_neighbourhood(g, (int)nb);
  lds_grid_set_diagonal(g, diag);
  if (!lds_grid_in_bounds(g, (int32_t)c[0], (int32_t)c[1]) ||
      !lds_grid_in_bounds(g, (int32_t)c[2], (int32_t)c[3])) {
    rc = cli_fail(CMD, "%s (%ld,%ld) out of bounds (map is %ldx%ld)",
                  lds_grid_in_bounds(g, (int32_t)c[0], (int32_t)c[1]) ? "goal" : "start",
                  lds_grid_in_bounds(g, (int32_t)c[0], (int32_t)c[1]) ? c[2] : c[0],
                  lds_grid_in_bounds(g, (int32_t)c[0], (int32_t)c[1]) ? c[3] : c[1],
                  (long)lds_grid_width(g), (long)lds_grid_height(g));
    goto done;
  }
  s = lds_search_new(NULL, g, &err);
  if (!s) {
    rc = cli_fail(CMD, "%s", err.msg);
    goto done;
  }
  st = lds_search_start(s, &params, (int32_t)c[0], (int32_t)c[1], (int32_t)c[2], (int32_t)c[3]);
  if (st == LDS_OK) st = lds_search_step(s, NULL);
  if (st < 0) {
    rc = cli_fail(CMD, "%s", lds_search_errmsg(s));
    goto done;
  }
  lds_search_stats(s, &stats);
  p = lds_search_path(s, NULL);
  if (png && !cli_picture(CMD, png, g, s, p, (int)scale)) {
    rc = 2;
    goto done;
  }
  if (json) {
    print_json(map_path, c, &params, s, st, &stats, p);
    if (st != LDS_FOUND) rc = 1;
    goto done;
  }
  printf("algorithm   %s", lds_algo_name(params.algo));
  if (lds_search_algo_used(s) != params.algo)
    printf(" (ran %s: %s)", lds_algo_name(lds_search_algo_used(s)),
           lds_search_algo_used(s) == LDS_ALGO_JPS
               ? "JPS+ needs the no_corner_cutting diagonal rule"
               : "JPS needs a uniform-cost 8-connected grid, no_corner_cutting or always");
  printf("\n");
  printf("status      %s%s%s\n", lds_status_name(st), lds_search_errmsg(s)[0] ? ": " : "",
         cli_plain(lds_search_errmsg(s)));
  printf("expansions  %llu\n", (unsigned long long)stats.expansions);
  if (p) {
    print_path(s, p);
    if (ascii && !draw_ascii(g, p, (int32_t)c[2], (int32_t)c[3])) {
      rc = cli_fail(CMD, "out of memory drawing the map");
      goto done;
    }
  } else {
    printf("cost        -\ncells       0\n");
  }
  if (st != LDS_FOUND) rc = 1;
done:
  lds_path_free(p);
  lds_search_free(s);
  lds_grid_free(g);
  return rc;
}
