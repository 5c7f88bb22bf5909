/* SPDX-License-Identifier: MIT */
/*
** lds_navmesh.h — the navigation mesh: world-space vertices, convex
** polygons given as vertex index lists, the neighbour polygon across every
** edge, an area id per polygon; point location through a spatial index; the
** funnel (string pulling) over a corridor of portals.
**
**   double v[] = {0,0,0, 4,0,0, 4,0,4, 0,0,4, 8,0,0, 8,0,4};
**   uint32_t idx[] = {0,3,2,1, 1,2,5,4};   // two quads sharing edge 1-2
**   uint32_t start[] = {0, 4, 8};
**   lds_NavmeshDesc d = {0};
**   d.verts = v; d.n_verts = 6; d.poly_verts = idx; d.poly_start = start;
**   d.n_polys = 2;                          // neighbours computed, area 0
**   lds_Navmesh *m = lds_navmesh_new(NULL, &d, &err);
**   uint32_t p = lds_navmesh_locate(m, 1.0, 0.0, 1.0, 0.5);  // 0
**
** Frame and units. Coordinates are world units [Units: world units], up is
** +y (as Recast and the data in shared/data/navmesh): the walkable surface
** is described by its projection on the x–z plane plus a height y at every
** vertex. Polygons must be convex in x–z (strictly: no reflex vertex; a
** straight angle, i.e. a collinear vertex, is allowed), with at least 3
** vertices and non-zero x–z area. Several levels may overlap in x–z (a
** bridge over a floor): they are told apart by height at point location and
** by the mesh's adjacency everywhere else, never by projecting the whole
** mesh to one plane.
**
** Winding. The canonical winding is Recast's: the shoelace sum
** Σ (x_k z_{k+1} − x_{k+1} z_k) is negative (counter-clockwise seen from
** above, +y). A polygon given the other way round is reversed on input
** (vertex list and neighbour list together), so the accessors always return
** the canonical order; for the files in shared/data/navmesh that is the
** order of the file.
**
** Edges. Edge k of a polygon joins its vertex k to vertex (k+1) mod n. Its
** neighbour is the polygon on the other side, or LDS_NAVMESH_NONE for a
** boundary edge. Neighbour links are symmetric; polygons meet only along
** whole shared edges (same two vertex indices). Without a neighbour list the
** constructor links every pair of polygons sharing an edge (u, v) / (v, u);
** an edge shared by three or more polygons is an error.
**
** Height. The height of a polygon at (x, z) is that of the fan triangle
** (v0, v[k−1], v[k]) containing (x, z) — the triangulation Detour uses when
** no detail mesh is given.
**
** The mesh is immutable after construction and may be read from several
** threads at once.
*/
#ifndef LDS_NAVMESH_H
#define LDS_NAVMESH_H

#include "lds_common.h"

LDS_BEGIN_DECLS

typedef struct lds_Navmesh lds_Navmesh;

/// "No polygon": a boundary edge's neighbour, a failed point location.
#define LDS_NAVMESH_NONE 0xFFFFFFFFu
/// Largest vertex count of one polygon.
#define LDS_NAVMESH_MAX_POLY_VERTS 64
/// Largest vertex or polygon count of a mesh.
#define LDS_NAVMESH_MAX_IDS 0x0FFFFFFFu
/// Largest magnitude of a vertex coordinate [Units: world units]: products
/// and squares of coordinate differences (areas, squared distances) stay
/// finite doubles within it. Its inverse is the smallest mesh size (largest
/// coordinate magnitude, or x-z extent), above which they stay normal.
#define LDS_NAVMESH_MAX_COORD 1e150

/// What lds_navmesh_new builds a mesh from. All arrays are read, not kept
/// (the mesh copies them).
typedef struct lds_NavmeshDesc {
  const double *verts;        ///< [Shape: 3 * n_verts doubles, x y z per vertex] [Units: world units] [Limit: finite, |c| <= LDS_NAVMESH_MAX_COORD]
  uint32_t n_verts;           ///< [Limit: 0..LDS_NAVMESH_MAX_IDS]
  const uint32_t *poly_verts; ///< vertex indices of all polygons, one after another [Shape: poly_start[n_polys] entries]
  const uint32_t *poly_start; ///< polygon p's indices are poly_verts[poly_start[p] .. poly_start[p+1]-1] [Shape: n_polys + 1 entries, poly_start[0] = 0]
  uint32_t n_polys;           ///< [Limit: 1..LDS_NAVMESH_MAX_IDS] (a mesh has a polygon)
  const uint32_t *neighbours; ///< [opt] neighbour across each edge, same shape as poly_verts, LDS_NAVMESH_NONE for a boundary; NULL = computed from shared edges
  const uint8_t *areas;       ///< [opt] area id per polygon [Shape: n_polys]; NULL = all 0
} lds_NavmeshDesc;

/* ---------------------------------------------------------- lifetime -- */

