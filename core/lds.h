/* SPDX-License-Identifier: MIT */
/*
** lds.h — umbrella header for the lodestar core: include this one.
*/
#ifndef LDS_H
#define LDS_H

#include "lds_config.h"
#include "lds_common.h"
#include "lds_directions.h"
#include "lds_grid.h"
#include "lds_cost_view.h"
#include "lds_graph.h"
#include "lds_path.h"
#include "lds_search.h"
#include "lds_dstar.h"
#include "lds_jps.h"
#include "lds_grid_funnel.h"
#include "lds_grid_mesh.h"
#include "lds_hpa.h"
#include "lds_movingai.h"
#include "lds_navmesh.h"
#include "lds_navmesh_search.h"
#include "lds_postprocess.h"
#include "lds_scheduler.h"
#include "lds_debug_draw.h"
#include "lds_components.h"
#include "lds_path_cache.h"

#endif
