"""The IDA* kernels behind :mod:`.ida` (everything they use comes in as arguments, so
the same source compiles just in time or ahead of time: :mod:`bitknights.native`)."""

from __future__ import annotations

import numpy as np
from numba import njit

from ..coords.kernels import pattern_rank as mask_rank
from ..results import NO_BUDGET, OVER_BUDGET, OVER_LIMIT, STOPPED
from ..squares import NUM_SQUARES

POLL = 1 << 16  # nodes between looks at the stop flag


@njit(cache=True, nogil=True, inline="always")
def _part(mask, mode, near, table, part, pc):
    """One colour's share of the bound: the pattern database entry of its mask
    (``mode`` 1), or the sum of its knights' nearest-square distances (``mode`` 0)."""
    if mode == 1:
        return np.int64(table[mask_rank(mask, part, pc)])
    h = 0
    for sq in range(NUM_SQUARES):
        if (mask >> sq) & 1:
            h += near[sq]
    return h


@njit(cache=True, nogil=True)
def ida_one(black, blank, tblank, max_depth, nbr, cnt, color, mode, hw, hb, pw, pb, part, pc,
                budget, path, stop):  # fmt: skip
    """``(fewest moves from (black, blank) to the target, nodes expanded)``, or instead of
    the moves ``OVER_LIMIT`` beyond ``max_depth``, ``STOPPED`` when ``stop[0]`` was
    raised, ``OVER_BUDGET`` past ``budget`` nodes.  The bound is the nearest-square sum
    (``hw``/``hb``, ``mode`` 0) or the pattern databases (``pw``/``pb``, ``mode`` 1), 0
    exactly at the target.  On success ``path[0..steps]`` holds the blank's squares."""
    white = ((1 << NUM_SQUARES) - 1) & ~black & ~(1 << blank)
    h_w = _part(white, mode, hw, pw, part, pc)
    h_b = _part(black, mode, hb, pb, part, pc)
    if h_w + h_b == 0:
        path[0] = blank
        return 0, 1
    tcol = color[tblank]
    h = h_w + h_b
    bound = h + ((h ^ color[blank] ^ tcol) & 1)
    sblank = np.empty(max_depth + 2, np.int64)
    sblack = np.empty(max_depth + 2, np.int64)
    swhite = np.empty(max_depth + 2, np.int64)
    shw = np.empty(max_depth + 2, np.int64)
    shb = np.empty(max_depth + 2, np.int64)
    si = np.empty(max_depth + 2, np.int64)
    nodes = 0
    poll = POLL
    while bound <= max_depth:
        next_bound = 1 << 30
        sp = 0
        sblank[0] = blank
        sblack[0] = black
        swhite[0] = white
        shw[0] = h_w
        shb[0] = h_b
        si[0] = 0
        nodes += 1
        while sp >= 0:
            b = sblank[sp]
            i = si[sp]
            if i >= cnt[b]:
                sp -= 1
                continue
            si[sp] = i + 1
            n = nbr[b, i]
            if sp > 0 and n == sblank[sp - 1]:
                continue
            bl = sblack[sp]
            wh = swhite[sp]
            nw = shw[sp]
            nb = shb[sp]
            moved = (1 << n) | (1 << b)
            if mode == 1:
                if (bl >> n) & 1:
                    bl ^= moved
                    nb = np.int64(pb[mask_rank(bl, part, pc)])
                else:
                    wh ^= moved
                    nw = np.int64(pw[mask_rank(wh, part, pc)])
            elif (bl >> n) & 1:
                bl ^= moved
                nb = nb - hb[n] + hb[b]
            else:
                wh ^= moved
                nw = nw - hw[n] + hw[b]
            nh = nw + nb
            # the remaining distance has the parity of the blank's colour change
            f = sp + 1 + nh + ((nh ^ color[n] ^ tcol) & 1)
            if f > bound:
                if f < next_bound:
                    next_bound = f
                continue
            sp += 1
            sblank[sp] = n
            sblack[sp] = bl
            swhite[sp] = wh
            shw[sp] = nw
            shb[sp] = nb
            si[sp] = 0
            nodes += 1
            if nh == 0:
                for k in range(sp + 1):
                    path[k] = sblank[k]
                return sp, nodes
            if nodes >= poll:
                poll = nodes + POLL
                if stop[0] != 0:
                    return STOPPED, nodes
                if nodes > budget:
                    return OVER_BUDGET, nodes
        bound = next_bound
    return OVER_LIMIT, nodes


@njit(cache=True, nogil=True)
def ida_many(blacks, blanks, tblank, max_depth, nbr, cnt, color, mode, hw, hb,
              pw, pb, part, pc, steps, nodes, stop):  # fmt: skip
    """``ida_one`` for each board (with the target's knight counts); a board answered
    ``STOPPED`` ends the batch."""
    path = np.empty(max_depth + 2, np.int64)
    for i in range(len(blacks)):
        steps[i], nodes[i] = ida_one(
            blacks[i], blanks[i], tblank, max_depth, nbr, cnt, color,
            mode, hw, hb, pw, pb, part, pc, NO_BUDGET, path, stop,
        )  # fmt: skip
        if steps[i] == STOPPED:
            return
