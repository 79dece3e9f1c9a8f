"""How an engine is asked (:class:`SolveOptions`, :class:`StopFlag`).  The classic
small-input path imports this module: it imports neither numpy, numba, ``typing``,
``dataclasses`` nor ``threading``.
"""

from __future__ import annotations

import contextlib

from .._records import Record
from ..errors import BitknightsError

TYPE_CHECKING = False
if TYPE_CHECKING:
    import os
    import threading


DEFAULT_MAX_DEPTH = 15
"""The classic puzzle's move limit: farther boards answer ``-1``."""


class SolveOptions(Record):
    """What a request asks of an engine: ``max_depth``, the move limit (``None``: none);
    ``timeout``, seconds a board may take (``None``: no limit); ``workers``, threads for
    a batch (0: one per CPU); ``count_solutions``, also count the distinct optimal move
    sequences; ``cache_dir``, where cached tables live (``None``: the default)."""

    max_depth: int | None = DEFAULT_MAX_DEPTH
    timeout: float | None = None
    workers: int = 0
    count_solutions: bool = False
    cache_dir: str | os.PathLike[str] | None = None


def check_limit(engine: str, cap: int | None, max_depth: int | None) -> None:
    """Refuse (:class:`~bitknights.errors.BitknightsError`) a limit above ``cap``
    (``None``: any limit, or none, is taken)."""
    if cap is None or (max_depth is not None and max_depth <= cap):
        return
    asked = "--exact asks for no limit" if max_depth is None else f"asked for {max_depth}"
    raise BitknightsError(
        f"the {engine} engine answers within a limit of at most {cap} moves ({asked}); "
        "use --engine bidir, or table, for larger limits and --exact"
    )


MAX_TIMEOUT = 1e6  # seconds (11.6 days; beyond, the operating system's timers fail)


def check_options(options: SolveOptions) -> SolveOptions:
    """``options`` unchanged, or a ``TypeError`` for a value of the wrong type, a
    :class:`~bitknights.errors.BitknightsError` for one out of range."""
    depth, timeout, workers = options.max_depth, options.timeout, options.workers
    for name, value, kinds, what in (
        ("max_depth", depth, int, "an integer or None"),
        ("timeout", timeout, (int, float), "a number of seconds or None"),
        ("workers", workers, int, "an integer"),
    ):
        if (value is not None or name == "workers") and (
            isinstance(value, bool) or not isinstance(value, kinds)
        ):
            raise TypeError(f"{name} is {what}, got {value!r}")
    if depth is not None and depth < 0:
        raise BitknightsError(f"max_depth must be non-negative, got {depth}")
    if timeout is not None and not 0 < timeout <= MAX_TIMEOUT:  # also refuses nan and inf
        raise BitknightsError(
            f"timeout must be a positive number of seconds up to {MAX_TIMEOUT:,.0f}, "
            f"got {timeout!r}"
        )
    if workers < 0:
        raise BitknightsError(f"workers must be non-negative (0: one per CPU), got {workers}")
    return options


class StopFlag(contextlib.AbstractContextManager["StopFlag"]):
    """A one-element int64 array that kernels poll and stop on when it is non-zero;
    ``arm(seconds)`` raises it after a delay.  A flag made with a ``parent`` is raised with
    it (a batch's Ctrl-C); raising the child leaves the parent alone (one board's timeout)."""

    def __init__(self, parent: StopFlag | None = None) -> None:
        import numpy as np

        self.array = np.zeros(1, dtype=np.int64)
        self._timer: threading.Timer | None = None
        self._children: list[StopFlag] = []
        self._parent = parent
        if parent is not None:
            parent._children.append(self)
            if parent.array[0]:
                self.array[0] = 1

    @property
    def raised(self) -> bool:
        return bool(self.array[0])

    def raise_(self) -> None:
        self.array[0] = 1
        for child in list(self._children):
            child.raise_()

    def arm(self, seconds: float | None) -> StopFlag:
        if seconds is not None:
            import threading

            self._timer = threading.Timer(seconds, self.raise_)
            self._timer.daemon = True
            self._timer.start()
        return self

    def disarm(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._parent is not None:
            with contextlib.suppress(ValueError):
                self._parent._children.remove(self)
            self._parent = None

    def __exit__(self, *exc: object) -> None:
        self.disarm()
