"""The bidirectional search (:mod:`.bidir`): the numba side, with the target's ball shared
by every search of a process (kernels: :mod:`._bidir_kernels`), and the numpy side for
batches under small limits.
"""

from __future__ import annotations

import threading
from contextlib import contextmanager, suppress
from functools import lru_cache

import numpy as np

from .. import progress
from ..coords import KEY_SHIFT
from ..coords.arrays import SQUARE_COLOR
from ..results import GROW, STOPPED
from ..squares import FULL_MASK, KNIGHT_COUNTS, KNIGHT_NEIGHBORS
from ..system import cpus
from ..threads import POLL_SECONDS, Stopped, parallel_chunks, shared, wait
from . import DEPTH_CAP
from .common import CACHED_TARGETS, parity

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterator

    from ..board import Board
    from .options import StopFlag

    CacheDir = str | os.PathLike[str] | None

BALL_RADIUS = 13
"""The radius the numba ball starts at (0.1 s, 500 k boards for the classic target)."""

SLOW_GROWTH_DEPTH = 17
"""Growing the ball past this depth takes seconds: said once per ball on a terminal."""

TARGET_MAX_ENTRIES = (1 << 25) * 3 // 4
"""The ball grows no further once its next layer could pass this many boards (2**25
four-byte slots within the load limit: radius 21 for the classic target)."""

TARGET_BIAS = 16
"""The target side grows while its frontier is at most this many times the start
side's (its layers serve every later board)."""

_FULL_LAYER = 0  # 1: finish the meeting layer and keep its shortest path (for the tests)

PIECE = 1024
"""Boards whose start sides the numpy search grows together."""


def _kernels():  # noqa: ANN202 - the kernel module
    from ..native import kernels

    return kernels("bidir")


class _Ball:
    """The target's side: every board within ``depth`` moves of the target in ``table``
    (depth modulo 4), ``count`` of them, the farthest layer in ``front``.  Searches hold
    :meth:`reading`; growth holds :meth:`writing` (writers first)."""

    def __init__(self, target_key: int) -> None:
        self.key = target_key
        self.table, self.count, self.front, self.depth = _kernels().fresh_side(np.int64(target_key))
        self._cond = threading.Condition()
        self._readers = 0
        self._writer = False
        self._writers_waiting = 0
        self._announced = False
        self.cache_dir: CacheDir = None  # where the latest request looks for tables

    @contextmanager
    def reading(self, stop: np.ndarray | None = None) -> Iterator[None]:
        """Hold the ball steady; raises :class:`Stopped` if ``stop[0]`` is raised while
        waiting for a growth to finish."""
        with self._cond:
            while self._writer or self._writers_waiting:
                self._cond.wait(POLL_SECONDS)
                if stop is not None and stop[0]:
                    raise Stopped
            self._readers += 1
        try:
            yield
        finally:
            with self._cond:
                self._readers -= 1
                if not self._readers:
                    self._cond.notify_all()

    @contextmanager
    def writing(self) -> Iterator[None]:
        with self._cond:
            self._writers_waiting += 1
            while self._writer or self._readers:
                self._cond.wait()
            self._writers_waiting -= 1
            self._writer = True
        try:
            yield
        finally:
            with self._cond:
                self._writer = False
                self._cond.notify_all()

    def grow(self, radius: int, stop: np.ndarray | None = None) -> None:
        """Extend the ball to ``radius`` (unless it is there or complete).  With ``stop``,
        on a helper thread, raising :class:`Stopped` as soon as ``stop[0]`` is raised (the
        helper finishes the layer)."""
        if stop is None:
            self._grow(radius)
            return
        growth = shared(("grow ball", id(self), radius), lambda: self._grow(radius))
        wait(growth, lambda: bool(stop[0]))

    def _grow(self, radius: int) -> None:
        if self.depth >= radius or not self.front.size:
            return
        with self.writing():
            if self.depth >= radius or not self.front.size:
                return
            if radius >= SLOW_GROWTH_DEPTH and not self._announced:
                self._announced = True
                progress.announce(
                    "growing the bidirectional search's target side for far boards",
                    "up to 5 s, once per process" + _table_advice(self.key, self.cache_dir),
                )
            self.table, self.count, self.front, self.depth = _kernels().grow_target(
                self.table, np.int64(self.count), self.front, np.int64(self.depth),
                np.int64(radius), KNIGHT_NEIGHBORS, KNIGHT_COUNTS,
            )  # fmt: skip

    def args(self) -> tuple:
        return (self.table, np.int64(self.count), self.front, np.int64(self.depth),
                np.int64(TARGET_MAX_ENTRIES), np.int64(TARGET_BIAS))  # fmt: skip


