/* SPDX-License-Identifier: MIT */
/*
** lua_navmesh.c — lodestar.Navmesh: navigation meshes from files, text or
** tables; point location; find_path (corridor + funnel, or Polyanya) and
** the same query sliced (mesh:start, mesh:step, mesh:path).
**
** Points are tables {x, y, z} or {x =, y =, z =} in world units (y up);
** polygon and vertex ids are 1-based in Lua, 0-based in the core, as for
** graph nodes (lua_graph.c).
*/
#include "lua_util.h"

#include "lds_io.h"


typedef struct MeshBox {
  lds_Navmesh *m;
  lds_NavSearch *s; /* created on first find_path, freed with the mesh */
  lds_NavSearch *q; /* the sliced query of mesh:start / mesh:step, created
                       on the first start (find_path never touches it: a
                       blocking call leaves a running sliced query as it
                       is); s and q share the per-mesh landmark tables
                       (share_tables), built by whichever queries first */
  lds_NavAlgo q_algo;
  int users;        /* schedulers whose searches run on m (ldsl_navmesh_use) */
  int closed;       /* freed or collected: m lives on until the last user lets go */
} MeshBox;

/* The mesh box at arg; a type error worded as the other types' (the
** value's own type name, the same on Lua 5.4 and LuaJIT) otherwise. */
static MeshBox *check_box(lua_State *L, int arg) {
  MeshBox *b = (MeshBox *)luaL_testudata(L, arg, LDS_NAVMESH_MT);
  if (!b) ldsl_type_error(L, arg, LDS_NAVMESH_MT);
  return b;
}

static lds_Navmesh *check_mesh(lua_State *L, int arg) {
  MeshBox *b = check_box(L, arg);
  if (!b->m || b->closed) luaL_error(L, "attempt to use a freed %s", LDS_NAVMESH_MT);
  return b->m;
}

static MeshBox *new_box(lua_State *L) {
  MeshBox *b = (MeshBox *)lua_newuserdata(L, sizeof *b);
  b->m = NULL;
  b->s = NULL;
  b->q = NULL;
  b->q_algo = LDS_NAV_FUNNEL;
  b->users = 0;
  b->closed = 0;
  luaL_getmetatable(L, LDS_NAVMESH_MT);
  lua_setmetatable(L, -2);
  return b;
}

/* A point: {x, y, z} or {x =, y =, z =}, finite numbers, read from stack
** slot idx. Errors are raised against argument arg and name the point as
** label[elem] ("points[3]") when elem > 0, else as label ("point"). */
static void read_point(lua_State *L, int idx, int arg, const char *label, size_t elem,
                       double p[3]) {
  static const char *const keys[] = {"x", "y", "z"};
  int i;
  const char *name;
  if (idx < 0) idx = lua_gettop(L) + idx + 1;
  /* the type first: a missing argument is "no value" only while nothing
  ** has been pushed above it */
  if (lua_type(L, idx) != LUA_TTABLE) {
    if (!elem) ldsl_type_error(L, idx, "point {x, y, z}");
    ldsl_arg_error(L, arg, lua_pushfstring(L, "%s[%d]: point {x, y, z} expected, got %s", label,
                                           (int)elem, ldsl_value_name(L, idx)));
  }
  if (elem)
    name = lua_pushfstring(L, "%s[%d]", label, (int)elem);
  else
    name = lua_pushfstring(L, "%s", label);
  for (i = 0; i < 3; i++) {
    lua_rawgeti(L, idx, i + 1);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_getfield(L, idx, keys[i]);
    }
    if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1))) {
      char buf[64];
      ldsl_arg_error(L, arg, lua_pushfstring(L, "%s: %s must be a finite number (got %s)", name,
                                             keys[i],
                                             lua_type(L, -1) == LUA_TNUMBER
                                                 ? ldsl_fmt_num(buf, sizeof buf, lua_tonumber(L, -1))
                                                 : ldsl_value_name(L, -1)));
    }
    p[i] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1); /* name */
}

/* A point given as argument arg. */
static void check_point(lua_State *L, int arg, double p[3]) {
  read_point(L, arg, arg, "point", 0, p);
}

/* An optional height tolerance at arg (world units; < 0: any height; def
** when absent): a number, never NaN (a NaN would compare false everywhere
** and read as "any height" in one place and "none" in another). */
static double opt_height_tol(lua_State *L, int arg, double def) {
  double t;
  if (lua_isnoneornil(L, arg)) return def;
  if (lua_type(L, arg) != LUA_TNUMBER) ldsl_type_error(L, arg, "number (height_tol; < 0: any height)");
  t = lua_tonumber(L, arg);
  if (isnan(t)) ldsl_arg_error(L, arg, "height_tol nan out of range (expected a number; < 0: any height)");
  return t;
}

static void push_point(lua_State *L, const double *p) {
  lua_createtable(L, 0, 3);
  lua_pushnumber(L, p[0]);
  lua_setfield(L, -2, "x");
  lua_pushnumber(L, p[1]);
  lua_setfield(L, -2, "y");
  lua_pushnumber(L, p[2]);
  lua_setfield(L, -2, "z");
}

