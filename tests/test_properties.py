"""Property-based tests (hypothesis): the parser and the engines on arbitrary input."""

import io

import numpy as np
import pytest
from hypothesis import strategies as st

from bitknights import Board, InputError, read_batch
from bitknights.batch import BatchReader
from helpers import many_and_few

ROW_CHARS = st.sampled_from("01*")
ROW = st.text(ROW_CHARS, min_size=5, max_size=5)
NOISE = st.sampled_from(["", " ", "\t", "\r", "\n", "\r\n", "x", "2", "**", "\x00", "\ufeff"])


def parser_on_arbitrary_input(data):
    """Boards, or an error naming its line."""
    try:
        boards = read_batch(data)
    except InputError as e:
        assert str(e).startswith(f"line {e.line}: ") and e.line >= 1
        return
    assert all(isinstance(b, Board) for b in boards)


test_parser_on_arbitrary_bytes, test_parser_on_arbitrary_bytes_a_few = many_and_few(
    parser_on_arbitrary_input, st.binary(max_size=400), many=300
)
test_parser_on_arbitrary_text, test_parser_on_arbitrary_text_a_few = many_and_few(
    parser_on_arbitrary_input, st.text(max_size=300), many=300
)


@st.composite
def batches(draw):
    """A well-formed batch, then possibly one corruption."""
    n = draw(st.integers(1, 6))
    rows = []
    for _ in range(n):
        cells = draw(st.lists(st.sampled_from("01"), min_size=24, max_size=24))
        cells.insert(draw(st.integers(0, 24)), "*")
        rows += ["".join(cells[i : i + 5]) for i in range(0, 25, 5)]
    lines = [str(n), *rows]
    corrupted = draw(st.booleans())
    if corrupted:
        i = draw(st.integers(0, len(lines)))
        lines.insert(i, draw(NOISE) + draw(ROW) * draw(st.integers(0, 2)))
    sep = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    return sep.join(lines) + draw(st.sampled_from(["", sep])), n, rows, corrupted


def any_block_size_gives_the_same_result(batch, block_size):
    """Streaming in blocks of any size agrees with reading the text at once."""
    text, n, rows, corrupted = batch
    data = text.encode()
    try:
        whole = [b.key for b in read_batch(text)]
    except InputError as e:
        whole_err = str(e)
        try:
            list(BatchReader(io.BytesIO(data), block_size=block_size).chunks())
        except InputError as e2:
            assert str(e2) == whole_err
        else:
            raise AssertionError("a block size hid an error") from None
        return
    chunks = list(BatchReader(io.BytesIO(data), block_size=block_size).chunks())
    keys = np.concatenate(chunks).tolist() if chunks else []
    assert keys == whole and len(keys) == n
    expect = [Board("".join(rows[5 * k : 5 * k + 5])).key for k in range(n)]
    if not corrupted:
        assert keys == expect


test_any_block_size_gives_the_same_result, test_a_few_block_sizes_give_the_same_result = (
    many_and_few(any_block_size_gives_the_same_result, batches(), st.integers(1, 64))
)


def _read(method, data, block_size):
    """The keys ``BatchReader.<method>`` yields, or the error it raises."""
    try:
        reader = BatchReader(io.BytesIO(data), block_size=block_size)
        return [int(k) for chunk in getattr(reader, method)() for k in chunk]
    except InputError as e:
        return str(e)


def plain_lists_and_numpy_arrays_agree(data, block_size):
    """The numpy-free reader (small inputs) and the numpy one give the same keys or the
    same error, whatever the input and the block size."""
    assert _read("key_lists", data, block_size) == _read("chunks", data, block_size)


test_plain_lists_and_numpy_arrays_agree, test_plain_lists_and_numpy_arrays_agree_on_a_few = (
    many_and_few(plain_lists_and_numpy_arrays_agree, st.one_of(
        st.binary(max_size=400), batches().map(lambda b: b[0].encode())), st.integers(1, 64))
)  # fmt: skip


@pytest.mark.parametrize("block_size", range(1, 9))
@pytest.mark.parametrize(
    "text",
    [
        "\ufeff\n1\n*0000\n00000\n00000\n11111\n11111\n11\n",  # the case hypothesis found
        "\ufeff1\r\n11111\r\n01111\r\n00*11\r\n00001\r\n00000\r\n",
        "\ufeff",
        "\ufeff\r\n\r\n2\r\n" + "11111\r\n01111\r\n00*11\r\n00001\r\n00000\r\n" * 2,
    ],
)
def test_byte_order_mark_and_crlf_split_over_blocks(text, block_size):
    """The same keys, or the same error, whatever the block size (issue 11)."""
    data = text.encode()
    assert _read("key_lists", data, block_size) == _read("key_lists", data, 1 << 20)
