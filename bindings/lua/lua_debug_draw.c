/* SPDX-License-Identifier: MIT */
/*
** lua_debug_draw.c — the debug-draw interface (core/lds_debug_draw.h) and
** pictures (io/lds_png.h) from Lua: grid:draw(dd [, opts]),
** search:draw(dd [, opts]), path:draw(dd [, rgba [, width]]) and
** search:picture(file [, opts]). Host-only methods (lodestar.mods
** HOST_METHODS): a sandboxed mod calling one gets an error (lds_guard.h,
** registry["lodestar.sandbox"]).
**
** dd is a Lua table (or any indexable value) of the host's renderer:
**   dd:begin(prim, size)            prim "cells" | "lines" | "points";
**                                   size: line width / dot diameter [cells]
**   dd:vertex(x, y, r, g, b, a)     x, y in cells (y down); r..a in 0..1
**   dd:finish()                     closes the batch (C's `end`, a Lua keyword)
**   dd:text(x, y, s, r, g, b, a)    optional: a label (search labels)
** The core draws into a buffer first (C callbacks only), and the Lua
** functions are called after the core returned, so an error raised by the
** host's function never unwinds a core frame.
*/
#include "lds_debug_draw.h"
#include "lds_guard.h"
#include "lds_png.h"
#include "lua_util.h"

#include <stdlib.h>

enum { OP_BEGIN, OP_VERTEX, OP_END, OP_TEXT };

typedef struct DrawRec {
  int op, prim;
  float x, y, size;
  uint32_t rgba;
  size_t text; /* offset into the text buffer (OP_TEXT) */
} DrawRec;

/* The recording, a userdata so a Lua error during replay frees it (__gc). */
typedef struct DrawBuf {
  DrawRec *r;
  size_t n, cap;
  char *txt;
  size_t tn, tcap;
  int oom;
  int want_text;
} DrawBuf;

#define DRAWBUF_MT "lodestar.DrawBuffer"

static int drawbuf_gc(lua_State *L) {
  DrawBuf *b = (DrawBuf *)lua_touserdata(L, 1);
  free(b->r);
  free(b->txt);
  b->r = NULL;
  b->txt = NULL;
  b->n = b->cap = b->tn = b->tcap = 0;
  return 0;
}

static DrawRec *rec_add(DrawBuf *b, int op) {
  if (b->oom) return NULL;
  if (b->n == b->cap) {
    size_t cap = b->cap ? b->cap * 2 : 256;
    DrawRec *r = (DrawRec *)realloc(b->r, cap * sizeof *r);
    if (!r) {
      b->oom = 1;
      return NULL;
    }
    b->r = r;
    b->cap = cap;
  }
  b->r[b->n].op = op;
  return &b->r[b->n++];
}

static void cb_begin(void *ud, lds_DebugPrim prim, float size) {
  DrawRec *r = rec_add((DrawBuf *)ud, OP_BEGIN);
  if (r) {
    r->prim = (int)prim;
    r->size = size;
  }
}

static void cb_vertex(void *ud, float x, float y, uint32_t rgba) {
  DrawRec *r = rec_add((DrawBuf *)ud, OP_VERTEX);
  if (r) {
    r->x = x;
    r->y = y;
    r->rgba = rgba;
  }
}

static void cb_end(void *ud) { (void)rec_add((DrawBuf *)ud, OP_END); }

static void cb_text(void *ud, float x, float y, const char *text, uint32_t rgba) {
  DrawBuf *b = (DrawBuf *)ud;
  size_t len = strlen(text) + 1;
  DrawRec *r;
  if (b->oom) return;
  if (b->tn + len > b->tcap) {
    size_t cap = b->tcap ? b->tcap : 1024;
    char *t;
    while (cap < b->tn + len) cap *= 2;
    t = (char *)realloc(b->txt, cap);
    if (!t) {
      b->oom = 1;
      return;
    }
    b->txt = t;
    b->tcap = cap;
  }
  r = rec_add(b, OP_TEXT);
  if (!r) return;
  memcpy(b->txt + b->tn, text, len);
  r->text = b->tn;
  b->tn += len;
  r->x = x;
  r->y = y;
  r->rgba = rgba;
}

