// SPDX-License-Identifier: GPL-2.0
/*
 * The width and signedness of the argument or return value that an argN
 * or retval condition compares, from the function's prototype in the
 * kernel's BTF.  A register that holds an int leaves the bits above it
 * undefined (x86-64 and arm64 both), so a comparison of all 64 bits
 * could be wrong either way: a condition without KEY:WIDTH takes the
 * declared one, and one whose width cannot be known is refused.
 *
 * The kernel keeps its parsed BTF to itself (modules get
 * btf_type_by_id() only, without the vmlinux struct btf it needs), so
 * the write reads /sys/kernel/btf/vmlinux, in process context, and
 * walks the few types it needs.  Only vmlinux's functions: a module's
 * BTF would be split BTF on top of it.
 */
#include <linux/fs.h>
#include <linux/kallsyms.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/vmalloc.h>
#include <uapi/linux/btf.h>

#include "crashpoint.h"

#define PC_BTF_PATH	"/sys/kernel/btf/vmlinux"
#define PC_BTF_MAX	(256 << 20)

/* Functions of one name a lookup compares (static ones may repeat). */
#define PC_BTF_PROTOS	8

struct pc_btf {
	char *data;
	const char *types, *strs;
	u32 types_len, strs_len;
	u32 *offs;		/* offs[id - 1]: type id's offset in types */
	u32 n;
};

/* Read the whole file: its size is fixed, sysfs gives it in pieces. */
static int pc_btf_read(struct pc_btf *btf, size_t *size)
{
	struct file *f = filp_open(PC_BTF_PATH, O_RDONLY, 0);
	loff_t pos = 0, len;
	ssize_t n;

	if (IS_ERR(f))
		return PTR_ERR(f);
	len = i_size_read(file_inode(f));
	if (len < (loff_t)offsetofend(struct btf_header, str_len) || len > PC_BTF_MAX) {
		filp_close(f, NULL);
		return -EINVAL;
	}
	btf->data = vmalloc(len);
	if (!btf->data) {
		filp_close(f, NULL);
		return -ENOMEM;
	}
	do {
		n = kernel_read(f, btf->data + pos, len - pos, &pos);
	} while (n > 0 && pos < len);
	filp_close(f, NULL);
	*size = len;
	return pos == len ? 0 : -EIO;
}

/* The bytes that follow a type's struct btf_type, or U32_MAX. */
static u32 pc_btf_extra(const struct btf_type *t)
{
	u32 vlen = BTF_INFO_VLEN(t->info);

	switch (BTF_INFO_KIND(t->info)) {
	case BTF_KIND_INT:
	case BTF_KIND_VAR:
	case PC_BTF_KIND_DECL_TAG:
		return sizeof(u32);
	case BTF_KIND_PTR:
	case BTF_KIND_FWD:
	case BTF_KIND_TYPEDEF:
	case BTF_KIND_VOLATILE:
	case BTF_KIND_CONST:
	case BTF_KIND_RESTRICT:
	case BTF_KIND_FUNC:
	case PC_BTF_KIND_FLOAT:
	case PC_BTF_KIND_TYPE_TAG:
		return 0;
	case BTF_KIND_ARRAY:
		return sizeof(struct btf_array);
	case BTF_KIND_STRUCT:
	case BTF_KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case BTF_KIND_ENUM:
		return vlen * sizeof(struct btf_enum);
	case PC_BTF_KIND_ENUM64:
		return vlen * PC_BTF_ENUM64_SIZE;
	case BTF_KIND_FUNC_PROTO:
		return vlen * sizeof(struct btf_param);
	case BTF_KIND_DATASEC:
		return vlen * sizeof(struct btf_var_secinfo);
	}
	return U32_MAX;
}

