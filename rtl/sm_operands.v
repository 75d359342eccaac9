`timescale 1ns / 1ps
// Operand read for the NUM_SP lanes of the current pass, and the guard of all 32 lanes.
//
// Each source slot (A, B, C) of the decode bundle names its kind: a register or half register
// (register file), shared memory (the block's window), constant memory, an immediate, $c, $a or a
// special register. Memory operands are addressed by an offset, $a + offset, or $a with
// post-increment (ISA.md 7.2); a shared or constant operand outside its memory is a fault. The
// guard comes from the flags of $c[preg] (ISA.md 2.2), the carry-in of addc from $c[preg] (64-bit
// forms) or $c0.
module sm_operands #(
    parameter integer NUM_SP = 8,
    parameter integer NUM_WARPS = 24,
    parameter integer CMEM_WORDS = 16384,
    localparam integer WB = $clog2(NUM_WARPS),
    localparam integer CA = $clog2(CMEM_WORDS) + 4  // constant word address: bank and word
) (
    input  wire [WB-1:0]        x_warp,
    input  wire [5:0]           x_pass,
    input  wire [31:0]          cycle,        // SR1
    // decode bundle: guard and carry
    input  wire [4:0]           pcond,
    input  wire [1:0]           preg,
    input  wire                 carry_reg,
    // decode bundle: source slots
    input  wire [3:0]           a_kind, b_kind, c_kind,
    input  wire [31:0]          a_val, b_val, c_val,
    input  wire [15:0]          a_off, b_off, c_off,
    input  wire [2:0]           a_size, b_size, c_size,
    input  wire                 a_sgn, b_sgn, c_sgn,
    input  wire [3:0]           a_bank, b_bank, c_bank,
    input  wire [2:0]           mem_areg,
    input  wire                 mem_postinc,
    input  wire [1:0]           mem_slot,
    // the warp's $c and $a registers (sm_flagfile, sm_addrfile)
    input  wire [511:0]         cc_regs,      // [$c * 128 + lane * 4 +: 4]
    input  wire [4095:0]        a_regs,       // [$a * 512 + lane * 16 +: 16]
    // register file reads of the pass (sm_regfile)
    output wire [6:0]           rf_reg_a, rf_reg_b, rf_reg_c,
    input  wire [NUM_SP*32-1:0] rf_a, rf_b, rf_c,
    // shared memory reads (byte address in the block's window; 4 bytes from it) (sm_mem_unit)
    output wire [NUM_SP*14-1:0] sh_addr_a, sh_addr_b, sh_addr_c,
    input  wire [NUM_SP*32-1:0] sh_a, sh_b, sh_c,
    // constant memory reads ({bank, word}) (sm_mem_unit)
    output wire [NUM_SP*CA-1:0] cm_addr_a, cm_addr_b, cm_addr_c,
    input  wire [NUM_SP*32-1:0] cm_a, cm_b, cm_c,
    // operands of the pass
    output wire [NUM_SP*32-1:0] opa, opb, opc,
    output wire [NUM_SP-1:0]    cin,
    output reg  [NUM_SP-1:0]    oob,          // a lane's shared or constant operand is out of range
    output reg  [31:0]          guard
);
`include "sm_defs.vh"
`include "sm1_isa.vh"

    // a half register is read as its full register
    assign rf_reg_a = (a_kind == K_HALF) ? {1'b0, a_val[6:1]} : a_val[6:0];
    assign rf_reg_b = (b_kind == K_HALF) ? {1'b0, b_val[6:1]} : b_val[6:0];
    assign rf_reg_c = (c_kind == K_HALF) ? {1'b0, c_val[6:1]} : c_val[6:0];

    // Processes for an event-driven simulator (docs/design/rtl.md, "Simulators"): each
    // builds its outputs in local variables and stores each output once, so that the units that
    // read them see one event per change instead of one per lane; slices of the wide $c and $a
    // vectors are taken once per process, and only where the operand kind reads them.

    // the guard of the 32 lanes from the flags of $c[preg]; a form without a guard (the common
    // case) skips the lane loop (the process still wakes when the warp's $c vector changes)
    reg [127:0] gcc;
    reg [31:0]  guard_n;
    integer gl;
    always @* begin
        if (pcond == SM1_COND_ALWAYS) begin
            gcc = 128'd0;
            guard_n = 32'hffffffff;
        end else begin
            gcc = cc_regs[{preg, 7'd0} +: 128];
            for (gl = 0; gl < 32; gl = gl + 1)
                guard_n[gl] = SM1_COND_TABLE[{pcond, gcc[gl * 4 +: 4]}];
        end
        guard = guard_n;
    end

    // the carry-in of the pass's lanes: bit 2 (C) of the flags of $c[preg] (64-bit forms) or $c0.
    // Continuous selects, no process: the pass changes every cycle, and a lane loop woken by it
    // cost a load per index computation and bit (docs/design/rtl.md, "Simulators").
    // log2 NUM_SP: the pass's carry flags at as a concatenation, not a multiply (vvp evaluates a net's
    // multiply on every change of the pass, through its generic arithmetic; docs/design/rtl.md, "Simulators")
    localparam integer SPB = $clog2(NUM_SP);
    wire [127:0] ccarry = cc_regs[(carry_reg ? {preg, 7'd0} : 9'd0) +: 128];
    /* verilator lint_off UNUSEDSIGNAL */  // the Z, S and O flags of the pass's lanes
    wire [NUM_SP*4-1:0] cpass = ccarry[{{(24 - SPB){1'b0}}, x_pass, {(SPB + 2){1'b0}}} +: NUM_SP * 4];
    /* verilator lint_on UNUSEDSIGNAL */
    genvar cg;
    generate
        for (cg = 0; cg < NUM_SP; cg = cg + 1) begin : carry_in
            assign cin[cg] = cpass[cg * 4 + 2];
        end
    endgenerate

    wire [NUM_SP-1:0] oob_a, oob_b, oob_c;
    always @* oob = oob_a | oob_b | oob_c;

    sm_operand_slot #(.NUM_SP(NUM_SP), .NUM_WARPS(NUM_WARPS), .CMEM_WORDS(CMEM_WORDS), .SLOT(1)) u_a (
        .x_warp(x_warp), .x_pass(x_pass), .cycle(cycle), .kind(a_kind), .val(a_val), .off(a_off), .size(a_size),
        .sgn(a_sgn), .bank(a_bank), .mem_areg(mem_areg), .mem_postinc(mem_postinc), .mem_slot(mem_slot),
        .cc_regs(cc_regs), .a_regs(a_regs), .rf(rf_a), .sh_addr(sh_addr_a), .sh(sh_a), .cm_addr(cm_addr_a), .cm(cm_a),
        .op(opa), .oob(oob_a)
    );
    sm_operand_slot #(.NUM_SP(NUM_SP), .NUM_WARPS(NUM_WARPS), .CMEM_WORDS(CMEM_WORDS), .SLOT(2)) u_b (
        .x_warp(x_warp), .x_pass(x_pass), .cycle(cycle), .kind(b_kind), .val(b_val), .off(b_off), .size(b_size),
        .sgn(b_sgn), .bank(b_bank), .mem_areg(mem_areg), .mem_postinc(mem_postinc), .mem_slot(mem_slot),
        .cc_regs(cc_regs), .a_regs(a_regs), .rf(rf_b), .sh_addr(sh_addr_b), .sh(sh_b), .cm_addr(cm_addr_b), .cm(cm_b),
        .op(opb), .oob(oob_b)
    );
    sm_operand_slot #(.NUM_SP(NUM_SP), .NUM_WARPS(NUM_WARPS), .CMEM_WORDS(CMEM_WORDS), .SLOT(3)) u_c (
        .x_warp(x_warp), .x_pass(x_pass), .cycle(cycle), .kind(c_kind), .val(c_val), .off(c_off), .size(c_size),
        .sgn(c_sgn), .bank(c_bank), .mem_areg(mem_areg), .mem_postinc(mem_postinc), .mem_slot(mem_slot),
        .cc_regs(cc_regs), .a_regs(a_regs), .rf(rf_c), .sh_addr(sh_addr_c), .sh(sh_c), .cm_addr(cm_addr_c), .cm(cm_c),
        .op(opc), .oob(oob_c)
    );
endmodule

// One source slot of the pass's NUM_SP lanes: the memory address (offset, $a + offset, or $a with
// post-increment; offsets are unsigned, the increment of a post-incremented operand signed), and
// the operand its kind names.
/* verilator lint_off DECLFILENAME */
module sm_operand_slot #(
/* verilator lint_on DECLFILENAME */
    parameter integer NUM_SP = 8,
    parameter integer NUM_WARPS = 24,
    parameter integer CMEM_WORDS = 16384,
    parameter [1:0]   SLOT = 2'd1,         // mem_slot value of this slot (A 1, B 2, C 3)
    localparam integer WB = $clog2(NUM_WARPS),
    localparam integer CA = $clog2(CMEM_WORDS) + 4
) (
    input  wire [WB-1:0]        x_warp,
    input  wire [5:0]           x_pass,
    input  wire [31:0]          cycle,
    input  wire [3:0]           kind,
    input  wire [31:0]          val,
    input  wire [15:0]          off,
    input  wire [2:0]           size,
    input  wire                 sgn,
    input  wire [3:0]           bank,
    input  wire [2:0]           mem_areg,
    input  wire                 mem_postinc,
    input  wire [1:0]           mem_slot,
    input  wire [511:0]         cc_regs,
    input  wire [4095:0]        a_regs,
    input  wire [NUM_SP*32-1:0] rf,
    output reg  [NUM_SP*14-1:0] sh_addr,
    input  wire [NUM_SP*32-1:0] sh,
    output reg  [NUM_SP*CA-1:0] cm_addr,
    input  wire [NUM_SP*32-1:0] cm,
    output reg  [NUM_SP*32-1:0] op,
    output reg  [NUM_SP-1:0]    oob
);
`include "sm_defs.vh"

    // a shared or constant read: the bytes from the address, sized and extended
    function [31:0] sized(input [31:0] word, input [2:0] sz, input sg);
        begin
            sized = word;
            if (sz == 3'd1) sized = sg ? {{24{word[7]}}, word[7:0]} : {24'd0, word[7:0]};
            else if (sz == 3'd2) sized = sg ? {{16{word[15]}}, word[15:0]} : {16'd0, word[15:0]};
        end
    endfunction

    // The address of each lane. Only a slot that names an $a register (amode) has an address per
    // lane and reads the pass and the $a vector; the others have one address for all lanes (the
    // offset, or 0 for a post-increment of $a0), computed once and replicated, which stays put from
    // pass to pass (the memories' read ports see no event). The pass and $a[mem_areg] reach the
    // process through continuous assigns that hold them at 0 unless amode: the pass changes every
    // cycle and would wake the process each time (docs/design/rtl.md, "Simulators").
    wire               amode  = mem_slot == SLOT && mem_areg != 3'd0;
    wire [5:0]         apass  = amode ? x_pass : 6'd0;
    reg [NUM_SP*2-1:0]  lowb;  // [2*i +: 2]: the byte of the word a lane's address names
    reg [NUM_SP*14-1:0] sh_n;
    reg [NUM_SP*CA-1:0] cm_n;
    reg [NUM_SP-1:0]    oob_n;
    reg [31:0]          a1;
    integer al;
    always @* begin
        if (amode) begin
            for (al = 0; al < NUM_SP; al = al + 1) begin
                a1 = {16'd0, a_regs[{20'd0, mem_areg, 9'd0} + ({26'd0, apass} * NUM_SP + al) * 16 +: 16]};
                if (!mem_postinc) a1 = a1 + {16'd0, off};
                lowb[2 * al +: 2] = a1[1:0];
                sh_n[14 * al +: 14] = a1[13:0];
                cm_n[CA * al +: CA] = {bank, a1[CA-3:2]};
                oob_n[al] = (kind == K_SHARED && (a1 + {29'd0, size} > SHARED_BYTES || a1[31])) ||
                            (kind == K_CONST && (a1 + {29'd0, size} > 4 * CMEM_WORDS || a1[31]));
            end
        end else begin
            if (mem_slot == SLOT && mem_postinc) a1 = 32'd0;
            else a1 = {16'd0, off};
            lowb = {NUM_SP{a1[1:0]}};
            sh_n = {NUM_SP{a1[13:0]}};
            cm_n = {NUM_SP{bank, a1[CA-3:2]}};
            oob_n = {NUM_SP{(kind == K_SHARED && (a1 + {29'd0, size} > SHARED_BYTES || a1[31])) ||
                            (kind == K_CONST && (a1 + {29'd0, size} > 4 * CMEM_WORDS || a1[31]))}};
        end
        sh_addr = sh_n;
        cm_addr = cm_n;
        oob = oob_n;
    end

    // The operand of each lane: the kind is decided once, and only the inputs it names reach the
    // process. Each input is held at 0 by a continuous assign unless the kind reads it, so that
    // the process wakes only when its operand can change: the pass changes every cycle (it
    // matters only to $c, $a and special registers), the register file's read of the pass with it
    // (only to a register operand), the warp's $c and $a vectors with the warp. SR0 physid =
    // warp << 8 | lane (MP 0); SR1 the clock (the testbench syncs it into the model).
    wire                 lanewise = kind == K_CREG || kind == K_AREG || kind == K_SREG;
    wire [5:0]           opass  = lanewise ? x_pass : 6'd0;
    wire [NUM_SP*32-1:0] rfo    = (kind == K_REG || kind == K_HALF) ? rf : {NUM_SP{32'd0}};
    wire [WB-1:0]        swarp  = (kind == K_SREG) ? x_warp : {WB{1'b0}};
    wire [31:0]          clock  = (kind == K_SREG) ? cycle : 32'd0;
    reg  [NUM_SP*32-1:0] op_n;   // the lanes of a kind built lane by lane
    integer ol;
    always @* begin
        case (kind)
            K_REG: op_n = rfo;
            K_IMM: op_n = {NUM_SP{val}};
            K_HALF:
                for (ol = 0; ol < NUM_SP; ol = ol + 1)
                    op_n[32 * ol +: 32] = val[0] ? {16'd0, rfo[32 * ol + 16 +: 16]} : {16'd0, rfo[32 * ol +: 16]};
            K_SHARED:
                for (ol = 0; ol < NUM_SP; ol = ol + 1) op_n[32 * ol +: 32] = sized(sh[32 * ol +: 32], size, sgn);
            K_CONST:
                for (ol = 0; ol < NUM_SP; ol = ol + 1)
                    op_n[32 * ol +: 32] = sized(cm[32 * ol +: 32] >> (8 * lowb[2 * ol +: 2]), size, sgn);
            K_CREG:
                for (ol = 0; ol < NUM_SP; ol = ol + 1)
                    op_n[32 * ol +: 32] = {28'd0, cc_regs[{23'd0, val[1:0], 7'd0} + ({26'd0, opass} * NUM_SP + ol) * 4 +: 4]};
            K_AREG:
                for (ol = 0; ol < NUM_SP; ol = ol + 1)
                    op_n[32 * ol +: 32] = {16'd0, a_regs[{20'd0, val[2:0], 9'd0} + ({26'd0, opass} * NUM_SP + ol) * 16 +: 16]};
            K_SREG:
                for (ol = 0; ol < NUM_SP; ol = ol + 1)
                    op_n[32 * ol +: 32] = (val[3:0] == 4'd0) ? {{(24-WB){1'b0}}, swarp, 8'd0} + {26'd0, opass} * NUM_SP + ol
                                        : (val[3:0] == 4'd1) ? clock : 32'd0;
            default: op_n = {NUM_SP{32'd0}};
        endcase
        op = op_n;
    end
endmodule
