"""The distance table on disk: one byte per board, a checked header, per-block checksums,
atomic writes (through :mod:`bitknights.cache`).

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
    unreachable      u64      boards that cannot reach the target
    example rank     u64      one board at the farthest distance
    block bits       u32      the payload is checked in blocks of 2**bits bytes
    layers           n * u64  boards at distance 0, 1, ..., n - 1
    block checksums  u32 each CRC-32 of each payload block, in order
    header checksum  u32      CRC-32 of every header byte before it
    payload          byte r: the exact distance of the board of rank r
                     (:func:`~bitknights.coords.rank`), or 255 if it cannot reach

One byte a board (68 MB for 12 black knights) makes every answer one read.

Opening a table checks its header (magic, version, checksum, target, counts, the file's
size and kind, who may write it: :mod:`bitknights.cache`) and a cheap sanity check of a
few payload blocks (:func:`_check_sane`), so a relabelled or shifted table is refused.
A 4 KiB payload block is read with ``pread`` and checked against its CRC-32 the first
time a lookup touches it; code that reads most of the table checks all of it at once
(:attr:`TableFile.payload`, :meth:`TableFile.verify`).  The file is read, not mapped:
another process truncating it is an error, never a crash.  A file that fails any check
raises :class:`TableError` saying what is wrong, and is never used.
"""

from __future__ import annotations

import contextlib
import os
import struct
import zlib
from math import comb

from .. import cache, coords
from ..board import Board
from ..errors import BitknightsError
from ..squares import KNIGHT_TARGETS, NUM_SQUARES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Sequence
    from pathlib import Path

    import numpy as np

MAGIC = b"BKNTABLE"
FORMAT_VERSION = 5
CACHE_ENV = cache.CACHE_ENV
BLOCK_BITS = 12
"""Payload blocks of 4 KiB, each checked on first use: a judge's file touches about a
hundred, a few hundred KiB."""

_FIELDS = struct.Struct("<QIIQQQI")  # target, k, layer count, states, unreachable, example, bits
_MAX_LAYERS = 256


class TableError(cache.CacheError):
    """The distance table a request needs is missing or unusable."""


class UntrustedTableError(TableError, cache.UntrustedError):
    """The distance table, or its directory, could have been written by someone else."""


class MissingTableError(TableError):
    """There is no distance table file for the target (nothing to report to ``auto``)."""


def default_cache_dir() -> Path:
    """The directory tables live in when no ``cache_dir`` is given:
    :func:`bitknights.cache.cache_directory`."""
    from pathlib import Path

    return Path(cache.cache_directory())


