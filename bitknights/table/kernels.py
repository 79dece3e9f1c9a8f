"""The distance table's numba kernels: the breadth-first build (:mod:`.builder`), batch
queries (:mod:`.distance_table`) and the proof (:mod:`.verify`).  Every kernel takes its
tables as arguments and releases the GIL (:mod:`bitknights.native`), run on Python threads
over *jobs*: blocks of ``BLOCK`` consecutive ranks of one blank square (:func:`_job`).
``dist[rank]``: a board's distance byte, :data:`UNSEEN` where not reached.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..coords.kernels import (
    comb_unrank,
    moved_black,
    next_comb,
    popcount,
    state_rank,
    unpack,
    unsqueeze,
)
from ..results import UNSEEN
from ..squares import NUM_SQUARES
from .layout import BLOCK

# a Gosper step per skipped rank beats a fresh unrank (~24 steps) up to about this gap
_GOSPER_GAP = 24
_UNREACHABLE = -1  # a distance result that is not a distance


@njit(cache=True, inline="always")
def _seek(comb, at, i, k, binom):
    """``(the black set of colex rank i, i)`` from the set ``comb`` of rank ``at`` (``-1``:
    none yet): by Gosper steps when ``i`` is near, else by unranking."""
    if at >= 0 and i - at <= _GOSPER_GAP:
        while at < i:
            comb = next_comb(comb)
            at += 1
        return comb, at
    return comb_unrank(i, k, binom), i


@njit(cache=True, inline="always")
def _job(job, blanks, ncomb):
    """Job ``job``: ``(blank, base, lo, hi)``, its blank square, that square's first rank,
    and the combination ranks ``lo..hi-1`` it covers."""
    nblocks = (ncomb + BLOCK - 1) // BLOCK
    blank = blanks[job // nblocks]
    lo = (job % nblocks) * BLOCK
    return blank, blank * ncomb, lo, min(lo + BLOCK, ncomb)


@njit(cache=True, inline="always")
def _neighbour(black, blank, j, nbr, ncomb, rank_byte, popcount8):
    """The rank of the board that the ``j``-th knight's move into ``blank`` makes."""
    n = nbr[blank, j]
    return state_rank(moved_black(black, blank, n), n, ncomb, rank_byte, popcount8)


@njit(cache=True, inline="always")
def _sweep(dist, d, blanks, ncomb, k, nbr, cnt, binom, rank_byte, popcount8, j0, j1, pull):
    """One layer of the build over jobs ``j0 .. j1 - 1`` of the blanks ``blanks``: push
    ``d + 1`` onto every unseen neighbour of a board at ``d``, or pull it into every unseen
    board with a neighbour at ``d`` (``pull``; returns how many it marked)."""
    nd = np.uint8(d + 1)
    ud = np.uint8(d)
    want = np.uint8(UNSEEN) if pull else ud
    total = 0
    for job in range(j0, j1):
        blank, base, lo, hi = _job(job, blanks, ncomb)
        at = -1
        comb = np.int64(0)
        for i in range(lo, hi):
            if dist[base + i] != want:
                continue
            comb, at = _seek(comb, at, i, k, binom)
            black = unsqueeze(comb, blank)
            for j in range(cnt[blank]):
                r = _neighbour(black, blank, j, nbr, ncomb, rank_byte, popcount8)
                if not pull:
                    if dist[r] == UNSEEN:
                        dist[r] = nd
                elif dist[r] == ud:
                    dist[base + i] = nd
                    total += 1
                    break
    return total


@njit(cache=True, nogil=True)
def _push(dist, d, blanks, ncomb, k, nbr, cnt, binom, rank_byte, popcount8, j0, j1):
    """:func:`_sweep`, pushing."""
    return _sweep(dist, d, blanks, ncomb, k, nbr, cnt, binom, rank_byte, popcount8, j0, j1, False)


