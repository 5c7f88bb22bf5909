/*
** lodestar_core.c — the Lua module lodestar.core: grids, searches and paths
** of the C core as full userdata, for Lua 5.4 and LuaJIT 2.1 (5.1 API).
**
** Each binding checks its arguments, calls one core function and turns the
** status into Lua values (STYLE 12). Conventions, for every function here:
**  - coordinates are cells, 0-based, (0,0) top-left, as in the C core and the
**    Moving AI files; indices *into a path* are 1-based like any Lua sequence;
**  - wrong types or ranges raise "bad argument #n to 'f' (...)" with the same
**    text on both engines; misuse of an object raises; expected failures
**    (file not found, malformed map) return nil, message, status name;
**  - Lua callbacks (bake rules, edge costs) never unwind C core frames: edge
**    costs run under lua_pcall inside the step, bake rules before any core
**    call touches the layer.
**
** Userdata boxes (STYLE 14): the box is created with a NULL pointer and its
** metatable set *before* the core object is made, so a Lua memory error
** cannot leak one; __gc, __close and :free() share one idempotent release.
** A search keeps its grid alive through its user value (a table:
** [1] grid userdata, [2] edge callback, [3] weights by layer name,
** [4] message of the Lua error that ended the query); a graph search keeps
** its graph the same way ([1] graph userdata, [5] custom heuristic).
** Graph node and edge ids are 1-based in Lua (see the graph section).
*/
#include "lds.h"
#include "lds_io.h"

#include "lds_compat.h"
#include "lodestar_lua.h"
#include "lds_guard.h"
#include "lds_pattern.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------- boxes -- */

typedef struct GridBox {
  lds_Grid *g;
  int owned;   /* 0: lent by the host, never freed here */
  int closed;  /* :free() or __gc ran; the core grid may live on for searches */
  int nsearch; /* live searches on this grid */
  int busy;    /* > 0 while a bake rule or an edge callback runs */
} GridBox;

typedef struct GraphBox {
  lds_Graph *g;
  int owned;   /* 0: lent by the host, never freed here */
  int closed;  /* :free() or __gc ran; the core graph may live on for searches */
  int nsearch; /* live searches on this graph */
  int busy;    /* > 0 while a heuristic callback of a search on it runs */
} GraphBox;

typedef struct SearchBox {
  lds_Search *s;
  GridBox *gb; /* the grid's box; the grid userdata is anchored in the user value */
  GraphBox *hb; /* or the graph's box (graph searches; gb is then NULL) */
  int owned;
  int busy;    /* inside step: re-entry and free are refused */
  int started; /* 1 once a start succeeded; 0 before it and after a failed start */
  lds_Algo algo;
  lds_SearchParams params;
  double lw[16];  /* layer weights by layer index, rebuilt at each start */
  /* edge callback trampoline state (valid during a step only) */
  lua_State *L;
  int cb_idx;     /* stack index of the callback function */
  int cb_failed;  /* 1: the callback raised (error object left on the stack) */
  const char *cb_badtype; /* 2: it returned this type */
  int32_t cb_edge[4];
  /* custom Lua heuristic trampoline state (graphs; valid during start/step) */
  int h_idx;      /* stack index of the heuristic function */
  int h_failed;   /* 1: raised (error object on the stack), 2: not a number, 3: bad value */
  const char *h_badtype;
  uint32_t h_node;
  double h_val;
} SearchBox;

typedef struct PathBox {
  lds_Path *p;
  int owned;
} PathBox;

/* ------------------------------------------------------------ errors -- */

/* Formats a number the same way on every libc: nan, inf, -inf, %.14g. */
static const char *fmt_num(char *buf, size_t size, double v) {
  if (isnan(v))
    snprintf(buf, size, "nan");
  else if (isinf(v))
    snprintf(buf, size, v > 0 ? "inf" : "-inf");
  else
    snprintf(buf, size, "%.14g", v);
  return buf;
}

/* Name of the value at idx for error messages: __name of its metatable if
** it is a string (both engines), else the basic type name. */
static const char *value_name(lua_State *L, int idx) {
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
static const char names_key = 'n';

/* luaL_argerror, with names for the calls it cannot name. Lua names a C
** function from its call site; where there is none to see (pcall(s.step, s,
** -1), a tail call on LuaJIT, a coroutine.wrap) it prints '?' and counts
** self. There the function is looked up in the names table instead, and a
** method is reported as if called with ':' (self not counted, "calling 'f'
** on bad self" for self itself), as luaL_argerror does for s:step(-1).
** Functions not in the table (a host's) get luaL_argerror unchanged. */
static int arg_error(lua_State *L, int arg, const char *extramsg) {
  lua_Debug ar;
  const char *name = NULL;
  int top = lua_gettop(L);
  if (!lua_getstack(L, 0, &ar)) return luaL_argerror(L, arg, extramsg);
  lua_getinfo(L, "nf", &ar); /* ..., fn */
  if (ar.name == NULL || strcmp(ar.name, "?") == 0) { /* else the call site names it */
    lua_pushlightuserdata(L, (void *)&names_key);
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
static void add_names(lua_State *L, int names, int t, const luaL_Reg *l, const char *prefix) {
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
static int type_error(lua_State *L, int arg, const char *expected) {
  const char *msg = lua_pushfstring(L, "%s expected, got %s", expected, value_name(L, arg));
  return arg_error(L, arg, msg);
}

/* luaL_checkoption through arg_error: the index of the string at arg in
** lst (NULL-terminated); "invalid option 'x'" otherwise. */
static int check_option(lua_State *L, int arg, const char *const lst[]) {
  const char *name;
  int i;
  if (lua_type(L, arg) != LUA_TSTRING) type_error(L, arg, "string");
  name = lua_tostring(L, arg);
  for (i = 0; lst[i]; i++)
    if (strcmp(lst[i], name) == 0) return i;
  return arg_error(L, arg, lua_pushfstring(L, "invalid option '%s'", name));
}

/* Raises "unknown <what> 'k' (expected a, b, c)" for a key k of the table
** at arg that is not in keys (NULL-terminated, sorted), or nonstring for a
** key that is not a string; extra, if not NULL, is one more accepted key,
** listed in its sorted place. The list is made from the array the check
** uses, so it names every accepted key. */
static void check_keys(lua_State *L, int arg, const char *what, const char *nonstring,
                       const char *const keys[], const char *extra) {
  lua_pushnil(L);
  while (lua_next(L, arg)) { /* key, value */
    const char *k;
    int i;
    if (lua_type(L, -2) != LUA_TSTRING) arg_error(L, arg, nonstring);
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
      arg_error(L, arg, lua_tostring(L, -1));
    }
    lua_pop(L, 1);
  }
}

/* An integer argument: a number with an integral value, on both engines
** (LuaJIT's luaL_checkinteger truncates 2.5 to 2; 5.4's accepts "2"). */
static double check_int(lua_State *L, int arg) {
  lua_Number n;
  if (lua_type(L, arg) != LUA_TNUMBER) type_error(L, arg, "number");
  n = lua_tonumber(L, arg);
  if (!(n == floor(n)) || fabs(n) > 9007199254740992.0)
    arg_error(L, arg, "number has no integer representation");
  return (double)n;
}

static double opt_int(lua_State *L, int arg, double def) {
  return lua_isnoneornil(L, arg) ? def : check_int(L, arg);
}

static lua_Number check_num(lua_State *L, int arg) {
  if (lua_type(L, arg) != LUA_TNUMBER) type_error(L, arg, "number");
  return lua_tonumber(L, arg);
}

static const char *check_str(lua_State *L, int arg) {
  if (lua_type(L, arg) != LUA_TSTRING) type_error(L, arg, "string");
  return lua_tostring(L, arg);
}

static void check_table(lua_State *L, int arg) {
  if (lua_type(L, arg) != LUA_TTABLE) type_error(L, arg, "table");
}

static void push_u64(lua_State *L, uint64_t v) {
#if LUA_VERSION_NUM >= 503
  lua_pushinteger(L, (lua_Integer)v);
#else
  lua_pushnumber(L, (lua_Number)v);
#endif
}

/* Pushes nil, msg, status name; returns 3 (STYLE 15: expected failures). */
static int push_fail(lua_State *L, const char *msg, lds_Status st) {
  luaL_pushfail(L);
  lua_pushstring(L, msg);
  lua_pushstring(L, lds_status_name(st));
  return 3;
}

static lds_Env lua_env(lua_State *L) {
  lds_Env env;
  lds_env_init(&env);
  env.alloc = (lds_Alloc)lua_getallocf(L, &env.alloc_ud); /* same shape as lua_Alloc */
  return env;
}

/* Creates a metatable with __name, __index = methods and the metamethods. */
static void create_meta(lua_State *L, const char *tname, const luaL_Reg *meth,
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

/* -------------------------------------------------------------- grid -- */

static GridBox *check_gridbox(lua_State *L, int arg) {
  GridBox *b = (GridBox *)luaL_testudata(L, arg, LDS_GRID_MT);
  if (!b) type_error(L, arg, LDS_GRID_MT);
  return b;
}

static lds_Grid *check_grid(lua_State *L, int arg) {
  GridBox *b = check_gridbox(L, arg);
  if (!b->g || b->closed) luaL_error(L, "attempt to use a freed %s", LDS_GRID_MT);
  return b->g;
}

/* For calls that reallocate the grid's arrays (layers, bake, free). */
static lds_Grid *check_grid_idle(lua_State *L, int arg, const char *what) {
  lds_Grid *g = check_grid(L, arg);
  if (check_gridbox(L, arg)->busy)
    luaL_error(L, "%s: cannot %s while a bake rule or an edge callback on it runs", LDS_GRID_MT,
               what);
  return g;
}

/* Cell coordinates at args ix, ix+1, checked against the grid. */
static void check_xy(lua_State *L, const lds_Grid *g, int ix, int32_t *x, int32_t *y) {
  double vx = check_int(L, ix), vy = check_int(L, ix + 1);
  char buf[64];
  if (vx < 0 || vx >= lds_grid_width(g)) {
    fmt_num(buf, sizeof buf, vx);
    arg_error(L, ix, lua_pushfstring(L, "x %s out of range (expected 0..%d)", buf,
                                     (int)lds_grid_width(g) - 1));
  }
  if (vy < 0 || vy >= lds_grid_height(g)) {
    fmt_num(buf, sizeof buf, vy);
    arg_error(L, ix + 1, lua_pushfstring(L, "y %s out of range (expected 0..%d)", buf,
                                         (int)lds_grid_height(g) - 1));
  }
  *x = (int32_t)vx;
  *y = (int32_t)vy;
}

/* New grid box on the stack (pointer NULL, metatable set). */
static GridBox *new_gridbox(lua_State *L) {
  GridBox *b = (GridBox *)lds_newudata(L, sizeof(GridBox));
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, LDS_GRID_MT);
  return b;
}

static void grid_release(GridBox *b) {
  b->closed = 1;
  if (b->g && b->nsearch == 0) {
    if (b->owned) lds_grid_free(b->g);
    b->g = NULL;
  }
}

void lds_lua_push_grid(lua_State *L, lds_Grid *g, int owned) {
  GridBox *b = new_gridbox(L); /* may raise before g is referenced */
  b->g = g;
  b->owned = owned ? 1 : 0;
}

lds_Grid *lds_lua_check_grid(lua_State *L, int idx) { return check_grid(L, idx); }

/* lodestar.grid.new(w, h) */
static int grid_new(lua_State *L) {
  double w = check_int(L, 1), h = check_int(L, 2);
  lds_Env env = lua_env(L);
  lds_Error err;
  GridBox *b;
  if (w < 1 || w > LDS_GRID_MAX_SIDE)
    arg_error(L, 1, lua_pushfstring(L, "width %d out of range (expected 1..%d)",
                                    (int)(w < -1e9 ? -1e9 : w > 1e9 ? 1e9 : w),
                                    LDS_GRID_MAX_SIDE));
  if (h < 1 || h > LDS_GRID_MAX_SIDE)
    arg_error(L, 2, lua_pushfstring(L, "height %d out of range (expected 1..%d)",
                                    (int)(h < -1e9 ? -1e9 : h > 1e9 ? 1e9 : h),
                                    LDS_GRID_MAX_SIDE));
  b = new_gridbox(L);
  b->g = lds_grid_new(&env, (int32_t)w, (int32_t)h, &err);
  if (!b->g) return luaL_error(L, "%s", err.msg);
  b->owned = 1;
  return 1;
}

/* lodestar.grid.load(path) -> grid | nil, msg, code */
static int grid_load(lua_State *L) {
  const char *path = check_str(L, 1);
  lds_Env env = lua_env(L);
  lds_Error err;
  GridBox *b = new_gridbox(L);
  b->g = lds_map_load(&env, path, &err);
  if (!b->g) return push_fail(L, err.msg, err.code);
  b->owned = 1;
  return 1;
}

/* An optional name argument for error messages: nil/none -> NULL (the
** core's default), else a string. */
static const char *opt_name(lua_State *L, int arg) {
  return lua_isnoneornil(L, arg) ? NULL : check_str(L, arg);
}

/* lodestar.grid.parse(text [, name]) -> grid | nil, msg, code
** Moving AI .map text already in memory (a game's own file system: LOVE's
** love.filesystem.read, a zip). The grid is the one grid.load makes from a
** file with those bytes; errors are "name:line: ..." ("format"), name
** "(map)" by default, or "nomem". */
static int grid_parse(lua_State *L) {
  size_t len;
  const char *text, *name;
  lds_Env env = lua_env(L);
  lds_Error err;
  GridBox *b;
  check_str(L, 1);
  text = lua_tolstring(L, 1, &len);
  name = opt_name(L, 2);
  b = new_gridbox(L);
  b->g = lds_map_parse(&env, text, len, name, &err);
  if (!b->g) return push_fail(L, err.msg, err.code);
  b->owned = 1;
  return 1;
}

/* Moving AI scenarios as Lua tables. The lds_Scenario is converted under
** lua_pcall and freed whatever happens, so a memory error while building
** the tables cannot leak it. */
static int scen_to_table(lua_State *L) {
  const lds_Scenario *sc = (const lds_Scenario *)lua_touserdata(L, 1);
  size_t i, n = lds_scen_count(sc);
  lua_createtable(L, n > 0x7fffffff ? 0x7fffffff : (int)n, 0); /* sc, list */
  for (i = 0; i < n; i++) {
    const lds_ScenEntry *e = lds_scen_entry(sc, i);
    lua_createtable(L, 0, 10); /* sc, list, entry */
    lua_pushinteger(L, e->bucket);
    lua_setfield(L, -2, "bucket");
    lua_pushstring(L, e->map ? e->map : "");
    lua_setfield(L, -2, "map");
    lua_pushinteger(L, e->map_width);
    lua_setfield(L, -2, "map_width");
    lua_pushinteger(L, e->map_height);
    lua_setfield(L, -2, "map_height");
    lua_pushinteger(L, e->sx);
    lua_setfield(L, -2, "sx");
    lua_pushinteger(L, e->sy);
    lua_setfield(L, -2, "sy");
    lua_pushinteger(L, e->gx);
    lua_setfield(L, -2, "gx");
    lua_pushinteger(L, e->gy);
    lua_setfield(L, -2, "gy");
    lua_pushnumber(L, e->optimal);
    lua_setfield(L, -2, "optimal");
    lua_pushnumber(L, e->tolerance);
    lua_setfield(L, -2, "tolerance");
    lua_rawseti(L, -2, (lua_Integer)i + 1); /* sc, list */
  }
  return 1;
}

/* Pushes the list for sc (NULL: nil, msg, code from err) and frees sc; the
** converter scen_to_table is already on the stack at fi. */
static int push_scenario(lua_State *L, int fi, lds_Scenario *sc, const lds_Error *err) {
  int st;
  if (!sc) return push_fail(L, err->msg, err->code);
  lua_pushvalue(L, fi);
  lua_pushlightuserdata(L, sc); /* ..., fn, sc */
  st = lua_pcall(L, 1, 1, 0);
  lds_scen_free(sc);
  if (st != 0) return lua_error(L);
  return 1;
}

/* lodestar.scenario.load(path) -> {entry, ...} | nil, msg, code */
static int scenario_load(lua_State *L) {
  const char *path = check_str(L, 1);
  lds_Env env = lua_env(L);
  lds_Error err;
  lds_Scenario *sc;
  lua_settop(L, 1);
  lua_pushcfunction(L, scen_to_table); /* path, fn: pushed before sc exists */
  sc = lds_scen_load(&env, path, &err);
  return push_scenario(L, 2, sc, &err);
}

/* lodestar.scenario.parse(text [, name]) -> {entry, ...} | nil, msg, code
** .scen text in memory; errors "name:line: ..." with name "(scen)" by
** default. */
static int scenario_parse(lua_State *L) {
  size_t len;
  const char *text, *name;
  lds_Env env = lua_env(L);
  lds_Error err;
  lds_Scenario *sc;
  check_str(L, 1);
  text = lua_tolstring(L, 1, &len);
  name = opt_name(L, 2);
  lua_settop(L, 2);
  lua_pushcfunction(L, scen_to_table); /* text, name, fn */
  sc = lds_scen_parse(&env, text, len, name, &err);
  return push_scenario(L, 3, sc, &err);
}

/* ---------------------------------------------- grids from pictures -- */

/* What one picture character makes: the built-in meaning ('.', 'S', 'G'
** free at cost 1, '1'..'9' free at that cost, anything else blocked) unless
** a legend entry replaces it. */
typedef struct AsciiCell {
  float cost;
  char terrain;
  unsigned char blocked;
  unsigned char known;  /* in the legend or built in: accepted under strict */
  unsigned char layers; /* has layer values (AsciiLegend.lv) */
} AsciiCell;

/* A legend: 256 cells, the sorted names of the layers it sets, and their
** values per character (lv[c * nl + i], 0 where the entry gives none). */
typedef struct AsciiLegend {
  AsciiCell cell[256];
  const char **names; /* anchored by the legend table at its argument */
  int nl;
  float *lv;
  int strict;
} AsciiLegend;

typedef struct AsciiRow {
  const char *p;
  size_t n;
} AsciiRow;

static const char *const ascii_opts[] = {"legend", "strict", NULL};
static int opt_type_error(lua_State *L, int arg, const char *name, const char *expected);
static const char *const legend_fields[] = {"blocked", "cost", "layers", "terrain", NULL};

static void ascii_builtin(AsciiLegend *lg) {
  int c;
  for (c = 0; c < 256; c++) {
    AsciiCell *a = &lg->cell[c];
    a->terrain = (char)c;
    a->layers = 0;
    if (c >= '1' && c <= '9') {
      a->cost = (float)(c - '0');
      a->blocked = 0;
    } else {
      a->cost = 1.0f;
      a->blocked = !lds_map_passable_char((char)c);
    }
    a->known = c == '.' || c == 'S' || c == 'G' || (c >= '1' && c <= '9') || c == '@' ||
               c == 'O' || c == 'T' || c == 'W';
  }
}

/* "bad argument #arg to 'f' (opts.legend[c]: what)" */
static int legend_error(lua_State *L, int arg, unsigned char c, const char *what) {
  char key[8];
  if (c >= 32 && c < 127)
    snprintf(key, sizeof key, "'%c'", c);
  else
    snprintf(key, sizeof key, "0x%02x", (unsigned)c);
  return arg_error(L, arg, lua_pushfstring(L, "opts.legend[%s]: %s", key, what));
}

/* Pushes t[k] for the table at idx without metamethods. */
static void raw_field(lua_State *L, int idx, const char *k) {
  idx = idx < 0 ? lua_gettop(L) + idx + 1 : idx;
  lua_pushstring(L, k);
  lua_rawget(L, idx);
}

/* The layer index of name in the legend's sorted names. */
static int legend_layer(const AsciiLegend *lg, const char *name) {
  int i;
  for (i = 0; i < lg->nl; i++)
    if (strcmp(lg->names[i], name) == 0) return i;
  return -1;
}

/* One legend value (at the top) for character c into lg->cell[c]. */
static void legend_entry(lua_State *L, int arg, AsciiLegend *lg, unsigned char c) {
  AsciiCell *a = &lg->cell[c];
  int v = lua_gettop(L), t = lua_type(L, v);
  char buf[64];
  a->known = 1;
  a->terrain = (char)c;
  a->cost = 1.0f;
  a->blocked = 0;
  if (t == LUA_TNUMBER || t == LUA_TTABLE) {
    lua_Number cost = 1.0;
    int has_cost = t == LUA_TNUMBER;
    if (t == LUA_TNUMBER) {
      cost = lua_tonumber(L, v);
    } else {
      lua_pushnil(L);
      while (lua_next(L, v)) { /* ..., field, value */
        int i;
        if (lua_type(L, -2) != LUA_TSTRING)
          legend_error(L, arg, c, "fields must be strings (expected blocked, cost, layers, terrain)");
        for (i = 0; legend_fields[i] && strcmp(legend_fields[i], lua_tostring(L, -2)) != 0; i++) {
        }
        if (!legend_fields[i])
          legend_error(L, arg, c, lua_pushfstring(L, "unknown field '%s' (expected blocked, cost, "
                                                  "layers, terrain)", lua_tostring(L, -2)));
        lua_pop(L, 1);
      }
      raw_field(L, v, "cost");
      if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TNUMBER)
          legend_error(L, arg, c, lua_pushfstring(L, "cost: number expected, got %s",
                                                  value_name(L, -1)));
        cost = lua_tonumber(L, -1);
        has_cost = 1;
      }
      lua_pop(L, 1);
      raw_field(L, v, "blocked");
      if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TBOOLEAN)
          legend_error(L, arg, c, lua_pushfstring(L, "blocked: boolean expected, got %s",
                                                  value_name(L, -1)));
        a->blocked = (unsigned char)lua_toboolean(L, -1);
      }
      lua_pop(L, 1);
      raw_field(L, v, "terrain");
      if (!lua_isnil(L, -1)) {
        size_t n;
        const char *tc = lua_type(L, -1) == LUA_TSTRING ? lua_tolstring(L, -1, &n) : NULL;
        if (!tc || n != 1)
          legend_error(L, arg, c, lua_pushfstring(L, "terrain: one-character string expected, "
                                                  "got %s", tc ? lua_pushfstring(L, "'%s'", tc)
                                                  : value_name(L, -1)));
        a->terrain = tc[0];
      }
      lua_pop(L, 1);
      raw_field(L, v, "layers");
      if (!lua_isnil(L, -1)) { /* names were collected and checked in legend_names */
        lua_pushnil(L);
        while (lua_next(L, -2)) { /* ..., layers, name, value */
          int vi = lua_gettop(L);
          const char *lname = lua_tostring(L, vi - 1);
          lua_Number lv;
          if (lua_type(L, vi) == LUA_TBOOLEAN && !lua_toboolean(L, vi)) {
            lv = INFINITY; /* false blocks, as in layer_set */
          } else if (lua_type(L, vi) == LUA_TNUMBER) {
            lv = lua_tonumber(L, vi);
            if (isnan(lv))
              legend_error(L, arg, c, lua_pushfstring(L, "layers.%s: value is nan (expected a "
                                                      "number, or false)", lname));
          } else {
            const char *got = value_name(L, vi);
            legend_error(L, arg, c, lua_pushfstring(L, "layers.%s: number or false expected, "
                                                    "got %s", lname, got));
            lv = 0.0;
          }
          lg->lv[(size_t)c * (size_t)lg->nl + (size_t)legend_layer(lg, lname)] = (float)lv;
          a->layers = 1;
          lua_pop(L, 1);
        }
      }
      lua_pop(L, 1);
    }
    if (has_cost && (!(cost > 0) || isinf(cost) || (float)cost == INFINITY || (float)cost == 0.0f))
      legend_error(L, arg, c, lua_pushfstring(L, "cost %s out of range (expected finite, > 0)",
                                              fmt_num(buf, sizeof buf, cost)));
    a->cost = (float)cost;
  } else if (t == LUA_TSTRING && strcmp(lua_tostring(L, v), "blocked") == 0) {
    a->blocked = 1;
  } else if (t == LUA_TSTRING && strcmp(lua_tostring(L, v), "free") == 0) {
    a->blocked = 0;
  } else if (t == LUA_TBOOLEAN && !lua_toboolean(L, v)) {
    a->blocked = 1; /* false blocks, as in lodestar.rule.terrain */
  } else {
    legend_error(L, arg, c, lua_pushfstring(L, "a cost, \"blocked\", \"free\", false or a table "
                                            "expected, got %s", t == LUA_TSTRING ?
                                            lua_pushfstring(L, "'%s'", lua_tostring(L, v)) :
                                            value_name(L, v)));
  }
  lua_settop(L, v);
}

