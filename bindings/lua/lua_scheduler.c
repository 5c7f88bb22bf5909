/* SPDX-License-Identifier: MIT */
/*
** lua_scheduler.c — lodestar.Scheduler and lodestar.Request: the C scheduler
** (core/lds_scheduler.h) for Lua 5.4 and LuaJIT, and the C entry points the
** embedding runtime drives it through (lodestar_lua.h).
**
**   local sched = lodestar.scheduler.new{deterministic = true}
**   sched:add_grid(grid)
**   sched:profile("tank", {weights = {mud = 4}, heuristic = "octile"})
**   local req = sched:request{from = {1, 1}, to = {40, 30}, profile = "tank",
**     priority = 2, agent = 17, on_done = function(req) ... end}
**   ... once a frame:  local tick = sched:step(1000)     -- 1000 µs
**   req:status(), req:path(), req:partial_path(), req:release()
**
** Callbacks never run inside the C tick: the scheduler's C callback only
** links the request's box into the scheduler box's event list (no Lua call,
** no allocation); after lds_scheduler_step returns, dispatch() calls the Lua
** on_partial / on_done functions in the order the scheduler delivered the
** events, each under lua_pcall with a traceback. An error is handed to the
** scheduler's on_error, or, without one, raised by step once every event was
** delivered, so the scheduler is never left half-way through a frame.
**
** Lifetimes (STYLE 14 boxes; see lua_util.h):
**   Scheduler user value: [1] grids added (grid userdata -> true; each also
**     counts in its GridBox's nsearch, so grid:free() keeps the core grid),
**     [2] live requests (handle -> request userdata): a request whose slot is
**     pending, or whose events are queued, is anchored here, so a fire-and-
**     forget request with on_done reaches its callback; [3] profiles (name ->
**     {opts = normalised options, quick = n}); [4] on_error; [5] watched
**     requests (handle -> request userdata, weak values): how a broken
**     watched path finds its Lua object after delivery, when the object is
**     the caller's and no longer in [2]; [6] hierarchies its requests named
**     (userdata -> box, ldsl_hpa_use); [7] meshes added (userdata -> box,
**     ldsl_navmesh_use: mesh:free() keeps the core mesh while the
**     scheduler's searches run on it).
**   Request user value: [1] its scheduler userdata (the SchedBox stays valid
**     while any request object lives), [2] on_done, [3] the normalised
**     options (weights: the delivered path remembers them), [4] the Lua path
**     (made once), [5] the Lua quick partial path, [6] on_partial, [7] the
**     profile name, [8] the grid userdata, [9] the request's own search
**     keys (what a redefined profile is merged under), [10] on_broken; for
**     a mesh request (opts.mesh) [3] is a copy of its mesh options, [4]
**     the path table (mesh:find_path's shape) and [8] the mesh userdata.
**
** Watched paths (opts.watch): the core calls its watch callback from inside
** the grid edit that broke the path (lds_grid_set_blocked... under
** grid:set_blocked), in the middle of the grid's listener loop. No Lua runs
** there: a Lua error would unwind through the core's listeners and leave
** the other listeners (cost views, other schedulers) without the edit, and
** the edit may come from another coroutine than the one that made the
** scheduler. The C callback (on_watch) only records the broken cell and
** reason in the request's box (req:broken() reads them at once) and links
** the box into the event list; the Lua on_broken runs at the start of the
** next sched:step (before its tick, so before the replan's on_done),
** at sched:deliver(), or, for an edit made inside one of the scheduler's
** callbacks, right after that callback returns.
** A request keeps its C slot until req:release() or its collection, so the
** C handle stays valid after delivery (a watched path can hang off it). A
** released request raises "attempt to use a released lodestar.Request"; a
** request of a freed scheduler raises too; neither can reach freed memory.
*/
#include "lua_util.h"
#include "lds_scheduler.h"

#define REQ_MT LDS_REQUEST_MT

enum { RQ_PENDING = 0, RQ_DONE = 1, RQ_CANCELLED = 2, RQ_RELEASED = 3 };
enum { EV_PARTIAL = 1, EV_DONE = 2, EV_BROKEN = 4 };

typedef struct ReqBox ReqBox;

typedef struct SchedBox {
  lds_Scheduler *sc;
  int owned;        /* the box frees sc (set once lds_scheduler_new succeeded) */
  int dispatching;  /* Lua callbacks of a step are running */
  int stepping;     /* inside lds_scheduler_step */
  ReqBox *ev_head, *ev_tail; /* requests with events to deliver, in order */
  uint32_t cb_errors;        /* Lua callback errors of the current step */
} SchedBox;

struct ReqBox {
  SchedBox *sb;     /* valid while this box lives: uv[1] anchors it */
  lds_RequestId id;
  int state;        /* RQ_* */
  unsigned ev;      /* EV_* bits waiting for dispatch */
  int queued;       /* linked in sb's event list */
  ReqBox *prev, *next;
  lds_Path *quick;  /* the quick partial path, taken from the slot at its event */
  const lds_Grid *grid;
  uint32_t policy;  /* the caller's LDS_WATCH_* bits (0: not watched) */
  int broken;       /* a break was recorded (bx, by, why valid) */
  int32_t bx, by;   /* first broken cell of the last break [Units: cells] */
  lds_WatchReason why;
  int hier;         /* answered through a lodestar.Hierarchy (opts.hierarchy) */
  int nav;          /* a mesh request (opts.mesh, lds_scheduler_submit_nav) */
};

/* ------------------------------------------------------------ boxes -- */

static SchedBox *check_schedbox(lua_State *L, int arg) {
  SchedBox *b = (SchedBox *)luaL_testudata(L, arg, LDS_SCHEDULER_MT);
  if (!b) ldsl_type_error(L, arg, LDS_SCHEDULER_MT);
  return b;
}

static SchedBox *check_sched(lua_State *L, int arg) {
  SchedBox *b = check_schedbox(L, arg);
  if (!b->sc) luaL_error(L, "attempt to use a freed %s", LDS_SCHEDULER_MT);
  return b;
}

static ReqBox *check_reqbox(lua_State *L, int arg) {
  ReqBox *r = (ReqBox *)luaL_testudata(L, arg, REQ_MT);
  if (!r) ldsl_type_error(L, arg, REQ_MT);
  return r;
}

/* A request whose slot still exists (not released; scheduler not freed). */
static ReqBox *check_req(lua_State *L, int arg) {
  ReqBox *r = check_reqbox(L, arg);
  if (r->state == RQ_RELEASED) luaL_error(L, "attempt to use a released %s", REQ_MT);
  if (!r->sb || !r->sb->sc)
    luaL_error(L, "attempt to use a %s of a freed %s", REQ_MT, LDS_SCHEDULER_MT);
  return r;
}

static void ev_unlink(ReqBox *r) {
  SchedBox *sb = r->sb;
  if (!r->queued) return;
  if (r->prev) r->prev->next = r->next; else sb->ev_head = r->next;
  if (r->next) r->next->prev = r->prev; else sb->ev_tail = r->prev;
  r->prev = r->next = NULL;
  r->queued = 0;
  r->ev = 0;
}

/* The scheduler's callback of every Lua request (inside the C tick): notes
** the event; the Lua side runs in dispatch(). For a quick partial path the
** path is taken out of the slot now, so lds_scheduler_path gives only the
** final path later. */
static lds_Status on_event(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                           const lds_RequestInfo *info) {
  ReqBox *r = (ReqBox *)ud;
  SchedBox *sb = r->sb;
  (void)info;
  if (!sb || sb->sc != sc || r->id != id) return LDS_OK;
  if (ev == LDS_EVENT_PARTIAL) {
    lds_path_free(r->quick);
    r->quick = lds_scheduler_take_path(sc, id);
    r->ev |= EV_PARTIAL;
  } else {
    r->state = RQ_DONE;
    r->ev |= EV_DONE;
  }
  if (!r->queued) {
    r->queued = 1;
    r->prev = sb->ev_tail;
    r->next = NULL;
    if (sb->ev_tail) sb->ev_tail->next = r; else sb->ev_head = r;
    sb->ev_tail = r;
  }
  return LDS_OK;
}

/* The core's watch callback of every watched Lua request, from inside the
** grid edit that broke the path: records the break and queues the event
** (no Lua call; see the header comment). The core calls it with both
** policy bits' work done: a replan is already queued, so the request is
** pending again. */
static lds_Status on_watch(void *ud, lds_Scheduler *sc, lds_RequestId id, int32_t x, int32_t y,
                           lds_WatchReason why) {
  ReqBox *r = (ReqBox *)ud;
  SchedBox *sb = r->sb;
  if (!sb || sb->sc != sc || r->id != id || r->state == RQ_RELEASED) return LDS_OK;
  r->broken = 1;
  r->bx = x;
  r->by = y;
  r->why = why;
  if (r->policy & LDS_WATCH_REPLAN) r->state = RQ_PENDING;
  r->ev |= EV_BROKEN;
  if (!r->queued) {
    r->queued = 1;
    r->prev = sb->ev_tail;
    r->next = NULL;
    if (sb->ev_tail) sb->ev_tail->next = r; else sb->ev_head = r;
    sb->ev_tail = r;
  }
  return LDS_OK;
}

/* Pushes the table sched_uv[i] of the scheduler at si. */
static void push_suv(lua_State *L, int si, int i) {
  lds_getuv(L, si);
  lua_rawgeti(L, -1, i);
  lua_remove(L, -2);
}

/* Pushes request_uv[i] of the request at ri. */
static void push_ruv(lua_State *L, int ri, int i) {
  lds_getuv(L, ri);
  lua_rawgeti(L, -1, i);
  lua_remove(L, -2);
}

/* request_uv[i] = top (popped). */
static void set_ruv(lua_State *L, int ri, int i) {
  lds_getuv(L, ri);
  lua_insert(L, -2);
  lua_rawseti(L, -2, i);
  lua_pop(L, 1);
}

/* live[id] = top (popped; nil un-anchors) for the scheduler at si. */
static void set_live(lua_State *L, int si, lds_RequestId id) {
  push_suv(L, si, 2);     /* v, live */
  ldsl_push_u64(L, id);   /* v, live, id */
  lua_pushvalue(L, -3);
  lua_rawset(L, -3);
  lua_pop(L, 2);
}

/* Frees the request's C side (slot, quick path); idempotent. */
static void req_drop(ReqBox *r) {
  if (r->sb) ev_unlink(r);
  if (r->sb && r->sb->sc && r->state != RQ_RELEASED && r->state != RQ_CANCELLED)
    lds_scheduler_release(r->sb->sc, r->id);
  lds_path_free(r->quick);
  r->quick = NULL;
  r->state = RQ_RELEASED;
}

static int req_gc(lua_State *L) {
  req_drop((ReqBox *)lua_touserdata(L, 1));
  return 0;
}

/* For the scheduler user value table at the top: calls unuse on every box
** (the values) of its table [slot] (the hierarchies or the meshes, userdata
** -> box), then replaces that table with an empty one. Stack unchanged. */
static void unuse_all(lua_State *L, int slot, void (*unuse)(void *box)) {
  lua_rawgeti(L, -1, slot);
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_pushnil(L);
    while (lua_next(L, -2)) {
      unuse(lua_touserdata(L, -1));
      lua_pop(L, 1);
    }
  }
  lua_pop(L, 1);
  lua_newtable(L);
  lua_rawseti(L, -2, slot);
}

/* Frees the scheduler's C side: requests are dropped without callbacks, the
** grids are let go. Idempotent. The box at si. */
static void sched_release(lua_State *L, SchedBox *b, int si) {
  ReqBox *r;
  if (!b->sc) return;
  for (r = b->ev_head; r;) { /* queued boxes: the list dies with the scheduler */
    ReqBox *n = r->next;
    r->prev = r->next = NULL;
    r->queued = 0;
    r->ev = 0;
    r = n;
  }
  b->ev_head = b->ev_tail = NULL;
  if (b->owned) lds_scheduler_free(b->sc);
  /* the hierarchies' queries are freed with an owned scheduler: one user
  ** fewer each; a host's scheduler lives on and may still run them, so its
  ** hierarchies are kept (their boxes stay used) */
  lds_getuv(L, si);
  if (lua_type(L, -1) == LUA_TTABLE && b->owned) {
    unuse_all(L, 6, ldsl_hpa_unuse);
    unuse_all(L, 7, ldsl_navmesh_unuse); /* the meshes: the searches on them are freed */
  }
  lua_pop(L, 1);
  b->sc = NULL;
  /* the grids' boxes: one use fewer each */
  lds_getuv(L, si);
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_rawgeti(L, -1, 1);
    if (lua_type(L, -1) == LUA_TTABLE) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        GridBox *gb = (GridBox *)luaL_testudata(L, -2, LDS_GRID_MT);
        if (gb) {
          gb->nsearch--;
          if (gb->closed) ldsl_space_release(gb);
        }
        lua_pop(L, 1);
      }
    }
    lua_pop(L, 1);
    /* un-anchor everything: the requests see a freed scheduler */
    lua_newtable(L);
    lua_rawseti(L, -2, 1);
    lua_newtable(L);
    lua_rawseti(L, -2, 2);
  }
  lua_pop(L, 1);
}

