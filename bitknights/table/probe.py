"""Answers read straight from a proved table file's bytes (:func:`.store.load`):
distances and optimal paths in plain Python (a small batch answers before numpy could
import), or with numpy (:func:`distances_array`: big batches without numba).
"""

from __future__ import annotations

from ..coords import KEY_SHIFT, comb_count, rank, ranker
from ..results import OVER_LIMIT, UNREACHABLE, UNSEEN
from ..squares import FULL_MASK, KNIGHT_TARGETS, NUM_SQUARES
from .store import changed

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable

    import numpy as np

    from .store import TableFile

BULK_FROM = 512  # batches this large read their blocks in one pass (TableFile.bytes_at)
RANKER_FROM = 64  # batches this large rank with coords.ranker (2 ms once, then a fifth)


def valid(black: int, blank: int, k: int) -> bool:
    """A board of the table: the blank on the board, not under a knight, ``k`` black
    knights (other boards never reach the target: no read needed)."""
    return blank < NUM_SQUARES and not black >> blank & 1 and black.bit_count() == k


def _rank_of(table: TableFile, boards: int) -> Callable[[int, int], int]:
    k = table.black_count
    if boards >= RANKER_FROM:
        return ranker(k)
    return lambda black, blank: rank(black, blank, k)


def distances(table: TableFile, keys: Iterable[int], limit: int) -> list[int]:
    """The exact distance of each board (packed keys) to the table's target; ``-1`` when
    it is more than ``limit`` moves away or can never reach the target."""
    keys = list(keys)
    k = table.black_count
    rank_of = _rank_of(table, len(keys))
    at: list[tuple[int, int]] = []  # (answer index, rank)
    for i, key in enumerate(keys):
        black, blank = key & FULL_MASK, key >> KEY_SHIFT
        if valid(black, blank, k):
            at.append((i, rank_of(black, blank)))
    ranks = [r for _, r in at]
    got = table.bytes_at(ranks) if len(keys) >= BULK_FROM else [table[r] for r in ranks]
    out = [-1] * len(keys)
    for (i, _), d in zip(at, got):
        if d != UNSEEN and d <= limit:
            out[i] = d
    return out


def distances_array(table: TableFile, keys: np.ndarray, limit: int) -> np.ndarray:
    """:func:`distances` with numpy: an ``int64`` array for an array of keys."""
    import numpy as np

    from ..coords.arrays import popcount, ranks

    keys = np.asarray(keys, dtype=np.int64)
    out = np.full(keys.shape[0], -1, dtype=np.int64)
    black, blank = keys & FULL_MASK, keys >> KEY_SHIFT
    ok = (blank >= 0) & (blank < NUM_SQUARES)
    blank = np.where(ok, blank, 0)
    ok &= (black >> blank & 1 == 0) & (popcount(black) == table.black_count)
    idx = np.flatnonzero(ok)
    d = table.values(ranks(black[idx], blank[idx], comb_count(table.black_count)))
    d = d.astype(np.int64)
    keep = (d != UNSEEN) & (d <= limit)
    out[idx[keep]] = d[keep]
    return out


def walk(table: TableFile, black: int, blank: int, cap: int) -> tuple[int, list[int], int]:
    """``(steps, blank squares along one optimal path, probes)`` for the board: ``steps``
    is its exact distance, or ``UNREACHABLE``, or ``OVER_LIMIT`` beyond ``cap`` moves
    (:mod:`bitknights.results`; the path then empty).  Each step goes to the first
    neighbour one nearer, in knight-move order."""
    if not valid(black, blank, table.black_count):
        return UNREACHABLE, [], 0
    rank_of = _rank_of(table, 1)
    d = table[rank_of(black, blank)]
    if d == UNSEEN:
        return UNREACHABLE, [], 1
    if d > cap:
        return OVER_LIMIT, [], 1
    blanks, probes = [blank], 1
    for want in range(d - 1, -1, -1):
        for n in KNIGHT_TARGETS[blank]:
            nb = black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black
            probes += 1
            if table[rank_of(nb, n)] == want:
                black, blank = nb, n
                blanks.append(n)
                break
        else:  # a proved table always has one: the file changed under a running process
            raise changed(table.path)
    return d, blanks, probes


__all__ = ["RANKER_FROM", "distances", "distances_array", "walk"]
