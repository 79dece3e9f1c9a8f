"""Threads for the kernels (which release the GIL): how many, and how work runs on them.
The standard library only."""

from __future__ import annotations

import contextlib
import threading
from collections import deque

from .system import cpus

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Iterator
    from concurrent.futures import Future
    from typing import Any, Protocol, TypeVar

    T = TypeVar("T")
    R = TypeVar("R")

    class Stoppable(Protocol):
        def raise_(self) -> None: ...


MAX_WORKERS_PER_CPU = 4
"""``workers`` above this many threads per CPU are lowered to it."""


def worker_count(workers: int | None) -> int:
    """The threads to run for a ``workers`` setting (0 or ``None``: one per CPU).

    >>> worker_count(1), worker_count(10**9) == MAX_WORKERS_PER_CPU * cpus()
    (1, True)
    """
    n = cpus()
    return max(1, min(workers or n, MAX_WORKERS_PER_CPU * n))


def parallel_blocks(
    fn: Callable[[int, int], T], blocks: int, workers: int | None = None
) -> list[T]:
    """``fn(lo, hi)`` over spans covering blocks ``0 .. blocks - 1`` (four a thread or more),
    on ``workers`` threads, the calling thread one of them; the results in span order, or
    the first exception once every thread has stopped taking spans.

    >>> parallel_blocks(lambda lo, hi: hi - lo, 10, workers=2)
    [1, 1, 1, 2, 1, 1, 1, 2]
    >>> parallel_blocks(lambda lo, hi: 1 // (lo - 5), 10, workers=2)
    Traceback (most recent call last):
    ZeroDivisionError: integer division or modulo by zero
    """
    workers = worker_count(workers)
    if workers <= 1 or blocks <= 1:
        return [fn(0, blocks)]
    n = min(blocks, 4 * workers)
    spans = iter(enumerate((blocks * i // n, blocks * (i + 1) // n) for i in range(n)))
    results: list = [None] * n
    failed: list[BaseException] = []
    lock, stop = threading.Lock(), threading.Event()

    def work() -> None:
        while not stop.is_set():
            with lock:
                i, span = next(spans, (-1, (0, 0)))
            if i < 0:
                return
            try:
                results[i] = fn(*span)
            except BaseException as e:  # raised in the caller's thread
                failed.append(e)
                stop.set()

    helpers = [_Call(work, "bitknights-block") for _ in range(min(workers, n) - 1)]
    try:
        work()
    finally:
        stop.set()  # after Ctrl-C too: the helpers take no new span
        for helper in helpers:
            helper.result()
    if failed:
        raise failed[0]
    return results


def parallel_chunks(
    fn: Callable[[int, int], None],
    n: int,
    workers: int | None,
    stop: Stoppable | None = None,
) -> None:
    """Run ``fn(lo, hi)`` over ``[0, n)`` in chunks of at most 64 (16 a thread or more) on
    ``workers`` threads."""
    workers = worker_count(workers)
    chunk = max(1, min(64, -(-n // (16 * workers))))  # >= 16 chunks a worker
    spans = [(lo, min(n, lo + chunk)) for lo in range(0, n, chunk)]
    for _ in ordered_map(lambda span: fn(*span), spans, workers, stop=stop):
        pass


def ordered_map(
    fn: Callable[[T], R],
    items: Iterable[T],
    workers: int | None,
    *,
    stop: Stoppable | None = None,
) -> Iterator[R]:
    """``map(fn, items)`` on ``workers`` threads, results in input order, at most
    ``8 * workers`` in flight.  On an exception or Ctrl-C ``stop`` is
    raised, no queued call starts, and the calls running are waited for before it goes on."""
    from concurrent.futures import ThreadPoolExecutor

    workers = worker_count(workers)
    pool = ThreadPoolExecutor(max_workers=workers)
    pending: deque[Future[R]] = deque()
    try:
        for item in items:
            pending.append(pool.submit(fn, item))
            if len(pending) >= 8 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()
    except BaseException:
        if stop is not None:
            stop.raise_()
        pool.shutdown(cancel_futures=True)
        raise
    pool.shutdown()


class _Call:
    """``fn()`` started on a daemon thread; :meth:`result` waits for what it gave (without
    ``concurrent.futures``: a compact batch starts sooner without that import).  ``then()``
    runs once it is done."""

    def __init__(self, fn: Callable[[], T], name: str, then: Callable[[], None] = lambda: None):
        self._done = threading.Event()
        self._outcome: tuple[bool, Any] = (False, None)

        def work() -> None:
            try:
                self._outcome = (True, fn())
            except BaseException as e:  # handed to whoever waits
                self._outcome = (False, e)
            finally:
                self._done.set()
                then()

        threading.Thread(target=work, name=name, daemon=True).start()

    def result(self, timeout: float | None = None) -> Any:
        """What ``fn()`` returned (or raise what it raised); :class:`TimeoutError` if it
        is still running after ``timeout`` seconds."""
        if not self._done.wait(timeout):
            raise TimeoutError
        ok, value = self._outcome
        if not ok:
            raise value
        return value


def background(fn: Callable[[], T]) -> Callable[[], T]:
    """Start ``fn()`` on a daemon thread; the function returned waits for its result.

    >>> answer = background(lambda: 6 * 7)
    >>> answer()
    42
    """
    return _Call(fn, "bitknights-background").result


class Stopped(Exception):
    """A wait (:func:`wait`) ended because its stop flag was raised."""


_shared: dict[object, _Call] = {}
_shared_lock = threading.Lock()
POLL_SECONDS = 0.01  # how often a waiting caller looks at its stop flag


def shared(key: object, fn: Callable[[], T]) -> _Call:
    """The one run of ``fn()`` for ``key`` on a daemon thread: the same call for every
    caller until it finishes (then the next call runs ``fn`` again)."""
    with _shared_lock:
        future = _shared.get(key)
        if future is None:

            def forget() -> None:
                with _shared_lock:
                    _shared.pop(key, None)

            future = _shared[key] = _Call(fn, "bitknights-shared", forget)
    return future


def wait(call: _Call, stopped: Callable[[], bool]) -> Any:
    """``call``'s result, or :class:`Stopped` as soon as ``stopped()`` is true."""
    while True:
        try:
            return call.result(timeout=POLL_SECONDS)
        except TimeoutError:
            if stopped():
                raise Stopped from None


def off_main_thread(call: Callable[[], T], stop: Stoppable) -> T:
    """``call()`` (which polls ``stop``) on a helper thread, so that Ctrl-C reaches the
    caller at once: ``stop`` is raised and the call waited for."""
    result = background(call)
    try:
        return result()
    except BaseException:
        stop.raise_()
        with contextlib.suppress(BaseException):
            result()
        raise
