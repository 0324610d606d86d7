// SPDX-License-Identifier: MIT
/*
 * The ISA testbenches' common arguments (tb_mgmt_soc.v, tb_mgmt_cpu_stall.v):
 * `TB_MGMT_ARGS(IMEM, DMEM), inside an initial block, reads +imem=FILE,
 * +imem_words=N, +dmem=FILE, +dmem_words=N (elf2hex.py's images, $readmemh
 * into the arrays IMEM and DMEM) and +timeout=CLOCKS (default 200000) into
 * the including module's f_imem, f_dmem, n_i, n_d and timeout. A missing
 * +imem, or +dmem_words without +dmem, ends the run with
 * "RESULT status=error".
 */
`ifndef TB_MGMT_ARGS_VH
`define TB_MGMT_ARGS_VH

`define TB_MGMT_ARGS(IMEM, DMEM) \
    if (!$value$plusargs("imem=%s", f_imem)) begin \
        $display("RESULT status=error no +imem=FILE"); \
        $finish; \
    end \
    if (!$value$plusargs("imem_words=%d", n_i)) \
        n_i = 0; \
    if (!$value$plusargs("dmem_words=%d", n_d)) \
        n_d = 0; \
    if (!$value$plusargs("timeout=%d", timeout)) \
        timeout = 200000; \
    if (n_i > 0) \
        $readmemh(f_imem, IMEM, 0, n_i - 1); \
    if (n_d > 0) begin \
        if (!$value$plusargs("dmem=%s", f_dmem)) begin \
            $display("RESULT status=error no +dmem=FILE"); \
            $finish; \
        end \
        $readmemh(f_dmem, DMEM, 0, n_d - 1); \
    end

`endif
