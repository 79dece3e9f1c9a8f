"""Record: typing.NamedTuple's behaviour, made without importing typing."""

import pickle

import pytest

from bitknights import TARGET, Board
from bitknights._records import Record
from bitknights.engines.options import SolveOptions
from bitknights.solution import Hint


def test_records_behave_as_named_tuples():
    options = SolveOptions(max_depth=None, workers=2)
    assert options == (None, None, 2, False, None) and isinstance(options, tuple)
    assert options._replace(max_depth=3).max_depth == 3
    fields = ("max_depth", "timeout", "workers", "count_solutions", "cache_dir")
    assert SolveOptions._fields == fields
    assert SolveOptions().max_depth == 15  # defaults from the class body
    move, child = next(TARGET.children())
    hint = Hint(move, child, 1, False)
    got_move, board, distance, optimal = hint
    assert (got_move, board, distance, optimal) == (move, child, 1, False)
    assert repr(hint) == f"Hint(move={move!r}, board={child!r}, distance=1, optimal=False)"
    assert eval(repr(hint), {"Hint": Hint, "Move": type(move), "Board": Board}) == hint
    assert {hint: 1}[Hint(move, child, 1, False)] == 1
    assert SolveOptions.__doc__.startswith("What a request asks of an engine")
    assert Hint.__module__ == "bitknights.solution" and Hint.__qualname__ == "Hint"
    annotations = {"move": "Move", "board": "Board", "distance": "int | None", "optimal": "bool"}
    assert Hint.__annotations__ == annotations


RECORDS = [Hint(*next(TARGET.children()), 1, False), SolveOptions(timeout=2.5)]


@pytest.mark.parametrize("value", [*RECORDS, SolveOptions(max_depth=None, cache_dir="c")])
def test_records_pickle(value):
    back = pickle.loads(pickle.dumps(value))
    assert back == value and type(back) is type(value)


def test_a_field_without_default_after_one_with_is_refused():
    with pytest.raises(TypeError, match="without a default follows"):

        class Bad(Record):
            a: int = 1
            b: int
