/* SPDX-License-Identifier: MIT */
/*
** lds_runtime.h — the embedding API for a game written in C: one runtime
** owns a lua_State (with the `lodestar` package loaded), one lds_Scheduler,
** and optionally the mod manager with hot reload. docs/embedding.md walks
** through examples/host/example.c.
**
**   lds_RuntimeConfig cfg;
**   lds_runtime_config_init(&cfg);
**   cfg.env.log = my_log;                         // errors of Lua callbacks, mods
**   cfg.mods_dir = "mods"; cfg.watch = true;      // [opt] mods + hot reload
**   lds_Runtime *rt = lds_runtime_new(&cfg, &err);
**   lds_runtime_add_grid(rt, "world", grid);      // the host keeps owning grid
**   lds_runtime_submit(rt, &rq, "terrain.walker", &id);   // from C, or from
**   lds_runtime_dostring(rt, "lodestar.request_path{...}", "=ai");  // Lua
**   ... once a frame:
**   lds_runtime_tick(rt, 1000, &stats);           // 1 ms of searching
**   ...
**   lds_runtime_free(rt);                         // then free the grids
**
** Memory: Lua and lodestar share cfg.env.alloc (lua_newstate is given an
** adapter that passes osize = 0 for new blocks, as lds_Alloc promises).
** Errors: Lua errors raised by callbacks (on_done), by mods, or by chunks
** run with lds_runtime_dostring never unwind the host: they are caught with
** lua_pcall and reported through cfg.env.log (level 0, message and
** traceback). This header does not include lua.h; lds_runtime_lua() gives
** the state to hosts that do.
*/
#ifndef LDS_RUNTIME_H
#define LDS_RUNTIME_H

#include "lds_common.h"
#include "lds_grid.h"
#include "lds_path.h"
#include "lds_scheduler.h"

LDS_BEGIN_DECLS

struct lua_State;
typedef struct lds_Runtime lds_Runtime;

/// A mod event after a poll (see docs/mods.md, "Hot reload").
typedef struct lds_ModEvent {
  const char *mod;     ///< mod name [Owner: the runtime; valid during the callback]
  const char *result;  ///< "loaded", "reloaded", "failed", "removed", "unloaded",
                       ///< "rebaked" or "disabled"
  double ms;           ///< time of the (re)load and bakes, on env.clock [Units: ms]
  const char *text;    ///< one line for a log, e.g. "terrain 1.0.0 reloaded in 4.2 ms (...)"
  const char *error;   ///< the error ("file:line: message") or NULL
  uint32_t restarted;  ///< requests in flight restarted because of this poll
                       ///< (the same number on every event of one poll)
} lds_ModEvent;

/// Called once per mod event, from lds_runtime_new (first load) or
/// lds_runtime_tick / lds_runtime_poll_mods (reloads).
typedef void (*lds_ModEventFn)(void *ud, const lds_ModEvent *ev);

/// Settings of a runtime. Fill with lds_runtime_config_init, then change.
typedef struct lds_RuntimeConfig {
  lds_Env env;               ///< allocator (Lua's too), clock, log; defaults if NULL members
  lds_SchedulerConfig sched; ///< scheduler settings (lds_scheduler_config_init defaults)
  const char *scripts_dir;   ///< [opt] directory holding lodestar/init.lua; NULL = the
                             ///< build's scripts/ (LDS_SCRIPTS_DIR, as build/env.sh)
  const char *mods_dir;      ///< [opt] folder of mods; NULL = no mods
  bool watch;                ///< with mods_dir: poll for changed files during ticks
  uint32_t poll_frames;      ///< poll every N ticks when watching [Units: frames]
                             ///< [Limit: >= 1] default 30 (0.5 s at 60 fps)
  uint64_t instruction_limit;///< [opt] CPU guard per call into mod code
                             ///< [Units: VM instructions] 0 = manager default (1e7)
  double time_limit_ms;      ///< [opt] CPU guard: time per call into mod code, read on
                             ///< env.clock every 1000 instructions; a mod's (re)load in a
                             ///< poll (mod.lua, selftest, every bake) is one call
                             ///< [Units: ms] [Limit: >= 0, finite] 0 = manager default (500)
  int64_t cell_limit;        ///< [opt] extra instructions a bake may spend per cell: a
                             ///< bake of N cells runs under instruction_limit +
                             ///< cell_limit * N [Units: VM instructions] [Limit: >= -1]
                             ///< -1 = manager default (2000; lds_runtime_config_init sets -1)
  uint64_t memory_limit_kb;  ///< [opt] growth of the Lua heap per call into mod code; the
                             ///< allocator refuses more [Units: KB] 0 = manager default
                             ///< (65536 = 64 MB)
  lds_ModEventFn on_mod_event; ///< [opt] told about each mod event
  void *mod_event_ud;        ///< passed to on_mod_event
} lds_RuntimeConfig;

