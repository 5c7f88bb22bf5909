/* SPDX-License-Identifier: MIT */
/*
** demo.c — `lodestar demo`: a headless game loop on a real map. N agents
** wander to random reachable goals, doors open and close on a schedule,
** blocked agents replan, and a lds_Scheduler serves every request within a
** per-frame budget. Prints a progress line per simulated second and a
** summary (latency in frames, time per frame, overshoot, expansions).
**
** Everything the game does (doors, agents, checks) happens outside the timed
** region; only lds_scheduler_step (searches + delivery callbacks) is timed.
** Each delivered path is checked, outside the timed region, against a
** one-shot A* on the same grid state.
**
** demo.c: the options, the set-up and the main flow; the rest in demo_*.c
** (see demo.h).
*/
#include "demo.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The default map: tests/data/den011d.map from the current directory (the
** repository root), else the copy in LDS_DATA_DIR. The Makefile compiles the
** data directory in, as lds_runtime.c gets its Lua directory: the build's
** tests/data for build/lodestar, PREFIX/share/lodestar (where `make install`
** puts the map) for the installed command. */
#define DEFAULT_MAP_NAME "den011d.map"
#define DEFAULT_MAP "tests/data/" DEFAULT_MAP_NAME
#ifndef LDS_DATA_DIR
#define LDS_DATA_DIR "tests/data"
#endif
#define DATA_MAP LDS_DATA_DIR "/" DEFAULT_MAP_NAME

static void usage(FILE *f) {
  fprintf(f,
          "usage: lodestar demo [--map FILE] [--agents N] [--budget-us B] [--frames F]\n"
          "                     [--seed S] [--deterministic] [--json] [options]\n"
          "A headless game loop: N agents walk (one cell per frame) to random reachable\n"
          "goals, doors open and close, agents whose way is blocked replan, and the\n"
          "scheduler runs the searches within B microseconds per frame.\n"
          "  --map FILE         Moving AI .map (default " DEFAULT_MAP ", or when the\n"
          "                     current directory has none, " DATA_MAP ")\n"
          "  --agents N         agents (default 200)\n"
          "  --budget-us B      search budget per frame [µs] (default 1000)\n"
          "  --frames F         frames to simulate, 60 per second (default 600)\n"
          "  --realtime         run the frames at 60 per second of wall time (sleeps\n"
          "                     between frames, outside the timed tick; a late frame\n"
          "                     does not make the next ones hurry); default: as fast as\n"
          "                     the machine goes. For watching --watch reload by hand\n"
          "  --seed S           random seed (default 1)\n"
          "  --deterministic    count the budget in expansions (B * --exp-per-us): the\n"
          "                     same inputs give the same frames and log_hash\n"
          "  --exp-per-us E     deterministic mode: expansions per µs of budget (default 4)\n"
          "  --algo A           astar (default), dijkstra, wastar, greedy, jps, jps+\n"
          "  --goal-radius R    goals within R cells of the agent (default 40; 0 = anywhere)\n"
          "  --idle F           mean frames an agent waits between trips (default 60)\n"
          "  --doors D          doors on the map (default 12)\n"
          "  --searches P       searches in progress at once (default 2)\n"
          "  --quick N          ask for a quick partial path of N expansions first\n"
          "  --no-check         skip the one-shot A* check of each path\n"
          "  --log FILE         write the per-frame log (what log_hash hashes)\n"
          "  --verbose          print each frame over 1.05 x budget to stderr\n"
          "  --json             print one JSON object as the last line\n"
          "  --html FILE        also write a self-contained HTML page: time per frame with\n"
          "                     the budget line and the p99, expansions per frame\n"
          "  --mods DIR         run through the embedding runtime with the mods in DIR;\n"
          "                     agent i uses profile i mod P of the P loaded profiles\n"
          "                     (sorted by mod load order, then name)\n"
          "  --watch            with --mods: reload changed mods while running\n"
          "  --poll-frames N    with --watch: poll the mod files every N frames (default 30)\n"
          "  --exit-after-reload F  with --watch: stop F frames after the first reload\n"
          "                     (--frames stays the upper bound)\n"
          "Each option may be given once.\n");
}

/* --mods: one line per mod event (mod, ms, result) */
static void on_mod_event(void *ud, const lds_ModEvent *ev) {
  Demo *d = (Demo *)ud;
  d->mod_events++;
  if (strcmp(ev->result, "reloaded") == 0 && d->reloads++ == 0) d->reload_frame = d->frame;
  if (!d->json)
    printf("mod: frame %llu %s %s in %.1f ms (restarted %u)%s%s\n", (unsigned long long)d->frame,
           ev->mod, ev->result, ev->ms, ev->restarted, ev->error ? ": " : "",
           ev->error ? ev->error : "");
  fflush(stdout); /* a watching script reads the output as it comes */
}

