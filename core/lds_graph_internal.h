/* SPDX-License-Identifier: MIT */
/*
** lds_graph_internal.h — the graph's layout, shared with the searches (hidden).
**
** Forward CSR: the out-edges of u are the ids off[u] .. off[u+1]-1, with
** targets dst[e] and costs cost[e]. Reverse CSR: the in-edges of v are
** roff[v] .. roff[v+1]-1, with sources rsrc[i] and forward edge ids redge[i]
** (costs live once, in cost[]). Coordinates: dim doubles per node in xyz
** (lon, lat in degrees for LONLAT, plus coslat[] filled at freeze).
*/
#ifndef LDS_GRAPH_INTERNAL_H
#define LDS_GRAPH_INTERNAL_H

#include "lds_graph.h"
#include "lds_internal.h"

#include <math.h>

#define LDSI_EARTH_RADIUS_M 6371000.0
#define LDSI_DEG 0.017453292519943295 /* pi / 180 */

typedef struct ldsi_GraphListener {
  lds_GraphListener fn;
  void *ud;
} ldsi_GraphListener;

struct lds_Graph {
  ldsi_Env env;
  lds_Coords kind;
  int dim;             /* doubles per node in xyz: 0, 2 or 3 */
  bool frozen;
  uint32_t n, m;       /* nodes, edges */
  size_t node_cap;     /* capacity of xyz in nodes (building) */
  double *xyz;
  double *coslat;      /* LONLAT: cos(latitude) per node, from freeze on */
  lds_GraphEdge *elist; /* building: the edges in insertion order */
  size_t edge_cap;
  uint32_t *off, *dst;  /* forward CSR */
  double *cost;
  uint32_t *roff, *rsrc, *redge; /* reverse CSR */
  uint64_t version;
  /* cache of lds_graph_h_scale: the scale, and 1 + the version it is for
  ** (0 = none). Atomic: concurrent readers may fill it at once (with the
  ** same value); scale_tag is stored after scale, with release order */
  _Atomic double scale;
  _Atomic uint64_t scale_tag;
  int nlisteners, listener_cap;
  ldsi_GraphListener *listeners;
  ldsi_Spin listen_lock; /* guards the three above against concurrent (un)listens */
  char errmsg[LDS_ERRMSG_SIZE];
};

/* Great-circle distance in metres between (lon1, lat1) and (lon2, lat2) in
** degrees, given the cosines of the latitudes: haversine,
** h = sin^2(dphi/2) + cos phi1 cos phi2 sin^2(dlambda/2), d = 2R asin(sqrt h)
** [R. W. Sinnott, "Virtues of the Haversine", Sky & Telescope 68(2), 1984]. */
static inline double ldsi_haversine(double lon1, double lat1, double c1, double lon2, double lat2,
                                    double c2) {
  double s1 = sin((lat2 - lat1) * (0.5 * LDSI_DEG));
  double s2 = sin((lon2 - lon1) * (0.5 * LDSI_DEG));
  double h = s1 * s1 + c1 * c2 * s2 * s2;
  if (h > 1.0) h = 1.0;
  return 2.0 * LDSI_EARTH_RADIUS_M * asin(sqrt(h));
}

/* Coordinate distance between nodes a and b (see lds_graph_distance). */
static inline double ldsi_graph_dist(const lds_Graph *g, uint32_t a, uint32_t b) {
  const double *p, *q;
  switch (g->kind) {
    case LDS_COORDS_XY: {
      double dx, dy;
      p = g->xyz + (size_t)a * 2;
      q = g->xyz + (size_t)b * 2;
      dx = p[0] - q[0];
      dy = p[1] - q[1];
      return sqrt(dx * dx + dy * dy);
    }
    case LDS_COORDS_XYZ: {
      double dx, dy, dz;
      p = g->xyz + (size_t)a * 3;
      q = g->xyz + (size_t)b * 3;
      dx = p[0] - q[0];
      dy = p[1] - q[1];
      dz = p[2] - q[2];
      return sqrt(dx * dx + dy * dy + dz * dz);
    }
    case LDS_COORDS_LONLAT:
      p = g->xyz + (size_t)a * 2;
      q = g->xyz + (size_t)b * 2;
      return ldsi_haversine(p[0], p[1], g->coslat[a], q[0], q[1], g->coslat[b]);
    default:
      return 0.0;
  }
}

#endif
