"""The bidirectional search's numba side: the target's ball shared by every search of a
process, and the searches that meet it (:mod:`.bidir` explains the algorithm and why it
is exact; the kernels are in :mod:`._bidir_kernels`).

Memory: the ball stops growing at :data:`TARGET_MAX_ENTRIES` boards (134 MB of slots), and
each running search's start side (tens of MB at depth 39) holds one of a CPU's worth of
slots, so the total is bounded by the CPUs, not by ``workers``.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from contextlib import contextmanager, suppress

import numpy as np

from .. import progress
from ..coords.arrays import SQUARE_COLOR
from ..results import GROW, STOPPED
from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS
from ..threads import POLL_SECONDS, Stopped, default_workers, parallel_chunks
from . import DEPTH_CAP
from .common import CACHED_TARGETS, parity

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    from collections.abc import Iterator

    from ..board import Board
    from .options import StopFlag

    CacheDir = str | os.PathLike[str] | None

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

_FULL_LAYER = 0


def _kernels():  # noqa: ANN202 - the kernel module
    from ..native import kernels

    return kernels("bidir")


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

    def grow(self, radius: int, stop: np.ndarray | None = None, cache_dir: CacheDir = None) -> None:
        """Extend the ball to ``radius`` (unless it is there or complete).  With ``stop``,
        the growth runs on a helper thread and this raises :class:`Stopped` as soon as
        ``stop[0]`` is raised: a timeout or Ctrl-C does not wait for a layer that may take
        seconds (the helper finishes it, and other searches wait for it as usual).
        ``cache_dir``: where the request looks for tables (the notice of a slow growth
        advises building one only when there is none)."""
        if stop is None:
            self._grow(radius, cache_dir)
            return
        failed: list[BaseException] = []
        done = threading.Event()

        def work() -> None:
            try:
                self._grow(radius, cache_dir)
            except BaseException as e:  # handed to the waiting caller
                failed.append(e)
            finally:
                done.set()

        threading.Thread(target=work, name="bitknights-grow-ball", daemon=True).start()
        while not done.wait(POLL_SECONDS):
            if stop[0]:
                raise Stopped
        if failed:
            raise failed[0]

    def _grow(self, radius: int, cache_dir: CacheDir) -> None:
        if self.depth >= radius or not self.front.size:
            return
        with self.writing():
            if self.depth >= radius or not self.front.size:
                return
            if radius >= SLOW_GROWTH_DEPTH and not self._announced:
                self._announced = True
                progress.announce(
                    "growing the bidirectional search's target side for far boards",
                    "up to 5 s, once per process" + _table_advice(self.key, cache_dir),
                )
            self.table, self.count, self.front, self.depth = _kernels().grow_target(
                self.table, np.int64(self.count), self.front, np.int64(self.depth),
                np.int64(radius), KNIGHT_NEIGHBORS, KNIGHT_COUNTS,
            )  # fmt: skip

    def args(self) -> tuple:
        return (self.table, np.int64(self.count), self.front, np.int64(self.depth))


def _table_advice(target_key: int, cache_dir: CacheDir) -> str:
    """The advice to build the distance table, when there is no table file for the
    target (advice never suggests what is done; a refused table is said where it is
    refused)."""
    from ..board import Board
    from ..table.store import table_path

    try:
        there = table_path(Board.from_key(target_key), cache_dir).exists()
    except (OSError, ValueError):  # no cache directory to speak of: nothing to advise
        return ""
    return "" if there else "; `bitknights table build` makes such answers instant"


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


def clear_balls() -> None:
    """Forget every cached ball (their memory is freed once no search uses them)."""
    with _BALLS_LOCK:
        _BALLS.clear()


_SLOTS = threading.BoundedSemaphore(default_workers())


@contextmanager
def _search_slot(stop: np.ndarray) -> Iterator[None]:
    """Hold one of the CPUs' worth of search slots while a start side lives: each holds
    its own hash set and frontiers (tens of MB at depth 39), so memory is bounded by the
    CPUs, not by ``workers`` (more threads than CPUs would only wait anyway).  Waits for
    a slot while watching ``stop``."""
    while not _SLOTS.acquire(timeout=POLL_SECONDS):
        if stop[0]:
            raise Stopped
    try:
        yield
    finally:
        _SLOTS.release()


def solve_one(
    start: Board, target: Board, limit: int, stop: StopFlag, cache_dir: CacheDir = None
) -> tuple[int, list[int], int]:
    """``(steps, blank squares along one optimal path, start-side boards expanded)`` of
    ``start`` (with the target's knight counts) within ``limit`` moves: ``steps`` is the
    distance or a result code (``OVER_LIMIT``, ``STOPPED`` when ``stop`` was raised,
    waiting for the ball included).  Growing the shared target side is not counted.
    ``cache_dir``: the request's (see :meth:`_Ball.grow`)."""
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
                    steps, n, *side = k.search(
                        *fixed, *side, *ball.args(), np.int64(TARGET_MAX_ENTRIES),
                        np.int64(TARGET_BIAS), bool(_FULL_LAYER), KNIGHT_NEIGHBORS,
                        KNIGHT_COUNTS, path, stop.array,
                    )  # fmt: skip
                nodes += int(n)
                if steps != GROW:
                    break
                ball.grow(depth + 1, stop.array, cache_dir)
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
    cache_dir: CacheDir = None,
) -> np.ndarray:
    """The distance of each board (packed keys) to ``target``, ``-1`` beyond ``limit`` or
    unreachable, ``-2`` for boards left when ``stop`` was raised: one search a board on
    ``workers`` threads, all sharing the target's ball.  ``cache_dir``: the request's."""
    k = _kernels()
    steps = np.full(len(keys), STOPPED, dtype=np.int64)
    nodes = np.zeros(len(keys), dtype=np.int64)
    flag = stop.array
    ball = target_ball(target)
    fixed = (np.int64(target.key), np.int64(target.counts[1]), np.int64(limit))

    def run(lo: int, hi: int) -> None:
        part, out, work = keys[lo:hi], steps[lo:hi], nodes[lo:hi]
        i = 0
        with suppress(Stopped), _search_slot(flag):  # the unfinished boards stay STOPPED
            while i < part.size and flag[0] == 0:
                with ball.reading(flag):
                    depth = ball.depth
                    i = k.search_many(
                        part, i, *fixed, *ball.args(), np.int64(TARGET_MAX_ENTRIES),
                        np.int64(TARGET_BIAS), KNIGHT_NEIGHBORS, KNIGHT_COUNTS, SQUARE_COLOR, out,
                        work, flag,
                    )  # fmt: skip
                if i < part.size:
                    ball.grow(depth + 1, flag, cache_dir)

    parallel_chunks(run, len(keys), workers, stop=stop)
    return steps
