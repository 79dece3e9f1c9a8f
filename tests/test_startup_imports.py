"""Issue 14: ``bitknights solve`` on the sample imports bitknights' modules pinned by name,
the standard library's by the entry points the path uses, and nothing else."""

import json
import sys
from pathlib import Path

import pytest

from bitknights import SAMPLE, cli
from helpers import run_python, script

CHILD = """
import sys
before = set(sys.modules)
from bitknights.cli import main
status = main(sys.argv[1:])
sys.stdout.flush()
sys.stderr.write("MODULES " + " ".join(sorted(set(sys.modules) - before)))
"""

# bitknights modules the classic path may import, without and with the distance table
# (estimates: four constants a missing table's message says; system: how files are read)
OWN = {
    *("bitknights", "bitknights._records", "bitknights.batch", "bitknights.board"),
    *("bitknights.cache", "bitknights.cli", "bitknights.cli.common", "bitknights.cli.solve"),
    *("bitknights.cli.streams", "bitknights.coords", "bitknights.engines", "bitknights.errors"),
    *("bitknights.engines.options", "bitknights.estimates", "bitknights.progress"),
    *("bitknights.service", "bitknights.squares", "bitknights.system", "bitknights.table"),
    "bitknights.table.store",
}
# the engines are asked what they can do (their modules load none of their work), and mitm
# answers when there is no table
OWN |= {"bitknights.engines." + name for name in ("ida", "bidir", "mitm", "table", "compact")}
OWN_NO_TABLE = OWN
OWN_TABLE = OWN | {"bitknights.table.probe", "bitknights.results"}

# standard-library entry points the path uses: the table file and its checksums, the
# shipped ball (and what each of them imports in turn)
# enum: the command line's ExitStatus (the table's path imports it anyway, for its result codes)
USES = ["contextlib", "struct", "zlib", "array", "bisect", "math", "importlib", "__future__",
        "enum"]  # fmt: skip
USES_TABLE = USES
# and with options on the command line, the parser
USES_PARSER = [*USES, "argparse", "gettext", "locale", "errno"]  # errno: gettext, on use

# typing and pathlib alone cost a third of Python's start-up; platformdirs 13 ms
NEVER = ["numpy", "numba", "platformdirs", "tqdm", "hashlib", "tempfile", "shutil", "dataclasses",
         "inspect", "json", "random", "typing", "pathlib", "re", "argparse",
         "bitknights.solution", "bitknights.table.distance_table",
         "bitknights.cli.parser"]  # fmt: skip
NEVER_PARSER = [m for m in NEVER if m not in ("argparse", "bitknights.cli.parser", "re")]


def _allowed_stdlib(uses: list[str]) -> set[str]:
    code = (  # json is imported after the count: it imports re, which the path may not
        "import sys; before = set(sys.modules)\n"
        f"for m in {uses!r}: __import__(m)\n"
        "after = set(sys.modules)\n"
        "import json; print(json.dumps(sorted(after - before)))"
    )
    r = run_python(code)
    assert r.returncode == 0, r.stderr
    return set(json.loads(r.stdout)) | set(uses)


def _user_env(tmp_path: Path, table_dir: Path | None) -> dict[str, str | None]:
    """A user's environment: an own HOME, the table (if any) where bitknights looks by
    default (``~/.cache/bitknights``), no cache variables, no numba cache."""
    home = tmp_path / "home"
    (home / ".cache").mkdir(parents=True)
    if table_dir is not None:
        (home / ".cache" / "bitknights").symlink_to(table_dir)
    return {"HOME": str(home), "XDG_CACHE_HOME": None, "BITKNIGHTS_CACHE_DIR": None,
            "NUMBA_CACHE_DIR": str(tmp_path / "numba")}  # fmt: skip


def _imports(tmp_path: Path, env: dict[str, str | None], *options: str) -> tuple[str, set[str]]:
    sample = tmp_path / "sample.txt"
    sample.write_text(SAMPLE)
    r = run_python(CHILD, "solve", str(sample), *options, env=env)
    assert r.returncode == 0, r.stderr
    line = r.stderr.rsplit("MODULES ", 1)[1]
    return r.stdout, set(line.split())


