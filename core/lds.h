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
#include "lds_graph.h"
#include "lds_path.h"
#include "lds_search.h"
#include "lds_dstar.h"
#include "lds_jps.h"
#include "lds_hpa.h"
#include "lds_movingai.h"
#include "lds_postprocess.h"
#include "lds_scheduler.h"

#endif
