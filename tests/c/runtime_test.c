/* SPDX-License-Identifier: MIT */
/*
** runtime_test.c — the embedding runtime (runtime/lds_runtime.h),
** driven from C with Lua linked in, so it is its own program rather than a
** suite of the Lua-free test runner. Built as build/runtime_test, run by
** `make test-runtime` (part of `make test` and `make sanitize`).
** Covers: a request from C and one from Lua give the same path as a one-shot
** A*; on_done is called once; an error in on_done is logged with a traceback
** and the tick goes on; cancel; a borrowed grid survives Lua's GC and
** lua_close; Lua's memory comes from the runtime's allocator; mods: a profile
** applied, a reload restarts an in-flight request with the new profile;
** mod escapes (file readers, the host grid through a view) fail there too.
*/
#define _POSIX_C_SOURCE 200809L /* mkdtemp, sleep */
#include "lds.h"
#include "lds_io.h"
#include "lds_runtime.h"
#include "lodestar_lua.h"

#include <lauxlib.h>
#include <lua.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int passed, failed;

#define CHECK(cond, what)                                            \
  do {                                                               \
    if (cond)                                                        \
      passed++;                                                      \
    else {                                                           \
      failed++;                                                      \
      fprintf(stderr, "FAIL %s:%d: %s\n", __FILE__, __LINE__, what); \
    }                                                                \
  } while (0)

/* docs/NAME with each run of whitespace read as one space (quotes in the
** docs wrap across lines); malloc'ed, NULL when it cannot be read. */
static char *doc_text(const char *name) {
  char path[1024], *buf = NULL;
  size_t n = 0;
  int c, space = 0;
  FILE *f;
  snprintf(path, sizeof path, "%s/docs/%s", LDS_SRCDIR, name);
  f = fopen(path, "rb");
  if (!f || fseek(f, 0, SEEK_END) != 0 || ftell(f) < 0) {
    if (f) fclose(f);
    return NULL;
  }
  buf = (char *)malloc((size_t)ftell(f) + 1);
  rewind(f);
  while (buf && (c = getc(f)) != EOF) {
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r') {
      if (!space) buf[n++] = ' ';
      space = 1;
    } else {
      buf[n++] = (char)c;
      space = 0;
    }
  }
  if (buf) buf[n] = '\0';
  fclose(f);
  return buf;
}

/* true when doc quotes, as one `code span`, the error in errmsg that
** follows `after` (up to the traceback's newline) */
static int doc_quotes(const char *doc, const char *errmsg, const char *after) {
  char want[1024];
  const char *m = strstr(errmsg, after), *end;
  if (!doc || !m) return 0;
  m += strlen(after);
  end = strchr(m, '\n');
  snprintf(want, sizeof want, "`%.*s`", (int)(end ? end - m : (long)strlen(m)), m);
  return strstr(doc, want) != NULL;
}

typedef struct Counter {
  size_t live, calls, peak;
} Counter;

static void *counting_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  Counter *c = (Counter *)ud;
  c->calls++;
  if (nsize == 0) {
    if (ptr) c->live -= osize;
    free(ptr);
    return NULL;
  }
  if (!ptr && osize != 0) { /* lds_Alloc promises 0 for a new block */
    fprintf(stderr, "FAIL: allocator got osize %zu for a new block\n", osize);
    failed++;
  }
  ptr = realloc(ptr, nsize);
  if (ptr) c->live = c->live - osize + nsize;
  if (c->live > c->peak) c->peak = c->live;
  return ptr;
}

typedef struct Log {
  char last_error[4096];
  int errors, infos;
  char all[16384];
} Log;

static void log_fn(void *ud, int level, const char *msg) {
  Log *l = (Log *)ud;
  size_t n = strlen(l->all);
  if (level == 0) {
    l->errors++;
    snprintf(l->last_error, sizeof l->last_error, "%s", msg);
  } else {
    l->infos++;
  }
  snprintf(l->all + n, sizeof l->all - n, "%d %s\n", level, msg);
}

typedef struct Done {
  int calls;
  lds_Status status;
  double cost;
} Done;

static lds_Status c_done(void *ud, lds_Scheduler *sc, lds_RequestId id, lds_RequestEvent ev,
                         const lds_RequestInfo *info) {
  Done *d = (Done *)ud;
  (void)sc;
  (void)id;
  if (ev == LDS_EVENT_DONE) {
    d->calls++;
    d->status = info->status;
    d->cost = info->cost;
  }
  return LDS_OK;
}

static double one_shot(const lds_Grid *g, int32_t sx, int32_t sy, int32_t gx, int32_t gy,
                       const lds_SearchParams *p) {
  lds_Error err;
  lds_Search *s = lds_search_new(NULL, g, &err);
  double c = -1;
  if (s && lds_search_start(s, p, sx, sy, gx, gy) == LDS_OK && lds_search_step(s, NULL) == LDS_FOUND)
    c = lds_search_cost(s);
  lds_search_free(s);
  return c;
}

/* Evaluates a Lua expression to a number (NAN on error). */
static double lua_num(lds_Runtime *rt, const char *expr) {
  lua_State *L = lds_runtime_lua(rt);
  double v = NAN;
  lua_pushfstring(L, "return %s", expr);
  if (luaL_loadstring(L, lua_tostring(L, -1)) == 0 && lua_pcall(L, 0, 1, 0) == 0 &&
      lua_isnumber(L, -1))
    v = lua_tonumber(L, -1);
  lua_settop(L, 0);
  return v;
}

static const char *lua_str(lds_Runtime *rt, const char *expr, char *buf, size_t n) {
  lua_State *L = lds_runtime_lua(rt);
  lua_pushfstring(L, "return tostring(%s)", expr);
  buf[0] = '\0';
  if (luaL_loadstring(L, lua_tostring(L, -1)) == 0 && lua_pcall(L, 0, 1, 0) == 0)
    snprintf(buf, n, "%s", lua_tostring(L, -1));
  lua_settop(L, 0);
  return buf;
}

static int run_frames(lds_Runtime *rt, int max) {
  int f = 0;
  while (lds_runtime_pending(rt) > 0 && f < max) {
    lds_runtime_tick(rt, 0, NULL);
    f++;
  }
  return f;
}

