/* SPDX-License-Identifier: MIT */
/*
** lodestar_lua.h — names shared by the Lua module lodestar.core and any C
** host or module that creates or checks its objects.
**
** The metatables are registered under these names in the registry
** (luaL_newmetatable), so a host can luaL_checkudata a lodestar.Grid. Every
** userdata starts with a box: the core pointer plus flags. Objects a host
** lends to Lua are pushed with owned = 0 and never freed by __gc.
*/
#ifndef LODESTAR_LUA_H
#define LODESTAR_LUA_H

#include <lua.h>

#include "lds_grid.h"
#include "lds_path.h"
#include "lds_scheduler.h"
#include "lds_search.h"

#define LDS_GRID_MT "lodestar.Grid"
#define LDS_SEARCH_MT "lodestar.Search"
#define LDS_PATH_MT "lodestar.Path"
#define LDS_DSTAR_MT "lodestar.DStar" /* lodestar.search.dstar_lite */
#define LDS_GRAPH_MT "lodestar.Graph"
#define LDS_SCHEDULER_MT "lodestar.Scheduler" /* lodestar.scheduler.new */
/* Field of the Grid and Graph metatables naming the search space ("grid" /
** "graph"): the group check of arguments that take either. */
#define LDS_SPACE_FIELD "__lodestar_space"

/// Opens the module: returns one table (grid, search, path, find_path,
/// option lists, status_name, _VERSION). Sets no globals.
/// [Owner: Lua] Called by require "lodestar.core".
#if defined(_WIN32) && defined(LDS_LUA_MODULE_DLL)
__declspec(dllexport) /* core.dll for Lua on Windows (mk/windows.mk) */
#elif defined(__GNUC__) || defined(__clang__)
__attribute__((visibility("default")))
#endif
int luaopen_lodestar_core(lua_State *L);

/* ----------------------------------------------------- for C hosts (runtime/) -- */

/// Pushes a lodestar.Grid userdata for g. With owned = 0 the grid is lent
/// by the host: __gc, __close and :free() never free it (the host keeps it
/// alive while Lua may use it, and frees it itself after lua_close or after
/// dropping every reference). With owned = 1 Lua takes it over.
/// [Owner: see owned] Raises a Lua memory error (g is then not freed).
void lds_lua_push_grid(lua_State *L, lds_Grid *g, int owned);
/// The grid of the lodestar.Grid at idx; raises "bad argument #idx
/// (lodestar.Grid expected, got T)" or "attempt to use a freed
/// lodestar.Grid". [Owner: the userdata]
lds_Grid *lds_lua_check_grid(lua_State *L, int idx);
/// Pushes a lodestar.Path userdata for p. With owned = 1 (the usual case)
/// Lua takes the path over and frees it with lds_path_free at __gc or
/// :free(). NULL p raises "no path". [Owner: see owned] On a Lua memory
/// error (raised before p is stored) an owned p is freed first, so a caller
/// that hands p over never leaks it; with owned = 0 the caller keeps p.
void lds_lua_push_path(lua_State *L, lds_Path *p, int owned);
/// Reads the search options table at idx (nil or a table: the keys of
/// find_path's opts — algorithm, heuristic, weight, h_scale, partial,
/// weights — checked by the binding's one parser, the one find_path and
/// lodestar.core.search_options use) over the values already in *p: only
/// the options the table sets change *p. Layer weights (name -> number)
/// are resolved on grid g into w[16] (p->layer_weights points to w).
/// opts.cost (a Lua callback) is refused. Returns NULL, or the error
/// message (find_path's text inside its "bad argument (...)", e.g.
/// "opts.weight: 0.5 out of range (expected finite, >= 1)"), pushed on the
/// stack; never raises but for memory errors outside its own pcall.
/// [Owner: *p and w stay the caller's; the message is on the stack]
const char *lds_lua_search_params(lua_State *L, int idx, const lds_Grid *g, lds_SearchParams *p,
                                  double *w);

/// Pushes a new lodestar.Scheduler (the object lodestar.scheduler.new
/// makes) over a new lds_Scheduler made with env and cfg (NULL: defaults),
/// and returns that scheduler, which lives as long as the userdata: a C host
/// keeps a reference to it (e.g. luaL_ref) and may use the pointer for its
/// own requests (lds_scheduler_submit with its own C callbacks) until the
/// userdata is collected or lua_close. Lua's requests and C's share it.
/// @returns the scheduler, or NULL with *err (nothing pushed).
/// [Owner: the userdata] Raises only Lua memory errors.
lds_Scheduler *lds_lua_new_scheduler(lua_State *L, const lds_Env *env,
                                     const lds_SchedulerConfig *cfg, lds_Error *err);
/// The scheduler of the lodestar.Scheduler at idx; raises a type error or
/// "attempt to use a freed lodestar.Scheduler". [Owner: the userdata]
lds_Scheduler *lds_lua_check_scheduler(lua_State *L, int idx);
/// sched:add_grid(grid, n_searches) for the scheduler at sidx and the
/// lodestar.Grid at gidx (it keeps the grid userdata alive), without
/// raising: returns lds_scheduler_add_grid's status (message in
/// lds_scheduler_errmsg), or LDS_E_ARG for a wrong or freed object.
lds_Status lds_lua_scheduler_add_grid(lua_State *L, int sidx, int gidx, int n_searches);
/// sched:step(budget) for the scheduler at sidx: one lds_scheduler_step,
/// then the Lua callbacks of the requests it delivered (each under
/// lua_pcall; their errors go to the scheduler's on_error). *out gets the
/// tick's counters (callback_errors includes the Lua callbacks' errors).
/// @returns NULL, or an error message pushed on the stack (a callback error
/// with no on_error, a memory error, a step from inside a callback); never
/// raises. [Owner: the message is on the stack]
const char *lds_lua_scheduler_step(lua_State *L, int sidx, const lds_Budget *budget,
                                   lds_TickStats *out);

#endif
