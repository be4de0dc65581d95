# SPDX-License-Identifier: GPL-2.0
# The VM runner's own helpers (tools/provoke-crash-vm): checks on the
# host, the cached build and initramfs, the guest's script, and the
# reading of the guest's console (its verdicts: pc-vm-verdict.sh).
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
			"$PC_ROOT/module/parse_compare.c" || return 1
		echo "$key" >"$tool.key"
	fi
	echo "$tool"
}

# pcv_check_arm SPEC TABLE: a crash point's line, checked against the
# table (TABLE: types --table for the guest's architecture) and the
# control file's grammar; prints the type's name.
pcv_check_arm() {
	local spec=$1 table=$2 where type kv key val seen=" "
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
		key=${kv%%=*} val=${kv#*=}
		{ [ "$key" != "$kv" ] && [ -n "$val" ]; } ||
			pcv_usage_error "--arm '$spec': '$kv' is not KEY=VALUE"
		case $key in
		after | every | pid | cpu) [[ $val =~ ^[0-9]+$ ]] ;;
		times) [[ $val =~ ^(-1|[0-9]+)$ ]] ;;
		probability) [[ $val =~ ^[0-9]+$ ]] && [ "$val" -le 100 ] ;;
		comm) [ ${#val} -le 15 ] ;;
		*) pcv_usage_error "--arm '$spec': unknown condition '$key' (after= every= times= probability= pid= comm= cpu=, argN or retval OP VALUE)" ;;
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
	key="$key $(cd "$PC_ROOT" && find guest tools/pc-vm-lib.sh -type f | LC_ALL=C sort |
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
	local console=$1 events=$2 seen=""
	: >"$events"
	while :; do
		if [[ $seen != *b* ]] && grep -q 'PC-RUN-BEGIN' "$console" 2>/dev/null; then
			echo "begin $(date +%s.%N)" >>"$events" && seen+=b
		fi
		# The crash: the kernel's words for it, not the hit (a lockup
		# is reported seconds after).
		if [[ $seen == *b* ]] && [[ $seen != *c* ]] &&
			sed -n '/PC-RUN-BEGIN/,$p' "$console" | grep -Eq "$PCV_FATAL_RE"; then
			echo "crash $(date +%s.%N)" >>"$events" && seen+=c
		fi
		sleep 0.2
	done
}

# The kernel's own words for a crash (not a report it goes on after).
PCV_FATAL_RE='Oops: |Kernel panic - not syncing|kernel BUG at|BUG: kernel NULL pointer|BUG: unable to handle'
PCV_FATAL_RE+='|Unable to handle kernel|general protection fault|divide error: |BUG: soft lockup'
PCV_FATAL_RE+='|Watchdog detected hard LOCKUP|detected stalls on CPU|INFO: task .* blocked for more than'
PCV_FATAL_RE+='|stack-protector: Kernel stack is corrupted'

# pcv_scan WORK TABLE [LOG]: read the first boot's console (WORK/console.log,
# or LOG: the crashed kernel's log read from a dump) into PCV_LINES (timestamps off) and find, after the start marker, each
# module hit line (PCV_HIT_AT, PCV_HIT_TYPE, PCV_HIT_PID, PCV_HIT_COMM,
# PCV_HIT_WHEN: run, or after the end marker) and the first crash line
# (PCV_CRASH_AT, PCV_CRASH_PID); PCV_BEGIN_AT is the start marker's line,
# PCV_END_AT ends the first boot.
pcv_scan() {
	local work=$1 table=$2 i j n phase=0 line names
	local hit_re='^provoke_crash: ([^ ]+): ([a-z0-9_]+): ' by_re='hit by (.+)\[([0-9]+)\]'
	local pid_re='PID: ([0-9]+) Comm: ([^ ]+)'
	local end_re='reboot: (Restarting system|Power down)|Rebooting in [0-9]+ seconds'
	PCV_CONSOLE=${3:-$work/console.log}
	mapfile -t PCV_LINES < <(tr -d '\r' <"$PCV_CONSOLE" |
		sed -E 's/^(<[0-9]+>)?\[ *[0-9]+\.[0-9]+\] //')
	n=${#PCV_LINES[@]}
	names=" $(cut -f1 "$table" | tr '\n' ' ') "
	PCV_HIT_AT=() PCV_HIT_TYPE=() PCV_HIT_PID=() PCV_HIT_COMM=() PCV_HIT_WHEN=() PCV_HIT_WHERE=()
	PCV_CRASH_AT="" PCV_CRASH_PID="" PCV_END_AT=$n PCV_FAIL="" PCV_BEGIN_AT=""
	for ((i = 0; i < n; i++)); do
		line=${PCV_LINES[i]}
		case $phase in
		0) [[ $line == PC-RUN-BEGIN* ]] && phase=1 PCV_BEGIN_AT=$i
			continue ;;
		1) [[ $line == PC-RUN-END* ]] && phase=2 && continue ;;
		esac
		if [[ $line =~ $end_re ]]; then
			PCV_END_AT=$i
			break
		fi
		# shellcheck disable=SC2034 # pc-vm-verdict.sh reads it
		[[ $line == *'provoke_crash: FAIL: '* ]] && [ $phase = 1 ] && PCV_FAIL=$line
		if [[ $line =~ $hit_re ]] &&
			[[ $names == *" ${BASH_REMATCH[2]} "* ]] && [ "${BASH_REMATCH[1]}" != crashpoints ]; then
			PCV_HIT_AT+=("$i") PCV_HIT_TYPE+=("${BASH_REMATCH[2]}") PCV_HIT_WHERE+=("${BASH_REMATCH[1]}")
			PCV_HIT_WHEN+=("$([ $phase = 1 ] && echo run || echo after)")
			PCV_HIT_PID+=("") PCV_HIT_COMM+=("")
			# The task: the next "hit by COMM[PID]" or "PID: N Comm: C".
			for ((j = i + 1; j < n && j < i + 80; j++)); do
				if [[ ${PCV_LINES[j]} =~ $by_re ]]; then
					PCV_HIT_PID[-1]=${BASH_REMATCH[2]} PCV_HIT_COMM[-1]=${BASH_REMATCH[1]}
					break
				elif [[ ${PCV_LINES[j]} =~ $pid_re ]]; then
					PCV_HIT_PID[-1]=${BASH_REMATCH[1]} PCV_HIT_COMM[-1]=${BASH_REMATCH[2]}
					break
				fi
				[[ ${PCV_LINES[j]} =~ $hit_re ]] && break
			done
		fi
		if [ -z "$PCV_CRASH_AT" ] && [ $phase = 1 ] && [[ $line =~ $PCV_FATAL_RE ]]; then
			PCV_CRASH_AT=$i
			for ((j = i; j < n && j < i + 40; j++)); do
				# shellcheck disable=SC2034 # pc-vm-verdict.sh reads it
				[[ ${PCV_LINES[j]} =~ $pid_re ]] &&
					PCV_CRASH_PID=${BASH_REMATCH[1]} && break
			done
		fi
	done
}

