"""One board as a picture (squares, knights, a move's arrow, hint badges), on a small
SVG/XHTML builder, and the picture types.

Markup is built as elements, never by pasting strings, so every text and attribute value is
escaped by the serializer.  Attribute names are keyword arguments with ``_`` for ``-`` and a
trailing ``_`` dropped; numbers are written short and ``None`` leaves an attribute out:

>>> markup(el("text", "a<b", class_="coord", x=12.5, y=40.0, font_size=28, fill=None))
'<text class="coord" x="12.5" y="40" font-size="28">a&lt;b</text>'

Geometry is in viewBox units: a square is :data:`S` wide, the labels take :data:`M` on the
top and left, :data:`P` pads the right and bottom.

Every picture carries the ``<defs>`` it uses (:class:`Defs`), once: the knight's outline
(``#bk-knight``), the knights and blank built on it (``#bk-white``, ``#bk-black``,
``#bk-blank``), the framed grid (``#bk-grid...``), and for pictures of many boards each
piece placed on its square (``#bk-w-c3``, ``#bk-b-c3``, ``#bk-e-c3``).  An id names one
content only, so pictures can share a page.
"""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET
from string import ascii_letters, digits
from typing import TYPE_CHECKING

from ..board import Board, Move
from ..errors import BoardError
from ..solution import Hint  # noqa: TC001 - hints_svg's example uses it
from ..squares import (
    KNIGHT_TARGETS,
    NUM_SQUARES,
    SIZE,
    Square,
    parse_square,
    square_color,
    square_name,
)

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence
    from typing import Any, TypeAlias

SVG_NS = "http://www.w3.org/2000/svg"

Attr: TypeAlias = "str | int | float | None"


def num(x: float) -> str:
    """A coordinate as short text: integers without a fraction, else at most two decimals.

    >>> num(140.0), num(12.5), num(1 / 3)
    ('140', '12.5', '0.33')
    """
    x = round(float(x), 2)
    return str(int(x)) if x.is_integer() else f"{x:.2f}".rstrip("0")


def el(tag: str, text: str | None = None, /, **attrs: Attr) -> ET.Element:
    """A new element ``tag`` holding ``text`` with ``attrs`` (see the module docstring)."""
    written = {k.rstrip("_").replace("_", "-"): v for k, v in attrs.items() if v is not None}
    e = ET.Element(tag, {k: v if isinstance(v, str) else num(v) for k, v in written.items()})
    e.text = text
    return e


def sub(parent: ET.Element, tag: str, text: str | None = None, /, **attrs: Attr) -> ET.Element:
    """:func:`el`, appended to ``parent``; returns the new element."""
    e = el(tag, text, **attrs)
    parent.append(e)
    return e


def svg_root(
    cls: str, board_px: float, units_w: float, units_h: float, title: str | None = None
) -> ET.Element:
    """An ``<svg>`` of class ``cls`` showing ``units_w`` x ``units_h`` viewBox units at the
    scale that draws a board ``board_px`` pixels wide, with its ``<title>`` if any."""
    scale = board_px / BOARD_UNITS
    size = {"width": units_w * scale, "height": units_h * scale}
    view = f"0 0 {num(units_w)} {num(units_h)}"
    root = el(
        "svg", xmlns=SVG_NS, **size, viewBox=view, class_=cls, role="img", font_family="sans-serif"
    )
    if title is not None:
        sub(root, "title", title)
    return root


def markup(e: ET.Element) -> str:
    """``e`` and everything in it as text (no XML declaration)."""
    return ET.tostring(e, encoding="unicode")


class _Picture(str):
    """Markup (a ``str``: every str operation works) that a notebook shows as a picture,
    its ``repr`` one short line (the idea of python-chess's ``SvgWrapper``)."""

    __slots__ = ()

    def __repr__(self) -> str:
        name = type(self).__name__
        return f"<{name}: {len(self):,} characters of {name.removesuffix('Picture').upper()}>"


