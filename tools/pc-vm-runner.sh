# SPDX-License-Identifier: GPL-2.0
# The VM runner's own helpers (tools/provoke-crash-vm): checks on the
# host, the cached build and initramfs, the guest's script and the
# watcher of its console.  The engine reads the console (its report and
# verdict: pcengine.runner_verdict; with --kdump, pc-vm-verdict.sh too).
# Sourced after pc-vm-lib.sh.
# shellcheck shell=bash

# Exit statuses, documented in the usage text and provoke-crash(8).
# shellcheck disable=SC2034 # tools/provoke-crash-vm exits with them
PCV_CRASHED=0 PCV_SURVIVED=1 PCV_USAGE=2 PCV_TIMEOUT=3 PCV_REFUSED=4
# shellcheck disable=SC2034 # tools/provoke-crash-vm exits with them
PCV_REPORTED=5 PCV_SETUP=6 PCV_NO_CAPTURE=7

# pcv_usage_error MESSAGE: one line, status 2, before anything is booted.
pcv_usage_error() {
	printf 'provoke-crash-vm: %s\n' "$*" >&2
	exit "$PCV_USAGE"
}

# pcv_int NAME VALUE MIN MAX: VALUE is a whole number in [MIN, MAX].
pcv_int() {
	{ [[ $2 =~ ^[0-9]+$ ]] && [ "$2" -ge "$3" ] && [ "$2" -le "$4" ]; } ||
		pcv_usage_error "$1 '$2': give a whole number from $3 to $4"
}

# pcv_sources_key: one hash of everything pc_build compiles (the module,
# pc-guest, the tool); a tree's build artefacts (*.o, *.ko) do not count.
pcv_sources_key() {
	(cd "$PC_ROOT" && find module include guest/pc-guest.c tools/provoke-crash.c \
		tools/checks.c tools/checks.h -type f \
		\( -name '*.[ch]' -o -name Kbuild -o -name Makefile \) |
		LC_ALL=C sort | xargs sha256sum) | sha256sum | cut -c1-16
}

