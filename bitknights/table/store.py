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

Opening a table checks its header (magic, version, checksum, target, counts, the file's
size and kind, who may write it) and a few payload blocks (:func:`_check_sane`); loading
it proves it exact once per file identity (:func:`load`).  A payload block is checked
against its CRC-32 the first time a read touches it.  The file is read, not mapped:
another process truncating it is an error, never a crash.
"""

from __future__ import annotations

import contextlib
import os
import struct
import zlib
from math import comb

from .. import cache, coords, system
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
"""Payload blocks of 4 KiB, each checked on first use (both tables)."""

_FIELDS = struct.Struct("<QIIQQQI")  # target, k, layer count, states, unreachable, example, bits
_MAX_LAYERS = 256
_READ_CHUNK = 1 << 22  # bytes read (and checked) at a time: a multiple of the block size


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


def file_path(target: Board, cache_dir: str | os.PathLike[str] | None, suffix: str) -> str:
    """The table file of ``target`` with ``suffix`` in the cache directory (a string)."""
    name = "-".join(target.rows()).replace("*", "x")
    return os.path.join(cache.cache_directory(cache_dir), f"distances-{name}{suffix}")


def table_path(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the table of ``target`` lives.

    >>> from bitknights.board import TARGET
    >>> table_path(TARGET, "/c").as_posix()
    '/c/distances-11111-01111-00x11-00001-00000.bkt'
    """
    from pathlib import Path

    return Path(file_path(target, cache_dir, ".bkt"))


