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
    output reg  [NUM_SP*14-1:0] sh_addr_a, sh_addr_b, sh_addr_c,
    input  wire [NUM_SP*32-1:0] sh_a, sh_b, sh_c,
    // constant memory reads ({bank, word}) (sm_mem_unit)
    output reg  [NUM_SP*CA-1:0] cm_addr_a, cm_addr_b, cm_addr_c,
    input  wire [NUM_SP*32-1:0] cm_a, cm_b, cm_c,
    // operands of the pass
    output reg  [NUM_SP*32-1:0] opa, opb, opc,
    output reg  [NUM_SP-1:0]    cin,
    output reg  [NUM_SP-1:0]    oob,          // a lane's shared or constant operand is out of range
    output reg  [31:0]          guard
);
`include "sm_defs.vh"
`include "sm1_isa.vh"

    // a half register is read as its full register
    assign rf_reg_a = (a_kind == K_HALF) ? {1'b0, a_val[6:1]} : a_val[6:0];
    assign rf_reg_b = (b_kind == K_HALF) ? {1'b0, b_val[6:1]} : b_val[6:0];
    assign rf_reg_c = (c_kind == K_HALF) ? {1'b0, c_val[6:1]} : c_val[6:0];

    integer gl;
    always @* begin
        for (gl = 0; gl < 32; gl = gl + 1)
            guard[gl] = SM1_COND_TABLE[{pcond, cc_regs[{preg, 5'd0} * 4 + gl * 4 +: 4]}];
    end

    // the byte address of a memory operand: offset, $a + offset, or $a with post-increment; offsets
    // are unsigned, except the (signed) increment of a post-incremented operand
    function [31:0] mem_addr(input [15:0] off, input [1:0] slot, input [1:0] areg_slot, input [2:0] areg_no,
                             input postinc, input [15:0] areg);
        begin
            mem_addr = {16'd0, off};
            if (areg_slot == slot && areg_no != 3'd0) begin
                if (postinc) mem_addr = {16'd0, areg};
                else mem_addr = {16'd0, areg} + {16'd0, off};
            end else if (areg_slot == slot && postinc) mem_addr = 32'd0;
        end
    endfunction

    function out_of_range(input [3:0] kind, input [31:0] addr, input [2:0] size);
        out_of_range = (kind == K_SHARED && (addr + {29'd0, size} > SHARED_BYTES || addr[31])) ||
                       (kind == K_CONST && (addr + {29'd0, size} > 4 * CMEM_WORDS || addr[31]));
    endfunction

    // a shared or constant read: the bytes from the address, sized and extended
    function [31:0] sized(input [31:0] word, input [2:0] size, input sgn);
        begin
            sized = word;
            if (size == 3'd1) sized = sgn ? {{24{word[7]}}, word[7:0]} : {24'd0, word[7:0]};
            else if (size == 3'd2) sized = sgn ? {{16{word[15]}}, word[15:0]} : {16'd0, word[15:0]};
        end
    endfunction

    // `regs` holds what the slot's $c, $a or special register reads for this lane
    function [31:0] operand(input [3:0] kind, input [31:0] val, input [31:0] rf, input [31:0] sh, input [31:0] cm,
                            input [1:0] byte_in_word, input [2:0] size, input sgn, input [31:0] regs);
        case (kind)
            K_REG: operand = rf;
            K_HALF: operand = val[0] ? {16'd0, rf[31:16]} : {16'd0, rf[15:0]};
            K_SHARED: operand = sized(sh, size, sgn);
            K_CONST: operand = sized(cm >> (8 * byte_in_word), size, sgn);
            K_IMM: operand = val;
            K_CREG, K_AREG, K_SREG: operand = regs;
            default: operand = 32'd0;
        endcase
    endfunction

    // what a $c, $a or special register operand reads in a lane: SR0 physid = warp << 8 | lane
    // (MP 0), SR1 the clock (the testbench syncs it into the model)
    function [31:0] reg_read(input [3:0] kind, input [3:0] val, input [3:0] creg, input [15:0] areg, input [31:0] physid,
                             input [31:0] clock);
        case (kind)
            K_CREG: reg_read = {28'd0, creg};
            K_AREG: reg_read = {16'd0, areg};  // $a0 reads 0
            K_SREG: reg_read = (val == 4'd0) ? physid : (val == 4'd1) ? clock : 32'd0;
            default: reg_read = 32'd0;
        endcase
    endfunction

    // memory addresses of the pass's lanes
    reg [31:0] addr_a [0:NUM_SP-1];
    reg [31:0] addr_b [0:NUM_SP-1];
    reg [31:0] addr_c [0:NUM_SP-1];
    reg [15:0] areg;
    integer al, lane;
    always @* begin
        for (al = 0; al < NUM_SP; al = al + 1) begin
            lane = x_pass * NUM_SP + al;
            areg = a_regs[{mem_areg, 5'd0} * 16 + lane * 16 +: 16];
            addr_a[al] = mem_addr(a_off, 2'd1, mem_slot, mem_areg, mem_postinc, areg);
            addr_b[al] = mem_addr(b_off, 2'd2, mem_slot, mem_areg, mem_postinc, areg);
            addr_c[al] = mem_addr(c_off, 2'd3, mem_slot, mem_areg, mem_postinc, areg);
            sh_addr_a[al * 14 +: 14] = addr_a[al][13:0];
            sh_addr_b[al * 14 +: 14] = addr_b[al][13:0];
            sh_addr_c[al * 14 +: 14] = addr_c[al][13:0];
            cm_addr_a[al * CA +: CA] = {a_bank, addr_a[al][CA-3:2]};
            cm_addr_b[al * CA +: CA] = {b_bank, addr_b[al][CA-3:2]};
            cm_addr_c[al * CA +: CA] = {c_bank, addr_c[al][CA-3:2]};
        end
    end

    // the clock reaches the operand process only while a slot reads a special register: otherwise
    // the process would run again every cycle for nothing (an event-driven simulator wakes it on
    // every change of an input)
    wire [31:0] clock_a = (a_kind == K_SREG) ? cycle : 32'd0;
    wire [31:0] clock_b = (b_kind == K_SREG) ? cycle : 32'd0;
    wire [31:0] clock_c = (c_kind == K_SREG) ? cycle : 32'd0;

    integer ol, olane;
    reg [31:0] physid;
    always @* begin
        for (ol = 0; ol < NUM_SP; ol = ol + 1) begin
            olane = x_pass * NUM_SP + ol;
            physid = {{(24-WB){1'b0}}, x_warp, 8'd0} + olane;
            opa[ol * 32 +: 32] = operand(a_kind, a_val, rf_a[ol * 32 +: 32], sh_a[ol * 32 +: 32], cm_a[ol * 32 +: 32],
                                         addr_a[ol][1:0], a_size, a_sgn,
                                         reg_read(a_kind, a_val[3:0], cc_regs[{a_val[1:0], 5'd0} * 4 + olane * 4 +: 4],
                                                  a_regs[{a_val[2:0], 5'd0} * 16 + olane * 16 +: 16], physid, clock_a));
            opb[ol * 32 +: 32] = operand(b_kind, b_val, rf_b[ol * 32 +: 32], sh_b[ol * 32 +: 32], cm_b[ol * 32 +: 32],
                                         addr_b[ol][1:0], b_size, b_sgn,
                                         reg_read(b_kind, b_val[3:0], cc_regs[{b_val[1:0], 5'd0} * 4 + olane * 4 +: 4],
                                                  a_regs[{b_val[2:0], 5'd0} * 16 + olane * 16 +: 16], physid, clock_b));
            opc[ol * 32 +: 32] = operand(c_kind, c_val, rf_c[ol * 32 +: 32], sh_c[ol * 32 +: 32], cm_c[ol * 32 +: 32],
                                         addr_c[ol][1:0], c_size, c_sgn,
                                         reg_read(c_kind, c_val[3:0], cc_regs[{c_val[1:0], 5'd0} * 4 + olane * 4 +: 4],
                                                  a_regs[{c_val[2:0], 5'd0} * 16 + olane * 16 +: 16], physid, clock_c));
            oob[ol] = out_of_range(a_kind, addr_a[ol], a_size) || out_of_range(b_kind, addr_b[ol], b_size) ||
                      out_of_range(c_kind, addr_c[ol], c_size);
            cin[ol] = cc_regs[(carry_reg ? {25'd0, preg, 5'd0} : 32'd0) * 4 + olane * 4 + 2];
        end
    end
endmodule
