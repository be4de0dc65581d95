# SPDX-License-Identifier: GPL-2.0
# provoke-crash: the module, the tool and the tests.
#
#   make                 module (against KDIR) and the tool
#   make module          module only
#   make tools           tools/provoke-crash
#   make unit            parser unit tests, in user space
#   make check-unit      no guest, seconds: the parser's unit tests, the host
#                        engine's (engine/: verdicts, console protocol, KTAP
#                        on saved consoles) and pyflakes on engine/
#   make check           the whole QEMU bench (tests/run)
#   make check-long      the same, with every crash type on every kernel
#                        (6.12, Debian's rt 6.1 and 6.12, arm64 6.1 and
#                        6.12, the debug kernel, sid's 7.2, 7.2-rt and
#                        arm64-7.2), the whole matrix on each,
#                        the clang kernel's cases and
#                        the kdump lane's every type on each kernel
#                        (arm64: 6.1 only; hours under TCG)
#   make checkpatch      checkpatch.pl --strict over our C sources
#   make protocol        the console protocol's C and sh views for the guest
#                        (guest/pc_protocol.h, pc-protocol.sh), from
#                        engine/pcengine/protocol.py's table
#   make check-shell     shellcheck -x over every shell file of the tree
#                        (engine/pcengine/lint_shell.py; seconds, no guest)
#   make bench           what a crash point that does not fire costs, in an
#                        icount guest (engine/pcengine/costbench.py; reports,
#                        no verdict)
#   make stress          the arm/disarm race at 10,000 cycles (about 25
#                        minutes per kernel under TCG; not part of check)
#   make docs            the crash-type table and the LKDTM names table in
#                        Documentation/provoke-crash/ (crash-types.rst,
#                        lkdtm.rst)
#   make vm              one crash in a throw-away VM (tools/provoke-crash-vm)
#   make debug-kernel    build the bench's KASAN/lockdep 6.12 kernel into
#                        ~/.cache/provoke-crash (or find it there) and say
#                        where it is; PC_KERNELS=debug tests/run uses it
#   make clang-kernel    the same for the clang 19 kernel (kCFI, counted_by):
#                        PC_KERNELS=clang tests/run
#   make arm64           module and tool for arm64 (Debian's arm64 6.1
#                        headers fetched into build/arm64-root, cross gcc)
#   make ARCH=arm64 KDIR=<arm64 headers>  the same against any arm64 tree
#   make install         module (to /lib/modules/KVER/extra, then depmod),
#                        tool, man page, bash completion
#   make uninstall       remove them again (same KVER, PREFIX, DESTDIR)
KVER ?= $(shell uname -r)
KDIR ?= /lib/modules/$(KVER)/build
PREFIX ?= /usr/local
DESTDIR ?=
CHECKPATCH ?= scripts/checkpatch.pl
CFLAGS ?= -O2
TOOL_CFLAGS = $(CFLAGS) -Wall -Wextra -Werror -Iinclude
# ARCH=arm64 cross-builds: kbuild reads ARCH and CROSS_COMPILE from the
# command line, the tool is built with the same cross compiler.
ifeq ($(ARCH),arm64)
CROSS_COMPILE ?= aarch64-linux-gnu-
export CROSS_COMPILE
TOOL_CC = $(CROSS_COMPILE)gcc
else
TOOL_CC = $(CC)
endif

