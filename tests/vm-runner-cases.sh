# SPDX-License-Identifier: GPL-2.0
# The VM runner's own cases, sourced by tests/run: tools/provoke-crash-vm is
# run on the host as a user runs it, and its exit status and output are
# checked.  Uses tests/bench-step's $results, $kernels, $filter, $PC_OUT and
# pc-vm-lib.sh.  Twelve of them run guests (a repeat run of the runner
# takes about 15 s, the debug kernel's about 90 s); the option checks,
# the completion and the accelerator's cache boot nothing.
# shellcheck shell=bash

# vm_check NAME STATUS PATTERNS ARGS...: run the VM runner with ARGS as a
# user would; it must exit with STATUS and print every line of PATTERNS
# (EREs; one that starts with ! must not appear).  Appends the case's
# result to $vm_out (default vm.result); the runner's build directory is
# $vm_dir (default $PC_OUT/vm).  VM_RUN, if set, is a command put before
# the runner (the pty driver).
vm_check() {
	: "${results?}" "${filter?}" # tests/bench-step sets them
	local name=$1 want=$2 pats=$3 log=$results/vm-$1.log why="" rc pat
	shift 3
	echo "vm/$name" | grep -Eq -- "$filter" || return 0
	# The runner's saved guests stay in the bench's tree, apart from the
	# user's cache.
	local dir=${vm_dir:-$PC_OUT/vm}
	# shellcheck disable=SC2086 # VM_RUN is a command and its words
	PC_OUT=$dir PC_SNAPSHOT_CACHE=$dir/snapshots \
		${VM_RUN:-} "$PC_ROOT/tools/provoke-crash-vm" "$@" >"$log" 2>&1
	rc=$?
	tr -d '\r' <"$log" >"$log.txt"
	[ $rc = "$want" ] || why="exit status $rc, expected $want"
	while IFS= read -r pat; do
		[ -n "$why" ] && break
		if [[ $pat == '!'* ]]; then
			! grep -Eq -- "${pat#!}" "$log.txt" || why="unexpected in its output: ${pat#!}"
		else
			grep -Eq -- "$pat" "$log.txt" || why="missing in its output: $pat"
		fi
	done <<<"$pats"
	vm_result "$name" "$why" "$log.txt"
}

# vm_result NAME WHY LOG: ok with the lines that prove it, or not ok with
# the log's tail; appended to $vm_out, else to vm.result.
vm_result() {
	local name=$1 why=$2 log=$3
	if [ -z "$why" ]; then
		echo "ok vm/$name"
		if [ "$name" = bad_options ] || [ "$name" = accel_cache ]; then
			sed 's/^/#   /' "$log"
		elif [ "$name" = readme_first_command ]; then
			# Its transcript: arm, hit, the oops's first lines, the
			# trace, the pstore record's, the times and the verdict.
			sed -n '1,/#PF: error_code/p' "$log" | sed 's/^/#   /'
			echo "#   ..."
			sed -n '/^=== call trace/,$p' "$log" | sed 's/^/#   /'
		else
			grep -E '^\+ |hits=|^note: |^  provoke_crash: |^# time|^runs: |^pc-vm# .|^ok 1 ' "$log" |
				awk '!seen[$0]++' | head -n 12 | sed 's/^/#   /'
			grep '^provoke-crash-vm: ' "$log" | tail -n 1 | sed 's/^/#   /'
		fi
	else
		echo "not ok vm/$name"
		echo "# $why"
		tail -n 30 "$log" | sed 's/^/# /'
	fi >>"${vm_out:-$results/vm.result}"
	pc_log "done vm/$name"
}

