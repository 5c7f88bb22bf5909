/* SPDX-License-Identifier: MIT */
/*
** test_reader.c — the core's reader parsers (lds_map_read, lds_scen_read,
** lds_graph_read_dimacs): text fed in pieces of any size, down to 1 byte,
** gives the same grid, scenario or graph, and the same messages, as the
** text parsed at once; a NUL byte stops an endless reader; out of memory
** leaks nothing.
*/
#include "harness.h"
#include "lds.h"

#include <stdio.h>
#include <string.h>

/* A reader over text in memory in pieces of `piece` bytes; counts calls. */
typedef struct Chunks {
  const char *p;
  size_t left, piece;
  long calls;
} Chunks;

static const char *chunk_read(void *ud, size_t *size) {
  Chunks *c = (Chunks *)ud;
  c->calls++;
  *size = c->left < c->piece ? c->left : c->piece;
  c->p += *size;
  c->left -= *size;
  return *size ? c->p - *size : NULL;
}

static Chunks chunks(const char *text, size_t len, size_t piece) {
  Chunks c;
  c.p = text;
  c.left = len;
  c.piece = piece;
  c.calls = 0;
  return c;
}

/* An endless source of zero bytes. */
static const char *zeros_read(void *ud, size_t *size) {
  static const char z[4096];
  (*(long *)ud)++;
  *size = sizeof z;
  return z;
}

/* One piece, then a non-NULL pointer with size 0: the end. */
static const char *empty_end_read(void *ud, size_t *size) {
  int *state = (int *)ud;
  static const char text[] = "type octile\nheight 1\nwidth 2\nmap\n.@\nTHIS IS NOT READ";
  if ((*state)++ == 0) {
    *size = strlen("type octile\nheight 1\nwidth 2\nmap\n.@\n");
    return text;
  }
  *size = 0;
  return text + 5;
}

static const size_t pieces[] = {1, 2, 3, 7, 64, 4095, 65536, 1u << 20};
#define NPIECES (sizeof pieces / sizeof pieces[0])

static const char map_text[] =
    "type octile\r\nheight 3\r\nwidth 5\r\nmap\r\n"
    ".@T.G\r\n"
    "..W.S\r\n"
    "@...O\r\n\r\n";

static bool same_grid(const lds_Grid *a, const lds_Grid *b) {
  int32_t x, y;
  if (lds_grid_width(a) != lds_grid_width(b) || lds_grid_height(a) != lds_grid_height(b))
    return false;
  for (y = 0; y < lds_grid_height(a); y++)
    for (x = 0; x < lds_grid_width(a); x++)
      if (lds_grid_terrain(a, x, y) != lds_grid_terrain(b, x, y) ||
          lds_grid_blocked(a, x, y) != lds_grid_blocked(b, x, y))
        return false;
  return true;
}

static void test_map_pieces(void) {
  lds_Error err;
  lds_Grid *want = lds_map_parse(NULL, map_text, sizeof map_text - 1, "m.map", &err);
  size_t i;
  CHECK(want != NULL);
  if (!want) return;
  CHECK_INT(lds_grid_width(want), 5);
  CHECK_INT(lds_grid_terrain(want, 2, 1), 'W');
  for (i = 0; i < NPIECES; i++) {
    Chunks c = chunks(map_text, sizeof map_text - 1, pieces[i]);
    lds_Grid *g = lds_map_read(NULL, chunk_read, &c, "m.map", &err);
    CHECK(g != NULL);
    if (!g) continue;
    CHECK(same_grid(g, want));
    CHECK_INT(lds_grid_version(g), 0);
    CHECK_INT(err.code, LDS_OK);
    /* read to the end: one call per piece and the one that says "end" */
    CHECK_INT(c.calls, (long)((sizeof map_text - 1 + pieces[i] - 1) / pieces[i]) + 1);
    lds_grid_free(g);
  }
  lds_grid_free(want);
}

/* A real benchmark map, read from disk by the test, fed 1 byte at a time. */
static void test_map_file_bytewise(void) {
  static char text[1 << 16];
  size_t n;
  lds_Error err;
  lds_Grid *a, *b;
  Chunks c;
  FILE *f = fopen("tests/data/arena.map", "rb");
  CHECK(f != NULL);
  if (!f) return;
  n = fread(text, 1, sizeof text, f);
  fclose(f);
  CHECK(n > 2000 && n < sizeof text);
  a = lds_map_parse(NULL, text, n, "arena.map", &err);
  c = chunks(text, n, 1);
  b = lds_map_read(NULL, chunk_read, &c, "arena.map", &err);
  CHECK(a != NULL && b != NULL);
  if (a && b) {
    CHECK_INT(lds_grid_width(b), 49);
    CHECK_INT(lds_grid_height(b), 49);
    CHECK(same_grid(a, b));
  }
  CHECK_INT(c.calls, (long)n + 1);
  lds_grid_free(a);
  lds_grid_free(b);
}

