"""The play widget's Python side: traits refuse bad values, every request answered on the
message line (never raised), busy and done, stale clicks refused, the solve stopped where
the page shows, the end of a game, the static picture (the page: test_widget_browser.py)."""

from __future__ import annotations

import math

import pytest
import traitlets

from bitknights import TARGET, Board
from bitknights.squares import square_name
from bitknights.widget import OPS, PlayWidget, play, whole_number
from helpers import still_square

SAMPLE = Board("10110/01*11/10111/01001/00000")


class Recorder:
    """A widget with its messages to the page and its trait changes recorded."""

    def __init__(self, w: PlayWidget) -> None:
        self.w, self.sent, self.changes = w, [], []
        w.send = lambda content, buffers=None: self.sent.append(content)
        w.observe(lambda c: self.changes.append((c["name"], c["new"])), names=list(w.keys))

    def page(self, content) -> None:
        """``content`` as the page sends it: must never raise."""
        self.w._on_msg(self.w, content, [])


@pytest.fixture
def widget(monkeypatch, tmp_path):
    monkeypatch.setenv("BITKNIGHTS_CACHE_DIR", str(tmp_path))  # no table: exact search
    return Recorder(play(SAMPLE))


def state(w: PlayWidget) -> dict:
    return {k: v for k, v in w.get_state().items() if not k.startswith("_") and k != "message"}


def legal_square(board: Board) -> str:
    return square_name(board.moves()[0].from_square)


# -- traits -----------------------------------------------------------------------------------

READ_ONLY = ["start", "target", "distance", "optimum", "history", "redo_moves", "legal",
             "hints", "solved", "message", "busy", "source", "farthest", "svg", "fallback_id"]  # fmt: skip


@pytest.mark.parametrize("name", READ_ONLY)
def test_read_only_traits_refuse_a_value(widget, name):
    w = widget.w
    before = w.get_state()
    bad = {"distance": 99, "history": ["zz"], "target": "junk", "solved": True}.get(name, "x")
    with pytest.raises(traitlets.TraitError, match="read-only"):
        setattr(w, name, bad)
    assert w.get_state() == before
    assert w.game.board == SAMPLE and w.game.history == []


@pytest.mark.parametrize(
    "name, value",
    [("board", "junk"), ("board", "11111/01111/00*11/00001/0000"), ("board", 5),
     ("new_distance", 99), ("new_distance", -1), ("new_distance", True), ("new_distance", 2.5),
     ("new_distance", "5"), ("show_hints", "yes")],
)  # fmt: skip
def test_writable_traits_refuse_a_bad_value_and_change_nothing(widget, name, value):
    w = widget.w
    w.move(legal_square(SAMPLE))
    before = w.get_state()
    with pytest.raises(traitlets.TraitError):
        setattr(w, name, value)
    assert w.get_state() == before and len(w.game.history) == 1


def test_writable_traits_take_good_values(widget, ball8):
    w = widget.w
    w.new_distance = 24
    assert w.new_distance == 24 and w.farthest == 24  # without a table
    board = next(b for b, d in ball8.items() if d == 5)
    w.board = "/".join(board[i : i + 5] for i in range(0, 25, 5))  # rows are fine too
    assert w.board == board and w.game.start == Board(board) and w.history == []
    assert w.distance == 5
    w.show_hints = True
    jumps = {square_name(m.from_square) for m in Board(board).moves()}
    assert {h["square"] for h in w.hints} == jumps
    for h in w.hints:
        child = Board(board).play(h["move"])
        assert h["distance"] == ball8[child.compact] and h["optimal"] == (h["distance"] == 4)


