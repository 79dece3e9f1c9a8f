"""Play the widget and show the pictures in a real JupyterLab (or Jupyter Notebook 7), as a
person would, and save screenshots of what it shows.

    pip install jupyterlab playwright      # first; and `notebook` for --app notebook
    python scripts/notebook_check.py OUT [--app lab|notebook] [--table]

Neither package is a dependency of bitknights (the widget itself needs the ``notebook``
extra); ``tests/test_notebook_apps.py`` runs this script for both apps (marked
``browser``).  Playwright drives Debian's Chromium (``--chromium``, default
/usr/bin/chromium) and downloads no browser.  The script starts the server headless on
127.0.0.1 with no token, in a temporary directory that is also HOME and every Jupyter
directory (the user's own are neither read nor written), writes a notebook whose first cell
is ``w = bitknights.play(seed=1); w``, and then, in the page:

- runs that cell; clicks a knight that may jump, turns the hint badges on, clicks a knight
  that may not; plays a move with the keyboard alone (Tab to a glowing knight, Enter);
- runs ``w.undo()`` and ``w.solve()`` from later cells, and checks the end of the game
  (a banner, no glowing knight); undoes a move, clicks Solve and stops it at the second
  move (the kernel agrees: the rest is in ``redo_moves``);
- runs ``w.new(...)`` from a cell and checks the view said it was busy while it dealt;
  on that far board, stops Solve three ways (Escape, a click on a knight, a click on the
  widget's text): each stops the animation at the move shown and does nothing else (no
  move, no message; the kernel has the rest to redo);
- shows a Solution (HTML) and three SVG pictures (which the app draws as ``<img>``);
- in the light and the dark theme, checks that every label of the widget and of every
  picture is readable: on pixels, a screenshot with text and one without, each label's ink
  at least 4.5:1 against what is behind it (``tests/pixels.py``), and on the dark theme the
  widget's text light; the same for the buttons under the mouse (New board, Hints pressed,
  Stop while a solve plays);
- narrows the window (the widget must fit its output area);
- saves the notebook, stops the server, starts a fresh one and opens the notebook again
  (no kernel has the widget now): the output must show the board's picture as it was when
  saved, and not "Error displaying widget: model not found".

After each step it checks the view (the board, the distance, the moves list, the message)
against the widget's own state printed by the kernel, and at the end that the browser
console showed no error once the notebook had loaded (errors while the page itself loads,
or after the server was stopped on purpose, are printed as notes).

Screenshots go to OUT (``lab-01-rendered.png`` ...).  Exit status 0 when every check
passed, 1 when one failed (each on its own line, beginning FAIL), 2 for bad arguments.
With ``--table`` the kernel gets a freshly built distance table (a few seconds, 68 MB in
the temporary directory), else distances come from exact search.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import numpy as np

from bitknights import progress

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import pixels  # noqa: E402 - the tests' pixel contrast helper

NOTEBOOK = "check.ipynb"
SAMPLE = "10110/01*11/10111/01001/00000"
CELLS = [
    "import bitknights\nw = bitknights.play(seed=1)\nw",
    "w.undo()\nprint(w.board, len(w.history), w.source)",
    "w.solve()\nprint(w.board, len(w.history), w.solved)",
    "print(w.board, len(w.history), len(w.redo_moves))",
    "w.new(NEW)",
    f"from bitknights import Board, Game, render, solve\nb = Board({SAMPLE!r})\ns = solve(b)\ns",
    "render.board_svg(b, names=True)",
    "render.hints_svg(b, Game(b).hints())",
    "render.solution_animation_svg(s)",
]
PICTURES = {5: "a Solution", 6: "board_svg(names=True)", 7: "hints_svg", 8: "the animation"}
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

# records, in the page, whether the widget went busy and what it said meanwhile
WATCH_BUSY_JS = """() => {
  const w = document.querySelector('.bitknights-play');
  window.__bkBusy = [];
  const seen = () => {
    if (w.classList.contains('bk-busy')) {
      window.__bkBusy.push(w.querySelector('.bk-wait').textContent);
    }
  };
  new MutationObserver(seen).observe(w, { attributes: true, subtree: true, childList: true });
}"""


class Check:
    """Collects failed checks; each is printed as it happens."""

    def __init__(self) -> None:
        self.failures: list[str] = []

    def __call__(self, ok: bool, what: str) -> bool:
        print(("ok    " if ok else "FAIL  ") + what, flush=True)
        if not ok:
            self.failures.append(what)
        return ok


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_notebook(path: Path, new_distance: int) -> None:
    cells = [
        {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
         "source": src.replace("NEW", str(new_distance))}
        for src in CELLS
    ]  # fmt: skip
    nb = {
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}
        },
        "cells": [dict(c, id=f"cell{i}") for i, c in enumerate(cells)],
    }
    path.write_text(json.dumps(nb, indent=1))


def start_server(app: str, tmp: Path, port: int, env: dict[str, str]) -> subprocess.Popen:
    cmd = [
        sys.executable, "-m", "jupyter", app, "--no-browser", f"--port={port}",
        "--ip=127.0.0.1", "--IdentityProvider.token=", f"--ServerApp.root_dir={tmp / 'root'}",
    ]  # fmt: skip
    if os.geteuid() == 0:  # containers
        cmd.append("--allow-root")
    if app == "lab":  # nothing from the internet
        cmd += ["--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
                "--LabApp.extension_manager=readonly"]  # fmt: skip
    log = open(tmp / "server.log", "wb")  # noqa: SIM115 - handed to the child process
    proc = subprocess.Popen(cmd, env=env, stdout=log, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit(f"notebook_check: jupyter {app} exited; see {tmp / 'server.log'}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=2):
                return proc
        except OSError:
            time.sleep(0.5)
    proc.terminate()
    raise SystemExit(f"notebook_check: jupyter {app} did not start in 90 s")


def private_env(tmp: Path, cache: Path) -> dict[str, str]:
    """The environment with HOME and every Jupyter/IPython directory inside ``tmp``."""
    env = dict(os.environ)
    dirs = {
        "HOME": "home",
        "JUPYTER_CONFIG_DIR": "config",
        "JUPYTER_DATA_DIR": "data",
        "JUPYTER_RUNTIME_DIR": "runtime",
        "JUPYTERLAB_SETTINGS_DIR": "settings",
        "JUPYTERLAB_WORKSPACES_DIR": "workspaces",
        "IPYTHONDIR": "ipython",
        "XDG_CACHE_HOME": "xdg-cache",
        "XDG_CONFIG_HOME": "xdg-config",
        "XDG_DATA_HOME": "xdg-data",
    }
    for var, name in dirs.items():
        (tmp / name).mkdir(parents=True, exist_ok=True)
        env[var] = str(tmp / name)
    env.pop("JUPYTER_PATH", None)
    env.pop("JUPYTER_CONFIG_PATH", None)
    env["BITKNIGHTS_CACHE_DIR"] = str(cache)
    # no "would you like news?" toast over the notebook
    labconfig = tmp / "config" / "labconfig"
    labconfig.mkdir(parents=True, exist_ok=True)
    (labconfig / "page_config.json").write_text(
        json.dumps({"disabledExtensions": {"@jupyterlab/apputils-extension:announcements": True}})
    )
    return env


class Session:
    """One notebook page: run cells, read the widget, take screenshots."""

    def __init__(self, page, out: Path, prefix: str) -> None:
        self.page, self.out, self.prefix = page, out, prefix
        self.shots: list[Path] = []

    def shot(self, name: str, full: bool = False, clip: dict | None = None) -> None:
        path = self.out / f"{self.prefix}-{len(self.shots) + 1:02d}-{name}.png"
        self.page.screenshot(path=str(path), full_page=full, clip=clip)
        self.shots.append(path)

    def cell(self, index: int):
        return self.page.locator(".jp-Notebook .jp-Cell").nth(index)

    def run_cell(self, index: int) -> None:
        """Select cell ``index`` and press Shift+Enter, again if the kernel was not ready."""
        cell = self.cell(index)
        prompt = cell.locator(".jp-InputPrompt")
        for _ in range(6):
            cell.locator(".jp-InputArea-editor").click()
            self.page.keyboard.press("Escape")  # command mode: Shift+Enter runs the cell
            self.page.keyboard.press("Shift+Enter")
            for _ in range(20):
                if any(c.isdigit() or c == "*" for c in prompt.inner_text()):
                    return
                self.page.wait_for_timeout(500)
        raise RuntimeError(f"cell {index} does not run (no kernel?)")

    def cell_text(self, index: int, timeout: float = 120) -> str:
        """The cell's output once it has finished (its prompt shows a number)."""
        prompt = self.cell(index).locator(".jp-InputPrompt")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and not any(c.isdigit() for c in prompt.inner_text()):
            self.page.wait_for_timeout(250)
        out = self.cell(index).locator(".jp-OutputArea")
        out.locator(".jp-OutputArea-output").first.wait_for(timeout=timeout * 1000)
        return out.inner_text()

    def widget(self) -> dict:
        return self.page.evaluate(
            """() => {
              const w = document.querySelector('.bitknights-play');
              const g = w.querySelector('.bk-board g.board');
              return {
                board: g && g.dataset.board,
                status: w.querySelector('.bk-status').textContent,
                message: w.querySelector('.bk-message').textContent,
                moves: [...w.querySelectorAll('.bk-moves li')]
                  .map((li) => li.textContent.split('. ').pop().trim()),
                legal: [...w.querySelectorAll('.knight.bk-legal')].map((k) => k.dataset.square),
                still: [...w.querySelectorAll('.knight:not(.bk-legal)')]
                  .map((k) => k.dataset.square),
                hints: w.querySelectorAll('g.hint').length,
                banner: getComputedStyle(w.querySelector('.bk-banner')).display !== 'none',
              };
            }"""
        )

    def wait_widget(self, condition: str, timeout: float = 60) -> bool:
        """Wait until ``condition`` (JS, with ``w`` the widget's root) holds."""
        try:
            self.page.wait_for_function(
                f"() => {{ const w = document.querySelector('.bitknights-play');"
                f" return !!w && ({condition}); }}",
                timeout=timeout * 1000,
            )
            return True
        except Exception:  # playwright's TimeoutError
            return False

    def labels(self, locator, least: int) -> list[pixels.Label]:
        locator.scroll_into_view_if_needed()
        self.page.wait_for_timeout(200)
        return pixels.page_labels(self.page, clip=locator.bounding_box(), least=least)

    def switch_theme(self, theme: str) -> None:
        page = self.page
        page.locator(".lm-MenuBar-itemLabel", has_text="Settings").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
        page.locator(".lm-Menu-itemLabel", has_text=theme).first.click()
        page.wait_for_function(
            f"() => document.body.dataset.jpThemeName === {json.dumps(theme)}", timeout=30000
        )
        page.wait_for_timeout(500)


