/*
** lds_jps_internal.h — the hooks between the search core (lds_search.c) and
** Jump Point Search (lds_jps.c). Hidden; not installed.
*/
#ifndef LDS_JPS_INTERNAL_H
#define LDS_JPS_INTERNAL_H

#include "lds_search_internal.h"

/* Called by lds_search_start for LDS_ALGO_JPS / LDS_ALGO_JPS_PLUS after the
** generic set-up (heuristic, scale, generation) and before the start node is
** pushed: builds the bit grids / tables on first use (may allocate), sets
** s->run to the JPS loop, or leaves the A* loop in place when JPS does not
** apply. Returns LDS_OK or LDS_E_NOMEM (message in s->errmsg). */
LDSI_HIDDEN lds_Status ldsi_jps_start(lds_Search *s);

/* true when the current query's parent links join jump points (not cells). */
LDSI_HIDDEN bool ldsi_jps_sparse(const lds_Search *s);

/* Builds the path ending at node `end` by walking parents; each parent link
** is a straight or diagonal line, filled in cell by cell unless `sparse`. */
LDSI_HIDDEN lds_Path *ldsi_jps_build_path(const lds_Search *s, uint32_t end, uint32_t flags,
                                          bool sparse, lds_Error *err);

#endif
