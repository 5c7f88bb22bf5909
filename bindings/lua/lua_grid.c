/* SPDX-License-Identifier: MIT */
/*
** lua_grid.c — lodestar.Grid: constructor, cells, costs, terrain, layers, bake.
*/
#include "lua_util.h"

lds_Grid *ldsl_check_grid(lua_State *L, int arg) {
  GridBox *b = ldsl_check_gridbox(L, arg);
  if (!b->g || b->closed) luaL_error(L, "attempt to use a freed %s", LDS_GRID_MT);
  return b->g;
}

/* For calls that reallocate the grid's arrays (layers, bake, free). */
static lds_Grid *check_grid_idle(lua_State *L, int arg, const char *what) {
  lds_Grid *g = ldsl_check_grid(L, arg);
  if (ldsl_check_gridbox(L, arg)->busy)
    luaL_error(L, "%s: cannot %s while a bake rule or an edge callback on it runs", LDS_GRID_MT,
               what);
  return g;
}

/* One cell coordinate at arg on an axis of n cells: a number (else a type
** error), an integer in 0..n-1, else an error with the value as given
** ("x 4294967296 out of range (expected 0..7)", "x nan is not an integer
** cell (expected 0..7)"), never a wrapped one. */
static int32_t check_coord(lua_State *L, int arg, const char *axis, int32_t n) {
  double v;
  char buf[64];
  if (lua_type(L, arg) != LUA_TNUMBER) ldsl_type_error(L, arg, "number");
  v = lua_tonumber(L, arg);
  if (!ldsl_coord_ok(v, n))
    ldsl_arg_error(L, arg, lua_pushfstring(L, v == floor(v) ? "%s %s out of range (expected 0..%d)"
                                                            : "%s %s is not an integer cell "
                                                              "(expected 0..%d)",
                                           axis, ldsl_fmt_coord(buf, sizeof buf, v), (int)n - 1));
  return (int32_t)v;
}

/* Cell coordinates at args ix, ix+1, checked against the grid, their
** errors naming them xn and yn. */
static void check_pair(lua_State *L, const lds_Grid *g, int ix, const char *xn, const char *yn,
                       int32_t *x, int32_t *y) {
  if (lua_type(L, ix + 1) != LUA_TNUMBER && lua_type(L, ix) == LUA_TNUMBER) /* types first */
    ldsl_type_error(L, ix + 1, "number");
  *x = check_coord(L, ix, xn, lds_grid_width(g));
  *y = check_coord(L, ix + 1, yn, lds_grid_height(g));
}

void ldsl_check_xy(lua_State *L, const lds_Grid *g, int ix, int32_t *x, int32_t *y) {
  check_pair(L, g, ix, "x", "y", x, y);
}

void ldsl_check_start_goal(lua_State *L, const lds_Grid *g, int ix, int32_t *c) {
  check_pair(L, g, ix, "sx", "sy", &c[0], &c[1]);
  check_pair(L, g, ix + 2, "gx", "gy", &c[2], &c[3]);
}

static void grid_free_obj(void *g) { lds_grid_free((lds_Grid *)g); }

static void grid_describe(lua_State *L, const SpaceBox *b) {
  lua_pushfstring(L, "%s %dx%d (%p)", LDS_GRID_MT, (int)lds_grid_width(b->g),
                  (int)lds_grid_height(b->g), (const void *)b);
}

const SpaceKind ldsl_grid_kind = {
    LDS_GRID_MT, grid_free_obj,
    "%s: cannot free while a bake rule or an edge callback on it runs", grid_describe};

void lds_lua_push_grid(lua_State *L, lds_Grid *g, int owned) {
  GridBox *b = ldsl_new_gridbox(L); /* may raise before g is referenced */
  b->g = g;
  b->owned = owned ? 1 : 0;
}

lds_Grid *lds_lua_check_grid(lua_State *L, int idx) { return ldsl_check_grid(L, idx); }

