"""Compiler options for every kernel, in one place. No fastmath: every result is exact."""

from __future__ import annotations

from llvmlite import ir
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

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


@intrinsic
def prefetch(typingctx, arr, index):  # pragma: no cover - compiled
    """Ask the processor to start loading `arr[index]` into its caches (LLVM's prefetch,
    for reading, kept in every cache level); nothing is read or checked. For a later
    lookup in a table much bigger than the caches, so that several misses overlap."""
    if not isinstance(arr, types.Array) or not isinstance(index, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        index = context.cast(builder, args[1], signature.args[1], types.intp)
        ptr = cgutils.get_item_pointer(context, builder, aryty, ary, [index])
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0")
        builder.call(fn, [builder.bitcast(ptr, i8p), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return types.void(arr, index), codegen
