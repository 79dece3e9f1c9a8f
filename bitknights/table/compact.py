"""The compact distance table: every board's distance modulo 3, two bits a board.

The distance table (:mod:`.store`) spends a byte a board: 68 MB for the classic target.
Exact answers need less.  Two neighbouring boards are exactly one move apart in distance
(the state graph is bipartite), so from a board at distance ``d`` the neighbours at
``d - 1`` are exactly those whose distance modulo 3 is ``(d - 1) mod 3``: walking down,
one such neighbour at a time, reaches the target in exactly ``d`` moves.  Two bits a board
(17 MB for the classic target) therefore answer every exact question a walk can: a
board's distance (a walk of a few hundred probes, about 0.2 ms in plain Python), an
optimal path (the walk itself), hints.

The search engines need it for boards far from the target, where IDA* can take seconds to
minutes and the bidirectional search grows its target side for seconds in every process:
:class:`~bitknights.service.DistanceService` builds it the first time an exact request
without the distance table meets such a board (the same breadth-first search as
``bitknights table build``, about 3 s, announced), keeps it in the cache directory like
the pattern databases, and answers from it from then on, in microseconds.

Every answer is confirmed as the distance table's are (:mod:`.probe`): the board's code
against its neighbours' (all one nearer or one farther, one nearer unless it is the
target), and the walk itself, which must reach the target within the farthest distance
the header gives.  A walk is a path, so an answer is never too small.

File layout (little-endian), through :mod:`bitknights.cache` (checked header, atomic
writes, the trust rule)::

    header           cache.pack_header(MAGIC, FORMAT_VERSION, fields)
      target key     u64
      black knights  u32
      layer count    u32      n = farthest distance + 1
      state count    u64      25 * C(24, k)
      unreachable    u64
      block bits     u32
      block CRCs     u32 each (CRC-32 of each payload block)
    payload          code of rank r in bits 2 * (r % 4) of byte r // 4: distance mod 3,
                     or 3 for a board that never reaches the target
"""

from __future__ import annotations

import os
import struct
import zlib
from math import comb

from .. import cache
from ..coords import KEY_SHIFT, ranker
from ..results import UNREACHABLE
from ..squares import FULL_MASK, KNIGHT_TARGETS, NUM_SQUARES
from .store import TableError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterable, Sequence

    import numpy as np

    from ..board import Board

MAGIC = b"BKNMOD3T"
FORMAT_VERSION = 1
BLOCK_BITS = 12
LOST = 3
"""The code of a board that never reaches the target."""
BUILD_SECONDS = 4
_FIELDS = struct.Struct("<QIIQQI")  # target, k, layers, states, unreachable, block bits


