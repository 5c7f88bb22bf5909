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
#include "lds_open_list.h" /* only to pre-fault a new search's memory */

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define NO_INDEX 0xFFFFFFFFu
#define GEN_MASK 0xFFFFFu /* handle generations: 20 bits, so handles are < 2^52 */
#define MAX_PRIORITY 1000000
#define MAX_SEARCHES 64
#define K_MIN 8          /* smallest chunk in timed mode [expansions] */
#define K_MAX 65536      /* largest chunk in timed mode [expansions] */
#define CHECK_US_MIN 8   /* smallest auto check interval [µs] */
#define RATE_MIN 0.01    /* floor of the rate estimate [expansions per µs] */

enum { SLOT_FREE = 0, SLOT_QUEUED = 1, SLOT_ACTIVE = 2, SLOT_DONE = 3 };
enum { HEAP_MAIN = 0, HEAP_QUICK = 1 };

typedef struct Req {
  uint32_t gen;      /* handle generation; bumped when the slot is freed */
  uint8_t state;     /* SLOT_* */
  bool quick_pending;/* quick pass still to run */
  lds_Status status;
  uint32_t flags;    /* LDS_REQINFO_* */
  int grid;          /* index into sc->grids */
  int search;        /* index into the grid's pool when ACTIVE, else -1 */
  uint32_t heap_pos[2];
  lds_Request rq;    /* copy of the request; rq.params.layer_weights -> weights */
  double weights[16];
  int64_t key;       /* priority * aging_frames - submit_frame; larger first */
  uint64_t seq;      /* submission order: ties go to the older request */
  uint64_t submit_frame, finish_frame;
  uint32_t restarts;
  bool params_changed;      /* lds_scheduler_set_params on an ACTIVE request */
  uint64_t expansions;      /* total, restarts and quick pass included */
  uint64_t elapsed_us;      /* scheduler-measured time of its chunks */
  uint64_t rate_exp;        /* expansions of its timed chunks (its own rate) */
  lds_Stats stats;          /* last search's counters */
  double cost;
  lds_Path *path;           /* final path */
  lds_Path *quick;          /* quick partial path */
  uint32_t next_free;
  char errmsg[LDS_ERRMSG_SIZE];
} Req;

typedef struct Heap {
  uint32_t *items;   /* slot indices */
  size_t n, cap;
} Heap;

typedef struct GridEntry {
  const lds_Grid *grid;
  int nsearch;
  lds_Search **search;   /* pool */
  uint32_t *owner;       /* slot owning each search, NO_INDEX when free */
  int nfree;
  lds_Search *quick;     /* for quick passes */
  Heap heap[2];          /* HEAP_MAIN: waiting for a search; HEAP_QUICK: quick pass due */
} GridEntry;

struct lds_Scheduler {
  ldsi_Env env;
  lds_SchedulerConfig cfg;
  Req *req;
  uint32_t nreq, cap;
  uint32_t free_head;
  GridEntry *grids;
  int ngrids, grid_cap;
  uint64_t frame;     /* ticks done */
  uint64_t seq;
  double rate;        /* expansions per µs */
  uint64_t last_k;
  bool ticking;
  size_t pending;     /* QUEUED + ACTIVE */
  lds_TickStats totals;
  uint64_t pushes, peak_open; /* lds_scheduler_stats: summed / largest over the searches' steps */
  lds_TickStats *cur; /* the running tick's counters */
  char errmsg[LDS_ERRMSG_SIZE];
};

/* Searches get a clock that costs nothing: the scheduler reads the real one
** itself, at the points where it decides. */
static uint64_t zero_clock(void *ud) {
  (void)ud;
  return 0;
}