static void test_basic(void) {
  Counter c = {0, 0, 0};
  Log lg;
  lds_RuntimeConfig cfg;
  lds_Runtime *rt;
  lds_Error err;
  lds_Grid *g = lds_map_load(NULL, LDS_SRCDIR "/tests/data/arena.map", &err);
  lds_Request rq;
  lds_RequestId id;
  lds_SearchParams p;
  Done d = {0, LDS_RUNNING, 0};
  double ref, v;
  char buf[256];
  size_t before;
  memset(&lg, 0, sizeof lg);
  CHECK(g != NULL, "arena.map loads");
  if (!g) return;
  lds_runtime_config_init(&cfg);
  cfg.env.alloc = counting_alloc;
  cfg.env.alloc_ud = &c;
  cfg.env.log = log_fn;
  cfg.env.log_ud = &lg;
  cfg.sched.deterministic = true;
  rt = lds_runtime_new(&cfg, &err);
  CHECK(rt != NULL, err.msg);
  if (!rt) return;
  /* the Lua state runs on the runtime's allocator: the package alone is
  ** tens of kilobytes, and lua_gc's count matches what the allocator saw */
  CHECK(c.live > 20000, "Lua memory is charged to the runtime's allocator");
  CHECK(lds_runtime_add_grid(rt, "world", g) == LDS_OK, lds_runtime_errmsg(rt));
  CHECK(lds_runtime_add_grid(rt, "world", g) == LDS_E_ARG, "a name is added once");
  CHECK(strstr(lds_runtime_errmsg(rt), "already added") != NULL, lds_runtime_errmsg(rt));
  CHECK(lds_runtime_grid(rt, "world") == g, "lds_runtime_grid finds it");

  /* a request from C */
  lds_request_init(&rq, g, 3, 3, 30, 30);
  rq.on_done = c_done;
  rq.ud = &d;
  CHECK(lds_runtime_submit(rt, &rq, NULL, &id) == LDS_OK, "submit from C");
  /* a request from Lua, with an on_done counting its calls */
  CHECK(lds_runtime_dostring(rt,
                             "calls = 0\n"
                             "h = lodestar.request_path{grid = 'world', start = {3, 3}, goal = {30, 30},\n"
                             "  agent = 7, on_done = function(h) calls = calls + 1; seen = h.status end}\n"
                             "h2 = lodestar.request_path{grid = lodestar.grids.world, start = {x = 4, y = 3},\n"
                             "  goal = {x = 40, y = 20}}\n",
                             "=test") == LDS_OK,
        lds_runtime_errmsg(rt));
  CHECK(strcmp(lua_str(rt, "h.status", buf, sizeof buf), "running") == 0, buf);
  v = run_frames(rt, 10000);
  CHECK(v >= 1 && lds_runtime_pending(rt) == 0, "every request finishes");
  lds_search_params_init(&p);
  ref = one_shot(g, 3, 3, 30, 30, &p);
  CHECK(ref > 0, "reference path exists");
  CHECK(d.calls == 1 && d.status == LDS_FOUND, "C on_done called once with found");
  CHECK(fabs(d.cost - ref) < 1e-9, "C request cost equals one-shot A*");
  CHECK(lua_num(rt, "calls") == 1, "Lua on_done called once");
  CHECK(strcmp(lua_str(rt, "seen", buf, sizeof buf), "found") == 0, buf);
  CHECK(fabs(lua_num(rt, "h.cost") - ref) < 1e-9, "Lua request cost equals one-shot A*");
  CHECK(fabs(lua_num(rt, "h.path.cost") - ref) < 1e-9, "h.path is a lodestar.Path with that cost");
  CHECK(lua_num(rt, "h.agent") == 7, "agent tag kept");
  CHECK(strcmp(lua_str(rt, "h2.status", buf, sizeof buf), "found") == 0, "handle without on_done");
  CHECK(fabs(lua_num(rt, "h2.cost") - one_shot(g, 4, 3, 40, 20, &p)) < 1e-9, "h2 cost");
  CHECK(lua_num(rt, "calls") == 1, "on_done not called again by later ticks");
  run_frames(rt, 3);
  CHECK(lua_num(rt, "calls") == 1, "still once");

  /* a Lua request with weights: its path remembers them, so prune_los and
  ** smoothing measure with the request's weights */
  CHECK(lds_grid_layer_add(g, "rt_mud", NULL) == LDS_OK, "layer rt_mud added");
  CHECK(lds_runtime_dostring(rt,
                             "hw = lodestar.request_path{grid = 'world', start = {3, 3},\n"
                             "  goal = {6, 6}, weights = {rt_mud = 2}}\n",
                             "=test") == LDS_OK,
        lds_runtime_errmsg(rt));
  run_frames(rt, 100);
  CHECK(lua_num(rt, "hw.path.weights.rt_mud") == 2, "the delivered path remembers its weights");
  CHECK(lua_num(rt, "hw.path:prune_los(lodestar.grids.world).weights.rt_mud") == 2,
        "prune_los keeps them");
  CHECK(lds_grid_layer_remove(g, lds_grid_layer_find(g, "rt_mud")) == LDS_OK, "layer removed");

  /* an error in on_done: logged with its message and a traceback, the tick
  ** goes on and delivers the other request of the same tick */
  lg.errors = 0;
  CHECK(lds_runtime_dostring(rt,
                             "ok_after = false\n"
                             "local function boom() error('kaboom in on_done') end\n"
                             "bad = lodestar.request_path{grid = 'world', start = {3, 3}, goal = {5, 5},\n"
                             "  priority = 5, on_done = function(h) boom() end}\n"
                             "good = lodestar.request_path{grid = 'world', start = {3, 3}, goal = {6, 6},\n"
                             "  on_done = function(h) ok_after = true end}\n",
                             "=errtest") == LDS_OK,
        lds_runtime_errmsg(rt));
  {
    lds_RuntimeStats st;
    lds_runtime_tick(rt, 0, &st);
    CHECK(st.lua_errors == 1, "one Lua error counted in the tick");
    CHECK(st.tick.callback_errors == 1, "the scheduler counted the callback error");
    CHECK(st.tick.finished == 2, "both requests finished in the same tick");
  }
  CHECK(lg.errors >= 1, "the error went to the log callback");
  CHECK(strstr(lg.all, "kaboom in on_done") != NULL, "message logged");
  CHECK(strstr(lg.all, "stack traceback") != NULL, "traceback logged");
  CHECK(strstr(lg.all, "errtest:2") != NULL, "the traceback names the chunk and line");
  CHECK(lua_num(rt, "ok_after and 1 or 0") == 1, "the other request was delivered");
  CHECK(strcmp(lua_str(rt, "bad.status", buf, sizeof buf), "found") == 0,
        "the failing handle is complete");

  /* cancel */
  CHECK(lds_runtime_dostring(rt,
                             "cancelled_calls = 0\n"
                             "c = lodestar.request_path{grid = 'world', start = {3, 3}, goal = {45, 45},\n"
                             "  on_done = function() cancelled_calls = cancelled_calls + 1 end}\n"
                             "was = c:cancel()\n",
                             "=cancel") == LDS_OK,
        lds_runtime_errmsg(rt));
  CHECK(lds_runtime_pending(rt) == 0, "the cancelled request left the scheduler");
  run_frames(rt, 5);
  lds_runtime_tick(rt, 0, NULL);
  CHECK(lua_num(rt, "cancelled_calls") == 0, "no on_done for a cancelled request");
  CHECK(strcmp(lua_str(rt, "c.status", buf, sizeof buf), "cancelled") == 0, buf);
  CHECK(strcmp(lua_str(rt, "was", buf, sizeof buf), "true") == 0, "cancel returned true");
  CHECK(strcmp(lua_str(rt, "c:cancel()", buf, sizeof buf), "false") == 0, "second cancel is false");

  /* bad input raises with a clear message */
  CHECK(lds_runtime_dostring(rt, "lodestar.request_path{grid = 'nope', start = {3,3}, goal = {2,2}}",
                             "=bad") == LDS_E_CALLBACK, "unknown grid raises");
  CHECK(strstr(lds_runtime_errmsg(rt), "no grid named 'nope'") != NULL, lds_runtime_errmsg(rt));
  CHECK(lds_runtime_dostring(rt, "lodestar.request_path{grid = 'world', start = {3,3}, goal = {999,2}}",
                             "=bad") == LDS_E_CALLBACK, "out of bounds raises");
  CHECK(strstr(lds_runtime_errmsg(rt), "out of bounds") != NULL, lds_runtime_errmsg(rt));
  CHECK(lds_runtime_dostring(rt, "lodestar.request_path{grid = 'world', start = {3,3}, goal = {2,2}, profile = 'x.y'}",
                             "=bad") == LDS_E_CALLBACK, "profile without mods raises");
  CHECK(strstr(lds_runtime_errmsg(rt), "bad argument #1 to 'request_path' (profile 'x.y' but the "
               "runtime has no mods (set mods_dir))") != NULL, lds_runtime_errmsg(rt));
  CHECK(lds_runtime_dostring(rt, "lodestar.request_path{grid = 'world', start = {3,3}, goal = {2,2}, colour = 1}",
                             "=bad") == LDS_E_CALLBACK, "unknown field raises");
  CHECK(strstr(lds_runtime_errmsg(rt), "unknown field 'colour'") != NULL, lds_runtime_errmsg(rt));
  /* docs/embedding.md quotes these messages whole (it had "(unknown field
  ** 'colour')" without the list of fields) */
  {
    char *doc = doc_text("embedding.md");
    CHECK(doc != NULL, "docs/embedding.md");
    CHECK(doc_quotes(doc, lds_runtime_errmsg(rt), "bad:1: "), lds_runtime_errmsg(rt));
    CHECK(lds_runtime_dostring(rt, "lodestar.request_path{grid = 'nope', start = {3,3}, "
                               "goal = {2,2}}", "=bad") == LDS_E_CALLBACK, "unknown grid");
    CHECK(doc_quotes(doc, lds_runtime_errmsg(rt), "bad:1: "), lds_runtime_errmsg(rt));
    CHECK(lds_runtime_dostring(rt, "lodestar.request_path{grid = 'world', start = {3,3}, "
                               "goal = {2,2}, profile = 'x.y'}", "=bad") == LDS_E_CALLBACK,
          "profile without mods");
    CHECK(doc_quotes(doc, lds_runtime_errmsg(rt), "bad:1: "), lds_runtime_errmsg(rt));
    free(doc);
  }
  CHECK(lds_runtime_dostring(rt, "lodestar.request_path{grid = 'world', start = {3,3}, goal = {5,5}, priority = 1.5}",
                             "=bad") == LDS_E_CALLBACK, "fractional priority raises");
  CHECK(strstr(lds_runtime_errmsg(rt), "priority: integer expected, got 1.5") != NULL, lds_runtime_errmsg(rt));
  CHECK(lds_runtime_dostring(rt, "this is not lua", "=syntax") == LDS_E_FORMAT, "syntax error");

  /* the borrowed grid: Lua's references die and the GC runs; the grid lives */
  before = lds_grid_mem_used(g);
  CHECK(lds_runtime_dostring(rt,
                             "local g = lodestar.grids.world\n"
                             "assert(tostring(g):find('lodestar.Grid'))\n"
                             "g:free()\n"  /* a borrowed grid: :free() only closes the handle */
                             "h, h2, bad, good, c = nil\n"
                             "collectgarbage(); collectgarbage()\n",
                             "=gc") == LDS_OK,
        lds_runtime_errmsg(rt));
  CHECK(lds_grid_width(g) == 49 || lds_grid_width(g) > 0, "grid still usable from C");
  CHECK(lds_grid_mem_used(g) == before, "grid memory untouched");
  lds_runtime_free(rt);
  CHECK(lds_grid_passable_count(g) > 0, "grid alive after lds_runtime_free (lua_close ran)");
  CHECK(c.live == 0, "every byte of the runtime's allocator returned");
  lds_grid_free(g);
}