static int sched_gc(lua_State *L) {
  SchedBox *b = (SchedBox *)lua_touserdata(L, 1);
  sched_release(L, b, 1);
  return 0;
}

/* sched:free(): frees the scheduler now (pending requests dropped without
** callbacks; their objects raise afterwards). Refused from a callback. */
static int sched_free(lua_State *L) {
  SchedBox *b = check_schedbox(L, 1);
  if (b->dispatching || b->stepping)
    return luaL_error(L, "%s: cannot free the scheduler from one of its callbacks",
                      LDS_SCHEDULER_MT);
  sched_release(L, b, 1);
  return 0;
}

static int sched_tostring(lua_State *L) {
  SchedBox *b = check_schedbox(L, 1);
  if (!b->sc)
    lua_pushfstring(L, "%s (freed)", LDS_SCHEDULER_MT);
  else
    lua_pushfstring(L, "%s frame %d, %d pending (%p)", LDS_SCHEDULER_MT,
                    (int)lds_scheduler_frame(b->sc), (int)lds_scheduler_pending(b->sc), (void *)b);
  return 1;
}

/* ------------------------------------------------------------ create -- */

static const char *const config_keys[] = {"aging_frames", "check_us", "deterministic",
                                          "expansions_per_us", "initial_capacity", "initial_rate",
                                          "max_restarts", "on_error", "quick_share",
                                          "searches_per_grid", NULL};

/* An integer option >= 0 of opts at arg (nil: def). */
static double opt_uint(lua_State *L, int arg, const char *name, double def, double max) {
  double v;
  lua_getfield(L, arg, name);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return def;
  }
  if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, arg, name, "integer");
  v = lua_tonumber(L, -1);
  if (v != floor(v) || v < 0 || v > max) {
    char buf[64], mb[64];
    ldsl_opt_error(L, arg, name, lua_pushfstring(L, "%s out of range (expected an integer 0..%s)",
                                                 ldsl_fmt_num(buf, sizeof buf, v),
                                                 ldsl_fmt_num(mb, sizeof mb, max)));
  }
  lua_pop(L, 1);
  return v;
}

static double opt_num(lua_State *L, int arg, const char *name, double def) {
  double v;
  lua_getfield(L, arg, name);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return def;
  }
  if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, arg, name, "number");
  v = lua_tonumber(L, -1);
  lua_pop(L, 1);
  return v;
}

/* Reads the scheduler options at arg (nil or a table) into *cfg. */
static void read_config(lua_State *L, int arg, lds_SchedulerConfig *cfg) {
  lds_scheduler_config_init(cfg);
  if (lua_isnoneornil(L, arg)) return;
  ldsl_check_table(L, arg);
  ldsl_check_keys(L, arg, "option", "opts keys must be strings", config_keys, NULL);
  cfg->searches_per_grid = (int)opt_uint(L, arg, "searches_per_grid", cfg->searches_per_grid, 1e9);
  cfg->aging_frames = (uint32_t)opt_uint(L, arg, "aging_frames", cfg->aging_frames, 4294967295.0);
  cfg->max_restarts = (uint32_t)opt_uint(L, arg, "max_restarts", cfg->max_restarts, 4294967295.0);
  cfg->expansions_per_us =
      (uint32_t)opt_uint(L, arg, "expansions_per_us", cfg->expansions_per_us, 4294967295.0);
  cfg->check_us = (uint32_t)opt_uint(L, arg, "check_us", cfg->check_us, 4294967295.0);
  cfg->initial_capacity =
      (uint32_t)opt_uint(L, arg, "initial_capacity", cfg->initial_capacity, 4294967295.0);
  cfg->initial_rate = opt_num(L, arg, "initial_rate", cfg->initial_rate);
  cfg->quick_share = opt_num(L, arg, "quick_share", cfg->quick_share);
  cfg->deterministic = ldsl_opt_boolean(L, arg, "deterministic", 0);
  lua_getfield(L, arg, "on_error");
  if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TFUNCTION)
    ldsl_opt_type_error(L, arg, "on_error", "function");
  lua_pop(L, 1);
}

/* Pushes a new scheduler box (owned = 0, sc NULL) with its user value; the
** on_error of opts at oi (0: none) is stored. */
static SchedBox *new_schedbox(lua_State *L, int oi) {
  SchedBox *b = (SchedBox *)lds_newudata(L, sizeof(SchedBox));
  memset(b, 0, sizeof *b);
  luaL_setmetatable(L, LDS_SCHEDULER_MT);
  lua_createtable(L, 5, 0);
  lua_newtable(L);
  lua_rawseti(L, -2, 1);
  lua_newtable(L);
  lua_rawseti(L, -2, 2);
  lua_newtable(L);
  lua_rawseti(L, -2, 3);
  if (oi) {
    lua_getfield(L, oi, "on_error");
    lua_rawseti(L, -2, 4);
  }
  lua_newtable(L); /* [6] hierarchies its requests named: userdata -> box (ldsl_hpa_use) */
  lua_rawseti(L, -2, 6);
  lua_newtable(L); /* [7] meshes added: userdata -> box (ldsl_navmesh_use) */
  lua_rawseti(L, -2, 7);
  lua_newtable(L); /* [5] watched requests, weak values */
  lua_createtable(L, 0, 1);
  lua_pushliteral(L, "v");
  lua_setfield(L, -2, "__mode");
  lua_setmetatable(L, -2);
  lua_rawseti(L, -2, 5);
  lds_setuv(L, -2);
  return b;
}

/* lodestar.scheduler.new([opts]) -> lodestar.Scheduler. opts: the fields of
** lds_SchedulerConfig (searches_per_grid, aging_frames, max_restarts,
** deterministic, expansions_per_us, check_us, initial_rate, quick_share,
** initial_capacity) and on_error = function(message, request, traceback). */
static int sched_new(lua_State *L) {
  lds_SchedulerConfig cfg;
  lds_Env env = ldsl_lua_env(L);
  lds_Error err;
  SchedBox *b;
  lua_settop(L, 1);
  read_config(L, 1, &cfg);
  b = new_schedbox(L, lua_isnil(L, 1) ? 0 : 1);
  b->sc = lds_scheduler_new(&env, &cfg, &err);
  if (!b->sc) {
    const char *m = err.msg, *sp;
    if (err.code != LDS_E_ARG) return luaL_error(L, "%s", m);
    /* "lds_scheduler_new: NAME rest" -> "opts.NAME: rest" */
    if (strncmp(m, "lds_scheduler_new: ", 19) == 0 && (sp = strchr(m + 19, ' ')) != NULL) {
      lua_pushlstring(L, m + 19, (size_t)(sp - m - 19));
      return ldsl_arg_error(L, 1, lua_pushfstring(L, "opts.%s: %s", lua_tostring(L, -1), sp + 1));
    }
    return ldsl_arg_error(L, 1, m);
  }
  b->owned = 1;
  return 1;
}

lds_Scheduler *lds_lua_new_scheduler(lua_State *L, const lds_Env *env,
                                     const lds_SchedulerConfig *cfg, lds_Error *err) {
  SchedBox *b = new_schedbox(L, 0);
  b->sc = lds_scheduler_new(env, cfg, err);
  if (!b->sc) {
    lua_pop(L, 1);
    return NULL;
  }
  b->owned = 1;
  return b->sc;
}

/* ------------------------------------------------------------- grids -- */

/* The binding's add_grid: the core call, then the anchors. Returns the
** core status (message in lds_scheduler_errmsg); never raises but for a
** Lua memory error (then the core grid was not added). si, gi absolute. */
static lds_Status add_grid(lua_State *L, SchedBox *b, int si, int gi, int n) {
  GridBox *gb = ldsl_check_gridbox(L, gi);
  lds_Status st;
  push_suv(L, si, 1); /* grids */
  lua_pushvalue(L, gi);
  lua_rawget(L, -2);
  if (!lua_isnil(L, -1)) { /* added before: the core says so, the anchor stays */
    lua_pop(L, 2);
    return lds_scheduler_add_grid(b->sc, (const lds_Grid *)gb->g, n);
  }
  lua_pop(L, 1);
  lua_pushvalue(L, gi);
  lua_pushboolean(L, 1);
  lua_rawset(L, -3); /* may raise (memory) before the core knows the grid */
  st = lds_scheduler_add_grid(b->sc, (const lds_Grid *)gb->g, n);
  if (st != LDS_OK) {
    lua_pushvalue(L, gi);
    lua_pushnil(L);
    lua_rawset(L, -3);
  } else {
    gb->nsearch++;
  }
  lua_pop(L, 1);
  return st;
}

/* sched:add_grid(grid [, n_searches]) -> sched. Allocates the grid's
** searches (n_searches requests in progress at once; default the
** scheduler's searches_per_grid). The scheduler keeps the grid alive. */
static int sched_add_grid(lua_State *L) {
  SchedBox *b = check_sched(L, 1);
  lds_Status st;
  double n;
  ldsl_check_grid(L, 2);
  n = ldsl_opt_int(L, 3, 0);
  if (n < 0 || n > 64) return ldsl_arg_error(L, 3, "n_searches out of range (expected 0..64)");
  lua_settop(L, 2);
  st = add_grid(L, b, 1, 2, (int)n);
  if (st == LDS_E_ARG) return ldsl_arg_error(L, 2, lds_scheduler_errmsg(b->sc));
  if (st != LDS_OK) return luaL_error(L, "%s", lds_scheduler_errmsg(b->sc));
  lua_settop(L, 1);
  return 1;
}

lds_Status lds_lua_scheduler_add_grid(lua_State *L, int sidx, int gidx, int n_searches) {
  SchedBox *b = (SchedBox *)luaL_testudata(L, sidx, LDS_SCHEDULER_MT);
  if (!b || !b->sc || !luaL_testudata(L, gidx, LDS_GRID_MT)) return LDS_E_ARG;
  if (sidx < 0 && sidx > LUA_REGISTRYINDEX) sidx = lua_gettop(L) + sidx + 1;
  if (gidx < 0 && gidx > LUA_REGISTRYINDEX) gidx = lua_gettop(L) + gidx + 1;
  return add_grid(L, b, sidx, gidx, n_searches);
}

static void dispatch(lua_State *L, SchedBox *b, int si);

/* sched:remove_grid(grid) -> sched. Its pending requests end with status
** "state" (their on_done run), its searches are freed, the grid let go. */
static int sched_remove_grid(lua_State *L) {
  SchedBox *b = check_sched(L, 1);
  GridBox *gb = ldsl_check_gridbox(L, 2);
  lds_Status st;
  if (b->dispatching) return luaL_error(L, "%s: cannot remove a grid from a callback", LDS_SCHEDULER_MT);
  lua_settop(L, 2);
  push_suv(L, 1, 1); /* grids */
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  if (lua_isnil(L, -1)) return ldsl_arg_error(L, 2, "grid was not added to this scheduler");
  lua_pop(L, 1);
  st = lds_scheduler_remove_grid(b->sc, (const lds_Grid *)gb->g);
  if (st != LDS_OK) return luaL_error(L, "%s", lds_scheduler_errmsg(b->sc));
  lua_pushvalue(L, 2);
  lua_pushnil(L);
  lua_rawset(L, -3);
  gb->nsearch--;
  if (gb->closed) ldsl_space_release(gb);
  lua_settop(L, 2);
  dispatch(L, b, 1);
  lua_settop(L, 1);
  return 1;
}

