"""A hostile environment (issue 20, point 8): thread limits, a library that cannot load,
few file handles, a full disk, a closed stderr, lines of every length, a file changed
between its reads.  Each ends in one error line with its ExitStatus, never a traceback."""

from __future__ import annotations

import io
import os
import subprocess
from pathlib import Path

import pytest

from bitknights import Board, BoardError, InputError
from bitknights.batch import MAX_LINE, BatchReader
from bitknights.cli import streams
from bitknights.cli.common import UsageError
from helpers import SAMPLE, SMALL, batch_file, one_line_error, run_bitknights, shell, target_file
from terminal import BOUND, CLI

B1 = "10110\n01*11\n10111\n01001\n00000\n"


# -- threads ------------------------------------------------------------------------------

PIDS = Path("/sys/fs/cgroup/pids")


@pytest.mark.skipif(
    not (PIDS.is_dir() and os.access(PIDS, os.W_OK)),
    reason="needs a writable cgroup v1 pids hierarchy (root, as in .ci/run)",
)
def test_a_thread_limit_ends_in_one_line(tmp_path):
    """In a pids cgroup of one, OpenBLAS is asked for no threads and the first thread
    bitknights starts fails into one line, status 3."""
    group = PIDS / f"bitknights-test-{os.getpid()}"
    group.mkdir()
    try:
        (group / "pids.max").write_text("1")
        env = {"BITKNIGHTS_CACHE_DIR": str(tmp_path)}
        for way in ("--engine ida", "--format json"):
            args = f"solve {way} --workers 2 {SAMPLE}"
            r = shell(f"echo $$ > {group}/cgroup.procs && exec $BK {args}", env=env)
            assert "cannot start a thread" in one_line_error(r, 3), args
    finally:
        group.rmdir()


# -- libraries that cannot load -----------------------------------------------------------

BROKEN = {
    "numba": "raise OSError(\"Could not find/load shared object file 'libllvmlite.so' from "
    "resource location: 'llvmlite.binding'. This could mean that the library literally "
    'cannot be found, but may also mean that the permissions are incorrect.")',
    "numpy": "try:\n    raise ImportError('libquadmath.so.0: failed to map segment from shared "
    "object')\nexcept ImportError as e:\n    raise ImportError('\\n\\nIMPORTANT: PLEASE READ "
    "THIS FOR ADVICE\\nImporting the numpy C-extensions failed.') from e",
}


@pytest.mark.parametrize(
    "library, args, detail",
    [
        ("numba", ["solve", "--engine", "bidir", "--exact", str(SAMPLE)],
         "Could not find/load shared object file 'libllvmlite.so' from resource location: "
         "'llvmlite.binding'."),
        ("numpy", ["solve", "--format", "json", str(SAMPLE)],
         "libquadmath.so.0: failed to map segment from shared object"),
    ],
)  # fmt: skip
def test_a_library_that_cannot_load_is_named_in_one_line(library, args, detail, tmp_path):
    """What ``ulimit -v`` does to numba's llvmlite or numpy's C extensions, made certain:
    a package that fails as they do, first on the path."""
    (tmp_path / library).mkdir()
    (tmp_path / library / "__init__.py").write_text(BROKEN[library] + "\n")
    env = {"PYTHONPATH": str(tmp_path), "BITKNIGHTS_NATIVE": "0"}
    r = subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=BOUND,
                       env={**os.environ, **env}, cwd=tmp_path)  # fmt: skip
    err = one_line_error(r, 3)
    assert err.startswith(f"bitknights: error: cannot load {library}: {detail} (short of"), err


