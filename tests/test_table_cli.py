"""The table commands as a user runs them (:func:`bitknights.cli.main`, in process)."""

import io
import json
import random
import sys

import pytest

import helpers
from bitknights import TARGET, Board, read_batch
from bitknights.table import build, load_table, store
from helpers import cache_env, one_line_error, random_board, run_bitknights, run_python, target_file

B1 = "10110\n01*11\n10111\n01001\n00000\n"
B2 = "01011\n110*1\n01110\n01010\n00100\n"
SAMPLE = f"2\n{B1}{B2}"
SMALL = "11000\n00000\n00*00\n00000\n00000\n"


def run(args, cache_dir, stdin=""):
    """``bitknights ARGS`` in process, ``$BITKNIGHTS_CACHE_DIR`` = ``cache_dir`` (or unset)."""
    return run_bitknights(args, stdin, env={store.CACHE_ENV: cache_dir and str(cache_dir)})


def test_info(table_dir, tmp_path):
    r = run(["table", "info"], table_dir)
    assert r.returncode == 0, r.stderr
    assert "status: valid" in r.stdout and "67,603,900" in r.stdout
    r = run(["table", "info", "--format", "json"], table_dir)
    info = json.loads(r.stdout)
    assert info["valid"] and info["boards"] == 67_603_900
    assert info["path"] == str(store.table_path(TARGET, table_dir))
    r = run(["table", "info", "--cache-dir", str(tmp_path)], table_dir)
    assert r.returncode == 1 and "no distance table" in r.stdout


def test_stats(classic, table_dir):
    r = run(["stats", "--format", "json"], table_dir)
    assert r.returncode == 0, r.stderr
    stats = json.loads(r.stdout)
    assert stats["layers"] == classic.layers
    assert sum(stats["layers"]) == stats["boards"] == 67_603_900
    assert stats["max_distance"] == len(stats["layers"]) - 1
    assert classic.distance(Board(stats["example"])) == stats["max_distance"]
    r = run(["stats"], table_dir)
    assert r.returncode == 0
    assert f"farthest: {stats['max_distance']} moves" in r.stdout
    assert "67,603,900" in r.stdout and Board(stats["example"]).rows()[0] in r.stdout


def test_random(classic, table_dir):
    args = ["random", "--distance", "21", "--count", "40", "--seed", "7"]
    r = run(args, table_dir)
    assert r.returncode == 0, r.stderr
    boards = read_batch(r.stdout)
    assert len(boards) == 40 == len(set(boards))
    assert r.stdout.startswith("40\n")
    assert classic.distances(boards).tolist() == [21] * 40
    assert run(args, table_dir).stdout == r.stdout
    assert run([*args[:-1], "8"], table_dir).stdout != r.stdout
    # the batch feeds straight into solve
    s = run(["solve", "--exact", "--engine", "table"], table_dir, stdin=r.stdout)
    assert s.stdout.split() == ["21"] * 40


def test_random_errors(table_dir):
    for distance, count, only in (("1", "9", "only 8 boards"), ("200", "1", "only 0 boards")):
        r = run(["random", "--distance", distance, "--count", count], table_dir)
        one_line_error(r, 2, only)
    for bad in (["--distance", "-1", "--count", "1"], ["--distance", "3", "--count", "0"],
                ["--distance", "3", "--count", "1", "--seed", "-2"]):  # fmt: skip
        r = run(["random", *bad], table_dir)
        assert r.returncode == 2 and "Traceback" not in r.stderr and r.stdout == ""


def test_hint(classic, table_dir, tmp_path):
    r = run(["hint", "--format", "json", "--count-solutions"], table_dir, stdin=B1)
    assert r.returncode == 0, r.stderr
    hint = json.loads(r.stdout)
    board = Board(B1)
    assert hint["distance"] == 7 and hint["optimal_solutions"] == 1
    assert len(hint["moves"]) == len(board.moves())
    for m, h in zip(hint["moves"], classic.hints(board)):
        assert m["move"] == str(h.move) and m["board"] == h.board.compact
        assert m["distance"] == classic.distance(Board(m["board"]))
        assert m["optimal"] == (m["distance"] == 6)
    f = target_file(tmp_path / "board.txt", B1)
    r = run(["hint", str(f)], table_dir)
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert lines[:5] == B1.split()
    assert lines[5] == "distance 7; 1 of 6 moves optimal"
    marked = [x for x in lines[6:] if not x.startswith(" ")]
    (best,) = [h for h in classic.hints(board) if h.optimal]
    assert marked == [f"> {best.move!s:<6}   6  {'/'.join(best.board.rows())}"]
    r = run(["hint"], table_dir, stdin=board.compact + "\n")
    assert r.stdout == run(["hint", str(f)], table_dir).stdout
    one_line_error(run(["hint"], table_dir, stdin="10110\n01*11\n"), 2, "5 rows")


