"""bitknights: the 5×5 knights puzzle (SCOI2005 "骑士精神"), solved exactly and fast.

>>> import bitknights
>>> boards = bitknights.read_batch(bitknights.SAMPLE)
>>> [bitknights.solve(b).steps for b in boards]
[7, None]

Importing compiles nothing, touches no file and imports neither numba nor numpy; most
names are imported on first use.
"""

from __future__ import annotations

from .board import TARGET, Board, Move
from .errors import BitknightsError, BoardError, InputError
from .squares import SQUARE_NAMES, parse_square, square_name

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from . import lab, table
    from .api import DEFAULT_MAX_DEPTH, iter_solve, optimal_solutions, solve, solve_many
    from .batch import read_batch, read_board
    from .checker import CheckResult, check
    from .game import Game
    from .solution import Solution
    from .widget import play

__version__ = "0.1.0"

SAMPLE = "2\n10110\n01*11\n10111\n01001\n00000\n01011\n110*1\n01110\n01010\n00100\n"
"""The classic sample batch (answers ``7`` and ``-1``)."""

# imported on first use, by module (the widget needs the ``notebook`` extra)
_LAZY = {
    "api": ("DEFAULT_MAX_DEPTH", "iter_solve", "optimal_solutions", "solve", "solve_many"),
    "batch": ("read_batch", "read_board"),
    "checker": ("CheckResult", "check"),
    "game": ("Game",),
    "solution": ("Solution",),
    "widget": ("play",),
}


def __getattr__(name: str) -> Any:
    """The names imported on first use (see the module docstring)."""
    import importlib

    if name in ("table", "lab"):
        return importlib.import_module(f"{__name__}.{name}")
    for module, names in _LAZY.items():
        if name in names:
            value = getattr(importlib.import_module(f".{module}", __name__), name)
            globals()[name] = value
            return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


__all__ = [
    "DEFAULT_MAX_DEPTH",
    "SAMPLE",
    "SQUARE_NAMES",
    "TARGET",
    "BitknightsError",
    "Board",
    "BoardError",
    "CheckResult",
    "Game",
    "InputError",
    "Move",
    "Solution",
    "check",
    "iter_solve",
    "lab",
    "optimal_solutions",
    "parse_square",
    "play",
    "read_batch",
    "read_board",
    "solve",
    "solve_many",
    "square_name",
    "table",
]
