# The tool checks before it writes and shows the module's own reason.
# debug-slice: no: the tool's own checks, before the module is reached
# expect-out: nosym: provoke-crash: no function pc_no_such_symbol in /proc/kallsyms
# expect-out: dup: provoke-crash: [A-Za-z0-9_.]+ occurs [0-9]+ times in /proc/kallsyms; kprobes would silently pick the first
# expect-out: black: provoke-crash: notify_die is on the kprobe blacklist
# expect-out: badtype: provoke-crash: unknown crash type 'frobnicate'
# expect-out: first: armed: @sys@getpgid bugon
# expect-out: reason: provoke-crash: crashpoints refused: Device or resource busy
# expect-out: reason:   the module says: crashpoints: @sys@getpgid: already armed as @sys@getpgid bugon
# expect-out: status: @sys@getpgid bugon hits=0 filtered=0 fired=0 missed=0 context=path
# expect-out: disarm: done
# expect-out: noyes: provoke-crash: panic crashes this kernel: add --yes to do it
# expect-out: notroot: provoke-crash: must run as root
# expect-out: nodebugfs: provoke-crash: debugfs is not mounted at /sys/kernel/debug
# expect-out: nomodule: provoke-crash: the provoke_crash module is not loaded
# expect-out: exit codes: 3 3 3 2 0 3 0 2 4 4 4
# expect-out: PC-GUEST-END
# reject: BUG:|Oops|WARNING:
# shellcheck shell=dash
codes=
t() {
	name=$1
	shift
	out=$("$@" 2>&1)
	rc=$?
	echo "$out" | sed "s/^/$name: /"
	codes="$codes $rc"
}
dup=$(awk '$2 ~ /^[tT]$/ && NF == 3 {print $3}' /proc/kallsyms | sort | uniq -d | head -n 1)
t nosym provoke-crash arm pc_no_such_symbol bugon
t dup provoke-crash arm "$dup" bugon
t black provoke-crash arm notify_die bugon
t badtype provoke-crash arm @sys@getpgid frobnicate
t first provoke-crash arm @sys@getpgid bugon
t reason provoke-crash arm @sys@getpgid+0 bugon
t status provoke-crash status
provoke-crash disarm --all && echo "disarm: done"
t noyes provoke-crash trigger panic </dev/null
echo 'root:x:0:0:root:/:/bin/sh' >/etc/passwd
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
echo 'root:x:0:' >/etc/group
t notroot su nobody -c 'provoke-crash status'
umount /sys/kernel/debug
t nodebugfs provoke-crash status
mount -t debugfs none /sys/kernel/debug
rmmod provoke_crash
t nomodule provoke-crash status
echo "exit codes:$codes"
