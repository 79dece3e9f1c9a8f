"""The one IDA* kernel, the engine's and the heuristic lab's (:mod:`.ida`): one search loop
for any bound, specialised per bound at compile time.

A node's bound is the maximum of the parts ``flags`` selects, each kept incrementally:
``MISPLACED`` (knights off their colour's target squares), ``NEAREST`` (the
nearest-square sum) and ``PATTERNS`` (the pattern databases), both rounded up to the
parity the blank's square colour fixes, and ``USER`` (:func:`user_h`, a stub here that
:func:`~bitknights.engines.ida.user_kernel` replaces).  :func:`ida_nearest` and
:func:`ida_patterns` are the search with ``flags`` a constant (the engine's bounds: numba
folds the other parts away), :func:`ida_any` with ``flags`` read at run time.  Everything
they use comes in as arguments, so the same source compiles just in time or ahead of time
(:mod:`bitknights.native`).  The move undoing the previous one is never tried.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._export import export, i1mat, i8, mat, ro_buf, ro_cube, ro_mat, ro_vec, vec
from ..coords.kernels import pattern_rank, state_rank
from ..results import OVER_BUDGET, OVER_LIMIT, STOPPED
from ..squares import FULL_MASK
from . import _ida_layout as K

# ``stack`` columns, one row per depth
_BLANK, _BLACK, _WHITE, _MIS, _NEAR, _PW, _PB, _NEXT = 0, 1, 2, 3, 4, 5, 6, 7


@njit(cache=True, nogil=True)
def user_h(white, black, blank):
    """A user's bound; this stub is never called (``USER`` is off in this module)."""
    return 0


@njit(cache=True, nogil=True, inline="always")
def _bound(flags, mis, near, pw, pb, white, black, n, color, tcol):
    """The bound of a board from its parts (see the module docstring)."""
    h = np.int64(0)
    if flags & K.MISPLACED:
        h = mis
    if flags & K.NEAREST:
        v = near + ((near ^ color[n] ^ tcol) & 1)
        h = max(h, v)
    if flags & K.PATTERNS:
        v = pw + pb
        v += (v ^ color[n] ^ tcol) & 1
        h = max(h, v)
    if flags & K.USER:
        u = np.int64(user_h(white, black, n))
        h = max(h, min(max(u, np.int64(0)), np.int64(K.USER_CAP)))
    return h


@njit(cache=True, nogil=True, inline="always")
def _check(state, h, black, blank, payload, ncomb, rank_byte, popcount8):
    """Compare the bound ``h`` of a board with its true distance (table payload)."""
    d = np.int64(payload[state_rank(black, blank, ncomb, rank_byte, popcount8)])
    state[K.CHECKED] += 1
    if h > d:
        state[K.OVER] += 1
        if h - d > state[K.WORST]:
            state[K.WORST] = h - d
            state[K.WORST_KEY] = black | (blank << 25)
            state[K.WORST_H] = h


