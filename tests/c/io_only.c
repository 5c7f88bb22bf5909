/* SPDX-License-Identifier: MIT */
/*
** io_only.c — the io library over the shared core: built by
** tests/link_test.sh with liblodestar_io.a, -llodestar (the .so) and -lz,
** so io/ using anything but the core's public (exported) API fails the link.
** argv[1]: a Moving AI map; prints its size.
*/
#include "lds.h"
#include "lds_io.h"

#include <stdio.h>

int main(int argc, char **argv) {
  lds_Error err;
  lds_Grid *g = lds_map_load(NULL, argc > 1 ? argv[1] : NULL, &err);
  if (!g) {
    printf("%s\n", err.msg);
    return 1;
  }
  printf("%dx%d\n", (int)lds_grid_width(g), (int)lds_grid_height(g));
  lds_grid_free(g);
  return 0;
}
