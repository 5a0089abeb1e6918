# mpsim: one non-recursive Makefile.  Objects go to $(BUILD)/, dependencies
# are tracked with -MMD -MP, and the flags mpsim needs are kept apart from
# the user's CFLAGS (so `make CFLAGS=-O0` keeps -std and the warnings).
#
#   make run      install what building needs, build, print the comparison table
#   make test     install what the tests need too, build, run every fast test
#   make check    the slow checks: the contract test, kernel-check,
#                 slurm-check, asan and mutate-selectors (after make test)
#   make deps-LEVEL   install what LEVEL needs: run, test, check, slurm
#                 (.ci/deps; each target above calls its own)
#   make check-long   the slow statistical tier (longer runs, tighter bounds)
#   make kernel-check linux-source-6.1's dm-ps-*.c beside mpsim's selectors
#   make live-check  a grid of dm tables and fio jobs on a running Linux 6.1
#                 (user-mode-linux) beside mpsim; writes results/live-6.1.md
#   make mutate   every one-line mutant of the selectors and the engine's
#                 kernel arithmetic, built and tested: no survivor allowed
#   make mutate-selectors   the same over selectors/ alone (in make check)
#   make bench    simulated I/Os per second of wall time, per selector
#   make asan     the test suite under AddressSanitizer + UBSan (clang)
#   make slurm-check  a sweep as a Slurm job array on a one-node cluster
#                 started here (installs slurm and munge; run as root)
#   make valgrind the test suite under valgrind's memcheck
#   make fuzz     each libFuzzer target for FUZZ_S seconds (needs clang)
#   make results  regenerate results/ with ./mpsim (a few minutes)
#   make plots    render plots/*.png and *.svg from results/ (needs gnuplot)
#   make install  mpsim, its man page, bash completion and documentation
#                 under PREFIX (/usr/local), staged under DESTDIR if given
#   make man      docs/mpsim.1's OPTIONS section from the option tables
#   make clean
#
# The build prints a line per file it makes, `  CC      sim/loop.o`;
# `make V=1` prints each command whole instead.  It runs as many jobs at
# once as there are CPUs, unless -j says otherwise.  make run and make
# test print one line for the whole build, and only when it has
# something to do.

-include config.mk

# Every CPU, unless the command line gave -j (-j1: one at a time); a
# make run by this one shares its jobs.
ifeq ($(MAKELEVEL),0)
MAKEFLAGS += -j$(shell getconf _NPROCESSORS_ONLN 2>/dev/null || echo 1)
endif

# $(call quiet,TAG,NAME): a recipe's first line, printing "  TAG     NAME"
# (nothing with -s, nor with V=1, when the command itself is printed;
# make run's and make test's build prints one line for all, the first
# time a file is made: BRIEF names the directory that marks it).  Q
# hides the command itself.  The line is a recipe line of its own, so
# that make -n still gives each compile and link as a command alone
# (tests/mutate/run.py reads them).
V ?= 0
ifeq ($(V),1)
Q :=
quiet = @:
else
Q := @
quiet = @$(if $(findstring s,$(firstword -$(MAKEFLAGS))),:,$(if $(BRIEF),mkdir $(BRIEF) 2>/dev/null && echo '  BUILD   $(BRIEF_WHAT) (make V=1 prints each command)' || :,printf '  %-7s %s\n' '$(1)' '$(2)'))
endif

CC      ?= cc
# -flto: an I/O crosses sim/loop.c, path.c, mpath.c and workloads/job.c,
# and link-time inlining across them is worth about 9 % on `make bench`
# (the results are the same: nothing is reassociated or contracted)
CFLAGS  ?= -O2 -g -flto=auto
BUILD   ?= build
PKG_CONFIG ?= pkg-config
PREFIX  ?= /usr/local
BINDIR  ?= $(PREFIX)/bin
MANDIR  ?= $(PREFIX)/share/man
COMPDIR ?= $(PREFIX)/share/bash-completion/completions
DOCDIR  ?= $(PREFIX)/share/doc/mpsim
# mpsim live's harness (live/), which the binary looks for here
LIVEDIR ?= $(PREFIX)/share/mpsim/live

