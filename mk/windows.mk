# SPDX-License-Identifier: MIT
# windows.mk — the Windows build, cross-compiled with Debian's mingw-w64
# (included by the Makefile; docs/windows.md says what a Windows user runs):
#
#   make windows [CROSS=x86_64-w64-mingw32-]   build/win64/: lodestar.dll (+ its
#       import library liblodestar.dll.a), liblodestar.a, liblodestar_io.a,
#       lodestar.exe, lua54.dll + lua.exe, lodestar/core.dll (the Lua module),
#       test_runner.exe
#   make test-windows                          the C tests, the command and the
#       Lua module under Wine (Debian's wine)
#
# The core needs nothing but the C runtime (no zlib: a game that only uses
# grids links lodestar.dll alone); the io library links mingw's zlib
# (libz-mingw-w64-dev) statically. Lua 5.4 for Windows is built from
# Debian's source of the lua5.4 package (the upstream tarball, checked by
# its SHA-256), downloaded once into build/win64.
CROSS      ?= x86_64-w64-mingw32-
WIN        := build/win64
WIN_CC     := $(CROSS)gcc
WIN_AR     := $(CROSS)ar
WIN_WARN   := $(filter-out -Werror,$(WARN)) -Werror
# mingw-w64's own stdio (C99 %zu, %lld); -Wno-format: GCC checks the formats against
# msvcrt's printf, which that stdio replaces (the native build checks them all)
# -MMD -MP: each object's header dependencies (the .d files included below),
# so an edited header rebuilds what includes it
WIN_CFLAGS := $(WIN_WARN) -O2 -g -D__USE_MINGW_ANSI_STDIO=1 -Wno-format -MMD -MP
WIN_LDFLAGS := -static-libgcc -Wl,-Bstatic -lwinpthread -Wl,-Bdynamic
WINE       ?= wine
LUA_WIN_VERSION := 5.4.4
LUA_WIN_URL     := http://deb.debian.org/debian/pool/main/l/lua5.4/lua5.4_$(LUA_WIN_VERSION).orig.tar.gz
LUA_WIN_SHA256  := 164c7849653b80ae67bec4b7473b884bf5cc8d2dca05653475ec2ed27b9ebf61
LUA_WIN_SRC     := $(WIN)/lua-$(LUA_WIN_VERSION)/src

WIN_CORE_OBJ := $(CORE_SRC:%.c=$(WIN)/obj/%.o)
WIN_IO_OBJ   := $(IO_SRC:%.c=$(WIN)/obj/%.o)
WIN_LUA_OBJ  := $(LUA_MOD_SRC:%.c=$(WIN)/obj/%.o)
WIN_RT_OBJ   := $(RUNTIME_SRC:%.c=$(WIN)/obj/%.o)
WIN_CLI_OBJ  := $(CLI_SRC:%.c=$(WIN)/obj/%.o)
WIN_TEST_OBJ := $(TEST_SRC:%.c=$(WIN)/obj/%.o)
WIN_DLL      := $(WIN)/lodestar.dll
WIN_LIB_A    := $(WIN)/liblodestar.a
WIN_IO_LIB   := $(WIN)/liblodestar_io.a
WIN_CLI      := $(WIN)/lodestar.exe
WIN_TESTS    := $(WIN)/test_runner.exe
WIN_LUA_DLL  := $(WIN)/lua54.dll
WIN_LUA_EXE  := $(WIN)/lua.exe
WIN_LUA_MOD  := $(WIN)/lodestar/core.dll
WIN_ZLIB     := -Wl,-Bstatic -lz -Wl,-Bdynamic

.PHONY: windows test-windows
windows: $(WIN_DLL) $(WIN_LIB_A) $(WIN_IO_LIB) $(WIN_CLI) $(WIN_TESTS) $(WIN_LUA_MOD) $(WIN_LUA_EXE)

# -- Lua 5.4 for Windows, from Debian's source
$(WIN)/lua.tar.gz:
	@mkdir -p $(dir $@)
	curl -fsSL -o $@.part $(LUA_WIN_URL)
	echo "$(LUA_WIN_SHA256)  $@.part" | sha256sum -c --quiet
	mv $@.part $@
$(LUA_WIN_SRC)/lua.h: $(WIN)/lua.tar.gz
	tar -xzf $< -C $(WIN)
	touch $@
WIN_LUA_CORE := $(addprefix $(LUA_WIN_SRC)/,lapi.c lcode.c lctype.c ldebug.c ldo.c ldump.c lfunc.c \
  lgc.c llex.c lmem.c lobject.c lopcodes.c lparser.c lstate.c lstring.c ltable.c ltm.c lundump.c \
  lvm.c lzio.c lauxlib.c lbaselib.c lcorolib.c ldblib.c liolib.c lmathlib.c loadlib.c loslib.c \
  lstrlib.c ltablib.c lutf8lib.c linit.c)
