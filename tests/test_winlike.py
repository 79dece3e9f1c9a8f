"""The Windows-like mode (``tests/winlike/sitecustomize.py``): under a standard library as
Windows has it, every command and the Python API give the Linux output and exit status."""

from __future__ import annotations

import errno
import io
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import copy_table, record_proof, run_python, write_compact

HERE = Path(__file__).parent
WINLIKE = {"PYTHONPATH": str(HERE / "winlike")}
LINUX: dict[str, str] = {}
ROOT = HERE.parent
B = "10110/01*11/10111/01001/00000"  # 7 moves
ROWS = B.replace("/", "\n") + "\n"
FAR = "00001/10000/10101/101*1/11101"  # 30 moves
SEVENTH = "00000/10000/11*00/11110/11111"
MOVES = ["e5", "d3", "b2", "c4", "a3", "b5", "c3"]

# every command, engine and way in, run in one process a mode, files on the real system
COMMANDS = [
    (["solve", "sample.txt"], ""),
    (["solve", "-"], f"1\n{ROWS}"),
    (["solve", B], ""),
    (["solve", "--exact", "sample.txt"], ""),
    (["solve", "--path", B], ""),
    (["solve", "--format", "json", "--count-solutions", "--path", B], ""),
    *[
        (["solve", "--engine", e, "--exact", "sample.txt"], "")
        for e in ("ida", "bidir", "table", "compact")
    ],
    (["solve", "--engine", "mitm", "sample.txt"], ""),
    (["solve", "--exact", "--path", FAR], ""),
    (["hint", B], ""),
    (["hint", FAR], ""),
    (["check", B, *MOVES], ""),
    (["check", B, *MOVES[:3]], ""),
    (["solutions", SEVENTH, "--limit", "3"], ""),
    (["solutions", FAR, "--limit", "2"], ""),
    (["random", "--distance", "30", "--count", "2", "--seed", "1", "--format", "json"], ""),
    (["play", B], "hint\ne5\nundo\nredo\nsolve\nquit\n"),
    (["table", "info"], ""),
    (["stats"], ""),
    (["solve", "nosuchfile"], ""),
    (["solve", "-"], "1\n10110\n"),
    (["solve", "--target", "nosuchfile", B], ""),
]

DRIVER = """
import json, sys
sys.path.insert(0, sys.argv[1])
from helpers import run_bitknights
cases = json.loads(sys.stdin.read())
print(json.dumps([list(run_bitknights(args, stdin)[1:]) for args, stdin in cases]))
"""

API = """
import json, os
import bitknights as bk
from bitknights import system, table
b, far, seventh, deep = {b!r}, {far!r}, {seventh!r}, "01011/110*1/01110/01010/00100"
game = bk.Game(b)
game.move("e5")
out = [
    system.OWNERS, system._pread is getattr(os, "pread", None),
    repr(bk.solve(b)), str(bk.solve(far, max_depth=None)),
    [s.steps for s in bk.solve_many([b, far, seventh], max_depth=None, count_solutions=True)],
    [s.steps for s in bk.iter_solve([b, deep], engine="ida", max_depth=None)],
    [" ".join(map(str, m)) for m in bk.optimal_solutions(seventh, limit=3)],
    table.distance(far), [str(h) for h in table.hints(b)], table.count_solutions(seventh),
    [x.compact for x in table.random_boards(25, 2, seed=3)], table.layer_counts()[:9],
    str(bk.check(b, {moves!r})), str(game), game.distance,
]
print(json.dumps(out))
"""


def _masked(text: str, cache: Path) -> str:
    """``text`` without what differs from run to run: seconds, build times, the cache."""
    text = text.replace(str(cache), "CACHE")
    text = re.sub(r'(seconds\\?"): ?[0-9.e-]+', r"\1:0", text)  # (also inside JSON strings)
    text = re.sub(r"\b[0-9]+\.[0-9] s\b", "- s", text)  # a build's seconds
    return re.sub(r"built: [^\\\n]*", "built: -", text)


def _python(code: str, mode: dict, cache: Path, *args: str, stdin: str = "") -> str:
    env = {**mode, "BITKNIGHTS_CACHE_DIR": str(cache)}
    r = run_python(code, *args, env=env, input=stdin, cwd=ROOT)
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    return _masked(r.stdout, cache)


@pytest.fixture(scope="module")
def caches(table_dir, classic_compact, tmp_path_factory) -> dict[str, Path]:
    """A cache directory for each mode, holding the classic distance and compact tables
    (proofs recorded, as a build leaves them)."""
    made = {}
    for mode in ("linux", "windows"):
        made[mode] = tmp_path_factory.mktemp(mode) / "cache"
        copy_table(table_dir, made[mode])
        record_proof(made[mode])
        write_compact(classic_compact, made[mode])
    return made