def table_path(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the table of ``target`` lives.

    >>> from bitknights.board import TARGET
    >>> table_path(TARGET, "/c").as_posix()
    '/c/distances-11111-01111-00x11-00001-00000.bkt'
    """
    from pathlib import Path

    return Path(_table_file(target, cache_dir))


def _table_file(target: Board, cache_dir: str | os.PathLike[str] | None) -> str:
    """:func:`table_path` as a string (no pathlib: the classic path does without)."""
    name = "-".join(target.rows()).replace("*", "x")
    return os.path.join(cache.cache_directory(cache_dir), f"distances-{name}.bkt")


def payload_size(state_count: int) -> int:
    """Bytes that hold ``state_count`` boards: one each."""
    return state_count


def block_count(size: int, bits: int = BLOCK_BITS) -> int:
    """Blocks of ``2**bits`` bytes that hold ``size`` bytes."""
    return -(-size // (1 << bits))


def block_checksums(payload: bytes | memoryview | np.ndarray, bits: int = BLOCK_BITS) -> list[int]:
    """CRC-32 of each block of the payload, as stored in the header."""
    view = memoryview(payload).cast("B")  # type: ignore[arg-type]
    step = 1 << bits
    return [zlib.crc32(view[i : i + step]) for i in range(0, len(view), step)]


def unrank(rank: int, black_count: int) -> Board:
    """The board of ``rank`` among boards with ``black_count`` black knights (pure
    Python; see :mod:`bitknights.coords`)."""
    return Board.from_key(coords.pack(*coords.unrank(rank, black_count)))


class _LazyPayload:
    """The payload as a sequence of ints: ``data[rank]`` reads and checks the rank's
    block on first use (pure Python, no numpy)."""

    __slots__ = ("_blocks", "_file")

    def __init__(self, file: TableFile) -> None:
        self._file = file
        self._blocks: list[bytes | memoryview | None] = [None] * len(file._crcs)

    def __getitem__(self, rank: int) -> int:
        block = self._blocks[rank >> BLOCK_BITS]
        if block is None:
            block = self._blocks[rank >> BLOCK_BITS] = self._file._block(rank >> BLOCK_BITS)
        return block[rank & ((1 << BLOCK_BITS) - 1)]

    def __len__(self) -> int:
        return self._file.state_count


class TableFile:
    """An open table: header fields (checked), and the payload, read and checked block by
    block as lookups touch it (:attr:`data`) or all at once (:attr:`payload`).  Any read
    that finds a bad block raises :class:`TableError`; nothing unchecked is returned."""

    def __init__(self, path: str, fd: int, fields: dict, offset: int) -> None:
        self.path = path
        """The file (a path string)."""
        self.target: Board = fields["target"]
        self.black_count: int = fields["black_count"]
        self.state_count: int = fields["state_count"]
        self.layers: tuple[int, ...] = fields["layers"]
        self.unreachable: int = fields["unreachable"]
        self.example_rank: int = fields["example_rank"]
        self.tag: str = fields["tag"]
        """The header's checksum, which names this table's contents in its proof record."""
        self._fd = fd
        self._offset = offset
        self._crcs: Sequence[int] = fields["crcs"]
        self._full: np.ndarray | None = None
        self.data = _LazyPayload(self)

    def __del__(self) -> None:
        with contextlib.suppress(OSError, AttributeError):
            os.close(self._fd)

    @property
    def max_distance(self) -> int:
        """The farthest any board is from the target."""
        return len(self.layers) - 1

    def example(self) -> Board:
        """The board at :attr:`max_distance` the header names (pure Python, no numba)."""
        return unrank(self.example_rank, self.black_count)

    def _corrupt(self, i: int) -> TableError:
        return _fail(self.path, f"is corrupt (payload checksum mismatch in block {i})")

    def _block(self, i: int) -> bytes | memoryview:
        if self._full is not None:
            return memoryview(self._full)[i << BLOCK_BITS : (i + 1) << BLOCK_BITS]  # type: ignore[arg-type]
        want = min(1 << BLOCK_BITS, self.state_count - (i << BLOCK_BITS))
        data = cache.read_at(self._fd, want, self._offset + (i << BLOCK_BITS))
        if len(data) != want:
            raise _fail(self.path, "was truncated while in use")
        if zlib.crc32(data) != self._crcs[i]:
            raise self._corrupt(i)
        return data

    def bytes_at(self, ranks: list[int]) -> list[int]:
        """``payload[r]`` for each rank, reading each block they fall in once, in file
        order, checked against its checksum; blocks already read are used, and the ones
        read here are not kept (for large batches: a kept block costs a fresh page of
        memory, more than reading it)."""
        order = sorted(range(len(ranks)), key=ranks.__getitem__)
        out = [0] * len(ranks)
        cached, mask = self.data._blocks, (1 << BLOCK_BITS) - 1
        current = -1
        block: bytes | memoryview = b""
        for j in order:
            r = ranks[j]
            b = r >> BLOCK_BITS
            if b != current:
                current = b
                block = cached[b] or self._block(b)
            out[j] = block[r & mask]
        return out

    @property
    def payload(self) -> np.ndarray:
        """The whole payload as a read-only ``uint8`` array, read and checked in full on
        first use (about 60 ms for the classic table; a progress bar if it takes long)."""
        if self._full is None:
            import numpy as np

            from .. import progress

            full = np.empty(self.state_count, dtype=np.uint8)
            view = memoryview(full)  # type: ignore[arg-type]
            with progress.bar(len(full), "B", "reading the distance table", unit_scale=True,
                              unit_divisor=1024) as shown:  # fmt: skip
                for lo in range(0, len(full), _READ_CHUNK):
                    self._read_checked(view[lo : lo + _READ_CHUNK], lo)
                    shown.update(min(_READ_CHUNK, len(full) - lo))
            full.setflags(write=False)
            self._full = full
        return self._full

    def _read_checked(self, into: memoryview, at: int) -> None:
        """Fill ``into`` with the payload's bytes from ``at`` (a multiple of the block
        size) and check their blocks."""
        done = 0
        while done < len(into):
            n = os.preadv(self._fd, [into[done:]], self._offset + at + done)
            if n <= 0:
                raise _fail(self.path, "was truncated while in use")
            done += n
        first = at >> BLOCK_BITS
        for i, crc in enumerate(block_checksums(into), first):
            if crc != self._crcs[i]:
                raise self._corrupt(i)

    def verify(self) -> None:
        """Read and check the whole payload now (raises :class:`TableError`)."""
        self.payload  # noqa: B018 - reading it checks it

    def values(self, ranks: np.ndarray) -> np.ndarray:
        """``payload[ranks]``, reading and checking only the blocks the ranks fall in when
        they are few; the whole payload when they touch most of it."""
        import numpy as np

        if self._full is not None or len(ranks) > len(self._crcs) // 4:
            return self.payload[ranks]
        out = np.empty(len(ranks), dtype=np.uint8)
        blocks = ranks >> BLOCK_BITS
        for b in np.unique(blocks).tolist():
            hit = blocks == b
            block = self.data._blocks[b] or self._block(b)
            self.data._blocks[b] = block
            out[hit] = np.frombuffer(block, dtype=np.uint8)[ranks[hit] & ((1 << BLOCK_BITS) - 1)]
        return out


def _header(
    target: Board,
    state_count: int,
    layers: list[int],
    unreachable: int,
    example_rank: int,
    crcs: list[int],
) -> bytes:
    fields = _FIELDS.pack(
        target.key,
        target.black.bit_count(),
        len(layers),
        state_count,
        unreachable,
        example_rank,
        BLOCK_BITS,
    )
    fields += struct.pack(f"<{len(layers)}Q{len(crcs)}I", *layers, *crcs)
    return cache.pack_header(MAGIC, FORMAT_VERSION, fields)


def write(
    path: str | os.PathLike[str],
    target: Board,
    payload: np.ndarray,
    layers: list[int],
    unreachable: int,
    example_rank: int,
) -> None:
    """Write a table file atomically (:func:`bitknights.cache.atomic_write`): readers see
    the old file or the new, never half."""
    import numpy as np

    from ..coords import state_count

    count = state_count(target.black.bit_count())
    data = np.ascontiguousarray(payload, dtype=np.uint8)
    if data.shape != (payload_size(count),):
        raise ValueError(f"payload has {data.size} bytes, expected {payload_size(count)}")
    header = _header(target, count, layers, unreachable, example_rank, block_checksums(data))
    written = cache.atomic_write(path, [header, data.data], "distance table")
    _loaded.clear()  # the open table may be this file's old version (its key need not be path)
    # the breadth-first search that computed it is the proof
    cache.record_proof(path, written, f"{zlib.crc32(header):08x}", "distance table")


def _fail(path: str | os.PathLike[str], problem: str) -> TableError:
    return TableError(
        f"distance table {path} {problem}; run `bitknights table build` to rebuild it"
    )


def _parse_header(
    path: str | os.PathLike[str], head: bytes, target: Board | None
) -> tuple[dict, int]:
    """The header's fields and its size; raises :class:`TableError` naming the problem."""
    fields_raw = cache.unpack_header(head, MAGIC, FORMAT_VERSION, lambda p: _fail(path, p))
    size = cache.header_size(head) or 0
    if len(fields_raw) < _FIELDS.size:
        raise _fail(path, "has a corrupt header")
    key, k, nlayers, count, unreachable, example, bits = _FIELDS.unpack_from(fields_raw)
    if bits != BLOCK_BITS or not 0 < nlayers <= _MAX_LAYERS:
        raise _fail(path, "has a corrupt header")
    try:
        file_target = Board.from_key(key)
    except BitknightsError:
        raise _fail(path, "has a corrupt header (bad target)") from None
    if target is not None and file_target != target:
        raise _fail(
            path,
            f"was built for target {'/'.join(file_target.rows())}, not {'/'.join(target.rows())}",
        )
    if k != file_target.black.bit_count() or count != NUM_SQUARES * comb(NUM_SQUARES - 1, k):
        raise _fail(path, "has a corrupt header (inconsistent counts)")
    nblocks = block_count(count)
    if len(fields_raw) != _FIELDS.size + 8 * nlayers + 4 * nblocks:
        raise _fail(path, "has a corrupt header")
    layers = struct.unpack_from(f"<{nlayers}Q", fields_raw, _FIELDS.size)
    crcs = cache.u32_array(fields_raw[_FIELDS.size + 8 * nlayers :])
    if sum(layers) + unreachable != count or not 0 <= example < count:
        raise _fail(path, "has a corrupt header (inconsistent counts)")
    fields = {
        "target": file_target,
        "black_count": k,
        "state_count": count,
        "payload_size": payload_size(count),
        "layers": tuple(layers),
        "unreachable": unreachable,
        "example_rank": example,
        "crcs": crcs,
        "tag": f"{zlib.crc32(head[:size]):08x}",
    }
    return fields, size


