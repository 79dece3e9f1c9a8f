"""The plain-Python meet-in-the-middle engine: its ball, exact answers, and ``auto``."""

import random
import zlib
from functools import partial
from pathlib import Path

import numpy as np
import pytest

import helpers
from bitknights import SAMPLE, TARGET, Board
from bitknights.engines import mitm
from bitknights.engines.mitm import AUTO_BOARDS as MITM_AUTO_BOARDS
from bitknights.service import DistanceService
from helpers import by_distance, checked_by, choose_engine, random_walk, solve_with, steps_with

checked = partial(checked_by, engine="mitm")


def test_shipped_ball_is_the_computed_one(monkeypatch):
    shipped = mitm.read_ball(Path(mitm.BALL_FILE).read_bytes())
    built = mitm.build_ball(TARGET)
    assert shipped.target_key == TARGET.key
    assert shipped.radius == built.radius == mitm.RADIUS
    assert shipped.keys == built.keys and shipped.dists == built.dists
    assert mitm.read_ball(mitm.ball_bytes(built)).keys == built.keys
    # the checksum the fast path trusts is the computed ball's, which passes what it spares
    assert zlib.crc32(built.payload()) == mitm.SHIPPED_CRC
    monkeypatch.setattr(mitm, "SHIPPED_CRC", 0)
    with pytest.raises(mitm.BallError, match="not the ball this version ships"):
        mitm.read_ball(mitm.ball_bytes(built))


def test_a_ball_with_other_distances_is_refused():
    """A ball with a 9 and a 10 swapped (every structural check passes) is refused."""
    built = mitm.build_ball(TARGET)
    dists = bytearray(built.dists)
    at9, at10 = dists.index(9), dists.index(10)
    dists[at9], dists[at10] = 10, 9
    forged = mitm.Ball(built.target_key, built.radius, built.keys, bytes(dists))
    with pytest.raises(mitm.BallError, match="not the ball this version ships"):
        mitm.read_ball(mitm.ball_bytes(forged))


def test_ball_matches_naive_bfs(ball8):
    ball = mitm.build_ball(TARGET, 8)
    assert len(ball) == len(ball8)
    for text, d in ball8.items():
        assert ball.get(Board(text).key) == d
    assert ball.get(random_walk(TARGET, 0, random.Random(0)).key) == 0


def test_every_distance_against_naive_bfs(ball11):
    """Boards at every distance 0..11 under limits below, at and above; outside: over 11."""
    rng = random.Random(14)
    sample = [t for ts in by_distance(ball11).values() for t in rng.sample(ts, min(40, len(ts)))]
    keys = [Board(t).key for t in sample]
    dists = [ball11[t] for t in sample]
    for limit in (0, 3, 10, 11, 15):
        assert steps_with("mitm", keys, TARGET, limit) == [d if d <= limit else -1 for d in dists]
    for text in sample[::7]:
        b, d = Board(text), ball11[text]
        assert checked(solve_with("mitm", b, TARGET, 15), b).steps == d
        if d:
            assert checked(solve_with("mitm", b, TARGET, d - 1), b).status == "over_limit"
    outside = [random_walk(TARGET, rng.randrange(20, 200), rng) for _ in range(300)]
    outside = [b for b in outside if b.compact not in ball11]
    assert len(outside) > 100
    assert steps_with("mitm", [b.key for b in outside], TARGET, 11) == [-1] * len(outside)


