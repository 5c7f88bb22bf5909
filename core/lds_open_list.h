/* SPDX-License-Identifier: MIT */
/*
** lds_open_list.h — the open list of the grid and graph searches: an
** indexed heap of ldsi_Open entries (each carries its whole key, so sifting
** never touches the node records), with decrease-key, Floyd's bottom-up pop
** (an x86-64 inline-assembly descent and a portable one) and the plateau
** stack beside it (s->buf). Two key forms (ldsi_KeyForm): the general one
** (f and g as ordered integer keys, binary heap) and the exact one
** (fixed-point octile keys, 4-ary heap). Inlined into each expansion loop
** (lds_astar.c, lds_jps.c, lds_search_graph.c). Hidden; not installed.
*/
#ifndef LDS_OPEN_LIST_H
#define LDS_OPEN_LIST_H

#include "lds_search_internal.h"

#include <stddef.h>
#include <string.h>

/* The key form of an open list and the node records its loop uses, a
** compile-time constant of every inlined open-list function (each loop is
** specialised on it):
** - LDSI_KEYS_GENERAL: general keys (f, then larger g, then seq), binary
**   heap, ldsi_Node records (every loop but the two below);
** - LDSI_KEYS_EXACT: exact keys (f as a double key, k2 = the exact h key |
**   seq), 4-ary heap, ldsi_Node records (JPS under octile, weight 1);
** - LDSI_KEYS_EXACT_HOT: exact keys with the fixed-point f key
**   (ldsi_exact_f_key), 4-ary heap, ldsi_Hot records (the exact A* loop on
**   grids, grid_run_exact in lds_astar.c);
** - LDSI_KEYS_EXACT_PAGED: the same on paged ldsi_Hot records (large
**   grids: see LDSI_PAGE_SHIFT in lds_search_internal.h). */
typedef enum {
  LDSI_KEYS_GENERAL = 0,
  LDSI_KEYS_EXACT = 1,
  LDSI_KEYS_EXACT_HOT = 2,
  LDSI_KEYS_EXACT_PAGED = 3
} ldsi_KeyForm;
/* kf runs on ldsi_Hot records (dense or paged) */
#define LDSI_HOTREC(kf) ((kf) >= LDSI_KEYS_EXACT_HOT)
/* kf is an exact form (LDSI_KEYS_EXACT or LDSI_KEYS_EXACT_HOT) */
#define LDSI_EXACT(kf) ((kf) != LDSI_KEYS_GENERAL)

/* Open-list entry: the whole key is copied in, so sifting never touches the
** node records (on grids f ties are frequent: see ldsi_Node).
** The order is f ascending, then g descending, then insertion order. k2 holds
** the part after f in one of two forms (a search uses one form throughout):
** - general: ~ldsi_open_key(g) (ascending = larger g first), and seq breaks
**   the remaining ties;
** - exact (the uniform-cost octile loop, see ldsi_exact_h_key): the octile
**   distance to the goal as a fixed-point integer in the high 32 bits and seq
**   in the low 32, so the whole order is one 128-bit comparison of (fk, k2).
**   Among equal f, g = f - h, so smaller h is larger g: the same order. */
typedef struct ldsi_Open {
  uint64_t fk;  /* f as an ordered integer key: ldsi_open_key(f); in the
                ** exact A* loop on grids (LDSI_KEYS_EXACT_HOT) ldsi_exact_f_key */
  uint64_t k2;  /* the order after f: see above */
  uint32_t node;
  uint32_t seq; /* insertion order, the last tie-breaker (general form);
                ** in the exact A* loop on grids (LDSI_KEYS_EXACT_HOT), where k2 holds
                ** the insertion order: the directions left to relax from
                ** the node after the pruning for the move that queued it
                ** (see relax_hot), ready when the node is popped */
} ldsi_Open;
/* the layout ldsi_open_pop_x's x86-64 descent reads */
_Static_assert(sizeof(ldsi_Open) == 24 && offsetof(ldsi_Open, k2) == 8, "ldsi_Open layout");

