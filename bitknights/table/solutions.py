"""Every optimal solution of a board read from either table, streamed depth first over
its shortest-path graph (:func:`.compact.path_graph`): memory stays bounded whatever the
count.  They come a chunk at a time (``int8`` arrays, one path of the blank's squares a
row, the start's first), in lexicographic order of the squares the knights jump from.
:func:`moves_of_chunks` makes moves of them, :class:`LineWriter` lines of text.
"""

from __future__ import annotations

from itertools import count

from .. import native
from ..board import Board, Move
from ..errors import BitknightsError
from ..squares import NUM_SQUARES
from . import layout as K
from .compact import path_graph
from .store import TableFile

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    import numpy as np

    from .distance_table import DistanceTable

CHUNKS = (1, 256, 16384)
"""Paths per chunk: the first chunk holds one path (it shows at once), then they grow."""
LINES_BYTES = 4 << 20
"""Bytes of lines a table's listing writes at a time (about 18,000 lines of 39 moves)."""


def chunk_sizes(limit: int | None) -> Iterator[int]:
    """Sizes of successive chunks (:data:`CHUNKS`, the last repeating), none above ``limit``."""
    for n in count():
        size = CHUNKS[min(n, len(CHUNKS) - 1)]
        yield size if limit is None else max(1, min(size, limit))


class TablePaths:
    """Every optimal path of a board (the first ``limit``) read from either table, as
    chunks (iterate it) or lines of text (:meth:`lines`).  The first path is walked in
    plain Python (it shows before numpy and the kernels have loaded); then the
    shortest-path graph gives :attr:`count` (once built) and a compiled walk the rest."""

    def __init__(
        self, board: Board, table: DistanceTable | TableFile, *, limit: int | None = None
    ) -> None:
        self.board, self.limit = board, limit
        self.table = table if isinstance(table, TableFile) else table.file
        self.count: int | None = None
        self.depth = -1  # moves a path, once the first is walked

    def __iter__(self) -> Iterator[np.ndarray]:
        import numpy as np

        for data, rows in self._run(K.RAW, None):
            yield np.frombuffer(data, dtype=np.int8).reshape(rows, -1).copy()

    def lines(self, writer: LineWriter) -> Iterator[tuple[bytes | memoryview, int]]:
        """``(bytes, paths)`` a buffer at a time: the paths as ``writer`` writes lines
        (a buffer is reused: write it out before asking for the next)."""
        yield from self._run(K.JSON if writer.json else K.TEXT, writer)

    def _run(
        self, form: int, writer: LineWriter | None
    ) -> Iterator[tuple[bytes | memoryview, int]]:
        board, table = self.board, self.table
        depth, walked = table.walk_plain(board.black, board.blank)[:2]  # the graph's first
        if depth < 0 or self.limit == 0:
            return
        self.depth = depth
        yield (writer.line(walked) if writer else bytes(walked)), 1
        left = None if self.limit is None else self.limit - 1
        if left == 0:
            return
        import numpy as np

        graph = path_graph(table, board, depth)
        self.count = graph.total
        kernels = native.kernels("table")
        bfirst, bend, label_at, labels, bblank = kernels.branch_graph(
            graph.first, graph.succ, graph.blanks
        )
        del graph
        width = writer.cells.shape[1] if writer else 1
        text = (kernels.label_text(bfirst, label_at, labels, bblank, writer.cells) if writer
                else np.zeros(0, dtype=np.uint8))  # fmt: skip
        state = np.zeros(K.STATE_SIZE, dtype=np.int64)
        state[K.INDEX] = state[K.SKIP] = 1  # the walked path is the graph's first
        stack = np.zeros((depth + 1, 3), dtype=np.int64)
        path = np.zeros(depth + 1, dtype=np.uint8)
        line = np.zeros(max(1, depth * width), dtype=np.uint8)
        if form == K.RAW:
            sizes = chunk_sizes(left)
            next(sizes)  # the walked path's
            out = np.empty(CHUNKS[-1] * (depth + 1), dtype=np.uint8)
        else:
            out = np.empty(max(LINES_BYTES, depth * width + K.SPARE), dtype=np.uint8)
        fixed = (bfirst, bend, label_at, labels, text, np.int64(walked[0]), np.int64(depth),
                 np.int64(width), np.int64(form))  # fmt: skip
        while True:
            most = next(sizes) if form == K.RAW else -1
            if left is not None:
                most = left if most < 0 else min(most, left)
            code = kernels.optimal_lines(*fixed, np.int64(most), state, stack, path, line, out)
            rows = int(state[K.PATHS])
            if rows:
                yield memoryview(out)[: state[K.BYTES]], rows  # type: ignore[arg-type]
            if left is not None:
                left -= rows
            if code == K.DONE or left == 0:
                return


