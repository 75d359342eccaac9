"""FlexGripPlus's own units (FPU, SFU, RRO, scalar processor) under GHDL, compared with the flexgrip profile's arithmetic."""
