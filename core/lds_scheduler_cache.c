/* SPDX-License-Identifier: MIT */
/*
** lds_scheduler_cache.c — a scheduler grid's path cache: setting and
** reading it (lds_scheduler_set_path_cache, lds_scheduler_path_cache). The
** requests it answers are served in lds_scheduler_step.c (serve_from_cache);
** the cache itself is lds_path_cache.c.
*/
#include "lds_scheduler_internal.h"

static GridEntry *entry_of(const lds_Scheduler *sc, const lds_Grid *grid) {
  int i;
  if (!grid) return NULL;
  for (i = 0; i < sc->ngrids; i++)
    if (sc->grids[i].grid == grid) return &sc->grids[i];
  return NULL;
}

lds_Status lds_scheduler_set_path_cache(lds_Scheduler *sc, const lds_Grid *grid,
                                        uint32_t max_entries) {
  GridEntry *ge = entry_of(sc, grid);
  lds_PathCache *pc = NULL;
  lds_Env env;
  lds_Error err;
  if (sc->ticking)
    return ldsi_sched_fail(sc, LDS_E_STATE,
                           "lds_scheduler_set_path_cache: called from inside a callback");
  if (!ge)
    return ldsi_sched_fail(sc, LDS_E_ARG, "lds_scheduler_set_path_cache: grid %p was not added",
                           (const void *)grid);
  if (max_entries > 0) {
    env = ldsi_env_public(&sc->env);
    pc = lds_path_cache_new(&env, grid, max_entries, &err);
    if (!pc) return ldsi_sched_fail(sc, err.code, "lds_scheduler_set_path_cache: %s", err.msg);
  }
  lds_path_cache_free(ge->cache);
  ge->cache = pc;
  return LDS_OK;
}

const lds_PathCache *lds_scheduler_path_cache(const lds_Scheduler *sc, const lds_Grid *grid) {
  const GridEntry *ge = entry_of(sc, grid);
  return ge ? ge->cache : NULL;
}
