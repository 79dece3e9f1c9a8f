"""Bidirectional breadth-first search, the target's side cached per process and target.

Both sides grow in complete layers; a side's visited boards live in a
:mod:`~bitknights.engines.hashset` table (the key and its depth modulo 4), its frontier in
a numpy array (kernels: :mod:`._bidir_kernels`).  The path is rebuilt from the depths
alone: from the meeting board, step to the neighbour one layer closer to each end.

Stopping rule.  With the start side complete to depth ``a``, the target side to ``b``
and no board in both, the distance ``d`` exceeds ``a + b`` (the board ``a`` moves along
an optimal path would be in both).  So every meeting found while growing the start side
to ``a + 1`` closes a path of ``a + 1 + dt(y) <= a + b + 1 <= d`` moves: exactly ``d``,
and the first may stop the search (``_bidir_search._FULL_LAYER = 1`` finishes the layer
and keeps the shortest; the tests compare both).  ``d``'s parity is known from the
blank's square colour, so layers of the wrong parity skip the look-ups.

The target's side is kept: one ball per target, built to :data:`BALL_RADIUS` on first
use, grown a layer under a write lock when its frontier is the smaller (weighted by
``TARGET_BIAS``), up to ``_bidir_search.TARGET_MAX_ENTRIES`` boards.  Batches under a
small limit (:meth:`BidirEngine.steps_many`) skip numba: a numpy ball of radius
:data:`NUMPY_RADIUS` as sorted arrays, every board's side grown at once and looked up
with ``searchsorted`` (:mod:`._bidir_numpy`; the numba search: :mod:`._bidir_search`).
This module imports neither numpy nor numba.
"""

from __future__ import annotations

from . import Engine
from .options import Capabilities, StopFlag

TYPE_CHECKING = False
if TYPE_CHECKING:
    import numpy as np

    from ..board import Board
    from . import Found
    from .options import SolveOptions

# Radius of the numpy ball that batches under a limit use, and how many start-side layers
# they may take (limit <= NUMPY_RADIUS + NUMPY_LAYERS; else the numba search).  Radius r
# costs a ball build growing about 2x per layer against 15 - r layers per board.  CPU
# seconds of the whole `bitknights solve --engine bidir` process on the 2000-board hard
# batch (distances 14..18, limit 15; scripts/bench_bidir.py --only hard --no-seed
# --set NUMPY_RADIUS=R; a shared 2-core machine): r=10 0.45, r=11 0.33, r=12 0.27, r=13 0.34,
# r=14 0.47 (the seed program: 12.4).
NUMPY_RADIUS = 12
NUMPY_LAYERS = 5


class BidirEngine(Engine):
    """Bidirectional search as an :class:`~bitknights.engines.Engine`: ``nodes`` counts
    the boards expanded on the start side.

    >>> from bitknights import TARGET, Board
    >>> from bitknights.engines.options import SolveOptions
    >>> s = ENGINE.solve(Board("10110/01*11/10111/01001/00000"), TARGET, SolveOptions())
    >>> s.steps, s.status, len(s.boards)
    (7, 'solved', 8)
    >>> far = Board("01011/110*1/01110/01010/00100")
    >>> ENGINE.solve(far, TARGET, SolveOptions()).status
    'over_limit'
    >>> ENGINE.solve(far, TARGET, SolveOptions(max_depth=None)).steps
    18
    >>> import numpy as np
    >>> keys = [Board("10110/01*11/10111/01001/00000").key, TARGET.key]
    >>> ENGINE.steps_many(np.array(keys), TARGET, SolveOptions()).tolist()
    [7, 0]
    """

    name = "bidir"
    capabilities = Capabilities(
        lookup=False,
        exact_at_any_depth=True,
        numpy_depth=NUMPY_RADIUS + NUMPY_LAYERS,
        counts_solutions=False,
    )

    def _path(
        self, start: Board, target: Board, limit: int, options: SolveOptions, stop: StopFlag
    ) -> Found:
        from ._bidir_search import solve_one

        return solve_one(start, target, limit, stop, options.cache_dir)

    def _steps(
        self, keys: np.ndarray | list[int], target: Board, limit: int, options: SolveOptions,
        stop: StopFlag | None,
    ) -> np.ndarray:  # fmt: skip
        """Under a small limit (the classic 15) numpy answers the whole batch; otherwise
        the numba search runs on ``options.workers`` threads."""
        import numpy as np

        keys = np.ascontiguousarray(keys, dtype=np.int64)
        stop = stop or StopFlag()
        if limit > NUMPY_RADIUS + NUMPY_LAYERS:
            from . import _bidir_search

            return _bidir_search.steps_many(keys, target, limit, options.workers, stop,
                                            options.cache_dir)  # fmt: skip
        from . import _bidir_numpy

        return _bidir_numpy.steps(keys, target, limit, NUMPY_RADIUS, stop)


ENGINE = BidirEngine()


def clear_cache() -> None:
    """Forget every cached ball, numba's and numpy's (their memory is freed once no
    search uses them)."""
    import sys

    search = sys.modules.get(f"{__package__}._bidir_search")
    if search is not None:
        search.clear_balls()
    numpy_path = sys.modules.get(f"{__package__}._bidir_numpy")
    if numpy_path is not None:
        numpy_path.numpy_ball.cache_clear()