@njit(cache=True, nogil=True, inline="always")
def _search(flags, black, blank, tblack, tblank, max_depth, every, budget, nbr, cnt, color,
            add, pw_table, pb_table, rank_byte, popcount8, payload, ncomb, state, stack, iters,
            out, stop):  # fmt: skip
    """IDA* from (``black``, ``blank``) to (``tblack``, ``tblank``) under the bound
    ``flags`` selects; ``add[0..3]``: per-square misplaced terms (white, black) and
    nearest-square distances (white, black); ``pw_table``/``pb_table``: the pattern
    databases (with ``PATTERNS``); ``payload``: a distance table to check the bound
    against (``ncomb > 0``), else ignored.

    ``every == 0``: stop at the first solution (``FOUND``, its blanks in ``out[0]``).
    ``every == 1``: write every solution of the first threshold that has any into ``out``,
    a chunk per call (``CHUNK``, then ``DONE``); ``state`` and ``stack`` carry the search
    between calls.  ``OVER_LIMIT`` when the threshold passes ``max_depth``, ``STOPPED``
    when ``stop[0]`` was raised (call again to go on), ``OVER_BUDGET`` past ``budget``
    nodes before any solution.  ``iters[k]``: (threshold, nodes) of the k-th iteration."""
    tcol = color[tblank]
    check = ncomb > 0
    state[K.PATHS] = 0
    if state[K.PHASE] == 0:
        white = np.int64(FULL_MASK) & ~black & ~(np.int64(1) << blank)
        mis = np.int64(0)
        near = np.int64(0)
        for sq in range(25):
            if (white >> sq) & 1:
                mis += add[0, sq]
                near += add[2, sq]
            elif (black >> sq) & 1:
                mis += add[1, sq]
                near += add[3, sq]
        pw = np.int64(0)
        pb = np.int64(0)
        if flags & K.PATTERNS:
            pw = np.int64(pw_table[pattern_rank(white, rank_byte, popcount8)])
            pb = np.int64(pb_table[pattern_rank(black, rank_byte, popcount8)])
        h = _bound(flags, mis, near, pw, pb, white, black, blank, color, tcol)
        if check:
            _check(state, h, black, blank, payload, ncomb, rank_byte, popcount8)
        state[K.H0] = h
        stack[0, _BLANK] = blank
        stack[0, _BLACK] = black
        stack[0, _WHITE] = white
        stack[0, _MIS] = mis
        stack[0, _NEAR] = near
        stack[0, _PW] = pw
        stack[0, _PB] = pb
        state[K.BOUND] = h
        state[K.PHASE] = 1
        if black == tblack and blank == tblank:
            iters[0, 0] = h
            iters[0, 1] = 1
            state[K.ITERS] = 1
            state[K.NODES] = 1
            state[K.STEPS] = 0
            out[0, 0] = blank
            state[K.PATHS] = 1
            state[K.PHASE] = 3
            return K.FOUND if every == 0 else K.DONE
    if state[K.PHASE] == 3:
        return K.DONE
    sp = state[K.SP]
    bound = state[K.BOUND]
    next_bound = state[K.NEXT]
    nodes = state[K.NODES]
    poll = nodes + K.POLL
    m = 0
    while True:
        if state[K.PHASE] == 1:
            if bound > max_depth:
                state[K.NODES] = nodes
                return OVER_LIMIT
            next_bound = np.int64(1 << 30)
            sp = 0
            stack[0, _NEXT] = 0
            nodes += 1
            state[K.ITER_START] = nodes - 1
            state[K.FOUND_HERE] = 0
            state[K.PHASE] = 2
        while sp >= 0:
            b = stack[sp, _BLANK]
            i = stack[sp, _NEXT]
            if i >= cnt[b]:
                sp -= 1
                continue
            stack[sp, _NEXT] = i + 1
            n = nbr[b, i]
            if sp > 0 and n == stack[sp - 1, _BLANK]:
                continue
            bl = stack[sp, _BLACK]
            wh = stack[sp, _WHITE]
            mis = stack[sp, _MIS]
            near = stack[sp, _NEAR]
            pw = stack[sp, _PW]
            pb = stack[sp, _PB]
            moved = (np.int64(1) << n) | (np.int64(1) << b)
            c = (bl >> n) & 1  # the colour of the knight that jumps (1: black)
            if c:
                bl ^= moved
            else:
                wh ^= moved
            if flags & K.MISPLACED:
                mis += add[c, b] - add[c, n]
            if flags & K.NEAREST:
                near += add[2 + c, b] - add[2 + c, n]
            if flags & K.PATTERNS:
                if c:
                    pb = np.int64(pb_table[pattern_rank(bl, rank_byte, popcount8)])
                else:
                    pw = np.int64(pw_table[pattern_rank(wh, rank_byte, popcount8)])
            h = _bound(flags, mis, near, pw, pb, wh, bl, n, color, tcol)
            if check:
                _check(state, h, bl, n, payload, ncomb, rank_byte, popcount8)
            f = sp + 1 + h
            if f > bound:
                if f < next_bound:
                    next_bound = f
                continue
            sp += 1
            stack[sp, _BLANK] = n
            stack[sp, _BLACK] = bl
            stack[sp, _WHITE] = wh
            if flags & K.MISPLACED:
                stack[sp, _MIS] = mis
            if flags & K.NEAREST:
                stack[sp, _NEAR] = near
            if flags & K.PATTERNS:
                stack[sp, _PW] = pw
                stack[sp, _PB] = pb
            stack[sp, _NEXT] = 0
            nodes += 1
            if bl == tblack and n == tblank:
                for k in range(sp + 1):
                    out[m, k] = stack[k, _BLANK]
                state[K.STEPS] = sp
                state[K.FOUND_HERE] += 1
                m += 1
                if every == 0:
                    _record(state, iters, bound, nodes)
                    state[K.NODES] = nodes
                    state[K.PATHS] = m
                    state[K.PHASE] = 3
                    return K.FOUND
                sp -= 1
                if m == out.shape[0]:
                    _pause(state, sp, bound, next_bound, nodes, m)
                    return K.CHUNK
            if nodes >= poll:
                poll = nodes + K.POLL
                if stop[0] != 0:
                    _pause(state, sp, bound, next_bound, nodes, m)
                    return STOPPED
                if nodes > budget and state[K.FOUND_HERE] == 0:
                    state[K.NODES] = nodes
                    return OVER_BUDGET
        _record(state, iters, bound, nodes)
        state[K.PHASE] = 1
        if state[K.FOUND_HERE] > 0:
            state[K.NODES] = nodes
            state[K.PATHS] = m
            state[K.PHASE] = 3
            return K.DONE
        bound = next_bound
        state[K.BOUND] = bound


