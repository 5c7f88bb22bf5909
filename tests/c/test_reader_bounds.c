/* SPDX-License-Identifier: MIT */
/*
** test_reader_bounds.c — the reader parsers (lds_map_read, lds_scen_read,
** lds_graph_read_dimacs, lds_navmesh_read) on sources that never end: a
** stream of zeros, one endless line, valid-looking lines past what the
** format allows, endless comments. Each must stop after a bounded number of
** reads with an error naming the file, the line and what was expected, and
** keep its memory to one line (checked with an allocator limit).
*/
#include "harness.h"
#include "lds.h"

#include <stdio.h>
#include <string.h>

/* An endless source: `head` once (may be ""), then `unit` forever, 4 KiB
** pieces; counts calls. */
typedef struct Endless {
  const char *head;
  const char *unit;
  char piece[4096];
  size_t piece_len;
  bool head_done;
  long calls;
} Endless;

static const char *endless_read(void *ud, size_t *size) {
  Endless *s = (Endless *)ud;
  s->calls++;
  if (!s->head_done) {
    s->head_done = true;
    if (s->head[0]) {
      *size = strlen(s->head);
      return s->head;
    }
  }
  if (!s->piece_len && !s->unit[0]) { /* no unit: the end */
    *size = 0;
    return NULL;
  }
  if (!s->piece_len) { /* fill one piece with whole units */
    size_t u = strlen(s->unit);
    while (s->piece_len + u <= sizeof s->piece) {
      memcpy(s->piece + s->piece_len, s->unit, u);
      s->piece_len += u;
    }
  }
  *size = s->piece_len;
  return s->piece;
}

static Endless endless(const char *head, const char *unit) {
  Endless s;
  memset(&s, 0, sizeof s);
  s.head = head;
  s.unit = unit;
  return s;
}

/* An environment whose allocator refuses to hold more than `limit` bytes. */
static lds_Env limited(th_Alloc *a, size_t limit) {
  lds_Env env;
  memset(a, 0, sizeof *a);
  a->limit = limit;
  lds_env_init(&env);
  env.alloc = th_alloc;
  env.alloc_ud = a;
  return env;
}

static const char map_head[] = "type octile\nheight 3\nwidth 4\nmap\n";

static void test_map_endless(void) {
  lds_Error err;
  th_Alloc a;
  lds_Env env = limited(&a, 1u << 20);
  Endless s;
  /* zeros: the first piece */
  s = endless("", "");
  memset(s.piece, 0, sizeof s.piece);
  s.piece_len = sizeof s.piece;
  CHECK(lds_map_read(&env, endless_read, &s, "z.map", &err) == NULL);
  CHECK_INT(err.code, LDS_E_FORMAT);
  CHECK_STR(err.msg, "lds_map_read: z.map:1: binary data (a NUL byte at offset 0; expected a "
                     "text file)");
  CHECK_INT(s.calls, 1);
  CHECK_INT(a.live, 0);
  /* valid rows past the header's height: the first extra row */
  s = endless(map_head, "....\n");
  CHECK(lds_map_read(&env, endless_read, &s, "m.map", &err) == NULL);
  CHECK_INT(err.code, LDS_E_FORMAT);
  CHECK_STR(err.msg, "m.map:8: unexpected text after the 3 map rows");
  CHECK_INT(s.calls, 2);
  CHECK_INT(a.live, 0);
  /* blank lines after the rows: 64 KiB of them, then an error */
  s = endless("type octile\nheight 1\nwidth 2\nmap\n..\n", "\n");
  CHECK(lds_map_read(&env, endless_read, &s, "b.map", &err) == NULL);
  CHECK_INT(err.code, LDS_E_FORMAT);
  CHECK_STR(err.msg, "b.map:65542: more than 65536 bytes of blank lines after the 1 map rows "
                     "(expected the end of the file)");
  CHECK(s.calls <= 18);
  CHECK_INT(a.live, 0);
  /* one endless header line */
  s = endless("", "type");
  CHECK(lds_map_read(&env, endless_read, &s, "l.map", &err) == NULL);
  CHECK_STR(err.msg, "lds_map_read: l.map:1: line longer than 65535 bytes (expected a header "
                     "line ('type octile', 'height H', 'width W' or 'map'))");
  CHECK(s.calls <= 17);
  CHECK_INT(a.live, 0);
  /* one endless map row: cut at the width + 65535 */
  s = endless(map_head, ".");
  CHECK(lds_map_read(&env, endless_read, &s, "r.map", &err) == NULL);
  CHECK_STR(err.msg, "lds_map_read: r.map:5: line longer than 65539 bytes (expected a map row of "
                     "4 characters)");
  CHECK(s.calls <= 18);
  CHECK_INT(a.live, 0);
  /* the largest header over a source that ends early: memory follows the
  ** rows read (under 1 MiB here), never the 4 GiB declared */
  {
    static char text[70000 * 2 + 64];
    size_t n = (size_t)snprintf(text, sizeof text, "type octile\nheight 65535\nwidth 65535\nmap\n");
    Endless one;
    memset(text + n, '.', 65535);
    text[n + 65535] = '\n';
    text[n + 65536] = '\0';
    one = endless(text, "\n"); /* then blank lines: a short row */
    CHECK(lds_map_read(&env, endless_read, &one, "h.map", &err) == NULL);
    CHECK_INT(err.code, LDS_E_FORMAT);
    CHECK_STR(err.msg, "h.map:6: map row 1 has 0 characters (expected 65535)");
    CHECK_INT(a.live, 0);
  }
}