static void demo_log(void *ud, int level, const char *msg) {
  (void)ud;
  if (level <= 1) fprintf(stderr, "lodestar demo: %s\n", msg);
}

/* Parses argv into o (defaults first); returns -1 to go on, else the exit
** status (0 after --help, 2 on bad input, with the message printed). */
static int parse_args(int argc, char **argv, DemoOpts *o) {
  int i;
  cli_Seen seen = {{0}, 0};
  memset(o, 0, sizeof *o);
  o->agents = 200;
  o->budget = 1000;
  o->frames = 600;
  o->seed = 1;
  o->exp_per_us = 4;
  o->searches = 2;
  o->ndoors = 12;
  o->radius = 40;
  o->idle = 60;
  o->poll_frames = 30;
  o->check = true;
  o->algo = LDS_ALGO_ASTAR;
  for (i = 2; i < argc; i++) {
    const char *a = argv[i];
    const char *v = i + 1 < argc ? argv[i + 1] : NULL;
    if (!cli_once(CMD, &seen, a)) return 2;
    if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
      usage(stdout);
      return 0;
    } else if (strcmp(a, "--json") == 0) {
      o->json = true;
    } else if (strcmp(a, "--deterministic") == 0) {
      o->det = true;
    } else if (strcmp(a, "--no-check") == 0) {
      o->check = false;
    } else if (strcmp(a, "--verbose") == 0) {
      o->verbose = true;
    } else if (strcmp(a, "--watch") == 0) {
      o->watch = true;
    } else if (strcmp(a, "--realtime") == 0) {
      o->realtime = true;
    } else if (strcmp(a, "--mods") == 0 || strcmp(a, "--poll-frames") == 0 ||
               strcmp(a, "--exit-after-reload") == 0) {
      if (!v) return cli_fail(CMD, "%s: missing value", a);
      i++;
      if (strcmp(a, "--mods") == 0) {
        struct stat sb;
        if (stat(v, &sb) != 0 || !S_ISDIR(sb.st_mode))
          return cli_fail(CMD, "--mods: '%s' is not a directory", v);
        o->mods_dir = v;
      } else if (strcmp(a, "--poll-frames") == 0) {
        if (!cli_int(CMD, a, v, 1, 1000000, &o->poll_frames)) return 2;
        o->poll_given = true;
      } else if (!cli_int(CMD, a, v, 1, 100000000, &o->exit_after)) {
        return 2;
      }
    } else if (strcmp(a, "--map") == 0 || strcmp(a, "--log") == 0 || strcmp(a, "--algo") == 0 ||
               strcmp(a, "--html") == 0 ||
               strcmp(a, "--agents") == 0 || strcmp(a, "--budget-us") == 0 ||
               strcmp(a, "--frames") == 0 || strcmp(a, "--seed") == 0 ||
               strcmp(a, "--exp-per-us") == 0 || strcmp(a, "--searches") == 0 ||
               strcmp(a, "--doors") == 0 || strcmp(a, "--goal-radius") == 0 ||
               strcmp(a, "--idle") == 0 || strcmp(a, "--quick") == 0) {
      if (!v) return cli_fail(CMD, "%s: missing value", a);
      i++;
      if (strcmp(a, "--map") == 0) o->map_path = v;
      else if (strcmp(a, "--log") == 0) o->log_path = v;
      else if (strcmp(a, "--html") == 0) o->html_path = v;
      else if (strcmp(a, "--algo") == 0) {
        if (lds_algo_parse(v, &o->algo) != LDS_OK)
          return cli_fail(CMD, "--algo: unknown algorithm '%s' (expected astar, dijkstra, "
                          "wastar, greedy, jps or jps+)", v);
      } else if (strcmp(a, "--agents") == 0) {
        if (!cli_int(CMD, a, v, 1, 1000000, &o->agents)) return 2;
      } else if (strcmp(a, "--budget-us") == 0) {
        if (!cli_int(CMD, a, v, 1, 10000000, &o->budget)) return 2;
      } else if (strcmp(a, "--frames") == 0) {
        if (!cli_int(CMD, a, v, 1, 10000000, &o->frames)) return 2;
      } else if (strcmp(a, "--seed") == 0) {
        if (!cli_int(CMD, a, v, 0, 2147483647L, &o->seed)) return 2;
      } else if (strcmp(a, "--exp-per-us") == 0) {
        if (!cli_int(CMD, a, v, 1, 1000000, &o->exp_per_us)) return 2;
      } else if (strcmp(a, "--searches") == 0) {
        if (!cli_int(CMD, a, v, 1, 64, &o->searches)) return 2;
      } else if (strcmp(a, "--doors") == 0) {
        if (!cli_int(CMD, a, v, 0, 100000, &o->ndoors)) return 2;
      } else if (strcmp(a, "--goal-radius") == 0) {
        if (!cli_int(CMD, a, v, 0, LDS_GRID_MAX_SIDE, &o->radius)) return 2;
      } else if (strcmp(a, "--idle") == 0) {
        if (!cli_int(CMD, a, v, 0, 1000000, &o->idle)) return 2;
      } else if (!cli_int(CMD, a, v, 0, 100000000, &o->quick)) {
        return 2;
      }
    } else {
      return cli_fail(CMD, "unknown argument '%s' (try 'lodestar demo --help')", a);
    }
  }
  if (!o->det && cli_seen(&seen, "--exp-per-us"))
    return cli_fail(CMD, "--exp-per-us needs --deterministic (it converts the budget into "
                    "expansions there; otherwise the budget is wall time)");
  return -1;
}

