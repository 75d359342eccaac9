-- LANES copies of FlexGripPlus's rro (combinational; rro_proc instantiates two and feeds them the
-- lanes one after the other), with flat ports for cocotb. Project test harness; the RRO is
-- FlexGripPlus's, compiled unmodified from FLEXGRIP_DIR.
library ieee;
use ieee.std_logic_1164.all;
library work;
use work.gpgpu_package.all;

entity fg_rro_lanes is
  generic (LANES : natural := 32);
  port (
    selop  : in  std_logic_vector(2 downto 0);  -- bit 0: selec_phase (1: RRO.EX2, 0: RRO.SINCOS)
    src1   : in  std_logic_vector(32 * LANES - 1 downto 0);
    result : out std_logic_vector(32 * LANES - 1 downto 0)
  );
end entity;

architecture wrap of fg_rro_lanes is
begin
  lanes_g : for i in 0 to LANES - 1 generate
    rro_i : rro
      port map (clk_i => '0', reset_n => '1', start => '0', selec_phase => selop(0),
                input => src1(32 * i + 31 downto 32 * i), stall => open, Result => result(32 * i + 31 downto 32 * i));
  end generate;
end architecture;
