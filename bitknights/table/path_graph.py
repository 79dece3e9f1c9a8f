"""The shortest-path graph of a board: every board on one of its optimal paths, a layer
per distance, each with its edges to the next boards one move nearer, in the knight
tables' order; and how many optimal move sequences there are.

A far board's optimal move sequences run into the millions (1,944,639 for a board 39
moves away) while its graph stays small (242,000 boards, 328,000 edges for that one), so
counting them walks the graph a layer at a time, and the listing of every sequence
(:mod:`.solutions`) walks its edges without reading the table again.  The edges come from
either table (:func:`~bitknights.table.walk_kernels.nearer_edges`, or the distance
table's confirming kernel for its counts).
"""

from __future__ import annotations

from .._records import Record

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    import numpy as np

# path counts at or above this switch to Python ints (8 of them must not overflow int64)
_INT64_SAFE = (1 << 63) // 8


class PathGraph(Record):
    """The shortest-path graph of a board (node 0; the target is the last node).

    ``succ[first[i]:first[i + 1]]``: the nodes one move nearer than node ``i``, in the
    knight tables' order; ``blanks[i]``: node ``i``'s blank square; ``total``: how many
    optimal move sequences there are (paths from node 0 to the last)."""

    total: int
    first: np.ndarray
    succ: np.ndarray
    blanks: np.ndarray


def path_graph(
    start: int,
    depth: int,
    edges: Callable[[np.ndarray, int], tuple[np.ndarray, np.ndarray]],
    ncomb: int,
    target: int,
    fail: Callable[[], Exception],
) -> PathGraph:
    """The graph of the board of rank ``start``, ``depth`` moves from the target (of rank
    ``target``; ``ncomb`` ranks a blank square).  ``edges(ranks, want)``: for boards
    ``want + 1`` moves away, every neighbour ``want`` moves away, as ``(index into
    ranks, neighbour's rank)`` pairs, a board's in the knight tables' order.  Raises
    ``fail()`` when a board has no next board, or the last layer is not the target.

    Counts go forward a layer at a time (each board with the number of optimal move
    sequences reaching it): ``int64`` while they cannot overflow, then Python integers."""
    import numpy as np

    ranks = np.array([start], dtype=np.int64)
    counts: np.ndarray = np.ones(1, dtype=np.int64)
    firsts, succs, blanks = [], [], [ranks // ncomb]
    nodes = edges_so_far = 0
    for step in range(depth, 0, -1):
        src, dst = edges(ranks, step - 1)
        first = np.searchsorted(src, np.arange(len(ranks) + 1))
        if (first[1:] == first[:-1]).any():
            raise fail()  # a board with no next board
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
    if ranks.tolist() != [target]:
        raise fail()
    firsts.append(np.full(2, edges_so_far, dtype=np.int64))  # the target's, and the end
    return PathGraph(
        int(counts[0]),
        np.concatenate(firsts).astype(np.int64),
        np.concatenate(succs).astype(np.int64) if succs else np.zeros(0, dtype=np.int64),
        np.concatenate(blanks).astype(np.int8),
    )


def table_edges(
    payload: np.ndarray, compact: bool, black_count: int
) -> Callable[[np.ndarray, int], tuple[np.ndarray, np.ndarray]]:
    """The ``edges`` of :func:`path_graph` read from a table's payload: the distance
    table's bytes, or the compact table's codes (``compact``), for boards with
    ``black_count`` black knights (:func:`~bitknights.table.walk_kernels.nearer_edges`,
    compiled)."""
    import numpy as np

    from .. import native
    from ..coords import comb_count
    from ..coords.arrays import BINOM, POPCOUNT8, RANK_BYTE
    from ..squares import KNIGHT_COUNTS, KNIGHT_NEIGHBORS

    kernel = native.kernels("table").graph_edges
    fixed = (np.int64(black_count), np.int64(comb_count(black_count)), KNIGHT_NEIGHBORS,
             KNIGHT_COUNTS, BINOM, RANK_BYTE, POPCOUNT8)  # fmt: skip

    def edges(ranks: np.ndarray, want: int) -> tuple[np.ndarray, np.ndarray]:
        return kernel(payload, compact, ranks, np.int64(want), *fixed)  # type: ignore[no-any-return]

    return edges
