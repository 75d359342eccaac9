"""A faulty run's outcome, from the lock-step testbench's first failure report (tb/report.py).

Outcomes (the fault-injection vocabulary):
- masked: the run passed (same commits, same final memory) in the reference's cycle count;
  masked_slower: the same, in a different number of cycles;
- sdc (silent data corruption): a committed value or a store differs (registers, flags, address
  registers, store address/data, the final global memory);
- cfe (control-flow error): the PC, sequence number, instruction word, active/executing masks,
  next PC/mask or the done bit differ, or the DUT commits for a warp the model has not placed;
- due (detected unrecoverable error): the RTL raised its error output (illegal instruction,
  memory fault, SIMT stack fault), reported an instruction as unimplemented, or requested an
  address outside memory;
- hang: no commit for the watchdog's cycles.

Instruction-level groups, after the FlexGripPlus reliability papers' hand classification,
derived here from which commit field differed first:
- operation: the wrong operation executed (instruction word) or a result value is wrong;
- operand: a different register/flag/address register written (the wrong resource);
- order: the wrong PC, sequence or next PC (instructions out of order);
- management: warp/thread management (active or executing mask, next mask, done, a warp or
  block the model does not have, a SIMT stack fault);
- memory: a store's address, data or bytes, a loaded value, the final memory, an access outside memory.
"""

from __future__ import annotations

OUTCOMES = ("masked", "masked_slower", "sdc", "cfe", "due", "hang", "error")
GROUPS = ("operation", "operand", "order", "management", "memory")

_CONTROL = {"pc": "order", "seq": "order", "next_pc": "order", "insn": "operation", "active_mask": "management", "exec_mask": "management",
            "next_mask": "management", "done": "management"}  # fmt: skip
_DATA = {"gpr", "cc", "addr"}
_RTL_ERROR_GROUP = {"illegal instruction": "operation", "memory fault": "memory", "TRAP": "operation"}


def _field_group(diff: dict) -> tuple[str, str]:
    """(outcome, group) for one FieldDiff (as a dict)."""
    field = diff["field"]
    if field in _CONTROL:
        return "cfe", _CONTROL[field]
    if field in _DATA:
        if diff.get("source"):  # the value came from the testbench's memory: the load's address was wrong
            return "sdc", "memory"
        # the scoreboard prints the registers written as expected/actual when they differ ("R1" vs "R2"),
        # and "R1" vs "R1 (3 lanes differ)" when only values do
        same_register = diff["actual"].split(" (")[0] == diff["expected"]
        return "sdc", "operation" if same_register else "operand"
    if field.startswith("mem") or field == "global memory":
        return "sdc", "memory"
    if field in ("blocks", "warps done"):
        return "cfe", "management"
    if field == "commits":
        return "hang", "management"
    return "sdc", "operation"


def classify(report: dict | None, cycles: int, ref_cycles: int) -> tuple[str, str, str]:
    """(outcome, group, first differing field) of one faulty run; `report` is FailureReport's
    dict (None when the run passed)."""
    if report is None:
        return ("masked" if cycles == ref_cycles else "masked_slower"), "", ""
    kind = report["kind"]
    diffs = report.get("diffs") or []
    if kind in ("mismatch", "end_of_test", "x_or_z"):
        if not diffs:  # the model cannot follow: a commit for a warp or block it does not have
            return ("sdc" if kind == "x_or_z" else "cfe"), "management", ""
        # a control field anywhere makes it a control-flow error (data of the wrong instruction differs too)
        verdicts = [(_field_group(d), d["field"]) for d in diffs]
        for (outcome, group), field in verdicts:
            if outcome == "cfe":
                return outcome, group, field
        (outcome, group), field = verdicts[0]
        return outcome, group, field
    if kind == "rtl_error":
        message = report.get("message", "")
        group = next((g for name, g in _RTL_ERROR_GROUP.items() if f"({name})" in message), "management")
        return "due", group, "error"
    if kind == "unimplemented":
        return "due", "operation", "unimpl"
    if kind == "memory_fault":
        return "due", "memory", "address"
    if kind == "hang":
        return "hang", "", ""
    return "error", "", kind  # a testbench failure: not a fault outcome, shown as such
