# SPDX-License-Identifier: GPL-2.0+
#
# Copyright (c) 2026 The perfrec authors
# perfrec: get U-Boot, overlay perfrec, build, demo, test, benchmark
#
#   make demo       build, boot QEMU, record a boot flow with call graphs, show
#                   perfrec report, perf report and a flame graph (build/demo/)
#   make check      every test (host, QEMU matrix, checkpatch); NEWEST_SRC= and
#                   MASTER_SRC= (trees or tarballs) add upstream releases
#   make bench      icount-exact figures for doc/develop/perfrec.rst
#   make doc-tables  the developer page's tables of the code (overlay edits,
#                   patch series, cells, packages), generated from the code
#   make diff-demo  a flow recorded twice, the second time slower, compared
#                   by perfrec_diff.py with a CI gate (build/diff-demo/)
#   make soak       the slow reliability tier (1000 sessions, 50000 fuzz cases)
#   make build-spl  the SPL test vehicle: SPL in QEMU's flash loads U-Boot proper
#                   (build/qemu_arm64_perfrec_spl/perfrec-flash.bin, for -bios)
#   make check-real-boards  real boards' defconfigs booted on QEMU's models of
#                   their SoCs (QEMU 7.2 and, from make lab-host's trixie
#                   chroot, 11.1) and recorded; perf 7.3 judges with 6.1
#   make            just build (build/qemu_arm64_perfrec/u-boot.bin)
#
# The flow, as prerequisites: U-Boot source ($(SRC_STAMP)) -> overlay
# ($(OVERLAY_STAMP)) -> .config -> build -> demo, check-*, bench
#
# UBOOT_SRC=/path/to/u-boot   use your own U-Boot tree (copied, then overlaid), or a
#                             tarball of one (.tar.xz, .tar.gz: checked, unpacked once)
# UBOOT_SUITE=trixie          use another Debian release's u-boot source package

PYTHON		:= /usr/bin/python3
CROSS_COMPILE	?= aarch64-linux-gnu-
UBOOT_SUITE	?= bookworm
BASE_DEFCONFIG	?= qemu_arm64_defconfig
# perfrec's options for any board (the guide's fragment), then what the test
# builds add: semihosting (configs/perfrec.config), and on AArch64 the test
# command (configs/perfrec-test-cmd.config)
PERFREC_FRAGMENT := $(CURDIR)/configs/perfrec-board.config $(CURDIR)/configs/perfrec.config \
		    $(CURDIR)/configs/perfrec-test-cmd.config
# The real boards' test builds: perfrec's options and no preboot (no USB scan)
BOARD_FRAGMENTS	:= $(PERFREC_FRAGMENT) $(CURDIR)/configs/perfrec-board-test.config
# LEAN=1: the test build less what no test reaches (configs/perfrec-lean.config),
# in directories of its own; make check's releases that run two cells use it
LEAN		?=
TEST_CONFIG_OF	= qemu_arm64_perfrec$(if $(1),_lean)
TEST_CONFIG	:= $(call TEST_CONFIG_OF,$(LEAN))
FRAGMENTS	?= $(PERFREC_FRAGMENT) $(CURDIR)/configs/perfrec-test.config \
		   $(if $(LEAN),$(CURDIR)/configs/perfrec-lean.config)
CONFIG		?= $(TEST_CONFIG)
JOBS		?= $(shell nproc)
BUILD		:= $(CURDIR)/build

# A tarball of a tree (.tar.xz, .tar.gz) is unpacked once into build/uboot/<name>
UBOOT_TARBALL	:= $(if $(filter %.tar.xz %.tar.gz %.tgz,$(UBOOT_SRC)),$(abspath $(UBOOT_SRC)))
ifneq ($(UBOOT_TARBALL),)
UBOOT_NAME	:= $(patsubst %.tgz,%,$(patsubst %.tar.gz,%,$(patsubst %.tar.xz,%,\
		   $(notdir $(UBOOT_TARBALL)))))
SRC		:= $(BUILD)/uboot/$(UBOOT_NAME)
SRC_STAMP	:= $(SRC)/.perfrec-uboot-tarball
TAG		:= -$(UBOOT_NAME)
else ifeq ($(UBOOT_SRC),)
SRC		:= $(BUILD)/uboot/$(UBOOT_SUITE)
SRC_STAMP	:= $(SRC)/.perfrec-uboot-source
TAG		:= $(if $(filter bookworm,$(UBOOT_SUITE)),,-$(UBOOT_SUITE))
else
SRC		:= $(BUILD)/work/$(notdir $(abspath $(UBOOT_SRC)))
SRC_STAMP	:= $(SRC)/.perfrec-work-copy
TAG		:= -$(notdir $(abspath $(UBOOT_SRC)))
endif
O		:= $(BUILD)/$(CONFIG)$(TAG)

# U-Boot's build and test/py use Debian's python3 and its python3-* packages
# UBOOT_FLAGS: more variables for U-Boot's make (bench-size: FTRACE=1)
UBOOT_FLAGS	?=
# Reproducible: the same sources and options give the same bytes and build-id
# in any directory. SOURCE_DATE_EPOCH fixes U-Boot's build date (see
# scripts/perfrec_source_date.sh) and the prefix maps keep the source and
# build directories out of the debug info, which the build-id covers.
# The early-boot build starts as a copy of the test build (build-early): both
# map both directories, so that their command lines match and U-Boot's make
# rebuilds only what the early options change. So do the 32-bit build and
# its copy without SVC mode (build-arm32-no-el1).
EARLY_CONFIG	:= $(TEST_CONFIG)_early
SPL_CONFIG	:= $(TEST_CONFIG)_spl
SHARED_O	:= $(BUILD)/$(TEST_CONFIG)$(TAG) $(BUILD)/$(EARLY_CONFIG)$(TAG) \
		   $(BUILD)/$(SPL_CONFIG)$(TAG)
PREFIX_MAP	= -ffile-prefix-map=$(SRC)=. $(foreach d,$(sort $(1) \
		  $(if $(filter $(1),$(SHARED_O)),$(SHARED_O)) \
		  $(if $(filter $(1),$(ARM32_SHARED_O)),$(ARM32_SHARED_O))),-ffile-prefix-map=$(d)=.)
# U-Boot's newer kbuild (Linux 6.1's: 2026.07, master) runs bash and nm on
# every object (scripts/check-local-export). It looks for __ksymtab_ symbols,
# which U-Boot never makes (EXPORT_SYMBOL is empty in <linux/compat.h>), so
# it cannot fail: left out, 41 of the 157 s 2026.07's qemu_arm64 took to build
UBOOT_NO_EXPORT_CHECK := cmd_check_local_export=
UBOOT_MAKE	= SOURCE_DATE_EPOCH=$$(scripts/perfrec_source_date.sh $(SRC)) \
		  PATH=/usr/bin:$$PATH $(MAKE) -C $(SRC) O=$(O) $(UBOOT_NO_EXPORT_CHECK) \
		  CROSS_COMPILE=$(CROSS_COMPILE) PYTHON3=$(PYTHON) \
		  KCFLAGS="$(call PREFIX_MAP,$(O))" KAFLAGS="$(call PREFIX_MAP,$(O))" $(UBOOT_FLAGS)

# The tree's version, as U-Boot's make gives it (for the shell)
UBOOT_VERSION	= $$($(UBOOT_MAKE) -s --no-print-directory ubootversion)

.PHONY: all build build-early build-smallest build-arm32 build-arm32-thumb build-arm32-no-el1 \
	check-arm32 deps source overlay config demo check check-all \
	check-host check-lab check-upstream \
	check-qemu check-releases check-repro \
	check-qemu-fast check-sandbox checkpatch check-defconfig defconfig bench bench-size clean \
	patches check-series series-write series-check check-boards board-build board \
	check-board-builds board-table o-dir \
	check-real-boards real-args lab-host \
	distclean demo-picture boot-demo boot-demo-picture bench-boot build-spl hotspot-picture soak check-diff-builds diff-demo diff-picture \
	bench-diff run-args doc-tables qemu-plugin check-exact bench-exact build-boot-off \
	perfrec-verdict

all: build

deps:
	scripts/perfrec-deps.sh

# --- U-Boot source: Debian's package (default) or the user's tree ----------

source: $(SRC_STAMP)

ifneq ($(UBOOT_TARBALL),)
# Runs again when the tarball is newer; unpacks again only for a new sha256
$(SRC_STAMP): $(UBOOT_TARBALL)
	$(PYTHON) scripts/perfrec_unpack_uboot.py $(UBOOT_TARBALL) --dest $(SRC)
