// Free-running harness of the LG core (scripts/bench_lg.py): no Python in the loop. The core loads
// its program itself (+imem=, +ilen=, +dmem=, as in lock-step), this module holds reset for four
// cycles, then counts cycles, commits and frame-buffer events until the commit that ends the
// program and the frame-buffer port has been quiet for QUIET cycles after it (a primitive's last
// pixels may leave after its endprimitive retires). It folds the commit port and the pixel writes
// into checksums the script recomputes from the golden model's records: a run counts only if it
// was correct, and no simulator can drop the logic behind the ports it folds. The module is named
// bench_top so that the G80 harness's Verilator main (tb/freerun/main.cpp) drives it unchanged.
// Printed at the end: "lg_freerun cycles=C commits=N pixels=P clears=K draws=D ck=X fbck=Y".
module bench_top #(
    parameter integer QUIET = 64
) (
    input  wire clk,
    output wire running,  // out of reset and not finished: the part tb/freerun/main.cpp times
    output reg  finished
);
    reg         rst = 1'b1;
    reg  [2:0]  rst_count = 3'd0;
    assign running = !rst && !finished;
    wire        cm_valid, cm_rd_we, cm_cc_we, cm_vd_we, cm_mem_we, cm_mat_we, cm_col_we, cm_vtx_we;
    wire        cm_prim_begin, cm_prim_end, cm_done, fb_we, fb_clear, fb_draw;
    wire [15:0] cm_pc, cm_next_pc, cm_rd_val, cm_mem_addr, cm_mem_data, cm_vtx_z;
    wire [31:0] cm_insn, cm_vtx_x, cm_vtx_y;
    wire [3:0]  cm_rd, cm_prim_type;
    wire [2:0]  cm_cc;
    wire [5:0]  cm_vd;
    wire [63:0] cm_vd_val;
    wire [1:0]  cm_mem_size, cm_vtx_idx;
    wire [511:0] cm_mat;
    wire [4:0]  cm_depth;
    wire [23:0] cm_col, cm_vtx_col;
    wire [18:0] cm_frags;
    wire [17:0] fb_addr;
    wire [11:0] fb_data;

    lg_core core (
        .clk(clk), .rst(rst), .cm_valid(cm_valid), .cm_pc(cm_pc), .cm_insn(cm_insn), .cm_next_pc(cm_next_pc),
        .cm_rd_we(cm_rd_we), .cm_rd(cm_rd), .cm_rd_val(cm_rd_val), .cm_cc_we(cm_cc_we), .cm_cc(cm_cc),
        .cm_vd_we(cm_vd_we), .cm_vd(cm_vd), .cm_vd_val(cm_vd_val), .cm_mem_we(cm_mem_we), .cm_mem_addr(cm_mem_addr),
        .cm_mem_size(cm_mem_size), .cm_mem_data(cm_mem_data), .cm_mat_we(cm_mat_we), .cm_mat(cm_mat), .cm_depth(cm_depth),
        .cm_col_we(cm_col_we), .cm_col(cm_col), .cm_vtx_we(cm_vtx_we), .cm_vtx_idx(cm_vtx_idx), .cm_vtx_x(cm_vtx_x),
        .cm_vtx_y(cm_vtx_y), .cm_vtx_z(cm_vtx_z), .cm_vtx_col(cm_vtx_col), .cm_prim_begin(cm_prim_begin),
        .cm_prim_end(cm_prim_end), .cm_prim_type(cm_prim_type), .cm_frags(cm_frags), .cm_done(cm_done),
        .fb_we(fb_we), .fb_addr(fb_addr), .fb_data(fb_data), .fb_clear(fb_clear), .fb_draw(fb_draw)
    );

    // the fold of one commit: every field the record wrote, XORed into 32 bits
    function automatic [31:0] mat_fold(input [511:0] m);
        integer k;
        begin
            mat_fold = 32'd0;
            for (k = 0; k < 16; k = k + 1) mat_fold = mat_fold ^ m[k * 32 +: 32];
        end
    endfunction

    wire [31:0] fold = {cm_pc, cm_next_pc} ^ cm_insn
        ^ (cm_rd_we ? {12'd0, cm_rd, cm_rd_val} : 32'd0)
        ^ (cm_cc_we ? {29'd0, cm_cc} << 20 : 32'd0)
        ^ (cm_vd_we ? {10'd0, cm_vd, 16'd0} ^ cm_vd_val[31:0] ^ cm_vd_val[63:32] : 32'd0)
        ^ (cm_mem_we ? {cm_mem_addr, cm_mem_data} ^ {30'd0, cm_mem_size} : 32'd0)
        ^ (cm_mat_we ? mat_fold(cm_mat) : 32'd0)
        ^ (cm_col_we ? {8'd0, cm_col} : 32'd0)
        ^ (cm_vtx_we ? cm_vtx_x ^ cm_vtx_y ^ {cm_vtx_z, 14'd0, cm_vtx_idx} ^ {8'd0, cm_vtx_col} : 32'd0)
        ^ (cm_prim_begin ? {28'd0, cm_prim_type} << 8 : 32'd0)
        ^ (cm_prim_end ? {13'd0, cm_frags} : 32'd0);

    reg [63:0] cycles = 64'd0;
    reg [31:0] commits = 32'd0, pixels = 32'd0, clears = 32'd0, draws = 32'd0, ck = 32'd0, fbck = 32'd0;
    reg        ended = 1'b0;
    reg [15:0] quiet = 16'd0;
    reg [63:0] max_cycles;
    initial begin
        finished = 1'b0;
        if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 64'd100000000;
    end

    always @(posedge clk) begin
        if (rst) begin
            rst_count <= rst_count + 3'd1;
            if (rst_count == 3'd3) rst <= 1'b0;
        end else if (!finished) begin
            cycles <= cycles + 64'd1;
            if (cm_valid) begin
                commits <= commits + 32'd1;
                ck <= {ck[30:0], ck[31]} ^ fold;
                if (cm_done) ended <= 1'b1;
            end
            if (fb_we) begin
                pixels <= pixels + 32'd1;
                fbck <= {fbck[30:0], fbck[31]} ^ {2'd0, fb_addr, fb_data};
            end
            if (fb_clear) clears <= clears + 32'd1;
            if (fb_draw) draws <= draws + 32'd1;
            quiet <= (fb_we || fb_clear || fb_draw || !ended) ? 16'd0 : quiet + 16'd1;
            if ((ended && quiet == QUIET) || cycles >= max_cycles) begin
                $display("lg_freerun cycles=%0d commits=%0d pixels=%0d clears=%0d draws=%0d ck=%08x fbck=%08x%s", cycles, commits, pixels,
                         clears, draws, ck, fbck, ended ? "" : " timeout");
                finished <= 1'b1;
            end
        end
    end
endmodule
