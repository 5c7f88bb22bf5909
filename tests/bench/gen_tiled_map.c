/* SPDX-License-Identifier: MIT */
/*
** gen_tiled_map.c — deterministic big maps for the hierarchy benchmark
** (tests/bench/bench_hier.sh): a SIZE x SIZE Moving AI map made of TILE x
** TILE tiles cut from real game and city maps, with openings between tiles.
**
**   gen_tiled_map SET SIZE SEED OUT.map MAP...
**
** SET is a label written into nothing but the usage (street or dao); SIZE
** a multiple of TILE (256); MAP... the source .map files (e.g. Berlin_0_1024
** and Berlin_0_256 for street, brc202d den011d ost003d lak303d hrt201n for
** Dragon Age). Tile (i, j) is taken from source number h % nsrc at offset
** (h2 % (w - TILE + 1), h3 % (h - TILE + 1)) and turned by (h4 % 8) of the
** 8 rotations and mirrors, h.. being a 64-bit mix of (SEED, i, j); a source
** smaller than a tile is placed at the tile's top-left corner on a blocked
** ground. Every cell whose character is '.', 'G' or 'S' is passable ('.'),
** any other is blocked ('@'). Openings: on each edge between two tiles, at
** a quarter, half and three quarters of its length, a gap 4 cells wide and
** 16 cells deep (8 on each side) is cleared, so tiles connect through their
** borders as rooms through doors; and a road 2 cells wide runs along the
** middle row and the middle column of every tile (so most regions of a tile
** reach the next tiles, and far pairs have paths). The same arguments give the same file,
** byte for byte. Only the generator is kept in the repository, not maps.
** Exit status: 0, 2 on bad arguments or unreadable input.
*/
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TILE 256

typedef struct Src {
  int w, h;
  char *cells; /* '.' or '@' */
} Src;

static uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  x ^= x >> 31;
  return x;
}

static int load(const char *path, Src *s) {
  FILE *f = fopen(path, "r");
  char line[8192];
  int y = 0, in_map = 0;
  if (!f) {
    fprintf(stderr, "gen_tiled_map: cannot open %s\n", path);
    return -1;
  }
  s->w = s->h = 0;
  s->cells = NULL;
  while (fgets(line, sizeof line, f)) {
    if (!in_map) {
      if (sscanf(line, "height %d", &s->h) == 1) continue;
      if (sscanf(line, "width %d", &s->w) == 1) continue;
      if (strncmp(line, "map", 3) == 0) {
        if (s->w <= 0 || s->h <= 0) break;
        s->cells = malloc((size_t)s->w * (size_t)s->h);
        if (!s->cells) break;
        in_map = 1;
      }
      continue;
    }
    if (y < s->h) {
      int x;
      for (x = 0; x < s->w; x++) {
        char c = x < (int)strlen(line) ? line[x] : '@';
        s->cells[(size_t)y * (size_t)s->w + (size_t)x] = (c == '.' || c == 'G' || c == 'S') ? '.' : '@';
      }
      y++;
    }
  }
  fclose(f);
  if (!in_map || y != s->h) {
    fprintf(stderr, "gen_tiled_map: %s is not a Moving AI map (header or %d rows expected)\n",
            path, s->h);
    return -1;
  }
  return 0;
}

