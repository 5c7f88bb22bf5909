/* SPDX-License-Identifier: MIT */
/*
** lua_util.c — shared helpers of the lodestar.core binding: error messages that name
** the argument on both engines, argument checks, results, metatables.
*/
#include "lua_util.h"

/* Formats a number the same way on every libc: nan, inf, -inf, %.14g. */
const char *ldsl_fmt_num(char *buf, size_t size, double v) {
  if (isnan(v))
    snprintf(buf, size, "nan");
  else if (isinf(v))
    snprintf(buf, size, v > 0 ? "inf" : "-inf");
  else
    snprintf(buf, size, "%.14g", v);
  return buf;
}

/* A coordinate, index or size as the caller wrote it: integral values in
** full ("4294967296", "-3", never wrapped to 32 bits nor in %g's
** exponent form), others as ldsl_fmt_num ("2.5", "nan", "inf"). */
const char *ldsl_fmt_coord(char *buf, size_t size, double v) {
  if (v == floor(v) && fabs(v) < 1e18)
    snprintf(buf, size, "%.0f", v);
  else
    ldsl_fmt_num(buf, size, v);
  return buf;
}

/* 1 when v is a cell coordinate on an axis of n cells: an integer in
** 0..n-1 (so neither nan, inf nor a fraction). */
int ldsl_coord_ok(double v, int32_t n) { return v == floor(v) && v >= 0 && v < (double)n; }

/* Name of the value at idx for error messages: __name of its metatable if
** it is a string (both engines), else the basic type name. */
const char *ldsl_value_name(lua_State *L, int idx) {
  const char *name = luaL_typename(L, idx);
  if (lua_type(L, idx) == LUA_TUSERDATA && lua_getmetatable(L, idx)) {
    lua_getfield(L, -1, "__name");
    if (lua_type(L, -1) == LUA_TSTRING) name = lua_tostring(L, -1); /* kept alive by the mt */
    lua_pop(L, 2);
  }
  return name;
}

/* Registry key (its address) of this state's table of function names:
** each module function and method of lodestar.core (the function object)
** -> "name" for a module function, ":name" for a method. Weak keys. */
const char ldsl_names_key = 'n';

/* luaL_argerror, with names for the calls it cannot name. Lua names a C
** function from its call site; where there is none to see (pcall(s.step, s,
** -1), a tail call on LuaJIT, a coroutine.wrap) it prints '?' and counts
** self. There the function is looked up in the names table instead, and a
** method is reported as if called with ':' (self not counted, "calling 'f'
** on bad self" for self itself), as luaL_argerror does for s:step(-1).
** Functions not in the table (a host's) get luaL_argerror unchanged. */
int ldsl_arg_error(lua_State *L, int arg, const char *extramsg) {
  lua_Debug ar;
  const char *name = NULL;
  int top = lua_gettop(L);
  if (!lua_getstack(L, 0, &ar)) return luaL_argerror(L, arg, extramsg);
  lua_getinfo(L, "nf", &ar); /* ..., fn */
  if (ar.name == NULL || strcmp(ar.name, "?") == 0) { /* else the call site names it */
    lua_pushlightuserdata(L, (void *)&ldsl_names_key);
    lua_rawget(L, LUA_REGISTRYINDEX); /* ..., fn, names */
    if (lua_type(L, -1) == LUA_TTABLE) {
      lua_pushvalue(L, -2);
      lua_rawget(L, -2); /* ..., fn, names, name */
      if (lua_type(L, -1) == LUA_TSTRING) name = lua_tostring(L, -1); /* kept on the stack */
    }
  }
  if (!name) {
    lua_settop(L, top);
    return luaL_argerror(L, arg, extramsg);
  }
  if (name[0] == ':') { /* a method */
    name++;
    if (--arg == 0) return luaL_error(L, "calling '%s' on bad self (%s)", name, extramsg);
  }
  return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, name, extramsg);
}

/* Adds the functions of l, found in the table at t, to the names table at
** names (absolute indices); prefix ":" for methods. The first name of a
** function shared by two entries wins. */
void ldsl_add_names(lua_State *L, int names, int t, const luaL_Reg *l, const char *prefix) {
  for (; l->name; l++) {
    lua_getfield(L, t, l->name); /* fn */
    lua_pushvalue(L, -1);
    lua_rawget(L, names); /* fn, old */
    if (lua_isnil(L, -1) && !lua_isnil(L, -2)) {
      lua_pop(L, 1);
      lua_pushfstring(L, "%s%s", prefix, l->name); /* fn, name */
      lua_rawset(L, names);
    } else {
      lua_pop(L, 2);
    }
  }
}

