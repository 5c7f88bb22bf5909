/* SPDX-License-Identifier: MIT */
/*
** lds_common.c — status names, default allocator and clock, error helpers.
*/
#define _POSIX_C_SOURCE 200809L
#include "lds_internal.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static const char *const status_names[] = {
    /* -8 .. 3 */
    "callback", "format", "io", "stale", "state", "limit", "nomem", "arg",
    "ok", "running", "found", "no_path"};

const char *lds_status_name(lds_Status s) {
  int i = (int)s + 8;
  if (i < 0 || i >= (int)(sizeof status_names / sizeof status_names[0])) return "unknown";
  return status_names[i];
}

const char *lds_version(void) { return LDS_VERSION; }

void *lds_alloc_default(void *ud, void *ptr, size_t osize, size_t nsize) {
  (void)ud;
  (void)osize;
  if (nsize == 0) {
    free(ptr);
    return NULL;
  }
  return realloc(ptr, nsize);
}

uint64_t lds_clock_default(void *ud) {
  struct timespec ts;
  (void)ud;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
}

void lds_env_init(lds_Env *env) {
  if (env) memset(env, 0, sizeof *env);
}

void ldsi_env_resolve(ldsi_Env *out, const lds_Env *in) {
  out->alloc = (in && in->alloc) ? in->alloc : lds_alloc_default;
  out->alloc_ud = in ? in->alloc_ud : NULL;
  out->clock = (in && in->clock) ? in->clock : lds_clock_default;
  out->clock_ud = in ? in->clock_ud : NULL;
  out->log = in ? in->log : NULL;
  out->log_ud = in ? in->log_ud : NULL;
}

void *ldsi_alloc(const ldsi_Env *e, size_t n) {
  return n ? e->alloc(e->alloc_ud, NULL, 0, n) : NULL;
}

void *ldsi_calloc(const ldsi_Env *e, size_t count, size_t size) {
  void *p;
  if (count && size > (size_t)-1 / count) return NULL; /* overflow */
  p = ldsi_alloc(e, count * size);
  if (p) memset(p, 0, count * size);
  return p;
}

void *ldsi_realloc(const ldsi_Env *e, void *p, size_t osize, size_t nsize) {
  return e->alloc(e->alloc_ud, p, p ? osize : 0, nsize);
}

void ldsi_free(const ldsi_Env *e, void *p, size_t osize) {
  if (p) e->alloc(e->alloc_ud, p, osize, 0);
}

void ldsi_msg(char *buf, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, LDS_ERRMSG_SIZE, fmt, ap);
  va_end(ap);
}

lds_Status ldsi_error(lds_Error *err, lds_Status code, const char *fmt, ...) {
  if (err) {
    va_list ap;
    err->code = code;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
  }
  return code;
}

void ldsi_error_clear(lds_Error *err) {
  if (err) {
    err->code = LDS_OK;
    err->msg[0] = '\0';
  }
}
