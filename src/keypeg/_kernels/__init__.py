"""Compiled kernels (numba). Plain int arrays in, no validation; engine layers only."""

import warnings

from numba.core.errors import NumbaWarning

# The exact entropy tie-break drops to object mode for a few rare comparisons; numba warns
# at compile time that such a block holds the GIL, which is intended.
warnings.filterwarnings("ignore", message="Code running in object mode", category=NumbaWarning)
