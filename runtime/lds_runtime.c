/* SPDX-License-Identifier: MIT */
/*
** lds_runtime.c — the embedding runtime (lds_runtime.h): a lua_State on the
** host's allocator with the lodestar package, a scheduler, and the mod
** manager. The Lua half is scripts/lodestar/runtime.lua: this file gives it
** a `host` table of C closures (upvalue 1: the runtime) and keeps a
** registry reference to the table it returns (R).
**
** The scheduler is a lodestar.Scheduler made in the state (registry ref
** sched_ref; bindings/lua/lua_scheduler.c): Lua's requests are its
** requests, and it calls their on_done after each step's C work, under
** lua_pcall with a traceback; runtime.lua's on_error hands an error to
** host.lua_error (logged, counted), and the tick goes on. Requests made
** from C keep their own C callback, called inside the step.
*/
#include "lds_runtime.h"

#include "lds.h"
#include "lodestar_lua.h"

#include <lauxlib.h>
#include <lua.h>
#include <lualib.h>

#include "lds_compat.h" /* Lua 5.4 or LuaJIT: the runtime builds against either */

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#ifndef LDS_SCRIPTS_DIR
#define LDS_SCRIPTS_DIR "scripts"
#endif

#define MAX_GRID_NAME 63

typedef struct RtGrid {
  char name[MAX_GRID_NAME + 1];
  lds_Grid *g;
} RtGrid;

struct lds_Runtime {
  lds_Env env;             /* defaults filled in */
  lds_RuntimeConfig cfg;   /* copy; its strings are not used after new */
  lua_State *L;
  lds_Scheduler *sc;
  int glue_ref;            /* registry ref of R (scripts/lodestar/runtime.lua) */
  int sched_ref;           /* registry ref of the lodestar.Scheduler that owns sc */
  lds_Error sched_err;     /* why the scheduler could not be made (open_state) */
  RtGrid *grids;
  int ngrids, grid_cap;
  bool has_mods;
  bool ticking;
  uint32_t lua_errors;     /* during the current tick */
  char errmsg[LDS_ERRMSG_SIZE];
};

/* ----------------------------------------------------------- helpers -- */

static void rt_log(lds_Runtime *rt, int level, const char *msg) {
  if (rt->env.log)
    rt->env.log(rt->env.log_ud, level, msg);
  else if (level <= 1) /* no sink: errors and warnings must not vanish */
    fprintf(stderr, "lodestar: %s\n", msg);
}

