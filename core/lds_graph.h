/* SPDX-License-Identifier: MIT */
/*
** lds_graph.h — the graph: nodes with optional coordinates and directed,
** weighted edges in compressed sparse rows (CSR), for waypoint graphs, road
** networks and navmesh-style polygon graphs.
**
**   lds_Graph *g = lds_graph_new(NULL, LDS_COORDS_XY, &err);   // building
**   lds_graph_add_node(g, 0.0, 0.0, 0.0, &a);
**   lds_graph_add_node(g, 3.0, 4.0, 0.0, &b);
**   lds_graph_add_edge(g, a, b, 5.0);
**   lds_graph_freeze(g, &err);                                 // CSR, read-only topology
**   lds_Search *s = lds_search_new_graph(NULL, g, &err);       // same A* as on grids
**
** Life cycle: a graph is built (add_node / add_edge, or in one call with
** lds_graph_from_edges) and then frozen; only a frozen graph can be searched.
** After freezing the topology and coordinates are fixed, but edge costs can
** change in place (lds_graph_set_edge_cost): every change bumps the graph's
** version, so running searches return LDS_E_STALE, and is reported to
** listeners, so incremental planners (D* Lite) can repair their state.
**
** Node ids are 0 .. node_count-1 in creation order. Edge ids are positions in
** the forward CSR: the out-edges of node u are the ids
** out_offset(u) .. out_offset(u+1)-1, in the order they were added (a stable
** sort by source), so iteration order — and with it every search — is
** deterministic. Self-loops and parallel edges are kept as given.
**
** Costs are in the graph's own units [Units: cost] (DIMACS road graphs:
** decimetres or travel times): finite doubles >= 0. Zero-cost edges are
** allowed.
*/
#ifndef LDS_GRAPH_H
#define LDS_GRAPH_H

#include "lds_common.h"
#include "lds_grid.h"

LDS_BEGIN_DECLS

typedef struct lds_Graph lds_Graph;

/// "No node / no edge" marker returned by lookups. 
#define LDS_GRAPH_NONE 0xFFFFFFFFu
/// Largest node or edge count accepted (ids must stay below the search's
/// internal markers).
#define LDS_GRAPH_MAX_IDS 0xFFFFFFF0u

/// What node coordinates mean; chooses the coordinate heuristic.
typedef enum lds_Coords {
  LDS_COORDS_NONE = 0,   ///< no coordinates (heuristic: zero or custom)
  LDS_COORDS_XY = 1,     ///< planar (x, y) [Units: any length] — euclidean
  LDS_COORDS_XYZ = 2,    ///< (x, y, z) [Units: any length] — euclidean in 3-D
  LDS_COORDS_LONLAT = 3  ///< (longitude, latitude) [Units: degrees, WGS84] —
                         ///< great-circle distance in metres (R = 6,371,000 m)
} lds_Coords;

/// Name of a coordinate kind ("none", "xy", "xyz", "lonlat"); NULL if invalid.
/// [Owner: static]
LDS_API const char *lds_coords_name(lds_Coords c);

/// One directed edge of an edge list (lds_graph_from_edges).
typedef struct lds_GraphEdge {
  uint32_t from;  ///< source node id
  uint32_t to;    ///< target node id
  double cost;    ///< [Units: cost] [Limit: finite, >= 0]
} lds_GraphEdge;

/// Called after every edge-cost change with the edge, its endpoints, the old
/// and new cost and the graph's new version.
typedef void (*lds_GraphListener)(void *ud, const lds_Graph *g, uint32_t edge, uint32_t from,
                                  uint32_t to, double old_cost, double new_cost,
                                  uint64_t version);

/* ---------------------------------------------------------- lifetime -- */

/// Creates an empty graph in the building state.
/// @param[in] env    [opt] allocator/clock/log; NULL for defaults
/// @param[in] coords what node coordinates mean [Limit: an lds_Coords value]
/// @param[out] err   [opt] filled on failure
/// @returns the graph, or NULL with err->code LDS_E_ARG (unknown coords kind)
///   or LDS_E_NOMEM. [Owner: caller frees with lds_graph_free]
LDS_API lds_Graph *lds_graph_new(const lds_Env *env, lds_Coords coords, lds_Error *err);

