# SPDX-License-Identifier: GPL-2.0
# provoke-crash: the module, the tool and the tests.
#
#   make                 module (against KDIR) and the tool
#   make module          module only
#   make tools           tools/provoke-crash
#   make unit            parser unit tests, in user space
#   make check           the whole QEMU bench (tests/run)
#   make checkpatch      checkpatch.pl --strict over our C sources
#   make vm              one crash in a throw-away VM (tools/provoke-crash-vm)
KDIR ?= /lib/modules/$(shell uname -r)/build
CHECKPATCH ?= scripts/checkpatch.pl
CFLAGS ?= -O2
TOOL_CFLAGS = $(CFLAGS) -Wall -Wextra -Werror -Iinclude

C_SOURCES = $(wildcard module/*.c module/*.h module/crashes/*.c include/*.h \
		       tools/*.c tests/guest/*.c tests/unit/*.c)

all: module tools

module:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module modules

tools: tools/provoke-crash

tools/provoke-crash: tools/provoke-crash.c include/provoke_crash_types.h include/provoke_crash_defs.h
	$(CC) $(TOOL_CFLAGS) -o $@ $<

unit:
	$(MAKE) -C tests/unit
	tests/unit/parse_test

check:
	tests/run

vm:
	tools/provoke-crash-vm

# AVOID_BUG is ignored: calling BUG() is what the bugon crash type is for.
checkpatch:
	$(CHECKPATCH) --strict --no-tree --terse --show-types \
		--ignore AVOID_BUG -f $(C_SOURCES)

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR)/module clean || true
	$(MAKE) -C tests/unit clean
	rm -f tools/provoke-crash
	rm -rf build

.PHONY: all module tools unit check vm checkpatch clean