class SvgPicture(_Picture):
    """An SVG document that shows itself as a picture in a notebook."""

    __slots__ = ()
    _repr_svg_ = str.__str__  # the markup as a plain str


class HtmlPicture(_Picture):
    """An XHTML fragment that shows itself in a notebook.

    >>> HtmlPicture("<p>hi</p>")
    <HtmlPicture: 9 characters of HTML>
    """

    __slots__ = ()
    _repr_html_ = str.__str__


S = 100
M = 40
P = 10
BOARD_UNITS = M + SIZE * S + P

LIGHT = "#f0d9b5"
DARK = "#b58863"
HIGHLIGHT = "#f7ec5d"
ARROW = "#1f6fb2"
OPTIMAL = "#2e7d32"
OTHER = "#757575"
INK = "#1a1a1a"
FRAME = "#5b3d27"
"""The frame round the board (and the caption bands of a solution): dark wood."""
LABEL = "#f5e6c8"
"""Text on the frame: contrast 9:1 with :data:`FRAME`, whatever is round the picture."""

_KNIGHT_PATH = (
    "M24 88L76 88L75 79L69 77C66 64 71 51 77 41C83 30 79 18 64 13L60 5L54 12L47 7L45 16"
    "C35 21 27 30 22 42C19 49 21 56 28 57C34 58 39 53 46 50C48 58 41 67 33 77L26 79Z"
)
_KNIGHT_STYLE = {
    # colour: (body fill, outline, eye)
    "white": ("#fffff0", INK, INK),
    "black": ("#262626", "#000000", "#f0f0f0"),
}


def square_corner(sq: Square) -> tuple[int, int]:
    """Top-left corner of square ``sq`` in a board's own coordinates."""
    r, c = divmod(sq, SIZE)
    return M + c * S, M + r * S


def frame_rect(x: float, y: float, width: float, height: float) -> ET.Element:
    """A rounded rectangle in the frame's colour."""
    return el("rect", class_="frame", x=x, y=y, width=width, height=height, rx=14, fill=FRAME)


def _grid(coordinates: bool) -> ET.Element:
    """The frame, the 25 squares, and with ``coordinates`` the file and rank labels."""
    g = el("g", id="bk-grid" if coordinates else "bk-grid-bare", class_="grid")
    g.append(frame_rect(0, 0, BOARD_UNITS, BOARD_UNITS))
    for sq in range(NUM_SQUARES):
        tone = "dark" if square_color(sq) else "light"
        g.append(square_rect(sq, f"sq {tone}", DARK if tone == "dark" else LIGHT))
    label = dict[str, Attr](text_anchor="middle", font_size=28, font_weight="bold", fill=LABEL)
    for i in range(SIZE if coordinates else 0):
        middle = M + i * S + S / 2
        file, rank = square_name(i).rstrip(digits), square_name(i * SIZE).lstrip(ascii_letters)
        sub(g, "text", file, class_="coord file", x=middle, y=M - 10, **label)
        sub(g, "text", rank, class_="coord rank", x=M / 2, y=middle + 10, **label)
    return g


_PIECE = {"0": ("w", "white"), "1": ("b", "black"), "*": ("e", "blank")}


