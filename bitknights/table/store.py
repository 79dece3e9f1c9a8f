"""The distance table on disk: one byte per board, a checked header, atomic writes.

Pure Python (numpy is imported only to hand the payload to numpy code): the command line
answers small batches from here without importing numpy at all (:mod:`.probe`).

File layout (little-endian), one file per target in the cache directory::

    magic            8 bytes  b"BKNTABLE"
    format version   u32      FORMAT_VERSION
    header size      u32      bytes before the payload
    target key       u64      Board.key of the target (black | blank << 25)
    black knights    u32      k: the table covers the 25 * C(24, k) boards with k black
    layer count      u32      n = farthest distance + 1
    state count      u64      25 * C(24, k)
    payload size     u64      state count (one byte a board)
    unreachable      u64      boards that cannot reach the target
    example rank     u64      one board at the farthest distance
    layers           n * u64  boards at distance 0, 1, ..., n - 1
    payload digest   16 bytes CRC-32 of the payload (little-endian u32, zero-padded)
    header digest    16 bytes blake2b of every header byte before it
    payload          byte r: the exact distance of the board of rank r
                     (:func:`~bitknights.coords.rank`), or 255 if it cannot reach

One byte a board (68 MB for the classic 12 black knights) makes every answer one read:
a distance is ``payload[rank]``, an optimal path steps to any neighbour one less.  (Format
2 stored distance mod 3 in 2 bits, 17 MB, and walked every board to the target.)

The file is memory-mapped, so processes share one copy in the page cache, and checked in
full (header digest, sizes, payload CRC-32: about 45 ms) on every load.

The directory is the ``cache_dir`` argument, else ``BITKNIGHTS_CACHE_DIR``, else
platformdirs' user cache directory for ``bitknights`` (which honours ``XDG_CACHE_HOME``).
A file that is short, long, corrupt, of another format version or built for another
target is never used: :func:`load` raises :class:`TableError` saying what is wrong.
"""

from __future__ import annotations

import contextlib
import hashlib
import mmap
import os
import struct
import tempfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from ..board import Board
from ..errors import BitknightsError
from ..squares import NUM_SQUARES

if TYPE_CHECKING:
    import numpy as np

MAGIC = b"BKNTABLE"
FORMAT_VERSION = 3
CACHE_ENV = "BITKNIGHTS_CACHE_DIR"
UNREACHABLE = 255

_FIXED = struct.Struct("<8sIIQIIQQQQ")
_DIGEST = 16

_override_dir: Path | None = None


class TableError(BitknightsError):
    """The distance table a request needs is missing or unusable."""


def default_cache_dir() -> Path:
    """The directory tables live in when no ``cache_dir`` is given: an active
    :func:`using_cache_dir`, else ``$BITKNIGHTS_CACHE_DIR``, else the user cache directory
    (``$XDG_CACHE_HOME/bitknights`` or ``~/.cache/bitknights`` on Linux)."""
    if _override_dir is not None:
        return _override_dir
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("bitknights"))


@contextlib.contextmanager
def using_cache_dir(path: str | os.PathLike[str] | None) -> Iterator[None]:
    """Within the block, tables are looked for in ``path`` (no effect for ``None``)."""
    global _override_dir
    saved = _override_dir
    if path is not None:
        _override_dir = Path(path)
    try:
        yield
    finally:
        _override_dir = saved


