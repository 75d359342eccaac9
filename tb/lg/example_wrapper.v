// An example wrapper for bringing your own LG core to the lock-step testbench (make sim ISA=lg
// DUT=mycore RTL='path/to/*.v tb/lg/example_wrapper.v'; docs/guides/lg-lockstep.md).
//
// The testbench's top level is a module named lg_core with exactly the ports below: clk and rst
// (synchronous, active high) driven by the testbench, the commit port (one record per retired
// instruction, cm_valid high for one cycle) and the frame-buffer port. Your core keeps its own
// name and port names; this module connects them. Here the core is `my_gpu` and its ports
// already have the contract's names, so every connection is one to one: change the names on
// the right of each connection to your core's, and derive what your core does not produce in
// that form (for example a CC register kept in another bit order: reorder it here into N bit 0,
// Z bit 1, P bit 2; a write enable your core does not have: tie it to what says "written").
//
// The program reaches the core through $readmemh: your instruction memory must load the file
// named by the plusarg +imem=PATH (one 32-bit word a line, instruction i at byte address 4*i)
// and your data memory the file of +dmem=PATH when given (one byte a line from address 0).
module lg_core (
    input  wire           clk,
    input  wire           rst,
    output wire           cm_valid,
    output wire [15:0]    cm_pc,
    output wire [31:0]    cm_insn,
    output wire [15:0]    cm_next_pc,
    output wire           cm_rd_we,
    output wire [3:0]     cm_rd,
    output wire [15:0]    cm_rd_val,
    output wire           cm_cc_we,
    output wire [2:0]     cm_cc,
    output wire           cm_vd_we,
    output wire [5:0]     cm_vd,
    output wire [63:0]    cm_vd_val,
    output wire           cm_mem_we,
    output wire [15:0]    cm_mem_addr,
    output wire [1:0]     cm_mem_size,
    output wire [15:0]    cm_mem_data,
    output wire           cm_mat_we,
    output wire [511:0]   cm_mat,
    output wire [4:0]     cm_depth,
    output wire           cm_col_we,
    output wire [23:0]    cm_col,
    output wire           cm_vtx_we,
    output wire [1:0]     cm_vtx_idx,
    output wire [31:0]    cm_vtx_x,
    output wire [31:0]    cm_vtx_y,
    output wire [15:0]    cm_vtx_z,
    output wire [23:0]    cm_vtx_col,
    output wire           cm_prim_begin,
    output wire           cm_prim_end,
    output wire [3:0]     cm_prim_type,
    output wire [18:0]    cm_frags,
    output wire           cm_done,
    output wire           fb_we,
    output wire [17:0]    fb_addr,
    output wire [11:0]    fb_data,
    output wire           fb_clear,
    output wire           fb_draw
);
    my_gpu u_core (
        .clk           (clk),
        .rst           (rst),
        .cm_valid      (cm_valid),
        .cm_pc         (cm_pc),
        .cm_insn       (cm_insn),
        .cm_next_pc    (cm_next_pc),
        .cm_rd_we      (cm_rd_we),
        .cm_rd         (cm_rd),
        .cm_rd_val     (cm_rd_val),
        .cm_cc_we      (cm_cc_we),
        .cm_cc         (cm_cc),
        .cm_vd_we      (cm_vd_we),
        .cm_vd         (cm_vd),
        .cm_vd_val     (cm_vd_val),
        .cm_mem_we     (cm_mem_we),
        .cm_mem_addr   (cm_mem_addr),
        .cm_mem_size   (cm_mem_size),
        .cm_mem_data   (cm_mem_data),
        .cm_mat_we     (cm_mat_we),
        .cm_mat        (cm_mat),
        .cm_depth      (cm_depth),
        .cm_col_we     (cm_col_we),
        .cm_col        (cm_col),
        .cm_vtx_we     (cm_vtx_we),
        .cm_vtx_idx    (cm_vtx_idx),
        .cm_vtx_x      (cm_vtx_x),
        .cm_vtx_y      (cm_vtx_y),
        .cm_vtx_z      (cm_vtx_z),
        .cm_vtx_col    (cm_vtx_col),
        .cm_prim_begin (cm_prim_begin),
        .cm_prim_end   (cm_prim_end),
        .cm_prim_type  (cm_prim_type),
        .cm_frags      (cm_frags),
        .cm_done       (cm_done),
        .fb_we         (fb_we),
        .fb_addr       (fb_addr),
        .fb_data       (fb_data),
        .fb_clear      (fb_clear),
        .fb_draw       (fb_draw)
    );
endmodule
