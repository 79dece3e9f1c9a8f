"""Bidirectional breadth-first search, the target's side cached per process and target.

Both sides grow in complete layers; a side's visited boards live in a
:mod:`~bitknights.engines.hashset` table (the key and its depth modulo 4), its frontier in
a numpy array.  The path is rebuilt from the depths alone: from the meeting board, step to
the neighbour one layer closer to each end.

Stopping rule.  With the start side complete to depth ``a``, the target side to ``b``
and no board in both, the distance ``d`` exceeds ``a + b``.  So every meeting found while
growing the start side to ``a + 1`` closes a path of ``a + 1 + dt(y) <= a + b + 1 <= d``
moves: exactly ``d``, and the first may stop the search.  Layers of the wrong parity skip
the look-ups.

The target's side (:mod:`._bidir_search`) is one ball per target, grown a layer when its
frontier is the smaller (weighted); batches under a small limit take numpy's path instead
(:data:`NUMPY_RADIUS`).  This module imports neither numpy nor numba.
"""

from __future__ import annotations

from . import Engine, depth_limit
from .options import SolveOptions, StopFlag

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

    from ..board import Board
    from . import Found

NUMPY_RADIUS = 12
"""The radius of numpy's ball (sorted arrays; every board's side grown at once): batches
under a limit up to ``NUMPY_RADIUS + NUMPY_LAYERS`` take that path, larger limits numba's."""
NUMPY_LAYERS = 5


class BidirEngine(Engine):
    """Bidirectional search as an :class:`~bitknights.engines.Engine`: ``nodes`` counts
    the boards expanded on the start side."""

    name = "bidir"

    def _path(
        self, start: Board, target: Board, limit: int, options: SolveOptions, stop: StopFlag
    ) -> Found:
        from ._bidir_search import solve_one, target_ball

        target_ball(target).cache_dir = options.cache_dir  # for its growth notice's advice
        return solve_one(start, target, limit, stop)

    def steps(
        self, keys: np.ndarray | list[int], target: Board, options: SolveOptions,
        stop: StopFlag | None = None,
    ) -> np.ndarray:  # fmt: skip
        """Under a small limit (the classic 15) numpy answers the whole batch; otherwise
        the numba search runs on ``options.workers`` threads."""
        import numpy as np

        from . import _bidir_search as search

        keys = np.ascontiguousarray(keys, dtype=np.int64)
        stop, limit = stop or StopFlag(), depth_limit(options.max_depth)
        if limit > NUMPY_RADIUS + NUMPY_LAYERS:
            search.target_ball(target).cache_dir = options.cache_dir
            return search.steps_many(keys, target, limit, options.workers, stop)
        return search.numpy_steps(keys, target, limit, NUMPY_RADIUS, stop)


ENGINE = BidirEngine()


def clear_cache() -> None:
    """Forget every cached ball, numba's and numpy's."""
    import sys

    search = sys.modules.get(f"{__package__}._bidir_search")
    if search is not None:  # (their memory is freed once no search uses them)
        search._cached_ball.cache_clear()
        search.numpy_ball.cache_clear()
