/* SPDX-License-Identifier: MIT */
/*
** lds_scheduler_internal.h — the scheduler's state, shared by its two files:
** lds_scheduler.c (configuration, grids and their search pools, request
** slots and handles, submit/cancel/results) and lds_scheduler_step.c (the
** per-frame slicing: the budget, the chunk sizes, quick passes, picking the
** next request). Not installed.
*/
#ifndef LDS_SCHEDULER_INTERNAL_H
#define LDS_SCHEDULER_INTERNAL_H

#include "lds_scheduler.h"
#include "lds_path_cache.h"
#include "lds_internal.h"

#define NO_INDEX 0xFFFFFFFFu
#define GEN_MASK 0xFFFFFu /* handle generations: 20 bits, so handles are < 2^52 */
#define MAX_PRIORITY 1000000
#define MAX_SEARCHES 64
#define K_MIN 8          /* smallest chunk in timed mode [expansions] */
#define K_MAX 65536      /* largest chunk in timed mode [expansions] */
#define CHECK_US_MIN 8   /* smallest auto check interval [µs] */
#define RATE_MIN 0.01    /* floor of the rate estimate [expansions per µs] */
#define URGENT_CELLS 1   /* an urgent request that expands this many times its
                         ** grid's padded cells without finishing is forced */

/* Deferred edits (lds_scheduler_defer.c, docs/scheduler.md "Flapping
** cells wait"): */
#define DEFER_TICKS 12   /* a pause not undone within this many ticks ends:
                         ** its cells go to the per-cell rule */
#define DEFER_MAX 32     /* pauses per request at most; later edits are
                         ** repaired (or restart) at once */
#define DEFER_CELLS 128  /* cells one pause queues at most; one more ends it */
#define FLAP_CELLS 64    /* toggled cells a request remembers */

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
  uint64_t weight_ids[16];  /* ldsi_Layer.id of each weighted layer (weights[i] != 0) */
  uint64_t layer_removals;  /* the grid's count when weights were last matched to indices */
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
  /* edits (lds_scheduler_edits.c) */
  bool disturbed;           /* an edit disturbed its search: restart at the next step */
  bool urgent;              /* more than max_restarts restarts (and repairs that
                            ** lost work): picked first, gets the whole budget
                            ** of each tick, still within it */
  bool forced;              /* its current attempt runs to its end in one tick,
                            ** past the budget: an urgent attempt had to restart
                            ** (its search could not be repaired), or it ran
                            ** URGENT_CELLS x the grid's cells while urgent */
  bool forced_counted;      /* its forced attempt counted in lds_TickStats.forced */
  uint64_t urgent_exp;      /* expansions run since it became urgent */
  uint32_t repairs_lost;    /* repairs that made cells fresh again */
  uint32_t deferrals;       /* pauses of its search (lds_scheduler_defer.c) */
  /* watched path (lds_scheduler_watch.c): one entry per cell of the
  ** delivered path, linked into the grid's per-cell index while armed */
  struct WatchCell *watch;
  uint32_t nwatch;          /* cells of the watched path; 0 = not armed */
  uint32_t progress;        /* the agent's index on it */
  uint32_t hit_j;           /* first broken index found by the edit being
                            ** processed, NO_INDEX when none */
  uint8_t hit_reason;       /* its lds_WatchReason */
  /* mesh requests (lds_scheduler_nav.c): nav != NULL; grid is -1 */
  struct ldsi_SchedNav *nav;
  int mesh;                 /* index into sc->meshes while pending, else -1 */
  char errmsg[LDS_ERRMSG_SIZE];
} Req;

/* A watched cell: index i of request r's path, linked into the list of the
** watchers of its cell (refs r << 32 | i, WATCH_NONE at the ends). */
#define WATCH_NONE UINT64_MAX
typedef struct WatchCell {
  uint64_t prev, next;
  uint32_t cell;   /* padded index */
  float cost0;     /* the cell's cost when the path was delivered */
} WatchCell;

