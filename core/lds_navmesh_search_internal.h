/* SPDX-License-Identifier: MIT */
/*
** lds_navmesh_search_internal.h — the navmesh search object's struct, shared
** by the corridor search (lds_navmesh_search.c) and Polyanya
** (lds_polyanya.c). Not installed.
*/
#ifndef LDS_NAVMESH_SEARCH_INTERNAL_H
#define LDS_NAVMESH_SEARCH_INTERNAL_H

#include "lds_navmesh_internal.h"
#include "lds_navmesh_search.h"

typedef struct ldsi_NavHeapItem {
  double f;
  uint32_t id;
} ldsi_NavHeapItem;

typedef struct ldsi_Polyanya ldsi_Polyanya;
typedef struct ldsi_NavLandmarks ldsi_NavLandmarks;

/* One corridor A* record per polygon: the point where the best corridor
** found so far enters the polygon, on the portal it crosses (the start for
** the start polygon), and that corridor's cost to it. */
typedef struct ldsi_NavRec {
  double g;          /* area-weighted length of the point chain to pt */
  double f;          /* A* key: g + heuristic (the exact rest in the goal polygon) */
  double pt[3];      /* the record's point */
  uint32_t parent;   /* polygon the corridor comes from, LDS_NAVMESH_NONE at the start */
  uint32_t edge;     /* the parent's adjacency entry (adj) crossed into this polygon */
  uint32_t seen;     /* generation the record belongs to */
  uint32_t hpos;     /* LDSI_NAV_OPEN (its current f is in the heap) or LDSI_NAV_CLOSED */
  uint32_t done;     /* generation in which it was last expanded */
  /* TAUT rule only: the funnel of the corridor to here (apex, its cost ga
  ** from the start, the two sides' points), as lds_funnel keeps it */
  double ga;
  double ap[3], lp[3], rp[3];
  double d0, d1;     /* TAUT: lengths from the start to the portal's ends through the funnel (NAN: not yet) */
  uint32_t exact;    /* generation in which f became the corridor's funnel length (goal) */
  uint32_t lrec, rrec; /* TAUT: the states whose portals gave lp and rp (the apex's own at the start) */
  uint32_t arec;     /* TAUT: the state whose portal gave the apex (0: the start) */
  uint32_t next;     /* TAUT: the next state of the same portal */
  uint32_t spoly;    /* TAUT: a start state's polygon (one per polygon holding the start) */
} ldsi_NavRec;

/* One crossable half-edge of a polygon (a row of the polygons' CSR
** adjacency, so that an expansion reads its portals in one stream): the
** neighbour and the portal as its two ends, left (vertex k) then right
** (vertex k + 1). */
#define LDSI_NAV_BLK_NONE 0xFFFFFFFFu /* no block: a side is blocked */
#define LDSI_NAV_BLK_ANY 0xFFFFFFFEu  /* inside one merged polygon: always crossed */
/* the portal states' search of a funnel query gives way to the optimal one
** past this many states per partition polygon, plus LDSI_NAV_TAUT_PUSHES_MIN
** (lds_NavSearch.via_opt) */
#define LDSI_NAV_TAUT_PUSHES_PER_POLY 4u
#define LDSI_NAV_TAUT_PUSHES_MIN 256u

typedef struct ldsi_NavEdge {
  double a[3], b[3];
  double ex, ez, il2; /* b - a in x-z, 1 / |b - a|^2 */
  uint32_t to;        /* the neighbour polygon */
  uint32_t blk;       /* the edge's biconnected block (lds_polyanya.c), or LDSI_NAV_BLK_* */
} ldsi_NavEdge;

/* The corridor searches of one funnel query (docs/navmesh.md): the point
** chain through the portal points nearest the straight line on to the goal,
** Detour's rule of edge midpoints, and the portal states that carry the
** funnel of their corridor (thorough with one cost). */
typedef enum ldsi_NavRule {
  LDSI_NAV_RULE_LINE = 0,
  LDSI_NAV_RULE_MID = 1,
  LDSI_NAV_RULE_TAUT = 2
} ldsi_NavRule;

