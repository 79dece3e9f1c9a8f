"""The table's numba kernels: the breadth-first build (:mod:`.builder`), batch queries
(:mod:`.distance_table`), the proof (:mod:`.verify`), walks down either table, and the
listing of every optimal solution (:mod:`.solutions`).  Each takes its tables as
arguments and releases the GIL, run on Python threads over *jobs*: blocks of ``BLOCK``
consecutive ranks of one blank square (:func:`_job`).  ``dist[rank]``: a board's distance
byte, :data:`UNSEEN` where not reached.

The neighbours one nearer than a board at ``d`` are those at ``d - 1`` in the distance
table, or of code ``(d - 1) % 3`` in the compact one (the distance modulo 3, :data:`LOST`
for a board that never reaches the target).  A walk steps to the first of them in the
knight tables' order; one that finds none, or passes the farthest distance, is
:data:`~bitknights.results.INCONSISTENT`.

:func:`branch_graph` folds each run of boards with a single next board (most of a far
board's shortest-path graph) into the edge that leads to it, so the listing
(:func:`optimal_lines`) steps only where paths branch, one branch per level on an explicit
stack, the current path's line in a buffer.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .._export import (
    Tuple,
    b1,
    buf,
    export,
    i8,
    mat,
    ro_buf,
    ro_cube,
    ro_i1mat,
    ro_i1vec,
    ro_mat,
    ro_u1mat,
    ro_vec,
    vec,
)
from ..coords.kernels import (
    colex_unrank,
    moved_black,
    next_comb,
    popcount,
    state_rank,
    state_unrank,
    unpack,
    unsqueeze,
)
from ..results import INCONSISTENT, OVER_LIMIT, UNREACHABLE, UNSEEN
from ..squares import NUM_SQUARES
from . import layout as K
from .layout import BLOCK, LOST

# a Gosper step per skipped rank beats a fresh unrank (~24 steps) up to about this gap
_GOSPER_GAP = 24
_RANKING = (i8, i8, ro_mat, ro_vec, ro_mat, ro_cube, ro_vec)  # layout.kernel_args(k)


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


@export(i8(buf, i8, ro_vec, *_RANKING, b1, i8, i8))
@njit(cache=True, nogil=True)
def sweep(dist, d, blanks, ncomb, k, nbr, cnt, binom, rank_byte, popcount8, pull, j0, j1):
    """One layer of the build over jobs ``j0 .. j1 - 1`` of the blanks ``blanks``: push
    ``d + 1`` onto every unseen neighbour of a board at ``d``, or pull it into every unseen
    board with a neighbour at ``d`` (``pull``; returns how many it marked)."""
    if pull:  # each way compiled apart, its test out of the inner loop
        return _sweep(
            dist, d, blanks, ncomb, k, nbr, cnt, binom, rank_byte, popcount8, True, j0, j1
        )
    return _sweep(dist, d, blanks, ncomb, k, nbr, cnt, binom, rank_byte, popcount8, False, j0, j1)


@njit(cache=True, inline="always")
def _sweep(dist, d, blanks, ncomb, k, nbr, cnt, binom, rank_byte, popcount8, pull, j0, j1):
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
            if at >= 0 and i - at <= _GOSPER_GAP:  # a few Gosper steps from the last one
                while at < i:
                    comb = next_comb(comb)
                    at += 1
            else:
                comb, at = colex_unrank(i, k, NUM_SQUARES - 1, binom), i
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


@export(vec(buf, i8, ro_vec, *_RANKING))
@njit(cache=True, nogil=True)
def push_list(dist, d, frontier, ncomb, k, nbr, cnt, binom, rank_byte, popcount8):
    """A push from a frontier list of ranks (one thread); returns the next frontier."""
    out = np.empty(frontier.shape[0] * 8, dtype=np.int64)
    m = 0
    nd = np.uint8(d + 1)
    for i in range(frontier.shape[0]):
        black, blank = state_unrank(frontier[i], k, ncomb, binom)
        for j in range(cnt[blank]):
            nr = _neighbour(black, blank, j, nbr, ncomb, rank_byte, popcount8)
            if dist[nr] == UNSEEN:
                dist[nr] = nd
                out[m] = nr
                m += 1
    return out[:m].copy()


@export(i8(ro_buf, i8, ro_vec, i8, i8, i8))
@njit(cache=True, nogil=True)
def count(dist, value, blanks, ncomb, j0, j1):
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


@export(i8(ro_buf, i8, i8, i8, i8, *_RANKING))
@njit(cache=True, nogil=True)
def consistent_block(dist, goal, blank, lo, hi, ncomb, k, nbr, cnt, binom, rank_byte, popcount8):
    """The first rank in ``blank``'s ranks ``lo..hi-1`` that breaks a rule of
    :mod:`.verify`, or -1."""
    base = blank * ncomb
    comb = colex_unrank(lo, k, NUM_SQUARES - 1, binom)
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


# -- walks down a table ------------------------------------------------------------


@njit(cache=True, nogil=True, inline="always")
def code_of(payload, r):
    """The compact table's code of rank ``r``: bits ``2 * (r % 4)`` of byte ``r // 4``."""
    return (np.int64(payload[r >> 2]) >> ((r & 3) << 1)) & 3


