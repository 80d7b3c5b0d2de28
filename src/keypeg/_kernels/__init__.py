"""Compiled kernels (numba). Plain int arrays in, no validation; engine layers only."""