/* mods: a profile from C and from Lua; a reload restarts in-flight requests */
static void copy_file(const char *from, const char *to) {
  char buf[8192];
  size_t n;
  FILE *a = fopen(from, "rb"), *b = fopen(to, "wb");
  if (a && b)
    while ((n = fread(buf, 1, sizeof buf, a)) > 0) fwrite(buf, 1, n, b);
  if (a) fclose(a);
  if (b) fclose(b);
}

static void write_mod(const char *dir, double weight) {
  char path[512];
  FILE *f;
  snprintf(path, sizeof path, "%s/terrain", dir);
  snprintf(path, sizeof path, "%s/terrain/mod.lua", dir);
  f = fopen(path, "w");
  if (!f) return;
  fprintf(f,
          "return { name = 'terrain', version = '%g',\n"
          "  layers = { forest = function(x, y, t) return (x %% 7 == 0) and 1 or 0 end },\n"
          "  profiles = { walker = { weights = { forest = %g } } },\n"
          "  selftest = function() return lodestar.request_path == nil and lodestar.grids == nil\n"
          "    and lodestar.mods == nil and lodestar.find_path ~= nil, 'runtime API hidden' end }\n",
          weight, weight);
  fclose(f);
}

/* the last mod event, as a C host sees it */
typedef struct ModEv {
  int n;
  char result[32];
  char error[512];
} ModEv;

