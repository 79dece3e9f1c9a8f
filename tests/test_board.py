import pickle
import random

import pytest

import naive
from bitknights import TARGET, Board, BoardError, Move, parse_square, square_name
from bitknights.squares import (
    FULL_MASK,
    KNIGHT_COUNTS,
    KNIGHT_DISTANCE,
    KNIGHT_MASKS,
    KNIGHT_NEIGHBORS,
)
from helpers import random_board


def test_target_constant():
    assert str(TARGET) == "11111\n01111\n00*11\n00001\n00000"
    assert TARGET.compact == naive.TARGET
    assert TARGET.blank == 12 and TARGET.counts == (12, 12)


@pytest.mark.parametrize(
    "text",
    [
        "11111\n01111\n00*11\n00001\n00000",
        "  11111 \r\n\n01111\n 00*11\n00001\n00000\n\n",
        "111110111100*110000100000",
        "11111/01111/00*11/00001/00000",
    ],
)
def test_parse_forms(text):
    assert Board(text) == TARGET


@pytest.mark.parametrize(
    "text",
    ["", "1111101111", "11111/01111/00*11/00001", "11111/01111/00011/00001/00000",
     "11111/01111/**011/00001/00000", "11111/01111/00*12/00001/00000", "1" * 24 + "**"],
)  # fmt: skip
def test_parse_errors(text):
    with pytest.raises(BoardError):
        Board(text)


def test_value_semantics():
    rng = random.Random(1)
    for _ in range(200):
        b = random_board(rng, rng.randrange(25))
        assert eval(repr(b)) == b
        assert Board(str(b)) == b == Board(b.compact) == Board.from_key(b.key)
        assert hash(b) == hash(Board(b.compact))
        assert Board.from_masks(b.white, b.black, b.blank) == b
        assert b.white | b.black | 1 << b.blank == FULL_MASK
        assert b.white & b.black == 0
        assert pickle.loads(pickle.dumps(b)) == b
    with pytest.raises(AttributeError):
        TARGET._blank = 3


def test_moves_match_naive():
    rng = random.Random(2)
    for _ in range(300):
        b = random_board(rng)
        ours = sorted(child.compact for _, child in b.children())
        assert ours == sorted(naive.neighbours(b.compact))
        for m in b.moves():
            assert m.to_square == b.blank
            assert (
                b.play(m)
                == b.play(m.from_square)
                == b.play(str(m))
                == b.play(square_name(m.from_square))
            )


def test_illegal_moves():
    with pytest.raises(BoardError):
        TARGET.play("c1")  # not a knight's jump from c3
    with pytest.raises(BoardError):
        TARGET.play(Move(0, 7))  # the blank is not on c2
    with pytest.raises(BoardError):
        TARGET.play("z9")


def test_squares_and_tables():
    assert [square_name(s) for s in (0, 4, 12, 20, 24)] == ["a1", "e1", "c3", "a5", "e5"]
    assert all(parse_square(square_name(s)) == s for s in range(25))
    for sq in range(25):
        r, c = divmod(sq, 5)
        expect = {(r + dr) * 5 + c + dc for dr, dc in
                  [(1, 2), (2, 1), (-1, 2), (-2, 1), (1, -2), (2, -1), (-1, -2), (-2, -1)]
                  if 0 <= r + dr < 5 and 0 <= c + dc < 5}  # fmt: skip
        row = KNIGHT_NEIGHBORS[sq]
        assert set(row[: KNIGHT_COUNTS[sq]].tolist()) == expect
        assert (row[KNIGHT_COUNTS[sq] :] == -1).all()
        assert KNIGHT_MASKS[sq] == sum(1 << t for t in expect)
        assert all(KNIGHT_DISTANCE[sq, t] == 1 for t in expect)
    assert (KNIGHT_DISTANCE == KNIGHT_DISTANCE.T).all() and KNIGHT_DISTANCE.min() == 0
