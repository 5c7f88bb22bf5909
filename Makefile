# lodestar — pathfinding runtime for games.
#
#   make            build build/liblodestar.a, build/liblodestar.so, build/lodestar
#   make run        the main job: solve the default Moving AI scenario kept in the repo
#   make test       C tests, then the busted specs (Lua 5.4 and LuaJIT)
#   make bench      benchmarks against ../shared/data and the peers in ../shared/bench/peers
#   make sanitize   the tests under AddressSanitizer + UndefinedBehaviorSanitizer
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
EXTRA_CFLAGS ?=
EXTRA_LDFLAGS ?=
# Debian packages needed to build, test and benchmark
DEB_PKGS := build-essential clang valgrind pkg-config zlib1g-dev libpng-dev \
            lua5.4 liblua5.4-dev luajit libluajit-5.1-dev lua-busted lua-filesystem lua-cjson
# default scenario of `make run`
RUN_SCEN ?= tests/data/den011d.map.scen
# == end of settings ==========================================================

CFLAGS_ALL := $(WARN) $(OPT) -g -fPIC -fvisibility=hidden -MMD -MP $(EXTRA_CFLAGS)
LDLIBS     := -lm

CORE_SRC := $(sort $(wildcard core/*.c))
CLI_SRC  := $(sort $(wildcard bindings/host/cli_*.c))
TEST_SRC := $(sort $(wildcard tests/c/test_*.c))

CORE_OBJ := $(CORE_SRC:%.c=$(BUILD)/obj/%.o)
CLI_OBJ  := $(CLI_SRC:%.c=$(BUILD)/obj/%.o)
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/obj/%.o)

LIB_A  := $(BUILD)/liblodestar.a
LIB_SO := $(BUILD)/liblodestar.so
CLI    := $(BUILD)/lodestar
TESTS  := $(BUILD)/test_runner

.PHONY: all run test test-c bench valgrind sanitize deps clean print lint docs install
.DELETE_ON_ERROR:

all: $(LIB_A) $(LIB_SO) $(CLI)

# core/ is compiled without any Lua include path, so an accidental
# #include <lua.h> fails the build.
$(BUILD)/obj/core/%.o: core/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -DLDS_BUILD_SHARED -c $< -o $@

$(BUILD)/obj/bindings/host/%.o: bindings/host/%.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -c $< -o $@

$(BUILD)/obj/tests/c/%.o: tests/c/%.c Makefile $(BUILD)/test_suites.h
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS_ALL) -Icore -I$(BUILD) -DLDS_SHARED_DIR='"$(SHARED)"' -c $< -o $@

$(LIB_A): $(CORE_OBJ)
	@mkdir -p $(dir $@)
	rm -f $@ && ar rcs $@ $^

$(LIB_SO): $(CORE_OBJ)
	$(CC) -shared -o $@ $^ $(LDLIBS) $(EXTRA_LDFLAGS)

$(CLI): $(CLI_OBJ) $(LIB_A)
	$(CC) -o $@ $(CLI_OBJ) $(LIB_A) $(LDLIBS) $(EXTRA_LDFLAGS)

# Every tests/c/test_*.c defines `void suite_NAME(void)`; the runner calls them all.
$(BUILD)/test_suites.h: $(TEST_SRC) Makefile
	@mkdir -p $(dir $@)
	@grep -h -o '^void suite_[a-z0-9_]*(void)' $(TEST_SRC) | sed 's/(void)//; s/^void //' | \
	  awk '!seen[$$0]++' | awk '{ d = d "void " $$1 "(void);\n"; c = c "  RUN_SUITE(" $$1 ");\n" } \
	       END { printf "%s#define ALL_SUITES \\\n", d; n = split(c, a, "\n"); \
	             for (i = 1; i < n; i++) printf "%s \\\n", a[i]; print "" }' > $@

$(TESTS): $(TEST_OBJ) $(LIB_A)
	$(CC) -o $@ $(TEST_OBJ) $(LIB_A) $(LDLIBS) $(EXTRA_LDFLAGS)

run: $(CLI)
	$(CLI) scen $(RUN_SCEN)

test-c: $(TESTS)
	$(TESTS)

test: test-c $(CLI)
	tests/cli_test.sh $(CLI)

# tests/bench/setup_bench: query set-up time on a 64x64 vs a 2048x2048 grid
SETUP_BENCH := $(BUILD)/setup_bench
$(SETUP_BENCH): tests/bench/setup_bench.c $(LIB_A) Makefile
	$(CC) $(CFLAGS_ALL) -Icore -o $@ $< $(LIB_A) $(LDLIBS) $(EXTRA_LDFLAGS)

bench: all $(SETUP_BENCH)
	LDS=$(CLI) SETUP_BENCH=$(SETUP_BENCH) SHARED=$(SHARED) tests/bench/run_bench.sh

# no leaks or invalid accesses on 100 queries of the default scenario
valgrind: $(CLI)
	valgrind --leak-check=full --error-exitcode=1 $(CLI) scen $(RUN_SCEN) --limit 100

sanitize:
	$(MAKE) BUILD=build/sanitize OPT=-O1 EXTRA_CFLAGS="$(SAN_FLAGS)" \
	  EXTRA_LDFLAGS="$(SAN_FLAGS)" test

deps:
	@missing=""; for p in $(DEB_PKGS); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -z "$$missing" ]; then echo "deps: all Debian packages present"; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update && \
	  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	else echo "deps: run as root: apt-get install -y$$missing"; exit 1; fi

clean:
	rm -rf build

print:
	@echo "CC=$(CC) OPT=$(OPT) BUILD=$(BUILD) PREFIX=$(PREFIX) SHARED=$(SHARED)"
	@echo "CFLAGS=$(CFLAGS_ALL)"
	@echo "CORE_SRC=$(CORE_SRC)"

-include $(CORE_OBJ:.o=.d) $(CLI_OBJ:.o=.d) $(TEST_OBJ:.o=.d)
