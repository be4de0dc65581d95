# SPDX-License-Identifier: GPL-2.0
# shellcheck shell=sh disable=SC2154 # $D is /init's
# LKDTM's selftest in its guest (engine/pcengine/lkdtm_pack.py packs it as
# /cases/lkdtm_selftest.sh; /init sources it after insmod): install
# run.sh as each test (the kselftest Makefile's install), then run every
# test in order, each between markers on the output and in the kernel
# log; after the last, proof that the kernel and the module still answer.
# The host reads the markers: engine/pcengine/lkdtm.py.
cp /comm /usr/bin/comm
mkdir -p /lkdtm
cp /tests.txt /lkdtm/tests.txt
# shellcheck disable=SC2013 # each line's first word is a test's name
for t in $(awk '{print $1}' /tests.txt | sed -e 's/#//'); do
	cp /run.sh "/lkdtm/$t.sh"
	chmod 0744 "/lkdtm/$t.sh"
done
cd /lkdtm || return 1
# stack-entropy.sh came with 5.11's selftest.
if [ -f /stack-entropy.sh ]; then
	cp /stack-entropy.sh /lkdtm/stack-entropy.sh
	chmod 0755 /lkdtm/stack-entropy.sh
	echo "LKDTM-BEGIN 0 stack-entropy"
	echo "LKDTM-BEGIN 0 stack-entropy" >/dev/kmsg
	./stack-entropy.sh
	echo "LKDTM-RC 0 stack-entropy $?"
fi
i=0
# shellcheck disable=SC2013 # each line's first word is a test's name
for t in $(awk '{print $1}' tests.txt | sed -e 's/#//'); do
	i=$((i + 1))
	echo "LKDTM-BEGIN $i $t"
	echo "LKDTM-BEGIN $i $t" >/dev/kmsg
	"./$t.sh"
	echo "LKDTM-RC $i $t $?"
done
echo "LKDTM-DONE"
cd /
# Still up: a new process runs, and the module answers on DIRECT.
echo "LKDTM-UP $(cut -d' ' -f1 /proc/uptime) s, $(head -n 1 "$D/DIRECT")"
