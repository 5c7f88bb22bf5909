/* SPDX-License-Identifier: MIT */
/*
** lds_pattern.c — Lua 5.4 patterns (find, match, gmatch, gsub) whose work is
** bounded: a backtracking matcher that counts its steps and stops with
** "pattern too complex: more than N steps" past a limit, so a pathological
** pattern (string.find(("a"):rep(34), ("a*"):rep(8) .. "b") takes n^8 steps
** in the standard library) fails in a bounded time. lodestar.mods gives these
** functions to sandboxed mods in place of string.find & co, and charges the
** steps to the mod's CPU guard.
**
** Semantics are those of the Lua 5.4 manual, section 6.4.1 (character
** classes %a %c %d %g %l %p %s %u %w %x and their complements, sets with
** ranges, the quantifiers * + - ?, anchors ^ and $, captures and position
** captures, back-references %1-%9, %bxy, %f[set]); the same results and
** error messages as Lua 5.4's string library, on Lua 5.4 and on LuaJIT.
** Written for lodestar from the manual, not derived from lstrlib.c.
**
** One step is one attempt to match a pattern item at a subject position
** (and one subject byte compared by a back-reference, %b or a plain find).
*/
#include <ctype.h>
#include <limits.h>
#include <string.h>

#include <lauxlib.h>
#include <lua.h>

#include "lds_compat.h"
#include "lds_pattern.h"
#include "lua_util.h"

#define PAT_MAXCAP 32      /* captures per pattern, as Lua 5.4 */
#define PAT_MAXDEPTH 200   /* nested matcher calls ("pattern too complex"), as Lua 5.4 */
#define CAP_OPEN (-1)      /* capture started, not closed */
#define CAP_POS (-2)       /* position capture () */
#define PAT_DEFAULT_STEPS 1000000
#define PAT_DEFAULT_LEN ((lua_Integer)1 << 26)

typedef struct Matcher {
  lua_State *L;
  const char *src, *src_end; /* subject */
  const char *pat_end;
  int level; /* captures open or closed */
  int depth;
  struct {
    const char *start;
    ptrdiff_t len; /* bytes, CAP_OPEN or CAP_POS */
  } cap[PAT_MAXCAP];
  lua_Integer steps, max_steps; /* steps not yet charged; what is left of the limit */
  lua_Integer limit;            /* max_steps of the call, for the message */
  size_t out_len;               /* bytes of gsub's result so far */
  int meter;                    /* stack index of the meter table, 0 = none */
} Matcher;

/* ------------------------------------------------------------ meter -- */

/* Passes the steps counted so far to meter.charge(steps) (which may raise:
** the mod's budget is spent) and restarts the count of this call. */
static void flush_steps(Matcher *m) {
  lua_Integer n = m->steps;
  m->steps = 0;
  m->max_steps -= n;
  if (!m->meter || n == 0) return;
  lua_getfield(m->L, m->meter, "charge");
  if (lua_type(m->L, -1) != LUA_TFUNCTION) {
    lua_pop(m->L, 1);
    return;
  }
  lua_pushinteger(m->L, n);
  lua_call(m->L, 1, 0);
}

/* Raises msg after charging the steps spent. */
static int pat_error(Matcher *m, const char *fmt, int arg) {
  flush_steps(m);
  return luaL_error(m->L, fmt, arg);
}

static void tick(Matcher *m) {
  if (++m->steps > m->max_steps) {
    lua_Integer limit = m->limit;
    flush_steps(m);
    luaL_error(m->L, "pattern too complex: more than %d steps", (int)(limit > INT_MAX ? INT_MAX : limit));
  }
}

/* ---------------------------------------------------------- classes -- */

/* Does byte c belong to class letter cl (%a ...)? Other letters and
** punctuation stand for themselves. */
static int in_class(int c, int cl) {
  int r;
  switch (tolower(cl)) {
  case 'a': r = isalpha(c); break;
  case 'c': r = iscntrl(c); break;
  case 'd': r = isdigit(c); break;
  case 'g': r = isgraph(c); break;
  case 'l': r = islower(c); break;
  case 'p': r = ispunct(c); break;
  case 's': r = isspace(c); break;
  case 'u': r = isupper(c); break;
  case 'w': r = isalnum(c); break;
  case 'x': r = isxdigit(c); break;
  case 'z': r = c == 0; break; /* deprecated in 5.2, still in 5.4 */
  default: return cl == c;
  }
  if (isupper(cl)) r = !r;
  return r != 0;
}

