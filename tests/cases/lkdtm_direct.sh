# The DIRECT file speaks LKDTM's interface: reading lists LKDTM's names
# after "Available crash types:", each once; a name runs its type (a report
# type here, so the kernel stays up); an unknown name is EINVAL, another
# architecture's test EOPNOTSUPP after its XFAIL line, a name too long
# EINVAL; an empty write does nothing.  Each refusal logs one line.
# DOUBLE_FAULT says LKDTM's own XFAIL on x86-64 and arm64 alike (LKDTM's
# test is ia32-only) instead of the double_fault type's real double fault:
# a kselftest run goes on after it on the same machine.
# batch-ok
# expect-out: head: Available crash types:
# expect-out: listed: BUG yes
# expect-out: listed: REFCOUNT_DEC_AND_TEST_NEGATIVE yes
# expect-out: dups: 0
# expect-out: run: write: ok
# expect: provoke_crash: DIRECT\(REFCOUNT_INC_SATURATED\): refcount_inc_saturated: 
# expect: refcount_inc_saturated: saturated at 0xc0000000: Saturation detected: still saturated
# expect-out: unknown: write: error EINVAL
# expect: provoke_crash: DIRECT: 'NO_SUCH_TEST' is no LKDTM test name \(reading DIRECT lists them\)
# expect-out: long: write: error EINVAL
# expect: provoke_crash: DIRECT: a write of 80 bytes is no LKDTM test name \(63 at most\)
# expect-out: empty: write: ok \(0 of 0 bytes\)
# expect-out@x86_64: other_arch: write: error (EOPNOTSUPP|ENOTSUP)
# expect@x86_64: XFAIL: DIRECT: CORRUPT_PAC: pac_corruption runs only on arm64, and this kernel is x86_64
# expect-out@arm64: other_arch: write: error (EOPNOTSUPP|ENOTSUP)
# expect@arm64: XFAIL: DIRECT: UNSET_SMEP: unset_smep runs only on x86_64, and this kernel is arm64
# expect-out: double_fault: write: error (EOPNOTSUPP|ENOTSUP)
# expect@x86_64: XFAIL: this test is ia32-only \(DIRECT: DOUBLE_FAULT, as LKDTM's own test on x86_64; the double_fault trigger file runs the real one\)
# expect@arm64: XFAIL: this test is ia32-only \(DIRECT: DOUBLE_FAULT, as LKDTM's own test on arm64\)$
# expect-out: PC-GUEST-END
# reject: Oops|Kernel panic|BUG:|could not run|double fault|is not among
# shellcheck shell=dash
echo "head: $(head -n 1 "$D/DIRECT")"
for t in BUG REFCOUNT_DEC_AND_TEST_NEGATIVE; do
	echo "listed: $t $(grep -qx "$t" "$D/DIRECT" && echo yes || echo no)"
done
echo "dups: $(tail -n +2 "$D/DIRECT" | sort | uniq -d | wc -l)"
echo 1 >/sys/kernel/debug/clear_warn_once
echo "run: $(pc-guest write "$D/DIRECT" REFCOUNT_INC_SATURATED)"
echo "unknown: $(pc-guest write "$D/DIRECT" NO_SUCH_TEST)"
echo "long: $(pc-guest write "$D/DIRECT" "$(printf '%080d' 0)")"
echo "empty: $(pc-guest write "$D/DIRECT" '')"
case $(uname -m) in
aarch64) other=UNSET_SMEP ;;
*) other=CORRUPT_PAC ;;
esac
echo "other_arch: $(pc-guest write "$D/DIRECT" $other)"
echo "double_fault: $(pc-guest write "$D/DIRECT" DOUBLE_FAULT)"
