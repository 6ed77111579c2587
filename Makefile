# Rivulet: one non-recursive GNU Makefile (STYLE.md §2.9).
#   make            debug build (-O1 -g)         make release   -O2 -g -DNDEBUG
#   make run        install deps, build, start the server on 9030
#   make test       install deps, build, unit tests + SQL regression + client smoke tests
#   make asan       ASan+UBSan build (libc malloc), runs the same tests
#   make format / format-check / check-deps / check-headers / clean / bench / fuzz / soak
# Objects go to build/$(MODE)/. V=1 shows the commands.

MODE ?= debug
BUILD ?= build/$(MODE)
MODULES := common conf catalog storage binlog stream planner protocol server

# ---- Debian packages the build and the tests need (installed by `make deps`) ----
DEB_PACKAGES := build-essential pkg-config lemon clang-format \
	libuv1-dev libssl-dev libjemalloc-dev libzstd-dev libcriterion-dev libroaring-dev libxxhash-dev \
	libmariadb-dev mariadb-client openssl libpcre2-dev \
	python3 python3-pymysql python3-mysqldb \
	default-jdk-headless libmariadb-java \
	unixodbc odbc-mariadb tmux sysbench mariadb-server
# Node.js and npm: any install that provides the commands will do (the machine image may carry
# NodeSource's nodejs, which bundles npm and conflicts with Debian's npm package).
DEB_NODE_PACKAGES := nodejs npm

ifeq ($(V),1)
Q :=
else
Q := @
endif

CC ?= cc
ifeq ($(CC),cc)
CC := gcc
endif

WARN := -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes -Wmissing-prototypes -Wpointer-arith \
	-Wvla -Wformat=2 -Wimplicit-fallthrough -Wundef -Wno-unused-parameter
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -I. -I$(BUILD)/gen -MMD -MP -pthread $(WARN)

PKGS := libuv libzstd libssl libcrypto libxxhash libpcre2-8
ifeq ($(MODE),asan)
OPT := -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
MALLOC_LIBS :=
else ifeq ($(MODE),release)
OPT := -O2 -g -DNDEBUG
MALLOC_LIBS := -ljemalloc
else
OPT := -O1 -g
MALLOC_LIBS := -ljemalloc
endif

PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null)
CFLAGS_ALL = $(BASE_CFLAGS) $(OPT) $(PKG_CFLAGS) $(CFLAGS)
LDLIBS_ALL = $(PKG_LIBS) -lroaring $(MALLOC_LIBS) -lm -pthread $(LDLIBS)
LDFLAGS_ALL = $(filter -fsanitize=% -fno-omit-frame-pointer,$(OPT)) $(LDFLAGS)

# ---- sources ----
LIB_SRCS := $(filter-out server/main.c,$(foreach m,$(MODULES),$(wildcard $(m)/*.c)))
LIB_OBJS := $(patsubst %.c,$(BUILD)/obj/%.o,$(LIB_SRCS))

# The Lemon grammar: planner/parse.y -> $(BUILD)/gen/planner/parse.{c,h}; compiled with the
# warnings Lemon's output trips turned off (that file only).
GRAMMAR := $(wildcard planner/parse.y)
ifneq ($(GRAMMAR),)
GEN_PARSER_C := $(BUILD)/gen/planner/parse.c
GEN_PARSER_H := $(BUILD)/gen/planner/parse.h
GEN_OBJS := $(BUILD)/obj/gen/planner/parse.o
endif
LEMPAR := /usr/share/lemon/lempar.c

LIB := $(BUILD)/librivulet.a
BIN := $(BUILD)/rivulet

TEST_MODULES := $(notdir $(patsubst %/,%,$(dir $(wildcard tests/*/test_*.c))))
TEST_MODULES := $(sort $(TEST_MODULES))
TEST_BINS := $(foreach m,$(TEST_MODULES),$(BUILD)/tests/test_$(m))

