# SPDX-License-Identifier: GPL-2.0
#
# make            build ./bench (BPF skeletons, userspace, link)
# make test       install what is missing, build, run every TAP test
# make vmtest     install what is missing, build, run the BPF integration tests
#                 in a VM booting Debian's kernel (scripts/vmtest.sh), cgroup v2
# make run        install what is missing, build, run the main benchmark
# make man        the manual pages, from --help (help2man), in OUTPUT/man
# make install    the binary, the wrapper scripts, the manual pages and the
#                 bash completion under DESTDIR/PREFIX (spaces allowed)
# make uninstall  what make install wrote there (its manifest, in LIBEXECDIR)
# make clean      remove everything generated
#
# OUTPUT=dir      where generated files go (default .output)
# VMLINUX_BTF=f   BTF to dump vmlinux.h from (default /sys/kernel/btf/vmlinux)
# VMLINUX_H=f     use this vmlinux.h instead of dumping one
# UPSTREAM_BENCHS=DIR  also build DIR/benchs/bench_*.c and DIR/progs/*.c,
#                 written for upstream's runner, unchanged (scripts/add-upstream-benchmark.sh)
# UPSTREAM_SEC_MAP='OLD=NEW ...'  rename their programs' sections (hooks this kernel refuses)
# SANITIZE=1      build with ASan and UBSan
# OPT=-O0         the optimisation of userspace (default -O2)
# V=1             show the commands
# PREFIX=dir      where make install puts things (default /usr/local):
#                 bin/bench, libexec/bench/ (the scripts of benchs/ and
#                 scripts/vmtest.sh, and a link to bin/bench they run as
#                 ./bench), share/man/man1/, share/bash-completion/completions/bench
# DESTDIR=dir     a staging root make install writes under (packaging)

SRCDIR := $(patsubst %/,%,$(dir $(abspath $(lastword $(MAKEFILE_LIST)))))
OUTPUT ?= .output
override OUTPUT := $(abspath $(OUTPUT))
BENCH_BIN ?= $(SRCDIR)/bench

CC ?= gcc
CLANG ?= clang
BPFTOOL ?= bpftool
PKG_CONFIG ?= pkg-config
PROVE ?= prove
VMLINUX_BTF ?= /sys/kernel/btf/vmlinux

ifeq ($(V),1)
Q :=
msg =
else
Q := @
msg = @printf '  %-8s %s\n' "$(1)" "$(patsubst $(SRCDIR)/%,%,$(patsubst $(OUTPUT)/%,%,$(2)))";
endif

.DELETE_ON_ERROR:
# keep objects of unit tests: they are not throw-away intermediates
.SECONDARY:
.SUFFIXES:

# Goals that must work before the toolchain is installed.
NO_TOOLS_GOALS := clean deps run test vmtest help
ifneq ($(filter-out $(NO_TOOLS_GOALS),$(or $(MAKECMDGOALS),all)),)
need_cmd = $(if $(shell command -v $(1) 2>/dev/null),,$(error $(1) not found: run 'scripts/install-deps.sh' (or 'make test', which runs it) to install $(2)))
$(call need_cmd,$(CLANG),clang)
$(call need_cmd,$(PKG_CONFIG),pkg-config)
ifeq ($(VMLINUX_H),)
$(call need_cmd,$(BPFTOOL),bpftool)
endif
ifneq ($(filter man install,$(MAKECMDGOALS)),)
$(call need_cmd,help2man,help2man)
endif
ifneq ($(shell $(PKG_CONFIG) --exists libbpf && echo y),y)
$(error libbpf development files not found by pkg-config: run 'scripts/install-deps.sh' to install libbpf-dev)
endif
ifneq ($(shell $(PKG_CONFIG) --exists jansson && echo y),y)
$(error jansson development files not found by pkg-config: run 'scripts/install-deps.sh' to install libjansson-dev)
endif
ifneq ($(shell $(PKG_CONFIG) --exists sqlite3 && echo y),y)
$(error sqlite3 development files not found by pkg-config: run 'scripts/install-deps.sh' to install libsqlite3-dev)
endif
ifeq ($(VMLINUX_H),)
ifeq ($(wildcard $(VMLINUX_BTF)),)
$(error $(VMLINUX_BTF) not found: the kernel needs CONFIG_DEBUG_INFO_BTF, or pass VMLINUX_BTF=file or VMLINUX_H=header)
endif
endif
endif