/// Counters of one tick.
typedef struct lds_RuntimeStats {
  lds_TickStats tick;        ///< the scheduler's counters (callback_errors
                             ///< includes Lua on_done errors)
  uint32_t lua_errors;       ///< Lua errors caught this tick (callbacks, mod poll)
  bool polled;               ///< the mods were polled this tick
  uint32_t mod_events;       ///< events of that poll
  uint32_t restarted;        ///< requests restarted by that poll
  uint64_t poll_us;          ///< time of the poll, outside the budget [Units: µs]
} lds_RuntimeStats;

/// Fills *cfg with the defaults listed in lds_RuntimeConfig.
LDS_API void lds_runtime_config_init(lds_RuntimeConfig *cfg);

/* ---------------------------------------------------------- lifetime -- */

/// Creates a runtime: a lua_State made with lua_newstate on cfg->env.alloc,
/// the standard libraries, package.path set to scripts_dir, lodestar.core in
/// package.preload (linked in: no .so is loaded), `require "lodestar"` done
/// and `lodestar.request_path` added; a scheduler with cfg->sched (owned by
/// a lodestar.Scheduler in that state; checked before anything is made:
/// LDS_E_ARG names the setting); and, when
/// mods_dir is set, the mod manager with a first poll (loads every mod; the
/// events go to on_mod_event and the log). Grids added later get the mods'
/// layers baked when they are added.
/// @param[in] cfg  [opt] NULL for the defaults
/// @param[out] err [opt]
/// @returns the runtime, or NULL with LDS_E_ARG (a setting out of range,
///   mods_dir not a directory), LDS_E_NOMEM, or LDS_E_CALLBACK (the Lua
///   package failed to load: the message has Lua's error).
/// [Owner: caller frees with lds_runtime_free]
LDS_API lds_Runtime *lds_runtime_new(const lds_RuntimeConfig *cfg, lds_Error *err);
/// Frees the runtime: the mod manager is closed (its layers are removed
/// from the host's grids), pending requests are dropped without callbacks,
/// the lua_State is closed, the scheduler freed. Grids are not freed (the
/// host owns them; free them after this call). NULL is ignored.
/// Must not be called from a callback.
LDS_API void lds_runtime_free(lds_Runtime *rt);

/// The runtime's lua_State, for hosts that call Lua directly.
/// [Owner: the runtime; do not lua_close it]
LDS_API struct lua_State *lds_runtime_lua(lds_Runtime *rt);
/// The runtime's scheduler (status, info, take_path, cancel, release of
/// requests submitted from C). It belongs to a lodestar.Scheduler in the
/// runtime's Lua state (lds_lua_new_scheduler), which Lua's request_path
/// uses too. Step it with lds_runtime_tick: a direct lds_scheduler_step
/// runs the C callbacks but leaves the Lua ones queued until the next
/// tick. [Owner: the runtime; valid until lds_runtime_free]
LDS_API lds_Scheduler *lds_runtime_scheduler(lds_Runtime *rt);
/// Last error message ("" if none). [Owner: the runtime]
LDS_API const char *lds_runtime_errmsg(const lds_Runtime *rt);

/* ------------------------------------------------------------- grids -- */

/// Registers a grid the host owns under a name: added to the scheduler
/// (allocates its searches), pushed to Lua as a borrowed lodestar.Grid
/// (`owned = false`: Lua's GC never frees it) reachable as
/// `lodestar.grids[name]` and usable as `request_path{grid = name}`, and
/// given to the mod manager (the mods' layers are baked on it now).
/// The grid must outlive the runtime.
/// @param[in] name [Limit: 1..63 bytes, unique]
/// @returns LDS_OK; LDS_E_ARG (NULL, bad or taken name, grid already
///   added); LDS_E_NOMEM / LDS_E_LIMIT (scheduler); LDS_E_CALLBACK (the mod
///   manager raised; message in lds_runtime_errmsg).
LDS_API lds_Status lds_runtime_add_grid(lds_Runtime *rt, const char *name, lds_Grid *grid);
/// The grid registered under name, or NULL. [Owner: the host]
LDS_API lds_Grid *lds_runtime_grid(const lds_Runtime *rt, const char *name);