/* ------------------------------------------------------- constructors -- */

/* lodestar.navmesh.load(path) -> mesh | nil, msg, status */
static int nm_load(lua_State *L) {
  const char *path = ldsl_check_str(L, 1);
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  MeshBox *b = new_box(L);
  b->m = lds_navmesh_load(&env, path, &err);
  if (!b->m) return ldsl_push_fail(L, err.msg, err.code);
  return 1;
}

/* lodestar.navmesh.parse(text [, name]) -> mesh | nil, msg, status */
static int nm_parse(lua_State *L) {
  size_t len;
  const char *text, *name = "(navmesh)";
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  MeshBox *b;
  ldsl_check_str(L, 1); /* a string, not a number: as grid.parse */
  text = lua_tolstring(L, 1, &len);
  if (!lua_isnoneornil(L, 2)) name = ldsl_check_str(L, 2);
  b = new_box(L);
  b->m = lds_navmesh_parse(&env, text, len, name, &err);
  if (!b->m) return ldsl_push_fail(L, err.msg, err.code);
  return 1;
}

/* Raises against argument 1 unless every key of the table at idx is an
** integer in 1..n (n its length): a list, not a map ({a = ...}) nor one
** with entries past its end. what names it ("polys", "polys[2]"). */
static void check_list_keys(lua_State *L, int idx, const char *what, size_t n) {
  lua_pushnil(L);
  while (lua_next(L, idx)) { /* key, value */
    lua_Number k = lua_type(L, -2) == LUA_TNUMBER ? lua_tonumber(L, -2) : 0;
    if (!(k == floor(k) && k >= 1 && k <= (lua_Number)n)) {
      char buf[64];
      const char *key = lua_type(L, -2) == LUA_TNUMBER
                            ? ldsl_fmt_coord(buf, sizeof buf, k)
                            : lua_type(L, -2) == LUA_TSTRING
                                  ? lua_pushfstring(L, "'%s'", lua_tostring(L, -2))
                                  : ldsl_value_name(L, -2);
      ldsl_arg_error(L, 1, n ? lua_pushfstring(L, "%s: key %s is not a list index (expected a "
                                                  "list, keys 1..%d)", what, key, (int)n)
                             : lua_pushfstring(L, "%s: key %s is not a list index (expected a "
                                                  "list from key 1)", what, key));
    }
    lua_pop(L, 1);
  }
}

/* What the value on top of the stack is, for "(got ...)": a number as
** written, else its type name. */
static const char *got(lua_State *L, char *buf, size_t size) {
  return lua_type(L, -1) == LUA_TNUMBER ? ldsl_fmt_coord(buf, size, lua_tonumber(L, -1))
                                        : ldsl_value_name(L, -1);
}

