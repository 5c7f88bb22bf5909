/* SPDX-License-Identifier: MIT */
/*
** lds_io.h — the optional file part of lodestar: Moving AI .map/.scen files
** DIMACS road graphs (plain or gzip-compressed) and navigation meshes
** (.nav, OBJ) read from disk.
**
** The core library (liblodestar) parses text in memory or from an
** lds_Reader and does no file I/O; these functions open the files, feed
** them to the core's reader parsers and report file errors by path. They
** live in build/liblodestar_io.a, which links zlib: link it before the core,
** `-llodestar_io -llodestar -lz -lm` (pkg-config lodestar-io). A game that
** reads its maps its own way (archives, memory) leaves it out and links
** `-llodestar -lm` alone.
**
** Messages keep the core parsers' wording, with the function named:
** "lds_map_load: cannot open PATH (why)", "lds_map_load: cannot read PATH
** (why)", "lds_map_load: PATH:LINE: binary data (...)", format errors
** "PATH:LINE: expected ...".
*/
#ifndef LDS_IO_H
#define LDS_IO_H

#include "lds_common.h"
#include "lds_graph.h"
#include "lds_grid.h"
#include "lds_movingai.h"
#include "lds_navmesh.h"

LDS_BEGIN_DECLS

/// Loads a Moving AI .map file into a new grid (8-connected,
/// no_corner_cutting), as lds_map_parse parses its text.
/// @returns NULL with err: LDS_E_ARG ("lds_map_load: path is NULL"),
/// LDS_E_IO ("lds_map_load: cannot open|cannot read PATH (system error)"),
/// LDS_E_FORMAT ("PATH:LINE: expected ...", or "lds_map_load: PATH:LINE:
/// binary data (a NUL byte at offset N; expected a text file)", reading
/// stopped there), LDS_E_NOMEM ("lds_map_load: out of memory reading PATH",
/// or the parser's). [Owner: caller frees with lds_grid_free]
LDS_API lds_Grid *lds_map_load(const lds_Env *env, const char *path, lds_Error *err);

/// Loads a Moving AI .scen file, as lds_scen_parse parses its text; errors
/// as lds_map_load's, named "lds_scen_load: ...".
/// [Owner: caller frees with lds_scen_free]
LDS_API lds_Scenario *lds_scen_load(const lds_Env *env, const char *path, lds_Error *err);

/// Loads a DIMACS graph (see lds_graph_parse_dimacs for the format) from
/// the `.gr` file and, if co_path is not NULL, the `.co` file. Files are read
/// through zlib, which passes plain files through unchanged, so gzip-
/// compressed files load too (any name).
/// @returns a frozen graph or NULL with err: LDS_E_ARG ("lds_graph_load_dimacs:
///   gr_path is NULL"), LDS_E_IO ("lds_graph_load_dimacs: cannot open|cannot
///   read PATH (why)"), LDS_E_FORMAT ("PATH:LINE: expected ...", or
///   "lds_graph_load_dimacs: PATH:LINE: binary data (a NUL byte at offset N;
///   ...)", the line and offset in the decompressed text), LDS_E_NOMEM
///   ("lds_graph_load_dimacs: out of memory reading PATH (N bytes)", or
///   "lds_graph_load_dimacs: PATH:LINE: out of memory for N nodes and M arcs").
///   [Owner: caller frees with lds_graph_free]
LDS_API lds_Graph *lds_graph_load_dimacs(const lds_Env *env, const char *gr_path,
                                         const char *co_path, lds_Error *err);

/// Loads a navigation mesh file, `.nav` or Wavefront OBJ (told apart by
/// content, see lds_navmesh_parse); errors as lds_map_load's, named
/// "lds_navmesh_load: ...", the mesh's checks as "PATH: lds_navmesh_new: ...".
/// [Owner: caller frees with lds_navmesh_free]
LDS_API lds_Navmesh *lds_navmesh_load(const lds_Env *env, const char *path, lds_Error *err);

LDS_END_DECLS

#endif /* LDS_IO_H */
