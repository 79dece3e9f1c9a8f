"""What the search engines share: per-target heuristic tables and path replay.

numpy only; the numba kernels take these arrays as arguments.
"""

from __future__ import annotations

import os
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from functools import lru_cache

import numpy as np

from ..board import Board
from ..squares import KNIGHT_DISTANCE, NUM_SQUARES, square_color
from . import DEPTH_CAP, boards_from_blanks, depth_limit  # noqa: F401 - re-exported for the engines

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from typing import TypeVar

    from .options import StopFlag

    T = TypeVar("T")
    R = TypeVar("R")


@lru_cache(maxsize=16)
def nearest_target_distance(target_key: int) -> tuple[np.ndarray, np.ndarray]:
    """``(white, black)``: for each square, the fewest knight jumps from it to a square
    the target gives that colour (0 where the target has no knight of that colour).

    Summed over the knights of a board this is a lower bound on its distance to the
    target: each move moves one knight one jump.
    """
    target = Board.from_key(target_key)
    out = []
    for mask in (target.white, target.black):
        squares = [sq for sq in range(NUM_SQUARES) if mask >> sq & 1]
        if squares:
            d = KNIGHT_DISTANCE[:, squares].min(axis=1).astype(np.int64)
        else:
            d = np.zeros(NUM_SQUARES, dtype=np.int64)
        d.setflags(write=False)
        out.append(d)
    return out[0], out[1]


def parity(start: Board, target: Board) -> int:
    """The parity every path from ``start`` to ``target`` has (the blank changes square
    colour on every move)."""
    return square_color(start.blank) ^ square_color(target.blank)


def same_counts(start: Board, target: Board) -> bool:
    """Moves never change knight counts: only boards with the target's counts reach it."""
    return start.counts == target.counts


def parallel_chunks(
    fn: Callable[[int, int], None],
    n: int,
    workers: int,
    chunk: int = 64,
    stop: StopFlag | None = None,
) -> None:
    """Run ``fn(lo, hi)`` over ``[0, n)`` in chunks of at most ``chunk`` (smaller for short
    inputs, so the threads stay balanced) on ``workers`` threads (kernels release the
    GIL); each chunk writes its own slice of preallocated outputs."""
    workers = worker_count(workers)
    chunk = max(1, min(chunk, -(-n // (16 * workers))))  # >= 16 chunks a worker
    spans = [(lo, min(n, lo + chunk)) for lo in range(0, n, chunk)]
    for _ in ordered_map(lambda span: fn(*span), spans, workers, stop=stop):
        pass


def ordered_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    workers: int,
    *,
    window: int = 0,
    stop: StopFlag | None = None,
) -> Iterator[R]:
    """``map(fn, items)`` on ``workers`` threads, results in input order, at most
    ``window`` (default ``8 * workers``) items in flight.  The calls run off the main
    thread, so Ctrl-C reaches the caller at once; then ``stop`` is raised and no queued
    call starts."""
    workers = worker_count(workers)
    pool = ThreadPoolExecutor(max_workers=workers)
    pending: deque[Future[R]] = deque()
    window = window or 8 * workers
    try:
        for item in items:
            pending.append(pool.submit(fn, item))
            if len(pending) >= window:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except BaseException:
        if stop is not None:
            stop.raise_()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


MAX_WORKERS_PER_CPU = 4
"""``workers`` above this many threads per CPU are lowered to it: the kernels are bound by
the CPUs, and each thread costs memory (a thousand threads once exhausted the limits)."""


def worker_count(workers: int | None) -> int:
    """The threads to run for a ``workers`` setting: 0 or ``None`` means one per CPU;
    anything above :data:`MAX_WORKERS_PER_CPU` per CPU is lowered to that."""
    cpus = default_workers()
    return max(1, min(workers or cpus, MAX_WORKERS_PER_CPU * cpus))


def default_workers() -> int:
    """Threads for batch search: the CPUs this process may use."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not Linux
        return max(1, os.cpu_count() or 1)
