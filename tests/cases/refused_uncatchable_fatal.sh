# A fatal type this kernel cannot catch comes back from its crash:
# cfi_forward_proto without kCFI.  Sent into the path at a breakpoint
# (+OFFSET) or at a diverted %return, the path could not resume there
# (the module would end it in a BUG of its own): such a point is refused
# when armed, with EOPNOTSUPP and one line naming the option.  At a
# function entry ftrace patches, the path resumes: it arms, and each hit
# is missed with the reason.
# needs: !CONFIG_CFI_CLANG
# batch-ok
# expect-out: offset: write: error (EOPNOTSUPP|ENOTSUP)
# expect: provoke_crash: crashpoints: @sys@getppid\+0x[0-9a-f]+: cfi_forward_proto needs CONFIG_CFI_CLANG, which this kernel does not meet: a crash that does not happen cannot resume the path here; arm it at a function entry ftrace can patch, where such a hit counts as missed
# expect-out: return: write: error (EOPNOTSUPP|ENOTSUP)
# expect: provoke_crash: crashpoints: @sys@getppid%return: cfi_forward_proto needs CONFIG_CFI_CLANG, which this kernel does not meet
# expect-out: refused left: 0 points
# expect-out: entry: @sys@getppid cfi_forward_proto hits=2 filtered=0 fired=0 missed=2 context=path
# expect: provoke_crash: crashpoints: @sys@getppid: cfi_forward_proto returned: the path goes on
# expect-out: PC-GUEST-END
# reject: cannot resume: BUG|Oops|Kernel panic
# reject-out: no offset armed
# shellcheck shell=dash
C=$D/crashpoints
# The first whole instruction after the entry that takes a breakpoint.
at=""
# shellcheck disable=SC2043 # @insn_offs@ becomes a list of offsets
for off in @insn_offs@; do
	if pc-guest write "$C" "@sys@getppid+$off report" >/dev/null; then
		pc-guest write "$C" "\n" >/dev/null
		at=$off
		break
	fi
done
[ -n "$at" ] || echo "no offset armed"
echo "offset: $(pc-guest write "$C" "@sys@getppid+$at cfi_forward_proto")"
echo "return: $(pc-guest write "$C" "@sys@getppid%return cfi_forward_proto")"
echo "refused left: $(grep -c . "$C") points"
pc-guest write "$C" "@sys@getppid cfi_forward_proto" >/dev/null
pc-guest hit getppid 2
echo "entry: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null