/// Builds a mesh from arrays: validates, reverses polygons given with the
/// other winding, links neighbours (or checks the given ones), computes
/// bounds and builds the point-location index (a uniform grid of buckets
/// over the polygons' x–z bounds).
/// @param[in] env  [opt] allocator/clock/log; NULL for defaults
/// @param[in] desc the arrays (copied)
/// @param[out] err [opt] filled on failure
/// @returns the mesh, or NULL with err: LDS_E_ARG naming the first problem —
///   "lds_navmesh_new: no polygons (expected at least one)", "vertex 3:
///   coordinate 0 is inf (expected finite)", "vertex 3: coordinate 0 is
///   2e+300 (expected -1e+150..1e+150, the supported range)", "every
///   coordinate within 1e-300 of 0 (expected a mesh of size at least
///   1e-150, the supported range)",
///   "polygon 5: 2 vertices (expected 3..64)", "polygon 5: vertex index 99
///   out of range (expected 0..41)", "polygon 5: vertex 7 repeated",
///   "polygon 5: not convex at vertex 12 (reflex corner)", "polygon 5:
///   degenerate (zero area in x-z)", "polygon 5 edge 2: neighbour 9 out of
///   range", "polygon 5 edge 2: neighbour 9 does not link back across the
///   same edge", "edge 3-4 shared by more than two polygons" —, LDS_E_LIMIT
///   (counts beyond LDS_NAVMESH_MAX_IDS), LDS_E_NOMEM.
///   [Owner: caller frees with lds_navmesh_free]
LDS_API lds_Navmesh *lds_navmesh_new(const lds_Env *env, const lds_NavmeshDesc *desc,
                                     lds_Error *err);

/// Frees the mesh. NULL is ignored. Searches on it must be freed first.
LDS_API void lds_navmesh_free(lds_Navmesh *m);

/// Bytes the mesh holds (arrays and index).
LDS_API size_t lds_navmesh_mem_used(const lds_Navmesh *m);

/* --------------------------------------------------------- accessors -- */

LDS_API uint32_t lds_navmesh_vertex_count(const lds_Navmesh *m); ///< vertices
LDS_API uint32_t lds_navmesh_poly_count(const lds_Navmesh *m);   ///< polygons

/// Coordinates of vertex v into xyz[0..2] [Units: world units].
/// @returns false (xyz untouched) for an id out of range.
LDS_API bool lds_navmesh_vertex(const lds_Navmesh *m, uint32_t v, double xyz[3]);

/// All vertices, x y z per vertex [Shape: 3 * vertex_count doubles]
/// [Owner: the mesh; valid until it is freed].
LDS_API const double *lds_navmesh_vertices(const lds_Navmesh *m);

/// Polygon p: sets *verts to its vertex indices and *neighbours [opt] to the
/// neighbour across each edge (LDS_NAVMESH_NONE on the boundary), both in the
/// canonical winding. [Shape: the returned count] [Owner: the mesh]
/// @returns the vertex count; 0 for an id out of range.
LDS_API uint32_t lds_navmesh_poly(const lds_Navmesh *m, uint32_t p, const uint32_t **verts,
                                  const uint32_t **neighbours);

/// Area id of polygon p; 0 for an id out of range.
LDS_API uint8_t lds_navmesh_poly_area(const lds_Navmesh *m, uint32_t p);

/// Bounds of all vertices into bmin[3] and bmax[3] (zeros for a NULL
/// mesh). [Units: world units]
LDS_API void lds_navmesh_bounds(const lds_Navmesh *m, double bmin[3], double bmax[3]);

/// Number of connected pieces (polygons joined through neighbour links) and,
/// for polygon p, its piece id (0-based, in order of lowest polygon id);
/// LDS_NAVMESH_NONE for an id out of range.
LDS_API uint32_t lds_navmesh_piece_count(const lds_Navmesh *m);
LDS_API uint32_t lds_navmesh_piece(const lds_Navmesh *m, uint32_t p);

/* ---------------------------------------------------- point location -- */

/// Height of polygon p's surface at (x, z) (see "Height" above); points
/// outside the polygon get the height of the nearest fan triangle's plane.
/// [Units: world units] @returns NaN for an id out of range.
LDS_API double lds_navmesh_poly_height(const lds_Navmesh *m, uint32_t p, double x, double z);

/// True when (x, z) lies in polygon p's x–z projection, boundary included
/// (within 1e-9 of the mesh's size).
LDS_API bool lds_navmesh_poly_contains(const lds_Navmesh *m, uint32_t p, double x, double z);

/// The polygon containing the point: among the polygons whose x–z
/// projection contains (x, z) (boundary included), the one whose height
/// there is closest to y, if within height_tol; ties go to the lowest id.
/// height_tol < 0 or NaN means "any height": no limit, the nearest in
/// height still chosen (the floor under a bridge is told from the bridge);
/// with any height and a non-finite y, the lowest id.
/// [Units: world units] @returns the polygon or LDS_NAVMESH_NONE.
LDS_API uint32_t lds_navmesh_locate(const lds_Navmesh *m, double x, double y, double z,
                                    double height_tol);

