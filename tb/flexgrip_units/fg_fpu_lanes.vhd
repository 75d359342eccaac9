-- LANES copies of FlexGripPlus's fpu_single side by side, as pipeline_execute instantiates them
-- (one per SP, common control), with flat std_logic_vector ports that cocotb can drive through
-- GHDL's VPI (the FPU's opcode port is an enumeration, which the VPI does not write).
-- Project test harness; the FPU itself is FlexGripPlus's, compiled unmodified from FLEXGRIP_DIR.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
library work;
use work.gpgpu_package.all;

entity fg_fpu_lanes is
  generic (LANES : natural := 32);
  port (
    clk, rst, enable : in  std_logic;
    rmode            : in  std_logic_vector(1 downto 0);
    s32, abs_en      : in  std_logic;
    set_cond         : in  std_logic_vector(2 downto 0);
    opcode           : in  std_logic_vector(2 downto 0);  -- 0 FADD, 1 FMUL, 2 FMAD, 3 CONV, 4 FSET
    subop            : in  std_logic_vector(2 downto 0);
    src1, src2, src3 : in  std_logic_vector(32 * LANES - 1 downto 0);
    result           : out std_logic_vector(32 * LANES - 1 downto 0);
    finished         : out std_logic_vector(LANES - 1 downto 0)
  );
end entity;

architecture wrap of fg_fpu_lanes is
  signal op : fpu_opcode_type;
begin
  with opcode select op <=
    FADD when "000",
    FMUL when "001",
    FMAD when "010",
    CONV when "011",
    FSET when "100",
    UNKNOWN when others;

  lanes_g : for i in 0 to LANES - 1 generate
    fpu_i : fpu_single
      port map (
        clk => clk, rst => rst, enable => enable, rmode => rmode, S32 => s32, abs_en => abs_en,
        set_cond_in => set_cond, fpu_opcode_in => op, fpu_subopcode_in => subop,
        src1_in => src1(32 * i + 31 downto 32 * i), src2_in => src2(32 * i + 31 downto 32 * i),
        src3_in => src3(32 * i + 31 downto 32 * i),
        src1_neg_in => '0', src2_neg_in => '0', src3_neg_in => '0',
        out_fp => result(32 * i + 31 downto 32 * i), stall_in => '0', finished => finished(i),
        underflow => open, overflow => open, inexact => open, exception => open, invalid => open);
  end generate;
end architecture;