/* Check the header and index every type by id. */
static int pc_btf_index(struct pc_btf *btf, size_t size)
{
	const struct btf_header *h = (const void *)btf->data;
	const struct btf_type *t;
	u32 off = 0, extra;
	u64 end;

	/*
	 * Only the fields up to str_len are read: 7.2's header has more
	 * (a layout section), which BTF of 24 header bytes leaves out.
	 */
	if (h->magic != BTF_MAGIC ||
	    h->hdr_len < offsetofend(struct btf_header, str_len))
		return -EINVAL;
	end = (u64)h->hdr_len + h->type_off + h->type_len;
	if (end > size || (u64)h->hdr_len + h->str_off + h->str_len > size ||
	    !h->str_len)
		return -EINVAL;
	btf->types = btf->data + h->hdr_len + h->type_off;
	btf->types_len = h->type_len;
	btf->strs = btf->data + h->hdr_len + h->str_off;
	btf->strs_len = h->str_len;
	if (btf->strs[btf->strs_len - 1])
		return -EINVAL;
	btf->offs = kvmalloc_array(h->type_len / sizeof(*t) + 1,
				   sizeof(u32), GFP_KERNEL);
	if (!btf->offs)
		return -ENOMEM;
	while (off + sizeof(*t) <= btf->types_len) {
		t = (const void *)(btf->types + off);
		extra = pc_btf_extra(t);
		if (extra == U32_MAX ||
		    extra > btf->types_len - off - sizeof(*t))
			return -EINVAL;
		btf->offs[btf->n++] = off;
		off += sizeof(*t) + extra;
	}
	return off == btf->types_len ? 0 : -EINVAL;
}

static const struct btf_type *pc_btf_type(const struct pc_btf *btf, u32 id)
{
	if (!id || id > btf->n)
		return NULL;
	return (const void *)(btf->types + btf->offs[id - 1]);
}

/*
 * The width of type @id as PC_WIDTH_*: an integer, an enum or a pointer,
 * of one register at most.  0 and @why if it is anything else.
 */
static unsigned int pc_btf_width(const struct pc_btf *btf, u32 id,
				 const char **why)
{
	const struct btf_type *t;
	unsigned int sign = 0;
	int hops;

	for (hops = 0; hops < 32; hops++) {
		t = pc_btf_type(btf, id);
		if (!t) {
			*why = id ? "a type id past BTF's end" :
				    "BTF says void, as it does for any assembly function";
			return 0;
		}
		switch (BTF_INFO_KIND(t->info)) {
		case BTF_KIND_TYPEDEF:
		case BTF_KIND_VOLATILE:
		case BTF_KIND_CONST:
		case BTF_KIND_RESTRICT:
		case PC_BTF_KIND_TYPE_TAG:
			id = t->type;
			continue;
		case BTF_KIND_PTR:
			return 8 * sizeof(long);
		case BTF_KIND_INT:
			if (BTF_INT_ENCODING(*(const u32 *)(t + 1)) &
			    BTF_INT_SIGNED)
				sign = PC_WIDTH_SIGNED;
			break;
		case BTF_KIND_ENUM:
		case PC_BTF_KIND_ENUM64:
			if (BTF_INFO_KFLAG(t->info))
				sign = PC_WIDTH_SIGNED;
			break;
		default:
			*why = "it is not an integer, an enum or a pointer";
			return 0;
		}
		if (t->size != 1 && t->size != 2 && t->size != 4 &&
		    t->size != sizeof(long)) {
			*why = "it is wider than a register";
			return 0;
		}
		return t->size * 8 | sign;
	}
	*why = "its typedefs go on too long";
	return 0;
}

/*
 * In prototype @proto, the width of the return value or argument @key
 * (pc_compare.key).  An argument comes in the register the calling
 * convention gives it only if each one before it took one register.
 */
static unsigned int pc_btf_proto_width(const struct pc_btf *btf,
				       const struct btf_type *proto,
				       unsigned int key, const char **why)
{
	const struct btf_param *param = (const void *)(proto + 1);
	unsigned int i, vlen = BTF_INFO_VLEN(proto->info);
	const char *before;

	if (key == PC_KEY_RETVAL)
		return pc_btf_width(btf, proto->type, why);
	if (key > vlen || !param[key - 1].type) {
		*why = "BTF gives the function fewer arguments, as it does any assembly function";
		return 0;
	}
	for (i = 0; i + 1 < key; i++) {
		if (!pc_btf_width(btf, param[i].type, &before)) {
			*why = "an argument before it is not one register";
			return 0;
		}
	}
	return pc_btf_width(btf, param[key - 1].type, why);
}

