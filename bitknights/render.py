"""Pictures for notebooks: SVG and HTML of boards, solutions, hints and distance counts.

Everything returned is self-contained markup: no script, and nothing fetched (no fonts,
images or style sheets; text uses the viewer's own ``sans-serif``).  The knights are inline
SVG paths, ivory with a dark outline for white (``0``) and near-black for black (``1``); the
blank square is drawn dashed.  Files are labelled ``a``..``e`` left to right and ranks
``5``..``1`` top to bottom, the square names of :mod:`bitknights.squares` (``a5`` is the
top-left corner, the first input character).

Every square is a ``<rect class="sq ..." data-square="c3">``, every knight a
``<g class="knight white|black" data-square="...">`` and the blank a
``<g class="blank" data-square="...">``, so a picture can be checked (or styled) by machine:

>>> from bitknights import TARGET
>>> svg = board_svg(TARGET, move="b5-c3")
>>> svg.count('class="sq '), svg.count('class="knight '), svg.count('class="blank"')
(25, 24, 1)

This module imports only the standard library and bitknights' pure-Python modules (no
numba, and matplotlib only inside :func:`distribution_plot`); :class:`~bitknights.Board` and
:class:`~bitknights.Solution` import it when a notebook first asks for a picture.
"""

from __future__ import annotations

import functools
import io
import math
import operator
from collections.abc import Iterable, Mapping, Sequence
from html import escape
from typing import TYPE_CHECKING, Any, NamedTuple

from .board import Board, Move
from .errors import BoardError
from .squares import NUM_SQUARES, SIZE, parse_square, square_color, square_name

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .solution import Solution

__all__ = [
    "Hint",
    "TableUnavailableError",
    "board_html",
    "board_svg",
    "distribution_plot",
    "distribution_text",
    "hints_html",
    "hints_svg",
    "solution_animation_svg",
    "solution_html",
    "solution_svg",
]

SVG_NS = "http://www.w3.org/2000/svg"

# Geometry in viewBox units: a square is S wide, the coordinate labels take M on the top
# and left, and P pads the right and bottom edges.  ``size`` arguments scale the whole.
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

_KNIGHT_PATH = (
    "M24 88L76 88L75 79L69 77C66 64 71 51 77 41C83 30 79 18 64 13L60 5L54 12L47 7L45 16"
    "C35 21 27 30 22 42C19 49 21 56 28 57C34 58 39 53 46 50C48 58 41 67 33 77L26 79Z"
)
_KNIGHT_STYLE = {
    # colour name: (body fill, outline, eye)
    "white": ("#fffff0", INK, INK),
    "black": ("#262626", "#000000", "#f0f0f0"),
}
_FONT = 'font-family="sans-serif"'


class TableUnavailableError(RuntimeError):
    """Hints were asked for without records and the distance table cannot supply them."""


class Hint(NamedTuple):
    """One legal move of a board, the board it makes, that board's distance to the
    target, and whether the move is optimal (one step closer)."""

    move: Move
    board: Board | None
    distance: int | None  # None: the board never reaches the target
    optimal: bool


# -- small helpers --------------------------------------------------------------------------


def _num(x: float) -> str:
    """A coordinate as short text: integers without a fraction, else two decimals."""
    return str(int(x)) if float(x).is_integer() else f"{x:.2f}".rstrip("0")


def _square_xy(sq: int, ox: float = 0, oy: float = 0) -> tuple[float, float]:
    """Top-left corner of square ``sq`` in a board drawn with its corner at ``(ox, oy)``."""
    r, c = divmod(sq, SIZE)
    return ox + M + c * S, oy + M + r * S


