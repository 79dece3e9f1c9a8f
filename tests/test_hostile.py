"""Issue 15's adversarial list: hostile cache files, inputs and outputs, under timeouts."""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

import pytest

import helpers
from bitknights import TARGET
from bitknights.table import store
from helpers import SAMPLE, copy_table, forge, one_line_error, record_proof, run, run_python, shell
from terminal import BOUND, CLI

SAMPLE_ANSWER = "7\n-1\n"


# -- S2, S3: what stands at a cache path ----------------------------------------------------


@pytest.mark.parametrize("kind", ["fifo", "dev-zero", "directory"])
def test_odd_files_at_the_cache_paths_are_refused_at_once(kind, cache_dir):
    paths = [store.table_path(TARGET, cache_dir), cache_dir / "patterns-11111-01111-00x11-00001-00000.bkp"]  # fmt: skip
    for path in paths:
        helpers.ODD_FILES[kind](path)
    r = run(["solve", str(SAMPLE)], cache_dir)
    assert r.returncode == 0 and r.stdout == SAMPLE_ANSWER, r.stderr
    r = run(["solve", "--engine", "ida", "--exact", str(SAMPLE)], cache_dir)
    assert r.returncode == 0 and r.stdout.splitlines()[0] == "7", r.stderr
    info = run(["table", "info"], cache_dir)
    assert info.returncode == 1 and "not a regular file" in info.stdout or "FIFO" in info.stdout
    err = one_line_error(run(["solve", "--engine", "table", str(SAMPLE)], cache_dir))
    assert str(paths[0]) in err
    code = "import bitknights as bk; print(bk.solve(bk.read_batch(bk.SAMPLE)[0]).steps)"
    r = run_python(code, env={"BITKNIGHTS_CACHE_DIR": str(cache_dir)})
    assert r.stdout == "7\n", r.stderr


@pytest.mark.parametrize(
    "args",
    [
        ["solve", "--target", "/dev/zero", str(SAMPLE)],
        ["table", "build", "--target", "/dev/zero"],
        ["solve", "/dev/zero"],
    ],
)
def test_endless_inputs_end_in_one_line(args, cache_dir):
    err = one_line_error(run(args, cache_dir))
    assert "/dev/zero" in err


def test_one_huge_line_is_refused_without_reading_it_all(cache_dir):
    feed = subprocess.Popen(["head", "-c", "200000000", "/dev/zero"], stdout=subprocess.PIPE)
    r = subprocess.run([*CLI, "solve"], stdin=feed.stdout, capture_output=True, text=True,
                       timeout=BOUND, env={**os.environ, "BITKNIGHTS_CACHE_DIR": str(cache_dir)})  # fmt: skip
    feed.kill()
    feed.wait(timeout=BOUND)
    assert "line 1: a line longer than 4,096 bytes" in one_line_error(r)


# -- S4: forged and untrusted caches --------------------------------------------------------


def test_a_forged_table_never_answers_wrong(table_dir, cache_dir):
    """One payload byte changed, every checksum recomputed: never answered wrong."""
    from bitknights import read_batch
    from bitknights.coords import rank

    path = copy_table(table_dir, cache_dir)
    board = read_batch(SAMPLE.read_text())[0]
    forge(path, rank(board.black, board.blank), 3)
    for engine in ("auto", "table"):
        r = run(["solve", "--engine", engine, str(SAMPLE)], cache_dir)
        assert r.stdout in ("", SAMPLE_ANSWER)
        if r.stdout == "":
            assert "is not exact" in one_line_error(r)
    r = run(["solve", "--engine", "table", "--format", "json", "--path", str(SAMPLE)], cache_dir)
    assert '"steps":3' not in r.stdout and "is not exact" in one_line_error(r)


def test_a_table_others_may_write_is_not_trusted(table_dir, cache_dir):
    path = copy_table(table_dir, cache_dir)
    path.chmod(0o666)
    r = run(["solve", str(SAMPLE)], cache_dir)
    assert r.returncode == 0 and r.stdout == SAMPLE_ANSWER  # answered by search
    assert f"not trusting distance table: {path} is writable by group and others" in r.stderr
    assert "chmod go-w" in r.stderr
    err = one_line_error(run(["solve", "--engine", "table", str(SAMPLE)], cache_dir))
    assert "chmod go-w" in err
    path.chmod(0o644)
    record_proof(cache_dir)
    cache_dir.chmod(0o777)
    try:
        err = one_line_error(run(["solve", "--engine", "table", str(SAMPLE)], cache_dir))
        assert f"{cache_dir} is writable by group and others" in err
    finally:
        cache_dir.chmod(0o755)
    assert run(["solve", "--engine", "table", str(SAMPLE)], cache_dir).stdout == SAMPLE_ANSWER


