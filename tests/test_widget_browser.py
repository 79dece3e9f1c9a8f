"""The widget's front end (``static/widget.js`` on a model bridged to the Python widget) and
the pictures in Chromium: clicks and keys reach Python, its answers show, every label reads
(4.5:1) on JupyterLab's light and dark themes, inline and as an ``<img>``.  Without Chromium
or Playwright: skipped (failed under ``CI``); ``$BITKNIGHTS_SCREENSHOTS`` keeps shots."""

from __future__ import annotations

import base64
import json
import os
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest

import pixels
from bitknights import TARGET, Board, render, solve
from bitknights.squares import square_name
from helpers import played, still_square

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
STATIC = Path(__file__).parent.parent / "bitknights" / "static"
DATA = Path(__file__).parent / "data"
SAMPLE = Board("10110/01*11/10111/01001/00000")

# JupyterLab 4's own theme colours (theme-light-extension, theme-dark-extension)
THEMES = {
    "light": {"background": "#ffffff", "--jp-content-font-color1": "rgba(0, 0, 0, 0.87)",
              "--jp-error-color1": "#d32f2f", "--jp-success-color1": "#388e3c"},
    "dark": {"background": "#111111", "--jp-content-font-color1": "#ffffff",
             "--jp-error-color1": "#f44336", "--jp-success-color1": "#4caf50"},
}  # fmt: skip

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/widget.css">
<style>body { margin: 8px; font-family: sans-serif; }</style></head>
<body><div id="root"></div>
<script type="module">
import widget from "/widget.js";
const state = JSON.parse(await window.py_state());
const listeners = {};
let pending = {};
window.__sends = 0;
const fire = (name, ...args) => (listeners[name] || []).forEach((cb) => cb(...args));
window.__apply = (events) => {  // in the order the kernel sent them
  for (const [kind, a, b] of events) {
    if (kind === "change") { state[a] = b; fire(`change:${a}`); } else fire("msg:custom", a);
  }
};
const model = {
  get: (k) => state[k],
  set: (k, v) => { state[k] = v; pending[k] = v; },
  save_changes: async () => {
    const changes = pending; pending = {};
    window.__apply(JSON.parse(await window.py_save(JSON.stringify(changes))));
  },
  send: async (content) => {
    window.__sends += 1;
    window.__apply(JSON.parse(await window.py_send(JSON.stringify(content))));
  },
  on: (name, cb) => (listeners[name] ||= []).push(cb),
  off: () => {},
};
widget.render({ model, el: document.getElementById("root") });
window.__ready = true;
</script></body></html>
"""


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"browser tests must run in CI: {reason}")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def browser():
    if not os.path.exists(CHROMIUM):
        _unavailable(f"{CHROMIUM} is missing (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("the playwright package is missing")
    with sync_playwright() as p:
        flags = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=flags)
        yield b
        b.close()


# The page and the widget's files by path, served by the browser itself (no server runs)
FILES = {
    "/": (PAGE.encode(), "text/html"),
    "/widget.js": ((STATIC / "widget.js").read_bytes(), "text/javascript"),
    "/widget.css": ((STATIC / "widget.css").read_bytes(), "text/css"),
}


class Bridge:
    """The real widget on one side, a page's model object on the other."""

    def __init__(self, widget, page):
        self.w, self.page = widget, page
        self.events: list = []  # trait changes and messages to the page, in order
        self.received: list = []  # every message the page sent
        widget.send = lambda content, buffers=None: self.events.append(["msg", content])
        widget.observe(self._changed, names=list(widget.keys))
        page.expose_function("py_state", lambda: json.dumps(widget.get_state()))
        page.expose_function("py_send", self._send)
        page.expose_function("py_save", self._save)

    def _changed(self, change):
        self.events.append(["change", change["name"], change["new"]])

    def _reply(self) -> str:
        reply, self.events = self.events, []
        return json.dumps(reply)

    def _send(self, content: str) -> str:
        self.received.append(json.loads(content))
        self.w._on_msg(self.w, json.loads(content), [])
        return self._reply()

    def _save(self, changes: str) -> str:
        self.w.set_state(json.loads(changes))
        return self._reply()

    def push(self) -> None:
        """Changes made from Python code, shown in the page."""
        self.page.evaluate("events => window.__apply(events)", json.loads(self._reply()))

    def ops(self) -> list:
        return [m.get("op") for m in self.received]


