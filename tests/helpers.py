"""Helpers shared by the tests (a module of its own, so ``conftest.py`` is imported once,
by pytest)."""

from __future__ import annotations

import contextlib
import os
import random
import struct
import zlib
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


def forge(path, rank, value):
    """Change one payload byte of a table file and recompute every checksum: a file that
    passes every integrity check but lies (what someone with write access could make)."""
    from bitknights.table import store

    raw = bytearray(path.read_bytes())
    size = struct.unpack_from("<I", raw, 12)[0]
    nlayers = struct.unpack_from("<I", raw, 28)[0]
    raw[size + rank] = value
    block = rank >> store.BLOCK_BITS
    crc_at = 16 + store._FIELDS.size + 8 * nlayers + 4 * block
    start = size + (block << store.BLOCK_BITS)
    chunk = bytes(raw[start : start + (1 << store.BLOCK_BITS)])
    struct.pack_into("<I", raw, crc_at, zlib.crc32(chunk))
    struct.pack_into("<I", raw, size - 4, zlib.crc32(bytes(raw[: size - 4])))
    path.write_bytes(bytes(raw))
    store._loaded.clear()


@contextlib.contextmanager
def cache_env(path):
    """Within the block, ``BITKNIGHTS_CACHE_DIR`` names ``path`` (the one process-wide
    way to move the cache besides passing ``cache_dir``)."""
    saved = os.environ.get("BITKNIGHTS_CACHE_DIR")
    os.environ["BITKNIGHTS_CACHE_DIR"] = str(path)
    try:
        yield
    finally:
        if saved is None:
            del os.environ["BITKNIGHTS_CACHE_DIR"]
        else:
            os.environ["BITKNIGHTS_CACHE_DIR"] = saved


def _engine(engine):
    from bitknights.engines import get_engine

    return get_engine(engine) if isinstance(engine, str) else engine


def solve_with(engine, board, target=TARGET, max_depth=15, stop=None, **options):
    """``engine.solve`` (a name or an engine object) under ``SolveOptions(max_depth=...,
    **options)``: the engine contract, called as the distance service calls it."""
    from bitknights.engines.options import SolveOptions

    opts = SolveOptions(max_depth=max_depth, **options)
    return _engine(engine).solve(board, target, opts, stop)


def steps_with(engine, keys, target=TARGET, max_depth=15, stop=None, **options):
    """``engine.steps_many`` (a name or an engine object) as :func:`solve_with` calls solve."""
    from bitknights.engines.options import SolveOptions

    opts = SolveOptions(max_depth=max_depth, **options)
    return _engine(engine).steps_many(keys, target, opts, stop)


__all__ = [
    "SAMPLE",
    "TARGET",
    "cache_env",
    "forge",
    "random_board",
    "random_walk",
    "solve_with",
    "steps_with",
]