_HEAD_MAX = 16 + _FIELDS.size + 8 * _MAX_LAYERS + 4 * block_count(NUM_SQUARES * comb(24, 12)) + 4


def _open(
    path: str | os.PathLike[str], target: Board | None
) -> tuple[int, dict, int, os.stat_result]:
    """Open and check the header and size: ``(fd, fields, header size, fstat)``."""
    try:
        fd, st = cache.open_cached(path, "distance table")
    except FileNotFoundError:
        raise _missing(path) from None
    except cache.UntrustedError as e:
        raise UntrustedTableError(str(e)) from None
    except TableError:
        raise
    except cache.CacheError as e:
        raise TableError(str(e)) from None
    try:
        head = cache.read_at(fd, min(st.st_size, _HEAD_MAX), 0)
        fields, size = _parse_header(path, head, target)
        expected = size + fields["payload_size"]
        if st.st_size != expected:
            what = "is truncated" if st.st_size < expected else "is too long"
            raise _fail(path, f"{what} ({st.st_size} bytes, expected {expected})")
    except OSError as e:
        os.close(fd)
        raise TableError(f"cannot read distance table {path}: {e.strerror or e}") from None
    except BaseException:
        os.close(fd)
        raise
    return fd, fields, size, st


def _check_sane(table: TableFile) -> None:
    """Cheap whole-file sanity, run by :func:`load` (a few blocks, about 50 µs): what
    every breadth-first distance table satisfies and a table built for another target,
    relabelled or shifted does not.  The target's byte is 0 and each of its neighbours'
    is 1; the header's layer counts start with 1 and the target's neighbour count, and
    none is 0; the header's example board really is at the farthest distance.
    Raises :class:`TableError` naming the first thing wrong."""
    target, data, k = table.target, table.data, table.black_count
    layers = table.layers
    black, blank = target.black, target.blank
    neighbours = [
        (black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black, n)
        for n in KNIGHT_TARGETS[blank]
    ]
    d = data[coords.rank(black, blank, k)]
    if d != 0:
        raise _fail(table.path, f"is inconsistent (it puts its own target {d} moves away)")
    for nb, n in neighbours:
        d = data[coords.rank(nb, n, k)]
        if d != 1:
            raise _fail(
                table.path, f"is inconsistent (it puts a neighbour of its target {d} moves away)"
            )
    if layers[0] != 1 or len(layers) < 2 or layers[1] != len(neighbours) or 0 in layers:
        raise _fail(table.path, "is inconsistent (its layer counts do not fit its target)")
    d = data[table.example_rank]
    if d != table.max_distance:
        raise _fail(
            table.path,
            f"is inconsistent (its farthest example is {d} moves away, not {table.max_distance})",
        )


