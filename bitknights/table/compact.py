"""The compact distance table: every board's distance modulo 3, two bits a board.

Neighbouring boards are exactly one move apart in distance (the state graph is
bipartite), so from a board at distance ``d`` the neighbours at ``d - 1`` are exactly
those whose code is ``(d - 1) mod 3``: walking down, one such neighbour at a time, reaches
the target in exactly ``d`` moves.  Two bits a board (17 MB for the classic target)
therefore answer every exact question a walk can: distances, paths, hints, every optimal
move sequence (:mod:`.solutions`) and their count.  The service builds it the first time
an exact request without the distance table meets a far board, and keeps it in the cache
directory.  A file is proved once per identity by comparing it with a fresh build.  A
walk that finds no next board, or passes the farthest distance, raises
:class:`TableError`; a walk is a path, so an answer is never too small.

File layout (little-endian), through :mod:`bitknights.cache`::

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

from .. import cache, estimates, system
from .._records import Record
from ..coords import KEY_SHIFT, ranker, state_count
from ..results import INCONSISTENT, OVER_LIMIT, UNREACHABLE
from ..squares import FULL_MASK, KNIGHT_TARGETS
from .layout import LOST
from .probe import valid
from .store import BLOCK_BITS, ERRORS, TableError, block_checksums, block_count, file_path

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator, Sequence

    import numpy as np

    from ..board import Board
    from .store import TableFile

MAGIC = b"BKNMOD3T"
FORMAT_VERSION = 1
RANDOM_BATCH = 1 << 14
RANDOM_DRAWS = 1 << 20
"""Random boards are drawn :data:`RANDOM_BATCH` ranks at a time, at most this many in all
(about 2 s on two cores): enough for 100 boards at any distance of the classic target up
to 36 (the distance table lists the 3,978 boards farther)."""
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
    return file_path(target, cache_dir, ".bk3")


def check_draw(distance: object, count: object, seed: object) -> None:
    """The arguments of a ``random_boards``: integers, ``seed`` non-negative or ``None``."""
    for name, value in (("distance", distance), ("count", count)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"random_boards: {name} is an integer, got {value!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        from ..errors import BitknightsError

        raise BitknightsError(f"a seed is a non-negative integer, got {seed!r}")


class CompactTable:
    """A compact table in memory: ``code(black, blank)`` reads a board's code, checking
    its payload block against its checksum the first time (``crcs``; ``None``: built
    here); :meth:`codes` is the whole payload for the kernels, every block checked."""

    def __init__(
        self,
        path: str,
        target: Board,
        layers: int,
        unreachable: int,
        payload: bytes | memoryview,
        crcs: Sequence[int] | None = None,
    ) -> None:
        self.path, self.target, self.unreachable = path, target, unreachable
        self.black_count = target.black.bit_count()
        self.max_distance = layers - 1
        self._payload, self._crcs = payload, crcs
        self._checked = bytearray(b"\1" if crcs is None else b"\0") * block_count(len(payload))
        self._rank: Callable[[int, int], int] = ranker(self.black_count)
        self._codes: np.ndarray | None = None

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
        """The payload as a read-only ``uint8`` array, every block checked first (once)."""
        if self._codes is None:
            import numpy as np

            for block, checked in enumerate(self._checked):
                if not checked:
                    self._check(block)
            self._codes = np.frombuffer(self._payload, dtype=np.uint8)
        return self._codes

    def _limit(self, cap: int | None) -> int:
        return self.max_distance if cap is None else max(0, min(int(cap), self.max_distance))

    def walk(self, black: int, blank: int, cap: int | None = None) -> tuple[int, list[int]]:
        """``(distance, blank squares along one optimal path)`` of the board, walked in a
        compiled kernel; ``UNREACHABLE`` when it never reaches the target, ``OVER_LIMIT``
        beyond ``cap`` moves (:mod:`bitknights.results`; the path then empty)."""
        import numpy as np

        from .. import native

        far = self.max_distance
        path = np.empty(far + 1, dtype=np.int64)
        d = native.kernels("table").walk(
            self.codes(), np.int64(black), np.int64(blank), np.int64(self._limit(cap)),
            np.int64(far), *walk_tables(self.target), path,
        )  # fmt: skip
        if d == INCONSISTENT:
            raise inconsistent(self.path)
        return int(d), path[: d + 1].tolist() if d >= 0 else []

    def walk_plain(self, black: int, blank: int, cap: int | None = None) -> tuple[int, list[int]]:
        """:meth:`walk` in plain Python, the same path: for a few boards in a process that
        has not loaded numpy and the kernels."""
        code, target = self.code, self.target
        c = code(black, blank)
        if c == LOST:
            return UNREACHABLE, []
        far, limit = self.max_distance, self._limit(cap)
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
        it never reaches the target: a list for a list (up to :data:`PLAIN_BOARDS` walked
        in plain Python), an ``int64`` array for an array (compiled, parallel)."""
        if isinstance(keys, list) and len(keys) <= PLAIN_BOARDS:
            boards = [(key & FULL_MASK, key >> KEY_SHIFT) for key in keys]
            k = self.black_count
            return [max(self.walk_plain(*b, limit)[0], -1) if valid(*b, k) else -1 for b in boards]
        import numpy as np

        array = np.ascontiguousarray(keys, dtype=np.int64)
        out = np.empty(array.shape[0], dtype=np.int64)
        if not len(array):
            return [] if isinstance(keys, list) else out
        if batch_distances(self, array, self._limit(limit), 256, out):
            raise inconsistent(self.path)
        return out.tolist() if isinstance(keys, list) else out

    def random_boards(self, distance: int, count: int, seed: int | None = None) -> list[Board]:
        """``count`` distinct boards drawn uniformly from those exactly ``distance`` moves
        from the target (reproducible with ``seed``), by rejection over uniform ranks.
        Raises :class:`TableError` naming the distance table when :data:`RANDOM_DRAWS`
        ranks did not hold them all (the compact table does not count each distance)."""
        import numpy as np

        from ..errors import BitknightsError

        check_draw(distance, count, seed)
        if not 0 <= distance <= self.max_distance:
            raise BitknightsError(
                f"no board lies {distance} moves from the target (the farthest lie "
                f"{self.max_distance} away)"
            )
        k = self.black_count

        def hit(ranks: np.ndarray) -> np.ndarray:
            blacks, blanks = unrank(ranks, k)
            return np.asarray(self.distances(blacks | blanks << KEY_SHIFT, distance)) == distance

        rng = np.random.default_rng(seed)
        draws = draw_ranks(rng, state_count(k), count, RANDOM_BATCH, hit, RANDOM_DRAWS)
        ranks = np.concatenate([np.empty(0, dtype=np.int64), *draws])
        if len(ranks) < count:
            raise TableError(
                f"found {len(ranks)} of {count} boards {distance} moves from the target "
                f"in {RANDOM_DRAWS:,} random draws from the compact table: boards that far are "
                "rare; `bitknights table build` makes the distance table, which lists them"
            )
        return boards_of(ranks, k)

    def count_solutions(self, board: Board) -> int:
        """How many distinct optimal move sequences lead from ``board`` to the target
        (``0`` when it never gets there, ``1`` from the target itself)."""
        if board.black.bit_count() != self.black_count:
            return 0
        d = self.walk(board.black, board.blank)[0]
        return 0 if d < 0 else path_graph(self, board, d).total