/* lodestar.grid.new(w, h) -> grid, or nil, message, "nomem" when its
** memory cannot be allocated; sizes outside 1..LDS_GRID_MAX_SIDE raise */
static int grid_new(lua_State *L) {
  double w = ldsl_check_int(L, 1), h = ldsl_check_int(L, 2);
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  GridBox *b;
  char buf[64];
  if (w < 1 || w > LDS_GRID_MAX_SIDE)
    ldsl_arg_error(L, 1, lua_pushfstring(L, "width %s out of range (expected 1..%d)",
                                         ldsl_fmt_coord(buf, sizeof buf, w), LDS_GRID_MAX_SIDE));
  if (h < 1 || h > LDS_GRID_MAX_SIDE)
    ldsl_arg_error(L, 2, lua_pushfstring(L, "height %s out of range (expected 1..%d)",
                                         ldsl_fmt_coord(buf, sizeof buf, h), LDS_GRID_MAX_SIDE));
  b = ldsl_new_gridbox(L);
  b->g = lds_grid_new(&env, (int32_t)w, (int32_t)h, &err);
  if (!b->g) return ldsl_push_fail(L, err.msg, err.code); /* nomem, as grid.load */
  b->owned = 1;
  return 1;
}

/* g:clone() -> a copy of g, or nil, message, "nomem" */
static int grid_clone(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  lds_Error err;
  GridBox *b = ldsl_new_gridbox(L);
  b->g = lds_grid_clone(g, &err);
  if (!b->g) return ldsl_push_fail(L, err.msg, err.code); /* nomem, as lodestar.grid.new */
  b->owned = 1;
  return 1;
}

static int grid_free(lua_State *L) { return ldsl_space_free(L, &ldsl_grid_kind); }

static int grid_tostring(lua_State *L) { return ldsl_space_tostring(L, &ldsl_grid_kind); }

static int grid_size(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  lua_pushinteger(L, lds_grid_width(g));
  lua_pushinteger(L, lds_grid_height(g));
  return 2;
}

static int grid_width(lua_State *L) {
  lua_pushinteger(L, lds_grid_width(ldsl_check_grid(L, 1)));
  return 1;
}

static int grid_height(lua_State *L) {
  lua_pushinteger(L, lds_grid_height(ldsl_check_grid(L, 1)));
  return 1;
}

static int grid_blocked(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  int32_t x, y;
  ldsl_check_xy(L, g, 2, &x, &y);
  lua_pushboolean(L, lds_grid_blocked(g, x, y));
  return 1;
}

static int grid_set_blocked(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  int32_t x, y;
  ldsl_check_xy(L, g, 2, &x, &y);
  if (lua_type(L, 4) != LUA_TBOOLEAN) ldsl_type_error(L, 4, "boolean");
  lds_grid_set_blocked(g, x, y, lua_toboolean(L, 4));
  return 0;
}

static int grid_cost(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  int32_t x, y;
  ldsl_check_xy(L, g, 2, &x, &y);
  lua_pushnumber(L, lds_grid_cost(g, x, y));
  return 1;
}

static int grid_set_cost(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  int32_t x, y;
  lua_Number c;
  char buf[64];
  ldsl_check_xy(L, g, 2, &x, &y);
  c = ldsl_check_num(L, 4);
  /* costs are stored as 32-bit floats: a value that rounds to 0 or inf is out of range */
  if (!(c > 0) || isinf(c) || (float)c == INFINITY || (float)c == 0.0f)
    return ldsl_arg_error(L, 4, lua_pushfstring(L, "cost %s out of range (expected finite, > 0%s)",
                                                ldsl_fmt_num(buf, sizeof buf, c),
                                                c > 0 && (float)c == 0.0f
                                                    ? "; costs are 32-bit floats, the smallest is 1.4e-45"
                                                    : ""));
  lds_grid_set_cost(g, x, y, (float)c);
  return 0;
}

static int grid_terrain(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  int32_t x, y;
  char c;
  ldsl_check_xy(L, g, 2, &x, &y);
  c = lds_grid_terrain(g, x, y);
  lua_pushlstring(L, &c, 1);
  return 1;
}

static int grid_set_terrain(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  int32_t x, y;
  size_t n;
  const char *t;
  ldsl_check_xy(L, g, 2, &x, &y);
  t = ldsl_check_str(L, 4);
  n = lua_rawlen(L, 4);
  if (n != 1) return ldsl_arg_error(L, 4, "expected a one-character string");
  lds_grid_set_terrain(g, x, y, t[0]);
  return 0;
}

static int grid_neighbourhood(lua_State *L) {
  lua_pushinteger(L, lds_grid_neighbourhood(ldsl_check_grid(L, 1)));
  return 1;
}

