"""Pictures: SVG/HTML boards, solutions, the animation, hints, the distribution, text views.

Positions are checked through the markup's own geometry (every knight's translation is
its square's corner), and square names are decoded from the names themselves (column
letter, row number counted from the top), independently of ``bitknights.squares``.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
import types
import xml.etree.ElementTree as ET

import pytest

import bitknights
from bitknights import TARGET, Board, BoardError, Move, Solution, render, solve
from bitknights.textview import board_rows, board_text, path_text
from helpers import random_board, random_walk

SVG = "{http://www.w3.org/2000/svg}"

BOARDS = [
    TARGET,
    Board("10110/01*11/10111/01001/00000"),  # classic sample 1
    Board("01011/110*1/01110/01010/00100"),  # classic sample 2
    Board("*0000/00000/00000/00000/00000"),  # 24 white
    Board("11111/11111/11111/11111/1111*"),  # 24 black
    Board("10000/00000/00*00/00000/00001"),  # 2 black
    Board("01010/10101/010*0/10101/01010"),  # 12 black, checkered
]


def classes(el: ET.Element) -> set[str]:
    return set(el.get("class", "").split())


def find(root: ET.Element, cls: str) -> list[ET.Element]:
    """Every element under ``root`` (itself included) whose class list has ``cls``."""
    return [el for el in root.iter() if cls in classes(el)]


def translate(el: ET.Element) -> tuple[float, float]:
    m = re.fullmatch(r"translate\(([-\d.]+),([-\d.]+)\)", el.get("transform", ""))
    assert m, el.get("transform")
    return float(m[1]), float(m[2])


def name_cr(name: str) -> tuple[int, int]:
    """(column, row from the top) of a square name, from the name alone: the chess
    convention, file a..e left to right, rank 1..5 from the bottom."""
    assert re.fullmatch(r"[a-e][1-5]", name), name
    return "abcde".index(name[0]), 5 - int(name[1])


def board_squares(board: Board) -> dict[str, str]:
    """Square name -> '0' / '1' / '*', decoded from the 25-character form."""
    return {f"{'abcde'[i % 5]}{5 - i // 5}": ch for i, ch in enumerate(board.compact)}


def check_board(group: ET.Element, board: Board) -> dict[str, tuple[float, float]]:
    """Assert ``group`` draws ``board``: 25 squares on a checkered 5×5 grid in name order,
    24 knights of the right colours standing on their squares, the blank on its square.
    Returns square name -> corner."""
    cells = board_squares(board)
    rects = find(group, "sq")
    assert len(rects) == 25
    corner = {r.get("data-square"): (float(r.get("x")), float(r.get("y"))) for r in rects}
    assert set(corner) == set(cells)
    side = float(rects[0].get("width"))
    x0, y0 = corner["a5"]  # the top-left corner: the first input character
    for name, (x, y) in corner.items():
        c, r = name_cr(name)
        assert (x, y) == (x0 + c * side, y0 + r * side), name
        rect = next(e for e in rects if e.get("data-square") == name)
        assert ("dark" if (r + c) % 2 else "light") in classes(rect)
    knights = find(group, "knight")
    assert len(knights) == 24
    seen = {}
    for k in knights:
        name = k.get("data-square")
        colour = "black" if "black" in classes(k) else "white"
        assert ({"black", "white"} & classes(k)) == {colour}
        assert k.get("data-color") == colour
        assert translate(k) == corner[name]
        seen[name] = "1" if colour == "black" else "0"
    blanks = find(group, "blank")
    assert len(blanks) == 1
    seen[blanks[0].get("data-square")] = "*"
    assert translate(blanks[0]) == corner[blanks[0].get("data-square")]
    assert seen == cells
    return corner


def parse(markup: str) -> ET.Element:
    root = ET.fromstring(markup)
    assert root.tag == SVG + "svg"
    return root


def self_contained(markup: str) -> None:
    """Nothing fetched, nothing run: the only URL is the SVG namespace."""
    urls = re.findall(r"https?://[^\s\"'<>)]*", markup)
    assert set(urls) <= {"http://www.w3.org/2000/svg"}, urls
    low = markup.lower()
    for bad in ("<script", "<image", "<img", "href", "url(", "@import", "@font-face", "<link"):
        assert bad not in low, bad
    assert not re.search(r"\son[a-z]+\s*=", low)


# -- one board ------------------------------------------------------------------------------


def more_boards() -> list[Board]:
    rng = random.Random(5)
    return [random_board(rng, black) for black in (0, 3, 7, 12, 12, 17, 24)]


@pytest.mark.parametrize("board", BOARDS + more_boards(), ids=str)
def test_board_svg_has_every_square_and_knight_in_place(board):
    svg = render.board_svg(board, size=222)
    self_contained(svg)
    root = parse(svg)
    assert root.get("width") == root.get("height") == "222"
    check_board(root, board)
    assert find(root, "hl") == [] and find(root, "arrow") == []
    whites = len(find(root, "white"))
    blacks = len(find(root, "black"))
    assert (whites, blacks) == board.counts
    # the repr a notebook shows is the same picture
    assert board._repr_svg_() == render.board_svg(board)


def test_coordinates_run_a_to_e_across_and_5_to_1_down():
    root = parse(render.board_svg(TARGET))
    files = find(root, "file")
    ranks = find(root, "rank")
    assert [t.text for t in sorted(files, key=lambda t: float(t.get("x")))] == list("abcde")
    assert [t.text for t in sorted(ranks, key=lambda t: float(t.get("y")))] == list("54321")
    corner = check_board(root, TARGET)
    # a5 is the top-left corner, e1 the bottom-right one, a1 the bottom-left one
    assert corner["a5"] == min(corner.values())
    assert corner["e1"] == max(corner.values())
    assert corner["e5"][0] > corner["a5"][0] and corner["e5"][1] == corner["a5"][1]
    assert corner["a1"][0] == corner["a5"][0] and corner["a1"][1] > corner["a5"][1]
    assert not find(parse(render.board_svg(TARGET, coordinates=False)), "coord")


@pytest.mark.parametrize("move", ["e5-c4", Move(4, 7), (4, 7), "e5", 4])
def test_move_is_highlighted_from_and_to(move):
    board = BOARDS[1]  # blank on c4, so e5-c4 is legal
    root = parse(render.board_svg(board, move=move))
    check_board(root, board)
    hl = {el.get("data-square"): classes(el) for el in find(root, "hl")}
    assert set(hl) == {"e5", "c4"}
    assert "from" in hl["e5"] and "to" in hl["c4"]
    (arrow,) = find(root, "arrow")
    assert (arrow.get("data-from"), arrow.get("data-to")) == ("e5", "c4")


@pytest.mark.parametrize("move", ["zz-c4", "b5", 99, "c4"])
def test_bad_moves_are_board_errors(move):
    with pytest.raises(BoardError):
        render.board_svg(BOARDS[1], move=move)


def test_board_html_wraps_the_svg():
    html = TARGET._repr_html_()
    self_contained(html)
    root = ET.fromstring(html)  # well-formed
    (svg,) = root.iter(SVG + "svg")
    check_board(svg, TARGET)
    assert "11111 / 01111 / 00*11 / 00001 / 00000" in html


# -- solutions ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def solved(ball11) -> list[Solution]:
    """Solutions of the classic sample, the target itself and random boards up to 11 moves
    out (checked against the naive BFS)."""
    rng = random.Random(11)
    starts = [BOARDS[1], TARGET, random_walk(TARGET, 3, rng)]
    for d in (9, 10, 11):
        starts.append(Board(rng.choice(sorted(b for b, k in ball11.items() if k == d))))
    out = [solve(b) for b in starts]
    for s in out:
        s.verify()
        assert s.steps == ball11[s.start.compact]
    return out


def test_solution_svg_draws_every_board_of_the_path(solved):
    for s in solved:
        svg = s._repr_svg_()
        self_contained(svg)
        root = parse(svg)
        groups = find(root, "board")
        assert [g.get("data-board") for g in groups] == [b.compact for b in s.boards]
        assert [g.get("data-step") for g in groups] == [str(k) for k in range(len(s.boards))]
        for k, (g, b) in enumerate(zip(groups, s.boards)):
            check_board(g, b)
            hl = {el.get("data-square") for el in find(g, "hl")}
            arrows = [(a.get("data-from"), a.get("data-to")) for a in find(g, "arrow")]
            if k == 0:
                assert hl == set() and arrows == []
            else:
                m = s.moves[k - 1]
                names = bitknights.square_name(m.from_square), bitknights.square_name(m.to_square)
                assert hl == set(names) and arrows == [names]
                # the move that made this board: its knight now stands on `to`
                assert b.blank == m.from_square and b.cell(m.to_square) != "*"
        captions = [t.text for t in find(root, "caption")]
        assert captions == ["start"] + [f"{k}. {m}" for k, m in enumerate(s.moves, 1)]


def test_solution_html_has_moves_animation_and_boards(solved):
    for s in solved:
        html = s._repr_html_()
        assert html == render.solution_html(s)
        self_contained(html)
        root = ET.fromstring(html)  # well-formed XHTML
        svgs = list(root.iter(SVG + "svg"))
        assert [classes(x) for x in svgs] == [{"bitknights-animation"}, {"bitknights-solution"}]
        text = "".join(root.itertext())
        assert f"{s.steps} move" in text
        assert " ".join(str(m) for m in s.moves) in text
        assert len(find(svgs[1], "board")) == s.steps + 1


def test_unsolved_solution_shows_start_and_reason():
    s = solve(BOARDS[2])  # classic sample 2: farther than 15
    assert s.steps is None
    for markup in (s._repr_svg_(), s._repr_html_(), render.solution_animation_svg(s)):
        self_contained(markup)
        root = ET.fromstring(markup)
        (group,) = find(root, "board")
        assert group.get("data-board") == s.start.compact
        check_board(group, s.start)
    assert "no solution within 15 moves (over limit)" in s._repr_svg_()


def test_solution_from_a_bad_path_is_refused():
    with pytest.raises(BoardError):
        render.solution_svg([TARGET, BOARDS[1]])


# -- the animation --------------------------------------------------------------------------


def _times(anim: ET.Element) -> tuple[list[float], list[str], float, str]:
    values = anim.get("values").split(";")
    times = [float(t) for t in anim.get("keyTimes").split(";")]
    mode = anim.get("calcMode")
    assert len(values) == len(times)
    assert times[0] == 0 and all(a <= b for a, b in zip(times, times[1:])) and times[-1] <= 1
    if mode == "linear":
        assert times[-1] == 1
    assert anim.get("repeatCount") == "indefinite"
    return times, values, float(anim.get("dur").rstrip("s")), mode


def _value_at(anim: ET.Element, f: float) -> str:
    """The animated value at fraction ``f`` of the duration (SMIL discrete/linear)."""
    times, values, _, mode = _times(anim)
    i = max(j for j, t in enumerate(times) if t <= f)
    if mode == "discrete" or i == len(times) - 1 or values[i] == values[i + 1]:
        return values[i]
    a = [float(v) for v in values[i].split(",")]
    b = [float(v) for v in values[i + 1].split(",")]
    w = (f - times[i]) / (times[i + 1] - times[i])
    return ",".join(f"{x + (y - x) * w:g}" for x, y in zip(a, b))


def anim_frame(root: ET.Element, corner: dict[str, tuple[float, float]], f: float) -> str | None:
    """The board the animation shows at fraction ``f`` of its period (25 characters), or
    None while a knight is between squares."""
    at_corner = {f"{x:g},{y:g}": name for name, (x, y) in corner.items()}
    cells = {}
    for p in find(root, "knight") + find(root, "blank"):
        anim = p.find(SVG + "animateTransform")
        x, y = translate(p)
        pos = f"{x:g},{y:g}" if anim is None else _value_at(anim, f)
        if pos not in at_corner:
            return None
        kind = "*" if "blank" in classes(p) else "1" if "black" in classes(p) else "0"
        cells[at_corner[pos]] = kind
    assert len(cells) == 25
    return "".join(cells[f"{'abcde'[i % 5]}{5 - i // 5}"] for i in range(25))


def anim_caption(root: ET.Element, f: float) -> str:
    """The one caption shown at fraction ``f`` of the period."""
    shown = []
    for t in find(root, "caption"):
        anim = t.find(SVG + "animate")
        if (t.get("opacity") if anim is None else _value_at(anim, f)) == "1":
            shown.append(t.text)
    assert len(shown) == 1, (f, shown)
    return shown[0]


def test_animation_steps_through_the_path(solved):
    for s in solved:
        svg = render.solution_animation_svg(s, seconds_per_move=0.5)
        self_contained(svg)
        root = parse(svg)
        anims = [e for e in root.iter() if e.tag in (SVG + "animate", SVG + "animateTransform")]
        assert len({_times(a)[2] for a in anims}) <= 1  # one clock for everything
        (group,) = find(root, "board")
        assert group.get("data-board") == s.start.compact
        corner = check_board(group, s.start)  # what a viewer without animation shows
        seen = []
        for i in range(1000):
            b = anim_frame(root, corner, i / 1000)
            if b is not None and (not seen or seen[-1] != b):
                seen.append(b)
                k = len(seen) - 1
                want = "start" if k == 0 else f"{k}/{s.steps}  {s.moves[k - 1]}"
                assert anim_caption(root, i / 1000) == want
        assert seen == [b.compact for b in s.boards]
        for k in find(root, "knight"):
            assert k.get("data-start") and k.get("data-end")


def test_animation_needs_a_positive_step():
    with pytest.raises(ValueError):
        render.solution_animation_svg(BOARDS[:1], seconds_per_move=0)


# -- hints ----------------------------------------------------------------------------------


def true_hints(board: Board, ball: dict[str, int]) -> list[tuple[Move, Board, int, bool]]:
    """Every legal move, its board and exact distance (from the naive BFS ``ball``),
    optimal when one closer."""
    here = ball[board.compact]
    out = []
    for m, child in board.children():
        d = ball[child.compact]
        out.append((m, child, d, d == here - 1))
    return out


@pytest.mark.parametrize("walk", [0, 4, 7])
def test_hints_mark_every_move_with_its_distance(walk, ball8):
    board = random_walk(TARGET, walk, random.Random(walk))
    records = true_hints(board, ball8)
    as_dicts = [dict(move=str(m), board=c.compact, distance=d, optimal=o) for m, c, d, o in records]
    as_objects = [render.Hint(*r) for r in records]
    pictures = {render.hints_svg(board, r) for r in (records, as_dicts, as_objects)}
    assert len(pictures) == 1
    svg = pictures.pop()
    self_contained(svg)
    root = parse(svg)
    check_board(root, board)
    badges = {h.get("data-square"): h for h in find(root, "hint")}
    want = {bitknights.square_name(m.from_square): (d, o) for m, _, d, o in records}
    assert set(badges) == set(want) and len(badges) == len(board.moves())
    for name, (d, opt) in want.items():
        assert badges[name].get("data-distance") == str(d)
        assert ("optimal" in classes(badges[name])) == opt
        assert "".join(badges[name].itertext()) == str(d)
    if board != TARGET:
        assert any(o for *_, o in records)
    html = render.hints_html(board, records)
    ET.fromstring(html)
    self_contained(html)


def test_hints_of_a_board_that_never_arrives():
    board = BOARDS[3]  # 24 white knights: no move ever reaches the classic target
    records = [(m, c, None, False) for m, c in board.children()]
    root = parse(render.hints_svg(board, records))
    badges = find(root, "hint")
    assert len(badges) == len(records) == 2  # the blank sits in a corner
    assert {b.get("data-distance") for b in badges} == {"none"}
    assert {"".join(b.itertext()) for b in badges} == {"\u221e"}
    assert "never" in render.hints_html(board, records)


def test_hints_must_be_legal_moves():
    board = BOARDS[1]
    with pytest.raises(BoardError):
        render.hints_svg(board, [("a5-b5", None, 3, True)])
    with pytest.raises(BoardError):
        render.hints_svg(board, [(Move(0, 12), None, 3, True)])


def test_hints_without_records_ask_the_table_lazily(monkeypatch, ball8):
    board = BOARDS[1]
    calls = []

    def fake_hints(b):
        calls.append(b)
        return true_hints(b, ball8)

    monkeypatch.setitem(sys.modules, "bitknights.table", types.SimpleNamespace(hints=fake_hints))
    monkeypatch.setattr(bitknights, "table", sys.modules["bitknights.table"], raising=False)
    assert render.hints_svg(board) == render.hints_svg(board, true_hints(board, ball8))
    assert calls == [board]


def test_hints_without_records_or_table_is_a_clear_error(monkeypatch):
    monkeypatch.delattr(bitknights, "table", raising=False)
    monkeypatch.setitem(sys.modules, "bitknights.table", None)
    with pytest.raises(render.TableUnavailableError, match="table"):
        render.hints_svg(TARGET)
    monkeypatch.setitem(sys.modules, "bitknights.table", types.SimpleNamespace())
    monkeypatch.setattr(bitknights, "table", sys.modules["bitknights.table"], raising=False)
    with pytest.raises(render.TableUnavailableError, match="hints"):
        render.hints_svg(TARGET)


# -- the distance distribution --------------------------------------------------------------


@pytest.fixture(scope="module")
def layers(ball8) -> list[int]:
    return [sum(1 for d in ball8.values() if d == k) for k in range(9)]


def test_distribution_text(layers):
    text = render.distribution_text(layers, width=40)
    assert text == render.distribution_text(dict(enumerate(layers)), width=40)
    assert text == render.distribution_text({"layers": layers, "max_distance": 8}, width=40)
    lines = text.splitlines()
    assert len(lines) == 1 + len(layers) + 1
    for d, (line, count) in enumerate(zip(lines[1:], layers)):
        fields = line.split()
        assert int(fields[0]) == d and int(fields[1].replace(",", "")) == count
        bar = len(fields[2]) if len(fields) > 2 else 0
        assert bar == max(1, round(40 * count / max(layers)))
    assert lines[-1] == f"total {sum(layers):,} boards, largest distance 8"
    logbars = [
        len(ln.split()[2]) for ln in render.distribution_text(layers, log=True).splitlines()[1:-1]
    ]
    assert logbars == sorted(logbars) and logbars[-1] == 50
    assert render.distribution_text({0: 1, 2: 5}).splitlines()[2].split() == ["1", "0"]


def test_distribution_plot(layers):
    fig = render.distribution_plot(layers)
    from matplotlib.figure import Figure

    assert isinstance(fig, Figure)
    (ax,) = fig.axes
    assert [p.get_height() for p in ax.patches] == layers
    assert ax.get_yscale() == "log"
    assert render.distribution_plot(layers, log=False).axes[0].get_yscale() == "linear"
    png = fig._repr_png_()  # shows in a notebook even without pyplot
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000


def test_distribution_plot_without_matplotlib(monkeypatch, layers):
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(ImportError, match=r"bitknights\[plot\]"):
        render.distribution_plot(layers)


# -- import hygiene -------------------------------------------------------------------------


def test_pictures_need_neither_numba_nor_matplotlib():
    code = """
