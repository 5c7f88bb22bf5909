/* SPDX-License-Identifier: MIT */
/*
** lua_text.c — objects from text: grid.load/parse (Moving AI .map), grid.from_ascii/
** from_rows (pictures), scenario.load/parse (.scen), graph.load_dimacs/
** parse_dimacs (DIMACS .gr/.co).
*/
#include "lua_util.h"
#include "lds_io.h" /* the file readers behind grid.load, scenario.load, graph.load_dimacs */

/* lodestar.grid.load(path) -> grid | nil, msg, code */
int ldsl_grid_load(lua_State *L) {
  const char *path = ldsl_check_str(L, 1);
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  GridBox *b = ldsl_new_gridbox(L);
  b->g = lds_map_load(&env, path, &err);
  if (!b->g) return ldsl_push_fail(L, err.msg, err.code);
  b->owned = 1;
  return 1;
}

/* An optional name argument for error messages: nil/none -> NULL (the
** core's default), else a string. */
static const char *opt_name(lua_State *L, int arg) {
  return lua_isnoneornil(L, arg) ? NULL : ldsl_check_str(L, arg);
}

/* lodestar.grid.parse(text [, name]) -> grid | nil, msg, code
** Moving AI .map text already in memory (a game's own file system: LOVE's
** love.filesystem.read, a zip). The grid is the one grid.load makes from a
** file with those bytes; errors are "name:line: ..." ("format"), name
** "(map)" by default, or "nomem". */
int ldsl_grid_parse(lua_State *L) {
  size_t len;
  const char *text, *name;
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  GridBox *b;
  ldsl_check_str(L, 1);
  text = lua_tolstring(L, 1, &len);
  name = opt_name(L, 2);
  b = ldsl_new_gridbox(L);
  b->g = lds_map_parse(&env, text, len, name, &err);
  if (!b->g) return ldsl_push_fail(L, err.msg, err.code);
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
  if (!sc) return ldsl_push_fail(L, err->msg, err->code);
  lua_pushvalue(L, fi);
  lua_pushlightuserdata(L, sc); /* ..., fn, sc */
  st = lua_pcall(L, 1, 1, 0);
  lds_scen_free(sc);
  if (st != 0) return lua_error(L);
  return 1;
}

