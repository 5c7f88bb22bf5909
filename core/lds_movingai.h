/* SPDX-License-Identifier: MIT */
/*
** lds_movingai.h — Moving AI Lab benchmark files: .map grids and .scen
** scenario lists (Sturtevant, "Benchmarks for Grid-Based Pathfinding",
** IEEE TCIAIG 4(2) 2012).
**
** Map cells: '.', 'G' and 'S' are passable; '@', 'O', 'T', 'W' and any other
** character are blocked, as in the benchmark's own code. The character is
** kept (lds_grid_terrain) so rules can give 'T' or 'W' a cost later.
** Accepted variants: "version 1" with tabs and "version 1.0" with spaces,
** CRLF line endings, trailing blank lines, a map column holding a path.
** Errors name the file and line: "maps/x.map:7: expected 'width N'".
** The parsers take text in memory or from an lds_Reader; reading files is
** the optional io part (io/lds_io.h: lds_map_load, lds_scen_load).
** Both read the text line by line and keep only what they parse. A map ends
** after its H rows (then at most 64 KiB of blank lines), a scenario has at
** most LDS_SCEN_MAX_ENTRIES problems; from a reader, a line also has at most
** 65535 bytes (a map row at most its width + 65535) and at most 1,048,576
** blank lines are skipped; so an endless source (a pipe, /dev/zero) stops
** with an error naming the line instead of filling memory.
*/
#ifndef LDS_MOVINGAI_H
#define LDS_MOVINGAI_H

#include "lds_common.h"
#include "lds_grid.h"

LDS_BEGIN_DECLS

typedef struct lds_Scenario lds_Scenario;

/// The most problems a scenario holds (1,048,576; the benchmark's largest
/// file here has 11,960): one more is LDS_E_LIMIT "NAME:LINE: more than N
/// problems", so an endless stream of valid lines ends.
#define LDS_SCEN_MAX_ENTRIES (1u << 20)

/// One benchmark problem.
typedef struct lds_ScenEntry {
  int32_t bucket;
  int32_t map_width, map_height; ///< [Units: cells] size the problem expects
  int32_t sx, sy, gx, gy;        ///< [Units: cells]
  double optimal;                ///< optimal length as printed [Units: cost]
  double tolerance;              ///< half a unit of the last printed digit
  const char *map;               ///< map file name (directory dropped) [Owner: scenario]
} lds_ScenEntry;

/* --------------------------------------------------------------- map -- */

/// Parses map text already in memory (len bytes, no NUL terminator needed;
/// the text is not kept) into a new grid (8-connected, no_corner_cutting,
/// version 0); `name` is used in error messages, "(map)" when NULL.
/// @returns NULL with err: LDS_E_FORMAT ("name:line: expected ...", for a
/// NUL byte "name:line: binary data (a NUL byte at offset N; expected a text
/// file)", for a line past the limit above "name:line: line longer than N
/// bytes (expected ...)", text after the rows "name:line: unexpected text
/// after the H map rows"), LDS_E_NOMEM. Errors come in the order of the
/// lines.
/// [Owner: caller frees with lds_grid_free]
LDS_API lds_Grid *lds_map_parse(const lds_Env *env, const char *text, size_t len,
                                const char *name, lds_Error *err);
/// Same as lds_map_parse, with the text from a reader (pieces of any size,
/// see lds_Reader), called until it signals the end or the parse fails; the
/// text is parsed line by line as it arrives, through one buffer of at most
/// the longest accepted line (from env's allocator; 64 KiB first), so the
/// memory is the grid's and that line's, whatever the reader gives. The
/// result and messages are lds_map_parse's for the same text; the reading
/// layer's messages name this function. Files: lds_map_load (io/lds_io.h).
/// @returns NULL with err: LDS_E_ARG ("lds_map_read: reader is NULL"),
/// LDS_E_NOMEM ("lds_map_read: out of memory reading NAME", or the
/// parser's), LDS_E_FORMAT (the parser's messages; "lds_map_read:
/// NAME:LINE: binary data (a NUL byte at offset N; expected a text file)",
/// "lds_map_read: NAME:LINE: line longer than N bytes (expected ...)", each
/// as soon as the bytes arrive). [Owner: caller frees with lds_grid_free]
LDS_API lds_Grid *lds_map_read(const lds_Env *env, lds_Reader reader, void *ud, const char *name,
                               lds_Error *err);
/// true for the characters a ground agent may stand on ('.', 'G', 'S').
LDS_API bool lds_map_passable_char(char c);

/* -------------------------------------------------------------- scen -- */

/// Parses scenario text in memory; `name` is used in error messages. A NUL
/// byte is LDS_E_FORMAT "name:line: binary data (a NUL byte at offset N;
/// expected a text file)". `name` is "(scen)" when NULL; the text is not
/// kept (map names are copied).
/// @returns NULL with err: LDS_E_FORMAT ("name:line: expected 9 fields
/// ..."), LDS_E_LIMIT (more than LDS_SCEN_MAX_ENTRIES problems),
/// LDS_E_NOMEM. [Owner: caller frees with lds_scen_free]
LDS_API lds_Scenario *lds_scen_parse(const lds_Env *env, const char *text, size_t len,
                                     const char *name, lds_Error *err);
/// Same as lds_scen_parse, with the text from a reader (see lds_map_read:
/// line by line, the same bounded buffer and messages, "lds_scen_read: ..."). Files:
/// lds_scen_load (io/lds_io.h). [Owner: caller frees with lds_scen_free]
LDS_API lds_Scenario *lds_scen_read(const lds_Env *env, lds_Reader reader, void *ud,
                                    const char *name, lds_Error *err);
/// Frees a scenario and its entries' map names. NULL is ignored.
LDS_API void lds_scen_free(lds_Scenario *sc);
/// Number of problems (data lines) in the scenario.
LDS_API size_t lds_scen_count(const lds_Scenario *sc);
/// Problem i (0-based); NULL when out of range. [Owner: scenario]
LDS_API const lds_ScenEntry *lds_scen_entry(const lds_Scenario *sc, size_t i);
/// true when cost matches the entry's optimal length within the printed
/// precision: it rounds to the printed value (|cost - optimal| <= tolerance
/// + slack) or truncates to it (0 <= cost - optimal < 2*tolerance + slack),
/// slack = 1e-9 * max(optimal, 1). The benchmark files do both, and were
/// computed with sqrt(2) cut to about 9 decimals.
LDS_API bool lds_scen_matches(const lds_ScenEntry *e, double cost);

LDS_END_DECLS

#endif
