/* SPDX-License-Identifier: MIT */
/*
** demo_loop.c — the demo's frame loop. Everything the game does (doors,
** agents, checks) happens outside the timed region; only the tick
** (lds_scheduler_step, or lds_runtime_tick with --mods: searches + delivery
** callbacks) is timed. Each frame appends one line to the log that
** log_hash hashes.
*/
#define _POSIX_C_SOURCE 200809L /* clock_gettime(CLOCK_THREAD_CPUTIME_ID) */
#include "demo.h"

#include <errno.h>
#include <time.h>

/* CPU time of this thread [ns]: with the wall time it tells the scheduler's
** own overshoot from time the OS gave to other processes. */
static uint64_t cpu_now_ns(void) {
  struct timespec ts;
  if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts) != 0) return 0;
  return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}

/* Sleeps until the CLOCK_MONOTONIC time due_ns (cli_now_ns's clock). */
static void sleep_until_ns(uint64_t due_ns) {
  struct timespec ts;
  ts.tv_sec = (time_t)(due_ns / 1000000000u);
  ts.tv_nsec = (long)(due_ns % 1000000000u);
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR) {
  }
}

/* FNV-1a, 64 bits (Fowler, Noll & Vo) over the per-frame log text. */
static uint64_t fnv1a(uint64_t h, const char *s, size_t n) {
  size_t i;
  for (i = 0; i < n; i++) {
    h ^= (unsigned char)s[i];
    h *= 1099511628211ULL;
  }
  return h;
}

/* The timed tick of frame f, with its measurements into r (the mod poll,
** outside the search budget, is taken off the time). */
static void timed_tick(Demo *d, const DemoOpts *o, DemoRun *r, uint64_t f, lds_TickStats *ts) {
  lds_RuntimeStats rs;
  uint64_t t0, t1, c0, c1;
  double us;
  long budget = o->budget;
  c0 = cpu_now_ns();
  t0 = cli_now_ns();
  if (d->rt) {
    lds_runtime_tick(d->rt, (uint64_t)budget, &rs);
    *ts = rs.tick;
  } else {
    lds_scheduler_step(d->sc, &(lds_Budget){0, (uint64_t)budget}, ts);
  }
  t1 = cli_now_ns();
  c1 = cpu_now_ns();
  if (d->rt && rs.polled) { /* the mod poll is outside the search budget */
    t0 += rs.poll_us * 1000u;
    c0 += rs.poll_us * 1000u;
    if (t0 > t1) t0 = t1;
    if (c0 > c1) c0 = c1;
    d->mod_restarts += rs.restarted;
    d->polls++;
    d->poll_us_total += rs.poll_us;
    if (rs.poll_us > d->poll_us_max) d->poll_us_max = rs.poll_us;
  }
  us = (double)(t1 - t0) / 1000.0;
  r->frame_us[f] = us;
  r->frame_cpu[f] = (double)(c1 - c0) / 1000.0;
  if (us - r->frame_cpu[f] > 100.0) r->preempted++; /* the OS ran something else */
  r->frame_exp[f] = (double)ts->expansions;
  if (o->verbose && (us > 1.05 * (double)budget || r->frame_cpu[f] > 1.02 * (double)budget))
    fprintf(stderr, "frame %llu us %.1f cpu %.1f sched %llu exp %llu fin %u reads %u k %llu "
            "rate %.2f\n",
            (unsigned long long)f, us, r->frame_cpu[f], (unsigned long long)ts->elapsed_us,
            (unsigned long long)ts->expansions, ts->finished, ts->clock_reads,
            (unsigned long long)ts->chunk_expansions, ts->rate);
  if (us > (double)budget) {
    r->overshoot_frames++;
    r->overshoot_sum += us - (double)budget;
    if (us - (double)budget > r->overshoot_max) r->overshoot_max = us - (double)budget;
  }
}

