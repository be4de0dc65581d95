# A %return point (a kretprobe) fires when the function returns, with the
# crash it names: here a NULL dereference, on the way out of getppid.
# pstore: 1
# expect-out: armed: @sys@getppid%return null_dereference hits=0 fired=0 missed=0 context=atomic
# expect: provoke_crash: @sys@getppid%return: null_dereference: 
# expect@x86_64: BUG: kernel NULL pointer dereference
# expect@x86_64: RIP: 0010:pc_crash_null_dereference
# expect@arm64: Unable to handle kernel NULL pointer dereference
# expect@arm64: pc : pc_crash_null_dereference
# expect@arm64: __kretprobe_trampoline
# On arm64 the shell that runs this case has been seen to die of SIGSEGV
# right after the oops in the return trampoline (see Known issues), so
# the line after it is only required on x86-64.
# expect-out@x86_64: after: @sys@getppid%return null_dereference hits=1 fired=1
# expect-out: PC-PSTORE-BEGIN dmesg-ramoops-[0-9]+
# expect-out: provoke_crash: @sys@getppid%return: null_dereference: 
# reject: FAIL:
pc-guest write $D/crashpoints "@sys@getppid%return null_dereference" >/dev/null
echo "armed: $(cat $D/crashpoints)"
pc-guest hit getppid 1
echo "after: $(cat $D/crashpoints)"