/* End of the single-character class starting at p (after its last byte). */
static const char *class_end(Matcher *m, const char *p) {
  char c = *p++;
  if (c == '%') {
    if (p >= m->pat_end) pat_error(m, "malformed pattern (ends with '%%')", 0);
    return p + 1;
  }
  if (c != '[') return p;
  if (p < m->pat_end && *p == '^') p++;
  /* the first member may be ']': consume one member before looking for the end */
  do {
    if (p >= m->pat_end) pat_error(m, "malformed pattern (missing ']')", 0);
    c = *p++;
    if (c == '%') {
      if (p >= m->pat_end) pat_error(m, "malformed pattern (missing ']')", 0);
      p++;
    }
  } while (p >= m->pat_end || *p != ']');
  return p + 1;
}

/* Is c in the set [..] from p ('[') to close (its ']')? */
static int in_set(int c, const char *p, const char *close) {
  int negate = 0;
  p++;
  if (*p == '^') {
    negate = 1;
    p++;
  }
  for (; p < close; p++) {
    if (*p == '%') {
      p++;
      if (in_class(c, (unsigned char)*p)) return !negate;
    } else if (p + 2 < close && p[1] == '-') {
      if ((unsigned char)p[0] <= c && c <= (unsigned char)p[2]) return !negate;
      p += 2;
    } else if ((unsigned char)*p == c) {
      return !negate;
    }
  }
  return negate;
}

/* Does the subject byte at s match the class p..ep? */
static int single(const Matcher *m, const char *s, const char *p, const char *ep) {
  int c;
  if (s >= m->src_end) return 0;
  c = (unsigned char)*s;
  switch (*p) {
  case '.': return 1;
  case '%': return in_class(c, (unsigned char)p[1]);
  case '[': return in_set(c, p, ep - 1);
  default: return (unsigned char)*p == c;
  }
}

/* ---------------------------------------------------------- matcher -- */

static const char *match_here(Matcher *m, const char *s, const char *p);

/* Greedy repetition of class p..ep from s: the longest run first. */
static const char *repeat_max(Matcher *m, const char *s, const char *p, const char *ep) {
  ptrdiff_t n = 0;
  while (single(m, s + n, p, ep)) {
    tick(m);
    n++;
  }
  for (; n >= 0; n--) {
    const char *r = match_here(m, s + n, ep + 1);
    if (r) return r;
    tick(m);
  }
  return NULL;
}

/* Lazy repetition: the shortest run first. */
static const char *repeat_min(Matcher *m, const char *s, const char *p, const char *ep) {
  for (;;) {
    const char *r = match_here(m, s, ep + 1);
    if (r) return r;
    if (!single(m, s, p, ep)) return NULL;
    tick(m);
    s++;
  }
}

static const char *open_capture(Matcher *m, const char *s, const char *p, ptrdiff_t kind) {
  const char *r;
  if (m->level >= PAT_MAXCAP) pat_error(m, "too many captures", 0);
  m->cap[m->level].start = s;
  m->cap[m->level].len = kind;
  m->level++;
  r = match_here(m, s, p);
  if (!r) m->level--;
  return r;
}

static const char *close_capture(Matcher *m, const char *s, const char *p) {
  int i;
  const char *r;
  for (i = m->level - 1; i >= 0; i--)
    if (m->cap[i].len == CAP_OPEN) break;
  if (i < 0) pat_error(m, "invalid pattern capture", 0);
  m->cap[i].len = s - m->cap[i].start;
  r = match_here(m, s, p);
  if (!r) m->cap[i].len = CAP_OPEN;
  return r;
}

/* %bxy at s: x, then bytes up to the y that balances it. */
static const char *balanced(Matcher *m, const char *s, const char *p) {
  int depth = 1;
  if (p + 1 >= m->pat_end) pat_error(m, "malformed pattern (missing arguments to '%%b')", 0);
  if (s >= m->src_end || *s != p[0]) return NULL;
  for (s++; s < m->src_end; s++) {
    tick(m);
    if (*s == p[1]) {
      if (--depth == 0) return s + 1;
    } else if (*s == p[0]) {
      depth++;
    }
  }
  return NULL;
}

