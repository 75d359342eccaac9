"""Fault-injection campaigns (tb/faults): sites from the design, the classification, the margins,
and small campaigns on vecadd of known outcome on Verilator."""

from __future__ import annotations

import html.parser
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from pngshot import CHROMIUM, png_rgb, screenshot

from golden.g80.assembler import assemble_instruction
from golden.g80.program import load_program
from tb.faults.campaign import Campaign, execute, prepare, rerun, run_campaign
from tb.faults.classify import classify
from tb.faults.db import CampaignDB, Fault
from tb.faults.report import margin, sample_size, summary, write_report
from tb.faults.sites import enumerate_sites, per_unit, select
from tb.runner import ROOT

VECADD = ROOT / "programs" / "vecadd.sass"


# -- sites ------------------------------------------------------------------------------------------


def _declared(path: Path, name: str) -> str:
    """The declaration line of `name` in an RTL file (the independent side of the site list)."""
    for line in path.read_text(encoding="utf-8").splitlines():
        if re.match(rf"\s*reg\b.*\b{name}\b", line):
            return line
    raise AssertionError(f"no reg {name} in {path}")


def test_sites_from_the_design() -> None:
    sites = {s.path: s for s in enumerate_sites()}
    # the register file as rtl/sm_regfile.v declares it: REG_WORDS (8192) 32-bit words held as rows of
    # 32 lanes, one 1,024-bit word a row (one register of a warp): 256 rows
    assert "reg [1023:0]           rf [0:REG_WORDS/32-1]" in _declared(ROOT / "rtl" / "sm_regfile.v", "rf")
    assert (sites["u_regfile.rf"].width, sites["u_regfile.rf"].words) == (1024, 256)
    # the warp table: one 24-bit PC per warp slot (NUM_WARPS = 24 in rtl/sm_top.v), the PC width of the commit port
    assert (sites["u_sched.w_pc"].width, sites["u_sched.w_pc"].words) == (24, 24)
    # the decoder is combinational (no clocked process in rtl/sm_decode.v): no site in it
    assert "posedge" not in (ROOT / "rtl" / "sm_decode.v").read_text(encoding="utf-8")
    assert not any(".u_decode." in p or p.startswith("u_decode.") for p in sites)
    # a loop variable of a clocked process (blocking assignment) is not state
    assert "u_sched.i" not in sites
    counts = per_unit(select(tuple(sites.values()), "u_regfile"))
    assert counts == {"u_regfile": 1024 * 256 + 256}  # rows, and a valid bit per row
    with pytest.raises(ValueError, match=r"matches no state variable .*units: .*u_regfile"):
        select(tuple(sites.values()), "u_nothing*")


# -- classification and margins -----------------------------------------------------------------------


def _diff(field: str, expected: str = "R1", actual: str = "R1 (1 lane differs)", source: str = "") -> dict:
    return {"field": field, "expected": expected, "actual": actual, "lanes": [], "source": source}


@pytest.mark.parametrize(
    ("report", "want"),
    [
        (None, ("masked", "", "")),
        ({"kind": "mismatch", "diffs": [_diff("gpr")]}, ("sdc", "operation", "gpr")),
        ({"kind": "mismatch", "diffs": [_diff("gpr", "R1", "R2")]}, ("sdc", "operand", "gpr")),
        ({"kind": "mismatch", "diffs": [_diff("gpr", source="testbench global memory")]}, ("sdc", "memory", "gpr")),
        ({"kind": "mismatch", "diffs": [_diff("mem.data[0]", "global store data", "1 lane(s) differ")]}, ("sdc", "memory", "mem.data[0]")),
        ({"kind": "mismatch", "diffs": [_diff("gpr"), _diff("next_pc", "0x000010", "0x000018")]}, ("cfe", "order", "next_pc")),
        ({"kind": "mismatch", "diffs": [_diff("exec_mask", "0xffffffff", "0xfffffffe")]}, ("cfe", "management", "exec_mask")),
        ({"kind": "mismatch", "diffs": [_diff("insn", "0x1", "0x3")]}, ("cfe", "operation", "insn")),
        ({"kind": "mismatch", "diffs": []}, ("cfe", "management", "")),
        ({"kind": "rtl_error", "message": "the RTL stopped with error 1 (illegal instruction)"}, ("due", "operation", "error")),
        ({"kind": "rtl_error", "message": "the RTL stopped with error 4 (SIMT stack overflow)"}, ("due", "management", "error")),
        ({"kind": "memory_fault", "message": "beyond"}, ("due", "memory", "address")),
        ({"kind": "hang", "message": "no commit"}, ("hang", "", "")),
        ({"kind": "end_of_test", "diffs": [_diff("global memory", "byte 0x10 = 0x01", "0x03")]}, ("sdc", "memory", "global memory")),
    ],
)
def test_classify(report: dict | None, want: tuple[str, str, str]) -> None:
    assert classify(report, 100, 100) == want


