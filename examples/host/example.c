/* SPDX-License-Identifier: MIT */
/*
** example.c — the smallest complete lodestar host (docs/embedding.md walks
** through it): load a map, create a runtime, lend it the grid, ask for
** paths from C and from Lua, tick with a 1000 µs budget until every request
** is done, print the results, free everything.
**
**   build/example_host [MAP]        (default tests/data/arena.map)
*/
#include "lds.h"
#include "lds_io.h"
#include "lds_runtime.h"

#include <stdio.h>

/* Where lodestar's errors go: Lua errors in callbacks, mod reloads, ... */
static void log_line(void *ud, int level, const char *msg) {
  (void)ud;
  fprintf(level == 0 ? stderr : stdout, "[log %d] %s\n", level, msg);
}

/* Completion callback of the requests made from C (inside the tick). */
static lds_Status on_path(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                          const lds_RequestInfo *info) {
  int *done = (int *)ud;
  (void)sc;
  (void)id;
  if (ev != LDS_EVENT_DONE) return LDS_OK;
  printf("C request of agent %lld: %s, cost %.3f, %zu cells, %u frames\n",
         (long long)info->agent_id, lds_status_name(info->status), info->cost,
         info->path_length, info->frames);
  (*done)++;
  return LDS_OK; /* LDS_REQ_AUTO_RELEASE frees the request after this */
}

static const char *const lua_code =
    "lua_done = false\n"
    "lodestar.request_path{grid = 'world', start = {3, 3}, goal = {40, 20}, agent = 99,\n"
    "  on_done = function(h)\n"
    "    print(('Lua request of agent %d: %s, cost %.3f, %d cells'):format(\n"
    "      h.agent, h.status, h.cost, h.path and #h.path or 0))\n"
    "    lua_done = true\n"
    "  end}\n";

int main(int argc, char **argv) {
  const char *map = argc > 1 ? argv[1] : "tests/data/arena.map";
  static const int32_t goals[3][2] = {{30, 30}, {45, 10}, {5, 40}};
  lds_Error err;
  lds_RuntimeConfig cfg;
  lds_Runtime *rt;
  lds_Grid *grid;
  int i, done = 0, frames = 0, rc = 0;

  grid = lds_map_load(NULL, map, &err);                    /* 1. the host's grid */
  if (!grid) {
    fprintf(stderr, "%s\n", err.msg);
    return 1;
  }
  lds_runtime_config_init(&cfg);                           /* 2. the runtime */
  cfg.env.log = log_line;
  rt = lds_runtime_new(&cfg, &err);
  if (!rt) {
    fprintf(stderr, "%s\n", err.msg);
    lds_grid_free(grid);
    return 1;
  }
  if (lds_runtime_add_grid(rt, "world", grid) != LDS_OK) { /* 3. lend the grid */
    fprintf(stderr, "%s\n", lds_runtime_errmsg(rt));
    rc = 1;
    goto out;
  }
  for (i = 0; i < 3; i++) {                                /* 4. requests from C */
    lds_Request rq;
    lds_RequestId id;
    lds_request_init(&rq, grid, 3, 3, goals[i][0], goals[i][1]);
    rq.agent_id = i;
    rq.flags = LDS_REQ_AUTO_RELEASE;
    rq.on_done = on_path;
    rq.ud = &done;
    if (lds_runtime_submit(rt, &rq, NULL, &id) != LDS_OK) {
      fprintf(stderr, "%s\n", lds_runtime_errmsg(rt));
      rc = 1;
      goto out;
    }
  }
  if (lds_runtime_dostring(rt, lua_code, "=example") != LDS_OK) { /* 5. one from Lua */
    rc = 1;
    goto out;
  }
  while (lds_runtime_pending(rt) > 0 && frames < 1000) {   /* 6. the frame loop */
    lds_RuntimeStats st;
    lds_runtime_tick(rt, 1000, &st);
    frames++;
  }
  printf("done: %d C requests and the Lua request in %d frames\n", done, frames);
out:
  lds_runtime_free(rt);                                    /* 7. runtime first, */
  lds_grid_free(grid);                                     /*    then the grid */
  return rc;
}