static void mod_event_fn(void *ud, const lds_ModEvent *ev) {
  ModEv *m = (ModEv *)ud;
  m->n++;
  snprintf(m->result, sizeof m->result, "%s", ev->result ? ev->result : "");
  snprintf(m->error, sizeof m->error, "%s", ev->error ? ev->error : "");
}

static void test_mods(void) {
  char dir[] = "/tmp/lds_rt_modsXXXXXX";
  char sub[600];
  lds_RuntimeConfig cfg;
  lds_Runtime *rt;
  lds_Error err;
  Log lg;
  lds_Grid *g;
  lds_Request rq;
  lds_RequestId id;
  Done d = {0, LDS_RUNNING, 0};
  lds_SearchParams p;
  double w[1], w16[16];
  uint32_t restarted = 0;
  int n;
  ModEv mev;
  memset(&mev, 0, sizeof mev);
  memset(&lg, 0, sizeof lg);
  if (!mkdtemp(dir)) {
    CHECK(0, "mkdtemp");
    return;
  }
  snprintf(sub, sizeof sub, "mkdir -p %s/terrain", dir);
  if (system(sub) != 0) CHECK(0, "mkdir");
  write_mod(dir, 2);
  (void)copy_file;
  g = lds_grid_new(NULL, 64, 64, &err);
  lds_runtime_config_init(&cfg);
  cfg.env.log = log_fn;
  cfg.env.log_ud = &lg;
  cfg.mods_dir = dir;
  cfg.sched.deterministic = true;
  cfg.on_mod_event = mod_event_fn;
  cfg.mod_event_ud = &mev;
  rt = lds_runtime_new(&cfg, &err);
  CHECK(rt != NULL, err.msg);
  if (!rt) return;
  CHECK(lds_runtime_add_grid(rt, "world", g) == LDS_OK, lds_runtime_errmsg(rt));
  CHECK(lds_grid_layer_find(g, "terrain.forest") == 0, "the mod's layer was baked on the grid");
  /* C request with a profile: same cost as a one-shot with the weight */
  lds_request_init(&rq, g, 0, 10, 63, 10);
  rq.on_done = c_done;
  rq.ud = &d;
  CHECK(lds_runtime_submit(rt, &rq, "terrain.walker", &id) == LDS_OK, lds_runtime_errmsg(rt));
  n = lg.errors;
  CHECK(lds_runtime_submit(rt, &rq, "terrain.nope", &id) == LDS_E_ARG, "unknown profile");
  /* the name once, then what exists (it read "profile 'terrain.nope': no
  ** profile 'terrain.nope'") */
  CHECK(strcmp(lds_runtime_errmsg(rt),
               "lds_runtime_submit: unknown profile 'terrain.nope' (profiles: terrain.walker)") == 0,
        lds_runtime_errmsg(rt));
  lds_search_params_init(&p);
  CHECK(lds_runtime_profile_params(rt, g, "terrain.nope", &p, w16) == LDS_E_ARG, "unknown profile");
  CHECK(strcmp(lds_runtime_errmsg(rt), "lds_runtime_profile_params: unknown profile "
               "'terrain.nope' (profiles: terrain.walker)") == 0, lds_runtime_errmsg(rt));
  /* not a qualified name: the same kind of message (the manager used to
  ** raise, logged as a Lua error with a traceback) */
  CHECK(lds_runtime_submit(rt, &rq, "walker", &id) == LDS_E_ARG, "unqualified profile");
  CHECK(strcmp(lds_runtime_errmsg(rt), "lds_runtime_submit: unknown profile 'walker' "
               "(expected 'mod.profile'; profiles: terrain.walker)") == 0, lds_runtime_errmsg(rt));
  CHECK(strstr(lds_runtime_errmsg(rt), "traceback") == NULL, lds_runtime_errmsg(rt));
  CHECK(lg.errors == n, "a bad profile name is the caller's error, not logged as a Lua error");
  CHECK(lds_runtime_dostring(rt,
                             "hp = lodestar.request_path{grid = 'world', start = {0, 10}, goal = {63, 10},\n"
                             "  profile = 'terrain.walker'}\n", "=prof") == LDS_OK,
        lds_runtime_errmsg(rt));
  /* from Lua, the same words as from C (it read "profile 'terrain.nope':
  ** no profile 'terrain.nope'"); a malformed name is not a manager error */
  CHECK(lds_runtime_dostring(rt, "lodestar.request_path{grid = 'world', start = {0, 10}, "
                             "goal = {63, 10}, profile = 'terrain.nope'}", "=prof") == LDS_E_CALLBACK,
        "unknown profile from Lua raises");
  CHECK(strstr(lds_runtime_errmsg(rt), "prof:1: bad argument #1 to 'request_path' (unknown profile "
               "'terrain.nope' (profiles: terrain.walker))\n") != NULL, lds_runtime_errmsg(rt));
  CHECK(lds_runtime_dostring(rt, "lodestar.request_path{grid = 'world', start = {0, 10}, "
                             "goal = {63, 10}, profile = 'walker'}", "=prof") == LDS_E_CALLBACK,
        "unqualified profile from Lua raises");
  CHECK(strstr(lds_runtime_errmsg(rt), "prof:1: bad argument #1 to 'request_path' (unknown profile "
               "'walker' (expected 'mod.profile'; profiles: terrain.walker))\n") != NULL, lds_runtime_errmsg(rt));
  { /* as docs/embedding.md quotes it */
    char *doc = doc_text("embedding.md");
    CHECK(lds_runtime_dostring(rt, "lodestar.request_path{grid = 'world', start = {0, 10}, "
                               "goal = {63, 10}, profile = 'x.y'}", "=prof") == LDS_E_CALLBACK,
          "unknown profile x.y");
    CHECK(doc_quotes(doc, lds_runtime_errmsg(rt), "prof:1: "), lds_runtime_errmsg(rt));
    CHECK(lds_runtime_submit(rt, &rq, "terrain.nothere", &id) == LDS_E_ARG, "terrain.nothere");
    CHECK(strstr(doc ? doc : "", "`lds_runtime_submit: unknown profile 'terrain.nothere' (profiles:")
          != NULL, lds_runtime_errmsg(rt));
    free(doc);
  }
  /* reload before the requests ran: weight 2 -> 5; both must be restarted
  ** and answer with weight 5 */
  sleep(1); /* mtime resolution (the manager also compares content) */
  write_mod(dir, 5);
  n = lds_runtime_poll_mods(rt, &restarted);
  CHECK(n == 1, "one reload event");
  CHECK(restarted == 2, "the C and the Lua request were restarted");
  CHECK(strstr(lg.all, "reloaded") != NULL, "the reload went to the log");
  run_frames(rt, 10000);
  lds_search_params_init(&p);
  w[0] = 5;
  p.layer_weights = w;
  p.n_layer_weights = 1;
  CHECK(d.calls == 1 && fabs(d.cost - one_shot(g, 0, 10, 63, 10, &p)) < 1e-9,
        "C request answered under the new profile (weight 5)");
  CHECK(fabs(lua_num(rt, "hp.cost") - one_shot(g, 0, 10, 63, 10, &p)) < 1e-9,
        "Lua request answered under the new profile");
  w[0] = 2;
  CHECK(fabs(lua_num(rt, "hp.cost") - one_shot(g, 0, 10, 63, 10, &p)) > 1.0,
        "and not under the old one");
  /* a broken version: the event's error is the "file:line: message" string
  ** (it was the address of the manager's error table) */
  sleep(1);
  {
    char path[600];
    FILE *f;
    snprintf(path, sizeof path, "%s/terrain/mod.lua", dir);
    f = fopen(path, "w");
    if (f) {
      fputs("return { name = 'terrain', version = '6',\n  layers = { forest = function( end } }\n", f);
      fclose(f);
    }
  }
  mev.n = 0;
  n = lds_runtime_poll_mods(rt, &restarted);
  CHECK(n == 1 && mev.n == 1, "one event for the broken version");
  CHECK(strcmp(mev.result, "failed") == 0, mev.result);
  CHECK(strstr(mev.error, "terrain/mod.lua:2:") != NULL && strncmp(mev.error, "table:", 6) != 0,
        mev.error);
  lds_runtime_free(rt);
  CHECK(lds_grid_layer_find(g, "terrain.forest") < 0, "lds_runtime_free removed the mod's layers");
  lds_grid_free(g);
  snprintf(sub, sizeof sub, "rm -rf %s", dir);
  if (system(sub) != 0) CHECK(0, "rm");
}

