"""The whole-page context labeler (``neural/context.py``): its inputs, the shipped model on a
page, pickling, and a missing or corrupt model failing when the chain is built."""

import pickle
import shutil
import sys
from pathlib import Path

import numpy as np
import pytest

from scrapy_boilerplate import build_chain, extract, get_extractor
from scrapy_boilerplate.errors import ModelUnavailableError
from scrapy_boilerplate.neural import context as context_module
from scrapy_boilerplate.neural.context import ContextLabeler, context_inputs
from scrapy_boilerplate.neural.features import Normalizer
from scrapy_boilerplate.neural.model import DEFAULT_MODEL_DIR
from scrapy_boilerplate.parse import parse_html

ARTICLE = (Path(__file__).parent / "article.html").read_text(encoding="utf-8")

pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")


def test_each_row_holds_the_block_and_the_edges_on_either_side():
    blocks = np.arange(6, dtype=np.float32).reshape(3, 2)  # 3 blocks, 2 columns
    edges = np.array([[10.0], [20.0]], dtype=np.float32)  # 2 edges, 1 column
    identity = Normalizer([0, 0], [1, 1], [0], [1])
    rows = context_inputs(identity, blocks, edges)
    # block, edge to the previous block, edge to the next (0 at the page's ends)
    assert rows.tolist() == [[0, 1, 0, 10], [2, 3, 10, 20], [4, 5, 20, 0]]
    assert context_inputs(identity, blocks[:1], edges[:0]).tolist() == [[0, 1, 0, 0]]


def test_the_shipped_model_keeps_the_story_and_drops_the_page_furniture():
    text = extract(ARTICLE, extractor="context").text
    assert "engineers closed it when cracks were found" in text
    assert "The council said it would review" in text
    for boilerplate in ("Privacy policy", "Cookie settings", "Share on Facebook"):
        assert boilerplate not in text, boilerplate


def test_one_block_no_blocks_and_composition():
    labeler = ContextLabeler()
    doc = parse_html("<html><body><p>Only one block of text, a short sentence.</p></body></html>")
    labeler(doc)
    assert isinstance(doc.blocks[0].is_content, bool)
    assert labeler(parse_html("")) is False
    assert extract("", extractor="context").reason == "empty_input"
    ex = get_extractor(["context", {"min_words": {"min_words": 20}}])
    assert "cracks were found" in ex.extract(ARTICLE).text


def test_the_labeler_pickles_as_plain_data():
    labeler = ContextLabeler()
    data = pickle.dumps(labeler)
    assert b"InferenceSession" not in data
    ex = pickle.loads(pickle.dumps(get_extractor("context")))
    assert "cracks were found" in ex.extract(ARTICLE).text


def test_a_missing_or_corrupt_model_fails_when_the_chain_is_built(tmp_path, monkeypatch):
    monkeypatch.setattr(context_module, "_models", {})
    with pytest.raises(ModelUnavailableError, match="context model file missing"):
        build_chain([{"context": {"model_dir": str(tmp_path)}}])
    model = tmp_path / "model"
    shutil.copytree(DEFAULT_MODEL_DIR, model)
    (model / "context.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelUnavailableError, match="cannot load the context model"):
        build_chain([{"context": {"model_dir": str(model)}}])
    (model / "context.json").write_text("{broken")
    with pytest.raises(ModelUnavailableError, match="cannot read"):
        build_chain([{"context": {"model_dir": str(model)}}])


def test_a_missing_runtime_fails_when_the_chain_is_built(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)
    monkeypatch.setattr(context_module, "_models", {})
    with pytest.raises(ModelUnavailableError, match="pip install onnxruntime"):
        build_chain("context")


def test_a_page_of_thousands_of_blocks_is_labelled_in_one_pass():
    paragraph = "<p>" + " ".join(["word"] * 30) + " end.</p>"
    result = extract("<html><body>" + paragraph * 5000 + "</body></html>", extractor="context")
    assert result.text.count("end.") > 0
