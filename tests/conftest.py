from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"


@pytest.fixture(scope="session")
def shared() -> Path:
    if not SHARED.is_dir():
        pytest.fail(f"reference data {SHARED} is missing: check out shared/ beside the project")
    return SHARED


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--regress", action="store_true", help="lock-step: every program on both simulators at NUM_SP 8, 16 and 32")