def test_a_table_truncated_while_in_use_is_an_error_not_a_crash(table_dir, cache_dir):
    from bitknights.table import probe

    path = copy_table(table_dir, cache_dir)
    record_proof(cache_dir)
    store._loaded.clear()
    file = store.load(TARGET, cache_dir)  # as a later process: the proof remembered, read lazily
    os.truncate(path, path.stat().st_size // 2)
    far = store.unrank(store.block_count(file.state_count) * (1 << store.BLOCK_BITS) - 70_000, 12)
    with pytest.raises(store.TableError, match="truncated while in use"):
        probe.distances(file, [far.key], 99)
    store._loaded.clear()


# -- S5: closed and full outputs ------------------------------------------------------------


@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="needs bash")
def test_closed_and_full_outputs_end_in_one_line():
    one_line_error(shell(f"$BK solve {SAMPLE} >&-"), 3)
    assert "standard input is closed" in one_line_error(shell("$BK solve <&-"))
    if Path("/dev/full").exists():
        err = one_line_error(shell(f"$BK solve --engine ida {SAMPLE} >/dev/full"), 3)
        assert "No space left on device" in err


@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="needs bash")
def test_output_past_ulimit_f(tmp_path):
    batch = tmp_path / "batch.txt"
    batch.write_text("3000\n" + SAMPLE.read_text().split("\n", 1)[1].split("\n\n")[0][:30] * 3000)
    out = tmp_path / "out.txt"
    r = shell(f"ulimit -f 2; $BK solve --engine ida --format json {batch} > {out}")
    assert "File too large" in one_line_error(r, 3)


def test_absurd_timeout_is_a_usage_error():
    r = run(["solve", "--timeout", "1e10", str(SAMPLE)])
    assert r.returncode == 2 and "up to 1,000,000" in r.stderr and "Traceback" not in r.stderr


# -- S6: leftovers, settings, line breaks ---------------------------------------------------


def test_stale_temporary_files_are_cleaned_by_the_next_write(cache_dir):
    """A killed writer's temporary file goes; a live (locked) writer's stays."""
    import fcntl

    from bitknights import cache as cache_layer

    stale = cache_dir / ".tmp-killed.bkt"
    stale.write_bytes(b"x" * 1000)
    old = time.time() - 60
    os.utime(stale, (old, old))
    live = cache_dir / ".tmp-live.bkt"
    live.write_bytes(b"y")
    os.utime(live, (old, old))
    with open(live, "rb") as held:
        fcntl.flock(held.fileno(), fcntl.LOCK_EX)
        cache_layer.atomic_write(cache_dir / "x.bin", [b"data"], "test file")
        assert not stale.exists() and live.exists()
    assert (cache_dir / "x.bin").read_bytes() == b"data"
    umask = os.umask(os.umask(0o022))  # (set, then put back: the way to read it)
    assert oct((cache_dir / "x.bin").stat().st_mode & 0o777) == oct(0o644 & ~umask)


@pytest.mark.slow
def test_killed_build_leaves_nothing_behind_after_the_next(tmp_path):
    cache = tmp_path / "c"
    proc = subprocess.Popen([*CLI, "table", "build", "--quiet"], env={**os.environ,
                            "BITKNIGHTS_CACHE_DIR": str(cache)})  # fmt: skip
    deadline = time.time() + BOUND
    while time.time() < deadline and not any(cache.glob(".tmp-*")):
        time.sleep(0.01)
    proc.kill()
    proc.wait(timeout=BOUND)
    leftovers = list(cache.glob(".tmp-*"))
    for p in leftovers:
        os.utime(p, (time.time() - 60, time.time() - 60))
    r = run(["table", "build", "--quiet"], cache)
    assert r.returncode == 0, r.stderr
    name = store.table_path(TARGET, cache).name
    assert sorted(p.name for p in cache.iterdir()) == [name, f"{name}.proof"]


