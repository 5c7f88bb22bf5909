/* SPDX-License-Identifier: MIT */
/*
** main.c — the `lodestar` command: dispatches to subcommands.
*/
#include "util.h"

#include <string.h>

typedef struct Command {
  const char *name;
  int (*run)(int argc, char **argv);
  const char *help;
} Command;

static const Command commands[] = {
    {"scen", cli_scen, "solve a Moving AI .scen file and check every cost"},
    {"path", cli_path, "find and print one path on a .map"},
    {"trace", cli_trace, "replay one search step by step in a self-contained HTML page"},
    {"graph", cli_graph, "answer DIMACS road-graph queries and check every distance"},
    {"demo", cli_demo, "headless game loop: agents, doors, per-frame search budget"},
    {"dstar", cli_dstar, "navigation simulation: D* Lite vs A* replanning from scratch"},
    {"mesh", cli_mesh, "run .queries on a navigation mesh (.nav, OBJ) and check every path"},
    {"mesh-build", cli_mesh_build, "build the exact navigation mesh of a .map (writes .nav)"},
    {"hier", cli_hier, "cluster hierarchy (HPA*, fast and optimal modes) vs A* on a .map"},
};

static void usage(FILE *f) {
  size_t i;
  fprintf(f, "lodestar %s — pathfinding runtime for games\n"
             "usage: lodestar COMMAND [ARGS]   (lodestar COMMAND --help for details)\n\n",
          lds_version());
  for (i = 0; i < sizeof commands / sizeof *commands; i++)
    fprintf(f, "  %-8s %s\n", commands[i].name, commands[i].help);
}

int main(int argc, char **argv) {
  size_t i;
  if (argc < 2) {
    fprintf(stderr, "lodestar: missing COMMAND (usage: lodestar COMMAND [ARGS]; try "
                    "'lodestar --help')\n");
    return 2;
  }
  if (strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "--help") == 0 ||
      strcmp(argv[1], "help") == 0) {
    usage(stdout);
    return 0;
  }
  if (strcmp(argv[1], "--version") == 0) {
    printf("lodestar %s\n", lds_version());
    return 0;
  }
  for (i = 0; i < sizeof commands / sizeof *commands; i++)
    if (strcmp(argv[1], commands[i].name) == 0) return commands[i].run(argc, argv);
  fprintf(stderr, "lodestar: unknown command '%s' (try 'lodestar --help')\n", argv[1]);
  return 2;
}