BENCH_VERSION := $(shell git -C $(SRCDIR) describe --always --dirty --tags 2>/dev/null || echo unknown)

ARCH := $(shell uname -m | sed -e 's/x86_64/x86/' -e 's/aarch64/arm64/' -e 's/ppc64le/powerpc/' -e 's/s390x/s390/' -e 's/riscv64/riscv/')
# clang -target bpf does not search the host's multiarch include directory
CLANG_BPF_SYS_INCLUDES := $(shell $(CLANG) -v -E - </dev/null 2>&1 \
	| sed -n '/<...> search starts here:/,/End of search list./{ s| \(/.*\)|-idirafter \1|p }')

LIBBPF_CFLAGS := $(shell $(PKG_CONFIG) --cflags libbpf 2>/dev/null)
LIBBPF_LIBS := $(shell $(PKG_CONFIG) --libs libbpf 2>/dev/null)
JSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags jansson 2>/dev/null)
JSON_LIBS := $(shell $(PKG_CONFIG) --libs jansson 2>/dev/null)
SQLITE_CFLAGS := $(shell $(PKG_CONFIG) --cflags sqlite3 2>/dev/null)
SQLITE_LIBS := $(shell $(PKG_CONFIG) --libs sqlite3 2>/dev/null)

OPT ?= -O2
CFLAGS ?= -g $(OPT)
# argp tables and callback signatures, as in the kernel's tools/ builds
CFLAGS += -Wall -Wextra -Werror -Wno-unused-parameter -Wno-missing-field-initializers -std=gnu11 -I$(SRCDIR) -I$(SRCDIR)/include -I$(OUTPUT) \
	  $(LIBBPF_CFLAGS) $(JSON_CFLAGS) $(SQLITE_CFLAGS)
LDLIBS += $(LIBBPF_LIBS) $(JSON_LIBS) $(SQLITE_LIBS) -lelf -lz -lpthread -lm
ifeq ($(SANITIZE),1)
CFLAGS += -fsanitize=address,undefined -fno-omit-frame-pointer
LDFLAGS += -fsanitize=address,undefined
endif
# the BPF instruction set upstream's selftests compile their programs for
# (tools/testing/selftests/bpf/Makefile's CLANG_BPF_BUILD_RULE: -mcpu=v3,
# 32-bit subregisters and jump32); clang 14 defaults to v1, whose code for
# the same source is longer: the program a benchmark times must be the same
BPF_CPU := -mcpu=v3
BPF_CFLAGS := -g -O2 -target bpf $(BPF_CPU) -D__TARGET_ARCH_$(ARCH) -Wall -Werror \
	      -I$(OUTPUT) -I$(SRCDIR)/progs -I$(SRCDIR) $(CLANG_BPF_SYS_INCLUDES)