def _check(modules: set[str], own: set[str], uses: list[str], never: list[str]) -> None:
    mine = {m for m in modules if m.split(".")[0] == "bitknights"}
    assert mine <= own, f"new bitknights modules on the classic path: {sorted(mine - own)}"
    assert {"bitknights.cli.solve", "bitknights.batch"} <= mine
    rest = modules - mine
    foreign = {m for m in rest if m.split(".")[0].lstrip("_") not in sys.stdlib_module_names
               and m.split(".")[0] not in sys.stdlib_module_names}  # fmt: skip
    assert not foreign, f"non-standard modules on the classic path: {sorted(foreign)}"
    extra = rest - _allowed_stdlib(uses)
    assert not extra, f"standard modules not pinned for the classic path: {sorted(extra)}"
    assert not [m for m in never if m in modules]


def test_first_run_no_table_nothing_cached(tmp_path):
    """A new user's `bitknights solve FILE`: no table or cache; no platformdirs import."""
    out, modules = _imports(tmp_path, _user_env(tmp_path, None))
    assert out == "7\n-1\n"
    _check(modules, OWN_NO_TABLE, USES, NEVER)
    assert "bitknights.table.probe" not in modules


@pytest.mark.slow
@pytest.mark.parametrize("where", ["default", "variable"])
def test_with_table(tmp_path, table_dir, where):
    """The table in the default cache directory, or where BITKNIGHTS_CACHE_DIR says."""
    env = _user_env(tmp_path, table_dir if where == "default" else None)
    if where == "variable":
        env["BITKNIGHTS_CACHE_DIR"] = str(table_dir)
    out, modules = _imports(tmp_path, env)
    assert out == "7\n-1\n"
    _check(modules, OWN_TABLE, USES_TABLE, NEVER)
    assert "bitknights.engines.table" in modules


def test_options_bring_the_parser_only(tmp_path):
    """With options, the parser is imported, and nothing else more."""
    env = _user_env(tmp_path, None)
    out, modules = _imports(tmp_path, env, "--cache-dir", str(tmp_path / "empty-cache"))
    assert out == "7\n-1\n"
    assert "bitknights.cli.parser" in modules
    _check(modules, OWN_NO_TABLE | {"bitknights.cli.parser"}, USES_PARSER, NEVER_PARSER)


def test_startup_script_runs_and_checks_answers():
    out = script("startup.py", "--runs", "1", "--boards", "3")
    assert "sample (2): 1 interleaved runs" in out and "answers: 7 -1)" in out
    assert "random (3)" in out and "no table, nothing cached" in out


def _outcome(parser, argv, capsys):
    try:
        result = {k: v for k, v in vars(parser.parse_args(argv)).items() if k != "run"}
    except SystemExit as e:
        result = e.code
    return result, capsys.readouterr()


@pytest.mark.parametrize(
    "argv",
    [["solve", "--help"], ["solve", "f.txt", "--exact", "--engine", "mitm"], ["table", "info", "--help"],
     ["stats", "--help"], ["solve", "--bogus"], ["bogus"], ["--help"], ["--version"], []],
)  # fmt: skip
def test_parser_built_for_one_command_acts_as_the_whole_one(argv, capsys):
    """The start-up shortcut (only the command being run builds its parsers) changes
    nothing a user sees: help, errors and parsed values."""
    whole = _outcome(cli.build_parser(), argv, capsys)
    assert _outcome(cli.build_parser(argv), argv, capsys) == whole


@pytest.mark.parametrize("columns", [None, "123", "0", "junk"])
def test_help_width_as_shutil_gives_it(columns, monkeypatch):
    import shutil

    from bitknights.cli import Environment
    from bitknights.cli.parser import _columns

    monkeypatch.delenv("COLUMNS", raising=False)
    if columns is not None:
        monkeypatch.setenv("COLUMNS", columns)
    assert _columns(Environment()) == shutil.get_terminal_size().columns


CLASSIC = [["solve"], ["solve", "-"], ["solve", "boards.txt"], ["solve", "10110/01*11/x"]]
OTHERS = [["solve", "-h"], ["solve", "a", "b"], ["solve", "--exact"], ["table", "info"], []]


@pytest.mark.parametrize("argv", CLASSIC + OTHERS)
def test_plain_solve_arguments_equal_the_parsers(argv):
    """``bitknights solve [FILE]`` gets the parser's values without it; the rest, with it."""
    fast = cli.command_module("solve").classic_args(argv)
    if argv in CLASSIC:
        assert vars(fast) == vars(cli.build_parser(argv).parse_args(argv))
    else:
        assert fast is None
