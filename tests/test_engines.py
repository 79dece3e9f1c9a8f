"""The engine contract: every engine keeps it, and ``auto`` follows what engines declare."""

import inspect
import json
import random

import numpy as np
import pytest

import bitknights
import bitknights.service as service_module
from bitknights import TARGET, Board
from bitknights.engines import ENGINES, Engine, get_engine
from bitknights.engines.options import SolveOptions
from bitknights.results import Result, Status
from bitknights.solution import Solution
from helpers import by_distance, checked_by, choose_engine, random_walk, solve_with, steps_with

NEAR = Board("10110/01*11/10111/01001/00000")  # 7 moves from the target
FAR = Board("01011/110*1/01110/01010/00100")  # 18 moves from the target


@pytest.mark.parametrize("name", ENGINES)
def test_every_engine_satisfies_the_protocol(name):
    engine = get_engine(name)
    assert isinstance(engine, Engine)
    assert engine.name == name
    assert isinstance(engine.lookup, bool)
    for method in ("ready", "solve", "steps"):
        want = list(inspect.signature(getattr(Engine, method)).parameters)[1:]
        assert list(inspect.signature(getattr(engine, method)).parameters) == want, method


def test_the_lookup_engines_are_those_that_need_a_table(tmp_path):
    lookup = [n for n in ENGINES if get_engine(n).lookup]
    assert lookup == [n for n in ENGINES if not get_engine(n).ready(TARGET, tmp_path)]
    assert lookup == ["table", "compact"]


@pytest.mark.parametrize("name", ["ida", "bidir"])
def test_search_engines_answer_through_the_contract(name):
    engine = get_engine(name)
    assert engine.ready(TARGET)
    s = engine.solve(NEAR, TARGET, SolveOptions())
    assert s.steps == 7 and s.status is Status.SOLVED and s.engine == name
    s.verify()
    over = engine.solve(FAR, TARGET, SolveOptions(max_depth=15))
    assert over.steps is None and over.status is Status.OVER_LIMIT and over.boards == []
    other = service_module.DistanceService(engine=name).solve(
        Board("11111/11111/11*11/00001/00000")
    )
    assert other.status is Status.UNREACHABLE
    keys = np.array([NEAR.key, FAR.key, TARGET.key], dtype=np.int64)
    assert engine.steps(keys, TARGET, SolveOptions(workers=1)).tolist() == [7, -1, 0]


@pytest.mark.parametrize("name", ["ida", "bidir"])
def test_boards_of_every_distance_to_11_and_their_limits(name, ball11):
    """Boards at every distance 0..11 (naive BFS), limits at the distance and just below."""
    rng = random.Random(11)
    layers = by_distance(ball11)
    sample = [t for ts in layers.values() for t in rng.sample(ts, min(60, len(ts)))]
    sample += rng.sample([t for d in (9, 10, 11) for t in layers[d]], 200)
    for text in sample:
        b, d = Board(text), ball11[text]
        for limit in (15, None, d):
            assert checked_by(solve_with(name, b, TARGET, limit), b, engine=name).steps == d
        if d > 0:
            s = checked_by(solve_with(name, b, TARGET, d - 1), b, engine=name)
            assert s.steps is None and s.status == "over_limit"


@pytest.mark.parametrize("name", ["ida", "bidir"])
def test_unreachable_counts(name):
    """The distance service answers boards of other knight counts before the engine runs."""
    b = Board("11111/11111/00*11/00001/00000")
    answers = service_module.DistanceService(engine=name)
    for limit in (15, None):
        s = checked_by(answers.solve(b, max_depth=limit), b, engine=name)
        assert s.steps is None and s.status == "unreachable" and s.nodes == 0
    target = Board("10101/01010/10*01/01010/10100")  # 11 black
    start = random_walk(TARGET, 5, random.Random(0))  # 12 black
    other = service_module.DistanceService(target, engine=name)
    assert other.solve(start, max_depth=None).status == "unreachable"
    near = solve_with(name, start, TARGET).steps
    keys = np.array([b.key, TARGET.key, start.key])
    assert answers.steps(keys, max_depth=15).tolist() == [-1, 0, near]
    assert answers.steps(keys, max_depth=None).tolist() == [-1, 0, near]
    assert other.steps(keys, max_depth=None).tolist() == [-1, -1, -1]
    assert answers.steps(keys.tolist(), max_depth=None) == [-1, 0, near]


