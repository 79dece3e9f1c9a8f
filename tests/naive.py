"""A slow, independent reference: plain breadth-first search on strings.

Shares no code with bitknights: boards are 25-character strings of ``0 1 *`` (rows
concatenated) and moves are computed from coordinates here.
"""

from __future__ import annotations

TARGET = "111110111100*110000100000"

_JUMPS = [(-2, -1), (-2, 1), (-1, -2), (-1, 2), (1, -2), (1, 2), (2, -1), (2, 1)]


def neighbours(board: str) -> list[str]:
    """Every board one move from ``board``."""
    blank = board.index("*")
    r, c = divmod(blank, 5)
    out = []
    for dr, dc in _JUMPS:
        rr, cc = r + dr, c + dc
        if 0 <= rr < 5 and 0 <= cc < 5:
            k = rr * 5 + cc
            cells = list(board)
            cells[blank], cells[k] = cells[k], "*"
            out.append("".join(cells))
    return out


def bfs(source: str = TARGET, radius: int = 8) -> dict[str, int]:
    """Exact distance from ``source`` of every board at most ``radius`` moves away
    (moves are reversible, so these are also distances *to* ``source``)."""
    dist = {source: 0}
    frontier = [source]
    for d in range(1, radius + 1):
        nxt = []
        for b in frontier:
            for n in neighbours(b):
                if n not in dist:
                    dist[n] = d
                    nxt.append(n)
        frontier = nxt
    return dist
