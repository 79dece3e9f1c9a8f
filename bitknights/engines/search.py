"""The search engines as :class:`~bitknights.engines.base.Engine` objects: what each can
do, declared without importing it (no numpy, no numba); the work is in :mod:`.ida`,
:mod:`.bidir` and :mod:`.mitm`, imported on first use.
"""

from __future__ import annotations

import importlib

from .options import Capabilities, SolveOptions

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from types import ModuleType

    import numpy as np

    from ..board import Board
    from ..solution import Solution
    from .options import StopFlag


class SearchEngine:
    """What the search engines share: always ready, and the options unpacked into their
    module's ``solve(start, target, max_depth, *, timeout, stop, cache_dir)`` and
    ``steps_many(keys, target, max_depth, *, workers, stop, cache_dir)``; the module is
    imported on first use, so declaring an engine costs nothing.  A batch answer is an
    ``int64`` array, or a list from an engine in plain Python (``plain_boards > 0``)."""

    def __init__(self, name: str, module: str, capabilities: Capabilities) -> None:
        self.name = name
        self.capabilities = capabilities
        self._module = module

    def _work(self) -> ModuleType:
        return importlib.import_module(f"{__package__}.{self._module}")

    def ready(self, target: Board, cache_dir: str | os.PathLike[str] | None = None) -> bool:
        return True

    def solve(
        self, start: Board, target: Board, options: SolveOptions, stop: StopFlag | None = None
    ) -> Solution:
        solution: Solution = self._work().solve(
            start, target, options.max_depth, timeout=options.timeout, stop=stop,
            cache_dir=options.cache_dir,
        )  # fmt: skip
        return solution

    def steps_many(
        self,
        keys: np.ndarray | list[int],
        target: Board,
        options: SolveOptions,
        stop: StopFlag | None = None,
    ) -> np.ndarray | list[int]:
        steps: np.ndarray | list[int] = self._work().steps_many(
            keys, target, options.max_depth, workers=options.workers, stop=stop,
            cache_dir=options.cache_dir,
        )  # fmt: skip
        return steps


# Radius of the numpy ball that batches under a limit use, and how many start-side layers
# they may take (limit <= NUMPY_RADIUS + NUMPY_LAYERS; else the numba search).  Radius r
# costs a ball build growing about 2x per layer against 15 - r layers per board.  CPU
# seconds of the whole `bitknights solve --engine bidir` process on the 2000-board hard
# batch (distances 14..18, limit 15; scripts/bench_bidir.py --only hard --no-seed
# --set NUMPY_RADIUS=R; a shared 2-core machine): r=10 0.45, r=11 0.33, r=12 0.27, r=13 0.34,
# r=14 0.47 (the seed program: 12.4).
NUMPY_RADIUS = 12
NUMPY_LAYERS = 5

# The meet-in-the-middle engine answers small classic batches in plain Python: its shipped
# ball has radius MITM_RADIUS, and `auto` gives it at most MITM_AUTO_LAYERS forward layers
# (radius 10 + 5 layers: the classic limit 15, a few hundred boards a search) and at most
# MITM_AUTO_BOARDS boards.  It needs no numpy (whose import alone takes 0.1 s) but spends
# about 0.3 ms a board where numpy bidirectional search spends microseconds; measured
# whole process with nothing cached on random boards (most of them -1), the two cross
# between 400 and 800 boards, so 200 keeps a margin.
MITM_RADIUS = 10
MITM_AUTO_LAYERS = 5
MITM_AUTO_BOARDS = 200

IDA = SearchEngine(
    "ida",
    "ida",
    Capabilities(lookup=False, exact_at_any_depth=False, numpy_depth=-1, counts_solutions=False),
)

BIDIR = SearchEngine(
    "bidir",
    "bidir",
    Capabilities(
        lookup=False,
        exact_at_any_depth=True,
        numpy_depth=NUMPY_RADIUS + NUMPY_LAYERS,
        counts_solutions=False,
    ),
)

MITM = SearchEngine(
    "mitm",
    "mitm",
    Capabilities(
        lookup=False,
        exact_at_any_depth=False,
        numpy_depth=-1,
        counts_solutions=False,
        plain_depth=MITM_RADIUS + MITM_AUTO_LAYERS,
        plain_boards=MITM_AUTO_BOARDS,
    ),
)
