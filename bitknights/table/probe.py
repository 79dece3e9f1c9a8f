"""Distances read straight from a proved distance table's bytes: in plain Python (a small
batch answers before numpy could import), or with numpy (big batches without numba).
"""

from __future__ import annotations

from ..coords import KEY_SHIFT, comb_count
from ..results import UNSEEN
from ..squares import FULL_MASK
from .store import ByteTable, valid

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable

    import numpy as np


BULK_FROM = 512  # batches this large read their blocks in one pass (TableFile.bytes_at)


def distances(table: ByteTable, keys: Iterable[int], limit: int) -> list[int]:
    """The exact distance of each board (packed keys), ``-1`` beyond ``limit`` or never."""
    keys = list(keys)
    k = table.black_count
    rank_of = table.rank_of(len(keys))
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


def distances_array(table: ByteTable, keys: np.ndarray, limit: int) -> np.ndarray:
    """:func:`distances` with numpy: an ``int64`` array for an array of keys."""
    import numpy as np

    from ..coords.arrays import ranks, valid_keys

    keys = np.asarray(keys, dtype=np.int64)
    out = np.full(keys.shape[0], -1, dtype=np.int64)
    black, blank = keys & FULL_MASK, keys >> KEY_SHIFT
    idx = np.flatnonzero(valid_keys(keys, table.black_count))
    d = table.values(ranks(black[idx], blank[idx], comb_count(table.black_count)))
    d = d.astype(np.int64)
    keep = (d != UNSEEN) & (d <= limit)
    out[idx[keep]] = d[keep]
    return out


__all__ = ["distances", "distances_array"]