/* lodestar.navmesh.new{verts = {{x, y, z}, ...}, polys = {{1, 2, 3}, ...},
** areas = {...}} -> mesh | nil, msg, status (neighbours computed). Malformed
** tables raise against argument 1; the mesh's own checks (convexity, ...)
** and an empty polys list return nil, msg, "arg" from lds_navmesh_new. */
static int nm_new(lua_State *L) {
  static const char *const keys[] = {"verts", "polys", "areas", NULL};
  lds_Env env = ldsl_lua_env(L);
  lds_NavmeshDesc d;
  lds_Error err;
  double *v;
  uint32_t *pv, *ps;
  uint8_t *ar = NULL;
  size_t nv, np, ni = 0, i, j;
  MeshBox *b;
  char buf[64];
  ldsl_check_table(L, 1);
  ldsl_check_keys(L, 1, "navmesh.new field", "navmesh.new: field names must be strings", keys, NULL);
  lua_getfield(L, 1, "verts");
  lua_getfield(L, 1, "polys");
  lua_getfield(L, 1, "areas");
  if (lua_type(L, 2) != LUA_TTABLE)
    ldsl_arg_error(L, 1, lua_pushfstring(L, "verts: list of points expected, got %s",
                                         ldsl_value_name(L, 2)));
  if (lua_type(L, 3) != LUA_TTABLE)
    ldsl_arg_error(L, 1, lua_pushfstring(L, "polys: list of vertex id lists expected, got %s",
                                         ldsl_value_name(L, 3)));
  if (!lua_isnil(L, 4) && lua_type(L, 4) != LUA_TTABLE)
    ldsl_arg_error(L, 1, lua_pushfstring(L, "areas: list of area ids expected, got %s",
                                         ldsl_value_name(L, 4)));
  nv = lua_rawlen(L, 2);
  np = lua_rawlen(L, 3);
  if (nv > LDS_NAVMESH_MAX_IDS || np > LDS_NAVMESH_MAX_IDS)
    ldsl_arg_error(L, 1, lua_pushfstring(L, "%d vertices, %d polygons (expected at most %d each)",
                                         (int)nv, (int)np, (int)LDS_NAVMESH_MAX_IDS));
  check_list_keys(L, 2, "verts", nv);
  check_list_keys(L, 3, "polys", np);
  if (lua_type(L, 4) == LUA_TTABLE) {
    size_t na = lua_rawlen(L, 4);
    if (na > np)
      ldsl_arg_error(L, 1, lua_pushfstring(L, "areas: %d entries for %d polygons (expected at "
                                              "most one per polygon)", (int)na, (int)np));
    check_list_keys(L, 4, "areas", np);
  }
  for (i = 1; i <= np; i++) {
    lua_rawgeti(L, 3, (lua_Integer)i);
    if (lua_type(L, -1) != LUA_TTABLE)
      ldsl_arg_error(L, 1, lua_pushfstring(L, "polys[%d]: list of vertex ids expected, got %s",
                                           (int)i, ldsl_value_name(L, -1)));
    {
      size_t n = lua_rawlen(L, -1);
      int t = lua_gettop(L);
      ni += n;
      check_list_keys(L, t, lua_pushfstring(L, "polys[%d]", (int)i), n);
      lua_pop(L, 2);
    }
  }
  v = (double *)lua_newuserdata(L, (3 * nv + 1) * sizeof(double));
  pv = (uint32_t *)lua_newuserdata(L, (ni + 1) * sizeof(uint32_t));
  ps = (uint32_t *)lua_newuserdata(L, (np + 1) * sizeof(uint32_t));
  if (lua_type(L, 4) == LUA_TTABLE) ar = (uint8_t *)lua_newuserdata(L, np + 1);
  for (i = 0; i < nv; i++) {
    lua_rawgeti(L, 2, (lua_Integer)i + 1);
    read_point(L, -1, 1, "verts", i + 1, v + 3 * i);
    lua_pop(L, 1);
  }
  ni = 0;
  for (i = 0; i < np; i++) {
    size_t n;
    lua_rawgeti(L, 3, (lua_Integer)i + 1);
    n = lua_rawlen(L, -1);
    ps[i] = (uint32_t)ni;
    for (j = 1; j <= n; j++) {
      lua_Number x;
      lua_rawgeti(L, -1, (lua_Integer)j);
      x = lua_tonumber(L, -1);
      if (nv == 0)
        ldsl_arg_error(L, 1, lua_pushfstring(L, "polys[%d][%d]: the mesh has no vertices "
                                                "(verts is empty; got %s)", (int)i + 1, (int)j,
                                             got(L, buf, sizeof buf)));
      if (lua_type(L, -1) != LUA_TNUMBER || x != floor(x) || x < 1 || x > (lua_Number)nv)
        ldsl_arg_error(L, 1, lua_pushfstring(L, "polys[%d][%d] must be a vertex id in 1..%d "
                                                "(got %s)", (int)i + 1, (int)j, (int)nv,
                                             got(L, buf, sizeof buf)));
      pv[ni++] = (uint32_t)x - 1;
      lua_pop(L, 1);
    }
    lua_pop(L, 1);
    if (ar) {
      lua_Number a;
      lua_rawgeti(L, 4, (lua_Integer)i + 1);
      a = lua_isnil(L, -1) ? 0 : lua_tonumber(L, -1);
      if (!lua_isnil(L, -1) && (lua_type(L, -1) != LUA_TNUMBER || a != floor(a) || a < 0 || a > 255))
        ldsl_arg_error(L, 1, lua_pushfstring(L, "areas[%d] must be an integer in 0..255 (got %s)",
                                             (int)i + 1, got(L, buf, sizeof buf)));
      ar[i] = (uint8_t)a;
      lua_pop(L, 1);
    }
  }
  ps[np] = (uint32_t)ni;
  memset(&d, 0, sizeof d);
  d.verts = v;
  d.n_verts = (uint32_t)nv;
  d.poly_verts = pv;
  d.poly_start = ps;
  d.n_polys = (uint32_t)np;
  d.areas = ar;
  b = new_box(L);
  b->m = lds_navmesh_new(&env, &d, &err);
  if (!b->m) return ldsl_push_fail(L, err.msg, err.code);
  return 1;
}

/* ------------------------------------------------------------ methods -- */

/* mesh:free() and __gc: the mesh's own search goes now; the core mesh
** when no scheduler uses it any more (ldsl_navmesh_unuse). */
static void mesh_release(MeshBox *b) {
  lds_navsearch_free(b->s);
  lds_navsearch_free(b->q);
  b->s = NULL;
  b->q = NULL;
  b->closed = 1;
  if (b->users > 0) return;
  lds_navmesh_free(b->m);
  b->m = NULL;
}

static int nm_free(lua_State *L) {
  mesh_release(check_box(L, 1));
  return 0;
}

lds_Navmesh *ldsl_navmesh_use(lua_State *L, int arg, void **box) {
  MeshBox *b = check_box(L, arg);
  check_mesh(L, arg);
  b->users++;
  *box = b;
  return b->m;
}

void ldsl_navmesh_unuse(void *box) {
  MeshBox *b = (MeshBox *)box;
  if (--b->users == 0 && b->closed) mesh_release(b);
}

lds_Navmesh *ldsl_navmesh_check(lua_State *L, int arg) { return check_mesh(L, arg); }