def check_labels(check: Check, found: list[pixels.Label], what: str, least: int) -> None:
    poor = [lb for lb in found if lb.contrast < 4.5]
    worst = min((lb.contrast for lb in found), default=0)
    check(
        len(found) >= least and not poor,
        f"{what}: {len(found)} labels, each readable (lowest contrast {worst}:1)"
        + "".join(f"\n      poor: {lb}" for lb in poor),
    )


STOPS = {
    "Escape": lambda page: page.keyboard.press("Escape"),
    "a click on a knight": lambda page: page.click(
        ".bitknights-play .bk-board .knight >> nth=7", force=True),
    "a click on the widget's text": lambda page: page.click(".bitknights-play .bk-status"),
}  # fmt: skip


def solve_and_wait(s: Session, moves: int) -> bool:
    """Click Solve; True once the animation has shown one more move than ``moves``."""
    s.page.click('.bitknights-play button[data-op="solve"]')
    return s.wait_widget(
        f"w.classList.contains('bk-animating') && "
        f"w.querySelectorAll('.bk-moves li').length > {moves}",
        timeout=30,
    )


def idle(s: Session) -> bool:
    return s.wait_widget(
        "!w.classList.contains('bk-animating') && !w.classList.contains('bk-busy')"
    )


def check_stops(s: Session, check: Check) -> None:
    """Each way of stopping Solve stops it at the move shown and does nothing else: the
    moves list holds the solve's moves so far, no message, the kernel has the rest to redo
    (the board was dealt far away, so the animation plays for seconds)."""
    page = s.page
    for what, stop in STOPS.items():
        before = len(s.widget()["moves"])
        playing = solve_and_wait(s, before)
        stop(page)
        stopped = idle(s)
        page.wait_for_timeout(500)
        now = s.widget()
        s.run_cell(3)
        printed = s.cell_text(3).split()
        check(
            playing and stopped and len(now["moves"]) > before and not now["message"]
            and printed[:2] == [now["board"], str(len(now["moves"]))] and int(printed[2]) > 0,
            f"{what} stops Solve at the move shown and does nothing else: {len(now['moves'])} "
            f"moves, message {now['message']!r}, the kernel: {printed}",
        )  # fmt: skip
    s.shot("stopped-three-ways")


