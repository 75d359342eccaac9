"""The Fermi model's per-warp control flow: divergence and reconvergence, loops, calls, exits,
barriers and votes. Each program's expected output is computed lane by lane in Python from what
the program means, and where it matters the commit records' masks are checked against the masks
the stack rules (docs/design/fermi-model.md) give."""

from __future__ import annotations

from fermi_build import ins, place

from golden.fermi.model import FermiError, Machine

M32 = 0xFFFFFFFF


def launch(prog: list, block: int = 32, mem: int = 0x1000, shared: int = 0, grid: int = 1) -> Machine:
    m = Machine()
    m.launch(place(prog), grid=grid, block=block, global_mem=bytes(mem), shared_size=shared)
    return m


def out(m: Machine, n: int = 32, at: int = 0) -> list[int]:
    return [int(v) for v in m.mem.glob[at : at + 4 * n].view("<u4")]


TID = [ins("S2R", "R0", "SR_TID.X"), ins("ISCADD", "R11", "R0", "RZ", "0x2")]


def test_if_else_reconverges_at_the_ssy_address() -> None:
    # if (tid & 1) r = 10 + tid; else r = 20; then r += 100 with all lanes reconverged
    prog = [
        *TID,                                                         # 0x00 0x08
        ins("LOP", "R1", "R0", "0x1", mods=("AND",)),                 # 0x10
        ins("ISETP", "P0", "PT", "R1", "RZ", "PT", mods=("NE", "AND")),  # 0x18
        ins("SSY", "@0x50"),                                          # 0x20
        ins("BRA", "@0x40", guard="!P0"),                             # 0x28
        ins("IADD", "R2", "R0", "0xa", mods=("S",)),                  # 0x30 then side, sync
        ins("NOP"),                                                   # 0x38 never reached
        ins("MOV", "R2", "0x14", mods=("S",)),                        # 0x40 else side, sync
        ins("NOP"),                                                   # 0x48 never reached
        ins("IADD", "R2", "R2", "0x64"),                              # 0x50 join
        ins("ST", "[R11]", "R2"),
        ins("EXIT"),
    ]  # fmt: skip
    m = launch(prog)
    recs = m.run()
    assert out(m) == [t + 110 if t & 1 else 120 for t in range(32)]
    odd, even = 0xAAAAAAAA, 0x55555555
    by_pc = {r.pc: r for r in recs}
    bra = by_pc[0x28]
    # the guard !P0 holds in the even lanes: they take the branch and run first (diverge_first)
    assert (bra.active_mask, bra.exec_mask, bra.next_pc, bra.next_mask) == (M32, even, 0x40, even)
    els = by_pc[0x40]
    assert (els.active_mask, els.next_pc, els.next_mask) == (even, 0x30, odd)
    then = by_pc[0x30]
    assert (then.active_mask, then.next_pc, then.next_mask) == (odd, 0x50, M32)
    assert 0x38 not in by_pc and 0x48 not in by_pc
    assert by_pc[0x50].active_mask == M32


def test_uniform_branch_does_not_diverge() -> None:
    prog = [*TID, ins("BRA", "@0x20"), ins("MOV", "R2", "0x1"), ins("MOV", "R2", "0x2"), ins("ST", "[R11]", "R2"), ins("EXIT")]
    m = launch(prog)
    recs = m.run()
    assert out(m) == [2] * 32
    assert all(r.active_mask == M32 for r in recs)