/* "bad argument #i to 'f' (T expected, got U)" on both engines (STYLE 13). */
int ldsl_type_error(lua_State *L, int arg, const char *expected) {
  const char *msg = lua_pushfstring(L, "%s expected, got %s", expected, ldsl_value_name(L, arg));
  return ldsl_arg_error(L, arg, msg);
}

/* Boolean option `name` of the options table at arg (an absolute index):
** dflt when the field is nil, the boolean when it is one; any other value
** (0, "yes", ...) raises "bad argument #arg to 'f' (opts.NAME: boolean
** expected, got T)" rather than being read as true (0 and "" are truthy in
** Lua, so a truthiness read takes them as a request for the option). */
int ldsl_opt_boolean(lua_State *L, int arg, const char *name, int dflt) {
  int v = dflt;
  lua_getfield(L, arg, name);
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TBOOLEAN) ldsl_opt_type_error(L, arg, name, "boolean");
    v = lua_toboolean(L, -1);
  }
  lua_pop(L, 1);
  return v;
}

/* Optional boolean argument at arg: dflt when absent or nil, the boolean
** when it is one; any other value raises "bad argument #arg to 'f'
** (boolean expected, got T)". */
int ldsl_arg_boolean(lua_State *L, int arg, int dflt) {
  if (lua_isnoneornil(L, arg)) return dflt;
  if (lua_type(L, arg) != LUA_TBOOLEAN) ldsl_type_error(L, arg, "boolean");
  return lua_toboolean(L, arg);
}

/* luaL_checkoption through arg_error: the index of the string at arg in
** lst (NULL-terminated); "invalid option 'x'" otherwise. */
int ldsl_check_option(lua_State *L, int arg, const char *const lst[]) {
  const char *name;
  int i;
  if (lua_type(L, arg) != LUA_TSTRING) ldsl_type_error(L, arg, "string");
  name = lua_tostring(L, arg);
  for (i = 0; lst[i]; i++)
    if (strcmp(lst[i], name) == 0) return i;
  return ldsl_arg_error(L, arg, lua_pushfstring(L, "invalid option '%s'", name));
}

/* Raises "unknown <what> 'k' (expected a, b, c)" for a key k of the table
** at arg that is not in keys (NULL-terminated, sorted), or nonstring for a
** key that is not a string; extra, if not NULL, is one more accepted key,
** listed in its sorted place. The list is made from the array the check
** uses, so it names every accepted key. */
void ldsl_check_keys(lua_State *L, int arg, const char *what, const char *nonstring,
                       const char *const keys[], const char *extra) {
  lua_pushnil(L);
  while (lua_next(L, arg)) { /* key, value */
    const char *k;
    int i;
    if (lua_type(L, -2) != LUA_TSTRING) ldsl_arg_error(L, arg, nonstring);
    k = lua_tostring(L, -2);
    for (i = 0; keys[i] && strcmp(keys[i], k) != 0; i++) {
    }
    if (!keys[i] && !(extra && strcmp(extra, k) == 0)) {
      luaL_Buffer b;
      int first = 1, extra_done = extra == NULL;
      lua_pushfstring(L, "unknown %s '%s' (expected ", what, k); /* key, value, head */
      luaL_buffinit(L, &b);
      for (i = 0; keys[i] || !extra_done; i++) {
        const char *name;
        if (!extra_done && (!keys[i] || strcmp(extra, keys[i]) < 0)) {
          name = extra;
          extra_done = 1;
          i--;
        } else {
          name = keys[i];
        }
        if (!first) luaL_addstring(&b, ", ");
        luaL_addstring(&b, name);
        first = 0;
      }
      luaL_addchar(&b, ')');
      luaL_pushresult(&b); /* key, value, head, list */
      lua_concat(L, 2);
      ldsl_arg_error(L, arg, lua_tostring(L, -1));
    }
    lua_pop(L, 1);
  }
}

/* An integer argument: a number with an integral value, on both engines
** (LuaJIT's luaL_checkinteger truncates 2.5 to 2; 5.4's accepts "2"). */
double ldsl_check_int(lua_State *L, int arg) {
  lua_Number n;
  if (lua_type(L, arg) != LUA_TNUMBER) ldsl_type_error(L, arg, "number");
  n = lua_tonumber(L, arg);
  if (!(n == floor(n)) || fabs(n) > 9007199254740992.0)
    ldsl_arg_error(L, arg, "number has no integer representation");
  return (double)n;
}

