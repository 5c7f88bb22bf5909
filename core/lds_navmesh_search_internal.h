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

/* The taut-path state of a corridor A* node (uniform costs): the path to
** the node's point bends last at root (g_root from the start); from root the
** corridor is visible between the rays to wl and wr (no bound for the start
** polygon, wedge == false). */
typedef struct ldsi_NavTaut {
  double root[3], wl[3], wr[3];
  double groot;
  double gl, gr;     /* groot + |root - wl|, groot + |root - wr|, when have_g */
  bool wedge, have_g;
} ldsi_NavTaut;

/* One corridor A* record: a state of a half-edge (crossing edge e of one
** polygon into its neighbour), LDSI_NAV_SLOTS per half-edge, so corridors
** that reach a portal with states neither of which dominates the other are
** both kept; plus the start record. */
typedef struct ldsi_NavNode {
  double f;          /* A* key */
  double g;          /* area-weighted length to pt */
  double pt[3];      /* the node's point on its entry portal */
  ldsi_NavTaut t;    /* uniform costs only */
  uint32_t parent;   /* record id, LDS_NAVMESH_NONE for the start */
} ldsi_NavNode;

/* A record's bookkeeping, apart from its state so that the heap and the
** per-half-edge checks touch 8 bytes, not the whole record. */
typedef struct ldsi_NavMark {
  uint32_t seen;     /* generation the record belongs to */
  uint32_t hpos;     /* position in the heap, LDSI_NAV_CLOSED or LDSI_NAV_OUT */
} ldsi_NavMark;

/* A portal as its two ends, left (vertex k) then right (vertex k + 1). */
typedef struct ldsi_NavEdge {
  double a[3], b[3];
  double ex, ez, il2; /* b - a in x-z, 1 / |b - a|^2 */
} ldsi_NavEdge;

#define LDSI_NAV_SLOTS 3u

struct lds_NavSearch {
  ldsi_Env env;
  const lds_Navmesh *m;
  lds_NavParams p;
  double cost[256];   /* multiplier per area id, INFINITY = blocked */
  uint32_t ncost1;    /* cost[i] == 1 for i >= ncost1 since the last start (256: not yet) */
  double min_cost;    /* smallest allowed multiplier (scales h) */
  double start[3], goal[3];
  uint32_t sp, gp;    /* start and goal polygons */
  lds_Status status;
  bool started;
  char msg[LDS_ERRMSG_SIZE];
  lds_Stats stats;
  /* the areas the mesh uses, in the order of their first polygon */
  uint8_t areas[256];
  uint32_t nareas;
  /* corridor A*: LDSI_NAV_SLOTS records per half-edge, then the start
  ** record; nnodes in all */
  size_t nnodes;
  uint32_t start_node, goal_node;
  uint32_t *enext;    /* half-edge -> the next vertex's slot in pv */
  uint32_t *cstart;   /* np + 1: polygon P's crossable half-edges are cedge[cstart[P] .. cstart[P+1]-1] */
  uint32_t *cedge;
  ldsi_NavEdge *ends; /* per half-edge: its portal's ends */
  uint32_t gen;
  ldsi_NavNode *node;
  uint32_t kslots;    /* records per half-edge this query uses (thorough: LDSI_NAV_SLOTS, else 2) */
  ldsi_NavMark *mark;
  bool uniform;       /* every allowed area costs the same */
  ldsi_NavHeapItem *heap;
  size_t hn;
  uint32_t best;      /* reached node nearest the goal (partial) */
  double best_h;
  /* result */
  bool have_path, is_partial, path_built, cost_done;
  double *pts;
  size_t npts, ptscap;
  uint32_t *corr;
  size_t ncorr, corrcap;
  lds_Portal *portals;
  size_t portcap;
  double length, pcost;
  ldsi_Polyanya *pa;
};

#define LDSI_NAV_CLOSED 0xFFFFFFFFu
#define LDSI_NAV_OUT 0xFFFFFFFEu /* seen, not yet in the heap */

/* Walks the polyline pts (n points) through the mesh from polygon p0 (see
** lds_navmesh_check_path); cost may be NULL (every area 1, none blocked).
** Fills *length, *wcost; polys [opt] gets the polygons crossed (grown with
** *pcap, count in *npolys). Returns LDS_OK or LDS_E_ARG with msg. */
LDSI_HIDDEN lds_Status ldsi_nav_walk(const lds_Navmesh *m, const double *pts, size_t n,
                                     uint32_t p0, const double *cost, double *length,
                                     double *wcost, char *msg);

/* Polyanya's half of the search object (lds_polyanya.c). */
LDSI_HIDDEN lds_Status ldsi_polyanya_start(lds_NavSearch *s);
LDSI_HIDDEN lds_Status ldsi_polyanya_step(lds_NavSearch *s, uint64_t max_exp, uint64_t budget_us,
                                          uint64_t t0);
LDSI_HIDDEN void ldsi_polyanya_free(lds_NavSearch *s);
/* Appends a point to the result path (drops repeats); false on no memory. */
LDSI_HIDDEN bool ldsi_nav_push_point(lds_NavSearch *s, const double *p);

#endif /* LDS_NAVMESH_SEARCH_INTERNAL_H */
