/* SPDX-License-Identifier: MIT */
/*
** demo_report.c — the demo's summary: latency in frames, time per frame,
** overshoot, expansions, doors, path checks, the log hash, and with --mods
** the mod events and the request accounting; as text, or one JSON line.
*/
#include "demo.h"

#include <math.h>

/* The quantiles and totals the summary prints. */
typedef struct Summary {
  double lat50, lat99, lat_max, exp50, exp_max, fu50, fu99, fu_max, cpu99, cpu_max;
  double lat_bound, wall_s;
  uint32_t oldest;
  lds_TickStats tot;
} Summary;

static void summarize(const Demo *d, const DemoOpts *o, const DemoRun *r, Summary *s) {
  size_t frames = (size_t)r->frames;
  unsigned long finished = d->completed + d->no_path + d->stale + d->errors;
  long i;
  s->oldest = 0; /* the oldest request still waiting */
  for (i = 0; i < d->nagents; i++) {
    lds_RequestInfo info;
    if (d->agents[i].req && lds_scheduler_info(d->sc, d->agents[i].req, &info) == LDS_OK &&
        info.status == LDS_RUNNING && info.frames > s->oldest)
      s->oldest = info.frames;
  }
  s->lat50 = cli_quantile(d->latency, d->nlat, 0.5);
  s->lat99 = cli_quantile(d->latency, d->nlat, 0.99);
  s->lat_max = cli_quantile(d->latency, d->nlat, 1.0);
  s->exp50 = cli_quantile(r->frame_exp, frames, 0.5);
  s->exp_max = cli_quantile(r->frame_exp, frames, 1.0);
  s->fu50 = cli_quantile(r->frame_us, frames, 0.5);
  s->fu99 = cli_quantile(r->frame_us, frames, 0.99);
  s->fu_max = cli_quantile(r->frame_us, frames, 1.0);
  s->cpu99 = cli_quantile(r->frame_cpu, frames, 0.99);
  s->cpu_max = cli_quantile(r->frame_cpu, frames, 1.0);
  /* closed loop, one request per agent at most, FIFO within a priority:
  ** a request waits for fewer than `agents` others, served at the measured
  ** throughput (requests finished per frame) */
  s->lat_bound = finished ? ceil((double)o->agents * (double)r->frames / (double)finished) : 0.0;
  s->wall_s = (double)(cli_now_ns() - r->t_start) / 1e9;
  lds_scheduler_totals(d->sc, &s->tot);
}

static void print_text(const Demo *d, const DemoOpts *o, const DemoRun *r, const Summary *s) {
  printf("summary (%.2f s wall for %ld frames)\n", s->wall_s, r->frames);
  printf("  requests      submitted %lu, completed %lu, no_path %lu, stale %lu, errors %lu, "
         "replans %lu, restarts %lu%s\n",
         d->submitted, d->completed, d->no_path, d->stale, d->errors, d->replans,
         (unsigned long)s->tot.restarted, o->quick ? "" : "");
  if (o->quick) printf("  quick paths   %lu walked\n", d->quick_used);
  printf("  latency       frames median %.0f, p99 %.0f, max %.0f; oldest pending %lu; "
         "bound agents/throughput %.0f\n",
         s->lat50, s->lat99, s->lat_max, (unsigned long)s->oldest, s->lat_bound);
  printf("  time/frame    us median %.1f, p99 %.1f, max %.1f (budget %ld%s)\n", s->fu50, s->fu99,
         s->fu_max, o->budget, o->det ? ", counted in expansions" : "");
  printf("  cpu/frame     us p99 %.1f, max %.1f (thread CPU time; %lu frames lost > 100 us "
         "to other processes)\n", s->cpu99, s->cpu_max, r->preempted);
  printf("  overshoot     %lu frames over budget, max %.1f us, mean %.1f us\n", r->overshoot_frames,
         r->overshoot_max, r->overshoot_frames ? r->overshoot_sum / (double)r->overshoot_frames : 0.0);
  printf("  expansions    per frame median %.0f, max %.0f; total %llu; clock reads %lu\n",
         s->exp50, s->exp_max, (unsigned long long)s->tot.expansions,
         (unsigned long)s->tot.clock_reads);
  printf("  doors         %lu toggles\n", d->door_toggles);
  printf("  paths         %lu non-optimal (%lu illegal)%s\n", d->nonoptimal, d->illegal,
         o->check ? "" : " (check skipped)");
  printf("  log_hash      %016llx\n", (unsigned long long)r->log_hash);
  if (d->rt)
    printf("  mods          %lu events, %lu reloads, %lu requests restarted; %lu paths "
           "unchecked (weighted A*/greedy profiles); %lu polls, mean %.0f us, max %llu us "
           "(outside the budget)\n"
           "  accounting    submitted %lu = finished %lu + cancelled %lu + in flight %zu\n",
           d->mod_events, d->reloads, d->mod_restarts, d->unchecked, d->polls,
           d->polls ? (double)d->poll_us_total / (double)d->polls : 0.0,
           (unsigned long long)d->poll_us_max, d->submitted,
           d->completed + d->no_path + d->stale + d->errors, d->cancelled,
           lds_scheduler_pending(d->sc));
}

