"""Record: typing.NamedTuple's behaviour, made without importing typing."""

import pickle

import pytest

from bitknights import Move
from bitknights._records import Record
from bitknights.engines.options import Capabilities, SolveOptions


def test_records_behave_as_named_tuples():
    options = SolveOptions(max_depth=None, workers=2)
    assert options == (None, None, 2, False, None) and isinstance(options, tuple)
    assert options._replace(max_depth=3).max_depth == 3
    assert SolveOptions._fields == (
        "max_depth",
        "timeout",
        "workers",
        "count_solutions",
        "cache_dir",
    )
    assert SolveOptions().max_depth == 15  # defaults from the class body
    move = Move(1, 12)
    frm, to = move
    assert (
        (frm, to) == (1, 12)
        and str(move) == "b5-c3"
        and repr(move) == "Move(from_square=1, to_square=12)"
    )
    assert {move: 1}[Move(1, 12)] == 1
    assert Capabilities.__doc__.startswith("What an engine can do")
    assert Move.__module__ == "bitknights.board" and Move.__qualname__ == "Move"
    assert Move.__annotations__ == {"from_square": "Square", "to_square": "Square"}


@pytest.mark.parametrize(
    "value", [Move(3, 12), SolveOptions(timeout=2.5), Capabilities(True, True, 3, False)]
)
def test_records_pickle(value):
    back = pickle.loads(pickle.dumps(value))
    assert back == value and type(back) is type(value)


def test_a_field_without_default_after_one_with_is_refused():
    with pytest.raises(TypeError, match="without a default follows"):

        class Bad(Record):
            a: int = 1
            b: int
