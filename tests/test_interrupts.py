"""Ctrl-C and bad arguments in the Python API (issue 15, points 4, 5): arguments checked
before any thread starts; an interrupt stops every search still running.  Waits bounded."""

from __future__ import annotations

import math
import signal
import threading

import pytest

import bitknights
from bitknights import BitknightsError

# 39 moves from the classic target (the farthest): IDA* needs many seconds on it
DEEP = "000*0/10000/01010/11110/11111"
NEAR = "10110/01*11/10111/01001/00000"


def _interrupt_after(seconds: float) -> threading.Timer:
    # a real SIGINT to the main thread, as Ctrl-C sends: it wakes a blocked wait, where
    # _thread.interrupt_main would only be seen once that wait ended
    main = threading.main_thread().ident
    timer = threading.Timer(seconds, signal.pthread_kill, (main, signal.SIGINT))
    timer.start()
    return timer


def _search_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t is not threading.main_thread()
            and t.name.startswith("ThreadPoolExecutor")]  # fmt: skip


def _wait_gone(threads: list[threading.Thread], bound: float = 30.0) -> None:
    for t in threads:
        t.join(bound)
    assert not [t for t in threads if t.is_alive()], "a search kept running after Ctrl-C"


@pytest.mark.parametrize(
    ("kwargs", "kind", "message"),
    [
        ({"timeout": math.inf}, BitknightsError, "timeout must be a positive number"),
        ({"timeout": math.nan}, BitknightsError, "timeout must be a positive number"),
        ({"timeout": -1}, BitknightsError, "timeout must be a positive number"),
        ({"timeout": 1e10}, BitknightsError, "up to 1,000,000"),
        ({"timeout": "1"}, TypeError, "timeout is a number of seconds"),
        ({"max_depth": 2.5}, TypeError, "max_depth is an integer"),
        ({"max_depth": -3}, BitknightsError, "max_depth must be non-negative"),
    ],
)
def test_bad_arguments_are_refused_before_any_thread(kwargs, kind, message):
    before = threading.active_count()
    with pytest.raises(kind, match=message):
        bitknights.solve(NEAR, **kwargs)
    with pytest.raises(kind, match=message):
        bitknights.iter_solve([NEAR], **kwargs)  # checked at the call, not at iteration
    with pytest.raises(kind, match=message):
        bitknights.solve_many([NEAR], **kwargs)
    assert threading.active_count() == before


@pytest.mark.parametrize(("workers", "kind"), [("2", TypeError), (-1, BitknightsError)])
def test_bad_workers(workers, kind):
    with pytest.raises(kind, match="workers"):
        bitknights.solve_many([NEAR], workers=workers)


@pytest.mark.slow
@pytest.mark.parametrize(
    "search",
    [
        lambda: bitknights.solve_many([DEEP] * 6, engine="ida", max_depth=None, workers=3),
        lambda: bitknights.solve(DEEP, engine="ida", max_depth=None),
    ],
    ids=["solve_many-stops-every-worker", "one-long-solve"],
)
def test_ctrl_c_stops_the_search(search, tmp_path, monkeypatch):
    monkeypatch.setenv("BITKNIGHTS_CACHE_DIR", str(tmp_path))
    bitknights.solve(NEAR, engine="ida")  # kernels loaded before the clock starts
    timer = _interrupt_after(1.0)
    with pytest.raises(KeyboardInterrupt):  # not a finished search: it takes far longer
        search()
    timer.cancel()
    _wait_gone(_search_threads())