def table_path(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the table of ``target`` lives.

    >>> from bitknights.board import TARGET
    >>> table_path(TARGET, "/c").as_posix()
    '/c/distances-11111-01111-00x11-00001-00000.bkt'
    """
    name = "-".join(target.rows()).replace("*", "x")
    directory = Path(cache_dir) if cache_dir is not None else default_cache_dir()
    return directory / f"distances-{name}.bkt"


def payload_digest(payload: np.ndarray | bytes | memoryview) -> bytes:
    """The payload's check value as stored in the header (CRC-32, padded to 16 bytes)."""
    return struct.pack("<I", zlib.crc32(payload)).ljust(_DIGEST, b"\0")


def payload_size(state_count: int) -> int:
    """Bytes that hold ``state_count`` boards: one each."""
    return state_count


@dataclass(frozen=True, eq=False)
class TableFile:
    """A loaded, verified table: header fields and the payload (one distance byte a
    board, read-only, memory-mapped).  ``data`` is the payload as a ``memoryview`` (no
    numpy needed); ``payload`` is the same bytes as a numpy array."""

    path: Path
    target: Board
    black_count: int
    state_count: int
    layers: tuple[int, ...]
    unreachable: int
    example_rank: int
    data: memoryview

    @property
    def payload(self) -> np.ndarray:
        """The payload as a read-only ``uint8`` array (no copy)."""
        import numpy as np

        return np.frombuffer(self.data, dtype=np.uint8)

    @property
    def max_distance(self) -> int:
        """The farthest any board is from the target."""
        return len(self.layers) - 1

    def example(self) -> Board:
        """The board at :attr:`max_distance` the header names (pure Python, no numba)."""
        from ..coords import pack, unrank

        return Board.from_key(pack(*unrank(self.example_rank, self.black_count)))


def _header(
    target: Board,
    state_count: int,
    layers: list[int],
    unreachable: int,
    example_rank: int,
    payload_digest: bytes,
) -> bytes:
    k = target.black.bit_count()
    size = _FIXED.size + 8 * len(layers) + 2 * _DIGEST
    fixed = _FIXED.pack(
        MAGIC,
        FORMAT_VERSION,
        size,
        target.key,
        k,
        len(layers),
        state_count,
        payload_size(state_count),
        unreachable,
        example_rank,
    )
    body = fixed + struct.pack(f"<{len(layers)}Q", *layers) + payload_digest
    return body + hashlib.blake2b(body, digest_size=_DIGEST).digest()


def write(
    path: Path,
    target: Board,
    payload: np.ndarray,
    layers: list[int],
    unreachable: int,
    example_rank: int,
) -> None:
    """Write a table file atomically: a temporary file in the same directory, flushed to
    disk, then renamed over ``path`` (readers see the old file or the new, never half)."""
    import numpy as np

    from ..coords import state_count

    count = state_count(target.black.bit_count())
    data = np.ascontiguousarray(payload, dtype=np.uint8)
    if data.shape != (payload_size(count),):
        raise ValueError(f"payload has {data.size} bytes, expected {payload_size(count)}")
    digest = payload_digest(data)
    header = _header(target, count, layers, unreachable, example_rank, digest)
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=".tmp-", suffix=".bkt", dir=path.parent)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp gives 0600; use the usual mode
        with os.fdopen(fd, "wb") as f:
            f.write(header)
            f.write(data.tobytes())
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _loaded.pop(path, None)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _fail(path: Path, problem: str) -> TableError:
    return TableError(
        f"distance table {path} {problem}; run `bitknights table build` to rebuild it"
    )


def _parse_header(path: Path, head: bytes, target: Board | None) -> tuple[dict, int]:
    """The header's fields and its size; raises :class:`TableError` naming the problem."""
    if len(head) < _FIXED.size:
        raise _fail(path, "is truncated (no complete header)")
    (magic, version, size, key, k, nlayers, count, psize, unreachable, example) = (
        _FIXED.unpack_from(head)
    )
    if magic != MAGIC:
        raise _fail(path, "is not a bitknights distance table (bad magic)")
    expected_size = _FIXED.size + 8 * nlayers + 2 * _DIGEST
    if size != expected_size or nlayers > 256:
        raise _fail(path, "has a corrupt header")
    if len(head) < size:
        raise _fail(path, "is truncated (header cut short)")
    body = head[: size - _DIGEST]
    if hashlib.blake2b(body, digest_size=_DIGEST).digest() != head[size - _DIGEST : size]:
        raise _fail(path, "has a corrupt header (checksum mismatch)")
    if version != FORMAT_VERSION:
        raise _fail(
            path,
            f"has format version {version}, this bitknights reads version {FORMAT_VERSION}",
        )
    try:
        file_target = Board.from_key(key)
    except BitknightsError:
        raise _fail(path, "has a corrupt header (bad target)") from None
    if target is not None and file_target != target:
        raise _fail(
            path,
            f"was built for target {'/'.join(file_target.rows())}, not {'/'.join(target.rows())}",
        )
    from math import comb

    layers = struct.unpack_from(f"<{nlayers}Q", head, _FIXED.size)
    if (
        k != file_target.black.bit_count()
        or count != NUM_SQUARES * comb(NUM_SQUARES - 1, k)
        or psize != payload_size(count)
        or sum(layers) + unreachable != count
        or not 0 <= example < count
    ):
        raise _fail(path, "has a corrupt header (inconsistent counts)")
    fields = {
        "target": file_target,
        "black_count": k,
        "state_count": count,
        "payload_size": psize,
        "layers": tuple(layers),
        "unreachable": unreachable,
        "example_rank": example,
        "payload_digest": head[size - 2 * _DIGEST : size - _DIGEST],
    }
    return fields, size


