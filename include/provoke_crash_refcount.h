/* SPDX-License-Identifier: GPL-2.0 */
/*
 * refcount_t and its timing in the crash-type table (see
 * provoke_crash_types.h, which includes this file in its place: one
 * table, split by subject to keep each file short).  No include guard.
 */

/* refcount_t: saturation instead of wrap-around, with a warning. */
PC_CRASH_TYPE(refcount_inc_overflow, "REFCOUNT_INC_OVERFLOW",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_inc() at INT_MAX: saturates",
	      "refcount_t: saturated; leaking memory",
	      "refcount_inc_overflow: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_add_overflow, "REFCOUNT_ADD_OVERFLOW",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_add() past INT_MAX: saturates",
	      "refcount_t: saturated; leaking memory",
	      "refcount_add_overflow: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_inc_not_zero_overflow, "REFCOUNT_INC_NOT_ZERO_OVERFLOW",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_inc_not_zero() at INT_MAX: saturates",
	      "refcount_t: saturated; leaking memory",
	      "refcount_inc_not_zero_overflow: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_add_not_zero_overflow, "REFCOUNT_ADD_NOT_ZERO_OVERFLOW",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_add_not_zero() past INT_MAX: saturates",
	      "refcount_t: saturated; leaking memory",
	      "refcount_add_not_zero_overflow: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_dec_zero, "REFCOUNT_DEC_ZERO",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_dec() to zero, which only *_and_test may do",
	      "refcount_t: decrement hit 0; leaking memory",
	      "refcount_dec_zero: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_dec_negative, "REFCOUNT_DEC_NEGATIVE",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_dec() of a counter already at zero",
	      "refcount_t: decrement hit 0; leaking memory",
	      "refcount_dec_negative: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_dec_and_test_negative, "REFCOUNT_DEC_AND_TEST_NEGATIVE",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_dec_and_test() below zero: underflow",
	      "refcount_t: underflow; use-after-free",
	      "refcount_dec_and_test_negative: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_sub_and_test_negative, "REFCOUNT_SUB_AND_TEST_NEGATIVE",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_sub_and_test() past zero: underflow",
	      "refcount_t: underflow; use-after-free",
	      "refcount_sub_and_test_negative: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_inc_zero, "REFCOUNT_INC_ZERO",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_inc() from zero: the object is already dead",
	      "refcount_t: addition on 0; use-after-free",
	      "refcount_inc_zero: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_add_zero, "REFCOUNT_ADD_ZERO",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_add() to a counter at zero: the object is already dead",
	      "refcount_t: addition on 0; use-after-free",
	      "refcount_add_zero: saturated at 0xc0000000")

/*
 * 6.12 catches it; 6.1 lets it by, which the routine says (XFAIL: the
 * bench's skip) from what the counter really did.
 */
PC_CRASH_TYPE(refcount_sub_and_test_zero, "REFCOUNT_SUB_AND_TEST_ZERO",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_sub_and_test(0) of a counter at zero: a use after free",
	      "refcount_t: underflow; use-after-free",
	      "refcount_sub_and_test_zero: saturated at 0xc0000000")
/* refcount_t: a saturated counter stays saturated, whatever is done to it. */
PC_CRASH_TYPE(refcount_inc_saturated, "REFCOUNT_INC_SATURATED",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_inc() of a saturated counter: it stays saturated",
	      "refcount_t: saturated; leaking memory",
	      "refcount_inc_saturated: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_dec_saturated, "REFCOUNT_DEC_SATURATED",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_dec() of a saturated counter: it stays saturated",
	      "refcount_t: decrement hit 0; leaking memory",
	      "refcount_dec_saturated: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_add_saturated, "REFCOUNT_ADD_SATURATED",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_add() of a saturated counter: it stays saturated",
	      "refcount_t: saturated; leaking memory",
	      "refcount_add_saturated: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_inc_not_zero_saturated, "REFCOUNT_INC_NOT_ZERO_SATURATED",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_inc_not_zero() of a saturated counter: it stays saturated",
	      "refcount_t: saturated; leaking memory",
	      "refcount_inc_not_zero_saturated: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_add_not_zero_saturated, "REFCOUNT_ADD_NOT_ZERO_SATURATED",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_add_not_zero() of a saturated counter: it stays saturated",
	      "refcount_t: saturated; leaking memory",
	      "refcount_add_not_zero_saturated: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_dec_and_test_saturated, "REFCOUNT_DEC_AND_TEST_SATURATED",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_dec_and_test() of a saturated counter: it stays saturated",
	      "refcount_t: underflow; use-after-free",
	      "refcount_dec_and_test_saturated: saturated at 0xc0000000")
PC_CRASH_TYPE(refcount_sub_and_test_saturated, "REFCOUNT_SUB_AND_TEST_SATURATED",
	      refcount, PC_CTX_NMI, PC_FATE_REPORT, "",
	      "refcount_sub_and_test() of a saturated counter: it stays saturated",
	      "refcount_t: underflow; use-after-free",
	      "refcount_sub_and_test_saturated: saturated at 0xc0000000")

/* Timing, no misuse: what the checks cost next to plain atomic_t. */
PC_CRASH_TYPE(refcount_timing, "REFCOUNT_TIMING", refcount, PC_CTX_ATOMIC, PC_FATE_REPORT, "",
	      "time refcount_inc() and refcount_dec_and_test() up and down; nothing breaks",
	      "refcount timing: done: [0-9]+ ops in [0-9]+ ns")
PC_CRASH_TYPE(atomic_timing, "ATOMIC_TIMING", refcount, PC_CTX_ATOMIC, PC_FATE_REPORT, "",
	      "time atomic_inc() and atomic_dec_and_test() up and down, to compare; nothing breaks",
	      "atomic timing: done: [0-9]+ ops in [0-9]+ ns")