def _as_move(board: Board, move: Move | tuple[int, int] | str | int) -> Move:
    """``move`` as a :class:`Move`: a :class:`Move` or ``(from, to)`` squares, ``'b5-c3'``
    text, or the square (index or name) of a knight that may jump into ``board``'s blank."""
    if isinstance(move, str) and "-" in move:
        frm, to = move.split("-", 1)
        try:
            return Move(parse_square(frm), parse_square(to))
        except ValueError as e:
            raise BoardError(str(e)) from None
    if isinstance(move, str) or not isinstance(move, tuple):
        child = board.play(move if isinstance(move, str) else operator.index(move))
        return Move(child.blank, board.blank)
    frm, to = (operator.index(x) for x in move)
    if not (0 <= frm < NUM_SQUARES and 0 <= to < NUM_SQUARES) or frm == to:
        raise BoardError(f"not a move: {move!r}")
    return Move(frm, to)


def _caption(x: float, y: float, text: str, size: int, attrs: str = "", extra: str = "") -> str:
    """A ``<text class="caption">``; ``text`` must already be escaped."""
    return (
        f'<text class="caption"{attrs} x="{_num(x)}" y="{_num(y)}" font-size="{size}" {_FONT} '
        f'fill="{INK}">{text}{extra}</text>'
    )


def _svg_open(width: float, height: float, units_w: float, units_h: float, cls: str) -> str:
    return (
        f'<svg xmlns="{SVG_NS}" width="{_num(width)}" height="{_num(height)}" '
        f'viewBox="0 0 {_num(units_w)} {_num(units_h)}" class="{cls}" role="img">'
    )


# -- one board ------------------------------------------------------------------------------


def _knight(color: str, x: float, y: float, attrs: str = "", extra: str = "") -> str:
    """A knight of ``color`` (``'white'``/``'black'``) on the square with corner (x, y);
    ``attrs`` go into its ``<g>`` tag and ``extra`` (an animation) inside it."""
    fill, stroke, eye = _KNIGHT_STYLE[color]
    return (
        f'<g class="knight {color}"{attrs} data-color="{color}" '
        f'transform="translate({_num(x)},{_num(y)})">'
        f'<path d="{_KNIGHT_PATH}" fill="{fill}" stroke="{stroke}" stroke-width="3" '
        f'stroke-linejoin="round"/><circle cx="44" cy="28" r="3" fill="{eye}"/>{extra}</g>'
    )


def _blank(x: float, y: float, sq: int, extra: str = "") -> str:
    where = f' data-square="{square_name(sq)}"'
    return (
        f'<g class="blank"{where} transform="translate({_num(x)},{_num(y)})">'
        f'<rect x="12" y="12" width="76" height="76" rx="10" fill="#ffffff" '
        f'fill-opacity="0.35" stroke="{INK}" stroke-width="3" stroke-dasharray="8 6"/>'
        f'<circle cx="50" cy="50" r="5" fill="{INK}"/>{extra}</g>'
    )


def _arrow(frm: int, to: int, ox: float, oy: float, cls: str = "arrow", extra: str = "") -> str:
    """A line with a head from the centre of ``frm`` to near the centre of ``to``."""
    x0, y0 = _square_xy(frm, ox, oy)
    x1, y1 = _square_xy(to, ox, oy)
    x0, y0, x1, y1 = x0 + S / 2, y0 + S / 2, x1 + S / 2, y1 + S / 2
    length = math.hypot(x1 - x0, y1 - y0)
    ux, uy = (x1 - x0) / length, (y1 - y0) / length
    tipx, tipy = x1 - ux * S * 0.15, y1 - uy * S * 0.15
    basex, basey = tipx - ux * 26, tipy - uy * 26
    head = [
        (tipx, tipy),
        (basex - uy * 14, basey + ux * 14),
        (basex + uy * 14, basey - ux * 14),
    ]
    pts = " ".join(f"{_num(round(px, 2))},{_num(round(py, 2))}" for px, py in head)
    return (
        f'<g class="{cls}" data-from="{square_name(frm)}" data-to="{square_name(to)}" '
        f'fill="{ARROW}" stroke="{ARROW}" opacity="0.75">'
        f'<line x1="{_num(round(x0, 2))}" y1="{_num(round(y0, 2))}" '
        f'x2="{_num(round(basex, 2))}" y2="{_num(round(basey, 2))}" stroke-width="10" '
        f'stroke-linecap="round"/><polygon points="{pts}" stroke="none"/>{extra}</g>'
    )