def shot(page, name: str) -> None:
    where = os.environ.get("BITKNIGHTS_SCREENSHOTS")
    if where:
        page.screenshot(path=str(Path(where) / f"{name}.png"))


def theme(page, name: str) -> None:
    css = ";".join(f"{k}: {v}" for k, v in THEMES[name].items())
    page.evaluate("css => document.body.setAttribute('style', css)", css)


def board_in_page(page) -> str:
    return page.get_attribute(".bk-board g.board", "data-board")


def status(page) -> str:
    return page.text_content(".bk-status")


def moves_in_page(page) -> list[str]:
    return [t.split(". ", 1)[-1].strip() for t in page.locator(".bk-moves li").all_text_contents()]


def wait_board(page, board: str) -> None:
    shown = f"document.querySelector('.bk-board g.board').dataset.board === '{board}'"
    page.wait_for_function(shown, timeout=10_000)


def open_widget(browser, w):
    page = browser.new_page(viewport={"width": 780, "height": 470})

    def answer(route):
        body, kind = FILES.get(urlsplit(route.request.url).path, (b"", ""))
        route.fulfill(status=200 if kind else 404, body=body, content_type=kind or "text/plain")

    page.route("http://bitknights.test/**", answer)
    bridge = Bridge(w, page)
    page.goto("http://bitknights.test/")
    page.wait_for_function("window.__ready === true")
    theme(page, "light")
    return page, bridge


@pytest.fixture
def session(browser, monkeypatch, tmp_path):
    from bitknights.widget import play

    monkeypatch.setenv("BITKNIGHTS_CACHE_DIR", str(tmp_path))  # no table: exact search
    w = play(SAMPLE)
    page, bridge = open_widget(browser, w)
    yield w, page, bridge
    page.close()


def best_move(board: Board, ball8):
    here = ball8[board.compact]
    return next(m for m, child in board.children() if ball8.get(child.compact) == here - 1)


# -- playing ----------------------------------------------------------------------------------


def test_clicks_move_knights_and_reach_python(session, ball8):
    w, page, bridge = session
    assert board_in_page(page) == SAMPLE.compact
    assert page.locator(".knight").count() == 24
    assert status(page) == f"distance {ball8[SAMPLE.compact]}"
    assert "Click a glowing knight" in page.text_content(".bk-cue")
    glowing = page.eval_on_selector_all(".knight.bk-legal", "ks => ks.map(k => k.dataset.square)")
    assert sorted(glowing) == sorted(square_name(m.from_square) for m in SAMPLE.moves())
    shot(page, "01-start")

    best = best_move(SAMPLE, ball8)
    name = square_name(best.from_square)
    page.click(f'.knight[data-square="{name}"]')
    child = SAMPLE.play(best)
    wait_board(page, child.compact)
    assert bridge.received == [{"op": "move", "id": 1, "board": SAMPLE.compact, "square": name}]
    assert w.board == child.compact and w.history == [str(best)]
    assert status(page) == f"distance {ball8[SAMPLE.compact] - 1}"
    assert moves_in_page(page) == [str(best)]
    shot(page, "02-after-click")

    # hint badges: one per legal move, each with the naive distance of its board
    page.click('button[data-op="hints"]')
    page.wait_for_selector("g.hint")
    marks = "hs => hs.map(h => [h.dataset.square, h.dataset.distance, h.getAttribute('class')])"
    badges = {sq: (d, "optimal" in c) for sq, d, c in page.eval_on_selector_all("g.hint", marks)}
    here = ball8[child.compact]
    expected = {
        square_name(m.from_square): (str(ball8[c.compact]), ball8[c.compact] == here - 1)
        for m, c in child.children()
    }
    assert badges == expected and w.show_hints
    assert page.get_attribute('button[data-op="hints"]', "aria-pressed") == "true"
    shot(page, "03-hints")


