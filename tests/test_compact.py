"""The compact table and its engine: exact, refused when damaged, chosen for far boards."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import numpy as np
import pytest

import bitknights as bk
import helpers
from bitknights import TARGET, Board, cache
from bitknights.coords import rank, state_count
from bitknights.engines import compact as compact_engine
from bitknights.errors import BitknightsError
from bitknights.results import OVER_LIMIT
from bitknights.service import DistanceService, far
from bitknights.table import compact
from helpers import SMALL, by_distance, forge_compact, run_bitknights, solve_with, target_file

FAR = Board("00000/11000/10101/*1100/11111")  # 39 moves from the classic target


@pytest.fixture
def fresh(monkeypatch):
    """No compact table in memory from earlier tests."""
    monkeypatch.setattr(compact_engine, "_TABLES", {})


@pytest.fixture
def small(tmp_path, fresh):
    """``(table, path)``: the compact table of :data:`SMALL`, built in ``tmp_path``."""
    table = compact.build(SMALL, tmp_path)
    return table, Path(table.path)


def replayed(board, blanks):
    """The boards along a path given as the blank's squares, each move checked legal."""
    boards = [board]
    for sq in blanks[1:]:
        assert sq in [m.from_square for m in boards[-1].moves()], (board, blanks)
        boards.append(boards[-1].play(sq))
    return boards


def test_every_board_of_a_small_target_walks_to_its_exact_distance(
    tmp_path, small_ball, small, monkeypatch
):
    """Every board's walk, compiled and plain, and batches both ways: the naive BFS's."""
    table = small[0]
    assert compact.load(SMALL, tmp_path).max_distance == max(small_ball.values())
    for i, (text, d) in enumerate(small_ball.items()):
        b = Board(text)
        steps, blanks = table.walk(b.black, b.blank)
        assert (steps, blanks) == table.walk_plain(b.black, b.blank)[:2]
        assert steps == d and len(blanks) == d + 1
        if i % 8 == 0:
            assert replayed(b, blanks)[-1] == SMALL
        if d > 3 and i % 16 == 0:
            assert table.walk(b.black, b.blank, 3) == table.walk_plain(b.black, b.blank, 3)[:2]
            assert table.walk(b.black, b.blank, 3) == (OVER_LIMIT, [])
    keys = [Board(t).key for t in small_ball]
    want = list(small_ball.values())
    assert len(keys) > compact.PLAIN_BOARDS  # the compiled kernel
    assert table.distances(keys, 1000) == want
    assert table.distances(np.array(keys), 5).tolist() == [d if d <= 5 else -1 for d in want]
    monkeypatch.setattr(compact, "PLAIN_BOARDS", len(keys))  # in plain Python
    assert table.distances(keys[::4], 1000) == want[::4]
    assert table.distances(keys[1::4], 5) == [d if d <= 5 else -1 for d in want[1::4]]
    other = Board("11100/00000/00*00/00000/00000")  # 3 black knights: never arrives
    assert table.distances([other.key], 1000) == [-1]
    assert table.distances(np.array([other.key, SMALL.key]), 1000).tolist() == [-1, 0]
    s = DistanceService(SMALL, engine="compact", cache_dir=tmp_path).solve(other, max_depth=None)
    assert s.status == "unreachable"


@pytest.fixture(scope="module")
def classic_pair(table_dir, classic_compact):
    """The classic distance table and its compact table."""
    return bk.table.load_table(cache_dir=table_dir), classic_compact


def every_distance(full, per_distance):
    """Boards drawn uniformly at each distance from the target to the farthest."""
    counts = [(d, min(per_distance, n)) for d, n in enumerate(full.layers)]
    return [b for d, n in counts for b in full.random_boards(d, n, seed=d)]


def test_the_compact_table_agrees_with_the_distance_table_at_every_distance(classic_pair):
    """Boards at 0..39: walks (the table's paths) and batches equal the distance table's."""
    full, table = classic_pair
    boards = every_distance(full, 8)
    want = [full.distance(b) for b in boards]
    assert sorted(set(want)) == list(range(40))
    for b, d in zip(boards, want):
        steps, blanks = table.walk(b.black, b.blank)
        assert (steps, blanks) == table.walk_plain(b.black, b.blank)[:2]
        assert (steps, blanks) == full.walk(b)[:2]  # first neighbour one nearer, both
        assert steps == d and replayed(b, blanks)[-1] == TARGET
    keys = np.array([b.key for b in boards])
    for limit in (0, 15, 30, 200):
        capped = [d if d <= limit else -1 for d in want]
        assert table.distances(keys, limit).tolist() == capped
        assert table.distances(keys.tolist(), limit) == capped
    assert len(keys) <= compact.PLAIN_BOARDS
    for d in (20, 30, 35):
        drawn = table.random_boards(d, 20, seed=d)
        assert len(set(drawn)) == 20 and {full.distance(b) for b in drawn} == {d}