def _squares(ox: float, oy: float, coordinates: bool) -> list[str]:
    out = []
    for sq in range(NUM_SQUARES):
        x, y = _square_xy(sq, ox, oy)
        tone = "dark" if square_color(sq) else "light"
        out.append(
            f'<rect class="sq {tone}" data-square="{square_name(sq)}" x="{_num(x)}" '
            f'y="{_num(y)}" width="{S}" height="{S}" fill="{DARK if tone == "dark" else LIGHT}"/>'
        )
    if coordinates:
        for i in range(SIZE):
            cx = ox + M + i * S + S / 2
            file, rank = square_name(i)[0], square_name(i * SIZE)[1:]
            out.append(
                f'<text class="coord file" x="{_num(cx)}" y="{_num(oy + M - 10)}" '
                f'text-anchor="middle" font-size="28" {_FONT} fill="{INK}">{file}</text>'
            )
            cy = oy + M + i * S + S / 2 + 10
            out.append(
                f'<text class="coord rank" x="{_num(ox + M / 2)}" y="{_num(cy)}" '
                f'text-anchor="middle" font-size="28" {_FONT} fill="{INK}">{rank}</text>'
            )
    return out


def _highlight(sq: int, ox: float, oy: float, role: str, extra: str = "", opacity: str = "") -> str:
    x, y = _square_xy(sq, ox, oy)
    op = f' opacity="{opacity}"' if opacity else ""
    return (
        f'<rect class="hl {role}" data-square="{square_name(sq)}" x="{_num(x)}" y="{_num(y)}" '
        f'width="{S}" height="{S}" fill="{HIGHLIGHT}" fill-opacity="0.55"{op}>{extra}</rect>'
    )


def _board_group(
    board: Board,
    ox: float = 0,
    oy: float = 0,
    *,
    move: Move | None = None,
    hints: Sequence[Hint] = (),
    coordinates: bool = True,
    attrs: str = "",
) -> str:
    """One board as an SVG ``<g class="board">`` with its top-left corner at ``(ox, oy)``."""
    parts = [f'<g class="board" data-board="{board.compact}"{attrs}>']
    parts += _squares(ox, oy, coordinates)
    if move is not None:
        parts.append(_highlight(move.from_square, ox, oy, "from"))
        parts.append(_highlight(move.to_square, ox, oy, "to"))
    for h in hints:
        x, y = _square_xy(h.move.from_square, ox, oy)
        colour = OPTIMAL if h.optimal else OTHER
        parts.append(
            f'<rect class="hint-sq{" optimal" if h.optimal else ""}" '
            f'data-square="{square_name(h.move.from_square)}" x="{_num(x + 3)}" '
            f'y="{_num(y + 3)}" width="{S - 6}" height="{S - 6}" fill="none" stroke="{colour}" '
            f'stroke-width="{6 if h.optimal else 3}"/>'
        )
    for sq in range(NUM_SQUARES):
        x, y = _square_xy(sq, ox, oy)
        cell = board.cell(sq)
        if cell == "*":
            parts.append(_blank(x, y, sq))
        else:
            colour = "black" if cell == "1" else "white"
            parts.append(_knight(colour, x, y, f' data-square="{square_name(sq)}"'))
    if move is not None:
        parts.append(_arrow(move.from_square, move.to_square, ox, oy))
    for h in hints:
        x, y = _square_xy(h.move.from_square, ox, oy)
        colour = OPTIMAL if h.optimal else OTHER
        label = "none" if h.distance is None else str(h.distance)
        text = "\u221e" if h.distance is None else label  # ∞: never reaches the target
        parts.append(
            f'<g class="hint{" optimal" if h.optimal else ""}" '
            f'data-square="{square_name(h.move.from_square)}" data-distance="{label}">'
            f'<circle cx="{_num(x + 74)}" cy="{_num(y + 24)}" r="21" fill="{colour}" '
            f'stroke="#ffffff" stroke-width="3"/><text x="{_num(x + 74)}" y="{_num(y + 33)}" '
            f'text-anchor="middle" font-size="{26 if len(label) < 3 else 18}" '
            f'font-weight="bold" {_FONT} fill="#ffffff">{text}</text></g>'
        )
    parts.append("</g>")
    return "".join(parts)


