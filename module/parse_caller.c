// SPDX-License-Identifier: GPL-2.0
/*
 * The caller conditions of a crash point line: caller=SYMBOL (SYMBOL's
 * code is on the hit's kernel stack) and caller!=SYMBOL (it is not),
 * SYMBOL as the point's own, MODULE:SYMBOL too.  Shared with user
 * space, as parse.c is: the tool and the VM runner refuse a bad key,
 * operator or name before anything is written; only whether the symbol
 * exists is left to the module.
 */
#include "provoke_crash_parse.h"
#include "parse_private.h"

int pc_parse_caller(const char *line, size_t len, size_t *pos,
		    size_t key_pos, struct pc_line *out,
		    struct pc_parse_error *error)
{
	size_t i = *pos, n, module_len;
	struct pc_caller *c;
	int negate, ret;

	for (n = 0; i + n < len && n < 2 &&
	     (line[i + n] == '=' || line[i + n] == '!' || line[i + n] == '<' ||
	      line[i + n] == '>' || line[i + n] == '&'); n++)
		;
	if (n >= 1 && line[i] == '=')
		negate = 0;
	else if (n == 2 && line[i] == '!' && line[i + 1] == '=')
		negate = 1;
	else
		return pc_fail_named(error, -EINVAL, line, i, n,
				     "caller takes only = or !=",
				     "caller=SYMBOL or caller!=SYMBOL");
	if (out->ncaller >= PC_CALLER_MAX)
		return pc_fail(error, -EINVAL, key_pos,
			       "at most 4 caller conditions");
	i += negate ? 2 : 1;
	c = &out->caller[out->ncaller];
	ret = pc_parse_name(line, len, &i, c->symbol, &module_len, error);
	if (ret)
		return ret;
	if (i < len && !pc_is_blank(line[i]))
		return pc_fail(error, -EINVAL, i,
			       "caller takes a function's name only: no offset, no %return");
	c->negate = (unsigned char)negate;
	out->ncaller++;
	out->cond.given |= PC_OPT_CALLER;
	*pos = i;
	return 0;
}

void pc_callers_format(const struct pc_line *out, char *buf, size_t size,
		       size_t *used)
{
	unsigned int i;

	for (i = 0; i < out->ncaller && i < PC_CALLER_MAX; i++) {
		pc_put(buf, size, used,
		       out->caller[i].negate ? " caller!=" : " caller=");
		pc_put(buf, size, used, out->caller[i].symbol);
	}
}
