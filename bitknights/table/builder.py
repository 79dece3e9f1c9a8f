"""Exhaustive layered breadth-first search from a target over every board of its kind.

``dist[rank]`` (``uint8``, :data:`UNSEEN` until found) is filled one distance at a time.
Every move takes the blank to a square of the other colour, so layer ``d`` lives on the
blank squares of one colour and layer ``d + 1`` on the other; a layer is made one of two
ways, whichever touches fewer boards:

* *push*: every board of layer ``d`` marks its unseen neighbours ``d + 1``;
* *pull*: every unseen board of the other colour that has a neighbour in layer ``d``
  becomes ``d + 1``.

Both run over blocks of consecutive ranks with ``prange`` (two cores here).  In a push two
threads may write the same byte, but always the same value ``d + 1``, so no atomics are
needed; a pull writes only the board it is looking at.  While a layer is small (the first
dozen or so) it is kept as a list of ranks and pushed on one thread, with no scan of the
whole array.  Measured here, pushing wins up to the widest layers and pulling after them.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable

import numpy as np
from numba import njit, prange

from ..board import Board
from ..coords import comb_count, rank, state_count
from ..coords.arrays import BINOM, POPCOUNT8, RANK_BYTE
from ..coords.kernels import (
    comb_unrank,
    moved_black,
    next_comb,
    state_rank,
    unsqueeze,
)
from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS, NUM_SQUARES, square_color
from . import store
from .store import TableFile

UNSEEN = 255
BLOCK = 1 << 15  # ranks per parallel job
# a Gosper step per skipped rank beats a fresh unrank (~24 steps) up to about this gap
_GOSPER_GAP = 24
# frontiers up to this size are kept as rank lists (no scan of the whole table)
_LIST_MAX = 1 << 18
_PULL_RATIO = 1.8


@njit(cache=True, inline="always")
def _seek(comb, at, i, k, binom):
    """The black set of colex rank ``i``, from the set ``comb`` of rank ``at`` (``-1``:
    none yet): by Gosper steps when ``i`` is at most ``_GOSPER_GAP`` ahead, else by
    unranking.  Returns ``(comb, i)``."""
    if at >= 0 and i - at <= _GOSPER_GAP:
        while at < i:
            comb = next_comb(comb)
            at += 1
        return comb, at
    return comb_unrank(i, k, binom), i


@njit(cache=True, inline="always")
def _jobs(blanks, ncomb):
    """How many parallel jobs cover the boards whose blank is in ``blanks``: one per block
    of ``BLOCK`` consecutive ranks of one blank square."""
    return blanks.shape[0] * ((ncomb + BLOCK - 1) // BLOCK)


@njit(cache=True, inline="always")
def _job(job, blanks, ncomb):
    """Job ``job`` of :func:`_jobs`: ``(blank, base, lo, hi)``, its blank square, that
    square's first rank, and the combination ranks ``lo..hi-1`` it covers (board ranks
    ``base + lo .. base + hi - 1``)."""
    nblocks = (ncomb + BLOCK - 1) // BLOCK
    blank = blanks[job // nblocks]
    lo = (job % nblocks) * BLOCK
    return blank, blank * ncomb, lo, min(lo + BLOCK, ncomb)


@njit(cache=True, parallel=True)
def _push(dist, d, blanks, ncomb, k, nbr, cnt, binom, rank_byte, popcount8):
    """Mark ``d + 1`` on every unseen neighbour of a board at ``d`` whose blank is in
    ``blanks``."""
    nd = np.uint8(d + 1)
    ud = np.uint8(d)
    for job in prange(_jobs(blanks, ncomb)):
        blank, base, lo, hi = _job(job, blanks, ncomb)
        at = -1
        comb = np.int64(0)
        for i in range(lo, hi):
            if dist[base + i] != ud:
                continue
            comb, at = _seek(comb, at, i, k, binom)
            black = unsqueeze(comb, blank)
            for j in range(cnt[blank]):
                n = nbr[blank, j]
                nb = moved_black(black, blank, n)
                r = state_rank(nb, n, ncomb, rank_byte, popcount8)
                if dist[r] == UNSEEN:
                    dist[r] = nd
    return 0


@njit(cache=True)
def _push_list(dist, d, frontier, ncomb, k, nbr, cnt, binom, rank_byte, popcount8):
    """:func:`_push` for a frontier given as a list of ranks (one thread); returns the
    ranks it marked, the next frontier."""
    out = np.empty(frontier.shape[0] * 8, dtype=np.int64)
    m = 0
    nd = np.uint8(d + 1)
    for i in range(frontier.shape[0]):
        r = frontier[i]
        blank = r // ncomb
        black = unsqueeze(comb_unrank(r - blank * ncomb, k, binom), blank)
        for j in range(cnt[blank]):
            n = nbr[blank, j]
            nb = moved_black(black, blank, n)
            nr = state_rank(nb, n, ncomb, rank_byte, popcount8)
            if dist[nr] == UNSEEN:
                dist[nr] = nd
                out[m] = nr
                m += 1
    return out[:m].copy()


@njit(cache=True, parallel=True)
def _pull(dist, d, blanks, ncomb, k, nbr, cnt, binom, rank_byte, popcount8):
    """Mark ``d + 1`` on every unseen board whose blank is in ``blanks`` and which has a
    neighbour at ``d``; returns how many were marked."""
    nd = np.uint8(d + 1)
    ud = np.uint8(d)
    total = 0
    for job in prange(_jobs(blanks, ncomb)):
        blank, base, lo, hi = _job(job, blanks, ncomb)
        at = -1
        comb = np.int64(0)
        found = 0
        for i in range(lo, hi):
            if dist[base + i] != UNSEEN:
                continue
            comb, at = _seek(comb, at, i, k, binom)
            black = unsqueeze(comb, blank)
            for j in range(cnt[blank]):
                n = nbr[blank, j]
                nb = moved_black(black, blank, n)
                if dist[state_rank(nb, n, ncomb, rank_byte, popcount8)] == ud:
                    dist[base + i] = nd
                    found += 1
                    break
        total += found
    return total


@njit(cache=True, parallel=True)
def _count(dist, value, blanks, ncomb):
    """How many boards whose blank is in ``blanks`` have ``dist == value``."""
    v = np.uint8(value)
    total = 0
    for job in prange(_jobs(blanks, ncomb)):
        _, base, lo, hi = _job(job, blanks, ncomb)
        c = 0
        for i in range(base + lo, base + hi):
            c += dist[i] == v
        total += c
    return total


@njit(cache=True, parallel=True)
def _first(dist, value, blanks, ncomb):
    """The lowest rank whose blank is in ``blanks`` with ``dist == value``, else -1."""
    v = np.uint8(value)
    first = np.full(_jobs(blanks, ncomb), -1, dtype=np.int64)
    for job in prange(first.shape[0]):
        _, base, lo, hi = _job(job, blanks, ncomb)
        for i in range(base + lo, base + hi):
            if dist[i] == v:
                first[job] = i
                break
    best = -1
    for r in first:
        if r >= 0 and (best < 0 or r < best):
            best = r
    return best


def _progress_printer(quiet: bool | None) -> Callable[[str], None]:
    if quiet is None:
        quiet = not sys.stderr.isatty()
    if quiet:
        return lambda line: None

    def emit(line: str) -> None:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()

    return emit


def bfs_distances(
    target: Board, *, stop_after: int | None = None, quiet: bool | None = True
) -> tuple[np.ndarray, list[int]]:
    """``(dist, layers)``: the exact distance to ``target`` of every board with the
    target's number of black knights, indexed by :func:`~bitknights.coords.rank`
    (``uint8``; :data:`UNSEEN` for boards that cannot reach it), and ``layers[d]``, the
    number of boards at distance ``d``.

    With ``stop_after`` the search stops once that layer is complete (farther boards stay
    :data:`UNSEEN`).  Progress (one line per distance) goes to standard error unless
    ``quiet`` (``None``: quiet when standard error is not a terminal).
    """
    emit = _progress_printer(quiet)
    k = target.black.bit_count()
    ncomb = comb_count(k)
    total = state_count(k)
    dist = np.full(total, UNSEEN, dtype=np.uint8)
    by_colour = [
        np.array([sq for sq in range(NUM_SQUARES) if square_color(sq) == c], dtype=np.int64)
        for c in (0, 1)
    ]
    unseen = [len(by_colour[c]) * ncomb for c in (0, 1)]
    # average degree of a blank square of each colour, for the push/pull estimate
    degree = [float(KNIGHT_COUNTS[by_colour[c]].mean()) for c in (0, 1)]
    t0 = time.perf_counter()
    target_rank = rank(target.black, target.blank)
    dist[target_rank] = 0
    colour = square_color(target.blank)
    unseen[colour] -= 1
    layers = [1]
    emit(f"distance  0: {1:>12,} boards")
    args = (
        np.int64(ncomb),
        np.int64(k),
        KNIGHT_NEIGHBORS,
        KNIGHT_COUNTS,
        BINOM,
        RANK_BYTE,
        POPCOUNT8,
    )
    frontier_list: np.ndarray | None = np.array([target_rank], dtype=np.int64)
    d = 0
    while stop_after is None or d < stop_after:
        other = 1 - colour
        frontier = layers[-1]
        if frontier_list is not None and frontier <= _LIST_MAX:
            how = "list"
            frontier_list = _push_list(dist, np.int64(d), frontier_list, *args)
            found = len(frontier_list)
        else:
            frontier_list = None
            # a push ranks every neighbour of the frontier; a pull ranks neighbours of each
            # unseen board until one hits, which pays once the unseen are few (measured
            # here: even at about 1.8 unseen per frontier board)
            if frontier * degree[colour] * _PULL_RATIO <= unseen[other] * degree[other]:
                how = "push"
                _push(dist, np.int64(d), by_colour[colour], *args)
                found = int(_count(dist, np.int64(d + 1), by_colour[other], np.int64(ncomb)))
            else:
                how = "pull"
                found = int(_pull(dist, np.int64(d), by_colour[other], *args))
        if found == 0:
            break
        d += 1
        layers.append(found)
        unseen[other] -= found
        colour = other
        emit(f"distance {d:2d}: {found:>12,} boards  ({how}, {time.perf_counter() - t0:.1f} s)")
    reached = sum(layers)
    emit(
        f"{reached:,} of {total:,} boards reach the target; farthest {len(layers) - 1} moves"
        f" ({time.perf_counter() - t0:.1f} s)"
    )
    return dist, layers


def build_table(
    target: Board, cache_dir: str | os.PathLike[str] | None = None, *, quiet: bool | None = None
) -> TableFile:
    """Enumerate every board's distance to ``target``, write the table file atomically
    (replacing whatever was there, valid or not) and return it, loaded and verified.

    Progress goes to standard error unless ``quiet`` (``None``: quiet when standard error
    is not a terminal).
    """
    dist, layers = bfs_distances(target, quiet=quiet)
    unreachable = int(dist.shape[0] - sum(layers))
    far = len(layers) - 1
    colour = square_color(target.blank) ^ (far & 1)  # the blank's colour at that distance
    blanks = np.array([sq for sq in range(NUM_SQUARES) if square_color(sq) == colour])
    ncomb = comb_count(target.black.bit_count())
    example = int(_first(dist, np.int64(far), blanks, np.int64(ncomb)))
    path = store.table_path(target, cache_dir)
    store.write(path, target, dist, layers, unreachable, example)
    del dist
    return store.load(target, cache_dir)