def test_the_page_may_set_only_what_it_may(widget):
    w = widget.w
    sent = []
    w.send_state = lambda key=None: sent.append(key)
    before = state(w)
    w.set_state({"history": ["zz"], "distance": 99, "board": TARGET.compact})
    assert state(w) == before
    assert w.message == "the page may not change history, distance, board"
    assert ["history", "distance", "board"] in sent  # the page is set right
    w.set_state({"new_distance": 1e300})
    assert w.new_distance == 8 and "whole number from 0 to 24" in w.message
    assert "1e+300" in w.message and len(w.message) < 200
    w.set_state(["not", "a", "dict"])
    assert "not a dict" in w.message
    w.set_state({"show_hints": True, "new_distance": 12})
    assert w.show_hints and w.new_distance == 12


# -- requests from the page -----------------------------------------------------------------

BAD_REQUESTS = [
    ({"op": "new", "distance": math.inf}, "whole number from 0 to 24, got inf"),
    ({"op": "new", "distance": None}, "whole number from 0 to 24, got None"),
    ({"op": "new", "distance": [1]}, "got [1]"),
    ({"op": "new", "distance": 1e300}, "got 1e+300"),
    ({"op": "new", "distance": 99}, "got 99"),
    ({"op": "new", "distance": -1}, "got -1"),
    ({"op": "new", "distance": "2.5"}, "got '2.5'"),
    ({"op": "new", "distance": ""}, "type a distance first"),
    ({"op": "new", "distance": "9" * 400}, "whole number from 0 to 24"),
    ({"op": "new", "distance": True}, "got True"),
    ({"op": "move"}, "a move names a knight's square, got None"),
    ({"op": "move", "square": 3}, "got 3"),
    ({"op": "move", "square": "z9"}, "z9"),
    ({"op": "move", "square": "c4"}, "c4 is the blank"),
    ({"op": "hints", "show": "yes"}, "true or false"),
    ({"op": "undo"}, "nothing to undo"),
    ({"op": "redo"}, "nothing to redo"),
    ({"op": "fly"}, "unknown request 'fly'"),
    ({"op": None}, "unknown request None"),
    ({"op": ["move"]}, "unknown request ['move']"),
    ({}, "unknown request None"),
    ([1], "a request from the page is a dict, got [1]"),
    ("move", "got 'move'"),
    (None, "got None"),
    (17, "got 17"),
    ({"op": "move", "square": "a5", "board": 12}, "the board shown is text"),
    ({"op": "move", "square": "a5", "board": TARGET.compact}, "the board changed"),
]


@pytest.mark.parametrize("content, says", BAD_REQUESTS, ids=lambda v: repr(v)[:30])
def test_every_bad_request_is_answered_on_the_message_line(widget, content, says):
    w = widget.w
    before = state(w)
    widget.page(content)  # never raises
    assert says in w.message and "`" not in w.message.replace("`bitknights table build`", "")
    assert len(w.message) < 200
    assert state(w) == before and w.game.board == SAMPLE and w.game.history == []
    assert w.busy == ""
    # with an id, the page hears that its request is over
    if isinstance(content, dict):
        widget.page({**content, "id": 41})
        assert widget.sent[-1] == {"type": "done", "id": 41}


def test_every_operation_the_page_sends(widget, ball8):
    w = widget.w
    here = ball8[SAMPLE.compact]
    best = next(m for m, c in SAMPLE.children() if ball8.get(c.compact) == here - 1)
    widget.page({"op": "move", "square": square_name(best.from_square), "id": 1,
                 "board": SAMPLE.compact})  # fmt: skip
    assert w.history == [str(best)] and w.distance == here - 1 and w.message == ""
    widget.page({"op": "undo", "id": 2, "board": w.board})
    assert w.history == [] and w.redo_moves == [str(best)]
    widget.page({"op": "redo", "id": 3, "board": w.board})
    assert w.history == [str(best)]
    widget.page({"op": "hints", "show": True, "id": 4, "board": w.board})
    assert w.show_hints and len(w.hints) == len(SAMPLE.play(best).moves())
    widget.page({"op": "reset", "id": 5, "board": w.board})
    assert w.board == SAMPLE.compact and w.history == [] and w.redo_moves == []
    widget.page({"op": "new", "distance": "6", "id": 6, "board": w.board})
    assert w.distance == 6 == ball8[w.board] and w.new_distance == 6
    assert w.start == w.board and w.history == []
    dones = [m["id"] for m in widget.sent if m.get("type") == "done"]
    assert dones == [1, 2, 3, 4, 5, 6]
    assert set(OPS) == {"move", "undo", "redo", "hints", "solve", "stop", "new", "reset"}