@export(i8(ro_buf, i8, i8, i8, i8, i8, i8, i8, ro_mat, ro_vec, ro_cube, ro_vec, vec))
@njit(cache=True, nogil=True)
def walk(payload, black, blank, cap, far, tblack, tblank, ncomb, nbr, cnt, rank_byte, popcount8,
         path):  # fmt: skip
    """The distance of the board (``black``, ``blank``) down the compact table, the blank's
    squares along one optimal path in ``path[0..distance]``; ``OVER_LIMIT`` past ``cap``
    moves (``cap <= far``), ``UNREACHABLE``, or ``INCONSISTENT``."""
    c = code_of(payload, state_rank(black, blank, ncomb, rank_byte, popcount8))
    if c == LOST:
        return UNREACHABLE
    d = c + 3 * (far + 1)  # known modulo 3 only: it stays positive down the walk
    path[0] = blank
    steps = 0
    while black != tblack or blank != tblank:
        if steps == cap:
            return OVER_LIMIT if cap < far else INCONSISTENT
        d -= 1
        moved = False
        for j in range(cnt[blank]):
            n = nbr[blank, j]
            nb = moved_black(black, blank, n)
            if code_of(payload, state_rank(nb, n, ncomb, rank_byte, popcount8)) == d % 3:
                black, blank = nb, n
                moved = True
                break
        if not moved:
            return INCONSISTENT
        steps += 1
        path[steps] = blank
    return steps


@export(i8(ro_buf, b1, ro_vec, i8, i8, i8, i8, i8, i8, ro_mat, ro_vec, ro_cube, ro_vec, vec))
@njit(cache=True, nogil=True)
def distances(payload, compact, keys, k, cap, far, tblack, tblank, ncomb, nbr, cnt, rank_byte,
              popcount8, out):  # fmt: skip
    """``out[i]``: the distance of board ``keys[i]`` read from the distance table, or walked
    down the compact table (``compact``), else ``OVER_LIMIT`` (past ``cap``, unreachable,
    not ``k`` black knights).  Returns the index of the first board whose walk is
    ``INCONSISTENT``, or -1."""
    path = np.empty(far + 1, dtype=np.int64)
    for i in range(keys.shape[0]):
        black, blank = unpack(keys[i])
        if blank < 0 or blank >= NUM_SQUARES or (black >> blank) & 1 or popcount(black) != k:
            out[i] = OVER_LIMIT  # not a board of the table
            continue
        if compact:
            d = walk(payload, black, blank, cap, far, tblack, tblank, ncomb, nbr, cnt, rank_byte,
                     popcount8, path)  # fmt: skip
            if d == INCONSISTENT:
                return i
        else:
            d = np.int64(payload[state_rank(black, blank, ncomb, rank_byte, popcount8)])
            if d == UNSEEN or d > cap:
                d = np.int64(OVER_LIMIT)
        out[i] = d if d >= 0 else OVER_LIMIT
    return -1


@export(Tuple((vec, vec))(ro_buf, b1, ro_vec, i8, *_RANKING), "graph_edges")
@njit(cache=True, nogil=True)
def nearer_edges(payload, compact, ranks, want, ncomb, k, nbr, cnt, binom, rank_byte, popcount8):
    """For boards ``ranks``, ``want + 1`` moves away, every neighbour ``want`` moves away:
    ``(index into ranks, neighbour's rank)`` pairs, in the knight tables' order."""
    src = np.empty(ranks.shape[0] * 8, dtype=np.int64)
    dst = np.empty(ranks.shape[0] * 8, dtype=np.int64)
    m = 0
    for i in range(ranks.shape[0]):
        black, blank = state_unrank(ranks[i], k, ncomb, binom)
        for j in range(cnt[blank]):
            r = _neighbour(black, blank, j, nbr, ncomb, rank_byte, popcount8)
            if (code_of(payload, r) == want % 3) if compact else np.int64(payload[r]) == want:
                src[m] = i
                dst[m] = r
                m += 1
    return src[:m].copy(), dst[:m].copy()


