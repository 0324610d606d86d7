# SPDX-License-Identifier: MIT
#
# The management firmware (firmware/, docs/firmware.md), included by the
# top-level Makefile.
#
#   make firmware       build/firmware/inceptionn-fw.bin (header + payload),
#                       checked by mkfwimage --check
#   make firmware-sim   the firmware on mgmt_soc under Verilator with a model
#                       of the NIC's 0x0500 block (tests/rtl/mgmt/run-fw-sim.sh)
#   make firmware-test  the host unit tests and the image checker's tests
#
# The core's build: clang --target=riscv32 -march=rv32im and ld.lld,
# freestanding C11. The self-test vectors come from the C codec through a
# host program (gen-selftest) at build time. Host tools and tests use $(CC).

FW_B		:= $(BUILD)/firmware
FW_CLANG	?= clang
FW_LLD		?= ld.lld
FW_OBJCOPY	?= llvm-objcopy
FW_BUILD_ID	:= 0x$(shell git rev-parse --short=8 HEAD 2>/dev/null || echo 0)
FW_TFLAGS	:= --target=riscv32 -march=rv32im -mabi=ilp32 -mno-relax
FW_CFLAGS	:= $(FW_TFLAGS) -std=c11 -Os -ffreestanding -nostdlib \
	-fno-asynchronous-unwind-tables -Wall -Wextra -Werror -Wshadow \
	-Wstrict-prototypes -Ifirmware/src -Iinclude -I$(FW_B) -MMD -MP
FW_HCFLAGS	= $(CSTD) $(WARN) -O2 -g -Ifirmware/src -Iinclude -Iuserspace/codec -MMD -MP
FW_SRC		:= crt0.S main.c mmio.c cmd.c selftest.c selftest_hw.c crc32.c lib.c
FW_OBJS		:= $(addprefix $(FW_B)/obj/,$(addsuffix .o,$(basename $(FW_SRC)))) \
	$(FW_B)/obj/selftest_vectors.o
FW_HOST		:= $(FW_B)/host
FW_IMAGE	:= $(FW_B)/inceptionn-fw.bin

.PHONY: firmware firmware-sim firmware-test
firmware: $(FW_IMAGE)
all: $(FW_IMAGE) $(BUILD)/tests/test_fw_host

# the build id (GET_VERSION word 2): the commit's first 8 hex digits,
# rewritten only when it changes
.PHONY: fw-build-id-force
$(FW_B)/fw_build_id.h: fw-build-id-force
	@mkdir -p $(dir $@)
	$(Q)echo '#define FW_BUILD_ID $(FW_BUILD_ID)' >$@.tmp && \
		if cmp -s $@.tmp $@; then rm $@.tmp; else mv $@.tmp $@; fi
$(FW_B)/obj/main.o: $(FW_B)/fw_build_id.h

$(FW_B)/obj/%.o: firmware/src/%.c
	@mkdir -p $(dir $@)
	@echo "  FWCC    $<"
	$(Q)$(FW_CLANG) $(FW_CFLAGS) -c $< -o $@
$(FW_B)/obj/%.o: firmware/src/%.S
	@mkdir -p $(dir $@)
	@echo "  FWAS    $<"
	$(Q)$(FW_CLANG) $(FW_TFLAGS) -c $< -o $@
$(FW_B)/obj/selftest_vectors.o: $(FW_B)/selftest_vectors.c
	@echo "  FWCC    $<"
	$(Q)$(FW_CLANG) $(FW_CFLAGS) -c $< -o $@

# the self-test vectors, from the C golden model
$(FW_HOST)/gen-selftest: firmware/tools/gen-selftest.c $(LIBCODEC)
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(CC) $(FW_HCFLAGS) -o $@ $< $(LIBCODEC) -lm
$(FW_B)/selftest_vectors.c: $(FW_HOST)/gen-selftest
	@echo "  GEN     $@"
	$(Q)$< $@

$(FW_HOST)/mkfwimage: firmware/tools/mkfwimage.c firmware/src/fw_version.h \
	include/hw/inc_nic_regs.h
	@mkdir -p $(dir $@)
	@echo "  HOSTCC  $@"
	$(Q)$(CC) $(FW_HCFLAGS) -o $@ $<

$(FW_B)/inceptionn-fw.elf: $(FW_OBJS) firmware/link.ld
	@echo "  FWLD    $@"
	$(Q)$(FW_LLD) -T firmware/link.ld --gc-sections -Map $(FW_B)/inceptionn-fw.map \
		-o $@ $(FW_OBJS)
$(FW_B)/inceptionn-fw.payload: $(FW_B)/inceptionn-fw.elf
	$(Q)$(FW_OBJCOPY) -O binary $< $@
$(FW_IMAGE): $(FW_B)/inceptionn-fw.payload $(FW_HOST)/mkfwimage
	@echo "  FWIMAGE $@"
	$(Q)$(FW_HOST)/mkfwimage --entry 0 $< $@.tmp && \
		$(FW_HOST)/mkfwimage --check $@.tmp >/dev/null && mv $@.tmp $@

# host unit tests: the same handler and self-test sources against a fake
# register file and the C codec as the engine
FW_HOST_SRCS := firmware/src/cmd.c firmware/src/selftest.c firmware/src/crc32.c \
	firmware/tests/host/fake_regs.c firmware/tests/host/selftest_host.c \
	firmware/tests/host/test_fw_host.c
$(BUILD)/tests/test_fw_host: $(FW_HOST_SRCS) $(FW_B)/selftest_vectors.c \
	$(O)/tests/lib/testlib.o $(LIBCODEC) $(wildcard firmware/src/*.h) firmware/tests/host/fake_regs.h
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	$(Q)$(CC) $(FW_HCFLAGS) -Itests/lib -Ifirmware/tests/host -o $@ $(FW_HOST_SRCS) \
		$(FW_B)/selftest_vectors.c $(O)/tests/lib/testlib.o $(LIBCODEC) -lm

firmware-test: $(BUILD)/tests/test_fw_host $(FW_IMAGE)
	$(Q)$(BUILD)/tests/test_fw_host
	$(Q)BUILD=$(BUILD) tests/firmware/test-fwimage.sh

firmware-sim: $(FW_IMAGE)
	$(Q)BUILD=$(BUILD) tests/rtl/mgmt/run-fw-sim.sh

-include $(FW_OBJS:.o=.d)

# make install-firmware: the image where request_firmware() finds it,
# $(DESTDIR)/lib/firmware/inceptionn/inceptionn-fw.bin (not part of make
# install, which builds and installs the module against a kernel)
FW_INSTALL_DIR ?= /lib/firmware/inceptionn
.PHONY: install-firmware uninstall-firmware
install-firmware: $(FW_IMAGE)
	$(Q)install -D -m 0644 $(FW_IMAGE) $(DESTDIR)$(FW_INSTALL_DIR)/inceptionn-fw.bin
	@echo "  INSTALL $(DESTDIR)$(FW_INSTALL_DIR)/inceptionn-fw.bin"
uninstall-firmware:
	$(Q)rm -f $(DESTDIR)$(FW_INSTALL_DIR)/inceptionn-fw.bin
