`timescale 1ns / 1ps
`include "sm_commit_port.vh"
// Free-running harness of the SM (scripts/bench_freerun.py): no Python in the loop. It replays the
// configuration-bus writes of a program (launch registers, instructions, constants, parameters)
// from a file, pulses start, serves the memory port from its own global and local memory with a
// fixed latency and no back-pressure, and at the end writes the global memory out for the script
// to compare with the golden model's. The same module runs under Icarus (bench_icarus.v drives
// the clock) and Verilator (main.cpp drives it).
//
// Files (hex, written by the script): +cfg=FILE one 56-bit word per bus write ($readmemh),
// {sel[3:0], addr[19:0], data[31:0]}, ended by sel 4'hf; +gmem=FILE 32-bit words of the initial
// global memory, one a line; +out=FILE the final global memory, one word a line. Plusargs +gwords, +lwords (sizes in words),
// +local_words (per thread), +max_cycles.
module bench_top #(
    parameter integer NUM_SP = 8,
    parameter integer LATENCY = 4,        // memory response latency in cycles (>= 1)
    parameter integer MAX_CFG = 1 << 18,  // configuration writes
    parameter integer MAX_GWORDS = 1 << 22,
    parameter integer MAX_LWORDS = 1 << 20
) (
    input  wire clk,
    output reg  running,                  // between the start pulse and done/error (the timed part)
    output reg  finished,
    // the commit port stays an output, so that no simulator drops the logic that drives it
    `SM_COMMIT_PORTS(output wire)
);
    // ---- the SM
    reg         rst_n = 1'b0, cfg_we = 1'b0, start = 1'b0;
    reg  [1:0]  cfg_sel = 2'd0;
    reg  [19:0] cfg_addr = 20'd0;
    reg  [31:0] cfg_wdata = 32'd0;
    wire        done;
    wire [3:0]  error;
    wire [23:0] error_pc;
    wire [4:0]  error_warp;
    // the memory port (docs/design/rtl.md, "Ports"): one aligned 64-byte line a request, byte enables
    localparam integer NUM_LSLOTS = 4;
    localparam integer TAGW = 14 + (NUM_LSLOTS > 1 ? $clog2(NUM_LSLOTS) : 1);
    wire         mem_req_valid, mem_req_we, mem_req_local;
    wire [31:0]  mem_req_addr;
    wire [511:0] mem_req_wdata;
    wire [63:0]  mem_req_be;
    wire [TAGW-1:0] mem_req_tag;
    reg  [LATENCY-1:0] rsp_v;             // stage i holds a response
    reg  [TAGW-1:0] rsp_tag [0:LATENCY-1];
    reg  [511:0] rsp_data [0:LATENCY-1];

    sm_top #(.NUM_SP(NUM_SP), .NUM_LSLOTS(NUM_LSLOTS)) dut (
        .clk(clk), .rst_n(rst_n), .cfg_we(cfg_we), .cfg_sel(cfg_sel), .cfg_addr(cfg_addr), .cfg_wdata(cfg_wdata),
        .start(start), .done(done), .error(error), .error_pc(error_pc), .error_warp(error_warp),
        .mem_req_valid(mem_req_valid), .mem_req_ready(1'b1), .mem_req_we(mem_req_we), .mem_req_local(mem_req_local),
        .mem_req_addr(mem_req_addr), .mem_req_be(mem_req_be), .mem_req_wdata(mem_req_wdata), .mem_req_tag(mem_req_tag),
        .mem_rsp_valid(rsp_v[LATENCY-1]), .mem_rsp_tag(rsp_tag[LATENCY-1]), .mem_rsp_data(rsp_data[LATENCY-1]),
        `SM_COMMIT_CONNECT
    );

    // ---- memories and the configuration stream. The memories are kept as 64-byte lines, the unit of
    // a request: a request reads or writes one line, not 16 words (under Icarus a memory-bound kernel
    // ran slower free-running than lock-step with a per-word and per-byte model). The global memory's
    // files are read and written a word at a time ($fscanf, $fwrite: no second copy of the memory).
    localparam integer GLINES = MAX_GWORDS / 16, LLINES = MAX_LWORDS / 16;
    reg [55:0]  cfg [0:MAX_CFG-1];
    reg [511:0] gline [0:GLINES-1];
    reg [511:0] lline [0:LLINES-1];
    integer gwords, lwords, local_words, max_cycles;
    reg [1023:0] cfg_file, gmem_file, out_file;
    integer i, j, fd, got;
    reg [31:0] gword;

    initial begin
        running = 1'b0;
        finished = 1'b0;
        if (!$value$plusargs("cfg=%s", cfg_file) || !$value$plusargs("gmem=%s", gmem_file) || !$value$plusargs("out=%s", out_file)
            || !$value$plusargs("gwords=%d", gwords) || !$value$plusargs("lwords=%d", lwords)
            || !$value$plusargs("local_words=%d", local_words)) begin
            $display("FREERUN-ERROR missing plusargs (+cfg= +gmem= +out= +gwords= +lwords= +local_words=)");
            $finish;
        end
        if (!$value$plusargs("max_cycles=%d", max_cycles)) max_cycles = 100000000;
        if (gwords > MAX_GWORDS || lwords > MAX_LWORDS) begin
            $display("FREERUN-ERROR memory larger than the harness (%0d global words of %0d, %0d local of %0d)", gwords, MAX_GWORDS, lwords, MAX_LWORDS);
            $finish;
        end
        // the lines that hold a word of the memory; their words beyond its end read zero
        for (i = 0; i < (lwords + 15) / 16; i = i + 1) lline[i] = 512'd0;
        for (i = 0; i < (gwords + 15) / 16; i = i + 1) gline[i] = 512'd0;
        rsp_v = {LATENCY{1'b0}};
        for (i = 0; i < LATENCY; i = i + 1) begin
            rsp_tag[i] = {TAGW{1'b0}}; rsp_data[i] = 512'd0;
        end
        $readmemh(cfg_file, cfg);
        if (gwords > 0) begin
            fd = $fopen(gmem_file, "r");
            for (i = 0; i < gwords; i = i + 1) begin
                got = $fscanf(fd, "%h", gword);
                if (got != 1) begin
                    $display("FREERUN-ERROR %0s: word %0d of %0d missing", gmem_file, i, gwords);
                    $finish;
                end
                gline[i / 16][32 * (i % 16) +: 32] = gword;
            end
            $fclose(fd);
        end
    end

    // ---- the sequence: reset (2 cycles), configuration writes, start, run
    integer phase = 0, k = 0, cycles = 0, commits = 0;
    always @(posedge clk) begin
        cfg_we <= 1'b0;
        start <= 1'b0;
        case (phase)
            0: begin
                k <= k + 1;
                if (k == 1) begin rst_n <= 1'b1; k <= 0; phase <= 1; end
            end
            1: if (cfg[k][55:52] == 4'hf) begin
                start <= 1'b1;
                phase <= 2;
                running <= 1'b1;
                $display("FREERUN-START");
                $fflush();
            end else begin
                cfg_we <= 1'b1;
                cfg_sel <= cfg[k][53:52];
                cfg_addr <= cfg[k][51:32];
                cfg_wdata <= cfg[k][31:0];
                k <= k + 1;
            end
            2: begin
                cycles <= cycles + 1;
                if (commit_valid) commits <= commits + 1;
                if (error != 4'd0 || done || cycles >= max_cycles) begin
                    running <= 1'b0;
                    $display("FREERUN-END");
                    $fflush();
                    $display("FREERUN cycles=%0d commits=%0d done=%0d error=%0d error_pc=%0d error_warp=%0d",
                             cycles + 1, commits + (commit_valid ? 1 : 0), done, error, error_pc, error_warp);
                    if (gwords > 0) begin
                        fd = $fopen(out_file, "w");
                        for (j = 0; j < gwords; j = j + 1) $fwrite(fd, "%h\n", gline[j / 16][32 * (j % 16) +: 32]);
                        $fclose(fd);
                    end
                    finished <= 1'b1;
                    phase <= 3;
                end
            end
            default: ;
        endcase
    end

    // ---- memory: requests accepted every cycle, read data back LATENCY cycles later. A request is
    // the 16 words of its line; only its enabled bytes must lie inside the memory (as tb/mem_agent.py).
    // The block does its work only in a cycle with a request or a response in flight (a clocked block
    // runs every cycle); a response stage's data is meaningless while its valid bit is low.
    wire [31:0]  word = mem_req_addr >> 2;
    wire [25:0]  ln = mem_req_addr[31:6];
    wire [31:0]  limit = mem_req_local ? lwords : gwords;
    integer w;
    reg [511:0] wline;
    reg [31:0]  wmask;
    always @(posedge clk) begin
        if (rsp_v != {LATENCY{1'b0}} || mem_req_valid) begin
            for (i = LATENCY - 1; i > 0; i = i - 1) begin
                rsp_v[i] <= rsp_v[i-1]; rsp_tag[i] <= rsp_tag[i-1]; rsp_data[i] <= rsp_data[i-1];
            end
            rsp_v[0] <= 1'b0;
        end
        if (mem_req_valid) begin
            if (word + 32'd16 > limit)  // the line reaches the end of the memory: its enabled words must not
                for (w = 0; w < 16; w = w + 1)
                    if (mem_req_be[4*w +: 4] != 4'd0 && word + w >= limit) begin
                        $display("FREERUN-ERROR %0s access at %h beyond the memory (%0d words)", mem_req_local ? "local" : "global",
                                 mem_req_addr + 4 * w, limit);
                        $finish;
                    end
            if (mem_req_we) begin
                // the enabled bytes of the line (the masks built here, not as continuous assigns: a
                // simulator that evaluates those every cycle paid for them in cycles without a store)
                wline = mem_req_local ? lline[ln] : gline[ln];
                for (w = 0; w < 16; w = w + 1)
                    if (mem_req_be[4*w +: 4] != 4'd0) begin
                        wmask = {{8{mem_req_be[4*w+3]}}, {8{mem_req_be[4*w+2]}}, {8{mem_req_be[4*w+1]}}, {8{mem_req_be[4*w]}}};
                        wline[32*w +: 32] = (wline[32*w +: 32] & ~wmask) | (mem_req_wdata[32*w +: 32] & wmask);
                    end
                if (mem_req_local) lline[ln] <= wline;
                else gline[ln] <= wline;
            end else begin
                rsp_v[0] <= 1'b1;
                rsp_tag[0] <= mem_req_tag;
                rsp_data[0] <= (word >= limit) ? 512'd0 : mem_req_local ? lline[ln] : gline[ln];
            end
        end
        // a finished warp slot's threads start their next block with zeroed local memory (docs/design/architecture.md,
        // "Semantics: one model, two profiles"): 32 * local_words words, 2 * local_words lines
        if (commit_valid && commit_done)
            for (w = 0; w < 2 * local_words; w = w + 1)
                lline[commit_warp * 2 * local_words + w] <= 512'd0;
    end
endmodule
