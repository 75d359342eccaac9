// The LG core and every file it needs, for the testbench's runner (tb/runner.py), the Makefile's
// lint and any simulator: `iverilog -g2012 -c rtl/lg/lg.f`, `verilator -f rtl/lg/lg.f`.
// Paths are relative to the repository root.
+incdir+rtl/lg/gen
+incdir+rtl/lg
rtl/lg/lg_core.v
rtl/lg/lg_if.v
rtl/lg/lg_id.v
rtl/lg/lg_ex.v
rtl/lg/lg_gfx.v
rtl/lg/lg_mem.v
rtl/lg/lg_wb.v
rtl/lg/lg_regfile.v
rtl/lg/lg_vregfile.v
