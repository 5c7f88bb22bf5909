/* SPDX-License-Identifier: MIT */
/*
** lds_path.c — path values.
*/
#include "lds_path.h"
#include "lds_internal.h"

#include <string.h>

struct lds_Path {
  ldsi_Env env;
  size_t n;
  int32_t width;
  uint32_t flags;
  double cost;
  uint32_t nodes[]; /* n ids */
};

lds_Path *lds_path_new(const lds_Env *env, const uint32_t *nodes, size_t count, int32_t width,
                       double cost, uint32_t flags, lds_Error *err) {
  ldsi_Env e;
  lds_Path *p;
  ldsi_env_resolve(&e, env);
  if (count > ((size_t)-1 - sizeof *p) / sizeof(uint32_t)) {
    ldsi_error(err, LDS_E_ARG, "lds_path_new: count %zu too large", count);
    return NULL;
  }
  p = (lds_Path *)ldsi_alloc(&e, sizeof *p + count * sizeof(uint32_t));
  if (!p) {
    ldsi_error(err, LDS_E_NOMEM, "lds_path_new: out of memory for %zu nodes", count);
    return NULL;
  }
  p->env = e;
  p->n = count;
  p->width = width;
  p->flags = flags;
  p->cost = cost;
  if (count) memcpy(p->nodes, nodes, count * sizeof(uint32_t));
  ldsi_error_clear(err);
  return p;
}

static lds_Env env_of(const lds_Path *p) { return ldsi_env_public(&p->env); }

lds_Path *lds_path_sub(const lds_Path *p, size_t i, size_t j, double cost, lds_Error *err) {
  lds_Env e;
  if (i > j || j >= p->n) {
    ldsi_error(err, LDS_E_ARG, "lds_path_sub: range %zu..%zu out of bounds (path has %zu nodes)",
               i, j, p->n);
    return NULL;
  }
  e = env_of(p);
  return lds_path_new(&e, p->nodes + i, j - i + 1, p->width, cost,
                      (j == p->n - 1) ? p->flags : 0, err);
}

lds_Path *lds_path_reverse(const lds_Path *p, double cost, lds_Error *err) {
  lds_Path *r = (lds_Path *)ldsi_alloc(&p->env, sizeof *r + p->n * sizeof(uint32_t));
  size_t k;
  if (!r) {
    ldsi_error(err, LDS_E_NOMEM, "lds_path_reverse: out of memory for %zu nodes", p->n);
    return NULL;
  }
  *r = *p; /* header only: the flexible array is filled below */
  r->cost = cost;
  for (k = 0; k < p->n; k++) r->nodes[k] = p->nodes[p->n - 1 - k];
  ldsi_error_clear(err);
  return r;
}

void lds_path_free(lds_Path *p) {
  if (p) ldsi_free(&p->env, p, sizeof *p + p->n * sizeof(uint32_t));
}

size_t lds_path_length(const lds_Path *p) { return p->n; }
double lds_path_cost(const lds_Path *p) { return p->cost; }
uint32_t lds_path_flags(const lds_Path *p) { return p->flags; }
int32_t lds_path_width(const lds_Path *p) { return p->width; }
const uint32_t *lds_path_nodes(const lds_Path *p) { return p->nodes; }

uint32_t lds_path_node(const lds_Path *p, size_t i) { return i < p->n ? p->nodes[i] : UINT32_MAX; }

bool lds_path_cell(const lds_Path *p, size_t i, int32_t *x, int32_t *y) {
  if (i >= p->n || p->width <= 0) return false;
  if (x) *x = (int32_t)(p->nodes[i] % (uint32_t)p->width);
  if (y) *y = (int32_t)(p->nodes[i] / (uint32_t)p->width);
  return true;
}
