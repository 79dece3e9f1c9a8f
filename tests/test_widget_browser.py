"""The play widget's front end in a real browser: Debian's Chromium driven by Playwright
loads a page served on 127.0.0.1 that imports the package's own ``static/widget.js``, with
a small model object bridged to the real Python widget (the page's ``model.send`` and
``model.save_changes`` call Python; Python's trait changes and custom messages are pushed
back).  Clicks must reach Python, and Python's answers must show in the page.

Without Chromium or Playwright these tests skip, except when ``CI`` is set: then they fail.
Screenshots go to ``$BITKNIGHTS_SCREENSHOTS`` when that is set.
"""

from __future__ import annotations

import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

import naive
from bitknights import TARGET, Board
from bitknights.squares import square_name

pytestmark = pytest.mark.browser

CHROMIUM = "/usr/bin/chromium"
STATIC = Path(__file__).parent.parent / "bitknights" / "static"
SAMPLE = Board("10110/01*11/10111/01001/00000")

PAGE = """<!doctype html>
<html><head><meta charset="utf-8"><link rel="stylesheet" href="/widget.css"></head>
<body><div id="root"></div>
<script type="module">
import widget from "/widget.js";
const state = JSON.parse(await window.py_state());
const listeners = {};
let pending = {};
const fire = (name, ...args) => (listeners[name] || []).forEach((cb) => cb(...args));
window.__apply = (reply) => {  // widget.solve() sends its message before it syncs
  for (const msg of reply.msgs) fire("msg:custom", msg);
  for (const [k, v] of Object.entries(reply.changes)) { state[k] = v; fire(`change:${k}`); }
};
const model = {
  get: (k) => state[k],
  set: (k, v) => { state[k] = v; pending[k] = v; },
  save_changes: async () => {
    const changes = pending; pending = {};
    window.__apply(JSON.parse(await window.py_save(JSON.stringify(changes))));
  },
  send: async (content) => window.__apply(JSON.parse(await window.py_send(JSON.stringify(content)))),
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
        b = p.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield b
        b.close()


@pytest.fixture(scope="module")
def server():
    files = {
        "/": (PAGE.encode(), "text/html"),
        "/widget.js": ((STATIC / "widget.js").read_bytes(), "text/javascript"),
        "/widget.css": ((STATIC / "widget.css").read_bytes(), "text/css"),
    }

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 - the http.server API
            body, kind = files.get(self.path, (b"", ""))
            self.send_response(200 if kind else 404)
            self.send_header("Content-Type", kind or "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()


class Bridge:
    """The real widget on one side, a page's model object on the other."""

    def __init__(self, widget, page):
        self.w, self.page = widget, page
        self.changes: dict = {}
        self.msgs: list = []
        self.received: list = []  # every message the page sent
        widget.send = lambda content, buffers=None: self.msgs.append(content)
        widget.observe(self._changed, names=list(widget.keys))
        page.expose_function("py_state", lambda: json.dumps(widget.get_state()))
        page.expose_function("py_send", self._send)
        page.expose_function("py_save", self._save)

    def _changed(self, change):
        self.changes[change["name"]] = change["new"]

    def _reply(self) -> str:
        reply = {"changes": self.changes, "msgs": self.msgs}
        self.changes, self.msgs = {}, []
        return json.dumps(reply)

    def _send(self, content: str) -> str:
        self.received.append(json.loads(content))
        self.w._on_msg(self.w, json.loads(content), [])
        return self._reply()

    def _save(self, changes: str) -> str:
        for k, v in json.loads(changes).items():
            setattr(self.w, k, v)
        return self._reply()

    def push(self) -> None:
        """Changes made from Python code, shown in the page."""
        self.page.evaluate("reply => window.__apply(reply)", json.loads(self._reply()))


def shot(page, name: str) -> None:
    where = os.environ.get("BITKNIGHTS_SCREENSHOTS")
    if where:
        page.screenshot(path=str(Path(where) / f"{name}.png"))


def board_in_page(page) -> str:
    return page.get_attribute("g.board", "data-board")


def status(page) -> str:
    return page.text_content(".bk-status")


@pytest.fixture
def session(browser, server, monkeypatch, tmp_path):
    from bitknights.widget import play

    monkeypatch.setenv("BITKNIGHTS_CACHE_DIR", str(tmp_path))  # no table: exact search
    w = play(SAMPLE)
    page = browser.new_page(viewport={"width": 760, "height": 440})
    bridge = Bridge(w, page)
    page.goto(server)
    page.wait_for_function("window.__ready === true")
    yield w, page, bridge
    page.close()


