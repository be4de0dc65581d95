# Files are 0200 (triggers), 0400 (types), 0600 (crashpoints); an
# unprivileged user can neither trigger nor arm.
# expect-out: mode panic: --w-------
# expect-out: mode types: -r--------
# expect-out: mode crashpoints: -rw-------
# expect-out: nobody_trigger: .*Permission denied
# expect-out: nobody_arm: .*Permission denied
# expect-out: points: 0
# expect-out: PC-GUEST-END
# reject: BUG:|Oops|Kernel panic|provoke_crash: trigger
for f in panic types crashpoints; do
	echo "mode $f: $(ls -l $D/$f | cut -d' ' -f1)"
done
echo 'root:x:0:0:root:/:/bin/sh' >/etc/passwd
echo 'nobody:x:65534:65534:nobody:/:/bin/sh' >>/etc/passwd
echo 'root:x:0:' >/etc/group
echo "nobody_trigger: $(su nobody -c "pc-guest write $D/panic 1" 2>&1)"
echo "nobody_arm: $(su nobody -c "pc-guest write $D/crashpoints '@sys@getppid panic'" 2>&1)"
echo "points: $(grep -c . $D/crashpoints)"