/* The key at the top - 1 of a legend iteration as a character; raises for
** anything but a one-character string, and for the characters that
** separate rows and cells in the picture (sep, may be NULL). */
static unsigned char legend_key(lua_State *L, int arg, const char *sep) {
  size_t n = 0;
  const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tolstring(L, -2, &n) : NULL;
  if (!k || n != 1)
    arg_error(L, arg, lua_pushfstring(L, "opts.legend: keys must be one-character strings, got %s",
                                      k ? lua_pushfstring(L, "'%s'", k) : value_name(L, -2)));
  if (k[0] == '\n' || (sep && k[0] != '\0' && strchr(sep, k[0])))
    legend_error(L, arg, (unsigned char)k[0], "this character separates cells or rows here "
                                              "(expected a cell character)");
  return (unsigned char)k[0];
}

/* Reads opts at arg (nil or a table {legend =, strict =}) into *lg. Leaves
** values on the stack (the legend, the set of layer names that anchors
** lg->names, lg->names and lg->lv), which must stay until the grid is
** filled. Legend tables are read raw (no metamethods): no Lua code runs
** while lg->names points into them. sep: as for legend_key. */
static void ascii_opts_read(lua_State *L, int arg, AsciiLegend *lg, const char *sep) {
  int legend, i;
  ascii_builtin(lg);
  lg->names = NULL;
  lg->nl = 0;
  lg->lv = NULL;
  lg->strict = 0;
  if (lua_isnoneornil(L, arg)) {
    lua_pushnil(L);
    lua_pushnil(L);
    return;
  }
  check_table(L, arg);
  check_keys(L, arg, "option", "opts keys must be strings", ascii_opts, NULL);
  lua_getfield(L, arg, "strict");
  if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TBOOLEAN)
    opt_type_error(L, arg, "strict", "boolean");
  lg->strict = lua_toboolean(L, -1);
  lua_pop(L, 1);
  lua_getfield(L, arg, "legend"); /* legend */
  legend = lua_gettop(L);
  if (lua_isnil(L, legend)) {
    lua_pushnil(L);
    return;
  }
  if (lua_type(L, legend) != LUA_TTABLE) opt_type_error(L, arg, "legend", "table");
  /* pass 1: keys and the layer names, sorted (layer indices do not depend
  ** on the table's iteration order) */
  lua_newtable(L); /* legend, set */
  lua_pushnil(L);
  while (lua_next(L, legend)) { /* legend, set, key, value */
    unsigned char c = legend_key(L, arg, sep);
    if (lua_type(L, -1) == LUA_TTABLE) {
      raw_field(L, -1, "layers"); /* ..., key, value, layers */
      if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TTABLE)
          legend_error(L, arg, c, lua_pushfstring(L, "layers: table expected, got %s",
                                                  value_name(L, -1)));
        lua_pushnil(L);
        while (lua_next(L, -2)) { /* ..., layers, name, lv */
          size_t n = 0;
          if (lua_type(L, -2) != LUA_TSTRING)
            legend_error(L, arg, c, "layers: keys must be layer names");
          lua_tolstring(L, -2, &n);
          if (n < 1 || n > 63)
            legend_error(L, arg, c, lua_pushfstring(L, "layers: layer name of %d bytes (expected "
                                                    "1..63)", (int)n));
          lua_pop(L, 1);
          lua_pushvalue(L, -1);
          lua_pushboolean(L, 1);
          lua_rawset(L, legend + 1);
        }
      }
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
  }
  lua_pushnil(L);
  while (lua_next(L, legend + 1)) { /* legend, set, name, true */
    lua_pop(L, 1);
    lg->nl++;
  }
  lg->names = (const char **)lds_newudata(L, (lg->nl ? (size_t)lg->nl : 1) * sizeof(char *));
  lua_pushnil(L); /* legend, set, names, nil */
  i = 0;
  while (lua_next(L, legend + 1)) { /* legend, set, names, name, true */
    const char *name = lua_tostring(L, -2); /* anchored by the legend's layers tables */
    int j = i++;
    while (j > 0 && strcmp(lg->names[j - 1], name) > 0) { /* insertion sort */
      lg->names[j] = lg->names[j - 1];
      j--;
    }
    lg->names[j] = name;
    lua_pop(L, 1);
  }
  lg->lv = (float *)lds_newudata(L, 256 * (size_t)(lg->nl ? lg->nl : 1) * sizeof(float));
  memset(lg->lv, 0, 256 * (size_t)(lg->nl ? lg->nl : 1) * sizeof(float));
  /* legend, set, names, lv */
  /* legend, set, names, lv: the set anchors the names */
  /* pass 2: the entries */
  lua_pushnil(L);
  while (lua_next(L, legend)) { /* legend, set, names, lv, key, value */
    unsigned char c = legend_key(L, arg, sep);
    legend_entry(L, arg, lg, c);
    lua_pop(L, 1);
  }
  /* legend, set, names, lv stay on the stack until the grid is filled */
}

/* Builds the grid for rows[0..h-1] (each w cells) with legend lg; pushes it,
** or nil, msg, "format" for a character strict mode does not know. fn names
** the function in messages. Returns the number of results. */
static int ascii_build(lua_State *L, const char *fn, const AsciiRow *rows, int32_t w, int32_t h,
                       const AsciiLegend *lg) {
  lds_Env env = lua_env(L);
  lds_Error err;
  GridBox *b;
  int32_t x, y;
  int i, idx[64];
  if (lg->strict)
    for (y = 0; y < h; y++)
      for (x = 0; x < w; x++) {
        unsigned char c = (unsigned char)rows[y].p[x];
        if (!lg->cell[c].known) {
          char name[8];
          if (c >= 32 && c < 127)
            snprintf(name, sizeof name, "'%c'", c);
          else
            snprintf(name, sizeof name, "0x%02x", (unsigned)c);
          lua_pushfstring(L, "%s: row %d, column %d (cell %d,%d): character %s is not in the "
                          "legend (strict)", fn, (int)y + 1, (int)x + 1, (int)x, (int)y, name);
          return push_fail(L, lua_tostring(L, -1), LDS_E_FORMAT);
        }
      }
  if (lg->nl > 64) return luaL_error(L, "%s: %d layers in the legend (expected at most 64)", fn,
                                     lg->nl);
  b = new_gridbox(L);
  b->g = lds_grid_new(&env, w, h, &err);
  if (!b->g) return luaL_error(L, "%s", err.msg);
  b->owned = 1;
  for (i = 0; i < lg->nl; i++)
    if (lds_grid_layer_add(b->g, lg->names[i], &idx[i]) != LDS_OK)
      return luaL_error(L, "%s: %s", fn, lds_grid_errmsg(b->g));
  for (y = 0; y < h; y++)
    for (x = 0; x < w; x++) {
      unsigned char c = (unsigned char)rows[y].p[x];
      const AsciiCell *a = &lg->cell[c];
      lds_grid_set_terrain(b->g, x, y, a->terrain);
      if (a->blocked) lds_grid_set_blocked(b->g, x, y, true);
      if (a->cost != 1.0f) lds_grid_set_cost(b->g, x, y, a->cost);
      if (a->layers)
        for (i = 0; i < lg->nl; i++) {
          float v = lg->lv[(size_t)c * (size_t)lg->nl + (size_t)i];
          if (v != 0.0f) lds_grid_layer_set(b->g, idx[i], x, y, v);
        }
    }
  return 1;
}

/* lodestar.grid.from_ascii(text [, opts]) -> grid | nil, msg, "format"
** Rows are the non-blank lines with surrounding spaces/tabs removed; opts:
** {legend = {[char] = cost | "blocked" | "free" | false | {cost =, blocked
** =, terrain =, layers = {name = value}}}, strict = bool}. */
static int grid_from_ascii(lua_State *L) {
  size_t len, i;
  const char *t;
  int32_t w = -1, h = 0, y;
  AsciiLegend lg;
  AsciiRow *rows;
  if (!lua_isstring(L, 1)) type_error(L, 1, "string"); /* numbers convert, as in luaL_checklstring */
  lua_settop(L, 2);
  t = lua_tolstring(L, 1, &len);
  ascii_opts_read(L, 2, &lg, " \t\r"); /* text, opts, legend..., names, lv */
  /* pass 1: size and checks */
  for (i = 0; i < len;) {
    size_t e = i, a, z;
    while (e < len && t[e] != '\n') e++;
    a = i;
    z = e;
    while (a < z && (t[a] == ' ' || t[a] == '\t' || t[a] == '\r')) a++;
    while (z > a && (t[z - 1] == ' ' || t[z - 1] == '\t' || t[z - 1] == '\r')) z--;
    if (z > a) {
      h++;
      if (w < 0) w = (int32_t)(z - a);
      if ((int32_t)(z - a) != w) {
        lua_pushfstring(L, "from_ascii: row %d has %d cells (expected %d like row 1)", (int)h,
                        (int)(z - a), (int)w);
        return push_fail(L, lua_tostring(L, -1), LDS_E_FORMAT);
      }
    }
    i = e + 1;
  }
  if (h == 0) return push_fail(L, "from_ascii: no rows (expected at least one line of cells)",
                               LDS_E_FORMAT);
  if (w > LDS_GRID_MAX_SIDE || h > LDS_GRID_MAX_SIDE)
    return push_fail(L, "from_ascii: too many cells (expected at most 65535 per side)",
                     LDS_E_FORMAT);
  rows = (AsciiRow *)lds_newudata(L, (size_t)h * sizeof(AsciiRow));
  /* pass 2: the rows */
  for (i = 0, y = 0; i < len;) {
    size_t e = i, a, z;
    while (e < len && t[e] != '\n') e++;
    a = i;
    z = e;
    while (a < z && (t[a] == ' ' || t[a] == '\t' || t[a] == '\r')) a++;
    while (z > a && (t[z - 1] == ' ' || t[z - 1] == '\t' || t[z - 1] == '\r')) z--;
    if (z > a) {
      rows[y].p = t + a;
      rows[y].n = z - a;
      y++;
    }
    i = e + 1;
  }
  return ascii_build(L, "from_ascii", rows, w, h, &lg);
}

/* lodestar.grid.from_rows(rows [, opts]) -> grid | nil, msg, "format"
** rows: a list of strings, one row each, every byte a cell (no trimming);
** opts as for from_ascii. */
static int grid_from_rows(lua_State *L) {
  AsciiLegend lg;
  AsciiRow *rows;
  size_t n, i, w = 0;
  check_table(L, 1);
  lua_settop(L, 2);
  ascii_opts_read(L, 2, &lg, NULL); /* rows, opts, legend..., names, lv */
  n = (size_t)lua_rawlen(L, 1);
  if (n == 0) return push_fail(L, "from_rows: no rows (expected a list of strings)", LDS_E_FORMAT);
  if (n > LDS_GRID_MAX_SIDE)
    return push_fail(L, "from_rows: too many cells (expected at most 65535 per side)",
                     LDS_E_FORMAT);
  rows = (AsciiRow *)lds_newudata(L, n * sizeof(AsciiRow)); /* ..., names, lv, slices */
  for (i = 0; i < n; i++) {
    const char *nl;
    lua_rawgeti(L, 1, (lua_Integer)i + 1);
    if (lua_type(L, -1) != LUA_TSTRING)
      arg_error(L, 1, lua_pushfstring(L, "row %d: string expected, got %s", (int)i + 1,
                                      value_name(L, -1)));
    rows[i].p = lua_tolstring(L, -1, &rows[i].n); /* anchored by the rows table */
    lua_pop(L, 1);
    if (i == 0) w = rows[0].n;
    nl = memchr(rows[i].p, '\n', rows[i].n);
    if (nl) {
      lua_pushfstring(L, "from_rows: row %d, column %d: a line break in a row (expected one row "
                      "per string)", (int)i + 1, (int)(nl - rows[i].p) + 1);
      return push_fail(L, lua_tostring(L, -1), LDS_E_FORMAT);
    }
    if (rows[i].n != w) {
      lua_pushfstring(L, "from_rows: row %d has %d cells (expected %d like row 1)", (int)i + 1,
                      (int)rows[i].n, (int)w);
      return push_fail(L, lua_tostring(L, -1), LDS_E_FORMAT);
    }
  }
  if (w == 0) return push_fail(L, "from_rows: row 1 is empty (expected at least one cell)",
                               LDS_E_FORMAT);
  if (w > LDS_GRID_MAX_SIDE)
    return push_fail(L, "from_rows: too many cells (expected at most 65535 per side)",
                     LDS_E_FORMAT);
  return ascii_build(L, "from_rows", rows, (int32_t)w, (int32_t)n, &lg);
}

static int grid_clone(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  lds_Error err;
  GridBox *b = new_gridbox(L);
  b->g = lds_grid_clone(g, &err);
  if (!b->g) return luaL_error(L, "%s", err.msg);
  b->owned = 1;
  return 1;
}

static int grid_free(lua_State *L) {
  GridBox *b = check_gridbox(L, 1);
  if (b->busy && !b->closed)
    return luaL_error(L, "%s: cannot free while a bake rule or an edge callback on it runs",
                      LDS_GRID_MT);
  grid_release(b);
  return 0;
}

static int grid_gc(lua_State *L) {
  grid_release((GridBox *)lua_touserdata(L, 1));
  return 0;
}

static int grid_tostring(lua_State *L) {
  GridBox *b = check_gridbox(L, 1);
  if (!b->g || b->closed)
    lua_pushfstring(L, "%s (freed)", LDS_GRID_MT);
  else
    lua_pushfstring(L, "%s %dx%d (%p)", LDS_GRID_MT, (int)lds_grid_width(b->g),
                    (int)lds_grid_height(b->g), (void *)b);
  return 1;
}

static int grid_size(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  lua_pushinteger(L, lds_grid_width(g));
  lua_pushinteger(L, lds_grid_height(g));
  return 2;
}

static int grid_width(lua_State *L) {
  lua_pushinteger(L, lds_grid_width(check_grid(L, 1)));
  return 1;
}

static int grid_height(lua_State *L) {
  lua_pushinteger(L, lds_grid_height(check_grid(L, 1)));
  return 1;
}

static int grid_get_blocked(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  int32_t x, y;
  check_xy(L, g, 2, &x, &y);
  lua_pushboolean(L, lds_grid_blocked(g, x, y));
  return 1;
}

static int grid_set_blocked(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  int32_t x, y;
  check_xy(L, g, 2, &x, &y);
  if (lua_type(L, 4) != LUA_TBOOLEAN) type_error(L, 4, "boolean");
  lds_grid_set_blocked(g, x, y, lua_toboolean(L, 4));
  return 0;
}

static int grid_get_cost(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  int32_t x, y;
  check_xy(L, g, 2, &x, &y);
  lua_pushnumber(L, lds_grid_cost(g, x, y));
  return 1;
}

static int grid_set_cost(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  int32_t x, y;
  lua_Number c;
  char buf[64];
  check_xy(L, g, 2, &x, &y);
  c = check_num(L, 4);
  if (!(c > 0) || isinf(c) || (float)c == INFINITY)
    return arg_error(L, 4, lua_pushfstring(L, "cost %s out of range (expected finite, > 0)",
                                           fmt_num(buf, sizeof buf, c)));
  lds_grid_set_cost(g, x, y, (float)c);
  return 0;
}

static int grid_terrain(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  int32_t x, y;
  char c;
  check_xy(L, g, 2, &x, &y);
  c = lds_grid_terrain(g, x, y);
  lua_pushlstring(L, &c, 1);
  return 1;
}

static int grid_set_terrain(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  int32_t x, y;
  size_t n;
  const char *t;
  check_xy(L, g, 2, &x, &y);
  t = check_str(L, 4);
  n = lua_rawlen(L, 4);
  if (n != 1) return arg_error(L, 4, "expected a one-character string");
  lds_grid_set_terrain(g, x, y, t[0]);
  return 0;
}

static int grid_neighbourhood(lua_State *L) {
  lua_pushinteger(L, lds_grid_neighbourhood(check_grid(L, 1)));
  return 1;
}

static int grid_set_neighbourhood(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  double n = check_int(L, 2);
  if (n != 4 && n != 8) return arg_error(L, 2, "neighbourhood must be 4 or 8");
  lds_grid_set_neighbourhood(g, (int)n);
  return 0;
}

static const char *const diag_names[] = {"never", "no_corner_cutting", "allow_one_blocked",
                                         "always", NULL};

static int grid_diagonal(lua_State *L) {
  lua_pushstring(L, lds_diagonal_name(lds_grid_diagonal(check_grid(L, 1))));
  return 1;
}

