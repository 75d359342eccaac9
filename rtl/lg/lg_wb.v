// WB: the CC register. The rest of write-back is wiring in lg_core: MEM/WB holds exactly one
// commit record, so the commit port is that register (valid for one cycle per retired
// instruction, in program order, never X after reset) and its register and vector writes are the
// register files' write ports.
module lg_wb (
    input  wire         clk,
    input  wire         rst,
    input  wire         memwb_valid,
    input  wire         memwb_cc_we,
    input  wire [2:0]   memwb_cc,
    output reg  [2:0]   cc_q
);
    // CC: the seed's reset value is no flag set
    always @(posedge clk) begin
        if (rst) cc_q <= 3'b000;
        else if (memwb_valid && memwb_cc_we) cc_q <= memwb_cc;
    end
endmodule