def board_svg(
    board: Board,
    *,
    move: Move | tuple[int, int] | str | None = None,
    hints: Iterable[Any] | None = None,
    size: int = 300,
    coordinates: bool = True,
) -> str:
    """``board`` as a standalone SVG document ``size`` pixels square.

    ``move`` (a :class:`Move`, ``(from, to)`` squares, ``'b5-c3'`` text or the square of
    the knight that jumps) highlights its two squares and draws an arrow from the first to
    the second; the move is only drawn, not played, so it may be the move that *made*
    ``board`` (the knight then stands on ``to``) or one about to be made.  ``hints`` (see
    :func:`hints_svg`) marks each knight that may move with the distance its move leads to.

    >>> svg = board_svg(Board("10110/01*11/10111/01001/00000"), size=200)
    >>> svg.startswith('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200"')
    True
    >>> 'data-square="c4"' in svg and svg.count('class="knight black"') == 12
    True
    """
    mv = None if move is None else _as_move(board, move)
    hs = [] if hints is None else _normalize_hints(board, hints)
    title = f"<title>{board.compact}{'' if mv is None else f' ({mv})'}</title>"
    return (
        _svg_open(size, size, BOARD_UNITS, BOARD_UNITS, "bitknights-board")
        + title
        + _board_group(board, move=mv, hints=hs, coordinates=coordinates)
        + "</svg>"
    )


def board_html(board: Board, *, move: Any = None, hints: Any = None, size: int = 300) -> str:
    """``board`` as an HTML fragment: its SVG picture above its compact text.

    >>> board_html(Board("11111/01111/00*11/00001/00000")).count("<svg")
    1
    """
    svg = board_svg(board, move=move, hints=hints, size=size)
    caption = " / ".join(board.rows())
    return (
        f'<div class="bitknights-board" style="display:inline-block;text-align:center">'
        f'{svg}<div style="font-family:monospace">{escape(caption)}</div></div>'
    )


# -- hints ----------------------------------------------------------------------------------


def _normalize_hints(board: Board, hints: Iterable[Any]) -> list[Hint]:
    """Hint records as :class:`Hint`: tuples ``(move, board, distance, optimal)``, objects
    with those attributes, or mappings with those keys; each move legal on ``board``."""
    out = []
    for h in hints:
        if isinstance(h, Mapping):
            move, child, dist, opt = h["move"], h.get("board"), h["distance"], h.get("optimal")
        elif hasattr(h, "move") and hasattr(h, "distance"):
            move, child, dist = h.move, getattr(h, "board", None), h.distance
            opt = getattr(h, "optimal", None)
        else:
            move, child, dist, opt = h
        mv = _as_move(board, move)
        if mv.to_square != board.blank or board.cell(mv.from_square) == "*":
            raise BoardError(
                f"hint {mv} is not a legal move: the blank is on {square_name(board.blank)}"
            )
        board.play(mv)  # raises unless a knight's jump
        if isinstance(child, str):
            child = Board(child)
        out.append(Hint(mv, child, None if dist is None else int(dist), bool(opt)))
    return out