def test_an_empty_cache_dir_setting_means_the_default(tmp_path):
    from bitknights.cache import cache_directory

    env = {"BITKNIGHTS_CACHE_DIR": "", "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    for args in (["--cache-dir", ""], []):
        r = run(["table", "info", "--format", "json", *args], env=env)
        path = json.loads(r.stdout)["path"]
        assert path.startswith(f"{tmp_path / 'xdg' / 'bitknights'}/"), r.stdout
    assert cache_directory("") == cache_directory(None)


def test_the_target_parser_takes_the_batch_parsers_line_breaks():
    from bitknights import InputError, read_board

    good = "11111\r\n01111\r00*11\n00001\n00000\n"
    assert read_board(good) == TARGET
    for sep in ("\u2028", "\x1c", "\x85"):
        with pytest.raises(InputError):
            read_board(good.replace("\r\n", sep, 1))


@pytest.mark.slow
def test_table_verify_proves_the_table_exact_or_names_a_board(table_dir, cache_dir):
    """`table verify` trusts no checksum: a forged byte is found, by `table info` too."""
    path = copy_table(table_dir, cache_dir)
    r = run(["table", "verify"], cache_dir)
    assert r.returncode == 0 and "status: exact" in r.stdout, r.stdout + r.stderr
    from bitknights.coords import rank

    board = store.unrank(12_345_678, 12)
    forge(path, rank(board.black, board.blank), 9)
    r = run(["table", "verify"], cache_dir)
    assert r.returncode == 1 and "is not exact" in r.stdout and "breaks the distance" in r.stdout
    assert run(["table", "info"], cache_dir).returncode == 1


def test_bad_python_arguments_raise_clear_value_or_type_errors(table_dir, tmp_path):
    import numpy as np

    from bitknights import Board, table

    blocker = tmp_path / "file"
    blocker.write_text("x")
    cases = [
        (lambda: Board.from_key(None), TypeError, "a board key is an integer"),
        (lambda: table.random_boards(5.0, 1, cache_dir=table_dir), TypeError, "distance"),
        (lambda: table.load_table(cache_dir=table_dir).distances(np.zeros((2, 2))), ValueError,
         "1-D integer array"),
        (lambda: table.build(cache_dir=blocker), ValueError, f"{blocker} is a file"),
    ]  # fmt: skip
    for call, kind, message in cases:
        with pytest.raises(kind, match=message):
            call()


@pytest.mark.slow
@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="needs bash")
def test_out_of_memory_ends_in_one_line(tmp_path):
    """Under `ulimit -v` a deep bidirectional search runs out of memory: one line, exit 3."""
    board = "000*0/10000/01010/11110/11111"  # 39 moves away: a start side of millions of boards
    batch = helpers.batch_file(tmp_path / "deep.txt", [board])
    r = shell(
        f"ulimit -v 500000; exec $BK solve --engine bidir --exact --workers 2 {batch}",
        env={"BITKNIGHTS_CACHE_DIR": str(tmp_path)},
    )
    assert "out of memory" in one_line_error(r, 3)


# Every command fed every hostile input as FILE, stdin and BOARD: a documented status, a
# failure one line on standard error and nothing on standard output.

SWEEP_BOARD = "10110/01*11/10111/01001/00000"
THIRTEEN_BLACK = "10110/01*11/10111/01001/00001"  # a typo that makes 13 black knights
ROWS = "10110\n01*11\n10111\n01001\n00000\n"