class Defs:
    """The ``<defs>`` of one picture (or of the SVGs of one HTML view): each id it uses,
    built once, with what it is built on.

    >>> d = Defs()
    >>> d.use("bk-w-c3"), d.use("bk-white")
    ('#bk-w-c3', '#bk-white')
    >>> [e.get("id") for e in d.element()]
    ['bk-knight', 'bk-white', 'bk-w-c3']
    """

    def __init__(self) -> None:
        self._made: dict[str, ET.Element] = {}

    def use(self, ident: str) -> str:
        """``'#ident'``, after adding ``ident`` (and what it needs) to the definitions."""
        if ident not in self._made:
            e = self._build(ident)
            e.set("id", ident)
            self._made[ident] = e
        return "#" + ident

    def element(self) -> ET.Element:
        """The ``<defs>`` element, in the order the ids were first needed."""
        defs = el("defs")
        defs.extend(self._made.values())
        return defs

    def _build(self, ident: str) -> ET.Element:
        if ident == "bk-knight":
            return el("path", d=_KNIGHT_PATH, stroke_width=3, stroke_linejoin="round")
        if ident in ("bk-white", "bk-black"):
            fill, stroke, eye = _KNIGHT_STYLE[ident[3:]]
            g = el("g")
            sub(g, "use", href=self.use("bk-knight"), fill=fill, stroke=stroke)
            sub(g, "circle", cx=44, cy=28, r=3, fill=eye)
            return g
        if ident == "bk-blank":
            g = el("g")
            dashed: dict[str, Attr] = {"stroke": INK, "stroke_width": 3, "stroke_dasharray": "8 6"}
            sub(g, "rect", x=12, y=12, width=76, height=76, rx=10, fill="#ffffff",
                fill_opacity=0.35, **dashed)  # fmt: skip
            sub(g, "circle", cx=50, cy=50, r=5, fill=INK)
            return g
        if ident in ("bk-grid", "bk-grid-bare"):
            return _grid(ident == "bk-grid")
        # a piece placed on its square: bk-w-c3, bk-b-c3, bk-e-c3
        cell = next(c for c, (k, _) in _PIECE.items() if k == ident[3])
        return piece(cell, parse_square(ident[5:]), self)


def piece(cell: str, sq: Square, defs: Defs, **attrs: str) -> ET.Element:
    """The knight or blank ``cell`` (``0 1 *``) placed at square ``sq`` (``attrs`` may add a
    ``transform`` instead of ``x``/``y``): ``<use class="knight white" data-square="c3" ...>``."""
    colour = _PIECE[cell][1]
    cls = "blank" if colour == "blank" else f"knight {colour}"
    x, y = square_corner(sq)
    where = {} if "transform" in attrs else {"x": x, "y": y}
    href = defs.use(f"bk-{colour}")
    return el("use", class_=cls, href=href, data_square=square_name(sq), **where, **attrs)


def square_rect(sq: Square, cls: str, fill: str, inset: int = 0, **attrs: Attr) -> ET.Element:
    """Square ``sq`` (less ``inset`` on every side) as a ``<rect>`` of class ``cls``."""
    x, y = square_corner(sq)
    box = {"x": x + inset, "y": y + inset, "width": S - 2 * inset, "height": S - 2 * inset}
    return el("rect", class_=cls, data_square=square_name(sq), **box, fill=fill, **attrs)


def highlight(sq: Square, role: str) -> ET.Element:
    return square_rect(sq, f"hl {role}", HIGHLIGHT, fill_opacity=0.55)


def arrow(move: Move) -> ET.Element:
    """An arrow from the centre of the move's first square to near that of its second."""
    x0, y0 = (v + S / 2 for v in square_corner(move.from_square))
    x1, y1 = (v + S / 2 for v in square_corner(move.to_square))
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tipx, tipy = x1 - ux * S * 0.15, y1 - uy * S * 0.15
    basex, basey = tipx - ux * 26, tipy - uy * 26
    head = [(tipx, tipy), (basex - uy * 14, basey + ux * 14), (basex + uy * 14, basey - ux * 14)]
    ends = {"data_from": square_name(move.from_square), "data_to": square_name(move.to_square)}
    g = el("g", class_="arrow", **ends, fill=ARROW, stroke=ARROW, opacity=0.75)
    sub(g, "line", x1=x0, y1=y0, x2=basex, y2=basey, stroke_width=10, stroke_linecap="round")
    sub(g, "polygon", points=" ".join(f"{num(px)},{num(py)}" for px, py in head), stroke="none")
    return g