else ifeq ($(UBOOT_SRC),)
$(SRC_STAMP):
	$(PYTHON) scripts/perfrec_get_uboot.py --suite $(UBOOT_SUITE) \
		--apt-dir $(BUILD)/apt/$(UBOOT_SUITE) --dest $(SRC)
else
$(SRC_STAMP):
	test -f $(UBOOT_SRC)/Kbuild || { echo "UBOOT_SRC=$(UBOOT_SRC) is not a U-Boot tree"; exit 1; }
	rm -rf $(SRC) && mkdir -p $(dir $(SRC))
	cp -a $(abspath $(UBOOT_SRC)) $(SRC)
	touch $@
endif

# --- Overlay: perfrec's files and edits in the U-Boot tree ------------------

# Runs again when the tree is new, or when the script (its table of edits) or
# a file it copies is newer than its last run (no python3 yet, before 'make
# deps': the stamp is missing anyway)
OVERLAY_STAMP	:= $(SRC)/.perfrec-overlay
OVERLAY_INPUTS	:= $(if $(wildcard $(PYTHON)),$(shell $(PYTHON) scripts/perfrec_overlay.py --list))

overlay: $(OVERLAY_STAMP)

$(OVERLAY_STAMP): $(SRC_STAMP) scripts/perfrec_overlay.py $(OVERLAY_INPUTS)
	$(PYTHON) scripts/perfrec_overlay.py $(SRC)
	touch $@

# --- Configure and build ----------------------------------------------------

# Reconfigured when a fragment or perfrec's Kconfig changes, not for every
# overlaid file (that is U-Boot's make's business)
$(O)/.config: $(FRAGMENTS) $(SRC_STAMP) drivers/perf/Kconfig | $(OVERLAY_STAMP)
	mkdir -p $(O)
	$(UBOOT_MAKE) -s $(BASE_DEFCONFIG)
	cd $(SRC) && PATH=/usr/bin:$$PATH scripts/kconfig/merge_config.sh -m -O $(O) \
		$(O)/.config $(FRAGMENTS) >/dev/null
	$(UBOOT_MAKE) -s olddefconfig
	@scripts/perfrec_config_check.sh $@ $(FRAGMENTS)

config: $(O)/.config

# symfs/: the ELF for host profilers, also by build-id (tools/perfrec/perfrec_symfs.py)
build: $(O)/.config $(OVERLAY_STAMP)
	$(UBOOT_MAKE) -j$(JOBS) -s
	echo "U-Boot $(if $(UBOOT_TARBALL),$$($(PYTHON) scripts/perfrec_unpack_uboot.py \
		$(UBOOT_TARBALL) --dest $(SRC) --describe $(UBOOT_VERSION)),$(UBOOT_VERSION) from \
		$(if $(UBOOT_SRC),$(UBOOT_SRC),Debian $(UBOOT_SUITE)'s u-boot \
		$$(dpkg-parsechangelog -l $(SRC)/debian/changelog -SVersion)))" \
		> $(O)/perfrec-uboot-version
	$(PYTHON) tools/perfrec/perfrec_symfs.py --objcopy $(CROSS_COMPILE)objcopy \
		$(O)/u-boot $(O)/symfs
	@echo "perfrec: built $(O)/u-boot.bin and $(O)/u-boot ($$(cat $(O)/perfrec-uboot-version));" \
		"for host tools: $(O)/symfs"

# The single-file defconfig for users who want one (make savedefconfig)
defconfig: $(O)/.config
	$(UBOOT_MAKE) -s savedefconfig
	cp $(O)/defconfig configs/$(CONFIG)_defconfig

check-defconfig: $(O)/.config
	$(UBOOT_MAKE) -s savedefconfig
	diff -u configs/$(CONFIG)_defconfig $(O)/defconfig || \
		{ echo "perfrec: configs/$(CONFIG)_defconfig is stale: run make defconfig"; exit 1; }

# --- Demo -------------------------------------------------------------------

demo: deps build
	$(PYTHON) scripts/perfrec_demo.py --build-dir $(O) --out $(BUILD)/demo

# The README's first screen: the demo's transcript and flame graph picture
demo-picture: deps build
	$(PYTHON) scripts/perfrec_demo.py --build-dir $(O) --out $(BUILD)/demo --readme README.md
	cp $(BUILD)/demo/flame.png doc/perfrec-flamegraph.png

# Where U-Boot's boot time goes: the early-boot build (CONFIG_PERFREC_BOOT)
# records itself from board_init_f() to the prompt, then into an OS payload
boot-demo: deps build-early
	$(PYTHON) scripts/perfrec_boot_demo.py --build-dir $(EARLY_O) --out $(BUILD)/boot-demo

# The boot flame graph picture in doc/, from the boot demo's recording
boot-demo-picture: boot-demo
	cp $(BUILD)/boot-demo/boot-flame.png doc/perfrec-boot-flamegraph.png

# What made it slower: a flow recorded twice, the second time with a planted
# regression (2.8% more CRC-32 work, one call level more), compared by
# perfrec_diff.py with a 1% gate, which must catch it (build/diff-demo/)
DIFF_FLOW	:= crc32 0x40000000 0x400000; hash sha256 0x40000000 0x100000; perfrec_test chain 3 300000
DIFF_FLOW_NEW	:= crc32 0x40000000 0x420000; hash sha256 0x40000000 0x100000; perfrec_test chain 4 300000

diff-demo: deps build
	$(PYTHON) scripts/perfrec_diff_builds.py --base-dir $(O) --new-dir $(O) \
		--out $(BUILD)/diff-demo --base-flow "$(DIFF_FLOW)" --flow "$(DIFF_FLOW_NEW)" \
		--fail-above 1 --png --hover crc32_no_comp; \
	test $$? = 1 && echo "perfrec: the 1% gate caught the planted regression"

# The differential flame graph picture in doc/
diff-picture: diff-demo
	cp $(BUILD)/diff-demo/diff.png doc/perfrec-diff-flamegraph.png

# hotspot's flame graph of the demo's recording, in a real window under Xvfb
hotspot-picture: demo
	$(PYTHON) scripts/perfrec_hotspot_shot.py -i $(BUILD)/demo/perf.data \
		-o doc/perfrec-hotspot.png --debug-paths $(O)/symfs/.debug --size 1280x1024 \
		--icon-theme Adwaita

# The tables of doc/develop/perfrec.rst that describe the code (the overlay's
# edits, the patch series, the cells each release runs, the packages),
# written between their marker lines from the scripts and the Makefile
# itself; test_doc_tables.py fails while one is stale
doc-tables:
	$(PYTHON) scripts/perfrec_doc_tables.py doc/develop/perfrec.rst

# --- Tests ------------------------------------------------------------------

# LOAD=1: the same with a busy loop on one core (scripts/perfrec_load.sh), as
# on a slower or busier host; the tests must not care
check:
	$(if $(LOAD),scripts/perfrec_load.sh) $(MAKE) LOAD= check-all

check-all: deps build check-host check-qemu checkpatch check-defconfig \
	check-repro check-exact check-releases check-diff-builds
	@cat $(BUILD)/releases-tested.txt
	@echo "perfrec: all checks passed"

# The default release's cells in make check: the six of EL and GIC. The two
# that vary QEMU itself (no icount: host time; -cpu max: 64-bit event
# counters) exercise perfrec's own timing and counter code, the same on
# every release: they run on the newest (doc/develop/perfrec.rst: Where each test runs)
DEFAULT_CELLS	?= el1-gicv2 el1-gicv3 el2-gicv2 el2-gicv3 el3-gicv2 el3-gicv3
check-all: CELLS = $(DEFAULT_CELLS)

# --- Releases ----------------------------------------------------------------
# make check runs these U-Boot releases (doc/develop/perfrec.rst: Releases and cells): the default
# (bookworm, 2023.01) runs DEFAULT_CELLS and the newest every cell; the one
# between (trixie, 2025.01) runs MIDDLE_CELLS and MIDDLE_EARLY_CELLS;
# MASTER_SRC=<tree or tarball> (upstream master) runs MASTER_CELLS. These two
# build the lean test build (LEAN=1), and their cells join the newest's in
# one pool (run-args). Each runs perfrec's 'ut lib' tests in its test build
# (test_perfrec_ut.py);
# sandbox runs them in check-series (CI: on master) and check-sandbox. The
# newest is NEWEST_SRC=<tree or tarball> (CI: the 2026.07 tarball), else
# Debian experimental when its source is served; when it is not, the middle
# release runs every cell in its place and make check says NOT TESTED
# (REQUIRE_NEWEST=1: fail instead).
NEWEST_SUITE	?= experimental
MIDDLE_SUITE	?= trixie
MIDDLE_CELLS	?= el2-gicv3 el1-gicv2
# The early-boot cells of the middle release: none when the newest runs
# them (a build less for CI's budget), el2-gicv3 when Debian's is the newest
MIDDLE_EARLY_CELLS ?= $(if $(NEWEST_SRC),,el2-gicv3)
NEWEST_SRC	?=
MASTER_SRC	?=
MASTER_CELLS	?= el2-gicv3 el1-gicv2
NEWEST		= $$(scripts/perfrec_newest.sh $(PYTHON) $(BUILD) $(NEWEST_SUITE) $(MIDDLE_SUITE) \
		  $(NEWEST_SRC))