def test_refused_clicks_change_nothing_and_say_why(session, ball8):
    w, page, bridge = session
    far = still_square(SAMPLE)
    before = (w.board, list(w.history), board_in_page(page))
    page.click(f'.knight[data-square="{square_name(far)}"]')
    page.wait_for_function("document.querySelector('.bk-message').textContent !== ''")
    assert (w.board, list(w.history), board_in_page(page)) == before
    assert "illegal move" in page.text_content(".bk-message")
    assert page.locator(".bk-moves li").count() == 0
    shot(page, "04-illegal")

    blank = square_name(SAMPLE.blank)
    page.click(f'.blank[data-square="{blank}"]')
    page.wait_for_function("document.querySelector('.bk-message').textContent.includes('blank')")
    assert page.text_content(".bk-message").startswith(f"{blank} is the blank: click a glowing")

    # the distance box: empty, a fraction, too far; the refused text stays in the box
    for typed, says in [("", "type a distance first"), ("2.5", "got '2.5'"),
                        ("25", "from 0 to 24, got 25 (without a distance table")]:  # fmt: skip
        page.fill(".bk-new-distance", typed)
        page.click('button[data-op="new"]')
        page.wait_for_function(
            "says => document.querySelector('.bk-message').textContent.includes(says)", arg=says
        )
        assert page.input_value(".bk-new-distance") == typed and w.board == SAMPLE.compact
    # the message names the table command as code, never with backticks
    assert page.locator(".bk-message code").all_text_contents() == ["bitknights table build"]
    assert "`" not in page.text_content(".bk-message")
    shot(page, "05-refused-distance")
    page.fill(".bk-new-distance", "5")
    page.press(".bk-new-distance", "Enter")
    page.wait_for_function("document.querySelector('.bk-status').textContent === 'distance 5'")
    assert ball8[w.board] == 5 and w.history == [] and w.new_distance == 5
    assert board_in_page(page) == w.board and page.text_content(".bk-message") == ""


def test_code_changes_show_and_a_solve_animates_to_the_end(session, ball8):
    w, page, bridge = session
    first = SAMPLE.moves()[0]
    w.move(square_name(first.from_square))
    bridge.push()
    assert board_in_page(page) == SAMPLE.play(first).compact
    assert status(page) == f"distance {ball8[SAMPLE.play(first).compact]}"
    w.undo()
    bridge.push()
    assert board_in_page(page) == SAMPLE.compact
    assert page.locator('button[data-op="redo"]').is_enabled()

    n = ball8[SAMPLE.compact]
    page.click('button[data-op="solve"]')
    page.wait_for_selector(".bitknights-play.bk-animating")  # frames, one move at a time
    assert status(page).startswith("playing an optimal rest: move")
    assert page.text_content('button[data-op="solve"]') == "Stop"
    # the moves list grows with the frames
    page.wait_for_function("document.querySelectorAll('.bk-moves li').length === 2")
    assert status(page) == f"playing an optimal rest: move 2 of {n}"
    shot(page, "06-animating")
    page.wait_for_function("document.querySelector('.bk-status').textContent.startsWith('Solved')")
    assert w.board == TARGET.compact and board_in_page(page) == TARGET.compact
    assert moves_in_page(page) == w.history and len(w.history) == n
    assert played(SAMPLE, w.history) == TARGET  # the moves Python holds
    # the end of the game: a banner, no glowing knight, Solve and Hints off, New board lit
    assert status(page) == f"Solved in {n} moves: optimal!"
    assert page.is_visible(".bk-banner") and "Solved!" in page.text_content(".bk-banner")
    assert page.locator(".knight.bk-legal").count() == 0
    assert page.locator(".knight[tabindex]").count() == 0
    assert not page.locator('button[data-op="solve"]').is_enabled()
    assert not page.locator('button[data-op="hints"]').is_enabled()
    assert "bk-primary" in page.get_attribute('button[data-op="new"]', "class")
    shot(page, "07-solved")
    page.click(f'.knight[data-square="{square_name(TARGET.moves()[0].from_square)}"]')
    page.wait_for_function("document.querySelector('.bk-message').textContent.includes('solved')")
    assert w.board == TARGET.compact and len(w.history) == n


def pace(bridge, seconds: float) -> None:
    """The widget's solve animations paced ``seconds`` a move (in Python's message)."""
    send = bridge.w.send

    def paced(content, buffers=None):
        if content.get("type") == "animate":
            content = {**content, "seconds_per_move": seconds}
        send(content, buffers)

    bridge.w.send = paced


def solving(page, w, bridge) -> None:
    """Back to the start, then Solve: returns once the animation shows its first move."""
    w.reset()
    bridge.push()
    wait_board(page, SAMPLE.compact)
    bridge.received.clear()
    page.click('button[data-op="solve"]')
    page.wait_for_function(
        "document.querySelector('.bk-status').textContent.startsWith('playing an optimal "
        "rest: move 1 of')"
    )


