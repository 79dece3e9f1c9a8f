import random
from functools import partial

import numpy as np
import pytest

import bitknights
import bitknights.service as service_module
import helpers
import naive
from bitknights import TARGET, Board, api, solve
from bitknights.engines import ENGINES, _bidir_search, bidir
from bitknights.engines.options import StopFlag
from bitknights.results import STOPPED
from helpers import checked_by, keys_of, random_board, random_walk, solve_with, steps_with

checked = partial(checked_by, engine="bidir")


def test_classic_sample_and_registry(monkeypatch):
    # without a distance table engine, auto means bidir for exact requests
    monkeypatch.setattr(service_module, "ENGINES", tuple(e for e in ENGINES if e != "table"))
    boards = bitknights.read_batch(bitknights.SAMPLE)
    assert [checked(solve(b, engine="bidir"), b).steps for b in boards] == [7, None]
    assert solve(boards[1], engine="bidir").status == "over_limit"
    assert checked(solve(boards[1], engine="bidir", max_depth=None), boards[1]).steps == 18
    assert helpers.choose_engine("auto", None) == "bidir"
    assert "bidir" in api.ENGINE_CHOICES
    assert solve(boards[1], max_depth=None).engine == "bidir"
    assert steps_with("bidir", keys_of(boards), TARGET).tolist() == [7, -1]
    assert steps_with("bidir", keys_of(boards), TARGET, None).tolist() == [7, 18]


def test_steps_many_on_ball11_at_every_limit(ball11):
    """The batch paths (numpy under small limits, numba above) on a third of 122,209 boards."""
    texts = list(ball11)[::3]
    keys = keys_of(Board(t) for t in texts)
    exact = np.array([ball11[t] for t in texts])
    for limit in (0, 1, 5, 10, 11, 12, 13, 15, 16, None):
        got = steps_with("bidir", keys, TARGET, limit)
        want = exact if limit is None else np.where(exact <= limit, exact, -1)
        assert np.array_equal(got, want), limit


def deep_walks(target, count, lo, hi, seed, length=(20, 120)):
    """Random-walk boards from ``target`` whose exact distance (bidir) is in lo..hi."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        b = random_walk(target, rng.randrange(*length), rng)
        s = solve_with("bidir", b, target, None)
        if lo <= s.steps <= hi:
            out.append((b, s))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("black", [12, 14])  # 14: a custom target, 10 white and 14 black
def test_random_walks_against_ida(black):
    """Deep boards: bidir's searches, batches and limits agree with IDA*."""
    target = TARGET if black == 12 else random_board(random.Random(15), black=black)
    walks = (300, 8, 22, 12, (20, 120)) if black == 12 else (40, 14, 24, 16, (30, 200))
    found = deep_walks(target, *walks)
    if black == 12:
        assert {s.steps for _, s in found} >= set(range(8, 23))
    keys = keys_of(b for b, _ in found)
    batch = steps_with("bidir", keys, target, None)
    for (b, s), many in zip(found, batch.tolist()):
        checked(s, b, target)
        assert solve_with("ida", b, target, None).steps == s.steps == many
        if s.steps <= 17:  # the limit paths, numpy batch included
            assert solve_with("bidir", b, target, s.steps - 1).status == "over_limit"
            assert solve_with("bidir", b, target, s.steps).steps == s.steps
    for limit in (14, 15, 16, 17, 18):
        want = np.array([s.steps if s.steps <= limit else -1 for _, s in found])
        assert np.array_equal(steps_with("bidir", keys, target, limit), want)


def test_first_meeting_equals_best_meeting_of_the_layer(monkeypatch):
    """Finishing the layer and measuring every meeting finds no shorter path than the first."""
    found = deep_walks(TARGET, 40, 14, 28, seed=13)
    for b, s in found:
        monkeypatch.setattr(_bidir_search, "_FULL_LAYER", 1)
        full = checked(solve_with("bidir", b, TARGET, None), b)
        monkeypatch.setattr(_bidir_search, "_FULL_LAYER", 0)
        first = solve_with("bidir", b, TARGET, None)  # the ball is at least as large now
        assert full.steps == first.steps == s.steps
        assert full.nodes >= first.nodes


def custom_targets(rng):
    yield random_board(rng)
    for black in (10, 14, 12, 5, 19, 1, 23, 0, 24):
        yield random_board(rng, black=black)


def test_custom_targets_against_ida_and_naive():
    rng = random.Random(14)
    bidir.clear_cache()
    for target in custom_targets(rng):
        near = naive.bfs(target.compact, 7)
        starts = [random_walk(target, rng.randrange(0, 60), rng) for _ in range(25)]
        starts += [Board(t) for t in rng.sample(sorted(near), min(15, len(near)))]
        batch = steps_with("bidir", keys_of(starts), target, None)
        limited = steps_with("bidir", keys_of(starts), target, 15)
        for start, many, lim in zip(starts, batch.tolist(), limited.tolist()):
            s = checked(solve_with("bidir", start, target, None), start, target)
            assert s.boards[-1] == target
            assert s.steps == solve_with("ida", start, target, None).steps == many
            assert lim == (s.steps if s.steps <= 15 else -1)
            if start.compact in near:
                assert s.steps == near[start.compact]
            if s.steps > 0:
                assert solve_with("bidir", start, target, s.steps - 1).status == "over_limit"