static int grid_set_neighbourhood(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  double n = ldsl_check_int(L, 2);
  if (n != 4 && n != 8) return ldsl_arg_error(L, 2, "neighbourhood must be 4 or 8");
  lds_grid_set_neighbourhood(g, (int)n);
  return 0;
}

static const char *const diag_names[] = {"never", "no_corner_cutting", "allow_one_blocked",
                                         "always", NULL};

static int grid_diagonal(lua_State *L) {
  lua_pushstring(L, lds_diagonal_name(lds_grid_diagonal(ldsl_check_grid(L, 1))));
  return 1;
}

static int grid_set_diagonal(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  lds_grid_set_diagonal(g, (lds_Diagonal)ldsl_check_option(L, 2, diag_names));
  return 0;
}

static int grid_version(lua_State *L) {
  ldsl_push_u64(L, lds_grid_version(ldsl_check_grid(L, 1)));
  return 1;
}

static int grid_min_cost(lua_State *L) {
  lua_pushnumber(L, lds_grid_min_cost(ldsl_check_grid(L, 1)));
  return 1;
}

static int grid_passable_count(lua_State *L) {
  ldsl_push_u64(L, lds_grid_passable_count(ldsl_check_grid(L, 1)));
  return 1;
}

static int grid_mem_used(lua_State *L) {
  ldsl_push_u64(L, lds_grid_mem_used(ldsl_check_grid(L, 1)));
  return 1;
}

static int grid_line_of_sight(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  int32_t x0, y0, x1, y1;
  ldsl_check_xy(L, g, 2, &x0, &y0);
  ldsl_check_xy(L, g, 4, &x1, &y1);
  lua_pushboolean(L, lds_grid_line_of_sight(g, x0, y0, x1, y1));
  return 1;
}

/* ----------------------------------------------------- grid: layers -- */

static int check_layer(lua_State *L, lds_Grid *g, int arg) {
  const char *name = ldsl_check_str(L, arg);
  int idx = lds_grid_layer_find(g, name);
  if (idx < 0) ldsl_arg_error(L, arg, lua_pushfstring(L, "no layer '%s'", name));
  return idx;
}

static int grid_layer_add(lua_State *L) {
  lds_Grid *g = check_grid_idle(L, 1, "add a layer");
  const char *name = ldsl_check_str(L, 2);
  ldsl_callback_guard(L, "bake");
  int idx;
  lds_Status st = lds_grid_layer_add(g, name, &idx);
  if (st == LDS_E_NOMEM) return luaL_error(L, "%s", lds_grid_errmsg(g));
  if (st != LDS_OK) return ldsl_arg_error(L, 2, lds_grid_errmsg(g));
  lua_pushinteger(L, idx + 1);
  return 1;
}

static int grid_layer_remove(lua_State *L) {
  lds_Grid *g = check_grid_idle(L, 1, "remove a layer");
  lds_grid_layer_remove(g, check_layer(L, g, 2));
  return 0;
}

static int grid_layer_get(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  int idx = check_layer(L, g, 2);
  int32_t x, y;
  ldsl_check_xy(L, g, 3, &x, &y);
  lua_pushnumber(L, lds_grid_layer_get(g, idx, x, y));
  return 1;
}

static int grid_layer_set(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  int idx = check_layer(L, g, 2);
  int32_t x, y;
  lua_Number v;
  ldsl_check_xy(L, g, 3, &x, &y);
  if (lua_type(L, 5) == LUA_TBOOLEAN && !lua_toboolean(L, 5))
    v = INFINITY; /* false blocks, as in bake */
  else
    v = ldsl_check_num(L, 5);
  if (isnan(v)) return ldsl_arg_error(L, 5, "layer value is nan (expected a number, or false)");
  lds_grid_layer_set(g, idx, x, y, (float)v);
  return 0;
}

static int grid_layer_list(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  int i, n = lds_grid_layer_count(g);
  lua_createtable(L, n, 0);
  for (i = 0; i < n; i++) {
    lua_pushstring(L, lds_grid_layer_name(g, i));
    lua_rawseti(L, -2, i + 1);
  }
  return 1;
}

static int grid_layer_range(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
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
    ldsl_arg_error(L, arg, "rect must be {x0, y0, x1, y1} with integer cells");
  v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return v;
}

