"""Issue 19: every surface asks the distance service, so a guarantee made once holds
everywhere (mitm's bounds, timeouts over builds, ``cache_dir``).  No test asserts a time."""

from __future__ import annotations

import json
import os
import threading

import pytest

import bitknights as bk
from bitknights import TARGET, Board
from bitknights.errors import BitknightsError
from bitknights.service import DistanceService
from helpers import one_line_error, run, solve_with

LIMIT = 120  # seconds any wait may take
NEAR = Board("10110/01*11/10111/01001/00000")  # 7 moves from the target
FAR = Board("01011/110*1/01110/01010/00100")  # 18 moves
SAMPLE = f"2\n{NEAR}\n{FAR}\n"


def test_mitm_refuses_requests_it_cannot_bound(tmp_path):
    for args in (["--exact"], ["--max-depth", "23"]):
        r = run(["solve", "--engine", "mitm", *args, "--timeout", "3"], tmp_path, SAMPLE)
        one_line_error(r, 2, "at most 22 moves", "bidir")
    with pytest.raises(BitknightsError, match="at most 22 moves"):
        bk.solve(NEAR, engine="mitm", max_depth=None)
    r = run(["solve", "--engine", "mitm", "--max-depth", "22"], tmp_path, SAMPLE)
    assert (r.returncode, r.stdout) == (0, "7\n18\n"), r.stderr


def test_mitm_honours_timeouts_and_its_memory_budget(monkeypatch, table_dir):
    far = bk.table.load_table(cache_dir=table_dir).example()  # 39 moves away
    s = solve_with("mitm", far, TARGET, 22, timeout=0.01)
    assert s.status == "timeout" and s.steps is None
    from bitknights.engines import mitm

    monkeypatch.setattr(mitm, "MAX_FORWARD", 1000)
    with pytest.raises(BitknightsError, match="memory budget"):
        solve_with("mitm", far, TARGET, 22)


@pytest.mark.slow
def test_a_timeout_covers_the_pattern_database_build_and_it_runs_once(tmp_path, monkeypatch):
    from bitknights.engines import pdb

    real, calls, release = pdb.pattern_tables, [], threading.Event()

    def slow_build(target_key, cache_dir=None):
        calls.append(cache_dir)
        release.wait(LIMIT)  # a build that takes as long as the test wants
        return real(target_key, cache_dir)

    monkeypatch.setattr(pdb, "pattern_tables", slow_build)
    monkeypatch.setattr(pdb, "_TABLES", {})  # none in memory yet
    deep = [Board("00000/11000/10101/*1100/11111"), Board("00000/1000*/11010/11100/11111")]
    cache = tmp_path / "patterns"
    sols = bk.solve_many(deep, engine="ida", max_depth=None, timeout=0.3, workers=2,
                         cache_dir=cache)  # fmt: skip
    assert [s.status for s in sols] == ["timeout", "timeout"]
    assert calls == [cache]  # one build, for both searches, with the caller's directory
    release.set()
    assert solve_with("ida", deep[0], TARGET, None, cache_dir=cache).steps is not None
    assert calls == [cache] and list(cache.glob("patterns-*.bkp"))


@pytest.mark.slow
def test_the_restart_with_pattern_databases_builds_them_where_cache_dir_says(tmp_path, monkeypatch):
    from bitknights.engines import ida, pdb

    monkeypatch.setattr(ida, "PDB_AFTER_NODES", 1000)  # restart at the first look
    pdb._TABLES.clear()
    cache = tmp_path / "mine"
    slow = Board("10110/01011/00010/1*101/00101")  # 22 moves, 600 k nodes without them
    s = solve_with("ida", slow, TARGET, 22, cache_dir=cache)
    assert s.steps == 22
    assert list(cache.glob("patterns-*.bkp"))
    default = os.environ["BITKNIGHTS_CACHE_DIR"]
    pdb._TABLES.clear()
    other = tmp_path / "other"
    assert pdb.pattern_bound(FAR, TARGET, other) > 0
    assert list(other.glob("patterns-*.bkp"))
    assert os.environ["BITKNIGHTS_CACHE_DIR"] == default


def test_the_game_deals_every_distance_it_promises_without_a_table(tmp_path):
    """Without a table, a fresh board of exactly the distance asked, up to 24."""
    answers = DistanceService(engine="bidir")
    for seed in range(12):
        game = bk.Game(distance=24, seed=seed, answers=answers)
        assert game.distance == 24
    assert bk.Game(distance=3, seed=1, answers=answers).distance == 3


def test_json_records_still_carry_engine_and_nodes(table_dir):
    r = run(["solve", "--format", "json"], table_dir, SAMPLE)
    rec = json.loads(r.stdout.splitlines()[0])
    assert rec["engine"] == "table" and rec["steps"] == 7


def test_every_error_a_caller_catches_is_a_bitknights_error():
    """Every exception class bitknights defines derives from BitknightsError (keeping
    ValueError), except those that never leave it."""
    import ast
    import importlib
    from pathlib import Path

    from bitknights.engines import get_engine
    from bitknights.squares import parse_square

    root = Path(bk.__file__).parent
    inside = {"bitknights.cli.common.UsageError", "bitknights.cli.common.ResourceError",
              "bitknights.threads.Stopped", "bitknights.engines.mitm._Stopped",
              "bitknights.engines.mitm.BallError"}  # fmt: skip
    found = []
    for path in root.rglob("*.py"):
        module = ".".join(("bitknights", *path.relative_to(root).with_suffix("").parts))
        for node in ast.walk(ast.parse(path.read_text())):
            bases = [ast.unparse(b) for b in getattr(node, "bases", ())]
            if isinstance(node, ast.ClassDef) and any(b.endswith(("Error", "Exception"))
                                                      for b in bases):  # fmt: skip
                found.append(f"{module.removesuffix('.__init__')}.{node.name}")
    assert len(found) >= 12
    for name in sorted(set(found) - inside):
        module, _, cls = name.rpartition(".")
        error = getattr(importlib.import_module(module), cls)
        assert issubclass(error, BitknightsError) and issubclass(error, ValueError), name
    with pytest.raises(BitknightsError, match="not a square name"):
        parse_square("z9")
    for unknown in (lambda: get_engine("nope"), lambda: DistanceService(engine="nope")):
        with pytest.raises(BitknightsError, match="unknown engine"):
            unknown()