# -- every optimal solution -------------------------------------------------------


@export(Tuple((vec, vec, vec, buf, buf))(ro_vec, ro_vec, ro_i1vec))
@njit(cache=True, nogil=True)
def branch_graph(first, succ, blanks):
    """A :class:`~bitknights.table.solutions.PathGraph` with every run of boards that have
    a single next board folded into the edge leading into it (kept: the start and every
    board with no next board or several).  Returns ``(bfirst, bend, label_at, labels,
    bblank)``: kept node ``v``'s edges are ``bfirst[v]..bfirst[v + 1] - 1``, its blank
    ``bblank[v]``; edge ``e`` leads to kept node ``bend[e]`` through the boards whose
    blank squares are ``labels[label_at[e]:label_at[e + 1]]``."""
    n = first.shape[0] - 1
    keep = np.empty(n, dtype=np.int64)
    kept = 0
    for v in range(n):
        if v == 0 or first[v + 1] - first[v] != 1:
            keep[v] = kept
            kept += 1
        else:
            keep[v] = -1
    bblank = np.empty(kept, dtype=np.uint8)
    for v in range(n):
        if keep[v] >= 0:
            bblank[keep[v]] = blanks[v]
    # run[v]: the boards a run from a folded board v passes to its kept end (nodes are
    # numbered a layer at a time from the start, so every next board comes later)
    run = np.zeros(n, dtype=np.int64)
    for v in range(n - 1, -1, -1):
        if keep[v] < 0:
            c = succ[first[v]]
            run[v] = 1 + (run[c] if keep[c] < 0 else 0)
    edges = 0
    size = 0
    for v in range(n):
        if keep[v] >= 0:
            for i in range(first[v], first[v + 1]):
                edges += 1
                c = succ[i]
                size += 1 + (run[c] if keep[c] < 0 else 0)
    bfirst = np.empty(kept + 1, dtype=np.int64)
    bend = np.empty(edges, dtype=np.int64)
    label_at = np.empty(edges + 1, dtype=np.int64)
    labels = np.empty(size, dtype=np.uint8)
    e = 0
    p = 0
    for v in range(n):
        if keep[v] < 0:
            continue
        bfirst[keep[v]] = e
        for i in range(first[v], first[v + 1]):
            label_at[e] = p
            c = succ[i]
            labels[p] = blanks[c]
            p += 1
            while keep[c] < 0:
                c = succ[first[c]]
                labels[p] = blanks[c]
                p += 1
            bend[e] = keep[c]
            e += 1
    bfirst[kept] = e
    label_at[edges] = p
    return bfirst, bend, label_at, labels, bblank


@export(buf(ro_vec, ro_vec, ro_buf, ro_buf, ro_u1mat))
@njit(cache=True, nogil=True)
def label_text(bfirst, label_at, labels, bblank, cells):
    """The moves of every edge of a folded graph as text: edge ``e``'s cells
    (``cells[from * 25 + to]``) at ``text[label_at[e] * width:label_at[e + 1] * width]``."""
    width = cells.shape[1]
    text = np.empty(labels.shape[0] * width, dtype=np.uint8)
    for v in range(bfirst.shape[0] - 1):
        for e in range(bfirst[v], bfirst[v + 1]):
            prev = np.int64(bblank[v])
            for j in range(label_at[e], label_at[e + 1]):
                b = np.int64(labels[j])
                _set_move(text, j, width, cells, b * 25 + prev)
                prev = b
    return text


@njit(cache=True, nogil=True, inline="always")
def _put(out, pos, text):
    for c in text:
        out[pos] = c
        pos += 1
    return pos


@njit(cache=True, nogil=True, inline="always")
def _set_move(line, t, width, cells, move):
    """Move ``t``'s cell of the line: ``cells[move]``."""
    at = t * width
    for c in range(width):
        line[at + c] = cells[move, c]