import sys
import bitknights
from bitknights import TARGET, Solution
b = TARGET.play("b5").play("d4")
s = Solution(start=b, target=TARGET, steps=2, boards=[b, b.play("b5"), TARGET])
s.verify()
out = [TARGET._repr_svg_(), TARGET._repr_html_(), s._repr_svg_(), s._repr_html_()]
from bitknights import render, textview
out.append(render.distribution_text([1, 8]))
out.append(textview.path_text(s, unicode=True))
heavy = [m for m in ("numba", "matplotlib") if m in sys.modules]
print(heavy, sum(map(len, out)) > 0)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[] True"


# -- terminal text --------------------------------------------------------------------------

_BACK = str.maketrans({"\u2658": "0", "\u265e": "1", "\u00b7": "*"})


def panels(text: str, unicode: bool) -> list[list[str]]:
    """The boards of a path_text, read back block by block (five rows of each panel)."""
    lines = text.splitlines()[1:]
    boards = []
    for lo in range(0, len(lines), 6):
        block = lines[lo : lo + 6]
        heads = re.findall(r"start|\d+ [a-e][1-5]-[a-e][1-5]", block[0])
        rows = [re.split(r"\s{2,}" if unicode else r"\s+", row) for row in block[1:]]
        assert all(len(r) == len(heads) for r in rows)
        boards += [[r[j] for r in rows] for j in range(len(heads))]
    return boards


