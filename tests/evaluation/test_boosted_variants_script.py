"""``python -m benchmarks.boosted_variants``: a variant is ``boosted`` with the options
given, for the shipped model or a fold's."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from scrapy_boilerplate import ModelUnavailableError, get_extractor

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
