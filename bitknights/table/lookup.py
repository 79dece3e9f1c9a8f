"""Answers straight from the table file, in plain Python: distances and optimal paths.

For the classic job on a few thousand boards, importing numpy (about 0.1 s) costs more
than the whole answer: ranking a board in Python and reading its byte takes about 2 µs.
The command line therefore answers small count-only batches with this module and the
numpy-free reader (:meth:`bitknights.batch.BatchReader.key_lists`); the table is the same
verified, memory-mapped file (:func:`bitknights.table.store.load`).  Paths (:func:`walk`,
a few dozen probes) are walked here too, so the table engine's single-board answers never
need numba.

>>> from bitknights.board import TARGET
>>> rank(TARGET.black, TARGET.blank, 12) == __import__("bitknights.table.rank").table.rank.rank(
...     TARGET.black, TARGET.blank)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from math import comb

from ..squares import FULL_MASK, KNIGHT_TARGETS, NUM_SQUARES
from .store import UNREACHABLE, TableError, TableFile

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


def confirmed_distances(table: TableFile, keys: Iterable[int], limit: int) -> list[int]:
    """:func:`distances`, every answer confirmed before it is returned: the board's
    neighbours are all one nearer or one farther (as in any breadth-first distance), and
    a path of exactly that many moves to the target is walked (:func:`walk`).  So an
    answer is never more than the true distance, and a single damaged or forged byte is
    caught, even one whose block checksum was recomputed; raises :class:`TableError`."""
    out = distances(table, keys, limit)
    data, k = table.data, table.black_count
    for key, d in zip(keys, out):
        if d < 0:
            continue
        black, blank = key & FULL_MASK, key >> NUM_SQUARES
        for n in KNIGHT_TARGETS[blank]:
            nb = black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black
            if abs(data[rank(nb, n, k)] - d) != 1:
                raise _inconsistent(table)
        walk(table, black, blank, d)
    return out


OVER_LIMIT = -2
""":func:`walk`'s steps for a board farther than the cap (``-1``: it cannot reach)."""


def walk(table: TableFile, black: int, blank: int, cap: int) -> tuple[int, list[int], int]:
    """``(steps, blank squares along one optimal path, probes)`` for the board (black
    mask, blank square): ``steps`` is its exact distance, ``-1`` when it cannot reach the
    target, :data:`OVER_LIMIT` when it is more than ``cap`` moves away (the path is then
    empty).  Each step goes to the first neighbour, in knight-move order, one nearer; a
    table that offers none, or reaches 0 off the target, raises :class:`TableError`."""
    data, k = table.data, table.black_count
    if black.bit_count() != k:
        return -1, [], 0
    d = data[rank(black, blank, k)]
    if d == UNREACHABLE:
        return -1, [], 1
    if d > cap:
        return OVER_LIMIT, [], 1
    blanks, probes = [blank], 1
    for want in range(d - 1, -1, -1):
        for n in KNIGHT_TARGETS[blank]:
            nb = black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black
            probes += 1
            if data[rank(nb, n, k)] == want:
                black, blank = nb, n
                blanks.append(n)
                break
        else:
            raise _inconsistent(table)
    if black != table.target.black or blank != table.target.blank:
        raise _inconsistent(table)
    return d, blanks, probes


def _inconsistent(table: TableFile) -> TableError:
    return TableError(
        f"distance table {table.path} is inconsistent; run `bitknights table build` to rebuild it"
    )