def test_solve_with_table(table_dir, tmp_path):
    r = run(["solve", "--engine", "table"], table_dir, stdin=SAMPLE)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "7\n-1\n"
    r = run(["solve", "--exact", "--format", "json", "--path"], table_dir, stdin=SAMPLE)
    recs = [json.loads(x) for x in r.stdout.splitlines()]
    assert [x["engine"] for x in recs] == ["table", "table"]
    assert [x["steps"] for x in recs] == [7, 18]
    assert len(recs[1]["moves"]) == 18
    r = run(["solve", "--exact", "--format", "json", "--count-solutions"], table_dir, stdin=SAMPLE)
    counts = [load_table(TARGET, cache_dir=table_dir).count_solutions(Board(b)) for b in (B1, B2)]
    assert [json.loads(x)["optimal_solutions"] for x in r.stdout.splitlines()] == counts
    # --cache-dir on the command line, no environment variable
    r = run(["solve", "--format", "json", "--cache-dir", str(table_dir)], None, stdin=SAMPLE)
    assert json.loads(r.stdout.splitlines()[0])["engine"] == "table"


def test_solve_without_table(tmp_path):
    r = run(["solve", "--engine", "table"], tmp_path, stdin=SAMPLE)
    one_line_error(r, 2, "bitknights table build")
    r = run(["solve", "--format", "json"], tmp_path, stdin=SAMPLE)
    assert r.returncode == 0
    assert json.loads(r.stdout.splitlines()[0])["engine"] != "table"
    r = run(["solve", "--count-solutions", "--engine", "ida"], tmp_path, stdin=SAMPLE)
    one_line_error(r, 2, "--count-solutions needs --engine table or compact")
    one_line_error(run(["stats"], tmp_path), 2, "no distance table", "table build")
    assert list(tmp_path.iterdir()) == []


def test_counting_without_the_table_builds_the_compact_table(tmp_path):
    """--count-solutions without a distance table builds the compact table: the same counts."""
    target = target_file(tmp_path / "target.txt", SMALL)
    boards = ["10000/00000/00000/00000/0001*", "00000/01000/1*000/00000/00000"]
    batch = f"{len(boards)}\n" + "".join(b.replace("/", "\n") + "\n" for b in boards)
    table = build(Board(SMALL), cache_dir=tmp_path / "full", quiet=True)
    want = [table.count_solutions(Board(b)) for b in boards]
    cache = tmp_path / "cache"
    args = ["--target", str(target), "--count-solutions"]
    r = run(["solve", "--exact", "--format", "json", *args], cache, stdin=batch)
    assert r.returncode == 0, r.stderr
    records = [json.loads(line) for line in r.stdout.splitlines()]
    assert [x["optimal_solutions"] for x in records] == want
    assert {x["engine"] for x in records} == {"compact"}
    r = run(["hint", "--format", "json", *args], cache, stdin=batch)
    assert [json.loads(x)["optimal_solutions"] for x in r.stdout.splitlines()] == want
    assert sorted(p.suffix for p in cache.iterdir()) == [".bk3", ".proof"]  # built, recorded


def test_hint_without_table_answers_by_search(tmp_path, table_dir):
    """Commands about a few boards work without the table: the same answers, by search."""
    for fmt in ("text", "json"):
        searched = run(["hint", "--format", fmt], tmp_path, stdin=SAMPLE)
        looked_up = run(["hint", "--format", fmt], table_dir, stdin=SAMPLE)
        assert searched.returncode == 0, searched.stderr
        assert searched.stdout == looked_up.stdout and searched.stdout
    assert list(tmp_path.iterdir()) == []