/* the unknown-profile message when the mods define many profiles (cut,
** pointing at lds_runtime_profiles) or none */
static void write_file(const char *path, const char *text) {
  FILE *f = fopen(path, "w");
  if (!f) return;
  fputs(text, f);
  fclose(f);
}

static void test_profile_names(void) {
  char dir[] = "/tmp/lds_rt_profXXXXXX";
  char path[600], text[4096];
  lds_RuntimeConfig cfg;
  lds_Runtime *rt;
  lds_Error err;
  lds_Grid *g;
  lds_Request rq;
  lds_RequestId id;
  Log lg;
  size_t len;
  int k;
  memset(&lg, 0, sizeof lg);
  if (!mkdtemp(dir)) {
    CHECK(0, "mkdtemp");
    return;
  }
  snprintf(path, sizeof path, "mkdir -p %s/crowd %s/plain", dir, dir);
  if (system(path) != 0) CHECK(0, "mkdir");
  len = (size_t)snprintf(text, sizeof text, "return { name = 'crowd', version = '1', profiles = {");
  for (k = 0; k < 40; k++)
    len += (size_t)snprintf(text + len, sizeof text - len, " p%02d = { algorithm = 'astar' },", k);
  snprintf(text + len, sizeof text - len, " } }\n");
  snprintf(path, sizeof path, "%s/crowd/mod.lua", dir);
  write_file(path, text);
  snprintf(path, sizeof path, "%s/plain/mod.lua", dir);
  write_file(path, "return { name = 'plain', version = '1' }\n");
  g = lds_grid_new(NULL, 8, 8, &err);
  lds_runtime_config_init(&cfg);
  cfg.env.log = log_fn;
  cfg.env.log_ud = &lg;
  cfg.mods_dir = dir;
  rt = lds_runtime_new(&cfg, &err);
  CHECK(rt != NULL, err.msg);
  if (!rt) return;
  CHECK(lds_runtime_add_grid(rt, "world", g) == LDS_OK, lds_runtime_errmsg(rt));
  lds_request_init(&rq, g, 0, 0, 7, 7);
  CHECK(lds_runtime_submit(rt, &rq, "crowd.p99", &id) == LDS_E_ARG, "unknown profile");
  CHECK(strncmp(lds_runtime_errmsg(rt), "lds_runtime_submit: unknown profile 'crowd.p99' "
                "(profiles: crowd.p00, crowd.p01, ", 80) == 0, lds_runtime_errmsg(rt));
  {
    static const char tail[] = "crowd.p13, ...; lds_runtime_profiles lists them all)";
    len = strlen(lds_runtime_errmsg(rt));
    CHECK(len > sizeof tail && strcmp(lds_runtime_errmsg(rt) + len - (sizeof tail - 1), tail) == 0,
          lds_runtime_errmsg(rt));
  }
  CHECK(strstr(lds_runtime_errmsg(rt), "crowd.p39") == NULL, "the list is cut");
  CHECK(lg.errors == 0, lg.last_error);
  lds_runtime_free(rt);
  /* only a mod without profiles */
  snprintf(path, sizeof path, "rm -rf %s/crowd", dir);
  if (system(path) != 0) CHECK(0, "rm");
  rt = lds_runtime_new(&cfg, &err);
  CHECK(rt != NULL, err.msg);
  if (rt) {
    CHECK(lds_runtime_add_grid(rt, "world", g) == LDS_OK, lds_runtime_errmsg(rt));
    CHECK(lds_runtime_submit(rt, &rq, "plain.walker", &id) == LDS_E_ARG, "no profiles");
    CHECK(strcmp(lds_runtime_errmsg(rt), "lds_runtime_submit: unknown profile 'plain.walker' "
                 "(the running mods define no profiles)") == 0, lds_runtime_errmsg(rt));
    lds_runtime_free(rt);
  }
  lds_grid_free(g);
  snprintf(path, sizeof path, "rm -rf %s", dir);
  if (system(path) != 0) CHECK(0, "rm");
}

/* mod escapes through the runtime (tests/spec/21-mod_escape_spec.lua has
** the full suite): a mod reaches no file reader, and a view hands it no
** grid; the host's grid, its layers and its own lodestar table stay as
** they were, and a request still runs */
typedef struct EvLog {
  int loaded, failed;
  char errors[4096];
} EvLog;

static void evlog_fn(void *ud, const lds_ModEvent *ev) {
  EvLog *e = (EvLog *)ud;
  size_t n = strlen(e->errors);
  if (ev->result && strcmp(ev->result, "loaded") == 0) e->loaded++;
  if (ev->result && strcmp(ev->result, "failed") == 0) e->failed++;
  if (ev->error) snprintf(e->errors + n, sizeof e->errors - n, "%s\n", ev->error);
}