# pcv_trace FROM: the first call trace after line FROM, reliable frames
# only ("? " frames are stack leftovers); an address with no symbol in
# the module area is the ftrace trampoline that calls the entry point's
# callback, reliable or not.
pcv_trace() {
	local i=$1 n=${#PCV_LINES[@]} line on=0
	for ((; i < n && i < PCV_END_AT; i++)); do
		line=${PCV_LINES[i]}
		if [ $on = 0 ]; then
			[[ $line == 'Call '[Tt]'race:' ]] && on=1
			continue
		fi
		line=${line# }
		case $line in
		'<TASK>' | '<IRQ>' | '</IRQ>' | '<NMI>' | '</NMI>' | '<SOFTIRQ>' | '</SOFTIRQ>') echo "  $line" ;;
		'</TASK>' | 'Modules linked in:'* | '---['* | RIP:* | Code:*) break ;;
		# A bare address in the module area has no symbol: ftrace's
		# trampoline, generated code that calls the entry point's
		# callback (0xffffffffc0... with KASLR, 0xffffffffa0... without).
		0xffffffff[a-f]* | '? 0xffffffff'[a-f]*)
			echo "  $line  <- ftrace trampoline (calls the entry point's callback)" ;;
		'? '*) ;;
		# arm64's trampoline is ftrace's own code, with a symbol.
		ftrace_call+* | ftrace_regs_call+* | ftrace_caller+* | ftrace_regs_caller+*)
			echo "  ${line%%+*}  <- ftrace trampoline (calls the entry point's callback)" ;;
		[a-zA-Z_]*+0x*)
			if [[ $line == *' ['*']' ]]; then
				echo "  ${line%%+*} [${line##*[}"
			else
				echo "  ${line%%+*}"
			fi
			;;
		esac
	done
}

