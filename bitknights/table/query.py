"""Exact answers from a loaded distance table (see :mod:`bitknights.table.store`).

The table holds each board's distance mod 3.  A board's neighbours are one move nearer or
one move farther (the blank changes square colour on every move), and those two differ
mod 3, so the neighbour whose value is ``(value - 1) mod 3`` is exactly a nearer one.
Walking to such a neighbour until the target gives the exact distance and an optimal
path; every probe is one table read (``nodes`` in a :class:`~bitknights.Solution`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit, prange

from ..board import Board, Move
from ..engines.common import nearest_target_distance
from ..errors import BitknightsError
from ..squares import FULL_MASK, KNIGHT_COUNTS, KNIGHT_NEIGHBORS, NUM_SQUARES, square_color
from .rank import (
    BINOM,
    POPCOUNT8,
    RANK_BYTE,
    comb_count,
    moved_black,
    state_rank,
    state_unrank,
)
from .store import TableFile

KEY_SHIFT = NUM_SQUARES
# walk results that are not distances
_UNREACHABLE = -1
_OVER = -2
_BROKEN = -3
# batches of at least this many boards expand the table in memory first (a search of a few
# seconds, then one probe a board instead of a walk of about 30)
EXPAND_AT = 8_000_000
# path counts at or above this switch to Python ints (8 of them must not overflow int64)
_INT64_SAFE = (1 << 63) // 8


@njit(cache=True, inline="always")
def _value(payload, r):
    return (payload[r >> 2] >> ((r & 3) << 1)) & 3


@njit(cache=True, nogil=True)
def _walk(
    payload, black, blank, tblack, tblank, cap, ncomb, nbr, cnt, rank_byte, popcount8, h, path
):
    """Steps from (black, blank) to the target along nearer neighbours, and the probes
    made.  ``path[0..steps]`` gets the blank's squares when ``path`` is long enough.
    Steps is ``-1`` when the board cannot reach the target, ``-2`` when it is more than
    ``cap`` moves away, ``-3`` when the table contradicts itself.

    ``h[colour, sq]`` is the knight-jump distance from ``sq`` to the nearest square the
    target gives that colour (0 white, 1 black): moves whose knight gets nearer its
    colour's squares are probed first, then those that keep the distance, then the rest,
    which halves the probes per step on random boards (measured 2.7 -> 1.3).
    """
    probes = 1
    v = _value(payload, state_rank(black, blank, ncomb, rank_byte, popcount8))
    if v == 3:
        return _UNREACHABLE, probes
    record = path.shape[0] > 1
    if record:
        path[0] = blank
    steps = 0
    while black != tblack or blank != tblank:
        if steps >= cap:
            return _OVER, probes
        want = (v + 2) % 3
        moved = False
        for sign in range(-1, 2):
            for j in range(cnt[blank]):
                n = nbr[blank, j]
                colour = (black >> n) & 1
                gain = h[colour, blank] - h[colour, n]
                if (gain > 0) - (gain < 0) != sign:
                    continue
                nb = black
                if colour:
                    nb ^= (np.int64(1) << n) | (np.int64(1) << blank)
                probes += 1
                if _value(payload, state_rank(nb, n, ncomb, rank_byte, popcount8)) == want:
                    black = nb
                    blank = n
                    v = want
                    moved = True
                    break
            if moved:
                break
        if not moved:
            return _BROKEN, probes
        steps += 1
        if record:
            path[steps] = blank
    return steps, probes


@njit(cache=True, inline="always")
def _key_state(key, k):
    """``(black, blank, ok)`` of a key; ``ok`` when it is a board with ``k`` black knights."""
    blank = key >> KEY_SHIFT
    black = key & ((np.int64(1) << KEY_SHIFT) - 1)
    if blank < 0 or blank >= NUM_SQUARES or ((black >> blank) & 1) != 0:
        return black, np.int64(0), False
    c = 0
    x = black
    while x:
        x &= x - 1
        c += 1
    return black, blank, c == k


@njit(cache=True, parallel=True)
def _distances(
    payload, keys, k, tblack, tblank, cap, ncomb, nbr, cnt, rank_byte, popcount8, h, out
):
    """``out[i]``: the distance of board ``keys[i]`` (``black | blank << 25``), ``-1``
    when it has another number of black knights or cannot reach the target, ``-2``
    beyond ``cap``, ``-3`` if the table contradicts itself."""
    nopath = np.empty(1, dtype=np.int64)
    for i in prange(keys.shape[0]):
        black, blank, ok = _key_state(keys[i], k)
        if not ok:
            out[i] = _UNREACHABLE
        else:
            out[i] = _walk(
                payload,
                black,
                blank,
                tblack,
                tblank,
                cap,
                ncomb,
                nbr,
                cnt,
                rank_byte,
                popcount8,
                h,
                nopath,
            )[0]


@njit(cache=True, parallel=True)
def _exact_distances(exact, keys, k, cap, ncomb, rank_byte, popcount8, out):
    """:func:`_distances` from an array of exact distances (``uint8``, 255 unreachable)."""
    for i in prange(keys.shape[0]):
        black, blank, ok = _key_state(keys[i], k)
        d = np.int64(255)
        if ok:
            d = np.int64(exact[state_rank(black, blank, ncomb, rank_byte, popcount8)])
        out[i] = _UNREACHABLE if d == 255 else (_OVER if d > cap else d)


@njit(cache=True, parallel=True)
def _rank_distances(
    payload,
    ranks,
    k,
    want_value,
    tblack,
    tblank,
    cap,
    ncomb,
    nbr,
    cnt,
    binom,
    rank_byte,
    popcount8,
    h,
    out,
):
    """``out[i]``: the distance of the board of rank ``ranks[i]`` when its table value is
    ``want_value`` (else ``-1``, no walk)."""
    nopath = np.empty(1, dtype=np.int64)
    for i in prange(ranks.shape[0]):
        r = ranks[i]
        if _value(payload, r) != want_value:
            out[i] = _UNREACHABLE
        else:
            black, blank = state_unrank(r, k, ncomb, binom)
            out[i] = _walk(
                payload,
                black,
                blank,
                tblack,
                tblank,
                cap,
                ncomb,
                nbr,
                cnt,
                rank_byte,
                popcount8,
                h,
                nopath,
            )[0]


@njit(cache=True)
def _nearer_edges(payload, ranks, want_value, k, ncomb, nbr, cnt, binom, rank_byte, popcount8):
    """For boards ``ranks`` (all one distance d > 0), every neighbour at d - 1, whose
    table value is ``want_value``: ``(index into ranks, neighbour's rank)`` pairs."""
    src = np.empty(ranks.shape[0] * 8, dtype=np.int64)
    dst = np.empty(ranks.shape[0] * 8, dtype=np.int64)
    m = 0
    for i in range(ranks.shape[0]):
        black, blank = state_unrank(ranks[i], k, ncomb, binom)
        for j in range(cnt[blank]):
            n = nbr[blank, j]
            nb = moved_black(black, blank, n)
            r = state_rank(nb, n, ncomb, rank_byte, popcount8)
            if _value(payload, r) == want_value:
                src[m] = i
                dst[m] = r
                m += 1
    return src[:m].copy(), dst[:m].copy()


class Hint(NamedTuple):
    """One legal move of a board: the board it makes, that board's distance to the
    target, and whether the move is optimal (one step nearer)."""

    move: Move
    board: Board
    distance: int | None
    optimal: bool


class DistanceTable:
    """Exact distances to one target, from a verified table file.

    Boards with another number of black knights than the target never reach it: their
    distance is ``None``.
    """

    def __init__(self, file: TableFile) -> None:
        self.file = file
        self.target = file.target
        self.black_count = file.black_count
        self._ncomb = comb_count(file.black_count)
        self._payload = file.payload
        self._consts = (KNIGHT_NEIGHBORS, KNIGHT_COUNTS)
        self._h = np.stack(nearest_target_distance(self.target.key))
        self._tb = np.int64(self.target.black)
        self._tbl = np.int64(self.target.blank)
        self._exact: np.ndarray | None = None

    # -- header facts -----------------------------------------------------------------

    @property
    def layers(self) -> list[int]:
        """``layers[d]``: how many boards are exactly ``d`` moves from the target."""
        return list(self.file.layers)

    @property
    def max_distance(self) -> int:
        """The farthest any board is from the target."""
        return self.file.max_distance

    @property
    def state_count(self) -> int:
        """The boards the table covers: ``25 * C(24, k)``."""
        return self.file.state_count

    def example(self) -> Board:
        """One board at :attr:`max_distance` (checked by walking it to the target)."""
        board = self.file.example()
        if self.distance(board) != self.max_distance:
            raise BitknightsError(f"distance table {self.file.path} is inconsistent")
        return board

    # -- single boards ----------------------------------------------------------------

    def _reaches(self, board: Board) -> bool:
        return board.black.bit_count() == self.black_count

    def walk(self, board: Board, cap: int | None = None) -> tuple[int, list[int], int]:
        """``(steps, blank squares along one optimal path, probes)``.  ``steps`` is the
        exact distance, or ``-1`` when the board cannot reach the target, ``-2`` when it is
        more than ``cap`` moves away (the path is then empty)."""
        if not self._reaches(board):
            return _UNREACHABLE, [], 0
        limit = self.max_distance if cap is None else min(int(cap), self.max_distance)
        path = np.empty(self.max_distance + 2, dtype=np.int64)
        steps, probes = _walk(
            self._payload,
            np.int64(board.black),
            np.int64(board.blank),
            self._tb,
            self._tbl,
            np.int64(limit),
            np.int64(self._ncomb),
            *self._consts,
            RANK_BYTE,
            POPCOUNT8,
            self._h,
            path,
        )
        steps = int(steps)
        self._check(steps)
        if steps < 0:
            return steps, [], int(probes)
        return steps, [int(x) for x in path[: steps + 1]], int(probes)

    def _check(self, steps: int) -> None:
        if steps == _BROKEN:
            raise BitknightsError(
                f"distance table {self.file.path} is inconsistent; "
                "run `bitknights table build` to rebuild it"
            )

    def distance(self, board: Board) -> int | None:
        """The exact fewest moves from ``board`` to the target; ``None`` if unreachable
        (``load_table().distance(Board("10110/01*11/10111/01001/00000"))`` is 7)."""
        steps = self.walk(board)[0]
        return None if steps < 0 else steps

    def path(self, board: Board) -> list[Board] | None:
        """One optimal path from ``board`` to the target (``board`` first), or ``None``."""
        steps, blanks, _ = self.walk(board)
        if steps < 0:
            return None
        boards = [board]
        for sq in blanks[1:]:
            boards.append(boards[-1].play(sq))
        return boards

    def hints(self, board: Board) -> list[Hint]:
        """Every legal move of ``board`` with the board it makes and that board's distance;
        ``optimal`` marks the moves one step nearer the target."""
        here = self.distance(board)
        out = []
        for move, child in board.children():
            d = self.distance(child)
            out.append(Hint(move, child, d, here is not None and d is not None and d < here))
        return out

    def count_solutions(self, board: Board) -> int:
        """How many distinct optimal move sequences lead from ``board`` to the target
        (``0`` when it cannot reach it, ``1`` for the target itself).

        Dynamic programming over the shortest-path graph, one distance at a time: the
        boards ``i`` moves along some optimal path, each with the number of optimal
        move sequences reaching it.  Counts are ``int64`` while they cannot overflow, then
        Python integers.
        """
        d = self.distance(board)
        if d is None:
            return 0
        from .rank import rank

        ranks = np.array([rank(board.black, board.blank)], dtype=np.int64)
        counts: np.ndarray = np.ones(1, dtype=np.int64)
        for step in range(d, 0, -1):
            src, dst = _nearer_edges(
                self._payload,
                ranks,
                np.int64((step - 1) % 3),
                np.int64(self.black_count),
                np.int64(self._ncomb),
                *self._consts,
                BINOM,
                RANK_BYTE,
                POPCOUNT8,
            )
            # a board has at most 8 predecessors, so sums stay below 8 * max(counts)
            if counts.dtype != object and int(counts.max()) >= _INT64_SAFE:
                counts = counts.astype(object)
            ranks, inverse = np.unique(dst, return_inverse=True)
            nxt = np.zeros(ranks.shape[0], dtype=counts.dtype)
            np.add.at(nxt, inverse, counts[src])
            counts = nxt
        return int(counts[0])

    # -- many boards ------------------------------------------------------------------

    def distances(self, boards: np.ndarray | list[Board], limit: int | None = None) -> np.ndarray:
        """Exact distances of many boards, given as :class:`Board` objects or as an
        ``int64`` array of keys (``Board.key``): an ``int64`` array, ``-1`` where a board
        cannot reach the target or (with ``limit``) is more than ``limit`` moves away.
        Runs on every numba thread.

        Each board is walked to the target (about 1.3 probes per move).  From
        :data:`EXPAND_AT` boards on, the table is first expanded in memory
        (:meth:`expand`), after which a board costs one probe."""
        if isinstance(boards, np.ndarray):
            keys = np.ascontiguousarray(boards, dtype=np.int64)
        else:
            keys = np.array([b.key for b in boards], dtype=np.int64)
        cap = self.max_distance if limit is None else max(0, min(int(limit), self.max_distance))
        out = np.empty(keys.shape[0], dtype=np.int64)
        if self._exact is None and keys.shape[0] >= EXPAND_AT:
            self.expand()
        if self._exact is not None:
            _exact_distances(
                self._exact,
                keys,
                np.int64(self.black_count),
                np.int64(cap),
                np.int64(self._ncomb),
                RANK_BYTE,
                POPCOUNT8,
                out,
            )
            out[out < 0] = -1
            return out
        _distances(
            self._payload,
            keys,
            np.int64(self.black_count),
            self._tb,
            self._tbl,
            np.int64(cap),
            np.int64(self._ncomb),
            *self._consts,
            RANK_BYTE,
            POPCOUNT8,
            self._h,
            out,
        )
        if (out == _BROKEN).any():
            self._check(_BROKEN)
        out[out < 0] = -1
        return out

    def expand(self) -> np.ndarray:
        """Every board's exact distance (``uint8`` by rank, 255 for unreachable), kept for
        this table's lifetime (68 MB for 12 black knights): one breadth-first search (about
        5 seconds), checked against the file's values mod 3."""
        if self._exact is None:
            from .bfs import bfs_distances, pack

            dist, layers = bfs_distances(self.target)
            if tuple(layers) != self.file.layers or not np.array_equal(pack(dist), self._payload):
                raise BitknightsError(
                    f"distance table {self.file.path} disagrees with a fresh search; "
                    "run `bitknights table build` to rebuild it"
                )
            dist.setflags(write=False)
            self._exact = dist
        return self._exact

    def random_boards(self, distance: int, count: int, seed: int | None = None) -> list[Board]:
        """``count`` distinct boards drawn uniformly from those exactly ``distance`` moves
        from the target; the same ``seed`` gives the same boards.

        Common distances are drawn by rejection (uniform ranks, kept when their distance is
        right and they are new); rare ones, or a large share of a layer, from the list of
        the whole layer, which takes a breadth-first search up to that distance.
        """
        layers = self.file.layers
        if distance < 0 or distance >= len(layers) or layers[distance] < count:
            have = layers[distance] if 0 <= distance < len(layers) else 0
            raise BitknightsError(
                f"asked for {count} boards at distance {distance}, "
                f"but only {have} board{'s' if have != 1 else ''} lie at that distance"
            )
        if seed is not None and (not isinstance(seed, int) or seed < 0):
            raise BitknightsError(f"a seed is a non-negative integer, got {seed!r}")
        if count <= 0:
            return []
        rng = np.random.default_rng(seed)
        size = layers[distance]
        total = self.state_count
        if size / total >= 1e-3 and count <= size // 2:
            ranks = self._sample_by_rejection(rng, distance, count)
        else:
            from .bfs import bfs_distances

            if self._exact is not None:
                layer = np.flatnonzero(self._exact == distance)
            else:
                dist, _ = bfs_distances(self.target, stop_after=distance)
                layer = np.flatnonzero(dist == distance)
                del dist
            ranks = layer[rng.choice(layer.shape[0], size=count, replace=False)]
        from .rank import unrank_many

        blacks, blanks = unrank_many(np.asarray(ranks, dtype=np.int64), self.black_count)
        return [Board.from_key(_key(int(b), int(s))) for b, s in zip(blacks, blanks)]

    def _sample_by_rejection(self, rng: np.random.Generator, distance: int, count: int) -> list:
        layers = self.file.layers
        want_colour = square_color(self.target.blank) ^ (distance & 1)
        chosen: dict[int, None] = {}
        batch = int(min(1 << 22, max(1 << 12, 2 * count * self.state_count // layers[distance])))
        out = np.empty(batch, dtype=np.int64)
        while len(chosen) < count:
            ranks = rng.integers(0, self.state_count, size=batch, dtype=np.int64)
            blanks = ranks // self._ncomb
            colour_ok = np.array([square_color(s) for s in range(NUM_SQUARES)])[blanks]
            ranks = ranks[colour_ok == want_colour]
            res = out[: ranks.shape[0]]
            _rank_distances(
                self._payload,
                ranks,
                np.int64(self.black_count),
                np.int64(distance % 3),
                self._tb,
                self._tbl,
                np.int64(distance),
                np.int64(self._ncomb),
                *self._consts,
                BINOM,
                RANK_BYTE,
                POPCOUNT8,
                self._h,
                res,
            )
            for r in ranks[res == distance].tolist():
                if r not in chosen:
                    chosen[r] = None
                    if len(chosen) == count:
                        break
        return list(chosen)


def _key(black: int, blank: int) -> int:
    return (black & FULL_MASK) | blank << KEY_SHIFT


__all__ = ["DistanceTable", "Hint"]