C_SOURCES = $(filter-out %.mod.c,$(wildcard module/*.c module/*.h \
		module/crashes/*.c include/*.h tools/*.c tools/*.h \
		guest/*.c tests/unit/*.c tests/bench/empty_kprobe/*.c \
		tests/paths/*.c tests/race/*.c))

all: module tools

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module modules

tools: tools/provoke-crash

# The tool checks an arm line with the module's own parser.
TOOL_SOURCES = tools/provoke-crash.c tools/checks.c tools/symbols.c module/parse.c \
	       module/parse_compare.c module/parse_caller.c

tools/provoke-crash: $(TOOL_SOURCES) tools/checks.h tools/symbols.h include/provoke_crash_types.h \
		     include/provoke_crash_parse.h module/parse_private.h \
		     include/provoke_crash_arm64.h \
		     include/provoke_crash_lockups.h \
		     include/provoke_crash_refcount.h \
		     include/provoke_crash_defs.h
	$(TOOL_CC) $(TOOL_CFLAGS) -o $@ $(TOOL_SOURCES)

unit:
	$(MAKE) -C tests/unit
	tests/unit/parse_test
	tests/unit/compare_test

# Debian's python3 and python3-pyflakes (pyflakes3).
PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
PYFLAKES ?= pyflakes3
# The host engine's commands (engine/pcengine/).
ENGINE = PYTHONPATH=$(CURDIR)/engine $(PYTHON) -P -m
check-unit: unit
	cd engine && PYTHONDONTWRITEBYTECODE=1 $(PYTHON) -m unittest discover -s tests -t tests
	$(PYFLAKES) engine tools/provoke-crash-vm

check-shell:
	$(ENGINE) pcengine.lint_shell

protocol:
	cd engine && $(PYTHON) -m pcengine.protocol --c >../guest/pc_protocol.h
	cd engine && $(PYTHON) -m pcengine.protocol --sh >../guest/pc-protocol.sh

check:
	tests/run

check-long:
	PC_KERNELS="6.1 5.10 6.12 6.1-rt 6.12-rt arm64-6.1 arm64-5.10 arm64-6.12 debug clang 7.2 7.2-rt arm64-7.2" \
		PC_ARM64_SCOPE=full \
		PC_DEBUG_SCOPE=full PC_KDUMP_SCOPE=full PC_X86_SCOPE=full \
		PC_MATRIX_SCOPE=full PC_KDUMP_CRASH=1 tests/run

vm:
	tools/provoke-crash-vm

debug-kernel:
	$(ENGINE) pcengine.kernels build debug

clang-kernel:
	$(ENGINE) pcengine.kernels build clang

# AVOID_BUG is ignored: calling BUG() is what the bugon crash type is for.
bench:
	$(ENGINE) pcengine.costbench

stress:
	PC_CASES='/arm_disarm_race$$' PC_LINT=0 PC_TIMEOUT=3600 PC_X86_SCOPE=full \
		PC_GUEST_CMDLINE=pc_cycles=5000 tests/run

# arm64 against Debian's arm64 headers of the host's 6.1 version, fetched
# (not installed) by the test bench's library; the tool is static, for a
# busybox guest.
ARM64_SERIES ?= arm64-6.1
arm64:
	kdir=$$(PC_OUT=$(CURDIR)/build $(ENGINE) pcengine.kernels fetch-arm64 $(ARM64_SERIES)) && \
	$(MAKE) ARCH=arm64 KDIR=$$kdir CFLAGS="$(CFLAGS) -static" module tools

# The documentation's generated tables, rewritten from the crash-type
# table between their BEGIN and END lines.
DOCS = Documentation/provoke-crash
# $(call docs_table,FILE,MARK,OPTION): FILE's MARK table is `types OPTION`.
docs_table = { sed '/^\.\. BEGIN $(2)/q' $(1); tools/provoke-crash types $(3); \
	  sed -n '/^\.\. END $(2)/,$$p' $(1); } >$(1).new && mv $(1).new $(1)

docs: tools/provoke-crash
	$(call docs_table,$(DOCS)/crash-types.rst,TYPES TABLE,--rst)
	$(call docs_table,$(DOCS)/lkdtm.rst,LKDTM TABLE,--lkdtm-rst)

# checkpatch --strict, every report counts but one: AVOID_BUG on a line
# marked "BUG on purpose", where crashing is what the code is for.
checkpatch:
	@$(CHECKPATCH) --strict --no-tree --terse --show-types -f $(C_SOURCES) | \
	awk -F: '/^total:/ { ran++; next } \
		/CHECK:AVOID_BUG:/ { src = ""; n = 0; \
			while ((getline l < $$1) > 0) if (++n == $$2) src = l; \
			close($$1); if (src ~ /BUG on purpose/) { allowed++; next } } \
		{ print; bad++ } \
		END { if (!ran) { print "checkpatch did not run"; exit 1 } \
			printf "checkpatch --strict: %d reports; %d BUG() on purpose\n", \
			bad, allowed; exit bad > 0 }'

MODDIR = $(DESTDIR)/lib/modules/$(KVER)/extra
BINDIR = $(DESTDIR)$(PREFIX)/sbin
MANDIR = $(DESTDIR)$(PREFIX)/share/man/man8
COMPDIR = $(DESTDIR)$(PREFIX)/share/bash-completion/completions

install: all
	install -D -m 0644 module/provoke_crash.ko $(MODDIR)/provoke_crash.ko
	install -D -m 0755 tools/provoke-crash $(BINDIR)/provoke-crash
	install -D -m 0644 tools/provoke-crash.8 $(MANDIR)/provoke-crash.8
	install -D -m 0644 tools/provoke-crash.bash-completion $(COMPDIR)/provoke-crash
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); fi

uninstall:
	rm -f $(MODDIR)/provoke_crash.ko $(BINDIR)/provoke-crash \
		$(MANDIR)/provoke-crash.8 $(COMPDIR)/provoke-crash
	if [ -z "$(DESTDIR)" ]; then depmod -a $(KVER); fi

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module clean || true
	$(MAKE) -C tests/unit clean
	rm -f tools/provoke-crash
	rm -rf build

.PHONY: all module tools arm64 unit check-unit check-shell protocol check check-long vm debug-kernel clang-kernel bench stress docs \
	checkpatch install uninstall clean
