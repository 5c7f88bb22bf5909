/* SPDX-License-Identifier: MIT */
/*
** lds_scheduler.c — path requests served by pools of sliced searches under a
** per-frame budget. The rules (key, budget, staleness) are in lds_scheduler.h
** and docs/scheduler.md; this file keeps the invariants:
**
** - A request slot is FREE, QUEUED (in its grid's heap, no search), ACTIVE
**   (owns one search of its grid's pool) or DONE (final status, maybe a path).
** - Everything is addressed by slot index, never by pointer across a call
**   that may run a callback: callbacks may submit (the slot array may move).
** - Keys never change while a request waits (ageing is built into the key),
**   so the per-grid queues are plain indexed binary heaps.
*/
#include "lds_scheduler.h"
#include "lds_internal.h"
#include "lds_grid_internal.h"
#include "lds_open_list.h" /* only to pre-fault a new search's memory */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "lds_scheduler_internal.h"

/* Searches get a clock that costs nothing: the scheduler reads the real one
** itself, at the points where it decides. */
static uint64_t zero_clock(void *ud) {
  (void)ud;
  return 0;
}

lds_Status ldsi_sched_fail(lds_Scheduler *sc, lds_Status code, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(sc->errmsg, sizeof sc->errmsg, fmt, ap);
  va_end(ap);
  return code;
}

static void sc_log(lds_Scheduler *sc, int level, const char *msg) {
  if (sc->env.log) sc->env.log(sc->env.log_ud, level, msg);
}

/* ------------------------------------------------------------ config -- */

void lds_request_init(lds_Request *rq, const lds_Grid *grid, int32_t sx, int32_t sy, int32_t gx,
                      int32_t gy) {
  memset(rq, 0, sizeof *rq);
  rq->grid = grid;
  rq->sx = sx;
  rq->sy = sy;
  rq->gx = gx;
  rq->gy = gy;
  lds_search_params_init(&rq->params);
}

void lds_scheduler_config_init(lds_SchedulerConfig *cfg) {
  memset(cfg, 0, sizeof *cfg);
  cfg->searches_per_grid = 2;
  cfg->aging_frames = 60;
  cfg->max_restarts = 8;
  cfg->deterministic = false;
  cfg->expansions_per_us = 4;
  cfg->check_us = 0;
  cfg->initial_rate = 4.0;
  cfg->quick_share = 0.25;
  cfg->initial_capacity = 64;
}

/* -------------------------------------------------------------- heap -- */
/* Indexed binary max-heap on (key, -seq) over slot indices; each slot knows
** its position (heap_pos[which]) so cancel and re-prioritise are O(log n). */

bool ldsi_sched_req_before(const lds_Scheduler *sc, uint32_t a, uint32_t b) {
  const Req *ra = &sc->req[a], *rb = &sc->req[b];
  if (ra->key != rb->key) return ra->key > rb->key;
  return ra->seq < rb->seq;
}

static void heap_set(lds_Scheduler *sc, Heap *h, int which, size_t pos, uint32_t r) {
  h->items[pos] = r;
  sc->req[r].heap_pos[which] = (uint32_t)pos;
}

static void heap_up(lds_Scheduler *sc, Heap *h, int which, size_t pos) {
  uint32_t r = h->items[pos];
  while (pos > 0) {
    size_t parent = (pos - 1) / 2;
    if (!ldsi_sched_req_before(sc, r, h->items[parent])) break;
    heap_set(sc, h, which, pos, h->items[parent]);
    pos = parent;
  }
  heap_set(sc, h, which, pos, r);
}

static void heap_down(lds_Scheduler *sc, Heap *h, int which, size_t pos) {
  uint32_t r = h->items[pos];
  for (;;) {
    size_t c = 2 * pos + 1;
    if (c >= h->n) break;
    if (c + 1 < h->n && ldsi_sched_req_before(sc, h->items[c + 1], h->items[c])) c++;
    if (!ldsi_sched_req_before(sc, h->items[c], r)) break;
    heap_set(sc, h, which, pos, h->items[c]);
    pos = c;
  }
  heap_set(sc, h, which, pos, r);
}

/* Capacity is reserved at submit time (heap_reserve), so pushing never fails. */
static void heap_push(lds_Scheduler *sc, Heap *h, int which, uint32_t r) {
  h->items[h->n++] = r;
  heap_up(sc, h, which, h->n - 1);
}

void ldsi_sched_heap_remove(lds_Scheduler *sc, Heap *h, int which, uint32_t r) {
  size_t pos = sc->req[r].heap_pos[which];
  if (pos == NO_INDEX || pos >= h->n || h->items[pos] != r) return;
  sc->req[r].heap_pos[which] = NO_INDEX;
  h->n--;
  if (pos == h->n) return;
  {
    uint32_t moved = h->items[h->n]; /* the last entry fills the hole... */
    heap_set(sc, h, which, pos, moved);
    heap_up(sc, h, which, pos);      /* ...and goes up or down from there */
    heap_down(sc, h, which, sc->req[moved].heap_pos[which]);
  }
}

static void heap_fix(lds_Scheduler *sc, Heap *h, int which, uint32_t r) {
  size_t pos = sc->req[r].heap_pos[which];
  if (pos == NO_INDEX || pos >= h->n || h->items[pos] != r) return;
  heap_up(sc, h, which, pos);
  heap_down(sc, h, which, sc->req[r].heap_pos[which]);
}

static bool heap_reserve(lds_Scheduler *sc, Heap *h, size_t need) {
  size_t ncap;
  uint32_t *items;
  if (need <= h->cap) return true;
  ncap = h->cap ? h->cap * 2 : 64;
  while (ncap < need) ncap *= 2;
  items = (uint32_t *)ldsi_realloc(&sc->env, h->items, h->cap * sizeof(uint32_t),
                                   ncap * sizeof(uint32_t));
  if (!items) return false;
  h->items = items;
  h->cap = ncap;
  return true;
}

