/* SPDX-License-Identifier: MIT */
/*
** demo_world.c — the demo's map: connected components, doors on gaps in
** walls and their schedules, goals, the agents' start cells.
*/
#include "demo.h"

#include <stdlib.h>


/* Connected components under 4-connectivity, which is reachability for 4-
** and for 8-connected grids whose diagonal rule needs a free orthogonal. */
bool demo_label_components(Demo *d) {
  size_t n = (size_t)d->w * (size_t)d->h, head, tail, i;
  uint32_t *queue = (uint32_t *)malloc(n * sizeof(uint32_t));
  int32_t c = 0;
  if (!queue) return false;
  for (i = 0; i < n; i++) d->comp[i] = -1;
  for (i = 0; i < n; i++) {
    if (d->comp[i] >= 0 || lds_grid_blocked(d->g, (int32_t)(i % d->w), (int32_t)(i / d->w)))
      continue;
    head = tail = 0;
    queue[tail++] = (uint32_t)i;
    d->comp[i] = c;
    while (head < tail) {
      uint32_t u = queue[head++];
      int32_t x = (int32_t)(u % d->w), y = (int32_t)(u / d->w);
      int k;
      for (k = 0; k < 4; k++) { /* the orthogonal moves, N E S W */
        int32_t nx = x + lds_dir_dx[k], ny = y + lds_dir_dy[k];
        size_t v = (size_t)ny * d->w + nx;
        if (lds_grid_blocked(d->g, nx, ny) || d->comp[v] >= 0) continue;
        d->comp[v] = c;
        queue[tail++] = (uint32_t)v;
      }
    }
    c++;
  }
  free(queue);
  return true;
}

/* A door is a gap of 1..MAX_DOOR passable cells, in a row or a column, with
** blocked cells at both ends: closing it cuts a corridor or a gateway. */
#define MAX_DOOR 6

static bool find_gap(const lds_Grid *g, int32_t x, int32_t y, int horizontal, int32_t *x0,
                     int32_t *y0, int32_t *len) {
  int32_t dx = horizontal ? 1 : 0, dy = horizontal ? 0 : 1, a = 0, b = 0;
  while (a <= MAX_DOOR && !lds_grid_blocked(g, x - (a + 1) * dx, y - (a + 1) * dy)) a++;
  while (b <= MAX_DOOR && !lds_grid_blocked(g, x + (b + 1) * dx, y + (b + 1) * dy)) b++;
  if (a + b + 1 > MAX_DOOR) return false;
  if (!lds_grid_in_bounds(g, x - (a + 1) * dx, y - (a + 1) * dy) ||
      !lds_grid_in_bounds(g, x + (b + 1) * dx, y + (b + 1) * dy))
    return false; /* the map edge is not a wall a door hangs on */
  *x0 = x - a * dx;
  *y0 = y - a * dy;
  *len = a + b + 1;
  return true;
}

long demo_place_doors(Demo *d, long want) {
  long n = 0, tries;
  /* a bounded number of tries: a map has room for only so many doors 16
  ** cells apart (the caller warns when fewer than asked were placed) */
  for (tries = 0; n < want && tries < 20000L + 200L * (want < 1000 ? want : 1000); tries++) {
    int32_t x = rng_int(&d->rng, d->w), y = rng_int(&d->rng, d->h), x0, y0, len;
    int horizontal = rng_int(&d->rng, 2);
    long k;
    if (lds_grid_blocked(d->g, x, y)) continue;
    if (!find_gap(d->g, x, y, horizontal, &x0, &y0, &len)) continue;
    for (k = 0; k < n; k++)
      if (abs(d->doors[k].x - x0) + abs(d->doors[k].y - y0) < 16) break;
    if (k < n) continue;
    d->doors[n].x = x0;
    d->doors[n].y = y0;
    d->doors[n].len = len;
    d->doors[n].horizontal = horizontal != 0;
    d->doors[n].period = 180u + 60u * (uint32_t)rng_int(&d->rng, 4);
    d->doors[n].phase = (uint32_t)rng_int(&d->rng, (int32_t)d->doors[n].period);
    d->doors[n].closed = false;
    n++;
  }
  return n;
}

/* true when cell (x,y) belongs to door dr */
static bool door_has(const Door *dr, int32_t x, int32_t y) {
  if (dr->horizontal) return y == dr->y && x >= dr->x && x < dr->x + dr->len;
  return x == dr->x && y >= dr->y && y < dr->y + dr->len;
}

/* agents start on random passable cells, not on doors, spread over time */
void demo_place_agents(Demo *d, long idle) {
  long i;
  for (i = 0; i < d->nagents; i++) {
    Agent *a = &d->agents[i];
    long k;
    do {
      a->x = rng_int(&d->rng, d->w);
      a->y = rng_int(&d->rng, d->h);
      for (k = 0; k < d->ndoors; k++)
        if (door_has(&d->doors[k], a->x, a->y)) break;
    } while (lds_grid_blocked(d->g, a->x, a->y) || k < d->ndoors);
    a->state = AG_IDLE;
    a->wake = (uint64_t)rng_int(&d->rng, (int32_t)(2 * idle + 1));
    d->occupied[(size_t)a->y * d->w + a->x]++;
  }
}

bool demo_pick_goal(Demo *d, Agent *a) {
  int tries;
  int32_t c = d->comp[(size_t)a->y * d->w + a->x];
  for (tries = 0; tries < 32; tries++) {
    int32_t x, y;
    if (d->radius > 0) {
      x = a->x + rng_int(&d->rng, (int32_t)(2 * d->radius + 1)) - (int32_t)d->radius;
      y = a->y + rng_int(&d->rng, (int32_t)(2 * d->radius + 1)) - (int32_t)d->radius;
    } else {
      x = rng_int(&d->rng, d->w);
      y = rng_int(&d->rng, d->h);
    }
    if (!lds_grid_in_bounds(d->g, x, y) || lds_grid_blocked(d->g, x, y)) continue;
    if (d->comp[(size_t)y * d->w + x] != c || (x == a->x && y == a->y)) continue;
    a->gx = x;
    a->gy = y;
    return true;
  }
  return false;
}

/* Doors follow their schedules; a door does not close on an agent. */
void demo_update_doors(Demo *d, uint64_t frame, char *log, size_t *loglen, size_t logcap) {
  long k;
  for (k = 0; k < d->ndoors; k++) {
    Door *dr = &d->doors[k];
    bool want_closed = ((frame + dr->phase) % dr->period) < dr->period / 2;
    int32_t j, dx = dr->horizontal ? 1 : 0, dy = dr->horizontal ? 0 : 1;
    bool busy = false;
    if (want_closed == dr->closed) continue;
    for (j = 0; j < dr->len; j++)
      if (d->occupied[(size_t)(dr->y + j * dy) * d->w + dr->x + j * dx]) busy = true;
    if (want_closed && busy) continue; /* a door does not close on an agent */
    for (j = 0; j < dr->len; j++)
      lds_grid_set_blocked(d->g, dr->x + j * dx, dr->y + j * dy, want_closed);
    dr->closed = want_closed;
    d->door_toggles++;
    if (*loglen + 32 < logcap)
      *loglen += (size_t)snprintf(log + *loglen, logcap - *loglen, " d%ld:%d", k, (int)want_closed);
  }
}