/// Builds a frozen graph from an edge list in one call.
/// @param[in] env      [opt]
/// @param[in] n_nodes  number of nodes [Limit: 0..LDS_GRAPH_MAX_IDS]
/// @param[in] coords   what the coordinates mean
/// @param[in] xyz      [opt] [Shape: n_nodes * dim doubles, dim = 2 for XY and
///                     LONLAT (x/longitude first), 3 for XYZ] NULL if coords is NONE
/// @param[in] edges    [Shape: n_edges edges] (copied)
/// @param[in] n_edges  [Limit: 0..LDS_GRAPH_MAX_IDS]
/// @param[out] err     [opt]
/// @returns the frozen graph, or NULL with err: LDS_E_ARG naming the first bad
///   edge ("edge 3: target 9 out of range (expected 0..4)", "edge 2: cost -1
///   out of range (expected finite, >= 0)") or coordinate, LDS_E_NOMEM.
///   [Owner: caller frees with lds_graph_free]
LDS_API lds_Graph *lds_graph_from_edges(const lds_Env *env, uint32_t n_nodes, lds_Coords coords,
                                        const double *xyz, const lds_GraphEdge *edges,
                                        size_t n_edges, lds_Error *err);

/// Turns a grid into a frozen graph with the same moves and costs: node id =
/// y*width+x for every cell (blocked cells become isolated nodes), one edge
/// per legal move under the grid's neighbourhood and diagonal rule, in the
/// order N, E, S, W, NE, SE, SW, NW, costing move length (1 or sqrt 2) times
/// the cost of the cell entered (layers are not included). Coordinates are
/// the cell centres (x + 0.5, y + 0.5), LDS_COORDS_XY.
/// @returns the graph or NULL with err (LDS_E_ARG for a NULL grid,
///   LDS_E_LIMIT when the grid has more than LDS_GRAPH_MAX_IDS cells,
///   LDS_E_NOMEM). [Owner: caller frees with lds_graph_free]
LDS_API lds_Graph *lds_graph_from_grid(const lds_Env *env, const lds_Grid *grid, lds_Error *err);

/// Frees the graph. NULL is ignored. Searches on it must be freed first.
LDS_API void lds_graph_free(lds_Graph *g);

/* ---------------------------------------------------------- building -- */

/// Reserves room for more nodes and edges while building (optional; avoids
/// regrowth). @returns LDS_OK, LDS_E_STATE when frozen, LDS_E_NOMEM.
LDS_API lds_Status lds_graph_reserve(lds_Graph *g, size_t nodes, size_t edges);

/// Adds a node. Coordinates beyond the graph's kind are ignored (z for XY and
/// LONLAT; all three for NONE). [Units: the coordinates' own; LONLAT: x =
/// longitude in -180..180, y = latitude in -90..90 degrees]
/// @param[out] id [opt] the new node's id (= previous node count)
/// @returns LDS_OK; LDS_E_STATE when frozen; LDS_E_ARG for a NaN or infinite
///   coordinate or a longitude/latitude out of range; LDS_E_LIMIT beyond
///   LDS_GRAPH_MAX_IDS nodes; LDS_E_NOMEM. Message in lds_graph_errmsg.
LDS_API lds_Status lds_graph_add_node(lds_Graph *g, double x, double y, double z, uint32_t *id);

/// Adds `count` nodes at once, with coordinates (0,0,0); set them with
/// lds_graph_set_coords before freezing. @param[out] first [opt] id of the first.
/// @returns as lds_graph_add_node.
LDS_API lds_Status lds_graph_add_nodes(lds_Graph *g, size_t count, uint32_t *first);

/// Sets the coordinates of a node (building state only).
/// @returns LDS_OK, LDS_E_STATE when frozen, LDS_E_ARG (id out of range,
///   non-finite value, longitude/latitude out of range).
LDS_API lds_Status lds_graph_set_coords(lds_Graph *g, uint32_t id, double x, double y, double z);

/// Adds a directed edge a -> b. Self-loops and parallel edges are kept.
/// [Units: cost] [Limit: cost finite, >= 0; a, b < node count]
/// @returns LDS_OK; LDS_E_STATE when frozen; LDS_E_ARG naming the bad
///   argument and its range; LDS_E_LIMIT; LDS_E_NOMEM.
LDS_API lds_Status lds_graph_add_edge(lds_Graph *g, uint32_t a, uint32_t b, double cost);

/// Freezes the graph: builds the forward and reverse CSR (stable by source /
/// target, so out-edges keep their insertion order) and frees the edge list.
/// Idempotent. @param[out] err [opt]
/// @returns LDS_OK or LDS_E_NOMEM (the graph then stays in the building state).
LDS_API lds_Status lds_graph_freeze(lds_Graph *g, lds_Error *err);

