/* SPDX-License-Identifier: MIT */
/*
** lds_guard.h — the memory side of the mod CPU guard for the lodestar.core
** module (bindings/lua/lds_guard.c).
*/
#ifndef LDS_GUARD_H
#define LDS_GUARD_H

#include <lua.h>

/// Sets registry["lodestar.memory_limit"] (not a module field: a sandboxed
/// mod must not reach it and lift its own limit; the host gets it with
/// debug.getregistry()) to
///   memory_limit([bytes | false]) -> limit, refused, total
/// With a number: from now on an allocation that would grow the Lua heap
/// (the bytes of every lua_State allocation, as collectgarbage("count")
/// counts them) past `bytes` is refused, and Lua raises its memory error
/// ("not enough memory"); false lifts the limit; no argument only asks.
/// Returns the limit before the call (false when none), the allocations
/// refused since the previous call (the count restarts), and the heap size
/// now [Units: bytes]. The first call wraps the state's allocator (one
/// small block, released when the state closes; the wrapper only forwards
/// and counts). lodestar.mods sets it around each call into a mod, so one
/// instruction such as `s = s .. s` cannot allocate without bound.
/// [Limit: bytes >= 0] [Owner: Lua]
/// Also sets registry["lodestar.sandbox"] to
///   sandbox([on]) -> was_on
/// the flag lodestar.mods raises around each call into a mod: while it is
/// on, the host-only methods (lodestar.mods HOST_METHODS: drawing through
/// host functions, writing pictures) raise instead of running.
void lds_guard_open(lua_State *L);

/// 1 while registry["lodestar.sandbox"] is on (a mod is running), else 0.
int lds_guard_in_sandbox(lua_State *L);

#endif
