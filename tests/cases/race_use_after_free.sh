# The worked example of Documentation/provoke-crash/race-example.rst: a
# use-after-free race between two CPUs (tests/race/pc_race.c), reproduced
# on demand.  The reader loads the published object, then uses it; the
# freer unpublishes and frees it.  A delay point on pc_race_window holds
# the reader between the two; the freer, on the other CPU, frees the
# object there, once the delay point has counted the reader's hit.  A
# bugon point on pc_race_copy fires only where the reader copies with a
# length that is no longer the object's (arg2:u64!=64: the freer wiped
# it) and only from the reader (caller=): five
# rounds, five crashes, each in the reader's own task.  Then two hits
# it must turn away: peek (another caller, another length) and a read
# with nothing freed under it.  A KASAN kernel reports the use after
# free itself, before the point: not there.
# smp: 2
# needs: CONFIG_SMP !CONFIG_KASAN
# expect-out: ^crashes: 5$
# expect-out: ^pc_race:pc_race_window delay ms=500 times=-1 hits=6 filtered=0 fired=6 missed=0 context=path:preempt$
# expect-out: ^pc_race:pc_race_copy bugon times=-1 arg2:u64!=64 caller=pc_race:pc_race_read hits=7 eligible=5 filtered=2 fired=5 missed=0 context=path$
# expect: provoke_crash: delay: held up sh\[[0-9]+\] on CPU 0 for [0-9]+ us \(ms=500\)
# expect: provoke_crash: pc_race:pc_race_copy: bugon: 
# expect: kernel BUG at
# reject: FAIL:|Kernel panic|KASAN|general protection
# shellcheck shell=dash
C=$D/crashpoints
R=/sys/kernel/debug/pc-race/ctl
insmod /pc_race.ko || echo "pc_race did not load"
pc-guest write "$C" "pc_race:pc_race_window delay times=-1 ms=500
pc_race:pc_race_copy bugon times=-1 arg2:u64!=64 caller=pc_race:pc_race_read"
# window N: wait until the delay point has counted N hits: reader N is
# in its window.
window() {
	until grep -q "pc_race_window .* hits=$1 " "$C"; do
		usleep 10000
	done
}
i=0
while [ $i -lt 5 ]; do
	i=$((i + 1))
	echo alloc >"$R"
	taskset -c 0 sh -c "echo read >$R" &
	window $i
	taskset -c 1 sh -c "echo free >$R"
	wait
done
echo "crashes: $(dmesg | grep -c 'kernel BUG at')"
# Turned away: another caller, and a read with nothing freed under it.
echo alloc >"$R"
echo peek >"$R"
echo read >"$R"
cat "$C"
pc-guest write "$C" "\n" >/dev/null