STOPPERS = {  # a knight may lie under the last move's arrow: the click lands on the arrow
    "the Stop button": lambda page, shown: page.click('button[data-op="solve"]'),
    "a knight that may jump": lambda page, shown: page.click(
        f'.knight[data-square="{square_name(Board(shown).moves()[-1].from_square)}"]', force=True),
    "a knight that may not": lambda page, shown: page.click(
        f'.knight[data-square="{square_name(still_square(Board(shown)))}"]', force=True),
    "the blank": lambda page, shown: page.click(
        f'.blank[data-square="{square_name(Board(shown).blank)}"]', force=True),
    "Reset": lambda page, shown: page.click('button[data-op="reset"]'),
    "New board": lambda page, shown: page.click('button[data-op="new"]'),
    "the status line": lambda page, shown: page.click(".bk-status"),
    "the cue": lambda page, shown: page.click(".bk-cue"),
    "the moves list": lambda page, shown: page.click(".bk-moves li"),
    "the distance box": lambda page, shown: page.click(".bk-new-distance"),
    "Escape": lambda page, shown: page.keyboard.press("Escape"),
}  # fmt: skip


def test_a_click_anywhere_or_escape_stops_the_solve_and_does_nothing_else(session, ball8):
    """During the animation a click anywhere in the widget or Escape sends ``stop`` alone:
    the game stands on the board shown, the rest to redo, no message."""
    w, page, bridge = session
    n = ball8[SAMPLE.compact]
    pace(bridge, 1.0)
    for what, stop in STOPPERS.items():
        solving(page, w, bridge)
        assert "press Escape" in page.text_content(".bk-cue")
        stop(page, board_in_page(page))
        page.wait_for_function("!document.querySelector('.bitknights-play.bk-animating')")
        page.wait_for_function(
            "document.querySelector('.bk-status').textContent.startsWith('distance')"
        )
        assert bridge.ops() == ["solve", "stop"], what
        assert bridge.received[-1]["board"] == w.board == board_in_page(page), what
        assert 1 <= len(w.history) < n and w.distance == n - len(w.history), what
        rest = w.history + w.redo_moves  # the rest is there to redo, and still optimal
        assert played(SAMPLE, rest) == TARGET and len(rest) == n, what
        assert status(page) == f"distance {ball8[w.board]}", what
        assert moves_in_page(page) == w.history and page.text_content(".bk-message") == "", what
        assert page.locator('button[data-op="redo"]').is_enabled(), what
        if what == "a knight that may jump":
            shot(page, "08-stopped")
    # after a stop, clicks act again: Redo plays the next move of the rest
    rest = w.redo_moves
    page.click('button[data-op="redo"]')
    page.wait_for_function(f"document.querySelectorAll('.bk-moves li').length === {len(w.history)}")
    assert w.history[-1] == rest[0] and w.redo_moves == rest[1:]


HOVER_CASES = {
    "New board": ('button[data-op="new"]', None),
    "Undo": ('button[data-op="undo"]', None),
    "Hints, pressed": ('button[data-op="hints"]', "hints"),
    "Stop": ('button[data-op="solve"]', "solve"),
}


@pytest.mark.parametrize("theme_name", ["light", "dark"])
def test_hovered_and_pressed_buttons_stay_readable(session, theme_name):
    """Each kind of button hovered (plain, pressed, New board): it shows, its label 4.5:1."""
    w, page, bridge = session
    theme(page, theme_name)
    pace(bridge, 30.0)  # the animation stays on its first frames while Stop is measured
    w.move(square_name(SAMPLE.moves()[0].from_square))  # Undo on
    bridge.push()
    for what, (selector, press) in HOVER_CASES.items():
        if press == "hints":
            page.click(selector)
            page.wait_for_function("document.querySelector('button[data-op=hints]')"
                                   ".classList.contains('active')")  # fmt: skip
        elif press == "solve":
            page.click(selector)
            page.wait_for_selector(".bitknights-play.bk-animating")
            assert page.text_content(selector) == "Stop"
        button = page.locator(selector)
        page.mouse.move(0, 0)
        page.wait_for_timeout(100)
        plain = button.evaluate("b => getComputedStyle(b).backgroundColor")
        button.hover()
        page.wait_for_timeout(100)
        hovered = button.evaluate("b => getComputedStyle(b).backgroundColor")
        assert hovered != plain, (what, plain)
        box = button.bounding_box()
        found = pixels.page_labels(page, clip=box, least=1)
        shot(page, f"16-hover-{what.split(',')[0].replace(' ', '-').lower()}-{theme_name}")
        check_labels(found, theme_name, f"{what} hovered", 1)
        if press == "solve":
            assert page.locator(".bitknights-play.bk-animating").count() == 1  # still playing
            page.keyboard.press("Escape")
            page.wait_for_function("!document.querySelector('.bitknights-play.bk-animating')")