/* The prototypes of the functions called @name: how many, up to @max. */
static int pc_btf_protos(const struct pc_btf *btf, const char *name,
			 const struct btf_type **protos, int max)
{
	const struct btf_type *t, *proto;
	int found = 0;
	u32 id;

	for (id = 1; id <= btf->n; id++) {
		t = pc_btf_type(btf, id);
		if (BTF_INFO_KIND(t->info) != BTF_KIND_FUNC ||
		    t->name_off >= btf->strs_len ||
		    strcmp(btf->strs + t->name_off, name))
			continue;
		proto = pc_btf_type(btf, t->type);
		if (!proto || BTF_INFO_KIND(proto->info) != BTF_KIND_FUNC_PROTO)
			return -EINVAL;
		if (found == max)
			return -E2BIG;
		protos[found++] = proto;
	}
	return found;
}

/* The width of @key in the functions of @protos: all must agree. */
static unsigned int pc_btf_key_width(const struct pc_btf *btf,
				     const struct btf_type **protos, int n,
				     unsigned int key, const char **why)
{
	unsigned int width = 0, w;
	int i;

	for (i = 0; i < n; i++) {
		w = pc_btf_proto_width(btf, protos[i], key, why);
		if (!w)
			return 0;
		if (i && w != width) {
			*why = "functions of this name in BTF differ there";
			return 0;
		}
		width = w;
	}
	return width;
}

/* The function's own name at the point's address: vmlinux's, or NULL. */
static char *pc_btf_function_name(struct pc_point *point)
{
	char *name = kmalloc(KSYM_SYMBOL_LEN, GFP_KERNEL);

	if (!name)
		return NULL;
	sprint_symbol(name, (unsigned long)point->rp.kp.addr);
	/* "NAME+0x0/0xSIZE", and " [MODULE]" after it for a module's. */
	if (strchr(name, '[')) {
		kfree(name);
		return NULL;
	}
	name[strcspn(name, "+")] = '\0';
	return name;
}

/* argN or retval, as @c's key is written. */
static void pc_btf_key_name(const struct pc_compare *c, char *key, size_t size)
{
	if (c->key == PC_KEY_RETVAL)
		strscpy(key, "retval", size);
	else
		snprintf(key, size, "arg%u", c->key);
}

int pc_point_widths(struct pc_point *point)
{
	struct pc_conditions *cond = &point->cond;
	const struct btf_type *protos[PC_BTF_PROTOS];
	struct pc_btf btf = { };
	const char *why = NULL;
	unsigned int i, width;
	char *name = NULL, key[8], unread[64];
	size_t size = 0;
	int n = 0, ret;

	for (i = 0; i < cond->ncompare && cond->compare[i].width; i++)
		;
	if (i == cond->ncompare)
		return 0;
	name = pc_btf_function_name(point);
	if (!name) {
		why = "a module's function: only vmlinux's BTF is read";
	} else {
		ret = pc_btf_read(&btf, &size);
		if (ret) {
			snprintf(unread, sizeof(unread), "no BTF to read at %s: error %d",
				 PC_BTF_PATH, ret);
			why = unread;
		} else {
			ret = pc_btf_index(&btf, size);
			if (ret)
				why = "BTF in a layout this module does not read";
		}
		if (!ret) {
			n = pc_btf_protos(&btf, name, protos, PC_BTF_PROTOS);
			if (n == -E2BIG)
				why = "too many functions of this name in BTF";
			else if (n <= 0)
				why = "the function is not in BTF";
		}
	}
	ret = 0;
	for (i = 0; !ret && i < cond->ncompare; i++) {
		struct pc_compare *c = &cond->compare[i];

		if (c->width)
			continue;
		pc_btf_key_name(c, key, sizeof(key));
		width = why ? 0 : pc_btf_key_width(&btf, protos, n, c->key, &why);
		if (!width) {
			pr_warn("crashpoints: %s: %s: its width is not known (%s): give it, as %s:s32 or %s:u64\n",
				point->where, key, why, key, key);
			ret = -EINVAL;
		} else if (pc_compare_set_width(c, width)) {
			pr_warn("crashpoints: %s: %s: the value does not fit its type in BTF, %s%u\n",
				point->where, key,
				width & PC_WIDTH_SIGNED ? "s" : "u",
				PC_WIDTH_BITS(width));
			ret = -ERANGE;
		}
	}
	kvfree(btf.offs);
	vfree(btf.data);
	kfree(name);
	return ret;
}