void ldsi_sched_heap_push(lds_Scheduler *sc, Heap *h, int which, uint32_t r) {
  heap_push(sc, h, which, r);
}

bool ldsi_sched_heap_reserve(lds_Scheduler *sc, Heap *h, size_t need) {
  return heap_reserve(sc, h, need);
}

void ldsi_sched_heap_fix(lds_Scheduler *sc, Heap *h, int which, uint32_t r) { heap_fix(sc, h, which, r); }

/* ---------------------------------------------------------- lifetime -- */

static bool slots_grow(lds_Scheduler *sc, uint32_t ncap) {
  Req *r;
  if (ncap <= sc->cap) return true;
  r = (Req *)ldsi_realloc(&sc->env, sc->req, sc->cap * sizeof(Req), ncap * sizeof(Req));
  if (!r) return false;
  memset(r + sc->cap, 0, (ncap - sc->cap) * sizeof(Req));
  sc->req = r;
  /* each request's params point at its own copy of the layer weights, which
  ** moved with the array */
  for (uint32_t i = 0; i < sc->cap; i++)
    if (r[i].rq.params.n_layer_weights > 0) r[i].rq.params.layer_weights = r[i].weights;
  sc->cap = ncap;
  return true;
}

lds_Scheduler *lds_scheduler_new(const lds_Env *env, const lds_SchedulerConfig *cfg,
                                 lds_Error *err) {
  ldsi_Env e;
  lds_SchedulerConfig c;
  lds_Scheduler *sc;
  ldsi_env_resolve(&e, env);
  if (cfg)
    c = *cfg;
  else
    lds_scheduler_config_init(&c);
  if (c.searches_per_grid < 1 || c.searches_per_grid > MAX_SEARCHES) {
    ldsi_error(err, LDS_E_ARG, "lds_scheduler_new: searches_per_grid %d out of range (expected 1..%d)",
               c.searches_per_grid, MAX_SEARCHES);
    return NULL;
  }
  if (c.aging_frames < 1) {
    ldsi_error(err, LDS_E_ARG, "lds_scheduler_new: aging_frames 0 out of range (expected >= 1)");
    return NULL;
  }
  if (c.expansions_per_us < 1) {
    ldsi_error(err, LDS_E_ARG,
               "lds_scheduler_new: expansions_per_us 0 out of range (expected >= 1)");
    return NULL;
  }
  if (!(c.initial_rate > 0.0) || isinf(c.initial_rate)) {
    ldsi_error(err, LDS_E_ARG,
               "lds_scheduler_new: initial_rate %g out of range (expected finite, > 0)",
               ldsi_num(c.initial_rate));
    return NULL;
  }
  if (!(c.quick_share >= 0.0 && c.quick_share <= 1.0)) {
    ldsi_error(err, LDS_E_ARG, "lds_scheduler_new: quick_share %g out of range (expected 0..1)",
               ldsi_num(c.quick_share));
    return NULL;
  }
  if (c.initial_capacity > 1u << 24) {
    ldsi_error(err, LDS_E_ARG,
               "lds_scheduler_new: initial_capacity %lu out of range (expected 0..16777216)",
               (unsigned long)c.initial_capacity);
    return NULL;
  }
  sc = (lds_Scheduler *)ldsi_calloc(&e, 1, sizeof *sc);
  if (!sc) goto nomem;
  sc->env = e;
  sc->cfg = c;
  sc->free_head = NO_INDEX;
  sc->rate = c.initial_rate;
  if (c.initial_capacity && !slots_grow(sc, c.initial_capacity)) {
    lds_scheduler_free(sc);
    goto nomem;
  }
  ldsi_error_clear(err);
  return sc;
nomem:
  ldsi_error(err, LDS_E_NOMEM, "lds_scheduler_new: out of memory");
  return NULL;
}

static void grid_entry_free(lds_Scheduler *sc, GridEntry *ge) {
  int i;
  if (ge->shadow) ldsi_free(&sc->env, ge->shadow, ge->pcells);
  if (ge->watch.slots) ldsi_free(&sc->env, ge->watch.slots, ge->watch.cap * sizeof(WatchSlot));
  if (ge->search)
    for (i = 0; i < ge->nsearch; i++) lds_search_free(ge->search[i]);
  lds_search_free(ge->quick);
  ldsi_free(&sc->env, ge->search, (size_t)ge->nsearch * sizeof(lds_Search *));
  ldsi_free(&sc->env, ge->owner, (size_t)ge->nsearch * sizeof(uint32_t));
  ldsi_free(&sc->env, ge->defer, (size_t)ge->nsearch * sizeof(SlotDefer));
  for (i = 0; i < 2; i++) ldsi_free(&sc->env, ge->heap[i].items, ge->heap[i].cap * sizeof(uint32_t));
  lds_path_cache_free(ge->cache);
  ldsi_sched_hier_free(sc, ge);
  memset(ge, 0, sizeof *ge);
}

