# SPDX-License-Identifier: GPL-2.0
# provoke-crash: the module, the tool and the tests.
#
#   make                 module (against KDIR) and the tool
#   make module          module only
#   make tools           tools/provoke-crash
#   make unit            parser unit tests, in user space
#   make check           the whole QEMU bench (tests/run)
#   make checkpatch      checkpatch.pl --strict over our C sources
#   make bench           what a crash point that does not fire costs, in an
#                        icount guest (tests/bench/run; reports, no verdict)
#   make stress          the arm/disarm race at 10,000 cycles (about 25
#                        minutes per kernel under TCG; not part of check)
#   make docs            the crash-type table in Documentation/provoke-crash.rst
#   make vm              one crash in a throw-away VM (tools/provoke-crash-vm)
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

C_SOURCES = $(filter-out %.mod.c,$(wildcard module/*.c module/*.h \
		module/crashes/*.c include/*.h tools/*.c tools/*.h \
		tests/guest/*.c tests/unit/*.c tests/bench/empty_kprobe/*.c))

all: module tools

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module modules

tools: tools/provoke-crash

TOOL_SOURCES = tools/provoke-crash.c tools/checks.c

tools/provoke-crash: $(TOOL_SOURCES) tools/checks.h include/provoke_crash_types.h \
		     include/provoke_crash_defs.h
	$(CC) $(TOOL_CFLAGS) -o $@ $(TOOL_SOURCES)

unit:
	$(MAKE) -C tests/unit
	tests/unit/parse_test

check:
	tests/run

vm:
	tools/provoke-crash-vm

# AVOID_BUG is ignored: calling BUG() is what the bugon crash type is for.
bench:
	tests/bench/run

stress:
	PC_CASES='/arm_disarm_race$$' PC_LINT=0 PC_TIMEOUT=3600 \
		PC_GUEST_CMDLINE=pc_cycles=5000 tests/run

# The types table in the documentation, rewritten from the crash-type table.
docs: tools/provoke-crash
	{ sed '/^\.\. BEGIN TYPES TABLE/q' Documentation/provoke-crash.rst; \
	  tools/provoke-crash types --rst; \
	  sed -n '/^\.\. END TYPES TABLE/,$$p' Documentation/provoke-crash.rst; } \
		>Documentation/provoke-crash.rst.new
	mv Documentation/provoke-crash.rst.new Documentation/provoke-crash.rst

checkpatch:
	$(CHECKPATCH) --strict --no-tree --terse --show-types \
		--ignore AVOID_BUG -f $(C_SOURCES)

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

.PHONY: all module tools unit check vm bench stress docs checkpatch install uninstall clean