/* %1..%9 at s: the same bytes as that (closed) capture. */
static const char *backref(Matcher *m, const char *s, int digit) {
  int i = digit - '1';
  ptrdiff_t len;
  if (i < 0 || i >= m->level || m->cap[i].len == CAP_OPEN)
    pat_error(m, "invalid capture index %%%d", i + 1);
  len = m->cap[i].len;
  if (len == CAP_POS || m->src_end - s < len) return NULL;
  m->steps += len; /* counted, then checked by the tick below */
  tick(m);
  return memcmp(m->cap[i].start, s, (size_t)len) == 0 ? s + len : NULL;
}

/* Matches pattern p (to pat_end) at subject position s; returns the end of
** the match or NULL. Recursion happens at captures, quantifiers and
** alternatives; straight runs of single classes loop. */
static const char *match_here(Matcher *m, const char *s, const char *p) {
  if (++m->depth > PAT_MAXDEPTH) pat_error(m, "pattern too complex", 0);
  for (;;) {
    const char *ep;
    char q;
    tick(m);
    if (p >= m->pat_end) break;
    if (*p == '(') {
      s = p + 1 < m->pat_end && p[1] == ')' ? open_capture(m, s, p + 2, CAP_POS)
                                            : open_capture(m, s, p + 1, CAP_OPEN);
      break;
    }
    if (*p == ')') {
      s = close_capture(m, s, p + 1);
      break;
    }
    if (*p == '$' && p + 1 == m->pat_end) {
      if (s != m->src_end) s = NULL;
      break;
    }
    if (*p == '%' && p + 1 < m->pat_end) {
      if (p[1] == 'b') {
        s = balanced(m, s, p + 2);
        if (!s) break;
        p += 4;
        continue;
      }
      if (p[1] == 'f') {
        int before, here;
        p += 2;
        if (p >= m->pat_end || *p != '[') pat_error(m, "missing '[' after '%%f' in pattern", 0);
        ep = class_end(m, p);
        before = s == m->src ? 0 : (unsigned char)s[-1];
        here = s < m->src_end ? (unsigned char)*s : 0;
        if (in_set(before, p, ep - 1) || !in_set(here, p, ep - 1)) {
          s = NULL;
          break;
        }
        p = ep;
        continue;
      }
      if (isdigit((unsigned char)p[1])) {
        s = backref(m, s, (unsigned char)p[1]);
        if (!s) break;
        p += 2;
        continue;
      }
    }
    /* a single class, maybe with a quantifier */
    ep = class_end(m, p);
    q = ep < m->pat_end ? *ep : '\0';
    if (!single(m, s, p, ep)) {
      if (q == '*' || q == '?' || q == '-') { /* zero times is fine */
        p = ep + 1;
        continue;
      }
      s = NULL;
      break;
    }
    if (q == '?') {
      const char *r = match_here(m, s + 1, ep + 1);
      if (r) {
        s = r;
        break;
      }
      p = ep + 1;
      continue;
    }
    if (q == '+') {
      s = repeat_max(m, s + 1, p, ep);
      break;
    }
    if (q == '*') {
      s = repeat_max(m, s, p, ep);
      break;
    }
    if (q == '-') {
      s = repeat_min(m, s, p, ep);
      break;
    }
    s++;
    p = ep;
  }
  m->depth--;
  return s;
}

/* --------------------------------------------------------- captures -- */

/* Pushes capture i (or the whole match s..e when the pattern has none). */
static void push_capture(Matcher *m, int i, const char *s, const char *e) {
  if (i >= m->level) {
    if (i != 0) pat_error(m, "invalid capture index %%%d", i + 1);
    lua_pushlstring(m->L, s, (size_t)(e - s));
    return;
  }
  if (m->cap[i].len == CAP_OPEN) pat_error(m, "unfinished capture", 0);
  if (m->cap[i].len == CAP_POS)
    lua_pushinteger(m->L, (lua_Integer)(m->cap[i].start - m->src) + 1);
  else
    lua_pushlstring(m->L, m->cap[i].start, (size_t)m->cap[i].len);
}

/* Pushes every capture; with s != NULL and no captures, the whole match. */
static int push_captures(Matcher *m, const char *s, const char *e) {
  int i, n = m->level == 0 && s ? 1 : m->level;
  luaL_checkstack(m->L, n, "too many captures");
  for (i = 0; i < n; i++) push_capture(m, i, s, e);
  return n;
}

/* ------------------------------------------------------------ setup -- */

/* Argument error naming the function as the string library does. */
static int pat_argerror(lua_State *L, int arg, const char *fname, const char *msg) {
  return luaL_error(L, "bad argument #%d to '%s' (%s)", arg, fname, msg);
}

