"""Regenerate the malformed-input corpus: ``python tests/corpus/make_corpus.py``.  Each
case is ``NN_name.txt``; ``expected.json`` holds the exit status and exact standard error
(or output) of ``bitknights solve FILE``, written by hand from the format rules."""

import json
from pathlib import Path

B1 = b"10110\n01*11\n10111\n01001\n00000\n"
B2 = b"01011\n110*1\n01110\n01010\n00100\n"
ROW = "expected a row of five characters from '0', '1', '*', got"

CASES: list[tuple[str, bytes, int, str]] = [
    ("binary_junk", bytes(range(256)) * 4, 2, "line 1: expected the number of boards T (a positive integer), got '\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08'"),
    ("binary_junk_after_t", b"1\n" + bytes(range(255, -1, -1)), 2, "line 2: the input is not UTF-8 text"),
    ("nul_in_row", b"1\n10110\n01*\x0011\n10111\n01001\n00000\n", 2, f"line 3: board 1, row 2: {ROW} '01*\\x0011' (6 characters, character 4 is '\\x00')"),
    ("nul_only", b"\x00" * 64, 2, "line 1: expected the number of boards T (a positive integer), got '" + "\\x00" * 37 + "...'"),
    ("huge_t_short_file", b"999999999\n" + B1, 2, "line 7: expected 999999999 boards, found 1"),
    ("t_too_large", b"123456789012345678901234\n" + B1, 2, "line 1: the number of boards T is too large: '123456789012345678901234'"),
    ("tabs_around_rows", b"\t2\t\n" + b"".join(b"\t" + r + b" \t\n" for r in (B1 + B2).split(b"\n")[:-1]), 0, "7\n-1\n"),
    ("unicode_digit_t", "\u0662\n".encode() + B1 + B2, 2, "line 1: expected the number of boards T (a positive integer), got '\u0662'"),
    ("fullwidth_row", b"1\n" + "\uff11\uff10\uff11\uff11\uff10\n".encode() + B1[6:], 2, f"line 2: board 1, row 1: {ROW} '\uff11\uff10\uff11\uff11\uff10' (character 1 is '\uff11')"),
    ("bom", b"\xef\xbb\xbf2\n" + B1 + B2, 0, "7\n-1\n"),
    ("mixed_line_endings", b"2\r\n" + B1.replace(b"\n", b"\r", 2) + B2.replace(b"\n", b"\r\n"), 0, "7\n-1\n"),
    ("cr_only", (b"2\n" + B1 + B2).replace(b"\n", b"\r"), 0, "7\n-1\n"),
    ("two_blanks", b"1\n10110\n01*11\n10*11\n01001\n00000\n", 2, "line 2: board 1: a board needs exactly one blank '*', found 2 (12 white knights, 11 black, 2 blanks)"),
    ("no_blank", b"2\n" + B1 + B2.replace(b"*", b"0"), 2, "line 7: board 2: a board needs exactly one blank '*', found 0 (13 white knights, 12 black, 0 blanks)"),
    ("five_blanks", b"1\n*****\n01111\n10111\n01001\n00000\n", 2, "line 2: board 1: a board needs exactly one blank '*', found 5 (10 white knights, 10 black, 5 blanks)"),
    ("fewer_boards", b"3\n" + B1 + B2, 2, "line 12: expected 3 boards, found 2"),
    ("board_cut_short", b"2\n" + B1 + B2[:12], 2, "line 9: board 2 is cut short: expected row 3 of 5, found the end of the input"),
    ("more_boards", b"1\n" + B1 + B2, 2, "line 7: unexpected content after the 1 board: '01011'"),
    ("trailing_junk", b"2\n" + B1 + B2 + b"\n\nEOF\n", 2, "line 14: unexpected content after the 2 boards: 'EOF'"),
    ("empty", b"", 2, "line 1: empty input: expected the number of boards T"),
    ("whitespace_only", b" \n\t\n\r\n", 2, "line 1: empty input: expected the number of boards T"),
    ("t_zero", b"0\n", 2, "line 1: the number of boards T must be positive, got 0"),
    ("t_negative", b"-2\n" + B1 + B2, 2, "line 1: expected the number of boards T (a positive integer), got '-2'"),
    ("t_float", b"2.0\n" + B1 + B2, 2, "line 1: expected the number of boards T (a positive integer), got '2.0'"),
    ("t_hex", b"0x2\n" + B1 + B2, 2, "line 1: expected the number of boards T (a positive integer), got '0x2'"),
    ("t_and_row_on_one_line", b"1 10110\n01*11\n10111\n01001\n00000\n", 2, "line 1: expected the number of boards T (a positive integer), got '1 10110'"),
    ("row_too_long", b"1\n101100\n01*11\n10111\n01001\n00000\n", 2, f"line 2: board 1, row 1: {ROW} '101100' (6 characters)"),
    ("row_too_short", b"1\n10110\n01*11\n1011\n01001\n00000\n", 2, f"line 4: board 1, row 3: {ROW} '1011' (4 characters)"),
    ("space_inside_row", b"1\n10110\n01*11\n10 111\n01001\n00000\n", 2, f"line 4: board 1, row 3: {ROW} '10 111' (6 characters, character 3 is ' ')"),
    ("letter_o", b"1\n10110\n01*11\n1O111\n01001\n00000\n", 2, f"line 4: board 1, row 3: {ROW} '1O111' (character 2 is 'O')"),
    ("compact_board_line", b"1\n1011001*111011101001" b"00000\n", 2, f"line 2: board 1, row 1: {ROW} '1011001*11101110100100000' (25 characters)"),
    ("utf16", "2\n".encode("utf-16"), 2, "line 1: the input is not UTF-8 text"),
    ("latin1_byte", b"1\n10110\n01*11\n10111\n01001\n0000\xe9\n", 2, "line 6: the input is not UTF-8 text"),
    ("row_with_comment", b"1\n10110 # first\n01*11\n10111\n01001\n00000\n", 2, f"line 2: board 1, row 1: {ROW} '10110 # first' (13 characters, character 6 is ' ')"),
    ("row_split", b"1\n101\n10\n01*11\n10111\n01001\n00000\n", 2, f"line 2: board 1, row 1: {ROW} '101' (3 characters)"),
    ("only_t", b"5\n", 2, "line 2: expected 5 boards, found 0"),
    ("leading_zeros_t", b"0002\n" + B1 + B2, 0, "7\n-1\n"),
    ("no_final_newline", (b"2\n" + B1 + B2)[:-1], 0, "7\n-1\n"),
    ("blank_lines_everywhere", b"\n\n2\n\n" + B1.replace(b"\n", b"\n\n") + b"\n" + B2 + b"\n\n", 0, "7\n-1\n"),
    ("vertical_tab_form_feed", b"\x0b2\x0c\n" + B1 + B2, 0, "7\n-1\n"),
    ("wrong_knight_counts", b"1\n11110\n01*11\n10111\n01001\n00000\n", 0, "-1\n"),
    ("unicode_line_separator", "1\u2028\n".encode() + B1, 2, "line 1: expected the number of boards T (a positive integer), got '1\\u2028'"),
    ("no_count_line", B1, 2, "line 1: this line was read as the number of boards T (10110), but it looks like a board row: the input seems to lack its count line; add a first line '1'"),
    ("no_count_line_two_boards", B1 + B2, 2, "line 1: this line was read as the number of boards T (10110), but it looks like a board row: the input seems to lack its count line; add a first line '2'"),
    ("no_count_line_blank_first", B2[6:] + B1, 2, "line 1: expected the number of boards T (a positive integer), got '110*1', which looks like a board row: the input seems to lack its count line; add a first line with the number of boards ('1' for one board)"),
    ("no_count_line_zero_row", b"00000\n" + B1[6:], 2, "line 1: expected the number of boards T (a positive integer), got '00000', which looks like a board row: the input seems to lack its count line; add a first line with the number of boards ('1' for one board)"),
    ("row_like_t_then_bad_row", b"11111\n" + B1[:6] + b"0110\n", 2, f"line 3: board 1, row 2: {ROW} '0110' (4 characters)"),
]  # fmt: skip


def main() -> None:
    here = Path(__file__).parent
    for old in here.glob("[0-9][0-9]_*.txt"):
        old.unlink()
    expected = {}
    for i, (name, data, status, text) in enumerate(CASES):
        fname = f"{i:02d}_{name}.txt"
        (here / fname).write_bytes(data)
        if status == 0:
            expected[fname] = {"status": 0, "stdout": text}
        else:
            expected[fname] = {"status": 2, "stderr": f"bitknights: error: {{file}}: {text}\n"}
    (here / "expected.json").write_text(json.dumps(expected, indent=1, ensure_ascii=False) + "\n")


if __name__ == "__main__":
    main()