static void print_json(const Demo *d, const DemoOpts *o, const DemoRun *r, const Summary *s) {
  printf("{\"map\":");
  cli_json_string(stdout, o->map_path);
  printf(",\"frames\":%ld,\"agents\":%ld,\"budget_us\":%ld,\"deterministic\":%s,"
         "\"algo\":\"%s\",\"requests_submitted\":%lu,\"requests_completed\":%lu,"
         "\"no_path\":%lu,\"stale\":%lu,\"errors\":%lu,\"replans\":%lu,\"restarts\":%lu,"
         "\"latency_frames_median\":%.0f,\"latency_frames_p99\":%.0f,"
         "\"latency_frames_max\":%.0f,\"oldest_pending_frames\":%lu,\"latency_bound_frames\":%.0f,"
         "\"frame_us_median\":%.1f,\"frame_us_p99\":%.1f,\"frame_us_max\":%.1f,"
         "\"overshoot_frames\":%lu,\"overshoot_us_max\":%.1f,"
         "\"frame_cpu_us_p99\":%.1f,\"frame_cpu_us_max\":%.1f,\"preempted_frames\":%lu,"
         "\"expansions_per_frame_median\":%.0f,\"expansions_total\":%llu,"
         "\"door_toggles\":%lu,\"nonoptimal_paths\":%lu,\"checked\":%s,"
         "\"log_hash\":\"%016llx\"",
         r->frames, o->agents, o->budget, o->det ? "true" : "false", lds_algo_name(o->algo),
         d->submitted, d->completed, d->no_path, d->stale, d->errors, d->replans,
         (unsigned long)s->tot.restarted, s->lat50, s->lat99, s->lat_max, (unsigned long)s->oldest,
         s->lat_bound, s->fu50, s->fu99, s->fu_max, r->overshoot_frames, r->overshoot_max,
         s->cpu99, s->cpu_max, r->preempted, s->exp50, (unsigned long long)s->tot.expansions,
         d->door_toggles, d->nonoptimal, o->check ? "true" : "false",
         (unsigned long long)r->log_hash);
  if (d->rt)
    printf(",\"mods\":true,\"mod_events\":%lu,\"reloads\":%lu,\"mod_restarts\":%lu,"
           "\"unchecked_paths\":%lu,\"requests_cancelled\":%lu,\"requests_in_flight\":%zu",
           d->mod_events, d->reloads, d->mod_restarts, d->unchecked, d->cancelled,
           lds_scheduler_pending(d->sc));
  printf("}\n");
}

int demo_report(const Demo *d, const DemoOpts *o, const DemoRun *r) {
  Summary s;
  summarize(d, o, r, &s);
  if (o->json)
    print_json(d, o, r, &s);
  else
    print_text(d, o, r, &s);
  /* failed requests fail the run, and so do non-optimal paths from an
  ** algorithm that promises optimal ones (wastar and greedy do not) */
  if ((o->check && d->illegal) || d->errors ||
      (o->check && d->nonoptimal && o->algo != LDS_ALGO_WASTAR && o->algo != LDS_ALGO_GREEDY))
    return 1;
  return 0;
}