def test_loop_with_break_per_lane_trip_counts() -> None:
    # i = 0; loop { if (i == tid % 5) break; i += 1; acc += i } ; out = acc * 256 + i
    prog = [
        *TID,                                                          # 0x00 0x08
        ins("MOV", "R1", "RZ"),                                        # 0x10 i
        ins("MOV", "R2", "RZ"),                                        # 0x18 acc
        ins("LOP", "R3", "R0", "0x3", mods=("AND",)),                  # 0x20 limit = tid & 3
        ins("IADD", "R3", "R3", "0x1"),                                # 0x28 limit + 1
        ins("PBK", "@0x60"),                                           # 0x30
        ins("ISETP", "P0", "PT", "R1", "R3", "PT", mods=("EQ", "AND")),  # 0x38 loop top
        ins("BRK", guard="P0"),                                        # 0x40
        ins("IADD", "R1", "R1", "0x1"),                                # 0x48
        ins("IADD", "R2", "R2", "R1"),                                 # 0x50
        ins("BRA", "@0x38"),                                           # 0x58
        ins("ISCADD", "R4", "R2", "R1", "0x8"),                        # 0x60 after the loop
        ins("ST", "[R11]", "R4"),
        ins("EXIT"),
    ]  # fmt: skip
    m = launch(prog)
    recs = m.run()
    want = []
    for t in range(32):
        n = (t & 3) + 1
        want.append(sum(range(1, n + 1)) * 256 + n)
    assert out(m) == want
    after = [r for r in recs if r.pc == 0x60]
    assert len(after) == 1 and after[0].active_mask == M32


def test_break_unwinds_through_a_nested_ssy() -> None:
    # inside the loop an if/else (SSY) whose then side breaks for some lanes; those lanes must not
    # come back at the SSY's join: out counts how many times each lane passed the join
    prog = [
        *TID,                                                          # 0x00 0x08
        ins("MOV", "R1", "RZ"),                                        # 0x10 iteration
        ins("MOV", "R2", "RZ"),                                        # 0x18 joins passed
        ins("PBK", "@0x78"),                                           # 0x20
        ins("ISETP", "P0", "PT", "R1", "R0", "PT", mods=("GE", "U32", "AND")),  # 0x28 i >= tid
        ins("SSY", "@0x58"),                                           # 0x30
        ins("BRA", "@0x50", guard="!P0"),                              # 0x38
        ins("BRK"),                                                    # 0x40 then: break
        ins("NOP"),                                                    # 0x48
        ins("NOP", mods=("S",)),                                       # 0x50 else: sync
        ins("IADD", "R2", "R2", "0x1"),                                # 0x58 join
        ins("IADD", "R1", "R1", "0x1"),                                # 0x60
        ins("ISETP", "P1", "PT", "R1", "0x40", "PT", mods=("LT", "AND")),  # 0x68 a bound
        ins("BRA", "@0x28", guard="P1"),                               # 0x70
        ins("ST", "[R11]", "R2"),                                      # 0x78 after the loop
        ins("EXIT"),
    ]  # fmt: skip
    m = launch(prog, block=8)
    m.run()
    assert out(m, 8) == list(range(8))  # lane t passes the join t times, then breaks at i = t


def test_continue_skips_the_rest_of_the_body() -> None:
    # for i in 0..7: PCNT; if (i & tid) continue; acc += i  -> acc = sum of i with i & tid == 0
    prog = [
        *TID,                                                          # 0x00 0x08
        ins("MOV", "R1", "RZ"),                                        # 0x10 i
        ins("MOV", "R2", "RZ"),                                        # 0x18 acc
        ins("PCNT", "@0x48"),                                          # 0x20 loop top
        ins("LOP", "R3", "R1", "R0", mods=("AND",)),                   # 0x28
        ins("ISETP", "P0", "PT", "R3", "RZ", "PT", mods=("NE", "AND")),  # 0x30
        ins("CONT", guard="P0"),                                       # 0x38
        ins("IADD", "R2", "R2", "R1", mods=("S",)),                    # 0x40 acc += i, then sync
        ins("IADD", "R1", "R1", "0x1"),                                # 0x48 continue target
        ins("ISETP", "P1", "PT", "R1", "0x8", "PT", mods=("LT", "AND")),  # 0x50
        ins("BRA", "@0x20", guard="P1"),                               # 0x58
        ins("ST", "[R11]", "R2"),                                      # 0x60
        ins("EXIT"),
    ]  # fmt: skip
    # the body's last instruction syncs: with a PCNT entry on top, that pop is the CONT entry, so
    # lanes that continued and lanes that finished the body meet at 0x48
    m = launch(prog, block=16)
    recs = m.run()
    assert out(m, 16) == [sum(i for i in range(8) if not i & t) for t in range(16)]
    assert all(r.active_mask == 0xFFFF for r in recs if r.pc == 0x48)