def path_of(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> str:
    """Where the compact table of ``target`` lives (beside the distance table).

    >>> from bitknights.board import TARGET
    >>> path_of(TARGET, "/c")
    '/c/distances-11111-01111-00x11-00001-00000.bk3'
    """
    name = "-".join(target.rows()).replace("*", "x")
    return os.path.join(cache.cache_directory(cache_dir), f"distances-{name}.bk3")


class CompactTable:
    """A compact table in memory: ``code(black, blank)`` reads a board's code, checking
    the payload block it lies in against its checksum the first time (``crcs``; ``None``:
    a table built here, nothing to check); :meth:`walk` answers with a confirmed exact
    distance and path."""

    def __init__(
        self,
        path: str,
        target: Board,
        layers: int,
        unreachable: int,
        payload: bytes | memoryview,
        crcs: Sequence[int] | None = None,
    ) -> None:
        self.path = path
        self.target = target
        self.black_count = target.black.bit_count()
        self.max_distance = layers - 1
        self.unreachable = unreachable
        self._payload = payload
        self._crcs = crcs
        self._checked = bytearray(b"\1" if crcs is None else b"\0") * _blocks(len(payload))
        self._rank: Callable[[int, int], int] = ranker(self.black_count)

    def code(self, black: int, blank: int) -> int:
        r = self._rank(black, blank)
        at = r >> 2
        if not self._checked[at >> BLOCK_BITS]:
            self._check(at >> BLOCK_BITS)
        return (self._payload[at] >> ((r & 3) << 1)) & 3

    def _check(self, block: int) -> None:
        assert self._crcs is not None
        lo = block << BLOCK_BITS
        if zlib.crc32(self._payload[lo : lo + (1 << BLOCK_BITS)]) != self._crcs[block]:
            raise _fail(self.path, f"is corrupt (payload checksum mismatch in block {block})")
        self._checked[block] = 1

    def walk(self, black: int, blank: int) -> tuple[int, list[int], int]:
        """``(distance, blank squares along one optimal path, probes)`` of the board
        (black mask, blank square) with the target's knight counts; the result code
        ``UNREACHABLE`` (:mod:`bitknights.results`) when it never reaches the target.
        Raises :class:`TableError` when the codes disagree with each other (a damaged or
        forged file)."""
        code = self.code
        c = code(black, blank)
        probes = 1
        target = self.target
        if c == LOST:
            if not self.unreachable:
                raise inconsistent(self.path)
            for n in KNIGHT_TARGETS[blank]:
                nb = black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black
                probes += 1
                if code(nb, n) != LOST:
                    raise inconsistent(self.path)
            return UNREACHABLE, [], probes
        nearer_code, farther_code = (c + 2) % 3, (c + 1) % 3
        at_target = black == target.black and blank == target.blank
        nearer = at_target
        if at_target and c != 0:
            raise inconsistent(self.path)
        for n in KNIGHT_TARGETS[blank]:  # the board's own code against its neighbours'
            nb = black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black
            e = code(nb, n)
            probes += 1
            if e == nearer_code:
                nearer = True
            elif e != farther_code:
                raise inconsistent(self.path)
        if not nearer:
            raise inconsistent(self.path)
        blanks = [blank]
        while not (black == target.black and blank == target.blank):
            if len(blanks) > self.max_distance:
                raise inconsistent(self.path)  # a walk longer than the farthest board
            want = (c + 2) % 3
            for n in KNIGHT_TARGETS[blank]:
                nb = black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black
                probes += 1
                if code(nb, n) == want:
                    black, blank, c = nb, n, want
                    blanks.append(n)
                    break
            else:
                raise inconsistent(self.path)
        if c != 0:
            raise inconsistent(self.path)
        return len(blanks) - 1, blanks, probes

    def distances(self, keys: Iterable[int], limit: int) -> list[int]:
        """The exact distance of each board (packed keys), ``-1`` beyond ``limit`` or when
        it never reaches the target (other knight counts included); each walked."""
        out = []
        k = self.black_count
        for key in keys:
            black, blank = int(key) & FULL_MASK, int(key) >> KEY_SHIFT
            if blank >= NUM_SQUARES or black >> blank & 1 or black.bit_count() != k:
                out.append(-1)
                continue
            d = self.walk(black, blank)[0]
            out.append(d if 0 <= d <= limit else -1)
        return out


def inconsistent(path: str) -> TableError:
    return TableError(
        f"compact distance table {path} is inconsistent (a damaged or forged file); "
        "remove it and it is rebuilt on next use"
    )


def _fail(path: str, problem: str) -> TableError:
    return TableError(f"compact distance table {path} {problem}; remove it and it is rebuilt")


def _states(k: int) -> int:
    return NUM_SQUARES * comb(NUM_SQUARES - 1, k)


def _payload_size(states: int) -> int:
    return -(-states // 4)


def _blocks(size: int) -> int:
    return -(-size // (1 << BLOCK_BITS))


def _block_crcs(payload: bytes | memoryview) -> list[int]:
    view = memoryview(payload)
    step = 1 << BLOCK_BITS
    return [zlib.crc32(view[i : i + step]) for i in range(0, len(view), step)]


def _sizes(target: Board) -> tuple[int, int, int]:
    """``(state count, block count, header size)`` of the compact table of ``target``."""
    states = _states(target.black.bit_count())
    nblocks = -(-_payload_size(states) // (1 << BLOCK_BITS))
    return states, nblocks, 16 + _FIELDS.size + 4 * nblocks + 4


def _open(target: Board, path: str) -> tuple[int, os.stat_result, int]:
    """``(fd, fstat, header size)`` of the file at ``path``, opened as the cache layer
    opens files (regular, trusted, the right size)."""
    states, _, head_size = _sizes(target)
    try:
        fd, st = cache.open_cached(
            path, "compact distance table", sizes=[head_size + _payload_size(states)]
        )
    except cache.UntrustedError:
        raise
    except cache.CacheError as e:
        raise TableError(str(e)) from None
    return fd, st, head_size


def _fields(target: Board, path: str, head: bytes) -> tuple[int, int, bytes]:
    """``(layer count, unreachable, block CRCs)`` of a checked header."""
    states, nblocks, head_size = _sizes(target)
    fields = cache.unpack_header(head[:head_size], MAGIC, FORMAT_VERSION,
                                 lambda p: _fail(path, p))  # fmt: skip
    if len(fields) != _FIELDS.size + 4 * nblocks:
        raise _fail(path, "has a header that does not fit this target")
    key, k, layers, got_states, unreachable, bits = _FIELDS.unpack_from(fields)
    if (key, k, got_states, bits) != (target.key, target.black.bit_count(), states, BLOCK_BITS):
        raise _fail(path, "has a header that does not fit this target")
    if not 0 < layers <= 256:
        raise _fail(path, "has a corrupt header")
    return layers, unreachable, fields[_FIELDS.size :]


def check_header(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> None:
    """Check the compact table file of ``target`` as far as its header (kind, trust,
    size, header checksum, fields): what ``auto`` looks at before choosing it.  Raises as
    :func:`load` does."""
    path = path_of(target, cache_dir)
    fd, _, head_size = _open(target, path)
    try:
        _fields(target, path, cache.read_at(fd, head_size, 0))
    except OSError as e:
        raise TableError(f"cannot read compact distance table {path}: {e.strerror or e}") from None
    finally:
        os.close(fd)


def load(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> CompactTable:
    """The compact table of ``target`` from the cache directory, read whole and checked:
    a regular file that this user may trust (:mod:`bitknights.cache`), of the right size,
    its header matching its checksum, and proved: a file not proved before in this
    identity is compared with a fresh build (:func:`_prove`, announced), and one that
    differs is replaced by that build (said once).  Each payload block is checked against
    its checksum the first time a read touches it.  Raises ``FileNotFoundError`` when
    there is none, :class:`TableError` (:class:`~bitknights.cache.UntrustedError` for the
    trust rule) naming the problem otherwise."""
    path = path_of(target, cache_dir)
    fd, st, head_size = _open(target, path)
    try:
        data = cache.read_at(fd, head_size + _payload_size(_sizes(target)[0]), 0)
    except OSError as e:
        raise TableError(f"cannot read compact distance table {path}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    layers, unreachable, crcs = _fields(target, path, data)
    tag = f"{zlib.crc32(data[:head_size]):08x}"
    if cache.proof(path, st, tag) != cache.EXACT:
        return _prove(target, cache_dir, data[head_size:], layers, unreachable, st, tag)
    return CompactTable(path, target, layers, unreachable, memoryview(data)[head_size:],
                        cache.u32_array(crcs))  # fmt: skip


def _prove(
    target: Board,
    cache_dir: str | os.PathLike[str] | None,
    payload: bytes,
    layers: int,
    unreachable: int,
    st: os.stat_result,
    tag: str,
) -> CompactTable:
    """Compare a compact table read from a file not proved before (``payload`` and the
    header's ``layers`` and ``unreachable``) with a fresh build: the file's table when they
    agree (its proof recorded), else the fresh one, written over the file (said once)."""
    import time

    from .. import progress

    path = path_of(target, cache_dir)
    progress.announce(f"proving the compact distance table {path}",
                      "once: it is new or changed; by building it afresh",
                      BUILD_SECONDS)  # fmt: skip
    t0 = time.perf_counter()
    fresh, fresh_layers, fresh_unreachable = _fresh(target)
    if (fresh, fresh_layers, fresh_unreachable) == (payload, layers, unreachable):
        progress.announce(f"proved: every code exact ({time.perf_counter() - t0:.1f} s)")
        cache.record_proof(path, st, tag, "compact distance table")
        return CompactTable(path, target, layers, unreachable, payload)
    cache.warn_once(f"compact distance table {path} is not exact (a damaged or rewritten "
                    "file)", "replacing it with a fresh build")  # fmt: skip
    return _save(target, cache_dir, fresh, fresh_layers, fresh_unreachable, quiet=None)


def pack(dist: np.ndarray) -> np.ndarray:
    """Two-bit codes of a byte table (``dist`` indexed by rank; :data:`UNSEEN` for boards
    that never reach the target), four a byte.

    >>> import numpy as np
    >>> pack(np.array([0, 1, 2, 3, 255, 4], dtype=np.uint8)).tolist()
    [36, 7]
    """
    import numpy as np

    from ..results import UNSEEN

    codes = np.where(dist == UNSEEN, LOST, dist % 3).astype(np.uint8)
    codes = np.concatenate([codes, np.zeros(-len(codes) % 4, dtype=np.uint8)])
    quads = codes.reshape(-1, 4)
    return (quads[:, 0] | quads[:, 1] << 2 | quads[:, 2] << 4 | quads[:, 3] << 6).astype(np.uint8)


def _fresh(target: Board) -> tuple[bytes, int, int]:
    """``(payload, layer count, unreachable)`` of the compact table of ``target``, computed
    by the distance table's breadth-first search (about 3 s on two cores, 68 MB while it
    runs)."""
    from .builder import bfs_distances

    dist, layers = bfs_distances(target, quiet=True)
    return pack(dist).tobytes(), len(layers), int(dist.shape[0] - sum(layers))


def _save(
    target: Board,
    cache_dir: str | os.PathLike[str] | None,
    payload: bytes,
    layers: int,
    unreachable: int,
    *,
    quiet: bool | None,
) -> CompactTable:
    """Write a freshly built compact table atomically into the cache directory, its proof
    recorded (the search that computed it is the proof), when the directory can take it
    (else say it is kept in memory only); return it."""
    path = path_of(target, cache_dir)
    k = target.black.bit_count()
    fields = _FIELDS.pack(target.key, k, layers, _states(k), unreachable, BLOCK_BITS)
    fields += cache.u32_bytes(_block_crcs(payload))
    header = cache.pack_header(MAGIC, FORMAT_VERSION, fields)
    try:
        written = cache.atomic_write(path, [header, payload], "compact distance table")
    except cache.CacheError as e:
        from .. import progress

        progress.announce(f"{e}; the compact distance table is kept in memory only",
                          quiet=quiet)  # fmt: skip
    else:
        cache.record_proof(path, written, f"{zlib.crc32(header):08x}", "compact distance table")
    return CompactTable(path, target, layers, unreachable, payload)


def build(
    target: Board, cache_dir: str | os.PathLike[str] | None = None, *, quiet: bool | None = None
) -> CompactTable:
    """Build the compact table of ``target`` (:func:`_fresh`), write it atomically into
    the cache directory when that can take it (else keep it in memory only), and return
    it."""
    return _save(target, cache_dir, *_fresh(target), quiet=quiet)


__all__ = ["LOST", "CompactTable", "build", "inconsistent", "load", "pack", "path_of"]
