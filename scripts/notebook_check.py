"""Play the widget in a real JupyterLab (or Jupyter Notebook 7), as a person would, and save
screenshots of what it shows.

    pip install jupyterlab playwright      # first; and `notebook` for --app notebook
    python scripts/notebook_check.py OUT [--app lab|notebook] [--table]

Not part of the test suite, and neither package is a dependency of bitknights (the widget
itself needs the ``notebook`` extra).  Playwright drives Debian's Chromium (``--chromium``,
default /usr/bin/chromium) and downloads no browser.  The script starts the server
headless on 127.0.0.1 with no token, in a temporary directory that is also HOME and every
Jupyter directory (the user's own are neither read nor written), writes a notebook whose
first cell is ``w = bitknights.play(seed=1); w``, and then, in the page: runs that cell,
clicks a knight that may jump, turns the hint badges on, clicks a knight that may not,
runs ``w.undo()`` and ``w.solve()`` from later cells, switches to the dark theme and back,
and narrows the window.  After each step it checks the view (the board, the distance, the
moves list, the message) against the widget's own state printed by the kernel; it checks
that the widget's text stays readable (contrast at least 4.5:1 against what is behind it)
in both themes, that the widget fits its output area, and that the browser console shows
no error once the notebook has loaded (errors while the page itself loads are printed as
notes: no bitknights code has run then).

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

NOTEBOOK = "check.ipynb"
CELLS = [
    "import bitknights\nw = bitknights.play(seed=1)\nw",
    "w.undo()\nprint(w.board, len(w.history), w.source)",
    "w.solve()\nprint(w.board, len(w.history), w.solved)",
]
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking"]

# WCAG contrast of an element's text against the first opaque background behind it.  For
# SVG text the colour is its fill attribute: the board's letters are drawn through <use>,
# whose copies page CSS does not restyle, so a computed style could claim what is not shown.
CONTRAST_JS = """
([selector, svgFill]) => {
  const node = document.querySelector(selector);
  if (!node) return null;
  const probe = document.createElement("span");
  node.parentElement.appendChild(probe);
  const rgba = (css) => {
    probe.style.color = css;
    const p = getComputedStyle(probe).color.match(/[\\d.]+/g).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const lum = ([r, g, b]) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b);
  };
  let back = [255, 255, 255, 1];
  for (let e = node; e && e.nodeType === 1; e = e.parentElement) {
    const c = rgba(getComputedStyle(e).backgroundColor);
    if (c[3] > 0.5) { back = c; break; }
  }
  const fill = svgFill ? node.getAttribute("fill") : null;
  const fore = rgba(fill && fill !== "currentColor" ? fill : getComputedStyle(node).color);
  probe.remove();
  const seen = back.slice(0, 3).map((b, i) => fore[3] * fore[i] + (1 - fore[3]) * b);
  const [a, b] = [lum(seen), lum(back)];
  return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
}
"""


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


def write_notebook(path: Path) -> None:
    cells = [
        {"cell_type": "code", "metadata": {}, "source": src, "outputs": [],
         "execution_count": None}
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

    def shot(self, name: str) -> None:
        path = self.out / f"{self.prefix}-{len(self.shots) + 1:02d}-{name}.png"
        self.page.screenshot(path=str(path))
        self.shots.append(path)

    def run_cell(self, index: int) -> None:
        """Select cell ``index`` and press Shift+Enter, again if the kernel was not ready."""
        cell = self.page.locator(".jp-Notebook .jp-Cell").nth(index)
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
        out = self.page.locator(".jp-Notebook .jp-Cell").nth(index).locator(".jp-OutputArea")
        out.locator(".jp-OutputArea-output").first.wait_for(timeout=timeout * 1000)
        return out.inner_text()

    def widget(self) -> dict:
        return self.page.evaluate(
            """() => {
              const w = document.querySelector('.bitknights-play');
              const g = w.querySelector('g.board');
              return {
                board: g && g.dataset.board,
                status: w.querySelector('.bk-status').textContent,
                message: w.querySelector('.bk-message').textContent,
                moves: [...w.querySelectorAll('.bk-moves li')].map((li) => li.textContent),
                legal: [...w.querySelectorAll('.knight.bk-legal')].map((k) => k.dataset.square),
                still: [...w.querySelectorAll('.knight:not(.bk-legal)')]
                  .map((k) => k.dataset.square),
                hints: w.querySelectorAll('g.hint').length,
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

    def contrast(self, selector: str, svg_fill: bool = False) -> float:
        found = self.page.evaluate(CONTRAST_JS, [selector, svg_fill])
        return 0.0 if found is None else round(found, 2)

    def switch_theme(self, theme: str) -> None:
        page = self.page
        page.locator(".lm-MenuBar-itemLabel", has_text="Settings").first.click()
        page.locator(".lm-Menu-itemLabel", has_text="Theme").first.hover()
        page.locator(".lm-Menu-itemLabel", has_text=theme).first.click()
        page.wait_for_function(
            f"() => document.body.dataset.jpThemeName === {json.dumps(theme)}", timeout=30000
        )
        page.wait_for_timeout(500)


def check_readable(s: Session, check: Check, theme: str) -> None:
    for what, selector, svg_fill in [
        ("status", ".bk-status", False),
        ("moves list", ".bk-moves li", False),
        ("message", ".bk-message", False),
        ("coordinate letters", ".bk-board text.coord", True),
        ("buttons", ".bk-buttons button:not([disabled])", False),
    ]:
        ratio = s.contrast(".bitknights-play " + selector, svg_fill)
        check(ratio >= 4.5, f"{theme}: {what} readable (contrast {ratio}:1)")


def play_through(s: Session, check: Check, source: str, timeout: float) -> None:
    """Play the notebook's game in the page; ``source``: where its distances should come
    from ('table' or 'search'); ``timeout``: seconds the first cell may take."""
    page = s.page
    s.run_cell(0)
    rendered = s.wait_widget("w.querySelector('g.board') !== null", timeout=timeout)
    if not check(rendered, "the widget renders in the first cell's output"):
        s.shot("not-rendered")
        return
    page.locator(".bitknights-play").scroll_into_view_if_needed()
    page.wait_for_timeout(300)
    s.shot("rendered")
    start = s.widget()
    check(start["status"] == "distance 8", f"status says the distance: {start['status']!r}")
    check(len(start["legal"]) > 0, f"knights that may jump are marked: {start['legal']}")
    box = page.locator(".bitknights-play").bounding_box()
    area = page.locator(".jp-Notebook .jp-Cell").first.locator(".jp-OutputArea").bounding_box()
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
        return
    check(len(after["moves"]) == 1 and after["moves"][0].startswith(square),
          f"the moves list shows the move: {after['moves']}")  # fmt: skip
    check(after["status"] in ("distance 7", "distance 9"), f"status after: {after['status']!r}")
    s.shot("after-click")

    page.click('.bitknights-play button[data-op="hint"]')
    shown = s.wait_widget("w.querySelectorAll('g.hint').length > 0")
    check(shown and s.widget()["hints"] == len(s.widget()["legal"]), "hint badges, one a move")
    s.shot("hints")

    before = s.widget()
    still = before["still"][0]
    page.click(f'.bitknights-play .knight[data-square="{still}"]')
    refused = s.wait_widget("w.querySelector('.bk-message').textContent !== ''")
    now = s.widget()
    check(refused, f"a click on {still} (cannot jump) shows a message: {now['message']!r}")
    check(now["board"] == before["board"] and now["moves"] == before["moves"],
          "and changes nothing")  # fmt: skip
    s.shot("refused")

    s.run_cell(1)
    printed = s.cell_text(1).split()
    back = s.wait_widget(f"w.querySelector('g.board').dataset.board === {start['board']!r}")
    now = s.widget()
    check(back and now["moves"] == [], "w.undo() from code: the view goes back to the start")
    check(printed == [start["board"], "0", source], f"the kernel agrees: {printed}")
    check(now["message"] == "", "and clears the message")
    s.shot("undo-from-code")

    s.run_cell(2)
    animating = s.wait_widget("w.classList.contains('bk-animating')", timeout=60)
    check(animating, "w.solve() animates in the view")
    s.shot("solving")
    solved = s.wait_widget("w.querySelector('.bk-status').textContent.startsWith('solved')")
    now = s.widget()
    printed = s.cell_text(2).split()
    check(solved, f"and ends solved: {now['status']!r}")
    check(printed[:1] == [now["board"]] and printed[2:3] == ["True"], f"kernel: {printed}")
    check(len(now["moves"]) == 8, f"in 8 moves: {now['moves']}")
    s.shot("solved")

    check_readable(s, check, "light")
    s.switch_theme("JupyterLab Dark")
    page.click('.bitknights-play button[data-op="undo"]')
    s.wait_widget("w.querySelectorAll('.bk-moves li').length === 7")
    page.click(f'.bitknights-play .knight[data-square="{s.widget()["still"][0]}"]')
    s.wait_widget("w.querySelector('.bk-message').textContent !== ''")
    s.shot("dark")
    check_readable(s, check, "dark")
    s.switch_theme("JupyterLab Light")

    page.set_viewport_size({"width": 760, "height": 900})  # the side panel wraps below
    page.wait_for_timeout(500)
    page.locator(".bitknights-play").scroll_into_view_if_needed()
    box = page.locator(".bitknights-play").bounding_box()
    area = page.locator(".jp-Notebook .jp-Cell").first.locator(".jp-OutputArea").bounding_box()
    check(
        box is not None and area is not None and box["width"] <= area["width"] + 1,
        f"in a narrow window the widget still fits ({box and round(box['width'])} px wide)",
    )
    s.shot("narrow")


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
    write_notebook(tmp / "root" / NOTEBOOK)
    env = private_env(tmp, cache)
    if args.table:
        build = [sys.executable, "-m", "bitknights", "table", "build", "--cache-dir", str(cache)]
        subprocess.run(build, env=env, check=True)
    port = free_port()
    check = Check()
    # errors while the page loads come from the app itself (no bitknights code has run:
    # the widget's module loads when its cell shows it); only later ones fail the check
    errors: dict[str, list[str]] = {"loading": [], "playing": []}
    phase = ["loading"]

    def on_error(text: str) -> None:
        errors[phase[0]].append(text)

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
            try:
                path = "lab/tree" if args.app == "lab" else "notebooks"
                page.goto(f"http://127.0.0.1:{port}/{path}/{NOTEBOOK}")
                page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=120000)
                page.wait_for_load_state("networkidle")
                phase[0] = "playing"
                play_through(session, check, "table" if args.table else "search", args.timeout)
            finally:
                if not session.shots:
                    session.shot("page")
                browser.close()
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
    for text in errors["loading"]:
        print(f"note  while the page loaded, before any bitknights code ran: {text}")
    check(not errors["playing"], "no errors in the browser console" +
          "".join(f"\n      {c}" for c in errors["playing"]))  # fmt: skip
    print(f"screenshots in {args.out}: " + ", ".join(s.name for s in session.shots))
    if args.keep:
        print(f"kept {tmp}")
    else:
        shutil.rmtree(tmp, ignore_errors=True)
    if check.failures:
        print(f"{len(check.failures)} check(s) failed", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