check-releases:
ifeq ($(UBOOT_SRC)$(filter-out bookworm,$(UBOOT_SUITE)),)
	newest=$(NEWEST) && also= && \
	if [ "$$newest" != UBOOT_SUITE=$(MIDDLE_SUITE) ]; then \
		$(MAKE) UBOOT_SUITE=$(MIDDLE_SUITE) LEAN=1 build \
			$(if $(MIDDLE_EARLY_CELLS),build-early) || exit 1; \
		also=$$($(MAKE) -s --no-print-directory UBOOT_SUITE=$(MIDDLE_SUITE) LEAN=1 \
			CELLS="$(MIDDLE_CELLS)" EARLY_CELLS="$(MIDDLE_EARLY_CELLS)" ARM32_CELLS= \
			run-args) || exit 1; \
		tested="$${newest##*/}: all cells + early $(EARLY_CELLS)"; \
		tested="$$tested; $(MIDDLE_SUITE), lean: $(MIDDLE_CELLS)$(if \
			$(MIDDLE_EARLY_CELLS), + early $(MIDDLE_EARLY_CELLS))"; \
	else tested="$(MIDDLE_SUITE): all cells, standing in for $(NEWEST_SUITE) (NOT TESTED)"; \
	fi && \
	if [ -n "$(MASTER_SRC)" ]; then \
		$(MAKE) UBOOT_SRC=$(MASTER_SRC) LEAN=1 build || exit 1; \
		also="$$also $$($(MAKE) -s --no-print-directory UBOOT_SRC=$(MASTER_SRC) LEAN=1 \
			CELLS="$(MASTER_CELLS)" EARLY_CELLS= ARM32_CELLS= run-args)" || exit 1; \
		tested="$$tested; $(notdir $(MASTER_SRC)), lean: $(MASTER_CELLS)"; \
	fi && \
	$(MAKE) $$newest SPL_CELLS= SMALLEST_CELLS= ARM32_THUMB_CELLS= ARM32_NO_EL1_CELLS= \
		build check-qemu \
		ALSO="$$also" && \
	echo "perfrec: releases tested ('ut lib' in each one's el2-gicv3):" \
		"bookworm: $(DEFAULT_CELLS) + early $(EARLY_CELLS) + SPL $(SPL_CELLS); $$tested" \
		> $(BUILD)/releases-tested.txt
else
	@echo "perfrec: check-releases runs only for the default source" | \
		tee $(BUILD)/releases-tested.txt
endif

# make check-upstream NEWEST_SRC=<tree or tarball> MASTER_SRC=<tree or
# tarball>: the upstream releases make check cannot fetch (CI gives
# ../shared/uboot's tarballs), their cells in one pool on the lean test
# build: make check has run every cell on two releases (bookworm's and
# trixie's), so what is left to prove on these is what differs between
# releases, U-Boot's own API, which UPSTREAM_CELLS and the newest's
# early-boot cell reach ('ut lib' in el2-gicv3)
UPSTREAM_CELLS	?= el2-gicv3 el1-gicv2
UPSTREAM_EARLY_CELLS ?= el2-gicv3
# The 32-bit build's cell on each: the same code, U-Boot's API around it
UPSTREAM_ARM32_CELLS ?= arm32-pl1-max-gicv3

check-upstream: deps
	@test -n "$(NEWEST_SRC)" -a -n "$(MASTER_SRC)" || { echo "perfrec: make" \
		"check-upstream NEWEST_SRC=<tree or tarball> MASTER_SRC=<tree or tarball>"; exit 1; }
	$(MAKE) UBOOT_SRC=$(MASTER_SRC) LEAN=1 build $(if $(UPSTREAM_ARM32_CELLS),build-arm32)
	also=$$($(MAKE) -s --no-print-directory UBOOT_SRC=$(MASTER_SRC) LEAN=1 \
		CELLS="$(UPSTREAM_CELLS)" EARLY_CELLS= ARM32_CELLS="$(UPSTREAM_ARM32_CELLS)" \
		run-args) && \
	$(MAKE) UBOOT_SRC=$(NEWEST_SRC) LEAN=1 CELLS="$(UPSTREAM_CELLS)" \
		EARLY_CELLS="$(UPSTREAM_EARLY_CELLS)" SPL_CELLS= SMALLEST_CELLS= \
		ARM32_CELLS="$(UPSTREAM_ARM32_CELLS)" ARM32_THUMB_CELLS= ARM32_NO_EL1_CELLS= \
		check-qemu ALSO="$$also"
	@echo "perfrec: upstream releases tested ('ut lib' in each one's el2-gicv3), lean:" \
		"$(notdir $(NEWEST_SRC)): $(UPSTREAM_CELLS) + early $(UPSTREAM_EARLY_CELLS)" \
		"+ 32-bit $(UPSTREAM_ARM32_CELLS);" \
		"$(notdir $(MASTER_SRC)): $(UPSTREAM_CELLS) + 32-bit $(UPSTREAM_ARM32_CELLS)"

# This build's cells as perfrec_run_tests.py arguments that add them to
# another build's run: check-releases runs every release's cells in one pool
comma		:= ,
empty		:=
space		:= $(empty) $(empty)
RELEASE_NAME	= $(or $(patsubst -%,%,$(TAG)),$(UBOOT_SUITE))
run-args:
	@echo --also-build $(RELEASE_NAME) $(SRC) $(O) $(BUILD)/test-results$(TAG) \
		$(subst $(space),$(comma),$(strip $(CELLS))) \
		$(if $(EARLY_CELLS),--also-early $(RELEASE_NAME) $(SRC) $(EARLY_O) \
		$(BUILD)/test-results-early$(TAG) $(subst $(space),$(comma),$(strip $(EARLY_CELLS)))) \
		$(if $(ARM32_CELLS),--also-arm32 $(RELEASE_NAME) $(SRC) $(ARM32_O) \
		$(BUILD)/test-results-arm32$(TAG) $(subst $(space),$(comma),$(strip $(ARM32_CELLS))))

# perfrec_diff.py across two builds whose layout differs (this release's and
# MIDDLE_SUITE's: its lean test build when there is one, as make check makes
# it, else its full one): one flow, recorded on each, must match function by
# function. In make check, check-releases has just built it: no second make
# (U-Boot's make takes 7 s to find nothing to do)
DIFF_MAKE_MIDDLE ?= 1
check-all: DIFF_MAKE_MIDDLE =
check-diff-builds: deps build
ifeq ($(UBOOT_SRC)$(filter-out bookworm,$(UBOOT_SUITE)),)
	new=$(BUILD)/$(call TEST_CONFIG_OF,1)-$(MIDDLE_SUITE) lean=1; \
	test -f $$new/u-boot || new=$(BUILD)/$(call TEST_CONFIG_OF,)-$(MIDDLE_SUITE) lean=; \
	$(if $(DIFF_MAKE_MIDDLE),$(MAKE) -s UBOOT_SUITE=$(MIDDLE_SUITE) LEAN=$$lean build && )\
	$(PYTHON) scripts/perfrec_diff_builds.py --base-dir $(O) --new-dir $$new \
		--out $(BUILD)/diff-builds --check-match
else
	@echo "perfrec: check-diff-builds runs only for the default source"
endif

# Reproducible builds: 'make' again relinks nothing, and a clean build of a
# copy of the tree, in other directories, gives the same bytes. The clean
# build is of the early-boot configuration, the one build-early makes from a
# copy of the test build: the same bytes also prove that copy and U-Boot's
# incremental make exact (one clean build for both proofs)
REPRO		:= $(BUILD)/repro