/* sched:add_mesh(mesh [, n_searches]) -> sched. Allocates the mesh's
** searches (n_searches mesh requests in progress at once; default the
** scheduler's searches_per_grid). The scheduler keeps the mesh alive:
** mesh:free() frees the core mesh when the scheduler lets it go. */
static int sched_add_mesh(lua_State *L) {
  SchedBox *b = check_sched(L, 1);
  lds_Navmesh *m;
  lds_Status st;
  void *box;
  double n;
  if (!luaL_testudata(L, 2, LDS_NAVMESH_MT)) return ldsl_type_error(L, 2, LDS_NAVMESH_MT);
  m = ldsl_navmesh_check(L, 2);
  n = ldsl_opt_int(L, 3, 0);
  if (n < 0 || n > 64) return ldsl_arg_error(L, 3, "n_searches out of range (expected 0..64)");
  if (b->dispatching || b->stepping)
    return luaL_error(L, "%s: cannot add a mesh from a callback", LDS_SCHEDULER_MT);
  lua_settop(L, 2);
  push_suv(L, 1, 7); /* 3: meshes */
  lua_pushvalue(L, 2);
  lua_rawget(L, 3);
  if (!lua_isnil(L, -1)) return ldsl_arg_error(L, 2, "mesh already added to this scheduler");
  lua_pop(L, 1);
  st = lds_scheduler_add_navmesh(b->sc, m, (int)n);
  if (st == LDS_E_ARG) return ldsl_arg_error(L, 2, lds_scheduler_errmsg(b->sc));
  if (st != LDS_OK) return luaL_error(L, "%s", lds_scheduler_errmsg(b->sc));
  ldsl_navmesh_use(L, 2, &box);
  lua_pushvalue(L, 2);
  lua_pushlightuserdata(L, box);
  lua_rawset(L, 3);
  lua_settop(L, 1);
  return 1;
}

/* sched:remove_mesh(mesh) -> sched. Its pending requests end with status
** "state" (their on_done run), its searches are freed, the mesh let go. */
static int sched_remove_mesh(lua_State *L) {
  SchedBox *b = check_sched(L, 1);
  lds_Status st;
  void *box;
  if (!luaL_testudata(L, 2, LDS_NAVMESH_MT)) return ldsl_type_error(L, 2, LDS_NAVMESH_MT);
  if (b->dispatching) return luaL_error(L, "%s: cannot remove a mesh from a callback", LDS_SCHEDULER_MT);
  lua_settop(L, 2);
  push_suv(L, 1, 7);
  lua_pushvalue(L, 2);
  lua_rawget(L, -2);
  if (lua_isnil(L, -1)) return ldsl_arg_error(L, 2, "mesh was not added to this scheduler");
  box = lua_touserdata(L, -1);
  lua_pop(L, 1);
  st = lds_scheduler_remove_navmesh(b->sc, ldsl_navmesh_check(L, 2));
  if (st != LDS_OK) return luaL_error(L, "%s", lds_scheduler_errmsg(b->sc));
  lua_pushvalue(L, 2);
  lua_pushnil(L);
  lua_rawset(L, -3);
  ldsl_navmesh_unuse(box);
  lua_settop(L, 2);
  dispatch(L, b, 1);
  lua_settop(L, 1);
  return 1;
}

/* --------------------------------------------------------- options -- */

/* Search options a request or a profile may set (find_path's, checked by
** its parser); quick is the scheduler's own. */
static const char *const search_keys[] = {"algorithm", "cost", "h_scale", "heuristic", "partial",
                                          "weight", "weights", NULL};
static const char *const profile_keys[] = {"algorithm", "cost", "h_scale", "heuristic", "partial",
                                           "quick", "weight", "weights", NULL};
static const char *const request_keys[] = {
    "agent",  "algorithm", "cost",     "from",   "grid",    "h_scale", "heuristic",
    "hierarchy", "hierarchy_mode", "on_done", "on_partial", "partial", "priority", "profile", "quick", "to",
    "watch", "weight", "weights",   NULL};

/* The quick option of the table at arg (nil: def). */
static uint64_t opt_quick(lua_State *L, int arg, uint64_t def) {
  return (uint64_t)opt_uint(L, arg, "quick", (double)def, 9007199254740992.0);
}

/* Pushes opts with the search keys of the table at src over it (a copy of
** base, the table at bi, or a new table when bi is 0); weights are merged
** by layer name. */
static void merge_opts(lua_State *L, int bi, int src) {
  int i, out;
  if (bi) ldsl_copy_table(L, bi); else lua_newtable(L);
  out = lua_gettop(L);
  for (i = 0; search_keys[i]; i++) {
    lua_getfield(L, src, search_keys[i]);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      continue;
    }
    if (strcmp(search_keys[i], "weights") == 0 && lua_type(L, -1) == LUA_TTABLE) {
      int sw = lua_gettop(L), w;
      lua_getfield(L, out, "weights"); /* a copy of base's weights, src's over them */
      if (lua_type(L, -1) == LUA_TTABLE) ldsl_copy_table(L, -1); else lua_newtable(L);
      w = lua_gettop(L);
      lua_pushnil(L);
      while (lua_next(L, sw)) {
        lua_pushvalue(L, -2);
        lua_insert(L, -2);
        lua_rawset(L, w);
      }
      lua_replace(L, sw);
      lua_settop(L, sw);
    }
    lua_setfield(L, out, search_keys[i]);
  }
}

/* Checks the opts at oi with find_path's parser (lodestar.core.search_options)
** and pushes the normalised table; raises find_path's message as an error
** of argument arg of the running method (its position the caller's line);
** opts.cost is refused as the C runtime refuses it. */
static void normalise(lua_State *L, int oi, int arg) {
  lua_getfield(L, oi, "cost");
  if (!lua_isnil(L, -1))
    ldsl_arg_error(L, arg, "opts.cost: not supported here (the scheduler runs searches without Lua "
                           "callbacks)");
  lua_pop(L, 1);
  lua_pushcfunction(L, ldsl_search_options);
  lua_pushvalue(L, oi);
  if (lua_pcall(L, 1, 1, 0) != 0) { /* find_path's text, as an error of argument arg here */
    const char *msg = lua_type(L, -1) == LUA_TSTRING ? lua_tostring(L, -1) : NULL;
    const char *in = msg ? strstr(msg, "' (") : NULL;
    size_t n;
    if (!msg || strncmp(msg, "bad argument #", 14) != 0 || !in) lua_error(L);
    in += 3;
    n = strlen(in);
    lua_pushlstring(L, in, n > 0 && in[n - 1] == ')' ? n - 1 : n);
    ldsl_arg_error(L, arg, lua_tostring(L, -1));
  }
}

/* Options of a request at the top (normalised table at ni) into *p and w for
** grid g, by the parser of the C runtime (lds_lua_search_params); raises
** "bad argument #ai to 'request' (<find_path's text>)". */
static void resolve_params(lua_State *L, int ni, int ai, const lds_Grid *g, lds_SearchParams *p,
                           double *w) {
  const char *msg;
  lds_search_params_init(p);
  msg = lds_lua_search_params(L, ni, g, p, w);
  if (msg) ldsl_arg_error(L, ai, msg);
}

/* What a request answered through a hierarchy cannot take (the core
** refuses them, lds_scheduler_submit / lds_scheduler_set_params): layer
** weights, a partial path, a quick pass. Raises an error of argument arg
** naming the option: opts.KEY when the table at own (the caller's options;
** 0: none) sets KEY, else opts.profile, the profile `profile` that set it.
** With redefined (sched:profile(redefined, opts)), opts.KEY of that new
** profile, which a pending hierarchy request uses. p: the merged options;
** quick: the merged quick expansions. */
static void check_hier_opts(lua_State *L, int arg, int own, const char *profile,
                            const char *redefined, const lds_SearchParams *p, uint64_t quick) {
  static const char *const keys[] = {"weights", "partial", "quick"};
  static const char *const why[] = {
      "a hierarchy request takes none: the hierarchy's own weight set applies "
      "(lodestar.hierarchy(grid, {weights = ...}))",
      "a hierarchy query ends no_path without a partial path; its refined prefix goes to "
      "on_partial while it runs",
      "a hierarchy request has no quick pass: its refined prefix is delivered as the partial "
      "path"};
  int set[3], i;
  set[0] = p->n_layer_weights > 0;
  set[1] = p->partial != 0;
  set[2] = quick > 0;
  for (i = 0; i < 3; i++) {
    int mine;
    if (!set[i]) continue;
    mine = 0;
    if (own) {
      lua_getfield(L, own, keys[i]);
      mine = !lua_isnil(L, -1) && lua_toboolean(L, -1);
      lua_pop(L, 1);
    }
    if (redefined)
      ldsl_opt_error(L, arg, keys[i],
                     lua_pushfstring(L, "a pending request of profile '%s' runs through a "
                                        "hierarchy, which cannot take it (%s)", redefined, why[i]));
    if (mine || !profile)
      ldsl_opt_error(L, arg, keys[i], lua_pushfstring(L, "not with opts.hierarchy (%s)", why[i]));
    ldsl_opt_error(L, arg, "profile",
                   lua_pushfstring(L, "profile '%s' sets %s, which a request with opts.hierarchy "
                                      "cannot take (%s)", profile, keys[i], why[i]));
  }
}

/* sched:profile(name, opts) -> number of pending requests restarted.
** Defines (or redefines) a named weight set (an agent class): opts are
** find_path's search options (algorithm, heuristic, weight, h_scale,
** weights, partial) plus quick (expansions of the quick partial pass),
** checked now with find_path's messages (weights' layers are checked
** against a request's grid when it is made). Redefining restarts the
** pending requests of that profile with the new options (same handle, same
** place in the queue). sched:profile(name) returns the options (a copy) or nil. */
static int sched_profile(lua_State *L) {
  SchedBox *b = check_sched(L, 1);
  const char *name = ldsl_check_str(L, 2);
  int entry, restarted = 0;
  if (lua_isnone(L, 3)) {
    lua_settop(L, 2);
    push_suv(L, 1, 3);
    lua_getfield(L, -1, name);
    if (lua_isnil(L, -1)) return 1;
    lua_getfield(L, -1, "opts");
    ldsl_copy_table(L, -1);
    lua_getfield(L, -3, "quick");
    if (lua_tonumber(L, -1) > 0) lua_setfield(L, -2, "quick"); else lua_pop(L, 1);
    return 1;
  }
  ldsl_check_table(L, 3);
  lua_settop(L, 3);
  ldsl_check_keys(L, 3, "option", "opts keys must be strings", profile_keys, NULL);
  lua_createtable(L, 0, 2); /* 4: entry */
  entry = 4;
  merge_opts(L, 0, 3);      /* 5: the search keys */
  normalise(L, 5, 3);
  lua_setfield(L, entry, "opts");
  lua_pop(L, 1);
  ldsl_push_u64(L, opt_quick(L, 3, 0));
  lua_setfield(L, entry, "quick");
  /* the pending requests of this profile (order does not matter: a
  ** restart keeps each request's place in the queue) */
  push_suv(L, 1, 2); /* 5: live */
  lua_newtable(L);   /* 6: the requests */
  {
    int n = 0, i, pass;
    lua_pushnil(L);
    while (lua_next(L, 5)) { /* k, req */
      ReqBox *r = (ReqBox *)luaL_testudata(L, -1, REQ_MT);
      if (r && r->state == RQ_PENDING) {
        push_ruv(L, lua_gettop(L), 7);
        if (lua_type(L, -1) == LUA_TSTRING && strcmp(lua_tostring(L, -1), name) == 0) {
          lua_pushvalue(L, -2);
          lua_rawseti(L, 6, ++n);
        }
        lua_pop(L, 1);
      }
      lua_pop(L, 1);
    }
    /* pass 0 checks every request's new options on its grid (a weighted
    ** layer may be missing: nothing changes then), pass 1 applies them */
    for (pass = 0; pass < 2; pass++) {
      if (pass == 1) {
        push_suv(L, 1, 3); /* profiles */
        lua_pushvalue(L, entry);
        lua_setfield(L, -2, name);
        lua_pop(L, 1);
      }
      for (i = 1; i <= n; i++) {
        ReqBox *r;
        lds_SearchParams p;
        double w[16];
        int ri, ni;
        lua_rawgeti(L, 6, i);
        ri = lua_gettop(L);
        r = (ReqBox *)lua_touserdata(L, ri);
        lua_getfield(L, entry, "opts");
        push_ruv(L, ri, 9);            /* the request's own search keys */
        merge_opts(L, ri + 1, ri + 2); /* new profile, then the request's own */
        ni = lua_gettop(L);
        resolve_params(L, ni, 3, r->grid, &p, w);
        if (pass == 0 && r->hier) check_hier_opts(L, 3, 3, NULL, name, &p, 0);
        if (pass == 1 && lds_scheduler_set_params(b->sc, r->id, &p) == LDS_OK) {
          restarted++;
          lua_pushvalue(L, ni);
          set_ruv(L, ri, 3);
        }
        lua_settop(L, 6);
      }
    }
  }
  lua_pushinteger(L, restarted);
  return 1;
}

/* ---------------------------------------------------------- requests -- */