/* A baked layer not yet written (grid:bake(layer, fn, rect, true)): its
** rectangle, then (x1-x0+1)*(y1-y0+1) floats, row-major. */
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
    if (st != LDS_OK) return ldsl_arg_error(L, 2, lds_grid_errmsg(g));
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
  const char *name = ldsl_check_str(L, 2);
  Baked *b = (Baked *)luaL_testudata(L, 3, LDS_BAKED_MT);
  if (!b) return ldsl_type_error(L, 3, "baked layer (grid:bake(layer, fn, rect, true))");
  if (b->x1 >= lds_grid_width(g) || b->y1 >= lds_grid_height(g))
    return ldsl_arg_error(L, 3, lua_pushfstring(L, "baked rect {%d, %d, %d, %d} does not fit the grid (%dx%d)",
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
  GridBox *gb = ldsl_check_gridbox(L, 1);
  lds_Grid *g = check_grid_idle(L, 1, "bake");
  const char *name = ldsl_check_str(L, 2);
  int32_t x0 = 0, y0 = 0, x1 = lds_grid_width(g) - 1, y1 = lds_grid_height(g) - 1, x, y, w;
  int scratch_idx, defer = ldsl_arg_boolean(L, 5, 0);
  float *scratch;
  Baked *baked;
  size_t cells;
  if (lua_type(L, 3) != LUA_TFUNCTION) ldsl_type_error(L, 3, "function");
  if (!lua_isnoneornil(L, 4)) {
    double r[4];
    int i;
    ldsl_check_table(L, 4);
    for (i = 0; i < 4; i++) r[i] = rect_field(L, 4, i + 1);
    if (!ldsl_coord_ok(r[0], lds_grid_width(g)) || !ldsl_coord_ok(r[2], lds_grid_width(g)) ||
        !ldsl_coord_ok(r[1], lds_grid_height(g)) || !ldsl_coord_ok(r[3], lds_grid_height(g)) ||
        r[0] > r[2] || r[1] > r[3]) {
      char b[4][64];
      return ldsl_arg_error(L, 4, lua_pushfstring(L, "rect {%s, %s, %s, %s} out of range "
                                             "(expected 0 <= x0 <= x1 < %d, 0 <= y0 <= y1 < %d)",
                                             ldsl_fmt_coord(b[0], 64, r[0]),
                                             ldsl_fmt_coord(b[1], 64, r[1]),
                                             ldsl_fmt_coord(b[2], 64, r[2]),
                                             ldsl_fmt_coord(b[3], 64, r[3]),
                                             (int)lds_grid_width(g), (int)lds_grid_height(g)));
    }
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

const luaL_Reg ldsl_grid_funcs[] = {
    {"from_ascii", ldsl_grid_from_ascii}, {"from_rows", ldsl_grid_from_rows}, {"load", ldsl_grid_load},
    {"new", grid_new}, {"parse", ldsl_grid_parse}, {NULL, NULL}};

const luaL_Reg ldsl_grid_meth[] = {
    {"bake", grid_bake},
    {"bake_commit", grid_bake_commit},
    {"blocked", grid_blocked},
    {"clone", grid_clone},
    {"component", ldsl_grid_component},
    {"connected", ldsl_grid_connected},
    {"cost", grid_cost},
    {"cost_view", ldsl_grid_cost_view},
    {"cost_views", ldsl_grid_cost_views},
    {"diagonal", grid_diagonal},
    {"free", grid_free},
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
    {"polyline_cost", ldsl_grid_polyline_cost},
    {"set_blocked", grid_set_blocked},
    {"set_cost", grid_set_cost},
    {"set_diagonal", grid_set_diagonal},
    {"set_neighbourhood", grid_set_neighbourhood},
    {"set_terrain", grid_set_terrain},
    {"size", grid_size},
    {"terrain", grid_terrain},
    {"version", grid_version},
    {"width", grid_width},
    /* deprecated aliases, kept for one release (docs/lua-api.md, "Deprecated names") */
    {"get_blocked", grid_blocked},
    {"get_cost", grid_cost},
    {NULL, NULL}};

const luaL_Reg ldsl_baked_metameth[] = {{NULL, NULL}};

const luaL_Reg ldsl_grid_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", ldsl_space_gc},
#endif
    {"__gc", ldsl_space_gc},
    {"__tostring", grid_tostring},
    {NULL, NULL}};
