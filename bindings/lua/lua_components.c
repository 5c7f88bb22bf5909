/* SPDX-License-Identifier: MIT */
/*
** lua_components.c — grid:component(x, y [, layers]) and grid:connected(a,
** b [, layers]) over the grid's connectivity index (core/lds_components.h),
** built on first use and kept by the grid from then on.
*/
#include "lua_util.h"

#include "lds_components.h"

/* The blocking set named by the optional list of layer names at arg (nil or
** none: 0). Raises on a bad list. */
static uint32_t layer_mask_arg(lua_State *L, const lds_Grid *g, int arg) {
  uint32_t mask = 0;
  lua_Integer i, n;
  if (lua_isnoneornil(L, arg)) return 0;
  if (lua_type(L, arg) != LUA_TTABLE) ldsl_type_error(L, arg, "table of layer names or nil");
  n = (lua_Integer)lua_rawlen(L, arg);
  /* a list only: a map such as {lava = true} would otherwise read as no
  ** layer at all and silently ignore the walls it meant */
  lua_pushnil(L);
  while (lua_next(L, arg)) {
    lua_pop(L, 1);
    lua_Number k = lua_type(L, -1) == LUA_TNUMBER ? lua_tonumber(L, -1) : 0;
    if (!(k >= 1 && k <= (lua_Number)n && k == (lua_Number)(lua_Integer)k)) {
      if (lua_type(L, -1) == LUA_TSTRING)
        lua_pushfstring(L, "layers: expected a list of layer names such as {\"%s\"}, got a table "
                           "with key '%s'", lua_tostring(L, -1), lua_tostring(L, -1));
      else
        lua_pushfstring(L, "layers: expected a list of layer names such as {\"lava\"}, got a "
                           "table with a %s key", luaL_typename(L, -1));
      ldsl_arg_error(L, arg, lua_tostring(L, -1));
    }
  }
  for (i = 1; i <= n; i++) {
    const char *name;
    int idx;
    lua_rawgeti(L, arg, i);
    if (lua_type(L, -1) != LUA_TSTRING)
      ldsl_arg_error(L, arg, lua_pushfstring(L, "layers[%d] is not a layer name (a string)", (int)i));
    name = lua_tostring(L, -1);
    idx = lds_grid_layer_find(g, name);
    if (idx < 0) ldsl_arg_error(L, arg, lua_pushfstring(L, "no layer '%s'", name));
    if (idx >= 16)
      ldsl_arg_error(L, arg, lua_pushfstring(L, "layer '%s' is layer %d (expected one of the first 16)",
                                             name, idx + 1));
    mask |= 1u << idx;
    lua_pop(L, 1);
  }
  return mask;
}

/* The grid's index for mask, built on first use. Raises on failure. */
static const lds_Components *index_of(lua_State *L, lds_Grid *g, uint32_t mask) {
  lds_Components *c = lds_components_find(g, mask);
  lds_Error err;
  if (!c) {
    c = lds_components_new(NULL, g, mask, &err);
    if (!c) luaL_error(L, "%s", err.msg);
  }
  if (lds_components_status(c) != LDS_OK)
    luaL_error(L, "%s: connectivity index unknown after an allocation failure (the next edit "
               "rebuilds it)", LDS_GRID_MT);
  return c;
}

/* grid:component(x, y [, layers]) -> id or nil */
int ldsl_grid_component(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  int32_t x, y;
  uint32_t id;
  const lds_Components *c;
  if (ldsl_check_gridbox(L, 1)->busy)
    return luaL_error(L, "%s: cannot build components while a bake rule or an edge callback on "
                      "it runs", LDS_GRID_MT);
  ldsl_check_xy(L, g, 2, &x, &y);
  c = index_of(L, g, layer_mask_arg(L, g, 4));
  id = lds_components_id(c, x, y);
  if (id == LDS_COMPONENT_NONE)
    lua_pushnil(L);
  else
    lua_pushinteger(L, (lua_Integer)id);
  return 1;
}

/* Point {x, y} or {x=, y=} at arg, checked against the grid. */
static void point_arg(lua_State *L, const lds_Grid *g, int arg, int32_t *x, int32_t *y) {
  int top = lua_gettop(L);
  if (lua_type(L, arg) != LUA_TTABLE) ldsl_type_error(L, arg, "table {x, y}");
  lua_getfield(L, arg, "x");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_rawgeti(L, arg, 1);
  }
  lua_getfield(L, arg, "y");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    lua_rawgeti(L, arg, 2);
  }
  if (lua_type(L, -1) != LUA_TNUMBER || lua_type(L, -2) != LUA_TNUMBER)
    ldsl_arg_error(L, arg, "point has no numbers x, y");
  {
    double vx = lua_tonumber(L, -2), vy = lua_tonumber(L, -1);
    char bx[64], by[64];
    if (!ldsl_coord_ok(vx, lds_grid_width(g)) || !ldsl_coord_ok(vy, lds_grid_height(g)))
      ldsl_arg_error(L, arg, lua_pushfstring(L, "point (%s, %s) is not a cell of the %dx%d grid",
                                             ldsl_fmt_coord(bx, sizeof bx, vx),
                                             ldsl_fmt_coord(by, sizeof by, vy),
                                             (int)lds_grid_width(g), (int)lds_grid_height(g)));
    *x = (int32_t)vx;
    *y = (int32_t)vy;
  }
  lua_settop(L, top);
}

/* grid:connected(a, b [, layers]) or grid:connected(x1, y1, x2, y2 [, layers]) -> boolean */
int ldsl_grid_connected(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  int32_t x1, y1, x2, y2;
  int larg;
  if (ldsl_check_gridbox(L, 1)->busy)
    return luaL_error(L, "%s: cannot build components while a bake rule or an edge callback on "
                      "it runs", LDS_GRID_MT);
  if (lua_type(L, 2) == LUA_TTABLE) {
    point_arg(L, g, 2, &x1, &y1);
    point_arg(L, g, 3, &x2, &y2);
    larg = 4;
  } else {
    ldsl_check_xy(L, g, 2, &x1, &y1);
    ldsl_check_xy(L, g, 4, &x2, &y2);
    larg = 6;
  }
  lua_pushboolean(L, lds_components_connected(index_of(L, g, layer_mask_arg(L, g, larg)), x1, y1,
                                              x2, y2));
  return 1;
}
