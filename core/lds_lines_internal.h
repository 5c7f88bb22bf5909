/* SPDX-License-Identifier: MIT */
/*
** lds_lines_internal.h — the line source every text parser reads (Moving AI
** .map and .scen, DIMACS .gr and .co, .nav and OBJ): lines of text in memory
** or from an lds_Reader, one at a time, each at most a bounded length, each
** checked for NUL bytes as it is handed out.
**
** Why: a reader may never end (a pipe, /dev/zero, a stream of valid-looking
** lines), so the parsers keep only what they parse and read no further than
** the format needs. The buffer of a reader source holds one line at most
** (plus what the last piece left over): its memory is the longest line
** accepted, never the size of the text. Text in memory is read in place.
*/
#ifndef LDS_LINES_INTERNAL_H
#define LDS_LINES_INTERNAL_H

#include "lds_internal.h"

/* The longest line a parser accepts by default, in bytes before its '\n'
** (a '\r' before the '\n' counted): 64 KiB - 1. */
#define LDSI_LINE_MAX 65535u

/* The most comment or blank lines a parser skips in one text (DIMACS 'c'
** lines, .nav/OBJ '#' lines, blank lines): real files have a handful; past
** this many an endless source of them (`yes c`) stops with "NAME:LINE: more
** than 1048576 comment or blank lines (expected ...)". */
#define LDSI_SKIP_MAX (1ul << 20)

typedef struct ldsi_Lines {
  /* the current line: s[0..n), without its '\n' and a '\r' before it; valid
  ** until the next ldsi_lines_next */
  const char *s;
  size_t n;
  unsigned long no;   /* its number, 1-based; 0 before the first line */
  size_t max;         /* the longest line accepted (bytes before '\n'); the
                      ** parser may change it between lines */
  const char *expect; /* what the parser expects of the next line, for the
                      ** too-long message ("a header line", ...) */
  /* private */
  const char *fn, *name;
  lds_Error *err;
  const ldsi_Env *e;
  lds_Reader reader;
  void *ud;
  const char *piece; /* the rest of the reader's last piece */
  size_t piece_left;
  const char *text; /* the bytes: the text in memory or the buffer */
  char *buf;        /* the owned buffer (reader source), cap bytes */
  size_t cap, have, pos, scanned;
  size_t base;      /* offset in the whole text of text[0] */
  unsigned long skipped; /* comment or blank lines so far (ldsi_lines_skip) */
  bool eof, failed, show_size;
  bool unbounded; /* text in memory: no line or skip limit (nothing to bound) */
} ldsi_Lines;

/* A source over len bytes of text in memory (read in place; messages
** without a function prefix). Its lines have no length limit and its
** skipped lines no count limit: the text is finite and already in memory,
** and a parse of it gives what it gave before these limits existed. Cannot
** fail. */
LDSI_HIDDEN void ldsi_lines_text(ldsi_Lines *L, const char *text, size_t len, const char *name,
                                 lds_Error *err);
/* A source over a reader; its buffer (`first` bytes, growing to L->max + 1
** for a long line) comes from e's allocator. Reading-layer messages name
** fn: LDS_E_NOMEM "FN: out of memory reading NAME" (+ " (N bytes)" with
** show_size, N the refused size). Returns false with err filled when the
** first buffer cannot be had. */
LDSI_HIDDEN bool ldsi_lines_reader(ldsi_Lines *L, const ldsi_Env *e, lds_Reader reader, void *ud,
                                   const char *fn, const char *name, size_t first, bool show_size,
                                   lds_Error *err);
/* The next line into L->s, L->n, L->no. Returns 1 for a line, 0 at the end
** of the text, -1 on an error (err filled, the source stays failed):
** LDS_E_FORMAT "[FN: ]NAME:LINE: binary data (a NUL byte at offset N;
** expected a text file)" for a NUL byte in the line (checked as its bytes
** arrive, so an endless line of zeros stops at the first piece),
** "FN: NAME:LINE: line longer than MAX bytes (expected EXPECT)" as soon as
** a reader's line passes L->max bytes, LDS_E_NOMEM as for
** ldsi_lines_reader. */
LDSI_HIDDEN int ldsi_lines_next(ldsi_Lines *L);
/* For text in memory: true with the bytes not yet handed out (*text,
** *bytes); false for a reader source, whose rest is unknown. */
LDSI_HIDDEN bool ldsi_lines_rest(const ldsi_Lines *L, const char **text, size_t *bytes);
/* Offset in the whole text of the first byte not yet handed out. */
LDSI_HIDDEN size_t ldsi_lines_offset(const ldsi_Lines *L);
/* Counts the current line as a skipped comment or blank line: true while
** at most LDSI_SKIP_MAX were skipped (always for text in memory), else false with LDS_E_FORMAT "NAME:LINE:
** more than N comment or blank lines (expected EXPECT)" in err. */
LDSI_HIDDEN bool ldsi_lines_skip(ldsi_Lines *L);
/* Frees the buffer of a reader source (nothing for text in memory). */
LDSI_HIDDEN void ldsi_lines_free(ldsi_Lines *L);

#endif