static const char *check_string(lua_State *L, int arg, const char *fname, size_t *len) {
  int t = lua_type(L, arg);
  if (t != LUA_TSTRING && t != LUA_TNUMBER)
    pat_argerror(L, arg, fname, lua_pushfstring(L, "string expected, got %s",
                                                t == LUA_TNONE ? "no value" : lua_typename(L, t)));
  return lua_tolstring(L, arg, len);
}

static lua_Integer opt_integer(lua_State *L, int arg, const char *fname, lua_Integer def) {
  lua_Number n;
  int t = lua_type(L, arg);
  if (t == LUA_TNONE || t == LUA_TNIL) return def;
  if (!lua_isnumber(L, arg))
    pat_argerror(L, arg, fname, lua_pushfstring(L, "number expected, got %s", lua_typename(L, t)));
  n = lua_tonumber(L, arg);
  if (n != n || n != (lua_Number)(lua_Integer)n)
    pat_argerror(L, arg, fname, "number has no integer representation");
  return (lua_Integer)n;
}

/* Reads the limits of the meter (upvalue 1) into m; leaves the meter at
** the top of the stack (m->meter) when there is one. */
static void start(Matcher *m, lua_State *L, const char *src, size_t len, const char *pat_end,
                  lua_Integer *max_len) {
  m->L = L;
  m->src = src;
  m->src_end = src + len;
  m->pat_end = pat_end;
  m->level = 0;
  m->depth = 0;
  m->steps = 0;
  m->max_steps = PAT_DEFAULT_STEPS;
  m->out_len = 0;
  m->meter = 0;
  m->limit = m->max_steps;
  if (max_len) *max_len = PAT_DEFAULT_LEN;
  if (lua_type(L, lua_upvalueindex(1)) != LUA_TTABLE) return;
  lua_pushvalue(L, lua_upvalueindex(1));
  m->meter = lua_gettop(L);
  lua_getfield(L, m->meter, "max_steps");
  if (lua_type(L, -1) == LUA_TNUMBER) m->max_steps = (lua_Integer)lua_tonumber(L, -1);
  lua_getfield(L, m->meter, "max_len");
  if (max_len && lua_type(L, -1) == LUA_TNUMBER) *max_len = (lua_Integer)lua_tonumber(L, -1);
  lua_pop(L, 2);
  m->limit = m->max_steps;
}

/* Position init (1-based, negative from the end) as an offset, Lua 5.4's
** rule for find/match/gmatch: 0 and too negative values are 1. */
static size_t start_offset(lua_Integer init, size_t len) {
  if (init > 0) return (size_t)init - 1;
  if (init == 0 || init < -(lua_Integer)len) return 0;
  return len + (size_t)init;
}

/* Charges the call's steps; returns the number of results. */
static int finish(Matcher *m, int nres) {
  flush_steps(m);
  return nres;
}

/* ------------------------------------------------------------ find -- */

static int has_specials(const char *p, size_t len) {
  size_t i;
  for (i = 0; i < len; i++)
    if (strchr("^$*+?.([%-", p[i]) && p[i] != '\0') return 1;
  return 0;
}

static int find_or_match(lua_State *L, int find) {
  const char *fname = find ? "find" : "match";
  size_t ls, lp, init;
  const char *s = check_string(L, 1, fname, &ls);
  const char *p = check_string(L, 2, fname, &lp);
  lua_Integer i0 = opt_integer(L, 3, fname, 1);
  Matcher m;
  int anchor;
  const char *s1;
  lua_settop(L, 4);
  start(&m, L, s, ls, p + lp, NULL);
  if (i0 > 0 && (size_t)i0 - 1 > ls) { /* init past the end + 1: no match */
    lua_pushnil(L);
    return finish(&m, 1);
  }
  init = start_offset(i0, ls);
  if (find && (lua_toboolean(L, 4) || !has_specials(p, lp))) {
    size_t at;
    if (lp == 0) {
      lua_pushinteger(L, (lua_Integer)init + 1);
      lua_pushinteger(L, (lua_Integer)init);
      return finish(&m, 2);
    }
    for (at = init; at + lp <= ls; at++) {
      const char *hit;
      m.steps += (lua_Integer)lp;
      tick(&m);
      hit = (const char *)memchr(s + at, p[0], ls - at - lp + 1);
      if (!hit) break;
      at = (size_t)(hit - s);
      if (memcmp(hit, p, lp) == 0) {
        lua_pushinteger(L, (lua_Integer)at + 1);
        lua_pushinteger(L, (lua_Integer)(at + lp));
        return finish(&m, 2);
      }
    }
    lua_pushnil(L);
    return finish(&m, 1);
  }
  anchor = lp > 0 && *p == '^';
  if (anchor) p++;
  s1 = s + init;
  for (;;) {
    const char *e;
    m.level = 0;
    m.depth = 0;
    e = match_here(&m, s1, p);
    if (e) {
      if (find) {
        int n;
        lua_pushinteger(L, (lua_Integer)(s1 - s) + 1);
        lua_pushinteger(L, (lua_Integer)(e - s));
        n = push_captures(&m, NULL, NULL);
        return finish(&m, n + 2);
      }
      return finish(&m, push_captures(&m, s1, e));
    }
    if (anchor || s1 >= m.src_end) break;
    s1++;
  }
  lua_pushnil(L);
  return finish(&m, 1);
}

