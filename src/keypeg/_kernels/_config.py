"""Compiler options for every kernel, in one place. No fastmath: every result is exact."""

from __future__ import annotations

import hashlib
from pathlib import Path

from llvmlite import ir
from numba import njit
from numba.core import cgutils, types
from numba.extending import intrinsic

#: The folder of every compiled kernel (each kernel module imports this one first).
KERNELS_DIR = Path(__file__).resolve().parent


def sources_digest(directory: Path) -> str:
    """Return a digest of the names and contents of the Python files in `directory`."""
    digest = hashlib.sha256()
    for path in sorted(directory.glob("*.py")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def _stamp_with_every_kernel() -> None:
    """Make numba's cache of each kernel stale when any kernel file changes, not only its own.

    numba keys a cached function by its own file's source, but the compiled code it keeps
    holds the code of the kernels it calls from other files (inlined or linked in): after
    an edit of memo.py alone, the search kernels cached from optimal.py went on running the
    old memo code. Each cache locator numba tries is wrapped so that, for a file of this
    folder, its source stamp also carries `sources_digest` of the whole folder (computed
    once per process). Other files' stamps are numba's own. Where numba's caching layout
    is not the one this expects (its internals), nothing is changed."""
    try:
        from numba.core import caching
    except ImportError:  # pragma: no cover - numba always has it today
        return
    impl = getattr(caching, "CacheImpl", None) or getattr(caching, "_CacheImpl", None)
    classes = getattr(impl, "_locator_classes", None)
    if not isinstance(classes, list) or getattr(impl, "_keypeg_stamped", False):
        return
    digest: list[str] = []

    def wrap(cls: type) -> type:
        def get_source_stamp(self):  # noqa: ANN001, ANN202 - numba's signature
            stamp = cls.get_source_stamp(self)
            source = getattr(self, "_py_file", None)
            if source is None or Path(source).resolve().parent != KERNELS_DIR:
                return stamp
            if not digest:
                digest.append(sources_digest(KERNELS_DIR))
            return (stamp, "keypeg-kernels", digest[0])

        return type(cls.__name__, (cls,), {"get_source_stamp": get_source_stamp})

    impl._locator_classes = [wrap(cls) for cls in classes]
    impl._keypeg_stamped = True


_stamp_with_every_kernel()

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



def _element_pointer(context, builder, signature, args, n):  # pragma: no cover - compiled
    aryty = signature.args[0]
    ary = context.make_array(aryty)(context, builder, args[0])
    index = [context.cast(builder, args[1 + i], signature.args[1 + i], types.intp)
             for i in range(n)]
    return cgutils.get_item_pointer(context, builder, aryty, ary, index)


def _int64_array(arr, index):
    return (isinstance(arr, types.Array) and arr.dtype == types.int64
            and arr.ndim == len(index) and all(isinstance(i, types.Integer) for i in index))



def _load_acquire(arr, index):
    if not _int64_array(arr, index):
        return None

    def codegen(context, builder, signature, args):
        ptr = _element_pointer(context, builder, signature, args, len(index))
        return builder.load_atomic(ptr, "acquire", 8)

    return types.int64(arr, *index), codegen


def _store_release(arr, index, value):
    if not _int64_array(arr, index) or not isinstance(value, types.Integer):
        return None

    def codegen(context, builder, signature, args):
        ptr = _element_pointer(context, builder, signature, args, len(index))
        v = context.cast(builder, args[-1], signature.args[-1], types.int64)
        builder.store_atomic(v, ptr, "release", 8)
        return context.get_dummy_value()

    return types.void(arr, *index, value), codegen


@intrinsic
def load_acquire(typingctx, arr, i):  # pragma: no cover - compiled
    """Return ``arr[i]`` (a 1-D int64 array) read with acquire order: what another thread
    wrote before its `store_release` of this element is seen by the reads after this one
    (neither the compiler nor the processor moves them before it)."""
    return _load_acquire(arr, (i,))


@intrinsic
def load_acquire2(typingctx, arr, i, j):  # pragma: no cover - compiled
    """`load_acquire` of ``arr[i, j]`` (a 2-D int64 array)."""
    return _load_acquire(arr, (i, j))


@intrinsic
def store_release(typingctx, arr, i, value):  # pragma: no cover - compiled
    """``arr[i] = value`` (a 1-D int64 array) with release order: every write before it is
    seen by a thread that reads this element with `load_acquire` and finds `value`."""
    return _store_release(arr, (i,), value)


@intrinsic
def store_release2(typingctx, arr, i, j, value):  # pragma: no cover - compiled
    """`store_release` of ``arr[i, j]`` (a 2-D int64 array)."""
    return _store_release(arr, (i, j), value)

@intrinsic
def fence(typingctx, acquire_only):  # pragma: no cover - compiled
    """A memory fence: with ``acquire_only`` True (a literal) an acquire fence (reads before
    it are done before reads and writes after it; on x86 it only stops the compiler), else a
    sequentially consistent one (nothing moves across it)."""
    if not isinstance(acquire_only, types.BooleanLiteral):
        return None
    order = "acquire" if acquire_only.literal_value else "seq_cst"

    def codegen(context, builder, signature, args):
        builder.fence(order)
        return context.get_dummy_value()

    return types.void(acquire_only), codegen