static int grid_set_diagonal(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  lds_grid_set_diagonal(g, (lds_Diagonal)check_option(L, 2, diag_names));
  return 0;
}

static int grid_version(lua_State *L) {
  push_u64(L, lds_grid_version(check_grid(L, 1)));
  return 1;
}

static int grid_min_cost(lua_State *L) {
  lua_pushnumber(L, lds_grid_min_cost(check_grid(L, 1)));
  return 1;
}

static int grid_passable_count(lua_State *L) {
  push_u64(L, lds_grid_passable_count(check_grid(L, 1)));
  return 1;
}

static int grid_mem_used(lua_State *L) {
  push_u64(L, lds_grid_mem_used(check_grid(L, 1)));
  return 1;
}

static int grid_line_of_sight(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  int32_t x0, y0, x1, y1;
  check_xy(L, g, 2, &x0, &y0);
  check_xy(L, g, 4, &x1, &y1);
  lua_pushboolean(L, lds_grid_line_of_sight(g, x0, y0, x1, y1));
  return 1;
}

/* ----------------------------------------------------- grid: layers -- */

static int check_layer(lua_State *L, lds_Grid *g, int arg) {
  const char *name = check_str(L, arg);
  int idx = lds_grid_layer_find(g, name);
  if (idx < 0) arg_error(L, arg, lua_pushfstring(L, "no layer '%s'", name));
  return idx;
}

static int grid_layer_add(lua_State *L) {
  lds_Grid *g = check_grid_idle(L, 1, "add a layer");
  const char *name = check_str(L, 2);
  int idx;
  lds_Status st = lds_grid_layer_add(g, name, &idx);
  if (st == LDS_E_NOMEM) return luaL_error(L, "%s", lds_grid_errmsg(g));
  if (st != LDS_OK) return arg_error(L, 2, lds_grid_errmsg(g));
  lua_pushinteger(L, idx + 1);
  return 1;
}

static int grid_layer_remove(lua_State *L) {
  lds_Grid *g = check_grid_idle(L, 1, "remove a layer");
  lds_grid_layer_remove(g, check_layer(L, g, 2));
  return 0;
}

static int grid_layer_get(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  int idx = check_layer(L, g, 2);
  int32_t x, y;
  check_xy(L, g, 3, &x, &y);
  lua_pushnumber(L, lds_grid_layer_get(g, idx, x, y));
  return 1;
}

static int grid_layer_set(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  int idx = check_layer(L, g, 2);
  int32_t x, y;
  lua_Number v;
  check_xy(L, g, 3, &x, &y);
  if (lua_type(L, 5) == LUA_TBOOLEAN && !lua_toboolean(L, 5))
    v = INFINITY; /* false blocks, as in bake */
  else
    v = check_num(L, 5);
  if (isnan(v)) return arg_error(L, 5, "layer value is nan (expected a number, or false)");
  lds_grid_layer_set(g, idx, x, y, (float)v);
  return 0;
}

static int grid_layer_list(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  int i, n = lds_grid_layer_count(g);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_pushstring(L, lds_grid_layer_name(g, i));
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int grid_layer_range(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  float lo, hi;
  lds_grid_layer_range(g, check_layer(L, g, 2), &lo, &hi);
  lua_pushnumber(L, lo);
  lua_pushnumber(L, hi);
  return 2;
}

/* Reads integer field i of the rect table at arg. */
static double rect_field(lua_State *L, int arg, int i) {
  double v;
  lua_rawgeti(L, arg, i);
  if (lua_type(L, -1) != LUA_TNUMBER || lua_tonumber(L, -1) != floor(lua_tonumber(L, -1)))
    arg_error(L, arg, "rect must be {x0, y0, x1, y1} with integer cells");
  v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return v;
}

/* A baked layer not yet written (grid:bake(layer, fn, rect, true)): its
** rectangle, then (x1-x0+1)*(y1-y0+1) floats, row-major. */
#define LDS_BAKED_MT "lodestar.Baked"
typedef struct Baked {
  int32_t x0, y0, x1, y1;
  size_t cells;
} Baked;

static float *baked_data(Baked *b) { return (float *)(void *)(b + 1); }

/* Copies a baked block into layer `name` of g (added when missing). */
static int baked_write(lua_State *L, lds_Grid *g, const char *name, Baked *b) {
  int idx;
  int32_t y, w = b->x1 - b->x0 + 1;
  float *data;
  idx = lds_grid_layer_find(g, name);
  if (idx < 0) {
    lds_Status st = lds_grid_layer_add(g, name, &idx);
    if (st == LDS_E_NOMEM) return luaL_error(L, "%s", lds_grid_errmsg(g));
    if (st != LDS_OK) return arg_error(L, 2, lds_grid_errmsg(g));
  }
  data = lds_grid_layer_data(g, idx);
  for (y = b->y0; y <= b->y1; y++)
    memcpy(data + (size_t)y * (size_t)lds_grid_width(g) + (size_t)b->x0,
           baked_data(b) + (size_t)(y - b->y0) * (size_t)w, (size_t)w * sizeof(float));
  lds_grid_touch(g, b->x0, b->y0, b->x1, b->y1);
  lua_pushinteger(L, (lua_Integer)b->cells);
  return 1;
}

/* grid:bake_commit(layer, baked) — writes what grid:bake(layer, fn, rect,
** true) returned; see docs/lua-api.md. */
static int grid_bake_commit(lua_State *L) {
  lds_Grid *g = check_grid_idle(L, 1, "bake_commit");
  const char *name = check_str(L, 2);
  Baked *b = (Baked *)luaL_testudata(L, 3, LDS_BAKED_MT);
  if (!b) return type_error(L, 3, "baked layer (grid:bake(layer, fn, rect, true))");
  if (b->x1 >= lds_grid_width(g) || b->y1 >= lds_grid_height(g))
    return arg_error(L, 3, lua_pushfstring(L, "baked rect {%d, %d, %d, %d} does not fit the grid (%dx%d)",
                                           (int)b->x0, (int)b->y0, (int)b->x1, (int)b->y1,
                                           (int)lds_grid_width(g), (int)lds_grid_height(g)));
  return baked_write(L, g, name, b);
}

/* grid:bake(layer, fn [, rect [, defer]]) — see docs/lua-api.md. The rule
** results go to a scratch block first, so an error in fn leaves the layer
** untouched; with defer the block is returned (a lodestar.Baked) for
** grid:bake_commit instead of written, so several bakes can be written
** together once all succeeded. The rule runs under lua_pcall so the busy
** count is always restored. */
static int grid_bake(lua_State *L) {
  GridBox *gb = check_gridbox(L, 1);
  lds_Grid *g = check_grid_idle(L, 1, "bake");
  const char *name = check_str(L, 2);
  int32_t x0 = 0, y0 = 0, x1 = lds_grid_width(g) - 1, y1 = lds_grid_height(g) - 1, x, y, w;
  int scratch_idx, defer = lua_toboolean(L, 5);
  float *scratch;
  Baked *baked;
  size_t cells;
  if (lua_type(L, 3) != LUA_TFUNCTION) type_error(L, 3, "function");
  if (!lua_isnoneornil(L, 4)) {
    double r[4];
    int i;
    check_table(L, 4);
    for (i = 0; i < 4; i++) r[i] = rect_field(L, 4, i + 1);
    if (r[0] < 0 || r[1] < 0 || r[2] >= lds_grid_width(g) || r[3] >= lds_grid_height(g) ||
        r[0] > r[2] || r[1] > r[3])
      return arg_error(L, 4, lua_pushfstring(L, "rect {%d, %d, %d, %d} out of range "
                                             "(expected 0 <= x0 <= x1 < %d, 0 <= y0 <= y1 < %d)",
                                             (int)r[0], (int)r[1], (int)r[2], (int)r[3],
                                             (int)lds_grid_width(g), (int)lds_grid_height(g)));
    x0 = (int32_t)r[0];
    y0 = (int32_t)r[1];
    x1 = (int32_t)r[2];
    y1 = (int32_t)r[3];
  }
  lua_settop(L, 4);
  w = x1 - x0 + 1;
  cells = (size_t)w * (size_t)(y1 - y0 + 1);
  baked = (Baked *)lds_newudata(L, sizeof(Baked) + cells * sizeof(float)); /* 5: scratch, freed by the GC */
  baked->x0 = x0;
  baked->y0 = y0;
  baked->x1 = x1;
  baked->y1 = y1;
  baked->cells = cells;
  scratch = baked_data(baked);
  scratch_idx = lua_gettop(L);
  luaL_checkstack(L, 8, "bake");
  gb->busy++;
  for (y = y0; y <= y1; y++)
    for (x = x0; x <= x1; x++) {
      char t = lds_grid_terrain(g, x, y);
      float v;
      lua_pushvalue(L, 3);
      lua_pushinteger(L, x);
      lua_pushinteger(L, y);
      lua_pushlstring(L, &t, 1);
      lua_pushnumber(L, lds_grid_cost(g, x, y));
      if (lua_pcall(L, 4, 1, 0) != 0) {
        gb->busy--;
        if (lua_type(L, -1) == LUA_TSTRING) /* keep "file:line: msg" first, add the cell */
          lua_pushfstring(L, "%s (bake: rule for layer '%s' at (%d,%d))", lua_tostring(L, -1), name,
                          (int)x, (int)y);
        return lua_error(L); /* a non-string error object is raised unchanged */
      }
      if (lua_type(L, -1) == LUA_TNUMBER) {
        lua_Number n = lua_tonumber(L, -1);
        if (isnan(n)) {
          gb->busy--;
          return luaL_error(L, "bake: rule for layer '%s' returned nan at (%d,%d) (expected a "
                            "number, or false to block)", name, (int)x, (int)y);
        }
        v = (float)n;
      } else if (lua_type(L, -1) == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
        v = INFINITY;
      } else {
        gb->busy--;
        return luaL_error(L, "bake: rule for layer '%s' returned %s at (%d,%d) (expected a "
                          "number, or false to block)", name, luaL_typename(L, -1), (int)x,
                          (int)y);
      }
      scratch[(size_t)(y - y0) * (size_t)w + (size_t)(x - x0)] = v;
      lua_pop(L, 1);
    }
  gb->busy--;
  if (!gb->g || gb->closed) return luaL_error(L, "attempt to use a freed %s", LDS_GRID_MT);
  if (defer) {
    luaL_setmetatable(L, LDS_BAKED_MT); /* the scratch, now a lodestar.Baked */
    lua_settop(L, scratch_idx);
    return 1;
  }
  return baked_write(L, g, name, baked);
}

/* ------------------------------------------------------------- graph -- */

/* Node and edge ids are 1-based in Lua — DIMACS files number nodes from 1
** and Lua sequences start at 1, so `nodes[id]` tables and query files line
** up — while the core's are 0-based: every crossing of the binding adds or
** subtracts one, here and in the graph search functions only. */

static const char *const coords_names[] = {"none", "xy", "xyz", "lonlat", NULL};

static GraphBox *check_graphbox(lua_State *L, int arg) {
  GraphBox *b = (GraphBox *)luaL_testudata(L, arg, LDS_GRAPH_MT);
  if (!b) type_error(L, arg, LDS_GRAPH_MT);
  return b;
}

static lds_Graph *check_graph(lua_State *L, int arg) {
  GraphBox *b = check_graphbox(L, arg);
  if (!b->g || b->closed) luaL_error(L, "attempt to use a freed %s", LDS_GRAPH_MT);
  return b->g;
}

/* For the calls that need the building state (add_node, add_edge). */
static lds_Graph *check_graph_building(lua_State *L, int arg, const char *what) {
  lds_Graph *g = check_graph(L, arg);
  if (lds_graph_frozen(g))
    luaL_error(L, "%s: cannot %s: the graph is frozen (topology and coordinates are fixed)",
               LDS_GRAPH_MT, what);
  return g;
}

/* For the calls that need a frozen graph (neighbors, costs, edge ids). */
static lds_Graph *check_graph_frozen(lua_State *L, int arg, const char *what) {
  lds_Graph *g = check_graph(L, arg);
  if (!lds_graph_frozen(g))
    luaL_error(L, "%s: %s needs a frozen graph (call graph:freeze() first)", LDS_GRAPH_MT, what);
  return g;
}

/* A 1-based node id at arg; returns the core's 0-based id. */
static uint32_t check_node(lua_State *L, const lds_Graph *g, int arg, const char *what) {
  double v = check_int(L, arg);
  uint32_t n = lds_graph_node_count(g);
  if (v < 1 || v > (double)n) {
    char buf[64];
    fmt_num(buf, sizeof buf, v);
    if (n == 0)
      arg_error(L, arg, lua_pushfstring(L, "%s %s out of range (the graph has no nodes)",
                                        what, buf));
    arg_error(L, arg, lua_pushfstring(L, "%s %s out of range (expected 1..%d)", what, buf,
                                      (int)n));
  }
  return (uint32_t)v - 1;
}

/* A 1-based edge id at arg (frozen graph); returns the core's id. */
static uint32_t check_edge(lua_State *L, const lds_Graph *g, int arg) {
  double v = check_int(L, arg);
  uint32_t m = lds_graph_edge_count(g);
  if (v < 1 || v > (double)m) {
    char buf[64];
    fmt_num(buf, sizeof buf, v);
    if (m == 0)
      arg_error(L, arg, lua_pushfstring(L, "edge %s out of range (the graph has no edges)",
                                        buf));
    arg_error(L, arg, lua_pushfstring(L, "edge %s out of range (expected 1..%d)", buf,
                                      (int)m));
  }
  return (uint32_t)v - 1;
}

/* An edge cost at arg: finite, >= 0 [Units: cost]. */
static double check_edge_cost(lua_State *L, int arg) {
  lua_Number c = check_num(L, arg);
  char buf[64];
  if (!(c >= 0) || isinf(c))
    arg_error(L, arg, lua_pushfstring(L, "cost %s out of range (expected finite, >= 0)",
                                      fmt_num(buf, sizeof buf, c)));
  return c;
}

/* New graph box on the stack (pointer NULL, metatable set). */
static GraphBox *new_graphbox(lua_State *L) {
  GraphBox *b = (GraphBox *)lds_newudata(L, sizeof(GraphBox));
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, LDS_GRAPH_MT);
  return b;
}

static void graph_release(GraphBox *b) {
  b->closed = 1;
  if (b->g && b->nsearch == 0) {
    if (b->owned) lds_graph_free(b->g);
    b->g = NULL;
  }
}

/* lodestar.graph.new([coords]) — coords "none" | "xy" (default) | "xyz" | "lonlat" */
static int graph_new(lua_State *L) {
  lds_Env env = lua_env(L);
  lds_Error err;
  lds_Coords kind = LDS_COORDS_XY;
  GraphBox *b;
  if (!lua_isnoneornil(L, 1)) {
    kind = (lds_Coords)check_option(L, 1, coords_names);
  }
  b = new_graphbox(L);
  b->g = lds_graph_new(&env, kind, &err);
  if (!b->g) return luaL_error(L, "%s", err.msg);
  b->owned = 1;
  return 1;
}

/* lodestar.graph.load_dimacs(gr [, co]) -> graph | nil, msg, "io"|"format"|"nomem" */
static int graph_load_dimacs(lua_State *L) {
  const char *gr = check_str(L, 1);
  const char *co = lua_isnoneornil(L, 2) ? NULL : check_str(L, 2);
  lds_Env env = lua_env(L);
  lds_Error err;
  GraphBox *b;
  lua_settop(L, 2);
  b = new_graphbox(L);
  b->g = lds_graph_load_dimacs(&env, gr, co, &err);
  if (!b->g) return push_fail(L, err.msg, err.code);
  b->owned = 1;
  return 1;
}

/* lodestar.graph.parse_dimacs(gr [, co [, gr_name [, co_name]]]) -> graph
** | nil, msg, code: DIMACS .gr (and .co) text in memory (not gzip: the
** caller decompresses); errors "name:line: ..." ("format"), names "(gr)"
** and "(co)" by default, or "nomem". */
static int graph_parse_dimacs(lua_State *L) {
  size_t gr_len, co_len = 0;
  const char *gr, *co = NULL, *gr_name, *co_name;
  lds_Env env = lua_env(L);
  lds_Error err;
  GraphBox *b;
  check_str(L, 1);
  gr = lua_tolstring(L, 1, &gr_len);
  if (!lua_isnoneornil(L, 2)) {
    check_str(L, 2);
    co = lua_tolstring(L, 2, &co_len);
  }
  gr_name = opt_name(L, 3);
  co_name = opt_name(L, 4);
  lua_settop(L, 4);
  b = new_graphbox(L);
  b->g = lds_graph_parse_dimacs(&env, gr, gr_len, gr_name, co, co_len, co_name, &err);
  if (!b->g) return push_fail(L, err.msg, err.code);
  b->owned = 1;
  return 1;
}

/* lodestar.graph.from_grid(grid) -> frozen graph, node id = y*width + x + 1 */
static int graph_from_grid(lua_State *L) {
  lds_Grid *grid = check_grid(L, 1);
  lds_Env env = lua_env(L);
  lds_Error err;
  GraphBox *b = new_graphbox(L);
  b->g = lds_graph_from_grid(&env, grid, &err);
  if (!b->g) return luaL_error(L, "%s", err.msg);
  b->owned = 1;
  return 1;
}

static int graph_free(lua_State *L) {
  GraphBox *b = check_graphbox(L, 1);
  if (b->busy && !b->closed)
    return luaL_error(L, "%s: cannot free while a heuristic callback of a search on it runs",
                      LDS_GRAPH_MT);
  graph_release(b);
  return 0;
}

static int graph_gc(lua_State *L) {
  graph_release((GraphBox *)lua_touserdata(L, 1));
  return 0;
}

static int graph_tostring(lua_State *L) {
  GraphBox *b = check_graphbox(L, 1);
  if (!b->g || b->closed)
    lua_pushfstring(L, "%s (freed)", LDS_GRAPH_MT);
  else
    lua_pushfstring(L, "%s %d nodes %d edges %s %s (%p)", LDS_GRAPH_MT,
                    (int)lds_graph_node_count(b->g), (int)lds_graph_edge_count(b->g),
                    lds_coords_name(lds_graph_coords(b->g)),
                    lds_graph_frozen(b->g) ? "frozen" : "building", (void *)b);
  return 1;
}

/* g:add_node([x, y [, z]]) -> id. Coordinates by the graph's kind: none —
** no arguments; xy, lonlat — x, y (lonlat: longitude, latitude in degrees);
** xyz — x, y [, z = 0]. */
static int graph_add_node(lua_State *L) {
  lds_Graph *g = check_graph_building(L, 1, "add a node");
  lds_Coords kind = lds_graph_coords(g);
  double x = 0, y = 0, z = 0;
  uint32_t id;
  lds_Status st;
  char buf[64];
  int top = lua_gettop(L);
  if (kind == LDS_COORDS_NONE) {
    if (top >= 2 && !lua_isnil(L, 2))
      return arg_error(L, 2, "the graph has coords 'none' (expected no coordinates)");
  } else {
    x = check_num(L, 2);
    y = check_num(L, 3);
    if (kind == LDS_COORDS_XYZ)
      z = lua_isnoneornil(L, 4) ? 0.0 : check_num(L, 4);
    else if (!lua_isnoneornil(L, 4))
      return arg_error(L, 4, lua_pushfstring(L, "the graph has coords '%s' (expected no z)",
                                             lds_coords_name(kind)));
    if (!isfinite(x))
      return arg_error(L, 2, lua_pushfstring(L, "x %s out of range (expected finite)",
                                             fmt_num(buf, sizeof buf, x)));
    if (!isfinite(y))
      return arg_error(L, 3, lua_pushfstring(L, "y %s out of range (expected finite)",
                                             fmt_num(buf, sizeof buf, y)));
    if (!isfinite(z))
      return arg_error(L, 4, lua_pushfstring(L, "z %s out of range (expected finite)",
                                             fmt_num(buf, sizeof buf, z)));
    if (kind == LDS_COORDS_LONLAT && (x < -180.0 || x > 180.0))
      return arg_error(L, 2, lua_pushfstring(L, "longitude %s out of range (expected "
                                             "-180..180)", fmt_num(buf, sizeof buf, x)));
    if (kind == LDS_COORDS_LONLAT && (y < -90.0 || y > 90.0))
      return arg_error(L, 3, lua_pushfstring(L, "latitude %s out of range (expected "
                                             "-90..90)", fmt_num(buf, sizeof buf, y)));
  }
  st = lds_graph_add_node(g, x, y, z, &id);
  if (st != LDS_OK) return luaL_error(L, "%s", lds_graph_errmsg(g)); /* limit, nomem */
  push_u64(L, (uint64_t)id + 1);
  return 1;
}

