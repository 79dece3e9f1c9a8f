"""The table files: one file type (:class:`TableFile`) in two encodings, the distance
table (:class:`ByteTable`, ``.bkt``: one byte a board) and the compact table
(:class:`~bitknights.table.compact.CompactTable`, ``.bk3``: the distance modulo 3, two bits
a board), with one header, block reader, proof hook and walk.  Pure
Python: numpy is imported only to hand the payload to numpy code (:mod:`.probe`).

File layout (little-endian), one file per target and encoding in the cache directory::

    header           cache.pack_header(MAGIC, FORMAT_VERSION, fields)
      target key     u64      Board.key of the target (black | blank << 25)
      black knights  u32      k: the table covers the 25 * C(24, k) boards with k black
      layer count    u32      n = farthest distance + 1
      state count    u64      25 * C(24, k)
      unreachable    u64      boards that cannot reach the target
      example rank   u64      one board at the farthest distance (the distance table only)
      block bits     u32      the payload is checked in blocks of 2**bits bytes
      layers         n * u64  boards at distance 0, 1, ..., n - 1 (the distance table only)
      block CRCs     u32 each CRC-32 of each payload block, in order
    payload          the distance table: byte r, the exact distance of the board of rank r
                     (:func:`~bitknights.coords.rank`), or 255 if it cannot reach; the
                     compact table: bits 2 * (r % 4) of byte r // 4, the distance mod 3,
                     or 3 for a board that never reaches the target

Opening checks the header (magic, version, checksum, target, counts, size, kind, who may
write it) and the encoding's cheap checks; :meth:`TableFile.load` proves the file exact
once per file identity.  A payload block is checked against its CRC-32 when a read first
touches it.  The file is read, not mapped: another process truncating it is an error,
never a crash.
"""

from __future__ import annotations

import os
import struct
import zlib

from .. import cache, coords, system
from ..board import Board
from ..errors import BitknightsError
from ..squares import KNIGHT_TARGETS, NUM_SQUARES

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from pathlib import Path
    from typing import ClassVar, TypeVar

    import numpy as np

    _T = TypeVar("_T", bound="TableFile")

MAGIC = b"BKNTABLE"
FORMAT_VERSION = 5
CACHE_ENV = cache.CACHE_ENV
BLOCK_BITS = 12
"""Payload blocks of 4 KiB, each checked on first use (both tables)."""
RANKER_FROM = 64  # ranks this many at a time with coords.ranker (2 ms once, then a fifth)

_FIELDS = struct.Struct("<QIIQQQI")  # target, k, layer count, states, unreachable, example, bits
_MAX_LAYERS = 256
_READ_CHUNK = 1 << 22  # bytes read (and checked) at a time: a multiple of the block size


class TableError(cache.CacheError):
    """The distance table a request needs is missing or unusable."""


class UntrustedTableError(TableError, cache.UntrustedError):
    """The distance table, or its directory, could have been written by someone else."""


class MissingTableError(TableError):
    """There is no table file for the target (nothing to report to ``auto``)."""


def default_cache_dir() -> Path:
    """The directory tables live in without a ``cache_dir`` (:mod:`bitknights.cache`)."""
    from pathlib import Path

    return Path(cache.cache_directory())