void lds_scheduler_free(lds_Scheduler *sc) {
  uint32_t i;
  int k;
  if (!sc) return;
  for (i = 0; i < sc->nreq; i++) {
    lds_path_free(sc->req[i].path);
    lds_path_free(sc->req[i].quick);
    ldsi_sched_nav_free_req(sc, i);
    if (sc->req[i].watch)
      ldsi_free(&sc->env, sc->req[i].watch, (size_t)sc->req[i].nwatch * sizeof(WatchCell));
  }
  for (k = 0; k < sc->ngrids; k++) {
    ldsi_sched_edits_detach(sc, k);
    grid_entry_free(sc, &sc->grids[k]);
  }
  ldsi_sched_nav_free_all(sc);
  ldsi_free(&sc->env, sc->hits, sc->hits_cap * sizeof(uint32_t));
  ldsi_free(&sc->env, sc->grids, (size_t)sc->grid_cap * sizeof(GridEntry));
  ldsi_free(&sc->env, sc->req, sc->cap * sizeof(Req));
  ldsi_free(&sc->env, sc, sizeof *sc);
}

/* Writes the node records and open list of a fresh search once, so their
** pages are resident before the first frame: calloc'd memory is mapped
** lazily, and the page faults of first touches (about 1 µs each, one per 4 KiB
** of node records) would otherwise land inside the first frames' budgets.
** Zero is the state lds_search_new leaves (generation 0 = fresh record). */
static void prefault(lds_Search *s) {
  /* the records a query allocates on first use (the ldsi_Node array, the
  ** pool of paged records) are allocated now, outside every frame; on
  ** failure the query that needs them fails with LDS_E_NOMEM */
  (void)lds_search_reserve(s);
  if (s->nodes) memset(s->nodes, 0, s->nnodes * sizeof(ldsi_Node));
  if (s->hot) memset(s->hot, 0, s->nnodes * sizeof(ldsi_Hot));
  memset(s->open, 0, s->open_cap * sizeof(ldsi_Open));
}

int ldsi_sched_find_grid(const lds_Scheduler *sc, const lds_Grid *g) {
  int i;
  for (i = 0; i < sc->ngrids; i++)
    if (sc->grids[i].grid == g) return i;
  return -1;
}

static int find_grid(const lds_Scheduler *sc, const lds_Grid *g) {
  return ldsi_sched_find_grid(sc, g);
}

lds_Status lds_scheduler_add_grid(lds_Scheduler *sc, const lds_Grid *grid, int n_searches) {
  GridEntry ge;
  lds_Env senv;
  lds_Error err;
  int i;
  if (!grid) return ldsi_sched_fail(sc, LDS_E_ARG, "lds_scheduler_add_grid: grid is NULL");
  if (find_grid(sc, grid) >= 0)
    return ldsi_sched_fail(sc, LDS_E_ARG, "lds_scheduler_add_grid: grid %p already added",
                   (const void *)grid);
  if (n_searches < 0 || n_searches > MAX_SEARCHES)
    return ldsi_sched_fail(sc, LDS_E_ARG,
                   "lds_scheduler_add_grid: n_searches %d out of range (expected 0..%d)",
                   n_searches, MAX_SEARCHES);
  if (n_searches == 0) n_searches = sc->cfg.searches_per_grid;
  if (sc->ngrids == sc->grid_cap) {
    int ncap = sc->grid_cap ? sc->grid_cap * 2 : 4;
    GridEntry *g = (GridEntry *)ldsi_realloc(&sc->env, sc->grids,
                                             (size_t)sc->grid_cap * sizeof(GridEntry),
                                             (size_t)ncap * sizeof(GridEntry));
    if (!g) return ldsi_sched_fail(sc, LDS_E_NOMEM, "lds_scheduler_add_grid: out of memory");
    sc->grids = g;
    sc->grid_cap = ncap;
  }
  memset(&ge, 0, sizeof ge);
  ge.grid = grid;
  senv = ldsi_env_public(&sc->env);
  senv.clock = zero_clock;
  senv.clock_ud = NULL;
  ge.search = (lds_Search **)ldsi_calloc(&sc->env, (size_t)n_searches, sizeof(lds_Search *));
  ge.owner = (uint32_t *)ldsi_alloc(&sc->env, (size_t)n_searches * sizeof(uint32_t));
  ge.defer = (SlotDefer *)ldsi_calloc(&sc->env, (size_t)n_searches, sizeof(SlotDefer));
  ge.nsearch = n_searches;
  if (!ge.search || !ge.owner || !ge.defer) {
    grid_entry_free(sc, &ge);
    return ldsi_sched_fail(sc, LDS_E_NOMEM, "lds_scheduler_add_grid: out of memory");
  }
  ge.nsearch = n_searches;
  ge.nfree = n_searches;
  for (i = 0; i < n_searches; i++) ge.owner[i] = NO_INDEX;
  for (i = 0; i <= n_searches; i++) {
    lds_Search *s = lds_search_new(&senv, grid, &err);
    if (!s) {
      grid_entry_free(sc, &ge);
      return ldsi_sched_fail(sc, err.code, "lds_scheduler_add_grid: %s", err.msg);
    }
    prefault(s);
    if (i < n_searches)
      ge.search[i] = s;
    else
      ge.quick = s;
  }
  if (!heap_reserve(sc, &ge.heap[0], 64) || !heap_reserve(sc, &ge.heap[1], 64)) {
    grid_entry_free(sc, &ge);
    return ldsi_sched_fail(sc, LDS_E_NOMEM, "lds_scheduler_add_grid: out of memory");
  }
  sc->grids[sc->ngrids++] = ge;
  /* edits: which searches they disturb, which watched paths they break */
  if (ldsi_sched_edits_attach(sc, sc->ngrids - 1) != LDS_OK) {
    sc->ngrids--;
    grid_entry_free(sc, &sc->grids[sc->ngrids]);
    return ldsi_sched_fail(sc, LDS_E_NOMEM, "lds_scheduler_add_grid: out of memory");
  }
  sc->errmsg[0] = '\0';
  return LDS_OK;
}

