"""benchmarks/run.py answers a wrong group name in one sentence, and --help lists them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

RUN = Path(__file__).resolve().parents[1] / "benchmarks" / "run.py"


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(RUN), *args], capture_output=True, text=True,
                          timeout=120)


def test_an_unknown_group_is_named_with_the_groups_there_are():
    done = _run("optimal", "nosuch")
    assert done.returncode != 0
    assert "Traceback" not in done.stderr
    message = done.stderr.strip()
    assert message.startswith("run.py: there is no benchmark group 'nosuch'; the groups are ")
    assert "optimal" in message and message.count("\n") == 0
    assert done.stdout == ""  # (nothing timed: the names are checked first)


def test_help_lists_the_groups():
    done = _run("--help")
    assert done.returncode == 0, done.stderr
    assert "python benchmarks/run.py core" in done.stdout
    assert "Groups: " in done.stdout and "optimal" in done.stdout