@pytest.mark.parametrize("seed", [1, 2])
def test_agrees_with_ida_and_bidir_up_to_the_classic_limit(seed):
    """Far boards: mitm, IDA* and bidir agree under every limit to 16, on two targets."""
    rng = random.Random(seed)
    target = TARGET if seed == 1 else random_walk(TARGET, 30, rng)
    boards = [random_walk(target, rng.randrange(8, 120), rng) for _ in range(40)]
    keys = np.array([b.key for b in boards], dtype=np.int64)
    for limit in (12, 13, 14, 15, 16):
        want = steps_with("ida", keys, target, limit, workers=1).tolist()
        assert steps_with("bidir", keys, target, limit).tolist() == want
        assert steps_with("mitm", keys, target, limit) == want  # an int64 array works too
        assert steps_with("mitm", keys.tolist(), target, limit) == want
    assert {d for d in want if d >= 12} and -1 in want
    for b, d in list(zip(boards, want))[:12]:
        assert checked(solve_with("mitm", b, target, 16), b, target).steps == (None if d < 0 else d)


def test_unreachable_and_invalid_keys():
    rng = random.Random(3)
    other = helpers.random_board(rng, black=11)
    answers = DistanceService(engine="mitm")  # it answers them before mitm runs
    assert checked(answers.solve(other), other).status == "unreachable"
    bad_blank = TARGET.black | 25 << 25
    on_knight = TARGET.black | (TARGET.black & -TARGET.black).bit_length() - 1 << 25
    keys = [other.key, bad_blank, on_knight, TARGET.key]
    assert answers.steps(keys) == [-1, -1, -1, 0]


def test_auto_chooses_it_only_for_small_classic_count_batches():
    choose = choose_engine
    assert choose("auto", 15, None, counts_only=True, boards=1) == "mitm"
    assert choose("auto", 15, None, counts_only=True, boards=MITM_AUTO_BOARDS) == "mitm"
    assert choose("auto", 15, None, counts_only=True, boards=MITM_AUTO_BOARDS + 1) == "bidir"
    assert choose("auto", 15, None, counts_only=True) == "bidir"  # size unknown
    assert choose("auto", 16, None, counts_only=True, boards=2) == "bidir"
    assert choose("auto", None, None, counts_only=True, boards=2) == "bidir"
    assert choose("auto", 15, None, counts_only=False, boards=2) == "ida"
    assert choose("mitm", None, None) == "mitm"


def test_command_line_without_table(tmp_path):
    """No table: the sample by mitm, and a batch past the small-input path too."""
    env = {"BITKNIGHTS_CACHE_DIR": str(tmp_path / "cache"), "NUMBA_CACHE_DIR": str(tmp_path / "nb")}
    sample = tmp_path / "sample.txt"
    sample.write_text(SAMPLE)

    def run(*args):
        code = "import sys; from bitknights.cli import main; sys.exit(main(sys.argv[1:]))"
        return helpers.run_python(code, "solve", *map(str, args), env=env)

    r = run(sample)
    assert r.returncode == 0 and r.stdout == "7\n-1\n", r.stderr
    rng = random.Random(5)
    boards = [random_walk(TARGET, rng.randrange(5, 60), rng) for _ in range(30)]
    long = tmp_path / "long.txt"
    long.write_text(f"{len(boards)}\n" + "\n".join(str(b) for b in boards) + "\n" + "\n" * 300_000)
    want = steps_with("ida", np.array([b.key for b in boards]), TARGET, 15, workers=1).tolist()
    r = run(long, "--engine", "mitm")
    assert r.returncode == 0 and r.stdout.split() == [str(d) for d in want], r.stderr


def test_every_distance_against_the_table(table_dir):
    """Boards at every distance to 19 under limits around the radius: distances and paths."""
    from bitknights.table import load_table

    table = load_table(TARGET, cache_dir=table_dir)
    boards = [b for d in range(1, 20) for b in table.random_boards(d, 6, seed=d)] + [TARGET]
    want = [table.distance(b) for b in boards]
    keys = [b.key for b in boards]
    for limit in (0, 9, 10, 11, 12, 15, 16, 17, 18):
        assert steps_with("mitm", keys, TARGET, limit) == [d if d <= limit else -1 for d in want]
    for b, d in list(zip(boards, want))[::5]:
        got = checked(solve_with("mitm", b, TARGET, 17), b)
        assert got.steps == (d if d <= 17 else None)