# pcv_report WORK: what the user reads: the command's output, the
# points' counters after it, the kernel's report (once, from the
# console), the call trace, and what pstore kept across the reboot.
# Refused points or trigger: only the output (the verdict says why).
pcv_report() {
	local work=$1 out from i rec
	out=$(tr -d '\r' <"$work/out.log")
	echo "=== guest output"
	# The command's output ends at the end marker; after a panic, which
	# leaves none, at the next boot's (pstore's or the capture kernel's).
	printf '%s\n' "$out" | awk '/^PC-RUN-BEGIN/ { on = 1; next }
		on && /^PC-(RUN-END|PSTORE-|KDUMP-)/ { exit }
		on && !/^PC-(ARM-REFUSED|TRIGGER-REFUSED|WHY )/'
	printf '%s\n' "$out" | grep -Eq '^PC-(ARM|TRIGGER)-REFUSED' && return
	if printf '%s\n' "$out" | grep -q '^PC-POINT '; then
		echo "=== points after the run"
		printf '%s\n' "$out" | sed -n 's/^PC-POINT //p'
	fi
	echo "=== kernel report"
	from=""
	[ ${#PCV_HIT_AT[@]} -gt 0 ] && from=${PCV_HIT_AT[0]}
	[ -n "$PCV_CRASH_AT" ] && { [ -z "$from" ] || [ "$PCV_CRASH_AT" -lt "$from" ]; } && from=$PCV_CRASH_AT
	if [ -z "$from" ]; then
		echo "(none: no hit, no crash after the start marker)"
	else
		tr -d '\r' <"$work/console.log" | sed -n "$((from + 1)),$((PCV_END_AT + 1))p"
		pcv_trace "$from" >"$work/trace"
		if [ -s "$work/trace" ]; then
			echo "=== call trace (reliable frames)"
			cat "$work/trace"
		fi
	fi
	# With --kdump (PCV_KDUMP=1) the capture kernel takes the reset's place.
	[ "${PCV_KDUMP:-0}" = 1 ] && return
	echo "=== pstore record kept across the reboot"
	if printf '%s\n' "$out" | grep -q '^PC-NO-OOPS'; then
		echo "(none: no oops and no panic, so no reboot)"
		return
	elif ! printf '%s\n' "$out" | grep -q '^PC-PSTORE-BEGIN'; then
		echo "(none)"
		return
	fi
	# Each record holds the whole log up to the crash: the report above
	# is not printed again, only what proves the record holds it.
	printf '%s\n' "$out" | sed -n '/^PC-PSTORE-BEGIN/,/^PC-PSTORE-END/p' |
		sed -e 's/^<[0-9]>//' -e 's/^\[ *[0-9]*\.[0-9]*\] //' >"$work/pstore"
	while IFS= read -r rec; do
		i=$(sed -n "/^PC-PSTORE-BEGIN $rec\$/,/^PC-PSTORE-END/p" "$work/pstore")
		printf '%s: %s, %d lines; ' "$rec" "$(printf '%s\n' "$i" | sed -n 2p)" \
			"$(printf '%s\n' "$i" | wc -l)"
		if [ -n "$from" ] && printf '%s\n' "$i" | grep -qxF -- "${PCV_LINES[from]}"; then
			echo "it holds the report above, from: ${PCV_LINES[from]}"
			printf '%s\n' "$i" | grep -E -m 3 -- "$PCV_FATAL_RE" | sed 's/^/  /'
		else
			echo "its last lines:"
			printf '%s\n' "$i" | tail -n 12 | sed 's/^/  /'
		fi
	done < <(sed -n 's/^PC-PSTORE-BEGIN //p' "$work/pstore")
}

# pcv_ts LINE: the guest's clock (seconds since its kernel started) on
# console line LINE (0-based, as in PCV_LINES), if it has one.
pcv_ts() {
	[ -n "$1" ] && [ "$1" -lt "${#PCV_LINES[@]}" ] || return 0
	sed -n "$(($1 + 1))p" "$PCV_CONSOLE" | tr -d '\r' |
		sed -nE 's/^(<[0-9]+>)?\[ *([0-9]+\.[0-9]+)\].*/\2/p'
}

# pcv_timing EVENTS T0 T1 T2 T3: one line: checks, build and pack, boot
# to the start marker, the crash after it, the rest (panic, reboot, the
# second boot reading pstore); without a crash, the run to power-off;
# without a start marker, the guest's whole time, and that it never got
# there.  The watcher's host times (EVENTS) miss a run that ends within
# its poll: then the guest's own clock gives the spans.
pcv_timing() {
	local b c gb gc ge end=reboot start=boot
	# A restored guest's first stretch is the restore (and the save,
	# on the first run that needed it).
	grep -q '^restored' "$6" 2>/dev/null && start=restore
	grep -q '^restored .*, saved now' "$6" 2>/dev/null && start="save and restore"
	b=$(sed -n 's/^begin //p' "$1") c=$(sed -n 's/^crash //p' "$1")
	gb=$(pcv_ts "$PCV_BEGIN_AT") gc=$(pcv_ts "$PCV_CRASH_AT") ge=$(pcv_ts "$PCV_END_AT")
	[ "${PCV_KDUMP:-0}" = 1 ] && end="capture and dump"
	# A first boot that powered off was QEMU's last.
	[[ ${PCV_LINES[PCV_END_AT]:-} == *'Power down'* ]] || ge=""
	awk -v t0="$2" -v t1="$3" -v t2="$4" -v t3="$5" -v b="$b" -v c="$c" \
		-v gb="$gb" -v gc="$gc" -v ge="$ge" -v end="$end" -v start="$start" \
		-v crashed="${PCV_CRASH_AT:+1}" 'BEGIN {
		if (b == "" && gb != "") {
			if (c != "" && gc != "")
				b = c - (gc - gb)
			else if (ge != "")
				b = t3 - (ge - gb)
			else
				b = t2 + gb
		}
		if (c == "" && crashed && gc != "" && b != "")
			c = b + (gc - gb)
		printf "# time: checks %.1fs, build %.1fs, ", t1 - t0, t2 - t1
		if (b == "")
			printf "guest %.1fs: no start marker, nothing ran", t3 - t2
		else if (c != "")
			printf "%s %.1fs, crash %.1fs, %s %.1fs", start, b - t2, c - b, end, t3 - c
		else
			printf "%s %.1fs, no crash: run and power-off %.1fs", start, b - t2, t3 - b
		printf ", total %.1fs\n", t3 - t0
	}' >&2
}
