/* SPDX-License-Identifier: MIT */
/*
** lds_io.c — files for the core's reader parsers: a file (stdio, or zlib
** for DIMACS so gzip files load too) becomes an lds_Reader, the core
** parses what it gives, and the file's own failures (cannot open, cannot
** read) replace the parser's verdict on the partial text.
*/
#define _POSIX_C_SOURCE 200809L
#include "lds_io.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <zlib.h>

static void io_error(lds_Error *err, lds_Status code, const char *fmt, ...)
#if defined(__GNUC__) || defined(__clang__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
static void io_error(lds_Error *err, lds_Status code, const char *fmt, ...) {
  va_list ap;
  if (!err) return;
  err->code = code;
  va_start(ap, fmt);
  vsnprintf(err->msg, sizeof err->msg, fmt, ap);
  va_end(ap);
}

/* One open file and the reader state over it. */
typedef struct IoFile {
  const char *fn;   /* the public function, for messages */
  const char *path;
  bool gzip;        /* read through zlib (else stdio) */
  bool opened, failed;
  FILE *f;
  gzFile z;
  lds_Error why;    /* the failure, when failed */
  char buf[1u << 16];
} IoFile;

/* A directory given as a file: Linux opens it and fails the first read
** (EISDIR), Windows refuses the open (EACCES); both say the same. */
static bool io_is_dir(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static bool io_open(IoFile *r) {
  r->opened = true;
  if (io_is_dir(r->path)) {
    io_error(&r->why, LDS_E_IO, "%s: cannot read %s (Is a directory)", r->fn, r->path);
    r->failed = true;
    return false;
  }
  errno = 0;
  if (r->gzip) {
    r->z = gzopen(r->path, "rb");
    if (r->z) {
      gzbuffer(r->z, 1u << 17);
      return true;
    }
    /* zlib fails without errno only when it cannot allocate */
    io_error(&r->why, errno ? LDS_E_IO : LDS_E_NOMEM, "%s: cannot open %s (%s)", r->fn, r->path,
             errno ? strerror(errno) : "out of memory");
  } else {
    r->f = fopen(r->path, "rb");
    if (r->f) return true;
    io_error(&r->why, LDS_E_IO, "%s: cannot open %s (%s)", r->fn, r->path, strerror(errno));
  }
  r->failed = true;
  return false;
}

/* The lds_Reader: opens the file on the first call (so a second file is
** opened only once the first was read to its end), NULL at the end or on
** a failure (kept in r->why). */
static const char *io_read(void *ud, size_t *size) {
  IoFile *r = (IoFile *)ud;
  *size = 0;
  if (r->failed || (!r->opened && !io_open(r))) return NULL;
  if (r->gzip) {
    int got;
    if (!r->z) return NULL;
    got = gzread(r->z, r->buf, (unsigned)sizeof r->buf);
    if (got < 0) {
      int zerr;
      const char *msg = gzerror(r->z, &zerr);
      io_error(&r->why, LDS_E_IO, "%s: cannot read %s (%s)", r->fn, r->path,
               zerr == Z_ERRNO ? strerror(errno) : msg);
      r->failed = true;
      return NULL;
    }
    *size = (size_t)got;
  } else {
    if (!r->f) return NULL;
    *size = fread(r->buf, 1, sizeof r->buf, r->f);
    if (*size == 0 && ferror(r->f)) {
      int code = errno; /* e.g. EISDIR: the path is a directory */
      io_error(&r->why, LDS_E_IO, "%s: cannot read %s (%s)", r->fn, r->path,
               code ? strerror(code) : "read error");
      r->failed = true;
      return NULL;
    }
  }
  return *size ? r->buf : NULL;
}

static void io_close(IoFile *r) {
  if (r->f) fclose(r->f);
  if (r->z) gzclose(r->z);
  r->f = NULL;
  r->z = NULL;
}

static void io_init(IoFile *r, const char *fn, const char *path, bool gzip) {
  r->fn = fn;
  r->path = path;
  r->gzip = gzip;
  r->opened = r->failed = false;
  r->f = NULL;
  r->z = NULL;
}

/* After the core parser: a file failure wins over the parser's verdict on
** the text read so far; otherwise the core reader function's name in its
** messages (same length) becomes this function's. Returns true when the
** result stands. */
static bool io_finish(IoFile *r, const char *core_fn, lds_Error *err) {
  size_t n = strlen(core_fn);
  io_close(r);
  if (r->failed) {
    if (err) *err = r->why;
    return false;
  }
  if (err && err->code != LDS_OK && strncmp(err->msg, core_fn, n) == 0 && err->msg[n] == ':' &&
      strlen(r->fn) == n)
    memcpy(err->msg, r->fn, n);
  return true;
}

/* The readers are large (their buffer): one per call, from env's
** allocator, off the stack. */
static IoFile *io_new(const lds_Env *env, const char *fn, lds_Error *err) {
  IoFile *r = (IoFile *)(env && env->alloc ? env->alloc(env->alloc_ud, NULL, 0, sizeof *r)
                                           : lds_alloc_default(NULL, NULL, 0, sizeof *r));
  if (!r) io_error(err, LDS_E_NOMEM, "%s: out of memory", fn);
  return r;
}

static void io_free(const lds_Env *env, IoFile *r) {
  if (!r) return;
  if (env && env->alloc) env->alloc(env->alloc_ud, r, sizeof *r, 0);
  else lds_alloc_default(NULL, r, sizeof *r, 0);
}

/* The reader of function fn for the plain text file at path, opened; NULL
** with err filled when path is NULL, memory runs out or the file cannot be
** opened. */
static IoFile *io_begin(const lds_Env *env, const char *fn, const char *path, lds_Error *err) {
  IoFile *r;
  if (!path) {
    io_error(err, LDS_E_ARG, "%s: path is NULL", fn);
    return NULL;
  }
  if (!(r = io_new(env, fn, err))) return NULL;
  io_init(r, fn, path, false);
  if (!io_open(r)) {
    if (err) *err = r->why;
    io_free(env, r);
    return NULL;
  }
  return r;
}

lds_Grid *lds_map_load(const lds_Env *env, const char *path, lds_Error *err) {
  static const char fn[] = "lds_map_load";
  IoFile *r = io_begin(env, fn, path, err);
  lds_Grid *g;
  if (!r) return NULL;
  g = lds_map_read(env, io_read, r, path, err);
  if (!io_finish(r, "lds_map_read", err)) {
    lds_grid_free(g);
    g = NULL;
  }
  io_free(env, r);
  return g;
}

lds_Scenario *lds_scen_load(const lds_Env *env, const char *path, lds_Error *err) {
  static const char fn[] = "lds_scen_load";
  IoFile *r = io_begin(env, fn, path, err);
  lds_Scenario *sc;
  if (!r) return NULL;
  sc = lds_scen_read(env, io_read, r, path, err);
  if (!io_finish(r, "lds_scen_read", err)) {
    lds_scen_free(sc);
    sc = NULL;
  }
  io_free(env, r);
  return sc;
}

lds_Navmesh *lds_navmesh_load(const lds_Env *env, const char *path, lds_Error *err) {
  static const char fn[] = "lds_navmesh_load";
  IoFile *r = io_begin(env, fn, path, err);
  lds_Navmesh *m;
  if (!r) return NULL;
  m = lds_navmesh_read(env, io_read, r, path, err);
  if (!io_finish(r, "lds_navmesh_read", err)) {
    lds_navmesh_free(m);
    m = NULL;
  }
  io_free(env, r);
  return m;
}

lds_Graph *lds_graph_load_dimacs(const lds_Env *env, const char *gr_path, const char *co_path,
                                 lds_Error *err) {
  static const char fn[] = "lds_graph_load_dimacs";
  IoFile *gr, *co = NULL;
  lds_Graph *g;
  bool ok;
  if (!gr_path) {
    io_error(err, LDS_E_ARG, "%s: gr_path is NULL", fn);
    return NULL;
  }
  if (!(gr = io_new(env, fn, err))) return NULL;
  io_init(gr, fn, gr_path, true);
  if (co_path) {
    if (!(co = io_new(env, fn, err))) {
      io_free(env, gr);
      return NULL;
    }
    io_init(co, fn, co_path, true);
  }
  if (!io_open(gr)) {
    if (err) *err = gr->why;
    io_free(env, gr);
    io_free(env, co);
    return NULL;
  }
  /* the .co file is opened by its reader, once the .gr text is all read */
  g = lds_graph_read_dimacs(env, io_read, gr, gr_path, co ? io_read : NULL, co, co_path, err);
  ok = io_finish(gr, "lds_graph_read_dimacs", err);
  if (co) {
    if (!ok) io_close(co);
    else ok = io_finish(co, "lds_graph_read_dimacs", err);
  }
  if (!ok) {
    lds_graph_free(g);
    g = NULL;
  }
  io_free(env, gr);
  io_free(env, co);
  return g;
}