static int nm_tostring(lua_State *L) {
  MeshBox *b = check_box(L, 1);
  if (!b->m || b->closed) lua_pushfstring(L, "%s (freed)", LDS_NAVMESH_MT);
  else
    lua_pushfstring(L, "%s (%d vertices, %d polygons)", LDS_NAVMESH_MT,
                    (int)lds_navmesh_vertex_count(b->m), (int)lds_navmesh_poly_count(b->m));
  return 1;
}

static int nm_poly_count(lua_State *L) {
  lua_pushinteger(L, lds_navmesh_poly_count(check_mesh(L, 1)));
  return 1;
}

static int nm_vertex_count(lua_State *L) {
  lua_pushinteger(L, lds_navmesh_vertex_count(check_mesh(L, 1)));
  return 1;
}

static int nm_piece_count(lua_State *L) {
  lua_pushinteger(L, lds_navmesh_piece_count(check_mesh(L, 1)));
  return 1;
}

/* A 1-based vertex or polygon id at arg, 1..n: a value that is not an
** integer (2.5, NaN) or out of range is reported as written. */
static uint32_t check_id(lua_State *L, int arg, uint32_t n, const char *what) {
  double v = (double)ldsl_check_num(L, arg);
  char buf[64];
  if (!(v == floor(v)))
    ldsl_arg_error(L, arg, lua_pushfstring(L, "%s %s is not an integer (expected 1..%d)", what,
                                           ldsl_fmt_coord(buf, sizeof buf, v), (int)n));
  if (v < 1 || v > (double)n)
    ldsl_arg_error(L, arg, lua_pushfstring(L, "%s %s out of range (expected 1..%d)", what,
                                           ldsl_fmt_coord(buf, sizeof buf, v), (int)n));
  return (uint32_t)v - 1;
}

/* mesh:vertex(i) -> x, y, z */
static int nm_vertex(lua_State *L) {
  lds_Navmesh *m = check_mesh(L, 1);
  double p[3];
  lds_navmesh_vertex(m, check_id(L, 2, lds_navmesh_vertex_count(m), "vertex"), p);
  lua_pushnumber(L, p[0]);
  lua_pushnumber(L, p[1]);
  lua_pushnumber(L, p[2]);
  return 3;
}

/* mesh:poly(i) -> {vertex ids}, {neighbour ids (false on the boundary)}, area, piece */
static int nm_poly(lua_State *L) {
  lds_Navmesh *m = check_mesh(L, 1);
  uint32_t p = check_id(L, 2, lds_navmesh_poly_count(m), "polygon"), n, k;
  const uint32_t *vv, *nb;
  n = lds_navmesh_poly(m, p, &vv, &nb);
  lua_createtable(L, (int)n, 0);
  for (k = 0; k < n; k++) {
    lua_pushinteger(L, (lua_Integer)vv[k] + 1);
    lua_rawseti(L, -2, (lua_Integer)k + 1);
  }
  lua_createtable(L, (int)n, 0);
  for (k = 0; k < n; k++) {
    if (nb[k] == LDS_NAVMESH_NONE) lua_pushboolean(L, 0);
    else lua_pushinteger(L, (lua_Integer)nb[k] + 1);
    lua_rawseti(L, -2, (lua_Integer)k + 1);
  }
  lua_pushinteger(L, lds_navmesh_poly_area(m, p));
  lua_pushinteger(L, (lua_Integer)lds_navmesh_piece(m, p) + 1);
  return 4;
}

/* mesh:bounds() -> {x, y, z} min, {x, y, z} max */
static int nm_bounds(lua_State *L) {
  double a[3], b[3];
  lds_navmesh_bounds(check_mesh(L, 1), a, b);
  push_point(L, a);
  push_point(L, b);
  return 2;
}

/* mesh:locate(p [, height_tol]) -> polygon id | nil */
static int nm_locate(lua_State *L) {
  lds_Navmesh *m = check_mesh(L, 1);
  double p[3], tol;
  uint32_t poly;
  check_point(L, 2, p);
  tol = opt_height_tol(L, 3, -1);
  poly = lds_navmesh_locate(m, p[0], p[1], p[2], tol);
  if (poly == LDS_NAVMESH_NONE) lua_pushnil(L);
  else lua_pushinteger(L, (lua_Integer)poly + 1);
  return 1;
}

/* mesh:nearest(p, radius [, height_tol]) -> polygon id, point | nil */
static int nm_nearest(lua_State *L) {
  lds_Navmesh *m = check_mesh(L, 1);
  double p[3], q[3], r, tol;
  uint32_t poly;
  check_point(L, 2, p);
  r = ldsl_check_num(L, 3);
  if (!(r >= 0) || isinf(r)) return ldsl_arg_error(L, 3, "radius must be finite and >= 0");
  tol = opt_height_tol(L, 4, 4.0);
  poly = lds_navmesh_nearest(m, p, r, tol, q);
  if (poly == LDS_NAVMESH_NONE) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, (lua_Integer)poly + 1);
  push_point(L, q);
  return 2;
}

