// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the control-line parser (module/parse.c), built
 * with ASan and UBSan.  Besides not crashing, every accepted line must
 * make sense: a NUL-terminated symbol of allowed length, a known type.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "provoke_crash_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct pc_parse_error error;
	struct pc_line out;
	char *line = malloc(size ? size : 1);
	int ret;

	/* An exact-size copy, so that ASan sees any read past the end. */
	memcpy(line, data, size);
	ret = pc_parse_line(line, size, &out, &error);
	if (ret) {
		if (ret >= 0 || !error.why || error.pos > size)
			abort();
	} else if (out.op != PC_OP_CLEAR) {
		if (strlen(out.symbol) == 0 || strlen(out.symbol) >= PC_SYMBOL_MAX)
			abort();
		if (out.op == PC_OP_ARM && !pc_crash_type_name(out.type))
			abort();
	}
	free(line);
	return 0;
}