def check_hovers(s: Session, check: Check, theme: str) -> None:
    """The buttons under the mouse (New board; Hints pressed; Stop while Solve plays):
    each label at least 4.5:1 against the hovered button."""
    page = s.page
    hints = page.locator('.bitknights-play button[data-op="hints"]')
    pressed = "w.querySelector('button[data-op=hints]').classList.contains('active')"
    was_pressed = s.wait_widget(pressed, timeout=0.1)
    for what in ("New board", "Hints, pressed", "Stop"):
        if what == "Hints, pressed":
            if not was_pressed:
                hints.click()
            check(s.wait_widget(pressed), f"{theme}: Hints is pressed")
            button = hints
        elif what == "Stop":
            button = page.locator('.bitknights-play button[data-op="solve"]')
        else:
            button = page.locator('.bitknights-play button[data-op="new"]')
        for _ in range(3 if what == "Stop" else 1):
            if what == "Stop":  # a fresh board, so that the rest plays for seconds
                page.locator('.bitknights-play button[data-op="new"]').click()
                idle(s)
                solve_and_wait(s, len(s.widget()["moves"]))
            button.hover()
            page.wait_for_timeout(200)
            # whether it still plays, asked before the (slow, on a loaded machine) pixel pass
            playing = s.wait_widget("w.classList.contains('bk-animating')", timeout=0.1)
            if playing or what != "Stop":
                break
            page.mouse.move(0, 0)  # it ended before the mouse got there: once more
        label = button.inner_text()
        found = pixels.page_labels(page, clip=button.bounding_box(), least=1)
        s.shot(f"hover-{what.split(',')[0].replace(' ', '-').lower()}-{theme}")
        check_labels(check, found, f"{theme}: {what} under the mouse", 1)
        if what == "Stop":
            check(playing and label == "Stop", f"{theme}: measured while it plays")
            page.keyboard.press("Escape")
            idle(s)
        elif what == "Hints, pressed" and not was_pressed:
            hints.click()
            s.wait_widget(f"!{pressed}")
    page.mouse.move(0, 0)


