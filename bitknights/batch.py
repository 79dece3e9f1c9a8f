"""The classic batch format (``T``, then ``T`` boards of five rows) and JSON Lines.

CRLF or CR line ends, a UTF-8 byte-order mark, blank lines and spaces or tabs around lines
are accepted; anything else wrong raises :class:`~bitknights.errors.InputError` naming the
line of the first problem.  :class:`BatchReader` streams packed keys in bounded memory.

>>> boards = read_batch("2\\n10110\\n01*11\\n10111\\n01001\\n00000\\n"
...                     "01011\\n110*1\\n01110\\n01010\\n00100\\n")
>>> len(boards), boards[0].blank
(2, 7)
>>> read_batch("2\\n10110\\n01*11\\n")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
bitknights.errors.InputError: line 4: board 1 is cut short: expected row 3 of 5, ...
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Iterable, Iterator, Sequence

from .board import Board, blank_problem, board_problem, looks_like_board, parse_row, quoted
from .errors import BoardError, InputError, plural

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, BinaryIO, TypeVar

    import numpy as np

    from .solution import Solution

    K = TypeVar("K")

ROWS = 5  # rows a board
WIDTH = 5  # cells a row
CELLS = ROWS * WIDTH
BLOCK_SIZE = 1 << 22
MAX_LINE = 4096  # the longest line read: longer is an error naming the line

# consecutive whole boards: their cells (25 bytes each, concatenated), the line of each of
# their rows, and the 0-based index of the first of them in the batch
Run = tuple[bytes, Sequence[int], int]

_SPACE = b" \t\f\v"
_BOM = b"\xef\xbb\xbf"


def decode(data: bytes) -> str:
    """Input bytes as UTF-8 text (a byte-order mark dropped), else an error naming the line."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(line, "the input is not UTF-8 text") from None


