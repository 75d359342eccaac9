// The SM top level and every file it needs, for the testbench's runner (tb/runner.py), the
// Makefile's lint and any simulator: `iverilog -g2012 -c rtl/sm.f`, `verilator -f rtl/sm.f`.
// Paths are relative to the repository root; `+incdir+` names an include directory.
+incdir+rtl/gen
+incdir+rtl
rtl/sm_top.v
rtl/sm_launch.v
rtl/sm_warp_sched.v
rtl/sm_exec_ctrl.v
rtl/sm_decode.v
rtl/sm_operands.v
rtl/sm_execute.v
rtl/sm1_int_alu.v
rtl/sm1_fp_alu.v
rtl/sm1_sfu.v
rtl/sm_regfile.v
rtl/sm_flagfile.v
rtl/sm_addrfile.v
rtl/sm_mem_unit.v
rtl/sm_simt.v
rtl/sm_commit.v