size_t lds_scheduler_mem_used(const lds_Scheduler *sc) {
  size_t n = sizeof *sc + sc->cap * sizeof(Req) + (size_t)sc->grid_cap * sizeof(GridEntry);
  int i, k;
  for (i = 0; i < sc->ngrids; i++) {
    const GridEntry *ge = &sc->grids[i];
    for (k = 0; k < ge->nsearch; k++) n += lds_search_mem_used(ge->search[k]);
    n += lds_search_mem_used(ge->quick);
    n += (size_t)ge->nsearch * (sizeof(lds_Search *) + sizeof(uint32_t) + sizeof(SlotDefer));
    n += (ge->heap[0].cap + ge->heap[1].cap) * sizeof(uint32_t);
    n += ge->pcells + ge->watch.cap * sizeof(WatchSlot);
    if (ge->cache) n += lds_path_cache_mem_used(ge->cache);
  }
  for (k = 0; k < (int)sc->nreq; k++) n += (size_t)sc->req[k].nwatch * sizeof(WatchCell);
  n += sc->hits_cap * sizeof(uint32_t);
  return n + ldsi_sched_nav_mem(sc);
}

const char *lds_scheduler_errmsg(const lds_Scheduler *sc) { return sc->errmsg; }

/* ---------------------------------------------------------- handles -- */

static lds_RequestId make_id(uint32_t idx, uint32_t gen) {
  return ((lds_RequestId)gen << 32) | (lds_RequestId)idx;
}

/* Slot index of a live handle, or NO_INDEX. */
static uint32_t slot_of(const lds_Scheduler *sc, lds_RequestId id);

uint32_t ldsi_sched_slot(const lds_Scheduler *sc, lds_RequestId id) { return slot_of(sc, id); }

lds_RequestId ldsi_sched_id(const lds_Scheduler *sc, uint32_t r) { return make_id(r, sc->req[r].gen); }

static uint32_t slot_of(const lds_Scheduler *sc, lds_RequestId id) {
  uint32_t idx = (uint32_t)(id & 0xFFFFFFFFu), gen = (uint32_t)(id >> 32);
  if (gen == 0 || idx >= sc->nreq) return NO_INDEX;
  if (sc->req[idx].state == SLOT_FREE || sc->req[idx].gen != gen) return NO_INDEX;
  return idx;
}

static uint32_t check_id(lds_Scheduler *sc, lds_RequestId id, const char *fn) {
  uint32_t r = slot_of(sc, id);
  if (r == NO_INDEX)
    ldsi_sched_fail(sc, LDS_E_ARG, "%s: stale or invalid request handle 0x%016llx", fn,
            (unsigned long long)id);
  return r;
}

/* ------------------------------------------------------------ states -- */

/* Takes a request out of the queues and gives back its search. */
static void detach(lds_Scheduler *sc, uint32_t r) {
  Req *q = &sc->req[r];
  GridEntry *ge;
  if (q->state != SLOT_QUEUED && q->state != SLOT_ACTIVE && !q->quick_pending) return;
  if (q->nav) {
    ldsi_sched_nav_detach(sc, r); /* lds_scheduler_nav.c */
    return;
  }
  ge = &sc->grids[q->grid];
  if (q->state == SLOT_QUEUED) {
    ldsi_sched_heap_remove(sc, &ge->heap[HEAP_MAIN], HEAP_MAIN, r);
    sc->pending--;
  } else if (q->state == SLOT_ACTIVE) {
    ge->owner[q->search] = NO_INDEX;
    ge->nfree++;
    q->search = -1;
    sc->pending--;
  }
  if (q->quick_pending) {
    ldsi_sched_heap_remove(sc, &ge->heap[HEAP_QUICK], HEAP_QUICK, r);
    q->quick_pending = false;
  }
}

static void slot_free(lds_Scheduler *sc, uint32_t r) {
  Req *q = &sc->req[r];
  ldsi_sched_watch_disarm(sc, r);
  lds_path_free(q->path);
  lds_path_free(q->quick);
  q->path = q->quick = NULL;
  ldsi_sched_nav_free_req(sc, r);
  q->state = SLOT_FREE;
  q->gen = (q->gen + 1) & GEN_MASK;
  if (q->gen == 0) q->gen = 1;
  q->next_free = sc->free_head;
  sc->free_head = r;
}

static void info_fill(const lds_Scheduler *sc, uint32_t r, lds_RequestInfo *out) {
  const Req *q = &sc->req[r];
  out->status = q->status;
  out->flags = q->flags | (q->urgent ? (uint32_t)LDS_REQINFO_URGENT : 0u) |
               (q->forced ? (uint32_t)LDS_REQINFO_FORCED : 0u);
  if (q->state == SLOT_ACTIVE && q->grid >= 0 && !q->disturbed &&
      ldsi_sched_defer_paused(&sc->grids[q->grid], q->search))
    out->flags |= (uint32_t)LDS_REQINFO_PAUSED;
  out->deferrals = q->deferrals;
  out->agent_id = q->rq.agent_id;
  out->priority = q->rq.priority;
  out->frames = (uint32_t)((q->state == SLOT_DONE ? q->finish_frame : sc->frame) - q->submit_frame);
  out->restarts = q->restarts;
  out->expansions = q->expansions;
  out->stats = q->stats;
  out->stats.elapsed_us = q->elapsed_us;
  out->cost = q->path ? lds_path_cost(q->path) : (q->quick ? lds_path_cost(q->quick) : -1.0);
  out->path_length = q->path ? lds_path_length(q->path) : (q->quick ? lds_path_length(q->quick) : 0);
  if (q->nav && q->nav->pts) { /* a mesh request's path: its cost and points */
    out->cost = q->nav->cost;
    out->path_length = q->nav->npts;
  }
}

