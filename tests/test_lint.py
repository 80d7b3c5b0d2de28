"""The code base stays clean for those who build on it: keypeg ships `py.typed`, so mypy
(configured in pyproject.toml) finds no error in the package, and ruff none in the code,
tests, scripts and benchmarks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from mypy import api as mypy_api

ROOT = Path(__file__).resolve().parent.parent


def test_mypy_finds_no_error_in_the_package() -> None:
    out, err, status = mypy_api.run(["--config-file", str(ROOT / "pyproject.toml"),
                                     "--cache-dir", str(ROOT / ".mypy_cache"),
                                     str(ROOT / "src" / "keypeg")])
    assert status == 0, out + err


def test_ruff_finds_nothing() -> None:
    done = subprocess.run([sys.executable, "-m", "ruff", "check", "src", "tests", "scripts",
                           "benchmarks"], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr
