# SPDX-License-Identifier: GPL-2.0
# Preparing a series for its guests, sourced by tests/bench-step (its
# "prepare" step): the cases generated, scoped and sorted into batches
# and single guests, the module built, the initramfs packed.  The bench's
# scheduler prepares the series one after another while the guests of
# those already prepared run: a series' build and packing (a minute or
# more, much of it on one CPU) leaves no CPU idle in between.
# What runs, skipped or in which guest is the engine's
# (engine/pcengine/prepare.py); the builds and the packing are here.
# Uses bench-step's $scratch, $results, $filter, $listing, $host_tool,
# $kernels and the shard's $shard_i, $shard_n and $shard_k; appends to
# $order and moves $shard_k on (lkdtm_prepare too), in the same order as
# a listing does.  Only the files under $scratch/prep and the SKIP
# results it writes reach the scheduler.
# shellcheck shell=bash

# prepare_series K SERIES: prepares the K-th series of $kernels.  Writes,
# under $scratch/prep: K.order (its results' names, in KTAP order), K.jobs
# (one guest per line: "lkdtm DIR", "batch FILE", "single FILE" or "kdump
# FILE"), K.guest (guest_options) and last K.ready, its kernel release.
# A case that needs what the kernel lacks gets its SKIP result here,
# unbooted; on a kernel without ramoops a pstore case runs without its
# pstore checks, and counts as skipped.
prepare_series() {
	# tests/bench-step sets them.
	: "${scratch?}" "${host_tool?}" "${kernels?}" "${filter?}" "${results?}" "${listing?}"
	: "${shard_i?}" "${shard_n?}" "${shard_k?}"
	local k=$1 series=$2 prep=$scratch/prep rel cases why f first no_ramoops plan word val
	local m extra jobs=() opts=() lkdtm=0
	local -A modules=()
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
	# Which of them run, skipped or in which guests, and which of the
	# bench's modules they load (engine/pcengine/prepare.py); it writes
	# the skips' results, and the batches unless this is a listing.
	# (Values that may start with a dash: as --opt=VALUE.)
	[ "$kdump_here" = 0 ] && opts+=("--kdump-why=$why")
	[ "$listing" = 1 ] && opts+=(--listing)
	plan=$(pc_engine prepare --series "$series" --release "$rel" \
		--root-of-release="$(pc_rel_root "$rel")" --config "$(pc_rel_config "$rel")" \
		--cases "$cases" --kernels "$kernels" --filter="$filter" \
		--shard "$shard_i/$shard_n" --dealt "$shard_k" --results "$results" \
		--no-ramoops="$no_ramoops" "${opts[@]}") ||
		pc_die "preparing the cases of $series failed (why: above)"
	while read -r word val; do
		case $word in
		dealt) shard_k=$val ;;
		order) order+=("$val") ;;
		job) jobs+=("$val") ;;
		module) modules[$val]=1 ;;
		lkdtm) lkdtm=scoped ;;
		esac
	done <<<"$plan"
	if [ "$listing" = 0 ]; then
		pc_log "building for $rel"
		pc_build "$rel" "${modules[twin]:-0}"
		# A new initramfs: the guests saved from the last one go.
		rm -rf "$PC_OUT/$rel/snapshots"
		# The bench's own modules: the matrix's paths, where a matrix
		# case runs or a case loads it; the race example's.
		extra=""
		for m in paths race; do
			[ -n "${modules[$m]:-}" ] || continue
			bench_build_module "$rel" "$m"
			extra="$extra $PC_OUT/$rel/src/$m/pc_$m.ko"
		done
		PC_EXTRA_FILES="${PC_EXTRA_FILES:-}$extra" pc_pack_initramfs "$rel" "$cases"
		[ "$kdump_here" = 1 ] && pc_kdump_pack "$rel"
	fi
	if [ "$lkdtm" = scoped ]; then
		lkdtm=0
		lkdtm_prepare "$rel" "$series" && lkdtm=1
	fi
	guest_options "$rel" "$series" >"$prep/$k.guest"
	printf '%s\n' "${order[@]:first}" | grep . >"$prep/$k.order"
	{
		[ $lkdtm = 1 ] && echo "lkdtm $PC_OUT/lkdtm-selftest"
		[ ${#jobs[@]} = 0 ] || printf '%s\n' "${jobs[@]}"
	} >"$prep/$k.jobs"
	echo "$rel" >"$prep/$k.ready"
}

# guest_options REL SERIES: the series' options of the engine's guest
# step (engine/pcengine/casestep.py, which reads them as @FILE), one a
# line, as --opt=VALUE (a value may start with a dash).
guest_options() {
	local rel=$1 arch accel=tcg
	arch=$(pc_rel_arch "$rel")
	[ "$arch" = arm64 ] || accel=$(pc_accel)
	printf -- '--%s\n' "series=$2" "results=$results" \
		"timeout=$(pc_guest_timeout "$rel" "${PC_TIMEOUT:-120}")" \
		"config=$(pc_rel_config "$rel")" "arch=$arch" "accel=$accel" \
		"kernel=$(pc_rel_root "$rel")/boot/vmlinuz-$rel" \
		"initrd=$PC_OUT/$rel/initramfs.cpio" "snapshots=$PC_OUT/$rel/snapshots" \
		"snapshot=${PC_SNAPSHOT:-1}" "append=${PC_GUEST_CMDLINE:-}" \
		"qemu-extra=${PC_QEMU_EXTRA:-}" "ramoops=$(pc_ramoops_cmdline "$arch")" \
		"ramoops-params=$(pc_ramoops_params "$arch")" \
		"ramoops-region=$(pc_ramoops_region "$arch"):$PC_RAMOOPS_RECORD" \
		"kdump-append=$(pc_kdump_cmdline "$rel")" \
		"kdump-initrd=$PC_OUT/$rel/initramfs-kdump.cpio"
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
