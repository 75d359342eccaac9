"""Loading and launching a kernel as pyuvm transactions (the shape of pyuvm's TinyALU example).

A `LoadSequence` turns a `Kernel` (tb/kernels.py) into sequence items: the instruction words,
one item per constant-bank image, the launch configuration, the parameters and the global memory
image; `LaunchSequence` sends the start. The `LoadDriver` takes each item from the
`uvm_sequencer` and hands it to the DUT's BFM (tb/dut.py), which knows the DUT's pins. The
sequences know nothing of a DUT, the driver nothing of programs.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from pyuvm import uvm_driver, uvm_sequence, uvm_sequence_item

from .dut import DutBfm, LaunchConfig
from .kernels import Kernel


class InstructionsItem(uvm_sequence_item):
    """The program: 32-bit instruction words from address 0."""

    def __init__(self, name: str, words: list[int]) -> None:
        super().__init__(name)
        self.words = words

    def __str__(self) -> str:
        return f"{self.get_name()}: {len(self.words)} instruction words"


class ConstantsItem(uvm_sequence_item):
    """An image of constant bank `bank` from byte `offset`."""

    def __init__(self, name: str, bank: int, offset: int, data: bytes) -> None:
        super().__init__(name)
        self.bank, self.offset, self.data = bank, offset, data

    def __str__(self) -> str:
        return f"{self.get_name()}: c[{self.bank}] bytes {self.offset:#x}..{self.offset + len(self.data):#x}"


class LaunchConfigItem(uvm_sequence_item):
    """Grid, block, registers, shared and local memory sizes, parameter size."""

    def __init__(self, name: str, launch: LaunchConfig) -> None:
        super().__init__(name)
        self.launch = launch

    def __str__(self) -> str:
        return f"{self.get_name()}: {self.launch}"


class ParametersItem(uvm_sequence_item):
    """The kernel's parameter bytes."""

    def __init__(self, name: str, params: bytes) -> None:
        super().__init__(name)
        self.params = params

    def __str__(self) -> str:
        return f"{self.get_name()}: {len(self.params)} parameter bytes"


class GlobalMemoryItem(uvm_sequence_item):
    """The initial global memory image and the number of threads that need local memory."""

    def __init__(self, name: str, image: np.ndarray, threads: int) -> None:
        super().__init__(name)
        self.image, self.threads = image, threads

    def __str__(self) -> str:
        return f"{self.get_name()}: {self.image.size} bytes of global memory, local memory for {self.threads} threads"


class StartItem(uvm_sequence_item):
    """Start the loaded kernel."""


class LoadSequence(uvm_sequence):
    """Everything a kernel needs before it starts, in the order the DUTs expect it."""

    def __init__(self, name: str, kernel: Kernel) -> None:
        super().__init__(name)
        self.kernel = kernel

    async def body(self) -> None:
        k = self.kernel
        items: list[uvm_sequence_item] = [InstructionsItem("instructions", k.words)]
        items += [ConstantsItem(f"c{bank}@{offset:#x}", bank, offset, data) for bank, offset, data in k.consts]
        items += [LaunchConfigItem("launch_config", k.launch), ParametersItem("params", k.params),
                  GlobalMemoryItem("global_memory", k.gmem.data, k.model.regs.shape[1])]  # fmt: skip
        for item in items:
            await self.start_item(item)
            await self.finish_item(item)


class LaunchSequence(uvm_sequence):
    async def body(self) -> None:
        item = StartItem("start")
        await self.start_item(item)
        await self.finish_item(item)


@dataclass
class _Dispatch:
    bfm: DutBfm

    async def __call__(self, item: uvm_sequence_item) -> None:
        bfm = self.bfm
        if isinstance(item, InstructionsItem):
            await bfm.load_instructions(item.words)
        elif isinstance(item, ConstantsItem):
            await bfm.load_constants(item.bank, item.offset, item.data)
        elif isinstance(item, LaunchConfigItem):
            await bfm.load_launch(item.launch)
        elif isinstance(item, ParametersItem):
            await bfm.load_params(item.params)
        elif isinstance(item, GlobalMemoryItem):
            await bfm.load_global(item.image, item.threads)
        elif isinstance(item, StartItem):
            await bfm.launch()
        else:
            raise TypeError(f"the load driver has no use for {type(item).__name__} ({item})")


class LoadDriver(uvm_driver):
    """Drives every load/launch item through the DUT's BFM, one at a time."""

    def __init__(self, name: str, parent, bfm: DutBfm) -> None:
        super().__init__(name, parent)
        self.drive = _Dispatch(bfm)

    async def run_phase(self) -> None:
        while True:
            item = await self.seq_item_port.get_next_item()
            try:
                await self.drive(item)
            finally:
                self.seq_item_port.item_done()