def test_call_and_return_with_a_divergent_body() -> None:
    # f(x) = 3x + 1 for odd x, x + 1000 for even x, each side returning on its own; called twice
    prog = [
        *TID,                                                          # 0x00 0x08
        ins("MOV", "R1", "R0"),                                        # 0x10
        ins("CAL", "@0x40"),                                           # 0x18
        ins("CAL", "@0x40"),                                           # 0x20
        ins("ST", "[R11]", "R1"),                                      # 0x28
        ins("EXIT"),                                                   # 0x30
        ins("NOP"),                                                    # 0x38
        ins("LOP", "R2", "R1", "0x1", mods=("AND",)),                  # 0x40 f
        ins("ISETP", "P0", "PT", "R2", "RZ", "PT", mods=("EQ", "AND")),  # 0x48
        ins("BRA", "@0x70", guard="P0"),                               # 0x50
        ins("ISCADD", "R1", "R1", "R1", "0x1"),                        # 0x58 odd: 3x
        ins("IADD", "R1", "R1", "0x1"),                                # 0x60 + 1
        ins("RET"),                                                    # 0x68
        ins("IADD", "R1", "R1", "0x3e8"),                              # 0x70 even: + 1000
        ins("RET"),                                                    # 0x78
    ]  # fmt: skip

    def f(x: int) -> int:
        return 3 * x + 1 if x & 1 else x + 1000

    m = launch(prog)
    recs = m.run()
    assert out(m) == [f(f(t)) for t in range(32)]
    assert [r.active_mask for r in recs if r.pc == 0x20] == [M32]  # the first call returned reconverged


def test_exit_in_a_divergent_branch() -> None:
    # odd lanes exit early; even lanes store; the warp finishes once both are done
    prog = [
        *TID,
        ins("LOP", "R1", "R0", "0x1", mods=("AND",)),
        ins("ISETP", "P0", "PT", "R1", "RZ", "PT", mods=("NE", "AND")),
        ins("EXIT", guard="P0"),
        ins("MOV", "R2", "0x77"),
        ins("ST", "[R11]", "R2"),
        ins("EXIT"),
    ]
    m = launch(prog)
    recs = m.run()
    assert out(m) == [0 if t & 1 else 0x77 for t in range(32)]
    ex = recs[4]
    assert (ex.exec_mask, ex.next_mask, ex.done) == (0xAAAAAAAA, 0x55555555, False)
    assert recs[-1].done and recs[-1].next_mask == 0


def test_exit_inside_ssy_then_sync_keeps_only_the_live_lanes() -> None:
    prog = [
        *TID,                                                          # 0x00 0x08
        ins("ISETP", "P0", "PT", "R0", "0x4", "PT", mods=("LT", "U32", "AND")),  # 0x10
        ins("SSY", "@0x38"),                                           # 0x18
        ins("BRA", "@0x30", guard="P0"),                               # 0x20
        ins("EXIT"),                                                   # 0x28 lanes >= 4 exit
        ins("NOP", mods=("S",)),                                       # 0x30
        ins("ST", "[R11]", "R0"),                                      # 0x38
        ins("EXIT"),
    ]  # fmt: skip
    m = launch(prog, mem=0x100)
    m.mem.glob[:] = 0xEE
    recs = m.run()
    assert [r.active_mask for r in recs if r.pc == 0x38] == [0xF]
    assert out(m, 8) == [0, 1, 2, 3] + [0xEEEEEEEE] * 4