class BatchReader:
    """Stream the boards of a classic batch from a binary stream, block by block.

    ``count`` is ``T``, read on construction.  :meth:`chunks` (numpy) and
    :meth:`key_lists` (plain Python) yield the boards' keys in input order, raising
    :class:`InputError` at the first problem: iterate to the end to validate it all.
    """

    def __init__(self, stream: BinaryIO, *, block_size: int = BLOCK_SIZE) -> None:
        self._stream = stream
        self._block_size = block_size
        self._line = 0  # lines consumed so far
        self._tail = b""  # an incomplete last line carried to the next block
        self._pending: list[tuple[int, bytes]] = []  # header-search leftovers
        self._count_line = 1  # the line T was read from
        self._count_like_row = False  # T's line is five characters of 0 and 1: a board row?
        self._rows_seen = 0  # board rows accepted so far
        self.count = self._read_count()

    def _blocks(self) -> Iterator[tuple[int, bytes]]:
        """(number of the block's first line, complete lines with ``\\n`` ends)."""
        data = self._stream.read(self._block_size)
        # a byte-order mark may arrive split over blocks of fewer than 3 bytes
        while 0 < len(data) < 3 and _BOM.startswith(data):
            more = self._stream.read(self._block_size)
            if not more:
                break
            data += more
        if data.startswith(_BOM):
            data = data[3:] or self._stream.read(self._block_size)
        while True:
            if not data:
                tail = self._tail.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
                self._tail = b""
                if tail:
                    yield self._emit(tail if tail.endswith(b"\n") else tail + b"\n")
                return
            data = self._tail + data
            if data.endswith(b"\r"):
                data, self._tail = data[:-1], b"\r"
            else:
                self._tail = b""
            if b"\r" in data:
                data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
            cut = data.rfind(b"\n") + 1
            self._tail = data[cut:] + self._tail
            if len(self._tail) - self._tail.endswith(b"\r") > MAX_LINE:  # (not buffered on)
                raise _long_line(self._line + data[:cut].count(b"\n") + 1)
            if cut:
                yield self._emit(data[:cut])
            data = self._stream.read(self._block_size)

    def _emit(self, block: bytes) -> tuple[int, bytes]:
        first = self._line + 1
        self._line += block.count(b"\n")
        return first, block

    def _read_count(self) -> int:
        self._gen = self._blocks()
        for first, block in self._gen:
            pos, no = 0, first - 1
            while pos < len(block):
                end = block.index(b"\n", pos)
                if end - pos > MAX_LINE:
                    raise _long_line(no + 1)
                word = block[pos:end].strip(_SPACE)
                no, pos = no + 1, end + 1
                if not word:
                    continue
                text = _utf8(no, word)
                if looks_like_board(text):  # e.g. `echo BOARD | bitknights solve`
                    return self._lone_board(no, text, block[pos:])
                self._count_line = no
                self._count_like_row = parse_row(word.decode()) is None
                row_like = self._count_like_row and not word.strip(b"0").isdigit()
                if row_like or not word.isdigit():
                    lacks = (
                        ", which looks like a board row: the input seems to lack its count "
                        "line; add a first line with the number of boards ('1' for one board)"
                    )
                    raise InputError(
                        no,
                        "expected the number of boards T (a positive integer), got "
                        f"{quoted(word)}{lacks if row_like else ''}",
                    )
                if len(word.lstrip(b"0")) > 15:
                    raise InputError(no, f"the number of boards T is too large: {quoted(word)}")
                count = int(word)
                if count <= 0:
                    raise InputError(no, f"the number of boards T must be positive, got {count}")
                if pos < len(block):
                    self._pending = [(no + 1, block[pos:])]
                return count
        raise InputError(1, "empty input: expected the number of boards T")

    def _lone_board(self, no: int, text: str, rest: bytes) -> int:
        """A board on one line in place of ``T``: a batch of one when nothing follows."""
        more = rest.strip(_SPACE + b"\n") or next((b for _, b in self._gen if b.strip()), b"")
        if more:
            raise InputError(
                no,
                f"expected the number of boards T, got a board on one line ({quoted(text)}); "
                "a batch is T, then T boards of five rows (a board alone may stand on one line)",
            )
        problem = board_problem(text)
        if problem:
            raise InputError(no, f"board 1: {problem}")
        rows = Board(text).rows()
        self._pending = [(no, "".join(f"{row}\n" for row in rows).encode())]
        self._count_line = no
        return 1

    def chunks(self) -> Iterator[np.ndarray]:
        """The boards as ``int64`` arrays of packed keys, checked as they come."""
        import numpy as np

        def pack(runs: list[Run]) -> np.ndarray:
            keys = [_pack(*run) for run in runs]
            return keys[0] if len(keys) == 1 else np.concatenate(keys)

        return self._keys(pack)

    def key_lists(self) -> Iterator[list[int]]:
        """:meth:`chunks` as lists of ints, without numpy (a few µs a board)."""
        return self._keys(lambda runs: [key for run in runs for key in _pack_list(*run)])

    def _keys(self, pack: Callable[[list[Run]], K]) -> Iterator[K]:
        try:
            for runs in self._runs():
                yield pack(runs)
        except InputError as e:
            raise self._explained(e) from None

    def _explained(self, e: InputError) -> InputError:
        """``e``, or when T's line looks like a board row and the boards do not line up,
        the likelier mistake: a batch without its count line."""
        problem = e.problem  # misaligned boards: a count, a row or a blank wrong
        if not self._count_like_row or not (
            problem.startswith("expected ") or "is cut short" in problem or "one blank" in problem
        ):
            return e
        rows = self._rows_seen + 1  # the count's line is a row too
        at_end = "one blank" not in problem  # then every row has been seen
        fix = f"'{rows // ROWS}'" if at_end and rows % ROWS == 0 else "with the number of boards"
        return InputError(
            self._count_line,
            f"this line was read as the number of boards T ({self.count}), but it looks like "
            f"a board row: the input seems to lack its count line; add a first line {fix}",
        )

    def _runs(self) -> Iterator[list[Run]]:
        """Per block of input, the whole boards it completes (one or two runs); raises at
        the first problem, after the boards before it."""
        done = 0  # rows accepted so far
        total = ROWS * self.count
        self._rows_seen = 0
        carry, carry_lines = b"", list[int]()  # rows so far of a board cut by a block's end
        last_line = self._line
        for first, block in itertools.chain(self._pending, self._gen):
            rows, lines, err = self._rows(first, block, done, total)
            if len(lines):
                last_line = lines[-1]
            board = (done - len(carry_lines)) // ROWS
            done += len(lines)
            self._rows_seen = done
            runs: list[Run] = []
            if carry_lines:
                need = ROWS - len(carry_lines)
                carry += rows[: need * WIDTH]
                carry_lines += list(lines[:need])
                rows, lines = rows[need * WIDTH :], lines[need:]
                if len(carry_lines) == ROWS:
                    runs.append((carry, carry_lines, board))
                    board += 1
                    carry, carry_lines = b"", []
            whole = len(lines) // ROWS * ROWS
            if whole:
                runs.append((rows[: whole * WIDTH], lines[:whole], board))
            if whole < len(lines):
                carry, carry_lines = rows[whole * WIDTH :], list(lines[whole:])
            if runs:
                yield runs
            if err is not None:
                raise err
        if done < total:
            k, r = divmod(done, ROWS)
            if r:
                raise InputError(
                    last_line + 1,
                    f"board {k + 1} is cut short: expected row {r + 1} of 5, "
                    "found the end of the input",
                )
            raise InputError(last_line + 1, f"expected {plural(self.count, 'board')}, found {k}")

    def _rows(
        self, first: int, block: bytes, done: int, total: int
    ) -> tuple[bytes, Sequence[int], InputError | None]:
        """The block's rows (concatenated), their line numbers, and its first problem."""
        n = len(block) // 6
        if (
            len(block) % 6 == 0
            and done + n <= total
            and not block.translate(None, b"01*\n")
            and block.count(b"\n") == n
            and block[5::6] == b"\n" * n
        ):
            return block.replace(b"\n", b""), range(first, first + n), None
        rows: list[bytes] = []
        numbers: list[int] = []
        err = None
        for i, raw in enumerate(block.split(b"\n")[:-1]):
            if len(raw) > MAX_LINE:
                err = _long_line(first + i)
                break
            row = raw.strip(_SPACE)
            if not row:
                continue
            no = first + i
            g = done + len(rows)
            if g >= total:
                err = InputError(
                    no, f"unexpected content after the {plural(self.count, 'board')}: {quoted(row)}"
                )
                break
            text = _utf8(no, row)
            problem = parse_row(text)
            if problem:
                err = InputError(no, f"board {g // ROWS + 1}, row {g % ROWS + 1}: {problem}")
                break
            rows.append(row)
            numbers.append(no)
        return b"".join(rows), numbers, err