/* Reads find_path's options at arg into p and the area costs into costs. */
static void parse_opts(lua_State *L, int arg, lds_NavParams *p, double *costs, int *post) {
  static const char *const keys[] = {"algorithm", "area_costs", "blocked_areas", "snap_radius",
                                     "height_tol", "partial", "thorough", "postprocess", NULL};
  int i;
  lds_nav_params_init(p);
  *post = 0;
  for (i = 0; i < 256; i++) costs[i] = 1.0;
  if (lua_isnoneornil(L, arg)) return;
  ldsl_check_table(L, arg);
  ldsl_check_keys(L, arg, "option", "option names must be strings", keys, NULL);
  ldsl_navmesh_read_opts(L, arg, p, costs);
  lua_getfield(L, arg, "postprocess");
  if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TFUNCTION)
    ldsl_opt_type_error(L, arg, "postprocess", "function (path, mesh) -> value");
  *post = !lua_isnil(L, -1);
  lua_pop(L, 1);
}

void ldsl_navmesh_read_opts(lua_State *L, int arg, lds_NavParams *p, double *costs) {
  int i;
  lds_nav_params_init(p);
  for (i = 0; i < 256; i++) costs[i] = 1.0;
  lua_getfield(L, arg, "algorithm");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING) ldsl_opt_type_error(L, arg, "algorithm", "string");
    if (lds_nav_algo_parse(lua_tostring(L, -1), &p->algo) != LDS_OK)
      ldsl_opt_error(L, arg, "algorithm",
                     lua_pushfstring(L, "unknown algorithm '%s' (expected funnel, optimal)",
                                     lua_tostring(L, -1)));
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "area_costs");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TTABLE)
      ldsl_opt_type_error(L, arg, "area_costs", "table {[area id] = cost}");
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      lua_Number a = lua_tonumber(L, -2), c = lua_tonumber(L, -1);
      char buf[64];
      if (lua_type(L, -2) != LUA_TNUMBER)
        ldsl_opt_error(L, arg, "area_costs", lua_pushfstring(L, "keys must be area ids 0..255 "
                                                                "(got a %s)", luaL_typename(L, -2)));
      if (a != floor(a) || a < 0 || a > 255)
        ldsl_opt_error(L, arg, "area_costs",
                       lua_pushfstring(L, "keys must be area ids 0..255 (got %s)",
                                       ldsl_fmt_coord(buf, sizeof buf, a)));
      if (lua_type(L, -1) != LUA_TNUMBER)
        ldsl_opt_error(L, arg, "area_costs",
                       lua_pushfstring(L, "area %d: cost number expected, got %s", (int)a,
                                       ldsl_value_name(L, -1)));
      if (!(c > 0))
        ldsl_opt_error(L, arg, "area_costs",
                       lua_pushfstring(L, "area %d: cost %s out of range (expected > 0; "
                                          "math.huge blocks the area)", (int)a,
                                       ldsl_fmt_num(buf, sizeof buf, c)));
      costs[(int)a] = c;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "blocked_areas");
  if (!lua_isnil(L, -1)) {
    size_t n, k;
    if (lua_type(L, -1) != LUA_TTABLE) ldsl_opt_type_error(L, arg, "blocked_areas", "list of area ids");
    n = lua_rawlen(L, -1);
    for (k = 1; k <= n; k++) {
      lua_Number a;
      char buf[64];
      lua_rawgeti(L, -1, (lua_Integer)k);
      a = lua_tonumber(L, -1);
      if (lua_type(L, -1) != LUA_TNUMBER || a != floor(a) || a < 0 || a > 255)
        ldsl_opt_error(L, arg, "blocked_areas",
                       lua_pushfstring(L, "entry %d: an area id 0..255 expected, got %s", (int)k,
                                       lua_type(L, -1) == LUA_TNUMBER
                                           ? ldsl_fmt_coord(buf, sizeof buf, a)
                                           : ldsl_value_name(L, -1)));
      costs[(int)a] = HUGE_VAL;
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "snap_radius");
  if (!lua_isnil(L, -1)) {
    char buf[64];
    if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, arg, "snap_radius", "number");
    p->snap_radius = lua_tonumber(L, -1);
    if (!(p->snap_radius >= 0) || isinf(p->snap_radius))
      ldsl_opt_error(L, arg, "snap_radius",
                     lua_pushfstring(L, "%s out of range (expected finite, >= 0 [world units])",
                                     ldsl_fmt_num(buf, sizeof buf, p->snap_radius)));
  }
  lua_pop(L, 1);
  lua_getfield(L, arg, "height_tol");
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TNUMBER)
      ldsl_opt_type_error(L, arg, "height_tol", "number (< 0: any height)");
    p->height_tol = lua_tonumber(L, -1);
    if (isnan(p->height_tol))
      ldsl_opt_error(L, arg, "height_tol", "nan out of range (expected a number; < 0: any height)");
  }
  lua_pop(L, 1);
  p->partial = ldsl_opt_boolean(L, arg, "partial", 0);
  p->thorough = ldsl_opt_boolean(L, arg, "thorough", p->thorough);
  p->area_costs = costs;
  p->n_area_costs = 256;
}

