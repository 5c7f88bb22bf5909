/*
** lds_dstar_internal.h — hooks between the D* Lite core (lds_dstar.c) and
** its graph front end (lds_dstar_graph.c) (hidden).
*/
#ifndef LDS_DSTAR_INTERNAL_H
#define LDS_DSTAR_INTERNAL_H

#include "lds_dstar.h"
#include "lds_internal.h"

/* Allocates and initialises a D* Lite search on a frozen graph (arguments
** already checked): zero_h forces h = 0; h_scale > 0 fixes the scale, 0
** asks for the automatic one. NULL with err (LDS_E_NOMEM) on failure. */
LDSI_HIDDEN lds_DStar *ldsi_dstar_graph_new(const ldsi_Env *e, const lds_Graph *graph,
                                            uint32_t start, uint32_t goal, bool zero_h,
                                            double h_scale, lds_Error *err);
/* the graph of a graph search, NULL for a grid search */
LDSI_HIDDEN const lds_Graph *ldsi_dstar_graph(const lds_DStar *ds);
/* the slot holding the graph the search listens to */
LDSI_HIDDEN lds_Graph **ldsi_dstar_glistened(lds_DStar *ds);
/* the search's error message buffer (LDS_ERRMSG_SIZE bytes) */
LDSI_HIDDEN char *ldsi_dstar_errbuf(lds_DStar *ds);
/* queues node (its out-edges changed) for the next compute */
LDSI_HIDDEN void ldsi_dstar_graph_touch(lds_DStar *ds, uint32_t node);
/* moves the start to node, adding h(last, node) to k_m */
LDSI_HIDDEN void ldsi_dstar_graph_move(lds_DStar *ds, uint32_t node);
/* the node after the start on the current path */
LDSI_HIDDEN lds_Status ldsi_dstar_graph_next(const lds_DStar *ds, uint32_t *node);

#endif
