"""The engine contract: every engine keeps it, result codes are distinct, and ``auto``
follows what the engines declare."""

import inspect
import json
import random

import numpy as np
import pytest

import bitknights
import bitknights.service as service_module
from bitknights import TARGET, Board, api
from bitknights.engines import ENGINES, Engine, get_engine
from bitknights.engines.options import Capabilities, SolveOptions
from bitknights.results import Result, Status
from bitknights.solution import Solution
from helpers import checked_by, random_walk, solve_with, steps_with

NEAR = Board("10110/01*11/10111/01001/00000")  # 7 moves from the target
FAR = Board("01011/110*1/01110/01010/00100")  # 18 moves from the target


@pytest.mark.parametrize("name", ENGINES)
def test_every_engine_satisfies_the_protocol(name):
    engine = get_engine(name)
    assert isinstance(engine, Engine)
    assert engine.name == name
    assert isinstance(engine.capabilities, Capabilities)
    for method in ("ready", "solve", "steps_many"):
        want = list(inspect.signature(getattr(Engine, method)).parameters)[1:]
        assert list(inspect.signature(getattr(engine, method)).parameters) == want, method


def test_the_lookup_engines_are_named_as_their_capabilities_say():
    from bitknights.engines import LOOKUP_ENGINES

    assert set(LOOKUP_ENGINES) == {n for n in ENGINES if get_engine(n).capabilities.lookup}
    assert [n for n in ENGINES if n in LOOKUP_ENGINES] == list(LOOKUP_ENGINES)


@pytest.mark.parametrize("name", ["ida", "bidir"])
def test_search_engines_answer_through_the_contract(name):
    engine = get_engine(name)
    assert engine.ready(TARGET)
    s = engine.solve(NEAR, TARGET, SolveOptions())
    assert s.steps == 7 and s.status is Status.SOLVED and s.engine == name
    s.verify()
    over = engine.solve(FAR, TARGET, SolveOptions(max_depth=15))
    assert over.steps is None and over.status is Status.OVER_LIMIT
    other = engine.solve(Board("11111/11111/11*11/00001/00000"), TARGET, SolveOptions())
    assert other.status is Status.UNREACHABLE
    keys = np.array([NEAR.key, FAR.key, TARGET.key], dtype=np.int64)
    assert engine.steps_many(keys, TARGET, SolveOptions(workers=1)).tolist() == [7, -1, 0]


@pytest.mark.parametrize("name", ["ida", "bidir"])
def test_boards_of_every_distance_to_11_and_their_limits(name, ball11):
    """Hundreds of boards at every distance 0..11 (naive BFS), and 400 more at 9..11,
    with limits at the distance and just below (over_limit)."""
    rng = random.Random(11)
    by_distance: dict[int, list[str]] = {}
    for text, d in ball11.items():
        by_distance.setdefault(d, []).append(text)
    sample = [t for ts in by_distance.values() for t in rng.sample(ts, min(60, len(ts)))]
    sample += rng.sample([t for d in (9, 10, 11) for t in by_distance[d]], 400)
    for text in sample:
        b, d = Board(text), ball11[text]
        for limit in (15, None, d):
            assert checked_by(solve_with(name, b, TARGET, limit), b, engine=name).steps == d
        if d > 0:
            s = checked_by(solve_with(name, b, TARGET, d - 1), b, engine=name)
            assert s.steps is None and s.status == "over_limit"


@pytest.mark.parametrize("name", ["ida", "bidir"])
def test_unreachable_counts(name):
    b = Board("11111/11111/00*11/00001/00000")
    for limit in (15, None):
        s = checked_by(solve_with(name, b, TARGET, limit), b, engine=name)
        assert s.steps is None and s.status == "unreachable" and s.nodes == 0
    target = Board("10101/01010/10*01/01010/10100")  # 11 black
    start = random_walk(TARGET, 5, random.Random(0))  # 12 black
    assert solve_with(name, start, target, None).status == "unreachable"
    near = solve_with(name, start, TARGET).steps
    keys = np.array([b.key, TARGET.key, start.key])
    assert steps_with(name, keys, TARGET, 15).tolist() == [-1, 0, near]
    assert steps_with(name, keys, TARGET, None).tolist() == [-1, 0, near]
    assert steps_with(name, keys, target, None).tolist() == [-1, -1, -1]


@pytest.mark.parametrize("name", ["ida", "bidir"])
def test_zero_and_depth_limits(name):
    assert solve_with(name, TARGET, TARGET, 0).steps == 0
    assert checked_by(solve_with(name, TARGET, TARGET, None), TARGET, engine=name).boards == [
        TARGET
    ]
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


class _Fake:
    """An engine declaring chosen capabilities (for the policy, which reads nothing else)."""

    def __init__(self, name, *, lookup=False, deep=False, numpy_depth=-1, plain=(-1, 0),
                 ready=True, from_depth=0):  # fmt: skip
        self.name = name
        self.capabilities = Capabilities(lookup, deep, numpy_depth, False, *plain,
                                         from_depth=from_depth)  # fmt: skip
        self._ready = ready

    def ready(self, target, cache_dir=None):
        return self._ready


def test_auto_asks_the_lookup_engine_about_the_cache_dir(tmp_path):
    from bitknights.table import store

    assert not store.available(TARGET, tmp_path)
    assert api.choose_engine("auto", 15, cache_dir=tmp_path) == "ida"
    assert api.choose_engine("auto", None, cache_dir=tmp_path) == "bidir"


def test_choose_engine_follows_the_capabilities(monkeypatch):
    fakes = {
        "ida": _Fake("ida"),
        "bidir": _Fake("bidir", deep=True, numpy_depth=9),
        "mitm": _Fake("mitm", plain=(8, 100)),
        "table": _Fake("table", lookup=True, deep=True, numpy_depth=200, ready=False),
        "compact": _Fake("compact", lookup=True, deep=True, ready=False, from_depth=21),
    }
    monkeypatch.setattr(service_module, "get_engine", fakes.__getitem__)
    assert api.choose_engine("auto", 15) == "ida"
    assert api.choose_engine("auto", None) == "bidir"
    assert api.choose_engine("auto", 9, counts_only=True) == "bidir"
    assert api.choose_engine("auto", 10, counts_only=True) == "ida"
    assert api.choose_engine("auto", 8, counts_only=True, boards=100) == "mitm"
    assert api.choose_engine("auto", 8, counts_only=True, boards=101) == "bidir"
    assert api.choose_engine("auto", 9, counts_only=True, boards=1) == "bidir"
    assert api.choose_engine("auto", 8, boards=1) == "ida"  # paths wanted
    fakes["ida"] = _Fake("ida", deep=True, numpy_depth=12)  # now first in every rule
    assert api.choose_engine("auto", None) == "ida"
    assert api.choose_engine("auto", 10, counts_only=True) == "ida"
    fakes["compact"] = _Fake("compact", lookup=True, ready=True, from_depth=21)
    assert api.choose_engine("auto", None) == "compact"
    assert api.choose_engine("auto", 21, counts_only=True) == "compact"
    assert api.choose_engine("auto", 20) == "ida"  # below its depth: not worth loading
    fakes["table"] = _Fake("table", lookup=True, ready=True)
    assert api.choose_engine("auto", 15) == "table"
    assert api.choose_engine("auto", None) == "table"  # listed first
    assert api.choose_engine("auto", None, counts_only=True) == "table"
    assert api.choose_engine("auto", 15, target=None) == "ida"  # no target: no lookup
    assert api.choose_engine("bidir", 15) == "bidir"


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
