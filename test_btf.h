/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Raw BTF, type by type, as upstream's selftests write it (test_btf.h):
 * each macro is the words of one entry of the type section, in the
 * layout of <linux/btf.h>.  Upstream's benchmarks include it.
 */
#ifndef __TEST_BTF_H
#define __TEST_BTF_H

#include <linux/btf.h>

#define BTF_END_RAW 0xdeadbeef
#define NAME_TBD 0xdeadb33f

/* struct btf_type's info word: vlen in bits 0-15, kind in 24-28, kind_flag 31 */
#define BTF_INFO_ENC(kind, kind_flag, vlen) \
	((!!(kind_flag) << 31) | ((kind) << 24) | ((vlen) & BTF_MAX_VLEN))

/* name offset, info, then size or type */
#define BTF_TYPE_ENC(name, info, size_or_type) (name), (info), (size_or_type)

/* the word after an integer's btf_type: encoding bits 24-27, offset 16-23, bits 0-7 */
#define BTF_INT_ENC(encoding, bits_offset, nr_bits) \
	((encoding) << 24 | (bits_offset) << 16 | (nr_bits))
#define BTF_TYPE_INT_ENC(name, encoding, bits_offset, bits, sz) \
	BTF_TYPE_ENC(name, BTF_INFO_ENC(BTF_KIND_INT, 0, 0), sz), \
	BTF_INT_ENC(encoding, bits_offset, bits)

#define BTF_PTR_ENC(type) BTF_TYPE_ENC(0, BTF_INFO_ENC(BTF_KIND_PTR, 0, 0), type)
#define BTF_CONST_ENC(type) BTF_TYPE_ENC(0, BTF_INFO_ENC(BTF_KIND_CONST, 0, 0), type)
#define BTF_VOLATILE_ENC(type) BTF_TYPE_ENC(0, BTF_INFO_ENC(BTF_KIND_VOLATILE, 0, 0), type)
#define BTF_TYPEDEF_ENC(name, type) BTF_TYPE_ENC(name, BTF_INFO_ENC(BTF_KIND_TYPEDEF, 0, 0), type)
#define BTF_FWD_ENC(name, kind_flag) BTF_TYPE_ENC(name, BTF_INFO_ENC(BTF_KIND_FWD, kind_flag, 0), 0)

/* an array's btf_type, then element type, index type and element count */
#define BTF_ARRAY_ENC(type, index_type, nr_elems) (type), (index_type), (nr_elems)
#define BTF_TYPE_ARRAY_ENC(type, index_type, nr_elems) \
	BTF_TYPE_ENC(0, BTF_INFO_ENC(BTF_KIND_ARRAY, 0, 0), 0), \
	BTF_ARRAY_ENC(type, index_type, nr_elems)

/* a struct's btf_type (vlen members follow), and each member: name, type, offset in bits */
#define BTF_STRUCT_ENC(name, nr_elems, sz) \
	BTF_TYPE_ENC(name, BTF_INFO_ENC(BTF_KIND_STRUCT, 0, nr_elems), sz)
#define BTF_UNION_ENC(name, nr_elems, sz) \
	BTF_TYPE_ENC(name, BTF_INFO_ENC(BTF_KIND_UNION, 0, nr_elems), sz)
#define BTF_MEMBER_ENC(name, type, bits_offset) (name), (type), (bits_offset)
/* with kind_flag set on the struct: the bitfield size in bits 24-31 of the offset word */
#define BTF_MEMBER_OFFSET(bitfield_size, bits_offset) ((bitfield_size) << 24 | (bits_offset))

/* an enum's btf_type, then each value: name and value */
#define BTF_ENUM_ENC(name, val) (name), (val)

/* a function: its prototype (vlen parameters of name and type follow), then the function */
#define BTF_FUNC_PROTO_ENC(ret_type, nargs) \
	BTF_TYPE_ENC(0, BTF_INFO_ENC(BTF_KIND_FUNC_PROTO, 0, nargs), ret_type)
#define BTF_FUNC_PROTO_ARG_ENC(name, type) (name), (type)
#define BTF_FUNC_ENC(name, func_proto) \
	BTF_TYPE_ENC(name, BTF_INFO_ENC(BTF_KIND_FUNC, 0, 0), func_proto)

/* a variable (its linkage follows) and a data section (vlen vars follow: type, offset, size) */
#define BTF_VAR_ENC(name, type, linkage) \
	BTF_TYPE_ENC(name, BTF_INFO_ENC(BTF_KIND_VAR, 0, 0), type), (linkage)
#define BTF_VAR_SECINFO_ENC(type, offset, size) (type), (offset), (size)

#define BTF_TYPE_FLOAT_ENC(name, sz) BTF_TYPE_ENC(name, BTF_INFO_ENC(BTF_KIND_FLOAT, 0, 0), sz)
#define BTF_DECL_TAG_ENC(value, type, component_idx) \
	BTF_TYPE_ENC(value, BTF_INFO_ENC(BTF_KIND_DECL_TAG, 0, 0), type), (component_idx)
#define BTF_TYPE_TAG_ENC(value, type) BTF_TYPE_ENC(value, BTF_INFO_ENC(BTF_KIND_TYPE_TAG, 0, 0), type)

#endif /* __TEST_BTF_H */
