/* SPDX-License-Identifier: MIT */
/*
** core_only.c — a game that uses grids alone and reads its maps itself:
** built by tests/link_test.sh with the core library and libm only
** (`cc -Icore core_only.c liblodestar.a -lm`, and against liblodestar.so),
** so a file or zlib call creeping into core/ fails the link.
** The map comes through an lds_Reader in 5-byte pieces, as from an archive.
*/
#include "lds.h"

#include <stdio.h>
#include <string.h>

static const char map_text[] =
    "type octile\nheight 4\nwidth 6\nmap\n"
    "......\n"
    ".@@@@.\n"
    ".@..@.\n"
    "......\n";

typedef struct Pieces {
  const char *p;
  size_t left;
} Pieces;

static const char *next_piece(void *ud, size_t *size) {
  Pieces *r = (Pieces *)ud;
  *size = r->left < 5 ? r->left : 5;
  r->p += *size;
  r->left -= *size;
  return *size ? r->p - *size : NULL;
}

int main(void) {
  lds_Error err;
  Pieces r = {map_text, sizeof map_text - 1};
  lds_Grid *grid = lds_map_read(NULL, next_piece, &r, "mem.map", &err);
  lds_Search *s;
  lds_Path *p;
  lds_Status st;
  if (!grid) {
    printf("%s\n", err.msg);
    return 1;
  }
  s = lds_search_new(NULL, grid, &err);
  if (!s) {
    printf("%s\n", err.msg);
    return 1;
  }
  lds_search_start(s, NULL, 0, 0, 5, 3);
  while ((st = lds_search_step(s, &(lds_Budget){100, 0})) == LDS_RUNNING) {
  }
  p = st == LDS_FOUND ? lds_search_path(s, &err) : NULL;
  if (p) printf("%zu cells, cost %.3f\n", lds_path_length(p), lds_path_cost(p));
  else printf("%s\n", lds_status_name(st));
  lds_path_free(p);
  lds_search_free(s);
  lds_grid_free(grid);
  return 0;
}