table_paths = TablePaths

_MOVES = [Move(f, t) for f in range(NUM_SQUARES) for t in range(NUM_SQUARES)]  # [from * 25 + to]


def check_limit(limit: object) -> None:
    """A ``limit`` is ``None`` or a non-negative integer."""
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int)):
        raise TypeError(f"limit is an integer or None, got {limit!r}")
    if limit is not None and limit < 0:
        raise BitknightsError(f"limit must be non-negative, got {limit}")


def moves_of_chunks(chunks: Iterable[np.ndarray]) -> Iterator[tuple[Move, ...]]:
    """The move sequences of chunks of paths, a tuple of moves (each made once) a path."""
    import numpy as np

    moves = _MOVES.__getitem__
    for chunk in chunks:
        codes = chunk[:, 1:].astype(np.int16) * NUM_SQUARES + chunk[:, :-1]
        for row in codes.tolist():
            yield tuple(map(moves, row))


class LineWriter:
    """Paths as lines of text: the moves (``e5-c4``) separated by spaces, or (``json``)
    an object of its ``moves`` and its ``index``, counted from 0 over the lines written.
    One line in plain Python (:meth:`line`), many in a compiled kernel (:meth:`lines`)."""

    def __init__(self, json: bool = False) -> None:
        self.json = json
        self.written = 0
        template = '"{}",' if json else "{} "
        self._cells = [template.format(m).encode() for m in _MOVES]
        self._array: np.ndarray | None = None
        self._out: np.ndarray | None = None

    @property
    def cells(self) -> np.ndarray:
        """``cells[from * 25 + to]``: a move's text and the separator after it."""
        if self._array is None:
            import numpy as np

            cells = np.frombuffer(b"".join(self._cells), dtype=np.uint8)
            self._array = cells.reshape(len(_MOVES), -1)
        return self._array

    def line(self, path: list[int]) -> bytes:
        """The line of one path (the blank's squares), in plain Python."""
        moves = b"".join(self._cells[f * NUM_SQUARES + t] for t, f in zip(path, path[1:]))
        moves = moves[:-1]  # the last separator
        self.written += 1
        if not self.json:
            return moves + b"\n"
        head, tail, end = bytes(K.JSON_HEAD), bytes(K.JSON_TAIL), bytes(K.JSON_END)
        return head + moves + tail + str(self.written - 1).encode() + end

    def lines(self, chunk: np.ndarray) -> memoryview:
        """The lines of one chunk of paths, valid until the next call."""
        import numpy as np

        m, steps = chunk.shape[0], chunk.shape[1] - 1
        width = self.cells.shape[1]
        need = m * (steps * width + K.SPARE)
        if self._out is None or self._out.shape[0] < need:
            self._out = np.empty(need, dtype=np.uint8)
        line = np.zeros(max(1, steps * width), dtype=np.uint8)
        paths = np.ascontiguousarray(chunk, dtype=np.int8)
        size = native.kernels("table").format_paths(
            paths, self.cells, np.int64(K.JSON if self.json else K.TEXT), np.int64(self.written),
            line, self._out,
        )  # fmt: skip
        self.written += m
        return memoryview(self._out)[:size]  # type: ignore[arg-type]

    def write_all(
        self, chunks: Iterable[np.ndarray]
    ) -> Iterator[tuple[bytes | memoryview, int, int]]:
        """``(bytes, paths, moves a path)`` for every chunk of paths, a buffer at a time
        (reused: write it out before asking for the next)."""
        if isinstance(chunks, TablePaths):
            for data, rows in chunks.lines(self):
                yield data, rows, chunks.depth
            return
        for chunk in chunks:
            yield self.lines(chunk), len(chunk), chunk.shape[1] - 1
