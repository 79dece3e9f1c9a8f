"""Every estimate of a one-off step (notices, help texts, docs) is the one in
:mod:`bitknights.estimates`; measured times are what ``scripts/first_use.py`` prints."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bitknights import Board, estimates, progress
from helpers import SMALL, load_script, run_bitknights

ROOT = Path(__file__).parent.parent

# What a duration is about: the nearest of these before it in its sentence (or table row),
# else in its paragraph (or list item).
KEYWORDS = {
    "TABLE_PROOF": ("prove", "proof", "proving", "verify", "bellman"),
    "TABLE_BUILD": ("table build", "distance table", "build the table"),
    "COMPACT_BUILD": ("compact",),
    "PATTERN_BUILD": ("pattern database",),
}
DURATION = re.compile(r"(?:about\s+|~)(\d[\d.]*(?:\s*[–-]\s*\d[\d.]*)?) ?(?:s|seconds)\b")
SENTENCE = re.compile(r"\.\s|\n\s*\n|\n\s*[|*-] |\\n")
PARAGRAPH = re.compile(r"\n\s*\n|\n\s*[|*-] |\\n\"")


def claims(text: str) -> list[tuple[str, str, str]]:
    """``(estimate, what the text says, context)`` of each one-off step's duration in ``text``."""
    found = []
    for m in DURATION.finditer(text):
        for boundary in (SENTENCE, PARAGRAPH):
            start = max((b.end() for b in boundary.finditer(text, 0, m.start())), default=0)
            context = text[start : m.start()].lower()
            at, best = max((context.rfind(w), name) for name, words in KEYWORDS.items()
                           for w in words)  # fmt: skip
            if at >= 0:
                found.append((best, " ".join(m.group(0).split()), text[start : m.end()]))
                break
    return found


def says(name: str) -> tuple[str, str]:
    """The two ways a text may give estimate ``name``: ``about N s`` and ``~N s``."""
    seconds = getattr(estimates, name)
    return estimates.about(seconds), f"~{seconds} s"


def test_claims_finds_what_it_should():
    """An estimate is attributed to the step named nearest before it in its sentence
    (else its paragraph); a duration about something else is not one."""
    text = (
        "The distance table is built once (about 3 s). Proving it takes about 1.5 s. "
        "The compact table, about 3–4 s, and the pattern databases (~2 s).\n\n"
        "Tests that take more than about 5 s are slow."
    )
    want = [("TABLE_BUILD", "about 3 s"), ("TABLE_PROOF", "about 1.5 s")]
    want += [("COMPACT_BUILD", "about 3–4 s"), ("PATTERN_BUILD", "~2 s")]
    assert [(name, said) for name, said, _ in claims(text)] == want


DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "docs" / "tour.ipynb"]


@pytest.mark.parametrize("path", DOCS, ids=lambda p: p.name)
def test_the_docs_give_the_estimates(path):
    """Every estimate the README and the docs give is the one in bitknights.estimates."""
    wrong = [(said, context) for name, said, context in claims(path.read_text())
             if said not in says(name)]  # fmt: skip
    assert not wrong, wrong


def test_the_help_texts_give_the_estimates():
    """Every command's ``--help`` says the same estimates, and no other number."""

    def helped(*words: str) -> str:
        r = run_bitknights([*words, "--help"], env={"COLUMNS": "1000"})  # paragraphs unwrapped
        assert r.returncode == 0, r.stderr
        return r.stdout

    def listed(text: str) -> list[str]:  # the commands (or actions) a help text lists
        m = re.search(r"\n  (?:COMMAND|ACTION)\n((?:    .*\n)+)", text)
        return re.findall(r"^    ([a-z]+)", m.group(1), re.M) if m else []

    helps = {"": helped()}
    for c in listed(helps[""]):
        helps[c] = helped(c)
        for a in listed(helps[c]):
            helps[f"{c} {a}"] = helped(c, a)
    assert {"solve", "table build", "table verify", "stats", "random", "solutions"} <= set(helps)
    for words in ("table", "table build", "stats", "random"):
        assert says("TABLE_BUILD")[0] in helps[words], helps[words]
    for words in ("table", "table verify"):
        assert says("TABLE_PROOF")[0] in helps[words], helps[words]
    wrong = [(words, said) for words, text in helps.items() for name, said, _ in claims(text)
             if said not in says(name)]  # fmt: skip
    assert not wrong, wrong


def test_the_notices_give_the_estimates(monkeypatch, tmp_path):
    """Each one-off step's notice carries its estimate (the build's scales with the target)."""
    from bitknights.engines import compact, ida, pdb
    from bitknights.engines.options import StopFlag
    from bitknights.table import builder, store

    said: list[tuple[str, float | None]] = []
    monkeypatch.setattr(progress, "announce", lambda what, why="", seconds=None, **kw:
                        said.append((what, seconds)))  # fmt: skip
    builder.build_table(SMALL, tmp_path)
    store.load(SMALL, tmp_path, reprove=True)
    ida._patterns(SMALL, tmp_path / "ida", StopFlag())
    pdb.pattern_tables(Board("10100/00000/00*00/00000/00000").key, tmp_path)  # another: once
    compact.compact_table(SMALL, tmp_path, StopFlag())
    steps = ("proving the distance table", "building pattern databases",
             "building the compact distance table")  # fmt: skip
    got = {step: [s for what, s in said if what.startswith(step)] for step in steps}
    assert got == {
        "proving the distance table": [estimates.TABLE_PROOF],
        "building pattern databases": [estimates.PATTERN_BUILD] * 2,
        "building the compact distance table": [estimates.COMPACT_BUILD],
    }, said
    assert builder.estimate(Board("11111/01111/00*11/00001/00000")) == estimates.TABLE_BUILD
    assert 0 < builder.estimate(SMALL) < 0.01


def test_the_performance_page_times_what_first_use_measures():
    """The table "How long things take" (docs/performance.md) has the commands and notes
    ``scripts/first_use.py`` prints, times written as it writes them."""
    first_use = load_script("first_use")
    text = (ROOT / "docs" / "performance.md").read_text()
    header = "| command | first | again | what runs the first time |\n|---|---|---|---|\n"
    rows = text.split(header, 1)[1].split("\n\n", 1)[0].splitlines()
    timings = [(f"set-up command {i}", 1.0, 1.0, note)
               for i, note in enumerate(first_use.SETUP_NOTES, 1)]  # fmt: skip
    timings += [(label, 1.0, 1.0, note) for label, _, note in first_use.COMMANDS]
    expected = first_use.table(timings)[2:]

    def cells(row: str) -> list[str]:
        return [c.strip() for c in row.strip().strip("|").split("|")]

    assert [(c[0], c[3]) for c in map(cells, rows)] == [(c[0], c[3]) for c in map(cells, expected)]
    time = r"\d+(\.\d+)?( s|–\d+(\.\d+)? s)"
    assert all(re.fullmatch(time, c[1]) and re.fullmatch(time, c[2]) for c in map(cells, rows))
    made = first_use.table([("a", 0.061, 3.31, ""), ("b", 12.4, 0.2, "x"), ("b", 0.5, 0.3, "x")])
    assert made[2:] == ["| a | 0.06 s | 3.3 s | |", "| b | 0.50–12 s | 0.20–0.30 s | x |"]