/* Calls the request's callback (if any). Afterwards the slot may be free
** (released inside the callback) or auto-released here. */
void ldsi_sched_deliver(lds_Scheduler *sc, uint32_t r, lds_RequestEvent ev) {
  Req *q = &sc->req[r];
  lds_RequestCallback cb = q->rq.on_done;
  void *ud = q->rq.ud;
  lds_RequestId id = make_id(r, q->gen);
  lds_RequestInfo info;
  lds_Status st;
  if (!cb) return;
  info_fill(sc, r, &info);
  st = cb(ud, sc, id, ev, &info);
  q = &sc->req[r]; /* the callback may have grown the slot array */
  if (st < 0) {
    char msg[LDS_ERRMSG_SIZE];
    if (sc->cur) sc->cur->callback_errors++;
    snprintf(msg, sizeof msg,
             "lds_scheduler_step: callback of request 0x%016llx (agent %lld) failed: %s",
             (unsigned long long)id, (long long)info.agent_id, lds_status_name(st));
    sc_log(sc, 0, msg);
  }
  if (slot_of(sc, id) == NO_INDEX) return; /* released in the callback */
  if (ev == LDS_EVENT_DONE && (q->rq.flags & LDS_REQ_AUTO_RELEASE)) slot_free(sc, r);
}

/* Notes which layers request q's weights are on (by ldsi_Layer.id): the
** weights are by index, and a later removal shifts the indices after it. A
** weight for an index the grid does not have gets id 0 (the search's start
** reports the count). */
static void note_weight_layers(Req *q, const lds_Grid *g) {
  int i;
  for (i = 0; i < q->rq.params.n_layer_weights; i++)
    q->weight_ids[i] = i < g->nlayers ? g->layers[i].id : 0;
  q->layer_removals = g->layer_removals;
}

bool ldsi_sched_weights_match(lds_Scheduler *sc, uint32_t r) {
  Req *q = &sc->req[r];
  const lds_Grid *g;
  double w[16] = {0};
  uint64_t ids[16] = {0};
  int i, j, n = 0;
  if (q->nav || q->grid < 0 || q->rq.params.n_layer_weights <= 0) return true;
  g = sc->grids[q->grid].grid;
  if (g->layer_removals == q->layer_removals) return true;
  for (i = 0; i < q->rq.params.n_layer_weights; i++) {
    if (q->weights[i] == 0.0) continue;
    if (q->weight_ids[i] == 0) return true; /* a bad count: lds_search_start names it */
    for (j = 0; j < g->nlayers && g->layers[j].id != q->weight_ids[i]; j++) {
    }
    if (j == g->nlayers) {
      snprintf(q->errmsg, sizeof q->errmsg,
               "lds_scheduler_step: request params.layer_weights: the layer of weight %d "
               "(%g) was removed from the grid since the request was submitted",
               i, ldsi_num(q->weights[i]));
      q->flags |= LDS_REQINFO_LAYER_REMOVED;
      return false;
    }
    w[j] = q->weights[i];
    ids[j] = q->weight_ids[i];
    if (j + 1 > n) n = j + 1;
  }
  memcpy(q->weights, w, sizeof w);
  memcpy(q->weight_ids, ids, sizeof ids);
  q->rq.params.n_layer_weights = n;
  q->rq.params.layer_weights = n ? q->weights : NULL;
  q->layer_removals = g->layer_removals;
  return true;
}

/* Final status: frees the search, keeps the path, calls back. */
/* The message of a request whose search could not start, in the
** scheduler's words: the search object's "lds_search_start: ..." becomes
** "lds_scheduler_step: ...", the call that ran the request, and a cell the
** request's layer weights make cost <= 0 (or not finite) names that field
** of the lds_Request (as do a weight that is not finite and a count of
** weights the grid has no layers for): "lds_scheduler_step: request params.layer_weights:
** cell (x,y) has cost C under the layer weights (base B, layer 'L' value V x
** weight W; expected finite, > 0)". */
static void request_search_msg(char *out, const char *m) {
  static const char start[] = "lds_search_start: ";
  const char *field = "";
  if (strstr(m, "under the layer weights") || strstr(m, ": weight of layer '"))
    field = "request params.layer_weights: ";
  else if (strstr(m, "layer weights for a grid with"))
    field = "request params.n_layer_weights: ";
  if (strncmp(m, start, sizeof start - 1) == 0)
    snprintf(out, LDS_ERRMSG_SIZE, "lds_scheduler_step: %s%s", field, m + sizeof start - 1);
  else
    snprintf(out, LDS_ERRMSG_SIZE, "%s", m);
}

/* ldsi_sched_finish, or with the path given (`path`: an answer of the path
** cache, owned by the request from here) */
static void finish(lds_Scheduler *sc, uint32_t r, lds_Status st, lds_Search *s, lds_Path *path) {
  Req *q = &sc->req[r];
  detach(sc, r);
  /* a replan's previous path (kept for the walker until now) goes */
  lds_path_free(q->path);
  q->path = path;
  /* the quick partial path served while the request ran; a finished request
  ** answers with its own path only (none after no_path without `partial`) */
  lds_path_free(q->quick);
  q->quick = NULL;
  q->flags &= ~(uint32_t)LDS_REQINFO_PARTIAL;
  q->state = SLOT_DONE;
  q->status = st;
  q->flags |= LDS_REQINFO_DONE;
  q->finish_frame = sc->frame + 1; /* the current tick counts as waited */
  if (s) {
    lds_search_stats(s, &q->stats);
    if (st == LDS_FOUND || (st == LDS_NO_PATH && q->rq.params.partial)) {
      lds_Error err;
      q->path = lds_search_path(s, &err);
      if (!q->path && st == LDS_FOUND) {
        q->status = st = err.code;
        snprintf(q->errmsg, sizeof q->errmsg, "%s", err.msg);
      }
    } else if (st < 0 && !q->errmsg[0]) {
      request_search_msg(q->errmsg, lds_search_errmsg(s));
    }
  }
  if (sc->cur) {
    sc->cur->finished++;
    if (st == LDS_FOUND) sc->cur->found++;
    if (st < 0) sc->cur->failed++;
  }
  if (q->path) ldsi_sched_watch_arm(sc, r); /* LDS_REQ_WATCH */
  ldsi_sched_deliver(sc, r, LDS_EVENT_DONE);
}