static void test_mod_escapes(void) {
  char dir[] = "/tmp/lds_rt_escXXXXXX";
  char path[700], passwd[256] = "";
  lds_RuntimeConfig cfg;
  lds_Runtime *rt;
  lds_Error err;
  lds_Grid *g;
  lds_Request rq;
  lds_RequestId id;
  Done d = {0, LDS_RUNNING, 0};
  EvLog ev;
  Log lg;
  FILE *f;
  int li;
  memset(&ev, 0, sizeof ev);
  memset(&lg, 0, sizeof lg);
  f = fopen("/etc/passwd", "r");
  if (f) {
    if (!fgets(passwd, sizeof passwd, f)) passwd[0] = '\0';
    passwd[strcspn(passwd, "\n")] = '\0';
    fclose(f);
  }
  if (!mkdtemp(dir)) {
    CHECK(0, "mkdtemp");
    return;
  }
  snprintf(path, sizeof path, "mkdir -p %s/good %s/evil_load %s/evil_core %s/evil_steal", dir, dir,
           dir, dir);
  if (system(path) != 0) CHECK(0, "mkdir");
  snprintf(path, sizeof path, "%s/good/mod.lua", dir);
  write_file(path, "return { name = 'good', version = '1',\n"
                   "  layers = { swamp = function(x) return x == 0 and 3 or 0 end },\n"
                   "  profiles = { walker = { weights = { swamp = 1 } } } }\n");
  snprintf(path, sizeof path, "%s/evil_load/mod.lua", dir);
  write_file(path, "mod.state.x = lodestar.grid.load('/etc/passwd')\n"
                   "return { name = 'evil_load', version = '1' }\n");
  snprintf(path, sizeof path, "%s/evil_core/mod.lua", dir);
  write_file(path, "mod.state.x = lodestar.core.graph.load_dimacs('/etc/passwd')\n"
                   "return { name = 'evil_core', version = '1' }\n");
  /* the raw host grid: a fake path whose prune_los would receive it */
  snprintf(path, sizeof path, "%s/evil_steal/mod.lua", dir);
  write_file(path, "return { name = 'evil_steal', version = '1', layers = { l = { make = function(view)\n"
                   "  view.prune_los({ prune_los = function(_, grid) grid:free() end })\n"
                   "  return function() return 0 end end } } }\n");
  g = lds_grid_new(NULL, 16, 4, &err);
  lds_runtime_config_init(&cfg);
  cfg.env.log = log_fn;
  cfg.env.log_ud = &lg;
  cfg.mods_dir = dir;
  cfg.on_mod_event = evlog_fn;
  cfg.mod_event_ud = &ev;
  rt = lds_runtime_new(&cfg, &err);
  CHECK(rt != NULL, err.msg);
  if (!rt) return;
  CHECK(ev.failed == 2, ev.errors); /* evil_load, evil_core */
#if LUA_VERSION_NUM == 501 /* LuaJIT words the same errors its own way */
  CHECK(strstr(ev.errors, "evil_load/mod.lua:1: attempt to call field 'load' (a nil value)") != NULL,
        ev.errors);
  CHECK(strstr(ev.errors, "evil_core/mod.lua:1: attempt to index field 'core' (a nil value)") != NULL,
        ev.errors);
#else
  CHECK(strstr(ev.errors, "evil_load/mod.lua:1: attempt to call a nil value (field 'load')") != NULL,
        ev.errors);
  CHECK(strstr(ev.errors, "evil_core/mod.lua:1: attempt to index a nil value (field 'core')") != NULL,
        ev.errors);
#endif
  /* evil_steal's factory runs when the grid is added: its bake fails */
  CHECK(lds_runtime_add_grid(rt, "world", g) == LDS_OK, lds_runtime_errmsg(rt));
  CHECK(strstr(lg.all, "bad argument #1 to 'prune_los' (lodestar.Path expected, got table)") != NULL,
        lg.all);
  CHECK(passwd[0] == '\0' || (strstr(lg.all, passwd) == NULL && strstr(ev.errors, passwd) == NULL),
        "no line of /etc/passwd in the log");
  /* the host's grid is alive, with the bystander's layer only */
  CHECK(lds_grid_width(g) == 16 && lds_grid_height(g) == 4, "the grid is alive");
  li = lds_grid_layer_find(g, "good.swamp");
  CHECK(li >= 0 && lds_grid_layer_cdata(g, li)[0] == 3.0f && lds_grid_layer_cdata(g, li)[1] == 0.0f,
        "the bystander's layer");
  CHECK(lds_grid_layer_find(g, "evil_steal.l") < 0, "no layer of the failed mod");
  CHECK(lds_runtime_dostring(rt, "assert(type(lodestar.grid.load) == 'function')\n"
                             "assert(lodestar.grids.world:width() == 16)", "=host") == LDS_OK,
        lds_runtime_errmsg(rt));
  lds_request_init(&rq, g, 0, 0, 15, 3);
  rq.on_done = c_done;
  rq.ud = &d;
  CHECK(lds_runtime_submit(rt, &rq, "good.walker", &id) == LDS_OK, lds_runtime_errmsg(rt));
  run_frames(rt, 10000);
  CHECK(d.calls == 1 && d.status == LDS_FOUND, "a request runs after the attacks");
  lds_runtime_free(rt);
  lds_grid_free(g);
  snprintf(path, sizeof path, "rm -rf %s", dir);
  if (system(path) != 0) CHECK(0, "rm");
}

