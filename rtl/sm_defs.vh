// Encodings shared by the SM's modules (docs/design/rtl.md, "Modules"); those the testbench shares too come from
// golden/g80/hw.py through the generated sm_hw.vh. A module uses a few of them; the rest are
// unused there by design, hence the lint pragma.
`include "sm_hw.vh"  // shared with the testbench: micro-ops, units, write-back kinds, error codes (golden/g80/hw.py)

/* verilator lint_off UNUSEDPARAM */

localparam integer SHARED_BYTES = 16384;  // shared memory per block

// operand kinds of the decode bundle's slots A, B, C (sm_decode)
localparam [3:0] K_NONE = 4'd0, K_REG = 4'd1, K_HALF = 4'd2, K_SHARED = 4'd3, K_CONST = 4'd4, K_IMM = 4'd5,
                 K_CREG = 4'd6, K_AREG = 4'd7, K_SREG = 4'd8;

// warp states (sm_warp_sched)
localparam [2:0] W_FREE = 3'd0, W_READY = 3'd1, W_BUSY = 3'd2, W_BAR = 3'd3, W_DONE = 3'd4,
                 W_LOAD = 3'd5;  // a parked load's data is outstanding

// SIMT stack entry kinds (ISA.md 6.2)
localparam [1:0] E_BRANCH = 2'd0, E_CALL = 2'd1, E_BREAK = 2'd2, E_JOINAT = 2'd3;

// states of the instruction in execute (sm_exec_ctrl)
localparam [3:0] X_IDLE = 4'd0, X_PASS = 4'd1, X_MEM = 4'd2, X_MEMWAIT = 4'd3, X_CTRL = 4'd4, X_MARK = 4'd5,
                 X_UNWIND = 4'd6, X_COMMIT = 4'd7, X_HALT = 4'd8;

/* verilator lint_on UNUSEDPARAM */