def test_busy_while_dealing_clicks_are_refused(session, monkeypatch, ball8):
    """A slow deal: the view says so at once and takes no click until Python answers."""
    w, page, bridge = session
    deal = w.game.new

    def slow(d):
        time.sleep(1.5)
        return deal(d)

    monkeypatch.setattr(w.game, "new", slow)
    knight = square_name(SAMPLE.moves()[0].from_square)
    page.evaluate(
        """(knight) => setTimeout(() => {
          const root = document.querySelector('.bitknights-play');
          const wait = root.querySelector('.bk-wait');
          const solve = root.querySelector('button[data-op=solve]');
          const probe = {
            busy: root.classList.contains('bk-busy'), aria: root.getAttribute('aria-busy'),
            wait: wait.textContent, visible: getComputedStyle(wait).visibility,
            solveDisabled: solve.disabled, sends: window.__sends,
          };
          solve.click();
          root.querySelector(`.knight[data-square="${knight}"]`)
            .dispatchEvent(new MouseEvent('click', { bubbles: true }));
          probe.message = root.querySelector('.bk-message').textContent;
          probe.sendsAfter = window.__sends;
          window.__probe = probe;
        }, 900)""",
        knight,
    )
    page.fill(".bk-new-distance", "6")
    page.click('button[data-op="new"]')
    page.wait_for_function("window.__probe !== undefined")
    probe = page.evaluate("window.__probe")
    assert probe["busy"] and probe["aria"] == "true" and probe["visible"] == "visible"
    assert probe["wait"] == "dealing a board 6 moves from the target\u2026"
    assert probe["solveDisabled"] and probe["sends"] == probe["sendsAfter"] == 1
    assert probe["message"].startswith("wait: dealing a board 6 moves")
    page.wait_for_function("!document.querySelector('.bitknights-play.bk-busy')")
    wait_board(page, w.board)
    assert bridge.ops() == ["new"] and ball8[w.board] == 6 and w.history == []
    assert page.text_content(".bk-message") == "" and status(page) == "distance 6"

    # busy from code (a cell running w.new(...)): the view refuses clicks as well
    w.set_trait("busy", "dealing a board 24 moves from the target\u2026")
    bridge.push()
    page.wait_for_timeout(400)
    shot(page, "09-busy")
    assert page.is_visible(".bk-wait") and "24 moves" in page.text_content(".bk-wait")
    page.click(f'.knight[data-square="{square_name(Board(w.board).moves()[0].from_square)}"]',
               force=True)  # fmt: skip
    assert bridge.ops() == ["new"] and "wait: dealing" in page.text_content(".bk-message")
    w.set_trait("busy", "")
    bridge.push()
    page.wait_for_function("!document.querySelector('.bitknights-play.bk-busy')")


FAR = {
    36: Board("01100/10001/11*00/10010/11101"),
    39: Board("/".join((DATA / "distance39.txt").read_text().split()[1:6])),  # the farthest
}


@pytest.mark.parametrize("far", sorted(FAR))
def test_long_move_lists_are_fully_visible(browser, table_dir, far):
    """36 and 39 moves all show at once: no column cut off, no move clipped, no scrolling."""
    from bitknights.widget import play

    board = FAR[far]
    w = play(board, cache_dir=table_dir)
    page, bridge = open_widget(browser, w)
    for m in w.game.solution():  # the moves made from code, no animation to wait for
        w.move(m)
    w.undo()
    w.redo()
    bridge.push()
    n = w.optimum
    assert len(w.history) == n == far and w.solved
    page.wait_for_function(f"document.querySelectorAll('.bk-moves li').length === {n}")
    geometry = page.evaluate(
        """() => {
          const list = document.querySelector('.bk-moves');
          const box = list.getBoundingClientRect();
          const items = [...list.querySelectorAll('li')].map((li) => {
            const r = li.getBoundingClientRect();
            return { inside: r.left >= box.left - 0.5 && r.right <= box.right + 0.5 &&
                               r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5,
                     clipped: li.scrollWidth > li.clientWidth + 0.5 };
          });
          return { items, scrollX: list.scrollWidth - list.clientWidth,
                   scrollY: list.scrollHeight - list.clientHeight,
                   inView: box.bottom <= window.innerHeight && box.right <= window.innerWidth };
        }"""
    )
    assert all(i["inside"] and not i["clipped"] for i in geometry["items"])
    assert geometry["scrollX"] <= 0 and geometry["scrollY"] <= 0 and geometry["inView"]
    assert moves_in_page(page) == w.history
    assert page.text_content(".bk-moves-head") == f"Moves ({n})"
    shot(page, f"10-{n}-moves")
    page.close()


