"""Plain-text pictures for terminals: boards, a solution's path, the distance histogram.

Plain text uses the board's own characters ``0 1 *``; with ``unicode=True`` a white
knight is ``♘``, a black one ``♞`` and the blank ``·``, cells one space apart:

>>> from bitknights import TARGET
>>> print(board_text(TARGET, unicode=True))
♞ ♞ ♞ ♞ ♞
♘ ♞ ♞ ♞ ♞
♘ ♘ · ♞ ♞
♘ ♘ ♘ ♘ ♞
♘ ♘ ♘ ♘ ♘
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..board import Board
    from ..solution import Solution

GLYPHS = str.maketrans({"0": "\u2658", "1": "\u265e", "*": "\u00b7"})  # ♘ ♞ ·: str.translate


def board_rows(board: Board, *, unicode: bool = False) -> list[str]:
    """The five rows of ``board``, top first (with ``unicode``: glyphs, spaced)."""
    if not unicode:
        return board.rows()
    return [" ".join(row.translate(GLYPHS)) for row in board.rows()]


def board_text(board: Board, *, unicode: bool = False) -> str:
    """``board`` as five lines (see :func:`board_rows`)."""
    return "\n".join(board_rows(board, unicode=unicode))


def path_text(solution: Solution, *, per_line: int | None = None, unicode: bool = False) -> str:
    """The move list, then the boards along the path side by side (``per_line``, default
    8 plain, 6 with ``unicode``: 80 columns), each headed by the move that made it.

    >>> from bitknights import Board, solve
    >>> print(path_text(solve(Board("11111/011*1/00111/00001/00000")), per_line=2))
    moves (2): b5-d4 c3-b5
    start  1 b5-d4
    11111  1*111
    011*1  01111
    00111  00111
    00001  00001
    00000  00000
    2 c3-b5
    11111
    01111
    00*11
    00001
    00000
    """
    if solution.steps is None:
        status = str(getattr(solution.status, "value", solution.status))
        return f"no solution ({status.replace('_', ' ')})"
    if per_line is None:
        per_line = 6 if unicode else 8
    if per_line < 1:
        raise ValueError(f"per_line must be at least 1, got {per_line}")
    row_width = 11 if unicode else 7  # a row plus two spaces of gutter
    moves, boards = solution.moves, solution.boards
    heads = ["start"] + [f"{k} {m}" for k, m in enumerate(moves, 1)]
    lines = [f"moves ({len(moves)}): " + (" ".join(str(m) for m in moves) or "none")]
    for lo in range(0, len(boards), per_line):
        chunk = zip(heads[lo : lo + per_line], boards[lo : lo + per_line])
        panels = [[head, *board_rows(b, unicode=unicode)] for head, b in chunk]
        width = [max(row_width, len(p[0]) + 1) for p in panels]
        for r in range(6):  # the heading, then the board's five rows
            lines.append("".join(p[r].ljust(w) for p, w in zip(panels, width)).rstrip())
    return "\n".join(lines)


def layer_counts(layers: Sequence[int] | Mapping[int, int]) -> list[int]:
    """Counts at distance 0, 1, 2, ... from a list or a ``{distance: count}`` mapping."""
    if isinstance(layers, Mapping):
        top = max(layers, default=-1)
        counts = [layers.get(d, 0) for d in range(top + 1)]
    else:
        counts = list(layers)
    if any(c < 0 for c in counts):
        raise ValueError("layer counts must be non-negative")
    return counts


def distribution_text(
    layers: Sequence[int] | Mapping[int, int], *, width: int = 50, log: bool = False, bar: str = "#"
) -> str:
    """A text histogram of how many boards lie at each distance (``log``: bars on a log
    scale), then the total.

    >>> print(distribution_text([1, 8, 40], width=10))
    distance  boards
           0       1  #
           1       8  ##
           2      40  ##########
    total 49 boards, largest distance 2
    """
    counts = layer_counts(layers)
    if not counts:
        return "no boards"
    top = max(counts)

    def length(c: int) -> int:
        if c <= 0 or top <= 0:
            return 0
        frac = math.log1p(c) / math.log1p(top) if log else c / top
        return max(1, round(width * frac))

    cw = max(6, len(f"{top:,}"))
    lines = [f"distance  {'boards'.rjust(cw)}"]
    for d, c in enumerate(counts):
        lines.append(f"{d:>8}  {c:>{cw},}  {bar * length(c)}".rstrip())
    far = max((d for d, c in enumerate(counts) if c), default=0)
    lines.append(f"total {sum(counts):,} boards, largest distance {far}")
    return "\n".join(lines)