/* Checks dd (argument ddi: begin, vertex, finish functions; text optional)
** and pushes a new recording; fills *dd for the core. */
static DrawBuf *new_recording(lua_State *L, int ddi, lds_DebugDraw *dd) {
  static const char *const need[] = {"begin", "vertex", "finish"};
  DrawBuf *b;
  int i;
  if (!lua_istable(L, ddi)) ldsl_type_error(L, ddi, "table (the renderer: begin, vertex, finish [, text])");
  for (i = 0; i < 3; i++) {
    lua_getfield(L, ddi, need[i]);
    if (!lua_isfunction(L, -1))
      ldsl_arg_error(L, ddi, lua_pushfstring(L, "dd.%s must be a function (got %s)", need[i],
                                             luaL_typename(L, -1)));
    lua_pop(L, 1);
  }
  lua_getfield(L, ddi, "text");
  if (!lua_isnil(L, -1) && !lua_isfunction(L, -1))
    ldsl_arg_error(L, ddi, lua_pushfstring(L, "dd.text must be a function or nil (got %s)",
                                           luaL_typename(L, -1)));
  b = (DrawBuf *)lua_newuserdata(L, sizeof *b);
  memset(b, 0, sizeof *b);
  b->want_text = lua_isfunction(L, -2);
  lua_remove(L, -2);
  if (luaL_newmetatable(L, DRAWBUF_MT)) {
    lua_pushcfunction(L, drawbuf_gc);
    lua_setfield(L, -2, "__gc");
  }
  lua_setmetatable(L, -2);
  dd->ud = b;
  dd->begin = cb_begin;
  dd->vertex = cb_vertex;
  dd->end = cb_end;
  dd->text = b->want_text ? cb_text : NULL;
  return b;
}

static void push_rgba(lua_State *L, uint32_t c) {
  lua_pushnumber(L, (lua_Number)((c >> 24) & 255) / 255.0);
  lua_pushnumber(L, (lua_Number)((c >> 16) & 255) / 255.0);
  lua_pushnumber(L, (lua_Number)((c >> 8) & 255) / 255.0);
  lua_pushnumber(L, (lua_Number)(c & 255) / 255.0);
}

/* Calls dd's functions for the recording at the top of the stack, then
** frees it. Returns the number of vertices replayed (pushed). */
static int replay(lua_State *L, int ddi, DrawBuf *b) {
  static const char *const prims[] = {"cells", "lines", "points"};
  size_t i, nv = 0;
  if (b->oom) return luaL_error(L, "draw: not enough memory to record the drawing");
  ldsl_callback_guard(L, "draw");
  for (i = 0; i < b->n; i++) {
    const DrawRec *r = &b->r[i];
    switch (r->op) {
    case OP_BEGIN:
      lua_getfield(L, ddi, "begin");
      lua_pushvalue(L, ddi);
      lua_pushstring(L, prims[r->prim < 0 || r->prim > 2 ? 0 : r->prim]);
      lua_pushnumber(L, r->size);
      lua_call(L, 3, 0);
      break;
    case OP_VERTEX:
      lua_getfield(L, ddi, "vertex");
      lua_pushvalue(L, ddi);
      lua_pushnumber(L, r->x);
      lua_pushnumber(L, r->y);
      push_rgba(L, r->rgba);
      lua_call(L, 7, 0);
      nv++;
      break;
    case OP_END:
      lua_getfield(L, ddi, "finish");
      lua_pushvalue(L, ddi);
      lua_call(L, 1, 0);
      break;
    default:
      lua_getfield(L, ddi, "text");
      lua_pushvalue(L, ddi);
      lua_pushnumber(L, r->x);
      lua_pushnumber(L, r->y);
      lua_pushstring(L, b->txt + r->text);
      push_rgba(L, r->rgba);
      lua_call(L, 8, 0);
      break;
    }
  }
  lua_pushinteger(L, (lua_Integer)nv);
  return 1;
}

static void host_only(lua_State *L, const char *name) {
  if (lds_guard_in_sandbox(L))
    luaL_error(L, "%s is for the host only: a mod cannot call it (lodestar.mods HOST_METHODS)", name);
}