def _prove(table: TableFile, st: os.stat_result, tag: str, why: str) -> None:
    """Prove ``table`` exact (:mod:`.verify`: every board against its neighbours, and the
    header's counts against the payload's), said on a terminal, and record the verdict;
    raise :class:`TableError` naming the first wrong board and the fix when it is not."""
    import time

    from .. import estimates, progress
    from .verify import first_inconsistency

    progress.announce(f"proving the distance table {table.path}", why, estimates.TABLE_PROOF)
    t0 = time.perf_counter()
    bad = first_inconsistency(table.payload, table.target)  # reads and checksums it all
    verdict = "counts" if bad is None and not _counts_fit(table) else cache.EXACT
    verdict = verdict if bad is None else f"board:{bad}"
    cache.record_proof(table.path, st, tag, "distance table", verdict)
    _refuse(table, verdict)
    progress.announce(f"proved: every distance exact ({time.perf_counter() - t0:.1f} s)")


def _refuse(table: TableFile, verdict: str) -> None:
    """Raise the error for a proof's ``verdict`` unless it is :data:`cache.EXACT`."""
    if verdict == cache.EXACT:
        return
    problem = "its header's layer counts do not match its distances"
    if verdict.startswith("board:") and verdict[6:].isdigit():
        board = unrank(int(verdict[6:]), table.black_count)
        problem = f"board {board.compact} breaks the distance rules"
    raise _fail(table.path, f"is not exact ({problem}: a damaged or rewritten file)")


