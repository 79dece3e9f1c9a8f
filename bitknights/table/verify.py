"""Proof that a distance table holds the exact distances, whoever wrote it.

Checksums catch accidents, not someone who rewrites a file and its checksums.  This
check needs no trust at all: a table ``f`` is the exact distance to the target if

1. ``f`` is 0 at the target and only there,
2. every board with ``f = d > 0`` has a neighbour with ``f = d - 1``, and
3. neighbours never differ by more than one (unreachable boards only neighbour
   unreachable boards).

Proof: from (2) and (1), following neighbours one nearer reaches the target in ``f(b)``
moves, so the true distance is at most ``f(b)``; by (3) ``f`` drops by at most one a move,
so the true distance is at least ``f(b)``.  The check visits every board and its
neighbours once, in threads over blocks of ranks.
"""

from __future__ import annotations

import numpy as np

from .. import native, progress
from ..coords import comb_count, rank
from ..threads import ordered_map
from .layout import kernel_args

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..board import Board

BLOCK = 1 << 16  # ranks of one blank square per job


def first_inconsistency(dist: np.ndarray, target: Board) -> int | None:
    """The rank of a board where the table ``dist`` (a byte a board, by rank) breaks the
    rules above, or ``None`` when it is exactly the distance to ``target``."""
    k = target.black.bit_count()
    ncomb = comb_count(k)
    goal = rank(target.black, target.blank)
    jobs = [(b, lo, min(lo + BLOCK, ncomb)) for b in range(25) for lo in range(0, ncomb, BLOCK)]
    check, consts = native.kernels("table").consistent_block, kernel_args(k)

    def run(job: tuple[int, int, int]) -> int:
        return int(check(dist, np.int64(goal), *map(np.int64, job), *consts))

    with progress.bar(len(dist), "board", "proving", unit_scale=True) as shown:
        for job, bad in zip(jobs, ordered_map(run, jobs, None)):
            if bad >= 0:
                return bad
            shown.update(job[2] - job[1])
    return None
