"""Training the language-model labelers: a tiny run of ``train --model lm`` through the
command line, a tiny ``lm_fast`` run (its static table distilled from the encoder), and
the models they write in chains."""

import json

import numpy as np
import pytest

from scrapy_boilerplate.cli import main
from scrapy_boilerplate.extraction import Extractor
from scrapy_boilerplate.neural.lm import LM_FAST_META, LM_META
from scrapy_boilerplate.neural.lm_static import SCORES_FILE, TABLE_FILE
from scrapy_boilerplate.spec import build_chain

from .test_train import _page, tiny_set  # noqa: F401 - the fixture is used by name

pytest.importorskip("sklearn", reason="scikit-learn is not installed (extra: train)")
pytest.importorskip("sentencepiece", reason="sentencepiece is not installed (extra: lm)")


def _story_kept(model_dir, name):
    html, clean = _page(1)
    text = Extractor(build_chain([{name: {"model_dir": str(model_dir)}}]), "tiny").extract(html)
    return text.text, clean


def test_tiny_lm_run_writes_a_model_the_chain_reads(tmp_path, tiny_set):  # noqa: F811
    out = tmp_path / "model"
    cache = tmp_path / "cache"
    args = ["train", str(tiny_set), "--model", "lm", "--out", str(out), "--allow-any-set"]
    assert main([*args, "--cache", str(cache), "--threads", "1"]) == 0
    meta = json.loads((out / LM_META).read_text())
    assert meta["encoder"] == "intfloat/multilingual-e5-small"
    assert meta["pooling"] == "mean" and meta["threshold"] == 0.5
    assert len(meta["weights"]) == 384 + len(meta["tag_vocabulary"])
    assert meta["pages_per_set"] == {"tiny-set": 6}
    assert meta["training_block_metrics"]["f1"] > 0.9  # six pages of one template
    assert list(cache.glob("lm-tiny-set-*.npz"))  # the vectors are kept for the next run
    text, _ = _story_kept(out, "lm")
    assert "Copyright 2024" not in text and "(1)" in text
    # the same data and cache give the same model
    again = tmp_path / "again"
    assert main([*args[:-2], str(again), "--allow-any-set", "--cache", str(cache)]) == 0
    meta2 = json.loads((again / LM_META).read_text())
    for key in ("weights", "bias", "tag_vocabulary", "threshold"):
        assert meta2[key] == meta[key], key


def test_tiny_lm_fast_run_distils_a_table(tmp_path, tiny_set):  # noqa: F811
    from scrapy_boilerplate.neural.lm_static import StaticEncoder, token_scores
    from scrapy_boilerplate.training.lm import TABLE_DIR, LMConfig, train_lm

    out = tmp_path / "fast"
    cache = tmp_path / "cache"
    config = LMConfig(static_tokens=3000, static_dims=16)
    info = train_lm([tiny_set], out, fast=True, config=config, cache_dir=cache)
    assert info["pages_per_set"] == {"tiny-set": 6}
    for name in (LM_FAST_META, SCORES_FILE):
        assert (out / name).is_file(), name
    # the table is training's (its scores ship); the tokenizer is the weights package's
    assert not (out / TABLE_FILE).exists() and not list(out.glob("*tokenizer*"))
    scores = np.load(out / SCORES_FILE)
    assert scores.dtype == np.float64 and scores.shape == (250002,)
    assert scores[:3000].any()
    assert not scores[3000:].any()  # only the first 3000 ids were distilled: zero rows
    # the table stays in the cache; the scores are its rows times the text weights
    table = StaticEncoder(cache / TABLE_DIR)
    assert table.table.dtype == np.int8 and table.table.shape == (250002, 16)
    weights = np.asarray(json.loads((out / LM_FAST_META).read_text())["weights"], np.float32)
    assert np.allclose(scores, token_scores(table.table, table.scale, weights[:16]), atol=1e-6)
    meta = json.loads((out / LM_FAST_META).read_text())
    assert meta["pooling"] == "static"
    assert meta["config"]["refine"] == LMConfig.refine  # refined on the pages' own texts
    text, _ = _story_kept(out, "lm_fast")
    assert "(1)" in text


def test_lm_training_refuses_a_set_that_may_not_ship(tiny_set, capsys):  # noqa: F811
    with pytest.raises(SystemExit, match="may not train"):
        main(["train", str(tiny_set), "--model", "lm", "--out", "x"])


def test_refined_token_vectors_fit_the_texts_and_keep_unseen_tokens():
    from scrapy_boilerplate.training.lm import refine_token_vectors

    rng = np.random.default_rng(0)
    start = rng.normal(size=(6, 3)).astype(np.float32)
    a, b = np.array([1.0, 0.0, 2.0]), np.array([0.0, -1.0, 1.0])
    rows = [[1], [2], [1, 2], [2, 1, 1, 2]]  # a text's vector is the mean of its tokens'
    targets = np.stack([a, b, (a + b) / 2, (a + b) / 2])
    fitted = refine_token_vectors(start, rows, targets, weight=1e-6)
    assert np.allclose(fitted[1], a, atol=1e-3) and np.allclose(fitted[2], b, atol=1e-3)
    untouched = [0, 3, 4, 5]  # no text holds them
    assert np.array_equal(fitted[untouched], start[untouched])
    # a heavy ridge keeps the starting vectors
    assert np.allclose(refine_token_vectors(start, rows, targets, weight=1e6), start, atol=1e-4)


def test_balanced_class_weights_raise_the_rare_class_scores():
    from scrapy_boilerplate.training.lm import LMConfig, fit_classifier, predict

    rng = np.random.default_rng(0)
    x = rng.normal(size=(400, 4))
    y = (x[:, 0] + rng.normal(scale=2.0, size=400) > 2.0).astype(np.int64)  # about 1 in 6
    plain = predict(x, *fit_classifier(x, y, LMConfig()))
    balanced = predict(x, *fit_classifier(x, y, LMConfig(class_weight="balanced")))
    # the thesis's unweighted fit calls the rare class seldom; "balanced" about as often
    # as the two classes would be if they were equally common
    assert (plain >= 0.5).mean() < y.mean() < (balanced >= 0.5).mean()
