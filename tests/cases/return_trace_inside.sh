# A stack trace taken inside a function whose return is diverted goes on
# through its caller.  x86-64 runs the function one gap lower on its
# stack and leaves the real return address in place, where the landing's
# unwind hint points: the landing shows as one reliable frame, between
# the function and its caller.  arm64's frame records chain on through
# the landing.  Two traces: a report point inside getppid(2) (its %return
# diverted), and /proc/PID/stack of a reader asleep inside vfs_read
# (diverted too), which then returns into its crash.  7.2 reads a FIFO
# through fifo_pipe_read and anon_pipe_read, not pipe_read; 5.10 goes
# through new_sync_read.
# expect: provoke_crash: vfs_read%return: bugon: 
# expect: kernel BUG at .*bugs\.c
# expect-out@x86_64: report 1: __task_pid_nr_ns\+0x
# expect-out@x86_64: report 2: (__do_sys_getppid|__x64_sys_getppid)\+0x
# expect-out@x86_64: report 3: pc_return_shifted\+0x1/
# expect-out@x86_64: report 4: (do_syscall_64|x64_sys_call)\+0x
# expect-out@x86_64: stack: (anon_pipe_read\+0x[0-9a-f]+/0x[0-9a-f]+ fifo_)?pipe_read\+0x[0-9a-f]+/0x[0-9a-f]+ (new_sync_read\+0x[0-9a-f]+/0x[0-9a-f]+ )?vfs_read\+0x[0-9a-f]+/0x[0-9a-f]+ pc_return_shifted\+0x1/0x1 \[provoke_crash\] ksys_read\+
# expect-out@arm64: report 1: __task_pid_nr_ns\+0x
# expect-out@arm64: report 2: __arm64_sys_getppid\+0x
# expect-out@arm64: report 3: pc_return_landing(_pad)?\+0x
# expect-out@arm64: report 4: (invoke_syscall|el0_svc_common)
# expect-out@arm64: stack: (anon_pipe_read\+0x[0-9a-f]+/0x[0-9a-f]+ fifo_)?pipe_read\+0x[0-9a-f]+/0x[0-9a-f]+ vfs_read\+0x[0-9a-f]+/0x[0-9a-f]+ pc_return_landing(_pad)?\+0x[0-9a-f]+/0x[0-9a-f]+ \[provoke_crash\] (ksys_read|__arm64_sys_read)\+
# expect-out: getppid: @sys@getppid%return null_dereference comm=pc-getppid hits=1 eligible=1 filtered=0 fired=1 missed=0 context=path
# expect-out: PC-GUEST-END
# reject: pc_return_divert\+
# shellcheck shell=dash
C=$D/crashpoints
cp /bin/pc-guest /tmp/pc-getppid
cp /bin/pc-guest /tmp/pc-reader

# getppid(2) returns into a crash that comes back: its caller cannot go
# on, so the task dies (null_dereference: an oops in this task only).
pc-guest write "$C" "@sys@getppid%return null_dereference comm=pc-getppid\n__task_pid_nr_ns report comm=pc-getppid times=-1" >/dev/null
/tmp/pc-getppid hit getppid 1
echo "getppid: $(grep %return "$C")"
pc-guest write "$C" "\n" >/dev/null
# The last report before the crash is getppid's: its reliable frames,
# from __task_pid_nr_ns on.
dmesg | awk '/getppid%return: null_dereference/ { exit }
	/report: hit by pc-getppid/ { n = 0; f = 0; delete l }
	/ __task_pid_nr_ns\+0x/ && !/\] +\? / { f = 1 }
	f && !/\] +\? / && / [a-zA-Z_.0-9]+\+0x/ { sub(/^.*\] +/, ""); l[++n] = $0 }
	/<\/TASK>/ { f = 0 }
	END { for (i = 1; i <= 4 && i <= n; i++) print "report " i ": " l[i] }'

mkfifo /tmp/fifo
pc-guest write "$C" "vfs_read%return bugon comm=pc-reader" >/dev/null
/tmp/pc-reader read /tmp/fifo &
reader=$!
exec 3>/tmp/fifo
i=0
while [ $i -lt 100 ] && ! grep -q pipe_read /proc/$reader/stack; do
	sleep 0.1
	i=$((i + 1))
done
echo "stack: $(sed 's/^\[<[0-9a-f]*>\] //' /proc/$reader/stack | tr '\n' ' ')"
echo x >&3
wait $reader
exec 3>&-
