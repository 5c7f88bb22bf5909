/* SPDX-License-Identifier: MIT */
/*
** lds_search_pages.c — the paged layout of the exact A* loop's node records
** (ldsi_Hot) on large grids: a page table over the node ids, pages claimed
** from a per-search pool on a query's first touch, and returned to the pool
** by the next query (see LDSI_PAGE_SHIFT in lds_search_internal.h). A
** search on a big map then costs the pages its largest query touched, and
** no record is written before a query touches it.
*/
#include "lds_search_internal.h"

#include <string.h>

/* The page every unclaimed id reads: generation 0, so each record is fresh
** (queries run at generations >= 1). Read only; shared by every search. */
const ldsi_Hot ldsi_hot_zero_page[LDSI_PAGE_RECS];

bool ldsi_pages_init(lds_Search *s, size_t n) {
  size_t k, np = (n + LDSI_PAGE_RECS - 1) >> LDSI_PAGE_SHIFT;
  s->hot_npages = np;
  s->hot_tab = (ldsi_Hot **)ldsi_alloc(&s->env, np * sizeof(ldsi_Hot *));
  s->pool = (ldsi_Hot **)ldsi_alloc(&s->env, np * sizeof(ldsi_Hot *));
  s->pool_owner = (uint32_t *)ldsi_alloc(&s->env, np * sizeof(uint32_t));
  s->pool_spare = (ldsi_Hot *)ldsi_alloc(&s->env, LDSI_PAGE_RECS * sizeof(ldsi_Hot));
  if (!s->hot_tab || !s->pool || !s->pool_owner || !s->pool_spare) return false;
  for (k = 0; k < np; k++) s->hot_tab[k] = (ldsi_Hot *)(uintptr_t)ldsi_hot_zero_page;
  s->pool_used = s->pool_n = 0;
  return true;
}

/* Allocates the next chunk of pool pages (zeroed: generation 0); false
** when out of memory or every page of the map is allocated. */
static bool pool_grow(lds_Search *s) {
  size_t k, add = s->hot_npages - s->pool_n;
  ldsi_Hot *chunk;
  if (add > LDSI_POOL_CHUNK) add = LDSI_POOL_CHUNK;
  if (add == 0) return false;
  chunk = (ldsi_Hot *)ldsi_calloc(&s->env, add * LDSI_PAGE_RECS, sizeof(ldsi_Hot));
  if (!chunk) return false;
  for (k = 0; k < add; k++) s->pool[s->pool_n + k] = chunk + k * LDSI_PAGE_RECS;
  s->pool_n += add;
  return true;
}

ldsi_Hot *ldsi_hot_map(lds_Search *s, uint32_t v) {
  size_t t = v >> LDSI_PAGE_SHIFT;
  ldsi_Hot *page;
  if (s->pool_used == s->pool_n && !pool_grow(s)) {
    /* out of memory: the step ends with LDS_E_NOMEM (the loop checks
    ** pool_fail after the expansion); until then the spare page stands in
    ** for every page that could not be claimed (the query's records there
    ** are meaningless, and the next query unmaps it: ldsi_pages_recycle) */
    s->pool_fail = true;
    s->hot_tab[t] = s->pool_spare;
    return s->pool_spare + (v & LDSI_PAGE_MASK);
  }
  page = s->pool[s->pool_used];
  s->pool_owner[s->pool_used++] = (uint32_t)t;
  s->hot_tab[t] = page;
  return page + (v & LDSI_PAGE_MASK);
}

bool ldsi_pages_reserve(lds_Search *s) {
  if (!s->hot_tab) return true;
  while (s->pool_n < s->hot_npages)
    if (!pool_grow(s)) return false;
  return true;
}

void ldsi_pages_recycle(lds_Search *s) {
  size_t i;
  if (!s->hot_tab) return;
  for (i = 0; i < s->pool_used; i++)
    s->hot_tab[s->pool_owner[i]] = (ldsi_Hot *)(uintptr_t)ldsi_hot_zero_page;
  if (s->pool_fail) /* after a failed claim: the entries the spare page took (rare) */
    for (i = 0; i < s->hot_npages; i++)
      if (s->hot_tab[i] == s->pool_spare) s->hot_tab[i] = (ldsi_Hot *)(uintptr_t)ldsi_hot_zero_page;
  s->pool_used = 0;
  s->pool_fail = false;
}

void ldsi_pages_clear(lds_Search *s) {
  size_t i;
  ldsi_pages_recycle(s);
  /* chunks are contiguous runs of pages: clear page by page */
  for (i = 0; i < s->pool_n; i++) memset(s->pool[i], 0, LDSI_PAGE_RECS * sizeof(ldsi_Hot));
}

/* Frees the chunks: pool[i] starts a chunk when i is a multiple of
** LDSI_POOL_CHUNK (pool_grow allocates in that order). */
void ldsi_pages_free(lds_Search *s) {
  size_t i;
  if (s->pool)
    for (i = 0; i < s->pool_n; i += LDSI_POOL_CHUNK) {
      size_t add = s->pool_n - i < LDSI_POOL_CHUNK ? s->pool_n - i : LDSI_POOL_CHUNK;
      ldsi_free(&s->env, s->pool[i], add * LDSI_PAGE_RECS * sizeof(ldsi_Hot));
    }
  ldsi_free(&s->env, s->hot_tab, s->hot_npages * sizeof(ldsi_Hot *));
  ldsi_free(&s->env, s->pool, s->hot_npages * sizeof(ldsi_Hot *));
  ldsi_free(&s->env, s->pool_owner, s->hot_npages * sizeof(uint32_t));
  ldsi_free(&s->env, s->pool_spare, LDSI_PAGE_RECS * sizeof(ldsi_Hot));
  s->hot_tab = s->pool = NULL;
  s->pool_owner = NULL;
  s->pool_spare = NULL;
  s->pool_n = s->pool_used = 0;
}

size_t ldsi_pages_bytes(const lds_Search *s) {
  if (!s->hot_tab) return 0;
  return s->hot_npages * (2 * sizeof(ldsi_Hot *) + sizeof(uint32_t)) +
         (s->pool_n + 1) * LDSI_PAGE_RECS * sizeof(ldsi_Hot);
}