/* lodestar.scenario.load(path) -> {entry, ...} | nil, msg, code */
static int scenario_load(lua_State *L) {
  const char *path = ldsl_check_str(L, 1);
  lds_Env env = ldsl_lua_env(L);
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
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  lds_Scenario *sc;
  ldsl_check_str(L, 1);
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
  return ldsl_arg_error(L, arg, lua_pushfstring(L, "opts.legend[%s]: %s", key, what));
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
                                                  ldsl_value_name(L, -1)));
        cost = lua_tonumber(L, -1);
        has_cost = 1;
      }
      lua_pop(L, 1);
      raw_field(L, v, "blocked");
      if (!lua_isnil(L, -1)) {
        if (lua_type(L, -1) != LUA_TBOOLEAN)
          legend_error(L, arg, c, lua_pushfstring(L, "blocked: boolean expected, got %s",
                                                  ldsl_value_name(L, -1)));
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
                                                  : ldsl_value_name(L, -1)));
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
            const char *got = ldsl_value_name(L, vi);
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
                                              ldsl_fmt_num(buf, sizeof buf, cost)));
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
                                            ldsl_value_name(L, v)));
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
    ldsl_arg_error(L, arg, lua_pushfstring(L, "opts.legend: keys must be one-character strings, got %s",
                                      k ? lua_pushfstring(L, "'%s'", k) : ldsl_value_name(L, -2)));
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
  ldsl_check_table(L, arg);
  ldsl_check_keys(L, arg, "option", "opts keys must be strings", ascii_opts, NULL);
  lg->strict = ldsl_opt_boolean(L, arg, "strict", 0);
  lua_getfield(L, arg, "legend"); /* legend */
  legend = lua_gettop(L);
  if (lua_isnil(L, legend)) {
    lua_pushnil(L);
    return;
  }
  if (lua_type(L, legend) != LUA_TTABLE) ldsl_opt_type_error(L, arg, "legend", "table");
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
                                                  ldsl_value_name(L, -1)));
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
  lds_Env env = ldsl_lua_env(L);
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
          return ldsl_push_fail(L, lua_tostring(L, -1), LDS_E_FORMAT);
        }
      }
  if (lg->nl > 64) return luaL_error(L, "%s: %d layers in the legend (expected at most 64)", fn,
                                     lg->nl);
  b = ldsl_new_gridbox(L);
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
int ldsl_grid_from_ascii(lua_State *L) {
  size_t len, i;
  const char *t;
  int32_t w = -1, h = 0, y;
  AsciiLegend lg;
  AsciiRow *rows;
  if (!lua_isstring(L, 1)) ldsl_type_error(L, 1, "string"); /* numbers convert, as in luaL_checklstring */
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
        return ldsl_push_fail(L, lua_tostring(L, -1), LDS_E_FORMAT);
      }
    }
    i = e + 1;
  }
  if (h == 0) return ldsl_push_fail(L, "from_ascii: no rows (expected at least one line of cells)",
                               LDS_E_FORMAT);
  if (w > LDS_GRID_MAX_SIDE || h > LDS_GRID_MAX_SIDE)
    return ldsl_push_fail(L, "from_ascii: too many cells (expected at most 65535 per side)",
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
int ldsl_grid_from_rows(lua_State *L) {
  AsciiLegend lg;
  AsciiRow *rows;
  size_t n, i, w = 0;
  ldsl_check_table(L, 1);
  lua_settop(L, 2);
  ascii_opts_read(L, 2, &lg, NULL); /* rows, opts, legend..., names, lv */
  n = (size_t)lua_rawlen(L, 1);
  if (n == 0) return ldsl_push_fail(L, "from_rows: no rows (expected a list of strings)", LDS_E_FORMAT);
  if (n > LDS_GRID_MAX_SIDE)
    return ldsl_push_fail(L, "from_rows: too many cells (expected at most 65535 per side)",
                     LDS_E_FORMAT);
  rows = (AsciiRow *)lds_newudata(L, n * sizeof(AsciiRow)); /* ..., names, lv, slices */
  for (i = 0; i < n; i++) {
    const char *nl;
    lua_rawgeti(L, 1, (lua_Integer)i + 1);
    if (lua_type(L, -1) != LUA_TSTRING)
      ldsl_arg_error(L, 1, lua_pushfstring(L, "row %d: string expected, got %s", (int)i + 1,
                                      ldsl_value_name(L, -1)));
    rows[i].p = lua_tolstring(L, -1, &rows[i].n); /* anchored by the rows table */
    lua_pop(L, 1);
    if (i == 0) w = rows[0].n;
    nl = memchr(rows[i].p, '\n', rows[i].n);
    if (nl) {
      lua_pushfstring(L, "from_rows: row %d, column %d: a line break in a row (expected one row "
                      "per string)", (int)i + 1, (int)(nl - rows[i].p) + 1);
      return ldsl_push_fail(L, lua_tostring(L, -1), LDS_E_FORMAT);
    }
    if (rows[i].n != w) {
      lua_pushfstring(L, "from_rows: row %d has %d cells (expected %d like row 1)", (int)i + 1,
                      (int)rows[i].n, (int)w);
      return ldsl_push_fail(L, lua_tostring(L, -1), LDS_E_FORMAT);
    }
  }
  if (w == 0) return ldsl_push_fail(L, "from_rows: row 1 is empty (expected at least one cell)",
                               LDS_E_FORMAT);
  if (w > LDS_GRID_MAX_SIDE)
    return ldsl_push_fail(L, "from_rows: too many cells (expected at most 65535 per side)",
                     LDS_E_FORMAT);
  return ascii_build(L, "from_rows", rows, (int32_t)w, (int32_t)n, &lg);
}

/* lodestar.graph.load_dimacs(gr [, co]) -> graph | nil, msg, "io"|"format"|"nomem" */
int ldsl_graph_load_dimacs(lua_State *L) {
  const char *gr = ldsl_check_str(L, 1);
  const char *co = lua_isnoneornil(L, 2) ? NULL : ldsl_check_str(L, 2);
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  GraphBox *b;
  lua_settop(L, 2);
  b = ldsl_new_graphbox(L);
  b->g = lds_graph_load_dimacs(&env, gr, co, &err);
  if (!b->g) return ldsl_push_fail(L, err.msg, err.code);
  b->owned = 1;
  return 1;
}

/* lodestar.graph.parse_dimacs(gr [, co [, gr_name [, co_name]]]) -> graph
** | nil, msg, code: DIMACS .gr (and .co) text in memory (not gzip: the
** caller decompresses); errors "name:line: ..." ("format"), names "(gr)"
** and "(co)" by default, or "nomem". */
int ldsl_graph_parse_dimacs(lua_State *L) {
  size_t gr_len, co_len = 0;
  const char *gr, *co = NULL, *gr_name, *co_name;
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  GraphBox *b;
  ldsl_check_str(L, 1);
  gr = lua_tolstring(L, 1, &gr_len);
  if (!lua_isnoneornil(L, 2)) {
    ldsl_check_str(L, 2);
    co = lua_tolstring(L, 2, &co_len);
  }
  gr_name = opt_name(L, 3);
  co_name = opt_name(L, 4);
  lua_settop(L, 4);
  b = ldsl_new_graphbox(L);
  b->g = lds_graph_parse_dimacs(&env, gr, gr_len, gr_name, co, co_len, co_name, &err);
  if (!b->g) return ldsl_push_fail(L, err.msg, err.code);
  b->owned = 1;
  return 1;
}

const luaL_Reg ldsl_scenario_funcs[] = {
    {"load", scenario_load}, {"parse", scenario_parse}, {NULL, NULL}};