/* The per-cell index of a grid's watched cells: open addressing (linear
** probing, backward-shift deletion) from padded cell to the first watcher. */
typedef struct WatchSlot {
  uint32_t cell;   /* WATCH_EMPTY when free */
  uint64_t head;
} WatchSlot;
#define WATCH_EMPTY 0xFFFFFFFFu
typedef struct WatchMap {
  WatchSlot *slots;
  size_t cap, n;   /* cap: 0 or a power of two */
} WatchMap;

/* A cell whose edit a paused search waits out: its state as the search
** read it (lds_scheduler_defer.c). */
typedef struct DeferCell {
  uint32_t cell;      /* padded index */
  bool seen_blocked;  /* a wall when the search read it */
  bool known;         /* seen_cost is known (a toggle keeps the cell's cost;
                      ** a cost edit's previous cost is not heard) */
  bool off;           /* blocked state now differs from seen_blocked */
  double seen_cost;   /* its cost then, INFINITY for a wall [Units: cost] */
} DeferCell;

/* The deferral state of one search slot, for the request holding it. */
typedef struct SlotDefer {
  uint32_t flap[FLAP_CELLS]; /* cells whose toggle disturbed the request's
                             ** search and was accounted for (repaired or
                             ** restarted): a second toggle of one pauses it */
  uint32_t nflap;
  DeferCell cell[DEFER_CELLS]; /* the pause's queue; n > 0: paused */
  uint32_t n;
  uint32_t noff;             /* queued cells whose blocked state is off */
  uint64_t since;            /* sc->frame when the pause began */
} SlotDefer;

typedef struct Heap {
  uint32_t *items;   /* slot indices */
  size_t n, cap;
} Heap;

/* A search slot's hierarchy query (lds_scheduler_hier.c). */
typedef struct ldsi_SchedHier {
  lds_HpaQuery *query; /* NULL until the slot's first hierarchy request */
  const lds_Hpa *h;    /* its hierarchy */
  size_t delivered;    /* cells of the last partial path delivered */
  uint64_t frame;      /* tick of that delivery */
} ldsi_SchedHier;

typedef struct GridEntry {
  const lds_Grid *grid;
  int nsearch;
  lds_Search **search;   /* pool */
  uint32_t *owner;       /* slot owning each search, NO_INDEX when free */
  int nfree;
  lds_Search *quick;     /* for quick passes */
  Heap heap[2];          /* HEAP_MAIN: waiting for a search; HEAP_QUICK: quick pass due */
  uint8_t *shadow;       /* blocked state of each padded cell as of the last
                         ** edit heard (lds_scheduler_edits.c) */
  size_t pcells;
  bool listening;        /* its listener is registered */
  WatchMap watch;        /* lds_scheduler_watch.c */
  lds_PathCache *cache;  /* [opt] lds_scheduler_set_path_cache (lds_scheduler_cache.c) */
  ldsi_SchedHier *hier;  /* [opt] nsearch entries: hierarchy queries (lds_scheduler_hier.c) */
  SlotDefer *defer;      /* nsearch entries: deferred edits (lds_scheduler_defer.c) */
} GridEntry;

/* A mesh request's own state (lds_scheduler_nav.c): its request, the area
** costs it copied, and the path delivered (copies of the search's arrays). */
typedef struct ldsi_SchedNav {
  lds_NavRequest rq;     /* copy; rq.params.area_costs -> costs */
  double *pts;           /* [3 * npts] */
  size_t npts;
  uint32_t *corr;        /* [ncorr] */
  size_t ncorr;
  double length, cost;
  bool partial;
  size_t bytes;          /* of this block (costs included) */
  double costs[];        /* [rq.params.n_area_costs] */
} ldsi_SchedNav;