/* g:add_edge(a, b, cost) — directed a -> b; self-loops and parallel edges kept */
static int graph_add_edge(lua_State *L) {
  lds_Graph *g = check_graph_building(L, 1, "add an edge");
  uint32_t a = check_node(L, g, 2, "node"), bn = check_node(L, g, 3, "node");
  double c = check_edge_cost(L, 4);
  if (lds_graph_add_edge(g, a, bn, c) != LDS_OK)
    return luaL_error(L, "%s", lds_graph_errmsg(g)); /* limit, nomem */
  return 0;
}

/* g:freeze() -> g (idempotent) */
static int graph_freeze(lua_State *L) {
  lds_Graph *g = check_graph(L, 1);
  lds_Error err;
  if (lds_graph_freeze(g, &err) != LDS_OK) return luaL_error(L, "%s", err.msg);
  lua_settop(L, 1);
  return 1;
}

static int graph_frozen(lua_State *L) {
  lua_pushboolean(L, lds_graph_frozen(check_graph(L, 1)));
  return 1;
}

/* Pushes {node = n, cost = c, edge = e} (1-based ids). */
static void push_adj(lua_State *L, uint32_t node, double cost, uint32_t edge) {
  lua_createtable(L, 0, 3);
  push_u64(L, (uint64_t)node + 1);
  lua_setfield(L, -2, "node");
  lua_pushnumber(L, cost);
  lua_setfield(L, -2, "cost");
  push_u64(L, (uint64_t)edge + 1);
  lua_setfield(L, -2, "edge");
}

/* g:neighbors(n) -> {{node =, cost =, edge =}, ...} in edge-id order */
static int graph_neighbors(lua_State *L) {
  lds_Graph *g = check_graph_frozen(L, 1, "neighbors");
  uint32_t u = check_node(L, g, 2, "node"), i, n, first;
  const uint32_t *dst;
  const double *cost;
  n = lds_graph_out_edges(g, u, &dst, &cost, &first);
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    push_adj(L, dst[i], cost[i], first + i);
    lua_rawseti(L, -2, (int)i + 1);
  }
  return 1;
}

/* g:in_neighbors(n) -> {{node = source, cost =, edge =}, ...} */
static int graph_in_neighbors(lua_State *L) {
  lds_Graph *g = check_graph_frozen(L, 1, "in_neighbors");
  uint32_t v = check_node(L, g, 2, "node"), i, n;
  const uint32_t *src, *edges;
  n = lds_graph_in_edges(g, v, &src, &edges);
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    push_adj(L, src[i], lds_graph_edge_cost(g, edges[i]), edges[i]);
    lua_rawseti(L, -2, (int)i + 1);
  }
  return 1;
}

/* g:find_edge(a, b) -> edge id of the first a -> b, or nil */
static int graph_find_edge(lua_State *L) {
  lds_Graph *g = check_graph_frozen(L, 1, "find_edge");
  uint32_t a = check_node(L, g, 2, "node"), bn = check_node(L, g, 3, "node");
  uint32_t e = lds_graph_find_edge(g, a, bn);
  if (e == LDS_GRAPH_NONE)
    lua_pushnil(L);
  else
    push_u64(L, (uint64_t)e + 1);
  return 1;
}

/* g:edge(e) -> from, to, cost */
static int graph_edge(lua_State *L) {
  lds_Graph *g = check_graph_frozen(L, 1, "edge");
  uint32_t e = check_edge(L, g, 2), a = 0, bn = 0;
  lds_graph_edge_ends(g, e, &a, &bn);
  push_u64(L, (uint64_t)a + 1);
  push_u64(L, (uint64_t)bn + 1);
  lua_pushnumber(L, lds_graph_edge_cost(g, e));
  return 3;
}

/* Cost edits from inside a heuristic callback would change costs under the
** running step (which reads them in place): refused, like free. */
static void check_graph_idle(lua_State *L, int arg) {
  if (check_graphbox(L, arg)->busy)
    luaL_error(L, "%s: cannot change costs while a heuristic callback of a search on it runs",
               LDS_GRAPH_MT);
}

/* g:set_edge_cost(a, b, cost): the first edge a -> b (lowest edge id) */
static int graph_set_edge_cost(lua_State *L) {
  lds_Graph *g = check_graph_frozen(L, 1, "set_edge_cost");
  uint32_t a = check_node(L, g, 2, "node"), bn = check_node(L, g, 3, "node"), e;
  double c = check_edge_cost(L, 4);
  check_graph_idle(L, 1);
  e = lds_graph_find_edge(g, a, bn);
  if (e == LDS_GRAPH_NONE)
    return arg_error(L, 3, lua_pushfstring(L, "no edge %d -> %d", (int)a + 1, (int)bn + 1));
  if (lds_graph_set_edge_cost_id(g, e, c) != LDS_OK)
    return luaL_error(L, "%s", lds_graph_errmsg(g));
  return 0;
}

/* g:set_edge_cost_id(e, cost): one edge by id (parallel edges) */
static int graph_set_edge_cost_id(lua_State *L) {
  lds_Graph *g = check_graph_frozen(L, 1, "set_edge_cost_id");
  uint32_t e = check_edge(L, g, 2);
  double c = check_edge_cost(L, 3);
  check_graph_idle(L, 1);
  if (lds_graph_set_edge_cost_id(g, e, c) != LDS_OK)
    return luaL_error(L, "%s", lds_graph_errmsg(g));
  return 0;
}

static int graph_h_scale(lua_State *L) {
  lua_pushnumber(L, lds_graph_h_scale(check_graph(L, 1)));
  return 1;
}

static int graph_version(lua_State *L) {
  push_u64(L, lds_graph_version(check_graph(L, 1)));
  return 1;
}

static int graph_node_count(lua_State *L) {
  push_u64(L, lds_graph_node_count(check_graph(L, 1)));
  return 1;
}

static int graph_edge_count(lua_State *L) {
  push_u64(L, lds_graph_edge_count(check_graph(L, 1)));
  return 1;
}

static int graph_coord_kind(lua_State *L) {
  lua_pushstring(L, lds_coords_name(lds_graph_coords(check_graph(L, 1))));
  return 1;
}

/* g:coords(n) -> x, y (xy, lonlat) | x, y, z (xyz) | nothing (none) */
static int graph_coords(lua_State *L) {
  lds_Graph *g = check_graph(L, 1);
  uint32_t n = check_node(L, g, 2, "node");
  double x, y, z;
  lds_Coords kind = lds_graph_coords(g);
  if (kind == LDS_COORDS_NONE || !lds_graph_node_coords(g, n, &x, &y, &z)) return 0;
  lua_pushnumber(L, x);
  lua_pushnumber(L, y);
  if (kind != LDS_COORDS_XYZ) return 2;
  lua_pushnumber(L, z);
  return 3;
}

/* g:distance(a, b) -> the coordinate heuristic's distance (metres for lonlat) */
static int graph_distance(lua_State *L) {
  lds_Graph *g = check_graph(L, 1);
  uint32_t a = check_node(L, g, 2, "node"), bn = check_node(L, g, 3, "node");
  lua_pushnumber(L, lds_graph_distance(g, a, bn));
  return 1;
}

/* g:mem_used() -> bytes, node_bytes, edge_bytes */
static int graph_mem_used(lua_State *L) {
  size_t nb = 0, eb = 0, all = lds_graph_mem_used(check_graph(L, 1), &nb, &eb);
  push_u64(L, all);
  push_u64(L, nb);
  push_u64(L, eb);
  return 3;
}

/* -------------------------------------------------------------- path -- */

static PathBox *check_pathbox(lua_State *L, int arg) {
  PathBox *b = (PathBox *)luaL_testudata(L, arg, LDS_PATH_MT);
  if (!b) type_error(L, arg, LDS_PATH_MT);
  return b;
}

static lds_Path *check_path(lua_State *L, int arg) {
  PathBox *b = check_pathbox(L, arg);
  if (!b->p) luaL_error(L, "attempt to use a freed %s", LDS_PATH_MT);
  return b->p;
}

static PathBox *new_pathbox(lua_State *L) {
  PathBox *b = (PathBox *)lds_newudata(L, sizeof(PathBox));
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, LDS_PATH_MT);
  return b;
}

/* Pushes a new path userdata owning p (p may be NULL: then raises err). */
static void push_path(lua_State *L, PathBox *b, lds_Path *p, const lds_Error *err) {
  if (!p) luaL_error(L, "%s", err->msg);
  b->p = p;
  b->owned = 1;
}

static int box_path(lua_State *L) {
  new_pathbox(L);
  return 1;
}

/* p exists before its box here, so the box is made under lua_pcall: on a
** memory error an owned p is freed before the error goes on. */
void lds_lua_push_path(lua_State *L, lds_Path *p, int owned) {
  PathBox *b;
  if (!p) luaL_error(L, "no path");
  lua_pushcfunction(L, box_path); /* Lua 5.4: a light C function, no allocation */
  if (lua_pcall(L, 0, 1, 0) != 0) {
    if (owned) lds_path_free(p);
    lua_error(L);
  }
  b = (PathBox *)lua_touserdata(L, -1);
  b->p = p;
  b->owned = owned ? 1 : 0;
}

static int path_release(lua_State *L) {
  PathBox *b = (PathBox *)lua_touserdata(L, 1);
  if (b && b->p && b->owned) lds_path_free(b->p);
  if (b) b->p = NULL;
  return 0;
}

static int path_free(lua_State *L) {
  check_pathbox(L, 1);
  return path_release(L);
}

static int path_len(lua_State *L) {
  push_u64(L, lds_path_length(check_path(L, 1)));
  return 1;
}

static int path_tostring(lua_State *L) {
  PathBox *b = check_pathbox(L, 1);
  char buf[64];
  if (!b->p)
    lua_pushfstring(L, "%s (freed)", LDS_PATH_MT);
  else
    lua_pushfstring(L, "%s %d %s cost %s%s (%p)", LDS_PATH_MT, (int)lds_path_length(b->p),
                    lds_path_width(b->p) == 0 ? "nodes" : "cells",
                    fmt_num(buf, sizeof buf, lds_path_cost(b->p)),
                    (lds_path_flags(b->p) & LDS_PATH_PARTIAL) ? " partial" : "", (void *)b);
  return 1;
}

/* 1-based path index at arg, negative counts from the end (like string.sub). */
static size_t check_index(lua_State *L, lds_Path *p, int arg, double def) {
  double i = opt_int(L, arg, def), n = (double)lds_path_length(p);
  if (i < 0) i = n + i + 1;
  if (i < 1 || i > n)
    arg_error(L, arg, lua_pushfstring(L, "index %d out of range (path has %d cells)",
                                      (int)opt_int(L, arg, def), (int)n));
  return (size_t)i - 1;
}

static int path_cell(lua_State *L) {
  lds_Path *p = check_path(L, 1);
  size_t i = check_index(L, p, 2, 1);
  int32_t x, y;
  if (lds_path_width(p) == 0) { /* graph path: the node id */
    push_u64(L, (uint64_t)lds_path_node(p, i) + 1);
    return 1;
  }
  lds_path_cell(p, i, &x, &y);
  lua_pushinteger(L, x);
  lua_pushinteger(L, y);
  return 2;
}

static int path_cells_iter(lua_State *L) {
  lds_Path *p = check_path(L, 1);
  lua_Number i = lua_tonumber(L, 2);
  int32_t x, y;
  if (i < 0 || i >= (lua_Number)lds_path_length(p)) return 0;
  if (lds_path_width(p) == 0) { /* graph path: i, node */
    lua_pushinteger(L, (lua_Integer)i + 1);
    push_u64(L, (uint64_t)lds_path_node(p, (size_t)i) + 1);
    return 2;
  }
  lds_path_cell(p, (size_t)i, &x, &y);
  lua_pushinteger(L, (lua_Integer)i + 1);
  lua_pushinteger(L, x);
  lua_pushinteger(L, y);
  return 3;
}

/* for i, x, y in path:cells() do ... end */
static int path_cells(lua_State *L) {
  check_path(L, 1);
  lua_pushcfunction(L, path_cells_iter);
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

/* path:node(i) -> node id of a graph path (1-based ids and indices) */
static int path_node(lua_State *L) {
  lds_Path *p = check_path(L, 1);
  size_t i = check_index(L, p, 2, 1);
  if (lds_path_width(p) != 0)
    return luaL_error(L, "%s: node() is for graph paths (use cell(i) on a grid path)",
                      LDS_PATH_MT);
  push_u64(L, (uint64_t)lds_path_node(p, i) + 1);
  return 1;
}

/* for i, node in path:nodes() do ... end (graph paths) */
static int path_nodes(lua_State *L) {
  lds_Path *p = check_path(L, 1);
  if (lds_path_width(p) != 0)
    return luaL_error(L, "%s: nodes() is for graph paths (use cells() on a grid path)",
                      LDS_PATH_MT);
  lua_pushcfunction(L, path_cells_iter); /* yields i, node on graph paths */
  lua_pushvalue(L, 1);
  lua_pushinteger(L, 0);
  return 3;
}

static int path_totable(lua_State *L) {
  lds_Path *p = check_path(L, 1);
  size_t i, n = lds_path_length(p);
  lua_createtable(L, (int)n, 0);
  for (i = 0; i < n; i++) {
    int32_t x, y;
    if (lds_path_width(p) == 0) { /* graph path: a list of node ids */
      push_u64(L, (uint64_t)lds_path_node(p, i) + 1);
      lua_rawseti(L, -2, (int)i + 1);
      continue;
    }
    lds_path_cell(p, i, &x, &y);
    lua_createtable(L, 0, 2);
    lua_pushinteger(L, x);
    lua_setfield(L, -2, "x");
    lua_pushinteger(L, y);
    lua_setfield(L, -2, "y");
    lua_rawseti(L, -2, (int)i + 1);
  }
  return 1;
}

/* Raises "a grid path expected, got a graph path" against argument 1 (the
** path) when p is a graph path (width 0), which the grid functions would
** otherwise report as a width mismatch against the grid argument. */
static void check_grid_path(lua_State *L, const lds_Path *p) {
  if (lds_path_width(p) == 0) arg_error(L, 1, "a grid path expected, got a graph path");
}

/* Keys (their addresses) in a path's user value table: a marker (the table
** is the path's own: on LuaJIT a fresh userdata's environment is the
** globals), the name -> weight table of the query the path was measured
** with (a private copy, never handed out, so post-processing keeps its
** costs), and the costs of the sub-paths its segments replaced (prune_los). */
static const char path_uv_key = 'u', path_weights_key = 'w', path_replaced_key = 'r';

/* Absolute stack index (lua_absindex is not in the 5.1 API). */
static int abs_index(lua_State *L, int i) {
  return i > 0 || i <= LUA_REGISTRYINDEX ? i : lua_gettop(L) + i + 1;
}

/* Pushes field key of the path at pi's own user value table (nil if none). */
static void path_uv_get(lua_State *L, int pi, const char *key) {
  lds_getuv(L, pi);
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_pushlightuserdata(L, (void *)&path_uv_key);
    lua_rawget(L, -2);
    if (lua_toboolean(L, -1)) {
      lua_pop(L, 1);
      lua_pushlightuserdata(L, (void *)key);
      lua_rawget(L, -2);
      lua_remove(L, -2);
      return;
    }
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  lua_pushnil(L);
}

/* Sets field key of the path at pi's user value table (made on first use)
** to the value at vi; nothing when vi is 0 or holds nil. */
static void path_uv_set(lua_State *L, int pi, const char *key, int vi) {
  pi = abs_index(L, pi);
  if (vi == 0 || lua_isnoneornil(L, vi)) return;
  vi = abs_index(L, vi);
  lds_getuv(L, pi);
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_pushlightuserdata(L, (void *)&path_uv_key);
    lua_rawget(L, -2);
    if (!lua_toboolean(L, -1)) { /* not ours (LuaJIT's globals) */
      lua_pop(L, 2);
      lua_pushnil(L);
    } else {
      lua_pop(L, 1);
    }
  }
  if (lua_type(L, -1) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_createtable(L, 0, 3); /* uv */
    lua_pushlightuserdata(L, (void *)&path_uv_key);
    lua_pushboolean(L, 1);
    lua_rawset(L, -3);
    lua_pushvalue(L, -1);
    lds_setuv(L, pi);
  }
  lua_pushlightuserdata(L, (void *)key);
  lua_pushvalue(L, vi);
  lua_rawset(L, -3);
  lua_pop(L, 1);
}

/* Makes the path at pi remember the weights table at wi (name -> number). */
static void path_remember(lua_State *L, int pi, int wi) {
  if (wi != 0 && lua_type(L, wi) == LUA_TTABLE) path_uv_set(L, pi, &path_weights_key, wi);
}

/* Pushes the weights table the path at pi remembers, or nil. */
static void path_weights_table(lua_State *L, int pi) { path_uv_get(L, pi, &path_weights_key); }

/* Shallow copy of the table at idx, pushed. */
static void copy_table(lua_State *L, int idx) {
  idx = abs_index(L, idx);
  lua_newtable(L);
  lua_pushnil(L);
  while (lua_next(L, idx)) { /* copy, k, v */
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, -4);
  }
}

static int dstar_weights(lua_State *L, int arg, const lds_Grid *g, double *w);

/* The weights a post-processing call measures with, into w[16] by layer
** index (returns the count for n_layer_weights): opts.weights when the
** table at oi has them (checked as a query's; oi 0: no opts), else those
** the path at pi remembers. Pushes the name -> weight table used (a copy
** of opts.weights, or the path's own) or nil, for the result to remember. */
static int post_weights(lua_State *L, int pi, int oi, const lds_Grid *g, double *w) {
  int n = 0;
  if (oi && !lua_isnoneornil(L, oi)) {
    lua_getfield(L, oi, "weights");
    if (!lua_isnil(L, -1)) {
      n = dstar_weights(L, oi, g, w); /* checks names and values, by index */
      copy_table(L, -1);
      lua_remove(L, -2);
      return n;
    }
    lua_pop(L, 1);
  }
  memset(w, 0, 16 * sizeof *w);
  if (pi)
    path_weights_table(L, pi);
  else
    lua_pushnil(L);
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, -2)) { /* weights, name, w */
      const char *name = lua_tostring(L, -2);
      int idx = lds_grid_layer_find(g, name);
      if (idx < 0 || idx >= 16)
        luaL_error(L, "%s: the grid has no layer '%s' (weighted by the query that found the "
                   "path; pass opts.weights to measure with others)", LDS_PATH_MT, name);
      w[idx] = lua_tonumber(L, -1);
      if (idx + 1 > n) n = idx + 1;
      lua_pop(L, 1);
    }
  }
  return n;
}

static const char *const post_opts[] = {"weights", NULL};

/* Checks the optional opts table at oi of a post-processing call. */
static void check_post_opts(lua_State *L, int oi) {
  if (lua_isnoneornil(L, oi)) return;
  check_table(L, oi);
  check_keys(L, oi, "option", "opts keys must be strings", post_opts, NULL);
}

/* Cost of p on the grid at arg (optional), under the weights the path at
** pi remembers: recomputed, else NaN (unknown). */
static double recost(lua_State *L, const lds_Path *p, int arg, int pi) {
  double c, w[16];
  int nw;
  lds_Error err;
  if (lua_isnoneornil(L, arg)) return NAN;
  check_grid_path(L, p);
  nw = post_weights(L, pi, 0, check_grid(L, arg), w);
  lua_pop(L, 1);
  if (lds_grid_path_cost_weighted(check_grid(L, arg), p, w, nw, &c, &err) != LDS_OK)
    arg_error(L, arg, err.msg);
  return c;
}

