"""Feedback on standard error for slow steps: :func:`announce` (one line: what, why, how
long) and :func:`bar` (tqdm, after half a second), written only when standard error is a
terminal and nobody asked for quiet (:func:`set_quiet`, :func:`feedback`: the one way
to be quiet); the log of a slow step (:func:`log`) only when asked for.
Answers written while a bar shows go through :func:`writing`.  Bars share one line: the
newest due bar has it.

>>> with feedback(quiet=True), bar(10, "board") as b:
...     b.update(10)
...     announce("resting")  # writes nothing
"""

from __future__ import annotations

import contextlib
import os
import sys
from functools import lru_cache

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO, Any

_quiet: bool | None = None
_log = False
DELAY_ENV = "BITKNIGHTS_PROGRESS_DELAY"


def _delay() -> float:
    """Seconds before a bar appears: 0.5, or ``$BITKNIGHTS_PROGRESS_DELAY``."""
    try:
        return float(os.environ.get(DELAY_ENV, "0.5"))
    except ValueError:
        return 0.5


def set_quiet(quiet: bool | None) -> None:
    """Silence every announcement and bar of this process (``True``), show them even off
    a terminal (``False``), or on a terminal only (``None``, the default)."""
    global _quiet
    _quiet = quiet


@contextlib.contextmanager
def feedback(quiet: bool | None = None, *, log: bool | None = None) -> Iterator[None]:
    """Within the block, announcements and bars are off (``quiet``), shown even off a
    terminal (``False``) or as before (``None``); slow steps write their logs when ``log``
    (``None``: as before)."""
    global _quiet, _log
    before = _quiet, _log
    _quiet = before[0] if quiet is None else quiet
    _log = before[1] if log is None else log
    try:
        yield
    finally:
        _quiet, _log = before


def log(line: str) -> None:
    """Write a line of a slow step's log on standard error, above any bar, when asked
    for (:func:`feedback`)."""
    if _log:
        with writing(sys.stderr):
            sys.stderr.write(line + "\n")
            sys.stderr.flush()


def active() -> bool:
    """Whether feedback is written: as :func:`set_quiet` or :func:`feedback` said, else
    when standard error is a terminal."""
    if _quiet is not None:
        return not _quiet
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):  # replaced or closed
        return False


def announce(what: str, why: str = "", seconds: float | None = None) -> None:
    """One line on standard error as a slow step starts: ``bitknights: WHAT (WHY, ~N s)``."""
    if not active():
        return
    notes = [why] if why else []
    if seconds is not None:
        notes.append(f"~{seconds:.0f} s" if seconds >= 1 else "under a second")
    line = f"bitknights: {what}" + (f" ({', '.join(notes)})" if notes else "")
    with writing(sys.stderr):
        sys.stderr.write(line + "\n")
        sys.stderr.flush()


class _NoBar:
    """What :func:`bar` gives when nothing is shown: the same calls, doing nothing."""

    n: float = 0
    total: float | None = None

    def update(self, n: float = 1) -> None:
        self.n += n

    def set_postfix_str(self, s: str = "", refresh: bool = True) -> None:
        pass

    def close(self) -> None:
        pass

    def __enter__(self) -> _NoBar:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def bar(total: float | None, unit: str = "board", desc: str | None = None, *,
        delay: float | None = None, **options: Any) -> Any:  # fmt: skip
    """A progress bar on standard error (tqdm, or a stand-in when feedback is off),
    appearing after ``delay`` seconds (default: :func:`_delay`)."""
    if not active():
        return _NoBar()
    bar = _ticking_class()(total=total, unit=unit, desc=desc, file=sys.stderr, leave=False,
                           delay=_delay() if delay is None else delay, dynamic_ncols=True,
                           position=0, **options)  # fmt: skip
    bar.start_ticking()
    return bar


TICK = 0.5  # seconds between redraws of a bar that has no news (the clock moves on)


def set_total(shown: Any, total: float) -> None:
    """Give ``shown`` (a :func:`bar`) its total, drawn at once when the bar is due."""
    shown.total = total
    if not isinstance(shown, _NoBar) and shown._time() - shown.start_t >= shown.delay:
        shown.refresh()


@lru_cache(maxsize=1)
def _ticking_class() -> type:
    """tqdm redrawn every ``TICK`` seconds once due; bars open at once share the line."""
    import threading
    import time

    from tqdm import tqdm

    opened: list[Ticking] = []  # the open bars, oldest first (changed under tqdm's lock)

    class Ticking(tqdm):  # type: ignore[type-arg]
        # drawn only once due and no later bar is due; cleared whenever on the screen
        _shown = False  # drawn at least once (then always due)
        _on_screen = False
        last_print_t: float  # tqdm's (declared here for mypy without tqdm's stubs)

        def start_ticking(self) -> None:
            with self.get_lock():
                opened.append(self)
            self._stop_ticking = threading.Event()
            threading.Thread(target=self._tick, name="bitknights-progress", daemon=True).start()

        def _tick(self) -> None:
            while not self._stop_ticking.wait(TICK):
                self.refresh()

        def _due(self) -> bool:
            delay = self.delay or 0
            start = getattr(self, "start_t", None)  # __init__ refreshes before setting it
            if self._shown or delay <= 0:
                return True
            return start is not None and time.time() - start >= delay  # tqdm's clock

        def refresh(self, nolock: bool = False, lock_args: Any = None) -> None:
            if self.disable or not self._due():
                return
            if not nolock:
                if lock_args and not self.get_lock().acquire(*lock_args):
                    return
                if not lock_args:
                    self.get_lock().acquire()
            try:
                # by identity: tqdm compares bars by their position, the same for all here
                at = next((i for i, bar in enumerate(opened) if bar is self), len(opened))
                if any(later._due() for later in opened[at + 1 :]):
                    self.clear(nolock=True)  # a bar opened after this one has the line
                    return
                for earlier in opened[:at]:
                    earlier.clear(nolock=True)
                self._shown = self._on_screen = True
                super().refresh(nolock=True)
            finally:
                if not nolock:
                    self.get_lock().release()

        def clear(self, nolock: bool = False) -> None:
            if self._on_screen:
                super().clear(nolock=nolock)
                self._on_screen = False

        def close(self) -> None:
            stop = getattr(self, "_stop_ticking", None)
            if stop is not None:
                stop.set()
            with self.get_lock():
                opened[:] = [bar for bar in opened if bar is not self]
                if self._on_screen and not self.disable:  # tqdm's close() clears what update() drew
                    self.last_print_t = max(self.last_print_t, self.start_t + (self.delay or 0))
                elif not self.disable:  # not on the screen: nothing to clear
                    self.last_print_t = min(self.last_print_t, self.start_t - 1)
                self._on_screen = False
                super().close()
                below = [bar for bar in opened if bar._due()]
                if below:
                    below[-1].refresh(nolock=True)  # the line goes back to the bar below

    return Ticking


@contextlib.contextmanager
def writing(out: IO[str]) -> Iterator[None]:
    """Write to ``out`` inside this block: a bar on its terminal is cleared and redrawn."""
    tqdm = sys.modules.get("tqdm")
    if tqdm is None or not _same_terminal(out):
        yield
        return
    with tqdm.tqdm.external_write_mode(file=out):
        yield


def _same_terminal(out: IO[str]) -> bool:
    if out is sys.stderr:
        return True
    try:
        return out.isatty() and sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False