static lds_Status sc_fail(lds_Scheduler *sc, lds_Status code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static lds_Status sc_fail(lds_Scheduler *sc, lds_Status code, const char *fmt, ...) {
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

static bool req_before(const lds_Scheduler *sc, uint32_t a, uint32_t b) {
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
    if (!req_before(sc, r, h->items[parent])) break;
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
    if (c + 1 < h->n && req_before(sc, h->items[c + 1], h->items[c])) c++;
    if (!req_before(sc, h->items[c], r)) break;
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

static void heap_remove(lds_Scheduler *sc, Heap *h, int which, uint32_t r) {
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

/* ---------------------------------------------------------- lifetime -- */

static bool slots_grow(lds_Scheduler *sc, uint32_t ncap) {
  Req *r;
  if (ncap <= sc->cap) return true;
  r = (Req *)ldsi_realloc(&sc->env, sc->req, sc->cap * sizeof(Req), ncap * sizeof(Req));
  if (!r) return false;
  memset(r + sc->cap, 0, (ncap - sc->cap) * sizeof(Req));
  sc->req = r;
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
  if (ge->search)
    for (i = 0; i < ge->nsearch; i++) lds_search_free(ge->search[i]);
  lds_search_free(ge->quick);
  ldsi_free(&sc->env, ge->search, (size_t)ge->nsearch * sizeof(lds_Search *));
  ldsi_free(&sc->env, ge->owner, (size_t)ge->nsearch * sizeof(uint32_t));
  for (i = 0; i < 2; i++) ldsi_free(&sc->env, ge->heap[i].items, ge->heap[i].cap * sizeof(uint32_t));
  memset(ge, 0, sizeof *ge);
}

void lds_scheduler_free(lds_Scheduler *sc) {
  uint32_t i;
  int k;
  if (!sc) return;
  for (i = 0; i < sc->nreq; i++) {
    lds_path_free(sc->req[i].path);
    lds_path_free(sc->req[i].quick);
  }
  for (k = 0; k < sc->ngrids; k++) grid_entry_free(sc, &sc->grids[k]);
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
  memset(s->nodes, 0, s->nnodes * sizeof(ldsi_Node));
  if (s->hot) memset(s->hot, 0, s->nnodes * sizeof(ldsi_Hot));
  memset(s->open, 0, s->open_cap * sizeof(ldsi_Open));
}

static int find_grid(const lds_Scheduler *sc, const lds_Grid *g) {
  int i;
  for (i = 0; i < sc->ngrids; i++)
    if (sc->grids[i].grid == g) return i;
  return -1;
}

lds_Status lds_scheduler_add_grid(lds_Scheduler *sc, const lds_Grid *grid, int n_searches) {
  GridEntry ge;
  lds_Env senv;
  lds_Error err;
  int i;
  if (!grid) return sc_fail(sc, LDS_E_ARG, "lds_scheduler_add_grid: grid is NULL");
  if (find_grid(sc, grid) >= 0)
    return sc_fail(sc, LDS_E_ARG, "lds_scheduler_add_grid: grid %p already added",
                   (const void *)grid);
  if (n_searches < 0 || n_searches > MAX_SEARCHES)
    return sc_fail(sc, LDS_E_ARG,
                   "lds_scheduler_add_grid: n_searches %d out of range (expected 0..%d)",
                   n_searches, MAX_SEARCHES);
  if (n_searches == 0) n_searches = sc->cfg.searches_per_grid;
  if (sc->ngrids == sc->grid_cap) {
    int ncap = sc->grid_cap ? sc->grid_cap * 2 : 4;
    GridEntry *g = (GridEntry *)ldsi_realloc(&sc->env, sc->grids,
                                             (size_t)sc->grid_cap * sizeof(GridEntry),
                                             (size_t)ncap * sizeof(GridEntry));
    if (!g) return sc_fail(sc, LDS_E_NOMEM, "lds_scheduler_add_grid: out of memory");
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
  ge.nsearch = n_searches;
  if (!ge.search || !ge.owner) {
    grid_entry_free(sc, &ge);
    return sc_fail(sc, LDS_E_NOMEM, "lds_scheduler_add_grid: out of memory");
  }
  ge.nsearch = n_searches;
  ge.nfree = n_searches;
  for (i = 0; i < n_searches; i++) ge.owner[i] = NO_INDEX;
  for (i = 0; i <= n_searches; i++) {
    lds_Search *s = lds_search_new(&senv, grid, &err);
    if (!s) {
      grid_entry_free(sc, &ge);
      return sc_fail(sc, err.code, "lds_scheduler_add_grid: %s", err.msg);
    }
    prefault(s);
    if (i < n_searches)
      ge.search[i] = s;
    else
      ge.quick = s;
  }
  if (!heap_reserve(sc, &ge.heap[0], 64) || !heap_reserve(sc, &ge.heap[1], 64)) {
    grid_entry_free(sc, &ge);
    return sc_fail(sc, LDS_E_NOMEM, "lds_scheduler_add_grid: out of memory");
  }
  sc->grids[sc->ngrids++] = ge;
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
    n += (size_t)ge->nsearch * (sizeof(lds_Search *) + sizeof(uint32_t));
    n += (ge->heap[0].cap + ge->heap[1].cap) * sizeof(uint32_t);
  }
  return n;
}

const char *lds_scheduler_errmsg(const lds_Scheduler *sc) { return sc->errmsg; }

/* ---------------------------------------------------------- handles -- */

static lds_RequestId make_id(uint32_t idx, uint32_t gen) {
  return ((lds_RequestId)gen << 32) | (lds_RequestId)idx;
}

/* Slot index of a live handle, or NO_INDEX. */
static uint32_t slot_of(const lds_Scheduler *sc, lds_RequestId id) {
  uint32_t idx = (uint32_t)(id & 0xFFFFFFFFu), gen = (uint32_t)(id >> 32);
  if (gen == 0 || idx >= sc->nreq) return NO_INDEX;
  if (sc->req[idx].state == SLOT_FREE || sc->req[idx].gen != gen) return NO_INDEX;
  return idx;
}

static uint32_t check_id(lds_Scheduler *sc, lds_RequestId id, const char *fn) {
  uint32_t r = slot_of(sc, id);
  if (r == NO_INDEX)
    sc_fail(sc, LDS_E_ARG, "%s: stale or invalid request handle 0x%016llx", fn,
            (unsigned long long)id);
  return r;
}

/* ------------------------------------------------------------ states -- */

/* Takes a request out of the queues and gives back its search. */
static void detach(lds_Scheduler *sc, uint32_t r) {
  Req *q = &sc->req[r];
  GridEntry *ge;
  if (q->state != SLOT_QUEUED && q->state != SLOT_ACTIVE && !q->quick_pending) return;
  ge = &sc->grids[q->grid];
  if (q->state == SLOT_QUEUED) {
    heap_remove(sc, &ge->heap[HEAP_MAIN], HEAP_MAIN, r);
    sc->pending--;
  } else if (q->state == SLOT_ACTIVE) {
    ge->owner[q->search] = NO_INDEX;
    ge->nfree++;
    q->search = -1;
    sc->pending--;
  }
  if (q->quick_pending) {
    heap_remove(sc, &ge->heap[HEAP_QUICK], HEAP_QUICK, r);
    q->quick_pending = false;
  }
}

static void slot_free(lds_Scheduler *sc, uint32_t r) {
  Req *q = &sc->req[r];
  lds_path_free(q->path);
  lds_path_free(q->quick);
  q->path = q->quick = NULL;
  q->state = SLOT_FREE;
  q->gen = (q->gen + 1) & GEN_MASK;
  if (q->gen == 0) q->gen = 1;
  q->next_free = sc->free_head;
  sc->free_head = r;
}

static void info_fill(const lds_Scheduler *sc, uint32_t r, lds_RequestInfo *out) {
  const Req *q = &sc->req[r];
  out->status = q->status;
  out->flags = q->flags;
  out->agent_id = q->rq.agent_id;
  out->priority = q->rq.priority;
  out->frames = (uint32_t)((q->state == SLOT_DONE ? q->finish_frame : sc->frame) - q->submit_frame);
  out->restarts = q->restarts;
  out->expansions = q->expansions;
  out->stats = q->stats;
  out->stats.elapsed_us = q->elapsed_us;
  out->cost = q->path ? lds_path_cost(q->path) : (q->quick ? lds_path_cost(q->quick) : -1.0);
  out->path_length = q->path ? lds_path_length(q->path) : (q->quick ? lds_path_length(q->quick) : 0);
}

/* Calls the request's callback (if any). Afterwards the slot may be free
** (released inside the callback) or auto-released here. */
static void deliver(lds_Scheduler *sc, uint32_t r, lds_RequestEvent ev) {
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

/* Final status: frees the search, keeps the path, calls back. */
static void finish(lds_Scheduler *sc, uint32_t r, lds_Status st, lds_Search *s) {
  Req *q = &sc->req[r];
  detach(sc, r);
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
    } else if (st < 0) {
      snprintf(q->errmsg, sizeof q->errmsg, "%s", lds_search_errmsg(s));
    }
  }
  if (sc->cur) {
    sc->cur->finished++;
    if (st == LDS_FOUND) sc->cur->found++;
    if (st < 0) sc->cur->failed++;
  }
  deliver(sc, r, LDS_EVENT_DONE);
}

/* ---------------------------------------------------------- requests -- */

lds_Status lds_scheduler_submit(lds_Scheduler *sc, const lds_Request *rq, lds_RequestId *id) {
  int gi;
  uint32_t r;
  Req *q;
  GridEntry *ge;
  if (id) *id = 0;
  if (!rq) return sc_fail(sc, LDS_E_ARG, "lds_scheduler_submit: request is NULL");
  gi = find_grid(sc, rq->grid);
  if (gi < 0)
    return sc_fail(sc, LDS_E_ARG,
                   "lds_scheduler_submit: grid %p was not added (call lds_scheduler_add_grid)",
                   (const void *)rq->grid);
  if (!lds_grid_in_bounds(rq->grid, rq->sx, rq->sy) || !lds_grid_in_bounds(rq->grid, rq->gx, rq->gy)) {
    bool s_ok = lds_grid_in_bounds(rq->grid, rq->sx, rq->sy);
    return sc_fail(sc, LDS_E_ARG, "lds_scheduler_submit: %s (%ld,%ld) out of bounds (grid is %ldx%ld)",
                   s_ok ? "goal" : "start", (long)(s_ok ? rq->gx : rq->sx),
                   (long)(s_ok ? rq->gy : rq->sy), (long)lds_grid_width(rq->grid),
                   (long)lds_grid_height(rq->grid));
  }
  if (rq->priority < -MAX_PRIORITY || rq->priority > MAX_PRIORITY)
    return sc_fail(sc, LDS_E_ARG,
                   "lds_scheduler_submit: priority %ld out of range (expected %d..%d)",
                   (long)rq->priority, -MAX_PRIORITY, MAX_PRIORITY);
  if (rq->params.n_layer_weights < 0 || rq->params.n_layer_weights > 16 ||
      (rq->params.n_layer_weights > 0 && !rq->params.layer_weights))
    return sc_fail(sc, LDS_E_ARG,
                   "lds_scheduler_submit: %d layer weights (expected 0..16 with a non-NULL array)",
                   rq->params.n_layer_weights);
  ge = &sc->grids[gi];
  if (!heap_reserve(sc, &ge->heap[HEAP_MAIN], ge->heap[HEAP_MAIN].n + 1) ||
      (rq->quick_expansions && !heap_reserve(sc, &ge->heap[HEAP_QUICK], ge->heap[HEAP_QUICK].n + 1)))
    return sc_fail(sc, LDS_E_NOMEM, "lds_scheduler_submit: out of memory for the queue");
  if (sc->free_head != NO_INDEX) {
    r = sc->free_head;
    sc->free_head = sc->req[r].next_free;
  } else {
    if (sc->nreq == sc->cap) {
      uint32_t ncap = sc->cap ? sc->cap * 2 : 64;
      if (sc->cap >= 0x7FFFFFFFu || !slots_grow(sc, ncap))
        return sc_fail(sc, LDS_E_NOMEM, "lds_scheduler_submit: out of memory for %lu requests",
                       (unsigned long)ncap);
    }
    r = sc->nreq++;
    sc->req[r].gen = 1;
  }
  q = &sc->req[r];
  {
    uint32_t gen = q->gen;
    memset(q, 0, sizeof *q);
    q->gen = gen;
  }
  q->rq = *rq;
  if (rq->params.n_layer_weights > 0) {
    memcpy(q->weights, rq->params.layer_weights, (size_t)rq->params.n_layer_weights * sizeof(double));
    q->rq.params.layer_weights = q->weights;
  } else {
    q->rq.params.layer_weights = NULL;
  }
  q->state = SLOT_QUEUED;
  q->status = LDS_RUNNING;
  q->grid = gi;
  q->search = -1;
  q->heap_pos[0] = q->heap_pos[1] = NO_INDEX;
  q->submit_frame = sc->frame;
  q->seq = sc->seq++;
  q->key = (int64_t)rq->priority * (int64_t)sc->cfg.aging_frames - (int64_t)sc->frame;
  q->cost = -1.0;
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
    return sc_fail(sc, LDS_E_ARG,
                   "lds_scheduler_set_priority: priority %ld out of range (expected %d..%d)",
                   (long)priority, -MAX_PRIORITY, MAX_PRIORITY);
  q = &sc->req[r];
  if (q->state == SLOT_DONE)
    return sc_fail(sc, LDS_E_STATE, "lds_scheduler_set_priority: request already finished (%s)",
                   lds_status_name(q->status));
  q->key += ((int64_t)priority - (int64_t)q->rq.priority) * (int64_t)sc->cfg.aging_frames;
  q->rq.priority = priority;
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
  if (!params) return sc_fail(sc, LDS_E_ARG, "lds_scheduler_set_params: params is NULL");
  if (params->n_layer_weights < 0 || params->n_layer_weights > 16 ||
      (params->n_layer_weights > 0 && !params->layer_weights))
    return sc_fail(sc, LDS_E_ARG,
                   "lds_scheduler_set_params: %d layer weights (expected 0..16 with a non-NULL "
                   "array)", params->n_layer_weights);
  q = &sc->req[r];
  if (q->state == SLOT_DONE)
    return sc_fail(sc, LDS_E_STATE, "lds_scheduler_set_params: request already finished (%s)",
                   lds_status_name(q->status));
  q->rq.params = *params;
  if (params->n_layer_weights > 0) {
    memcpy(q->weights, params->layer_weights, (size_t)params->n_layer_weights * sizeof(double));
    q->rq.params.layer_weights = q->weights;
  } else {
    q->rq.params.layer_weights = NULL;
  }
  if (q->state == SLOT_ACTIVE) q->params_changed = true; /* restarted by run_request */
  return LDS_OK;
}

lds_Status lds_scheduler_remove_grid(lds_Scheduler *sc, const lds_Grid *grid) {
  int gi = find_grid(sc, grid);
  uint32_t r;
  if (sc->ticking)
    return sc_fail(sc, LDS_E_STATE, "lds_scheduler_remove_grid: called from inside a callback");
  if (gi < 0)
    return sc_fail(sc, LDS_E_ARG, "lds_scheduler_remove_grid: grid %p was not added",
                   (const void *)grid);
  /* the grid is unknown from here on (callbacks cannot submit to it), and
  ** callbacks cannot tick or remove grids (ticking) */
  sc->grids[gi].grid = NULL;
  sc->ticking = true;
  for (r = 0; r < sc->nreq; r++) {
    Req *q = &sc->req[r];
    if (q->grid != gi || (q->state != SLOT_QUEUED && q->state != SLOT_ACTIVE)) continue;
    snprintf(q->errmsg, sizeof q->errmsg, "lds_scheduler_remove_grid: the request's grid was removed");
    finish(sc, r, LDS_E_STATE, NULL);
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

/* ----------------------------------------------------------- slicing -- */

/* The budget of the running tick. Timed mode: t0 + budget_us on the clock;
** expansion limits count exactly. */
typedef struct Budget {
  bool timed;          /* the clock decides */
  uint64_t t0, us;     /* start, budget [µs] */
  uint64_t max_exp;    /* 0 = none */
  uint64_t spent_exp;
  uint64_t now;        /* last clock reading */
  uint64_t check_us;
  uint64_t run_exp;    /* expansions run in this tick (timed) */
  double rate;         /* expansions per µs used in this tick */
} Budget;

static uint64_t read_clock(lds_Scheduler *sc, Budget *b) {
  b->now = sc->env.clock(sc->env.clock_ud);
  sc->cur->clock_reads++;
  return b->now;
}

/* Expansions allowed in the next chunk; 0 = the budget is spent. Timed mode:
** about check_us of work at the measured rate, never more than half of the
** time left, so the last chunks shrink geometrically towards the deadline and
** the overshoot is at most one small chunk. */
static uint64_t next_chunk(lds_Scheduler *sc, Budget *b, double rate, uint64_t cap) {
  uint64_t k = 0;
  if (b->max_exp) {
    if (b->spent_exp >= b->max_exp) return 0;
    k = b->max_exp - b->spent_exp;
  }
  if (b->timed) {
    uint64_t el = b->now - b->t0, left, kt;
    double want;
    if (el >= b->us) return 0;
    left = b->us - el;
    if (left < 2) return 0; /* nothing useful fits in under 2 µs */
    want = (rate > 0.0 && rate < b->rate ? rate : b->rate) * (double)(left / 2 < b->check_us ? left / 2 : b->check_us);
    kt = want > (double)K_MAX ? K_MAX : (uint64_t)want;
    if (kt < K_MIN && left > 2 * b->check_us) kt = K_MIN;
    if (kt == 0) kt = 1; /* always progress while time is left */
    if (!k || kt < k) k = kt;
    sc->last_k = k;
  }
  if (cap && (!k || cap < k)) k = cap;
  return k ? k : (uint64_t)-1 >> 1; /* no limit at all: run to the end */
}

/* After a chunk of n expansions: count them, read the clock, update the
** rate used for the rest of this tick: the smaller of the carried estimate
** and what this tick measured so far (once there is enough of it to trust),
** so a slow tick (costly callbacks, a cold cache) shrinks chunks at once while
** one preempted chunk cannot poison later ticks (see end_rate). */
static void after_chunk(lds_Scheduler *sc, Budget *b, Req *q, uint64_t n) {
  b->spent_exp += n;
  q->expansions += n;
  sc->cur->expansions += n;
  if (b->timed) {
    uint64_t before = b->now;
    read_clock(sc, b);
    q->elapsed_us += b->now - before;
    q->rate_exp += n;
    b->run_exp += n;
    if (b->now - b->t0 >= 20 && b->run_exp > 0) {
      double measured = (double)b->run_exp / (double)(b->now - b->t0);
      b->rate = measured < sc->rate ? measured : sc->rate;
      if (b->rate < RATE_MIN) b->rate = RATE_MIN;
    }
  }
}

/* End of a timed tick: fold its measured rate into the carried estimate
** (exponential moving average, weight 0.3) when the tick ran long enough. */
static void end_rate(lds_Scheduler *sc, const Budget *b) {
  uint64_t us = b->now - b->t0;
  if (!b->timed || us < 50 || b->run_exp < 16) return;
  sc->rate = 0.7 * sc->rate + 0.3 * ((double)b->run_exp / (double)us);
  if (sc->rate < RATE_MIN) sc->rate = RATE_MIN;
}

/* One step of s bounded by max_exp expansions (0 = no limit). */
static lds_Status step_n(lds_Search *s, uint64_t max_exp) {
  lds_Budget b;
  b.max_expansions = max_exp;
  b.budget_us = 0;
  return lds_search_step(s, &b);
}

/* Adds a step's open-list counters to the scheduler's lds_Stats. */
static void count_open(lds_Scheduler *sc, const lds_Stats *st, uint64_t pushes) {
  sc->pushes += pushes;
  if (st->peak_open > sc->peak_open) sc->peak_open = st->peak_open;
}

/* Starts (or restarts) the search of request r on search slot k. Returns
** LDS_OK, or the error that ended the request. */
static lds_Status start_search(lds_Scheduler *sc, uint32_t r, lds_Search *s) {
  Req *q = &sc->req[r];
  lds_Status st = lds_search_start(s, &q->rq.params, q->rq.sx, q->rq.sy, q->rq.gx, q->rq.gy);
  if (st == LDS_OK) { /* the start's own push, before the first step's snapshot */
    lds_Stats s0;
    lds_search_stats(s, &s0);
    count_open(sc, &s0, s0.pushes);
  }
  sc->cur->started++;
  q->flags |= LDS_REQINFO_STARTED;
  return st;
}

/* Runs request r (ACTIVE, holding search s) until it finishes or the budget
** is spent. Returns true when the budget is spent. */
static bool run_request(lds_Scheduler *sc, Budget *b, uint32_t r) {
  for (;;) {
    Req *q = &sc->req[r];
    GridEntry *ge = &sc->grids[q->grid];
    lds_Search *s = ge->search[q->search];
    lds_Stats st0, st1;
    lds_Status st;
    double own = 0.0;
    uint64_t cap = 0, k;
    /* A request's own measured rate wins when it is slower than the tick's
    ** (an edge callback, a layer-weighted grid); a request with an edge
    ** callback probes with K_MIN expansions until 10 µs of it were seen. */
    if (b->timed && q->elapsed_us >= 10 && q->rate_exp > 0)
      own = (double)q->rate_exp / (double)q->elapsed_us;
    else if (b->timed && q->rq.params.edge_cost)
      cap = K_MIN;
    k = next_chunk(sc, b, own, cap);
    if (k == 0) return true;
    if (q->params_changed) { /* new parameters: start over, keep the place */
      q->params_changed = false;
      st = start_search(sc, r, s);
      if (st != LDS_OK) {
        finish(sc, r, st, s);
        return false;
      }
    }
    lds_search_stats(s, &st0);
    st = step_n(s, k);
    lds_search_stats(s, &st1);
    count_open(sc, &st1, st1.pushes - st0.pushes);
    after_chunk(sc, b, q, st1.expansions - st0.expansions);
    if (st == LDS_RUNNING) continue;
    if (st == LDS_E_STALE) {
      if (q->restarts < sc->cfg.max_restarts) {
        q->restarts++;
        sc->cur->restarted++;
        st = start_search(sc, r, s);
        if (st == LDS_OK) continue;
      } else {
        snprintf(q->errmsg, sizeof q->errmsg,
                 "lds_scheduler_step: the grid changed under the search %lu times "
                 "(max_restarts %lu)", (unsigned long)q->restarts + 1,
                 (unsigned long)sc->cfg.max_restarts);
        finish(sc, r, LDS_E_STALE, NULL);
        return false;
      }
    }
    finish(sc, r, st, s);
    return false;
  }
}

/* Quick passes: pop quick requests in key order while the quick share lasts.
** Each runs at most quick_expansions on the grid's quick search. */
static void quick_passes(lds_Scheduler *sc, Budget *b) {
  uint64_t qmax_exp = 0, qus = 0;
  double share = sc->cfg.quick_share;
  if (share <= 0.0) return;
  if (b->max_exp) qmax_exp = (uint64_t)((double)b->max_exp * share);
  if (b->timed) qus = (uint64_t)((double)b->us * share);
  for (;;) {
    int gi, best = -1;
    uint32_t r = NO_INDEX;
    Req *q;
    GridEntry *ge;
    lds_Search *s;
    lds_Stats stt;
    lds_Status st;
    uint64_t cap;
    if (b->max_exp && b->spent_exp >= qmax_exp) return;
    if (b->timed && b->now - b->t0 >= qus) return;
    for (gi = 0; gi < sc->ngrids; gi++) {
      Heap *h = &sc->grids[gi].heap[HEAP_QUICK];
      if (h->n && (r == NO_INDEX || req_before(sc, h->items[0], r))) {
        r = h->items[0];
        best = gi;
      }
    }
    if (r == NO_INDEX) return;
    ge = &sc->grids[best];
    q = &sc->req[r];
    heap_remove(sc, &ge->heap[HEAP_QUICK], HEAP_QUICK, r);
    q->quick_pending = false;
    cap = q->rq.quick_expansions;
    if (b->max_exp && b->max_exp - b->spent_exp < cap) cap = b->max_exp - b->spent_exp;
    if (cap == 0) return; /* 0 would mean "no limit" to lds_search_step */
    s = ge->quick;
    st = lds_search_start(s, &q->rq.params, q->rq.sx, q->rq.sy, q->rq.gx, q->rq.gy);
    if (st == LDS_OK) st = step_n(s, cap);
    lds_search_stats(s, &stt);
    count_open(sc, &stt, stt.pushes);
    after_chunk(sc, b, q, stt.expansions);
    sc->cur->started++;
    q->flags |= LDS_REQINFO_STARTED;
    if (st != LDS_RUNNING) {
      /* the quick pass settled it (found, no path, or the error the full
      ** search would meet too): that is the full answer */
      finish(sc, r, st, s);
      if (b->timed) read_clock(sc, b);
      continue;
    }
    {
      lds_Error err;
      q->quick = lds_search_partial_path(s, &err);
      if (q->quick) {
        q->flags |= LDS_REQINFO_PARTIAL;
        sc->cur->partial_paths++;
        deliver(sc, r, LDS_EVENT_PARTIAL);
      }
    }
    if (b->timed) read_clock(sc, b);
  }
}

/* The best request to run next: the largest key among ACTIVE requests and
** the heads of the queues of grids with a free search. */
static uint32_t pick(lds_Scheduler *sc) {
  uint32_t best = NO_INDEX;
  int gi, k;
  for (gi = 0; gi < sc->ngrids; gi++) {
    GridEntry *ge = &sc->grids[gi];
    for (k = 0; k < ge->nsearch; k++) {
      uint32_t r = ge->owner[k];
      if (r != NO_INDEX && (best == NO_INDEX || req_before(sc, r, best))) best = r;
    }
    if (ge->nfree > 0 && ge->heap[HEAP_MAIN].n) {
      uint32_t r = ge->heap[HEAP_MAIN].items[0];
      if (best == NO_INDEX || req_before(sc, r, best)) best = r;
    }
  }
  return best;
}

lds_Status lds_scheduler_step(lds_Scheduler *sc, const lds_Budget *budget, lds_TickStats *out) {
  lds_TickStats ts;
  Budget b;
  uint64_t tstart;
  if (sc->ticking)
    return sc_fail(sc, LDS_E_STATE, "lds_scheduler_step: called from inside a callback");
  memset(&ts, 0, sizeof ts);
  memset(&b, 0, sizeof b);
  ts.frame = sc->frame;
  sc->cur = &ts;
  sc->ticking = true;
  b.max_exp = budget ? budget->max_expansions : 0;
  ts.budget_us = budget ? budget->budget_us : 0;
  if (sc->cfg.deterministic) {
    if (ts.budget_us) {
      uint64_t e = ts.budget_us * sc->cfg.expansions_per_us;
      if (!b.max_exp || e < b.max_exp) b.max_exp = e;
    }
  } else if (ts.budget_us) {
    b.timed = true;
    b.us = ts.budget_us;
    b.check_us = sc->cfg.check_us ? sc->cfg.check_us : ts.budget_us / 16;
    if (b.check_us < CHECK_US_MIN) b.check_us = CHECK_US_MIN;
  }
  ts.budget_expansions = b.max_exp;
  tstart = sc->env.clock(sc->env.clock_ud);
  b.t0 = b.now = tstart;
  b.rate = sc->rate;

  quick_passes(sc, &b);
  for (;;) {
    uint32_t r = pick(sc);
    Req *q;
    if (r == NO_INDEX) break;
    if (next_chunk(sc, &b, 0.0, 0) == 0) break;
    q = &sc->req[r];
    if (q->state == SLOT_QUEUED) {
      GridEntry *ge = &sc->grids[q->grid];
      int k;
      lds_Status st;
      for (k = 0; ge->owner[k] != NO_INDEX; k++) {}
      heap_remove(sc, &ge->heap[HEAP_MAIN], HEAP_MAIN, r);
      if (q->quick_pending) {
        heap_remove(sc, &ge->heap[HEAP_QUICK], HEAP_QUICK, r);
        q->quick_pending = false;
      }
      ge->owner[k] = r;
      ge->nfree--;
      q->state = SLOT_ACTIVE;
      q->search = k;
      st = start_search(sc, r, ge->search[k]);
      if (st != LDS_OK) {
        finish(sc, r, st, ge->search[k]);
        if (b.timed) read_clock(sc, &b);
        continue;
      }
    }
    if (run_request(sc, &b, r)) break;
    /* a request finished: its path and callback took time the next chunk
    ** must not be sized without */
    if (b.timed) read_clock(sc, &b);
  }

  end_rate(sc, &b);
  {
    uint64_t tend = sc->env.clock(sc->env.clock_ud);
    ts.elapsed_us = tend - tstart;
  }
  sc->frame++;
  ts.queued = 0;
  ts.active = 0;
  {
    int gi;
    for (gi = 0; gi < sc->ngrids; gi++) {
      ts.queued += (uint32_t)sc->grids[gi].heap[HEAP_MAIN].n;
      ts.active += (uint32_t)(sc->grids[gi].nsearch - sc->grids[gi].nfree);
    }
  }
  ts.rate = sc->rate;
  ts.chunk_expansions = sc->last_k;
  sc->totals.expansions += ts.expansions;
  sc->totals.elapsed_us += ts.elapsed_us;
  sc->totals.budget_us += ts.budget_us;
  sc->totals.budget_expansions += ts.budget_expansions;
  sc->totals.started += ts.started;
  sc->totals.finished += ts.finished;
  sc->totals.found += ts.found;
  sc->totals.restarted += ts.restarted;
  sc->totals.partial_paths += ts.partial_paths;
  sc->totals.failed += ts.failed;
  sc->totals.callback_errors += ts.callback_errors;
  sc->totals.clock_reads += ts.clock_reads;
  sc->totals.queued = ts.queued;
  sc->totals.active = ts.active;
  sc->totals.chunk_expansions = ts.chunk_expansions;
  sc->totals.rate = ts.rate;
  sc->totals.frame = sc->frame;
  sc->cur = NULL;
  sc->ticking = false;
  if (out) *out = ts;
  return LDS_OK;
}

lds_Status lds_scheduler_tick_budget(lds_Scheduler *sc, const lds_Budget *budget,
                                     lds_TickStats *out) {
  return lds_scheduler_step(sc, budget, out);
}

lds_Status lds_scheduler_tick(lds_Scheduler *sc, uint64_t budget_us, lds_TickStats *out) {
  lds_Budget b;
  b.max_expansions = 0;
  b.budget_us = budget_us;
  return lds_scheduler_step(sc, &b, out);
}
