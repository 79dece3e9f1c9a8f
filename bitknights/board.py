"""The ``Board`` value type: white knights ``0``, black knights ``1`` and one blank ``*``
on squares 0..24, held as the black mask and the blank's square (the *key*
``black | blank << 25`` packs both).

>>> b = Board("10110/01*11/10111/01001/00000")
>>> print(b)
10110
01*11
10111
01001
00000
>>> square_name(b.blank)
'c4'
>>> [str(m) for m in b.moves()][:3]
['a5-c4', 'e5-c4', 'a3-c4']
>>> b.play("a5")
Board('*0110/01111/10111/01001/00000')
>>> TARGET == Board(TARGET.compact) == eval(repr(TARGET))
True
"""

from __future__ import annotations

from operator import itemgetter

from .coords import KEY_SHIFT
from .errors import BoardError, plural
from .squares import (
    FULL_MASK,
    KNIGHT_TARGET_MASKS,
    KNIGHT_TARGETS,
    NUM_SQUARES,
    SIZE,
    Bitboard,
    Square,
    parse_square,
    square_name,
)

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Iterator


class Move(tuple[Square, Square]):
    """The knight on ``from_square`` jumps into the blank on ``to_square``: a pair of
    squares written with their chess names (whether the jump is legal is the board's
    business).

    >>> m = Move("e5-c4")
    >>> m, str(m), m == Move(4, 7) == Move("e5", "c4"), m.from_square, m.to_square
    (Move('e5-c4'), 'e5-c4', True, 4, 7)
    >>> frm, to = m
    >>> Move("e5")
    Traceback (most recent call last):
    ...
    bitknights.errors.BoardError: a move is written FROM-TO, such as 'e5-c4', got 'e5'
    """

    __slots__ = ()
    _fields = ("from_square", "to_square")  # as a named tuple's: dataclasses.asdict copies it

    def __new__(cls, from_square: Square | str, to_square: Square | str | None = None) -> Move:
        if (  # two square indices: the fast path
            type(from_square) is int
            and type(to_square) is int
            and 0 <= from_square < NUM_SQUARES
            and 0 <= to_square < NUM_SQUARES
        ):
            return tuple.__new__(cls, (from_square, to_square))
        if to_square is None:
            if not isinstance(from_square, str) or "-" not in from_square:
                raise BoardError(f"a move is written FROM-TO, such as 'e5-c4', got {from_square!r}")
            from_square, to_square = from_square.split("-", 1)
        return tuple.__new__(cls, (_move_square(from_square), _move_square(to_square)))

    from_square = property(itemgetter(0), doc="The square of the knight that jumps.")
    to_square = property(itemgetter(1), doc="The blank's square, where the knight lands.")

    def __getnewargs__(self) -> tuple[Square, Square]:  # pickling
        return self[0], self[1]

    def __str__(self) -> str:
        return f"{square_name(self[0])}-{square_name(self[1])}"

    def __repr__(self) -> str:
        return f"Move({str(self)!r})"


def _move_square(square: Square | str) -> Square:
    if isinstance(square, str):
        return parse_square(square)
    if not isinstance(square, bool) and hasattr(square, "__index__"):
        index = square.__index__()
        if 0 <= index < NUM_SQUARES:
            return index
    raise BoardError(f"a move's square is a name such as 'c3' or an index 0..24, not {square!r}")


