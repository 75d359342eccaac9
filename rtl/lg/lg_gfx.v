// The graphics unit (docs/design/lg.md, the `seed` profile's graphics): the current matrix (Q15.16 int32
// elements), a 16-deep stack of (matrix, colour), the current colour, the 3-vertex buffer, the
// rasteriser with its depth buffer, and the frame-buffer port.
// It acts on the instruction in EX (`req`). Everything but a drawn primitive and a depth-buffer
// sweep finishes in the cycle it is asked for (`done` with `req`); endprimitive with three
// vertices scans its bounding box one pixel a cycle and finishes one cycle after the last pixel,
// and the pipeline holds EX until then. `rec` is the graphics part of the commit record
// (offsets LG_G_* in lg_decode.vh), meaningful when `done`; its depth field is always the stack
// depth after the instruction.
// The depth buffer clears by generation: a pixel whose tag is not the current generation reads
// 3.0 (0x0180), so flush and reset cost one cycle instead of 256,000. Only when the 16-bit
// generation would wrap does a sweep zero every tag (256,000 cycles, once in 65,535 clears).
module lg_gfx (
    input  wire         clk,
    input  wire         rst,
    input  wire         req,
    input  wire [31:0]  insn,
    input  wire [63:0]  vr,
    output wire         done,
    output reg  [674:0] rec,
    output reg          fb_we,
    output reg  [17:0]  fb_addr,
    output reg  [11:0]  fb_data,
    output reg          fb_clear,
    output reg          fb_draw
);
    `include "lg_decode.vh"
    `include "lg_trig.vh"

    localparam integer NPIX = 640 * 400;
    localparam [17:0] LAST_PIX = 18'd255999;  // NPIX - 1
    localparam [15:0] DEPTH_CLEAR = 16'h0180;  // 3.0 in Q8.7
    localparam [31:0] ONE = 32'h0001_0000;     // 1.0 in Q15.16
    localparam [1:0] S_IDLE = 2'd0, S_RAST = 2'd1, S_FINISH = 2'd2, S_SWEEP = 2'd3;

    function automatic [63:0] sx64(input [31:0] v); sx64 = {{32{v[31]}}, v}; endfunction
    // a Q8.7 value as Q15.16: value << 9, sign-extended
    function automatic [31:0] q16(input [15:0] v); q16 = {{7{v[15]}}, v, 9'b0}; endfunction
    // (sum of the products) >>> 16, wrapped to int32: bits 47:16 of the sum modulo 2^64
    // (bits 15:0 are the fraction shifted out, 63:48 what the int32 wrap drops)
    /* verilator lint_off UNUSEDSIGNAL */
    function automatic [31:0] shr16(input [63:0] s); shr16 = s[47:16]; endfunction
    /* verilator lint_on UNUSEDSIGNAL */
    // The edge test of edge (a -> b) at (cx, cy), all in 1/16 pixel: E = A*(cx-ax) + B*(cy-ay)
    // with A = ay - by, B = bx - ax; covered when E > 0, or E == 0 and (A > 0 or (A == 0 and B > 0)).
    function automatic edge_in(input signed [63:0] ax, input signed [63:0] ay, input signed [63:0] bx,
                               input signed [63:0] by, input signed [63:0] cx, input signed [63:0] cy);
        reg signed [63:0] ea, eb, e;
        begin
            ea = ay - by;
            eb = bx - ax;
            e = ea * (cx - ax) + eb * (cy - ay);
            edge_in = e > 0 || (e == 0 && (ea > 0 || (ea == 0 && eb > 0)));
        end
    endfunction

    wire [7:0] op = lg_op(insn);
    // vr[0] is read only as (vr[0] >>> 7): the colour and the angle drop its fraction bits
    /* verilator lint_off UNUSEDSIGNAL */
    wire [15:0] e0 = vr[15:0];
    /* verilator lint_on UNUSEDSIGNAL */
    wire [15:0] e1 = vr[31:16], e2 = vr[47:32], e3 = vr[63:48];

    // ---- state
    reg [511:0] mat;  // element (i, j) at 32 * (4i + j)
    reg [23:0]  col;  // {R, G, B}
    reg [4:0]   depth;
    reg [511:0] stk_mat [0:15];
    reg [23:0]  stk_col [0:15];
    reg [31:0]  vx [0:2];
    reg [31:0]  vy [0:2];
    reg [15:0]  vz [0:2];
    reg [23:0]  vc [0:2];
    reg [1:0]   vcount;
    reg [15:0]  zbuf [0:NPIX-1];
    reg [15:0]  ztag [0:NPIX-1];
    reg [15:0]  gen;
    reg [1:0]   state;
    reg [17:0]  sweep;
    reg signed [63:0] rsx [0:2];
    reg signed [63:0] rsy [0:2];
    reg [9:0]   bx0, bx1, by1, px, py;
    reg [18:0]  frags;
    reg [15:0]  rz;
    reg [11:0]  rcol;  // v0's colour as the board shows it: the high nibbles (seed)
    integer i, j, k;

    initial begin
        // tags of generation 0, which is never current after reset (reset starts a new generation)
        for (i = 0; i < NPIX; i = i + 1) begin
            ztag[i] = 16'h0;
            zbuf[i] = DEPTH_CLEAR;
        end
        gen = 16'h0;
    end

    // ---- M x T for translate, scale and rotate
    wire signed [9:0] ang0 = {e0[15], e0[15:7]};  // vr[0] >>> 7: whole degrees, floor
    wire signed [9:0] ang = e3[15] ? -ang0 : ang0;   // negated when vr[3] < 0
    wire [8:0] deg = ang < 0 ? ang[8:0] + 9'd360 : ang[8:0];  // mod 360 (|ang| <= 256; 9 bits wrap mod 512)
    wire [31:0] cs = lg_cos(deg);
    wire [31:0] sn = lg_sin(deg);
    reg [511:0] tm;
    reg [511:0] prod;
    reg [63:0]  acc;
    always @* begin
        tm = 512'h0;
        for (i = 0; i < 4; i = i + 1) tm[32 * (5 * i) +: 32] = ONE;
        case (op)
            LG_OP_TRANSLATE: begin tm[32 * 3 +: 32] = q16(e1); tm[32 * 7 +: 32] = q16(e2); end
            LG_OP_SCALE: begin tm[32 * 0 +: 32] = q16(e1); tm[32 * 5 +: 32] = q16(e2); end
            default: begin  // rotate about z
                tm[32 * 0 +: 32] = cs;
                tm[32 * 1 +: 32] = -sn;
                tm[32 * 4 +: 32] = sn;
                tm[32 * 5 +: 32] = cs;
            end
        endcase
        for (i = 0; i < 4; i = i + 1) begin
            for (j = 0; j < 4; j = j + 1) begin
                acc = 64'h0;
                for (k = 0; k < 4; k = k + 1) acc = acc + sx64(mat[32 * (4 * i + k) +: 32]) * sx64(tm[32 * (4 * k + j) +: 32]);
                prod[32 * (4 * i + j) +: 32] = shr16(acc);
            end
        end
    end
    wire [511:0] identity = {ONE, 96'h0, 32'h0, ONE, 64'h0, 64'h0, ONE, 32'h0, 96'h0, ONE};

    // ---- setvertex: x' = (m00*x + m01*y) >>> 16 + m03, y' likewise with row 1
    wire [31:0] x_in = q16(e1), y_in = q16(e2);
    wire [31:0] xt = shr16(sx64(mat[32 * 0 +: 32]) * sx64(x_in) + sx64(mat[32 * 1 +: 32]) * sx64(y_in)) + mat[32 * 3 +: 32];
    wire [31:0] yt = shr16(sx64(mat[32 * 4 +: 32]) * sx64(x_in) + sx64(mat[32 * 5 +: 32]) * sx64(y_in)) + mat[32 * 7 +: 32];

    // ---- rasteriser set-up from the vertex buffer: screen coordinates in 1/16 pixel
    // sx = ((x' + (5 << 16)) * 64) >>> 12 = (x' + (5 << 16)) >>> 6; sy = ((y' + (5 << 16)) * 40) >>> 12
    // (one wire per vertex rather than a loop over the arrays: Icarus re-evaluates a block that
    // reads an array by a variable index whenever any word of it changes)
    function automatic signed [63:0] screen_x(input [31:0] x); screen_x = $signed(sx64(x) + 64'd327680) >>> 6; endfunction
    function automatic signed [63:0] screen_y(input [31:0] y); screen_y = $signed((sx64(y) + 64'd327680) * 64'd40) >>> 12; endfunction
    function automatic signed [63:0] min3(input signed [63:0] a, input signed [63:0] b, input signed [63:0] c);
        min3 = (a < b) ? ((a < c) ? a : c) : ((b < c) ? b : c);
    endfunction
    function automatic signed [63:0] max3(input signed [63:0] a, input signed [63:0] b, input signed [63:0] c);
        max3 = (a > b) ? ((a > c) ? a : c) : ((b > c) ? b : c);
    endfunction
    wire signed [63:0] tsx0 = screen_x(vx[0]), tsx1 = screen_x(vx[1]), tsx2 = screen_x(vx[2]);
    wire signed [63:0] tsy0 = screen_y(vy[0]), tsy1 = screen_y(vy[1]), tsy2 = screen_y(vy[2]);
    wire signed [63:0] mnx = min3(tsx0, tsx1, tsx2), mxx = max3(tsx0, tsx1, tsx2);
    wire signed [63:0] mny = min3(tsy0, tsy1, tsy2), mxy = max3(tsy0, tsy1, tsy2);
    reg signed [63:0] qx0, qx1, qy0, qy1;
    always @* begin
        qx0 = mnx >>> 4; qx1 = mxx >>> 4; qy0 = mny >>> 4; qy1 = mxy >>> 4;
        if (qx0 < 0) qx0 = 0;
        if (qy0 < 0) qy0 = 0;
        if (qx1 > 639) qx1 = 639;
        if (qy1 > 399) qy1 = 399;
    end
    wire bbox_empty = qx0 > qx1 || qy0 > qy1;

    // ---- one pixel of the scan
    wire signed [63:0] cx = $signed({50'b0, px, 4'h8});  // 16 * px + 8
    wire signed [63:0] cy = $signed({50'b0, py, 4'h8});
    wire signed [63:0] x0s = rsx[0], y0s = rsy[0], x1s = rsx[1], y1s = rsy[1], x2s = rsx[2], y2s = rsy[2];
    wire covered = edge_in(x0s, y0s, x1s, y1s, cx, cy) && edge_in(x1s, y1s, x2s, y2s, cx, cy) && edge_in(x2s, y2s, x0s, y0s, cx, cy);
    wire [17:0] paddr = {8'b0, py} * 18'd640 + {8'b0, px};
    wire [15:0] zcur = ztag[paddr] == gen ? zbuf[paddr] : DEPTH_CLEAR;
    wire zpass = covered && $signed(rz) < $signed(zcur);

    wire idle_req = req && state == S_IDLE;
    wire start_rast = op == LG_OP_ENDPRIMITIVE && vcount == 2'd3;
    wire need_sweep = op == LG_OP_FLUSH && gen == 16'hFFFF;
    assign done = req && ((state == S_IDLE && !start_rast && !need_sweep) || state == S_FINISH);

    // ---- the commit record of the instruction finishing now
    // the top entry's index as a 4-bit wire: at depth 16 it wraps to 15, where Icarus evaluates the
    // subtraction inside the index wider and reads past the array (X)
    wire [3:0] top = depth[3:0] - 4'd1;
    wire [511:0] top_mat = stk_mat[top];  // what popmatrix restores
    wire [23:0] top_col = stk_col[top];
    always @* begin
        rec = {LG_G_W{1'b0}};
        rec[LG_G_DEPTH +: 5] = depth;
        if (state == S_FINISH) begin
            rec[LG_G_END] = 1'b1;
            rec[LG_G_FRAGS +: 19] = frags;
        end else begin
            case (op)
                LG_OP_TRANSLATE, LG_OP_SCALE, LG_OP_ROTATE: begin
                    rec[LG_G_MAT_WE] = 1'b1;
                    rec[LG_G_MAT +: 512] = prod;
                end
                LG_OP_LOADIDENTITY: begin
                    rec[LG_G_MAT_WE] = 1'b1;
                    rec[LG_G_MAT +: 512] = identity;
                    rec[LG_G_COL_WE] = 1'b1;
                end
                LG_OP_PUSHMATRIX: if (depth < 5'd16) rec[LG_G_DEPTH +: 5] = depth + 5'd1;
                LG_OP_POPMATRIX: if (depth != 5'd0) begin
                    rec[LG_G_DEPTH +: 5] = depth - 5'd1;
                    rec[LG_G_MAT_WE] = 1'b1;
                    rec[LG_G_MAT +: 512] = top_mat;
                    rec[LG_G_COL_WE] = 1'b1;
                    rec[LG_G_COL +: 24] = top_col;
                end
                LG_OP_SETCOLOR: begin
                    rec[LG_G_COL_WE] = 1'b1;
                    rec[LG_G_COL +: 24] = {e0[14:7], e1[14:7], e2[14:7]};  // (v >>> 7) & 0xFF
                end
                LG_OP_SETVERTEX: if (vcount != 2'd3) begin
                    rec[LG_G_VTX_WE] = 1'b1;
                    rec[LG_G_VTX_IDX +: 2] = vcount;
                    rec[LG_G_VTX_X +: 32] = xt;
                    rec[LG_G_VTX_Y +: 32] = yt;
                    rec[LG_G_VTX_Z +: 16] = e3;
                    rec[LG_G_VTX_COL +: 24] = col;
                end
                LG_OP_BEGINPRIMITIVE: begin
                    rec[LG_G_BEGIN] = 1'b1;
                    rec[LG_G_TYPE +: 4] = lg_f_type(insn);
                end
                LG_OP_ENDPRIMITIVE: rec[LG_G_END] = 1'b1;  // fewer than three vertices: nothing drawn
                default: ;
            endcase
        end
    end

    always @(posedge clk) begin
        fb_we <= 1'b0;
        fb_clear <= 1'b0;
        fb_draw <= 1'b0;
        if (rst) begin
            mat <= identity;
            col <= 24'h0;
            depth <= 5'd0;
            vcount <= 2'd0;
            fb_addr <= 18'h0;
            fb_data <= 12'h0;
            frags <= 19'd0;
            // reset clears the depth buffer: a new generation, or the sweep when it would wrap
            if (gen == 16'hFFFF) begin
                state <= S_SWEEP;
                sweep <= 18'd0;
            end else begin
                gen <= gen + 16'd1;
                state <= S_IDLE;
            end
        end else begin
            case (state)
                S_IDLE: if (idle_req) begin
                    if (rec[LG_G_MAT_WE]) mat <= rec[LG_G_MAT +: 512];
                    if (rec[LG_G_COL_WE]) col <= rec[LG_G_COL +: 24];
                    depth <= rec[LG_G_DEPTH +: 5];
                    if (op == LG_OP_PUSHMATRIX && depth < 5'd16) begin
                        stk_mat[depth[3:0]] <= mat;
                        stk_col[depth[3:0]] <= col;
                    end
                    if (rec[LG_G_VTX_WE]) begin
                        vx[vcount] <= xt;
                        vy[vcount] <= yt;
                        vz[vcount] <= e3;
                        vc[vcount] <= col;
                        vcount <= vcount + 2'd1;
                    end
                    if (op == LG_OP_BEGINPRIMITIVE) begin
                        vcount <= 2'd0;
                    end
                    if (op == LG_OP_ENDPRIMITIVE) begin
                        if (start_rast) begin
                            rsx[0] <= tsx0;
                            rsx[1] <= tsx1;
                            rsx[2] <= tsx2;
                            rsy[0] <= tsy0;
                            rsy[1] <= tsy1;
                            rsy[2] <= tsy2;
                            bx0 <= qx0[9:0];
                            bx1 <= qx1[9:0];
                            by1 <= qy1[9:0];
                            px <= qx0[9:0];
                            py <= qy0[9:0];
                            rz <= vz[0];
                            rcol <= {vc[0][23:20], vc[0][15:12], vc[0][7:4]};
                            frags <= 19'd0;
                            state <= bbox_empty ? S_FINISH : S_RAST;
                        end else begin
                            vcount <= 2'd0;
                        end
                    end
                    if (op == LG_OP_FLUSH) begin
                        if (need_sweep) begin
                            state <= S_SWEEP;
                            sweep <= 18'd0;
                        end else begin
                            gen <= gen + 16'd1;
                            fb_clear <= 1'b1;
                        end
                    end
                    if (op == LG_OP_DRAW) fb_draw <= 1'b1;
                end
                S_RAST: begin
                    frags <= frags + {18'd0, covered};
                    if (zpass) begin
                        zbuf[paddr] <= rz;
                        ztag[paddr] <= gen;
                        fb_we <= 1'b1;
                        fb_addr <= paddr;
                        fb_data <= rcol;
                    end
                    if (px == bx1) begin
                        px <= bx0;
                        if (py == by1) state <= S_FINISH;
                        else py <= py + 10'd1;
                    end else begin
                        px <= px + 10'd1;
                    end
                end
                S_FINISH: if (req) begin
                    vcount <= 2'd0;
                    state <= S_IDLE;
                end
                default: begin  // S_SWEEP
                    ztag[sweep] <= 16'h0;
                    if (sweep == LAST_PIX) begin
                        gen <= 16'h1;
                        state <= S_IDLE;
                    end else begin
                        sweep <= sweep + 18'd1;
                    end
                end
            endcase
        end
    end
endmodule