@njit(cache=True, nogil=True, inline="always")
def _emit(out, pos, path, line, depth, width, form, index):
    """Write the path (``path[0..depth]``, its moves' cells in ``line``) at ``pos`` in
    ``form``; returns where the next line goes."""
    if form == K.RAW:
        dst = out[pos : pos + depth + 1]
        for t in range(depth + 1):
            dst[t] = path[t]
        return pos + depth + 1
    if form == K.JSON:
        pos = _put(out, pos, K.JSON_HEAD)
    size = depth * width - 1 if depth else 0  # the last move's separator dropped
    dst = out[pos : pos + size]
    for j in range(size):
        dst[j] = line[j]
    pos += size
    if form != K.JSON:
        out[pos] = 10
        return pos + 1
    pos = _put(out, pos, K.JSON_TAIL)
    digits = 1
    while index >= 10**digits:
        digits += 1
    for d in range(digits - 1, -1, -1):
        out[pos + d] = 48 + index % 10
        index //= 10
    return _put(out, pos + digits, K.JSON_END)


@export(i8(ro_vec, ro_vec, ro_vec, ro_buf, ro_buf, i8, i8, i8, i8, i8, vec, mat, buf, buf, buf))
@njit(cache=True, nogil=True)
def optimal_lines(bfirst, bend, label_at, labels, text, root, depth, width, form, most, state,
                  stack, path, line, out):  # fmt: skip
    """Write at most ``most`` next paths of a folded graph (the start's blank ``root``,
    the target ``depth`` moves below; its edges' ``text`` from :func:`label_text`) into
    ``out`` in ``form`` (:mod:`~bitknights.table.layout`): ``CHUNK`` when ``out`` is full
    or holds ``most``, ``DONE`` after the last.  ``state``, ``stack`` (a row a level: next
    edge, end of the edges, depth), ``path`` and ``line`` carry the walk between calls."""
    state[K.PATHS] = 0
    state[K.BYTES] = 0
    if state[K.STARTED] == 0:
        state[K.STARTED] = 1
        state[K.LEVEL] = 0
        stack[0, 0] = bfirst[0]
        stack[0, 1] = bfirst[1]
        stack[0, 2] = 0
        path[0] = root
    level = state[K.LEVEL]
    size = depth + 1 if form == K.RAW else depth * width + 1
    if form == K.JSON:
        size += 20 + len(K.JSON_HEAD) + len(K.JSON_TAIL)
    pos = 0
    m = 0
    while level >= 0:
        sp = stack[level, 2]
        if sp == depth:
            if state[K.SKIP] > 0:
                state[K.SKIP] -= 1
            else:
                if m == most or pos + size > out.shape[0]:
                    break
                pos = _emit(out, pos, path, line, depth, width, form, state[K.INDEX])
                state[K.INDEX] += 1
                m += 1
            level -= 1
            continue
        i = stack[level, 0]
        if i == stack[level, 1]:
            level -= 1
            continue
        stack[level, 0] = i + 1
        a = label_at[i]
        run = label_at[i + 1] - a
        if form == K.RAW:
            dst = path[sp + 1 : sp + 1 + run]
            src = labels[a : a + run]
        else:
            dst = line[sp * width : (sp + run) * width]
            src = text[a * width : (a + run) * width]
        for j in range(dst.shape[0]):
            dst[j] = src[j]
        level += 1
        child = bend[i]
        stack[level, 0] = bfirst[child]
        stack[level, 1] = bfirst[child + 1]
        stack[level, 2] = sp + run
    state[K.LEVEL] = level
    state[K.PATHS] = m
    state[K.BYTES] = pos
    return K.CHUNK if level >= 0 else K.DONE


@export(i8(ro_i1mat, ro_u1mat, i8, i8, buf, buf))
@njit(cache=True, nogil=True)
def format_paths(paths, cells, form, first, line, out):
    """Write the move sequences of ``paths`` (rows of blank squares) into ``out`` in
    ``form`` (``TEXT`` or ``JSON``, the first line's index ``first``); returns the bytes
    written.  ``out`` must hold them all (:data:`~bitknights.table.layout.SPARE` a line
    beyond its moves)."""
    depth = paths.shape[1] - 1
    width = cells.shape[1]
    pos = 0
    for i in range(paths.shape[0]):
        same = 0
        if i and paths[i, 0] == paths[i - 1, 0]:
            while same < depth and paths[i, same + 1] == paths[i - 1, same + 1]:
                same += 1
        for t in range(same, depth):
            _set_move(line, t, width, cells, np.int64(paths[i, t + 1]) * 25 + paths[i, t])
        pos = _emit(out, pos, paths[i], line, depth, width, form, first + i)
    return pos
