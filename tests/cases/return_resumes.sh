# A fatal type at a %return point whose crash does not happen where the
# function returned (write_ro with rodata=off: the module's read-only
# data is writable, the protection is missing) counts the hit missed,
# says so, and the caller goes on with what the function returned:
# getppid() gives the shell's pid, the kernel stays up, and rmmod works
# (it waits for the landing, which left its slot, to leave the module's
# text).  The same for a second hit: the first left nothing held.
# boot: rodata=off
# expect: provoke_crash: @sys@getppid%return: write_ro: 
# expect: FAIL: write_ro returned: the kernel survived a crash it should not have
# expect: crashpoints: @sys@getppid%return: write_ro returned: the path goes on
# expect-out: ret 1: getppid = the shell's pid
# expect-out: ret 2: getppid = the shell's pid
# expect-out: after: @sys@getppid%return write_ro times=2 comm=pc-ret hits=[0-9]+ eligible=2 filtered=[0-9]+ fired=0 missed=2 context=path
# expect-out: rmmod: ok
# expect-out: PC-GUEST-END
# reject: Kernel panic|BUG:|cannot resume|Oops|Unable to handle
# shellcheck shell=dash
C=$D/crashpoints
cp /bin/pc-guest /tmp/pc-ret
pc-guest write "$C" "@sys@getppid%return write_ro times=2 comm=pc-ret" >/dev/null
for i in 1 2; do
	/tmp/pc-ret ret getppid >/tmp/ret
	read -r _ _ _ v </tmp/ret
	if [ "$v" = "$$" ]; then
		echo "ret $i: getppid = the shell's pid"
	else
		echo "ret $i: getppid = $v, not the shell's $$"
	fi
done
echo "after: $(cat "$C")"
pc-guest write "$C" "\n" >/dev/null
rmmod provoke_crash && echo "rmmod: ok"