static void test_map_errors(void) {
  static const char bad[] = "type octile\nheight 2\nwidth 3\nmap\n...\n..\n";
  static const char nul[] = "type octile\nheight 2\nwidth 3\nmap\n...\n.\0.\n";
  lds_Error e1, e2;
  size_t i;
  long calls = 0;
  int state = 0;
  lds_Grid *g;
  CHECK(lds_map_parse(NULL, bad, sizeof bad - 1, "b.map", &e1) == NULL);
  CHECK_STR(e1.msg, "b.map:6: map row 1 has 2 characters (expected 3)");
  for (i = 0; i < NPIECES; i++) {
    Chunks c = chunks(bad, sizeof bad - 1, pieces[i]);
    CHECK(lds_map_read(NULL, chunk_read, &c, "b.map", &e2) == NULL);
    CHECK_INT(e2.code, LDS_E_FORMAT);
    CHECK_STR(e2.msg, e1.msg);
    /* a NUL: the line and offset in the whole text, named by the function */
    c = chunks(nul, sizeof nul - 1, pieces[i]);
    CHECK(lds_map_read(NULL, chunk_read, &c, "n.map", &e2) == NULL);
    CHECK_INT(e2.code, LDS_E_FORMAT);
    CHECK_STR(e2.msg, "lds_map_read: n.map:6: binary data (a NUL byte at offset 38; expected a "
                      "text file)");
  }
  /* an endless reader of zeros: stopped at its first piece */
  CHECK(lds_map_read(NULL, zeros_read, &calls, NULL, &e2) == NULL);
  CHECK_STR(e2.msg, "lds_map_read: (map):1: binary data (a NUL byte at offset 0; expected a text "
                    "file)");
  CHECK_INT(calls, 1);
  /* size 0 with a non-NULL pointer ends the text */
  g = lds_map_read(NULL, empty_end_read, &state, "e.map", &e2);
  CHECK(g != NULL);
  if (g) CHECK(lds_grid_blocked(g, 1, 0) && !lds_grid_blocked(g, 0, 0));
  CHECK_INT(state, 2);
  lds_grid_free(g);
  /* nothing at all: as the empty text */
  {
    Chunks c = chunks("", 0, 1);
    CHECK(lds_map_parse(NULL, "", 0, NULL, &e1) == NULL);
    CHECK(lds_map_read(NULL, chunk_read, &c, NULL, &e2) == NULL);
    CHECK_STR(e2.msg, e1.msg);
    CHECK_STR(e2.msg, "(map):1: unexpected end of file (expected the header 'type octile', "
                      "'height H', 'width W', 'map')");
  }
  CHECK(lds_map_read(NULL, NULL, NULL, "x", &e2) == NULL);
  CHECK_INT(e2.code, LDS_E_ARG);
  CHECK_STR(e2.msg, "lds_map_read: reader is NULL");
}

static void test_map_oom(void) {
  long k;
  int read_oom = 0;
  for (k = 1; k < 20; k++) {
    th_Alloc a;
    lds_Env env;
    lds_Error err;
    Chunks c = chunks(map_text, sizeof map_text - 1, 3);
    lds_Grid *g;
    memset(&a, 0, sizeof a);
    a.fail_at = k;
    lds_env_init(&env);
    env.alloc = th_alloc;
    env.alloc_ud = &a;
    g = lds_map_read(&env, chunk_read, &c, "m.map", &err);
    if (g) {
      lds_grid_free(g);
      CHECK_INT(a.live, 0);
      break;
    }
    CHECK_INT(err.code, LDS_E_NOMEM);
    if (strcmp(err.msg, "lds_map_read: out of memory reading m.map") == 0) read_oom++;
    CHECK_INT(a.live, 0);
  }
  CHECK(k < 20);
  CHECK_INT(read_oom, 1);
}

static const char scen_text[] =
    "version 1\n"
    "0\tarena.map\t49\t49\t1\t11\t1\t12\t1\n"
    "1\tmaps/arena.map\t49\t49\t1\t3\t4\t3\t3\n"
    "2\tarena.map\t49\t49\t40\t45\t1\t3\t52.94112549\n";