RUNNER := $(BUILD)/regress-runner
RUNNER_SRCS := $(wildcard regression/runner/*.c)

.SECONDARY:

.PHONY: all release debug asan run test unit regress clients stress crash deps format format-check \
	check-deps check-headers clean bench fuzz soak print-%
.DEFAULT_GOAL := all

all: $(BIN)

.DELETE_ON_ERROR:

release:
	$(Q)$(MAKE) --no-print-directory MODE=release all

# ---- compile ----
$(BUILD)/obj/%.o: %.c | $(GEN_PARSER_H)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS_ALL) -c $< -o $@

$(GEN_PARSER_C) $(GEN_PARSER_H) &: $(GRAMMAR) $(LEMPAR)
	@mkdir -p $(BUILD)/gen/planner
	@$(if $(Q),echo "  LEMON   $<")
	$(Q)lemon -q -T$(LEMPAR) -d$(BUILD)/gen/planner $<

$(BUILD)/obj/gen/planner/parse.o: $(GEN_PARSER_C)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  CC      $<")
	$(Q)$(CC) $(CFLAGS_ALL) -Wno-unused-variable -Wno-unused-but-set-variable -Wno-sign-compare \
		-Wno-implicit-fallthrough -Wno-missing-prototypes -Wno-unused-function -Wno-shadow \
		-Wno-strict-prototypes -Wno-format-nonliteral -I planner -c $< -o $@

$(LIB): $(LIB_OBJS) $(GEN_OBJS)
	@$(if $(Q),echo "  AR      $@")
	$(Q)rm -f $@ && ar rcs $@ $^

$(BIN): $(BUILD)/obj/server/main.o $(LIB)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL)

# ---- unit tests: one Criterion binary per module ----
.SECONDEXPANSION:
$(BUILD)/tests/test_%: $$(foreach f,$$(wildcard tests/$$*/*.c),$(BUILD)/obj/$$(basename $$(f)).o) $(LIB)
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(LDLIBS_ALL) $$(pkg-config --libs criterion)

$(RUNNER): $(patsubst %.c,$(BUILD)/obj/%.o,$(RUNNER_SRCS))
	@mkdir -p $(dir $@)
	@$(if $(Q),echo "  LINK    $@")
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $$(pkg-config --libs libmariadb) -lm -pthread

$(BUILD)/obj/regression/runner/%.o: CFLAGS_ALL += $(shell pkg-config --cflags libmariadb 2>/dev/null)

unit: deps $(TEST_BINS)
	$(Q)set -e; export LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp; \
	for t in $(TEST_BINS); do echo "== $$t"; $$t --jobs=2 || exit 1; done

regress: deps $(BIN) $(RUNNER)
	$(Q)$(RUNNER) --server $(BIN) --schedule regression/schedule --dir regression \
		--out $(BUILD)/regress $(REGRESS_ARGS)

clients: deps $(BIN)
	$(Q)bash tests/clients/run.sh $(BIN) $(BUILD)/clients

stress: deps $(BIN)
	$(Q)/usr/bin/python3 tests/stress/stress.py --server $(BIN) --workdir $(BUILD)/stress
	$(Q)/usr/bin/python3 tests/stress/stream_concurrency.py --server $(BIN) --workdir $(BUILD)/stress
	$(Q)/usr/bin/python3 tests/stress/long_statements.py --server $(BIN) --workdir $(BUILD)/stress

crash: deps $(BIN)
	$(Q)/usr/bin/python3 tests/crash/ddl_crash.py --server $(BIN) --workdir $(BUILD)/crash --rounds 3
	$(Q)/usr/bin/python3 tests/crash/dml_crash.py --server $(BIN) --workdir $(BUILD)/crash --rounds 3
	$(Q)/usr/bin/python3 tests/crash/autoinc_crash.py --server $(BIN) --workdir $(BUILD)/crash --rounds 3
	$(Q)/usr/bin/python3 tests/crash/drop_gc.py --server $(BIN) --workdir $(BUILD)/crash
	$(Q)/usr/bin/python3 tests/crash/stream_crash.py --server $(BIN) --workdir $(BUILD)/crash --rounds 3
	$(Q)/usr/bin/python3 tests/crash/binlog_crash.py --server $(BIN) --workdir $(BUILD)/crash --rounds 3
	$(Q)/usr/bin/python3 tests/binlog/ttl_cleanup.py --server $(BIN) --workdir $(BUILD)/crash
	$(Q)/usr/bin/python3 tests/binlog/incr_model.py --server $(BIN) --workdir $(BUILD)/crash

