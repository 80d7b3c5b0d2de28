"""Compiler options for every kernel, in one place. No fastmath: every result is exact."""

from __future__ import annotations

from numba import njit

#: Decorator for serial kernels (cached on disk, releases the GIL).
jit = njit(cache=True, nogil=True)
#: Decorator for small kernels called in hot loops: inlined into their callers in numba's
#: own IR, so a call costs no reference counts (a compiled call increfs and decrefs every
#: array it is passed, about 5 ns each). Still callable from Python.
jit_inline = njit(cache=True, nogil=True, inline="always")
#: Decorator for kernels that split their outer loop over the cores with `prange`.
jit_parallel = njit(cache=True, nogil=True, parallel=True)
#: Decorator for the rare kernels that drop into object mode (they hold the GIL anyway).
jit_gil = njit(cache=True)
