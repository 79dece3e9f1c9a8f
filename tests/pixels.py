"""Text contrast as a person sees it: a region shot with every text shown and hidden; the
pixels that differ are text, close together one label, whose ink must stand out from what
is behind it.  Used by the browser tests and ``scripts/notebook_check.py``; needs Pillow.
"""

from __future__ import annotations

import io
from typing import NamedTuple

import numpy as np

# Hides every HTML text and nothing else: it goes transparent.
HIDE_TEXT_CSS = """
html.bk-hide-text, html.bk-hide-text * {
  color: transparent !important; -webkit-text-fill-color: transparent !important;
  text-shadow: none !important; caret-color: transparent !important;
}
"""

# Adds the style above; hides each SVG <text> by attribute (page CSS misses what a <use>
# draws); swaps each SVG <img> for a still copy (animations removed) with or without its
# text (an <img> cannot be reached); RESTORE_IMAGES_JS puts the pictures back.
HIDE_TEXT_JS = """
async ([css, hide]) => {
  if (!document.getElementById("bk-hide-text-style")) {
    const style = document.createElement("style");
    style.id = "bk-hide-text-style";
    style.textContent = css;
    document.head.appendChild(style);
  }
  document.documentElement.classList.toggle("bk-hide-text", hide);
  for (const t of document.querySelectorAll("svg text")) {
    if (hide && !t.hasAttribute("data-bk-vis")) {
      t.setAttribute("data-bk-vis", t.getAttribute("visibility") || "");
      t.setAttribute("visibility", "hidden");
    } else if (!hide && t.hasAttribute("data-bk-vis")) {
      const was = t.getAttribute("data-bk-vis");
      if (was) t.setAttribute("visibility", was); else t.removeAttribute("visibility");
      t.removeAttribute("data-bk-vis");
    }
  }
  const loads = [];
  for (const img of document.querySelectorAll("img")) {
    if (!img.dataset.bkShown) {
      if (!img.src.startsWith("data:image/svg+xml")) continue;
      const comma = img.src.indexOf(",");
      const head = img.src.slice(0, comma);
      const body = img.src.slice(comma + 1);
      const text = head.endsWith(";base64")
        ? new TextDecoder().decode(Uint8Array.from(atob(body), (c) => c.charCodeAt(0)))
        : decodeURIComponent(body);
      const doc = new DOMParser().parseFromString(text, "image/svg+xml");
      const url = () => "data:image/svg+xml;charset=utf-8," +
        encodeURIComponent(new XMLSerializer().serializeToString(doc));
      doc.querySelectorAll("animate, animateTransform, animateMotion, set").forEach((a) => a.remove());
      img.dataset.bkOriginal = img.src;
      img.dataset.bkShown = url();
      doc.querySelectorAll("text").forEach((t) => t.remove());
      img.dataset.bkHidden = url();
    }
    const want = hide ? img.dataset.bkHidden : img.dataset.bkShown;
    if (img.src !== want) {
      loads.push(new Promise((done) => { img.onload = done; img.onerror = done; }));
      img.src = want;
    }
  }
  await Promise.all(loads);
  await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
}
"""


class Label(NamedTuple):
    """A label on a shot: box (x0, y0, x1, y1), contrast, luminances of ink and background."""

    box: tuple[int, int, int, int]
    contrast: float
    ink: float
    back: float
    pixels: int


def image(png: bytes) -> np.ndarray:
    """A PNG as an H x W x 3 array of floats 0..255."""
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=np.float64)


def luminance(rgb: np.ndarray) -> np.ndarray:
    """WCAG relative luminance of each pixel (..., 3) of 0..255 values."""
    c = rgb / 255.0
    lin = np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)
    return lin @ np.array([0.2126, 0.7152, 0.0722])


def contrast(a: np.ndarray | float, b: np.ndarray | float) -> np.ndarray | float:
    """WCAG contrast ratio of two luminances (1 to 21)."""
    hi, lo = np.maximum(a, b), np.minimum(a, b)
    return (hi + 0.05) / (lo + 0.05)


def _components(mask: np.ndarray) -> list[list[tuple[int, int]]]:
    """The 8-connected groups of True pixels."""
    seen = np.zeros_like(mask)
    out = []
    h, w = mask.shape
    for y0, x0 in zip(*np.nonzero(mask)):
        if seen[y0, x0]:
            continue
        seen[y0, x0] = True
        stack, group = [(y0, x0)], []
        while stack:
            y, x = stack.pop()
            group.append((y, x))
            for dy in (-1, 0, 1):
                for dx in (-1, 0, 1):
                    ny, nx = y + dy, x + dx
                    if 0 <= ny < h and 0 <= nx < w and mask[ny, nx] and not seen[ny, nx]:
                        seen[ny, nx] = True
                        stack.append((ny, nx))
        out.append(group)
    return out