double ldsl_opt_int(lua_State *L, int arg, double def) {
  return lua_isnoneornil(L, arg) ? def : ldsl_check_int(L, arg);
}

lua_Number ldsl_check_num(lua_State *L, int arg) {
  if (lua_type(L, arg) != LUA_TNUMBER) ldsl_type_error(L, arg, "number");
  return lua_tonumber(L, arg);
}

const char *ldsl_check_str(lua_State *L, int arg) {
  if (lua_type(L, arg) != LUA_TSTRING) ldsl_type_error(L, arg, "string");
  return lua_tostring(L, arg);
}

void ldsl_check_table(lua_State *L, int arg) {
  if (lua_type(L, arg) != LUA_TTABLE) ldsl_type_error(L, arg, "table");
}

void ldsl_push_stats(lua_State *L, const lds_Stats *st, int extra) {
  lua_createtable(L, 0, 4 + extra);
  ldsl_push_u64(L, st->expansions);
  lua_setfield(L, -2, "expansions");
  ldsl_push_u64(L, st->pushes);
  lua_setfield(L, -2, "pushes");
  ldsl_push_u64(L, st->peak_open);
  lua_setfield(L, -2, "peak_open");
  ldsl_push_u64(L, st->elapsed_us);
  lua_setfield(L, -2, "elapsed_us");
}

void ldsl_push_u64(lua_State *L, uint64_t v) {
#if LUA_VERSION_NUM >= 503
  lua_pushinteger(L, (lua_Integer)v);
#else
  lua_pushnumber(L, (lua_Number)v);
#endif
}

/* Pushes nil, msg, status name; returns 3 (STYLE 15: expected failures). */
/* The highest frame address a guarded call has seen on this thread (the
** stack grows down on every target the module builds for); a frame more
** than 64 MiB above it belongs to another stack (a thread reusing the slot
** is impossible: the variable is per thread) and restarts it. */
#if defined(__GNUC__) || defined(__clang__)
static _Thread_local uintptr_t callback_top;
#define LDSL_FRAME() ((uintptr_t)__builtin_frame_address(0))
#endif

void ldsl_callback_guard(lua_State *L, const char *what) {
#ifdef LDSL_FRAME
  uintptr_t here = LDSL_FRAME();
  if (here > callback_top || callback_top - here > ((uintptr_t)64 << 20)) callback_top = here;
  if (callback_top - here > LDSL_CALLBACK_STACK)
    luaL_error(L, "%s: Lua callbacks nest too deep (more than %d KiB of C stack: a callback "
               "calling lodestar again without end?)", what, LDSL_CALLBACK_STACK / 1024);
#else
  (void)L;
  (void)what;
#endif
}

int ldsl_push_fail(lua_State *L, const char *msg, lds_Status st) {
  luaL_pushfail(L);
  lua_pushstring(L, msg);
  lua_pushstring(L, lds_status_name(st));
  return 3;
}

lds_Env ldsl_lua_env(lua_State *L) {
  lds_Env env;
  lds_env_init(&env);
  env.alloc = (lds_Alloc)lua_getallocf(L, &env.alloc_ud); /* same shape as lua_Alloc */
  return env;
}

/* Creates a metatable with __name, __index = methods and the metamethods. */
void ldsl_create_meta(lua_State *L, const char *tname, const luaL_Reg *meth,
                        const luaL_Reg *metameth) {
  luaL_newmetatable(L, tname);      /* mt */
  lua_pushstring(L, tname);
  lua_setfield(L, -2, "__name");    /* LuaJIT's luaL_newmetatable does not set it */
  luaL_setfuncs(L, metameth, 0);
  if (meth) {
    lua_newtable(L);                /* mt, methods */
    luaL_setfuncs(L, meth, 0);
    lua_setfield(L, -2, "__index"); /* mt */
  }
  lua_pop(L, 1);
}

/* ------------------------------------------------------ space boxes -- */

/* New box of kind on the stack (pointer NULL, metatable set), so a memory
** error before the core object exists cannot leak it (STYLE 14). */
SpaceBox *ldsl_space_new(lua_State *L, const SpaceKind *kind) {
  SpaceBox *b = (SpaceBox *)lds_newudata(L, sizeof(SpaceBox));
  memset(b, 0, sizeof *b);
  b->kind = kind;
  luaL_setmetatable(L, kind->tname);
  return b;
}

