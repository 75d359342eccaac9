// ID: reads the register files, detects the load-use hazard and writes the ID/EX register.
// A load's value (and the CC it sets) exists only after MEM, so an instruction that reads the
// register a load in EX writes, or a branch behind a load (which sets CC), waits one cycle here;
// every other dependence is forwarded in EX. R15 reads as the address of the next instruction.
module lg_id (
    input  wire        clk,
    input  wire        rst,
    input  wire        ifid_valid,
    input  wire [15:0] ifid_pc,
    input  wire [31:0] ifid_insn,
    // the register files' read ports
    output wire [3:0]  rf_ra,
    output wire [3:0]  rf_rb,
    input  wire [15:0] rf_ra_val,
    input  wire [15:0] rf_rb_val,
    output wire [5:0]  vrf_ra,
    output wire [5:0]  vrf_rb,
    input  wire [63:0] vrf_ra_val,
    input  wire [63:0] vrf_rb_val,
    input  wire        ex_hold,   // the graphics unit holds EX: keep ID/EX's instruction
    // EX's operands after forwarding: while EX is held, its producers drain into the register
    // files, so the forwarded values are written back here and a held instruction keeps them
    input  wire [15:0] ex_a,
    input  wire [15:0] ex_b,
    input  wire [63:0] ex_va,
    input  wire [63:0] ex_vb,
    input  wire        flush,     // a taken branch, jump or halt in EX: this instruction is on the wrong path
    output wire        stall,     // load-use: hold IF and IF/ID, send a bubble into EX
    output reg         idex_valid,
    output reg  [15:0] idex_pc,
    output reg  [31:0] idex_insn,
    output reg  [15:0] idex_a,
    output reg  [15:0] idex_b,
    output reg  [63:0] idex_va,
    output reg  [63:0] idex_vb
);
    `include "lg_decode.vh"

    wire [31:0] w = ifid_insn;
    assign rf_ra = lg_ra(w);
    assign rf_rb = lg_rb(w);
    assign vrf_ra = lg_va(w);
    assign vrf_rb = lg_vb(w);
    wire [15:0] next_pc = ifid_pc + 16'd4;
    wire [15:0] a = rf_ra == 4'd15 ? next_pc : rf_ra_val;
    wire [15:0] b = rf_rb == 4'd15 ? next_pc : rf_rb_val;

    wire ex_load = idex_valid && lg_is_load(idex_insn);
    wire [3:0] ex_rd = lg_rd_addr(idex_insn);
    wire dep_a = lg_uses_ra(w) && rf_ra != 4'd15 && rf_ra == ex_rd;
    wire dep_b = lg_uses_rb(w) && rf_rb != 4'd15 && rf_rb == ex_rd;
    wire dep_cc = lg_is_branch(w) && lg_cc_we(idex_insn);
    assign stall = ifid_valid && ex_load && (dep_a || dep_b || dep_cc);

    always @(posedge clk) begin
        if (rst) begin
            idex_valid <= 1'b0;
            idex_pc <= 16'h0;
            idex_insn <= 32'h0;
            idex_a <= 16'h0;
            idex_b <= 16'h0;
            idex_va <= 64'h0;
            idex_vb <= 64'h0;
        end else if (ex_hold) begin
            idex_a <= ex_a;
            idex_b <= ex_b;
            idex_va <= ex_va;
            idex_vb <= ex_vb;
        end else begin
            idex_valid <= ifid_valid && !flush && !stall;
            idex_pc <= ifid_pc;
            idex_insn <= ifid_insn;
            idex_a <= a;
            idex_b <= b;
            idex_va <= vrf_ra_val;
            idex_vb <= vrf_rb_val;
        end
    end
endmodule
