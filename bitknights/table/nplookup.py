"""Distances of a batch of boards from a loaded table with numpy alone (no numba).

Each board is ranked with vectorized numpy (the ranking of :mod:`bitknights.table.rank`)
and read from the table: about 0.1 µs a board, so the table engine never needs numba for
distances, and a warm ``bitknights solve`` costs little more than importing numpy.
"""

from __future__ import annotations

import numpy as np

from ..squares import FULL_MASK, NUM_SQUARES
from .ranktables import POPCOUNT8, RANK_BYTE, comb_count
from .store import UNREACHABLE, TableFile


def _popcount(x: np.ndarray) -> np.ndarray:
    return (
        POPCOUNT8[x & 255]
        + POPCOUNT8[(x >> 8) & 255]
        + POPCOUNT8[(x >> 16) & 255]
        + (POPCOUNT8[(x >> 24) & 255])
    )


def ranks(black: np.ndarray, blank: np.ndarray, ncomb: int) -> np.ndarray:
    """The rank of each board (black mask, blank square) among boards with as many black
    knights."""
    low = (np.int64(1) << blank) - 1
    comb = (black & low) | ((black >> (blank + 1)) << blank)
    b0, b1, b2 = comb & 255, (comb >> 8) & 255, comb >> 16
    m1 = POPCOUNT8[b0]
    return (
        blank * ncomb
        + RANK_BYTE[0, b0, 0]
        + RANK_BYTE[1, b1, m1]
        + RANK_BYTE[2, b2, m1 + POPCOUNT8[b1]]
    )


def distances(table: TableFile, keys: np.ndarray, limit: int) -> np.ndarray:
    """Exact distance of each board (packed keys) to the table's target; -1 when it is
    more than ``limit`` moves away or cannot reach the target."""
    keys = np.asarray(keys, dtype=np.int64)
    out = np.full(keys.shape[0], -1, dtype=np.int64)
    black, blank = keys & FULL_MASK, keys >> NUM_SQUARES
    valid = (blank >= 0) & (blank < NUM_SQUARES)
    blank = np.where(valid, blank, 0)
    valid &= (black >> blank & 1 == 0) & (_popcount(black) == table.black_count)
    idx = np.flatnonzero(valid)
    ncomb = comb_count(table.black_count)
    d = table.values(ranks(black[idx], blank[idx], ncomb))
    keep = (d != UNREACHABLE) & (d <= limit)
    idx, d = idx[keep], d[keep].astype(np.int64)
    _confirm(table, black[idx], blank[idx], d, ncomb)
    out[idx] = d
    return out


def _confirm(
    table: TableFile, black: np.ndarray, blank: np.ndarray, d: np.ndarray, ncomb: int
) -> None:
    """Every neighbour of every answered board is one nearer or one farther, as in any
    breadth-first distance (and so one is nearer): a single damaged or forged byte is
    caught even when its block checksum was recomputed.  Raises :class:`TableError`."""
    from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS
    from .lookup import _inconsistent

    nearer = d == 0
    for j in range(8):
        has = KNIGHT_COUNTS[blank] > j
        if not has.any():
            break
        b, k, dist = black[has], blank[has], d[has]
        n = KNIGHT_NEIGHBORS[k, j]
        moved = ((b >> n) & 1) * ((np.int64(1) << n) | (np.int64(1) << k))
        there = table.values(ranks(b ^ moved, n, ncomb)).astype(np.int64)
        if (np.abs(there - dist) != 1).any():
            raise _inconsistent(table)
        nearer[has] |= there == dist - 1
    if not nearer.all():
        raise _inconsistent(table)
