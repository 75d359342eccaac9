-- Cocotb top level for FlexGripPlus 4.4 (this project's own file; FlexGripPlus is read from
-- $FLEXGRIP_DIR, never copied). It instantiates FlexGripPlus's top `gpgpu_ml605_top_level`
-- without FlexGripPlus's testbench and passes its host ports through: configuration registers,
-- instruction, constant and global memory port A, kernel_done. The commit monitor reads
-- FlexGripPlus's internal signals through GHDL's VPI (tb/flexgrip_commit.py, Probe): GHDL 2.0
-- cannot elaborate VHDL-2008 external names, so a VHDL probe here is not possible.
library ieee;
use ieee.std_logic_1164.all;
use ieee.numeric_std.all;
use work.gpgpu_package.all;

entity fg_top is
	port(
		clk                 : in  std_logic;
		reset               : in  std_logic;
		-- host side of FlexGripPlus (what its testbench drives)
		block_scheduler_en  : in  std_logic;
		kernel_done         : out std_logic;
		gmem_cntrl_en       : in  std_logic;
		cmem_cntrl_en       : in  std_logic;
		sysmem_cntrl_en     : in  std_logic;
		config_cntrl_en     : in  std_logic;
		config_cs           : in  std_logic;
		config_rw           : in  std_logic;
		config_adr          : in  std_logic_vector(31 downto 0);
		config_wr_data      : in  std_logic_vector(31 downto 0);
		gmem_addr           : in  std_logic_vector(17 downto 0);
		gmem_wr_data        : in  std_logic_vector(7 downto 0);
		gmem_wr_en          : in  std_logic;
		gmem_rd_data        : out std_logic_vector(7 downto 0);
		cmem_addr           : in  std_logic_vector(12 downto 0);
		cmem_wr_data        : in  std_logic_vector(7 downto 0);
		cmem_wr_en          : in  std_logic;
		sysmem_addr         : in  std_logic_vector(17 downto 0);
		sysmem_wr_data      : in  std_logic_vector(31 downto 0);
		sysmem_wr_en        : in  std_logic
	);
end fg_top;

architecture probe of fg_top is
begin
	u_gpu : entity work.gpgpu_ml605_top_level
		generic map(GMEM_ADDR_SIZE => 18, CMEM_ADDR_SIZE => 13, SYSMEM_ADDR_SIZE => 18, SHMEM_ADDR_SIZE => 14)
		port map(
			sys_clk                  => clk,
			host_reset               => reset,
			block_scheduler_en       => block_scheduler_en,
			kernel_done              => kernel_done,
			smp_done_signal          => open,
			gmem_cntrl_en_in         => gmem_cntrl_en,
			cmem_cntrl_en_in         => cmem_cntrl_en,
			sysmem_cntrl_en_in       => sysmem_cntrl_en,
			gpgpu_config_cntrl_en_in => config_cntrl_en,
			gpgpu_config_top_cs      => config_cs,
			gpgpu_config_top_rw      => config_rw,
			gpgpu_config_top_adr     => config_adr,
			gpgpu_config_top_rd_data => open,
			gpgpu_config_top_wr_data => config_wr_data,
			gmem_wr_data_a_in        => gmem_wr_data,
			gmem_addr_a_in           => gmem_addr,
			gmem_wr_en_a_in          => gmem_wr_en,
			gmem_rd_data_a_out       => gmem_rd_data,
			gmem_wr_data_b_in        => (others => '0'),
			gmem_addr_b_in           => (others => '0'),
			gmem_wr_en_b_in          => '0',
			gmem_rd_data_b_out       => open,
			cmem_wr_data_a_in        => cmem_wr_data,
			cmem_addr_a_in           => cmem_addr,
			cmem_wr_en_a_in          => cmem_wr_en,
			cmem_rd_data_a_out       => open,
			cmem_wr_data_b_in        => (others => '0'),
			cmem_addr_b_in           => (others => '0'),
			cmem_wr_en_b_in          => '0',
			cmem_rd_data_b_out       => open,
			sysmem_wr_data_a_in      => sysmem_wr_data,
			sysmem_addr_a_in         => sysmem_addr,
			sysmem_wr_en_a_in        => sysmem_wr_en,
			sysmem_rd_data_a_out     => open,
			sysmem_wr_data_b_in      => (others => '0'),
			sysmem_addr_b_in         => (others => '0'),
			sysmem_wr_en_b_in        => '0',
			sysmem_rd_data_b_out     => open
		);

end probe;
