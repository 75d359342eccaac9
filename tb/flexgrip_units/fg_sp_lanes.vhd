-- LANES copies of FlexGripPlus's combinational scalar_processor (the integer ALU of each SP), with
-- flat ports for cocotb: the ALU opcode and instruction marker, enumerations in FlexGripPlus, are
-- given by their position in gpgpu_package's alu_opcode_type / instr_marker_type. Project test
-- harness; the scalar processor is FlexGripPlus's, compiled unmodified from FLEXGRIP_DIR.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
library work;
use work.gpgpu_package.all;

entity fg_sp_lanes is
  generic (LANES : natural := 32);
  port (
    opcode           : in  std_logic_vector(4 downto 0);
    marker           : in  std_logic_vector(2 downto 0);
    subop            : in  std_logic_vector(2 downto 0);
    src3_neg, saturate, w32, is_signed : in std_logic;
    set_cond         : in  std_logic_vector(2 downto 0);
    src1, src2, src3 : in  std_logic_vector(32 * LANES - 1 downto 0);
    carry            : in  std_logic_vector(LANES - 1 downto 0);
    result           : out std_logic_vector(32 * LANES - 1 downto 0);
    flags            : out std_logic_vector(4 * LANES - 1 downto 0)  -- per lane: O C S Z
  );
end entity;

architecture wrap of fg_sp_lanes is
  signal op : alu_opcode_type;
  signal mk : instr_marker_type;
begin
  op <= alu_opcode_type'val(to_integer(unsigned(opcode)));
  mk <= instr_marker_type'val(to_integer(unsigned(marker)));
  lanes_g : for i in 0 to LANES - 1 generate
    sp_i : scalar_processor
      port map (
        alu_opcode_in => op, instr_subop_in => subop, instr_marker_in => mk,
        src1_in => src1(32 * i + 31 downto 32 * i), src2_in => src2(32 * i + 31 downto 32 * i),
        src3_in => src3(32 * i + 31 downto 32 * i), src1_neg_in => '0', src2_neg_in => '0', src3_neg_in => src3_neg,
        carry_in => carry(i), saturate_in => saturate, w32_in => w32, is_signed_in => is_signed,
        abs_saturate_in => "00", cvt_neg_in => '0', cvt_type_in => "000", set_cond_in => set_cond,
        carry_out => flags(4 * i + 2), overflow_out => flags(4 * i + 3), sign_out => flags(4 * i + 1),
        zero_out => flags(4 * i), result_out => result(32 * i + 31 downto 32 * i));
  end generate;
end architecture;
