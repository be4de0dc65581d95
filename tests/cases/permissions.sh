# Files are 0200 (triggers), 0400 (types), 0600 (crashpoints); an
# unprivileged user can neither trigger nor arm.  Nor can root without
# CAP_SYS_ADMIN: each file that takes writes checks it, with a line.
# debug-slice: no: file modes and capability checks, no memory path
# expect-out: mode panic: --w-------
# expect-out: mode types: -r--------
# expect-out: mode crashpoints: -rw-------
# expect-out: nobody_trigger: .*Permission denied
# expect-out: nobody_arm: .*Permission denied
# expect-out: nocap_trigger: write: error EPERM
# expect: provoke_crash: trigger: pc-guest\[[0-9]+\]: writing panic needs CAP_SYS_ADMIN
# expect-out: nocap_arm: write: error EPERM
# expect: provoke_crash: crashpoints: pc-guest\[[0-9]+\]: writing needs CAP_SYS_ADMIN
# expect-out: nocap_direct: write: error EPERM
# expect: provoke_crash: DIRECT: pc-guest\[[0-9]+\]: writing needs CAP_SYS_ADMIN
# expect-out: nocap_offsets: write: error EPERM
# expect: provoke_crash: offsets: pc-guest\[[0-9]+\]: writing needs CAP_SYS_ADMIN
# expect-out: points: 0
# expect-out: PC-GUEST-END
# reject: BUG:|Oops|Kernel panic|provoke_crash: trigger: panic:|DIRECT: PANIC
# shellcheck shell=dash
for f in panic types crashpoints; do
	echo "mode $f: $(stat -c %A "$D/$f")"
done
echo 'root:x:0:0:root:/:/bin/sh' >/etc/passwd
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
echo 'root:x:0:' >/etc/group
echo "nobody_trigger: $(su nobody -c "pc-guest write $D/panic 1" 2>&1)"
echo "nobody_arm: $(su nobody -c "pc-guest write $D/crashpoints '@sys@getppid panic'" 2>&1)"
for f in trigger:panic arm:crashpoints direct:DIRECT offsets:offsets; do
	case $f in
	direct:*) text=PANIC ;;
	arm:*) text='@sys@getppid panic' ;;
	offsets:*) text=@sys@getppid ;;
	*) text=1 ;;
	esac
	echo "nocap_${f%%:*}: $(pc-guest nocapwrite "$D/${f#*:}" "$text")"
done
echo "points: $(grep -c . "$D/crashpoints")"
