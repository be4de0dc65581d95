# Every line of bad_input.tsv fails with its own errno and one log line;
# the list stays empty and the kernel stays up.
# expect-out: bad_input: 63 of 63 refused as expected
# expect-out: log lines: 63
# expect-out: points: 0
# expect-out: PC-GUEST-END
# reject-out: MISMATCH
# reject: BUG:|Oops|WARNING:|FAIL:|Kernel panic
# shellcheck shell=dash
C=$D/crashpoints
before=$(dmesg | grep -c 'provoke_crash: crashpoints:')
long=$(head -c 5000 /dev/zero | tr '\0' x)
sym600=$(head -c 600 /dev/zero | tr '\0' s)
total=0 good=0
while IFS="$(printf '\t')" read -r errno text; do
	case $errno in '#'*|'') continue ;; esac
	case $text in
	@LONG5000) text=$long ;;
	@SYM600*) text="$sym600${text#@SYM600}" ;;
	esac
	total=$((total + 1))
	got=$(pc-guest write "$C" "$text")
	if echo "$got" | grep -q "error $errno "; then
		good=$((good + 1))
	else
		echo "MISMATCH line $total: expected $errno: $got"
	fi
done </bad_input.tsv
echo "bad_input: $good of $total refused as expected"
after=$(dmesg | grep -c 'provoke_crash: crashpoints:')
echo "log lines: $((after - before))"
echo "points: $(grep -c . "$C")"
