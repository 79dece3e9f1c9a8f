"""The cache layer: where bitknights keeps the files it builds, and the rules they follow.

* **Where**: :func:`cache_directory`.
* **Reading**: :func:`open_cached` checks with ``fstat``, before a byte is read, that the
  file is regular, trusted and (when known) of the size, never blocking.
* **Writing**: :func:`atomic_write`, a locked temporary file fsynced and renamed over the
  target (what differs by operating system: :mod:`bitknights.system`).
* **Headers**: :func:`pack_header`/:func:`unpack_header`.
* **Trust**, as ssh has it: where files have POSIX owners, a file is used only when it
  and its directory are owned by this user (or root) and writable by nobody else.
* **Proofs**: a file whose contents decide answers is used only once checked whole; the
  verdict is kept beside it with the file's identity (:func:`record_proof`,
  :func:`proof`), so only a changed file is proved again (``docs/reliability.md``).
"""

from __future__ import annotations

import contextlib
import os
import stat
import struct
import sys
import time
import zlib
from array import array

from . import system
from .errors import BitknightsError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Mapping

CACHE_ENV = "BITKNIGHTS_CACHE_DIR"
STALE_SECONDS = 2.0  # a temporary file nobody holds locked and this old is a killed writer's

_PREFIX = ".tmp-"
_HEAD = struct.Struct("<8sII")  # magic, format version, header size (CRC included)


class CacheError(BitknightsError):
    """A cache file is missing, unusable or not trusted; the message names the path."""


class UntrustedError(CacheError):
    """A cache file or directory others could have written; the message says the fix."""


class CacheFullError(CacheError):
    """A cache file cannot be written for want of room (disk, quota, ``ulimit -f``)."""

    refused = True


def no_room(e: OSError) -> bool:
    """Whether a write failed for want of room: ENOSPC, EDQUOT, or EFBIG (``ulimit -f``)."""
    import errno

    return e.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG)


def _write_error(what: str, path: object, e: OSError) -> CacheError:
    kind = CacheFullError if no_room(e) else CacheError
    return kind(f"cannot write {what} {path}: {e.strerror or e}")


def cache_directory(
    cache_dir: str | os.PathLike[str] | None = None, environ: Mapping[str, str] | None = None
) -> str:
    """The directory cache files live in, as a path string: ``cache_dir``, else
    ``$BITKNIGHTS_CACHE_DIR`` (of ``environ``, default the process's), else the user cache
    directory (an empty string means "not set").

    >>> cache_directory("/data/bk"), cache_directory(None, {CACHE_ENV: "/x", "HOME": "/h"})
    ('/data/bk', '/x')
    """
    if cache_dir is not None and os.fspath(cache_dir) != "":
        return os.fspath(cache_dir)
    environ = os.environ if environ is None else environ
    env = environ.get(CACHE_ENV)
    if env:
        return env
    if home := _xdg_cache_home(environ):
        return home
    import platformdirs

    return platformdirs.user_cache_dir("bitknights")


def _xdg_cache_home(environ: Mapping[str, str]) -> str | None:
    """The user cache directory by platformdirs' XDG rule on Linux without importing it
    (13 ms), for an absolute, normalised ``$XDG_CACHE_HOME`` or else ``$HOME`` (where every
    platformdirs release agrees); ``None``, for platformdirs to decide, otherwise."""
    if not sys.platform.startswith("linux"):  # (platformdirs chooses its rule by the name)
        return None
    xdg = environ.get("XDG_CACHE_HOME", "")
    if xdg:
        return os.path.join(xdg, "bitknights") if _plain(xdg) else None
    home = environ.get("HOME", "")
    return os.path.join(home, ".cache", "bitknights") if _plain(home) else None


def _plain(path: str) -> bool:
    return os.path.isabs(path) and os.path.normpath(path) == path and path.strip() == path


def trust_problem(
    path: str | os.PathLike[str], st: os.stat_result, *, directory: bool = False
) -> str | None:
    """Why ``path`` (with stat ``st``) is not trusted, or ``None`` when it is (always
    without POSIX owners: the proofs of the files that decide answers are as strong)."""
    if not system.OWNERS:
        return None
    if st.st_uid not in (system.user(), 0):
        return (
            f"{path} is owned by another user (uid {st.st_uid}); "
            f"{'use a cache directory of your own' if directory else 'remove it'}"
        )
    if st.st_mode & 0o022:
        return (
            f"{path} is writable by {'group and others' if st.st_mode & 0o002 else 'its group'} "
            f"(mode 0{stat.S_IMODE(st.st_mode):o}), so anyone there could change the answers; "
            f"fix it with `chmod go-w {path}`"
        )
    return None


