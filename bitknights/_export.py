"""What the kernel modules share to declare, beside each kernel, what
:mod:`bitknights.native` compiles it ahead of time as: :func:`export` and the numba types
of its arguments.  Arrays are C-contiguous (``ro_``: read-only): ``vec``/``mat``/``cube``
of int64 by dimension, ``buf`` of bytes (uint8), the others named by numba's abbreviation
of their element type (``u1``: uint8, ``i1``: int8, ``u4``: uint32)."""

from __future__ import annotations

from numba import types as t

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

i8, u1, b1, Tuple, void = t.int64, t.uint8, t.boolean, t.Tuple, t.void
vec = t.Array(i8, 1, "C")
ro_vec = t.Array(i8, 1, "C", readonly=True)
mat = t.Array(i8, 2, "C")
ro_mat = t.Array(i8, 2, "C", readonly=True)
ro_cube = t.Array(i8, 3, "C", readonly=True)
buf = t.Array(u1, 1, "C")
ro_buf = t.Array(u1, 1, "C", readonly=True)
ro_u1mat = t.Array(u1, 2, "C", readonly=True)
ro_i1vec = t.Array(t.int8, 1, "C", readonly=True)
i1mat = t.Array(t.int8, 2, "C")
ro_i1mat = t.Array(t.int8, 2, "C", readonly=True)
u4vec = t.Array(t.uint32, 1, "C")

EXPORTS: dict[str, dict[str, tuple[Any, object]]] = {}
"""Kernel module -> exported name -> (JIT kernel, signature)."""


def export(signature: object, name: str = "") -> Callable[[Any], Any]:
    """Record the decorated kernel (returned unchanged) as exported under ``name``
    (default: its own) with ``signature``."""

    def record(kernel: Any) -> Any:
        fn = kernel.py_func
        EXPORTS.setdefault(fn.__module__, {})[name or fn.__name__] = (kernel, signature)
        return kernel

    return record
