/* SPDX-License-Identifier: MIT */
/*
** lds_scheduler.h — per-frame budgets: a queue of path requests from many
** agents, served by a pool of sliced searches within a budget per frame.
**
**   lds_Scheduler *sc = lds_scheduler_new(NULL, NULL, &err);
**   lds_scheduler_add_grid(sc, grid, 0);                // allocates the searches
**   lds_request_init(&rq, grid, sx, sy, gx, gy);
**   rq.agent_id = 17; rq.priority = 2;
**   lds_scheduler_submit(sc, &rq, &id);                 // id: generation-checked
**   ... once a frame:
**   lds_Budget b = {0, 1000};                          // 1 ms of searching
**   lds_scheduler_step(sc, &b, &tick);
**   if (lds_scheduler_status(sc, id) == LDS_FOUND) {
**     const lds_Path *p = lds_scheduler_path(sc, id);   // or take_path
**     ...; lds_scheduler_release(sc, id);               // id is now stale
**   }
**
** Scheduling rule (docs/scheduler.md has the details):
** - Each request has an integer priority (larger first) and ages: its key is
**     key = priority * aging_frames + frames_waited
**   i.e. a request gains one priority level every `aging_frames` frames it
**   waits. Equal keys go to the older submission. Because the key of every
**   waiting request grows at the same rate, the order is fixed at submission
**   (priority * aging_frames - submit_frame), so the queue is a heap.
**   A request of priority p never waits behind newer requests once
**   frames_waited >= (p_max - p) * aging_frames, where p_max is the largest
**   priority submitted: no request starves.
** - A tick repeatedly runs the request with the largest key among those that
**   hold a search and the queue heads of the grids that have a free search,
**   until the budget is spent. Requests keep their search across frames.
** - Budget: in the default (timed) mode the budget is microseconds, read from
**   the environment clock every K expansions, with K adapted to the measured
**   expansion rate (about check_us of work between reads, never more than
**   half of what is left of the budget), so the overshoot stays within one
**   small chunk. In deterministic mode the budget is counted in expansions
**   (budget_us * expansions_per_us), the clock never decides anything, and the
**   same inputs give the same frames bit for bit.
** - Edits: the scheduler listens to its grids. An edit that changes no
**   move a search in progress has used leaves it alone (it goes on with the
**   edited grid); one that does "disturbs" it: it is repaired when the
**   edit only made moves cheaper (A*, Dijkstra), else it restarts from
**   scratch at its next step. A toggle of a cell toggled before during the
**   request (a door) pauses it instead: its search is not stepped until
**   the cell is back as the search read it (nothing lost), or 12 ticks
**   have passed (then the waiting cells are repaired); at most 32 pauses a
**   request (docs/scheduler.md "Flapping cells wait"). After more than
**   max_restarts restarts (and
**   repairs that lost work) a request is urgent: it runs before the others,
**   sliced within the budget like any request; only an urgent attempt that
**   has to start over again (its search cannot be repaired), or one that has
**   expanded more than its grid's cells while urgent, runs to its end in one
**   go, past the budget, so a request never fails because the grid keeps
**   changing. A path is always optimal for the
**   grid as it was when the path was delivered.
** - Watched paths (LDS_REQ_WATCH): after delivery, an edit that blocks a
**   remaining cell, makes a move into one illegal, or raises its cost past
**   watch_cost_ratio fires on_broken once and/or replans the request from
**   the agent's cell (lds_scheduler_path_progress).
** - Layer weights: a request with layer weights runs on the grid's cost
**   view of its weights (lds_cost_view.h). A view that is not ready (new, or
**   being rescanned after an edit) is built by the tick in slices within the
**   budget (at most 2048 cells between clock reads; in deterministic mode
**   LDS_COST_VIEW_CELLS_PER_EXPANSION cells count as one expansion); the
**   request waits in its queue meanwhile (its frames count) and starts, in
**   O(1), once the view is ready. Quick passes skip a request whose view is
**   not ready (the main pass builds it).
** - Mesh requests (lds_NavRequest, lds_scheduler_submit_nav): paths on a
**   navigation mesh added with lds_scheduler_add_navmesh, in the same key
**   order and budget, sliced through lds_navsearch_step (one polygon or
**   Polyanya node = one expansion); a mesh never changes, so they never
**   restart (docs/scheduler.md "Mesh requests").
** - Errors are per request: a request whose search fails (an unavailable
**   algorithm, a bad layer weight...) ends with that error and its message;
**   the other requests are not affected.
**
** The scheduler allocates when grids are added (the searches) and when a
** request is submitted (its slot, if the reserve is full); a tick allocates
** only the delivered paths.
*/
#ifndef LDS_SCHEDULER_H
#define LDS_SCHEDULER_H

