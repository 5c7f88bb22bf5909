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
  lds_PathCache *cache;  /* [opt] lds_scheduler_set_path_cache (lds_scheduler_cache.c) */
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

/* Shared between the two files (defined in lds_scheduler.c). */

/* Sets sc's message (printf format) and returns code. */
lds_Status ldsi_sched_fail(lds_Scheduler *sc, lds_Status code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Whether slot a is served before slot b (larger key, then older). */
bool ldsi_sched_req_before(const lds_Scheduler *sc, uint32_t a, uint32_t b);
/* Removes slot r from heap `which` (HEAP_MAIN or HEAP_QUICK) of its grid. */
void ldsi_sched_heap_remove(lds_Scheduler *sc, Heap *h, int which, uint32_t r);
/* Calls slot r's completion callback with event ev (may submit: the slot
** array may move, so callers hold indices only). */
void ldsi_sched_deliver(lds_Scheduler *sc, uint32_t r, lds_RequestEvent ev);
/* Ends slot r with status st: takes the path from search s (if any),
** returns s to its pool and delivers LDS_REQUEST_DONE. */
void ldsi_sched_finish(lds_Scheduler *sc, uint32_t r, lds_Status st, lds_Search *s);

#endif