/* Pushes nil, the message of a failed start in find_path's words, status:
** the core's "lds_navsearch_start: start (x, y, z) is not on the mesh ..."
** names the argument, "lodestar.Navmesh:find_path: argument p0: start (x,
** y, z) is not on the mesh ..." (p1 for the goal), an area cost the optimal mode
** cannot take names opts.area_costs; other messages keep their text. */
static int start_fail(lua_State *L, const char *m, lds_Status st) {
  static const char core[] = "lds_navsearch_start: ";
  const char *rest;
  if (strncmp(m, core, sizeof core - 1) != 0) return ldsl_push_fail(L, m, st);
  rest = m + sizeof core - 1;
  if (strncmp(rest, "start (", 7) == 0)
    lua_pushfstring(L, "%s:find_path: argument p0: %s", LDS_NAVMESH_MT, rest);
  else if (strncmp(rest, "goal (", 6) == 0)
    lua_pushfstring(L, "%s:find_path: argument p1: %s", LDS_NAVMESH_MT, rest);
  else if (strncmp(rest, "optimal needs", 13) == 0)
    lua_pushfstring(L, "%s:find_path: opts.area_costs: %s", LDS_NAVMESH_MT, rest);
  else
    lua_pushfstring(L, "%s:find_path: %s", LDS_NAVMESH_MT, rest);
  return ldsl_push_fail(L, lua_tostring(L, -1), st);
}