class Board:
    """An immutable 5×5 knights board: hashable, comparable, ``repr`` evaluates back.

    ``Board(text)`` accepts five lines of five characters from ``0 1 *``, the
    25-character compact form, or the rows joined by ``/``; or another ``Board``.

    >>> Board(TARGET) == TARGET
    True
    """

    __slots__ = ("_black", "_blank")

    _black: Bitboard
    _blank: Square

    def __init__(self, text: str | Board) -> None:
        black, blank = (text._black, text._blank) if isinstance(text, Board) else _parse(text)
        object.__setattr__(self, "_black", black)
        object.__setattr__(self, "_blank", blank)

    @classmethod
    def from_key(cls, key: int) -> Board:
        """The board with packed key ``black | blank << 25`` (see :attr:`key`)."""
        if isinstance(key, bool) or not hasattr(key, "__index__"):
            raise TypeError(f"a board key is an integer, got {key!r}")
        key = int(key)
        blank = key >> KEY_SHIFT
        black = key & FULL_MASK
        if not 0 <= blank < NUM_SQUARES or black >> blank & 1:
            raise BoardError(f"not a board key: {key}")
        return cls._make(black, blank)

    @classmethod
    def from_masks(cls, white: Bitboard, black: Bitboard, blank: Square) -> Board:
        """The board with these white and black masks and blank square."""
        white, black, blank = int(white), int(black), int(blank)
        if not 0 <= blank < NUM_SQUARES:
            raise BoardError(f"blank square {blank} is not in 0..24")
        if white & black or (white | black) != FULL_MASK & ~(1 << blank):
            raise BoardError("white, black and blank do not partition the 25 squares")
        return cls._make(black, blank)

    @classmethod
    def _make(cls, black: Bitboard, blank: Square) -> Board:
        self = object.__new__(cls)
        object.__setattr__(self, "_black", black)
        object.__setattr__(self, "_blank", blank)
        return self

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError("Board is immutable")

    @property
    def black(self) -> Bitboard:
        """Bitboard of the black knights (``1``)."""
        return self._black

    @property
    def blank(self) -> Square:
        """The blank's square."""
        return self._blank

    @property
    def white(self) -> Bitboard:
        """Bitboard of the white knights (``0``)."""
        return FULL_MASK & ~self._black & ~(1 << self._blank)

    @property
    def key(self) -> int:
        """The packed state ``black | blank << 25``: one integer, unique per board."""
        return self._black | self._blank << KEY_SHIFT

    @property
    def counts(self) -> tuple[int, int]:
        """``(white knights, black knights)``."""
        nb = self._black.bit_count()
        return NUM_SQUARES - 1 - nb, nb

    def moves(self) -> list[Move]:
        """The legal moves: each knight a knight's jump from the blank."""
        return [Move(sq, self._blank) for sq in KNIGHT_TARGETS[self._blank]]

    def children(self) -> Iterator[tuple[Move, Board]]:
        """Each legal move with the board it makes."""
        for m in self.moves():
            yield m, self._moved(m.from_square)

    def play(self, move: Move | Square | str) -> Board:
        """The board after ``move``: a :class:`Move`, the square of the knight that jumps
        (index or name such as ``'b5'``), or ``'b5-c3'`` text; :class:`BoardError` if
        illegal."""
        frm = self._move_source(move)
        if not KNIGHT_TARGET_MASKS[self._blank] >> frm & 1:
            raise BoardError(
                f"illegal move: no knight's jump from {square_name(frm)} "
                f"to the blank on {square_name(self._blank)}"
            )
        return self._moved(frm)

    def _move_source(self, move: Move | Square | str) -> Square:
        if isinstance(move, Move):
            if move.to_square != self._blank:
                raise BoardError(f"illegal move {move}: the blank is on {square_name(self._blank)}")
            return move.from_square
        if isinstance(move, str):
            text = move.strip()
            return self._move_source(Move(text)) if "-" in text else parse_square(text)
        if isinstance(move, int) and not isinstance(move, bool) and 0 <= move < NUM_SQUARES:
            return move
        raise BoardError(f"not a move: {move!r}")

    def _moved(self, frm: Square) -> Board:
        black = self._black
        if black >> frm & 1:
            black ^= (1 << frm) | (1 << self._blank)
        return Board._make(black, frm)

    def cell(self, sq: Square) -> str:
        """``'0'``, ``'1'`` or ``'*'``: what stands on square ``sq``."""
        if sq == self._blank:
            return "*"
        return "1" if self._black >> sq & 1 else "0"

    @property
    def compact(self) -> str:
        """The 25-character form: rows concatenated (the JSON form)."""
        return "".join(self.cell(sq) for sq in range(NUM_SQUARES))

    def rows(self) -> list[str]:
        """The five rows, top first."""
        c = self.compact
        return [c[i : i + SIZE] for i in range(0, NUM_SQUARES, SIZE)]

    def __str__(self) -> str:
        return "\n".join(self.rows())

    def __repr__(self) -> str:
        return f"Board({'/'.join(self.rows())!r})"

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Board):
            return NotImplemented
        return self._black == other._black and self._blank == other._blank

    def __hash__(self) -> int:
        return hash(self.key)

    def __reduce__(self) -> tuple[type[Board], tuple[str]]:
        return Board, (self.compact,)

    def _repr_html_(self) -> str:
        """The notebook view (:func:`bitknights.render.board_html`)."""
        from .render import board_html

        return board_html(self)


def parse_row(row: str) -> str | None:
    """``None`` when ``row`` is five characters of ``0 1 *``, else what is wrong with it.

    >>> parse_row("1011"), parse_row("1O111")
    ("expected a row of five characters from '0', '1', '*', got '1011' (4 characters)", \
"expected a row of five characters from '0', '1', '*', got '1O111' (character 2 is 'O')")
    """
    found = []
    if len(row) != SIZE:
        found.append(plural(len(row), "character"))
    bad = next(((i, ch) for i, ch in enumerate(row, 1) if ch not in "01*"), None)
    if bad is not None:
        found.append(f"character {bad[0]} is {bad[1]!r}")
    if not found:
        return None
    why = ", ".join(found)
    return f"expected a row of five characters from '0', '1', '*', got {quoted(row)} ({why})"


