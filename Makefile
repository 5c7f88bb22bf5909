# SPDX-License-Identifier: MIT
# lodestar — pathfinding runtime for games.
#
#   make            build build/liblodestar.a, build/liblodestar.so (the core: -lm only),
#                   build/liblodestar_io.a (files and gzip: io/, links -lz), build/lodestar
#                   (+ build/liblodestar_host.a: the embedding runtime runtime/, Lua 5.4;
#                   build/example_host from examples/host)
#   make run        the main job: solve the default Moving AI scenario kept in the repo
#   make test       C tests (also built on the portable paths), then the busted specs
#                   (Lua 5.4 and LuaJIT)
#   make lua        build/lua54/lodestar/core.so, build/luajit/lodestar/core.so, build/env*.sh
#   make install    PREFIX=/opt/game: library, headers, CLI, Lua package and modules,
#                   the demo's default map (PREFIX/share/lodestar), the licence
#                   (PREFIX/share/doc/lodestar/LICENSE)
#   make bench      benchmarks against ../shared/data and the peers in ../shared/bench/peers
#   make sanitize   the tests under AddressSanitizer + UndefinedBehaviorSanitizer, then the
#                   thread test and the C tests under ThreadSanitizer
#   make fuzz       the search fuzzer for FUZZ_SECONDS (60) from a printed seed (SEED=... replays)
#   make valgrind-lua  the busted specs under valgrind (memory check of the binding)
#   make lint       luacheck over the Lua code (.luacheckrc), clang -Werror over the C code
#   make deps       install the Debian packages the project needs (as root)
#   make print      show the effective settings
#
# == settings (override on the command line: make CC=clang OPT=-O3) ==========
CC       ?= cc
OPT      ?= -O2
BUILD    ?= build
PREFIX   ?= /usr/local
SHARED   ?= ../shared
# warning sets
WARN     := -std=c11 -Wall -Wextra -Wpedantic -Wshadow -Wundef -Wwrite-strings \
            -Wmissing-prototypes -Wstrict-prototypes -Werror
SAN_FLAGS := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
TSAN_FLAGS := -fsanitize=thread -fno-omit-frame-pointer
EXTRA_CFLAGS ?=
EXTRA_LDFLAGS ?=
# Debian packages needed to build, test and benchmark
DEB_PKGS := build-essential clang valgrind pkg-config cmake luarocks zlib1g-dev libpng-dev \
            gcc-mingw-w64-x86-64 libz-mingw-w64-dev wine wine64 \
            lua5.4 liblua5.4-dev luajit libluajit-5.1-dev lua-busted lua-filesystem lua-cjson lua-check \
            librecast-dev chromium python3 love xvfb xauth
# default scenario of `make run`
RUN_SCEN ?= tests/data/den011d.map.scen
# Lua engines for the module lodestar.core (LuaJIT is skipped when missing)
LUA54_CFLAGS  ?= $(shell pkg-config --cflags lua5.4 2>/dev/null || echo -I/usr/include/lua5.4)
LUAJIT_CFLAGS ?= $(shell pkg-config --cflags luajit 2>/dev/null)
LUA54         ?= lua5.4
LUAJIT        ?= luajit
BUSTED        ?= /usr/bin/busted
# make lint: the Lua linter (Debian lua-check) and the compiler whose warnings it checks
LUACHECK      ?= luacheck
CLANG         ?= clang
# == end of settings ==========================================================

# -Iio: everything but core/ sees io/lds_io.h (core/ is compiled without it)
CFLAGS_ALL := $(WARN) $(OPT) -g -fPIC -fvisibility=hidden -MMD -MP -Iio $(EXTRA_CFLAGS)
# the core library needs libm alone; the io library (files, gzip) adds zlib
LDLIBS     := -lm
IO_LIBS    := -lpng -lz

