"""The perfect ranking of boards and of one colour's pattern: Python, numpy, numba."""

import functools
import itertools
import math
import random

import numpy as np
import pytest

from bitknights import Board
from bitknights import coords as C
from bitknights.coords import arrays as A
from bitknights.coords import kernels as K
from bitknights.table.compact import unrank
from helpers import random_board


@functools.lru_cache(maxsize=1)  # the last blank's (2.7 million masks for 12 knights)
def blacks_of_blank(blank: int, k: int) -> np.ndarray:
    """The black masks of every board with blank ``blank`` and ``k`` black knights, by rank."""
    ncomb = C.comb_count(k)
    return unrank(blank * ncomb + np.arange(ncomb), k)[0]


def colex_rank(black: int, blank: int, k: int) -> int:
    """Independent reference: squeeze out the blank, then the combinatorial number system."""
    others = [sq for sq in range(25) if sq != blank]
    positions = [i for i, sq in enumerate(others) if black >> sq & 1]
    assert len(positions) == k
    return blank * math.comb(24, k) + sum(math.comb(p, i + 1) for i, p in enumerate(positions))


@pytest.mark.parametrize("blank", [0, 12, 24])
def test_every_rank_of_a_blank_square_round_trips(blank):
    k = 12
    ncomb = C.comb_count(k)
    blacks = blacks_of_blank(blank, k)
    assert blacks.shape == (ncomb,) == (math.comb(24, 12),)
    # strictly increasing masks: all distinct, in colex (numeric) order
    assert (np.diff(blacks) > 0).all()
    assert not (blacks >> blank & 1).any()
    assert blacks.min() >= 0 and blacks.max() < 1 << 25
    assert (sum((blacks >> sq) & 1 for sq in range(25)) == k).all()  # every mask, bit by bit
    ranks = A.ranks(blacks, np.full(ncomb, blank, dtype=np.int64), ncomb)
    assert (ranks == blank * ncomb + np.arange(ncomb)).all()


def test_random_ranks_round_trip_and_match_reference():
    rng = np.random.default_rng(5)
    total = C.state_count(12)
    assert total == 25 * math.comb(24, 12)
    ranks = rng.integers(0, total, size=200_000, dtype=np.int64)
    blacks, blanks = unrank(ranks, 12)
    assert (A.ranks(blacks, blanks, C.comb_count(12)) == ranks).all()
    assert not (blacks >> blanks & 1).any()
    for r, b, s in list(zip(ranks.tolist(), blacks.tolist(), blanks.tolist()))[:2000]:
        assert colex_rank(b, s, 12) == r
        assert C.rank(b, s) == r
        assert C.unrank(r, 12) == (b, s)


def test_random_boards_match_reference():
    rnd = random.Random(2)
    for _ in range(3000):
        k = rnd.randrange(25)
        b = random_board(rnd, k)
        r = C.rank(b.black, b.blank)
        assert r == colex_rank(b.black, b.blank, k)
        assert C.unrank(r, k) == (b.black, b.blank)


@pytest.mark.parametrize("k", [0, 1, 2, 22, 23, 24])
def test_small_spaces_are_a_bijection(k):
    """Every board with k black knights gets a distinct rank in 0..25*C(24,k)-1."""
    boards = []
    for blank in range(25):
        others = [sq for sq in range(25) if sq != blank]
        for chosen in itertools.combinations(others, k):
            boards.append((sum(1 << sq for sq in chosen), blank))
    blacks = np.array([b for b, _ in boards], dtype=np.int64)
    blanks = np.array([s for _, s in boards], dtype=np.int64)
    ranks = A.ranks(blacks, blanks, C.comb_count(k))
    assert sorted(ranks.tolist()) == list(range(C.state_count(k)))
    back = unrank(ranks, k)
    assert (back[0] == blacks).all() and (back[1] == blanks).all()
    for blank in (0, 13, 24):
        expect = sorted(b for b, s in boards if s == blank)
        assert blacks_of_blank(blank, k).tolist() == expect


def test_bad_ranks_are_refused():
    for r, k in ((C.state_count(12), 12), (-1, 12), (C.state_count(3), 3)):
        with pytest.raises(ValueError):
            C.unrank(r, k)


def test_numpy_ranks_and_popcount_match_plain_python():
    rng = np.random.default_rng(11)
    for k in (0, 1, 5, 12, 23, 24):
        ranks = rng.integers(0, C.state_count(k), size=3000, dtype=np.int64)
        blacks, blanks = unrank(ranks, k)
        assert (A.ranks(blacks, blanks, C.comb_count(k)) == ranks).all()
        assert (A.popcount(blacks) == k).all()
        keys = C.pack(blacks, blanks)
        assert (C.unpack(keys)[0] == blacks).all() and (C.unpack(keys)[1] == blanks).all()
        for b, s, r in list(zip(blacks.tolist(), blanks.tolist(), ranks.tolist()))[:300]:
            assert C.rank(b, s, k) == r == colex_rank(b, s, k)
            assert b.bit_count() == k and C.unpack(C.pack(b, s)) == (b, s)
            assert Board.from_key(C.pack(b, s)).key == C.pack(b, s)


def test_pattern_ranks_are_a_bijection_in_every_flavour():
    """One colour's masks: colex ranks 0..C(25, k)-1, Python = kernel, unrank inverts."""
    for k in (0, 1, 2, 3, 23, 24, 25):
        masks = [sum(1 << sq for sq in c) for c in itertools.combinations(range(25), k)]
        ranks = [C.pattern_rank(m) for m in masks]
        assert sorted(ranks) == list(range(C.pattern_count(k)))
        for m, r in list(zip(masks, ranks))[:: max(1, len(masks) // 500)]:
            assert K.pattern_rank(np.int64(m), A.RANK_BYTE, A.POPCOUNT8) == r
            assert K.colex_unrank(np.int64(r), np.int64(k), 25, A.BINOM) == m
            assert C.colex_unrank(r, k, 25) == m


def test_tables_say_what_they_hold():
    assert A.BINOM.tolist() == [[math.comb(n, i) for i in range(26)] for n in range(26)]
    assert A.POPCOUNT8.tolist() == [bin(b).count("1") for b in range(256)]
    colours = [(sq // 5 + sq % 5) & 1 for sq in range(25)]
    assert A.SQUARE_COLOR.tolist() == list(C.SQUARE_COLOR) == colours
    assert C.KEY_SHIFT == 25 and Board("*" + "0" * 24).key == 0
    for arr in (A.BINOM, A.RANK_BYTE, A.POPCOUNT8, A.SQUARE_COLOR):
        assert arr.dtype == np.int64 and not arr.flags.writeable
