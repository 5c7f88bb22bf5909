/* SPDX-License-Identifier: MIT */
/*
** test_scheduler_errors.c — a request whose search cannot start fails alone
** with a message in the scheduler's words: the call that ran it
** (lds_scheduler_step) and the lds_Request field at fault (a cell its layer
** weights make cost <= 0: params.layer_weights, with the cell, the layer
** and the weight), never the search object's internal function name.
*/
#include "harness.h"
#include "lds.h"

#include <math.h>

void suite_scheduler_errors(void);
void suite_scheduler_errors(void) {
  lds_Grid *g = lds_grid_new(NULL, 5, 3, NULL);
  lds_Scheduler *sc = lds_scheduler_new(NULL, NULL, NULL);
  lds_Request rq;
  lds_RequestId bad, good, inf;
  double w = -1.0, wn = HUGE_VAL;
  int road, x;
  CHECK(g != NULL && sc != NULL);
  if (!g || !sc) return;
  CHECK_INT(lds_grid_layer_add(g, "road", &road), LDS_OK);
  for (x = 0; x < 5; x++) lds_grid_layer_set(g, road, x, 2, 1.0f);
  CHECK_INT(lds_scheduler_add_grid(sc, g, 1), LDS_OK);
  lds_request_init(&rq, g, 0, 0, 4, 0);
  rq.params.layer_weights = &w;
  rq.params.n_layer_weights = 1; /* road = -1: the road cells cost 0 */
  CHECK_INT(lds_scheduler_submit(sc, &rq, &bad), LDS_OK);
  rq.params.layer_weights = &wn; /* not finite */
  CHECK_INT(lds_scheduler_submit(sc, &rq, &inf), LDS_OK);
  lds_request_init(&rq, g, 0, 0, 4, 0);
  CHECK_INT(lds_scheduler_submit(sc, &rq, &good), LDS_OK);
  CHECK_INT(lds_scheduler_step(sc, NULL, NULL), LDS_OK);
  CHECK_INT(lds_scheduler_status(sc, bad), LDS_E_ARG);
  CHECK_STR(lds_scheduler_request_errmsg(sc, bad),
            "lds_scheduler_step: request params.layer_weights: cell (0,2) has cost 0 under the "
            "layer weights (base 1, layer 'road' value 1 x weight -1; expected finite, > 0)");
  CHECK_INT(lds_scheduler_status(sc, inf), LDS_E_ARG);
  CHECK_STR(lds_scheduler_request_errmsg(sc, inf),
            "lds_scheduler_step: request params.layer_weights: weight of layer 'road' is inf "
            "(expected finite)");
  CHECK_INT(lds_scheduler_status(sc, good), LDS_FOUND);
  CHECK_STR(lds_scheduler_request_errmsg(sc, good), "");
  lds_scheduler_free(sc);
  lds_grid_free(g);
}