/* The bits of a double >= 0 (or +inf) read as an unsigned integer grow with
** the value, so f and g are compared as integers: the order (f ascending,
** then g descending, then seq) is then one 128-bit comparison where the
** compiler has one (see ldsi_open_less_nb below). f and g are never
** negative nor NaN (costs are validated); + 0.0 turns a -0.0 into +0.0. */
static inline uint64_t ldsi_open_key(double x) {
  uint64_t b;
  x += 0.0;
  memcpy(&b, &x, sizeof b);
  return b;
}

/* ldsi_open_key(INFINITY) */
#define LDSI_KEY_INF UINT64_C(0x7FF0000000000000)

/* the value of a key made by ldsi_open_key */
static inline double ldsi_open_val(uint64_t k) {
  double x;
  memcpy(&x, &k, sizeof x);
  return x;
}

/* A binary heap for the general key form. A 4-ary heap is shallower, but
** choosing the smallest of four children costs three key comparisons per
** level against one: with the bottom-up pop (ldsi_open_pop_x) and the
** general form's three-part comparison the binary heap executes fewer
** instructions per expansion and is faster on small open lists (mazes;
** docs/search.md). The exact form is 4-ary (LDSI_XK_ARITY, below). */

/* The order of open-list entries; kf (a constant after inlining) tells the
** form of k2 (see ldsi_Open and ldsi_KeyForm). */
LDSI_INLINE bool ldsi_open_less_x(const ldsi_Open *a, const ldsi_Open *b, const ldsi_KeyForm kf) {
  if (a->fk != b->fk) return a->fk < b->fk;
  if (LDSI_EXACT(kf)) return a->k2 < b->k2; /* smaller h (larger g), then seq */
  if (a->k2 != b->k2) return a->k2 < b->k2; /* larger g first */
  return a->seq < b->seq;                   /* then insertion order */
}

/* The same order, computed without branches, so the compiler emits
** flag arithmetic (cmp/sbb, setcc) instead of a branch: ldsi_open_pop selects
** the smaller of two children with it, where a branch would be
** mispredicted about half of the time. (f, k2) is one 128-bit key where the
** compiler has 128-bit integers (gcc and clang on 64-bit targets); in the
** exact form that key is the whole order. */
#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 ldsi_u128;
LDSI_INLINE unsigned ldsi_open_less_nb(const ldsi_Open *a, const ldsi_Open *b, const ldsi_KeyForm kf) {
  ldsi_u128 ka = ((ldsi_u128)a->fk << 64) | a->k2, kb = ((ldsi_u128)b->fk << 64) | b->k2;
  if (LDSI_EXACT(kf)) return (unsigned)(ka < kb);
  return (unsigned)(ka < kb) | ((unsigned)(ka == kb) & (unsigned)(a->seq < b->seq));
}
#else
LDSI_INLINE unsigned ldsi_open_less_nb(const ldsi_Open *a, const ldsi_Open *b, const ldsi_KeyForm kf) {
  unsigned lt_f = a->fk < b->fk, eq_f = a->fk == b->fk;
  unsigned lt_g = a->k2 < b->k2, eq_g = a->k2 == b->k2;
  unsigned lt_s = LDSI_EXACT(kf) ? 0u : (unsigned)(a->seq < b->seq);
  return lt_f | (eq_f & (lt_g | (eq_g & lt_s)));
}
#endif

/* The exact-form h key (see ldsi_Open) of a cell (dx, dy) from the goal:
** the octile distance (hi - lo) + lo*sqrt(2) as a fixed-point number with
** scale S = s->hq_scale, in integer arithmetic: ((hi - lo)*a + lo*c) >> 16
** with a = S * 2^16 and c = sqrt(2) * S * 2^16 rounded down (hq_a, hq_c),
** so the key is within 1.25 units below the exact h*S. Two distinct octile
** distances p + q*sqrt(2) (p, q integers, q <= the grid's larger side N)
** differ by at least 1 / (2*sqrt(2)*N + 1), since |p^2 - 2q^2| >= 1;
** lds_search_start picks S so that this gap spans at least two units and
** the largest distance fits 32 bits, so the key orders distances exactly,
** and equal distances (the same (hi, lo)) give equal keys. */
LDSI_INLINE uint64_t ldsi_exact_h_key(int32_t dx, int32_t dy, uint64_t a, uint64_t c) {
  uint32_t ax = (uint32_t)(dx < 0 ? -dx : dx), ay = (uint32_t)(dy < 0 ? -dy : dy);
  uint32_t lo = ax < ay ? ax : ay, hi = ax < ay ? ay : ax;
  return (((uint64_t)(hi - lo) * a + (uint64_t)lo * c) >> 16) << 32;
}