def _hint_marks(h: Hint, arrow_move: Move | None) -> tuple[ET.Element, ET.Element]:
    """The frame around a hinted knight's square and its distance badge: in the top-right
    corner or, on the square ``arrow_move``'s arrow points at, the corner its head leaves
    clear (the side it travels to)."""
    sq = h.move.from_square
    x, y = square_corner(sq)
    colour = OPTIMAL if h.optimal else OTHER
    opt = " optimal" if h.optimal else ""
    frame = square_rect(
        sq, "hint-sq" + opt, "none", 3, stroke=colour, stroke_width=6 if h.optimal else 3
    )
    label = "none" if h.distance is None else str(h.distance)
    cx, cy = x + 74, y + 24
    if arrow_move is not None and arrow_move.to_square == sq:
        (r0, c0), (r1, c1) = divmod(arrow_move.from_square, SIZE), divmod(sq, SIZE)
        cx, cy = x + (74 if c1 > c0 else 26), y + (76 if r1 > r0 else 24)
    badge = el("g", class_="hint" + opt, data_square=square_name(sq), data_distance=label)
    sub(badge, "circle", cx=cx, cy=cy, r=21, fill=colour, stroke="#ffffff", stroke_width=3)
    shown = "\u221e" if h.distance is None else label  # ∞: never reaches the target
    bold = {"font_size": 26 if len(label) < 3 else 18, "font_weight": "bold", "fill": "#ffffff"}
    sub(badge, "text", shown, x=cx, y=cy + 9, text_anchor="middle", **bold)
    return frame, badge


def board_group(
    board: Board,
    defs: Defs,
    ox: float = 0,
    oy: float = 0,
    *,
    move: Move | None = None,
    hints: Sequence[Hint] = (),
    coordinates: bool = True,
    names: bool = False,
    placed: bool = False,
    **attrs: str,
) -> ET.Element:
    """``board`` as a ``<g class="board">`` with its top-left corner at ``(ox, oy)``, its
    definitions added to ``defs``; ``placed`` draws each piece as one short ``<use>`` of a
    piece defined on its square, for pictures of many boards."""
    place = f"translate({num(ox)},{num(oy)})" if (ox, oy) != (0, 0) else None
    g = el("g", class_="board", data_board=board.compact, **attrs, transform=place)
    sub(g, "use", href=defs.use("bk-grid" if coordinates else "bk-grid-bare"))
    if move is not None:
        g.append(highlight(move.from_square, "from"))
        g.append(highlight(move.to_square, "to"))
    marks = [_hint_marks(h, move) for h in hints]
    g.extend(frame for frame, _ in marks)
    for sq in range(NUM_SQUARES):  # placed: a short <use> of a piece defined on its square
        ident = f"bk-{_PIECE[board.cell(sq)][0]}-{square_name(sq)}"
        g.append(el("use", href=defs.use(ident)) if placed else piece(board.cell(sq), sq, defs))
    if names:  # every square's name in its top-left corner, haloed in the square's colour
        ns = sub(g, "g", class_="names", font_size=18, font_weight="bold", fill=INK,
                 stroke_width=5, paint_order="stroke")  # fmt: skip
        for sq, name in enumerate(map(square_name, range(NUM_SQUARES))):
            x, y = square_corner(sq)
            halo = DARK if square_color(sq) else LIGHT
            sub(ns, "text", name, class_="name", data_square=name, x=x + 5, y=y + 19, stroke=halo)
    if move is not None:
        g.append(arrow(move))
    g.extend(badge for _, badge in marks)
    return g


# -- public pictures ------------------------------------------------------------------------


def board_root(board: Board, size: float = 300, **options: Any) -> ET.Element:
    """The ``<svg>`` element of :func:`board_svg` (``options``: its ``move``, ``hints``,
    ``coordinates`` and ``names``); a move must be a knight's jump and each hint a legal
    move of ``board`` (else :class:`BoardError`)."""
    move = options.get("move")
    if move is not None:
        if not isinstance(move, Move):
            raise TypeError(f"move must be a Move, not {type(move).__name__}")
        if move.from_square not in KNIGHT_TARGETS[move.to_square]:  # a Move's squares exist
            raise BoardError(f"not a knight's move: {move!r}")
    options["hints"] = list(options.get("hints", ()))
    for h in options["hints"]:
        board.play(h.move)  # raises BoardError unless a knight's jump into the blank
    title = board.compact + ("" if move is None else f" ({move})")
    root = svg_root("bitknights-board", size, BOARD_UNITS, BOARD_UNITS, title)
    defs = Defs()
    root.append(board_group(board, defs, **options))  # adds what it uses to defs
    return with_defs(root, defs)