@njit(cache=True, nogil=True, inline="always")
def _pause(state, sp, bound, next_bound, nodes, m):
    """Keep the search's place in ``state`` for the next call."""
    state[K.SP] = sp
    state[K.BOUND] = bound
    state[K.NEXT] = next_bound
    state[K.NODES] = nodes
    state[K.PATHS] = m


@njit(cache=True, nogil=True, inline="always")
def _record(state, iters, bound, nodes):
    """Note the iteration at threshold ``bound`` that ends with ``nodes`` expanded."""
    k = state[K.ITERS]
    if k < iters.shape[0]:
        iters[k, 0] = bound
        iters[k, 1] = nodes - state[K.ITER_START]
        state[K.ITERS] = k + 1


_TABLES = (ro_mat, ro_vec, ro_vec, ro_mat, ro_buf, ro_buf, ro_cube, ro_vec, ro_buf, i8)
_BOARDS = i8(i8, vec, vec, i8, i8, i8, i8, i8, *_TABLES, vec, mat, mat, i1mat, vec, vec, vec)
"""The exported kernels' signature (``_TABLES``: ``nbr`` .. ``ncomb``)."""


def _compiled(name, bound):
    """The kernel exported as ``name``: :func:`_search` of each board (one that can reach
    the target: the distance service checks) under the bound ``bound``, or the one
    ``flags`` says with ``bound`` -1.  ``steps[i]``: its distance (``state[STEPS]`` when
    ``FOUND``) or the code it ended with, ``nodes[i]`` its nodes.  The first board starts
    from ``state`` as the caller gives it (fresh, or paused by the call before), each later
    one afresh; a board that ends ``STOPPED`` or ``CHUNK`` ends the batch.  Returns the
    last board's code."""

    @export(_BOARDS, name)
    @njit(cache=True, nogil=True)
    def kernel(flags, blacks, blanks, tblack, tblank, max_depth, every, budget, nbr, cnt,
               color, add, pw, pb, rank_byte, popcount8, payload, ncomb, state, stack, iters,
               out, steps, nodes, stop):  # fmt: skip
        code = np.int64(OVER_LIMIT)
        for i in range(len(blacks)):
            if i > 0:
                state[:] = 0
                state[K.WORST_KEY] = -1
            code = _search(flags if bound < 0 else bound, blacks[i], blanks[i], tblack, tblank,
                           max_depth, every, budget, nbr, cnt, color, add, pw, pb, rank_byte,
                           popcount8, payload, ncomb, state, stack, iters, out, stop)  # fmt: skip
            steps[i] = state[K.STEPS] if code == K.FOUND else code
            nodes[i] = state[K.NODES]
            if code == STOPPED or code == K.CHUNK:
                break
        return code

    return kernel


ida_any = _compiled("ida_any", -1)
ida_nearest = _compiled("ida_nearest", K.NEAREST)
ida_patterns = _compiled("ida_patterns", K.PATTERNS)
