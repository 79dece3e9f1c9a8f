from __future__ import annotations

import os
import random
import sys
import tempfile
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))

# Tests never touch the user's cache: one fresh cache directory per test session.
_CACHE = tempfile.TemporaryDirectory(prefix="bitknights-test-cache-")
os.environ["BITKNIGHTS_CACHE_DIR"] = _CACHE.name

import naive  # noqa: E402
from bitknights import TARGET, Board  # noqa: E402

SAMPLE = Path(__file__).parent.parent / "sample.txt"


@pytest.fixture(scope="session")
def table_dir(tmp_path_factory):
    """A cache directory holding the classic distance table, built once per test session."""
    from bitknights.table import ensure

    d = tmp_path_factory.getbasetemp() / "bitknights-table-cache"
    ensure(TARGET, cache_dir=d, quiet=True)
    return d


@pytest.fixture(scope="session")
def ball8() -> dict[str, int]:
    """Exact distances (naive BFS) of every board within 8 moves of the classic target."""
    return naive.bfs(naive.TARGET, 8)


@pytest.fixture(scope="session")
def ball11() -> dict[str, int]:
    """Exact distances (naive BFS) of every board within 11 moves of the classic target."""
    return naive.bfs(naive.TARGET, 11)


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


__all__ = ["TARGET", "random_board", "random_walk"]
