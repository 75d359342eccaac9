// MEM: the data memory (64 KiB, byte addressed, little-endian 16-bit words); writes the MEM/WB
// register. Loads read combinationally and set CC from the value loaded (seed: loads are "+");
// ldb zero-extends. The memory is loaded at time 0 from +dmem=PATH ($readmemh, one byte a line
// from address 0) when given; every other byte is 0.
module lg_mem (
    input  wire         clk,
    input  wire         rst,
    input  wire         exmem_valid,
    input  wire [15:0]  exmem_pc,
    input  wire [31:0]  exmem_insn,
    input  wire [15:0]  exmem_next_pc,
    input  wire         exmem_rd_we,
    input  wire [3:0]   exmem_rd,
    input  wire [15:0]  exmem_rd_val,
    input  wire         exmem_cc_we,
    input  wire [2:0]   exmem_cc,
    input  wire         exmem_vd_we,
    input  wire [5:0]   exmem_vd,
    input  wire [63:0]  exmem_vd_val,
    input  wire [15:0]  exmem_sdata,
    input  wire [674:0] exmem_grec,
    input  wire         exmem_done,
    output reg          memwb_valid,
    output reg  [15:0]  memwb_pc,
    output reg  [31:0]  memwb_insn,
    output reg  [15:0]  memwb_next_pc,
    output reg          memwb_rd_we,
    output reg  [3:0]   memwb_rd,
    output reg  [15:0]  memwb_rd_val,
    output reg          memwb_cc_we,
    output reg  [2:0]   memwb_cc,
    output reg          memwb_vd_we,
    output reg  [5:0]   memwb_vd,
    output reg  [63:0]  memwb_vd_val,
    output reg          memwb_mem_we,
    output reg  [15:0]  memwb_mem_addr,
    output reg  [1:0]   memwb_mem_size,
    output reg  [15:0]  memwb_mem_data,
    output reg  [674:0] memwb_grec,
    output reg          memwb_done
);
    `include "lg_decode.vh"

    reg [7:0] dmem [0:65535];
    reg [8*512-1:0] path;
    integer i;
    initial begin
        for (i = 0; i < 65536; i = i + 1) dmem[i] = 8'h0;
        if ($value$plusargs("dmem=%s", path)) $readmemh(path, dmem);
    end

    wire [7:0] op = lg_op(exmem_insn);
    wire [15:0] addr = exmem_rd_val;
    wire [15:0] addr1 = addr + 16'd1;
    wire byte_op = op == LG_OP_LDB || op == LG_OP_STB;
    wire load = exmem_valid && lg_is_load(exmem_insn);
    wire store = exmem_valid && lg_is_store(exmem_insn);
    wire [15:0] ld_val = byte_op ? {8'h0, dmem[addr]} : {dmem[addr1], dmem[addr]};
    wire [2:0] ld_cc = {!ld_val[15] && ld_val != 16'h0, ld_val == 16'h0, ld_val[15]};

    always @(posedge clk) begin
        if (store) begin
            dmem[addr] <= exmem_sdata[7:0];
            if (!byte_op) dmem[addr1] <= exmem_sdata[15:8];
        end
    end

    always @(posedge clk) begin
        if (rst) begin
            memwb_valid <= 1'b0;
            memwb_pc <= 16'h0;
            memwb_insn <= 32'h0;
            memwb_next_pc <= 16'h0;
            memwb_rd_we <= 1'b0;
            memwb_rd <= 4'h0;
            memwb_rd_val <= 16'h0;
            memwb_cc_we <= 1'b0;
            memwb_cc <= 3'b0;
            memwb_vd_we <= 1'b0;
            memwb_vd <= 6'h0;
            memwb_vd_val <= 64'h0;
            memwb_mem_we <= 1'b0;
            memwb_mem_addr <= 16'h0;
            memwb_mem_size <= 2'd0;
            memwb_mem_data <= 16'h0;
            memwb_grec <= {LG_G_W{1'b0}};
            memwb_done <= 1'b0;
        end else begin
            memwb_valid <= exmem_valid;
            memwb_pc <= exmem_pc;
            memwb_insn <= exmem_insn;
            memwb_next_pc <= exmem_next_pc;
            memwb_rd_we <= exmem_valid && exmem_rd_we;
            memwb_rd <= exmem_rd;
            memwb_rd_val <= load ? ld_val : exmem_rd_val;
            memwb_cc_we <= exmem_valid && exmem_cc_we;
            memwb_cc <= load ? ld_cc : exmem_cc;
            memwb_vd_we <= exmem_valid && exmem_vd_we;
            memwb_vd <= exmem_vd;
            memwb_vd_val <= exmem_vd_val;
            memwb_mem_we <= store;
            memwb_mem_addr <= store ? addr : 16'h0;
            memwb_mem_size <= store ? (byte_op ? 2'd1 : 2'd2) : 2'd0;
            memwb_mem_data <= store ? (byte_op ? {8'h0, exmem_sdata[7:0]} : exmem_sdata) : 16'h0;
            memwb_grec <= exmem_grec;
            memwb_done <= exmem_valid && exmem_done;
        end
    end
endmodule
