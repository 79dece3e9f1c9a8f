"""The exact engines: the contract every engine keeps (:class:`Engine`, which also does what
every engine does alike), and the registry.

Each engine is one class in its own module (``ida``, ``bidir``, ``mitm``, ``table``,
``compact``) whose ``ENGINE`` answers :meth:`Engine.solve` and :meth:`Engine.steps` under
one :class:`~bitknights.engines.options.SolveOptions`; the facts ``auto`` reads
(:func:`bitknights.service.auto`) are declared beside it.  :func:`get_engine` imports an
engine on first use; an engine's module imports neither numpy nor numba until it answers.
"""

from __future__ import annotations

import importlib
import time

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterable, Sequence
    from typing import Any, SupportsInt

    import numpy as np

    from ..board import Board
    from ..solution import Solution
    from .options import SolveOptions, StopFlag

    Found = tuple[int, Sequence[SupportsInt] | np.ndarray, int]
    """A search's answer: a distance (or a :class:`~bitknights.results.Result` code), one
    optimal path as the blank's squares (empty without one), and the work done."""

ENGINES = ("ida", "bidir", "mitm", "table", "compact")
"""Each engine's name (``--engine NAME``, its module), in the order people see them; the
distance service prefers earlier search engines."""

DEPTH_CAP = 200
"""Exact search never needs more moves than this; it only sizes the kernels' stacks."""


def depth_limit(max_depth: int | None) -> int:
    """The kernels' move limit: ``max_depth`` clamped to ``[0, DEPTH_CAP]`` (``None``: the cap)."""
    return DEPTH_CAP if max_depth is None else max(0, min(int(max_depth), DEPTH_CAP))


class Engine:
    """What every engine does alike.  :meth:`solve` bounds the search by
    ``options.timeout`` and the caller's ``stop`` flag (when ``timed``), times it and makes
    a :class:`~bitknights.solution.Solution` of its answer.  An engine writes only
    :meth:`_path` and :meth:`steps`, and declares its ``name`` and what sets it apart.
    Every board it is given can reach the target (the distance service answers the others:
    :func:`bitknights.service.reaching`)."""

    name = ""
    lookup = False
    """Whether it answers from a table (when :meth:`ready`), which also counts the optimal
    move sequences (:attr:`SolveOptions.count_solutions`)."""
    max_limit: int | None = None
    """The largest ``max_depth`` it takes (``None``: any, or none)."""
    timed = True
    """Whether a search can take long enough to need the timeout and stop flag armed."""

    def ready(self, target: Board, cache_dir: str | os.PathLike[str] | None = None) -> bool:
        """Whether it can answer for ``target`` now (a lookup engine: its table is there)."""
        return True

    def solve(
        self, start: Board, target: Board, options: SolveOptions, stop: StopFlag | None = None
    ) -> Solution:
        """The fewest moves from ``start`` (with the target's knight counts) to ``target``
        within ``options.max_depth``, one optimal path and the work done; ``status`` says
        why there is none (``stopped`` when ``stop`` was raised or the timeout passed
        first)."""
        from ..results import STOPPED, Status
        from ..solution import Solution

        t0 = time.perf_counter()
        result: dict[str, Any] = {"engine": self.name, "max_depth": options.max_depth}
        limit = depth_limit(options.max_depth)
        if self.timed:
            from ..threads import Stopped
            from .options import StopFlag

            with StopFlag(stop).arm(options.timeout) as flag:
                try:
                    steps, blanks, nodes = self._path(start, target, limit, options, flag)
                except Stopped:  # a build it waited for outlasted the flag
                    steps, blanks, nodes = STOPPED, (), 0
        else:  # an untimed engine is given the caller's flag, if any, as it is
            steps, blanks, nodes = self._path(start, target, limit, options, stop)  # type: ignore[arg-type]
        result.update(nodes=int(nodes), seconds=time.perf_counter() - t0)
        if steps < 0:
            return Solution(start, target, None, status=Status.of(steps), **result)
        if options.count_solutions and self.lookup:
            result["optimal_solutions"] = self._count_solutions(start, target, options)
        return Solution(start, target, int(steps), boards_from_blanks(start, blanks), **result)

    def _path(
        self, start: Board, target: Board, limit: int, options: SolveOptions, stop: StopFlag
    ) -> Found:
        """The engine's search of one board within ``limit`` moves (see :data:`Found`)."""
        raise NotImplementedError

    def steps(
        self, keys: np.ndarray | list[int], target: Board, options: SolveOptions,
        stop: StopFlag | None = None,
    ) -> np.ndarray | list[int]:  # fmt: skip
        """The distance of each board (packed keys) to ``target``: ``-1`` (``OVER_LIMIT``)
        beyond ``options.max_depth`` or unreachable, ``-2`` (``STOPPED``) for boards left
        when ``stop`` was raised; an ``int64`` array, or a list from a plain-Python engine."""
        raise NotImplementedError

    def _count_solutions(self, start: Board, target: Board, options: SolveOptions) -> int:
        """The distinct optimal move sequences from ``start`` (a lookup engine)."""
        raise NotImplementedError


def get_engine(name: str) -> Engine:
    """The engine called ``name`` (one of :data:`ENGINES`)."""
    if name not in ENGINES:
        from ..errors import BitknightsError

        raise BitknightsError(f"unknown engine {name!r} (choose from {', '.join(ENGINES)})")
    engine: Engine = importlib.import_module(f"{__name__}.{name}").ENGINE
    return engine


def boards_from_blanks(start: Board, blanks: Iterable[SupportsInt]) -> list[Board]:
    """The boards along a path given as the blank's squares (``blanks[0]`` is the start's
    blank): at each step the knight on the next blank square jumps into the blank."""
    from itertools import accumulate

    return list(accumulate([int(sq) for sq in blanks][1:], type(start).play, initial=start))