def _table_advice(target_key: int, cache_dir: CacheDir) -> str:
    from ..board import Board
    from ..table.store import table_path

    try:
        there = table_path(Board.from_key(target_key), cache_dir).exists()
    except (OSError, ValueError):  # no cache directory to speak of: nothing to advise
        return ""
    return "" if there else "; `bitknights table build` makes such answers instant"


_BALLS_LOCK = threading.Lock()
_cached_ball = lru_cache(maxsize=CACHED_TARGETS)(_Ball)


def target_ball(target: Board) -> _Ball:
    """The cached ball of ``target``, built to :data:`BALL_RADIUS` on first use."""
    with _BALLS_LOCK:
        ball = _cached_ball(target.key)
    ball.grow(BALL_RADIUS)
    return ball


_SLOTS = threading.BoundedSemaphore(cpus())


@contextmanager
def _search_slot(stop: np.ndarray) -> Iterator[None]:
    """Hold one of the CPUs' worth of slots while a start side lives (bounding memory)."""
    while not _SLOTS.acquire(timeout=POLL_SECONDS):
        if stop[0]:
            raise Stopped
    try:
        yield
    finally:
        _SLOTS.release()


def solve_one(
    start: Board, target: Board, limit: int, stop: StopFlag
) -> tuple[int, list[int], int]:
    """``(steps, blank squares along one optimal path, start-side boards expanded)`` of
    ``start`` (with the target's knight counts) within ``limit`` moves: ``steps`` is the
    distance or a result code (``OVER_LIMIT``, ``STOPPED`` when ``stop`` was raised,
    waiting for the ball included)."""
    k = _kernels()
    path = np.empty(DEPTH_CAP + 2, dtype=np.int64)
    ball = target_ball(target)
    nodes = 0
    fixed = (np.int64(start.key), np.int64(target.key), np.int64(parity(start, target)),
             np.int64(limit))  # fmt: skip
    try:
        with _search_slot(stop.array):
            side = k.fresh_side(np.int64(start.key))
            while True:
                with ball.reading(stop.array):
                    depth = ball.depth
                    steps, n, *side = k.search(*fixed, *side, *ball.args(), bool(_FULL_LAYER),
                                               KNIGHT_NEIGHBORS, KNIGHT_COUNTS, path,
                                               stop.array)  # fmt: skip
                nodes += int(n)
                if steps != GROW:
                    break
                ball.grow(depth + 1, stop.array)
            del side
    except Stopped:
        steps = STOPPED
    return int(steps), path[: steps + 1].tolist() if steps >= 0 else [], nodes


def steps_many(
    keys: np.ndarray,
    target: Board,
    limit: int,
    workers: int,
    stop: StopFlag,
) -> np.ndarray:
    """:meth:`~bitknights.engines.Engine.steps` within ``limit``: one search a board on
    ``workers`` threads, all sharing the target's ball."""
    k = _kernels()
    steps = np.full(len(keys), STOPPED, dtype=np.int64)
    nodes = np.zeros(len(keys), dtype=np.int64)
    flag = stop.array
    ball = target_ball(target)
    fixed = (np.int64(target.key), np.int64(limit))

    def run(lo: int, hi: int) -> None:
        part, out, work = keys[lo:hi], steps[lo:hi], nodes[lo:hi]
        i = 0
        with suppress(Stopped), _search_slot(flag):  # the unfinished boards stay STOPPED
            while i < part.size and flag[0] == 0:
                with ball.reading(flag):
                    depth = ball.depth
                    i = k.search_many(part, i, *fixed, *ball.args(), KNIGHT_NEIGHBORS,
                                      KNIGHT_COUNTS, SQUARE_COLOR, out, work, flag)  # fmt: skip
                if i < part.size:
                    ball.grow(depth + 1, flag)

    parallel_chunks(run, len(keys), workers, stop=stop)
    return steps


