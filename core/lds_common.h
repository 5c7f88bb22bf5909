/* SPDX-License-Identifier: MIT */
/*
** lds_common.h — status codes, error reports, the allocator and the
** environment (allocator + clock + log) that every lodestar constructor takes.
*/
#ifndef LDS_COMMON_H
#define LDS_COMMON_H

#include "lds_config.h"

LDS_BEGIN_DECLS

/* ------------------------------------------------------------ status -- */

/// One status enum for the whole library. Zero is success, positive values
/// are search outcomes (not failures), negative values are errors: test
/// errors with `s < 0`. lds_status_name() gives the stable lowercase name the
/// Lua binding uses too ("no_path", "stale", ...).
typedef enum lds_Status {
  LDS_OK = 0,
  LDS_RUNNING = 1,   ///< sliced query: budget spent, call step again
  LDS_FOUND = 2,     ///< a path to the goal was found
  LDS_NO_PATH = 3,   ///< the goal cannot be reached (not an error)
  LDS_E_ARG = -1,    ///< bad argument (out of range, NULL, NaN...)
  LDS_E_NOMEM = -2,  ///< the allocator refused
  LDS_E_LIMIT = -3,  ///< a fixed limit was hit (node pool, output buffer)
  LDS_E_STATE = -4,  ///< misuse: wrong call for the object's state
  LDS_E_STALE = -5,  ///< the grid/graph changed under a running query
  LDS_E_IO = -6,     ///< a file could not be opened or read
  LDS_E_FORMAT = -7, ///< a file or text is malformed
  LDS_E_CALLBACK = -8 ///< a user callback failed or returned a bad value
} lds_Status;

/// Stable lowercase name of a status: "ok", "running", "found", "no_path",
/// "arg", "nomem", "limit", "state", "stale", "io", "format", "callback";
/// "unknown" for any other value. [Owner: static storage, never free]
LDS_API const char *lds_status_name(lds_Status s);

/* ------------------------------------------------------------- error -- */

#define LDS_ERRMSG_SIZE 256

/// Error report filled by constructors and loaders that can fail before an
/// object exists. Caller-owned (put it on the stack); the message is inline so
/// even an out-of-memory failure can be reported without allocating.
/// Message shape: "function: what is wrong (value; expected ...)", parsers
/// prefix "file:line: ".
typedef struct lds_Error {
  lds_Status code;              ///< LDS_OK when nothing failed
  char msg[LDS_ERRMSG_SIZE];    ///< NUL-terminated, "" when code == LDS_OK
} lds_Error;

/* --------------------------------------------------------- allocator -- */

/// Allocator with the shape of lua_Alloc: allocate (ptr == NULL), resize or,
/// when nsize == 0, free ptr and return NULL. osize is always the size of
/// the block being resized or freed (0 for a new block).
typedef void *(*lds_Alloc)(void *ud, void *ptr, size_t osize, size_t nsize);

/// Monotonic clock in microseconds. [Units: µs]
typedef uint64_t (*lds_Clock)(void *ud);

/// Log sink: level 0 = error, 1 = warning, 2 = info, 3 = debug.
typedef void (*lds_Log)(void *ud, int level, const char *msg);

/// The environment handed to every constructor: allocator, clock and log,
/// each with its own user pointer. A NULL lds_Env* (or any NULL member) means
/// the defaults: malloc/realloc/free, CLOCK_MONOTONIC, and no log.
/// The environment is copied into each object; the caller may discard it.
typedef struct lds_Env {
  lds_Alloc alloc;  ///< [opt] allocator
  void *alloc_ud;   ///< [opt] passed to alloc
  lds_Clock clock;  ///< [opt] microsecond clock
  void *clock_ud;   ///< [opt] passed to clock
  lds_Log log;      ///< [opt] log sink
  void *log_ud;     ///< [opt] passed to log
} lds_Env;

/// Fills *env with the defaults (all NULL members). Never fails.
LDS_API void lds_env_init(lds_Env *env);

/// The default clock: CLOCK_MONOTONIC in microseconds. [Units: µs]
LDS_API uint64_t lds_clock_default(void *ud);

/// The default allocator (realloc/free). Same contract as lds_Alloc.
LDS_API void *lds_alloc_default(void *ud, void *ptr, size_t osize, size_t nsize);

/* ------------------------------------------------------------ reader -- */

/// A source of text with the shape of lua_Reader: each call returns the
/// next piece and stores its length in *size; NULL or *size == 0 means the
/// end. Pieces may have any size, down to 1 byte; a piece must stay valid
/// until the next call (the parser copies what it needs). The parsers that
/// take a reader (lds_map_read, lds_scen_read, lds_graph_read_dimacs,
/// lds_navmesh_read) parse the text line by line as it arrives, keeping
/// only what they parse and a buffer of at most one line (each format has a
/// longest line, 64 KiB by default); they call the reader until the end, or
/// stop at the first error: a NUL byte (binary data), a line past the
/// limit, a line the format does not allow there, memory running out. A reader has no way to report a failure: it records the
/// failure in its own ud, returns NULL, and its caller checks ud after the
/// parser returns (io/lds_io.c does so for files).
typedef const char *(*lds_Reader)(void *ud, size_t *size);

/* ----------------------------------------------------------- slicing -- */
/*
** Every incremental object (lds_Search, lds_DStar, lds_Scheduler) has the
** same two calls:
**   lds_Status lds_<obj>_step(obj, const lds_Budget *budget, ...);  // NULL = no limit
**   void lds_<obj>_stats(const obj, lds_Stats *out);                // common counters
** Per-object counters beyond lds_Stats are in lds_DStarStats
** (lds_dstar_counters) and lds_TickStats (lds_scheduler_totals, and the
** per-tick output of lds_scheduler_step).
*/

/// Budget of one step. A zero member means "no limit of that kind"; both
/// zero (or a NULL budget) runs to the end. The expansion count is exact; the
/// time budget reads the environment's clock every 64 expansions, so it may
/// overshoot by the time of up to 63 expansions (navmesh searches read it
/// every 1 to 64, more often when expansions are dear: lds_navsearch_step).
typedef struct lds_Budget {
  uint64_t max_expansions; ///< [opt] expansions allowed in this step
  uint64_t budget_us;      ///< [opt] microseconds allowed in this step [Units: µs]
} lds_Budget;

/// Counters of an incremental object (cumulative over its steps: of the
/// current query for a search, of its life for D* Lite and the scheduler).
typedef struct lds_Stats {
  uint64_t expansions;  ///< nodes taken from the open list and expanded
  uint64_t pushes;      ///< insertions into the open list (decrease-keys included)
  uint64_t peak_open;   ///< largest open-list size
  uint64_t elapsed_us;  ///< time spent inside step [Units: µs]
} lds_Stats;

/// Library version string, e.g. "0.2.0" (LDS_VERSION). [Owner: static]
LDS_API const char *lds_version(void);

LDS_END_DECLS

#endif /* LDS_COMMON_H */