def test_bar_sync_orders_shared_memory_across_warps() -> None:
    # each thread writes tid to shared[tid]; after the barrier it reads shared[63 - tid] (another warp's)
    prog = [
        *TID,
        ins("STS", "[R11]", "R0"),
        ins("BAR", "RZ", "RZ", mods=("SYNC",)),
        ins("IADD", "R2", "RZ", "-R0"),
        ins("IADD", "R2", "R2", "0x3f"),
        ins("ISCADD", "R3", "R2", "RZ", "0x2"),
        ins("LDS", "R4", "[R3]"),
        ins("ST", "[R11]", "R4"),
        ins("EXIT"),
    ]
    m = launch(prog, block=64, shared=256)
    recs = m.run()
    assert out(m, 64) == [63 - t for t in range(64)]
    # no warp ran past the barrier before both had arrived at it
    order = [(r.warp, r.pc) for r in recs]
    first_after = min(k for k, (_, pc) in enumerate(order) if pc > 0x18)
    assert {w for w, pc in order[:first_after] if pc == 0x18} == {0, 1}


def test_vote_all_any_eq_and_ballot() -> None:
    # P0 = tid < 5 on 16 threads
    prog = [
        *TID,
        ins("ISETP", "P0", "PT", "R0", "0x5", "PT", mods=("LT", "U32", "AND")),
        ins("VOTE", "R1", "P1", "P0", mods=("ANY",), ndst=2),
        ins("VOTE", "P2", "P0", mods=("ALL",)),
        ins("VOTE", "P3", "PT", mods=("EQ",)),
        ins("P2R", "R2", "PR", "RZ", "0xe"),
        ins("ST", "[R11]", "R1"),
        ins("ST", "[R11+0x100]", "R2"),
        ins("EXIT"),
    ]
    m = launch(prog, block=16)
    m.run()
    assert out(m, 16) == [0x1F] * 16
    assert out(m, 16, 0x100) == [0b1010] * 16  # ANY true (P1), ALL false (P2), EQ over PT true (P3)


def test_runaway_error_names_the_instruction() -> None:
    prog = [ins("IADD", "R0", "R0", "0x1"), ins("BRA", "@0x0")]
    m = launch(prog)
    try:
        m.run(max_steps=100)
    except FermiError as exc:
        msg = str(exc)
    else:
        raise AssertionError("no runaway error")
    assert msg.count("\n") == 0
    assert "within 100 warp-instructions" in msg and "pc 0x0 (IADD)" in msg and "CTA 0 warp 0" in msg


def test_break_without_pbk_is_one_line() -> None:
    m = launch([ins("BRK"), ins("EXIT")])
    try:
        m.run()
    except FermiError as exc:
        assert str(exc) == "CTA 0 warp 0 pc 0x0 (BRK): no BREAK entry on the stack"
    else:
        raise AssertionError("BRK with an empty stack ran")


def test_running_off_the_program_is_an_error() -> None:
    m = launch([ins("NOP")])
    try:
        m.run()
    except FermiError as exc:
        assert "pc 0x8 is outside the program of 1 instructions" in str(exc)
    else:
        raise AssertionError("ran off the end")


def test_grid_runs_ctas_in_order_and_partial_warps() -> None:
    prog = [
        ins("S2R", "R0", "SR_TID.X"), ins("S2R", "R1", "SR_CTAID.X"),
        ins("ISCADD", "R2", "R1", "R0", "0x5"),  # 40 threads per CTA, index into 64-slot rows
        ins("ISCADD", "R3", "R2", "RZ", "0x2"),
        ins("ST", "[R3]", "R1"),
        ins("EXIT"),
    ]  # fmt: skip
    m = launch(prog, block=40, grid=3, mem=4 * 3 * 32 + 4 * 64)
    recs = m.run()
    # rows of 32 overlap at 40 threads: later CTAs overwrite, in CTA order
    got = out(m, 3 * 32 + 8)
    want = [0] * (3 * 32 + 8)
    for cta in range(3):
        for t in range(40):
            want[cta * 32 + t] = cta
    assert got == want
    assert [r.cta for r in recs] == sorted(r.cta for r in recs)
    assert {r.active_mask for r in recs if r.warp == 1} == {0xFF}


