import json
import os
import subprocess
import sys

import pytest

from bitknights import SAMPLE as SAMPLE_TEXT
from bitknights import TARGET, InputError, read_batch, read_board
from helpers import SAMPLE, one_line_error, played, run_bitknights, target_file

B1 = "10110\n01*11\n10111\n01001\n00000\n"
B2 = "01011\n110*1\n01110\n01010\n00100\n"


def run(args, stdin=b"", env=None):
    return run_bitknights(args, stdin, env=env, text=False)


def test_sample_file_matches_api_constant():
    assert SAMPLE.read_text() == SAMPLE_TEXT


LAYOUT = "\ufeff  2  \r\n\r\n" + B1.replace("\n", " \r\n") + "\n\n" + B2 + "\n\n  \n"
CLASSIC = {  # the classic output, byte for byte: (args, standard input, standard output)
    "file": (["solve", str(SAMPLE)], b"", b"7\n-1\n"),
    "stdin": (["solve"], SAMPLE.read_bytes(), b"7\n-1\n"),
    "dash": (["solve", "-"], SAMPLE.read_bytes(), b"7\n-1\n"),
    "layout-tolerance": (["solve"], LAYOUT.encode(), b"7\n-1\n"),
    "exact": (["solve", "--exact", str(SAMPLE)], b"", b"7\n18\n"),
    "limit-6": (["solve", "--max-depth", "6", str(SAMPLE)], b"", b"-1\n-1\n"),
    "limit-18": (["solve", "--max-depth", "18", str(SAMPLE)], b"", b"7\n18\n"),
}


@pytest.mark.parametrize("args, stdin, out", CLASSIC.values(), ids=CLASSIC)
def test_classic_byte_for_byte(args, stdin, out):
    r = run(args, stdin)
    assert (r.returncode, r.stdout, r.stderr) == (0, out, b"")


def test_console_script_and_module_agree():
    exe = os.path.join(os.path.dirname(sys.executable), "bitknights")
    if not os.path.exists(exe):
        pytest.skip("console script not installed next to this interpreter")
    r = subprocess.run([exe, "solve", str(SAMPLE)], capture_output=True, timeout=120)
    assert r.stdout == b"7\n-1\n"


def test_json_lines_and_path():
    r = run(["solve", "--format", "json", "--path", str(SAMPLE)])
    assert r.returncode == 0, r.stderr
    recs = [json.loads(line) for line in r.stdout.decode().splitlines()]
    assert [x["steps"] for x in recs] == [7, None]
    first = recs[0]
    assert first["engine"] == "ida" and first["nodes"] >= 1 and first["seconds"] >= 0
    assert len(first["boards"]) == 8
    assert first["boards"][0] == B1.replace("\n", "")
    assert first["boards"][-1] == "111110111100*110000100000"
    assert len(first["moves"]) == 7
    assert recs[1]["boards"] == [] and recs[1]["status"] == "over_limit"


def test_readable_path():
    r = run(["solve", "--path", str(SAMPLE)])
    out = r.stdout.decode()
    assert out.startswith("7\nmoves (7): ")
    moves = out.splitlines()[1].split(": ")[1].split()  # chess names, replayed
    assert played(read_batch(SAMPLE_TEXT)[0], moves) == TARGET
    assert "\n-1\nno solution (over limit)\n" in out


def test_custom_target(tmp_path):
    target = target_file(tmp_path / "t.txt", B1)
    batch = f"2\n{B1}11111\n01111\n00*11\n00001\n00000\n"
    r = run(["solve", "--target", str(target), "--exact"], batch.encode())
    assert r.returncode == 0, r.stderr
    assert r.stdout == b"0\n7\n"
    bad = tmp_path / "bad.txt"
    bad.write_text("10110\n01*11\n")
    r = run(["solve", "--target", str(bad)], SAMPLE.read_bytes())
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode().startswith(f"bitknights: error: target {bad}: line ")


BAD = [
    ("", "line 1: empty input"),
    ("\n\n  \n", "line 1: empty input"),
    ("x\n" + B1, "line 1: expected the number of boards T"),
    ("2.5\n" + B1, "line 1: expected the number of boards T"),
    ("-1\n" + B1, "line 1: expected the number of boards T"),
    ("0\n", "line 1: the number of boards T must be positive"),
    ("\n\n3\n" + B1 + B2, "line 14: expected 3 boards, found 2"),
    ("2\n" + B1 + "01011\n110*1\n", "line 9: board 2 is cut short: expected row 3 of 5"),
    ("1\n" + B1 + B2, "line 7: unexpected content after the 1 board"),
    ("1\n10110\n01*11\n1011\n01001\n00000\n", "line 4: board 1, row 3: expected a row of five"),
    ("1\n10110\n01*11\n10121\n01001\n00000\n", "line 4: board 1, row 3: expected a row of five"),
    ("1\n10110\n01*11\n1 0111\n01001\n00000\n", "line 4: board 1, row 3: expected a row of five"),
    ("1\n10110\n01011\n10111\n01001\n00000\n", "line 2: board 1: a board needs exactly one blank '*', found 0"),
    ("1\n10110\n01*11\n10*11\n01001\n00000\n", "line 2: board 1: a board needs exactly one blank '*', found 2"),
    ("1\n10110\n01*11\n10111\n01001\n00000\nxyz\n", "line 7: unexpected content after the 1 board: 'xyz'"),
    ("\u0661\n" + B1, "line 1: expected the number of boards T"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "message"), BAD)
def test_bad_input_api(text, message):
    with pytest.raises(InputError) as exc:
        read_batch(text)
    assert str(exc.value).startswith(message)
    assert isinstance(exc.value, ValueError)


@pytest.mark.parametrize(("text", "message"), BAD[::3])
def test_bad_input_cli(text, message):
    err = one_line_error(run_bitknights(["solve"], text))
    assert err.startswith("bitknights: error: " + message)


def test_bad_input_names_the_file(tmp_path):
    f = tmp_path / "in.txt"
    f.write_bytes(b"2\n" + B1.encode())
    r = run(["solve", str(f)])
    assert r.returncode == 2 and r.stdout == b""
    assert r.stderr.decode() == f"bitknights: error: {f}: line 7: expected 2 boards, found 1\n"


def test_not_utf8_and_missing_file(tmp_path):
    r = run(["solve"], b"1\n10110\n01*11\n10\xff11\n01001\n00000\n")
    want = b"bitknights: error: line 4: the input is not UTF-8 text\n"
    assert (r.returncode, r.stderr) == (2, want)
    r = run(["solve", str(tmp_path / "nope.txt")])
    assert r.returncode == 2 and b"cannot read" in r.stderr and b"Traceback" not in r.stderr


def test_bad_options():
    r = run(["solve", "--max-depth", "-3", str(SAMPLE)])
    assert r.returncode == 2 and r.stdout == b""
    r = run(["solve", "--exact", "--max-depth", "3", str(SAMPLE)])
    assert r.returncode == 2


def test_read_board():
    assert read_board("\n10110\n01*11\n10111\n01001\n00000\n\n").compact.startswith("10110")
    with pytest.raises(InputError):
        read_board("10110\n01*11\n10111\n01001\n00000\n00000\n")