BPF_SRCS := $(wildcard $(SRCDIR)/progs/*.c)
SKELS := $(patsubst $(SRCDIR)/progs/%.c,$(OUTPUT)/%.skel.h,$(BPF_SRCS))
# everything but the runner and the benchmarks: unit tests link these
LIB_SRCS := stats.c metric.c testing_helpers.c kernel_env.c cgroup_helpers.c cgroup_upstream.c output_file.c \
	    result_file.c result_json.c run.c run_context.c per_producer.c latency.c suggest.c result_config.c
LIB_OBJS := $(patsubst %.c,$(OUTPUT)/%.o,$(LIB_SRCS))
# the subcommands that read result files (compare, plot, ab, export, history, config)
RESULTS_SRCS := $(wildcard $(SRCDIR)/results/*.c)
LIB_OBJS += $(patsubst $(SRCDIR)/results/%.c,$(OUTPUT)/results/%.o,$(RESULTS_SRCS))
# benchmark helpers that call the runner (bench_failed(), env): the binary's only
BENCH_LIB_SRCS := $(SRCDIR)/benchs/lib_hook.c $(SRCDIR)/benchs/lib_skel.c
# benchmark helpers without BPF or the runner, so unit tests can link them
LIB_OBJS += $(patsubst $(SRCDIR)/benchs/%.c,$(OUTPUT)/benchs/%.o,\
	    $(filter-out $(BENCH_LIB_SRCS),$(wildcard $(SRCDIR)/benchs/lib_*.c)))
BENCH_SRCS := $(wildcard $(SRCDIR)/benchs/bench_*.c) $(BENCH_LIB_SRCS)
BENCH_OBJS := $(patsubst %.c,$(OUTPUT)/%.o,bench.c bench_api.c bench_args.c runner.c reporters.c run_mem.c \
	      producer_counters.c run_latency.c run_contention.c run_slices.c \
	      bench_import.c) $(patsubst $(SRCDIR)/benchs/%.c,$(OUTPUT)/benchs/%.o,$(BENCH_SRCS))
UNIT_SRCS := $(wildcard $(SRCDIR)/tests/unit_*.c)
UNIT_TESTS := $(patsubst $(SRCDIR)/tests/%.c,$(OUTPUT)/tests/%.t,$(UNIT_SRCS))
VMLINUX := $(OUTPUT)/vmlinux.h

.PHONY: all clean deps run test vmtest unit-tests help man install uninstall FORCE
all: $(BENCH_BIN)

$(OUTPUT) $(OUTPUT)/benchs $(OUTPUT)/results $(OUTPUT)/tests:
	$(Q)mkdir -p $@

ifeq ($(VMLINUX_H),)
VMLINUX_SRC := $(VMLINUX_BTF)
VMLINUX_CMD = $(BPFTOOL) btf dump file $(VMLINUX_BTF) format c
else
VMLINUX_SRC := $(VMLINUX_H)
VMLINUX_CMD = cat $(VMLINUX_H)
endif
# The stamp follows the source's mtime; vmlinux.h itself is replaced only
# when its content changed, so a reboot into the same kernel rebuilds nothing.
$(OUTPUT)/vmlinux.stamp: $(VMLINUX_SRC) | $(OUTPUT)
	$(call msg,GEN,$(VMLINUX))
	$(Q)$(VMLINUX_CMD) > $(VMLINUX).tmp
	$(Q)cmp -s $(VMLINUX).tmp $(VMLINUX) && rm -f $(VMLINUX).tmp || mv $(VMLINUX).tmp $(VMLINUX)
	$(Q)touch $@
$(VMLINUX): $(OUTPUT)/vmlinux.stamp ;

# the programs are rebuilt when their flags change (BPF_CPU), not only
# their sources: a tree built before keeps no object of the old flags
BPF_STAMP := $(OUTPUT)/bpf-cflags.stamp
ifneq ($(shell cat $(BPF_STAMP) 2>/dev/null),$(strip $(BPF_CFLAGS)))
$(BPF_STAMP): FORCE
endif
$(BPF_STAMP): | $(OUTPUT)
	$(Q)printf '%s\n' '$(strip $(BPF_CFLAGS))' > $@

$(OUTPUT)/%.bpf.o: $(SRCDIR)/progs/%.c $(VMLINUX) $(wildcard $(SRCDIR)/progs/*.h) $(SRCDIR)/bpf_experimental.h \
		   $(BPF_STAMP) | $(OUTPUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(BPF_CFLAGS) -c $< -o $@

$(OUTPUT)/%.skel.h: $(OUTPUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $* > $@

# The version is a generated header, rewritten only when `git describe`
# changes, so that exactly its includers rebuild then.
BENCH_VERSION_H := $(OUTPUT)/bench_version.h
BENCH_VERSION_DEF := \#define BENCH_VERSION "$(BENCH_VERSION)"
ifneq ($(shell cat $(BENCH_VERSION_H) 2>/dev/null),$(BENCH_VERSION_DEF))
$(BENCH_VERSION_H): FORCE
endif
$(BENCH_VERSION_H): | $(OUTPUT)
	$(call msg,GEN,$@)
	$(Q)printf '%s\n' '$(BENCH_VERSION_DEF)' > $@

# Each object depends on the generated headers it includes, as its .d file
# (-MMD -MP) lists them.  Before the first build there are no .d files:
# the order-only prerequisite has every generated header made first.
GEN_HDRS := $(SKELS) $(BENCH_VERSION_H)
$(OUTPUT)/%.o: $(SRCDIR)/%.c | $(OUTPUT) $(GEN_HDRS)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(OUTPUT)/benchs/%.o: $(SRCDIR)/benchs/%.c | $(OUTPUT)/benchs $(GEN_HDRS)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(OUTPUT)/results/%.o: $(SRCDIR)/results/%.c | $(OUTPUT)/results $(GEN_HDRS)
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(OUTPUT)/tests/%.o: $(SRCDIR)/tests/%.c | $(OUTPUT)/tests
	$(call msg,CC,$@)
	$(Q)$(CC) $(CFLAGS) -MMD -MP -c $< -o $@

$(OUTPUT)/tests/%.t: $(OUTPUT)/tests/%.o $(LIB_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $^ $(LDLIBS) -o $@

$(BENCH_BIN): $(BENCH_OBJS) $(LIB_OBJS)
	$(call msg,LINK,$@)
	$(Q)$(CC) $(LDFLAGS) $(filter %.o,$^) $(LDLIBS) -o $@

unit-tests: $(UNIT_TESTS)

# ---- benchmarks written for upstream's runner, built unchanged ----
# UPSTREAM_BENCHS=DIR: DIR/benchs/bench_*.c and DIR/progs/*.c, laid out as
# upstream's tools/testing/selftests/bpf, built against this tree's
# upstream API into $(UP_OUT) and linked in as one object whose only
# global symbols are the table (scripts/upstream-table.sh): their names
# cannot clash with ours, and a benchmark of theirs replaces ours of the
# same name at run time.  UPSTREAM_SEC_MAP='OLD=NEW ...' renames program
# sections in their objects (a hook this kernel refuses), the sources
# untouched.  scripts/add-upstream-benchmark.sh checks DIR and runs this.
UP_OUT := $(OUTPUT)/upstream
UP_STAMP := $(OUTPUT)/upstream.stamp
UP_DEF := $(abspath $(UPSTREAM_BENCHS)) | $(UPSTREAM_SEC_MAP)
ifneq ($(shell cat $(UP_STAMP) 2>/dev/null),$(UP_DEF))
$(UP_STAMP): FORCE
endif
$(UP_STAMP): | $(OUTPUT)
	$(Q)printf '%s\n' '$(UP_DEF)' > $@
# relinked when the set changes: added, replaced, or gone again
$(BENCH_BIN): $(UP_STAMP)

ifneq ($(UPSTREAM_BENCHS),)
UP_DIR := $(abspath $(UPSTREAM_BENCHS))
UP_BENCH_SRCS := $(wildcard $(UP_DIR)/benchs/bench_*.c)
UP_BPF_SRCS := $(wildcard $(UP_DIR)/progs/*.c)
ifeq ($(UP_BENCH_SRCS),)
$(error UPSTREAM_BENCHS=$(UPSTREAM_BENCHS): no benchs/bench_*.c there)
endif
UP_SKELS := $(patsubst $(UP_DIR)/progs/%.c,$(UP_OUT)/%.skel.h,$(UP_BPF_SRCS))
UP_OBJS := $(patsubst $(UP_DIR)/benchs/%.c,$(UP_OUT)/benchs/%.o,$(UP_BENCH_SRCS)) $(UP_OUT)/table.o
UP_LINKED := $(UP_OUT)/upstream.o
# ours first (bench.h, bpf_misc.h ...), then DIR's own (progs/lpm_trie.h)
UP_BPF_CFLAGS := -g -O2 -target bpf $(BPF_CPU) -D__TARGET_ARCH_$(ARCH) -Wall -Wno-compare-distinct-pointer-types \
	-I$(OUTPUT) -I$(SRCDIR)/progs -I$(SRCDIR) -I$(UP_DIR) -I$(UP_DIR)/progs \
	-idirafter $(UP_OUT)/include $(CLANG_BPF_SYS_INCLUDES)
UP_CFLAGS := -g $(OPT) -Wall -std=gnu11 -fvisibility=hidden -I$(UP_OUT) -I$(SRCDIR) -I$(SRCDIR)/include \
	-I$(UP_DIR) $(LIBBPF_CFLAGS)

$(UP_OUT) $(UP_OUT)/benchs:
	$(Q)mkdir -p $@

# glibc's headers ask for gnu/stubs-32.h when __x86_64__ is not defined, as
# under clang -target bpf: an empty one (a BPF object uses no libc) for
# programs that include <errno.h>, as some of upstream's do
$(UP_OUT)/include/gnu/stubs-32.h: | $(UP_OUT)
	$(Q)mkdir -p $(@D)
	$(Q)echo '/* empty: BPF programs link no libc (make UPSTREAM_BENCHS) */' > $@

# through LLVM IR, where UPSTREAM_SEC_MAP renames sections before the BTF
# (whose function info names them) is made
$(UP_OUT)/%.bpf.o: $(UP_DIR)/progs/%.c $(VMLINUX) $(wildcard $(UP_DIR)/progs/*.h) $(UP_STAMP) \
		   $(UP_OUT)/include/gnu/stubs-32.h | $(UP_OUT)
	$(call msg,BPF,$@)
	$(Q)$(CLANG) $(UP_BPF_CFLAGS) -S -emit-llvm $< -o $(@:.o=.ll)
	$(Q)sed -i -e '' $(foreach m,$(UPSTREAM_SEC_MAP),-e 's|section "$(word 1,$(subst =, ,$(m)))"|section "$(word 2,$(subst =, ,$(m)))"|g') $(@:.o=.ll)
	$(Q)$(CLANG) -g -O2 -target bpf $(BPF_CPU) -c $(@:.o=.ll) -o $@

$(UP_OUT)/%.skel.h: $(UP_OUT)/%.bpf.o
	$(call msg,GEN-SKEL,$@)
	$(Q)$(BPFTOOL) gen skeleton $< name $* > $@

$(UP_OUT)/benchs/%.o: $(UP_DIR)/benchs/%.c $(UP_SKELS) | $(UP_OUT)/benchs
	$(call msg,CC,$@)
	$(Q)$(CC) $(UP_CFLAGS) -MMD -MP -c $< -o $@

$(UP_OUT)/table.c: $(UP_BENCH_SRCS) $(SRCDIR)/scripts/upstream-table.sh $(UP_STAMP) | $(UP_OUT)
	$(call msg,GEN,$@)
	$(Q)$(SRCDIR)/scripts/upstream-table.sh $(UP_DIR) > $@

$(UP_OUT)/table.o: $(UP_OUT)/table.c
	$(call msg,CC,$@)
	$(Q)$(CC) $(UP_CFLAGS) -c $< -o $@

$(BENCH_BIN): $(UP_LINKED)

# one object, every symbol but the table's made local
$(UP_LINKED): $(UP_OBJS)
	$(call msg,LD,$@)
	$(Q)$(LD) -r -o $@ $^
	$(Q)objcopy --localize-hidden $@
endif

# The manual pages: bench(1) and bench-COMMAND(1) for every command, made
# from --help by help2man (scripts/gen-man.sh), so they say what --help
# says.  Not part of all: they follow the binary, which every build relinks
# (help2man runs it a dozen times); make test and make install make them.
MAN_DIR := $(OUTPUT)/man
MAN_STAMP := $(OUTPUT)/man.stamp
# the install paths the pages' FILES name: rewritten only when they change,
# so that make install PREFIX=... remakes the pages and nothing else does
MAN_PATHS := $(OUTPUT)/man.paths
$(MAN_PATHS): FORCE | $(OUTPUT)
	$(Q)printf '%s\n' $(call shq,$(BINDIR)) $(call shq,$(LIBEXECDIR)) $(call shq,$(BASHCOMPDIR)) >$@.new; \
	cmp -s $@.new $@ && rm -f $@.new || mv -f $@.new $@
$(MAN_STAMP): $(BENCH_BIN) $(SRCDIR)/scripts/gen-man.sh $(SRCDIR)/scripts/bench-completion.bash \
		$(SRCDIR)/README.md $(MAN_PATHS) | $(OUTPUT)
	$(call msg,MAN,$(MAN_DIR))
	$(Q)BINDIR=$(call shq,$(BINDIR)) LIBEXECDIR=$(call shq,$(LIBEXECDIR)) \
		BASHCOMPDIR=$(call shq,$(BASHCOMPDIR)) $(SRCDIR)/scripts/gen-man.sh $(BENCH_BIN) $(MAN_DIR)
	$(Q)touch $@
man: $(MAN_STAMP)

PREFIX ?= /usr/local
BINDIR ?= $(PREFIX)/bin
LIBEXECDIR ?= $(PREFIX)/libexec/bench
MANDIR ?= $(PREFIX)/share/man
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
# The scripts run ./bench from the tree they sit in (run_common.sh changes
# into it): installed, that tree is LIBEXECDIR, whose ./bench is a link to
# the installed binary.  Every script of benchs/ a user runs is installed
# (each run_*.sh: the wrappers, the A/B, calibration and noise scripts),
# with their library run_common.sh; run_kernel_ab.sh boots its kernels with
# scripts/vmtest.sh, installed where it looks for it, as in the tree.
WRAPPERS := $(filter-out %/run_common.sh,$(wildcard $(SRCDIR)/benchs/run_*.sh))
WRAPPER_LIBS := $(SRCDIR)/benchs/run_common.sh $(SRCDIR)/benchs/paired_ratio.awk
# A make value as one shell word, whatever it holds: PREFIX="/opt/my stuff"
# and DESTDIR with spaces or quotes install where they say, not into ./stuff
shq = '$(subst ','\'',$(1))'
# every path make install writes, one a line without DESTDIR, for uninstall
MANIFEST = $(LIBEXECDIR)/installed-files
install: all $(MAN_STAMP)
	$(call msg,INSTALL,$(DESTDIR)$(PREFIX))
	$(Q)install -d $(call shq,$(DESTDIR)$(BINDIR)) $(call shq,$(DESTDIR)$(LIBEXECDIR)/benchs) \
		$(call shq,$(DESTDIR)$(LIBEXECDIR)/scripts) $(call shq,$(DESTDIR)$(MANDIR)/man1) \
		$(call shq,$(DESTDIR)$(BASHCOMPDIR))
	$(Q)install -m 755 $(BENCH_BIN) $(call shq,$(DESTDIR)$(BINDIR)/bench)
	$(Q)install -m 755 $(WRAPPERS) $(call shq,$(DESTDIR)$(LIBEXECDIR)/benchs/)
	$(Q)install -m 644 $(WRAPPER_LIBS) $(call shq,$(DESTDIR)$(LIBEXECDIR)/benchs/)
	$(Q)install -m 755 $(SRCDIR)/scripts/vmtest.sh $(call shq,$(DESTDIR)$(LIBEXECDIR)/scripts/)
	$(Q)ln -sfn "$$(realpath -m --relative-to=$(call shq,$(LIBEXECDIR)) $(call shq,$(BINDIR)))/bench" \
		$(call shq,$(DESTDIR)$(LIBEXECDIR)/bench)
	$(Q)install -m 644 $(MAN_DIR)/*.1 $(call shq,$(DESTDIR)$(MANDIR)/man1/)
	$(Q)install -m 644 $(SRCDIR)/scripts/bench-completion.bash $(call shq,$(DESTDIR)$(BASHCOMPDIR)/bench)
	$(Q){ printf '%s\n' $(call shq,$(BINDIR)/bench) $(call shq,$(LIBEXECDIR)/bench) \
		$(call shq,$(LIBEXECDIR)/scripts/vmtest.sh) $(call shq,$(BASHCOMPDIR)/bench); \
	  for f in $(notdir $(WRAPPERS) $(WRAPPER_LIBS)); do \
		printf '%s\n' $(call shq,$(LIBEXECDIR)/benchs)/"$$f"; done; \
	  for f in $(MAN_DIR)/*.1; do printf '%s\n' $(call shq,$(MANDIR)/man1)/"$${f##*/}"; done; \
	  printf '%s\n' $(call shq,$(MANIFEST)); } >$(call shq,$(DESTDIR)$(MANIFEST))

# What make install wrote, as its manifest lists it, and the directories of
# LIBEXECDIR it made once empty; the shared ones (bin, man1) stay
uninstall:
	$(call msg,UNINSTALL,$(DESTDIR)$(PREFIX))
	$(Q)test -f $(call shq,$(DESTDIR)$(MANIFEST)) || \
		{ echo "nothing to uninstall: no $(DESTDIR)$(MANIFEST) (make install writes it)" >&2; exit 1; }
	$(Q)while IFS= read -r f; do rm -f -- $(call shq,$(DESTDIR))"$$f" || exit 1; done \
		<$(call shq,$(DESTDIR)$(MANIFEST))
	$(Q)rmdir --ignore-fail-on-non-empty $(call shq,$(DESTDIR)$(LIBEXECDIR)/benchs) \
		$(call shq,$(DESTDIR)$(LIBEXECDIR)/scripts) $(call shq,$(DESTDIR)$(LIBEXECDIR))

# The set-up the README promises: install what is missing, then build.
deps:
	$(Q)$(SRCDIR)/scripts/install-deps.sh --if-missing

# Tests that load BPF check machine-wide state (loaded programs, cgroups,
# mounts), so they run one after another; the rest run alongside them.
# Both are seq groups, two lanes: prove's scheduler hands out every
# top-level (par) test before it looks into a nested group, so a 'par=**'
# next to the BPF group ran it only after all the others had started, and
# the BPF lane, the longest, ran alone at the end.
BPF_TESTS := $(sort $(shell grep -l '^require_bpf' $(SRCDIR)/tests/*.t 2>/dev/null))
OTHER_TESTS = $(UNIT_TESTS) $(filter-out $(BPF_TESTS),$(sort $(wildcard $(SRCDIR)/tests/*.t)))
# The two lanes' order.  Most files mostly wait (runs of a fixed length,
# whose threads spin at nice 15 on what is left), some mostly compute
# (compilers, valgrind, shellcheck, jq over many files): measured alone
# and then beside the other lane, these took 45-110% longer, the others
# at most 45%, most of them 5-30%.  The other lane starts with its
# computing files and the BPF lane ends with its own, so that each lane
# computes while the other mostly waits.
CPU_BOUND_TESTS := $(addprefix $(SRCDIR)/tests/,sanitize.t history.t fidelity_script.t \
	build.t shellcheck.t help.t docs.t man.t lib_sh.t install.t layout.t \
	results_bpf.t htab_mem_memcheck.t exit_after_setup.t ringbufs.t \
	adding_a_benchmark.t lkp_bpf_bench.t local_storage.t)
BPF_LANE = $(filter-out $(CPU_BOUND_TESTS),$(BPF_TESTS)) $(filter $(CPU_BOUND_TESTS),$(BPF_TESTS))
OTHER_LANE = $(filter $(CPU_BOUND_TESTS),$(OTHER_TESTS)) $(filter-out $(CPU_BOUND_TESTS),$(OTHER_TESTS))
PROVE_JOBS ?= 2
# the build before the tests, on every CPU (a clean clone's took 28 s serially)
BUILD_JOBS ?= $(shell nproc 2>/dev/null || echo 1)
comma := ,
empty :=
space := $(empty) $(empty)

test: deps
	$(Q)$(MAKE) --no-print-directory -j$(BUILD_JOBS) -f $(SRCDIR)/Makefile OUTPUT=$(OUTPUT) all unit-tests man
	$(Q)cd $(SRCDIR) && BENCH=$(BENCH_BIN) OUTPUT=$(OUTPUT) \
		$(PROVE) --exec '' -j$(PROVE_JOBS) \
		--rules='seq={$(subst $(space),$(comma),$(BPF_LANE))}' \
		--rules='seq={$(subst $(space),$(comma),$(OTHER_LANE))}' \
		$(PROVE_FLAGS) $(BPF_LANE) $(OTHER_LANE)

# vmtest.sh's own boot tests, then the integration tests whose behaviour
# depends on the kernel, inside throw-away VMs booting the default kernel
# of scripts/vmtest.sh: pure cgroup v2 with memory delegated, debugfs
# mounted, the BPF LSM, fentry, CI=true (a test that cannot load BPF
# fails).  results_bpf.t runs every benchmark there; the wrapper scripts'
# tests (lookup_scripts.t, run_bench_htab_mem.t) and those of benchmarks it
# covers whole (map_lookup.t, trig_base.t) check userspace and run on the
# host only, and so do the checks of userspace alone inside the files
# (tests/lib.sh's host_only), which keeps make vmtest under 10 minutes
# (8m41s on 2026-12-01, 10m47s before host_only).  The files are dealt
# over VMTEST_VMS VMs at once, round-robin, in an order that evens out
# their times under TCG (measured, two VMs at once: bpf_hashmap_lookup.t
# 166 s, htab_mem.t 152, lpm_trie.t 121, map_perf.t 121,
# local_storage_create.t 98, results_bpf.t 94, bpf_hashmap_full_update.t
# 54, mem_breakdown.t 35, htab_mem_cgroup.t 16, bpf_ma.t 13; a third VM
# made every file 40% slower and one guest lock up);
# htab_mem.t goes first into its VM, so that its mount-table checks see the
# guest as booted, not as earlier tests left it.  VMTEST_KERNEL=pkg|.deb|
# bzImage tests another kernel.  Debian's kernels load fentry programs,
# which this machine refuses: BENCH_TEST_FENTRY=1 makes
# tests/bpf_hashmap_lookup.t fail if the fentry hook does not load there
# (VMTEST_FENTRY= for a kernel that cannot).
VMTEST_TESTS ?= tests/htab_mem.t tests/map_perf.t tests/local_storage_create.t \
	tests/bpf_hashmap_lookup.t tests/lpm_trie.t tests/results_bpf.t \
	tests/bpf_hashmap_full_update.t tests/mem_breakdown.t tests/htab_mem_cgroup.t tests/bpf_ma.t \
	tests/bloom_filter_map.t \
	tests/local_storage_rcu_tasks_trace.t tests/local_storage.t
VMTEST_FENTRY ?= 1
VMTEST_VMS ?= 2
VMTEST_TIMEOUT ?= 1500
vmtest: deps
	$(Q)$(MAKE) --no-print-directory -f $(SRCDIR)/Makefile OUTPUT=$(OUTPUT) all
	$(Q)cd $(SRCDIR) && OUTPUT=$(OUTPUT) VMTEST_BOOT=1 $(PROVE) $(PROVE_FLAGS) tests/vmtest_script.t
	$(Q)cd $(SRCDIR) && BENCH=$(BENCH_BIN) OUTPUT=$(OUTPUT) PROVE="$(PROVE)" PROVE_FLAGS="$(PROVE_FLAGS)" \
		BENCH_TEST_FENTRY=$(VMTEST_FENTRY) tests/vmtest_suite.sh -j $(VMTEST_VMS) -t $(VMTEST_TIMEOUT) $(if $(VMTEST_KERNEL),-k $(VMTEST_KERNEL)) \
		-- $(VMTEST_TESTS)

run: deps
	$(Q)$(MAKE) --no-print-directory -f $(SRCDIR)/Makefile OUTPUT=$(OUTPUT) all
	$(Q)$(BENCH_BIN) htab-mem --use-case overwrite -p2 -a

clean:
	$(call msg,CLEAN,$(OUTPUT))
	$(Q)rm -rf $(OUTPUT) $(BENCH_BIN)

FORCE:

help:
	@sed -n '2,/^$$/{ s/^# \{0,1\}//p }' $(SRCDIR)/Makefile

-include $(wildcard $(OUTPUT)/*.d $(OUTPUT)/benchs/*.d $(OUTPUT)/results/*.d $(OUTPUT)/tests/*.d \
	$(if $(UPSTREAM_BENCHS),$(OUTPUT)/upstream/benchs/*.d))