CORE_SRC := $(sort $(wildcard core/*.c))
CLI_SRC  := $(sort $(wildcard tools/lodestar/*.c))
RUNTIME_SRC := $(sort $(wildcard runtime/*.c))
TEST_SRC := $(sort $(wildcard tests/c/test_*.c))

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/obj/%.o)
IO_SRC   := $(sort $(wildcard io/*.c))
IO_OBJ   := $(IO_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
RUNTIME_OBJ := $(RUNTIME_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)

LIB_A  := $(BUILD)/liblodestar.a
# the version, from core/lds_config.h (LDS_VERSION): the shared library's
# file name and soname, the pkg-config and CMake files follow it
VERSION  := $(shell sed -n 's/^\#define LDS_VERSION "\(.*\)"/\1/p' core/lds_config.h)
SOMAJOR  := $(firstword $(subst ., ,$(VERSION)))
LIB_SO := $(BUILD)/liblodestar.so
LIB_SO_REAL := $(BUILD)/liblodestar.so.$(VERSION)
LIB_SONAME := liblodestar.so.$(SOMAJOR)
IO_LIB := $(BUILD)/liblodestar_io.a
CLI    := $(BUILD)/lodestar
TESTS  := $(BUILD)/test_runner

HOST_LIB     := $(BUILD)/liblodestar_host.a
EXAMPLE_HOST := $(BUILD)/example_host
RUNTIME_TEST := $(BUILD)/runtime_test
# the runtime against LuaJIT (built when LuaJIT's headers are there)
RUNTIME_JIT_OBJ  := $(RUNTIME_SRC:runtime/%.c=$(BUILD)/obj/runtime-luajit/%.o)
HOST_LIB_JIT     := $(BUILD)/luajit/liblodestar_host.a
RUNTIME_TEST_JIT := $(BUILD)/luajit/runtime_test

# every bindings/lua/*.c is part of the module
LUA_MOD_SRC := $(sort $(wildcard bindings/lua/*.c))
LUA54_OBJ   := $(LUA_MOD_SRC:bindings/lua/%.c=$(BUILD)/obj/lua54/%.o)
LUAJIT_OBJ  := $(LUA_MOD_SRC:bindings/lua/%.c=$(BUILD)/obj/luajit/%.o)
LUA54_MOD   := $(BUILD)/lua54/lodestar/core.so
LUAJIT_MOD  := $(BUILD)/luajit/lodestar/core.so
HAVE_LUAJIT := $(shell printf '\043include <lua.h>\n' | $(CC) $(LUAJIT_CFLAGS) -E -x c - >/dev/null 2>&1 && \
                 test -n "$(LUAJIT_CFLAGS)" && echo yes)
LUA_MODS    := $(LUA54_MOD) $(if $(HAVE_LUAJIT),$(LUAJIT_MOD))
# two lua_States in one process (tests/spec/08-states_spec.lua runs them)
TWO_STATES  := $(BUILD)/lua54/two_states $(if $(HAVE_LUAJIT),$(BUILD)/luajit/two_states) \
               $(BUILD)/lua54/parse_oom $(if $(HAVE_LUAJIT),$(BUILD)/luajit/parse_oom)
# Lua 5.4 states whose allocator fails mid path operation (tests/spec/21-lua_oom_spec.lua)
LUA_OOM     := $(BUILD)/lua54/lua_oom_paths
LUA54_LIBS  ?= $(shell pkg-config --libs lua5.4 2>/dev/null || echo -llua5.4)
LUAJIT_LIBS ?= $(shell pkg-config --libs luajit 2>/dev/null)
ENV_FILES   := $(BUILD)/env.sh $(BUILD)/env-luajit.sh


.PHONY: fuzz test-fuzz
.PHONY: rock rock-install test-rock test-env
.PHONY: FORCE all run test test-gameday test-c test-portable test-thread test-cli test-lua test-runtime test-demo-mods test-install test-link test-licence valgrind bench sanitize deps clean print lint docs install lua valgrind-lua
.DELETE_ON_ERROR:

all: $(LIB_A) $(LIB_SO) $(IO_LIB) $(CLI) lua $(HOST_LIB) $(EXAMPLE_HOST) $(RUNTIME_TEST) \
     $(if $(HAVE_LUAJIT),$(HOST_LIB_JIT) $(RUNTIME_TEST_JIT))

# == the embedding runtime (runtime/*.c): Lua 5.4 + the core ==
# build/liblodestar_host.a = the runtime's objects + the Lua 5.4 binding; a host
# links it before liblodestar.a and $(LUA54_LIBS). The core library stays Lua-free.
$(BUILD)/obj/runtime/%.o: runtime/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -Iruntime -Ibindings/lua $(LUA54_CFLAGS) \
	  -DLDS_SCRIPTS_DIR='"$(CURDIR)/scripts"' -c $< -o $@

$(HOST_LIB): $(RUNTIME_OBJ) $(LUA54_OBJ)
	rm -f $@ && ar rcs $@ $^

$(BUILD)/obj/examples/host/example.o: examples/host/example.c runtime/lds_runtime.h Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -Iruntime -c $< -o $@

$(EXAMPLE_HOST): $(BUILD)/obj/examples/host/example.o $(HOST_LIB) $(IO_LIB) $(LIB_A)
	$(CC) -o $@ $< $(HOST_LIB) $(IO_LIB) $(LIB_A) $(LUA54_LIBS) $(LDLIBS) $(IO_LIBS) $(EXTRA_LDFLAGS)

$(RUNTIME_TEST): tests/c/runtime_test.c $(HOST_LIB) $(IO_LIB) $(LIB_A) Makefile
	$(CC) $(CFLAGS_ALL) -Icore -Iruntime -Ibindings/lua $(LUA54_CFLAGS) \
	  -DLDS_SRCDIR='"$(CURDIR)"' -o $@ $< $(HOST_LIB) $(IO_LIB) $(LIB_A) $(LUA54_LIBS) $(LDLIBS) \
	  $(IO_LIBS) $(EXTRA_LDFLAGS)

# the same runtime against LuaJIT (bindings/lua/lds_compat.h): a C host that
# embeds LuaJIT links build/luajit/liblodestar_host.a and $(LUAJIT_LIBS)
$(BUILD)/obj/runtime-luajit/%.o: runtime/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -Iruntime -Ibindings/lua $(LUAJIT_CFLAGS) \
	  -DLDS_SCRIPTS_DIR='"$(CURDIR)/scripts"' -c $< -o $@

$(HOST_LIB_JIT): $(RUNTIME_JIT_OBJ) $(LUAJIT_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(RUNTIME_TEST_JIT): tests/c/runtime_test.c $(HOST_LIB_JIT) $(IO_LIB) $(LIB_A) Makefile
	$(CC) $(CFLAGS_ALL) -Icore -Iruntime -Ibindings/lua $(LUAJIT_CFLAGS) \
	  -DLDS_SRCDIR='"$(CURDIR)"' -o $@ $< $(HOST_LIB_JIT) $(IO_LIB) $(LIB_A) $(LUAJIT_LIBS) $(LDLIBS) \
	  $(IO_LIBS) $(EXTRA_LDFLAGS)

test-runtime: $(RUNTIME_TEST) $(EXAMPLE_HOST) $(if $(HAVE_LUAJIT),$(RUNTIME_TEST_JIT))
	$(RUNTIME_TEST)
ifneq ($(HAVE_LUAJIT),)
	$(RUNTIME_TEST_JIT)
endif
	$(EXAMPLE_HOST) > $(BUILD)/example_host.out && grep -q "^done: 3 C requests" $(BUILD)/example_host.out && \
	  grep -q "^Lua request of agent 99: found" $(BUILD)/example_host.out

# == the Lua module lodestar.core, once per engine, with the core linked in ==
lua: $(LUA_MODS) $(ENV_FILES) $(TWO_STATES) $(LUA_OOM)
ifeq ($(HAVE_LUAJIT),)
	@echo "lua: LuaJIT headers not found (pkg-config luajit): skipping $(LUAJIT_MOD)"
endif

$(BUILD)/obj/lua54/%.o: bindings/lua/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -Ibindings/lua $(LUA54_CFLAGS) -c $< -o $@

$(BUILD)/obj/luajit/%.o: bindings/lua/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -Ibindings/lua $(LUAJIT_CFLAGS) -c $< -o $@

$(LUA54_MOD): $(LUA54_OBJ) $(IO_OBJ) $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ $^ $(LDLIBS) $(IO_LIBS) $(EXTRA_LDFLAGS)

$(LUAJIT_MOD): $(LUAJIT_OBJ) $(IO_OBJ) $(CORE_OBJ)
	@mkdir -p $(dir $@)
	$(CC) -shared -o $@ $^ $(LDLIBS) $(IO_LIBS) $(EXTRA_LDFLAGS)

$(BUILD)/lua54/two_states: tests/c/lua_two_states.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(LUA54_CFLAGS) -o $@ $< $(LUA54_LIBS) $(LDLIBS)

$(BUILD)/luajit/two_states: tests/c/lua_two_states.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(LUAJIT_CFLAGS) -o $@ $< $(LUAJIT_LIBS) $(LDLIBS)

$(BUILD)/lua54/parse_oom: tests/c/lua_parse_oom.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(LUA54_CFLAGS) -o $@ $< $(LUA54_LIBS) $(LDLIBS)

$(BUILD)/luajit/parse_oom: tests/c/lua_parse_oom.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(LUAJIT_CFLAGS) -o $@ $< $(LUAJIT_LIBS) $(LDLIBS)

$(LUA_OOM): tests/c/lua_oom_paths.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(LUA54_CFLAGS) -o $@ $< $(LUA54_LIBS) $(LDLIBS)

# `. build/env.sh` from the repo root: require "lodestar" finds the package
# and the module of this build (absolute paths, so any directory works after)
# in lua5.4 and in luajit alike: Lua 5.4 reads LUA_CPATH_5_4 (the Lua 5.4
# module) before LUA_CPATH, which LuaJIT reads (the LuaJIT module).
# build/env-luajit.sh sets LuaJIT's paths alone.
$(BUILD)/env.sh: Makefile
	@mkdir -p $(dir $@)
	@printf 'export LUA_PATH="%s/scripts/?.lua;%s/scripts/?/init.lua;;"\nexport LUA_CPATH_5_4="%s/$(BUILD)/lua54/?.so;;"\nexport LUA_CPATH="%s/$(BUILD)/$(if $(HAVE_LUAJIT),luajit,lua54)/?.so;;"\n' \
	  "$(CURDIR)" "$(CURDIR)" "$(CURDIR)" "$(CURDIR)" > $@

$(BUILD)/env-luajit.sh: Makefile
	@mkdir -p $(dir $@)
	@printf 'export LUA_PATH="%s/scripts/?.lua;%s/scripts/?/init.lua;;"\nexport LUA_CPATH="%s/$(BUILD)/luajit/?.so;;"\n' \
	  "$(CURDIR)" "$(CURDIR)" "$(CURDIR)" > $@

# core/ is compiled without any Lua or io/ include path, so an accidental
# #include <lua.h> or "lds_io.h" fails the build.
$(BUILD)/obj/core/%.o: core/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -Iio,$(CFLAGS_ALL)) -DLDS_BUILD_SHARED -c $< -o $@

# io/: files and gzip for the core's reader parsers, over the core's public API
$(BUILD)/obj/io/%.o: io/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -DLDS_BUILD_SHARED -c $< -o $@

$(BUILD)/obj/tools/lodestar/%.o: tools/lodestar/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -Iruntime -c $< -o $@

# `lodestar demo` without --map: tests/data/den011d.map from the current
# directory, else LDS_DATA_DIR/den011d.map; for build/lodestar that is this
# tree's tests/data (absolute, like the runtime's LDS_SCRIPTS_DIR), for the
# installed command DATA_DIR (see install)
$(BUILD)/obj/tools/lodestar/demo.o: tools/lodestar/demo.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -Iruntime -DLDS_DATA_DIR='"$(CURDIR)/tests/data"' -c $< -o $@

$(BUILD)/obj/tests/c/%.o: tests/c/%.c Makefile $(BUILD)/test_suites.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -I$(BUILD) -DLDS_SHARED_DIR='"$(SHARED)"' -c $< -o $@

$(LIB_A): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

# liblodestar.so.X.Y.Z with soname liblodestar.so.X; .so.X and .so are links
$(LIB_SO_REAL): $(CORE_OBJ)
	$(CC) -shared -Wl,-soname,$(LIB_SONAME) -o $@ $^ $(LDLIBS) $(EXTRA_LDFLAGS)
$(LIB_SO): $(LIB_SO_REAL)
	ln -sf $(notdir $(LIB_SO_REAL)) $(BUILD)/$(LIB_SONAME)
	ln -sf $(notdir $(LIB_SO_REAL)) $@

$(IO_LIB): $(IO_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(CLI): $(CLI_OBJ) $(HOST_LIB) $(IO_LIB) $(LIB_A)
	$(CC) -o $@ $(CLI_OBJ) $(HOST_LIB) $(IO_LIB) $(LIB_A) $(LUA54_LIBS) $(LDLIBS) $(IO_LIBS) $(EXTRA_LDFLAGS)

# Every tests/c/test_*.c defines `void suite_NAME(void)`; the runner calls them all.
$(BUILD)/test_suites.h: $(TEST_SRC) Makefile
	@mkdir -p $(dir $@)
	@grep -h -o '^void suite_[a-z0-9_]*(void)' $(TEST_SRC) | sed 's/(void)//; s/^void //' | sort -u | \
	  awk '{ d = d "void " $$1 "(void);\n"; c = c "  RUN_SUITE(" $$1 ");\n" } \
	       END { printf "%s#define ALL_SUITES \\\n", d; n = split(c, a, "\n"); \
	             for (i = 1; i < n; i++) printf "%s \\\n", a[i]; print "" }' > $@

$(TESTS): $(TEST_OBJ) $(IO_LIB) $(LIB_A)
	$(CC) -o $@ $(TEST_OBJ) $(IO_LIB) $(LIB_A) $(LDLIBS) $(IO_LIBS) $(EXTRA_LDFLAGS)

run: all
	$(CLI) scen $(RUN_SCEN)

test-c: $(TESTS)
	$(TESTS)

# tests/c/thread_test.c: one grid and one graph searched by 4 threads at once
# (docs/threads.md); its own program, linked with -pthread
THREAD_TEST := $(BUILD)/thread_test
$(THREAD_TEST): tests/c/thread_test.c $(LIB_A) Makefile
	$(CC) $(CFLAGS_ALL) -pthread -Icore -o $@ $< $(LIB_A) $(LDLIBS) -pthread $(EXTRA_LDFLAGS)

test-thread: $(THREAD_TEST)
	$(THREAD_TEST)

# busted specs (tests/spec, configured by .busted) under Lua 5.4, then LuaJIT
# (tests/spec/40-scheduler_spec.lua writes a digest of one scheduler scenario
# per engine: both engines must give the same frames and paths)
test-lua: lua $(CLI)
	rm -f $(BUILD)/sched_digest.lua54 $(BUILD)/sched_digest.luajit
	rm -f $(BUILD)/gameday_digest.lua54 $(BUILD)/gameday_digest.luajit
	LDS_BUILD=$(BUILD) LDS_SHARED=$(SHARED) $(LUA54) $(BUSTED) --run=default --cpath="$(BUILD)/lua54/?.so"
ifneq ($(HAVE_LUAJIT),)
	LDS_BUILD=$(BUILD) LDS_SHARED=$(SHARED) $(LUAJIT) $(BUSTED) --run=luajit --cpath="$(BUILD)/luajit/?.so"
	cmp $(BUILD)/sched_digest.lua54 $(BUILD)/sched_digest.luajit && \
	  echo "test-lua: the scheduler scenario gives the same frames and paths on Lua 5.4 and LuaJIT"
	cmp $(BUILD)/gameday_digest.lua54 $(BUILD)/gameday_digest.luajit && \
	  echo "test-lua: the game-day scenario gives the same paths and events on Lua 5.4 and LuaJIT"
else
	@echo "test-lua: LuaJIT headers not found: specs not run under LuaJIT"
endif

# the replay page of `lodestar trace` in headless Chromium (skipped without it)
test-trace: $(CLI)
	tests/trace_browser_test.sh $(CLI) $(BUILD)/trace_test

# the LÖVE example under xvfb-run with scripted input (skipped without love/xvfb)
test-love: lua
	tests/love_test.sh $(BUILD)/love_test

# the command-line checks (bad input, --json keys, --stride, --ascii)
test-cli: $(CLI)
	tests/cli_test.sh $(CLI)

# lodestar demo --mods --watch with a rule file rewritten while it runs
test-demo-mods: $(CLI)
	tests/demo_mods_test.sh $(CLI)

# make install into a scratch prefix, then run the installed command from there
# (after an install elsewhere, removed after: the paths compiled into the
# installed objects must follow PREFIX)
test-install: all
	rm -rf $(BUILD)/itest $(BUILD)/itest-other
	$(MAKE) --no-print-directory install PREFIX=$(CURDIR)/$(BUILD)/itest-other >/dev/null
	$(MAKE) --no-print-directory install PREFIX=$(CURDIR)/$(BUILD)/itest >/dev/null
	rm -rf $(BUILD)/itest-other
	tests/install_test.sh $(CURDIR)/$(BUILD)/itest

# the core links with -lm alone, no file or zlib symbol in it; io over the
# shared core (tests/link_test.sh)
test-link: $(LIB_A) $(LIB_SO) $(IO_LIB)
	CC="$(CC)" tests/link_test.sh $(BUILD)

# every suite in order, then one line per suite and the closing
# "N passed, N failed" over all of them (tests/run_tests.sh)
TEST_SUITES := test-c test-portable test-thread test-fuzz test-runtime test-cli test-lua test-install \
  test-link test-licence test-demo-mods test-gameday test-rock test-env test-windows test-trace \
  test-love
test:
	@tests/run_tests.sh "$(MAKE)" $(TEST_SUITES)

# the game-day scenario through the C scheduler (tests/bench/bench_gameday.c):
# `make bench` runs it in full (tests/bench/bench_gameday.sh); `make test`
# its quick variant, which checks results (every delivered path legal and
# optimal, two runs equal), never times
GAMEDAY     := $(BUILD)/bench_gameday
GAMEDAY_MAP := $(firstword $(wildcard $(SHARED)/data/movingai/maps/AR0011SR.map) tests/data/den011d.map)
$(GAMEDAY): tests/bench/bench_gameday.c $(IO_LIB) $(LIB_A) Makefile
	$(CC) $(CFLAGS_ALL) -Icore -o $@ $< $(IO_LIB) $(LIB_A) $(LDLIBS) $(IO_LIBS) $(EXTRA_LDFLAGS)
test-gameday: $(GAMEDAY)
	$(GAMEDAY) --quick $(GAMEDAY_MAP)

# the search fuzzer against its own Dijkstra (tests/fuzz/fuzz_search.c):
# `make fuzz` runs it for FUZZ_SECONDS (default 60) from a random seed it
# prints, SEED=... replays one; `make test` runs a fixed seed and case count.
FUZZ         := $(BUILD)/fuzz_search
FUZZ_SECONDS ?= 60
FUZZ_ITERS   ?= 3000
$(FUZZ): tests/fuzz/fuzz_search.c $(LIB_A) Makefile
	$(CC) $(CFLAGS_ALL) -Icore -o $@ $< $(LIB_A) $(LDLIBS) $(EXTRA_LDFLAGS)
fuzz: $(FUZZ)
	$(FUZZ) --seconds $(FUZZ_SECONDS) $(if $(SEED),--seed $(SEED))
# plus two cases that D* Lite's old tie band failed (stale g after edits;
# case numbers of this generator: re-pick them when it changes)
# the navmesh parsers and searches on mutated meshes (tests/fuzz/fuzz_navmesh.c)
FUZZ_NAV := $(BUILD)/fuzz_navmesh
$(FUZZ_NAV): tests/fuzz/fuzz_navmesh.c $(LIB_A) Makefile
	$(CC) $(CFLAGS_ALL) -Icore -o $@ $< $(LIB_A) $(LDLIBS) $(EXTRA_LDFLAGS)
test-fuzz: $(FUZZ) $(FUZZ_NAV)
	$(FUZZ_NAV) --seed 1 --iters 20000
	$(FUZZ) --seed 1 --iters $(FUZZ_ITERS)
	$(FUZZ) --seed 26 --case 1322 && $(FUZZ) --seed 140 --case 448

# LICENSE is MIT and every source file carries its SPDX line
test-licence:
	tests/licence_test.sh

# the C tests on the portable code paths (no x86-64 assembly, no prefetch
# hints: what another target compiles), in a build of their own
test-portable:
	$(MAKE) --no-print-directory BUILD=build/portable \
	  EXTRA_CFLAGS="-DLDS_NO_ASM -DLDS_NO_PREFETCH" test-c

# tests/bench/setup_bench: query set-up time on a 64x64 vs a 2048x2048 grid
SETUP_BENCH := $(BUILD)/setup_bench
$(SETUP_BENCH): tests/bench/setup_bench.c $(LIB_A) Makefile
	$(CC) $(CFLAGS_ALL) -Icore -o $@ $< $(LIB_A) $(LDLIBS) $(EXTRA_LDFLAGS)

# tests/bench/bench_costview: two agent classes (weight sets) in one scheduler (issue 18)
COSTVIEW_BENCH := $(BUILD)/bench_costview
$(COSTVIEW_BENCH): tests/bench/bench_costview.c $(IO_LIB) $(LIB_A) Makefile
	$(CC) $(CFLAGS_ALL) -Icore -o $@ $< $(IO_LIB) $(LIB_A) $(LDLIBS) $(IO_LIBS) $(EXTRA_LDFLAGS)
# tests/bench/components_bench and path_cache_bench: connectivity and the
# path cache on big maps (docs/big-maps.md; run by bench_connectivity.sh)
BIG_BENCH := $(BUILD)/components_bench $(BUILD)/path_cache_bench
$(BUILD)/%_bench: tests/bench/%_bench.c $(LIB_A) $(IO_LIB) Makefile
	$(CC) $(CFLAGS_ALL) -Icore -Iio -o $@ $< $(IO_LIB) $(LIB_A) $(LDLIBS) $(IO_LIBS) $(EXTRA_LDFLAGS)

# tests/bench/gen_tiled_map: the 4096x4096 tiled maps of bench_hier.sh
GEN_TILED := $(BUILD)/gen_tiled_map
$(GEN_TILED): tests/bench/gen_tiled_map.c Makefile
	$(CC) $(CFLAGS_ALL) -o $@ $< $(EXTRA_LDFLAGS)

bench: all $(SETUP_BENCH) $(COSTVIEW_BENCH) $(BIG_BENCH) $(GAMEDAY) $(GEN_TILED)
	LDS=$(CLI) SETUP_BENCH=$(SETUP_BENCH) COSTVIEW_BENCH=$(COSTVIEW_BENCH) GAMEDAY=$(GAMEDAY) \
	  GEN_TILED=$(GEN_TILED) \
	  SHARED=$(SHARED) tests/bench/run_bench.sh

# no leaks or invalid accesses on 100 queries of the default scenario
valgrind: $(CLI)
	valgrind --leak-check=full --error-exitcode=1 $(CLI) scen $(RUN_SCEN) --limit 100

# The C tests and the fuzzer's make-test pass under ASan+UBSan, then the
# thread test and the C runner under ThreadSanitizer (its own build: TSan
# cannot share a build with ASan; any reported race fails the run). The
# busted specs are not run here: the interpreters are not instrumented (they
# would need LD_PRELOAD=libasan).
sanitize:
	$(MAKE) BUILD=build/sanitize OPT=-O1 EXTRA_CFLAGS="$(SAN_FLAGS)" \
	  EXTRA_LDFLAGS="$(SAN_FLAGS)" test-c test-thread test-runtime test-fuzz
	TSAN_OPTIONS="halt_on_error=1 exitcode=66 $(TSAN_OPTIONS)" $(MAKE) BUILD=build/tsan OPT=-O1 \
	  EXTRA_CFLAGS="$(TSAN_FLAGS)" EXTRA_LDFLAGS="$(TSAN_FLAGS)" test-thread test-c

deps:
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then echo "deps: all Debian packages present"; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	else echo "deps: run as root: apt-get install -y$$missing"; exit 1; fi

# The busted specs (the slow Moving AI one excluded) under valgrind, Lua 5.4:
# the memory check of the binding, since the interpreters are not built with ASan.
valgrind-lua: lua
	LDS_BUILD=$(BUILD) valgrind -q --error-exitcode=9 $(LUA54) $(BUSTED) --run=default --cpath="$(BUILD)/lua54/?.so" \
	  --exclude-tags=slow

# luacheck over the Lua package, the mods, the specs and the Lua benchmarks
# (tests/bench/*.lua; settings in .luacheckrc), then the C code through clang's front end with the build's
# warnings as errors (-Werror again, should WARN be overridden): core/ without
# Lua flags, as it is built; bindings/ with the core's and Lua 5.4's include
# paths, and the Lua binding once more against LuaJIT's headers.
LINT_LUA    := scripts mods tests/spec tests/bench examples/love examples/navmesh examples/bigmap .luacheckrc
LINT_CFLAGS  = $(filter-out -Werror,$(WARN)) -Werror -fsyntax-only
lint:
	@command -v $(LUACHECK) >/dev/null 2>&1 || \
	  { echo "lint: $(LUACHECK) not found: run 'make deps' as root, or apt-get install -y lua-check"; exit 1; }
	@command -v $(CLANG) >/dev/null 2>&1 || \
	  { echo "lint: $(CLANG) not found: run 'make deps' as root, or apt-get install -y clang"; exit 1; }
	$(LUACHECK) -q --no-color $(LINT_LUA)
	@! grep -nE '\<(FILE|fopen|freopen|fdopen|fread|fwrite|fclose|fgets|fputs|fprintf|fscanf|stdin|stdout|stderr|gz(open|dopen|read|write|close|buffer|error|File))\>|include *[<"](zlib|lds_io)\.h' \
	  core/*.[ch] || \
	  { echo "lint: file I/O in core/ (it belongs in io/)"; exit 1; }
	$(CLANG) $(LINT_CFLAGS) -DLDS_BUILD_SHARED $(CORE_SRC)
	$(CLANG) $(LINT_CFLAGS) -Icore $(IO_SRC)
	$(CLANG) $(LINT_CFLAGS) -Icore -Iio -Iruntime -Ibindings/lua $(LUA54_CFLAGS) \
	  $(sort $(shell find bindings runtime tools examples -name '*.c'))
ifneq ($(HAVE_LUAJIT),)
	$(CLANG) $(LINT_CFLAGS) -Icore -Iio -Iruntime -Ibindings/lua $(LUAJIT_CFLAGS) $(LUA_MOD_SRC) $(RUNTIME_SRC)
endif
	@echo "lint: ok"

# make install PREFIX=/opt/game: library, headers, Lua package and module
LUA_LMOD ?= $(PREFIX)/share/lua/5.4
LUA_CMOD ?= $(PREFIX)/lib/lua/5.4
JIT_LMOD ?= $(PREFIX)/share/lua/5.1
JIT_CMOD ?= $(PREFIX)/lib/lua/5.1
# data the installed command reads: the demo's default map
DATA_DIR ?= $(PREFIX)/share/lodestar
# the licence, which every copy of the software must carry (MIT)
DOC_DIR ?= $(PREFIX)/share/doc/lodestar
# The install paths compiled into the objects below: this file changes, and
# they are rebuilt, only when the paths do (a later `make install
# PREFIX=/opt/game` must not reuse objects made for another PREFIX).
INST_PATHS := $(BUILD)/install/paths
INST_PATHS_TEXT := $(PREFIX) $(LUA_LMOD) $(DATA_DIR)
$(INST_PATHS): FORCE
	@mkdir -p $(dir $@)
	@echo '$(INST_PATHS_TEXT)' | cmp -s - $@ || echo '$(INST_PATHS_TEXT)' > $@
# The installed host library looks for the Lua package where install puts it
# (LUA_LMOD), not in this source tree: its lds_runtime.o is compiled apart.
INST_HOST_LIB := $(BUILD)/install/liblodestar_host.a
INST_RUNTIME_OBJ := $(RUNTIME_SRC:%.c=$(BUILD)/install/%.o)
$(BUILD)/install/runtime/%.o: runtime/%.c Makefile $(INST_PATHS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -Iruntime -Ibindings/lua $(LUA54_CFLAGS) \
	  -DLDS_SCRIPTS_DIR='"$(LUA_LMOD)"' -c $< -o $@
$(INST_HOST_LIB): $(INST_RUNTIME_OBJ) $(LUA54_OBJ)
	rm -f $@ && ar rcs $@ $^
# pkg-config files: the core (shared library), the io library (static, zlib
# in Libs) and the embedding runtime (static, Lua 5.4); Version is
# lds_version(). Outside /usr the core's Libs carry an rpath, so a program
# linked with `pkg-config --libs lodestar` alone runs without LD_LIBRARY_PATH.
PC_RPATH := $(if $(filter /usr,$(PREFIX)),,-Wl,-rpath,$${libdir})
PC_HEAD = 'prefix=$(PREFIX)' 'libdir=$${prefix}/lib' 'includedir=$${prefix}/include' ''
$(BUILD)/install/lodestar.pc: Makefile $(INST_PATHS) core/lds_config.h
	@mkdir -p $(dir $@)
	printf '%s\n' $(PC_HEAD) \
	  'Name: lodestar' 'Description: pathfinding runtime: A*, JPS, D* Lite (core library)' \
	  'Version: $(VERSION)' 'Cflags: -I$${includedir}/lodestar' \
	  'Libs: -L$${libdir} $(PC_RPATH) -llodestar' 'Libs.private: -lm' >$@
$(BUILD)/install/lodestar-io.pc: Makefile $(INST_PATHS) core/lds_config.h
	@mkdir -p $(dir $@)
	printf '%s\n' $(PC_HEAD) \
	  'Name: lodestar-io' 'Description: lodestar file reading: Moving AI maps, scenarios, DIMACS (gzip)' \
	  'Version: $(VERSION)' 'Requires: lodestar = $(VERSION)' 'Cflags: -I$${includedir}/lodestar' \
	  'Libs: -L$${libdir} -llodestar_io -lpng -lz' >$@
# the runtime's static library holds the Lua binding, which uses the core's
# internal symbols: it links the static core (liblodestar.a) by path
$(BUILD)/install/lodestar-runtime.pc: Makefile $(INST_PATHS) core/lds_config.h
	@mkdir -p $(dir $@)
	printf '%s\n' $(PC_HEAD) \
	  'Name: lodestar-runtime' 'Description: lodestar embedding runtime: Lua 5.4 scripting, mods, scheduler' \
	  'Version: $(VERSION)' 'Requires: lua5.4' 'Cflags: -I$${includedir}/lodestar' \
	  'Libs: -L$${libdir} -llodestar_host -llodestar_io $${libdir}/liblodestar.a -lpng -lz -lm' >$@
# CMake package: find_package(lodestar) gives lodestar::lodestar (shared core),
# lodestar::static, lodestar::io and lodestar::runtime
$(BUILD)/install/lodestarConfig.cmake: packaging/lodestarConfig.cmake.in Makefile core/lds_config.h
	@mkdir -p $(dir $@)
	sed -e 's/@VERSION@/$(VERSION)/g' -e 's/@SONAME@/$(LIB_SONAME)/g' $< >$@
$(BUILD)/install/lodestarConfigVersion.cmake: packaging/lodestarConfigVersion.cmake.in Makefile core/lds_config.h
	@mkdir -p $(dir $@)
	sed -e 's/@VERSION@/$(VERSION)/g' $< >$@
INST_PKG_FILES := $(BUILD)/install/lodestar.pc $(BUILD)/install/lodestar-io.pc \
  $(BUILD)/install/lodestar-runtime.pc
INST_CMAKE_FILES := $(BUILD)/install/lodestarConfig.cmake $(BUILD)/install/lodestarConfigVersion.cmake

# the installed command: the same objects, linked with the installed host
# library, but for the demo's, which looks for its default map in DATA_DIR
$(BUILD)/install/tools/lodestar/demo.o: tools/lodestar/demo.c Makefile $(INST_PATHS)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -Iruntime -DLDS_DATA_DIR='"$(DATA_DIR)"' -c $< -o $@
INST_CLI := $(BUILD)/install/lodestar
INST_CLI_OBJ := $(filter-out %/tools/lodestar/demo.o,$(CLI_OBJ)) $(BUILD)/install/tools/lodestar/demo.o
$(INST_CLI): $(INST_CLI_OBJ) $(INST_HOST_LIB) $(IO_LIB) $(LIB_A)
	$(CC) -o $@ $(INST_CLI_OBJ) $(INST_HOST_LIB) $(IO_LIB) $(LIB_A) $(LUA54_LIBS) $(LDLIBS) $(IO_LIBS) \
	  $(EXTRA_LDFLAGS)

install: all $(INST_HOST_LIB) $(INST_CLI) $(INST_PKG_FILES) $(INST_CMAKE_FILES)
	install -d $(DESTDIR)$(PREFIX)/lib $(DESTDIR)$(PREFIX)/include/lodestar $(DESTDIR)$(PREFIX)/bin \
	  $(DESTDIR)$(PREFIX)/lib/pkgconfig $(DESTDIR)$(PREFIX)/lib/cmake/lodestar
	install -m 644 $(LIB_A) $(IO_LIB) $(INST_HOST_LIB) $(DESTDIR)$(PREFIX)/lib/
	install -m 644 $(INST_PKG_FILES) $(DESTDIR)$(PREFIX)/lib/pkgconfig/
	install -m 644 $(INST_CMAKE_FILES) $(DESTDIR)$(PREFIX)/lib/cmake/lodestar/
	install -m 755 $(LIB_SO_REAL) $(DESTDIR)$(PREFIX)/lib/
	ln -sf $(notdir $(LIB_SO_REAL)) $(DESTDIR)$(PREFIX)/lib/$(LIB_SONAME)
	ln -sf $(notdir $(LIB_SO_REAL)) $(DESTDIR)$(PREFIX)/lib/liblodestar.so
	install -m 755 $(INST_CLI) $(DESTDIR)$(PREFIX)/bin/
	install -m 644 $(filter-out core/%internal.h,$(wildcard core/lds*.h)) io/lds_io.h io/lds_png.h bindings/lua/lodestar_lua.h \
	  runtime/lds_runtime.h \
	  $(DESTDIR)$(PREFIX)/include/lodestar/
	install -d $(DESTDIR)$(LUA_LMOD)/lodestar $(DESTDIR)$(LUA_CMOD)/lodestar
	install -m 644 scripts/lodestar/*.lua $(DESTDIR)$(LUA_LMOD)/lodestar/
	install -m 755 $(LUA54_MOD) $(DESTDIR)$(LUA_CMOD)/lodestar/core.so
	install -d $(DESTDIR)$(DATA_DIR)
	install -m 644 tests/data/den011d.map $(DESTDIR)$(DATA_DIR)/
	install -d $(DESTDIR)$(DOC_DIR)
	install -m 644 LICENSE CHANGELOG.md $(DESTDIR)$(DOC_DIR)/
ifneq ($(HAVE_LUAJIT),)
	install -d $(DESTDIR)$(JIT_LMOD)/lodestar $(DESTDIR)$(JIT_CMOD)/lodestar
	install -m 644 scripts/lodestar/*.lua $(DESTDIR)$(JIT_LMOD)/lodestar/
	install -m 755 $(LUAJIT_MOD) $(DESTDIR)$(JIT_CMOD)/lodestar/core.so
endif

# == LuaRocks (lodestar-$(VERSION)-1.rockspec, build type make) ==
# `luarocks make` runs `make rock` with the flags and the Lua headers of the
# Lua it targets, then `make rock-install` with its install folders.
ROCK_BUILD := build/rock
ROCK_CFLAGS ?= -O2 -fPIC
ROCK_LIBFLAG ?= -shared
ROCK_LUA_INCDIR ?= /usr/include/lua5.4
ROCK_OBJ := $(patsubst %.c,$(ROCK_BUILD)/obj/%.o,$(CORE_SRC) $(IO_SRC) $(LUA_MOD_SRC))
ROCK_MOD := $(ROCK_BUILD)/lodestar/core.so
$(ROCK_BUILD)/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) -std=c11 $(ROCK_CFLAGS) -fvisibility=hidden -DLDS_BUILD_SHARED -Icore -Iio -Ibindings/lua \
	  -I$(ROCK_LUA_INCDIR) $(if $(ROCK_ZLIB_INCDIR),-I$(ROCK_ZLIB_INCDIR)) -c $< -o $@
$(ROCK_MOD): $(ROCK_OBJ)
	@mkdir -p $(dir $@)
	$(CC) $(ROCK_LIBFLAG) -o $@ $^ $(if $(ROCK_ZLIB_LIBDIR),-L$(ROCK_ZLIB_LIBDIR)) -lpng -lz -lm
rock: $(ROCK_MOD)
rock-install: $(ROCK_MOD)
	install -d $(INST_LIBDIR)/lodestar $(INST_LUADIR)/lodestar
	install -m 755 $(ROCK_MOD) $(INST_LIBDIR)/lodestar/core.so
	install -m 644 scripts/lodestar/*.lua $(INST_LUADIR)/lodestar/
# build/env.sh serves lua5.4 and luajit; a module of the other engine is explained
test-env: lua
	tests/env_test.sh $(BUILD)

# `luarocks make` of this tree into a scratch tree, then require "lodestar"
# from that tree under Lua 5.4 (tests/rock_test.sh; skipped without luarocks)
test-rock:
	tests/rock_test.sh

include mk/windows.mk

clean:
	rm -rf build

print:
	@echo "CC=$(CC) OPT=$(OPT) BUILD=$(BUILD) PREFIX=$(PREFIX) SHARED=$(SHARED)"
	@echo "CFLAGS=$(CFLAGS_ALL)"
	@echo "CORE_SRC=$(CORE_SRC)"
	@echo "LUA54_CFLAGS=$(LUA54_CFLAGS) LUAJIT_CFLAGS=$(LUAJIT_CFLAGS) HAVE_LUAJIT=$(HAVE_LUAJIT)"

-include $(CORE_OBJ:.o=.d) $(IO_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d) \
  $(LUA54_OBJ:.o=.d) $(LUAJIT_OBJ:.o=.d) $(RUNTIME_OBJ:.o=.d) $(RUNTIME_JIT_OBJ:.o=.d) $(INST_RUNTIME_OBJ:.o=.d) \
  $(BUILD)/obj/examples/host/example.d $(BUILD)/install/tools/lodestar/demo.d
