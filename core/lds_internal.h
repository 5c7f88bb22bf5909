/* SPDX-License-Identifier: MIT */
/*
** lds_internal.h — helpers shared between core files (ldsi_*, hidden).
** Not installed; not part of the public API.
*/
#ifndef LDS_INTERNAL_H
#define LDS_INTERNAL_H

#include "lds_common.h"

#include <math.h>
#include <stdatomic.h>

/* A resolved environment: every member set. */
typedef struct ldsi_Env {
  lds_Alloc alloc;
  void *alloc_ud;
  lds_Clock clock;
  void *clock_ud;
  lds_Log log;
  void *log_ud;
} ldsi_Env;

LDSI_HIDDEN void ldsi_env_resolve(ldsi_Env *out, const lds_Env *in);
/* The public form of a resolved environment, to hand to a public
** constructor (lds_path_new, ...) so it allocates and logs the same way. */
static inline lds_Env ldsi_env_public(const ldsi_Env *e) {
  lds_Env out;
  out.alloc = e->alloc;
  out.alloc_ud = e->alloc_ud;
  out.clock = e->clock;
  out.clock_ud = e->clock_ud;
  out.log = e->log;
  out.log_ud = e->log_ud;
  return out;
}
LDSI_HIDDEN void *ldsi_alloc(const ldsi_Env *e, size_t n);
LDSI_HIDDEN void *ldsi_calloc(const ldsi_Env *e, size_t count, size_t size);
LDSI_HIDDEN void *ldsi_realloc(const ldsi_Env *e, void *p, size_t osize, size_t nsize);
LDSI_HIDDEN void ldsi_free(const ldsi_Env *e, void *p, size_t osize);

/* Fills err (if not NULL) with code and a printf-style message; returns code. */
LDSI_HIDDEN lds_Status ldsi_error(lds_Error *err, lds_Status code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Same into a plain buffer of LDS_ERRMSG_SIZE bytes. */
LDSI_HIDDEN void ldsi_msg(char *buf, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
LDSI_HIDDEN void ldsi_error_clear(lds_Error *err);
/* A number as error messages print it with %g: a NaN loses its sign bit, so
** every NaN reads "nan" (printf writes "-nan" for a negative one, the usual
** result of 0.0/0.0 on x86). */
static inline double ldsi_num(double x) { return x != x ? fabs(x) : x; }

#define LDSI_SQRT2 1.4142135623730951

/* A spin lock (C11 atomic_flag) for the rare writes that threads reading a
** shared grid or graph may make at once: registering and removing listeners
** (a JPS search's first start, lds_dstar_subscribe, lds_search_free). It is
** held for a few stores and at most one realloc, so spinning costs less than
** a system mutex would, and core/ stays pure C11 (threads.h is optional).
** Clear it with ldsi_spin_init before first use. See docs/threads.md. */
typedef atomic_flag ldsi_Spin;
static inline void ldsi_spin_init(ldsi_Spin *l) { atomic_flag_clear(l); }
static inline void ldsi_spin_lock(ldsi_Spin *l) {
  while (atomic_flag_test_and_set_explicit(l, memory_order_acquire)) {
  }
}
static inline void ldsi_spin_unlock(ldsi_Spin *l) {
  atomic_flag_clear_explicit(l, memory_order_release);
}

#endif
