"""The exact engines.  Each module holds a private numba kernel and a typed wrapper.

Importing this package imports no engine (and so not numba); :func:`get_engine` imports
the one asked for on first use.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..board import Board
    from ..solution import Solution

    EngineFn = Callable[[Board, Board, "int | None"], Solution]

SEARCH_ENGINES = ("ida", "bidir")
PLAIN_ENGINES = ("mitm",)
"""Engines in plain Python (no numpy, no numba): quick to start, slow per board."""
ENGINES = (*SEARCH_ENGINES, *PLAIN_ENGINES, "table")

_MODULES = {"ida": "ida", "bidir": "bidir", "mitm": "mitm", "table": "table"}

# Exact search never needs more moves than this: the puzzle's farthest board is far
# closer (a property the distance table checks); it only sizes the kernels' stacks.
DEPTH_CAP = 200


def depth_limit(max_depth: int | None) -> int:
    """The kernels' move limit: ``max_depth`` clamped to ``[0, DEPTH_CAP]`` (``None``: the cap)."""
    return DEPTH_CAP if max_depth is None else max(0, min(int(max_depth), DEPTH_CAP))


def get_engine(name: str) -> EngineFn:
    """The ``solve(start, target, max_depth)`` function of engine ``name``."""
    return get_module(name).solve


def get_module(name: str):  # noqa: ANN201 - a module object
    """The module of engine ``name``: ``solve``, and ``steps_many`` where it has one."""
    if name not in _MODULES:
        raise ValueError(f"unknown engine {name!r} (choose from {', '.join(ENGINES)})")
    return importlib.import_module(f"{__name__}.{_MODULES[name]}")