def _counts_fit(table: TableFile) -> bool:
    """Whether the header's layer and unreachable counts are those of the payload."""
    import numpy as np

    counts = np.bincount(table.payload, minlength=256).tolist()
    n = len(table.layers)
    return (
        tuple(counts[:n]) == table.layers
        and not any(counts[n:255])
        and counts[255] == table.unreachable
    )


def read_header(path: str | os.PathLike[str], target: Board | None = None) -> dict:
    """The header fields of a table file, checked (magic, version, header checksum,
    target, counts, file size and kind, trust) without reading the payload."""
    fd, fields, _, _ = _open(path, target)
    os.close(fd)
    return fields


def changed(path: str | os.PathLike[str]) -> TableError:
    """The error for a proved table whose bytes no longer make sense to a running process
    (the file was changed under it)."""
    return TableError(f"distance table {path} changed while in use; run again")


def _missing(path: str | os.PathLike[str]) -> TableError:
    from .. import estimates

    return MissingTableError(
        f"no distance table at {path}: run `bitknights table build` first "
        f"({estimates.about(estimates.TABLE_BUILD)}; add --target FILE for another target, "
        "--cache-dir DIR elsewhere)"
    )


_READ_CHUNK = 1 << 22  # bytes read (and checked) at a time: a multiple of the block size

# path -> (identity, TableFile): a file is opened, checked and its proof looked up once per
# process unless it changes on disk.
_loaded: dict[str, tuple[tuple[int, ...], TableFile]] = {}


def load(
    target: Board, cache_dir: str | os.PathLike[str] | None = None, *, reprove: bool = False
) -> TableFile:
    """The table of ``target``, its header checked as in :func:`read_header`, proved exact
    (once per file identity, remembered: :mod:`bitknights.cache`; ``reprove``: now,
    whatever the record says); its payload is checked block by block as it is read.
    Raises :class:`TableError` when there is none, it is unusable or not exact."""
    path = _table_file(target, cache_dir)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise _missing(path) from None
    except OSError as e:
        raise TableError(f"cannot read distance table {path}: {e.strerror or e}") from None
    stamp = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
    hit = _loaded.get(path)
    if hit is not None and hit[0] == stamp and not reprove:
        return hit[1]
    table, st = open_unproved(target, cache_dir)
    tag = table.tag
    verdict = None if reprove else cache.proof(path, st, tag)
    if verdict is None:
        _prove(table, st, tag, "" if reprove else "once: it is new or changed")
    else:
        _refuse(table, verdict)
    _loaded.clear()  # keep at most one table alive through this cache
    _loaded[path] = (stamp, table)
    return table


def open_unproved(
    target: Board, cache_dir: str | os.PathLike[str] | None = None
) -> tuple[TableFile, os.stat_result]:
    """The table file of ``target`` and its ``fstat``, checked as far as its header and
    :func:`_check_sane` go, *not proved*: what :func:`load` proves (and tests forge)."""
    path = _table_file(target, cache_dir)
    fd, fields, size, st = _open(path, target)
    table = TableFile(path, fd, fields, size)
    _check_sane(table)
    return table, st


def available(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> bool:
    """Whether a usable table of ``target`` is present (header and sanity checked, once
    per process per file version, as :func:`load` does).  A file that is there but
    unusable (not trusted, corrupt, of an older format, built for another target) is
    said once per process on standard error:
    ``auto`` then answers by search, slower than the user expects."""
    try:
        load(target, cache_dir)
    except MissingTableError:
        return False
    except TableError as e:
        cache.warn_once(str(e), "answering by search instead")
        return False
    return True