static int path_sub(lua_State *L) {
  lds_Path *p = check_path(L, 1), *q;
  size_t i = check_index(L, p, 2, 1), j = check_index(L, p, 3, -1);
  PathBox *b;
  lds_Error err;
  lua_settop(L, 4);
  if (i > j) return arg_error(L, 3, "end index before start index");
  b = new_pathbox(L);
  q = lds_path_sub(p, i, j, NAN, &err);
  push_path(L, b, q, &err);
  path_weights_table(L, 1);
  path_remember(L, 5, 6); /* the piece keeps the path's weights */
  lua_pop(L, 1);
  path_uv_get(L, 1, &path_replaced_key);
  if (lua_type(L, -1) == LUA_TTABLE) { /* and the replaced costs of its segments */
    size_t k;
    lua_createtable(L, (int)(j - i), 0);
    for (k = i + 1; k <= j; k++) {
      lua_rawgeti(L, -2, (int)k);
      lua_rawseti(L, -2, (int)(k - i));
    }
    path_uv_set(L, 5, &path_replaced_key, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  if (!lua_isnoneornil(L, 4)) {
    double c = recost(L, q, 4, 1);
    lds_Path *r = lds_path_sub(q, 0, lds_path_length(q) - 1, c, &err);
    if (!r) return luaL_error(L, "%s", err.msg);
    lds_path_free(q);
    b->p = r;
  }
  return 1;
}

static int path_reverse(lua_State *L) {
  lds_Path *p = check_path(L, 1), *q;
  PathBox *b;
  lds_Error err;
  double c = NAN;
  lds_Path *tmp;
  lua_settop(L, 2);
  if (!lua_isnoneornil(L, 2)) {
    /* the box first: a memory error while boxing, or recost raising on a
    ** bad grid, must find tmp owned by a userdata (freed by its __gc) */
    b = new_pathbox(L);
    tmp = lds_path_reverse(p, 0.0, &err);
    push_path(L, b, tmp, &err);
    c = recost(L, tmp, 2, 1);
  }
  b = new_pathbox(L);
  q = lds_path_reverse(p, c, &err);
  push_path(L, b, q, &err);
  path_weights_table(L, 1);
  path_remember(L, -2, -1);
  lua_pop(L, 1);
  return 1;
}

/* path:prune_los(grid [, opts]): opts.weights (name -> weight) measure the
** costs, by default the weights of the query that found the path. The
** result remembers the weights it was measured with and, for each of its
** segments, the cost of the sub-path of the original path it replaced
** (path:replaced_costs(); summed through earlier prunings), which smoothing
** may spend. */
static int path_prune_los(lua_State *L) {
  lds_Path *p = check_path(L, 1);
  lds_Grid *g = check_grid(L, 2);
  lds_Error err;
  PathBox *b;
  lds_Path *q;
  double w[16];
  size_t *kept, n, m, k, j;
  int nw, have_in;
  lua_settop(L, 3);
  check_grid_path(L, p);
  check_post_opts(L, 3);
  nw = post_weights(L, 1, 3, g, w); /* path, grid, opts, weights */
  n = lds_path_length(p);
  kept = (size_t *)lds_newudata(L, (n ? n : 1) * sizeof(size_t)); /* 5: scratch, GC'd */
  b = new_pathbox(L);                                               /* 6: the pruned path */
  q = lds_path_prune_los_weighted(p, g, w, nw, kept, &err);
  if (!q && err.code == LDS_E_ARG) return arg_error(L, 2, err.msg);
  push_path(L, b, q, &err);
  path_remember(L, 6, 4);
  path_uv_get(L, 1, &path_replaced_key); /* 7: the input's replaced costs, or nil */
  have_in = lua_type(L, 7) == LUA_TTABLE;
  m = lds_path_length(q);
  lua_createtable(L, m > 1 ? (int)(m - 1) : 0, 0); /* 8 */
  for (k = 0; k + 1 < m; k++) {
    double sum = 0.0;
    for (j = kept[k] + 1; j <= kept[k + 1]; j++) { /* p's segment j: cells j-1 -> j */
      double c = 0.0;
      if (have_in) {
        lua_rawgeti(L, 7, (int)j);
        c = lua_tonumber(L, -1);
        lua_pop(L, 1);
      } else {
        int32_t x0, y0, x1, y1;
        double xy[4];
        lds_path_cell(p, j - 1, &x0, &y0);
        lds_path_cell(p, j, &x1, &y1);
        xy[0] = x0;
        xy[1] = y0;
        xy[2] = x1;
        xy[3] = y1;
        if (lds_grid_polyline_cost(g, xy, 2, w, nw, &c, &err) != LDS_OK)
          return luaL_error(L, "%s", err.msg); /* p's steps were checked: not reached */
      }
      sum += c;
    }
    lua_pushnumber(L, sum);
    lua_rawseti(L, 8, (int)k + 1);
  }
  path_uv_set(L, 6, &path_replaced_key, 8);
  lua_settop(L, 6);
  return 1;
}

/* path:set_weights(weights | nil) -> path: the layer weights the path is
** measured with from now on (what a query's paths remember), for paths
** whose query ran elsewhere (a runtime request); a copy is kept. Clears the
** replaced costs (they were measured under the old weights). */
static int path_set_weights(lua_State *L) {
  check_path(L, 1);
  lua_settop(L, 2);
  if (!lua_isnil(L, 2)) {
    check_table(L, 2);
    lua_pushnil(L);
    while (lua_next(L, 2)) { /* weights, name, w */
      char buf[64];
      if (lua_type(L, -2) != LUA_TSTRING) arg_error(L, 2, "keys must be layer names");
      if (lua_type(L, -1) != LUA_TNUMBER)
        arg_error(L, 2, lua_pushfstring(L, "weight of layer '%s': number expected, got %s",
                                        lua_tostring(L, -2), value_name(L, -1)));
      if (isnan(lua_tonumber(L, -1)) || isinf(lua_tonumber(L, -1)))
        arg_error(L, 2, lua_pushfstring(L, "weight of layer '%s' is %s (expected finite)",
                                        lua_tostring(L, -2),
                                        fmt_num(buf, sizeof buf, lua_tonumber(L, -1))));
      lua_pop(L, 1);
    }
    copy_table(L, 2); /* path, weights, copy */
  } else {
    lua_pushboolean(L, 0); /* path, nil, false: "none" */
  }
  path_uv_set(L, 1, &path_weights_key, 3);
  lua_pushboolean(L, 0);
  path_uv_set(L, 1, &path_replaced_key, 4);
  lua_settop(L, 1);
  return 1;
}

/* path:replaced_costs() -> list | nil: for a path made by prune_los, [i] is
** the cost of the sub-path of the original path that segment i (cells i ->
** i+1) replaced; nil for other paths. A fresh copy. */
static int path_replaced_costs(lua_State *L) {
  check_path(L, 1);
  path_uv_get(L, 1, &path_replaced_key);
  if (lua_type(L, -1) == LUA_TTABLE)
    copy_table(L, -1);
  else
    lua_pushnil(L); /* none (false after set_weights) */
  return 1;
}

/* grid:polyline_cost(points [, opts]) -> cost: the exact cost of the
** polyline through points (a list of {x=, y=} or {x, y}, any real cell
** coordinates, or a grid lodestar.Path) under opts.weights (a Path: by
** default the weights of its query); math.huge when it crosses a blocked
** cell. See core/lds_postprocess.h, "Cost of a path". */
static int grid_polyline_cost(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  lds_Error err;
  double w[16], c, *xy;
  size_t n, i;
  int nw, is_path = luaL_testudata(L, 2, LDS_PATH_MT) != NULL;
  lua_settop(L, 3);
  check_post_opts(L, 3);
  if (is_path) {
    lds_Path *p = check_path(L, 2);
    check_grid_path(L, p);
    if (lds_path_width(p) != lds_grid_width(g))
      return arg_error(L, 2, lua_pushfstring(L, "path width %d does not match the grid (width %d)",
                                             (int)lds_path_width(p), (int)lds_grid_width(g)));
    n = lds_path_length(p);
    xy = (double *)lds_newudata(L, (n ? n : 1) * 2 * sizeof(double)); /* scratch, GC'd */
    for (i = 0; i < n; i++) {
      int32_t x, y;
      lds_path_cell(p, i, &x, &y);
      xy[2 * i] = x;
      xy[2 * i + 1] = y;
    }
  } else {
    if (lua_type(L, 2) != LUA_TTABLE) return type_error(L, 2, "lodestar.Path or list of {x=, y=}");
    n = lua_rawlen(L, 2);
    xy = (double *)lds_newudata(L, (n ? n : 1) * 2 * sizeof(double)); /* scratch, GC'd */
    for (i = 0; i < n; i++) {
      lua_rawgeti(L, 2, (int)i + 1);
      if (lua_type(L, -1) != LUA_TTABLE)
        return arg_error(L, 2, lua_pushfstring(L, "point %d is not a table", (int)i + 1));
      lua_getfield(L, -1, "x");
      if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_rawgeti(L, -1, 1);
      }
      lua_getfield(L, -2, "y");
      if (lua_isnil(L, -1)) {
        lua_pop(L, 1);
        lua_rawgeti(L, -2, 2);
      }
      if (lua_type(L, -1) != LUA_TNUMBER || lua_type(L, -2) != LUA_TNUMBER)
        return arg_error(L, 2, lua_pushfstring(L, "point %d has no numbers x, y", (int)i + 1));
      xy[2 * i] = lua_tonumber(L, -2);
      xy[2 * i + 1] = lua_tonumber(L, -1);
      lua_pop(L, 3);
    }
  }
  nw = post_weights(L, is_path ? 2 : 0, 3, g, w);
  if (lds_grid_polyline_cost(g, xy, n, w, nw, &c, &err) != LDS_OK) return arg_error(L, 2, err.msg);
  lua_pushnumber(L, c);
  return 1;
}

/* path.cost (nil when unknown), path.partial, then the methods */
static int path_index(lua_State *L) {
  const char *k = lua_tostring(L, 2);
  lds_Path *p;
  if (k && strcmp(k, "weights") == 0) { /* a copy: the path's own table stays private */
    check_path(L, 1);
    path_weights_table(L, 1);
    if (lua_type(L, -1) == LUA_TTABLE)
      copy_table(L, -1);
    else
      lua_pushnil(L); /* none (false after set_weights(nil)) */
    return 1;
  }
  if (!k || (strcmp(k, "cost") != 0 && strcmp(k, "partial") != 0)) { /* methods work on freed paths */
    check_pathbox(L, 1);
    lua_pushvalue(L, 2);
    lua_rawget(L, lua_upvalueindex(1));
    return 1;
  }
  p = check_path(L, 1);
  if (strcmp(k, "cost") == 0) {
    double c = lds_path_cost(p);
    if (isnan(c))
      lua_pushnil(L);
    else
      lua_pushnumber(L, c);
    return 1;
  }
  lua_pushboolean(L, (lds_path_flags(p) & LDS_PATH_PARTIAL) != 0);
  return 1;
}

/* lodestar.path.new(grid, cells [, partial]) — cells = {{x=,y=} or {x,y}, ...};
** consecutive cells must be adjacent by a legal move or see each other. */
static int path_new(lua_State *L) {
  lds_Grid *g = check_grid(L, 1);
  size_t n, i;
  uint32_t *ids;
  lds_Env env = lua_env(L);
  lds_Error err;
  lds_Path *tmp;
  PathBox *b;
  double c;
  int partial;
  check_table(L, 2);
  partial = lua_toboolean(L, 3);
  n = lua_rawlen(L, 2);
  ids = (uint32_t *)lds_newudata(L, (n ? n : 1) * sizeof(uint32_t)); /* scratch, GC'd */
  for (i = 0; i < n; i++) {
    double x, y;
    lua_rawgeti(L, 2, (int)i + 1);
    if (lua_type(L, -1) != LUA_TTABLE)
      return arg_error(L, 2, lua_pushfstring(L, "cell %d is not a table", (int)i + 1));
    lua_getfield(L, -1, "x");
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_rawgeti(L, -1, 1);
    }
    lua_getfield(L, -2, "y");
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_rawgeti(L, -2, 2);
    }
    if (lua_type(L, -1) != LUA_TNUMBER || lua_type(L, -2) != LUA_TNUMBER)
      return arg_error(L, 2, lua_pushfstring(L, "cell %d has no integer x, y", (int)i + 1));
    x = lua_tonumber(L, -2);
    y = lua_tonumber(L, -1);
    if (x != floor(x) || y != floor(y) || x < 0 || y < 0 || x >= lds_grid_width(g) ||
        y >= lds_grid_height(g))
      return arg_error(L, 2, lua_pushfstring(L, "cell %d is outside the %dx%d grid",
                                             (int)i + 1, (int)lds_grid_width(g),
                                             (int)lds_grid_height(g)));
    ids[i] = (uint32_t)y * (uint32_t)lds_grid_width(g) + (uint32_t)x;
    lua_pop(L, 3);
  }
  b = new_pathbox(L);
  tmp = lds_path_new(&env, ids, n, lds_grid_width(g), 0.0, partial ? LDS_PATH_PARTIAL : 0, &err);
  push_path(L, b, tmp, &err);
  if (lds_grid_path_cost(g, tmp, &c, &err) != LDS_OK) return arg_error(L, 2, err.msg);
  b->p = lds_path_new(&env, ids, n, lds_grid_width(g), c, partial ? LDS_PATH_PARTIAL : 0, &err);
  lds_path_free(tmp);
  if (!b->p) return luaL_error(L, "%s", err.msg);
  return 1;
}

/* ------------------------------------------------------------ search -- */

static const char *const search_opts[] = {"cost", "goal", "h_scale", "heuristic", "partial",
                                          "start", "weight", "weights", NULL};
/* fields of a budget table (s:run, d:compute), in this order */
static const char *const budget_keys[] = {"budget_us", "max_expansions", NULL};

static SearchBox *check_searchbox(lua_State *L, int arg) {
  SearchBox *b = (SearchBox *)luaL_testudata(L, arg, LDS_SEARCH_MT);
  if (!b) type_error(L, arg, LDS_SEARCH_MT);
  return b;
}

static SearchBox *check_search(lua_State *L, int arg) {
  SearchBox *b = check_searchbox(L, arg);
  if (!b->s) luaL_error(L, "attempt to use a freed %s", LDS_SEARCH_MT);
  return b;
}

static void search_release(SearchBox *b) {
  if (b->s && b->owned) lds_search_free(b->s);
  b->s = NULL;
  if (b->gb) {
    GridBox *gb = b->gb;
    b->gb = NULL;
    gb->nsearch--;
    if (gb->closed) grid_release(gb); /* the grid was freed first: finish the job */
  }
  if (b->hb) {
    GraphBox *hb = b->hb;
    b->hb = NULL;
    hb->nsearch--;
    if (hb->closed) graph_release(hb); /* the graph was freed first: finish the job */
  }
}

static int search_gc(lua_State *L) {
  search_release((SearchBox *)lua_touserdata(L, 1));
  return 0;
}

static int search_free(lua_State *L) {
  SearchBox *b = check_searchbox(L, 1);
  if (b->busy) return luaL_error(L, "%s: cannot free a search from its own %s callback",
                                 LDS_SEARCH_MT, b->hb ? "heuristic" : "edge");
  search_release(b);
  return 0;
}

static int search_tostring(lua_State *L) {
  SearchBox *b = check_searchbox(L, 1);
  if (!b->s)
    lua_pushfstring(L, "%s (freed)", LDS_SEARCH_MT);
  else
    lua_pushfstring(L, "%s %s %s (%p)", LDS_SEARCH_MT, lds_algo_name(b->algo),
                    lds_status_name(lds_search_status(b->s)), (void *)b);
  return 1;
}

/* "bad argument #arg to 'f' (opts.name: ...)" */
static int opt_error(lua_State *L, int arg, const char *name, const char *what) {
  return arg_error(L, arg, lua_pushfstring(L, "opts.%s: %s", name, what));
}

static int opt_type_error(lua_State *L, int arg, const char *name, const char *expected) {
  return opt_error(L, arg, name,
                   lua_pushfstring(L, "%s expected, got %s", expected, value_name(L, -1)));
}

/* Reads a {x, y} (or {x=, y=}) field at the top into *x, *y; range-checked. */
static void opt_cell(lua_State *L, int arg, const char *name, const lds_Grid *g, int32_t *x,
                     int32_t *y) {
  double v[2];
  int i;
  if (lua_type(L, -1) != LUA_TTABLE) opt_type_error(L, arg, name, "table {x, y}");
  for (i = 0; i < 2; i++) {
    lua_getfield(L, -1, i == 0 ? "x" : "y");
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_rawgeti(L, -1, i + 1);
    }
    if (lua_type(L, -1) != LUA_TNUMBER || lua_tonumber(L, -1) != floor(lua_tonumber(L, -1)))
      opt_error(L, arg, name, "expected {x, y} with integer cells");
    v[i] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  if (v[0] < 0 || v[0] >= lds_grid_width(g) || v[1] < 0 || v[1] >= lds_grid_height(g))
    opt_error(L, arg, name, lua_pushfstring(L, "cell (%d,%d) outside the %dx%d grid", (int)v[0],
                                            (int)v[1], (int)lds_grid_width(g),
                                            (int)lds_grid_height(g)));
  *x = (int32_t)v[0];
  *y = (int32_t)v[1];
}

/* Resolves the weights table (user value [3], name -> number) to layer
** indices; called at each start because layers may have moved. */
static void resolve_weights(lua_State *L, SearchBox *b, int uv) {
  const lds_Grid *g = b->gb->g;
  int n = 0;
  memset(b->lw, 0, sizeof b->lw);
  lua_rawgeti(L, uv, 3); /* weights */
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, -2)) { /* weights, name, w */
      const char *name = lua_tostring(L, -2);
      int idx = lds_grid_layer_find(g, name);
      if (idx < 0) luaL_error(L, "opts.weights: the grid has no layer '%s'", name);
      if (idx >= 16) luaL_error(L, "opts.weights: layer '%s' is layer %d (at most 16 layers can "
                                "be weighted)", name, idx + 1);
      b->lw[idx] = lua_tonumber(L, -1);
      if (idx + 1 > n) n = idx + 1;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  b->params.layer_weights = n ? b->lw : NULL;
  b->params.n_layer_weights = n;
}

/* Starts the query (user value table at uv); raises on LDS_E_ARG. */
static void do_start(lua_State *L, SearchBox *b, int uv, int32_t sx, int32_t sy, int32_t gx,
                     int32_t gy) {
  lds_Status st;
  if (b->busy) luaL_error(L, "%s: cannot restart a search from its own edge callback",
                          LDS_SEARCH_MT);
  resolve_weights(L, b, uv);
  lua_pushnil(L);
  lua_rawseti(L, uv, 4); /* forget the last Lua error */
  st = lds_search_start(b->s, &b->params, sx, sy, gx, gy);
  b->started = st >= 0;
  if (st < 0) luaL_error(L, "%s", lds_search_errmsg(b->s));
}

static lds_Status edge_trampoline(void *ud, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                                  double base, double *out);
/* graph searches (section "graph search" below) */
static void heur_report(lua_State *L, SearchBox *b, int uv);
static int check_space(lua_State *L, int arg);
static int search_start_graph(lua_State *L, SearchBox *b);
static SearchBox *new_graph_search(lua_State *L, int hi, int oi, const char *algo_name,
                                   const char *extra);
static int find_path_graph(lua_State *L);

/* Parses opts at arg into b->params and the user value table at uv; extra
** names one more key the caller accepts and took out (find_path's
** "algorithm"), for the list of an unknown key's error. */
static void parse_opts(lua_State *L, int arg, SearchBox *b, int uv, const char *extra) {
  lds_SearchParams *p = &b->params;
  lds_search_params_init(p);
  p->algo = b->algo;
  if (lua_isnoneornil(L, arg)) return;
  check_table(L, arg);
  check_keys(L, arg, "option", "opts keys must be strings", search_opts, extra);
  lua_getfield(L, arg, "heuristic");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING) opt_type_error(L, arg, "heuristic", "string");
    if (lds_heuristic_parse(lua_tostring(L, -1), &p->heuristic) != LDS_OK)
      opt_error(L, arg, "heuristic",
                lua_pushfstring(L, "invalid option '%s' (expected auto, zero, manhattan, "
                                "octile, euclidean, chebyshev)", lua_tostring(L, -1)));
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "weight");
  if (!lua_isnil(L, -1)) {
    char buf[64];
    if (lua_type(L, -1) != LUA_TNUMBER) opt_type_error(L, arg, "weight", "number");
    p->weight = lua_tonumber(L, -1);
    if (!(p->weight >= 1.0) || isinf(p->weight))
      opt_error(L, arg, "weight", lua_pushfstring(L, "%s out of range (expected finite, >= 1)",
                                                  fmt_num(buf, sizeof buf, p->weight)));
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "h_scale");
  if (!lua_isnil(L, -1)) {
    char buf[64];
    if (lua_type(L, -1) != LUA_TNUMBER) opt_type_error(L, arg, "h_scale", "number");
    p->h_scale = lua_tonumber(L, -1);
    if (!(p->h_scale >= 0.0) || isinf(p->h_scale))
      opt_error(L, arg, "h_scale", lua_pushfstring(L, "%s out of range (expected finite, >= 0)",
                                                   fmt_num(buf, sizeof buf, p->h_scale)));
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "partial");
  p->partial = lua_toboolean(L, -1);
  lua_pop(L, 1);
  lua_getfield(L, arg, "cost");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TFUNCTION) opt_type_error(L, arg, "cost", "function");
    lua_pushvalue(L, -1);
    lua_rawseti(L, uv, 2);
    p->edge_cost = edge_trampoline;
    p->edge_ud = b;
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "weights");
  if (!lua_isnil(L, -1)) {
    int t = lua_gettop(L);
    if (lua_type(L, -1) != LUA_TTABLE) opt_type_error(L, arg, "weights", "table");
    lua_newtable(L); /* weights, copy */
    lua_pushnil(L);
    while (lua_next(L, t)) { /* weights, copy, name, w */
      char buf[64];
      const char *name;
      if (lua_type(L, -2) != LUA_TSTRING) opt_error(L, arg, "weights", "keys must be layer names");
      name = lua_tostring(L, -2);
      if (lua_type(L, -1) != LUA_TNUMBER)
        opt_error(L, arg, "weights", lua_pushfstring(L, "weight of layer '%s': number expected, "
                                                     "got %s", name, value_name(L, -1)));
      if (isnan(lua_tonumber(L, -1)) || isinf(lua_tonumber(L, -1)))
        opt_error(L, arg, "weights",
                  lua_pushfstring(L, "weight of layer '%s' is %s (expected finite)", name,
                                  fmt_num(buf, sizeof buf, lua_tonumber(L, -1))));
      if (lds_grid_layer_find(b->gb->g, name) < 0)
        opt_error(L, arg, "weights", lua_pushfstring(L, "the grid has no layer '%s'", name));
      lua_pushvalue(L, -2);
      lua_insert(L, -2); /* weights, copy, name, name, w */
      lua_rawset(L, t + 1);
    }
    lua_rawseti(L, uv, 3);
  }
  lua_pop(L, 1);
}