static void test_scen_pieces(void) {
  lds_Error err;
  lds_Scenario *want = lds_scen_parse(NULL, scen_text, sizeof scen_text - 1, "s.scen", &err);
  size_t i, j;
  CHECK(want != NULL);
  if (!want) return;
  CHECK_INT(lds_scen_count(want), 3);
  for (i = 0; i < NPIECES; i++) {
    Chunks c = chunks(scen_text, sizeof scen_text - 1, pieces[i]);
    lds_Scenario *sc = lds_scen_read(NULL, chunk_read, &c, "s.scen", &err);
    CHECK(sc != NULL);
    if (!sc) continue;
    CHECK_INT(lds_scen_count(sc), lds_scen_count(want));
    for (j = 0; j < lds_scen_count(want) && j < lds_scen_count(sc); j++) {
      const lds_ScenEntry *a = lds_scen_entry(want, j), *b = lds_scen_entry(sc, j);
      CHECK(a->bucket == b->bucket && a->sx == b->sx && a->sy == b->sy && a->gx == b->gx &&
            a->gy == b->gy && a->map_width == b->map_width && a->optimal == b->optimal &&
            a->tolerance == b->tolerance);
      CHECK_STR(b->map, "arena.map");
    }
    lds_scen_free(sc);
  }
  lds_scen_free(want);
  {
    static const char nul[] = "version 1\n0\tarena.map\0";
    Chunks c = chunks(nul, sizeof nul - 1, 2);
    CHECK(lds_scen_read(NULL, chunk_read, &c, "n.scen", &err) == NULL);
    CHECK_STR(err.msg, "lds_scen_read: n.scen:2: binary data (a NUL byte at offset 21; expected a "
                       "text file)");
    c = chunks("version 2\n", 10, 1);
    CHECK(lds_scen_read(NULL, chunk_read, &c, NULL, &err) == NULL);
    CHECK_STR(err.msg, "(scen):1: expected 'version 1' or 'version 1.0', got 'version 2'");
    CHECK(lds_scen_read(NULL, NULL, NULL, NULL, &err) == NULL);
    CHECK_STR(err.msg, "lds_scen_read: reader is NULL");
  }
}

static const char gr_text[] = "c tiny\np sp 4 5\na 1 2 3\r\na 2 3 4\na 1 3 9\na 3 4 0\na 4 1 2.5\n";
static const char co_text[] = "p aux sp co 4\nv 1 7420000 43730000\nv 2 7421000 43730000\n"
                              "v 3 7422000 43731000\nv 4 -7422000 -43730000\n";

static bool same_graph(const lds_Graph *a, const lds_Graph *b) {
  uint32_t i;
  if (lds_graph_node_count(a) != lds_graph_node_count(b) ||
      lds_graph_edge_count(a) != lds_graph_edge_count(b) ||
      lds_graph_coords(a) != lds_graph_coords(b))
    return false;
  for (i = 0; i < lds_graph_edge_count(a); i++) {
    uint32_t fa, ta, fb, tb;
    if (!lds_graph_edge_ends(a, i, &fa, &ta) || !lds_graph_edge_ends(b, i, &fb, &tb) || fa != fb ||
        ta != tb || lds_graph_edge_cost(a, i) != lds_graph_edge_cost(b, i))
      return false;
  }
  for (i = 0; i < lds_graph_node_count(a); i++) {
    double xa = 0, ya = 0, xb = 0, yb = 0;
    bool ha = lds_graph_node_coords(a, i, &xa, &ya, NULL);
    bool hb = lds_graph_node_coords(b, i, &xb, &yb, NULL);
    if (ha != hb || xa != xb || ya != yb) return false;
  }
  return true;
}