/* A mesh added with lds_scheduler_add_navmesh: its pool of searches and the
** queue of its requests waiting for one (lds_scheduler_nav.c). */
typedef struct MeshEntry {
  const lds_Navmesh *mesh;
  int nsearch;
  lds_NavSearch **search; /* pool */
  uint32_t *owner;        /* slot owning each search, NO_INDEX when free */
  int nfree;
  Heap heap;              /* waiting for a search (heap_pos[HEAP_MAIN]) */
  uint64_t rate_exp;      /* expansions of its requests' timed chunks */
  uint64_t rate_us;       /* ... and their time [µs]: the mesh's own rate */
} MeshEntry;

struct lds_Scheduler {
  ldsi_Env env;
  lds_SchedulerConfig cfg;
  Req *req;
  uint32_t nreq, cap;
  uint32_t free_head;
  GridEntry *grids;
  int ngrids, grid_cap;
  MeshEntry *meshes;  /* lds_scheduler_nav.c */
  int nmeshes, mesh_cap;
  uint64_t frame;     /* ticks done */
  uint64_t seq;
  double rate;        /* expansions per µs */
  uint64_t last_k;
  bool ticking;
  size_t pending;     /* QUEUED + ACTIVE */
  lds_TickStats totals;
  uint64_t pushes, peak_open; /* lds_scheduler_stats: summed / largest over the searches' steps */
  lds_TickStats *cur; /* the running tick's counters */
  lds_EditStats edit_stats;
  uint32_t new_deferrals; /* pauses begun since the last tick's counters */
  uint32_t *hits;     /* requests with a broken watched path to deliver */
  size_t nhits, hits_cap;
  bool firing;        /* watch events being delivered (nested edits queue theirs) */
  char errmsg[LDS_ERRMSG_SIZE];
};

/* Shared between the two files (defined in lds_scheduler.c). */

