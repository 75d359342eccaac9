// The LG core (CS3220 LG ISA 1.1, profile seed): a five-stage pipeline
//     IF -> ID -> EX -> MEM -> WB
// with the instruction and data memories inside (loaded from +imem= / +dmem=, see lg_if and
// lg_mem), load-use stalls in ID, forwarding into EX, branches resolved in EX, a vector unit and
// a graphics unit in EX. Ports: clk, rst (synchronous, active high), the commit port (one record
// per retired instruction; docs/design/lg-rtl.md) and the frame-buffer port.
module lg_core #(
    parameter integer IMEM_WORDS = 16384
) (
    input  wire         clk,
    input  wire         rst,
    output wire         cm_valid,
    output wire [15:0]  cm_pc,
    output wire [31:0]  cm_insn,
    output wire [15:0]  cm_next_pc,
    output wire         cm_rd_we,
    output wire [3:0]   cm_rd,
    output wire [15:0]  cm_rd_val,
    output wire         cm_cc_we,
    output wire [2:0]   cm_cc,
    output wire         cm_vd_we,
    output wire [5:0]   cm_vd,
    output wire [63:0]  cm_vd_val,
    output wire         cm_mem_we,
    output wire [15:0]  cm_mem_addr,
    output wire [1:0]   cm_mem_size,
    output wire [15:0]  cm_mem_data,
    output wire         cm_mat_we,
    output wire [511:0] cm_mat,
    output wire [4:0]   cm_depth,
    output wire         cm_col_we,
    output wire [23:0]  cm_col,
    output wire         cm_vtx_we,
    output wire [1:0]   cm_vtx_idx,
    output wire [31:0]  cm_vtx_x,
    output wire [31:0]  cm_vtx_y,
    output wire [15:0]  cm_vtx_z,
    output wire [23:0]  cm_vtx_col,
    output wire         cm_prim_begin,
    output wire         cm_prim_end,
    output wire [3:0]   cm_prim_type,
    output wire [18:0]  cm_frags,
    output wire         cm_done,
    output wire         fb_we,
    output wire [17:0]  fb_addr,
    output wire [11:0]  fb_data,
    output wire         fb_clear,
    output wire         fb_draw
);
    `include "lg_decode.vh"

    // IF/ID
    wire        ifid_valid;
    wire [15:0] ifid_pc;
    wire [31:0] ifid_insn;
    wire [31:0] prog_words;
    // ID/EX
    wire        idex_valid;
    wire [15:0] idex_pc;
    wire [31:0] idex_insn;
    wire [15:0] idex_a, idex_b;
    wire [63:0] idex_va, idex_vb;
    // register files
    wire [3:0]  rf_ra, rf_rb;
    wire [15:0] rf_ra_val, rf_rb_val;
    wire [5:0]  vrf_ra, vrf_rb;
    wire [63:0] vrf_ra_val, vrf_rb_val;
    // control
    wire id_stall, ex_hold, redirect, stop;
    wire [15:0] target;
    wire [15:0] ex_a, ex_b;
    wire [63:0] ex_va, ex_vb;
    wire [2:0]  cc_q;
    // EX/MEM
    wire         exmem_valid, exmem_rd_we, exmem_cc_we, exmem_vd_we, exmem_done;
    wire [15:0]  exmem_pc, exmem_next_pc, exmem_rd_val, exmem_sdata;
    wire [31:0]  exmem_insn;
    wire [3:0]   exmem_rd;
    wire [2:0]   exmem_cc;
    wire [5:0]   exmem_vd;
    wire [63:0]  exmem_vd_val;
    wire [674:0] exmem_grec;
    // MEM/WB
    wire [674:0] grec;

    lg_if #(.IMEM_WORDS(IMEM_WORDS)) u_if (
        .clk(clk), .rst(rst), .hold(id_stall || ex_hold), .redirect(redirect), .target(target), .stop(stop),
        .prog_words(prog_words), .ifid_valid(ifid_valid), .ifid_pc(ifid_pc), .ifid_insn(ifid_insn)
    );

    lg_id u_id (
        .clk(clk), .rst(rst), .ifid_valid(ifid_valid), .ifid_pc(ifid_pc), .ifid_insn(ifid_insn),
        .rf_ra(rf_ra), .rf_rb(rf_rb), .rf_ra_val(rf_ra_val), .rf_rb_val(rf_rb_val),
        .vrf_ra(vrf_ra), .vrf_rb(vrf_rb), .vrf_ra_val(vrf_ra_val), .vrf_rb_val(vrf_rb_val),
        .ex_hold(ex_hold), .ex_a(ex_a), .ex_b(ex_b), .ex_va(ex_va), .ex_vb(ex_vb), .flush(redirect || stop), .stall(id_stall),
        .idex_valid(idex_valid), .idex_pc(idex_pc), .idex_insn(idex_insn), .idex_a(idex_a), .idex_b(idex_b),
        .idex_va(idex_va), .idex_vb(idex_vb)
    );

    lg_regfile u_rf (
        .clk(clk), .rst(rst), .ra(rf_ra), .ra_val(rf_ra_val), .rb(rf_rb), .rb_val(rf_rb_val),
        .we(cm_rd_we), .wa(cm_rd), .wd(cm_rd_val)
    );

    lg_vregfile u_vrf (
        .clk(clk), .rst(rst), .ra(vrf_ra), .ra_val(vrf_ra_val), .rb(vrf_rb), .rb_val(vrf_rb_val),
        .we(cm_vd_we), .wa(cm_vd), .wd(cm_vd_val)
    );

    lg_ex u_ex (
        .clk(clk), .rst(rst), .idex_valid(idex_valid), .idex_pc(idex_pc), .idex_insn(idex_insn),
        .idex_a(idex_a), .idex_b(idex_b), .idex_va(idex_va), .idex_vb(idex_vb), .prog_words(prog_words),
        .wb_rd_we(cm_rd_we), .wb_rd(cm_rd), .wb_rd_val(cm_rd_val), .wb_cc_we(cm_cc_we), .wb_cc(cm_cc),
        .wb_vd_we(cm_vd_we), .wb_vd(cm_vd), .wb_vd_val(cm_vd_val), .cc_q(cc_q),
        .a(ex_a), .b(ex_b), .va(ex_va), .vb(ex_vb), .hold(ex_hold), .redirect(redirect), .stop(stop), .target(target),
        .exmem_valid(exmem_valid), .exmem_pc(exmem_pc), .exmem_insn(exmem_insn), .exmem_next_pc(exmem_next_pc),
        .exmem_rd_we(exmem_rd_we), .exmem_rd(exmem_rd), .exmem_rd_val(exmem_rd_val), .exmem_cc_we(exmem_cc_we),
        .exmem_cc(exmem_cc), .exmem_vd_we(exmem_vd_we), .exmem_vd(exmem_vd), .exmem_vd_val(exmem_vd_val),
        .exmem_sdata(exmem_sdata), .exmem_grec(exmem_grec), .exmem_done(exmem_done),
        .fb_we(fb_we), .fb_addr(fb_addr), .fb_data(fb_data), .fb_clear(fb_clear), .fb_draw(fb_draw)
    );

    lg_mem u_mem (
        .clk(clk), .rst(rst), .exmem_valid(exmem_valid), .exmem_pc(exmem_pc), .exmem_insn(exmem_insn),
        .exmem_next_pc(exmem_next_pc), .exmem_rd_we(exmem_rd_we), .exmem_rd(exmem_rd), .exmem_rd_val(exmem_rd_val),
        .exmem_cc_we(exmem_cc_we), .exmem_cc(exmem_cc), .exmem_vd_we(exmem_vd_we), .exmem_vd(exmem_vd),
        .exmem_vd_val(exmem_vd_val), .exmem_sdata(exmem_sdata), .exmem_grec(exmem_grec), .exmem_done(exmem_done),
        .memwb_valid(cm_valid), .memwb_pc(cm_pc), .memwb_insn(cm_insn), .memwb_next_pc(cm_next_pc),
        .memwb_rd_we(cm_rd_we), .memwb_rd(cm_rd), .memwb_rd_val(cm_rd_val), .memwb_cc_we(cm_cc_we), .memwb_cc(cm_cc),
        .memwb_vd_we(cm_vd_we), .memwb_vd(cm_vd), .memwb_vd_val(cm_vd_val), .memwb_mem_we(cm_mem_we),
        .memwb_mem_addr(cm_mem_addr), .memwb_mem_size(cm_mem_size), .memwb_mem_data(cm_mem_data),
        .memwb_grec(grec), .memwb_done(cm_done)
    );

    lg_wb u_wb (.clk(clk), .rst(rst), .memwb_valid(cm_valid), .memwb_cc_we(cm_cc_we), .memwb_cc(cm_cc), .cc_q(cc_q));

    // the graphics part of the record, unpacked
    assign cm_mat_we = grec[LG_G_MAT_WE];
    assign cm_mat = grec[LG_G_MAT +: 512];
    assign cm_depth = grec[LG_G_DEPTH +: 5];
    assign cm_col_we = grec[LG_G_COL_WE];
    assign cm_col = grec[LG_G_COL +: 24];
    assign cm_vtx_we = grec[LG_G_VTX_WE];
    assign cm_vtx_idx = grec[LG_G_VTX_IDX +: 2];
    assign cm_vtx_x = grec[LG_G_VTX_X +: 32];
    assign cm_vtx_y = grec[LG_G_VTX_Y +: 32];
    assign cm_vtx_z = grec[LG_G_VTX_Z +: 16];
    assign cm_vtx_col = grec[LG_G_VTX_COL +: 24];
    assign cm_prim_begin = grec[LG_G_BEGIN];
    assign cm_prim_end = grec[LG_G_END];
    assign cm_prim_type = grec[LG_G_TYPE +: 4];
    assign cm_frags = grec[LG_G_FRAGS +: 19];
endmodule
