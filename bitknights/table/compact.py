"""The compact distance table: every board's distance modulo 3, two bits a board.

The distance table (:mod:`.store`) spends a byte a board: 68 MB for the classic target.
Exact answers need less.  Two neighbouring boards are exactly one move apart in distance
(the state graph is bipartite), so from a board at distance ``d`` the neighbours at
``d - 1`` are exactly those whose distance modulo 3 is ``(d - 1) mod 3``: walking down,
one such neighbour at a time, reaches the target in exactly ``d`` moves.  Two bits a board
(17 MB for the classic target) therefore answer every exact question a walk can: a
board's distance (a walk of about a hundred probes, a microsecond or two in the compiled
kernels of :mod:`.walk_kernels`), an optimal path (the walk itself), hints, every
optimal move sequence (:mod:`.solutions`) and how many there are.

The search engines need it for boards far from the target, where IDA* can take seconds to
minutes and the bidirectional search grows its target side for seconds in every process:
:class:`~bitknights.service.DistanceService` builds it the first time an exact request
without the distance table meets such a board (the same breadth-first search as
``bitknights table build``, announced with
:data:`bitknights.estimates.COMPACT_BUILD`), keeps it in the cache directory like the
pattern databases, and answers from it from then on, in microseconds.

The walks take the codes as exact (a table is proved whole before its first answer); a
walk that finds no next board, or goes on past the farthest distance the header gives,
raises :class:`TableError`.  A walk is a path, so an answer is never too small.

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

from .. import cache, estimates
from ..coords import KEY_SHIFT, ranker
from ..results import INCONSISTENT, OVER_LIMIT, UNREACHABLE
from ..squares import FULL_MASK, KNIGHT_TARGETS, NUM_SQUARES
from .compact_layout import LOST
from .store import TableError

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Sequence

    import numpy as np

    from ..board import Board
    from .path_graph import PathGraph

MAGIC = b"BKNMOD3T"
FORMAT_VERSION = 1
BLOCK_BITS = 12
RANDOM_BATCH = 1 << 14
RANDOM_DRAWS = 1 << 20
"""Random boards are drawn :data:`RANDOM_BATCH` ranks at a time, at most this many in all
(about 2 s on two cores): enough for 100 boards at any distance of the classic target up
to 36 (one rank in 4,000 lies 36 moves away; 3,978 boards lie farther, which the distance
table lists)."""
PLAIN_BOARDS = 512
"""Lists of up to this many boards are walked in plain Python (:meth:`CompactTable.walk_plain`):
numpy and the compiled kernels take longer to load than that many walks."""
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
    a table built here, nothing to check); :meth:`codes` is the whole payload for the
    kernels, every block checked; :meth:`walk`, :meth:`distances` and
    :meth:`count_solutions` answer from it."""

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
        self._codes: np.ndarray | None = None
        self._consts: tuple | None = None

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

    def codes(self) -> np.ndarray:
        """The payload as a read-only ``uint8`` array for the kernels, every block checked
        against its checksum first (once: about 15 ms for the classic target)."""
        if self._codes is None:
            import numpy as np

            for block, checked in enumerate(self._checked):
                if not checked:
                    self._check(block)
            self._codes = np.frombuffer(self._payload, dtype=np.uint8)
        return self._codes

    def _kernel_tables(self) -> tuple:
        """What every walk kernel takes after its own arguments: the target, the rank
        and knight tables."""
        if self._consts is None:
            import numpy as np

            from ..coords import comb_count
            from ..coords.arrays import POPCOUNT8, RANK_BYTE
            from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS

            target = self.target
            self._consts = (np.int64(target.black), np.int64(target.blank),
                            np.int64(comb_count(self.black_count)), KNIGHT_NEIGHBORS,
                            KNIGHT_COUNTS, RANK_BYTE, POPCOUNT8)  # fmt: skip
        return self._consts

    def walk(self, black: int, blank: int, cap: int | None = None) -> tuple[int, list[int]]:
        """``(distance, blank squares along one optimal path)`` of the board (black mask,
        blank square) with the target's knight counts, walked in a compiled kernel
        (:func:`~bitknights.table.walk_kernels.walk`); the result code ``UNREACHABLE``
        when it never reaches the target, ``OVER_LIMIT`` when it is more than ``cap``
        moves away (:mod:`bitknights.results`; the path is then empty).  Raises
        :class:`TableError` when the walk finds no next board."""
        import numpy as np

        from .. import native

        far = self.max_distance
        limit = far if cap is None else max(0, min(int(cap), far))
        path = np.empty(far + 1, dtype=np.int64)
        d = native.kernels("table").walk(
            self.codes(), True, np.int64(black), np.int64(blank), np.int64(limit), np.int64(far),
            *self._kernel_tables(), path,
        )  # fmt: skip
        if d == INCONSISTENT:
            raise inconsistent(self.path)
        return int(d), path[: d + 1].tolist() if d >= 0 else []

    def walk_plain(self, black: int, blank: int, cap: int | None = None) -> tuple[int, list[int]]:
        """:meth:`walk` in plain Python, the same path: for a few boards in a process
        that has not loaded numpy and the kernels, which takes longer than a thousand
        walks (about 0.1 ms each)."""
        code, target = self.code, self.target
        c = code(black, blank)
        if c == LOST:
            return UNREACHABLE, []
        far = self.max_distance
        limit = far if cap is None else max(0, min(int(cap), far))
        blanks = [blank]
        while black != target.black or blank != target.blank:
            if len(blanks) > limit:
                if limit < far:
                    return OVER_LIMIT, []
                raise inconsistent(self.path)
            c = (c + 2) % 3
            for n in KNIGHT_TARGETS[blank]:
                nb = black ^ ((1 << n) | (1 << blank)) if black >> n & 1 else black
                if code(nb, n) == c:
                    black, blank = nb, n
                    blanks.append(n)
                    break
            else:
                raise inconsistent(self.path)
        return len(blanks) - 1, blanks

    def distances(self, keys: np.ndarray | list[int], limit: int) -> np.ndarray | list[int]:
        """The exact distance of each board (packed keys), ``-1`` beyond ``limit`` or when
        it never reaches the target (other knight counts included): a list for a list
        (up to :data:`PLAIN_BOARDS` walked in plain Python), an ``int64`` array for an
        array, walked in a compiled kernel on parallel threads.  Raises
        :class:`TableError` when a walk finds no next board."""
        if isinstance(keys, list) and len(keys) <= PLAIN_BOARDS:
            steps = []
            for key in keys:
                black, blank = key & FULL_MASK, key >> KEY_SHIFT
                valid = blank < NUM_SQUARES and not black >> blank & 1
                d = self.walk_plain(black, blank, limit)[0] if valid and (
                    black.bit_count() == self.black_count) else -1  # fmt: skip
                steps.append(max(d, -1))
            return steps
        import numpy as np

        from .. import native
        from ..threads import parallel_blocks

        array = np.ascontiguousarray(keys, dtype=np.int64)
        out = np.empty(array.shape[0], dtype=np.int64)
        if not len(array):
            return [] if isinstance(keys, list) else out
        tables = self._kernel_tables()
        far = self.max_distance
        fixed = (np.int64(self.black_count), np.int64(max(0, min(int(limit), far))),
                 np.int64(far), *tables)  # fmt: skip
        kernel, codes, piece = native.kernels("table").compact_distances, self.codes(), 256
        bad = parallel_blocks(
            lambda b0, b1: kernel(codes, array[b0 * piece : b1 * piece], *fixed,
                                  out[b0 * piece : b1 * piece]),
            -(-len(array) // piece),
        )  # fmt: skip
        if any(b >= 0 for b in bad):
            raise inconsistent(self.path)
        return out.tolist() if isinstance(keys, list) else out

    def random_boards(self, distance: int, count: int, seed: int | None = None) -> list[Board]:
        """``count`` distinct boards drawn uniformly from those exactly ``distance`` moves
        from the target; the same ``seed`` gives the same boards.  By rejection: uniform
        ranks, walked in a compiled batch, kept when their distance is right and they are
        new.  The compact table does not say how many boards lie at each distance, so a
        draw that has not found them all within :data:`RANDOM_DRAWS` ranks (a rare
        distance, or more boards than lie there) raises :class:`TableError` naming the
        distance table, which lists each distance's boards."""
        import numpy as np

        from .. import native
        from ..board import Board
        from ..coords import KEY_SHIFT, comb_count, pack
        from ..coords.kernels import unrank_many
        from ..errors import BitknightsError

        for name, value in (("distance", distance), ("count", count)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"random_boards: {name} is an integer, got {value!r}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
            raise BitknightsError(f"a seed is a non-negative integer, got {seed!r}")
        if not 0 <= distance <= self.max_distance:
            raise BitknightsError(
                f"no board lies {distance} moves from the target (the farthest lie "
                f"{self.max_distance} away)"
            )
        rng = np.random.default_rng(seed)
        states, k = NUM_SQUARES * comb_count(self.black_count), self.black_count
        chosen: dict[int, None] = {}
        draws = 0
        while len(chosen) < count:
            if draws >= RANDOM_DRAWS:
                raise TableError(
                    f"found {len(chosen)} of {count} boards {distance} moves from the target "
                    f"in {draws:,} random draws from the compact table: boards that far are "
                    "rare; `bitknights table build` makes the distance table, which lists them"
                )
            ranks = rng.integers(0, states, size=RANDOM_BATCH, dtype=np.int64)
            blacks, blanks = unrank_many(ranks, k, kernel=native.kernels("table").unrank_many)
            found = self.distances(blacks | blanks << KEY_SHIFT, distance) == distance
            for r in ranks[found].tolist():
                if r not in chosen:
                    chosen[r] = None
                    if len(chosen) == count:
                        break
            draws += RANDOM_BATCH
        blacks, blanks = unrank_many(np.array(list(chosen), dtype=np.int64), k,
                                     kernel=native.kernels("table").unrank_many)  # fmt: skip
        return [Board.from_key(pack(int(b), int(s))) for b, s in zip(blacks, blanks)]

    def count_solutions(self, board: Board) -> int:
        """How many distinct optimal move sequences lead from ``board`` to the target:
        ``0`` when it never gets there (other knight counts included), ``1`` from the
        target itself (over its shortest-path graph, :mod:`.path_graph`)."""
        if board.black.bit_count() != self.black_count:
            return 0
        d = self.walk(board.black, board.blank)[0]
        return 0 if d < 0 else self.graph(board, d).total

    def graph(self, board: Board, depth: int) -> PathGraph:
        """The shortest-path graph of ``board``, ``depth`` moves from the target
        (:func:`~bitknights.table.path_graph.path_graph`)."""
        from ..coords import comb_count, rank
        from .path_graph import path_graph, table_edges

        k, target = self.black_count, self.target
        start, end = rank(board.black, board.blank, k), rank(target.black, target.blank, k)
        edges = table_edges(self.codes(), True, k)
        return path_graph(start, depth, edges, comb_count(k), end, lambda: inconsistent(self.path))


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
                      estimates.COMPACT_BUILD)  # fmt: skip
    t0 = time.perf_counter()
    fresh, fresh_layers, fresh_unreachable = _fresh(target, "proving the compact table")
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


def _fresh(target: Board, what: str) -> tuple[bytes, int, int]:
    """``(payload, layer count, unreachable)`` of the compact table of ``target``, computed
    by the distance table's breadth-first search (68 MB while it runs), its progress bar
    described as ``what``."""
    from .builder import bfs_distances

    dist, layers = bfs_distances(target, quiet=True, what=what)
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
    return _save(target, cache_dir, *_fresh(target, "building the compact table"), quiet=quiet)


__all__ = ["LOST", "CompactTable", "build", "inconsistent", "load", "pack", "path_of"]
