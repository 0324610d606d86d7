// SPDX-License-Identifier: MIT
/*
 * mgmt_cpu: the NIC management processor, a small RV32IM core in machine
 * mode, written for this project from the RISC-V unprivileged (RV32I, M)
 * and privileged (Zicsr, machine mode) specifications. docs/firmware.md
 * "The core" describes it; this header is the reference for its ports.
 *
 * Microarchitecture: one instruction at a time, a state machine
 *
 *   FETCH   instruction request (pc) on the instruction port, after reset,
 *           a trap, or when WB did not make it; an enabled pending
 *           interrupt is taken here instead (before the fetch)
 *   IWAIT   the instruction word arrives: ir
 *   DECODE  register file read, immediate, operand selection, decode
 *           flags (all registered)
 *   EXEC    ALU, branch decision, jump targets, load/store address and
 *           alignment, CSR read; traps of illegal instructions, ECALL,
 *           EBREAK; MRET
 *   MEM     data request (misaligned: trap instead); MWAIT the answer
 *   MUL     5 clocks of a carry-save multiplier on magnitudes (8 bits of
 *           |rs2| a clock into 41-bit sum and carry vectors shifting right,
 *           the low bytes leaving them added into the low word), 1 for the
 *           high word, 1 for the sign
 *   DIV     32 clocks of restoring division on magnitudes, 1 to fix signs
 *   CSR     the CSR's new value written (or the illegal-access trap)
 *   WFI     waits until an interrupt is pending and enabled in mie
 *   WB      register file write, pc update, minstret, and the next
 *           instruction's fetch request (unless an interrupt is to be
 *           taken: then FETCH); a taken jump or branch to an address that
 *           is not 4-byte aligned traps here
 *   TRAP    mepc, mcause, mtval, mstatus.MPIE/MIE, pc = mtvec
 *
 * Clocks per instruction with memories answering the clock after a
 * request: 4 (ALU, LUI, AUIPC, branch, jump, FENCE, MRET), 6 (load,
 * store), 11 (MUL family), 37 (DIV family), 5 (CSR); an instruction that
 * traps (ECALL, EBREAK, illegal) 5 from its fetch to the handler's fetch,
 * an interrupt 2 (taken in FETCH). The ISA tests measure CPI 4.0 to 8.3
 * (docs/firmware.md).
 * Every register-to-register path is at most 8 LUT6 levels by
 * rtl/scripts/timing.sh (method carry; rtl/timing-budget).
 *
 * Instruction port (m_ibus_*) and data port (m_dbus_*): a request channel
 * with valid/ready (held, with its fields stable, until ready) and a
 * response channel with valid only (the core always takes it). One request
 * is outstanding on each port at a time; its response may come any number
 * of clocks after the clock the request was taken (at least one). The
 * data port's address is word aligned (bits 1:0 zero); wstrb gives the
 * bytes accessed, for reads too (a peripheral with read side effects may
 * use it); wdata holds store data replicated to every byte lane (a byte
 * store: the byte in all four lanes). rsp_err answers an access fault:
 * mcause 1 (instruction), 5 (load), 7 (store). No request is made while
 * rst is high.
 *
 * Interrupts: irq_timer (mip.MTIP, mcause 0x80000007) and irq_external
 * (mip.MEIP, mcause 0x8000000b), levels, registered once inside. The
 * external one has priority. mtvec is direct mode only (bits 1:0 read 0).
 *
 * CSRs (others: illegal instruction; a write to a read-only one: illegal
 * instruction): mstatus (MIE, MPIE; MPP reads 3), misa (RV32IM),
 * mvendorid, marchid, mimpid (0), mhartid (HART_ID), mstatush and
 * mconfigptr (0), mie (MTIE, MEIE), mip (MTIP, MEIP; read-only), mtvec,
 * mscratch, mepc, mcause, mtval, mcycle[h], minstret[h] and their
 * read-only user views cycle[h], instret[h].
 */

// Language: Verilog 2001

