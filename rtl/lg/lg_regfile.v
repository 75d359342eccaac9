// The scalar register file, R0-R15 of 16 bits, two read ports and one write port. A read of the
// register being written in the same cycle returns the new value (WB -> ID bypass), so ID needs
// no forwarding from WB. R15 is never read from here: ID substitutes the next PC.
module lg_regfile (
    input  wire        clk,
    input  wire        rst,
    input  wire [3:0]  ra,
    output wire [15:0] ra_val,
    input  wire [3:0]  rb,
    output wire [15:0] rb_val,
    input  wire        we,
    input  wire [3:0]  wa,
    input  wire [15:0] wd
);
    reg [15:0] r [0:15];
    integer i;
    always @(posedge clk) begin
        if (rst) begin
            for (i = 0; i < 16; i = i + 1) r[i] <= 16'h0;
        end else if (we) begin
            r[wa] <= wd;
        end
    end
    assign ra_val = (we && wa == ra) ? wd : r[ra];
    assign rb_val = (we && wa == rb) ? wd : r[rb];
endmodule