/* Reads an integer option field (nil = def) in [lo, hi]. */
static int opt_field_int(lua_State *L, int oi, const char *key, int def, int lo, int hi) {
  int v = def;
  lua_getfield(L, oi, key);
  if (!lua_isnil(L, -1)) {
    lua_Number n = lua_tonumber(L, -1);
    char buf[64];
    if (lua_type(L, -1) != LUA_TNUMBER)
      ldsl_opt_error(L, oi, key, lua_pushfstring(L, "an integer in %d..%d expected, got %s", lo, hi,
                                                 ldsl_value_name(L, -1)));
    if (n != floor(n) || n < lo || n > hi)
      ldsl_opt_error(L, oi, key, lua_pushfstring(L, "an integer in %d..%d expected, got %s", lo, hi,
                                                 ldsl_fmt_coord(buf, sizeof buf, n)));
    v = (int)n;
  }
  lua_pop(L, 1);
  return v;
}

/* opts.layer: nil (terrain cost) or a layer name of g. */
static int opt_layer(lua_State *L, int oi, const lds_Grid *g) {
  int layer = -1;
  lua_getfield(L, oi, "layer");
  if (!lua_isnil(L, -1)) {
    const char *name = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    if (!name) ldsl_opt_type_error(L, oi, "layer", "a layer name (string)");
    layer = lds_grid_layer_find(g, name);
    if (layer < 0) ldsl_opt_error(L, oi, "layer", lua_pushfstring(L, "a layer of the grid (no layer '%s')", name));
  }
  lua_pop(L, 1);
  return layer;
}

static void check_opts(lua_State *L, int oi, const char *const keys[]) {
  if (lua_isnoneornil(L, oi)) return;
  ldsl_check_table(L, oi);
  ldsl_check_keys(L, oi, "option", "opts keys must be strings", keys, NULL);
}

/* grid:draw(dd [, {layer = name}]) -> vertices: the grid's cells by cost
** (or by the named layer) as one "cells" batch. */
static int grid_draw(lua_State *L) {
  static const char *const keys[] = {"layer", NULL};
  lds_Grid *g = ldsl_check_grid(L, 1);
  lds_DebugGridOpts o;
  lds_DebugDraw dd;
  DrawBuf *b;
  host_only(L, "grid:draw");
  lds_debug_grid_opts_init(&o);
  check_opts(L, 3, keys);
  if (lua_istable(L, 3)) o.layer = opt_layer(L, 3, g);
  b = new_recording(L, 2, &dd);
  if (lds_debug_draw_grid(&dd, g, &o) != LDS_OK) return luaL_error(L, "grid:draw: the grid cannot be drawn");
  return replay(L, 2, b);
}

/* search:draw(dd [, {labels = bool}]) -> vertices: the last query's closed
** set by g, open list, jump points, start and goal. */
static int search_draw(lua_State *L) {
  static const char *const keys[] = {"labels", NULL};
  SearchBox *sb = ldsl_check_search(L, 1);
  lds_DebugSearchOpts o;
  lds_DebugDraw dd;
  DrawBuf *b;
  lds_Status st;
  host_only(L, "search:draw");
  if (sb->busy) return luaL_error(L, "search:draw: not from inside the search's own step");
  if (!sb->gb) return luaL_error(L, "search:draw: a graph search has no cells to draw");
  if (!sb->started) return luaL_error(L, "search:draw: no query was started (call s:start first)");
  lds_debug_search_opts_init(&o);
  check_opts(L, 3, keys);
  if (lua_istable(L, 3)) {
    o.labels = ldsl_opt_boolean(L, 3, "labels", 0);
  }
  b = new_recording(L, 2, &dd);
  st = lds_debug_draw_search(&dd, sb->s, &o);
  if (st != LDS_OK) return luaL_error(L, "search:draw: %s", lds_status_name(st));
  return replay(L, 2, b);
}

/* A colour argument: nil (def), an integer 0xRRGGBBAA, or {r, g, b [, a]} in 0..1. */
static uint32_t check_rgba(lua_State *L, int arg, uint32_t def) {
  if (lua_isnoneornil(L, arg)) return def;
  if (lua_type(L, arg) == LUA_TNUMBER) {
    lua_Number n = lua_tonumber(L, arg);
    if (n != floor(n) || n < 0 || n > 4294967295.0)
      ldsl_arg_error(L, arg, "colour must be an integer 0xRRGGBBAA or a table {r, g, b [, a]} in 0..1");
    return (uint32_t)n;
  }
  if (lua_istable(L, arg)) {
    uint32_t c = 0;
    int i;
    for (i = 1; i <= 4; i++) {
      lua_Number v;
      lua_rawgeti(L, arg, i);
      v = lua_isnil(L, -1) && i == 4 ? 1.0 : lua_tonumber(L, -1);
      if ((lua_type(L, -1) != LUA_TNUMBER && !(i == 4 && lua_isnil(L, -1))) || !(v >= 0 && v <= 1))
        ldsl_arg_error(L, arg, "colour table must hold r, g, b [, a] numbers in 0..1");
      lua_pop(L, 1);
      c = c << 8 | (uint32_t)(v * 255.0 + 0.5);
    }
    return c;
  }
  ldsl_type_error(L, arg, "colour (integer 0xRRGGBBAA or {r, g, b [, a]})");
  return def;
}

