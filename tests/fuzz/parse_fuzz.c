// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target for the control-line parser (module/parse.c), built
 * with ASan and UBSan.  Besides not crashing, every accepted line must
 * make sense: a NUL-terminated symbol of allowed length, a known type,
 * argN only at an entry and retval only at %return, ms= only on delay
 * (1 to 10000) and spin (1 to 1000), at most PC_CALLER_MAX caller
 * conditions, each a name, and conditions that list as a line that
 * parses back to the same listing; every refusal
 * names a culprit, if any, inside the line.
 */
#include <stdint.h>
#include <stdio.h>
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

/* ms= of an accepted arm line: delay's or spin's, in range, or none. */
static void check_ms(const struct pc_line *out)
{
	const char *type = pc_crash_type_name(out->type);
	unsigned int ms = out->cond.ms;

	if (!(out->cond.given & PC_OPT_MS)) {
		if (ms != PC_MS_DEFAULT)
			abort();
		return;
	}
	if (!strcmp(type, "delay") ? ms < 1 || ms > PC_MS_MAX :
	    !strcmp(type, "spin") ? ms < 1 || ms > PC_SPIN_MS_MAX : 1)
		abort();
}

/* The caller conditions of an accepted arm line. */
static void check_callers(const struct pc_line *out)
{
	unsigned int i;
	size_t n;

	if (out->ncaller > PC_CALLER_MAX ||
	    !(out->cond.given & PC_OPT_CALLER) != !out->ncaller)
		abort();
	for (i = 0; i < out->ncaller; i++) {
		n = strlen(out->caller[i].symbol);
		if (!n || n >= PC_SYMBOL_MAX || out->caller[i].negate > 1)
			abort();
	}
}

/* What an accepted arm line lists: its conditions, then its callers. */
static size_t format_all(const struct pc_line *out, char *buf, size_t size)
{
	size_t used = pc_conditions_format(&out->cond, buf, size);

	pc_callers_format(out, buf, size, &used);
	return used;
}

/*
 * The conditions of an accepted arm line: argN and retval, callers, and
 * the line they list as parsing back to the same listing.
 */
static void check_compares(const struct pc_line *out)
{
	static char opts[4096], again[4096], line[PC_SYMBOL_MAX + 4200];
	const struct pc_conditions *cond = &out->cond;
	struct pc_parse_error error;
	struct pc_line back;
	unsigned int i;
	int n;

	if (cond->ncompare > PC_COMPARE_MAX)
		abort();
	for (i = 0; i < cond->ncompare; i++) {
		const struct pc_compare *c = &cond->compare[i];

		if (c->key < 1 || c->key > PC_KEY_RETVAL || c->op > PC_CMP_AND)
			abort();
		if ((c->key == PC_KEY_RETVAL) != !!out->on_return)
			abort();
		if (c->key != PC_KEY_RETVAL && out->offset)
			abort();
		/* A width only as written, one of the eight, its value fits. */
		if (!c->width_given != !c->width)
			abort();
		if (c->width_given) {
			struct pc_compare copy = *c;

			if (PC_WIDTH_BITS(c->width) != 8 &&
			    PC_WIDTH_BITS(c->width) != 16 &&
			    PC_WIDTH_BITS(c->width) != 32 &&
			    PC_WIDTH_BITS(c->width) != 64)
				abort();
			if (pc_compare_set_width(&copy, c->width))
				abort();
		}
	}
	check_callers(out);
	if (format_all(out, opts, sizeof(opts)) + 1 >= sizeof(opts))
		abort();
	n = snprintf(line, sizeof(line), "%s%s %s%s", out->symbol,
		     out->on_return ? "%return" : "",
		     pc_crash_type_name(out->type), opts);
	if (n < 0 || (size_t)n >= sizeof(line))
		abort();
	if (out->offset)
		return;
	if (pc_parse_line(line, (size_t)n, &back, &error))
		abort();
	format_all(&back, again, sizeof(again));
	if (strcmp(opts, again) || back.cond.ms != cond->ms)
		abort();
	for (i = 0; i < cond->ncompare; i++)
		if (back.cond.compare[i].width != cond->compare[i].width)
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
		if (out.op == PC_OP_ARM) {
			check_ms(&out);
			check_compares(&out);
		}
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