def walk_tables(target: Board) -> tuple:
    """What the walk kernels take after their own arguments, for ``target``: ``(tblack,
    tblank, ncomb, nbr, cnt, rank_byte, popcount8)``."""
    import numpy as np

    from .layout import kernel_args

    ncomb, _, nbr, cnt, _, rank_byte, popcount8 = kernel_args(target.black.bit_count())
    return (np.int64(target.black), np.int64(target.blank), ncomb, nbr, cnt, rank_byte, popcount8)


def batch_distances(
    table: TableFile | CompactTable, keys: np.ndarray, cap: int, piece: int, out: np.ndarray
) -> bool:
    """``out[i]``: the distance of board ``keys[i]`` (``int64``) read from either table, ``-1``
    past ``cap``, unreachable or not a board of the table, ``piece`` boards a job on
    parallel threads.  Returns whether a walk down a compact table found it inconsistent."""
    import numpy as np

    from .. import native
    from ..threads import parallel_blocks

    payload = table.codes() if isinstance(table, CompactTable) else table.payload
    fixed = (np.int64(table.black_count), np.int64(cap), np.int64(table.max_distance),
             *walk_tables(table.target))  # fmt: skip
    compact, kernel = isinstance(table, CompactTable), native.kernels("table").distances
    bad = parallel_blocks(
        lambda b0, b1: kernel(payload, compact, keys[b0 * piece : b1 * piece], *fixed,
                              out[b0 * piece : b1 * piece]),
        -(-len(keys) // piece),
    )  # fmt: skip
    return any(b >= 0 for b in bad)


# path counts at or above this switch to Python ints (8 of them must not overflow int64)
_INT64_SAFE = (1 << 63) // 8


class PathGraph(Record):
    """The shortest-path graph of a board (node 0; the target is the last node), a layer
    per distance: ``succ[first[i]:first[i + 1]]``, the nodes one move nearer than node
    ``i`` in the knight tables' order; ``blanks[i]``, node ``i``'s blank square;
    ``total``, how many optimal move sequences there are."""

    total: int
    first: np.ndarray
    succ: np.ndarray
    blanks: np.ndarray


def path_graph(table: TableFile | CompactTable, board: Board, depth: int) -> PathGraph:
    """The graph of ``board``, ``depth`` moves from the target of ``table`` (its edges
    from :func:`~bitknights.table.kernels.nearer_edges`).  Counts go forward a layer
    at a time, ``int64`` while they cannot overflow, then Python integers.  Raises
    :class:`TableError` when a board has no next board or the last layer is not the
    target."""
    import numpy as np

    from .. import native
    from ..coords import rank
    from .layout import kernel_args
    from .store import changed

    compact = isinstance(table, CompactTable)
    payload = table.codes() if compact else table.payload  # type: ignore[union-attr]
    fail = inconsistent if compact else changed
    k, target, kernel = table.black_count, table.target, native.kernels("table").graph_edges
    fixed = kernel_args(k)
    ncomb = int(fixed[0])
    ranks = np.array([rank(board.black, board.blank, k)], dtype=np.int64)
    counts: np.ndarray = np.ones(1, dtype=np.int64)
    firsts, succs, blanks = [], [], [ranks // ncomb]
    nodes = edges_so_far = 0
    for step in range(depth, 0, -1):
        src, dst = kernel(payload, compact, ranks, np.int64(step - 1), *fixed)
        first = np.searchsorted(src, np.arange(len(ranks) + 1))
        if (first[1:] == first[:-1]).any():
            raise fail(table.path)  # a board with no next board
        nxt, inverse = np.unique(dst, return_inverse=True)
        # a board has at most 8 predecessors, so sums stay below 8 * max(counts)
        if counts.dtype != object and int(counts.max()) >= _INT64_SAFE:
            counts = counts.astype(object)
        reached = np.zeros(len(nxt), dtype=counts.dtype)
        np.add.at(reached, inverse, counts[src])
        firsts.append(first[:-1] + edges_so_far)
        succs.append(inverse + nodes + len(ranks))
        nodes += len(ranks)
        edges_so_far += len(src)
        ranks, counts = nxt, reached
        blanks.append(ranks // ncomb)
    if ranks.tolist() != [rank(target.black, target.blank, k)]:
        raise fail(table.path)
    firsts.append(np.full(2, edges_so_far, dtype=np.int64))  # the target's, and the end
    return PathGraph(
        int(counts[0]),
        np.concatenate(firsts).astype(np.int64),
        np.concatenate(succs).astype(np.int64) if succs else np.zeros(0, dtype=np.int64),
        np.concatenate(blanks).astype(np.int8),
    )


def unrank(ranks: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """``(blacks, blanks)`` of many ranks of boards with ``k`` black knights (the table's
    kernel: numba is not imported when it runs compiled ahead of time)."""
    import numpy as np

    from .. import native
    from .layout import kernel_args

    ranks = np.ascontiguousarray(ranks, dtype=np.int64)
    blacks, blanks = np.empty_like(ranks), np.empty_like(ranks)
    ncomb, _, _, _, binom, _, _ = kernel_args(k)
    native.kernels("table").unrank_many(ranks, np.int64(k), ncomb, binom, blacks, blanks)
    return blacks, blanks


def boards_of(ranks: np.ndarray, k: int) -> list[Board]:
    """The boards of ``ranks`` among boards with ``k`` black knights."""
    from ..board import Board

    blacks, blanks = unrank(ranks, k)
    return [Board._make(b, s) for b, s in zip(blacks.tolist(), blanks.tolist())]  # valid


def draw_ranks(
    rng: np.random.Generator,
    states: int,
    count: int,
    batch: int,
    hit: Callable[[np.ndarray], np.ndarray],
    most: int | None = None,
) -> Iterator[np.ndarray]:
    """Distinct ranks below ``states`` that ``hit`` marks, among uniform draws ``batch`` at
    a time, in the order drawn: each batch's new ones, until there are ``count`` (or
    ``most`` ranks were drawn)."""
    import numpy as np

    chosen = np.empty(0, dtype=np.int64)
    draws = 0
    while len(chosen) < count and (most is None or draws < most):
        ranks = rng.integers(0, states, size=batch, dtype=np.int64)
        draws += batch
        hits = ranks[hit(ranks)]
        hits = hits[np.sort(np.unique(hits, return_index=True)[1])]  # once, in order drawn
        hits = hits[~np.isin(hits, chosen)][: count - len(chosen)]  # and not drawn before
        chosen = np.concatenate([chosen, hits])
        yield hits


def inconsistent(path: str) -> TableError:
    return TableError(
        f"compact distance table {path} is inconsistent (a damaged or forged file); "
        "remove it and it is rebuilt on next use"
    )


def _fail(path: str, problem: str) -> TableError:
    return TableError(f"compact distance table {path} {problem}; remove it and it is rebuilt")


def _sizes(target: Board) -> tuple[int, int, int]:
    """``(state count, block count, header size)`` of the compact table of ``target``."""
    states = state_count(target.black.bit_count())
    nblocks = block_count(-(-states // 4))
    return states, nblocks, 16 + _FIELDS.size + 4 * nblocks + 4


def _read(target: Board, path: str, payload: bool) -> tuple[bytes, os.stat_result, int, int]:
    """``(bytes, fstat, layer count, unreachable)`` of the file at ``path``, opened as the
    cache layer opens files (regular, trusted, the right size), its header checked: the
    header alone, or the whole file (``payload``)."""
    states, nblocks, head_size = _sizes(target)
    size = head_size + -(-states // 4)
    fd, st = cache.open_cached(path, "compact distance table", sizes=[size], errors=ERRORS)
    try:
        data = system.read_at(fd, size if payload else head_size, 0)
    except OSError as e:
        raise TableError(f"cannot read compact distance table {path}: {e.strerror or e}") from None
    finally:
        os.close(fd)
    fields = cache.unpack_header(data[:head_size], MAGIC, FORMAT_VERSION,
                                 lambda p: _fail(path, p))  # fmt: skip
    if len(fields) != _FIELDS.size + 4 * nblocks:
        raise _fail(path, "has a header that does not fit this target")
    key, k, layers, got_states, unreachable, bits = _FIELDS.unpack_from(fields)
    if (key, k, got_states, bits) != (target.key, target.black.bit_count(), states, BLOCK_BITS):
        raise _fail(path, "has a header that does not fit this target")
    if not 0 < layers <= 256:
        raise _fail(path, "has a corrupt header")
    return data, st, layers, unreachable


def check_header(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> None:
    """Check the compact table file of ``target`` as far as its header (kind, trust,
    size, header checksum, fields): what ``auto`` looks at before choosing it.  Raises as
    :func:`load` does."""
    _read(target, path_of(target, cache_dir), False)


def load(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> CompactTable:
    """The compact table of ``target`` from the cache directory, read whole: a regular
    file this user may trust, of the right size, its header matching its checksum, and
    proved (a file not proved before in this identity is compared with a fresh build,
    announced, and replaced by it when they differ, said once).  Raises
    ``FileNotFoundError`` when there is none, :class:`TableError` otherwise."""
    path = path_of(target, cache_dir)
    data, st, layers, unreachable = _read(target, path, True)
    head_size = _sizes(target)[2]
    tag = f"{zlib.crc32(data[:head_size]):08x}"
    payload = memoryview(data)[head_size:]
    if cache.proof(path, st, tag) == cache.EXACT:
        crcs = cache.u32_array(data[16 + _FIELDS.size : head_size - 4])
        return CompactTable(path, target, layers, unreachable, payload, crcs)
    import time

    from .. import progress

    progress.announce(f"proving the compact distance table {path}",
                      "once: it is new or changed; by building it afresh",
                      estimates.COMPACT_BUILD)  # fmt: skip
    t0 = time.perf_counter()
    fresh = _fresh(target, "proving the compact table")
    if fresh == (bytes(payload), layers, unreachable):
        progress.announce(f"proved: every code exact ({time.perf_counter() - t0:.1f} s)")
        cache.record_proof(path, st, tag, "compact distance table")
        return CompactTable(path, target, layers, unreachable, fresh[0])
    cache.warn_once(f"compact distance table {path} is not exact (a damaged or rewritten "
                    "file)", "replacing it with a fresh build")  # fmt: skip
    return _save(target, cache_dir, *fresh, quiet=None)


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
    """``(payload, layer count, unreachable)`` of the compact table of ``target``, by the
    distance table's breadth-first search (its progress bar described as ``what``)."""
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
    """Write a freshly built compact table atomically, its proof recorded (the search
    that computed it is the proof), when the directory can take it (else say it is kept
    in memory only); return it."""
    path = path_of(target, cache_dir)
    k = target.black.bit_count()
    fields = _FIELDS.pack(target.key, k, layers, state_count(k), unreachable, BLOCK_BITS)
    header = cache.pack_header(MAGIC, FORMAT_VERSION,
                               fields + cache.u32_bytes(block_checksums(payload)))  # fmt: skip
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
    """Build the compact table of ``target``, write it atomically into the cache directory
    when that can take it (else keep it in memory only), and return it."""
    return _save(target, cache_dir, *_fresh(target, "building the compact table"), quiet=quiet)


__all__ = ["LOST", "CompactTable", "build", "inconsistent", "load", "pack", "path_of"]
