"""The exact engines.  Each keeps the contract of :class:`~bitknights.engines.base.Engine`;
a search engine's module holds private numba kernels behind a typed wrapper.

Importing this package imports no engine (and so not numba); :func:`get_engine` imports
the one asked for on first use.
"""

from __future__ import annotations

import importlib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import SupportsInt

    from ..board import Board
    from ..solution import Solution
    from .base import Engine

# Each engine's name (``--engine NAME``) and where its Engine object lives (module:name),
# in the order people see them; the distance service prefers earlier search engines.
# Those modules import neither numpy nor numba (the work loads on use), so reading an
# engine's capabilities costs nothing.
_ENGINE_OBJECTS = {
    "ida": "ida:ENGINE",
    "bidir": "bidir:ENGINE",
    "mitm": "mitm:ENGINE",
    "table": "lookup:ENGINE",
    "compact": "compact:ENGINE",
}
ENGINES = tuple(_ENGINE_OBJECTS)

LOOKUP_ENGINES = ("table", "compact")
"""The engines whose capabilities say ``lookup``, named here so that choosing can ask them
first without importing the search engines (a test holds this equal to the capabilities)."""

# Exact search never needs more moves than this: the puzzle's farthest board is far
# closer (a property the distance table checks); it only sizes the kernels' stacks.
DEPTH_CAP = 200


def depth_limit(max_depth: int | None) -> int:
    """The kernels' move limit: ``max_depth`` clamped to ``[0, DEPTH_CAP]`` (``None``: the cap)."""
    return DEPTH_CAP if max_depth is None else max(0, min(int(max_depth), DEPTH_CAP))


def get_engine(name: str) -> Engine:
    """The engine called ``name`` (one of :data:`ENGINES`)."""
    if name not in _ENGINE_OBJECTS:
        raise ValueError(f"unknown engine {name!r} (choose from {', '.join(ENGINES)})")
    module, attribute = _ENGINE_OBJECTS[name].split(":")
    engine: Engine = getattr(importlib.import_module(f"{__name__}.{module}"), attribute)
    return engine


def never_arrives(
    start: Board, target: Board, engine: str, max_depth: int | None
) -> Solution | None:
    """The answer for a board whose knight counts differ from the target's (moves never
    change them, so it never gets there: status ``unreachable``); ``None`` for others.
    Every engine asks this first."""
    if start.counts == target.counts:
        return None
    from ..results import Status
    from ..solution import Solution

    return Solution(start, target, None, engine=engine, max_depth=max_depth,
                    status=Status.UNREACHABLE)  # fmt: skip


def searched(
    start: Board,
    target: Board,
    steps: int,
    blanks: Iterable[SupportsInt],
    nodes: int,
    seconds: float,
    engine: str,
    max_depth: int | None,
    **extra: object,
) -> Solution:
    """An engine's result from its kernel's answer: ``steps`` a distance (one optimal path
    given as the blank's squares, ``blanks``) or a negative code (no path; the status it
    means).  ``extra`` goes to a solved result only."""
    from ..results import Status
    from ..solution import Solution

    if steps < 0:
        return Solution(start, target, None, nodes=int(nodes), seconds=seconds, engine=engine,
                        max_depth=max_depth, status=Status.of(steps))  # fmt: skip
    return Solution(start, target, int(steps), boards_from_blanks(start, blanks), int(nodes),
                    seconds, engine, max_depth, **extra)  # type: ignore[arg-type]  # fmt: skip


def boards_from_blanks(start: Board, blanks: Iterable[SupportsInt]) -> list[Board]:
    """The boards along a path given as the blank's squares (``blanks[0]`` is the start's
    blank): at each step the knight on the next blank square jumps into the blank."""
    boards = [start]
    for sq in [int(sq) for sq in blanks][1:]:
        boards.append(boards[-1].play(sq))
    return boards