def test_bra_with_a_cc_test_diverges_on_the_flags() -> None:
    # R5.CC = tid - 3: CC.LE holds for tid <= 3 (signed), those lanes skip the MOV to the NOP.S
    prog = [
        *TID,                                                          # 0x00 0x08
        ins("MOV", "R2", "0x1"),                                       # 0x10
        ins("IADD", "R5.CC", "R0", "0xfffffffd"),                      # 0x18 tid - 3
        ins("SSY", "@0x40"),                                           # 0x20
        ins("BRA", "CC.LE", "@0x38"),                                  # 0x28
        ins("MOV", "R2", "0x2"),                                       # 0x30
        ins("NOP", mods=("S",)),                                       # 0x38
        ins("ST", "[R11]", "R2"),                                      # 0x40
        ins("EXIT"),
    ]  # fmt: skip
    m = launch(prog, block=8)
    recs = m.run()
    assert out(m, 8) == [1, 1, 1, 1, 2, 2, 2, 2]
    bra = next(r for r in recs if r.pc == 0x28)
    assert (bra.exec_mask, bra.next_pc, bra.next_mask) == (0x0F, 0x38, 0x0F)
    assert [r.active_mask for r in recs if r.pc == 0x40] == [0xFF]


def test_an_instruction_no_lane_executes_writes_nothing() -> None:
    prog = [ins("MOV", "R1", "0x5"), ins("IADD", "R1", "R1", "0x1", guard="P3"), ins("EXIT")]
    recs = launch(prog).run()
    assert (recs[1].exec_mask, recs[1].regs, recs[1].active_mask) == (0, [], M32)


def test_pret_sets_where_ret_returns() -> None:
    # PRET 0x30 then a jump into a routine whose RET comes back to 0x30, not after the jump
    prog = [
        *TID,                                                          # 0x00 0x08
        ins("PRET", "@0x30"),                                          # 0x10
        ins("BRA", "@0x40"),                                           # 0x18
        ins("MOV", "R2", "0x1"),                                       # 0x20 skipped
        ins("EXIT"),                                                   # 0x28
        ins("ST", "[R11]", "R2"),                                      # 0x30 return point
        ins("EXIT"),                                                   # 0x38
        ins("MOV", "R2", "0x9"),                                       # 0x40 routine
        ins("RET"),                                                    # 0x48
    ]  # fmt: skip
    m = launch(prog, block=4)
    recs = m.run()
    assert out(m, 4) == [9] * 4
    assert [r.pc for r in recs] == [0x00, 0x08, 0x10, 0x18, 0x40, 0x48, 0x30, 0x38]


