// WB: writes the register files and CC, and presents the retiring instruction on the commit
// port. MEM/WB holds exactly one commit record, so the commit port is that register: valid for
// one cycle per retired instruction, in program order, and never X after reset.
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