/* An integer field of the table at arg within [lo, hi] (nil: def). */
static double opt_range(lua_State *L, int arg, const char *name, double def, double lo, double hi,
                        const char *range) {
  double v;
  lua_getfield(L, arg, name);
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return def;
  }
  if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, arg, name, "integer");
  v = lua_tonumber(L, -1);
  if (v != floor(v) || v < lo || v > hi) {
    char buf[64];
    ldsl_opt_error(L, arg, name, lua_pushfstring(L, "%s out of range (expected an integer %s)",
                                                 ldsl_fmt_num(buf, sizeof buf, v), range));
  }
  lua_pop(L, 1);
  return v;
}

/* Pushes the grid a request at spec arg 2 runs on (spec.grid, or the only
** grid of the scheduler at 1) and returns its core grid. */
static const lds_Grid *request_grid(lua_State *L) {
  GridBox *gb;
  int slot;
  lua_getfield(L, 2, "grid");
  slot = lua_gettop(L);
  if (lua_isnil(L, slot)) {
    int n = 0, t;
    push_suv(L, 1, 1);
    t = lua_gettop(L);
    lua_pushnil(L);
    while (lua_next(L, t)) { /* grids, key, true */
      lua_pop(L, 1);
      if (++n == 1) {
        lua_pushvalue(L, -1);
        lua_replace(L, slot);
      }
    }
    lua_settop(L, slot);
    if (n != 1)
      ldsl_opt_error(L, 2, "grid", n == 0 ? "no grid was added to the scheduler (sched:add_grid)"
                                          : "required when the scheduler has several grids");
  } else {
    if (!luaL_testudata(L, slot, LDS_GRID_MT)) ldsl_opt_type_error(L, 2, "grid", LDS_GRID_MT);
    push_suv(L, 1, 1);
    lua_pushvalue(L, slot);
    lua_rawget(L, -2);
    if (lua_isnil(L, -1))
      ldsl_opt_error(L, 2, "grid", "this grid was not added to the scheduler (sched:add_grid)");
    lua_settop(L, slot);
  }
  gb = (GridBox *)lua_touserdata(L, slot);
  return (const lds_Grid *)gb->g;
}

/* Raises "opts.profile: unknown profile 'x' (profiles: a, b)". */
static int unknown_profile(lua_State *L, int pi, const char *name) {
  luaL_Buffer buf;
  int n = 0, i, t;
  lua_newtable(L);
  t = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, pi)) {
    lua_pop(L, 1);
    lua_pushvalue(L, -1);
    lua_rawseti(L, t, ++n);
  }
  lua_getglobal(L, "table"); /* sort the names: the message is the same on every run */
  if (lua_type(L, -1) == LUA_TTABLE) {
    lua_getfield(L, -1, "sort");
    lua_pushvalue(L, t);
    lua_call(L, 1, 0);
  }
  lua_pop(L, 1);
  lua_pushfstring(L, "unknown profile '%s' (", name);
  luaL_buffinit(L, &buf);
  if (n == 0) luaL_addstring(&buf, "no profile is defined: sched:profile(name, opts)");
  else luaL_addstring(&buf, "profiles: ");
  for (i = 1; i <= n; i++) {
    lua_rawgeti(L, t, i);
    if (i > 1) luaL_addstring(&buf, ", ");
    luaL_addvalue(&buf);
  }
  luaL_addchar(&buf, ')');
  luaL_pushresult(&buf);
  lua_concat(L, 2);
  return ldsl_opt_error(L, 2, "profile", lua_tostring(L, -1));
}

/* Reads opts.watch of the request spec at 2: nil (not watched: returns 0)
** or {policy = "notify" | "replan" | "both", cost_ratio = r, on_broken = fn}
** (every key optional: policy "notify", cost_ratio 0 = cost changes never
** break the path). Checked like find_path's options: "bad argument #1 to
** 'request' (opts.watch.policy: ...)". Sets *policy (LDS_WATCH_* bits) and
** *ratio; returns 1. Leaves the stack as it found it. */
static int read_watch(lua_State *L, uint32_t *policy, double *ratio) {
  static const char *const keys[] = {"cost_ratio", "on_broken", "policy", NULL};
  static const char *const policies[] = {"notify", "replan", "both", NULL};
  static const uint32_t bits[] = {LDS_WATCH_NOTIFY, LDS_WATCH_REPLAN,
                                  LDS_WATCH_NOTIFY | LDS_WATCH_REPLAN};
  int wi, i;
  lua_getfield(L, 2, "watch");
  if (lua_isnil(L, -1)) {
    lua_pop(L, 1);
    return 0;
  }
  if (lua_type(L, -1) != LUA_TTABLE)
    ldsl_opt_type_error(L, 2, "watch", "table {policy =, cost_ratio =, on_broken =}");
  wi = lua_gettop(L);
  lua_pushnil(L);
  while (lua_next(L, wi)) {
    const char *k = lua_type(L, -2) == LUA_TSTRING ? lua_tostring(L, -2) : NULL;
    for (i = 0; k && keys[i] && strcmp(keys[i], k) != 0; i++) {
    }
    if (!k || !keys[i])
      ldsl_opt_error(L, 2, "watch",
                     lua_pushfstring(L, "unknown key '%s' (expected cost_ratio, on_broken, policy)",
                                     k ? k : luaL_typename(L, -2)));
    lua_pop(L, 1);
  }
  *policy = LDS_WATCH_NOTIFY;
  lua_getfield(L, wi, "policy");
  if (!lua_isnil(L, -1)) {
    const char *p;
    if (lua_type(L, -1) != LUA_TSTRING) ldsl_opt_type_error(L, 2, "watch.policy", "string");
    p = lua_tostring(L, -1);
    for (i = 0; policies[i] && strcmp(policies[i], p) != 0; i++) {
    }
    if (!policies[i])
      ldsl_opt_error(L, 2, "watch.policy",
                     lua_pushfstring(L, "invalid option '%s' (expected notify, replan, both)", p));
    *policy = bits[i];
  }
  lua_pop(L, 1);
  *ratio = 0;
  lua_getfield(L, wi, "cost_ratio");
  if (!lua_isnil(L, -1)) {
    double v;
    if (lua_type(L, -1) != LUA_TNUMBER) ldsl_opt_type_error(L, 2, "watch.cost_ratio", "number");
    v = lua_tonumber(L, -1);
    if (!(v == 0 || (v >= 1 && v <= 1.7976931348623157e308))) {
      char buf[64];
      ldsl_opt_error(L, 2, "watch.cost_ratio",
                     lua_pushfstring(L, "%s out of range (expected 0, or finite >= 1)",
                                     ldsl_fmt_num(buf, sizeof buf, v)));
    }
    *ratio = v;
  }
  lua_pop(L, 1);
  lua_getfield(L, wi, "on_broken");
  if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TFUNCTION)
    ldsl_opt_type_error(L, 2, "watch.on_broken", "function");
  lua_pop(L, 2);
  return 1;
}

/* Options of a mesh request (opts.mesh): mesh:find_path's and the
** scheduler's own. */
static const char *const mesh_request_keys[] = {
    "agent", "algorithm", "area_costs", "blocked_areas", "from", "height_tol", "mesh",
    "on_done", "partial", "priority", "snap_radius", "thorough", "to", NULL};
static const char *const mesh_option_keys[] = {"algorithm",  "area_costs", "blocked_areas",
                                               "height_tol", "partial",    "snap_radius",
                                               "thorough",   NULL};
/* Grid-request options a mesh request refuses by name. */
static const char *const grid_only_keys[] = {"cost", "grid", "h_scale", "heuristic", "hierarchy",
                                             "hierarchy_mode", "on_partial", "profile", "quick",
                                             "watch", "weight", "weights", NULL};

