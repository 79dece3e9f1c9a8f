"""The lookup engine (``--engine table``): answers read from the distance table
(:mod:`bitknights.table`).

It never builds the table: without a valid table file for the target it raises
:class:`~bitknights.table.store.TableError`, which tells the user to run
``bitknights table build``.  ``nodes`` counts table probes.  Importing this module imports
neither numpy nor numba, nor the probing code until it answers: ``auto`` asks it whether a
table is there on every run.
"""

from __future__ import annotations

import time

from ..table import store
from . import DEPTH_CAP, boards_from_blanks, depth_limit
from .options import Capabilities, SolveOptions

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os

    import numpy as np

    from ..board import Board
    from ..solution import Solution
    from .options import StopFlag


def solve(
    start: Board,
    target: Board,
    max_depth: int | None = 15,
    *,
    timeout: float | None = None,
    count_solutions: bool = False,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Solution:
    """Solve ``start`` exactly from the distance table of ``target``: fewest moves if at
    most ``max_depth`` (``None``: no limit), one optimal path, probes made.  ``timeout``
    is accepted for the engines' common signature; a table answer takes microseconds.
    ``count_solutions`` sets a solved result's ``optimal_solutions`` (distinct optimal
    move sequences), and so its JSON record's.  The path is walked in plain
    Python (:mod:`bitknights.table.probe`); only counting solutions needs numba."""
    from ..results import Status
    from ..solution import Solution
    from ..table import load_table, probe

    t0 = time.perf_counter()
    file = store.load(target, cache_dir)
    if start.counts != target.counts:
        return Solution(start, target, None, engine="table", max_depth=max_depth,
                        status=Status.UNREACHABLE, seconds=time.perf_counter() - t0)  # fmt: skip
    steps, blanks, probes = probe.walk(file, start.black, start.blank, depth_limit(max_depth))
    if steps < 0:
        return Solution(start, target, None, nodes=probes, seconds=time.perf_counter() - t0,
                        engine="table", max_depth=max_depth, status=Status.of(steps))  # fmt: skip
    counted = None
    if count_solutions:
        counted = load_table(target, cache_dir=cache_dir).count_solutions(start)
    boards = boards_from_blanks(start, blanks)
    return Solution(start, target, steps, boards, probes, time.perf_counter() - t0, "table",
                    max_depth, optimal_solutions=counted)  # fmt: skip


def steps_many(
    keys: np.ndarray,
    target: Board,
    max_depth: int | None = 15,
    *,
    workers: int | None = None,
    stop: object = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> np.ndarray:
    """The distance of each board (packed keys, see :attr:`Board.key`) to ``target``, -1
    beyond ``max_depth`` or unreachable: one table read a board, with numpy alone.
    ``workers`` and ``stop`` are accepted for the engines' common signature."""
    from ..table import probe

    return probe.distances_array(store.load(target, cache_dir), keys, depth_limit(max_depth))


class LookupEngine:
    """The :class:`~bitknights.engines.base.Engine` that reads the distance table."""

    name = "table"
    capabilities = Capabilities(
        lookup=True, exact_at_any_depth=True, numpy_depth=DEPTH_CAP, counts_solutions=True
    )

    def ready(self, target: Board, cache_dir: str | os.PathLike[str] | None = None) -> bool:
        """Whether a usable table of ``target`` is in the cache directory (its header, size
        and trust checked once per process and file; its payload as it is read)."""
        return store.available(target, cache_dir)

    def solve(
        self, start: Board, target: Board, options: SolveOptions, stop: StopFlag | None = None
    ) -> Solution:
        return solve(start, target, options.max_depth, count_solutions=options.count_solutions,
                     cache_dir=options.cache_dir)  # fmt: skip

    def steps_many(
        self, keys: np.ndarray, target: Board, options: SolveOptions, stop: StopFlag | None = None
    ) -> np.ndarray:
        return steps_many(keys, target, options.max_depth, cache_dir=options.cache_dir)


ENGINE = LookupEngine()