#include "lds_common.h"
#include "lds_grid.h"
#include "lds_path.h"
#include "lds_search.h"
#include "lds_path_cache.h"
#include "lds_hpa.h"
#include "lds_navmesh_search.h"

LDS_BEGIN_DECLS

typedef struct lds_Scheduler lds_Scheduler;

/// Handle of a request: slot index (low 32 bits) and generation (the 20
/// bits above). 0 is never a valid handle, and handles are < 2^52, so they
/// survive a trip through a Lua number on LuaJIT. A handle goes stale when
/// its request is released or cancelled; using a stale handle is LDS_E_ARG,
/// never a crash. A slot's generation wraps after 2^20 - 1 reuses.
typedef uint64_t lds_RequestId;

/// Flags of a request (lds_Request.flags).
enum {
  /// release the request right after its completion callback returns (the
  /// callback may take the path with lds_scheduler_take_path)
  LDS_REQ_AUTO_RELEASE = 1u,
  /// watch the delivered path: an edit that breaks its remaining part
  /// fires lds_Request.on_broken and/or replans (lds_Request.watch_policy,
  /// docs/scheduler.md "Watched paths"). Not with LDS_REQ_AUTO_RELEASE
  /// (the request must live on to be watched).
  LDS_REQ_WATCH = 2u
};

/// Why a watched path broke (lds_WatchCallback's reason).
typedef enum lds_WatchReason {
  LDS_WATCH_BLOCKED = 1, ///< the cell was blocked
  LDS_WATCH_COST = 2,    ///< the cell's cost rose above watch_cost_ratio x
                         ///< its cost when the path was delivered
  LDS_WATCH_MOVE = 3     ///< the move into the cell became illegal (a
                         ///< neighbour blocked under the corner-cutting rule)
} lds_WatchReason;

/// What a broken watched path does (lds_Request.watch_policy bits).
enum {
  LDS_WATCH_NOTIFY = 1u, ///< call lds_Request.on_broken
  LDS_WATCH_REPLAN = 2u  ///< queue the request again from the agent's
                         ///< current cell (docs/scheduler.md)
};

/// Flags of a request's state (lds_RequestInfo.flags).
enum {
  LDS_REQINFO_STARTED = 1u, ///< its search has started at least once
  LDS_REQINFO_PARTIAL = 2u, ///< a quick partial path is available
  LDS_REQINFO_DONE = 4u,    ///< finished: status is final
  LDS_REQINFO_URGENT = 8u,  ///< more than max_restarts restarts and work-losing
                            ///< repairs: picked before the others, still
                            ///< within the budget (docs/scheduler.md)
  LDS_REQINFO_FORCED = 16u, ///< an attempt ran (or runs) to its end past the budget
  LDS_REQINFO_PAUSED = 32u, ///< paused now: its search waits for a flapping
                            ///< cell's edit to be undone (docs/scheduler.md)
  LDS_REQINFO_LAYER_REMOVED = 64u ///< ended with LDS_E_STATE because a layer
                                  ///< its params.layer_weights weight (non-zero)
                                  ///< was removed from the grid after it was
                                  ///< submitted (lds_scheduler_request_errmsg
                                  ///< names the weight's index); a hierarchy
                                  ///< request's weights are the hierarchy's,
                                  ///< reported by its own error instead
};

/// What happens in a completion callback.
typedef enum lds_RequestEvent {
  LDS_EVENT_DONE = 0,   ///< the request finished (status final)
  LDS_EVENT_PARTIAL = 1 ///< its quick partial path is ready (status running)
} lds_RequestEvent;

/// Snapshot of a request (value struct).
typedef struct lds_RequestInfo {
  lds_Status status;       ///< LDS_RUNNING while queued or searching, then
                           ///< LDS_FOUND, LDS_NO_PATH or the error that ended it
  uint32_t flags;          ///< LDS_REQINFO_* bits
  int64_t agent_id;        ///< as submitted
  int32_t priority;        ///< current base priority
  uint32_t frames;         ///< ticks during which it was pending, the tick
                           ///< that finished it included [Units: frames]
  uint32_t restarts;       ///< restarts after grid changes
  uint64_t expansions;     ///< expansions spent on it, restarts and quick
                           ///< pass included
  lds_Stats stats;         ///< counters of its last search (elapsed_us is
                           ///< the time measured by the scheduler, 0 in
                           ///< deterministic mode)
  double cost;             ///< path cost [Units: cost]; -1 without a path
  size_t path_length;      ///< cells of the path (0 without one); for a
                           ///< mesh request, points of its path
  uint32_t deferrals;      ///< pauses of its search: edits of a flapping cell
                           ///< it waited out instead of repairing (docs/scheduler.md)
} lds_RequestInfo;