def read_header(path: Path, target: Board | None = None) -> dict:
    """The header fields of a table file, checked (magic, version, header checksum,
    target, counts, file size) without reading the payload."""
    try:
        with open(path, "rb") as f:
            head = f.read(_FIXED.size + 8 * 256 + 2 * _DIGEST)
            file_size = os.fstat(f.fileno()).st_size
    except FileNotFoundError:
        raise _missing(path) from None
    except OSError as e:
        raise TableError(f"cannot read distance table {path}: {e.strerror or e}") from None
    fields, size = _parse_header(path, head, target)
    if file_size != size + fields["payload_size"]:
        what = "is truncated" if file_size < size + fields["payload_size"] else "is too long"
        raise _fail(path, f"{what} ({file_size} bytes, expected {size + fields['payload_size']})")
    return fields


def _missing(path: Path) -> TableError:
    return TableError(
        f"no distance table at {path}: run `bitknights table build` first "
        "(about 5 seconds; add --target FILE for another target, --cache-dir DIR elsewhere)"
    )


# path -> ((mtime_ns, size, inode), TableFile): a file is read and verified once per
# process unless it changes on disk.
_loaded: dict[Path, tuple[tuple[int, int, int], TableFile]] = {}


def load(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> TableFile:
    """The verified table of ``target``: the header is checked as in :func:`read_header`
    and the payload against its digest.  Raises :class:`TableError` when there is none or
    it is unusable; never returns a table that failed a check."""
    path = table_path(target, cache_dir)
    try:
        st = path.stat()
    except FileNotFoundError:
        raise _missing(path) from None
    except OSError as e:
        raise TableError(f"cannot read distance table {path}: {e.strerror or e}") from None
    stamp = (st.st_mtime_ns, st.st_size, st.st_ino)
    hit = _loaded.get(path)
    if hit is not None and hit[0] == stamp:
        return hit[1]
    try:
        with open(path, "rb") as f:
            raw = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) if st.st_size else b""
    except OSError as e:
        raise TableError(f"cannot read distance table {path}: {e.strerror or e}") from None
    fields, size = _parse_header(path, raw[: _FIXED.size + 8 * 256 + 2 * _DIGEST], target)
    expected = size + fields["payload_size"]
    if len(raw) != expected:
        what = "is truncated" if len(raw) < expected else "is too long"
        raise _fail(path, f"{what} ({len(raw)} bytes, expected {expected})")
    data = memoryview(raw)[size:]
    if payload_digest(data) != fields["payload_digest"]:
        raise _fail(path, "is corrupt (payload checksum mismatch)")
    table = TableFile(
        path=path,
        target=fields["target"],
        black_count=fields["black_count"],
        state_count=fields["state_count"],
        layers=fields["layers"],
        unreachable=fields["unreachable"],
        example_rank=fields["example_rank"],
        data=data,
    )
    _loaded.clear()  # keep at most one table (68 MB) alive through this cache
    _loaded[path] = (stamp, table)
    return table


def available(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> bool:
    """Whether a valid table of ``target`` is present (verified in full, once per process
    per file version, as :func:`load` does)."""
    try:
        load(target, cache_dir)
    except TableError:
        return False
    return True