/* ----------------------------------------------------------- editing -- */

/// Changes the cost of the edge a -> b of a frozen graph in place. With
/// parallel edges a -> b, the FIRST one is changed: the one added first (the
/// lowest edge id among them); use lds_graph_set_edge_cost_id for another.
/// Bumps the version (running searches on the graph then return
/// LDS_E_STALE) and notifies listeners, even when the cost is unchanged.
/// [Units: cost] [Limit: finite, >= 0]
/// @returns LDS_OK; LDS_E_STATE when not frozen; LDS_E_ARG for a node out of
///   range, no edge a -> b, or a bad cost (message in lds_graph_errmsg).
LDS_API lds_Status lds_graph_set_edge_cost(lds_Graph *g, uint32_t a, uint32_t b, double cost);

/// Same, by edge id. @returns LDS_OK, LDS_E_STATE, LDS_E_ARG.
LDS_API lds_Status lds_graph_set_edge_cost_id(lds_Graph *g, uint32_t edge, double cost);

/* ----------------------------------------------------------- queries -- */

LDS_API bool lds_graph_frozen(const lds_Graph *g);        ///< true once frozen
LDS_API uint32_t lds_graph_node_count(const lds_Graph *g); ///< nodes
LDS_API uint32_t lds_graph_edge_count(const lds_Graph *g); ///< directed edges
LDS_API lds_Coords lds_graph_coords(const lds_Graph *g);   ///< coordinate kind
/// Coordinates of a node into x, y, z (each [opt]; 0 for missing dims).
/// @returns false for an id out of range or a graph without coordinates.
LDS_API bool lds_graph_node_coords(const lds_Graph *g, uint32_t id, double *x, double *y,
                                   double *z);
/// Out-edges of node u in a frozen graph: sets *targets and *costs [opt] to
/// arrays of the returned length and *first_edge [opt] to the id of the first
/// (edge ids are consecutive). [Shape: count entries] [Owner: the graph;
/// valid until it is freed; costs change in place with set_edge_cost]
/// @returns the out-degree; 0 for an id out of range or an unfrozen graph.
LDS_API uint32_t lds_graph_out_edges(const lds_Graph *g, uint32_t u, const uint32_t **targets,
                                     const double **costs, uint32_t *first_edge);
/// In-edges of node v (reverse CSR, for backward searches such as D* Lite):
/// *sources and *edges [opt] get arrays of the returned length; the cost of
/// in-edge i is lds_graph_edge_cost(g, edges[i]). [Owner: the graph]
/// @returns the in-degree; 0 for an id out of range or an unfrozen graph.
LDS_API uint32_t lds_graph_in_edges(const lds_Graph *g, uint32_t v, const uint32_t **sources,
                                    const uint32_t **edges);
/// Id of the first edge a -> b (lowest id), or LDS_GRAPH_NONE.
LDS_API uint32_t lds_graph_find_edge(const lds_Graph *g, uint32_t a, uint32_t b);
/// Cost of an edge [Units: cost]; NaN for an id out of range.
LDS_API double lds_graph_edge_cost(const lds_Graph *g, uint32_t edge);
/// Source and target of an edge. @returns false for an id out of range.
LDS_API bool lds_graph_edge_ends(const lds_Graph *g, uint32_t edge, uint32_t *from, uint32_t *to);
/// Change counter: grows by one with every edge-cost change.
LDS_API uint64_t lds_graph_version(const lds_Graph *g);

/// Coordinate distance between two nodes as the coordinate heuristic sees it:
/// euclidean for XY/XYZ [Units: coordinate units], great-circle (haversine,
/// R = 6,371,000 m) for LONLAT [Units: m]; 0 without coordinates or for a bad id.
LDS_API double lds_graph_distance(const lds_Graph *g, uint32_t a, uint32_t b);

/// The largest scale k that keeps h(v) = k * distance(v, goal) consistent:
/// the minimum over edges u -> v of cost / distance(u, v), skipping edges
/// between coincident nodes (distance 0), shrunk by a relative 1e-9 against
/// rounding. A zero-cost edge between distinct points forces 0 (h is then
/// zero: Dijkstra). No edge with positive distance: 0. [Units: cost per
/// coordinate unit] Cached per graph version: O(edges) after each edit, O(1)
/// otherwise. The cache is atomic: threads sharing the graph read-only may
/// call it (and start searches, which do) at once (docs/threads.md).
/// @returns 0 for a graph without coordinates or not frozen.
LDS_API double lds_graph_h_scale(const lds_Graph *g);

