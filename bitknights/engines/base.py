"""The engine contract: what every exact engine offers, and how it is asked.

Each engine is one class in its own module (``ida``, ``bidir``, ``mitm``, ``lookup``),
whose ``ENGINE`` instance answers two questions for one target: :meth:`Engine.solve` (one
board: the fewest moves, one optimal path, a :class:`~bitknights.solution.Solution`) and
:meth:`Engine.steps_many` (a batch of packed keys: distances only).  Both read every limit
from one :class:`~bitknights.engines.options.SolveOptions` (the move limit, ``timeout``,
``workers``, ``cache_dir``) and stop when their ``stop`` flag is raised; each keeps its
memory within a documented bound (its module says which).  Importing an engine's module
imports neither numpy nor numba: its kernels load on first use, and its tuning constants
sit beside it.  What an engine is good at is declared in its
:class:`~bitknights.engines.options.Capabilities`, which the distance service
(:meth:`bitknights.service.DistanceService.choose`) reads to pick one.  Engines are
asked only through the service, which checks requests, confirms answers and replays
paths.  Kernels answer with a distance or a :class:`~bitknights.results.Result` code.

This module is the contract for type checkers and for anyone writing an engine: the
:class:`Engine` protocol, with the records it uses re-exported from
:mod:`bitknights.engines.options` (where the package itself imports them from: the
protocol needs ``typing``, which the classic command-line path does without).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

from .options import (
    DEFAULT_MAX_DEPTH,
    MAX_TIMEOUT,
    Capabilities,
    SolveOptions,
    StopFlag,
    check_options,
)

if TYPE_CHECKING:
    import os

    import numpy as np

    from ..board import Board
    from ..solution import Solution


@runtime_checkable
class Engine(Protocol):
    """An exact engine.  Every engine module holds one as ``ENGINE``
    (:func:`bitknights.engines.get_engine` finds it by name)."""

    @property
    def name(self) -> str:
        """The engine's name (``--engine NAME``; ``engine`` in a result)."""
        ...

    @property
    def capabilities(self) -> Capabilities: ...

    def ready(self, target: Board, cache_dir: str | os.PathLike[str] | None = None) -> bool:
        """Whether it can answer for ``target`` now (a lookup engine: its table is there)."""
        ...

    def solve(
        self, start: Board, target: Board, options: SolveOptions, stop: StopFlag | None = None
    ) -> Solution:
        """The fewest moves from ``start`` to ``target`` within ``options.max_depth``,
        one optimal path, the work done; ``status`` says why there is none (``stopped``
        when ``stop`` was raised first)."""
        ...

    def steps_many(
        self,
        keys: np.ndarray | list[int],
        target: Board,
        options: SolveOptions,
        stop: StopFlag | None = None,
    ) -> np.ndarray | list[int]:
        """The distance of each board (``int64`` packed keys) to ``target``: ``-1``
        (``OVER_LIMIT``) beyond ``options.max_depth`` or unreachable, ``-2`` (``STOPPED``)
        for boards left when ``stop`` was raised; an ``int64`` array, or a list from an
        engine in plain Python."""
        ...


__all__ = [
    "DEFAULT_MAX_DEPTH",
    "MAX_TIMEOUT",
    "Capabilities",
    "Engine",
    "SolveOptions",
    "StopFlag",
    "check_options",
]
