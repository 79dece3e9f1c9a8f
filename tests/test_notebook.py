"""The tour notebook (docs/tour.ipynb) runs in a fresh kernel and shows what it promises."""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

from bitknights import SAMPLE, read_batch, solve, square_name

TOUR = Path(__file__).parent.parent / "docs" / "tour.ipynb"


def outputs(cell) -> str:
    """Everything a cell showed: streams, text, HTML and SVG, as one string."""
    out = []
    for o in cell.get("outputs", []):
        if o.get("output_type") == "stream":
            out.append(o["text"])
        for mime in ("text/plain", "text/html", "image/svg+xml"):
            data = o.get("data", {}).get(mime)
            if data:
                out.append(data if isinstance(data, str) else "".join(data))
    return "\n".join(out)


def mimes(cell) -> set[str]:
    return {m for o in cell.get("outputs", []) for m in o.get("data", {})}


@pytest.mark.slow
@pytest.mark.timeout(1800)  # the notebook's cells, each bounded at 600 s
@pytest.mark.parametrize("with_table", [True, False], ids=["table", "no-table"])
def test_tour_runs_top_to_bottom(tmp_path, monkeypatch, with_table, table_dir):
    """The tour uses the user's table; without, it searches, says how to build it, builds none."""
    import nbclient  # here, not at the top: nbformat's schema checks take seconds to import
    import nbformat

    cache = tmp_path / "cache"
    if with_table:
        cache = table_dir
    else:
        cache.mkdir()
        monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))  # where a scratch table would go
        (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("BITKNIGHTS_CACHE_DIR", str(cache))
    before = sorted(p.name for p in cache.iterdir())
    nb = nbformat.read(TOUR, as_version=4)
    resources = {"metadata": {"path": str(tmp_path)}}
    client = nbclient.NotebookClient(nb, timeout=600, kernel_name="python3", resources=resources)
    client.execute()  # raises CellExecutionError at the first failing cell
    added = sorted(set(p.name for p in cache.iterdir()) - set(before))
    # no table built; the lab's `pdb` heuristic caches its pattern databases (and proof)
    assert all(name.startswith("patterns-") and name.endswith((".bkp", ".bkp.proof"))
               for name in added), added  # fmt: skip
    if not with_table:
        assert not [p for p in (tmp_path / "tmp").rglob("*") if p.suffix == ".bkt"]
    source = "".join(c.source for c in nb.cells)
    assert "table.build" not in source and "tempfile" not in source

    code = [c for c in nb.cells if c.cell_type == "code"]
    assert all(o.get("output_type") != "error" for c in code for o in c.get("outputs", []))

    def cell(snippet: str):
        (found,) = [c for c in code if snippet in c.source]
        return found

    first = cell("board = boards[0]")
    assert mimes(first) == {"text/html", "text/plain"}  # one copy of the picture
    assert outputs(first).count('class="knight ') == 24

    sol = cell("solution = bk.solve(board)")
    html = sol.outputs[-1]["data"]["text/html"]
    assert "<Solution solved in 7 moves: e5-c4 d3-e5 b2-d3 c4-b2 a3-c4 b5-a3 c3-b5>" in outputs(sol)
    assert "bitknights-animation" in html and html.count('class="board"') == 1 + 8

    text = outputs(cell("path_text(solution, unicode=True)"))
    assert text.startswith("moves (7): ") and "\u2658" in text and "\u265e" in text

    exact = outputs(cell("exact = bk.solve(boards[1], max_depth=None)"))
    assert "<Solution over_limit: more than 15 moves>" in exact
    assert "18 moves without a limit" in exact

    setup = outputs(cell("have_table = "))
    hints = outputs(cell("render.hints_html(board, hints)"))
    badge = r'class="hint( optimal)?" data-square="([a-e][1-5])" data-distance="(\d+)"'
    badges = re.findall(badge, hints)
    assert len(badges) == 6  # six knights stand a jump from the sample board's blank on c4
    sample = read_batch(SAMPLE)[0]
    (best,) = [m for m in sample.moves() if solve(sample.play(m), max_depth=None).steps == 6]
    assert {(sq, d) for opt, sq, d in badges if opt} == {(square_name(best.from_square), "6")}
    assert {d for opt, sq, d in badges if not opt} == {"8"}

    dist = outputs(cell("render.distribution_text(layers"))
    if with_table:
        assert setup.strip() == "hints and distances from your distance table"
        assert "total 67,603,900 boards" in dist
    else:
        assert "no distance table: hints from exact search" in setup
        assert "`bitknights table build`" in setup and "68 MB" in setup
        assert "largest distance 8" in dist
    play = outputs(cell("game = bk.Game(board)"))
    assert "the optimal rest scores 1\n" in play and "detour of two moves: 0.778 (7 / 9)" in play
    assert "<CheckResult 9 legal moves reach the target (optimum 7): score 0.778>" in play
    widget = cell("w = bk.play(board)")
    assert {"application/vnd.jupyter.widget-view+json", "text/html"} <= mimes(widget)
    (stored,) = [o["data"]["text/html"] for o in widget.outputs if "text/html" in o.get("data", {})]
    assert "data-bk-fallback" in stored and stored.count('class="knight ') == 24

    plot = cell("render.distribution_plot(layers)")
    if importlib.util.find_spec("matplotlib") is not None:
        assert "image/png" in mimes(plot)
    else:
        assert "bitknights[plot]" in outputs(plot)

    # the heuristic lab's section (the last cells)
    lab_table = outputs(cell('print("median nodes expanded'))
    assert "median nodes expanded by IDA*" in lab_table
    rows = [
        line.split() for line in lab_table.splitlines() if re.fullmatch(r" *\d+( +[\d,]+){3}", line)
    ]
    assert [int(r[0]) for r in rows] == list(range(6, 19, 2)), lab_table  # in order, exact
    assert "every path found is as long as its board's distance: True" in lab_table
    if with_table:
        assert "every answer checked against the table, all optimal: True" in lab_table
    else:
        assert "the lab's own checks need the table: `bitknights table build`" in lab_table
    seed = outputs(cell("def differing_cells"))
    rows = [list(map(int, line.replace(",", "").split())) for line in seed.splitlines()
            if re.fullmatch(r" *\d+( +[\d,]+){4}", line)]  # fmt: skip
    assert [r[0] for r in rows] == list(range(6, 19, 2)), seed
    assert "the seed's bound one move from the target: [2, 2, 2, 2, 2, 2, 2, 2]" in seed
    if with_table:  # the seed's evaluate() overestimates: every trial of it flagged
        assert "seed's evaluate(): 7 of 7 trials flagged" in seed, seed
        assert "misplaced: 0 of 7 trials flagged, 7 optimal" in seed, seed
        bound, truth = map(int, re.search(r"bound (\d+), true distance (\d+)", seed).groups())
        assert bound > truth
    else:
        assert "flagged" not in seed and "needs the table: `bitknights table build`" in seed
    for text in (lab_table, seed, outputs(cell("lab.values_plot("))):
        assert "None" not in text and max(map(len, text.splitlines())) <= 88, text
    if importlib.util.find_spec("matplotlib") is not None:
        assert "image/png" in mimes(cell("lab.nodes_plot(trials)"))
        assert ("image/png" in mimes(cell("lab.values_plot("))) == with_table
