"""Pictures: SVG/HTML boards, solutions, the animation, hints, the distribution, text views.
Positions are checked through the markup's own geometry, square names through
``bitknights.square_name``/``parse_square``."""

from __future__ import annotations

import ast
import json
import random
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from bitknights import TARGET, Board, BoardError, Move, Solution, parse_square, render, solve
from bitknights import square_name as name
from bitknights.render import board_rows, board_text, path_text
from bitknights.table.distance_table import Hint as TableHint
from helpers import random_board, random_walk, run_python, still_square

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


def position(el: ET.Element) -> tuple[float, float]:
    """Where a ``<use>`` places its glyph: its ``x``/``y``, or its translation."""
    if el.get("transform"):
        assert el.get("x") is None and el.get("y") is None
        return translate(el)
    return float(el.get("x", 0)), float(el.get("y", 0))


def uses(el: ET.Element) -> str:
    href = el.get("href")
    assert el.tag == SVG + "use" and href and href.startswith("#"), (el.tag, href)
    return href[1:]


def by_id(doc: ET.Element, ident: str) -> ET.Element:
    (found,) = [e for e in doc.iter() if e.get("id") == ident]
    return found


def pieces(group: ET.Element, doc: ET.Element) -> list[ET.Element]:
    """The knights and the blank of a board group, each as the ``<use>`` that carries its
    class and square: the group's own, or for a piece drawn as ``<use href="#bk-w-c3">``
    the definition it points at (whose position is then the group's)."""
    out = []
    for u in group:
        if u.tag != SVG + "use" or "grid" in u.get("href"):
            continue
        if {"knight", "blank"} & classes(u):
            out.append(u)
        else:
            assert set(u.attrib) == {"href"}, u.attrib  # a placed piece, nothing else
            placed = by_id(doc, uses(u))
            assert placed.tag == SVG + "use" and {"knight", "blank"} & classes(placed)
            out.append(placed)
    return out


def check_board(
    group: ET.Element, board: Board, doc: ET.Element | None = None
) -> dict[str, tuple[float, float]]:
    """Assert ``group`` (in document ``doc``) draws ``board``: a grid of 25 squares,
    checkered 5×5 in name order, 24 knights of the right colours standing on their squares,
    the blank on its square.  Returns square name -> corner in the group's coordinates."""
    doc = group if doc is None else doc
    if group.tag == SVG + "svg":
        (group,) = find(group, "board")
    (grid_use,) = [u for u in group if u.tag == SVG + "use" and "grid" in u.get("href")]
    grid = by_id(doc, uses(grid_use))
    assert grid.tag == SVG + "g" and "grid" in classes(grid)
    gx, gy = position(grid_use)
    cells = {name(i): ch for i, ch in enumerate(board.compact)}  # square name -> 0, 1 or *
    rects = find(grid, "sq")
    assert len(rects) == 25
    corner = {r.get("data-square"): (gx + float(r.get("x")), gy + float(r.get("y"))) for r in rects}
    assert set(corner) == set(cells)
    side = float(rects[0].get("width"))
    x0, y0 = corner[name(0)]
    for rect in rects:
        square = rect.get("data-square")
        r, c = divmod(parse_square(square), 5)
        assert name(r * 5 + c) == square
        assert corner[square] == (x0 + c * side, y0 + r * side), square
        assert ("dark" if (r + c) % 2 else "light") in classes(rect)
    drawn = pieces(group, doc)
    seen = {}  # square name -> the piece drawn there: 24 knights and the blank (as cells)
    for p in drawn:
        (kind,) = {"black", "white", "blank"} & classes(p)
        assert ("knight" in classes(p)) == (kind != "blank")
        assert by_id(doc, uses(p)).get("id") == f"bk-{kind}"  # its glyph, defined once
        assert position(p) == corner[p.get("data-square")]
        seen[p.get("data-square")] = {"black": "1", "white": "0", "blank": "*"}[kind]
    assert len(drawn) == 25 and seen == cells
    return corner


def parse(markup: str) -> ET.Element:
    """The ``<svg>`` element of a self-contained picture."""
    root = self_contained(markup)
    assert root.tag == SVG + "svg"
    return root