/* opts[name] of the request spec at 2: a point {x, y, z} or {x =, y =, z =}
** of finite numbers [Units: world units] into p; raises opts.NAME's error
** with the value. */
static void opt_point(lua_State *L, const char *name, double p[3]) {
  static const char *const xyz[] = {"x", "y", "z"};
  int i, t;
  lua_getfield(L, 2, name);
  t = lua_gettop(L);
  if (lua_isnil(L, t)) ldsl_opt_error(L, 2, name, "required (a point {x, y, z} [world units])");
  if (lua_type(L, t) != LUA_TTABLE) ldsl_opt_type_error(L, 2, name, "point {x, y, z}");
  for (i = 0; i < 3; i++) {
    lua_rawgeti(L, t, i + 1);
    if (lua_isnil(L, -1)) {
      lua_pop(L, 1);
      lua_getfield(L, t, xyz[i]);
    }
    if (lua_type(L, -1) != LUA_TNUMBER || !isfinite(lua_tonumber(L, -1))) {
      char buf[64];
      ldsl_opt_error(L, 2, name,
                     lua_pushfstring(L, "%s must be a finite number (got %s)", xyz[i],
                                     lua_type(L, -1) == LUA_TNUMBER
                                         ? ldsl_fmt_num(buf, sizeof buf, lua_tonumber(L, -1))
                                         : ldsl_value_name(L, -1)));
    }
    p[i] = lua_tonumber(L, -1);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* Pushes a new request box (state RQ_RELEASED until submitted, so __gc
** does nothing) and its uservalue table, with the scheduler (argument 1)
** at [1] and opts.on_done (options at argument 2) at [2]; their stack
** slots go to *ri and *uv. */
static ReqBox *new_req_box(lua_State *L, int *ri, int *uv) {
  ReqBox *r = (ReqBox *)lds_newudata(L, sizeof(ReqBox));
  memset(r, 0, sizeof *r);
  r->state = RQ_RELEASED;
  luaL_setmetatable(L, REQ_MT);
  *ri = lua_gettop(L);
  lua_createtable(L, 10, 0);
  *uv = lua_gettop(L);
  lua_pushvalue(L, 1);
  lua_rawseti(L, *uv, 1);
  lua_getfield(L, 2, "on_done");
  lua_rawseti(L, *uv, 2);
  return r;
}

/* sched:request{mesh = m, from = {x, y, z}, to = {x, y, z} [, algorithm =,
** area_costs =, blocked_areas =, snap_radius =, height_tol =, partial =,
** thorough =, priority =, agent =, on_done =]} -> lodestar.Request: a mesh
** request (lds_scheduler_submit_nav). The stack: 1 scheduler, 2 opts. */
static int mesh_request(lua_State *L, SchedBox *b) {
  lds_NavRequest rq;
  lds_NavParams p;
  double costs[256], from[3], to[3], agent, prio;
  const lds_Navmesh *m;
  lds_RequestId id;
  lds_Status st;
  ReqBox *r;
  int mi, ri, uv, i;
  for (i = 0; grid_only_keys[i]; i++) {
    lua_getfield(L, 2, grid_only_keys[i]);
    if (!lua_isnil(L, -1))
      ldsl_opt_error(L, 2, grid_only_keys[i],
                     "not with opts.mesh (a mesh request takes mesh:find_path's options: "
                     "algorithm, area_costs, blocked_areas, snap_radius, height_tol, partial, "
                     "thorough)");
    lua_pop(L, 1);
  }
  ldsl_check_keys(L, 2, "option", "opts keys must be strings", mesh_request_keys, NULL);
  lua_getfield(L, 2, "mesh"); /* 3 */
  mi = lua_gettop(L);
  if (!luaL_testudata(L, mi, LDS_NAVMESH_MT)) ldsl_opt_type_error(L, 2, "mesh", LDS_NAVMESH_MT);
  push_suv(L, 1, 7);
  lua_pushvalue(L, mi);
  lua_rawget(L, -2);
  if (lua_isnil(L, -1))
    ldsl_opt_error(L, 2, "mesh", "this mesh was not added to the scheduler (sched:add_mesh)");
  lua_pop(L, 2);
  m = ldsl_navmesh_check(L, mi);
  opt_point(L, "from", from);
  opt_point(L, "to", to);
  prio = opt_range(L, 2, "priority", 0, -1000000, 1000000, "-1000000..1000000");
  agent = opt_range(L, 2, "agent", 0, -9007199254740992.0, 9007199254740992.0, "of at most 2^53");
  lua_getfield(L, 2, "on_done");
  if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TFUNCTION)
    ldsl_opt_type_error(L, 2, "on_done", "function");
  lua_pop(L, 1);
  ldsl_navmesh_read_opts(L, 2, &p, costs);
  r = new_req_box(L, &ri, &uv);
  lua_newtable(L); /* [3] the mesh options as given (req:options()) */
  for (i = 0; mesh_option_keys[i]; i++) {
    lua_getfield(L, 2, mesh_option_keys[i]);
    if (lua_type(L, -1) == LUA_TTABLE) {
      ldsl_copy_table(L, -1);
      lua_remove(L, -2);
    }
    lua_setfield(L, -2, mesh_option_keys[i]);
  }
  lua_rawseti(L, uv, 3);
  lua_pushvalue(L, mi);
  lua_rawseti(L, uv, 8);
  lds_setuv(L, ri);
  r->sb = b;
  r->nav = 1;
  lds_nav_request_init(&rq, m, from, to);
  rq.params = p;
  rq.agent_id = (int64_t)agent;
  rq.priority = (int32_t)prio;
  rq.on_done = on_event;
  rq.ud = r;
  st = lds_scheduler_submit_nav(b->sc, &rq, &id);
  if (st == LDS_E_ARG) return ldsl_arg_error(L, 2, lds_scheduler_errmsg(b->sc));
  if (st != LDS_OK) return luaL_error(L, "%s", lds_scheduler_errmsg(b->sc));
  r->id = id;
  r->state = RQ_PENDING;
  lua_pushvalue(L, ri);
  set_live(L, 1, id); /* anchored while pending */
  lua_settop(L, ri);
  return 1;
}

/* sched:request{from = {x, y}, to = {x, y} [, grid =, profile =, priority =,
** agent =, quick =, on_done =, on_partial =, watch =, search options...]}
** -> lodestar.Request. See docs/lua-api.md ("Scheduler"). */
static int sched_request(lua_State *L) {
  SchedBox *b = check_sched(L, 1);
  lds_Request rq;
  lds_SearchParams p;
  double w[16], agent, prio;
  const lds_Grid *g;
  int gi, own, nn, ri, uv, pe = 0;
  int32_t fx, fy, tx, ty;
  uint64_t quick = 0;
  lds_RequestId id;
  lds_Status st;
  ReqBox *r;
  uint32_t policy = 0;
  double ratio = 0;
  int watch;
  lua_settop(L, 2);
  ldsl_check_table(L, 2);
  lua_getfield(L, 2, "mesh");
  if (!lua_isnil(L, -1)) {
    lua_settop(L, 2);
    return mesh_request(L, b);
  }
  lua_pop(L, 1);
  ldsl_check_keys(L, 2, "option", "opts keys must be strings", request_keys, "mesh");
  g = request_grid(L); /* 3 */
  gi = 3;
  lua_getfield(L, 2, "from");
  if (lua_isnil(L, -1)) ldsl_opt_error(L, 2, "from", "required (a cell {x, y})");
  ldsl_opt_cell(L, 2, "from", g, &fx, &fy);
  lua_pop(L, 1);
  lua_getfield(L, 2, "to");
  if (lua_isnil(L, -1)) ldsl_opt_error(L, 2, "to", "required (a cell {x, y})");
  ldsl_opt_cell(L, 2, "to", g, &tx, &ty);
  lua_pop(L, 1);
  prio = opt_range(L, 2, "priority", 0, -1000000, 1000000, "-1000000..1000000");
  agent = opt_range(L, 2, "agent", 0, -9007199254740992.0, 9007199254740992.0, "of at most 2^53");
  lua_getfield(L, 2, "on_done");
  if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TFUNCTION)
    ldsl_opt_type_error(L, 2, "on_done", "function");
  lua_getfield(L, 2, "on_partial");
  if (!lua_isnil(L, -1) && lua_type(L, -1) != LUA_TFUNCTION)
    ldsl_opt_type_error(L, 2, "on_partial", "function");
  lua_pop(L, 2);
  watch = read_watch(L, &policy, &ratio);
  lua_getfield(L, 2, "profile"); /* 4: name or nil */
  if (!lua_isnil(L, -1)) {
    if (lua_type(L, -1) != LUA_TSTRING) ldsl_opt_type_error(L, 2, "profile", "string");
    push_suv(L, 1, 3);
    lua_getfield(L, -1, lua_tostring(L, 4));
    if (lua_isnil(L, -1)) return unknown_profile(L, lua_gettop(L) - 1, lua_tostring(L, 4));
    lua_remove(L, -2);
    pe = lua_gettop(L); /* 5: the profile entry */
    lua_getfield(L, pe, "quick");
    quick = (uint64_t)lua_tonumber(L, -1);
    lua_pop(L, 1);
  } else {
    lua_pushnil(L); /* 5 */
  }
  quick = opt_quick(L, 2, quick);
  merge_opts(L, 0, 2); /* 6: the request's own search keys */
  own = lua_gettop(L);
  if (pe) {
    lua_getfield(L, pe, "opts");
    merge_opts(L, lua_gettop(L), own);
  } else {
    merge_opts(L, 0, own);
  }
  normalise(L, lua_gettop(L), 2);
  nn = lua_gettop(L);
  lds_search_params_init(&p);
  {
    const char *msg = lds_lua_search_params(L, nn, g, &p, w);
    if (msg) {
      lua_getfield(L, own, "weights");
      if (pe && strncmp(msg, "opts.weights: ", 14) == 0 && lua_isnil(L, -1)) /* the profile's */
        ldsl_opt_error(L, 2, "profile",
                       lua_pushfstring(L, "profile '%s' weights: %s", lua_tostring(L, 4), msg + 14));
      ldsl_arg_error(L, 2, msg);
    }
  }
  r = new_req_box(L, &ri, &uv);
  lua_pushvalue(L, nn);
  lua_rawseti(L, uv, 3);
  lua_getfield(L, 2, "on_partial");
  lua_rawseti(L, uv, 6);
  lua_pushvalue(L, 4);
  lua_rawseti(L, uv, 7);
  lua_pushvalue(L, gi);
  lua_rawseti(L, uv, 8);
  lua_pushvalue(L, own);
  lua_rawseti(L, uv, 9);
  if (watch) {
    lua_getfield(L, 2, "watch");
    lua_getfield(L, -1, "on_broken");
    lua_rawseti(L, uv, 10);
    lua_pop(L, 1);
  }
  lds_setuv(L, ri);
  r->sb = b;
  r->grid = g;
  lds_request_init(&rq, g, fx, fy, tx, ty);
  rq.params = p;
  lua_getfield(L, 2, "hierarchy");
  if (!lua_isnil(L, -1)) { /* answered through a hierarchy (lds_Request.hierarchy) */
    static const char *const modes[] = {"fast", "optimal", NULL};
    int hi = lua_gettop(L), m = 0;
    if (!luaL_testudata(L, hi, LDS_HIER_MT)) ldsl_opt_type_error(L, 2, "hierarchy", LDS_HIER_MT);
    rq.hierarchy = ldsl_hpa_check(L, hi);
    if (lds_hpa_grid(rq.hierarchy) != g)
      ldsl_opt_error(L, 2, "hierarchy", "built on another grid (expected a hierarchy of the "
                                        "request's grid)");
    check_hier_opts(L, 2, 2, lua_isnil(L, 4) ? NULL : lua_tostring(L, 4), NULL, &p, quick);
    r->hier = 1;
    lua_getfield(L, 2, "hierarchy_mode");
    if (!lua_isnil(L, -1)) {
      if (lua_type(L, -1) != LUA_TSTRING) ldsl_opt_type_error(L, 2, "hierarchy_mode", "string");
      for (m = 0; modes[m] && strcmp(modes[m], lua_tostring(L, -1)) != 0; m++) {}
      if (!modes[m])
        ldsl_opt_error(L, 2, "hierarchy_mode",
                       lua_pushfstring(L, "'%s' is unknown (expected \"fast\" or \"optimal\")",
                                       lua_tostring(L, -1)));
    }
    lua_pop(L, 1);
    rq.hierarchy_mode = m == 1 ? LDS_HPA_OPTIMAL : LDS_HPA_FAST;
    ldsl_hpa_push_weights(L, hi); /* what its paths are costed with */
    set_ruv(L, ri, 11);
    /* the scheduler keeps queries on it: it counts as a user of the hierarchy */
    push_suv(L, 1, 6);
    lua_pushvalue(L, hi);
    lua_rawget(L, -2);
    if (lua_isnil(L, -1)) {
      void *box;
      ldsl_hpa_use(L, hi, &box);
      lua_pushvalue(L, hi);
      lua_pushlightuserdata(L, box);
      lua_rawset(L, -4);
    }
    lua_pop(L, 2);
  } else {
    lua_getfield(L, 2, "hierarchy_mode");
    if (!lua_isnil(L, -1)) ldsl_opt_error(L, 2, "hierarchy_mode", "needs a hierarchy");
  }
  lua_pop(L, 1);
  rq.agent_id = (int64_t)agent;
  rq.priority = (int32_t)prio;
  rq.quick_expansions = quick;
  rq.on_done = on_event;
  rq.ud = r;
  if (watch) {
    /* the core always calls on_watch (after its replan, if any): the box
    ** tracks the request's state; the Lua on_broken runs for "notify" and
    ** "both" only (dispatch) */
    rq.flags |= LDS_REQ_WATCH;
    rq.watch_policy = policy | LDS_WATCH_NOTIFY;
    rq.watch_cost_ratio = ratio;
    rq.on_broken = on_watch;
    r->policy = policy;
  }
  st = lds_scheduler_submit(b->sc, &rq, &id);
  if (st == LDS_E_ARG) return ldsl_arg_error(L, 2, lds_scheduler_errmsg(b->sc));
  if (st != LDS_OK) return luaL_error(L, "%s", lds_scheduler_errmsg(b->sc));
  r->id = id;
  r->state = RQ_PENDING;
  lua_pushvalue(L, ri);
  set_live(L, 1, id); /* anchored while pending */
  if (watch) { /* found again (weakly) when its watched path breaks */
    push_suv(L, 1, 5);
    ldsl_push_u64(L, id);
    lua_pushvalue(L, ri);
    lua_rawset(L, -3);
    lua_pop(L, 1);
  }
  lua_settop(L, ri);
  return 1;
}

/* ------------------------------------------------------------- step -- */

/* Message handler: the error as text, with a traceback. */
static int msgh(lua_State *L) {
  const char *m = lua_tostring(L, 1);
  if (!m) m = lua_pushfstring(L, "(error object is a %s value)", luaL_typename(L, 1));
  luaL_traceback(L, L, m, 1);
  return 1;
}

static const char *watch_reason_name(lds_WatchReason why) {
  return why == LDS_WATCH_BLOCKED ? "blocked" : why == LDS_WATCH_COST ? "cost" : "move";
}

/* Calls request_uv[slot] (on_done / on_partial / on_broken) of the request
** at ri under pcall, with (req) or, for on_broken, (req, x, y, reason); an
** error goes to on_error (scheduler uv[4]) or, without one, is kept at
** errslot (the first only) for step to raise. */
static void call_cb(lua_State *L, SchedBox *b, int si, int ri, int slot, int errslot) {
  int h, nargs = 1;
  push_ruv(L, ri, slot);
  if (lua_type(L, -1) != LUA_TFUNCTION) {
    lua_pop(L, 1);
    return;
  }
  lua_pushcfunction(L, msgh);
  lua_insert(L, -2);
  h = lua_gettop(L) - 1;
  lua_pushvalue(L, ri);
  if (slot == 10) {
    ReqBox *r = (ReqBox *)lua_touserdata(L, ri);
    lua_pushinteger(L, r->bx);
    lua_pushinteger(L, r->by);
    lua_pushstring(L, watch_reason_name(r->why));
    nargs = 4;
  }
  if (lua_pcall(L, nargs, 0, h) != 0) {
    b->cb_errors++;
    lua_pushfstring(L, "%s: %s", slot == 2 ? "on_done" : slot == 10 ? "on_broken" : "on_partial",
                    lua_tostring(L, -1));
    lua_remove(L, -2);
    push_suv(L, si, 4);
    if (lua_type(L, -1) == LUA_TFUNCTION) {
      lua_pushvalue(L, -2);
      lua_pushvalue(L, ri);
      if (lua_pcall(L, 2, 0, h) != 0) { /* a failing handler: raised by step */
        if (lua_isnil(L, errslot)) lua_replace(L, errslot); else lua_pop(L, 1);
      }
      lua_pop(L, 1);
    } else {
      lua_pop(L, 1);
      if (lua_isnil(L, errslot)) lua_replace(L, errslot); else lua_pop(L, 1);
    }
  }
  lua_settop(L, h - 1);
}