/* Requests with partial paths, from C and from Lua: a wall across a 10x5
** grid at x = 5; goal (9,0) walled off, (5,2) blocked. With partial the
** request ends no_path with the path to the closest reachable cell, (4,0)
** (cost 4) and (4,2) (cost 4), as lds_search_path gives it. */
static void test_partial_requests(void) {
  lds_RuntimeConfig cfg;
  lds_Runtime *rt;
  lds_Error err;
  lds_Grid *g = lds_grid_new(NULL, 10, 5, NULL);
  lds_Request rq;
  lds_RequestId id, id2;
  Done d = {0, LDS_RUNNING, 0};
  const lds_Path *path;
  char buf[256];
  int32_t y, x = -1;
  Log lg;
  memset(&lg, 0, sizeof lg);
  for (y = 0; y < 5; y++) lds_grid_set_blocked(g, 5, y, true);
  lds_runtime_config_init(&cfg);
  cfg.env.log = log_fn; /* the expected error below, not on stderr */
  cfg.env.log_ud = &lg;
  cfg.sched.deterministic = true;
  rt = lds_runtime_new(&cfg, &err);
  CHECK(rt != NULL, err.msg);
  if (!rt) return;
  CHECK(lds_runtime_add_grid(rt, "wall", g) == LDS_OK, lds_runtime_errmsg(rt));
  lds_request_init(&rq, g, 0, 0, 9, 0);
  rq.params.partial = true;
  rq.on_done = c_done;
  rq.ud = &d;
  CHECK(lds_runtime_submit(rt, &rq, NULL, &id) == LDS_OK, "submit a partial request from C");
  lds_request_init(&rq, g, 0, 2, 5, 2); /* the goal on the wall */
  rq.params.partial = true;
  CHECK(lds_runtime_submit(rt, &rq, NULL, &id2) == LDS_OK, "submit, goal blocked");
  CHECK(lds_runtime_dostring(rt,
                             "hp = lodestar.request_path{grid = 'wall', start = {0, 0}, goal = {9, 0},\n"
                             "  partial = true}\n"
                             "hb = lodestar.request_path{grid = 'wall', start = {0, 2}, goal = {5, 2},\n"
                             "  partial = true}\n"
                             "hn = lodestar.request_path{grid = 'wall', start = {0, 0}, goal = {9, 0}}\n",
                             "=partial") == LDS_OK,
        lds_runtime_errmsg(rt));
  run_frames(rt, 1000);
  CHECK(d.calls == 1 && d.status == LDS_NO_PATH, "C request: no_path");
  CHECK(d.cost == 4.0, "C request: the partial path's cost in the info");
  path = lds_runtime_scheduler(rt) ? lds_scheduler_path(lds_runtime_scheduler(rt), id) : NULL;
  CHECK(path && (lds_path_flags(path) & LDS_PATH_PARTIAL), "C request: a partial path");
  if (path) lds_path_cell(path, lds_path_length(path) - 1, &x, &y);
  CHECK(path && x == 4 && y == 0, "C request: ends beside the wall at (4,0)");
  path = lds_runtime_scheduler(rt) ? lds_scheduler_path(lds_runtime_scheduler(rt), id2) : NULL;
  if (path) lds_path_cell(path, lds_path_length(path) - 1, &x, &y);
  CHECK(path && x == 4 && y == 2 && lds_path_cost(path) == 4.0, "C request, goal blocked: (4,2)");
  CHECK(strcmp(lua_str(rt, "hp.status", buf, sizeof buf), "no_path") == 0, buf);
  CHECK(strcmp(lua_str(rt, "hp.path.partial", buf, sizeof buf), "true") == 0, buf);
  CHECK(lua_num(rt, "hp.path.cost") == 4.0 && lua_num(rt, "hp.cost") == 4.0, "Lua: cost 4");
  CHECK(lua_num(rt, "select(1, hp.path:cell(-1))") == 4, "Lua: ends at x = 4");
  CHECK(lua_num(rt, "select(2, hb.path:cell(-1))") == 2, "Lua, goal blocked: ends at y = 2");
  CHECK(strcmp(lua_str(rt, "hn.status", buf, sizeof buf), "no_path") == 0, buf);
  CHECK(strcmp(lua_str(rt, "hn.path", buf, sizeof buf), "nil") == 0, "Lua: no path without partial");
  /* options are checked by find_path's parser: a bad one raises its message */
  CHECK(lds_runtime_dostring(rt, "lodestar.request_path{grid = 'wall', start = {0,0}, goal = {9,0}, weight = 0.5}",
                             "=bad") == LDS_E_CALLBACK, "a bad weight raises");
  CHECK(strstr(lds_runtime_errmsg(rt), "bad:1: bad argument #1 to 'request_path' (opts.weight: 0.5 "
                                       "out of range (expected finite, >= 1))") != NULL,
        lds_runtime_errmsg(rt));
  lds_runtime_free(rt);
  lds_grid_free(g);
}

/* A fake clock for the mods' time limit: every read advances 1 ms. */
static uint64_t step_clock(void *ud) {
  uint64_t *t = (uint64_t *)ud;
  *t += 1000;
  return *t;
}

/* One runtime over one mod folder: the event of its first load in *mev;
** then grid g is added (a failed bake there is logged, not an event). */
static lds_Runtime *limits_runtime(lds_RuntimeConfig *cfg, const char *dir, const char *name,
                                   const char *src, lds_Grid *g, ModEv *mev) {
  char path[600];
  lds_Error err;
  lds_Runtime *rt;
  snprintf(path, sizeof path, "rm -rf %s/* && mkdir -p %s/%s", dir, dir, name);
  if (system(path) != 0) CHECK(0, "mkdir");
  snprintf(path, sizeof path, "%s/%s/mod.lua", dir, name);
  write_file(path, src);
  memset(mev, 0, sizeof *mev);
  cfg->mods_dir = dir;
  cfg->on_mod_event = mod_event_fn;
  cfg->mod_event_ud = mev;
  rt = lds_runtime_new(cfg, &err);
  CHECK(rt != NULL, err.msg);
  if (rt && g) {
    memset(cfg->env.log_ud, 0, sizeof(Log));
    CHECK(lds_runtime_add_grid(rt, "world", g) == LDS_OK, lds_runtime_errmsg(rt));
  }
  return rt;
}