def _differ(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Where two shots of a region differ (more than anti-aliasing noise)."""
    return np.abs(a - b).max(axis=2) > 20


def _near(mask: np.ndarray, gap: int) -> np.ndarray:
    """``mask`` grown by ``gap`` pixels in every direction."""
    out = mask.copy()
    for dy in range(-gap, gap + 1):
        for dx in range(-gap, gap + 1):
            out |= np.roll(np.roll(mask, dy, axis=0), dx, axis=1)
    return out


def labels(
    shown: np.ndarray,
    hidden: np.ndarray,
    *,
    moving: np.ndarray | None = None,
    gap: int = 4,
    least: int = 14,
) -> list[Label]:
    """The labels of a region: pixels that differ between ``shown`` and ``hidden``, grouped
    when less than ``gap`` pixels apart; groups under ``least`` pixels (anti-aliasing
    elsewhere: up to 12; the smallest label has 16) or touching ``moving`` are dropped.  A
    label's contrast is its inkiest pixels' (the 90th percentile)."""
    differ = _differ(shown, hidden)
    near = _near(differ, gap)
    ink_l, back_l = luminance(shown), luminance(hidden)
    found = []
    for group in _components(near):
        ys, xs = np.array([p[0] for p in group]), np.array([p[1] for p in group])
        if moving is not None and moving[ys, xs].any():
            continue
        real = differ[ys, xs]
        if real.sum() < least:
            continue
        ys, xs = ys[real], xs[real]
        c = contrast(ink_l[ys, xs], back_l[ys, xs])
        core = c >= np.percentile(c, 90)
        found.append(
            Label(
                (int(xs.min()), int(ys.min()), int(xs.max()) + 1, int(ys.max()) + 1),
                round(float(np.percentile(c, 90)), 2),
                round(float(ink_l[ys, xs][core].mean()), 4),
                round(float(back_l[ys, xs][core].mean()), 4),
                int(real.sum()),
            )
        )
    return found


RESTORE_IMAGES_JS = """async () => {
  const loads = [];
  for (const img of document.querySelectorAll("img[data-bk-original]")) {
    loads.push(new Promise((done) => { img.onload = done; img.onerror = done; }));
    img.src = img.dataset.bkOriginal;
    delete img.dataset.bkOriginal; delete img.dataset.bkShown; delete img.dataset.bkHidden;
  }
  await Promise.all(loads);
}"""

# Stops (or restarts) the SMIL animations of the page's own SVGs (an <img> cannot be reached).
PAUSE_JS = """(pause) => document.querySelectorAll("svg").forEach((s) => {
  if (s.pauseAnimations) { if (pause) s.pauseAnimations(); else s.unpauseAnimations(); }
})"""


def page_labels(page, clip: dict | None = None, *, least: int = 0, tries: int = 6) -> list[Label]:
    """The labels Playwright's ``page`` shows (within ``clip``): shots with text, without,
    with, without, animations paused; what changed between two shots of a kind is left out.
    Tried again (up to ``tries`` times) while fewer than ``least`` labels are found."""
    page.evaluate(PAUSE_JS, True)
    found: list[Label] = []
    try:
        for _ in range(tries):
            shots = []
            for hide in (False, True, False, True):
                page.evaluate(HIDE_TEXT_JS, [HIDE_TEXT_CSS, hide])
                shots.append(image(page.screenshot(clip=clip)))
            page.evaluate(HIDE_TEXT_JS, [HIDE_TEXT_CSS, False])
            shown, hidden, shown2, hidden2 = shots
            changed = _differ(shown, shown2) | _differ(hidden, hidden2)
            moving = _near(changed, 4)
            found = labels(shown, hidden, moving=moving if moving.any() else None)
            if len(found) >= least:
                break
        return found
    finally:
        page.evaluate(RESTORE_IMAGES_JS)
        page.evaluate(PAUSE_JS, False)


def rgb(css: str) -> np.ndarray:
    """``'#rrggbb'`` as an array of three 0..255 values."""
    return np.array([int(css[i : i + 2], 16) for i in (1, 3, 5)], dtype=np.float64)


def check_framed_figure(fig, least: int, frame: str) -> list[Label]:
    """A plot that reads on any notebook theme: every label 4.5:1 against what is behind it,
    a ``frame``-coloured border two pixels deep all round, the frame 3:1 on a white page and
    the inside on a near-black one.  Returns the labels (texts drawn, then transparent)."""
    from matplotlib.text import Text

    png = image(fig._repr_png_())
    fig.set_layout_engine("none")  # the layout stays as drawn
    texts = [t for t in fig.findobj(Text) if t.get_visible() and t.get_text()]
    alphas = [t.get_alpha() for t in texts]
    for t in texts:
        t.set_alpha(0.0)
    try:
        found = labels(png, image(fig._repr_png_()))
    finally:
        for t, a in zip(texts, alphas):
            t.set_alpha(a)
    assert len(found) >= least, (len(found), least)
    poor = [lb for lb in found if lb.contrast < 4.5]
    assert not poor, poor
    ring = np.concatenate([png[:2].reshape(-1, 3), png[-2:].reshape(-1, 3),
                           png[:, :2].reshape(-1, 3), png[:, -2:].reshape(-1, 3)])  # fmt: skip
    assert np.abs(ring - rgb(frame)).max() <= 8, "the frame runs all round"
    inside = png[png.shape[0] // 2, 12]  # the paper just inside the frame, at mid-height
    assert contrast(luminance(rgb(frame)), luminance(rgb("#ffffff"))) >= 3
    assert contrast(luminance(inside), luminance(rgb("#111111"))) >= 3
    return found
