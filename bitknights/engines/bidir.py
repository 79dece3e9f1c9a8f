"""Bidirectional breadth-first search, the target's side cached per process and target.

Both sides grow in complete breadth-first layers.  A side's visited boards live in a
compact :mod:`~bitknights.engines.hashset` table (``uint32`` slots: the board key and its
depth from that side modulo 4), its newest layer (the frontier) in a numpy array; the
kernels are in :mod:`._bidir_kernels`.  One optimal path is rebuilt from the depths alone:
from the meeting board, step to the neighbour one layer closer to each end (neighbours'
depths differ by exactly one, so depth modulo 4 tells the closer one from the farther).

Stopping rule.  Let the start side be complete to depth ``a``, the target side to depth
``b``, with no board held by both.  Then the distance ``d`` exceeds ``a + b``: the board
``a`` moves along an optimal path is ``a`` from the start and ``d - a`` from the target,
so both sides would hold it if ``d <= a + b``.  Growing the start side to ``a + 1``, a new
board ``y`` held by the target side closes a path of ``a + 1 + dt(y) <= a + b + 1 <= d``
moves, and none is shorter than ``d``; so every meeting in that layer has exactly ``d``
moves and the search may stop at the first.  (``_FULL_LAYER = 1`` instead finishes the
layer, measures every meeting and keeps the shortest; the tests run both and compare.)
Moves change the blank's square colour, so ``d`` has a known parity: a layer where
``a + b + 1`` has the other parity cannot meet and skips the look-ups, and a depth limit
is decided as soon as the least distance of the right parity still possible exceeds it.

The target's side never depends on the start, so it is kept: one :class:`_Ball` per
target (the boards within ``depth`` moves with their depths, and the last layer), built to
:data:`BALL_RADIUS` on first use.  Searches read it; when the target side has the smaller
frontier (weighted by :data:`TARGET_BIAS`, since its layers serve every later board) a
search pauses, the ball gains a layer under a write lock, and the search resumes by
looking its own frontier up in the grown ball (a board of its last layer ``a`` found at
depth ``t`` there closes a path of ``a + t``; the shortest is the distance when any is
found, by the argument above).  The ball stops growing at :data:`TARGET_MAX_ENTRIES`
boards, which bounds memory; past that only the start side grows.

Batches under a small move limit (:func:`steps_many`, the classic output) skip numba
altogether (importing it and loading the kernels costs more than solving a few thousand
boards): a numpy ball of radius :data:`NUMPY_RADIUS` as sorted arrays, and every board's
start side grown layer by layer for all boards at once, each layer sorted and looked up
with ``searchsorted``.  By the same argument the first layer ``j`` holding boards of the
ball gives the distance: ``j`` plus their depth in the ball.
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from contextlib import contextmanager, suppress
from functools import lru_cache

import numpy as np

from .. import progress
from ..coords import KEY_SHIFT
from ..coords.arrays import SQUARE_COLOR, popcount
from ..results import GROW, STOPPED, Status
from ..solution import Solution
from ..squares import FULL_MASK, KNIGHT_COUNTS, KNIGHT_NEIGHBORS
from ..threads import default_workers, parallel_chunks
from .common import (
    DEPTH_CAP,
    boards_from_blanks,
    depth_limit,
    parity,
    same_counts,
)
from .options import StopFlag
from .search import NUMPY_LAYERS, NUMPY_RADIUS

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterator

    from ..board import Board

# The numba ball starts at this radius (about 0.1 s, 500 k boards for the classic target):
# a single board under the classic limit then needs at most two start-side layers, and
# exact searches grow it further as they ask.
BALL_RADIUS = 13

SLOW_GROWTH_DEPTH = 17
"""Growing the ball past this depth takes seconds (the classic target: 0.3 s for layer 17,
then 0.6-1.3 s a layer up to 21, about 4.3 s in all for boards 39 moves away): said once
per ball on a terminal."""


# The ball grows no further once its next layer could take it past this many boards:
# 2**25 four-byte slots (134 MB) hold them within the load limit of 3/4.  For the classic
# target that is radius 21 (20.3 M boards), and a board 39 moves away (the farthest) needs
# 18 start-side layers.  Seven distance-39 boards in one process, seconds per board after
# the first and peak RSS: cap 12.6 M (radius 19) 2.2 s, 379 MB; this cap 0.60 s, 469 MB;
# cap 50 M (radius 22) 0.53 s, 738 MB.
TARGET_MAX_ENTRIES = (1 << 25) * 3 // 4

# Target-side layers serve every later board, start-side ones only this one: the target
# side grows while its frontier is at most this many times the start side's.  The exact
# 50-board deep batch of scripts/bench_bidir.py (5 boards at each distance 30..39, one
# process, --set TARGET_BIAS=B), total seconds / first board (distance 30, fresh ball) /
# median at 39: B=1 53.7 / 0.8 / 2.7, B=4 20.7 / 0.8 / 0.77, B=16 17.9 / 1.7 / 0.98,
# B=64 15.0 / 3.4 / 0.71.  16 keeps a lone board cheap and a batch near the best.
TARGET_BIAS = 16

# How many targets' balls each cache keeps (the least recently used is dropped).
CACHED_TARGETS = 2

_FULL_LAYER = 0
_PIECE = 1024  # boards per numpy batch step (bounds the layer arrays)


def _kernels():  # noqa: ANN202 - the kernel module
    from ..native import kernels

    return kernels("bidir")


# -- the numba search -------------------------------------------------------------------


_POLL_SECONDS = 0.01  # how often a search waiting on the ball looks at its stop flag


class _Stopped(Exception):
    """A search's stop flag was raised while it waited for the target's ball."""


class _Ball:
    """The target's side: every board within ``depth`` moves of the target in ``table``
    (depth modulo 4), ``count`` of them, the farthest layer in ``front``.  Searches hold
    :meth:`reading`; growth holds :meth:`writing` (writers first)."""

    def __init__(self, target_key: int) -> None:
        self.key = target_key
        self.table, self.count, self.front, self.depth = _kernels().new_ball(np.int64(target_key))
        self._cond = threading.Condition()
        self._readers = 0
        self._writer = False
        self._writers_waiting = 0
        self._announced = False

    @contextmanager
    def reading(self, stop: np.ndarray | None = None) -> Iterator[None]:
        """Hold the ball steady; raises :class:`_Stopped` if ``stop[0]`` is raised while
        waiting for a growth to finish."""
        with self._cond:
            while self._writer or self._writers_waiting:
                self._cond.wait(_POLL_SECONDS)
                if stop is not None and stop[0]:
                    raise _Stopped
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
        the growth runs on a helper thread and this raises :class:`_Stopped` as soon as
        ``stop[0]`` is raised: a timeout or Ctrl-C does not wait for a layer that may take
        seconds (the helper finishes it, and other searches wait for it as usual)."""
        if stop is None:
            self._grow(radius)
            return
        failed: list[BaseException] = []
        done = threading.Event()

        def work() -> None:
            try:
                self._grow(radius)
            except BaseException as e:  # handed to the waiting caller
                failed.append(e)
            finally:
                done.set()

        threading.Thread(target=work, name="bitknights-grow-ball", daemon=True).start()
        while not done.wait(_POLL_SECONDS):
            if stop[0]:
                raise _Stopped
        if failed:
            raise failed[0]

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
                    "up to 5 s, once per process; `bitknights table build` makes such "
                    "answers instant",
                )
            self.table, self.count, self.front, self.depth = _kernels().grow_target(
                self.table, np.int64(self.count), self.front, np.int64(self.depth),
                np.int64(radius), KNIGHT_NEIGHBORS, KNIGHT_COUNTS,
            )  # fmt: skip

    def args(self) -> tuple:
        return (self.table, np.int64(self.count), self.front, np.int64(self.depth))