HOSTILE: dict[str, bytes] = {
    **{
        p.stem: p.read_bytes()
        for p in sorted((Path(__file__).parent / "corpus").glob("[0-9]*.txt"))
    },
    "board_slashed": f"{SWEEP_BOARD}\n".encode(),
    "board_compact": SWEEP_BOARD.replace("/", "").encode(),
    "board_rows": ROWS.encode(),
    "board_rows_crlf_bom": b"\xef\xbb\xbf" + ROWS.replace("\n", "\r\n").encode(),
    "target_rows": str(TARGET).encode(),
    "thirteen_black": THIRTEEN_BLACK.encode(),
    "thirteen_black_batch": f"2\n{ROWS}{THIRTEEN_BLACK.replace('/', chr(10))}\n".encode(),
    "no_black": b"00000/00*00/00000/00000/00000",
    "twenty_four": b"1011001*1110111010010000",
    "twenty_six": b"1011001*111011101001000000",
    "bad_character": b"10110/01*11/10111/01001/0000O",
    "dashes": b"10110-01*11-10111-01001-00000",
    "four_rows": b"10110\n01*11\n10111\n01001\n",
    "six_rows": ROWS.encode() + b"00000\n",
    "two_boards_no_count": (ROWS + ROWS).encode(),
    "blank_lines": b"\n\n\n",
    "one_space": b" ",
    "count_only": b"1\n",
    "row_only": b"10110\n",
    "all_blank": b"*" * 25,
    "no_blank": b"0" * 25,
    "knights": "♞♘♞♘♞/♘♞*♞♘/♞♘♞♘♞/♘♞♘♞♘/♞♘♞♘♞".encode(),
    "surrogates": b"10110/01*11/10111/01001/0000\xed\xa0\x80",
    "not_utf8": b"\xff\xfe\xfd\n",
    "long_line": b"0" * 100_000,
    "many_lines": b"\n".join([b"10110"] * 20_000),
    "move_words": b"e5 d3 b2\nhint\nundo\n",
}

# each command's forms with X where the input goes; CACHE: the cache directory
SWEEP: dict[str, list[list[str]]] = {
    "solve": [["solve", "X"], ["solve", "--format", "json", "X"], ["solve", "--path", "X"],
              ["solve", "--count-solutions", "X"], ["solve", "--exact", "X"],
              ["solve", "--target", "X", str(SAMPLE)]],
    "hint": [["hint", "X"], ["hint", "--format", "json", "--count-solutions", "X"],
             ["hint", "--target", "X", SWEEP_BOARD]],
    "check": [["check", "X", "e5", "d3"], ["check", "--format", "json", "X"],
              ["check", "--target", "X", SWEEP_BOARD, "e5"]],
    "play": [["play", "X"], ["play", "--target", "X", SWEEP_BOARD]],
    "solutions": [["solutions", "--limit", "3", "X"], ["solutions", "--format", "json", "X"],
                  ["solutions", "--target", "X", SWEEP_BOARD]],
    "random": [["random", "--distance", "3", "--count", "2", "--seed", "1", "--target", "X"],
               ["random", "--format", "json", "--distance", "X", "--count", "1"]],
    "stats": [["stats", "--target", "X"], ["stats", "--format", "json", "--target", "X"]],
    "table": [["table", "info", "--target", "X"], ["table", "verify", "--target", "X"],
              ["table", "build", "--target", "X"]],
}  # fmt: skip

# the statuses bitknights/cli/__init__.py documents for each command (1: a verdict)
STATUSES = {c: {0, 1, 2, 3} if c in ("check", "solutions", "table") else {0, 2, 3} for c in SWEEP}
PLAY_SCRIPT = b"hint\ne5\nundo\nredo\nsolve\nnew 2\nreset\ntarget\nhelp\nquit\n"


def in_process(argv: list[str], stdin: bytes) -> tuple[object, str, str]:
    """``(status, stdout, stderr)`` of ``bitknights ARGV`` here (status: a raised traceback)."""
    import traceback

    try:
        r = run(argv, None, stdin)
    except BaseException:
        return traceback.format_exc(), "", ""
    return r.returncode, r.stdout, r.stderr


def sweep_problem(command: str, status, out: str, err: str) -> str | None:
    """What is wrong with one run of the sweep, or None."""
    if not isinstance(status, int):
        return f"raised {str(status).strip().splitlines()[-1]}"
    shown = repr(err if len(err) < 300 else err[:297] + "...")
    if status not in STATUSES[command]:
        return f"undocumented status {status}: {shown}"
    if "Traceback" in err:
        return f"a traceback on standard error: {shown}"
    lines = err.splitlines()
    errors = [ln for ln in lines if ": error: " in ln]
    if status in (2, 3):
        if len(errors) != 1 or lines[-1] != errors[0]:
            return f"status {status} without one last error line: {shown}"
        if not errors[0].startswith(("bitknights: error: ", f"bitknights {command}")):
            return f"an error line not from bitknights: {shown}"
        others = lines[:-1]
        usage = bool(others) and others[0].startswith("usage: ")
        if not usage and any(not ln.startswith("bitknights: ") for ln in others):
            return f"more than one line for an error: {shown}"
        if out and command != "play":
            return f"standard output written before the error: {out[:200]!r}"
    elif errors and not (status == 1 and len(errors) == 1):
        return f"status {status} with error lines: {shown}"
    return None