def test_whole_number():
    assert whole_number(" 7 ", 0, 24, "d") == 7 and whole_number(24.0, 0, 24, "d") == 24
    for bad in ("7.0", "seven", "-1", "1e3", 25, 2.5, math.nan, True, None, b"7", "\u0667"):
        with pytest.raises(ValueError):
            whole_number(bad, 0, 24, "d")


# -- waiting: busy, answers, stale clicks ----------------------------------------------------


def test_a_request_says_it_is_busy_until_it_is_answered(widget, ball8):
    """While a request runs, ``busy`` says what it does; cleared, and the page answered,
    when the request ends, refused or not."""
    w = widget.w
    widget.page({"op": "new", "distance": 7, "id": 9, "board": w.board})
    names = [name for name, _ in widget.changes]
    busy = [v for name, v in widget.changes if name == "busy"]
    assert busy == ["dealing a board 7 moves from the target\u2026", ""]
    # the busy flag goes up before the game changes and down after the new state is out
    assert names.index("busy") < names.index("board") < len(names) - 1 - names[::-1].index("busy")
    assert widget.sent[-1] == {"type": "done", "id": 9}
    assert w.distance == 7 == ball8[w.board]
    widget.changes.clear()
    widget.page({"op": "undo", "id": 10})  # refused: still busy then answered
    assert [v for name, v in widget.changes if name == "busy"] == ["taking back a move\u2026", ""]
    assert widget.sent[-1] == {"type": "done", "id": 10} and "nothing to undo" in w.message


def test_a_click_made_for_an_older_board_is_refused(widget):
    """A click queued while a new board was dealt (its board the old one) does not run."""
    w = widget.w
    old = w.board
    widget.page({"op": "new", "distance": 3, "board": old})
    new = Board(w.board)
    for op in ({"op": "solve"}, {"op": "move", "square": legal_square(new)}, {"op": "reset"}):
        widget.page({**op, "board": old})
        assert "the board changed before this request arrived" in w.message
        assert w.board == new.compact and w.history == []


def test_an_error_inside_an_operation_is_a_message_too(widget, monkeypatch):
    w = widget.w

    def broken():
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(w.game, "reset", broken)
    widget.page({"op": "reset", "id": 5})
    assert w.message == "could not do that: RuntimeError: disk on fire" and w.busy == ""
    assert widget.sent[-1] == {"type": "done", "id": 5}


@pytest.mark.slow
def test_a_board_24_moves_away_without_a_table(monkeypatch, tmp_path, table_dir):
    """New boards up to 24 moves without a table, busy said before the slow deal; each
    board's distance checked in the distance table (which the widget does not see)."""
    from bitknights.table import load_table

    table = load_table(TARGET, cache_dir=table_dir)
    monkeypatch.setenv("BITKNIGHTS_CACHE_DIR", str(tmp_path))  # no table: exact search
    widget = Recorder(play(SAMPLE, seed=24))
    w = widget.w
    assert w.source == "search"
    for i in range(3):
        widget.changes.clear()
        widget.page({"op": "new", "distance": "24", "id": i, "board": w.board})
        assert w.message == "" and w.distance == 24 == table.distance(Board(w.board))
        assert widget.changes[0] == ("busy", "dealing a board 24 moves from the target\u2026")
        assert widget.sent[-1] == {"type": "done", "id": i} and w.busy == ""


# -- solving, stopping, winning ---------------------------------------------------------------