static void test_scen_endless(void) {
  lds_Error err;
  th_Alloc a;
  lds_Env env = limited(&a, 1u << 20);
  Endless s = endless("version 1\n", "x");
  CHECK(lds_scen_read(&env, endless_read, &s, "l.scen", &err) == NULL);
  CHECK_STR(err.msg, "lds_scen_read: l.scen:2: line longer than 65535 bytes (expected a scenario "
                     "line 'bucket map width height sx sy gx gy optimal')");
  CHECK(s.calls <= 18);
  CHECK_INT(a.live, 0);
  s = endless("version 1\n", "\n");
  CHECK(lds_scen_read(&env, endless_read, &s, "b.scen", &err) == NULL);
  CHECK_STR(err.msg, "b.scen:1048578: more than 1048576 comment or blank lines (expected a "
                     "scenario line 'bucket map width height sx sy gx gy optimal')");
  CHECK_INT(a.live, 0);
  /* endless valid problems: the entry limit (the entries are what is kept,
  ** so no allocator limit here) */
  s = endless("version 1\n", "0\ta.map\t4\t4\t0\t0\t1\t1\t1.4142\n");
  CHECK(lds_scen_read(NULL, endless_read, &s, "v.scen", &err) == NULL);
  CHECK_INT(err.code, LDS_E_LIMIT);
  CHECK_STR(err.msg, "v.scen:1048578: more than 1048576 problems (expected at most "
                     "LDS_SCEN_MAX_ENTRIES)");
}

static void test_dimacs_endless(void) {
  lds_Error err;
  th_Alloc a;
  lds_Env env = limited(&a, 4u << 20);
  Endless s = endless("", "c");
  CHECK(lds_graph_read_dimacs(&env, endless_read, &s, "l.gr", NULL, NULL, NULL, &err) == NULL);
  CHECK_STR(err.msg, "lds_graph_read_dimacs: l.gr:1: line longer than 65535 bytes (expected 'c', "
                     "'p' or 'a' lines)");
  CHECK(s.calls <= 18);
  CHECK_INT(a.live, 0);
  s = endless("p sp 3 2\n", "a 1 2 3\n");
  CHECK(lds_graph_read_dimacs(&env, endless_read, &s, "a.gr", NULL, NULL, NULL, &err) == NULL);
  CHECK_STR(err.msg, "a.gr:4: expected 2 arcs (p line), found more");
  CHECK_INT(s.calls, 2);
  CHECK_INT(a.live, 0);
  s = endless("p sp 3 2\n", "c comment\n");
  CHECK(lds_graph_read_dimacs(&env, endless_read, &s, "c.gr", NULL, NULL, NULL, &err) == NULL);
  CHECK_STR(err.msg, "c.gr:1048578: more than 1048576 comment or blank lines (expected 'c', 'p' "
                     "or 'a' lines)");
  CHECK_INT(a.live, 0);
  /* a p line declaring the most arcs, then a few: the reservation follows
  ** what arrives (the 4 MiB limit holds) */
  {
    static const char gr[] = "p sp 4 4000000000\na 1 2 3\n";
    Endless one = endless(gr, "\n");
    CHECK(lds_graph_read_dimacs(&env, endless_read, &one, "m.gr", NULL, NULL, NULL, &err) == NULL);
    CHECK_STR(err.msg, "m.gr:1048579: more than 1048576 comment or blank lines (expected 'c', "
                       "'p' or 'a' lines)");
    CHECK_INT(a.live, 0);
  }
  /* the .co text endless: after a good .gr */
  {
    static const char gr[] = "p sp 2 1\na 1 2 3\n";
    Endless g = endless(gr, "");
    Endless c = endless("p aux sp co 2\n", "v 1 0 0\n");
    /* g: the head, then the end (no unit) */
    CHECK(lds_graph_read_dimacs(&env, endless_read, &g, "t.gr", endless_read, &c, "t.co",
                                &err) == NULL);
    CHECK_STR(err.msg, "t.co:3: expected one 'v' line per node, node 1 appears twice");
    CHECK_INT(c.calls, 2);
    CHECK_INT(a.live, 0);
  }
}

