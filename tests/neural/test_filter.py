"""The web2text labeler (``neural/filter.py``): shipped model, chains, pickling, lazy runtime,
missing onnxruntime."""

import pickle
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from scrapy_boilerplate import EXTRACTORS, build_chain, extract, get_extractor
from scrapy_boilerplate.errors import ModelUnavailableError
from scrapy_boilerplate.neural import model as model_module
from scrapy_boilerplate.neural.filter import Web2TextLabeler
from scrapy_boilerplate.neural.model import DEFAULT_MODEL_DIR
from scrapy_boilerplate.parse import parse_html

HERE = Path(__file__).parent
ARTICLE = (HERE / "article.html").read_text(encoding="utf-8")
DATA = HERE.parents[2] / "shared" / "data"

pytest.importorskip("onnxruntime", reason="onnxruntime is not installed")


def test_importing_the_package_loads_no_runtime():
    code = (
        "import sys, scrapy_boilerplate\n"
        "from scrapy_boilerplate import EXTRACTORS\n"
        "assert 'web2text' in EXTRACTORS\n"
        "assert 'onnxruntime' not in sys.modules, 'onnxruntime imported'\n"
        "assert 'torch' not in sys.modules, 'torch imported'\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_shipped_model_files_are_small():
    files = sorted(f.name for f in DEFAULT_MODEL_DIR.glob("*.onnx"))
    assert files == [
        "boosted.onnx",
        "context.onnx",
        "web2text_pairwise.onnx",
        "web2text_unary.onnx",
    ]
    lm_fast = {"lm_fast.json", "lm_fast_scores.npy"}
    sizes = {f.name: f.stat().st_size for f in DEFAULT_MODEL_DIR.iterdir() if f.is_file()}
    assert sizes["boosted.onnx"] < 1_000_000
    assert sum(size for name, size in sizes.items() if name not in lm_fast) < 1_500_000
    # lm_fast ships its 250,002 tokens' scores (2 MB), not the distilled table (96 MB),
    # nor the tokenizer (7.6 MB: built from the weights package where it runs)
    assert sum(sizes[name] for name in lm_fast) < 2_100_000
    assert "lm_tokenizer.json" not in sizes
    # the default's second model, for pages that declare a discussion
    discussions = {f.name: f.stat().st_size for f in (DEFAULT_MODEL_DIR / "discussions").iterdir()}
    assert sorted(discussions) == ["boosted.json", "boosted.onnx"]
    assert discussions["boosted.onnx"] < 1_000_000
    assert sum(sizes.values()) + sum(discussions.values()) < 5_000_000  # every shipped file
    assert (DEFAULT_MODEL_DIR / "MODEL_CARD.md").is_file()


def test_shipped_model_labels_an_article_page_sensibly():
    result = extract(ARTICLE, extractor="web2text")
    text = result.text
    assert "engineers closed it when cracks were found" in text
    assert "The council said it would review" in text
    for boilerplate in ("Privacy policy", "Cookie settings", "Share on Facebook", "Politics"):
        assert boilerplate not in text, boilerplate


def test_shipped_model_on_a_real_page():
    truth = DATA / "cleaneval-train" / "truth.jsonl"
    if not truth.is_file():
        pytest.skip("shared/data is not beside the repository")
    from scrapy_boilerplate.evaluation.datasets import open_dataset
    from scrapy_boilerplate.evaluation.metrics import score_page

    scores = []
    for page in open_dataset(DATA / "cleaneval-train").iter_pages(limit=10):
        got = extract(page.html, extractor="web2text").text
        scores.append(score_page(page.main_text, got).f1)
    assert sum(scores) / len(scores) > 0.6


def test_composes_with_boilerpipe_filters():
    chain = build_chain(["web2text", "min_words"])
    doc = parse_html(ARTICLE)
    chain(doc)
    kept = [b for b in doc.blocks if b.is_content]
    assert kept and all(b.num_words >= 10 for b in kept)  # MinWordsFilter's default
    ex = get_extractor(["web2text", {"min_words": {"min_words": 20}}])
    assert "cracks were found" in ex.extract(ARTICLE).text


def test_one_block_and_no_blocks():
    f = Web2TextLabeler()
    doc = parse_html("<html><body><p>Only one block of text, a short sentence.</p></body></html>")
    assert len(doc.blocks) == 1
    f(doc)
    assert isinstance(doc.blocks[0].is_content, bool)
    empty = parse_html("")
    assert f(empty) is False
    assert extract("", extractor="web2text").text == ""


def test_filter_pickles_without_sessions():
    f = Web2TextLabeler(threads=1)
    f(parse_html(ARTICLE))  # loads the model
    data = pickle.dumps(f)
    assert b"InferenceSession" not in data
    g = pickle.loads(data)
    assert g == f
    ex = pickle.loads(pickle.dumps(get_extractor("web2text")))
    assert "cracks were found" in ex.extract(ARTICLE).text


def test_one_model_per_process_and_thread_safe():
    f = Web2TextLabeler()
    results = []

    def work():
        results.append(get_extractor("web2text").extract(ARTICLE).text)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(results)) == 1
    assert f.model() is Web2TextLabeler().model()


def test_a_missing_runtime_fails_when_the_chain_is_built(monkeypatch):
    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # import fails
    monkeypatch.setattr(model_module, "_models", {})
    with pytest.raises(ModelUnavailableError, match="pip install onnxruntime"):
        build_chain("web2text")  # not a page: the chain
    # nothing else breaks
    assert "cracks were found" in extract(ARTICLE, extractor="article").text
    assert "web2text" in EXTRACTORS


def test_a_missing_model_directory_fails_when_the_chain_is_built(tmp_path, monkeypatch):
    monkeypatch.setattr(model_module, "_models", {})
    with pytest.raises(ModelUnavailableError, match="missing"):
        Web2TextLabeler(model_dir=str(tmp_path))
    with pytest.raises(ModelUnavailableError, match="missing"):
        get_extractor([{"web2text": {"model_dir": str(tmp_path)}}])


def test_a_corrupt_model_file_fails_when_the_chain_is_built(tmp_path, monkeypatch):
    import shutil

    monkeypatch.setattr(model_module, "_models", {})
    shutil.copytree(DEFAULT_MODEL_DIR, tmp_path / "model")
    (tmp_path / "model" / "web2text_unary.onnx").write_bytes(b"not a model")
    with pytest.raises(ModelUnavailableError, match="cannot load the web2text model"):
        get_extractor([{"web2text": {"model_dir": str(tmp_path / "model")}}])
    (tmp_path / "model" / "web2text.json").write_text("{broken")
    with pytest.raises(ModelUnavailableError, match="cannot read"):
        get_extractor([{"web2text": {"model_dir": str(tmp_path / "model")}}])


def test_long_pages_run_through_the_networks_in_chunks_with_the_same_outputs(monkeypatch):
    import numpy as np

    from scrapy_boilerplate.neural.features import page_features
    from scrapy_boilerplate.neural.model import get_model

    model = get_model()
    rows = "".join(
        f"<p>item {i} with some words{' x' * (i % 7)}</p>" + ('<a href="#">nav</a>' * (i % 3))
        for i in range(3000)
    )
    features, edges = page_features(parse_html(f"<html><body>{rows}"), extended=model.extended)
    whole = model.log_probs(features, edges)
    monkeypatch.setattr(model_module, "CHUNK_ROWS", 257)
    chunked = model.log_probs(features, edges)
    assert len(features) > 3 * 257
    for a, b in zip(whole, chunked, strict=True):
        assert np.array_equal(a, b)