def test_masked_slower() -> None:
    assert classify(None, 101, 100)[0] == "masked_slower"


def test_leveugle_margin() -> None:
    # the textbook infinite-population sample size for +-1 % at 95 %, p = 0.5: 1.96^2 * 0.25 / 0.01^2 = 9604
    assert sample_size(0.01, 10**15) == 9604
    # a sample as large as the population has no error; the margin of the sample size is the margin asked for
    assert margin(0.5, 1000, 1000) == 0.0
    n = sample_size(0.02, 200_000)
    assert margin(0.5, n, 200_000) <= 0.02 < margin(0.5, n - 1, 200_000)


# -- campaigns of known outcome (Verilator) ---------------------------------------------------------


def _vecadd_facts() -> tuple[int, str]:
    """From the program alone: registers per thread, and the first instruction that reads R1 after
    the one that first writes it (R1 holds tid.x from I2I, read by IMAD to form the index)."""
    spec = load_program(VECADD)
    lines = [ln.split("//")[0].strip() for ln in VECADD.read_text(encoding="utf-8").splitlines()]
    body = [ln for ln in lines if ln and not ln.startswith(".")]
    first_write = next(i for i, ln in enumerate(body) if re.match(r"\S+\s+R1\b", ln))
    reader = next(ln for ln in body[first_write + 1 :] if re.search(r",\s*R1\b", ln))
    assert assemble_instruction(reader).form.name.startswith(reader.split(".")[0])  # a real instruction of the program
    return spec.registers, reader.split()[0]


