"""The classic batch format (``T``, then ``T`` boards of five rows) and JSON Lines.

Reading is strict but forgiving of layout: CRLF or CR line ends, a UTF-8 byte-order mark,
blank lines anywhere and spaces around lines are accepted.  Anything else wrong raises
:class:`~bitknights.errors.InputError` naming the 1-based line, and the whole input is
checked before a single board is returned.

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

import json
from collections.abc import Iterable, Iterator

from .board import Board, cells_to_state, parse_row
from .errors import BoardError, InputError
from .solution import Solution

ROWS = 5


def decode(data: bytes) -> str:
    """Input bytes as text: UTF-8 (a byte-order mark is dropped); names the line of the
    first byte that is not UTF-8."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data[: e.start].count(b"\n") + 1
        raise InputError(line, "the input is not UTF-8 text") from None


def _lines(text: str) -> Iterator[tuple[int, str]]:
    """(line number, stripped content) of every non-blank line."""
    text = text.lstrip("\ufeff")
    for no, raw in enumerate(text.replace("\r\n", "\n").replace("\r", "\n").split("\n"), 1):
        s = raw.strip()
        if s:
            yield no, s


def read_batch(text: str) -> list[Board]:
    """The boards of a classic batch, validated in full before anything is returned."""
    lines = _lines(text)
    first = next(lines, None)
    if first is None:
        raise InputError(1, "empty input: expected the number of boards T")
    no, word = first
    if not (word.isascii() and word.isdigit()):
        raise InputError(
            no, f"expected the number of boards T (a positive integer), got {_show(word)}"
        )
    count = int(word)
    if count <= 0:
        raise InputError(no, f"the number of boards T must be positive, got {count}")
    boards: list[Board] = []
    last = no
    for k in range(1, count + 1):
        rows = []
        first_line = None
        for r in range(1, ROWS + 1):
            item = next(lines, None)
            if item is None:
                raise InputError(
                    last + 1,
                    f"board {k} is cut short: expected row {r} of 5, found the end of the input"
                    if r > 1
                    else f"expected {count} boards, found {k - 1}",
                )
            last, row = item
            first_line = first_line or last
            problem = parse_row(row)
            if problem:
                raise InputError(last, f"board {k}, row {r}: {problem}")
            rows.append(row)
        try:
            black, blank = cells_to_state("".join(rows))
        except BoardError as e:
            raise InputError(first_line, f"board {k}: {e}") from None
        boards.append(Board._make(black, blank))
    extra = next(lines, None)
    if extra is not None:
        raise InputError(
            extra[0], f"unexpected content after the {count} boards: {_show(extra[1])}"
        )
    return boards


def _show(s: str) -> str:
    return repr(s if len(s) <= 40 else s[:37] + "...")


def read_board(text: str) -> Board:
    """One board (five rows, blank lines and spaces ignored), e.g. a ``--target`` file."""
    rows = list(_lines(text))
    if len(rows) != ROWS:
        where = rows[ROWS][0] if len(rows) > ROWS else (rows[-1][0] + 1 if rows else 1)
        raise InputError(where, f"a board has 5 rows, found {len(rows)}")
    for r, (no, row) in enumerate(rows, 1):
        problem = parse_row(row)
        if problem:
            raise InputError(no, f"row {r}: {problem}")
    try:
        black, blank = cells_to_state("".join(row for _, row in rows))
    except BoardError as e:
        raise InputError(rows[0][0], str(e)) from None
    return Board._make(black, blank)


def classic_lines(solutions: Iterable[Solution]) -> Iterator[str]:
    """The classic answer per board: the move count, or ``-1``."""
    for s in solutions:
        yield f"{-1 if s.steps is None else s.steps}\n"


def json_lines(solutions: Iterable[Solution], *, path: bool = False) -> Iterator[str]:
    """One JSON object per board (see :meth:`Solution.to_dict`)."""
    for s in solutions:
        yield json.dumps(s.to_dict(path=path), separators=(",", ":")) + "\n"