def self_contained(markup: str) -> ET.Element:
    """The root of ``markup``, which fetches nothing and runs nothing: the only URL is the SVG
    namespace, every ``href`` points at an id in the same picture (the SVGs of an HTML view
    share one ``<defs>``), and no id is defined twice."""
    urls = re.findall(r"https?://[^\s\"'<>)]*", markup)
    assert set(urls) <= {"http://www.w3.org/2000/svg"}, urls
    low = markup.lower()
    for bad in ("<script", "<image", "<img", "url(", "@import", "@font-face", "<link", "xlink"):
        assert bad not in low, bad
    assert not re.search(r"\son[a-z]+\s*=", low)
    root = ET.fromstring(markup)
    ids = [e.get("id") for e in root.iter() if e.get("id") is not None]
    assert len(ids) == len(set(ids)), "an id defined twice"
    for e in root.iter():
        href = e.get("href")
        if href is not None:
            assert href.startswith("#") and href[1:] in ids, href
    assert len(list(root.iter(SVG + "defs"))) <= 1
    hrefs = sum(1 for e in root.iter() if e.get("href") is not None)
    assert hrefs == len(re.findall(r"href", low))  # no href outside the SVG documents
    return root


# -- one board ------------------------------------------------------------------------------


_rng = random.Random(5)
MORE_BOARDS = [random_board(_rng, black) for black in (0, 3, 7, 12, 12, 17, 24)]


@pytest.mark.parametrize("board", BOARDS + MORE_BOARDS, ids=str)
def test_board_svg_has_every_square_and_knight_in_place(board):
    svg = render.board_svg(board, size=222)
    root = parse(svg)
    assert root.get("width") == root.get("height") == "222"
    check_board(root, board)
    assert find(root, "hl") == [] and find(root, "arrow") == []
    assert (len(find(root, "white")), len(find(root, "black"))) == board.counts
    # the view a notebook shows holds the same picture, once
    html = board._repr_html_()
    assert html.count(str(render.board_svg(board))) == 1 and html.count("<svg") == 1
    assert not hasattr(board, "_repr_svg_")


def test_edge_labels_and_square_names_follow_square_name():
    root = parse(render.board_svg(TARGET))
    corner = check_board(root, TARGET)
    # square 0 top left, 24 bottom right, 4 top right
    assert corner[name(0)] == min(corner.values())
    assert corner[name(24)] == max(corner.values())
    assert corner[name(4)][0] > corner[name(0)][0] and corner[name(4)][1] == corner[name(0)][1]
    # over each column the letter part of its squares' names, left of each row the digits
    files = sorted(find(root, "file"), key=lambda t: float(t.get("x")))
    ranks = sorted(find(root, "rank"), key=lambda t: float(t.get("y")))
    assert [t.text for t in files] == [name(c).rstrip("0123456789") for c in range(5)]
    assert [t.text for t in ranks] == [name(5 * r).lstrip("abcde") for r in range(5)]
    for sq in range(25):
        r, c = divmod(sq, 5)
        assert name(sq) == files[c].text + ranks[r].text
    for c, t in enumerate(files):  # centred over its column
        assert float(t.get("x")) == corner[name(c)][0] + 100 / 2
    assert not find(parse(render.board_svg(TARGET, coordinates=False)), "coord")
    assert not find(root, "name")


@pytest.mark.parametrize("board", BOARDS[:3])
def test_every_square_named_on_request(board):
    svg = render.board_svg(board, names=True, size=400)
    root = parse(svg)
    corner = check_board(root, board)
    labels = find(root, "name")
    assert sorted(t.text for t in labels) == sorted(name(sq) for sq in range(25))
    for t in labels:
        assert t.get("data-square") == t.text
        x, y = corner[t.text]  # inside its own square
        assert x < float(t.get("x")) < x + 100 and y < float(t.get("y")) < y + 100


def test_move_is_highlighted_from_and_to():
    board = BOARDS[1]
    for move in board.moves():
        root = parse(render.board_svg(board, move=move))
        check_board(root, board)
        frm, to = name(move.from_square), name(move.to_square)
        hl = {el.get("data-square"): classes(el) for el in find(root, "hl")}
        assert set(hl) == {frm, to}
        assert "from" in hl[frm] and "to" in hl[to]
        (arrow,) = find(root, "arrow")
        assert (arrow.get("data-from"), arrow.get("data-to")) == (frm, to)


