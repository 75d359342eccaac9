-- LANES copies of FlexGripPlus's combinational sfu (sfu_proc instantiates two and feeds them the
-- lanes one after the other), with flat ports for cocotb. Project test harness; the SFU is
-- FlexGripPlus's, compiled unmodified from FLEXGRIP_DIR.
library ieee;
use ieee.std_logic_1164.all;
library work;
use work.gpgpu_package.all;

entity fg_sfu_lanes is
  generic (LANES : natural := 32);
  port (
    selop  : in  std_logic_vector(2 downto 0);
    src1   : in  std_logic_vector(32 * LANES - 1 downto 0);
    result : out std_logic_vector(32 * LANES - 1 downto 0)
  );
end entity;

architecture wrap of fg_sfu_lanes is
begin
  lanes_g : for i in 0 to LANES - 1 generate
    sfu_i : sfu
      port map (src1_i => src1(32 * i + 31 downto 32 * i), selop_i => selop,
                Result_o => result(32 * i + 31 downto 32 * i));
  end generate;
end architecture;