# pcv_host_tool: the tool built for the host, which reads the table
# (types --table); rebuilt only when its sources change.
pcv_host_tool() {
	local tool=$PC_OUT/host/provoke-crash key
	key=$(cat "$PC_ROOT"/tools/provoke-crash.c "$PC_ROOT"/tools/checks.[ch] \
		"$PC_ROOT"/module/parse*.[ch] "$PC_ROOT"/include/*.h |
		sha256sum | cut -c1-16)
	if [ "$(cat "$tool.key" 2>/dev/null)" != "$key" ] || [ ! -x "$tool" ]; then
		mkdir -p "$PC_OUT/host"
		gcc -O0 -I"$PC_ROOT/include" -o "$tool" "$PC_ROOT/tools/provoke-crash.c" \
			"$PC_ROOT/tools/checks.c" "$PC_ROOT/module/parse.c" \
			"$PC_ROOT/module/parse_compare.c" \
			"$PC_ROOT/module/parse_caller.c" || return 1
		echo "$key" >"$tool.key"
	fi
	echo "$tool"
}

# pcv_check_arm SPEC TABLE: a crash point's line, checked against the
# table (TABLE: types --table for the guest's architecture) and the
# control file's grammar; prints the type's name.
pcv_check_arm() {
	local spec=$1 table=$2 where type kv key val seen=" " callers=0
	read -r where type kv <<<"$spec"
	[ -n "$type" ] || pcv_usage_error "--arm '$spec': give 'SYMBOL[+OFFSET|%return] TYPE [KEY=VALUE]...'"
	[[ $where == '!'* ]] && pcv_usage_error "--arm '$spec': disarming has no place here (every point is new in the guest)"
	[[ $where =~ ^[^+%]+(\+(0x[0-9a-fA-F]+|[0-9]+)|%return)?$ ]] ||
		pcv_usage_error "--arm '$spec': '$where' is not SYMBOL, SYMBOL+OFFSET (decimal or 0x hex) or SYMBOL%return"
	pcv_check_type "$type" "$table" "--arm '$spec'"
	for kv in $kv; do
		# argN at an entry, retval at %return: KEY OP VALUE.
		if [[ $kv =~ ^(arg[1-6]|retval)(!=|<=|>=|=|<|>|\&)(.*)$ ]]; then
			key=${BASH_REMATCH[1]} val=${BASH_REMATCH[3]}
			[[ $val =~ ^(-?[0-9]+|0[xX][0-9a-fA-F]+)$ ]] ||
				{ [ "$key" = retval ] && [[ $val =~ ^-E[A-Z0-9]+$ ]]; } ||
				pcv_usage_error "--arm '$spec': bad value in '$kv' (a number, 0x hex, or for retval -ENAME)"
			if [ "$key" = retval ]; then
				[[ $where == *%return ]] ||
					pcv_usage_error "--arm '$spec': retval is known at SYMBOL%return only"
			elif [[ $where == *%return || $where =~ \+(0[xX])?0*[1-9a-fA-F] ]]; then
				pcv_usage_error "--arm '$spec': argN is known at a function's entry only"
			fi
			continue
		fi
		# caller=SYMBOL or caller!=SYMBOL, at most 4: the guest's
		# module looks the name up.
		if [[ $kv =~ ^caller(!=|=)(.*)$ ]]; then
			[[ ${BASH_REMATCH[2]} =~ ^([A-Za-z0-9_]+:)?[A-Za-z0-9_.]+$ ]] ||
				pcv_usage_error "--arm '$spec': bad name in '$kv' (caller=SYMBOL or caller!=SYMBOL, MODULE:SYMBOL too)"
			callers=$((callers + 1))
			[ $callers -le 4 ] ||
				pcv_usage_error "--arm '$spec': at most 4 caller conditions"
			continue
		fi
		[[ $kv =~ ^caller[\<\>\&!] ]] &&
			pcv_usage_error "--arm '$spec': caller takes only = or != in '$kv'"
		key=${kv%%=*} val=${kv#*=}
		{ [ "$key" != "$kv" ] && [ -n "$val" ]; } ||
			pcv_usage_error "--arm '$spec': '$kv' is not KEY=VALUE"
		case $key in
		after | every | pid | cpu) [[ $val =~ ^[0-9]+$ ]] ;;
		times) [[ $val =~ ^(-1|[0-9]+)$ ]] ;;
		probability) [[ $val =~ ^[0-9]+$ ]] && [ "$val" -le 100 ] ;;
		comm) [ ${#val} -le 15 ] ;;
		ms)
			# delay's and spin's only; a longer spin is a lockup.
			case $type in delay | spin) ;; *)
				pcv_usage_error "--arm '$spec': ms= is for delay and spin only" ;;
			esac
			if ! [[ $val =~ ^[0-9]{1,5}$ ]] || [ "$val" -lt 1 ] || [ "$val" -gt 10000 ]; then
				pcv_usage_error "--arm '$spec': ms must be 1 to 10000"
			fi
			if [ "$type" = spin ] && [ "$val" -gt 1000 ]; then
				pcv_usage_error "--arm '$spec': spin is capped at ms=1000: a longer spin is a lockup (the lockup types are for that)"
			fi
			;;
		*) pcv_usage_error "--arm '$spec': unknown condition '$key' (after= every= times= probability= pid= comm= cpu= ms=, argN or retval OP VALUE, caller= or caller!=)" ;;
		esac || pcv_usage_error "--arm '$spec': bad value in '$kv' (see --help)"
		[[ $seen == *" $key "* ]] && pcv_usage_error "--arm '$spec': '$key' given twice"
		seen="$seen$key "
	done
	echo "$type"
}

# pcv_check_type TYPE TABLE WHAT: TYPE is in the table, and runs on this
# architecture (the table's x86_64 / arm64 needs words).
pcv_check_type() {
	local type=$1 table=$2 what=$3 near
	if ! cut -f1 "$table" | grep -qx -- "$type"; then
		near=$(cut -f1 "$table" | grep -F -- "${type:0:4}" | head -n 4 | tr '\n' ' ')
		pcv_usage_error "$what: no crash type '$type'${near:+ (did you mean: ${near% }?)}; '$0 --list-types' lists them"
	fi
}

# pcv_type_field TABLE TYPE N: field N of TYPE's table line (4 fate,
# 5 needs, 6 expected texts).
pcv_type_field() {
	awk -F'\t' -v t="$2" -v n="$3" '$1 == t { print $n; exit }' "$1"
}

# pcv_build REL: pc_build without the twin module, skipped when the
# sources, the kernel's build tree and the compiler are those of the
# last build here.
pcv_build() {
	local rel=$1 dir=$PC_OUT/$1 kdir key
	kdir=$(pc_rel_root "$rel")/usr/src/linux-headers-$rel
	key="$(pcv_sources_key) $rel $(stat -L -c %s.%Y "$kdir/Module.symvers" 2>/dev/null)"
	key="$key $(gcc -dumpfullversion)"
	if [ "$(cat "$dir/build.key" 2>/dev/null)" = "$key" ] &&
		[ -f "$dir/src/module/provoke_crash.ko" ] && [ -x "$dir/pc-guest" ]; then
		PCV_BUILT=cached
		return 0
	fi
	rm -f "$dir/build.key" "$dir/initramfs-base.key"
	pc_build "$rel" 0 || return 1
	echo "$key" >"$dir/build.key"
	# shellcheck disable=SC2034 # tools/provoke-crash-vm logs it
	PCV_BUILT=built
}

# pcv_initramfs REL WORK: the guest's initramfs in WORK/initrd: the
# release's base (busybox, the module, the tools, /init; packed once per
# build) and this run's archive (WORK/root: the script, the files given
# with --file), concatenated; the kernel unpacks both.
pcv_initramfs() {
	local rel=$1 work=$2 dir=$PC_OUT/$1 key
	# The build, what pc_pack_initramfs copies (guest, the way
	# it packs) and busybox.
	key="$(cat "$dir/build.key") $(stat -L -c %Y "$(pc_rel_root "$rel")/bin/busybox")"
	key="$key $(cd "$PC_ROOT" && find guest tools/pc-vm-lib.sh tools/pc-initramfs.sh -type f | LC_ALL=C sort |
		xargs sha256sum | sha256sum | cut -c1-16)"
	if [ "$(cat "$dir/initramfs-base.key" 2>/dev/null)" != "$key" ] ||
		[ ! -f "$dir/initramfs-base.cpio" ]; then
		pc_pack_initramfs "$rel" "" || return 1
		mv "$dir/initramfs.cpio" "$dir/initramfs-base.cpio"
		echo "$key" >"$dir/initramfs-base.key"
	fi
	# This run's files alone: a restored guest gets them on its command
	# port, from a guest saved from the base; a booted one, after it.
	(cd "$work/root" && find . | cpio -o -H newc --quiet) >"$work/run.cpio" &&
		cat "$dir/initramfs-base.cpio" "$work/run.cpio" >"$work/initrd"
}

# pcv_guest_script: the script /init sources in the guest, as PID 1.
# Nothing is armed before the start marker.  After arming, PID 1 runs
# shell builtins only, so that a hit in PID 1 is the runner's own and is
# never credited to the user's command, which runs in a child; the end
# marker follows it, and only then are the counters read (a hit there is
# PID 1's and after the end marker: the runner's too).  With --shell the
# shell is the command: its own start (busybox sh calls getppid) counts.
pcv_guest_script() {
	cat <<'SCRIPT'
# provoke-crash-vm's guest script (PID 1, sourced by /init).
C=$D/crashpoints
pc_arm=$(cat /pc/arm)
pc_run=$(cat /pc/run.sh 2>/dev/null)
echo "PC-RUN-BEGIN" >/dev/kmsg
echo "PC-RUN-BEGIN"
{
pc_refused=""
if [ -n "$pc_arm" ] && ! printf '%s\n' "$pc_arm" >$C; then
	pc_refused="PC-ARM-REFUSED"
elif [ -s /pc/trigger ]; then
	pc_out=$(pc-guest write "$D/$(cat /pc/trigger)" 1)
	echo "$pc_out"
	case $pc_out in *error*) pc_refused="PC-TRIGGER-REFUSED" ;; esac
elif [ -e /pc/shell ]; then
	PS1='pc-vm# ' setsid cttyhack sh -i
elif [ -n "$pc_run" ]; then
	# A subshell, not "sh FILE": a new sh would make its own system
	# calls (getppid at start) before the command's.
	(eval "$pc_run") </dev/null
fi
pc_rc=$?
if [ -n "$pc_refused" ]; then
	# Nothing was armed: the module's own lines say why.
	echo "$pc_refused"
	dmesg | sed -n '/PC-RUN-BEGIN/,$p' | grep 'provoke_crash: ' | sed 's/^/PC-WHY /'
	echo "PC-RUN-END" >/dev/kmsg
	poweroff -f -n
fi
echo "PC-RUN-END $pc_rc" >/dev/kmsg
echo "PC-RUN-END $pc_rc"
while IFS= read -r pc_l; do
	echo "PC-POINT $pc_l"
done <$C
# No oops, no panic: ramoops kept nothing, and a reboot would only show
# that; disarm first, so that dmesg cannot hit a point.
printf '\n' >$C
if ! dmesg | grep -Eq 'Oops|Kernel panic|BUG'; then
	echo "PC-NO-OOPS"
	poweroff -f -n
fi
}
SCRIPT
}

# pcv_watch CONSOLE EVENTS: host times of the guest's milestones, for
# the timing line: the start marker and the first crash line.
pcv_watch() {
	local console=$1 events=$2 seen="" fatal
	: >"$events"
	# The kernel's own words for a crash, as the engine reads them.
	fatal=$(pcv_engine fatal-re) || return
	while :; do
		if [[ $seen != *b* ]] && grep -q 'PC-RUN-BEGIN' "$console" 2>/dev/null; then
			echo "begin $(date +%s.%N)" >>"$events" && seen+=b
		fi
		# The crash: the kernel's words for it, not the hit (a lockup
		# is reported seconds after).
		if [[ $seen == *b* ]] && [[ $seen != *c* ]] &&
			sed -n '/PC-RUN-BEGIN/,$p' "$console" | grep -Eq "$fatal"; then
			echo "crash $(date +%s.%N)" >>"$events" && seen+=c
		fi
		sleep 0.2
	done
}

# pcv_engine COMMAND WORK ...: the engine's reading of a run's work
# directory (python3 -m pcengine.runner_verdict: run, verdict,
# credited, fatal-re).
pcv_engine() {
	pc_engine runner_verdict "$@"
}