def block_count(size: int) -> int:
    """Blocks that hold ``size`` bytes."""
    return -(-size // (1 << BLOCK_BITS))


def block_checksums(payload: bytes | memoryview | np.ndarray) -> list[int]:
    """CRC-32 of each block of the payload, as stored in the header."""
    view = memoryview(payload).cast("B")  # type: ignore[arg-type]
    step = 1 << BLOCK_BITS
    return [zlib.crc32(view[i : i + step]) for i in range(0, len(view), step)]


ERRORS = (TableError, UntrustedTableError)
"""What :func:`bitknights.cache.open_cached` raises for a table file."""


def unrank(rank: int, black_count: int) -> Board:
    """The board of ``rank`` among boards with ``black_count`` black knights."""
    return Board.from_key(coords.pack(*coords.unrank(rank, black_count)))


class TableFile:
    """An open table: header fields (checked), and the payload, read and checked block by
    block as lookups touch it (``table[rank]``) or all at once (:attr:`payload`).  Any read
    that finds a bad block raises :class:`TableError`; nothing unchecked is returned."""

    def __init__(self, path: str, fd: int, fields: dict, offset: int) -> None:
        self.path = path
        self.target: Board = fields["target"]
        self.black_count: int = fields["black_count"]
        self.state_count: int = fields["state_count"]
        self.layers: tuple[int, ...] = fields["layers"]
        self.unreachable: int = fields["unreachable"]
        self.example_rank: int = fields["example_rank"]
        self.tag: str = fields["tag"]  # the header's checksum: names the contents' proof
        self._fd, self._offset = fd, offset
        self._crcs: Sequence[int] = fields["crcs"]
        self._full: np.ndarray | None = None
        self._blocks: list[bytes | memoryview | None] = [None] * len(self._crcs)

    def __del__(self) -> None:
        with contextlib.suppress(OSError, AttributeError):
            os.close(self._fd)

    def __getitem__(self, rank: int) -> int:
        """The payload's byte of ``rank``, its block read and checked on first use."""
        b = rank >> BLOCK_BITS
        block = self._blocks[b]
        if block is None:
            block = self._blocks[b] = self._block(b)
        return block[rank & ((1 << BLOCK_BITS) - 1)]

    @property
    def max_distance(self) -> int:
        return len(self.layers) - 1

    def example(self) -> Board:
        """The board at :attr:`max_distance` the header names."""
        return unrank(self.example_rank, self.black_count)

    def _corrupt(self, i: int) -> TableError:
        return _fail(self.path, f"is corrupt (payload checksum mismatch in block {i})")

    def _block(self, i: int) -> bytes | memoryview:
        if self._full is not None:
            return memoryview(self._full)[i << BLOCK_BITS : (i + 1) << BLOCK_BITS]  # type: ignore[arg-type]
        want = min(1 << BLOCK_BITS, self.state_count - (i << BLOCK_BITS))
        data = system.read_at(self._fd, want, self._offset + (i << BLOCK_BITS))
        if len(data) != want:
            raise _fail(self.path, "was truncated while in use")
        if zlib.crc32(data) != self._crcs[i]:
            raise self._corrupt(i)
        return data

    def bytes_at(self, ranks: list[int]) -> list[int]:
        """``payload[r]`` for each rank, reading each block once, in file order; blocks
        read here are not kept (a kept block costs a fresh page, more than reading it)."""
        out = [0] * len(ranks)
        cached, mask = self._blocks, (1 << BLOCK_BITS) - 1
        current = -1
        block: bytes | memoryview = b""
        for j in sorted(range(len(ranks)), key=ranks.__getitem__):
            r = ranks[j]
            if r >> BLOCK_BITS != current:
                current = r >> BLOCK_BITS
                block = cached[current] or self._block(current)
            out[j] = block[r & mask]
        return out

    @property
    def payload(self) -> np.ndarray:
        """The whole payload as a read-only ``uint8`` array, read and checked in full on
        first use (a progress bar if it takes long)."""
        if self._full is None:
            import numpy as np

            from .. import progress

            full = np.empty(self.state_count, dtype=np.uint8)
            view = memoryview(full)  # type: ignore[arg-type]
            with progress.bar(len(full), "B", "reading the distance table", unit_scale=True,
                              unit_divisor=1024) as shown:  # fmt: skip
                for lo in range(0, len(full), _READ_CHUNK):
                    into = view[lo : lo + _READ_CHUNK]
                    if system.read_into(self._fd, into, self._offset + lo) < len(into):
                        raise _fail(self.path, "was truncated while in use")
                    for i, crc in enumerate(block_checksums(into), lo >> BLOCK_BITS):
                        if crc != self._crcs[i]:
                            raise self._corrupt(i)
                    shown.update(len(into))
            full.setflags(write=False)
            self._full = full
        return self._full

    def verify(self) -> None:
        """Read and check the whole payload now (raises :class:`TableError`)."""
        self.payload  # noqa: B018 - reading it checks it

    def values(self, ranks: np.ndarray) -> np.ndarray:
        """``payload[ranks]``, reading and checking only the blocks the ranks fall in when
        they are few; the whole payload when they touch most of it."""
        import numpy as np

        if self._full is not None or len(ranks) > len(self._crcs) // 4:
            return self.payload[ranks]
        return np.array(self.bytes_at(ranks.tolist()), dtype=np.uint8)


def write(
    path: str | os.PathLike[str],
    target: Board,
    payload: np.ndarray,
    layers: list[int],
    unreachable: int,
    example_rank: int,
) -> None:
    """Write a table file atomically (:func:`bitknights.cache.atomic_write`), its proof
    recorded: the breadth-first search that computed it is the proof."""
    import numpy as np

    k = target.black.bit_count()
    count = coords.state_count(k)
    data = np.ascontiguousarray(payload, dtype=np.uint8)
    if data.shape != (count,):
        raise ValueError(f"payload has {data.size} bytes, expected {count}")
    crcs = block_checksums(data)
    fields = _FIELDS.pack(target.key, k, len(layers), count, unreachable, example_rank,
                          BLOCK_BITS) + struct.pack(f"<{len(layers)}Q{len(crcs)}I", *layers,
                                                    *crcs)  # fmt: skip
    header = cache.pack_header(MAGIC, FORMAT_VERSION, fields)
    written = cache.atomic_write(path, [header, data.data], "distance table")
    _loaded.clear()  # the open table may be this file's old version
    cache.record_proof(path, written, f"{zlib.crc32(header):08x}", "distance table")


def _fail(path: str | os.PathLike[str], problem: str) -> TableError:
    return TableError(
        f"distance table {path} {problem}; run `bitknights table build` to rebuild it"
    )


def _parse_header(
    path: str | os.PathLike[str], head: bytes, target: Board | None
) -> tuple[dict, int]:
    """The header's fields and its size; raises :class:`TableError` naming the problem."""
    raw = cache.unpack_header(head, MAGIC, FORMAT_VERSION, lambda p: _fail(path, p))
    size = cache.header_size(head) or 0
    if len(raw) < _FIELDS.size:
        raise _fail(path, "has a corrupt header")
    key, k, nlayers, count, unreachable, example, bits = _FIELDS.unpack_from(raw)
    if bits != BLOCK_BITS or not 0 < nlayers <= _MAX_LAYERS:
        raise _fail(path, "has a corrupt header")
    try:
        file_target = Board.from_key(key)
    except BitknightsError:
        raise _fail(path, "has a corrupt header (bad target)") from None
    if target is not None and file_target != target:
        built, wanted = "/".join(file_target.rows()), "/".join(target.rows())
        raise _fail(path, f"was built for target {built}, not {wanted}")
    if k != file_target.black.bit_count() or count != NUM_SQUARES * comb(NUM_SQUARES - 1, k):
        raise _fail(path, "has a corrupt header (inconsistent counts)")
    if len(raw) != _FIELDS.size + 8 * nlayers + 4 * block_count(count):
        raise _fail(path, "has a corrupt header")
    layers = struct.unpack_from(f"<{nlayers}Q", raw, _FIELDS.size)
    if sum(layers) + unreachable != count or not 0 <= example < count:
        raise _fail(path, "has a corrupt header (inconsistent counts)")
    fields = {
        "target": file_target,
        "black_count": k,
        "state_count": count,
        "layers": tuple(layers),
        "unreachable": unreachable,
        "example_rank": example,
        "crcs": cache.u32_array(raw[_FIELDS.size + 8 * nlayers :]),
        "tag": f"{zlib.crc32(head[:size]):08x}",
    }
    return fields, size


_HEAD_MAX = 16 + _FIELDS.size + 8 * _MAX_LAYERS + 4 * block_count(NUM_SQUARES * comb(24, 12)) + 4


def _open(
    path: str | os.PathLike[str], target: Board | None
) -> tuple[int, dict, int, os.stat_result]:
    """Open and check the header and size: ``(fd, fields, header size, fstat)``."""
    try:
        fd, st = cache.open_cached(os.fspath(path), "distance table", errors=ERRORS)
    except FileNotFoundError:
        raise _missing(path) from None
    try:
        fields, size = _parse_header(path, system.read_at(fd, min(st.st_size, _HEAD_MAX), 0),
                                     target)  # fmt: skip
        expected = size + fields["state_count"]
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
    """Cheap whole-file sanity, run at open (a few blocks, about 50 µs), which a table
    built for another target, relabelled or shifted fails: the target's byte is 0 and its
    neighbours' 1; the layer counts start with 1 and the target's neighbour count, none 0;
    the example board is at the farthest distance.  Raises :class:`TableError`."""
    target, k, layers = table.target, table.black_count, table.layers
    black, blank = target.black, target.blank
    neighbours = [
        (black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black, n)
        for n in KNIGHT_TARGETS[blank]
    ]
    d = table[coords.rank(black, blank, k)]
    if d != 0:
        raise _fail(table.path, f"is inconsistent (it puts its own target {d} moves away)")
    for nb, n in neighbours:
        d = table[coords.rank(nb, n, k)]
        if d != 1:
            raise _fail(
                table.path, f"is inconsistent (it puts a neighbour of its target {d} moves away)"
            )
    if layers[0] != 1 or len(layers) < 2 or layers[1] != len(neighbours) or 0 in layers:
        raise _fail(table.path, "is inconsistent (its layer counts do not fit its target)")
    d, far = table[table.example_rank], table.max_distance
    if d != far:
        raise _fail(
            table.path, f"is inconsistent (its farthest example is {d} moves away, not {far})"
        )


def _prove(table: TableFile, st: os.stat_result, why: str) -> None:
    """Prove ``table`` exact (:mod:`.verify`, and the header's counts against the
    payload's), said on a terminal, and record the verdict; raise :class:`TableError`
    naming the first wrong board when it is not."""
    import time

    import numpy as np

    from .. import estimates, progress
    from .verify import first_inconsistency

    progress.announce(f"proving the distance table {table.path}", why, estimates.TABLE_PROOF)
    t0 = time.perf_counter()
    bad = first_inconsistency(table.payload, table.target)  # reads and checksums it all
    counts, n = np.bincount(table.payload, minlength=256).tolist(), len(table.layers)
    fit = tuple(counts[:n]) == table.layers and not any(counts[n:255])
    verdict = cache.EXACT if fit and counts[255] == table.unreachable else "counts"
    verdict = verdict if bad is None else f"board:{bad}"
    cache.record_proof(table.path, st, table.tag, "distance table", verdict)
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


def changed(path: str | os.PathLike[str]) -> TableError:
    """The error for a proved table whose bytes no longer make sense (changed under us)."""
    return TableError(f"distance table {path} changed while in use; run again")


def _missing(path: str | os.PathLike[str]) -> TableError:
    from .. import estimates

    return MissingTableError(
        f"no distance table at {path}: run `bitknights table build` first "
        f"({estimates.about(estimates.TABLE_BUILD)}; add --target FILE for another target, "
        "--cache-dir DIR elsewhere)"
    )


# path -> (identity, TableFile): a file is opened, checked and its proof looked up once per
# process unless it changes on disk.
_loaded: dict[str, tuple[tuple[int, ...], TableFile]] = {}


def load(
    target: Board, cache_dir: str | os.PathLike[str] | None = None, *, reprove: bool = False
) -> TableFile:
    """The table of ``target``, its header checked, proved exact (once per file identity,
    remembered: :mod:`bitknights.cache`; ``reprove``: now, whatever the record says).
    Raises :class:`TableError` when there is none, it is unusable or not exact."""
    path = file_path(target, cache_dir, ".bkt")
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
    verdict = None if reprove else cache.proof(path, st, table.tag)
    if verdict is None:
        _prove(table, st, "" if reprove else "once: it is new or changed")
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
    path = file_path(target, cache_dir, ".bkt")
    fd, fields, size, st = _open(path, target)
    table = TableFile(path, fd, fields, size)
    _check_sane(table)
    return table, st


def available(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> bool:
    """Whether a usable table of ``target`` is present (as :func:`load` finds it).  A file
    there but unusable is said once per process: ``auto`` then answers by search."""
    try:
        load(target, cache_dir)
    except MissingTableError:
        return False
    except TableError as e:
        cache.warn_once(str(e), "answering by search instead")
        return False
    return True
