"""The README's console blocks, run as pasted in its order on a fresh cache directory: each
``$`` line's output compared with the lines under it (seconds and the cache path aside)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from helpers import copy_table, record_proof, write_compact

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
BUILD = "bitknights table build"


def console_commands(text: str) -> list[tuple[str, list[str]]]:
    """Each ``$`` line of the console blocks, in order, with the lines shown after it."""
    found: list[tuple[str, list[str]]] = []
    for block in re.findall(r"^```console\n(.*?)^```", text, flags=re.M | re.S):
        for line in block.splitlines():
            if line.startswith("$ "):
                found.append((line[2:], []))
            else:
                assert found, f"output before any command in a console block: {line!r}"
                found[-1][1].append(line)
    return found


def steady(text: str, cache: Path) -> str:
    """``text`` with what varies from run to run set aside."""
    text = text.replace(str(cache), "~/.cache/bitknights")
    text = re.sub(r'"seconds":[-+.e0-9]+', '"seconds":S', text)
    return re.sub(r"\b\d+(\.\d+)? s$", "S s", text, flags=re.M)


def run_readme(tmp_path: Path, table_dir: Path | None, compact=None) -> None:
    """Run the README's commands; ``table_dir``, ``compact``: tables copied (``None``: built)."""
    cache = tmp_path / "cache"
    cache.mkdir()
    if compact is not None:
        write_compact(compact, cache)
    env = {**os.environ, "BITKNIGHTS_CACHE_DIR": str(cache), "PY": sys.executable}
    # `bitknights` as pasted, run by this interpreter from the checkout
    shim = 'bitknights() { "$PY" -m bitknights "$@"; }\n'
    commands = console_commands(README.read_text())
    assert any(command.startswith(BUILD) for command, _ in commands)
    for command, shown in commands:
        if command.startswith(BUILD) and table_dir is not None:
            copy_table(table_dir, cache)
            record_proof(cache)
            continue
        r = subprocess.run(["/bin/bash", "-c", f"{shim}{command} 2>&1"], cwd=ROOT, env=env,
                           capture_output=True, text=True, timeout=300)  # fmt: skip
        want = steady("\n".join(shown).rstrip("\n"), cache)
        assert steady(r.stdout.rstrip("\n"), cache) == want, f"$ {command}\n{r.stdout}"


def test_the_readme_commands_print_what_it_shows(tmp_path, table_dir, classic_compact):
    run_readme(tmp_path, table_dir, classic_compact)


@pytest.mark.slow
def test_the_readme_commands_print_what_it_shows_table_build_included(tmp_path):
    run_readme(tmp_path, None)


def test_the_commands_are_found():
    commands = console_commands(README.read_text())
    assert len(commands) >= 10
    assert all("bitknights" in command for command, _ in commands)