static void test_dimacs_pieces(void) {
  lds_Error err;
  lds_Graph *want = lds_graph_parse_dimacs(NULL, gr_text, sizeof gr_text - 1, "t.gr", co_text,
                                           sizeof co_text - 1, "t.co", &err);
  lds_Graph *want_nc = lds_graph_parse_dimacs(NULL, gr_text, sizeof gr_text - 1, "t.gr", NULL, 0,
                                              NULL, &err);
  size_t i;
  CHECK(want != NULL && want_nc != NULL);
  if (!want || !want_nc) {
    lds_graph_free(want);
    lds_graph_free(want_nc);
    return;
  }
  CHECK_INT(lds_graph_node_count(want), 4);
  CHECK_INT(lds_graph_coords(want), LDS_COORDS_LONLAT);
  CHECK_INT(lds_graph_coords(want_nc), LDS_COORDS_NONE);
  for (i = 0; i < NPIECES; i++) {
    Chunks g = chunks(gr_text, sizeof gr_text - 1, pieces[i]);
    Chunks c = chunks(co_text, sizeof co_text - 1, pieces[NPIECES - 1 - i]);
    lds_Graph *r = lds_graph_read_dimacs(NULL, chunk_read, &g, "t.gr", chunk_read, &c, "t.co", &err);
    CHECK(r != NULL);
    if (r) CHECK(same_graph(r, want));
    lds_graph_free(r);
    g = chunks(gr_text, sizeof gr_text - 1, pieces[i]);
    r = lds_graph_read_dimacs(NULL, chunk_read, &g, "t.gr", NULL, NULL, NULL, &err);
    CHECK(r != NULL);
    if (r) CHECK(same_graph(r, want_nc));
    lds_graph_free(r);
  }
  lds_graph_free(want);
  lds_graph_free(want_nc);
}

static void test_dimacs_errors(void) {
  static const char bad_co[] = "p aux sp co 3\n";
  static const char nul_gr[] = "p sp 2 1\na 1 2 3\nc \0x\n";
  lds_Error e1, e2;
  Chunks g, c;
  long calls = 0;
  size_t i;
  CHECK(lds_graph_parse_dimacs(NULL, gr_text, sizeof gr_text - 1, "t.gr", bad_co,
                               sizeof bad_co - 1, "t.co", &e1) == NULL);
  CHECK_STR(e1.msg, "t.co:1: expected 'p aux sp co N' with N = 4 (nodes of the .gr), got 3");
  for (i = 0; i < NPIECES; i++) {
    g = chunks(gr_text, sizeof gr_text - 1, pieces[i]);
    c = chunks(bad_co, sizeof bad_co - 1, pieces[i]);
    CHECK(lds_graph_read_dimacs(NULL, chunk_read, &g, "t.gr", chunk_read, &c, "t.co", &e2) == NULL);
    CHECK_INT(e2.code, LDS_E_FORMAT);
    CHECK_STR(e2.msg, e1.msg);
    /* a NUL in the .gr: the .co reader is never called */
    g = chunks(nul_gr, sizeof nul_gr - 1, pieces[i]);
    c = chunks(co_text, sizeof co_text - 1, 1);
    CHECK(lds_graph_read_dimacs(NULL, chunk_read, &g, "t.gr", chunk_read, &c, "t.co", &e2) == NULL);
    CHECK_STR(e2.msg, "lds_graph_read_dimacs: t.gr:3: binary data (a NUL byte at offset 19; "
                      "expected a text file)");
    CHECK_INT(c.calls, 0);
  }
  g = chunks(gr_text, sizeof gr_text - 1, 5);
  CHECK(lds_graph_read_dimacs(NULL, chunk_read, &g, NULL, zeros_read, &calls, NULL, &e2) == NULL);
  CHECK_STR(e2.msg, "lds_graph_read_dimacs: (co):1: binary data (a NUL byte at offset 0; expected "
                    "a text file)");
  CHECK_INT(calls, 1);
  CHECK(lds_graph_read_dimacs(NULL, NULL, NULL, "t.gr", NULL, NULL, NULL, &e2) == NULL);
  CHECK_INT(e2.code, LDS_E_ARG);
  CHECK_STR(e2.msg, "lds_graph_read_dimacs: gr_reader is NULL");
  /* out of memory: the first block of the .gr text, sized; no leak */
  {
    th_Alloc a;
    lds_Env env;
    memset(&a, 0, sizeof a);
    a.fail_at = 1;
    lds_env_init(&env);
    env.alloc = th_alloc;
    env.alloc_ud = &a;
    g = chunks(gr_text, sizeof gr_text - 1, 1);
    CHECK(lds_graph_read_dimacs(&env, chunk_read, &g, "t.gr", NULL, NULL, NULL, &e2) == NULL);
    CHECK_INT(e2.code, LDS_E_NOMEM);
    CHECK_STR(e2.msg, "lds_graph_read_dimacs: out of memory reading t.gr (1048576 bytes)");
    CHECK_INT(a.live, 0);
  }
}

void suite_reader(void);
void suite_reader(void) {
  test_map_pieces();
  test_map_file_bytewise();
  test_map_errors();
  test_map_oom();
  test_scen_pieces();
  test_dimacs_pieces();
  test_dimacs_errors();
}
