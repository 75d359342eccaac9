// The vector register file, V0-V63 of four 16-bit elements (element e in bits 16e+15:16e), two
// read ports and one write port, with the same write-first bypass as lg_regfile.
module lg_vregfile (
    input  wire        clk,
    input  wire        rst,
    input  wire [5:0]  ra,
    output wire [63:0] ra_val,
    input  wire [5:0]  rb,
    output wire [63:0] rb_val,
    input  wire        we,
    input  wire [5:0]  wa,
    input  wire [63:0] wd
);
    reg [63:0] v [0:63];
    integer i;
    always @(posedge clk) begin
        if (rst) begin
            for (i = 0; i < 64; i = i + 1) v[i] <= 64'h0;
        end else if (we) begin
            v[wa] <= wd;
        end
    end
    assign ra_val = (we && wa == ra) ? wd : v[ra];
    assign rb_val = (we && wa == rb) ? wd : v[rb];
endmodule