def _long_line(line: int) -> InputError:
    return InputError(line, f"a line longer than {MAX_LINE:,} bytes (a board row has 5 characters)")


def _utf8(line: int, data: bytes) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(line, "the input is not UTF-8 text") from None


def _blank_error(lines: Sequence[int], board_offset: int, b: int, cells: bytes) -> InputError:
    board = cells[b * CELLS : (b + 1) * CELLS].decode("ascii")
    return InputError(lines[b * ROWS], f"board {board_offset + b + 1}: {blank_problem(board)}")


def _pack(cells: bytes, lines: Sequence[int], board_offset: int) -> np.ndarray:
    """Keys of consecutive boards (25 cells each)."""
    import numpy as np

    grid = np.frombuffer(cells, dtype=np.uint8).reshape(-1, CELLS)
    blank = grid == ord("*")
    nblank = blank.sum(axis=1)
    bad = np.flatnonzero(nblank != 1)
    if len(bad):
        raise _blank_error(lines, board_offset, int(bad[0]), cells)
    packed = np.packbits(grid == ord("1"), axis=1, bitorder="little")  # 25 bits -> 4 bytes
    black = np.ascontiguousarray(packed).view("<u4")[:, 0].astype(np.int64)
    return black | blank.argmax(axis=1).astype(np.int64) << 25


_BLACK_DIGITS = bytes.maketrans(b"*", b"0")


def _pack_list(cells: bytes, lines: Sequence[int], board_offset: int) -> list[int]:
    """:func:`_pack` in plain Python."""
    keys = []
    for b in range(len(cells) // CELLS):
        board = cells[b * CELLS : (b + 1) * CELLS]
        if board.count(b"*") != 1:
            raise _blank_error(lines, board_offset, b, cells)
        # square 0 is the first cell and bit 0 of the mask: read the cells backwards
        black = int(board[::-1].translate(_BLACK_DIGITS), 2)
        keys.append(black | board.index(b"*") << 25)
    return keys


def read_batch(text: str | bytes) -> list[Board]:
    """The boards of a classic batch, validated in full before anything is returned."""
    data = text.encode("utf-8") if isinstance(text, str) else text
    reader = BatchReader(io.BytesIO(data))
    return [Board.from_key(k) for keys in reader.key_lists() for k in keys]


def read_board(text: str) -> Board:
    """One board of five rows, e.g. a ``--target`` file."""
    lines = text.lstrip("\ufeff").replace("\r\n", "\n").replace("\r", "\n").split("\n")
    rows = [(no, s) for no, line in enumerate(lines, 1) if (s := line.strip(" \t\f\v"))]
    if len(rows) != ROWS:
        where = rows[ROWS][0] if len(rows) > ROWS else (rows[-1][0] + 1 if rows else 1)
        raise InputError(where, f"a board has 5 rows, found {len(rows)}")
    for r, (no, row) in enumerate(rows, 1):
        problem = parse_row(row)
        if problem:
            raise InputError(no, f"row {r}: {problem}")
    try:
        return Board("/".join(row for _, row in rows))
    except BoardError as e:
        raise InputError(rows[0][0], str(e)) from None


def json_line(record: dict[str, Any]) -> str:
    """One JSON Lines record as every command writes it (compact separators)."""
    import json  # not at the top: the classic path does without it

    return json.dumps(record, separators=(",", ":")) + "\n"


def json_lines(solutions: Iterable[Solution], *, path: bool = False) -> Iterator[str]:
    """One JSON object per board (see :meth:`Solution.to_dict`)."""
    for s in solutions:
        yield json_line(s.to_dict(path=path))