struct lds_NavSearch {
  ldsi_Env env;
  const lds_Navmesh *m;
  lds_NavParams p;
  double cost[256];   /* multiplier per area id, INFINITY = blocked */
  uint32_t ncost1;    /* cost[i] == 1 for i >= ncost1 since the last start (256: not yet) */
  double min_cost;    /* smallest allowed multiplier (scales h) */
  double start[3], goal[3];
  uint32_t sp, gp;    /* start and goal polygons: allowed ones when the point has one */
  /* the allowed polygons holding the start (the goal), ascending ids
  ** (ldsi_navmesh_holders: more than one on an edge or a vertex); none for
  ** a start (goal) in blocked polygons only; m->hold_max entries each, so
  ** a vertex shared by any number of polygons has them all */
  uint32_t *sh, *gh;
  uint32_t nsh, ngh;
  /* scratch of m->hold_max entries each: a point's holders before the
  ** allowed ones are picked, the start's seeds, merged start and goal sets */
  uint32_t *hold_a, *hold_b;
  lds_Status status;
  bool started;
  char msg[LDS_ERRMSG_SIZE];
  lds_Stats stats;
  /* the step's time budget (ldsi_nav_time_up): stats.expansions at the
  ** step's start, and the count at which the clock is read next */
  uint64_t clk_e0, clk_next;
  /* the areas the mesh uses, in the order of their first polygon */
  uint8_t areas[256];
  uint32_t nareas;
  /* corridor A* over the optimal search's merged partition (fnp polygons,
  ** fsp / fgp the ones holding sp / gp; built on the first funnel query):
  ** one record per polygon, a binary heap of polygons */
  bool fready;        /* cstart / adj hold the partition's adjacency */
  uint32_t fnp, fsp, fgp;
  const uint32_t *fpmap; /* mesh polygon -> merged polygon [Borrowed: s->pa] */
  const struct ldsi_MergedMesh *fmm; /* the merged partition itself [Borrowed: s->pa] */
  /* the straight segment's walk (straight_walk), resumable across steps:
  ** running while line_try, in merged polygon line_cur, entered at
  ** parameter line_tin, line_n polygons walked */
  bool line_try;
  /* the portal states' search gave way to the optimal one (via_opt): it
  ** made more than taut_push_limit states (stats.pushes), which the meshes
  ** of many small polygons with collinear vertices (a grid's cells as
  ** squares) cause and the benchmark meshes never near (at most 0.67 x the
  ** partition's polygons) */
  bool via_opt;
  uint64_t taut_push_limit; /* LDSI_NAV_TAUT_PUSHES_PER_POLY x fnp + LDSI_NAV_TAUT_PUSHES_MIN */
  uint32_t line_cur, line_n;
  double line_tin;
  const uint8_t *farea;  /* merged polygon -> area id [Borrowed: s->pa] */
  /* landmark bounds over the partition (lds_navmesh_landmarks.h), built
  ** with it [Owner]; lm_on: this query's LINE / TAUT / Polyanya searches use them */
  ldsi_NavLandmarks *lm; /* NULL: none (shared by ldsi_navsearch_share_landmarks) */
  struct ldsi_NavLmGoal *lmg; /* this query's goal against them [Owner] */
  bool lm_on;
  uint32_t lm_min_polys; /* no landmarks below this many partition polygons (tests lower it) */
  uint32_t *mstart;   /* fnp + 1: the partition's rows of madj (like cstart) */
  ldsi_NavEdge *madj;
  uint32_t *fslot;    /* per madj entry: the partition's slot (its block) */
  uint32_t *cpos;     /* np + 1: scratch, a polygon's place in the corridor (mesh_corridor) */
  uint32_t *oslot;    /* per adj entry: the partition's slot, LDSI_NAV_BLK_ANY inside one */
  /* the running search's adjacency and areas (partition or mesh); fsp /
  ** fgp then name its start and goal polygons */
  const uint32_t *xstart;
  const ldsi_NavEdge *xadj;
  const uint8_t *xarea;
  uint32_t ftabver;   /* the blocks' version copied into adj */
  const uint32_t *bgen; /* per block: on this query's block path when == bgcur */
  uint32_t bgcur;
  bool fprune;        /* this query crosses only edges of the marked blocks */
  uint32_t *cstart;   /* np + 1: polygon P's crossable half-edges are adj[cstart[P] .. cstart[P+1]-1] */
  ldsi_NavEdge *adj;
  uint32_t gen;
  uint32_t *gmark;    /* np + 1: the running search's goal polygons (== gen): every allowed
                      ** polygon holding the goal, in the running search's polygon ids */
  ldsi_NavRec *rec;   /* np + 1: one per polygon (LINE, MID) */
  ldsi_NavRec *erec;  /* TAUT: a pool of portal states (ecap, nn in use;
                      ** erec[0] the start's), each the funnel of one
                      ** corridor through its portal (edge) */
  size_t ecap, nn;
  uint32_t *phead;    /* ni + 1: per edge, its first state (when pgen == gen) */
  uint32_t *pgen;
  ldsi_NavRec *hrec;  /* the records the heap's ids name: rec or erec */
  uint32_t goal_rec;  /* TAUT: the record popped in the goal polygon */
  uint32_t built_rec; /* TAUT: the record whose corridor's path pts holds (NONE: none) */
  uint32_t *tbuf;     /* ni + 1: TAUT scratch, the portals after a corner (taut_step) */
  uint32_t taut_cap;  /* TAUT: live states kept per portal */
  double taut_w;
  bool uniform;       /* every allowed area costs the same */
  ldsi_NavHeapItem *heap; /* hcap items, hn in use (lazy deletion: may exceed np) */
  size_t hn, hcap;
  /* TAUT: a state made by the last expansion that is less than every heap
  ** item (f, then id), hence the next one popped: kept out of the heap
  ** (LDS_NAVMESH_NONE: none) */
  uint32_t nxt;
  double nxt_f;
  uint32_t best;      /* record whose point is nearest the goal (open_push); NONE: a blocked
                      ** start (no partial path) */
  double best_h;
  ldsi_NavRule rule;  /* the corridor search running */
  /* the first rule's path while the second runs (thorough) */
  double *pts0;
  size_t npts0, pts0cap;
  uint32_t *corr0;
  size_t ncorr0, corr0cap;
  double len0;
  bool have0;
  /* result */
  bool have_path, is_partial, path_built, cost_done;
  /* the funnel's corridor is still in polygons of the merged partition:
  ** walked into the mesh's polygons on the first lds_navsearch_corridor */
  bool corr_pending;
  double *pts;
  size_t npts, ptscap;
  uint32_t *corr;
  size_t ncorr, corrcap;
  lds_Portal *portals;
  size_t portcap;
  double length, pcost;
  ldsi_Polyanya *pa;
  /* partial paths (lds_navsearch_partial_points): per merged polygon,
  ** reached (rgen == rgcur) and by which record (rsel); the best-so-far
  ** path's own buffer; early: the query ended at its start, unsearched;
  ** pkept: ppts holds the optimal mode's best-so-far kept when its first
  ** search ran dry (answered unchanged while the second search runs) */
  uint32_t *rgen, *rsel;
  uint32_t rgcur;
  double *ppts;
  size_t nppts, ppcap;
  bool early, pkept;
};