void ldsi_sched_finish(lds_Scheduler *sc, uint32_t r, lds_Status st, lds_Search *s) {
  finish(sc, r, st, s, NULL);
}

void ldsi_sched_finish_path(lds_Scheduler *sc, uint32_t r, lds_Status st, lds_Path *path) {
  finish(sc, r, st, NULL, path);
}

lds_Status ldsi_sched_requeue(lds_Scheduler *sc, uint32_t r) {
  Req *q = &sc->req[r];
  GridEntry *ge;
  if (q->state != SLOT_DONE || q->grid < 0) return LDS_E_STATE;
  ge = &sc->grids[q->grid];
  if (!heap_reserve(sc, &ge->heap[HEAP_MAIN], ge->heap[HEAP_MAIN].n + 1)) return LDS_E_NOMEM;
  ldsi_sched_watch_disarm(sc, r);
  q->state = SLOT_QUEUED;
  q->status = LDS_RUNNING;
  q->flags &= ~(uint32_t)(LDS_REQINFO_DONE | LDS_REQINFO_LAYER_REMOVED);
  q->restarts = q->repairs_lost = q->deferrals = 0;
  q->urgent = q->disturbed = q->forced = q->forced_counted = false;
  q->urgent_exp = 0;
  q->submit_frame = sc->frame;
  q->seq = sc->seq++;
  q->key = (int64_t)q->rq.priority * (int64_t)sc->cfg.aging_frames - (int64_t)sc->frame;
  q->errmsg[0] = '\0';
  heap_push(sc, &ge->heap[HEAP_MAIN], HEAP_MAIN, r);
  sc->pending++;
  return LDS_OK;
}

/* ---------------------------------------------------------- requests -- */

uint32_t ldsi_sched_slot_new(lds_Scheduler *sc, int32_t priority) {
  uint32_t r, gen;
  Req *q;
  if (sc->free_head != NO_INDEX) {
    r = sc->free_head;
    sc->free_head = sc->req[r].next_free;
  } else {
    if (sc->nreq == sc->cap) {
      uint32_t ncap = sc->cap ? sc->cap * 2 : 64;
      if (sc->cap >= 0x7FFFFFFFu || !slots_grow(sc, ncap)) {
        ldsi_sched_fail(sc, LDS_E_NOMEM, "lds_scheduler_submit: out of memory for %lu requests",
                        (unsigned long)ncap);
        return NO_INDEX;
      }
    }
    r = sc->nreq++;
    sc->req[r].gen = 1;
  }
  q = &sc->req[r];
  gen = q->gen;
  memset(q, 0, sizeof *q);
  q->gen = gen;
  q->state = SLOT_QUEUED;
  q->status = LDS_RUNNING;
  q->grid = -1;
  q->mesh = -1;
  q->search = -1;
  q->heap_pos[0] = q->heap_pos[1] = NO_INDEX;
  q->submit_frame = sc->frame;
  q->seq = sc->seq++;
  q->key = (int64_t)priority * (int64_t)sc->cfg.aging_frames - (int64_t)sc->frame;
  q->cost = -1.0;
  q->hit_j = NO_INDEX;
  return r;
}