def test_a_keyboard_only_game(session, ball8):
    """Tab reaches the knights that may jump (buttons with a name), Enter jumps one, the
    keyboard stays on the knight that moved, a screen reader hears each move."""
    w, page, bridge = session
    page.focus("body")
    attributes = "ks => ks.map(k => ['role', 'tabindex', 'aria-label'].map(a => k.getAttribute(a)))"
    names = page.eval_on_selector_all(".knight.bk-legal", attributes)
    assert names and all(r == "button" and t == "0" for r, t, _ in names)
    blank = square_name(SAMPLE.blank)
    assert all(label.endswith(f": jump to {blank}") for _, _, label in names)
    assert page.get_attribute(".bk-board svg", "role") == "group"
    board = SAMPLE
    while board != TARGET:
        want = square_name(best_move(board, ball8).from_square)
        for _ in range(40):
            focused = page.evaluate("document.activeElement.dataset.square || null")
            if focused == want:
                break
            page.keyboard.press("Tab")
        assert focused == want
        page.keyboard.press("Enter")
        board = board.play(want)
        wait_board(page, board.compact)
        if board != TARGET:
            # the knight that jumped keeps the keyboard, on its new square
            landed = w.history[-1].split("-")[1]
            page.wait_for_function(
                "sq => document.activeElement && document.activeElement.dataset.square === sq",
                arg=landed,
            )
            said = page.text_content(".bk-announce")
            assert said == f"{w.history[-1]}, distance {ball8[board.compact]}"
        if len(w.history) == 3:
            shot(page, "11-keyboard")
    assert w.solved and len(w.history) == ball8[SAMPLE.compact]
    page.wait_for_function(
        "document.querySelector('.bk-announce').textContent.includes('Solved in')"
    )
    assert bridge.ops() == ["move"] * len(w.history)
    # the buttons too: Tab to Undo, Enter
    for _ in range(40):
        if page.evaluate("document.activeElement.dataset.op || null") == "undo":
            break
        page.keyboard.press("Tab")
    page.keyboard.press("Enter")
    page.wait_for_function(f"document.querySelectorAll('.bk-moves li').length === {len(w.history)}")
    assert not w.solved and bridge.ops()[-1] == "undo"


# -- readable on light and dark themes ---------------------------------------------------------


def check_labels(found, theme_name: str, where: str, least: int, *, on_page: int = 0):
    """At least ``least`` labels, each 4.5:1 or more; on a dark theme the labels on the
    page's own background are light (at least ``on_page`` of them)."""
    assert len(found) >= least, (where, theme_name, len(found))
    poor = [lb for lb in found if lb.contrast < 4.5]
    assert not poor, (where, theme_name, poor)
    if theme_name == "dark":
        page = float(pixels.luminance(pixels.rgb(THEMES["dark"]["background"])))
        plain = [lb for lb in found if abs(lb.back - page) < 0.01]
        assert len(plain) >= on_page, (where, plain)
        assert all(lb.ink > 0.5 for lb in plain), (where, plain)


@pytest.mark.parametrize("theme_name", ["light", "dark"])
def test_every_label_of_the_widget_is_readable(session, theme_name):
    w, page, bridge = session
    theme(page, theme_name)
    w.show_hints = True
    w.move(square_name(SAMPLE.moves()[0].from_square))
    w.set_trait("message", "illegal move: a `code` word and plain words")
    bridge.push()
    page.wait_for_selector("g.hint")
    shot(page, f"12-widget-{theme_name}")
    least = 10 + len(w.hints) + 12
    box = page.locator(".bitknights-play").bounding_box()
    found = pixels.page_labels(page, clip=box, least=least)
    # edges, badges, status, cue, message, buttons, the move; 5 on the page's background
    check_labels(found, theme_name, "widget", least, on_page=5)
    # and the solved state: the banner's words
    w.solve()
    bridge.push()
    page.wait_for_function("document.querySelector('.bk-status').textContent.startsWith('Solved')",
                           timeout=30_000)  # fmt: skip
    shot(page, f"13-solved-{theme_name}")
    found = pixels.page_labels(page, clip=page.locator(".bk-stage").bounding_box(), least=12)
    check_labels(found, theme_name, "banner", 10 + 2)


