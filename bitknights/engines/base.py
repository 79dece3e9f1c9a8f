"""The engine contract: what every exact engine offers, and how it is asked.

An engine answers two questions for one target: :meth:`Engine.solve` (one board: the
fewest moves, one optimal path, a :class:`~bitknights.solution.Solution`) and
:meth:`Engine.steps_many` (a batch of packed keys: distances only).  Both read their
limits from one :class:`SolveOptions`.  What an engine is good at is declared in its
:class:`Capabilities`, which :func:`bitknights.api.choose_engine` reads to pick one.

Kernels answer with a distance or a :class:`~bitknights.results.Result` code.

Importing this module imports neither numpy nor numba (nor dataclasses or threading: the
classic small-input path passes through here).
"""

from __future__ import annotations

import importlib
import os
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol, runtime_checkable

if TYPE_CHECKING:
    import threading

    import numpy as np

    from ..board import Board
    from ..solution import Solution


DEFAULT_MAX_DEPTH = 15
"""The classic puzzle's move limit: farther boards answer ``-1``."""


class SolveOptions(NamedTuple):
    """What a request asks of an engine.

    ``max_depth``: the move limit (``None``: none, every board is solved exactly);
    ``timeout``: seconds a board may take (``None``: no limit); ``workers``: threads for
    a batch (0: one per CPU); ``count_solutions``: also count the distinct optimal move
    sequences (engines whose capabilities say so); ``cache_dir``: where cached tables
    live (``None``: the default cache directory).
    """

    max_depth: int | None = DEFAULT_MAX_DEPTH
    timeout: float | None = None
    workers: int = 0
    count_solutions: bool = False
    cache_dir: str | os.PathLike[str] | None = None


class Capabilities(NamedTuple):
    """What an engine can do, for choosing one.

    ``lookup``: it answers from a precomputed table (microseconds a board) when one is
    :meth:`~Engine.ready`, and is then preferred to any search.
    ``exact_at_any_depth``: it answers requests without a depth limit in bounded time
    (IDA* is exact too, but its time grows exponentially with the distance).
    ``numpy_depth``: the deepest limit at which :meth:`~Engine.steps_many` needs numpy
    alone, no numba (``-1``: none).
    ``counts_solutions``: it honours :attr:`SolveOptions.count_solutions`.
    ``plain_depth``, ``plain_boards``: batches of at most ``plain_boards`` boards under a
    limit of at most ``plain_depth`` are answered in plain Python, no numpy, faster than
    importing numpy would take (``-1``, ``0``: none).
    """

    lookup: bool
    exact_at_any_depth: bool
    numpy_depth: int
    counts_solutions: bool
    plain_depth: int = -1
    plain_boards: int = 0


class StopFlag:
    """A one-element int64 array that kernels poll (every few thousand nodes) and stop
    on when it is non-zero; ``arm(seconds)`` raises it after a delay (a timeout)."""

    def __init__(self) -> None:
        import numpy as np

        self.array = np.zeros(1, dtype=np.int64)
        self._timer: threading.Timer | None = None

    def raise_(self) -> None:
        self.array[0] = 1

    def arm(self, seconds: float | None) -> StopFlag:
        if seconds is not None:
            import threading

            self._timer = threading.Timer(seconds, self.raise_)
            self._timer.daemon = True
            self._timer.start()
        return self

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()

    def __enter__(self) -> StopFlag:
        return self

    def __exit__(self, *exc: object) -> None:
        self.disarm()


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

    def solve(self, start: Board, target: Board, options: SolveOptions) -> Solution:
        """The fewest moves from ``start`` to ``target`` within ``options.max_depth``,
        one optimal path, the work done; ``status`` says why there is none."""
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


class SearchEngine:
    """What the search engines share: always ready, and the options unpacked into their
    module's ``solve(start, target, max_depth, *, timeout)`` and ``steps_many(keys,
    target, max_depth, *, workers, stop)``; the module (numpy and numba code) is imported
    on first use, so declaring an engine costs nothing."""

    def __init__(self, name: str, module: str, capabilities: Capabilities) -> None:
        self.name = name
        self.capabilities = capabilities
        self._module = module

    def _work(self) -> Any:  # noqa: ANN401 - the engine's module
        return importlib.import_module(f"{__package__}.{self._module}")

    def ready(self, target: Board, cache_dir: str | os.PathLike[str] | None = None) -> bool:
        return True

    def solve(self, start: Board, target: Board, options: SolveOptions) -> Solution:
        solution: Solution = self._work().solve(
            start, target, options.max_depth, timeout=options.timeout
        )
        return solution

    def steps_many(
        self, keys: np.ndarray, target: Board, options: SolveOptions, stop: StopFlag | None = None
    ) -> np.ndarray:
        steps: np.ndarray = self._work().steps_many(
            keys, target, options.max_depth, workers=options.workers, stop=stop
        )
        return steps