static lds_Status rt_fail(lds_Runtime *rt, lds_Status code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static lds_Status rt_fail(lds_Runtime *rt, lds_Status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(rt->errmsg, sizeof rt->errmsg, fmt, ap);
  va_end(ap);
  return code;
}

static void set_err(lds_Error *err, lds_Status code, const char *msg) {
  if (!err) return;
  err->code = code;
  snprintf(err->msg, sizeof err->msg, "%s", msg);
}

/* lua_Alloc over the host's lds_Alloc: Lua passes a type tag as osize for
** new blocks, lds_Alloc promises 0. */
static void *lua_adapter(void *ud, void *ptr, size_t osize, size_t nsize) {
  lds_Runtime *rt = (lds_Runtime *)ud;
  if (!ptr && nsize == 0) return NULL;
  return rt->env.alloc(rt->env.alloc_ud, ptr, ptr ? osize : 0, nsize);
}

/* Message handler: the error message (any value) plus a traceback. */
static int msgh(lua_State *L) {
  const char *msg = lua_tostring(L, 1);
  if (!msg) msg = luaL_tolstring(L, 1, NULL);
  luaL_traceback(L, L, msg, 1);
  return 1;
}

/* Calls the function below nargs arguments under pcall + traceback; on
** error logs "what: message\ntraceback" (level 0) and keeps it in errmsg.
** Leaves nres results on success. */
static int rt_pcall(lds_Runtime *rt, int nargs, int nres, const char *what) {
  lua_State *L = rt->L;
  int base = lua_gettop(L) - nargs, st;
  lua_pushcfunction(L, msgh);
  lua_insert(L, base);
  st = lua_pcall(L, nargs, nres, base);
  lua_remove(L, base);
  if (st != 0) {
    const char *m = lua_tostring(L, -1);
    lua_pushfstring(L, "%s: %s", what, m ? m : "(error object is not a string)");
    rt_log(rt, 0, lua_tostring(L, -1));
    snprintf(rt->errmsg, sizeof rt->errmsg, "%s", lua_tostring(L, -1));
    lua_pop(L, 2);
    rt->lua_errors++;
  }
  return st;
}

/* Pushes R[name] (a function). */
static void push_glue(lds_Runtime *rt, const char *name) {
  lua_rawgeti(rt->L, LUA_REGISTRYINDEX, rt->glue_ref);
  lua_getfield(rt->L, -1, name);
  lua_remove(rt->L, -2);
}

static lds_Runtime *up_rt(lua_State *L) {
  return (lds_Runtime *)lua_touserdata(L, lua_upvalueindex(1));
}

static lds_RequestId check_id(lua_State *L, int arg) {
  return (lds_RequestId)luaL_checkinteger(L, arg);
}

/* Options table at idx -> params (over the values already in *p) and the
** layer weights resolved by name on grid g into w[16], by the binding's
** option parser (lds_lua_search_params). Returns NULL, or an error message
** pushed on the stack. */
static const char *opts_to_params(lua_State *L, int idx, const lds_Grid *g,
                                  lds_SearchParams *p, double *w) {
  return lds_lua_search_params(L, idx, g, p, w);
}

/* ------------------------------------------------------ host closures -- */

/* host.set_params(id, grid, opts) -> true | nil, msg */
static int h_set_params(lua_State *L) {
  lds_Runtime *rt = up_rt(L);
  lds_RequestId id = check_id(L, 1);
  lds_Grid *g = lds_lua_check_grid(L, 2);
  lds_SearchParams p;
  double w[16];
  const char *msg;
  lds_search_params_init(&p);
  luaL_checktype(L, 3, LUA_TTABLE);
  if ((msg = opts_to_params(L, 3, g, &p, w)) != NULL ||
      (lds_scheduler_set_params(rt->sc, id, &p) != LDS_OK &&
       (msg = lds_scheduler_errmsg(rt->sc)) != NULL)) {
    lua_pushnil(L);
    lua_pushstring(L, msg);
    return 2;
  }
  lua_pushboolean(L, 1);
  return 1;
}

static int h_status(lua_State *L) {
  lds_Runtime *rt = up_rt(L);
  lua_pushstring(L, lds_status_name(lds_scheduler_status(rt->sc, check_id(L, 1))));
  return 1;
}

/* host.clock() -> seconds on the runtime's env.clock: the mod manager's
** clock, so its time limit is the host's time. */
static int h_clock(lua_State *L) {
  lds_Runtime *rt = up_rt(L);
  lua_pushnumber(L, (lua_Number)rt->env.clock(rt->env.clock_ud) / 1e6);
  return 1;
}

/* host.lua_error(text): a Lua error of a request's on_done (the
** scheduler's on_error): logged at level 0 and counted in the tick. */
static int h_lua_error(lua_State *L) {
  lds_Runtime *rt = up_rt(L);
  rt_log(rt, 0, luaL_checkstring(L, 1));
  snprintf(rt->errmsg, sizeof rt->errmsg, "%s", lua_tostring(L, 1));
  rt->lua_errors++;
  return 0;
}

static int h_log(lua_State *L) {
  lds_Runtime *rt = up_rt(L);
  rt_log(rt, (int)luaL_checkinteger(L, 1), luaL_checkstring(L, 2));
  return 0;
}

/* host.mod_event(mod, result, ms, text, error, restarted) */
static int h_mod_event(lua_State *L) {
  lds_Runtime *rt = up_rt(L);
  lds_ModEvent ev;
  ev.mod = luaL_optstring(L, 1, "?");
  ev.result = luaL_optstring(L, 2, "?");
  ev.ms = luaL_optnumber(L, 3, 0.0);
  ev.text = luaL_optstring(L, 4, "");
  ev.error = lua_isnoneornil(L, 5) ? NULL : luaL_tolstring(L, 5, NULL);
  ev.restarted = (uint32_t)luaL_optinteger(L, 6, 0);
  if (ev.error == NULL) rt_log(rt, 2, ev.text); /* failures were logged by the manager */
  if (rt->cfg.on_mod_event) rt->cfg.on_mod_event(rt->cfg.mod_event_ud, &ev);
  return 0;
}

static const luaL_Reg host_funcs[] = {
    {"clock", h_clock},           {"log", h_log},             {"lua_error", h_lua_error},
    {"mod_event", h_mod_event},   {"set_params", h_set_params}, {"status", h_status},
    {NULL, NULL}};

/* ---------------------------------------------------------- lifetime -- */

void lds_runtime_config_init(lds_RuntimeConfig *cfg) {
  memset(cfg, 0, sizeof *cfg);
  lds_env_init(&cfg->env);
  lds_scheduler_config_init(&cfg->sched);
  cfg->poll_frames = 30;
  cfg->cell_limit = -1;
}

/* Protected part of lds_runtime_new: libraries, package.path, preload,
** the glue. Upvalue: the runtime; argument 1: the scripts dir. */
static int open_state(lua_State *L) {
  lds_Runtime *rt = up_rt(L);
  const char *dir = lua_tostring(L, 1);
  luaL_openlibs(L);
  lua_getglobal(L, "package");                      /* package */
  lua_pushfstring(L, "%s/?.lua;%s/?/init.lua;", dir, dir);
  lua_getfield(L, -2, "path");
  lua_concat(L, 2);
  lua_setfield(L, -2, "path");
  lua_getfield(L, -1, "preload");                   /* package, preload */
  lua_pushcfunction(L, luaopen_lodestar_core);
  lua_setfield(L, -2, "lodestar.core");
  lua_pop(L, 2);
  lua_getglobal(L, "require");
  lua_pushstring(L, "lodestar");
  lua_call(L, 1, 1);                                /* lodestar */
  lua_setglobal(L, "lodestar");
  /* the scheduler: a lodestar.Scheduler owns it, so Lua's requests and the
  ** host's C requests share one queue and one budget */
  rt->sc = lds_lua_new_scheduler(L, &rt->env, &rt->cfg.sched, &rt->sched_err);
  if (!rt->sc) return luaL_error(L, "%s", rt->sched_err.msg);
  lua_pushvalue(L, -1);
  rt->sched_ref = luaL_ref(L, LUA_REGISTRYINDEX);   /* sched */
  lua_getglobal(L, "require");
  lua_pushstring(L, "lodestar.runtime");
  lua_call(L, 1, 1);                                /* sched, setup */
  lua_newtable(L);                                  /* sched, setup, host */
  lua_pushlightuserdata(L, rt);
  luaL_setfuncs(L, host_funcs, 1);
  lua_pushvalue(L, -3);
  lua_setfield(L, -2, "scheduler");
  lua_call(L, 1, 1);                                /* sched, R */
  rt->glue_ref = luaL_ref(L, LUA_REGISTRYINDEX);
  return 0;
}

lds_Runtime *lds_runtime_new(const lds_RuntimeConfig *cfg_in, lds_Error *err) {
  lds_RuntimeConfig cfg;
  lds_Runtime *rt;
  lds_Alloc alloc;
  void *alloc_ud;
  lds_Error serr;
  if (err) {
    err->code = LDS_OK;
    err->msg[0] = '\0';
  }
  if (cfg_in)
    cfg = *cfg_in;
  else
    lds_runtime_config_init(&cfg);
  if (cfg.poll_frames < 1) {
    set_err(err, LDS_E_ARG, "lds_runtime_new: poll_frames 0 out of range (expected >= 1)");
    return NULL;
  }
  if (!(cfg.time_limit_ms >= 0 && cfg.time_limit_ms < 1e15)) { /* NaN fails too */
    set_err(err, LDS_E_ARG, "lds_runtime_new: time_limit_ms out of range (expected a finite "
                            "number >= 0; 0 = the default)");
    return NULL;
  }
  if (cfg.cell_limit < -1) {
    set_err(err, LDS_E_ARG, "lds_runtime_new: cell_limit out of range (expected >= 0, or -1 "
                            "for the default)");
    return NULL;
  }
  { /* the scheduler settings, checked before anything is made (the
    ** scheduler itself is made with the Lua state: a lodestar.Scheduler owns it) */
    lds_SchedulerConfig probe = cfg.sched;
    lds_Scheduler *t;
    probe.initial_capacity = 0;
    t = lds_scheduler_new(&cfg.env, &probe, &serr);
    if (!t) {
      set_err(err, serr.code, serr.msg);
      return NULL;
    }
    lds_scheduler_free(t);
  }
  alloc = cfg.env.alloc ? cfg.env.alloc : lds_alloc_default;
  alloc_ud = cfg.env.alloc ? cfg.env.alloc_ud : NULL;
  rt = (lds_Runtime *)alloc(alloc_ud, NULL, 0, sizeof *rt);
  if (!rt) {
    set_err(err, LDS_E_NOMEM, "lds_runtime_new: out of memory");
    return NULL;
  }
  memset(rt, 0, sizeof *rt);
  rt->cfg = cfg;
  rt->env = cfg.env;
  rt->env.alloc = alloc;
  rt->env.alloc_ud = alloc_ud;
  if (!rt->env.clock) rt->env.clock = lds_clock_default;
  rt->glue_ref = LUA_NOREF;
  rt->sched_ref = LUA_NOREF;
  rt->L = lua_newstate(lua_adapter, rt);
  if (!rt->L) {
    set_err(err, LDS_E_NOMEM, "lds_runtime_new: out of memory for the lua_State");
    lds_runtime_free(rt);
    return NULL;
  }
  lua_pushlightuserdata(rt->L, rt);
  lua_pushcclosure(rt->L, open_state, 1);
  lua_pushstring(rt->L, cfg.scripts_dir ? cfg.scripts_dir : LDS_SCRIPTS_DIR);
  if (rt_pcall(rt, 1, 0, "lds_runtime_new: loading the lodestar package") != 0) {
    if (rt->sched_err.code != LDS_OK) /* a scheduler setting: the caller's error */
      set_err(err, rt->sched_err.code, rt->sched_err.msg);
    else
      set_err(err, LDS_E_CALLBACK, rt->errmsg);
    lds_runtime_free(rt);
    return NULL;
  }
  if (cfg.mods_dir) {
    push_glue(rt, "start_mods");
    lua_pushstring(rt->L, cfg.mods_dir);
    if (cfg.instruction_limit)
      lua_pushinteger(rt->L, (lua_Integer)cfg.instruction_limit);
    else
      lua_pushnil(rt->L);
    lua_createtable(rt->L, 0, 3); /* the other limits; nil fields = the manager's defaults */
    if (cfg.time_limit_ms > 0) {
      lua_pushnumber(rt->L, cfg.time_limit_ms);
      lua_setfield(rt->L, -2, "time_limit_ms");
    }
    if (cfg.cell_limit >= 0) {
      lua_pushinteger(rt->L, (lua_Integer)cfg.cell_limit);
      lua_setfield(rt->L, -2, "cell_limit");
    }
    if (cfg.memory_limit_kb > 0) {
      lua_pushnumber(rt->L, (lua_Number)cfg.memory_limit_kb);
      lua_setfield(rt->L, -2, "memory_limit_kb");
    }
    if (rt_pcall(rt, 3, 0, "lds_runtime_new: mods") != 0) {
      set_err(err, LDS_E_ARG, rt->errmsg);
      lds_runtime_free(rt);
      return NULL;
    }
    rt->has_mods = true;
    lds_runtime_poll_mods(rt, NULL); /* first load; failures are logged, not fatal */
  }
  rt->lua_errors = 0;
  return rt;
}

void lds_runtime_free(lds_Runtime *rt) {
  if (!rt) return;
  if (rt->L) {
    if (rt->glue_ref != LUA_NOREF) {
      push_glue(rt, "close"); /* removes the mods' layers from the host's grids */
      rt_pcall(rt, 0, 0, "lds_runtime_free: closing the mods");
    }
    /* the scheduler goes with its lodestar.Scheduler: freed without calling
    ** any callback (C or Lua) */
    rt->sc = NULL;
    lua_close(rt->L);
  }
  if (rt->grids) rt->env.alloc(rt->env.alloc_ud, rt->grids, (size_t)rt->grid_cap * sizeof(RtGrid), 0);
  rt->env.alloc(rt->env.alloc_ud, rt, sizeof *rt, 0);
}

struct lua_State *lds_runtime_lua(lds_Runtime *rt) { return rt->L; }
lds_Scheduler *lds_runtime_scheduler(lds_Runtime *rt) { return rt->sc; }
const char *lds_runtime_errmsg(const lds_Runtime *rt) { return rt->errmsg; }
size_t lds_runtime_pending(const lds_Runtime *rt) { return lds_scheduler_pending(rt->sc); }

/* ------------------------------------------------------------- grids -- */

static const char *grid_name(const lds_Runtime *rt, const lds_Grid *g) {
  int i;
  for (i = 0; i < rt->ngrids; i++)
    if (rt->grids[i].g == g) return rt->grids[i].name;
  return NULL;
}

lds_Grid *lds_runtime_grid(const lds_Runtime *rt, const char *name) {
  int i;
  if (!name) return NULL;
  for (i = 0; i < rt->ngrids; i++)
    if (strcmp(rt->grids[i].name, name) == 0) return rt->grids[i].g;
  return NULL;
}

lds_Status lds_runtime_add_grid(lds_Runtime *rt, const char *name, lds_Grid *grid) {
  lds_Status st;
  size_t n;
  int top;
  if (rt->ticking) return rt_fail(rt, LDS_E_STATE, "lds_runtime_add_grid: called from a callback");
  if (!name || !grid) return rt_fail(rt, LDS_E_ARG, "lds_runtime_add_grid: NULL %s", name ? "grid" : "name");
  n = strlen(name);
  if (n < 1 || n > MAX_GRID_NAME)
    return rt_fail(rt, LDS_E_ARG, "lds_runtime_add_grid: name '%.80s' has %lu bytes (expected 1..%d)",
                   name, (unsigned long)n, MAX_GRID_NAME);
  if (lds_runtime_grid(rt, name))
    return rt_fail(rt, LDS_E_ARG, "lds_runtime_add_grid: a grid named '%s' was already added", name);
  if (grid_name(rt, grid))
    return rt_fail(rt, LDS_E_ARG, "lds_runtime_add_grid: grid %p was already added as '%s'",
                   (void *)grid, grid_name(rt, grid));
  if (rt->ngrids == rt->grid_cap) {
    int ncap = rt->grid_cap ? rt->grid_cap * 2 : 4;
    RtGrid *ng = (RtGrid *)rt->env.alloc(rt->env.alloc_ud, rt->grids,
                                         rt->grids ? (size_t)rt->grid_cap * sizeof(RtGrid) : 0,
                                         (size_t)ncap * sizeof(RtGrid));
    if (!ng) return rt_fail(rt, LDS_E_NOMEM, "lds_runtime_add_grid: out of memory");
    rt->grids = ng;
    rt->grid_cap = ncap;
  }
  top = lua_gettop(rt->L);
  lua_rawgeti(rt->L, LUA_REGISTRYINDEX, rt->sched_ref); /* sched */
  lds_lua_push_grid(rt->L, grid, 0); /* sched, grid: borrowed, never freed by Lua */
  st = lds_lua_scheduler_add_grid(rt->L, top + 1, top + 2, 0); /* the scheduler anchors it */
  if (st != LDS_OK) {
    lua_settop(rt->L, top);
    return rt_fail(rt, st, "%s", lds_scheduler_errmsg(rt->sc));
  }
  push_glue(rt, "add_grid");
  lua_pushstring(rt->L, name);
  lua_pushvalue(rt->L, top + 2);
  if (rt_pcall(rt, 2, 0, "lds_runtime_add_grid") != 0) {
    char msg[LDS_ERRMSG_SIZE];
    snprintf(msg, sizeof msg, "%s", rt->errmsg);
    lua_getfield(rt->L, top + 1, "remove_grid"); /* sched:remove_grid(grid) */
    lua_pushvalue(rt->L, top + 1);
    lua_pushvalue(rt->L, top + 2);
    rt_pcall(rt, 2, 0, "lds_runtime_add_grid: removing the grid again");
    snprintf(rt->errmsg, sizeof rt->errmsg, "%s", msg);
    lua_settop(rt->L, top);
    return LDS_E_CALLBACK; /* errmsg set by rt_pcall */
  }
  lua_settop(rt->L, top);
  snprintf(rt->grids[rt->ngrids].name, sizeof rt->grids[rt->ngrids].name, "%s", name);
  rt->grids[rt->ngrids].g = grid;
  rt->ngrids++;
  return LDS_OK;
}

/* ---------------------------------------------------------- requests -- */

/* "mod.profile" as the manager spells qualified names (mods.lua _lookup):
** [a-z][a-z0-9_]* twice, joined by one dot. */
static bool qualified_name(const char *s) {
  int part;
  for (part = 0; part < 2; part++) {
    if (!(*s >= 'a' && *s <= 'z')) return false;
    while ((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '_') s++;
    if (part == 0 && *s++ != '.') return false;
  }
  return *s == '\0';
}

/* errmsg = "FN: unknown profile 'NAME' (what exists)": the name once, then
** the profiles of the running mods, cut to fit with a pointer to
** lds_runtime_profiles when there are too many. A caller's error: not
** logged. */
static lds_Status unknown_profile(lds_Runtime *rt, const char *fn, const char *profile) {
  char list[1024], shown[160];
  size_t n = lds_runtime_profiles(rt, list, sizeof list), k = 0, len = 0;
  const char *p = list;
  shown[0] = '\0';
  while (k < n && *p) {
    const char *end = strchr(p, '\n');
    size_t w = end ? (size_t)(end - p) : strlen(p);
    if (len + (k ? 2 : 0) + w + 1 > sizeof shown) break;
    len += (size_t)snprintf(shown + len, sizeof shown - len, "%s%.*s", k ? ", " : "", (int)w, p);
    k++;
    p = end ? end + 1 : p + w;
  }
  if (n == 0)
    return rt_fail(rt, LDS_E_ARG, "%s: unknown profile '%.80s'%s (the running mods define no "
                   "profiles)", fn, profile, qualified_name(profile) ? "" : ", expected 'mod.profile'");
  return rt_fail(rt, LDS_E_ARG, "%s: unknown profile '%.80s' (%sprofiles: %s%s)", fn, profile,
                 qualified_name(profile) ? "" : "expected 'mod.profile'; ", shown,
                 k < n ? ", ...; lds_runtime_profiles lists them all" : "");
}

/* Pushes R.try_profile(profile) (the opts table); returns LDS_OK or an
** error with errmsg set and nothing pushed. */
static lds_Status push_profile(lds_Runtime *rt, const lds_Grid *grid, const char *profile,
                               const char *fn) {
  if (!rt->has_mods)
    return rt_fail(rt, LDS_E_STATE, "%s: profile '%.80s' but the runtime has no mods (set "
                   "mods_dir)", fn, profile ? profile : "(null)");
  if (!profile) return rt_fail(rt, LDS_E_ARG, "%s: profile is NULL", fn);
  if (!grid_name(rt, grid))
    return rt_fail(rt, LDS_E_ARG, "%s: grid %p was not added with lds_runtime_add_grid", fn,
                   (const void *)grid);
  /* a malformed name would make the manager raise (logged as a Lua error,
  ** with a traceback): it is the caller's error, worded as an unknown one */
  if (!qualified_name(profile)) return unknown_profile(rt, fn, profile);
  push_glue(rt, "try_profile");
  lua_pushstring(rt->L, profile);
  if (rt_pcall(rt, 1, 2, fn) != 0) return LDS_E_ARG; /* a Lua error: logged */
  if (lua_isnil(rt->L, -2)) { /* an unknown profile; its message repeats the name */
    lua_pop(rt->L, 2);
    return unknown_profile(rt, fn, profile);
  }
  lua_pop(rt->L, 1); /* the nil message: the opts table stays */
  return LDS_OK;
}

lds_Status lds_runtime_profile_params(lds_Runtime *rt, const lds_Grid *grid, const char *profile,
                                      lds_SearchParams *params, double *weights) {
  lua_State *L = rt->L;
  int top = lua_gettop(L);
  const char *msg;
  lds_Status st = push_profile(rt, grid, profile, "lds_runtime_profile_params");
  if (st != LDS_OK) return st;
  if ((msg = opts_to_params(L, -1, grid, params, weights)) != NULL) {
    rt_fail(rt, LDS_E_ARG, "lds_runtime_profile_params: profile '%.80s': %s", profile, msg);
    lua_settop(L, top);
    return LDS_E_ARG;
  }
  lua_settop(L, top);
  return LDS_OK;
}

size_t lds_runtime_profiles(lds_Runtime *rt, char *buf, size_t size) {
  lua_State *L = rt->L;
  int top = lua_gettop(L);
  size_t count = 0, len = 0;
  if (size > 0) buf[0] = '\0';
  if (!rt->has_mods) return 0;
  lua_getglobal(L, "lodestar");
  lua_getfield(L, -1, "mods");        /* lodestar, manager */
  lua_getfield(L, -1, "list");
  lua_pushvalue(L, -2);
  if (rt_pcall(rt, 1, 1, "lds_runtime_profiles") != 0) {
    lua_settop(L, top);
    return 0;
  }
  {
    int i, j, nm = (int)lua_rawlen(L, -1);
    for (i = 1; i <= nm; i++) {
      lua_rawgeti(L, -1, i);          /* ..., list, entry */
      lua_getfield(L, -1, "profiles");
      for (j = 1; j <= (int)lua_rawlen(L, -1); j++) {
        const char *name;
        lua_rawgeti(L, -1, j);
        name = lua_tostring(L, -1);
        if (name && size > 0) {
          int w = snprintf(buf + len, size - len, "%s%s", count ? "\n" : "", name);
          if (w > 0) len = len + (size_t)w < size ? len + (size_t)w : size - 1;
        }
        count++;
        lua_pop(L, 1);
      }
      lua_pop(L, 2);
    }
  }
  lua_settop(L, top);
  return count;
}

lds_Status lds_runtime_submit(lds_Runtime *rt, const lds_Request *rq, const char *profile,
                              lds_RequestId *id) {
  lua_State *L = rt->L;
  lds_Request r;
  double w[16];
  const char *msg;
  int top = lua_gettop(L);
  lds_Status st;
  if (id) *id = 0;
  if (!rq) return rt_fail(rt, LDS_E_ARG, "lds_runtime_submit: request is NULL");
  if (!profile) {
    st = lds_scheduler_submit(rt->sc, rq, id);
    if (st != LDS_OK) rt_fail(rt, st, "%s", lds_scheduler_errmsg(rt->sc));
    return st;
  }
  st = push_profile(rt, rq->grid, profile, "lds_runtime_submit");
  if (st != LDS_OK) return st;
  r = *rq;
  if ((msg = opts_to_params(L, -1, rq->grid, &r.params, w)) != NULL) {
    rt_fail(rt, LDS_E_ARG, "lds_runtime_submit: profile '%.80s': %s", profile, msg);
    lua_settop(L, top);
    return LDS_E_ARG;
  }
  st = lds_scheduler_submit(rt->sc, &r, id);
  if (st != LDS_OK) {
    rt_fail(rt, st, "%s", lds_scheduler_errmsg(rt->sc));
    lua_settop(L, top);
    return st;
  }
  push_glue(rt, "track");                         /* opts, track */
  lua_pushinteger(L, (lua_Integer)*id);
  lua_getglobal(L, "lodestar");
  lua_getfield(L, -1, "grids");
  lua_getfield(L, -1, grid_name(rt, rq->grid));   /* opts, track, id, lodestar, grids, grid */
  lua_replace(L, -3);
  lua_pop(L, 1);                                  /* opts, track, id, grid */
  lua_pushstring(L, profile);
  lua_pushvalue(L, top + 1);
  rt_pcall(rt, 4, 0, "lds_runtime_submit: track");
  lua_settop(L, top);
  return LDS_OK;
}

/* ------------------------------------------------------------ frames -- */

int lds_runtime_poll_mods(lds_Runtime *rt, uint32_t *restarted) {
  int n;
  if (restarted) *restarted = 0;
  if (!rt->has_mods) return rt_fail(rt, LDS_E_STATE, "lds_runtime_poll_mods: no mods (set mods_dir)");
  push_glue(rt, "poll");
  if (rt_pcall(rt, 0, 2, "mods poll") != 0) return LDS_E_CALLBACK;
  n = (int)lua_tointeger(rt->L, -2);
  if (restarted) *restarted = (uint32_t)lua_tointeger(rt->L, -1);
  lua_pop(rt->L, 2);
  return n;
}

lds_Status lds_runtime_tick(lds_Runtime *rt, uint64_t budget_us, lds_RuntimeStats *stats) {
  lds_RuntimeStats s;
  lds_Status st;
  memset(&s, 0, sizeof s);
  if (rt->ticking) return rt_fail(rt, LDS_E_STATE, "lds_runtime_tick: called from a callback");
  rt->ticking = true;
  rt->lua_errors = 0;
  if (rt->has_mods && rt->cfg.watch && lds_scheduler_frame(rt->sc) % rt->cfg.poll_frames == 0 &&
      lds_scheduler_frame(rt->sc) > 0) {
    uint64_t t0 = rt->env.clock(rt->env.clock_ud);
    int n = lds_runtime_poll_mods(rt, &s.restarted);
    s.polled = true;
    s.mod_events = n > 0 ? (uint32_t)n : 0;
    s.poll_us = rt->env.clock(rt->env.clock_ud) - t0;
  }
  {
    /* the scheduler's step, then the Lua requests' callbacks (their errors
    ** reach host.lua_error through the scheduler's on_error) */
    lds_Budget b = {0, budget_us};
    const char *msg;
    lua_rawgeti(rt->L, LUA_REGISTRYINDEX, rt->sched_ref);
    msg = lds_lua_scheduler_step(rt->L, -1, &b, &s.tick);
    if (msg) {
      snprintf(rt->errmsg, sizeof rt->errmsg, "lds_runtime_tick: %s", msg);
      rt_log(rt, 0, rt->errmsg);
      rt->lua_errors++;
      lua_pop(rt->L, 1);
    }
    lua_pop(rt->L, 1);
  }
  st = LDS_OK;
  s.lua_errors = rt->lua_errors;
  rt->ticking = false;
  if (stats) *stats = s;
  return st;
}

lds_Status lds_runtime_dostring(lds_Runtime *rt, const char *code, const char *chunkname) {
  if (!code) return rt_fail(rt, LDS_E_ARG, "lds_runtime_dostring: code is NULL");
  if (luaL_loadbuffer(rt->L, code, strlen(code), chunkname ? chunkname : "=(runtime)") != 0) {
    rt_fail(rt, LDS_E_FORMAT, "%s", lua_tostring(rt->L, -1));
    rt_log(rt, 0, rt->errmsg);
    lua_pop(rt->L, 1);
    return LDS_E_FORMAT;
  }
  return rt_pcall(rt, 0, 0, chunkname ? chunkname : "lds_runtime_dostring") == 0 ? LDS_OK
                                                                                  : LDS_E_CALLBACK;
}