def sweep_inputs(tmp_path: Path, inputs: dict[str, bytes]) -> list[tuple[str, str, bytes]]:
    """``(name, X, stdin)``: each input as FILE, standard input and BOARD; odd paths."""
    files = tmp_path / "inputs"
    files.mkdir()
    cases = []
    for name, data in inputs.items():
        path = files / f"{name}.txt"
        path.write_bytes(data)
        cases.append((f"{name} as FILE", str(path), b""))
        cases.append((f"{name} on standard input", "-", data))
        text = data.replace(b"\x00", b"").decode("utf-8", "surrogateescape")  # as argv holds it
        cases.append((f"{name} as BOARD", text, b""))
    unreadable = files / "unreadable.txt"
    unreadable.write_bytes(ROWS.encode())
    unreadable.chmod(0)
    for name, path in [("a directory", str(files)), ("a missing file", str(files / "none")),
                       ("a missing directory", str(files / "no" / "x")), ("/dev/null", "/dev/null"),
                       ("/dev/zero", "/dev/zero"), ("an empty argument", ""),
                       ("an unreadable file", str(unreadable)),
                       ("a path that is not UTF-8", str(files / "\udcff.txt"))]:  # fmt: skip
        cases.append((name, path, b""))
    return cases


def sweep(command: str, forms: list[list[str]], inputs: dict[str, bytes], cache: Path,
          tmp_path: Path) -> list[str]:  # fmt: skip
    """The problems of ``command`` in each of its ``forms`` on each input (and as play's)."""
    empty = tmp_path / "empty-cache"  # `table verify` proves no table here: seconds each
    blocker = tmp_path / "blocker"  # `table build` must not build: its cache is a file
    blocker.write_text("")
    caches = {"build": blocker, "verify": empty}
    runs = []  # (what it is, argv, standard input)
    for name, x, stdin in sweep_inputs(tmp_path, inputs):
        feed = stdin or PLAY_SCRIPT if command == "play" else stdin
        for form in forms:
            where = caches.get(form[1], cache) if command == "table" else cache
            argv = [x if word == "X" else word for word in form] + ["--cache-dir", str(where)]
            runs.append((f"{name}: bitknights {_shown(argv)}", argv, feed))
    if command == "play":  # the hostile inputs as the commands of a game
        play = ["play", SWEEP_BOARD, "--cache-dir", str(cache)]
        runs += [(f"{name} as play's commands", play, data) for name, data in inputs.items()]
    found = [(what, sweep_problem(command, *in_process(argv, feed))) for what, argv, feed in runs]
    return [f"{what}: {problem}" for what, problem in found if problem]


def report(problems: list[str]) -> str:
    return f"{len(problems)} problems:\n" + "\n".join(p[:400] for p in problems[:40])


NEEDS_TABLE = {"random", "stats", "table"}  # they stop at once without it


@pytest.mark.parametrize("command", sorted(SWEEP))
def test_every_command_every_input_no_traceback(command, table_dir, tmp_path):
    """Each command in one form on the sweep's inputs and a sixth of tests/corpus."""
    inputs = {k: v for i, (k, v) in enumerate(HOSTILE.items()) if k[:1].isalpha() or i % 6 == 0}
    cache = table_dir if command in NEEDS_TABLE else tmp_path / "no-table"
    form = 1 if command == "random" else 0  # (a board as the target: a compact table built)
    problems = sweep(command, SWEEP[command][form : form + 1], inputs, cache, tmp_path)
    assert not problems, report(problems)


@pytest.mark.slow
@pytest.mark.parametrize("command", sorted(SWEEP))
@pytest.mark.parametrize("with_table", [True, False], ids=["table", "no-table"])
def test_every_command_every_form_every_input_no_traceback(command, with_table, table_dir,
                                                           tmp_path):  # fmt: skip
    """The whole sweep: every form, every input, with the table and without."""
    cache = table_dir if with_table else tmp_path / "no-table"
    problems = sweep(command, SWEEP[command], HOSTILE, cache, tmp_path)
    assert not problems, report(problems)


def _shown(argv: list[str]) -> str:
    return " ".join(repr(a if len(a) < 60 else a[:57] + "...") for a in argv)