check-repro: build-early
	@scripts/perfrec_repro.sh relink $(O)/u-boot $(MAKE) -s build
	rm -rf $(REPRO)
	$(MAKE) -s UBOOT_SRC=$(SRC) SRC=$(REPRO)/src O=$(REPRO)/out CONFIG=$(EARLY_CONFIG) \
		FRAGMENTS="$(EARLY_FRAGMENTS)" build >/dev/null
	scripts/perfrec_repro.sh compare $(EARLY_O) $(REPRO)/out u-boot u-boot.bin symfs/u-boot
	rm -rf $(REPRO)
	@echo "perfrec: reproducible: a clean build elsewhere gave the same u-boot, u-boot.bin," \
		"symfs as the early build made from a copy of the test build"

# The exact truth: a QEMU TCG plugin (scripts/qemu-plugin/) counts every
# instruction the guest runs. It declares the few plugin functions it uses
# itself: no QEMU source is needed. QEMU 7.2 loads plugins of API version 1.
QEMU_PLUGIN_O	:= $(BUILD)/qemu-plugin
QEMU_PLUGIN	:= $(QEMU_PLUGIN_O)/libperfrec_insn_count.so
EXACT		:= $(PYTHON) scripts/perfrec_exact_run.py --plugin $(QEMU_PLUGIN)

qemu-plugin: $(QEMU_PLUGIN)
$(QEMU_PLUGIN): scripts/qemu-plugin/perfrec_insn_count.c scripts/qemu-plugin/Makefile | deps
	$(MAKE) -s -C scripts/qemu-plugin O=$(QEMU_PLUGIN_O) PLUGIN_API_VERSION=1

# One accuracy case on QEMU virt (EL1, GICv2): a workload of at least 5000
# samples within a TVD of 0.01 of the exact counts, the whole boot within
# 0.04 (udelay's busy-wait loop counted as one function: how the period
# aliases with it is the bench table's); and the boot's counts against the
# workload's recording, which must fail the gate (the check can fail)
check-exact: deps build build-early $(QEMU_PLUGIN)
	$(EXACT) --build-dir $(O) --out $(BUILD)/check-exact/workload \
		--max-tvd 0.01 --min-samples 5000
	$(EXACT) --build-dir $(EARLY_O) --boot --out $(BUILD)/check-exact/boot --max-tvd 0.04 \
		--fold-symbols '__udelay|get_ticks'
	$(PYTHON) scripts/perfrec_exact.py compare --elf $(EARLY_O)/u-boot \
		--counts $(BUILD)/check-exact/boot/counts.txt \
		--data $(BUILD)/check-exact/workload/perf.data --symfs $(O)/symfs \
		--max-tvd 0.04 > /dev/null 2>&1; test $$? = 1
	@echo "perfrec: profiles within the exact counts' bounds (TVD 0.01 workload, 0.04 boot)"

# make perfrec-verdict: build/host/perfrec-verdict, what perfrec does on a
# board, from its DTB (tools/perfrec/perfrec_verdict.c). The device-tree rules
# are U-Boot's own C files, built for the host (USE_HOSTCC) over the shim
# headers of tools/perfrec/host/ and Debian's libfdt (linked in: the tests run
# it in the trixie chroot too); the options a board
# build would set are given here. VERDICT= and VERDICT_CFLAGS= build another
# copy (the host tests build theirs with ASan and UBSan).
HOSTCC		?= gcc
VERDICT		?= $(BUILD)/host/perfrec-verdict
VERDICT_CFLAGS	?= -O2
VERDICT_SRCS	:= tools/perfrec/perfrec_verdict.c drivers/perf/perfrec_dt.c \
		   drivers/perf/perfrec_dt_compat.c drivers/perf/perfrec_dt_irq.c \
		   drivers/perf/perfrec_bcm2836.c lib/perfrec/perfrec_boot_dt.c \
		   lib/perfrec/perfrec_irq_reason.c
VERDICT_CONFIG	:= -DCONFIG_ARM64=1 -DCONFIG_PERFREC_BOOT=1 -DCONFIG_PERFREC_GICV2=1 \
		   -DCONFIG_PERFREC_GICV3=1 -DCONFIG_PERFREC_BCM2836=1

perfrec-verdict: $(VERDICT)