/// The polygon nearest to p within radius: the containing polygon (as
/// lds_navmesh_locate) if there is one, else, over the polygons, the point
/// nearest p in x–z at the polygon's height there (Detour's
/// closestPointOnPoly), the polygon whose such point is nearest p in 3-D,
/// if that distance is <= radius (ties: lowest id).
/// @param[in]  p       [Shape: 3 doubles] the point [Units: world units]
/// @param[in]  radius  search radius [Limit: >= 0, finite] [Units: world units]
/// @param[in]  height_tol as lds_navmesh_locate, for the containing test
/// @param[out] nearest [opt] [Shape: 3 doubles] the point on the polygon
/// @returns the polygon or LDS_NAVMESH_NONE (nothing within radius, bad radius).
LDS_API uint32_t lds_navmesh_nearest(const lds_Navmesh *m, const double p[3], double radius,
                                     double height_tol, double nearest[3]);

/* ------------------------------------------------------------ parsing -- */

/// Parses a mesh from text: the `.nav` format (first line that is not blank
/// or a comment starts with "navmesh") or a Wavefront OBJ polygon mesh (`v`
/// and `f` lines, faces = convex polygons; `f 1/2/3 ...` and negative
/// indices accepted; vt, vn, vp, o, g, s, usemtl, mtllib, l, p ignored;
/// neighbours computed from shared edges, area 0). Formats in
/// shared/data/navmesh/README.md; CRLF line ends accepted.
/// @param[in] text  [Shape: len bytes] (need not be NUL-terminated)
/// @param[in] name  [opt] name for messages ("(navmesh)" when NULL)
/// @returns the mesh or NULL with err: LDS_E_FORMAT "NAME:LINE: expected
///   ...", "NAME:LINE: binary data (...)"; LDS_E_ARG "NAME: lds_navmesh_new:
///   polygon 5: not convex ..." (the constructor's checks); LDS_E_LIMIT;
///   LDS_E_NOMEM. [Owner: caller frees with lds_navmesh_free]
LDS_API lds_Navmesh *lds_navmesh_parse(const lds_Env *env, const char *text, size_t len,
                                       const char *name, lds_Error *err);

/// Same from an lds_Reader, parsed line by line as the text arrives (one
/// buffer of at most a line, 65535 bytes, from env's allocator; at most
/// 1,048,576 comment or blank lines skipped), with lds_navmesh_parse's
/// results and messages; the reading layer's ("lds_navmesh_read: NAME:LINE:
/// binary data (...)", "... line longer than 65535 bytes (...)") name this
/// function. [Owner: caller frees with lds_navmesh_free]
LDS_API lds_Navmesh *lds_navmesh_read(const lds_Env *env, lds_Reader reader, void *ud,
                                      const char *name, lds_Error *err);

/* ------------------------------------------------------------ funnel -- */

/// One portal of a corridor: the segment a path must cross. For a corridor
/// of mesh polygons, the portal leaving a polygon across its edge k has
/// left = vertex k and right = vertex k+1 (canonical winding). In general:
/// with cross(u, w) = u.x*w.z − u.z*w.x, cross(right − q, left − q) >= 0
/// for the points q before the portal (the x–z plane, y ignored).
typedef struct lds_Portal {
  double left[3];  ///< [Units: world units]
  double right[3]; ///< [Units: world units]
} lds_Portal;

/// The funnel algorithm (string pulling; Lee & Preparata, "Euclidean
/// shortest paths in the presence of rectilinear barriers", Networks 1984,
/// in the "simple stupid funnel" form of M. Mononen, 2010): the shortest
/// x–z path from start to goal through the portals in order, as a polyline
/// whose inner points are portal endpoints. No waypoint is kept where the
/// path goes straight on (collinear corners are dropped, also on degenerate
/// portals of zero length and repeated points: recastnavigation#515). The y
/// of a corner is that of the portal endpoint it is.
/// @param[in]  start, goal [Shape: 3 doubles] [Units: world units]
/// @param[in]  portals     [Shape: n portals] [opt when n == 0]
/// @param[out] out         [opt] [Shape: cap * 3 doubles] the points, start and goal included
/// @param[in]  cap         room in out, in points
/// @param[out] n_out       the number of points of the path (also when it exceeds cap)
/// @returns LDS_OK, LDS_E_ARG (NULL start/goal/n_out, non-finite coordinates),
///   LDS_E_LIMIT (the path has more than cap points; out holds the first cap).
///   Allocates nothing.
LDS_API lds_Status lds_funnel(const double start[3], const double goal[3],
                              const lds_Portal *portals, size_t n, double *out, size_t cap,
                              size_t *n_out);

LDS_END_DECLS

#endif /* LDS_NAVMESH_H */
