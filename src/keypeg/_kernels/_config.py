"""Compiler options for every kernel, in one place. No fastmath: every result is exact."""

from __future__ import annotations

from numba import njit

#: Decorator for serial kernels (cached on disk, releases the GIL).
jit = njit(cache=True, nogil=True)
#: Decorator for kernels that split their outer loop over the cores with `prange`.
jit_parallel = njit(cache=True, nogil=True, parallel=True)
#: Decorator for the rare kernels that drop into object mode (they hold the GIL anyway).
jit_gil = njit(cache=True)