def quoted(text: str | bytes) -> str:
    """The ``repr`` of ``text`` (bytes read as UTF-8), cut to 40 characters."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    return repr(text if len(text) <= 40 else text[:37] + "...")


def looks_like_board(text: str) -> bool:
    """Whether one line of text was meant as a board, typos and all: at least 15 of its
    characters, and most, are cells, and it is not just digits (a count).

    >>> looks_like_board("10110/01*11/10111/01001/00002"), looks_like_board("boards.txt")
    (True, False)
    """
    cells = sum(ch in "01*" for ch in text)
    return cells >= 15 and 5 * cells >= 3 * len(text) and not text.strip().isdigit()


def board_problem(text: str) -> str | None:
    """What is wrong with one line of text as a board; ``None`` for a board.

    >>> board_problem("10110/01*11/10111/01001/00002")
    "character 29 is '2' (cells are 0, 1, *)"
    >>> board_problem("10110-01*11-10111-01001-00000")
    "character 6 is '-' (rows are joined by '/')"
    """
    try:
        _parse(text)
        return None
    except BoardError as e:
        problem = str(e)
    return _stray(text.strip(), "01*/") or problem


def _stray(text: str, allowed: str) -> str | None:
    i, ch = next(((i, ch) for i, ch in enumerate(text, 1) if ch not in allowed), (0, ""))
    if not ch:
        return None
    why = "cells are 0, 1, *" if ch.isalnum() else "rows are joined by '/'"
    return f"character {i} is {ch!r} ({why})"


def _parse(text: str) -> tuple[Bitboard, Square]:
    if not isinstance(text, str):
        raise BoardError(f"a board is given as text, not {type(text).__name__}")
    stripped = text.strip().lstrip("\ufeff")
    if "\n" in stripped or "/" in stripped:
        sep = "\n" if "\n" in stripped else "/"
        rows = [r.strip() for r in stripped.split(sep) if r.strip()]
        if len(rows) != SIZE:
            raise BoardError(f"a board has 5 rows, got {len(rows)}")
        for i, r in enumerate(rows, 1):
            problem = parse_row(r)
            if problem:
                raise BoardError(f"row {i}: {problem}")
        cells = "".join(rows)
    else:
        cells = stripped
        stray = _stray(cells, "01*")
        if stray:
            raise BoardError(stray)
        if len(cells) != NUM_SQUARES:
            raise BoardError(
                f"expected 5 rows or 25 characters from '0', '1', '*', got {len(cells)}: "
                f"{_census(cells)}"
            )
    if cells.count("*") != 1:
        raise BoardError(blank_problem(cells))
    # square 0 is the first cell and bit 0 of the mask: read the cells backwards
    return int(cells[::-1].replace("*", "0"), 2), cells.index("*")


def blank_problem(cells: str) -> str:
    """The error of 25 cells without exactly one blank, saying what they hold.

    >>> blank_problem("1011001*1110*110100100000")
    "a board needs exactly one blank '*', found 2 (12 white knights, 11 black, 2 blanks)"
    """
    return f"a board needs exactly one blank '*', found {cells.count('*')} ({_census(cells)})"


def _census(cells: str) -> str:
    white, black, blank = cells.count("0"), cells.count("1"), cells.count("*")
    return f"{plural(white, 'white knight')}, {black} black, {plural(blank, 'blank')}"


def as_board(board: Board | str) -> Board:
    """``board`` itself when it is a :class:`Board`, else the board its text spells.

    >>> as_board("10110/01*11/10111/01001/00000").blank
    7
    >>> as_board(3)
    Traceback (most recent call last):
    TypeError: a board is a Board or its text, not int
    """
    if isinstance(board, Board):
        return board
    if not isinstance(board, str):
        raise TypeError(f"a board is a Board or its text, not {type(board).__name__}")
    return Board(board)


def never_reaches(board: Board, target: Board) -> str | None:
    """Why ``board`` can never reach ``target`` (other knight counts), else ``None``.

    >>> never_reaches(Board("10110/01*11/10111/01001/00001"), TARGET)
    'never reaches the target: it has 13 black knights, the target 12 (moves never change it)'
    """
    have, want = board.counts[1], target.counts[1]
    if have == want:
        return None
    return (
        f"never reaches the target: it has {plural(have, 'black knight')}, "
        f"the target {want} (moves never change it)"
    )


TARGET = Board("11111/01111/00*11/00001/00000")
"""The classic target board of SCOI2005."""
