# SPDX-License-Identifier: GPL-2.0
# Preparing a series for its guests, sourced by tests/bench-step (its
# "prepare" step): the cases generated, scoped and sorted into batches
# and single guests, the module built, the initramfs packed.  The bench's
# scheduler prepares the series one after another while the guests of
# those already prepared run: a series' build and packing (a minute or
# more, much of it on one CPU) leaves no CPU idle in between.
# Uses bench-step's $scratch, $results, $filter, $listing, $host_tool,
# $kernels, in_shard, has_config and make_batch; appends to $order and
# moves in_shard's count on (lkdtm_prepare too), in the same order as a
# listing does.  Only the
# files under $scratch/prep and the SKIP results it writes reach the
# scheduler.
# shellcheck shell=bash

# prepare_series K SERIES: prepares the K-th series of $kernels.  Writes,
# under $scratch/prep: K.order (its results' names, in KTAP order), K.jobs
# (one guest per line: "lkdtm", "batch FILE" or "single FILE"), and last
# K.ready, its kernel release.  A case that needs what the kernel lacks
# gets its SKIP result here, unbooted; on a kernel without ramoops a
# pstore case runs without its pstore checks, and counts as skipped.
prepare_series() {
	# tests/bench-step sets them.
	: "${scratch?}" "${host_tool?}" "${kernels?}" "${filter?}" "${results?}" "${listing?}"
	local k=$1 series=$2 prep=$scratch/prep rel cases why f n word missing first needs flags val
	local no_ramoops modwhy picked
	local -A scoped=() wanted=() config=() boot_of=()
	local boot i members singles=() hand=() batched=() batches=() lkdtm=0 twin=0 paths=0 race=0 extra
	first=${#order[@]}
	# A built kernel not in the cache yet is built here, at low priority
	# beside the guests of the series before it.
	rel=$(pc_built_kernel "$series" && renice -n 19 "$BASHPID" >/dev/null
		pc_kernel_release "$series") || pc_die "no $series kernel to test (why: above)"
	# A syscall that only the case's own pc-guest makes.
	hit_symbol=$(echo @sys@getppid | sed "$(pc_case_sed "$rel")")
	cases=$scratch/$rel/cases
	rm -rf "$cases"
	mkdir -p "$cases"
	"$host_tool" types --table --arch "$(pc_rel_arch "$rel")" >"$cases/types.tsv"
	kdump_here=0
	if why=$(pc_kdump_available "$rel"); then
		kdump_here=1
	else
		pc_log "no kdump lane on $rel: $why"
	fi
	no_ramoops=$(pc_ramoops_absent "$rel")
	[ -z "$no_ramoops" ] || pc_log "no pstore checks on $rel: $no_ramoops"
	# Each type fired directly, at a point and with kdump, or refused
	# (engine/pcengine/cases.py).
	# shellcheck disable=SC2046 # --kdump or nothing
	pc_engine cases --types "$cases/types.tsv" \
		--config "$(pc_rel_config "$rel")" --release "$rel" --arch "$(pc_rel_arch "$rel")" \
		--hit-symbol "$hit_symbol" $([ "$kdump_here" = 1 ] && echo --kdump) --out "$cases" ||
		pc_die "writing the table's cases for $rel failed (why: above)"
	# The crash-point matrix (engine/pcengine/matrix.py): the sample of
	# its fatal cells changes with each commit.
	pc_engine matrix --types "$cases/types.tsv" \
		--config "$(pc_rel_config "$rel")" --release "$rel" --arch "$(pc_rel_arch "$rel")" \
		--scope "${PC_MATRIX_SCOPE:-first}" --fatal "${PC_MATRIX_FATAL:-4}" \
		--seed "$(git -C "$PC_ROOT" rev-parse HEAD 2>/dev/null || echo none)" --out "$cases" ||
		pc_die "writing the matrix's cases for $rel failed (why: above)"
	for f in "$PC_ROOT"/tests/cases/*.sh; do
		sed "$(pc_case_sed "$rel")" "$f" >"$cases/$(basename "$f")"
	done
	# Which of them this series runs, by the scope's table and the
	# PC_*_SCOPE variables (engine/pcengine/scope.py); lkdtm_selftest
	# among them.
	picked=$(pc_engine scope --select "$series" \
		--kernels "$kernels" --cases "$cases") || pc_die "the scope of $series failed (why: above)"
	for n in $picked; do
		scoped[$n]=1
	done
	# PC_CASES' names, in one grep, and the kernel's config, once.
	# shellcheck disable=SC2013 # the names are words
	for n in $(for f in "$cases"/*.sh; do
		f=${f##*/}
		echo "$series/${f%.sh}"
	done | grep -E -- "$filter"); do
		wanted[${n#"$series"/}]=1
	done
	while IFS='=' read -r word val; do
		config[$word]=$val
	done < <(grep '^CONFIG_' "$(pc_rel_config "$rel")")
	# One pass over every case's header (a grep per case and question
	# took two minutes for 6.1's 900 cases): FILE|its needs: words|its
	# flags: p pstore, k kdump, b batch-ok, t twin, m paths, r race|its
	# boot: line (the batches group by it; a case without one shares
	# the plain command line).
	while IFS='|' read -r f needs flags boot; do
		n=${f##*/} n=${n%.sh}
		[ -n "${wanted[$n]:-}" ] || continue
		[ -n "${scoped[$n]:-}" ] || continue
		in_shard || continue
		order+=("$series-$n")
		missing="" modwhy=""
		for word in $needs; do
			case $word in
			*.ko) [ -n "$modwhy" ] || modwhy=$(pc_module_absent "$rel" "${word%.ko}") ;;
			!*) [[ ${config[${word#!}]:-} == [ym] ]] && missing="$missing $word" ;;
			*) [[ ${config[$word]:-} == [ym] ]] || missing="$missing $word" ;;
			esac
		done
		if [ -n "$missing" ]; then
			echo "ok $series/$n # SKIP needs$missing, which $rel does not meet" >"$results/$series-$n.result"
			continue
		fi
		if [ -n "$modwhy" ]; then
			echo "ok $series/$n # SKIP $modwhy" >"$results/$series-$n.result"
			continue
		fi
		[ -n "$no_ramoops" ] && [[ $flags == *p* ]] && pstore_unchecked "$f" "$no_ramoops"
		if [[ $flags == *k* ]] && [ "$kdump_here" = 0 ]; then
			echo "ok $series/$n # SKIP no kdump guest on $rel: $why" \
				>"$results/$series-$n.result"
			continue
		fi
		# The twin module only for a case that loads it; the matrix's
		# paths module for a hand case that drives them; the race
		# example's module for a case that loads it.
		[[ $flags == *t* ]] && twin=1
		[[ $flags == *m* ]] && paths=1
		[[ $flags == *r* ]] && race=1
		if [[ $flags == *b* ]]; then
			batched+=("$f")
			boot_of[$f]=$boot
		elif [ -f "$PC_ROOT/tests/cases/$n.sh" ]; then
			hand+=("$f")
		else
			singles+=("$f")
		fi
	done < <(awk '
		function emit() { printf "%s|%s|%s|%s\n", file, needs, flags, boot }
		FNR == 1 { if (NR > 1) emit(); file = FILENAME; needs = flags = boot = "" }
		/^# needs: / { needs = needs " " substr($0, 10) }
		/^# boot:/ { boot = (boot == "" ? "" : boot "\034") substr($0, 8) }
		/^# pstore: 1/ { flags = flags "p" }
		/^# kdump: 1/ { flags = flags "k" }
		/^# batch-ok/ { flags = flags "b" }
		/provoke_crash_twin\.ko/ { flags = flags "t" }
		/pc_paths\.ko/ { flags = flags "m" }
		/pc_race\.ko/ { flags = flags "r" }
		END { if (NR) emit() }' "$cases"/*.sh)
	# Hand-written cases first: the races among them are the longest
	# guests, which would end the run late.
	singles=("${hand[@]}" "${singles[@]}")
	if [ "$listing" = 0 ]; then
		pc_log "building for $rel"
		pc_build "$rel" "$twin"
		# One batch per distinct command line: boot parameters can
		# clash (slub_debug poisoning turns init_on_alloc off for those
		# caches).
		i=0
		while IFS= read -r boot; do
			i=$((i + 1))
			members=()
			for f in "${batched[@]}"; do
				[ "${boot_of[$f]}" = "$boot" ] && members+=("$f")
			done
			make_batch "$cases/zz_batch_$i.sh" "${members[@]}"
			batches+=("$cases/zz_batch_$i.sh")
		done < <(for f in "${batched[@]}"; do
			printf '%s\n' "${boot_of[$f]}"
		done | sort -u)
		mark_lone_guests "${batches[@]}" "${singles[@]}"
		# A new initramfs: the guests saved from the last one go.
		rm -rf "$PC_OUT/$rel/snapshots"
		# The bench's own modules: the matrix's paths, where a matrix
		# case runs or a case loads it; the race example's.
		extra=""
		if [ "$paths" = 1 ] || printf '%s\n' "${order[@]:first}" | grep -q -- "-matrix_"; then
			bench_build_module "$rel" paths
			extra="$extra $PC_OUT/$rel/src/paths/pc_paths.ko"
		fi
		if [ "$race" = 1 ]; then
			bench_build_module "$rel" race
			extra="$extra $PC_OUT/$rel/src/race/pc_race.ko"
		fi
		PC_EXTRA_FILES="${PC_EXTRA_FILES:-}$extra" pc_pack_initramfs "$rel" "$cases"
		[ "$kdump_here" = 1 ] && pc_kdump_pack "$rel"
	fi
	[ -n "${scoped[lkdtm_selftest]:-}" ] && lkdtm_prepare "$rel" "$series" && lkdtm=1
	printf '%s\n' "${order[@]:first}" | grep . >"$prep/$k.order"
	{
		[ $lkdtm = 1 ] && echo lkdtm
		for f in "${batches[@]}"; do echo "batch $f"; done
		for f in "${singles[@]}"; do echo "single $f"; done
	} >"$prep/$k.jobs"
	echo "$rel" >"$prep/$k.ready"
}

# mark_lone_guests FILE...: a guest that no other case of the series
# could restore boots: saving it costs more than the boot.  (A kdump case,
# and one whose header asks for a fresh boot, boot anyway.)  What a guest
# saved for a case is made of, as the bench's guests differ, is its key
# here: its boot line, vCPUs and pstore (engine/pcengine/snapshot.py keys
# on the rest).  The headers are read in one pass.
mark_lone_guests() {
	local f flags key
	local -A uses=() key_of=() flags_of=()
	[ $# -gt 0 ] || return 0
	while IFS='|' read -r f flags key; do
		key_of[$f]=$key flags_of[$f]=$flags
		[[ $flags == *[kf]* ]] && continue
		uses[$key]=$((${uses[$key]:-0} + 1))
	done < <(awk '
		function emit() {
			printf "%s|%s|%s|%s|%s\n", file, flags, boot, smp == "" ? 1 : smp,
				pstore == "" ? 0 : pstore
		}
		function add(list, value) { return list == "" ? value : list "\034" value }
		FNR == 1 { if (NR > 1) emit(); file = FILENAME; flags = boot = smp = pstore = "" }
		/^# kdump: 1/ { flags = flags "k" }
		/^# fresh-boot:/ { flags = flags "f" }
		sub(/^# boot: /, "") { boot = add(boot, $0) }
		sub(/^# smp: /, "") { smp = add(smp, $0) }
		sub(/^# pstore: /, "") { pstore = add(pstore, $0) }
		END { if (NR) emit() }' "$@")
	for f in "$@"; do
		[ "${uses[${key_of[$f]}]:-0}" = 1 ] || continue
		[[ ${flags_of[$f]} == *f* ]] ||
			echo "# fresh-boot: the only guest of its boot line, vCPUs and pstore here" >>"$f"
	done
}

# pstore_unchecked FILE WHY: a pstore case for a kernel without ramoops:
# no reset, and no expect-out lines from its PC-PSTORE-BEGIN on (the
# record's); what the crash printed is still checked, and the case, unless
# it skips already, is skipped for WHY.
pstore_unchecked() {
	local f=$1 why=$2
	awk -v why="$why" '
		/^# pstore: / { next }
		/^# expect-out: PC-PSTORE-BEGIN/ { record = 1 }
		record && /^# expect-out: / { next }
		/^# skip: / { skip = 1 }
		{ print }
		END { if (!skip) print "# skip: " why ": the crash is checked, its pstore record is not" }
	' "$f" >"$f.tmp" && mv "$f.tmp" "$f"
}

# prepare_all: prepare_series for each series of $kernels, in order, into
# an empty $scratch/prep (tests/run empties it before it starts this).
prepare_all() {
	local k=0 series
	for series in $kernels; do
		k=$((k + 1))
		prepare_series "$k" "$series"
	done
}

# bench_build_module REL NAME: tests/NAME/pc_NAME.ko (the matrix's paths,
# the race example's race) for REL, built as the module is (pc_build),
# into $PC_OUT/REL/src/NAME.
bench_build_module() {
	local rel=$1 name=$2 dir=$PC_OUT/$1/src/$2 kdir cross=()
	kdir=$(pc_rel_root "$rel")/usr/src/linux-headers-$rel
	mapfile -t cross < <(pc_kbuild_args "$rel")
	rm -rf "$dir"
	cp -r "$PC_ROOT/tests/$name" "$dir"
	make -C "$kdir" "${cross[@]}" M="$dir" W=1 modules >"$dir/build.log" 2>&1 ||
		{ cat "$dir/build.log" >&2; pc_die "pc_$name build failed for $rel"; }
	if grep -E 'warning:|error:' "$dir/build.log" >&2; then
		pc_die "pc_$name build for $rel has warnings (see $dir/build.log)"
	fi
}
