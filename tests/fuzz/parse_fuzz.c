// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the control-line parser (module/parse.c), built
 * with ASan and UBSan.  Besides not crashing, every accepted line must
 * make sense: a NUL-terminated symbol of allowed length, a known type;
 * every refusal names a culprit, if any, inside the line.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "provoke_crash_parse.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A refusal: an errno, a reason, a column and a culprit inside the line. */
static void check_error(const struct pc_parse_error *error, int ret,
			const char *line, size_t size)
{
	if (ret >= 0 || !error->why || error->pos > size)
		abort();
	if (error->what_len &&
	    (error->what < line || error->what + error->what_len > line + size ||
	     !error->valid))
		abort();
}

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
		check_error(&error, ret, line, size);
	} else if (out.op != PC_OP_CLEAR) {
		if (strlen(out.symbol) == 0 || strlen(out.symbol) >= PC_SYMBOL_MAX)
			abort();
		if (out.module_len && out.symbol[out.module_len] != ':')
			abort();
		if (out.op == PC_OP_ARM && !pc_crash_type_name(out.type))
			abort();
	}
	/* The offsets file's parser, on the same bytes. */
	ret = pc_parse_symbol(line, size, out.symbol, &error);
	if (ret)
		check_error(&error, ret, line, size);
	else if (strlen(out.symbol) == 0 || strlen(out.symbol) >= PC_SYMBOL_MAX)
		abort();
	free(line);
	return 0;
}