`resetall
`timescale 1ns / 1ps
`default_nettype none

module mgmt_cpu #
(
    // address of the first instruction after reset
    parameter [31:0] RESET_PC = 32'h00000000,
    // mhartid's value
    parameter [31:0] HART_ID = 32'd0,
    // a deliberate fault, for the ISA tests' negative checks (0: none; 1:
    // SRA/SRAI shift in zeros; 2: a division by zero gives quotient 0; 3:
    // MULH takes its operands as unsigned; 4: misaligned loads do not trap;
    // 5: the timer interrupt is never taken)
    parameter MUTANT = 0
)
(
    input  wire        clk,
    input  wire        rst,

    // instruction port
    output wire        m_ibus_req_valid,
    input  wire        m_ibus_req_ready,
    output wire [31:0] m_ibus_req_addr,
    input  wire        m_ibus_rsp_valid,
    input  wire [31:0] m_ibus_rsp_rdata,
    input  wire        m_ibus_rsp_err,

    // data port
    output wire        m_dbus_req_valid,
    input  wire        m_dbus_req_ready,
    output wire [31:0] m_dbus_req_addr,
    output wire        m_dbus_req_we,
    output wire [3:0]  m_dbus_req_wstrb,
    output wire [31:0] m_dbus_req_wdata,
    input  wire        m_dbus_rsp_valid,
    input  wire [31:0] m_dbus_rsp_rdata,
    input  wire        m_dbus_rsp_err,

    // interrupt lines (levels)
    input  wire        irq_timer,
    input  wire        irq_external,

    // one clock per retired instruction (for traces and counters outside)
    output reg         retire = 1'b0,
    // the core waits in WFI
    output wire        sleeping
);

// ---- states ----
localparam [3:0] S_FETCH = 4'd0, S_IWAIT = 4'd1, S_DECODE = 4'd2, S_EXEC = 4'd3,
                 S_MEM = 4'd4, S_MWAIT = 4'd5, S_MUL = 4'd6, S_DIV = 4'd7,
                 S_CSR = 4'd8, S_WFI = 4'd9, S_WB = 4'd10, S_TRAP = 4'd11;

// mcause values
localparam [31:0] C_IMISALIGN = 32'd0, C_IFAULT = 32'd1, C_ILLEGAL = 32'd2,
                  C_BREAK = 32'd3, C_LMISALIGN = 32'd4, C_LFAULT = 32'd5,
                  C_SMISALIGN = 32'd6, C_SFAULT = 32'd7, C_ECALL_M = 32'd11,
                  C_IRQ_TIMER = 32'h80000007, C_IRQ_EXT = 32'h8000000b;

// misa: MXL 1 (32 bits), extensions I and M
localparam [31:0] MISA = 32'h40001100;

reg  [3:0]  state = S_FETCH;
reg  [31:0] pc = RESET_PC;
reg  [31:0] npc = 32'd0;        // the next pc, from EXEC (if not take_r)
reg  [31:0] pc_imm_r = 32'd0;   // pc + imm, from EXEC
reg         take_r = 1'b0;      // a taken branch or JAL: pc_imm_r next
reg  [31:0] pc4 = 32'd0;        // pc + 4, from DECODE
reg  [31:0] ir = 32'd0;
reg         if_held = 1'b0;     // the fetch request is out, not yet taken

// ---- register file: x0 is never written, so it reads 0 ----
reg  [31:0] rf [0:31];
integer ri;
initial begin
    for (ri = 0; ri < 32; ri = ri + 1)
        rf[ri] = 32'd0;
end

// ---- CSR state ----
reg         mstatus_mie = 1'b0;
reg         mstatus_mpie = 1'b0;
reg         mie_mtie = 1'b0;
reg         mie_meie = 1'b0;
reg         mip_mtip = 1'b0;
reg         mip_meip = 1'b0;
reg  [29:0] mtvec = 30'd0;      // base, bits 31:2
reg  [31:0] mscratch = 32'd0;
reg  [29:0] mepc = 30'd0;       // bits 31:2
reg  [31:0] mcause = 32'd0;
reg  [31:0] mtval = 32'd0;
reg  [63:0] mcycle = 64'd0;
reg  [63:0] minstret = 64'd0;

// ---- trap request (to TRAP) ----
reg  [31:0] t_cause = 32'd0;
reg  [31:0] t_val = 32'd0;

// ---- decode (from ir, in DECODE) ----
wire [6:0] d_opc = ir[6:0];
wire [2:0] d_f3 = ir[14:12];
wire [6:0] d_f7 = ir[31:25];
wire [4:0] d_rd = ir[11:7];
wire [4:0] d_rs1 = ir[19:15];
wire [4:0] d_rs2 = ir[24:20];

wire d_lui    = d_opc == 7'b0110111;
wire d_auipc  = d_opc == 7'b0010111;
wire d_jal    = d_opc == 7'b1101111;
wire d_jalr   = d_opc == 7'b1100111 && d_f3 == 3'b000;
wire d_branch = d_opc == 7'b1100011 && d_f3[2:1] != 2'b01;
wire d_load   = d_opc == 7'b0000011 && d_f3 != 3'b011 && d_f3[2:1] != 2'b11;
wire d_store  = d_opc == 7'b0100011 && d_f3[2] == 1'b0 && d_f3[1:0] != 2'b11;
wire d_sh_ok  = d_f3 == 3'b001 ? d_f7 == 7'b0000000 :
                d_f3 == 3'b101 ? (d_f7 == 7'b0000000 || d_f7 == 7'b0100000) : 1'b1;
wire d_opimm  = d_opc == 7'b0010011 && d_sh_ok;
wire d_op     = d_opc == 7'b0110011 && (d_f7 == 7'b0000000 ||
                (d_f7 == 7'b0100000 && (d_f3 == 3'b000 || d_f3 == 3'b101)));
wire d_md     = d_opc == 7'b0110011 && d_f7 == 7'b0000001;
wire d_fence  = d_opc == 7'b0001111 && d_f3[2:1] == 2'b00;  // FENCE, FENCE.I
wire d_ecall  = ir == 32'h00000073;
wire d_ebreak = ir == 32'h00100073;
wire d_mret   = ir == 32'h30200073;
wire d_wfi    = ir == 32'h10500073;
wire d_csr    = d_opc == 7'b1110011 && d_f3[1:0] != 2'b00;
wire d_legal  = d_lui | d_auipc | d_jal | d_jalr | d_branch | d_load | d_store |
                d_opimm | d_op | d_md | d_fence | d_ecall | d_ebreak | d_mret |
                d_wfi | d_csr;
// instructions that write rd
wire d_wr     = (d_lui | d_auipc | d_jal | d_jalr | d_load | d_opimm | d_op | d_md |
                 d_csr) && d_rd != 5'd0;

wire [31:0] imm_i = {{21{ir[31]}}, ir[30:20]};
wire [31:0] imm_s = {{21{ir[31]}}, ir[30:25], ir[11:7]};
wire [31:0] imm_b = {{20{ir[31]}}, ir[7], ir[30:25], ir[11:8], 1'b0};
wire [31:0] imm_u = {ir[31:12], 12'd0};
wire [31:0] imm_j = {{12{ir[31]}}, ir[19:12], ir[20], ir[30:21], 1'b0};
wire [31:0] d_imm = d_store ? imm_s :
                    d_branch ? imm_b :
                    (d_lui | d_auipc) ? imm_u :
                    d_jal ? imm_j : imm_i;

wire d_sub = d_op && d_f3 == 3'b000 && ir[30];

wire [31:0] rf_a = rf[d_rs1];
wire [31:0] rf_b = rf[d_rs2];

// ---- registered decode (EXEC and later) ----
reg  [31:0] rs1v = 32'd0, rs2v = 32'd0;     // the source registers
reg  [31:0] opa = 32'd0, opb = 32'd0;       // the ALU's operands
reg  [31:0] imm = 32'd0;
reg  [2:0]  f3 = 3'd0;
reg         alu_sub = 1'b0, alu_sra = 1'b0;
reg         br_eq = 1'b0;                   // rs1 == rs2
reg         bt_eq = 1'b0, bt_lt = 1'b0, bt_ltu = 1'b0, bt_inv = 1'b0;   // BEQ/BNE, BLT/BGE, BLTU/BGEU, the negated ones
reg  [7:0]  alu_sel = 8'd1;                 // funct3 of OP/OP-IMM one-hot, else ADD
reg  [4:0]  rd = 5'd0;
reg  [4:0]  zimm = 5'd0;                    // the rs1 field (CSR uimm)
reg         e_wr = 1'b0;
reg         e_branch = 1'b0, e_jal = 1'b0, e_jalr = 1'b0, e_load = 1'b0, e_store = 1'b0;
reg         e_mul = 1'b0, e_div = 1'b0, e_csr = 1'b0, e_ecall = 1'b0, e_ebreak = 1'b0;
reg         e_mret = 1'b0, e_wfi = 1'b0, e_illegal = 1'b0;
// the result's source in WB: 0 ALU (adder, compares), 1 load, 2 MUL, 3 DIV,
// 4 CSR, 5 ALU (shifts, logic)
reg  [2:0]  wb_sel = 3'd0;

// ---- EXEC: the ALU ----
// ADD and SUB in one adder: for SUB, DECODE stored ~rs2 in opb, and
// {opa, 1} + {~rs2, 1} is 2 (opa - rs2) + 1
wire [32:0] a_sum = {opa, 1'b1} + {opb, alu_sub};
wire        a_lt  = $signed(opa) < $signed(opb);
wire        a_ltu = opa < opb;
wire [4:0]  a_sh  = opb[4:0];
wire        a_fill = (MUTANT == 1) ? 1'b0 : (alu_sra & opa[31]);
wire [32:0] a_sr33 = $signed({a_fill, opa}) >>> a_sh;
wire [31:0] a_sll = opa << a_sh;
// two results, registered apart and chosen in WB (wb_sel): the adder's
// and the comparators' (late, carry chains: little logic after them), and
// the shifts' and logic's (an AND-OR of the one-hot function select)
wire [31:0] alu_arith = alu_sel[2] ? {31'd0, a_lt} :
                        alu_sel[3] ? {31'd0, a_ltu} : a_sum[32:1];
wire [31:0] alu_logic = ({32{alu_sel[1]}} & a_sll) |
                        ({32{alu_sel[4]}} & (opa ^ opb)) |
                        ({32{alu_sel[5]}} & a_sr33[31:0]) |
                        ({32{alu_sel[6]}} & (opa | opb)) |
                        ({32{alu_sel[7]}} & (opa & opb));

// a branch taken: the condition chosen by flags from DECODE (equality
// compared there), so that little logic follows the comparators
wire b_taken = (bt_eq & (br_eq ^ bt_inv)) | (bt_lt & (a_lt ^ bt_inv)) |
               (bt_ltu & (a_ltu ^ bt_inv));
wire [31:0] pc_imm = pc + imm;
wire [31:0] rs1_imm = rs1v + imm;

reg  [31:0] alu_r = 32'd0;      // ADD, SUB, SLT(U) (and LUI, AUIPC, links)
reg  [31:0] logic_r = 32'd0;    // shifts, XOR, OR, AND

// ---- loads and stores ----
reg  [31:0] ls_addr = 32'd0;
reg  [3:0]  ls_strb = 4'd0;
reg  [31:0] ls_wdata = 32'd0;
reg         ls_mis = 1'b0;
reg  [31:0] load_r = 32'd0;

wire [1:0] x_al = rs1_imm[1:0];
wire x_mis = (f3[1:0] == 2'b10 && x_al != 2'b00) ||
             (f3[1:0] == 2'b01 && x_al[0]);
wire [3:0] x_strb = f3[1:0] == 2'b00 ? (4'b0001 << x_al) :
                    f3[1:0] == 2'b01 ? (x_al[1] ? 4'b1100 : 4'b0011) : 4'b1111;
wire [31:0] x_wdata = f3[1:0] == 2'b00 ? {4{rs2v[7:0]}} :
                      f3[1:0] == 2'b01 ? {2{rs2v[15:0]}} : rs2v;

wire [31:0] ld_sh = m_dbus_rsp_rdata >> {ls_addr[1:0], 3'b000};
reg  [31:0] ld_val;
always @* begin
    case (f3)
    3'b000: ld_val = {{24{ld_sh[7]}}, ld_sh[7:0]};
    3'b001: ld_val = {{16{ld_sh[15]}}, ld_sh[15:0]};
    3'b100: ld_val = {24'd0, ld_sh[7:0]};
    3'b101: ld_val = {16'd0, ld_sh[15:0]};
    default: ld_val = ld_sh;
    endcase
end

// ---- the multiplier: magnitudes, carry-save, 8 bits of |rs2| a clock ----
// |rs1| (dv_q, fixed) times |rs2| (dv_d, shifted right 8 bits a clock):
// each clock the 8 partial products of a byte of |rs2| are added to the
// sum and carry vectors (S, C, 41 bits, the product's upper part, shifted
// right 8 bits a clock) in five layers of 3:2 compressors, and the low
// byte that leaves S and C is added (S[7:0] + C[7:0] + the previous
// byte's carry) into the product's low word. Then the high word is
// S + C + carry, and the sign applied: -P's high word is ~H + (L == 0).
reg  [40:0] m_s = 41'd0, m_c = 41'd0;
reg  [31:0] m_lo = 32'd0;       // the product's low word, filled from the top
reg         m_cy = 1'b0;        // the last low byte's carry (weight: S's bit 0)
reg  [31:0] m_hi = 32'd0;       // the product's high word
reg         m_lz = 1'b0;        // m_lo == 0
reg         m_neg = 1'b0;       // the product is negative
reg  [2:0]  m_cnt = 3'd0;
reg  [31:0] mul_r = 32'd0;

wire        x_mul_sa = (f3 == 3'b001 || f3 == 3'b010) && (MUTANT != 3);   // MULH, MULHSU
wire        x_mul_sb = f3 == 3'b001 && (MUTANT != 3);                      // MULH

wire [31:0] m_a = dv_q;
wire [7:0]  m_d = dv_d[7:0];
wire [40:0] m_pp0 = m_d[0] ? {9'd0, m_a} : 41'd0;
wire [40:0] m_pp1 = m_d[1] ? {8'd0, m_a, 1'd0} : 41'd0;
wire [40:0] m_pp2 = m_d[2] ? {7'd0, m_a, 2'd0} : 41'd0;
wire [40:0] m_pp3 = m_d[3] ? {6'd0, m_a, 3'd0} : 41'd0;
wire [40:0] m_pp4 = m_d[4] ? {5'd0, m_a, 4'd0} : 41'd0;
wire [40:0] m_pp5 = m_d[5] ? {4'd0, m_a, 5'd0} : 41'd0;
wire [40:0] m_pp6 = m_d[6] ? {3'd0, m_a, 6'd0} : 41'd0;
wire [40:0] m_pp7 = m_d[7] ? {2'd0, m_a, 7'd0} : 41'd0;
wire [40:0] m_sh = {8'd0, m_s[40:8]};
wire [40:0] m_ch = {8'd0, m_c[40:8]};

// the carry vector of a 3:2 compressor, shifted to its weight (the sum
// stays below 2^41: nothing leaves the top)
function [40:0] csa_c;
    input [39:0] x, y, z;
    begin
        csa_c = {(x & y) | (x & z) | (y & z), 1'b0};
    end
endfunction

// 3:2 compressors, five layers for ten terms
wire [40:0] c1s = m_sh ^ m_ch ^ m_pp0;
wire [40:0] c1c = csa_c(m_sh[39:0], m_ch[39:0], m_pp0[39:0]);
wire [40:0] c2s = m_pp1 ^ m_pp2 ^ m_pp3;
wire [40:0] c2c = csa_c(m_pp1[39:0], m_pp2[39:0], m_pp3[39:0]);
wire [40:0] c3s = m_pp4 ^ m_pp5 ^ m_pp6;
wire [40:0] c3c = csa_c(m_pp4[39:0], m_pp5[39:0], m_pp6[39:0]);
wire [40:0] c4s = c1s ^ c1c ^ c2s;
wire [40:0] c4c = csa_c(c1s[39:0], c1c[39:0], c2s[39:0]);
wire [40:0] c5s = c2c ^ c3s ^ c3c;
wire [40:0] c5c = csa_c(c2c[39:0], c3s[39:0], c3c[39:0]);
wire [40:0] c6s = c4s ^ c4c ^ c5s;
wire [40:0] c6c = csa_c(c4s[39:0], c4c[39:0], c5s[39:0]);
wire [40:0] c7s = c6s ^ c6c ^ c5c;
wire [40:0] c7c = csa_c(c6s[39:0], c6c[39:0], c5c[39:0]);
wire [40:0] c8s = c7s ^ c7c ^ m_pp7;
wire [40:0] c8c = csa_c(c7s[39:0], c7c[39:0], m_pp7[39:0]);

// the low byte leaving S and C, with the previous one's carry
wire [8:0]  m_byte = {1'b0, m_s[7:0]} + {1'b0, m_c[7:0]} + {8'd0, m_cy};
// the high word: {S, cy} + {C, cy} is 2 (S + C + cy)
wire [32:0] m_hsum = {m_s[31:0], m_cy} + {m_c[31:0], m_cy};
wire [31:0] m_lo_neg = 32'd0 - m_lo;
wire [31:0] m_hi_neg = ~m_hi + {31'd0, m_lz};

// ---- the divider: restoring, one quotient bit a clock ----
reg  [31:0] dv_q = 32'd0;       // dividend shifting out, quotient in
reg  [31:0] dv_r = 32'd0;       // partial remainder
reg  [31:0] dv_d = 32'd0;       // divisor magnitude
reg  [5:0]  dv_cnt = 6'd0;
reg         dv_negq = 1'b0, dv_negr = 1'b0, dv_rem = 1'b0;
reg  [31:0] div_r = 32'd0;

// the operands' signs: DIV, REM signed; MULH both, MULHSU rs1 (f3[2]: the
// divisions); the magnitudes in dv_q, dv_d for both units
wire x_dv_na = rs1v[31] & (f3[2] ? !f3[0] : x_mul_sa);
wire x_dv_nb = rs2v[31] & (f3[2] ? !f3[0] : x_mul_sb);
wire x_dv_zero = rs2v == 32'd0;
wire [32:0] dv_sh = {dv_r, dv_q[31]};
wire [33:0] dv_diff = {1'b0, dv_sh} - {2'b00, dv_d};
wire        dv_ge = !dv_diff[33];
wire [31:0] dv_qneg = 32'd0 - dv_q;
wire [31:0] dv_rneg = 32'd0 - dv_r;
// (the difference is below 2^33; the shifter's bit 32 is its fill)
wire unused_bits = ^{dv_diff[32], a_sr33[32], a_sum[0], alu_sel[0], m_hsum[0]};

// ---- CSRs ----
wire [11:0] x_csr = imm[11:0];
reg  [31:0] csr_rd;
reg         csr_ok;
always @* begin
    csr_ok = 1'b1;
    case (x_csr)
    12'h300: csr_rd = {19'd0, 2'b11, 3'd0, mstatus_mpie, 3'd0, mstatus_mie, 3'd0};
    12'h301: csr_rd = MISA;
    12'h304: csr_rd = {20'd0, mie_meie, 3'd0, mie_mtie, 7'd0};
    12'h305: csr_rd = {mtvec, 2'b00};
    12'h310: csr_rd = 32'd0;                                    // mstatush
    12'h340: csr_rd = mscratch;
    12'h341: csr_rd = {mepc, 2'b00};
    12'h342: csr_rd = mcause;
    12'h343: csr_rd = mtval;
    12'h344: csr_rd = {20'd0, mip_meip, 3'd0, mip_mtip, 7'd0};
    12'hb00, 12'hc00: csr_rd = mcycle[31:0];
    12'hb02, 12'hc02: csr_rd = minstret[31:0];
    12'hb80, 12'hc80: csr_rd = mcycle[63:32];
    12'hb82, 12'hc82: csr_rd = minstret[63:32];
    12'hf11, 12'hf12, 12'hf13, 12'hf15: csr_rd = 32'd0;         // vendor, arch, impl, configptr
    12'hf14: csr_rd = HART_ID;
    default: begin
        csr_rd = 32'd0;
        csr_ok = 1'b0;
    end
    endcase
end
// CSRRW(I) always writes; CSRRS(I)/CSRRC(I) write when rs1 (uimm) is not 0
wire x_csr_wr = f3[1:0] == 2'b01 || zimm != 5'd0;

reg  [31:0] csr_r = 32'd0;      // the CSR's old value (rd)
reg         csr_legal = 1'b0;
reg         csr_we = 1'b0;
reg         csr_cnt = 1'b0;     // this instruction writes minstret[h]
wire [31:0] csr_src = f3[2] ? {27'd0, zimm} : rs1v;
wire [31:0] csr_new = f3[1:0] == 2'b01 ? csr_src :
                      f3[1:0] == 2'b10 ? (csr_r | csr_src) : (csr_r & ~csr_src);
wire        csr_w = state == S_CSR && csr_legal && csr_we;

// ---- interrupts ----
wire irq_mask_t = (MUTANT == 5) ? 1'b0 : (mip_mtip & mie_mtie);
wire irq_any = (mip_meip & mie_meie) | irq_mask_t;
wire irq_take = mstatus_mie & irq_any & !if_held;
wire [31:0] next_pc = take_r ? pc_imm_r : npc;

// (no request while in reset)
// WB fetches the next instruction itself (at next_pc) unless it traps or
// an interrupt is to be taken (then FETCH does)
wire wb_trap = (e_jal | e_jalr | e_branch) && next_pc[1];
wire wb_fetch = state == S_WB && !wb_trap && !irq_take;
assign m_ibus_req_valid = !rst && ((state == S_FETCH && (if_held || !irq_take)) || wb_fetch);
assign m_ibus_req_addr = state == S_WB ? next_pc : pc;

assign m_dbus_req_valid = !rst && state == S_MEM && !ls_mis;
assign m_dbus_req_addr = {ls_addr[31:2], 2'b00};
assign m_dbus_req_we = e_store;
assign m_dbus_req_wstrb = ls_strb;
assign m_dbus_req_wdata = ls_wdata;

assign sleeping = state == S_WFI;

// the result written back
reg [31:0] wb_data;
always @* begin
    case (wb_sel)
    3'd1: wb_data = load_r;
    3'd2: wb_data = mul_r;
    3'd3: wb_data = div_r;
    3'd4: wb_data = csr_r;
    3'd5: wb_data = logic_r;
    default: wb_data = alu_r;
    endcase
end

always @(posedge clk) begin
    retire <= 1'b0;
    mip_mtip <= irq_timer;
    mip_meip <= irq_external;
    mcycle <= mcycle + 64'd1;

    case (state)
    S_FETCH: begin
        if (if_held || !irq_take) begin
            if_held <= !m_ibus_req_ready;
            if (m_ibus_req_ready)
                state <= S_IWAIT;
        end else begin
            // an interrupt: taken before the instruction at pc
            t_cause <= mip_meip & mie_meie ? C_IRQ_EXT : C_IRQ_TIMER;
            t_val <= 32'd0;
            state <= S_TRAP;
        end
    end
    S_IWAIT: begin
        if (m_ibus_rsp_valid) begin
            ir <= m_ibus_rsp_rdata;
            t_cause <= C_IFAULT;
            t_val <= pc;
            state <= m_ibus_rsp_err ? S_TRAP : S_DECODE;
        end
    end
    S_DECODE: begin
        rs1v <= rf_a;
        rs2v <= rf_b;
        opa <= d_lui ? 32'd0 : (d_auipc | d_jal | d_jalr) ? pc : rf_a;
        opb <= (d_op | d_branch) ? (d_sub ? ~rf_b : rf_b) : (d_jal | d_jalr) ? 32'd4 : d_imm;
        imm <= d_imm;
        f3 <= d_f3;
        alu_sub <= d_sub;
        // (an XOR and a reduction: yosys would make rf_a == rf_b an adder)
        br_eq <= ~|(rf_a ^ rf_b);
        bt_eq <= d_branch && !d_f3[2];
        bt_lt <= d_branch && d_f3[2:1] == 2'b10;
        bt_ltu <= d_branch && d_f3[2:1] == 2'b11;
        bt_inv <= d_f3[0];
        alu_sel <= (d_op | d_opimm) ? (8'd1 << d_f3) : 8'd1;
        alu_sra <= ir[30];
        rd <= d_rd;
        zimm <= d_rs1;
        e_wr <= d_wr;
        e_branch <= d_branch;
        e_jal <= d_jal;
        e_jalr <= d_jalr;
        e_load <= d_load;
        e_store <= d_store;
        e_mul <= d_md & !d_f3[2];
        e_div <= d_md & d_f3[2];
        e_csr <= d_csr;
        e_ecall <= d_ecall;
        e_ebreak <= d_ebreak;
        e_mret <= d_mret;
        e_wfi <= d_wfi;
        e_illegal <= !d_legal;
        wb_sel <= d_load ? 3'd1 : (d_md & !d_f3[2]) ? 3'd2 : d_md ? 3'd3 : d_csr ? 3'd4 :
                  ((d_op | d_opimm) && d_f3 != 3'b000 && d_f3[2:1] != 2'b01) ? 3'd5 : 3'd0;
        pc4 <= pc + 32'd4;
        state <= S_EXEC;
    end
    S_EXEC: begin
        alu_r <= alu_arith;
        logic_r <= alu_logic;
        // a taken branch or JAL goes to pc_imm (chosen in WB: the compare
        // stays out of npc's path)
        npc <= e_jalr ? {rs1_imm[31:1], 1'b0} : pc4;
        pc_imm_r <= pc_imm;
        take_r <= e_jal | b_taken;
        ls_addr <= rs1_imm;
        ls_strb <= x_strb;
        ls_wdata <= x_wdata;
        ls_mis <= x_mis && !(MUTANT == 4 && e_load);
        csr_r <= csr_rd;
        csr_legal <= csr_ok && !(x_csr[11:10] == 2'b11 && x_csr_wr);
        csr_we <= x_csr_wr;
        csr_cnt <= x_csr_wr && (x_csr == 12'hb02 || x_csr == 12'hb82);
        // the multiplier's start
        m_s <= 41'd0;
        m_c <= 41'd0;
        m_cy <= 1'b0;
        m_neg <= x_dv_na ^ x_dv_nb;
        m_cnt <= 3'd0;
        // the divider's start: magnitudes
        dv_q <= x_dv_na ? 32'd0 - rs1v : rs1v;
        dv_d <= x_dv_nb ? 32'd0 - rs2v : rs2v;
        dv_r <= 32'd0;
        dv_cnt <= 6'd0;
        dv_negq <= (x_dv_na ^ x_dv_nb) && !x_dv_zero;
        dv_negr <= x_dv_na;
        dv_rem <= f3[1];
        t_val <= 32'd0;
        if (e_illegal) begin
            t_cause <= C_ILLEGAL;
            t_val <= ir;
            state <= S_TRAP;
        end else if (e_ecall) begin
            t_cause <= C_ECALL_M;
            state <= S_TRAP;
        end else if (e_ebreak) begin
            t_cause <= C_BREAK;
            t_val <= pc;
            state <= S_TRAP;
        end else if (e_mret) begin
            npc <= {mepc, 2'b00};
            mstatus_mie <= mstatus_mpie;
            mstatus_mpie <= 1'b1;
            state <= S_WB;
        end else if (e_wfi) begin
            state <= S_WFI;
        end else if (e_load | e_store) begin
            state <= S_MEM;
        end else if (e_mul) begin
            state <= S_MUL;
        end else if (e_div) begin
            state <= S_DIV;
        end else if (e_csr) begin
            state <= S_CSR;
        end else begin
            state <= S_WB;
        end
    end
    S_MEM: begin
        t_val <= ls_addr;
        if (ls_mis) begin
            t_cause <= e_store ? C_SMISALIGN : C_LMISALIGN;
            state <= S_TRAP;
        end else if (m_dbus_req_ready) begin
            t_cause <= e_store ? C_SFAULT : C_LFAULT;
            state <= S_MWAIT;
        end
    end
    S_MWAIT: begin
        if (m_dbus_rsp_valid) begin
            load_r <= ld_val;
            state <= m_dbus_rsp_err ? S_TRAP : S_WB;
        end
    end
    S_MUL: begin
        // 0-4: a byte of |rs2| in (4: none left), the low byte out (1-4);
        // 5: the high word; 6: the sign, the word asked for
        m_cnt <= m_cnt + 3'd1;
        if (m_cnt <= 3'd4) begin
            m_s <= c8s;
            m_c <= c8c;
            dv_d <= {8'd0, dv_d[31:8]};
            if (m_cnt != 3'd0) begin
                m_lo <= {m_byte[7:0], m_lo[31:8]};
                m_cy <= m_byte[8];
            end
        end else if (m_cnt == 3'd5) begin
            m_hi <= m_hsum[32:1];
            m_lz <= m_lo == 32'd0;
        end else begin
            mul_r <= f3 == 3'b000 ? (m_neg ? m_lo_neg : m_lo) : (m_neg ? m_hi_neg : m_hi);
            state <= S_WB;
        end
    end
    S_DIV: begin
        dv_cnt <= dv_cnt + 6'd1;
        if (dv_cnt[5]) begin
            if (dv_rem)
                div_r <= dv_negr ? dv_rneg : dv_r;
            else if (MUTANT == 2 && dv_d == 32'd0)
                div_r <= 32'd0;
            else
                div_r <= dv_negq ? dv_qneg : dv_q;
            state <= S_WB;
        end else begin
            dv_r <= dv_ge ? dv_diff[31:0] : dv_sh[31:0];
            dv_q <= {dv_q[30:0], dv_ge};
        end
    end
    S_CSR: begin
        t_cause <= C_ILLEGAL;
        t_val <= ir;
        state <= csr_legal ? S_WB : S_TRAP;
    end
    S_WFI: begin
        if (irq_any)
            state <= S_WB;
    end
    S_WB: begin
        t_cause <= C_IMISALIGN;
        t_val <= next_pc;
        if (wb_trap) begin
            state <= S_TRAP;
        end else begin
            if (e_wr)
                rf[rd] <= wb_data;
            pc <= next_pc;
            retire <= 1'b1;
            if (!csr_cnt)
                minstret <= minstret + 64'd1;
            // the next fetch: taken now (IWAIT), or held into FETCH
            if (wb_fetch && m_ibus_req_ready)
                state <= S_IWAIT;
            else
                state <= S_FETCH;
            if_held <= wb_fetch && !m_ibus_req_ready;
        end
    end
    S_TRAP: begin
        mepc <= pc[31:2];
        mcause <= t_cause;
        mtval <= t_val;
        mstatus_mpie <= mstatus_mie;
        mstatus_mie <= 1'b0;
        pc <= {mtvec, 2'b00};
        state <= S_FETCH;
    end
    default: state <= S_FETCH;
    endcase

    // CSR writes (state CSR)
    if (csr_w) begin
        case (x_csr)
        12'h300: begin
            mstatus_mie <= csr_new[3];
            mstatus_mpie <= csr_new[7];
        end
        12'h304: begin
            mie_mtie <= csr_new[7];
            mie_meie <= csr_new[11];
        end
        12'h305: mtvec <= csr_new[31:2];
        12'h340: mscratch <= csr_new;
        12'h341: mepc <= csr_new[31:2];
        12'h342: mcause <= csr_new;
        12'h343: mtval <= csr_new;
        12'hb00: mcycle[31:0] <= csr_new;
        12'hb80: mcycle[63:32] <= csr_new;
        12'hb02: minstret[31:0] <= csr_new;
        12'hb82: minstret[63:32] <= csr_new;
        default: ;
        endcase
    end

    if (rst) begin
        state <= S_FETCH;
        pc <= RESET_PC;
        if_held <= 1'b0;
        retire <= 1'b0;
        mstatus_mie <= 1'b0;
        mstatus_mpie <= 1'b0;
        mie_mtie <= 1'b0;
        mie_meie <= 1'b0;
        mip_mtip <= 1'b0;
        mip_meip <= 1'b0;
        mtvec <= 30'd0;
        mepc <= 30'd0;
        mcause <= 32'd0;
        mtval <= 32'd0;
        mcycle <= 64'd0;
        minstret <= 64'd0;
    end
end

endmodule

`resetall