/// Completion callback, called from inside lds_scheduler_step (or from
/// lds_scheduler_remove_grid). It may call lds_scheduler_path/take_path/
/// info/release on `id`, submit new requests and cancel others; it must not
/// tick the scheduler or free it. A negative return is counted in
/// lds_TickStats.callback_errors and logged (level 0); it does not stop the
/// tick.
typedef lds_Status (*lds_RequestCallback)(void *ud, lds_Scheduler *sc, lds_RequestId id,
                                          lds_RequestEvent ev, const lds_RequestInfo *info);

/// Watched-path callback, called from inside the grid edit that broke the
/// path (lds_grid_set_blocked, _set_cost, ...), after the replan when the
/// policy has LDS_WATCH_REPLAN. (x, y) is the first broken cell of the
/// path's remaining part [Units: cells]. It may do what a completion
/// callback may (path, info, progress, release, submit, cancel); it may
/// edit grids too (the events of those edits are delivered after it
/// returns). Like a completion callback it must not tick, remove a grid
/// (both LDS_E_STATE) or free the scheduler. A negative return is logged
/// (level 0).
typedef lds_Status (*lds_WatchCallback)(void *ud, lds_Scheduler *sc, lds_RequestId id,
                                        int32_t x, int32_t y, lds_WatchReason reason);

/// One path request. Fill with lds_request_init, then change.
typedef struct lds_Request {
  const lds_Grid *grid;       ///< a grid added with lds_scheduler_add_grid
  int32_t sx, sy, gx, gy;     ///< start and goal [Units: cells]
  lds_SearchParams params;    ///< algorithm and options; layer_weights is
                              ///< copied (<= 16), edge_ud must stay valid
                              ///< until the request ends
  int64_t agent_id;           ///< [opt] the caller's tag, reported back
  int32_t priority;           ///< larger runs first; default 0
                              ///< [Limit: -1000000..1000000]
  uint32_t flags;             ///< LDS_REQ_* bits
  uint64_t quick_expansions;  ///< [opt] when > 0, first run a quick search
                              ///< capped at this many expansions and deliver
                              ///< its best-so-far path (LDS_EVENT_PARTIAL), then
                              ///< the full path. 0 = no quick path.
  lds_RequestCallback on_done;///< [opt] completion callback
  void *ud;                   ///< passed to on_done and on_broken
  /* watched paths (flags & LDS_REQ_WATCH; docs/scheduler.md) */
  uint32_t watch_policy;      ///< LDS_WATCH_NOTIFY and/or LDS_WATCH_REPLAN;
                              ///< 0 with LDS_REQ_WATCH = LDS_WATCH_NOTIFY
  double watch_cost_ratio;    ///< a remaining cell whose cost rises above
                              ///< ratio x its cost at delivery breaks the
                              ///< path; 0 = cost changes never do
                              ///< [Limit: 0, or finite >= 1] default 0
  lds_WatchCallback on_broken;///< [opt] watched-path callback (NOTIFY)
  /* hierarchy requests (docs/scheduler.md "Hierarchy requests") */
  lds_Hpa *hierarchy;         ///< [opt] answer through this hierarchy of the
                              ///< request's grid (lds_hpa.h) instead of
                              ///< params.algo: sliced like a search, its refined
                              ///< prefix delivered as the partial path
                              ///< (LDS_EVENT_PARTIAL) as it grows, restarted by
                              ///< every edit of the grid. params' layer weights,
                              ///< edge_cost and quick_expansions must be unset
                              ///< (the hierarchy's weight set applies). The
                              ///< hierarchy must outlive the scheduler or be
                              ///< dropped first (lds_scheduler_drop_hierarchy).
  int hierarchy_mode;         ///< lds_HpaMode: LDS_HPA_FAST (default) or LDS_HPA_OPTIMAL
} lds_Request;

/// Fills *rq with defaults: params from lds_search_params_init, priority 0,
/// no flags, no quick path, no callback.
LDS_API void lds_request_init(lds_Request *rq, const lds_Grid *grid, int32_t sx, int32_t sy,
                              int32_t gx, int32_t gy);

