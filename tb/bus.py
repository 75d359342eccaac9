"""The small pin-level base of the testbench's bus components, on cocotb 2's own API.

A bus is a group of DUT signals named `<prefix>_<signal>` (`mem_req_valid`, `cfg_we`, ...).
`BusMonitor` runs its `_monitor_recv` as a cocotb task and hands what it sees to a callback;
`BusDriver` drives transactions through its `_driver_send`. They stand in for the cocotb-bus
classes of the same names, which end their tasks with `Task.kill()`, deprecated in cocotb 2 (a
DeprecationWarning on every run): these end theirs with `Task.cancel()`, and keep no queue,
statistics or wait events, which no component here uses.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any, ClassVar

import cocotb
from cocotb.task import Task


class Bus:
    """The signals `<prefix>_<name>` of `entity` for each name, as attributes `name`."""

    def __init__(self, entity: Any, prefix: str, names: list[str]) -> None:
        for name in names:
            setattr(self, name, getattr(entity, f"{prefix}_{name}"))


class BusMonitor:
    """Watches the bus `<name>_*` of `entity` from a task started at construction (`_monitor_recv`)
    and passes each transaction to the callbacks (`_recv`); `kill` cancels the task."""

    _signals: ClassVar[list[str]] = []

    def __init__(self, entity: Any, name: str, clock: Any, callback: Callable[[Any], None] | None = None) -> None:
        self.entity, self.name, self.clock = entity, name, clock
        self.bus = Bus(entity, name, self._signals)
        self.log = logging.getLogger(f"cocotb.monitor.{type(self).__qualname__}")
        self._callbacks: list[Callable[[Any], None]] = [] if callback is None else [callback]
        self._task: Task[None] | None = cocotb.start_soon(self._monitor_recv())

    async def _monitor_recv(self) -> None:
        raise NotImplementedError

    def _recv(self, transaction: Any) -> None:
        for callback in self._callbacks:
            callback(transaction)

    def kill(self) -> None:
        # cancel() of a task that already ended (a monitor whose task only armed its first
        # callback) returns False and does nothing
        if self._task is not None:
            self._task.cancel()
            self._task = None


class BusDriver:
    """Drives the bus `<name>_*` of `entity`: `send` awaits `_driver_send` of one transaction.
    No task of its own, so `kill` only has what a subclass adds to end."""

    _signals: ClassVar[list[str]] = []

    def __init__(self, entity: Any, name: str, clock: Any) -> None:
        self.entity, self.name, self.clock = entity, name, clock
        self.bus = Bus(entity, name, self._signals)
        self.log = logging.getLogger(f"cocotb.driver.{type(self).__qualname__}")

    async def send(self, transaction: Any) -> None:
        await self._driver_send(transaction)

    async def _driver_send(self, transaction: Any) -> None:
        raise NotImplementedError

    def kill(self) -> None:
        return None
