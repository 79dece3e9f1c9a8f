"""The lookup engine (``--engine table``): answers read from the proved distance table
(:mod:`bitknights.table.store`), never built here: without one it raises
:class:`~bitknights.table.store.TableError` naming the fix.  Importing it imports neither
numpy nor numba.
"""

from __future__ import annotations

from ..table import store
from . import Engine, depth_limit

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os

    import numpy as np

    from ..board import Board
    from . import Found
    from .options import SolveOptions, StopFlag


class TableEngine(Engine):
    """The :class:`~bitknights.engines.Engine` that reads the distance table: one path
    walked to the target (microseconds: never timed; ``nodes`` counts table probes)."""

    name = "table"
    lookup = True
    timed = False

    def ready(self, target: Board, cache_dir: str | os.PathLike[str] | None = None) -> bool:
        return store.available(target, cache_dir)

    def _path(
        self, start: Board, target: Board, limit: int, options: SolveOptions,
        stop: StopFlag | None,
    ) -> Found:  # fmt: skip
        return store.load(target, options.cache_dir).walk_plain(start.black, start.blank, limit)

    def _count_solutions(self, start: Board, target: Board, options: SolveOptions) -> int:
        from ..table.compact import count_solutions

        return count_solutions(store.load(target, options.cache_dir), start)

    def steps(
        self, keys: np.ndarray | list[int], target: Board, options: SolveOptions,
        stop: StopFlag | None = None,
    ) -> np.ndarray | list[int]:  # fmt: skip
        """A list for a list (in plain Python), an array for an array."""
        from ..table import probe

        file, limit = store.load(target, options.cache_dir), depth_limit(options.max_depth)
        if isinstance(keys, list):
            return probe.distances(file, keys, limit)
        return probe.distances_array(file, keys, limit)


ENGINE = TableEngine()