/// Bytes allocated by the graph; *node_bytes / *edge_bytes [opt] get the
/// parts that grow with the node and edge counts (CSR offsets + coordinates;
/// targets, costs, reverse CSR).
LDS_API size_t lds_graph_mem_used(const lds_Graph *g, size_t *node_bytes, size_t *edge_bytes);
/// Last error message of a building/editing call ("" if none). [Owner: the graph]
LDS_API const char *lds_graph_errmsg(const lds_Graph *g);

/* --------------------------------------------------------- listeners -- */

/// Registers fn to hear about every edge-cost change. fn runs on the editing
/// thread. Listening and unlistening take the graph's spin lock, so threads
/// sharing the graph read-only may (un)listen at once (subscribed D* Lite
/// searches do); not during an edit. @returns LDS_OK, LDS_E_ARG (fn NULL),
/// LDS_E_NOMEM.
LDS_API lds_Status lds_graph_listen(lds_Graph *g, lds_GraphListener fn, void *ud);
/// Removes a listener registered with the same (fn, ud). LDS_E_ARG if absent.
LDS_API lds_Status lds_graph_unlisten(lds_Graph *g, lds_GraphListener fn, void *ud);

/* ------------------------------------------------------------ DIMACS -- */

/// Parses a graph in the 9th DIMACS shortest-path challenge format: `.gr`
/// text ("p sp N M" once before any arc, then M lines "a U V W", ids 1..N,
/// W an integer >= 0) and optionally `.co` text ("p aux sp co N", then
/// "v ID X Y" with X = longitude * 1e6, Y = latitude * 1e6). Comment lines
/// ("c ...") may appear anywhere; blank lines and CRLF endings are accepted.
/// DIMACS id k becomes node id k-1. The texts (len bytes each, no NUL
/// terminator needed) are not kept; names are used in messages ("(gr)",
/// "(co)" when NULL). Files (plain or gzip): lds_graph_load_dimacs
/// (io/lds_io.h).
/// @param[in] co_text [opt] the coordinates (NULL: LDS_COORDS_NONE; given:
///                    LDS_COORDS_LONLAT)
/// @returns a frozen graph or NULL with err: LDS_E_ARG (gr_text NULL with
///   gr_len > 0), LDS_E_FORMAT ("name:line: expected ...", and for a NUL
///   byte in either text "name:line: binary data (a NUL byte at offset N;
///   expected a text file)"), LDS_E_NOMEM ("lds_graph_parse_dimacs: name:line:
///   out of memory for N nodes and M arcs", or the graph's).
///   [Owner: caller frees with lds_graph_free]
LDS_API lds_Graph *lds_graph_parse_dimacs(const lds_Env *env, const char *gr_text, size_t gr_len,
                                          const char *gr_name, const char *co_text,
                                          size_t co_len, const char *co_name, lds_Error *err);
/// Same as lds_graph_parse_dimacs, with each text from a reader (pieces of
/// any size, see lds_Reader): the .gr text is parsed line by line as it
/// arrives, to its end, then the .co text (co_reader NULL: no coordinates;
/// its reader is first called once the .gr text is done). Each goes through
/// one buffer of at most the longest accepted line (65535 bytes; 1 MiB
/// first) from env's allocator, and the arcs and nodes are reserved as the
/// arcs arrive, so the memory follows what was read, not the p line's claim;
/// at most 1,048,576 'c' or blank lines are skipped. Messages name this
/// function where the parse function's name itself: LDS_E_ARG
/// ("lds_graph_read_dimacs: gr_reader is NULL"), LDS_E_NOMEM
/// ("lds_graph_read_dimacs: out of memory reading NAME (N bytes)", ...),
/// LDS_E_FORMAT (the parser's messages; "lds_graph_read_dimacs: NAME:LINE:
/// binary data (...)" at a NUL byte, "... line longer than 65535 bytes
/// (...)", each as soon as the bytes arrive).
/// [Owner: caller frees with lds_graph_free]
LDS_API lds_Graph *lds_graph_read_dimacs(const lds_Env *env, lds_Reader gr_reader, void *gr_ud,
                                         const char *gr_name, lds_Reader co_reader, void *co_ud,
                                         const char *co_name, lds_Error *err);

LDS_END_DECLS

#endif /* LDS_GRAPH_H */