_BALLS: OrderedDict[int, _Ball] = OrderedDict()
_BALLS_LOCK = threading.Lock()


def target_ball(target: Board) -> _Ball:
    """The cached ball of ``target``, built to :data:`BALL_RADIUS` on first use."""
    with _BALLS_LOCK:
        ball = _BALLS.get(target.key)
        if ball is None:
            ball = _BALLS[target.key] = _Ball(target.key)
            while len(_BALLS) > CACHED_TARGETS:
                _BALLS.popitem(last=False)
        else:
            _BALLS.move_to_end(target.key)
    ball.grow(BALL_RADIUS)
    return ball


def clear_cache() -> None:
    """Forget every cached ball (their memory is freed once no search uses them)."""
    with _BALLS_LOCK:
        _BALLS.clear()
    _numpy_ball.cache_clear()


_SLOTS = threading.BoundedSemaphore(default_workers())


@contextmanager
def _search_slot(stop: np.ndarray) -> Iterator[None]:
    """Hold one of the CPUs' worth of search slots while a start side lives: each holds
    its own hash set and frontiers (tens of MB at depth 39), so memory is bounded by the
    CPUs, not by ``workers`` (more threads than CPUs would only wait anyway).  Waits for
    a slot while watching ``stop``."""
    while not _SLOTS.acquire(timeout=_POLL_SECONDS):
        if stop[0]:
            raise _Stopped
    try:
        yield
    finally:
        _SLOTS.release()


