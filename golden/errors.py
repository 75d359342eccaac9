"""Errors the model reports: each names where it happened (block, warp, lane, PC, address)."""

from __future__ import annotations


class ModelError(Exception):
    """A program did something the machine reports as an error (fault, trap, stack misuse, hang)."""


class MemoryFault(ModelError):
    def __init__(self, space: str, addr: int, size: int, limit: int, where: str = "") -> None:
        self.space, self.addr, self.size, self.limit = space, addr, size, limit
        prefix = f"{where}: " if where else ""
        super().__init__(f"{prefix}{space} access of {size} byte(s) at {addr:#x} is outside 0..{limit - 1:#x}")


class TrapError(ModelError):
    pass


class StackError(ModelError):
    pass


class RunawayError(ModelError):
    pass


class LaunchError(ModelError):
    pass


class UnimplementedError(ModelError):
    """An instruction the encoding table decodes but the model does not execute (texture fetches)."""


class UndefinedControl(ModelError):
    """Undefinedness tracking (SM.track_undefined): where the run goes, or which memory a store
    changes, depends on a value computed from undefined input, which the model does not guess."""