test: deps all unit regress clients stress crash diff

diff: deps $(BIN)
	$(Q)/usr/bin/python3 tests/diff/diff_test.py --server $(BIN) --workdir $(BUILD)/diff

asan:
	$(Q)$(MAKE) --no-print-directory MODE=asan test

run: deps all
	$(Q)exec $(BIN)

# ---- environment ----
# Installs what is missing. As root: apt-get update once, then apt-get install. Otherwise print
# the command and stop.
deps:
	$(Q)missing=""; for p in $(DEB_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'install ok installed' \
			|| missing="$$missing $$p"; done; \
	if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then \
		missing="$$missing $(DEB_NODE_PACKAGES)"; fi; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then \
			echo "installing:$$missing"; \
			export DEBIAN_FRONTEND=noninteractive; \
			apt-get update -qq && apt-get install -y -qq --no-install-recommends $$missing \
				>/dev/null || { echo "apt-get install failed"; exit 1; }; \
		else \
			echo "missing packages; run as root:"; \
			echo "  apt-get update && apt-get install -y$$missing"; exit 1; \
		fi; \
	fi

# ---- code hygiene ----
FORMAT_SRCS = $(shell git ls-files '*.c' '*.h' 2>/dev/null)

format:
	$(Q)clang-format -i $(FORMAT_SRCS)

format-check:
	$(Q)clang-format --dry-run --Werror $(FORMAT_SRCS)

check-deps:
	$(Q)bash tests/tools/check_deps.sh
	$(Q)bash tests/tools/test_check_deps.sh >/dev/null

check-headers:
	$(Q)set -e; for h in common/*.h $(foreach m,$(filter-out common,$(MODULES)),$(wildcard $(m)/$(m).h)); do \
		echo "#include \"$$h\"" | $(CC) $(filter-out -MMD -MP,$(CFLAGS_ALL)) -x c -fsyntax-only - ; done

clean:
	rm -rf build

# ---- long-running targets (never part of make test) ----
bench: deps release
	$(Q)if [ -x bench/run.sh ]; then bash bench/run.sh build/release; \
	else echo "no benchmarks yet"; fi
	$(Q)bash bench/sql/run.sh build/release
	$(Q)bash bench/sysbench/run.sh build/release
	$(Q)bash bench/analytics/run.sh build/release
	$(Q)bash bench/binlog/run.sh build/release
	$(Q)bash bench/planning/run.sh build/release

fuzz:
	$(Q)bash tests/fuzz/run.sh

soak: deps all
	$(Q)/usr/bin/python3 tests/crash/ddl_crash.py --server $(BIN) --workdir $(BUILD)/crash \
		--rounds 40 --statements 2000
	$(Q)/usr/bin/python3 tests/crash/dml_crash.py --server $(BIN) --workdir $(BUILD)/crash --rounds 40
	$(Q)/usr/bin/python3 tests/crash/stream_crash.py --server $(BIN) --workdir $(BUILD)/crash --rounds 40
	$(Q)/usr/bin/python3 tests/crash/binlog_crash.py --server $(BIN) --workdir $(BUILD)/crash --rounds 40
	$(Q)/usr/bin/python3 tests/binlog/incr_model.py --server $(BIN) --workdir $(BUILD)/crash \
		--ops 600 --windows 300
	$(Q)/usr/bin/python3 tests/diff/diff_test.py --server $(BIN) --workdir $(BUILD)/diff --queries 50000 --rows 5000 --seed 7

print-%:
	@echo '$*=$($*)'

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