def solve(
    start: Board,
    target: Board,
    max_depth: int | None = 15,
    *,
    timeout: float | None = None,
    stop: StopFlag | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> Solution:
    """Solve ``start`` exactly by bidirectional search: fewest moves to ``target`` if at
    most ``max_depth`` (``None``: no limit), one optimal path, and in ``nodes`` the boards
    expanded on the start side (growing the cached target side is not counted).  With
    ``timeout`` (seconds) a search still running then gives up: status ``'timeout'``.

    >>> from bitknights import TARGET, Board
    >>> s = solve(Board("10110/01*11/10111/01001/00000"), TARGET)
    >>> s.steps, s.status, len(s.boards)
    (7, 'solved', 8)
    >>> solve(Board("01011/110*1/01110/01010/00100"), TARGET).status
    'over_limit'
    >>> solve(Board("01011/110*1/01110/01010/00100"), TARGET, None).steps
    18
    """
    t0 = time.perf_counter()
    if not same_counts(start, target):
        return Solution(start, target, None, engine="bidir", max_depth=max_depth,
                        status=Status.UNREACHABLE, seconds=time.perf_counter() - t0)  # fmt: skip
    k = _kernels()
    path = np.empty(DEPTH_CAP + 2, dtype=np.int64)
    ball = target_ball(target)
    nodes = 0
    fixed = (np.int64(start.key), np.int64(target.key), np.int64(parity(start, target)),
             np.int64(depth_limit(max_depth)))  # fmt: skip
    with StopFlag(stop).arm(timeout) as stop:
        try:
            with _search_slot(stop.array):
                side = k.fresh_side(np.int64(start.key))
                while True:
                    with ball.reading(stop.array):
                        depth = ball.depth
                        steps, n, *side = k.search(
                            *fixed, *side, *ball.args(), np.int64(TARGET_MAX_ENTRIES),
                            np.int64(TARGET_BIAS), bool(_FULL_LAYER), KNIGHT_NEIGHBORS,
                            KNIGHT_COUNTS, path, stop.array,
                        )  # fmt: skip
                    nodes += int(n)
                    if steps != GROW:
                        break
                    ball.grow(depth + 1, stop.array)
                del side
        except _Stopped:
            steps = STOPPED
    seconds = time.perf_counter() - t0
    if steps < 0:
        return Solution(start, target, None, nodes=nodes, seconds=seconds, engine="bidir",
                        max_depth=max_depth, status=Status.of(steps))  # fmt: skip
    boards = boards_from_blanks(start, path[: steps + 1])
    return Solution(start, target, int(steps), boards, nodes, seconds, "bidir", max_depth)


def _steps_numba(keys, target, limit, workers, stop):  # noqa: ANN001, ANN202
    k = _kernels()
    steps = np.full(len(keys), STOPPED, dtype=np.int64)
    nodes = np.zeros(len(keys), dtype=np.int64)
    flag = stop.array
    ball = target_ball(target)
    fixed = (np.int64(target.key), np.int64(target.counts[1]), np.int64(limit))

    def run(lo: int, hi: int) -> None:
        part, out, work = keys[lo:hi], steps[lo:hi], nodes[lo:hi]
        i = 0
        with suppress(_Stopped), _search_slot(flag):  # the unfinished boards stay STOPPED
            while i < part.size and flag[0] == 0:
                with ball.reading(flag):
                    depth = ball.depth
                    i = k.search_many(
                        part, i, *fixed, *ball.args(), np.int64(TARGET_MAX_ENTRIES),
                        np.int64(TARGET_BIAS), KNIGHT_NEIGHBORS, KNIGHT_COUNTS, SQUARE_COLOR, out,
                        work, flag,
                    )  # fmt: skip
                if i < part.size:
                    ball.grow(depth + 1, flag)

    parallel_chunks(run, len(keys), workers or default_workers(), stop=stop)
    return steps


# -- the numpy batch path ---------------------------------------------------------------


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


def _sorted_unique(a: np.ndarray) -> np.ndarray:
    a = np.sort(a)
    keep = np.empty(a.size, dtype=bool)
    keep[:1] = True
    np.not_equal(a[1:], a[:-1], out=keep[1:])
    return a[keep]


def _isin_sorted(a: np.ndarray, sorted_b: np.ndarray) -> np.ndarray:
    if not sorted_b.size:
        return np.zeros(a.shape, dtype=bool)
    pos = np.searchsorted(sorted_b, a)
    pos[pos == sorted_b.size] = 0
    return sorted_b[pos] == a


@lru_cache(maxsize=CACHED_TARGETS)
def _numpy_ball(target_key: int, radius: int) -> tuple[np.ndarray, np.ndarray, bool]:
    """``(keys, depths, complete)``: every board within ``radius`` moves of the target,
    sorted, with its distance; ``complete`` when no board lies farther."""
    prev = np.empty(0, dtype=np.int64)
    cur = np.array([target_key], dtype=np.int64)
    layers = [cur]
    complete = False
    for _ in range(radius):
        boards, valid = _neighbours(cur)
        nxt = _sorted_unique(boards[valid])
        # neighbours of a layer lie in the layers just before and after it (bipartite)
        nxt = nxt[~_isin_sorted(nxt, prev)]
        if not nxt.size:
            complete = True
            break
        layers.append(nxt)
        prev, cur = cur, nxt
    keys = np.concatenate(layers)
    depths = np.repeat(np.arange(len(layers), dtype=np.int64), [x.size for x in layers])
    order = np.argsort(keys)
    return keys[order], depths[order], complete


def _steps_numpy(keys: np.ndarray, target: Board, limit: int) -> np.ndarray:
    """Distances (``-1`` beyond ``limit`` or unreachable) for a limit of at most
    ``NUMPY_RADIUS + NUMPY_LAYERS``: the start sides of all boards grow together, one
    sorted array of ``board index << 30 | key`` codes per layer."""
    bkeys, bdepths, complete = _numpy_ball(target.key, NUMPY_RADIUS)
    steps = np.full(len(keys), -1, dtype=np.int64)
    alive = np.flatnonzero(popcount(keys & FULL_MASK) == target.counts[1])
    code_shift = 30
    prev = np.empty(0, dtype=np.int64)
    cur = (alive << code_shift) | keys[alive]
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
        if complete or layer + NUMPY_RADIUS + 1 > limit or not cur.size:
            break  # the rest is farther than the limit (or, complete ball, unreachable)
        owner = cur >> code_shift
        boards, valid = _neighbours(cur & ((1 << code_shift) - 1))
        nxt = _sorted_unique(((owner[:, None] << code_shift) | boards)[valid])
        nxt = nxt[~_isin_sorted(nxt, prev)]
        prev, cur = cur, nxt
    return steps


def steps_many(
    keys: np.ndarray,
    target: Board,
    max_depth: int | None = 15,
    *,
    workers: int | None = None,
    stop: StopFlag | None = None,
    cache_dir: str | os.PathLike[str] | None = None,
) -> np.ndarray:
    """The distance of each board (packed keys, see :attr:`Board.key`) to ``target``, -1
    beyond ``max_depth`` or unreachable (``cache_dir`` is accepted for the engines' common
    signature: nothing is cached on disk).  Under a small limit (the classic 15) numpy
    answers the whole batch at once; otherwise the numba search runs on ``workers`` threads
    (default: every CPU) sharing the target's ball.  If ``stop`` is raised the unfinished
    boards are left at -2.

    >>> from bitknights import TARGET, Board
    >>> keys = [Board("10110/01*11/10111/01001/00000").key, TARGET.key]
    >>> steps_many(np.array(keys), TARGET).tolist()
    [7, 0]
    """
    keys = np.ascontiguousarray(keys, dtype=np.int64)
    stop = stop or StopFlag()
    limit = depth_limit(max_depth)
    if limit > NUMPY_RADIUS + NUMPY_LAYERS:
        return _steps_numba(keys, target, limit, workers, stop)
    steps = np.full(len(keys), STOPPED, dtype=np.int64)
    for lo in range(0, len(keys), _PIECE):
        if stop.array[0]:
            break
        steps[lo : lo + _PIECE] = _steps_numpy(keys[lo : lo + _PIECE], target, limit)
    return steps