def test_path_text_plain_and_unicode(solved):
    for s in solved:
        plain = path_text(s)
        assert plain == path_text(s, unicode=False) and plain.isascii()
        assert plain.splitlines()[0] == f"moves ({s.steps}): " + (
            " ".join(str(m) for m in s.moves) or "none"
        )
        assert panels(plain, False) == [b.rows() for b in s.boards]
        uni = path_text(s, unicode=True)
        assert not uni.isascii()
        assert uni.splitlines()[0] == plain.splitlines()[0]
        got = [[r.translate(_BACK).replace(" ", "") for r in p] for p in panels(uni, True)]
        assert got == [b.rows() for b in s.boards]
        assert set(uni) - set(plain) <= {"\u2658", "\u265e", "\u00b7"}
        assert not set("01*") & set("".join("".join(p) for p in panels(uni, True)))
        assert max(map(len, uni.splitlines())) <= 80


def test_board_text():
    for b in BOARDS:
        assert board_text(b) == str(b)
        rows = board_rows(b, unicode=True)
        assert [r.translate(_BACK).replace(" ", "") for r in rows] == b.rows()
        assert board_text(b, unicode=True).count("\u2658") == b.counts[0]
        assert board_text(b, unicode=True).count("\u265e") == b.counts[1]


def test_path_text_unsolved():
    s = solve(BOARDS[2])
    assert path_text(s) == path_text(s, unicode=True) == "no solution (over limit)"