def check_readable(s: Session, check: Check, theme: str) -> None:
    """Every label of the widget and of every picture, on pixels; on the dark theme the
    widget's own text (on the page's background) light."""
    w = s.page.locator(".bitknights-play")
    found = s.labels(w, 20)
    check_labels(check, found, f"{theme}: the widget", 20)
    if theme == "dark":
        back = float(np.median([lb.back for lb in found]))
        plain = [lb for lb in found if abs(lb.back - back) < 0.01]
        check(
            len(plain) >= 4 and all(lb.ink > 0.5 for lb in plain),
            f"dark: the widget's text is light on the dark page ({len(plain)} labels)",
        )
    check_hovers(s, check, theme)
    for index, what in PICTURES.items():
        out = s.cell(index).locator(".jp-OutputArea-output").first
        found = s.labels(out, 10)
        s.shot(f"picture-{index}-{theme}", clip=out.bounding_box())
        check_labels(check, found, f"{theme}: {what}", 10)
        kind = out.evaluate("o => o.querySelector('img') ? 'img' : 'inline'")
        if index != 5:
            check(kind == "img", f"{theme}: {what} is shown as an <img> (as SVG outputs are)")


def play_through(s: Session, check: Check, source: str, timeout: float) -> str:
    """Play the notebook's game in the page; ``source``: where its distances should come
    from ('table' or 'search'); ``timeout``: seconds the first cell may take.  Returns the
    board the widget shows at the end."""
    page = s.page
    s.run_cell(0)
    rendered = s.wait_widget("w.querySelector('g.board') !== null", timeout=timeout)
    if not check(rendered, "the widget renders in the first cell's output"):
        s.shot("not-rendered")
        return ""
    page.locator(".bitknights-play").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    s.shot("rendered")
    start = s.widget()
    check(start["status"] == "distance 8", f"status says the distance: {start['status']!r}")
    check(len(start["legal"]) > 0, f"knights that may jump are marked: {start['legal']}")
    fallback = page.evaluate(
        "() => { const f = document.querySelector('[data-bk-fallback]');"
        " return f && getComputedStyle(f).display; }"
    )
    check(fallback == "none", f"the stored picture is hidden while the view lives ({fallback})")
    box = page.locator(".bitknights-play").bounding_box()
    area = s.cell(0).locator(".jp-OutputArea").bounding_box()
    check(
        box is not None and area is not None and box["width"] <= area["width"] + 1,
        f"the widget fits its output area ({box and round(box['width'])} px wide)",
    )

    square = start["legal"][0]
    page.click(f'.bitknights-play .knight[data-square="{square}"]')
    moved = s.wait_widget(f"w.querySelector('g.board').dataset.board !== {start['board']!r}")
    after = s.widget()
    if not check(moved, f"a click on {square} moves its knight"):
        s.shot("click-ignored")
        return ""
    check(
        len(after["moves"]) == 1 and after["moves"][0].startswith(square),
        f"the moves list shows the move: {after['moves']}",
    )
    check(after["status"] in ("distance 7", "distance 9"), f"status after: {after['status']!r}")
    s.shot("after-click")

    page.click('.bitknights-play button[data-op="hints"]')
    shown = s.wait_widget("w.querySelectorAll('g.hint').length > 0")
    check(shown and s.widget()["hints"] == len(s.widget()["legal"]), "hint badges, one a move")
    s.shot("hints")

    before = s.widget()
    still = before["still"][0]
    page.click(f'.bitknights-play .knight[data-square="{still}"]')
    refused = s.wait_widget("w.querySelector('.bk-message').textContent !== ''")
    now = s.widget()
    check(refused, f"a click on {still} (cannot jump) shows a message: {now['message']!r}")
    check(
        now["board"] == before["board"] and now["moves"] == before["moves"], "and changes nothing"
    )
    s.shot("refused")

    # the keyboard alone: Tab to a glowing knight, Enter
    page.click(".bitknights-play .bk-status")
    reached = None
    for _ in range(30):
        page.keyboard.press("Tab")
        reached = page.evaluate(
            "() => document.activeElement.classList.contains('bk-legal')"
            " ? document.activeElement.dataset.square : null"
        )
        if reached:
            break
    check(reached is not None, f"Tab reaches a knight that may jump ({reached})")
    page.keyboard.press("Enter")
    keyed = s.wait_widget(f"w.querySelectorAll('.bk-moves li').length === {len(now['moves']) + 1}")
    editing = page.evaluate("() => !!document.querySelector('.jp-Notebook.jp-mod-editMode')")
    check(
        keyed and not editing,
        f"Enter jumps it (and the notebook stays in command mode: {not editing})",
    )
    landed = s.widget()["moves"][-1].split("-")[-1] if keyed else None
    focus = s.wait_widget(f"document.activeElement.dataset.square === {landed!r}", timeout=5)
    check(focus, f"the keyboard stays on the knight that jumped, now on {landed}")
    s.shot("keyboard")

    now = s.widget()
    s.run_cell(1)
    printed = s.cell_text(1).split()
    back = s.wait_widget(f"w.querySelectorAll('.bk-moves li').length === {len(now['moves']) - 1}")
    now = s.widget()
    check(
        back and printed[:2] == [now["board"], str(len(now["moves"]))] and printed[2] == source,
        f"w.undo() from code: the view follows; the kernel agrees: {printed}",
    )
    s.shot("undo-from-code")

    s.run_cell(2)
    animating = s.wait_widget("w.classList.contains('bk-animating')", timeout=60)
    check(animating, "w.solve() animates in the view")
    s.shot("solving")
    solved = s.wait_widget("w.querySelector('.bk-status').textContent.startsWith('Solved')")
    now = s.widget()
    printed = s.cell_text(2).split()
    check(solved, f"and ends solved: {now['status']!r}")
    check(printed[:1] == [now["board"]] and printed[2:3] == ["True"], f"kernel: {printed}")
    check(now["banner"] and not now["legal"], "the end: a banner, no knight glows")
    s.shot("solved")

    # stop a solve: Undo twice, Solve, Stop at the second move
    for _ in range(2):
        page.click('.bitknights-play button[data-op="undo"]')
        s.wait_widget("!w.classList.contains('bk-busy')")
    total = len(s.widget()["moves"])
    page.click('.bitknights-play button[data-op="solve"]')
    s.wait_widget(f"w.querySelectorAll('.bk-moves li').length === {total + 1}", timeout=30)
    page.click('.bitknights-play button[data-op="solve"]')  # "Stop"
    stopped = s.wait_widget(
        "!w.classList.contains('bk-animating') && !w.classList.contains('bk-busy')"
    )
    page.wait_for_timeout(500)
    now = s.widget()
    s.run_cell(3)
    printed = s.cell_text(3).split()
    check(
        stopped and len(now["moves"]) == total + 1 and not now["banner"],
        f"Stop halts the solve at the move shown ({len(now['moves'])} moves)",
    )
    check(
        printed == [now["board"], str(total + 1), "1"],
        f"the kernel agrees, 1 move to redo: {printed}",
    )
    s.shot("stopped")

    # a new board dealt from code: the view says it is busy meanwhile
    page.evaluate(WATCH_BUSY_JS)
    s.run_cell(4)
    dealt = s.cell_text(4, timeout=300)
    busy = page.evaluate("window.__bkBusy")
    check(
        any("dealing a board" in b for b in busy),
        f"while w.new() deals, the view is busy: {busy[:1]}",
    )
    check("Error" not in dealt, f"w.new() deals a board: {dealt.strip().splitlines()[-1:]}")
    s.wait_widget("!w.classList.contains('bk-busy')")
    s.run_cell(3)
    printed = s.cell_text(3).split()
    now = s.widget()
    check(printed[:1] == [now["board"]], f"and the view shows the kernel's board: {printed}")
    s.shot("new-board")
    check_stops(s, check)

    for index in PICTURES:
        s.run_cell(index)
        s.cell_text(index)
    page.wait_for_timeout(1000)
    s.shot("pictures", full=True)
    check_readable(s, check, "light")
    s.switch_theme("JupyterLab Dark")
    s.shot("dark")
    page.locator(".bitknights-play").scroll_into_view_if_needed()
    s.shot("dark-widget")
    check_readable(s, check, "dark")
    s.switch_theme("JupyterLab Light")

    page.set_viewport_size({"width": 760, "height": 900})  # the side panel wraps below
    page.wait_for_timeout(500)
    page.locator(".bitknights-play").scroll_into_view_if_needed()
    box = page.locator(".bitknights-play").bounding_box()
    area = s.cell(0).locator(".jp-OutputArea").bounding_box()
    check(
        box is not None and area is not None and box["width"] <= area["width"] + 1,
        f"in a narrow window the widget still fits ({box and round(box['width'])} px wide)",
    )
    s.shot("narrow")
    page.set_viewport_size({"width": 1200, "height": 900})
    return s.widget()["board"]