/// Settings of a scheduler. Fill with lds_scheduler_config_init.
typedef struct lds_SchedulerConfig {
  int searches_per_grid;      ///< searches kept per grid = requests that can
                              ///< be in progress at once [Limit: 1..64] default 2
  uint32_t aging_frames;      ///< frames of waiting worth one priority level
                              ///< [Limit: >= 1] default 60
  uint32_t max_restarts;      ///< restarts (and repairs that lost work) after
                              ///< which a request is urgent: picked first,
                              ///< sliced within the budget; an urgent attempt
                              ///< that must start over again runs to its end
                              ///< past the budget (never LDS_E_STALE); default 8
  bool deterministic;         ///< count the budget in expansions; default false
  uint32_t expansions_per_us; ///< deterministic mode: budget_us is worth this
                              ///< many expansions [Limit: >= 1] default 4
  uint32_t check_us;          ///< timed mode: target work between two clock
                              ///< reads [Units: µs]; 0 = budget/16, at least 8
  double initial_rate;        ///< first guess of the expansion rate
                              ///< [Units: expansions per µs] default 4
  double quick_share;         ///< share of a tick's budget that quick passes
                              ///< may use [Limit: 0..1] default 0.25
  uint32_t initial_capacity;  ///< request slots reserved at creation; default 64
} lds_SchedulerConfig;

/// Fills *cfg with the defaults listed in lds_SchedulerConfig.
LDS_API void lds_scheduler_config_init(lds_SchedulerConfig *cfg);

/// Counters of one tick (lds_scheduler_step's output) or, from
/// lds_scheduler_totals, of all ticks: the scheduler's extras beside the
/// common lds_Stats of lds_scheduler_stats (expansions and elapsed_us are
/// the same numbers there).
typedef struct lds_TickStats {
  uint64_t expansions;       ///< expansions done
  uint64_t elapsed_us;       ///< time inside the tick [Units: µs] (measured
                             ///< in both modes; decides nothing in deterministic mode)
  uint64_t budget_us;        ///< budget given [Units: µs]
  uint64_t budget_expansions;///< deterministic mode: budget in expansions
  uint32_t started;          ///< searches started (restarts included)
  uint32_t finished;         ///< requests that reached a final status
  uint32_t found;            ///< ... of which with a path
  uint32_t restarted;        ///< restarts after grid changes
  uint32_t partial_paths;    ///< quick partial paths delivered
  uint32_t failed;           ///< requests that ended with an error
  uint32_t callback_errors;  ///< callbacks that returned an error
  uint32_t clock_reads;      ///< clock reads that decided when to stop
  uint32_t queued;           ///< after the tick: requests waiting
  uint32_t active;           ///< after the tick: requests holding a search
  uint64_t chunk_expansions; ///< K of the last chunk (timed mode)
  double rate;               ///< expansion rate estimate after the tick
                             ///< [Units: expansions per µs]
  uint64_t frame;            ///< index of this tick (0-based)
  uint64_t view_cells;       ///< cost-view cells built or rescanned for
                             ///< layer-weighted requests [Units: cells]
                             ///< (lds_cost_view.h; counted against the budget)
  uint32_t forced;           ///< requests run to their end past the budget:
                             ///< an urgent attempt that had to start over, or
                             ///< one that expanded more than its grid's cells
                             ///< while urgent (docs/scheduler.md)
  uint32_t paused;           ///< after the tick: requests paused (holding a
                             ///< search, not stepped: they wait for a flapping
                             ///< cell's edit to be undone)
  uint32_t deferrals;        ///< pauses begun since the previous tick (by the
                             ///< edits between the two ticks and in this one)
} lds_TickStats;

/// What grid edits did to the scheduler's requests (lds_scheduler_edit_stats),
/// counted since the scheduler was created.
typedef struct lds_EditStats {
  uint64_t edits;       ///< grid edits heard (one per listener call)
  uint64_t disturbed;   ///< searches in progress an edit disturbed (each
                        ///< restarts at its next step)
  uint64_t kept;        ///< searches in progress that an edit left alone (or
                        ///< that were repaired) and went on with the edited grid
  uint64_t repaired;    ///< edited cells after which a disturbed search was
                        ///< repaired instead of restarted (cheaper moves only)
  uint64_t watch_events;///< watched paths that broke
  uint64_t replans;     ///< ... of which queued again (LDS_WATCH_REPLAN)
  uint64_t watched;     ///< watched paths now (armed)
  uint64_t watched_cells;///< cells in the watch index now
  uint64_t deferred;    ///< pauses begun: a second toggle of a cell that
                        ///< disturbed a search was queued, not repaired
  uint64_t resumed;     ///< pauses that ended with every queued cell's
                        ///< blocked state back to what the search read
  uint64_t defer_timeouts;///< pauses that ended unresolved (DEFER_TICKS
                        ///< ticks, or too many cells): their cells went to
                        ///< the per-cell rule
} lds_EditStats;