@pytest.mark.slow
def test_the_compact_table_counts_as_the_distance_table_does(classic_pair):
    """How many optimal move sequences, a board at every distance."""
    full, table = classic_pair
    for b in every_distance(full, 1):
        assert table.count_solutions(b) == full.count_solutions(b)
    assert table.count_solutions(TARGET) == 1


@pytest.mark.slow
def test_the_classic_table_agrees_with_the_distance_table(tmp_path, table_dir, fresh):
    full = bk.table.load_table(cache_dir=table_dir)
    table = compact.build(TARGET, tmp_path)
    rng = random.Random(22)
    boards = [helpers.random_walk(TARGET, rng.randrange(0, 60), rng) for _ in range(300)]
    boards += full.random_boards(39, 20, seed=1) + full.random_boards(36, 20, seed=1)
    for b in boards:
        assert table.walk(b.black, b.blank)[0] == full.distance(b)
    sols = [solve_with("compact", b, TARGET, None, cache_dir=tmp_path) for b in boards[-40:]]
    for b, s in zip(boards[-40:], sols):
        s.verify()
        assert s.steps == full.distance(b) and s.engine == "compact"
    keys = [b.key for b in boards]
    got = helpers.steps_with("compact", keys, TARGET, 30, cache_dir=tmp_path)
    assert got == [d if d <= 30 else -1 for d in (full.distance(b) for b in boards)]


def _shift_codes(table, path, ranks):
    """Shift the codes of ``ranks`` one on (mod 3), every checksum recomputed."""
    forge_compact(path, table.target, {r: (table.code(r) + 1) % 3 for r in ranks})


def test_a_forged_code_is_caught_by_the_proof_and_rebuilt(tmp_path, small_ball, small, capfd):
    built, path = small
    board = Board(next(t for t, d in small_ball.items() if d == 9))
    _shift_codes(built, path, [rank(board.black, board.blank)])  # no proof record
    table = compact.load(SMALL, tmp_path)  # compared with a fresh build: replaced
    assert "is not exact" in capfd.readouterr().err
    assert table.walk(board.black, board.blank)[0] == 9
    for n in (c for _, c in board.children()):
        assert table.walk(n.black, n.blank)[0] == small_ball[n.compact]


def test_files_that_fail_their_checks_are_rebuilt_or_refused(tmp_path, small, monkeypatch):
    built, path = small
    good = path.read_bytes()
    # a flipped byte, or every code shifted (checksums right): proved, rebuilt, replaced
    bad = bytearray(good)
    bad[-5] ^= 1
    every = range(state_count(2))
    near = SMALL.play(SMALL.moves()[0])
    for damage in (lambda: path.write_bytes(bytes(bad)), lambda: _shift_codes(built, path, every)):
        path.write_bytes(good)
        damage()
        assert compact.load(SMALL, tmp_path).walk(near.black, near.blank)[0] == 1
        assert path.read_bytes() == good  # the fresh build, written back
    # a header whose checksum does not match is refused before anything is read
    head = bytearray(good)
    head[20] ^= 1
    path.write_bytes(bytes(head))
    with pytest.raises(BitknightsError, match="checksum"):
        compact.load(SMALL, tmp_path)
    # the engine rebuilds such a file (said once) and answers right
    assert solve_with("compact", near, SMALL, None, cache_dir=tmp_path).steps == 1
    assert compact.load(SMALL, tmp_path) is not None  # rebuilt and written back
    # a FIFO at the path is refused at once, not waited on
    path.unlink()
    os.mkfifo(path)
    with pytest.raises(BitknightsError, match="FIFO"):
        compact.load(SMALL, tmp_path)
    assert compact_engine.available(SMALL, tmp_path)  # the one checked in memory serves
    monkeypatch.setattr(compact_engine, "_TABLES", {})  # a new process
    assert not compact_engine.available(SMALL, tmp_path)


def test_an_untrusted_file_is_said_once_and_not_used(tmp_path, capsys, small):
    path = small[1]
    path.chmod(0o666)
    with pytest.raises(cache.UntrustedError):
        compact.load(SMALL, tmp_path)
    assert not compact_engine.available(SMALL, tmp_path)
    assert "chmod go-w" in capsys.readouterr().err