WARN = -Wall -Wextra -Wshadow -Wmissing-prototypes -Wstrict-prototypes \
       -Wpointer-arith -Wwrite-strings -Wundef -Wformat=2 -Wvla \
       -Wmissing-declarations -Wold-style-definition -Wno-unused-parameter
ifneq ($(CI),)
WARN += -Werror
endif

, := ,
GSL_CFLAGS  := $(shell $(PKG_CONFIG) --cflags gsl 2>/dev/null)
GSL_LIBS    := $(shell $(PKG_CONFIG) --libs gsl 2>/dev/null || echo -lgsl -lgslcblas)
CRIT_CFLAGS := $(shell $(PKG_CONFIG) --cflags criterion 2>/dev/null)
CRIT_LIBS   := $(shell $(PKG_CONFIG) --libs criterion 2>/dev/null || echo -lcriterion)

# GSL's archive, when installed (libgsl-dev ships it), is linked in: the
# dynamic loader's work on libgsl.so (its relocations, the first call of
# each function) took a quarter of the CPU time of a short run, and the
# test suites start mpsim thousands of times.  The same code either way;
# libm stays shared.
GSL_A       := $(wildcard $(shell $(CC) -print-file-name=libgsl.a))
GSL_LINK     = $(if $(GSL_A),-Wl$(,)-Bstatic $(filter-out -lm,$(GSL_LIBS)) -Wl$(,)-Bdynamic $(filter -lm,$(GSL_LIBS)),$(GSL_LIBS))

ALL_CFLAGS  = -std=gnu11 $(WARN) -I. $(GSL_CFLAGS) -MMD -MP $(CFLAGS)
ALL_LDLIBS  = $(GSL_LINK) -lm -ldl $(LDLIBS)

SRC      := $(sort $(wildcard lib/*.c sim/*.c cli/*.c report/*.c sweep/*.c input/*.c wheels/*.c selectors/*.c workloads/*.c))
OBJ      := $(SRC:%.c=$(BUILD)/%.o) $(BUILD)/scenarios.o $(BUILD)/kcompat-files.o
# kcompat/ and what it includes, carried in the binary (selectors/ksource.c)
KCOMPAT  := $(sort $(wildcard kcompat/*.h kcompat/*/*.h kcompat/*/*/*.h)) \
            kcompat/kcompat.c lib/list.h lib/cpumask.h lib/cpumask.c
