import pickle
import random
from pathlib import Path

import pytest

import naive
from bitknights import TARGET, Board, BoardError, Move, parse_square, square_name, squares
from bitknights.squares import KNIGHT_COUNTS, KNIGHT_DISTANCE, KNIGHT_MASKS, KNIGHT_NEIGHBORS
from helpers import load_script, random_board


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


def test_a_move_reads_as_its_name_and_evaluates_back():
    """The repr is the name; the name (or two squares) makes the move, a pair of squares."""
    for frm in range(25):
        for to in range(25):
            m = Move(frm, to)
            name = f"{square_name(frm)}-{square_name(to)}"
            assert str(m) == name and repr(m) == f"Move({name!r})"
            assert eval(repr(m)) == m == Move(name) == Move(*name.split("-")) == (frm, to)
            assert (m.from_square, m.to_square) == (frm, to) and tuple(m) == (frm, to)
            back = pickle.loads(pickle.dumps(m))
            assert back == m and type(back) is Move
    assert Move(from_square=4, to_square="c4") == Move(" E5-c4 ") == Move("e5-c4")
    assert repr(TARGET.moves()[:2]) == "[Move('b5-c3'), Move('d5-c3')]"
    assert TARGET.play(Move("b5-c3")) == TARGET.play("b5") == TARGET.play(1)
    for bad in ("e5", "e5-z9", "e5-c4-b2", 25, -1, True, None, 2.0):
        with pytest.raises(BoardError):
            Move(bad)
    for bad in ((4, 25), ("e5", 99), (4, "c")):
        with pytest.raises(BoardError):
            Move(*bad)


def test_value_semantics():
    rng = random.Random(1)
    for _ in range(200):
        b = random_board(rng, rng.randrange(25))
        assert eval(repr(b)) == b
        assert Board(str(b)) == b == Board(b.compact) == Board.from_key(b.key)
        assert hash(b) == hash(Board(b.compact))
        assert Board.from_masks(b.white, b.black, b.blank) == b
        assert b.white | b.black | 1 << b.blank == squares.FULL_MASK
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
            frm = m.from_square
            assert len({b.play(m), b.play(frm), b.play(str(m)), b.play(square_name(frm))}) == 1


@pytest.mark.parametrize("move", ["c5", Move(0, 7), "z9"], ids=["no-jump", "not-blank", "z9"])
def test_illegal_moves(move):
    """Not a knight's jump from c3, a move into a blank not there, no square."""
    with pytest.raises(BoardError):
        TARGET.play(move)


def test_square_names_are_chess_names():
    """Files a-e left to right, rank 1 at the bottom: the first input line is rank 5."""
    places = {"a5": (0, 0), "e5": (0, 4), "c3": (2, 2), "a1": (4, 0), "e1": (4, 4)}
    for name, row_col in places.items():  # (row, column) as read: a5 first, e1 last
        board = Board("".join("*" if square_name(sq) == name else "0" for sq in range(25)))
        assert divmod(board.blank, 5) == row_col
    assert [square_name(sq) for sq in range(5)] == ["a5", "b5", "c5", "d5", "e5"]
    assert [square_name(sq * 5) for sq in range(5)] == ["a5", "a4", "a3", "a2", "a1"]
    assert str(TARGET.moves()[0]).endswith("-c3")
    # a knight on b5 (second character of the first line) jumps into the blank on c3
    assert TARGET.play("b5").cell(1) == "*" and str(Move(1, TARGET.blank)) == "b5-c3"


def test_squares_picture_is_current():
    """docs/squares.svg (the README's picture) is what scripts/squares_svg.py draws now."""
    svg = Path(__file__).parent.parent / "docs/squares.svg"
    assert svg.read_text(encoding="utf-8") == load_script("squares_svg").squares_svg()


def test_squares_and_tables():
    with pytest.raises(ValueError):
        parse_square("a6")
    with pytest.raises(TypeError):
        parse_square(3)  # type: ignore[arg-type]
    for sq in range(25):
        assert parse_square(square_name(sq)) == sq == parse_square(square_name(sq).upper())
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
