"""The kernels behind :mod:`.solutions`: every optimal move sequence of a board, walked
depth first over its shortest-path graph and written out a buffer at a time, as the
blank's squares or as lines of text; and paths found by search written as the same lines.

Most boards of a far board's graph have a single next board: :func:`branch_graph` folds
each such run into the edge that leads to it, so the walk (:func:`optimal_lines`) steps
only where paths branch.  It keeps one branch per level on an explicit stack, and the
current path's line in a buffer: a path rewrites only the moves where it leaves the one
before.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from . import layout as K


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
def _line_size(depth, width, form):
    if form == K.RAW:
        return depth + 1
    return depth * width + 1 + (20 + len(K.JSON_HEAD) + len(K.JSON_TAIL) if form == K.JSON else 0)


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
    size = _line_size(depth, width, form)
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
