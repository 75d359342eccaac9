`timescale 1ns / 1ps
`include "sm_commit_port.vh"
// Commit unit: assembles the commit record of the instruction in execute over its passes, its
// memory accesses and load responses, and sends it on the commit port when the instruction retires
// (together with the writes of that cycle), when the warp also learns its next state (ready,
// waiting at a barrier, or done). A load that parks (sm_exec_ctrl) leaves its record in its load
// slot: the slot collects the load data as responses arrive, and the record goes out once no load
// of it is outstanding, in a cycle in which no instruction retires (the lowest such slot first);
// then its warp takes its next state. Records of one warp go out in program order (a warp with a
// parked load issues nothing more); records of different warps may go out of program order. The port is described in
// docs/design/rtl.md, "Ports"; lane vectors hold lane i at [32*i +: 32] (flags [4*i +: 4], $a [16*i +: 16]).
module sm_commit #(
    parameter integer NUM_SP = 8,
    parameter integer NUM_WARPS = 24,
    parameter integer NUM_LSLOTS = 4,
    localparam integer WB = $clog2(NUM_WARPS),
    localparam integer LSB = NUM_LSLOTS > 1 ? $clog2(NUM_LSLOTS) : 1
) (
    input  wire                 clk,
    input  wire                 rst_n,
    input  wire                 take,          // a new instruction: clear the record
    input  wire                 retire,        // the record goes out (with this cycle's writes)
    input  wire [5:0]           x_pass,
    // write-back of a pass (sm_execute)
    input  wire [NUM_SP-1:0]    gpr_mask,
    input  wire [6:0]           gpr_reg,
    input  wire [1:0]           gpr_half,
    input  wire [NUM_SP*32-1:0] gpr_data,
    input  wire [NUM_SP-1:0]    cc_mask,
    input  wire [1:0]           cc_reg,
    input  wire [NUM_SP*4-1:0]  cc_data,
    input  wire [NUM_SP-1:0]    a_mask,
    input  wire [2:0]           a_reg,
    input  wire [NUM_SP*16-1:0] a_data,
    input  wire [NUM_SP-1:0]    sh_mask,       // R2G
    input  wire [NUM_SP*32-1:0] sh_addr,
    input  wire [NUM_SP*32-1:0] sh_data,
    // memory unit: global/local stores and load responses
    input  wire [15:0]          sr_we,         // up to 16 words a request (a 64-byte line)
    input  wire [16*5-1:0]      sr_lane,
    input  wire [16*2-1:0]      sr_part,
    input  wire [16*32-1:0]     sr_addr,
    input  wire [16*32-1:0]     sr_data,
    input  wire [15:0]          ld_we,
    input  wire [LSB-1:0]       ld_slot,
    input  wire [16*5-1:0]      ld_lane,
    input  wire [16*2-1:0]      ld_part,
    input  wire [16*32-1:0]     ld_data,
    // the instruction and its warp
    input  wire [WB-1:0]        x_warp,
    input  wire [3:0]           cta,
    input  wire [31:0]          seq,
    input  wire [23:0]          x_pc,
    input  wire [63:0]          x_insn,
    input  wire                 is_long,
    input  wire                 unimpl,
    input  wire [31:0]          x_active,
    input  wire [31:0]          exec_mask,     // lanes that executed (guard true at issue)
    input  wire [2:0]           wb_kind,
    input  wire [6:0]           ls_reg,
    input  wire [4:0]           ls_bytes,
    input  wire                 ls_local,
    input  wire [23:0]          next_pc,       // where the warp goes on (after this cycle's SIMT step)
    input  wire [31:0]          next_mask,
    input  wire                 bar_wait,      // the warp waits at a barrier
    output wire [2:0]           retire_state,  // the warp's next state
    // load slots
    input  wire                 park,          // the load in execute parks in slot cur_slot
    input  wire [LSB-1:0]       cur_slot,
    input  wire                 alloc,         // a load takes slot alloc_slot: its data starts empty
    input  wire [LSB-1:0]       alloc_slot,
    input  wire [NUM_LSLOTS-1:0] slot_drained, // no load of the slot is outstanding
    output wire                 cpl_wait,      // a parked record is ready
    output wire                 cpl_fire,      // it goes out (no instruction retires)
    output reg  [LSB-1:0]       cpl_slot,
    output wire [WB-1:0]        cpl_warp,
    output wire [2:0]           cpl_state,     // its warp's next state
    // commit port: its fields and widths are golden/g80/hw.py COMMIT_FIELDS (docs/design/rtl.md, "Ports")
    `SM_COMMIT_PORTS(output reg)
);
`include "sm_defs.vh"

    // The record being assembled (c_*), and with this cycle's writes (n_*). The narrow fields with
    // this cycle's writes, and the pass's $c/$a lanes merged with them, are continuous assigns (net
    // functors, no process to wake: as an `always @*` they cost some 110 variable loads and stores
    // a cycle under Icarus, the lane loop above all); the lane vectors ($c, $a, register and memory
    // data and addresses) take this cycle's lane writes in the clocked process below, straight into
    // the record and, when the instruction retires, into the commit port. Under an event-driven
    // simulator a combinational copy of 4,096-bit vectors ran again for every lane result that
    // settled (docs/design/rtl.md, "Simulators").
    reg          c_gpr_we, c_cc_we, c_a_we, c_mem_we;
    reg [6:0]    c_gpr_reg;
    reg [1:0]    c_gpr_half, c_cc_reg, c_mem_space;
    reg [2:0]    c_a_reg;
    reg [4095:0] c_gpr_data, c_mem_data;
    reg [127:0]  c_cc_data;
    reg [511:0]  c_a_data;
    reg [4:0]    c_mem_size;
    reg [31:0]   c_mem_lanes;
    reg [1023:0] c_mem_addr;

    wire done_now = next_mask == 32'd0 && !bar_wait;
    assign retire_state = done_now ? W_DONE : bar_wait ? W_BAR : W_READY;

    // log2 NUM_SP: a pass's first lane as a concatenation, not a multiply (vvp evaluates a net's
    // multiply on every change of the pass, through its generic arithmetic; docs/design/rtl.md, "Simulators")
    localparam integer SPB = $clog2(NUM_SP);
    wire [31:0] lane0 = {{(26 - SPB){1'b0}}, x_pass, {SPB{1'b0}}};
    // write-back of a pass; a shared store (R2G), or a global/local store request (which wins)
    wire       gpr_w = gpr_mask != {NUM_SP{1'b0}};
    wire       cc_w = cc_mask != {NUM_SP{1'b0}};
    wire       a_w = a_mask != {NUM_SP{1'b0}};
    wire       sh_w = sh_mask != {NUM_SP{1'b0}};
    wire       sr_w = sr_we != 16'd0;
    wire       n_gpr_we = c_gpr_we || gpr_w;
    wire [6:0] n_gpr_reg = gpr_w ? gpr_reg : c_gpr_reg;
    wire [1:0] n_gpr_half = gpr_w ? gpr_half : c_gpr_half;
    wire       n_cc_we = c_cc_we || cc_w;
    wire [1:0] n_cc_reg = cc_w ? cc_reg : c_cc_reg;
    wire       n_a_we = c_a_we || a_w;
    wire [2:0] n_a_reg = a_w ? a_reg : c_a_reg;
    wire       n_mem_we = c_mem_we || sh_w || sr_w;
    wire [1:0] n_mem_space = sr_w ? (ls_local ? SPACE_LOCAL : SPACE_GLOBAL) : sh_w ? SPACE_SHARED : c_mem_space;
    wire [4:0] n_mem_size = (sr_w || sh_w) ? ls_bytes : c_mem_size;

    // The write masks spread over their lanes' bits (lane i of a pass at bits of lane lane0 + i of
    // the warp: a shift of the whole vector instead of a loop of part selects).
    wire [NUM_SP*4-1:0]  cc_bits;
    wire [NUM_SP*16-1:0] a_bits;
    genvar g;
    generate
        for (g = 0; g < NUM_SP; g = g + 1) begin : lane_bits
            assign cc_bits[4 * g +: 4] = {4{cc_mask[g]}};
            assign a_bits[16 * g +: 16] = {16{a_mask[g]}};
        end
    endgenerate
    // This cycle's $c and $a lane writes merged into the pass's lanes of the record (lane i of the
    // pass is lane lane0 + i of the warp). The clocked blocks below store them into the record, the
    // commit port and a parked load's slot as one part of each vector: continuous shifts of the
    // whole 128- and 512-bit vectors to the pass's lanes cost Icarus a bit-by-bit rebuild of four
    // vectors on every change of the pass or of a lane's result (docs/design/rtl.md, "Simulators").
    wire [6:0]           cc_lo = {lane0[4:0], 2'b00};  // a pass lies within the 32 lanes
    wire [8:0]           a_lo = {lane0[4:0], 4'b0000};
    wire [NUM_SP*4-1:0]  cc_merged = (c_cc_data[cc_lo +: NUM_SP*4] & ~cc_bits) | (cc_data & cc_bits);
    wire [NUM_SP*16-1:0] a_merged = (c_a_data[a_lo +: NUM_SP*16] & ~a_bits) | (a_data & a_bits);

    // ---- load slots: the parked records
    reg [NUM_LSLOTS-1:0]  s_parked;
    reg [NUM_LSLOTS*4096-1:0] s_gpr_data;  // filled by the responses
    reg [3:0]    s_cta [0:NUM_LSLOTS-1];
    reg [WB-1:0] s_warp [0:NUM_LSLOTS-1];
    reg [31:0]   s_seq [0:NUM_LSLOTS-1];
    reg [23:0]   s_pc [0:NUM_LSLOTS-1];
    reg [63:0]   s_insn [0:NUM_LSLOTS-1];
    reg          s_long [0:NUM_LSLOTS-1];
    reg [31:0]   s_active [0:NUM_LSLOTS-1];
    reg [31:0]   s_exec [0:NUM_LSLOTS-1];
    reg [6:0]    s_reg [0:NUM_LSLOTS-1];
    reg [2:0]    s_count [0:NUM_LSLOTS-1];
    reg          s_cc_we [0:NUM_LSLOTS-1];
    reg [1:0]    s_cc_reg [0:NUM_LSLOTS-1];
    reg [127:0]  s_cc_data [0:NUM_LSLOTS-1];
    reg          s_a_we [0:NUM_LSLOTS-1];
    reg [2:0]    s_a_reg [0:NUM_LSLOTS-1];
    reg [511:0]  s_a_data [0:NUM_LSLOTS-1];  // LLD post-increment
    reg [23:0]   s_next_pc [0:NUM_LSLOTS-1];
    reg [31:0]   s_next_mask [0:NUM_LSLOTS-1];
    reg [2:0]    s_state [0:NUM_LSLOTS-1];

    wire [NUM_LSLOTS-1:0] s_ready = s_parked & slot_drained;
    assign cpl_wait = s_ready != {NUM_LSLOTS{1'b0}};
    assign cpl_fire = cpl_wait && !retire;
    integer cs, lw;
    always @* begin
        cpl_slot = {LSB{1'b0}};
        for (cs = NUM_LSLOTS - 1; cs >= 0; cs = cs - 1) if (s_ready[cs]) cpl_slot = cs[LSB-1:0];
    end
    assign cpl_warp = s_warp[cpl_slot];
    assign cpl_state = s_state[cpl_slot];

    always @(posedge clk) begin
        if (!rst_n) s_parked <= {NUM_LSLOTS{1'b0}};
        else begin
            if (cpl_fire) s_parked[cpl_slot] <= 1'b0;
            if (park) s_parked[cur_slot] <= 1'b1;
        end
        if (alloc) s_gpr_data[{{(20-LSB){1'b0}}, alloc_slot, 12'd0} +: 4096] <= 4096'd0;
        if (ld_we != 16'd0)  // the loop only in a cycle with load data (a clocked block runs every cycle)
            for (lw = 0; lw < 16; lw = lw + 1)
                if (ld_we[lw])
                    s_gpr_data[{{(20-LSB){1'b0}}, ld_slot, 12'd0} + {30'd0, ld_part[2 * lw +: 2]} * 1024 + {27'd0, ld_lane[5 * lw +: 5]} * 32 +: 32]
                        <= ld_data[32 * lw +: 32];
        if (park) begin
            s_cta[cur_slot] <= cta;
            s_warp[cur_slot] <= x_warp;
            s_seq[cur_slot] <= seq;
            s_pc[cur_slot] <= x_pc;
            s_insn[cur_slot] <= x_insn;
            s_long[cur_slot] <= is_long;
            s_active[cur_slot] <= x_active;
            s_exec[cur_slot] <= exec_mask;
            s_reg[cur_slot] <= ls_reg;
            s_count[cur_slot] <= (ls_bytes > 5'd4) ? ls_bytes[4:2] : 3'd1;
            s_cc_we[cur_slot] <= n_cc_we;
            s_cc_reg[cur_slot] <= n_cc_reg;
            s_cc_data[cur_slot] <= c_cc_data;
            if (cc_w) s_cc_data[cur_slot][cc_lo +: NUM_SP*4] <= cc_merged;
            s_a_we[cur_slot] <= n_a_we;
            s_a_reg[cur_slot] <= n_a_reg;
            s_a_data[cur_slot] <= c_a_data;
            if (a_w) s_a_data[cur_slot][a_lo +: NUM_SP*16] <= a_merged;
            s_next_pc[cur_slot] <= next_pc;
            s_next_mask[cur_slot] <= next_mask;
            s_state[cur_slot] <= retire_state;
        end
    end

    integer q;
    always @(posedge clk) begin
        c_gpr_reg <= n_gpr_reg; c_cc_reg <= n_cc_reg; c_a_reg <= n_a_reg; c_mem_space <= n_mem_space; c_mem_size <= n_mem_size;
        if (take) begin  // a new instruction: an empty record
            c_gpr_we <= 1'b0; c_cc_we <= 1'b0; c_a_we <= 1'b0; c_mem_we <= 1'b0;
            c_cc_data <= 128'd0; c_a_data <= 512'd0; c_gpr_half <= HALF_FULL;
        end else begin
            c_gpr_we <= n_gpr_we; c_cc_we <= n_cc_we; c_a_we <= n_a_we; c_mem_we <= n_mem_we;
            if (cc_w) c_cc_data[cc_lo +: NUM_SP*4] <= cc_merged;
            if (a_w) c_a_data[a_lo +: NUM_SP*16] <= a_merged;
            c_gpr_half <= n_gpr_half;
        end
        commit_valid <= retire || cpl_fire;
        if (cpl_fire) begin
            commit_cta <= s_cta[cpl_slot];
            commit_warp <= {{(5-WB){1'b0}}, s_warp[cpl_slot]};
            commit_seq <= s_seq[cpl_slot];
            commit_pc <= s_pc[cpl_slot];
            commit_insn <= s_insn[cpl_slot];
            commit_long <= s_long[cpl_slot];
            commit_active <= s_active[cpl_slot];
            commit_exec <= s_exec[cpl_slot];
            commit_gpr_we <= 1'b1;  // some lane executed: its data came back
            commit_gpr_reg <= s_reg[cpl_slot];
            commit_gpr_half <= HALF_FULL;
            commit_gpr_count <= s_count[cpl_slot];
            commit_gpr_data <= s_gpr_data[{{(20-LSB){1'b0}}, cpl_slot, 12'd0} +: 4096];
            commit_cc_we <= s_cc_we[cpl_slot];
            commit_cc_reg <= s_cc_reg[cpl_slot];
            commit_cc_data <= s_cc_data[cpl_slot];
            commit_a_we <= s_a_we[cpl_slot];
            commit_a_reg <= s_a_reg[cpl_slot];
            commit_a_data <= s_a_data[cpl_slot];
            commit_mem_we <= 1'b0;
            commit_next_pc <= s_next_pc[cpl_slot];
            commit_next_mask <= s_next_mask[cpl_slot];
            commit_done <= s_state[cpl_slot] == W_DONE;
            commit_barrier <= s_state[cpl_slot] == W_BAR;
            commit_unimpl <= 1'b0;
        end
        if (retire) begin
            commit_cta <= cta;
            commit_warp <= {{(5-WB){1'b0}}, x_warp};
            commit_seq <= seq;
            commit_pc <= x_pc;
            commit_insn <= x_insn;
            commit_long <= is_long;
            commit_active <= x_active;
            commit_exec <= exec_mask;
            commit_gpr_we <= n_gpr_we;
            commit_gpr_reg <= (wb_kind == WB_MEM) ? ls_reg : n_gpr_reg;
            commit_gpr_half <= n_gpr_half;
            commit_gpr_count <= (wb_kind == WB_MEM && ls_bytes > 5'd4) ? ls_bytes[4:2] : 3'd1;
            commit_cc_we <= n_cc_we;
            commit_cc_reg <= n_cc_reg;
            commit_cc_data <= c_cc_data;
            if (cc_w) commit_cc_data[cc_lo +: NUM_SP*4] <= cc_merged;
            commit_a_we <= n_a_we;
            commit_a_reg <= n_a_reg;
            commit_a_data <= c_a_data;
            if (a_w) commit_a_data[a_lo +: NUM_SP*16] <= a_merged;
            commit_mem_we <= n_mem_we;
            commit_mem_space <= n_mem_space;
            commit_mem_size <= n_mem_size;
            commit_next_pc <= next_pc;
            commit_next_mask <= next_mask;
            commit_done <= done_now;
            commit_barrier <= !done_now && bar_wait;
            commit_unimpl <= unimpl;
        end
        // the lanes written in this cycle, into the record, and into the commit port if the instruction
        // retires now (after the record as it was: a later nonblocking write to the same bits wins)
        if (retire) begin
            commit_gpr_data <= c_gpr_data;
            commit_mem_lanes <= c_mem_lanes;
            commit_mem_addr <= c_mem_addr;
            commit_mem_data <= c_mem_data;
        end
        // (a lane loop: the pass's lanes as one part-select write of each vector cost Icarus 41 loads
        // and stores a cycle instead of about 160, but made Verilator's whole alu run 0.06 s slower)
        if (gpr_mask == {NUM_SP{1'b1}} && gpr_half == HALF_FULL && sh_mask == {NUM_SP{1'b0}}) begin
            // the common pass, every lane writing a full register: one write of its lanes
            c_gpr_data[lane0 * 32 +: NUM_SP*32] <= gpr_data;
            if (retire) commit_gpr_data[lane0 * 32 +: NUM_SP*32] <= gpr_data;
        end else if ((gpr_mask | sh_mask) != {NUM_SP{1'b0}})  // the loops only in a cycle that writes
            for (q = 0; q < NUM_SP; q = q + 1) begin
                if (gpr_mask[q]) begin
                    c_gpr_data[(lane0 + q) * 32 +: 32] <= (gpr_half != HALF_FULL) ? {16'd0, gpr_data[32 * q +: 16]} : gpr_data[32 * q +: 32];
                    if (retire)
                        commit_gpr_data[(lane0 + q) * 32 +: 32] <= (gpr_half != HALF_FULL) ? {16'd0, gpr_data[32 * q +: 16]} : gpr_data[32 * q +: 32];
                end
                if (sh_mask[q]) begin
                    c_mem_lanes[lane0 + q] <= 1'b1;
                    c_mem_addr[(lane0 + q) * 32 +: 32] <= sh_addr[32 * q +: 32];
                    c_mem_data[(lane0 + q) * 32 +: 32] <= sh_data[32 * q +: 32];
                    if (retire) begin
                        commit_mem_lanes[lane0 + q] <= 1'b1;
                        commit_mem_addr[(lane0 + q) * 32 +: 32] <= sh_addr[32 * q +: 32];
                        commit_mem_data[(lane0 + q) * 32 +: 32] <= sh_data[32 * q +: 32];
                    end
                end
            end
        if (sr_we != 16'd0)
            for (q = 0; q < 16; q = q + 1)
                if (sr_we[q]) begin
                    c_mem_lanes[sr_lane[5 * q +: 5]] <= 1'b1;
                    if (sr_part[2 * q +: 2] == 2'd0) c_mem_addr[{27'd0, sr_lane[5 * q +: 5]} * 32 +: 32] <= sr_addr[32 * q +: 32];
                    c_mem_data[{30'd0, sr_part[2 * q +: 2]} * 1024 + {27'd0, sr_lane[5 * q +: 5]} * 32 +: 32] <= sr_data[32 * q +: 32];
                    if (retire) begin
                        commit_mem_lanes[sr_lane[5 * q +: 5]] <= 1'b1;
                        if (sr_part[2 * q +: 2] == 2'd0) commit_mem_addr[{27'd0, sr_lane[5 * q +: 5]} * 32 +: 32] <= sr_addr[32 * q +: 32];
                        commit_mem_data[{30'd0, sr_part[2 * q +: 2]} * 1024 + {27'd0, sr_lane[5 * q +: 5]} * 32 +: 32] <= sr_data[32 * q +: 32];
                    end
                end
        if (take) begin  // a new instruction: an empty record (after this cycle's lane writes, so it wins)
            c_gpr_data <= 4096'd0; c_mem_data <= 4096'd0; c_mem_addr <= 1024'd0; c_mem_lanes <= 32'd0;
        end
    end
endmodule
