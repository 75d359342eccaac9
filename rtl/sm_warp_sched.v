`timescale 1ns / 1ps
// Warp table, round-robin scheduler and fetch.
//
// The table holds each warp slot's state, block, PC, active lanes and commit sequence number.
// While the execute stage works on one instruction, fetch picks the next ready warp after the
// last one picked (round-robin) and reads its 64-bit instruction word pair from the instruction
// memory into a one-entry buffer; the warp is busy until its instruction retires, so one
// instruction per warp is in flight. A load that parks (sm_exec_ctrl) leaves its warp waiting for
// its data (W_LOAD) until its record goes out (`cpl_*`), when the warp takes its next state. The SIMT unit rewrites the PC and active lanes of the warp in
// execute, the commit unit its state and sequence number, the barrier unit releases waiting warps.
module sm_warp_sched #(
    parameter integer NUM_WARPS = 24,
    parameter integer IMEM_WORDS = 16384,
    localparam integer WB = $clog2(NUM_WARPS),
    localparam integer IW = $clog2(IMEM_WORDS)
) (
    input  wire                   clk,
    input  wire                   rst_n,
    // configuration bus: instruction words are cfg_sel 0
    input  wire                   cfg_we,
    input  wire [1:0]             cfg_sel,
    input  wire [IW-1:0]          cfg_addr,
    input  wire [31:0]            cfg_wdata,
    input  wire                   run,             // fetch may issue
    // launch sweep: one warp slot of the round a cycle
    input  wire                   init_we,
    input  wire [WB-1:0]          init_warp,
    input  wire [3:0]             init_cta,
    input  wire [31:0]            init_active,
    // fetch buffer, and the warp table entries of its warp
    output reg                    f_valid,
    output reg  [WB-1:0]          f_warp,
    output reg  [63:0]            f_insn,
    output wire [23:0]            f_pc,
    output wire [31:0]            f_active,
    input  wire                   take,            // the execute stage takes the fetched instruction
    // the warp in execute
    input  wire [WB-1:0]          x_warp,
    output wire [23:0]            x_warp_pc,
    output wire [31:0]            x_warp_active,
    output wire [3:0]             x_warp_cta,
    output wire [31:0]            x_warp_seq,
    input  wire                   pc_we,           // SIMT unit
    input  wire [23:0]            pc_next,
    input  wire                   active_we,
    input  wire [31:0]            active_next,
    input  wire                   retire,          // commit: the warp's next state, sequence number + 1
    input  wire [2:0]             retire_state,
    input  wire                   park,            // the load in execute waits for its data
    input  wire                   cpl_we,          // a parked load's record goes out: its warp's next state, sequence number + 1
    input  wire [WB-1:0]          cpl_warp,
    input  wire [2:0]             cpl_state,
    // barrier unit
    output reg  [NUM_WARPS-1:0]   warp_live,       // not free and not finished
    output wire                   any_live,
    output reg  [NUM_WARPS-1:0]   warp_bar,        // waiting at a barrier
    output reg  [4*NUM_WARPS-1:0] warp_cta,
    input  wire [NUM_WARPS-1:0]   release_bar,
    // SIMT unit: is the instruction at this PC a 64-bit one
    input  wire [23:0]            probe_pc,
    output wire                   probe_long
);
`include "sm_defs.vh"

    reg [31:0] imem [0:IMEM_WORDS-1];
    always @(posedge clk) if (cfg_we && cfg_sel == CFG_IMEM) imem[cfg_addr] <= cfg_wdata;

    // A warp's state (W_*) is kept as one bit per warp in three vectors, the only questions asked
    // of it: ready to be fetched, live (neither free nor done) and waiting at a barrier. Written a
    // bit at a time for the warp concerned, read as whole vectors: an event-driven simulator does
    // no per-warp loop in any cycle (docs/design/rtl.md, "Simulators").
    reg [NUM_WARPS-1:0] w_ready;  // warp_live and warp_bar (ports) are the other two
    reg [WB-1:0]        rr;
    reg [23:0] w_pc [0:NUM_WARPS-1];
    reg [31:0] w_active [0:NUM_WARPS-1];
    reg [31:0] w_seq [0:NUM_WARPS-1];

    assign f_pc = w_pc[f_warp];
    assign f_active = w_active[f_warp];
    assign x_warp_pc = w_pc[x_warp];
    assign x_warp_active = w_active[x_warp];
    assign x_warp_cta = warp_cta[4 * x_warp +: 4];
    assign x_warp_seq = w_seq[x_warp];
    assign probe_long = imem[IW'(probe_pc >> 2)][0];

    assign any_live = warp_live != {NUM_WARPS{1'b0}};

    // the first ready warp from rr on; the warp in execute counts as ready in the cycle it retires
    // to the ready state, and is fetched at its next PC (a single warp does not wait for its own
    // state and PC to be written back). The ready vector is rotated right by rr, its lowest set bit
    // isolated (v & -v) and numbered (NUM_WARPS <= 32: five fixed masks), rr added back.
    wire [NUM_WARPS-1:0] retiring = (retire && retire_state == W_READY) ? NUM_WARPS'(1) << x_warp : {NUM_WARPS{1'b0}};
    wire [NUM_WARPS-1:0] ready = w_ready | retiring;
    wire                 pick_ok = ready != {NUM_WARPS{1'b0}};
    /* verilator lint_off UNUSEDSIGNAL */
    wire [2*NUM_WARPS-1:0] rot2 = {ready, ready} >> rr;  // the high half is not needed
    /* verilator lint_on UNUSEDSIGNAL */
    wire [31:0] rot = {{(32-NUM_WARPS){1'b0}}, rot2[NUM_WARPS-1:0]};
    wire [31:0] first = rot & (~rot + 32'd1);
    wire [5:0]  step = {1'b0, |(first & 32'hffff0000), |(first & 32'hff00ff00), |(first & 32'hf0f0f0f0),
                        |(first & 32'hcccccccc), |(first & 32'haaaaaaaa)};
    wire [5:0]  pick_sum = {{(6-WB){1'b0}}, rr} + step;
    wire [WB-1:0] pick = WB'(pick_sum >= 6'(NUM_WARPS) ? pick_sum - 6'(NUM_WARPS) : pick_sum);
    wire [23:0] pick_pc = (pick == x_warp && pc_we) ? pc_next : w_pc[pick];
    // the buffer refills in the cycle the execute stage takes it (the warp in execute is busy until then)
    wire fetch = run && (!f_valid || take) && pick_ok;

    // a warp's state bits from its W_* code
    task set_state;
        input [WB-1:0] w;
        input [2:0]    state;
        begin
            w_ready[w] <= state == W_READY;
            warp_live[w] <= state != W_FREE && state != W_DONE;
            warp_bar[w] <= state == W_BAR;
        end
    endtask

    // Whether the block below has anything to do after reset: in a cycle with none of these (most
    // cycles: an instruction takes several passes) it leaves every register as it is. The block
    // tests this once, not each of its conditions every cycle (about 10 variable loads a cycle
    // under Icarus).
    wire busy_now = init_we || take || fetch || pc_we || active_we || retire || park || cpl_we || release_bar != {NUM_WARPS{1'b0}};
    integer i;
    always @(posedge clk) begin
        if (!rst_n) begin
            f_valid <= 1'b0;
            rr <= {WB{1'b0}};
            w_ready <= {NUM_WARPS{1'b0}};  // every slot free
            warp_live <= {NUM_WARPS{1'b0}};
            warp_bar <= {NUM_WARPS{1'b0}};
        end else if (busy_now) begin
            if (init_we) begin
                set_state(init_warp, W_READY);
                w_pc[init_warp] <= 24'd0;
                w_active[init_warp] <= init_active;
                warp_cta[4 * init_warp +: 4] <= init_cta;
                w_seq[init_warp] <= 32'd0;
                rr <= {WB{1'b0}};
            end
            if (take) f_valid <= 1'b0;
            if (fetch) begin
                f_valid <= 1'b1;
                f_warp <= pick;
                f_insn <= {imem[IW'((pick_pc >> 2) + 24'd1)], imem[IW'(pick_pc >> 2)]};
                rr <= (pick == WB'(NUM_WARPS - 1)) ? {WB{1'b0}} : pick + 1'b1;
            end
            if (pc_we) w_pc[x_warp] <= pc_next;
            if (active_we) w_active[x_warp] <= active_next;
            if (retire) begin
                set_state(x_warp, retire_state);
                w_seq[x_warp] <= w_seq[x_warp] + 32'd1;
            end
            if (park) set_state(x_warp, W_LOAD);
            if (cpl_we) begin
                set_state(cpl_warp, cpl_state);
                w_seq[cpl_warp] <= w_seq[cpl_warp] + 32'd1;
            end
            if (fetch) set_state(pick, W_BUSY);  // after retire: the retiring warp may be fetched again at once
            if (release_bar != {NUM_WARPS{1'b0}})  // only in the cycle a barrier opens
                for (i = 0; i < NUM_WARPS; i = i + 1)
                    if (release_bar[i]) set_state(WB'(i), W_READY);
        end
    end
endmodule
