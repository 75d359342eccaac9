// EX: forwarding, the scalar ALU, the vector unit, branch resolution and the graphics unit;
// writes the EX/MEM register.
// Forwarding, nearest producer first: EX/MEM (an ALU, move, link or vector result; a load there
// is never needed because ID stalled its consumer), then MEM/WB (any result, loads included),
// then the value ID read. CC is forwarded the same way for branches.
// Branches and jumps resolve here: a taken one redirects IF and turns the two younger
// instructions (in IF/ID and ID/EX's input) into bubbles; halt does the same and stops fetching.
module lg_ex (
    input  wire         clk,
    input  wire         rst,
    input  wire         idex_valid,
    input  wire [15:0]  idex_pc,
    input  wire [31:0]  idex_insn,
    input  wire [15:0]  idex_a,
    input  wire [15:0]  idex_b,
    input  wire [63:0]  idex_va,
    input  wire [63:0]  idex_vb,
    input  wire [31:0]  prog_words,
    // MEM/WB: the write-back in progress (a forwarding source)
    input  wire         wb_rd_we,
    input  wire [3:0]   wb_rd,
    input  wire [15:0]  wb_rd_val,
    input  wire         wb_cc_we,
    input  wire [2:0]   wb_cc,
    input  wire         wb_vd_we,
    input  wire [5:0]   wb_vd,
    input  wire [63:0]  wb_vd_val,
    input  wire [2:0]   cc_q,          // the CC register
    // forwarded operands (ID keeps them for an instruction the graphics unit holds)
    output wire [15:0]  a,
    output wire [15:0]  b,
    output wire [63:0]  va,
    output wire [63:0]  vb,
    output wire         hold,          // the graphics unit is busy with this instruction
    output wire         redirect,
    output wire         stop,
    output wire [15:0]  target,
    // EX/MEM
    output reg          exmem_valid,
    output reg  [15:0]  exmem_pc,
    output reg  [31:0]  exmem_insn,
    output reg  [15:0]  exmem_next_pc,
    output reg          exmem_rd_we,
    output reg  [3:0]   exmem_rd,
    output reg  [15:0]  exmem_rd_val,  // a load's address
    output reg          exmem_cc_we,
    output reg  [2:0]   exmem_cc,
    output reg          exmem_vd_we,
    output reg  [5:0]   exmem_vd,
    output reg  [63:0]  exmem_vd_val,
    output reg  [15:0]  exmem_sdata,   // a store's data
    output reg  [674:0] exmem_grec,
    output reg          exmem_done,
    // the frame-buffer port (from the graphics unit)
    output wire         fb_we,
    output wire [17:0]  fb_addr,
    output wire [11:0]  fb_data,
    output wire         fb_clear,
    output wire         fb_draw
);
    `include "lg_decode.vh"

    wire [31:0] w = idex_insn;
    wire [7:0] op = lg_op(w);
    wire [3:0] ra = lg_ra(w);
    wire [3:0] rb = lg_rb(w);

    // ---- forwarding
    wire m_fwd = exmem_valid && exmem_rd_we && !lg_is_load(exmem_insn);
    assign a = ra == 4'd15 ? idex_a
             : (m_fwd && exmem_rd == ra) ? exmem_rd_val
             : (wb_rd_we && wb_rd == ra) ? wb_rd_val : idex_a;
    assign b = rb == 4'd15 ? idex_b
             : (m_fwd && exmem_rd == rb) ? exmem_rd_val
             : (wb_rd_we && wb_rd == rb) ? wb_rd_val : idex_b;
    wire [5:0] vra = lg_va(w);
    wire [5:0] vrb = lg_vb(w);
    wire mv_fwd = exmem_valid && exmem_vd_we;
    assign va = (mv_fwd && exmem_vd == vra) ? exmem_vd_val : (wb_vd_we && wb_vd == vra) ? wb_vd_val : idex_va;
    assign vb = (mv_fwd && exmem_vd == vrb) ? exmem_vd_val : (wb_vd_we && wb_vd == vrb) ? wb_vd_val : idex_vb;
    wire [2:0] cc_in = (exmem_valid && exmem_cc_we) ? exmem_cc : wb_cc_we ? wb_cc : cc_q;

    // ---- scalar ALU: 16-bit two's complement, wrapping (seed profile: float registers are Q8.7)
    wire [15:0] imm = lg_f_imm(w);
    wire [15:0] pc4 = idex_pc + 16'd4;
    reg  [15:0] res;
    always @* begin
        case (op)
            LG_OP_ADD_D, LG_OP_ADD_F: res = a + b;
            LG_OP_ADDI_D, LG_OP_ADDI_F: res = a + imm;
            LG_OP_AND_D: res = a & b;
            LG_OP_ANDI_D: res = a & imm;
            LG_OP_MOV: res = b;
            LG_OP_MOVI_D, LG_OP_MOVI_F: res = imm;
            LG_OP_JSR, LG_OP_JSRR: res = pc4;  // the return address
            default: res = a + imm;  // ld/st: the byte address (R[base] + imm) & 0xFFFF
        endcase
    end
    // CC (N bit 0, Z bit 1, P bit 2): from the signed 16-bit result, or for cmp/cmpi from the
    // signed comparison of the two operands (a - b without wrapping)
    wire [15:0] cmp_b = op == LG_OP_CMPI ? imm : b;
    wire lt = $signed(a) < $signed(cmp_b);
    wire eq = a == cmp_b;
    wire [2:0] cc_cmp = {!lt && !eq, eq, lt};
    wire [2:0] cc_res = {!res[15] && res != 16'h0, res == 16'h0, res[15]};
    wire [2:0] cc_out = lg_fam(w) == LG_FAM_COMPARE ? cc_cmp : cc_res;

    // ---- vector unit: 16-bit lanes, wrapping
    wire [1:0] idx = lg_f_idx(w);
    wire [15:0] lane_val = op == LG_OP_VCOMPMOV ? b : imm;
    reg  [63:0] vres;
    always @* begin
        case (op)
            LG_OP_VADD: vres = {va[63:48] + vb[63:48], va[47:32] + vb[47:32], va[31:16] + vb[31:16], va[15:0] + vb[15:0]};
            LG_OP_VMOV: vres = va;
            LG_OP_VMOVI: vres = {4{imm}};
            default: begin  // vcompmov, vcompmovi: one element replaced, the others kept
                vres = va;
                vres[16*idx +: 16] = lane_val;
            end
        endcase
    end

    // ---- branches and jumps: br/jsr target = next PC + (offset << 2); jmp/jsrr target = R[base]
    wire [15:0] off4 = lg_f_off(w) << 2;  // 16-bit: the offset's top two bits leave the PC space
    wire [15:0] rel = pc4 + off4;
    wire br_taken = lg_is_branch(w) && (lg_br_mask(op) & cc_in) != 3'b000;
    wire is_jump = lg_ok(w) && lg_fam(w) == LG_FAM_JUMP;
    wire taken = br_taken || is_jump;
    assign target = (op == LG_OP_JMP || op == LG_OP_JSRR) ? a : rel;
    assign redirect = idex_valid && taken;
    assign stop = idex_valid && lg_is_halt(w);
    wire [15:0] next_pc = taken ? target : pc4;
    // the program ends at halt or when the next PC leaves it (not word aligned or past +ilen)
    wire off_end = next_pc[1:0] != 2'b00 || {18'b0, next_pc[15:2]} >= prog_words;

    // ---- graphics unit
    wire g_req = idex_valid && lg_is_gfx(w);
    wire g_done;
    wire [674:0] g_rec;
    lg_gfx u_gfx (
        .clk(clk), .rst(rst), .req(g_req), .insn(w), .vr(va), .done(g_done), .rec(g_rec),
        .fb_we(fb_we), .fb_addr(fb_addr), .fb_data(fb_data), .fb_clear(fb_clear), .fb_draw(fb_draw)
    );
    assign hold = g_req && !g_done;

    always @(posedge clk) begin
        if (rst) begin
            exmem_valid <= 1'b0;
            exmem_pc <= 16'h0;
            exmem_insn <= 32'h0;
            exmem_next_pc <= 16'h0;
            exmem_rd_we <= 1'b0;
            exmem_rd <= 4'h0;
            exmem_rd_val <= 16'h0;
            exmem_cc_we <= 1'b0;
            exmem_cc <= 3'b0;
            exmem_vd_we <= 1'b0;
            exmem_vd <= 6'h0;
            exmem_vd_val <= 64'h0;
            exmem_sdata <= 16'h0;
            exmem_grec <= {LG_G_W{1'b0}};
            exmem_done <= 1'b0;
        end else begin
            exmem_valid <= idex_valid && !hold;
            exmem_pc <= idex_pc;
            exmem_insn <= w;
            exmem_next_pc <= next_pc;
            exmem_rd_we <= idex_valid && lg_rd_we(w);
            exmem_rd <= lg_rd_addr(w);
            exmem_rd_val <= res;
            exmem_cc_we <= idex_valid && lg_cc_we(w);
            exmem_cc <= cc_out;
            exmem_vd_we <= idex_valid && lg_vd_we(w);
            exmem_vd <= lg_f_vd(w);
            exmem_vd_val <= vres;
            exmem_sdata <= b;
            exmem_grec <= g_rec;
            exmem_done <= lg_is_halt(w) || off_end;
        end
    end
endmodule