/* ---------------------------------------------------------- lifetime -- */

/// Creates a scheduler.
/// @param[in] env  [opt] allocator, clock (read in timed mode) and log
/// @param[in] cfg  [opt] settings; NULL for the defaults
/// @param[out] err [opt]
/// @returns the scheduler, or NULL with LDS_E_ARG (a setting out of range,
/// named in the message) or LDS_E_NOMEM.
/// [Owner: caller frees with lds_scheduler_free]
LDS_API lds_Scheduler *lds_scheduler_new(const lds_Env *env, const lds_SchedulerConfig *cfg,
                                         lds_Error *err);
/// Frees the scheduler, its searches, and every request and path it still
/// holds (no callbacks are called). NULL is ignored. Grids are not freed.
LDS_API void lds_scheduler_free(lds_Scheduler *sc);

/// Registers a grid and allocates its searches (the only large allocation).
/// The grid must outlive the scheduler or be removed first.
/// @param[in] n_searches searches for this grid; 0 = cfg.searches_per_grid
///   [Limit: 0..64]
/// @returns LDS_OK; LDS_E_ARG (NULL grid, already added, n_searches out of
/// range); LDS_E_NOMEM or LDS_E_LIMIT (from lds_search_new; nothing is kept).
LDS_API lds_Status lds_scheduler_add_grid(lds_Scheduler *sc, const lds_Grid *grid,
                                          int n_searches);
/// Unregisters a grid: its pending requests end with LDS_E_STATE ("grid
/// removed"; callbacks are called), its searches are freed.
/// @returns LDS_OK or LDS_E_ARG (grid not added).
LDS_API lds_Status lds_scheduler_remove_grid(lds_Scheduler *sc, const lds_Grid *grid);
/// Gives a registered grid a path cache (lds_path_cache.h) of at most
/// max_entries trees (one per goal and layer weights), or removes it
/// (max_entries 0). A queued request the cache accepts
/// (lds_path_cache_accepts: an optimal algorithm, no edge callback, no
/// partial path...) is answered from it when it leaves the queue, without
/// a search: at once when the goal's tree already settled its start (a
/// hit), else after growing that tree within the tick's budget (its
/// expansions are the request's, counted like a search's; the request
/// stays queued while the tree grows). Its path is optimal for the grid as
/// it is, possibly another one of equal cost than the search's. Counters:
/// lds_scheduler_path_cache + lds_path_cache_stats; memory is counted in
/// lds_scheduler_mem_used.
/// @returns LDS_OK; LDS_E_ARG (grid not added, max_entries > 1024, or the
///   grid too large for a cache: message in lds_scheduler_errmsg);
///   LDS_E_STATE (inside a callback); LDS_E_NOMEM.
LDS_API lds_Status lds_scheduler_set_path_cache(lds_Scheduler *sc, const lds_Grid *grid,
                                                uint32_t max_entries);
/// The path cache of a registered grid, NULL without one.
/// [Owner: the scheduler; valid until removed or the grid is removed]
LDS_API const lds_PathCache *lds_scheduler_path_cache(const lds_Scheduler *sc,
                                                      const lds_Grid *grid);
/// Forgets hierarchy h: frees the hierarchy queries the scheduler keeps for
/// it (one per search slot that served it); finished requests that named
/// it replan, if watched, with params.algo. Call it before lds_hpa_free(h)
/// when the scheduler lives on.
/// @returns LDS_OK; LDS_E_ARG (NULL); LDS_E_STATE (inside a callback, or a
///   queued or running request still names h: message in
///   lds_scheduler_errmsg).
LDS_API lds_Status lds_scheduler_drop_hierarchy(lds_Scheduler *sc, const lds_Hpa *h);
/// Bytes allocated by the scheduler and its searches.
LDS_API size_t lds_scheduler_mem_used(const lds_Scheduler *sc);
/// Last error message ("" if none). [Owner: the scheduler]
LDS_API const char *lds_scheduler_errmsg(const lds_Scheduler *sc);

/* ---------------------------------------------------------- requests -- */

/// Queues a request. Checks the grid (must be added), the coordinates and
/// the priority now; algorithm-specific problems (e.g. an algorithm not in
/// this build) end the request with an error when its search starts.
/// @param[out] id the handle
/// @returns LDS_OK; LDS_E_ARG (message in lds_scheduler_errmsg);
/// LDS_E_NOMEM (slot array could not grow).
LDS_API lds_Status lds_scheduler_submit(lds_Scheduler *sc, const lds_Request *rq,
                                        lds_RequestId *id);
