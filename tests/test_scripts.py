"""Smoke tests: every script in scripts/ answers --help and runs on a tiny input."""

import json
import runpy
import sys
from pathlib import Path

import pytest

from helpers import script

SCRIPTS = Path(__file__).parent.parent / "scripts"
SLOW = pytest.mark.slow
BK = f"{sys.executable} -m bitknights solve --engine bidir"


@pytest.mark.parametrize("name", sorted(p.name for p in SCRIPTS.glob("*.py")))
def test_help(name, monkeypatch, capsys):
    """``python SCRIPT --help``, run in this process."""
    monkeypatch.setattr(sys, "argv", [str(SCRIPTS / name), "--help"])
    monkeypatch.syspath_prepend(str(SCRIPTS))
    with pytest.raises(SystemExit) as done:
        runpy.run_path(str(SCRIPTS / name), run_name="__main__")
    assert done.value.code in (0, None) and "usage:" in capsys.readouterr().out


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    path = tmp_path_factory.mktemp("batch") / "tiny.txt"
    script("make_batch.py", path, "--distances", "5-6", "--per-distance", "3")
    return path


def test_make_batch_writes_exact_distances(tiny):
    from bitknights import read_batch, solve

    boards = read_batch(tiny.read_text())
    dists = [int(x) for x in Path(f"{tiny}.dist").read_text().split()]
    assert len(boards) == 6 and sorted(dists) == [5, 5, 5, 6, 6, 6]
    assert [solve(b, max_depth=None).steps for b in boards] == dists
    assert len(set(boards)) == 6


def test_bench(tiny, tmp_path):
    out = script("bench.py", tiny, "--engines", "ida", "--reference", BK, "--repeat", "1",
                 "--json", tmp_path / "r.json")  # fmt: skip
    assert "all answers agree" in out and "faster than" in out
    r = json.loads((tmp_path / "r.json").read_text())
    assert set(r["bitknights:ida"]["by_distance"]) == {"5", "6"}


@pytest.mark.parametrize(
    "command, says",
    [
        ("profile.py --batch TINY --section heuristic", ["mean h/d"]),
        ("profile.py --batch TINY --section iterations", ["nodes per bound"]),
        ("bench_bidir.py --only hard --no-seed --per-distance 2 --repeat 1 --save TMP", []),
        pytest.param(
            "bench_table.py --cache-dir TMP --builds 1 --boards 2000 --singles 50",
            ["boards/s"],
            marks=SLOW,
        ),
        pytest.param("deep.py --runs 1", ["3 boards at 39", "39 39 39", "36 36 36"], marks=SLOW),
    ],
)
def test_a_script_runs(command, says, request, tmp_path):
    """The script runs (``TINY``: the tiny batch, ``TMP``: a directory) and says ``says``."""
    given = {"TMP": tmp_path}
    if "TINY" in command:
        given["TINY"] = request.getfixturevalue("tiny")
    out = script(*(given.get(word, word) for word in command.split()))
    assert out.strip() and all(s in out for s in says), out