lds_Status lds_scheduler_submit(lds_Scheduler *sc, const lds_Request *rq, lds_RequestId *id) {
  int gi;
  uint32_t r;
  Req *q;
  GridEntry *ge;
  if (id) *id = 0;
  if (!rq) return ldsi_sched_fail(sc, LDS_E_ARG, "lds_scheduler_submit: request is NULL");
  gi = find_grid(sc, rq->grid);
  if (gi < 0)
    return ldsi_sched_fail(sc, LDS_E_ARG,
                   "lds_scheduler_submit: grid %p was not added (call lds_scheduler_add_grid)",
                   (const void *)rq->grid);
  if (!lds_grid_in_bounds(rq->grid, rq->sx, rq->sy) || !lds_grid_in_bounds(rq->grid, rq->gx, rq->gy)) {
    bool s_ok = lds_grid_in_bounds(rq->grid, rq->sx, rq->sy);
    return ldsi_sched_fail(sc, LDS_E_ARG, "lds_scheduler_submit: %s (%ld,%ld) out of bounds (grid is %ldx%ld)",
                   s_ok ? "goal" : "start", (long)(s_ok ? rq->gx : rq->sx),
                   (long)(s_ok ? rq->gy : rq->sy), (long)lds_grid_width(rq->grid),
                   (long)lds_grid_height(rq->grid));
  }
  if (rq->priority < -MAX_PRIORITY || rq->priority > MAX_PRIORITY)
    return ldsi_sched_fail(sc, LDS_E_ARG,
                   "lds_scheduler_submit: priority %ld out of range (expected %d..%d)",
                   (long)rq->priority, -MAX_PRIORITY, MAX_PRIORITY);
  if (rq->params.n_layer_weights < 0 || rq->params.n_layer_weights > 16 ||
      (rq->params.n_layer_weights > 0 && !rq->params.layer_weights))
    return ldsi_sched_fail(sc, LDS_E_ARG,
                   "lds_scheduler_submit: %d layer weights (expected 0..16 with a non-NULL array)",
                   rq->params.n_layer_weights);
  if (rq->flags & LDS_REQ_WATCH) {
    if (rq->flags & LDS_REQ_AUTO_RELEASE)
      return ldsi_sched_fail(sc, LDS_E_ARG,
                             "lds_scheduler_submit: flags LDS_REQ_WATCH and LDS_REQ_AUTO_RELEASE "
                             "together (a watched request must live on after delivery)");
    if (rq->watch_policy & ~(uint32_t)(LDS_WATCH_NOTIFY | LDS_WATCH_REPLAN))
      return ldsi_sched_fail(sc, LDS_E_ARG,
                             "lds_scheduler_submit: watch_policy %lu (expected LDS_WATCH_NOTIFY "
                             "and/or LDS_WATCH_REPLAN bits)", (unsigned long)rq->watch_policy);
    if (!(rq->watch_cost_ratio == 0.0 || (rq->watch_cost_ratio >= 1.0 && !isinf(rq->watch_cost_ratio))))
      return ldsi_sched_fail(sc, LDS_E_ARG,
                             "lds_scheduler_submit: watch_cost_ratio %g out of range (expected 0, "
                             "or finite >= 1)", ldsi_num(rq->watch_cost_ratio));
  }
  if (rq->hierarchy) {
    lds_Status hs = ldsi_sched_hier_check(sc, rq);
    if (hs != LDS_OK) return hs;
  }
  ge = &sc->grids[gi];
  if (!heap_reserve(sc, &ge->heap[HEAP_MAIN], ge->heap[HEAP_MAIN].n + 1) ||
      (rq->quick_expansions && !heap_reserve(sc, &ge->heap[HEAP_QUICK], ge->heap[HEAP_QUICK].n + 1)))
    return ldsi_sched_fail(sc, LDS_E_NOMEM, "lds_scheduler_submit: out of memory for the queue");
  r = ldsi_sched_slot_new(sc, rq->priority);
  if (r == NO_INDEX) return LDS_E_NOMEM;
  q = &sc->req[r];
  q->rq = *rq;
  if (rq->params.n_layer_weights > 0) {
    memcpy(q->weights, rq->params.layer_weights, (size_t)rq->params.n_layer_weights * sizeof(double));
    q->rq.params.layer_weights = q->weights;
  } else {
    q->rq.params.layer_weights = NULL;
  }
  note_weight_layers(q, rq->grid);
  q->grid = gi;
  heap_push(sc, &ge->heap[HEAP_MAIN], HEAP_MAIN, r);
  if (rq->quick_expansions) {
    q->quick_pending = true;
    heap_push(sc, &ge->heap[HEAP_QUICK], HEAP_QUICK, r);
  }
  sc->pending++;
  if (id) *id = make_id(r, q->gen);
  return LDS_OK;
}

lds_Status lds_scheduler_cancel(lds_Scheduler *sc, lds_RequestId id) {
  uint32_t r = check_id(sc, id, "lds_scheduler_cancel");
  if (r == NO_INDEX) return LDS_E_ARG;
  detach(sc, r);
  slot_free(sc, r);
  return LDS_OK;
}

lds_Status lds_scheduler_release(lds_Scheduler *sc, lds_RequestId id) {
  uint32_t r = check_id(sc, id, "lds_scheduler_release");
  if (r == NO_INDEX) return LDS_E_ARG;
  detach(sc, r);
  slot_free(sc, r);
  return LDS_OK;
}

lds_Status lds_scheduler_set_priority(lds_Scheduler *sc, lds_RequestId id, int32_t priority) {
  uint32_t r = check_id(sc, id, "lds_scheduler_set_priority");
  Req *q;
  GridEntry *ge;
  if (r == NO_INDEX) return LDS_E_ARG;
  if (priority < -MAX_PRIORITY || priority > MAX_PRIORITY)
    return ldsi_sched_fail(sc, LDS_E_ARG,
                   "lds_scheduler_set_priority: priority %ld out of range (expected %d..%d)",
                   (long)priority, -MAX_PRIORITY, MAX_PRIORITY);
  q = &sc->req[r];
  if (q->state == SLOT_DONE)
    return ldsi_sched_fail(sc, LDS_E_STATE, "lds_scheduler_set_priority: request already finished (%s)",
                   lds_status_name(q->status));
  q->key += ((int64_t)priority - (int64_t)q->rq.priority) * (int64_t)sc->cfg.aging_frames;
  q->rq.priority = priority;
  if (q->nav) { /* a mesh request: its mesh's queue */
    q->nav->rq.priority = priority;
    if (q->state == SLOT_QUEUED)
      heap_fix(sc, &sc->meshes[q->mesh].heap, HEAP_MAIN, r);
    return LDS_OK;
  }
  ge = &sc->grids[q->grid];
  heap_fix(sc, &ge->heap[HEAP_MAIN], HEAP_MAIN, r);
  heap_fix(sc, &ge->heap[HEAP_QUICK], HEAP_QUICK, r);
  return LDS_OK;
}