@pytest.mark.parametrize("name", ["ida", "bidir"])
def test_zero_and_depth_limits(name):
    assert solve_with(name, TARGET, TARGET, 0).steps == 0
    at_target = checked_by(solve_with(name, TARGET, TARGET, None), TARGET, engine=name)
    assert at_target.boards == [TARGET]
    one = TARGET.play("b5")
    assert solve_with(name, one, TARGET, 0).status == "over_limit"
    assert solve_with(name, one, TARGET, 1).steps == 1
    assert steps_with(name, np.array([one.key, TARGET.key]), TARGET, 0).tolist() == [-1, 0]
    assert steps_with(name, np.empty(0, np.int64), TARGET).tolist() == []
    with pytest.raises(ValueError):
        bitknights.solve(one, max_depth=-1, engine=name)
    with pytest.raises(ValueError):
        bitknights.solve(one, engine="nope")


def test_result_codes_are_distinct_negative_and_plain_ints():
    from bitknights import results

    codes = [int(code) for code in Result]
    assert len(set(codes)) == len(codes) and all(c < 0 for c in codes)
    for code in Result:
        plain = getattr(results, code.name)
        assert type(plain) is int and plain == code
    assert Status.of(0) is Status.SOLVED and Status.of(results.STOPPED) is Status.TIMEOUT
    assert Status.of(results.UNREACHABLE) is Status.UNREACHABLE
    with pytest.raises(KeyError):
        Status.of(results.GROW)  # an internal request, never a final answer


def test_status_is_an_enum_and_records_stay_the_same():
    s = Solution(TARGET, TARGET, None, status="over_limit")
    assert s.status is Status.OVER_LIMIT and s.status == "over_limit"
    assert json.dumps(s.to_dict(), separators=(",", ":")) == (
        f'{{"board":"{TARGET.compact}","steps":null,"status":"over_limit","nodes":0,'
        '"seconds":0.0,"engine":""}'
    )
    assert repr(s) == "<Solution over_limit: over the move limit>"
    assert str(s) == f"{TARGET}\nno solution: over the move limit"
    with pytest.raises(ValueError):
        Solution(TARGET, TARGET, None, status="lost")


def test_auto_asks_the_lookup_engine_about_the_cache_dir(tmp_path):
    from bitknights.table import store

    assert not store.available(TARGET, tmp_path)
    assert choose_engine("auto", 15, cache_dir=tmp_path) == "ida"
    assert choose_engine("auto", None, cache_dir=tmp_path) == "bidir"


NONE, COMPACT, TABLE = set(), {"compact"}, {"table", "compact"}  # the tables at hand


@pytest.mark.parametrize(
    ("ready", "limit", "asked", "want"),
    [
        (NONE, 15, {}, "ida"),
        (NONE, None, {}, "bidir"),
        (NONE, 17, {"counts_only": True}, "bidir"),  # bidir's numpy path
        (NONE, 18, {"counts_only": True}, "ida"),
        (NONE, 15, {"counts_only": True, "boards": 200}, "mitm"),
        (NONE, 15, {"counts_only": True, "boards": 201}, "bidir"),
        (NONE, 16, {"counts_only": True, "boards": 1}, "bidir"),
        (NONE, 15, {"boards": 1}, "ida"),  # paths wanted
        (NONE, None, {"counts_only": True, "boards": 1}, "bidir"),  # no limit: not mitm
        (NONE, 18, {"counts_only": True, "boards": 1}, "ida"),
        (COMPACT, None, {}, "compact"),
        (COMPACT, 21, {"counts_only": True}, "compact"),
        (COMPACT, 20, {}, "ida"),  # below its depth: not worth loading
        (TABLE, 15, {}, "table"),
        (TABLE, None, {}, "table"),  # first
        (TABLE, None, {"counts_only": True}, "table"),
        (COMPACT, 15, {"counts_only": True, "boards": 1}, "mitm"),
        (TABLE, 15, {"engine": "bidir"}, "bidir"),
    ],
)
def test_auto_follows_the_rule(ready, limit, asked, want):
    asked = dict(asked)
    engine = asked.pop("engine", "auto")
    if engine == "auto":
        assert service_module.auto(limit, ready.__contains__, **asked) == want
    else:
        assert service_module.DistanceService(engine=engine).choose(limit, **asked) == want


def test_the_plain_engines_import_no_numpy_for_a_list():
    assert {n for n in ENGINES if service_module.plain(n)} == {"table", "compact", "mitm"}


def test_options_reach_the_engine(monkeypatch):
    seen = []
    engine = get_engine("ida")
    real = engine.solve

    def spy(start, target, options, stop=None):
        seen.append(options)
        return real(start, target, options, stop)

    monkeypatch.setattr(engine, "solve", spy)
    sols = bitknights.solve_many([NEAR, FAR], engine="ida", max_depth=20, timeout=30, workers=2)
    assert [s.steps for s in sols] == [7, 18]
    want = SolveOptions(max_depth=20, timeout=30, workers=2)
    assert seen[0] == want._replace(max_depth=0) and seen[1:] == [want, want]
    assert bitknights.solve(NEAR, engine="ida").steps == 7
    assert seen[-1] == SolveOptions()
