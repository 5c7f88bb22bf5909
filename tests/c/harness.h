/* SPDX-License-Identifier: MIT */
/*
** harness.h — the C test harness: CHECK macros that count, and a closing
** "N passed, N failed" line. Each test_*.c defines `void suite_NAME(void)`.
*/
#ifndef LDS_TEST_HARNESS_H
#define LDS_TEST_HARNESS_H

#include <math.h>
#include <stdio.h>
#include <string.h>

extern int th_passed, th_failed;
extern const char *th_suite;

#define TH_FAIL(...)                                               \
  do {                                                             \
    th_failed++;                                                   \
    fprintf(stderr, "FAIL %s %s:%d: ", th_suite, __FILE__, __LINE__); \
    fprintf(stderr, __VA_ARGS__);                                  \
    fputc('\n', stderr);                                           \
  } while (0)

#define CHECK(cond)                        \
  do {                                     \
    if (cond)                              \
      th_passed++;                         \
    else                                   \
      TH_FAIL("%s", #cond);                \
  } while (0)

#define CHECK_INT(a, b)                                                              \
  do {                                                                               \
    long long th_a = (long long)(a), th_b = (long long)(b);                          \
    if (th_a == th_b)                                                                \
      th_passed++;                                                                   \
    else                                                                             \
      TH_FAIL("%s == %s: got %lld, expected %lld", #a, #b, th_a, th_b);              \
  } while (0)

#define CHECK_NEAR(a, b, tol)                                                        \
  do {                                                                               \
    double th_a = (double)(a), th_b = (double)(b);                                   \
    if (fabs(th_a - th_b) <= (tol))                                                  \
      th_passed++;                                                                   \
    else                                                                             \
      TH_FAIL("%s ~= %s: got %.12g, expected %.12g", #a, #b, th_a, th_b);            \
  } while (0)

#define CHECK_STR(a, b)                                                              \
  do {                                                                               \
    const char *th_a = (a), *th_b = (b);                                             \
    if (th_a && th_b && strcmp(th_a, th_b) == 0)                                     \
      th_passed++;                                                                   \
    else                                                                             \
      TH_FAIL("%s == %s: got \"%s\", expected \"%s\"", #a, #b, th_a ? th_a : "(null)", \
              th_b ? th_b : "(null)");                                               \
  } while (0)

/* substring check for error messages */
#define CHECK_CONTAINS(hay, needle)                                                  \
  do {                                                                               \
    const char *th_h = (hay), *th_n = (needle);                                      \
    if (th_h && th_n && strstr(th_h, th_n))                                          \
      th_passed++;                                                                   \
    else                                                                             \
      TH_FAIL("%s contains \"%s\": got \"%s\"", #hay, th_n, th_h ? th_h : "(null)"); \
  } while (0)

/* Directory of the shared data (../shared by default). */
#ifndef LDS_SHARED_DIR
#define LDS_SHARED_DIR "../shared"
#endif

/* A failing allocator for OOM tests: fails the Nth allocation (1-based) or
** any allocation beyond a byte limit. Also counts live bytes to find leaks. */
typedef struct th_Alloc {
  long fail_at;      /* 0 = never */
  long count;        /* allocations so far */
  size_t limit;      /* 0 = none */
  size_t live;       /* bytes currently allocated */
} th_Alloc;
void *th_alloc(void *ud, void *ptr, size_t osize, size_t nsize);

/* small helper for random tests: xorshift64* */
typedef struct th_Rng { unsigned long long s; } th_Rng;
static inline unsigned long long th_rand(th_Rng *r) {
  r->s ^= r->s >> 12;
  r->s ^= r->s << 25;
  r->s ^= r->s >> 27;
  return r->s * 2685821657736338717ULL;
}
static inline int th_randint(th_Rng *r, int n) { return (int)(th_rand(r) % (unsigned long long)n); }

#endif