lds_Status lds_scheduler_set_params(lds_Scheduler *sc, lds_RequestId id,
                                    const lds_SearchParams *params) {
  uint32_t r = check_id(sc, id, "lds_scheduler_set_params");
  Req *q;
  if (r == NO_INDEX) return LDS_E_ARG;
  if (!params) return ldsi_sched_fail(sc, LDS_E_ARG, "lds_scheduler_set_params: params is NULL");
  if (params->n_layer_weights < 0 || params->n_layer_weights > 16 ||
      (params->n_layer_weights > 0 && !params->layer_weights))
    return ldsi_sched_fail(sc, LDS_E_ARG,
                   "lds_scheduler_set_params: %d layer weights (expected 0..16 with a non-NULL "
                   "array)", params->n_layer_weights);
  q = &sc->req[r];
  if (q->nav)
    return ldsi_sched_fail(sc, LDS_E_ARG, "lds_scheduler_set_params: request 0x%016llx is a mesh "
                           "request (expected a grid request: its lds_NavParams are fixed at "
                           "lds_scheduler_submit_nav)", (unsigned long long)id);
  if (q->state == SLOT_DONE)
    return ldsi_sched_fail(sc, LDS_E_STATE, "lds_scheduler_set_params: request already finished (%s)",
                   lds_status_name(q->status));
  if (q->rq.hierarchy) {
    lds_Status hs = ldsi_sched_hier_check_params(sc, params, "lds_scheduler_set_params");
    if (hs != LDS_OK) return hs;
  }
  q->rq.params = *params;
  if (params->n_layer_weights > 0) {
    memcpy(q->weights, params->layer_weights, (size_t)params->n_layer_weights * sizeof(double));
    q->rq.params.layer_weights = q->weights;
  } else {
    q->rq.params.layer_weights = NULL;
  }
  note_weight_layers(q, sc->grids[q->grid].grid);
  if (q->state == SLOT_ACTIVE) q->params_changed = true; /* restarted by run_request */
  return LDS_OK;
}

lds_Status lds_scheduler_remove_grid(lds_Scheduler *sc, const lds_Grid *grid) {
  int gi = find_grid(sc, grid);
  uint32_t r;
  if (sc->ticking)
    return ldsi_sched_fail(sc, LDS_E_STATE, "lds_scheduler_remove_grid: called from inside a callback");
  if (gi < 0)
    return ldsi_sched_fail(sc, LDS_E_ARG, "lds_scheduler_remove_grid: grid %p was not added",
                   (const void *)grid);
  /* its finished requests stop being watched, and its edits stop being heard */
  for (r = 0; r < sc->nreq; r++)
    if (sc->req[r].state != SLOT_FREE && sc->req[r].grid == gi) ldsi_sched_watch_disarm(sc, r);
  ldsi_sched_edits_detach(sc, gi);
  /* the grid is unknown from here on (callbacks cannot submit to it), and
  ** callbacks cannot tick or remove grids (ticking) */
  sc->grids[gi].grid = NULL;
  sc->ticking = true;
  for (r = 0; r < sc->nreq; r++) {
    Req *q = &sc->req[r];
    if (q->grid != gi || (q->state != SLOT_QUEUED && q->state != SLOT_ACTIVE)) continue;
    snprintf(q->errmsg, sizeof q->errmsg, "lds_scheduler_remove_grid: the request's grid was removed");
    ldsi_sched_finish(sc, r, LDS_E_STATE, NULL);
  }
  sc->ticking = false;
  /* requests of later grids move down one index; finished ones keep a dead index */
  for (r = 0; r < sc->nreq; r++) {
    Req *q = &sc->req[r];
    if (q->state == SLOT_FREE) continue;
    if (q->grid == gi) q->grid = -1;
    else if (q->grid > gi) q->grid--;
  }
  grid_entry_free(sc, &sc->grids[gi]);
  memmove(&sc->grids[gi], &sc->grids[gi + 1], (size_t)(sc->ngrids - gi - 1) * sizeof(GridEntry));
  sc->ngrids--;
  return LDS_OK;
}

/* ----------------------------------------------------------- results -- */

lds_Status lds_scheduler_status(const lds_Scheduler *sc, lds_RequestId id) {
  uint32_t r = slot_of(sc, id);
  return r == NO_INDEX ? LDS_E_ARG : sc->req[r].status;
}

lds_Status lds_scheduler_info(const lds_Scheduler *sc, lds_RequestId id, lds_RequestInfo *out) {
  uint32_t r = slot_of(sc, id);
  if (r == NO_INDEX) return LDS_E_ARG;
  info_fill(sc, r, out);
  return LDS_OK;
}

const lds_Path *lds_scheduler_path(const lds_Scheduler *sc, lds_RequestId id) {
  uint32_t r = slot_of(sc, id);
  if (r == NO_INDEX) return NULL;
  return sc->req[r].path ? sc->req[r].path : sc->req[r].quick;
}

lds_Path *lds_scheduler_take_path(lds_Scheduler *sc, lds_RequestId id) {
  uint32_t r = slot_of(sc, id);
  lds_Path *p;
  if (r == NO_INDEX) return NULL;
  if (sc->req[r].path) {
    p = sc->req[r].path;
    sc->req[r].path = NULL;
  } else {
    p = sc->req[r].quick;
    sc->req[r].quick = NULL;
    sc->req[r].flags &= ~(uint32_t)LDS_REQINFO_PARTIAL;
  }
  return p;
}

const char *lds_scheduler_request_errmsg(const lds_Scheduler *sc, lds_RequestId id) {
  uint32_t r = slot_of(sc, id);
  return r == NO_INDEX ? "" : sc->req[r].errmsg;
}

size_t lds_scheduler_pending(const lds_Scheduler *sc) { return sc->pending; }

uint64_t lds_scheduler_frame(const lds_Scheduler *sc) { return sc->frame; }

void lds_scheduler_totals(const lds_Scheduler *sc, lds_TickStats *out) { *out = sc->totals; }

void lds_scheduler_stats(const lds_Scheduler *sc, lds_Stats *out) {
  out->expansions = sc->totals.expansions;
  out->pushes = sc->pushes;
  out->peak_open = sc->peak_open;
  out->elapsed_us = sc->totals.elapsed_us;
}