void ldsl_navmesh_push_so_far(lua_State *L, const double *pts, size_t n, double length,
                              bool partial, lds_NavAlgo algo) {
  size_t i;
  lua_createtable(L, (int)n, 5);
  for (i = 0; i < n; i++) {
    push_point(L, pts + 3 * i);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_pushnumber(L, length);
  lua_setfield(L, -2, "length");
  lua_pushboolean(L, partial);
  lua_setfield(L, -2, "partial");
  lua_pushstring(L, lds_nav_algo_name(algo));
  lua_setfield(L, -2, "algorithm");
}

void ldsl_navmesh_push_path(lua_State *L, const double *pts, size_t n, double length, double cost,
                            bool partial, lds_NavAlgo algo, const uint32_t *corr, size_t nc) {
  size_t i;
  ldsl_navmesh_push_so_far(L, pts, n, length, partial, algo);
  lua_pushnumber(L, cost);
  lua_setfield(L, -2, "cost");
  lua_createtable(L, (int)nc, 0);
  for (i = 0; i < nc; i++) {
    lua_pushinteger(L, (lua_Integer)corr[i] + 1);
    lua_rawseti(L, -2, (lua_Integer)i + 1);
  }
  lua_setfield(L, -2, "corridor");
}

/* Pushes the path search s holds (a list of points {x =, y =, z =} with
** fields length, cost, partial, corridor, algorithm) and returns 1; or
** pushes nil, "no_path" (no path) and returns 2; or nil, message, status
** (the path's cost overflows, the corridor walk out of memory) and
** returns 3. */
static int push_nav_path(lua_State *L, lds_NavSearch *s, lds_NavAlgo algo) {
  const double *pts;
  const uint32_t *corr;
  size_t n, nc;
  pts = lds_navsearch_points(s, &n);
  if (!pts) {
    lua_pushnil(L);
    lua_pushstring(L, "no_path");
    return 2;
  }
  if (!isfinite(lds_navsearch_cost(s))) { /* finite area costs x length past the doubles */
    char buf[64];
    lua_pushfstring(L, "%s:find_path: opts.area_costs: the path's cost overflows (%s world "
                    "units long; expected area costs whose product with the length stays "
                    "finite)", LDS_NAVMESH_MT,
                    ldsl_fmt_num(buf, sizeof buf, lds_navsearch_length(s)));
    return ldsl_push_fail(L, lua_tostring(L, -1), LDS_E_ARG);
  }
  corr = lds_navsearch_corridor(s, &nc);
  if (!corr && lds_navsearch_status(s) == LDS_E_NOMEM)
    return ldsl_push_fail(L, lds_navsearch_errmsg(s), LDS_E_NOMEM);
  ldsl_navmesh_push_path(L, pts, n, lds_navsearch_length(s), lds_navsearch_cost(s),
                         lds_navsearch_is_partial(s), algo, corr, nc);
  return 1;
}

/* The search *slot of b, created on first use; NULL after pushing nil,
** message, status (out of memory). */
static lds_NavSearch *box_search(lua_State *L, MeshBox *b, lds_NavSearch **slot) {
  if (!*slot) {
    lds_Env env = ldsl_lua_env(L);
    lds_Error err;
    *slot = lds_navsearch_new(&env, b->m, &err);
    if (!*slot) {
      ldsl_push_fail(L, err.msg, err.code);
      return NULL;
    }
  }
  return *slot;
}

/* Lets search *dst use the landmark tables of the box's other search
** (lds_navsearch_share_tables), so the mesh's per-mesh tables are built
** once for find_path and the sliced query: nothing when the other has
** none yet or dst is running; out of memory leaves dst building its own. */
static void share_tables(MeshBox *b, lds_NavSearch *dst) {
  lds_NavSearch *src = dst == b->s ? b->q : b->s;
  if (src) (void)lds_navsearch_share_tables(dst, src);
}

/* mesh:find_path(p0, p1 [, opts]) -> path | nil, "no_path" | nil, msg, status.
** The path: a list of points {x =, y =, z =}, with fields length, cost,
** partial, corridor (polygon ids), algorithm; opts.postprocess(path, mesh)
** replaces it by what it returns. */
static int nm_find_path(lua_State *L) {
  MeshBox *b = check_box(L, 1);
  lds_NavParams p;
  double s[3], g[3], costs[256];
  lds_Status st;
  int post, nres;
  if (!b->m || b->closed) return luaL_error(L, "attempt to use a freed %s", LDS_NAVMESH_MT);
  check_point(L, 2, s);
  check_point(L, 3, g);
  parse_opts(L, 4, &p, costs, &post);
  if (!box_search(L, b, &b->s)) return 3;
  share_tables(b, b->s);
  st = lds_navsearch_start(b->s, &p, s, g);
  if (st == LDS_RUNNING) st = lds_navsearch_step(b->s, NULL);
  if (st < 0) return start_fail(L, lds_navsearch_errmsg(b->s), st);
  nres = push_nav_path(L, b->s, p.algo);
  if (nres != 1) return nres;
  if (post) {
    lua_getfield(L, 4, "postprocess");
    lua_insert(L, -2);
    lua_pushvalue(L, 1);
    ldsl_callback_guard(L, LDS_NAVMESH_MT ":find_path: opts.postprocess");
    lua_call(L, 2, 1);
    if (lua_isnil(L, -1))
      return luaL_error(L, "%s:find_path: opts.postprocess returned nil (expected the path or "
                        "what replaces it)", LDS_NAVMESH_MT);
  }
  return 1;
}

/* mesh:start(p0, p1 [, opts]) -> true | nil, msg, status: starts the mesh's
** sliced query (find_path's options but postprocess); mesh:step runs it. */
static int nm_start(lua_State *L) {
  MeshBox *b = check_box(L, 1);
  lds_NavParams p;
  double s[3], g[3], costs[256];
  lds_Status st;
  int post;
  if (!b->m || b->closed) return luaL_error(L, "attempt to use a freed %s", LDS_NAVMESH_MT);
  check_point(L, 2, s);
  check_point(L, 3, g);
  parse_opts(L, 4, &p, costs, &post);
  if (post)
    ldsl_opt_error(L, 4, "postprocess",
                   "not with mesh:start (call it on the path mesh:path() returns)");
  if (!box_search(L, b, &b->q)) return 3;
  if (lds_navsearch_status(b->q) != LDS_RUNNING) share_tables(b, b->q);
  b->q_algo = p.algo;
  st = lds_navsearch_start(b->q, &p, s, g);
  if (st < 0) return ldsl_push_fail(L, lds_navsearch_errmsg(b->q), st);
  lua_pushboolean(L, 1);
  return 1;
}

/* mesh:step([budget]) -> status [, message]: one slice of the sliced query. */
static int nm_step(lua_State *L) {
  MeshBox *b = check_box(L, 1);
  lds_Budget bud;
  lds_Status st;
  if (!b->m || b->closed) return luaL_error(L, "attempt to use a freed %s", LDS_NAVMESH_MT);
  ldsl_check_budget(L, 2, &bud);
  if (!b->q) {
    lua_pushstring(L, lds_status_name(LDS_E_STATE));
    lua_pushstring(L, "mesh:step: no query started (mesh:start first)");
    return 2;
  }
  st = lds_navsearch_step(b->q, &bud);
  lua_pushstring(L, lds_status_name(st));
  if (st < 0) {
    lua_pushstring(L, lds_navsearch_errmsg(b->q));
    return 2;
  }
  return 1;
}

/* mesh:path() -> path (find_path's table) | nil, status: the sliced query's
** path once found (with partial, after no_path: the partial path); the
** best so far while running is mesh:partial_path's. */
static int nm_path(lua_State *L) {
  MeshBox *b = check_box(L, 1);
  lds_Status st;
  if (!b->m || b->closed) return luaL_error(L, "attempt to use a freed %s", LDS_NAVMESH_MT);
  st = b->q ? lds_navsearch_status(b->q) : LDS_E_STATE;
  if (st < 0 || !lds_navsearch_points(b->q, NULL)) {
    lua_pushnil(L);
    lua_pushstring(L, lds_status_name(st));
    return 2;
  }
  return push_nav_path(L, b->q, b->q_algo);
}

/* mesh:partial_path() -> the sliced query's best path so far (also while
** running: lds_navsearch_partial_points), a list of points {x =, y =, z =}
** with fields length (3-D, world units), partial (false only when it ends
** at the goal) and algorithm; nil, status when there is none (no query,
** an error, a blocked start). */
static int nm_partial_path(lua_State *L) {
  MeshBox *b = check_box(L, 1);
  const double *pts;
  size_t n = 0, i;
  bool part = true;
  double len = 0;
  if (!b->m || b->closed) return luaL_error(L, "attempt to use a freed %s", LDS_NAVMESH_MT);
  pts = b->q ? lds_navsearch_partial_points(b->q, &n, &part) : NULL;
  if (!pts) {
    lua_pushnil(L);
    lua_pushstring(L, lds_status_name(b->q ? lds_navsearch_status(b->q) : LDS_E_STATE));
    return 2;
  }
  for (i = 1; i < n; i++) {
    const double *p = pts + 3 * (i - 1), *q = pts + 3 * i;
    len += sqrt((p[0] - q[0]) * (p[0] - q[0]) + (p[1] - q[1]) * (p[1] - q[1]) +
                (p[2] - q[2]) * (p[2] - q[2]));
  }
  ldsl_navmesh_push_so_far(L, pts, n, len, part, b->q_algo);
  return 1;
}

/* mesh:status() -> the sliced query's status name ("state" before a start) */
static int nm_status(lua_State *L) {
  MeshBox *b = check_box(L, 1);
  if (!b->m || b->closed) return luaL_error(L, "attempt to use a freed %s", LDS_NAVMESH_MT);
  lua_pushstring(L, lds_status_name(b->q ? lds_navsearch_status(b->q) : LDS_E_STATE));
  return 1;
}

/* mesh:stats() -> {expansions, pushes, peak_open, elapsed_us} of the sliced query */
static int nm_stats(lua_State *L) {
  MeshBox *b = check_box(L, 1);
  lds_Stats st = {0, 0, 0, 0};
  if (!b->m || b->closed) return luaL_error(L, "attempt to use a freed %s", LDS_NAVMESH_MT);
  if (b->q) lds_navsearch_stats(b->q, &st);
  lua_createtable(L, 0, 4);
  ldsl_push_u64(L, st.expansions);
  lua_setfield(L, -2, "expansions");
  ldsl_push_u64(L, st.pushes);
  lua_setfield(L, -2, "pushes");
  ldsl_push_u64(L, st.peak_open);
  lua_setfield(L, -2, "peak_open");
  ldsl_push_u64(L, st.elapsed_us);
  lua_setfield(L, -2, "elapsed_us");
  return 1;
}

/* mesh:check_path(points [, height_tol]) -> true, length | false, message */
static int nm_check_path(lua_State *L) {
  lds_Navmesh *m = check_mesh(L, 1);
  size_t n, i;
  double *pts, len = 0;
  char msg[LDS_ERRMSG_SIZE];
  double tol = opt_height_tol(L, 3, 4.0);
  if (lua_type(L, 2) != LUA_TTABLE) ldsl_type_error(L, 2, "list of points");
  n = lua_rawlen(L, 2);
  pts = (double *)lua_newuserdata(L, (3 * n + 1) * sizeof(double));
  for (i = 0; i < n; i++) {
    lua_rawgeti(L, 2, (lua_Integer)i + 1);
    read_point(L, -1, 2, "points", i + 1, pts + 3 * i);
    lua_pop(L, 1);
  }
  if (lds_navmesh_check_path(m, pts, n, tol, NULL, 0, &len, NULL, msg) !=
      LDS_OK) {
    lua_pushboolean(L, 0);
    lua_pushstring(L, msg);
    return 2;
  }
  lua_pushboolean(L, 1);
  lua_pushnumber(L, len);
  return 2;
}

static int nm_mem_used(lua_State *L) {
  lua_pushinteger(L, (lua_Integer)lds_navmesh_mem_used(check_mesh(L, 1)));
  return 1;
}

const luaL_Reg ldsl_navmesh_funcs[] = {{"load", nm_load},
                                       {"new", nm_new},
                                       {"parse", nm_parse},
                                       {NULL, NULL}};

const luaL_Reg ldsl_navmesh_meth[] = {{"bounds", nm_bounds},
                                      {"check_path", nm_check_path},
                                      {"find_path", nm_find_path},
                                      {"free", nm_free},
                                      {"locate", nm_locate},
                                      {"mem_used", nm_mem_used},
                                      {"nearest", nm_nearest},
                                      {"path", nm_path},
                                      {"partial_path", nm_partial_path},
                                      {"piece_count", nm_piece_count},
                                      {"poly", nm_poly},
                                      {"poly_count", nm_poly_count},
                                      {"start", nm_start},
                                      {"stats", nm_stats},
                                      {"status", nm_status},
                                      {"step", nm_step},
                                      {"vertex", nm_vertex},
                                      {"vertex_count", nm_vertex_count},
                                      {NULL, NULL}};

static int nm_gc(lua_State *L) {
  MeshBox *b = (MeshBox *)lua_touserdata(L, 1);
  if (b) mesh_release(b);
  return 0;
}

const luaL_Reg ldsl_navmesh_metameth[] = {{"__close", nm_gc},
                                          {"__gc", nm_gc},
                                          {"__tostring", nm_tostring},
                                          {NULL, NULL}};
