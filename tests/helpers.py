"""Helpers shared by the tests (a module of its own, so ``conftest.py`` is imported once,
by pytest)."""

from __future__ import annotations

import random
from pathlib import Path

from bitknights import TARGET, Board

SAMPLE = Path(__file__).parent.parent / "sample.txt"


def random_walk(board: Board, length: int, rng: random.Random) -> Board:
    """``length`` random legal moves from ``board`` (may revisit boards)."""
    for _ in range(length):
        board = board.play(rng.choice(board.moves()))
    return board


def random_board(rng: random.Random, black: int = 12) -> Board:
    """A uniformly random board with ``black`` black knights."""
    cells = ["1"] * black + ["0"] * (24 - black)
    rng.shuffle(cells)
    cells.insert(rng.randrange(25), "*")
    return Board("".join(cells))


__all__ = ["SAMPLE", "TARGET", "random_board", "random_walk"]
