from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
# The project's own copy of the reference data the tests need (testdata/PROVENANCE.md says where
# each file comes from); tests read it, never ../shared.
TESTDATA = ROOT / "testdata"
# Reference prose (ISA.md, the manual) and the FlexGripPlus checkout stay outside the project: the
# few tests that read them ask for the `shared` fixture and skip when it is absent.
SHARED = ROOT.parent / "shared"


# what an enclosing make (`make test SIM=...`) passes down to a make a test runs itself
OUTER_MAKE = ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")


def own_make_env(*also: str) -> dict[str, str]:
    """This process's environment without the outer make's variables (and the names in `also`), for
    a `make` the test runs as a user would: its settings are the test's alone."""
    return {k: v for k, v in os.environ.items() if k not in OUTER_MAKE and k not in also}


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"needs the reference material {SHARED} (ISA.md, the manual, FlexGripPlus), which is not beside the project")
    return SHARED


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regress", action="store_true", help="lock-step: every program on both simulators at NUM_SP 8, 16 and 32")
