"""Distances of a small batch straight from the table file, in plain Python.

For the classic job on a few thousand boards, importing numpy (about 0.1 s) costs more
than the whole answer: ranking a board in Python and reading its byte takes about 2 µs.
The command line therefore answers small count-only batches with this module and the
numpy-free reader (:meth:`bitknights.batch.BatchReader.key_lists`); the table is the same
verified, memory-mapped file (:func:`bitknights.table.store.load`).

>>> from bitknights.board import TARGET
>>> rank(TARGET.black, TARGET.blank, 12) == __import__("bitknights.table.rank").table.rank.rank(
...     TARGET.black, TARGET.blank)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb

from ..squares import FULL_MASK, NUM_SQUARES
from .store import UNREACHABLE, TableFile

_BINOM = [[comb(n, i) for i in range(NUM_SQUARES)] for n in range(NUM_SQUARES)]


def rank(black: int, blank: int, black_count: int) -> int:
    """The board's rank among the boards with ``black_count`` black knights: the same
    number as :func:`bitknights.table.rank.rank`."""
    squeezed = (black & ((1 << blank) - 1)) | (black >> (blank + 1) << blank)
    r = blank * _BINOM[NUM_SQUARES - 1][black_count]
    i = 0
    while squeezed:
        low = squeezed & -squeezed
        i += 1
        r += _BINOM[low.bit_length() - 1][i]
        squeezed ^= low
    return r


def distances(table: TableFile, keys: Iterable[int], limit: int) -> list[int]:
    """The exact distance of each board (packed keys) to the table's target; -1 when it
    is more than ``limit`` moves away or cannot reach the target."""
    data = table.data
    k = table.black_count
    out = []
    for key in keys:
        black, blank = key & FULL_MASK, key >> NUM_SQUARES
        if blank >= NUM_SQUARES or black >> blank & 1 or black.bit_count() != k:
            out.append(-1)
            continue
        d = data[rank(black, blank, k)]
        out.append(d if d != UNREACHABLE and d <= limit else -1)
    return out