@pytest.mark.slow
@pytest.mark.parametrize("kbytes", [100_000, 150_000, 200_000, 250_000, 300_000])
def test_little_address_space_ends_in_an_answer_or_one_line(kbytes, table_dir, tmp_path):
    """Under ``ulimit -v`` of 100 to 300 MB every command answers, or says in one line
    what failed to load and exits 3."""
    env = {"BITKNIGHTS_CACHE_DIR": str(table_dir)}
    for args, answer in (
        (f"solve --format json {SAMPLE}", '"steps":7'),
        (f"solve --engine bidir --exact {SAMPLE}", "7\n18\n"),
        ("random --distance 30 --count 3 --seed 1", "3\n"),
        (f"table build --cache-dir {tmp_path / 'built'}", "built "),
    ):
        r = shell(f"ulimit -v {kbytes}; exec $BK {args}", env=env)
        if r.returncode == 0:
            assert answer in r.stdout and r.stderr == "", (kbytes, args, r.stderr)
        else:  # (what was answered before the refusal stays)
            assert r.returncode == 3 and r.stderr.startswith("bitknights: error: "), r.stderr
            assert r.stderr.count("\n") == 1, r.stderr


def test_too_few_file_handles_end_in_one_line(tmp_path):
    """``ulimit -n 5``: a module (or the input) that cannot be opened is named; it is not
    called a failure to write the output, nor a bad input (status 3, not 2)."""
    env = {"BITKNIGHTS_CACHE_DIR": str(tmp_path)}
    for args in (str(SAMPLE), f"--format json {SAMPLE}"):
        r = shell(f"ulimit -n 5; exec $BK solve {args}", env=env)
        if r.returncode == 0:  # (enough handles after all: the answers)
            assert r.stdout.startswith(("7\n", '{"board"')), r.stdout
            continue
        err = one_line_error(r, 3)
        assert "Too many open files" in err and "cannot write the output" not in err, err


# -- full disks ---------------------------------------------------------------------------


def test_a_full_temporary_directory_while_spooling_standard_input(tmp_path):
    """Standard input's temporary copy past ``ulimit -f`` (a full TMPDIR alike): said as
    such, status 3, nothing answered."""
    batch = batch_file(tmp_path / "batch.txt", [B1] * 5000)  # 150 KB
    r = shell(f"ulimit -f 64; cat {batch} | $BK solve", env={"TMPDIR": str(tmp_path)})
    err = one_line_error(r, 3, "File too large; set TMPDIR")
    assert err.startswith(f"bitknights: error: cannot keep a copy of standard input in {tmp_path}")


def test_a_table_past_ulimit_f_is_the_systems_refusal(tmp_path):
    target = target_file(tmp_path / "target.txt", SMALL)  # 2 black knights: a tiny table
    r = shell(f"ulimit -f 2; exec $BK table build --target {target} --cache-dir {tmp_path}")
    err = one_line_error(r, 3)
    assert "cannot write distance table" in err and err.endswith(": File too large\n")
    assert not list(tmp_path.glob(".tmp-*"))  # nothing half-written stays


# -- a closed standard error --------------------------------------------------------------


@pytest.mark.parametrize("args", ["solve --bogus", "", "table", "check"])
def test_usage_errors_with_standard_error_closed_print_nothing(args):
    r = run_bitknights(args.split(), closed=["stderr"])
    assert (r.returncode, r.stdout) == (2, "")


def test_a_usage_error_with_standard_error_closed_prints_nothing_end_to_end():
    r = shell("$BK solve --bogus 2>&-")
    assert (r.returncode, r.stdout) == (2, "")


# -- one rule for long lines --------------------------------------------------------------


def _read(data: bytes, block_size: int) -> int:
    return sum(len(keys) for keys in BatchReader(io.BytesIO(data), block_size=block_size)
               .key_lists())  # fmt: skip


LONG = MAX_LINE + 1
BOARD = B1.encode()
BLOCK_SIZES = (3, 64, MAX_LINE - 1, MAX_LINE, MAX_LINE + 1, MAX_LINE + 7, 1 << 22)


