"""Errors the model reports: each names where it happened (block, warp, lane, PC, address)."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable
from typing import NoReturn


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


# -- mistakes a user can fix: one line, no traceback ----------------------------------------------

USAGE = 2  # a setting, argument or file the user named is wrong (argparse's own code)
FAILURE = 1  # the run itself failed (a test, a simulator, a write)
INTERRUPTED = 130  # Ctrl-C: the shell's code for a process ended by SIGINT, so scripts can tell it from a failure


class UserError(Exception):
    """Bad input or setup the user can fix. The message names the setting or file and says how to fix
    it; an entry point's main() prints it as its one error line and exits with `code`."""

    def __init__(self, message: str, code: int = USAGE) -> None:
        super().__init__(message)
        self.code = code


class BadSetting(UserError, ValueError):
    """A setting outside its accepted values (still a ValueError for the callers that catch those)."""


class OneLineParser(argparse.ArgumentParser):
    """argparse with a usage error as one line (the usage summary is in --help): make prints it last,
    right above its own `Error 2` line, not under a screen of options."""

    def error(self, message: str) -> NoReturn:
        self.exit(USAGE, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def guarded(prog: str, body: Callable[[], int], interrupted: Callable[[], str] | None = None) -> int:
    """body() with the user's mistakes, a file that cannot be written and Ctrl-C each ending in one
    line on stderr, `prog: ...`, and exit codes USAGE, FAILURE or INTERRUPTED. `interrupted` says what
    an interrupted run kept and how to resume it."""
    try:
        return body()
    except UserError as exc:
        print(f"{prog}: {exc}", file=sys.stderr, flush=True)
        return exc.code
    except KeyboardInterrupt:
        try:
            kept = interrupted() if interrupted is not None else "nothing kept; run the same command again"
        except Exception as exc:  # the interrupt is what the user asked for: its line must come out
            kept = f"state unknown ({exc}); run the same command again"
        print(f"{prog}: interrupted: {kept}", file=sys.stderr, flush=True)
        return INTERRUPTED
    except BrokenPipeError:
        # the reader went away (`golden asm x | head`): what it read is what it asked for, so no
        # message; stdout goes to /dev/null so that the interpreter's final flush fails no more
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return FAILURE
    except OSError as exc:
        if exc.filename is None:  # not a file the user can name: a real bug, with its traceback
            raise
        print(f"{prog}: {exc.filename}: {exc.strerror} (check the path and its permissions, or choose another one)", file=sys.stderr, flush=True)
        return FAILURE