/* The f key of the exact A* loop on grids (LDSI_KEYS_EXACT_HOT): f = a + b*sqrt(2) for
** move counts a = ns + (hi - lo) and b = nd + lo (g's counts plus octile
** h's), as a fixed-point number with 32 fraction bits: a*2^32 +
** floor(b*C / 2^30) with C = floor(sqrt(2) * 2^62), within 1.5 units below
** the exact f*2^32. The loop runs where hq_scale > 0, on grids of at most
** 23168 cells a side (lds_search_start), so a path has fewer than 2^29
** moves and a, b < 2^29.01. Two distinct such f differ by more than
** 1 / (2^29.01 * (1 + sqrt(2))), 3.29 units, since |p^2 - 2q^2| >= 1 for
** integers (p, q) != (0, 0): the keys order f exactly, and equal f (the
** same counts: sqrt(2) is irrational) give equal keys. Every key is below
** 2^62.3, under the sentinel's LDSI_KEY_INF, and no product overflows.
** Integer arithmetic: no int-to-double conversions per successor. */
#define LDSI_SQRT2_Q62_HI 1518500249u /* C = HI * 2^32 + LO */
#define LDSI_SQRT2_Q62_LO 4243534402u
LDSI_INLINE uint64_t ldsi_exact_f_key(uint32_t a, uint32_t b) {
  return ((uint64_t)a << 32) + (((uint64_t)b * LDSI_SQRT2_Q62_HI) << 2) +
         (((uint64_t)b * LDSI_SQRT2_Q62_LO) >> 30);
}

/* k2 of a new entry: the exact form from hk2 = ldsi_exact_h_key(...) and
** seq, or the general form from g */
LDSI_INLINE uint64_t ldsi_make_k2(double g, uint64_t hk2, uint32_t seq, const ldsi_KeyForm kf) {
  return LDSI_EXACT(kf) ? (hk2 | seq) : ~ldsi_open_key(g);
}

/* The exact-form heap is 4-ary (LDSI_XK_ARITY): with one 128-bit comparison
** per child pair it executes as many instructions as the binary heap and
** mispredicts fewer branches (docs/search.md); the general form, with the
** costlier three-part comparison, stays binary. */
#ifndef LDSI_XK_ARITY
#define LDSI_XK_ARITY 4
#endif
#define LDSI_ARITY4(kf) (LDSI_EXACT(kf) && LDSI_XK_ARITY == 4)

/* The ldsi_Hot record of node x in a loop of key form kf (a constant):
** dense (LDSI_KEYS_EXACT_HOT) or paged (LDSI_KEYS_EXACT_PAGED; x's page is
** claimed, or the zero page when only read) */
#define LDSI_HOT_REC(s, x, kf)                                                                \
  ((kf) == LDSI_KEYS_EXACT_PAGED                                                             \
       ? (s)->hot_tab[(uint32_t)(x) >> LDSI_PAGE_SHIFT] + ((uint32_t)(x) & LDSI_PAGE_MASK)   \
       : (s)->hot + (x))

/* The heap position field of node x under key form kf (ldsi_KeyForm: the
** ldsi_Hot records with LDSI_HOTREC(kf), else the ldsi_Node records). */
#define LDSI_HIDX(s, nodes, x, kf) \
  (*(LDSI_HOTREC(kf) ? &LDSI_HOT_REC(s, x, kf)->heap : &(nodes)[x].heap))