#define LDSI_NAV_CLOSED 0xFFFFFFFFu
#define LDSI_NAV_OPEN 0u
#define LDSI_NAV_DEAD 0xFFFFFFFEu /* TAUT: a state dominated by a later one */

/* Whether a step's time budget (budget_us µs from t0; 0: none) is spent,
** asked before each expansion. The clock is read after the step's first
** expansion and then again once the expansions since the step began, at
** their mean time so far, would take about half what is left of the
** budget (every 1 to 64 expansions): the cheap expansions of a plain query
** read it every 64, dear ones (merged polygons of many portals, area
** costs) every one or few, so a step overshoots its budget by about one
** expansion, not 63 (lds_navsearch_step resets the count). */
static inline bool ldsi_nav_time_up(lds_NavSearch *s, uint64_t budget_us, uint64_t t0) {
  uint64_t el;
  double left, k;
  if (!budget_us || s->stats.expansions < s->clk_next) return false;
  el = s->env.clock(s->env.clock_ud) - t0;
  if (el >= budget_us) return true;
  left = (double)(budget_us - el);
  k = el ? 0.5 * left * (double)(s->stats.expansions - s->clk_e0) / (double)el : 64;
  s->clk_next = s->stats.expansions + (k < 1 ? 1 : k > 64 ? 64 : (uint64_t)k);
  return false;
}

/* Walks the polyline pts (n points) through the mesh from polygon p0 (see
** lds_navmesh_check_path); cost [Shape: 256] may be NULL (every area 1,
** none blocked). Fills *length, *wcost: each piece of the path charged at
** the cheapest allowed polygon holding it (a piece along the shared edge of
** a cost-1 and a cost-5 polygon costs its length); polys [opt] gets the
** polygons crossed (grown with *pcap, count in *npolys). Returns LDS_OK or
** LDS_E_ARG with msg. */
LDSI_HIDDEN lds_Status ldsi_nav_walk(const lds_Navmesh *m, const double *pts, size_t n,
                                     uint32_t p0, const double *cost, double *length,
                                     double *wcost, char *msg);

