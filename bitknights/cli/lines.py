"""Command lines read from standard input, a line at a time, such that Ctrl-C always ends
the wait (``bitknights play``).

Python runs a signal's handler between two bytecodes, never inside a system call that has
not started yet: a SIGINT that arrives after the prompt is written but before ``read()``
starts leaves the handler pending while ``read()`` waits for a line that may never come
(``input()`` has this race).  :func:`interruptible` makes every SIGINT also write a byte
to a pipe (:func:`signal.set_wakeup_fd`), and :class:`CommandLines` waits for standard
input and that pipe together: a signal before the wait makes the pipe readable, so the
wait returns at once and the handler runs.
"""

from __future__ import annotations

import contextlib
import os
import select

from .common import read_error

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator
    from typing import IO

CHUNK = 1 << 16


@contextlib.contextmanager
def interruptible() -> Iterator[int | None]:
    """Within the block, every signal Python handles (SIGINT: Ctrl-C) also writes a byte
    to a pipe; yields the pipe's reading end for :class:`CommandLines`, or ``None`` where
    signals cannot be routed so (a thread other than the main one)."""
    import signal

    r, w = os.pipe()
    try:
        for fd in (r, w):
            os.set_blocking(fd, False)
        try:
            previous = signal.set_wakeup_fd(w, warn_on_full_buffer=False)
        except ValueError:  # not the main thread: its signals are not this thread's
            yield None
            return
        try:
            yield r
        finally:
            signal.set_wakeup_fd(previous)
    finally:
        os.close(r)
        os.close(w)


class CommandLines:
    """The lines of ``stream`` (standard input), decoded as UTF-8 (a byte that is not is
    read as U+FFFD), each at most ``keep`` bytes: the rest of a longer line is read and
    dropped, never kept.  ``wakeup``: the pipe :func:`interruptible` yields."""

    def __init__(self, stream: IO[str], keep: int, wakeup: int | None = None) -> None:
        self._stream = stream
        try:
            self._fd: int | None = stream.fileno()
        except (OSError, ValueError, AttributeError):  # no descriptor (embedding, tests)
            self._fd = None
        self._keep = keep
        self._wakeup = wakeup
        self._pending = b""
        self._ended = False

    def readline(self) -> str:
        """The next line with its line break, the last one without; ``''`` at the end."""
        line = bytearray()
        while True:
            end = self._pending.find(b"\n") + 1
            piece = self._pending[:end] if end else self._pending
            self._pending = self._pending[len(piece) :]
            line += piece[: max(0, self._keep - len(line))]
            if end or self._ended:
                return line.decode("utf-8", "replace")
            self._pending = self._read()
            self._ended = not self._pending

    def _read(self) -> bytes:
        """The next bytes of the input, ``b''`` at its end."""
        try:
            if self._fd is None:
                buffer = getattr(self._stream, "buffer", None)
                if buffer is None:  # a text stream without bytes beneath
                    return self._stream.readline(CHUNK).encode("utf-8", "surrogateescape")
                return buffer.read1(CHUNK)  # type: ignore[no-any-return]
            while True:
                if self._wakeup is not None:
                    self._wait(self._fd, self._wakeup)
                with contextlib.suppress(BlockingIOError):  # another reader was faster
                    return os.read(self._fd, CHUNK)
        except OSError as e:
            raise read_error("-", e) from None

    @staticmethod
    def _wait(fd: int, wakeup: int) -> None:
        """Until ``fd`` has something to read.  A signal makes ``wakeup`` readable: its
        byte is read and the loop goes on, and its handler runs before the loop's next
        round (the default SIGINT handler raises ``KeyboardInterrupt`` there)."""
        while fd not in select.select([fd, wakeup], [], [])[0]:
            with contextlib.suppress(BlockingIOError):
                os.read(wakeup, 512)
