# caller= refusals, each with its errno and log line: an unknown symbol
# (ENOENT, the hints the point's own name gets), an operator other than
# = and != and a fifth caller (EINVAL, before anything is looked up);
# the tool refuses the operator before it writes.  A caller in a module
# (MODULE:SYMBOL) arms and lists as written; when that module goes away
# its range is emptied: caller!= then always holds.
# needs: lib/reed_solomon/reed_solomon.ko
# expect-out: ^unknown: write: error ENOENT \(
# expect: provoke_crash: crashpoints: generic_fadvise caller=pc_inlined_nowhere: no such symbol in kallsyms: inlined, or a static function the compiler renamed \(.isra, .constprop, .part\)\? try a caller
# expect-out: ^unknown_module: write: error ENOENT \(
# expect: provoke_crash: crashpoints: generic_fadvise caller!=nosuchmod:free_rs: no such symbol in kallsyms: is module nosuchmod loaded, and free_rs in it
# expect-out: ^operator: write: error EINVAL \(
# expect: provoke_crash: crashpoints: line 1, column 30: caller takes only = or != '<=' \(caller=SYMBOL or caller!=SYMBOL\)
# expect-out: ^fifth: write: error EINVAL \(
# expect: provoke_crash: crashpoints: line 1, column 60: at most 4 caller conditions
# expect-out: ^offset: write: error EINVAL \(
# expect: provoke_crash: crashpoints: line 1, column 40: caller takes a function's name only: no offset, no %return
# expect-out: ^left armed: 0$
# expect-out: ^tool_operator: provoke-crash: column 30: caller takes only = or != '<=' \(caller=SYMBOL or caller!=SYMBOL\)$
# expect-out: ^module: generic_fadvise report times=-1 caller!=reed_solomon:free_rs hits=1 eligible=1 filtered=0 fired=1 missed=0 context=atomic$
# expect: provoke_crash: crashpoints: generic_fadvise: a caller's code in module reed_solomon is gone: caller= no longer holds there, caller!= always does
# expect-out: ^module_gone: generic_fadvise report times=-1 caller!=reed_solomon:free_rs hits=2 eligible=2 filtered=0 fired=2 missed=0 context=atomic$
# reject: BUG:|Oops|WARNING:|FAIL:|Kernel panic
# reject-out: WRONG
# shellcheck shell=dash
C=$D/crashpoints
F=/init
try() {
	name=$1
	shift
	echo "$name: $(pc-guest write "$C" "$@")"
}
try unknown "generic_fadvise report caller=pc_inlined_nowhere"
try unknown_module "generic_fadvise report caller!=nosuchmod:free_rs"
try operator "generic_fadvise report caller<=ksys_read"
try fifth "generic_fadvise report caller=a caller=b caller=c caller=d caller=e"
try offset "generic_fadvise report caller=ksys_read+4"
echo "left armed: $(grep -c . "$C")"
provoke-crash arm generic_fadvise report 'caller<=ksys_read' 2>&1 |
	head -n 1 | sed 's/^/tool_operator: /'
[ -d /sys/module/reed_solomon ] || insmod /reed_solomon.ko
pc-guest write "$C" "generic_fadvise report times=-1 caller!=reed_solomon:free_rs" |
	grep -v '^write: ok' | sed 's/^/WRONG: /'
pc-guest fadvise $F 0 0 >/dev/null
echo "module: $(cat "$C")"
rmmod reed_solomon || echo "WRONG: rmmod reed_solomon"
pc-guest fadvise $F 0 0 >/dev/null
echo "module_gone: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null