/// Cancels a request: it leaves the queue (or frees its search), its path is
/// freed, no callback is called, and the handle goes stale.
/// @returns LDS_OK or LDS_E_ARG (stale handle).
LDS_API lds_Status lds_scheduler_cancel(lds_Scheduler *sc, lds_RequestId id);
/// Changes the base priority of a pending request (its waiting time is kept).
/// @returns LDS_OK, LDS_E_ARG (stale handle, priority out of range) or
/// LDS_E_STATE (already finished).
LDS_API lds_Status lds_scheduler_set_priority(lds_Scheduler *sc, lds_RequestId id,
                                              int32_t priority);
/// Replaces the search parameters of a pending request, keeping its handle,
/// its place in the queue and its waiting time (a mod host calls it when a
/// profile or a layer the request weights changed). A queued request starts
/// with the new parameters; a request whose search is in progress restarts
/// it with them at its next step (not counted in lds_RequestInfo.restarts).
/// layer_weights is copied (<= 16); edge_ud must stay valid until the
/// request ends. Start, goal, priority and callback are unchanged.
/// @returns LDS_OK; LDS_E_ARG (stale handle, NULL params, more than 16
/// layer weights); LDS_E_STATE (already finished).
LDS_API lds_Status lds_scheduler_set_params(lds_Scheduler *sc, lds_RequestId id,
                                            const lds_SearchParams *params);
/// Frees a finished (or pending: same as cancel) request; the handle goes
/// stale. @returns LDS_OK or LDS_E_ARG (stale handle).
LDS_API lds_Status lds_scheduler_release(lds_Scheduler *sc, lds_RequestId id);

/* ----------------------------------------------------------- results -- */

/// Status of a request: LDS_RUNNING (queued or searching), LDS_FOUND,
/// LDS_NO_PATH, the error that ended it, or LDS_E_ARG for a stale handle.
LDS_API lds_Status lds_scheduler_status(const lds_Scheduler *sc, lds_RequestId id);
/// Fills *out. @returns LDS_OK or LDS_E_ARG (stale handle).
LDS_API lds_Status lds_scheduler_info(const lds_Scheduler *sc, lds_RequestId id,
                                      lds_RequestInfo *out);
/// The path of a finished request (FOUND; or the flagged partial path when
/// params.partial was set and the status is NO_PATH; NULL after NO_PATH
/// without `partial` or an error). While the request is still running: its
/// quick partial path if one was delivered, else NULL.
/// [Owner: the scheduler; valid until the request is released or the path
/// taken]
LDS_API const lds_Path *lds_scheduler_path(const lds_Scheduler *sc, lds_RequestId id);
/// Same, but hands the path over. NULL if none (or a stale handle).
/// [Owner: caller frees with lds_path_free]
LDS_API lds_Path *lds_scheduler_take_path(lds_Scheduler *sc, lds_RequestId id);
/// Error message of a request that ended with an error ("" otherwise, or
/// for a stale handle). [Owner: the scheduler; valid until release]
LDS_API const char *lds_scheduler_request_errmsg(const lds_Scheduler *sc, lds_RequestId id);

/* ------------------------------------------------------ mesh requests -- */
/* Path requests on navigation meshes (lds_navmesh_search.h), sliced by the
** same ticks as grid requests (docs/scheduler.md "Mesh requests"). */

/// One path request on a navigation mesh. Fill with lds_nav_request_init,
/// then change.
typedef struct lds_NavRequest {
  const lds_Navmesh *mesh;    ///< a mesh added with lds_scheduler_add_navmesh
  double start[3], goal[3];   ///< x y z [Units: world units] [Limit: finite];
                              ///< located on the mesh when the search starts
                              ///< (params.snap_radius, params.height_tol)
  lds_NavParams params;       ///< algo (LDS_NAV_FUNNEL or LDS_NAV_OPTIMAL), the
                              ///< agent class's area_costs (+INFINITY blocks an
                              ///< area; copied at submission, <= 256),
                              ///< snap_radius, height_tol, partial, thorough
  int64_t agent_id;           ///< [opt] the caller's tag, reported back
  int32_t priority;           ///< larger runs first; default 0
                              ///< [Limit: -1000000..1000000]
  uint32_t flags;             ///< LDS_REQ_AUTO_RELEASE or 0 (a mesh path is not
                              ///< watched: the mesh never changes)
  lds_RequestCallback on_done;///< [opt] completion callback (LDS_EVENT_DONE only)
  void *ud;                   ///< passed to on_done
} lds_NavRequest;

