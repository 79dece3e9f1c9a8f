"""Smoke tests: every script in scripts/ answers --help and runs on a tiny input."""

import json
import runpy
import sys
from pathlib import Path

import pytest

from helpers import script

SCRIPTS = Path(__file__).parent.parent / "scripts"
BK = f"{sys.executable} -m bitknights solve --engine bidir"


@pytest.mark.parametrize("name", sorted(p.name for p in SCRIPTS.glob("*.py")))
def test_help(name, monkeypatch, capsys):
    """``--help`` run as ``python SCRIPT --help`` runs it, in this process (the scripts run
    in processes of their own below)."""
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


def test_profile(tiny):
    out = script("profile.py", "--batch", tiny, "--section", "heuristic")
    assert "mean h/d" in out
    out = script("profile.py", "--batch", tiny, "--section", "iterations")
    assert "nodes per bound" in out


def test_bench_bidir(tmp_path):
    out = script("bench_bidir.py", "--only", "hard", "--no-seed", "--per-distance", "2",
                 "--repeat", "1")  # fmt: skip
    assert out.strip()


@pytest.mark.slow
def test_bench_table(tmp_path):
    out = script("bench_table.py", "--cache-dir", tmp_path, "--builds", "1", "--boards", "2000",
                 "--singles", "50")  # fmt: skip
    assert "boards/s" in out or "lookups" in out


@pytest.mark.slow
def test_deep():
    out = script("deep.py", "--runs", "1")
    assert "3 boards at 39" in out and "39 39 39" in out and "36 36 36" in out
