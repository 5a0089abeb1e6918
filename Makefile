# mpsim: one non-recursive Makefile.  Objects go to $(BUILD)/, dependencies
# are tracked with -MMD -MP, and the flags mpsim needs are kept apart from
# the user's CFLAGS (so `make CFLAGS=-O0` keeps -std and the warnings).
#
#   make run      install what is missing, build, print the comparison table
#   make test     install what is missing, build, run every fast test
#   make check-long   the slow statistical tier (longer runs, tighter bounds)
#   make bench    simulated I/Os per second of wall time, per selector
#   make asan     the test suite under AddressSanitizer + UBSan
#   make valgrind the test suite under valgrind's memcheck
#   make results  regenerate results/ (make plots renders plots/ from them)
#   make clean

-include config.mk

CC      ?= cc
CFLAGS  ?= -O2 -g
BUILD   ?= build
PKG_CONFIG ?= pkg-config

WARN = -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
       -Wpointer-arith -Wwrite-strings -Wundef -Wformat=2 -Wvla \
       -Wmissing-declarations -Wold-style-definition -Wno-unused-parameter
ifneq ($(CI),)
WARN += -Werror
endif

GSL_CFLAGS  := $(shell $(PKG_CONFIG) --cflags gsl 2>/dev/null)
GSL_LIBS    := $(shell $(PKG_CONFIG) --libs gsl 2>/dev/null || echo -lgsl -lgslcblas)
CRIT_CFLAGS := $(shell $(PKG_CONFIG) --cflags criterion 2>/dev/null)
CRIT_LIBS   := $(shell $(PKG_CONFIG) --libs criterion 2>/dev/null || echo -lcriterion)

ALL_CFLAGS  = -std=gnu11 $(WARN) -I. $(GSL_CFLAGS) -MMD -MP $(CFLAGS)
ALL_LDLIBS  = $(GSL_LIBS) -lm $(LDLIBS)

SRC      := $(sort $(wildcard sim/*.c selectors/*.c workloads/*.c))
OBJ      := $(SRC:%.c=$(BUILD)/%.o) $(BUILD)/scenarios.o
SCN      := $(sort $(wildcard workloads/scenarios/*.ini))
TEST_SRC := $(sort $(wildcard tests/*.c))
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)

.PHONY: all run test check-long bench asan valgrind noopt results plots \
        clean deps
all: mpsim

deps:
	@sh .ci/deps

mpsim: $(BUILD)/mpsim
	cp $< $@

$(BUILD)/mpsim: $(BUILD)/mpsim.o $(OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDLIBS)

$(BUILD)/mpsim-tests: $(TEST_OBJ) $(OBJ)
	$(CC) $(ALL_CFLAGS) -o $@ $^ $(CRIT_LIBS) $(ALL_LDLIBS)

$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) $(CRIT_CFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

# The built-in scenarios, compiled in so ./mpsim runs from any directory.
$(BUILD)/scenarios.c: $(SCN) tests/embed.sh
	@mkdir -p $(@D)
	sh tests/embed.sh $(SCN) > $@

$(BUILD)/scenarios.o: $(BUILD)/scenarios.c
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

run: deps
	@$(MAKE) --no-print-directory mpsim
	./mpsim

test: deps
	@$(MAKE) --no-print-directory mpsim $(BUILD)/mpsim-tests
	$(BUILD)/mpsim-tests --jobs=2
	LC_ALL=C sh tests/golden.sh ./mpsim

check-long: deps
	@$(MAKE) --no-print-directory mpsim $(BUILD)/mpsim-tests
	MPSIM_LONG=1 $(BUILD)/mpsim-tests --jobs=2

bench: deps
	@$(MAKE) --no-print-directory mpsim
	./mpsim bench

asan: deps
	@$(MAKE) --no-print-directory BUILD=build-asan \
	    CFLAGS="-O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    build-asan/mpsim-tests build-asan/mpsim
	ASAN_OPTIONS=detect_leaks=1 build-asan/mpsim-tests --jobs=2
	LC_ALL=C sh tests/golden.sh build-asan/mpsim

valgrind: deps
	@$(MAKE) --no-print-directory BUILD=build-noopt CFLAGS="-O0 -g" build-noopt/mpsim-tests
	valgrind --error-exitcode=1 --leak-check=full --trace-children=yes -q \
	    build-noopt/mpsim-tests --jobs=1

noopt:
	@$(MAKE) --no-print-directory BUILD=build-noopt CFLAGS="-O0 -g" build-noopt/mpsim

clean:
	rm -rf build build-asan build-noopt mpsim

-include $(OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BUILD)/mpsim.d
