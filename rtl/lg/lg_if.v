// IF: the PC and the instruction memory; writes the IF/ID register.
// The instruction memory is loaded at time 0 with $readmemh from the file of +imem=PATH (one
// 32-bit word a line, instruction i at byte address 4*i), so one build runs every program.
// +ilen=N is the program's length in instructions: fetching stops at a PC outside 0..4*(N-1)
// (the program "runs off the end"); the instruction whose next PC leaves it commits with done.
module lg_if #(
    parameter integer IMEM_WORDS = 16384  // the whole byte-PC space: 2^16 / 4
) (
    input  wire        clk,
    input  wire        rst,
    input  wire        hold,      // load-use stall in ID or graphics busy in EX: keep PC and IF/ID
    input  wire        redirect,  // a taken branch or jump in EX: fetch from target, drop IF/ID
    input  wire [15:0] target,
    input  wire        stop,      // halt in EX: fetch nothing more, drop IF/ID
    output wire [31:0] prog_words,
    output reg         ifid_valid,
    output reg  [15:0] ifid_pc,
    output reg  [31:0] ifid_insn
);
    reg [31:0] imem [0:IMEM_WORDS-1];
    reg [31:0] ilen;
    reg [15:0] pc;
    reg        halted;
    reg [8*512-1:0] path;
    integer i;

    initial begin
        for (i = 0; i < IMEM_WORDS; i = i + 1) imem[i] = 32'h0;
        ilen = IMEM_WORDS;
        if ($value$plusargs("imem=%s", path)) $readmemh(path, imem);
        else $display("lg_core: no program: give +imem=PATH (a $readmemh file of 32-bit instruction words)");
        if ($value$plusargs("ilen=%d", ilen) && ilen > IMEM_WORDS) begin
            $display("lg_core: +ilen=%0d is more than the instruction memory's %0d words: build with a larger IMEM_WORDS", ilen, IMEM_WORDS);
            ilen = IMEM_WORDS;
        end
    end
    assign prog_words = ilen;

    // a PC inside the program: word aligned and below +ilen
    wire in_prog = pc[1:0] == 2'b00 && {18'b0, pc[15:2]} < ilen;
    wire [31:0] word = imem[pc[15:2]];

    always @(posedge clk) begin
        if (rst) begin
            pc <= 16'h0;
            halted <= 1'b0;
            ifid_valid <= 1'b0;
            ifid_pc <= 16'h0;
            ifid_insn <= 32'h0;
        end else if (redirect || stop) begin
            pc <= target;
            halted <= halted | stop;
            ifid_valid <= 1'b0;
        end else if (!hold) begin
            if (in_prog && !halted) begin
                pc <= pc + 16'd4;
                ifid_valid <= 1'b1;
                ifid_pc <= pc;
                ifid_insn <= word;
            end else begin
                ifid_valid <= 1'b0;
            end
        end
    end
endmodule