REFUSED = {  # a picture asked of what it cannot draw, and the error that says so
    "not a knight's jump": (lambda: render.board_svg(BOARDS[1], move=Move(0, 12)), BoardError),
    "off the board": (lambda: render.board_svg(BOARDS[1], move=Move(4, 99)), BoardError),
    "a move as text": (lambda: render.board_svg(BOARDS[1], move=str(BOARDS[1].moves()[0])), TypeError),
    "a path that is no path": (lambda: render.solution_svg([TARGET, BOARDS[1]]), BoardError),
    "no time a move": (lambda: render.solution_animation_svg(BOARDS[:1], seconds_per_move=0), ValueError),
    "hints looked up": (lambda: render.hints_svg(BOARDS[1]), TypeError),  # hints are data
}  # fmt: skip


@pytest.mark.parametrize("case", REFUSED)
def test_bad_arguments_are_refused(case):
    call, error = REFUSED[case]
    with pytest.raises(error):
        call()


def test_pictures_are_strings_that_display_themselves():
    svg = render.board_svg(TARGET)
    assert isinstance(svg, render.SvgPicture) and isinstance(svg, str)
    assert svg._repr_svg_() == str(svg) and "characters of SVG" in repr(svg)
    html = render.board_html(TARGET)
    assert isinstance(html, render.HtmlPicture) and html._repr_html_() == str(html)
    assert "characters of HTML" in repr(html)


def test_board_html_wraps_the_svg():
    html = TARGET._repr_html_()
    root = self_contained(html)  # well-formed
    (svg,) = root.iter(SVG + "svg")
    check_board(svg, TARGET)
    assert " / ".join(TARGET.rows()) in html


# -- solutions ------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def solved(ball11) -> list[Solution]:
    """Solutions of the sample, the target and random boards up to 11 moves out (naive BFS)."""
    rng = random.Random(11)
    starts = [BOARDS[1], TARGET, random_walk(TARGET, 3, rng)]
    for d in (9, 10, 11):
        starts.append(Board(rng.choice(sorted(b for b, k in ball11.items() if k == d))))
    out = [solve(b) for b in starts]
    for s in out:
        s.verify()
        assert s.steps == ball11[s.start.compact]
    return out


def check_strip(root: ET.Element, groups: list[ET.Element], s: Solution) -> None:
    """``groups`` (in document ``root``) draw the boards of ``s``'s path in order, one a step,
    each headed by its caption."""
    assert [g.get("data-board") for g in groups] == [b.compact for b in s.boards]
    assert [g.get("data-step") for g in groups] == [str(k) for k in range(len(s.boards))]
    for g, b in zip(groups, s.boards):  # (the pictures of a view share its defs)
        check_board(g, b, root)
    captions = [t.text for t in find(root, "caption") if t.get("data-step") is None]
    assert captions == ["start"] + [f"{k}. {m}" for k, m in enumerate(s.moves, 1)]


def test_solution_svg_draws_every_board_of_the_path(solved):
    for s in solved:
        root = parse(render.solution_svg(s))
        groups = find(root, "board")
        check_strip(root, groups, s)
        for k, (g, b) in enumerate(zip(groups, s.boards)):
            hl = {el.get("data-square") for el in find(g, "hl")}
            arrows = [(a.get("data-from"), a.get("data-to")) for a in find(g, "arrow")]
            if k == 0:
                assert hl == set() and arrows == []
            else:
                m = s.moves[k - 1]
                names = name(m.from_square), name(m.to_square)
                assert hl == set(names) and arrows == [names]
                # the move that made this board: its knight now stands on `to`
                assert b.blank == m.from_square and b.cell(m.to_square) != "*"


def test_solution_html_has_moves_animation_and_boards(solved):
    for s in solved:
        html = s._repr_html_()
        assert html == render.solution_html(s)
        assert not hasattr(s, "_repr_svg_")  # the notebook stores one copy
        root = self_contained(html)  # well-formed XHTML
        svgs = list(root.iter(SVG + "svg"))
        # the animation, then one small picture per board, in a div that wraps them
        want = [{"bitknights-animation"}] + [{"bitknights-step"}] * (s.steps + 1)
        assert [classes(x) for x in svgs] == want
        (steps,) = [d for d in root.iter("div") if d.get("class") == "bitknights-steps"]
        assert "flex-wrap:wrap" in steps.get("style") and list(steps) == svgs[1:]
        text = "".join(root.itertext())
        assert f"{s.steps} move" in text
        assert " ".join(str(m) for m in s.moves) in text
        # no line breaks inside a move (at its hyphen): each is one unbreakable span
        spans = list(root.iter("code"))[0].findall("span") if s.moves else []
        assert [sp.text for sp in spans] == [str(m) for m in s.moves]
        assert all(sp.get("style") == "white-space:nowrap" for sp in spans)
        check_strip(root, [g for svg in svgs[1:] for g in find(svg, "board")], s)