def on_page(page, body: str, theme_name: str) -> None:
    """``body`` alone on a page in the theme's background and text colours."""
    colours = THEMES[theme_name]
    back, ink = colours["background"], colours["--jp-content-font-color1"]
    style = f"margin:0;background:{back};color:{ink}"
    page.set_content(f"<html><body style='{style}'>{body}</body></html>")


def inline_and_img(page, svg: str, theme_name: str) -> None:
    """``svg`` twice on a themed page: inline (``#inline``), then as an ``<img>`` (``#img``)."""
    uri = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
    inline = f"<div id='inline' style='display:inline-block'>{svg}</div>"
    on_page(page, f"{inline} <img id='img' src='{uri}'>", theme_name)
    page.wait_for_function("document.getElementById('img').complete")


def picture_cases(ball11) -> dict[str, str]:
    b = SAMPLE
    s = solve(b)
    move = b.moves()[0]
    after = b.play(move)
    hs = [render.Hint(m, c, ball11[c.compact], False) for m, c in after.children()]
    return {
        "board": render.board_svg(b, size=240),
        "names": render.board_svg(b, names=True, size=300),
        "hints": render.hints_svg(after, hs, size=240),
        "move+hints": render.board_svg(after, move=move, hints=hs, size=240),
        "animation": render.solution_animation_svg(s, size=240),
        "strip": render.solution_svg(s),  # at its default size: the smallest labels
        "unsolved": render.solution_svg(
            solve(Board("01011/110*1/01110/01010/00100")), board_size=240
        ),
    }


@pytest.mark.parametrize("theme_name", ["light", "dark"])
def test_every_picture_is_readable_inline_and_as_an_image(browser, theme_name, ball11):
    """The pictures as a notebook shows them: SVG as an <img>, HTML inline."""
    page = browser.new_page(viewport={"width": 1000, "height": 800})
    for name, svg in picture_cases(ball11).items():
        inline_and_img(page, svg, theme_name)
        root = svg.count("<text")
        least = min(root, 10)
        for which in ("inline", "img"):
            box = page.locator(f"#{which}").bounding_box()
            found = pixels.page_labels(page, clip=box, least=least)
            check_labels(found, theme_name, f"{name} {which}", least)
        shot(page, f"14-picture-{name}-{theme_name}")
    # the notebook views (HTML: board with its rows, hints with their table, a solution)
    s = solve(SAMPLE)
    hs = [render.Hint(m, c, ball11[c.compact], False) for m, c in SAMPLE.children()]
    for name, html in [("board-html", SAMPLE._repr_html_()), ("solution-html", s._repr_html_()),
                       ("hints-html", render.hints_html(SAMPLE, hs))]:  # fmt: skip
        on_page(page, f"<div id='out' style='display:inline-block'>{html}</div>", theme_name)
        found = pixels.page_labels(page, clip=page.locator("#out").bounding_box(), least=10)
        check_labels(found, theme_name, name, 10)
        shot(page, f"15-{name}-{theme_name}")
    page.close()


def test_the_contrast_check_sees_an_unreadable_label(browser):
    """The check itself: edge letters in currentColor drawn as an <img> on a dark page
    (black on the dark frame) are found, every one, far below 4.5:1; inline they read."""
    from bitknights.render.boards import LABEL

    svg = render.board_svg(SAMPLE, size=240).replace(f'fill="{LABEL}"', 'fill="currentColor"')
    page = browser.new_page(viewport={"width": 600, "height": 300})
    inline_and_img(page, svg, "dark")
    found = pixels.page_labels(page, clip=page.locator("#img").bounding_box(), least=10)
    assert len(found) == 10 and all(lb.contrast < 3 for lb in found)
    with pytest.raises(AssertionError):
        check_labels(found, "dark", "black on the frame", 10)
    found = pixels.page_labels(page, clip=page.locator("#inline").bounding_box(), least=10)
    check_labels(found, "dark", "the page's colour, inline", 10)
    page.close()
