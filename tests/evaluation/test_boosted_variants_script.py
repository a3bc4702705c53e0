"""``python -m benchmarks.boosted_variants``: a variant is ``boosted`` with the options
given, for the shipped model or a fold's."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from scrapy_boilerplate import ModelUnavailableError, get_extractor
from scrapy_boilerplate.neural.boosted import BoostedLabeler

from ..helpers import bridge_story

PAGE = (Path(__file__).parents[1] / "neural" / "article.html").read_text(encoding="utf-8")


def test_a_variant_extracts_as_boosted_with_its_options_would():
    variants = importlib.import_module("benchmarks.boosted_variants")
    for options in ({}, {"favor": "precision"}, {"drop_footers": False}):
        runner = variants.options_runner(options)(None)
        expected = get_extractor([{"boosted": options}]).extract(PAGE).text
        assert runner(PAGE, None, None) == expected


def test_a_folds_variant_reads_that_folds_model(tmp_path):
    variants = importlib.import_module("benchmarks.boosted_variants")
    # the model is loaded when the runner is made: a fold without one says so
    with pytest.raises(ModelUnavailableError, match="fold0"):
        variants.options_runner({"favor": "recall"})(str(tmp_path / "fold0"))


def test_a_labeler_variant_runs_the_default_chain_around_its_labeler():
    made = []

    def make(model_dir):
        made.append(model_dir)
        return BoostedLabeler(model_dir, seed_summary=False)

    variants = importlib.import_module("benchmarks.boosted_variants")
    runner = variants.labeler_runner(make, "without the seed")(None)
    assert runner.name == "without the seed" and made == [None]
    text = runner(bridge_story(), None, "en")
    assert text.startswith("The council voted") and "Home News" not in text


def test_decoding_experiments_share_one_command_line(tmp_path):
    variants = importlib.import_module("benchmarks.boosted_variants")
    parser = variants.decoding_parser("an experiment")
    args = parser.parse_args(["--unseen", "--folds-dir", str(tmp_path)])
    assert args.unseen and not args.skip_cv and args.folds_dir == tmp_path


def test_the_article_model_runner_reads_a_declared_forum_with_the_article_model():
    import gzip

    variants = importlib.import_module("benchmarks.boosted_variants")
    forum = Path(__file__).parents[1] / "neural" / "wcxb-forum-2797.html.gz"
    html = gzip.decompress(forum.read_bytes()).decode("utf-8")
    runner = variants.article_model_runner("article model")(None)
    article_model = get_extractor([{"boosted": {"discussions": False}}]).extract(html).text
    assert runner(html, None, None) == article_model != get_extractor("boosted").extract(html).text


def test_the_two_models_command_line():
    variants = importlib.import_module("benchmarks.boosted_variants")
    args = variants.two_models_parser("x").parse_args(["run", "--unseen"])
    assert (args.other_run, args.full_base, args.unseen, args.folds) == (Path("run"), None, True, 4)
    assert args.base.parts[-2:] == ("grouped_cv", "boosted")