/* Walks pts like ldsi_nav_walk and writes the polygons it passes, from p0,
** into *polys (allocated / grown with env e, capacity *pcap [Owner: the
** caller], count *npolys): consecutive ones share an edge (where the line
** passes a vertex, the polygons round it between the two), every one holds
** a point of the path. LDS_E_NOMEM, or LDS_E_ARG with msg. */
LDSI_HIDDEN lds_Status ldsi_nav_walk_chain(const lds_Navmesh *m, const ldsi_Env *e,
                                           const double *pts, size_t n, uint32_t p0,
                                           const double *cost, uint32_t **polys, size_t *pcap,
                                           size_t *npolys, char *msg);

/* Polyanya's half of the search object (lds_polyanya.c). */
LDSI_HIDDEN lds_Status ldsi_polyanya_start(lds_NavSearch *s);
/* Lets dst use src's landmark tables (docs/navmesh.md "Landmark bounds")
** instead of building its own (its own, if built, released): both search
** the same mesh, dst is not running a query (a query's goal bounds are
** made against its tables). A scheduler's search objects of one mesh, and
** a Lua mesh's two (lds_navsearch_share_tables), share one set.
** Without tables in src (none yet, or the mesh too small) nothing
** changes. false when dst's scratch cannot be allocated. */
LDSI_HIDDEN bool ldsi_navsearch_share_landmarks(lds_NavSearch *dst, const lds_NavSearch *src);
/* One-to-all Polyanya: vdist[v] (m->nv entries [Owner: the caller]) the
** exact x-z geodesic length from point (sx, sz), strictly inside merged
** polygon mp, to every mesh vertex v over the whole partition (every area
** allowed, no blocks), INFINITY for vertices it does not reach. Runs the
** search to exhaustion in Dijkstra's order (by the nearest point of each
** node's interval); every expanded node's root, interval ends and the far
** vertices its cone holds are seen at g + the straight line. Uses s's
** Polyanya pools (call between queries: the next start resets them).
** false when out of memory. */
LDSI_HIDDEN bool ldsi_polyanya_distances(lds_NavSearch *s, uint32_t mp, double sx, double sz, double *vdist,
                                         uint64_t *pops);
LDSI_HIDDEN lds_Status ldsi_polyanya_step(lds_NavSearch *s, uint64_t max_exp, uint64_t budget_us,
                                          uint64_t t0);
LDSI_HIDDEN void ldsi_polyanya_free(lds_NavSearch *s);
/* The best path so far of the optimal search into s->pts (s->npts):
** LDS_OK, LDS_NO_PATH (nothing reached), LDS_E_NOMEM. */
LDSI_HIDDEN lds_Status ldsi_polyanya_best(lds_NavSearch *s);
/* Keeps s->pts (n = s->npts) as the best-so-far path until the query ends
** (s->pkept; docs/navmesh.md "Partial paths": the best so far never moves
** away from the goal) and empties s->pts; false on no memory. */
LDSI_HIDDEN bool ldsi_nav_keep_best(lds_NavSearch *s);
/* True when some allowed polygon holding the start (s->sh) lies in the
** mesh's piece pc. */
LDSI_HIDDEN bool ldsi_nav_start_in_piece(const lds_NavSearch *s, uint32_t pc);
/* The partial target of both modes (docs/navmesh.md "Partial paths"): over
** the mesh polygons p whose merged polygon pmap[p] is reached (mark[...] ==
** gen) and whose area is allowed, the point of p nearest the goal in x-z
** (its height p's), of least x-z distance to the goal, then least 3-D
** distance, then smallest p. Writes it to out; returns p, or
** LDS_NAVMESH_NONE when no polygon is reached. O(mesh polygons). */
LDSI_HIDDEN uint32_t ldsi_nav_partial_target(const lds_NavSearch *s, const uint32_t *pmap,
                                             const uint32_t *mark, uint32_t gen, double out[3]);
/* Appends a point to the result path (drops repeats); false on no memory. */
LDSI_HIDDEN bool ldsi_nav_push_point(lds_NavSearch *s, const double *p);

#endif /* LDS_NAVMESH_SEARCH_INTERNAL_H */
