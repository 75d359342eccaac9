`timescale 1ns / 1ps
// Execute datapath of one pass: NUM_SP integer ALU lanes (sm1_int_alu), NUM_SP FP lanes
// (sm1_fp_alu), NUM_SFU special-function units (sm1_sfu) shared by the lanes, the address unit of
// the memory instructions, and the write-back of every lane that executes.
//
// The decode bundle's `unit` picks whose result and flags are written back. An SFU or RRO pass
// takes NUM_SP/NUM_SFU cycles (sub-steps x_sub): sub-step k feeds lanes k*NUM_SFU .. k*NUM_SFU +
// NUM_SFU-1 of the pass to the SFUs and writes those lanes back; the sequencer (sm_exec_ctrl) holds
// the pass meanwhile. The FP and SFU operands are held at 0 while another unit's instruction is in
// execute, and the integer lanes' while the FP unit or the SFU has it (operand isolation: their
// datapaths do not toggle, and an event-driven simulator does not re-evaluate them on every pass of
// another unit).
//
// A lane executes when it was active at issue and its guard is true. Write-back goes to the
// register file (full register or half), $c (ALU flags, R2C), $a (R2A, ADA, post-increment), the
// shared memory (R2G), and the memory unit's local addresses; every write is also handed to the
// commit unit. Addresses of R2G and LLD/LST are $a + offset, or $a with post-increment by the
// offset (ISA.md 7.2); a memory operand's post-increment adds its slot's offset to $a.
module sm_execute #(
    parameter integer NUM_SP = 8,
    parameter integer NUM_SFU = NUM_SP / 4   // divides NUM_SP
) (
    input  wire                 pass_exec,    // the lanes of this pass may execute
    input  wire [5:0]           x_pass,
    input  wire [5:0]           x_sub,        // SFU sub-step of the pass
    input  wire [31:0]          x_active,
    input  wire [31:0]          guard,
    // decode bundle
    input  wire                 unimpl,
    input  wire [3:0]           alu_op, alu_kind,
    input  wire [1:0]           alu_addop, alu_lop, alu_dst_bits,
    input  wire                 alu_wide, alu_sgn, alu_sat, alu_s1, alu_s2, alu_not1, alu_not2,
    input  wire [2:0]           alu_cond, alu_src_type,
    input  wire                 alu_dst_full, alu_abs, alu_neg,
    input  wire [1:0]           unit,
    input  wire [3:0]           fp_op,
    input  wire [2:0]           sfu_op,
    input  wire [1:0]           fp_rnd,
    input  wire                 fp_sat, fp_rint, fp_wide, fp_src32, fp_sgn,
    input  wire [3:0]           fp_cond,
    input  wire [2:0]           fp_src_type,
    input  wire                 fp_abs_a, fp_neg_a, fp_abs_b, fp_neg_b, fp_neg_c,
    input  wire [2:0]           wb_kind,
    input  wire [1:0]           dst_kind,
    input  wire [6:0]           dst_idx,
    input  wire                 cwe,
    input  wire [2:0]           adst,
    input  wire [15:0]          anum,
    input  wire [4:0]           ls_bytes,
    input  wire                 ls_half, ls_local,
    input  wire [6:0]           ls_reg,
    input  wire [15:0]          ls_off,
    input  wire [2:0]           mem_areg,
    input  wire                 mem_postinc,
    input  wire [1:0]           mem_slot,
    input  wire [15:0]          a_off, b_off, c_off,
    // operands
    input  wire [NUM_SP*32-1:0] opa, opb, opc,
    input  wire [NUM_SP-1:0]    cin,
    input  wire [NUM_SP-1:0]    oob,
    input  wire [4095:0]        a_regs,       // the warp's $a registers
    output wire [6:0]           rf_reg_s,     // register file: the data of a shared store
    input  wire [NUM_SP*32-1:0] rf_s,
    // register write-back (half: 0 full, 1 low, 2 high)
    output reg  [NUM_SP-1:0]    gpr_mask,
    output wire [6:0]           gpr_reg,
    output wire [1:0]           gpr_half,
    output wire [NUM_SP*32-1:0] gpr_data,
    // $c write-back
    output reg  [NUM_SP-1:0]    cc_mask,
    output reg  [NUM_SP*4-1:0]  cc_data,
    // $a write-back: R2A / ADA, post-increment, and what the commit record shows
    output reg  [NUM_SP-1:0]    a_mask,
    output reg  [NUM_SP*16-1:0] a_data,
    output reg  [NUM_SP-1:0]    inc_mask,
    output reg  [NUM_SP*16-1:0] inc_data,
    output wire [NUM_SP-1:0]    rec_a_mask,
    output wire [2:0]           rec_a_reg,
    output reg  [NUM_SP*16-1:0] rec_a_data,
    // shared store (R2G): byte address in the block's window, and the commit record
    output reg  [NUM_SP-1:0]    st_mask,
    output reg  [NUM_SP*32-1:0] st_addr,
    output reg  [NUM_SP*32-1:0] st_data,      // the register, as read
    output reg  [NUM_SP*32-1:0] st_rec_data,  // the bytes stored
    // local addresses of LLD / LST for the memory unit
    output reg  [NUM_SP-1:0]    la_mask,
    output reg  [NUM_SP*32-1:0] la_addr,
    output reg                  lane_fault    // an operand or store address is out of range
);
`include "sm_defs.vh"

    wire                 fp_on = unit == U_FP;
    wire                 sfu_on = unit == U_SFU;
    wire                 int_on = !fp_on && !sfu_on;  // the integer lanes' operands are held at 0 otherwise
    wire [31:0]          sfu_lane0 = {26'd0, x_sub} * NUM_SFU;  // the first lane of the sub-step
    // each unit lane drives an element of an array, not a part of a vector: under Icarus a vector
    // assembled from NUM_SP part-selects is converted bit by bit for every part that changes
    wire [31:0]          alu_res [0:NUM_SP-1];
    wire [31:0]          fp_res [0:NUM_SP-1];
    wire [31:0]          sfu_res [0:NUM_SFU-1];
    wire [3:0]           alu_flags [0:NUM_SP-1];
    wire [3:0]           fp_flags [0:NUM_SP-1];
    wire [31:0]          lane_res [0:NUM_SP-1];  // the result and flags of the instruction's unit
    wire [3:0]           lane_flags [0:NUM_SP-1];
    reg  [NUM_SP*32-1:0] res;
    reg  [NUM_SP*4-1:0]  flags;
    genvar g;
    generate
        for (g = 0; g < NUM_SP; g = g + 1) begin : lanes
            sm1_int_alu u_alu (
                .op(alu_op), .addop(alu_addop), .wide(alu_wide), .sgn(alu_sgn), .sat(alu_sat),
                .s1(alu_s1), .s2(alu_s2), .kind(alu_kind), .cond(alu_cond), .lop(alu_lop),
                .not1(alu_not1), .not2(alu_not2), .src_type(alu_src_type), .dst_bits(alu_dst_bits),
                .dst_full(alu_dst_full), .abs_(alu_abs), .neg(alu_neg),
                .a(int_on ? opa[32 * g +: 32] : 32'd0), .b(int_on ? opb[32 * g +: 32] : 32'd0),
                .c(int_on ? opc[32 * g +: 32] : 32'd0), .cin(int_on & cin[g]),
                .res(alu_res[g]), .flags(alu_flags[g])
            );
            sm1_fp_alu u_fp (
                .op(fp_op), .rnd(fp_rnd), .sat(fp_sat), .rint(fp_rint), .cond(fp_cond), .wide(fp_wide),
                .src32(fp_src32), .sgn(fp_sgn), .src_type(fp_src_type),
                .abs_a(fp_abs_a), .neg_a(fp_neg_a), .abs_b(fp_abs_b), .neg_b(fp_neg_b), .neg_c(fp_neg_c),
                .a(fp_on ? opa[32 * g +: 32] : 32'd0), .b(fp_on ? opb[32 * g +: 32] : 32'd0),
                .c(fp_on ? opc[32 * g +: 32] : 32'd0),
                .res(fp_res[g]), .flags(fp_flags[g])
            );
            // the SFU results belong to the lanes of the current sub-step; no SFU form writes $c
            assign lane_res[g] = fp_on ? fp_res[g] : sfu_on ? sfu_res[g % NUM_SFU] : alu_res[g];
            assign lane_flags[g] = fp_on ? fp_flags[g] : alu_flags[g];
        end
        for (g = 0; g < NUM_SFU; g = g + 1) begin : sfus
            sm1_sfu u_sfu (
                .op(sfu_op), .abs_(fp_abs_a), .neg(fp_neg_a), .sat(fp_sat),
                .a(sfu_on ? opa[32 * (sfu_lane0 + g) +: 32] : 32'd0), .res(sfu_res[g])
            );
        end
    endgenerate

    // the lanes' results gathered into the vectors, eight lanes a process (NUM_SP is 8, 16 or 32):
    // the unit select is a net per lane, so a process reads nothing but the lanes' values. Each
    // process stores its lanes as one concatenation: at NUM_SP 8 a store of the whole vector, which
    // Icarus copies word by word, where a store into a part of a vector is set bit by bit (the
    // process runs once or twice a cycle, as the lanes' results settle).
    genvar gg;
    generate
        for (gg = 0; gg < NUM_SP; gg = gg + 8) begin : gather
            always @* begin
                res[32 * gg +: 256] = {lane_res[gg + 7], lane_res[gg + 6], lane_res[gg + 5], lane_res[gg + 4],
                                       lane_res[gg + 3], lane_res[gg + 2], lane_res[gg + 1], lane_res[gg]};
                flags[4 * gg +: 32] = {lane_flags[gg + 7], lane_flags[gg + 6], lane_flags[gg + 5], lane_flags[gg + 4],
                                       lane_flags[gg + 3], lane_flags[gg + 2], lane_flags[gg + 1], lane_flags[gg]};
            end
        end
    endgenerate

    assign rf_reg_s = ls_half ? {1'b0, ls_reg[6:1]} : ls_reg;
    assign gpr_reg = (dst_kind == 2'd2) ? {1'b0, dst_idx[6:1]} : dst_idx;
    assign gpr_half = (dst_kind == 2'd2) ? (dst_idx[0] ? HALF_HIGH : HALF_LOW) : HALF_FULL;
    assign gpr_data = res;
    assign rec_a_mask = a_mask | inc_mask;
    assign rec_a_reg = (inc_mask != 0) ? mem_areg : adst;

    wire [15:0] slot_off = (mem_slot == 2'd1) ? a_off : (mem_slot == 2'd2) ? b_off : c_off;
    wire        operand_inc = mem_postinc && mem_slot != 2'd0 && wb_kind != WB_R2G;

    // Three processes, so that an event-driven simulator runs each only when its own inputs change:
    // the lanes that execute; the register and $c write-back (it follows the units' results, which
    // settle lane by lane); the address work of R2A/ADA, R2G, LLD/LST and post-increments, skipped
    // entirely for the other instructions.
    // Lane enables as whole-vector operations (this process runs every cycle: x_pass changes): the
    // pass's bits of the warp's masks shifted down; an SFU sub-step keeps its NUM_SFU lanes.
    reg [NUM_SP-1:0] en;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [31:0] en_w;   // the low NUM_SP bits are the pass's
    /* verilator lint_on UNUSEDSIGNAL */
    always @* begin
        en_w = (pass_exec && !unimpl) ? (x_active & guard) >> (x_pass * NUM_SP) : 32'd0;
        if (sfu_on) en_w = en_w & (SFU_LANES << (x_sub * NUM_SFU));
        en = en_w[NUM_SP-1:0];
    end
    localparam [31:0] SFU_LANES = (32'd1 << NUM_SFU) - 32'd1;
    // each lane's enable over its four flag bits; runs only when the enables change
    reg [NUM_SP*4-1:0] en4;
    integer e4;
    always @* for (e4 = 0; e4 < NUM_SP; e4 = e4 + 1) en4[4 * e4 +: 4] = {4{en[e4]}};

    reg oob_fault, st_fault;
    always @(*) lane_fault = oob_fault || st_fault;

    // The write-back masks as vectors; the $c data follows the flags (every pass), so it is a
    // process of its own that reads the masks only; R2C (the low nibble of each lane's operand) is
    // the only lane loop.
    always @* begin
        gpr_mask = (wb_kind == WB_ALU && (dst_kind == 2'd1 || dst_kind == 2'd2)) ? en : {NUM_SP{1'b0}};
        cc_mask = ((wb_kind == WB_ALU && cwe) || wb_kind == WB_R2C) ? en : {NUM_SP{1'b0}};
        oob_fault = (en & oob) != 0;
    end
    integer i;
    always @* begin
        if (cc_mask == 0)
            cc_data = 0;
        else if (wb_kind == WB_R2C)
            for (i = 0; i < NUM_SP; i = i + 1)
                cc_data[4 * i +: 4] = opa[32 * i +: 4] & en4[4 * i +: 4];
        else
            cc_data = flags & en4;
    end

    wire addr_work = wb_kind == WB_R2A || wb_kind == WB_ADA || wb_kind == WB_R2G || (wb_kind == WB_MEM && ls_local) || operand_inc;
    // what changes every cycle reaches the address process only while it has work: otherwise it
    // woke twice a cycle to clear its outputs again
    wire [5:0]           ad_pass = addr_work ? x_pass : 6'd0;
    wire [NUM_SP-1:0]    ad_en = addr_work ? en : {NUM_SP{1'b0}};
    wire [NUM_SP*32-1:0] ad_opa = addr_work ? opa : {NUM_SP*32{1'b0}};
    wire [NUM_SP*32-1:0] ad_rf = addr_work ? rf_s : {NUM_SP*32{1'b0}};
    integer k, klane;
    reg [15:0] a_now;  // the lane's $a of the memory operand ($a0 reads 0)
    reg [31:0] addr, v;
    /* verilator lint_off UNUSEDSIGNAL */
    reg [31:0] av;     // R2A / ADA result: $a keeps the low 16 bits
    /* verilator lint_on UNUSEDSIGNAL */
    always @* begin
        a_mask = 0; a_data = 0; inc_mask = 0; inc_data = 0; st_fault = 1'b0;
        st_mask = 0; st_addr = 0; st_data = 0; st_rec_data = 0; la_mask = 0; la_addr = 0; rec_a_data = 0;
        klane = 0; a_now = 16'd0; addr = 32'd0; v = 32'd0; av = 32'd0;
        if (addr_work)
            for (k = 0; k < NUM_SP; k = k + 1) begin
                klane = ad_pass * NUM_SP + k;
                a_now = a_regs[{mem_areg, 5'd0} * 16 + klane * 16 +: 16];
                addr = mem_postinc ? {16'd0, a_now} : {16'd0, a_now} + {16'd0, ls_off};
                v = ad_rf[32 * k +: 32];
                if (ls_half) v = ls_reg[0] ? {16'd0, v[31:16]} : {16'd0, v[15:0]};
                av = (wb_kind == WB_R2A) ? (ad_opa[32 * k +: 32] << anum[3:0]) : (ad_opa[32 * k +: 32] + {16'd0, anum});
                if (ad_en[k]) begin
                    if (wb_kind == WB_R2A || wb_kind == WB_ADA) begin
                        a_mask[k] = 1'b1;
                        a_data[16 * k +: 16] = av[15:0];
                    end
                    if (wb_kind == WB_R2G) begin
                        if (addr + {27'd0, ls_bytes} > SHARED_BYTES) st_fault = 1'b1;
                        st_mask[k] = 1'b1;
                        st_addr[32 * k +: 32] = addr;
                        st_data[32 * k +: 32] = v;
                        st_rec_data[32 * k +: 32] = (ls_bytes == 5'd1) ? {24'd0, v[7:0]} : (ls_bytes == 5'd2) ? {16'd0, v[15:0]} : v;
                    end
                    if (wb_kind == WB_MEM && ls_local) begin
                        la_mask[k] = 1'b1;
                        la_addr[32 * k +: 32] = addr;
                    end
                    if ((wb_kind == WB_R2G || (wb_kind == WB_MEM && ls_local)) && mem_postinc) begin
                        inc_mask[k] = 1'b1;
                        inc_data[16 * k +: 16] = a_now + ls_off;
                    end
                    if (operand_inc) begin
                        inc_mask[k] = 1'b1;
                        inc_data[16 * k +: 16] = a_now + slot_off;
                    end
                end
                rec_a_data[16 * k +: 16] = inc_mask[k] ? inc_data[16 * k +: 16] : a_data[16 * k +: 16];
            end
    end
endmodule
