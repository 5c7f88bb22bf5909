/* SPDX-License-Identifier: MIT */
/*
** lds_lines.c — the line source of the text parsers (lds_lines_internal.h):
** lines from text in memory (in place) or from an lds_Reader (through one
** buffer of at most the longest accepted line plus one byte).
*/
#include "lds_lines_internal.h"

#include <string.h>

void ldsi_lines_text(ldsi_Lines *L, const char *text, size_t len, const char *name,
                     lds_Error *err) {
  memset(L, 0, sizeof *L);
  L->max = LDSI_LINE_MAX;
  L->expect = "a line of text";
  L->name = name;
  L->err = err;
  L->text = text;
  L->have = text ? len : 0;
  L->eof = true;
  L->unbounded = true;
}

static int nomem(ldsi_Lines *L, size_t size) {
  L->failed = true;
  if (L->show_size)
    ldsi_error(L->err, LDS_E_NOMEM, "%s: out of memory reading %s (%zu bytes)", L->fn, L->name,
               size);
  else
    ldsi_error(L->err, LDS_E_NOMEM, "%s: out of memory reading %s", L->fn, L->name);
  return -1;
}

bool ldsi_lines_reader(ldsi_Lines *L, const ldsi_Env *e, lds_Reader reader, void *ud,
                       const char *fn, const char *name, size_t first, bool show_size,
                       lds_Error *err) {
  memset(L, 0, sizeof *L);
  L->max = LDSI_LINE_MAX;
  L->expect = "a line of text";
  L->fn = fn;
  L->name = name;
  L->err = err;
  L->e = e;
  L->reader = reader;
  L->ud = ud;
  L->show_size = show_size;
  L->buf = (char *)ldsi_alloc(e, first);
  if (!L->buf) return nomem(L, first) == 0;
  L->cap = first;
  L->text = L->buf;
  return true;
}

void ldsi_lines_free(ldsi_Lines *L) {
  if (L->buf) ldsi_free(L->e, L->buf, L->cap);
  L->buf = NULL;
  L->text = NULL;
  L->cap = L->have = L->pos = L->scanned = 0;
}

bool ldsi_lines_rest(const ldsi_Lines *L, const char **text, size_t *bytes) {
  if (L->reader) return false;
  *text = L->text + L->pos;
  *bytes = L->have - L->pos;
  return true;
}

size_t ldsi_lines_offset(const ldsi_Lines *L) { return L->base + L->pos; }

static const char *prefix_fn(const ldsi_Lines *L) { return L->fn ? L->fn : ""; }
static const char *prefix_sep(const ldsi_Lines *L) { return L->fn ? ": " : ""; }

/* Brings more bytes of the reader into the buffer: 0 done (or the end
** reached: L->eof), -1 out of memory. The current line starts at L->pos. */
static int fill(ldsi_Lines *L) {
  size_t k;
  if (L->piece_left == 0) {
    size_t got = 0;
    const char *p = L->reader(L->ud, &got);
    if (!p || got == 0) {
      L->eof = true;
      return 0;
    }
    L->piece = p;
    L->piece_left = got;
  }
  if (L->pos > 0 && (L->pos == L->have || L->have == L->cap)) {
    /* the handed-out lines are done with: the current line to the front */
    memmove(L->buf, L->buf + L->pos, L->have - L->pos);
    L->base += L->pos;
    L->have -= L->pos;
    L->scanned -= L->pos;
    L->pos = 0;
  }
  if (L->have == L->cap) { /* one line fills the buffer: grow it up to max + 1 */
    size_t nc = L->cap > (size_t)-1 / 2 ? (size_t)-1 : L->cap * 2;
    char *nb;
    if (nc > L->max + 1) nc = L->max + 1; /* > cap: a full buffer of max + 1 bytes failed above */
    nb = (char *)ldsi_realloc(L->e, L->buf, L->cap, nc);
    if (!nb) return nomem(L, nc);
    L->buf = nb;
    L->text = nb;
    L->cap = nc;
  }
  k = L->cap - L->have;
  if (k > L->piece_left) k = L->piece_left;
  memcpy(L->buf + L->have, L->piece, k);
  L->have += k;
  L->piece += k;
  L->piece_left -= k;
  return 0;
}

int ldsi_lines_next(ldsi_Lines *L) {
  if (L->failed) return -1;
  for (;;) {
    const char *t = L->text;
    const char *nl = L->scanned < L->have
                         ? (const char *)memchr(t + L->scanned, '\n', L->have - L->scanned)
                         : NULL;
    size_t stop = nl ? (size_t)(nl - t) : L->have; /* the current line's bytes so far */
    const char *z = stop > L->scanned
                        ? (const char *)memchr(t + L->scanned, '\0', stop - L->scanned)
                        : NULL;
    if (z) {
      L->failed = true;
      ldsi_error(L->err, LDS_E_FORMAT, "%s%s%s:%lu: binary data (a NUL byte at offset %zu; "
                 "expected a text file)", prefix_fn(L), prefix_sep(L), L->name, L->no + 1,
                 L->base + (size_t)(z - t));
      return -1;
    }
    if (stop - L->pos > L->max && !L->unbounded) {
      L->failed = true;
      ldsi_error(L->err, LDS_E_FORMAT, "%s%s%s:%lu: line longer than %zu bytes (expected %s)",
                 prefix_fn(L), prefix_sep(L), L->name, L->no + 1, L->max, L->expect);
      return -1;
    }
    L->scanned = stop;
    if (nl || (L->eof && L->pos < L->have)) {
      L->s = t + L->pos;
      L->n = stop - L->pos;
      if (L->n > 0 && L->s[L->n - 1] == '\r') L->n--;
      L->no++;
      L->pos = nl ? stop + 1 : stop;
      L->scanned = L->pos;
      return 1;
    }
    if (L->eof) return 0;
    if (fill(L) < 0) return -1;
  }
}

bool ldsi_lines_skip(ldsi_Lines *L) {
  if (++L->skipped <= LDSI_SKIP_MAX || L->unbounded) return true;
  L->failed = true;
  ldsi_error(L->err, LDS_E_FORMAT, "%s:%lu: more than %lu comment or blank lines (expected %s)",
             L->name, L->no, LDSI_SKIP_MAX, L->expect);
  return false;
}