def reopen(s: Session, check: Check, url: str, board: str) -> None:
    """The saved notebook, opened again with no kernel behind its widget: the stored
    picture shows the board as it was, and no error line."""
    page = s.page
    page.goto(url)
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=120000)
    page.wait_for_timeout(5000)  # the widget manager gives up on the model meanwhile
    first = s.cell(0).locator(".jp-OutputArea")
    first.scroll_into_view_if_needed()
    s.shot("reopened")
    seen = page.evaluate(
        """() => {
          const f = document.querySelector('[data-bk-fallback]');
          const out = f && f.closest('.jp-Cell').querySelector('.jp-OutputArea');
          const g = f && f.querySelector('g.board');
          const r = f && f.getBoundingClientRect();
          return {
            board: g && g.dataset.board, knights: f ? f.querySelectorAll('.knight').length : 0,
            shown: !!r && r.width > 300 && r.height > 300,
            text: out ? out.innerText : '',
          };
        }"""
    )
    check(
        seen["shown"] and seen["knights"] == 24 and seen["board"] == board,
        f"reopened without its kernel: the board's picture as saved ({seen['board']})",
    )
    check(
        "Error displaying widget" not in seen["text"],
        f"and no error line: {seen['text'].splitlines()[:1]}",
    )
    for theme in ("light", "dark"):
        if theme == "dark":
            s.switch_theme("JupyterLab Dark")
            first.scroll_into_view_if_needed()
            s.shot("reopened-dark")
        check_labels(check, s.labels(first, 10), f"{theme}: the stored picture", 10)
    s.switch_theme("JupyterLab Light")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("out", type=Path, help="directory for the screenshots")
    ap.add_argument("--app", choices=["lab", "notebook"], default="lab")
    ap.add_argument("--table", action="store_true", help="build a distance table first")
    ap.add_argument("--chromium", default="/usr/bin/chromium")
    ap.add_argument("--keep", action="store_true", help="keep the temporary directory")
    ap.add_argument(
        "--timeout", type=float, default=180, help="seconds the widget may take to appear"
    )
    args = ap.parse_args(argv)
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        ap.error("needs playwright: pip install jupyterlab playwright")
    if shutil.which(args.chromium) is None:
        ap.error(f"no Chromium at {args.chromium}")
    args.out.mkdir(parents=True, exist_ok=True)

    tmp = Path(tempfile.mkdtemp(prefix="bitknights-notebook-check-"))
    cache = tmp / "cache"
    cache.mkdir()
    (tmp / "root").mkdir()
    # the farthest a new board goes without a table (seconds of search), far with one
    write_notebook(tmp / "root" / NOTEBOOK, 30 if args.table else 24)
    env = private_env(tmp, cache)
    if args.table:
        build = [sys.executable, "-m", "bitknights", "table", "build", "--cache-dir", str(cache)]
        subprocess.run(build, env=env, check=True)  # (its own progress bar on a terminal)
    port = free_port()
    check = Check()
    # errors while the page loads come from the app itself (no bitknights code has run:
    # the widget's module loads when its cell shows it); those after the server is stopped
    # on purpose are the app losing it; only the others fail the check
    errors: dict[str, list[str]] = {"loading": [], "playing": [], "restarting": []}
    phase = ["loading"]

    def on_error(text: str) -> None:
        errors[phase[0]].append(text)

    progress.announce(f"starting Jupyter{'Lab' if args.app == 'lab' else ' Notebook'} and "
                      "Chromium, then playing the widget", "a minute or two")  # fmt: skip
    server = start_server(args.app, tmp, port, env)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=args.chromium, headless=True, args=CHROMIUM_ARGS
            )
            page = browser.new_page(viewport={"width": 1200, "height": 900})
            page.on("console", lambda m: m.type == "error" and on_error(m.text))
            page.on("pageerror", lambda e: on_error(f"{e}\n{e.stack}"))
            session = Session(page, args.out, args.app)
            path = "lab/tree" if args.app == "lab" else "notebooks"
            url = f"http://127.0.0.1:{port}/{path}/{NOTEBOOK}"
            try:
                page.goto(url)
                page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=120000)
                page.wait_for_load_state("networkidle")
                phase[0] = "playing"
                board = play_through(
                    session, check, "table" if args.table else "search", args.timeout
                )
                if board:
                    page.keyboard.press("Escape")
                    page.keyboard.press("Control+s")
                    page.wait_for_timeout(2000)
                    phase[0] = "restarting"
                    stop_server(server)
                    server = start_server(args.app, tmp, port, env)
                    reopen(session, check, url, board)
            finally:
                if not session.shots:
                    session.shot("page")
                browser.close()
    finally:
        stop_server(server)
    for text in errors["loading"] + errors["restarting"]:
        print(f"note  while the page loaded or the server restarted: {text[:200]}")
    check(
        not errors["playing"],
        "no errors in the browser console" + "".join(f"\n      {c}" for c in errors["playing"]),
    )
    print(f"screenshots in {args.out}: " + ", ".join(s.name for s in session.shots))
    if args.keep:
        print(f"kept {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    if check.failures:
        print(f"{len(check.failures)} check(s) failed", file=sys.stderr)
        return 1
    return 0


def stop_server(server: subprocess.Popen) -> None:
    server.terminate()
    try:
        server.wait(timeout=20)
    except subprocess.TimeoutExpired:
        server.kill()
        server.wait()


if __name__ == "__main__":
    sys.exit(main())
