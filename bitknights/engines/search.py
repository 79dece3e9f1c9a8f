"""The search engines as :class:`~bitknights.engines.base.Engine` objects: what each can
do, declared without importing it (no numpy, no numba); the work is in :mod:`.ida` and
:mod:`.bidir`, imported on first use.
"""

from __future__ import annotations

from .base import Capabilities, SearchEngine

# Radius of the numpy ball that batches under a limit use, and how many start-side layers
# they may take (limit <= NUMPY_RADIUS + NUMPY_LAYERS; else the numba search).  Radius r
# costs a ball build growing about 2x per layer against 15 - r layers per board.  CPU
# seconds of the whole `bitknights solve --engine bidir` process on the 2000-board hard
# batch (distances 14..18, limit 15; scripts/bench_bidir.py --only hard --no-seed
# --set NUMPY_RADIUS=R; a shared 2-core machine): r=10 0.45, r=11 0.33, r=12 0.27, r=13 0.34,
# r=14 0.47 (the seed program: 12.4).
NUMPY_RADIUS = 12
NUMPY_LAYERS = 5

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