LDSI_INLINE void ldsi_sift_up_x(lds_Search *s, uint32_t pos, ldsi_Open e, const ldsi_KeyForm kf) {
  ldsi_Open *h = s->open;
  ldsi_Node *nodes = s->nodes;
  while (pos > 0) {
    uint32_t parent = LDSI_ARITY4(kf) ? (pos - 1) >> 2 : (pos - 1) >> 1;
    if (!ldsi_open_less_x(&e, &h[parent], kf)) break;
    h[pos] = h[parent];
    LDSI_HIDX(s, nodes, h[pos].node, kf) = pos;
    pos = parent;
  }
  h[pos] = e;
  LDSI_HIDX(s, nodes, e.node, kf) = pos;
}

/* A sentinel entry (f = +inf; real entries have a finite f): ldsi_open_pop
** writes one into the slot it frees, just after the last entry, so every
** node it visits has two children to compare and its selection is
** branchless. */
LDSI_INLINE void ldsi_set_sentinel(ldsi_Open *h, size_t i) {
  h[i].fk = LDSI_KEY_INF;
  h[i].k2 = UINT64_MAX;
  h[i].node = 0;
  h[i].seq = UINT32_MAX;
}

/* Inserts the entry e into the heap (kf: see LDSI_HIDX) */
LDSI_INLINE void ldsi_open_insert_x(lds_Search *s, ldsi_Open e, const ldsi_KeyForm kf) {
  uint32_t pos = (uint32_t)s->open_n;
  if (LDSI_EXACT(kf)) {
    /* fill the slot the last pop left (a leaf), chosen without a branch (a
    ** hole is pending after a heap pop, not after a stack pop: a pattern
    ** the branch predictor misses) */
    uint32_t hole = s->hole;
    pos = hole != LDSI_NONE ? hole : pos;
    s->hole = LDSI_NONE;
    /* keep three sentinels past the end (never true with a hole pending:
    ** the extent is then open_n + 1, and open_hwm >= extent + 3) */
    if (s->open_n + 4 > s->open_hwm) {
      ldsi_set_sentinel(s->open, s->open_hwm);
      s->open_hwm++;
    }
  }
  s->open_n++;
  ldsi_sift_up_x(s, pos, e, kf);
  s->stats.pushes++;
  if (s->open_n + s->buf_n > s->stats.peak_open) s->stats.peak_open = s->open_n + s->buf_n;
}

/* Pushes node with f and g (general form) or f and the exact h key hk2 (seq
** bits zero; LDSI_KEYS_EXACT, with double f keys; the LDSI_KEYS_EXACT_HOT
** loop uses ldsi_open_push_fk) */
LDSI_INLINE void ldsi_open_push_x(lds_Search *s, uint32_t node, double f, double g, uint64_t hk2,
                                  const ldsi_KeyForm kf) {
  ldsi_Open e;
  e.fk = ldsi_open_key(f);
  e.seq = s->seq++;
  e.k2 = ldsi_make_k2(g, hk2, e.seq, kf);
  e.node = node;
  ldsi_open_insert_x(s, e, kf);
}

/* The same in the LDSI_KEYS_EXACT_HOT / _PAGED loop (kf), with the f key fk
** (ldsi_exact_f_key) */
LDSI_INLINE void ldsi_open_push_fk(lds_Search *s, uint32_t node, uint64_t fk, uint64_t hk2,
                                   uint32_t aux, const ldsi_KeyForm kf) {
  ldsi_Open e;
  uint32_t seq = s->seq++;
  e.fk = fk;
  e.seq = aux;
  e.k2 = hk2 | seq;
  e.node = node;
  ldsi_open_insert_x(s, e, kf);
}
LDSI_INLINE void ldsi_open_push(lds_Search *s, uint32_t node, double f, double g) {
  ldsi_open_push_x(s, node, f, g, 0, LDSI_KEYS_GENERAL);
}