/* path:draw(dd [, rgba [, width]]) -> vertices: segments between the cell
** centres (width in cells, default 0.3) and a dot per waypoint; default
** colour red 0xFF2828FF. */
static int path_draw(lua_State *L) {
  PathBox *pb = (PathBox *)luaL_testudata(L, 1, LDS_PATH_MT);
  uint32_t rgba;
  lua_Number width;
  lds_DebugDraw dd;
  DrawBuf *b;
  if (!pb) ldsl_type_error(L, 1, LDS_PATH_MT);
  if (!pb->p) return luaL_error(L, "attempt to use a freed %s", LDS_PATH_MT);
  host_only(L, "path:draw");
  rgba = check_rgba(L, 3, LDS_RGBA(255, 40, 40, 255));
  width = lua_isnoneornil(L, 4) ? 0.3 : ldsl_check_num(L, 4);
  if (!(width > 0 && width <= 64)) ldsl_arg_error(L, 4, "width must be in (0, 64] cells");
  b = new_recording(L, 2, &dd);
  if (lds_debug_draw_path(&dd, pb->p, rgba, (float)width) != LDS_OK)
    return luaL_error(L, "path:draw: a graph path has no cells to draw");
  return replay(L, 2, b);
}

static const lds_Path *opt_path(lua_State *L, int oi, const char *key) {
  const lds_Path *p = NULL;
  lua_getfield(L, oi, key);
  if (!lua_isnil(L, -1)) {
    PathBox *pb = (PathBox *)luaL_testudata(L, -1, LDS_PATH_MT);
    if (!pb) ldsl_opt_type_error(L, oi, key, LDS_PATH_MT);
    if (!pb->p) ldsl_opt_error(L, oi, key, "a live path (this one was freed)");
    p = pb->p;
  }
  lua_pop(L, 1); /* the options table keeps it alive */
  return p;
}

/* search:picture(file [, {scale =, layer =, path =, post =}]) -> true, or
** nil, message, status name: a PNG of the grid, the last query (closed set
** by g, open list, jump points), opts.path (red) and opts.post (orange);
** scale pixels per cell 1..64 (default automatic, about 1024 px a side). */
static int search_picture(lua_State *L) {
  static const char *const keys[] = {"layer", "path", "post", "scale", NULL};
  SearchBox *sb = ldsl_check_search(L, 1);
  const char *file = ldsl_check_str(L, 2);
  lds_PictureSpec spec;
  lds_Error err;
  lds_Status st;
  host_only(L, "search:picture");
  if (sb->busy) return luaL_error(L, "search:picture: not from inside the search's own step");
  if (!sb->gb) return luaL_error(L, "search:picture: a graph search has no cells to draw");
  if (!sb->started) return luaL_error(L, "search:picture: no query was started (call s:start first)");
  lds_picture_spec_init(&spec);
  spec.search = sb->s;
  spec.grid = lds_search_grid(sb->s);
  check_opts(L, 3, keys);
  if (lua_istable(L, 3)) {
    spec.scale = opt_field_int(L, 3, "scale", 0, 1, 64);
    spec.layer = opt_layer(L, 3, spec.grid);
    spec.path = opt_path(L, 3, "path");
    spec.post = opt_path(L, 3, "post");
  }
  memset(&err, 0, sizeof err);
  st = lds_picture_write(file, &spec, &err);
  if (st != LDS_OK) return ldsl_push_fail(L, err.msg[0] ? err.msg : lds_status_name(st), st);
  lua_pushboolean(L, 1);
  return 1;
}

const luaL_Reg ldsl_grid_draw_meth[] = {{"draw", grid_draw}, {NULL, NULL}};
const luaL_Reg ldsl_search_draw_meth[] = {{"draw", search_draw}, {"picture", search_picture}, {NULL, NULL}};
const luaL_Reg ldsl_path_draw_meth[] = {{"draw", path_draw}, {NULL, NULL}};
