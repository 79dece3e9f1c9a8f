"""The IDA* kernels compiled ahead of time, so ``--engine ida`` starts without numba.

Importing numba and loading even a cached JIT kernel costs about 0.6 s a process, more
than IDA* needs for the whole classic hard batch.  ``pip install`` therefore also compiles
:mod:`._ida_kernels` (the very same source) with numba's ahead-of-time compiler
(``numba.pycc``) into the extension module ``bitknights/engines/_ida_native``, whose
functions release the GIL like the JIT ones (see ``setup.py``; without a C compiler or
``numba.pycc`` the install still succeeds and IDA* runs just in time).

The extension is never trusted blindly: it records a fingerprint of the kernel sources
it was compiled from, and :func:`load` uses it only when that matches the sources beside
it (an edited checkout falls back to JIT until ``python -m bitknights.engines.native``
rebuilds it in place).  ``BITKNIGHTS_NATIVE=0`` turns it off.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import os
import sys
from collections.abc import Iterator
from functools import lru_cache
from pathlib import Path
from types import ModuleType

MODULE_NAME = "_ida_native"
SOURCES = ("_ida_kernels.py", "_pdb_kernels.py", "../coords/kernels.py", "../results.py")
ENV = "BITKNIGHTS_NATIVE"


def source_fingerprint() -> int:
    """A 63-bit digest of the kernel sources in this directory."""
    h = hashlib.blake2b(digest_size=8)
    for name in SOURCES:
        h.update((Path(__file__).parent / name).read_bytes())
    return int.from_bytes(h.digest(), "little") >> 1


def _signatures() -> dict[str, object]:
    from numba import types as t

    i8 = t.int64
    vec = t.Array(i8, 1, "C")
    ro_vec = t.Array(i8, 1, "C", readonly=True)
    ro_bytes = t.Array(t.uint8, 1, "C", readonly=True)
    nbr = t.Array(i8, 2, "C", readonly=True)
    part = t.Array(i8, 3, "C", readonly=True)
    bounds = (i8, ro_vec, ro_vec, ro_bytes, ro_bytes, part, ro_vec)  # mode .. pc
    tables = (nbr, ro_vec, ro_vec)  # nbr, cnt, color
    return {
        "ida_one": t.UniTuple(i8, 2)(i8, i8, i8, i8, *tables, *bounds, i8, vec, vec),
        "ida_many": t.void(vec, vec, i8, i8, i8, *tables, *bounds, vec, vec, vec),
    }


@contextlib.contextmanager
def _gil_released() -> Iterator[None]:
    """Make numba.pycc's Python wrappers release the GIL, as ``nogil=True`` does for JIT
    functions (pycc has no switch for it; its wrapper honours the ``release_gil`` flag)."""
    import numba.pycc.compiler as pycc_compiler

    plain = pycc_compiler.Flags

    class Flags(plain):  # type: ignore[misc, valid-type]
        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, **kwargs)
            self.release_gil = True

    pycc_compiler.Flags = Flags
    try:
        yield
    finally:
        pycc_compiler.Flags = plain


def build(output_dir: str | os.PathLike[str]) -> Path:
    """Compile the kernels into ``output_dir``; returns the extension's path.  Needs numba
    (with ``numba.pycc``) and a C compiler; takes about 7 s."""
    import warnings

    from numba.core.errors import NumbaPendingDeprecationWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", NumbaPendingDeprecationWarning)
        from numba.pycc import CC

    from . import _ida_kernels

    fingerprint = source_fingerprint()

    def kernel_fingerprint() -> int:
        return fingerprint

    cc = CC(MODULE_NAME, source_module=_ida_kernels)
    cc.output_dir = str(output_dir)
    cc.export("fingerprint", "i8()")(kernel_fingerprint)
    for name, signature in _signatures().items():
        cc.export(name, signature)(getattr(_ida_kernels, name).py_func)
    Path(output_dir).mkdir(parents=True, exist_ok=True)
    with _gil_released():
        cc.compile()
    return Path(output_dir) / cc.output_file


def load_from(path: str | os.PathLike[str]) -> ModuleType | None:
    """The extension at ``path`` if it was compiled from the current sources, else None."""
    spec = importlib.util.spec_from_file_location(MODULE_NAME, path)
    if spec is None or spec.loader is None:
        return None
    try:
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    except ImportError:
        return None
    return module if _current(module) else None


def _current(module: ModuleType) -> bool:
    try:
        return module.fingerprint() == source_fingerprint()
    except Exception:  # a foreign or broken module
        return False


@lru_cache(maxsize=1)
def load() -> ModuleType | None:
    """The installed extension when it is present, current and not turned off; else None
    (IDA* then runs the JIT kernels)."""
    if os.environ.get(ENV, "1") == "0":
        return None
    try:
        module = importlib.import_module(f"{__package__}.{MODULE_NAME}")
    except ImportError:
        return None
    return module if _current(module) else None


def main(argv: list[str] | None = None) -> int:
    """``python -m bitknights.engines.native [DIR]``: compile into DIR (default: beside
    the sources, for an editable checkout)."""
    args = sys.argv[1:] if argv is None else argv
    out = build(args[0] if args else Path(__file__).parent)
    print(out)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
