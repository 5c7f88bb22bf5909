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

#define LDS_GRID_MT "lodestar.Grid"
#define LDS_SEARCH_MT "lodestar.Search"
#define LDS_PATH_MT "lodestar.Path"
#define LDS_DSTAR_MT "lodestar.DStar" /* lodestar.search.dstar_lite */
#define LDS_GRAPH_MT "lodestar.Graph"
#define LDS_SCHEDULER_MT "lodestar.Scheduler" /* reserved for the scheduler issue */
/* Field of the Grid and Graph metatables naming the search space ("grid" /
** "graph"): the group check of arguments that take either. */
#define LDS_SPACE_FIELD "__lodestar_space"

/// Opens the module: returns one table (grid, search, path, find_path,
/// option lists, status_name, _VERSION). Sets no globals.
/// [Owner: Lua] Called by require "lodestar.core".
#if defined(__GNUC__) || defined(__clang__)
__attribute__((visibility("default")))
#endif
int luaopen_lodestar_core(lua_State *L);

#endif