def test_every_command_answers_as_on_linux(caches):
    cases = json.dumps(COMMANDS)
    linux = json.loads(_python(DRIVER, LINUX, caches["linux"], str(HERE), stdin=cases))
    windows = json.loads(_python(DRIVER, WINLIKE, caches["windows"], str(HERE), stdin=cases))
    for (args, _), got, want in zip(COMMANDS, windows, linux):
        assert got == want, args
        assert "Traceback" not in got[2], (args, got)
    statuses = [status for status, _, _ in linux]
    assert statuses == [0] * 15 + [1] + [0] * 6 + [2] * 3  # check: 1 when moves fall short
    assert linux[0][1:] == ["7\n-1\n", ""]


def test_the_python_api_answers_as_on_linux(caches):
    code = API.format(b=B, far=FAR, seventh=SEVENTH, moves=MOVES)
    windows = json.loads(_python(code, WINLIKE, caches["windows"]))
    linux = json.loads(_python(code, LINUX, caches["linux"]))
    assert windows[:2] == [False, False] and linux[:2] == [True, True]  # owners, pread
    assert windows[2:] == linux[2:]


@pytest.mark.parametrize(
    ("args", "stdin", "env"),
    [
        (["solve", "sample.txt"], "", {}),
        (["solve"], f"2\n{ROWS}{FAR.replace('/', chr(10))}\n", {}),
        (["solve", "--path", "--exact", B], "", {"PYTHONIOENCODING": "cp1252"}),
        (["play", B], "hint\nc4\nsolve\n", {}),
        (["play", "--help"], "", {"PYTHONIOENCODING": "cp1252"}),
        (["hint", "10110/01*11"], "", {}),
    ],
)
def test_a_process_answers_as_on_linux(caches, args, stdin, env):
    """Whole processes: the console script's own streams and descriptors (standard input
    read by a thread in ``play``), an ANSI code page on the pipes."""
    ran = {}
    for mode, extra in (("linux", LINUX), ("windows", WINLIKE)):
        environ = {**os.environ, **extra, **env, "BITKNIGHTS_CACHE_DIR": str(caches[mode])}
        r = subprocess.run([sys.executable, "-m", "bitknights", *args], input=stdin.encode(),
                           capture_output=True, env=environ, cwd=ROOT, timeout=300)  # fmt: skip
        assert b"Traceback" not in r.stderr, r.stderr
        ran[mode] = (r.returncode, r.stdout, r.stderr)
    assert ran["windows"] == ran["linux"]
    status, out, err = ran["linux"]
    assert (status, bool(out)) == ((2, False) if args[0] == "hint" else (0, True)), err


def test_a_file_held_open_is_not_replaced(tmp_path):
    """Where no process may replace a file another holds open, writing it waits a
    moment, then says what to do; nothing is half-written and nothing is left behind."""
    code = """
import os, sys, time
from bitknights import cache
path = os.path.join(sys.argv[1], "x.bin")
cache.atomic_write(path, [b"one"], "test file")
held = os.open(path, os.O_RDONLY)
t0 = time.monotonic()
try:
    cache.atomic_write(path, [b"two"], "test file")
except cache.CacheError as e:
    print(e, round(time.monotonic() - t0) >= cache.REPLACE_SECONDS)
os.close(held)
print(open(path, "rb").read(), sorted(os.listdir(sys.argv[1])))
cache.atomic_write(path, [b"three"], "test file")
print(open(path, "rb").read())
"""
    out = _python(code, WINLIKE, tmp_path / "cache", str(tmp_path)).splitlines()
    assert out == [
        f"cannot replace test file {tmp_path}/x.bin: another process has it open; end that "
        "process (a running bitknights, a notebook's kernel) and try again True",
        "b'one' ['x.bin']",
        "b'three'",
    ]


def test_a_reader_gone_as_windows_says_it_ends_quietly():
    """A closed pipe's ``EINVAL`` (Windows' ``EPIPE``) ends the output quietly, status 0."""
    from bitknights import cli

    class Gone(io.StringIO):
        def write(self, text):
            raise OSError(errno.EINVAL, "Invalid argument")

    err = io.StringIO()
    env = cli.Environment(stdin=None, stdout=Gone(), stderr=err, environ={})
    assert cli.main(["solve", "--exact", B], env) == 0 and err.getvalue() == ""


@pytest.mark.slow
def test_building_answers_as_on_linux(tmp_path):
    """Without a table: the builds (the distance table, the compact table for a far board,
    the pattern databases for a deep search) write their files as on Linux."""
    cases = json.dumps([
        (["solve", "--exact", FAR], ""),
        (["solve", "--engine", "ida", "--exact", "--quiet", "00000/10000/11*00/11110/11111"], ""),
        (["table", "build"], ""),
        (["table", "verify"], ""),
        (["stats"], ""),
    ])  # fmt: skip
    got = {}
    for mode, extra in (("linux", LINUX), ("windows", WINLIKE)):
        cache = tmp_path / mode / "cache"
        got[mode] = json.loads(_python(DRIVER, extra, cache, str(HERE), stdin=cases))
        assert sorted(os.listdir(cache)) == sorted(os.listdir(tmp_path / "linux" / "cache"))
    assert got["windows"] == got["linux"]
    assert [status for status, _, _ in got["linux"]] == [0] * 5