def test_solve_then_stop_where_the_page_shows(widget, ball8):
    w = widget.w
    n = ball8[SAMPLE.compact]
    moves = w.solve()
    (anim,) = [m for m in widget.sent if m.get("type") == "animate"]
    assert anim["boards"][0] == SAMPLE.compact and anim["boards"][-1] == TARGET.compact
    assert anim["moves"] == [str(m) for m in moves] and len(anim["frames"]) == n
    assert anim["before"] == [] and w.solved
    # the page stops on the board after the 3rd move: the rest goes to redo
    widget.page({"op": "stop", "board": anim["boards"][3], "id": 1})
    assert w.board == anim["boards"][3] and w.history == anim["moves"][:3]
    assert w.redo_moves == anim["moves"][3:] and w.distance == n - 3 and not w.solved
    # a second stop changes nothing (the game moved on from where the solve left it)
    widget.page({"op": "stop", "board": anim["boards"][1]})
    assert w.history == anim["moves"][:3]


def test_only_stop_stops_the_solve_and_it_does_nothing_else(widget, ball8):
    """A move or Undo for a board the animation showed is stale: refused, nothing changes,
    and a ``stop`` afterwards still stops where the page shows."""
    w = widget.w
    n = ball8[SAMPLE.compact]
    w.solve()
    anim = widget.sent[-1]
    shown = Board(anim["boards"][2])
    solved = state(w)
    widget.page({"op": "move", "square": legal_square(shown), "board": shown.compact})
    widget.page({"op": "undo", "board": shown.compact})
    assert "the board changed before this request arrived" in w.message
    assert state(w) == solved and w.solved and w.redo_moves == []
    widget.page({"op": "stop", "board": shown.compact, "id": 7})
    assert w.board == shown.compact and w.history == anim["moves"][:2]
    assert w.redo_moves == anim["moves"][2:] and w.distance == n - 2 == ball8[w.board]
    assert w.message == "" and widget.sent[-1] == {"type": "done", "id": 7}
    w.redo()  # the rest can be redone
    assert w.history == anim["moves"][:3] and w.distance == n - 3


def test_a_won_game_is_over(widget):
    w = widget.w
    w.show_hints = True
    w.solve()
    assert w.solved and w.legal == [] and w.hints == []  # no glow, no badges
    assert 'class="hint' not in w.svg
    before = state(w)
    for square in ("c3", legal_square(TARGET), square_name(still_square(TARGET))):
        widget.page({"op": "move", "square": square})
        assert "solved" in w.message and state(w) == before
    with pytest.raises(ValueError, match="solved"):
        w.move(legal_square(TARGET))
    w.undo()  # play goes on only by undo, reset or a new board
    assert not w.solved and w.legal and w.hints


# -- the static picture -------------------------------------------------------------------------


def test_the_output_keeps_a_static_picture_up_to_date(widget, monkeypatch, ball8):
    """Displayed: the live view and, in an output of its own (kept by a saved notebook,
    hidden by the live view by its id), the board's picture, updated by each move."""
    import IPython.display

    shown, updated = [], []
    monkeypatch.setattr(IPython.display, "display", lambda obj, **kw: shown.append((obj, kw)))
    monkeypatch.setattr(
        IPython.display, "update_display", lambda obj, **kw: updated.append((obj, kw))
    )
    w = widget.w
    w._ipython_display_()
    (view, view_kw), (picture, picture_kw) = shown
    assert view["application/vnd.jupyter.widget-view+json"]["model_id"] == w.model_id
    assert view_kw == {"raw": True, "metadata": {}}
    assert picture_kw == {"raw": True, "display_id": w.fallback_id}
    assert set(picture) == {"text/html"}  # one copy of the picture
    html = picture["text/html"]
    assert f'data-bk-fallback="{w.fallback_id}"' in html
    assert f'data-board="{SAMPLE.compact}"' in html and html.count('class="knight ') == 24
    assert f"distance {ball8[SAMPLE.compact]}" in html
    w.move(legal_square(SAMPLE))
    obj, kw = updated[-1]
    assert kw == {"raw": True, "display_id": w.fallback_id}
    assert f'data-board="{w.board}"' in obj["text/html"] and "after 1 move" in obj["text/html"]