def with_defs(root: ET.Element, defs: Defs) -> ET.Element:
    """``root`` with the ``<defs>`` its pictures use, after its title if any."""
    root.insert(1 if len(root) and root[0].tag == "title" else 0, defs.element())
    return root


def board_svg(
    board: Board,
    *,
    move: Move | None = None,
    hints: Iterable[Hint] = (),
    size: float = 300,
    coordinates: bool = True,
    names: bool = False,
) -> SvgPicture:
    """``board`` as a standalone SVG document ``size`` pixels square.

    ``move`` highlights its two squares and draws an arrow from the first to the second;
    it is only drawn, not played, so it may be the move that *made* ``board`` (the knight
    then stands on its second square) or one about to be made.  ``hints`` (see
    :func:`hints_svg`) marks each knight that may move with the distance its move leads
    to.  ``coordinates`` labels the files and ranks on the edges, ``names`` writes every
    square's name in its corner; both come from :func:`~bitknights.squares.square_name`.

    >>> svg = board_svg(Board("10110/01*11/10111/01001/00000"), size=200)
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"')
    True
    >>> svg.count('class="knight black"'), svg.count('<path ')  # one outline for all
    (12, 1)
    """
    root = board_root(board, size, move=move, hints=hints, coordinates=coordinates, names=names)
    return SvgPicture(markup(root))


def board_html(
    board: Board, *, move: Move | None = None, hints: Iterable[Hint] = (), size: float = 300
) -> HtmlPicture:
    """``board`` as an HTML fragment: its SVG picture above its rows as text.

    >>> board_html(Board("11111/01111/00*11/00001/00000")).count("<svg")
    1
    """
    div = el("div", class_="bitknights-board", style="display:inline-block;text-align:center")
    div.append(board_root(board, size, move=move, hints=hints))
    sub(div, "div", " / ".join(board.rows()), style="font-family:monospace")
    return HtmlPicture(markup(div))


def hints_svg(board: Board, hints: Iterable[Hint], *, size: float = 300) -> SvgPicture:
    """``board`` with every hinted move marked: each knight that may jump into the blank
    carries a badge with the distance its move leads to (``∞``: never reaches the
    target); optimal moves are green and framed, the others grey.

    ``hints`` come as data: ``bitknights.table.hints(board)``, or :class:`Hint` records.

    >>> b = Board("11111/01111/00*11/00001/00000")
    >>> hints_svg(b, [Hint(m, c, 1, False) for m, c in b.children()]).count('class="hint"')
    8
    """
    return board_svg(board, hints=hints, size=size)


def hints_html(board: Board, hints: Iterable[Hint], *, size: float = 300) -> HtmlPicture:
    """:func:`hints_svg` with a table of the moves underneath (optimal ones in bold)."""
    hs = list(hints)
    div = el("div", class_="bitknights-hints", style="display:inline-block")
    div.append(board_root(board, size, hints=hs))
    table = sub(div, "table")
    head = sub(table, "tr")
    for title in ("move", "distance"):
        sub(head, "th", title)
    for h in sorted(hs, key=lambda h: (h.distance is None, h.distance or 0, h.move)):
        row = sub(table, "tr")
        move = sub(row, "td", None if h.optimal else str(h.move))
        if h.optimal:
            sub(move, "b", str(h.move))
        sub(row, "td", "never" if h.distance is None and not h.optimal else str(h.distance))
        if h.optimal:
            sub(row, "td", "optimal")
    return HtmlPicture(markup(div))