def test_unsolved_solution_shows_start_and_reason():
    s = solve(BOARDS[2])  # classic sample 2: farther than 15
    assert s.steps is None
    for markup in (render.solution_svg(s), s._repr_html_(), render.solution_animation_svg(s)):
        root = self_contained(markup)
        (group,) = find(root, "board")
        assert group.get("data-board") == s.start.compact
        check_board(group, s.start, root)
    assert "no solution within 15 moves (over limit)" in s._repr_html_()
    # in the picture, on two lines that fit its width
    captions = [t.text for t in find(parse(render.solution_svg(s)), "caption")]
    assert captions == ["no solution within 15 moves", "(over limit)"]


def long_solution(moves: int, seed: int) -> Solution:
    """A ``moves``-move path to the target that never repeats a board (optimal or not)."""
    rng = random.Random(seed)
    while True:
        path = [TARGET]
        while len(path) <= moves:
            ahead = [c for _, c in path[-1].children() if c not in path]
            if not ahead:
                break
            path.append(rng.choice(ahead))
        if len(path) == moves + 1:
            path.reverse()
            s = Solution(start=path[0], target=TARGET, steps=moves, boards=path, engine="walk")
            s.verify()
            return s


def stored_size(obj) -> int:
    """The bytes a notebook file spends on ``obj``'s output: every MIME type IPython makes,
    as nbformat writes them (sorted JSON, indent 1, texts split into lines)."""
    from IPython.core.formatters import DisplayFormatter

    data, metadata = DisplayFormatter().format(obj)
    lines = {mime: text.splitlines(keepends=True) for mime, text in data.items()}
    out = {"data": lines, "execution_count": None, "metadata": metadata}
    out["output_type"] = "execute_result"
    return len(json.dumps(out, sort_keys=True, indent=1, ensure_ascii=False).encode())


@pytest.mark.parametrize("moves, limit", [(7, 40_000), (36, 150_000)])
def test_a_solutions_saved_output_stays_small(moves, limit):
    """One copy (HTML, no second SVG), one <defs> for both pictures, each strip piece one
    short reference: 64 KB and 243 KB in a notebook file before."""
    s = long_solution(moves, seed=moves)
    data, _ = __import__("IPython").core.formatters.DisplayFormatter().format(s)
    assert set(data) == {"text/plain", "text/html"}
    assert stored_size(s) <= limit
    html = s._repr_html_()
    root = self_contained(html)
    animation, *steps = root.iter(SVG + "svg")
    check_strip(root, [g for svg in steps for g in find(svg, "board")], s)
    assert len(find(animation, "hl-step")) == moves
    assert len([e for e in root.iter() if e.get("d")]) == 1  # one knight outline
    assert len(list(animation.iter(SVG + "defs"))) == 1
    assert not [d for svg in steps for d in svg.iter(SVG + "defs")]


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
    return "".join(cells[name(i)] for i in range(25))


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
        root = parse(svg)
        anims = [e for e in root.iter() if e.tag in (SVG + "animate", SVG + "animateTransform")]
        assert len({_times(a)[2] for a in anims}) <= 1  # one clock for everything
        (group,) = find(root, "board")
        assert group.get("data-board") == s.start.compact
        corner = check_board(group, s.start, root)  # what a viewer without animation shows
        # between key times a value holds or moves linearly: each middle shows its stretch
        keys = sorted({t for a in anims for t in _times(a)[0]} | {0.0, 1.0})
        seen = []
        for f in ((a + b) / 2 for a, b in zip(keys, keys[1:])):
            b = anim_frame(root, corner, f)
            if b is not None and (not seen or seen[-1] != b):
                seen.append(b)
                k = len(seen) - 1
                want = "start" if k == 0 else f"{k}/{s.steps}  {s.moves[k - 1]}"
                assert anim_caption(root, f) == want
        assert seen == [b.compact for b in s.boards]
        for k in find(root, "knight"):
            assert k.get("data-start") and k.get("data-end")


# -- hints ----------------------------------------------------------------------------------