$(VERDICT): $(VERDICT_SRCS) $(wildcard tools/perfrec/host/*.h tools/perfrec/host/*/*.h \
	    drivers/perf/*.h lib/perfrec/*.h include/*.h)
	@mkdir -p $(dir $@)
	$(HOSTCC) $(VERDICT_CFLAGS) -Wall -Wextra -Wno-sign-compare -Werror -DUSE_HOSTCC \
		$(VERDICT_CONFIG) -include linux/kconfig.h -Itools/perfrec/host -Iinclude \
		-Idrivers/perf -Ilib/perfrec -o $@ $(VERDICT_SRCS) -l:libfdt.a

check-host: deps
	PATH=/usr/bin:$$PATH $(PYTHON) -m pytest -p no:cacheprovider -q -n $(JOBS) test/host

# The unit tests of the perf.data writer and of perfrec's PMU-free code (report
# engine, stream rate) as U-Boot's own 'ut lib' suite, on sandbox (without
# SDL: no display needed; without link-time optimisation, U-Boot's NO_LTO=1:
# its link alone took 47 s of 2023.01's 158). Every test in
# test/lib/perf_data.c and perfrec.c must run. Not part of make check, whose
# test builds run the same suites on arm64 (test_perfrec_ut.py): a sandbox
# build costs two QEMU ones (check-series builds it on its last patch)
SANDBOX_O	:= $(BUILD)/sandbox$(TAG)
SANDBOX_MAKE	= SOURCE_DATE_EPOCH=$$(scripts/perfrec_source_date.sh $(SRC)) \
		  PATH=/usr/bin:$$PATH $(MAKE) -C $(SRC) O=$(SANDBOX_O) PYTHON3=$(PYTHON) NO_SDL=1 \
		  NO_LTO=1 $(UBOOT_NO_EXPORT_CHECK)

$(SANDBOX_O)/.config: $(SRC_STAMP) drivers/perf/Kconfig | $(OVERLAY_STAMP)
	mkdir -p $(SANDBOX_O)
	$(SANDBOX_MAKE) -s sandbox_defconfig

check-sandbox: $(SANDBOX_O)/.config $(OVERLAY_STAMP)
	$(SANDBOX_MAKE) -j$(JOBS) -s
	@scripts/perfrec_sandbox_ut.sh $(SANDBOX_O) lib perf_data_ test/lib/perf_data.c \
		test/lib/perf_data_pipe.c
	@scripts/perfrec_sandbox_ut.sh $(SANDBOX_O) lib perfrec_ test/lib/perfrec.c \
		test/lib/perfrec_hw.c

# The early-boot build: the test build's fragments plus perfrec-early.config.
# A new one starts as a copy of the test build, objects and timestamps (not
# its .config or symfs/): U-Boot's make then rebuilds only what depends on
# the early options, as it would after a change in menuconfig
EARLY_O		:= $(BUILD)/$(EARLY_CONFIG)$(TAG)
EARLY_FRAGMENTS	= $(FRAGMENTS) $(CURDIR)/configs/perfrec-early.config

build-early: build
	@test -d $(EARLY_O) || { rm -rf $(EARLY_O).tmp && cp -a $(O) $(EARLY_O).tmp && \
		rm -rf $(EARLY_O).tmp/.config $(EARLY_O).tmp/symfs && mv $(EARLY_O).tmp $(EARLY_O); }
	$(MAKE) CONFIG=$(EARLY_CONFIG) FRAGMENTS="$(EARLY_FRAGMENTS)" build

# make bench-boot's baseline: the test build with bootstage and without the
# boot or early recording (bench/variants/no-boot-recording.config), from a
# copy of the early build
BOOT_OFF_O	:= $(BUILD)/$(EARLY_CONFIG)_off$(TAG)

build-boot-off: build-early
	@test -d $(BOOT_OFF_O) || { rm -rf $(BOOT_OFF_O).tmp && cp -a $(EARLY_O) $(BOOT_OFF_O).tmp && \
		rm -rf $(BOOT_OFF_O).tmp/.config $(BOOT_OFF_O).tmp/symfs && \
		mv $(BOOT_OFF_O).tmp $(BOOT_OFF_O); }
	$(MAKE) CONFIG=$(EARLY_CONFIG)_off FRAGMENTS="$(FRAGMENTS) \
		$(CURDIR)/bench/variants/no-boot-recording.config" build

# SPL on QEMU virt, a test vehicle (configs/perfrec-spl.config): the early
# build's options, with SPL running from the flash and loading U-Boot proper
# into DRAM. perfrec-flash.bin is the flash QEMU's -bios takes (the test
# hook prefers it): SPL padded to CONFIG_SPL_PAD_TO, then u-boot.img.
# perfrec is not in SPL: 'make build-spl' says so, with SPL's size.
SPL_O		:= $(BUILD)/$(SPL_CONFIG)$(TAG)
SPL_FRAGMENTS	= $(EARLY_FRAGMENTS) $(CURDIR)/configs/perfrec-spl.config

# The smallest useful build (bench/variants/smallest.config; bench-size
# measures it): perfrec's options for any board less every part a board may
# leave out. Its own tests (test_perfrec_smallest.py) run in SMALLEST_CELLS.
SMALLEST_O	:= $(BUILD)/$(TEST_CONFIG)_smallest$(TAG)
SMALLEST_FRAGMENTS = $(PERFREC_FRAGMENT) $(CURDIR)/bench/variants/smallest.config

build-smallest: deps
	$(MAKE) CONFIG=$(TEST_CONFIG)_smallest FRAGMENTS="$(SMALLEST_FRAGMENTS)" build

build-spl: build-early
	@test -d $(SPL_O) || { rm -rf $(SPL_O).tmp && cp -a $(EARLY_O) $(SPL_O).tmp && \
		rm -rf $(SPL_O).tmp/.config $(SPL_O).tmp/symfs && mv $(SPL_O).tmp $(SPL_O); }
	$(MAKE) CONFIG=$(SPL_CONFIG) FRAGMENTS="$(SPL_FRAGMENTS)" build
	pad=$$(sed -n 's/^CONFIG_SPL_PAD_TO=//p' $(SPL_O)/.config) && \
		cp $(SPL_O)/spl/u-boot-spl.bin $(SPL_O)/perfrec-flash.bin.tmp && \
		truncate -s $$(($$pad)) $(SPL_O)/perfrec-flash.bin.tmp && \
		cat $(SPL_O)/u-boot.img >> $(SPL_O)/perfrec-flash.bin.tmp && \
		mv $(SPL_O)/perfrec-flash.bin.tmp $(SPL_O)/perfrec-flash.bin
	@! $(CROSS_COMPILE)nm $(SPL_O)/spl/u-boot-spl | grep -qi perfrec
	@echo "perfrec: built $(SPL_O)/perfrec-flash.bin (SPL $$(stat -c %s \
		$(SPL_O)/spl/u-boot-spl.bin) bytes, without perfrec, then u-boot.img)"

# CELLS: the QEMU configurations to run (default: all, scripts/perfrec_run_tests.py)
CELLS		?=
EARLY_CELLS	?= el1-gicv2 el2-gicv3

# The SPL test vehicle's cells (build-spl; perfrec_run_tests.py's SPL_K):
# make check runs one on the default release and none on the newest (a
# third build there would take CI's budget); check-qemu alone runs it on
# any release
SPL_CELLS	?= el2-gicv3
# The smallest build's cells, on the default release as SPL's: at EL2 with a
# GICv3 its tests, at EL1 the refusal of an EL it leaves out
SMALLEST_CELLS	?= el2-gicv3 el1-gicv3
# The 32-bit Arm build (qemu_arm_defconfig, in ARM state) and its cells on
# QEMU virt through qemu-system-arm (scripts/perfrec_run_tests.py's
# ARM32_CELLS: its tests, test_perfrec_arm32.py), with perfrec.config but
# not the test command (configs/perfrec-test-cmd.config), whose workloads are
# AArch64 code
ARM32_CONFIG	:= qemu_arm_perfrec
ARM32_O		:= $(BUILD)/$(ARM32_CONFIG)$(TAG)
ARM32_FRAGMENTS	:= $(CURDIR)/configs/perfrec-board.config $(CURDIR)/configs/perfrec.config
ARM32_CELLS	?= arm32-pl1-a15 arm32-pl1-a7 arm32-secure-a7 arm32-pl1-max-gicv3 arm32-hyp-max
# The same in Thumb-2 (SYS_THUMB_BUILD, as most 32-bit boards): one cell, on
# the default release; its tests expect -g refused
ARM32_THUMB_O	:= $(BUILD)/$(ARM32_CONFIG)_thumb$(TAG)
ARM32_THUMB_CELLS ?= arm32-pl1-max-gicv3
# The same less SVC mode (configs/perfrec-arm-no-el1.config), run in SVC
# mode, where it must refuse in one line and touch none of SVC mode's
# registers: its cell runs that test alone (perfrec_run_tests.py's
# ARM32_EL_K). It starts as a copy of the 32-bit build (as build-spl of
# build-early's), so U-Boot's make rebuilds only what CONFIG_PERFREC_EL1
# changes; on the default release, as the Thumb-2 build
ARM32_NO_EL1_O	:= $(BUILD)/$(ARM32_CONFIG)_no_el1$(TAG)
ARM32_NO_EL1_CELLS ?= arm32-pl1-max-gicv3
ARM32_SHARED_O	:= $(ARM32_O) $(ARM32_NO_EL1_O)

build-arm32: deps
	$(MAKE) BASE_DEFCONFIG=qemu_arm_defconfig CONFIG=$(ARM32_CONFIG) \
		CROSS_COMPILE=arm-linux-gnueabihf- FRAGMENTS="$(ARM32_FRAGMENTS)" build

build-arm32-thumb: deps
	$(MAKE) BASE_DEFCONFIG=qemu_arm_defconfig CONFIG=$(ARM32_CONFIG)_thumb \
		CROSS_COMPILE=arm-linux-gnueabihf- \
		FRAGMENTS="$(ARM32_FRAGMENTS) $(CURDIR)/configs/perfrec-arm-thumb.config" build

build-arm32-no-el1: build-arm32
	@test -d $(ARM32_NO_EL1_O) || { rm -rf $(ARM32_NO_EL1_O).tmp && \
		cp -a $(ARM32_O) $(ARM32_NO_EL1_O).tmp && \
		rm -rf $(ARM32_NO_EL1_O).tmp/.config $(ARM32_NO_EL1_O).tmp/symfs && \
		mv $(ARM32_NO_EL1_O).tmp $(ARM32_NO_EL1_O); }
	$(MAKE) BASE_DEFCONFIG=qemu_arm_defconfig CONFIG=$(ARM32_CONFIG)_no_el1 \
		CROSS_COMPILE=arm-linux-gnueabihf- \
		FRAGMENTS="$(ARM32_FRAGMENTS) $(CURDIR)/configs/perfrec-arm-no-el1.config" build

# The 32-bit cells alone, for quick iterations (make check runs them in check-qemu)
check-arm32: build-arm32 $(VERDICT) $(if $(ARM32_NO_EL1_CELLS),build-arm32-no-el1)
	$(PYTHON) scripts/perfrec_run_tests.py --real-only --also-arm32 $(RELEASE_NAME) $(SRC) \
		$(ARM32_O) $(BUILD)/test-results-arm32$(TAG) \
		$(subst $(space),$(comma),$(strip $(ARM32_CELLS))) \
		$(if $(ARM32_NO_EL1_CELLS),--also-arm32 $(RELEASE_NAME)-no-el1 $(SRC) \
		$(ARM32_NO_EL1_O) $(BUILD)/test-results-arm32-no-el1$(TAG) \
		$(subst $(space),$(comma),$(strip $(ARM32_NO_EL1_CELLS))))

# The test build's tests: not the early build's or the SPL vehicle's
MAIN_K		:= not perfrec_early and not perfrec_spl
# EARLY_CELLS= (empty): no early-boot build and cells
# (the early-boot cells in the same pool of cells at once)
# ALSO: other builds' cells for the same pool (run-args)
ALSO		?=
check-qemu: deps build $(VERDICT) $(if $(EARLY_CELLS),build-early) $(if $(SPL_CELLS),build-spl) \
	$(if $(SMALLEST_CELLS),build-smallest) $(if $(ARM32_CELLS),build-arm32) \
	$(if $(ARM32_THUMB_CELLS),build-arm32-thumb) $(if $(ARM32_NO_EL1_CELLS),build-arm32-no-el1)
	$(PYTHON) scripts/perfrec_run_tests.py --src $(SRC) --build-dir $(O) \
		--result-dir $(BUILD)/test-results$(TAG) -k '$(MAIN_K)' \
		$(foreach c,$(CELLS),--cell $(c)) \
		$(if $(EARLY_CELLS),--early-build-dir $(EARLY_O) \
		--early-result-dir $(BUILD)/test-results-early$(TAG) \
		$(foreach c,$(EARLY_CELLS),--early-cell $(c))) \
		$(if $(SPL_CELLS),--also-spl $(RELEASE_NAME) $(SRC) $(SPL_O) \
		$(BUILD)/test-results-spl$(TAG) $(subst $(space),$(comma),$(strip $(SPL_CELLS)))) \
		$(if $(SMALLEST_CELLS),--also-smallest $(RELEASE_NAME) $(SRC) $(SMALLEST_O) \
		$(BUILD)/test-results-smallest$(TAG) \
		$(subst $(space),$(comma),$(strip $(SMALLEST_CELLS)))) \
		$(if $(ARM32_CELLS),--also-arm32 $(RELEASE_NAME) $(SRC) $(ARM32_O) \
		$(BUILD)/test-results-arm32$(TAG) $(subst $(space),$(comma),$(strip $(ARM32_CELLS)))) \
		$(if $(ARM32_THUMB_CELLS),--also-arm32 $(RELEASE_NAME)-thumb $(SRC) \
		$(ARM32_THUMB_O) $(BUILD)/test-results-arm32-thumb$(TAG) \
		$(subst $(space),$(comma),$(strip $(ARM32_THUMB_CELLS)))) \
		$(if $(ARM32_NO_EL1_CELLS),--also-arm32 $(RELEASE_NAME)-no-el1 $(SRC) \
		$(ARM32_NO_EL1_O) $(BUILD)/test-results-arm32-no-el1$(TAG) \
		$(subst $(space),$(comma),$(strip $(ARM32_NO_EL1_CELLS)))) \
		$(ALSO)

# The slow tier: 1000 back-to-back sessions and 50000 fuzz cases per parser
# (make check runs 48 and 2000)
soak: deps build $(VERDICT)
	PATH=/usr/bin:$$PATH PERFREC_FUZZ_CASES=50000 $(PYTHON) -m pytest -p no:cacheprovider -q \
		test/host/test_fuzz.py
	PERFREC_SOAK_RUNS=1000 $(PYTHON) scripts/perfrec_run_tests.py --src $(SRC) --build-dir $(O) \
		--result-dir $(BUILD)/test-results-soak$(TAG) --cell el2-gicv3 --cell el3-gicv3 \
		-k 'test_perfrec_integrity'

# One cell only, for quick iterations: make check-qemu-fast CELL=el2-gicv3
check-qemu-fast: deps build $(VERDICT)
	$(PYTHON) scripts/perfrec_run_tests.py --src $(SRC) --build-dir $(O) \
		--result-dir $(BUILD)/test-results$(TAG) --cell $(or $(CELL),el1-gicv2) \
		-k "$(or $(K),$(MAIN_K))"

# U-Boot's .checkpatch.conf applies (--strict --u-boot --no-tree), plus:
#  CAMELCASE: GICD_ISENABLERn & co. are <asm/gic.h>'s names, unseen with --no-tree
#  CMD_TEST: warns on every do_*() whatever the tests; ours is test_perfrec.py
#  MACRO_ARG_REUSE: arm64/perfrec_arch.h generates accessors from register-name tokens
#  LIVETREE: perfrec_fdt.c fixes up the OS's flat tree with
#	fdtdec_add_reserved_memory(), which has no ofnode counterpart in 2023.01
PERFREC_SOURCES	= $(addprefix $(SRC)/,$(shell ls cmd/*.[chS] drivers/perf/*.[chS] \
			drivers/perf/Makefile drivers/perf/Kconfig drivers/perf/arm64/*.[chS] \
			drivers/perf/arm/*.[chS] drivers/perf/arm/Makefile \
			drivers/perf/arm64/Makefile include/*.h lib/perf_data*.[ch] \
			lib/perfrec/*.[ch] lib/perfrec/Makefile test/lib/*.[ch]))

# Kept, by file and type (as perfrec_series_check.py's ACCEPTED):
#  test/lib/perfrec_hw.c PREFER_IF: sandbox's memio switch, for the BCM2836
#	test's registers in memory, is declared in sandbox's <asm/test.h> only
#  cmd/perfrec.c PREFER_IF: the help names only what the build has, and a
#	string literal cannot be an if () (cmd/mmc.c's help does the same)
#  drivers/perf/pmuv3_events.c PREFER_IF: the event table builds for the
#	host too (USE_HOSTCC), where there is no IS_ENABLED()
CHECKPATCH_KEPT	= /(test/lib/perfrec_hw|cmd/perfrec|drivers/perf/pmuv3_events)\.c:[0-9]+: \
		  WARNING:PREFER_IF:

checkpatch: $(OVERLAY_STAMP)
	cd $(SRC) && printf '%s\n' $(PERFREC_SOURCES) | xargs -P $(JOBS) -n 5 \
		./scripts/checkpatch.pl --terse --show-types \
		--ignore CAMELCASE,CMD_TEST,MACRO_ARG_REUSE,LIVETREE -f \
		>$(BUILD)/checkpatch.out 2>&1; \
	if grep -E ': (ERROR|WARNING|CHECK):' $(BUILD)/checkpatch.out | \
		grep -Ev '$(CHECKPATCH_KEPT)'; then exit 1; fi
	@echo "perfrec: checkpatch clean"

# --- The upstream form: a patch series, and real boards ----------------------

# make patches: perfrec as a git format-patch series for the newest release
# (or UBOOT_SRC=<tree>) in build/patches; make check-series proves it (git am,
# the whole series equal to the overlaid tree, every patch built for
# qemu_arm64, the whole series for sandbox with its ut tests, checkpatch per
# patch, kernel-doc, Sphinx, pylint)
# SERIES_SRC=<tree or tarball>: write and check it for that tree instead
# (CI: upstream master, where patches go). A tarball's base is a pristine
# unpacked copy, not the overlaid tree.
SERIES_SRC	?=
# SERIES_SUITE=<Debian suite>: for that release's source package instead
SERIES_SUITE	?=
# SERIES_NO_BUILD=1: every check but the build at every patch
SERIES_NO_BUILD	?=
# The fragment merged onto sandbox_defconfig for the last patch's sandbox
# build (U-Boot's drivers and commands that perfrec's 'ut lib' tests never
# reach left out: 106 s against 254 s on master); SERIES_SANDBOX_FRAGMENT= (empty)
# builds sandbox_defconfig as it is
SERIES_SANDBOX_FRAGMENT ?= $(CURDIR)/configs/perfrec-sandbox-ut.config
SERIES_BASE	= $(if $(UBOOT_TARBALL),$(BUILD)/series/base-$(UBOOT_NAME),$(if \
		  $(UBOOT_SRC),$(abspath $(UBOOT_SRC)),$(BUILD)/series/base-$(UBOOT_SUITE)))
SERIES_STAMP	= $(if $(UBOOT_TARBALL),$(SERIES_BASE)/.perfrec-uboot-tarball,$(if \
		  $(UBOOT_SRC),$(UBOOT_SRC)/Kbuild,$(SERIES_BASE)/.perfrec-uboot-source))
SERIES_WORK	= $(BUILD)/series/work$(TAG)
SERIES_TREE	= $(if $(SERIES_SRC),UBOOT_SRC=$(SERIES_SRC),$(if \
		  $(SERIES_SUITE),UBOOT_SUITE=$(SERIES_SUITE),$(NEWEST)))

patches:
	tree=$(SERIES_TREE) && $(MAKE) $$tree series-write

check-series:
	tree=$(SERIES_TREE) && $(MAKE) $$tree series-write series-check

$(BUILD)/series/base-%/.perfrec-uboot-source:
	$(PYTHON) scripts/perfrec_get_uboot.py --suite $* --apt-dir $(BUILD)/apt/$* \
		--dest $(BUILD)/series/base-$*

ifneq ($(UBOOT_TARBALL),)
$(BUILD)/series/base-$(UBOOT_NAME)/.perfrec-uboot-tarball: $(UBOOT_TARBALL)
	$(PYTHON) scripts/perfrec_unpack_uboot.py $(UBOOT_TARBALL) --dest $(SERIES_BASE)
endif

series-write: $(SERIES_STAMP)
	$(PYTHON) scripts/perfrec_series.py write --base $(SERIES_BASE) --work $(SERIES_WORK) \
		--out $(BUILD)/patches

# A tarball's tree first: make ubootversion in it leaves it byte for byte
# as unpacked, so the series' diff against it holds nothing else
series-check: $(OVERLAY_STAMP)
	$(if $(UBOOT_TARBALL),env -u MAKEFLAGS -u MAKELEVEL PATH=/usr/bin:$$PATH \
		make -s -C $(SERIES_BASE) ubootversion >/dev/null && \
		$(PYTHON) scripts/perfrec_unpack_uboot.py $(UBOOT_TARBALL) --dest $(SERIES_BASE) --verify)
	$(PYTHON) scripts/perfrec_series_check.py check --base $(SERIES_BASE) --work $(SERIES_WORK) \
		--out $(BUILD)/patches --fragments $(FRAGMENTS) -j $(JOBS) --overlaid $(SRC) \
		$(if $(SERIES_SANDBOX_FRAGMENT),--sandbox-fragment $(SERIES_SANDBOX_FRAGMENT)) \
		$(if $(SERIES_NO_BUILD),--no-build)

# make check-boards: CI's one board stage, on the newest release. The boards
# the QEMU cells boot (BOOT_BOARDS: the Raspberry Pi and Versal configs,
# which QEMU models as raspi3b/4b and xlnx-versal-virt), built with the
# tests' fragments, made here once and reused by check-real-boards and
# check-lab; then make board's own path (the user's fragment, its one line,
# the DTB verdict) on BOARDS: the i.MX8M with its SPL, built through the top
# and drivers/ Makefiles that perfrec edits (drivers/perf/ must stay out of
# it), a 32-bit Allwinner board with its SPL and a Rockchip one with TPL
BOOT_BOARDS	?= rpi_arm64 xilinx_versal_virt
BOARDS		?= imx8mp_evk orangepi_pc rock64-rk3328

check-boards: deps
	newest=$(NEWEST) && \
	for b in $(BOOT_BOARDS); do \
		$(MAKE) $$newest BASE_DEFCONFIG=$${b}_defconfig CONFIG=board_$$b \
			FRAGMENTS="$(BOARD_FRAGMENTS)" \
			UBOOT_FLAGS=BINMAN_ALLOW_MISSING=1 board-build || exit 1; \
	done && \
	for b in $(BOARDS); do \
		$(MAKE) -s --no-print-directory $$newest BOARD=$${b}_defconfig board || exit 1; \
	done
	@echo "perfrec: built into $(BOOT_BOARDS) $(BOARDS)"

# The build directory of the variables given (for the shell)
o-dir:
	@echo $(O)

# One board: configure, check that perfrec's options stuck, build, and find
# the command in the image, and none of perfrec in its SPL; an Allwinner
# board's SD card image (scripts/perfrec_sd_image.py)
board-build: $(O)/.config $(OVERLAY_STAMP)
	$(UBOOT_MAKE) -j$(JOBS) -s >$(O)/build.log 2>&1 || { tail -30 $(O)/build.log; exit 1; }
	$(CROSS_COMPILE)nm $(O)/u-boot | grep -q ' do_perfrec$$' || \
		{ echo "perfrec: $(O)/u-boot has no do_perfrec"; exit 1; }
	@! { test -f $(O)/spl/u-boot-spl && $(CROSS_COMPILE)nm $(O)/spl/u-boot-spl | \
		grep -E ' (perf_data|perfrec)_'; } || \
		{ echo "perfrec: $(O)/spl/u-boot-spl has perfrec's code"; exit 1; }
	@echo "perfrec: $(BASE_DEFCONFIG) with perfrec on U-Boot $(UBOOT_VERSION):" \
		"$$(stat -c %s $(O)/u-boot.bin) bytes"
	@$(PYTHON) scripts/perfrec_sd_image.py $(O) | sed 's/^/perfrec: SD card image: /'

# make board BOARD=<name>_defconfig: perfrec built into a board's own
# defconfig (scripts/perfrec_board.py), in build/board/<name>/ with its
# symfs, ending in one line of what it costs; DTB=<file> for a board whose
# tree comes from its firmware; UBOOT_FLAGS for the board's blobs (BL31=...)
BOARD		?=
BOARD_DIR	= $(BUILD)/board/$(patsubst %_defconfig,%,$(BOARD))$(TAG)

board: deps $(OVERLAY_STAMP) $(VERDICT)
	@test -n "$(BOARD)" || { echo "perfrec: give the board as BOARD=<name>_defconfig"; exit 2; }
	$(PYTHON) scripts/perfrec_board.py --src $(SRC) --out $(BOARD_DIR) --defconfig $(BOARD) \
		--fragment $(CURDIR)/configs/perfrec-board.config --jobs $(JOBS) --verdict $(VERDICT) \
		$(foreach f,BINMAN_ALLOW_MISSING=1 $(UBOOT_FLAGS),--uboot-flag $(f)) \
		$(if $(DTB),--dtb $(abspath $(DTB)))

# make check-board-builds: every arm64 and armhf target of the newest Debian
# release's u-boot (its debian/targets.mk) built with perfrec on that
# release's source (scripts/perfrec_board_builds.py), one result file a board
# in test/boards/, resumable: a rerun builds only the boards whose result is
# stale (ONLY="<target> ...": just those). The results' table goes into
# doc/develop/perfrec-boards.rst (make board-table; a host test compares)
BOARD_BUILDS_SUITE ?= trixie
BOARD_RESULTS	:= $(CURDIR)/test/boards
BOARD_PAGE	:= doc/develop/perfrec-boards.rst

check-board-builds: deps $(VERDICT)
	$(MAKE) UBOOT_SUITE=$(BOARD_BUILDS_SUITE) UBOOT_SRC= overlay
	$(PYTHON) scripts/perfrec_board_builds.py build --src $(BUILD)/uboot/$(BOARD_BUILDS_SUITE) \
		--results $(BOARD_RESULTS) --work $(BUILD)/board-builds --jobs $(JOBS) \
		--verdict $(VERDICT) \
		--ccache $(BUILD)/ccache \
		$(foreach b,$(ONLY),--only $(b))
	$(MAKE) board-table

board-table:
	$(PYTHON) scripts/perfrec_board_builds.py table --results $(BOARD_RESULTS) $(BOARD_PAGE)

# make lab-host: a Debian trixie chroot with trixie-backports' QEMU 11, perf
# 7.3 and labgrid 26, made once (scripts/perfrec_lab_host.py). A test tool:
# bookworm stays the host everything else runs on
LAB_HOST	:= $(BUILD)/lab-host

lab-host: deps
	$(PYTHON) scripts/perfrec_lab_host.py --dest $(LAB_HOST) make

# make check-real-boards: real boards' defconfigs (with configs/perfrec-board.config)
# booted on QEMU's models of their SoCs with the boards' own device trees, on
# the newest release (check-boards' builds), their test_perfrec_real_* tests in one
# pool (scripts/perfrec_run_tests.py's board cells), on bookworm's QEMU 7.2
# and the chroot's QEMU 11 (-qemu11 cells, raspi4b), perf 6.1 and 7.3
# judging each recording. A board's build is check-boards' own (the same
# CONFIG and FRAGMENTS): made once, reused. test/real: a board that does not
# boot says why in one line (no device tree, a QEMU without the machine),
# and the chroot has its tools and leaves no mount behind after a SIGINT.
# Last, perf 7.3 reads again every recording the tests saved, make check's
# on QEMU virt included (perfrec_perf_versions.py: none made again), and
# must name what perf 6.1 names for every sample and chain entry.
# REAL_BOARDS: <defconfig without _defconfig>[:arm]=<cell>,<cell>... (:arm: a
# 32-bit board, built with arm-linux-gnueabihf- and without the test command,
# as the 32-bit test build). An Allwinner board boots from the SD card image
# its build writes (scripts/perfrec_sd_image.py), SPL first. A board's own
# configs/perfrec-board-test-<defconfig>.config, if any, is merged last: what
# QEMU's model needs that the board does not (rpi_2's text base).
REAL_BOARDS	?= rpi_arm64=raspi3b,raspi3b-qemu11,raspi4b xilinx_versal_virt=versal,versal-qemu11 \
		   vexpress_ca9x4:arm=vexpress-a9,vexpress-a9-qemu11 \
		   xilinx_zynq_virt:arm=xilinx-zynq-a9,xilinx-zynq-a9-qemu11 \
		   orangepi_pc:arm=orangepi-pc,orangepi-pc-qemu11 Bananapi_M2_Ultra:arm=bpim2u \
		   rpi_2:arm=raspi2b,raspi2b-qemu11

check-real-boards: deps lab-host $(VERDICT)
	newest=$(NEWEST) && also= && \
	for args in $$newest; do \
		for bc in $(REAL_BOARDS); do \
			b=$${bc%%=*}; cc=$(CROSS_COMPILE); fr="$(BOARD_FRAGMENTS)"; \
			case $$b in *:arm) b=$${b%:arm}; cc=arm-linux-gnueabihf-; \
				fr="$(ARM32_FRAGMENTS) $(CURDIR)/configs/perfrec-board-test.config";; \
			esac; \
			own=$(CURDIR)/configs/perfrec-board-test-$$b.config; \
			if [ -f $$own ]; then fr="$$fr $$own"; fi; \
			$(MAKE) $$args BASE_DEFCONFIG=$${b}_defconfig CONFIG=board_$$b \
				CROSS_COMPILE=$$cc FRAGMENTS="$$fr" \
				UBOOT_FLAGS=BINMAN_ALLOW_MISSING=1 board-build || exit 1; \
			also="$$also $$($(MAKE) -s --no-print-directory $$args CONFIG=board_$$b \
				REAL_CELL=$${bc#*=} real-args)" || exit 1; \
		done; \
	done && \
	PERFREC_REAL_RPI_BUILD=$$($(MAKE) -s --no-print-directory $$newest CONFIG=board_rpi_arm64 \
		o-dir) PERFREC_LAB_HOST=$(LAB_HOST) \
		PATH=/usr/bin:$$PATH $(PYTHON) -m pytest -p no:cacheprovider -q test/real && \
	$(PYTHON) scripts/perfrec_lab_host.py --dest $(LAB_HOST) run --bind $(BUILD) -- \
		$(PYTHON) scripts/perfrec_run_tests.py --real-only $$also
	@echo "perfrec: real boards booted and recorded: $(REAL_BOARDS)"
	$(PYTHON) scripts/perfrec_lab_host.py --dest $(LAB_HOST) run --bind $(BUILD) -- \
		$(PYTHON) scripts/perfrec_perf_versions.py --results $(BUILD)/test-results* \
		--builds $(BUILD) -j $(JOBS)

# make check-lab: perfrec_lab.py on a real labgrid lab on loopback
# (scripts/perfrec_loopback_lab.py: labgrid 26's coordinator, exporter with
# ser2net, and pdudaemon, from the chroot, in a network namespace of its own
# with only lo): boards on QEMU 11 from make build and the default release's
# board builds on the newest release (check-boards' own), recorded, gated against baselines
# recorded in the same run with a regression planted on one board, the
# faults (a board that never reaches its prompt, a console that drops bytes
# in a dump, a place held by someone else), U-Boot's test/py through
# labgrid hooks, SIGINT at three points, and the teardown check after each.
# whole-boot recordings gated (the early-boot build). Its report (--jobs 1
# and 2 times, the margin without -icount):
# build/lab-run/report.txt. Budget: 10 minutes on 2 cores
LAB_RUN		:= $(BUILD)/lab-run
LAB_BOARDS	?= rpi_arm64 xilinx_versal_virt

check-lab: deps lab-host build-early
	newest=$(NEWEST) && \
	for b in $(LAB_BOARDS); do \
		$(MAKE) $$newest BASE_DEFCONFIG=$${b}_defconfig CONFIG=board_$$b \
			FRAGMENTS="$(BOARD_FRAGMENTS)" UBOOT_FLAGS=BINMAN_ALLOW_MISSING=1 \
			board-build || exit 1; \
	done && \
	rm -rf $(LAB_RUN) && \
	PERFREC_LAB_RPI=$$($(MAKE) -s --no-print-directory $$newest CONFIG=board_rpi_arm64 o-dir) \
	PERFREC_LAB_VERSAL=$$($(MAKE) -s --no-print-directory $$newest \
		CONFIG=board_xilinx_versal_virt o-dir) \
	PERFREC_LAB_UBOOT_SRC=$(SRC) $(PYTHON) scripts/perfrec_lab_host.py --dest $(LAB_HOST) \
		run --bind $(CURDIR) -- unshare -n -- $(PYTHON) -m pytest -p no:cacheprovider \
		-q test/lab
	@cat $(LAB_RUN)/report.txt

# One board build's cell as perfrec_run_tests.py arguments
real-args:
	@echo --also-build $(RELEASE_NAME) $(SRC) $(O) $(BUILD)/test-results-real$(TAG) \
		$(REAL_CELL)

# --- Benchmarks ---------------------------------------------------------------

bench: deps build build-arm32 bench-size bench-exact
	$(PYTHON) bench/perfrec_bench.py --build-dir $(O) --doc doc/develop/perfrec.rst \
		--size-json $(BUILD)/bench-size$(TAG).json --arm32-build-dir $(ARM32_O)

# perfrec's profiles against QEMU's count of every instruction (a TCG plugin)
bench-exact: deps build build-early $(QEMU_PLUGIN)
	$(PYTHON) bench/perfrec_exact_bench.py --build-dir $(O) --early-dir $(EARLY_O) \
		--plugin $(QEMU_PLUGIN) --out $(BUILD)/bench-exact --doc doc/develop/perfrec.rst

# What recording the whole boot costs: instructions to the prompt, with and without
# (and the walk of a larger tree: a Raspberry Pi 3 B's, rpi_arm64_defconfig)
bench-boot: deps build-early build-boot-off $(QEMU_PLUGIN)
	$(MAKE) BASE_DEFCONFIG=rpi_arm64_defconfig CONFIG=board_rpi_arm64 \
		FRAGMENTS="$(BOARD_FRAGMENTS)" UBOOT_FLAGS=BINMAN_ALLOW_MISSING=1 board-build
	$(PYTHON) bench/perfrec_boot_bench.py --build-dir $(EARLY_O) --off-dir $(BOOT_OFF_O) \
		--plugin $(QEMU_PLUGIN) --rpi-dir $(BUILD)/board_rpi_arm64 \
		--doc doc/develop/perfrec.rst

# perfrec_diff.py on two 100000-sample -g recordings: time and memory
bench-diff: deps build
	$(PYTHON) bench/perfrec_diff_bench.py --build-dir $(O) --out $(BUILD)/bench-diff \
		--doc doc/develop/perfrec.rst

# What the optional parts cost: the build without each (bench/variants/)
SIZE_VARIANTS	:= no-frame-pointers no-callchain no-report no-stat no-events no-stream \
		   no-test-command no-build-id with-boot smallest no-perfrec

# The instrumentation anchor, U-Boot's function tracer: FTRACE=1 and
# CONFIG_TRACE on a release that links it on arm64 (2023.01 does not)
TRACER_SUITE	?= trixie

# The full build and its variants have perfrec's options, not the test
# build's unit tests (a user's build)
bench-size: deps
	for v in user $(SIZE_VARIANTS); do \
		$(MAKE) CONFIG=$(CONFIG)_$$v FRAGMENTS="$(PERFREC_FRAGMENT) \
			$$(test $$v = user || echo $(CURDIR)/bench/variants/$$v.config)" build || exit 1; \
	done
	$(MAKE) UBOOT_SUITE=$(TRACER_SUITE) UBOOT_SRC= CONFIG=$(CONFIG)_user \
		FRAGMENTS="$(PERFREC_FRAGMENT)" build
	$(MAKE) UBOOT_SUITE=$(TRACER_SUITE) UBOOT_SRC= CONFIG=$(CONFIG)_ftrace UBOOT_FLAGS=FTRACE=1 \
		FRAGMENTS="$(PERFREC_FRAGMENT) $(CURDIR)/bench/variants/ftrace.config" build
	$(PYTHON) bench/perfrec_size.py --full $(BUILD)/$(CONFIG)_user$(TAG) --doc doc/develop/perfrec.rst \
		$(foreach v,$(SIZE_VARIANTS),--variant $(v)=$(BUILD)/$(CONFIG)_$(v)$(TAG)) \
		--tracer $(BUILD)/$(CONFIG)_user-$(TRACER_SUITE)=$(BUILD)/$(CONFIG)_ftrace-$(TRACER_SUITE) \
		--json $(BUILD)/bench-size$(TAG).json

clean:
	rm -rf $(O) $(EARLY_O) $(SANDBOX_O) $(BUILD)/test-results$(TAG) $(BUILD)/demo $(BUILD)/diff-demo \
		$(BUILD)/test-results-smallest$(TAG) \
		$(BUILD)/diff-builds \
		$(foreach v,user $(SIZE_VARIANTS),$(BUILD)/$(CONFIG)_$(v)$(TAG)) \
		$(BUILD)/$(CONFIG)_user-$(TRACER_SUITE) $(BUILD)/$(CONFIG)_ftrace-$(TRACER_SUITE) \
		$(BUILD)/bench-size$(TAG).json

distclean:
	rm -rf $(BUILD) tools/perfrec/flamegraph/node_modules
