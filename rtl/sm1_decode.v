`timescale 1ns / 1ps
// Form, family and unit of an instruction word, from the generated table constants (rtl/gen/sm1_isa.vh).
module sm1_decode (
    input  wire [63:0] insn,   // word0 in bits 31:0; for a 32-bit instruction bits 63:32 are ignored
    output wire [6:0]  form,   // SM1_FORM_*, 0 when no form matches (illegal)
    output wire [5:0]  family, // SM1_FAM_*
    output wire [1:0]  unit,   // U_* (golden/g80/hw.py Unit): the form's functional unit
    output wire        is_long // bit 0 of word0: a 64-bit instruction
);
`include "sm_hw.vh"
`include "sm1_isa.vh"
    assign form = sm1_form_of(insn);
    assign family = sm1_family_of(form);
    assign unit = sm1_unit_of(form);
    assign is_long = insn[0];
endmodule