/* The CPU guard's settings reach the mod manager: time_limit_ms on the
** runtime's clock (a runaway bake stops after the limit whatever the
** instruction limit), cell_limit, memory_limit_kb; bad values are refused. */
static void test_mod_limits(void) {
  char dir[] = "/tmp/lds_rt_limXXXXXX";
  char path[600];
  lds_RuntimeConfig cfg;
  lds_Runtime *rt;
  lds_Error err;
  lds_Grid *g;
  ModEv mev;
  Log lg;
  uint64_t fake_us = 0;
  static const char busy[] = "return { name = 'busy', version = '1', layers = { b = function()\n"
                             "  local s = 0 for i = 1, 300 do s = s + i end return s end } }\n";
  memset(&lg, 0, sizeof lg);
  if (!mkdtemp(dir)) {
    CHECK(0, "mkdtemp");
    return;
  }
  g = lds_grid_new(NULL, 20, 20, &err);
  /* bad settings */
  lds_runtime_config_init(&cfg);
  CHECK(cfg.cell_limit == -1 && cfg.time_limit_ms == 0 && cfg.memory_limit_kb == 0, "defaults");
  cfg.time_limit_ms = -1;
  CHECK(lds_runtime_new(&cfg, &err) == NULL && err.code == LDS_E_ARG, "time_limit_ms -1");
  CHECK(strcmp(err.msg, "lds_runtime_new: time_limit_ms out of range (expected a finite number "
               ">= 0; 0 = the default)") == 0, err.msg);
  {
    char *doc = doc_text("embedding.md");
    CHECK(doc_quotes(doc, err.msg, ""), "docs/embedding.md quotes the time_limit_ms message");
    free(doc);
  }
  cfg.time_limit_ms = 0;
  cfg.cell_limit = -2;
  CHECK(lds_runtime_new(&cfg, &err) == NULL && err.code == LDS_E_ARG, "cell_limit -2");
  /* time: a runaway bake with a huge instruction budget stops at 20 ms of the fake clock */
  lds_runtime_config_init(&cfg);
  cfg.env.log = log_fn;
  cfg.env.log_ud = &lg;
  cfg.env.clock = step_clock;
  cfg.env.clock_ud = &fake_us;
  cfg.instruction_limit = 1000000000000ull;
  cfg.cell_limit = 0;
  cfg.time_limit_ms = 20;
  rt = limits_runtime(&cfg, dir, "spin",
                      "return { name = 'spin', version = '1', layers = { l = function()\n"
                      "  while true do end end } }\n", g, &mev);
  if (rt) {
    CHECK(strstr(lg.last_error, "spin/mod.lua:2: time limit exceeded (20 ms) (bake: rule for "
                 "layer 'spin.l' at (0,0)); mod disabled") != NULL, lg.last_error);
    CHECK(lds_grid_layer_find(g, "spin.l") < 0, "no half-baked layer");
    lds_runtime_free(rt);
  }
  /* cell_limit: 400 cells of ~600 instructions need more than 1e5 */
  cfg.env.clock = NULL;
  cfg.env.clock_ud = NULL;
  cfg.time_limit_ms = 0;
  cfg.instruction_limit = 100000;
  cfg.cell_limit = 0;
  rt = limits_runtime(&cfg, dir, "busy", busy, g, &mev);
  if (rt) {
    CHECK(strstr(lg.last_error, "instruction limit exceeded (100000 instructions)") != NULL,
          lg.last_error);
    lds_runtime_free(rt);
  }
  cfg.cell_limit = 1000;
  rt = limits_runtime(&cfg, dir, "busy", busy, g, &mev);
  if (rt) {
    CHECK(lg.errors == 0 && lds_grid_layer_find(g, "busy.b") >= 0, lg.last_error);
    lds_runtime_free(rt);
  }
  /* memory: `s = s .. s` is one instruction; the allocator stops it */
  cfg.memory_limit_kb = 1024;
  rt = limits_runtime(&cfg, dir, "hog",
                      "local s = 'x' for i = 1, 40 do s = s .. s end\n"
                      "return { name = 'hog', version = '1' }\n", NULL, &mev);
  if (rt) {
    CHECK(mev.n == 1 && strcmp(mev.result, "failed") == 0, mev.result);
    CHECK(strstr(mev.error, "memory limit exceeded (1024 KB)") != NULL, mev.error);
    CHECK(lua_num(rt, "#string.rep('x', 3 * 1024 * 1024)") == 3 * 1024 * 1024, "the host is not limited");
    lds_runtime_free(rt);
  }
  lds_grid_free(g);
  snprintf(path, sizeof path, "rm -rf %s", dir);
  if (system(path) != 0) CHECK(0, "rm");
}

/* lds_lua_search_params: the binding's option parser as the C runtime uses
** it: over the params already set, find_path's messages, unknown keys
** refused (the runtime's own reader let them pass). */
static const char *params_of(lua_State *L, const char *opts, const lds_Grid *g,
                             lds_SearchParams *p, double *w) {
  const char *msg;
  lua_settop(L, 0);
  if (luaL_dostring(L, opts) != 0) return lua_tostring(L, -1);
  msg = lds_lua_search_params(L, 1, g, p, w);
  return msg ? msg : "ok";
}

static void test_option_parser(void) {
  lua_State *L = luaL_newstate();
  lds_Grid *g = lds_grid_new(NULL, 4, 4, NULL);
  lds_SearchParams p;
  double w[16];
  int idx;
  lds_grid_layer_add(g, "mud", &idx);
  lds_search_params_init(&p);
  p.partial = true;
  CHECK(strcmp(params_of(L, "return {weight = 2, algorithm = 'jps', weights = {mud = 3}}", g, &p, w),
               "ok") == 0, "good options");
  CHECK(p.weight == 2.0 && p.algo == LDS_ALGO_JPS && p.partial, "set over the params already there");
  CHECK(p.n_layer_weights == 1 && p.layer_weights == w && w[0] == 3.0, "weights by layer");
  CHECK(strcmp(params_of(L, "return {algo = 'jps'}", g, &p, w),
               "unknown option 'algo' (expected algorithm, cost, goal, h_scale, heuristic, partial, "
               "start, weight, weights)") == 0, lua_tostring(L, -1));
  CHECK(strcmp(params_of(L, "return {colour = 1}", g, &p, w),
               "unknown option 'colour' (expected algorithm, cost, goal, h_scale, heuristic, "
               "partial, start, weight, weights)") == 0, lua_tostring(L, -1));
  CHECK(strcmp(params_of(L, "return {weight = 0.5}", g, &p, w),
               "opts.weight: 0.5 out of range (expected finite, >= 1)") == 0, lua_tostring(L, -1));
  CHECK(strcmp(params_of(L, "return {algorithm = 'bfs'}", g, &p, w),
               "opts.algorithm: unknown algorithm 'bfs' (expected astar, dijkstra, wastar, greedy, "
               "jps, jps+, theta, lazytheta)") == 0, lua_tostring(L, -1));
  CHECK(strcmp(params_of(L, "return {weights = {rock = 1}}", g, &p, w),
               "opts.weights: the grid has no layer 'rock'") == 0, lua_tostring(L, -1));
  CHECK(strncmp(params_of(L, "return {cost = function() return 1 end}", g, &p, w),
                "opts.cost: not supported here", 29) == 0, lua_tostring(L, -1));
  CHECK(p.weight == 2.0 && p.algo == LDS_ALGO_JPS, "a failed read leaves the params");
  lua_close(L);
  lds_grid_free(g);
}

int main(void) {
  test_option_parser();
  test_basic();
  test_mods();
  test_profile_names();
  test_mod_escapes();
  test_partial_requests();
  test_mod_limits();
  printf("%d passed, %d failed\n", passed, failed);
  return failed ? 1 : 0;
}
