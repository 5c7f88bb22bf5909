/* SPDX-License-Identifier: MIT */
/*
** lua_grid_mesh.c — grid:to_navmesh([opts]) and grid:outline(): the exact
** navigation mesh of a grid's free space (lds_grid_to_navmesh) as a
** lodestar.Navmesh, and its outline (lds_grid_outline) as tables.
*/
#include "lua_util.h"

static const char *const mesh_opts[] = {"max_verts", "strict", "area", NULL};

/* Integer field key of the options at 2 (the value at the top) in lo..hi;
** raises "opts.KEY: expected an integer in lo..hi, got V" with V as given. */
static double opt_int_in(lua_State *L, const char *key, double lo, double hi) {
  lua_Number v = lua_tonumber(L, -1);
  char buf[64];
  if (lua_type(L, -1) != LUA_TNUMBER)
    ldsl_opt_error(L, 2, key, lua_pushfstring(L, "expected an integer in %d..%d, got %s", (int)lo,
                                              (int)hi, ldsl_value_name(L, -1)));
  if (v != floor(v) || v < lo || v > hi)
    ldsl_opt_error(L, 2, key, lua_pushfstring(L, "expected an integer in %d..%d, got %s", (int)lo,
                                              (int)hi, ldsl_fmt_coord(buf, sizeof buf, v)));
  return v;
}

/* grid:to_navmesh([{max_verts =, strict =, area =}]) -> mesh, info | nil,
** msg, status. Upvalue 1: lodestar.navmesh.new, which builds the mesh box
** from {verts, polys, areas} (world x = map x, z = map y, y = 0; 1-based
** ids). info = {polys, verts, rects, merges, max_poly_verts, build_us}. */
int ldsl_grid_to_navmesh(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  lds_GridMeshParams p;
  lds_GridMeshInfo info;
  lds_Error err;
  lds_Navmesh *m;
  lds_Env env = ldsl_lua_env(L);
  uint32_t nv, np, i, k;
  const double *xyz;
  lua_settop(L, 2);
  lds_grid_mesh_params_init(&p);
  if (!lua_isnil(L, 2)) {
    ldsl_check_table(L, 2);
    ldsl_check_keys(L, 2, "option", "opts keys must be strings", mesh_opts, NULL);
    lua_getfield(L, 2, "max_verts");
    if (!lua_isnil(L, -1)) {
      p.max_verts = (int)opt_int_in(L, "max_verts", 4, LDS_NAVMESH_MAX_POLY_VERTS);
    }
    lua_pop(L, 1);
    p.strict = ldsl_opt_boolean(L, 2, "strict", p.strict) != 0;
    lua_getfield(L, 2, "area");
    if (!lua_isnil(L, -1)) {
      p.area = (uint8_t)opt_int_in(L, "area", 0, 255);
    }
    lua_pop(L, 1);
  }
  m = lds_grid_to_navmesh(&env, g, &p, &info, &err);
  if (!m) return ldsl_push_fail(L, err.msg, err.code);
  /* the tables navmesh.new takes; the core mesh is freed before they are
  ** read back (a raise in between would leak it: none can happen but out of
  ** memory, which the GC'd scratch below avoids) */
  nv = lds_navmesh_vertex_count(m);
  np = lds_navmesh_poly_count(m);
  xyz = lds_navmesh_vertices(m);
  lua_pushvalue(L, lua_upvalueindex(1));
  lua_createtable(L, 0, 3);
  lua_createtable(L, (int)nv, 0);
  for (i = 0; i < nv; i++) {
    lua_createtable(L, 3, 0);
    for (k = 0; k < 3; k++) {
      lua_pushnumber(L, xyz[3 * i + k]);
      lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_setfield(L, -2, "verts");
  lua_createtable(L, (int)np, 0);
  for (i = 0; i < np; i++) {
    const uint32_t *vs;
    uint32_t n = lds_navmesh_poly(m, i, &vs, NULL);
    lua_createtable(L, (int)n, 0);
    for (k = 0; k < n; k++) {
      lua_pushinteger(L, (lua_Integer)vs[k] + 1);
      lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_setfield(L, -2, "polys");
  lua_createtable(L, (int)np, 0);
  for (i = 0; i < np; i++) {
    lua_pushinteger(L, lds_navmesh_poly_area(m, i));
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_setfield(L, -2, "areas");
  lds_navmesh_free(m);
  lua_call(L, 1, 3); /* mesh | nil, msg, status */
  if (lua_isnil(L, -3)) return 3;
  lua_pop(L, 2);
  lua_createtable(L, 0, 6);
  lua_pushinteger(L, info.polys);
  lua_setfield(L, -2, "polys");
  lua_pushinteger(L, info.verts);
  lua_setfield(L, -2, "verts");
  lua_pushinteger(L, info.rects);
  lua_setfield(L, -2, "rects");
  lua_pushinteger(L, info.merges);
  lua_setfield(L, -2, "merges");
  lua_pushinteger(L, info.max_poly_verts);
  lua_setfield(L, -2, "max_poly_verts");
  lua_pushinteger(L, (lua_Integer)info.build_us);
  lua_setfield(L, -2, "build_us");
  return 2;
}

/* grid:outline() -> {pieces = n, {hole = bool, piece = i, x0, y0, x1, y1,
** ...}, ...}: the rings of the free space (lds_grid_outline) in map
** coordinates (cell (x, y) = [x, x+1] x [y, y+1]), pieces 1-based. */
int ldsl_grid_outline(lua_State *L) {
  lds_Grid *g = ldsl_check_grid(L, 1);
  lds_Env env = ldsl_lua_env(L);
  lds_GridOutline o;
  lds_Error err;
  uint32_t r, k;
  if (lds_grid_outline(&env, g, &o, &err) != LDS_OK) return ldsl_push_fail(L, err.msg, err.code);
  lua_createtable(L, (int)o.n_rings, 1);
  lua_pushinteger(L, o.n_pieces);
  lua_setfield(L, -2, "pieces");
  for (r = 0; r < o.n_rings; r++) {
    uint32_t s0 = o.ring_start[r], n = o.ring_start[r + 1] - s0;
    lua_createtable(L, (int)(2 * n), 2);
    lua_pushboolean(L, o.ring_hole[r]);
    lua_setfield(L, -2, "hole");
    lua_pushinteger(L, (lua_Integer)o.ring_piece[r] + 1);
    lua_setfield(L, -2, "piece");
    for (k = 0; k < 2 * n; k++) {
      lua_pushinteger(L, o.xy[2 * s0 + k]);
      lua_rawseti(L, -2, (lua_Integer)k + 1);
    }
    lua_rawseti(L, -2, (lua_Integer)r + 1);
  }
  lds_grid_outline_free(&o);
  return 1;
}