/* Pushes a new search on the grid at gi with the opts at oi (nil or a
** table; stack indices of the calling function, so argument errors name
** its arguments), for algorithm algo_name; starts it when opts has
** start and goal. extra: as for parse_opts. Returns the box; the search is
** at the top. */
static SearchBox *new_search(lua_State *L, int gi, int oi, const char *algo_name,
                             const char *extra) {
  GridBox *gb = check_gridbox(L, gi);
  lds_Grid *g = check_grid(L, gi);
  lds_Env env = lua_env(L);
  lds_Error err;
  SearchBox *b;
  int self, uv;
  b = (SearchBox *)lds_newudata(L, sizeof(SearchBox)); /* ..., search */
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, LDS_SEARCH_MT);
  self = lua_gettop(L);
  lds_algo_parse(algo_name, &b->algo);
  lua_createtable(L, 4, 0); /* ..., search, uv */
  uv = lua_gettop(L);
  lua_pushvalue(L, gi);
  lua_rawseti(L, uv, 1); /* anchor the grid */
  lua_pushvalue(L, uv);
  lds_setuv(L, self);
  b->gb = gb;
  gb->nsearch++;
  parse_opts(L, oi, b, uv, extra);
  b->s = lds_search_new(&env, g, &err);
  if (!b->s) luaL_error(L, "%s", err.msg);
  b->owned = 1;
  if (!lua_isnoneornil(L, oi)) {
    int32_t sx = 0, sy = 0, gx = 0, gy = 0;
    int has_start, has_goal;
    lua_getfield(L, oi, "start");
    has_start = !lua_isnil(L, -1);
    if (has_start) opt_cell(L, oi, "start", g, &sx, &sy);
    lua_getfield(L, oi, "goal");
    has_goal = !lua_isnil(L, -1);
    if (has_goal) opt_cell(L, oi, "goal", g, &gx, &gy);
    lua_pop(L, 2);
    if (has_start != has_goal) arg_error(L, oi, "opts.start and opts.goal go together");
    if (has_start) do_start(L, b, uv, sx, sy, gx, gy);
  }
  lua_settop(L, self);
  return b;
}

/* lodestar.search.<algo>(grid [, opts]) — upvalue 1: the algorithm name. */
static int search_new(lua_State *L) {
  lua_settop(L, 2);
  if (check_space(L, 1)) /* lodestar.search.<algo>(graph [, opts]) */
    new_graph_search(L, 1, 2, lua_tostring(L, lua_upvalueindex(1)), NULL);
  else
    new_search(L, 1, 2, lua_tostring(L, lua_upvalueindex(1)), NULL);
  return 1;
}

/* s:start(sx, sy, gx, gy) */
static int search_start(lua_State *L) {
  SearchBox *b = check_search(L, 1);
  int32_t sx, sy, gx, gy;
  if (b->hb) return search_start_graph(L, b); /* s:start(start, goal) on graphs */
  check_xy(L, b->gb->g, 2, &sx, &sy);
  check_xy(L, b->gb->g, 4, &gx, &gy);
  lua_settop(L, 5);
  lds_getuv(L, 1);
  do_start(L, b, 6, sx, sy, gx, gy);
  lua_settop(L, 1);
  return 1;
}

/* The edge callback under lua_pcall: a Lua error never crosses the core's
** C frames. On error the error object stays on the stack (no allocation
** here), the step ends with LDS_E_CALLBACK, and step_common reports it. */
static lds_Status edge_trampoline(void *ud, int32_t x0, int32_t y0, int32_t x1, int32_t y1,
                                  double base, double *out) {
  SearchBox *b = (SearchBox *)ud;
  lua_State *L = b->L;
  int t;
  lua_pushvalue(L, b->cb_idx);
  lua_pushinteger(L, x0);
  lua_pushinteger(L, y0);
  lua_pushinteger(L, x1);
  lua_pushinteger(L, y1);
  lua_pushnumber(L, base);
  if (lua_pcall(L, 5, 1, 0) != 0) {
    b->cb_failed = 1;
    b->cb_edge[0] = x0, b->cb_edge[1] = y0, b->cb_edge[2] = x1, b->cb_edge[3] = y1;
    return LDS_E_CALLBACK;
  }
  t = lua_type(L, -1);
  if (t == LUA_TNUMBER) {
    *out = lua_tonumber(L, -1);
  } else if (t == LUA_TBOOLEAN && !lua_toboolean(L, -1)) {
    *out = INFINITY; /* false forbids the move */
  } else {
    b->cb_failed = 2;
    b->cb_badtype = lua_typename(L, t); /* static string */
    b->cb_edge[0] = x0, b->cb_edge[1] = y0, b->cb_edge[2] = x1, b->cb_edge[3] = y1;
    lua_pop(L, 1);
    return LDS_E_CALLBACK;
  }
  lua_pop(L, 1);
  return LDS_OK;
}

/* Steps the search at index 1 with budget bud; pushes status [, message]. */
static int step_common(lua_State *L, SearchBox *b, const lds_Budget *bud) {
  GridBox *gb = b->gb;
  lds_Status st;
  int uv, base;
  if (b->busy) return luaL_error(L, "%s: cannot step a search from its own %s callback",
                                 LDS_SEARCH_MT, b->hb ? "heuristic" : "edge");
  lds_getuv(L, 1);
  uv = lua_gettop(L);
  if (gb && gb->closed && !gb->g) return luaL_error(L, "attempt to use a freed %s", LDS_GRID_MT);
  if (b->params.edge_cost) {
    lua_rawgeti(L, uv, 2); /* uv, fn */
    b->cb_idx = lua_gettop(L);
    luaL_checkstack(L, 10, "edge callback");
  }
  if (b->params.node_h) { /* graphs: the custom heuristic */
    lua_rawgeti(L, uv, 5); /* uv, fn */
    b->h_idx = lua_gettop(L);
    luaL_checkstack(L, 10, "heuristic callback");
  }
  base = lua_gettop(L);
  b->L = L;
  b->cb_failed = 0;
  b->h_failed = 0;
  b->busy = 1;
  if (gb) gb->busy++;
  if (b->hb) b->hb->busy++;
  st = lds_search_step_budget(b->s, bud); /* nothing below may raise until busy is reset */
  if (b->hb) b->hb->busy--;
  if (gb) gb->busy--;
  b->busy = 0;
  if (st == LDS_E_CALLBACK && b->h_failed) heur_report(L, b, uv);
  if (st == LDS_E_CALLBACK && b->cb_failed) {
    const char *lmsg;
    if (b->cb_failed == 1) {
      lmsg = lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER
                 ? lua_tostring(L, -1)
                 : lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, -1));
    } else {
      lmsg = lua_pushfstring(L, "returned %s (expected a number, or false to forbid the move)",
                             b->cb_badtype);
    }
    lua_pushfstring(L, "edge callback failed at (%d,%d)->(%d,%d): %s", (int)b->cb_edge[0],
                    (int)b->cb_edge[1], (int)b->cb_edge[2], (int)b->cb_edge[3], lmsg);
    lua_rawseti(L, uv, 4);
  }
  lua_settop(L, base);
  lua_pushstring(L, lds_status_name(st));
  if (st < 0) {
    lua_rawgeti(L, uv, 4);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_pushstring(L, lds_search_errmsg(b->s));
    }
    return 2;
  }
  return 1;
}

/* s:step([max_expansions]) -> status [, message] */
static int search_step(lua_State *L) {
  SearchBox *b = check_search(L, 1);
  lds_Budget bud;
  double n = opt_int(L, 2, 0);
  if (n < 0) return arg_error(L, 2, "max_expansions must be >= 0 (0 = no limit)");
  bud.max_expansions = (uint64_t)n;
  bud.budget_us = 0;
  lua_settop(L, 1);
  return step_common(L, b, &bud);
}

/* s:run{budget_us = , max_expansions = } -> status [, message] */
static int search_run(lua_State *L) {
  SearchBox *b = check_search(L, 1);
  lds_Budget bud;
  bud.max_expansions = 0;
  bud.budget_us = 0;
  if (!lua_isnoneornil(L, 2)) {
    int i;
    check_table(L, 2);
    check_keys(L, 2, "budget field", "budget fields must be strings", budget_keys, NULL);
    for (i = 0; i < 2; i++) {
      double v;
      lua_getfield(L, 2, budget_keys[i]);
      if (!lua_isnil(L, -1)) {
        v = lua_tonumber(L, -1);
        if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 0)
          arg_error(L, 2, lua_pushfstring(L, "%s must be an integer >= 0", budget_keys[i]));
        if (i == 0)
          bud.budget_us = (uint64_t)v;
        else
          bud.max_expansions = (uint64_t)v;
      }
      lua_pop(L, 1);
    }
  }
  lua_settop(L, 1);
  return step_common(L, b, &bud);
}

static int search_status(lua_State *L) {
  SearchBox *b = check_search(L, 1);
  lua_pushstring(L, lds_status_name(lds_search_status(b->s)));
  return 1;
}

static int search_errmsg(lua_State *L) {
  SearchBox *b = check_search(L, 1);
  lds_getuv(L, 1);
  lua_rawgeti(L, -1, 4);
  if (lua_isnil(L, -1)) lua_pushstring(L, lds_search_errmsg(b->s));
  return 1;
}

static int search_cost(lua_State *L) {
  SearchBox *b = check_search(L, 1);
  double c = lds_search_cost(b->s);
  if (c < 0)
    lua_pushnil(L);
  else
    lua_pushnumber(L, c);
  return 1;
}

static int path_result(lua_State *L, int partial) {
  SearchBox *b = check_search(L, 1);
  lds_Error err;
  PathBox *pb = new_pathbox(L);
  lds_Path *p = partial == 2   ? lds_search_jump_points(b->s, &err)
                : partial == 1 ? lds_search_partial_path(b->s, &err)
                               : lds_search_path(b->s, &err);
  if (!p) {
    if (err.code == LDS_E_NOMEM) return luaL_error(L, "%s", err.msg);
    return push_fail(L, err.msg, err.code);
  }
  pb->p = p;
  pb->owned = 1;
  if (b->gb) { /* a grid search: the path remembers the query's weights (uv[3]) */
    lds_getuv(L, 1);
    lua_rawgeti(L, -1, 3); /* path, uv, weights */
    path_remember(L, -3, -1);
    lua_pop(L, 2);
  }
  return 1;
}

static int search_path(lua_State *L) { return path_result(L, 0); }
static int search_partial_path(lua_State *L) { return path_result(L, 1); }
/* s:jump_points(): the sparse path of a JPS/JPS+ search (start, jump points,
** goal); for other algorithms the full path. nil, msg, code when none. */
static int search_jump_points(lua_State *L) { return path_result(L, 2); }

static int search_stats(lua_State *L) {
  SearchBox *b = check_search(L, 1);
  lds_Stats st;
  lds_search_stats(b->s, &st);
  lua_createtable(L, 0, 4);
  push_u64(L, st.expansions);
  lua_setfield(L, -2, "expansions");
  push_u64(L, st.pushes);
  lua_setfield(L, -2, "pushes");
  push_u64(L, st.peak_open);
  lua_setfield(L, -2, "peak_open");
  push_u64(L, st.elapsed_us);
  lua_setfield(L, -2, "elapsed_us");
  push_u64(L, lds_search_mem_used(b->s));
  lua_setfield(L, -2, "mem_bytes");
  return 1;
}

static int search_grid(lua_State *L) {
  if (!check_search(L, 1)->gb) { /* a graph search: see s:graph() */
    lua_pushnil(L);
    return 1;
  }
  lds_getuv(L, 1);
  lua_rawgeti(L, -1, 1);
  return 1;
}

static int search_algorithm(lua_State *L) {
  SearchBox *b = check_searchbox(L, 1);
  lua_pushstring(L, lds_algo_name(b->algo));
  return 1;
}

/* s:algorithm_used() -> name | nil. The algorithm that actually runs the
** current (or last) query, one of lodestar.algorithms, which can differ from
** s:algorithm(): "jps" and "jps+" fall back to "astar" where JPS would not
** be optimal (a 4-connected grid, the "never" or "allow_one_blocked"
** diagonal rule, a cell cost other than 1, a non-zero layer weight, an edge
** callback; see docs/search.md, "Jump Point Search"), and "jps+" runs "jps" on
** an "always" grid. Decided by s:start from the grid as it is then; later
** edits take effect at the next start. Other algorithms (and graph searches)
** return s:algorithm(). nil before the first start and after a start that
** raised (no query is set up). Raises only for a non-search argument or a
** freed search. (lds_search_algo_used) */
static int search_algorithm_used(lua_State *L) {
  SearchBox *b = check_search(L, 1);
  if (!b->started) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushstring(L, lds_algo_name(lds_search_algo_used(b->s)));
  return 1;
}

/* Algorithms that run on graphs (the others need a grid). */
static int graph_algo(lds_Algo a) {
  return a == LDS_ALGO_ASTAR || a == LDS_ALGO_DIJKSTRA || a == LDS_ALGO_WASTAR ||
         a == LDS_ALGO_GREEDY;
}

/* Raises "bad argument #oi (opts.algorithm: unknown algorithm 'x' (expected
** astar, ...))", listing the names the core knows (graphs: those that run on
** graphs), so the list follows lds_algo_name. */
static int unknown_algorithm(lua_State *L, int oi, const char *algo, int graph) {
  luaL_Buffer b;
  int i, n = 0;
  lua_pushfstring(L, "unknown algorithm '%s' (expected ", algo);
  luaL_buffinit(L, &b);
  for (i = 0; i < 64 && lds_algo_name((lds_Algo)i); i++) {
    if (graph && !graph_algo((lds_Algo)i)) continue;
    if (n++) luaL_addstring(&b, ", ");
    luaL_addstring(&b, lds_algo_name((lds_Algo)i));
  }
  luaL_addchar(&b, ')');
  luaL_pushresult(&b);
  lua_concat(L, 2);
  return opt_error(L, oi, "algorithm", lua_tostring(L, -1));
}

/* find_path's options: takes the `algorithm` field out of the table at oi.
** Afterwards oi holds a copy of opts without it and oi + 1 the original (which
** keeps the returned string alive); nil opts stay nil. Returns the name
** ("astar" by default). */
static const char *take_algorithm(lua_State *L, int oi) {
  const char *algo = "astar";
  lua_settop(L, oi);
  if (lua_isnil(L, oi)) return algo;
  check_table(L, oi);
  lua_getfield(L, oi, "algorithm");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING) opt_type_error(L, oi, "algorithm", "string");
    algo = lua_tostring(L, -1); /* kept alive by opts */
  }
  lua_pop(L, 1);
  lua_newtable(L); /* oi + 1: opts without 'algorithm' */
  lua_pushnil(L);
  while (lua_next(L, oi)) {
    if (lua_type(L, -2) == LUA_TSTRING && strcmp(lua_tostring(L, -2), "algorithm") == 0) {
      lua_pop(L, 1);
      continue;
    }
    lua_pushvalue(L, -2);
    lua_insert(L, -2);
    lua_rawset(L, oi + 1);
  }
  lua_insert(L, oi); /* oi: the copy, oi + 1: the original */
  return algo;
}

/* find_path's results for the started search b on top of the stack: runs it
** to the end, then path | nil, "no_path" | nil, message, status; the node
** records are freed at once, not at the next GC. */
static int find_path_finish(lua_State *L, SearchBox *b) {
  lds_Status st;
  lua_replace(L, 1); /* step_common works on index 1 */
  lua_settop(L, 1);
  step_common(L, b, NULL); /* search, uv[, fn], status [, msg] */
  st = lds_search_status(b->s);
  if (st == LDS_FOUND || (st == LDS_NO_PATH && b->params.partial)) {
    lds_Error err;
    PathBox *pb = new_pathbox(L);
    lds_Path *p = lds_search_path(b->s, &err);
    /* no partial path (a blocked start): no_path, as without partial */
    if (p || st != LDS_NO_PATH || err.code != LDS_E_STATE) {
      push_path(L, pb, p, &err);
      lds_getuv(L, 1);
      lua_rawgeti(L, -1, 3); /* ..., path, uv, weights: the path remembers them */
      path_remember(L, -3, -1);
      lua_pop(L, 2);
      search_release(b);
      return 1;
    }
    lua_pop(L, 1);
  }
  search_release(b);
  if (st == LDS_NO_PATH) {
    luaL_pushfail(L);
    lua_pushstring(L, "no_path");
    return 2;
  }
  luaL_pushfail(L); /* errors always push status, message */
  lua_pushvalue(L, -2);
  lua_pushstring(L, lds_status_name(st));
  return 3;
}

/* lodestar.find_path(grid, sx, sy, gx, gy [, opts]) -> path | nil, "no_path"
** | nil, message, status. opts as for a search, plus `algorithm`. */
static int find_path(lua_State *L) {
  lds_Grid *g;
  int32_t sx, sy, gx, gy;
  const char *algo;
  SearchBox *b;
  lds_Algo a;
  if (check_space(L, 1)) return find_path_graph(L); /* find_path(graph, start, goal [, opts]) */
  g = check_grid(L, 1);
  check_xy(L, g, 2, &sx, &sy);
  check_xy(L, g, 4, &gx, &gy);
  algo = take_algorithm(L, 6);
  if (lds_algo_parse(algo, &a) != LDS_OK) return unknown_algorithm(L, 6, algo, 0);
  b = new_search(L, 1, 6, algo, "algorithm"); /* top: search */
  lds_getuv(L, -1);
  do_start(L, b, lua_gettop(L), sx, sy, gx, gy);
  lua_pop(L, 1);
  return find_path_finish(L, b);
}

/* ------------------------------------------------------ graph search -- */

static const char *const graph_search_opts[] = {"goal", "h_scale", "heuristic", "partial",
                                                "start", "weight", NULL};

/* The custom heuristic under lua_pcall, as edge_trampoline: a Lua error
** never crosses the core's C frames. Node ids go to Lua 1-based. On any
** failure it records why and returns NaN, which the core rejects: the start
** or step then ends with LDS_E_CALLBACK and heur_report writes the message.
** The error object of a raising heuristic stays on the stack (no allocation
** here). */
static double node_h_trampoline(void *ud, uint32_t node, uint32_t goal) {
  SearchBox *b = (SearchBox *)ud;
  lua_State *L = b->L;
  double v;
  int t;
  if (b->h_failed) return NAN;
  lua_pushvalue(L, b->h_idx);
  push_u64(L, (uint64_t)node + 1); /* integers on 5.4 */
  push_u64(L, (uint64_t)goal + 1);
  b->h_node = node;
  if (lua_pcall(L, 2, 1, 0) != 0) {
    b->h_failed = 1;
    return NAN;
  }
  t = lua_type(L, -1);
  if (t != LUA_TNUMBER) {
    b->h_failed = 2;
    b->h_badtype = lua_typename(L, t); /* static string */
    lua_pop(L, 1);
    return NAN;
  }
  v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  if (!(v >= 0.0) || isinf(v)) {
    b->h_failed = 3;
    b->h_val = v;
    return NAN;
  }
  return v;
}