@pytest.mark.slow
def test_auto_sends_far_boards_to_the_compact_table_when_there_is_no_distance_table(
    tmp_path, fresh
):
    near = Board("01011/110*1/01110/01010/00100")  # 18 moves
    assert far(FAR, TARGET) and not far(near, TARGET)
    answers = DistanceService(cache_dir=tmp_path)
    assert answers.choose(None) == "bidir"  # nothing built yet
    assert answers.solve(near, max_depth=None).engine == "bidir"  # near: search, no build
    assert not list(tmp_path.iterdir())
    s = answers.solve(FAR, max_depth=None)
    assert (s.steps, s.engine) == (39, "compact")
    assert list(tmp_path.glob("*.bk3"))  # built once, kept
    # from now on it answers every request above 20 moves, near boards too
    assert answers.choose(None) == answers.choose(21) == "compact"
    assert answers.choose(20) != "compact" and answers.choose(15) != "compact"
    assert answers.solve(near, max_depth=None).engine == "compact"
    r = run_bitknights(["solve", "--exact", "--format", "json"], f"2\n{near}\n{FAR}\n",
                   cache_dir=tmp_path)  # fmt: skip
    recs = [json.loads(line) for line in r.stdout.splitlines()]
    assert [(x["steps"], x["engine"]) for x in recs] == [(18, "compact"), (39, "compact")]
    r = run_bitknights(["solve", "--exact"], f"2\n{near}\n{FAR}\n", cache_dir=tmp_path)
    assert r.stdout == "18\n39\n", r.stderr
    # explicit engines are left alone
    explicit = DistanceService(engine="bidir", cache_dir=tmp_path)
    assert explicit.solve(near, max_depth=None).engine == "bidir"


def test_the_deep_data_files_lie_where_their_names_say(table_dir):
    """scripts/deep.py times these files; their boards are what their names say."""
    data = Path(__file__).parent / "data"
    full = bk.table.load_table(cache_dir=table_dir)
    for name, want in (("distance36.txt", 36), ("distance39.txt", 39), ("seventh_guest.txt", 36)):
        boards = bk.read_batch((data / name).read_text())
        assert [full.distance(b) for b in boards] == [want] * len(boards), name
    guest = bk.read_batch((data / "seventh_guest.txt").read_text())[0]
    swap = str.maketrans("01", "10")
    assert guest.compact == TARGET.compact.translate(swap)


def test_a_few_boards_are_walked_without_numpy(tmp_path, small):
    """A judge-sized input from the compact table imports neither numpy nor numba."""
    target = target_file(tmp_path / "target.txt", SMALL)
    boards = ["10000/00000/00000/00000/0001*", "00000/01000/1*000/00000/00000"]
    code = (
        "import sys; from bitknights import cli; "
        f"status = cli.main(['solve', '--exact', '--target', {str(target)!r}]); "
        "print('numpy' in sys.modules, 'numba' in sys.modules, status)"
    )
    batch = "2\n" + "".join(b.replace("/", "\n") + "\n" for b in boards)
    r = helpers.run_python(code, input=batch, env={"BITKNIGHTS_CACHE_DIR": str(tmp_path)})
    want = [small[0].walk_plain(Board(b).black, Board(b).blank)[0] for b in boards]
    assert r.stdout.split() == [*map(str, want), "False", "False", "0"], r.stderr


def test_random_boards_from_the_compact_table(tmp_path, small_ball, small, monkeypatch):
    """Random boards by rejection: exact, seeded, whole layers, a clear error, the CLI."""
    table = small[0]
    layers = by_distance(small_ball)
    for d in (0, 1, 7, 12, max(layers)):
        count = min(20, len(layers[d]))
        boards = table.random_boards(d, count, seed=d)
        assert len(set(boards)) == count and {b.compact for b in boards} <= set(layers[d])
        assert table.random_boards(d, count, seed=d) == boards
    every = table.random_boards(3, len(layers[3]), seed=1)
    assert {b.compact for b in every} == set(layers[3])
    monkeypatch.setattr(compact, "RANDOM_DRAWS", compact.RANDOM_BATCH)
    with pytest.raises(BitknightsError, match="distance table, which lists them"):
        table.random_boards(3, len(layers[3]) + 1, seed=1)
    with pytest.raises(BitknightsError, match="no board lies"):
        table.random_boards(max(layers) + 1, 1)
    target = target_file(tmp_path / "target.txt", SMALL)
    r = run_bitknights(["random", "--distance", "9", "--count", "4", "--seed", "2", "--format",
                        "json", "--target", target], cache_dir=tmp_path)  # fmt: skip
    assert r.returncode == 0, r.stderr
    for rec in map(json.loads, r.stdout.splitlines()):
        assert small_ball[Board(rec["board"]).compact] == rec["distance"] == 9 == len(rec["moves"])
        assert helpers.played(rec["board"], rec["moves"]) == SMALL