@pytest.mark.parametrize(
    "data, line",
    [
        (b"1" + b" " * (LONG - 1) + b"\n" + BOARD, 1),  # the count's line
        (b"1\n" + b" " * 100_001 + b"\n" + BOARD, 2),  # a blank line of spaces
        (b"1\n" + BOARD[:12] + b"10111" + b" " * (LONG - 5) + b"\n" + BOARD[18:], 4),  # a row
        (b"1\n" + BOARD + b" " * LONG, 7),  # the last line, without its line end
        (b"1\n" + BOARD + b" " * LONG + b"\n", 7),  # ... and with it
        (b"1\r\n" + b"\t" * LONG + b"\r\n" + BOARD, 2),  # CRLF
    ],
)
def test_a_line_over_the_limit_is_refused_wherever_it_falls(data, line):
    """Whatever the block size (the line at a block's start, inside one, across a
    boundary, at the end of the input), the same error on the same line."""
    want = f"line {line}: a line longer than {MAX_LINE:,} bytes (a board row has 5 characters)"
    for block_size in BLOCK_SIZES:
        with pytest.raises(InputError) as e:
            _read(data, block_size)
        assert str(e.value) == want, block_size


@pytest.mark.parametrize(
    "data",
    [
        b"1" + b" " * (MAX_LINE - 1) + b"\n" + BOARD,
        b"1\n" + b" " * MAX_LINE + b"\n" + BOARD,
        b"1\n" + BOARD + b" " * MAX_LINE,
        b"1\r\n" + b" " * MAX_LINE + b"\r\n" + BOARD.replace(b"\n", b"\r\n"),
    ],
)
def test_a_line_at_the_limit_is_read_wherever_it_falls(data):
    for block_size in BLOCK_SIZES:
        assert _read(data, block_size) == 1, block_size


# -- a file that changes between its two reads --------------------------------------------


@pytest.fixture
def path(tmp_path, monkeypatch):
    """A batch of four boards, read twice as inputs over 2 M boards are (over two, here)."""
    monkeypatch.setattr(streams, "KEEP_BOARDS", 2)
    return batch_file(tmp_path / "batch.txt", [B1] * 4)


def test_a_file_changed_after_its_check_is_not_answered(path):
    with open(path, "rb") as f:
        chunks, total = streams.checked_chunks(f, str(path))
        assert total == 4
        with open(path, "ab") as w:  # appended to after the check, before the answers
            w.write(b"junk\n")
        with pytest.raises(UsageError) as e:
            list(chunks)
    assert str(e.value) == (
        f"{path} changed while it was read (an input over 2 boards is read twice, once to "
        "check it, once to solve it): nothing was answered"
    )


def test_a_file_changed_while_answered_is_said_after_what_was_printed(path):
    with open(path, "rb") as f:
        chunks, _ = streams.checked_chunks(f, str(path))
        with pytest.raises(UsageError, match="changed while it was read .*: the answers printed"):
            for _ in chunks:  # the first chunk is answered, then the file is cut short
                os.truncate(path, 40)
    with open(path, "rb") as f:  # (without a change the same input reads twice, whole)
        batch_file(path, [B1] * 4)
        chunks, total = streams.checked_chunks(f, str(path))
        assert sum(len(c) for c in chunks) == total == 4


def test_the_command_line_names_the_changed_file(tmp_path, monkeypatch):
    """Through the command line, with the input read twice and rewritten between the
    check and the answers: one line, naming the file, status 2."""
    path = batch_file(tmp_path / "batch.txt", [B1] * 3)
    real = streams.checked_chunks

    def changed(*args, **kwargs):
        chunks, total = real(*args, **kwargs)
        os.truncate(path, 10)
        return chunks, total

    monkeypatch.setattr(streams, "KEEP_BOARDS", 1)
    monkeypatch.setattr(streams, "checked_chunks", changed)
    err = one_line_error(run_bitknights(["solve", "--format", "json", path]), 2)
    assert err.startswith(f"bitknights: error: {path} changed while it was read"), err


# -- the Python API -----------------------------------------------------------------------


def test_a_bool_is_not_a_square():
    board = Board(B1)
    for move in (True, False):
        with pytest.raises(BoardError, match="not a move"):
            board.play(move)
