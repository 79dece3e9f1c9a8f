"""What the operating system offers differently, in one place, chosen by what this Python
has (never by the platform's name); everything else in bitknights uses only what every
system has.

* **Opening** (:func:`open_read`): binary (``O_BINARY``) and never blocking on a FIFO
  (``O_NONBLOCK``); descriptors are never inherited (PEP 446).
* **Reading at an offset** (:func:`read_at`, :func:`read_into`): ``pread`` and ``preadv``
  where they exist (POSIX); else a seek and a read under one lock (Windows).
* **Owners** (:data:`OWNERS`): POSIX owners and mode bits; Windows' access-control lists
  are not read.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

READ = os.O_RDONLY | getattr(os, "O_BINARY", 0) | getattr(os, "O_NONBLOCK", 0)
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # (Windows: symbolic links need privileges to make)

OWNERS = hasattr(os, "geteuid")
"""Whether files have POSIX owners and mode bits that say who may write them."""


def open_read(path: str | os.PathLike[str], *, follow: bool = True) -> int:
    """A descriptor of ``path`` opened for reading bytes, without waiting for a writer
    (a FIFO); ``follow=False`` refuses a symbolic link where the system can."""
    return os.open(path, READ if follow else READ | NOFOLLOW)


def cpus() -> int:
    """The CPUs this process may use: its affinity mask where the system says, else all."""
    if hasattr(os, "process_cpu_count"):
        return max(1, os.process_cpu_count() or 1)
    if hasattr(os, "sched_getaffinity"):
        return max(1, len(os.sched_getaffinity(0)))
    return max(1, os.cpu_count() or 1)


def user() -> int:
    """This process's effective user (POSIX; see :data:`OWNERS`)."""
    return os.geteuid()


_pread: Callable[[int, int, int], bytes]
if hasattr(os, "pread"):
    _pread = os.pread
else:
    import threading

    _SEEK = threading.Lock()  # one file position per descriptor: threads take turns

    def _pread(fd: int, size: int, offset: int) -> bytes:
        with _SEEK:
            os.lseek(fd, offset, os.SEEK_SET)
            return os.read(fd, size)


def read_at(fd: int, size: int, offset: int) -> bytes:
    """``size`` bytes at ``offset`` (fewer only at the end of the file)."""
    parts = []
    while size > 0:
        chunk = _pread(fd, size, offset)
        if not chunk:
            break
        parts.append(chunk)
        size -= len(chunk)
        offset += len(chunk)
    return b"".join(parts)


_PREADV = hasattr(os, "preadv")


def read_into(fd: int, into: memoryview, offset: int) -> int:
    """Fill ``into`` with the bytes at ``offset``; how many there were (fewer than
    ``len(into)`` only at the end of the file)."""
    done = 0
    while done < len(into):
        if _PREADV:
            n = os.preadv(fd, [into[done:]], offset + done)
        else:
            chunk = _pread(fd, len(into) - done, offset + done)
            n = len(chunk)
            into[done : done + n] = chunk
        if n <= 0:
            break
        done += n
    return done


def fsync_directory(directory: str) -> None:
    """Make a rename in ``directory`` durable where directories can be opened (POSIX).
    Raises ``OSError``."""
    if not hasattr(os, "O_DIRECTORY"):
        return
    fd = os.open(directory, os.O_RDONLY | os.O_DIRECTORY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
