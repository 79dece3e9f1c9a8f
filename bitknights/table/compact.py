"""The compact distance table: every board's distance modulo 3, two bits a board.

Neighbouring boards are exactly one move apart in distance (the state graph is
bipartite), so from a board at distance ``d`` the neighbours at ``d - 1`` are exactly
those whose code is ``(d - 1) mod 3``: walking down them reaches the target in exactly
``d`` moves.  Two bits a board (17 MB for the classic target) therefore answer every
exact question a walk can.  Built the first time an exact request without the distance
table meets a far board, kept in the cache directory, and proved once per file identity
by comparing it with a fresh build.  A walk that finds no next board, or passes the
farthest distance, raises :class:`TableError`: an answer is never too small.

One of the two encodings of :class:`~bitknights.table.store.TableFile`; also the kernels'
glue both tables share (:func:`batch_distances`, :func:`path_graph`, the ranks' draws).
"""

from __future__ import annotations

import os
import struct

from .. import cache, estimates
from .._records import Record
from ..board import Board
from ..coords import KEY_SHIFT, rank, state_count
from ..errors import BitknightsError
from ..results import INCONSISTENT
from ..squares import FULL_MASK
from .layout import LOST
from .store import BLOCK_BITS, TableError, TableFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    import numpy as np

RANDOM_BATCH = 1 << 14
RANDOM_DRAWS = 1 << 20
"""Random boards from the compact table (which does not count each distance) are drawn
:data:`RANDOM_BATCH` ranks at a time, at most this many (about 2 s on two cores): enough
for 100 boards at any distance up to 36 of the classic target (3,978 boards are farther)."""
RANDOM_PIECE = 1 << 16  # boards made between two updates of the progress bar
PLAIN_BOARDS = 512
"""Lists of up to this many boards are walked in plain Python: numpy and the kernels take
longer to load than that many walks."""


class CompactTable(TableFile):
    """The compact table: two bits a board, its distance modulo 3 (:data:`LOST`: never
    reaches)."""

    WHAT = "compact distance table"
    SUFFIX = ".bk3"
    MAGIC = b"BKNMOD3T"
    FORMAT_VERSION = 1
    FIELDS = struct.Struct("<QIIQQI")  # target, k, layers, states, unreachable, block bits
    BOARDS_PER_BYTE = 4
    MODULUS = 3
    LOST = LOST
    FIX = "remove it and it is rebuilt"
    CHANGED = "is inconsistent (a damaged or forged file); remove it and it is rebuilt on next use"

    @classmethod
    def of(
        cls, path: str, target: Board, layers: int, unreachable: int, payload: bytes
    ) -> CompactTable:
        """A compact table held in memory (built here; ``path``: where it belongs)."""
        k = target.black.bit_count()
        fields = {"target": target, "black_count": k, "state_count": state_count(k),
                  "layer_count": layers, "unreachable": unreachable}  # fmt: skip
        return cls(path, fields, full=payload)

    def code(self, r: int) -> int:
        return (self[r >> 2] >> ((r & 3) << 1)) & 3

    def walk(self, black: int, blank: int, cap: int | None = None) -> tuple[int, list[int]]:
        """:meth:`walk_plain`'s distance and path, walked in a compiled kernel."""
        import numpy as np

        from .. import native

        far = self.max_distance
        path = np.empty(far + 1, dtype=np.int64)
        d = native.kernels("table").walk(
            self.payload, np.int64(black), np.int64(blank), np.int64(self.limit(cap)),
            np.int64(far), *walk_tables(self.target), path,
        )  # fmt: skip
        if d == INCONSISTENT:
            raise self.inconsistent()
        return int(d), path[: d + 1].tolist() if d >= 0 else []

    def distances(self, keys: np.ndarray | list[int], limit: int) -> np.ndarray | list[int]:
        """The exact distance of each board (packed keys), ``-1`` beyond ``limit`` or when
        it never reaches the target: a list for a list (up to :data:`PLAIN_BOARDS` walked
        in plain Python), an ``int64`` array for an array (compiled, parallel)."""
        if isinstance(keys, list) and len(keys) <= PLAIN_BOARDS:
            walk = self.walk_plain
            return [max(walk(key & FULL_MASK, key >> KEY_SHIFT, limit)[0], -1) for key in keys]
        import numpy as np

        array = np.ascontiguousarray(keys, dtype=np.int64)
        out = np.empty(array.shape[0], dtype=np.int64)
        if not len(array):
            return [] if isinstance(keys, list) else out
        if batch_distances(self, array, self.limit(limit), 256, out):
            raise self.inconsistent()
        return out.tolist() if isinstance(keys, list) else out

    def random_boards(self, distance: int, count: int, seed: int | None = None) -> list[Board]:
        """:func:`random_boards` of this table."""
        return random_boards(self, distance, count, seed)

    def count_solutions(self, board: Board) -> int:
        """:func:`count_solutions` of this table."""
        return count_solutions(self, board)

    def _prove(self, st: os.stat_result, why: str) -> CompactTable:
        """Compare the file with a fresh build; one that differs is said once and replaced."""
        import time

        from .. import progress

        progress.announce(f"proving the compact distance table {self.path}",
                          f"{why}; by building it afresh", estimates.COMPACT_BUILD)  # fmt: skip
        t0 = time.perf_counter()
        fresh = _fresh(self.target, "proving the compact table")
        try:
            same = fresh == (self.payload.tobytes(), self.max_distance + 1, self.unreachable)
        except TableError:  # a bad block: not this file either
            same = False
        if same:
            progress.announce(f"proved: every code exact ({time.perf_counter() - t0:.1f} s)")
            cache.record_proof(self.path, st, self.tag, self.WHAT)
            return self
        cache.warn_once(f"compact distance table {self.path} is not exact (a damaged or "
                        "rewritten file)", "replacing it with a fresh build")  # fmt: skip
        return _save(self.target, os.path.dirname(self.path), *fresh)