def test_build_other_target_and_corruption(tmp_path):
    target = target_file(tmp_path / "target.txt", SMALL)
    cache = tmp_path / "cache"
    r = run(["table", "build", "--target", str(target), "--cache-dir", str(cache)], None)
    assert r.returncode == 0, r.stderr
    assert r.stderr == ""  # not a terminal: no progress
    path = store.table_path(Board(SMALL), cache)
    assert str(path) in r.stdout and path.exists()
    good = path.read_bytes()
    r = run(["stats", "--format", "json", "--target", str(target)], cache)
    layers = json.loads(r.stdout)["layers"]
    assert sum(layers) == 25 * 276
    raw = bytearray(good)
    raw[-10] ^= 1
    path.write_bytes(bytes(raw))
    one_line_error(run(["stats", "--target", str(target)], cache), 2, "corrupt", "table build")
    r = run(["table", "info", "--target", str(target)], cache)
    assert r.returncode == 1 and "corrupt" in r.stdout
    r = run(["table", "build", "--quiet", "--target", str(target)], cache)
    assert r.returncode == 0 and r.stderr == ""
    assert path.read_bytes() == good
    # the classic target's table is another file: not there
    one_line_error(run(["stats"], cache), 2, "no distance table")


_NO_NUMPY_PROBE = (
    "import sys; from bitknights import cli; status = cli.main(sys.argv[1:]); "
    "print('numpy imported:', 'numpy' in sys.modules, status)"
)


@pytest.mark.parametrize("engine", ["auto", "table"])
@pytest.mark.parametrize("from_file", [True, False])
def test_small_batches_are_answered_without_numpy(table_dir, tmp_path, engine, from_file):
    """With a table, a small count-only batch never imports numpy; the table's answers."""
    rng = random.Random(9)
    boards = [random_board(rng) for _ in range(300)]
    text = f"{len(boards)}\n" + "".join(f"{b}\n" for b in boards)
    args = ["solve", "--engine", engine, "--max-depth", "20"]
    if from_file:
        (tmp_path / "batch.txt").write_text(text)
        args.append(str(tmp_path / "batch.txt"))
    r = run_python(_NO_NUMPY_PROBE, *args, input="" if from_file else text,
                   env={store.CACHE_ENV: str(table_dir)})  # fmt: skip
    assert r.returncode == 0, r.stderr
    *answers, last = r.stdout.splitlines()
    assert last == "numpy imported: False 0"
    want = load_table(TARGET, cache_dir=table_dir).distances(boards, limit=20).tolist()
    assert [int(a) for a in answers] == want


@pytest.mark.parametrize("small", [10, 100, 10_000])
def test_stdin_past_the_small_limit_goes_on_reading(table_dir, monkeypatch, capsys, small):
    """Standard input longer than SMALL_INPUT: the bytes already read are not lost."""
    from bitknights import cli
    from bitknights.cli import streams as cli_streams

    text = f"{200}\n" + (B1 + B2) * 100

    class Pipe(io.BufferedReader):
        def seekable(self):
            return False

    monkeypatch.setattr(cli_streams, "SMALL_INPUT", small)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(Pipe(io.BytesIO(text.encode()))))
    with cache_env(table_dir):
        assert cli.main(["solve"]) == 0
    assert capsys.readouterr().out == "7\n-1\n" * 100


def test_paths_and_json_from_the_table_need_no_numba(table_dir):
    """Single-board answers (paths, JSON records) walk the table in plain Python."""
    code = (
        "import sys, json; from bitknights import cli\n"
        "status = cli.main(['solve', '--format', 'json', '--path', '--exact'])\n"
        "print('numba imported:', 'numba' in sys.modules, status)\n"
    )
    r = run_python(code, input=SAMPLE, env={store.CACHE_ENV: str(table_dir)})
    assert r.returncode == 0, r.stderr
    *records, last = r.stdout.splitlines()
    assert last == "numba imported: False 0"
    records = [json.loads(x) for x in records]
    assert [x["steps"] for x in records] == [7, 18]
    assert all(x["engine"] == "table" and len(x["moves"]) == x["steps"] for x in records)
    for x in records:  # replay the moves
        assert helpers.played(x["board"], [m.split("-")[0] for m in x["moves"]]) == TARGET