def _table_hints(board: Board) -> list[Any]:
    try:
        from . import table
    except ModuleNotFoundError as e:
        if e.name in (f"{__package__}.table", __package__):
            raise TableUnavailableError(
                "hints need the distance table module (bitknights.table), which this "
                "installation lacks; pass the hint records explicitly"
            ) from None
        raise
    fn = getattr(table, "hints", None)
    if fn is None:
        raise TableUnavailableError("bitknights.table has no hints(board) function")
    return list(fn(board))


def hints_svg(board: Board, hints: Iterable[Any] | None = None, *, size: int = 300) -> str:
    """``board`` with every legal move marked: each knight that may jump into the blank
    carries a badge with the distance the move leads to; optimal moves are green and
    framed, the others grey.

    ``hints`` are ``(move, resulting board, distance, optimal)`` records (tuples, objects
    with those attributes, or mappings; a distance of ``None`` means the board never
    reaches the target).  Without them the distance table of the classic target supplies
    them (``bitknights.table.hints(board)``): :class:`TableUnavailableError` when this
    installation has no table module, and the table's own ``TableError`` when its file
    has not been built.

    >>> b = Board("11111/01111/00*11/00001/00000")
    >>> recs = [(m, child, 1, False) for m, child in b.children()]
    >>> hints_svg(b, recs).count('class="hint"')
    8
    """
    hs = _table_hints(board) if hints is None else hints
    return board_svg(board, hints=hs, size=size)


def hints_html(board: Board, hints: Iterable[Any] | None = None, *, size: int = 300) -> str:
    """:func:`hints_svg` with a table of the moves underneath (optimal ones in bold)."""
    hs = _normalize_hints(board, _table_hints(board) if hints is None else hints)
    rows = "".join(
        f"<tr><td>{'<b>' if h.optimal else ''}{h.move}{'</b>' if h.optimal else ''}</td>"
        f"<td>{'never' if h.distance is None else h.distance}</td>"
        f"<td>{'optimal' if h.optimal else ''}</td></tr>"
        for h in sorted(hs, key=lambda h: (h.distance is None, h.distance or 0, h.move))
    )
    return (
        f'<div class="bitknights-hints" style="display:inline-block">'
        f"{board_svg(board, hints=hs, size=size)}"
        f"<table><tr><th>move</th><th>distance</th><th></th></tr>{rows}</table></div>"
    )


# -- solutions ------------------------------------------------------------------------------


def _path(solution: Solution | Sequence[Board]) -> tuple[list[Board], list[Move]]:
    boards = list(getattr(solution, "boards", solution))
    for a, b in zip(boards, boards[1:]):
        if a.play(b.blank) != b:  # raises BoardError when not even a knight's jump
            raise BoardError(f"not a path: {b.compact} does not follow {a.compact}")
    return boards, [Move(b.blank, a.blank) for a, b in zip(boards, boards[1:])]


def _unsolved_text(solution: Any) -> str:
    status = str(getattr(solution, "status", "unsolved")).replace("_", " ")
    limit = getattr(solution, "max_depth", None)
    within = f" within {limit} moves" if limit is not None and status == "over limit" else ""
    return f"no solution{within} ({status})"