$(WIN_LUA_DLL): $(LUA_WIN_SRC)/lua.h
	$(WIN_CC) -O2 -std=gnu99 -DLUA_BUILD_AS_DLL -shared -o $@ $(WIN_LUA_CORE) \
	  -Wl,--out-implib,$(WIN)/liblua54.dll.a -static-libgcc
$(WIN_LUA_EXE): $(WIN_LUA_DLL)
	$(WIN_CC) -O2 -std=gnu99 -o $@ $(LUA_WIN_SRC)/lua.c $(WIN)/liblua54.dll.a -static-libgcc

# -- the core, io, the binding, the runtime, the command, the tests
$(WIN)/obj/core/%.o: core/%.c Makefile mk/windows.mk
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -DLDS_BUILD_SHARED -c $< -o $@
$(WIN)/obj/io/%.o: io/%.c Makefile mk/windows.mk
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -Icore -Iio -DLDS_NO_PNG -c $< -o $@
$(WIN)/obj/bindings/lua/%.o: bindings/lua/%.c $(LUA_WIN_SRC)/lua.h Makefile mk/windows.mk
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -Icore -Iio -Ibindings/lua -I$(LUA_WIN_SRC) -DLDS_LUA_MODULE_DLL -c $< -o $@
$(WIN)/obj/runtime/%.o: runtime/%.c $(LUA_WIN_SRC)/lua.h Makefile mk/windows.mk
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -Icore -Iio -Iruntime -Ibindings/lua -I$(LUA_WIN_SRC) \
	  -DLDS_SCRIPTS_DIR='"scripts"' -c $< -o $@
$(WIN)/obj/tools/lodestar/%.o: tools/lodestar/%.c Makefile mk/windows.mk
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -Icore -Iio -Iruntime -DLDS_DATA_DIR='"tests/data"' -c $< -o $@
$(WIN)/obj/tests/c/%.o: tests/c/%.c $(BUILD)/test_suites.h Makefile mk/windows.mk
	@mkdir -p $(dir $@)
	$(WIN_CC) $(WIN_CFLAGS) -Icore -Iio -I$(BUILD) -DLDS_NO_PNG -DLDS_SHARED_DIR='"$(SHARED)"' -c $< -o $@

$(WIN_DLL): $(WIN_CORE_OBJ)
	$(WIN_CC) -shared -o $@ $^ -Wl,--out-implib,$(WIN)/liblodestar.dll.a $(WIN_LDFLAGS)
$(WIN_LIB_A): $(WIN_CORE_OBJ)
	rm -f $@ && $(WIN_AR) rcs $@ $^
$(WIN_IO_LIB): $(WIN_IO_OBJ)
	rm -f $@ && $(WIN_AR) rcs $@ $^
$(WIN_LUA_MOD): $(WIN_LUA_OBJ) $(WIN_IO_OBJ) $(WIN_CORE_OBJ) $(WIN_LUA_DLL)
	@mkdir -p $(dir $@)
	$(WIN_CC) -shared -o $@ $(WIN_LUA_OBJ) $(WIN_IO_OBJ) $(WIN_CORE_OBJ) $(WIN)/liblua54.dll.a \
	  $(WIN_ZLIB) $(WIN_LDFLAGS)
$(WIN_CLI): $(WIN_CLI_OBJ) $(WIN_RT_OBJ) $(WIN_LUA_OBJ) $(WIN_IO_LIB) $(WIN_LIB_A) $(WIN_LUA_DLL)
	$(WIN_CC) -o $@ $(WIN_CLI_OBJ) $(WIN_RT_OBJ) $(WIN_LUA_OBJ) $(WIN_IO_LIB) $(WIN_LIB_A) \
	  $(WIN)/liblua54.dll.a $(WIN_ZLIB) $(WIN_LDFLAGS)
$(WIN_TESTS): $(WIN_TEST_OBJ) $(WIN_IO_LIB) $(WIN_LIB_A)
	$(WIN_CC) -o $@ $(WIN_TEST_OBJ) $(WIN_IO_LIB) $(WIN_LIB_A) $(WIN_ZLIB) $(WIN_LDFLAGS)

# under Wine: tests/windows_test.sh (skipped with a message without the
# cross compiler or wine; CI installs both)
test-windows:
	tests/windows_test.sh "$(MAKE)" "$(WIN)" "$(WINE)" "$(CROSS)"

-include $(shell find $(WIN)/obj -name '*.d' 2>/dev/null)
