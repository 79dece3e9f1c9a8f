"""The numba kernels of the bidirectional engine (:mod:`bitknights.engines.bidir`); the
hash tables are :mod:`.hashset` tables holding each board's depth modulo 4."""

from __future__ import annotations

import numpy as np
from numba import njit

from .._export import Tuple, b1, export, i8, ro_mat, ro_vec, u4vec, vec
from ..coords import KEY_SHIFT as _BLANK_SHIFT
from ..results import GROW, OVER_LIMIT, STOPPED, UNREACHABLE
from ..squares import FULL_MASK
from . import DEPTH_CAP
from . import hashset as hs

POLL = 1 << 14  # expansions between looks at the stop flag

_SIDE = (u4vec, i8, vec, i8)  # a side: its table, count, frontier and depth


@njit(cache=True, nogil=True)
def _neighbour(x, b, q):
    """The board after the knight on ``q`` jumps into the blank ``b`` of board ``x``."""
    black = x & FULL_MASK
    if (black >> q) & 1:
        black ^= (1 << q) | (1 << b)
    return black | (q << _BLANK_SHIFT)


@njit(cache=True, nogil=True)
def _descend(table, key, root, nbr, cnt, out, pos):
    """Follow ``table`` from ``key`` down to ``root``, each step to the neighbour one
    layer closer.  Writes the blank squares into ``out[pos:]`` (``key``'s first) and
    returns the number of moves (``-1`` if ``out`` is too short)."""
    out[pos] = key >> _BLANK_SHIFT
    x = key
    v = hs.get(table, x)
    steps = 0
    while x != root:
        if pos + steps + 1 >= out.size:
            return -1
        want = (v - 1) & 3
        b = x >> _BLANK_SHIFT
        for i in range(cnt[b]):
            y = _neighbour(x, b, nbr[b, i])
            if hs.get(table, y) == want:
                x = y
                break
        v = want
        steps += 1
        out[pos + steps] = x >> _BLANK_SHIFT
    return steps