/* The map, the agents, the doors and the frame arrays; 0, or the exit
** status after printing the error. */
static int setup_world(Demo *d, DemoOpts *o, DemoRun *r) {
  lds_Error err;
  if (!o->map_path) {
    if (cli_file_exists(DEFAULT_MAP))
      o->map_path = DEFAULT_MAP;
    else if (cli_file_exists(DATA_MAP))
      o->map_path = DATA_MAP;
    else
      return cli_fail(CMD, "default map not found: neither %s (from the current directory) nor "
                      "%s exists (use --map FILE)", DEFAULT_MAP, DATA_MAP);
  }
  if (!cli_not_dir(CMD, o->map_path)) return 2;
  d->g = lds_map_load(NULL, o->map_path, &err);
  if (!d->g) return cli_fail(CMD, "%s", err.msg);
  d->w = lds_grid_width(d->g);
  d->h = lds_grid_height(d->g);
  d->rng.s = 0x9E3779B97F4A7C15ULL ^ ((uint64_t)o->seed * 0xD1B54A32D192ED03ULL);
  if (d->rng.s == 0) d->rng.s = 1;
  d->nagents = o->agents;
  d->radius = o->radius;
  d->idle = o->idle;
  d->quick = o->quick;
  d->check_paths = o->check;
  lds_search_params_init(&d->params);
  d->params.algo = o->algo;
  d->comp = (int32_t *)malloc((size_t)d->w * d->h * sizeof(int32_t));
  d->occupied = (uint32_t *)calloc((size_t)d->w * d->h, sizeof(uint32_t));
  d->agents = (Agent *)calloc((size_t)o->agents, sizeof(Agent));
  d->doors = (Door *)calloc((size_t)(o->ndoors ? o->ndoors : 1), sizeof(Door));
  d->done = (uint32_t *)malloc((size_t)o->agents * 2 * sizeof(uint32_t));
  d->partial = (uint8_t *)malloc((size_t)o->agents * 2);
  r->frame_us = (double *)malloc((size_t)o->frames * sizeof(double));
  r->frame_exp = (double *)malloc((size_t)o->frames * sizeof(double));
  r->frame_cpu = (double *)malloc((size_t)o->frames * sizeof(double));
  r->logcap = 1u << 20;
  r->log = (char *)malloc(r->logcap);
  if (!d->comp || !d->occupied || !d->agents || !d->doors || !d->done || !d->partial ||
      !r->frame_us || !r->frame_exp || !r->frame_cpu || !r->log || !demo_label_components(d))
    return cli_fail(CMD, "out of memory");
  if (lds_grid_passable_count(d->g) < 2)
    return cli_fail(CMD, "%s: fewer than two passable cells", o->map_path);
  d->ndoors = demo_place_doors(d, o->ndoors);
  if (d->ndoors < o->ndoors)
    fprintf(stderr, "lodestar demo: warning: room for %ld of the %ld doors asked on %s "
            "(gaps in walls, 16 cells apart)\n", d->ndoors, o->ndoors, o->map_path);
  demo_place_agents(d, o->idle);
  return 0;
}