# vm_bad_options: mistakes the runner must catch on the host, before it
# builds or boots anything: each exits 2 within 5 s with one line that
# names the mistake.  Also --help (conditions, %return), the command
# the errors point at, the man page's synopsis and the bash completion.
# No guest.
vm_bad_options() {
	local log=$results/vm-bad_options.log why="" line args want rc t0 t
	echo "vm/bad_options" | grep -Eq -- "$filter" || return 0
	: >"$log"
	while IFS='|' read -r args want; do
		t0=$(date +%s%N)
		eval "PC_OUT=\$PC_OUT/vm \"\$PC_ROOT/tools/provoke-crash-vm\" $args" </dev/null >"$log.one" 2>&1
		rc=$? t=$((($(date +%s%N) - t0) / 1000000))
		line=$(cat "$log.one")
		echo "$args -> $rc in ${t} ms: $line" >>"$log"
		if [ $rc != 2 ]; then why="$args: exit status $rc, expected 2"
		elif [ $t -ge 5000 ]; then why="$args: took $t ms"
		elif [ "$(wc -l <"$log.one")" != 1 ]; then why="$args: not one line: $line"
		elif ! grep -Eq -- "$want" "$log.one"; then why="$args: no '$want' in: $line"
		fi
		[ -n "$why" ] && break
	done <<'BAD'
--timeout abc|--timeout 'abc': give a whole number
--smp 0|--smp '0'
--frobnicate|unknown option '--frobnicate'
--arm 'vfs_read nosuchtype'|no crash type 'nosuchtype'
--trigger nosuchtype|no crash type 'nosuchtype'
--arm 'vfs_read bugon' --trigger panic|--arm and --trigger do not go together
--trigger panic --run true|--run and --trigger
--arm 'vfs_read bugon colour=red'|unknown condition 'colour' \(after= every= times=
--arm 'vfs_read bugon times=x'|bad value in 'times=x'
--arm 'vfs_read bugon caller<=ksys_read'|caller takes only = or != in 'caller<=ksys_read'
--arm 'vfs_read bugon caller=a caller=b caller=c caller=d caller!=e'|at most 4 caller conditions
--arm 'vfs_read bugon caller=ksys_read+4'|bad name in 'caller=ksys_read\+4'
--arm vfs_read|give 'SYMBOL\[\+OFFSET\|%return\] TYPE
--arm 'vfs_read+4x bugon'|'vfs_read\+4x' is not SYMBOL
--kernel 5.10|--kernel '5.10': not a series
--kernel /etc/hostname|give its build tree with --kdir
--kernel /etc/hostname --kdir /tmp|not an x86-64 bzImage
--kdir /tmp|--kdir needs --kernel IMAGE
--bt|--bt needs --kdump
--trigger pac_corruption|pac_corruption runs only on arm64
--file /nonexistent/repro|no file '/nonexistent/repro'
--shell|--shell needs a terminal
--arm|--arm needs a value
BAD
	if [ -z "$why" ]; then
		PC_OUT=$PC_OUT/vm "$PC_ROOT/tools/provoke-crash-vm" --help >"$log.one" 2>&1
		for line in 'after=N every=N' 'probability=P pid=N comm=NAME cpu=N' '%return' \
			'--kernel IMAGE --kdir DIR' '4 the module' '5 a point of a report' \
			'(NAME: at most 15 characters' '--list-types' '(default build/vm/kdump-DATE)'; do
			grep -qF -- "$line" "$log.one" || why="--help lacks '$line'"
		done
	fi
	# Without PC_OUT the runner builds under build/vm, where --help puts
	# --kdump's dump: its host tool is rebuilt there.
	if [ -z "$why" ]; then
		rm -f "$PC_ROOT/build/vm/host/provoke-crash.key"
		env -u PC_OUT "$PC_ROOT/tools/provoke-crash-vm" --trigger nosuchtype >/dev/null 2>&1
		[ -f "$PC_ROOT/build/vm/host/provoke-crash.key" ] ||
			why="without PC_OUT the runner did not build in build/vm, where --help puts --kdump's dump"
	fi
	# An unknown type's error names a command that lists the types: run it.
	if [ -z "$why" ]; then
		line=$(PC_OUT=$PC_OUT/vm "$PC_ROOT/tools/provoke-crash-vm" --trigger nosuchtype 2>&1 |
			sed -n "s/.*; '\(.*\)' lists them\$/\1/p")
		echo "lists the types: $line" >>"$log"
		if [ -z "$line" ]; then
			why="--trigger nosuchtype names no command that lists the types"
		elif ! PC_OUT=$PC_OUT/vm $line >"$log.one" 2>&1 || ! grep -q '^read_after_free ' "$log.one"; then
			why="'$line' did not list read_after_free"
		fi
	fi
	# provoke-crash(8)'s synopsis of arm and disarm.
	if [ -z "$why" ] && [ "$(grep -A1 -E '^\.B provoke-crash (arm|disarm)$' \
		"$PC_ROOT/tools/provoke-crash.8" | grep -c '%return')" != 2 ]; then
		why="provoke-crash.8: the synopsis of arm or disarm lacks %return"
	fi
	if [ -z "$why" ]; then
		line=$(bash -c '. "$1"; COMP_WORDS=("$2" --trigger read_a); COMP_CWORD=2
			_provoke_crash_vm; echo "${COMPREPLY[*]}"' _ \
			"$PC_ROOT/tools/provoke-crash-vm.bash-completion" "$PC_ROOT/tools/provoke-crash-vm")
		[ "$line" = read_after_free ] || why="completion of '--trigger read_a' gave '$line'"
		echo "completion: --trigger read_a -> $line" >>"$log"
	fi
	if [ -z "$why" ]; then
		# In an empty folder: --kernel completes file names too.
		line=$(mkdir -p "$results/vm-empty" && cd "$results/vm-empty" &&
			bash -c '. "$1"; COMP_WORDS=("$2" --kernel cl); COMP_CWORD=2
			_provoke_crash_vm; echo "${COMPREPLY[*]}"' _ \
			"$PC_ROOT/tools/provoke-crash-vm.bash-completion" "$PC_ROOT/tools/provoke-crash-vm")
		[ "$line" = clang ] || why="completion of '--kernel cl' gave '$line'"
		echo "completion: --kernel cl -> $line" >>"$log"
	fi
	vm_result bad_options "$why" "$log"
}

# vm_accel_cache: KVM is probed once per host: a second pick reads the
# cache that the bench and the runner share, at once, with the same
# answer (a stale entry, and one of another QEMU, are the engine's unit
# tests: engine/tests/test_accel.py).  No guest.
vm_accel_cache() {
	: "${kernels?}" # tests/bench-step sets them
	local log=$results/vm-accel_cache.log why
	echo vm/accel_cache | grep -Eq -- "$filter" || return 0
	: >"$log"
	# shellcheck disable=SC2016  # the script expands its own arguments
	why=$(env -u PC_ACCEL bash -c '
		. "$1/tools/pc-vm-lib.sh"
		pc_accel_pick 2>>"$2"
		first="$PC_ACCEL ($PC_ACCEL_WHY)"
		echo "first pick: $first" >>"$2"
		unset PC_ACCEL
		t0=$(date +%s%N)
		pc_accel_pick
		t=$((($(date +%s%N) - t0) / 1000000))
		echo "second pick: $PC_ACCEL ($PC_ACCEL_WHY) in $t ms" >>"$2"
		[ "$PC_ACCEL" = "${first%% *}" ] || echo "second pick $PC_ACCEL, first $first"
		[[ $PC_ACCEL_WHY == "cached: "*", probed "* ]] || echo "second pick not from the cache: $PC_ACCEL_WHY"
		[ "$t" -lt 1000 ] || echo "second pick took $t ms"
	' _ "$PC_ROOT" "$log" | head -n 1)
	vm_result accel_cache "$why" "$log"
}

# The README's first command, as a user runs it: it must end with the
# kernel's own report, the trace with the ftrace trampoline named, the
# ramoops record read back after the reset, and the times.  Then the
# runner's other verdicts, each in one guest.
# vm_debian_x86_series: the run's Debian x86-64 series, one a line.
vm_debian_x86_series() {
	local s
	for s in $kernels; do
		[ "$(pc_series_arch "$s")" = amd64 ] && ! pc_built_kernel "$s" && echo "$s"
	done
	return 0
}

vm_case() {
	local series="" other="" s repro cached accel
	for s in $(vm_debian_x86_series); do
		if [ -z "$series" ]; then series=$s; else other=$s; fi
	done
	vm_bad_options
	vm_accel_cache
	if [ -z "$series" ]; then
		echo "ok vm/readme_first_command # SKIP no Debian x86-64 series in PC_KERNELS" >>"$results/vm.result"
		return
	fi
	# Without PC_ACCEL, as a user runs it: the accelerator comes from
	# the cache that vm/accel_cache (or the bench) filled.
	accel='^# accelerator: (kvm|tcg) \('
	echo vm/accel_cache | grep -Eq -- "$filter" && accel="${accel}cached: .*, probed [0-9-]+\)$"
	VM_RUN="env -u PC_ACCEL" vm_check readme_first_command 0 "$accel"'
^=== kernel report
provoke_crash: __x64_sys_getppid: null_dereference: 
BUG: kernel NULL pointer dereference
ftrace trampoline
^=== pstore record in ramoops. memory, read by the host after the crash$
^dmesg-ramoops-0: Oops#1 Part1, [0-9]+ lines; it holds the report above
^# guest: restored \(saved guest [0-9a-f]+(, saved now in [0-9.]+ s)?\)
^# time: checks .*, build .*, (save and )?restore .*, crash .*, reset and pstore read .*, total
the kernel crashed as asked: null_dereference, hit by pc-guest\[' --kernel "$series" --timing
	# The man page's old example, a false pass: busybox's cat copies
	# with sendfile and never calls vfs_read; the runner's own reading
	# of the counters after the command hits it, and that is not the
	# command's crash.
	vm_check false_pass 1 '^\+ run: cat /proc/version$
^Linux version
^note: not credited: vfs_read bugon hit by the runner.s own shell \(PID 1\) after your command ended
provoke-crash-vm: the kernel survived your command' \
		--kernel "${other:-$series}" --arm 'vfs_read bugon' --run 'cat /proc/version'
	# Two points in one write, one of them refused: neither is armed, the
	# command never runs, and the module's own line says why.  The second
	# run on a series reuses the first one's module build and restores
	# its saved guest: a typo costs a restore, not a boot.  The guest
	# powers off at once after the start marker: --timing still times
	# the restore.
	cached='^# module: cached$'
	echo vm/readme_first_command | grep -Eq -- "$filter" || cached='^# module: (cached|built)$'
	vm_check arm_refused 4 "no such symbol
^  provoke_crash: crashpoints: pc_no_such_symbol: 
the module refused to arm the points; nothing ran:\$
$cached
!^SHOULD-NOT-RUN
!^=== (kernel report|pstore)
^# guest: restored \(saved guest [0-9a-f]+(, saved now in [0-9.]+ s)?\),
^# time: checks [0-9.]+s, build [0-9.]+s, (save and )?restore [0-9.]+s, no crash: run and power-off [0-9.]+s, total" \
		--kernel "$series" --arm '@sys@getppid null_dereference' \
		--arm 'pc_no_such_symbol bugon' --run 'echo SHOULD-NOT-RUN' --timing
	# A crash through DIRECT, with a point armed elsewhere: the verdict
	# names what was written to DIRECT, and the point is not credited.
	vm_check direct_named 0 '^__x64_sys_sync bugon hits=0 
provoke_crash: DIRECT\(EXCEPTION\): null_dereference: 
the kernel crashed from DIRECT, not at an armed point: EXCEPTION \(null_dereference\), written by [^ ]+\[[0-9]+\]: BUG: kernel NULL pointer dereference
!crashed as asked' \
		--kernel "$series" --arm '@sys@sync bugon' \
		--run 'echo EXCEPTION >/sys/kernel/debug/provoke-crash/DIRECT'
	# A reproducer built here, copied in with --file; the command, with
	# a $(...), runs once, as given; two vCPUs on request.
	repro=$results/vm-repro
	printf '#include <stdio.h>\n#include <unistd.h>\nint main(void)\n{\n\tprintf("repro: %%d\\n", (int)getppid());\n\treturn 0;\n}\n' >"$repro.c"
	if gcc -static -O2 -o "$repro" "$repro.c"; then
		# shellcheck disable=SC2016 # the guest expands the command's $(...)
		vm_check file_repro 0 '^\+ run: echo x >>/tmp/n; echo "runs: \$\(wc -l </tmp/n\)"; /root/vm-repro$
^runs: 1$
2 vCPUs
^__x64_sys_getppid null_dereference .*comm=vm-repro .*fired=1
the kernel crashed as asked: null_dereference, hit by vm-repro\[' \
			--kernel "$series" --file "$repro" --smp 2 \
			--arm '@sys@getppid null_dereference comm=vm-repro' \
			--run 'echo x >>/tmp/n; echo "runs: $(wc -l </tmp/n)"; /root/vm-repro'
	else
		echo "not ok vm/file_repro # gcc -static failed" >>"$results/vm.result"
	fi
	# The table's needs on their own: slub_debug for read_after_free, a
	# report that the kernel goes on after (status 5).
	vm_check needs_boot_params 5 '^\+ boot: slub_debug=FZPU$
read_after_free: the freed object reads as poison
reported as asked, the kernel went on: read_after_free' --kernel "$series" --trigger read_after_free
	# A report point that was hit is the run's success (status 5); cpu=1
	# boots a second vCPU without --smp.
	vm_check report_point 5 '^# cpu= asks for 2 vCPUs$
2 vCPUs
report: hit by pc-guest\[[0-9]+\] on CPU 1
reported as asked, the kernel went on: report' \
		--kernel "$series" --arm '@sys@getppid report cpu=1' \
		--run 'taskset -c 1 pc-guest hit getppid 1'
	# A type that needs a second CPU gets one without --smp.  A panic
	# leaves no end marker: the guest's output still ends before the
	# pstore record, which is read once, in its own section; with
	# --pstore-boot by a second boot, as a machine would read it.
	vm_check smp_from_needs 0 '^# panic_stop_irqoff needs a second CPU: 2 vCPUs$
2 vCPUs
^=== pstore record kept across the reboot$
^dmesg-ramoops-0: Panic#1 Part1, [0-9]+ lines; it holds the report above
!^PC-PSTORE-BEGIN
the kernel crashed as asked: panic_stop_irqoff' \
		--kernel "$series" --trigger panic_stop_irqoff --pstore-boot
	# --shell driven through a pty: type a command that hits the point.
	# No --timeout: a shell waits with no limit by default (the pty
	# driver has its own), and so does the read of ramoops after it.
	# The prompt and the typed command's echo are two checks: the kernel
	# may print between them (tsc's refined calibration, 2.1 s into a
	# boot whose initramfs now unpacks sooner).
	VM_RUN="$PC_PYTHON $PC_ROOT/tests/vm-shell-drive.py 240 --" \
		vm_check shell_pty 0 '^pc-vm#
^pc-vm# .*pc-guest hit sync 1$|^pc-guest hit sync 1$
BUG: kernel NULL pointer dereference
__x64_sys_sync null_dereference .*fired=1
^=== pstore record in ramoops. memory, read by the host after the crash$
the kernel crashed as asked: null_dereference, hit by pc-guest\[' \
		--kernel "$series" --shell --arm '@sys@sync null_dereference'
	# --kdump: the capture kernel reads the crash from the dump, and the
	# dump, the log read from it and the timing are kept.
	vm_check kdump 0 'BUG: kernel NULL pointer dereference
^=== kdump capture
^kdump: panic to capture kernel start [0-9.]+ s .*, dump [0-9.]+ MB
^saved in .*/vm-kdump-keep: vmcore \([1-9][0-9]+ bytes\), vmcore-dmesg.txt, capture.txt
kdump captured the crash: the log read from the dump shows null_dereference' \
		--kernel "$series" --kdump --keep "$results/vm-kdump-keep"
	# An oops in NMI context goes straight to the capture kernel: the
	# console shows only the trigger, and the verdict is the dump's.
	vm_check kdump_nmi 0 '^note: the console shows no crash of yours; the verdict reads the log from the dump
the kernel crashed as asked: oops_nmi_context
kdump captured the crash: the log read from the dump shows oops_nmi_context
!the kernel survived' \
		--kernel "$series" --kdump --trigger oops_nmi_context --keep "$results/vm-kdump-nmi-keep"
	rm -f "$results/vm-kdump-nmi-keep/vmcore"
	# --bt opens the dump with crash and the -dbg vmlinux: check-long only
	# (PC_KDUMP_CRASH=1), as it builds crash once and fetches 283 MB.
	if [ "${PC_KDUMP_CRASH:-0}" = 1 ]; then
		vm_check kdump_bt 0 '^=== bt of the task that crashed
exception RIP: pc_crash_null_dereference
#[0-9]+ .* pc_entry_eligible
kdump captured the crash: the log read from the dump shows null_dereference' \
			--kernel "$series" --kdump --bt --keep "$results/vm-kdump-bt-keep"
		rm -f "$results/vm-kdump-bt-keep/vmcore"
	fi
	# A kdump-compressed file starts with the signature "KDUMP   ".
	if [ -f "$results/vm-kdump-keep/vmcore" ] &&
		[ "$(head -c 8 "$results/vm-kdump-keep/vmcore")" != "KDUMP   " ]; then
		echo "not ok vm/kdump_vmcore_format # vmcore has no kdump signature" >>"$results/vm.result"
	fi
	rm -f "$results/vm-kdump-keep/vmcore"
	vm_check timed_out 3 '^\+ run: sleep 600
provoke-crash-vm: timed out after 20s$' \
		--kernel "$series" --arm '@sys@getpgid report' --run 'sleep 600' --timeout 20
	vm_bench_kernel_files "$series"
}

# vm_kernel_paths: a kernel given as paths: the debug kernel's image and
# build tree, as its cache holds them (not built here: that takes 13
# minutes).  Run when the bench reaches its debug series (the kernel is
# built then), or after the series, and only with a Debian x86-64 series (as
# vm_case); its result goes to vm-late.result, its build to vm-late/ (the
# two may overlap).
vm_kernel_paths() {
	local dbg vm_out=$results/vm-late.result vm_dir=$PC_OUT/vm-late
	[ -n "$(vm_debian_x86_series)" ] || return 0
	if dbg=$(pc_debug_dir debug 2>/dev/null) && [ -f "$dbg/stamp" ]; then
		vm_check kernel_paths 0 'provoke_crash: __x64_sys_getppid: null_dereference: 
Oops: .*KASAN
the kernel crashed as asked: null_dereference' \
			--kernel "$dbg/build/arch/x86/boot/bzImage" --kdir "$dbg/build" --timeout 400
	elif echo vm/kernel_paths | grep -Eq -- "$filter"; then
		echo "ok vm/kernel_paths # SKIP the debug kernel is not built (make debug-kernel)" >>"$vm_out"
	fi
}

# vm_bench_kernel_files SERIES: the bench itself on a kernel given as files
# (PC_KERNELS=IMAGE:TREE), as a developer runs it on their own build:
# here SERIES' Debian image and headers named by path, one case, in a
# bench of its own (its own build directory and root of links).
vm_bench_kernel_files() {
	: "${here?}" # tests/bench-step sets them
	local rel log=$results/vm-bench_kernel_files.log why="" out=$PC_OUT/bench-files
	echo vm/bench_kernel_files | grep -Eq -- "$filter" || return 0
	rel=$(pc_kernel_release "$1")
	if [ ! -f "/boot/vmlinuz-$rel" ]; then
		echo "ok vm/bench_kernel_files # SKIP no /boot/vmlinuz-$rel" >>"$results/vm.result"
		return
	fi
	# Its own run: nothing of this one's environment but the accelerator.
	env -u PC_JUNIT -u PC_KDUMP_CRASH -u PC_LIST -u PC_GUEST_CMDLINE PC_SHARD=1/1 \
		PC_OUT="$out" PC_KERNEL_ROOTS="$out/kernels" PC_LINT=0 PC_JOBS=1 PC_CASES='/point_in_path$' \
		PC_KERNELS="/boot/vmlinuz-$rel:/usr/src/linux-headers-$rel" "$here/run" >"$log" 2>&1
	grep -q "^ok 1 $rel/point_in_path\$" "$log" ||
		why="no 'ok 1 $rel/point_in_path' from PC_KERNELS=IMAGE:TREE"
	grep -qx '1 passed, 0 failed, 0 skipped' "$log" || why=${why:-"not '1 passed, 0 failed, 0 skipped'"}
	[ "$(readlink "$out/kernels/$rel/boot/vmlinuz-$rel")" = "/boot/vmlinuz-$rel" ] ||
		why=${why:-"the bench did not take the image from its path"}
	vm_result bench_kernel_files "$why" "$log"
}