SCN      := $(sort $(wildcard workloads/scenarios/*.ini))
TEST_SRC := $(filter-out tests/kernel-check.c tests/criterion-libgit2.c,$(sort $(wildcard tests/*.c)))
TEST_OBJ := $(TEST_SRC:%.c=$(BUILD)/%.o)
# One fuzz target per file of tests/fuzz/, named after it; tests/fuzz/lib/
# holds what they share, the corpus replay and the dictionary generator.
FUZZ_SRC := $(sort $(wildcard tests/fuzz/*.c))
FUZZ_TARGETS := $(FUZZ_SRC:tests/fuzz/%.c=%)
FUZZ_OBJ := $(FUZZ_SRC:%.c=$(BUILD)/%.o) $(BUILD)/tests/fuzz/lib/common.o
FUZZ_S  ?= 10
FUZZ_CC ?= clang
SAN     = address,undefined,float-cast-overflow

.PHONY: all run test brief-goals check-long bench asan valgrind noopt results plots \
        kernel-check slurm-check live-check mutate mutate-selectors check check-slow timings \
        clean deps deps-run deps-test deps-check deps-slurm deps-live results-dm-delay-sync results-alua-failover install uninstall \
        fuzz fuzz-bins fuzz-build fuzz-corpus man
all: mpsim

# What each target needs, installed when missing (.ci/deps says which
# packages each level holds): run builds and runs, test adds the test
# suite's, check the long checks'.
deps: deps-test
deps-run deps-test deps-check deps-slurm deps-live:
	@sh .ci/deps $(@:deps-%=%)

mpsim: $(BUILD)/mpsim
	$(Q)cp $< $@.tmp && mv $@.tmp $@

$(BUILD)/mpsim: $(BUILD)/mpsim.o $(OBJ)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDLIBS)

# The libgit2 libcriterion needs (its soname), and a stand-in for it
# beside mpsim-tests that loads the real one only to print a failed
# assertion's diff (tests/criterion-libgit2.c: 20 ms less per test).
# The run path finds it from $(BUILD) and from a folder below it (make
# mutate links mutants there; one line each, as it reads make -n);
# without it the real libgit2 is loaded.
CRIT_GIT := $(shell objdump -p $$($(CC) -print-file-name=libcriterion.so) 2>/dev/null | \
              sed -n 's/^ *NEEDED *\(libgit2\.so[.0-9]*\)$$/\1/p')
GIT_STUB := $(if $(CRIT_GIT),$(BUILD)/libgit2-stub/$(CRIT_GIT))
GIT_STUB_LINK := $(if $(GIT_STUB),-Wl$(,)--no-as-needed $(GIT_STUB) '-Wl$(,)-rpath$(,)$$ORIGIN/libgit2-stub:$$ORIGIN/../libgit2-stub')
$(BUILD)/libgit2-stub/$(CRIT_GIT): tests/criterion-libgit2.c
	@mkdir -p $(@D)
	$(call quiet,LD,$@)
	$(Q)$(CC) -std=gnu11 $(WARN) -O2 -fPIC -shared -Wl,-soname,$(CRIT_GIT) -DLIBGIT2='"$(shell $(CC) -print-file-name=$(CRIT_GIT))"' -o $@ $< -ldl

$(BUILD)/mpsim-tests: $(TEST_OBJ) $(OBJ) $(GIT_STUB)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $(TEST_OBJ) $(OBJ) $(GIT_STUB_LINK) $(CRIT_LIBS) $(ALL_LDLIBS)

# make kernel-check's driver (tests/kernel-check.c), not a Criterion test
$(BUILD)/kernel-check: $(BUILD)/tests/kernel-check.o $(OBJ)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDLIBS)

# The corpus replay (make test) and the dictionaries (make fuzz).
$(BUILD)/fuzz-replay: $(BUILD)/tests/fuzz/lib/replay.o $(FUZZ_OBJ) $(OBJ)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDLIBS)

$(BUILD)/fuzz-dict: $(BUILD)/tests/fuzz/lib/dict.o $(OBJ)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -o $@ $^ $(ALL_LDLIBS)

$(BUILD)/fuzz-targets.h: $(FUZZ_SRC) Makefile
	@mkdir -p $(@D)
	$(call quiet,GEN,$@)
	$(Q)printf 'FUZZ(%s)\n' $(FUZZ_TARGETS) > $@

$(BUILD)/tests/fuzz/lib/replay.o: $(BUILD)/fuzz-targets.h
$(BUILD)/tests/fuzz/lib/replay.o: ALL_CFLAGS += -I$(BUILD)

# A libFuzzer binary per target (built by `make fuzz` in build-fuzz/).
fuzz-bins: $(FUZZ_TARGETS:%=$(BUILD)/fuzz/%)
$(BUILD)/fuzz/%: $(BUILD)/tests/fuzz/%.o $(BUILD)/tests/fuzz/lib/common.o $(OBJ)
	@mkdir -p $(@D)
	$(call quiet,LD,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -fsanitize=fuzzer,$(SAN) -o $@ $^ $(ALL_LDLIBS)

# Criterion finds its tests by their ELF sections, which link-time
# optimisation loses (a third of the tests went missing): the tests
# themselves are compiled without -flto.
$(BUILD)/tests/%.o: tests/%.c
	@mkdir -p $(@D)
	$(call quiet,CC,$(@:$(BUILD)/%=%))
	$(Q)$(CC) $(filter-out -flto%,$(ALL_CFLAGS)) $(CRIT_CFLAGS) -c -o $@ $<

$(BUILD)/%.o: %.c
	@mkdir -p $(@D)
	$(call quiet,CC,$(@:$(BUILD)/%=%))
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# Where mpsim live finds its harness once installed: a header rewritten
# only when LIVEDIR changes, so `make install PREFIX=...` rebuilds live.o
$(BUILD)/livedir.h: FORCE
	@mkdir -p $(@D)
	@echo '#define MPSIM_LIVEDIR "$(LIVEDIR)"' > $@.tmp
	@cmp -s $@.tmp $@ && rm -f $@.tmp || mv $@.tmp $@
$(BUILD)/cli/live.o: $(BUILD)/livedir.h
$(BUILD)/cli/live.o: ALL_CFLAGS += -include $(BUILD)/livedir.h
FORCE:

# The built-in scenarios, compiled in so ./mpsim runs from any directory.
$(BUILD)/scenarios.c: $(SCN) tests/embed.sh
	@mkdir -p $(@D)
	$(call quiet,GEN,$@)
	$(Q)sh tests/embed.sh $(SCN) > $@

$(BUILD)/scenarios.o: $(BUILD)/scenarios.c
	$(call quiet,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(BUILD)/kcompat-files.c: $(KCOMPAT) tests/embed.sh
	@mkdir -p $(@D)
	$(call quiet,GEN,$@)
	$(Q)sh tests/embed.sh --files $(KCOMPAT) > $@

$(BUILD)/kcompat-files.o: $(BUILD)/kcompat-files.c
	$(call quiet,CC,$@)
	$(Q)$(CC) $(ALL_CFLAGS) -c -o $@ $<

# $(call brief,TARGETS): make TARGETS, saying so in one line "  BUILD
# TARGETS" when there is something to make (the first file made prints
# it; V=1: every command instead).
BRIEF_DIR = $(BUILD)/.brief
brief = mkdir -p $(BUILD) && rm -rf $(BRIEF_DIR) && \
	{ $(MAKE) --no-print-directory $(if $(filter 1,$(V)),,BRIEF=$(BRIEF_DIR) BRIEF_WHAT='$(1)') \
	      BRIEF_GOALS='$(1)' brief-goals; \
	  rc=$$?; rmdir $(BRIEF_DIR) 2>/dev/null; exit $$rc; }
# (one goal with a recipe, so that make says nothing of goals that are
# up to date)
brief-goals: $(BRIEF_GOALS)
	@:

run: deps-run
	+@$(call brief,mpsim)
	./mpsim

# Every fast unit, golden and shell test, two at a time, each suite's
# output printed whole and in order (tests/suites lists them; JOBS=1 runs
# them one by one).  The slow parts are in make check.
test: deps-test
	+@$(call brief,mpsim $(BUILD)/mpsim-tests $(BUILD)/fuzz-replay)
	BUILD=$(BUILD) bash tests/run-suites.sh test

# The slow suites of tests/suites: the command-line contract, the option
# walk alone, every figure as PNG
check-slow: deps-test
	@$(MAKE) --no-print-directory mpsim $(BUILD)/mpsim-tests
	BUILD=$(BUILD) bash tests/run-suites.sh check

# make test's and make check's wall and CPU time and what they run,
# measured here, into README.md and docs/testing.md (tests/timings.sh);
# TIMINGS=test measures make test alone
TIMINGS ?= test check
timings:
	bash tests/timings.sh --write README.md --write docs/testing.md $(TIMINGS)

# linux-source-6.1's selectors beside mpsim's (tests/kernel-check.sh)
kernel-check: deps-check
	@$(MAKE) --no-print-directory mpsim $(BUILD)/kernel-check
	sh tests/kernel-check.sh ./mpsim $(BUILD)/kernel-check $(BUILD)/kernel-src

# The same dm tables and fio jobs on Debian's user-mode-linux kernel and in
# mpsim (live/grid); fails when an mpsim figure is outside the kernel's
# spread over repeated runs.  Installs user-mode-linux, linux-source-6.1,
# fio, dmsetup and kmod if missing.  CASES=GLOB,...: those cases only (and
# the calibration they need), the table in build/live/cases.md.
live-check: deps-live
	@$(MAKE) --no-print-directory mpsim
	LIVE_BUILD=$(BUILD)/live MPSIM=./mpsim python3 live/live.py check \
		$(if $(CASES),--cases='$(CASES)' --results=$(BUILD)/live/cases.md,--results=results/live-6.1.md)

# Mutation testing (tests/mutate/run.py, docs/mutation.md): each
# mutant is built in a copy of the tree under $(BUILD)/mutate and must be
# killed by its file's Criterion suites, (selectors) kernel-check's
# checker on its kernel file, the rest of the suite or (selectors) make
# kernel-check, or be proved equivalent in tests/mutate/equivalent.txt.
# ksource.c is left out: it loads the kernel's own file, the reference
# kernel-check compares against, and holds no decision of a selector;
# kguard.c and kguard.h watch a loaded plugin and decide nothing either
# (tests/safety.sh checks the watch, which needs the forked process the
# unit tests do not make); ps-type.c only picks built-in or plugin.
MUTATE_SEL    := $(filter-out selectors/ksource.c selectors/kguard.c selectors/ps-type.c,$(sort $(wildcard selectors/*.c))) \
                 $(filter-out selectors/kguard.h,$(sort $(wildcard selectors/*.h))) lib/cpumask.c lib/cpumask.h
MUTATE_ENGINE := sim/clock.c sim/mpath.c sim/delay.c sim/pgroup.c \
                 $(sort $(wildcard wheels/*.c))
MUTATE_JOBS   ?= 1
MUTATE        = python3 tests/mutate/run.py --jobs=$(MUTATE_JOBS) \
                --scratch=$(BUILD)/mutate

mutate-selectors: deps-check
	$(MUTATE) $(MUTATE_SEL)

mutate: deps-check
	$(MUTATE) $(MUTATE_SEL) $(MUTATE_ENGINE)

# no recipe here: other checks join make check by adding prerequisites
check: mutate-selectors
check: check-slow kernel-check slurm-check asan
# check: live-check

check-long: deps-test
	@$(MAKE) --no-print-directory mpsim $(BUILD)/mpsim-tests
	MPSIM_LONG=1 $(BUILD)/mpsim-tests --jobs=2

bench: deps-run
	@$(MAKE) --no-print-directory mpsim
	./mpsim bench

# clang, whose UBSan also checks pointer arithmetic on NULL and, with
# float-cast-overflow, a double converted to an integer it does not fit;
# gcc checks neither.  The normal build stays with cc.
asan: deps-check
	@$(MAKE) --no-print-directory CC=clang BUILD=build-asan \
	    CFLAGS="-O1 -g -DMPSIM_DEBUG -fsanitize=address,undefined,float-cast-overflow -fno-omit-frame-pointer -fno-sanitize-recover=all" \
	    build-asan/mpsim-tests build-asan/mpsim build-asan/fuzz-replay
	ASAN_OPTIONS=detect_leaks=1 build-asan/mpsim-tests --jobs=2
	LC_ALL=C sh tests/golden.sh build-asan/mpsim
	sh tests/window.sh build-asan/mpsim
	sh tests/options.sh build-asan/mpsim
	sh tests/schema.sh build-asan/mpsim
	sh tests/slurm-script.sh build-asan/mpsim
	sh tests/trace.sh build-asan/mpsim
	sh tests/limits.sh build-asan/mpsim
	ASAN_OPTIONS=detect_leaks=1 build-asan/fuzz-replay tests/fuzz/corpus
	sh tests/contract.sh build-asan/mpsim 3

# A one-node Slurm cluster in a scratch directory runs `mpsim sweep
# --slurm`'s script, with one task cancelled and resubmitted; the merged
# file must be the local sweep's, byte for byte.
slurm-check: deps-slurm
	@$(MAKE) --no-print-directory mpsim
	sh tests/slurm-check.sh ./mpsim

valgrind: deps-check
	@$(MAKE) --no-print-directory BUILD=build-noopt CFLAGS="-O0 -g" build-noopt/mpsim-tests
	valgrind --error-exitcode=1 --leak-check=full --trace-children=yes -q \
	    build-noopt/mpsim-tests --jobs=1

noopt:
	@$(MAKE) --no-print-directory BUILD=build-noopt CFLAGS="-O0 -g" build-noopt/mpsim

# The results the README shows.  Each file is written under a .tmp name and
# renamed when complete, so an interrupted run keeps the previous file; a
# sweep always starts afresh (rm of its .tmp), never from a stale one.
results: deps-run
	@$(MAKE) --no-print-directory mpsim
	@mkdir -p results
	./mpsim compare > results/compare.md.tmp
	mv results/compare.md.tmp results/compare.md
	./mpsim compare --columns=all --format=csv \
	    --lat_hist=results/lat-hist.csv > results/compare.csv.tmp
	mv results/compare.csv.tmp results/compare.csv
	./mpsim --selector=hst --clock=jiffies --ramp_time=0 --runtime=200ms \
	    --interval=2ms --series=results/timeline-hst-jiffies.csv > /dev/null
	./mpsim compare --columns=st,hst_ktime,hst_jiffies --fail='sdd at 1.5s' \
	    --reinstate='sdd at 2.5s' --runtime=2s --interval=40ms \
	    --series=results/failover.csv > /dev/null
	rm -f results/depth.csv.tmp
	./mpsim sweep --iodepth=1,2,4,8,16,32,64,128 \
	    --selector=st,hst:clock=jiffies,ktime --reps=20 \
	    --output=results/depth.csv.tmp
	mv results/depth.csv.tmp results/depth.csv
	rm -f results/hz.csv.tmp
	./mpsim sweep --hz=100,250,300,1000 --selector=hst --clock=jiffies,jiffies-aligned,ktime \
	    --iodepth=64 --reps=20 --output=results/hz.csv.tmp
	mv results/hz.csv.tmp results/hz.csv
	./mpsim published > results/hst-2022.md.tmp
	mv results/hst-2022.md.tmp results/hst-2022.md
	./mpsim published --sensitivity > results/hst-2022-sensitivity.md.tmp
	mv results/hst-2022-sensitivity.md.tmp results/hst-2022-sensitivity.md
	./mpsim timers --mail > results/timers-mail.md.tmp
	mv results/timers-mail.md.tmp results/timers-mail.md
	@$(MAKE) --no-print-directory results-dm-delay-sync
	@$(MAKE) --no-print-directory results-alua-failover

# The ALUA failover and failback (README), phase by phase: one run per
# phase of the same scenario and seed, its window the phase (ramp_time to
# the phase's start, runtime its length), and the device's dmsetup lines
# at the end of the failed-over and failed-back phases.
ALUA_PHASES := "0-2 s, optimized=--runtime=2s" \
	"2.0-2.1 s, failover=--ramp_time=2s --runtime=100ms" \
	"2.1-5 s, failed over=--ramp_time=2100ms --runtime=2900ms" \
	"5.0-5.1 s, failback=--ramp_time=5s --runtime=100ms" \
	"5.1-8 s, failed back=--ramp_time=5100ms --runtime=2900ms"
results-alua-failover: mpsim
	@mkdir -p results
	@echo "results/alua-failover.md: ./mpsim --scenario=alua-failover, 5 phases"
	@{ echo "<!-- mpsim $$(./mpsim --version 2>/dev/null | cut -d' ' -f2): ./mpsim --scenario=alua-failover --seed=1 --ramp_time=START --runtime=LENGTH, one run per phase -->"; \
	  echo "| phase | sda | sdb | sdc | sdd | IOPS | mean µs | p99 µs | p99.9 µs |"; \
	  echo "|---|--:|--:|--:|--:|--:|--:|--:|--:|"; \
	  for ph in $(ALUA_PHASES); do \
	    ./mpsim --scenario=alua-failover --seed=1 --format=csv $${ph#*=} 2>/dev/null | \
	    awk -F, -v ph="$${ph%%=*}" '/^#/ || $$1 == "path" { next } \
	      $$1 ~ /^sd/ { sh = sh sprintf(" %.3f |", $$3) } \
	      $$1 == "total" { printf "| %s |%s %.0f | %.0f | %.0f | %.0f |\n", ph, sh, $$11, $$7, $$9, $$10 }'; \
	  done; echo; \
	  echo "dmsetup status and table at 4.9 s (failed over) and at 8 s (failed back), each when that runtime ends and the I/Os then in flight are done:"; echo; \
	  for rt in 4900ms 8s; do ./mpsim --scenario=alua-failover --seed=1 --runtime=$$rt --format=dmsetup 2>/dev/null | sed 's/^/    /'; echo; done; \
	} > results/alua-failover.md.tmp
	@mv results/alua-failover.md.tmp results/alua-failover.md
	./mpsim --scenario=alua-failover --seed=1 --interval=100ms \
	    --series=results/alua-failover.csv.tmp > /dev/null
	@mv results/alua-failover.csv.tmp results/alua-failover.csv

# The synchronous writer behind dm-delay (README): mean write latency for
# four delays, both expiries and two HZ values, one run each.
results-dm-delay-sync: mpsim
	@mkdir -p results
	@echo "results/dm-delay-sync.md: ./mpsim --scenario=dm-delay-sync, 16 runs"
	@{ echo "<!-- mpsim $$(./mpsim --version 2>/dev/null | cut -d' ' -f2): ./mpsim --scenario=dm-delay-sync --delay=D --expiry=E --hz=H --seed=1 -->"; \
	  echo "| delay | jiffies, HZ=100 | ns, HZ=100 | jiffies, HZ=1000 | ns, HZ=1000 |"; \
	  echo "|--:|--:|--:|--:|--:|"; \
	  for d in 1ms 2ms 5ms 20ms; do printf '| %s |' $$d; \
	    for hz in 100 1000; do for e in jiffies ns; do \
	      ./mpsim --scenario=dm-delay-sync --delay=$$d --expiry=$$e \
	          --hz=$$hz --seed=1 --format=csv | awk -F, \
	          '$$1 == "path" { for (i = 1; i <= NF; i++) if ($$i == "lat_mean_us") c = i } \
	           $$1 == "total" { printf " %.2f ms |", $$c / 1000 }' || exit 1; \
	    done; done; echo; \
	  done; } > results/dm-delay-sync.md.tmp
	mv results/dm-delay-sync.md.tmp results/dm-delay-sync.md

# Every figure of plots/figures, as PNG and SVG, from the files in
# results/ (no simulation).
# gnuplot is needed here only: mpsim itself never runs it.
plots:
	@command -v gnuplot >/dev/null 2>&1 || { \
	    echo "make plots needs gnuplot: apt-get install gnuplot-nox" >&2; \
	    exit 1; }
	@grep -v '^#' plots/figures | while read -r name gp in arg; do \
		for ext in png svg; do \
			echo "gnuplot -c plots/$$gp.gp results/$$in plots/$$name.$$ext $$arg"; \
			gnuplot -c plots/$$gp.gp results/$$in plots/$$name.$$ext $$arg || exit 1; \
		done; \
	done

install: mpsim
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(COMPDIR)
	install -d $(DESTDIR)$(LIVEDIR)/cases $(DESTDIR)$(LIVEDIR)/jobs
	install -m 644 live/live.py live/guest.sh live/build-module.sh live/grid $(DESTDIR)$(LIVEDIR)
	install -m 644 live/cases/*.ini $(DESTDIR)$(LIVEDIR)/cases
	install -m 644 live/jobs/*.fio $(DESTDIR)$(LIVEDIR)/jobs
	install -m 755 mpsim $(DESTDIR)$(BINDIR)/mpsim
	sed 's|/usr/local/share/doc/mpsim|$(DOCDIR)|g' docs/mpsim.1 \
	    > $(DESTDIR)$(MANDIR)/man1/mpsim.1
	chmod 644 $(DESTDIR)$(MANDIR)/man1/mpsim.1
	install -m 644 docs/mpsim.bash-completion $(DESTDIR)$(COMPDIR)/mpsim
	install -d $(DESTDIR)$(DOCDIR)
	install -m 644 README.md docs/*.md $(DESTDIR)$(DOCDIR)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/mpsim $(DESTDIR)$(MANDIR)/man1/mpsim.1 \
	    $(DESTDIR)$(COMPDIR)/mpsim
	rm -rf $(DESTDIR)$(LIVEDIR) $(DESTDIR)$(DOCDIR)

# docs/mpsim.1's OPTIONS section, printed by mpsim from its option tables
# (tests/help.sh fails while the page is stale)
man: mpsim
	./mpsim list options --format=man > $(BUILD)/options.man
	awk -v gen=$(BUILD)/options.man -f docs/man-options.awk docs/mpsim.1 \
	    > docs/mpsim.1.tmp
	mv docs/mpsim.1.tmp docs/mpsim.1

# Each fuzz target for FUZZ_S seconds (make fuzz FUZZ_S=600), one after
# the other, from the committed corpus (never written to: new inputs go
# to build-fuzz/corpus/NAME/), with a dictionary made from mpsim's own
# tables.  Findings land in build-fuzz/crashes/; libFuzzer's final
# statistics are in build-fuzz/log/NAME.log, summed up at the end.
fuzz-build: deps-check
	@command -v $(FUZZ_CC) >/dev/null 2>&1 || { \
	    echo "make fuzz needs clang: apt-get install clang" >&2; exit 1; }
	@$(MAKE) --no-print-directory build/fuzz-dict build/mpsim
	@$(MAKE) --no-print-directory BUILD=build-fuzz CC=$(FUZZ_CC) \
	    CFLAGS="-O1 -g -DMPSIM_DEBUG -DFUZZ_LIBFUZZER -fsanitize=fuzzer-no-link,$(SAN) -fno-sanitize-recover=all -fno-omit-frame-pointer" \
	    fuzz-bins

fuzz: fuzz-build
	@mkdir -p build-fuzz/crashes build-fuzz/log build-fuzz/work
	@fail=0; for t in $(FUZZ_TARGETS); do \
	    mkdir -p build-fuzz/corpus/$$t; \
	    build/fuzz-dict $$t > build-fuzz/fuzz/$$t.dict || exit 1; \
	    echo "fuzz $$t: $(FUZZ_S) s"; \
	    ( cd build-fuzz/work && UBSAN_OPTIONS=print_stacktrace=1 \
	      ../fuzz/$$t -max_total_time=$(FUZZ_S) -timeout=10 \
	        -rss_limit_mb=2048 -malloc_limit_mb=1024 -print_final_stats=1 \
	        -dict=../fuzz/$$t.dict -artifact_prefix=../crashes/$$t- \
	        ../corpus/$$t ../../tests/fuzz/corpus/$$t \
	        > ../log/$$t.log 2>&1 ) || { fail=1; \
	        echo "fuzz $$t: FOUND something, see build-fuzz/log/$$t.log:"; \
	        grep -E '^(==[0-9]+==ERROR|SUMMARY|.*runtime error|artifact_prefix|Test unit written)' \
	            build-fuzz/log/$$t.log | head -5; }; \
	done; \
	for t in $(FUZZ_TARGETS); do \
	    awk -v t=$$t '/(DONE|pulse|NEW|REDUCE|INITED) / { \
	        for (i = 1; i <= NF; i++) { if ($$i == "cov:") c = $$(i+1); \
	        if ($$i == "ft:") f = $$(i+1) } } \
	        /stat::number_of_executed_units/ { e = $$2 } \
	        END { printf "fuzz %-14s %10s runs  cov %5s  ft %6s\n", t, e, c, f }' \
	        build-fuzz/log/$$t.log; \
	done; exit $$fail

# Rebuild tests/fuzz/corpus/: the seeds (tests/fuzz/seeds.sh) and the
# corpus, minimised with libFuzzer's -merge=1 to the inputs that add
# coverage, then what `make fuzz` found, only the inputs of at most
# FUZZ_KEEP bytes that add more (the committed corpus stays small).
# Files named regress-* (inputs that once crashed or hung) are kept as
# they are.
FUZZ_KEEP ?= 256
fuzz-corpus: fuzz-build
	sh tests/fuzz/seeds.sh build/mpsim build-fuzz/seeds
	@mkdir -p build-fuzz/log build-fuzz/crashes
	@set -e; for t in $(FUZZ_TARGETS); do \
	    c=tests/fuzz/corpus/$$t; m=build-fuzz/merged/$$t; \
	    mkdir -p $$c build-fuzz/corpus/$$t; \
	    rm -rf $$m $$m.small; mkdir -p $$m $$m.small; \
	    find build-fuzz/corpus/$$t -type f -size -$$(($(FUZZ_KEEP) + 1))c \
	        -exec cp {} $$m.small/ \; ; \
	    for from in "build-fuzz/seeds/$$t $$c" $$m.small; do \
	        build-fuzz/fuzz/$$t -merge=1 -timeout=10 \
	            -artifact_prefix=build-fuzz/crashes/$$t- $$m $$from \
	            >> build-fuzz/log/$$t-merge.log 2>&1; \
	    done; \
	    find $$c -type f ! -name 'regress-*' -delete; \
	    cp $$m/* $$c/; \
	    echo "$$c: $$(ls $$c | wc -l) files, $$(du -sk --apparent-size $$c | cut -f1) KiB"; \
	done

clean:
	rm -rf build build-asan build-noopt build-fuzz mpsim

-include $(OBJ:.o=.d) $(TEST_OBJ:.o=.d) $(BUILD)/mpsim.d $(FUZZ_OBJ:.o=.d) \
	$(BUILD)/tests/fuzz/lib/replay.d $(BUILD)/tests/fuzz/lib/dict.d