/* Writes the message of a failed heuristic to uv[4] (the error object of
** a raising one is at the top of the stack). */
static void heur_report(lua_State *L, SearchBox *b, int uv) {
  const char *lmsg;
  char buf[64];
  if (b->h_failed == 1)
    lmsg = lua_type(L, -1) == LUA_TSTRING || lua_type(L, -1) == LUA_TNUMBER
               ? lua_tostring(L, -1)
               : lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, -1));
  else if (b->h_failed == 2)
    lmsg = lua_pushfstring(L, "returned %s (expected a number >= 0)", b->h_badtype);
  else
    lmsg = lua_pushfstring(L, "returned %s (expected finite, >= 0)",
                           fmt_num(buf, sizeof buf, b->h_val));
  lua_pushfstring(L, "heuristic callback failed at node %d: %s", (int)b->h_node + 1, lmsg);
  lua_rawseti(L, uv, 4);
}

/* "grid or graph" arguments (STYLE 13): both metatables carry the marker
** field LDS_SPACE_FIELD ("grid" / "graph"). Returns 1 for a graph, 0 for a
** grid; raises "lodestar.Grid or lodestar.Graph expected, got ..." else. */
static int check_space(lua_State *L, int arg) {
  int space = -1;
  if (lua_type(L, arg) == LUA_TUSERDATA && lua_getmetatable(L, arg)) { /* mt */
    lua_getfield(L, -1, LDS_SPACE_FIELD);                              /* mt, marker */
    if (lua_type(L, -1) == LUA_TSTRING)
      space = strcmp(lua_tostring(L, -1), "graph") == 0  ? 1
              : strcmp(lua_tostring(L, -1), "grid") == 0 ? 0
                                                          : -1;
    lua_pop(L, 2);
  }
  if (space < 0) type_error(L, arg, LDS_GRID_MT " or " LDS_GRAPH_MT);
  return space;
}

/* Reads a node id field (opts.start / opts.goal) at the top; 0-based. */
static uint32_t opt_node(lua_State *L, int arg, const char *name, const lds_Graph *g) {
  double v;
  char buf[64];
  if (lua_type(L, -1) != LUA_TNUMBER) opt_type_error(L, arg, name, "number (a node id)");
  v = lua_tonumber(L, -1);
  if (v != floor(v)) opt_error(L, arg, name, "number has no integer representation");
  if (v < 1 || v > (double)lds_graph_node_count(g))
    opt_error(L, arg, name, lua_pushfstring(L, "node %s out of range (expected 1..%d)",
                                            fmt_num(buf, sizeof buf, v),
                                            (int)lds_graph_node_count(g)));
  return (uint32_t)v - 1;
}

/* Parses the opts of a graph search at arg into b->params and uv; extra as
** for parse_opts. */
static void parse_graph_opts(lua_State *L, int arg, SearchBox *b, int uv, const char *extra) {
  lds_SearchParams *p = &b->params;
  lds_Coords kind = lds_graph_coords(b->hb->g);
  char buf[64];
  lds_search_params_init(p);
  p->algo = b->algo;
  if (lua_isnoneornil(L, arg)) return;
  check_table(L, arg);
  lua_getfield(L, arg, "cost");
  lua_getfield(L, arg, "weights");
  if (!lua_isnil(L, -2) || !lua_isnil(L, -1))
    arg_error(L, arg, lua_pushfstring(L, "option '%s' is for grid searches (on a graph, change "
                                  "costs with graph:set_edge_cost)",
                                  lua_isnil(L, -2) ? "weights" : "cost"));
  lua_pop(L, 2);
  check_keys(L, arg, "option", "opts keys must be strings", graph_search_opts, extra);
  lua_getfield(L, arg, "heuristic");
  if (lua_type(L, -1) == LUA_TFUNCTION) {
    lua_pushvalue(L, -1);
    lua_rawseti(L, uv, 5);
    p->heuristic = LDS_H_CUSTOM;
    p->node_h = node_h_trampoline;
    p->node_h_ud = b;
  } else if (!lua_isnil(L, -1)) {
    const char *h;
    if (lua_type(L, -1) != LUA_TSTRING) opt_type_error(L, arg, "heuristic", "string or function");
    h = lua_tostring(L, -1);
    if (lds_heuristic_parse(h, &p->heuristic) != LDS_OK ||
        (p->heuristic != LDS_H_AUTO && p->heuristic != LDS_H_ZERO &&
         p->heuristic != LDS_H_EUCLIDEAN && p->heuristic != LDS_H_GREAT_CIRCLE &&
         p->heuristic != LDS_H_CUSTOM))
      opt_error(L, arg, "heuristic",
                lua_pushfstring(L, "invalid option '%s' on a graph (expected auto, zero, "
                                "euclidean, great_circle, or a function(node, goal))", h));
    if (p->heuristic == LDS_H_CUSTOM)
      opt_error(L, arg, "heuristic", "'custom' is given as the function itself: heuristic = "
                "function(node, goal) ... end");
    if (p->heuristic == LDS_H_EUCLIDEAN && kind != LDS_COORDS_XY && kind != LDS_COORDS_XYZ)
      opt_error(L, arg, "heuristic", lua_pushfstring(L, "'euclidean' needs a graph with coords "
                                                     "'xy' or 'xyz' (this one has '%s')",
                                                     lds_coords_name(kind)));
    if (p->heuristic == LDS_H_GREAT_CIRCLE && kind != LDS_COORDS_LONLAT)
      opt_error(L, arg, "heuristic", lua_pushfstring(L, "'great_circle' needs a graph with "
                                                     "coords 'lonlat' (this one has '%s')",
                                                     lds_coords_name(kind)));
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "weight");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TNUMBER) opt_type_error(L, arg, "weight", "number");
    p->weight = lua_tonumber(L, -1);
    if (!(p->weight >= 1.0) || isinf(p->weight))
      opt_error(L, arg, "weight", lua_pushfstring(L, "%s out of range (expected finite, >= 1)",
                                                  fmt_num(buf, sizeof buf, p->weight)));
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "h_scale");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TNUMBER) opt_type_error(L, arg, "h_scale", "number");
    p->h_scale = lua_tonumber(L, -1);
    if (!(p->h_scale >= 0.0) || isinf(p->h_scale))
      opt_error(L, arg, "h_scale", lua_pushfstring(L, "%s out of range (expected finite, >= 0)",
                                                   fmt_num(buf, sizeof buf, p->h_scale)));
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "partial");
  p->partial = lua_toboolean(L, -1);
  lua_pop(L, 1);
}

/* Starts a graph query (0-based ids; user value table at uv). A custom
** heuristic runs here already (the core evaluates it on the start node): if
** it fails, the query ends with status "callback" and its message, as in a
** step. Raises on argument errors only. */
static void do_start_graph(lua_State *L, SearchBox *b, int uv, uint32_t start, uint32_t goal) {
  lds_Status st;
  int top = lua_gettop(L);
  if (b->busy) luaL_error(L, "%s: cannot restart a search from its own heuristic callback",
                          LDS_SEARCH_MT);
  lua_pushnil(L);
  lua_rawseti(L, uv, 4); /* forget the last Lua error */
  if (b->params.node_h) {
    lua_rawgeti(L, uv, 5); /* ..., fn */
    b->h_idx = lua_gettop(L);
    luaL_checkstack(L, 10, "heuristic callback");
  }
  b->L = L;
  b->h_failed = 0;
  b->busy = 1;
  b->hb->busy++;
  st = lds_search_start_nodes(b->s, &b->params, start, goal); /* no raising until busy is reset */
  b->started = st >= 0;
  b->hb->busy--;
  b->busy = 0;
  if (st == LDS_E_CALLBACK && b->h_failed) heur_report(L, b, uv);
  lua_settop(L, top);
  if (st < 0 && st != LDS_E_CALLBACK) luaL_error(L, "%s", lds_search_errmsg(b->s));
}

/* s:start(start, goal) on a graph search (node ids) */
static int search_start_graph(lua_State *L, SearchBox *b) {
  const lds_Graph *g = b->hb->g; /* alive while the search is (nsearch) */
  uint32_t s0 = check_node(L, g, 2, "start"), t0 = check_node(L, g, 3, "goal");
  lua_settop(L, 3);
  lds_getuv(L, 1); /* 4: uv */
  do_start_graph(L, b, 4, s0, t0);
  lua_settop(L, 1);
  return 1;
}

/* Pushes and returns "algorithm 'NAME' runs on grids only (...)". */
static const char *push_grids_only(lua_State *L, const char *algo_name) {
  return lua_pushfstring(L, "algorithm '%s' runs on grids only (expected astar, dijkstra, "
                         "wastar or greedy on a graph)", algo_name);
}

/* Pushes a new search on the graph at hi with the opts at oi, as new_search
** does for grids; starts it when opts has start and goal. */
static SearchBox *new_graph_search(lua_State *L, int hi, int oi, const char *algo_name,
                                   const char *extra) {
  GraphBox *hb = check_graphbox(L, hi);
  lds_Graph *g = check_graph(L, hi);
  lds_Env env = lua_env(L);
  lds_Error err;
  lds_Algo algo = LDS_ALGO_ASTAR;
  SearchBox *b;
  int self, uv;
  lds_algo_parse(algo_name, &algo);
  if (!graph_algo(algo)) arg_error(L, hi, push_grids_only(L, algo_name));
  if (!lds_graph_frozen(g))
    arg_error(L, hi, "the graph is not frozen (call graph:freeze() first)");
  b = (SearchBox *)lds_newudata(L, sizeof(SearchBox)); /* ..., search */
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, LDS_SEARCH_MT);
  self = lua_gettop(L);
  b->algo = algo;
  lua_createtable(L, 5, 0); /* ..., search, uv */
  uv = lua_gettop(L);
  lua_pushvalue(L, hi);
  lua_rawseti(L, uv, 1); /* anchor the graph */
  lua_pushvalue(L, uv);
  lds_setuv(L, self);
  b->hb = hb;
  hb->nsearch++;
  parse_graph_opts(L, oi, b, uv, extra);
  b->s = lds_search_new_graph(&env, g, &err);
  if (!b->s) luaL_error(L, "%s", err.msg);
  b->owned = 1;
  if (!lua_isnoneornil(L, oi)) {
    uint32_t s0 = 0, t0 = 0;
    int has_start, has_goal;
    lua_getfield(L, oi, "start");
    has_start = !lua_isnil(L, -1);
    if (has_start) s0 = opt_node(L, oi, "start", g);
    lua_getfield(L, oi, "goal");
    has_goal = !lua_isnil(L, -1);
    if (has_goal) t0 = opt_node(L, oi, "goal", g);
    lua_pop(L, 2);
    if (has_start != has_goal) arg_error(L, oi, "opts.start and opts.goal go together");
    if (has_start) do_start_graph(L, b, uv, s0, t0);
  }
  lua_settop(L, self);
  return b;
}

/* lodestar.find_path(graph, start, goal [, opts]) — find_path's graph form */
static int find_path_graph(lua_State *L) {
  lds_Graph *g = check_graph(L, 1);
  uint32_t s0 = check_node(L, g, 2, "start"), t0 = check_node(L, g, 3, "goal");
  const char *algo = take_algorithm(L, 4);
  SearchBox *b;
  lds_Algo a;
  if (lds_algo_parse(algo, &a) != LDS_OK) return unknown_algorithm(L, 4, algo, 1);
  /* the name came from the options, not from the graph (argument #1) */
  if (!graph_algo(a)) return opt_error(L, 4, "algorithm", push_grids_only(L, algo));
  b = new_graph_search(L, 1, 4, algo, "algorithm"); /* top: search */
  lds_getuv(L, -1);
  do_start_graph(L, b, lua_gettop(L), s0, t0);
  lua_pop(L, 1);
  return find_path_finish(L, b);
}

static int search_graph(lua_State *L) {
  SearchBox *b = check_search(L, 1);
  if (!b->hb) {
    lua_pushnil(L);
    return 1;
  }
  lds_getuv(L, 1);
  lua_rawgeti(L, -1, 1);
  return 1;
}

static int search_h_scale(lua_State *L) {
  lua_pushnumber(L, lds_search_h_scale(check_search(L, 1)->s));
  return 1;
}

/* ------------------------------------------------------ module level -- */

static int m_status_name(lua_State *L) {
  lua_pushstring(L, lds_status_name((lds_Status)check_int(L, 1)));
  return 1;
}

static int m_heuristic_distance(lua_State *L) {
  lds_Heuristic h;
  const char *name = check_str(L, 1);
  if (lds_heuristic_parse(name, &h) != LDS_OK)
    return arg_error(L, 1, lua_pushfstring(L, "invalid option '%s'", name));
  lua_pushnumber(L, lds_heuristic_distance(h, (int32_t)check_int(L, 2), (int32_t)check_int(L, 3)));
  return 1;
}

/* lodestar.prune_los(path, grid): path:prune_los(grid) as a post-processor
** function. Its own C function, so a bad grid is argument #2 here and #1 in
** the method (arg_error tells them apart by the function). */
static int m_prune_los(lua_State *L) { return path_prune_los(L); }

static const luaL_Reg module_funcs[] = {{"find_path", find_path},
                                        {"heuristic_distance", m_heuristic_distance},
                                        {"prune_los", m_prune_los},
                                        {"status_name", m_status_name},
                                        {NULL, NULL}};

static const luaL_Reg grid_funcs[] = {
    {"from_ascii", grid_from_ascii}, {"from_rows", grid_from_rows}, {"load", grid_load},
    {"new", grid_new}, {"parse", grid_parse}, {NULL, NULL}};

static const luaL_Reg grid_meth[] = {
    {"bake", grid_bake},
    {"bake_commit", grid_bake_commit},
    {"clone", grid_clone},
    {"diagonal", grid_diagonal},
    {"free", grid_free},
    {"get_blocked", grid_get_blocked},
    {"get_cost", grid_get_cost},
    {"height", grid_height},
    {"layer_add", grid_layer_add},
    {"layer_get", grid_layer_get},
    {"layer_list", grid_layer_list},
    {"layer_range", grid_layer_range},
    {"layer_remove", grid_layer_remove},
    {"layer_set", grid_layer_set},
    {"line_of_sight", grid_line_of_sight},
    {"mem_used", grid_mem_used},
    {"min_cost", grid_min_cost},
    {"neighbourhood", grid_neighbourhood},
    {"passable_count", grid_passable_count},
    {"polyline_cost", grid_polyline_cost},
    {"set_blocked", grid_set_blocked},
    {"set_cost", grid_set_cost},
    {"set_diagonal", grid_set_diagonal},
    {"set_neighbourhood", grid_set_neighbourhood},
    {"set_terrain", grid_set_terrain},
    {"size", grid_size},
    {"terrain", grid_terrain},
    {"version", grid_version},
    {"width", grid_width},
    {NULL, NULL}};

static const luaL_Reg baked_metameth[] = {{NULL, NULL}};

static const luaL_Reg grid_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", grid_gc},
#endif
    {"__gc", grid_gc},
    {"__tostring", grid_tostring},
    {NULL, NULL}};

static const luaL_Reg graph_funcs[] = {{"from_grid", graph_from_grid},
                                       {"load_dimacs", graph_load_dimacs},
                                       {"parse_dimacs", graph_parse_dimacs},
                                       {"new", graph_new},
                                       {NULL, NULL}};

static const luaL_Reg graph_meth[] = {
    {"add_edge", graph_add_edge},
    {"add_node", graph_add_node},
    {"coord_kind", graph_coord_kind},
    {"coords", graph_coords},
    {"distance", graph_distance},
    {"edge", graph_edge},
    {"edge_count", graph_edge_count},
    {"find_edge", graph_find_edge},
    {"free", graph_free},
    {"freeze", graph_freeze},
    {"frozen", graph_frozen},
    {"h_scale", graph_h_scale},
    {"in_neighbors", graph_in_neighbors},
    {"mem_used", graph_mem_used},
    {"neighbors", graph_neighbors},
    {"node_count", graph_node_count},
    {"set_edge_cost", graph_set_edge_cost},
    {"set_edge_cost_id", graph_set_edge_cost_id},
    {"version", graph_version},
    {NULL, NULL}};

static const luaL_Reg graph_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", graph_gc},
#endif
    {"__gc", graph_gc},
    {"__tostring", graph_tostring},
    {NULL, NULL}};

static const luaL_Reg search_meth[] = {
    {"algorithm", search_algorithm},
    {"algorithm_used", search_algorithm_used},
    {"cost", search_cost},
    {"errmsg", search_errmsg},
    {"free", search_free},
    {"graph", search_graph},
    {"grid", search_grid},
    {"h_scale", search_h_scale},
    {"jump_points", search_jump_points},
    {"partial_path", search_partial_path},
    {"path", search_path},
    {"run", search_run},
    {"start", search_start},
    {"stats", search_stats},
    {"status", search_status},
    {"step", search_step},
    {NULL, NULL}};

static const luaL_Reg search_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", search_gc},
#endif
    {"__gc", search_gc},
    {"__tostring", search_tostring},
    {NULL, NULL}};

static const luaL_Reg path_funcs[] = {{"new", path_new}, {NULL, NULL}};

static const luaL_Reg scenario_funcs[] = {
    {"load", scenario_load}, {"parse", scenario_parse}, {NULL, NULL}};

static const luaL_Reg path_meth[] = {
    {"cell", path_cell},
    {"cells", path_cells},
    {"free", path_free},
    {"node", path_node},
    {"nodes", path_nodes},
    {"prune_los", path_prune_los},
    {"replaced_costs", path_replaced_costs},
    {"reverse", path_reverse},
    {"set_weights", path_set_weights},
    {"sub", path_sub},
    {"totable", path_totable},
    {NULL, NULL}};

static const luaL_Reg path_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", path_release},
#endif
    {"__gc", path_release},
    {"__len", path_len},
    {"__tostring", path_tostring},
    {NULL, NULL}};

/* ----------------------------------------------------------- D* Lite -- */
/* lodestar.search.dstar_lite(grid, opts): the incremental planner of
** core/lds_dstar.h. The box follows the search's pattern: created with a
** NULL pointer and its metatable first, the grid userdata anchored in the
** user value ([1]), the grid box's nsearch counted so grid:free() or its
** __gc leaves the core grid alive until the last D* Lite on it is freed.
** [Paper: Koenig & Likhachev, "D* Lite", AAAI 2002] */

typedef struct DStarBox {
  lds_DStar *ds;
  GridBox *gb;   /* the grid's box (anchored in the user value) */
  int subscribed;
} DStarBox;

static const char *const dstar_opts[] = {"goal", "h_scale", "heuristic", "start", "subscribe",
                                         "weights", NULL};

/* Flag bits and their Lua names, in bit order (d:flags()). */
static const struct {
  uint32_t bit;
  const char *name;
} dstar_flag_names[] = {{LDS_DSTAR_START_BLOCKED, "start_blocked"},
                        {LDS_DSTAR_GOAL_BLOCKED, "goal_blocked"},
                        {LDS_DSTAR_UNREACHABLE, "unreachable"},
                        {LDS_DSTAR_REACHABLE_AGAIN, "reachable_again"},
                        {LDS_DSTAR_CHANGES, "changes"},
                        {LDS_DSTAR_NEAR_START, "near_start"},
                        {LDS_DSTAR_REINIT, "reinit"},
                        {LDS_DSTAR_AT_GOAL, "at_goal"}};

static DStarBox *check_dstarbox(lua_State *L, int arg) {
  DStarBox *b = (DStarBox *)luaL_testudata(L, arg, LDS_DSTAR_MT);
  if (!b) type_error(L, arg, LDS_DSTAR_MT);
  return b;
}

/* The one check of every method but free/__tostring: a live D* Lite. */
static DStarBox *check_dstar(lua_State *L, int arg) {
  DStarBox *b = check_dstarbox(L, arg);
  if (!b->ds) luaL_error(L, "attempt to use a freed %s", LDS_DSTAR_MT);
  return b;
}

/* Idempotent release shared by :free(), __gc and __close: the D* Lite is
** freed first (it unsubscribes from the still-alive grid), then the grid
** box is told, and finishes a grid:free() that came first. */
static void dstar_release(DStarBox *b) {
  if (b->ds) lds_dstar_free(b->ds);
  b->ds = NULL;
  b->subscribed = 0;
  if (b->gb) {
    GridBox *gb = b->gb;
    b->gb = NULL;
    gb->nsearch--;
    if (gb->closed) grid_release(gb);
  }
}

static int dstar_gc(lua_State *L) {
  DStarBox *b = (DStarBox *)lua_touserdata(L, 1);
  if (b) dstar_release(b);
  return 0;
}