def open_cached(
    path: str | os.PathLike[str],
    what: str,
    *,
    sizes: Iterable[int] | None = None,
    max_size: int | None = None,
    trust: bool = True,
    fix: str = "remove it and build again",
    errors: tuple[type[CacheError], type[CacheError]] = (CacheError, UntrustedError),
) -> tuple[int, os.stat_result]:
    """Open a cache file for reading, never blocking: ``(fd, stat)``.  Raises
    ``FileNotFoundError`` when there is none, ``errors[0]`` (naming ``what`` and the path,
    ending with ``fix``) when it is not a regular file, of none of ``sizes`` or larger than
    ``max_size``, and ``errors[1]`` when it is not trusted (``trust``)."""
    error, untrusted = errors
    try:
        fd = system.open_read(path)
    except FileNotFoundError:
        raise
    except OSError as e:
        raise error(f"cannot read {what} {path}: {e.strerror or e}") from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            kind = "a FIFO" if stat.S_ISFIFO(st.st_mode) else "not a regular file"
            raise error(f"{what} {path} is {kind}; {fix}")
        if trust:
            parent = os.path.dirname(os.path.abspath(path))
            for p, s, is_dir in ((path, st, False), (parent, os.stat(parent), True)):
                problem = trust_problem(p, s, directory=is_dir)
                if problem:
                    raise untrusted(f"not trusting {what}: {problem}")
        if (sizes is not None and st.st_size not in set(sizes)) or (
            max_size is not None and st.st_size > max_size
        ):
            raise error(f"{what} {path} has the wrong size ({st.st_size:,} bytes); {fix}")
    except BaseException:
        os.close(fd)
        raise
    return fd, st


_warned: set[str] = set()


def warn_once(message: str, instead: str) -> None:
    """Say on standard error, once per process, that a file was refused (``message``) and
    what is done ``instead``."""
    line = f"bitknights: warning: {message}; {instead}\n"
    if line not in _warned:
        _warned.add(line)
        sys.stderr.write(line)


def ensure_directory(directory: str | os.PathLike[str]) -> None:
    """Create ``directory`` (mode ``0755`` less the umask) if it is missing, and refuse
    one that others may write."""
    try:
        if os.path.exists(directory) and not os.path.isdir(directory):
            raise CacheError(f"cache directory {directory} is a file, not a directory")
        os.makedirs(directory, mode=0o755, exist_ok=True)
        st = os.stat(directory)
    except OSError as e:
        raise CacheError(f"cannot use cache directory {directory}: {e.strerror or e}") from None
    problem = trust_problem(directory, st, directory=True)
    if problem:
        raise UntrustedError(f"not using cache directory: {problem}")


def clean_stale(directory: str | os.PathLike[str]) -> list[str]:
    """Remove temporary files killed writers left in ``directory``; returns them."""
    import filelock

    removed = []
    with contextlib.suppress(OSError):
        names = [n for n in os.listdir(directory) if n.startswith(_PREFIX)]
        for name in names:
            path = os.path.join(directory, name)
            try:
                fd = system.open_read(path, follow=False)
            except OSError:
                continue
            try:
                st = os.fstat(fd)
                if not stat.S_ISREG(st.st_mode) or time.time() - st.st_mtime < STALE_SECONDS:
                    continue
                if not filelock.lock_descriptor(fd, blocking=False):
                    continue  # a live writer's
                os.close(fd)  # (Windows deletes no file that is open)
                fd = -1
                os.unlink(path)
                removed.append(path)
            except OSError:
                continue
            finally:
                if fd >= 0:
                    os.close(fd)
    return removed


REPLACE_SECONDS = 2.0  # how long a writer waits for others to close the file it replaces


def atomic_write(
    path: str | os.PathLike[str], parts: Iterable[bytes | memoryview], what: str
) -> os.stat_result:
    """Write ``parts`` to ``path`` atomically (mode ``0644`` less the umask; files killed
    writers left are removed) and return its ``stat``.  Raises :class:`CacheError` naming
    the path when the directory cannot take the file, or when another process keeps the
    target open past ``REPLACE_SECONDS`` where that forbids replacing it (Windows)."""
    import tempfile

    import filelock

    directory = os.path.dirname(os.path.abspath(path))
    ensure_directory(directory)
    clean_stale(directory)
    try:
        suffix = os.path.splitext(path)[1]
        fd, tmp = tempfile.mkstemp(prefix=_PREFIX, suffix=suffix, dir=directory)
    except OSError as e:
        raise _write_error(what, path, e) from None
    umask = os.umask(0o022)
    os.umask(umask)
    try:
        with os.fdopen(fd, "wb") as f:
            filelock.lock_descriptor(f.fileno())
            if system.OWNERS:
                os.chmod(f.fileno(), 0o644 & ~umask)
            for part in parts:
                f.write(part)
            f.flush()
            os.fsync(f.fileno())
            written = os.fstat(f.fileno())
            renamed = _replace(tmp, path, what, last=False)
            if renamed:  # after the rename, which may change its ctime
                written = os.fstat(f.fileno())
        if not renamed:  # (where an open file cannot be renamed: once it is closed)
            _replace(tmp, path, what, last=True)
            after = os.stat(path)
            if _identity(after) != _identity(written):
                raise CacheError(f"cannot write {what} {path}: another process replaced it")
            written = after
        with contextlib.suppress(OSError):
            system.fsync_directory(directory)
    except BaseException as e:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError):
            raise _write_error(what, path, e) from None
        raise
    return written


