"""How many bytes a saved notebook spends on a Solution's output (every MIME type IPython
makes of it, as nbformat writes them), and on the other pictures.

    python scripts/output_sizes.py [BOARD ...] [--cache-dir DIR]

Default boards: the classic sample (7 moves) and a board 36 moves away.  Each is solved
exactly (with the distance table in ``--cache-dir`` when there is one, else by search: a
few seconds for far boards).  Prints one line a picture: its moves, the MIME types and the
bytes in the notebook file.
"""

from __future__ import annotations

import argparse

from IPython.core.formatters import DisplayFormatter

import bitknights as bk

BOARDS = ["10110/01*11/10111/01001/00000", "01100/10001/11*00/10010/11101"]


def stored_size(obj: object) -> tuple[list[str], int]:
    """The MIME types IPython makes of ``obj`` and the bytes its output adds to a notebook
    file."""
    import nbformat  # here: its schema checks take seconds to import, and --help needs none

    data, metadata = DisplayFormatter().format(obj)
    out = nbformat.v4.new_output("execute_result", data=data, metadata=metadata)

    def size(outputs: list) -> int:
        nb = nbformat.v4.new_notebook()
        nb.cells = [nbformat.v4.new_code_cell("x", outputs=outputs)]
        return len(nbformat.writes(nb).encode())

    return sorted(data), size([out]) - size([])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("boards", nargs="*", default=BOARDS, help="boards to solve (default: two)")
    ap.add_argument("--cache-dir", help="where a distance table may be")
    args = ap.parse_args()
    for text in args.boards:
        board = bk.Board(text)
        s = bk.solve(board, max_depth=None, cache_dir=args.cache_dir)
        kinds, n = stored_size(s)
        print(f"Solution, {s.steps} moves: {n:,} bytes ({', '.join(kinds)})")
        kinds, n = stored_size(board)
        print(f"Board: {n:,} bytes ({', '.join(kinds)})")


if __name__ == "__main__":
    main()
