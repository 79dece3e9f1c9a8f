"""The malformed-input corpus (``tests/corpus``): exact status and message per file."""

import json
import subprocess
from pathlib import Path

import pytest

from bitknights import cli
from helpers import cache_env
from terminal import CLI

CORPUS = Path(__file__).parent / "corpus"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())


def test_corpus_is_large_and_complete():
    files = sorted(p.name for p in CORPUS.glob("[0-9][0-9]_*.txt"))
    assert len(files) >= 30 and files == sorted(EXPECTED)


@pytest.mark.parametrize("name", sorted(EXPECTED))
@pytest.mark.parametrize("table", [False, True], ids=["search", "table"])
def test_corpus_case(name, table, capsys, request):
    """With a table, small inputs take the numpy-free path: same answers, same errors."""
    path = CORPUS / name
    want = EXPECTED[name]
    if table:
        with cache_env(request.getfixturevalue("table_dir")):
            status = cli.main(["solve", str(path)])
    else:
        status = cli.main(["solve", "--workers", "1", str(path)])
    out, err = capsys.readouterr()
    assert status == want["status"]
    said = (want["stdout"], "") if status == 0 else ("", want["stderr"].format(file=path))
    assert (out, err) == said


@pytest.mark.parametrize("name", sorted(EXPECTED)[::6])
def test_corpus_case_on_stdin_in_a_process(name):
    data = (CORPUS / name).read_bytes()
    r = subprocess.run([*CLI, "solve"], input=data, capture_output=True, timeout=120)
    want = EXPECTED[name]
    assert r.returncode == want["status"]
    if r.returncode:
        assert r.stdout == b""
        assert r.stderr.decode() == want["stderr"].format(file="").replace(": : ", ": ", 1)
        assert b"Traceback" not in r.stderr
    else:
        assert r.stdout.decode() == want["stdout"]


def test_ten_megabyte_single_line(tmp_path, capsys):
    """A line longer than MAX_LINE is an error naming it, found without buffering it."""
    path = tmp_path / "long.txt"
    path.write_bytes(b"1\n" + b"0" * 10_000_000 + b"\n")
    assert cli.main(["solve", str(path)]) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == (
        f"bitknights: error: {path}: line 2: a line longer than 4,096 bytes "
        "(a board row has 5 characters)\n"
    )
    path.write_bytes(b"9" * 10_000_000 + b"\n")
    assert cli.main(["solve", str(path)]) == 2
    assert "line 1: a line longer than 4,096 bytes" in capsys.readouterr().err
    path.write_bytes(b"1\n" + b"0" * 4000 + b"\n")  # long but within the bound: parsed
    assert cli.main(["solve", str(path)]) == 2
    assert "row 1: expected a row of five characters" in capsys.readouterr().err