/* The body of dispatch under lua_pcall: 1 the scheduler userdata. Delivers
** the queued events in order; returns the first unhandled error (or nil). */
static int dispatch_body(lua_State *L) {
  SchedBox *b = (SchedBox *)lua_touserdata(L, 1);
  int errslot;
  lua_settop(L, 1);
  lua_pushnil(L);
  errslot = 2;
  while (b->sc && b->ev_head) {
    ReqBox *r = b->ev_head;
    unsigned ev = r->ev;
    lds_RequestId id = r->id;
    int ri;
    ev_unlink(r);
    push_suv(L, 1, 2);
    ldsl_push_u64(L, id);
    lua_rawget(L, -2);
    lua_remove(L, -2);
    ri = lua_gettop(L);
    if (lua_touserdata(L, ri) != (void *)r && (ev & EV_BROKEN)) { /* a delivered request */
      lua_pop(L, 1);
      push_suv(L, 1, 5);
      ldsl_push_u64(L, id);
      lua_rawget(L, -2);
      lua_remove(L, -2);
    }
    if (lua_touserdata(L, ri) != (void *)r) { /* not anchored: nothing to call */
      lua_settop(L, errslot);
      continue;
    }
    if (ev & EV_BROKEN) {
      if (r->state == RQ_PENDING && b->sc) { /* replanned: anchored until its on_done */
        lua_pushvalue(L, ri);
        set_live(L, 1, id);
      }
      if (r->policy & LDS_WATCH_NOTIFY) call_cb(L, b, 1, ri, 10, errslot);
    }
    if (ev & EV_PARTIAL) call_cb(L, b, 1, ri, 6, errslot);
    if ((ev & EV_DONE) && r->state == RQ_DONE) {
      if (b->sc) {
        lua_pushnil(L);
        set_live(L, 1, id); /* finished: the caller's object from now on (kept on the stack) */
      }
      lua_pushnil(L); /* a replan's new path: req:path() wraps it afresh */
      set_ruv(L, ri, 4);
      call_cb(L, b, 1, ri, 2, errslot);
    }
    lua_settop(L, errslot);
  }
  return 1;
}

/* Delivers the queued events of the scheduler at si (absolute); pushes the
** first unhandled callback error, or nil. Memory errors propagate (the
** events not yet delivered stay queued for the next step). */
static void dispatch(lua_State *L, SchedBox *b, int si) {
  int st;
  b->dispatching = 1;
  lua_pushcfunction(L, dispatch_body);
  lua_pushvalue(L, si);
  st = lua_pcall(L, 1, 1, 0);
  b->dispatching = 0;
  if (st != 0) lua_error(L);
}

/* One tick of the scheduler at si plus its callbacks; *ts gets the counts
** (callback_errors includes Lua callback errors). Pushes the first
** unhandled callback error or nil. */
static void do_step(lua_State *L, SchedBox *b, int si, const lds_Budget *bud, lds_TickStats *ts) {
  lds_Status st;
  if (b->dispatching)
    luaL_error(L, "%s: cannot step the scheduler from one of its callbacks", LDS_SCHEDULER_MT);
  int pre = b->ev_head != NULL;
  b->cb_errors = 0;
  /* the watched-path events of the edits since the last step first: each
  ** on_broken runs before the tick that may deliver its replan */
  if (pre) dispatch(L, b, si);
  b->stepping = 1;
  st = lds_scheduler_step(b->sc, bud, ts);
  b->stepping = 0;
  if (st != LDS_OK) luaL_error(L, "%s", lds_scheduler_errmsg(b->sc));
  dispatch(L, b, si);
  if (pre) { /* keep the first unhandled error of the two dispatches */
    if (!lua_isnil(L, -2)) lua_pop(L, 1); else lua_remove(L, -2);
  }
  ts->callback_errors += b->cb_errors;
}

/* An integer (agent tag, priority) as a Lua integer where the engine has them. */
static void push_i64(lua_State *L, int64_t v) {
#if LUA_VERSION_NUM >= 503
  lua_pushinteger(L, (lua_Integer)v);
#else
  lua_pushnumber(L, (lua_Number)v);
#endif
}

static void set_u64(lua_State *L, const char *k, uint64_t v) {
  ldsl_push_u64(L, v);
  lua_setfield(L, -2, k);
}

static void push_tick(lua_State *L, const lds_TickStats *ts) {
  lua_createtable(L, 0, 21);
  set_u64(L, "expansions", ts->expansions);
  set_u64(L, "elapsed_us", ts->elapsed_us);
  set_u64(L, "budget_us", ts->budget_us);
  set_u64(L, "budget_expansions", ts->budget_expansions);
  set_u64(L, "started", ts->started);
  set_u64(L, "finished", ts->finished);
  set_u64(L, "found", ts->found);
  set_u64(L, "restarted", ts->restarted);
  set_u64(L, "partial_paths", ts->partial_paths);
  set_u64(L, "failed", ts->failed);
  set_u64(L, "callback_errors", ts->callback_errors);
  set_u64(L, "clock_reads", ts->clock_reads);
  set_u64(L, "queued", ts->queued);
  set_u64(L, "active", ts->active);
  set_u64(L, "chunk_expansions", ts->chunk_expansions);
  set_u64(L, "frame", ts->frame);
  set_u64(L, "view_cells", ts->view_cells);
  set_u64(L, "forced", ts->forced);
  set_u64(L, "paused", ts->paused);
  set_u64(L, "deferrals", ts->deferrals);
  lua_pushnumber(L, ts->rate);
  lua_setfield(L, -2, "rate");
}

/* sched:step([budget]) -> tick. budget: microseconds (an integer >= 0; 0 or
** nil = no limit), or {budget_us =, max_expansions =}. In deterministic mode
** budget_us is counted as budget_us * expansions_per_us expansions. Runs
** the frame's C work, then the callbacks of the requests that finished (or
** delivered a quick path) in it; an error in a callback goes to on_error,
** else it is raised once every callback of the frame ran. */
static int sched_step(lua_State *L) {
  SchedBox *b = check_sched(L, 1);
  lds_Budget bud;
  lds_TickStats ts;
  ldsl_callback_guard(L, LDS_SCHEDULER_MT ":step");
  bud.max_expansions = 0;
  bud.budget_us = 0;
  if (lua_type(L, 2) == LUA_TNUMBER) {
    double us = ldsl_check_int(L, 2);
    if (us < 0) return ldsl_arg_error(L, 2, "budget_us must be >= 0 (0 = no limit)");
    bud.budget_us = (uint64_t)us;
  } else if (lua_type(L, 2) == LUA_TTABLE) {
    ldsl_check_budget(L, 2, &bud);
  } else if (!lua_isnoneornil(L, 2)) {
    return ldsl_type_error(L, 2, "number (µs) or table {budget_us =, max_expansions =}");
  }
  lua_settop(L, 1);
  do_step(L, b, 1, &bud, &ts);
  if (!lua_isnil(L, -1)) return lua_error(L);
  push_tick(L, &ts);
  return 1;
}

/* The body of lds_lua_scheduler_step: 1 scheduler, 2 budget, 3 out. */
static int cstep_body(lua_State *L) {
  SchedBox *b = (SchedBox *)lua_touserdata(L, 1);
  const lds_Budget *bud = (const lds_Budget *)lua_touserdata(L, 2);
  lds_TickStats *ts = (lds_TickStats *)lua_touserdata(L, 3);
  lua_settop(L, 1);
  do_step(L, b, 1, bud, ts);
  if (!lua_isnil(L, -1)) return lua_error(L);
  return 0;
}

const char *lds_lua_scheduler_step(lua_State *L, int sidx, const lds_Budget *budget,
                                   lds_TickStats *out) {
  SchedBox *b = (SchedBox *)luaL_testudata(L, sidx, LDS_SCHEDULER_MT);
  lds_TickStats ts;
  memset(&ts, 0, sizeof ts);
  if (!b || !b->sc) {
    lua_pushstring(L, "lds_lua_scheduler_step: not a live lodestar.Scheduler");
    return lua_tostring(L, -1);
  }
  if (sidx < 0 && sidx > LUA_REGISTRYINDEX) sidx = lua_gettop(L) + sidx + 1;
  lua_pushcfunction(L, cstep_body);
  lua_pushvalue(L, sidx);
  lua_pushlightuserdata(L, (void *)(uintptr_t)budget);
  lua_pushlightuserdata(L, &ts);
  if (lua_pcall(L, 3, 0, 0) != 0) {
    if (out) *out = ts;
    if (lua_type(L, -1) != LUA_TSTRING) {
      lua_pop(L, 1);
      lua_pushstring(L, "(error object is not a string)");
    }
    return lua_tostring(L, -1);
  }
  if (out) *out = ts;
  return NULL;
}

lds_Scheduler *lds_lua_check_scheduler(lua_State *L, int idx) { return check_sched(L, idx)->sc; }

/* sched:stats() -> table: the totals of every tick (as a tick's fields),
** plus pushes, peak_open, pending, frame and mem_bytes. */
static int sched_stats(lua_State *L) {
  SchedBox *b = check_sched(L, 1);
  lds_TickStats ts;
  lds_Stats s;
  lds_scheduler_totals(b->sc, &ts);
  lds_scheduler_stats(b->sc, &s);
  push_tick(L, &ts);
  set_u64(L, "pushes", s.pushes);
  set_u64(L, "peak_open", s.peak_open);
  set_u64(L, "pending", lds_scheduler_pending(b->sc));
  set_u64(L, "frame", lds_scheduler_frame(b->sc));
  set_u64(L, "mem_bytes", lds_scheduler_mem_used(b->sc));
  return 1;
}

/* Raises unless the grid at arg was added to the scheduler at 1. */
static void check_added_grid(lua_State *L, int arg) {
  ldsl_check_grid(L, arg);
  push_suv(L, 1, 1); /* grids */
  lua_pushvalue(L, arg);
  lua_rawget(L, -2);
  if (lua_isnil(L, -1)) ldsl_arg_error(L, arg, "grid was not added to this scheduler");
  lua_pop(L, 2);
}

/* sched:set_path_cache(grid, max_entries) -> sched: gives the added grid a
** path cache of at most max_entries trees (an integer 1..1024; 0 removes
** it), lds_scheduler_set_path_cache: queued requests it accepts (as
** lodestar.PathCache:find_path's) are answered from it, a hit at once, a
** miss growing its goal's tree in chunks counted as the request's
** expansions; hierarchy and mesh requests never use it. Memory: 16 bytes
** per padded cell per tree (sched:stats().mem_bytes counts it). A new call
** replaces the cache (its trees start empty). Raises for a grid not added,
** a bad count, or from inside step's C work. */
static int sched_set_path_cache(lua_State *L) {
  SchedBox *b = check_sched(L, 1);
  GridBox *gb;
  double n;
  char buf[64];
  lds_Status st;
  lua_settop(L, 3);
  check_added_grid(L, 2);
  gb = ldsl_check_gridbox(L, 2);
  if (lua_type(L, 3) != LUA_TNUMBER) ldsl_type_error(L, 3, "number");
  n = lua_tonumber(L, 3);
  if (n != floor(n) || !(n >= 0 && n <= 1024))
    ldsl_arg_error(L, 3, lua_pushfstring(L, "max_entries %s out of range (expected an integer "
                                            "0..1024; 0 removes the cache)",
                                         ldsl_fmt_coord(buf, sizeof buf, n)));
  st = lds_scheduler_set_path_cache(b->sc, (const lds_Grid *)gb->g, (uint32_t)n);
  if (st == LDS_E_ARG) return ldsl_arg_error(L, 2, lds_scheduler_errmsg(b->sc));
  if (st != LDS_OK) return luaL_error(L, "%s", lds_scheduler_errmsg(b->sc));
  lua_settop(L, 1);
  return 1;
}

/* sched:path_cache_stats(grid) -> the counters of the added grid's path
** cache ({answered, hits, misses, expansions, invalidated, truncated,
** evictions, entries, bytes}, as lodestar.PathCache:stats()), or nil
** without one. Raises for a grid not added. */
static int sched_path_cache_stats(lua_State *L) {
  SchedBox *b = check_sched(L, 1);
  const lds_PathCache *pc;
  lua_settop(L, 2);
  check_added_grid(L, 2);
  pc = lds_scheduler_path_cache(b->sc, (const lds_Grid *)ldsl_check_grid(L, 2));
  if (!pc) {
    lua_pushnil(L);
    return 1;
  }
  ldsl_push_path_cache_stats(L, pc);
  return 1;
}