@pytest.fixture(scope="module")
def known(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:
    """One campaign of hand-placed faults (one simulator process for all of them)."""
    nregs, _ = _vecadd_facts()
    # rtl/sm_regfile.v: a row is one register of a warp (row = warp * registers + register), lane k
    # its bits 32k..32k+31
    r1_warp0 = 0 * nregs + 1
    faults = [
        # a register row no warp of vecadd owns (4 warps x 4 registers = rows 0..15)
        Fault(0, "u_regfile.rf", "u_regfile", 250, 5, 300, "seu"),
        # R1 of warp 0, lane 0 (bit 3), flipped before the kernel writes R1 (I2I): overwritten, so masked
        Fault(1, "u_regfile.rf", "u_regfile", r1_warp0, 3, 0, "seu"),
        # bit 0 of lane 0 stuck at 1 from the start: tid.x of lane 0 reads 1 instead of 0 in the next reader of R1
        Fault(2, "u_regfile.rf", "u_regfile", r1_warp0, 0, 0, "stuck1"),
        # the launch unit's error register (rtl/sm_launch.v, the top level's `error` output) stuck at 1: the RTL reports error 1
        Fault(3, "u_launch.error", "u_launch", 0, 0, 100, "stuck1"),
        # the fetch stage's valid flag (rtl/sm_warp_sched.v f_valid) stuck at 0 from the start: nothing issues, nothing commits
        Fault(4, "u_sched.f_valid", "u_sched", 0, 0, 0, "stuck0"),
    ]
    db = tmp_path_factory.mktemp("faults") / "known.sqlite"
    c = Campaign("vecadd", len(faults), "verilator", "seu", "u_regfile,u_launch,u_sched", 1, db=db)
    meta = prepare(c, faults)
    assert execute(c, meta) == len(faults)
    con = CampaignDB(db)
    rows = {r["id"]: r for r in con.rows()}
    con.close()
    return db, rows


def test_unread_register_is_masked(known: tuple[Path, dict]) -> None:
    _, rows = known
    assert rows[0]["outcome"] == "masked"
    assert rows[1]["outcome"] == "masked"


def test_stuck_register_is_sdc_at_its_reader(known: tuple[Path, dict]) -> None:
    _, rows = known
    _, reader = _vecadd_facts()
    r = rows[2]
    assert (r["outcome"], r["grp"], r["field"], r["warp"]) == ("sdc", "operation", "gpr", 0), r
    assert r["insn"].split()[0] == reader, r
    assert r["cycles"] < 200  # stopped at the divergence, not run to the end (753 cycles)


def test_stuck_error_register_is_due_and_stuck_fetch_hangs(known: tuple[Path, dict]) -> None:
    _, rows = known
    assert (rows[3]["outcome"], rows[3]["kind"]) == ("due", "rtl_error"), rows[3]
    assert "error 1" in rows[3]["message"]
    assert (rows[4]["outcome"], rows[4]["commits"]) == ("hang", 0), rows[4]


def test_control_run_after_faults(known: tuple[Path, dict]) -> None:
    """The fault-free run the campaign process makes after its faults passes: nothing leaks between faults."""
    db, _ = known
    (log,) = db.parent.glob("shard0-*/shard.jsonl")  # the one task of these five faults, in its own folder
    lines = [json.loads(x) for x in log.read_text(encoding="utf-8").splitlines()]
    assert lines[-1] == {"control": True, "passed": True, "cycles": CampaignDB(db).meta()["ref_cycles"]}


def test_campaign_database_report_and_resume(tmp_path: Path) -> None:
    db = tmp_path / "small.sqlite"
    c = Campaign("vecadd", 6, "verilator", "seu", "u_ctrl", 3, db=db)
    run_campaign(c, quiet=True)
    s = summary(db)
    assert s["n"] == 6 and s["planned"] == 6
    assert sum(s["counts"].values()) == 6
    con = CampaignDB(db)
    rows = con.rows()
    assert {r["unit"] for r in rows} == {"u_ctrl"}
    assert all(0 <= r["cycle"] < s["meta"]["ref_cycles"] for r in rows)
    # interrupted: two outcomes lost; the same campaign again runs only those two
    con.record(1, outcome=None)
    con.record(4, outcome=None)
    con.close()
    assert execute(c, prepare(c)) == 2
    assert summary(db)["n"] == 6
    # any fault reruns alone (here without waveforms) to the same outcome at the same cycle
    again = rerun(Path(os.path.relpath(db)), 4, waves=False)  # relative, as the report prints the command
    assert again["same_as_campaign"], again
    page = write_report(db).read_text(encoding="utf-8")
    html.parser.HTMLParser().feed(page)
    assert "<svg" in page and "u_ctrl" in page and "make faults-rerun DB=" in page
    assert "http" not in page.replace('xmlns="http://www.w3.org/2000/svg"', "")  # self-contained


def test_relative_database_path(tmp_path: Path) -> None:
    """`--db` relative to the working directory: the simulator runs in a folder of its own, where a
    relative path would name nothing; the campaign ends with its database where the path says."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    argv = [sys.executable, "-m", "tb.faults", "run", "-n", "2", "--target", "u_ctrl", "--seed", "7", "--db", "rel/campaign.sqlite"]
    done = subprocess.run(argv, cwd=tmp_path, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "Traceback" not in done.stderr, done.stderr[-2000:]
    db = tmp_path / "rel" / "campaign.sqlite"
    assert summary(db)["n"] == 2
    assert (tmp_path / "rel" / "reference" / "job.json").is_file()


# -- early stop of converged runs ---------------------------------------------------------------------


def test_early_stop_agrees_with_running_to_the_end(tmp_path: Path) -> None:
    """The same faults run to the end (STOP=verify: the independent side, which only records the
    checkpoint where the early stop would have ended a run) and with STOP=early: same outcomes;
    every run the criterion ends was masked in the reference's cycle count at full length."""
    faults = [
        # the commit record before the kernel's first instruction: rtl/sm_commit.v clears it when the
        # first instruction is taken (`take`), before anything sends it out, so the run converges
        Fault(0, "u_commit.c_gpr_data", "u_commit", 0, 100, 1, "seu"),
        # a register row no warp of vecadd owns: the flip stays in the state to the end, never converged
        Fault(1, "u_regfile.rf", "u_regfile", 250, 5, 300, "seu"),
        # R1 of warp 0 lane 0 (row 1, bit 4) after I2I wrote tid.x: read by the index computation (an SDC or worse, never converged)
        Fault(2, "u_regfile.rf", "u_regfile", 1, 4, 120, "seu"),
        Fault(3, "u_ctrl.x_pc", "u_ctrl", 0, 2, 200, "seu"),
        Fault(4, "u_sched.f_insn", "u_sched", 0, 7, 400, "seu"),
    ]
    rows = {}
    for stop in ("verify", "early"):
        db = tmp_path / f"{stop}.sqlite"
        c = Campaign("vecadd", len(faults), "verilator", "seu", "u_commit,u_regfile,u_ctrl,u_sched", 1, db=db, stop=stop)
        assert execute(c, prepare(c, faults)) == len(faults)
        con = CampaignDB(db)
        rows[stop] = {r["id"]: r for r in con.rows()}
        ref = con.meta()["ref_cycles"]
        con.close()
    full, early = rows["verify"], rows["early"]
    assert [full[i]["outcome"] for i in range(5)] == [early[i]["outcome"] for i in range(5)]
    for r in full.values():
        if r["stopped"] is not None:  # the criterion held: the run to the end must agree
            assert (r["outcome"], r["cycles"], r["simulated"]) == ("masked", ref, ref), r
            assert early[r["id"]]["stopped"] == r["stopped"]
    assert full[0]["stopped"] is not None and 1 < full[0]["stopped"] < ref
    assert early[0]["simulated"] == early[0]["stopped"] < ref and early[0]["outcome"] == "masked"
    assert full[1]["stopped"] is None and early[1]["outcome"] == "masked" and early[1]["simulated"] == ref
    assert full[2]["stopped"] is None and full[2]["outcome"] != "masked"
    s = summary(tmp_path / "early.sqlite")["early"]
    assert s["stopped"] >= 1 and s["cycles"] == sum(ref - r["stopped"] for r in early.values() if r["stopped"] is not None)
    assert summary(tmp_path / "verify.sqlite")["early"]["unsound"] == []


# -- the report in a browser ------------------------------------------------------------------------


@pytest.mark.skipif(CHROMIUM is None, reason="no Chromium (scripts/setup.sh installs the Debian package)")
def test_report_renders_offline_in_headless_chromium(tmp_path: Path) -> None:
    """A report of 30 masked and 10 SDC faults in one unit, rendered by headless Chromium with every
    network request refused: the stacked bar shows the two outcomes in a 3:1 ratio of pixels."""
    db = tmp_path / "c.sqlite"
    con = CampaignDB(db)
    con.set_meta(test="vecadd", sim="verilator", model="seu", target="u_ctrl", seed=1, n=40, num_sp=8, command="make faults TEST=vecadd N=40",
                 watchdog=2000, state_bits=1000, ref_cycles=700, ref_commits=44, ref_wall_s=0.1, ref_process_s=2.0, stop="early")  # fmt: skip
    con.set_units({"u_ctrl": (3, 1000)})
    con.plan([Fault(i, "u_ctrl.x_pc", "u_ctrl", 0, i % 24, 10 * i, "seu") for i in range(40)])
    for i in range(40):
        sdc = i < 10
        con.record(i, outcome="sdc" if sdc else "masked", grp="operation" if sdc else "", field="gpr" if sdc else "", warp=0 if sdc else None,
                   pc=8 if sdc else None, insn="IADD R1, R1, R2" if sdc else None, div_cycle=10 * i + 5 if sdc else None,
                   cycles=10 * i + 5 if sdc else 700, simulated=10 * i + 5 if sdc else 700, commits=3, wall_s=0.1)  # fmt: skip
    con.close()
    page = write_report(db)
    png = tmp_path / "shot.png"
    # the proxy is a closed port and every host name resolves nowhere: the page must need neither
    done = screenshot(page, png)
    assert png.exists(), done.stderr[-2000:]
    w, h, rgb = png_rgb(png)
    pixels = [rgb[i : i + 3] for i in range(0, len(rgb), 3)]
    green, red = pixels.count(bytes.fromhex("4caf50")), pixels.count(bytes.fromhex("e53935"))  # the report's masked and SDC colours
    legend = 10 * 10  # one legend square of each outcome
    assert red > legend, (w, h, green, red)
    assert abs((green - legend) / (red - legend) - 3) < 0.15, (green, red)


# -- FlexGripPlus sites (VHDL) ------------------------------------------------------------------------


def test_vhdl_state_from_clocked_processes(tmp_path: Path) -> None:
    from tb.faults.vhdl_sites import read_design, state_sites

    (tmp_path / "leaf.vhd").write_text("""
entity leaf is port (clk : in std_logic; q : out std_logic); end leaf;
architecture rtl of leaf is
  signal s_reg, s_next, s_cmp : std_logic;
begin
  s_next <= not s_reg;                       -- combinational
  p : process (clk) begin
    if rising_edge(clk) then
      if s_cmp <= s_reg then s_reg <= s_next; -- a comparison in the condition, then an assignment
      end if;
      q <= s_reg;
    end if;
  end process;
  c : process (s_reg) begin s_cmp <= s_reg; end process;  -- a process without a clock edge
end rtl;
""")
    (tmp_path / "top.vhd").write_text("""
entity top is port (clk : in std_logic); end top;
architecture a of top is
  signal t_reg : std_logic_vector(3 downto 0);
begin
  g : for i in 0 to 1 generate
    u_leaf : entity work.leaf port map (clk => clk, q => open);
  end generate;
  process (clk) begin if clk'event and clk = '1' then t_reg <= t_reg; end if; end process;
end a;
""")
    d = read_design([tmp_path / "top.vhd", tmp_path / "leaf.vhd"])
    assert d.clocked["leaf"] == {"s_reg", "q"}
    assert d.clocked["top"] == {"t_reg"}
    assert d.instances[("top", "u_leaf")] == "leaf"
    signals = [("t_reg", 4), ("g(0).u_leaf.s_reg", 1), ("g(0).u_leaf.s_next", 1), ("g(1).u_leaf.q", 1), ("g(1).u_leaf.s_cmp", 1)]
    assert [(p, w) for p, _, w in state_sites(signals, d, "top")] == [("t_reg", 4), ("g(0).u_leaf.s_reg", 1), ("g(1).u_leaf.q", 1)]


def test_flexgrip_state_signals() -> None:
    """FlexGripPlus's block scheduler (RTL/block_scheduler.vhd): its state machine is assigned under
    rising_edge(clk_in), blocks_remaining by a concurrent assignment."""
    from tb.adapters.flexgrip_build import FlexgripMissing, flexgrip_dir
    from tb.faults.vhdl_sites import read_design

    try:
        fg = flexgrip_dir()
    except FlexgripMissing as exc:
        pytest.skip(str(exc))
    d = read_design([fg / "RTL" / "block_scheduler.vhd"])
    assert "block_scheduler_state_machine" in d.clocked["block_scheduler"]
    assert "blocks_remaining" not in d.clocked["block_scheduler"]


def test_flexgrip_sites_from_ghdl(tmp_path: Path) -> None:
    """GHDL's VPI walk of FlexGripPlus, filtered by its VHDL: the block scheduler's state machine
    (assigned under rising_edge(clk_in) in RTL/block_scheduler.vhd) is a site, blocks_remaining (a
    concurrent assignment there) is a signal of the walk but no site."""
    from tb.adapters.flexgrip import FlexgripAdapter
    from tb.adapters.flexgrip_build import TOP, FlexgripMissing, check_available
    from tb.faults.campaign import _simulate
    from tb.faults.vhdl_sites import read_design, state_sites

    try:
        check_available()
    except FlexgripMissing as exc:
        pytest.skip(str(exc))
    config = Campaign("vecadd", 1, "ghdl", dut="flexgrip", stop="off").lockstep.config()
    log = tmp_path / "signals.json"
    _simulate("ghdl", config.write(tmp_path / "config.json"), {"walk": True, "log": str(log)}, tmp_path)
    signals = [(p, int(w)) for p, w in json.loads(log.read_text(encoding="utf-8"))]
    assert ("u_gpu.ublockscheduler.blocks_remaining", 32) in signals
    sites = {p: (unit, w) for p, unit, w in state_sites(signals, read_design(FlexgripAdapter().sources()), TOP)}
    assert sites["u_gpu.ublockscheduler.block_scheduler_state_machine"][0] == "u_gpu.ublockscheduler"
    assert "u_gpu.ublockscheduler.blocks_remaining" not in sites