/// Fills *rq with defaults: mesh, start and goal [Shape: 3 doubles each]
/// [Units: world units] (NULL leaves 0, 0, 0), params from
/// lds_nav_params_init, priority 0, no flags, no callback.
LDS_API void lds_nav_request_init(lds_NavRequest *rq, const lds_Navmesh *mesh,
                                  const double start[3], const double goal[3]);

/// A delivered mesh path, read with lds_scheduler_nav_path (value struct
/// of borrowed arrays). The values are those lds_navsearch_points, _length,
/// _cost, _corridor and _is_partial give for the same query, bit for bit.
typedef struct lds_NavPath {
  const double *points;       ///< x y z per point, start and goal included
                              ///< [Shape: 3 * n_points] [Units: world units]
  size_t n_points;
  double length;              ///< 3-D length [Units: world units]
  double cost;                ///< area-weighted length [Units: cost]
  const uint32_t *corridor;   ///< polygons crossed, in order (funnel; empty for
                              ///< optimal) [Shape: n_corridor]
  size_t n_corridor;
  bool partial;               ///< the path ends at the partial target, the reachable
                              ///< point nearest the goal (params.partial, status
                              ///< LDS_NO_PATH; docs/navmesh.md "Partial paths")
  lds_NavAlgo algo;           ///< the algorithm that found it
} lds_NavPath;

/// Registers a mesh and allocates its searches (lds_navsearch_new, each
/// warmed with one query so that no tick builds their tables). The mesh
/// must outlive the scheduler or be removed first. A mesh is immutable, so
/// its requests never restart and never go stale.
/// @param[in] n_searches searches for this mesh = its requests in progress
///   at once; 0 = cfg.searches_per_grid [Limit: 0..64]
/// @returns LDS_OK; LDS_E_ARG (NULL mesh, already added, n_searches out of
///   range); LDS_E_STATE (inside a callback); LDS_E_NOMEM (nothing is
///   kept). Messages in lds_scheduler_errmsg.
LDS_API lds_Status lds_scheduler_add_navmesh(lds_Scheduler *sc, const lds_Navmesh *mesh,
                                             int n_searches);
/// Unregisters a mesh: its pending requests end with LDS_E_STATE ("mesh
/// removed"; callbacks are called), its searches are freed. Its finished
/// requests keep their paths (copies).
/// @returns LDS_OK; LDS_E_ARG (mesh not added); LDS_E_STATE (inside a callback).
LDS_API lds_Status lds_scheduler_remove_navmesh(lds_Scheduler *sc, const lds_Navmesh *mesh);
/// Queues a mesh request. Checks now: the mesh (must be added), finite
/// start and goal, the priority, flags, params.algo, area_costs (<= 256,
/// each > 0 or +INFINITY), snap_radius (finite, >= 0) and height_tol (not
/// NaN). A start or goal not on the mesh (no polygon within snap_radius)
/// ends the request in the tick that starts it with LDS_E_ARG and a
/// message naming it (lds_scheduler_request_errmsg); the tick goes on.
/// The handle is used with every request call (status, info, cancel,
/// release, set_priority, request_errmsg); the path is read with
/// lds_scheduler_nav_path (lds_scheduler_path gives NULL for it).
/// @returns LDS_OK; LDS_E_ARG (message in lds_scheduler_errmsg, naming the
///   field); LDS_E_NOMEM.
LDS_API lds_Status lds_scheduler_submit_nav(lds_Scheduler *sc, const lds_NavRequest *rq,
                                            lds_RequestId *id);
/// The path of a finished mesh request: LDS_FOUND, or LDS_NO_PATH with
/// params.partial and a reached point (out->partial set).
/// [Owner: the scheduler; out's arrays valid until the request is released]
/// @returns LDS_OK (out filled); LDS_E_STATE (no path: running, no path,
///   or an error; out zeroed); LDS_E_ARG (stale handle, or a grid request;
///   out zeroed).
LDS_API lds_Status lds_scheduler_nav_path(const lds_Scheduler *sc, lds_RequestId id,
                                          lds_NavPath *out);
