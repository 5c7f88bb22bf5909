/* SPDX-License-Identifier: MIT */
/*
** lds_pattern.h — bounded Lua 5.4 patterns for the lodestar.core module
** (bindings/lua/lds_pattern.c).
*/
#ifndef LDS_PATTERN_H
#define LDS_PATTERN_H

#include <lua.h>

/// Sets field `pattern` of the table at the top of the stack (the module
/// table) to the constructor
///   lodestar.core.pattern([meter]) -> {find, match, gmatch, gsub}
/// The four functions take the arguments of string.find, string.match,
/// string.gmatch (with 5.4's init) and string.gsub and return what Lua 5.4's
/// return, with the same error messages, on both engines; a call stops
/// with "pattern too complex: more than N steps" after meter.max_steps
/// steps [default 1e6] and gsub with "gsub: result longer than N bytes"
/// past meter.max_len bytes [default 2^26]. After each call (and before
/// each call of a gsub replacement function, and before raising) the
/// steps spent are passed to meter.charge(steps) when it is a function; it
/// may raise. The meter is read at every call, so its fields may change.
/// [Owner: Lua]
void lds_pattern_open(lua_State *L);

#endif