@pytest.mark.parametrize("walk", [0, 4, 7])
def test_hints_mark_every_move_with_its_distance(walk, ball8):
    board = random_walk(TARGET, walk, random.Random(walk))
    # every move's board and naive distance, as the table's hints and as render's
    d = {c: ball8[c.compact] for _, c in board.children()}
    records = [TableHint(m, c, d[c], d[c] == ball8[board.compact] - 1) for m, c in board.children()]
    by_hand = [render.Hint(r.move, r.board, r.distance, r.optimal) for r in records]
    svg = render.hints_svg(board, records)
    assert svg == render.hints_svg(board, by_hand) == render.board_svg(board, hints=records)
    root = parse(svg)
    check_board(root, board)
    badges = {h.get("data-square"): h for h in find(root, "hint")}
    frames = {h.get("data-square"): h for h in find(root, "hint-sq")}
    want = {name(r.move.from_square): (r.distance, r.optimal) for r in records}
    assert set(badges) == set(frames) == set(want) and len(badges) == len(board.moves())
    for square, (d, opt) in want.items():
        assert badges[square].get("data-distance") == str(d)
        assert ("optimal" in classes(badges[square])) == opt
        assert ("optimal" in classes(frames[square])) == opt
        assert "".join(badges[square].itertext()) == str(d)
    if board != TARGET:
        assert any(r.optimal for r in records)
    html = render.hints_html(board, records)
    root = self_contained(html)
    rows = [["".join(td.itertext()) for td in tr.iter("td")] for tr in root.iter("tr")][1:]
    want = [[str(r.move), str(r.distance)] + (["optimal"] if r.optimal else []) for r in records]
    assert sorted(rows) == sorted(want)
    assert [int(r[1]) for r in rows] == sorted(int(r[1]) for r in rows)


def test_hints_of_a_board_that_never_arrives():
    board = BOARDS[3]  # 24 white knights: no move ever reaches the classic target
    records = [render.Hint(m, c, None, False) for m, c in board.children()]
    root = parse(render.hints_svg(board, records))
    badges = find(root, "hint")
    assert len(badges) == len(records) == 2  # the blank sits in a corner
    assert {b.get("data-distance") for b in badges} == {"none"}
    assert {"".join(b.itertext()) for b in badges} == {"\u221e"}
    assert "never" in render.hints_html(board, records)


def test_hints_must_be_legal_moves():
    board = BOARDS[1]
    jumps = {m.from_square for m in board.moves()}
    near = still_square(board)
    elsewhere = next(sq for sq in range(25) if sq not in (board.blank, min(jumps)))
    with pytest.raises(BoardError):  # the blank is not where the move goes
        render.hints_svg(board, [render.Hint(Move(min(jumps), elsewhere), board, 3, True)])
    with pytest.raises(BoardError):  # not a knight's jump
        render.hints_svg(board, [render.Hint(Move(near, board.blank), board, 3, True)])


def test_render_imports_only_the_value_types():
    """Render imports nothing of bitknights but board, solution, squares, errors and
    _records (not even lazily): hints and counts come in as data."""
    allowed = {"board", "solution", "squares", "errors", "_records"}
    package = Path(render.__file__).parent
    for path in package.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                assert node.module is None or (package / f"{node.module}.py").exists()
            elif isinstance(node, ast.ImportFrom) and node.level:
                assert node.level == 2 and node.module in allowed, (path.name, node.module)
            elif isinstance(node, ast.ImportFrom):
                assert not node.module.startswith("bitknights"), (path.name, node.module)
            elif isinstance(node, ast.Import):
                assert not [a for a in node.names if a.name.startswith("bitknights")], path.name


# -- the distance distribution --------------------------------------------------------------


@pytest.fixture(scope="module")
def layers(ball8) -> list[int]:
    return [sum(1 for d in ball8.values() if d == k) for k in range(9)]


def test_distribution_text(layers):
    text = render.distribution_text(layers, width=40)
    assert text == render.distribution_text(dict(enumerate(layers)), width=40)
    lines = text.splitlines()
    assert len(lines) == 1 + len(layers) + 1
    for d, (line, count) in enumerate(zip(lines[1:], layers)):
        fields = line.split()
        assert int(fields[0]) == d and int(fields[1].replace(",", "")) == count
        bar = len(fields[2]) if len(fields) > 2 else 0
        assert bar == max(1, round(40 * count / max(layers)))
    assert lines[-1] == f"total {sum(layers):,} boards, largest distance 8"
    logged = render.distribution_text(layers, log=True).splitlines()[1:-1]
    logbars = [len(ln.split()[2]) for ln in logged]
    assert logbars == sorted(logbars) and logbars[-1] == 50
    assert render.distribution_text({0: 1, 2: 5}).splitlines()[2].split() == ["1", "0"]