def _identity(st: os.stat_result) -> tuple[int, int, int]:
    return st.st_dev, st.st_ino, st.st_size


def _replace(tmp: str, path: str | os.PathLike[str], what: str, *, last: bool) -> bool:
    """Rename ``tmp`` over ``path``; ``False`` (``last``: a :class:`CacheError` after
    ``REPLACE_SECONDS`` of trying) where a process holds one of them open and the system
    forbids that (Windows: sharing violation, access denied)."""
    deadline = time.monotonic() + REPLACE_SECONDS
    while True:
        try:
            os.replace(tmp, path)
            return True
        except PermissionError as e:
            if getattr(e, "winerror", None) not in (5, 32):
                raise
            if not last:
                return False
            if time.monotonic() > deadline:
                raise CacheError(
                    f"cannot replace {what} {path}: another process has it open; end that "
                    "process (a running bitknights, a notebook's kernel) and try again"
                ) from None
            os.utime(tmp)  # still a live writer's, to anyone cleaning the directory
            time.sleep(0.05)


_PROOF_MAGIC = "bitknights-proof 2"
EXACT = "exact"  # the verdict of a file that passed its proof


def _record(st: os.stat_result, tag: str, verdict: str) -> str:
    fields = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    return f"{_PROOF_MAGIC} {' '.join(map(str, fields))} {tag} {verdict}\n"


def proof(path: str | os.PathLike[str], st: os.stat_result, tag: str) -> str | None:
    """The verdict recorded (:data:`EXACT` or why it failed) for the file at ``path``
    (``fstat`` ``st``, the reader's ``tag``) if its record names exactly this identity."""
    head = _record(st, tag, "").encode()[:-1]
    try:
        fd, _ = open_cached(f"{os.fspath(path)}.proof", "proof record", max_size=len(head) + 200)
    except (OSError, CacheError):
        return None
    try:
        line = system.read_at(fd, len(head) + 201, 0)
    except OSError:
        return None
    finally:
        os.close(fd)
    if not line.startswith(head) or not line.endswith(b"\n"):
        return None
    return line[len(head) : -1].decode("ascii", "replace") or None


def record_proof(
    path: str | os.PathLike[str], st: os.stat_result, tag: str, what: str, verdict: str = EXACT
) -> None:
    """Remember the ``verdict`` (:data:`EXACT` or a one-word reason) of the proof of the
    file at ``path`` (``fstat`` ``st``) in ``NAME.proof``; if it cannot, say so once."""
    try:
        atomic_write(f"{os.fspath(path)}.proof", [_record(st, tag, verdict).encode()],
                     "proof record")  # fmt: skip
    except CacheError as e:
        warn_once(str(e), f"the {what} is proved again in every process")


def u32_array(data: bytes | memoryview) -> array:
    """Little-endian unsigned 32-bit values (checksums, keys) as an ``array('I')``.

    >>> list(u32_array(bytes([1, 0, 0, 0, 0, 1, 0, 0]))), u32_bytes([1, 256])
    ([1, 256], b'\\x01\\x00\\x00\\x00\\x00\\x01\\x00\\x00')
    """
    values = array("I")
    if values.itemsize != 4:  # pragma: no cover - no such platform here
        raise RuntimeError("array('I') is not 4 bytes")
    values.frombytes(data)
    if sys.byteorder == "big":  # pragma: no cover
        values.byteswap()
    return values


def u32_bytes(values: Iterable[int]) -> bytes:
    """The inverse of :func:`u32_array`: ``values`` as little-endian u32s."""
    out = array("I", values)
    if sys.byteorder == "big":  # pragma: no cover
        out.byteswap()
    return out.tobytes()


def pack_header(magic: bytes, version: int, fields: bytes) -> bytes:
    """A header: ``magic`` (8 bytes), ``version``, total size, ``fields``, then the CRC-32
    of everything before it."""
    body = _HEAD.pack(magic, version, _HEAD.size + len(fields) + 4) + fields
    return body + struct.pack("<I", zlib.crc32(body))


def header_size(head: bytes) -> int | None:
    """The total header size a header's first bytes announce (``None``: too short)."""
    return _HEAD.unpack_from(head)[2] if len(head) >= _HEAD.size else None


def unpack_header(head: bytes, magic: bytes, version: int, fail) -> bytes:  # noqa: ANN001
    """The ``fields`` of a header written by :func:`pack_header`; raises
    ``fail(problem)`` for a wrong magic, version, size or checksum."""
    if len(head) < _HEAD.size:
        raise fail("is truncated (no complete header)")
    got_magic, got_version, size = _HEAD.unpack_from(head)
    if got_magic != magic:
        raise fail("is not a bitknights file of this kind (bad magic)")
    if size < _HEAD.size + 4 or size > len(head):
        raise fail("is truncated or has a corrupt header")
    body, crc = head[: size - 4], struct.unpack_from("<I", head, size - 4)[0]
    if zlib.crc32(body) != crc:
        raise fail("has a corrupt header (checksum mismatch)")
    if got_version != version:
        raise fail(f"has format version {got_version}, this bitknights reads version {version}")
    return body[_HEAD.size :]