def test_virtid_reports_the_warp_number() -> None:
    prog = [*TID, ins("S2R", "R1", "SR3"), ins("ST", "[R11]", "R1"), ins("EXIT")]
    m = launch(prog, block=96)
    m.run()
    assert out(m, 96) == [(t // 32) << 8 for t in range(96)]


def test_bar_red_popc_into_rz_is_syncthreads() -> None:
    # nvcc's __syncthreads on sm_20: BAR.RED.POPC RZ, RZ; the same exchange as with BAR.SYNC
    prog = [
        *TID, ins("STS", "[R11]", "R0"), ins("BAR", "RZ", "RZ", mods=("RED", "POPC")),
        ins("IADD", "R2", "RZ", "-R0"), ins("IADD", "R2", "R2", "0x3f"), ins("ISCADD", "R3", "R2", "RZ", "0x2"),
        ins("LDS", "R4", "[R3]"), ins("ST", "[R11]", "R4"), ins("EXIT"),
    ]  # fmt: skip
    m = launch(prog, block=64, shared=256)
    m.run()
    assert out(m, 64) == [63 - t for t in range(64)]
    m = launch([ins("BAR", "R1", "RZ", mods=("RED", "POPC")), ins("EXIT")])
    try:
        m.run()
    except FermiError as exc:
        assert "BAR.RED into a register is not modelled" in str(exc)
    else:
        raise AssertionError("BAR.RED into R1 ran")


def test_bra_u_falls_through_unless_every_lane_branches() -> None:
    # the listing pattern: @P0 BRA.U L; @!P0 work; L: barrier. Warp 0 has mixed lanes and must fall
    # through whole; warp 1 has P0 everywhere and branches
    prog = [
        *TID,                                                          # 0x00 0x08
        ins("ISETP", "P0", "PT", "R0", "0x7", "PT", mods=("GT", "U32", "AND")),  # 0x10
        ins("MOV", "R2", "0x5"),                                       # 0x18
        ins("BRA", "@0x30", mods=("U",), guard="P0"),                  # 0x20
        ins("MOV", "R2", "0x9", guard="!P0"),                          # 0x28
        ins("BAR", "RZ", "RZ", mods=("RED", "POPC")),                  # 0x30
        ins("ST", "[R11]", "R2"),                                      # 0x38
        ins("EXIT"),
    ]  # fmt: skip
    m = launch(prog, block=64)
    recs = m.run()
    assert out(m, 64) == [9 if t <= 7 else 5 for t in range(64)]
    bras = [(r.warp, r.exec_mask, r.next_pc, r.next_mask) for r in recs if r.pc == 0x20]
    assert bras == [(0, 0xFFFFFF00, 0x28, M32), (1, M32, 0x30, M32)]
    assert all(r.active_mask == M32 for r in recs)


def test_a_guarded_sync_stops_only_its_lanes() -> None:
    # after the SSY, lanes with tid < 4 stop at @P0 NOP.S and wait at the join; the others count R2
    # up to tid in a loop, then the whole warp meets at 0x50 (GlobalScanPass1's shape)
    prog = [
        *TID,                                                          # 0x00 0x08
        ins("MOV", "R2", "RZ"),                                        # 0x10
        ins("SSY", "@0x50"),                                           # 0x18
        ins("ISETP", "P0", "PT", "R0", "0x4", "PT", mods=("LT", "U32", "AND")),  # 0x20
        ins("NOP", "CC.T", mods=("S",), guard="P0"),                   # 0x28
        ins("IADD", "R2", "R2", "0x1"),                                # 0x30 loop
        ins("ISETP", "P1", "PT", "R2", "R0", "PT", mods=("LT", "U32", "AND")),  # 0x38 R2 < tid
        ins("BRA", "@0x30", guard="P1"),                               # 0x40
        ins("NOP", "CC.T", mods=("S",)),                               # 0x48
        ins("ST", "[R11]", "R2"),                                      # 0x50 join
        ins("EXIT"),
    ]  # fmt: skip
    m = launch(prog, block=8)
    recs = m.run()
    assert out(m, 8) == [0, 0, 0, 0, 4, 5, 6, 7]
    nop = next(r for r in recs if r.pc == 0x28)
    assert (nop.exec_mask, nop.next_pc, nop.next_mask) == (0x0F, 0x30, 0xF0)
    assert [r.active_mask for r in recs if r.pc == 0x50] == [0xFF]


def test_a_program_from_the_assembler_runs() -> None:
    """The decoded instructions of golden/fermi/asm.py drive the model as the hand-built ones do:
    out[tid] = tid odd ? 3 tid : tid + 100, through an SSY if/else, with nvcc's 64-bit pointer."""
    from golden.fermi.asm import assemble

    src = """
        MOV R1, c[0x1][0x100];
        S2R R0, SR_TID.X;
        MOV32I R15, 0x4;
        ISCADD R2.CC, R0, c[0x0][0x20], 0x2;
        IMAD.HI.X R3, R0, R15, c[0x0][0x24];
        LOP.AND R4, R0, 0x1;
        ISETP.NE.AND P0, PT, R4, RZ, PT;
        SSY join;
   @P0  BRA odd;
        IADD R5, R0, 0x64;
        NOP.S;
odd:    IMUL R5, R0, 0x3;
        NOP.S;
join:   ST.E [R2], R5;
        EXIT;
    """
    prog = assemble(src, "<test>")
    m = Machine()
    m.launch(prog.insns, block=32, global_mem=bytes(0x200), params=(0x100).to_bytes(8, "little"))
    m.run()
    assert out(m, 32, 0x100) == [3 * t if t & 1 else t + 100 for t in range(32)]