/* Lowers the key of the entry at pos (its node's g improved); hk2 as in
** ldsi_open_push_x (the node's h is unchanged, so is hk2) */
LDSI_INLINE void ldsi_open_decrease_x(lds_Search *s, uint32_t pos, double f, double g,
                                      uint64_t hk2, const ldsi_KeyForm kf) {
  ldsi_Open e = s->open[pos];
  e.fk = ldsi_open_key(f);
  e.seq = s->seq++; /* a decrease-key counts as a new insertion */
  e.k2 = ldsi_make_k2(g, hk2, e.seq, kf);
  ldsi_sift_up_x(s, pos, e, kf);
  s->stats.pushes++;
}

/* The same in the LDSI_KEYS_EXACT_HOT / _PAGED loop (kf), with the f key fk
** (ldsi_exact_f_key) */
LDSI_INLINE void ldsi_open_decrease_fk(lds_Search *s, uint32_t pos, uint64_t fk, uint64_t hk2,
                                       uint32_t aux, const ldsi_KeyForm kf) {
  ldsi_Open e = s->open[pos];
  e.fk = fk;
  e.seq = aux;
  e.k2 = hk2 | s->seq++; /* a decrease-key counts as a new insertion */
  ldsi_sift_up_x(s, pos, e, kf);
  s->stats.pushes++;
}