static int pat_find(lua_State *L) { return find_or_match(L, 1); }
static int pat_match(lua_State *L) { return find_or_match(L, 0); }

/* ----------------------------------------------------------- gmatch -- */

/* Upvalues: 1 meter, 2 subject, 3 pattern, 4 next offset, 5 end of the
** last match (-1 = none): an empty match right after a match is skipped. */
static int gmatch_next(lua_State *L) {
  size_t ls, lp;
  const char *s = lua_tolstring(L, lua_upvalueindex(2), &ls);
  const char *p = lua_tolstring(L, lua_upvalueindex(3), &lp);
  lua_Integer at = lua_tointeger(L, lua_upvalueindex(4));
  lua_Integer last = lua_tointeger(L, lua_upvalueindex(5));
  Matcher m;
  start(&m, L, s, ls, p + lp, NULL);
  for (; at <= (lua_Integer)ls; at++) {
    const char *e;
    m.level = 0;
    m.depth = 0;
    e = match_here(&m, s + at, p);
    if (e && (lua_Integer)(e - s) != last) {
      lua_pushinteger(L, (lua_Integer)(e - s));
      lua_replace(L, lua_upvalueindex(4));
      lua_pushinteger(L, (lua_Integer)(e - s));
      lua_replace(L, lua_upvalueindex(5));
      return finish(&m, push_captures(&m, s + at, e));
    }
  }
  lua_pushinteger(L, (lua_Integer)ls + 1);
  lua_replace(L, lua_upvalueindex(4));
  return finish(&m, 0);
}

static int pat_gmatch(lua_State *L) {
  size_t ls, lp;
  check_string(L, 1, "gmatch", &ls);
  check_string(L, 2, "gmatch", &lp);
  {
    lua_Integer i0 = opt_integer(L, 3, "gmatch", 1);
    size_t init = i0 > 0 && (size_t)i0 - 1 > ls ? ls + 1 : start_offset(i0, ls);
    lua_settop(L, 2);
    lua_pushvalue(L, lua_upvalueindex(1)); /* s, p, meter */
    lua_pushvalue(L, 1);
    lua_tostring(L, -1); /* numbers are matched as their text */
    lua_pushvalue(L, 2);
    lua_tostring(L, -1);
    lua_pushinteger(L, (lua_Integer)init);
    lua_pushinteger(L, -1); /* s, p, meter, s, p, at, last */
    lua_pushcclosure(L, gmatch_next, 5);
  }
  return 1;
}

/* ------------------------------------------------------------- gsub -- */

static void check_len(Matcher *m, size_t more, lua_Integer max_len) {
  m->out_len += more;
  if ((lua_Integer)m->out_len > max_len) {
    flush_steps(m);
    luaL_error(m->L, "gsub: result longer than %d bytes", (int)(max_len > INT_MAX ? INT_MAX : max_len));
  }
}