# -- numpy alone: a ball as sorted arrays, every board's start side grown at once ----------


def _neighbours(keys: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(boards, valid)``: row ``i`` holds the boards one move from ``keys[i]`` where
    ``valid`` (the knight tables' padding gives the rest)."""
    blank = keys >> KEY_SHIFT
    black = keys & FULL_MASK
    q = KNIGHT_NEIGHBORS[blank]
    valid = q >= 0
    q = np.where(valid, q, blank[:, None])
    jumps = (black[:, None] >> q) & 1
    black = black[:, None] ^ (jumps * ((1 << q) | (1 << blank[:, None])))
    return black | (q << KEY_SHIFT), valid


def _new_layer(boards: np.ndarray, prev: np.ndarray) -> np.ndarray:
    """``boards`` sorted, without repeats and without those in ``prev`` (sorted)."""
    a = np.sort(boards)
    a = a[np.concatenate(([True], a[1:] != a[:-1]))] if a.size else a
    if not prev.size:
        return a
    pos = np.searchsorted(prev, a)
    pos[pos == prev.size] = 0
    return a[prev[pos] != a]


@lru_cache(maxsize=CACHED_TARGETS)
def numpy_ball(target_key: int, radius: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """``(keys, depths, complete)``: every board within ``radius`` moves of the target,
    sorted, with its distance; ``complete`` when no board lies farther."""
    prev: np.ndarray = np.empty(0, dtype=np.int64)
    cur: np.ndarray = np.array([target_key], dtype=np.int64)
    layers = [cur]
    complete = False
    for _ in range(radius):
        boards, valid = _neighbours(cur)
        # neighbours of a layer lie in the layers just before and after it (bipartite)
        nxt = _new_layer(boards[valid], prev)
        if not nxt.size:
            complete = True
            break
        layers.append(nxt)
        prev, cur = cur, nxt
    keys = np.concatenate(layers)
    depths = np.repeat(np.arange(len(layers), dtype=np.int64), [x.size for x in layers])
    order = np.argsort(keys)
    return keys[order], depths[order], complete


def _steps_piece(keys: np.ndarray, target: Board, limit: int, radius: int) -> np.ndarray:
    """Distances (``-1`` beyond ``limit`` or unreachable) of a piece of boards: their
    start sides grow together, one sorted array of ``board index << 30 | key`` codes per
    layer, against the ball of ``radius``; the first layer ``j`` to meet it gives ``j``
    plus the depth there."""
    bkeys, bdepths, complete = numpy_ball(target.key, radius)
    steps = np.full(len(keys), -1, dtype=np.int64)
    code_shift = 30
    prev = np.empty(0, dtype=np.int64)
    cur = (np.arange(len(keys), dtype=np.int64) << code_shift) | keys
    for layer in range(limit + 1):
        board = cur & ((1 << code_shift) - 1)
        pos = np.searchsorted(bkeys, board)
        pos[pos == bkeys.size] = 0
        hit = bkeys[pos] == board
        if hit.any():
            # the first layer to meet the ball: every meeting has the same length
            idx = cur[hit] >> code_shift
            d = layer + bdepths[pos[hit]]
            steps[idx] = np.where(d <= limit, d, -1)
            done = np.zeros(len(keys), dtype=bool)
            done[idx] = True
            cur = cur[~done[cur >> code_shift]]
        if complete or layer + radius + 1 > limit or not cur.size:
            break  # the rest is farther than the limit (or, complete ball, unreachable)
        boards, valid = _neighbours(cur & ((1 << code_shift) - 1))
        owners = (cur >> code_shift)[:, None] << code_shift
        prev, cur = cur, _new_layer((owners | boards)[valid], prev)
    return steps


def numpy_steps(
    keys: np.ndarray, target: Board, limit: int, radius: int, stop: StopFlag
) -> np.ndarray:
    """:meth:`~bitknights.engines.Engine.steps` within ``limit`` (at most ``radius`` plus
    a few layers, or it grows slow), in pieces of :data:`PIECE` boards."""
    out = np.full(len(keys), STOPPED, dtype=np.int64)
    for lo in range(0, len(keys), PIECE):
        if stop.raised:
            break
        out[lo : lo + PIECE] = _steps_piece(keys[lo : lo + PIECE], target, limit, radius)
    return out