load = CompactTable.load
path_of = CompactTable.path_of


def walk_tables(target: Board) -> tuple:
    """The walk kernels' last arguments for ``target``: ``(tblack, tblank, ncomb, nbr,
    cnt, rank_byte, popcount8)``."""
    import numpy as np

    from .layout import kernel_args

    ncomb, _, nbr, cnt, _, rank_byte, popcount8 = kernel_args(target.black.bit_count())
    return (np.int64(target.black), np.int64(target.blank), ncomb, nbr, cnt, rank_byte, popcount8)


def batch_distances(
    table: TableFile, keys: np.ndarray, cap: int, piece: int, out: np.ndarray
) -> bool:
    """``out[i]``: the distance of board ``keys[i]`` read from either table, ``-1`` past
    ``cap``, unreachable or not a board of the table, ``piece`` boards a job on parallel
    threads.  Returns whether a walk down a compact table found it inconsistent."""
    import numpy as np

    from .. import native
    from ..threads import parallel_blocks

    payload = table.payload
    fixed = (np.int64(table.black_count), np.int64(cap), np.int64(table.max_distance),
             *walk_tables(table.target))  # fmt: skip
    compact, kernel = table.MODULUS == 3, native.kernels("table").distances
    bad = parallel_blocks(
        lambda b0, b1: kernel(payload, compact, keys[b0 * piece : b1 * piece], *fixed,
                              out[b0 * piece : b1 * piece]),
        -(-len(keys) // piece),
    )  # fmt: skip
    return any(b >= 0 for b in bad)


# path counts at or above this switch to Python ints (8 of them must not overflow int64)
_INT64_SAFE = (1 << 63) // 8


class PathGraph(Record):
    """The shortest-path graph of a board (node 0; the target is the last node):
    ``succ[first[i]:first[i + 1]]``, the nodes one move nearer than node ``i`` in the
    knight tables' order; ``blanks[i]``, its blank square; ``total``, how many paths."""

    total: int
    first: np.ndarray
    succ: np.ndarray
    blanks: np.ndarray


def path_graph(table: TableFile, board: Board, depth: int) -> PathGraph:
    """The graph of ``board``, ``depth`` moves from the target of ``table``, its path
    counts in ``int64`` while they cannot overflow, then Python integers.  Raises
    :class:`TableError` when a board has no next board or the last is not the target."""
    import numpy as np

    from .. import native
    from .layout import kernel_args

    compact, payload = table.MODULUS == 3, table.payload
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
            raise table.inconsistent()  # a board with no next board
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
        raise table.inconsistent()
    firsts.append(np.full(2, edges_so_far, dtype=np.int64))  # the target's, and the end
    return PathGraph(
        int(counts[0]),
        np.concatenate(firsts).astype(np.int64),
        np.concatenate(succs).astype(np.int64) if succs else np.zeros(0, dtype=np.int64),
        np.concatenate(blanks).astype(np.int8),
    )


def unrank(ranks: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """``(blacks, blanks)`` of many ranks of boards with ``k`` black knights."""
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


def count_solutions(table: TableFile, board: Board) -> int:
    """How many distinct optimal move sequences lead from ``board`` to the target
    (``0`` when it never gets there, ``1`` from the target itself)."""
    d = table.walk_plain(board.black, board.blank)[0]
    return 0 if d < 0 else path_graph(table, board, d).total


def random_boards(
    table: TableFile, distance: int, count: int, seed: int | None = None
) -> list[Board]:
    """``count`` distinct boards drawn uniformly from those exactly ``distance`` moves
    from the target, reproducible with ``seed``: by rejection over uniform ranks, or from
    the whole layer when the table counts it and it is rare (or much of it is asked for).
    Raises ``TypeError`` unless ``distance`` and ``count`` are integers,
    :class:`~bitknights.errors.BitknightsError` for a negative seed or too few boards
    there, :class:`TableError` when the compact table found too few in
    :data:`RANDOM_DRAWS` ranks."""
    import numpy as np

    from .. import progress

    for name, value in (("distance", distance), ("count", count)):
        if isinstance(value, bool) or not isinstance(value, int):
            raise TypeError(f"random_boards: {name} is an integer, got {value!r}")
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or seed < 0):
        raise BitknightsError(f"a seed is a non-negative integer, got {seed!r}")
    layers, far = table.layers, table.max_distance
    size = None if layers is None else layers[distance] if 0 <= distance <= far else 0
    if layers is None and not 0 <= distance <= far:
        raise BitknightsError(f"no board lies {distance} moves from the target (the "
                              f"farthest lie {far} away)")  # fmt: skip
    if size is not None and size < count:
        raise BitknightsError(
            f"asked for {count} board{'s' if count != 1 else ''} at distance {distance}, "
            f"but only {size} {'board lies' if size == 1 else 'boards lie'} at that distance"
        )
    if count <= 0:
        return []
    rng = np.random.default_rng(seed)
    states, boards = table.state_count, []
    with progress.bar(count, "boards", f"drawing boards {distance} moves away",
                      unit_scale=True) as shown:  # fmt: skip
        if size is None or (size / states >= 1e-3 and count <= size // 2):
            batch = RANDOM_BATCH if size is None else (
                int(min(1 << 22, max(1 << 12, 2 * count * states // size))))  # fmt: skip

            def hit(ranks: np.ndarray) -> np.ndarray:
                blacks, blanks = unrank(ranks, table.black_count)
                out = np.empty(len(ranks), dtype=np.int64)
                batch_distances(table, blacks | blanks << KEY_SHIFT, distance, 256, out)
                return out == distance

            most = None if size is not None else RANDOM_DRAWS
            pieces = draw_ranks(rng, states, count, batch, hit, most)
        else:
            layer = np.flatnonzero(table.payload == distance)
            ranks = layer[rng.choice(layer.shape[0], size=count, replace=False)]
            pieces = (ranks[lo : lo + RANDOM_PIECE] for lo in range(0, count, RANDOM_PIECE))
        for piece in pieces:
            boards += boards_of(piece, table.black_count)
            shown.update(len(piece))
    if len(boards) < count:
        raise TableError(
            f"found {len(boards)} of {count} boards {distance} moves from the target "
            f"in {RANDOM_DRAWS:,} random draws from the {table.WHAT}: boards that far are "
            "rare; `bitknights table build` makes the distance table, which lists them"
        )
    return boards


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
    breadth-first search (its progress bar described as ``what``)."""
    from .builder import bfs_distances

    dist, layers = bfs_distances(target, what=what)
    return pack(dist).tobytes(), len(layers), int(dist.shape[0] - sum(layers))


def _save(
    target: Board,
    cache_dir: str | os.PathLike[str] | None,
    payload: bytes,
    layers: int,
    unreachable: int,
) -> CompactTable:
    """:func:`build`'s write and table, of a fresh ``payload``."""
    path = path_of(target, cache_dir)
    try:
        CompactTable._write(path, target, layers, unreachable, payload)
    except cache.CacheError as e:
        from .. import progress

        progress.announce(f"{e}; the compact distance table is kept in memory only")
    return CompactTable.of(path, target, layers, unreachable, payload)


def build(target: Board, cache_dir: str | os.PathLike[str] | None = None) -> CompactTable:
    """Build the compact table of ``target``, write it atomically with its proof recorded
    when the cache directory can take it (else say it is kept in memory only); return it."""
    return _save(target, cache_dir, *_fresh(target, "building the compact table"))


__all__ = ["BLOCK_BITS", "LOST", "CompactTable", "build", "load", "pack", "path_of"]