/* Appends the replacement of the match s..e to b. */
static void add_replacement(Matcher *m, luaL_Buffer *b, const char *s, const char *e, int tr,
                            lua_Integer max_len) {
  lua_State *L = m->L;
  if (tr == LUA_TSTRING || tr == LUA_TNUMBER) {
    size_t lr, i;
    const char *r = lua_tolstring(L, 3, &lr);
    for (i = 0; i < lr; i++) {
      tick(m);
      if (r[i] != '%') {
        check_len(m, 1, max_len);
        luaL_addchar(b, r[i]);
        continue;
      }
      i++;
      if (i < lr && r[i] == '%') {
        check_len(m, 1, max_len);
        luaL_addchar(b, '%');
      } else if (i < lr && isdigit((unsigned char)r[i])) {
        size_t l;
        const char *v;
        if (r[i] == '0')
          lua_pushlstring(L, s, (size_t)(e - s));
        else
          push_capture(m, r[i] - '1', s, e);
        v = lua_tolstring(L, -1, &l); /* a string or a position (an integer) */
        (void)v;
        check_len(m, l, max_len);
        m->steps += (lua_Integer)l;
        luaL_addvalue(b);
      } else {
        pat_error(m, "invalid use of '%%' in replacement string", 0);
      }
    }
    return;
  }
  flush_steps(m); /* the callback's own work is the guard's */
  if (tr == LUA_TFUNCTION) {
    int n;
    lua_pushvalue(L, 3);
    n = push_captures(m, s, e);
    ldsl_callback_guard(L, "gsub");
    lua_call(L, n, 1);
  } else {
    push_capture(m, 0, s, e);
    lua_gettable(L, 3);
  }
  if (!lua_toboolean(L, -1)) {
    lua_pop(L, 1);
    check_len(m, (size_t)(e - s), max_len);
    luaL_addlstring(b, s, (size_t)(e - s));
  } else if (!lua_isstring(L, -1)) {
    luaL_error(L, "invalid replacement value (a %s)", luaL_typename(L, -1));
  } else {
    size_t l;
    lua_tolstring(L, -1, &l);
    check_len(m, l, max_len);
    luaL_addvalue(b);
  }
}

static int pat_gsub(lua_State *L) {
  size_t ls, lp;
  const char *s = check_string(L, 1, "gsub", &ls);
  const char *p = check_string(L, 2, "gsub", &lp);
  const char *src = s, *last = NULL;
  int tr = lua_type(L, 3);
  lua_Integer max_n = opt_integer(L, 4, "gsub", (lua_Integer)ls + 1), n = 0, max_len;
  int anchor = lp > 0 && *p == '^';
  Matcher m;
  luaL_Buffer b;
  if (tr != LUA_TNUMBER && tr != LUA_TSTRING && tr != LUA_TFUNCTION && tr != LUA_TTABLE)
    pat_argerror(L, 3, "gsub", lua_pushfstring(L, "string/function/table expected, got %s",
                                               tr == LUA_TNONE ? "no value" : lua_typename(L, tr)));
  lua_settop(L, 3);
  if (anchor) p++;
  start(&m, L, s, ls, p + lp - anchor, &max_len); /* s, p, repl, meter */
  luaL_buffinit(L, &b);
  while (n < max_n) {
    const char *e;
    m.level = 0;
    m.depth = 0;
    e = match_here(&m, src, p);
    if (e && e != last) {
      n++;
      add_replacement(&m, &b, src, e, tr, max_len);
      src = last = e;
    } else if (src < m.src_end) {
      check_len(&m, 1, max_len);
      luaL_addchar(&b, *src++);
    } else {
      break;
    }
    if (anchor) break;
  }
  check_len(&m, (size_t)(m.src_end - src), max_len);
  luaL_addlstring(&b, src, (size_t)(m.src_end - src));
  luaL_pushresult(&b);
  lua_pushinteger(L, n);
  return finish(&m, 2);
}

/* ------------------------------------------------------------ open -- */

static const luaL_Reg pattern_funcs[] = {
    {"find", pat_find}, {"gmatch", pat_gmatch}, {"gsub", pat_gsub}, {"match", pat_match}, {NULL, NULL}};

/* lodestar.core.pattern([meter]) -> {find, match, gmatch, gsub}; see lds_pattern.h. */
static int pattern_new(lua_State *L) {
  int i;
  if (!lua_isnoneornil(L, 1) && lua_type(L, 1) != LUA_TTABLE)
    return pat_argerror(L, 1, "pattern", lua_pushfstring(L, "table expected, got %s", luaL_typename(L, 1)));
  lua_settop(L, 1);
  lua_newtable(L); /* meter, lib */
  for (i = 0; pattern_funcs[i].name; i++) {
    lua_pushvalue(L, 1);
    lua_pushcclosure(L, pattern_funcs[i].func, 1);
    lua_setfield(L, -2, pattern_funcs[i].name);
  }
  return 1;
}

void lds_pattern_open(lua_State *L) {
  lua_pushcfunction(L, pattern_new);
  lua_setfield(L, -2, "pattern");
}
