"""The exact engines: the contract every engine keeps (:class:`Engine`, which also does what
every engine does alike), and the registry.

Each engine is one class in its own module (``ida``, ``bidir``, ``mitm``, ``table``,
``compact``) whose ``ENGINE`` answers :meth:`Engine.solve` (one board: a
:class:`~bitknights.solution.Solution`) and :meth:`Engine.steps_many` (a batch of keys:
distances), reading every limit from one :class:`~bitknights.engines.options.SolveOptions`
and stopping when its ``stop`` flag is raised.  Its
:class:`~bitknights.engines.options.Capabilities` tell the distance service, the only
caller, when to pick it.  :func:`get_engine` imports an engine on first use; an engine's
module imports neither numpy nor numba until it answers.
"""

from __future__ import annotations

import importlib
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterable, Sequence
    from typing import SupportsInt

    import numpy as np

    from ..board import Board
    from ..solution import Solution
    from .options import Capabilities, SolveOptions, StopFlag

    Found = tuple[int, Sequence[SupportsInt] | np.ndarray, int]
    """A search's answer: a distance (or a :class:`~bitknights.results.Result` code), one
    optimal path as the blank's squares (empty without one), and the work done."""

# Each engine's name (``--engine NAME``) and where its Engine object lives (module:name),
# in the order people see them; the distance service prefers earlier search engines.
# Those modules import neither numpy nor numba (the work loads on use), so reading an
# engine's capabilities costs nothing.
_ENGINE_OBJECTS = {
    "ida": "ida:ENGINE",
    "bidir": "bidir:ENGINE",
    "mitm": "mitm:ENGINE",
    "table": "table:ENGINE",
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


class Engine:
    """What every engine does alike.  :meth:`solve` answers at once a board whose knight
    counts differ from the target's, bounds the search by ``options.timeout`` and the
    caller's ``stop`` flag (a timed engine), times it, and turns its answer into a
    :class:`~bitknights.solution.Solution` (:func:`searched`); :meth:`steps_many` hands
    the batch on with the move limit clamped.  An engine writes only :meth:`_path` and
    :meth:`_steps`, and declares its ``name`` and ``capabilities``."""

    name = ""
    capabilities: Capabilities
    timed = True
    """Whether a search can take long enough to need the timeout and stop flag armed (a
    lookup engine answers at once, and arming a flag imports numpy)."""

    def ready(self, target: Board, cache_dir: str | os.PathLike[str] | None = None) -> bool:
        """Whether it can answer for ``target`` now (a lookup engine: its table is there)."""
        return True

    def solve(
        self, start: Board, target: Board, options: SolveOptions, stop: StopFlag | None = None
    ) -> Solution:
        """The fewest moves from ``start`` to ``target`` within ``options.max_depth``, one
        optimal path and the work done; ``status`` says why there is none (``stopped``
        when ``stop`` was raised or the timeout passed first)."""
        t0 = time.perf_counter()
        if (never := never_arrives(start, target, self.name, options.max_depth)) is not None:
            return never
        limit = depth_limit(options.max_depth)
        if self.timed:
            from ..results import STOPPED
            from ..threads import Stopped
            from .options import StopFlag

            with StopFlag(stop).arm(options.timeout) as flag:
                try:
                    found = self._path(start, target, limit, options, flag)
                except Stopped:  # a build it waited for outlasted the flag
                    found = (STOPPED, (), 0)
        else:  # an untimed engine is given the caller's flag, if any, as it is
            found = self._path(start, target, limit, options, stop)  # type: ignore[arg-type]
        steps, blanks, nodes = found
        return searched(start, target, steps, blanks, nodes, time.perf_counter() - t0,
                        self.name, options.max_depth, **self._extra(start, target, steps,
                                                                    options))  # fmt: skip

    def steps_many(
        self,
        keys: np.ndarray | list[int],
        target: Board,
        options: SolveOptions,
        stop: StopFlag | None = None,
    ) -> np.ndarray | list[int]:
        """The distance of each board (packed keys) to ``target``: ``-1`` (``OVER_LIMIT``)
        beyond ``options.max_depth`` or unreachable, ``-2`` (``STOPPED``) for boards left
        when ``stop`` was raised; an ``int64`` array, or a list from an engine in plain
        Python (:attr:`~bitknights.engines.options.Capabilities.plain_boards`)."""
        return self._steps(keys, target, depth_limit(options.max_depth), options, stop)

    def _path(
        self, start: Board, target: Board, limit: int, options: SolveOptions, stop: StopFlag
    ) -> Found:
        """The engine's search of one board within ``limit`` moves (see :data:`Found`)."""
        raise NotImplementedError

    def _steps(
        self, keys: np.ndarray | list[int], target: Board, limit: int, options: SolveOptions,
        stop: StopFlag | None,
    ) -> np.ndarray | list[int]:  # fmt: skip
        """The engine's batch of distances within ``limit`` moves."""
        raise NotImplementedError

    def _extra(self, start: Board, target: Board, steps: int, options: SolveOptions) -> dict:
        """What a solved result carries besides the path (none but the table's count)."""
        return {}


def get_engine(name: str) -> Engine:
    """The engine called ``name`` (one of :data:`ENGINES`)."""
    if name not in _ENGINE_OBJECTS:
        from ..errors import BitknightsError

        raise BitknightsError(f"unknown engine {name!r} (choose from {', '.join(ENGINES)})")
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
    """An engine's result from its search's answer: ``steps`` a distance (one optimal path
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