/* Sets sc's message (printf format) and returns code. */
lds_Status ldsi_sched_fail(lds_Scheduler *sc, lds_Status code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Whether slot a is served before slot b (larger key, then older). */
bool ldsi_sched_req_before(const lds_Scheduler *sc, uint32_t a, uint32_t b);
/* Pushes slot r on heap `which` (capacity reserved with ldsi_sched_heap_reserve). */
void ldsi_sched_heap_push(lds_Scheduler *sc, Heap *h, int which, uint32_t r);
/* Grows h to hold need entries; false when out of memory. */
bool ldsi_sched_heap_reserve(lds_Scheduler *sc, Heap *h, size_t need);
/* Restores heap order after slot r's key changed. */
void ldsi_sched_heap_fix(lds_Scheduler *sc, Heap *h, int which, uint32_t r);
/* Takes a free request slot (the array may grow: pointers into it go
** stale); fills it as a fresh QUEUED request of generation kept, key and
** seq set from priority. Returns the slot or NO_INDEX (out of memory). */
uint32_t ldsi_sched_slot_new(lds_Scheduler *sc, int32_t priority);
/* Removes slot r from heap `which` (HEAP_MAIN or HEAP_QUICK) of its grid. */
void ldsi_sched_heap_remove(lds_Scheduler *sc, Heap *h, int which, uint32_t r);
/* Calls slot r's completion callback with event ev (may submit: the slot
** array may move, so callers hold indices only). */
void ldsi_sched_deliver(lds_Scheduler *sc, uint32_t r, lds_RequestEvent ev);
/* Ends slot r with status st: takes the path from search s (if any),
** returns s to its pool and delivers LDS_REQUEST_DONE. */
void ldsi_sched_finish(lds_Scheduler *sc, uint32_t r, lds_Status st, lds_Search *s);
/* Keeps request r's layer weights on their layers after layer removals
** shifted the grid's indices (as a hierarchy does). false: a weighted layer
** was removed; the request's errmsg says which weight was lost and its
** flags have LDS_REQINFO_LAYER_REMOVED. */
bool ldsi_sched_weights_match(lds_Scheduler *sc, uint32_t r);
/* The same with its path given (the path cache's answer; the request owns it). */
void ldsi_sched_finish_path(lds_Scheduler *sc, uint32_t r, lds_Status st, lds_Path *path);

/* Index of grid g in sc->grids, or -1 (lds_scheduler.c). */
int ldsi_sched_find_grid(const lds_Scheduler *sc, const lds_Grid *g);
/* The handle of live slot r. */
lds_RequestId ldsi_sched_id(const lds_Scheduler *sc, uint32_t r);
/* Slot index of a live handle, or NO_INDEX. */
uint32_t ldsi_sched_slot(const lds_Scheduler *sc, lds_RequestId id);
/* Queues DONE slot r again from its start (rq.sx, rq.sy) as a new
** submission with the same handle; LDS_OK or LDS_E_NOMEM. */
lds_Status ldsi_sched_requeue(lds_Scheduler *sc, uint32_t r);

/* lds_scheduler_edits.c: the grid listener. */
/* Starts listening to grid entry gi (its blocked-state copy); LDS_OK or
** LDS_E_NOMEM. */
lds_Status ldsi_sched_edits_attach(lds_Scheduler *sc, int gi);
/* Stops listening to grid entry gi and frees what attach allocated. */
void ldsi_sched_edits_detach(lds_Scheduler *sc, int gi);

/* The per-cell rule for edited cell (x, y) of kind `kind` (an
** ldsi_EditKind) and the search on slot k of grid entry gi (its request not
** disturbed, not paused): when the edit disturbs the search, a second
** toggle of a cell pauses it (may_defer, lds_scheduler_defer.c), else it is
** repaired, or marked disturbed (restarts at its next step); a toggle so
** accounted for is remembered (lds_scheduler_edits.c). */
void ldsi_sched_edit_apply(lds_Scheduler *sc, int gi, int k, int32_t x, int32_t y, int kind,
                           bool may_defer);

/* lds_scheduler_defer.c: deferred edits of flapping cells. */
/* Clears slot k's pause; with new_request its remembered toggles too. */
void ldsi_sched_defer_reset(GridEntry *ge, int k, bool new_request);
/* Whether the request on slot k is paused (waits for its queued cells). */
bool ldsi_sched_defer_paused(const GridEntry *ge, int k);
/* Remembers padded cell p as toggled during the request on slot k. */
void ldsi_sched_defer_remember(GridEntry *ge, int k, uint32_t p);
/* A disturbing toggle of padded cell p for the (running, not paused)
** request on slot k of grid entry gi: pauses it when p was toggled before
** during the request (and its search may wait, and it has pauses left);
** true when paused (the edit is queued, not repaired). */
bool ldsi_sched_defer_begin(lds_Scheduler *sc, int gi, int k, uint32_t p);
/* An edit of padded cell p (blocked before: was) heard while slot k's
** request is paused: queued when it may disturb the search, or noted when
** the cell is queued already. */
void ldsi_sched_defer_note(lds_Scheduler *sc, int gi, int k, uint32_t p, bool was, int kind);
/* After an edit of grid entry gi: ends each pause whose cells are all back
** to the blocked state its search read (resumed), or that is older than
** DEFER_TICKS (timed out); with `all`, every grid (the tick's start, for
** grids without edits). */
void ldsi_sched_defer_settle(lds_Scheduler *sc, int gi, bool all);

/* lds_scheduler_watch.c: watched paths. */
/* Arms the watch of DONE slot r on its path (if LDS_REQ_WATCH and a path). */
void ldsi_sched_watch_arm(lds_Scheduler *sc, uint32_t r);
/* Disarms it (unlinks and frees its cells); no-op when not armed. */
void ldsi_sched_watch_disarm(lds_Scheduler *sc, uint32_t r);
/* An edit of padded cell p of grid gi (kind: LDSI_EDIT_*; blocked now or
** not): records the watched paths it breaks (sc->hits). */
void ldsi_sched_watch_cell(lds_Scheduler *sc, int gi, size_t p, int toggled);
/* The same for an edit of the whole grid: rechecks every watched path. */
void ldsi_sched_watch_all(lds_Scheduler *sc, int gi);
/* Delivers the recorded breaks (replans, callbacks); nested calls return. */
void ldsi_sched_watch_fire(lds_Scheduler *sc);
/* Frees grid entry gi's index (its requests must be disarmed first). */
void ldsi_sched_watch_free_map(lds_Scheduler *sc, int gi);

/* lds_scheduler_hier.c: hierarchy requests (lds_Request.hierarchy). */
/* Checks a request naming a hierarchy at submission (message set). */
lds_Status ldsi_sched_hier_check(lds_Scheduler *sc, const lds_Request *rq);
/* The search parameters a hierarchy request may have (none that the hierarchy
** would ignore: layer weights, edge_cost, partial); fn names the caller. */
lds_Status ldsi_sched_hier_check_params(lds_Scheduler *sc, const lds_SearchParams *p,
                                        const char *fn);
/* Starts ACTIVE slot r's hierarchy query on its search slot; LDS_OK or the
** error that ends the request (its errmsg set). */
lds_Status ldsi_sched_hier_start(lds_Scheduler *sc, uint32_t r);
/* One slice of at most max_exp expansions; the query's counters before and
** after it. */
lds_Status ldsi_sched_hier_step(lds_Scheduler *sc, uint32_t r, uint64_t max_exp, lds_Stats *before,
                                lds_Stats *after);
/* After a RUNNING slice: delivers the grown prefix as the partial path (at
** most once a tick); true when the callback cancelled or released r. */
bool ldsi_sched_hier_partial(lds_Scheduler *sc, uint32_t r);
/* Ends slot r with status st, with the query's path. */
void ldsi_sched_hier_finish(lds_Scheduler *sc, uint32_t r, lds_Status st);
/* Frees grid entry ge's hierarchy queries. */
void ldsi_sched_hier_free(lds_Scheduler *sc, GridEntry *ge);

/* lds_scheduler_nav.c: mesh requests (lds_scheduler_submit_nav). */
/* Starts QUEUED mesh request r: takes a free search of its mesh, starts
** it; LDS_OK or the error that ends the request (its errmsg set). */
lds_Status ldsi_sched_nav_begin(lds_Scheduler *sc, uint32_t r);
/* One slice of at most max_exp expansions of ACTIVE mesh request r; the
** search's counters before and after it. */
lds_Status ldsi_sched_nav_step(lds_Scheduler *sc, uint32_t r, uint64_t max_exp,
                               lds_Stats *before, lds_Stats *after);
/* The expansion rate measured on r's mesh [expansions per µs], 0 when
** too little was seen; counts a timed chunk of n expansions in dt µs. */
double ldsi_sched_nav_rate(const lds_Scheduler *sc, uint32_t r);
void ldsi_sched_nav_count(lds_Scheduler *sc, uint32_t r, uint64_t n, uint64_t dt);
/* Ends mesh request r with status st: copies its search's path, returns
** the search to its pool, delivers LDS_EVENT_DONE. */
void ldsi_sched_nav_finish(lds_Scheduler *sc, uint32_t r, lds_Status st);
/* Takes pending mesh request r out of its queue or gives back its search. */
void ldsi_sched_nav_detach(lds_Scheduler *sc, uint32_t r);
/* Frees mesh request r's state (its copied path). */
void ldsi_sched_nav_free_req(lds_Scheduler *sc, uint32_t r);
/* Frees every mesh entry (lds_scheduler_free). */
void ldsi_sched_nav_free_all(lds_Scheduler *sc);
/* Bytes of the mesh entries and the requests' mesh state. */
size_t ldsi_sched_nav_mem(const lds_Scheduler *sc);

#endif