@pytest.fixture(scope="module")
def plot(layers):
    """One figure of ``layers`` for the plot tests."""
    return render.distribution_plot(layers)


def test_distribution_plot(layers, plot):
    from matplotlib.figure import Figure

    assert isinstance(plot, Figure)
    (ax,) = plot.axes
    assert [p.get_height() for p in ax.patches] == layers
    assert ax.get_yscale() == "log"
    assert render.distribution_plot(layers, log=False).axes[0].get_yscale() == "linear"
    png = plot._repr_png_()  # shows in a notebook even without pyplot
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 1000


def test_plots_sit_on_a_frame_that_reads_on_any_theme(plot):
    """A PNG cannot follow the notebook's theme: the plot carries its own colours, dark ink
    on paper in the board's wooden frame (the lab's plots too, tests/test_lab.py)."""
    import pixels
    from bitknights.render.boards import FRAME

    # the title, two axis labels, 5 distance ticks, 5 powers of ten
    found = pixels.check_framed_figure(plot, 3 + 5 + 5, FRAME)
    assert max(lb.back for lb in found) > 0.8  # the labels stand on the paper


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
back = TARGET.moves()[0].from_square
b = TARGET.play(back)
s = Solution(start=b, target=TARGET, steps=1, boards=[b, TARGET])
s.verify()
out = [TARGET._repr_html_(), s._repr_html_()]
from bitknights import render
out.append(render.distribution_text([1, 8]))
out.append(render.path_text(s, unicode=True))
heavy = [m for m in ("numba", "matplotlib") if m in sys.modules]
print(heavy, sum(map(len, out)) > 0)
"""
    out = run_python(code, check=True)
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
        moves = " ".join(str(m) for m in s.moves) or "none"
        assert plain.splitlines()[0] == f"moves ({s.steps}): {moves}"
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


def test_every_text_has_its_own_colour_on_its_own_backdrop():
    """No text takes the page's colour (black in an <img> on a dark theme): edge letters
    and captions LABEL on the frame, square names INK, badge numbers white on their disc."""
    from bitknights.render.boards import FRAME, INK, LABEL

    b = BOARDS[1]
    hs = [render.Hint(m, c, 5, False) for m, c in b.children()]
    s = solve(b)
    pictures = [
        render.board_svg(b, names=True, hints=hs, move=b.moves()[0]),
        render.solution_svg(s),
        render.solution_animation_svg(s),
        render.solution_svg(solve(BOARDS[2])),
    ]
    fills = set()
    for svg in pictures:
        root = parse(svg)
        assert "currentColor" not in svg
        for t in root.iter(SVG + "text"):
            fill = t.get("fill") or next(
                g.get("fill") for g in root.iter() if t in list(g) and g.get("fill")
            )
            fills.add(fill)
            if {"coord", "caption"} & classes(t):
                assert fill == LABEL
        for f in find(root, "frame"):
            assert f.get("fill") == FRAME
    assert fills == {LABEL, INK, "#ffffff"}
    # the frames stand under every label: the grid's frame covers its whole square
    root = parse(render.board_svg(b))
    (frame,) = find(by_id(root, "bk-grid"), "frame")
    assert (frame.get("x"), frame.get("y")) == ("0", "0")
    assert frame.get("width") == frame.get("height") == root.get("viewBox").split()[2]


def test_a_badge_leaves_the_arrow_head_clear():
    """The badge of the knight that just moved sits away from where the arrow comes in."""
    for board in BOARDS[1:3]:
        for move in board.moves():
            after = board.play(move)
            hs = [render.Hint(m, c, 3, False) for m, c in after.children()]
            root = parse(render.board_svg(after, move=move, hints=hs))
            (arrow,) = find(root, "arrow")
            points = arrow.find(SVG + "polygon").get("points").split()
            head = [tuple(map(float, p.split(","))) for p in points]
            to = name(move.to_square)
            (badge,) = [h for h in find(root, "hint") if h.get("data-square") == to]
            circle = badge.find(SVG + "circle")
            cx, cy, r = (float(circle.get(k)) for k in ("cx", "cy", "r"))
            for px, py in head:
                assert (px - cx) ** 2 + (py - cy) ** 2 > r**2, (move, (px, py))