def test_stop_flag_and_timeout(monkeypatch):
    # a small ball forces a long start-side search, which polls the stop flag
    monkeypatch.setattr(_bidir_search, "TARGET_MAX_ENTRIES", 1000)
    monkeypatch.setattr(_bidir_search, "BALL_RADIUS", 4)
    target = random_board(random.Random(17))
    bidir.clear_cache()
    far = random_walk(target, 300, random.Random(18))
    s = solve_with("bidir", far, target, None, timeout=0.01)
    assert s.status == "timeout" and s.steps is None and s.boards == []
    stop = StopFlag()
    stop.raise_()
    out = steps_with("bidir", keys_of([far, far]), target, None, stop=stop)
    assert out.tolist() == [STOPPED, STOPPED]
    bidir.clear_cache()


def test_timeout_does_not_wait_for_the_ball_to_grow(monkeypatch):
    """A search waiting for the target's ball to grow (blocked here) still stops on time."""
    import threading

    kernels = _bidir_search._kernels()
    release = threading.Event()
    real_grow = kernels.grow_target

    def slow_grow(*args):
        release.wait(60)
        return real_grow(*args)

    bidir.clear_cache()
    monkeypatch.setattr(_bidir_search, "BALL_RADIUS", 2)  # a small ball: searches ask it to grow
    rng = random.Random(20)
    target = random_board(rng)
    ball = _bidir_search.target_ball(target)
    far = random_walk(target, 300, rng)
    monkeypatch.setattr(kernels, "grow_target", slow_grow)
    monkeypatch.setattr(_bidir_search, "TARGET_MAX_ENTRIES", 1 << 40)  # always ask for more ball
    results = []
    worker = threading.Thread(
        target=lambda: results.append(solve_with("bidir", far, target, None, timeout=0.2))
    )
    worker.start()
    worker.join(30)
    assert not worker.is_alive() and results[0].status == "timeout"
    stop = StopFlag().arm(0.2)
    assert ball._writer  # the first search left the growth running; this one must wait
    out = steps_with("bidir", keys_of([far]), target, None, stop=stop, workers=1)
    assert out.tolist() == [STOPPED]
    release.set()
    with ball.reading():  # the growth completes in the background
        assert not ball._writer
    monkeypatch.undo()
    assert solve_with("bidir", far, target, None).steps is not None
    bidir.clear_cache()


def test_ball_is_cached_and_reused():
    bidir.clear_cache()
    rng = random.Random(19)
    target = random_board(rng)
    b = random_walk(target, 80, rng)
    first = solve_with("bidir", b, target, None)
    ball = _bidir_search.target_ball(target)
    assert ball.depth >= _bidir_search.BALL_RADIUS and _bidir_search.target_ball(target) is ball
    depth, count = ball.depth, ball.count
    again = solve_with("bidir", b, target, None)
    assert again.steps == first.steps and again.nodes <= first.nodes
    assert (ball.depth, ball.count) == (depth, count)  # nothing left to grow for it
    bidir.clear_cache()
    assert _bidir_search.target_ball(target) is not ball


@pytest.mark.slow
def test_threads_share_a_growing_ball():
    """Concurrent exact searches while the ball grows give the sequential answers."""
    rng = random.Random(20)
    target = random_board(rng)
    found = deep_walks(target, 30, 16, 30, seed=21, length=(40, 400))
    bidir.clear_cache()
    sols = bitknights.solve_many([b for b, _ in found], engine="bidir", max_depth=None,
                                 target=target, workers=2)  # fmt: skip
    assert [s.steps for s in sols] == [s.steps for _, s in found]
    for (b, _), s in zip(found, sols):
        checked(s, b, target)
    bidir.clear_cache()
    many = steps_with("bidir", keys_of(b for b, _ in found), target, None, workers=2)
    assert many.tolist() == [s.steps for _, s in found]


@pytest.mark.slow
def test_deep_random_boards_are_consistent():
    """Deep boards: every neighbour one nearer or farther, some nearer (Bellman)."""
    rng = random.Random(22)
    boards = [random_board(rng) for _ in range(150)]
    dist = steps_with("bidir", keys_of(boards), TARGET, None)
    deep = [b for b, d in zip(boards, dist.tolist()) if d >= 28][:6]
    assert len(deep) >= 3
    for b in deep:
        s = checked(solve_with("bidir", b, TARGET, None), b)
        children = [c for _, c in b.children()]
        nd = steps_with("bidir", keys_of(children), TARGET, None).tolist()
        assert all(abs(x - s.steps) == 1 for x in nd) and min(nd) == s.steps - 1
        assert solve_with("bidir", b, TARGET, s.steps - 1).status == "over_limit"


def test_limited_batches_do_not_import_numba():
    code = (
        "import sys, numpy as np; from bitknights import TARGET, read_batch, SAMPLE\n"
        "from bitknights.engines import bidir; from bitknights.engines.options import SolveOptions\n"
        "keys = np.array([b.key for b in read_batch(SAMPLE)])\n"
        "assert bidir.ENGINE.steps(keys, TARGET, SolveOptions()).tolist() == [7, -1]\n"
        "assert 'numba' not in sys.modules\n"
    )
    helpers.run_python(code, check=True)


def test_cli_engine_bidir():
    run = ["solve", "--engine", "bidir", "--quiet"]
    out = helpers.run_bitknights([*run, helpers.SAMPLE])
    assert (out.returncode, out.stdout.split()) == (0, ["7", "-1"])
    out = helpers.run_bitknights([*run, "--exact", helpers.SAMPLE])
    assert (out.returncode, out.stdout.split()) == (0, ["7", "18"])
    out = helpers.run_bitknights([*run, "--exact", "--format", "json", "--path", helpers.SAMPLE])
    assert out.returncode == 0 and '"engine":"bidir"' in out.stdout.replace(" ", "")
    assert '"steps":18' in out.stdout
