"""The lookup engine (``--engine table``): answers read from the distance table
(:mod:`bitknights.table`), proved exact before its first answer (:mod:`bitknights.table.store`).

It never builds the table: without a valid table file for the target it raises
:class:`~bitknights.table.store.TableError`, which tells the user to run
``bitknights table build``.  ``nodes`` counts table probes.  Importing this module imports
neither numpy nor numba, nor the probing code until it answers: ``auto`` asks it whether a
table is there on every run.  Memory: the 4 KiB blocks its answers touch, or the whole
payload (68 MB for the classic target) for batches that touch most of it.
"""

from __future__ import annotations

import time

from ..table import store
from . import DEPTH_CAP, depth_limit, never_arrives, searched
from .options import Capabilities

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os

    import numpy as np

    from ..board import Board
    from ..solution import Solution
    from .options import SolveOptions, StopFlag


class TableEngine:
    """The :class:`~bitknights.engines.base.Engine` that reads the distance table."""

    name = "table"
    capabilities = Capabilities(
        lookup=True, exact_at_any_depth=True, numpy_depth=DEPTH_CAP, counts_solutions=True
    )

    def ready(self, target: Board, cache_dir: str | os.PathLike[str] | None = None) -> bool:
        """Whether a usable table of ``target`` is in the cache directory (its header, size,
        trust and sanity checked once per process and file; its payload as it is read)."""
        return store.available(target, cache_dir)

    def solve(
        self, start: Board, target: Board, options: SolveOptions, stop: StopFlag | None = None
    ) -> Solution:
        """The exact fewest moves from ``start`` to ``target`` if at most
        ``options.max_depth``, with one optimal path walked to the target (a table answer
        takes microseconds: ``timeout`` and ``stop`` never apply); with
        ``options.count_solutions`` a solved result's ``optimal_solutions`` too (the only
        step that needs numba)."""
        from ..table import probe

        t0 = time.perf_counter()
        file = store.load(target, options.cache_dir)
        if (never := never_arrives(start, target, self.name, options.max_depth)) is not None:
            return never
        limit = depth_limit(options.max_depth)
        steps, blanks, probes = probe.walk(file, start.black, start.blank, limit)
        counted = None
        if steps >= 0 and options.count_solutions:
            from ..table import load_table

            counted = load_table(target, cache_dir=options.cache_dir).count_solutions(start)
        return searched(start, target, steps, blanks, probes, time.perf_counter() - t0,
                        self.name, options.max_depth, optimal_solutions=counted)  # fmt: skip

    def steps_many(
        self,
        keys: np.ndarray | list[int],
        target: Board,
        options: SolveOptions,
        stop: StopFlag | None = None,
    ) -> np.ndarray:
        """The distance of each board (packed keys) to ``target``, ``-1`` beyond
        ``options.max_depth`` or unreachable: one table read a board, with numpy alone."""
        from ..table import probe

        file = store.load(target, options.cache_dir)
        return probe.distances_array(file, keys, depth_limit(options.max_depth))  # type: ignore[arg-type]


ENGINE = TableEngine()