/* sched:edit_stats() -> table {edits, disturbed, kept, repaired,
** watch_events, replans, watched, watched_cells, deferred, resumed,
** defer_timeouts}: what grid edits did to the scheduler's requests since it
** was made (lds_EditStats). */
static int sched_edit_stats(lua_State *L) {
  SchedBox *b = check_sched(L, 1);
  lds_EditStats es;
  lds_scheduler_edit_stats(b->sc, &es);
  lua_createtable(L, 0, 11);
  set_u64(L, "edits", es.edits);
  set_u64(L, "disturbed", es.disturbed);
  set_u64(L, "kept", es.kept);
  set_u64(L, "repaired", es.repaired);
  set_u64(L, "watch_events", es.watch_events);
  set_u64(L, "replans", es.replans);
  set_u64(L, "watched", es.watched);
  set_u64(L, "watched_cells", es.watched_cells);
  set_u64(L, "deferred", es.deferred);
  set_u64(L, "resumed", es.resumed);
  set_u64(L, "defer_timeouts", es.defer_timeouts);
  return 1;
}

/* sched:deliver() -> sched: runs the Lua callbacks queued since the last
** step now (on_broken of watched paths broken by edits made outside the
** scheduler's callbacks), in the order the edits broke them; errors as in
** step. From inside a callback it does nothing (the running delivery
** reaches them). */
static int sched_deliver(lua_State *L) {
  SchedBox *b = check_sched(L, 1);
  lua_settop(L, 1);
  if (b->dispatching || !b->ev_head) return 1;
  b->cb_errors = 0;
  dispatch(L, b, 1);
  if (!lua_isnil(L, -1)) return lua_error(L);
  lua_settop(L, 1);
  return 1;
}

/* sched:on_error([fn]) -> sched: the handler of callback errors,
** fn(message, request) (message with a traceback); nil: raise from step. */
static int sched_on_error(lua_State *L) {
  check_sched(L, 1);
  if (!lua_isnoneornil(L, 2) && lua_type(L, 2) != LUA_TFUNCTION) ldsl_type_error(L, 2, "function");
  lua_settop(L, 2);
  lds_getuv(L, 1);
  lua_pushvalue(L, 2);
  lua_rawseti(L, -2, 4);
  lua_settop(L, 1);
  return 1;
}

/* ------------------------------------------------- request methods -- */

static int req_status(lua_State *L) {
  ReqBox *r = check_req(L, 1);
  lua_pushstring(L, r->state == RQ_CANCELLED ? "cancelled"
                                             : lds_status_name(lds_scheduler_status(r->sb->sc, r->id)));
  return 1;
}

/* Wraps a copy of p (or p itself when take) into a lodestar.Path that
** remembers the request's weights; leaves it on the stack. */
static void push_req_path(lua_State *L, int ri, const lds_Path *p, lds_Path *take) {
  PathBox *pb = ldsl_new_pathbox(L);
  lds_Error err;
  if (take) {
    pb->p = take;
    pb->owned = 1;
  } else {
    lds_Env env = ldsl_lua_env(L);
    lds_Path *c = lds_path_new(&env, lds_path_nodes(p), lds_path_length(p), lds_path_width(p),
                               lds_path_cost(p), lds_path_flags(p), &err);
    ldsl_push_path(L, pb, c, &err);
  }
  push_ruv(L, ri, 3);
  lua_getfield(L, -1, "weights");
  if (lua_isnil(L, -1)) { /* a hierarchy request: the hierarchy's weights */
    lua_pop(L, 1);
    push_ruv(L, ri, 11);
  }
  ldsl_path_remember(L, -3, lua_gettop(L));
  lua_pop(L, 2);
}

/* Pushes (and returns) the message of the request at 1 whose weighted
** layer was removed from its grid since it was submitted, naming what the
** core cannot: "lodestar.Scheduler:request: opts.weights: layer 'mud'
** (weight 1, set by profile 'tank') was removed from the grid since the
** request was submitted" (or "set by the request" for its own weights). */
static const char *removed_layer_message(lua_State *L, const char *m) {
  int top = lua_gettop(L), opts, own;
  const lds_Grid *g = NULL;
  GridBox *gb;
  push_ruv(L, 1, 8); /* the grid userdata */
  gb = (GridBox *)luaL_testudata(L, -1, LDS_GRID_MT);
  if (gb && !gb->closed) g = (const lds_Grid *)gb->g;
  push_ruv(L, 1, 3); /* the normalised options */
  opts = lua_gettop(L);
  push_ruv(L, 1, 9); /* the request's own keys */
  own = lua_gettop(L);
  lua_pushnil(L);
  if (lua_istable(L, opts)) {
    lua_getfield(L, opts, "weights");
    if (lua_istable(L, -1)) {
      lua_pushnil(L);
      while (lua_next(L, -2)) {
        if (lua_type(L, -2) == LUA_TSTRING && lua_tonumber(L, -1) != 0 &&
            (!g || lds_grid_layer_find(g, lua_tostring(L, -2)) < 0)) {
          bool mine = false;
          const char *name = lua_tostring(L, -2);
          lua_Number w = lua_tonumber(L, -1);
          if (lua_istable(L, own)) {
            lua_getfield(L, own, "weights");
            if (lua_istable(L, -1)) {
              lua_getfield(L, -1, name);
              mine = !lua_isnil(L, -1);
              lua_pop(L, 1);
            }
            lua_pop(L, 1);
          }
          push_ruv(L, 1, 7); /* the profile name */
          if (!mine && lua_type(L, -1) == LUA_TSTRING)
            lua_pushfstring(L, "profile '%s'", lua_tostring(L, -1));
          else
            lua_pushliteral(L, "the request");
          lua_pushfstring(L,
                          "%s:request: opts.weights: layer '%s' (weight %f, set by %s) was "
                          "removed from the grid since the request was submitted",
                          LDS_SCHEDULER_MT, name, w, lua_tostring(L, -1));
          lua_replace(L, top + 1);
          lua_settop(L, top + 1);
          return lua_tostring(L, -1);
        }
        lua_pop(L, 1);
      }
    }
  }
  lua_settop(L, top);
  return lua_pushfstring(L, "%s:request: opts.weights: %s", LDS_SCHEDULER_MT,
                         m + sizeof "lds_scheduler_step: request params.layer_weights: " - 1);
}

/* Pushes the error message of request r in Lua's words (and returns it):
** a request the core ended because a weighted layer was removed
** (LDS_REQINFO_LAYER_REMOVED) gets removed_layer_message, naming the layer
** and who set its weight; the core's "lds_scheduler_step: request
** params.layer_weights: ..." (a cell its weights make cost <= 0) names the
** option the request took, "lodestar.Scheduler:request: opts.weights: cell
** (x,y) has cost C under the layer weights (base B, layer 'L' value V x
** weight W; expected finite, > 0)"; other messages as the core wrote them. */
static const char *req_message(lua_State *L, const ReqBox *r) {
  static const char core[] = "lds_scheduler_step: request params.layer_weights: ";
  const char *m = lds_scheduler_request_errmsg(r->sb->sc, r->id);
  lds_RequestInfo info;
  if (lds_scheduler_info(r->sb->sc, r->id, &info) == LDS_OK &&
      (info.flags & LDS_REQINFO_LAYER_REMOVED) && strncmp(m, core, sizeof core - 1) == 0)
    return removed_layer_message(L, m);
  if (strncmp(m, core, sizeof core - 1) == 0)
    return lua_pushfstring(L, "%s:request: opts.weights: %s", LDS_SCHEDULER_MT,
                           m + sizeof core - 1);
  lua_pushstring(L, m);
  return lua_tostring(L, -1);
}

/* req:path() -> lodestar.Path | nil, "running" | nil, "no_path" | nil,
** message, status. The same Path object on every call (a copy of the
** scheduler's; it remembers the request's layer weights). */
static int req_path(lua_State *L) {
  ReqBox *r = check_req(L, 1);
  lds_Status st;
  const lds_Path *p;
  lua_settop(L, 1);
  if (r->state == RQ_CANCELLED) {
    luaL_pushfail(L);
    lua_pushstring(L, "cancelled");
    return 2;
  }
  st = lds_scheduler_status(r->sb->sc, r->id);
  if (st == LDS_RUNNING) {
    luaL_pushfail(L);
    lua_pushstring(L, "running");
    return 2;
  }
  push_ruv(L, 1, 4);
  if (!lua_isnil(L, -1)) return 1;
  lua_pop(L, 1);
  if (r->nav) { /* a mesh request: mesh:find_path's table */
    lds_NavPath np;
    if (lds_scheduler_nav_path(r->sb->sc, r->id, &np) != LDS_OK) {
      if (st == LDS_NO_PATH || st == LDS_FOUND) {
        luaL_pushfail(L);
        lua_pushstring(L, "no_path");
        return 2;
      }
      return ldsl_push_fail(L, lds_scheduler_request_errmsg(r->sb->sc, r->id), st);
    }
    ldsl_navmesh_push_path(L, np.points, np.n_points, np.length, np.cost, np.partial, np.algo,
                           np.corridor, np.n_corridor);
    lua_pushvalue(L, -1);
    set_ruv(L, 1, 4);
    return 1;
  }
  p = lds_scheduler_path(r->sb->sc, r->id);
  if (!p) {
    if (st == LDS_NO_PATH || st == LDS_FOUND) {
      luaL_pushfail(L);
      lua_pushstring(L, "no_path");
      return 2;
    }
    return ldsl_push_fail(L, req_message(L, r), st);
  }
  push_req_path(L, 1, p, NULL);
  lua_pushvalue(L, -1);
  set_ruv(L, 1, 4);
  return 1;
}

/* req:partial_path() -> lodestar.Path | nil, "none": the quick partial path
** (best-so-far after `quick` expansions), once delivered; none once the
** request ended without a path (no_path, an error, cancelled). A mesh
** request: while its search runs, the best path so far (mesh:find_path's
** table without cost and corridor; lds_scheduler_nav_partial_path); none
** before it started and once it ended (req:path() has the path). */
static int req_partial_path(lua_State *L) {
  ReqBox *r = check_req(L, 1);
  lds_Status st = r->state == RQ_CANCELLED   ? LDS_E_STATE
                  : r->state == RQ_RELEASED ? LDS_RUNNING /* what it kept (uv[5]) stands */
                                            : lds_scheduler_status(r->sb->sc, r->id);
  lua_settop(L, 1);
  if (r->nav && r->state != RQ_CANCELLED && r->state != RQ_RELEASED && st == LDS_RUNNING) {
    /* a mesh request: its search's best path so far, computed now (it
    ** changes every tick); none before its search started */
    lds_NavPath np;
    if (lds_scheduler_nav_partial_path(r->sb->sc, r->id, &np) != LDS_OK) {
      luaL_pushfail(L);
      lua_pushstring(L, "none");
      return 2;
    }
    ldsl_navmesh_push_so_far(L, np.points, np.n_points, np.length, np.partial, np.algo);
    return 1;
  }
  if (st != LDS_RUNNING && st != LDS_FOUND) {
    /* ended without a path (no_path, an error, cancelled): a prefix toward
    ** the goal would mislead; as in C, a finished request has none */
    luaL_pushfail(L);
    lua_pushstring(L, "none");
    return 2;
  }
  push_ruv(L, 1, 5);
  if (!lua_isnil(L, -1)) return 1;
  lua_pop(L, 1);
  if (!r->quick) {
    luaL_pushfail(L);
    lua_pushstring(L, "none");
    return 2;
  }
  push_req_path(L, 1, NULL, r->quick);
  r->quick = NULL; /* the Lua path owns it now */
  lua_pushvalue(L, -1);
  set_ruv(L, 1, 5);
  return 1;
}

/* req:info() -> table {status, agent, priority, frames, restarts,
** deferrals, paused, expansions, cost, path_length, started, partial, done,
** layer_removed, profile, error}. layer_removed: the request ended because
** a layer its weights name was removed (LDS_REQINFO_LAYER_REMOVED). */
static int req_info(lua_State *L) {
  ReqBox *r = check_req(L, 1);
  lds_RequestInfo info;
  lds_scheduler_info(r->sb->sc, r->id, &info);
  lua_createtable(L, 0, 16);
  lua_pushstring(L, r->state == RQ_CANCELLED ? "cancelled" : lds_status_name(info.status));
  lua_setfield(L, -2, "status");
  push_i64(L, info.agent_id);
  lua_setfield(L, -2, "agent");
  push_i64(L, info.priority);
  lua_setfield(L, -2, "priority");
  set_u64(L, "frames", info.frames);
  set_u64(L, "restarts", info.restarts);
  set_u64(L, "deferrals", info.deferrals);
  lua_pushboolean(L, (info.flags & LDS_REQINFO_PAUSED) != 0);
  lua_setfield(L, -2, "paused");
  set_u64(L, "expansions", info.expansions);
  lua_pushnumber(L, info.cost);
  lua_setfield(L, -2, "cost");
  set_u64(L, "path_length", info.path_length);
  lua_pushboolean(L, (info.flags & LDS_REQINFO_STARTED) != 0);
  lua_setfield(L, -2, "started");
  push_ruv(L, 1, 5);
  lua_pushboolean(L, r->quick != NULL || !lua_isnil(L, -1));
  lua_remove(L, -2);
  lua_setfield(L, -2, "partial");
  lua_pushboolean(L, (info.flags & LDS_REQINFO_DONE) != 0);
  lua_setfield(L, -2, "done");
  lua_pushboolean(L, (info.flags & LDS_REQINFO_LAYER_REMOVED) != 0);
  lua_setfield(L, -2, "layer_removed");
  push_ruv(L, 1, 7);
  lua_setfield(L, -2, "profile");
  if (info.status < 0 && r->state != RQ_CANCELLED) {
    req_message(L, r);
    lua_setfield(L, -2, "error");
  }
  return 1;
}

