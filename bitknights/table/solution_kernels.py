"""The kernel behind :mod:`.solutions`: every optimal move sequence of a board, read from
a distance table depth first, a chunk of paths per call.

Paths come in lexicographic order of the squares the knights jump from (the knight tables
list a square's jumps in increasing square order, :mod:`bitknights.squares`).  The search
keeps one board per depth (an explicit stack), so memory does not grow with the count.

Every distance it acts on is confirmed the way :mod:`.probe` confirms table answers,
without trusting any checksum: a board it steps onto, and every neighbour it passes over
as farther, must have its neighbours exactly one nearer or one farther, one of them
nearer, and only the target may be at 0.  ``seen`` (a fixed-size, direct-mapped record
of boards already confirmed) spares confirming a board again every time a path passes
it.  A board that breaks the rules stops the kernel with ``BAD``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..coords.kernels import moved_black, state_rank
from .solution_layout import BAD, CHUNK, DEPTH, DONE, PATHS, SP, STARTED

_CONFIRMED = 1  # ``seen`` marks: the board's own distance was confirmed ...
_EXPANDED = 2  # ... and so were its farther neighbours'


@njit(cache=True, nogil=True, inline="always")
def _slot(r, mask):
    return ((r * np.int64(2654435761)) >> 7) & mask


@njit(cache=True, nogil=True)
def _consistent(payload, black, blank, d, tblack, tblank, k, ncomb, nbr, cnt, rank_byte,
                popcount8):  # fmt: skip
    """Whether the board's distance ``d`` agrees with its neighbours' (see the module)."""
    nearer = d == 0
    if nearer and (black != tblack or blank != tblank):
        return False
    for j in range(cnt[blank]):
        n = nbr[blank, j]
        e = np.int64(payload[state_rank(moved_black(black, blank, n), n, ncomb, rank_byte,
                                        popcount8)])  # fmt: skip
        if e == d - 1:
            nearer = True
        elif e != d + 1:
            return False
    return nearer


@njit(cache=True, nogil=True)
def _confirm(payload, black, blank, d, tblack, tblank, k, ncomb, nbr, cnt, rank_byte, popcount8,
             seen):  # fmt: skip
    """Confirm a board the search steps onto and every neighbour it will pass over as
    farther; boards already confirmed are looked up in ``seen``."""
    mask = seen.shape[0] - 1
    r = state_rank(black, blank, ncomb, rank_byte, popcount8)
    s = _slot(r, mask)
    if seen[s] == r * 4 + _EXPANDED:
        return True
    if seen[s] != r * 4 + _CONFIRMED and not _consistent(
        payload, black, blank, d, tblack, tblank, k, ncomb, nbr, cnt, rank_byte, popcount8
    ):
        return False
    for j in range(cnt[blank]):
        n = nbr[blank, j]
        nb = moved_black(black, blank, n)
        rn = state_rank(nb, n, ncomb, rank_byte, popcount8)
        e = np.int64(payload[rn])
        if e != d + 1:
            continue
        sn = _slot(rn, mask)
        if seen[sn] == rn * 4 + _CONFIRMED or seen[sn] == rn * 4 + _EXPANDED:
            continue
        if not _consistent(payload, nb, n, e, tblack, tblank, k, ncomb, nbr, cnt, rank_byte,
                           popcount8):  # fmt: skip
            return False
        seen[sn] = rn * 4 + _CONFIRMED
    seen[s] = r * 4 + _EXPANDED
    return True


@njit(cache=True, nogil=True)
def optimal_paths(payload, black, blank, tblack, tblank, k, ncomb, nbr, cnt, rank_byte,
                  popcount8, state, stack, seen, out):  # fmt: skip
    """Write the next optimal paths from (``black``, ``blank``) into ``out`` (a row of
    blank squares each, the start's first): ``CHUNK`` when ``out`` filled up, ``DONE``
    after the last, ``BAD`` when the table contradicts itself.  ``state[PATHS]``: rows
    written; ``state[DEPTH]``: the distance.  ``stack`` (rows ``0..distance``: blank,
    black, next jump to try), ``state`` and ``seen`` (``-1`` at first, a power of two
    long) carry the search between calls."""
    state[PATHS] = 0
    if state[STARTED] == 0:
        d = np.int64(payload[state_rank(black, blank, ncomb, rank_byte, popcount8)])
        if not _confirm(payload, black, blank, d, tblack, tblank, k, ncomb, nbr, cnt,
                        rank_byte, popcount8, seen):  # fmt: skip
            return BAD
        state[STARTED] = 1
        state[DEPTH] = d
        state[SP] = 0
        stack[0, 0] = blank
        stack[0, 1] = black
        stack[0, 2] = 0
    depth = state[DEPTH]
    sp = state[SP]
    m = 0
    while sp >= 0:
        if sp == depth:
            for t in range(depth + 1):
                out[m, t] = stack[t, 0]
            m += 1
            sp -= 1
            if m == out.shape[0]:
                break
            continue
        b = stack[sp, 0]
        i = stack[sp, 2]
        if i >= cnt[b]:
            sp -= 1
            continue
        stack[sp, 2] = i + 1
        n = nbr[b, i]
        nb = moved_black(stack[sp, 1], b, n)
        want = depth - sp - 1
        if np.int64(payload[state_rank(nb, n, ncomb, rank_byte, popcount8)]) != want:
            continue
        if not _confirm(payload, nb, n, want, tblack, tblank, k, ncomb, nbr, cnt, rank_byte,
                        popcount8, seen):  # fmt: skip
            state[SP] = sp
            state[PATHS] = m
            return BAD
        sp += 1
        stack[sp, 0] = n
        stack[sp, 1] = nb
        stack[sp, 2] = 0
    state[SP] = sp
    state[PATHS] = m
    return CHUNK if sp >= 0 else DONE
