"""Reading a batch once, however it arrives (file, pipe, FIFO, standard input): under
``bitknights solve``."""

from __future__ import annotations

import contextlib
import io
import os
import stat

from ..batch import BatchReader
from ..errors import InputError
from .common import Environment, ResourceError, UsageError, read_error, stdin_bytes, where

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator
    from typing import BinaryIO

    import numpy as np

KEEP_BOARDS = 1 << 21  # boards kept in memory from the checking pass
SMALL_INPUT = 1 << 18  # bytes (8,700 boards) of counts alone answered without numpy


def open_input(path: str, env: Environment) -> BinaryIO:
    """The batch, opened once: every pass reads this stream (no byte lost from a pipe)."""
    if path == "-":
        stdin = stdin_bytes(env, " (give FILE, or a batch on stdin)")
        return contextlib.nullcontext(stdin)  # type: ignore[return-value]
    try:
        return open(path, "rb")  # noqa: SIM115 - closed by the caller's with
    except OSError as e:
        raise read_error(path, e) from None


def small_input(stream: BinaryIO, path: str) -> bytes | None:
    """The input's first ``SMALL_INPUT + 1`` bytes (more than ``SMALL_INPUT``: not small);
    ``None``, having read nothing, for a regular file larger than that."""
    stamp = _stamp(stream)  # None when no regular file is behind it (a pipe, tests): read on
    if stamp is not None and stamp[0] > SMALL_INPUT:
        return None
    try:
        return stream.read(SMALL_INPUT + 1)
    except OSError as e:
        raise read_error(path, e) from None


def checked_chunks(
    stream: BinaryIO, path: str, prefix: bytes = b""
) -> tuple[Iterable[np.ndarray], int]:
    """The whole input checked first (nothing is solved if any line is bad), then its
    boards as key arrays, and how many.  Past ``KEEP_BOARDS`` boards the input is read
    again (a pipe from a temporary copy).  ``prefix``: what was already read."""
    spool = None
    try:
        if prefix or not stream.seekable():
            spool = _spool()
            stream = _Copied(prefix, stream, spool)  # type: ignore[assignment]
        before = _stamp(stream)
        kept: list[np.ndarray] | None = []
        total = 0
        try:
            for chunk in BatchReader(stream).chunks():
                total += len(chunk)
                if kept is not None:
                    kept.append(chunk)
                    if total > KEEP_BOARDS:
                        kept = None
        except InputError as e:
            raise UsageError(f"{where(path)}{e}") from None
        except OSError as e:
            raise read_error(path, e) from None
        if kept is not None:
            return kept, total
        source = spool if spool is not None else stream
        try:
            source.seek(0)  # (a spool's buffered last block is written now)
        except OSError as e:
            raise _spool_error(e) if source is spool else read_error(path, e) from None
        spool = None  # closed by _reread
        return _reread(source, path, before), total
    finally:
        if spool is not None:
            with contextlib.suppress(OSError):  # (a full disk's error was reported)
                spool.close()


def _stamp(stream: BinaryIO) -> tuple[int, int] | None:
    """A regular file's size and time of last change (``None`` for anything else)."""
    try:
        st = os.fstat(stream.fileno())
    except (OSError, ValueError, io.UnsupportedOperation):
        return None
    return (st.st_size, st.st_mtime_ns) if stat.S_ISREG(st.st_mode) else None


def _reread(source: BinaryIO, path: str, stamp: tuple[int, int] | None) -> Iterator[np.ndarray]:
    """The boards of an input read a second time; a file that changed since ``stamp`` (its
    size and time of change when checked) is an error."""
    answered = False
    with source:
        if stamp is not None and _stamp(source) != stamp:
            raise _changed(path, answered=False)
        try:
            for chunk in BatchReader(source).chunks():
                yield chunk
                answered = True
        except InputError:
            if stamp is None:
                raise
            raise _changed(path, answered=answered) from None
        if stamp is not None and _stamp(source) != stamp:
            raise _changed(path, answered=True)


def _changed(path: str, *, answered: bool) -> UsageError:
    done = "nothing was answered"
    if answered:
        done = "the answers printed are for its boards as they were read"
    return UsageError(
        f"{path} changed while it was read (an input over {KEEP_BOARDS:,} boards is read "
        f"twice, once to check it, once to solve it): {done}"
    )


def _spool() -> BinaryIO:
    import tempfile

    try:
        return tempfile.TemporaryFile()  # noqa: SIM115 - closed by checked_chunks or _reread
    except OSError as e:
        raise _spool_error(e) from None


def _spool_error(e: OSError) -> ResourceError:
    import tempfile

    return ResourceError(
        f"cannot keep a copy of standard input in {tempfile.gettempdir()} (an input over "
        f"{KEEP_BOARDS:,} boards is read twice): {e.strerror or e}; set TMPDIR to a roomier "
        "directory, or give the input as a file"
    )


class _Copied(io.RawIOBase):
    """``prefix``, then the rest of ``src``, copying what it reads into ``copy``."""

    def __init__(self, prefix: bytes, src: BinaryIO, copy: BinaryIO) -> None:
        self._prefix, self._src, self._copy = prefix, src, copy

    def read(self, n: int = -1) -> bytes:
        if self._prefix:
            cut = len(self._prefix) if n < 0 else n
            data, self._prefix = self._prefix[:cut], self._prefix[cut:]
        else:
            data = self._src.read(n)
        try:
            self._copy.write(data)
        except OSError as e:
            raise _spool_error(e) from None
        return data

    def seekable(self) -> bool:
        return False