LDSI_INLINE void ldsi_open_decrease(lds_Search *s, uint32_t pos, double f, double g) {
  ldsi_open_decrease_x(s, pos, f, g, 0, LDSI_KEYS_GENERAL);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(LDS_NO_ASM)
/* The smaller of the heap entries at byte offsets o and o + 24 from hb, in
** ldsi_open_less_nb's order ((fk, k2) as one 128-bit key, by cmp/sbb),
** selected by cmov (see ldsi_open_pop_x): returns its offset, and its key
** in *f and *q */
LDSI_INLINE uint64_t ldsi_pair_min_x86(const char *hb, uint64_t o, uint64_t *f, uint64_t *q) {
  uint64_t fa = *(const uint64_t *)(hb + o), qa = *(const uint64_t *)(hb + o + 8);
  uint64_t f1 = *(const uint64_t *)(hb + o + 24), q1 = *(const uint64_t *)(hb + o + 32);
  uint64_t b = o, t;
  __asm__("cmp %[qa], %[q1]\n\t"
          "mov %[f1], %[t]\n\t"
          "sbb %[fa], %[t]\n\t"
          "cmovb %[f1], %[fa]\n\t"
          "cmovb %[q1], %[qa]\n\t"
          "cmovb %[c1], %[b]"
          : [fa] "+r"(fa), [qa] "+r"(qa), [t] "=&r"(t), [b] "+r"(b)
          : [f1] "r"(f1), [q1] "r"(q1), [c1] "r"(o + sizeof(ldsi_Open))
          : "cc");
  *f = fa;
  *q = qa;
  return b;
}
#endif

/* Removes the root with Floyd's bottom-up variant: the hole at the root
** sinks to the bottom along the smaller children (1 comparison per level,
** none against the moving entry), then the last entry fills it and sifts
** up, usually by a level or none, since it came from the bottom. The order
** is total (seq breaks every tie), so the pop order is that of a plain
** sift-down; only the layout of the heap differs.
**
** Exact form (kf): the hole is left pending at the leaf it sank to
** (s->hole), the last entry staying in place: the expansion's first heap
** push fills it (ldsi_open_push_x), which saves moving the last entry and
** sifting it up; ldsi_open_settle_x fills it with the last entry when no push
** came. A pending hole is a leaf of the array (its children are past the
** last entry), so no sift-up started elsewhere passes through it. The order
** of pops is unchanged: every entry set is still a heap under the same total
** order. */
LDSI_INLINE uint32_t ldsi_open_pop_x(lds_Search *s, const ldsi_KeyForm kf) {
  ldsi_Open *h = s->open;
  ldsi_Node *nodes = s->nodes;
  uint32_t top = h[0].node;
  uint32_t n = (uint32_t)--s->open_n;
#if defined(__x86_64__) && defined(__GNUC__) && !defined(LDS_NO_ASM)
  if (LDSI_ARITY4(kf)) {
    /* The same descent, shaped for its dependency chain, which is what a pop
    ** waits on (load the four children, compare, select, compute the next
    ** children's address): the pair winners' keys are selected in registers
    ** (cmov), so the final comparison does not load the two winners again,
    ** and positions are byte offsets, so the first child of the entry at
    ** offset o is at 4*o + 24, one lea from the selection. x86-64 inline
    ** assembly: gcc turns these selects into branches, which mispredict
    ** half of the time. Same order as ldsi_open_less_nb: (f, k2) as one
    ** 128-bit key by cmp/sbb. LDS_NO_ASM, or another target, compiles the
    ** portable loop below (the same pop order). */
    const char *hb = (const char *)h;
    uint64_t poff = 0, nlim = (uint64_t)n * sizeof(ldsi_Open);
    for (;;) {
      uint64_t coff = 4 * poff + sizeof(ldsi_Open), b1, b2, t, fa, qa, fb, qb;
      if (coff > nlim) break;
      b1 = ldsi_pair_min_x86(hb, coff, &fa, &qa);
      b2 = ldsi_pair_min_x86(hb, coff + 2 * sizeof(ldsi_Open), &fb, &qb);
      __asm__("cmp %[qa], %[qb]\n\t"
              "mov %[fb], %[t]\n\t"
              "sbb %[fa], %[t]\n\t"
              "cmovb %[b2], %[b1]"
              : [t] "=&r"(t), [b1] "+r"(b1)
              : [fa] "r"(fa), [qa] "r"(qa), [fb] "r"(fb), [qb] "r"(qb), [b2] "r"(b2)
              : "cc");
      {
        ldsi_Open *dst = (ldsi_Open *)(void *)((char *)h + poff);
        const ldsi_Open *src = (const ldsi_Open *)(const void *)(hb + b1);
        *dst = *src;
        LDSI_HIDX(s, nodes, dst->node, kf) = (uint32_t)(poff / sizeof(ldsi_Open));
      }
      poff = b1;
    }
    s->hole = (uint32_t)(poff / sizeof(ldsi_Open));
  } else
#endif
  if (LDSI_ARITY4(kf)) {
    /* the live entries are h[0..n] (h[0] leaving); sentinels follow */
    uint32_t pos = 0;
    for (;;) {
      uint32_t c = (pos << 2) + 1, b1, b2, best;
      if (c > n) break;
      b1 = c + ldsi_open_less_nb(&h[c + 1], &h[c], kf);
      b2 = c + 2 + ldsi_open_less_nb(&h[c + 3], &h[c + 2], kf);
      best = ldsi_open_less_nb(&h[b2], &h[b1], kf) ? b2 : b1;
      h[pos] = h[best];
      LDSI_HIDX(s, nodes, h[pos].node, kf) = pos;
      pos = best;
    }
    s->hole = pos;
  } else if (n > 0) {
    ldsi_Open last = h[n];
    uint32_t pos = 0;
    ldsi_set_sentinel(h, n);
    for (;;) {
      uint32_t c = (pos << 1) + 1, best;
      if (c >= n) break;
      best = c + ldsi_open_less_nb(&h[c + 1], &h[c], kf);
      h[pos] = h[best];
      LDSI_HIDX(s, nodes, h[pos].node, kf) = pos;
      pos = best;
    }
    ldsi_sift_up_x(s, pos, last, kf);
  }
  LDSI_HIDX(s, nodes, top, kf) = LDSI_CLOSED;
  return top;
}

/* Fills a hole left by ldsi_open_pop_x with the last entry (exact form; a
** no-op otherwise). Every expansion loop using the exact form calls it once
** its successors are queued, and before it returns. */
LDSI_INLINE void ldsi_open_settle_x(lds_Search *s, const ldsi_KeyForm kf) {
  if (LDSI_ARITY4(kf) && s->hole != LDSI_NONE) {
    ldsi_Open *h = s->open;
    uint32_t p = s->hole, n = (uint32_t)s->open_n; /* the last entry is h[n] */
    s->hole = LDSI_NONE;
    if (p != n) ldsi_sift_up_x(s, p, h[n], kf);
    ldsi_set_sentinel(h, n);
  }
}

LDSI_INLINE uint32_t ldsi_open_pop(lds_Search *s) { return ldsi_open_pop_x(s, LDSI_KEYS_GENERAL); }

/* Drops stale entries from the top of the stack. */
LDSI_INLINE void ldsi_buf_clean(lds_Search *s, ldsi_Node *nodes, const ldsi_KeyForm kf) {
  while (s->buf_n && LDSI_HIDX(s, nodes, s->buf[s->buf_n - 1].node, kf) != LDSI_INBUF) s->buf_n--;
}

/* Takes the next node to expand, or LDSI_NONE when nothing is open; *fk
** and *k2 receive its entry's keys (the f it was queued with, which is its
** current f: an improvement re-keys or re-queues the node). */
LDSI_INLINE uint32_t ldsi_next_open_x(lds_Search *s, ldsi_Node *nodes, uint64_t *fk,
                                      uint64_t *k2, uint32_t *aux, const ldsi_KeyForm kf) {
  ldsi_buf_clean(s, nodes, kf);
  if (s->buf_n) {
    ldsi_Open *bt = &s->buf[s->buf_n - 1];
    if (s->open_n == 0 || ldsi_open_less_x(bt, &s->open[0], kf)) {
      s->buf_n--;
      LDSI_HIDX(s, nodes, bt->node, kf) = LDSI_CLOSED;
      *fk = bt->fk;
      *k2 = bt->k2;
      *aux = bt->seq;
      return bt->node;
    }
  }
  if (s->open_n == 0) return LDSI_NONE;
  *fk = s->open[0].fk;
  *k2 = s->open[0].k2;
  *aux = s->open[0].seq;
  return ldsi_open_pop_x(s, kf);
}

/* Puts the plateau successors of one expansion (nb <= 8, seq assigned) on
** the stack, smallest on top. */
LDSI_INLINE void ldsi_push_batch_x(lds_Search *s, ldsi_Node *nodes, ldsi_Open *batch, int nb,
                                   const ldsi_KeyForm kf) {
  int i, j;
  for (i = 1; i < nb; i++) { /* insertion sort, descending by ldsi_open_less */
    ldsi_Open e = batch[i];
    for (j = i; j > 0 && ldsi_open_less_x(&batch[j - 1], &e, kf); j--) batch[j] = batch[j - 1];
    batch[j] = e;
  }
  for (i = 0; i < nb; i++) {
    s->buf[s->buf_n++] = batch[i];
    LDSI_HIDX(s, nodes, batch[i].node, kf) = LDSI_INBUF;
  }
  if (s->open_n + s->buf_n > s->stats.peak_open) s->stats.peak_open = s->open_n + s->buf_n;
}

/* Queues a fresh successor v with key (f, g; hk2 as in ldsi_open_push_x)
** after the expansion of a node with key (fu, gu): onto the plateau batch
** (see ldsi_push_batch_x) when it ties on f with a larger g and the batch (cap
** entries) and the stack have room, else into the heap. Either way the
** expansion order is the heap's. */
LDSI_INLINE void ldsi_queue_fresh_x(lds_Search *s, ldsi_Open *batch, int *nb, int cap, uint32_t v,
                                    double f, double g, uint64_t hk2, double fu, double gu,
                                    const ldsi_KeyForm kf) {
  if (f == fu && g > gu && *nb < cap && s->buf_n + (size_t)*nb < LDSI_BUF_CAP) {
    ldsi_Open *e = &batch[(*nb)++];
    e->fk = ldsi_open_key(f);
    e->seq = s->seq++;
    e->k2 = ldsi_make_k2(g, hk2, e->seq, kf);
    e->node = v;
    s->stats.pushes++;
  } else {
    ldsi_open_push_x(s, v, f, g, hk2, kf);
  }
}

/* Empties the open list and the plateau stack (every query start calls it). */
static inline void ldsi_open_clear(lds_Search *s) {
  int i;
  s->open_n = 0;
  s->buf_n = 0;
  s->hole = LDSI_NONE;
  for (i = 0; i < 4; i++) ldsi_set_sentinel(s->open, (size_t)i);
  s->open_hwm = 4;
}

#endif