/* Every 60 frames: the progress line, and with --mods the mean path cost per
** step of the paths delivered in the last 60 frames, all agents and per
** profile (what a reload changes). */
static void print_second(Demo *d, const DemoOpts *o, const DemoRun *r, uint64_t f) {
  if (!o->json) {
    double recent[60];
    size_t k;
    for (k = 0; k < 60; k++) recent[k] = r->frame_us[f - 59 + k];
    printf("t=%5.1fs frame %-6llu completed %-7lu pending %-6zu frame_us p50 %7.1f max %7.1f  "
           "exp/frame %.0f\n",
           (double)(f + 1) / 60.0, (unsigned long long)(f + 1), d->completed,
           lds_scheduler_pending(d->sc), cli_quantile(recent, 60, 0.5),
           cli_quantile(recent, 60, 1.0), r->frame_exp[f]);
  }
  if (d->rt) {
    int k;
    if (!o->json) {
      printf("window frame %llu paths %lu cost_per_step %.4f", (unsigned long long)(f + 1),
             d->win_n[d->nprof], d->win_steps[d->nprof] > 0 ? d->win_cost[d->nprof] / d->win_steps[d->nprof] : 0.0);
      for (k = 0; k < d->nprof; k++)
        printf(" %s=%.4f/%lu", d->prof[k], d->win_steps[k] > 0 ? d->win_cost[k] / d->win_steps[k] : 0.0,
               d->win_n[k]);
      printf("\n");
      fflush(stdout);
    }
    for (k = 0; k <= d->nprof; k++) d->win_cost[k] = d->win_steps[k] = 0.0, d->win_n[k] = 0;
  }
}

int demo_run_frames(Demo *d, const DemoOpts *o, DemoRun *r) {
  uint64_t f, pace_ns, pace_frame = 0; /* --realtime: frame pace_frame started at pace_ns */
  char *log = r->log;
  size_t logcap = r->logcap;
  r->frames = o->frames;
  r->log_hash = 1469598103934665603ULL;
  r->t_start = cli_now_ns();
  pace_ns = r->t_start;
  for (f = 0; f < (uint64_t)r->frames; f++) {
    lds_TickStats ts;
    size_t loglen = 0;
    loglen += (size_t)snprintf(log, logcap, "f%llu", (unsigned long long)f);
    demo_update_doors(d, f, log, &loglen, logcap);
    if (!demo_update_agents(d, f)) return 2;
    d->frame = f;
    timed_tick(d, o, r, f, &ts);
    if (loglen + 128 < logcap)
      loglen += (size_t)snprintf(log + loglen, logcap - loglen, " | exp %llu start %u fin %u "
                                 "found %u restart %u queued %u",
                                 (unsigned long long)ts.expansions, ts.started, ts.finished,
                                 ts.found, ts.restarted, ts.queued);
    demo_collect(d, f, log, &loglen, logcap);
    r->log_hash = fnv1a(r->log_hash, log, loglen);
    r->log_hash = fnv1a(r->log_hash, "\n", 1);
    if (r->logf) fprintf(r->logf, "%.*s\n", (int)loglen, log);
    if ((f + 1) % 60 == 0) print_second(d, o, r, f);
    if (o->exit_after > 0 && d->reloads > 0 && f + 1 >= d->reload_frame + (uint64_t)o->exit_after) {
      r->frames = (long)(f + 1); /* the statistics cover the frames run */
      break;
    }
    if (o->realtime && f + 1 < (uint64_t)r->frames) {
      /* frame f+1 starts (f+1 - pace_frame)/60 s after pace_ns; when a frame
      ** ran late the pace restarts from now, rather than running the next
      ** frames back to back to catch up */
      uint64_t now = cli_now_ns(), due = pace_ns + (f + 1 - pace_frame) * 1000000000u / 60u;
      if (!o->json) fflush(stdout); /* a person (or a pipe) watches the lines as they come */
      if (due > now) {
        sleep_until_ns(due);
      } else {
        pace_ns = now;
        pace_frame = f + 1;
      }
    }
  }
  return 0;
}