/* ---------------------------------------------------------- requests -- */

/// Submits a request from C. rq is lds_scheduler_submit's (grid added with
/// lds_runtime_add_grid; on_done is rq's own C callback, called from
/// inside lds_runtime_tick). With a profile ("danger.cautious"), the mod's
/// profile is applied over rq->params: its weights (layer names resolved to
/// indices now), algorithm, heuristic, weight and h_scale; and the request
/// is remembered, so after a reload that changes the profile or a layer it
/// weights it is restarted with the new profile (same handle, same place
/// in the queue: lds_scheduler_set_params).
/// @param[in] profile [opt] NULL = rq->params as given
/// @param[out] id     the scheduler handle (use lds_runtime_scheduler(rt)
///   to poll, take the path, release)
/// @returns LDS_OK; LDS_E_ARG (as lds_scheduler_submit, or an unknown
///   profile: "lds_runtime_submit: unknown profile 'x.y' (profiles: ...)",
///   or a profile weighting a layer the grid lacks); LDS_E_STATE (a
///   profile without mods); LDS_E_NOMEM. Message in lds_runtime_errmsg.
LDS_API lds_Status lds_runtime_submit(lds_Runtime *rt, const lds_Request *rq,
                                      const char *profile, lds_RequestId *id);

/// Resolves a mod profile ("danger.cautious") for a registered grid: its
/// weights (layer names -> indices into weights[]), algorithm, heuristic,
/// weight and h_scale are written over *params (other fields unchanged);
/// params->layer_weights points into weights. Useful to check or replay a
/// request made with lds_runtime_submit(..., profile, ...).
/// @param[out] weights [Shape: 16 doubles] [Owner: caller]
/// @returns LDS_OK; LDS_E_ARG (unknown profile, grid not added, a layer
///   the grid lacks); LDS_E_STATE (no mods). Message in lds_runtime_errmsg.
LDS_API lds_Status lds_runtime_profile_params(lds_Runtime *rt, const lds_Grid *grid,
                                              const char *profile, lds_SearchParams *params,
                                              double *weights);
/// Writes the qualified names of every profile of the running mods, in
/// load order then name order, separated by '\n', into buf (truncated to
/// size - 1 bytes, always NUL-terminated when size > 0).
/// @returns the number of profiles (0 without mods).
LDS_API size_t lds_runtime_profiles(lds_Runtime *rt, char *buf, size_t size);

/* ------------------------------------------------------------ frames -- */

/// Runs one frame: polls the mods first when watching and the frame number
/// is a multiple of cfg.poll_frames (reloads, re-bakes, restarts of the
/// affected requests; not counted in the budget, timed in stats->poll_us),
/// then lds_scheduler_step with {0, budget_us}, which delivers finished requests
/// (C callbacks directly, inside the step), then the Lua callbacks of the
/// requests it finished (lds_lua_scheduler_step: `on_done(handle)` under
/// lua_pcall, after the step's C work). A Lua error is logged (level 0,
/// message and traceback) and counted; the tick goes on.
/// @param[in] budget_us search budget [Units: µs]; 0 = no limit
/// @param[out] stats [opt]
/// @returns LDS_OK, or LDS_E_STATE when called from inside a callback.
LDS_API lds_Status lds_runtime_tick(lds_Runtime *rt, uint64_t budget_us,
                                    lds_RuntimeStats *stats);
/// Polls the mods now (whatever cfg.watch says): reloads changed mods,
/// restarts affected requests, reports events.
/// @param[out] restarted [opt] requests restarted
/// @returns the number of events (>= 0), or LDS_E_STATE (no mods) or
///   LDS_E_CALLBACK (the manager raised; logged).
LDS_API int lds_runtime_poll_mods(lds_Runtime *rt, uint32_t *restarted);
/// Runs a Lua chunk in the runtime's state (globals: `lodestar`, the
/// package; `mods`, the manager or nil). Errors are logged with a traceback.
/// @param[in] code      Lua source
/// @param[in] chunkname [opt] name in messages, e.g. "=ai.lua"
/// @returns LDS_OK, LDS_E_FORMAT (syntax error) or LDS_E_CALLBACK (runtime
///   error); the message is in lds_runtime_errmsg too.
LDS_API lds_Status lds_runtime_dostring(lds_Runtime *rt, const char *code,
                                        const char *chunkname);
/// Requests submitted through the runtime (C and Lua) still pending.
LDS_API size_t lds_runtime_pending(const lds_Runtime *rt);

LDS_END_DECLS

#endif /* LDS_RUNTIME_H */
