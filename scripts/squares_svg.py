"""Write the README's picture of the square names: the 5x5 board, each square labelled
with its chess name (``bitknights.square_name``), files along the top, ranks down the side.

    python scripts/squares_svg.py docs/squares.svg
"""

from __future__ import annotations

import argparse
from pathlib import Path

from bitknights.squares import NUM_SQUARES, SIZE, square_color, square_name

S = 60  # a square's side
M = 30  # the margin that holds the file letters and rank numbers
LIGHT, DARK, INK = "#f0d9b5", "#b58863", "#1a1a1a"
FONT = 'font-family="sans-serif" text-anchor="middle"'


def squares_svg() -> str:
    """The picture as a standalone SVG document (deterministic: same text every time)."""
    side = M + SIZE * S
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{side}" height="{side}" '
        f'viewBox="0 0 {side} {side}">',
        "<title>bitknights square names: files a-e left to right, ranks 1-5 from the bottom; "
        "the first input line is rank 5</title>",
        f'<rect width="{side}" height="{side}" fill="#ffffff"/>',
    ]
    for sq in range(NUM_SQUARES):
        r, c = divmod(sq, SIZE)
        x, y = M + c * S, M + r * S
        fill = DARK if square_color(sq) else LIGHT
        parts.append(f'<rect x="{x}" y="{y}" width="{S}" height="{S}" fill="{fill}"/>')
        parts.append(
            f'<text x="{x + S // 2}" y="{y + S // 2 + 8}" {FONT} font-size="22" '
            f'fill="{INK}">{square_name(sq)}</text>'
        )
    for i in range(SIZE):
        parts.append(
            f'<text x="{M + i * S + S // 2}" y="{M - 9}" {FONT} font-size="18" '
            f'fill="{INK}">{square_name(i)[0]}</text>'
        )
        parts.append(
            f'<text x="{M // 2}" y="{M + i * S + S // 2 + 6}" {FONT} font-size="18" '
            f'fill="{INK}">{square_name(i * SIZE)[1:]}</text>'
        )
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("out", type=Path, help="the SVG file to write")
    args = parser.parse_args()
    args.out.write_text(squares_svg(), encoding="utf-8")


if __name__ == "__main__":
    main()