int main(int argc, char **argv) {
  int size, n, i, j, k;
  uint64_t seed;
  Src *src;
  char *out;
  FILE *f;
  if (argc < 6) {
    fprintf(stderr, "usage: gen_tiled_map SET SIZE SEED OUT.map MAP...\n");
    return 2;
  }
  size = atoi(argv[2]);
  seed = strtoull(argv[3], NULL, 10);
  if (size < TILE || size % TILE) {
    fprintf(stderr, "gen_tiled_map: SIZE %s must be a positive multiple of %d\n", argv[2], TILE);
    return 2;
  }
  n = argc - 5;
  src = calloc((size_t)n, sizeof *src);
  for (k = 0; k < n; k++)
    if (load(argv[5 + k], &src[k]) != 0) return 2;
  out = malloc((size_t)size * (size_t)size);
  memset(out, '@', (size_t)size * (size_t)size);
  for (j = 0; j < size / TILE; j++)
    for (i = 0; i < size / TILE; i++) {
      uint64_t h = mix(seed * 0x9e3779b97f4a7c15ull + (uint64_t)j * 65537u + (uint64_t)i);
      const Src *s = &src[h % (uint64_t)n];
      uint64_t h2 = mix(h + 1), h3 = mix(h + 2), h4 = mix(h + 3);
      int ox = s->w > TILE ? (int)(h2 % (uint64_t)(s->w - TILE + 1)) : 0;
      int oy = s->h > TILE ? (int)(h3 % (uint64_t)(s->h - TILE + 1)) : 0;
      int t = (int)(h4 % 8), x, y;
      for (y = 0; y < TILE; y++)
        for (x = 0; x < TILE; x++) {
          /* (x, y) of the tile comes from (u, v) of the source window */
          int u = (t & 1) ? TILE - 1 - x : x, v = (t & 2) ? TILE - 1 - y : y, sx, sy;
          if (t & 4) {
            int tmp = u;
            u = v;
            v = tmp;
          }
          sx = ox + u;
          sy = oy + v;
          if (sx < s->w && sy < s->h)
            out[(size_t)(j * TILE + y) * (size_t)size + (size_t)(i * TILE + x)] =
                s->cells[(size_t)sy * (size_t)s->w + (size_t)sx];
        }
    }
  /* roads: a 2-wide road along the middle row and the middle column of
  ** every tile, so that the regions of a tile that touch them join the
  ** roads of the next tiles */
  for (j = 0; j < size / TILE; j++)
    for (i = 0; i < size / TILE; i++) {
      int a, d;
      for (a = 0; a < TILE; a++)
        for (d = 0; d < 2; d++) {
          out[(size_t)(j * TILE + TILE / 2 - 1 + d) * (size_t)size + (size_t)(i * TILE + a)] = '.';
          out[(size_t)(j * TILE + a) * (size_t)size + (size_t)(i * TILE + TILE / 2 - 1 + d)] = '.';
        }
    }
  /* openings: 4 wide, 8 deep on each side, at 1/4, 1/2 and 3/4 of each inner edge */
  for (j = 0; j < size / TILE; j++)
    for (i = 0; i < size / TILE; i++) {
      int q, a, d;
      for (q = 1; q <= 3; q++) {
        int at = q * TILE / 4 - 2;
        if (i + 1 < size / TILE) /* vertical edge at x = (i + 1) * TILE */
          for (a = 0; a < 4; a++)
            for (d = -8; d < 8; d++)
              out[(size_t)(j * TILE + at + a) * (size_t)size + (size_t)((i + 1) * TILE + d)] = '.';
        if (j + 1 < size / TILE) /* horizontal edge at y = (j + 1) * TILE */
          for (a = 0; a < 4; a++)
            for (d = -8; d < 8; d++)
              out[(size_t)((j + 1) * TILE + d) * (size_t)size + (size_t)(i * TILE + at + a)] = '.';
      }
    }
  f = fopen(argv[4], "w");
  if (!f) {
    fprintf(stderr, "gen_tiled_map: cannot write %s\n", argv[4]);
    return 2;
  }
  fprintf(f, "type octile\nheight %d\nwidth %d\nmap\n", size, size);
  for (j = 0; j < size; j++) {
    fwrite(out + (size_t)j * (size_t)size, 1, (size_t)size, f);
    fputc('\n', f);
  }
  if (fclose(f) != 0) {
    fprintf(stderr, "gen_tiled_map: cannot write %s\n", argv[4]);
    return 2;
  }
  for (k = 0; k < n; k++) free(src[k].cells);
  free(src);
  free(out);
  (void)argv[1];
  return 0;
}
