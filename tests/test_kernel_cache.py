"""numba's cache of a kernel goes stale when a kernel it calls from another file changes."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import keypeg

CALLER = """from ._config import jit
from .zz_callee import value


@jit
def twice():
    return 2 * value()
"""
CALLEE = """from ._config import jit


@jit
def value():
    return {}
"""
SCRIPT = ("from keypeg._kernels.zz_caller import twice; "
          "print(twice(), twice.stats.cache_hits.most_common(1))")


def test_a_kernel_is_compiled_again_when_a_kernel_it_calls_changes(tmp_path: Path) -> None:
    """numba keys a cached kernel by its own file alone, but keeps the code of the kernels
    it calls from other files inside it: without `_config._stamp_with_every_kernel` the
    caller below, cached once, goes on returning 2 after its callee's file says 5."""
    package = tmp_path / "keypeg"
    shutil.copytree(Path(keypeg.__file__).parent, package,
                    ignore=shutil.ignore_patterns("__pycache__"))
    kernels = package / "_kernels"
    (kernels / "zz_caller.py").write_text(CALLER)
    (kernels / "zz_callee.py").write_text(CALLEE.format(1))
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env["PYTHONPATH"] = str(tmp_path)

    def run() -> str:
        done = subprocess.run([sys.executable, "-c", SCRIPT], env=env, cwd=tmp_path,
                              capture_output=True, text=True, timeout=300)
        assert done.returncode == 0, done.stderr
        return done.stdout.strip()

    assert run() == "2 []"  # compiled, and cached in the copy's __pycache__
    assert any((kernels / "__pycache__").glob("zz_caller*.nbi"))
    assert run().startswith("2 [((), 1)]")  # loaded from the cache
    (kernels / "zz_callee.py").write_text(CALLEE.format(5))
    assert run() == "10 []"  # the callee changed: the caller is compiled again
    assert run().startswith("10 [((), 1)]")
