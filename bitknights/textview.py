"""Plain-text pictures of boards and paths, for terminals."""

from __future__ import annotations

from .solution import Solution

_PANEL = 7  # a 5-character row plus two spaces of gutter


def path_text(solution: Solution, *, per_line: int = 8) -> str:
    """The move list in square names, then the boards along the path side by side, each
    headed by the move that made it.

    >>> from bitknights import Board, solve
    >>> print(path_text(solve(Board("11111/011*1/00111/00001/00000")), per_line=2))
    moves (2): b1-d2 c3-b1
    start  1 b1-d2
    11111  1*111
    011*1  01111
    00111  00111
    00001  00001
    00000  00000
    2 c3-b1
    11111
    01111
    00*11
    00001
    00000
    """
    if solution.steps is None:
        return f"no solution ({solution.status.replace('_', ' ')})"
    moves = solution.moves
    heads = ["start"] + [f"{k} {m}" for k, m in enumerate(moves, 1)]
    lines = [f"moves ({len(moves)}): " + (" ".join(str(m) for m in moves) or "none")]
    boards = solution.boards
    for lo in range(0, len(boards), per_line):
        chunk = range(lo, min(lo + per_line, len(boards)))
        width = [max(_PANEL, len(heads[i]) + 1) for i in chunk]
        lines.append("".join(heads[i].ljust(w) for i, w in zip(chunk, width)).rstrip())
        rows = [b.rows() for b in (boards[i] for i in chunk)]
        for r in range(5):
            lines.append("".join(rs[r].ljust(w) for rs, w in zip(rows, width)).rstrip())
    return "\n".join(lines)