@njit(cache=True, nogil=True)
def _expand(table, count, front, depth, other, oroot, check, full, nbr, cnt, scratch, stop):
    """Grow one side from its frontier ``front`` (layer ``depth``) to layer ``depth + 1``:
    ``(table, count, next_front, best, meet, expanded)``.  With ``check`` each new board is
    looked up in the other side's table ``other`` (rooted at ``oroot``); ``meet`` is the
    first board found there (``-1`` none), where the layer stops, and ``best`` the length
    of the path through it (with ``full``: the layer is finished, the shortest kept).
    ``expanded`` is negative if ``stop[0]`` was raised."""
    nxt = np.empty(2 * front.size + 64, np.int64)
    n = 0
    best = -1
    meet = -1
    nd = depth + 1
    tag = nd & 3
    expanded = 0
    for x in front:
        if (count + 8) * hs.MAX_LOAD_DEN > table.size * hs.MAX_LOAD_NUM:
            table = hs.grow(table)
        if n + 8 > nxt.size:
            bigger = np.empty(nxt.size + nxt.size // 2, np.int64)
            bigger[:n] = nxt[:n]
            nxt = bigger
        expanded += 1
        if expanded % POLL == 0 and stop[0] != 0:
            return table, count, nxt[:n], -1, -1, -expanded
        b = x >> _BLANK_SHIFT
        for i in range(cnt[b]):
            y = _neighbour(x, b, nbr[b, i])
            if hs.insert(table, y, tag):
                count += 1
                nxt[n] = y
                n += 1
                if check and (meet < 0 or full) and hs.get(other, y) >= 0:
                    total = nd + _descend(other, y, oroot, nbr, cnt, scratch, 0)
                    if meet < 0 or total < best:
                        best = total
                        meet = y
        if meet >= 0 and not full:
            break
    if 4 * n < 3 * nxt.size:
        nxt = nxt[:n].copy()
    return table, count, nxt[:n], best, meet, expanded


@export(Tuple(_SIDE)(*_SIDE, i8, ro_mat, ro_vec))
@njit(cache=True, nogil=True)
def grow_target(ttable, tcount, tfront, tdepth, radius, nbr, cnt):
    """Extend the target's ball to ``radius`` (or until it holds every reachable board)."""
    other = np.empty(0, np.uint32)
    scratch = np.empty(0, np.int64)
    stop = np.zeros(1, np.int64)
    while tdepth < radius and tfront.size > 0:
        ttable, tcount, tfront, _, _, _ = _expand(
            ttable, tcount, tfront, tdepth, other, 0, False, True, nbr, cnt, scratch, stop
        )
        tdepth += 1
    return ttable, tcount, tfront, tdepth


@export(
    Tuple((i8, i8, *_SIDE))(i8, i8, i8, i8, *_SIDE, *_SIDE, i8, i8, b1, ro_mat, ro_vec, vec, vec)
)
@njit(cache=True, nogil=True)
def search(
    skey, tkey, par, limit, stable, scount, sfront, sdepth,
    ttable, tcount, tfront, tdepth, tmax, bias, full, nbr, cnt, path, stop,
):  # fmt: skip
    """Search from the start side ``(stable, scount, sfront, sdepth)`` (rooted at
    ``skey``) to the target ball ``(ttable, tcount, tfront, tdepth)`` (rooted at
    ``tkey``, no board of it met by the start side); ``par`` is the distance's parity.
    ``(steps, nodes, stable, scount, sfront, sdepth)``: ``steps`` is the distance (the
    blank's squares along one optimal path in ``path[:steps + 1]``), ``OVER_LIMIT``,
    ``UNREACHABLE``, ``STOPPED``, or ``GROW`` (grow the ball by a layer and call again with
    the returned start side)."""
    scratch = np.empty(path.size, np.int64)
    nodes = 0
    # the ball may be new to this start side: look its frontier up
    best = -1
    meet = -1
    for y in sfront:
        if hs.get(ttable, y) >= 0:
            total = sdepth + _descend(ttable, y, tkey, nbr, cnt, scratch, 0)
            if meet < 0 or total < best:
                best = total
                meet = y
    while meet < 0:
        # no meeting yet, so the distance exceeds sdepth + tdepth (and has parity par)
        if sfront.size == 0 or tfront.size == 0:
            return UNREACHABLE, nodes, stable, scount, sfront, sdepth
        low = sdepth + tdepth + 1
        check = (low & 1) == par
        if not check:
            low += 1
        if low > limit:
            return OVER_LIMIT, nodes, stable, scount, sfront, sdepth
        if tfront.size <= bias * sfront.size and tcount + 2 * tfront.size <= tmax:
            return GROW, nodes, stable, scount, sfront, sdepth
        stable, scount, sfront, best, meet, expanded = _expand(
            stable, scount, sfront, sdepth, ttable, tkey, check, full, nbr, cnt, scratch, stop
        )
        if expanded < 0:
            return STOPPED, nodes - expanded, stable, scount, sfront, sdepth
        nodes += expanded
        sdepth += 1
    if best > limit:
        return OVER_LIMIT, nodes, stable, scount, sfront, sdepth
    ds = _descend(stable, meet, skey, nbr, cnt, scratch, 0)
    for k in range(ds + 1):
        path[k] = scratch[ds - k]
    _descend(ttable, meet, tkey, nbr, cnt, path, ds)
    return best, nodes, stable, scount, sfront, sdepth


@export(Tuple(_SIDE)(i8))
@njit(cache=True, nogil=True)
def fresh_side(key):
    """A new side (a search's start side, or a ball): only ``key``, at depth 0."""
    table = hs.new_table32(64)
    hs.insert(table, key, 0)
    return table, np.int64(1), np.full(1, key, np.int64), np.int64(0)


@export(i8(ro_vec, i8, i8, i8, *_SIDE, i8, i8, ro_mat, ro_vec, ro_vec, vec, vec, vec))
@njit(cache=True, nogil=True)
def search_many(
    keys, first, tkey, limit, ttable, tcount, tfront, tdepth, tmax, bias,
    nbr, cnt, color, steps, nodes, stop,
):  # fmt: skip
    """:func:`search` for ``keys[first:]`` (boards with the target's knight counts) into
    ``steps``/``nodes`` (``OVER_LIMIT`` for over the limit or unreachable); returns the
    index of a board that asks for the ball to grow, else ``keys.size``."""
    path = np.empty(DEPTH_CAP + 2, np.int64)
    for i in range(first, keys.size):
        if stop[0] != 0:
            return keys.size
        key = keys[i]
        par = color[key >> _BLANK_SHIFT] ^ color[tkey >> _BLANK_SHIFT]
        stable, scount, sfront, sdepth = fresh_side(key)
        r, work, _, _, _, _ = search(
            key, tkey, par, limit, stable, scount, sfront, sdepth,
            ttable, tcount, tfront, tdepth, tmax, bias, False, nbr, cnt, path, stop,
        )  # fmt: skip
        nodes[i] = work
        if r == GROW:
            return i
        if r == STOPPED:
            return keys.size
        steps[i] = r if r >= 0 else OVER_LIMIT
    return keys.size
