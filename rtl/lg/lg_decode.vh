// What each pipeline stage needs to know about an instruction word, as functions of the word
// alone: every stage carries the 32-bit word and decodes what it uses, so the pipeline registers
// stay a handful of buses. Built on the generated opcodes, families and field slices
// (gen/lg_isa.vh, from golden/lg/table.py); include it inside a module.
`include "lg_isa.vh"

// Each module includes all of these and uses some; each function reads only some bits of the word.
/* verilator lint_off UNUSEDSIGNAL */
/* verilator lint_off UNUSEDPARAM */

function automatic [3:0] lg_fam(input [31:0] w); lg_fam = lg_family(w[31:24]); endfunction
function automatic [7:0] lg_op(input [31:0] w); lg_op = w[31:24]; endfunction

// An illegal opcode executes as a no-operation (writes nothing, falls through): the golden model
// stops with a located error at such a word, so lock-step ends there anyway.
function automatic lg_ok(input [31:0] w); lg_ok = lg_legal(w[31:24]); endfunction

function automatic lg_is_jsr(input [31:0] w);
    lg_is_jsr = lg_op(w) == LG_OP_JSR || lg_op(w) == LG_OP_JSRR;
endfunction

// the scalar register write: ALU ops, moves and loads write a register; jsr/jsrr write R7
function automatic lg_rd_we(input [31:0] w);
    lg_rd_we = lg_ok(w) && (lg_fam(w) == LG_FAM_ALU || lg_fam(w) == LG_FAM_MOVE || lg_fam(w) == LG_FAM_LOAD || lg_is_jsr(w));
endfunction
function automatic [3:0] lg_rd_addr(input [31:0] w);
    if (lg_is_jsr(w)) lg_rd_addr = 4'd7;  // the link register
    else if (lg_fam(w) == LG_FAM_MOVE) lg_rd_addr = lg_f_rm(w);  // mov/movi write the register in 19:16
    else lg_rd_addr = lg_f_rd(w);
endfunction

// Scalar read port A: bits 19:16 (rs1, rm, base). Port B: bits 11:8 (rs2), or for a store the
// register holding the data, in 23:20.
function automatic [3:0] lg_ra(input [31:0] w); lg_ra = lg_f_rs1(w); endfunction
function automatic lg_is_store(input [31:0] w); lg_is_store = lg_ok(w) && lg_fam(w) == LG_FAM_STORE; endfunction
function automatic lg_is_load(input [31:0] w); lg_is_load = lg_ok(w) && lg_fam(w) == LG_FAM_LOAD; endfunction
function automatic [3:0] lg_rb(input [31:0] w); lg_rb = lg_is_store(w) ? lg_f_rd(w) : lg_f_rs2(w); endfunction
function automatic lg_uses_ra(input [31:0] w);
    case (lg_op(w))
        LG_OP_ADD_D, LG_OP_ADDI_D, LG_OP_ADD_F, LG_OP_ADDI_F, LG_OP_AND_D, LG_OP_ANDI_D, LG_OP_CMP, LG_OP_CMPI,
        LG_OP_LDB, LG_OP_LDW, LG_OP_STB, LG_OP_STW, LG_OP_JMP, LG_OP_JSRR: lg_uses_ra = 1'b1;
        default: lg_uses_ra = 1'b0;
    endcase
endfunction
function automatic lg_uses_rb(input [31:0] w);
    case (lg_op(w))
        LG_OP_ADD_D, LG_OP_ADD_F, LG_OP_AND_D, LG_OP_MOV, LG_OP_CMP, LG_OP_STB, LG_OP_STW, LG_OP_VCOMPMOV: lg_uses_rb = 1'b1;
        default: lg_uses_rb = 1'b0;
    endcase
endfunction

// Vector read port A: vs1 (13:8), or the register in 21:16 for vcompmov/vcompmovi (the elements
// they keep) and the graphics operations (vr). Port B: vs2 (5:0).
function automatic lg_is_gfx_vr(input [31:0] w);
    lg_is_gfx_vr = lg_ok(w) && (lg_fam(w) == LG_FAM_VERTEX || lg_fam(w) == LG_FAM_COLOR || lg_fam(w) == LG_FAM_TRANSFORM);
endfunction
function automatic lg_is_vcomp(input [31:0] w);
    lg_is_vcomp = lg_op(w) == LG_OP_VCOMPMOV || lg_op(w) == LG_OP_VCOMPMOVI;
endfunction
function automatic [5:0] lg_va(input [31:0] w);
    lg_va = (lg_is_vcomp(w) || lg_is_gfx_vr(w)) ? lg_f_vd(w) : lg_f_vs1(w);
endfunction
function automatic [5:0] lg_vb(input [31:0] w); lg_vb = lg_f_vs2(w); endfunction
function automatic lg_uses_va(input [31:0] w);
    lg_uses_va = lg_op(w) == LG_OP_VADD || lg_op(w) == LG_OP_VMOV || lg_is_vcomp(w) || lg_is_gfx_vr(w);
endfunction
function automatic lg_uses_vb(input [31:0] w); lg_uses_vb = lg_op(w) == LG_OP_VADD; endfunction
function automatic lg_vd_we(input [31:0] w); lg_vd_we = lg_ok(w) && lg_fam(w) == LG_FAM_VECTOR; endfunction

function automatic lg_cc_we(input [31:0] w); lg_cc_we = lg_ok(w) && lg_setcc(w[31:24]); endfunction
function automatic lg_is_branch(input [31:0] w); lg_is_branch = lg_ok(w) && lg_fam(w) == LG_FAM_BRANCH; endfunction
function automatic lg_is_halt(input [31:0] w); lg_is_halt = lg_ok(w) && lg_fam(w) == LG_FAM_HALT; endfunction
// the graphics unit's instructions (they act in EX, one at a time, and may hold the pipeline)
function automatic lg_is_gfx(input [31:0] w);
    lg_is_gfx = lg_is_gfx_vr(w) || (lg_ok(w) && (lg_fam(w) == LG_FAM_MATRIX || lg_fam(w) == LG_FAM_PRIMITIVE || lg_fam(w) == LG_FAM_FRAME));
endfunction

// The graphics part of a commit record, packed (lg_gfx builds it, the pipeline carries it, lg_wb
// unpacks it onto the cm_* ports). Offsets of each field:
localparam integer LG_G_MAT_WE = 0;
localparam integer LG_G_MAT = 1;  // [512]: element (i, j) at 32 * (4i + j)
localparam integer LG_G_DEPTH = 513;  // [5]
localparam integer LG_G_COL_WE = 518;
localparam integer LG_G_COL = 519;  // [24] {R, G, B}
localparam integer LG_G_VTX_WE = 543;
localparam integer LG_G_VTX_IDX = 544;  // [2]
localparam integer LG_G_VTX_X = 546;  // [32]
localparam integer LG_G_VTX_Y = 578;  // [32]
localparam integer LG_G_VTX_Z = 610;  // [16]
localparam integer LG_G_VTX_COL = 626;  // [24]
localparam integer LG_G_BEGIN = 650;
localparam integer LG_G_END = 651;
localparam integer LG_G_TYPE = 652;  // [4]
localparam integer LG_G_FRAGS = 656;  // [19]
localparam integer LG_G_W = 675;
/* verilator lint_on UNUSEDPARAM */
/* verilator lint_on UNUSEDSIGNAL */