def test_clicks_move_knights_and_reach_python(session, ball8):
    w, page, bridge = session
    assert board_in_page(page) == SAMPLE.compact
    assert page.locator(".knight").count() == 24
    assert status(page) == f"distance {naive.distance(SAMPLE.compact)}"
    shot(page, "01-start")

    # an optimal knight by the naive BFS, clicked in the page
    here = ball8[SAMPLE.compact]
    best = next(m for m, child in SAMPLE.children() if ball8.get(child.compact) == here - 1)
    name = square_name(best.from_square)
    page.click(f'.knight[data-square="{name}"]')
    child = SAMPLE.play(best)
    page.wait_for_function(f"document.querySelector('g.board').dataset.board === '{child.compact}'")
    assert bridge.received == [{"op": "move", "square": name}]
    assert w.board == child.compact and w.history == [str(best)]
    assert status(page) == f"distance {here - 1}"
    assert page.locator(".bk-moves li").all_text_contents() == [str(best)]
    shot(page, "02-after-click")

    # hint badges: one per legal move, each with the naive distance of its board
    page.click('button[data-op="hint"]')
    page.wait_for_selector("g.hint")
    badges = {
        page.get_attribute(f"g.hint >> nth={i}", "data-square"): (
            page.get_attribute(f"g.hint >> nth={i}", "data-distance"),
            "optimal" in page.get_attribute(f"g.hint >> nth={i}", "class"),
        )
        for i in range(page.locator("g.hint").count())
    }
    expected = {
        square_name(m.from_square): (
            str(ball8[c.compact]),
            ball8[c.compact] == here - 2,
        )
        for m, c in child.children()
    }
    assert badges == expected and w.show_hints
    shot(page, "03-hints")


def test_illegal_click_changes_nothing(session):
    w, page, bridge = session
    far = next(sq for sq in range(25) if sq != SAMPLE.blank and sq not in
               {m.from_square for m in SAMPLE.moves()})  # fmt: skip
    before = (w.board, list(w.history), board_in_page(page))
    page.click(f'.knight[data-square="{square_name(far)}"]')
    page.wait_for_function("document.querySelector('.bk-message').textContent !== ''")
    assert bridge.received == [{"op": "move", "square": square_name(far)}]
    assert (w.board, list(w.history), board_in_page(page)) == before
    assert "illegal move" in page.text_content(".bk-message")
    assert page.locator(".bk-moves li").count() == 0
    shot(page, "04-illegal")


def test_code_changes_show_and_solve_animates(session):
    w, page, bridge = session
    first = SAMPLE.moves()[0]
    w.move(square_name(first.from_square))
    bridge.push()
    assert board_in_page(page) == SAMPLE.play(first).compact
    assert status(page) == f"distance {naive.distance(SAMPLE.play(first).compact)}"
    w.undo()
    bridge.push()
    assert board_in_page(page) == SAMPLE.compact
    assert page.locator('button[data-op="redo"]').is_enabled()

    page.click('button[data-op="solve"]')
    page.wait_for_selector(".bitknights-play.bk-animating")  # frames, one move at a time
    assert status(page).startswith("playing an optimal rest")
    assert board_in_page(page) != TARGET.compact
    shot(page, "05-animating")
    page.wait_for_function("document.querySelector('.bk-status').textContent.startsWith('solved')")
    assert w.board == TARGET.compact and board_in_page(page) == TARGET.compact
    assert len(w.history) == naive.distance(SAMPLE.compact)
    moved = SAMPLE
    for m in w.history:  # the moves Python holds replay to the target
        moved = moved.play(m)
    assert moved == TARGET
    assert status(page) == f"solved in {len(w.history)} moves; the optimum is {len(w.history)}"
    shot(page, "06-solved")

    page.fill(".bk-new-distance", "5")
    page.click('button[data-op="new"]')
    page.wait_for_function("document.querySelector('.bk-status').textContent === 'distance 5'")
    assert naive.distance(w.board) == 5 and w.history == []
    assert board_in_page(page) == w.board and w.new_distance == 5
    assert page.input_value(".bk-new-distance") == "5"
    shot(page, "07-new")


def test_text_takes_the_theme_colour(session):
    """On a dark notebook theme the status, the moves and the board's file and rank letters
    (drawn on the notebook's background, outside the squares) take the theme's text colour."""
    w, page, bridge = session
    page.evaluate("""() => {
      document.body.style.background = "rgb(17, 17, 17)";
      document.body.style.setProperty("--jp-content-font-color1", "rgb(240, 240, 240)");
    }""")
    w.move(square_name(SAMPLE.moves()[0].from_square))
    bridge.push()  # a fresh picture, drawn after the theme changed
    light = "rgb(240, 240, 240)"
    colours = page.evaluate("""() => ({
      status: getComputedStyle(document.querySelector(".bk-status")).color,
      move: getComputedStyle(document.querySelector(".bk-moves li")).color,
      letters: [...document.querySelectorAll("text.coord")].map((t) => t.getAttribute("fill")),
      inherited: getComputedStyle(document.querySelector("text.coord")).fill,
    })""")
    assert colours["status"] == colours["move"] == colours["inherited"] == light
    assert len(colours["letters"]) == 10 and set(colours["letters"]) == {"currentColor"}
    shot(page, "08-dark")