static int dstar_free(lua_State *L) {
  dstar_release(check_dstarbox(L, 1));
  return 0;
}

static int dstar_tostring(lua_State *L) {
  DStarBox *b = check_dstarbox(L, 1);
  int32_t sx, sy, gx, gy;
  if (!b->ds) {
    lua_pushfstring(L, "%s (freed)", LDS_DSTAR_MT);
    return 1;
  }
  lds_dstar_endpoints(b->ds, &sx, &sy, &gx, &gy);
  lua_pushfstring(L, "%s (%d,%d)->(%d,%d) %s (%p)", LDS_DSTAR_MT, (int)sx, (int)sy, (int)gx,
                  (int)gy, lds_status_name(lds_dstar_status(b->ds)), (void *)b);
  return 1;
}

/* Reads opts.weights (name -> finite number) into w[] by layer index;
** returns the count to pass as n_layer_weights (highest index + 1). */
static int dstar_weights(lua_State *L, int arg, const lds_Grid *g, double *w) {
  int n = 0, t;
  memset(w, 0, 16 * sizeof *w);
  lua_getfield(L, arg, "weights");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return 0;
  }
  if (lua_type(L, -1) != LUA_TTABLE) opt_type_error(L, arg, "weights", "table");
  t = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, t)) { /* weights, name, w */
    char buf[64];
    const char *name;
    int idx;
    if (lua_type(L, -2) != LUA_TSTRING) opt_error(L, arg, "weights", "keys must be layer names");
    name = lua_tostring(L, -2);
    if (lua_type(L, -1) != LUA_TNUMBER)
      opt_error(L, arg, "weights", lua_pushfstring(L, "weight of layer '%s': number expected, "
                                                   "got %s", name, value_name(L, -1)));
    if (isnan(lua_tonumber(L, -1)) || isinf(lua_tonumber(L, -1)))
      opt_error(L, arg, "weights",
                lua_pushfstring(L, "weight of layer '%s' is %s (expected finite)", name,
                                fmt_num(buf, sizeof buf, lua_tonumber(L, -1))));
    idx = lds_grid_layer_find(g, name);
    if (idx < 0) opt_error(L, arg, "weights", lua_pushfstring(L, "the grid has no layer '%s'", name));
    if (idx >= 16)
      opt_error(L, arg, "weights", lua_pushfstring(L, "layer '%s' is layer %d (at most 16 layers "
                                                   "can be weighted)", name, idx + 1));
    w[idx] = lua_tonumber(L, -1);
    if (idx + 1 > n) n = idx + 1;
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
  return n;
}

/* lodestar.search.dstar_lite(grid, {start = {x, y}, goal = {x, y}
**   [, heuristic = name] [, h_scale = n] [, weights = {layer = w}]
**   [, subscribe = true]}) -> a lodestar.DStar (set up, not yet computed) */
static int dstar_new(lua_State *L) {
  GridBox *gb = check_gridbox(L, 1);
  lds_Grid *g = check_grid(L, 1);
  lds_Env env = lua_env(L);
  lds_Error err;
  lds_DStarParams p;
  double w[16];
  int32_t sx, sy, gx, gy;
  int subscribe = 1, self, uv;
  DStarBox *b;
  lua_settop(L, 2);
  check_table(L, 2);
  lds_dstar_params_init(&p);
  check_keys(L, 2, "option", "opts keys must be strings", dstar_opts, NULL);
  lua_getfield(L, 2, "start");
  if (lua_isnil(L, -1)) opt_error(L, 2, "start", "required (a table {x, y})");
  opt_cell(L, 2, "start", g, &sx, &sy);
  lua_getfield(L, 2, "goal");
  if (lua_isnil(L, -1)) opt_error(L, 2, "goal", "required (a table {x, y})");
  opt_cell(L, 2, "goal", g, &gx, &gy);
  lua_pop(L, 2);
  lua_getfield(L, 2, "heuristic");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING) opt_type_error(L, 2, "heuristic", "string");
    if (lds_heuristic_parse(lua_tostring(L, -1), &p.heuristic) != LDS_OK ||
        p.heuristic == LDS_H_EUCLIDEAN)
      opt_error(L, 2, "heuristic",
                lua_pushfstring(L, "invalid option '%s' (expected auto, zero, manhattan, octile, "
                                "chebyshev; D* Lite keys must be exact, so no euclidean)",
                                lua_tostring(L, -1)));
  }
  lua_pop(L, 1);
  lua_getfield(L, 2, "h_scale");
  if (!lua_isnil(L, -1)) {
    char buf[64];
    if (lua_type(L, -1) != LUA_TNUMBER) opt_type_error(L, 2, "h_scale", "number");
    p.h_scale = lua_tonumber(L, -1);
    if (!(p.h_scale >= 0.0) || isinf(p.h_scale))
      opt_error(L, 2, "h_scale", lua_pushfstring(L, "%s out of range (expected finite, >= 0)",
                                                 fmt_num(buf, sizeof buf, p.h_scale)));
  }
  lua_pop(L, 1);
  lua_getfield(L, 2, "subscribe");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TBOOLEAN) opt_type_error(L, 2, "subscribe", "boolean");
    subscribe = lua_toboolean(L, -1);
  }
  lua_pop(L, 1);
  p.n_layer_weights = dstar_weights(L, 2, g, w);
  p.layer_weights = p.n_layer_weights ? w : NULL;

  b = (DStarBox *)lds_newudata(L, sizeof(DStarBox)); /* grid, opts, dstar */
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, LDS_DSTAR_MT);
  self = lua_gettop(L);
  lua_createtable(L, 1, 0); /* grid, opts, dstar, uv */
  uv = lua_gettop(L);
  lua_pushvalue(L, 1);
  lua_rawseti(L, uv, 1); /* anchor the grid */
  lua_getfield(L, 2, "weights");
  if (!lua_isnil(L, -1)) {
    copy_table(L, -1); /* grid, opts, dstar, uv, weights, copy: its paths remember it */
    lua_rawseti(L, uv, 3);
  }
  lua_pop(L, 1);
  lds_setuv(L, self);
  b->gb = gb;
  gb->nsearch++;
  b->ds = lds_dstar_new(&env, g, sx, sy, gx, gy, &p, &err);
  if (!b->ds) return luaL_error(L, "%s", err.msg);
  if (subscribe) {
    if (lds_dstar_subscribe(b->ds, g) != LDS_OK)
      return luaL_error(L, "%s", lds_dstar_errmsg(b->ds));
    b->subscribed = 1;
  }
  lua_settop(L, self);
  return 1;
}

/* Budget at arg: nil (no limit), an integer (max expansions) or a table
** {max_expansions =, budget_us =} of integers >= 0. */
static void check_budget(lua_State *L, int arg, lds_Budget *bud) {
  int i;
  bud->max_expansions = 0;
  bud->budget_us = 0;
  if (lua_isnoneornil(L, arg)) return;
  if (lua_type(L, arg) == LUA_TNUMBER) {
    double n = check_int(L, arg);
    if (n < 0) arg_error(L, arg, "max_expansions must be >= 0 (0 = no limit)");
    bud->max_expansions = (uint64_t)n;
    return;
  }
  if (lua_type(L, arg) != LUA_TTABLE)
    type_error(L, arg, "number or table {max_expansions =, budget_us =}");
  check_keys(L, arg, "budget field", "budget fields must be strings", budget_keys, NULL);
  for (i = 0; i < 2; i++) {
    double v;
    lua_getfield(L, arg, budget_keys[i]);
    if (!lua_isnil(L, -1)) {
      v = lua_tonumber(L, -1);
      if (lua_type(L, -1) != LUA_TNUMBER || v != floor(v) || v < 0)
        arg_error(L, arg, lua_pushfstring(L, "%s must be an integer >= 0", budget_keys[i]));
      if (i == 0)
        bud->budget_us = (uint64_t)v;
      else
        bud->max_expansions = (uint64_t)v;
    }
    lua_pop(L, 1);
  }
}

/* d:compute([budget]) -> status [, message] */
static int dstar_compute(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  lds_Budget bud;
  lds_Status st;
  check_budget(L, 2, &bud);
  st = lds_dstar_compute(b->ds, &bud);
  lua_pushstring(L, lds_status_name(st));
  if (st < 0) {
    lua_pushstring(L, lds_dstar_errmsg(b->ds));
    return 2;
  }
  return 1;
}

/* d:move_start(x, y) -> d */
static int dstar_move_start(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  int32_t x, y;
  check_xy(L, b->gb->g, 2, &x, &y);
  lds_dstar_move_start(b->ds, x, y); /* in bounds: cannot fail */
  lua_settop(L, 1);
  return 1;
}

/* d:update(x, y) -> d */
static int dstar_update(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  int32_t x, y;
  check_xy(L, b->gb->g, 2, &x, &y);
  lds_dstar_update(b->ds, x, y);
  lua_settop(L, 1);
  return 1;
}

/* d:update_rect(x0, y0, x1, y1) -> d (inclusive corners) */
static int dstar_update_rect(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  int32_t x0, y0, x1, y1;
  check_xy(L, b->gb->g, 2, &x0, &y0);
  check_xy(L, b->gb->g, 4, &x1, &y1);
  if (x1 < x0)
    return arg_error(L, 4, lua_pushfstring(L, "x1 %d < x0 %d (empty rectangle)", (int)x1,
                                           (int)x0));
  if (y1 < y0)
    return arg_error(L, 5, lua_pushfstring(L, "y1 %d < y0 %d (empty rectangle)", (int)y1,
                                           (int)y0));
  lds_dstar_update_rect(b->ds, x0, y0, x1, y1);
  lua_settop(L, 1);
  return 1;
}

/* d:path() -> lodestar.Path | nil, message, status */
static int dstar_path(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  lds_Error err;
  PathBox *pb = new_pathbox(L);
  lds_Path *p = lds_dstar_path(b->ds, &err);
  if (!p) {
    if (err.code == LDS_E_NOMEM) return luaL_error(L, "%s", err.msg);
    return push_fail(L, err.msg, err.code);
  }
  pb->p = p;
  pb->owned = 1;
  lds_getuv(L, 1);
  lua_rawgeti(L, -1, 3); /* d, path, uv, weights: the path remembers them */
  path_remember(L, -3, -1);
  lua_pop(L, 2);
  return 1;
}

/* d:next() -> x, y | nil, message, status */
static int dstar_next(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  int32_t x, y;
  if (lds_dstar_next(b->ds, &x, &y) != LDS_OK)
    return push_fail(L, lua_pushfstring(L, "no path (status %s)",
                                        lds_status_name(lds_dstar_status(b->ds))),
                     LDS_E_STATE);
  lua_pushinteger(L, x);
  lua_pushinteger(L, y);
  return 2;
}

static int dstar_cost(lua_State *L) {
  double c = lds_dstar_cost(check_dstar(L, 1)->ds);
  if (c < 0)
    lua_pushnil(L);
  else
    lua_pushnumber(L, c);
  return 1;
}

static int dstar_status(lua_State *L) {
  lua_pushstring(L, lds_status_name(lds_dstar_status(check_dstar(L, 1)->ds)));
  return 1;
}

static int dstar_errmsg(lua_State *L) {
  lua_pushstring(L, lds_dstar_errmsg(check_dstar(L, 1)->ds));
  return 1;
}

/* d:flags() -> {start_blocked = bool, ...} (every name present) */
static int dstar_flags(lua_State *L) {
  uint32_t f = lds_dstar_flags(check_dstar(L, 1)->ds);
  size_t i, n = sizeof dstar_flag_names / sizeof dstar_flag_names[0];
  lua_createtable(L, 0, (int)n);
  for (i = 0; i < n; i++) {
    lua_pushboolean(L, (f & dstar_flag_names[i].bit) != 0);
    lua_setfield(L, -2, dstar_flag_names[i].name);
  }
  return 1;
}

/* d:stats() -> table of cumulative counters */
static int dstar_stats(lua_State *L) {
  DStarBox *b = check_dstar(L, 1);
  lds_DStarStats st;
  lds_dstar_stats(b->ds, &st);
  lua_createtable(L, 0, 10);
#define DS_FIELD(name)        \
  push_u64(L, st.name);       \
  lua_setfield(L, -2, #name)
  DS_FIELD(expansions);
  DS_FIELD(rhs_updates);
  DS_FIELD(g_updates);
  DS_FIELD(pushes);
  DS_FIELD(queue_size);
  DS_FIELD(peak_queue);
  DS_FIELD(cells_changed);
  DS_FIELD(replans);
  DS_FIELD(elapsed_us);
#undef DS_FIELD
  push_u64(L, lds_dstar_mem_used(b->ds));
  lua_setfield(L, -2, "mem_bytes");
  return 1;
}

/* d:endpoints() -> sx, sy, gx, gy */
static int dstar_endpoints(lua_State *L) {
  int32_t sx, sy, gx, gy;
  lds_dstar_endpoints(check_dstar(L, 1)->ds, &sx, &sy, &gx, &gy);
  lua_pushinteger(L, sx);
  lua_pushinteger(L, sy);
  lua_pushinteger(L, gx);
  lua_pushinteger(L, gy);
  return 4;
}

static int dstar_subscribed(lua_State *L) {
  lua_pushboolean(L, check_dstar(L, 1)->subscribed);
  return 1;
}

static int dstar_grid(lua_State *L) {
  check_dstar(L, 1);
  lds_getuv(L, 1);
  lua_rawgeti(L, -1, 1);
  return 1;
}

static const luaL_Reg dstar_meth[] = {
    {"compute", dstar_compute},
    {"cost", dstar_cost},
    {"endpoints", dstar_endpoints},
    {"errmsg", dstar_errmsg},
    {"flags", dstar_flags},
    {"free", dstar_free},
    {"grid", dstar_grid},
    {"move_start", dstar_move_start},
    {"next", dstar_next},
    {"path", dstar_path},
    {"stats", dstar_stats},
    {"status", dstar_status},
    {"subscribed", dstar_subscribed},
    {"update", dstar_update},
    {"update_rect", dstar_update_rect},
    {NULL, NULL}};

static const luaL_Reg dstar_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", dstar_gc},
#endif
    {"__gc", dstar_gc},
    {"__tostring", dstar_tostring},
    {NULL, NULL}};

static void push_names(lua_State *L, const char *(*name)(int), int max) {
  int i, n = 0;
  lua_newtable(L);
  for (i = 0; i < max; i++) {
    const char *s = name(i);
    if (!s) break;
    lua_pushstring(L, s);
    lua_rawseti(L, -2, ++n);
  }
}

static const char *algo_name_i(int i) { return lds_algo_name((lds_Algo)i); }
static const char *heur_name_i(int i) { return lds_heuristic_name((lds_Heuristic)i); }
static const char *diag_name_i(int i) { return lds_diagonal_name((lds_Diagonal)i); }

/* Pushes this state's names table (arg_error), creating it on first use. */
static int push_names_table(lua_State *L) {
  lua_pushlightuserdata(L, (void *)&names_key);
  lua_rawget(L, LUA_REGISTRYINDEX); /* names */
  if (lua_type(L, -1) != LUA_TTABLE) {
    lua_pop(L, 1);
    lua_newtable(L); /* names */
    lua_newtable(L); /* names, mt */
    lua_pushstring(L, "k");
    lua_setfield(L, -2, "__mode"); /* a re-opened module's old closures may go */
    lua_setmetatable(L, -2);
    lua_pushlightuserdata(L, (void *)&names_key);
    lua_pushvalue(L, -2);
    lua_rawset(L, LUA_REGISTRYINDEX);
  }
  return lua_gettop(L);
}

/* Adds the methods of the metatable tname (its __index table) to names. */
static void add_method_names(lua_State *L, int names, const char *tname, const luaL_Reg *meth) {
  luaL_getmetatable(L, tname);  /* mt */
  lua_getfield(L, -1, "__index"); /* mt, methods */
  add_names(L, names, lua_gettop(L), meth, ":");
  lua_pop(L, 2);
}

int luaopen_lodestar_core(lua_State *L) {
  int i, names;
  create_meta(L, LDS_GRID_MT, grid_meth, grid_metameth);
  create_meta(L, LDS_GRAPH_MT, graph_meth, graph_metameth);
  /* the "grid or graph" marker (check_space) */
  luaL_getmetatable(L, LDS_GRID_MT);
  lua_pushstring(L, "grid");
  lua_setfield(L, -2, LDS_SPACE_FIELD);
  luaL_getmetatable(L, LDS_GRAPH_MT);
  lua_pushstring(L, "graph");
  lua_setfield(L, -2, LDS_SPACE_FIELD);
  lua_pop(L, 2);
  create_meta(L, LDS_SEARCH_MT, search_meth, search_metameth);
  create_meta(L, LDS_DSTAR_MT, dstar_meth, dstar_metameth);
  create_meta(L, LDS_PATH_MT, NULL, path_metameth);
  create_meta(L, LDS_BAKED_MT, NULL, baked_metameth);
  names = push_names_table(L); /* names */
  add_method_names(L, names, LDS_GRID_MT, grid_meth);
  add_method_names(L, names, LDS_GRAPH_MT, graph_meth);
  add_method_names(L, names, LDS_SEARCH_MT, search_meth);
  add_method_names(L, names, LDS_DSTAR_MT, dstar_meth);
  /* Path: __index is a function (fields cost/partial), methods as upvalue */
  luaL_getmetatable(L, LDS_PATH_MT); /* names, mt */
  lua_newtable(L);                   /* names, mt, methods */
  luaL_setfuncs(L, path_meth, 0);
  add_names(L, names, lua_gettop(L), path_meth, ":");
  lua_pushcclosure(L, path_index, 1); /* names, mt, index */
  lua_setfield(L, -2, "__index");
  lua_pop(L, 1); /* names */

  lua_newtable(L); /* names, M */
  luaL_setfuncs(L, module_funcs, 0);
  add_names(L, names, lua_gettop(L), module_funcs, "");
  lua_newtable(L); /* names, M, grid */
  luaL_setfuncs(L, grid_funcs, 0);
  add_names(L, names, lua_gettop(L), grid_funcs, "");
  lua_setfield(L, -2, "grid");
  lua_newtable(L); /* names, M, graph */
  luaL_setfuncs(L, graph_funcs, 0);
  add_names(L, names, lua_gettop(L), graph_funcs, "");
  lua_setfield(L, -2, "graph");
  lua_newtable(L); /* names, M, path */
  luaL_setfuncs(L, path_funcs, 0);
  add_names(L, names, lua_gettop(L), path_funcs, "");
  lua_setfield(L, -2, "path");
  lua_newtable(L); /* names, M, scenario */
  luaL_setfuncs(L, scenario_funcs, 0);
  add_names(L, names, lua_gettop(L), scenario_funcs, "");
  lua_setfield(L, -2, "scenario");
  /* search constructors: one per algorithm the core names, so new kinds
  ** (jps, jps+, ...) appear as soon as lds_algo_name knows them */
  lua_newtable(L); /* names, M, search */
  for (i = 0; i < 64; i++) {
    const char *name = lds_algo_name((lds_Algo)i);
    if (!name) break;
    lua_pushstring(L, name);
    lua_pushcclosure(L, search_new, 1); /* names, M, search, new */
    lua_pushvalue(L, -1);
    lua_pushstring(L, name);
    lua_rawset(L, names);
    lua_setfield(L, -2, name);
  }
  lua_pushcfunction(L, dstar_new); /* D* Lite: its own object, lodestar.DStar */
  lua_pushvalue(L, -1);
  lua_pushstring(L, "dstar_lite");
  lua_rawset(L, names);
  lua_setfield(L, -2, "dstar_lite");
  lua_setfield(L, -2, "search"); /* names, M */
  push_names(L, algo_name_i, 64);
  lua_setfield(L, -2, "algorithms");
  push_names(L, heur_name_i, 64);
  lua_setfield(L, -2, "heuristics");
  push_names(L, diag_name_i, 4);
  lua_setfield(L, -2, "diagonal_rules");
  lua_newtable(L); /* names, M, coords kinds */
  for (i = 0; coords_names[i]; i++) {
    lua_pushstring(L, coords_names[i]);
    lua_rawseti(L, -2, i + 1);
  }
  lua_setfield(L, -2, "coords_kinds");
  lua_pushstring(L, lds_version());
  lua_setfield(L, -2, "_VERSION");
  lua_pushstring(L, "lodestar.core");
  lua_setfield(L, -2, "_NAME");
  lds_pattern_open(L); /* M.pattern: bounded find/match/gmatch/gsub (lds_pattern.c) */
  lds_guard_open(L);   /* registry["lodestar.memory_limit"] (lds_guard.c) */
  lua_remove(L, names); /* M */
  return 1;
}
