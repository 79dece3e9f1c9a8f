"""The knights-only pattern databases behind IDA*'s deep searches."""

import random
from pathlib import Path

import numpy as np
import pytest

from bitknights import TARGET, Board
from bitknights.coords import pattern_rank as python_rank
from bitknights.coords.arrays import POPCOUNT8, RANK_BYTE
from bitknights.coords.kernels import pattern_rank as kernel_rank
from bitknights.engines import pdb
from bitknights.engines.common import nearest_bounds
from bitknights.engines.ida import IdaEngine
from bitknights.engines.pdb import pattern_bound, pattern_tables
from helpers import random_board, random_walk, relaxed_neighbours, solve_with


def mask_rank(mask):
    return int(kernel_rank(np.int64(mask), RANK_BYTE, POPCOUNT8))


def test_python_rank_equals_the_kernel_rank():
    rng = random.Random(4)
    for k in (0, 1, 9, 12, 13, 25):
        for _ in range(300):
            mask = sum(1 << s for s in rng.sample(range(25), k))
            assert python_rank(mask) == mask_rank(mask)


def test_rank_is_a_bijection_on_small_cases():
    rng = random.Random(0)
    seen = {}
    from math import comb

    for _ in range(20000):
        squares = rng.sample(range(25), 12)
        mask = sum(1 << s for s in squares)
        r = int(mask_rank(mask))
        assert 0 <= r < comb(25, 12)
        assert seen.setdefault(r, mask) == mask
    # colex order: the smallest masks rank first
    assert mask_rank((1 << 12) - 1) == 0
    assert mask_rank(((1 << 12) - 1) << 13) == comb(25, 12) - 1


@pytest.mark.parametrize("colour", ["white", "black"])
def test_tables_satisfy_the_bfs_equation(colour):
    """dist(target) = 0 and dist(m) = 1 + min over relaxed neighbours elsewhere."""
    tables = dict(zip(["white", "black"], pattern_tables(TARGET.key)))
    table = tables[colour]
    tmask = getattr(TARGET, colour)

    def d(m):
        return int(table[mask_rank(m)])

    assert d(tmask) == 0
    rng = random.Random(1)
    for _ in range(3000):
        m = sum(1 << s for s in rng.sample(range(25), 12))
        if m != tmask:
            assert d(m) == 1 + min(d(n) for n in relaxed_neighbours(m))
    assert (table < 255).all()


@pytest.mark.slow
def test_bound_is_admissible_and_dominates_nearest(ball11):
    nearest = nearest_bounds([Board(text).key for text in ball11], TARGET).tolist()
    for (text, dist), h in zip(ball11.items(), nearest):
        p = pattern_bound(Board(text), TARGET)
        assert p <= dist, text
        assert h <= p + 1  # nearest-square bound is parity-rounded


def test_pdb_search_agrees(ball11):
    rng = random.Random(2)
    for text in rng.sample(sorted(ball11), 300):
        s = solve_with(IdaEngine(use_pdb=True), Board(text), TARGET, None)
        assert s.steps == ball11[text]
        s.verify()
    for _ in range(40):
        both_bounds(random_walk(TARGET, 30, rng), TARGET)


def both_bounds(start, target):
    """The solution under the pattern databases, which the nearest-square sum's matches."""
    a = solve_with(IdaEngine(use_pdb=True), start, target, None)
    assert a.steps == solve_with(IdaEngine(use_pdb=False), start, target, None).steps
    a.verify()
    return a


@pytest.mark.slow
@pytest.mark.parametrize("black", [12, 9])
def test_pdb_for_custom_targets(black):
    rng = random.Random(black)
    target = random_board(rng, black)
    for _ in range(10):
        assert both_bounds(random_walk(target, 16, rng), target).boards[-1] == target


@pytest.mark.slow
def test_cache_file_is_checked(tmp_path, monkeypatch):
    monkeypatch.setenv("BITKNIGHTS_CACHE_DIR", str(tmp_path))
    white, black = pattern_tables(TARGET.key)  # from memory
    path = Path(pdb._cache_path(TARGET))
    assert path.parent == tmp_path
    pdb._save(path, TARGET, (white, black))
    good = path.read_bytes()
    loaded = pdb._load(path, TARGET)
    assert loaded is not None and (loaded[0] == white).all() and (loaded[1] == black).all()
    other = Board("11110/01111/00*11/00001/00001")
    assert pdb._load(path, other) is None  # another target
    bad = {
        "truncated": good[:-1],
        "empty": b"",
        "longer": good + b"\0",
        "payload bit flip": good[:5000] + bytes([good[5000] ^ 1]) + good[5001:],
        "header bit flip": good[:20] + bytes([good[20] ^ 4]) + good[21:],
        "other version": good[:8] + b"\x09" + good[9:],
    }
    for why, data in bad.items():
        path.write_bytes(data)
        assert pdb._load(path, TARGET) is None, why
    # a bad file is rebuilt, never used
    path.write_bytes(bad["payload bit flip"])
    pdb._TABLES.clear()
    try:
        w2, b2 = pattern_tables(TARGET.key)
        assert (w2 == white).all() and (b2 == black).all()
        assert path.read_bytes() == good
    finally:
        pdb._TABLES.clear()


def test_cache_file_that_others_may_write_is_refused(tmp_path, monkeypatch):
    from bitknights.cache import UntrustedError

    monkeypatch.setenv("BITKNIGHTS_CACHE_DIR", str(tmp_path))
    path = Path(pdb._cache_path(TARGET))
    pdb._save(path, TARGET, pattern_tables(TARGET.key))
    path.chmod(0o666)
    with pytest.raises(UntrustedError, match=f"{path} is writable by group and others.*chmod go-w"):
        pdb._load(path, TARGET)
    path.chmod(0o644)
    tmp_path.chmod(0o775)
    try:
        with pytest.raises(UntrustedError, match=f"{tmp_path} is writable by its group"):
            pdb._load(path, TARGET)
    finally:
        tmp_path.chmod(0o755)
    assert pdb._load(path, TARGET) is None  # its change time moved: proved (rebuilt) again


def test_fifo_at_the_cache_path_does_not_hang(tmp_path):
    import os

    path = tmp_path / "patterns.bkp"
    os.mkfifo(path)
    assert pdb._load(path, TARGET) is None  # not a regular file: rebuilt, not waited on