def solution_svg(
    solution: Solution | Sequence[Board], *, per_row: int = 5, board_size: int = 160
) -> str:
    """Every board along the solution's path, ``per_row`` to a row, each headed by the move
    that made it (``start`` for the first) and with that move highlighted.

    Each board is a ``<g class="board" data-step="k" data-board="...">``; ``solution`` may
    also be the list of boards itself.  An unsolved result shows its start board and why.
    """
    if getattr(solution, "steps", 0) is None:
        start = solution.start  # type: ignore[union-attr]
        cap = escape(_unsolved_text(solution))
        h = BOARD_UNITS + 70
        return (
            _svg_open(
                board_size, board_size * h / BOARD_UNITS, BOARD_UNITS, h, "bitknights-solution"
            )
            + _caption(M, 50, cap, 34)
            + _board_group(start, 0, 70, attrs=' data-step="0"')
            + "</svg>"
        )
    boards, moves = _path(solution)
    per_row = max(1, min(per_row, len(boards)))
    cap_h, gap = 70, 30
    cell_w, cell_h = BOARD_UNITS + gap, cap_h + BOARD_UNITS + gap
    nrows = -(-len(boards) // per_row)
    units_w, units_h = per_row * cell_w - gap, nrows * cell_h - gap
    scale = board_size / BOARD_UNITS
    parts = [_svg_open(units_w * scale, units_h * scale, units_w, units_h, "bitknights-solution")]
    parts.append(f"<title>{len(moves)} moves: {' '.join(str(m) for m in moves)}</title>")
    for k, b in enumerate(boards):
        ox, oy = (k % per_row) * cell_w, (k // per_row) * cell_h
        head = "start" if k == 0 else f"{k}. {moves[k - 1]}"
        parts.append(_caption(ox + M, oy + 50, head, 40))
        parts.append(
            _board_group(
                b,
                ox,
                oy + cap_h,
                move=moves[k - 1] if k else None,
                attrs=f' data-step="{k}"',
            )
        )
    parts.append("</svg>")
    return "".join(parts)


def solution_animation_svg(
    solution: Solution | Sequence[Board],
    *,
    size: int = 240,
    seconds_per_move: float = 1.0,
) -> str:
    """A compact animated picture of the solution: the knights jump one move per
    ``seconds_per_move``, the move's squares lit, a caption counting moves; it pauses on
    the start and end boards and loops.

    Pure SVG animation (SMIL ``<animate>``/``<animateTransform>``), no script; viewers
    without animation show the start board.  Each moving knight carries an
    ``<animateTransform>`` whose ``values`` list the knight's positions over time.
    """
    boards, moves = _path(solution) if getattr(solution, "steps", 0) is not None else ([], [])
    if not boards:
        start = solution.start  # type: ignore[union-attr]
        boards, moves = [start], []
    n = len(moves)
    cap_h = 60
    units_h = BOARD_UNITS + cap_h
    hold_start, hold_end, travel = 1.0, 2.0, 0.45
    step = float(seconds_per_move)
    if not step > 0:
        raise ValueError(f"seconds_per_move must be positive, got {seconds_per_move!r}")
    dur = (hold_start + hold_end + n) * step
    starts = [(hold_start + i) * step for i in range(n)]  # when move i+1 begins

    def frac(t: float) -> str:
        return f"{min(1.0, t / dur):.6f}".rstrip("0").rstrip(".") or "0"

    def timed(attr: str, values: list[str], times: list[float], mode: str = "discrete") -> str:
        return (
            f'<animate attributeName="{attr}" values="{";".join(values)}" '
            f'keyTimes="{";".join(frac(t) for t in times)}" calcMode="{mode}" '
            f'dur="{_num(round(dur, 3))}s" repeatCount="indefinite"/>'
        )

    def moving(positions: list[str], times: list[float], mode: str) -> str:
        return (
            f'<animateTransform attributeName="transform" type="translate" '
            f'values="{";".join(positions)}" keyTimes="{";".join(frac(t) for t in times)}" '
            f'calcMode="{mode}" dur="{_num(round(dur, 3))}s" repeatCount="indefinite"/>'
        )

    oy = cap_h
    parts = [
        _svg_open(size, size * units_h / BOARD_UNITS, BOARD_UNITS, units_h, "bitknights-animation")
    ]
    parts.append(f"<title>{n} moves: {' '.join(str(m) for m in moves)}</title>")
    parts.append(f'<g class="board" data-board="{boards[0].compact}">')
    parts += _squares(0, oy, True)
    # the move being made lights its two squares for the length of its step
    for i, m in enumerate(moves):
        on = [0.0, starts[i], starts[i] + step]
        anim = timed("opacity", ["0", "1", "0"], on)
        parts.append(
            f'<g class="hl-step" data-step="{i + 1}" opacity="0">'
            + _highlight(m.from_square, 0, oy, "from")
            + _highlight(m.to_square, 0, oy, "to")
            + anim
            + "</g>"
        )
    # the blank moves to the square a knight left the moment the knight lands
    blank_pos = [boards[0].blank] + [m.from_square for m in moves]
    landed = [t + travel * step for t in starts]

    def xy(sq: int) -> str:
        x, y = _square_xy(sq, 0, oy)
        return f"{_num(x)},{_num(y)}"

    bx, by = _square_xy(blank_pos[0], 0, oy)
    extra = moving([xy(s) for s in blank_pos], [0.0, *landed], "discrete") if n else ""
    parts.append(_blank(bx, by, blank_pos[0], extra))
    # each knight keeps its identity; track which knight stands where
    where = {sq: sq for sq in range(NUM_SQUARES) if sq != boards[0].blank}  # square -> knight
    track: dict[int, list[tuple[float, int]]] = {k: [(0.0, k)] for k in where.values()}
    for i, m in enumerate(moves):
        k = where.pop(m.from_square)
        where[m.to_square] = k
        track[k] += [(starts[i], m.from_square), (starts[i] + travel * step, m.to_square)]
    for k, keys in sorted(track.items()):
        colour = "black" if boards[0].cell(k) == "1" else "white"
        x, y = _square_xy(k, 0, oy)
        extra = ""
        if len(keys) > 1:
            keys = [*keys, (dur, keys[-1][1])]
            extra = moving([xy(sq) for _, sq in keys], [t for t, _ in keys], "linear")
        final = next(sq for sq, kk in where.items() if kk == k)
        start, end = square_name(k), square_name(final)
        ends = f' data-square="{start}" data-start="{start}" data-end="{end}"'
        parts.append(_knight(colour, x, y, ends, extra))
    parts.append("</g>")
    # captions: "start", then "k/n from-to", one visible at a time
    caps = ["start"] + [f"{i + 1}/{n}  {m}" for i, m in enumerate(moves)]
    bounds = [0.0, *starts, dur]
    for i, cap in enumerate(caps):
        if n == 0:
            anim, init = "", "1"
        elif i == 0:
            anim, init = timed("opacity", ["1", "0"], [0.0, bounds[1]]), "1"
        elif i < n:
            anim, init = timed("opacity", ["0", "1", "0"], [0.0, bounds[i], bounds[i + 1]]), "0"
        else:
            anim, init = timed("opacity", ["0", "1"], [0.0, bounds[i]]), "0"
        attrs = f' data-step="{i}" opacity="{init}"'
        parts.append(_caption(M, 44, escape(cap), 36, attrs, anim))
    parts.append("</svg>")
    return "".join(parts)


def solution_html(
    solution: Solution | Sequence[Board], *, per_row: int = 5, board_size: int = 160
) -> str:
    """The notebook view of a solution: a line with the move count and the move list,
    the animated compact view, then every board along the path (:func:`solution_svg`).
    Well-formed XHTML."""
    if getattr(solution, "steps", 0) is None:
        head = escape(_unsolved_text(solution))
        return (
            f'<div class="bitknights-solution"><p>{head}</p>'
            f"{board_svg(solution.start, size=board_size)}</div>"  # type: ignore[union-attr]
        )
    boards, moves = _path(solution)
    meta = []
    for attr, fmt in (("engine", "engine {}"), ("nodes", "{:,} nodes"), ("seconds", "{:.3g} s")):
        value = getattr(solution, attr, None)
        if value:
            meta.append(fmt.format(value))
    head = (
        f"<b>{len(moves)} move{'' if len(moves) == 1 else 's'}</b>"
        + (f" ({escape(', '.join(meta))})" if meta else "")
        + f": <code>{' '.join(str(m) for m in moves) or 'none'}</code>"
    )
    return (
        f'<div class="bitknights-solution"><p>{head}</p>'
        f'<div style="display:flex;flex-wrap:wrap;gap:12px;align-items:flex-start">'
        f"{solution_animation_svg(boards, size=max(board_size, 220))}"
        f"{solution_svg(boards, per_row=per_row, board_size=board_size)}</div></div>"
    )


# -- distance distribution ------------------------------------------------------------------


def _layer_counts(layers: Any) -> list[int]:
    """Counts at distance 0, 1, 2, ... from a list, a ``{distance: count}`` mapping, a
    stats object with ``.layers`` or a stats mapping with a ``"layers"`` key."""
    if isinstance(layers, Mapping) and "layers" in layers:
        layers = layers["layers"]
    elif hasattr(layers, "layers"):
        layers = layers.layers
    if isinstance(layers, Mapping):
        top = max((int(d) for d in layers), default=-1)
        counts = [int(layers.get(d, 0)) for d in range(top + 1)]
    else:
        counts = [int(c) for c in layers]
    if any(c < 0 for c in counts):
        raise ValueError("layer counts must be non-negative")
    return counts


def distribution_text(layers: Any, *, width: int = 50, log: bool = False, bar: str = "#") -> str:
    """A text histogram of how many boards lie at each distance: one line per distance
    with its count and a bar (``log``: bar lengths on a log scale), then the total.

    >>> print(distribution_text([1, 8, 40], width=10))
    distance  boards
           0       1  #
           1       8  ##
           2      40  ##########
    total 49 boards, largest distance 2
    """
    counts = _layer_counts(layers)
    if not counts:
        return "no boards"
    top = max(counts)

    def length(c: int) -> int:
        if c <= 0 or top <= 0:
            return 0
        frac = math.log1p(c) / math.log1p(top) if log else c / top
        return max(1, round(width * frac))

    cw = max(6, len(f"{top:,}"))
    lines = [f"distance  {'boards'.rjust(cw)}"]
    for d, c in enumerate(counts):
        lines.append(f"{d:>8}  {c:>{cw},}  {bar * length(c)}".rstrip())
    far = max((d for d, c in enumerate(counts) if c), default=0)
    lines.append(f"total {sum(counts):,} boards, largest distance {far}")
    return "\n".join(lines)


@functools.cache
def _figure_class() -> type[Figure]:
    """A matplotlib ``Figure`` that shows itself in a notebook (as PNG) even when pyplot
    and its inline backend were never loaded; made on first use (imports matplotlib)."""
    from matplotlib.figure import Figure

    class NotebookFigure(Figure):
        def _repr_png_(self) -> bytes:
            buf = io.BytesIO()
            self.savefig(buf, format="png", dpi=96)
            return buf.getvalue()

    return NotebookFigure


def distribution_plot(layers: Any, *, log: bool = True) -> Figure:
    """A bar chart (a matplotlib ``Figure``) of how many boards lie at each distance;
    ``log`` puts the counts on a log scale.  It displays itself in a notebook without
    pyplot.  Needs matplotlib (``pip install 'bitknights[plot]'``);
    :func:`distribution_text` draws the same without it."""
    try:
        import matplotlib.figure  # noqa: F401
    except ImportError:
        raise ImportError(
            "distribution_plot needs matplotlib: pip install 'bitknights[plot]' "
            "(distribution_text draws the same histogram as text)"
        ) from None
    counts = _layer_counts(layers)
    fig = _figure_class()(figsize=(7.5, 3.6), layout="constrained")
    ax = fig.add_subplot()
    colours = [LIGHT if d % 2 == 0 else DARK for d in range(len(counts))]
    ax.bar(range(len(counts)), counts, color=colours, edgecolor=INK, linewidth=0.6)
    if log:
        ax.set_yscale("log")
    ax.set_xlabel("distance to the target (moves)")
    ax.set_ylabel("boards")
    far = max((d for d, c in enumerate(counts) if c), default=0)
    ax.set_title(f"{sum(counts):,} boards, largest distance {far}")
    ax.set_xlim(-0.6, len(counts) - 0.4)
    return fig