/* req:id() -> the C scheduler's handle (an integer < 2^52: exact on LuaJIT
** too), for C code that shares the scheduler (lds_scheduler_status...). */
static int req_id(lua_State *L) {
  ldsl_push_u64(L, check_req(L, 1)->id);
  return 1;
}

static int req_errmsg(lua_State *L) {
  ReqBox *r = check_req(L, 1);
  if (r->state == RQ_CANCELLED) lua_pushliteral(L, "");
  else req_message(L, r);
  return 1;
}

/* req:options() -> table: a copy of the request's normalised search
** options (profile merged under its own). */
static int req_options(lua_State *L) {
  check_req(L, 1);
  push_ruv(L, 1, 3);
  ldsl_copy_table(L, -1);
  lua_getfield(L, -1, "weights");
  if (lua_type(L, -1) == LUA_TTABLE) {
    ldsl_copy_table(L, -1);
    lua_setfield(L, -3, "weights");
  }
  lua_pop(L, 1);
  return 1;
}

/* Un-anchors the request at 1 from its scheduler's live table. */
static void unanchor(lua_State *L, ReqBox *r) {
  if (!r->sb || !r->sb->sc) return;
  push_ruv(L, 1, 1);
  lua_pushnil(L);
  set_live(L, lua_gettop(L) - 1, r->id);
  if (r->policy) {
    push_suv(L, lua_gettop(L), 5);
    ldsl_push_u64(L, r->id);
    lua_pushnil(L);
    lua_rawset(L, -3);
    lua_pop(L, 1);
  }
  lua_pop(L, 1);
}

/* The outcome of a progress call: true; nil, message, "state" when the
** request has no watched path now; raises for a bad index or cell. */
static int progress_result(lua_State *L, ReqBox *r, lds_Status st, int arg) {
  if (r->state == RQ_CANCELLED) return ldsl_push_fail(L, "the request was cancelled", LDS_E_STATE);
  if (st == LDS_OK) {
    lua_pushboolean(L, 1);
    return 1;
  }
  if (st == LDS_E_ARG) { /* the core's message without its function name */
    const char *m = lds_scheduler_errmsg(r->sb->sc), *c = strstr(m, ": ");
    return ldsl_arg_error(L, arg, c ? c + 2 : m);
  }
  return ldsl_push_fail(L, lds_scheduler_errmsg(r->sb->sc), st);
}

/* req:progress(i) -> true | nil, message, "state": the walker stands on
** cell i (1-based, as path:cell(i)) of the delivered watched path; cells
** up to i leave the watch, the last cell ends it; an index below the
** current progress changes nothing. Raises for i outside 1..#path;
** returns the failure when the request has no watched path now (not
** watched, not delivered, broken, replanning or walked to its end). */
static int req_progress(lua_State *L) {
  ReqBox *r = check_req(L, 1);
  double i = ldsl_check_int(L, 2);
  const lds_Path *p = r->state == RQ_CANCELLED ? NULL : lds_scheduler_path(r->sb->sc, r->id);
  size_t n = p ? lds_path_length(p) : 0;
  if (p && (i < 1 || i > (double)n)) {
    char buf[64];
    return ldsl_arg_error(L, 2, lua_pushfstring(L, "index %s out of range (expected 1..%d, the "
                                                   "path's cells)",
                                                ldsl_fmt_num(buf, sizeof buf, i), (int)n));
  }
  if (i < 1) i = 1; /* no path: the core says why (state) */
  return progress_result(L, r, lds_scheduler_path_progress(r->sb->sc, r->id, (size_t)(i - 1)), 2);
}

/* req:progress_cell(x, y) -> as req:progress: the walker stands on (x, y)
** [Units: cells], its first occurrence at or after the current progress.
** Raises when (x, y) is not on the remaining path. */
static int req_progress_cell(lua_State *L) {
  ReqBox *r = check_req(L, 1);
  double x = ldsl_check_int(L, 2), y = ldsl_check_int(L, 3);
  if (x < -2147483648.0 || x > 2147483647.0 || y < -2147483648.0 || y > 2147483647.0) {
    int bad_x = x < -2147483648.0 || x > 2147483647.0;
    char buf[64];
    return ldsl_arg_error(L, bad_x ? 2 : 3,
                          lua_pushfstring(L, "%s %s out of range (expected a cell of the path)",
                                          bad_x ? "x" : "y",
                                          ldsl_fmt_coord(buf, sizeof buf, bad_x ? x : y)));
  }
  return progress_result(
      L, r, lds_scheduler_path_progress_cell(r->sb->sc, r->id, (int32_t)x, (int32_t)y), 2);
}

/* req:watched() -> boolean: the request has a watched path now (delivered,
** not broken, not walked to its end). */
static int req_watched(lua_State *L) {
  ReqBox *r = check_req(L, 1);
  lua_pushboolean(L, r->state != RQ_CANCELLED && lds_scheduler_watched(r->sb->sc, r->id));
  return 1;
}

/* req:broken() -> x, y, reason of the last break of its watched path (the
** first broken cell [Units: cells]; reason "blocked", "cost" or "move"),
** or nil if it never broke. Known as soon as the edit call returns, before
** on_broken runs (at the next step or sched:deliver()). */
static int req_broken(lua_State *L) {
  ReqBox *r = check_req(L, 1);
  if (!r->broken) {
    lua_pushnil(L);
    return 1;
  }
  lua_pushinteger(L, r->bx);
  lua_pushinteger(L, r->by);
  lua_pushstring(L, watch_reason_name(r->why));
  return 3;
}

/* req:cancel() -> true if it was pending (it leaves the queue, no callback
** runs, status "cancelled"), false otherwise. */
static int req_cancel(lua_State *L) {
  ReqBox *r = check_req(L, 1);
  if (r->state != RQ_PENDING) {
    lua_pushboolean(L, 0);
    return 1;
  }
  ev_unlink(r);
  lds_scheduler_cancel(r->sb->sc, r->id);
  r->state = RQ_CANCELLED;
  lds_path_free(r->quick);
  r->quick = NULL;
  unanchor(L, r);
  lua_pushboolean(L, 1);
  return 1;
}

/* req:release(): frees the request's slot in the scheduler (cancels it if
** pending); paths already returned stay valid. Idempotent; any other method
** raises afterwards. */
static int req_release(lua_State *L) {
  ReqBox *r = check_reqbox(L, 1);
  if (r->state == RQ_RELEASED) return 0;
  unanchor(L, r);
  req_drop(r);
  return 0;
}

/* req:set_priority(p): a pending request's base priority [-1e6..1e6]. */
static int req_set_priority(lua_State *L) {
  ReqBox *r = check_req(L, 1);
  double p = ldsl_check_int(L, 2);
  if (p < -1000000 || p > 1000000)
    return ldsl_arg_error(L, 2, "priority out of range (expected -1000000..1000000)");
  if (r->state != RQ_PENDING || lds_scheduler_set_priority(r->sb->sc, r->id, (int32_t)p) != LDS_OK)
    return luaL_error(L, "%s: set_priority: the request is not pending (%s)", REQ_MT,
                      r->state == RQ_CANCELLED ? "cancelled"
                                               : lds_status_name(lds_scheduler_status(r->sb->sc, r->id)));
  return 0;
}

/* req:set_options(opts): replaces the request's own search options (find_path's
** keys, checked with its messages; merged over its profile's) and restarts
** its search with them, keeping its handle and its place in the queue. */
static int req_set_options(lua_State *L) {
  ReqBox *r = check_req(L, 1);
  lds_SearchParams p;
  double w[16];
  int own;
  lua_settop(L, 2);
  ldsl_check_table(L, 2);
  ldsl_check_keys(L, 2, "option", "opts keys must be strings", search_keys, NULL);
  if (r->nav)
    return luaL_error(L, "%s: set_options: not for a mesh request (its options are fixed at "
                         "sched:request)", REQ_MT);
  if (r->state != RQ_PENDING)
    return luaL_error(L, "%s: set_options: the request is not pending", REQ_MT);
  merge_opts(L, 0, 2); /* 3 */
  own = 3;
  push_ruv(L, 1, 7);   /* 4: profile name */
  if (!lua_isnil(L, 4)) {
    push_ruv(L, 1, 1);
    push_suv(L, lua_gettop(L), 3);
    lua_getfield(L, -1, lua_tostring(L, 4));
    lua_getfield(L, -1, "opts");
    merge_opts(L, lua_gettop(L), own);
  } else {
    merge_opts(L, 0, own);
  }
  normalise(L, lua_gettop(L), 2);
  resolve_params(L, lua_gettop(L), 2, r->grid, &p, w);
  if (r->hier) check_hier_opts(L, 2, 2, lua_isnil(L, 4) ? NULL : lua_tostring(L, 4), NULL, &p, 0);
  if (lds_scheduler_set_params(r->sb->sc, r->id, &p) != LDS_OK) {
    const char *m = lds_scheduler_errmsg(r->sb->sc), *c = strstr(m, ": ");
    return luaL_error(L, "%s: set_options: %s", REQ_MT, c ? c + 2 : m); /* without the C name */
  }
  set_ruv(L, 1, 3);
  lua_pushvalue(L, own);
  set_ruv(L, 1, 9);
  return 0;
}

static int req_tostring(lua_State *L) {
  ReqBox *r = check_reqbox(L, 1);
  if (r->state == RQ_RELEASED)
    lua_pushfstring(L, "%s (released)", REQ_MT);
  else if (!r->sb || !r->sb->sc)
    lua_pushfstring(L, "%s (scheduler freed)", REQ_MT);
  else
    lua_pushfstring(L, "%s %s (%p)", REQ_MT,
                    r->state == RQ_CANCELLED ? "cancelled"
                                             : lds_status_name(lds_scheduler_status(r->sb->sc, r->id)),
                    (void *)r);
  return 1;
}

/* ---------------------------------------------------------- tables -- */

const luaL_Reg ldsl_scheduler_funcs[] = {{"new", sched_new}, {NULL, NULL}};

const luaL_Reg ldsl_scheduler_meth[] = {{"add_grid", sched_add_grid},
                                        {"add_mesh", sched_add_mesh},
                                        {"deliver", sched_deliver},
                                        {"edit_stats", sched_edit_stats},
                                        {"free", sched_free},
                                        {"on_error", sched_on_error},
                                        {"path_cache_stats", sched_path_cache_stats},
                                        {"profile", sched_profile},
                                        {"remove_grid", sched_remove_grid},
                                        {"remove_mesh", sched_remove_mesh},
                                        {"request", sched_request},
                                        {"set_path_cache", sched_set_path_cache},
                                        {"stats", sched_stats},
                                        {"step", sched_step},
                                        {NULL, NULL}};

const luaL_Reg ldsl_scheduler_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", sched_gc},
#endif
    {"__gc", sched_gc},
    {"__tostring", sched_tostring},
    {NULL, NULL}};

const luaL_Reg ldsl_request_meth[] = {{"broken", req_broken},
                                      {"cancel", req_cancel},
                                      {"errmsg", req_errmsg},
                                      {"id", req_id},
                                      {"info", req_info},
                                      {"options", req_options},
                                      {"partial_path", req_partial_path},
                                      {"path", req_path},
                                      {"progress", req_progress},
                                      {"progress_cell", req_progress_cell},
                                      {"release", req_release},
                                      {"set_options", req_set_options},
                                      {"set_priority", req_set_priority},
                                      {"status", req_status},
                                      {"watched", req_watched},
                                      {NULL, NULL}};

const luaL_Reg ldsl_request_metameth[] = {
#if LDS_HAS_CLOSE
    {"__close", req_gc},
#endif
    {"__gc", req_gc},
    {"__tostring", req_tostring},
    {NULL, NULL}};