@njit(cache=True, nogil=True)
def _push_list(dist, d, frontier, ncomb, k, nbr, cnt, binom, rank_byte, popcount8):
    """A push from a frontier list of ranks (one thread); returns the next frontier."""
    out = np.empty(frontier.shape[0] * 8, dtype=np.int64)
    m = 0
    nd = np.uint8(d + 1)
    for i in range(frontier.shape[0]):
        r = frontier[i]
        blank = r // ncomb
        black = unsqueeze(comb_unrank(r - blank * ncomb, k, binom), blank)
        for j in range(cnt[blank]):
            nr = _neighbour(black, blank, j, nbr, ncomb, rank_byte, popcount8)
            if dist[nr] == UNSEEN:
                dist[nr] = nd
                out[m] = nr
                m += 1
    return out[:m].copy()


@njit(cache=True, nogil=True)
def _pull(dist, d, blanks, ncomb, k, nbr, cnt, binom, rank_byte, popcount8, j0, j1):
    """:func:`_sweep`, pulling."""
    return _sweep(dist, d, blanks, ncomb, k, nbr, cnt, binom, rank_byte, popcount8, j0, j1, True)


@njit(cache=True, nogil=True)
def _count(dist, value, blanks, ncomb, j0, j1):
    """How many boards of jobs ``j0 .. j1 - 1`` have ``dist == value``."""
    v = np.uint8(value)
    total = 0
    for job in range(j0, j1):
        _, base, lo, hi = _job(job, blanks, ncomb)
        c = 0
        for i in range(base + lo, base + hi):
            c += dist[i] == v
        total += c
    return total


@njit(cache=True, nogil=True)
def _first(dist, value, blanks, ncomb, j0, j1):
    """The lowest rank of jobs ``j0 .. j1 - 1`` with ``dist == value``, else -1."""
    v = np.uint8(value)
    for job in range(j0, j1):
        _, base, lo, hi = _job(job, blanks, ncomb)
        for i in range(base + lo, base + hi):
            if dist[i] == v:
                return i
    return -1


@njit(cache=True, inline="always")
def _key_state(key, k):
    """``(black, blank, ok)`` of a key; ``ok`` when it is a board with ``k`` black knights."""
    black, blank = unpack(key)
    if blank < 0 or blank >= NUM_SQUARES or ((black >> blank) & 1) != 0:
        return black, np.int64(0), False
    return black, blank, popcount(black) == k


@njit(cache=True, nogil=True)
def _distances(payload, keys, k, cap, ncomb, rank_byte, popcount8, out):
    """``out[i]``: the distance of board ``keys[i]``, ``-1`` when it has another number
    of black knights, cannot reach the target or is more than ``cap`` moves away."""
    for i in range(keys.shape[0]):
        black, blank, ok = _key_state(keys[i], k)
        if not ok:
            out[i] = _UNREACHABLE
            continue
        d = np.int64(payload[state_rank(black, blank, ncomb, rank_byte, popcount8)])
        out[i] = _UNREACHABLE if d == UNSEEN or d > cap else d


@njit(cache=True, nogil=True)
def _consistent_block(dist, goal, blank, lo, hi, ncomb, k, nbr, cnt, binom, rank_byte, popcount8):
    """The first rank in ``blank``'s ranks ``lo..hi-1`` that breaks a rule of
    :mod:`.verify`, or -1."""
    base = blank * ncomb
    comb = comb_unrank(lo, k, binom)
    for i in range(lo, hi):
        if i > lo:
            comb = next_comb(comb)
        r = base + i
        d = np.int64(dist[r])
        if (d == 0) != (r == goal):
            return r
        black = unsqueeze(comb, blank)
        nearer = d == 0
        for j in range(cnt[blank]):
            e = np.int64(dist[_neighbour(black, blank, j, nbr, ncomb, rank_byte, popcount8)])
            if d == UNSEEN or e == UNSEEN:
                if d != e:
                    return r
                continue
            if e - d > 1 or d - e > 1:
                return r
            if e == d - 1:
                nearer = True
        if d != UNSEEN and not nearer:
            return r
    return -1