static void test_navmesh_endless(void) {
  lds_Error err;
  th_Alloc a;
  lds_Env env = limited(&a, 1u << 20);
  Endless s = endless("", "#");
  CHECK(lds_navmesh_read(&env, endless_read, &s, "l.nav", &err) == NULL);
  CHECK_STR(err.msg, "lds_navmesh_read: l.nav:1: line longer than 65535 bytes (expected a .nav "
                     "or OBJ line)");
  CHECK(s.calls <= 18);
  CHECK_INT(a.live, 0);
  s = endless("navmesh 1 3 1 3\n", "v 0 0 0\n");
  CHECK(lds_navmesh_read(&env, endless_read, &s, "v.nav", &err) == NULL);
  CHECK_STR(err.msg, "v.nav:5: more 'v' lines than NVERTS 3");
  CHECK_INT(s.calls, 2);
  CHECK_INT(a.live, 0);
  s = endless("", "# comment\n");
  CHECK(lds_navmesh_read(&env, endless_read, &s, "c.obj", &err) == NULL);
  CHECK_STR(err.msg, "c.obj:1048577: more than 1048576 comment or blank lines (expected a .nav "
                     "or OBJ line)");
  CHECK_INT(a.live, 0);
}

/* Text in memory is finite and already there: no line limit (a parse
** gives what it always gave), and errors come in the order of the lines. */
static void test_parse_unbounded(void) {
  static char text[70002]; /* 70000 'c', a newline, the terminator (the reader's strlen) */
  const size_t n = sizeof text - 1;
  lds_Error err;
  memset(text, 'c', n - 1);
  text[n - 1] = '\n';
  CHECK(lds_graph_parse_dimacs(NULL, text, n, "t.gr", NULL, 0, NULL, &err) == NULL);
  CHECK_STR(err.msg, "t.gr:1: expected a 'p sp N M' line, found none");
  CHECK(lds_map_parse(NULL, text, n, "t.map", &err) == NULL);
  CHECK_STR(err.msg, "t.map:1: expected a header line ('type', 'height', 'width' or 'map'), got '"
                     "cccccccccccccccccccccccccccccccccccccccc'");
  /* the same text from a reader: cut at the limit */
  {
    Endless s = endless(text, "");
    CHECK(lds_map_read(NULL, endless_read, &s, "t.map", &err) == NULL);
    CHECK_STR(err.msg, "lds_map_read: t.map:1: line longer than 65535 bytes (expected a header "
                       "line ('type octile', 'height H', 'width W' or 'map'))");
  }
  /* a NUL comes in the order of the lines: after an earlier bad line */
  CHECK(lds_map_parse(NULL, "type hex\n\0", 10, "o.map", &err) == NULL);
  CHECK_STR(err.msg, "o.map:1: unsupported map type 'hex' (expected 'type octile')");
}

void suite_reader_bounds(void);
void suite_reader_bounds(void) {
  test_map_endless();
  test_scen_endless();
  test_dimacs_endless();
  test_navmesh_endless();
  test_parse_unbounded();
}
