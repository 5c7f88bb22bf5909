/* SPDX-License-Identifier: MIT */
/*
** test_main.c — the single C test runner: runs every suite, prints
** "N passed, N failed", exits non-zero on any failure.
*/
#include "harness.h"
#include "test_suites.h"

#include <stdlib.h>

int th_passed, th_failed;
const char *th_suite = "";

void *th_alloc(void *ud, void *ptr, size_t osize, size_t nsize) {
  th_Alloc *a = (th_Alloc *)ud;
  if (nsize == 0) {
    if (ptr) a->live -= osize;
    free(ptr);
    return NULL;
  }
  a->count++;
  if ((a->fail_at && a->count == a->fail_at) ||
      (a->limit && a->live - (ptr ? osize : 0) + nsize > a->limit))
    return NULL;
  ptr = realloc(ptr, nsize);
  if (ptr) a->live = a->live - osize + nsize;
  return ptr;
}

#define RUN_SUITE(fn)                                              \
  do {                                                             \
    int p0 = th_passed, f0 = th_failed;                            \
    th_suite = #fn;                                                \
    fn();                                                          \
    printf("%-28s %5d passed, %d failed\n", &(#fn)[6], th_passed - p0, th_failed - f0); \
  } while (0)

int main(int argc, char **argv) {
  (void)argc;
  (void)argv;
  ALL_SUITES
  printf("%d passed, %d failed\n", th_passed, th_failed);
  return th_failed ? 1 : 0;
}
