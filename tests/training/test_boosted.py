"""Training the boosted labeler on a tiny set: corpus, trees, ONNX export equal to
LightGBM's own probabilities, the same bytes again, and the train command."""

import json
import os
import subprocess
import sys

import numpy as np
import pytest

from scrapy_boilerplate import get_extractor
from scrapy_boilerplate.cli import main
from scrapy_boilerplate.neural.boosted import BoostedModel
from scrapy_boilerplate.neural.boosted_features import BOOSTED_FEATURES

from .test_train import tiny_set  # noqa: F401 - the fixture

pytest.importorskip("lightgbm", reason="the train extra is not installed")
pytest.importorskip("onnxmltools", reason="the train extra is not installed")

from scrapy_boilerplate.training.boosted import (  # noqa: E402
    BoostedConfig,
    BoostedCorpus,
    block_weights,
    build_boosted_corpus,
    export_boosted,
    other_type_factors,
    predict_pages,
    train_boosted,
)

TINY = BoostedConfig(trees=8, leaves=4, max_depth=3, min_child_samples=2, threads=1)


def test_the_corpus_holds_features_labels_and_words_per_page(tiny_set, tmp_path):  # noqa: F811
    corpus = build_boosted_corpus([tiny_set], cache=tmp_path)
    assert len(corpus) == 6
    assert corpus.features.shape == (len(corpus.labels), len(BOOSTED_FEATURES))
    assert len(corpus.words) == len(corpus.labels) == corpus.offsets[-1]
    assert set(np.unique(corpus.labels)) <= {-1, 0, 1} and (corpus.labels == 1).any()
    # cached: the second build loads the same arrays
    again = build_boosted_corpus([tiny_set], cache=tmp_path)
    assert np.array_equal(again.features, corpus.features)
    assert list(tmp_path.glob("boosted-corpus-*.npz"))


def test_exported_trees_give_lightgbms_probabilities_and_the_same_bytes(tiny_set, tmp_path):  # noqa: F811
    corpus = build_boosted_corpus([tiny_set])
    trees = train_boosted(corpus, TINY)
    paths = export_boosted(trees, tmp_path / "a", TINY, {"note": "test"})
    model = BoostedModel(tmp_path / "a")
    rows = corpus.features
    expected = trees.predict_proba(rows)[:, 1]
    assert np.allclose(model.content_probability(rows), expected, atol=1e-5)
    meta = json.loads(paths["meta"].read_text())
    assert meta["features"] == list(BOOSTED_FEATURES)
    assert meta["short_words"] == TINY.short_words and meta["training"] == {"note": "test"}
    # deterministic: the same data and seed give the same files
    export_boosted(train_boosted(corpus, TINY), tmp_path / "b", TINY, {"note": "test"})
    assert (tmp_path / "b" / "boosted.onnx").read_bytes() == paths["onnx"].read_bytes()
    # the labeler with this model learned the tiny set's stories
    ex = get_extractor([{"boosted": {"model_dir": str(tmp_path / "a")}}])
    html = (tiny_set / "pages" / "3.html").read_text()
    assert "Libraries will open longer" in ex.extract(html).text
    decisions = predict_pages(trees, corpus, range(len(corpus)), TINY)
    assert len(decisions) == len(corpus.labels)


def test_blocks_weigh_by_their_words_and_page_balance_evens_out_the_pages():
    # two pages: two blocks of one word, then three of three words
    words = np.array([1, 1, 3, 3, 3])
    corpus = BoostedCorpus(np.zeros((5, 1)), np.ones(5), words, np.array([0, 2, 5]), [], ["a", "b"])
    rows = np.arange(5)
    plain = block_weights(corpus, rows, 0.0)
    assert np.allclose(plain, np.log1p(words))  # the shipped weighting
    even = block_weights(corpus, rows, 1.0)
    assert np.isclose(even[:2].sum(), even[2:].sum())  # each page the same in all
    assert np.isclose(even.sum(), plain.sum())  # and the same total as before
    assert np.isclose(even[0], even[1]) and np.isclose(even[2], even[4])  # within a page as words
    # only the kept rows count: the second page's last block left out
    kept = block_weights(corpus, np.arange(4), 1.0)
    assert np.isclose(kept[:2].sum(), kept[2:].sum())


EXPORT = """
import sys
from scrapy_boilerplate.training.boosted import BoostedConfig, build_boosted_corpus, export_boosted, train_boosted
cfg = BoostedConfig(trees=8, leaves=4, max_depth=3, min_child_samples=2, threads=1)
corpus = build_boosted_corpus([sys.argv[1]])
export_boosted(train_boosted(corpus, cfg), sys.argv[2], cfg)
"""


def test_two_processes_export_the_same_bytes_whatever_their_hash_seed(tiny_set, tmp_path):  # noqa: F811
    # a fresh clone retrains in a new process: the converter's set of operator domains
    # must not carry the process's string hashing into the file's order
    for seed in ("1", "20"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        command = [sys.executable, "-c", EXPORT, str(tiny_set), str(tmp_path / seed)]
        subprocess.run(command, env=env, check=True, capture_output=True)
    first, second = ((tmp_path / seed / "boosted.onnx").read_bytes() for seed in ("1", "20"))
    assert first == second


def test_one_label_only_is_refused(tiny_set):  # noqa: F811
    corpus = build_boosted_corpus([tiny_set])
    corpus.labels[:] = 1
    with pytest.raises(ValueError, match="one label"):
        train_boosted(corpus, TINY)


def test_the_train_command(tiny_set, tmp_path, capsys):  # noqa: F811
    out = tmp_path / "model"
    argv = ["train", str(tiny_set), "--model", "boosted", "--out", str(out), "--threads", "1"]
    with pytest.raises(SystemExit, match="may not train"):
        main(argv)
    assert main([*argv, "--allow-any-set"]) == 0
    meta = json.loads((out / "boosted.json").read_text())
    assert meta["training"]["sets"] == {"tiny-set": "not for shipping"}
    assert "training blocks (in-sample)" in capsys.readouterr().out


def typed(folder):
    """The tiny set (``folder``) with pages 0-2 articles, 3-4 forums and 5 of no type."""
    truth = folder / "truth.jsonl"
    rows = [json.loads(line) for line in truth.read_text().splitlines()]
    for row in rows:
        if int(row["id"]) < 5:
            row["page_type"] = "article" if int(row["id"]) < 3 else "forum"
    truth.write_text("".join(json.dumps(row) + "\n" for row in rows))
    return folder


def test_pages_of_other_types_weigh_other_page_weight_times_an_articles(tiny_set):  # noqa: F811
    corpus = build_boosted_corpus([typed(tiny_set)])
    assert corpus.page_types == ["article"] * 3 + ["forum"] * 2 + [""]
    keep = np.arange(len(corpus.labels))
    page = np.searchsorted(corpus.offsets, keep, side="right") - 1
    factors = other_type_factors(corpus, keep, 0.3)
    assert np.array_equal(factors, np.where((page == 3) | (page == 4), 0.3, 1.0))


def test_the_train_command_weighs_other_page_types_as_told(tiny_set, tmp_path):  # noqa: F811
    out = tmp_path / "model"
    argv = ["train", str(typed(tiny_set)), "--model", "boosted", "--out", str(out)]
    assert main([*argv, "--threads", "1", "--allow-any-set", "--other-page-weight", "0.3"]) == 0
    meta = json.loads((out / "boosted.json").read_text())
    assert meta["config"]["other_page_weight"] == 0.3
