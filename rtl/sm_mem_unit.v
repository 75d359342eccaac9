`timescale 1ns / 1ps
// Memory unit: the shared memory (one 16 KiB window per resident block), the constant memory (16
// banks) and the global/local memory port.
//
// Shared memory is written by the launch sweep (16-byte rows: header, parameters) and by R2G
// stores (the lanes of a pass, the highest lane last); the operand slots read 4 bytes at any byte
// address of the block's window, for each lane of the pass. Each 16-byte row has a valid bit: the
// start of a round clears them all in one cycle and an invalid row reads zero, so the sweep writes
// only the header and parameter rows; a store to an invalid row zeroes the row's other bytes. Constant memory is written over the
// configuration bus and read by the operand slots.
//
// Global and local accesses (GLD, GST, LLD, LST) stream one request a cycle over the valid/ready
// port, lane after lane of the executing lanes only (and each 32-bit part of a 64/128-bit access),
// each load tagged with its load slot, lane and part; responses come back in any order and are
// written to the register file of the slot's warp as they arrive, while other warps execute. A local address is the thread's slot times the local bytes per
// thread plus the address from the address unit.
module sm_mem_unit #(
    parameter integer NUM_SP = 8,
    parameter integer NUM_WARPS = 24,
    parameter integer MAX_BLOCKS = 8,
    parameter integer CMEM_WORDS = 16384,
    parameter integer NUM_LSLOTS = 4,                          // loads with responses outstanding (each its own warp)
    localparam integer WB = $clog2(NUM_WARPS),
    localparam integer LSB = NUM_LSLOTS > 1 ? $clog2(NUM_LSLOTS) : 1,
    localparam integer TAGW = 14 + LSB,                        // request tag: slot, coalesced, line offset, part, lane
    localparam integer SR = $clog2(MAX_BLOCKS * 16384 / 16),   // shared memory rows
    localparam integer CW = $clog2(CMEM_WORDS),
    localparam integer CA = CW + 4                             // constant word address: bank and word
) (
    input  wire                 clk,
    input  wire                 rst_n,
    // configuration bus: constant words are cfg_sel 1, cfg_addr = bank << 16 | word
    input  wire                 cfg_we,
    input  wire [1:0]           cfg_sel,
    input  wire [CA-1:0]        cfg_addr,
    input  wire [31:0]          cfg_wdata,
    // shared memory: launch sweep
    input  wire                 sh_init_clear,  // a round starts: every row reads zero until written
    input  wire                 sh_init_we,
    input  wire [SR-1:0]        sh_init_row,
    input  wire [127:0]         sh_init_data,
    // shared memory: the block of the warp in execute, R2G stores of a pass
    input  wire [3:0]           cta,
    input  wire [NUM_SP-1:0]    st_mask,
    input  wire [NUM_SP*32-1:0] st_addr,
    input  wire [NUM_SP*32-1:0] st_data,
    input  wire [4:0]           st_bytes,
    // operand reads
    input  wire [NUM_SP*14-1:0] sh_addr_a, sh_addr_b, sh_addr_c,
    output wire [NUM_SP*32-1:0] sh_a, sh_b, sh_c,
    input  wire [NUM_SP*CA-1:0] cm_addr_a, cm_addr_b, cm_addr_c,
    output wire [NUM_SP*32-1:0] cm_a, cm_b, cm_c,
    // global / local accesses of the instruction in execute
    input  wire [3:0]           x_state,
    input  wire                 mem_start,    // the last pass: requests start with lane 0
    input  wire [WB-1:0]        x_warp,
    input  wire [5:0]           x_pass,
    input  wire [31:0]          x_exec,
    input  wire [4:0]           ls_bytes,
    input  wire                 ls_sgn, ls_store, ls_local,
    input  wire [6:0]           ls_reg,
    input  wire [6:0]           ls_addr_reg,
    input  wire [31:0]          local_bytes,  // per thread
    input  wire [NUM_SP-1:0]    la_mask,      // local addresses of a pass (address unit)
    input  wire [NUM_SP*32-1:0] la_addr,
    // register file: address and store data of the current lane; a half-warp's addresses and a
    // line's store data (16 words, each its own register and lane)
    output wire [WB-1:0]        rf_warp,      // the streamer's warp (not necessarily the one in execute)
    output wire [4:0]           rf_lane,
    output wire [6:0]           rf_reg_addr, rf_reg_data,
    input  wire [31:0]          rf_addr, rf_data,
    output reg  [16*7-1:0]      qa_reg, qd_reg,
    output reg  [16*5-1:0]      qa_lane, qd_lane,
    input  wire [16*32-1:0]     qa, qd,
    // memory port: a request is one aligned 64-byte line with byte enables
    output reg                  mem_req_valid,
    input  wire                 mem_req_ready,
    output reg                  mem_req_we,
    output reg                  mem_req_local,
    output reg  [31:0]          mem_req_addr,
    output reg  [63:0]          mem_req_be,
    output reg  [511:0]         mem_req_wdata,
    output reg  [TAGW-1:0]      mem_req_tag,
    input  wire                 mem_rsp_valid,
    input  wire [TAGW-1:0]      mem_rsp_tag,
    input  wire [511:0]         mem_rsp_data,
    output wire                 mem_last,     // X_MEM: the last request goes out (or no lane is left)
    output wire                 mem_drained,  // the last request has been accepted (X_MEM: the instruction went to the background)
    // load slots: allocation (sm_commit clears the slot's data), the slot of the load in execute,
    // which slots have no load outstanding, and the commit that frees a slot
    output wire                 alloc,
    output wire [LSB-1:0]       alloc_slot,
    output wire [LSB-1:0]       cur_slot,
    output wire [NUM_LSLOTS-1:0] slot_drained,
    input  wire                 cpl_fire,
    input  wire [LSB-1:0]       cpl_slot,
    // load data of a response, up to 16 words: register file and commit record
    output reg  [15:0]          ld_we,
    output wire [LSB-1:0]       ld_slot,
    output wire [WB-1:0]        ld_warp,
    output reg  [16*8-1:0]      ld_reg,
    output reg  [16*5-1:0]      ld_lane,
    output reg  [16*2-1:0]      ld_part,
    output reg  [16*32-1:0]     ld_data,
    // the words a store request writes, up to 16: commit record
    output reg  [15:0]          sr_we,
    output reg  [16*5-1:0]      sr_lane,
    output reg  [16*2-1:0]      sr_part,
    output reg  [16*32-1:0]     sr_addr,      // the lane's address (its first part's)
    output reg  [16*32-1:0]     sr_data
);
`include "sm_defs.vh"

    // ---- shared memory

    reg [7:0]                 smem [0:MAX_BLOCKS*SHARED_BYTES-1];
    reg [MAX_BLOCKS*1024-1:0] sh_valid;  // per 16-byte row
    wire [31:0] window = {28'd0, cta} * SHARED_BYTES;

    // the rows a store's bytes fall in (a 4-byte window from its address: zeroing and validating an
    // untouched invalid row does not change what it reads)
    wire [NUM_SP*SR-1:0] st_row0, st_row1;
    genvar g, k;
    generate
        for (g = 0; g < NUM_SP; g = g + 1) begin : st_rows
            /* verilator lint_off UNUSEDSIGNAL */
            wire [31:0] first = window + {18'd0, st_addr[32 * g +: 14]};
            wire [31:0] last = first + 32'd3;
            /* verilator lint_on UNUSEDSIGNAL */
            assign st_row0[SR * g +: SR] = first[SR+3:4];
            assign st_row1[SR * g +: SR] = last[SR+3:4];
        end
    endgenerate

    integer l, s;
    always @(posedge clk) begin
        if (sh_init_clear) sh_valid <= {(MAX_BLOCKS*1024){1'b0}};
        if (sh_init_we) begin
            for (l = 0; l < 16; l = l + 1) smem[{{(28-SR){1'b0}}, sh_init_row, 4'd0} + l] <= sh_init_data[8 * l +: 8];
            sh_valid[sh_init_row] <= 1'b1;
        end
        // every row a store of the pass touches is zeroed (if invalid) before any byte is written
        // (the lane loops only in a cycle with a store: a clocked block runs every cycle)
        if (st_mask != {NUM_SP{1'b0}}) begin
            for (s = 0; s < NUM_SP; s = s + 1)
                if (st_mask[s]) begin
                    if (!sh_valid[st_row0[SR * s +: SR]])
                        for (l = 0; l < 16; l = l + 1) smem[{{(28-SR){1'b0}}, st_row0[SR * s +: SR], 4'd0} + l] <= 8'd0;
                    if (!sh_valid[st_row1[SR * s +: SR]])
                        for (l = 0; l < 16; l = l + 1) smem[{{(28-SR){1'b0}}, st_row1[SR * s +: SR], 4'd0} + l] <= 8'd0;
                    sh_valid[st_row0[SR * s +: SR]] <= 1'b1;
                    sh_valid[st_row1[SR * s +: SR]] <= 1'b1;
                end
            for (s = 0; s < NUM_SP; s = s + 1)
                if (st_mask[s]) begin
                    smem[window + {18'd0, st_addr[32 * s +: 14]}] <= st_data[32 * s +: 8];
                    if (st_bytes > 5'd1) smem[window + {18'd0, st_addr[32 * s +: 14]} + 1] <= st_data[32 * s + 8 +: 8];
                    if (st_bytes > 5'd2) begin
                        smem[window + {18'd0, st_addr[32 * s +: 14]} + 2] <= st_data[32 * s + 16 +: 8];
                        smem[window + {18'd0, st_addr[32 * s +: 14]} + 3] <= st_data[32 * s + 24 +: 8];
                    end
                end
        end
    end

    // continuous reads: Icarus makes a process that indexes a large memory sensitive to each word
    generate
        for (g = 0; g < NUM_SP; g = g + 1) begin : sh_reads
            for (k = 0; k < 4; k = k + 1) begin : bytes
                /* verilator lint_off UNUSEDSIGNAL */
                wire [31:0] ba = window + {18'd0, sh_addr_a[14 * g +: 14]} + k;
                wire [31:0] bb = window + {18'd0, sh_addr_b[14 * g +: 14]} + k;
                wire [31:0] bc = window + {18'd0, sh_addr_c[14 * g +: 14]} + k;
                /* verilator lint_on UNUSEDSIGNAL */
                assign sh_a[32 * g + 8 * k +: 8] = sh_valid[ba[SR+3:4]] ? smem[ba] : 8'd0;
                assign sh_b[32 * g + 8 * k +: 8] = sh_valid[bb[SR+3:4]] ? smem[bb] : 8'd0;
                assign sh_c[32 * g + 8 * k +: 8] = sh_valid[bc[SR+3:4]] ? smem[bc] : 8'd0;
            end
        end
    endgenerate

    // ---- constant memory

    reg [31:0] cmem [0:16*CMEM_WORDS-1];
    always @(posedge clk) if (cfg_we && cfg_sel == CFG_CMEM) cmem[cfg_addr] <= cfg_wdata;
    // a word the host never wrote reads 0, as in the model (not X: kernels read banks they do not load)
    integer ck;
    initial for (ck = 0; ck < 16 * CMEM_WORDS; ck = ck + 1) cmem[ck] = 32'd0;

    generate
        for (g = 0; g < NUM_SP; g = g + 1) begin : cm_reads
            assign cm_a[32 * g +: 32] = cmem[cm_addr_a[CA * g +: CA]];
            assign cm_b[32 * g +: 32] = cmem[cm_addr_b[CA * g +: CA]];
            assign cm_c[32 * g +: 32] = cmem[cm_addr_c[CA * g +: CA]];
        end
    endgenerate

    // ---- global and local memory

    // Requests: one aligned 64-byte line each, with byte enables. A half-warp whose executing lanes
    // follow G80's coalescing rule for 4-, 8- or 16-byte words (lane k of the half takes word k of a
    // segment of 16 such words aligned to its size; ISA.md, the manual's "coalescing") goes out as
    // the segment's lines (one for 4-byte words, 2 or 4 for 8- or 16-byte words; a line with no
    // executing lane is skipped); any other access (8- and 16-bit words, local memory, scattered
    // addresses) one request per executing lane and 32-bit part. Lanes that do not execute take no
    // cycle. Responses bring the whole line back; the tag says how to spread it over lanes.
    //
    // The streamer takes a memory instruction in X_MEM when it is idle (and, for a load, a load slot
    // is free), latching what it needs (warp, lanes, size, registers), and then issues on its own. A
    // global load leaves X_MEM at once: its requests go out in the background while other warps
    // execute (their register reads do not disturb the streamer's: it reads the register file with
    // its own warp; the loading warp waits, W_LOAD, and nothing else writes its registers). A store
    // or local load stays in X_MEM until its last request is out (a store's commit record takes its
    // words; local addresses come from the passes, which the next instruction's would overwrite).
    // A global load that finds the streamer busy with another global load takes its load slot and
    // joins the queue of loads waiting for the streamer (pq: slot numbers in execute order; the
    // slot holds what the streamer needs) and leaves X_MEM as if it had started; the streamer takes
    // the queue's head in the cycle it finishes the current one, so execute goes on meanwhile
    // (without the queue such a load held the execute stage until the streamer was idle: sobel's
    // byte loads, one request a lane, spent half their cycles so). The load slots bound the queue.
    // Only a background load runs while another instruction reaches X_MEM (a store or local load
    // keeps execute), so the queue follows a global load and the port's requests stay in execute
    // order. A store or local load waits in X_MEM for an idle streamer (then the queue is empty).
    // A load holds a load slot from its start until its commit record goes out: the slot keeps what
    // its responses need (warp, register, size, sign, executing lanes) and counts the loads
    // outstanding. A store needs no slot.
    reg  [2:0]        m_part;
    reg  [31:0]       m_done;                // lanes whose requests are all out
    reg               m_started;             // the instruction in X_MEM has started
    reg               m_busy;                // the streamer has requests to make
    reg               m_bg;                  // ... for a global load, in the background
    reg  [WB-1:0]     m_warp;
    reg  [31:0]       m_exec;
    reg  [4:0]        m_bytes;
    reg               m_store, m_local;
    reg  [6:0]        m_reg, m_areg;
    reg  [LSB-1:0]    m_slot;
    reg               m_cv;                  // a coalesced half-warp is under way: its segment and next line
    reg  [31:0]       m_base;
    reg  [1:0]        m_beat;
    reg  [31:0]       m_addr [0:31];         // local address of each lane (address unit)
    reg  [LSB-1:0]    pq [0:(1<<LSB)-1];     // queued loads' slots, oldest at pq_head
    reg  [LSB-1:0]    pq_head, pq_tail;
    reg  [LSB:0]      pq_n;
    reg  [LSB-1:0]    x_slot;                // the load slot of the instruction in execute (its park)
    reg  [NUM_LSLOTS-1:0] s_busy;
    reg  [WB-1:0]     s_warp [0:NUM_LSLOTS-1];
    reg  [6:0]        s_reg [0:NUM_LSLOTS-1];
    reg  [4:0]        s_bytes [0:NUM_LSLOTS-1];
    reg               s_sgn [0:NUM_LSLOTS-1];
    reg  [31:0]       s_exec [0:NUM_LSLOTS-1];
    reg  [6:0]        s_areg [0:NUM_LSLOTS-1];  // address register (the streamer reads it from the queue)
    reg  [NUM_LSLOTS-1:0] s_queued;         // the load waits in the queue
    reg  [7:0]        s_out [0:NUM_LSLOTS-1];  // loads outstanding

    // the executing lanes not yet done, and the first of them
    wire [31:0] pend = m_busy ? m_exec & ~m_done : 32'd0;
    reg  [4:0]  m_lane;
    integer     pl;
    always @* begin
        m_lane = 5'd0;
        for (pl = 31; pl >= 0; pl = pl - 1) if (pend[pl]) m_lane = pl[4:0];
    end
    // a free slot, the lowest
    reg             free_ok;
    reg [LSB-1:0]   free_slot;
    integer         fs;
    always @* begin
        free_ok = 1'b0;
        free_slot = {LSB{1'b0}};
        for (fs = NUM_LSLOTS - 1; fs >= 0; fs = fs - 1)
            if (!s_busy[fs]) begin free_ok = 1'b1; free_slot = fs[LSB-1:0]; end
    end

    wire [31:0] xw = {{(32-WB){1'b0}}, m_warp};
    wire        blocked = mem_req_valid && !mem_req_ready;
    wire [4:0]  parts = (m_bytes > 5'd4) ? m_bytes >> 2 : 5'd1;
    wire        last_part = {2'd0, m_part} + 5'd1 >= parts;
    wire        step = !blocked && pend != 32'd0;
    // the instruction in X_MEM starts (once); a load needs a free slot, unless no lane executes
    wire        start = x_state == X_MEM && !m_started && !m_busy && (ls_store || x_exec == 32'd0 || free_ok);
    wire        bg_now = !ls_store && !ls_local;
    // ... or, a global load with executing lanes while the streamer runs another, joins the queue
    wire        enq = x_state == X_MEM && !m_started && m_busy && m_bg && bg_now && x_exec != 32'd0 && free_ok;
    wire        q_valid = pq_n != {(LSB+1){1'b0}};
    wire [LSB-1:0] q_slot = pq[pq_head];
    assign      alloc = (start && !ls_store && x_exec != 32'd0) || enq;
    assign      alloc_slot = free_slot;
    // X_MEMWAIT: a store's or local load's last request has been accepted (a background load's at
    // once); X_MEM: the instruction goes to the background now (streamer or queue) or has no lane,
    // so it needs nothing more from execute and parks (or retires) in this cycle
    assign      mem_drained = x_state == X_MEM ? (start && (bg_now || x_exec == 32'd0)) || enq : m_bg || !mem_req_valid;
    assign      cur_slot = alloc ? free_slot : x_slot;  // the load parks in the cycle it takes its slot
    assign      rf_warp = m_warp;

    assign rf_lane = m_lane;
    assign rf_reg_addr = m_areg;
    assign rf_reg_data = m_reg + {4'd0, m_part};
    wire [31:0] addr = (m_local ? (xw * 32 + {27'd0, m_lane}) * local_bytes + m_addr[m_lane] : rf_addr) + {27'd0, m_part, 2'b00};

    // coalescing: the word size (log2), the half-warp of the current lane, its segment
    wire        wide_word = !m_local && (m_bytes == 5'd4 || m_bytes == 5'd8 || m_bytes == 5'd16);
    wire [2:0]  wsh = (m_bytes == 5'd16) ? 3'd4 : (m_bytes == 5'd8) ? 3'd3 : 3'd2;
    wire        half = m_lane[4];
    wire [31:0] base_now = rf_addr - ({28'd0, m_lane[3:0]} << wsh);
    wire [31:0] seg_mask = (32'd16 << wsh) - 32'd1;
    reg         coal_now, coal, beat_any, last_beat;
    reg  [31:0] cbase, step_done;
    reg  [1:0]  cbeat;
    reg  [4:0]  lane0, wl;
    reg  [1:0]  wp;
    reg  [15:0] wen;
    integer     q;
    always @* begin
        // the half's executing lanes take consecutive words of an aligned segment, none done yet
        coal_now = wide_word && m_done[{half, 4'd0} +: 16] == 16'd0 && (base_now & seg_mask) == 32'd0;
        for (q = 0; q < 16; q = q + 1) begin
            qa_reg[7 * q +: 7] = m_areg;
            qa_lane[5 * q +: 5] = {half, q[3:0]};
            if (m_exec[{half, q[3:0]}] && qa[32 * q +: 32] != base_now + ({28'd0, q[3:0]} << wsh)) coal_now = 1'b0;
        end
        coal = m_cv || coal_now;
        cbase = m_cv ? m_base : base_now;
        cbeat = m_cv ? m_beat : 2'd0;
        last_beat = {3'd0, cbeat} == parts - 5'd1;
        // the line's words: lanes lane0.., each its parts (16 / parts lanes a line)
        lane0 = {half, 4'd0} + ({3'd0, cbeat} << (3'd6 - wsh));
        beat_any = 1'b0;
        for (q = 0; q < 16; q = q + 1) begin
            wl = lane0 + 5'(q[3:0] >> (wsh - 3'd2));
            wp = 2'(q[3:0] & 4'(parts - 5'd1));
            qd_reg[7 * q +: 7] = m_reg + {5'd0, wp};
            qd_lane[5 * q +: 5] = wl;
            wen[q] = m_exec[wl];
            if (wen[q]) beat_any = 1'b1;
        end
        step_done = 32'd0;
        if (step) begin
            if (coal) begin if (last_beat) step_done[{half, 4'd0} +: 16] = 16'hffff; end
            else if (last_part) step_done[m_lane] = 1'b1;
        end
    end
    wire issue = step && (!coal || beat_any);  // a request goes out
    wire fin = !m_busy || (step && (pend & ~step_done) == 32'd0);  // no request left after this cycle
    // the streamer's instruction ends this cycle and it takes the next load: the queue's head, or
    // (the queue empty) the one entering it now, which then skips the queue
    wire next_q = m_busy && step && fin && (q_valid || enq);
    wire push = enq && !(next_q && !q_valid);
    wire pop = next_q && q_valid;
    // X_MEM ends when the instruction starts in the background (or has no lane) or is queued, else when its last request goes out
    assign mem_last = x_state == X_MEM && (start ? bg_now || x_exec == 32'd0 : enq || (m_started && fin));

    // the words of a store request: commit record
    integer sw;
    always @* begin
        sr_we = 16'd0; sr_lane = 0; sr_part = 0; sr_addr = 0; sr_data = 0;
        if (issue && m_store) begin
            if (coal) begin
                for (sw = 0; sw < 16; sw = sw + 1) begin
                    sr_we[sw] = wen[sw];
                    sr_lane[5 * sw +: 5] = qd_lane[5 * sw +: 5];
                    sr_part[2 * sw +: 2] = 2'(sw[3:0] & 4'(parts - 5'd1));
                    sr_addr[32 * sw +: 32] = cbase + ({28'd0, qd_lane[5 * sw +: 4]} << wsh);
                    sr_data[32 * sw +: 32] = qd[32 * sw +: 32];
                end
            end else begin
                sr_we[0] = 1'b1;
                sr_lane[4:0] = m_lane;
                sr_part[1:0] = m_part[1:0];
                sr_addr[31:0] = m_local ? m_addr[m_lane] : addr;
                sr_data[31:0] = (m_bytes == 5'd1) ? {24'd0, rf_data[7:0]} : (m_bytes == 5'd2) ? {16'd0, rf_data[15:0]} : rf_data;
            end
        end
    end

    // load response: its slot
    assign ld_slot = mem_rsp_tag[14 +: LSB];

    // Whether the block below has anything to do after reset: a cycle with none of these (every
    // cycle of an ALU-only program) leaves every register of it as it is (issue, next_q and pop need
    // step, push needs enq; mem_req_valid is cleared only while set). The block tests them once, not
    // each of its conditions every cycle (about 17 variable loads a cycle under Icarus).
    wire busy_now = mem_start || step || start || enq || alloc || cpl_fire || mem_req_valid || mem_rsp_valid;
    integer a, so, bw;
    always @(posedge clk) begin
        // (the loops of this block run only in a cycle with their work: a clocked block runs every cycle)
        if (la_mask != {NUM_SP{1'b0}})
            for (a = 0; a < NUM_SP; a = a + 1)
                if (la_mask[a]) m_addr[{26'd0, x_pass} * NUM_SP + a] <= la_addr[32 * a +: 32];
        if (!rst_n) begin
            mem_req_valid <= 1'b0;
            s_busy <= {NUM_LSLOTS{1'b0}};
            m_started <= 1'b0;
            m_busy <= 1'b0;
            m_bg <= 1'b0;
            m_cv <= 1'b0;
            pq_head <= {LSB{1'b0}};
            pq_tail <= {LSB{1'b0}};
            pq_n <= {(LSB+1){1'b0}};
            s_queued <= {NUM_LSLOTS{1'b0}};
            for (so = 0; so < NUM_LSLOTS; so = so + 1) s_out[so] <= 8'd0;
        end else if (busy_now) begin
            if (mem_start) m_started <= 1'b0;
            if (step && fin) m_busy <= 1'b0;
            if (start) begin
                m_started <= 1'b1;
                m_busy <= x_exec != 32'd0;
                m_bg <= bg_now;
                m_warp <= x_warp;
                m_exec <= x_exec;
                m_bytes <= ls_bytes;
                m_store <= ls_store;
                m_local <= ls_local;
                m_reg <= ls_reg;
                m_areg <= ls_addr_reg;
                m_done <= 32'd0;
                m_part <= 3'd0;
                m_cv <= 1'b0;
                m_slot <= free_slot;
            end
            if (enq) m_started <= 1'b1;
            if (push) begin
                pq[pq_tail] <= free_slot;
                pq_tail <= pq_tail + 1'b1;
                s_queued[free_slot] <= 1'b1;
            end
            if (pop) begin
                pq_head <= pq_head + 1'b1;
                s_queued[q_slot] <= 1'b0;
            end
            if (push != pop) pq_n <= push ? pq_n + 1'b1 : pq_n - 1'b1;
            if (alloc) begin
                x_slot <= free_slot;
                s_areg[free_slot] <= ls_addr_reg;
                s_busy[free_slot] <= 1'b1;
                s_warp[free_slot] <= x_warp;
                s_reg[free_slot] <= ls_reg;
                s_bytes[free_slot] <= ls_bytes;
                s_sgn[free_slot] <= ls_sgn;
                s_exec[free_slot] <= x_exec;
            end
            if (cpl_fire) s_busy[cpl_slot] <= 1'b0;
            if (!blocked) mem_req_valid <= 1'b0;
            if (step) begin
                mem_req_we <= m_store;
                mem_req_local <= m_local;
                if (coal) begin
                    // a line of the half-warp's segment; the lanes' words in it, all four bytes
                    mem_req_valid <= beat_any;
                    mem_req_addr <= cbase + {24'd0, cbeat, 6'd0};
                    for (bw = 0; bw < 16; bw = bw + 1) begin
                        mem_req_be[4 * bw +: 4] <= wen[bw] ? 4'hf : 4'h0;
                        mem_req_wdata[32 * bw +: 32] <= qd[32 * bw +: 32];
                    end
                    mem_req_tag <= {m_store ? {LSB{1'b0}} : m_slot, 1'b1, 6'd0, 2'd0, lane0};
                    m_cv <= !last_beat;
                    m_base <= cbase;
                    m_beat <= cbeat + 2'd1;
                    if (last_beat) m_done[{half, 4'd0} +: 16] <= 16'hffff;
                end else begin
                    // one lane's 32-bit part: its bytes in the line
                    mem_req_valid <= 1'b1;
                    mem_req_addr <= {addr[31:6], 6'd0};
                    mem_req_be <= ((m_bytes == 5'd1) ? 64'h1 : (m_bytes == 5'd2) ? 64'h3 : 64'hf) << addr[5:0];
                    mem_req_wdata <= {480'd0, rf_data} << (8 * addr[5:0]);
                    mem_req_tag <= {m_store ? {LSB{1'b0}} : m_slot, 1'b0, addr[5:0], m_part[1:0], m_lane};
                    if (!last_part) m_part <= m_part + 3'd1;
                    else begin
                        m_part <= 3'd0;
                        m_done[m_lane] <= 1'b1;
                    end
                end
            end
            // the streamer's next load (after the request's updates: it starts with no lane done)
            if (next_q) begin
                m_busy <= 1'b1;
                m_bg <= 1'b1;
                m_store <= 1'b0;
                m_local <= 1'b0;
                m_warp <= q_valid ? s_warp[q_slot] : x_warp;
                m_exec <= q_valid ? s_exec[q_slot] : x_exec;
                m_bytes <= q_valid ? s_bytes[q_slot] : ls_bytes;
                m_reg <= q_valid ? s_reg[q_slot] : ls_reg;
                m_areg <= q_valid ? s_areg[q_slot] : ls_addr_reg;
                m_slot <= q_valid ? q_slot : free_slot;
                m_done <= 32'd0;
                m_part <= 3'd0;
                m_cv <= 1'b0;
            end
            // outstanding loads of each slot: + a load request, - a response
            if (alloc || (issue && !m_store) || mem_rsp_valid)
                for (so = 0; so < NUM_LSLOTS; so = so + 1)
                    if (alloc && free_slot == so[LSB-1:0]) s_out[so] <= 8'd0;
                    else s_out[so] <= s_out[so] + ((issue && !m_store && m_slot == so[LSB-1:0]) ? 8'd1 : 8'd0)
                                                - ((mem_rsp_valid && ld_slot == so[LSB-1:0]) ? 8'd1 : 8'd0);
        end
    end
    genvar sz;
    generate
        for (sz = 0; sz < NUM_LSLOTS; sz = sz + 1) begin : slot_zero
            // no load outstanding, and the streamer has none left to make for it
            assign slot_drained[sz] = s_out[sz] == 8'd0 && !(m_busy && !m_store && m_slot == sz[LSB-1:0]) && !s_queued[sz];
        end
    endgenerate

    // load response: a coalesced line spreads over its lanes and parts (its executing lanes); any
    // other brings one lane's part: its bytes at the tag's line offset, extended
    assign ld_warp = s_warp[ld_slot];
    wire        r_coal = mem_rsp_tag[13];
    wire [5:0]  r_off = mem_rsp_tag[12:7];
    wire [1:0]  r_part = mem_rsp_tag[6:5];
    wire [4:0]  r_lane = mem_rsp_tag[4:0];
    wire [4:0]  r_bytes = s_bytes[ld_slot];
    wire [2:0]  r_wsh = (r_bytes == 5'd16) ? 3'd4 : (r_bytes == 5'd8) ? 3'd3 : 3'd2;
    wire [1:0]  r_pmask = (r_bytes == 5'd16) ? 2'd3 : (r_bytes == 5'd8) ? 2'd1 : 2'd0;
    wire [31:0] r_exec = s_exec[ld_slot];
    wire [6:0]  r_reg = s_reg[ld_slot];
    reg  [31:0] rsp;
    reg  [4:0]  rl;
    integer     rw;
    always @* begin
        ld_we = 16'd0; ld_reg = 0; ld_lane = 0; ld_part = 0; ld_data = 0; rsp = 32'd0; rl = 5'd0;
        if (r_coal) begin
            for (rw = 0; rw < 16; rw = rw + 1) begin
                rl = r_lane + 5'(rw[3:0] >> (r_wsh - 3'd2));
                ld_we[rw] = mem_rsp_valid && r_exec[rl];
                ld_lane[5 * rw +: 5] = rl;
                ld_part[2 * rw +: 2] = rw[1:0] & r_pmask;
                ld_reg[8 * rw +: 8] = {1'b0, r_reg} + {6'd0, rw[1:0] & r_pmask};
                ld_data[32 * rw +: 32] = mem_rsp_data[32 * rw +: 32];
            end
        end else begin
            rsp = 32'(mem_rsp_data >> (8 * r_off));
            ld_we[0] = mem_rsp_valid;
            ld_lane[4:0] = r_lane;
            ld_part[1:0] = r_part;
            ld_reg[7:0] = {1'b0, r_reg} + {6'd0, r_part};
            if (r_bytes == 5'd1) ld_data[31:0] = s_sgn[ld_slot] ? {{24{rsp[7]}}, rsp[7:0]} : {24'd0, rsp[7:0]};
            else if (r_bytes == 5'd2) ld_data[31:0] = s_sgn[ld_slot] ? {{16{rsp[15]}}, rsp[15:0]} : {16'd0, rsp[15:0]};
            else ld_data[31:0] = rsp;
        end
    end
endmodule