def table_path(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> Path:
    """Where the distance table of ``target`` lives.

    >>> from bitknights.board import TARGET
    >>> table_path(TARGET, "/c").as_posix()
    '/c/distances-11111-01111-00x11-00001-00000.bkt'
    """
    from pathlib import Path

    return Path(ByteTable.path_of(target, cache_dir))


def block_count(size: int) -> int:
    """Blocks that hold ``size`` bytes."""
    return -(-size // (1 << BLOCK_BITS))


def block_checksums(payload: bytes | memoryview | np.ndarray) -> list[int]:
    """CRC-32 of each block of the payload, as stored in the header."""
    view = memoryview(payload).cast("B")  # type: ignore[arg-type]
    step = 1 << BLOCK_BITS
    return [zlib.crc32(view[i : i + step]) for i in range(0, len(view), step)]


def unrank(rank: int, black_count: int) -> Board:
    """The board of ``rank`` among boards with ``black_count`` black knights."""
    return Board.from_key(coords.pack(*coords.unrank(rank, black_count)))


def valid(black: int, blank: int, k: int) -> bool:
    """A board of the table: the blank on the board, not under a knight, ``k`` black
    knights (no other board reaches the target)."""
    return 0 <= blank < NUM_SQUARES and not black >> blank & 1 and black.bit_count() == k


class TableFile:
    """An open table file of either encoding: header fields (checked), and the payload,
    read and checked block by block as lookups touch it (``table[i]``: payload byte ``i``)
    or all at once (:attr:`payload`); a bad block raises :class:`TableError`.  A table
    built in this process and not written holds its payload in memory (``full``)."""

    WHAT: ClassVar[str]  # the file's name in messages
    SUFFIX: ClassVar[str]
    MAGIC: ClassVar[bytes]
    FORMAT_VERSION: ClassVar[int]
    FIELDS: ClassVar[struct.Struct]
    BOARDS_PER_BYTE: ClassVar[int]
    MODULUS: ClassVar[int]  # a code is the distance modulo this
    LOST: ClassVar[int]  # the code of a board that never reaches the target
    FIX: ClassVar[str]  # how to get a good file, ending each error
    CHANGED: ClassVar[str]  # what a proved file whose bytes no longer make sense is

    def __init__(self, path: str, fields: dict, fd: int | None = None, offset: int = 0,
                 full: bytes | None = None) -> None:  # fmt: skip
        self.path = path
        self.target: Board = fields["target"]
        self.black_count: int = fields["black_count"]
        self.state_count: int = fields["state_count"]
        self.max_distance: int = fields["layer_count"] - 1
        self.unreachable: int = fields["unreachable"]
        self.tag: str = fields.get("tag", "")  # the header's checksum: names the proof
        self.layers: tuple[int, ...] | None = fields.get("layers")  # boards at each distance
        self._fd, self._offset = fd, offset
        self._full: np.ndarray | None = None
        self.size = -(-self.state_count // self.BOARDS_PER_BYTE)  # the payload's bytes
        if full is not None:
            import numpy as np

            self._full = np.frombuffer(full, dtype=np.uint8)
        self._crcs: Sequence[int] = fields.get("crcs") or [0] * block_count(self.size)
        self._blocks: list[bytes | memoryview | None] = [None] * len(self._crcs)
        self._ranker: Callable[[int, int], int] | None = None

    def __del__(self) -> None:
        try:  # noqa: SIM105 - at exit the modules (contextlib) may be gone
            os.close(self._fd)  # type: ignore[arg-type]
        except (OSError, TypeError, AttributeError):
            pass

    def __getitem__(self, i: int) -> int:
        """The payload's byte ``i``, its block read and checked on first use."""
        b = i >> BLOCK_BITS
        block = self._blocks[b]
        if block is None:
            block = self._blocks[b] = self._block(b)
        return block[i & ((1 << BLOCK_BITS) - 1)]

    def _block(self, i: int) -> bytes | memoryview:
        if self._full is not None:
            return memoryview(self._full)[i << BLOCK_BITS : (i + 1) << BLOCK_BITS]  # type: ignore[arg-type]
        want = min(1 << BLOCK_BITS, self.size - (i << BLOCK_BITS))
        assert self._fd is not None
        data = system.read_at(self._fd, want, self._offset + (i << BLOCK_BITS))
        if len(data) != want or zlib.crc32(data) != self._crcs[i]:
            self._check(data, want, i)  # raises, naming the problem
        return data

    def _check(self, data: bytes | memoryview, want: int, first: int) -> None:
        """Raise :class:`TableError` unless ``data`` (``want`` bytes read from block
        ``first`` on) is whole and matches its blocks' checksums."""
        if len(data) < want:
            raise self.fail("was truncated while in use")
        for i, crc in enumerate(block_checksums(data), first):
            if crc != self._crcs[i]:
                raise self.fail(f"is corrupt (payload checksum mismatch in block {i})")

    def bytes_at(self, at: list[int]) -> list[int]:
        """``payload[i]`` for each ``i``, reading each block once, in file order; blocks
        read here are not kept (a kept block costs a fresh page, more than reading it)."""
        out = [0] * len(at)
        cached, mask = self._blocks, (1 << BLOCK_BITS) - 1
        current = -1
        block: bytes | memoryview = b""
        for j in sorted(range(len(at)), key=at.__getitem__):
            r = at[j]
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

            full = np.empty(self.size, dtype=np.uint8)
            view = memoryview(full)  # type: ignore[arg-type]
            with progress.bar(len(full), "B", f"reading the {self.WHAT}", unit_scale=True,
                              unit_divisor=1024) as shown:  # fmt: skip
                for lo in range(0, len(full), _READ_CHUNK):
                    into = view[lo : lo + _READ_CHUNK]
                    got = system.read_into(self._fd, into, self._offset + lo)  # type: ignore[arg-type]
                    self._check(into[:got], len(into), lo >> BLOCK_BITS)
                    shown.update(len(into))
            full.setflags(write=False)
            self._full = full
        return self._full

    def verify(self: _T) -> _T:
        """Read and check the whole payload now (raises :class:`TableError`); the table."""
        self.payload  # noqa: B018 - reading it checks it
        return self

    def code(self, r: int) -> int:
        """The code of the board of rank ``r``: its distance modulo :attr:`MODULUS`, or
        :attr:`LOST`."""
        return self[r]

    def rank_of(self, boards: int) -> Callable[[int, int], int]:
        """A ranking function for ``boards`` boards: the fast one once it pays."""
        if self._ranker is None and boards >= RANKER_FROM:
            self._ranker = coords.ranker(self.black_count)
        k = self.black_count
        return self._ranker or (lambda black, blank: coords.rank(black, blank, k))

    def limit(self, cap: int | None) -> int:
        """``cap`` within ``0..max_distance`` (``None``: the farthest)."""
        return self.max_distance if cap is None else max(0, min(int(cap), self.max_distance))

    def walk_plain(
        self, black: int, blank: int, cap: int | None = None
    ) -> tuple[int, list[int], int]:
        """``(steps, blank squares along one optimal path, probes)`` for the board, in
        plain Python: ``steps`` is its exact distance, or ``UNREACHABLE``, or
        ``OVER_LIMIT`` beyond ``cap`` moves (the path then empty).  Each step goes to the
        first neighbour in knight-move order one nearer (code ``(c - 1) mod MODULUS``); a
        walk that finds none, or passes the farthest distance, raises :meth:`inconsistent`."""
        from ..results import OVER_LIMIT, UNREACHABLE

        if not valid(black, blank, self.black_count):
            return UNREACHABLE, [], 0
        code, target, limit = self.code, self.target, self.limit(cap)
        exact = self.max_distance < self.MODULUS  # the code is the distance
        rank_of = self.rank_of(1 if exact else RANKER_FROM)
        c = code(rank_of(black, blank))
        if c == self.LOST:
            return UNREACHABLE, [], 1
        if exact and c > limit:
            return OVER_LIMIT, [], 1
        blanks, probes = [blank], 1
        while black != target.black or blank != target.blank:
            if len(blanks) > limit:
                if limit < self.max_distance:
                    return OVER_LIMIT, [], probes
                raise self.inconsistent()
            c = (c - 1) % self.MODULUS
            for n in KNIGHT_TARGETS[blank]:
                nb = black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black
                probes += 1
                if code(rank_of(nb, n)) == c:
                    black, blank = nb, n
                    blanks.append(n)
                    break
            else:
                raise self.inconsistent()
        return len(blanks) - 1, blanks, probes

    def _check_open(self) -> None:
        """The encoding's cheap checks at open (raises :class:`TableError`)."""

    def _prove(self: _T, st: os.stat_result, why: str) -> _T:
        """Prove the file exact and record the verdict (``why``: said with the
        announcement); return the table to use or raise :class:`TableError`."""
        raise NotImplementedError

    def _refuse(self: _T, verdict: str) -> _T:
        """The table for a recorded ``verdict`` (:data:`cache.EXACT`), else raise."""
        if verdict != cache.EXACT:
            raise self.fail(f"is not exact ({self._problem(verdict)}a damaged or rewritten file)")
        return self

    def _problem(self, verdict: str) -> str:
        """What a failed ``verdict`` found, said before "a damaged or rewritten file"."""
        return ""

    @classmethod
    def _extra(cls, raw: bytes, fields: dict, path: str) -> int:
        """Read the encoding's header fields after the common ones into ``fields``;
        return where the block checksums start."""
        return cls.FIELDS.size

    @classmethod
    def fail_at(cls, path: str | os.PathLike[str], problem: str) -> TableError:
        return TableError(f"{cls.WHAT} {path} {problem}; {cls.FIX}")

    def fail(self, problem: str) -> TableError:
        return self.fail_at(self.path, problem)

    def inconsistent(self) -> TableError:
        """The error for a proved table whose bytes no longer make sense."""
        return TableError(f"{self.WHAT} {self.path} {self.CHANGED}")

    @classmethod
    def missing(cls, path: str | os.PathLike[str]) -> MissingTableError:
        return MissingTableError(f"no {cls.WHAT} at {path}")

    @classmethod
    def path_of(cls, target: Board, cache_dir: str | os.PathLike[str] | None = None) -> str:
        """Where the file of ``target`` lives (a string).

        >>> from bitknights.board import TARGET
        >>> from bitknights.table.compact import CompactTable
        >>> CompactTable.path_of(TARGET, "/c")
        '/c/distances-11111-01111-00x11-00001-00000.bk3'
        """
        name = "-".join(target.rows()).replace("*", "x")
        return os.path.join(cache.cache_directory(cache_dir), f"distances-{name}{cls.SUFFIX}")

    @classmethod
    def parse_header(cls, path: str | os.PathLike[str], head: bytes,
                     target: Board) -> tuple[dict, int]:  # fmt: skip
        """The header's fields and its size; raises :class:`TableError` naming the problem."""
        raw = cache.unpack_header(head, cls.MAGIC, cls.FORMAT_VERSION,
                                  lambda p: cls.fail_at(path, p))  # fmt: skip
        size = cache.header_size(head) or 0
        if len(raw) < cls.FIELDS.size:
            raise cls.fail_at(path, "has a corrupt header")
        key, k, nlayers, count, unreachable, *_, bits = cls.FIELDS.unpack_from(raw)
        if bits != BLOCK_BITS or not 0 < nlayers <= _MAX_LAYERS:
            raise cls.fail_at(path, "has a corrupt header")
        try:
            file_target = Board.from_key(key)
        except BitknightsError:
            raise cls.fail_at(path, "has a corrupt header (bad target)") from None
        if file_target != target:
            built, wanted = "/".join(file_target.rows()), "/".join(target.rows())
            raise cls.fail_at(path, f"was built for target {built}, not {wanted}")
        if k != file_target.black.bit_count() or count != coords.state_count(k):
            raise cls.fail_at(path, "has a corrupt header (inconsistent counts)")
        fields = {"target": file_target, "black_count": k, "state_count": count,
                  "layer_count": nlayers, "unreachable": unreachable,
                  "tag": f"{zlib.crc32(head[:size]):08x}"}  # fmt: skip
        crcs_at = cls._extra(raw, fields, os.fspath(path))
        if len(raw) != crcs_at + 4 * block_count(-(-count // cls.BOARDS_PER_BYTE)):
            raise cls.fail_at(path, "has a corrupt header")
        fields["crcs"] = cache.u32_array(raw[crcs_at:])
        return fields, size

    @classmethod
    def open_unproved(
        cls: type[_T], target: Board, cache_dir: str | os.PathLike[str] | None = None
    ) -> tuple[_T, os.stat_result]:
        """The file of ``target`` and its ``fstat``, checked as far as its header and
        :meth:`_check_open` go, *not proved*: what :meth:`load` proves (and tests forge)."""
        path = cls.path_of(target, cache_dir)
        try:
            fd, st = cache.open_cached(path, cls.WHAT, errors=(TableError, UntrustedTableError))
        except FileNotFoundError:
            raise cls.missing(path) from None
        try:
            head = system.read_at(fd, min(st.st_size, _HEAD_MAX), 0)
            fields, size = cls.parse_header(path, head, target)
            expected = size + -(-fields["state_count"] // cls.BOARDS_PER_BYTE)
            if st.st_size != expected:
                what = "is truncated" if st.st_size < expected else "is too long"
                raise cls.fail_at(path, f"{what} ({st.st_size} bytes, expected {expected})")
        except OSError as e:
            os.close(fd)
            raise TableError(f"cannot read {cls.WHAT} {path}: {e.strerror or e}") from None
        except BaseException:
            os.close(fd)
            raise
        table = cls(path, fields, fd, size)
        table._check_open()
        return table, st

    @classmethod
    def load(
        cls: type[_T], target: Board, cache_dir: str | os.PathLike[str] | None = None, *,
        reprove: bool = False,
    ) -> _T:  # fmt: skip
        """The table of ``target``, its header checked, proved exact once per file identity
        (``reprove``: now, whatever the record says).  Raises :class:`MissingTableError`
        when there is none, :class:`TableError` when it is unusable or not exact."""
        path = cls.path_of(target, cache_dir)
        try:
            st = os.stat(path)
        except FileNotFoundError:
            raise cls.missing(path) from None
        except OSError as e:
            raise TableError(f"cannot read {cls.WHAT} {path}: {e.strerror or e}") from None
        stamp = (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)
        hit = _loaded.get(path)
        if hit is not None and hit[0] == stamp and not reprove and isinstance(hit[1], cls):
            return hit[1]
        table, st = cls.open_unproved(target, cache_dir)
        verdict = None if reprove else cache.proof(path, st, table.tag)
        if verdict is None:
            table = table._prove(st, "" if reprove else "once: it is new or changed")
        else:
            table = table._refuse(verdict)
        forget(cls)  # keep at most one table of each encoding alive through this cache
        _loaded[path] = (stamp, table)
        return table

    @classmethod
    def available(
        cls, target: Board, cache_dir: str | os.PathLike[str] | None = None, *, prove: bool = True
    ) -> bool:
        """Whether a usable table of ``target`` is present, as :meth:`load` finds it (not
        ``prove``: as :meth:`open_unproved` does).  A file there but unusable is said once
        per process: ``auto`` then answers by search."""
        try:
            (cls.load if prove else cls.open_unproved)(target, cache_dir)
        except MissingTableError:
            return False
        except TableError as e:
            cache.warn_once(str(e), "answering by search instead")
            return False
        return True

    @classmethod
    def _write(
        cls,
        path: str | os.PathLike[str],
        target: Board,
        layer_count: int,
        unreachable: int,
        payload: bytes | memoryview,
        extra: tuple[int, ...] = (),
        tail: bytes = b"",
    ) -> None:
        """Write the file of ``target`` atomically (the encoding's header fields: ``extra``
        before the block bits, ``tail`` after them), its proof recorded: the breadth-first
        search that computed it is the proof."""
        k = target.black.bit_count()
        count = coords.state_count(k)
        fields = cls.FIELDS.pack(target.key, k, layer_count, count, unreachable, *extra, BLOCK_BITS)
        fields += tail + cache.u32_bytes(block_checksums(payload))
        header = cache.pack_header(cls.MAGIC, cls.FORMAT_VERSION, fields)
        written = cache.atomic_write(path, [header, payload], cls.WHAT)
        forget(cls)  # the open table may be this file's old version
        cache.record_proof(path, written, f"{zlib.crc32(header):08x}", cls.WHAT)


# path -> (identity, table): a file is opened, checked and its proof looked up once per
# process unless it changes on disk.
_loaded: dict[str, tuple[tuple[int, ...], TableFile]] = {}


def forget(kind: type[TableFile] | None = None) -> None:
    """Forget the loaded tables (of encoding ``kind``)."""
    for path, (_, table) in list(_loaded.items()):
        if kind is None or isinstance(table, kind):
            del _loaded[path]


class ByteTable(TableFile):
    """The distance table: one byte a board, its exact distance (255: never reaches)."""

    WHAT = "distance table"
    SUFFIX = ".bkt"
    MAGIC = MAGIC
    FORMAT_VERSION = FORMAT_VERSION
    FIELDS = _FIELDS
    BOARDS_PER_BYTE = 1
    MODULUS = 256
    LOST = 255
    FIX = "run `bitknights table build` to rebuild it"
    CHANGED = "changed while in use; run again"

    def __init__(self, path: str, fields: dict, fd: int | None = None, offset: int = 0,
                 full: bytes | None = None) -> None:  # fmt: skip
        super().__init__(path, fields, fd, offset, full)
        self.layers: tuple[int, ...] = fields["layers"]
        self.example_rank: int = fields["example_rank"]

    def example(self) -> Board:
        """The board at :attr:`max_distance` the header names."""
        return unrank(self.example_rank, self.black_count)

    def values(self, ranks: np.ndarray) -> np.ndarray:
        """``payload[ranks]``, reading and checking only the blocks the ranks fall in when
        they are few; the whole payload when they touch most of it."""
        import numpy as np

        if self._full is not None or len(ranks) > len(self._crcs) // 4:
            return self.payload[ranks]
        return np.array(self.bytes_at(ranks.tolist()), dtype=np.uint8)

    @classmethod
    def _extra(cls, raw: bytes, fields: dict, path: str) -> int:
        nlayers, count = fields["layer_count"], fields["state_count"]
        example = cls.FIELDS.unpack_from(raw)[5]
        if len(raw) < cls.FIELDS.size + 8 * nlayers:
            raise cls.fail_at(path, "has a corrupt header")
        layers = struct.unpack_from(f"<{nlayers}Q", raw, cls.FIELDS.size)
        if sum(layers) + fields["unreachable"] != count or not 0 <= example < count:
            raise cls.fail_at(path, "has a corrupt header (inconsistent counts)")
        fields.update(layers=tuple(layers), example_rank=example)
        return cls.FIELDS.size + 8 * nlayers

    @classmethod
    def missing(cls, path: str | os.PathLike[str]) -> MissingTableError:
        from .. import estimates

        return MissingTableError(
            f"no distance table at {path}: run `bitknights table build` first "
            f"({estimates.about(estimates.TABLE_BUILD)}; add --target FILE for another "
            "target, --cache-dir DIR elsewhere)"
        )

    def _check_open(self) -> None:
        """Cheap sanity (a few blocks, about 50 µs) that a table built for another target,
        relabelled or shifted fails: the target at 0, its neighbours at 1, the layer counts
        fitting them, the example at the farthest distance."""
        target, k, layers = self.target, self.black_count, self.layers
        neighbours = [child for _, child in target.children()]
        d = self[coords.rank(target.black, target.blank, k)]
        if d != 0:
            raise self.fail(f"is inconsistent (it puts its own target {d} moves away)")
        for child in neighbours:
            d = self[coords.rank(child.black, child.blank, k)]
            if d != 1:
                raise self.fail(
                    f"is inconsistent (it puts a neighbour of its target {d} moves away)"
                )
        if layers[0] != 1 or len(layers) < 2 or layers[1] != len(neighbours) or 0 in layers:
            raise self.fail("is inconsistent (its layer counts do not fit its target)")
        d, far = self[self.example_rank], self.max_distance
        if d != far:
            raise self.fail(f"is inconsistent (its farthest example is {d} moves away, not {far})")

    def _prove(self, st: os.stat_result, why: str) -> ByteTable:
        """Prove it by :mod:`.verify` and the header's counts against the payload's."""
        import time

        import numpy as np

        from .. import estimates, progress
        from .verify import first_inconsistency

        progress.announce(f"proving the distance table {self.path}", why, estimates.TABLE_PROOF)
        t0 = time.perf_counter()
        bad = first_inconsistency(self.payload, self.target)  # reads and checksums it all
        counts, n = np.bincount(self.payload, minlength=256).tolist(), len(self.layers)
        fit = tuple(counts[:n]) == self.layers and not any(counts[n:255])
        verdict = cache.EXACT if fit and counts[255] == self.unreachable else "counts"
        verdict = verdict if bad is None else f"board:{bad}"
        cache.record_proof(self.path, st, self.tag, self.WHAT, verdict)
        self._refuse(verdict)
        progress.announce(f"proved: every distance exact ({time.perf_counter() - t0:.1f} s)")
        return self

    def _problem(self, verdict: str) -> str:
        if verdict.startswith("board:") and verdict[6:].isdigit():
            board = unrank(int(verdict[6:]), self.black_count)
            return f"board {board.compact} breaks the distance rules: "
        return "its header's layer counts do not match its distances: "

    @classmethod
    def write(cls, path: str | os.PathLike[str], target: Board, payload: np.ndarray,
              layers: list[int], unreachable: int, example_rank: int) -> None:  # fmt: skip
        """Write a distance table file atomically, its proof recorded."""
        import numpy as np

        count = coords.state_count(target.black.bit_count())
        data = np.ascontiguousarray(payload, dtype=np.uint8)
        if data.shape != (count,):
            raise ValueError(f"payload has {data.size} bytes, expected {count}")
        tail = struct.pack(f"<{len(layers)}Q", *layers)
        cls._write(path, target, len(layers), unreachable, data.data, (example_rank,), tail)


_HEAD_MAX = 16 + _FIELDS.size + 8 * _MAX_LAYERS + 4 * block_count(coords.state_count(12)) + 4

load = ByteTable.load
open_unproved = ByteTable.open_unproved
available = ByteTable.available