/* The box of kind at arg; "bad argument (lodestar.X expected, got T)". */
SpaceBox *ldsl_space_check(lua_State *L, int arg, const SpaceKind *kind) {
  SpaceBox *b = (SpaceBox *)luaL_testudata(L, arg, kind->tname);
  if (!b) ldsl_type_error(L, arg, kind->tname);
  return b;
}

/* Closes the box; the core object goes once no search holds it (the last
** search's release calls this again). Idempotent. */
void ldsl_space_release(SpaceBox *b) {
  b->closed = 1;
  if (b->g && b->nsearch == 0) {
    if (b->fp) lds_search_free(b->fp); /* find_path's search on this grid (lua_search.c) */
    b->fp = NULL;
    if (b->owned) b->kind->free_obj(b->g);
    b->g = NULL;
  }
}

/* x:free() for a box of kind; refused while a callback on it runs. */
int ldsl_space_free(lua_State *L, const SpaceKind *kind) {
  SpaceBox *b = ldsl_space_check(L, 1, kind);
  if (b->busy && !b->closed) return luaL_error(L, kind->busy_free, kind->tname);
  ldsl_space_release(b);
  return 0;
}

/* __gc and __close of both kinds. */
int ldsl_space_gc(lua_State *L) {
  ldsl_space_release((SpaceBox *)lua_touserdata(L, 1));
  return 0;
}

/* __tostring: "lodestar.X (freed)" or the kind's description. */
int ldsl_space_tostring(lua_State *L, const SpaceKind *kind) {
  SpaceBox *b = ldsl_space_check(L, 1, kind);
  if (!b->g || b->closed)
    lua_pushfstring(L, "%s (freed)", kind->tname);
  else
    kind->describe(L, b);
  return 1;
}

/* Raises the core's message msg (err.msg of a call given layer weights).
** A message about the weights ("cell (2,2) has cost -4 under the layer
** weights ...") names the option, without the core function's name:
** "opts.weights: ..." at argument oi when the options there set weights,
** else "FALLBACK: ..." at argument arg (the weights a path remembers:
** fallback "path.weights"; NULL: opts.weights at oi). Any other message is
** an error of argument arg, unchanged. */
int ldsl_weights_fail(lua_State *L, int oi, int arg, const char *fallback, const char *msg) {
  const char *c = strstr(msg, ": ");
  int own = 0;
  if (!strstr(msg, "under the layer weights")) return ldsl_arg_error(L, arg, msg);
  if (strncmp(msg, "lds_", 4) == 0 && c) msg = c + 2;
  if (oi && lua_type(L, oi) == LUA_TTABLE) {
    lua_getfield(L, oi, "weights");
    own = !lua_isnil(L, -1);
    lua_pop(L, 1);
  }
  if (own || !fallback) return ldsl_opt_error(L, oi, "weights", msg);
  return ldsl_arg_error(L, arg, lua_pushfstring(L, "%s: %s", fallback, msg));
}

/* One entry of a lua_next walk over option `weights` of argument arg (the
** layer name at -2, its weight at -1): raises find_path's error unless the
** name is a string and the weight a finite number, and, when g is given,
** unless g has that layer. Returns the name (on the stack, at -2). */
const char *ldsl_weight_entry(lua_State *L, int arg, const lds_Grid *g) {
  char buf[64];
  const char *name;
  if (lua_type(L, -2) != LUA_TSTRING) ldsl_opt_error(L, arg, "weights", "keys must be layer names");
  name = lua_tostring(L, -2);
  if (lua_type(L, -1) != LUA_TNUMBER)
    ldsl_opt_error(L, arg, "weights", lua_pushfstring(L, "weight of layer '%s': number expected, "
                                                      "got %s", name, ldsl_value_name(L, -1)));
  if (isnan(lua_tonumber(L, -1)) || isinf(lua_tonumber(L, -1)))
    ldsl_opt_error(L, arg, "weights",
                   lua_pushfstring(L, "weight of layer '%s' is %s (expected finite)", name,
                                   ldsl_fmt_num(buf, sizeof buf, lua_tonumber(L, -1))));
  if (g && lds_grid_layer_find(g, name) < 0)
    ldsl_opt_error(L, arg, "weights", lua_pushfstring(L, "the grid has no layer '%s'", name));
  return name;
}
