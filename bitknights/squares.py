"""Squares, bitboard constants and the knight-move tables every engine shares.

Squares are named as chess players name them: a file letter ``a``..``e`` from left to
right and a rank number ``1``..``5`` from the bottom, so the first line of a board as read
is rank 5 (as FEN lists rank 8 first), ``a5`` is the first character of the input, ``e1``
the last and ``c3`` the centre::

      a b c d e
    5 . . . . .  <- the first input line
    4 . . . . .
    3 . . . . .
    2 . . . . .
    1 . . . . .  <- the last input line

>>> square_name(0), square_name(4), square_name(12), square_name(20), square_name(24)
('a5', 'e5', 'c3', 'a1', 'e1')
>>> parse_square("c3"), parse_square("a5"), parse_square("e1")
(12, 0, 24)

Inside, a square is an index ``r * 5 + c`` (row from the top, column from the left), and a
bitboard an ``int`` whose bit ``sq`` marks square ``sq``.  The knight tables are tuples
for plain Python and numpy arrays for the kernels, built on first access (:func:`__getattr__`).
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeAlias

    import numpy as np

Square: TypeAlias = int
Bitboard: TypeAlias = int

SIZE = 5
NUM_SQUARES = SIZE * SIZE
FULL_MASK: Bitboard = (1 << NUM_SQUARES) - 1

SQUARE_NAMES: tuple[str, ...] = tuple(
    f"{'abcde'[sq % SIZE]}{SIZE - sq // SIZE}" for sq in range(NUM_SQUARES)
)
"""``SQUARE_NAMES[sq]`` is :func:`square_name` ``(sq)``."""
_SQUARE_BY_NAME = {name: sq for sq, name in enumerate(SQUARE_NAMES)}

KNIGHT_OFFSETS: tuple[tuple[int, int], ...] = (
    (-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1),
)  # fmt: skip
MAX_DEGREE = len(KNIGHT_OFFSETS)


def square_name(sq: Square) -> str:
    """The chess name of square ``sq``."""
    return SQUARE_NAMES[sq]


def parse_square(name: str) -> Square:
    """The index of the square named ``name`` (else :class:`~bitknights.errors.BoardError`)."""
    if not isinstance(name, str):
        raise TypeError(f"a square name is text such as 'c3', not {type(name).__name__}")
    try:
        return _SQUARE_BY_NAME[name.strip().lower()]
    except KeyError:
        from .errors import BoardError

        raise BoardError(f"not a square name: {name!r} (expected a1..e5)") from None


# KNIGHT_TARGETS[sq]: the squares a knight's jump from sq; KNIGHT_TARGET_MASKS[sq]: as a mask
KNIGHT_TARGETS: tuple[tuple[Square, ...], ...] = tuple(
    tuple(
        (r + dr) * SIZE + c + dc
        for dr, dc in KNIGHT_OFFSETS
        if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE
    )
    for r, c in (divmod(sq, SIZE) for sq in range(NUM_SQUARES))
)
KNIGHT_TARGET_MASKS: tuple[Bitboard, ...] = tuple(
    sum(1 << t for t in targets) for targets in KNIGHT_TARGETS
)


def __getattr__(name: str) -> np.ndarray:
    """The numpy knight tables (read-only ``int64``), built on first access:
    ``KNIGHT_NEIGHBORS[sq]`` (padded with -1), ``KNIGHT_COUNTS``, ``KNIGHT_MASKS`` and
    ``KNIGHT_DISTANCE[a, b]`` (fewest jumps from a to b on the empty board)."""
    if name not in ("KNIGHT_NEIGHBORS", "KNIGHT_COUNTS", "KNIGHT_MASKS", "KNIGHT_DISTANCE"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import numpy as np

    dist = np.full((NUM_SQUARES, NUM_SQUARES), NUM_SQUARES, dtype=np.int64)
    np.fill_diagonal(dist, 0)
    for sq, targets in enumerate(KNIGHT_TARGETS):
        dist[sq, list(targets)] = 1
    for via in range(NUM_SQUARES):  # Floyd-Warshall (the knight's graph is connected)
        dist = np.minimum(dist, dist[:, via, None] + dist[via])
    tables = {
        "KNIGHT_NEIGHBORS": [[*t, *[-1] * (MAX_DEGREE - len(t))] for t in KNIGHT_TARGETS],
        "KNIGHT_COUNTS": [len(t) for t in KNIGHT_TARGETS],
        "KNIGHT_MASKS": KNIGHT_TARGET_MASKS,
        "KNIGHT_DISTANCE": dist,
    }
    for key, value in tables.items():
        globals()[key] = array = np.array(value, dtype=np.int64)
        array.setflags(write=False)
    return globals()[name]


def square_color(sq: Square) -> int:
    """0 for a light square, 1 for a dark one: every move changes the blank's colour."""
    r, c = divmod(sq, SIZE)
    return (r + c) & 1