/// The best path so far of a mesh request, for an agent that starts
/// walking before the request is done (grid requests' quick partial path):
/// while its search runs, lds_navsearch_partial_points of that search (the
/// path to the point of the polygons reached so far nearest the goal;
/// docs/navmesh.md "Partial paths"), out->partial false only when it ends
/// at the goal, out->cost NaN and no corridor (the final path has them);
/// once finished, what lds_scheduler_nav_path gives. Computed on each
/// call (O(mesh polygons + the path)); no event is delivered for it.
/// [Owner: the scheduler; while running, out->points is valid until the
/// next tick or call on the scheduler, else until the request is released]
/// @returns LDS_OK (out filled); LDS_E_STATE (queued and not started, no
///   path, a blocked start, or an error; out zeroed); LDS_E_ARG (stale
///   handle, or a grid request).
LDS_API lds_Status lds_scheduler_nav_partial_path(lds_Scheduler *sc, lds_RequestId id,
                                                  lds_NavPath *out);

/* ----------------------------------------------------------- slicing -- */

/// Runs one frame (tick) of searching within a budget: budget->max_expansions
/// and/or budget->budget_us (the first one reached ends the tick; both 0, or
/// a NULL budget, = no limit: every pending request runs to its end).
/// max_expansions is exact in both modes; in deterministic mode budget_us is
/// converted to expansions with expansions_per_us (the smaller of the two
/// limits applies). Delivers finished requests (callbacks) as they finish.
/// A tick reports per-frame results, so, unlike lds_search_step and
/// lds_dstar_step, it has a third argument for the counters of this tick;
/// lds_scheduler_stats gives the common lds_Stats over all ticks.
/// @param[in] budget [opt] limits of this tick; NULL = no limit
/// @param[out] out [opt] counters of this tick
/// @returns LDS_OK, or LDS_E_STATE (message in lds_scheduler_errmsg;
///   nothing runs, the frame does not advance, out is not written) when
///   called from inside a callback. Request failures are per request, never
///   returned here.
LDS_API lds_Status lds_scheduler_step(lds_Scheduler *sc, const lds_Budget *budget,
                                      lds_TickStats *out);
/// Deprecated: use lds_scheduler_step(sc, &(lds_Budget){0, budget_us}, out)
/// (one frame within budget_us microseconds; 0 = no limit). [Units: µs]
LDS_API lds_Status lds_scheduler_tick(lds_Scheduler *sc, uint64_t budget_us, lds_TickStats *out);
/// Deprecated: use lds_scheduler_step (same signature and meaning).
LDS_API lds_Status lds_scheduler_tick_budget(lds_Scheduler *sc, const lds_Budget *budget,
                                             lds_TickStats *out);
/// Common counters over every tick so far: expansions and elapsed_us as in
/// lds_scheduler_totals, pushes summed and peak_open the largest open list
/// over every search step the scheduler ran (quick passes included).
/// @param[out] out filled. @returns nothing.
LDS_API void lds_scheduler_stats(const lds_Scheduler *sc, lds_Stats *out);
/// Counters summed over every tick so far (queued/active/rate/frame/chunk
/// are the current values).
LDS_API void lds_scheduler_totals(const lds_Scheduler *sc, lds_TickStats *out);
/// Number of requests waiting and holding a search.
LDS_API size_t lds_scheduler_pending(const lds_Scheduler *sc);
/// Fills *out with the edit counters (lds_EditStats).
LDS_API void lds_scheduler_edit_stats(const lds_Scheduler *sc, lds_EditStats *out);

/* ---------------------------------------------------- watched paths -- */

/// The walker's progress on the delivered path of a watched request: the
/// agent stands on cell `index` of the path (0 = its first cell). Cells
/// up to index leave the watch (an edit there no longer breaks the path);
/// the last index ends the watch. Progress never goes back: an index
/// below the current one changes nothing. O(cells left behind).
/// @returns LDS_OK; LDS_E_ARG (stale handle, index >= path length);
/// LDS_E_STATE (the request has no watched path: not LDS_REQ_WATCH, not
/// finished with a path, already broken or finished).
LDS_API lds_Status lds_scheduler_path_progress(lds_Scheduler *sc, lds_RequestId id, size_t index);
/// Same by cell: the agent stands on (x, y) [Units: cells], the first
/// occurrence of that cell at or after the current progress. O(path).
/// @returns as lds_scheduler_path_progress; LDS_E_ARG also when (x, y) is
/// not on the remaining path.
LDS_API lds_Status lds_scheduler_path_progress_cell(lds_Scheduler *sc, lds_RequestId id,
                                                    int32_t x, int32_t y);
/// Whether request id has a watched path now (delivered, not broken, not
/// walked to its end). Stale handles give false.
LDS_API bool lds_scheduler_watched(const lds_Scheduler *sc, lds_RequestId id);
/// Ticks run so far. [Units: frames]
LDS_API uint64_t lds_scheduler_frame(const lds_Scheduler *sc);

LDS_END_DECLS

#endif /* LDS_SCHEDULER_H */