/* --mods: the game loop through the embedding runtime: a Lua state with
** the mods, polled every poll_frames frames when watching. */
static int setup_runtime(Demo *d, const DemoOpts *o, const lds_SchedulerConfig *cfg) {
  lds_RuntimeConfig rcfg;
  lds_Error err;
  char *s;
  lds_runtime_config_init(&rcfg);
  rcfg.sched = *cfg;
  rcfg.env.log = demo_log;
  rcfg.mods_dir = o->mods_dir;
  rcfg.watch = o->watch;
  rcfg.poll_frames = (uint32_t)o->poll_frames;
  rcfg.on_mod_event = on_mod_event;
  rcfg.mod_event_ud = d;
  d->rt = lds_runtime_new(&rcfg, &err);
  if (!d->rt) return cli_fail(CMD, "%s", err.msg);
  d->sc = lds_runtime_scheduler(d->rt);
  if (lds_runtime_add_grid(d->rt, "world", d->g) != LDS_OK)
    return cli_fail(CMD, "%s", lds_runtime_errmsg(d->rt));
  lds_runtime_profiles(d->rt, d->profbuf, sizeof d->profbuf);
  for (s = d->profbuf; *s && d->nprof < 64;) {
    d->prof[d->nprof++] = s;
    s = strchr(s, '\n');
    if (!s) break;
    *s++ = '\0';
  }
  if (!o->json) {
    int k;
    printf("mods: %s, %d profiles:", o->mods_dir, d->nprof);
    for (k = 0; k < d->nprof; k++) printf(" %s", d->prof[k]);
    printf("%s\n", o->watch ? " (watching)" : "");
  }
  return 0;
}

/* The scheduler (or the runtime with --mods), the checking search, the log
** file; 0, or the exit status after printing the error. */
static int setup_scheduler(Demo *d, const DemoOpts *o, DemoRun *r) {
  lds_SchedulerConfig cfg;
  lds_Error err;
  int rc;
  lds_scheduler_config_init(&cfg);
  cfg.deterministic = o->det;
  cfg.expansions_per_us = (uint32_t)o->exp_per_us;
  cfg.searches_per_grid = (int)o->searches;
  cfg.initial_capacity = (uint32_t)(o->agents + 16);
  if (o->watch && !o->mods_dir) return cli_fail(CMD, "--watch needs --mods DIR");
  if (!o->watch && (o->poll_given || o->exit_after > 0))
    return cli_fail(CMD, "%s needs --watch", o->poll_given ? "--poll-frames" : "--exit-after-reload");
  d->json = o->json;
  if (o->mods_dir) {
    if ((rc = setup_runtime(d, o, &cfg)) != 0) return rc;
  } else {
    d->sc = lds_scheduler_new(NULL, &cfg, &err);
    if (!d->sc) return cli_fail(CMD, "%s", err.msg);
    if (lds_scheduler_add_grid(d->sc, d->g, 0) != LDS_OK)
      return cli_fail(CMD, "%s", lds_scheduler_errmsg(d->sc));
  }
  d->check = lds_search_new(NULL, d->g, &err);
  if (!d->check) return cli_fail(CMD, "%s", err.msg);
  if (o->log_path && !(r->logf = fopen(o->log_path, "w")))
    return cli_fail(CMD, "%s: cannot open for writing", o->log_path);
  return 0;
}

static void cleanup(Demo *d, DemoRun *r) {
  long i;
  if (r->logf) fclose(r->logf);
  if (d->agents)
    for (i = 0; i < d->nagents; i++) lds_path_free(d->agents[i].path);
  if (d->rt)
    lds_runtime_free(d->rt); /* owns d->sc */
  else
    lds_scheduler_free(d->sc);
  lds_search_free(d->check);
  lds_grid_free(d->g);
  free(d->comp);
  free(d->occupied);
  free(d->agents);
  free(d->doors);
  free(d->done);
  free(d->partial);
  free(d->latency);
  free(r->frame_us);
  free(r->frame_exp);
  free(r->frame_cpu);
  free(r->log);
}

int cli_demo(int argc, char **argv) {
  DemoOpts o;
  Demo d;
  DemoRun r;
  int rc = parse_args(argc, argv, &o);
  if (rc >= 0) return rc;
  memset(&d, 0, sizeof d);
  memset(&r, 0, sizeof r);
  rc = setup_world(&d, &o, &r);
  if (rc == 0) rc = setup_scheduler(&d, &o, &r);
  if (rc == 0) {
    if (!o.json)
      printf("demo: %s (%ldx%ld), %ld agents, %ld doors, budget %ld us%s, %ld frames, seed %ld, "
             "algo %s\n",
             o.map_path, (long)d.w, (long)d.h, o.agents, d.ndoors, o.budget,
             o.det ? " (deterministic: counted in expansions)" : "", o.frames, o.seed,
             lds_algo_name(o.algo));
    rc = demo_run_frames(&d, &o, &r);
    if (rc == 0 && o.html_path && !demo_html(&d, &o, &r)) rc = 2; /* before the report sorts the frames */
    if (rc == 0) rc = demo_report(&d, &o, &r);
  }
  cleanup(&d, &r);
  return rc;
}
