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
  bool wedge;
} ldsi_NavTaut;

struct lds_NavSearch {
  ldsi_Env env;
  const lds_Navmesh *m;
  lds_NavParams p;
  double cost[256];   /* multiplier per area id, INFINITY = blocked */
  double min_cost;    /* smallest allowed multiplier (scales h) */
  double start[3], goal[3];
  uint32_t sp, gp;    /* start and goal polygons */
  lds_Status status;
  bool started;
  char msg[LDS_ERRMSG_SIZE];
  lds_Stats stats;
  /* corridor A*: one node per half-edge (crossing edge e of polygon
  ** eowner[e] into pn[e]) plus the start node, nnodes in all */
  size_t nnodes;
  uint32_t start_node, goal_node;
  uint32_t *eowner, *enext, *etwin; /* owner polygon, next vertex's slot, the same edge seen from the other side */
  uint32_t gen;
  uint32_t *seen;     /* generation the record belongs to */
  double *g;
  double *f;          /* f of the record (compares entries at different points) */
  double *pt;         /* 3 per polygon: the node's point on its entry portal */
  uint32_t *parent;
  ldsi_NavTaut *taut; /* per polygon, uniform costs only */
  bool uniform;       /* every allowed area costs the same */
  uint32_t *hpos;     /* position in the heap, or NAV_CLOSED */
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
